"""LLM-judge failure handling, through the real scripted server on 127.0.0.1.

Each test injects one fault an audit found handled wrongly, and asserts the documented outcome
(docs/failing-closed.md): a 200 whose body cannot be read is ``model_error`` for that one call,
counted, the other scorer still asked; token counts the server gets wrong make the cost unknown,
never $0 or absurd; a ``Retry-After`` longer than ``max_retry_after`` and an exhausted quota are
not retried; a 408 is; only a rejection of ``response_format`` itself changes how structured
output is asked (with a warning); a cache found corrupt in the middle of a run stops it once with
exit 2 and the fix, and ``cache clear`` removes it; the gate cannot pass on a baseline that never
measured a judge.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from hybridjudge import ModelHTTPError
from hybridjudge.cli import main
from hybridjudge.cli._exit import EXIT_INCOMPLETE, EXIT_OK, EXIT_USAGE
from hybridjudge.model import CallResult, FormatMode, ModelClient, ModelConfig
from tests.faults._support import (
    ALL_PASS,
    CALLS_PER_OUTPUT,
    KEY,
    KEY_ENV,
    TEXTS,
    VICTIM,
    FaultyJudge,
    fast_backoff,
    model_args,
    run_study,
    write_cases,
    write_corpus,
)
from tests.judges.helpers import statement_of
from tests.support.openai_server import (
    FakeOpenAIServer,
    RecordedRequest,
    Step,
    http_error,
    json_reply,
    rate_limited,
)

JUDGES = ("support", "contradiction")


class Claims(BaseModel):
    claims: list[str]


@pytest.fixture(autouse=True)
def _env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (
        "HYBRIDJUDGE_BACKEND",
        "HYBRIDJUDGE_BASE_URL",
        "HYBRIDJUDGE_MODEL",
        "OPENAI_BASE_URL",
        "OPENAI_API_KEY",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv(KEY_ENV, KEY)
    fast_backoff(monkeypatch)


def _completion(content: str, usage: Any = "valid") -> bytes:
    """A chat completion body with any ``usage`` (``"valid"``: 100 + 10 tokens; ``None``: the
    key left out)."""
    body: dict[str, Any] = {
        "id": "chatcmpl-x",
        "object": "chat.completion",
        "created": 0,
        "model": "fake-model",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
    }
    if usage == "valid":
        body["usage"] = {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110}
    elif usage is not None:
        body["usage"] = usage
    return json.dumps(body).encode()


def _ask_all(
    config: ModelConfig, texts: list[str], client_hook: Callable[[ModelClient], None] | None = None
) -> list[CallResult[Claims]]:
    """One call per text, one after the other, through one client."""

    async def go() -> list[CallResult[Claims]]:
        async with ModelClient(config, environ={}) as client:
            results = [
                await client.complete_structured(
                    [{"role": "user", "content": text}],
                    Claims,
                    prompt_name="p",
                    prompt_version="1",
                )
                for text in texts
            ]
            if client_hook is not None:
                client_hook(client)
            return results

    return asyncio.run(go())


def _judge_records(out: str) -> dict[str, dict[str, dict[str, Any]]]:
    records = [json.loads(line) for line in out.splitlines() if line.strip()]
    return {r["id"]: r["results"] for r in records}


# -- 2: a 200 body that cannot be read is one model_error, counted ---------------------------

_NOT_UTF8 = (
    b'{"id":"x","object":"chat.completion","created":0,"model":"m","choices":[{"index":0,'
    b'"message":{"role":"assistant","content":"\xff\xfe"},"finish_reason":"stop"}]}'
)
_DEEP = b"[" * 100_000 + b"]" * 100_000
_STREAM = (
    b'data: {"id":"x","object":"chat.completion.chunk","created":0,"model":"m","choices":'
    b'[{"index":0,"delta":{"content":"{}"},"finish_reason":null}]}\n\ndata: [DONE]\n\n'
)
UNREADABLE: dict[str, tuple[Step, str]] = {
    "not_utf8": (Step(raw_body=_NOT_UTF8), "not valid UTF-8"),
    "nested_100k_deep": (Step(raw_body=_DEEP), "nested too deeply"),
    "event_stream": (
        Step(raw_body=_STREAM, headers={"Content-Type": "text/event-stream"}),
        "stream of server-sent events",
    ),
    "json_list": (Step(raw_body=b"[1, 2, 3]"), "not a chat completion"),
    "error_in_200": (
        Step(raw_body=b'{"error": {"message": "upstream failed", "code": 500}}'),
        "with an error instead of a completion: upstream failed",
    ),
}


@pytest.mark.parametrize("name", sorted(UNREADABLE))
def test_an_unreadable_200_body_is_one_model_error_counted_and_not_cached(
    name: str, openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    step, said = UNREADABLE[name]
    openai_server.script(step, json_reply({"claims": ["b"]}))
    first, second = _ask_all(fake_model_config, ["a", "b"])
    assert first.status == "model_error"
    assert said in (first.error or "")
    assert first.usage.calls == 1  # the request was made: counted
    assert first.usage.retries == 0  # not retried
    assert first.usage.cost_usd is None  # a 200 came back, maybe billed: unknown, never $0
    assert second.status == "ok"  # the client goes on
    openai_server.script(json_reply({"claims": ["a"]}))
    (again,) = _ask_all(fake_model_config, ["a"])  # nothing failed was cached: asked again
    assert again.status == "ok"
    assert not again.cached
    assert openai_server.request_count == 3


@pytest.mark.parametrize("name", ["not_utf8", "nested_100k_deep", "event_stream"])
def test_judge_an_unreadable_body_leaves_the_other_scorer_asked_and_no_traceback(
    name: str,
    openai_server: FakeOpenAIServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    step, said = UNREADABLE[name]
    judge = FaultyJudge(fault=lambda: step)
    openai_server.respond_with(judge)
    cases = write_cases(tmp_path / "cases.jsonl")
    argv = [
        "judge",
        str(cases),
        "--json",
        *ALL_PASS,
        *model_args(openai_server.base_url, tmp_path / "c"),
    ]
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == EXIT_INCOMPLETE
    assert "Traceback" not in err
    results = _judge_records(out)
    assert set(results) == set(TEXTS)
    assert judge.victim_requests == CALLS_PER_OUTPUT  # both scorers were asked
    for scorer in JUDGES:
        victim = results[VICTIM][scorer]
        assert (victim["status"], victim["unscored_reason"]) == ("unscored", "model_error")
        assert said in victim["detail"]["error"]
        for oid in set(TEXTS) - {VICTIM}:
            assert results[oid][scorer]["status"] == "scored"
    before = openai_server.request_count
    judge.fault = None
    assert main(argv) == EXIT_OK  # nothing failed was cached: the rerun asks the victim again
    assert openai_server.request_count - before == CALLS_PER_OUTPUT
    capsys.readouterr()


# -- 5 and 7: token counts the server does not give or gets wrong ----------------------------

BAD_USAGE: dict[str, tuple[Any, int, int, str]] = {
    # usage sent -> (prompt tokens counted, completion tokens counted, reason logged)
    "missing": (None, 0, 0, "carries no usage"),
    "null_fields": ({"prompt_tokens": None, "completion_tokens": None}, 0, 0, "is missing"),
    "negative": ({"prompt_tokens": -100, "completion_tokens": 10}, 0, 10, "-100"),
    "absurd": ({"prompt_tokens": 1e30, "completion_tokens": 10}, 0, 10, "1e+30"),
    "fractional": ({"prompt_tokens": 100, "completion_tokens": 2.5}, 100, 0, "not a whole"),
    "not_a_number": ({"prompt_tokens": "lots", "completion_tokens": 10}, 0, 10, "'lots'"),
}


@pytest.mark.parametrize("name", sorted(BAD_USAGE))
def test_unknown_token_counts_make_the_cost_unknown_never_zero_or_absurd(
    name: str,
    openai_server: FakeOpenAIServer,
    fake_model_config: ModelConfig,
    caplog: pytest.LogCaptureFixture,
) -> None:
    usage, prompt_tokens, completion_tokens, reason = BAD_USAGE[name]
    openai_server.script(Step(raw_body=_completion('{"claims": ["a"]}', usage)))
    with caplog.at_level(logging.WARNING, logger="hybridjudge.model._client"):
        (result,) = _ask_all(fake_model_config, ["a"])
    assert result.status == "ok"  # the reply itself is fine
    assert result.usage.cost_usd is None
    assert (result.usage.prompt_tokens, result.usage.completion_tokens) == (
        prompt_tokens,
        completion_tokens,
    )
    warnings = [r.getMessage() for r in caplog.records if "cost of such a call" in r.getMessage()]
    assert len(warnings) == 1
    assert reason in warnings[0]
    # cached as unknown, and a hit saves an unknown amount (never $0)
    (hit,) = _ask_all(fake_model_config, ["a"])
    assert hit.cached
    assert hit.usage.saved_cost_usd is None
    assert openai_server.request_count == 1


def test_valid_token_counts_are_costed_and_free_models_cost_zero_even_without_usage(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.script(Step(raw_body=_completion('{"claims": ["a"]}')))
    (result,) = _ask_all(fake_model_config, ["a"])
    # by hand: 100 prompt tokens at $1/M + 10 completion tokens at $2/M = $0.00012
    assert result.usage.cost_usd == pytest.approx(0.00012)
    free = fake_model_config.model_copy(
        update={"price_input_per_mtok": 0.0, "price_output_per_mtok": 0.0, "cache": False}
    )
    openai_server.script(Step(raw_body=_completion('{"claims": ["a"]}', None)))
    (result,) = _ask_all(free, ["a"])
    assert result.usage.cost_usd == 0.0  # zero times an unknown count is zero


def test_unknown_usage_is_unknown_in_the_judge_totals(
    openai_server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    perfect = FaultyJudge()

    def victim_without_usage(request: RecordedRequest) -> Step:
        """The perfect judge's reply, without ``usage`` for the victim's requests."""
        step = perfect(request)
        if TEXTS[VICTIM].rstrip(".") in statement_of(request) and step.content is not None:
            return Step(raw_body=_completion(step.content, None))
        return step

    openai_server.respond_with(victim_without_usage)
    cases = write_cases(tmp_path / "cases.jsonl")
    argv = [
        "judge",
        str(cases),
        "--json",
        *ALL_PASS,
        *model_args(openai_server.base_url, tmp_path / "c"),
    ]
    assert main(argv) == EXIT_OK
    out, err = capsys.readouterr()
    records = {r["id"]: r for r in map(json.loads, out.splitlines())}
    assert records[VICTIM]["usage"]["cost_usd"] is None
    assert all(records[oid]["usage"]["cost_usd"] > 0 for oid in set(TEXTS) - {VICTIM})
    assert "carries no usage" in err


# -- 4: a Retry-After longer than the client waits, an exhausted quota -------------------------


def test_a_retry_after_beyond_max_retry_after_fails_the_call_at_once(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.script(rate_limited(retry_after="99999"), json_reply({"claims": ["b"]}))
    first, second = _ask_all(fake_model_config, ["a", "b"])
    assert first.status == "model_error"
    assert "asked to wait 99999 s" in (first.error or "")
    assert "max_retry_after 120 s" in (first.error or "")
    assert first.usage.retries == 0
    assert second.status == "ok"
    assert openai_server.request_count == 2  # the 429 was not retried


def test_a_retry_after_within_max_retry_after_is_still_honoured(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    config = fake_model_config.model_copy(update={"max_retry_after": 0.5})
    openai_server.script(rate_limited(retry_after="0.01"), json_reply({"claims": ["a"]}))
    (result,) = _ask_all(config, ["a"])
    assert (result.status, result.usage.retries) == ("ok", 1)


def _quota() -> Step:
    return http_error(
        429,
        "You exceeded your current quota, please check your plan and billing details.",
        error_type="insufficient_quota",
        code="insufficient_quota",
    )


def test_an_exhausted_quota_before_any_success_stops_the_client(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.script(_quota())
    with pytest.raises(ModelHTTPError) as info:
        _ask_all(fake_model_config, ["a", "b"])
    assert info.value.status == 429
    assert info.value.code == "model_quota"
    assert "no quota left" in str(info.value)
    assert openai_server.request_count == 1  # not retried, and the second call never sent


def test_an_exhausted_quota_after_a_success_is_one_model_error_not_retried(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.script(json_reply({"claims": ["a"]}), _quota())
    first, second = _ask_all(fake_model_config, ["a", "b"])
    assert first.status == "ok"
    assert second.status == "model_error"
    assert "HTTP 429" in (second.error or "")
    assert "quota" in (second.error or "")
    assert second.usage.retries == 0
    assert openai_server.request_count == 2


def test_judge_on_an_account_without_quota_exits_2_at_once(
    openai_server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    openai_server.respond_with(lambda _request: _quota())
    cases = write_cases(tmp_path / "cases.jsonl")
    argv = [
        "judge",
        str(cases),
        "--json",
        *ALL_PASS,
        *model_args(openai_server.base_url, tmp_path / "c"),
    ]
    assert main(argv) == EXIT_USAGE
    err = capsys.readouterr().err
    assert "insufficient_quota" in err
    assert "no quota left" in err
    assert "Traceback" not in err
    assert openai_server.request_count == 1  # --concurrency 1: the first refusal stops the run


# -- 10: a 408 is retried --------------------------------------------------------------------


def test_a_408_is_retried(openai_server: FakeOpenAIServer, fake_model_config: ModelConfig) -> None:
    openai_server.script(http_error(408, "request timeout"), json_reply({"claims": ["a"]}))
    (result,) = _ask_all(fake_model_config, ["a"])
    assert (result.status, result.usage.retries, result.usage.calls) == ("ok", 1, 2)


# -- 6: only a rejection of response_format itself changes the format ---------------------------


def test_a_400_that_only_quotes_response_format_does_not_change_the_format(
    openai_server: FakeOpenAIServer,
    fake_model_config: ModelConfig,
    caplog: pytest.LogCaptureFixture,
) -> None:
    openai_server.script(
        http_error(
            400,
            "Invalid 'messages[1].content': string too long. (request: model=fake-model, "
            "response_format=json_schema, max_tokens=96)",
        ),
        json_reply({"claims": ["b"]}),
    )
    modes: list[FormatMode] = []
    with caplog.at_level(logging.WARNING, logger="hybridjudge.model._client"):
        first, second = _ask_all(
            fake_model_config, ["a", "b"], lambda c: modes.append(c.format_mode)
        )
    assert first.status == "model_error"
    assert "string too long" in (first.error or "")
    assert second.status == "ok"
    assert modes == [FormatMode.JSON_SCHEMA]
    formats = [r.body["response_format"]["type"] for r in openai_server.requests]
    assert formats == ["json_schema", "json_schema"]  # one request each, neither downgraded
    assert not [r for r in caplog.records if "rejected response_format" in r.getMessage()]


def test_a_400_on_the_response_format_param_falls_back_with_one_warning_per_change(
    openai_server: FakeOpenAIServer,
    fake_model_config: ModelConfig,
    caplog: pytest.LogCaptureFixture,
) -> None:
    body = json.dumps(
        {
            "error": {
                "message": "Invalid schema: 'additionalProperties' is required",
                "type": "invalid_request_error",
                "param": "response_format",
                "code": None,
            }
        }
    ).encode()
    openai_server.script(
        Step(status=400, raw_body=body),
        json_reply({"claims": ["a"]}),
        json_reply({"claims": ["b"]}),
    )
    modes: list[FormatMode] = []
    with caplog.at_level(logging.WARNING, logger="hybridjudge.model._client"):
        first, second = _ask_all(
            fake_model_config, ["a", "b"], lambda c: modes.append(c.format_mode)
        )
    assert (first.status, second.status) == ("ok", "ok")
    assert modes == [FormatMode.JSON_OBJECT]
    formats = [r.body["response_format"]["type"] for r in openai_server.requests]
    assert formats == ["json_schema", "json_object", "json_object"]
    changes = [
        r.getMessage() for r in caplog.records if "rejected response_format" in r.getMessage()
    ]
    assert len(changes) == 1
    assert "json_schema" in changes[0]
    assert "asking with json_object from now on" in changes[0]


# -- 3: a cache found corrupt in the middle of a run -------------------------------------------


def _fill_cache(
    openai_server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> tuple[list[str], Path]:
    openai_server.respond_with(FaultyJudge())
    cases = write_cases(tmp_path / "cases.jsonl")
    cache = tmp_path / "cache"
    argv = ["judge", str(cases), "--json", *ALL_PASS, *model_args(openai_server.base_url, cache)]
    assert main(argv) == EXIT_OK
    capsys.readouterr()
    assert openai_server.request_count == len(TEXTS) * CALLS_PER_OUTPUT
    return argv, cache


def _undecodable_values(cache: Path) -> None:
    """Bytes overwritten inside every stored text: SQLite cannot decode them as UTF-8."""
    with sqlite3.connect(cache / "replies.db") as db:
        assert db.execute("UPDATE replies SET entry = CAST(X'7B22FFFE' AS TEXT)").rowcount > 0
    db.close()


def _overwritten_pages(cache: Path) -> None:
    """The audit's damage: one byte in 97 overwritten after the first page of replies.db."""
    db = cache / "replies.db"
    data = bytearray(db.read_bytes())
    for index in range(4096, len(data), 97):
        data[index] = 0xFF
    db.write_bytes(bytes(data))


@pytest.mark.parametrize("damage", [_undecodable_values, _overwritten_pages])
def test_a_cache_damaged_inside_stops_the_run_once_with_exit_2_and_clear_repairs_it(
    damage: Callable[[Path], None],
    openai_server: FakeOpenAIServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv, cache = _fill_cache(openai_server, tmp_path, capsys)
    damage(cache)
    before = openai_server.request_count
    assert main(argv) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert f"hybridjudge cache clear --cache-dir {cache} --yes" in err
    assert "cache_corrupt" in err
    assert "Traceback" not in err
    assert "record_error" not in out  # the run stopped: no record failed one by one
    assert err.count("is corrupt") == 1  # once, not once per record
    # no request spent: overwritten pages are found by the integrity check when the cache
    # opens (a read that misses them would not notice), undecodable texts by the first read
    assert openai_server.request_count == before
    assert main(["cache", "stats", "--cache-dir", str(cache)]) == EXIT_USAGE
    assert "cache_corrupt" in capsys.readouterr().err
    assert main(["cache", "clear", "--cache-dir", str(cache), "--yes"]) == EXIT_OK
    capsys.readouterr()
    assert main(["cache", "stats", "--cache-dir", str(cache)]) == EXIT_OK
    assert main(argv) == EXIT_OK  # a fresh cache: the run completes
    capsys.readouterr()


def test_a_study_on_a_cache_damaged_inside_stops_with_exit_2_and_writes_no_study(
    openai_server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, cache = _fill_cache(openai_server, tmp_path, capsys)
    _undecodable_values(cache)
    corpus = write_corpus(tmp_path / "toy")
    out = tmp_path / "results"
    argv = ["study", "run", "--corpus", str(corpus), "--scorers", "deterministic,support"]
    argv += ["--out", str(out), "--quiet", *model_args(openai_server.base_url, cache)]
    assert main(argv) == EXIT_USAGE
    err = capsys.readouterr().err
    assert "hybridjudge cache clear --cache-dir" in err
    assert "Traceback" not in err
    assert not (out / "study.json").exists()


# -- 1: the gate cannot pass on a baseline that never measured a judge -------------------------


def test_gate_on_a_baseline_whose_judges_never_ran_cannot_compare_end_to_end(
    openai_server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    corpus = write_corpus(tmp_path / "toy")

    def study(base_url: str, out: Path) -> int:
        return run_study(corpus, base_url, out, tmp_path)

    with FakeOpenAIServer() as gone:
        dead_url = gone.base_url  # nothing listens there any more
    assert study(dead_url, tmp_path / "dead") == EXIT_INCOMPLETE
    openai_server.respond_with(FaultyJudge())
    assert study(openai_server.base_url, tmp_path / "good") == EXIT_OK
    capsys.readouterr()
    code = main(["gate", str(tmp_path / "good"), "--baseline", str(tmp_path / "dead")])
    out, err = capsys.readouterr()
    assert code == EXIT_USAGE  # cannot compare, not a pass
    assert "gate passed" not in out
    for scorer in JUDGES:
        assert f"CANNOT COMPARE {scorer}: the baseline measured no cell of it" in err
    assert "model_error" in err  # why the baseline measured nothing
