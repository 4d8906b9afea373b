"""The CI gate: fail when a detection rate falls or a false-alarm rate rises against a baseline."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict

from hybridjudge._errors import ConfigError
from hybridjudge.study._models import StudyResult

__all__ = ["GateFailure", "GateResult", "gate"]


class GateFailure(BaseModel):
    """One regression, naming the class and scorer."""

    model_config = ConfigDict(frozen=True)

    kind: str
    """``detection_fell``, ``false_alarms_rose`` or ``not_measured``."""
    corpus: str
    """Corpus."""
    defect_class: str | None
    """Defect class (``None`` for false alarms)."""
    origin: str | None
    """Mutant origin (``None`` for false alarms)."""
    scorer: str
    """Scorer."""
    baseline: float | None
    """The baseline rate."""
    current: float | None
    """The current rate."""
    message: str
    """One line for the CI log."""


@dataclass(frozen=True)
class GateResult:
    """Every regression found, and how many cells were compared."""

    failures: list[GateFailure]
    compared: int

    @property
    def passed(self) -> bool:
        """True when nothing regressed."""
        return not self.failures


def gate(current: StudyResult, baseline: StudyResult, *, tolerance: float = 0.0) -> GateResult:
    """Compare ``current`` with ``baseline`` cell by cell (never an aggregate).

    A detection rate may fall, and a false-alarm rate rise, by at most ``tolerance`` (absolute,
    a fraction in [0, 1]). A baseline cell missing from the current study fails as not measured.
    """
    if not 0.0 <= tolerance <= 1.0:
        raise ConfigError(f"--tolerance must be a fraction in [0, 1], got {tolerance}")
    failures: list[GateFailure] = []
    compared = 0
    now = {(r.corpus, r.defect_class, r.origin, r.scorer): r for r in current.analysis.detection}
    for b in baseline.analysis.detection:
        if b.n == 0 or b.rate is None:
            continue
        key = (b.corpus, b.defect_class, b.origin, b.scorer)
        c = now.get(key)
        if c is None or c.n == 0 or c.rate is None:
            failures.append(
                GateFailure(
                    kind="not_measured",
                    corpus=b.corpus,
                    defect_class=b.defect_class,
                    origin=b.origin,
                    scorer=b.scorer,
                    baseline=b.rate,
                    current=None,
                    message=f"{b.corpus} / {b.defect_class} [{b.origin}] / {b.scorer}: in the baseline "
                    f"({b.detected}/{b.n}) but not measured now",
                )
            )
            continue
        compared += 1
        if c.rate < b.rate - tolerance - 1e-12:
            failures.append(
                GateFailure(
                    kind="detection_fell",
                    corpus=b.corpus,
                    defect_class=b.defect_class,
                    origin=b.origin,
                    scorer=b.scorer,
                    baseline=b.rate,
                    current=c.rate,
                    message=f"{b.corpus} / {b.defect_class} [{b.origin}] / {b.scorer}: detection fell "
                    f"from {b.detected}/{b.n} ({100 * b.rate:.0f}%) to {c.detected}/{c.n} ({100 * c.rate:.0f}%)",
                )
            )
    fa_now = {(r.corpus, r.scorer): r for r in current.analysis.false_alarms}
    for fb in baseline.analysis.false_alarms:
        if fb.n == 0 or fb.rate is None:
            continue
        fc = fa_now.get((fb.corpus, fb.scorer))
        if fc is None or fc.n == 0 or fc.rate is None:
            failures.append(
                GateFailure(
                    kind="not_measured",
                    corpus=fb.corpus,
                    defect_class=None,
                    origin=None,
                    scorer=fb.scorer,
                    baseline=fb.rate,
                    current=None,
                    message=f"{fb.corpus} / false alarms / {fb.scorer}: in the baseline but not measured now",
                )
            )
            continue
        compared += 1
        if fc.rate > fb.rate + tolerance + 1e-12:
            failures.append(
                GateFailure(
                    kind="false_alarms_rose",
                    corpus=fb.corpus,
                    defect_class=None,
                    origin=None,
                    scorer=fb.scorer,
                    baseline=fb.rate,
                    current=fc.rate,
                    message=f"{fb.corpus} / false alarms / {fb.scorer}: rose from {fb.flagged_every}/{fb.n} "
                    f"({100 * fb.rate:.0f}%) to {fc.flagged_every}/{fc.n} ({100 * fc.rate:.0f}%)",
                )
            )
    return GateResult(failures=failures, compared=compared)
