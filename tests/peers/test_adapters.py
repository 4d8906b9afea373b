"""The peer adapters (RAGAS Faithfulness, DeepEval FaithfulnessMetric) against the scripted server.

The peers' replies are scripted per prompt (a responder recognises which of the peer's prompts
is asking); every call goes peer -> our proxy -> our ModelClient -> the scripted server. Each
test checks the score or the unscored reason, the calls the server saw and the usage counted.

These tests need the ``[peers]`` extra (``pip install -e '.[peers]'``); they are skipped with
that reason when the packages are missing (the dev install leaves them out: deepeval 4.3.1
pins rich < 15 and brings pytest plugins, see docs/peers.md).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest

from hybridjudge.model import ModelConfig
from hybridjudge.peers import (
    PeerName,
    PeerProxy,
    PeerResult,
    ascore_peer,
    peer_version,
    score_peers_many,
)
from tests.support.openai_server import (
    FakeOpenAIServer,
    RecordedRequest,
    Step,
    cut_off,
    http_error,
    json_reply,
    reply,
    server_error,
)

_MISSING = "needs the [peers] extra: pip install -e '.[peers]' (see docs/peers.md)"
needs_ragas = pytest.mark.skipif(peer_version("ragas") is None, reason=f"ragas {_MISSING}")
needs_deepeval = pytest.mark.skipif(peer_version("deepeval") is None, reason=f"deepeval {_MISSING}")

QUESTION = "What does the Pro plan cost?"
CONTEXT = ["The Pro plan costs $20 per month. Refunds are issued within 14 days."]
SUPPORTED = "The Pro plan costs $20 per month."
INVENTED = "The Pro plan costs $20 per month and 11% of customers upgrade."


# ragas 0.4.3 reads its user id file with a bare open() and never closes it
# (ragas/_analytics.py get_userid, called once per process when its log formatter runs)
pytestmark = pytest.mark.filterwarnings(
    "ignore:Exception ignored in.*uuid.json:pytest.PytestUnraisableExceptionWarning"
)


@pytest.fixture(autouse=True)
def _api_key(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    monkeypatch.setenv("HYBRIDJUDGE_TEST_API_KEY", "test-key")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))  # ragas writes its user id there


def _text(request: RecordedRequest) -> str:
    return json.dumps(request.messages)


def _kind(request: RecordedRequest) -> str:
    """Which of the peers' prompts a request is (from the peers' own prompt texts)."""
    text = _text(request)
    if "Structured output for statement generation" in text:
        return "ragas_statements"
    if "StatementFaithfulnessAnswer" in text:
        return "ragas_verdicts"
    if "Based on the given claims" in text:
        return "deepeval_verdicts"
    if "provided actual AI output" in text:
        return "deepeval_claims"
    if "truths" in text:
        return "deepeval_truths"
    raise AssertionError(f"unexpected prompt: {text[:300]}")


def _responder(replies: dict[str, Step | Callable[[RecordedRequest], Step]]) -> Any:
    def respond(request: RecordedRequest) -> Step:
        step = replies[_kind(request)]
        return step(request) if callable(step) else step

    return respond


def _score(config: ModelConfig, peer: PeerName, answer: str, *, repetition: int = 0) -> PeerResult:
    with PeerProxy(config) as proxy:
        return asyncio.run(
            ascore_peer(
                proxy,
                peer,
                answer=answer,
                context=CONTEXT,
                question=QUESTION,
                repetition=repetition,
            )
        )


def _kinds(server: FakeOpenAIServer) -> list[str]:
    return [_kind(request) for request in server.requests]


# -- RAGAS ----------------------------------------------------------------------------------
def _ragas_verdicts(*verdicts: int) -> Step:
    return json_reply(
        {
            "statements": [
                {"statement": f"s{i}", "reason": "r", "verdict": verdict}
                for i, verdict in enumerate(verdicts)
            ]
        },
        prompt_tokens=200,
        completion_tokens=40,
    )


@needs_ragas
def test_ragas_scores_a_supported_answer_and_counts_its_calls(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.respond_with(
        _responder(
            {
                "ragas_statements": json_reply(
                    {"statements": [SUPPORTED]}, prompt_tokens=100, completion_tokens=10
                ),
                "ragas_verdicts": _ragas_verdicts(1),
            }
        )
    )
    result = _score(fake_model_config, "ragas", SUPPORTED)
    assert (result.status, result.score, result.unscored_reason) == ("scored", 1.0, None)
    assert _kinds(openai_server) == ["ragas_statements", "ragas_verdicts"]
    assert (result.usage.calls, result.usage.prompt_tokens, result.usage.completion_tokens) == (
        2,
        300,
        50,
    )
    assert result.usage.cost_usd == pytest.approx((300 * 1.0 + 50 * 2.0) / 1e6)
    assert result.peer_version == "0.4.3"


@needs_ragas
def test_ragas_scores_an_invented_number_below_one(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.respond_with(
        _responder(
            {
                "ragas_statements": json_reply(
                    {"statements": [SUPPORTED, "11% of customers upgrade."]}
                ),
                "ragas_verdicts": _ragas_verdicts(1, 0),
            }
        )
    )
    result = _score(fake_model_config, "ragas", INVENTED)
    assert (result.status, result.score) == ("scored", 0.5)


@needs_ragas
def test_ragas_nan_for_no_statements_is_unscored_no_claims(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.respond_with(_responder({"ragas_statements": json_reply({"statements": []})}))
    result = _score(fake_model_config, "ragas", "Hello!")
    assert (result.status, result.score, result.unscored_reason) == ("unscored", None, "no_claims")
    assert _kinds(openai_server) == ["ragas_statements"]


@needs_ragas
def test_ragas_nan_from_empty_verdicts_is_unscored_nan(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.respond_with(
        _responder(
            {
                "ragas_statements": json_reply({"statements": [SUPPORTED]}),
                "ragas_verdicts": json_reply({"statements": []}),
            }
        )
    )
    result = _score(fake_model_config, "ragas", SUPPORTED)
    assert (result.status, result.unscored_reason) == ("unscored", "nan")


@needs_ragas
def test_ragas_invalid_json_is_unscored_parse_failure(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.respond_with(
        _responder(
            {
                "ragas_statements": json_reply({"statements": [SUPPORTED]}),
                "ragas_verdicts": reply('{"statements": [{"statement": "s0", "verdict": 1'),
            }
        )
    )
    result = _score(fake_model_config, "ragas", SUPPORTED)
    assert (result.status, result.score, result.unscored_reason) == (
        "unscored",
        None,
        "parse_failure",
    )
    assert result.usage.repairs >= 1  # our client's one repair per request, counted
    assert result.usage.calls == openai_server.request_count


@needs_ragas
def test_ragas_reply_cut_at_the_token_cap_is_unscored_parse_failure(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    # measured on the embedded model: 3 of 27 RAGAS verdict replies hit its 1,024-token cap
    cut = '{"statements": [{"statement": "s0", "reason": "the context says'
    openai_server.respond_with(
        _responder(
            {
                "ragas_statements": json_reply({"statements": [SUPPORTED]}),
                "ragas_verdicts": cut_off(cut),
            }
        )
    )
    result = _score(fake_model_config, "ragas", SUPPORTED)
    assert (result.status, result.score, result.unscored_reason) == (
        "unscored",
        None,
        "parse_failure",
    )


@needs_ragas
def test_ragas_http_error_is_unscored_model_error_after_our_retries(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.respond_with(_responder({"ragas_statements": server_error(503)}))
    result = _score(fake_model_config, "ragas", SUPPORTED)
    assert (result.status, result.unscored_reason) == ("unscored", "model_error")
    assert result.error is not None
    assert "HTTP 503" in result.error
    assert result.usage.retries >= 2  # retried by our client (fake config: 2 retries)
    assert result.usage.calls == openai_server.request_count


# -- DeepEval -------------------------------------------------------------------------------
def _deepeval(claims: list[str], verdicts: list[str]) -> dict[str, Step | Callable[..., Step]]:
    return {
        "deepeval_truths": json_reply({"truths": ["The Pro plan costs $20 per month."]}),
        "deepeval_claims": json_reply({"claims": claims}),
        "deepeval_verdicts": json_reply(
            {"verdicts": [{"verdict": verdict, "reason": "r"} for verdict in verdicts]}
        ),
    }


@needs_deepeval
def test_deepeval_scores_a_supported_answer_and_counts_its_calls(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.respond_with(_responder(_deepeval([SUPPORTED], ["yes"])))
    result = _score(fake_model_config, "deepeval", SUPPORTED)
    assert (result.status, result.score) == ("scored", 1.0)
    assert result.claims == (SUPPORTED,)
    assert sorted(_kinds(openai_server)) == [
        "deepeval_claims",
        "deepeval_truths",
        "deepeval_verdicts",
    ]
    assert result.usage.calls == 3
    assert result.usage.prompt_tokens == 30  # 10 per scripted reply
    assert result.peer_version == "4.3.1"


@needs_deepeval
def test_deepeval_scores_a_contradicted_number_below_one(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.respond_with(
        _responder(_deepeval([SUPPORTED, "The Pro plan costs $25 per month."], ["yes", "no"]))
    )
    result = _score(fake_model_config, "deepeval", "The Pro plan costs $20, or $25 per month.")
    assert (result.status, result.score) == ("scored", 0.5)


@needs_deepeval
def test_deepeval_no_claims_is_unscored_not_its_silent_one(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.respond_with(_responder(_deepeval([], [])))
    result = _score(fake_model_config, "deepeval", "Hello!")
    assert (result.status, result.score, result.unscored_reason) == ("unscored", None, "no_claims")


@needs_deepeval
def test_deepeval_fewer_verdicts_than_claims_is_a_parse_failure(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.respond_with(_responder(_deepeval([SUPPORTED, "Refunds take 14 days."], ["yes"])))
    result = _score(fake_model_config, "deepeval", SUPPORTED + " Refunds take 14 days.")
    assert (result.status, result.unscored_reason) == ("unscored", "parse_failure")
    assert result.error is not None
    assert "1 verdicts for 2 claims" in result.error


@needs_deepeval
def test_deepeval_invalid_json_is_unscored_parse_failure(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    replies = _deepeval([SUPPORTED], ["yes"])
    # MISSION's observed failure: the verdict list closed with ']' but no closing '}'
    replies["deepeval_verdicts"] = reply('{"verdicts": [{"verdict": "yes", "reason": "r"}]')
    openai_server.respond_with(_responder(replies))
    result = _score(fake_model_config, "deepeval", SUPPORTED)
    assert (result.status, result.score, result.unscored_reason) == (
        "unscored",
        None,
        "parse_failure",
    )
    assert result.usage.repairs == 1


@needs_deepeval
def test_deepeval_invalid_json_rerun_is_the_same_failure_with_no_request(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    # issue 13: a cached rerun of the peers costs 0 calls, their unusable replies included
    replies = _deepeval([SUPPORTED], ["yes"])
    replies["deepeval_verdicts"] = reply('{"verdicts": [{"verdict": "yes", "reason": "r"}]')
    openai_server.respond_with(_responder(replies))
    first = _score(fake_model_config, "deepeval", SUPPORTED)
    sent = openai_server.request_count
    second = _score(fake_model_config, "deepeval", SUPPORTED)
    assert openai_server.request_count == sent
    assert (second.status, second.unscored_reason) == (first.status, first.unscored_reason)
    assert first.unscored_reason == "parse_failure"
    assert second.usage.calls == 0


@needs_deepeval
def test_deepeval_http_error_is_unscored_model_error(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    replies = _deepeval([SUPPORTED], ["yes"])
    replies["deepeval_verdicts"] = http_error(400, "content filter")
    openai_server.respond_with(_responder(replies))
    result = _score(fake_model_config, "deepeval", SUPPORTED)
    assert (result.status, result.unscored_reason) == ("unscored", "model_error")
    assert result.error is not None
    assert "HTTP 400" in result.error


# -- both: a rerun costs nothing ------------------------------------------------------------
@needs_ragas
@needs_deepeval
def test_a_rerun_is_served_from_the_cache_with_no_request(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    replies: dict[str, Any] = {
        "ragas_statements": json_reply({"statements": [SUPPORTED, "11% upgrade."]}),
        "ragas_verdicts": _ragas_verdicts(1, 0),
        **_deepeval([SUPPORTED], ["yes"]),
    }
    openai_server.respond_with(_responder(replies))
    first = [_score(fake_model_config, peer, INVENTED) for peer in ("ragas", "deepeval")]
    sent = openai_server.request_count
    assert sent == 5
    second = [_score(fake_model_config, peer, INVENTED) for peer in ("ragas", "deepeval")]
    assert openai_server.request_count == sent  # 0 requests at the server
    assert [r.score for r in second] == [r.score for r in first] == [0.5, 1.0]
    assert [r.usage.calls for r in second] == [0, 0]
    assert [r.usage.cache_hits for r in second] == [2, 3]
    assert second[0].usage.saved_cost_usd == pytest.approx(first[0].usage.cost_usd)


def test_a_missing_peer_package_is_a_config_error_naming_the_extra(
    fake_model_config: ModelConfig, monkeypatch: pytest.MonkeyPatch
) -> None:
    from hybridjudge._errors import ConfigError
    from hybridjudge.peers import _adapters

    monkeypatch.setattr(_adapters, "peer_version", lambda peer: None)
    with (
        PeerProxy(fake_model_config) as proxy,
        pytest.raises(ConfigError, match=r"hybridjudge\[peers\]"),
    ):
        asyncio.run(ascore_peer(proxy, "ragas", answer="a", context=["c"]))


# -- many answers ---------------------------------------------------------------------------
@needs_ragas
@needs_deepeval
def test_many_answers_by_both_peers_in_one_run(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    def ragas_statements(request: RecordedRequest) -> Step:
        invented = "11%" in _text(request)
        statements = [SUPPORTED, "11% of customers upgrade."] if invented else [SUPPORTED]
        return json_reply({"statements": statements})

    def ragas_verdicts(request: RecordedRequest) -> Step:
        return _ragas_verdicts(1, 0) if "11%" in _text(request) else _ragas_verdicts(1)

    replies: dict[str, Any] = {
        "ragas_statements": ragas_statements,
        "ragas_verdicts": ragas_verdicts,
        **_deepeval([SUPPORTED], ["yes"]),
    }
    openai_server.respond_with(_responder(replies))
    records = [
        {"id": "good", "answer": SUPPORTED, "context": CONTEXT, "question": QUESTION},
        {"id": "bad", "answer": INVENTED, "context": CONTEXT, "question": QUESTION},
    ]
    seen: list[tuple[int, int]] = []
    batch = score_peers_many(
        records,
        config=fake_model_config,
        repetitions=2,
        progress=lambda done, total: seen.append((done, total)),
    )
    assert [(o.id, o.repetition) for o in batch.outcomes] == [
        ("good", 0),
        ("bad", 0),
        ("good", 1),
        ("bad", 1),
    ]
    assert [o.results["ragas"].score for o in batch.outcomes] == [1.0, 0.5, 1.0, 0.5]
    assert [o.results["deepeval"].score for o in batch.outcomes] == [1.0] * 4
    assert seen[-1] == (8, 8)
    assert len(seen) == 8
    # 2 records x 2 repetitions x (2 RAGAS + 3 DeepEval calls) = 20, every one counted. Within
    # a repetition two of DeepEval's requests are the same for both records: "truths" depends on
    # the context only, and "verdicts" on the claims and truths, which the script makes equal
    # ([SUPPORTED] for both answers). The model client sends one request of an identity at a
    # time, so the second record's copy waits and is a cache hit: 20 - 2 x 2 = 16 requests.
    assert openai_server.request_count == 16
    assert batch.usage.calls == openai_server.request_count
    assert batch.usage.calls + batch.usage.cache_hits == 20
    assert batch.usage_by_peer["ragas"].calls == 8
    deepeval = batch.usage_by_peer["deepeval"]
    assert deepeval.calls + deepeval.cache_hits == 12
    summed = batch.usage_by_peer["ragas"] + batch.usage_by_peer["deepeval"]
    # 4 RAGAS verdict replies of 200 + 40 tokens, 16 other replies of 10 + 5 (a cache hit, one
    # of DeepEval's "truths" or "verdicts" copies, pays no tokens)
    hits = batch.usage.cache_hits
    expected = (960 - 10 * hits, 240 - 5 * hits)
    assert (summed.prompt_tokens, summed.completion_tokens) == expected
    assert (batch.usage.prompt_tokens, batch.usage.completion_tokens) == expected
    assert batch.usage.cost_usd == pytest.approx((expected[0] * 1.0 + expected[1] * 2.0) / 1e6)


def test_many_refuses_a_record_without_an_answer(fake_model_config: ModelConfig) -> None:
    from hybridjudge._errors import ConfigError

    if peer_version("ragas") is None:
        pytest.skip(f"ragas {_MISSING}")
    with pytest.raises(ConfigError, match="record 1 cannot be scored"):
        score_peers_many(
            [{"answer": "a", "context": ["c"]}, {"context": ["c"]}],
            config=fake_model_config,
            peers=["ragas"],
        )
