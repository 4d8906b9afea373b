"""The reply cache: canonical keys, JSON values on disk, and ``hybridjudge cache stats|clear``."""

from __future__ import annotations

import asyncio
import hashlib
import io
import json
import sqlite3
from pathlib import Path

import pytest
from pydantic import BaseModel

from hybridjudge.cli import main
from hybridjudge.model import (
    CACHE_FORMAT_VERSION,
    CachedReply,
    ModelClient,
    ModelConfig,
    ReplyCache,
    cache_key,
    cache_stats,
)
from tests.support.openai_server import FakeOpenAIServer, json_reply


class Answer(BaseModel):
    answer: int


def entry(**changes: object) -> CachedReply:
    values: dict[str, object] = {
        "content": '{"answer": 4}',
        "finish_reason": "stop",
        "model": "fake-model",
        "endpoint": "http://127.0.0.1:1/v1",
        "prompt_name": "arith",
        "prompt_version": "1",
        "repetition": 0,
        "prompt_tokens": 12,
        "completion_tokens": 3,
        "cost_usd": 0.5,
        "latency_s": 1.25,
        "created_at": "2026-01-01T00:00:00+00:00",
    }
    values.update(changes)
    return CachedReply.model_validate(values)


def test_key_is_sha256_of_canonical_json_independent_of_dict_order() -> None:
    a = cache_key({"model": "m", "messages": [{"role": "user", "content": "é"}], "seed": 0})
    b = cache_key({"seed": 0, "messages": [{"content": "é", "role": "user"}], "model": "m"})
    assert a == b
    # the canonical form, written out by hand: sorted keys, no spaces, UTF-8
    canonical = (
        '{"cache_format_version":1,"messages":[{"content":"é","role":"user"}],"model":"m","seed":0}'
    )
    assert a == hashlib.sha256(canonical.encode("utf-8")).hexdigest()
    assert cache_key({"model": "m", "messages": [], "seed": 1}) != cache_key(
        {"model": "m", "messages": [], "seed": 0}
    )


def test_values_are_stored_as_json_text_not_pickles(tmp_path: Path) -> None:
    with ReplyCache(tmp_path) as cache:
        cache.set("k", entry())
        assert cache.get("k") == entry()
        assert cache.get("missing") is None
    with sqlite3.connect(tmp_path / "cache.db") as db:
        (value,) = db.execute("SELECT value FROM Cache WHERE key = 'k'").fetchone()
    assert isinstance(value, str)
    stored = json.loads(value)
    assert stored["format_version"] == CACHE_FORMAT_VERSION
    assert stored["content"] == '{"answer": 4}'
    assert stored["cost_usd"] == 0.5


def test_an_entry_of_another_format_version_reads_as_a_miss(tmp_path: Path) -> None:
    with ReplyCache(tmp_path) as cache:
        cache.set("old", entry(format_version=CACHE_FORMAT_VERSION + 1))
        cache._cache.set("junk", "not json at all")
        assert cache.get("old") is None
        assert cache.get("junk") is None


# -- CLI -------------------------------------------------------------------------------------


def fill_cache(server: FakeOpenAIServer, cache_dir: Path, calls: int) -> None:
    server.respond_with(
        lambda _r: json_reply({"answer": 4}, prompt_tokens=100, completion_tokens=10)
    )
    config = ModelConfig(
        backend="openai",
        base_url=server.base_url,
        model="fake-model",
        price_input_per_mtok=1.0,
        price_output_per_mtok=2.0,
        cache_dir=cache_dir,
    )

    async def go() -> None:
        async with ModelClient(config, environ={}) as client:
            for repetition in range(calls):
                await client.complete_structured(
                    [{"role": "user", "content": "2+2?"}],
                    Answer,
                    prompt_name="arith",
                    prompt_version="3",
                    repetition=repetition,
                )

    asyncio.run(go())


def test_cache_stats_and_clear(
    openai_server: FakeOpenAIServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cache_dir = tmp_path / "c"
    fill_cache(openai_server, cache_dir, calls=3)

    assert main(["cache", "stats", "--cache-dir", str(cache_dir), "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["entries"] == 3
    assert stats["exists"] is True
    assert stats["size_bytes"] > 0
    assert stats["directory"] == str(cache_dir.resolve())
    assert stats["by_prompt"] == {"fake-model arith@3": 3}
    # each entry: 100 * $1/M + 10 * $2/M = 0.00012; three of them 0.00036
    assert stats["saved_cost_usd"] == pytest.approx(0.00036)

    assert main(["cache", "stats", "--cache-dir", str(cache_dir)]) == 0
    text = capsys.readouterr().out
    assert "entries:    3" in text
    assert str(cache_dir.resolve()) in text

    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # not a terminal: no prompt possible
    assert main(["cache", "clear", "--cache-dir", str(cache_dir)]) == 2
    assert "--yes" in capsys.readouterr().err
    assert cache_stats(cache_dir).entries == 3

    assert main(["cache", "clear", "--cache-dir", str(cache_dir), "--yes"]) == 0
    assert "removed 3" in capsys.readouterr().out
    assert cache_stats(cache_dir).entries == 0


def test_cache_stats_uses_the_environment_default_and_creates_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "from-env"
    monkeypatch.setenv("HYBRIDJUDGE_CACHE_DIR", str(target))
    assert main(["cache", "stats"]) == 0
    assert f"no cache at {target}" in capsys.readouterr().out
    assert not target.exists()
