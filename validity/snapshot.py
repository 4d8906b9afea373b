"""A snapshot of the checks' verdicts on every answer the repository can build, and the diff of two.

Issue 33 asks that a rebuilt grounding core list and justify every verdict it changes. This script
checks every answer of the sources below with the default number, anchor and abstention checks
and writes one line per answer (its id, grounded, the findings' kinds and subjects, and how each
figure was traced); ``--diff OLD NEW`` lists every answer whose verdict differs between two
snapshots, with both verdicts, grouped by source.

Sources (each id starts with its source's name):

- ``study``: the main job's 430 outputs (OpenGATE and HaluEval corpora and their frozen
  mutants) and the retriever's context mutants (``mutations/*-retrieval.jsonl``), as the study
  checks them (the case's question, anchors, answerable label and allowed numbers);
- ``tatqa-<layout>``: the TAT-QA dev answers of ``validity/tatqa.py`` (gold, with working,
  perturbed), their tables in each layout of ``--layouts`` (default: pipe and pdf), numbers only;
- ``tatqa-model``: the real model answers of ``validity/data/tatqa_model_answers*.jsonl``;
- ``financebench``: the FinanceBench oracle answers, read from ``shared/data/financebench`` beside the repository
  when present (skipped with a message otherwise; see ``validity/financebench.py``).

Run it once with each source tree, then diff::

    git worktree add /tmp/base <commit>
    PYTHONPATH=/tmp/base/src .venv/bin/python validity/snapshot.py --out /tmp/old.jsonl
    PYTHONPATH=src .venv/bin/python validity/snapshot.py --out /tmp/new.jsonl
    .venv/bin/python validity/snapshot.py --diff /tmp/old.jsonl /tmp/new.jsonl

The answers do not depend on the source tree (only the verdicts do), so the ids line up.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
LAYOUTS = ("pipe", "pdf")


def _module(name: str) -> ModuleType:
    """A sibling validity script as a module (they are scripts, not a package), loaded once per
    process under the name ``tatqa_model_answers.py`` gives it."""
    module = sys.modules.get(f"hj_validity_{name}")
    if module is not None:
        return module
    spec = importlib.util.spec_from_file_location(f"hj_validity_{name}", HERE / f"{name}.py")
    if spec is None or spec.loader is None:  # pragma: no cover - the files are in the repo
        raise SystemExit(f"validity/{name}.py is missing")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


Record = dict[str, Any]


def _study_records() -> Iterator[Record]:
    from hybridjudge.study import load_plan

    mutations = sorted((ROOT / "mutations").glob("*.jsonl"))
    corpora = [ROOT / "corpus" / "opengate", ROOT / "corpus" / "halueval"]
    plan = load_plan(corpus_paths=corpora, mutation_paths=mutations)
    for out in plan.outputs:
        case = plan.case_of(out)
        yield {
            "id": f"study/{out.id}",
            "answer": out.text,
            "context": tuple(plan.context_of(out)),
            "question": case.question,
            "anchors": tuple(case.anchors),
            "answerable": case.answerable,
            "allowed_numbers": tuple(case.allowed_numbers),
        }


def _tatqa_records(layouts: Sequence[str], every: int) -> Iterator[Record]:
    tatqa = _module("tatqa")
    raw = tatqa.load_documents()
    for layout in layouts:
        for doc in tatqa.build_documents(raw, every=every, layout=layout):
            for n, item in enumerate(doc.items):
                yield {
                    "id": f"tatqa-{layout}/{doc.index}/{item.question_uid}/{item.variant}/{n}",
                    "answer": item.answer,
                    "context": doc.passages,
                    "question": item.question,
                    "answerable": True,
                }


def _tatqa_model_records() -> Iterator[Record]:
    tatqa = _module("tatqa")
    raw = tatqa.load_documents()
    by_uid = {}
    for index, doc in enumerate(raw):
        for q in doc["questions"]:
            by_uid[q["uid"]] = (index, q["question"])
    for path in sorted((HERE / "data").glob("tatqa_model_answers*.jsonl")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
            row = json.loads(line)
            uid = row.get("question_uid") or row.get("uid")
            if uid not in by_uid or not isinstance(row.get("answer"), str):
                continue
            index, question = by_uid[uid]
            yield {
                "id": f"tatqa-model/{path.stem}/{n}",
                "answer": row["answer"],
                "context": tatqa.context_passages(raw[index]),
                "question": question,
                "answerable": True,
            }


def _financebench_records() -> Iterator[Record]:
    fb = _module("financebench")
    data = fb.DATA
    if not Path(data).is_dir():
        print(f"financebench: {data} is absent, skipped", file=sys.stderr)
        return
    for n, a in enumerate(fb.load_answers(Path(data))):
        yield {
            "id": f"financebench/{a.financebench_id}/{a.model}/{n}",
            "answer": a.answer,
            "context": a.pages,
            "question": a.question,
            "answerable": None,
        }


def verdict(record: Record) -> Record:
    """The checks' verdict on one answer: what a changed verdict is compared on."""
    from hybridjudge.grounding import check_grounding

    report = check_grounding(
        record["answer"],
        record["context"],
        question=record.get("question"),
        anchors=record.get("anchors", ()),
        answerable=record.get("answerable"),
        allowed_numbers=record.get("allowed_numbers", ()),
    )
    return {
        "id": record["id"],
        "grounded": report.grounded,
        "findings": [[f.kind, f.subject] for f in report.findings],
        "traces": [[t.quantity.text, t.source, t.derivation] for t in report.quantities],
    }


def snapshot(out: Path, layouts: Sequence[str], every: int) -> int:
    """Write the snapshot; returns the number of answers checked."""
    sources = [
        ("study", _study_records()),
        ("tatqa", _tatqa_records(layouts, every)),
        ("tatqa-model", _tatqa_model_records()),
        ("financebench", _financebench_records()),
    ]
    n = 0
    with out.open("w", encoding="utf-8") as fh:
        for name, records in sources:
            t0 = time.perf_counter()
            count = 0
            for record in records:
                fh.write(json.dumps(verdict(record), ensure_ascii=False) + "\n")
                count += 1
            n += count
            print(f"{name}: {count} answers, {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    return n


def _read(path: Path) -> dict[str, Record]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    return {r["id"]: r for r in rows}


def diff(old_path: Path, new_path: Path, traces: bool = False) -> tuple[str, int]:
    """The changed verdicts (grounded or findings; with ``traces`` also how figures were traced)
    as text, and their number."""
    old, new = _read(old_path), _read(new_path)
    lines: list[str] = []
    missing = sorted(set(old) ^ set(new))
    if missing:
        lines.append(f"{len(missing)} answers in only one snapshot, e.g. {missing[:3]}")
    keys = ("grounded", "findings", "traces") if traces else ("grounded", "findings")
    changed = [i for i in old if i in new and any(old[i][k] != new[i][k] for k in keys)]
    per_source = Counter(i.split("/", 1)[0] for i in changed)
    turned = Counter((i.split("/", 1)[0], old[i]["grounded"], new[i]["grounded"]) for i in changed)
    lines.append(f"{len(changed)} of {len(set(old) & set(new))} verdicts changed")
    for source, count in sorted(per_source.items()):
        flips = ", ".join(
            f"{'grounded' if a else 'flagged'} -> {'grounded' if b else 'flagged'}: {c}"
            for (s, a, b), c in sorted(turned.items())
            if s == source
        )
        lines.append(f"  {source}: {count} ({flips})")
    for i in changed:
        lines.append(f"{i}\n  old: {old[i]['findings']}\n  new: {new[i]['findings']}")
        if traces:
            lines.append(f"  old traces: {old[i]['traces']}\n  new traces: {new[i]['traces']}")
    return "\n".join(lines), len(changed)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, help="write the snapshot (JSON lines) here")
    parser.add_argument(
        "--diff", nargs=2, type=Path, metavar=("OLD", "NEW"), help="list changed verdicts"
    )
    parser.add_argument(
        "--traces", action="store_true", help="with --diff: count a changed trace as a change"
    )
    parser.add_argument(
        "--layouts",
        default=",".join(LAYOUTS),
        help="TAT-QA table layouts, comma-separated (pipe, markdown, html, pdf; default pipe,pdf)",
    )
    parser.add_argument("--every", type=int, default=1, help="every n-th TAT-QA context")
    args = parser.parse_args(argv)
    if args.diff:
        text, changed = diff(args.diff[0], args.diff[1], args.traces)
        print(text)
        return 1 if changed else 0
    if args.out is None:
        parser.error("give --out FILE (make a snapshot) or --diff OLD NEW")
    n = snapshot(args.out, [s for s in args.layouts.split(",") if s], args.every)
    print(f"{n} verdicts written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
