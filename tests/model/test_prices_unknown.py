"""Endpoint conventions against the scripted server: an unknown price, OPENAI_BASE_URL/API_KEY."""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path

import pytest

from hybridjudge._errors import ConfigError
from hybridjudge.cli import main
from hybridjudge.cli._model_args import add_model_arguments, config_from_args
from hybridjudge.judges import JudgeResult, judge
from hybridjudge.model import ModelClient, ModelConfig, Usage, lookup_price, price_or_unknown
from tests.byo._judge import TextJudge
from tests.support.openai_server import FakeOpenAIServer

CONTEXT = "Customers may request a full refund within 30 days of purchase."


def _cases(path: Path) -> Path:
    # the answers share no sentence (a shared one is asked once, then served from the cache),
    # and b's shares words with the context (else it is not asked about)
    rows = [
        {"id": "a", "answer": CONTEXT, "context": CONTEXT},
        {"id": "b", "answer": "Refunds are only possible within 14 days.", "context": CONTEXT},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


async def _judge_once(config: ModelConfig) -> tuple[dict[str, JudgeResult], Usage]:
    async with ModelClient(config) as client:
        results = await judge(client, answer=CONTEXT, context=[CONTEXT], scorers=("support",))
        return results, client.usage


@pytest.fixture
def scripted(openai_server: FakeOpenAIServer) -> TextJudge:
    responder = TextJudge([CONTEXT])
    openai_server.respond_with(responder)
    return responder


def test_usage_sums_keep_an_unknown_cost_unknown() -> None:
    known = Usage(calls=1, prompt_tokens=10, cost_usd=0.5)
    unknown = Usage(calls=1, prompt_tokens=7, cost_usd=None, saved_cost_usd=None)
    total = known + unknown
    assert (total.calls, total.prompt_tokens) == (2, 17)
    assert total.cost_usd is None  # never 0.5, never 0
    assert total.saved_cost_usd is None
    assert (known + known).cost_usd == 1.0


def test_a_model_without_a_price_runs_counts_tokens_and_has_no_cost(
    openai_server: FakeOpenAIServer, scripted: TextJudge, tmp_path: Path
) -> None:
    config = ModelConfig(
        backend="openai",
        base_url=openai_server.base_url,
        model="fake-model",  # not in the price table, no price given
        cache_dir=tmp_path / "cache",
    )
    assert lookup_price("fake-model") is None
    assert price_or_unknown(config) is None
    results, usage = asyncio.run(_judge_once(config))
    assert results["support"].score == 1.0
    # by hand: the answer is one sentence, so one claim: one support call (no claims call)
    assert usage.calls == scripted.requests == 1
    assert usage.prompt_tokens > 0
    assert usage.completion_tokens > 0
    assert usage.cost_usd is None
    assert results["support"].usage.cost_usd is None


def test_given_prices_still_set_the_cost(
    openai_server: FakeOpenAIServer, scripted: TextJudge, tmp_path: Path
) -> None:
    config = ModelConfig(
        backend="openai",
        base_url=openai_server.base_url,
        model="fake-model",
        cache_dir=tmp_path / "cache",
        price_input_per_mtok=1.0,
        price_output_per_mtok=2.0,
    )
    _, usage = asyncio.run(_judge_once(config))
    # by hand: USD = (prompt x 1 + completion x 2) / 1e6
    expected = (usage.prompt_tokens * 1.0 + usage.completion_tokens * 2.0) / 1_000_000
    assert usage.cost_usd == pytest.approx(expected)
    assert usage.cost_usd is not None
    assert usage.cost_usd > 0


def test_judge_cli_reports_unknown_price_never_zero_dollars(
    openai_server: FakeOpenAIServer,
    scripted: TextJudge,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    cases = _cases(tmp_path / "cases.jsonl")
    flags = ["--base-url", openai_server.base_url, "--model", "fake-model"]
    flags += ["--cache-dir", str(tmp_path / "cache"), "--scorers", "support"]
    flags += ["--threshold", "support=0"]  # answer b fails; these tests are about its price
    assert main(["judge", str(cases), *flags]) == 0
    out = capsys.readouterr().out
    assert "costing unknown cost" in out
    assert "costing $" not in out
    assert scripted.requests == 2  # 2 answers x 1 sentence x 1 scorer (support)


def _config(argv: list[str], environ: dict[str, str]) -> ModelConfig:
    parser = argparse.ArgumentParser()
    add_model_arguments(parser)
    return config_from_args(parser.parse_args(argv), environ=environ)


def test_openai_base_url_selects_the_endpoint_below_explicit_settings() -> None:
    env = {"OPENAI_BASE_URL": "http://127.0.0.1:9/v1", "OPENAI_API_KEY": "sk-test"}
    config = _config(["--model", "m"], env)
    assert (config.backend, config.base_url) == ("openai", "http://127.0.0.1:9/v1")
    # HYBRIDJUDGE_* variables win over OPENAI_*, flags over both, and local always means local
    hj = _config(["--model", "m"], {**env, "HYBRIDJUDGE_BASE_URL": "http://other:1/v1"})
    assert hj.base_url == "http://other:1/v1"
    flag = _config(["--model", "m", "--base-url", "http://flag:2/v1"], env)
    assert flag.base_url == "http://flag:2/v1"
    assert _config(["--backend", "local"], env).backend == "local"
    assert _config([], {**env, "HYBRIDJUDGE_BACKEND": "local"}).backend == "local"
    # nothing set: the embedded model, as before
    assert _config([], {}).backend == "local"


def test_openai_api_key_alone_selects_the_openai_backend() -> None:
    config = _config(["--model", "gpt-4o-mini"], {"OPENAI_API_KEY": "sk-test"})
    assert (config.backend, config.base_url) == ("openai", "https://api.openai.com/v1")
    with pytest.raises(ConfigError, match="OPENAI_API_KEY is set") as info:
        _config([], {"OPENAI_API_KEY": "sk-test"})
    assert "--model" in str(info.value)
    assert "--backend local" in str(info.value)
    assert info.value.code == "missing_model"


def test_openai_base_url_reaches_the_scripted_server(
    openai_server: FakeOpenAIServer,
    scripted: TextJudge,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for name in ("HYBRIDJUDGE_BACKEND", "HYBRIDJUDGE_BASE_URL", "HYBRIDJUDGE_MODEL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OPENAI_BASE_URL", openai_server.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-scripted-test-key")
    cases = _cases(tmp_path / "cases.jsonl")
    argv = ["judge", str(cases), "--model", "fake-model", "--scorers", "support"]
    argv += ["--threshold", "support=0"]  # answer b fails; this test is about the endpoint
    assert main([*argv, "--cache-dir", str(tmp_path / "cache")]) == 0
    assert scripted.requests == 2  # as above
    request = openai_server.requests[0]
    assert request.body["model"] == "fake-model"
    assert request.headers["authorization"] == "Bearer sk-scripted-test-key"
    assert "unknown cost" in capsys.readouterr().out
