"""The test server itself: routes, recording, and loud failure when a script runs out."""

from __future__ import annotations

import asyncio
from typing import Any

from pydantic import BaseModel

from hybridjudge.model import ModelClient, ModelConfig
from tests.support.openai_server import FakeOpenAIServer, RecordedRequest, Step, json_reply


class Empty(BaseModel):
    pass


async def one_call(config: ModelConfig) -> Any:
    async with ModelClient(config, environ={}) as client:
        return await client.complete_structured(
            [{"role": "user", "content": "hello"}], Empty, prompt_name="p", prompt_version="1"
        )


def test_models_route_lists_the_configured_models(fake_model_config: ModelConfig) -> None:
    async def models() -> list[str]:
        async with ModelClient(fake_model_config, environ={}) as client:
            return await client.list_models()

    assert asyncio.run(models()) == ["fake-model"]


def test_unscripted_request_fails_loudly(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    # HTTP 418 is a per-request rejection: that call is a model_error naming the cause
    result = asyncio.run(one_call(fake_model_config))
    assert result.status == "model_error"
    assert "script exhausted" in result.error
    assert openai_server.request_count == 1


def test_responder_sees_the_request_and_its_errors_are_kept(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    seen: list[RecordedRequest] = []

    def responder(request: RecordedRequest) -> Step:
        seen.append(request)
        if len(seen) > 1:
            raise RuntimeError("boom")
        return json_reply({})

    openai_server.respond_with(responder)
    assert asyncio.run(one_call(fake_model_config)).status == "ok"
    assert seen[0].last_user_content == "hello"
    assert seen[0].body["model"] == "fake-model"
    openai_server.respond_with(responder)
    config = fake_model_config.model_copy(update={"cache": False})
    result = asyncio.run(one_call(config))
    assert result.status == "model_error"
    assert "responder raised" in result.error
    assert [str(e) for e in openai_server.responder_errors] == ["boom"]


def test_scripted_steps_are_consumed_in_order(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    config = fake_model_config.model_copy(update={"cache": False})
    openai_server.script(json_reply({}, prompt_tokens=1), json_reply({}, prompt_tokens=2))
    assert openai_server.pending_steps == 2
    first = asyncio.run(one_call(config))
    second = asyncio.run(one_call(config))
    assert (first.usage.prompt_tokens, second.usage.prompt_tokens) == (1, 2)
    assert openai_server.pending_steps == 0
    openai_server.reset()
    assert openai_server.request_count == 0
