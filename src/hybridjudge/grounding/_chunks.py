"""Memory bounded on a huge context: a figure not found as written, looked up a piece at a time.

A figure that stands in the context as written is found by the fast path (:mod:`grounding._fast`)
without parsing the whole context. One that does not (another scale, a rounding, a derivation,
or no figure of the context at all) needs the full index of every figure of the context: about
46 MB of memory per MB of context. A context of at least :data:`BOUNDED_MIN_CHARS` characters
is then checked a piece at a time instead (:meth:`GroundingChecker.check
<hybridjudge.grounding.GroundingChecker>`): :func:`pieces` cuts it into pieces of about
:data:`PIECE_CHARS` characters, each piece is parsed and checked on its own and dropped, and
the traces are merged (the first piece's trace by the order of the lookup's rules, then the
pieces' order).

A piece is a run of whole passages, or a part of a passage longer than :data:`PIECE_CHARS`, cut
at the start of a line where no scale statement's scope crosses with a figure (a line after a
blank line, or the line of a new statement): every figure of the piece reads the scale it reads
in the whole passage (and a piece of a context of several passages reads the caption the whole
context states: :meth:`GroundingContext.piece <hybridjudge.grounding.GroundingContext>`). The
derivation search pairs figures of one table or of nearby text, which a cut at a blank line or
at a new table's statement keeps together.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from hybridjudge.grounding._patterns import lazy

__all__ = ["BOUNDED_MIN_CHARS", "PIECE_CHARS", "pieces"]

BOUNDED_MIN_CHARS = 4_000_000
"""A context of at least this many characters (all passages) is checked a piece at a time when a
figure is not found as written (module attribute: tests lower it)."""

PIECE_CHARS = 1_000_000
"""The size (characters) a piece is cut at, at the first valid cut after it."""

SEARCH_CHARS = 50_000
"""How far around a cut's target (characters) the scale statements are read to validate it."""

_BLANK = lazy(r"\n[ \t]*\n")
_DIGIT = re.compile(r"\d")

Scopes = Callable[[str], list[tuple[int, int]] | None]
"""The spans ``(start, end)`` of the scale statements' scopes of a text (offsets of the text),
or ``None`` when they cannot be read at the text's own offsets."""

Piece = tuple[tuple[tuple[int, int], ...], tuple[str, ...]]
"""``(origins, texts)``: each text's passage index and offset in the context."""


def _valid(region: str, spans: list[tuple[int, int]], at: int) -> bool:
    """Whether a cut at offset ``at`` (a line start) of ``region`` splits no scope before a
    figure, and every scope that may reach it from before ``region`` is closed."""
    line_end = region.find("\n", at)
    line_end = len(region) if line_end < 0 else line_end
    blank_before = (
        at >= 2
        and region[at - 1] == "\n"
        and not region[region.rfind("\n", 0, at - 1) + 1 : at - 1].strip(" \t")
    )
    starts_scope = any(at <= s <= line_end for s, _e in spans)
    if not (blank_before or starts_scope):
        return False
    for s, e in spans:
        if s < at < e and _DIGIT.search(region, at, e) is not None:
            return False
    closed = any(s < at for s, _e in spans) or len(_BLANK().findall(region, 0, at)) >= 2
    return closed


def _cut(text: str, target: int, scopes: Scopes) -> int:
    """The first valid cut (a line start) of ``text`` at or after ``target``, or ``len(text)``."""
    while target < len(text):
        begin = text.rfind("\n", 0, max(target - SEARCH_CHARS, 0)) + 1
        end = text.find("\n", min(target + SEARCH_CHARS, len(text)))
        end = len(text) if end < 0 else end
        region = text[begin:end]
        spans = scopes(region)
        if spans is not None:
            at = region.find("\n", target - begin - 1) + 1
            while 0 < at < target + SEARCH_CHARS - begin and at < len(region):
                if _valid(region, spans, at):
                    return begin + at
                at = region.find("\n", at) + 1
        target += SEARCH_CHARS
    return len(text)


def pieces(passages: tuple[str, ...], scopes: Scopes) -> Iterator[Piece]:
    """The pieces of a context (see the module docstring), in order, made one at a time."""
    origins: list[tuple[int, int]] = []
    texts: list[str] = []
    size = 0
    for i, passage in enumerate(passages):
        if texts and size + len(passage) > PIECE_CHARS:
            yield tuple(origins), tuple(texts)
            origins, texts, size = [], [], 0
        if len(passage) <= PIECE_CHARS:
            origins.append((i, 0))
            texts.append(passage)
            size += len(passage)
            continue
        start = 0
        while start < len(passage):
            stop = _cut(passage, start + PIECE_CHARS, scopes)
            yield ((i, start),), (passage[start:stop],)
            start = stop
    if texts:
        yield tuple(origins), tuple(texts)
