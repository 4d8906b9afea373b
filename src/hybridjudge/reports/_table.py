"""One table model for every report, rendered to Markdown, HTML and the terminal.

A :class:`Table` is columns plus rows of :class:`Cell` s; each cell carries its text, alignment and
emphasis, and optionally a fill colour, a hatch (out of scope) and a tooltip that only HTML shows.
The study report, the triage report and the retrieval report build tables of this kind, so every
format says the same thing with the same labels.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from hybridjudge._sinks import markdown_text

if TYPE_CHECKING:
    from rich.table import Table as RichTable

__all__ = ["Align", "Cell", "Column", "Emphasis", "Row", "Table", "cell"]

Align = Literal["left", "right", "center"]
Emphasis = Literal["normal", "strong", "muted", "em"]


@dataclass(frozen=True, slots=True)
class Cell:
    """One table cell.

    ``lines`` beyond the first are secondary (an interval, a note) and render smaller in HTML and
    on their own line in the terminal; Markdown joins them with a space.
    """

    text: str
    align: Align | None = None
    emphasis: Emphasis = "normal"
    lines: tuple[str, ...] = ()
    fill: str | None = None
    """Background colour (``#rrggbb``), HTML only."""
    ink: str | None = None
    """Text colour to go with ``fill`` (``#rrggbb``), HTML only."""
    hatch: bool = False
    """Grey hatching: the cell is out of scope by construction (HTML); Markdown and the terminal
    mark it with the text itself."""
    title: str | None = None
    """A tooltip (HTML ``title``)."""
    header: bool = False
    """Render as a row header (``<th scope="row">``)."""

    @property
    def full_text(self) -> str:
        """Every line joined by a space, as plain text."""
        return " ".join((self.text, *self.lines)) if self.lines else self.text


def cell(value: object, **kwargs: object) -> Cell:
    """A :class:`Cell` from any value (``str(value)``); keyword arguments as :class:`Cell`'s."""
    return value if isinstance(value, Cell) else Cell(str(value), **kwargs)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Column:
    """A column: its label and the default alignment of its cells."""

    label: str
    align: Align = "left"
    tooltip: str | None = None
    group: str | None = None
    """A column group (e.g. a judge's name): consecutive columns of one group share a spanning
    header in HTML; Markdown and the terminal put it before the label."""

    @property
    def full_label(self) -> str:
        """``group · label`` (just the label without a group)."""
        return f"{self.group} · {self.label}" if self.group else self.label


@dataclass(frozen=True, slots=True)
class Row:
    """A row of cells; a ``group`` row is one cell spanning the table (a section label)."""

    cells: tuple[Cell, ...]
    group: bool = False
    emphasis: Emphasis = "normal"


@dataclass(frozen=True, slots=True)
class Table:
    """Columns and rows, with an optional caption and a CSS class for HTML."""

    columns: tuple[Column, ...]
    rows: tuple[Row, ...] = field(default=())
    caption: str | None = None
    css_class: str | None = None

    @staticmethod
    def of(
        columns: Sequence[Column | str],
        rows: Sequence[Sequence[Cell | str | int | float] | Row],
        *,
        caption: str | None = None,
        css_class: str | None = None,
    ) -> Table:
        """Build a table from plain values: strings become left-aligned columns and cells."""
        cols = tuple(c if isinstance(c, Column) else Column(c) for c in columns)
        built: list[Row] = []
        for r in rows:
            if isinstance(r, Row):
                built.append(r)
            else:
                built.append(Row(tuple(cell(v) for v in r)))
        return Table(cols, tuple(built), caption=caption, css_class=css_class)

    # --- Markdown ---------------------------------------------------------------------------

    def to_markdown(self) -> str:
        """A GitHub-flavoured Markdown table (a group row becomes a bold first cell)."""
        width = len(self.columns)
        lines = []
        if self.caption:
            lines += [f"*{_md_escape(self.caption)}*", ""]
        lines.append("| " + " | ".join(_md_escape(c.full_label) for c in self.columns) + " |")
        lines.append("|" + "".join(_md_rule(c.align) for c in self.columns))
        for row in self.rows:
            if row.group:
                cells = [f"**{_md_escape(row.cells[0].full_text)}**"] + [""] * (width - 1)
            else:
                cells = [_md_cell(c, row.emphasis) for c in row.cells]
                cells += [""] * (width - len(cells))
            lines.append("| " + " | ".join(cells) + " |")
        return "\n".join(lines)

    # --- HTML -------------------------------------------------------------------------------

    def to_html(self) -> str:
        """An HTML ``<table>`` (escaped text; classes from the shared page style)."""
        width = len(self.columns)
        cls = f' class="{html.escape(self.css_class)}"' if self.css_class else ""
        parts = [f"<table{cls}>"]
        if self.caption:
            parts.append(f"<caption>{html.escape(self.caption)}</caption>")
        grouped = any(c.group for c in self.columns)
        # a two-row header sticks as one block (each row sticking on its own would overlap)
        parts.append('<thead class="grouped">' if grouped else "<thead>")
        if grouped:
            # one spanning header per run of columns of the same group; ungrouped columns span
            # both header rows
            parts.append("<tr>")
            i = 0
            while i < width:
                col = self.columns[i]
                if col.group is None:
                    parts.append(_html_header(col, ' rowspan="2"'))
                    i += 1
                    continue
                span = 1
                while i + span < width and self.columns[i + span].group == col.group:
                    span += 1
                parts.append(
                    f'<th scope="colgroup" colspan="{span}" class="colgroup">'
                    f"{html.escape(col.group)}</th>"
                )
                i += span
            parts.append("</tr>")
        parts.append("<tr>")
        for col in self.columns:
            if grouped and col.group is None:
                continue
            parts.append(_html_header(col, ""))
        parts.append("</tr></thead><tbody>")
        for row in self.rows:
            if row.group:
                parts.append(
                    f'<tr class="group"><th colspan="{width}" scope="rowgroup">'
                    f"{html.escape(row.cells[0].full_text)}</th></tr>"
                )
                continue
            row_cls = f' class="{row.emphasis}"' if row.emphasis != "normal" else ""
            parts.append(f"<tr{row_cls}>")
            for i, c in enumerate(row.cells):
                align = c.align or (self.columns[i].align if i < width else "left")
                parts.append(_html_cell(c, align))
            parts.append("</tr>")
        parts.append("</tbody></table>")
        return "".join(parts)

    # --- terminal ---------------------------------------------------------------------------

    def to_rich(self, *, title: str | None = None) -> RichTable:
        """A :class:`rich.table.Table` whose cells never wrap mid-label or get cut."""
        from rich.table import Table as RichTable
        from rich.text import Text

        # every string goes in as rich Text: a "[" in a corpus, scorer or case name is not markup
        shown = title or self.caption
        table = RichTable(title=Text(shown) if shown else None, title_justify="left")
        for i, col in enumerate(self.columns):
            # the row label never wraps (it carries the [mutator]/[paper] tags); cells fold
            label = f"{col.group}\n{col.label}" if col.group else col.label
            table.add_column(Text(label), justify=col.align, no_wrap=i == 0, overflow="fold")
        styles = {"normal": "", "strong": "bold", "muted": "dim", "em": "italic"}
        for row in self.rows:
            if row.group:
                table.add_section()
                table.add_row(
                    Text(row.cells[0].full_text, style="bold"),
                    *[""] * (len(self.columns) - 1),
                )
                continue
            texts = []
            for c in row.cells:
                style = styles[c.emphasis] or styles[row.emphasis]
                texts.append(Text(c.full_text, style=style))
            table.add_row(*texts)
        return table

    def to_text(self, width: int = 200) -> str:
        """The terminal rendering as plain text of a fixed width (for logs and tests)."""
        import io

        from rich.console import Console

        console = Console(
            file=io.StringIO(), width=width, color_system=None, highlight=False, record=True
        )
        console.print(self.to_rich())
        return console.export_text()


def _html_header(col: Column, extra: str) -> str:
    attrs = f' class="{col.align}"' if col.align != "left" else ""
    if col.tooltip:
        attrs += f' title="{html.escape(col.tooltip)}"'
    return f'<th scope="col"{attrs}{extra}>{html.escape(col.label)}</th>'


def _md_escape(text: str) -> str:
    """Cell text for Markdown: backslashes kept, then no raw HTML, pipe or line break (names and
    ids are other people's text). Backticks stay: a report's own cells show metric ids as code
    spans, and with ``&``, ``<``, ``>`` as entities a code span a name opens can hold no HTML."""
    escaped = markdown_text(text.replace("\\", "\\\\"))
    return escaped.replace("|", "\\|").replace("\r", " ").replace("\n", " ")


def _md_rule(align: Align) -> str:
    return {"left": "---|", "right": "---:|", "center": ":---:|"}[align]


def _md_cell(c: Cell, row_emphasis: Emphasis) -> str:
    text = _md_escape(c.full_text)
    emphasis = c.emphasis if c.emphasis != "normal" else row_emphasis
    if not text:
        return ""
    if emphasis == "strong":
        return f"**{text}**"
    if emphasis in ("em", "muted"):
        return f"*{text}*"
    return text


def _html_cell(c: Cell, align: Align) -> str:
    tag = "th" if c.header else "td"
    classes: list[str] = [] if align == "left" else [align]
    if c.emphasis != "normal":
        classes.append(c.emphasis)
    if c.hatch:
        classes.append("hatch")
    attrs = f' class="{" ".join(classes)}"' if classes else ""
    if c.header:
        attrs += ' scope="row"'
    style = []
    if c.fill:
        style.append(f"background-color:{c.fill}")
    if c.ink:
        style.append(f"color:{c.ink}")
    if style:
        attrs += f' style="{";".join(style)}"'
    if c.title:
        attrs += f' title="{html.escape(c.title)}"'
    body = html.escape(c.text)
    if c.lines:
        body += "".join(f'<br><span class="sub">{html.escape(x)}</span>' for x in c.lines)
    return f"<{tag}{attrs}>{body}</{tag}>"
