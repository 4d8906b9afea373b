"""The study models refuse what no study can hold: an unknown format version, an observation
out of range or inconsistent with its status; every study the project wrote still loads."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from hybridjudge._errors import InputError
from hybridjudge.study import STUDY_FORMAT_VERSION, Observation, StudyResult, load_study

ROOT = Path(__file__).resolve().parents[2]
STUDIES = sorted(ROOT.glob("results/**/study.json"))


def _scored(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "output_id": "c1::base",
        "scorer": "support",
        "repetition": 0,
        "status": "scored",
        "score": 0.5,
        "flagged": True,
    }
    data.update(changes)
    return data


def _unscored(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "output_id": "c1::base",
        "scorer": "support",
        "repetition": 0,
        "status": "unscored",
        "unscored_reason": "parse_failure",
    }
    data.update(changes)
    return data


def test_valid_observations_still_validate() -> None:
    assert Observation.model_validate(_scored()).score == 0.5
    assert Observation.model_validate(_scored(score=0.0, flagged=False)).score == 0.0
    assert Observation.model_validate(_scored(score=1.0, flagged=False)).score == 1.0
    for reason in (
        "no_claims",
        "parse_failure",
        "model_error",
        "record_error",
        "nan",
        "no_score_in_paper",
    ):
        assert Observation.model_validate(_unscored(unscored_reason=reason)).score is None


@pytest.mark.parametrize(
    ("data", "field"),
    [
        (_scored(repetition=-1), "repetition"),
        (_scored(score=7.0), "score"),
        (_scored(score=-0.1), "score"),
        (_scored(score=float("nan")), "score"),
        (_scored(score=None), "a scored observation needs a score"),
        (_scored(unscored_reason="parse_failure"), "a scored observation needs a score"),
        (_scored(flagged=None), "flagged"),
        (_unscored(score=0.5), "an unscored observation"),
        (_unscored(unscored_reason=None), "an unscored observation"),
        (_unscored(flagged=True), "an unscored observation"),
        (_unscored(unscored_reason="tired"), "unscored_reason"),
        (_scored(latency_ms=-5.0), "latency_ms"),
        (_scored(latency_ms=float("inf")), "latency_ms"),
    ],
)
def test_an_invalid_observation_is_refused(data: dict[str, Any], field: str) -> None:
    with pytest.raises(ValidationError, match=field):
        Observation.model_validate(data)


@pytest.mark.parametrize("study", STUDIES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_study_the_project_wrote_still_loads(study: Path) -> None:
    loaded = load_study(study)
    assert loaded.observations
    data = json.loads(study.read_text(encoding="utf-8"))
    assert StudyResult.model_validate(data) == loaded


def _study_data() -> dict[str, Any]:
    assert STUDIES, "no study.json under results/: the checks below would be vacuous"
    data: dict[str, Any] = json.loads(STUDIES[0].read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("version", [9, 99, 0, True, 2.0, "2", None])
def test_the_model_refuses_a_format_version_it_does_not_know(version: object) -> None:
    data = _study_data()
    data["format_version"] = version
    with pytest.raises(ValidationError, match="not supported by this hybridjudge") as caught:
        StudyResult.model_validate(data)
    assert "reads versions 1, 2, 3, 4, 5, 6" in str(caught.value)


def test_version_1_reads_as_the_current_version() -> None:
    data = _study_data()
    data["format_version"] = 1
    assert StudyResult.model_validate(data).format_version == STUDY_FORMAT_VERSION


def test_load_study_still_says_which_versions_it_reads(tmp_path: Path) -> None:
    data = _study_data()
    data["format_version"] = 9
    path = tmp_path / "study.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(
        InputError, match=r"study format version 9 is not supported .*1, 2, 3, 4, 5, 6, 7, 8"
    ):
        load_study(path)
