"""Clean text for every sink: the terminal, Markdown files and CSV cells (issue 37, item 4).

Case files, corpora and model replies are other people's text: an id, an answer, a model or
folder name may carry what the place it is written to would *execute*. Each sink has one rule,
written here once:

- **terminal** (:func:`escape_controls`, :class:`TerminalGuard`): C0 control characters (but
  newline and tab), DEL, the C1 range U+0080-U+009F and the bidirectional overrides and isolates
  (U+202A-U+202E, U+2066-U+2069) are shown as visible escapes (``\\x1b``, ``\\u007f``,
  ``\\u202e``: the last two forms are also valid inside a JSON string), so an
  escape sequence (window title, clear screen, hyperlink: OSC 0, ``ESC[2J``, OSC 8) is printed,
  never obeyed, and text cannot be reordered on screen. A one-line field (an id) also shows
  newline, carriage return and tab escaped (``\\n``), so line-per-item output stays one line per
  item. :func:`hybridjudge.cli.main` wraps ``sys.stdout`` and ``sys.stderr`` in a
  :class:`TerminalGuard` for the whole command: everything any command prints passes this rule.
  On a terminal the guard lets through the few sequences ``rich`` writes for colour and its
  progress display (SGR ``ESC[...m``, cursor show/hide, erase line, cursor up, carriage return);
  every other sequence is escaped, and the id cells of the tables are escaped field by field
  before rich sees them.
- **Markdown** (:func:`markdown_text`, :func:`markdown_cell`, :func:`markdown_code`): ``&``,
  ``<`` and ``>`` become entities, so a ``<script>`` in a model or folder name is shown as text
  by every renderer; in a table cell ``|`` and the backtick are escaped too, and a newline
  becomes a space; a path shown as code stays a code span only when it has no backtick to end
  it early (inside a code span HTML is never interpreted).
- **CSV** (:func:`csv_cell`): a cell beginning with ``=``, ``+``, ``-``, ``@``, a tab or a
  carriage return is a formula to a spreadsheet (``=HYPERLINK(...)``, ``@SUM(...)``): it is
  prefixed with a single quote, as the OWASP guidance on CSV injection advises, unless it is a
  plain number (``-3.5`` stays a number). ``raw=True`` (``--csv-raw-formulas``) keeps every cell
  as it came.
"""

from __future__ import annotations

import re
from typing import Any, TextIO

__all__ = [
    "FORMULA_START",
    "TerminalGuard",
    "csv_cell",
    "escape_controls",
    "markdown_cell",
    "markdown_code",
    "markdown_text",
]

_CONTROL = "\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069"
_MULTI_LINE = re.compile(f"[{_CONTROL}]")
"""What a terminal would obey or reorder; newline and tab are text."""
_ONE_LINE = re.compile(f"[\t\n{_CONTROL}]")
"""Also newline and tab: a one-line field stays on its line."""
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}

_RICH_SEQUENCES = re.compile(r"\x1b\[(?:[0-9;]*m|\?25[hl]|2K|[0-9]*A)|\r(?!\n)")
"""The sequences rich writes to a terminal: SGR colours, cursor hide/show, erase line, cursor up,
and the carriage return of its live display. Nothing that sets a title, a link or clears."""


def _visible(match: re.Match[str]) -> str:
    char = match.group()
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    # C0 as \x1b; DEL, C1 and the bidi controls as \u007f, \u202e: also a valid escape
    # inside a JSON string, where only they can appear raw (json.dumps escapes C0 itself)
    return f"\\x{code:02x}" if code < 0x20 else f"\\u{code:04x}"


def escape_controls(text: str, *, one_line: bool = False) -> str:
    """``text`` with every character a terminal would obey shown as a visible escape.

    >>> escape_controls("id\\x1b]0;title\\x07")
    'id\\\\x1b]0;title\\\\x07'
    >>> escape_controls("two\\nlines", one_line=True)
    'two\\\\nlines'
    """
    pattern = _ONE_LINE if one_line else _MULTI_LINE
    return pattern.sub(_visible, text) if pattern.search(text) else text


def _escape_but_rich(text: str) -> str:
    """:func:`escape_controls`, letting through :data:`_RICH_SEQUENCES`."""
    out: list[str] = []
    start = 0
    for match in _RICH_SEQUENCES.finditer(text):
        out.append(escape_controls(text[start : match.start()]))
        out.append(match.group())
        start = match.end()
    out.append(escape_controls(text[start:]))
    return "".join(out)


class TerminalGuard:
    """A text stream that writes through to ``stream`` with :func:`escape_controls` applied:
    what reaches a terminal (or a log) is never an escape sequence from user text.

    When ``stream`` is a terminal, rich's own colour and progress sequences pass
    (:data:`_RICH_SEQUENCES`). Every other attribute is the wrapped stream's.
    """

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        """The wrapped stream."""
        try:
            self._terminal = bool(stream.isatty())
        except (AttributeError, ValueError, OSError):
            self._terminal = False

    def write(self, text: str) -> int:
        """Write ``text`` escaped; returns ``len(text)`` (what the caller handed over)."""
        if isinstance(text, str) and _MULTI_LINE.search(text):
            self.stream.write(_escape_but_rich(text) if self._terminal else escape_controls(text))
        else:
            self.stream.write(text)
        return len(text)

    def writelines(self, lines: Any) -> None:
        """Write each line through :meth:`write`."""
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


FORMULA_START = frozenset("=+-@\t\r")
"""First characters that make a spreadsheet read a cell as a formula (OWASP, CSV injection)."""
_NUMBER = re.compile(r"[+-]?(?:(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|inf|nan)")


def csv_cell(text: str, *, raw: bool = False) -> str:
    """A CSV cell a spreadsheet shows as text: one beginning with ``=``, ``+``, ``-``, ``@``, a
    tab or a carriage return gets a leading ``'`` unless it is a plain number; ``raw``: as is.

    >>> csv_cell("=HYPERLINK(\\"http://x\\")"), csv_cell("-3.5"), csv_cell("@SUM(A1)")
    ('\\'=HYPERLINK("http://x")', '-3.5', "'@SUM(A1)")
    """
    if raw or text[:1] not in FORMULA_START or _NUMBER.fullmatch(text):
        return text
    return "'" + text


_MARKDOWN = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})
_MARKDOWN_CELL = str.maketrans(
    {"&": "&amp;", "<": "&lt;", ">": "&gt;", "|": "\\|", "`": "\\`", "\n": " ", "\r": " "}
)


def markdown_text(text: str) -> str:
    """User text for a Markdown file: ``&``, ``<``, ``>`` as entities (no raw HTML).

    >>> markdown_text("fake<script>alert(9)</script>")
    'fake&lt;script&gt;alert(9)&lt;/script&gt;'
    """
    return text.translate(_MARKDOWN)


def markdown_cell(text: str) -> str:
    """User text for a Markdown table cell: :func:`markdown_text`, and ``|`` and the backtick
    escaped, a line break as a space (a cell is one line)."""
    return text.translate(_MARKDOWN_CELL)


def markdown_code(text: str) -> str:
    """User text as a Markdown code span (a path, a file name): `` `text` `` when it has no
    backtick or line break (inside a code span nothing is interpreted), else
    :func:`markdown_cell` text (a backtick would end the span and let the rest be HTML)."""
    if "`" in text or "\n" in text or "\r" in text:
        return markdown_cell(text)
    return f"`{text}`"
