"""Atomic file writes and the results-directory lock.

:func:`atomic_write_bytes` writes a temporary file in the target's own folder, flushes and
``fsync``-s it, then ``os.replace``-s it over the target (atomic on POSIX and Windows within one
filesystem) and ``fsync``-s the folder. A writer killed at any point leaves either the previous
file or the new one, never a truncated mix; the temporary file is removed on any error. A new file
gets the mode ``open()`` would give it, ``0o666`` less the user's umask (``umask 077``: 0600, 022:
0644; :func:`new_file_mode`); a file replaced keeps its mode.

:class:`OutDirLock` refuses a second writer on the same results directory: it creates
``DIR/.hybridjudge.lock`` with ``O_CREAT | O_EXCL`` and records the owner's pid. A lock left by
a process that no longer exists (kill -9) is taken over.
"""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
import threading
from pathlib import Path
from types import TracebackType

from hybridjudge._errors import ConfigError

__all__ = [
    "LOCK_NAME",
    "OutDirLock",
    "atomic_write_bytes",
    "atomic_write_text",
    "check_creatable",
    "check_out_dir",
    "new_file_mode",
]

LOCK_NAME = ".hybridjudge.lock"
"""Name of the lock file inside a results directory."""


def _fsync_dir(folder: Path) -> None:
    if os.name != "posix":  # pragma: no cover - directories cannot be opened on Windows
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


_UMASK_LOCK = threading.Lock()


def _umask() -> int:
    """The process umask, read without changing it where the system tells (Linux
    ``/proc/self/status``), else set and restored at once under a lock."""
    with (
        contextlib.suppress(OSError, ValueError),
        open("/proc/self/status", encoding="ascii") as status,
    ):
        for line in status:
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    with _UMASK_LOCK:
        mask = os.umask(0o077)  # the most private value, for the instant it is in force
        os.umask(mask)
    return mask


def new_file_mode() -> int:
    """The mode a new file gets, as ``open()`` would create it: ``0o666`` less the umask."""
    return 0o666 & ~_umask()


def atomic_write_bytes(path: str | Path, data: bytes) -> Path:
    """Replace ``path`` with ``data`` atomically (temp file in the same folder, fsync, rename).

    Returns:
        The path written.

    Raises:
        OSError: the folder cannot be written (the previous file, if any, is untouched).
    """
    target = Path(path)
    if target.is_dir():
        raise IsADirectoryError(errno.EISDIR, "is a folder; give a file path", str(target))
    folder = target.parent
    folder.mkdir(parents=True, exist_ok=True)
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:  # name the folder, not the temporary file's random name
        raise OSError(
            exc.errno, f"cannot write a file in this folder ({exc.strerror})", str(folder)
        ) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        with contextlib.suppress(OSError):
            mode = target.stat().st_mode & 0o777 if target.exists() else new_file_mode()
            os.chmod(tmp_name, mode)
        os.replace(tmp_name, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp_name)
        raise
    _fsync_dir(folder)
    return target


def atomic_write_text(path: str | Path, text: str, *, encoding: str = "utf-8") -> Path:
    """:func:`atomic_write_bytes` of ``text`` encoded with ``encoding`` (lone surrogates are
    written as ``?`` rather than failing halfway)."""
    return atomic_write_bytes(path, text.encode(encoding, errors="replace"))


def check_creatable(path: str | Path, *, flag: str) -> None:
    """Check, creating nothing, that ``path`` (a file or folder that does not exist yet) could be
    created: its nearest existing parent is a writable directory.

    Raises:
        ConfigError: it is not (code ``invalid_out``); the message names ``flag``.
    """
    target = Path(path)
    parent = next((p for p in target.absolute().parents if p.exists()), None)
    if parent is None or not parent.is_dir() or not os.access(parent, os.W_OK | os.X_OK):
        raise ConfigError(
            f"{flag} {target}: cannot be created ({parent} is not a writable directory); "
            "choose another place",
            code="invalid_out",
        )


def check_out_dir(path: str | Path, *, flag: str = "--out", create: bool = True) -> Path:
    """Validate a results directory before any work starts.

    The directory may exist (it is reused) or not (it is created now, with its parents), but it
    must be a directory and writable. ``create=False`` (a dry run) creates nothing: a missing
    directory's nearest existing parent must be a writable directory instead.

    Raises:
        ConfigError: ``path`` is an existing file, or cannot be created or written; the message
            names ``flag``.
    """
    out = Path(path)
    if out.exists() and not out.is_dir():
        raise ConfigError(
            f"{flag} {out}: is an existing file, not a directory; give a directory for the "
            "results (study.json, report.md, report.html)",
            code="invalid_out",
        )
    if not create and not out.exists():
        check_creatable(out, flag=flag)
        return out
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(
            f"{flag} {out}: cannot create the directory ({exc.strerror or exc}); choose "
            "another place",
            code="invalid_out",
        ) from None
    try:
        fd, probe = tempfile.mkstemp(prefix=".write-probe.", dir=out)
    except OSError as exc:
        raise ConfigError(
            f"{flag} {out}: the directory is not writable ({exc.strerror or exc}); choose "
            "another place or fix its permissions",
            code="invalid_out",
        ) from None
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(probe)
    return out


def _pid_alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, owned by someone else
        return True
    except OSError:  # pragma: no cover - platform without signals
        return True
    return True


class OutDirLock:
    """Hold ``DIR/.hybridjudge.lock`` while a run writes into ``DIR``.

    Use as ``with OutDirLock(out): ...``. Entering raises :class:`ConfigError` when another live
    process holds the lock; a stale lock (its pid is gone) is replaced.
    """

    def __init__(self, out_dir: str | Path, *, flag: str = "--out") -> None:
        self.out_dir = Path(out_dir)
        self.path = self.out_dir / LOCK_NAME
        self._flag = flag
        self._held = False

    def _owner(self) -> int | None:
        try:
            text = self.path.read_text(encoding="utf-8", errors="replace").strip()
        except OSError:
            return None
        try:
            return int(text.split()[0]) if text else None
        except ValueError:
            return None

    def acquire(self) -> None:
        """Take the lock or raise :class:`ConfigError` naming the directory and the owner."""
        self.out_dir.mkdir(parents=True, exist_ok=True)
        for _ in range(3):
            try:
                fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                owner = self._owner()
                if owner is not None and not _pid_alive(owner):
                    with contextlib.suppress(FileNotFoundError):
                        self.path.unlink()
                    continue
                who = f"process {owner}" if owner is not None else "another process"
                raise ConfigError(
                    f"{self._flag} {self.out_dir}: {who} is already writing results there (lock "
                    f"file {self.path}); wait for it to finish, choose another {self._flag}, or "
                    "delete the lock file if no such run is alive",
                    code="out_locked",
                ) from None
            except OSError as exc:
                raise ConfigError(
                    f"{self._flag} {self.out_dir}: cannot create the lock file "
                    f"({exc.strerror or exc})",
                    code="invalid_out",
                ) from None
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(f"{os.getpid()}\n")
            self._held = True
            return
        raise ConfigError(  # pragma: no cover - three stale locks in a row
            f"{self._flag} {self.out_dir}: could not take the lock {self.path}", code="out_locked"
        )

    def release(self) -> None:
        """Remove the lock file if this object holds it. Safe to call twice."""
        if self._held:
            self._held = False
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()

    def __enter__(self) -> OutDirLock:
        self.acquire()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()
