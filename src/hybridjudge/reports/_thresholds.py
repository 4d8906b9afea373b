"""The thresholds a study chose for a false-alarm budget, as one table for every report format."""

from __future__ import annotations

from hybridjudge.reports._table import Cell, Column, Row, Table
from hybridjudge.reports._tables import class_label, fmt_ci, fmt_pct
from hybridjudge.study import StudyAnalysis, ThresholdRow

__all__ = ["THRESHOLDS_EXPLAINED", "THRESHOLDS_TITLE", "threshold_table", "thresholds_explained"]

THRESHOLDS_TITLE = "Thresholds for a false-alarm budget"

THRESHOLDS_EXPLAINED = (
    "For each judge, the highest threshold (an output is flagged when its score is below it) "
    "that flags at most the budget's share of the clean outputs it was chosen on: the answers "
    "labelled correct, split by a seeded shuffle into a choosing half and a kept-back half. The "
    "interval is a 95% percentile bootstrap of the threshold (resampling the choosing half). "
    "The false alarms it gives are measured on the kept-back half, which did not choose it "
    "(Wilson 95%), and the defective outputs it flags (mutants, answers labelled incorrect) per "
    "defect class, never summed. An output's score is its mean over the repetitions; one "
    "unscored in some repetition is left out. `judge --threshold-from`, `gate "
    "--threshold-from` and `hybridjudge.testing.study_thresholds` read these thresholds."
)


def thresholds_explained(analysis: StudyAnalysis) -> str:
    """The explanation with the budget the study ran with."""
    budgets = sorted({r.budget for r in analysis.thresholds})
    shown = ", ".join(f"{b:g}" for b in budgets)
    return f"False-alarm budget: {shown}. {THRESHOLDS_EXPLAINED}"


def _threshold_cell(row: ThresholdRow) -> Cell:
    if row.threshold is None:
        return Cell("none", align="center", emphasis="muted", lines=(row.note or "",))
    return Cell(
        f"{row.threshold:.2f}",
        align="center",
        emphasis="strong",
        lines=(
            f"[{row.ci_low:.2f}–{row.ci_high:.2f}]",
            f"chosen on {row.choosing} clean, {row.choosing_false_alarms} flagged",
            *(
                ["flags no output: more clean outputs than the budget allows score 0"]
                if row.threshold <= 0.0
                else []
            ),
        ),
        title=f"{100 * row.confidence:.0f}% {row.method} ({row.resamples} resamples, seed "
        f"{row.seed})",
    )


def _kept_back_cell(row: ThresholdRow) -> Cell:
    if row.kept_back_false_alarms is None:
        return Cell("—", align="center", emphasis="muted")
    lines = [fmt_ci(row.kept_back_ci_low, row.kept_back_ci_high)]
    if row.unscored_clean:
        lines.append(f"{row.unscored_clean} clean unscored left out")
    return Cell(
        f"{row.kept_back_false_alarms}/{row.kept_back} ({fmt_pct(row.kept_back_rate)})",
        align="center",
        lines=tuple(lines),
    )


def threshold_table(analysis: StudyAnalysis) -> Table:
    """Scorer x (threshold [bootstrap], false alarms on the kept-back half [Wilson], and one row
    per defect class: the defective outputs flagged at the threshold [Wilson])."""
    rows: list[Row] = []
    for row in analysis.thresholds:
        head = (Cell(row.scorer, header=True), _threshold_cell(row), _kept_back_cell(row))
        if not row.detection:
            rows.append(Row((*head, Cell("—", emphasis="muted"), Cell("—", emphasis="muted"))))
            continue
        for index, det in enumerate(row.detection):
            lines = [fmt_ci(det.ci_low, det.ci_high)]
            if det.unscored:
                lines.append(f"({det.unscored} unscored)")
            flagged = Cell(
                f"{det.flagged}/{det.n} ({fmt_pct(det.rate)})",
                align="center",
                lines=tuple(lines),
            )
            label = Cell(f"{det.corpus}: {class_label(det.defect_class, det.origin)}")
            first = head if index == 0 else (Cell(""), Cell(""), Cell(""))
            rows.append(Row((*first, label, flagged)))
    columns = (
        Column("scorer"),
        Column("threshold [95% bootstrap]", align="center"),
        Column("false alarms, kept-back clean [Wilson 95%]", align="center"),
        Column("defect class"),
        Column("flagged at the threshold [Wilson 95%]", align="center"),
    )
    return Table(columns, tuple(rows))
