"""The study's tables, built once as :class:`~hybridjudge.reports._table.Table` s and rendered to
Markdown, HTML and the terminal alike. Detection cells are never aggregated across classes.

Colour rule of the detection heatmap (:func:`support_colour`): a cell is coloured by what its
Wilson 95% interval supports, not by its point rate. Blue deepens with the interval's lower end
(detection the data guarantees); red deepens as its upper end falls (misses the data guarantees);
a cell with few mutants has a wide interval and stays pale. So 0/1 (interval 0–79%) is drawn pale
pink while 0/80 (0–5%) is deep red, and 1/1 (21–100%) pale blue while 100/100 (96–100%) is deep
blue.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from hybridjudge.reports._format import (
    fmt_count,
    fmt_duration_ms,
    fmt_duration_s,
    fmt_tokens,
    fmt_usd,
)
from hybridjudge.reports._table import Align, Cell, Column, Row, Table
from hybridjudge.study import (
    CheapestRow,
    ControlRow,
    CostRow,
    DetectionRow,
    FalseAlarmRow,
    SeparationRow,
    StabilityRow,
    StudyAnalysis,
    StudyResult,
    UnscoredRow,
    split_scorer,
    unscored_count,
    unscored_share,
)

_Labels = tuple[tuple[str, Align], ...]
"""Measure labels of a per-scorer table, each with its alignment."""

__all__ = [
    "BLAME_EXPLAINED",
    "CLASS_LABELS",
    "CONTROL_SUFFIX",
    "OUT_OF_SCOPE",
    "ClassRow",
    "blame_table",
    "cell_text",
    "cheapest_lines",
    "class_label",
    "clean_base_notes",
    "corpora",
    "cost_table",
    "detection_grid",
    "detection_table",
    "false_alarm_text",
    "fmt_ci",
    "fmt_pct",
    "has_judges",
    "has_natural_separation",
    "label_counts",
    "label_table",
    "labelled_corpora",
    "legend_ramp",
    "raw_flags_table",
    "reference_differences_table",
    "scorer_column",
    "scorer_order",
    "separation_cell",
    "separation_table",
    "stability_table",
    "support_colour",
    "unscored_table",
]

CLASS_LABELS = {
    "omission": "omission (dropped anchor)",
    "fabricated_number": "fabricated number",
    "non_abstention": "failure to abstain",
    "contradiction": "appended contradiction",
    "inversion": "meaning inversion",
    "natural": "natural hallucination",
    "labelled_incorrect": "labelled incorrect",
    "evidence_dropped": "evidence dropped (retriever)",
    "distractor": "distractor passage (retriever)",
    "stale_passage": "stale passage (retriever)",
    "truncated": "context truncated (retriever)",
    "passages_shuffled": "passages shuffled (control)",
    "passage_duplicated": "passage duplicated (control)",
}
"""The one label of each defect class, used by every report format."""

OUT_OF_SCOPE = "†"
"""Marks a class the scorer cannot see by construction."""

FALSE_ALARM_LABEL = "bases labelled correct flagged every repetition (false alarms)"

LABELLED = "labelled"
"""The origin of the rows of answers labelled incorrect (a natural defect, no mutant)."""
CONTROL_SUFFIX = ": verdict changed (false alarms)"
"""After a negative control's label in the detection table: every reaction is a false alarm."""


def class_label(defect_class: str, origin: str | None = None) -> str:
    """``fabricated_number``, ``paper`` -> ``fabricated number [paper]``; the row of answers
    labelled incorrect is ``labelled incorrect`` (its origin is in its name)."""
    label = CLASS_LABELS.get(defect_class, defect_class.replace("_", " "))
    return f"{label} [{origin}]" if origin and origin != LABELLED else label


@dataclass(frozen=True, slots=True)
class ClassRow:
    """One defect class of one corpus and origin, with one detection cell per scorer."""

    corpus: str
    defect_class: str
    origin: str
    cells: dict[str, DetectionRow]

    @property
    def label(self) -> str:
        """Human label: the class and where its mutants came from."""
        return class_label(self.defect_class, self.origin)


def scorer_order(analysis: StudyAnalysis) -> list[str]:
    """Scorers in the order they first appear."""
    names = [r.scorer for r in analysis.detection] + [r.scorer for r in analysis.false_alarms]
    return list(dict.fromkeys(names))


def detection_grid(analysis: StudyAnalysis) -> list[ClassRow]:
    """Detection rows regrouped as (corpus, class, origin) x scorer, in the analysis order."""
    rows: dict[tuple[str, str, str], ClassRow] = {}
    for r in analysis.detection:
        key = (r.corpus, r.defect_class, r.origin)
        if key not in rows:
            rows[key] = ClassRow(r.corpus, r.defect_class, r.origin, {})
        rows[key].cells[r.scorer] = r
    return list(rows.values())


def corpora(rows: Sequence[ClassRow]) -> list[str]:
    """Corpus names in order."""
    return list(dict.fromkeys(r.corpus for r in rows))


def fmt_pct(value: float | None) -> str:
    """``0.8`` -> ``80%``; ``None`` -> ``n/a``."""
    return "n/a" if value is None else f"{100 * value:.0f}%"


def fmt_ci(low: float | None, high: float | None) -> str:
    """A Wilson interval as ``[52–97%]``."""
    if low is None or high is None:
        return ""
    return f"[{100 * low:.0f}–{100 * high:.0f}%]"


def _detection_parts(row: DetectionRow) -> tuple[str, list[str]]:
    main = f"{row.detected}/{row.n} ({fmt_pct(row.rate)})"
    lines = [fmt_ci(row.ci_low, row.ci_high)]
    extras = []
    if row.reacted_sometimes:
        extras.append(f"+{row.reacted_sometimes} sometimes")
    if row.unscored:
        extras.append(f"{row.unscored} unscored")
    if extras:
        lines.append("(" + ", ".join(extras) + ")")
    if row.in_scope is False:
        lines[0] = f"{lines[0]} {OUT_OF_SCOPE}".strip()
    return main, lines


def cell_text(row: DetectionRow | None) -> str:
    """``4/5 (80%) [38–96%]`` with reacted-sometimes, unscored and scope markers."""
    if row is None or row.n == 0:
        return "—"
    main, lines = _detection_parts(row)
    return " ".join([main, *lines])


def _false_alarm_parts(row: FalseAlarmRow) -> tuple[str, list[str]]:
    lines = [fmt_ci(row.ci_low, row.ci_high)] if row.n else []
    extras = []
    if row.flagged_sometimes:
        extras.append(f"+{row.flagged_sometimes} sometimes")
    if row.unscored:
        extras.append(f"{row.unscored} unscored")
    if row.unlabelled:
        extras.append(f"unlabelled: {row.unlabelled}, not in the rate")
    if extras:
        lines.append("(" + ", ".join(extras) + ")")
    return f"{row.flagged_every}/{row.n} ({fmt_pct(row.rate)})", lines


def false_alarm_text(row: FalseAlarmRow | None) -> str:
    """``1/4 (25%) [5–70%]`` with the bases labelled correct flagged only sometimes."""
    if row is None or (row.n == 0 and not row.unlabelled):
        return "—"
    main, lines = _false_alarm_parts(row)
    return " ".join([main, *lines])


# --- the colour rule ----------------------------------------------------------------------------

_RAMP = (
    (-1.0, (0xB2, 0x18, 0x2B)),
    (-0.5, (0xEF, 0x8A, 0x62)),
    (0.0, (0xF7, 0xF7, 0xF7)),
    (0.5, (0x67, 0xA9, 0xCF)),
    (1.0, (0x21, 0x66, 0xAC)),
)
"""ColorBrewer RdBu (colour-blind safe), red = misses, blue = detections."""


def _ramp(value: float) -> str:
    v = max(-1.0, min(1.0, value))
    for (x0, c0), (x1, c1) in itertools.pairwise(_RAMP):
        if v <= x1:
            t = (v - x0) / (x1 - x0)
            rgb = [round(a + (b - a) * t) for a, b in zip(c0, c1, strict=True)]
            return "#{:02x}{:02x}{:02x}".format(*rgb)
    return "#2166ac"  # pragma: no cover


def support_colour(ci_low: float | None, ci_high: float | None) -> tuple[str, str, float]:
    """Fill, ink and strength in [-1, 1] of a detection cell from its Wilson interval.

    strength = lower end − (1 − upper end): positive when the interval guarantees detections,
    negative when it guarantees misses, near 0 when it is wide (few mutants) or centred on 50%.
    """
    if ci_low is None or ci_high is None:
        return "#ffffff", "#59636e", 0.0
    strength = round(ci_low - (1.0 - ci_high), 2)
    ink = "#ffffff" if abs(strength) >= 0.6 else "#1f2328"
    return _ramp(strength), ink, strength


def legend_ramp() -> list[tuple[float, str]]:
    """The legend's swatches: (strength, colour) from −1 to 1 in steps of 0.25."""
    return [(s / 4, _ramp(s / 4)) for s in range(-4, 5)]


# --- tables ------------------------------------------------------------------------------------


def has_judges(scorers: Sequence[str]) -> bool:
    """Whether the scorers belong to named judges (``NAME:SCORER``), i.e. column groups."""
    return any(split_scorer(s)[0] is not None for s in scorers)


def scorer_column(scorer: str, align: Align = "center") -> Column:
    """A scorer's column: ``mini:support`` becomes ``support`` in the column group ``mini``."""
    judge, base = split_scorer(scorer)
    return Column(base, align=align, group=judge)


def _detection_cell(row: DetectionRow | None, *, colour: bool) -> Cell:
    if row is None or row.n == 0:
        return Cell("—", align="center", emphasis="muted", title="not scored by this scorer")
    main, lines = _detection_parts(row)
    if row.in_scope is False:
        return Cell(
            main,
            align="center",
            lines=tuple(lines),
            hatch=colour,
            title="out of scope: this scorer cannot see this class by construction",
        )
    fill = ink = None
    if colour:
        fill, ink, _ = support_colour(row.ci_low, row.ci_high)
    return Cell(
        main,
        align="center",
        lines=tuple(lines),
        fill=fill,
        ink=ink,
        title=(
            f"{row.detected} of {row.n} answers labelled incorrect flagged in every repetition"
            if row.origin == LABELLED
            else f"{row.detected} of {row.n} mutants detected in every repetition"
        ),
    )


def _false_alarm_cell(row: FalseAlarmRow | None, *, colour: bool) -> Cell:
    if row is None or (row.n == 0 and not row.unlabelled):
        return Cell("—", align="center", emphasis="muted")
    main, lines = _false_alarm_parts(row)
    fill = ink = None
    if colour:
        # few false alarms is good: the rule with the roles of the two ends swapped
        low = None if row.ci_high is None else 1.0 - row.ci_high
        high = None if row.ci_low is None else 1.0 - row.ci_low
        fill, ink, _ = support_colour(low, high)
    return Cell(
        main,
        align="center",
        lines=tuple(lines),
        fill=fill,
        ink=ink,
        emphasis="em",
        title=f"{row.flagged_every} of {row.n} bases labelled correct flagged in every repetition",
    )


def _control_as_false_alarm(row: ControlRow) -> FalseAlarmRow:
    """A negative control's verdict changes shown as the false alarms they are."""
    return FalseAlarmRow(
        corpus=row.corpus,
        scorer=row.scorer,
        n=row.n,
        flagged_every=row.changed_every,
        flagged_sometimes=row.changed_sometimes,
        unscored=row.unscored,
        rate=row.rate,
        ci_low=row.ci_low,
        ci_high=row.ci_high,
    )


def blame_table(analysis: StudyAnalysis) -> Table:
    """Per corpus and system: the failed outputs and the share that is the retriever's and the
    generator's (``both`` counts in each share)."""
    columns = (
        Column("corpus"),
        Column("system"),
        Column("failures", align="right"),
        Column("retrieval", align="right"),
        Column("generation", align="right"),
        Column("both", align="right"),
        Column("unknown", align="right"),
        Column("retriever's share", align="right"),
        Column("generator's share", align="right"),
    )
    rows = [
        Row(
            (
                Cell(r.corpus),
                Cell(r.system),
                *(
                    Cell(fmt_count(v), align="right")
                    for v in (r.failures, r.retrieval, r.generation, r.both, r.unknown)
                ),
                Cell(fmt_pct(r.retrieval_share), align="right"),
                Cell(fmt_pct(r.generation_share), align="right"),
            )
        )
        for r in analysis.blame
    ]
    return Table(columns, tuple(rows))


BLAME_EXPLAINED = (
    "Every output that failed (the deterministic checks flagged it, or a judge in every "
    "repetition) is blamed: **retrieval** when a required fact (an anchor, or a figure or name "
    "of the reference answer) is not in the context it was given and that explains every "
    "problem of the answer; **generation** when every required fact is in the context and the "
    "answer still misstates, omits or contradicts; **both**; **unknown** when nothing is known "
    "to be required. A share counts *both* for each side. Deterministic, no model call; each "
    "call's evidence is in `study.json` (`blame`) and `observations.csv`."
)


def detection_table(
    analysis: StudyAnalysis,
    scorers: Sequence[str],
    *,
    colour: bool = False,
    corpus: str | None = None,
) -> Table:
    """Defect classes x scorers, one group row per corpus, then each corpus's false alarms.

    ``colour`` fills each cell by :func:`support_colour` and hatches out-of-scope cells (HTML).
    ``corpus`` keeps one corpus and drops the group rows.
    """
    grid = detection_grid(analysis)
    names = [corpus] if corpus is not None else corpora(grid)
    rows: list[Row] = []
    for name in names:
        if corpus is None:
            rows.append(Row((Cell(name),), group=True))
        for r in (r for r in grid if r.corpus == name):
            rows.append(
                Row(
                    (
                        Cell(r.label, header=True),
                        *(_detection_cell(r.cells.get(s), colour=colour) for s in scorers),
                    )
                )
            )
        fa = {r.scorer: r for r in analysis.false_alarms if r.corpus == name}
        rows.append(
            Row(
                (
                    Cell(FALSE_ALARM_LABEL, header=True, emphasis="em"),
                    *(_false_alarm_cell(fa.get(s), colour=colour) for s in scorers),
                )
            )
        )
        for control in dict.fromkeys(c.control for c in analysis.controls if c.corpus == name):
            cells = {
                c.scorer: _control_as_false_alarm(c)
                for c in analysis.controls
                if c.corpus == name and c.control == control
            }
            rows.append(
                Row(
                    (
                        Cell(class_label(control) + CONTROL_SUFFIX, header=True, emphasis="em"),
                        *(_false_alarm_cell(cells.get(s), colour=colour) for s in scorers),
                    )
                )
            )
    columns = (Column("defect class"), *(scorer_column(s) for s in scorers))
    return Table(columns, tuple(rows), css_class="heat" if colour else None)


def separation_cell(row: SeparationRow | None) -> Cell:
    """``0.81`` with its interval and the answers scored / left out unscored."""
    if row is None:
        return Cell("—", align="center", emphasis="muted", title="not scored by this scorer")
    wrong = "wrong" if row.origin == LABELLED else "hallucinated"
    counts = f"{row.positives} right, {row.negatives} {wrong}"
    unscored = row.unscored_positives + row.unscored_negatives
    lines = []
    if row.auroc is None:
        main = "n/a"
        lines.append("one group has no scored answer")
    else:
        main = f"{row.auroc:.2f}"
        lines.append(f"[{row.ci_low:.2f}–{row.ci_high:.2f}]")
    lines.append(counts)
    if unscored:
        lines.append(f"{unscored} unscored left out")
    return Cell(
        main,
        align="center",
        lines=tuple(lines),
        title=f"AUROC of right vs {wrong} answers, {100 * row.confidence:.0f}% "
        f"{row.method} ({row.resamples} resamples, seed {row.seed})",
    )


def separation_table(analysis: StudyAnalysis, scorers: Sequence[str]) -> Table:
    """Corpora with natural hallucinations x scorers: the AUROC of right vs hallucinated answers
    with its bootstrap interval, the answers scored and the unscored left out (the answers
    labelled correct vs incorrect are in :func:`label_table`)."""
    natural = [r for r in analysis.separation if r.origin == "natural"]
    by_key = {(r.corpus, r.scorer): r for r in natural}
    names = list(dict.fromkeys(r.corpus for r in natural))
    rows = [
        Row(
            (
                Cell(f"{name}: right vs hallucinated answers", header=True),
                *(separation_cell(by_key.get((name, s))) for s in scorers),
            )
        )
        for name in names
    ]
    columns = (Column("AUROC [95% bootstrap]"), *(scorer_column(s) for s in scorers))
    return Table(columns, tuple(rows))


def has_natural_separation(analysis: StudyAnalysis) -> bool:
    """Whether some corpus has natural hallucinations (rows of :func:`separation_table`)."""
    return any(r.origin == "natural" for r in analysis.separation)


def labelled_corpora(analysis: StudyAnalysis) -> list[str]:
    """Corpora with answers labelled incorrect, in order (each gets a :func:`label_table`)."""
    return list(dict.fromkeys(r.corpus for r in analysis.detection if r.origin == LABELLED))


def label_table(analysis: StudyAnalysis, scorers: Sequence[str], corpus: str) -> Table:
    """Which scorer to trust on the user's own labelled answers: per scorer, the answers
    labelled incorrect it flagged (detection), the answers labelled correct it flagged (false
    alarms: only those count) and the AUROC of right vs wrong with its bootstrap interval."""
    wrong = {r.scorer: r for r in analysis.detection if r.corpus == corpus and r.origin == LABELLED}
    alarms = {r.scorer: r for r in analysis.false_alarms if r.corpus == corpus}
    auroc = {
        r.scorer: r for r in analysis.separation if r.corpus == corpus and r.origin == LABELLED
    }
    rows = (
        Row(
            (
                Cell("wrong answers flagged (labelled incorrect: detection)", header=True),
                *(_detection_cell(wrong.get(s), colour=False) for s in scorers),
            )
        ),
        Row(
            (
                Cell("right answers flagged (labelled correct: false alarms)", header=True),
                *(_false_alarm_cell(alarms.get(s), colour=False) for s in scorers),
            )
        ),
        Row(
            (
                Cell("AUROC right vs wrong [95% bootstrap]", header=True),
                *(separation_cell(auroc.get(s)) for s in scorers),
            )
        ),
    )
    columns = (Column(f"{corpus}: your labelled answers"), *(scorer_column(s) for s in scorers))
    return Table(columns, rows)


def label_counts(study: StudyResult, corpus: str) -> str:
    """``mine: 12 answers labelled correct, 9 incorrect; unlabelled: 2, not in any false-alarm
    rate``."""
    bases = [o for o in study.outputs if o.corpus == corpus and o.base_id is None]
    counts = Counter(o.clean for o in bases)
    return (
        f"{corpus}: {counts.get(True, 0)} answers labelled correct, {counts.get(False, 0)} "
        f"labelled incorrect; unlabelled: {counts.get(None, 0)}, not in any false-alarm rate"
    )


def cheapest_lines(analysis: StudyAnalysis) -> list[str]:
    """One line per (corpus, defect class, origin): the cheapest LLM scorer detecting it in
    every repetition, or why none does."""
    return [_cheapest_line(row) for row in analysis.cheapest]


def _cheapest_line(row: CheapestRow) -> str:
    head = f"{row.corpus} / {class_label(row.defect_class, row.origin)}: "
    what = "answer labelled incorrect" if row.origin == LABELLED else "mutant"
    if row.scorer is None:
        if row.best is None:
            return head + "no LLM scorer measured it"
        return (
            head + f"no LLM scorer detects every {what} in every repetition (best: "
            f"{row.best}, {row.best_detected}/{row.best_n})."
        )
    judge, base = split_scorer(row.scorer)
    who = f"judge {judge} ({base})" if judge else row.scorer
    price = (
        "price unknown"
        if row.usd_per_1000 is None
        else f"{fmt_usd(row.usd_per_1000)} per 1,000 evaluations"
    )
    text = head + f"cheapest: {who}, {price}, {row.n}/{row.n} detected"
    others = [s for s in row.detecting if s != row.scorer]
    if others:
        text += "; also detected by " + ", ".join(others)
    return text + "."


def _metric_table(scorers: Sequence[str], metrics: Sequence[tuple[str, Sequence[str]]]) -> Table:
    """Metrics as rows, one column per scorer grouped by judge (the layout with several
    judges: each judge a column group)."""
    columns = (Column("measure"), *(scorer_column(s, align="right") for s in scorers))
    rows = [
        Row((Cell(label, header=True), *(Cell(v, align="right") for v in values)))
        for label, values in metrics
    ]
    return Table(columns, tuple(rows))


def _stability_values(s: StabilityRow) -> list[str]:
    return [
        fmt_count(s.outputs),
        fmt_count(s.verdict_flips),
        fmt_count(s.outputs_with_movement),
        f"{s.max_range:.2f}",
        f"{s.mean_range:.2f}",
        "yes" if s.identical_across_repetitions else "no",
    ]


_STABILITY_LABELS: _Labels = (
    ("outputs", "right"),
    ("verdict flips", "right"),
    ("outputs whose score moved", "right"),
    ("max range", "right"),
    ("mean range", "right"),
    ("identical every repetition", "left"),
)


def _unscored_values(u: UnscoredRow) -> list[str]:
    return [
        fmt_count(u.evaluations),
        f"{unscored_count(u)} of {fmt_count(u.evaluations)} ({100 * unscored_share(u):.1f}%)",
        ", ".join(f"{k.replace('_', ' ')}: {v}" for k, v in u.by_reason.items()) or "none",
    ]


_UNSCORED_LABELS: _Labels = (
    ("evaluations", "right"),
    ("unscored", "right"),
    ("unscored by reason", "left"),
)


def _cost_values(c: CostRow) -> list[str]:
    return [
        fmt_count(c.evaluations),
        fmt_count(c.calls),
        fmt_count(c.prompt_tokens),
        fmt_count(c.completion_tokens),
        fmt_usd(c.usd_per_1000),
        fmt_duration_s(c.wall_s_per_repetition) + (" (shared)" if c.shared_wall else ""),
        fmt_duration_ms(c.median_ms),
        fmt_duration_ms(c.p95_ms),
        fmt_count(c.cache_hits),
        fmt_usd(c.saved_usd),
        fmt_duration_s(c.saved_s),
    ]


_COST_LABELS: _Labels = tuple(
    (label, "right")
    for label in (
        "evaluations",
        "model calls",
        "prompt tokens",
        "completion tokens",
        "$ per 1,000 evaluations",
        "wall time per repetition",
        "median latency",
        "p95 latency",
        "cache hits",
        "saved $",
        "saved time",
    )
)


def _per_scorer(scorers: Sequence[str], labels: _Labels, cells: Sequence[Sequence[str]]) -> Table:
    """One row per scorer (*cells*: each scorer's values in the order of *labels*); with several
    judges, the measures as rows and one column per scorer grouped by judge."""
    if has_judges(scorers):
        measures = [(label, [c[i] for c in cells]) for i, (label, _) in enumerate(labels)]
        return _metric_table(scorers, measures)
    columns = [Column("scorer"), *(Column(label, align) for label, align in labels)]
    return Table.of(columns, [[s, *c] for s, c in zip(scorers, cells, strict=True)])


def raw_flags_table(analysis: StudyAnalysis) -> Table:
    """Per (corpus, class, scorer): n, detected, reacted sometimes, raw flags, unscored."""
    cols = [
        Column("corpus"),
        Column("defect class"),
        Column("scorer"),
        *(
            Column(label, align="right")
            for label in (
                "n",
                "detected",
                "reacted sometimes",
                "flagged every repetition",
                "unscored",
            )
        ),
    ]
    rows = [
        [
            r.corpus,
            class_label(r.defect_class, r.origin),
            r.scorer,
            str(r.n),
            str(r.detected),
            str(r.reacted_sometimes),
            str(r.raw_flags),
            str(r.unscored),
        ]
        for r in analysis.detection
    ]
    return Table.of(cols, [[_num(v, i) for i, v in enumerate(row)] for row in rows])


def _num(value: str, index: int) -> Cell:
    return Cell(value, align="right" if index >= 3 else None)


def stability_table(analysis: StudyAnalysis) -> Table:
    """Per scorer: verdict flips and score movement across repetitions (with several judges,
    one column per scorer grouped by judge)."""
    rows = analysis.stability
    return _per_scorer(
        [r.scorer for r in rows], _STABILITY_LABELS, [_stability_values(r) for r in rows]
    )


def unscored_table(analysis: StudyAnalysis) -> Table:
    """Per scorer: evaluations, the unscored share and the unscored counts by reason (with
    several judges, one column per scorer grouped by judge)."""
    rows = analysis.unscored
    return _per_scorer(
        [r.scorer for r in rows], _UNSCORED_LABELS, [_unscored_values(r) for r in rows]
    )


def cost_table(analysis: StudyAnalysis) -> Table:
    """Per scorer: calls, tokens, price, wall time, latency and what the cache saved (with
    several judges, one column per scorer grouped by judge)."""
    rows = analysis.cost
    return _per_scorer([r.scorer for r in rows], _COST_LABELS, [_cost_values(r) for r in rows])


def reference_differences_table(study: StudyResult) -> Table:
    """Paper mutants on which our deterministic scorer and the paper's disagree, and why."""
    cols = ["output", "defect class", "ours", "paper", "our new issues", "paper's new issues"]
    rows = [
        [
            d.output_id,
            class_label(d.defect_class),
            "reacted" if d.ours_reacted else "no reaction",
            "reacted" if d.paper_reacted else "no reaction",
            "; ".join(d.ours_new_issues) or "—",
            "; ".join(d.paper_new_issues) or "—",
        ]
        for d in study.reference_differences
    ]
    return Table.of(cols, rows)


def tokens_per_evaluation(prompt: int, completion: int, evaluations: int) -> str:
    """Tokens per evaluation, formatted."""
    return fmt_tokens((prompt + completion) / evaluations) if evaluations else "0"


def clean_base_notes(study: StudyResult) -> list[str]:
    """Why the false-alarm denominator of each corpus is what it is.

    False alarms count only base outputs labelled correct (``clean`` true); e.g. OpenGATE ships
    6 bases of which 2 are known-faulty production outputs, labelled incorrect. A base labelled
    incorrect is in the row ``labelled incorrect``; an unlabelled base is in no false-alarm rate.
    """
    notes = []
    for corpus in dict.fromkeys(o.corpus for o in study.outputs):
        bases = [o for o in study.outputs if o.corpus == corpus and o.base_id is None]
        faulty = [o.id for o in bases if o.clean is False]
        counts = Counter(o.clean for o in bases)
        unlabelled = counts.get(None, 0)
        text = (
            f"{corpus}: {len(bases)} base outputs, {counts.get(True, 0)} labelled correct count "
            "as clean"
        )
        if faulty:
            shown = ", ".join(faulty[:4]) + (
                f" and {len(faulty) - 4} more" if len(faulty) > 4 else ""
            )
            text += (
                f"; {len(faulty)} labelled incorrect (clean = false: {shown}) are the row "
                "'labelled incorrect', since flagging a wrong answer is not a false alarm"
            )
        counted = max((r.n for r in study.analysis.false_alarms if r.corpus == corpus), default=0)
        if unlabelled and counted > counts.get(True, 0):
            # a study written before labels (format 1 or 2) counted the unlabelled as clean
            text += (
                f"; unlabelled: {unlabelled}, presumed clean in this study's false alarms (it was "
                "written before labels; run it again to leave them out)"
            )
        elif unlabelled:
            text += f"; unlabelled: {unlabelled}, not in any false-alarm rate"
        notes.append(text + ".")
    if study.sampling is not None:
        notes.append("The judges' false alarms count only the clean bases in their sample.")
    return notes
