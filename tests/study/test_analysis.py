"""The study's rules (docs/study.md) on hand-built observations; every expected value is hand-counted."""

from __future__ import annotations

import pytest

from hybridjudge.study import Observation, OutputRecord, analyse, reacted


def _rec(
    id_: str, *, base: str | None = None, defect: str | None = None, clean: bool | None = True
) -> OutputRecord:
    return OutputRecord(
        id=id_,
        corpus="c",
        case_id="case",
        base_id=base,
        defect=defect,
        origin="mutator" if base else "base",
        clean=clean if base is None else None,
        judged=True,
    )


def _judge(
    id_: str, rep: int, score: float | None, *, scorer: str = "support", threshold: float = 1.0
) -> Observation:
    if score is None:
        return Observation(
            output_id=id_,
            scorer=scorer,
            repetition=rep,
            status="unscored",
            unscored_reason="parse_failure",
        )
    return Observation(
        output_id=id_,
        scorer=scorer,
        repetition=rep,
        status="scored",
        score=score,
        flagged=score < threshold,
    )


def _det(id_: str, rep: int, issues: tuple[str, ...]) -> Observation:
    return Observation(
        output_id=id_,
        scorer="deterministic",
        repetition=rep,
        status="scored",
        score=0.0 if issues else 1.0,
        flagged=bool(issues),
        issues=issues,
    )


def test_judge_reacts_only_below_threshold_and_strictly_below_base() -> None:
    base = _judge("b", 0, 0.8)
    assert reacted(_judge("m", 0, 0.6), base) is True
    # below the threshold but equal to the base: no reaction
    assert reacted(_judge("m", 0, 0.8), base) is False
    # strictly below the base but at/above the threshold: no reaction
    assert reacted(_judge("m", 0, 0.5, threshold=0.5), _judge("b", 0, 0.9, threshold=0.5)) is False
    # unscored on either side is not a reaction and not a miss
    assert reacted(_judge("m", 0, None), base) is None
    assert reacted(_judge("m", 0, 0.1), _judge("b", 0, None)) is None


def test_deterministic_reacts_on_an_issue_the_base_does_not_raise() -> None:
    base = _det("b", 0, ("ungrounded_number: 12",))
    # the mutant only repeats the base's issue: no reaction (OpenGATE's lab-results drop-anchor)
    assert reacted(_det("m", 0, ("ungrounded_number: 12",)), base) is False
    assert reacted(_det("m", 0, ("ungrounded_number: 12", "missing_anchor: 9.8")), base) is True


def test_detected_sometimes_raw_flags_and_false_alarms_hand_counted() -> None:
    outputs = [
        _rec("b1"),
        _rec("b2"),
        _rec("b3", clean=False),  # not clean: excluded from false alarms
        _rec("m1", base="b1", defect="inversion"),
        _rec("m2", base="b2", defect="inversion"),
        _rec("m3", base="b1", defect="omission"),
    ]
    scores: dict[str, list[float | None]] = {
        # id: scores per repetition (3 repetitions)
        "b1": [1.0, 1.0, 1.0],
        "b2": [0.5, 1.0, 0.5],  # clean base flagged sometimes (2 of 3)
        "b3": [0.2, 0.2, 0.2],
        "m1": [0.5, 0.5, 0.5],  # reacted every repetition -> detected
        "m2": [
            0.5,
            0.5,
            0.5,
        ],  # rep0: not below base 0.5; rep1: below 1.0; rep2: equal -> sometimes
        "m3": [1.0, 1.0, None],  # never reacted, one unscored repetition
    }
    observations = [_judge(i, r, s) for i, ss in scores.items() for r, s in enumerate(ss)]
    analysis = analyse(outputs, observations, scorers=["support"], repetitions=3)
    rows = {r.defect_class: r for r in analysis.detection}
    inversion = rows["inversion"]
    assert (inversion.n, inversion.detected, inversion.reacted_sometimes) == (2, 1, 1)
    # raw flags: m1 and m2 both below 1.0 in every repetition
    assert inversion.raw_flags == 2
    assert inversion.rate == pytest.approx(0.5)
    # Wilson 95% for 1/2, by hand: centre (0.5 + 1.92/2... ) -> [0.0945, 0.9055]
    assert inversion.ci_low == pytest.approx(0.0945, abs=1e-3)
    assert inversion.ci_high == pytest.approx(0.9055, abs=1e-3)
    omission = rows["omission"]
    # m3 is unscored in one repetition: unknown, so out of the denominator (issue 10)
    assert (omission.n, omission.detected, omission.reacted_sometimes, omission.unscored) == (
        0,
        0,
        0,
        1,
    )
    assert omission.rate is None
    assert omission.in_scope is False  # a judge cannot see an omission by construction
    (fa,) = analysis.false_alarms
    assert (fa.n, fa.flagged_every, fa.flagged_sometimes) == (2, 0, 1)
    (stab,) = analysis.stability
    # b2 and m3 change across repetitions; b2 and m3 flip verdicts (m3 via unscored)
    assert stab.verdict_flips == 2
    assert stab.identical_across_repetitions is False
    assert stab.max_range == pytest.approx(0.5)
    (uns,) = analysis.unscored
    assert uns.evaluations == 18
    assert uns.by_reason == {"parse_failure": 1}


def test_identical_repetitions_are_reported_as_such() -> None:
    outputs = [_rec("b1"), _rec("m1", base="b1", defect="fabricated_number")]
    observations = [_det("b1", r, ()) for r in range(2)] + [
        _det("m1", r, ("ungrounded_number: 7",)) for r in range(2)
    ]
    analysis = analyse(outputs, observations, scorers=["deterministic"], repetitions=2)
    (stab,) = analysis.stability
    assert stab.identical_across_repetitions is True
    assert stab.verdict_flips == 0
    (row,) = analysis.detection
    assert (row.detected, row.n, row.in_scope) == (1, 1, True)


def test_a_scorer_that_did_not_run_on_a_mutant_does_not_count_it() -> None:
    # outside the judge sample: the deterministic scorer saw it, the judge did not
    outputs = [_rec("b1"), _rec("m1", base="b1", defect="contradiction")]
    observations = [_det("b1", 0, ()), _det("m1", 0, ())]
    analysis = analyse(outputs, observations, scorers=["deterministic", "support"], repetitions=1)
    rows = {r.scorer: r for r in analysis.detection}
    assert rows["deterministic"].n == 1
    assert rows["support"].n == 0
    assert rows["support"].rate is None
