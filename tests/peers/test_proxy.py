"""The peer proxy: an OpenAI-compatible endpoint on 127.0.0.1 backed by our ModelClient.

Runs without the peer packages: an ``openai`` client (what RAGAS and DeepEval use underneath)
talks to the proxy, which forwards to the scripted server (tests/support/openai_server.py).
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

import openai
import pytest

from hybridjudge.model import ModelConfig
from hybridjudge.peers import PeerProxy
from tests.conftest import FAKE_PRICE_IN, FAKE_PRICE_OUT
from tests.support.openai_server import (
    FakeOpenAIServer,
    http_error,
    json_reply,
    reply,
    server_error,
)


@pytest.fixture(autouse=True)
def _api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HYBRIDJUDGE_TEST_API_KEY", "test-key")


def _ask(base_url: str, content: str = "Reply with a JSON object.", **extra: Any) -> Any:
    client = openai.OpenAI(base_url=base_url, api_key="unused", max_retries=0)
    try:
        return client.chat.completions.create(
            model="fake-model", messages=[{"role": "user", "content": content}], **extra
        )
    finally:
        client.close()


def test_a_request_goes_through_the_client_and_is_counted(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.script(json_reply({"statements": ["a"]}, prompt_tokens=100, completion_tokens=20))
    with PeerProxy(fake_model_config) as proxy:
        session = proxy.session("ragas")
        completion = _ask(session.base_url, max_tokens=77)
        assert json.loads(completion.choices[0].message.content) == {"statements": ["a"]}
        assert completion.usage.prompt_tokens == 100
        # forwarded to the real endpoint with the peer's budget
        assert openai_server.request_count == 1
        sent = openai_server.requests[0].body
        assert sent["max_tokens"] == 77
        assert sent["messages"] == [{"role": "user", "content": "Reply with a JSON object."}]
        [call] = session.calls
        assert call.status == "ok"
        assert session.usage.calls == 1
        expected_cost = (100 * FAKE_PRICE_IN + 20 * FAKE_PRICE_OUT) / 1_000_000
        assert session.usage.cost_usd == pytest.approx(expected_cost)
        assert proxy.usage_by_scope["ragas"].prompt_tokens == 100


def test_a_repeated_request_is_served_from_the_cache(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.script(json_reply({"a": 1}))
    with PeerProxy(fake_model_config) as proxy:
        _ask(proxy.session("deepeval").base_url)
    with PeerProxy(fake_model_config) as proxy:  # a new run on the same cache
        session = proxy.session("deepeval")
        completion = _ask(session.base_url)
        assert json.loads(completion.choices[0].message.content) == {"a": 1}
        assert session.usage.calls == 0
        assert session.usage.cache_hits == 1
    assert openai_server.request_count == 1
    # another repetition is another sample: it asks again
    openai_server.script(json_reply({"a": 2}))
    with PeerProxy(fake_model_config) as proxy:
        session = proxy.session("deepeval", repetition=1)
        assert json.loads(_ask(session.base_url).choices[0].message.content) == {"a": 2}
    assert openai_server.request_count == 2


def test_retries_happen_in_our_client_and_a_model_error_is_a_400(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.script(server_error(), server_error(), server_error())  # max_retries=2
    with PeerProxy(fake_model_config) as proxy:
        session = proxy.session("ragas")
        with pytest.raises(openai.BadRequestError, match="gave up after 3 attempts"):
            _ask(session.base_url)
        [call] = session.calls
        assert call.status == "model_error"
        assert session.usage.retries == 2
        assert session.usage.calls == 3
        failure = session.first_failure()
        assert failure is not None
        assert failure.status == "model_error"
    assert openai_server.request_count == 3


def test_an_invalid_reply_is_repaired_once_then_passed_on_as_a_parse_failure(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.script(reply("not json at all"), reply("still not json"))
    with PeerProxy(fake_model_config) as proxy:
        session = proxy.session("deepeval")
        completion = _ask(session.base_url)
        # the peer sees the model's text and fails on it itself; the session knows why
        assert completion.choices[0].message.content == "still not json"
        [call] = session.calls
        assert call.status == "parse_failure"
        assert session.usage.repairs == 1
    assert openai_server.request_count == 2


def test_requests_the_proxy_cannot_serve_are_refused_without_a_model_call(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    with PeerProxy(fake_model_config) as proxy:
        session = proxy.session("ragas")
        with pytest.raises(openai.BadRequestError, match="streaming"):
            _ask(session.base_url, stream=True)
        with pytest.raises(openai.BadRequestError, match="n > 1"):
            _ask(session.base_url, n=2)
        assert [call.status for call in session.calls] == ["rejected", "rejected"]
        # a URL that is not a session of this proxy
        request = urllib.request.Request(
            f"http://127.0.0.1:{proxy.port}/nope/v1/chat/completions", data=b"{}", method="POST"
        )
        with pytest.raises(urllib.error.HTTPError) as caught:
            urllib.request.urlopen(request, timeout=5)
        assert caught.value.code == 404
        caught.value.close()
    assert openai_server.request_count == 0


def test_a_whole_run_error_is_kept_for_the_caller(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.script(http_error(401, "bad key"))
    with PeerProxy(fake_model_config) as proxy:
        session = proxy.session("ragas")
        with pytest.raises(openai.BadRequestError, match="ModelAuthError"):
            _ask(session.base_url)
        from hybridjudge._errors import ModelAuthError

        with pytest.raises(ModelAuthError):
            proxy.raise_fatal()


def test_a_client_that_cannot_start_leaves_no_thread(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    from hybridjudge._errors import ConfigError

    monkeypatch.delenv("HYBRIDJUDGE_NO_SUCH_KEY", raising=False)
    config = ModelConfig(
        backend="openai",
        model="gpt-4o-mini",
        api_key_env="HYBRIDJUDGE_NO_SUCH_KEY",
        cache_dir=tmp_path / "cache",
    )
    with pytest.raises(ConfigError, match="HYBRIDJUDGE_NO_SUCH_KEY"), PeerProxy(config):
        pass
    assert not [t for t in threading.enumerate() if t.name.startswith("hybridjudge-peer-proxy")]


def test_a_request_over_the_budget_is_refused_for_that_evaluation_only(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    from hybridjudge.model import CostBudget
    from hybridjudge.peers._adapters import _failure

    openai_server.script(json_reply({"a": 1}))
    budget = CostBudget(0.0)  # no request fits
    with PeerProxy(fake_model_config, budget=budget) as proxy:
        session = proxy.session("ragas")
        with pytest.raises(openai.BadRequestError, match=r"--max-cost \$0.0000 reached"):
            _ask(session.base_url)
        failure = session.first_failure()
        assert failure is not None
        assert failure.status == "budget_exhausted"
        proxy.raise_fatal()  # not an error about the whole run: the others go on
        assert _failure("ragas", session, None)[0] == "budget_exhausted"
    assert openai_server.request_count == 0
    assert budget.refused == 1
