"""Progress lines for a log: what a progress bar shows, as a plain line every so often.

A progress bar is drawn only on a terminal; in a CI log or a file a ten-minute study would say
nothing until its summary. :class:`ProgressLines` prints one line per phase at most every
:data:`INTERVAL_S` seconds, and one when a phase completes.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

__all__ = ["INTERVAL_S", "ProgressLines"]

INTERVAL_S = 30.0
"""Least seconds between two progress lines of one phase (its last line is always printed)."""


def _duration(seconds: float) -> str:
    whole = int(seconds + 0.5)
    minutes, secs = divmod(whole, 60)
    return f"{minutes} min {secs:02d} s" if minutes else f"{secs} s"


class ProgressLines:
    """Print ``PREFIX: PHASE DONE/TOTAL (P%), ELAPSED elapsed, about LEFT left`` lines.

    Args:
        prefix: the command, e.g. ``hybridjudge study run``.
        stream: where to write (default ``sys.stderr``, looked up when writing).
        interval: least seconds between two lines of one phase (default :data:`INTERVAL_S`).
    """

    def __init__(
        self, prefix: str, *, stream: TextIO | None = None, interval: float | None = None
    ) -> None:
        self.prefix = prefix
        self.stream = stream
        self.interval = INTERVAL_S if interval is None else interval
        self._started: dict[str, float] = {}
        self._last: dict[str, float] = {}
        self._finished: set[str] = set()

    def update(self, phase: str, done: int, total: int) -> None:
        """Record that ``done`` of ``total`` items of ``phase`` are finished; print a line when
        the interval has passed since the phase's last line, or when the phase completes."""
        now = time.monotonic()
        started = self._started.setdefault(phase, now)
        complete = total > 0 and done >= total
        if phase in self._finished:
            return
        if not complete and now - self._last.get(phase, started) < self.interval:
            return
        self._last[phase] = now
        if complete:
            self._finished.add(phase)
        elapsed = now - started
        line = f"{self.prefix}: {phase} {done}/{total}"
        if total > 0:
            line += f" ({100 * done / total:.0f}%)"
        line += f", {_duration(elapsed)} elapsed"
        if 0 < done < total:
            line += f", about {_duration(elapsed / done * (total - done))} left"
        print(line, file=self.stream or sys.stderr, flush=True)
