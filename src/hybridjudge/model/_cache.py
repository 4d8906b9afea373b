"""The reply cache: one JSON entry per model reply, on disk (diskcache), keyed by sha256.

Key (:func:`cache_key`): sha256 of the canonical JSON (sorted keys, no spaces, UTF-8) of
everything that changes the reply: the key format version, the endpoint identity (base URL, or
``local://<model>@<sha256>`` for the embedded model), the model, the messages, temperature, seed,
max tokens, the requested schema (name and JSON schema), the prompt name and version and the
repetition index. Never in the key: the API key, timeouts, retry and concurrency settings, prices.

What is cached: every HTTP exchange that returned a chat completion, *including* replies that
later fail validation. The raw reply is what the model said; validating it is deterministic, so a
rerun reproduces the same ``parse_failure`` (and the same repair request, itself cached) without
a single request. To ask the model again, change the repetition index or the prompt version, or
run with ``--no-cache``. Transport failures (HTTP errors, timeouts, refused connections,
bodies that are not chat completions) are never cached.

Values are JSON strings (diskcache stores ``str`` as text, never pickled) carrying
``format_version``; an entry of another version reads as a miss.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

import diskcache
from pydantic import BaseModel, ConfigDict, ValidationError

__all__ = [
    "CACHE_FORMAT_VERSION",
    "CacheStats",
    "CachedReply",
    "ReplyCache",
    "cache_key",
    "cache_stats",
    "clear_cache",
]

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
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


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
    cost_usd: float
    """Cost when first made."""
    latency_s: float
    """Seconds the request took when first made."""
    created_at: str
    """UTC time of the original request, ISO 8601."""

    @staticmethod
    def now() -> str:
        """The current UTC time, ISO 8601 (for ``created_at``)."""
        return datetime.now(UTC).isoformat(timespec="seconds")


class ReplyCache:
    """A disk cache of :class:`CachedReply` entries under ``directory`` (diskcache)."""

    def __init__(self, directory: Path | str) -> None:
        self.directory = Path(directory)
        self._cache = diskcache.Cache(str(self.directory))

    def get(self, key: str) -> CachedReply | None:
        """The entry for ``key``; ``None`` if absent, unreadable, or of another version."""
        raw = self._cache.get(key)
        if not isinstance(raw, str):
            return None
        try:
            entry = CachedReply.model_validate_json(raw)
        except ValidationError:
            return None
        return entry if entry.format_version == CACHE_FORMAT_VERSION else None

    def set(self, key: str, entry: CachedReply) -> None:
        """Store ``entry`` under ``key`` as a JSON string."""
        self._cache.set(key, entry.model_dump_json())

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


class CacheStats(BaseModel):
    """What ``hybridjudge cache stats`` reports."""

    model_config = ConfigDict(frozen=True)

    format_version: int = CACHE_FORMAT_VERSION
    """Cache format version this hybridjudge reads."""
    directory: str
    """The cache directory (absolute)."""
    exists: bool
    """False when there is no cache there yet (then everything else is zero)."""
    entries: int
    """Stored replies."""
    size_bytes: int
    """Bytes on disk (every file under the directory)."""
    saved_cost_usd: float
    """What one more hit on every entry would save, in USD (the sum of the original costs)."""
    by_prompt: dict[str, int]
    """Entries per ``model prompt_name@prompt_version``."""


def _disk_size(directory: Path) -> int:
    total = 0
    for root, _dirs, files in os.walk(directory):
        for name in files:
            try:
                total += (Path(root) / name).stat().st_size
            except OSError:
                continue
    return total


def cache_stats(directory: Path | str) -> CacheStats:
    """Entries, size and contents of the cache at ``directory`` (created only if it exists)."""
    path = Path(directory).resolve()
    if not path.is_dir():
        return CacheStats(
            directory=str(path),
            exists=False,
            entries=0,
            size_bytes=0,
            saved_cost_usd=0.0,
            by_prompt={},
        )
    by_prompt: Counter[str] = Counter()
    saved = 0.0
    entries = 0
    with ReplyCache(path) as cache:
        for key in cache._cache.iterkeys():
            entries += 1
            entry = cache.get(str(key))
            if entry is None:
                by_prompt["(unreadable or other format version)"] += 1
                continue
            by_prompt[f"{entry.model} {entry.prompt_name}@{entry.prompt_version}"] += 1
            saved += entry.cost_usd
    return CacheStats(
        directory=str(path),
        exists=True,
        entries=entries,
        size_bytes=_disk_size(path),
        saved_cost_usd=saved,
        by_prompt=dict(sorted(by_prompt.items())),
    )


def clear_cache(directory: Path | str) -> int:
    """Delete every entry of the cache at ``directory``; returns how many were removed."""
    path = Path(directory)
    if not path.is_dir():
        return 0
    with ReplyCache(path) as cache:
        return int(cache._cache.clear())
