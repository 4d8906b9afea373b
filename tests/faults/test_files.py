"""Files fail closed (issue 10): atomic writes survive SIGKILL, one study per --out, --out
checked before any work."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from hybridjudge import ConfigError
from hybridjudge._atomic import LOCK_NAME, OutDirLock, atomic_write_text, check_out_dir
from hybridjudge.cli import main
from hybridjudge.cli._exit import EXIT_USAGE
from tests.faults._support import KEY, KEY_ENV, FaultyJudge, model_args, write_corpus
from tests.support.killed import run_and_kill
from tests.support.openai_server import FakeOpenAIServer

_WRITER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from hybridjudge import _atomic

    target = Path(sys.argv[1])
    ready = Path(sys.argv[2])
    real_fsync = _atomic.os.fsync

    def stall(fd):
        # the new content is written to the temp file but not renamed yet: signal, then hang
        ready.write_text("writing")
        import time
        time.sleep(60)
        real_fsync(fd)

    _atomic.os.fsync = stall
    _atomic.atomic_write_text(target, "NEW " * 1_000_000)
    """
)


def test_sigkill_during_a_write_leaves_the_previous_file_intact(tmp_path: Path) -> None:
    target = tmp_path / "report.md"
    atomic_write_text(target, "previous report\n")
    ready = tmp_path / "ready"
    run_and_kill(_WRITER, str(target), str(ready), ready=ready, what="the middle of its write")
    assert target.read_text(encoding="utf-8") == "previous report\n"
    # the orphan temp file is the only trace, hidden and never mistaken for the report
    leftovers = [p.name for p in tmp_path.iterdir() if p.name not in {"report.md", "ready"}]
    assert all(name.startswith(".report.md.") and name.endswith(".tmp") for name in leftovers)


def test_a_failing_write_keeps_the_previous_file_and_no_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "study.json"
    atomic_write_text(target, "{}\n")

    def disk_full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)  # the os module _atomic uses
    with pytest.raises(OSError, match="No space"):
        atomic_write_text(target, "{" * 10_000)
    assert target.read_text(encoding="utf-8") == "{}\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["study.json"]


def test_lone_surrogates_are_written_not_crashed_on(tmp_path: Path) -> None:
    path = atomic_write_text(tmp_path / "r.md", "case \ud800 id\n")
    assert path.read_text(encoding="utf-8") == "case ? id\n"


def test_the_lock_refuses_a_second_writer_and_releases(tmp_path: Path) -> None:
    with OutDirLock(tmp_path) as lock:
        assert lock.path.read_text().strip() == str(os.getpid())
        with pytest.raises(ConfigError, match="already writing results there") as info:
            OutDirLock(tmp_path).acquire()
        assert info.value.code == "out_locked"
        assert LOCK_NAME in str(info.value)
    assert not (tmp_path / LOCK_NAME).exists()
    with OutDirLock(tmp_path):  # free again
        pass


def test_a_stale_lock_of_a_dead_process_is_taken_over(tmp_path: Path) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    (tmp_path / LOCK_NAME).write_text(f"{dead.pid}\n")
    with OutDirLock(tmp_path) as lock:
        assert lock.path.read_text().strip() == str(os.getpid())


def test_out_that_is_a_file_is_refused(tmp_path: Path) -> None:
    file = tmp_path / "results"
    file.write_text("not a directory")
    with pytest.raises(ConfigError, match=r"--out .*existing file"):
        check_out_dir(file)


def test_a_dry_run_checks_out_without_creating_it(tmp_path: Path) -> None:
    out = tmp_path / "a" / "b"
    assert check_out_dir(out, create=False) == out
    assert not (tmp_path / "a").exists()
    file = tmp_path / "file"
    file.write_text("not a directory")
    with pytest.raises(ConfigError, match=r"--out .*file/b: cannot be created .* not a writable"):
        check_out_dir(file / "b", create=False)  # its nearest existing parent is a file
    assert check_out_dir(out) == out
    assert out.is_dir()  # a real run creates it


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write anywhere")
def test_out_that_is_not_writable_is_refused(tmp_path: Path) -> None:
    locked = tmp_path / "ro"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        with pytest.raises(ConfigError, match="not writable"):
            check_out_dir(locked)
    finally:
        locked.chmod(0o700)


def _study_argv(corpus: Path, out: Path, base_url: str, cache: Path) -> list[str]:
    return [
        "study",
        "run",
        "--corpus",
        str(corpus),
        "--scorers",
        "deterministic,support",
        "--out",
        str(out),
        "--quiet",
        *model_args(base_url, cache),
    ]


@pytest.fixture
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("HYBRIDJUDGE_BACKEND", "HYBRIDJUDGE_BASE_URL", "HYBRIDJUDGE_MODEL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv(KEY_ENV, KEY)


@pytest.mark.usefixtures("_key")
def test_study_with_out_a_file_fails_before_any_model_call(
    openai_server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    openai_server.respond_with(FaultyJudge())
    out = tmp_path / "results"
    out.write_text("I am a file")
    argv = _study_argv(write_corpus(tmp_path / "toy"), out, openai_server.base_url, tmp_path / "c")
    assert main(argv) == EXIT_USAGE
    assert "--out" in capsys.readouterr().err
    assert openai_server.request_count == 0  # refused before any work
    assert out.read_text() == "I am a file"


@pytest.mark.usefixtures("_key")
def test_second_study_on_the_same_out_is_refused_and_changes_nothing(
    openai_server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    openai_server.respond_with(FaultyJudge())
    out = tmp_path / "results"
    out.mkdir()
    argv = _study_argv(write_corpus(tmp_path / "toy"), out, openai_server.base_url, tmp_path / "c")
    with OutDirLock(out):  # a first study, still running
        assert main(argv) == EXIT_USAGE
        err = capsys.readouterr().err
        assert "already writing results there" in err
        assert str(os.getpid()) in err
    assert openai_server.request_count == 0
    assert sorted(p.name for p in out.iterdir()) == []
    assert main(argv) == 0  # once the first has finished, the same command runs
    assert (out / "study.json").is_file()
    assert not (out / LOCK_NAME).exists()
