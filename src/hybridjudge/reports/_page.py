"""One page style for every HTML report: a self-contained document (inline CSS, no script, no
external asset) that fits a 1280 px window without horizontal scrolling."""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence

__all__ = ["CSS", "facts_html", "figure_html", "page", "table_block"]

CSS = """
:root{--ink:#1f2328;--muted:#59636e;--line:#d0d7de;--head:#f6f8fa;--note:#fff8c5;--accent:#0969da}
*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;
max-width:76rem;padding:1.5rem 1.25rem 3rem;color:var(--ink);line-height:1.45}
h1{font-size:1.6rem;margin:.2rem 0 .6rem}h2{font-size:1.25rem;margin:2rem 0 .5rem;
border-bottom:1px solid var(--line);padding-bottom:.2rem}h3{font-size:1.05rem;margin:1.2rem 0 .4rem}
p,li{max-width:60rem}
.facts{display:grid;grid-template-columns:max-content minmax(0,1fr) max-content minmax(0,1fr);
gap:.15rem 1rem;margin:.6rem 0 1rem;padding:.5rem .9rem;background:var(--head);
border:1px solid var(--line);border-radius:6px;font-size:.9rem}
.facts dt{font-weight:600;color:var(--muted)}.facts dd{margin:0;overflow-wrap:anywhere}
.note{background:var(--note);border-left:4px solid #d4a72c;padding:.5rem .9rem;margin:.8rem 0}
.muted{color:var(--muted)}.sub{font-size:.8em;opacity:.8}
.table{max-width:100%;overflow-x:auto;margin:.4rem 0 1.2rem}
table{border-collapse:collapse;font-size:.88rem}
th,td{border:1px solid var(--line);padding:.3rem .5rem;vertical-align:top;overflow-wrap:break-word}
thead th{background:var(--head);position:sticky;top:0;z-index:1;text-align:left}
thead.grouped{position:sticky;top:0;z-index:1}thead.grouped th{position:static}
th.colgroup{text-align:center;border-bottom:2px solid var(--muted)}
th.right,td.right{text-align:right}td.right{white-space:nowrap}th.center,td.center{text-align:center}
td.strong,tr.strong td{font-weight:600}td.em,tr.em td,td.muted{font-style:italic}
tr.group th{background:#eef1f4;text-align:left}
caption{caption-side:top;text-align:left;color:var(--muted);padding:.2rem 0}
.hatch{background:repeating-linear-gradient(45deg,#f3f3f3 0 5px,#dcdcdc 5px 7px)!important;
color:#555!important}
table.heat{max-width:100%}table.heat td{min-width:7rem;text-align:center;font-variant-numeric:tabular-nums}
table.heat th[scope=row]{text-align:left;font-weight:500;background:#fff}
.legend{display:flex;flex-wrap:wrap;gap:.4rem 1.2rem;align-items:center;margin:.4rem 0 .6rem;
font-size:.85rem}.swatch{display:inline-block;width:1.6rem;height:1rem;border:1px solid var(--line);
vertical-align:middle;margin-right:.3rem}
.ramp{display:inline-flex}.ramp span{width:1.1rem;height:1rem;display:inline-block}
figure{margin:1rem 0}figure svg,figure img{max-width:100%;height:auto}
figcaption{font-size:.85rem;color:var(--muted);max-width:60rem}
details{margin:1rem 0}summary{cursor:pointer;color:var(--accent)}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:var(--head);padding:.8rem;
border:1px solid var(--line);border-radius:6px;font-size:.8rem}
code{overflow-wrap:anywhere}
"""
"""The shared style sheet."""


def page(title: str, body: Iterable[str], *, extra_css: str = "") -> str:
    """A complete HTML document around ``body`` (already-escaped HTML fragments)."""
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{html.escape(title)}</title><style>{CSS}{extra_css}</style></head>"
        f"<body>{''.join(body)}</body></html>\n"
    )


def facts_html(facts: Sequence[tuple[str, str]]) -> str:
    """A key/value block (the first-screen summary of a report)."""
    items = "".join(
        f"<dt>{html.escape(key)}</dt><dd>{html.escape(value)}</dd>" for key, value in facts
    )
    return f'<dl class="facts">{items}</dl>'


def table_block(table_html: str) -> str:
    """A table inside a block that scrolls on its own if it is ever wider than the page."""
    return f'<div class="table">{table_html}</div>'


def figure_html(content: str, alt: str, caption: str | None = None) -> str:
    """A figure whose image carries ``alt`` as its text alternative (``role="img"``)."""
    label = html.escape(alt, quote=True)
    cap = f"<figcaption>{html.escape(caption)}</figcaption>" if caption else ""
    return f'<figure><div role="img" aria-label="{label}">{content}</div>{cap}</figure>'
