"""The CI gate compares cell by cell and names the class and scorer that regressed."""

from __future__ import annotations

from pathlib import Path

import pytest

from hybridjudge import ConfigError
from hybridjudge.cli import main
from hybridjudge.reports import gate
from hybridjudge.study import save_study
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
