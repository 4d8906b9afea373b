"""Progress lines in a log: ``hybridjudge study run`` and ``hybridjudge judge`` print plain
progress lines when stderr is not a terminal (a bar is drawn only on a terminal), throttled per
phase, the last one always; none with ``-q``."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from hybridjudge.cli import _progress, main
from hybridjudge.cli._progress import ProgressLines
from tests.study.golden.scripted_judge import respond
from tests.support.openai_server import FakeOpenAIServer

TOY = Path(__file__).resolve().parents[1] / "study" / "golden" / "toy"
LINE = re.compile(
    r"^(?P<prefix>[\w ]+): (?P<phase>\S+) (?P<done>\d+)/(?P<total>\d+) \((?P<pct>\d+)%\)"
)


def test_lines_are_throttled_per_phase_and_the_last_is_always_printed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = iter([0.0, 1.0, 2.0, 40.0, 41.0, 0.0, 50.0, 60.0, 61.0])
    monkeypatch.setattr(_progress.time, "monotonic", lambda: next(clock))
    out = io.StringIO()
    lines = ProgressLines("hj", stream=out, interval=30.0)
    lines.update("judging", 1, 10)  # t=0: starts the phase, nothing printed yet
    lines.update("judging", 2, 10)  # t=1: within the interval
    lines.update("judging", 3, 10)  # t=2
    lines.update("judging", 8, 10)  # t=40: 40 s since the start, printed
    lines.update("judging", 9, 10)  # t=41: within the interval again
    lines.update("checks", 5, 5)  # t=0 for another phase: complete, printed at once
    lines.update("judging", 10, 10)  # t=50: complete, printed although within the interval
    lines.update("judging", 10, 10)  # t=60: already complete, not printed twice
    lines.update("checks", 5, 5)  # t=61
    printed = out.getvalue().splitlines()
    # by hand: 8 of 10 after 40 s leaves 2 at 5 s each; durations rounded to the second
    assert printed == [
        "hj: judging 8/10 (80%), 40 s elapsed, about 10 s left",
        "hj: checks 5/5 (100%), 0 s elapsed",
        "hj: judging 10/10 (100%), 50 s elapsed",
    ]


def test_minutes_are_written_with_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = iter([0.0, 125.4])
    monkeypatch.setattr(_progress.time, "monotonic", lambda: next(clock))
    out = io.StringIO()
    lines = ProgressLines("hj", stream=out, interval=30.0)
    lines.update("judges", 0, 100)
    lines.update("judges", 25, 100)
    # by hand: 125.4 s for 25 items, 75 left: 376.2 s = 6 min 16 s
    assert out.getvalue() == "hj: judges 25/100 (25%), 2 min 05 s elapsed, about 6 min 16 s left\n"


def _model_flags(server: FakeOpenAIServer, tmp_path: Path) -> list[str]:
    flags = ["--base-url", server.base_url, "--model", "fake-model", "--max-unscored", "0.5"]
    return [*flags, "--price-in", "1", "--price-out", "2", "--cache-dir", str(tmp_path / "c")]


def _study_args(server: FakeOpenAIServer, tmp_path: Path, out: str) -> list[str]:
    args = ["study", "run", "--corpus", str(TOY), "--out", str(tmp_path / out)]
    return [*args, "--backend", "openai", *_model_flags(server, tmp_path)]


def test_study_in_a_log_prints_each_phase_to_its_end(
    openai_server: FakeOpenAIServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    openai_server.respond_with(respond)
    monkeypatch.setattr(_progress, "INTERVAL_S", 0.0)  # every update is a line
    assert main(_study_args(openai_server, tmp_path, "res")) == 0
    err = capsys.readouterr().err
    found = [m for line in err.splitlines() if (m := LINE.match(line))]
    assert found, err
    assert {m["prefix"] for m in found} == {"hybridjudge study run"}
    by_phase: dict[str, list[re.Match[str]]] = {}
    for m in found:
        by_phase.setdefault(m["phase"], []).append(m)
    assert len(by_phase) >= 2  # the checks and the judges
    for phase, ms in by_phase.items():
        done = [int(m["done"]) for m in ms]
        assert done == sorted(done), phase  # never backwards
        assert ms[-1]["done"] == ms[-1]["total"], phase
        assert ms[-1]["pct"] == "100", phase

    monkeypatch.setattr(_progress, "INTERVAL_S", 3600.0)  # only each phase's last line
    assert main(_study_args(openai_server, tmp_path, "res-2")) == 0
    err = capsys.readouterr().err
    again = [m for line in err.splitlines() if (m := LINE.match(line))]
    assert len(again) == len(by_phase)
    assert all(m["pct"] == "100" for m in again)

    assert main([*_study_args(openai_server, tmp_path, "res-3"), "-q"]) == 0
    assert not [line for line in capsys.readouterr().err.splitlines() if LINE.match(line)]


def test_judge_in_a_log_prints_progress_lines_unless_quiet(
    openai_server: FakeOpenAIServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import json

    openai_server.respond_with(respond)
    monkeypatch.setattr(_progress, "INTERVAL_S", 0.0)
    cases = tmp_path / "cases.jsonl"
    rows = [
        {
            "id": f"c{i}",
            "answer": f"Refunds are accepted within {i} days.",
            "context": "Refunds are accepted within 30 days.",
        }
        for i in range(6)
    ]
    cases.write_text("".join(json.dumps(r) + "\n" for r in rows))
    flags = _model_flags(openai_server, tmp_path)
    main(["judge", str(cases), *flags])
    err = capsys.readouterr().err
    found = [m for line in err.splitlines() if (m := LINE.match(line))]
    assert found, err
    assert {(m["prefix"], m["phase"]) for m in found} == {("hybridjudge judge", "judging")}
    assert (found[-1]["done"], found[-1]["total"]) == ("6", "6")

    main(["judge", str(cases), *flags, "-q"])
    assert not [line for line in capsys.readouterr().err.splitlines() if LINE.match(line)]
