"""The layout of a context passage, read before its figures, and the scale statements it holds.

A retriever over PDFs hands a model a statement as the extractor returns it: a cell per line,
the currency sign on a line of its own before its figure, blank-looking lines (a space) between
cells, the scale stated once at the top (``(MILLIONS, EXCEPT PER COMMON SHARE DATA)``)::

    Revenues
    $
    81,288
    $
    41,651

:func:`read_layout` recognises such text and rewrites it, one character for one (offsets do not
move), into the table rows the checks read for pipe, Markdown and HTML tables: each label line
with the cells below it on one line, cells apart by a tab, a lone currency sign joined to the
figure after it (``revenues\\t$ 81,288\\t$ 41,651``), a blank-looking line merged into the line
before it (it is an empty cell, not the end of a block: a statement's scale then governs the
figures below it on the page). An extractor that writes every cell on a line of its own, the
empty ones too, makes a grid: its rows are then counted out line by line, so that a scale stated
in one column's heading (``(Shares in thousands)``) stays that column's, and a figure after an
empty cell stays in its column.

The words and phrasings are data (``data/layout.json``), one table for the package: the scale
words with their multipliers (:data:`SCALE_WORDS`), the statement headings written without
``in`` (:func:`scale_headings`), the currency signs a line may hold alone.
"""

from __future__ import annotations

import functools
import json
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from hybridjudge.grounding._lexicon import currency_of, lexicon, merged, scales
from hybridjudge.grounding._normalize import NormalizedText, spaced_cells
from hybridjudge.grounding._patterns import compiled, lazy

__all__ = [
    "CURRENCY_SIGNS",
    "SCALE_WORDS",
    "heading_word",
    "is_cell_per_line",
    "read_layout",
    "scale_headings",
]

_DATA: dict[str, Any] = json.loads(
    (Path(__file__).parent / "data" / "layout.json").read_text(encoding="utf-8")
)

SCALE_WORDS: dict[str, int] = {w: scales()[w] for w in lexicon("en").statement_scales}
"""Every scale word or abbreviation a scale statement may use, with its multiplier
(``millions``: 10**6, ``'000s``: 10**3, ``bn``: 10**9), lower case."""
CURRENCY_SIGNS: frozenset[str] = frozenset(s for s in currency_of(("signs",)) if len(s) == 1)
"""The signs of one character (``$``, ``€``), which a figure's line may hold before it."""
_SIGN_LINES: frozenset[str] = frozenset(currency_of(("signs",)))
"""The signs a PDF extractor may put on a line of their own before a figure: those of one
character and those written with letters (``US$``, ``HK$``, ``RM``, ``Rs.``; a currency code,
``USD``, may be a row's label, ``USD | 53.6``, and is none of them)."""
_HEADINGS: tuple[str, ...] = tuple(_DATA["scale_headings"])

_PLURALS = "|".join(sorted((w for w in SCALE_WORDS if w.isalpha() and len(w) > 3), key=len))


@functools.cache
def scale_headings() -> re.Pattern[str]:
    """The statement headings of ``data/layout.json`` (``({scale})``, ``({scale},``, ...) as one
    expression on normalised (lower-case) text; the scale word is the group named ``word``
    of the first alternative that matched (``word0``, ``word1``, ...). Built once: writing its
    source took 5 us a call, on most pages of a statement."""
    parts = []
    for k, form in enumerate(_HEADINGS):
        before, _, after = form.partition("{scale}")
        parts.append(f"{re.escape(before)}(?P<word{k}>{_PLURALS})(?={re.escape(after)})")
    return compiled("|".join(parts))


def heading_word(m: re.Match[str]) -> str:
    """The scale word of a :func:`scale_headings` match."""
    return next(w for w in m.groups() if w is not None)


_OPENERS = re.escape("-(" + "".join(merged("negative_signs")))
"""What may open a figure: a minus, a bracket, a sign of the lexicons' ``negative_signs``."""
_FIGURE_LINE = lazy(
    r"[ \t]*(?:["
    + _OPENERS
    + r"]?[ \t]*["
    + re.escape("".join(sorted(CURRENCY_SIGNS)))
    + r"]?[ \t]*["
    + _OPENERS
    + r"]?[ \t]*"
    r"\d[\d,]*(?:\.\d+)?[ \t]*%?[ \t]*\)?[ \t]*%?"
    r"|[" + re.escape("".join(sorted(CURRENCY_SIGNS))) + r"]?[ \t]*[-\u2013\u2014]+"
    r"|(?:fy\s?)?(?:19|20)\d\d\s?[/-]\s?(?:19|20)?\d\d)[ \t]*"
    r"(?:[" + re.escape("".join(sorted(CURRENCY_SIGNS))) + r"][ \t]*)?"
)
"""A line holding only a figure (``81,288``, ``(8,107)``, ``$ 4.00``, ``12.5%``, ``△1,234``), with a currency
sign of :data:`CURRENCY_SIGNS`, a dash (an empty cell) or a fiscal year (``2018/2019``,
``FY 2018-19``: a column's heading); the currency sign of the next cell may
end it (``183,910 $``: the extractor put the next cell's ``$`` on this line)."""

MIN_FIGURE_LINES = 3
"""A text with fewer lines of a figure alone is no table laid out a cell per line."""
MIN_FIGURE_SHARE = 0.25
"""The share of its non-blank lines that a text laid out a cell per line has as figure lines
(a figure alone or a currency sign alone): prose with a short list of figures has fewer."""

_W, _C, _F, _T, _D = range(5)
"""Kinds of line: blank-looking, a currency sign alone, a figure alone, text, a date alone (a
column's heading: ``December 28, 2018``)."""
_DATE_LINE = lazy(
    r"[ \t]*[a-z]{3,9}\.?[ \t]+\d{1,2},?[ \t]+(?:19|20)\d\d[ \t]*"
    r"|[ \t]*\d{1,2}[ \t]+[a-z]{3,9}\.?,?[ \t]+(?:19|20)\d\d[ \t]*"
)


def _kinds(lines: list[str]) -> list[int]:
    figure = _FIGURE_LINE()
    out = []
    for line in lines:
        stripped = line.strip()
        if not stripped:
            out.append(_W)
        elif stripped in _SIGN_LINES:
            out.append(_C)
        elif stripped[0].isalpha() or figure.fullmatch(line) is None:
            out.append(_D if _DATE_LINE().fullmatch(line) else _T)
        else:
            out.append(_F)
    return out


def _laid_out(s: str) -> tuple[list[str], list[int]] | None:
    """The lines of ``s`` and their kinds when ``s`` is laid out a cell per line, else ``None``."""
    if s.count("\n") < MIN_FIGURE_LINES:
        return None
    lines = s.split("\n")
    if ("|" in s or "\t" in s) and 2 * sum(1 for x in lines if "|" in x or "\t" in x) >= len(lines):
        return None  # most lines are rows of cells already (before any line is read)
    kinds = _kinds(lines)
    figures = kinds.count(_F)
    cells = figures + kinds.count(_C)
    filled = len(kinds) - kinds.count(_W)
    if figures < MIN_FIGURE_LINES or cells < MIN_FIGURE_SHARE * filled:
        return None
    if ("|" in s or "\t" in s) and sum(1 for x in lines if "|" in x or "\t" in x) >= figures:
        return None  # a table in rows (a line with a comma read as CSV cells is no such table)
    return lines, kinds


def is_cell_per_line(s: str) -> bool:
    """Whether normalised text ``s`` is laid out a cell per line, as a PDF extractor returns a
    table: at least :data:`MIN_FIGURE_LINES` lines of a figure alone, and figure or currency
    lines at least :data:`MIN_FIGURE_SHARE` of its non-blank lines; not a table in rows (fewer
    lines with ``|`` or a tab than lines of a figure alone: a line with commas may have been read
    as CSV cells)."""
    return _laid_out(s) is not None


def _rows(kinds: list[int]) -> Iterator[tuple[int, int, int]]:
    """Each row of the text in order: its label line (a text or date line; ``-1`` for the
    cells before the first), the line after it ends and its cells (a currency sign and its
    figure are one cell)."""
    label, cells, prev = -1, 0, _T
    for k, kind in enumerate(kinds):
        if kind == _T or kind == _D:  # noqa: SIM109 (the hot loop: two compares beat a tuple)
            yield label, k, cells
            label, cells = k, 0
        elif kind == _C or (kind == _F and prev != _C):
            cells += 1
        if kind != _W:
            prev = kind
    yield label, len(kinds), cells


def _row_width(kinds: list[int]) -> int:
    """The number of cells most rows have (a currency sign and its figure are one cell): the
    table's width. Rows of more are split (a total row without a label follows the last row)."""
    counts = Counter(cells for _label, _end, cells in _rows(kinds) if cells)
    if not counts:
        return 1 << 30
    return max(counts, key=lambda n: (counts[n], n))


_PAGE_NUMBER = lazy(r"[ \t]*\d{1,3}[ \t]*")
"""A bare page number (``57``): at the foot of a page after a full row or a sentence, no cell."""


def _page_number(lines: list[str], kinds: list[int], width: int) -> int:
    """The index of the page number at the foot of the page, or ``-1``: the last non-blank line,
    a bare figure of one to three digits, after a row that has the cells most rows have or a
    sentence (``See accompanying notes to consolidated financial statements.``): the extractor
    kept the page's footer (``$ 64,403`` then ``9`` would give the last row a cell too many)."""
    last = next((k for k in range(len(kinds) - 1, -1, -1) if kinds[k] != _W), -1)
    if last <= 0 or kinds[last] != _F or _PAGE_NUMBER().fullmatch(lines[last]) is None:
        return -1
    cells = 0
    for k in range(last - 1, -1, -1):
        if kinds[k] in (_T, _D):
            full = cells >= width or lines[k].rstrip().endswith(".")
            return last if full else -1
        if kinds[k] == _F or (kinds[k] == _C and (k + 1 >= len(kinds) or kinds[k + 1] != _F)):
            cells += 1
    return -1


_YEAR_LINE = lazy(r"[ \t]*(?:fy\s?)?(?:19|20)\d\d(?:\s?[/-]\s?(?:19|20)?\d\d)?[ \t]*")
MAX_HEADING = 40
"""A text line longer than this after a header row of years is no column heading."""


def _cell_kinds(kinds: list[int]) -> bytes:
    """The kind of each cell of ``kinds`` (a currency sign and its figure are one cell, of the
    sign's kind), as bytes: counted and sliced in C."""
    return bytes(kinds).replace(bytes((_C, _F)), bytes((_C,)))


def _grid_rows(
    kinds: list[int], width: int, min_rows: int = 1, cells: bytes | None = None
) -> dict[int, str]:
    """The lines of the rows of a grid, each with the character to put before it (a tab, a
    space after a currency sign alone, the first line's line break as it was): an
    extractor that writes every cell of a table on a line of its own, the empty ones as
    blank-looking lines, so that rows can be told apart by counting lines: header rows
    (``Period``, ``Shares purchased``, ``Average price``; `` ``, ``(Shares in thousands)``, `` ``,
    ``(Dollars in millions)``) and rows with empty cells (``Total``, `` ``, ``$ 492``: the figure
    is the third column's, not the second's).

    The text is a grid when its cells (a currency sign and its figure are one) number a whole
    multiple of the table's columns (``width`` cells and the label), every row of ``width``
    figures starts at such a multiple and holds no blank-looking line, and no multiple falls on
    a figure. Its rows other than those of ``width`` figures are then counted out, when one of
    their cells is not blank (a label with empty cells, ``Costs:``, stays a line that the
    blank-looking lines join). Anything else (a cell over two lines, empty cells left out) is no
    grid: its lines are read one by one, as before; a page's title above the grid and its
    footer below are found by :func:`_grid_within`."""
    size = width + 1
    if cells is None:  # (the caller's :func:`_cell_kinds` of ``kinds``, when it has them)
        cells = _cell_kinds(kinds)
    starts = cells[::size]  # each row's first cell: no figure
    if len(cells) % size or _C in starts or _F in starts:
        return {}
    units = [k for k, kind in enumerate(kinds) if not (kind == _F and k and kinds[k - 1] == _C)]
    rows = [
        (label, max(k for k in range(label, end) if kinds[k] in (_F, _C)))
        for label, end, cells in _rows(kinds)
        if label >= 0 and cells == width
    ]
    at = {k: i for i, k in enumerate(units)}
    if len(rows) < min_rows or any(
        at[label] % size or _W in kinds[label:last] for label, last in rows
    ):
        return {}
    full = {at[label] for label, _ in rows}
    out: dict[int, str] = {}
    for i in range(0, len(units), size):
        if i not in full and any(kinds[k] != _W for k in units[i + 1 : i + size]):
            last = units[i + size] if i + size < len(units) else len(kinds)
            out.update((k, "\t") for k in range(units[i] + 1, last))
            out.update((k + 1, " ") for k in units[i + 1 : i + size] if kinds[k] == _C)
            out[units[i]] = "\n"  # the row's first line: where it was
    return out


def _grid_within(kinds: list[int], width: int, page: int) -> dict[int, str]:
    """:func:`_grid_rows` of the lines of a grid that a page's title lines precede or its
    footer follows (``Table 3`` and a blank line above, ``See accompanying notes.`` and a page
    number below): fewer lines than a row before its first figure and after its last, none of
    them a figure (but the page number, ``page``). Counting lines out is then evidence of a
    grid only where the extractor wrote an empty cell (a blank-looking line among the rows:
    without one, a title of a row's length would count out as a header row) and at least two
    rows have every cell filled (one such row may be a block of figures that an extractor
    wrote below a block of labels, pdfminer's text boxes: no table to count out)."""
    if _W not in kinds:
        return {}
    size = width + 1
    b = bytes(kinds)
    cells = _cell_kinds(kinds)
    n = len(cells)
    # the lines before the first figure or currency sign: each a cell (found in C)
    lead = min((i for i in (b.find(bytes((_F,))), b.find(bytes((_C,)))) if i >= 0), default=n)
    trail, k = 0, len(kinds) - 1  # the lines after the last (the page number apart)
    while (
        trail < width and k > 0 and (kinds[k] not in (_F, _C) or (k == page and kinds[k - 1] != _C))
    ):
        trail, k = trail + 1, k - 1
    for head in range(min(size, lead + 1)):
        tail = (n - head) % size  # the one footer's length that leaves whole rows
        stop = len(kinds) - tail
        if (
            tail > trail
            or not (head or tail)
            or n - head - tail < 2 * size
            or _W not in b[head:stop]
        ):
            continue
        grid = _grid_rows(kinds[head:stop], width, 2, cells[head : n - tail])
        if grid:
            return {line + head: ch for line, ch in grid.items()}
    return {}


def _content_end(lines: list[str]) -> int:
    """The number of ``lines`` before the empty ones that end the text: the line after its
    last line break, a page's form feed (``\\x0c``, as pdfminer ends a page); no cell of the
    table (a line holding a space is an empty cell)."""
    end = len(lines)
    while end and not lines[end - 1].strip("\x0c\r"):
        end -= 1
    return end


def read_layout(norm: NormalizedText) -> NormalizedText:
    """``norm`` with a table laid out a cell per line (:func:`is_cell_per_line`) rewritten into
    rows, one character for one; in any other text, the rows whose cells stand one space apart
    separated (``_normalize.spaced_cells``).

    The line break before a figure or a currency sign alone becomes a tab (a new cell of the
    row its label line starts), a space after a currency sign alone (``$`` joins its figure).
    The line break before a blank-looking line becomes a space (no block ends there), unless
    the row is full (it has the cells most rows have) and figures follow: the line is then the
    empty label of a row of its own (a total).
    A short text line after a header row of years, with no figure of its own, is a column's
    heading (``Change (%)``): a cell of the header row; so is a date alone on its line after a
    label or another heading (``December 28, 2018``)."""
    s = norm.text
    laid_out = _laid_out(s)
    if laid_out is None:
        if "\n" not in s:
            return norm
        rows = spaced_cells(s)  # rows whose cells stand one space apart
        return (
            norm
            if rows == s
            else NormalizedText(rows, norm.original, norm.segments, norm.continental)
        )
    lines, kinds = laid_out
    width = _row_width(kinds)
    page = _page_number(lines, kinds, width)
    following = [_T] * len(kinds)  # the kind of the next line that is not blank-looking
    after = _T
    for k in range(len(kinds) - 1, -1, -1):
        following[k] = after
        if kinds[k] != _W:
            after = kinds[k]
    out = list(s)
    pos = -1  # the line break before line k
    prev = _T
    cells = 0
    years = False  # the row's cells are all years (a header row)
    end = _content_end(lines)
    grid = _grid_rows(kinds[:end], width) or _grid_within(kinds[:end], width, page)
    for k, line in enumerate(lines):
        kind = kinds[k]
        if grid and k in grid:
            if k:
                out[pos] = grid[k]  # the next cell of a row of the grid
            cells, years = 0, False
        elif k == 0 or k == page:
            cells, years = 0, False  # a page number stays a line of its own
        elif kind == _W:
            if cells >= width and following[k] in (_F, _C):
                cells, years = 0, False  # the empty label of a row of its own
                prev = _T
            else:
                out[pos] = " "
        elif kind in (_F, _C):
            if prev == _C:
                out[pos] = " "
            else:
                out[pos] = "\t"
                cells += 1
                years = (cells == 1 or years) and _YEAR_LINE().fullmatch(line) is not None
        elif kind == _D and (years or cells == 0):
            out[pos] = "\t"  # dates heading the columns, in a row of their own
            cells += 1
            years = True
        elif years and following[k] == _T and len(line.strip()) <= MAX_HEADING:
            out[pos] = "\t"  # a column's heading after the header row's years
            cells += 1
        else:
            cells, years = 0, False
        if kind != _W:
            prev = kind
        pos += len(line) + 1
    return NormalizedText("".join(out), norm.original, norm.segments, norm.continental)
