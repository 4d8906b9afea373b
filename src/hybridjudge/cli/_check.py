"""``hybridjudge check``: the deterministic grounding checks over a JSONL file of cases."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hybridjudge.corpus import CaseLine
    from hybridjudge.grounding import GroundingReport

__all__ = ["register"]

_EPILOG = """\
Each line of CASES.jsonl is one JSON object: id, answer, context (a string or a list of
passages), and optionally question, anchors (strings or {"value", "aliases"}), answerable
(true, false or null), allowed_numbers. OpenGATE's names answerAnchors and allowedNewNumbers
are accepted too.

exit codes:
  0  every case is grounded
  1  at least one case is not grounded (it has findings)
  2  unusable input: the file cannot be read, or at least one line is invalid (bad JSON,
     not UTF-8, a missing or mistyped field); such lines are reported on stderr with their
     line number, case id and field, and the other lines are still checked
"""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``check`` to the top-level parser."""
    parser = subparsers.add_parser(
        "check",
        help="deterministic grounding checks: required facts, traceable numbers, abstention",
        description=(
            "Check each case's answer against its context: required facts (anchors) present "
            "and not negated, every number traceable to the context, the question or the "
            "allowed list, and abstention as the answerable label requires."
        ),
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("cases", type=Path, metavar="CASES.jsonl", help="one case per line")
    parser.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object per input line instead of a table",
    )
    parser.set_defaults(handler=_run)


def _check_line(case: CaseLine) -> GroundingReport:
    from hybridjudge.grounding import check_grounding

    return check_grounding(
        case.answer,
        case.context,
        question=case.question,
        anchors=case.anchors,
        answerable=case.answerable,
        allowed_numbers=case.allowed_numbers,
    )


def _run(args: argparse.Namespace) -> int:
    from hybridjudge._errors import CaseFileError
    from hybridjudge.corpus import read_case_lines
    from hybridjudge.grounding import GroundingInputError

    path: Path = args.cases
    rows: list[tuple[int, str, GroundingReport]] = []
    bad = 0
    failed = 0
    for result in read_case_lines(path):
        error = result.error
        report: GroundingReport | None = None
        if result.case is not None:
            try:
                report = _check_line(result.case)
            except GroundingInputError as exc:
                field = exc.argument.split("[", 1)[0]
                error = CaseFileError(
                    str(exc), path=str(path), line=result.line, case_id=result.case.id, field=field
                )
        if report is None or result.case is None:
            bad += 1
            err = error or CaseFileError("unusable line", path=str(path), line=result.line)
            print(f"hybridjudge check: {err}", file=sys.stderr)
            if args.json:
                _emit(
                    {
                        "id": err.case_id,
                        "line": result.line,
                        "error": err.message,
                        "field": err.field,
                    }
                )
            continue
        if not report.grounded:
            failed += 1
        if args.json:
            _emit(
                {
                    "id": result.case.id,
                    "grounded": report.grounded,
                    "abstained": report.abstained,
                    "findings": [
                        {
                            "kind": f.kind,
                            "message": f.message,
                            "span": list(f.span) if f.span is not None else None,
                        }
                        for f in report.findings
                    ],
                }
            )
        else:
            rows.append((result.line, result.case.id, report))
    if not args.json:
        _table(rows)
    checked = len(rows) if not args.json else None
    summary = f"{failed} not grounded"
    if checked is not None:
        summary = f"{checked} checked, {checked - failed} grounded, " + summary
    if bad:
        summary += f", {bad} unusable line{'s' if bad != 1 else ''} (reported above)"
    print(f"hybridjudge check: {path}: {summary}", file=sys.stderr)
    if bad:
        return 2
    return 1 if failed else 0


def _emit(obj: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")


def _table(rows: list[tuple[int, str, GroundingReport]]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title="grounding checks", show_lines=False)
    table.add_column("line", justify="right")
    table.add_column("id")
    table.add_column("grounded")
    table.add_column("abstained")
    table.add_column("findings")
    for line, case_id, report in rows:
        findings = "\n".join(f"{f.kind}: {f.message}" for f in report.findings) or "-"
        table.add_row(
            str(line),
            case_id,
            "yes" if report.grounded else "NO",
            "yes" if report.abstained else "no",
            findings,
        )
    console = Console(
        file=sys.stdout,
        highlight=False,
        soft_wrap=False,
        width=None if sys.stdout.isatty() else 200,
    )
    console.print(table)
