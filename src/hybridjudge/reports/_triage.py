"""The triage (ordinal classification) report as Markdown, HTML and terminal tables.

Moved here from ``metrics.ordinal`` so the metrics compute and the reports render: the same
table model (:mod:`hybridjudge.reports._table`) and page style (:mod:`hybridjudge.reports._page`)
as the study report. Charts are inline SVG, reproducible byte for byte.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from hybridjudge.metrics.ordinal import KNOWN_SCALES, Rate, Statistic, TriageReport
from hybridjudge.reports._charts import chart_style, svg
from hybridjudge.reports._page import facts_html, figure_html, page, table_block
from hybridjudge.reports._table import Cell, Column, Row, Table

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["render_triage_html", "render_triage_markdown", "triage_tables"]

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


_CORRECT = (0.19, 0.51, 0.74)
_UNDER = (0.90, 0.33, 0.05)
_OVER = (0.46, 0.42, 0.69)


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


def _metrics_table(items: tuple[Rate | Statistic, ...]) -> Table:
    columns = [
        Column("role"),
        Column("metric"),
        Column("value", "right"),
        Column("count", "right"),
        Column("population"),
        Column("95% CI", "right"),
        Column("CI method"),
    ]
    rows = []
    for role, metric, value, count, population, ci, method in _rows(items):
        rows.append([role, metric, value, count, population, ci, method])
    return Table.of(columns, rows)


def _facts_table(report: TriageReport) -> Table:
    return Table.of(
        [Column(""), Column("")],
        [[Cell(key, emphasis="strong"), value] for key, value in _facts(report)],
    )


_FILLS = {
    "correct": ("#c6dbef", "#1f2328"),
    "under1": ("#fdd0a2", "#1f2328"),
    "under2": ("#fd8d3c", "#1f2328"),
    "under3": ("#d94801", "#ffffff"),
    "over1": ("#dadaeb", "#1f2328"),
    "over2": ("#9e9ac8", "#1f2328"),
    "over3": ("#6a51a3", "#ffffff"),
}


def _matrix_table(report: TriageReport, *, colour: bool) -> Table:
    columns = [
        Column("reference ↓ / predicted →"),
        *(Column(str(x), "right") for x in report.labels),
        Column("n (class size)", "right"),
    ]
    rows: list[Row] = []
    for i, label in enumerate(report.labels):
        cells = [Cell(str(label), header=True, emphasis="strong")]
        for j, count in enumerate(report.confusion_matrix[i]):
            less_urgent = (j > i) if report.most_urgent == "first" else (j < i)
            kind = "correct" if i == j else ("under" if less_urgent else "over")
            key = kind if i == j else f"{kind}{min(abs(i - j), 3)}"
            fill, ink = _FILLS[key] if colour else (None, None)
            title = (
                "correct"
                if i == j
                else f"{kind}-triage by {abs(i - j)} level{'s' if abs(i - j) > 1 else ''}"
            )
            cells.append(
                Cell(
                    str(count),
                    emphasis="strong" if i == j else "normal",
                    fill=fill,
                    ink=ink,
                    title=title,
                )
            )
        cells.append(Cell(str(report.class_sizes[i])))
        rows.append(Row(tuple(cells)))
    rows.append(
        Row(
            (
                Cell("predicted total", header=True),
                *(Cell(str(x)) for x in report.prediction_counts),
                Cell(str(report.n)),
            )
        )
    )
    return Table(tuple(columns), tuple(rows), css_class="matrix")


def triage_tables(report: TriageReport) -> dict[str, Table]:
    """Every table of the report by name: ``facts``, ``matrix``, ``planned``, ``exploratory``."""
    tables = {
        "facts": _facts_table(report),
        "matrix": _matrix_table(report, colour=False),
        "exploratory": _metrics_table(report.exploratory),
    }
    if report.plan is not None:
        tables["planned"] = _metrics_table(report.planned)
    return tables


def render_triage_markdown(report: TriageReport) -> str:
    """The report as Markdown: provenance, confusion matrix, planned then exploratory metrics."""
    tables = triage_tables(report)
    out = [
        f"# Triage report: {report.scale}, {report.label_source.description}",
        "",
        tables["facts"].to_markdown(),
        "",
        "## Confusion matrix (rows = reference level, columns = predicted level)",
        "",
        tables["matrix"].to_markdown(),
        "",
        _region_sentence(report),
        "",
    ]
    if report.plan is not None:
        out += ["## Planned metrics (named by the analysis plan before results)", ""]
        out += [tables["planned"].to_markdown(), ""]
        out += ["## Exploratory metrics (not named by the plan)", ""]
    else:
        out += ["## Metrics (no analysis plan: all exploratory)", ""]
    out += [tables["exploratory"].to_markdown(), ""]
    out += ["## Invariants checked", "", *(f"- ✓ {text}" for text in report.invariants), ""]
    return "\n".join(out)


def render_triage_html(report: TriageReport) -> str:
    """The report as one self-contained HTML page (inline CSS and SVG charts).

    Needs matplotlib (the ``report`` extra) for the two charts.
    """
    title = f"Triage report: {report.scale}, {report.label_source.description}"
    with chart_style():
        heatmap = svg(_heatmap(report))
        bars = svg(_recall_bars(report))
    recall_alt = "Per-level recall with 95% Wilson intervals: " + "; ".join(
        f"level {label}: {_number(report.metric(f'recall_level_{label}').value, 'proportion')}"
        for label in report.labels
    )
    parts = [
        f"<h1>{html.escape(title)}</h1>",
        facts_html(_facts(report)),
        "<h2>Confusion matrix (rows = reference level, columns = predicted level)</h2>",
        table_block(_matrix_table(report, colour=True).to_html()),
        f"<p>{html.escape(_region_sentence(report))}</p>",
        '<div class="figures">',
        figure_html(heatmap, alt=f"confusion matrix heatmap. {_region_sentence(report)}"),
        figure_html(bars, alt=recall_alt, caption=recall_alt),
        "</div>",
    ]
    if report.plan is not None:
        parts += [
            "<h2>Planned metrics (named by the analysis plan before results)</h2>",
            table_block(_metrics_table(report.planned).to_html()),
            "<h2>Exploratory metrics (not named by the plan)</h2>",
        ]
    else:
        parts.append("<h2>Metrics (no analysis plan: all exploratory)</h2>")
    parts += [
        table_block(_metrics_table(report.exploratory).to_html()),
        "<h2>Invariants checked</h2><ul>",
        *(f"<li>✓ {html.escape(text)}</li>" for text in report.invariants),
        "</ul>",
    ]
    extra = (
        ".figures{display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start}"
        ".figures figure{flex:1 1 26rem;max-width:36rem}"
    )
    return page(title, parts, extra_css=extra)
