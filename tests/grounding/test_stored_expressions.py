"""Compiled expressions kept between processes (``hybridjudge.grounding._stored``): a long
expression's code is stored by the first process and read back by the next, as a pattern equal
to ``re.compile``'s (patterns compare equal when their code does); a file that is damaged,
truncated, not code, or in a folder others may write to is never used, and the expression is
compiled as usual."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from hybridjudge.grounding import _quantities, _stored

ROOT = Path(__file__).resolve().parents[2]
FLAGS = int(re.VERBOSE | re.MULTILINE)


def _source(kind: str) -> str:
    """The source of a master expression of the scanner, as ``_quantities._master`` writes it."""
    alternation = "\n|".join(
        _quantities._ALTERNATIVES[n] for n in _quantities._MASTER_ALTERNATIVES[kind]
    )
    return rf"(?:{alternation})"


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    where = tmp_path / "expressions"
    monkeypatch.setenv(_stored.ENV, str(where))
    return where


def _no_compile(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Make ``re.compile`` of a long source fail the test: what is read back must not be
    compiled. Returns the long sources compiled anyway (none, where the store answered)."""
    compiled: list[str] = []
    real = re.compile

    def compile_(source: str, flags: int = 0) -> re.Pattern[str]:
        if len(source) >= _stored.MIN_SOURCE:
            compiled.append(source)
        return real(source, flags)

    monkeypatch.setattr(_stored.re, "compile", compile_)
    return compiled


@pytest.mark.parametrize("kind", sorted(_quantities._MASTER_ALTERNATIVES))
def test_a_master_expression_is_stored_and_read_back_equal(
    kind: str, store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = _source(kind)
    first = _stored.compile_stored(source, FLAGS)
    assert first == re.compile(source, FLAGS)
    assert len(list(store.iterdir())) == 1
    compiled = _no_compile(monkeypatch)
    again = _stored.compile_stored(source, FLAGS)
    assert compiled == []  # read from the folder, not compiled
    assert again == re.compile(source, FLAGS)  # the same code, flags and source
    assert again.groupindex == first.groupindex
    assert again.groups == first.groups
    text = "In FY2023 revenue was $1,402 million, up 12.5% on twenty-five thousand units."
    assert [m.span() for m in again.finditer(text)] == [m.span() for m in first.finditer(text)]


def test_a_short_expression_is_compiled_as_usual(store: Path) -> None:
    pattern = _stored.compile_stored(r"\d+(?:\.\d+)?", 0)
    assert pattern.fullmatch("12.5")
    assert not store.exists()


def test_off_stores_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(_stored.ENV, "off")
    assert _stored.folder() is None
    source = _source("alpha")
    assert _stored.compile_stored(source, FLAGS) == re.compile(source, FLAGS)


def test_the_default_folder_is_the_user_cache(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv(_stored.ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert _stored.folder() == tmp_path / "hybridjudge" / "expressions"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert _stored.folder() == Path.home() / ".cache" / "hybridjudge" / "expressions"


def _stored_file(store: Path, source: str) -> Path:
    _stored.compile_stored(source, FLAGS)
    (path,) = store.iterdir()
    return path


@pytest.mark.parametrize(
    "damage",
    [
        "truncated",
        "longer",
        "not json",
        "header without length",
        "not code",
        "another expression's header",
        "empty",
    ],
)
def test_a_damaged_file_is_never_used(
    damage: str, store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = _source("other")
    path = _stored_file(store, source)
    head, _, body = path.read_bytes().partition(b"\n")
    header = json.loads(head)
    if damage == "truncated":
        data = head + b"\n" + body[: len(body) // 2]
    elif damage == "longer":
        data = head + b"\n" + body + body[:8]
    elif damage == "not json":
        data = b"{not json\n" + body
    elif damage == "header without length":
        del header["length"]
        data = json.dumps(header).encode() + b"\n" + body
    elif damage == "not code":  # right length, every word an opcode's maximum
        data = head + b"\n" + b"\xff" * len(body)
    elif damage == "another expression's header":
        header["groups"] += 5
        header["indexgroup"] = [*header["indexgroup"], "x", "y", "z", "u", "v"]
        data = json.dumps(header).encode() + b"\n" + body
    else:
        data = b""
    path.write_bytes(data)
    compiled = _no_compile(monkeypatch)
    pattern = _stored.compile_stored(source, FLAGS)
    assert compiled == [source]  # refused, compiled again
    assert pattern == re.compile(source, FLAGS)
    # and stored again, whole: the next process reads it
    assert _stored._read(path, source, _stored._engine()[2]) == pattern  # type: ignore[index]


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="folder rights are POSIX modes here")
def test_a_folder_others_may_write_to_is_never_read(
    store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = _source("other")
    _stored_file(store, source)
    store.chmod(0o777)
    compiled = _no_compile(monkeypatch)
    pattern = _stored.compile_stored(source, FLAGS)
    assert compiled == [source]  # not read: compiled
    assert pattern == re.compile(source, FLAGS)


@pytest.mark.parametrize("blocked", ["a file in its place", "a file in its parent's place"])
def test_a_folder_that_cannot_be_made_stores_nothing_and_compiles_once(
    blocked: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "cache"
    blocker.write_text("a file, not a folder", encoding="utf-8")
    where = blocker if blocked == "a file in its place" else blocker / "expressions"
    monkeypatch.setenv(_stored.ENV, str(where))
    records: list[str] = []
    record = _stored._record
    monkeypatch.setattr(_stored, "_record", lambda *args: records.append(args[0]) or record(*args))
    source = _source("other")
    assert _stored.compile_stored(source, FLAGS) == re.compile(source, FLAGS)
    assert blocker.read_text(encoding="utf-8") == "a file, not a folder"
    assert records == []  # nothing compiled a second time for a record it could not store


def test_without_the_engine_steps_it_compiles_as_usual(
    store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_stored, "_engine", lambda: None)
    source = _source("other")
    assert _stored.compile_stored(source, FLAGS) == re.compile(source, FLAGS)
    assert not store.exists()


def test_a_second_process_reads_what_the_first_stored(store: Path) -> None:
    """Two ``hybridjudge check`` processes on one case: the first stores the master
    expressions it compiles, the second compiles none of them and gives the same output."""
    case = {
        "id": "a",
        "answer": "Refunds are due within thirty days, 30 in all, for $12.50.",
        "context": "Refunds are due within 30 days. The fee is $12.50.",
    }
    path = store.parent / "one.jsonl"
    path.write_text(json.dumps(case) + "\n", encoding="utf-8")
    env = {**os.environ, _stored.ENV: str(store), "PYTHONPATH": str(ROOT / "src")}
    probe = (
        "import re, runpy, sys\n"
        "from hybridjudge.grounding import _stored\n"
        "real = re.compile\n"
        "def counting(source, flags=0):\n"
        "    if len(source) >= _stored.MIN_SOURCE: print('compiled', len(source), file=sys.stderr)\n"
        "    return real(source, flags)\n"
        "_stored.re.compile = counting\n"
        "sys.argv = ['hybridjudge', 'check', '--json', sys.argv[1]]\n"
        "runpy.run_module('hybridjudge', run_name='__main__')\n"
    )
    runs = [
        subprocess.run(
            [sys.executable, "-c", probe, str(path)],
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )
        for _ in range(2)
    ]
    assert [r.returncode for r in runs] == [0, 0], runs[0].stderr
    assert runs[0].stderr.count("compiled") >= 2  # the digits' and the letters' masters at least
    assert "compiled" not in runs[1].stderr
    assert runs[1].stdout == runs[0].stdout
    assert len(list(store.iterdir())) == runs[0].stderr.count("compiled")
