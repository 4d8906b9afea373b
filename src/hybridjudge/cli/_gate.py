"""``hybridjudge gate``: exit non-zero when detection falls or false alarms rise against a baseline,
and whenever the comparison cannot be trusted (fail closed)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from hybridjudge.cli._exit import add_max_unscored_argument, parse_fraction

__all__ = ["register"]


def _fraction(text: str) -> float:
    value = parse_fraction(text)
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(
            f"--tolerance expects a fraction in [0, 1] (e.g. 0.05 or 5%), got {text!r}"
        )
    return value


def register(subparsers: Any) -> None:
    """Add ``gate``."""
    parser = subparsers.add_parser(
        "gate",
        help="fail when a detection rate falls or a false-alarm rate rises vs a baseline",
        description=(
            "Compare a study with a baseline study cell by cell: every (corpus, defect class, origin, "
            "scorer) detection rate and every false-alarm rate. Exit 0 when nothing regressed; "
            "1 naming each regression (or each baseline cell not measured now); 2 when the "
            "studies cannot be compared (different corpora, scorers or defect classes, a judge "
            "of --judge NAME=SPEC missing or on another model, or no rate compared at all) or "
            "a file is unusable; 3 when a scorer of the current study has a larger share of "
            "unscored evaluations than --max-unscored, or no scored one (judges that did not "
            "run never pass)."
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
        type=_fraction,
        default=0.0,
        help="allowed absolute drop in a rate, a fraction in [0, 1] (default 0)",
    )
    parser.add_argument(
        "--threshold-from",
        type=Path,
        default=None,
        metavar="RESULTS_DIR",
        help="compare both studies at the judge thresholds chosen in this study (study run "
        "--false-alarm-budget; e.g. the baseline's directory): every judge's flags are read "
        "again at its chosen threshold before the rates are compared; a study that chose "
        "none, or a judge of it not in the current study, cannot be compared (exit 2)",
    )
    add_max_unscored_argument(parser)
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from hybridjudge.reports import gate
    from hybridjudge.study import load_study

    current = load_study(args.results)
    baseline = load_study(args.baseline)
    if args.threshold_from is not None:
        from hybridjudge._errors import InputError
        from hybridjudge.study import at_thresholds, chosen_thresholds

        where = f"--threshold-from {args.threshold_from}"
        chosen = chosen_thresholds(load_study(args.threshold_from), where)
        for name, study in (("the current study", current), ("the baseline", baseline)):
            absent = [s for s in chosen if s not in study.config.scorers]
            if absent:
                raise InputError(
                    f"{where} chose thresholds for {', '.join(absent)}, which {name} did not "
                    "run; compare studies of the same judges",
                    code="no_chosen_threshold",
                )
        current, baseline = at_thresholds(current, chosen), at_thresholds(baseline, chosen)
        shown = ", ".join(f"{s}={t:g}" for s, t in chosen.items())
        print(f"gate: both studies read at the thresholds chosen in {args.threshold_from}: {shown}")
    result = gate(current, baseline, tolerance=args.tolerance, max_unscored=args.max_unscored)
    labels = {
        "mismatch": "CANNOT COMPARE",
        "nothing_compared": "CANNOT COMPARE",
        "unscored": "INCOMPLETE",
    }
    for failure in result.failures:
        print(f"{labels.get(failure.kind, 'REGRESSION')} {failure.message}", file=sys.stderr)
    if result.passed:
        print(
            f"gate passed: {result.compared} rates compared with {args.baseline}, none "
            f"regressed (tolerance {args.tolerance:g}, unscored at most {args.max_unscored:g})"
        )
        return 0
    print(
        f"gate failed (exit {result.exit_code}): {len(result.failures)} problem(s); "
        f"{result.compared} rates compared",
        file=sys.stderr,
    )
    return result.exit_code
