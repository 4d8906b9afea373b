"""The reply cache: one JSON entry per model reply, on disk (diskcache), keyed by sha256.

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

Values are JSON strings (diskcache stores ``str`` as text, never pickled) carrying
``format_version``; an entry of another version reads as a miss.

Backends (:func:`open_reply_cache` picks one from :class:`~hybridjudge.model.ModelConfig`):

- :class:`ReplyCache`, the default: diskcache (SQLite) under ``cache_dir``. Safe for many
  processes on one machine, not for several machines sharing a network folder.
- :class:`RedisReplyCache`, selected by ``cache_url="redis://host:port/db"``: one Redis server
  shared by every process on every machine (e.g. the workers of a Ray cluster). Same keys (the
  sha256 above, under the ``hybridjudge:reply:`` prefix) and the same JSON values.

Both write through: an entry is stored the moment its reply arrives, so a process that dies
afterwards loses no reply it already received (a rerun or a retried task gets it as a hit).

Failures: a cache that cannot be written (disk full, read-only folder, Redis gone mid-run) logs
one warning and the run continues without caching (replies are still returned, just not stored);
a corrupt cache file (``sqlite3.DatabaseError``: malformed, not a database, or a stored text
SQLite cannot decode), whether found when it is opened or by a read or write in the middle of a
run, raises :class:`CorruptCacheError` naming the folder and the fix
(``hybridjudge cache clear --cache-dir DIR --yes``, which removes it); the judging loop stops the
run on it (exit 2) instead of failing record after record.

Inspecting (:func:`cache_stats`) never creates or changes a cache: a folder without diskcache's
database file (``cache.db``) is "no cache"; an existing one is read through SQLite without writing,
and only diskcache's own files count towards the size.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shlex
import shutil
import sqlite3
from collections import Counter
from collections.abc import Iterator
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Protocol

import diskcache
from diskcache.core import DBNAME, MODE_BINARY, MODE_RAW, MODE_TEXT
from pydantic import BaseModel, ConfigDict, ValidationError

from hybridjudge._errors import ConfigError, InputError

if TYPE_CHECKING:
    from hybridjudge.model._config import ModelConfig

__all__ = [
    "CACHE_FORMAT_VERSION",
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
    """The reply cache on disk is not a readable database (``sqlite3.DatabaseError``).

    Attributes:
        directory: the cache folder.
    """

    code = "corrupt_cache"

    def __init__(self, directory: Path, detail: str) -> None:
        command = f"hybridjudge cache clear --cache-dir {shlex.quote(str(directory))} --yes"
        super().__init__(
            f"the reply cache in {directory} is corrupt ({detail}); remove it with "
            f"`{command}` (it deletes only the cache's own files), or use another cache folder"
        )
        self.directory = directory
        self.detail = detail


_CACHE_DB = DBNAME
"""diskcache's database file in the cache folder (``cache.db``)."""

_BUSY_TIMEOUT = 60.0
"""Seconds a read waits for another process's write lock (diskcache's own default)."""

_CACHE_DB_SIDE_FILES = tuple(f"{_CACHE_DB}{suffix}" for suffix in ("-wal", "-shm", "-journal"))
"""SQLite's journal files next to the database (present while it is open, or after a crash)."""

_HEX_DIGITS = frozenset("0123456789abcdef")


def _is_value_dir(path: Path) -> bool:
    """A folder diskcache stores large values in: two hex digits (``ab/cd/<hex>.val``)."""
    return len(path.name) == 2 and set(path.name) <= _HEX_DIGITS and path.is_dir()


class ReplyStore(Protocol):
    """What the model client needs from a reply cache (every backend implements it)."""

    @property
    def location(self) -> str:
        """Where the entries live (a folder or a URL without credentials), for messages."""
        ...

    def get(self, key: str) -> CachedReply | None:
        """The entry for ``key``; ``None`` if absent, unreadable or of another version."""
        ...

    def set(self, key: str, entry: CachedReply) -> None:
        """Store ``entry`` now (write-through); a failed write warns and disables writes."""
        ...

    def close(self) -> None:
        """Release the connection."""
        ...


def _decode(raw: object) -> CachedReply | None:
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            return None
    if not isinstance(raw, str):
        return None
    try:
        entry = CachedReply.model_validate_json(raw)
    except ValidationError:
        return None
    return entry if entry.format_version == CACHE_FORMAT_VERSION else None


_DAMAGE_SIGNS = ("malformed", "not a database", "could not decode", "integrity check")
"""Fragments of SQLite's messages for a damaged file (some come as OperationalError):
"database disk image is malformed", "file is not a database", "Could not decode to UTF-8
column ..." (bytes overwritten inside a stored text), and this module's own integrity check."""


def _is_corrupt(exc: sqlite3.DatabaseError) -> bool:
    """A damaged database, as opposed to one that cannot be written (OperationalError: read-only,
    disk full, locked) -- except SQLite's own corruption messages, which come as either."""
    text = str(exc).lower()
    if any(sign in text for sign in _DAMAGE_SIGNS):
        return True
    return not isinstance(exc, sqlite3.OperationalError)


class ReplyCache:
    """A disk cache of :class:`CachedReply` entries under ``directory`` (diskcache).

    An existing database is checked whole (SQLite's ``quick_check``) before diskcache opens it.

    Raises:
        CorruptCacheError: the database file is damaged (names the folder and the fix).
        OSError, sqlite3.OperationalError: the folder cannot be created or written;
            :func:`open_reply_cache` turns this into a warning and a run without a cache.
    """

    def __init__(self, directory: Path | str) -> None:
        self.directory = Path(directory)
        self._writable = True
        try:
            if (self.directory / _CACHE_DB).is_file():
                # Bytes overwritten inside the file are not noticed by the reads that miss
                # them; checking the whole file first finds the damage before any request.
                with closing(_connect_read_only(self.directory)) as db:
                    _check_intact(db)
            self._cache = diskcache.Cache(str(self.directory))
        except sqlite3.DatabaseError as exc:
            if _is_corrupt(exc):
                raise CorruptCacheError(self.directory, str(exc)) from None
            raise

    @property
    def location(self) -> str:
        """The cache folder."""
        return str(self.directory)

    def get(self, key: str) -> CachedReply | None:
        """The entry for ``key``; ``None`` if absent, unreadable, or of another version."""
        try:
            raw = self._cache.get(key)
        except sqlite3.DatabaseError as exc:
            if _is_corrupt(exc):
                raise CorruptCacheError(self.directory, str(exc)) from None
            raise
        return _decode(raw)

    def set(self, key: str, entry: CachedReply) -> None:
        """Store ``entry`` under ``key`` as a JSON string, committed at once.

        A write that fails (disk full, read-only file) logs one warning naming the folder and
        turns writes off for the rest of this cache's life; the caller's run goes on.
        """
        if not self._writable:
            return
        try:
            self._cache.set(key, entry.model_dump_json())
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
        return len(self._cache)

    def close(self) -> None:
        """Close the underlying database."""
        self._cache.close()

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
        CorruptCacheError: the disk cache is damaged.
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
    """False when there is no cache there yet, i.e. no ``cache.db`` (then everything else is
    zero)."""
    entries: int
    """Stored replies."""
    size_bytes: int
    """Bytes on disk of the cache's own files (``cache.db``, its journal files and the value files
    under its two-hex-digit folders; other files in the folder do not count); in Redis, the bytes
    of the stored values."""
    saved_cost_usd: float
    """What one more hit on every entry would save, in USD (the sum of the original costs)."""
    by_prompt: dict[str, int]
    """Entries per ``model prompt_name@prompt_version``."""
    corrupt: str | None = None
    """SQLite's reason, when the database is damaged (then ``entries`` is 0 and
    ``hybridjudge cache clear`` removes it; the CLI's ``cache stats`` raises
    :class:`CorruptCacheError`)."""


def _cache_files(directory: Path) -> Iterator[Path]:
    """diskcache's own files in ``directory``: ``cache.db``, its journal files, and the value
    files ``ab/cd/<hex>.val``; nothing else in the folder (results, notes) is the cache's."""
    for name in (_CACHE_DB, *_CACHE_DB_SIDE_FILES):
        if (directory / name).is_file():
            yield directory / name
    try:
        outer = [child for child in directory.iterdir() if _is_value_dir(child)]
        for child in outer:
            for inner in child.iterdir():
                if _is_value_dir(inner):
                    yield from (f for f in inner.iterdir() if f.suffix == ".val" and f.is_file())
    except OSError:  # a value folder that cannot be listed counts as empty
        return


def _disk_size(directory: Path) -> int:
    total = 0
    for path in _cache_files(directory):
        try:
            total += path.stat().st_size
        except OSError:
            continue
    return total


def _stored_value(directory: Path, mode: int, filename: str | None, value: object) -> object:
    """The stored value of one ``Cache`` row, as diskcache's ``Disk.fetch`` reads it, without ever
    unpickling (an inspection runs no code from the cache): ``None`` when unreadable."""
    if mode == MODE_RAW:
        return value
    if mode not in (MODE_TEXT, MODE_BINARY) or not filename:
        return None  # a pickled value: not one of ours (ours are JSON text)
    relative = Path(filename)
    if relative.is_absolute() or ".." in relative.parts:
        return None
    try:
        data = (directory / relative).read_bytes()
    except OSError:
        return None
    return data  # _decode reads UTF-8 bytes as text


def _connect_read_only(directory: Path) -> sqlite3.Connection:
    """A connection to the existing ``cache.db`` in ``directory`` that cannot write.

    ``mode=rw`` never creates the file (it must exist) and, unlike ``mode=ro``, lets SQLite
    remove the WAL files it opened when it closes; ``query_only`` refuses any write.

    Raises:
        sqlite3.DatabaseError: the database cannot be opened.
    """
    uri = f"{(directory / _CACHE_DB).absolute().as_uri()}?mode=rw"
    db = sqlite3.connect(uri, uri=True, timeout=_BUSY_TIMEOUT)
    try:
        db.execute("PRAGMA query_only = ON")
    except BaseException:
        db.close()
        raise
    return db


def _check_intact(db: sqlite3.Connection) -> None:
    """Raise ``sqlite3.DatabaseError`` when SQLite's ``quick_check`` finds damage (pages
    overwritten inside the file, which plain reads may not notice until they hit them)."""
    problems = [str(row[0]) for row in db.execute("PRAGMA quick_check").fetchmany(3)]
    if problems != ["ok"]:
        first = " ".join(problems[0].split()) if problems else "no answer"
        raise sqlite3.DatabaseError(f"integrity check failed: {first[:200]}")


def _read_entries(directory: Path) -> Iterator[CachedReply | None]:
    """Every entry of the diskcache database in ``directory``, read without writing anything.

    Raises:
        sqlite3.DatabaseError: the database is damaged, or cannot be opened.
    """
    with closing(_connect_read_only(directory)) as db:
        _check_intact(db)
        rows = db.execute("SELECT mode, filename, value FROM Cache")
        for mode, filename, value in rows:
            yield _decode(_stored_value(directory, mode, filename, value))


def _is_damaged(exc: sqlite3.DatabaseError) -> bool:
    """Corrupt, or an SQLite file without diskcache's table: either way not a usable cache,
    which ``cache clear`` removes."""
    return _is_corrupt(exc) or "no such table" in str(exc).lower()


def _has_cache_db(directory: Path) -> bool:
    """Whether ``directory`` holds diskcache's database, i.e. a cache (never creates anything).

    Raises:
        InputError: this user may not look into ``directory`` (code ``cache_permission_denied``).
    """
    try:
        return (directory / _CACHE_DB).exists()
    except PermissionError:
        raise InputError(
            f"cannot look into the cache folder {directory}: permission denied; run as its "
            "owner, give this user access to it, or use another cache folder",
            code="cache_permission_denied",
        ) from None


def _unreadable_cache_error(directory: Path, exc: sqlite3.DatabaseError) -> InputError:
    """The typed error for a cache database that exists but cannot be opened (not corrupt)."""
    db = directory / _CACHE_DB
    if not db.is_file():
        why = f"{db} is not a file"
    elif not os.access(db, os.R_OK):
        why = f"this user may not read {db}"
    elif not os.access(db, os.W_OK) or not os.access(directory, os.W_OK | os.X_OK):
        why = (
            f"this user may not write {db} or its folder, which SQLite needs even to read "
            "(for its lock files cache.db-wal and cache.db-shm)"
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

    def stats(self, location: str, size_bytes: int, *, exists: bool) -> CacheStats:
        """The :class:`CacheStats` of what was counted."""
        return CacheStats(
            directory=location,
            exists=exists,
            entries=self.entries,
            size_bytes=size_bytes,
            saved_cost_usd=self.saved,
            by_prompt=dict(sorted(self.by_prompt.items())),
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

    Creates and changes nothing: a folder without ``cache.db`` (or no folder) is no cache
    (``exists`` False); an existing database is only read. A damaged database is reported in
    ``corrupt`` (not raised), so ``cache clear`` can still remove it.

    Raises:
        InputError: ``cache.db`` exists but cannot be opened (code ``cache_permission_denied``
            when this user lacks the rights, else ``cache_unreadable``).
        ConfigError: a Redis URL whose server cannot be reached, or without the redis client.
    """
    if is_cache_url(directory):
        return _redis_stats(str(directory))
    path = Path(directory).resolve()
    if not _has_cache_db(path):  # nothing to open, and opening would create it
        return CacheStats(
            directory=str(path),
            exists=False,
            entries=0,
            size_bytes=0,
            saved_cost_usd=0.0,
            by_prompt={},
        )
    tally = _Tally()
    try:
        for entry in _read_entries(path):
            tally.add(entry)
    except sqlite3.DatabaseError as exc:
        if not _is_damaged(exc):
            raise _unreadable_cache_error(path, exc) from None
        return CacheStats(
            directory=str(path),
            exists=True,
            entries=0,
            size_bytes=_disk_size(path),
            saved_cost_usd=0.0,
            by_prompt={},
            corrupt=str(exc),
        )
    return tally.stats(str(path), _disk_size(path), exists=True)


def clear_cache(directory: Path | str) -> int:
    """Delete every entry of the cache at ``directory`` (or at a ``redis://`` URL: only the
    reply keys, :data:`REDIS_KEY_PREFIX`); returns how many were removed.

    A corrupt cache (:class:`CorruptCacheError`, or one SQLite's ``quick_check`` finds damaged) is
    removed from disk instead: diskcache's own
    files (``cache.db`` with its journal files, and its value folders) go, anything else in the
    folder stays; the count is then 0 (the entries could not be read). A folder without
    ``cache.db`` is left as it is (0).

    Raises:
        InputError: ``cache.db`` exists but cannot be opened and is not corrupt (permissions,
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
    if not _has_cache_db(path):  # no cache: do not create one to empty it
        return 0
    try:  # first look without writing, as cache_stats does (diskcache's open writes)
        with closing(_connect_read_only(path)) as db:
            db.execute("SELECT count(*) FROM Cache").fetchone()
        with ReplyCache(path) as cache:  # checks the whole file before diskcache opens it
            return int(cache._cache.clear())
    except CorruptCacheError:
        _remove_diskcache_files(path)
        return 0
    except sqlite3.DatabaseError as exc:
        if _is_damaged(exc):
            _remove_diskcache_files(path)
            return 0
        # locked or not permitted: a healthy cache is never deleted for it
        raise _unreadable_cache_error(path, exc) from None


def _remove_diskcache_files(path: Path) -> None:
    for name in (_CACHE_DB, *_CACHE_DB_SIDE_FILES):
        (path / name).unlink(missing_ok=True)
    for child in path.iterdir():  # diskcache stores large values in two-hex-digit folders
        if _is_value_dir(child):
            shutil.rmtree(child, ignore_errors=True)
