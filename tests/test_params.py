"""One validator per shared parameter: ``repetitions`` is checked once, with one message.

The library entry points (``run_study``, ``judge_many``) and the two commands that take
``--repetitions`` all report a bad value with the message of ``hybridjudge._params``, before any
work is done (no model call: the library calls are given no client and no endpoint).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hybridjudge import ConfigError
from hybridjudge._params import check_repetitions
from hybridjudge.cli import main
from hybridjudge.judges import judge_many
from hybridjudge.study import load_plan, run_study

REPO = Path(__file__).resolve().parents[1]
BAD = [0, -1, True, 1.5, "2", None]


def _message(value: object) -> str:
    return f"repetitions must be a whole number of at least 1, got {value!r}"


@pytest.mark.parametrize("value", BAD)
def test_the_validator_refuses_what_is_not_a_count(value: object) -> None:
    with pytest.raises(ConfigError) as info:
        check_repetitions(value)
    assert str(info.value) == _message(value)
    assert info.value.code == "invalid_repetitions"


@pytest.mark.parametrize("value", [1, 2, 50])
def test_the_validator_accepts_a_count(value: int) -> None:
    assert check_repetitions(value) == value


@pytest.mark.parametrize("value", [0, True])
def test_every_library_entry_point_gives_the_same_message(value: object) -> None:
    plan = load_plan(corpus_paths=[REPO / "corpus" / "opengate"])
    with pytest.raises(ConfigError) as study:
        run_study(plan, scorers=["deterministic"], repetitions=value)  # type: ignore[arg-type]
    with pytest.raises(ConfigError) as judges:
        judge_many([], repetitions=value)  # type: ignore[arg-type]
    assert str(study.value) == str(judges.value) == _message(value)


def test_both_commands_give_the_same_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = tmp_path / "cases.jsonl"
    line = {"id": "a", "answer": "It costs 12 EUR.", "context": "The price is 12 EUR."}
    cases.write_text(json.dumps(line) + "\n", encoding="utf-8")
    assert main(["judge", str(cases), "--repetitions", "0"]) == 2
    judge_err = capsys.readouterr().err
    study_argv = ["study", "run", "--corpus", str(REPO / "corpus" / "opengate")]
    study_argv += ["--scorers", "deterministic", "--repetitions", "0", "--out", str(tmp_path / "o")]
    assert main(study_argv) == 2
    study_err = capsys.readouterr().err
    for err in (judge_err, study_err):
        assert f"error [invalid_repetitions]: {_message(0)}" in err, err
