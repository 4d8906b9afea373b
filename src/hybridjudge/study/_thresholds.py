"""Thresholds from the study: the highest threshold that keeps false alarms within a budget.

For one judge (or peer) scorer, the clean outputs (bases labelled correct, ``clean`` true) are
split by a seeded shuffle into a *choosing* half and a *kept-back* half. On the choosing half,
with ``m`` scores sorted ascending and ``k = floor(budget * m)`` false alarms allowed, the
threshold is the ``(k+1)``-th smallest score: no higher threshold flags (score below it) at most
``k`` of them. The threshold gets a percentile-bootstrap interval (resampling the choosing half)
and is measured on what did not choose it: the false alarms on the kept-back half (Wilson
interval) and the defective outputs it flags (mutants and bases labelled incorrect), one row per
defect class, never summed over classes.

With fewer than ``ceil(1 / budget)`` choosing scores, ``k`` is 0 whatever the budget, so the
budget cannot be told apart from "no false alarm at all": the row says so
(``status="too_few_clean"``) and gives no threshold.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence

import numpy as np
import numpy.typing as npt

from hybridjudge._errors import InputError
from hybridjudge._stats import BOOTSTRAP_METHOD, bootstrap_interval, wilson_interval
from hybridjudge.study._models import (
    Observation,
    StudyResult,
    ThresholdDetection,
    ThresholdRow,
)

__all__ = [
    "THRESHOLD_RESAMPLES",
    "at_thresholds",
    "check_budget",
    "choose_threshold",
    "chosen_thresholds",
    "clean_needed",
    "plain_thresholds",
    "split_clean",
    "study_thresholds",
    "with_thresholds",
]

THRESHOLD_RESAMPLES = 2000
"""Bootstrap resamples of each threshold's interval."""

_EPS = 1e-9  # budget * m and 1 / budget are read as the counts they are meant to be


def check_budget(budget: object, where: str = "false_alarm_budget") -> float:
    """The false-alarm budget as a float strictly between 0 and 1.

    Raises:
        InputError: ``invalid_budget`` when it is not a number in (0, 1).
    """
    if (
        isinstance(budget, bool)
        or not isinstance(budget, int | float)
        or not 0.0 < float(budget) < 1.0
    ):
        raise InputError(
            f"{where}={budget!r} is not a share strictly between 0 and 1; pass e.g. 0.05 "
            "(at most 5% of the clean outputs flagged)",
            code="invalid_budget",
        )
    return float(budget)


def clean_needed(budget: float) -> int:
    """Clean outputs the choosing half needs for ``budget``: ``ceil(1 / budget)`` (with fewer,
    ``floor(budget * m)`` is 0 and the budget allows no false alarm at all)."""
    return math.ceil(1.0 / check_budget(budget) - _EPS)


def split_clean(output_ids: Sequence[str], seed: int = 0) -> tuple[list[str], list[str]]:
    """``(choosing, kept_back)``: the ids (sorted first, so the order they come in does not
    matter) shuffled with ``numpy.random.default_rng(seed)``; the first ``ceil(n/2)`` choose."""
    ids = sorted(set(output_ids))
    order = np.random.default_rng(seed).permutation(len(ids))
    shuffled = [ids[i] for i in order]
    half = (len(ids) + 1) // 2
    return shuffled[:half], shuffled[half:]


def _kth(k: int) -> Callable[[npt.NDArray[np.float64]], npt.NDArray[np.float64]]:
    def statistic(batch: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        return np.sort(batch, axis=1)[:, k]

    return statistic


def choose_threshold(
    scorer: str,
    choosing: Sequence[float],
    kept_back: Sequence[float],
    defective: Mapping[tuple[str, str, str], Sequence[float | None]],
    *,
    budget: float,
    unscored_clean: int = 0,
    seed: int = 0,
    resamples: int = THRESHOLD_RESAMPLES,
    confidence: float = 0.95,
) -> ThresholdRow:
    """Choose one scorer's threshold on ``choosing`` and measure it on the rest.

    Parameters
    ----------
    scorer : str
        The scorer's name (for the row).
    choosing, kept_back : sequence of float
        Scores in [0, 1] of the clean outputs of each half (see :func:`split_clean`).
    defective : mapping
        ``(corpus, defect class, origin) -> scores`` of the defective outputs (``None``: left
        out, unscored in some repetition).
    budget : float
        The largest share of clean outputs the threshold may flag, in (0, 1).

    Returns
    -------
    ThresholdRow
        ``status="chosen"`` with the threshold, its interval and what it gives; or
        ``status="too_few_clean"`` with ``note`` and no threshold when ``len(choosing)`` is
        below :func:`clean_needed`.
    """
    budget = check_budget(budget)
    need = clean_needed(budget)
    m, n_kept = len(choosing), len(kept_back)
    common = {
        "scorer": scorer,
        "budget": budget,
        "confidence": confidence,
        "resamples": resamples,
        "seed": seed,
        "method": BOOTSTRAP_METHOD,
        "clean": m + n_kept,
        "choosing": m,
        "needed": need,
        "unscored_clean": unscored_clean,
        "kept_back": n_kept,
    }
    if m < need or n_kept == 0:
        note = (
            f"not enough clean outputs: {m} to choose on, need at least {need} for a "
            f"false-alarm budget of {budget:g} (ceil(1/budget)), so {2 * need} clean outputs "
            "labelled correct in all, half kept back; no threshold chosen"
        )
        return ThresholdRow(
            **common,
            status="too_few_clean",
            threshold=None,
            ci_low=None,
            ci_high=None,
            choosing_false_alarms=None,
            kept_back_false_alarms=None,
            kept_back_rate=None,
            kept_back_ci_low=None,
            kept_back_ci_high=None,
            note=note,
        )
    scores = np.sort(np.asarray(choosing, dtype=float))
    allowed = math.floor(budget * m + _EPS)
    threshold = float(scores[allowed])
    low, high = bootstrap_interval(
        _kth(allowed),
        scores,
        n_resamples=resamples,
        confidence=confidence,
        seed=seed,
        vectorized=True,
    )
    kept = np.asarray(kept_back, dtype=float)
    alarms = int(np.sum(kept < threshold))
    kept_low, kept_high = wilson_interval(alarms, n_kept)
    detection = []
    for (corpus, defect, origin), values in defective.items():
        scored = [v for v in values if v is not None]
        flagged = sum(1 for v in scored if v < threshold)
        rate = det_low = det_high = None
        if scored:
            rate = flagged / len(scored)
            det_low, det_high = wilson_interval(flagged, len(scored))
        detection.append(
            ThresholdDetection(
                corpus=corpus,
                defect_class=defect,
                origin=origin,
                n=len(scored),
                flagged=flagged,
                unscored=len(values) - len(scored),
                rate=rate,
                ci_low=det_low,
                ci_high=det_high,
            )
        )
    return ThresholdRow(
        **common,
        status="chosen",
        threshold=threshold,
        ci_low=low,
        ci_high=high,
        choosing_false_alarms=int(np.sum(scores < threshold)),
        kept_back_false_alarms=alarms,
        kept_back_rate=alarms / n_kept,
        kept_back_ci_low=kept_low,
        kept_back_ci_high=kept_high,
        detection=tuple(detection),
    )


def _mean_score(per_rep: Mapping[int, Observation], repetitions: int) -> float | None:
    """The mean score over the repetitions, ``None`` when unscored (or missing) in one."""
    values = [per_rep[r].score if r in per_rep else None for r in range(repetitions)]
    if any(v is None for v in values):
        return None
    return float(np.mean([v for v in values if v is not None]))


def study_thresholds(
    result: StudyResult,
    budget: float,
    *,
    seed: int = 0,
    resamples: int = THRESHOLD_RESAMPLES,
) -> tuple[ThresholdRow, ...]:
    """One :class:`ThresholdRow` per judge or peer scorer of ``result`` (the deterministic
    scorer's verdict is pass/fail, not a score to threshold), chosen for ``budget``.

    Clean outputs are the bases labelled correct the scorer ran on; defective ones its mutants
    and the bases labelled incorrect. An output's score is its mean over the repetitions; one
    unscored in any repetition is left out and counted. Corpora are pooled for the threshold
    (one threshold is deployed), and its detection is given per corpus and defect class.
    """
    from hybridjudge.study._analysis import LABELLED_INCORRECT, _defect_sort_key, _family

    budget = check_budget(budget)
    reps = result.config.repetitions
    by_key: dict[tuple[str, str], dict[int, Observation]] = defaultdict(dict)
    for obs in result.observations:
        if obs.status == "scored":
            by_key[(obs.output_id, obs.scorer)][obs.repetition] = obs
        else:
            by_key.setdefault((obs.output_id, obs.scorer), {})  # ran, unscored: no score
    ran = set(by_key)
    rows = []
    for scorer in result.config.scorers:
        if _family(scorer) == "deterministic":
            continue
        clean: dict[str, float] = {}
        unscored_clean = 0
        defective: dict[tuple[str, str, str], list[float | None]] = defaultdict(list)
        for rec in result.outputs:
            if (rec.id, scorer) not in ran:
                continue  # outside the judge sample
            score = _mean_score(by_key[(rec.id, scorer)], reps)
            if rec.base_id is None and rec.clean is True:
                if score is None:
                    unscored_clean += 1
                else:
                    clean[rec.id] = score
            elif rec.base_id is None and rec.clean is False:
                defective[(rec.corpus, LABELLED_INCORRECT, "labelled")].append(score)
            elif rec.base_id is not None and rec.defect is not None:
                defective[(rec.corpus, rec.defect, rec.origin)].append(score)
        corpora = list(dict.fromkeys(o.corpus for o in result.outputs))
        ordered = sorted(
            defective.items(),
            key=lambda kv: (corpora.index(kv[0][0]), _defect_sort_key(kv[0][1]), kv[0][2]),
        )
        choosing, kept = split_clean(list(clean), seed)
        rows.append(
            choose_threshold(
                scorer,
                [clean[i] for i in choosing],
                [clean[i] for i in kept],
                dict(ordered),
                budget=budget,
                unscored_clean=unscored_clean,
                seed=seed,
                resamples=resamples,
            )
        )
    return tuple(rows)


def with_thresholds(result: StudyResult, budget: float, *, seed: int = 0) -> StudyResult:
    """``result`` with ``analysis.thresholds`` chosen for ``budget`` (see
    :func:`study_thresholds`)."""
    rows = study_thresholds(result, budget, seed=seed)
    analysis = result.analysis.model_copy(update={"thresholds": rows})
    return result.model_copy(update={"analysis": analysis})


def chosen_thresholds(study: StudyResult, where: str = "the study") -> dict[str, float]:
    """Scorer -> the threshold the study chose for its false-alarm budget (every judge's).

    Fails closed: a study that chose none, or a scorer for which there were too few clean
    outputs, is an error rather than a silent default.

    Raises:
        InputError: ``no_chosen_threshold``, naming the study, the scorer and the fix.
    """
    rows = study.analysis.thresholds
    if not rows:
        raise InputError(
            f"{where} chose no thresholds; run `hybridjudge study run ... "
            "--false-alarm-budget 0.05` on outputs with answers labelled correct",
            code="no_chosen_threshold",
        )
    missing = [r for r in rows if r.threshold is None]
    if missing:
        raise InputError(
            f"{where} chose no threshold for {', '.join(r.scorer for r in missing)}: "
            f"{missing[0].note}; label more answers correct, or raise the budget",
            code="no_chosen_threshold",
        )
    return {r.scorer: float(r.threshold) for r in rows if r.threshold is not None}


def plain_thresholds(study: StudyResult, where: str = "the study") -> dict[str, float]:
    """:func:`chosen_thresholds` keyed by the plain scorer name (``support``), as ``judge`` and
    the pytest helpers name their scorers; a study of several named judges must be read with
    :func:`chosen_thresholds` (``mini:support``), since ``support`` would be ambiguous.

    Raises:
        InputError: ``no_chosen_threshold`` as :func:`chosen_thresholds`, or the study's
            thresholds belong to several judges.
    """
    from hybridjudge.study._judges import split_scorer

    chosen = chosen_thresholds(study, where)
    judges = sorted({j for j in (split_scorer(s)[0] for s in chosen) if j is not None})
    if len(judges) > 1:
        raise InputError(
            f"{where} chose thresholds for several judges ({', '.join(judges)}); the plain "
            "scorer names would be ambiguous: pass --threshold SCORER=VALUE with the value of "
            "the judge you run, from the report's thresholds table",
            code="no_chosen_threshold",
        )
    return {split_scorer(s)[1]: t for s, t in chosen.items()}


def at_thresholds(result: StudyResult, thresholds: Mapping[str, float]) -> StudyResult:
    """``result`` re-read with other judge thresholds: each scored observation of a scorer in
    ``thresholds`` is flagged when its score is below the threshold, and every table is derived
    again (``config.thresholds`` says which thresholds). Scorers not named keep their flags.
    """
    from hybridjudge.study._analysis import analyse

    observations = tuple(
        obs.model_copy(update={"flagged": obs.score < thresholds[obs.scorer]})
        if obs.scorer in thresholds and obs.score is not None
        else obs
        for obs in result.observations
    )
    analysis = analyse(
        result.outputs,
        observations,
        scorers=result.config.scorers,
        repetitions=result.config.repetitions,
        wall_s=result.wall_s,
    ).model_copy(update={"thresholds": result.analysis.thresholds})
    config = result.config.model_copy(
        update={"thresholds": {**result.config.thresholds, **thresholds}}
    )
    return result.model_copy(
        update={"observations": observations, "analysis": analysis, "config": config}
    )
