"""``hybridjudge cache stats`` inspects without changing: no cache is created in a folder without
one, only the cache's own files count towards its size, a corrupt cache is a typed error (exit 2)
naming the exact ``cache clear`` command, and a cache this user may not open says so."""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from hybridjudge.cli import main
from hybridjudge.model import ReplyCache, clear_cache
from tests.model.test_cache import entry

EXIT_USAGE = 2
NOBODY = 65534


def snapshot(folder: Path) -> dict[str, tuple[int, int, str]]:
    """Every file and folder under ``folder``: size, mtime (ns) and content hash."""
    result: dict[str, tuple[int, int, str]] = {}
    for path in sorted(folder.rglob("*")):
        info = path.stat()
        digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "dir"
        result[str(path.relative_to(folder))] = (info.st_size, info.st_mtime_ns, digest)
    return result


def results_folder(folder: Path) -> None:
    """A folder of a user's own files (no cache): 800 KiB of results and a note."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "results.jsonl").write_bytes(b"x" * 800 * 1024)
    (folder / "notes.txt").write_text("mine")
    (folder / "ab").mkdir()  # a two-hex-digit folder that holds no diskcache value
    (folder / "ab" / "plot.png").write_bytes(b"p" * 4096)


@pytest.mark.parametrize("with_files", [False, True], ids=["empty-folder", "results-folder"])
def test_stats_on_a_folder_without_a_cache_reports_no_cache_and_creates_nothing(
    with_files: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    if with_files:
        results_folder(folder)
    before = snapshot(folder)

    assert main(["cache", "stats", "--cache-dir", str(folder)]) == 0
    assert f"no cache at {folder.resolve()} (0 entries)" in capsys.readouterr().out
    assert main(["cache", "stats", "--cache-dir", str(folder), "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert (stats["exists"], stats["entries"], stats["size_bytes"]) == (False, 0, 0)
    # `cache clear` on it has nothing to clear and creates nothing either
    assert main(["cache", "clear", "--cache-dir", str(folder), "--yes"]) == 0
    assert "nothing to clear" in capsys.readouterr().out
    assert clear_cache(folder) == 0

    assert snapshot(folder) == before
    assert not (folder / "replies.db").exists()


def test_stats_counts_only_the_caches_own_files_and_changes_none_of_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "out"
    results_folder(folder)
    big = entry(content='{"answer": "' + "y" * 40_000 + '"}', repetition=1, cost_usd=0.25)
    with ReplyCache(folder) as cache:
        cache.set("small", entry(cost_usd=0.25))
        cache.set("big", big)
    cache_bytes = sum(p.stat().st_size for p in folder.glob("replies.db*"))
    before = snapshot(folder)

    assert main(["cache", "stats", "--cache-dir", str(folder), "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["exists"] is True
    assert stats["entries"] == 2
    assert stats["by_prompt"] == {"fake-model arith@1": 2}
    assert stats["saved_cost_usd"] == pytest.approx(0.5)
    assert stats["size_bytes"] == cache_bytes  # not the 800 KiB of results, the note, the plot
    assert stats["size_bytes"] < 800 * 1024

    assert main(["cache", "stats", "--cache-dir", str(folder)]) == 0
    assert "entries:    2" in capsys.readouterr().out
    assert snapshot(folder) == before  # no byte, no mtime, no journal file changed or left


@pytest.mark.parametrize("json_flag", [[], ["--json"]], ids=["text", "json"])
def test_stats_on_a_cache_corrupt_is_exit_2_with_the_exact_clear_command(
    json_flag: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "my cache"  # a space: the command must be quoted to be pasted
    folder.mkdir()
    (folder / "replies.db").write_bytes(b"this is not an SQLite database, " * 64)
    (folder / "notes.txt").write_text("the user's own file")
    before = snapshot(folder)

    assert main(["cache", "stats", "--cache-dir", str(folder), *json_flag]) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert out == ""
    assert "error [cache_corrupt]" in err
    assert "Traceback" not in err
    command = f"hybridjudge cache clear --cache-dir {shlex.quote(str(folder.resolve()))} --yes"
    assert command in err
    assert snapshot(folder) == before  # inspecting did not repair or remove it

    # the printed command, pasted, is the fix
    argv = shlex.split(command)
    assert argv[:1] == ["hybridjudge"]
    assert main(argv[1:]) == 0
    assert "removed the corrupt cache" in capsys.readouterr().out
    assert not (folder / "replies.db").exists()
    assert (folder / "notes.txt").read_text() == "the user's own file"
    assert main(["cache", "stats", "--cache-dir", str(folder)]) == 0
    assert "no cache at" in capsys.readouterr().out


def test_an_sqlite_file_that_is_not_ours_is_reported_as_corrupt_and_clear_removes_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with sqlite3.connect(tmp_path / "replies.db") as db:
        db.execute("CREATE TABLE t (x)")
    db.close()
    with sqlite3.connect(tmp_path / "other.db") as db:
        db.execute("CREATE TABLE t (x)")
    db.close()
    assert main(["cache", "stats", "--cache-dir", str(tmp_path)]) == EXIT_USAGE
    assert "cache_corrupt" in capsys.readouterr().err
    assert main(["cache", "clear", "--cache-dir", str(tmp_path), "--yes"]) == 0
    assert not (tmp_path / "replies.db").exists()
    assert (tmp_path / "other.db").exists()


def test_an_empty_database_file_is_an_empty_cache_that_takes_replies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "replies.db").touch()  # e.g. created by another process a moment ago
    assert main(["cache", "stats", "--cache-dir", str(tmp_path), "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert (stats["exists"], stats["entries"], stats["corrupt"]) == (True, 0, None)
    assert (tmp_path / "replies.db").stat().st_size == 0  # stats did not turn it into a cache
    with ReplyCache(tmp_path) as cache:
        cache.set("k", entry())
        assert cache.get("k") == entry()


# -- permissions: run as a user the permissions apply to (root bypasses them) -----------------


@pytest.fixture
def shared_tmp() -> Iterator[Path]:
    """A folder another user can reach (pytest's tmp_path is private to its owner)."""
    folder = Path(tempfile.mkdtemp(prefix="hj-cache-perm-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        for path in [folder, *folder.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        shutil.rmtree(folder)


def run_unprivileged(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """``hybridjudge ARGV`` as a user whom permissions bind: this user, or ``nobody`` for root."""
    prefix: list[str] = []
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("running as root without setpriv: permissions cannot be tested")
        prefix = [setpriv, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("HYBRIDJUDGE_")}
    env["HOME"] = str(cwd)
    code = "import sys; from hybridjudge.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run(
        [*prefix, sys.executable, "-c", code, *argv],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_a_read_only_folder_without_a_cache_is_no_cache_not_corrupt(shared_tmp: Path) -> None:
    folder = shared_tmp / "ro"
    folder.mkdir()
    (folder / "results.jsonl").write_text("{}\n")
    folder.chmod(0o555)
    before = snapshot(folder)
    done = run_unprivileged(["cache", "stats", "--cache-dir", str(folder)], shared_tmp)
    assert done.returncode == 0, done.stderr
    assert f"no cache at {folder} (0 entries)" in done.stdout
    assert "CORRUPT" not in done.stdout + done.stderr
    assert snapshot(folder) == before


@pytest.mark.parametrize("case", ["unreadable-file", "read-only-folder", "closed-folder"])
def test_a_cache_this_user_may_not_open_is_a_permission_error_not_corrupt(
    case: str, shared_tmp: Path
) -> None:
    folder = shared_tmp / "c"
    with ReplyCache(folder) as cache:
        cache.set("k", entry())
    before = None
    if case == "unreadable-file":
        (folder / "replies.db").chmod(0o000)
    elif case == "read-only-folder":  # readable, but SQLite needs to write its lock files
        (folder / "replies.db").chmod(0o444)
        folder.chmod(0o555)
        before = snapshot(folder)
    else:  # not even listable
        folder.chmod(0o000)
    done = run_unprivileged(["cache", "stats", "--cache-dir", str(folder)], shared_tmp)
    assert done.returncode == EXIT_USAGE, done.stdout + done.stderr
    assert "error [cache_permission_denied]" in done.stderr
    assert "permission denied" in done.stderr
    assert str(folder) in done.stderr
    assert "corrupt" not in done.stderr.lower()
    assert "Traceback" not in done.stderr
    # `cache clear` refuses the same way and deletes nothing
    done = run_unprivileged(["cache", "clear", "--cache-dir", str(folder), "--yes"], shared_tmp)
    assert done.returncode == EXIT_USAGE
    assert "cache_permission_denied" in done.stderr
    folder.chmod(0o755)
    assert (folder / "replies.db").exists()
    if before is not None:
        assert snapshot(folder) == before
