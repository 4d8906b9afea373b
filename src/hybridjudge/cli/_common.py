"""What every ``hybridjudge`` command shares: help layout, the exit-code epilog, an example per
command, ``-v/--verbose`` and ``-q/--quiet``, the one list parser, and the logging setup.

:func:`finalize` walks the finished parser tree once (from :func:`hybridjudge.cli.build_parser`)
and gives every command the same help formatter (defaults shown), a description, its example and
the exit codes; :func:`configure_logging` runs once per process from :func:`hybridjudge.cli.main`.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import logging
import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from hybridjudge.cli._exit import exit_codes_help

__all__ = [
    "EXAMPLES",
    "MODEL_CALL_COMMANDS",
    "HelpFormatter",
    "ListAction",
    "add_common_arguments",
    "add_csv_raw_formulas_argument",
    "configure_logging",
    "finalize",
    "parse_list",
]

EXAMPLES: dict[str, str] = {
    "hybridjudge": "hybridjudge check examples/check/opengate-cases.jsonl",
    "study": "hybridjudge study run --corpus corpus/opengate --out results/demo",
    "study run": (
        "hybridjudge study run --corpus corpus/opengate --mutations mutations/opengate.jsonl \\\n"
        "      --scorers deterministic,support --repetitions 2 --judge-sample 2 --out results/demo"
    ),
    "check": "hybridjudge check examples/check/opengate-cases.jsonl --json",
    "judge": (
        "hybridjudge judge examples/check/opengate-cases.jsonl --scorers support,contradiction \\\n"
        "      --backend openai --model gpt-4o-mini"
    ),
    "mutate": (
        "hybridjudge mutate corpus/opengate --mutation-seed 0 --out mutations/opengate.jsonl"
    ),
    "report": "hybridjudge report results/main",
    "view": "hybridjudge view results/main --serve",
    "gate": "hybridjudge gate results/main --baseline results/baseline.json --tolerance 0.05",
    "retrieval": "hybridjudge retrieval eval --qrels qrels.txt --run run.txt",
    "retrieval eval": (
        "hybridjudge retrieval eval --qrels qrels.txt --run run.txt --metrics ndcg@10 mrr "
        "--html retrieval.html"
    ),
    "triage": "hybridjudge triage report preds.csv --reference-column ref ...",
    "triage report": (
        "hybridjudge triage report preds.csv --reference-column nurse --prediction-column model \\\n"
        "      --scale KTAS --label-source expert --html triage.html"
    ),
    "model": "hybridjudge model verify",
    "model serve": "hybridjudge model serve --port 8080",
    "model path": "hybridjudge model path",
    "cache": "hybridjudge cache stats",
    "cache stats": "hybridjudge cache stats --cache-dir .hybridjudge-cache --json",
    "cache clear": "hybridjudge cache clear --yes",
    "corpus": "hybridjudge corpus import data.csv --out corpus/mine",
}
"""A short example per command path (``"cache stats"``); a command without its own entry shows
its parent's."""


def parse_list(values: str | Iterable[str] | None) -> list[str]:
    """Split items given with commas, spaces or both: ``["a,b", "c"]`` -> ``["a", "b", "c"]``."""
    if values is None:
        return []
    if isinstance(values, str):
        values = [values]
    return [item for value in values for item in value.replace(",", " ").split() if item]


class ListAction(argparse.Action):
    """``nargs="+"`` list flag whose items may also be comma-separated (one list syntax for
    every command): ``--metrics ndcg@10,mrr``, ``--metrics ndcg@10 mrr`` and
    ``--metrics ndcg@10, mrr`` give the same list."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        items = parse_list(
            values if values is None or isinstance(values, str) else map(str, values)
        )
        if not items:
            parser.error(f"{option_string}: give at least one item (commas or spaces)")
        setattr(namespace, self.dest, items)


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Keeps the description and epilog as written and shows every default that is a value."""

    def __init__(self, prog: str) -> None:
        super().__init__(prog, max_help_position=32, width=100)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        """Wrap prose lines to the terminal width; keep indented lines (examples, lists) as is."""
        import textwrap

        out = []
        for line in text.splitlines():
            if not line.strip() or line.startswith(" "):
                out.append(indent + line)
            else:
                out.append(
                    textwrap.fill(line, width, initial_indent=indent, subsequent_indent=indent)
                )
        return "\n".join(out)

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if "default" in text.lower() or "%(default)" in text:
            return text
        default = action.default
        if (
            default is None
            or default is False
            or default == []
            or default is argparse.SUPPRESS
            or action.option_strings == []
            or isinstance(action, argparse._HelpAction | argparse._VersionAction)
        ):
            return text
        if isinstance(action, argparse._CountAction) and default == 0:
            return text
        shown = ",".join(map(str, default)) if isinstance(default, list | tuple) else "%(default)s"
        return f"{text} (default: {shown})"


MODEL_CALL_COMMANDS = frozenset({"judge", "study run"})
"""The command paths that call a model: their ``-v`` logs one record per model call."""


def add_common_arguments(parser: argparse.ArgumentParser, path: str = "") -> None:
    """``-v/--verbose`` (repeatable) and ``-q/--quiet``, unless the parser has them already;
    ``-v`` promises model-call records only on a command that makes model calls (``path`` in
    :data:`MODEL_CALL_COMMANDS`)."""
    taken = parser._option_string_actions
    group = parser.add_argument_group("output")
    if "--verbose" not in taken:
        flags = [f for f in ("-v", "--verbose") if f not in taken]
        verbose_help = (
            "log what the run does on stderr, down to one record per model call (model, "
            "tokens, latency, cache hit, retries; never a key)"
            if path in MODEL_CALL_COMMANDS
            else "log what the run does on stderr (debug detail; this command calls no model)"
        )
        group.add_argument(
            *flags,
            action="count",
            default=0,
            dest="verbose",
            help=verbose_help,
        )
    if "--quiet" not in taken:
        flags = [f for f in ("-q", "--quiet") if f not in taken]
        group.add_argument(
            *flags,
            action="store_true",
            dest="quiet",
            help="only errors on stderr: no progress, no warnings, no summary",
        )
    elif "-q" not in taken:
        group.add_argument("-q", action="store_true", dest="quiet", help=argparse.SUPPRESS)


def add_csv_raw_formulas_argument(parser: argparse.ArgumentParser) -> None:
    """Add ``--csv-raw-formulas`` (``study run`` and ``report``, which write observations.csv)."""
    parser.add_argument(
        "--csv-raw-formulas",
        action="store_true",
        help="write observations.csv cells as they came, even those a spreadsheet would run as "
        "a formula (beginning with =, +, -, @, tab or CR); by default such a cell gets a "
        "leading ' unless it is a plain number like -3.5",
    )


def _subcommands(
    parser: argparse.ArgumentParser,
) -> Iterable[tuple[str, str | None, argparse.ArgumentParser]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help for a in action._choices_actions}
            seen: set[int] = set()
            for name, sub in action.choices.items():
                if id(sub) in seen:
                    continue  # an alias of a subcommand already visited
                seen.add(id(sub))
                yield name, helps.get(name), sub


def _epilog(path: str, existing: str | None) -> str:
    parts = [existing.rstrip()] if existing else []
    words = path.split()
    example = None
    while words and example is None:
        example = EXAMPLES.get(" ".join(words))
        words = words[:-1]
    example = example or EXAMPLES["hybridjudge"]
    if "example" not in (existing or "").lower():
        parts.append(f"example:\n  {example}")
    if "exit codes" not in (existing or "").lower():
        parts.append(exit_codes_help(path))  # from the one table in cli/_exit.py
    return "\n\n".join(parts)


def finalize(parser: argparse.ArgumentParser, path: str = "") -> None:
    """Give ``parser`` and every subcommand under it the shared help and flags (idempotent)."""
    parser.formatter_class = HelpFormatter
    parser.epilog = _epilog(path or "hybridjudge", parser.epilog)
    children = list(_subcommands(parser))
    if not children and path and parser.add_help:
        add_common_arguments(parser, path)
    for name, help_text, sub in children:
        if not sub.description and help_text:
            sub.description = help_text[0].upper() + help_text[1:] + "."
        finalize(sub, f"{path} {name}".strip())


class _StderrHandler(logging.Handler):
    """Writes to whatever ``sys.stderr`` is at the time of the record (tests swap it)."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            sys.stderr.write(self.format(record) + "\n")
        except Exception:  # pragma: no cover - logging must never end a run
            self.handleError(record)


def configure_logging(verbose: int = 0, quiet: bool = False) -> None:
    """Send the ``hybridjudge`` logger's records to stderr at the level the flags ask for.

    Default WARNING (sampled runs, unscored outputs, retries); ``-v`` DEBUG (everything, with one
    record per model call and the module that logged it); ``-q`` ERROR only. Configured once per
    process: a second call only changes the level.
    """
    level = logging.ERROR if quiet else logging.DEBUG if verbose >= 1 else logging.WARNING
    logger = logging.getLogger("hybridjudge")
    logger.setLevel(level)
    handler = next((h for h in logger.handlers if getattr(h, "_hybridjudge_cli", False)), None)
    if handler is None:
        handler = _StderrHandler()
        handler._hybridjudge_cli = True  # type: ignore[attr-defined]
        logger.addHandler(handler)
    handler.setLevel(level)
    # at -v the module that logged is useful; otherwise it is noise
    detail = "%(name)s: " if level <= logging.DEBUG else ""
    handler.setFormatter(logging.Formatter(f"hybridjudge: %(levelname)s: {detail}%(message)s"))


@contextlib.contextmanager
def lasting() -> Iterator[None]:
    """Around a command's imports: what they make lives as long as the process.

    The collector is paused while they run, and every object then alive is frozen out of its
    later passes (:func:`gc.freeze`). A command's modules make some 45,000 objects (word tables,
    compiled expressions, pydantic's schemas): at the threshold :func:`hybridjudge.cli.main`
    raises, one pass fell in the middle of them and traversed them all, 13 of a one-case
    ``hybridjudge check``'s 300 ms, to find no garbage (measured with ``gc.callbacks``,
    December 2026). :func:`hybridjudge.cli.main` unfreezes them when the command ends.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()
