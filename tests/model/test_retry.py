"""Failure classification, Retry-After parsing, the backoff policy and the token bucket.

The exceptions are the openai SDK's own classes built around real ``httpx.Response`` objects.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import httpx
import openai
import pytest
from tenacity import AsyncRetrying, RetryCallState

from hybridjudge.model._retry import (
    BackoffWait,
    TokenBucket,
    is_quota_exhausted,
    is_retryable,
    retry_after_seconds,
)
from tests.support.openai_server import FakeOpenAIServer, rate_limited

REQUEST = httpx.Request("POST", "http://127.0.0.1:1/v1/chat/completions")


def status_error(status: int, headers: dict[str, str] | None = None) -> openai.APIStatusError:
    response = httpx.Response(status, headers=headers, request=REQUEST)
    classes: dict[int, type[openai.APIStatusError]] = {
        400: openai.BadRequestError,
        401: openai.AuthenticationError,
        404: openai.NotFoundError,
        429: openai.RateLimitError,
        500: openai.InternalServerError,
        503: openai.InternalServerError,
    }
    cls = classes.get(status, openai.APIStatusError)
    return cls(f"HTTP {status}", response=response, body=None)


@pytest.mark.parametrize(
    ("exc", "retry"),
    [
        (status_error(429), True),
        (status_error(408), True),  # a request timeout at the server: transient
        (status_error(500), True),
        (status_error(503), True),
        (status_error(400), False),
        (status_error(401), False),
        (status_error(404), False),
        (openai.APIConnectionError(request=REQUEST), True),
        (openai.APITimeoutError(request=REQUEST), True),
        (httpx.ConnectError("refused"), True),
        (ValueError("not a transport problem"), False),
    ],
)
def test_classification(exc: BaseException, retry: bool) -> None:
    assert is_retryable(exc) is retry


def test_retry_after_forms() -> None:
    assert retry_after_seconds(status_error(429, {"Retry-After": "0.05"})) == 0.05
    assert retry_after_seconds(status_error(429, {"retry-after-ms": "250"})) == 0.25
    now = datetime(2026, 1, 1, 12, 0, 0, tzinfo=UTC)
    dated = status_error(429, {"Retry-After": "Thu, 01 Jan 2026 12:00:07 GMT"})
    assert retry_after_seconds(dated, now=now) == 7.0
    past = status_error(429, {"Retry-After": "Thu, 01 Jan 2026 11:00:00 GMT"})
    assert retry_after_seconds(past, now=now) == 0.0
    assert retry_after_seconds(status_error(429, {"Retry-After": "soon"})) is None
    assert retry_after_seconds(status_error(429)) is None
    assert retry_after_seconds(ValueError("no response")) is None


def state_after(exc: BaseException, attempt: int) -> RetryCallState:
    state = RetryCallState(retry_object=AsyncRetrying(), fn=None, args=(), kwargs={})
    state.attempt_number = attempt
    state.set_exception((type(exc), exc, None))
    return state


def test_backoff_prefers_retry_after_and_caps_it() -> None:
    wait = BackoffWait(initial=0.5, maximum=3.0, jitter=0.0, max_retry_after=10.0)
    assert wait(state_after(status_error(429, {"Retry-After": "2"}), 1)) == 2.0
    assert wait(state_after(status_error(429, {"Retry-After": "3600"}), 1)) == 10.0


def test_backoff_without_retry_after_doubles_up_to_the_maximum() -> None:
    # wait_exponential_jitter with jitter 0: initial * 2 ** (attempt - 1), capped
    wait = BackoffWait(initial=0.5, maximum=3.0, jitter=0.0, max_retry_after=10.0)
    waits = [wait(state_after(status_error(500), n)) for n in range(1, 6)]
    assert waits == [0.5, 1.0, 2.0, 3.0, 3.0]


def test_backoff_jitter_stays_within_its_bound() -> None:
    wait = BackoffWait(initial=1.0, maximum=100.0, jitter=0.5, max_retry_after=10.0)
    for _ in range(50):
        assert 1.0 <= wait(state_after(status_error(500), 1)) <= 1.5


class FakeClock:
    """A clock that only moves when the bucket sleeps."""

    def __init__(self) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


def test_token_bucket_waits_exactly_for_the_missing_tokens() -> None:
    clock = FakeClock()
    bucket = TokenBucket(60, clock=clock, sleep=clock.sleep)  # 1 token per second

    async def scenario() -> list[float]:
        waits = [await bucket.acquire(60)]  # a full bucket: no wait
        waits.append(await bucket.acquire(1))  # empty: wait 1 s for one token
        clock.now += 10  # 10 idle seconds refill 10 tokens
        waits.append(await bucket.acquire(12))  # 2 missing: wait 2 s
        waits.append(await bucket.acquire(500))  # larger than the bucket: wait for a full one
        return waits

    assert asyncio.run(scenario()) == [0.0, 1.0, 2.0, 60.0]
    assert clock.sleeps == [1.0, 2.0, 60.0]


def test_token_bucket_rejects_a_non_positive_rate() -> None:
    with pytest.raises(ValueError, match="positive"):
        TokenBucket(0)


def test_retry_after_is_read_from_a_real_sdk_exception(openai_server: FakeOpenAIServer) -> None:
    openai_server.script(rate_limited("0.05"))

    async def call() -> openai.RateLimitError:
        async with openai.AsyncOpenAI(
            base_url=openai_server.base_url, api_key="k", max_retries=0
        ) as client:
            try:
                await client.chat.completions.create(
                    model="fake-model", messages=[{"role": "user", "content": "x"}]
                )
            except openai.RateLimitError as exc:
                return exc
        raise AssertionError("the server was scripted to answer 429")

    exc = asyncio.run(call())
    assert retry_after_seconds(exc) == 0.05
    wait = BackoffWait(initial=30.0, maximum=60.0, jitter=0.0, max_retry_after=10.0)
    assert wait(state_after(exc, 1)) == 0.05  # the server's 0.05 s, not the 30 s backoff


def quota_error() -> openai.APIStatusError:
    response = httpx.Response(429, request=REQUEST)
    body = {"message": "You exceeded your current quota", "code": "insufficient_quota"}
    return openai.RateLimitError("HTTP 429", response=response, body=body)


def test_an_exhausted_quota_is_not_transient() -> None:
    exc = quota_error()
    assert exc.code == "insufficient_quota"
    assert is_quota_exhausted(exc)
    assert not is_retryable(exc)
    assert not is_quota_exhausted(status_error(429))  # an ordinary rate limit
    assert not is_quota_exhausted(status_error(500))


@pytest.mark.parametrize(
    "headers",
    [
        {"Retry-After": "nan"},
        {"Retry-After": "-5"},
        {"Retry-After": "inf"},
        {"Retry-After": "-inf"},
        {"retry-after-ms": "nan"},
        {"retry-after-ms": "-1"},
        {"retry-after-ms": "soon"},
    ],
)
def test_invalid_retry_after_values_are_ignored(headers: dict[str, str]) -> None:
    assert retry_after_seconds(status_error(429, headers)) is None
    # and the wait falls back to exponential backoff, never to 0
    wait = BackoffWait(initial=0.5, maximum=3.0, jitter=0.0, max_retry_after=10.0)
    assert wait(state_after(status_error(429, headers), 2)) == 1.0


@pytest.mark.parametrize("ms", ["-1", "nan", "inf", "x"])
def test_an_invalid_retry_after_ms_falls_back_to_a_valid_retry_after(ms: str) -> None:
    exc = status_error(429, {"retry-after-ms": ms, "Retry-After": "2"})
    assert retry_after_seconds(exc) == 2.0


def test_a_valid_retry_after_ms_still_wins() -> None:
    exc = status_error(429, {"retry-after-ms": "250", "Retry-After": "2"})
    assert retry_after_seconds(exc) == 0.25
    assert retry_after_seconds(status_error(429, {"Retry-After": "0"})) == 0.0
