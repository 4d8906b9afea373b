"""``hybridjudge gate``: exit non-zero when detection falls or false alarms rise against a baseline."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add ``gate``."""
    parser = subparsers.add_parser(
        "gate",
        help="fail (exit 1) when a detection rate falls or a false-alarm rate rises vs a baseline",
        description=(
            "Compare a study with a baseline study cell by cell: every (corpus, defect class, "
            "scorer) detection rate and every false-alarm rate. Exit 0 when nothing regressed, 1 "
            "naming each regression, 2 on unusable input."
        ),
    )
    parser.add_argument(
        "results",
        type=Path,
        metavar="RESULTS_DIR",
        help="the current study (directory or study.json)",
    )
    parser.add_argument(
        "--baseline",
        type=Path,
        required=True,
        help="a baseline study.json (e.g. results/baseline.json)",
    )
    parser.add_argument(
        "--tolerance",
        type=float,
        default=0.0,
        help="allowed absolute drop in a rate, a fraction (default 0)",
    )
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from hybridjudge.reports import gate
    from hybridjudge.study import load_study

    current = load_study(args.results)
    baseline = load_study(args.baseline)
    result = gate(current, baseline, tolerance=args.tolerance)
    for failure in result.failures:
        print(f"REGRESSION {failure.message}", file=sys.stderr)
    if result.passed:
        print(
            f"gate passed: {result.compared} rates compared with {args.baseline}, none regressed (tolerance {args.tolerance:g})"
        )
        return 0
    print(
        f"gate failed: {len(result.failures)} regression(s) in {result.compared} compared rates",
        file=sys.stderr,
    )
    return 1
