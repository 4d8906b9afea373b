"""ModelClient against a real HTTP server on 127.0.0.1 (tests/support/openai_server.py).

No part of the openai SDK or httpx is mocked: every request crosses a socket. Token counts and
prices are chosen so the expected costs are hand-computed in the comments.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest
from pydantic import BaseModel

from hybridjudge import LocalModelError, ModelAuthError, ModelHTTPError
from hybridjudge.model import CallResult, FormatMode, ModelClient, ModelConfig
from tests.support.openai_server import (
    FakeOpenAIServer,
    RecordedRequest,
    Step,
    drop_connection,
    http_error,
    json_reply,
    malformed_body,
    rate_limited,
    reply,
    server_error,
    slow,
    truncated_json,
    wrong_shape_body,
)

R = TypeVar("R")
KEY_ENV = "HYBRIDJUDGE_TEST_API_KEY"
SECRET = "sk-test-7f3a9c-never-store-me"


class Claims(BaseModel):
    """The reply schema used throughout."""

    claims: list[str]


MESSAGES = [
    {"role": "system", "content": "Split the answer into claims. Reply as JSON."},
    {"role": "user", "content": "Answer: Paris is the capital of France."},
]


def run(coro: Coroutine[Any, Any, R]) -> R:
    return asyncio.run(coro)


async def ask(
    config: ModelConfig, *, env: dict[str, str] | None = None, **kwargs: Any
) -> tuple[CallResult[Claims], ModelClient]:
    """One structured call through a fresh client (closed afterwards)."""
    call = {"prompt_name": "claims", "prompt_version": "1", **kwargs}
    messages = call.pop("messages", MESSAGES)
    async with ModelClient(config, environ=env or {KEY_ENV: SECRET}) as client:
        result = await client.complete_structured(messages, Claims, **call)
    return result, client


def always(step: Step) -> Any:
    return lambda _request: step


# -- cache -----------------------------------------------------------------------------------


def test_second_identical_run_makes_no_request_and_reports_what_it_saved(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.script(json_reply({"claims": ["a"]}, prompt_tokens=1000, completion_tokens=500))
    first, _ = run(ask(fake_model_config))
    assert first.status == "ok"
    assert first.value == Claims(claims=["a"])
    assert not first.cached
    # 1000 prompt tokens at $1/M + 500 completion tokens at $2/M = 0.001 + 0.001 = $0.002
    assert first.usage.cost_usd == pytest.approx(0.002)
    assert first.usage.calls == 1
    assert first.usage.latency_s > 0

    second, client = run(ask(fake_model_config))
    assert openai_server.request_count == 1  # nothing new reached the server
    assert second.status == "ok"
    assert second.value == first.value
    assert second.cached
    assert second.usage.calls == 0
    assert second.usage.cache_hits == 1
    assert second.usage.cost_usd == 0
    assert second.usage.prompt_tokens == 0
    assert second.usage.saved_cost_usd == pytest.approx(0.002)
    assert second.usage.saved_latency_s == pytest.approx(first.usage.latency_s)
    assert client.usage == second.usage


def test_identical_requests_at_once_reach_the_server_once(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    # two concurrent callers with the same request: the second waits for the first and is
    # served from the cache; a different request in between is not held up by them
    openai_server.respond_with(always(slow(0.3, '{"claims": ["a"]}')))

    async def both() -> list[CallResult[Claims]]:
        other = [{"role": "user", "content": "Answer: Lyon is in France."}]
        async with ModelClient(fake_model_config, environ={KEY_ENV: SECRET}) as client:
            calls = [
                client.complete_structured(MESSAGES, Claims, prompt_name="c", prompt_version="1")
                for _ in range(2)
            ]
            calls.append(
                client.complete_structured(other, Claims, prompt_name="c", prompt_version="1")
            )
            return list(await asyncio.gather(*calls))

    first, second, other = run(both())
    assert openai_server.request_count == 2  # one per distinct request
    assert [first.usage.calls, second.usage.calls, other.usage.calls] == [1, 0, 1]
    assert second.cached
    assert second.usage.cache_hits == 1
    assert second.value == first.value == other.value == Claims(claims=["a"])


@pytest.mark.parametrize(
    "change",
    [
        {"prompt_version": "2"},
        {"prompt_name": "claims-v2"},
        {"repetition": 1},
        {"max_tokens": 77},
        {"messages": [{"role": "user", "content": "Answer: Lyon is in France."}]},
    ],
    ids=lambda change: next(iter(change)),
)
def test_anything_that_changes_the_reply_misses_the_cache(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig, change: dict[str, Any]
) -> None:
    openai_server.respond_with(always(json_reply({"claims": ["a"]})))
    run(ask(fake_model_config))
    run(ask(fake_model_config))
    assert openai_server.request_count == 1
    result, _ = run(ask(fake_model_config, **change))
    assert not result.cached
    assert openai_server.request_count == 2


@pytest.mark.parametrize("field", ["temperature", "seed", "model"])
def test_config_that_changes_the_reply_misses_the_cache(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig, field: str
) -> None:
    openai_server.respond_with(always(json_reply({"claims": ["a"]})))
    run(ask(fake_model_config))
    new_value = {"temperature": 0.7, "seed": 1, "model": "gpt-4o-mini"}[field]
    changed = fake_model_config.model_copy(update={field: new_value})
    run(ask(changed))
    assert openai_server.request_count == 2


def test_settings_that_do_not_change_the_reply_keep_the_cache(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.respond_with(always(json_reply({"claims": ["a"]})))
    run(ask(fake_model_config))
    other = fake_model_config.model_copy(
        update={"timeout": 9.0, "max_retries": 0, "max_concurrency": 1, "price_input_per_mtok": 5}
    )
    result, _ = run(ask(other, env={KEY_ENV: "sk-another-key"}))
    assert result.cached
    assert openai_server.request_count == 1


def test_no_cache_neither_reads_nor_writes(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.respond_with(always(json_reply({"claims": ["a"]})))
    config = fake_model_config.model_copy(update={"cache": False})
    run(ask(config))
    run(ask(config))
    assert openai_server.request_count == 2
    assert not config.cache_dir.exists()


# -- retries ---------------------------------------------------------------------------------


def test_429_with_retry_after_is_retried_and_counted(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.script(rate_limited("0.05"), rate_limited("0.05"), json_reply({"claims": ["a"]}))
    result, _ = run(ask(fake_model_config))
    assert result.status == "ok"
    assert openai_server.request_count == 3
    assert result.usage.retries == 2
    assert result.usage.calls == 3


def test_5xx_retries_are_bounded_and_the_failure_is_not_cached(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    # max_retries=2 in the fixture: one request plus two retries, then give up.
    openai_server.script(server_error(500), server_error(502), server_error(503))
    result, _ = run(ask(fake_model_config))
    assert result.status == "model_error"
    assert result.value is None
    assert openai_server.request_count == 3
    assert result.usage.retries == 2
    assert result.error is not None
    assert "HTTP 503" in result.error
    assert "3 attempts" in result.error

    openai_server.script(json_reply({"claims": ["b"]}))
    again, _ = run(ask(fake_model_config))
    assert again.status == "ok"  # the error was not cached: the endpoint was asked again
    assert openai_server.request_count == 4


def test_reply_slower_than_the_timeout_is_retried_then_model_error(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    # generous timeout: on a loaded machine even a fast reply can take a few hundred ms; the
    # slow steps are woken up when the server stops, so they cost nothing after the test
    config = fake_model_config.model_copy(update={"timeout": 1.0, "max_retries": 1})
    openai_server.script(slow(30.0), slow(30.0))
    result, _ = run(ask(config))
    assert result.status == "model_error"
    assert result.error is not None
    assert "timeout" in result.error
    assert openai_server.request_count == 2
    assert result.usage.retries == 1


def test_slow_reply_then_fast_reply_recovers(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    config = fake_model_config.model_copy(update={"timeout": 1.0})
    openai_server.script(slow(30.0), json_reply({"claims": ["a"]}))
    result, _ = run(ask(config))
    assert result.status == "ok"
    assert result.usage.retries == 1


def test_dropped_connection_is_retried(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.script(drop_connection(), json_reply({"claims": ["a"]}))
    result, _ = run(ask(fake_model_config))
    assert result.status == "ok"
    assert result.usage.retries == 1
    assert openai_server.request_count == 2


def test_401_raises_at_once_without_retry(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.script(http_error(401, "Incorrect API key provided", code="invalid_api_key"))
    with pytest.raises(ModelAuthError) as info:
        run(ask(fake_model_config))
    assert openai_server.request_count == 1
    assert info.value.status == 401
    message = str(info.value)
    assert "Incorrect API key provided" in message
    assert KEY_ENV in message  # names where the key comes from ...
    assert SECRET not in message  # ... never the key itself
    assert openai_server.requests[0].headers["authorization"] == f"Bearer {SECRET}"


def test_404_unknown_model_raises_model_http_error(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.script(
        http_error(404, "The model `gpt-9` does not exist", code="model_not_found")
    )
    with pytest.raises(ModelHTTPError) as info:
        run(ask(fake_model_config))
    assert not isinstance(info.value, ModelAuthError)
    assert info.value.status == 404
    assert "model and base_url" in str(info.value)
    assert openai_server.request_count == 1


def test_prompt_too_long_is_a_model_error_for_that_call_not_a_crash(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.script(
        http_error(
            400,
            "This model's maximum context length is 8192 tokens.",
            code="context_length_exceeded",
        )
    )
    result, _ = run(ask(fake_model_config))
    assert result.status == "model_error"
    assert result.error is not None
    assert "too long" in result.error
    assert openai_server.request_count == 1


def test_dead_endpoint_is_a_model_error_after_bounded_retries(
    fake_model_config: ModelConfig,
) -> None:
    with socket.socket() as probe:  # a port that nothing listens on once closed
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = fake_model_config.model_copy(update={"base_url": f"http://127.0.0.1:{port}/v1"})
    result, _ = run(ask(config))
    assert result.status == "model_error"
    assert result.error is not None
    assert f"could not reach http://127.0.0.1:{port}/v1" in result.error
    assert "3 attempts" in result.error
    assert result.usage.retries == 2
    assert result.usage.calls == 3


@pytest.mark.parametrize(
    ("step", "phrase"),
    [(malformed_body(), "not JSON"), (wrong_shape_body(), "choices")],
    ids=["malformed-body", "wrong-shape-body"],
)
def test_a_body_that_is_not_a_chat_completion_is_a_model_error(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig, step: Step, phrase: str
) -> None:
    openai_server.script(step)
    result, _ = run(ask(fake_model_config))
    assert result.status == "model_error"
    assert result.error is not None
    assert phrase in result.error
    assert openai_server.request_count == 1  # not retried: the endpoint is not OpenAI-shaped


# -- structured output and repair ------------------------------------------------------------

# The small-model failure of docs/faithfulness.md (DeepEval on the embedded model): the reply stops after "]" without the closing "}".
MISSING_BRACE = '{"claims": ["Paris is the capital of France."]'


@pytest.mark.parametrize(
    "bad",
    [
        "{'claims': ['single quotes are not JSON']}",
        MISSING_BRACE,
        '{"items": ["valid JSON, wrong shape"]}',
        '{"claims": "not a list"}',
        "I cannot answer that.",
    ],
    ids=["malformed", "truncated", "wrong-shape", "wrong-type", "prose"],
)
def test_invalid_reply_gets_one_repair_then_parse_failure_with_raw_kept(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig, bad: str
) -> None:
    second_bad = '{"claims": [1, '
    openai_server.script(reply(bad), reply(second_bad))
    result, _ = run(ask(fake_model_config))
    assert result.status == "parse_failure"
    assert result.value is None
    assert result.raw == second_bad
    assert result.error is not None
    assert "after one repair" in result.error
    assert result.usage.repairs == 1
    assert result.usage.calls == 2
    assert openai_server.request_count == 2

    repair = openai_server.requests[1].messages
    assert repair[: len(MESSAGES)] == MESSAGES
    assert repair[len(MESSAGES)] == {"role": "assistant", "content": bad}
    assert repair[-1]["role"] == "user"
    assert "could not be used" in repair[-1]["content"]


def test_repair_that_succeeds_is_ok(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.script(
        truncated_json({"claims": ["a"]}, prompt_tokens=100, completion_tokens=10),
        json_reply({"claims": ["a"]}, prompt_tokens=130, completion_tokens=10),
    )
    result, _ = run(ask(fake_model_config))
    assert result.status == "ok"
    assert result.value == Claims(claims=["a"])
    assert result.usage.repairs == 1
    # both requests are billed: (100 + 130) * $1/M + (10 + 10) * $2/M = 0.00027
    assert result.usage.prompt_tokens == 230
    assert result.usage.cost_usd == pytest.approx(0.00027)


def test_a_parse_failure_is_never_cached_so_a_rerun_asks_again(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    # issue 10: no failed reply is cached; a rerun retries exactly the failed calls
    openai_server.script(reply(MISSING_BRACE), reply(MISSING_BRACE))
    first, _ = run(ask(fake_model_config))
    assert first.status == "parse_failure"
    assert openai_server.request_count == 2  # the reply and its repair
    openai_server.script(json_reply({"claims": ["a"]}))
    second, _ = run(ask(fake_model_config))
    assert openai_server.request_count == 3  # asked again, not replayed from the cache
    assert second.status == "ok"
    assert not second.cached
    third, _ = run(ask(fake_model_config))
    assert openai_server.request_count == 3  # the valid reply is cached
    assert third.cached
    assert third.value == second.value


def test_keep_invalid_replays_a_parse_failure_on_a_rerun_without_a_request(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    # issue 13: the peers' proxy passes replies on to the peer, so an unusable reply is replayed
    # like a usable one and a cached rerun sends nothing; the default (above) still asks again
    openai_server.script(reply(MISSING_BRACE), reply('{"claims": [1, '))
    first, _ = run(ask(fake_model_config, keep_invalid=True))
    assert first.status == "parse_failure"
    assert not first.cached
    assert openai_server.request_count == 2  # the reply and its repair
    second, _ = run(ask(fake_model_config, keep_invalid=True))
    assert openai_server.request_count == 2  # nothing sent
    assert (second.status, second.raw, second.error) == ("parse_failure", first.raw, first.error)
    assert second.cached
    assert (second.usage.calls, second.usage.cache_hits, second.usage.repairs) == (0, 2, 0)


def test_a_repaired_reply_is_cached_with_its_first_reply(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.script(reply(MISSING_BRACE), json_reply({"claims": ["a"]}))
    first, _ = run(ask(fake_model_config))
    assert first.status == "ok"
    second, _ = run(ask(fake_model_config))
    assert openai_server.request_count == 2  # the rerun sends nothing
    assert second.status == "ok"
    assert second.cached
    assert second.usage.cache_hits == 2
    assert second.usage.repairs == 0


def test_json_in_a_fence_or_after_prose_is_accepted_without_repair(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.script(
        reply('Here you go:\n```json\n{"claims": ["a"]}\n```'),
        reply('Draft {"claims": []} then final answer: {"claims": ["b"]}'),
    )
    fenced, _ = run(ask(fake_model_config))
    prose, _ = run(ask(fake_model_config, repetition=1))
    assert fenced.value == Claims(claims=["a"])
    assert prose.value == Claims(claims=["b"])  # the last object wins
    assert fenced.usage.repairs == prose.usage.repairs == 0


def test_request_carries_the_strict_schema_and_the_sampling_settings(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.script(json_reply({"claims": []}))
    run(ask(fake_model_config, max_tokens=321))
    body = openai_server.requests[0].body
    assert body["model"] == "fake-model"
    assert body["temperature"] == 0
    assert body["seed"] == 0
    assert body["max_tokens"] == 321
    fmt = body["response_format"]
    assert fmt["type"] == "json_schema"
    assert fmt["json_schema"]["name"] == "Claims"
    assert fmt["json_schema"]["strict"] is True
    assert fmt["json_schema"]["schema"]["required"] == ["claims"]
    assert fmt["json_schema"]["schema"]["additionalProperties"] is False


def test_rejected_response_format_falls_back_and_is_remembered(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    def responder(request: RecordedRequest) -> Step:
        fmt = request.body.get("response_format")
        if fmt is not None:
            return http_error(400, f"response_format type {fmt['type']!r} is not supported")
        return json_reply({"claims": ["a"]})

    openai_server.respond_with(responder)

    async def two_calls() -> tuple[CallResult[Claims], CallResult[Claims], FormatMode]:
        async with ModelClient(fake_model_config, environ={}) as client:
            first = await client.complete_structured(
                MESSAGES, Claims, prompt_name="claims", prompt_version="1"
            )
            second = await client.complete_structured(
                MESSAGES, Claims, prompt_name="claims", prompt_version="1", repetition=1
            )
            return first, second, client.format_mode

    first, second, mode = run(two_calls())
    assert first.status == second.status == "ok"
    assert mode is FormatMode.NONE
    formats = [r.body.get("response_format", {}).get("type") for r in openai_server.requests]
    # json_schema rejected, json_object rejected, none accepted; the second call starts at none
    assert formats == ["json_schema", "json_object", None, None]
    assert first.usage.calls == 3
    assert first.usage.retries == 0


# -- usage and concurrency -------------------------------------------------------------------


def test_usage_sums_per_call_per_scope_and_in_total(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.script(
        json_reply({"claims": []}, prompt_tokens=10, completion_tokens=5),
        json_reply({"claims": []}, prompt_tokens=20, completion_tokens=10),
        json_reply({"claims": []}, prompt_tokens=100, completion_tokens=50),
    )

    async def calls() -> ModelClient:
        async with ModelClient(fake_model_config, environ={}) as client:
            for repetition, scope in enumerate(["support", "support", "contradiction"]):
                await client.complete_structured(
                    MESSAGES,
                    Claims,
                    prompt_name="claims",
                    prompt_version="1",
                    repetition=repetition,
                    scope=scope,
                )
            await client.complete_structured(  # a cache hit of the first call
                MESSAGES, Claims, prompt_name="claims", prompt_version="1", scope="support"
            )
        return client

    client = run(calls())
    support = client.usage_by_scope["support"]
    contradiction = client.usage_by_scope["contradiction"]
    assert (support.prompt_tokens, support.completion_tokens) == (30, 15)
    assert (contradiction.prompt_tokens, contradiction.completion_tokens) == (100, 50)
    assert support.calls == 2
    assert support.cache_hits == 1
    # support: 30 * $1/M + 15 * $2/M = 0.00006; its cache hit saved the first call's
    # 10 * $1/M + 5 * $2/M = 0.00002
    assert support.cost_usd == pytest.approx(0.00006)
    assert support.saved_cost_usd == pytest.approx(0.00002)
    total = client.usage
    assert total == support + contradiction
    assert total.total_tokens == 130 + 65
    # total: 130 * $1/M + 65 * $2/M = 0.00026
    assert total.cost_usd == pytest.approx(0.00026)


def test_concurrency_bound_holds_for_50_concurrent_calls(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.respond_with(always(json_reply({"claims": ["a"]}, delay=0.05)))
    config = fake_model_config.model_copy(update={"max_concurrency": 3})

    async def many() -> list[CallResult[Claims]]:
        async with ModelClient(config, environ={}) as client:
            return await asyncio.gather(
                *(
                    client.complete_structured(
                        MESSAGES, Claims, prompt_name="claims", prompt_version="1", repetition=i
                    )
                    for i in range(50)
                )
            )

    results = run(many())
    assert [r.status for r in results] == ["ok"] * 50
    assert openai_server.request_count == 50
    assert openai_server.max_in_flight <= 3
    assert openai_server.max_open_connections <= 3
    assert openai_server.max_in_flight >= 2  # the calls did overlap: the bound was exercised


# -- secrets ---------------------------------------------------------------------------------


def test_api_key_never_reaches_the_cache_or_a_repr(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.script(reply(MISSING_BRACE), json_reply({"claims": ["a"]}))
    result, client = run(ask(fake_model_config))
    assert openai_server.requests[0].headers["authorization"] == f"Bearer {SECRET}"
    files = [p for p in Path(fake_model_config.cache_dir).rglob("*") if p.is_file()]
    assert files
    for path in files:
        assert SECRET.encode() not in path.read_bytes(), path
    for text in (repr(client), repr(fake_model_config), repr(result), str(client.usage_by_scope)):
        assert SECRET not in text


def test_the_key_is_taken_from_the_named_variable_only(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.script(json_reply({"claims": []}))
    run(ask(fake_model_config, env={"OPENAI_API_KEY": "sk-wrong-variable"}))
    assert "sk-wrong-variable" not in openai_server.requests[0].headers["authorization"]


# -- local backend ---------------------------------------------------------------------------


class _StandInLocalServer:
    """Stands in for LocalModelServer: serves through the fake server, counts starts."""

    starts = 0
    stops = 0
    server: FakeOpenAIServer

    def __init__(self, **_options: Any) -> None:
        pass

    def start(self) -> str:
        type(self).starts += 1
        return self.server.base_url

    def stop(self) -> None:
        type(self).stops += 1


def test_local_backend_starts_its_server_on_the_first_miss_only(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from hybridjudge.model import _local

    monkeypatch.setattr(_local, "LocalModelServer", _StandInLocalServer)
    config = ModelConfig.local(cache_dir=tmp_path, max_retries=0)
    for round_number in range(2):
        # a new server (new port) each round: the local cache identity does not depend on it
        with FakeOpenAIServer() as server:
            server.respond_with(always(json_reply({"claims": ["a"]})))
            _StandInLocalServer.server = server
            _StandInLocalServer.starts = _StandInLocalServer.stops = 0
            result, _ = run(ask(config))
            assert result.status == "ok"
            if round_number == 0:
                assert (_StandInLocalServer.starts, _StandInLocalServer.stops) == (1, 1)
                assert result.usage.cost_usd == 0  # the local model is free
            else:  # fully cached rerun: the model is never loaded
                assert (_StandInLocalServer.starts, _StandInLocalServer.stops) == (0, 0)
                assert result.cached
                assert server.request_count == 0


class _BrokenLocalServer:
    """A local server whose start fails (as with a bad checksum); counts the attempts."""

    starts = 0

    def __init__(self, **_options: Any) -> None:
        pass

    def start(self) -> str:
        type(self).starts += 1
        raise LocalModelError("checksum mismatch (stand-in)")

    def stop(self) -> None:  # pragma: no cover - never started
        raise AssertionError("stop() of a server that never started")


def test_a_local_server_that_cannot_start_is_tried_once_and_raises(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from hybridjudge.model import _local

    monkeypatch.setattr(_local, "LocalModelServer", _BrokenLocalServer)
    config = ModelConfig.local(cache_dir=tmp_path)

    async def many() -> list[Any]:
        async with ModelClient(config, environ={}) as client:
            return await asyncio.gather(
                *(
                    client.complete_structured(
                        MESSAGES, Claims, prompt_name="claims", prompt_version="1", repetition=i
                    )
                    for i in range(5)
                ),
                return_exceptions=True,
            )

    outcomes = run(many())
    assert all(isinstance(o, LocalModelError) for o in outcomes)
    assert _BrokenLocalServer.starts == 1
