"""``hybridjudge report RESULTS_DIR``: regenerate report.md, report.html and observations.csv
from study.json."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from hybridjudge.cli._common import add_csv_raw_formulas_argument

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add ``report``."""
    parser = subparsers.add_parser(
        "report",
        help="regenerate report.md, report.html and observations.csv from a study.json",
        description=(
            "Render a finished study again from its study.json, without rerunning any scorer: "
            "report.md, the self-contained report.html (same bytes for the same study.json) and "
            "observations.csv (one tidy row per output x scorer x repetition, for pandas), "
            "written next to study.json."
        ),
    )
    parser.add_argument(
        "results",
        type=Path,
        metavar="RESULTS_DIR",
        help="directory holding study.json (or the file itself)",
    )
    add_csv_raw_formulas_argument(parser)
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from hybridjudge.reports import log_study_warnings, write_reports
    from hybridjudge.study import load_study

    study = load_study(args.results)
    log_study_warnings(study)
    out = args.results if args.results.is_dir() else args.results.parent
    written = write_reports(study, out, write_json=False, csv_raw_formulas=args.csv_raw_formulas)
    for kind, path in written.items():
        print(f"{kind}: {path}")
    return 0
