"""One rate limiter for the whole cluster: a Ray actor handing out request and token permits.

Every judge worker's :class:`~hybridjudge.model.ModelClient` awaits a permit from the same actor
before each request (retries and repairs included), so ``requests_per_minute`` and
``tokens_per_minute`` hold for the cluster as a whole, however many workers there are. The
buckets hold one second's worth of permits (``burst_s``), so the rate holds over any window
longer than a second, not only over a minute. Concurrency is split instead (each of ``n``
workers may have ``max_concurrency // n`` requests in flight), which needs no round trip and
cannot leak a slot when a worker dies.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

__all__ = ["Bucket", "LimiterActor", "RemoteLimiter", "start_limiter"]


class Bucket:
    """A token bucket: ``per_minute / 60`` permits a second, at most ``burst_s`` seconds' worth.

    A request larger than the bucket waits for a full bucket and takes it all.
    """

    def __init__(self, per_minute: float, *, burst_s: float = 1.0) -> None:
        self.rate = per_minute / 60.0
        self.capacity = max(1.0, self.rate * burst_s)
        self._tokens = self.capacity
        self._updated = time.monotonic()
        self._lock = asyncio.Lock()

    async def acquire(self, amount: float = 1.0) -> float:
        """Take ``amount`` permits, waiting as needed; returns the seconds waited."""
        needed = min(float(amount), self.capacity)
        waited = 0.0
        async with self._lock:
            while True:
                now = time.monotonic()
                self._tokens = min(self.capacity, self._tokens + (now - self._updated) * self.rate)
                self._updated = now
                if self._tokens >= needed:
                    self._tokens -= needed
                    return waited
                delay = (needed - self._tokens) / self.rate
                await asyncio.sleep(delay)
                waited += delay


class LimiterActor:
    """The actor's class (wrapped by :func:`start_limiter`): one bucket per limited quantity."""

    def __init__(
        self, requests_per_minute: float | None, tokens_per_minute: float | None, burst_s: float
    ) -> None:
        self._buckets: dict[str, Bucket] = {}
        if requests_per_minute:
            self._buckets["requests"] = Bucket(requests_per_minute, burst_s=burst_s)
        if tokens_per_minute:
            self._buckets["tokens"] = Bucket(tokens_per_minute, burst_s=burst_s)
        self.granted: dict[str, float] = {"requests": 0.0, "tokens": 0.0}

    async def acquire(self, kind: str, amount: float) -> float:
        """Wait for ``amount`` permits of ``kind`` (``requests`` or ``tokens``)."""
        bucket = self._buckets.get(kind)
        waited = 0.0 if bucket is None else await bucket.acquire(amount)
        self.granted[kind] = self.granted.get(kind, 0.0) + amount
        return waited

    async def stats(self) -> dict[str, float]:
        """Permits granted so far, per kind."""
        return dict(self.granted)


def start_limiter(
    requests_per_minute: float | None, tokens_per_minute: float | None, *, burst_s: float = 1.0
) -> Any:
    """Start the limiter actor (no CPU reserved; restarted by Ray if its process dies)."""
    import ray

    actor_class = ray.remote(num_cpus=0, max_restarts=-1, max_task_retries=-1)(LimiterActor)
    return actor_class.options(max_concurrency=10_000).remote(
        requests_per_minute, tokens_per_minute, burst_s
    )


class RemoteLimiter:
    """A worker's view of one quantity of the limiter actor (what the model client awaits)."""

    def __init__(self, actor: Any, kind: str) -> None:
        self._actor = actor
        self._kind = kind

    async def acquire(self, amount: float = 1.0) -> float:
        """Ask the actor for ``amount`` permits and wait until it grants them."""
        waited: float = await self._actor.acquire.remote(self._kind, amount)
        return waited
