"""The text helpers every package shares: sentence splitting, folding, word lists, tolerance.

One place for each (issue 33, point 5); where two parts of the package need different
behaviour, the difference is a named variant of the one implementation, never a second copy:

- :func:`sentence_spans` and :func:`split_sentences`: the sentences of a text by one of the
  :data:`SentenceRule` rules (``"whole"`` for the mutators, which cut and edit whole sentences;
  ``"trimmed"`` for the judges' evidence; ``"stops"`` for the study's blame of a reference).
  A split is the spans' texts.
- :func:`fold`: NFKC, case folding, then a one-to-one character table: :data:`TYPOGRAPHY`
  (grounding: dashes, quotes, slashes, invisible characters), :data:`QUOTES` (the judges'
  evidence: typographic quotes and dashes) or none.
- :func:`word_list`: a named word list (stop words, negations) read from ``data/words.json``, as
  a set; :func:`word_sequence` the same list in its written order (a regular expression's
  alternation), :func:`word_pairs` a named list of word pairs (antonyms, contractions): words
  are data, not code (``tests/test_text.py`` holds this module, ``tests/test_word_tables.py``
  the rest of the package outside ``grounding/``, to the rule of
  ``tests/grounding/test_structure.py``). The grounding checks read their words from their
  per-language lexicons instead (``grounding/data/lexicon/``, docs/lexicons.md).
- :func:`rounding_tolerance`: how far a figure may lie from a value it rounds to.

A utility module (``tests/test_architecture.py``): it imports nothing of ours.
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import cache
from pathlib import Path
from typing import Any, Literal

__all__ = [
    "QUOTES",
    "SENTENCE_TRIM",
    "TYPOGRAPHY",
    "SentenceRule",
    "float_slack",
    "fold",
    "rounding_tolerance",
    "sentence_spans",
    "split_sentences",
    "word_list",
    "word_pairs",
    "word_sequence",
]

# --- sentences -------------------------------------------------------------------------------

SentenceRule = Literal["whole", "trimmed", "stops"]
"""How :func:`sentence_spans` splits a text.

``"whole"``
    A sentence runs to its final ``.``, ``!`` or ``?`` (kept) or a line break; a ``.`` inside a
    number, before a lower-case letter or after a lone capital ("U.S.", "K.") does not end it.
    Spans are stripped of surrounding blanks only, so an edit can cut a whole sentence.
``"trimmed"``
    A text breaks at ``.``, ``!`` or ``?`` followed by blanks, at every ``!``, ``?`` and CJK
    full stop, at line breaks and between Thai words; each piece is trimmed of blanks, quotes,
    brackets, bullets, dashes and stops, and empty pieces are dropped.
``"stops"``
    A text breaks at ``.``, ``!`` or ``?`` followed by blanks and at line breaks; pieces are
    kept as they stand (not trimmed), blank ones dropped.
"""

_WHOLE_SENTENCE = re.compile(r"(?:[^.!?\n]|[.,](?=\d)|\.(?=[a-z])|(?<=\b[A-Z])\.)+[.!?]*")
_TRIMMED_BREAK = re.compile(
    r"(?<=[.!?])\s+|[。！？!?]+|\n+|(?<=[\u0E00-\u0E7F])\s+(?=[\u0E00-\u0E7F])"
)
SENTENCE_TRIM = " \t\"'“”‘’«»()[]*-•–—.!?。！？"
"""What the ``"trimmed"`` rule strips from both ends of a sentence: blanks, quotes, brackets,
bullets, dashes and stops."""
_STOPS_BREAK = re.compile(r"(?<=[.!?])\s+|\n+")


def sentence_spans(text: str, rule: SentenceRule) -> list[tuple[int, int]]:
    """The ``(start, end)`` offsets of the sentences of ``text`` by ``rule``, in order.

    Examples:
        >>> sentence_spans("Pay 3.5 EUR. Done!", "whole")
        [(0, 12), (13, 18)]
        >>> sentence_spans('"Yes!" - No.', "trimmed")
        [(1, 4), (9, 11)]
    """
    if rule == "whole":
        spans = []
        for m in _WHOLE_SENTENCE.finditer(text):
            chunk = m.group()
            start = m.start() + len(chunk) - len(chunk.lstrip())
            end = m.end() - (len(chunk) - len(chunk.rstrip()))
            if end > start:
                spans.append((start, end))
        return spans
    trimmed = rule == "trimmed"
    pieces = _pieces(text, _TRIMMED_BREAK if trimmed else _STOPS_BREAK)
    if not trimmed:
        return [(a, b) for a, b in pieces if text[a:b].strip()]
    spans = []
    for a, b in pieces:
        piece = text[a:b]
        kept = piece.strip(SENTENCE_TRIM)
        if kept:
            start = a + len(piece) - len(piece.lstrip(SENTENCE_TRIM))
            spans.append((start, start + len(kept)))
    return spans


def _pieces(text: str, breaks: re.Pattern[str]) -> list[tuple[int, int]]:
    """The spans between the matches of ``breaks`` (what ``breaks.split(text)`` returns)."""
    pieces = []
    start = 0
    for m in breaks.finditer(text):
        pieces.append((start, m.start()))
        start = m.end()
    pieces.append((start, len(text)))
    return pieces


def split_sentences(text: str, rule: SentenceRule) -> list[str]:
    """The sentences of ``text`` by ``rule``: the texts of :func:`sentence_spans`.

    Examples:
        >>> split_sentences("It rose 2.5%. Sales fell!", "trimmed")
        ['It rose 2.5%', 'Sales fell']
    """
    return [text[a:b] for a, b in sentence_spans(text, rule)]


# --- folding ---------------------------------------------------------------------------------

TYPOGRAPHY: dict[int, str] = str.maketrans(
    {
        "\u2010": "-",  # hyphen
        "\u2011": "-",  # non-breaking hyphen
        "\u2012": "-",  # figure dash
        "\u2013": "-",  # en dash
        "\u2014": "-",  # em dash
        "\u2015": "-",  # horizontal bar
        "\u2212": "-",  # minus sign
        "\ufe63": "-",  # small hyphen-minus
        "\u2018": "'",
        "\u2019": "'",
        "\u201b": "'",
        "\u02bc": "'",
        "\u2032": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u2044": "/",  # fraction slash
        "\u2215": "/",  # division slash
        "\u00b5": "\u03bc",  # micro sign -> Greek mu (NFKC does this too; kept for clarity)
        "\u200b": " ",  # zero-width space
        "\u2060": " ",  # word joiner
        "\ufeff": " ",  # byte-order mark
    }
    | dict.fromkeys(map(chr, range(0xE000, 0xF900)), " ")  # private use
)
"""The grounding checks' fold after NFKC and case folding: dash, quote, slash and micro-sign
variants to one form, invisible and private-use characters to a blank. Every entry maps one
character to one character, so a folded text keeps its offsets (grounding's ``normalize``)."""

QUOTES: dict[int, str] = str.maketrans(
    {
        "’": "'",
        "‘": "'",
        "“": '"',
        "”": '"',
        "–": "-",
        "—": "-",
        "\u00a0": " ",
    }
)
"""The judges' fold of their evidence: typographic quotes and en / em dashes (and the no-break
space, which NFKC already makes a blank)."""


def fold(text: str, table: dict[int, str] | None) -> str:
    """``text`` in NFKC, case folded, then translated by ``table`` (``None``: no table).

    Examples:
        >>> fold("Straße – “ﬁne”", QUOTES)
        'strasse - "fine"'
        >>> fold("Ⅻ", None)
        'xii'
    """
    folded = unicodedata.normalize("NFKC", text).casefold()
    return folded if table is None else folded.translate(table)


# --- word lists ------------------------------------------------------------------------------

_WORDS = Path(__file__).parent / "data" / "words.json"


@cache
def _entries() -> dict[str, dict[str, Any]]:
    entries: dict[str, dict[str, Any]] = json.loads(_WORDS.read_text(encoding="utf-8"))
    return entries


@cache
def word_list(name: str) -> frozenset[str]:
    """The word list ``name`` of ``data/words.json`` (what each is for is written beside it).

    Raises:
        KeyError: no list has that name.
    """
    return frozenset(word_sequence(name))


@cache
def word_sequence(name: str) -> tuple[str, ...]:
    """The word list ``name`` of ``data/words.json`` in its written order: for an alternation
    of a regular expression, where the first word that matches wins.

    Raises:
        KeyError: no list has that name (a list of pairs is no word list).
    """
    return tuple(_entries()[name]["words"])


@cache
def word_pairs(name: str) -> tuple[tuple[str, str], ...]:
    """The word pairs ``name`` of ``data/words.json`` in their written order (an entry with
    ``"pairs"`` instead of ``"words"``): antonyms, or a form and what it becomes.

    Raises:
        KeyError: no list of pairs has that name.
    """
    return tuple((a, b) for a, b in _entries()[name]["pairs"])


# --- tolerance -------------------------------------------------------------------------------


def float_slack(value: float) -> float:
    """What float arithmetic may lose computing ``value`` from a few operands (a relative
    1e-9, then 1e-12): the margin a derived value is given before it is compared with an
    answer's figure rounded at its last digit.

    Examples:
        >>> float_slack(0.0)
        1e-12
        >>> abs(float_slack(-1000.0) - 1e-6) < 1e-11
        True
    """
    return 1e-9 * abs(value) + 1e-12


def rounding_tolerance(half: float, *, floor: float = 1e-12) -> float:
    """``half`` a unit of the last digit written, widened by what float arithmetic may lose
    (a relative 1e-9, then ``floor``): how far a figure may lie from a value it rounds to.

    Examples:
        >>> rounding_tolerance(0.05) > 0.05
        True
    """
    return half * (1 + 1e-9) + floor
