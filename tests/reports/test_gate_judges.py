"""The gate with several judges (``NAME:SCORER``): compared judge by judge, failing closed."""

from __future__ import annotations

from pathlib import Path

import pytest

from hybridjudge.cli import main
from hybridjudge.reports import gate
from hybridjudge.study import JudgeRecord, Observation, StudyResult, analyse, save_study
from tests.study._fixtures import make_study


def _two_judges(
    *,
    a_inversions: int = 2,
    b_inversions: int = 2,
    b_model: str = "model-b",
    b_unscored: bool = False,
    judges: tuple[str, ...] = ("a", "b"),
) -> StudyResult:
    """make_study's support judge run as judges ``a`` and ``b`` (each detecting its own number
    of the 4 inversions); ``b_unscored`` leaves every evaluation of ``b`` unscored."""
    per_judge = {"a": make_study(detected_inversions=a_inversions)}
    per_judge["b"] = make_study(detected_inversions=b_inversions)
    base = per_judge["a"]
    obs: list[Observation] = [o for o in base.observations if o.scorer == "deterministic"]
    for name in judges:
        for o in per_judge[name].observations:
            if o.scorer != "support":
                continue
            update: dict[str, object] = {"scorer": f"{name}:support"}
            if name == "b" and b_unscored:
                update |= {
                    "status": "unscored",
                    "score": None,
                    "flagged": None,
                    "unscored_reason": "model_error",
                }
            obs.append(o.model_copy(update=update))
    scorers = ["deterministic", *(f"{n}:support" for n in judges)]
    analysis = analyse(base.outputs, obs, scorers=scorers, repetitions=2)
    models = {"a": "model-a", "b": b_model}
    config = base.config.model_copy(
        update={
            "scorers": tuple(scorers),
            "thresholds": dict.fromkeys(scorers[1:], 1.0),
            "model": {},
            "judges": tuple(
                JudgeRecord(name=n, model={"model": models[n], "endpoint": "http://h/v1"})
                for n in judges
            ),
        }
    )
    return base.model_copy(
        update={"config": config, "observations": tuple(obs), "analysis": analysis}
    )


def test_two_unchanged_judges_pass() -> None:
    result = gate(_two_judges(), _two_judges())
    assert result.passed
    # by hand: 3 classes x 3 scorers + 3 false-alarm rows
    assert result.compared == 12


def test_one_judge_falling_is_named_by_its_judge() -> None:
    result = gate(_two_judges(b_inversions=1), _two_judges())
    assert result.exit_code == 1
    (failure,) = result.failures
    assert (failure.kind, failure.defect_class, failure.scorer) == (
        "detection_fell",
        "inversion",
        "b:support",
    )
    assert "b:support: detection fell from 2/4 (50%) to 1/4 (25%)" in failure.message


def test_a_judge_that_did_not_run_fails_as_incomplete() -> None:
    result = gate(_two_judges(b_unscored=True), _two_judges(), max_unscored=0.1)
    assert result.exit_code == 3
    kinds = {(f.kind, f.scorer) for f in result.failures}
    assert ("unscored", "b:support") in kinds
    assert ("not_measured", "b:support") in kinds  # its cells are not measured now


def test_a_judge_that_did_not_run_fails_as_incomplete_even_at_max_unscored_1() -> None:
    now = _two_judges(b_unscored=True)
    n = sum(o.scorer == "b:support" for o in now.observations)  # outputs x repetitions
    result = gate(now, _two_judges(), max_unscored=1.0)
    assert result.exit_code == 3
    (failure,) = [f for f in result.failures if f.kind == "unscored"]
    assert failure.scorer == "b:support"
    assert f"b:support: {n} of {n} evaluations unscored (every one: model_error {n})" in (
        failure.message
    )


def test_a_judge_missing_or_renamed_cannot_be_compared() -> None:
    result = gate(_two_judges(judges=("a",)), _two_judges())
    assert result.exit_code == 2
    assert any("scorers" in f.message for f in result.failures if f.kind == "mismatch")


def test_the_same_judge_name_on_another_model_cannot_be_compared() -> None:
    result = gate(_two_judges(b_model="model-c"), _two_judges())
    assert result.exit_code == 2
    (failure,) = [f for f in result.failures if f.kind == "mismatch"]
    assert "judge b is model-c at http://h/v1 now but was model-b at http://h/v1" in (
        failure.message
    )


def test_cli_gate_with_two_judges(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save_study(_two_judges(), tmp_path / "baseline.json")
    save_study(_two_judges(a_inversions=0), tmp_path / "now" / "study.json")
    code = main(["gate", str(tmp_path / "now"), "--baseline", str(tmp_path / "baseline.json")])
    assert code == 1
    assert "REGRESSION toy / inversion [mutator] / a:support" in capsys.readouterr().err


def test_a_judge_that_never_ran_in_the_baseline_cannot_be_compared() -> None:
    result = gate(_two_judges(), _two_judges(b_unscored=True), max_unscored=1.0)
    assert result.exit_code == 2
    (failure,) = result.failures
    assert (failure.kind, failure.scorer) == ("nothing_compared", "b:support")
    # judge a and the deterministic scorer were compared: they do not make the gate pass
    assert result.compared > 0
