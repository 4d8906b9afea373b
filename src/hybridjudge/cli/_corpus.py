"""``hybridjudge corpus import``: turn your own RAG records into a corpus folder for the study."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

__all__ = ["register"]

_EPILOG = """\
SOURCE is a .jsonl, .json, .csv, .parquet or .xlsx file of records: question, contexts, answer, and
optionally id, anchors (required facts), answerable, reference (a reference answer) and any
fields of your own (kept as metadata). RAGAS names (user_input, response, retrieved_contexts,
reference; legacy question, answer, contexts, ground_truth) and DeepEval names (input,
actual_output, retrieval_context, expected_output) are read as such.

Then:
  hybridjudge mutate OUT --mutation-seed 0 --out mutations/NAME.jsonl
  hybridjudge study run --corpus OUT --mutations mutations/NAME.jsonl \\
      --scorers deterministic,support,contradiction --out results/NAME

"""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``corpus`` (with its ``import`` subcommand)."""
    parser = subparsers.add_parser(
        "corpus",
        help="bring your own data: import RAG records as a corpus for the mutation study",
        description="Corpus folders (cases.jsonl + outputs.jsonl) for the mutation study.",
    )
    sub = parser.add_subparsers(dest="corpus_command", metavar="SUBCOMMAND")
    imp = sub.add_parser(
        "import",
        help="turn a file of RAG records into a corpus folder",
        description=(
            "Each record becomes a gold case (question, contexts, anchors, answerable, "
            "metadata) and a base output (the record's answer, with the record's label: "
            "label correct/incorrect/unknown, or a boolean clean, is_correct or "
            "is_hallucination; false alarms count only answers labelled correct). Writes "
            "cases.jsonl, "
            "outputs.jsonl, import.json (source and file sha256, skipped records) and a "
            "README.md saying what the study can measure on it."
        ),
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    imp.add_argument("source", type=Path, metavar="SOURCE", help="file of RAG records")
    imp.add_argument("--out", required=True, type=Path, metavar="DIR", help="corpus folder")
    imp.add_argument(
        "--strict",
        action="store_true",
        help="reject fields other than hybridjudge's own instead of keeping them as metadata",
    )
    from hybridjudge.cli._check import add_input_arguments

    add_input_arguments(imp, strict=False)  # --format, --delimiter, the input bounds
    imp.add_argument(
        "--derive-anchors",
        action="store_true",
        help="for records without anchors, derive candidate anchors (numbers, named entities) "
        "from the reference answer; marked as derived in the case",
    )
    imp.add_argument(
        "--system",
        default="my-rag",
        help="name of the system that produced the answers (default my-rag)",
    )
    imp.add_argument(
        "--producer-model", metavar="NAME", help="the model behind that system, if known"
    )
    imp.add_argument(
        "--overwrite", action="store_true", help="replace the corpus files in a non-empty --out"
    )
    imp.set_defaults(handler=_import)
    parser.set_defaults(handler=lambda _args: _usage(parser))


def _usage(parser: argparse.ArgumentParser) -> int:
    from hybridjudge.cli._exit import EXIT_USAGE

    parser.print_help(sys.stderr)
    return EXIT_USAGE


def _import(args: argparse.Namespace) -> int:
    from hybridjudge.cli._check import read_delimiter, read_limits
    from hybridjudge.cli._exit import EXIT_OK, EXIT_USAGE
    from hybridjudge.corpus import import_corpus

    report = import_corpus(
        args.source,
        args.out,
        strict=args.strict,
        format=args.format,
        derive=args.derive_anchors,
        system=args.system,
        model=args.producer_model,
        overwrite=args.overwrite,
        limits=read_limits(args),
        delimiter=read_delimiter(args),
    )
    for skipped in report.skipped:
        line_based = (".jsonl", ".ndjson", ".csv", ".xlsx")
        where = "line" if args.source.suffix.lower() in line_based else "record"
        print(
            f"hybridjudge corpus import: {args.source}: {where} {skipped.record}: skipped: "
            + "; ".join(skipped.problems),
            file=sys.stderr,
        )
    print(
        f"corpus {report.name!r} in {args.out}: {report.cases} case(s) from {report.records} "
        f"record(s), {len(report.skipped)} skipped; anchors given in "
        f"{report.cases_with_anchors}, derived in {report.cases_with_derived_anchors}, none in "
        f"{report.cases_without_anchors}"
    )
    print(
        f"labels: {report.labelled_correct} correct, {report.labelled_incorrect} incorrect, "
        f"{report.unlabelled} unlabelled (false alarms count only the answers labelled correct)"
    )
    if report.omission_note:
        print(f"note: {report.omission_note}")
    print(
        f"next: hybridjudge mutate {args.out} --mutation-seed 0 --out mutations/{report.name}.jsonl"
    )
    return EXIT_USAGE if report.skipped else EXIT_OK
