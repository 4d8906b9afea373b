"""The judges' budget (issue 37, item 3): ``--max-claims`` per answer, ``--max-cost`` per run.

Against the scripted OpenAI-compatible server on 127.0.0.1: an answer of 2,000 sentences makes
no call at all (it was up to 6,000), and a run stops before the request whose worst-case cost
could cross the limit, worked out by hand from the prompt's bytes and the prices.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from hybridjudge.cli import main
from hybridjudge.judges import JudgeBatch, ajudge_many, planned_calls
from hybridjudge.model import BudgetExhaustedError, CostBudget, ModelClient, ModelConfig
from tests.conftest import FAKE_PRICE_IN, FAKE_PRICE_OUT
from tests.judges.helpers import contradiction_reply
from tests.support.openai_server import FakeOpenAIServer, RecordedRequest, Step

CONTEXT = "Customers may request a full refund within 30 days of purchase."
# 2,000 sentences, each sharing words with the context (so each would be asked about)
LONG = " ".join(f"Customers may request a refund within {i} days." for i in range(2000))


def _always_yes(request: RecordedRequest) -> Step:
    return contradiction_reply("YES")


def _cases(path: Path, answers: list[str]) -> Path:
    rows = [{"id": f"c{i}", "answer": a, "context": [CONTEXT]} for i, a in enumerate(answers)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _flags(server: FakeOpenAIServer, tmp_path: Path, *, priced: bool = True) -> list[str]:
    flags = ["--base-url", server.base_url, "--model", "fake-model"]
    if priced:
        flags += ["--price-in", str(FAKE_PRICE_IN), "--price-out", str(FAKE_PRICE_OUT)]
    return [*flags, "--cache-dir", str(tmp_path / "cache"), "--concurrency", "1"]


# -- --max-claims ------------------------------------------------------------------------------


def test_dry_run_counts_no_call_for_an_answer_over_the_claims_cap(
    openai_server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = _cases(tmp_path / "cases.jsonl", [CONTEXT, LONG])
    argv = ["judge", str(cases), *_flags(openai_server, tmp_path), "--dry-run"]
    code = main([*argv, "--scorers", "contradiction"])
    out, err = capsys.readouterr()
    # by hand: the short answer is one claim, one contradiction question (no negation: no
    # second look); the long one is over the default cap of 64 claims: no call (was 2,000)
    assert "2 evaluation(s) on fake-model (openai): at most 1 model call(s)" in out
    assert "1 answer(s) over --max-claims would not be judged" in out
    assert "line 2: would not be judged (too_many_claims): the answer has 2,000 claims" in err
    assert code == 3  # a run would leave it unscored: incomplete under --max-unscored 0
    assert openai_server.request_count == 0
    # the cap raised above the answer's claims: every claim is planned again
    assert main([*argv, "--scorers", "contradiction", "--max-claims", "2000"]) == 0
    assert "at most 2001 model call(s)" in capsys.readouterr().out


def test_a_judge_run_makes_no_call_for_an_answer_over_the_claims_cap(
    openai_server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    openai_server.respond_with(_always_yes)
    cases = _cases(tmp_path / "cases.jsonl", [CONTEXT, LONG])
    argv = ["judge", str(cases), *_flags(openai_server, tmp_path), "--json"]
    code = main([*argv, "--scorers", "contradiction", "--max-claims", "64"])
    short, long = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert openai_server.request_count == 1  # the short answer's one question only
    assert short["results"]["contradiction"]["status"] == "scored"
    result = long["results"]["contradiction"]
    assert result["status"] == "unscored"
    assert result["unscored_reason"] == "too_many_claims"
    assert "2,000 claims, more than max_claims 64" in result["detail"]["error"]
    assert long["usage"]["calls"] == 0
    assert code == 3  # an unscored result: incomplete (--max-unscored 0)


def test_max_claims_is_checked_in_the_python_api(fake_model_config: ModelConfig) -> None:
    from hybridjudge._errors import ConfigError

    with pytest.raises(ConfigError, match="max_claims must be a whole number"):
        asyncio.run(ajudge_many([], config=fake_model_config, max_claims=0))


# -- --max-cost --------------------------------------------------------------------------------

ANSWERS = [f"Customers may request a refund within {d}1 days." for d in range(1, 7)]
"""Six one-claim answers of the same length (so the same worst case), each its own request."""


def _worst_case(answer: str) -> float:
    """By hand, as docs/failing-closed.md states it: every UTF-8 byte of the messages a prompt token plus
    16 per message, and the whole completion budget (12 tokens for the contradiction question)."""
    (call,) = planned_calls(answer, [CONTEXT], scorers=("contradiction",))
    assert call.max_tokens == 12
    prompt = sum(len(m["content"].encode("utf-8")) + 16 for m in call.messages)
    return (prompt * FAKE_PRICE_IN + 12 * FAKE_PRICE_OUT) / 1e6


def _judge(config: ModelConfig, budget: CostBudget) -> JudgeBatch:
    async def go() -> JudgeBatch:
        async with ModelClient(config, budget=budget) as client:
            records = [
                {"id": f"a{i}", "answer": a, "context": [CONTEXT]} for i, a in enumerate(ANSWERS)
            ]
            return await ajudge_many(
                records, scorers=("contradiction",), client=client, concurrency=1
            )

    return asyncio.run(go())


def test_max_cost_stops_before_the_request_that_could_cross_it(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.respond_with(_always_yes)
    worst = _worst_case(ANSWERS[0])
    assert {_worst_case(a) for a in ANSWERS} == {worst}
    # each reply bills the server's 10 prompt and 5 completion tokens
    paid = (10 * FAKE_PRICE_IN + 5 * FAKE_PRICE_OUT) / 1e6
    # room for the worst case after 2.5 replies: requests 1-3 fit (0, 1 and 2 replies spent
    # plus one worst case), the 4th does not (3 replies + a worst case > the limit)
    limit = worst + 2.5 * paid
    budget = CostBudget(limit)
    config = fake_model_config.model_copy(update={"max_concurrency": 1})
    batch = _judge(config, budget)

    assert openai_server.request_count == 3
    reasons = [o.results["contradiction"].unscored_reason for o in batch.outcomes]
    assert reasons == [None, None, None, "budget_exhausted", "budget_exhausted", "budget_exhausted"]
    assert budget.spent_usd == pytest.approx(3 * paid)
    assert budget.spent_usd <= limit < budget.spent_usd + worst
    assert budget.exhausted
    assert budget.refused == 3
    detail = batch.outcomes[3].results["contradiction"].detail
    assert detail is not None
    assert "--max-cost" in detail.error

    # a rerun with the same limit: the three cached replies cost nothing, the rest fit
    again = CostBudget(limit)
    rerun = _judge(config, again)
    assert openai_server.request_count == 6
    assert all(o.results["contradiction"].status == "scored" for o in rerun.outcomes)
    assert again.spent_usd == pytest.approx(3 * paid)
    assert not again.exhausted


def test_a_budget_refuses_a_model_without_a_price(fake_model_config: ModelConfig) -> None:
    from hybridjudge._errors import ConfigError

    unpriced = fake_model_config.model_copy(
        update={"price_input_per_mtok": None, "price_output_per_mtok": None}
    )
    with pytest.raises(ConfigError, match="no price is known for model 'fake-model'") as info:
        ModelClient(unpriced, budget=CostBudget(1.0))
    assert info.value.code == "budget_needs_price"


def test_the_budget_exception_is_raised_by_the_client_before_sending(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    from hybridjudge.judges import judge

    async def go() -> None:
        async with ModelClient(fake_model_config, budget=CostBudget(0.0)) as client:
            await judge(client, answer=ANSWERS[0], context=[CONTEXT], scorers=("contradiction",))

    with pytest.raises(BudgetExhaustedError, match=r"--max-cost \$0.0000 reached"):
        asyncio.run(go())
    assert openai_server.request_count == 0


def test_the_cli_says_where_max_cost_stopped_the_run(
    openai_server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    openai_server.respond_with(_always_yes)
    cases = _cases(tmp_path / "cases.jsonl", ANSWERS[:2])
    flags = _flags(openai_server, tmp_path)
    worst = _worst_case(ANSWERS[0])
    argv = ["judge", str(cases), *flags, "--scorers", "contradiction"]
    paid = (10 * FAKE_PRICE_IN + 5 * FAKE_PRICE_OUT) / 1e6
    # the limit admits the first request only: after one reply, a worst case no longer fits
    code = main([*argv, "--max-cost", f"{worst + paid / 2:.12f}"])
    err = capsys.readouterr().err
    assert openai_server.request_count == 1
    assert code == 3
    assert "stopped by --max-cost" in err
    assert (
        "$0.0000 spent; 1 request(s) not sent, 1 result(s) left unscored (budget_exhausted)" in err
    )
    # --dry-run compares the worst case with the limit
    assert main([*argv, "--dry-run", "--max-cost", f"{2 * worst:.12f}"]) == 0
    out = capsys.readouterr().out
    shown = f"the worst case it counts (every prompt byte a token) is ${2 * worst:.4f}"
    assert f"{shown}, within it: the run will not be stopped" in out
    assert main([*argv, "--dry-run", "--max-cost", f"{2 * worst * 0.99:.12f}"]) == 0
    assert "above it: the run may stop before its end" in capsys.readouterr().out
    # no price: refused before anything is read or sent (exit 2)
    unpriced = ["judge", str(cases), *_flags(openai_server, tmp_path, priced=False)]
    assert main([*unpriced, "--max-cost", "1"]) == 2
    assert "no price is known for model 'fake-model'" in capsys.readouterr().err
    assert openai_server.request_count == 1
