"""A reply cache someone else wrote (a cloned repository's ``.hybridjudge-cache``) is data, never
code (issue 37): a pickled row runs nothing, a row naming a file outside the folder deletes
nothing, the folder's settings are never read, ``cache clear`` removes only the cache's own files,
and a database or a row that is not what hybridjudge writes is a typed ``cache_corrupt`` error
naming it. Each test here fails on the diskcache-backed cache this replaced."""

from __future__ import annotations

import contextlib
import json
import math
import os
import sqlite3
from pathlib import Path

import diskcache
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hybridjudge._errors import InputError
from hybridjudge.cli import main
from hybridjudge.cli._exit import EXIT_OK, EXIT_USAGE
from hybridjudge.model import (
    CachedReply,
    CorruptCacheError,
    ReplyCache,
    cache_stats,
    clear_cache,
)
from hybridjudge.model._cache import MAX_ENTRY_BYTES
from tests.faults._support import (
    ALL_PASS,
    CALLS_PER_OUTPUT,
    KEY,
    KEY_ENV,
    TEXTS,
    FaultyJudge,
    model_args,
    write_cases,
)
from tests.model.test_cache import entry
from tests.support.openai_server import FakeOpenAIServer

MARKER_ENV = "HYBRIDJUDGE_CRAFTED_MARKER"


class Payload:
    """What an attacker pickles: unpickling it runs ``os.system`` (touching a marker file)."""

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (os.system, (f'touch "${MARKER_ENV}"',))


@pytest.fixture(autouse=True)
def _env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv(KEY_ENV, KEY)
    for name in ("HYBRIDJUDGE_BACKEND", "HYBRIDJUDGE_BASE_URL", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    marker = tmp_path / "code-ran"
    monkeypatch.setenv(MARKER_ENV, str(marker))
    return marker


def judge_argv(server: FakeOpenAIServer, tmp_path: Path, cache: Path) -> list[str]:
    cases = write_cases(tmp_path / "cases.jsonl")
    # every output passes whatever its score: these tests are about the cache, not verdicts
    return ["judge", str(cases), "--json", *model_args(server.base_url, cache), *ALL_PASS]


def real_keys(
    server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> list[str]:
    """The cache keys a real ``judge`` run on the test cases uses (from a cache it filled)."""
    cache = tmp_path / "genuine"
    assert main(judge_argv(server, tmp_path, cache)) == EXIT_OK
    capsys.readouterr()
    # (read from either layout, so this test also shows what the diskcache-backed cache did)
    layout = "replies" if (cache / "replies.db").exists() else "Cache"
    with sqlite3.connect(cache / ("replies.db" if layout == "replies" else "cache.db")) as db:
        keys = [str(k) for (k,) in db.execute(f"SELECT key FROM {layout}")]
    db.close()
    assert len(keys) == len(TEXTS) * CALLS_PER_OUTPUT
    return keys


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


# -- the previous layout (diskcache's cache.db), crafted ---------------------------------------


def test_a_pickled_row_under_every_real_key_runs_no_code_and_the_run_asks_the_model(
    openai_server: FakeOpenAIServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    _env: Path,  # noqa: PT019 (its value, the marker path, is used)
) -> None:
    openai_server.respond_with(FaultyJudge())
    keys = real_keys(openai_server, tmp_path, capsys)
    crafted = tmp_path / "cloned-repo-cache"
    with diskcache.Cache(str(crafted)) as planted:  # the attack: pickle mode, every row
        for key in keys:
            planted.set(key, Payload())
    before = openai_server.request_count

    assert main(judge_argv(openai_server, tmp_path, crafted)) == EXIT_OK
    capsys.readouterr()
    assert not _env.exists(), "a pickled row was unpickled: the cache ran code"
    assert openai_server.request_count == before + len(keys)  # nothing crafted was served
    assert main(["cache", "stats", "--cache-dir", str(crafted)]) == EXIT_OK
    assert main(["cache", "clear", "--cache-dir", str(crafted), "--yes"]) == EXIT_OK
    capsys.readouterr()
    assert not _env.exists()


def test_the_json_replies_of_the_previous_layout_are_imported_once(
    openai_server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    openai_server.respond_with(FaultyJudge())
    keys = real_keys(openai_server, tmp_path, capsys)
    with ReplyCache(tmp_path / "genuine") as genuine:
        stored = {key: genuine.get(key) for key in keys}
    previous = tmp_path / "previous"
    with diskcache.Cache(str(previous)) as old:  # what hybridjudge wrote before this layout
        for key, reply in stored.items():
            assert reply is not None
            old.set(key, reply.model_dump_json())
    assert cache_stats(previous).previous_layout is True
    assert cache_stats(previous).entries == len(keys)
    before = openai_server.request_count
    assert main(judge_argv(openai_server, tmp_path, previous)) == EXIT_OK
    capsys.readouterr()
    assert openai_server.request_count == before  # every reply served from the imported rows
    assert cache_stats(previous).entries == len(keys)
    assert cache_stats(previous).previous_layout is False


def planted_paths_cache(folder: Path, victims: list[Path], *, size_limit_zero: bool) -> None:
    """A previous-layout cache whose rows name files outside it (absolute, ``..``), each in
    text mode as diskcache would read and, on clear or eviction, delete them."""
    with diskcache.Cache(str(folder)) as cache:
        for i, _ in enumerate(victims):
            cache.set(f"row-{i}", "x" * 40_000)  # > 32 KiB: stored in a file, MODE_TEXT
    with sqlite3.connect(folder / "cache.db") as db:
        rows = [str(r) for (r,) in db.execute("SELECT rowid FROM Cache ORDER BY rowid")]
        for rowid, victim in zip(rows, victims, strict=True):
            name = str(victim) if victim.is_absolute() else os.path.relpath(victim, folder)
            db.execute("UPDATE Cache SET filename = ? WHERE rowid = ?", (name, rowid))
        if size_limit_zero:  # the folder's own settings, which diskcache obeyed by evicting
            db.execute("UPDATE Settings SET value = 0 WHERE key = 'size_limit'")
            db.execute("UPDATE Settings SET value = 1000 WHERE key = 'cull_limit'")
    db.close()


@pytest.mark.parametrize("size_limit_zero", [False, True], ids=["rows", "rows-and-size-limit-0"])
def test_rows_naming_files_outside_the_folder_delete_nothing_in_a_run_or_a_clear(
    size_limit_zero: bool,
    openai_server: FakeOpenAIServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    openai_server.respond_with(FaultyJudge())
    absolute = tmp_path / "victim1" / "important.txt"
    relative = tmp_path / "victim2" / "important.txt"
    for victim in (absolute, relative):
        victim.parent.mkdir()
        victim.write_text("the user's work")
    crafted = tmp_path / "repo" / ".hybridjudge-cache"
    crafted.mkdir(parents=True)
    planted_paths_cache(crafted, [absolute, relative], size_limit_zero=size_limit_zero)

    assert main(judge_argv(openai_server, tmp_path, crafted)) == EXIT_OK
    assert main(["cache", "stats", "--cache-dir", str(crafted)]) == EXIT_OK
    assert main(["cache", "clear", "--cache-dir", str(crafted), "--yes"]) == EXIT_OK
    capsys.readouterr()
    assert absolute.read_text() == "the user's work"
    assert relative.read_text() == "the user's work"
    assert not (crafted / "cache.db").exists()  # the previous layout's own file went


def test_a_link_inside_the_folder_is_not_followed_to_delete(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = tmp_path / "outside"
    (outside / "cd").mkdir(parents=True)
    victim = outside / "cd" / ("0" * 28 + ".val")
    victim.write_text("the user's work")
    crafted = tmp_path / "cache"
    crafted.mkdir()
    (crafted / "ab").symlink_to(outside)  # ab/cd/<hex>.val: diskcache's pattern, via a link
    with diskcache.Cache(str(crafted)) as cache:
        cache.set("row", "x" * 40_000)
    with sqlite3.connect(crafted / "cache.db") as db:
        db.execute("UPDATE Cache SET filename = ?", (f"ab/cd/{victim.name}",))
    db.close()
    assert main(["cache", "clear", "--cache-dir", str(crafted), "--yes"]) == EXIT_OK
    capsys.readouterr()
    assert victim.read_text() == "the user's work"


def test_clear_on_a_corrupt_previous_cache_keeps_the_users_two_hex_digit_folders(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "c"
    (folder / "01").mkdir(parents=True)
    (folder / "ab").mkdir()
    (folder / "01" / "chapter.txt").write_text("chapter one")
    (folder / "ab" / "notes.txt").write_text("notes")
    (folder / "cache.db").write_bytes(b"garbage, not a database " * 100)
    assert main(["cache", "stats", "--cache-dir", str(folder)]) == EXIT_USAGE
    assert "cache_corrupt" in capsys.readouterr().err
    assert main(["cache", "clear", "--cache-dir", str(folder), "--yes"]) == EXIT_OK
    capsys.readouterr()
    assert (folder / "01" / "chapter.txt").read_text() == "chapter one"
    assert (folder / "ab" / "notes.txt").read_text() == "notes"
    assert not (folder / "cache.db").exists()


# -- this layout (replies.db), crafted ---------------------------------------------------------


def crafted_row(folder: Path, key: str, value: object) -> None:
    with ReplyCache(folder):
        pass  # the genuine layout
    with sqlite3.connect(folder / "replies.db") as db:
        db.execute("INSERT INTO replies (key, entry) VALUES (?, ?)", (key, value))
    db.close()


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        (b"\x80\x04\x95" + b"pickle bytes", "a stored blob"),
        ("not json at all", "not JSON"),
        (json.dumps({"content": 1}), "not a stored reply"),
        (7, "not a JSON object"),  # TEXT affinity: stored as the text 7
    ],
    ids=["pickle-blob", "text", "foreign-json", "integer"],
)
def test_a_row_that_is_not_a_reply_is_a_typed_error_naming_the_row(
    value: object, reason: str, tmp_path: Path
) -> None:
    crafted_row(tmp_path, "k" * 64, value)
    with ReplyCache(tmp_path) as cache, pytest.raises(CorruptCacheError) as info:
        cache.get("k" * 64)
    assert info.value.code == "cache_corrupt"
    assert "k" * 64 in str(info.value)
    assert reason in str(info.value)
    assert "cache clear" in str(info.value)


def test_a_row_over_the_bound_is_refused_without_being_loaded(tmp_path: Path) -> None:
    huge = entry(content="y" * (MAX_ENTRY_BYTES + 10)).model_dump_json()
    crafted_row(tmp_path, "big", huge)
    with ReplyCache(tmp_path) as cache, pytest.raises(CorruptCacheError) as info:
        cache.get("big")
    assert "bound" in str(info.value)


@pytest.mark.parametrize(
    "statements",
    [
        ["CREATE TABLE replies (key TEXT, entry TEXT)"],  # our table name, another schema
        [  # our schema plus a trigger
            "CREATE TABLE hybridjudge_cache (name TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)"
            " WITHOUT ROWID",
            "CREATE TABLE replies (key TEXT PRIMARY KEY NOT NULL, entry TEXT NOT NULL) "
            "WITHOUT ROWID",
            "CREATE TABLE log (x)",
            "CREATE TRIGGER t AFTER INSERT ON replies BEGIN INSERT INTO log VALUES (1); END",
            "INSERT INTO hybridjudge_cache VALUES ('layout', 'hybridjudge reply cache'), "
            "('version', '1')",
        ],
        [  # the tables, another layout version
            "CREATE TABLE hybridjudge_cache (name TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)"
            " WITHOUT ROWID",
            "CREATE TABLE replies (key TEXT PRIMARY KEY NOT NULL, entry TEXT NOT NULL) "
            "WITHOUT ROWID",
            "INSERT INTO hybridjudge_cache VALUES ('layout', 'hybridjudge reply cache'), "
            "('version', '99')",
        ],
    ],
    ids=["foreign-schema", "extra-trigger", "other-layout-version"],
)
def test_a_database_that_is_not_our_layout_is_refused_whole_and_clear_removes_only_it(
    statements: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with sqlite3.connect(tmp_path / "replies.db") as db:
        for statement in statements:
            db.execute(statement)
    db.close()
    (tmp_path / "mine.txt").write_text("mine")
    with pytest.raises(CorruptCacheError) as info:
        ReplyCache(tmp_path)
    assert "not ours" in str(info.value)
    assert cache_stats(tmp_path).corrupt is not None
    assert main(["cache", "clear", "--cache-dir", str(tmp_path), "--yes"]) == EXIT_OK
    capsys.readouterr()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.txt"]


def test_a_database_named_by_a_link_is_refused_and_its_target_untouched(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.db"
    with ReplyCache(tmp_path / "real"):
        pass
    (tmp_path / "real" / "replies.db").rename(target)
    folder = tmp_path / "c"
    folder.mkdir()
    (folder / "replies.db").symlink_to(target)
    before = target.read_bytes()
    with pytest.raises(CorruptCacheError, match="symbolic link"):
        ReplyCache(folder)
    clear_cache(folder)
    assert target.read_bytes() == before
    assert not (folder / "replies.db").is_symlink()  # the link itself went


# -- fuzz: crafted bytes and crafted rows --------------------------------------------------------

FUZZ = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@FUZZ
@given(data=st.binary(max_size=3000), header=st.booleans())
def test_fuzz_any_bytes_as_the_database_are_a_typed_error_or_an_empty_cache(
    data: bytes, header: bool, tmp_path_factory: pytest.TempPathFactory
) -> None:
    root = tmp_path_factory.mktemp("fuzz")
    folder = root / "cache"
    folder.mkdir()
    sentinel = root / "outside.txt"
    sentinel.write_text("outside")
    # half of the inputs start as a real SQLite file, so the parser gets past the header
    content = (b"SQLite format 3\x00" + data) if header else data
    (folder / "replies.db").write_bytes(content)
    try:
        with ReplyCache(folder) as cache:
            assert cache.get("0" * 64) is None
            cache.set("0" * 64, entry())
    except InputError:  # CorruptCacheError and the permission errors: typed, named
        pass
    with contextlib.suppress(InputError):
        cache_stats(folder)
    clear_cache(folder)
    assert sentinel.read_text() == "outside"
    assert {p.name for p in root.iterdir()} == {"cache", "outside.txt"}
    assert {p.name for p in folder.iterdir()} <= {"replies.db", "replies.db-wal", "replies.db-shm"}


@FUZZ
@given(
    value=st.one_of(
        st.text(max_size=400),
        st.binary(max_size=400),
        st.integers(min_value=-(2**63), max_value=2**63 - 1),
        st.floats(allow_nan=True),
        st.none(),
        st.dictionaries(st.text(max_size=10), st.text(max_size=10), max_size=4).map(json.dumps),
    )
)
def test_fuzz_any_row_reads_as_a_reply_a_miss_or_a_typed_error(
    value: object, tmp_path_factory: pytest.TempPathFactory
) -> None:
    folder = tmp_path_factory.mktemp("rows")
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return  # NOT NULL: SQLite itself refuses it (a NaN is stored as NULL)
    crafted_row(folder, "f" * 64, value)
    with ReplyCache(folder) as cache:
        try:
            got: object = cache.get("f" * 64)
        except CorruptCacheError as exc:
            got = exc
        if isinstance(got, CorruptCacheError):
            assert "f" * 64 in str(got)
        else:
            assert got is None or isinstance(got, CachedReply)
    stats = cache_stats(folder)
    assert stats.entries == 1
