"""Shared table shaping for every report format: detection cells, never aggregated across classes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hybridjudge.study._models import DetectionRow, FalseAlarmRow, StudyAnalysis

__all__ = [
    "ClassRow",
    "cell_text",
    "corpora",
    "detection_grid",
    "false_alarm_text",
    "fmt_ci",
    "fmt_pct",
    "scorer_order",
]

CLASS_LABELS = {
    "omission": "omission (dropped anchor)",
    "fabricated_number": "fabricated number",
    "non_abstention": "failure to abstain",
    "contradiction": "appended contradiction",
    "inversion": "meaning inversion",
    "natural": "natural hallucination",
}


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
        return f"{CLASS_LABELS.get(self.defect_class, self.defect_class)} [{self.origin}]"


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


def fmt_pct(value: float | None) -> str:
    """``0.8`` -> ``80%``; ``None`` -> ``n/a``."""
    return "n/a" if value is None else f"{100 * value:.0f}%"


def fmt_ci(low: float | None, high: float | None) -> str:
    """A Wilson interval as ``[52–97%]``."""
    if low is None or high is None:
        return ""
    return f"[{100 * low:.0f}–{100 * high:.0f}%]"


def cell_text(row: DetectionRow | None) -> str:
    """``4/5 (80%) [38–96%]`` with reacted-sometimes and scope markers."""
    if row is None or row.n == 0:
        return "—"
    text = f"{row.detected}/{row.n} ({fmt_pct(row.rate)}) {fmt_ci(row.ci_low, row.ci_high)}"
    extras = []
    if row.reacted_sometimes:
        extras.append(f"+{row.reacted_sometimes} sometimes")
    if row.unscored:
        extras.append(f"{row.unscored} unscored")
    if extras:
        text += " (" + ", ".join(extras) + ")"
    if row.in_scope is False:
        text += " †"
    return text


def false_alarm_text(row: FalseAlarmRow | None) -> str:
    """``1/4 (25%) [5–70%]`` with the clean bases flagged only sometimes."""
    if row is None or row.n == 0:
        return "—"
    extra = f" (+{row.flagged_sometimes} sometimes)" if row.flagged_sometimes else ""
    return f"{row.flagged_every}/{row.n} ({fmt_pct(row.rate)}) {fmt_ci(row.ci_low, row.ci_high)}{extra}"


def corpora(rows: Sequence[ClassRow]) -> list[str]:
    """Corpus names in order."""
    return list(dict.fromkeys(r.corpus for r in rows))
