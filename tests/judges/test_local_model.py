"""End to end through the embedded model (Qwen2.5-Coder-1.5B via xllamacpp): the full path.

Slow (the model loads and generates on the CPU): marked ``local_model``; skipped when the
[local] extra is not installed. The model's verdicts are not asserted (a 1.5B judge may err);
what is asserted is the contract: every scorer gives a score with exactly one verdict per claim or
an explicit unscored reason, tokens are counted per scope, and the rerun is served entirely from
the cache without starting the model.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from hybridjudge.judges import JudgeResult, judge, total_usage
from hybridjudge.model import ModelClient, ModelConfig, Usage

pytestmark = pytest.mark.local_model

CONTEXT = ["The museum opens at 9 am and closes at 5 pm. Entry is free on Sundays."]
ANSWER = "The museum opens at 9 am. Entry costs 12 euros on Sundays."


async def _judge_twice(
    cache_dir: Path,
) -> tuple[dict[str, JudgeResult], Usage, dict[str, Usage], dict[str, JudgeResult], Usage]:
    # A generous timeout: on a shared 2-core machine one call can take minutes.
    config = ModelConfig.local(cache_dir=cache_dir, timeout=1200.0)
    async with ModelClient(config) as client:
        first = await judge(
            client, answer=ANSWER, context=CONTEXT, question="When does the museum open?"
        )
        usage, by_scope = client.usage, client.usage_by_scope
    async with ModelClient(config) as client:
        second = await judge(
            client, answer=ANSWER, context=CONTEXT, question="When does the museum open?"
        )
        rerun = client.usage
    return first, usage, by_scope, second, rerun


def test_both_judges_through_the_embedded_model_then_from_the_cache(tmp_path: Path) -> None:
    pytest.importorskip("xllamacpp", reason="the [local] extra is not installed")
    first, usage, by_scope, second, rerun = asyncio.run(_judge_twice(tmp_path / "cache"))

    assert set(first) == {"support", "contradiction"}
    for result in first.values():
        if result.status == "scored":
            assert result.score is not None
            assert 0.0 <= result.score <= 1.0
            if not result.abstained:
                assert len(result.verdicts) == len(result.claims) >= 1
                assert [v.claim_id for v in result.verdicts] == list(
                    range(1, len(result.claims) + 1)
                )
                # a supported verdict always carries a quote found in the context
                for verdict in result.verdicts:
                    if verdict.label == "supported":
                        assert verdict.quote
                        assert verdict.quote_found is True
        else:
            assert result.score is None
            assert result.unscored_reason in ("no_claims", "parse_failure", "model_error")
            assert result.detail is not None
            assert result.detail.error

    # The claims are the answer's two sentences; tokens counted per scope: at least one call
    # per claim and scorer, no claim extraction.
    assert first["support"].claims == (
        "The museum opens at 9 am",
        "Entry costs 12 euros on Sundays",
    )
    assert usage.calls >= 4
    assert usage.prompt_tokens > 0
    assert usage.completion_tokens > 0
    assert set(by_scope) == {"support", "contradiction"}
    assert by_scope["support"].prompt_tokens > 0
    assert usage.cost_usd == 0.0  # the embedded model is free
    assert total_usage(first).prompt_tokens == usage.prompt_tokens

    # The rerun: zero requests (the model is not even started), same results.
    assert rerun.calls == 0
    assert rerun.cache_hits >= 4
    assert rerun.saved_latency_s > 0
    for name in first:
        assert second[name].score == first[name].score
        assert second[name].unscored_reason == first[name].unscored_reason
        assert second[name].verdicts == first[name].verdicts
