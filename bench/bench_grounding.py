"""Benchmark: hybridjudge's check_grounding against opengate-grounding's, in one process.

Both check the same 27 OpenGATE outputs (6 bases + 21 mutants) against their gold cases. Each
round times one pass of each library over all 27 outputs, alternating which goes first, so both
see the same machine load; the figure per library is the fastest round (timeit's convention:
the minimum is the least disturbed measurement), divided by 27.

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
from hybridjudge.grounding import _check as check_module
from hybridjudge.grounding import _quantities as quantities_module

ROOT = Path(__file__).resolve().parents[1]


def _load() -> list[tuple[Output, Case]]:
    cases = {c.id: c for c in read_jsonl_models(ROOT / "corpus/opengate/cases.jsonl", Case)}
    outputs = read_jsonl_models(ROOT / "corpus/opengate/outputs.jsonl", Output)
    return [(o, cases[o.case_id]) for o in outputs]


def _clear_memos() -> None:
    check_module._cached_checker.cache_clear()
    check_module._cached_context.cache_clear()
    check_module._question_index.cache_clear()
    check_module._allowed_index.cache_clear()
    check_module._anchor_index.cache_clear()
    quantities_module._PARSE_CACHE.clear()
    from hybridjudge.grounding import _abstention, _anchors

    _anchors._compile_one.cache_clear()
    _abstention._compile.cache_clear()


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
            {
                "question": c.question,
                "anchors": [{"value": a.value, "aliases": list(a.aliases)} for a in c.anchors],
                "allowed_new_numbers": list(c.allowed_numbers),
                "answerable": c.answerable is not False,
            },
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

    def theirs() -> None:
        for answer, context, kwargs in og_args:
            og.check_grounding(answer, context, **kwargs)

    def ours_warm() -> None:
        for o, c in items:
            check_grounding(
                o.text,
                c.context,
                question=c.question,
                anchors=c.anchors,
                answerable=c.answerable,
                allowed_numbers=c.allowed_numbers,
            )

    def ours_checker() -> None:
        for answer, checker in prepared:
            checker.check(answer)

    def ours_cold() -> None:
        _clear_memos()
        ours_warm()

    contestants: dict[str, Callable[[], None]] = {
        "opengate-grounding": theirs,
        "hybridjudge warm": ours_warm,
        "hybridjudge checker": ours_checker,
        "hybridjudge cold": ours_cold,
    }
    for fn in contestants.values():  # warm-up: imports, memos, regex caches
        fn()
    best = dict.fromkeys(contestants, float("inf"))
    names = list(contestants)
    gc.disable()
    try:
        for r in range(args.rounds):
            order = names if r % 2 == 0 else names[::-1]
            for name in order:
                if name == "hybridjudge cold":
                    _clear_memos()
                    t0 = time.perf_counter()
                    ours_warm()
                else:
                    t0 = time.perf_counter()
                    contestants[name]()
                best[name] = min(best[name], time.perf_counter() - t0)
    finally:
        gc.enable()

    per = {name: best[name] / n * 1e6 for name in names}
    print(f"{n} OpenGATE outputs, best of {args.rounds} alternating rounds, Python {sys.version.split()[0]}")
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
