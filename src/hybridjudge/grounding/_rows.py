"""Another cell's figure: an answer's figure found as written in a table's row, where the words
around it in the answer name another row of that table, or another column's year, and nothing
of its own.

``415 étudiants se sont inscrits en licence de psychologie`` over a table whose row
``Informatique`` holds 415 and whose row ``Psychologie`` holds 388: the figure stands in the
context, as written, and a check that only traces figures passes it. The words say whose figure
it is: they name the psychology row (every word its label holds and the figure's own row does
not) and no word of the computer-science row's label. ``Operating income was $1,402 million in
FY2024`` where 1,402 stands in the FY2023 column names another column's year beside it. This
module reads the one table a found figure stands in (the run of rows around its line, a few
lines of the passage as laid out: never the whole passage's figures), each row's label and its
words, the nearest header row of years above, and compares them with the answer's words.

Only tables whose cells the context marks (pipe rows, Markdown and HTML tables, tabs): a
statement as a PDF extractor returns it is laid out into rows by :mod:`._layout`, whose labels
an extractor may have split from their figures or glued to the row above (a first form read
them and flagged right FinanceBench answers). A word (:func:`words`) is a run of letters and
digits, a plural's ``s`` cut, the stop words of every lexicon aside; unlike the derivation
search's row words (ASCII letters, to match a question's), it keeps what tells two rows apart:
an identifier (``q1``, ``nx-16``), a year, accented letters; a word of a script written
without spaces counts as named when the answer's text holds it.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from hybridjudge.grounding._derive import YEAR_RE, is_year, sentence_around
from hybridjudge.grounding._lexicon import derivation_words, merged, months, scales
from hybridjudge.grounding._normalize import NormalizedText
from hybridjudge.grounding._quantities import F_YEAR, Scan

__all__ = [
    "MAX_TABLE_LINES",
    "AnswerWords",
    "Row",
    "TableRows",
    "answer_words",
    "cell_marks",
    "laid_offset",
    "named_other_row",
    "named_other_year",
    "rows_around",
    "words",
]

MAX_TABLE_LINES = 200
"""Most lines read above and below a figure's line for its table's rows."""

_TOKEN = re.compile(r"[^\W_]+(?:-(?=[^\W_]*\d)[^\W_]+)*")
"""A word: letters and digits, an identifier's hyphen before digits kept (``nx-16``)."""
_STOP = frozenset(derivation_words().stop_words) | frozenset(scales())
"""Words that name no row: the lexicons' stop words and scale words (``thousand``)."""
_TOTAL = frozenset(merged("total_words"))
_HTML_CELL = re.compile(r"<t[dh][\s>/]", re.IGNORECASE)
_FIGURE = re.compile(r"\d[\d,.]*")


@dataclass(frozen=True, slots=True)
class AnswerWords:
    """What an answer's sentence says around one of its figures (:func:`answer_words`)."""

    part: str
    """The words from the figure before it in its sentence (or the sentence's start) to the
    figure after it (or the end; a percentage's stop at it: the words after it may name its
    whole, ``0.7% of total equity``), the figure taken out."""
    part_text: str
    """The same stretch as written, the figure in it (where a word of a script written
    without spaces is looked for: ``강남3구`` holds a count)."""
    sentence: str
    """The whole sentence with its figures taken out (years stay: they may name a row)."""
    sentence_text: str
    """The whole sentence as written."""
    near_years: frozenset[str]
    """The years of the sentence nearer to the figure than to any other of its figures."""
    sentence_years: frozenset[str]
    """Every year the sentence names."""
    part_words: frozenset[str]
    """:func:`words` of :attr:`part`."""


@dataclass(frozen=True, slots=True)
class Row:
    """A table row: its label as laid out (lower case), the words that name it, and the span of
    its label in the passage laid out."""

    label: str
    words: frozenset[str]
    span: tuple[int, int]


class TableRows:
    """The table a figure stands in (:func:`rows_around`): the row whose cells hold it, and the
    lines of the rest of the table, read on demand: the other rows whose labels may hold one of
    some words (:meth:`others`), the years of the nearest header row above (:meth:`heading`)."""

    __slots__ = ("_heading", "_laid", "_lines", "_seen", "_shape", "own")

    def __init__(
        self,
        own: Row,
        laid: NormalizedText,
        lines: tuple[tuple[int, int], ...],
        shape: tuple[str, bool, int, int],
        seen: dict[int, Row | None],
    ) -> None:
        self.own = own
        """The figure's row."""
        self._laid = laid
        self._lines = lines  # the table's other lines, upward (nearest first), then downward
        self._shape = shape  # the separator, whether rows open with it, the column, the width
        self._seen = seen
        self._heading: tuple[frozenset[str], frozenset[str]] | None = None

    def others(self, hints: Iterable[str] | None = None) -> Iterator[Row]:
        """The other rows of the table that hold a figure and a label with words; with
        ``hints``, only those whose line (lower case) holds one of them (a row whose label
        holds none of the words looked for is skipped unread)."""
        s, sep = self._laid.text, self._shape[0]
        wanted = None if hints is None else tuple(hints)
        for lo, hi in self._lines:
            if lo in self._seen:
                row = self._seen[lo]
            elif wanted is not None and not any(h in s[lo:hi] for h in wanted):
                continue
            else:
                row = self._seen[lo] = _row(s[lo:hi], sep, self._shape[1], lo)
            if row is not None and row.words != self.own.words:
                yield row

    def heading(self) -> tuple[frozenset[str], frozenset[str]]:
        """The years the figure's column heading names (``FY2024``, ``30.09.2024``: ``2024``)
        and those the other columns' headings of the same header row name, not its own: the
        nearest line above whose cells name years (:func:`_heading_years`); empty sets without
        one."""
        if self._heading is None:
            sep, piped, column, width = self._shape
            s = self._laid.text
            self._heading = next(
                (
                    years
                    for lo, hi in self._lines
                    if lo < self.own.span[0]
                    and (years := _heading_years(s[lo:hi], sep, piped, column, width)) is not None
                ),
                (frozenset(), frozenset()),
            )
        return self._heading

    def written(self, row: Row) -> str:
        """``row``'s label as the passage writes it."""
        a, b = self._laid.to_original(*row.span)
        return self._laid.original[a:b].strip() or row.label


def words(text: str) -> frozenset[str]:
    """The words of ``text`` (lower case) that may name a row: letter runs of three letters or
    more but stop words and scale words (a plural's ``s`` cut), words of letters and digits
    (``q1``, ``nx-16``), and years (``2024``; no other figure, nor a footnote's ``(1)``)."""
    out: set[str] = set()
    for w in _TOKEN.findall(text):
        if w.isalpha():
            if len(w) < 3 or w in _STOP:
                continue
            out.add(w[:-1] if len(w) > 3 and w.endswith("s") else w)
        elif not w.isdigit() or is_year(w):
            out.add(w)
    return frozenset(out)


def laid_offset(laid: NormalizedText, pos: int) -> int:
    """The offset in ``laid.text`` of offset ``pos`` of its original text."""
    segments = laid.segments
    if not segments:
        return pos
    k = bisect_right(segments, pos, key=lambda s: s[1]) - 1
    if k < 0:
        return 0
    n_start, o_start, o_len = segments[k]
    return n_start + min(pos - o_start, max(o_len - 1, 0))


def cell_marks(original: str) -> str:
    """The cell separators a passage (as written) writes itself: ``|`` (pipe rows, Markdown, and
    HTML's cells, which the normalisation writes so), a tab; not those :mod:`._layout` writes
    when it reads a PDF's lines as rows."""
    marks = "|" if "|" in original or _HTML_CELL.search(original) is not None else ""
    return marks + "\t" if "\t" in original else marks


def _row(line: str, sep: str, piped: bool, offset: int, at: int | None = None) -> Row | None:
    """The row of ``line`` (cells apart by ``sep``, each row opening with it if ``piped``; at
    ``offset`` of the passage laid out): ``None`` without a label that names it, without a
    figure in its cells (years are a header's), or (``at``, an offset in the line) where
    ``at`` is in its label."""
    first = 0
    if piped and "|" in line:
        first = line.index("|") + 1
    end = line.find(sep, first)
    if end < 0 or (at is not None and at < end):
        return None
    if all(is_year(f) for f in _FIGURE.findall(line, end)):
        return None  # no figure in its cells, or years only: a header
    label = line[first:end]
    named = words(label)
    if not named:
        return None
    lead = len(label) - len(label.lstrip())
    label = label.strip()
    return Row(label, named, (offset + first + lead, offset + first + lead + len(label)))


def _lines(s: str, start: int, end: int, step: int, sep: str) -> Iterator[tuple[int, int]]:
    """The spans of the lines of ``s`` holding ``sep`` next to the line ``start:end``, going
    up (``step`` -1: nearest first) or down, at most :data:`MAX_TABLE_LINES`."""
    lo, hi = start, end
    for _ in range(MAX_TABLE_LINES):
        if step < 0:
            if lo == 0:
                return
            hi = lo - 1
            lo = s.rfind("\n", 0, hi) + 1
        else:
            if hi >= len(s):
                return
            lo = hi + 1
            hi = s.find("\n", lo)
            hi = len(s) if hi < 0 else hi
        if sep not in s[lo:hi]:
            return
        yield lo, hi


def _cells(line: str, sep: str, piped: bool) -> list[str]:
    """The cells of a row's ``line``, the label's first; ``piped``: its table opens and closes
    each row with ``|`` (Markdown), else a row's empty label is its first cell (`` | 2019``)."""
    if piped:
        return line.strip().removeprefix("|").removesuffix("|").split(sep)
    return line.split(sep)


def _cell_years(cell: str) -> frozenset[str]:
    """The years a header cell names; a period ending in January to March names the year
    before it too (``January 31, 2020``: a retailer's fiscal 2019; ``March 31, 2020``: a
    Japanese company's FY2019)."""
    years = frozenset(YEAR_RE().findall(cell))
    if years and not _EARLY_MONTHS.isdisjoint(_TOKEN.findall(cell)):
        years |= {str(int(y) - 1) for y in years}
    return years


_EARLY_MONTHS = frozenset(w for w, m in months().items() if m <= 3 and len(w) >= 3)


def _heading_years(
    line: str, sep: str, piped: bool, column: int, width: int
) -> tuple[frozenset[str], frozenset[str]] | None:
    """The years of cell ``column`` of ``line`` and of its other cells but the first (a
    label's), where ``line`` is a header row of ``width`` cells: every cell after the first
    empty or naming a year, and cell ``column`` one; else ``None``."""
    cells = _cells(line, sep, piped)
    if len(cells) != width or column >= width:
        return None
    years = [_cell_years(c) for c in cells]
    if not years[column] or any(
        c.strip() and not y for c, y in zip(cells[1:], years[1:], strict=True)
    ):
        return None
    others = frozenset().union(*(y for k, y in enumerate(years[1:], 1) if k != column))
    return years[column], others - years[column]


def rows_around(
    laid: NormalizedText, marks: str, at: int, seen: dict[int, Row | None] | None = None
) -> TableRows | None:
    """The table around offset ``at`` of ``laid`` (a passage normalised and laid out, whose
    text as written marks cells with the separators ``marks``: :func:`cell_marks`): the row
    whose cells hold ``at`` and the run of lines with the same separator around it (at most
    :data:`MAX_TABLE_LINES` either way); ``None`` where ``at`` is in no row with a label, or in
    a row of a separator the passage does not write. ``seen`` keeps the rows read, by the
    offset of their line, for the next figure of the passage."""
    s = laid.text
    start = s.rfind("\n", 0, at) + 1
    end = s.find("\n", at)
    end = len(s) if end < 0 else end
    line = s[start:end]
    sep = "|" if "|" in line else "\t" if "\t" in line else None
    if sep is None or sep not in marks:
        return None
    # the figure's row has a label: a table whose rows open with "|" shows it there (an empty
    # label of another row is " | 2019" in rows without)
    piped = sep == "|" and line.lstrip().startswith("|")
    own = _row(line, sep, piped, start, at - start)
    if own is None:
        return None
    lead = line.index("|") + 1 if piped else 0
    shape = (sep, piped, line.count(sep, lead, at - start), len(_cells(line, sep, piped)))
    lines = (*_lines(s, start, end, -1, sep), *_lines(s, start, end, 1, sep))
    return TableRows(own, laid, lines, shape, {} if seen is None else seen)


def answer_words(sc: Scan, n: int) -> AnswerWords:
    """What the sentence of ``sc``'s figure ``n`` says around it (:class:`AnswerWords`); the
    other figures are its numbers, not its years nor dates."""
    text = sc.norm.text
    a, b = sc.norm_spans[n]
    lo, hi = sentence_around(text, a, b)
    cuts = [
        span
        for k, span in enumerate(sc.norm_spans)
        if lo <= span[0]
        and span[1] <= hi
        and sc.quantities[k].kind == "number"
        and not sc.meta[k][3] & F_YEAR
    ]
    first = max((e for s, e in cuts if e <= a), default=lo)
    last = min((s for s, e in cuts if s >= b), default=hi)
    pieces, at = [], lo
    for s, e in cuts:
        pieces.append(text[at:s])
        at = e
    pieces.append(text[at:hi])
    near: set[str] = set()
    every: set[str] = set()
    for m in YEAR_RE().finditer(text, lo, hi):
        ya, yb = m.span()
        while ya > lo and text[ya - 1].isalpha():
            ya -= 1  # the word the year ends: "fy2024"
        gaps = [_gap(text, ya, yb, s, e) for s, e in cuts if (s, e) != (a, b)]
        if min(gaps, default=0) < 0:
            continue  # inside a figure
        every.add(m.group())
        if _gap(text, ya, yb, a, b) < min(gaps, default=3 * len(text)):
            near.add(m.group())  # nearer to the figure than to any other: its year
    if sc.quantities[n].unit == "%":
        last = b  # the words after a percentage may name its whole: "0.7% of total equity"
    part = f"{text[first:a]} {text[b:last]}"
    return AnswerWords(
        part,
        text[first:last],
        " ".join(pieces),
        text[lo:hi],
        frozenset(near),
        frozenset(every),
        words(part),
    )


def _gap(text: str, ya: int, yb: int, a: int, b: int) -> int:
    """How far the year at ``ya:yb`` of ``text`` stands from the figure at ``a:b``: the
    characters between them, and a clause's punctuation between them farther than any
    (``It was 9.5 in 2018, 0.7% of ...``: 2018 is 9.5's); negative where they overlap."""
    lo, hi = (yb, a) if yb <= a else (b, ya)
    if hi < lo:
        return hi - lo
    return hi - lo + (len(text) if _CLAUSE_MARK.search(text, lo, hi) else 0)


_CLAUSE_MARK = re.compile(r"[,;:]\s")


def named_other_year(table: TableRows, said: AnswerWords, question: str = "") -> str | None:
    """The year of another column of ``table`` that the answer names beside the figure
    (:attr:`AnswerWords.near_years`), where neither the whole sentence nor ``question`` names
    the figure's own column's year: ``Operating income was $1,402 million in FY2024`` for a
    cell of the FY2023 column (``What are the respective values in 2018 and 2019?`` answered
    ``In 2019, it was X and Y`` names 2018 in the question: X may be its). ``None``: no such
    year."""
    if not said.near_years:
        return None
    years, other_years = table.heading()
    named = said.near_years & other_years
    if (
        not named
        or said.sentence_years & years
        or not years.isdisjoint(YEAR_RE().findall(question))
    ):
        return None
    return min(named)


def _named(word: str, said: frozenset[str], text: str) -> bool:
    return word in said or (not word.isascii() and word in text)


def named_other_row(table: TableRows, said: AnswerWords, question: str = "") -> Row | None:
    """The other row of ``table`` that the answer's words around the figure (``said``) name
    while its sentence and ``question`` (lower case) name nothing of the figure's own row:
    every word of the other row's label that the own row's lacks (one at least, not a total
    word alone) is in :attr:`AnswerWords.part`, and no word of the own row's label that the
    other's lacks is in the sentence or the question. One row only: where the part names
    several (``2: net losses ... and other operating expenses``, a count of the rows it lists),
    none (a row whose words another named row holds is that row's: ``revenue`` in ``cost of
    revenue``). ``None``: no such row (the answer names the figure's row, or no row, or
    several)."""
    own, in_part = table.own.words, said.part_words
    elsewhere: tuple[frozenset[str], frozenset[str]] | None = None  # the sentence's, asked
    named: list[Row] = []
    hints = in_part if said.part_text.isascii() else None  # else words found as substrings
    for row in table.others(hints):
        theirs, ours = row.words - own, own - row.words
        if not theirs or not ours or theirs <= _TOTAL:
            continue
        if not all(_named(w, in_part, said.part_text) for w in theirs):
            continue
        if elsewhere is None:
            elsewhere = words(said.sentence), words(question)
        if not any(
            _named(w, elsewhere[0], said.sentence_text) or _named(w, elsewhere[1], question)
            for w in ours
        ):
            named.append(row)
    widest = [r for r in named if not any(r.words < other.words for other in named)]
    distinct = {r.words for r in widest}
    return widest[0] if len(distinct) == 1 else None
