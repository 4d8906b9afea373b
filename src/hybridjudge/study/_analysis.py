"""Reacted, detected, false alarms, stability, unscored and cost, exactly as ``docs/study.md`` defines.

- **Reacted** (one repetition). Deterministic: the mutant raises an issue its base does not raise.
  Judges: the mutant's score is below the threshold *and* strictly below its base's score in the
  same repetition. An unscored mutant or base never counts as a reaction.
- **Detected**: reacted in every repetition. **Reacted sometimes**: in some, not all.
- **Raw flags**: the mutant is flagged in every repetition, whatever the base got.
- **False alarms**: bases labelled correct (``clean`` true) flagged in every repetition (and,
  separately, sometimes). An unlabelled base (``clean`` null) is in no false-alarm rate: it is
  counted as ``unlabelled``.
- **Labelled incorrect** (a natural-defect row, defect class :data:`LABELLED_INCORRECT`, origin
  ``labelled``): bases labelled incorrect (``clean`` false), which have no right counterpart to
  react against, are *detected* when flagged in every repetition.
- **Unscored** outputs are counted apart and left out of every denominator: a mutant (or clean
  base) that is unscored in some repetition, or whose base is, is neither "not detected" nor
  "not flagged" but unknown. A cell reads ``3/5 detected, 1 unscored``: ``n`` is the 5 scored,
  ``unscored`` the 1 more the scorer ran on. :func:`unscored_share` is each scorer's share of
  unscored evaluations, which ``--max-unscored`` and ``gate`` compare against a threshold.
- **Separation** (corpora with natural hallucinations, e.g. HaluEval): the AUROC of each scorer's
  score for the right answers (bases, positive) against the hallucinated ones (negative), with a
  stratified bootstrap interval; an output unscored in some repetition is left out and counted.
  On a corpus with bases labelled incorrect, a second row (origin ``labelled``): the bases
  labelled correct against those labelled incorrect.
- **Cheapest detecting scorer** per defect class: among the LLM scorers that detected every
  mutant of the class in every repetition (none unscored), the one with the lowest dollars per
  1,000 evaluations (see :class:`~hybridjudge.study.CheapestRow`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from hybridjudge._stats import STRATIFIED_BOOTSTRAP_METHOD, wilson_interval
from hybridjudge.corpus import CONTEXT_DEFECT_CLASSES, CONTROL_CLASSES
from hybridjudge.model import Usage
from hybridjudge.study._judges import split_scorer
from hybridjudge.study._models import (
    CascadeRow,
    CheapestRow,
    ControlRow,
    CostRow,
    DetectionRow,
    FalseAlarmRow,
    Observation,
    OutputRecord,
    SeparationRow,
    StabilityRow,
    StudyAnalysis,
    UnscoredRow,
)

__all__ = [
    "HYBRID",
    "IN_SCOPE",
    "LABELLED_INCORRECT",
    "SEPARATION_RESAMPLES",
    "analyse",
    "cascade_rows",
    "cheapest_rows",
    "reacted",
    "separation_rows",
    "unscored_count",
    "unscored_share",
]

LABELLED_INCORRECT = "labelled_incorrect"
"""The defect class of the row of base outputs labelled incorrect (origin ``labelled``)."""

SEPARATION_RESAMPLES = 2000
"""Bootstrap resamples of each separation (AUROC) interval."""

# Whether a scorer family can see a defect class by construction (OpenGATE paper, exp. 2).
IN_SCOPE: dict[str, dict[str, bool]] = {
    "deterministic": {
        "omission": True,
        "fabricated_number": True,
        "non_abstention": True,
        "contradiction": False,
        "inversion": False,
    },
    "judge": {
        "omission": False,
        "fabricated_number": True,
        "non_abstention": True,
        "contradiction": True,
        "inversion": True,
        # the retriever's defects leave an answer the context no longer supports
        **dict.fromkeys(CONTEXT_DEFECT_CLASSES, True),
    },
}
"""The deterministic scorer's scope on the retriever's defects is not stated: it sees a figure
of the answer the context lost (not an anchor's: an answer may repeat an anchor's quantity),
never a lost entity; the study measures it."""

IN_SCOPE["hybrid"] = {
    key: IN_SCOPE["deterministic"].get(key, False) or IN_SCOPE["judge"].get(key, False)
    for key in {*IN_SCOPE["deterministic"], *IN_SCOPE["judge"]}
}
"""The hybrid scorer (the cascade) sees what its checks or its judges see."""

HYBRID = "hybrid"
"""The hybrid scorer (the cascade: :func:`hybridjudge.judges.evaluate_many`): the checks decide
first, claims the context states as written are supported without a call, and its judges
(``hybrid_judges``) see only the remaining claims (``NAME:hybrid`` for a named judge's)."""

_DEFECT_ORDER = (
    "omission",
    "fabricated_number",
    "non_abstention",
    "contradiction",
    "inversion",
    *CONTEXT_DEFECT_CLASSES,
    *CONTROL_CLASSES,
)


def _family(scorer: str) -> str:
    base = split_scorer(scorer)[1]
    if base == HYBRID:
        return "hybrid"
    return "deterministic" if "deterministic" in base else "judge"


def _phase(scorer: str) -> str:
    """The wall-time phase of a scorer: ``deterministic``, ``judges``, ``peers`` (or
    ``judges:NAME`` / ``peers:NAME`` for a named judge's scorers)."""
    judge, base = split_scorer(scorer)
    if _family(scorer) == "deterministic":
        return "deterministic"
    if _family(scorer) == "hybrid":
        return scorer
    phase = "peers" if base in ("ragas", "deepeval") else "judges"
    return phase if judge is None else f"{phase}:{judge}"


def reacted(mutant: Observation, base: Observation) -> bool | None:
    """Whether ``mutant`` reacted relative to ``base`` in one repetition (``None``: unscored)."""
    if mutant.status != "scored" or base.status != "scored":
        return None
    if _family(mutant.scorer) == "deterministic":
        return bool(set(mutant.issues) - set(base.issues))
    if mutant.score is None or base.score is None or mutant.flagged is None:
        return None
    if mutant.stage == "checks" and mutant.flagged:
        # the cascade's checks decided: a new finding, as for the deterministic scorer
        return mutant.score < base.score or bool(set(mutant.issues) - set(base.issues))
    return mutant.flagged and mutant.score < base.score


def _rate(k: int, n: int) -> tuple[float | None, float | None, float | None]:
    if n == 0:
        return None, None, None
    low, high = wilson_interval(k, n)
    return k / n, low, high


def _defect_sort_key(defect: str) -> tuple[int, str]:
    return (_DEFECT_ORDER.index(defect) if defect in _DEFECT_ORDER else len(_DEFECT_ORDER), defect)


def analyse(
    outputs: Sequence[OutputRecord],
    observations: Iterable[Observation],
    *,
    scorers: Sequence[str],
    repetitions: int,
    wall_s: Mapping[str, float] | None = None,
    shared_claims_scope: bool = True,
    separation_seed: int = 0,
    cascade_parts: Mapping[str, Sequence[str]] | None = None,
) -> StudyAnalysis:
    """Derive every table of a study from its raw observations.

    ``separation_seed`` seeds the bootstrap of the separation intervals (the same observations
    and seed give the same intervals). ``cascade_parts``: hybrid scorer -> the scorers it is made
    of (:func:`cascade_rows`; a cascade whose parts are not all in ``scorers`` gets no row).
    """
    by_key: dict[tuple[str, str], dict[int, Observation]] = defaultdict(dict)
    for obs in observations:
        by_key[(obs.output_id, obs.scorer)][obs.repetition] = obs
    reps = range(repetitions)

    detection: list[DetectionRow] = []
    controls: list[ControlRow] = []
    false_alarms: list[FalseAlarmRow] = []
    groups: dict[tuple[str, str, str], list[OutputRecord]] = defaultdict(list)
    for rec in outputs:
        if rec.base_id is not None and rec.defect is not None:
            groups[(rec.corpus, rec.defect, rec.origin)].append(rec)
    corpora = list(dict.fromkeys(o.corpus for o in outputs))
    for scorer in scorers:
        for corpus in corpora:
            keys = sorted(
                (k for k in groups if k[0] == corpus),
                key=lambda k: (_defect_sort_key(k[1]), k[2]),
            )
            for key in keys:
                n = detected = sometimes = raw = unscored = 0
                for mutant in groups[key]:
                    m_obs = by_key.get((mutant.id, scorer), {})
                    b_obs = by_key.get((mutant.base_id or "", scorer), {})
                    if not m_obs:
                        continue  # this scorer did not run on it (outside the judge sample)
                    verdicts = []
                    for r in reps:
                        m, b = m_obs.get(r), b_obs.get(r)
                        verdicts.append(None if m is None or b is None else reacted(m, b))
                    if any(v is None for v in verdicts):
                        unscored += 1  # unknown: never "not detected", not in the denominator
                        continue
                    n += 1
                    hits = sum(1 for v in verdicts if v)
                    if hits == repetitions:
                        detected += 1
                    elif hits > 0:
                        sometimes += 1
                    if all(m_obs.get(r) is not None and m_obs[r].flagged for r in reps):
                        raw += 1
                rate, low, high = _rate(detected, n)
                if key[1] in CONTROL_CLASSES:  # a reaction to a control is a false alarm
                    controls.append(
                        ControlRow(
                            corpus=corpus,
                            control=key[1],
                            scorer=scorer,
                            n=n,
                            changed_every=detected,
                            changed_sometimes=sometimes,
                            unscored=unscored,
                            rate=rate,
                            ci_low=low,
                            ci_high=high,
                        )
                    )
                    continue
                scope = IN_SCOPE[_family(scorer)].get(key[1])
                detection.append(
                    DetectionRow(
                        corpus=corpus,
                        defect_class=key[1],
                        origin=key[2],
                        scorer=scorer,
                        n=n,
                        detected=detected,
                        reacted_sometimes=sometimes,
                        raw_flags=raw,
                        unscored=unscored,
                        rate=rate,
                        ci_low=low,
                        ci_high=high,
                        in_scope=scope,
                    )
                )
            wrong = [o for o in outputs if o.corpus == corpus and _labelled(o, clean=False)]
            if wrong:
                detection.append(_labelled_row(corpus, scorer, wrong, by_key, repetitions))
            bases = [
                rec
                for rec in outputs
                if rec.corpus == corpus and rec.base_id is None and rec.clean is not False
            ]
            ran = [rec for rec in bases if by_key.get((rec.id, scorer))]
            # an unlabelled base is never presumed right: it is in no false-alarm rate
            unlabelled = sum(1 for rec in ran if rec.clean is None)
            right = [rec for rec in ran if rec.clean is True]
            n, every, some, unscored = _flag_counts(right, scorer, by_key, repetitions)
            rate, low, high = _rate(every, n)
            false_alarms.append(
                FalseAlarmRow(
                    corpus=corpus,
                    scorer=scorer,
                    n=n,
                    flagged_every=every,
                    flagged_sometimes=some,
                    unscored=unscored,
                    rate=rate,
                    ci_low=low,
                    ci_high=high,
                    unlabelled=unlabelled,
                )
            )

    per_scorer: dict[str, list[dict[int, Observation]]] = defaultdict(list)
    for (_, scorer), per_rep in by_key.items():
        per_scorer[scorer].append(per_rep)
    stability = [_stability(scorer, per_scorer[scorer], repetitions) for scorer in scorers]
    unscored_rows = [_unscored(scorer, per_scorer[scorer]) for scorer in scorers]
    cost = [
        _cost(scorer, per_scorer[scorer], wall_s or {}, shared_claims_scope) for scorer in scorers
    ]
    return StudyAnalysis(
        detection=tuple(detection),
        false_alarms=tuple(false_alarms),
        stability=tuple(stability),
        unscored=tuple(unscored_rows),
        cost=tuple(cost),
        separation=tuple(
            separation_rows(
                outputs, by_key, scorers=scorers, repetitions=repetitions, seed=separation_seed
            )
        ),
        cheapest=tuple(cheapest_rows(detection, cost)),
        controls=tuple(controls),
        cascade=tuple(
            row
            for cascade, parts in (cascade_parts or {}).items()
            if cascade in scorers and all(p in scorers for p in parts)
            for row in cascade_rows(outputs, by_key, cascade, parts, repetitions)
        ),
    )


def _together(verdicts: Sequence[bool | None]) -> bool | None:
    """The parts' verdict together: any part that says yes decides; else unknown when a part
    is unscored."""
    if any(v is True for v in verdicts):
        return True
    return None if any(v is None for v in verdicts) else False


def cascade_rows(
    outputs: Sequence[OutputRecord],
    by_key: Mapping[tuple[str, str], Mapping[int, Observation]],
    cascade: str,
    parts: Sequence[str],
    repetitions: int,
) -> list[CascadeRow]:
    """Per (corpus, defect class, origin) and per corpus's clean bases: what ``cascade`` lost or
    gained against ``parts`` run together (see :class:`CascadeRow`)."""
    reps = range(repetitions)
    outputs_by_id = {o.id: o for o in outputs}

    def react(scorer: str, rec: OutputRecord, r: int) -> bool | None:
        m = by_key.get((rec.id, scorer), {}).get(r)
        b = by_key.get((rec.base_id or "", scorer), {}).get(r)
        return None if m is None or b is None else reacted(m, b)

    def flag(scorer: str, rec: OutputRecord, r: int) -> bool | None:
        o = by_key.get((rec.id, scorer), {}).get(r)
        return None if o is None or o.status != "scored" else bool(o.flagged)

    groups: dict[tuple[str, str, str], list[OutputRecord]] = defaultdict(list)
    for rec in outputs:
        if rec.base_id is not None and rec.defect is not None and rec.defect not in CONTROL_CLASSES:
            if rec.base_id in outputs_by_id:
                groups[(rec.corpus, rec.defect, rec.origin)].append(rec)
        elif _labelled(rec, clean=True):
            groups[(rec.corpus, "clean", "base")].append(rec)
    rows: list[CascadeRow] = []
    keys = sorted(groups, key=lambda k: (k[0], k[1] == "clean", _defect_sort_key(k[1]), k[2]))
    for key in keys:
        verdict = flag if key[1] == "clean" else react
        n = mine = theirs = lost = gained = unscored = 0
        for rec in groups[key]:
            if any(not by_key.get((rec.id, s)) for s in (cascade, *parts)):
                continue  # outside the cascade's or a part's sample: nothing to compare
            ours = [verdict(cascade, rec, r) for r in reps]
            together = [_together([verdict(p, rec, r) for p in parts]) for r in reps]
            if any(v is None for v in (*ours, *together)):
                unscored += 1
                continue
            n += 1
            a, b = all(ours), all(together)
            mine += a
            theirs += b
            lost += b and not a
            gained += a and not b
        rows.append(
            CascadeRow(
                cascade=cascade,
                parts=tuple(parts),
                corpus=key[0],
                defect_class=key[1],
                origin=key[2],
                n=n,
                cascade_count=mine,
                parts_count=theirs,
                lost=lost,
                gained=gained,
                unscored=unscored,
            )
        )
    return rows


def _labelled(rec: OutputRecord, *, clean: bool) -> bool:
    """A base output whose label is ``clean`` (true: correct; false: incorrect)."""
    return rec.base_id is None and rec.clean is clean


def _flag_counts(
    records: Sequence[OutputRecord],
    scorer: str,
    by_key: Mapping[tuple[str, str], Mapping[int, Observation]],
    repetitions: int,
) -> tuple[int, int, int, int]:
    """``(n, flagged in every repetition, flagged in some, unscored)`` of ``records`` by
    ``scorer``: a record the scorer did not run on (outside the judge sample) is left out; one
    unscored in some repetition is unknown, never "not flagged", and not in ``n``."""
    n = every = some = unscored = 0
    for rec in records:
        per_rep = by_key.get((rec.id, scorer), {})
        if not per_rep:
            continue
        flags = [per_rep[r].flagged if r in per_rep else None for r in range(repetitions)]
        if any(f is None for f in flags):
            unscored += 1
            continue
        n += 1
        hits = sum(1 for f in flags if f)
        if hits == repetitions:
            every += 1
        elif hits:
            some += 1
    return n, every, some, unscored


def _labelled_row(
    corpus: str,
    scorer: str,
    wrong: Sequence[OutputRecord],
    by_key: Mapping[tuple[str, str], Mapping[int, Observation]],
    repetitions: int,
) -> DetectionRow:
    """Detection of the bases labelled incorrect: flagged in every repetition (there is no right
    counterpart to react against, so detected, raw flags and the rate are the same count)."""
    n, every, some, unscored = _flag_counts(wrong, scorer, by_key, repetitions)
    rate, low, high = _rate(every, n)
    return DetectionRow(
        corpus=corpus,
        defect_class=LABELLED_INCORRECT,
        origin="labelled",
        scorer=scorer,
        n=n,
        detected=every,
        reacted_sometimes=some,
        raw_flags=every,
        unscored=unscored,
        rate=rate,
        ci_low=low,
        ci_high=high,
        in_scope=None,
    )


def separation_rows(
    outputs: Sequence[OutputRecord],
    observations: Mapping[tuple[str, str], Mapping[int, Observation]] | Iterable[Observation],
    *,
    scorers: Sequence[str],
    repetitions: int,
    seed: int = 0,
    resamples: int = SEPARATION_RESAMPLES,
) -> list[SeparationRow]:
    """AUROC of right answers (bases) against natural hallucinations, per corpus and scorer,
    and of the bases labelled correct against those labelled incorrect.

    Only corpora with natural-origin mutants (origin ``natural``) or with bases labelled
    incorrect (origin ``labelled``) get rows. Each output's score is its mean over the
    repetitions; an output unscored in any repetition (or missing one) is left out and counted.
    The interval is :func:`hybridjudge.metrics.auroc_interval` (stratified bootstrap).
    """
    from hybridjudge.metrics import auroc_interval

    if isinstance(observations, Mapping):
        by_key = observations
    else:
        grouped: dict[tuple[str, str], dict[int, Observation]] = defaultdict(dict)
        for obs in observations:
            grouped[(obs.output_id, obs.scorer)][obs.repetition] = obs
        by_key = grouped
    rows: list[SeparationRow] = []
    corpora = list(dict.fromkeys(o.corpus for o in outputs))
    measured = [
        (name, origin, group)
        for name in corpora
        for origin, group in _separation_groups(outputs, name)
    ]
    for corpus, origin, labelled in measured:
        for scorer in scorers:
            labels: list[bool] = []
            scores: list[float] = []
            unscored = {True: 0, False: 0}
            for output_id, positive in labelled:
                per_rep = by_key.get((output_id, scorer), {})
                if not per_rep:
                    continue  # this scorer did not run on it (outside the judge sample)
                values = [per_rep[r].score if r in per_rep else None for r in range(repetitions)]
                if any(v is None or per_rep[r].status != "scored" for r, v in enumerate(values)):
                    unscored[positive] += 1
                    continue
                labels.append(positive)
                scores.append(float(np.mean([v for v in values if v is not None])))
            positives = sum(labels)
            negatives = len(labels) - positives
            if not unscored[True] and not unscored[False] and not labels:
                continue  # the scorer ran on none of these answers
            point = low = high = None
            if positives and negatives:
                result = auroc_interval(labels, scores, n_resamples=resamples, seed=seed)
                point, low, high = result.auroc, result.low, result.high
            rows.append(
                SeparationRow(
                    corpus=corpus,
                    scorer=scorer,
                    origin=origin,
                    positives=positives,
                    negatives=negatives,
                    unscored_positives=unscored[True],
                    unscored_negatives=unscored[False],
                    auroc=point,
                    ci_low=low,
                    ci_high=high,
                    confidence=0.95,
                    resamples=resamples,
                    seed=seed,
                    method=STRATIFIED_BOOTSTRAP_METHOD,
                )
            )
    return rows


def _separation_groups(
    outputs: Sequence[OutputRecord], corpus: str
) -> list[tuple[str, list[tuple[str, bool]]]]:
    """The (origin, [(output id, is right)]) groups of one corpus whose AUROC is measured:
    ``natural``, the bases of natural hallucinations against them; ``labelled``, the bases
    labelled correct against those labelled incorrect (when some base is labelled incorrect)."""
    groups: list[tuple[str, list[tuple[str, bool]]]] = []
    mine = [o for o in outputs if o.corpus == corpus]
    natural = [o for o in mine if o.origin == "natural" and o.base_id]
    if natural:
        base_ids = list(dict.fromkeys(o.base_id for o in natural if o.base_id is not None))
        groups.append(("natural", [(b, True) for b in base_ids] + [(o.id, False) for o in natural]))
    wrong = [o.id for o in mine if _labelled(o, clean=False)]
    if wrong:
        right = [o.id for o in mine if _labelled(o, clean=True)]
        groups.append(("labelled", [(r, True) for r in right] + [(w, False) for w in wrong]))
    return groups


def _price_key(row: CostRow, order: int) -> tuple[int, float, float, int]:
    unknown = row.usd_per_1000 is None
    return (int(unknown), row.usd_per_1000 or 0.0, row.median_ms, order)


def cheapest_rows(detection: Sequence[DetectionRow], cost: Sequence[CostRow]) -> list[CheapestRow]:
    """Per (corpus, defect class, origin): the cheapest LLM scorer (a judge, or the hybrid
    scorer, which calls one) that detects the class.

    Detecting the class means ``detected == n >= 1`` and nothing unscored. Cheapest: lowest
    ``usd_per_1000`` (unknown prices last), then lower median latency, then the earlier scorer.
    """
    costs = {c.scorer: c for c in cost}
    order = {c.scorer: i for i, c in enumerate(cost)}
    keys = list(dict.fromkeys((r.corpus, r.defect_class, r.origin) for r in detection))
    rows: list[CheapestRow] = []
    for key in keys:
        cells = [
            r
            for r in detection
            if (r.corpus, r.defect_class, r.origin) == key
            and _family(r.scorer) in ("judge", "hybrid")
            and r.scorer in costs
        ]
        if not cells:
            continue
        detecting = [r for r in cells if r.n >= 1 and r.detected == r.n and r.unscored == 0]
        detecting.sort(key=lambda r: _price_key(costs[r.scorer], order[r.scorer]))
        measured = [r for r in cells if r.n >= 1]
        best = max(
            measured,
            key=lambda r: (r.detected / r.n, r.detected, -order[r.scorer]),
            default=None,
        )
        winner = detecting[0] if detecting else None
        rows.append(
            CheapestRow(
                corpus=key[0],
                defect_class=key[1],
                origin=key[2],
                scorer=winner.scorer if winner else None,
                judge=split_scorer(winner.scorer)[0] if winner else None,
                usd_per_1000=costs[winner.scorer].usd_per_1000 if winner else None,
                n=winner.n if winner else 0,
                detecting=tuple(r.scorer for r in detecting),
                best=None if winner or best is None else best.scorer,
                best_detected=0 if winner or best is None else best.detected,
                best_n=0 if winner or best is None else best.n,
            )
        )
    return rows


def _stability(
    scorer: str, outputs: Sequence[dict[int, Observation]], repetitions: int
) -> StabilityRow:
    ranges: list[float] = []
    flips = moved = 0
    for obs in outputs:
        if len(obs) < repetitions:
            continue
        scores = [obs[r].score for r in range(repetitions)]
        flags = [obs[r].flagged for r in range(repetitions)]
        statuses = {obs[r].status for r in range(repetitions)}
        if any(s is None for s in scores):
            # Unscored in some repetition: only a change of outcome counts as movement.
            if len(statuses) > 1:
                moved += 1
                flips += 1
            continue
        values = [float(s) for s in scores if s is not None]
        rng = max(values) - min(values)
        ranges.append(rng)
        if rng > 0:
            moved += 1
        if len(set(flags)) > 1:
            flips += 1
    return StabilityRow(
        scorer=scorer,
        outputs=len(outputs),
        verdict_flips=flips,
        outputs_with_movement=moved,
        max_range=max(ranges, default=0.0),
        mean_range=float(np.mean(ranges)) if ranges else 0.0,
        identical_across_repetitions=moved == 0,
    )


def unscored_count(row: UnscoredRow) -> int:
    """Unscored evaluations of one scorer (every reason)."""
    return sum(row.by_reason.values())


def unscored_share(row: UnscoredRow) -> float:
    """Share of one scorer's evaluations that are unscored (0.0 when it ran on nothing)."""
    return unscored_count(row) / row.evaluations if row.evaluations else 0.0


def _unscored(scorer: str, outputs: Sequence[dict[int, Observation]]) -> UnscoredRow:
    counts: dict[str, int] = defaultdict(int)
    evaluations = 0
    for obs in outputs:
        for o in obs.values():
            evaluations += 1
            if o.status == "unscored":
                counts[o.unscored_reason or "unknown"] += 1
    return UnscoredRow(
        scorer=scorer, evaluations=evaluations, by_reason=dict(sorted(counts.items()))
    )


def _cost(
    scorer: str,
    outputs: Sequence[dict[int, Observation]],
    wall_s: Mapping[str, float],
    shared_claims_scope: bool,
) -> CostRow:
    usage = Usage()
    latencies: list[float] = []
    evaluations = 0
    for obs in outputs:
        for o in obs.values():
            evaluations += 1
            usage = usage + o.usage
            # Latency as first measured: a cache hit counts at the latency it saved.
            latencies.append(o.latency_ms + o.usage.saved_latency_s * 1000.0)
    family = _family(scorer)
    phase = _phase(scorer)
    total_cost = (
        None
        if usage.cost_usd is None or usage.saved_cost_usd is None
        else usage.cost_usd + usage.saved_cost_usd
    )
    cost_known = total_cost is not None  # an unknown price is never reported as $0
    per_eval_cost = (total_cost or 0.0) / evaluations if evaluations else 0.0
    return CostRow(
        scorer=scorer,
        evaluations=evaluations,
        calls=usage.calls,
        prompt_tokens=usage.prompt_tokens,
        completion_tokens=usage.completion_tokens,
        cost_usd=usage.cost_usd if cost_known else None,
        usd_per_1000=per_eval_cost * 1000.0 if cost_known else None,
        wall_s_per_repetition=wall_s.get(phase, 0.0),
        shared_wall=family == "judge",  # the hybrid scorer runs in a phase of its own
        median_ms=float(np.median(latencies)) if latencies else 0.0,
        p95_ms=float(np.percentile(latencies, 95)) if latencies else 0.0,
        cache_hits=usage.cache_hits,
        saved_usd=usage.saved_cost_usd,
        saved_s=usage.saved_latency_s,
        includes_shared_claims=family == "judge" and shared_claims_scope,
    )
