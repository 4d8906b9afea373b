"""Rebuild ``corpus/opengate`` and ``corpus/halueval`` byte for byte from their upstream files.

Usage: ``python scripts/build_corpus.py [--data tests/data/corpus-source] [--out corpus]``

The repository ships the upstream files it needs, with their licences, in
``tests/data/corpus-source`` (see its README and ``docs/corpus.md``); ``--data`` takes another
copy with the same layout (``opengate/`` and ``halueval/``).

Writes each corpus's ``cases.jsonl``, ``outputs.jsonl`` and ``LICENSE`` (and OpenGATE's
``paper-results/``); the hand-written ``README.md`` files are left alone. The HaluEval sample is
drawn with ``random.Random(2026)`` (``hybridjudge.corpus.HALUEVAL_SEED``).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

from hybridjudge._errors import HybridJudgeError
from hybridjudge.corpus import build_halueval, build_opengate

REPO = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    """Build both corpora; print each written file with its sha256."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--data",
        type=Path,
        default=REPO / "tests" / "data" / "corpus-source",
        help="folder with opengate/ and halueval/ upstream files (default: tests/data/corpus-source)",
    )
    parser.add_argument("--out", type=Path, default=REPO / "corpus")
    args = parser.parse_args(argv)
    try:
        written = build_opengate(args.data / "opengate", args.out / "opengate")
        written += build_halueval(args.data / "halueval", args.out / "halueval")
    except HybridJudgeError as exc:
        print(f"build_corpus: error: {exc}", file=sys.stderr)
        return 2
    for path in written:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        print(f"{digest}  {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
