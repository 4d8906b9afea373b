"""``hybridjudge triage report``: the ordinal (triage) report of a predictions CSV."""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path
from typing import Any

from hybridjudge._errors import CaseFileError, ConfigError, InputError
from hybridjudge.cli._common import ListAction

__all__ = ["register"]

_LABEL_SOURCES = ("bedside", "expert", "dataset")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``triage`` and its ``report`` action to the top-level parser."""
    triage = subparsers.add_parser(
        "triage",
        help="ordinal classification reports (5-level triage and any ordered scale)",
        description="Ordinal classification reports for 5-level triage and any ordered scale.",
    )
    actions = triage.add_subparsers(dest="triage_command", metavar="ACTION")
    triage.set_defaults(handler=lambda args: _usage(triage))
    report = actions.add_parser(
        "report",
        help="report a predictions CSV: matrix, per-level recall, under/over-triage, intervals",
        description=(
            "Compute the triage report of a CSV with one case per row: confusion matrix (rows = "
            "reference), accuracy and majority baseline, per-level recall with n, balanced "
            "accuracy, under-/over-triage with numerator, denominator and population, MAE, "
            "errors 2+ levels away, weighted kappa, 95% intervals with their method. Markdown "
            "on stdout by default."
        ),
    )
    report.add_argument("predictions", type=Path, metavar="PREDICTIONS.csv", help="the CSV file")
    report.add_argument("--reference-column", required=True, help="column of the reference level")
    report.add_argument("--prediction-column", required=True, help="column of the predicted level")
    report.add_argument(
        "--scale", required=True, help="TTAS, KTAS, ESI, CTAS, MTS or custom:<name> (with --labels)"
    )
    report.add_argument(
        "--label-source",
        required=True,
        choices=_LABEL_SOURCES,
        help="where the reference labels come from: bedside, expert re-adjudication, dataset",
    )
    report.add_argument(
        "--labels",
        nargs="+",
        action=ListAction,
        metavar="LEVEL",
        help="levels of the scale in order, comma- or space-separated (default 1,2,3,4,5)",
    )
    report.add_argument("--plan", type=Path, help="analysis plan (TOML) fixed before results")
    report.add_argument("--json", action="store_true", help="print the report as JSON")
    report.add_argument("--html", type=Path, metavar="OUT", help="also write a self-contained HTML")
    report.add_argument("--delimiter", default=",", help="CSV field delimiter (default ','; '\\t')")
    report.add_argument("--encoding", default="utf-8-sig", help="CSV text encoding (default UTF-8)")
    report.add_argument(
        "--most-urgent",
        choices=("first", "last"),
        default="first",
        help="which end of the labels is most urgent (default first: level 1)",
    )
    report.add_argument(
        "--high-acuity",
        nargs="+",
        action=ListAction,
        default=["1", "2"],
        metavar="LEVEL",
        help="levels of the high-acuity subset, comma- or space-separated (default 1,2)",
    )
    report.add_argument(
        "--bootstrap-seed", type=int, default=0, metavar="N", help="bootstrap seed (default 0)"
    )
    report.add_argument(
        "--resamples", type=int, default=2000, help="bootstrap resamples (default 2000)"
    )
    report.set_defaults(handler=_report)


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


def _parse_levels(items: list[str], option: str) -> tuple[Any, ...]:
    if not items:
        raise ConfigError(f"{option}: give the levels, e.g. {option} 1,2,3")
    try:
        return tuple(int(item) for item in items)
    except ValueError:
        return tuple(items)


def _delimiter(text: str) -> str:
    value = {"\\t": "\t", "tab": "\t"}.get(text, text)
    if len(value) != 1:
        raise ConfigError(f"--delimiter {text!r}: use a single character such as ';' or '\\t'")
    return value


def _read_pairs(
    path: Path,
    *,
    reference_column: str,
    prediction_column: str,
    delimiter: str,
    encoding: str,
    scale: str,
    labels: tuple[Any, ...],
) -> tuple[list[Any], list[Any]]:
    lookup = {str(label): label for label in labels}
    reference: list[Any] = []
    prediction: list[Any] = []
    try:
        handle = path.open(encoding=encoding, newline="")
    except LookupError:
        raise ConfigError(f"--encoding {encoding!r} is not a known text encoding") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot open the predictions file ({exc.strerror})") from None
    with handle:
        reader = csv.reader(handle, delimiter=delimiter, strict=True)
        try:
            header = next(reader, None)
            if header is None:
                raise InputError(f"{path}: the file is empty; it needs a header row and cases")
            header = [name.strip().lstrip("\ufeff").strip() for name in header]  # BOM
            columns = {}
            for option, wanted in (
                ("--reference-column", reference_column),
                ("--prediction-column", prediction_column),
            ):
                if header.count(wanted) != 1:
                    problem = "is missing" if wanted not in header else "appears more than once"
                    hint = ""
                    if len(header) == 1 and delimiter == ",":
                        hint = " (one column found: is the delimiter ';' or a tab? use --delimiter)"
                    raise InputError(
                        f"{path}: column {wanted!r} ({option}) {problem}; available columns: "
                        f"{header}{hint}"
                    )
                columns[wanted] = header.index(wanted)
            for row in reader:
                if not row or all(not cell.strip() for cell in row):
                    continue
                values = []
                for column in (reference_column, prediction_column):
                    index = columns[column]
                    if index >= len(row):
                        raise CaseFileError(
                            f"the row has {len(row)} fields, the header has {len(header)}",
                            path=str(path),
                            line=reader.line_num,
                            field=column,
                        )
                    text = row[index].strip()
                    if text not in lookup:
                        shown = "an empty value" if not text else f"value {text!r}"
                        raise CaseFileError(
                            f"{shown} is not a level of {scale} ({', '.join(lookup)}); fix the "
                            "row, or pass the scale's levels with --labels",
                            path=str(path),
                            line=reader.line_num,
                            field=column,
                        )
                    values.append(lookup[text])
                reference.append(values[0])
                prediction.append(values[1])
        except UnicodeDecodeError as exc:
            raise InputError(
                f"{path}: not valid {encoding} text ({exc.reason} at byte {exc.start}); pass the "
                "file's encoding, e.g. --encoding cp1252"
            ) from None
        except csv.Error as exc:
            raise InputError(f"{path}, line {reader.line_num}: malformed CSV ({exc})") from None
    if not reference:
        raise InputError(f"{path}: no cases after the header row")
    return reference, prediction


def _report(args: argparse.Namespace) -> int:
    from hybridjudge._atomic import check_creatable
    from hybridjudge.metrics.ordinal import load_plan, scale_levels, triage_report
    from hybridjudge.reports import render_triage_markdown

    labels = _parse_levels(args.labels, "--labels") if args.labels else None
    try:  # the scale as the report will resolve it, before any row is read
        _, scale_labels = scale_levels(args.scale, labels, args.most_urgent)
    except ConfigError as exc:
        raise ConfigError(f"--scale {args.scale!r}: {exc}") from None
    if args.html is not None:  # a place the page can be written, before any work
        if args.html.is_dir():
            raise ConfigError(f"--html {args.html}: is a folder; give the HTML file's path")
        if not args.html.exists():
            check_creatable(args.html, flag="--html")
    lookup = {str(label): label for label in scale_labels}
    acuity_text = _parse_levels(args.high_acuity, "--high-acuity")
    unknown = [str(level) for level in acuity_text if str(level) not in lookup]
    if unknown:
        raise ConfigError(
            f"--high-acuity {','.join(args.high_acuity)}: {unknown} not levels of the scale "
            f"({', '.join(lookup)})"
        )
    high_acuity = tuple(lookup[str(level)] for level in acuity_text)
    plan = load_plan(args.plan) if args.plan is not None else None
    reference, prediction = _read_pairs(
        args.predictions,
        reference_column=args.reference_column,
        prediction_column=args.prediction_column,
        delimiter=_delimiter(args.delimiter),
        encoding=args.encoding,
        scale=args.scale,
        labels=scale_labels,
    )
    report = triage_report(
        reference,
        prediction,
        labels=labels,
        scale=args.scale,
        label_source=args.label_source,
        plan=plan,
        most_urgent=args.most_urgent,
        high_acuity=high_acuity,
        seed=args.bootstrap_seed,
        n_resamples=args.resamples,
    )
    if args.json:
        print(report.model_dump_json(indent=2))
    else:
        print(render_triage_markdown(report))
    if args.html is not None:
        try:
            from hybridjudge._atomic import atomic_write_text
            from hybridjudge.reports import render_triage_html

            page = render_triage_html(report)
        except ImportError as exc:
            raise ConfigError(
                f"--html needs matplotlib ({exc}); install it with: "
                "pip install 'hybridjudge[report]'"
            ) from None
        try:
            atomic_write_text(args.html, page)  # never a half-written page
        except OSError as exc:
            raise InputError(
                f"{args.html}: cannot write the HTML report ({exc.strerror})"
            ) from None
        print(f"hybridjudge triage report: wrote {args.html}", file=sys.stderr)
    return 0
