"""Counts of what an answer itself lists or names (the trace rule ``enumerated``).

An answer often counts its own items: ``two separate agreements:`` and a numbered list of two,
``4: the expected life, the risk-free rate, the dividend yield and the volatility``, ``these
two customer groups`` after naming them. Such a count restates the answer's own list; it is no
claim about the context (its items are, and the other checks read them), so a count that
agrees with the list is traced to the answer's working, and one that does not (``three
agreements:`` over a list of two) stays untraced.

The words are the lexicons' (``figure_context.count_anaphora``: ``these``, ``diese``, ``ces``;
``figure_context.list_joiners``: ``and``, ``or``, ``und``, ``et``); the rest is punctuation
read the same way in every language written with spaces.
"""

from __future__ import annotations

import re

from hybridjudge._text import sentence_spans
from hybridjudge.grounding._lexicon import alternation, grouped
from hybridjudge.grounding._patterns import lazy

__all__ = ["MAX_LISTED", "counts_own_items"]

MAX_LISTED = 12
"""The largest count read as a count of the answer's own items (a longer list is counted by
nobody)."""

_ANAPHORA = lazy(
    rf"(?<![\w])(?:{alternation(grouped('figure_context', 'count_anaphora'))})[ \t]+\Z",
    re.IGNORECASE,
)
"""A word pointing back right before a count (``these two``)."""
_JOINER = lazy(
    rf"(?<![\w])(?:{alternation(grouped('figure_context', 'list_joiners'))})(?![\w])",
    re.IGNORECASE,
)
"""A word joining a list's last item (``and``, ``or``)."""
_HEAD = lazy(r"(?:[ \t]+[^\s.!?;:,()\d]+){0,8}[ \t]*:(?=[ \t]*$|\s)", re.MULTILINE)
"""What may stand between a count and the colon opening its list: up to eight words on the
count's line, no stop, comma, bracket or digit among them (``two separate agreements:``,
``4:``)."""
_ITEM = lazy(r"[ \t]*(?:[-*•·+]|\d{1,2}[.)]|\(\d{1,2}\)|[a-zA-Z][.)]|\([a-zA-Z]\))[ \t]+\S")
"""A line that opens a list's item: a bullet, a number or a letter and a blank."""
_ITEM_BREAK = lazy(r",(?=\s)")
"""Between two items of an inline list (not a digit's grouping comma)."""


def counts_own_items(text: str, start: int, end: int, value: int) -> bool:
    """Whether the count ``value`` written at ``[start, end)`` of the answer ``text`` (as
    written, not normalised) counts the answer's own items: a word pointing back stands right
    before it (``these two groups``), or a colon after it on its line opens a list of exactly
    ``value`` items (:func:`listed_after`)."""
    if not 2 <= value <= MAX_LISTED:
        return False
    if _ANAPHORA().search(text, max(0, start - 24), start) is not None:
        return True
    return listed_after(text, end) == value


def listed_after(text: str, end: int) -> int | None:
    """How many items the list after a count ending at ``end`` holds, or ``None``: no colon
    opens one. The colon ends the count's line (the items are the lines after it that open with
    a bullet, a number or a letter, blank lines and indented lines of an item between them), or
    the items follow it on the line up to the sentence's end, apart by commas (by semicolons
    where the list has any), the last one joined by a list word (``A, B and C``: three; ``A,
    B, and C``: three)."""
    head = _HEAD().match(text, end)
    if head is None:
        return None
    line_end = text.find("\n", head.end())
    if line_end < 0:
        line_end = len(text)
    if not text[head.end() : line_end].strip():
        return _block_items(text, line_end + 1) or None
    body = _rest_of_sentence(text, head.end())
    if not body:
        return None
    parts = [p.strip() for p in (body.split(";") if ";" in body else _ITEM_BREAK().split(body))]
    if not all(parts):
        return None
    last = parts[-1]
    joined = _JOINER().search(last)
    if joined is not None and joined.start() > 0:
        return len(parts) + 1  # "... and C": the last part holds two items
    return len(parts)


def _rest_of_sentence(text: str, at: int) -> str:
    """What the sentence holding ``at`` writes from there on, its final stops left out (the
    package's sentence rule ``whole``: a line break ends it, a stop inside a number or after a
    lone capital does not, ``U.S. government``)."""
    for start, stop in sentence_spans(text, "whole"):
        if start <= at <= stop:
            return text[at:stop].strip().rstrip(".!?").strip()
    return ""


def _block_items(text: str, at: int) -> int:
    """The items of the list whose lines start at ``at`` (lines opening with a bullet, a number
    or a letter; blank lines and an item's indented lines between them)."""
    count = 0
    for line in text[at:].split("\n"):
        if not line.strip():
            continue
        if _ITEM().match(line):
            count += 1
        elif not (count and line[:1] in " \t"):
            break
    return count
