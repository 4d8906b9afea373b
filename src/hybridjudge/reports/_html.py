"""``report.html``: a self-contained page (inline SVG plots, inline CSS, no external assets)."""

from __future__ import annotations

import html
import io
from typing import Any

from hybridjudge.reports._markdown import render_markdown
from hybridjudge.reports._tables import (
    CLASS_LABELS,
    cell_text,
    detection_grid,
    false_alarm_text,
    fmt_ci,
    scorer_order,
)
from hybridjudge.study._models import StudyAnalysis, StudyResult

__all__ = ["render_html"]

_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;margin:2rem auto;max-width:72rem;color:#222;padding:0 1rem}
table{border-collapse:collapse;margin:.5rem 0 1.5rem}th,td{border:1px solid #ccc;padding:.3rem .5rem;font-size:.9rem}
th{background:#f3f3f3}td.num{text-align:right}.note{background:#fff8e1;border-left:4px solid #f0b400;padding:.5rem 1rem}
.muted{color:#666}figure{margin:1rem 0}svg{max-width:100%;height:auto}
"""


def _svg(fig: Any) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight")
    text = buf.getvalue()
    start = text.find("<svg")
    return text[start:] if start >= 0 else text


def _heatmap(analysis: StudyAnalysis, scorers: list[str], title: str) -> str | None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    grid = detection_grid(analysis)
    if not grid or not scorers:
        return None
    values = np.full((len(grid), len(scorers)), np.nan)
    labels = [[""] * len(scorers) for _ in grid]
    for i, row in enumerate(grid):
        for j, s in enumerate(scorers):
            cell = row.cells.get(s)
            if cell is not None and cell.n and cell.rate is not None:
                values[i, j] = cell.rate
                labels[i][j] = f"{cell.detected}/{cell.n}\n{fmt_ci(cell.ci_low, cell.ci_high)}" + (
                    "\n(out of scope)" if cell.in_scope is False else ""
                )
    fig, ax = plt.subplots(figsize=(1.9 * len(scorers) + 3.5, 0.62 * len(grid) + 1.6))
    cmap = plt.get_cmap("RdYlGn").with_extremes(bad="#eeeeee")
    ax.imshow(np.ma.masked_invalid(values), cmap=cmap, vmin=0, vmax=1, aspect="auto")
    ax.set_xticks(range(len(scorers)), labels=scorers, rotation=20, ha="right")
    ax.set_yticks(
        range(len(grid)),
        labels=[
            f"{r.corpus}: {CLASS_LABELS.get(r.defect_class, r.defect_class)} [{r.origin}]"
            for r in grid
        ],
    )
    for i in range(len(grid)):
        for j in range(len(scorers)):
            v = values[i, j]
            dark = not np.isnan(v) and (v < 0.2 or v > 0.85)
            ax.text(
                j,
                i,
                labels[i][j] or "—",
                ha="center",
                va="center",
                fontsize=8,
                color="white" if dark else "black",
            )
    ax.set_title(
        title + "\n(detected in every repetition / mutants, Wilson 95% interval)", fontsize=10
    )
    svg = _svg(fig)
    plt.close(fig)
    return svg


def _cost_plot(study: StudyResult) -> str | None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = study.analysis.cost
    if not rows:
        return None
    names = [r.scorer for r in rows]
    floor = {"usd": 1e-4, "tokens": 0.1, "ms": 1e-3}
    usd: list[float | None] = [r.usd_per_1000 for r in rows]
    tokens: list[float | None] = [
        (r.prompt_tokens + r.completion_tokens) / r.evaluations if r.evaluations else 0.0
        for r in rows
    ]
    median: list[float | None] = [r.median_ms for r in rows]
    p95 = [r.p95_ms for r in rows]
    fig, axes = plt.subplots(1, 3, figsize=(13, 0.5 * len(rows) + 2.2), sharey=True)
    panels: list[tuple[Any, list[float | None], str, str, str]] = [
        (axes[0], usd, "USD per 1,000 evaluations", "usd", "#4c72b0"),
        (axes[1], tokens, "tokens per evaluation", "tokens", "#55a868"),
        (axes[2], median, "ms per evaluation (median; p95 light)", "ms", "#dd8452"),
    ]
    for ax, values, label, key, color in panels:
        drawn = [max(v or 0.0, floor[key]) for v in values]
        if key == "ms":
            ax.barh(names, [max(v, floor[key]) for v in p95], color=color, alpha=0.35)
        ax.barh(names, drawn, color=color)
        ax.set_xscale("log")
        ax.set_xlabel(label, fontsize=8)
        ax.set_xlim(right=max([*drawn, floor[key] * 10]) * 30)
        for i, v in enumerate(values):
            if v is None:
                text = "unknown price"
            elif v == 0:
                text = "0"
            else:
                text = f"{v:.3g}"
            ax.text(drawn[i], i, " " + text, va="center", fontsize=8)
    fig.suptitle(
        "Cost and latency per scorer (log scales; a value of 0 is drawn at the left edge)",
        fontsize=10,
    )
    svg = _svg(fig)
    plt.close(fig)
    return svg


def _plots(study: StudyResult) -> list[str]:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return [
            '<p class="note">Plots need matplotlib: <code>pip install "hybridjudge[report]"</code>, '
            "then <code>hybridjudge report RESULTS_DIR</code>. The tables below are complete.</p>"
        ]
    out = []
    heat = _heatmap(
        study.analysis, list(study.config.scorers), "Detection per defect class and scorer"
    )
    if heat:
        out.append(f"<figure>{heat}</figure>")
    cost = _cost_plot(study)
    if cost:
        out.append(f"<figure>{cost}</figure>")
    if study.reference is not None:
        ref_scorers = scorer_order(study.reference)
        ref = _heatmap(study.reference, ref_scorers, "Reference: OpenGATE paper, same rules")
        if ref:
            out.append(f"<figure>{ref}</figure>")
    return out


def _table(headers: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _detection_tables(analysis: StudyAnalysis, scorers: list[str]) -> str:
    parts = []
    grid = detection_grid(analysis)
    for corpus in dict.fromkeys(r.corpus for r in grid):
        rows = [
            [r.label] + [cell_text(r.cells.get(s)) for s in scorers]
            for r in grid
            if r.corpus == corpus
        ]
        fa = {r.scorer: r for r in analysis.false_alarms if r.corpus == corpus}
        rows.append(
            ["clean bases flagged every repetition (false alarms)"]
            + [false_alarm_text(fa.get(s)) for s in scorers]
        )
        parts.append(f"<h3>{html.escape(corpus)}</h3>" + _table(["defect class", *scorers], rows))
    return "".join(parts)


def render_html(study: StudyResult) -> str:
    """The whole study report as one self-contained HTML page."""
    scorers = list(study.config.scorers)
    sampled = (
        f'<p class="note"><b>Sampled.</b> {html.escape(study.sampling.note)}</p>'
        if study.sampling
        else ""
    )
    cost_rows = [
        [
            c.scorer,
            str(c.evaluations),
            str(c.calls),
            str(c.prompt_tokens),
            str(c.completion_tokens),
            "unknown price" if c.usd_per_1000 is None else f"{c.usd_per_1000:.4f}",
            f"{c.wall_s_per_repetition:.3f}" + (" (shared)" if c.shared_wall else ""),
            f"{c.median_ms:.3f}",
            f"{c.p95_ms:.3f}",
            str(c.cache_hits),
        ]
        for c in study.analysis.cost
    ]
    stab_rows = [
        [
            s.scorer,
            str(s.outputs),
            str(s.verdict_flips),
            str(s.outputs_with_movement),
            f"{s.max_range:.3f}",
            "yes" if s.identical_across_repetitions else "no",
        ]
        for s in study.analysis.stability
    ]
    unscored_rows = [
        [
            u.scorer,
            str(u.evaluations),
            ", ".join(f"{k}: {v}" for k, v in u.by_reason.items()) or "none",
        ]
        for u in study.analysis.unscored
    ]
    reference = ""
    if study.reference is not None:
        ref_scorers = scorer_order(study.reference)
        reference = (
            "<h2>Reference: the OpenGATE paper with the same rules</h2>"
            f"<p>{html.escape(study.reference_note or '')}</p>"
            + _detection_tables(study.reference, ref_scorers)
        )
        if study.reference_differences:
            reference += (
                "<p>Where our deterministic scorer and the paper's disagree, and why:</p>"
                + _table(
                    [
                        "output",
                        "defect class",
                        "ours",
                        "paper",
                        "our new issues",
                        "paper's new issues",
                    ],
                    [
                        [
                            d.output_id,
                            d.defect_class,
                            "reacted" if d.ours_reacted else "no reaction",
                            "reacted" if d.paper_reacted else "no reaction",
                            "; ".join(d.ours_new_issues) or "—",
                            "; ".join(d.paper_new_issues) or "—",
                        ]
                        for d in study.reference_differences
                    ],
                )
            )
    body = "".join(
        [
            "<h1>hybridjudge mutation study</h1>",
            f'<p class="muted">hybridjudge {html.escape(study.hybridjudge_version)}, {html.escape(study.created_at)}; '
            f"scorers {html.escape(', '.join(scorers))}; {study.config.repetitions} repetition(s); judge mode {study.config.judge_mode}.</p>",
            sampled,
            "<h2>Detection per defect class</h2>",
            "<p>Detected = reacted in every repetition. Classes are never summed into one figure. "
            "† = out of scope for that scorer by construction.</p>",
            *_plots(study),
            _detection_tables(study.analysis, scorers),
            "<h2>Stability across repetitions</h2>",
            _table(
                [
                    "scorer",
                    "outputs",
                    "verdict flips",
                    "outputs whose score moved",
                    "max range",
                    "identical",
                ],
                stab_rows,
            ),
            "<h2>Unscored evaluations</h2>",
            _table(["scorer", "evaluations", "by reason"], unscored_rows),
            "<h2>Cost and latency</h2>",
            _table(
                [
                    "scorer",
                    "evaluations",
                    "calls",
                    "prompt tokens",
                    "completion tokens",
                    "$ / 1,000 evals",
                    "wall s / repetition",
                    "median ms",
                    "p95 ms",
                    "cache hits",
                ],
                cost_rows,
            ),
            reference,
            "<details><summary>Full Markdown report</summary><pre>",
            html.escape(render_markdown(study)),
            "</pre></details>",
        ]
    )
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        "<title>hybridjudge mutation study</title>"
        f"<style>{_CSS}</style></head><body>{body}</body></html>\n"
    )
