"""Unicode normalisation with an offset map back to the original text.

Every text the grounding checks compare (answer, context, anchors, markers) goes through
:func:`normalize`: NFKC, case folding, dash / quote / fraction-slash / micro-sign variants folded
to one form, vulgar fractions spelled out (``"1½"`` -> ``"1 1/2"``) and private-use characters
blanked. Spans found in the normalised text are mapped back to the caller's text with
:meth:`NormalizedText.to_original`, so findings point at what the user wrote.

ASCII runs take a fast path (``str.lower`` is NFKC + casefold for ASCII); non-ASCII runs whose
normalised length equals their own length are mapped one to one; anything else is normalised one
character cluster (base + combining marks) at a time.

Tables are read in the forms the checks understand (rows as lines, cells separated by ``|`` or
tabs): the commas of CSV rows and the markup of HTML tables are rewritten into that form one
character for one character (:func:`_csv_cells`, :func:`_html_cells`), so the offset map stays
exact.
"""

from __future__ import annotations

import html
import operator
import re
import unicodedata
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from hybridjudge._text import TYPOGRAPHY, fold
from hybridjudge.grounding._lexicon import (
    LANGUAGES,
    alternation,
    currencies,
    lexicon,
    merged,
    months,
)
from hybridjudge.grounding._patterns import lazy

__all__ = [
    "NormalizedText",
    "continental_reading",
    "continental_words",
    "english_only",
    "key_runs",
    "letter_run_lists",
    "letter_runs",
    "normalize",
    "normalize_plain",
    "spaced_cells",
]

_PRE: dict[str, str] = {
    "\u2018": "'",
    "\u2019": "'",
    "\u201c": '"',
    "\u201d": '"',
    "\u2010": "-",
    "\u2011": "-",
    "\u2012": "-",
    "\u2013": "-",
    "\u2014": "-",
    "\u2212": "-",
    "\u00a0": " ",
    "\u202f": " ",
    "\u2009": " ",
    "\u2002": " ",
    "\u2003": " ",
    "\u2007": " ",
    "\u200a": " ",
}
"""One-to-one folds applied before the ASCII check (each agrees with NFKC + ``TYPOGRAPHY``)."""
_BEYOND_PRE = re.compile("[^\x00-\x7f" + "".join(_PRE) + "]")

_VULGAR = {
    "\u00bc": "1/4",
    "\u00bd": "1/2",
    "\u00be": "3/4",
    "\u2150": "1/7",
    "\u2151": "1/9",
    "\u2152": "1/10",
    "\u2153": "1/3",
    "\u2154": "2/3",
    "\u2155": "1/5",
    "\u2156": "2/5",
    "\u2157": "3/5",
    "\u2158": "4/5",
    "\u2159": "1/6",
    "\u215a": "5/6",
    "\u215b": "1/8",
    "\u215c": "3/8",
    "\u215d": "5/8",
    "\u215e": "7/8",
}
_VULGAR_RE = re.compile("[" + "".join(_VULGAR) + "]")
_RUNS_RE = re.compile(r"[\x00-\x7f]+|[^\x00-\x7f]+")


def _fold_cluster(cluster: str) -> str:
    """Normalise one character cluster (a base character and its combining marks)."""
    frac = _VULGAR.get(cluster)
    if frac is not None:
        return " " + frac
    return fold(cluster, TYPOGRAPHY)


@dataclass(slots=True)
class NormalizedText:
    """A normalised text with the breakpoints needed to map its offsets back to the original.

    ``segments`` holds ``(norm_start, orig_start, orig_len)`` triples, sorted; inside a segment
    normalised offsets advance one to one with original offsets, clipped to the segment.

    Not frozen (creation is several times faster); treat it as read-only.
    """

    text: str
    original: str
    segments: tuple[tuple[int, int, int], ...]
    continental: bool = False
    """Whether the text's figures were read the continental way (:func:`normalize`: ``12,5``
    as 12.5, ``1.250`` as 1,250): what reads a scale word in its continental value
    (``612,4 mil euros``: thousands, not English slang's millions)."""

    def to_original(self, start: int, end: int) -> tuple[int, int]:
        """Map a ``[start, end)`` span of :attr:`text` to the original text."""
        if not self.segments:
            return start, end
        o_start = self._point(start)
        o_end = self._point(end - 1) + 1 if end > start else o_start
        return o_start, max(o_end, o_start)

    def _point(self, pos: int) -> int:
        segs = self.segments
        k = bisect_right(segs, (pos, len(self.original) + 1, 0)) - 1
        if k < 0:
            return 0
        n_start, o_start, o_len = segs[k]
        return o_start + min(pos - n_start, max(o_len - 1, 0))


_GROUPED = lazy(r"\d,\d{3}(?!\d)")
_INDIAN_GROUPED = lazy(r"(?<![\d,])\d{1,2}(?:,\d\d){1,6},\d{3}(?![\d,])")
"""A figure in Indian grouping (``1,50,000``, ``2,50,00,000``): read so only in a text with
:data:`_INDIAN_SIGNAL`; elsewhere ``10,20,300`` is three CSV cells."""
_INR = next(c for c in currencies() if c.code == "inr" and c.numbering)


def _at_word_start(word: str, rest: str | None = None) -> str:
    """``word`` (or its first letter and the expression ``rest``) where no letter ``a``-``z``
    precedes it, written with its first letter first and the look-behind after it: an
    alternation whose branches all start with a literal lets the engine skip ahead to their
    first letters (``(?<![a-z])(?:...)`` is tried at every position, tens of microseconds on a
    page)."""
    first = re.escape(word[0])
    return f"{first}(?<![a-z]{first}){re.escape(word[1:]) if rest is None else rest}"


_INDIAN_SIGNAL = lazy(
    "|".join(
        (
            "₹",
            _at_word_start("r", r"s\.?\s?\d"),
            _at_word_start("i", r"nr(?![a-z])"),
            *(_at_word_start(w) for w in alternation((*_INR.numbering, *_INR.names)).split("|")),
        )
    )
)


_SPACED_DECIMAL = lazy(
    r"(?:(?<=[\s(])|^)[-+]?[$€£¥]?[-+]?\d[\d.\u00a0\u202f\u2009]*(?P<c>,)\d+"
    r"(?=[\s%)]|[.;:](?!\d)|$)"
)
"""A figure with a comma standing as a word of running text (``um 3,5 % auf 12,4 Mio.``,
``12 500,5 Euro``, signed: ``-42,7 - 20,9 = -63,6``): the comma is its decimal sign (or groups
it), no cell separator."""


_COMMA = re.compile(",")
_TWO_DIGIT_GROUP = re.compile(r",\d\d,")
"""Two digits between commas: every figure of :data:`_INDIAN_GROUPED` holds them (``1,50,000``),
so a line without them needs no look at :data:`_INDIAN_SIGNAL` (a literal-first search)."""
_start = operator.methodcaller("start")


def _csv_cells(text: str) -> str:
    """``text`` with the commas that separate the cells of a CSV row (``Segment,2019,2018``)
    written as ``|``, the cell separator the checks read (one character for one: offsets do
    not move). A row is a line with no comma followed by a space (running text has those) and
    no other cell separator, with two commas or more that neither group the thousands of a
    figure (``1,234`` stays) nor stand inside a figure written as a word of running text
    (:data:`_SPACED_DECIMAL`: ``Der Umsatz stieg um 3,5 % auf 12,4 Mio. Euro`` is no row)."""
    if ";" in text:
        text = _semicolon_cells(text)
        if "," not in text:
            return text
    if '"' in text and _QUOTED_CELL().search(text) is not None:
        return _quoted_csv_cells(text)
    rows: list[_CsvLine] = []
    pos = 0
    indian: bool | None = None  # decided once per text, on the first row's need
    for line in text.split("\n"):
        if (
            line.count(",") >= 2
            and ", " not in line.rstrip(" ")
            and "|" not in line
            and "\t" not in line
        ):
            grouping: frozenset[int] = frozenset()
            if _TWO_DIGIT_GROUP.search(line) is not None:  # what an Indian grouping holds
                if indian is None:
                    indian = _INDIAN_SIGNAL().search(text) is not None
                if indian:
                    grouping = _indian_commas(line)
            if " " in line:
                grouping = grouping | {m.start("c") for m in _SPACED_DECIMAL().finditer(line)}
            commas = list(map(_start, _COMMA.finditer(line)))  # the commas, not every character
            separators = [
                k
                for k in commas
                if k not in grouping and not _groups(line, k) and not _date_comma(line, k)
            ]
            row_like = _row_like(line, commas[0])
            certain = (
                row_like
                and len(separators) == len(commas)
                and (_DIGIT.search(line) is not None or _EMPTY_CELL.search(line) is not None)
            )
            rows.append((pos, commas, separators, row_like, certain))
        pos += len(line) + 1
    if not rows:
        return text
    width = _row_width(rows)
    out: list[str] | None = None
    for pos, commas, separators, row_like, _certain in rows:
        if width and row_like and len(commas) == width and len(separators) < width:
            separators = commas  # as wide as the table's rows: each comma separates
        if len(separators) >= 2:
            if out is None:
                out = list(text)
            for k in separators:
                out[pos + k] = "|"
    return text if out is None else "".join(out)


_SEMICOLON_ROW = re.compile(r"^[^;\n|\t]*;(?![ ])[^;\n|\t]*;(?![ ])[^\n|\t]*$", re.MULTILINE)
"""A line with two semicolons or more, no blank after the first two, no other cell separator:
a row of a CSV file as a continental spreadsheet writes it (``Arbeitspreis;3.412;kWh;0,3189``)."""


def _semicolon_cells(text: str) -> str:
    """``text`` with the semicolons of its :data:`_SEMICOLON_ROW` lines written as ``|`` (one
    character for one): a spreadsheet that writes decimal commas separates its CSV cells with
    semicolons, so those lines' commas are decimal commas (``0,3189``, ``1.088,09``), not cells
    (:func:`_csv_cells` reads no line with a ``|``). A line of running text with semicolons has a
    blank after them (``3 kg; 5 kg; 7 kg``)."""
    rows = [m.span() for m in _SEMICOLON_ROW.finditer(text) if "; " not in m.group()]
    if not rows:
        return text
    out = list(text)
    for start, end in rows:
        for k in range(start, end):
            if out[k] == ";":
                out[k] = "|"
    return "".join(out)


_EMPTY_CELL = re.compile(r"^,|,,|,$")
"""An empty cell of a CSV row (``,,Number of restaurants``): no prose and no PDF's labels glued
by commas have one, so a row of headings with one is as certain as a row of figures."""
_CsvLine = tuple[int, list[int], list[int], bool, bool]
"""A line that may be a CSV row (:func:`_csv_cells`): its offset, its commas, those that
separate cells for sure, whether it opens as a row (:func:`_row_like`), and whether it is one
for sure (every comma a separator, a digit or an empty cell in it)."""
_DIGIT = re.compile(r"\d")


def _row_like(line: str, first_comma: int) -> bool:
    """Whether ``line`` opens as a row of a table: its first cell is empty or a label (a letter
    or a blank in it: ``Sensors``, ``2020 - 2024``), not the head of a figure (``(1,000,346)``,
    a page's figure on a line of its own)."""
    head = line[:first_comma]
    return not head or " " in head or any(ch.isalpha() for ch in head)


def _row_width(rows: list[_CsvLine]) -> int:
    """The commas of the text's CSV rows that no figure's grouping makes ambiguous (every comma
    a separator, two or more, a digit or an empty cell in the row), the most frequent count,
    when two rows or more have it; else 0. A row with that many commas that opens as a row (:func:`_row_like`),
    some of whose commas would group a figure's thousands (``Defined contribution
    schemes,166,178,192`` among rows of four cells), is a row of as many cells: a CSV writer
    quotes a cell that holds a comma. Lines of words glued by commas (a PDF's run-together
    labels, ``cash,cashequivalents,beginningoftheyear``) hold no digit and set no width."""
    widths = Counter(len(commas) for _pos, commas, _sep, _row, certain in rows if certain)
    if not widths:
        return 0
    width, count = widths.most_common(1)[0]
    return width if count >= 2 else 0


_QUOTED_CELL = lazy(r'(?:^|,)"[^"\n]*"(?=,|$)', re.MULTILINE)
"""A quoted CSV cell (``Automotive,"$ 5,686","$ 6,092"``): a text with one is CSV written by a
CSV writer, which quotes every cell holding a comma, so a comma outside quotes separates cells
(``Appliances,680,774,676`` is four cells, not the figure 680,774,676)."""


def _quoted_csv_cells(text: str) -> str:
    """:func:`_csv_cells` of a text holding quoted cells (:data:`_QUOTED_CELL`): in each line
    with a comma outside quotes and no comma and space outside them (running text), every
    comma outside quotes is written ``|`` and the quotes around a cell a space (one character
    for one); a comma inside quotes stays (``"1,221"``, ``"Aerospace, defense, and gas"``)."""
    out = list(text)
    pos = 0
    for line in text.split("\n"):
        if "," in line and "|" not in line and "\t" not in line:
            separators: list[int] = []
            quotes: list[int] = []
            quoted = False
            for k, ch in enumerate(line):
                if ch == '"':
                    quotes.append(k)
                    quoted = not quoted
                elif ch == "," and not quoted:
                    if line[k + 1 : k + 2] == " " and not line[k + 1 :].isspace():
                        break  # running text (blanks that end the line are none)
                    separators.append(k)
            else:
                for k in separators:
                    out[pos + k] = "|"
                if separators:
                    for k in quotes:
                        out[pos + k] = " "
        pos += len(line) + 1
    return "".join(out)


def _groups(line: str, k: int) -> bool:
    """Whether the comma at ``k`` groups the thousands of a figure (``1,234``, not
    ``194.3,172.5`` nor ``2018,2019``)."""
    if k == 0 or _GROUPED().match(line, k - 1) is None:
        return False
    j = k - 1
    while j >= 0 and line[j].isdigit():
        j -= 1
    return not (j >= 0 and line[j] == ".")  # "3.5,100": a decimal ends the figure before


_GLUED_DAY = lazy(r"(?i:" + alternation(months(("en",))) + r")\.?\d{1,2}$")
"""A month and its day that an extractor glued (``january26``), ending where it is tried."""
_YEAR = lazy(r"(?:19|20)\d\d(?!\d)")


def _date_comma(line: str, k: int) -> bool:
    """Whether the comma at ``k`` is a date's between its day and its year, all three glued by
    an extractor (``January26,2019-February22,2019``, as pypdf writes a PDF without space
    glyphs): no cell separator."""
    return (
        _YEAR().match(line, k + 1) is not None
        and _GLUED_DAY().search(line, max(0, k - 12), k) is not None
    )


def _indian_commas(line: str) -> frozenset[int]:
    """The offsets of the commas of ``line`` that group a figure of :data:`_INDIAN_GROUPED`
    (a whole run of digits and commas; one pass over the line)."""
    return frozenset(
        k
        for m in _INDIAN_GROUPED().finditer(line)
        for k in range(m.start(), m.end())
        if line[k] == ","
    )


_HTML_TABLE = lazy(r"<(?:table|tr|td|th)\b", re.IGNORECASE)
"""A tag of an HTML table: only a text holding one is read as HTML (others keep the fast path)."""
_MARKUP = lazy(
    r"<!--.*?(?:-->|\Z)"  # a comment
    r"|<(?P<close>/?)(?P<name>[a-z][a-z0-9]*)\b[^<>]*>"  # a tag, with its attributes
    r"|&(?:#[0-9]{1,7}|#x[0-9a-f]{1,6}|[a-z][a-z0-9]{1,31});",  # an entity (with its ";")
    re.DOTALL,
)
_COLSPAN = lazy(r"""\bcolspan\s*=\s*["']?\s*(\d+)""")
_IN_TABLE_BLANKS = str.maketrans("\n\r\t", "   ")
"""Inside a table a row is one line and only tags separate cells: line breaks and tabs (the
other cell separator) become spaces."""
_NOT_NEWLINE = re.compile(r"[^\n]")
_GLUE_BACK = re.compile(r"[^\W_]|[%).]")
"""What an entity's character stays glued to when it follows it (``5&#37;`` -> ``5%``)."""


def _html_cells(s: str) -> tuple[str, list[tuple[int, int]]]:
    """``s`` (normalised, so lower case) with its HTML table markup rewritten into the table
    form the checks read, one character for one character (offsets do not move), and the
    characters that stand for a whole entity (see below) as ``(offset, shift)``: the original
    offset that ``offset`` maps to is ``shift`` away from its own.

    * ``<table>`` starts a line (its first character becomes a line break) and the
      ``</table>`` that closes it ends the block (its first two become a blank line: a scale
      stated in its caption or just above governs the table, not the prose after it);
    * ``<tr>`` starts a line: a row is one line (no blank line is made before a row, so a
      table stays one block, and an empty row adds no line);
    * ``<td>`` / ``<th>`` start with ``|``, except the first cell of a row (its label, as in
      ``Revenue | 16,525 | 15,001``); a cell spanning ``n`` columns (``colspan="n"``) is
      followed by ``n - 1`` more ``|`` at its closing tag, so its content heads the first
      column it spans (``rowspan`` is not read);
    * inside a table, line breaks and tabs between tags become spaces;
    * every other tag (``<caption>``, ``<thead>``, ``<br>``, ``<p>``, ``<b>``, ...) and comment
      becomes blanks (line breaks outside a table are kept);
    * an entity ending in ``;`` (``&amp;``, ``&#36;``, ``&#x24;``, ``&minus;``) becomes the
      character it stands for, normalised like the text around it (``&minus;`` -> ``-``,
      ``&nbsp;`` -> a space) and padded with spaces: the character takes the entity's first
      position after a letter, digit, ``%``, ``)`` or ``.`` (``5&#37;`` -> ``5%``) and its last
      position otherwise, glued to what follows (``&#36;16,525`` -> ``$16,525``,
      ``&minus;5`` -> ``-5``), and a span that starts (ends) at that character maps back to
      the start (end) of the entity, so ``$16,525`` points at ``&#36;16,525``; an entity whose
      characters do not fit is blanked (a multi-character one keeps the offsets as they are),
      an unknown one is kept as written.

    Tables nested in a cell are read as part of the outer table's rows."""
    out = list(s)
    moved: list[tuple[int, int]] = []
    table = _Markup()
    pos = 0
    for m in _MARKUP().finditer(s):
        start, end = m.span()
        if table.depth and pos < start:
            out[pos:start] = s[pos:start].translate(_IN_TABLE_BLANKS)
        pos = end
        if s[start] == "&":
            shift = _entity(m[0], start, out)
            if shift is not None:
                moved.append(shift)
        else:
            table.tag(m, out)
    if table.depth and pos < len(s):
        out[pos:] = s[pos:].translate(_IN_TABLE_BLANKS)
    return "".join(out), moved


@dataclass(slots=True)
class _Markup:
    """Where :func:`_html_cells` stands in a text's tables, and how it rewrites a tag."""

    depth: int = 0
    """Open tables (a row or cell before any ``<table>`` opens one)."""
    first_cell: bool = True
    """No cell yet in the current row."""
    pending: int = 0
    """Separators still owed by a cell spanning several columns."""
    line: int = 0
    """The end of the last tag that left a line start (blanks since then keep it)."""

    def tag(self, m: re.Match[str], out: list[str]) -> None:
        """Rewrite the tag or comment ``m`` in ``out`` (see :func:`_html_cells`)."""
        start, end = m.span()
        name = m["name"]
        width = end - start
        if name == "table":
            self._table(m, out)
        elif name == "tr":
            if not m["close"]:
                self.depth = self.depth or 1
                self.first_cell, self.pending = True, 0
                out[start:end] = _line_start(out, self.line, start, width)
                self.line = end
            else:
                out[start:end] = _pipes(self.pending, width)
                self.pending = 0
        elif name in ("td", "th"):
            if m["close"]:
                out[start:end] = _pipes(self.pending, width)
                self.pending = 0
            else:
                self.depth = self.depth or 1
                out[start:end] = _pipes(self.pending + (not self.first_cell), width)
                self.first_cell = False
                span = _COLSPAN().search(m[0])
                self.pending = min(int(span[1]), 100) - 1 if span else 0
        else:
            out[start:end] = " " * width if self.depth else _NOT_NEWLINE.sub(" ", m[0])

    def _table(self, m: re.Match[str], out: list[str]) -> None:
        """Rewrite ``<table>`` or ``</table>``: an outermost one starts a line, or ends its
        block with a blank line; a nested one becomes blanks."""
        start, end = m.span()
        width = end - start
        if m["close"]:
            blank = " " * width if self.depth else _NOT_NEWLINE.sub(" ", m[0])
            self.depth = max(self.depth - 1, 0)
            out[start:end] = "\n\n" + " " * (width - 2) if self.depth == 0 else blank
            self.line = end if self.depth == 0 else self.line
            return
        if self.depth == 0:
            out[start:end] = _line_start(out, self.line, start, width)
            self.line = end
        else:
            out[start:end] = " " * width
        self.depth += 1
        self.first_cell, self.pending = True, 0


def _line_start(out: list[str], line: int, start: int, width: int) -> str:
    """A tag of ``width`` characters at ``out[start]`` that starts a line: a line break and
    spaces, or only spaces when the line already starts there (nothing but blanks since a line
    break, the start of the text or ``line``, the end of the last tag that started a line: a
    table right after a line break, a row right after ``<table>``, an empty row), so that no
    blank line splits a table's block."""
    k = start - 1
    while k >= line and out[k] == " ":
        k -= 1
    if k < line or out[k] == "\n":
        return " " * width
    return "\n" + " " * (width - 1)


def _pipes(n: int, width: int) -> str:
    """``n`` cell separators (as many as fit) padded with spaces to ``width`` characters."""
    n = max(0, min(n, width))
    return "|" * n + " " * (width - n)


def _entity(entity: str, start: int, out: list[str]) -> tuple[int, int] | None:
    """Write the character an HTML entity stands for (normalised) at ``out[start:]``, padded
    to the entity's width (see :func:`_html_cells`); return where a single character went and
    how far its original offset lies from there (the entity's start, or its end)."""
    char = html.unescape(entity)
    if char == entity:
        return None  # not an entity html knows: kept as written
    width = len(entity)
    folded = "".join(_fold_cluster(c) for c in char)
    if not folded.strip() or len(folded) > width:
        out[start : start + width] = " " * width
        return None
    back = start > 0 and _GLUE_BACK.match(out[start - 1]) is not None
    out[start : start + width] = folded.ljust(width) if back else folded.rjust(width)
    if len(folded) != 1:
        return None
    return (start, width - 1) if back else (start + width - 1, 1 - width)


def _shifted(
    norm: NormalizedText, moved: list[tuple[int, int]]
) -> tuple[tuple[int, int, int], ...]:
    """``norm``'s segments with a one-character segment for each ``(offset, shift)`` of
    ``moved`` (sorted; every offset lies in an ASCII run, mapped one to one)."""
    segments = norm.segments or ((0, 0, len(norm.original)),)
    out: list[tuple[int, int, int]] = []
    i = 0
    for k, (n_start, o_start, o_len) in enumerate(segments):
        n_end = segments[k + 1][0] if k + 1 < len(segments) else len(norm.text)
        pos = n_start
        while i < len(moved) and moved[i][0] < n_end:
            at, shift = moved[i]
            i += 1
            if at > pos:
                out.append((pos, o_start + pos - n_start, at - pos))
            out.append((at, o_start + at - n_start + shift, 1))
            pos = at + 1
        if pos == n_start:
            out.append((n_start, o_start, o_len))
        elif pos < n_end:
            out.append((pos, o_start + pos - n_start, o_len - (pos - n_start)))
    return tuple(out)


_EMPHASIS = lazy(
    r"(?<![\w)\]%*`])(\*\*|\*|__|`)(?=[^\s*`])([^\n*`]{1,200}?)(?<=[^\s*`])\1(?![\w*`(])"
)
"""Markdown's emphasis and code around a text (``**$5.4 billion**``, ``*5.4*``, ``__12%__``,
`` `5,428` ``): its marks open after no operand (``(a / b) ** 0.5``, ``2*3*4`` are working)
and close before no word."""


_LIST_NUMBER = lazy(r"[ \t]*(?:[-*•·][ \t]*)?(?:\(\d{1,2}\)|\d{1,2}[.)])[ \t]+")
"""A list item's number opening its line (``2. ``): emphasis right after it keeps its marks,
which tell the number from a figure (``2. **2018:** $5.0 million``)."""


def _blank_marks(m: re.Match[str]) -> str:
    """The emphasis of :data:`_EMPHASIS` with its marks written as blanks, one for one (not
    after a list item's number, :data:`_LIST_NUMBER`)."""
    text = m.string
    line = text.rfind("\n", 0, m.start()) + 1
    if m.start() - line < 12 and _LIST_NUMBER().fullmatch(text, line, m.start()) is not None:
        return m.group()
    marks = " " * len(m[1])
    return marks + m[2] + marks


def normalize(text: str) -> NormalizedText:
    """Normalise ``text`` for matching and keep the map back to the original offsets (commas
    separating CSV cells, the gaps between the columns of a table laid out with spaces, and
    HTML table markup become ``|``, rows and blanks, one character for one: see
    :func:`_csv_cells`, :func:`_layout_cells` and :func:`_html_cells`). Markdown's emphasis
    and code marks around a text are blanks (:data:`_EMPHASIS`: ``**2,605**`` is no power of
    working, ``*`` no product). A carriage return ends no line of its own: ``\\r\\n`` is a
    blank and a line break, a lone ``\\r`` a line break (Windows' and old Macs' line ends; a
    table laid out a cell per line is read by its lines)."""
    source = text
    if "\r" in text:
        source = text.replace("\r\n", " \n").replace("\r", "\n")
    if "*" in text or "`" in text or "__" in text:
        source = _EMPHASIS().sub(_blank_marks, source)  # the same object when none matches
    norm = _tables(source)
    if source is not text:
        norm = NormalizedText(norm.text, text, norm.segments)
    out = norm.text
    if ("\\" in text or "$$" in text) and all(n == o for n, o, _ in norm.segments):
        # offsets unmoved (none, or a non-ASCII text folded one for one: ``×`` in working)
        latex = _latex_plain(out)
        if latex is not None:
            out, segments = latex
            norm = NormalizedText(out, text, segments)
    if "  " in text:
        out = _layout_cells(out)
    if "_" in out and ("|" in out or "\t" in out):
        out = _snake_case_cells(out)
    before = out
    out = _continental(out)
    continental = out is not before
    if (
        (
            not text.isascii()
            and ("\u202f" in text or "\u00a0" in text or "\u2009" in text)
            and _TYPOGRAPHIC_GROUPING().search(text) is not None
        )
        or (" 0" in out and _plain_grouping(out))
        or ("€" in out and _EURO_GROUPED().search(out))
        or ("|" in out and _SPACE3.search(out) is not None and _spaced_thousands_cells(out))
    ):
        out = _si_grouping(out)
    if out is norm.text:
        return norm
    return NormalizedText(out, text, norm.segments, continental)


_LATEX_TOKEN = lazy(
    r"\\[dt]?frac\{|\\text(?:rm|bf)?\{|\\mathrm\{|\\times|\\cdot|\\div|\\left|\\right"
    r"|\\%|\\\$|\\[,;!]|\\quad|\$\$|\\[\[\]()]"
)
_LATEX_SYMBOLS = {"\\times": "×", "\\cdot": "×", "\\div": "÷"}
_LATEX_OPERATORS = frozenset("+-*/×÷")


def _latex_plain(text: str) -> tuple[str, tuple[tuple[int, int, int], ...]] | None:
    """``text`` (normalised, offsets those of the original) with the LaTeX of an answer's
    working written plainly, and the segments that map it back (see :class:`NormalizedText`):
    ``\\frac{a - b}{b}`` is ``(a - b)÷b`` (a part in brackets only if it holds an operator),
    ``\\times`` and ``\\cdot`` are ``×``, ``\\div`` is ``÷``, ``10\\%`` is ``10%``, ``-\\$154`` is ``-$154``, ``\\text{ million}``
    its words (``\\$5.5 \\text{ million}`` is ``$5.5 million``); ``\\left`` and ``\\right``
    go, and the delimiters ``$$``, ``\\[``, ``\\]``, ``\\(``, ``\\)`` and spacing commands
    are a blank (``$12$`` stays for the scan, which reads it as no dollars). ``None`` when
    there is nothing to rewrite."""
    repl: dict[int, str] = {}  # a position of ``text`` -> what it becomes ("" drops it)
    for m in _LATEX_TOKEN().finditer(text):
        a, b = m.span()
        token = m.group()
        if token.endswith("{"):
            groups = _brace_groups(text, b - 1, 2 if "frac" in token else 1)
            if groups is None:
                continue
            repl.update(dict.fromkeys(range(a, b - 1), ""))
            if "frac" in token:
                (o1, c1), (o2, c2) = groups
                # brackets only around a part with an operator: "(5.0)" alone would be an
                # accounting negative
                top, bottom = (
                    not _LATEX_OPERATORS.isdisjoint(text[o + 1 : c].strip().lstrip("+-"))
                    for o, c in groups
                )
                repl.update(
                    {
                        o1: "(" if top else "",
                        c1: ")" if top else "",
                        o2: "÷(" if bottom else "÷",
                        c2: ")" if bottom else "",
                    }
                )
            else:
                (o1, c1) = groups[0]
                repl[o1] = repl[c1] = ""
                if a and text[a - 1] == " " and text[o1 + 1 : o1 + 2] == " ":
                    repl[o1 + 1] = ""  # "$5.5 \\text{ million}": one blank before the word
            continue
        if token in ("\\%", "\\$"):
            repl[a] = ""  # the sign itself stays, where the answer wrote it
            continue
        repl.update(dict.fromkeys(range(a + 1, b), ""))
        repl[a] = _LATEX_SYMBOLS.get(token, " ")
    if not repl:
        return None
    out: list[str] = []
    segments: list[tuple[int, int, int]] = []
    n = 0
    unchanged = False  # whether the last segment is of unchanged characters (it may grow)
    for o, ch in enumerate(text):
        new = repl.get(o)
        if new is None:
            if unchanged and segments[-1][1] + segments[-1][2] == o:
                n0, o0, length = segments[-1]
                segments[-1] = (n0, o0, length + 1)
            else:
                segments.append((n, o, 1))
                unchanged = True
            out.append(ch)
            n += 1
        elif new:
            segments.append((n, o, 1))  # one original character, written as one or more
            unchanged = False
            out.append(new)
            n += len(new)
    return "".join(out), tuple(segments)


def _brace_groups(text: str, at: int, count: int) -> list[tuple[int, int]] | None:
    """The spans (opening, closing brace) of ``count`` brace groups, the first opening at
    ``at`` and each next one right after the last; ``None`` if they are not all there."""
    groups: list[tuple[int, int]] = []
    k = at
    while len(groups) < count:
        if k >= len(text) or text[k] != "{":
            return None
        depth = 0
        for j in range(k, min(len(text), k + 400)):
            depth += (text[j] == "{") - (text[j] == "}")
            if depth == 0:
                groups.append((k, j))
                k = j + 1
                break
        else:
            return None
    return groups


_TYPOGRAPHIC_GROUPING = lazy(r"\d[\u00a0\u202f\u2009]\d{3}(?!\d)")
"""Thousands grouped by a no-break, narrow no-break or thin space (``10 000`` as typeset
documents and SI style write it): no list separates its items so."""
_ZERO_GROUP = re.compile(r" 0(?<=\d 0)\d\d(?!\d)")
"""A group of three digits with a leading zero after a digit and a plain space (``10 000``):
no figure of its own (prose writes no ``000``), so a group of thousands."""


_SPACE_FIGURE = r"(?<![\d.,])(?<!\d )\d{1,3}(?: \d{3}){1,6}"
"""Digits grouped by plain spaces, at most seven groups (below 10**21), tried only from the start
of their run: linear."""
_EURO_GROUPED = lazy(rf"{_SPACE_FIGURE}(?:,\d{{1,2}})?[ \t]?(?:m|k|md|mds|mrd\.?|mio\.?)?[ \t]?€")
"""A figure grouped by plain spaces before a euro sign (``1 200 M€``, ``12 500 €``), as French
and German write amounts: the text groups thousands so (English writes no ``€`` after a
figure)."""


def _plain_grouping(text: str) -> bool:
    """Whether ``text`` (normalised) groups thousands with plain spaces: a figure of
    :data:`_SPACE_GROUPED` has a group of :data:`_ZERO_GROUP` (``10 000``, ``1 050 000``; as
    text extracted from a typeset page writes the thin spaces it had). Then every such figure
    is read whole (``12 500`` too); without one, plain spaces stay separators (``sizes 10
    500``)."""
    for z in _ZERO_GROUP.finditer(text):
        lo = z.start()
        floor = max(0, lo - 28)  # seven groups and their spaces at most
        while lo > floor and (text[lo - 1].isdigit() or text[lo - 1] == " "):
            lo -= 1
        for m in _SPACE_GROUPED().finditer(text, lo, z.end() + 4):
            if m.start() < z.start() and m.end() >= z.end():
                return True
    return False


_SPACE_GROUPED = lazy(rf"{_SPACE_FIGURE}(?:(?P<dec>,)\d{{1,2}}(?![\d,.]))?(?!\d|,\d)")
"""A figure of :data:`_SPACE_FIGURE`, whole, with one or two decimals after a comma."""


def _si_grouping(text: str) -> str:
    """``text`` (normalised: those spaces are plain) with its space-grouped figures written with
    commas, one character for one (``10 000`` -> ``10,000``, ``1 234 567.5`` ->
    ``1,234,567.5``, and with one or two decimals after a comma ``12 500,5`` -> ``12,500.5``:
    beside spaces grouping thousands a comma is the decimal sign, as SI style and German or
    French typesetting write it), for a text that groups thousands with
    :data:`_TYPOGRAPHIC_GROUPING`. Three digits after the comma (``1 234,567``) stay unread as
    one figure: they may be a further group."""
    out: list[str] | None = None
    for m in _SPACE_GROUPED().finditer(text):
        if out is None:
            out = list(text)
        for k in range(m.start(), m.end()):
            if text[k] == " ":
                out[k] = ","
        if m["dec"] is not None:
            out[m.start("dec")] = "."
    return text if out is None else "".join(out)


_ANGLO = re.compile(r",(?<=\d,)\d{3}(?:(?:,\d{3})+(?!\d)|\.\d)")
"""Figures only the English convention writes: ``1,234,567``, ``1,234.5``. This and the
expressions below start with a literal character (the engine skips ahead to it) and look back
for the digit before it: a leading digit class is tried at every position, several times
slower."""
_CONTINENTAL = lazy(r"\.(?<=\d\.)\d{3}(?:(?:\.\d{3})*,\d|(?:\.\d{3})+(?!\d|[.,]\d))")
"""Figures only the continental convention writes: ``3.676,2``, ``1.234.567``."""
_DECIMAL_COMMA = re.compile(r",(?<=\d,)\d{1,2}(?![\d.,])")
_CONTINENTAL_SCALES = merged("signal_scales")
"""Scale words no English text writes: one is as good as two other words (``2.100 millones``)."""
_CONTINENTAL_WORDS = frozenset((*_CONTINENTAL_SCALES, *merged("signal_words")))
"""Words of German, French, Spanish, Italian, Portuguese and Dutch texts (and their scale
words): with a decimal comma or two of them, a text writes figures the continental way. None
is an English word (``et``, ``al``, ``en``, ``la``, ``con``, ``par``, ``pour``, ``lag``, ``mit``,
``von``, ``per``, ``circa``, ``van``, ``nos``, ``nas``, ``met``, ``op`` are left out: ``Smith et
al.`` is English), and an English-only figure (``1,234,567``, ``1,234.5``) still decides for
English."""
_CONTINENTAL_RUNS = frozenset(w.encode() for w in _CONTINENTAL_WORDS)
_CONTINENTAL_FIGURE = re.compile(
    r"(?<![\w.,])(?:\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d{1,3}(?: \d{3})+(?:,\d+)?(?![ ]?\d)|\d+,\d+)"
    r"(?![\w]|[.,]\d)"
)
_SNAKE_JOIN = re.compile(r"(?<=[^\W\d_])_(?=[^\W_])|(?<=\d)_(?=[^\W\d_])")
"""An underscore joining a word to a word or a figure (``revenue_2024_usd_m``), not two digits
(``1_000``, a figure's grouping in code)."""


def _snake_case_cells(text: str) -> str:
    """``text`` with the underscores that join the words of a table's cell (a column heading in
    snake case, as a data frame names its columns: ``revenue_2024_usd_m``) read as blanks, one
    character for one, on the lines that are a table's rows (a ``|`` or a tab in them): the
    heading names its year and its scale (``2024``, ``usd m``) as ``Revenue 2024 (USD m)``
    does. Running text keeps its identifiers whole (``model_v2_2024`` holds no figure)."""
    lines = text.split("\n")
    changed = False
    for k, line in enumerate(lines):
        if "_" in line and ("|" in line or "\t" in line):
            new = _SNAKE_JOIN.sub(" ", line)
            if new != line:
                lines[k] = new
                changed = True
    return "\n".join(lines) if changed else text


_SPACE3 = re.compile(r" (?<=\d )\d{3}(?!\d)")
"""Thousands grouped by a space (``12 500``, French), read only with the words of such a text
(:func:`_spaced_language`; a space is everywhere)."""
_SPACED_RUNS = frozenset(
    w.encode()
    for language in LANGUAGES
    if (lex := lexicon(language)).spaced_thousands
    for w in lex.signal_words
)
"""The signal words of the languages that group thousands with spaces (the lexicons'
``spaced_thousands``: French)."""


def _spaced_language(text: str) -> bool:
    """Whether ``text`` (normalised) groups thousands with spaces: it holds such a figure
    (:data:`_SPACE3`, looked for first: most texts hold none) and a word of a language that
    writes figures so (:data:`_SPACED_RUNS`)."""
    return _SPACE3.search(text) is not None and not letter_runs(text).isdisjoint(_SPACED_RUNS)


_DOTTED_THOUSANDS = lazy(
    r"(?:^|(?<=\|))[ \t]*\(?[$€£¥]?[ \t]?\(?-?[1-9]\d{0,2}\.\d{3}\)?[ \t]*(?=\||$)", re.M
)
_OTHER_DECIMALS = lazy(r"\d\.(?:\d{1,2}|\d{4,})(?![\d.,])")


def _dotted_thousands(text: str) -> bool:
    """Whether two or more table cells are figures with three digits after a point and no
    figure has another number of decimals (``16.525 | 14.020``): thousands grouped with dots
    (an English table with such decimals also writes others, ``0.125``, ``3.14``; running text
    is no evidence: ``2.625%``)."""
    found = _DOTTED_THOUSANDS().findall(text)
    return len(found) >= 2 and _OTHER_DECIMALS().search(text) is None


_SPACED_THOUSANDS_CELL = lazy(
    r"(?:^|(?<=\|))[ \t]*\(?[$€£¥]?[ \t]?\(?-?[1-9]\d{0,2}(?: \d{3}){1,6}(?:,\d{1,2})?\)?"
    r"[ \t]*(?:[$€£¥][ \t]*)?(?=\||$)",
    re.M,
)


def _spaced_thousands_cells(text: str) -> bool:
    """Whether two or more table cells are each a figure whose thousands are grouped by plain
    spaces (``| 5 428 | 4 756 |``, as French tables write them): a cell holds one figure, so
    these are not two; then the text's figures so grouped are read whole (:func:`_si_grouping`)."""
    found = _SPACED_THOUSANDS_CELL().findall(text)
    return len(found) >= 2


_DOT3 = re.compile(r"\.(?<=\d\.)\d{3}(?!\d|\.\d)")
_DOT3_PERCENT = re.compile(r"\.(?<=\d\.)\d{3}[ \u00a0\u202f]?%")
"""A percentage with three digits after a point (``2.625%``): decimals, whatever else the text
writes."""
_LETTERS_ONLY = bytes(c if 97 <= c <= 122 else 32 for c in range(256))
_LETTERS_OR_BREAK = bytes(c if 97 <= c <= 122 or c == 10 else 32 for c in range(256))


def letter_runs(s: str) -> frozenset[bytes]:
    """Every run of ASCII lower-case letters in ``s``, as bytes (fast: one C-level pass)."""
    return frozenset(s.encode("utf-8", "replace").translate(_LETTERS_ONLY).split())


def key_runs(words: Iterable[str]) -> frozenset[bytes]:
    """The longest run of :func:`letter_runs` of each of ``words`` (the first of equal ones;
    none for a word without one, ``下降``): a text that holds one of the words as a word holds
    its run among its own letter runs, so a text whose runs hold none of these holds none of
    the words (a cheap pre-filter: ``baiss`` for ``baissé``, ``rz`` for ``märz``)."""
    return frozenset(max(runs, key=len) for runs in letter_run_lists(words) if runs)


def letter_run_lists(texts: Iterable[str]) -> list[list[bytes]]:
    """The runs of :func:`letter_runs` of each of ``texts``, in a list each (in text order, a
    run as often as it stands): no set built, for thousands of short texts whose runs are only
    compared (the abstention markers' triggers). One encoding and one translation of all of
    them, joined by line breaks (none holds one but for a rare user marker: then each alone)."""
    items = texts if isinstance(texts, list) else list(texts)
    joined = "\n".join(items)
    if joined.count("\n") != len(items) - 1 or not items:
        table = _LETTERS_ONLY
        return [t.encode("utf-8", "replace").translate(table).split() for t in items]
    lines = joined.encode("utf-8", "replace").translate(_LETTERS_OR_BREAK).split(b"\n")
    return [line.split() for line in lines]


_SCALE_RUNS = frozenset(w.encode() for w in _CONTINENTAL_SCALES)


_CONTINENTAL_LETTERS = "ñäöüßáíóú"
"""Letters of Spanish and German words that English borrows rarely (not ``é``: ``café``)."""


def _word_hits(runs: frozenset[bytes]) -> int:
    """How many words of :data:`_CONTINENTAL_WORDS` the letter runs ``runs`` hold, a scale word
    of theirs (:data:`_SCALE_RUNS`) counted twice."""
    return len(runs & _CONTINENTAL_RUNS) + len(runs & _SCALE_RUNS)


def _continental_words(text: str, comma: bool) -> bool:
    """Whether ``text`` (normalised, lower case) holds two words of :data:`_CONTINENTAL_WORDS`
    (a scale word of :data:`_SCALE_RUNS` counts twice, a letter of :data:`_CONTINENTAL_LETTERS`
    once: ``La compañía cuenta con 15.200 empleados``), or one and a decimal comma
    (``comma``)."""
    runs = letter_runs(text)
    hits = _word_hits(runs)
    if hits == 1 and not comma and not text.isascii():
        hits += any(ch in text for ch in _CONTINENTAL_LETTERS)
    return hits >= 2 or (hits == 1 and comma)


def _continental(text: str) -> str:
    """``text`` with its figures written the continental way (``16.525``, ``3.676,2``,
    ``1.234.567``, ``1,9``, ``12 500``) in the English way, one character for one (``16,525``,
    ``3,676.2``, ``1,234,567``, ``1.9``, ``12,500``), when the text writes them so: it holds a
    figure only that convention writes, a decimal comma and three digits after a point
    (``67.314 ... = 1,05 %``), figures grouped by dots only
    (:func:`_dotted_thousands`), or German, French or Spanish words (two, or one and a decimal
    comma or, in a text of a language that groups thousands with spaces, such a figure:
    :func:`_spaced_language`), and no figure only the English convention writes. Dates (``07.03.2024``), versions
    (``2.3.1``) and addresses (``192.168.1.1``) are not figures of this form."""
    # cheapest first: most texts hold neither a decimal comma nor three digits after a point
    comma = _DECIMAL_COMMA.search(text) is not None
    spaced = False
    if not comma and _DOT3.search(text) is None:
        if not _spaced_language(text):
            return text
        spaced = True
    if _ANGLO.search(text) is not None:
        return text
    if (
        _CONTINENTAL().search(text) is None
        # a decimal comma beside three digits after a point: no English text writes both
        # (but a percentage so written is one with decimals: "rose 2.625% to 3,5")
        and not (comma and _DOT3.search(text) is not None and _DOT3_PERCENT.search(text) is None)
        and not ("|" in text and _dotted_thousands(text))
        # a figure grouped by spaces counts as a decimal comma does, and such a text holds a
        # word of its language already (``L'entreprise emploie 3 200 salariés``)
        and not _continental_words(text, comma or spaced)
    ):
        return text
    return _swap_figures(text)


_GROUPED_COMMA = re.compile(r"\d{1,3},\d{3}")


def _swap_figures(text: str, grouped_commas: bool = True) -> str:
    """``text`` with every figure of :data:`_CONTINENTAL_FIGURE` written the English way, one
    character for one (``text`` itself when there is none); without ``grouped_commas``, not a
    figure whose comma has three digits after it (``1,400`` reads as English)."""
    out: list[str] | None = None
    for m in _CONTINENTAL_FIGURE.finditer(text):
        figure = m.group()
        if figure.count(".") == 3 and all(int(g) <= 255 for g in figure.split(".")):
            continue  # an address
        if not grouped_commas and _GROUPED_COMMA.fullmatch(figure) is not None:
            continue
        if out is None:
            out = list(text)
        for k, ch in enumerate(figure, m.start()):
            if ch in ". ":
                out[k] = ","
            elif ch == ",":
                out[k] = "."
    return text if out is None else "".join(out)


_COMMA_NOT_GROUP = re.compile(r",(?<=\d,)(?!\d{3}(?!\d))\d")
"""A comma between digits that is no group of thousands (``1,5``, ``3,1416``)."""


def continental_words(text: str) -> bool:
    """Whether ``text`` (normalised, lower case) holds a word of German, French, Spanish,
    Italian, Portuguese or Dutch (:func:`_word_hits`): enough to read a scale word the English
    way reads otherwise (``30 mil empleados``, ``A receita foi de R$ 612 mil``); a figure's
    convention takes two (:func:`_continental_words`)."""
    return _word_hits(letter_runs(text)) >= 1


def english_only(text: str) -> bool:
    """Whether ``text`` (normalised) writes a figure only the English convention writes
    (``1,234,567``, ``1,234.5``)."""
    return _ANGLO.search(text) is not None


def continental_reading(text: str) -> str | None:
    """``text`` with its figures read the continental way (``12.500 Euro`` -> ``12,500 Euro``)
    whatever else it says, except a comma before three digits (``1,400`` stays English), or
    ``None`` when that changes nothing or a figure is written the English way only
    (``1,234,567``). For a short text without the signals of
    :func:`_continental` (an anchor), whose reading may follow the answer's, or an answer's
    that may follow the context's."""
    if (
        _DOT3.search(text) is None
        and _SPACE3.search(text) is None
        and _COMMA_NOT_GROUP.search(text) is None
    ):
        return None  # no figure the continental way could write (cheap tests first)
    if _ANGLO.search(text) is not None:
        return None
    out = _swap_figures(text, grouped_commas=False)
    return None if out is text else out


def _tables(text: str) -> NormalizedText:
    """:func:`normalize` before tables laid out with spaces and continental figures are read."""
    if "<" in text and _HTML_TABLE().search(text) is not None:
        norm = _normalize(text)
        cells, moved = _html_cells(norm.text)
        if "," in text or ";" in text:
            cells = _csv_cells(cells)
        return NormalizedText(cells, text, _shifted(norm, moved) if moved else norm.segments)
    if "," in text or ";" in text:
        if text.isascii():
            return NormalizedText(_csv_cells(text.lower()), text, ())
        norm = _normalize(text)
        return NormalizedText(_csv_cells_folded(norm, text), text, norm.segments)
    return _normalize(text)


_FOLDED_QUOTES = re.compile(
    "[" + "".join(chr(k) for k, v in TYPOGRAPHY.items() if v == '"') + "\uff02]"
)
"""The characters the fold writes ``"`` (the typographic quotes; NFKC's full-width one)."""


def _csv_cells_folded(norm: NormalizedText, text: str) -> str:
    """:func:`_csv_cells` of a normalised text whose curly quotes were folded to ``"``: a curly
    quote in the original is no CSV quote (a CSV writer quotes a cell with straight ones,
    ``"Huawei Technologies Co., Ltd. (“Huawei”)"``), so the cells are read with them masked and
    put back after (one character for one)."""
    s = norm.text
    if norm.segments or '"' not in s or _FOLDED_QUOTES.search(text) is None:
        return _csv_cells(s)
    folded = [m.start() for m in _FOLDED_QUOTES.finditer(text)]
    masked = list(s)
    for k in folded:
        if masked[k] == '"':
            masked[k] = "'"
    cells = list(_csv_cells("".join(masked)))
    for k in folded:
        cells[k] = s[k]
    return "".join(cells)


_GAP = re.compile(r" {2,}")
_FIGURE_CELL = lazy(
    r"""(?x)[-+(]?[ ]?(?:[$€£¥₹]|[a-z]{1,3}\$)?[ ]?\(?[ ]?\d[\d,.]*[ ]?\)?[ ]?
    (?:%|[a-z$€£¥]{1,3}|\([a-z$€£¥%]{1,3}\))?\)?
    |-{1,3}|n/?a|nm""",
)
"""A cell of a laid-out table that holds a figure (``1,234``, ``(567)``, ``$ 12.5``, ``12%``,
``2019 €m``) or stands for one (a dash, ``n/a``, ``nm``)."""
LAYOUT_WINDOW = 3
"""A line laid out as a table row is read as one when another such line is at most this many
lines away (a table has two rows or more; a lone line with wide spaces is text)."""


def _layout_row(line: str) -> tuple[list[int], bool] | None:
    """Where the gaps between the columns of ``line`` start, when it is laid out as a table row
    (a label, then cells two or more spaces apart, none of them running text), and whether
    most of those cells are figures; else ``None``. A row whose label is empty (a header of
    years under a caption) starts with a gap of its own."""
    end = len(line.rstrip(" "))
    lead = len(line) - len(line.lstrip(" "))
    if end == 0 or "|" in line or "\t" in line:
        return None
    seps = [lead - 1] if lead >= 2 else []
    seps.extend(m.start() for m in _GAP.finditer(line, lead, end))
    if not seps:
        return None
    figures = 0
    for k, sep in enumerate(seps):
        stop = seps[k + 1] if k + 1 < len(seps) else end
        cell = line[sep:stop].strip(" ")
        if _FIGURE_CELL().fullmatch(cell) is not None:
            figures += 1
        elif len(cell) > 40:  # running text, not a cell
            return None
    return seps, 2 * figures >= len(seps) and figures > 0


_CELL_TOKEN = lazy(r"\(?[$€£¥₹]?\(?-?\d(?:[\d,]*\d)?(?:\.\d+)?\)?%?|-{1,3}")
"""A figure written without spaces, as a cell of a row whose cells stand one space apart
(``1,234``, ``(567)``, ``$4,236``, ``($5,053)``, ``12%``) or a dash for an empty one."""
_SIGN_TOKENS = frozenset("$€£¥₹")
"""A currency sign an extractor writes apart from its figure (``$ 4,236``)."""
_NOT_A_ROW = lazy(r"[|\t=≈^]")
"""What a line of cells one space apart does not hold: a cell separator (it is a row of
another layout) or the signs of working (``CAGR ≈ 1.00447 - 1``)."""
_ROW_ENDS = frozenset("0123456789)%-")
_LAST_OF_ROW = _ROW_ENDS | {" "}
"""The last characters of a row whose cells stand one space apart (a figure, a bracket, a
percent sign, a dash)."""


def _spaced_row(line: str) -> list[int] | None:
    """Where the cells of ``line`` start (the space before each) when it is a row whose cells
    stand one space apart, as pdfplumber and pdfminer extract a statement (``Income taxes
    payable 75 54``, ``Trade payables $ 379 $ 312``, ``Digital Media $ 12,385 $ 11,048 12 %``):
    two cells or more at the end of the line (:data:`_CELL_TOKEN`, a currency sign apart from
    its figure and a percent sign apart after it belong to it), a label with a letter before
    them; else ``None``. ``line`` ends with no blank (:func:`_spaced_rows` strips it)."""
    tokens = line.split(" ")
    k = len(tokens) - 1
    starts: list[int] = []
    while k > 0:
        if tokens[k] == "%" and k > 1:
            k -= 1  # "12 %": the percent sign of the figure before it
        if _CELL_TOKEN().fullmatch(tokens[k]) is None:
            break
        if k > 1 and tokens[k - 1] in _SIGN_TOKENS:
            k -= 1
        starts.append(k)
        k -= 1
    if (
        len(starts) < 2
        or tokens[k].endswith(",")  # a date or a list in running text: "August 31, 2018 (1)"
        or not any(c.isalpha() for t in tokens[: k + 1] for c in t)
    ):
        return None
    seps: list[int] = []
    pos = 0
    first = set(starts)
    for j, token in enumerate(tokens):
        if j in first:
            seps.append(pos - 1)
        pos += len(token) + 1
    return seps


def _spaced_rows(lines: list[str]) -> dict[int, list[int]]:
    """:func:`_spaced_row` of the lines that may be such rows, by line number: a line that ends
    as a row does (after blanks) and holds a space and no cell separator (the first test is on
    the last character alone)."""
    out: dict[int, list[int]] = {}
    for k, line in enumerate(lines):
        if not line or line[-1] not in _LAST_OF_ROW or " " not in line:
            continue
        line = line.rstrip(" ")
        if not line or line[-1] not in _ROW_ENDS or _NOT_A_ROW().search(line) is not None:
            continue
        seps = _spaced_row(line)
        if seps is not None:
            out[k] = seps
    return out


def spaced_cells(text: str) -> str:
    """``text`` (normalised) with the cells of its rows one space apart (:func:`_spaced_row`:
    ``income taxes payable 75 54``, as pdfplumber and pdfminer extract a statement, and pypdf
    a row its other rows space wider) separated by ``|``, the cell separator the checks read,
    one character for one: ``income taxes payable|75|54``. A row counts when another row, of
    this kind or with cells already separated, is at most :data:`LAYOUT_WINDOW` lines away (a
    lone line ending with two figures is text). For a context's passage that is not laid out a
    cell per line (``_layout.read_layout``): an answer's working is no table."""
    lines = text.split("\n")
    found = _spaced_rows(lines)
    if not found:
        return text
    near = sorted({*found, *(k for k, line in enumerate(lines) if "|" in line or "\t" in line)})
    out = list(text)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    for k in _with_neighbour(near):
        for sep in found.get(k, ()):
            out[starts[k] + sep] = "|"
    return "".join(out)


def _with_neighbour(rows: list[int]) -> list[int]:
    """The line numbers of ``rows`` (sorted) with another of them at most
    :data:`LAYOUT_WINDOW` lines away: a table has two rows or more, a lone line is text."""
    return [
        k
        for i, k in enumerate(rows)
        if (i > 0 and k - rows[i - 1] <= LAYOUT_WINDOW)
        or (i + 1 < len(rows) and rows[i + 1] - k <= LAYOUT_WINDOW)
    ]


def _layout_cells(text: str) -> str:
    """``text`` with the gaps between the columns of a table laid out with spaces (as
    ``pdftotext -layout`` and fixed-width reports write them) starting with ``|``, the cell
    separator the checks read, one character for one: ``Revenue     16,525     14,020`` reads
    as ``Revenue|    16,525|    14,020``. A table is two or more lines laid out as rows whose
    cells are mostly figures, at most :data:`LAYOUT_WINDOW` lines apart, with the lines laid
    out in columns just above them (its header: ``Total    2020    2021-2022``, dates)."""
    lines = text.split("\n")
    rows = [_layout_row(line) if "  " in line else None for line in lines]
    body = [k for k, r in enumerate(rows) if r is not None and r[1]]
    if len(body) < 2:
        return text
    chosen: set[int] = set()
    for k in _with_neighbour(body):
        chosen.add(k)
        # its header: the lines laid out in columns right above the table's first row
        j = k - 1
        while j >= 0 and j not in chosen and rows[j] is not None and k - j <= LAYOUT_WINDOW:
            chosen.add(j)
            j -= 1
    if not chosen:
        return text
    out = list(text)
    start = 0
    for k, line in enumerate(lines):
        row = rows[k]
        if k in chosen and row is not None:
            for sep in row[0]:
                out[start + sep] = "|"
        start += len(line) + 1
    return "".join(out)


def _normalize(text: str) -> NormalizedText:
    if text.isascii():
        return NormalizedText(text.lower(), text, ())
    # Common typographic characters (curly quotes, dashes, no-break spaces) fold one to one;
    # a text that is ASCII afterwards keeps the identity offset map.
    if _BEYOND_PRE.search(text) is None:
        pre = text
        for ch, rep in _PRE.items():
            if ch in pre:
                pre = pre.replace(ch, rep)
        return NormalizedText(pre.lower(), text, ())
    parts: list[str] = []
    segments: list[tuple[int, int, int]] = []
    npos = 0
    for run in _RUNS_RE.finditer(text):
        chunk = run.group()
        ostart = run.start()
        if chunk[0] < "\x80":
            parts.append(chunk.lower())
            segments.append((npos, ostart, len(chunk)))
            npos += len(chunk)
            continue
        if _VULGAR_RE.search(chunk) is None:
            folded = fold(chunk, TYPOGRAPHY)
            if len(folded) == len(chunk):
                parts.append(folded)
                segments.append((npos, ostart, len(chunk)))
                npos += len(chunk)
                continue
        npos = _fold_slow(chunk, ostart, npos, parts, segments)
    return NormalizedText("".join(parts), text, tuple(segments))


def _fold_slow(
    chunk: str,
    ostart: int,
    npos: int,
    parts: list[str],
    segments: list[tuple[int, int, int]],
) -> int:
    """Normalise a non-ASCII run one cluster at a time, recording one segment per cluster."""
    i = 0
    n = len(chunk)
    while i < n:
        j = i + 1
        while j < n and unicodedata.combining(chunk[j]):
            j += 1
        folded = _fold_cluster(chunk[i:j])
        parts.append(folded)
        segments.append((npos, ostart + i, j - i))
        npos += len(folded)
        i = j
    return npos


_ALREADY_PLAIN = re.compile(r"[a-z']+(?: [a-z']+)*")
"""Lower-case ASCII words and single spaces: a text :func:`normalize` returns as it is (no
capital, digit, table, layout gap or character to fold), as most abstention markers are."""


def normalize_plain(text: str) -> str:
    """The normalised form of ``text`` without the offset map (for anchors and markers)."""
    if _ALREADY_PLAIN.fullmatch(text) is not None:
        return text
    return normalize(text).text
