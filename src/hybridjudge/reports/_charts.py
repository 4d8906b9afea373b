"""Charts for the HTML reports: matplotlib figures as inline SVG, byte-identical across renders.

Every figure is drawn inside :func:`chart_style`: labels are never parsed as mathtext (a ``$`` in
a scorer name or a price stays a dollar sign), SVG ids come from a fixed salt instead of a random
one, and :func:`svg` drops the creation date, so the same data gives the same bytes.
matplotlib is imported only here and only when a chart is drawn.
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, cast

from hybridjudge.reports._format import fmt_duration_ms, fmt_tokens, fmt_usd

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from hybridjudge.study import CostRow

__all__ = ["chart_style", "cost_chart", "have_matplotlib", "svg"]

_RC: dict[str, Any] = {
    "svg.hashsalt": "hybridjudge",
    "svg.fonttype": "path",
    "text.parse_math": False,
    "font.family": "DejaVu Sans",
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
}


def have_matplotlib() -> bool:
    """Whether the ``report`` extra (matplotlib) is installed."""
    import importlib.util

    return importlib.util.find_spec("matplotlib") is not None


@contextmanager
def chart_style() -> Iterator[None]:
    """The rc settings every report chart is drawn and saved under."""
    import matplotlib

    with matplotlib.rc_context(cast(Any, _RC)):
        yield


def svg(figure: Figure) -> str:
    """The figure as an inline ``<svg>`` element, reproducible byte for byte."""
    buffer = io.StringIO()
    with chart_style():
        figure.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    text = buffer.getvalue()
    start = text.find("<svg")
    return text[start:] if start >= 0 else text


def cost_chart(rows: Sequence[CostRow]) -> tuple[str, str] | None:
    """Three bar panels per scorer (price, tokens, latency) and their text alternative.

    Log scales, because the deterministic checks and the judges differ by orders of magnitude; a
    value of 0 is drawn as no bar at all and labelled ``0``.
    """
    if not rows:
        return None
    from matplotlib.figure import Figure
    from matplotlib.ticker import NullLocator

    names = [r.scorer for r in rows]
    usd = [r.usd_per_1000 for r in rows]
    tokens = [
        (r.prompt_tokens + r.completion_tokens) / r.evaluations if r.evaluations else 0.0
        for r in rows
    ]
    median = [r.median_ms for r in rows]
    p95 = [r.p95_ms for r in rows]
    with chart_style():
        figure = Figure(figsize=(12, 0.45 * len(rows) + 1.6), layout="constrained")
        axes = figure.subplots(1, 3, sharey=True)
        panels: list[tuple[Any, Sequence[float | None], str, Any, str]] = [
            (axes[0], usd, "$ per 1,000 evaluations", fmt_usd, "#4c72b0"),
            (axes[1], tokens, "tokens per evaluation", fmt_tokens, "#55a868"),
            (
                axes[2],
                median,
                "latency per evaluation (median; p95 light)",
                fmt_duration_ms,
                "#dd8452",
            ),
        ]
        positions = list(range(len(rows)))
        for ax, values, label, fmt, colour in panels:
            latency = fmt is fmt_duration_ms
            drawn = [float(v) for v in values if v]
            if latency:
                drawn += [float(v) for v in p95 if v]
            top, bottom = max(drawn, default=1.0), min(drawn, default=1.0)
            left = bottom / 3
            if latency:
                _bars(ax, p95, colour, alpha=0.3)
            _bars(ax, values, colour)
            ax.set_xscale("log")
            ax.set_xlim(left, top * 40)
            ax.set_xlabel(label)
            ax.set_yticks(positions, names)
            for i, v in enumerate(values):
                text = "unknown cost" if v is None else fmt(v)
                ax.text(float(v) if v else left, i, " " + text, va="center", fontsize=8)
            # every bar carries its value as text: no tick labels to misread on a log scale
            ax.xaxis.set_major_locator(NullLocator())
            ax.xaxis.set_minor_locator(NullLocator())
        axes[0].invert_yaxis()
        figure.suptitle("Cost and latency per scorer (log scales; 0 is drawn as no bar)")
    alt = "Cost and latency per scorer: " + "; ".join(
        f"{r.scorer}: {fmt_usd(r.usd_per_1000)} per 1,000 evaluations, "
        f"{fmt_tokens(t)} tokens per evaluation, median latency {fmt_duration_ms(r.median_ms)} "
        f"(p95 {fmt_duration_ms(r.p95_ms)})"
        for r, t in zip(rows, tokens, strict=True)
    )
    return svg(figure), alt + "."


def _bars(ax: Any, values: Sequence[float | None], colour: str, alpha: float = 1.0) -> None:
    """Horizontal bars for the non-zero values only: a 0 (or unknown) draws nothing."""
    kept = [(i, float(v)) for i, v in enumerate(values) if v]
    if kept:
        ax.barh([i for i, _ in kept], [v for _, v in kept], color=colour, alpha=alpha)
