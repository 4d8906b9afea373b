"""Validity: the retriever's defects on TAT-QA, and which deterministic check sees them.

TAT-QA's dev split (see ``validity/tatqa.py`` and ``validity/README.md``): every gold answer of
type span or arithmetic (the value with its scale and currency, as ``validity/tatqa.py`` writes
it) that the checks pass against its full context is a right answer; each context mutator of
:mod:`hybridjudge.mutations` (seeded per question with ``derive_seed(0, class, uid)``; the
distractor drawn from the other contexts) changes its context, and the deterministic checks are
run on the right answer against the mutant context. Two modes, as in ``validity/tatqa.py``:
``numbers`` (number traceability only) and ``anchored`` (the gold value also a required anchor,
whose quantities an answer may always repeat).

Run from the repository root::

    .venv/bin/python validity/tatqa_retrieval.py --every 5
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from hybridjudge.corpus import CONTEXT_DEFECT_CLASSES, CONTROL_CLASSES, Anchor, Case
from hybridjudge.grounding import check_grounding
from hybridjudge.mutations import CONTEXT_MUTATORS, MutationRefused, derive_seed

HERE = Path(__file__).resolve().parent

CLASSES = (*CONTEXT_DEFECT_CLASSES, *CONTROL_CLASSES)


def _findings(answer: str, context: tuple[str, ...], case: Case) -> set[tuple[str, str]]:
    report = check_grounding(answer, list(context), question=case.question, anchors=case.anchors)
    return {(str(f.kind), f.subject) for f in report.findings}


def main(argv: list[str] | None = None) -> int:
    """Print, per mode and class: mutants made, refused, and seen by the deterministic checks."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--every", type=int, default=5, help="every N-th context (default 5)")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(HERE))
    import tatqa  # the benchmark's loader, beside this script

    docs = tatqa.build_documents(tatqa.load_documents(), every=args.every)
    items = [
        (doc, item)
        for doc in docs
        for item in doc.items
        if item.variant == "gold" and item.answer_type in ("span", "arithmetic")
    ]
    pool_numbers = tuple(
        Case(id=f"doc{doc.index}", context=doc.passages, label_source="tatqa") for doc in docs
    )
    print(f"TAT-QA dev, every {args.every}th context: {len(docs)} contexts, {len(items)} gold")
    for mode in ("numbers", "anchored"):
        made: Counter[str] = Counter()
        seen: Counter[str] = Counter()
        refused: Counter[str] = Counter()
        right = 0
        for doc, item in items:
            anchors = tuple(Anchor(value=a) for a in item.anchors) if mode == "anchored" else ()
            case = Case(
                id=item.question_uid,
                question=item.question,
                context=doc.passages,
                anchors=anchors,
                label_source="tatqa",
            )
            base = _findings(item.answer, case.context, case)
            if base:
                continue  # not a right answer for the checks: nothing to compare with
            right += 1
            pool = tuple(p for p in pool_numbers if p.id != f"doc{doc.index}")
            for defect in CLASSES:
                seed = derive_seed(0, defect, item.question_uid)
                try:
                    mutant = CONTEXT_MUTATORS[defect](item.answer, case, seed=seed, pool=pool)
                except MutationRefused:
                    refused[defect] += 1
                    continue
                made[defect] += 1
                if _findings(item.answer, mutant.context, case) - base:
                    seen[defect] += 1
        print(f"\nmode {mode}: {right} right answers (no finding on the full context)")
        print(f"  {'class':<20} {'made':>5} {'refused':>8} {'seen by the checks':>20}")
        for defect in CLASSES:
            n = made[defect]
            rate = f"{seen[defect]}/{n} ({100 * seen[defect] / n:.0f}%)" if n else "-"
            print(f"  {defect:<20} {n:>5} {refused[defect]:>8} {rate:>20}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
