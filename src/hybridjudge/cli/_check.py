"""``hybridjudge check``: the deterministic grounding checks over a file of cases.

Also home of :func:`parse_fail_under` and :func:`failed_shares`, the ``--fail-under`` rule
shared with ``hybridjudge judge``: ``SCORER=SHARE`` is the least share of the usable outputs that
must pass (here: be grounded); without it every usable output must pass.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hybridjudge.corpus import CaseLine
    from hybridjudge.grounding import DerivedPolicy, GroundingReport

__all__ = [
    "JSON_FORMAT_VERSION",
    "add_input_arguments",
    "describe_failed_share",
    "failed_shares",
    "parse_fail_under",
    "register",
    "warn_duplicate_ids",
]

JSON_FORMAT_VERSION = 2
"""Version of a ``check --json`` line: ``format_version``, ``line``, ``id``, then ``grounded``,
``abstained``, ``findings`` (``kind``, ``message``, ``subject``, ``evidence``, ``span``; the
first ``--max-findings``), ``findings_count`` (all of them), ``rules`` (how many of the answer's
numbers each trace rule explained; only when some number was traced: added in 2),
``derived`` (``number``, ``derivation``, ``rule``, the last added in 2; only when some number
was derived) and ``metadata`` (only when the case has extra fields); an unusable line has
``error`` and ``field`` instead."""

MAX_FINDINGS = 50
"""Findings shown per case by default, in the table and in ``--json`` (``--max-findings``)."""

DETERMINISTIC = "deterministic"
"""The scorer name of the grounding checks in ``--fail-under`` (as in the study)."""

_EPILOG = """\
CASES is a .jsonl, .json, .csv, .parquet or .xlsx file (or --format): one case per line/record with id,
answer, context (a string or a list of passages), and optionally question, anchors (strings or
{"value", "aliases"}), answerable (true, false or null), allowed_numbers, reference. OpenGATE's
answerAnchors/allowedNewNumbers, RAGAS's user_input/response/retrieved_contexts/reference (and
legacy question/answer/contexts/ground_truth) and DeepEval's input/actual_output/
retrieval_context/expected_output are read as such. Other fields are kept as metadata and
echoed in --json (with --strict they are rejected). A record without id gets record-N.
A CSV file's delimiter (comma, semicolon or tab) is detected from its header row (--delimiter to
choose). A record past --max-record-bytes or --max-field-bytes is one unusable line; a file past
--max-file-bytes is refused. Each case shows its first --max-findings findings (default 50).

--fail-under deterministic=0.9 exits 1 only when fewer than 90% of the usable cases pass (are
grounded); without it any ungrounded case exits 1. The flag means the same in 'judge' (the share
of outputs whose score is at or above --threshold).

Each traced number is explained by a named rule (as_written, rounded, rescaled, approximation,
bound, sum, difference, ratio, percent_change, mean, share...): --json counts them per case
(rules) and names the rule of each derived number; --list-rules prints every rule and its meaning.

"""


class _ListRules(argparse.Action):
    """``--list-rules``: print :data:`hybridjudge.grounding.TRACE_RULES` and exit (the
    grounding checks are imported only then: ``--help`` stays cheap)."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        import textwrap

        from hybridjudge.grounding import TRACE_RULES

        width = max(len(rule) for rule in TRACE_RULES) + 2
        for rule, meaning in TRACE_RULES.items():
            print(
                textwrap.fill(
                    meaning, 100, initial_indent=f"{rule:<{width}}", subsequent_indent=" " * width
                )
            )
        parser.exit()


def _rule_counts(report: GroundingReport) -> dict[str, int]:
    """How many of the report's quantities each trace rule explained, in the rules' order."""
    from hybridjudge.grounding import TRACE_RULES

    counts = dict.fromkeys(TRACE_RULES, 0)
    for trace in report.quantities:
        if trace.rule is not None:
            counts[trace.rule] += 1
    return {rule: n for rule, n in counts.items() if n}


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
    parser.add_argument(
        "cases", type=Path, metavar="CASES", help="case file (.jsonl, .json, .csv, .parquet)"
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object per input line instead of a table (format_version 2: "
        "line, id, grounded, abstained, findings, findings_count, rules, derived, metadata; an "
        "unusable line: error, field)",
    )
    parser.add_argument(
        "--list-rules",
        action=_ListRules,
        help="print the rules that explain a traced number (--json's rules) and exit",
    )
    parser.add_argument(
        "--max-findings",
        type=_findings_cap,
        default=MAX_FINDINGS,
        metavar="N",
        help=f"findings shown per case, in the table and in --json (default {MAX_FINDINGS}; "
        "'all' for every one); the rest are counted ('... and N more', findings_count)",
    )
    add_input_arguments(parser)
    parser.add_argument(
        "--derived",
        choices=("grounded", "finding"),
        default="grounded",
        help="a number computed from context figures (e.g. 30.8%% from 177,866 and 135,987) "
        "is reported with its derivation; 'grounded' accepts it, 'finding' flags it as "
        "derived_number (default: grounded)",
    )
    parser.add_argument(
        "--fail-under",
        action="append",
        default=[],
        metavar="deterministic=SHARE",
        help="exit 1 only when the share of usable cases that pass (are grounded) is below "
        "SHARE (0..1 or a percentage; default: every case must pass)",
    )
    from hybridjudge.cli._ray import add_ray_arguments

    add_ray_arguments(parser)
    parser.set_defaults(handler=_run)


def add_input_arguments(parser: argparse.ArgumentParser, *, strict: bool = True) -> None:
    """Add ``--format``, ``--delimiter``, ``--strict`` (how a case file is read; *strict* False
    leaves ``--strict`` to the caller) and the input bounds (:func:`add_limit_arguments`),
    shared with ``judge`` and ``corpus import``."""
    parser.add_argument(
        "--format",
        choices=("jsonl", "json", "csv", "parquet", "xlsx"),
        help="format of the case file (default: from its extension; xlsx needs "
        "pip install 'hybridjudge[xlsx]')",
    )
    parser.add_argument(
        "--delimiter",
        metavar="CHAR",
        help="cell separator of a CSV file: ',', ';', 'tab' or any one character (default: "
        "detected from the header row among comma, semicolon and tab)",
    )
    if strict:
        parser.add_argument(
            "--strict",
            action="store_true",
            help="accept only hybridjudge's own field names and reject any other field "
            "(default: RAGAS/DeepEval names are mapped and extra fields kept as metadata)",
        )
    add_limit_arguments(parser)


_LIMIT_FLAGS = (
    ("--max-file-bytes", "max_file_bytes", "1GiB", "one input file (Parquet, xlsx: decoded)"),
    ("--max-record-bytes", "max_record_bytes", "64MiB", "one record (JSONL line, CSV row)"),
    ("--max-field-bytes", "max_field_bytes", "16MiB", "one field (JSON string, CSV cell)"),
)


def add_limit_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--max-file-bytes``, ``--max-record-bytes`` and ``--max-field-bytes``: the bounds
    on what is read from an input file (:class:`hybridjudge.corpus.ReadLimits`); read them
    back with :func:`read_limits`."""
    group = parser.add_argument_group(
        "input bounds",
        "a record past a bound is reported as unusable and the others are read; a file past "
        "its bound is refused. SIZE: bytes, or with a unit (64MiB, 2GB)",
    )
    for flag, dest, default, what in _LIMIT_FLAGS:
        group.add_argument(
            flag,
            dest=dest,
            type=_size(flag),
            metavar="SIZE",
            help=f"most bytes of {what} (default {default})",
        )


def read_limits(args: argparse.Namespace) -> Any:
    """The :class:`hybridjudge.corpus.ReadLimits` of the flags :func:`add_limit_arguments`
    added (the defaults for those not given)."""
    from hybridjudge.corpus import ReadLimits

    given = {dest: getattr(args, dest) for _, dest, _, _ in _LIMIT_FLAGS}
    return ReadLimits(**{k: v for k, v in given.items() if v is not None})


def _size(flag: str) -> Any:
    def parse(text: str) -> int:
        from hybridjudge._errors import ConfigError
        from hybridjudge._limits import parse_size

        try:
            return parse_size(text, flag=flag)
        except ConfigError as exc:
            raise argparse.ArgumentTypeError(str(exc).removeprefix(f"{flag} ")) from None

    return parse


_DELIMITER_NAMES = {"comma": ",", "semicolon": ";", "tab": "\t", "\\t": "\t", "pipe": "|"}


def read_delimiter(args: argparse.Namespace) -> str | None:
    """The CSV delimiter of ``--delimiter`` (one character, or tab, comma, semicolon, pipe),
    ``None`` when not given (detected from the header row).

    Raises:
        ConfigError: not one character (nor a name).
    """
    text: str | None = args.delimiter
    if text is None:
        return None
    value = _DELIMITER_NAMES.get(text.lower(), text)
    if len(value) != 1 or value in ('"', "\r", "\n"):
        from hybridjudge._errors import ConfigError

        raise ConfigError(
            f"--delimiter {text!r}: give one character, e.g. ';' or ',', or the name tab, "
            "comma, semicolon or pipe"
        )
    return value


def _findings_cap(text: str) -> int | None:
    if text.strip().lower() == "all":
        return None
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: give a whole number of at least 1, or all")
    return value


def parse_fail_under(
    values: list[str], scorers: tuple[str, ...], flag: str = "--fail-under"
) -> dict[str, float]:
    """``["support=0.8", ...]`` -> ``{"support": 0.8}``; every scorer named must be in *scorers*.
    Reads ``--fail-under`` and ``judge --threshold`` (``flag``: the flag the errors name).

    Raises:
        ConfigError: a value is not ``SCORER=NUMBER`` with NUMBER in [0, 1], names an unknown
            scorer, or names one twice.
    """
    from hybridjudge._errors import ConfigError
    from hybridjudge.cli._exit import parse_fraction

    out: dict[str, float] = {}
    for value in values:
        for part in (p.strip() for p in value.split(",")):
            if not part:
                continue
            name, sep, number = part.partition("=")
            name = name.strip()
            threshold = parse_fraction(number) if sep else float("nan")
            if not 0.0 <= threshold <= 1.0:
                raise ConfigError(
                    f"{flag} {part!r}: give SCORER=NUMBER with NUMBER between 0 and 1, "
                    f"e.g. {scorers[0]}=0.8 or {scorers[0]}=80%"
                )
            if name not in scorers:
                raise ConfigError(
                    f"{flag} {part!r}: unknown scorer {name!r}; use one of {', '.join(scorers)}"
                )
            if name in out:
                raise ConfigError(f"{flag}: {name!r} is given twice; give it once")
            out[name] = threshold
    return out


def failed_shares(
    passes: dict[str, list[bool]], fail_under: dict[str, float]
) -> list[tuple[str, int, int, float | None]]:
    """The scorers that fail: ``(scorer, passed, usable, fail_under)`` for each scorer of
    ``passes`` (scorer -> one pass/fail per usable output) whose share that passes is below its
    ``--fail-under`` (``None`` when not given: then any output that fails fails the scorer).
    The rule is :func:`hybridjudge._params.fails_pass_share`, the same in ``check``, ``judge``
    and the pytest helpers."""
    from hybridjudge._params import fails_pass_share

    failed = []
    for name, values in passes.items():
        share = fail_under.get(name)
        passed = sum(values)
        if fails_pass_share(passed, len(values), share):
            failed.append((name, passed, len(values), share))
    return failed


def describe_failed_share(
    name: str,
    passed: int,
    usable: int,
    share: float | None,
    what: str,
    failing: Sequence[str] = (),
) -> str:
    """``FAIL support: 1 of 2 usable output(s) fail ...``: one line per scorer that fails,
    naming the rule that failed it (``what``: what passing means) and the first outputs that
    fail (``failing``: their ids)."""
    if not usable:
        return f"FAIL {name}: no usable output ({what})"
    shown = ", ".join(repr(i) for i in failing[:3])
    more = f" and {len(failing) - 3} more" if len(failing) > 3 else ""
    which = f"; failing: {shown}{more}" if failing else ""
    if share is None:
        return (
            f"FAIL {name}: {usable - passed} of {usable} usable output(s) fail ({what}); no "
            f"--fail-under {name}=SHARE is given, so every output must pass{which}"
        )
    return (
        f"FAIL {name}: {passed} of {usable} usable output(s) pass ({what}), a share of "
        f"{passed / usable:.3f}, below --fail-under {share:g}{which}"
    )


def _check_line(
    case: CaseLine, derived: DerivedPolicy = "grounded", last: list[Any] | None = None
) -> GroundingReport:
    from hybridjudge.grounding import GroundingContext, check_grounding

    context: Any = case.context
    if last is not None:  # consecutive lines of one case share the parsed context
        if not last or last[0] != case.context:
            # parsed on first need, as check_grounding does (once for all those lines)
            last[:] = [case.context, GroundingContext(case.context)]
        context = last[1]
    return check_grounding(
        case.answer,
        context,
        question=case.question,
        anchors=case.anchors,
        answerable=case.answerable,
        allowed_numbers=case.allowed_numbers,
        derived=derived,
    )


def _run(args: argparse.Namespace) -> int:
    from hybridjudge.cli._common import lasting

    with lasting():
        from hybridjudge._errors import CaseFileError
        from hybridjudge.cli._exit import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE
        from hybridjudge.cli._ray import check_ray_flags
        from hybridjudge.corpus import read_cases
        from hybridjudge.grounding import GroundingInputError

    check_ray_flags(args)
    if args.ray is not None:  # on a Ray cluster: hybridjudge.dist
        from hybridjudge.cli._ray import run_check

        return run_check(args)
    thresholds = parse_fail_under(args.fail_under, (DETERMINISTIC,))
    path: Path = args.cases
    rows: list[tuple[int, str, GroundingReport]] = []
    bad = 0
    failed = 0
    last_context: list[Any] = []
    records = read_cases(
        path,
        strict=args.strict,
        format=args.format,
        limits=read_limits(args),
        delimiter=read_delimiter(args),
    )
    for result in records:
        error = result.error
        report: GroundingReport | None = None
        if result.case is not None:
            try:
                report = _check_line(result.case, args.derived, last_context)
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
                        "format_version": JSON_FORMAT_VERSION,
                        "line": result.line,
                        "id": err.case_id,
                        "error": err.message,
                        "field": err.field,
                    }
                )
            continue
        if not report.grounded:
            failed += 1
        rows.append((result.line, result.case.id, report))
        if args.json:
            shown = report.findings[: args.max_findings]
            record: dict[str, Any] = {
                "format_version": JSON_FORMAT_VERSION,
                "line": result.line,
                "id": result.case.id,
                "grounded": report.grounded,
                "abstained": report.abstained,
                "findings": [
                    {
                        "kind": f.kind,
                        "message": f.message,
                        "subject": f.subject,
                        "evidence": f.evidence,
                        "span": list(f.span) if f.span is not None else None,
                    }
                    for f in shown
                ],
                "findings_count": len(report.findings),
            }
            rules = _rule_counts(report)
            if rules:
                record["rules"] = rules
            if report.derived:  # numbers computed from context figures, with how
                record["derived"] = [
                    {"number": t.quantity.text, "derivation": t.derivation, "rule": t.rule}
                    for t in report.derived
                ]
            if result.case.metadata:
                record["metadata"] = result.case.metadata
            _emit(record)
    if not args.json:
        _table(rows, args.max_findings)
    if not args.quiet:
        warn_duplicate_ids("hybridjudge check", [(line, case_id) for line, case_id, _ in rows])
    checked = len(rows)
    summary = f"{checked} checked, {checked - failed} grounded, {failed} not grounded"
    if bad:
        summary += f", {bad} unusable line{'s' if bad != 1 else ''} (reported above)"
    if not args.quiet:  # -q: only errors on stderr (each bad line was one, above)
        print(f"hybridjudge check: {path}: {summary}", file=sys.stderr)
    if bad:
        return EXIT_USAGE
    if not rows:
        print(
            f"hybridjudge check: {path}: no case in the file; nothing was checked (give one "
            "case per line or record)",
            file=sys.stderr,
        )
        return EXIT_USAGE
    grounded = [r.grounded for _, _, r in rows]
    below = failed_shares({DETERMINISTIC: grounded}, thresholds)
    failing = [case_id for _, case_id, r in rows if not r.grounded]
    for name, passed, usable, share in below:
        line = describe_failed_share(name, passed, usable, share, "pass: grounded", failing)
        print(f"hybridjudge check: {line}", file=sys.stderr)
    return EXIT_FINDINGS if below else EXIT_OK


def warn_duplicate_ids(command: str, items: list[tuple[int, str]]) -> None:
    """Warn on stderr when case ids repeat (``items``: line, id): the results are then told apart
    only by their line. Not an error: a log may repeat an id on purpose."""
    lines_of: dict[str, list[int]] = {}
    for line, case_id in items:
        lines_of.setdefault(case_id, []).append(line)
    repeated = [(case_id, lines) for case_id, lines in lines_of.items() if len(lines) > 1]
    if not repeated:
        return
    shown = "; ".join(
        f"{case_id!r} on lines {', '.join(map(str, lines[:4]))}{', ...' if len(lines) > 4 else ''}"
        for case_id, lines in repeated[:3]
    )
    more = f"; and {len(repeated) - 3} more" if len(repeated) > 3 else ""
    print(
        f"{command}: warning: {len(repeated)} case id(s) appear more than once ({shown}{more}); "
        "their results are told apart only by their line (give each case its own id)",
        file=sys.stderr,
    )


def _emit(obj: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")


def _table(rows: list[tuple[int, str, GroundingReport]], cap: int | None = MAX_FINDINGS) -> None:
    """The table of checked cases, each with its first *cap* findings (``None``: all).

    Each finding is its own :class:`rich.text.Text` in a :class:`rich.console.Group`: one text
    of all of them joined by line breaks costs rich quadratic time (it splits the rendered
    text at each line break by copying the rest), 40 s for 200,000 characters of ``1,1,...``.
    """
    if not rows:  # every line unusable: the errors and the summary say so, no empty table
        return
    from rich.console import Console, Group
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    from hybridjudge._sinks import escape_controls

    table = Table(title="grounding checks", show_lines=False)
    table.add_column("line", justify="right")
    table.add_column("id")
    table.add_column("grounded")
    table.add_column("abstained")
    table.add_column("findings")
    for line, case_id, report in rows:
        shown = report.findings[:cap]
        # Text, never markup: "[b]" in user text shows as typed, "[/x]" cannot crash
        # and a control character in it shown escaped, never obeyed by the terminal
        cells = [Text(escape_controls(f"{f.kind}: {f.message}")) for f in shown] or [Text("-")]
        hidden = len(report.findings) - len(shown)
        if hidden:
            cells.append(Text(f"... and {hidden} more (--max-findings to show them)"))
        table.add_row(
            str(line),
            # user text: "[b]" must show as typed, "[/x]" must not crash, and a control
            # character is shown escaped (an id on one line), never obeyed by the terminal
            escape(escape_controls(case_id, one_line=True)),
            "yes" if report.grounded else "NO",
            "yes" if report.abstained else "no",
            Group(*cells),
        )
    console = Console(
        file=sys.stdout,
        highlight=False,
        emoji=False,  # user text: ":tada:" must show as typed
        soft_wrap=False,
        width=None if sys.stdout.isatty() else 200,
    )
    console.print(table)
