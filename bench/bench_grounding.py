"""Benchmark: hybridjudge's check_grounding against opengate-grounding's, in one process.

Both check the same 27 OpenGATE outputs (6 bases + 21 mutants) against their gold cases. Calls
are interleaved output by output (the order of the contestants alternates), so all see the same
machine load; for each output and contestant the fastest of ``--rounds`` calls is kept (timeit's
convention: the minimum is the least disturbed measurement), and the figure printed is the mean
of those minima over the 27 outputs, in microseconds.

Three figures for hybridjudge:
- ``warm``: the normal call ``check_grounding(answer, context, ...)``, with each case's context,
  anchors and markers already parsed by an earlier call (they are memoised, as in a study that
  scores many answers per case);
- ``checker``: a prepared ``GroundingChecker`` per case, ``checker.check(answer)``;
- ``cold``: every memo cleared before each pass, so each case is parsed again (first-call cost).

Run from the repository root::

    .venv/bin/python bench/bench_grounding.py [--rounds 200]
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from collections.abc import Callable
from pathlib import Path

import opengate_grounding as og

from hybridjudge.corpus import Case, Output, read_jsonl_models
from hybridjudge.grounding import GroundingChecker, check_grounding
from hybridjudge.grounding import _anchors as anchors_module
from hybridjudge.grounding import _check as check_module
from hybridjudge.grounding import _quantities as quantities_module

ROOT = Path(__file__).resolve().parents[1]


def _load() -> list[tuple[Output, Case]]:
    cases = {c.id: c for c in read_jsonl_models(ROOT / "corpus/opengate/cases.jsonl", Case)}
    outputs = read_jsonl_models(ROOT / "corpus/opengate/outputs.jsonl", Output)
    return [(o, cases[o.case_id]) for o in outputs]


def _clear_memos() -> None:
    """Forget every parsed case (context, question, anchors, allowed numbers) and literal.

    The compiled abstention markers are kept: they are per process, not per case.
    """
    check_module._cached_checker.cache_clear()
    check_module._cached_context.cache_clear()
    check_module._question_index.cache_clear()
    check_module._allowed_index.cache_clear()
    check_module._anchor_index.cache_clear()
    anchors_module._compile_one.cache_clear()
    quantities_module._PARSE_CACHE.clear()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200, help="timed rounds (default 200)")
    args = parser.parse_args(argv)
    items = _load()
    n = len(items)

    og_args = [
        (
            o.text,
            list(c.context),
            c.question,
            [og.Anchor(a.value, list(a.aliases)) for a in c.anchors],
            list(c.allowed_numbers),
            c.answerable is not False,  # opengate has no "unknown"
        )
        for o, c in items
    ]
    checkers = {
        c.id: GroundingChecker(
            c.context,
            question=c.question,
            anchors=c.anchors,
            answerable=c.answerable,
            allowed_numbers=c.allowed_numbers,
        )
        for _, c in items
    }
    prepared = [(o.text, checkers[c.id]) for o, c in items]

    def theirs(i: int) -> None:
        answer, context, question, anchors, allowed, answerable = og_args[i]
        og.check_grounding(
            answer,
            context,
            question=question,
            anchors=anchors,
            allowed_new_numbers=allowed,
            answerable=answerable,
        )

    def ours_warm(i: int) -> None:
        o, c = items[i]
        check_grounding(
            o.text,
            c.context,
            question=c.question,
            anchors=c.anchors,
            answerable=c.answerable,
            allowed_numbers=c.allowed_numbers,
        )

    def ours_checker(i: int) -> None:
        answer, checker = prepared[i]
        checker.check(answer)

    contestants: dict[str, Callable[[int], None]] = {
        "opengate-grounding": theirs,
        "hybridjudge warm": ours_warm,
        "hybridjudge checker": ours_checker,
        "hybridjudge cold": ours_warm,  # timed right after clearing every memo
    }
    for fn in contestants.values():  # warm-up: imports, memos, regex caches
        for i in range(n):
            fn(i)
    names = list(contestants)
    best = {name: [float("inf")] * n for name in names}
    gc.disable()
    try:
        for r in range(args.rounds):
            for i in range(n):
                order = names if (r + i) % 2 == 0 else names[::-1]
                for name in order:
                    if name == "hybridjudge cold":
                        _clear_memos()
                    t0 = time.perf_counter()
                    contestants[name](i)
                    elapsed = time.perf_counter() - t0
                    if elapsed < best[name][i]:
                        best[name][i] = elapsed
    finally:
        gc.enable()

    per = {name: sum(best[name]) / n * 1e6 for name in names}
    python = sys.version.split()[0]
    print(
        f"{n} OpenGATE outputs; per output the fastest of {args.rounds} interleaved calls; "
        f"Python {python}"
    )
    print(f"{'scorer':<22} {'us/output':>10} {'ratio vs opengate':>18}")
    for name in names:
        print(f"{name:<22} {per[name]:>10.1f} {per[name] / per['opengate-grounding']:>18.2f}")
    print(
        "ratio (ours/theirs, warm check_grounding): "
        f"{per['hybridjudge warm'] / per['opengate-grounding']:.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
