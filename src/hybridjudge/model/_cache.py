"""The reply cache: one JSON entry per model reply, keyed by sha256, in a SQLite file this project
owns (``replies.db``), or in a shared Redis.

Key (:func:`cache_key`): sha256 of the canonical JSON (sorted keys, no spaces, UTF-8) of
everything that changes the reply: the key format version, the endpoint identity (base URL, or
``local://<model>@<sha256>`` for the embedded model), the model, the messages, temperature, seed,
max tokens, the requested schema (name and JSON schema), the prompt name and version and the
repetition index. Never in the key: the API key, timeouts, retry and concurrency settings, prices.

What is cached: the replies that led to a valid value (a first reply that validated, or a first
reply and its repair when the repair validated). A reply that did not validate is not stored, so
a rerun asks again exactly the requests that failed; only a caller that asks for it
(``keep_invalid=True``, the peers' proxy) stores an invalid reply and its repair, and a rerun
then replays that ``parse_failure`` without a request. To ask the model again for a stored reply,
change the repetition index or the prompt version, or run with ``--no-cache``. Transport failures
(HTTP errors, timeouts, refused connections, bodies that are not chat completions) are never
cached.

Data, never code (docs/security.md). A cache folder may come from anywhere (a cloned repository
holds one), so nothing read from it is trusted:

- The disk layout is the project's own: one SQLite file, ``replies.db``, with exactly two tables
  (``hybridjudge_cache``: the layout's name and version; ``replies``: ``key``, ``entry`` as JSON
  text). A file whose schema is not exactly that, whose layout row is not ours, or that is a
  symbolic link is refused whole (:class:`CorruptCacheError`, code ``cache_corrupt``) before any
  row is read. Entries are JSON text validated by pydantic: nothing is unpickled, no file name is
  read from a row, no setting is read from the folder (no eviction, no size limit that could
  delete), and SQLite runs with ``trusted_schema`` off.
- A row that is not what the project wrote (not text, over :data:`MAX_ENTRY_BYTES`, not JSON, not
  a :class:`CachedReply`) is a :class:`CorruptCacheError` naming the row's key; it is never loaded.
  An entry of another :data:`CACHE_FORMAT_VERSION` is a miss (it was ours, from another release).
- ``cache clear`` (:func:`clear_cache`) removes only ``replies.db`` (its rows, or the file with its
  journal files when it is damaged or not ours) and, from the previous layout (diskcache's
  ``cache.db``, imported once into ``replies.db`` by the first run that opens the folder), its
  database file and the value files its rows name in diskcache's own pattern
  (``ab/cd/<28 hex>.val``, inside the folder, not through a link); empty value folders go only
  when empty. Nothing else in the folder is touched, whatever a row says.

Backends (:func:`open_reply_cache` picks one from :class:`~hybridjudge.model.ModelConfig`):

- :class:`ReplyCache`, the default: ``replies.db`` under ``cache_dir``. Safe for many processes on
  one machine (SQLite's write-ahead log, a 60 s busy timeout), not for several machines sharing a
  network folder.
- :class:`RedisReplyCache`, selected by ``cache_url="redis://host:port/db"``: one Redis server
  shared by every process on every machine (e.g. the workers of a Ray cluster). Same keys (the
  sha256 above, under the ``hybridjudge:reply:`` prefix) and the same JSON values, read as JSON
  only (an unreadable value is a miss).

Both write through: an entry is stored the moment its reply arrives (one SQLite transaction), so a
process that dies afterwards loses no reply it already received (a rerun or a retried task gets
it as a hit).

Failures: a cache that cannot be written (disk full, read-only folder, Redis gone mid-run) logs
one warning and the run continues without caching (replies are still returned, just not stored);
a damaged or foreign cache file, whether found when it is opened (SQLite's ``quick_check`` and the
schema check) or by a read or write in the middle of a run, raises :class:`CorruptCacheError`
naming the folder and the fix (``hybridjudge cache clear --cache-dir DIR --yes``); the judging
loop stops the run on it (exit 2) instead of failing record after record.

Inspecting (:func:`cache_stats`) never creates or changes a cache: a folder without
``replies.db`` (or the previous layout's ``cache.db``) is "no cache"; an existing one is read
through SQLite without writing, and only the cache's own files count towards the size.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import os
import re
import shlex
import sqlite3
import stat
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import BaseModel, ConfigDict, ValidationError

from hybridjudge._errors import ConfigError, InputError

if TYPE_CHECKING:
    from hybridjudge.model._config import ModelConfig

__all__ = [
    "CACHE_FORMAT_VERSION",
    "CACHE_LAYOUT_VERSION",
    "MAX_ENTRY_BYTES",
    "REDIS_KEY_PREFIX",
    "CacheStats",
    "CachedReply",
    "CorruptCacheError",
    "RedisReplyCache",
    "ReplyCache",
    "ReplyStore",
    "cache_key",
    "cache_stats",
    "clear_cache",
    "open_reply_cache",
]

_log = logging.getLogger("hybridjudge.model.cache")

REDIS_KEY_PREFIX = "hybridjudge:reply:"
"""Namespace of the reply entries in a shared Redis (followed by the sha256 key)."""

_REDIS_SCHEMES = ("redis://", "rediss://", "unix://")

CACHE_FORMAT_VERSION = 1
"""Version of both the key layout and the stored entry; bump on any change to either."""

CACHE_LAYOUT_VERSION = 1
"""Version of the disk layout (``replies.db``'s tables), stored in its ``hybridjudge_cache``
table; a file of another layout is refused, never guessed at."""

MAX_ENTRY_BYTES = 8 * 1024 * 1024
"""The largest stored entry read back (bytes of its JSON text). A reply is at most a model's
completion (kilobytes); a larger row was not written by this project and is refused unread."""


def cache_key(parts: dict[str, Any]) -> str:
    """sha256 hex digest of the canonical JSON of ``parts`` plus the format version."""
    canonical = json.dumps(
        {"cache_format_version": CACHE_FORMAT_VERSION, **parts},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    # surrogatepass: a lone surrogate in a prompt (user text) hashes instead of crashing; valid
    # text encodes exactly as before, so existing keys are unchanged
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()


class CachedReply(BaseModel):
    """One stored model reply, with what it cost when it was first made."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    format_version: int = CACHE_FORMAT_VERSION
    """Entry format version."""
    content: str
    """The raw assistant message text."""
    finish_reason: str | None = None
    """Why generation stopped (``stop``, ``length``, ...)."""
    model: str
    """Model name as sent."""
    endpoint: str
    """Endpoint identity (never a key or a token)."""
    prompt_name: str
    """Prompt template name."""
    prompt_version: str
    """Prompt template version."""
    repetition: int
    """Repetition index."""
    prompt_tokens: int
    """Prompt tokens billed when first made."""
    completion_tokens: int
    """Completion tokens billed when first made."""
    cost_usd: float | None
    """Cost when first made (``None``: the model's price, or the reply's token counts, were
    unknown)."""
    latency_s: float
    """Seconds the request took when first made."""
    created_at: str
    """UTC time of the original request, ISO 8601."""

    @staticmethod
    def now() -> str:
        """The current UTC time, ISO 8601 (for ``created_at``)."""
        return datetime.now(UTC).isoformat(timespec="seconds")


class CorruptCacheError(InputError):
    """The reply cache on disk is damaged, or is not what this project writes (a foreign schema,
    a symbolic link, a row that is not a stored reply).

    Attributes:
        directory: the cache folder.
        detail: what was found (SQLite's reason, or the row's key and what is wrong with it).
    """

    code = "cache_corrupt"

    def __init__(self, directory: Path, detail: str) -> None:
        command = f"hybridjudge cache clear --cache-dir {shlex.quote(str(directory))} --yes"
        super().__init__(
            f"the reply cache in {directory} is corrupt or not written by hybridjudge ({detail}); "
            f"nothing of it was used; remove it with `{command}` (it deletes only the cache's own "
            "files), or use another cache folder (--cache-dir)"
        )
        self.directory = directory
        self.detail = detail


DB_NAME = "replies.db"
"""The cache's database file in the cache folder."""

_SIDE_SUFFIXES = ("-wal", "-shm", "-journal")
"""SQLite's journal files next to a database (present while it is open, or after a crash)."""

_LEGACY_DB = "cache.db"
"""The previous layout's database (diskcache), imported once and removed by ``cache clear``."""

_LEGACY_VALUE_FILE = re.compile(r"[0-9a-f]{2}/[0-9a-f]{2}/[0-9a-f]{28}\.val")
"""Where diskcache put a large value (``ab/cd/<28 hex>.val``): the only names it wrote."""

_LEGACY_MODE_RAW, _LEGACY_MODE_TEXT = 1, 3
"""diskcache's row modes for a text value stored in the row and in a file (pickles are 4)."""

_KEY = re.compile(r"[0-9a-f]{64}")

_BUSY_TIMEOUT = 60.0
"""Seconds a read or write waits for another process's write lock."""

_LAYOUT_NAME = "hybridjudge reply cache"

_SCHEMA = (
    "CREATE TABLE hybridjudge_cache (name TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) "
    "WITHOUT ROWID",
    "CREATE TABLE replies (key TEXT PRIMARY KEY NOT NULL, entry TEXT NOT NULL) WITHOUT ROWID",
)
_LAYOUT_ROWS = {"layout": _LAYOUT_NAME, "version": str(CACHE_LAYOUT_VERSION)}

_SELECT_ENTRY = (
    "SELECT typeof(entry), length(CAST(entry AS BLOB)), "
    "CASE WHEN length(CAST(entry AS BLOB)) <= ? THEN entry END FROM replies"
)
"""A row's type, size and (when not over the bound) text: a huge row is never loaded."""


class ReplyStore(Protocol):
    """What the model client needs from a reply cache (every backend implements it)."""

    @property
    def location(self) -> str:
        """Where the entries live (a folder or a URL without credentials), for messages."""
        ...

    def get(self, key: str) -> CachedReply | None:
        """The entry for ``key``; ``None`` if absent or of another format version."""
        ...

    def set(self, key: str, entry: CachedReply) -> None:
        """Store ``entry`` now (write-through); a failed write warns and disables writes."""
        ...

    def close(self) -> None:
        """Release the connection."""
        ...


class _BadRowError(ValueError):
    """A stored row that is not a reply this project wrote (the reason is the message)."""


def _parse(text: str) -> CachedReply | None:
    """The reply stored as ``text``; ``None`` for an entry of another format version.

    Raises:
        _BadRowError: not JSON, or not a stored reply.
    """
    try:  # the common case in one pass; a failure is classified below
        entry = CachedReply.model_validate_json(text)
    except ValidationError:
        pass
    else:
        return entry if entry.format_version == CACHE_FORMAT_VERSION else None
    try:
        data = json.loads(text)
    except ValueError:
        raise _BadRowError("not JSON") from None
    if not isinstance(data, dict):
        raise _BadRowError("not a JSON object")
    version = data.get("format_version")
    if isinstance(version, int) and version != CACHE_FORMAT_VERSION:
        return None
    try:
        return CachedReply.model_validate(data)
    except ValidationError as exc:
        raise _BadRowError(f"not a stored reply: {exc.error_count()} invalid field(s)") from None


def _decode(raw: object) -> CachedReply | None:
    """A stored value read leniently (Redis, and counting in ``cache stats``): ``None`` when it is
    not a reply of this format version."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            return None
    if not isinstance(raw, str) or len(raw) > MAX_ENTRY_BYTES:
        return None
    try:
        return _parse(raw)
    except _BadRowError:
        return None


_DAMAGE_SIGNS = ("malformed", "not a database", "could not decode", "integrity check", "not ours")
"""Fragments of SQLite's messages for a damaged file (some come as OperationalError):
"database disk image is malformed", "file is not a database", "Could not decode to UTF-8
column ..." (bytes overwritten inside a stored text), and this module's own checks."""


def _is_corrupt(exc: sqlite3.DatabaseError) -> bool:
    """A damaged database, as opposed to one that cannot be written (OperationalError: read-only,
    disk full, locked) -- except SQLite's own corruption messages, which come as either."""
    text = str(exc).lower()
    if any(sign in text for sign in _DAMAGE_SIGNS):
        return True
    return not isinstance(exc, sqlite3.OperationalError)


@functools.cache
def _expected_schema() -> frozenset[tuple[str, str, str]]:
    """``(type, name, sql)`` of every object of the layout, as SQLite itself records them."""
    with closing(sqlite3.connect(":memory:")) as db:
        for statement in _SCHEMA:
            db.execute(statement)
        rows = db.execute("SELECT type, name, sql FROM sqlite_master").fetchall()
    return frozenset((str(t), str(n), str(s)) for t, n, s in rows)


def _check_ours(db: sqlite3.Connection, *, allow_empty: bool = False) -> bool:
    """Raise ``sqlite3.DatabaseError`` unless ``db`` holds exactly this project's layout; with
    ``allow_empty``, a database with no table at all (a file another process is creating right
    now, or an empty file) passes too. Returns whether the layout is there."""
    rows = db.execute("SELECT type, name, sql FROM sqlite_master").fetchall()
    found = frozenset((str(t), str(n), str(s)) for t, n, s in rows)
    if not found and allow_empty:
        return False
    if found != _expected_schema():
        names = sorted(name for _, name, _ in found)
        raise sqlite3.DatabaseError(
            f"not ours: its schema is not hybridjudge's reply cache (objects: {names[:6]})"
        )
    layout = {str(n): str(v) for n, v in db.execute("SELECT name, value FROM hybridjudge_cache")}
    if layout != _LAYOUT_ROWS:
        raise sqlite3.DatabaseError(
            f"not ours: layout {layout.get('layout')!r} version {layout.get('version')!r}, "
            f"this hybridjudge reads {_LAYOUT_NAME!r} version {CACHE_LAYOUT_VERSION}"
        )
    return True


def _check_intact(db: sqlite3.Connection) -> None:
    """Raise ``sqlite3.DatabaseError`` when SQLite's ``quick_check`` finds damage (pages
    overwritten inside the file, which plain reads may not notice until they hit them)."""
    problems = [str(row[0]) for row in db.execute("PRAGMA quick_check").fetchmany(3)]
    if problems != ["ok"]:
        first = " ".join(problems[0].split()) if problems else "no answer"
        raise sqlite3.DatabaseError(f"integrity check failed: {first[:200]}")


def _refuse_link(path: Path) -> None:
    """A database named by a symbolic link could make writes land anywhere: refused."""
    if path.is_symlink():
        raise sqlite3.DatabaseError(f"not ours: {path.name} is a symbolic link")


def _connect_read_only(path: Path) -> sqlite3.Connection:
    """A connection to the existing database ``path`` that cannot write.

    ``mode=rw`` never creates the file (it must exist) and, unlike ``mode=ro``, lets SQLite
    remove the WAL files it opened when it closes; ``query_only`` refuses any write.

    Raises:
        sqlite3.DatabaseError: the database cannot be opened, or is a symbolic link.
    """
    _refuse_link(path)
    uri = f"{path.absolute().as_uri()}?mode=rw"
    db = sqlite3.connect(uri, uri=True, timeout=_BUSY_TIMEOUT)
    try:
        db.execute("PRAGMA trusted_schema = OFF")
        db.execute("PRAGMA query_only = ON")
    except BaseException:
        db.close()
        raise
    return db


def _connect_writer(path: Path) -> sqlite3.Connection:
    """A connection that may write ``path``, creating the layout in a new (empty) file and
    checking it in an existing one, in one transaction (so two processes opening a new folder
    at once agree).

    Raises:
        sqlite3.DatabaseError: damaged or not ours (corrupt), or cannot be opened or written.
    """
    _refuse_link(path)
    db = sqlite3.connect(
        str(path), timeout=_BUSY_TIMEOUT, isolation_level=None, check_same_thread=False
    )
    try:
        db.execute("PRAGMA trusted_schema = OFF")
        db.execute("BEGIN IMMEDIATE")
        try:
            if db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0:
                for statement in _SCHEMA:
                    db.execute(statement)
                db.executemany(
                    "INSERT INTO hybridjudge_cache (name, value) VALUES (?, ?)",
                    sorted(_LAYOUT_ROWS.items()),
                )
            _check_ours(db)
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("PRAGMA journal_mode = WAL")  # readers never wait for a writer
        db.execute("PRAGMA synchronous = NORMAL")  # durable at each checkpoint, as diskcache was
    except BaseException:
        db.close()
        raise
    return db


class ReplyCache:
    """A disk cache of :class:`CachedReply` entries in ``directory/replies.db`` (SQLite).

    An existing database is checked whole (SQLite's ``quick_check``) and for its layout before
    any row is read. The first open of a folder that holds the previous layout (diskcache's
    ``cache.db``) imports its JSON entries (never a pickle, never a file outside the folder).

    Raises:
        CorruptCacheError: the database file is damaged or not this project's (names the folder
            and the fix).
        OSError, sqlite3.OperationalError: the folder cannot be created or written;
            :func:`open_reply_cache` turns this into a warning and a run without a cache.
    """

    def __init__(self, directory: Path | str) -> None:
        self.directory = Path(directory)
        self._writable = True
        self._lock = threading.Lock()
        path = self.directory / DB_NAME
        try:
            existed = path.is_file() or path.is_symlink()
            if existed:
                # Bytes overwritten inside the file are not noticed by the reads that miss
                # them; checking the whole file first finds the damage before any request.
                with closing(_connect_read_only(path)) as db:
                    _check_intact(db)
                    _check_ours(db, allow_empty=True)  # the writer creates or checks it
            else:
                self.directory.mkdir(parents=True, exist_ok=True)
            self._db = _connect_writer(path)
        except sqlite3.DatabaseError as exc:
            if _is_corrupt(exc):
                raise CorruptCacheError(self.directory, str(exc)) from None
            raise
        if not existed:
            self._import_previous_layout()

    @property
    def location(self) -> str:
        """The cache folder."""
        return str(self.directory)

    def get(self, key: str) -> CachedReply | None:
        """The entry for ``key``; ``None`` if absent or of another format version.

        Raises:
            CorruptCacheError: the database is damaged, or the row is not a reply this project
                wrote (not text, larger than :data:`MAX_ENTRY_BYTES`, not JSON, not a reply).
        """
        try:
            with self._lock:
                row = self._db.execute(
                    f"{_SELECT_ENTRY} WHERE key = ?", (MAX_ENTRY_BYTES, key)
                ).fetchone()
        except sqlite3.DatabaseError as exc:
            if _is_corrupt(exc):
                raise CorruptCacheError(self.directory, str(exc)) from None
            raise
        if row is None:
            return None
        kind, size, text = row
        try:
            if kind != "text":
                raise _BadRowError(f"a stored {kind}, not JSON text")
            if not isinstance(text, str):
                raise _BadRowError(
                    f"{size} bytes, over the {MAX_ENTRY_BYTES}-byte bound of a reply"
                )
            return _parse(text)
        except _BadRowError as exc:
            raise CorruptCacheError(self.directory, f"row {key}: {exc}") from None

    def set(self, key: str, entry: CachedReply) -> None:
        """Store ``entry`` under ``key`` as a JSON string, committed at once.

        A write that fails (disk full, read-only file) logs one warning naming the folder and
        turns writes off for the rest of this cache's life; the caller's run goes on.
        """
        if not self._writable:
            return
        try:
            with self._lock:
                self._db.execute(
                    "INSERT OR REPLACE INTO replies (key, entry) VALUES (?, ?)",
                    (key, entry.model_dump_json()),
                )
        except (OSError, sqlite3.DatabaseError) as exc:
            if isinstance(exc, sqlite3.DatabaseError) and _is_corrupt(exc):
                raise CorruptCacheError(self.directory, str(exc)) from None
            self._writable = False
            _log.warning(
                "cannot write the reply cache in %s (%s: %s); continuing without caching: "
                "replies from now on are not stored, so a rerun will ask for them again",
                self.directory,
                type(exc).__name__,
                exc,
            )

    @property
    def writable(self) -> bool:
        """False once a write has failed (then writes are skipped)."""
        return self._writable

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT count(*) FROM replies").fetchone()[0])

    def keys(self) -> list[str]:
        """Every stored key (the sha256 of :func:`cache_key`), sorted."""
        with self._lock:
            return [str(k) for (k,) in self._db.execute("SELECT key FROM replies ORDER BY key")]

    def clear(self) -> int:
        """Delete every entry; returns how many there were."""
        with self._lock:
            return int(self._db.execute("DELETE FROM replies").rowcount)

    def _import_previous_layout(self) -> None:
        """Copy the JSON entries of the previous layout (diskcache's ``cache.db``) in the folder
        into ``replies.db``, once (when ``replies.db`` is new). Pickled rows, foreign rows and
        value files outside diskcache's own names are skipped; the old file is left as it was.
        A previous cache that cannot be read is left alone with a warning."""
        legacy = self.directory / _LEGACY_DB
        if not legacy.is_file() or legacy.is_symlink():
            return
        try:
            rows = [(key, entry.model_dump_json()) for key, entry in _legacy_entries(legacy)]
            with self._lock:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.executemany(
                    "INSERT OR IGNORE INTO replies (key, entry) VALUES (?, ?)", rows
                )
                self._db.execute("COMMIT")
        except (OSError, sqlite3.DatabaseError) as exc:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            _log.warning(
                "the previous cache layout in %s could not be imported (%s: %s); it is left "
                "as it is, and replies it held will be asked for again",
                legacy,
                type(exc).__name__,
                exc,
            )
            return
        _log.info("imported %d replies from the previous cache layout (%s)", len(rows), legacy)

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()

    def __enter__(self) -> ReplyCache:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"ReplyCache({str(self.directory)!r})"


def _inside(directory: Path, relative: str) -> Path | None:
    """``directory/relative`` when it is a regular file inside ``directory``, reached through no
    symbolic link; ``None`` otherwise."""
    if not _LEGACY_VALUE_FILE.fullmatch(relative):
        return None
    path = directory / relative
    try:
        root = directory.resolve(strict=True)
        real = path.resolve(strict=True)
        mode = path.lstat().st_mode
    except (OSError, RuntimeError):
        return None
    if real != root / relative or not stat.S_ISREG(mode):
        return None
    return path


def _legacy_value(directory: Path, mode: object, filename: object, value: object) -> str | None:
    """The text of one diskcache row, read without unpickling: ``None`` when it is not a text
    value (a pickle, bytes, a number) or names a file that is not diskcache's own."""
    if mode == _LEGACY_MODE_RAW:
        return value if isinstance(value, str) else None
    if mode != _LEGACY_MODE_TEXT or not isinstance(filename, str):
        return None
    path = _inside(directory, filename)
    if path is None:
        return None
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_ENTRY_BYTES + 1)
        return data.decode("utf-8") if len(data) <= MAX_ENTRY_BYTES else None
    except (OSError, UnicodeDecodeError):
        return None


def _legacy_rows(legacy: Path) -> Iterator[tuple[object, object, object, object, object]]:
    """``(key, raw, mode, filename, value)`` of every row of diskcache's ``Cache`` table.

    Raises:
        sqlite3.DatabaseError: the file is damaged, or is no diskcache database.
    """
    with closing(_connect_read_only(legacy)) as db:
        _check_intact(db)
        yield from db.execute("SELECT key, raw, mode, filename, value FROM Cache")


def _legacy_entries(legacy: Path) -> Iterator[tuple[str, CachedReply]]:
    """The replies of the previous layout that are this project's JSON entries."""
    for key, raw, mode, filename, value in _legacy_rows(legacy):
        if not (isinstance(key, str) and raw == 1 and _KEY.fullmatch(key)):
            continue
        entry = _decode(_legacy_value(legacy.parent, mode, filename, value))
        if entry is not None:
            yield key, entry


def _redact_url(url: str) -> str:
    """``url`` without a password (``redis://user:secret@host`` -> ``redis://user:***@host``)."""
    scheme, sep, rest = url.partition("://")
    if not sep or "@" not in rest:
        return url
    creds, _, host = rest.rpartition("@")
    user = creds.split(":", 1)[0]
    return f"{scheme}://{user}:***@{host}"


class RedisReplyCache:
    """The reply cache in a Redis server shared by every worker on every machine.

    Keys are :data:`REDIS_KEY_PREFIX` + the sha256 key of :func:`cache_key`, values the same JSON
    text as the disk cache; entries never expire (as on disk). Needs the ``redis`` client
    (``pip install 'hybridjudge[ray]'``).

    Raises:
        ConfigError: the client is not installed, or the server cannot be reached at open.
    """

    def __init__(self, url: str, *, timeout: float = 10.0) -> None:
        self.url = url
        try:
            import redis
        except ImportError:
            raise ConfigError(
                f"cache URL {_redact_url(url)!r} needs the redis client: "
                "pip install 'hybridjudge[ray]'"
            ) from None
        self._errors: tuple[type[BaseException], ...] = (redis.RedisError, OSError)
        self._writable = True
        self._readable = True
        self._client = redis.Redis.from_url(
            url, socket_timeout=timeout, socket_connect_timeout=timeout
        )
        try:
            self._client.ping()
        except self._errors as exc:
            self._client.close()
            raise ConfigError(
                f"cannot reach the reply cache at {_redact_url(url)} ({type(exc).__name__}: "
                f"{exc}); start the Redis server or fix the cache_url"
            ) from None

    @property
    def location(self) -> str:
        """The URL without its password."""
        return _redact_url(self.url)

    def get(self, key: str) -> CachedReply | None:
        """The entry for ``key``; ``None`` if absent or unreadable (a failed read warns once)."""
        if not self._readable:
            return None
        try:
            raw = self._client.get(REDIS_KEY_PREFIX + key)
        except self._errors as exc:
            self._readable = False
            _log.warning(
                "cannot read the reply cache at %s (%s: %s); continuing without reading it",
                self.location,
                type(exc).__name__,
                exc,
            )
            return None
        return _decode(raw)

    def set(self, key: str, entry: CachedReply) -> None:
        """Store ``entry`` now (write-through); a failed write warns once and turns writes off."""
        if not self._writable:
            return
        try:
            self._client.set(REDIS_KEY_PREFIX + key, entry.model_dump_json())
        except self._errors as exc:
            self._writable = False
            _log.warning(
                "cannot write the reply cache at %s (%s: %s); continuing without caching",
                self.location,
                type(exc).__name__,
                exc,
            )

    def keys(self) -> list[str]:
        """Every stored sha256 key (SCAN, so a large cache does not block the server)."""
        return [
            (k.decode() if isinstance(k, bytes) else str(k))[len(REDIS_KEY_PREFIX) :]
            for k in self._client.scan_iter(match=REDIS_KEY_PREFIX + "*", count=1000)
        ]

    def __len__(self) -> int:
        return len(self.keys())

    def values(self) -> Iterator[bytes | str | None]:
        """Every stored value (its JSON text; ``None`` when deleted meanwhile), fetched 1,000
        keys per round trip."""
        keys = [REDIS_KEY_PREFIX + k for k in self.keys()]
        for start in range(0, len(keys), 1000):
            yield from self._client.mget(keys[start : start + 1000])

    def clear(self) -> int:
        """Delete every reply entry (only this prefix); returns how many were removed."""
        keys = [REDIS_KEY_PREFIX + k for k in self.keys()]
        removed = 0
        for start in range(0, len(keys), 1000):
            removed += int(self._client.delete(*keys[start : start + 1000]))
        return removed

    def close(self) -> None:
        """Close the connection pool."""
        self._client.close()

    def __repr__(self) -> str:
        return f"RedisReplyCache({self.location!r})"


def open_reply_cache(config: ModelConfig) -> ReplyStore | None:
    """The cache ``config`` selects: ``None`` when caching is off or the folder cannot be
    written (one warning; the run continues without a cache).

    ``config.cache_url`` (``redis://...``) selects :class:`RedisReplyCache`, else
    :class:`ReplyCache` in ``config.cache_dir``.

    Raises:
        CorruptCacheError: the disk cache is damaged or not this project's.
        ConfigError: an unknown cache URL scheme, or a Redis server that cannot be reached.
    """
    if not config.cache:
        return None
    url: str | None = getattr(config, "cache_url", None)
    if url:
        if not is_cache_url(url):
            raise ConfigError(
                f"cache URL {_redact_url(url)!r}: only Redis is supported "
                "(redis://host:port/db, rediss://, unix://); or leave cache_url unset to use the disk cache (cache_dir)"
            )
        return RedisReplyCache(url, timeout=config.timeout)
    try:
        return ReplyCache(config.cache_dir)
    except (OSError, sqlite3.OperationalError) as exc:
        _log.warning(
            "cannot open the reply cache in %s (%s: %s); continuing without caching: replies "
            "are not stored, so a rerun will ask for them again",
            config.cache_dir,
            type(exc).__name__,
            exc,
        )
        return None


class CacheStats(BaseModel):
    """What ``hybridjudge cache stats`` reports."""

    model_config = ConfigDict(frozen=True)

    format_version: int = CACHE_FORMAT_VERSION
    """Cache format version this hybridjudge reads."""
    directory: str
    """The cache directory (absolute), or the Redis URL without its password."""
    exists: bool
    """False when there is no cache there yet, i.e. neither ``replies.db`` nor the previous
    layout's ``cache.db`` (then everything else is zero)."""
    entries: int
    """Stored replies (in ``replies.db``; with only the previous layout there, its replies, which
    the next run imports)."""
    size_bytes: int
    """Bytes on disk of the cache's own files (``replies.db`` and its journal files, and those of
    the previous layout; other files in the folder do not count); in Redis, the bytes of the
    stored values."""
    saved_cost_usd: float
    """What one more hit on every entry would save, in USD (the sum of the original costs)."""
    by_prompt: dict[str, int]
    """Entries per ``model prompt_name@prompt_version``."""
    corrupt: str | None = None
    """The reason, when the database is damaged or not this project's (then ``entries`` is 0 and
    ``hybridjudge cache clear`` removes it; the CLI's ``cache stats`` raises
    :class:`CorruptCacheError`)."""
    previous_layout: bool = False
    """True when the folder holds only the previous layout (diskcache's ``cache.db``): the counts
    are its replies, imported into ``replies.db`` by the next run."""


def _db_files(directory: Path, name: str) -> Iterator[Path]:
    """A database file and its journal files in ``directory``, where present (links included:
    removing one removes the link, never what it points to)."""
    for candidate in (name, *(f"{name}{suffix}" for suffix in _SIDE_SUFFIXES)):
        path = directory / candidate
        if path.is_symlink() or path.is_file():
            yield path


def _legacy_value_files(directory: Path) -> Iterator[Path]:
    """The value files the previous layout's rows name, in diskcache's own pattern and inside
    the folder (nothing when its database cannot be read)."""
    try:
        for _key, _raw, mode, filename, _value in _legacy_rows(directory / _LEGACY_DB):
            if mode == _LEGACY_MODE_TEXT and isinstance(filename, str):
                path = _inside(directory, filename)
                if path is not None:
                    yield path
    except sqlite3.DatabaseError:
        return


def _disk_size(directory: Path) -> int:
    total = 0
    paths = [*_db_files(directory, DB_NAME), *_db_files(directory, _LEGACY_DB)]
    for path in [*paths, *_legacy_value_files(directory)]:
        try:
            total += path.lstat().st_size
        except OSError:
            continue
    return total


def _read_entries(path: Path) -> Iterator[CachedReply | None]:
    """Every entry of ``replies.db``, read without writing anything (a row that is not a reply
    of this format version is ``None``; a row over the bound is not loaded).

    Raises:
        sqlite3.DatabaseError: the database is damaged, not ours, or cannot be opened.
    """
    with closing(_connect_read_only(path)) as db:
        _check_intact(db)
        if not _check_ours(db, allow_empty=True):
            return  # an empty database: an empty cache
        for kind, _size, text in db.execute(_SELECT_ENTRY, (MAX_ENTRY_BYTES,)):
            yield _decode(text) if kind == "text" else None


def _is_damaged(exc: sqlite3.DatabaseError) -> bool:
    """Corrupt, or an SQLite file without the expected table: either way not a usable cache,
    which ``cache clear`` removes."""
    return _is_corrupt(exc) or "no such table" in str(exc).lower()


def _has_file(directory: Path, name: str) -> bool:
    """Whether ``directory`` holds ``name`` (never creates anything).

    Raises:
        InputError: this user may not look into ``directory`` (code ``cache_permission_denied``).
    """
    try:
        path = directory / name
        return path.exists() or path.is_symlink()
    except PermissionError:
        raise InputError(
            f"cannot look into the cache folder {directory}: permission denied; run as its "
            "owner, give this user access to it, or use another cache folder",
            code="cache_permission_denied",
        ) from None


def _unreadable_cache_error(directory: Path, db: Path, exc: sqlite3.DatabaseError) -> InputError:
    """The typed error for a cache database that exists but cannot be opened (not corrupt)."""
    if not db.is_file():
        why = f"{db} is not a file"
    elif not os.access(db, os.R_OK):
        why = f"this user may not read {db}"
    elif not os.access(db, os.W_OK) or not os.access(directory, os.W_OK | os.X_OK):
        why = (
            f"this user may not write {db} or its folder, which SQLite needs even to read "
            f"(for its lock files {db.name}-wal and {db.name}-shm)"
        )
    else:
        return InputError(
            f"cannot read the reply cache in {directory} ({type(exc).__name__}: {exc}); "
            "try again once no other program holds it, or use another cache folder",
            code="cache_unreadable",
        )
    return InputError(
        f"cannot open the reply cache in {directory}: permission denied ({why}; SQLite said: "
        f"{exc}); run as the cache's owner, give this user read and write access to the folder "
        "and its files, or use another cache folder",
        code="cache_permission_denied",
    )


def is_cache_url(location: Path | str) -> bool:
    """Whether ``location`` names a Redis cache (``redis://``, ``rediss://``, ``unix://``)."""
    return isinstance(location, str) and location.startswith(_REDIS_SCHEMES)


class _Tally:
    """Entries, entries per prompt and the saved cost of a cache, one entry at a time (the disk
    and the Redis cache count alike)."""

    def __init__(self) -> None:
        self.entries = 0
        self.saved = 0.0
        self.by_prompt: Counter[str] = Counter()

    def add(self, entry: CachedReply | None) -> None:
        """Count one stored entry (``None``: unreadable or of another format version)."""
        self.entries += 1
        if entry is None:
            self.by_prompt["(unreadable or other format version)"] += 1
            return
        self.by_prompt[f"{entry.model} {entry.prompt_name}@{entry.prompt_version}"] += 1
        self.saved += entry.cost_usd or 0.0  # an unknown price saves an unknown amount

    def stats(
        self, location: str, size_bytes: int, *, exists: bool, previous: bool = False
    ) -> CacheStats:
        """The :class:`CacheStats` of what was counted."""
        return CacheStats(
            directory=location,
            exists=exists,
            entries=self.entries,
            size_bytes=size_bytes,
            saved_cost_usd=self.saved,
            by_prompt=dict(sorted(self.by_prompt.items())),
            previous_layout=previous,
        )


def _redis_stats(url: str) -> CacheStats:
    tally = _Tally()
    size = 0
    store = RedisReplyCache(url)
    try:
        for raw in store.values():
            if raw is None:
                continue  # deleted between SCAN and MGET
            size += len(raw.encode("utf-8") if isinstance(raw, str) else raw)
            tally.add(_decode(raw))
    finally:
        store.close()
    # a Redis cache with no reply key is no cache yet, as an absent folder
    return tally.stats(store.location, size, exists=tally.entries > 0)


def cache_stats(directory: Path | str) -> CacheStats:
    """Entries, size and contents of the cache at ``directory``, or of the Redis cache at a
    ``redis://`` URL (see :func:`is_cache_url`).

    Creates and changes nothing: a folder without ``replies.db`` or the previous layout's
    ``cache.db`` (or no folder) is no cache (``exists`` False); an existing database is only read.
    A damaged or foreign database is reported in ``corrupt`` (not raised), so ``cache clear`` can
    still remove it.

    Raises:
        InputError: the database exists but cannot be opened (code ``cache_permission_denied``
            when this user lacks the rights, else ``cache_unreadable``).
        ConfigError: a Redis URL whose server cannot be reached, or without the redis client.
    """
    if is_cache_url(directory):
        return _redis_stats(str(directory))
    path = Path(directory).resolve()
    ours, previous = _has_file(path, DB_NAME), _has_file(path, _LEGACY_DB)
    if not ours and not previous:  # nothing to open, and opening would create it
        return CacheStats(
            directory=str(path),
            exists=False,
            entries=0,
            size_bytes=0,
            saved_cost_usd=0.0,
            by_prompt={},
        )
    tally = _Tally()
    db = path / (DB_NAME if ours else _LEGACY_DB)
    try:
        if ours:
            for entry in _read_entries(db):
                tally.add(entry)
        else:
            for _key, entry in _legacy_entries(db):
                tally.add(entry)
    except sqlite3.DatabaseError as exc:
        if not _is_damaged(exc):
            raise _unreadable_cache_error(path, db, exc) from None
        return CacheStats(
            directory=str(path),
            exists=True,
            entries=0,
            size_bytes=_disk_size(path),
            saved_cost_usd=0.0,
            by_prompt={},
            corrupt=f"{db.name}: {exc}",
            previous_layout=not ours,
        )
    return tally.stats(str(path), _disk_size(path), exists=True, previous=not ours)


def clear_cache(directory: Path | str) -> int:
    """Delete every entry of the cache at ``directory`` (or at a ``redis://`` URL: only the
    reply keys, :data:`REDIS_KEY_PREFIX`); returns how many were removed.

    Removes only what is provably the cache's own: the rows of ``replies.db`` (or, when it is
    damaged or not this project's, the file itself with its journal files); and of the previous
    layout, diskcache's ``cache.db`` with its journal files and the value files its rows name in
    diskcache's pattern inside the folder (their empty folders too). Anything else in the folder
    stays, whatever a row names. A folder with neither database is left as it is (0).

    Raises:
        InputError: a database exists but cannot be opened and is not damaged (permissions,
            locked): nothing is removed.
        ConfigError: a Redis URL whose server cannot be reached, or without the redis client.
    """
    if is_cache_url(directory):
        store = RedisReplyCache(str(directory))
        try:
            return store.clear()
        finally:
            store.close()
    path = Path(directory)
    removed = 0
    if _has_file(path, DB_NAME):
        removed = _clear_replies(path)
    if _has_file(path, _LEGACY_DB):
        removed += _remove_previous_layout(path)
    return removed


def _clear_replies(path: Path) -> int:
    db = path / DB_NAME
    try:  # first look without writing, as cache_stats does
        with closing(_connect_read_only(db)) as reader:
            _check_intact(reader)
            _check_ours(reader, allow_empty=True)
        with ReplyCache(path) as cache:
            return cache.clear()
    except CorruptCacheError:
        pass
    except sqlite3.DatabaseError as exc:
        if not _is_damaged(exc):  # locked or not permitted: a healthy cache is never deleted
            raise _unreadable_cache_error(path, db, exc) from None
    for file in _db_files(path, DB_NAME):
        file.unlink(missing_ok=True)
    return 0


def _remove_previous_layout(path: Path) -> int:
    """Remove diskcache's database and the value files its rows name; returns the replies it
    held (0 when it could not be read)."""
    try:
        entries = sum(1 for _ in _legacy_entries(path / _LEGACY_DB))
    except sqlite3.DatabaseError:
        entries = 0
    files = list(_legacy_value_files(path))
    for file in files:
        file.unlink(missing_ok=True)
    for folder in sorted(
        {f.parent for f in files} | {f.parent.parent for f in files}, reverse=True
    ):
        try:
            folder.rmdir()  # only when empty: a user's file in it keeps it
        except OSError:
            continue
    for file in _db_files(path, _LEGACY_DB):
        file.unlink(missing_ok=True)
    return entries
