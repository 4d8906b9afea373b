"""``hybridjudge.testing`` outside pytest's plugin: in a running event loop, failing closed."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from hybridjudge.model import ModelConfig
from hybridjudge.testing import FaithfulnessJudge, assert_faithful
from tests.byo._judge import TextJudge
from tests.support.openai_server import FakeOpenAIServer, RecordedRequest, Step, reply

CONTEXT = "Customers may request a full refund within 30 days of purchase."


@pytest.fixture
def config(openai_server: FakeOpenAIServer, tmp_path: Path) -> ModelConfig:
    return ModelConfig(
        backend="openai",
        base_url=openai_server.base_url,
        model="fake-model",
        cache_dir=tmp_path / "cache",
        max_retries=0,
        timeout=5.0,
    )


def test_works_inside_a_running_event_loop(
    openai_server: FakeOpenAIServer, config: ModelConfig
) -> None:
    openai_server.respond_with(TextJudge([CONTEXT]))

    async def notebook_cell() -> float | None:
        # a notebook cell runs inside the kernel's loop: asyncio.run() would refuse here
        results = assert_faithful(CONTEXT, CONTEXT, min_score=1.0, config=config)
        return results["support"].score

    assert asyncio.run(notebook_cell()) == 1.0


def test_an_unscored_judgement_fails_with_its_reason(
    openai_server: FakeOpenAIServer, config: ModelConfig
) -> None:
    def broken(request: RecordedRequest) -> Step:
        return reply('{"claims": [')  # cut off: no valid reply, nor after the repair

    openai_server.respond_with(broken)
    with FaithfulnessJudge(config, scorers=("support",)) as judge:
        with pytest.raises(AssertionError) as failure:
            assert_faithful(CONTEXT, CONTEXT, min_score=0.0, judge=judge)
        assert judge.usage.calls > 0
    message = str(failure.value)
    assert "failing: support" in message
    assert "support: unscored (parse_failure)" in message


def test_min_score_must_be_a_fraction(config: ModelConfig) -> None:
    with pytest.raises(ValueError, match=r"min_score=1\.5"):
        assert_faithful("a", "b", min_score=1.5, config=config)
