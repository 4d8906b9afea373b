"""Thresholds from the study (issue 36, item 3): chosen on clean outputs for a false-alarm budget."""

from __future__ import annotations

from pathlib import Path

import pytest

from hybridjudge import InputError
from hybridjudge.study import (
    Observation,
    OutputRecord,
    StudyConfig,
    StudyResult,
    analyse,
    choose_threshold,
    clean_needed,
    split_clean,
    study_thresholds,
)

CHOOSING = [1.0, 0.9, 0.2, 1.0, 0.7, 0.5, 0.9, 0.6, 1.0, 0.8]
KEPT_BACK = [0.4, 0.5, 0.95, 1.0, 1.0]
DEFECTIVE = {
    ("toy", "omission", "mutator"): [0.0, 0.45, 0.5, 0.9],
    ("toy", "inversion", "mutator"): [0.3, None, 0.49],
}


def test_hand_computed_threshold() -> None:
    """Budget 0.1 on 10 choosing scores: ``ceil(1/0.1) = 10`` are needed, ``floor(0.1 * 10) = 1``
    false alarm is allowed. Sorted: 0.2, 0.5, 0.6, 0.7, 0.8, 0.9, 0.9, 1.0, 1.0, 1.0; the highest
    threshold flagging (score < t) at most one of them is the 2nd smallest, t = 0.5 (it flags
    0.2 only; any t above 0.5 also flags 0.5).

    Kept back: 0.4, 0.5, 0.95, 1.0, 1.0 -> 0.4 only is below 0.5: 1 of 5 false alarms. Wilson 95%
    for 1/5 (z = 1.959964, z^2 = 3.841459): centre = (0.2 + 0.384146) / 1.768292 = 0.330345,
    half = 1.108393 * sqrt(0.032 + 0.038415) = 0.294121 -> (0.036224, 0.624466).

    Omission: 0.0 and 0.45 are below 0.5 (0.5 itself passes): 2 of 4. Inversion: 0.3 and 0.49,
    one unscored left out: 2 of 2.
    """
    row = choose_threshold("support", CHOOSING, KEPT_BACK, DEFECTIVE, budget=0.1)
    assert row.status == "chosen"
    assert row.note is None
    assert row.threshold == 0.5
    assert (row.choosing, row.needed, row.kept_back, row.clean) == (10, 10, 5, 15)
    assert row.choosing_false_alarms == 1
    assert (row.kept_back_false_alarms, row.kept_back_rate) == (1, 0.2)
    assert row.kept_back_ci_low == pytest.approx(0.036224, abs=2e-6)
    assert row.kept_back_ci_high == pytest.approx(0.624466, abs=2e-6)
    cells = {(d.defect_class, d.flagged, d.n, d.unscored) for d in row.detection}
    assert cells == {("omission", 2, 4, 0), ("inversion", 2, 2, 1)}
    # the bootstrap of the 2nd smallest of 10 resampled scores: a value of the sample, around t
    assert row.ci_low is not None
    assert row.ci_high is not None
    assert row.ci_low in CHOOSING
    assert row.ci_high in CHOOSING
    assert 0.2 <= row.ci_low <= 0.5 <= row.ci_high <= 0.8
    again = choose_threshold("support", CHOOSING, KEPT_BACK, DEFECTIVE, budget=0.1)
    assert again == row  # seeded


def test_too_few_clean_outputs_choose_nothing() -> None:
    """Budget 0.05 needs ceil(1/0.05) = 20 choosing scores; 10 cannot resolve it."""
    assert clean_needed(0.05) == 20
    assert clean_needed(0.1) == 10
    row = choose_threshold("support", CHOOSING, KEPT_BACK, DEFECTIVE, budget=0.05)
    assert row.status == "too_few_clean"
    assert row.threshold is None
    assert row.ci_low is None
    assert row.kept_back_rate is None
    assert row.detection == ()
    assert row.note is not None
    assert "not enough clean outputs: 10 to choose on, need at least 20" in row.note


@pytest.mark.parametrize("budget", [0.0, 1.0, -0.1, 1.5, True, "0.05"])
def test_budget_outside_zero_one_is_refused(budget: object) -> None:
    with pytest.raises(InputError, match="strictly between 0 and 1"):
        choose_threshold("support", CHOOSING, KEPT_BACK, {}, budget=budget)  # type: ignore[arg-type]


def test_split_is_seeded_disjoint_and_order_free() -> None:
    ids = [f"b{i}" for i in range(7)]
    choosing, kept = split_clean(ids, seed=0)
    assert len(choosing) == 4
    assert len(kept) == 3
    assert sorted(choosing + kept) == sorted(ids)
    assert split_clean(list(reversed(ids)), seed=0) == (choosing, kept)
    assert any(split_clean(ids, seed=s) != (choosing, kept) for s in range(1, 6))


def _study(clean_scores: list[float], repetitions: int = 2) -> StudyResult:
    """Bases labelled correct with the given scores (the same in every repetition but the last
    base, unscored in repetition 1), one base labelled incorrect, and one omission mutant."""
    outputs = [
        OutputRecord(
            id=f"b{i}",
            corpus="toy",
            case_id=f"c{i}",
            base_id=None,
            defect=None,
            origin="base",
            clean=True,
            judged=True,
        )
        for i in range(len(clean_scores))
    ]
    outputs.append(
        OutputRecord(
            id="wrong",
            corpus="toy",
            case_id="c0",
            base_id=None,
            defect=None,
            origin="base",
            clean=False,
            judged=True,
        )
    )
    outputs.append(
        OutputRecord(
            id="m0",
            corpus="toy",
            case_id="c0",
            base_id="b0",
            defect="omission",
            origin="mutator",
            clean=None,
            judged=True,
        )
    )
    scores = {f"b{i}": s for i, s in enumerate(clean_scores)} | {"wrong": 0.1, "m0": 0.0}
    obs = []
    last = f"b{len(clean_scores) - 1}"
    for rep in range(repetitions):
        for out in outputs:
            if out.id == last and rep == 1:
                obs.append(
                    Observation(
                        output_id=out.id,
                        scorer="support",
                        repetition=rep,
                        status="unscored",
                        unscored_reason="parse_failure",
                    )
                )
                continue
            score = scores[out.id]
            obs.append(
                Observation(
                    output_id=out.id,
                    scorer="support",
                    repetition=rep,
                    status="scored",
                    score=score,
                    flagged=score < 1.0,
                )
            )
    return StudyResult(
        hybridjudge_version="0",
        created_at="2026-01-01T00:00:00+00:00",
        config=StudyConfig(
            scorers=("support",),
            repetitions=repetitions,
            thresholds={"support": 1.0},
            judge_mode="separate",
            model={},
        ),
        corpora=(),
        mutation_sets=(),
        sampling=None,
        outputs=tuple(outputs),
        observations=tuple(obs),
        wall_s={},
        analysis=analyse(outputs, obs, scorers=("support",), repetitions=repetitions),
    )


def test_study_thresholds_use_clean_bases_and_count_the_unscored() -> None:
    """21 bases labelled correct, one unscored in repetition 1: 20 clean, 10 choose. Every clean
    score is 1.0 but b0's 0.6, so at budget 0.1 (one alarm allowed of 10) the threshold is 1.0
    whichever half b0 falls in; the base labelled incorrect (0.1) and the mutant (0.0) are
    flagged, each in its own row."""
    study = _study([0.6] + [1.0] * 20)
    (row,) = study_thresholds(study, 0.1)
    assert (row.status, row.threshold) == ("chosen", 1.0)
    assert (row.clean, row.choosing, row.kept_back, row.unscored_clean) == (20, 10, 10, 1)
    cells = {(d.defect_class, d.origin, d.flagged, d.n) for d in row.detection}
    assert cells == {("omission", "mutator", 1, 1), ("labelled_incorrect", "labelled", 1, 1)}
    (few,) = study_thresholds(study, 0.05)
    assert few.status == "too_few_clean"
    assert few.threshold is None


def test_gate_compares_both_studies_at_the_chosen_thresholds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The toy study's support scores: 1.0, or 0.5 for fabricated numbers and two inversions;
    the current run also scores clean base b0 0.5. At the run's threshold 1.0 that is a new
    false alarm (0/3 -> 1/3): gate fails. Chosen at budget 0.1 on five 0.5 and five 1.0 scores,
    the threshold is 0.5 (one alarm allowed of 10, the 2nd smallest): nothing scoring 0.5 is
    flagged in either study, so no false alarm rose and no detection fell: gate passes."""
    from hybridjudge.cli import main
    from hybridjudge.study import save_study
    from tests.study._fixtures import make_study

    save_study(make_study(), tmp_path / "base" / "study.json")
    save_study(make_study(clean_flagged=True), tmp_path / "now" / "study.json")
    row = choose_threshold("support", [0.5] * 5 + [1.0] * 5, [1.0] * 10, {}, budget=0.1)
    assert row.threshold == 0.5
    chosen = make_study()
    chosen = chosen.model_copy(
        update={"analysis": chosen.analysis.model_copy(update={"thresholds": (row,)})}
    )
    save_study(chosen, tmp_path / "chosen" / "study.json")
    argv = ["gate", str(tmp_path / "now"), "--baseline", str(tmp_path / "base" / "study.json")]
    assert main(argv) == 1
    assert "false" in capsys.readouterr().err.lower()
    assert main([*argv, "--threshold-from", str(tmp_path / "chosen")]) == 0
    assert "thresholds chosen in" in capsys.readouterr().out
    # a study that chose none cannot be compared at its thresholds: fail closed
    assert main([*argv, "--threshold-from", str(tmp_path / "base")]) == 2
    assert "chose no thresholds" in capsys.readouterr().err


def test_a_threshold_of_zero_is_said_to_flag_nothing() -> None:
    """Two of ten choosing scores are 0.0 and one alarm is allowed (budget 0.1): the threshold is
    the 2nd smallest, 0.0, below which no score can be: the report says it flags nothing."""
    from hybridjudge.reports import render_markdown
    from tests.study._fixtures import make_study

    row = choose_threshold("support", [0.0, 0.0] + [1.0] * 8, [1.0] * 10, {}, budget=0.1)
    assert row.threshold == 0.0
    study = make_study()
    study = study.model_copy(
        update={"analysis": study.analysis.model_copy(update={"thresholds": (row,)})}
    )
    assert "flags no output" in render_markdown(study)
