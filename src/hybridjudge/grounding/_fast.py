"""Cost that follows the claim: an answer's figure that stands in the context as written, found
without parsing the whole context.

A first call on an unseen context used to parse every passage (every figure, its scale scope,
its row and column) before looking up the answer's first figure. Most figures of an answer
stand in the context as written, so :class:`Windows` looks for the figure's digits with
``str.find`` (first in the raw passage, then in the passage normalised and laid out exactly as
the full parse does it), and parses only the lines around each occurrence: the line and the
one before and after it (a figure's parse never reaches further: a match that crossed two line
breaks would be no figure). The caller (:meth:`GroundingContext.fast_find
<hybridjudge.grounding.GroundingContext>`) adds that line's quantities to a small index of the
same kind as the full one and looks the answer's figure up there. A passage whose normalisation
moves offsets (``segments``: a dash, a curly quote, a non-breaking space) is cut the same way,
in its normalised text; its window maps its offsets back through the passage's own map, so its
figures read the original text (their spans and their case) exactly as the full parse does.

The window's quantities are a subset of what the full parse indexes for the same passage, so a
figure found here is one the full index finds too: the verdict is the same, only the cost
differs. A figure not found here goes the full way (the index, then the derivation search),
built on that first need. Windows are not used where the full parse decides something for the
whole passage that a window could decide otherwise: a window holding a ``/`` (numeric dates are
read day-first or month-first by the passage as a whole).

``HYBRIDJUDGE_GROUNDING_FULL=1`` in the environment (or :data:`ENABLED` set to ``False``) turns
the fast path off: every figure goes the full way (the differential tests compare the two).
"""

from __future__ import annotations

import os
import re
from bisect import bisect_right
from collections.abc import Callable, Iterator
from typing import Any, Generic, TypeVar

from hybridjudge.grounding._layout import read_layout
from hybridjudge.grounding._normalize import NormalizedText, normalize
from hybridjudge.grounding._quantities import F_YEAR, Scan, scan

__all__ = ["ENABLED", "MAX_WINDOWS", "MIN_CHARS", "Window", "Windows", "needle_of", "standalone_at"]

ENABLED: bool = os.environ.get("HYBRIDJUDGE_GROUNDING_FULL", "") not in ("1", "true", "yes")
"""Whether :class:`Windows` is used at all (``HYBRIDJUDGE_GROUNDING_FULL=1`` turns it off)."""

MIN_CHARS = 500
"""A context shorter than this (characters, all passages) is parsed whole: a window of three
lines would be most of it, and the window's own costs would come on top."""

CHUNK_LINES = 8
"""Lines parsed at a time by :meth:`Windows.any_figure`."""

MAX_WINDOWS = 12
"""Most windows parsed for one figure: a figure written in more places (``1``, ``2019``) that
none of them explains is looked up in the full index instead."""

_DIGITS = re.compile(r"\d(?:[\d,.]*\d)?")

T = TypeVar("T")
S = TypeVar("S")
"""What the caller reads of a whole passage once (its scale statements)."""

Window = tuple[int, Scan, int, int, int, S]
"""``(passage index, the window's scan, the window's offset in the passage, the start and the
end of the occurrence's line in the window, what the caller read of the whole passage)``. The
offsets are those of the passage normalised and laid out (:meth:`Windows.laid`); the scan's
spans in the original text map to the passage's by :meth:`Windows.passage_span`."""

_SLASH_FIGURE = re.compile(r"\d\s*/|/\s*\d")
"""A ``/`` beside a digit: a numeric date may stand there, read day- or month-first by the
passage as a whole."""


def needle_of(written: str) -> str | None:
    """The digits an occurrence of ``written`` (an answer's figure, normalised) must contain:
    its longest run of digits (with the grouping commas and the decimal point inside it), or
    ``None`` for a figure written without digits (``five million``)."""
    runs = _DIGITS.findall(written)
    if not runs:
        return None
    return str(max(runs, key=len))


def standalone_at(s: str, needle: str) -> Iterator[int]:
    """The offsets in ``s`` where the digits ``needle`` stand alone (:func:`_standalone`), in
    order."""
    at = s.find(needle)
    while at >= 0:
        end = at + len(needle)
        if _standalone(s, at, end):
            yield at
        at = s.find(needle, end)


def _standalone(s: str, at: int, end: int) -> bool:
    """Whether ``s[at:end]`` is a whole run of digits (not the tail or the head of a longer
    figure: ``409`` in ``5,409``)."""
    if at > 0:
        before = s[at - 1]
        if before.isdigit() or (before in ",." and at > 1 and s[at - 2].isdigit()):
            return False
    if end < len(s):
        after = s[end]
        if after.isdigit() or (after in ",." and end + 1 < len(s) and s[end + 1].isdigit()):
            return False
    return True


class Windows(Generic[S]):
    """The passages of one context, parsed a few lines at a time where an answer's figure may
    stand (see the module docstring). ``whole`` reads what a window cannot (the scale
    statements of the passage, on its normalised text), once per passage. Normalised passages
    and parsed windows are kept for the next figure."""

    __slots__ = ("_laid", "_memo", "_passages", "_read", "_scans", "_whole", "partial")

    def __init__(
        self, passages: tuple[str, ...], whole: Callable[[int, NormalizedText], S]
    ) -> None:
        self._passages = passages
        self._whole = whole
        self._laid: dict[int, NormalizedText] = {}
        self._read: dict[int, tuple[NormalizedText, S]] = {}
        self._scans: dict[tuple[int, int], Scan | None] = {}
        self._memo: dict[tuple[object, ...], Any] = {}
        self.partial = False
        """Whether the last :meth:`windows` stopped before the last occurrence (a window with
        a ``/`` beside a digit, more than :data:`MAX_WINDOWS` occurrences): what it did not
        yield, the full index must decide."""

    def memo(self, key: tuple[object, ...], make: Callable[[], T]) -> T:
        """``make()``, made once per ``key`` for this context (what the caller reads of the
        passages as a whole)."""
        try:
            value: T = self._memo[key]
        except KeyError:
            value = self._memo[key] = make()
        return value

    def laid(self, i: int) -> NormalizedText:
        """Passage ``i`` normalised and laid out as the full parse reads it (made once)."""
        try:
            return self._laid[i]
        except KeyError:
            laid = self._laid[i] = read_layout(normalize(self._passages[i]))
            return laid

    def any_figure(self, i: int, start: int, end: int) -> bool:
        """Whether a figure (a number, not a year) starts within ``start:end`` of passage ``i``
        laid out (what ``_governs_figures`` asks of a scale statement's block), parsing the
        block :data:`CHUNK_LINES` lines at a time (each with the line before it) and stopping at
        the first figure."""
        laid = self.laid(i)
        s = laid.text
        first = s.rfind("\n", 0, start) + 1
        while first < end and first <= len(s):
            before = s.rfind("\n", 0, max(first - 1, 0)) + 1 if first else 0
            last = first
            for _ in range(CHUNK_LINES):
                nl = s.find("\n", last)
                last = len(s) if nl < 0 else nl + 1
                if last >= len(s):
                    break
            stop = min(last, len(s))
            sc = scan(_window_text(laid, before, stop))
            for q, (a, _b), meta in zip(sc.quantities, sc.norm_spans, sc.meta, strict=True):
                at = a + before
                if (
                    first <= at < min(stop, end)
                    and at >= start
                    and q.kind == "number"
                    and not meta[3] & F_YEAR
                ):
                    return True
            if stop >= len(s):
                break
            first = stop
        return False

    def _text(self, i: int) -> tuple[NormalizedText, S]:
        """Passage ``i`` laid out (:meth:`laid`) and what ``whole`` reads of it."""
        try:
            return self._read[i]
        except KeyError:
            laid = self.laid(i)
            out = self._read[i] = (laid, self._whole(i, laid))
            return out

    def passage_span(self, i: int, offset: int, span: tuple[int, int]) -> tuple[int, int]:
        """``span``, the original-text span of a quantity of a window of passage ``i`` at
        ``offset`` (:data:`Window`), in the passage's original text: a window of a passage
        whose normalisation moves offsets reads the whole passage's original text
        (:func:`_window_text`), its spans are the passage's already."""
        if self.laid(i).segments:
            return span
        return span[0] + offset, span[1] + offset

    def _scan(self, i: int, laid: NormalizedText, start: int, end: int) -> Scan | None:
        key = (i, start)
        try:
            return self._scans[key]
        except KeyError:
            text = laid.text[start:end]
            sc = (
                None
                if "/" in text and _SLASH_FIGURE.search(text) is not None
                else scan(_window_text(laid, start, end))
            )
            self._scans[key] = sc
            return sc

    def windows(self, needle: str) -> Iterator[Window[S]]:
        """The windows around the occurrences of ``needle`` (a run of digits standing alone),
        in passage and text order, at most :data:`MAX_WINDOWS` of them; it stops (and sets
        :attr:`partial`) at the first occurrence it cannot read, so that what it yields is
        every occurrence before it, in order."""
        self.partial = False
        count = 0
        for i, passage in enumerate(self._passages):
            if needle not in passage and passage.isascii():
                continue  # the raw text first: most passages hold no occurrence
            if needle not in self.laid(i).text:
                continue  # nor the passage laid out: what ``whole`` reads of it is not needed
            laid, whole = self._text(i)
            s = laid.text
            line_seen = -1
            for at in standalone_at(s, needle):
                line_start = s.rfind("\n", 0, at) + 1
                if line_start == line_seen:
                    continue  # a line's window is read once
                line_seen = line_start
                line_end = s.find("\n", at + len(needle))
                if line_end < 0:
                    line_end = len(s)
                start = s.rfind("\n", 0, max(line_start - 1, 0)) + 1 if line_start else 0
                stop = s.find("\n", line_end + 1) if line_end < len(s) else len(s)
                if stop < 0:
                    stop = len(s)
                sc = self._scan(i, laid, start, stop)
                count += 1
                if sc is None or count > MAX_WINDOWS:
                    self.partial = True  # an occurrence not read: the full index decides
                    return
                yield i, sc, start, line_start - start, line_end - start, whole


def _window_text(laid: NormalizedText, start: int, end: int) -> NormalizedText:
    """The window ``start:end`` of ``laid`` (a passage normalised and laid out) as a text of its
    own: its original text is the same slice when the normalisation moves no offset; else the
    whole passage's, with the segments of ``laid`` that reach into the window shifted by
    ``start``, so that every offset of the window maps where the same offset of ``laid`` maps
    (:meth:`NormalizedText.to_original`: the last segment starting at or before it)."""
    segments = laid.segments
    if not segments:
        return NormalizedText(laid.text[start:end], laid.original[start:end], (), laid.continental)
    beyond = len(laid.original) + 1  # as NormalizedText._point bisects
    first = max(bisect_right(segments, (start, beyond, 0)) - 1, 0)
    last = max(bisect_right(segments, (end, beyond, 0)), first + 1)
    shifted = tuple((n - start, o, length) for n, o, length in segments[first:last])
    return NormalizedText(laid.text[start:end], laid.original, shifted, laid.continental)
