"""The pytest plugin and ``hybridjudge.testing``, run by pytester against the scripted server."""

from __future__ import annotations

from importlib.metadata import entry_points
from pathlib import Path

import pytest

from hybridjudge.testing import assert_grounded
from tests.byo._judge import TextJudge
from tests.support.openai_server import FakeOpenAIServer

pytest_plugins = ["pytester"]

CONTEXT = "Customers may request a full refund within 30 days of purchase."

USER_TESTS = f"""
from hybridjudge.testing import assert_faithful, assert_grounded

CONTEXT = {CONTEXT!r}


def test_grounded_answer():
    assert_grounded("You can get a full refund within 30 days.", CONTEXT, anchors=["30 days"])


def test_ungrounded_answer():
    assert_grounded("You can get a refund within 45 days.", CONTEXT, anchors=["30 days"])


def test_faithful_answer(hybridjudge_judge):
    assert_faithful(CONTEXT, CONTEXT, min_score=0.8, judge=hybridjudge_judge)


def test_unfaithful_answer(hybridjudge_judge):
    answer = CONTEXT + " Refunds are only possible within 14 days."
    assert_faithful(answer, CONTEXT, min_score=0.8, judge=hybridjudge_judge)
"""


@pytest.fixture
def scripted_env(
    openai_server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> TextJudge:
    judge = TextJudge([CONTEXT])
    openai_server.respond_with(judge)
    for name, value in {
        "HYBRIDJUDGE_BASE_URL": openai_server.base_url,
        "HYBRIDJUDGE_MODEL": "fake-model",
        "HYBRIDJUDGE_PRICE_IN": "1",
        "HYBRIDJUDGE_PRICE_OUT": "2",
        "HYBRIDJUDGE_CACHE_DIR": str(tmp_path / "cache"),
    }.items():
        monkeypatch.setenv(name, value)
    return judge


def test_the_plugin_is_registered_by_its_entry_point() -> None:
    (plugin,) = [e for e in entry_points(group="pytest11") if e.name == "hybridjudge"]
    assert plugin.value == "hybridjudge.pytest_plugin"


def test_passing_and_failing_tests_with_their_failure_messages(
    pytester: pytest.Pytester, scripted_env: TextJudge
) -> None:
    pytester.makepyfile(test_my_rag=USER_TESTS)
    result = pytester.runpytest()
    result.assert_outcomes(passed=2, failed=2)
    result.stdout.fnmatch_lines(
        [
            "*AssertionError: answer is not grounded: 2 findings",
            '*missing_anchor: missing required fact "30 days"*',
            '*ungrounded_number: number "45 days"*',
        ]
    )
    result.stdout.fnmatch_lines(
        [
            "*AssertionError: answer is not faithful (min_score 0.8; failing: support, "
            "contradiction)",
            "*support: 0.50 (1 of 2 claims faithful)",
            # the claims are the answer's sentences, without their final period; a supported
            # verdict shows the context span the model quoted
            f"*ok   [[]supported[]] {CONTEXT[:-1]!r}: the context states it: {CONTEXT!r}",
            "*FAIL [[]not_supported[]] 'Refunds are only possible within 14 days': the model "
            "answered that the context does not state it",
            "*contradiction: 0.50 (1 of 2 claims faithful)",
            "*FAIL [[]contradicted[]] 'Refunds are only possible within 14 days': the model "
            "answered that the claim and a context sentence cannot both be true",
        ]
    )
    # by hand: one call per claim (sentence) and scorer, no claims call: the faithful answer
    # is 1 sentence (2 calls); the unfaithful one repeats it (same prompts: cached) and adds
    # "Refunds are only possible within 14 days" (2 calls): 4. The session fixture's cache
    # makes a second run free
    assert scripted_env.requests == 4
    again = pytester.runpytest()
    again.assert_outcomes(passed=2, failed=2)
    assert scripted_env.requests == 4


def test_the_config_fixture_reads_the_environment(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makepyfile(
        test_fixture="def test_config(hybridjudge_config):\n"
        "    assert hybridjudge_config.backend == 'local'\n"
    )
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    for name in ("HYBRIDJUDGE_BACKEND", "HYBRIDJUDGE_BASE_URL", "HYBRIDJUDGE_MODEL"):
        monkeypatch.delenv(name, raising=False)
    pytester.runpytest().assert_outcomes(passed=1)


def test_assert_grounded_returns_the_report_when_it_passes() -> None:
    report = assert_grounded("Refunds within 30 days.", CONTEXT, anchors=["30 days"])
    assert report.grounded
    with pytest.raises(AssertionError, match="1 finding\n  missing_anchor"):
        assert_grounded("Refunds are possible.", CONTEXT, anchors=["30 days"])


def test_the_documented_example_test_passes(
    pytester: pytest.Pytester, openai_server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    example = Path(__file__).resolve().parents[2] / "examples" / "pytest" / "test_my_rag.py"
    judge = TextJudge(["You can request a full refund within 30 days of purchase."])
    openai_server.respond_with(judge)
    for name, value in {
        "HYBRIDJUDGE_BASE_URL": openai_server.base_url,
        "HYBRIDJUDGE_MODEL": "fake-model",
        "HYBRIDJUDGE_CACHE_DIR": str(pytester.path / "cache"),
    }.items():
        monkeypatch.setenv(name, value)
    pytester.makepyfile(test_my_rag=example.read_text(encoding="utf-8"))
    pytester.runpytest().assert_outcomes(passed=2)
    assert judge.requests == 2  # support + contradiction for the answer's one sentence
