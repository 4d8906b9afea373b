"""The CI gate: fail when a detection rate falls or a false-alarm rate rises against a baseline.

The gate fails closed. Besides regressions it fails when the comparison itself cannot be
trusted:

- ``mismatch``: the two studies do not share their corpora, scorers (with several judges: the
  same judge names, each ``NAME:SCORER`` a scorer) and defect classes, or a named judge runs
  another model or endpoint than in the baseline;
- ``nothing_compared``: no rate was compared (e.g. a baseline with no cells), or a scorer of
  the current study has no measured cell in the baseline (e.g. every judge call of the baseline
  failed): that scorer is compared with nothing, so nothing about it is shown to hold;
- ``unscored``: a scorer of the current study, or of the baseline (the same per-scorer rule,
  :func:`hybridjudge._params.over_max_unscored`), has a share of unscored evaluations above
  ``max_unscored`` (judges that never ran must not pass a gate: their cells are not measured);
  ``baseline`` holds the baseline's share and ``current`` is ``None`` for the baseline's;
  the same threshold applies to each cell (a class of mutants under one scorer) of either
  study: a cell whose mutants were mostly left unscored is not compared (``baseline`` holds the
  threshold, ``current`` the cell's unscored share);
- ``not_measured``: a baseline cell has no scored output now.

:attr:`GateResult.exit_code` maps these onto the exit-code scheme of ``hybridjudge.cli._exit``:
2 for a comparison that cannot be made (mismatch, nothing compared), 3 for an incomplete current
study or baseline, 1 for a regression, 0 for a pass.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict

from hybridjudge._errors import ConfigError
from hybridjudge._params import over_max_unscored
from hybridjudge.study import (
    DetectionRow,
    StudyResult,
    UnscoredRow,
    unscored_count,
    unscored_share,
)

__all__ = ["GateFailure", "GateResult", "gate"]

_CANNOT_COMPARE = frozenset({"mismatch", "nothing_compared"})


class GateFailure(BaseModel):
    """One reason the gate fails, naming the cell when there is one."""

    model_config = ConfigDict(frozen=True)

    kind: str
    """``detection_fell``, ``false_alarms_rose``, ``not_measured``, ``unscored`` (of the current
    study or the baseline), ``mismatch`` or ``nothing_compared`` (overall, or for one scorer)."""
    corpus: str | None
    """Corpus (``None`` when the failure is about the whole study)."""
    defect_class: str | None
    """Defect class (``None`` for false alarms and study-wide failures)."""
    origin: str | None
    """Mutant origin (``None`` for false alarms and study-wide failures)."""
    scorer: str | None
    """Scorer (``None`` for study-wide failures)."""
    baseline: float | None
    """The baseline rate (or share)."""
    current: float | None
    """The current rate (or share)."""
    message: str
    """One line for the CI log."""


@dataclass(frozen=True)
class GateResult:
    """Every failure found, how many rates were compared, and the current unscored shares."""

    failures: list[GateFailure]
    compared: int
    unscored_share: dict[str, float] = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        """True when nothing failed (and at least one rate was compared)."""
        return not self.failures

    @property
    def exit_code(self) -> int:
        """2 cannot compare, 3 current study incomplete, 1 regression, 0 passed."""
        kinds = {f.kind for f in self.failures}
        if kinds & _CANNOT_COMPARE:
            return 2
        if "unscored" in kinds:
            return 3
        return 1 if kinds else 0


def _classes(study: StudyResult) -> set[tuple[str, str, str]]:
    return {(r.corpus, r.defect_class, r.origin) for r in study.analysis.detection}


def _identity(model: dict[str, str | float | int | None]) -> str:
    """What must not change for a named judge between baseline and now: model and endpoint."""
    return f"{model.get('model')} at {model.get('endpoint')}"


def _mismatch(current: StudyResult, baseline: StudyResult) -> list[GateFailure]:
    problems: list[str] = []
    corpora_now = {c.name for c in current.corpora}
    corpora_base = {c.name for c in baseline.corpora}
    if corpora_now != corpora_base:
        problems.append(f"corpora {sorted(corpora_now)} vs baseline {sorted(corpora_base)}")
    scorers_now, scorers_base = set(current.config.scorers), set(baseline.config.scorers)
    if scorers_now != scorers_base:
        problems.append(f"scorers {sorted(scorers_now)} vs baseline {sorted(scorers_base)}")
    judges_now = {j.name: _identity(j.model) for j in current.config.judges}
    judges_base = {j.name: _identity(j.model) for j in baseline.config.judges}
    for name in sorted(set(judges_now) & set(judges_base)):
        if judges_now[name] != judges_base[name]:
            problems.append(
                f"judge {name} is {judges_now[name]} now but was {judges_base[name]} in the "
                "baseline (a judge's rates are comparable only on the same model)"
            )
    classes_now, classes_base = _classes(current), _classes(baseline)
    if classes_now != classes_base:
        only_now = sorted(f"{c}/{d} [{o}]" for c, d, o in classes_now - classes_base)
        only_base = sorted(f"{c}/{d} [{o}]" for c, d, o in classes_base - classes_now)
        problems.append(
            "defect classes differ (only current: "
            f"{', '.join(only_now) or 'none'}; only baseline: {', '.join(only_base) or 'none'})"
        )
    return [
        GateFailure(
            kind="mismatch",
            corpus=None,
            defect_class=None,
            origin=None,
            scorer=None,
            baseline=None,
            current=None,
            message=f"the studies cannot be compared: {problem}; rerun the study with the "
            "baseline's corpora, mutation sets and scorers (or refresh the baseline)",
        )
        for problem in problems
    ]


def _reasons(row: UnscoredRow) -> str:
    """``"model_error 3, parse_failure 1"`` (empty when nothing is unscored)."""
    return ", ".join(f"{k} {v}" for k, v in row.by_reason.items())


def _unscored_summary(row: UnscoredRow) -> str:
    """``"4 of 4 evaluations unscored (model_error 4)"``."""
    reasons = _reasons(row) or "none"
    return f"{unscored_count(row)} of {row.evaluations} evaluations unscored ({reasons})"


def _baseline_failures(
    current: StudyResult, baseline: StudyResult, max_unscored: float
) -> list[GateFailure]:
    """A scorer of the current study with no measured cell in the baseline (nothing to compare
    it with: ``nothing_compared``), and a baseline scorer whose unscored share is above
    ``max_unscored`` (the baseline did not measure it fully: ``unscored``), both per scorer: a deterministic scorer's cells must not make a
    gate pass for judges whose baseline never ran."""
    measured: dict[str, int] = {}
    for d in baseline.analysis.detection:
        if d.n > 0 and d.rate is not None:
            measured[d.scorer] = measured.get(d.scorer, 0) + 1
    for f in baseline.analysis.false_alarms:
        if f.n > 0 and f.rate is not None:
            measured[f.scorer] = measured.get(f.scorer, 0) + 1
    rows = {row.scorer: row for row in baseline.analysis.unscored}
    baseline_scorers = set(baseline.config.scorers) | set(rows) | set(measured)
    failures: list[GateFailure] = []
    for scorer in current.config.scorers:
        if scorer not in baseline_scorers:
            continue  # reported as a mismatch of scorers
        row = rows.get(scorer)
        if not measured.get(scorer):
            why = f": {_unscored_summary(row)}" if row is not None and row.evaluations else ""
            failures.append(
                GateFailure(
                    kind="nothing_compared",
                    corpus=None,
                    defect_class=None,
                    origin=None,
                    scorer=scorer,
                    baseline=unscored_share(row) if row is not None else None,
                    current=None,
                    message=f"{scorer}: the baseline measured no cell of it{why}; it is "
                    "compared with nothing, so nothing about it is shown to hold; regenerate "
                    "the baseline with a run in which this scorer was measured",
                )
            )
        elif row is not None and over_max_unscored(
            unscored_count(row), row.evaluations, max_unscored
        ):
            share = unscored_share(row)
            failures.append(
                GateFailure(
                    kind="unscored",
                    corpus=None,
                    defect_class=None,
                    origin=None,
                    scorer=scorer,
                    baseline=share,
                    current=None,
                    message=f"the baseline's {scorer}: {_unscored_summary(row)}, "
                    f"{100 * share:.1f}% > max_unscored {100 * max_unscored:g}%; its baseline "
                    "rates are not fully measured: regenerate the baseline from a complete run, "
                    "or raise --max-unscored",
                )
            )
    return failures


def _thin_cell(row: DetectionRow, whose: str, max_unscored: float) -> GateFailure | None:
    """A cell whose mutants were mostly left unscored (``max_unscored``, per cell as per
    scorer): its rate rests on the few that were scored, so it is not compared."""
    total = row.n + row.unscored
    if not row.unscored or not over_max_unscored(row.unscored, total, max_unscored):
        return None
    share = row.unscored / total
    return GateFailure(
        kind="unscored",
        corpus=row.corpus,
        defect_class=row.defect_class,
        origin=row.origin,
        scorer=row.scorer,
        baseline=max_unscored,
        current=share,
        message=f"{whose}{row.corpus} / {row.defect_class} [{row.origin}] / {row.scorer}: "
        f"{row.unscored} of {total} mutants unscored ({100 * share:.1f}% > max_unscored "
        f"{100 * max_unscored:g}%); its rate ({row.detected}/{row.n}) is not measured",
    )


def gate(
    current: StudyResult,
    baseline: StudyResult,
    *,
    tolerance: float = 0.0,
    max_unscored: float = 0.0,
) -> GateResult:
    """Compare ``current`` with ``baseline`` cell by cell (never an aggregate), failing closed.

    A detection rate may fall, and a false-alarm rate rise, by at most ``tolerance`` (absolute,
    a fraction in [0, 1]). A baseline cell with no scored output now fails as not measured; a
    current or baseline scorer whose unscored share exceeds ``max_unscored`` fails as incomplete;
    studies that do not share corpora, scorers and defect classes, a scorer with no measured cell
    in the baseline, or a comparison of zero rates, fail too (the comparison cannot be made).

    Raises:
        ConfigError: ``tolerance`` or ``max_unscored`` is outside [0, 1].
    """
    if not 0.0 <= tolerance <= 1.0:
        raise ConfigError(f"tolerance must be a fraction in [0, 1], got {tolerance}")
    if not 0.0 <= max_unscored <= 1.0:
        raise ConfigError(f"max_unscored must be a fraction in [0, 1], got {max_unscored}")
    failures: list[GateFailure] = _mismatch(current, baseline)
    failures.extend(_baseline_failures(current, baseline, max_unscored))
    for row in current.analysis.unscored:
        missing = unscored_count(row)
        if over_max_unscored(missing, row.evaluations, max_unscored):
            scorer, share = row.scorer, unscored_share(row)
            above = (
                "every one"
                if missing == row.evaluations
                else f"{100 * share:.1f}% > max_unscored {100 * max_unscored:g}%"
            )
            failures.append(
                GateFailure(
                    kind="unscored",
                    corpus=None,
                    defect_class=None,
                    origin=None,
                    scorer=scorer,
                    baseline=max_unscored,
                    current=share,
                    message=f"{scorer}: {missing} of {row.evaluations} evaluations unscored "
                    f"({above}: {_reasons(row)}); its rates are not measured",
                )
            )
    compared = 0
    now = {(r.corpus, r.defect_class, r.origin, r.scorer): r for r in current.analysis.detection}
    for b in baseline.analysis.detection:
        if b.n == 0 or b.rate is None:
            continue
        key = (b.corpus, b.defect_class, b.origin, b.scorer)
        c = now.get(key)
        if c is None or c.n == 0 or c.rate is None:
            unscored = f", {c.unscored} unscored" if c is not None and c.unscored else ""
            failures.append(
                GateFailure(
                    kind="not_measured",
                    corpus=b.corpus,
                    defect_class=b.defect_class,
                    origin=b.origin,
                    scorer=b.scorer,
                    baseline=b.rate,
                    current=None,
                    message=f"{b.corpus} / {b.defect_class} [{b.origin}] / {b.scorer}: in the "
                    f"baseline ({b.detected}/{b.n}) but not measured now (0 scored{unscored})",
                )
            )
            continue
        thin = _thin_cell(b, "the baseline's ", max_unscored) or _thin_cell(c, "", max_unscored)
        if thin is not None:
            failures.append(thin)
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
                    message=f"{b.corpus} / {b.defect_class} [{b.origin}] / {b.scorer}: detection "
                    f"fell from {b.detected}/{b.n} ({100 * b.rate:.0f}%) to {c.detected}/{c.n} "
                    f"({100 * c.rate:.0f}%)",
                )
            )
    fa_now = {(r.corpus, r.scorer): r for r in current.analysis.false_alarms}
    for fb in baseline.analysis.false_alarms:
        if fb.n == 0 or fb.rate is None:
            continue
        fc = fa_now.get((fb.corpus, fb.scorer))
        if fc is None or fc.n == 0 or fc.rate is None:
            why = ""
            if fc is not None and fc.unlabelled:
                why = (
                    f": none of its {fc.unlabelled} answers is labelled correct (false alarms "
                    "count only those; give each record a label, docs/formats.md#labels)"
                )
            failures.append(
                GateFailure(
                    kind="not_measured",
                    corpus=fb.corpus,
                    defect_class=None,
                    origin=None,
                    scorer=fb.scorer,
                    baseline=fb.rate,
                    current=None,
                    message=f"{fb.corpus} / false alarms / {fb.scorer}: in the baseline but not "
                    f"measured now{why}",
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
                    message=f"{fb.corpus} / false alarms / {fb.scorer}: rose from "
                    f"{fb.flagged_every}/{fb.n} ({100 * fb.rate:.0f}%) to "
                    f"{fc.flagged_every}/{fc.n} ({100 * fc.rate:.0f}%)",
                )
            )
    if compared == 0:
        failures.append(
            GateFailure(
                kind="nothing_compared",
                corpus=None,
                defect_class=None,
                origin=None,
                scorer=None,
                baseline=None,
                current=None,
                message="no rate was compared: the baseline has no measured cell in common with "
                "the current study, so nothing is shown to hold; regenerate the baseline",
            )
        )
    return GateResult(
        failures=failures,
        compared=compared,
        unscored_share={row.scorer: unscored_share(row) for row in current.analysis.unscored},
    )
