"""Value types of the model-call layer: usage accounting and the outcome of one structured call.

These are the contract between :mod:`hybridjudge.model` (which alone talks to a model) and its
callers (the judges). A call never raises for a bad reply: it returns a :class:`CallResult` whose
``status`` says what happened.
"""

from __future__ import annotations

from typing import Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict

__all__ = ["CallResult", "CallStatus", "Usage", "add_costs"]

T = TypeVar("T", bound=BaseModel)

CallStatus = Literal["ok", "parse_failure", "model_error"]
"""``ok``: a reply that validated against the schema; ``parse_failure``: the model answered but
the reply (and its one repair) did not validate; ``model_error``: no usable reply after retries."""


def add_costs(a: float | None, b: float | None) -> float | None:
    """A sum of costs is unknown as soon as one of them is."""
    return None if a is None or b is None else a + b


class Usage(BaseModel):
    """Usage of one or more model calls; ``a + b`` sums every field."""

    model_config = ConfigDict(frozen=True)

    calls: int = 0
    """HTTP requests that reached the endpoint (retries and repairs included; cache hits not)."""
    cache_hits: int = 0
    """Calls answered from the disk cache."""
    retries: int = 0
    """Requests repeated after a retryable failure (429, 5xx, connection error, timeout)."""
    repairs: int = 0
    """Repair requests sent after an unparsable reply."""
    prompt_tokens: int = 0
    """Prompt tokens billed by the endpoint (cache hits add none)."""
    completion_tokens: int = 0
    """Completion tokens billed by the endpoint (cache hits add none)."""
    cost_usd: float | None = 0.0
    """Cost from the price table (cache hits add none); ``None`` when the model's price is
    unknown, or the server's token counts are (no ``usage``, an implausible count, a 2xx body
    that could not be read): never reported as $0; the valid tokens are still counted."""
    latency_s: float = 0.0
    """Wall seconds spent waiting on the endpoint (``time.monotonic`` around each request)."""
    saved_cost_usd: float | None = 0.0
    """Cost the cache hits would have had when first made (``None``: price unknown)."""
    saved_latency_s: float = 0.0
    """Seconds the cache hits took when first made."""

    def __add__(self, other: Usage) -> Usage:
        if not isinstance(other, Usage):
            return NotImplemented
        return Usage(
            calls=self.calls + other.calls,
            cache_hits=self.cache_hits + other.cache_hits,
            retries=self.retries + other.retries,
            repairs=self.repairs + other.repairs,
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            cost_usd=add_costs(self.cost_usd, other.cost_usd),
            latency_s=self.latency_s + other.latency_s,
            saved_cost_usd=add_costs(self.saved_cost_usd, other.saved_cost_usd),
            saved_latency_s=self.saved_latency_s + other.saved_latency_s,
        )

    @property
    def total_tokens(self) -> int:
        """Prompt plus completion tokens."""
        return self.prompt_tokens + self.completion_tokens


class CallResult(BaseModel, Generic[T]):
    """The outcome of one structured model call (after cache, retries and at most one repair)."""

    model_config = ConfigDict(frozen=True)

    status: CallStatus
    """What happened; only ``ok`` carries a ``value``."""
    value: T | None = None
    """The validated reply when ``status == "ok"``."""
    raw: str | None = None
    """The raw reply text (the last one, after a repair), kept for ``parse_failure``."""
    error: str | None = None
    """Why it is not ``ok``: the validation error or the model error, one line."""
    usage: Usage = Usage()
    """Usage of this call, its retries and its repair."""
    cached: bool = False
    """True when served from the disk cache (then ``usage.calls == 0``)."""
