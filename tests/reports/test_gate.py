"""The CI gate compares cell by cell and names the class and scorer that regressed."""

from __future__ import annotations

from pathlib import Path

import pytest

from hybridjudge import ConfigError
from hybridjudge.cli import main
from hybridjudge.reports import gate
from hybridjudge.study import Observation, StudyResult, analyse, save_study
from tests.study._fixtures import make_study


def test_unchanged_study_passes() -> None:
    result = gate(make_study(), make_study())
    assert result.passed
    # 3 classes x 2 scorers + 2 false-alarm rows
    assert result.compared == 8


def test_detection_fall_is_named() -> None:
    result = gate(make_study(detected_inversions=1), make_study(detected_inversions=2))
    assert not result.passed
    (failure,) = result.failures
    assert (failure.kind, failure.defect_class, failure.scorer) == (
        "detection_fell",
        "inversion",
        "support",
    )
    assert "2/4 (50%) to 1/4 (25%)" in failure.message


def test_tolerance_allows_a_small_fall() -> None:
    assert gate(
        make_study(detected_inversions=1), make_study(detected_inversions=2), tolerance=0.25
    ).passed
    with pytest.raises(ConfigError):
        gate(make_study(), make_study(), tolerance=2)


def test_false_alarm_rise_is_named() -> None:
    result = gate(make_study(clean_flagged=True), make_study())
    found = {(f.kind, f.defect_class, f.scorer) for f in result.failures}
    # A flagged base (0.5) also hides its mutants scoring 0.5 (not strictly below the base), so
    # by hand: fabricated_number0 and inversion0 stop counting as reactions.
    assert found == {
        ("false_alarms_rose", None, "support"),
        ("detection_fell", "fabricated_number", "support"),
        ("detection_fell", "inversion", "support"),
    }


def test_cli_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save_study(make_study(), tmp_path / "baseline.json")
    save_study(make_study(detected_inversions=0), tmp_path / "now" / "study.json")
    assert main(["gate", str(tmp_path / "now"), "--baseline", str(tmp_path / "baseline.json")]) == 1
    err = capsys.readouterr().err
    assert "REGRESSION toy / inversion [mutator] / support" in err
    save_study(make_study(), tmp_path / "same" / "study.json")
    assert (
        main(["gate", str(tmp_path / "same"), "--baseline", str(tmp_path / "baseline.json")]) == 0
    )
    assert (
        main(["gate", str(tmp_path / "missing"), "--baseline", str(tmp_path / "baseline.json")])
        == 2
    )


# -- fail closed (issue 10) ------------------------------------------------------------------


def _reanalysed(study: StudyResult, observations: list[Observation]) -> StudyResult:
    analysis = analyse(
        study.outputs,
        observations,
        scorers=list(study.config.scorers),
        repetitions=study.config.repetitions,
    )
    return study.model_copy(update={"observations": tuple(observations), "analysis": analysis})


def _dead_endpoint(study: StudyResult, *, keep_scored: int = 0) -> StudyResult:
    """The same study with the judge's calls failed (model_error) except ``keep_scored`` outputs."""
    kept = {o.id for o in study.outputs[:keep_scored]}
    observations = [
        o
        if o.scorer != "support" or o.output_id in kept
        else Observation(
            output_id=o.output_id,
            scorer=o.scorer,
            repetition=o.repetition,
            status="unscored",
            unscored_reason="model_error",
            detail="claims: could not reach http://127.0.0.1:9/v1",
        )
        for o in study.observations
    ]
    return _reanalysed(study, observations)


def test_dead_endpoint_study_fails_against_a_good_baseline() -> None:
    dead = _dead_endpoint(make_study())
    # the cells no longer pretend: no scored mutant, the unscored ones counted apart
    fa = {r.scorer: r for r in dead.analysis.false_alarms}
    assert (fa["support"].n, fa["support"].unscored, fa["support"].rate) == (0, 3, None)
    result = gate(dead, make_study())
    assert not result.passed
    kinds = {f.kind for f in result.failures}
    assert "unscored" in kinds
    assert "not_measured" in kinds
    assert result.unscored_share["support"] == 1.0
    assert result.exit_code == 3
    # every support cell of the baseline is named as not measured
    assert sum(f.kind == "not_measured" and f.scorer == "support" for f in result.failures) == 4


def test_unscored_share_under_the_threshold_passes() -> None:
    # 2 of 13 outputs x 2 repetitions unscored: 4 of 26 evaluations = 15.4%
    partial = _dead_endpoint(make_study(), keep_scored=11)
    share = gate(partial, partial).unscored_share["support"]
    assert share == pytest.approx(4 / 26)
    assert gate(partial, partial, max_unscored=0.5).passed
    # the 2 unscored outputs are 2 of the 4 inversion mutants: at 0.2 the scorer passes (15.4%)
    # but that cell (50%) does not, in either study
    cells = gate(partial, partial, max_unscored=0.2).failures
    assert {(f.kind, f.defect_class, f.scorer) for f in cells} == {
        ("unscored", "inversion", "support")
    }
    (cell,) = cells  # the baseline's cell is named first (the current one is then not compared)
    assert cell.message.startswith("the baseline's toy / inversion")
    assert gate(partial, partial, max_unscored=0.1).exit_code == 3
    # the baseline is held to the same per-scorer rule: incomplete there too (exit 3)
    kinds = {(f.kind, f.current is None) for f in gate(partial, partial, max_unscored=0.1).failures}
    assert kinds == {("unscored", False), ("unscored", True)}  # now, and in the baseline
    assert gate(partial, make_study(), max_unscored=0.1).exit_code == 3
    assert gate(make_study(), partial, max_unscored=0.1).exit_code == 3


def test_mismatched_studies_fail_as_not_comparable() -> None:
    base = make_study()
    renamed = base.model_copy(
        update={"corpora": (base.corpora[0].model_copy(update={"name": "other"}),)}
    )
    result = gate(renamed, base)
    assert any(f.kind == "mismatch" and "corpora" in f.message for f in result.failures)
    assert result.exit_code == 2
    fewer = base.model_copy(
        update={"config": base.config.model_copy(update={"scorers": ("deterministic",)})}
    )
    assert any("scorers" in f.message for f in gate(fewer, base).failures)
    no_inversions = _reanalysed(
        base.model_copy(
            update={"outputs": tuple(o for o in base.outputs if o.defect != "inversion")}
        ),
        [o for o in base.observations if not o.output_id.startswith("inversion")],
    )
    result = gate(no_inversions, base)
    assert any("defect classes differ" in f.message for f in result.failures)
    assert result.exit_code == 2


def test_zero_rates_compared_fails() -> None:
    base = make_study()
    empty = base.model_copy(
        update={"analysis": base.analysis.model_copy(update={"detection": (), "false_alarms": ()})}
    )
    result = gate(base, empty)
    assert result.compared == 0
    # the studies differ in classes; each scorer has nothing to be compared with; and overall
    assert [(f.kind, f.scorer) for f in result.failures] == [
        ("mismatch", None),
        ("nothing_compared", "deterministic"),
        ("nothing_compared", "support"),
        ("nothing_compared", None),
    ]
    assert result.exit_code == 2


def test_cli_gate_exit_codes_fail_closed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save_study(make_study(), tmp_path / "baseline.json")
    save_study(_dead_endpoint(make_study()), tmp_path / "dead" / "study.json")
    code = main(["gate", str(tmp_path / "dead"), "--baseline", str(tmp_path / "baseline.json")])
    err = capsys.readouterr().err
    assert code == 3
    assert "INCOMPLETE support: 26 of 26 evaluations unscored" in err
    base = make_study()
    empty = base.model_copy(
        update={"analysis": base.analysis.model_copy(update={"detection": (), "false_alarms": ()})}
    )
    save_study(empty, tmp_path / "empty.json")
    code = main(
        ["gate", str(tmp_path / "baseline.json"), "--baseline", str(tmp_path / "empty.json")]
    )
    out, err = capsys.readouterr()
    assert code == 2
    assert "no rate was compared" in err
    assert "passed" not in out
    with pytest.raises(SystemExit) as info:  # argparse: a usage error
        main(["gate", str(tmp_path), "--baseline", "x", "--max-unscored", "2"])
    assert info.value.code == 2
    assert "--max-unscored expects a fraction in [0, 1]" in capsys.readouterr().err


# -- a baseline that never measured a judge cannot pass a gate ------------------------------


def test_a_baseline_whose_judge_never_ran_cannot_be_compared() -> None:
    # the audit's repro: every judge result of the baseline model_error (0 scored), a blind
    # judge now; only the deterministic cells could be compared, and the gate passed
    dead_baseline = _dead_endpoint(make_study())
    blind_now = make_study(detected_inversions=0)
    result = gate(blind_now, dead_baseline, max_unscored=1.0)
    assert not result.passed
    assert result.exit_code == 2
    (failure,) = result.failures
    assert (failure.kind, failure.scorer) == ("nothing_compared", "support")
    assert failure.message.startswith("support: the baseline measured no cell of it: 26 of 26")
    assert "model_error 26" in failure.message
    assert result.compared > 0  # the deterministic cells were compared, and that is not enough


def test_a_baseline_over_max_unscored_for_one_scorer_is_incomplete() -> None:
    partial_baseline = _dead_endpoint(make_study(), keep_scored=11)  # 4 of 26 unscored
    result = gate(make_study(), partial_baseline)
    assert result.exit_code == 3  # incomplete, as a current study with that share would be
    # the scorer, then its inversion cell (2 of its 4 mutants unscored)
    failure, cell = [f for f in result.failures if f.kind == "unscored"]
    assert (cell.defect_class, cell.current) == ("inversion", 0.5)
    assert (failure.scorer, failure.current) == ("support", None)
    assert failure.baseline == pytest.approx(4 / 26)
    assert failure.message.startswith(
        "the baseline's support: 4 of 26 evaluations unscored (model_error 4), 15.4% > "
        "max_unscored 0%"
    )
    assert "raise --max-unscored" in failure.message
    # within the threshold (for the scorer, 15.4%, and for its inversion cell, 2 of 4) the
    # baseline counts; its cells hold only the scored outputs
    assert "unscored" not in {
        f.kind for f in gate(make_study(), partial_baseline, max_unscored=0.5).failures
    }


def test_cli_gate_on_a_dead_baseline_says_cannot_compare(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save_study(_dead_endpoint(make_study()), tmp_path / "dead.json")
    save_study(make_study(detected_inversions=0), tmp_path / "now" / "study.json")
    code = main(["gate", str(tmp_path / "now"), "--baseline", str(tmp_path / "dead.json")])
    out, err = capsys.readouterr()
    assert code == 2
    assert "CANNOT COMPARE support: the baseline measured no cell of it" in err
    assert "passed" not in out


def test_a_cell_mostly_unscored_is_not_compared() -> None:
    study = make_study()
    inversions = [o.id for o in study.outputs if o.defect == "inversion"]
    assert len(inversions) == 4  # the toy study's inversion mutants (see _fixtures)
    dead = set(inversions[1:])  # 3 of the 4 left unscored in both repetitions
    observations = [
        o
        if o.scorer != "support" or o.output_id not in dead
        else Observation(
            output_id=o.output_id,
            scorer=o.scorer,
            repetition=o.repetition,
            status="unscored",
            unscored_reason="parse_failure",
            detail="no verdict in the reply",
        )
        for o in study.observations
    ]
    thin = _reanalysed(study, observations)
    # by hand: 6 of the support scorer's 26 evaluations are unscored (23.1%), under 25%
    assert gate(thin, make_study(), max_unscored=0.25).unscored_share["support"] == pytest.approx(
        6 / 26
    )
    result = gate(thin, make_study(), max_unscored=0.25)
    (failure,) = result.failures
    assert (failure.kind, failure.defect_class, failure.scorer) == (
        "unscored",
        "inversion",
        "support",
    )
    assert "3 of 4 mutants unscored (75.0% > max_unscored 25%)" in failure.message
    assert result.exit_code == 3
    # and as the baseline: its thin cell is not compared either
    (as_baseline,) = gate(make_study(), thin, max_unscored=0.25).failures
    assert as_baseline.message.startswith("the baseline's toy / inversion")


def test_false_alarms_on_unlabelled_answers_are_not_measured_and_say_why() -> None:
    # a baseline measured on answers labelled correct; now the same answers carry no label
    baseline = make_study()
    unlabelled = baseline.model_copy(
        update={
            "outputs": tuple(
                o.model_copy(update={"clean": None}) if o.base_id is None else o
                for o in baseline.outputs
            )
        }
    )
    current = _reanalysed(unlabelled, list(unlabelled.observations))
    assert {(r.n, r.unlabelled) for r in current.analysis.false_alarms} == {(0, 3)}
    result = gate(current, baseline)
    failures = [f for f in result.failures if f.kind == "not_measured"]
    assert {f.scorer for f in failures} == {r.scorer for r in baseline.analysis.false_alarms}
    assert all("none of its 3 answers is labelled correct" in f.message for f in failures)
