"""The model client fails closed (issue 10): whole-request deadline, retries logged as they
happen, per-request rejections are results, secrets never stored or shown."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path

import pytest
from pydantic import BaseModel

from hybridjudge import ConfigError, ModelAuthError
from hybridjudge._redact import REDACTED, looks_like_key, redact_secrets, redact_url
from hybridjudge.judges import JudgeResult
from hybridjudge.model import CallResult, ModelClient, ModelConfig
from tests.faults._support import KEY, files_containing
from tests.support.openai_server import (
    FakeOpenAIServer,
    RecordedRequest,
    Step,
    cut_off,
    http_error,
    json_reply,
    never_answer,
    reply,
    server_error,
    trickle,
)


class Claims(BaseModel):
    claims: list[str]


def _ask(
    config: ModelConfig, text: str = "hello", environ: dict[str, str] | None = None
) -> CallResult[Claims]:
    async def go() -> CallResult[Claims]:
        async with ModelClient(config, environ=environ if environ is not None else {}) as client:
            return await client.complete_structured(
                [{"role": "user", "content": text}], Claims, prompt_name="p", prompt_version="1"
            )

    return asyncio.run(go())


def test_timeout_is_a_deadline_for_the_whole_request(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    # each byte arrives 0.05 s after the last, well within a per-read timeout of 0.5 s, but the
    # whole ~200-byte body needs ~10 s: only a whole-request deadline stops it
    config = fake_model_config.model_copy(update={"timeout": 0.5, "max_retries": 0})
    openai_server.script(trickle(json.dumps({"claims": ["a"]}), every=0.05))
    result = _ask(config)
    assert result.status == "model_error"
    assert "0.5 s timeout" in (result.error or "")
    assert result.usage.calls == 1


def test_a_server_that_never_answers_costs_one_deadline_per_attempt(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    config = fake_model_config.model_copy(update={"timeout": 0.3, "max_retries": 1})
    openai_server.script(never_answer(), never_answer())
    result = _ask(config)
    assert result.status == "model_error"
    assert result.usage.calls == 2
    assert result.usage.retries == 1


def test_the_default_deadline_is_sixty_seconds_for_an_endpoint() -> None:
    config = ModelConfig(backend="openai", base_url="http://127.0.0.1:9/v1", model="m")
    assert config.timeout == 60.0


def test_each_retry_is_logged_as_it_happens_without_secrets(
    openai_server: FakeOpenAIServer,
    fake_model_config: ModelConfig,
    caplog: pytest.LogCaptureFixture,
) -> None:
    config = fake_model_config.model_copy(update={"max_retries": 2})
    openai_server.script(
        server_error(503, f"overloaded; your key {KEY}"),
        server_error(502, "bad gateway"),
        json_reply({"claims": ["a"]}),
    )
    env = {config.api_key_env: KEY}
    with caplog.at_level(logging.WARNING, logger="hybridjudge.model._client"):
        result = _ask(config, environ=env)
    assert result.status == "ok"
    retries = [r for r in caplog.records if r.name == "hybridjudge.model._client"]
    assert len(retries) == 2  # one record per retry
    assert [r.levelno for r in retries] == [logging.WARNING, logging.WARNING]
    text = [r.getMessage() for r in retries]
    assert "attempt 1 of 3" in text[0]
    assert "HTTP 503" in text[0]
    assert "attempt 2 of 3" in text[1]
    assert "HTTP 502" in text[1]
    assert all(KEY not in t for t in text)
    assert REDACTED in text[0]


def test_a_400_on_one_request_is_that_call_s_model_error_not_a_crash(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.script(
        json_reply({"claims": ["fine"]}),
        http_error(400, "The response was filtered (content management policy)"),
        json_reply({"claims": ["fine again"]}),
    )

    async def go() -> list[CallResult[Claims]]:
        async with ModelClient(fake_model_config, environ={}) as client:
            return [
                await client.complete_structured(
                    [{"role": "user", "content": f"q{i}"}],
                    Claims,
                    prompt_name="p",
                    prompt_version="1",
                )
                for i in range(3)
            ]

    first, second, third = asyncio.run(go())
    assert (first.status, second.status, third.status) == ("ok", "model_error", "ok")
    assert "HTTP 400" in (second.error or "")
    assert "filtered" in (second.error or "")
    assert openai_server.request_count == 3  # a 400 is not retried


def test_401_after_a_success_is_a_per_request_failure_but_401_first_stops(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.script(http_error(401, "bad key"))
    with pytest.raises(ModelAuthError):
        _ask(fake_model_config)

    openai_server.script(json_reply({"claims": ["a"]}), http_error(401, "revoked"))

    async def go() -> list[CallResult[Claims]]:
        async with ModelClient(fake_model_config, environ={}) as client:
            return [
                await client.complete_structured(
                    [{"role": "user", "content": f"x{i}"}],
                    Claims,
                    prompt_name="p",
                    prompt_version="1",
                )
                for i in range(2)
            ]

    ok, failed = asyncio.run(go())
    assert ok.status == "ok"
    assert failed.status == "model_error"
    assert "HTTP 401" in (failed.error or "")


def test_a_draft_then_a_cut_off_object_is_a_parse_failure(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    text = '{"claims": ["draft"]}\nLet me refine: {"claims": ["final, but cut'
    openai_server.script(cut_off(text), cut_off(text))
    result = _ask(fake_model_config)
    assert result.status == "parse_failure"
    assert "finish_reason=length" in (result.error or "")
    assert result.value is None
    # also without the length flag: the last object is broken, the draft is not the answer
    openai_server.script(reply(text), reply(text))
    result = _ask(fake_model_config.model_copy(update={"cache": False}), text="other")
    assert result.status == "parse_failure"


def test_a_complete_reply_at_the_length_limit_is_still_accepted(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.script(cut_off(json.dumps({"claims": ["whole"]})))
    result = _ask(fake_model_config)
    assert result.status == "ok"
    assert result.value == Claims(claims=["whole"])


def test_a_key_echoed_by_the_server_is_never_stored(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig, tmp_path: Path
) -> None:
    env = {fake_model_config.api_key_env: KEY}
    openai_server.script(json_reply({"claims": [f"the key is {KEY}"]}))
    result = _ask(fake_model_config, environ=env)
    assert result.status == "ok"
    assert result.value is not None
    assert KEY not in result.value.claims[0]
    assert REDACTED in result.value.claims[0]
    openai_server.script(http_error(400, f"bad request for {KEY}"))
    failed = _ask(fake_model_config, text="again", environ=env)
    assert KEY not in (failed.error or "")
    assert files_containing(tmp_path, KEY) == []  # the cache on disk included


def test_a_key_given_as_the_variable_name_is_never_echoed() -> None:
    config = ModelConfig(backend="openai", model="gpt-4o-mini", api_key_env=KEY)
    with pytest.raises(ConfigError) as info:
        ModelClient(config, environ={})
    assert KEY not in str(info.value)
    assert "looks like a key" in str(info.value)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f"error: key {KEY} invalid", f"error: key {REDACTED} invalid"),
        ("Authorization: Bearer abcdefgh12345678", f"Authorization: Bearer {REDACTED}"),
        ('{"api_key": "s3cr3t-value-1"}', f'{{"api_key": "{REDACTED}"}}'),
        ("hf_" + "a1B2" * 9 + " end", f"{REDACTED} end"),
        ("a claim about 30 days and $1,200", "a claim about 30 days and $1,200"),
    ],
)
def test_redact_secrets(text: str, expected: str) -> None:
    assert redact_secrets(text) == expected


def test_redact_url_drops_credentials_and_key_parameters() -> None:
    assert redact_url("https://user:pa55@host:8443/v1?api-key=abc&x=1") == (
        f"https://{REDACTED}@host:8443/v1?api-key={REDACTED}&x=1"
    )
    assert redact_url("http://127.0.0.1:8080/v1") == "http://127.0.0.1:8080/v1"
    # the embedded model's endpoint names the model and its weights' sha256, no credentials
    local = "local://qwen2.5-coder-1.5b-instruct-q4_k_m@cc324af070c2ecbfd324a30884d2f951"
    assert redact_url(local) == local


@pytest.mark.parametrize(
    ("value", "is_key"),
    [
        (KEY, True),
        ("OPENAI_API_KEY", False),
        ("HYBRIDJUDGE_TEST_API_KEY", False),
        ("my_key", False),
        ("AbCdEfGh1234IjKlMnOp5678QrSt", True),
    ],
)
def test_looks_like_key(value: str, is_key: bool) -> None:
    assert looks_like_key(value) is is_key


def test_lone_surrogates_in_an_answer_are_sent_not_crashed_on(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    from hybridjudge.judges import judge

    def responder(request: RecordedRequest) -> Step:
        return json_reply({"quote": "Refunds take 30 days", "verdict": "YES"})

    openai_server.respond_with(responder)

    async def go() -> dict[str, JudgeResult]:
        async with ModelClient(fake_model_config, environ={}) as client:
            return await judge(
                client,
                answer="Refunds \ud800 take 30 days.",
                context=["Refunds take 30 days \udfff."],
                scorers=["support"],
            )

    results = asyncio.run(go())
    assert results["support"].status == "scored"
    sent = json.dumps(openai_server.requests[0].body, ensure_ascii=False)
    # the claim is the answer's sentence (its period dropped), the context sentence follows
    assert "Statement: Refunds \ufffd take 30 days" in sent
    assert "Refunds take 30 days \ufffd." in sent
