"""The reply cache: canonical keys, JSON values on disk, and ``hybridjudge cache stats|clear``."""

from __future__ import annotations

import asyncio
import hashlib
import io
import json
import logging
import sqlite3
from pathlib import Path

import pytest
from pydantic import BaseModel

from hybridjudge._errors import ConfigError
from hybridjudge.cli import main
from hybridjudge.model import (
    CACHE_FORMAT_VERSION,
    REDIS_KEY_PREFIX,
    CachedReply,
    CorruptCacheError,
    ModelClient,
    ModelConfig,
    RedisReplyCache,
    ReplyCache,
    cache_key,
    cache_stats,
    open_reply_cache,
)
from tests.support.killed import run_and_kill
from tests.support.openai_server import FakeOpenAIServer, json_reply
from tests.support.redis_server import redis_server
from tests.support.sqlite_faults import disk_full


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
    with sqlite3.connect(tmp_path / "replies.db") as db:
        (value,) = db.execute("SELECT entry FROM replies WHERE key = 'k'").fetchone()
    assert isinstance(value, str)
    stored = json.loads(value)
    assert stored["format_version"] == CACHE_FORMAT_VERSION
    assert stored["content"] == '{"answer": 4}'
    assert stored["cost_usd"] == 0.5


def test_an_entry_of_another_format_version_reads_as_a_miss(tmp_path: Path) -> None:
    with ReplyCache(tmp_path) as cache:
        cache.set("old", entry(format_version=CACHE_FORMAT_VERSION + 1))
        assert cache.get("old") is None


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


# -- failures: a cache that cannot be written, a corrupt cache (issue 10) ----------------------


def ask_twice(config: ModelConfig) -> list[str]:
    """Two different requests through one client; returns the statuses."""

    async def go() -> list[str]:
        async with ModelClient(config, environ={}) as client:
            statuses: list[str] = []
            for repetition in range(2):
                result = await client.complete_structured(
                    [{"role": "user", "content": "2+2?"}],
                    Answer,
                    prompt_name="arith",
                    prompt_version="3",
                    repetition=repetition,
                )
                statuses.append(result.status)
            return statuses

    return asyncio.run(go())


def config_for(server: FakeOpenAIServer, cache_dir: Path) -> ModelConfig:
    server.respond_with(lambda _r: json_reply({"answer": 4}))
    return ModelConfig(
        backend="openai",
        base_url=server.base_url,
        model="fake-model",
        price_input_per_mtok=1.0,
        price_output_per_mtok=2.0,
        cache_dir=cache_dir,
    )


def test_a_cache_folder_that_cannot_be_created_warns_and_the_run_goes_on(
    openai_server: FakeOpenAIServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    config = config_for(openai_server, blocker / "cache")  # mkdir under a file: OSError
    with caplog.at_level(logging.WARNING, logger="hybridjudge.model.cache"):
        assert ask_twice(config) == ["ok", "ok"]
        assert ask_twice(config) == ["ok", "ok"]
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 2  # one per run
    assert "continuing without caching" in warnings[0].getMessage()
    assert str(blocker / "cache") in warnings[0].getMessage()
    assert openai_server.request_count == 4  # nothing was cached, so the rerun asked again


def test_a_write_that_fails_mid_run_warns_once_and_the_run_goes_on(
    openai_server: FakeOpenAIServer,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # SQLite's own error for a full disk, raised by the database on every write
    config = config_for(openai_server, tmp_path / "c")
    disk_full(monkeypatch)
    with caplog.at_level(logging.WARNING, logger="hybridjudge.model.cache"):
        assert ask_twice(config) == ["ok", "ok"]
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1
    message = warnings[0].getMessage()
    assert "database or disk is full" in message
    assert str(tmp_path / "c") in message
    assert openai_server.request_count == 2
    monkeypatch.undo()
    assert cache_stats(tmp_path / "c").entries == 0


def corrupt(cache_dir: Path) -> None:
    cache_dir.mkdir(parents=True, exist_ok=True)
    (cache_dir / "replies.db").write_bytes(b"this is not an SQLite database, " * 64)


def test_a_corrupt_cache_is_a_typed_error_naming_the_folder_and_the_fix(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    cache_dir = tmp_path / "c"
    corrupt(cache_dir)
    with pytest.raises(CorruptCacheError) as info:
        ask_twice(config_for(openai_server, cache_dir))
    assert str(cache_dir) in str(info.value)
    assert "hybridjudge cache clear" in str(info.value)
    assert info.value.directory == cache_dir
    assert openai_server.request_count == 0


def test_cache_clear_removes_a_corrupt_cache_and_the_next_run_caches_again(
    openai_server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache_dir = tmp_path / "c"
    corrupt(cache_dir)
    (cache_dir / "notes.txt").write_text("the user's own file")
    assert main(["cache", "stats", "--cache-dir", str(cache_dir)]) == 2  # a typed error
    assert "hybridjudge cache clear --cache-dir" in capsys.readouterr().err
    assert main(["cache", "clear", "--cache-dir", str(cache_dir), "--yes"]) == 0
    assert "removed the corrupt cache" in capsys.readouterr().out
    assert not (cache_dir / "replies.db").exists()
    assert (cache_dir / "notes.txt").read_text() == "the user's own file"
    config = config_for(openai_server, cache_dir)
    assert ask_twice(config) == ["ok", "ok"]
    assert ask_twice(config) == ["ok", "ok"]
    assert openai_server.request_count == 2  # the second run was served by the new cache
    assert cache_stats(cache_dir).entries == 2


_KILLED_WRITER = """
import os, sys
from hybridjudge.model import CachedReply, ReplyCache

cache = ReplyCache(sys.argv[1])
progress = os.open(sys.argv[2], os.O_WRONLY | os.O_CREAT | os.O_APPEND)
ready = sys.argv[3]
i = 0
while True:
    # every 7th reply is a long one (60 kB)
    content = ("%d " % i) * (20_000 if i % 7 == 0 else 3)
    cache.set(
        "key-%d" % i,
        CachedReply(
            content=content, model="m", endpoint="e", prompt_name="p", prompt_version="1",
            repetition=0, prompt_tokens=i, completion_tokens=1, cost_usd=None, latency_s=0.1,
            created_at="2026-01-01T00:00:00+00:00",
        ),
    )
    os.write(progress, b"%d\\n" % i)  # after set() returned: the reply is stored
    i += 1
    if i == 300:
        open(ready, "w").close()
"""


def test_a_writer_killed_mid_write_leaves_a_cache_that_opens_with_every_stored_reply(
    tmp_path: Path,
) -> None:
    # The promise the distributed judges rely on (a retried batch asks again only for what a
    # dead worker had not received): a reply is stored the moment set() returns, and a process
    # killed while writing leaves a cache that opens without a corruption error (the check
    # made when a cache opens reads the journal the dead writer left, it does not fail on it).
    cache_dir, progress, ready = tmp_path / "c", tmp_path / "progress", tmp_path / "ready"
    run_and_kill(
        _KILLED_WRITER,
        *(str(cache_dir), str(progress), str(ready)),
        ready=ready,
        what="300 replies stored",
        settle=0.05,  # killed somewhere in its stream of writes, not at a fixed point
    )
    stored = [int(line) for line in progress.read_text().split("\n") if line]
    assert len(stored) >= 300
    assert (cache_dir / "replies.db-wal").exists()  # the dead writer's journal is still there

    with ReplyCache(cache_dir) as cache:  # no CorruptCacheError
        for i in stored:
            got = cache.get(f"key-{i}")
            assert got is not None, f"reply {i} was acknowledged but is lost"
            assert got.prompt_tokens == i
            assert got.content == f"{i} " * (20_000 if i % 7 == 0 else 3)
        cache.set("after", entry())  # and it takes new replies
        assert cache.get("after") == entry()
    stats = cache_stats(cache_dir)
    assert stats.entries >= len(stored) + 1


# -- the shared backend: Redis -------------------------------------------------------------------


def test_redis_backend_same_keys_and_values_and_a_lost_server_only_warns(
    openai_server: FakeOpenAIServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    pytest.importorskip("redis", reason="the redis client comes with the [ray] extra")
    with redis_server(tmp_path) as (url, proc):
        disk = config_for(openai_server, tmp_path / "disk")
        shared = disk.model_copy(update={"cache_url": url})
        assert ask_twice(shared) == ["ok", "ok"]
        assert ask_twice(shared) == ["ok", "ok"]
        assert openai_server.request_count == 2  # the second run: two hits from Redis
        assert ask_twice(disk) == ["ok", "ok"]  # the disk cache, filled by the same requests
        store = open_reply_cache(shared)
        assert isinstance(store, RedisReplyCache)
        with ReplyCache(tmp_path / "disk") as on_disk:
            keys = on_disk.keys()
            assert sorted(store.keys()) == keys  # keyed exactly as on disk
            for key in keys:
                from_redis, from_disk = store.get(key), on_disk.get(key)
                assert from_redis is not None
                assert from_disk is not None
                same = {"latency_s", "created_at"}  # two separate requests: only these differ
                assert from_redis.model_dump(exclude=same) == from_disk.model_dump(exclude=same)
        assert store.clear() == 2
        assert len(store) == 0
        # the server goes away mid-run: one warning per failed operation kind, no error
        proc.terminate()
        proc.wait(timeout=10)
        with caplog.at_level(logging.WARNING, logger="hybridjudge.model.cache"):
            assert store.get(keys[0]) is None
            store.set(keys[0], entry())
            store.set(keys[1], entry())
        messages = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
        assert len(messages) == 2
        assert all(url.removeprefix("redis://") in m for m in messages)
        store.close()


def test_cache_stats_and_clear_on_the_shared_redis_cache(
    openai_server: FakeOpenAIServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``cache stats`` and ``cache clear`` read the cache the runs use: ``--cache-url`` (or
    ``$HYBRIDJUDGE_CACHE_URL``) selects Redis, as ``--cache-dir`` selects a folder; only the reply
    keys are counted and deleted."""
    pytest.importorskip("redis", reason="the redis client comes with the [ray] extra")
    import redis

    with redis_server(tmp_path) as (url, _proc):
        shared = config_for(openai_server, tmp_path / "unused").model_copy(
            update={"cache_url": url}
        )
        assert ask_twice(shared) == ["ok", "ok"]
        other = redis.Redis.from_url(url)
        other.set("someone-else:key", b"not ours")  # another application's key stays

        assert main(["cache", "stats", "--cache-url", url, "--json"]) == 0
        stats = json.loads(capsys.readouterr().out)
        assert stats["entries"] == 2
        assert stats["exists"] is True
        assert stats["directory"] == url
        assert stats["by_prompt"] == {"fake-model arith@3": 2}
        # by hand: the scripted reply's 10 prompt and 5 completion tokens at $1/M and $2/M,
        # 10e-6 + 10e-6 = 0.00002 per entry
        assert stats["saved_cost_usd"] == pytest.approx(0.00004)
        values = [other.get(k) for k in other.scan_iter(match=REDIS_KEY_PREFIX + "*")]
        assert stats["size_bytes"] == sum(len(v) for v in values if v is not None)

        monkeypatch.setenv("HYBRIDJUDGE_CACHE_URL", url)  # the runs' setting, no flag
        assert main(["cache", "stats"]) == 0
        assert "entries:    2" in capsys.readouterr().out
        # an explicit --cache-dir still names a folder
        assert main(["cache", "stats", "--cache-dir", str(tmp_path / "none"), "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["exists"] is False
        assert main(["cache", "stats", "--cache-url", url, "--cache-dir", "x"]) == 2
        assert "give one of them" in capsys.readouterr().err
        assert main(["cache", "stats", "--cache-url", "memcached://h:1"]) == 2
        assert "only a Redis URL" in capsys.readouterr().err

        assert main(["cache", "clear", "--yes"]) == 0
        assert "removed 2 cached replies" in capsys.readouterr().out
        assert list(other.scan_iter(match=REDIS_KEY_PREFIX + "*")) == []
        assert other.get("someone-else:key") == b"not ours"
        assert main(["cache", "stats", "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["entries"] == 0
        other.close()


def test_an_unreachable_redis_url_is_a_config_error_naming_it(tmp_path: Path) -> None:
    pytest.importorskip("redis", reason="the redis client comes with the [ray] extra")
    config = ModelConfig(cache_url="redis://user:hunter2@127.0.0.1:1/0", timeout=1.0)
    with pytest.raises(ConfigError) as info:
        open_reply_cache(config)
    assert "redis://user:***@127.0.0.1:1/0" in str(info.value)
    assert "hunter2" not in str(info.value)
    with pytest.raises(ConfigError, match="only Redis"):
        open_reply_cache(ModelConfig(cache_url="s3://bucket/cache"))
