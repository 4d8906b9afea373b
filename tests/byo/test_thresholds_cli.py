"""``study run --false-alarm-budget`` on labelled answers, judged by a scripted OpenAI-compatible
server on 127.0.0.1: the chosen threshold, its interval and the kept-back false alarms in
study.json, report.md, report.html and the terminal; then read back by ``judge
--threshold-from`` and ``hybridjudge.testing.study_thresholds``."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from hybridjudge.cli import main
from hybridjudge.model import ModelConfig
from hybridjudge.study import STUDY_FORMAT_VERSION, load_study, split_clean
from tests.byo._judge import TextJudge
from tests.support.openai_server import FakeOpenAIServer

FACTS = [
    "Express shipping costs $12.",
    "It arrives in 2 days.",
    "Returns are free for 30 days.",
    "Support answers within 4 hours.",
]
CONTEXT = " ".join(FACTS)
UNSUPPORTED = "Orders ship from Berlin."


def _records(correct: int) -> list[dict[str, object]]:
    """``correct`` answers labelled correct: all four facts (support 1.0), but r0 and r1 add an
    unsupported sentence (support 4/5 = 0.8); two labelled incorrect: one unsupported sentence
    with a fact (0.5) and the unsupported sentence alone (0.0)."""
    rows: list[dict[str, object]] = []
    for i in range(correct):
        answer = CONTEXT + (f" {UNSUPPORTED}" if i < 2 else "")
        rows.append({"id": f"r{i}", "question": "Shipping?", "context": CONTEXT, "answer": answer})
        rows[-1]["label"] = "correct"
    rows.append(
        {"id": "w0", "question": "Shipping?", "context": CONTEXT, "label": "incorrect"}
        | {"answer": f"{FACTS[0]} {UNSUPPORTED}"}
    )
    rows.append(
        {"id": "w1", "question": "Shipping?", "context": CONTEXT, "label": "incorrect"}
        | {"answer": UNSUPPORTED}
    )
    return rows


def _study(tmp_path: Path, server: FakeOpenAIServer, correct: int, budget: str) -> Path:
    source = tmp_path / "answers.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in _records(correct)), encoding="utf-8")
    corpus = tmp_path / "mine"
    assert main(["corpus", "import", str(source), "--out", str(corpus)]) == 0
    server.respond_with(TextJudge([CONTEXT]))
    out = tmp_path / "results"
    argv = ["study", "run", "--corpus", str(corpus), "--scorers", "support", "--out", str(out)]
    argv += ["--false-alarm-budget", budget, "--base-url", server.base_url, "--model", "fake"]
    argv += ["--cache-dir", str(tmp_path / "cache"), "--max-retries", "0"]
    assert main(argv) == 0
    return out


def test_a_study_run_chooses_and_shows_the_threshold(
    openai_server: FakeOpenAIServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """22 answers labelled correct, budget 0.1: 11 choose (ceil(1/0.1) = 10 needed) and
    floor(0.1 * 11) = 1 false alarm is allowed, so the threshold is the 2nd smallest choosing
    score: 0.8 when both 0.8 answers choose, else 1.0. The kept-back half (11) holds the 0.8
    answers that did not choose; at 0.8 none is flagged, at 1.0 each is."""
    monkeypatch.setenv("HYBRIDJUDGE_TEST_API_KEY", "x")
    monkeypatch.setenv("COLUMNS", "250")
    out = _study(tmp_path, openai_server, correct=22, budget="0.1")
    study = load_study(out)
    (row,) = study.analysis.thresholds
    assert row.status == "chosen"
    assert (row.budget, row.clean, row.choosing, row.kept_back, row.needed) == (0.1, 22, 11, 11, 10)
    choosing, _kept = split_clean([f"r{i}::base" for i in range(22)], seed=0)
    low = [i for i in ("r0::base", "r1::base") if i in choosing]
    expected = 0.8 if len(low) == 2 else 1.0
    assert row.threshold == pytest.approx(expected)
    kept_low = 2 - len(low)
    assert row.kept_back_false_alarms == (0 if expected == 0.8 else kept_low)
    assert row.ci_low is not None
    assert row.ci_high is not None
    assert 0.8 - 1e-9 <= row.ci_low <= row.threshold <= row.ci_high <= 1.0
    (wrong,) = row.detection
    assert (wrong.defect_class, wrong.n, wrong.flagged) == ("labelled_incorrect", 2, 2)
    assert json.loads((out / "study.json").read_text())["format_version"] == STUDY_FORMAT_VERSION

    rendered = f"{row.threshold:.2f}"
    interval = f"[{row.ci_low:.2f}–{row.ci_high:.2f}]"
    kept_cell = f"{row.kept_back_false_alarms}/11"
    for name in ("report.md", "report.html"):
        text = (out / name).read_text(encoding="utf-8")
        assert "Thresholds for a false-alarm budget" in text, name
        assert "False-alarm budget: 0.1." in text, name
        for part in (rendered, interval, kept_cell, "chosen on 11 clean"):
            assert part in text, (name, part)
    terminal = capsys.readouterr().err
    assert "thresholds for a false-alarm budget of 0.1" in terminal
    assert interval in terminal
    assert kept_cell in terminal


def test_too_few_clean_answers_choose_no_threshold(
    openai_server: FakeOpenAIServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Budget 0.05 needs ceil(1/0.05) = 20 choosing answers; 22 answers give 11."""
    monkeypatch.setenv("HYBRIDJUDGE_TEST_API_KEY", "x")
    out = _study(tmp_path, openai_server, correct=22, budget="5%")
    (row,) = load_study(out).analysis.thresholds
    assert row.status == "too_few_clean"
    assert row.threshold is None
    assert math.ceil(1 / 0.05) == row.needed == 20
    message = "not enough clean outputs: 11 to choose on, need at least 20"
    assert message in (out / "report.md").read_text(encoding="utf-8")
    assert message in capsys.readouterr().err


def test_the_budget_must_be_a_share(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    argv = ["study", "run", "--corpus", str(tmp_path), "--out", str(tmp_path / "o")]
    with pytest.raises(SystemExit) as caught:
        main([*argv, "--false-alarm-budget", "1.5"])
    assert caught.value.code == 2
    assert "strictly between 0 and 1" in capsys.readouterr().err


def _chosen_study(tmp_path: Path, choosing: list[float]) -> Path:
    """A study whose support threshold was chosen at budget 0.1 on ``choosing``."""
    from hybridjudge.study import choose_threshold, save_study
    from tests.study._fixtures import make_study

    row = choose_threshold("support", choosing, [1.0] * 10, {}, budget=0.1)
    study = make_study()
    study = study.model_copy(
        update={"analysis": study.analysis.model_copy(update={"thresholds": (row,)})}
    )
    return save_study(study, tmp_path / "chosen" / "study.json").parent


def test_judge_takes_the_threshold_from_the_study(
    openai_server: FakeOpenAIServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Chosen on five 0.8 and five 1.0 scores at budget 0.1: one alarm allowed of 10, so the
    threshold is the 2nd smallest, 0.8. An answer of the four facts and one unsupported
    sentence scores 4/5 = 0.8: it fails the default threshold (1.0) and passes the study's."""
    monkeypatch.setenv("HYBRIDJUDGE_TEST_API_KEY", "x")
    openai_server.respond_with(TextJudge([CONTEXT]))
    results = _chosen_study(tmp_path, [0.8] * 5 + [1.0] * 5)
    cases = tmp_path / "cases.jsonl"
    row = {"id": "a", "question": "Shipping?", "context": CONTEXT}
    cases.write_text(json.dumps(row | {"answer": f"{CONTEXT} {UNSUPPORTED}"}) + "\n")
    argv = ["judge", str(cases), "--scorers", "support", "--base-url", openai_server.base_url]
    argv += ["--model", "fake", "--cache-dir", str(tmp_path / "cache"), "--max-retries", "0"]
    assert main(argv) == 1
    capsys.readouterr()
    assert main([*argv, "--threshold-from", str(results)]) == 0
    assert main([*argv, "--threshold-from", str(results), "--threshold", "support=0.5"]) == 2
    assert "keep one" in capsys.readouterr().err
    few = _chosen_study(tmp_path / "few", [0.8] * 5)  # 5 < ceil(1/0.1)
    assert main([*argv, "--threshold-from", str(few)]) == 2
    assert "not enough clean outputs: 5 to choose on, need at least 10" in capsys.readouterr().err
    assert main([*argv, "--threshold-from", str(tmp_path / "chosen" / "nowhere")]) == 2


def test_the_pytest_helpers_read_the_study_thresholds(
    openai_server: FakeOpenAIServer,
    fake_model_config: ModelConfig,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The study of the test above (threshold 0.8): the 0.8 answer fails the default min_score
    and passes the study's; a study with too few clean outputs is an error, never a default."""
    from hybridjudge import InputError
    from hybridjudge.testing import FaithfulnessJudge, assert_faithful, thresholds_from_study

    monkeypatch.setenv("HYBRIDJUDGE_TEST_API_KEY", "x")
    openai_server.respond_with(TextJudge([CONTEXT]))
    chosen = thresholds_from_study(_chosen_study(tmp_path, [0.8] * 5 + [1.0] * 5))
    assert chosen == {"support": 0.8}
    answer = f"{CONTEXT} {UNSUPPORTED}"
    with FaithfulnessJudge(fake_model_config, scorers=("support",)) as judge:
        with pytest.raises(AssertionError, match="not faithful"):
            assert_faithful(answer, CONTEXT, judge=judge)
        results = assert_faithful(answer, CONTEXT, min_score=chosen, judge=judge)
    assert results["support"].score == pytest.approx(0.8)
    with pytest.raises(InputError, match="not enough clean outputs: 5 to choose on"):
        thresholds_from_study(_chosen_study(tmp_path / "few", [0.8] * 5))
