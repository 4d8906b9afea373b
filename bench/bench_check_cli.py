"""Benchmark ``hybridjudge check`` end to end against another source tree (the code before a
change), on the OpenGATE case file and on TAT-QA's dev split as case lines, interleaved.

The guards of issue 37 (bounded readers, the terminal guard, the findings cap) sit on this path;
this measures what they cost where a user pays it: the whole command in a fresh interpreter
(start-up, reading, checking, printing), ``--rounds`` times per tree, alternating, medians and
the ratio ours / base. The TAT-QA case file is built from ``../shared/data/tatqa`` (each table as
pipe rows plus its paragraphs as the context, the gold answer written ``It was X scale.``); it is
skipped with a message where that data is absent.

Run::

    git worktree add /tmp/base 3695426
    .venv/bin/python bench/bench_check_cli.py --base /tmp/base/src
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TATQA = REPO.parent / "shared" / "data" / "tatqa" / "tatqa_dataset_dev.json"


def tatqa_cases(path: Path) -> Path | None:
    """TAT-QA's dev questions as case lines in ``path`` (``None``: the data is absent)."""
    if not TATQA.is_file():
        print(f"skipping TAT-QA: {TATQA} is absent")
        return None
    lines = []
    for item in json.loads(TATQA.read_text(encoding="utf-8")):
        table = "\n".join(" | ".join(row) for row in item["table"]["table"])
        context = [table, *(p["text"] for p in item["paragraphs"])]
        for q in item["questions"]:
            answer = q["answer"]
            answer = ", ".join(map(str, answer)) if isinstance(answer, list) else str(answer)
            text = f"It was {answer} {q.get('scale') or ''}".strip() + "."
            record = {"id": q["uid"], "question": q["question"], "answer": text, "context": context}
            lines.append(json.dumps(record))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def run(src: Path, cases: Path) -> float:
    """Seconds of one ``hybridjudge check CASES --json`` with ``src`` first on the path."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    code = "import sys; from hybridjudge.cli import main; sys.exit(main(sys.argv[1:]))"
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", code, "check", str(cases), "--json"],
        env=env,
        capture_output=True,
        check=False,
    )
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"check failed ({done.returncode}) with {src}: {done.stderr[-800:]!r}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", type=Path, required=True, help="the other tree's src folder")
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        files = {"opengate (27 cases)": REPO / "examples/check/opengate-cases.jsonl"}
        tatqa = tatqa_cases(Path(tmp) / "tatqa.jsonl")
        if tatqa is not None:
            files["tatqa dev (1,668 cases)"] = tatqa
        for name, cases in files.items():
            times: dict[str, list[float]] = {"ours": [], "base": []}
            for _ in range(args.rounds):
                times["ours"].append(run(REPO / "src", cases))
                times["base"].append(run(args.base, cases))
            ours, base = statistics.median(times["ours"]), statistics.median(times["base"])
            print(
                f"{name}: ours {ours:.3f} s, base {base:.3f} s, ratio {ours / base:.3f} "
                f"(median of {args.rounds}, interleaved, fresh interpreters)"
            )


if __name__ == "__main__":
    main()
