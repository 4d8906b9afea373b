"""Compiled regular expressions kept between processes.

Python compiles a regular expression in two steps, both pure Python: its parser reads the
source into a tree, and its compiler writes the tree into the code the matching engine runs.
For the grounding checks' largest expressions they are slow: the scanner's two master
expressions (10,000 and 8,000 characters, written from every lexicon's number, scale and unit
words) take 27 ms, a tenth of a one-case ``hybridjudge check``. The code depends only on the
source, the flags and the interpreter, so the first process keeps it in a folder, under a name
that hashes all of these, and later processes hand it to the engine (``_sre.compile``, the call
:func:`re.compile` itself ends with), skipping both steps: well under a millisecond.

Nothing of the compiler is written here: a process that finds no stored code compiles with
:func:`re.compile`, and stores the code only where the same steps written out
(``re._parser.parse``, ``re._compiler._code``, ``_sre.compile``: CPython 3.11 to 3.13) give a
pattern equal to it (patterns compare equal when their code does). Where any of them is
missing, or a file cannot be read or is refused, a process compiles as usual. The key holds the
interpreter's version and ``_sre.MAGIC``, so an interpreter whose compiler writes other code
never reads it; a file's header, length and digest are checked, and the engine validates the
code itself.

The folder: ``$HYBRIDJUDGE_EXPRESSION_CACHE`` (``off``: none), else
``$XDG_CACHE_HOME/hybridjudge/expressions`` or ``~/.cache/hybridjudge/expressions``; used only
where the current user owns it and no one else may write to it (anyone who can write there could
hand the checks another expression's code); where it cannot be made or written (a read-only
home), a process compiles once, as without it. About 200 KB for each interpreter version.
"""

from __future__ import annotations

import array
import contextlib
import functools
import hashlib
import importlib
import json
import os
import re
import stat
import sys
import tempfile
from pathlib import Path
from typing import Any

__all__ = ["ENV", "MIN_SOURCE", "compile_stored", "folder"]

ENV = "HYBRIDJUDGE_EXPRESSION_CACHE"
"""The environment variable naming the folder of stored expressions (``off``: none)."""

MIN_SOURCE = 1000
"""Sources shorter than this many characters are compiled as usual: Python compiles about a
character a microsecond, and a file costs some 30 us to find and read."""


@functools.cache
def _engine() -> tuple[Any, Any, Any] | None:
    """``re._parser``, ``re._compiler`` and ``_sre`` where they have what this module calls."""
    try:
        parser = importlib.import_module("re._parser")
        compiler = importlib.import_module("re._compiler")
        sre = importlib.import_module("_sre")
        parts = (parser.parse, compiler._code, sre.compile, sre.MAGIC, sre.CODESIZE)
    except (ImportError, AttributeError):
        return None
    if not all(parts) or array.array("I").itemsize != sre.CODESIZE:
        return None
    return parser, compiler, sre


def folder() -> Path | None:
    """The folder of stored expressions (see the module's docstring), or ``None``: none."""
    value = os.environ.get(ENV, "").strip()
    if value.lower() == "off":
        return None
    if value:
        return Path(value)
    base = os.environ.get("XDG_CACHE_HOME", "").strip()
    try:
        root = Path(base) if base else Path.home() / ".cache"
    except RuntimeError:  # no home folder to be found
        return None
    return root / "hybridjudge" / "expressions"


def _private(where: Path) -> bool:
    """Whether ``where`` is a folder of the current user that no one else may write to."""
    try:
        info = where.stat()
    except OSError:
        return False
    if not stat.S_ISDIR(info.st_mode):
        return False
    getuid = getattr(os, "getuid", None)
    if getuid is None:  # Windows: the folder's rights are the user profile's
        return True
    return bool(info.st_uid == getuid() and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH))


def compile_stored(source: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(source, flags)``, with its code read from the folder of stored expressions
    where an earlier process stored it, and stored there otherwise (sources of
    :data:`MIN_SOURCE` characters or more)."""
    flags = int(flags)
    engine = _engine()
    where = folder() if engine is not None and len(source) >= MIN_SOURCE else None
    if engine is None or where is None:
        return re.compile(source, flags)
    sre = engine[2]
    key = repr((sys.version, sre.MAGIC, sre.CODESIZE, flags, source))
    path = where / hashlib.sha256(key.encode("utf-8")).hexdigest()[:40]
    if _private(where):
        found = _read(path, source, sre)
        if found is not None:
            return found
    pattern = re.compile(source, flags)
    if _ready(where):  # else no second compiling for a record that cannot be stored
        record = _record(source, flags, engine)
        if record is not None and record[0] == pattern:
            _write(where, path, record[1], record[2])
    return pattern


def _ready(where: Path) -> bool:
    """Whether ``where`` is, or could be made, a private folder the current user may write to
    (made with mode 700 where it is missing)."""
    try:
        where.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError:
        return False
    return _private(where) and os.access(where, os.W_OK)


def _read(path: Path, source: str, sre: Any) -> re.Pattern[str] | None:
    """The pattern of the code stored at ``path``, or ``None`` (no such file, or one refused)."""
    try:
        data = path.read_bytes()
        head, _, body = data.partition(b"\n")
        header = json.loads(head)
        if header.pop("digest") != _digest(header, body):
            return None
        code = array.array("I")
        code.frombytes(body)
        if len(code) != header["length"]:
            return None
        pattern: re.Pattern[str] = sre.compile(
            source,
            int(header["flags"]),
            code.tolist(),
            int(header["groups"]),
            {str(k): int(v) for k, v in header["groupindex"].items()},
            tuple(header["indexgroup"]),
        )
    except (OSError, ValueError, TypeError, KeyError, AttributeError, RuntimeError):
        return None  # json's and the engine's refusals are ValueError and RuntimeError
    return pattern


def _record(
    source: str, flags: int, engine: tuple[Any, Any, Any]
) -> tuple[re.Pattern[str], dict[str, Any], list[int]] | None:
    """``source`` compiled in :func:`re.compile`'s steps: the pattern, the header to store and
    the code; ``None`` where a step fails (an interpreter whose steps differ)."""
    parser, compiler, sre = engine
    try:
        parsed = parser.parse(source, flags)
        code: list[int] = compiler._code(parsed, flags)
        groupindex = dict(parsed.state.groupdict)
        indexgroup: list[str | None] = [None] * parsed.state.groups
        for name, index in groupindex.items():
            indexgroup[index] = name
        header = {
            "flags": flags | parsed.state.flags,
            "groups": parsed.state.groups - 1,
            "groupindex": groupindex,
            "indexgroup": indexgroup,
            "length": len(code),
        }
        pattern: re.Pattern[str] = sre.compile(
            source,
            header["flags"],
            code,
            header["groups"],
            groupindex,
            tuple(indexgroup),
        )
    except (AttributeError, TypeError, ValueError, RuntimeError, IndexError, re.error):
        return None
    return pattern, header, code


def _digest(header: dict[str, Any], body: bytes) -> str:
    """The sha256 of a stored expression's header and code: a file changed since it was
    written (a flipped bit, a header from another expression) is refused."""
    return hashlib.sha256(json.dumps(header, sort_keys=True).encode("utf-8") + body).hexdigest()


def _write(where: Path, path: Path, header: dict[str, Any], code: list[int]) -> None:
    """Store ``code`` at ``path`` in ``where`` (:func:`_ready`), whole or not at all: a file
    that cannot be written stores nothing."""
    tmp: str | None = None
    try:
        body = array.array("I", code).tobytes()
        signed = {**header, "digest": _digest(header, body)}
        with tempfile.NamedTemporaryFile(dir=where, prefix=".tmp-", delete=False) as out:
            tmp = out.name
            out.write(json.dumps(signed).encode("utf-8") + b"\n" + body)
        os.replace(tmp, path)
        tmp = None
    except (OSError, OverflowError):
        pass
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
