"""``hybridjudge report RESULTS_DIR``: regenerate report.md and report.html from study.json."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add ``report``."""
    parser = subparsers.add_parser(
        "report", help="regenerate report.md and report.html from a study.json"
    )
    parser.add_argument(
        "results",
        type=Path,
        metavar="RESULTS_DIR",
        help="directory holding study.json (or the file itself)",
    )
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from hybridjudge.reports import write_reports
    from hybridjudge.study import load_study

    study = load_study(args.results)
    out = args.results if args.results.is_dir() else args.results.parent
    for kind, path in write_reports(study, out, write_json=False).items():
        print(f"{kind}: {path}")
    return 0
