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
from collections.abc import Mapping

from hybridjudge._params import over_max_unscored

__all__ = [
    "EXIT_CODES_EPILOG",
    "EXIT_FINDINGS",
    "EXIT_INCOMPLETE",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "add_max_unscored_argument",
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

EXIT_CODES_EPILOG = (
    "exit codes: 0 success; 1 findings or regression; 2 unusable input or usage (incl. an "
    "endpoint that rejects every request: HTTP 401/403/404 before any success); 3 incomplete "
    "(a scorer's unscored share above --max-unscored, default 0, or all of its results "
    "unscored); 130 interrupted"
)
"""One paragraph for the ``--help`` epilog of every command."""


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
