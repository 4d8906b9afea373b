"""Classify failures, then retry: the tenacity policy and the optional rate limiter.

Classification (:func:`is_retryable`): HTTP 408, 429, any 5xx, connection errors and timeouts
are transient and retried with exponential backoff plus jitter, or after the server's
``Retry-After`` (``retry-after-ms``, seconds, or an HTTP-date) when it sends one. Every other HTTP
error is a configuration problem (bad key, unknown model, bad URL) and fails at once, and so do
two 429s that are not transient: an exhausted quota (error code ``insufficient_quota``, see
:func:`is_quota_exhausted`), and a ``Retry-After`` longer than the client will wait (the caller
checks :func:`retry_after_seconds` against its ``max_retry_after``).

A ``Retry-After`` that is not a finite, non-negative number of seconds (``nan``, ``-5``, ``inf``)
or an HTTP-date is ignored: the other header, or exponential backoff, decides the wait.
"""

from __future__ import annotations

import asyncio
import email.utils
import math
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

import httpx
import openai
from tenacity import RetryCallState, wait_exponential_jitter

__all__ = [
    "BackoffWait",
    "TokenBucket",
    "is_quota_exhausted",
    "is_retryable",
    "retry_after_seconds",
]


_QUOTA_CODES = frozenset({"insufficient_quota"})
"""Error codes of a 429 that no wait cures: the account has no quota (or credit) left."""


def is_quota_exhausted(exc: BaseException) -> bool:
    """True for a 429 whose error ``code`` (or ``type``) is ``insufficient_quota``: the account
    is out of quota, so every request fails until someone adds credit; never retried."""
    if not isinstance(exc, openai.APIStatusError) or exc.status_code != 429:
        return False
    return exc.code in _QUOTA_CODES or getattr(exc, "type", None) in _QUOTA_CODES


def is_retryable(exc: BaseException) -> bool:
    """True for 408, 429 (unless the quota is exhausted), 5xx, connection errors and timeouts;
    False for anything else."""
    if isinstance(exc, openai.APIStatusError):
        if is_quota_exhausted(exc):
            return False
        return exc.status_code in (408, 429) or exc.status_code >= 500
    return isinstance(exc, openai.APIConnectionError | httpx.TransportError)


def _seconds(raw: str, scale: float = 1.0) -> float | None:
    """``raw`` as a finite, non-negative number of seconds (``raw / scale``), else None."""
    try:
        value = float(raw) / scale
    except ValueError:
        return None
    if not math.isfinite(value) or value < 0:
        return None
    return value


def retry_after_seconds(exc: BaseException, *, now: datetime | None = None) -> float | None:
    """Seconds the server asked us to wait (``retry-after-ms``, else ``Retry-After`` in seconds
    or as an HTTP-date), else None.

    A header whose value is not a finite, non-negative number (``nan``, ``inf``, ``-5``) or a
    date is ignored, so the other header (or the exponential backoff) decides; a date in the
    past means 0.
    """
    response = getattr(exc, "response", None)
    if not isinstance(response, httpx.Response):
        return None
    headers = response.headers
    raw_ms = headers.get("retry-after-ms")
    if raw_ms is not None:
        seconds = _seconds(raw_ms, 1000.0)
        if seconds is not None:
            return seconds
    raw = headers.get("retry-after")
    if raw is None:
        return None
    seconds = _seconds(raw)
    if seconds is not None:
        return seconds
    try:
        float(raw)
    except ValueError:
        pass
    else:
        return None  # a number, but not a usable one (nan, inf, negative): not a date either
    try:
        when = email.utils.parsedate_to_datetime(raw)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


class BackoffWait:
    """A tenacity wait: the server's ``Retry-After`` (capped at ``max_retry_after``; the client
    does not retry at all when the server asks for longer) if given, else exponential backoff
    with jitter (``tenacity.wait_exponential_jitter``)."""

    def __init__(
        self, *, initial: float, maximum: float, jitter: float, max_retry_after: float
    ) -> None:
        self._exponential = wait_exponential_jitter(multiplier=initial, max=maximum, jitter=jitter)
        self._max_retry_after = max_retry_after

    def __call__(self, retry_state: RetryCallState) -> float:
        outcome = retry_state.outcome
        if outcome is not None and outcome.failed:
            exc = outcome.exception()
            if exc is not None:
                after = retry_after_seconds(exc)
                if after is not None:
                    return min(after, self._max_retry_after)
        return float(self._exponential(retry_state))


class TokenBucket:
    """A token bucket refilled at ``per_minute / 60`` per second, holding at most ``per_minute``.

    ``await bucket.acquire(n)`` waits until ``n`` tokens are available (a request larger than the
    whole bucket waits for a full bucket and then drains it). ``clock`` and ``sleep`` are
    injectable so the waits can be tested without a real clock.
    """

    def __init__(
        self,
        per_minute: float,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        if per_minute <= 0:
            raise ValueError(f"per_minute must be positive, got {per_minute}")
        self.capacity = float(per_minute)
        self.rate = per_minute / 60.0
        self._clock = clock
        self._sleep = sleep
        self._tokens = self.capacity
        self._updated = clock()
        self._lock = asyncio.Lock()

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(self.capacity, self._tokens + (now - self._updated) * self.rate)
        self._updated = now

    async def acquire(self, amount: float = 1.0) -> float:
        """Take ``amount`` tokens, waiting as needed; returns the seconds waited in total."""
        needed = min(float(amount), self.capacity)
        waited = 0.0
        async with self._lock:
            self._refill()
            while self._tokens < needed:
                delay = (needed - self._tokens) / self.rate
                await self._sleep(delay)
                waited += delay
                self._refill()
            self._tokens -= needed
        return waited
