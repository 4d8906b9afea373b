"""Markdown and self-contained HTML renderings of a :class:`TriageReport`."""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from hybridjudge.metrics.ordinal._models import Rate, Statistic
from hybridjudge.metrics.ordinal._report import KNOWN_SCALES, TriageReport

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["render_html", "render_markdown"]

_COLUMNS = ("role", "metric", "value", "count", "population", "95% CI", "CI method")


def _number(value: float | None, unit: str) -> str:
    if value is None:
        return "undefined"
    if unit == "proportion":
        return f"{value:.1%}"
    if unit == "levels":
        return f"{value:.2f} levels"
    return f"{value:.3f}"


def _unit(item: Rate | Statistic) -> str:
    return "proportion" if isinstance(item, Rate) else item.unit


def _count(item: Rate | Statistic) -> str:
    if isinstance(item, Rate):
        return f"{item.numerator}/{item.denominator}"
    if item.numerator is not None and item.denominator is not None:
        return f"{item.numerator:g}/{item.denominator}"
    return ""


def _interval(item: Rate | Statistic) -> tuple[str, str]:
    if item.interval is None:
        return ("none", "")
    unit = _unit(item)
    low = _number(item.interval.lower, unit).replace(" levels", "")
    high = _number(item.interval.upper, unit)
    return (f"{low} to {high}", item.interval.method)


def _rows(items: tuple[Rate | Statistic, ...]) -> list[tuple[str, ...]]:
    rows: list[tuple[str, ...]] = []
    for item in items:
        ci, method = _interval(item)
        rows.append(
            (
                item.role,
                f"{item.title} `{item.name}`",
                _number(item.value, _unit(item)),
                _count(item),
                item.population,
                ci,
                method,
            )
        )
    return rows


def _scale_text(report: TriageReport) -> str:
    levels = ", ".join(str(label) for label in report.labels)
    urgent = report.labels[0] if report.most_urgent == "first" else report.labels[-1]
    full = KNOWN_SCALES.get(report.scale)
    name = f"{report.scale} ({full})" if full else report.scale
    return f"{name}; levels {levels}; level {urgent} is the most urgent"


def _facts(report: TriageReport) -> list[tuple[str, str]]:
    acuity_n = sum(
        size
        for label, size in zip(report.labels, report.class_sizes, strict=True)
        if label in report.high_acuity
    )
    if report.plan is None:
        plan = "none given: every metric below is exploratory"
    else:
        digest = (report.plan.sha256 or "")[:12]
        plan = f"{report.plan.source or 'inline plan'} (sha256 {digest}…)"
        if report.plan.description:
            plan += f": {report.plan.description}"
    return [
        ("scale", _scale_text(report)),
        ("reference labels", report.label_source.description),
        ("cases", f"N = {report.n}"),
        (
            "direction",
            "prediction less urgent than reference = under-triage; more urgent = over-triage",
        ),
        (
            "high-acuity levels",
            f"{', '.join(str(x) for x in report.high_acuity)} ({acuity_n} cases)",
        ),
        ("analysis plan", plan),
        (
            "intervals",
            "95%; Wilson score for proportions; stratified percentile bootstrap "
            f"({report.bootstrap.n_resamples} resamples within reference levels, seed "
            f"{report.bootstrap.seed}) for balanced accuracy, MAE and kappa",
        ),
        (
            "format",
            f"{report.format} v{report.format_version}, hybridjudge {report.hybridjudge_version}",
        ),
    ]


def _region_sentence(report: TriageReport) -> str:
    under_side = "right" if report.most_urgent == "first" else "left"
    over_side = "left" if under_side == "right" else "right"
    return (
        f"Diagonal (bold) = correct: {report.correct}. {under_side.capitalize()} of the diagonal = "
        f"under-triage: {report.under_triaged}. {over_side.capitalize()} of the diagonal = "
        f"over-triage: {report.over_triaged}. Distance from the diagonal = levels of error."
    )


def _md_table(header: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> list[str]:
    def line(cells: tuple[str, ...]) -> str:
        return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"

    return [line(header), "|" + "---|" * len(header), *(line(row) for row in rows)]


def render_markdown(report: TriageReport) -> str:
    """The report as Markdown: provenance, confusion matrix, planned then exploratory metrics."""
    out = [
        f"# Triage report: {report.scale}, {report.label_source.description}",
        "",
        *_md_table(("", ""), [(f"**{key}**", value) for key, value in _facts(report)]),
        "",
        "## Confusion matrix (rows = reference level, columns = predicted level)",
        "",
    ]
    header = ("reference ↓ / predicted →", *(str(x) for x in report.labels), "n (class size)")
    body = []
    for i, label in enumerate(report.labels):
        cells = [
            f"**{count}**" if i == j else str(count)
            for j, count in enumerate(report.confusion_matrix[i])
        ]
        body.append((f"**{label}**", *cells, str(report.class_sizes[i])))
    body.append(("predicted total", *(str(x) for x in report.prediction_counts), str(report.n)))
    out += [*_md_table(header, body), "", _region_sentence(report), ""]
    if report.plan is not None:
        out += ["## Planned metrics (named by the analysis plan before results)", ""]
        out += [*_md_table(_COLUMNS, _rows(report.planned)), ""]
        out += ["## Exploratory metrics (not named by the plan)", ""]
    else:
        out += ["## Metrics (no analysis plan: all exploratory)", ""]
    out += [*_md_table(_COLUMNS, _rows(report.exploratory)), ""]
    out += ["## Invariants checked", "", *(f"- ✓ {text}" for text in report.invariants), ""]
    return "\n".join(out)


# --- HTML -------------------------------------------------------------------------------------

_CORRECT = (0.19, 0.51, 0.74)
_UNDER = (0.90, 0.33, 0.05)
_OVER = (0.46, 0.42, 0.69)


def _png(figure: Figure) -> str:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=110, metadata={"Software": None})
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _heatmap(report: TriageReport) -> Figure:
    import numpy as np
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch

    k = len(report.labels)
    matrix = np.array(report.confusion_matrix)
    image = np.ones((k, k, 4))
    for i in range(k):
        for j in range(k):
            distance = abs(i - j)
            less_urgent = (j > i) if report.most_urgent == "first" else (j < i)
            colour = _CORRECT if distance == 0 else (_UNDER if less_urgent else _OVER)
            alpha = 0.35 if distance == 0 else min(1.0, 0.15 + 0.25 * distance)
            image[i, j] = (*colour, alpha)
    figure = Figure(figsize=(1.1 * k + 2.6, 1.0 * k + 1.6), layout="constrained")
    axes = figure.add_subplot()
    axes.imshow(image, interpolation="nearest")
    for i in range(k):
        for j in range(k):
            count = int(matrix[i, j])
            axes.text(
                j,
                i,
                str(count),
                ha="center",
                va="center",
                fontsize=12,
                fontweight="bold" if count else "normal",
                color="black" if count else "0.55",
            )
            if i != j:
                axes.text(j + 0.42, i - 0.40, f"{abs(i - j)}", ha="right", va="top", fontsize=7)
    ticks = list(range(k))
    axes.set_xticks(ticks, [str(x) for x in report.labels])
    axes.set_yticks(ticks, [str(x) for x in report.labels])
    axes.set_xlabel("predicted level (columns)")
    axes.set_ylabel("reference level (rows)")
    axes.set_title(f"{report.scale}: confusion matrix, N = {report.n}")
    handles = [
        Patch(color=(*_CORRECT, 0.35), label=f"correct ({report.correct})"),
        Patch(color=(*_UNDER, 0.65), label=f"under-triage ({report.under_triaged})"),
        Patch(color=(*_OVER, 0.65), label=f"over-triage ({report.over_triaged})"),
    ]
    axes.legend(
        handles=handles,
        loc="upper left",
        bbox_to_anchor=(1.02, 1.0),
        fontsize=8,
        title="darker = farther\n(small digit = levels)",
        title_fontsize=7,
    )
    return figure


def _recall_bars(report: TriageReport) -> Figure:
    from matplotlib.figure import Figure

    items = [report.metric(f"recall_level_{label}") for label in report.labels]
    figure = Figure(figsize=(1.0 * len(items) + 2.5, 3.4), layout="constrained")
    axes = figure.add_subplot()
    positions = list(range(len(items)))
    values = [item.value or 0.0 for item in items]
    lows = [v - (i.interval.lower if i.interval else v) for v, i in zip(values, items, strict=True)]
    highs = [
        (i.interval.upper if i.interval else v) - v for v, i in zip(values, items, strict=True)
    ]
    axes.bar(positions, values, color=_CORRECT, alpha=0.8)
    axes.errorbar(positions, values, yerr=[lows, highs], fmt="none", ecolor="black", capsize=4)
    for x, item in zip(positions, items, strict=True):
        label = f"{item.numerator}/{item.denominator}" if isinstance(item, Rate) else ""
        axes.text(x, 1.02, label if item.value is not None else "n=0", ha="center", fontsize=8)
    balanced = report.metric("balanced_accuracy").value
    if balanced is not None:
        axes.axhline(balanced, linestyle="--", color="0.3", linewidth=1)
        axes.text(len(items) - 0.5, balanced + 0.02, "balanced accuracy", ha="right", fontsize=8)
    axes.set_xticks(positions, [str(x) for x in report.labels])
    axes.set_ylim(0, 1.1)
    axes.set_xlabel("reference level")
    axes.set_ylabel("recall (95% Wilson interval)")
    axes.set_title("per-level recall")
    return figure


def _html_table(
    header: tuple[str, ...], rows: Sequence[tuple[str, ...]], *, raw: bool = False
) -> str:
    def cell(tag: str, text: str) -> str:
        return f"<{tag}>{text if raw else html.escape(text)}</{tag}>"

    head = "".join(cell("th", h) for h in header)
    body = "".join("<tr>" + "".join(cell("td", c) for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _matrix_html(report: TriageReport) -> str:
    rows = []
    for i, label in enumerate(report.labels):
        cells = [f"<th>{html.escape(str(label))}</th>"]
        for j, count in enumerate(report.confusion_matrix[i]):
            less_urgent = (j > i) if report.most_urgent == "first" else (j < i)
            kind = "correct" if i == j else ("under" if less_urgent else "over")
            cells.append(f'<td class="{kind} d{min(abs(i - j), 3)}">{count}</td>')
        cells.append(f"<td>{report.class_sizes[i]}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    totals = "".join(f"<td>{x}</td>" for x in report.prediction_counts)
    rows.append(f"<tr><th>predicted total</th>{totals}<td>{report.n}</td></tr>")
    head = "".join(f"<th>{html.escape(str(x))}</th>" for x in report.labels)
    return (
        '<table class="matrix"><thead><tr><th>reference ↓ / predicted →</th>'
        f"{head}<th>n</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )


_STYLE = """
body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:0.8em 0}td,th{border:1px solid #ccc;padding:3px 8px}
th{background:#f3f3f3;text-align:left}.matrix td{text-align:right}
.correct{background:#c6dbef;font-weight:bold}.under.d1{background:#fdd0a2}
.under.d2{background:#fd8d3c}.under.d3{background:#d94801;color:#fff}
.over.d1{background:#dadaeb}.over.d2{background:#9e9ac8}.over.d3{background:#6a51a3;color:#fff}
img{max-width:100%}.figures{display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start}
"""


def render_html(report: TriageReport) -> str:
    """The report as one self-contained HTML page (inline CSS and base64 PNG figures).

    Needs matplotlib (the ``report`` extra).
    """
    heatmap = _png(_heatmap(report))
    bars = _png(_recall_bars(report))
    title = f"Triage report: {report.scale}, {report.label_source.description}"
    parts: list[Any] = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        _html_table(("", ""), _facts(report)),
        "<h2>Confusion matrix (rows = reference level, columns = predicted level)</h2>",
        _matrix_html(report),
        f"<p>{html.escape(_region_sentence(report))}</p>",
        '<div class="figures">',
        f'<img alt="confusion matrix heatmap" src="data:image/png;base64,{heatmap}">',
        f'<img alt="per-level recall with Wilson intervals" src="data:image/png;base64,{bars}">',
        "</div>",
    ]
    if report.plan is not None:
        parts += [
            "<h2>Planned metrics (named by the analysis plan before results)</h2>",
            _html_table(_COLUMNS, _rows(report.planned)),
            "<h2>Exploratory metrics (not named by the plan)</h2>",
        ]
    else:
        parts.append("<h2>Metrics (no analysis plan: all exploratory)</h2>")
    parts += [
        _html_table(_COLUMNS, _rows(report.exploratory)),
        "<h2>Invariants checked</h2><ul>",
        *(f"<li>✓ {html.escape(text)}</li>" for text in report.invariants),
        "</ul></body></html>",
    ]
    return "\n".join(str(part) for part in parts)
