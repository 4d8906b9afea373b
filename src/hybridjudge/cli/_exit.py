"""The exit-code scheme of every ``hybridjudge`` command, defined once.

=====  ===========================================================================================
code   meaning
=====  ===========================================================================================
0      success: everything asked was evaluated and nothing failed
1      findings or regression: the evaluated system failed (ungrounded cases, a failed gate)
2      unusable input or usage: a bad flag, an unreadable or empty file, a wrong endpoint or key
3      incomplete: the share of unscored results is above ``--max-unscored`` (default 0), or no
       model call succeeded
130    interrupted (Ctrl-C); finished model calls are cached, rerun the same command to resume
=====  ===========================================================================================

An unusable endpoint (HTTP 401/403/404 before any request to it succeeded) is exit 2: the key,
URL or model is wrong for every request. Any other failure of one request (HTTP 400 from a content
filter, 5xx after the retries, a reply that does not parse) makes that output unscored; the run
goes on and ends with 3 when the unscored share is above the threshold.
"""

from __future__ import annotations

import argparse
import sys

__all__ = [
    "EXIT_CODES_EPILOG",
    "EXIT_FINDINGS",
    "EXIT_INCOMPLETE",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "add_max_unscored_argument",
    "incomplete",
    "judged_incomplete",
    "max_unscored_fraction",
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
    "(unscored share above --max-unscored, default 0); 130 interrupted"
)
"""One paragraph for the ``--help`` epilog of every command."""


def max_unscored_fraction(text: str) -> float:
    """``argparse`` type of ``--max-unscored``: a fraction in [0, 1] (``5%`` also accepted)."""
    raw = text.strip()
    try:
        value = float(raw[:-1]) / 100.0 if raw.endswith("%") else float(raw)
    except ValueError:
        value = float("nan")
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
        help="largest share of unscored results that still counts as a complete run "
        "(default 0: any unscored result exits 3)",
    )


def incomplete(unscored: int, total: int, max_share: float = 0.0) -> bool:
    """True when ``unscored`` of ``total`` results is above ``max_share`` (exit 3).

    Nothing evaluated (``total == 0``) is never "incomplete" here: callers report an empty
    input as exit 2 before they get this far.
    """
    if total <= 0:
        return False
    return unscored / total > max_share + 1e-12


def judged_incomplete(command: str, unscored: int, total: int, max_share: float, see: str) -> bool:
    """Whether a judging run is incomplete (exit 3): every result unscored, or a share above
    ``max_share`` (``--max-unscored``); when it is, say so on stderr (``see``: where the
    reasons are). One rule for ``judge`` in one process and on Ray."""
    every = total > 0 and unscored == total
    if not (every or incomplete(unscored, total, max_share)):
        return False
    print(
        f"{command}: {unscored} of {total} result(s) unscored, above --max-unscored "
        f"{max_share:g}; the run is incomplete ({see})",
        file=sys.stderr,
    )
    return True
