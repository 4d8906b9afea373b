"""``report.html``: a self-contained page (inline CSS and SVG, no script, no external asset).

The first screen names the judge model, its endpoint, the repetitions and the sample, then shows
the detection heatmap with its column labels on top and its colour legend. Every table is built
by :mod:`hybridjudge.reports._tables` (the same as ``report.md``); the page style is the one of
every hybridjudge report (:mod:`hybridjudge.reports._page`). The same ``study.json`` always
renders to the same bytes.
"""

from __future__ import annotations

import html

from hybridjudge.reports._charts import cost_chart, have_matplotlib
from hybridjudge.reports._markdown import (
    CHEAPEST_EXPLAINED,
    DETECTION_EXPLAINED,
    LABELLED_ROW_EXPLAINED,
    LABELS_EXPLAINED,
    LABELS_TITLE,
    SEPARATION_EXPLAINED,
    _refusal_notes,
    judge_usage_sentences,
    render_markdown,
    study_facts,
)
from hybridjudge.reports._page import facts_html, figure_html, page, table_block
from hybridjudge.reports._tables import (
    BLAME_EXPLAINED,
    OUT_OF_SCOPE,
    blame_table,
    cheapest_lines,
    clean_base_notes,
    cost_table,
    detection_table,
    has_natural_separation,
    label_counts,
    label_table,
    labelled_corpora,
    legend_ramp,
    raw_flags_table,
    reference_differences_table,
    scorer_order,
    separation_table,
    stability_table,
    unscored_table,
)
from hybridjudge.study import StudyResult

__all__ = ["heatmap_legend", "render_html"]

TITLE = "hybridjudge mutation study"


def _md_inline(text: str) -> str:
    """Escape, then render the two Markdown marks the shared explanations use."""
    import re

    out = html.escape(text)
    out = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", out)
    out = re.sub(r"`(.+?)`", r"<code>\1</code>", out)
    return re.sub(r"\*(.+?)\*", r"<i>\1</i>", out)


def heatmap_legend() -> str:
    """The colour legend of the detection heatmap (and what hatching and † mean)."""
    swatches = "".join(
        f'<span style="background-color:{colour}" title="strength {strength:+.2f}"></span>'
        for strength, colour in legend_ramp()
    )
    return (
        '<div class="legend" aria-label="colour legend">'
        f'<span>misses the data guarantees <span class="ramp">{swatches}</span> detections the '
        "data guarantees</span>"
        '<span><span class="swatch" style="background:#f7f7f7"></span>pale: too few mutants '
        "to tell (wide interval) or about half</span>"
        f'<span><span class="swatch hatch"></span>{OUT_OF_SCOPE} out of scope for that scorer by '
        "construction</span></div>"
    )


_COLOUR_RULE = (
    '<p class="muted">Colour follows the Wilson 95% interval, not the bare rate: blue as deep as '
    "the interval's lower end is high, red as deep as its upper end is low. A 0/1 cell (interval "
    "0–79%) is pale; a 0/80 cell (0–5%) is deep red.</p>"
)


def _not_made(study: StudyResult) -> str:
    notes = _refusal_notes(study)
    if not notes:
        return ""
    items = "".join(f"<li>{_md_inline(note)}</li>" for note in notes)
    return f"<p><b>Mutants not made</b> (a class's row counts only the mutants made):</p><ul>{items}</ul>"


def _section(title: str, *parts: str) -> str:
    return f"<h2>{html.escape(title)}</h2>" + "".join(parts)


def render_html(study: StudyResult) -> str:
    """The whole study report as one self-contained HTML page."""
    a = study.analysis
    scorers = list(study.config.scorers)
    body: list[str] = [f"<h1>{TITLE}</h1>", facts_html(study_facts(study))]
    sampled = (
        f'<p class="note"><b>Sampled.</b> {html.escape(study.sampling.note)}</p>'
        if study.sampling is not None
        else ""
    )
    body.append(
        _section(
            "Detection per defect class",
            heatmap_legend(),
            # not in a scrolling block: its column labels stay on screen while the page scrolls
            detection_table(a, scorers, colour=True).to_html(),
            sampled,
            f"<p>{_md_inline(DETECTION_EXPLAINED)}</p>",
            f"<p>{_md_inline(LABELLED_ROW_EXPLAINED)}</p>" if labelled_corpora(a) else "",
            _COLOUR_RULE,
            "<p><b>Clean bases.</b> " + html.escape(" ".join(clean_base_notes(study))) + "</p>",
            _not_made(study),
        )
    )
    labelled = labelled_corpora(a)
    if labelled:
        parts = [f"<p>{_md_inline(LABELS_EXPLAINED)}</p>"]
        for corpus in labelled:
            parts.append(table_block(label_table(a, scorers, corpus).to_html()))
            parts.append(f"<p>{html.escape(label_counts(study, corpus))}.</p>")
        body.append(_section(LABELS_TITLE, *parts))
    if has_natural_separation(a):
        body.append(
            _section(
                "Separation of right and hallucinated answers (AUROC)",
                table_block(separation_table(a, scorers).to_html()),
                f"<p>{_md_inline(SEPARATION_EXPLAINED)}</p>",
            )
        )
    if a.thresholds:
        from hybridjudge.reports._thresholds import (
            THRESHOLDS_TITLE,
            threshold_table,
            thresholds_explained,
        )

        body.append(
            _section(
                THRESHOLDS_TITLE,
                f"<p>{_md_inline(thresholds_explained(a))}</p>",
                table_block(threshold_table(a).to_html()),
            )
        )
    if a.cascade:
        from hybridjudge.reports._cascade import (
            CASCADE_EXPLAINED,
            CASCADE_TITLE,
            cascade_savings,
            cascade_table,
        )

        saved = "".join(f"<li>{html.escape(line)}</li>" for line in cascade_savings(a, study))
        body.append(
            _section(
                CASCADE_TITLE,
                f"<p>{_md_inline(CASCADE_EXPLAINED)}</p>",
                table_block(cascade_table(a).to_html()),
                f"<ul>{saved}</ul>",
            )
        )
    if a.blame:
        body.append(
            _section(
                "Whose failure: the retriever's or the generator's",
                table_block(blame_table(a).to_html()),
                f"<p>{_md_inline(BLAME_EXPLAINED)}</p>",
            )
        )
    if a.cheapest:
        items = "".join(f"<li>{html.escape(line)}</li>" for line in cheapest_lines(a))
        body.append(
            _section(
                "Cheapest judge per defect class",
                f"<p>{_md_inline(CHEAPEST_EXPLAINED)}</p>",
                f'<ul class="cheapest">{items}</ul>',
            )
        )
    cost_parts = []
    if not have_matplotlib():
        cost_parts.append(
            '<p class="note">The chart needs matplotlib: <code>pip install '
            '"hybridjudge[report]"</code>, then <code>hybridjudge report RESULTS_DIR</code>. '
            "The table below is complete.</p>"
        )
    else:
        chart = cost_chart(a.cost)
        if chart is not None:
            cost_parts.append(figure_html(chart[0], alt=chart[1], caption=chart[1]))
    cost_parts.append(table_block(cost_table(a).to_html()))
    if any(c.includes_shared_claims for c in a.cost):
        cost_parts.append(
            '<p class="muted">Judge rows include the claim extraction both judges share, so they '
            "must not be added up. A cache hit counts at the latency it had when first made.</p>"
        )
    if study.config.judges:
        items = "".join(f"<li>{html.escape(u)}</li>" for u in judge_usage_sentences(study))
        cost_parts.append(f"<ul>{items}</ul>")
    body.append(_section("Cost and latency", *cost_parts))
    body.append(_section("Stability across repetitions", table_block(stability_table(a).to_html())))
    body.append(_section("Unscored evaluations", table_block(unscored_table(a).to_html())))
    body.append(
        _section("Raw flags and partial reactions", table_block(raw_flags_table(a).to_html()))
    )
    if study.reference is not None:
        ref = study.reference
        parts = []
        if study.reference_note:
            parts.append(f"<p>{html.escape(study.reference_note)}</p>")
        parts.append(detection_table(ref, scorer_order(ref), colour=True).to_html())
        if study.reference_differences:
            parts.append("<p>Where our deterministic scorer and the paper's disagree, and why:</p>")
            parts.append(table_block(reference_differences_table(study).to_html()))
        parts.append(table_block(stability_table(ref).to_html()))
        body.append(_section("Reference: the OpenGATE paper with the same rules", *parts))
    body.append(
        "<details><summary>The same report as Markdown (report.md)</summary><pre>"
        + html.escape(render_markdown(study))
        + "</pre></details>"
    )
    return page(TITLE, body)
