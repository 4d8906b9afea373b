"""The model client: cache, retries, rate limits, usage and structured output around one
OpenAI-compatible chat-completions endpoint (openai SDK 2.x on httpx, SDK retries off).

Flow of :meth:`ModelClient.complete_structured`::

    key = sha256(canonical request)  --hit-->  reply from disk (usage: cache_hits, saved cost/time)
      | miss
    rate limiter -> semaphore(max_concurrency) -> POST /chat/completions   (tenacity retries:
      | reply                                    408 / 429 / 5xx / connection / timeout,
      |                                          Retry-After up to max_retry_after)
    read the body (JSON object, UTF-8, choices, usage)  -- unreadable -> CallResult("model_error")
      |
    extract JSON -> validate (pydantic)  -- valid -> store reply in the cache, CallResult("ok")
      | invalid
    one repair request (same path) -> valid -> store both replies, ok;
                                      else CallResult("parse_failure"), nothing stored
                                      (keep_invalid=True: both stored, a rerun replays them)

Every failure of one request is that call's ``CallResult(status="model_error")`` with the
reason: 408/429/5xx/connection errors/timeouts after the retries; a 429 or 5xx whose
``Retry-After`` asks for more than ``config.max_retry_after`` seconds at once (the wait asked is
named); any other HTTP status at once (e.g. a 400 from a content filter); and a 200 whose body
cannot be read as a chat completion (not UTF-8, not JSON, nested too deeply, a stream of
server-sent events, no ``choices``). The one exception, the *unusable endpoint* rule: HTTP 401,
403, 404, or a 429 with error code ``insufficient_quota``, while no request of this client has
succeeded yet raises (``ModelAuthError`` / ``ModelHTTPError``), because a wrong key, URL or model,
or an account without quota, fails every request; after one success the same statuses are
per-output failures like any other (never retried). Failed requests are never cached.

Usage: the server's token counts are checked; a reply without ``usage``, or with counts that are
not whole numbers from 0 to 100,000,000, has an unknown cost (``cost_usd=None``, never $0; one
warning per client and reason), and the valid counts are still added. So has a 2xx whose body
cannot be read (it may have been billed). Free models (both prices 0) always cost $0.

Structured output is asked as a strict JSON schema first; when the endpoint rejects the
``response_format`` parameter itself (an HTTP 400/422 whose error ``param`` is
``response_format``, or whose message says that parameter or its type is not supported), the
client falls back to ``json_object`` and then to no ``response_format`` for the rest of its life,
logging one warning per change. A 400 that merely quotes the request (and so mentions
``response_format``) is an ordinary rejection of that one request.

``config.timeout`` is a deadline for the whole request (connect, send, wait, read every byte:
``asyncio.timeout`` around the call), not per read; a server that trickles bytes or never answers
costs at most ``timeout`` per attempt. Each retry is logged as it happens (``logging`` warning on
this module's logger, one record per retry, secrets redacted). Server text (replies, error
messages) is redacted of anything that looks like a key before it is stored or shown.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypedDict, TypeVar, cast

import httpx
import openai
from pydantic import BaseModel
from tenacity import AsyncRetrying, RetryCallState, retry_if_exception, stop_after_attempt

from hybridjudge._errors import (
    ConfigError,
    LocalModelError,
    ModelAuthError,
    ModelConnectionError,
    ModelHTTPError,
    ModelResponseError,
)
from hybridjudge._redact import looks_like_key, redact_secrets, redact_url
from hybridjudge.model._budget import CostBudget, budget_price, worst_case_cost
from hybridjudge.model._cache import CachedReply, ReplyStore, cache_key, open_reply_cache
from hybridjudge.model._config import OPENAI_BASE_URL, ModelConfig
from hybridjudge.model._prices import ModelPrice, price_or_unknown
from hybridjudge.model._retry import (
    BackoffWait,
    TokenBucket,
    is_quota_exhausted,
    is_retryable,
    retry_after_seconds,
)
from hybridjudge.model._structured import (
    FormatMode,
    InvalidReplyError,
    repair_message,
    response_format,
    schema_identity,
    validate_reply,
)
from hybridjudge.model._types import CallResult, Usage

if TYPE_CHECKING:
    from openai.types.chat import ChatCompletionMessageParam

__all__ = ["ChatMessage", "ModelClient", "RateLimiter"]

T = TypeVar("T", bound=BaseModel)

_LOG = logging.getLogger(__name__)

_UNUSABLE_ENDPOINT = (401, 403, 404)
"""Statuses that stop the run while no request has succeeded yet (see the module docstring);
so does a 429 with an exhausted quota (:func:`_unusable_endpoint`)."""

_MAX_TOKENS_PER_CALL = 100_000_000
"""Largest token count believed from a server for one request (no model's context comes
near it); a larger, negative or fractional count is not a count: the call's usage is unknown."""

_CHARS_PER_TOKEN = 4
"""Rough prompt-size estimate for the tokens-per-minute limiter (before the server counts)."""


class ChatMessage(TypedDict):
    """One chat message as sent to the endpoint."""

    role: Literal["system", "user", "assistant"]
    """Who speaks."""
    content: str
    """The message text."""


@dataclass
class _Tally:
    """The running :class:`Usage` of one ``complete_structured`` call (summed with ``Usage.+``)."""

    usage: Usage = field(default_factory=Usage)

    def add(self, **counts: Any) -> None:
        """Add one event's counts (any :class:`Usage` fields) to the running usage."""
        self.usage = self.usage + Usage(**counts)

    def freeze(self) -> Usage:
        """The usage so far."""
        return self.usage


@dataclass(frozen=True)
class _Request:
    """What, besides the messages, identifies one structured request."""

    schema: type[BaseModel]
    max_tokens: int
    prompt_name: str
    prompt_version: str
    repetition: int


@dataclass(frozen=True)
class _Reply:
    content: str
    finish_reason: str | None
    cached: bool
    key: str = ""
    """Cache key of the request (set for a fresh reply)."""
    entry: CachedReply | None = None
    """What to store once the reply proved usable (a fresh reply only; see ``_keep``)."""


@dataclass(frozen=True)
class _Failed:
    error: str


@dataclass(frozen=True)
class _Completion:
    """What one HTTP 200 chat completion said, read from its JSON body."""

    content: str
    finish_reason: str | None
    prompt_tokens: int
    """The valid count (0 when missing or invalid; see ``usage_problem``)."""
    completion_tokens: int
    """The valid count (0 when missing or invalid; see ``usage_problem``)."""
    usage_problem: str | None = None
    """Why the token counts are unknown (then the cost is unknown), else ``None``."""


def _token_count(usage: Mapping[str, Any], name: str) -> tuple[int, str | None]:
    """One token count of a reply's ``usage``: ``(count, None)``, or ``(0, why)`` when it is
    missing or not a plausible count (negative, fractional, not a number, absurdly large)."""
    value = usage.get(name)
    if value is None:
        return 0, f"usage.{name} is missing"
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        return 0, f"usage.{name} is {str(value)[:40]!r}, not a whole number"
    if not 0 <= value <= _MAX_TOKENS_PER_CALL:
        return 0, f"usage.{name} is {value:g}, not a plausible token count"
    return value, None


def _read_usage(body: Mapping[str, Any]) -> tuple[int, int, str | None]:
    """Prompt and completion tokens of a completion body, and why they are unknown (or None)."""
    usage = body.get("usage")
    if not isinstance(usage, Mapping):
        return 0, 0, "the reply carries no usage (token counts)"
    prompt_tokens, prompt_problem = _token_count(usage, "prompt_tokens")
    completion_tokens, completion_problem = _token_count(usage, "completion_tokens")
    problems = [p for p in (prompt_problem, completion_problem) if p]
    return prompt_tokens, completion_tokens, "; ".join(problems) or None


def _unusable_endpoint(exc: openai.APIStatusError) -> bool:
    """A status that fails every request of the run: a key refused (401/403), a model or URL
    that does not exist (404), an account out of quota (429 ``insufficient_quota``)."""
    return exc.status_code in _UNUSABLE_ENDPOINT or is_quota_exhausted(exc)


_ROLES = ("system", "user", "assistant")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _conversation(
    messages: Sequence[ChatMessage] | Sequence[Mapping[str, str]],
) -> list[ChatMessage]:
    """Copy ``messages`` into plain ``{"role", "content"}`` dicts, checking both fields."""
    conversation: list[ChatMessage] = []
    for index, message in enumerate(messages):
        role = message.get("role")
        content = message.get("content")
        if role not in _ROLES:
            raise ValueError(f"message {index}: role must be one of {_ROLES}, got {role!r}")
        if not isinstance(content, str):
            raise ValueError(f"message {index}: content must be a string, got {content!r}")
        # A lone UTF-16 surrogate (user text read leniently) cannot be sent as UTF-8 JSON:
        # replace it with U+FFFD so the request goes out instead of crashing.
        content = _SURROGATE.sub("\ufffd", content)
        conversation.append({"role": cast(Any, role), "content": content})
    return conversation


def _server_message(exc: openai.APIStatusError) -> str:
    body = exc.body
    if isinstance(body, Mapping):
        message = body.get("message")
        if message:
            return redact_secrets(str(message))[:300]
    try:
        text = exc.response.text.strip()
    except (httpx.HTTPError, UnicodeDecodeError):  # pragma: no cover - a body never read
        text = ""
    return redact_secrets(text[:300]) if text else exc.response.reason_phrase


def _apply_check(check: Callable[[T], str | None] | None, value: T) -> None:
    """Raise :class:`InvalidReplyError` when ``check`` rejects a validated ``value``."""
    if check is not None:
        why = check(value)
        if why:
            raise InvalidReplyError(why)


def _key_env_label(name: str) -> str:
    """The ``api_key_env`` value for a message, unless it looks like a key itself."""
    if looks_like_key(name):
        return "the variable named by api_key_env (its value looks like an API key, not a name)"
    return f"${name}"


_FORMAT_WORDS = ("response_format", "response format", "json_schema", "json_object")
_UNSUPPORTED_WORDS = (
    "not supported",
    "unsupported",
    "does not support",
    "doesn't support",
    "not support",
    "unknown",
    "unrecognized",
    "unrecognised",
    "not allowed",
    "not permitted",
    "extra inputs",
    "extra fields",
)


def _rejects_response_format(exc: openai.APIStatusError) -> bool:
    """Whether a 400/422 rejects the ``response_format`` parameter itself: the error's
    ``param`` names it, or its message names it together with "not supported" (or alike).
    A rejection that only quotes the request (a prompt too long, a content filter) is not."""
    if exc.status_code not in (400, 422):
        return False
    param = exc.param if isinstance(exc.param, str) else ""
    if param.split(".", 1)[0].split("[", 1)[0] == "response_format":
        return True
    text = _server_message(exc).lower()
    return any(w in text for w in _FORMAT_WORDS) and any(w in text for w in _UNSUPPORTED_WORDS)


def _prompt_too_long(exc: openai.APIStatusError) -> bool:
    if exc.status_code == 413:
        return True
    if exc.status_code != 400:
        return False
    text = f"{exc.code or ''} {_server_message(exc)}".lower()
    return "context_length" in text or "context length" in text or "maximum context" in text


class RateLimiter(Protocol):
    """What the client awaits before each request: a :class:`~hybridjudge.model._retry.TokenBucket`
    by default, or any object with the same ``acquire`` (e.g. a cluster-wide limiter)."""

    async def acquire(self, amount: float = 1.0) -> float:
        """Take ``amount`` permits, waiting as needed; returns the seconds waited."""
        ...


class ModelClient:
    """An async client for one model; use it as ``async with ModelClient(config) as client``.

    Every structured call goes through the disk cache, the rate limiters, a semaphore of
    ``config.max_concurrency`` (the httpx pool has the same connection limit), tenacity retries and
    at most one repair request. Usage is summed per call, per ``scope`` and in total.

    For ``backend="local"`` the embedded model server is started on the first cache miss only (a
    fully cached rerun never loads the model) and stopped when the client closes.

    Args:
        config: the settings.
        environ: where to read the API key variable (default ``os.environ``).
        request_limiter: limits requests instead of a per-client bucket of
            ``config.requests_per_minute``, e.g. one shared by every worker of a cluster
            (:mod:`hybridjudge.dist`); ``acquire(1)`` is awaited before each request.
        token_limiter: likewise for tokens (``acquire(estimated prompt tokens + max_tokens)``).
        budget: a spending limit (:class:`~hybridjudge.model.CostBudget`, possibly shared with
            other clients of the run): a cache miss whose worst-case cost would cross it is not
            sent, and :meth:`complete_structured` raises
            :class:`~hybridjudge.model.BudgetExhaustedError`. Cache hits are always served.

    Raises:
        ConfigError: the official OpenAI endpoint is configured without a key; a ``budget``
            for a model without a known price (code ``budget_needs_price``: give its prices).
            (Without a budget, a model with no known price and none given runs: its cost is
            reported as unknown, ``None``, never $0, and its tokens are counted.)
    """

    def __init__(
        self,
        config: ModelConfig,
        *,
        environ: Mapping[str, str] | None = None,
        request_limiter: RateLimiter | None = None,
        token_limiter: RateLimiter | None = None,
        budget: CostBudget | None = None,
    ) -> None:
        self.config = config
        self._price: ModelPrice | None = price_or_unknown(config)
        if budget is not None:
            budget_price(config)  # ConfigError: a budget needs the model's price
        self.budget = budget
        """The run's spending limit, or ``None``."""
        env = os.environ if environ is None else environ
        key = env.get(config.api_key_env) or None
        official = (config.base_url or OPENAI_BASE_URL) == OPENAI_BASE_URL
        if config.backend == "openai" and key is None and official:
            if looks_like_key(config.api_key_env):
                raise ConfigError(
                    "no API key: api_key_env takes the NAME of an environment variable, but "
                    "the value given looks like a key itself (not shown); put the key in a "
                    "variable, e.g. export OPENAI_API_KEY=..., and set api_key_env "
                    "(HYBRIDJUDGE_API_KEY_ENV) to OPENAI_API_KEY",
                    code="missing_api_key",
                )
            raise ConfigError(
                f"no API key: the environment variable {config.api_key_env} is not set "
                f"(set it, or name another variable with api_key_env / HYBRIDJUDGE_API_KEY_ENV)",
                code="missing_api_key",
            )
        self._key_missing = key is None
        self.__api_key = key or "not-needed"
        self._secrets = (key, config.api_key_env if looks_like_key(config.api_key_env) else None)
        self._any_success = False
        self._unusable: ModelHTTPError | None = None
        self._cache: ReplyStore | None = None
        self._oai: openai.AsyncOpenAI | None = None
        self._base_url: str | None = None
        self._shown_url: str | None = None
        self._local_server: Any = None
        self._start_error: LocalModelError | None = None
        self._transport_lock = asyncio.Lock()
        self._semaphore = asyncio.Semaphore(config.max_concurrency)
        self._rpm: RateLimiter | None = request_limiter
        if self._rpm is None and config.requests_per_minute:
            self._rpm = TokenBucket(config.requests_per_minute)
        self._tpm: RateLimiter | None = token_limiter
        if self._tpm is None and config.tokens_per_minute:
            self._tpm = TokenBucket(config.tokens_per_minute)
        self._format_mode = FormatMode.JSON_SCHEMA
        self._usage_warned: set[str] = set()
        self._usage = Usage()
        self._by_scope: dict[str, Usage] = {}
        self._in_flight: dict[str, asyncio.Event] = {}
        self._open = False

    def __repr__(self) -> str:
        return (
            f"ModelClient(backend={self.config.backend!r}, model={self.config.model!r}, "
            f"endpoint={self.config.endpoint_identity!r})"
        )

    # -- lifecycle -------------------------------------------------------------------------
    async def __aenter__(self) -> ModelClient:
        self._cache = open_reply_cache(self.config)
        self._open = True
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the HTTP client, stop the local server if this client started it, close the
        cache. Safe to call twice."""
        self._open = False
        oai, self._oai = self._oai, None
        server, self._local_server = self._local_server, None
        cache, self._cache = self._cache, None
        try:
            if oai is not None:
                await oai.close()
        finally:
            try:
                if server is not None:
                    await asyncio.to_thread(server.stop)
            finally:
                if cache is not None:
                    cache.close()

    # -- accounting ------------------------------------------------------------------------
    @property
    def usage(self) -> Usage:
        """Total usage of every call made through this client."""
        return self._usage

    @property
    def usage_by_scope(self) -> dict[str, Usage]:
        """Usage per ``scope`` argument (e.g. one scope per scorer); a copy."""
        return dict(self._by_scope)

    @property
    def format_mode(self) -> FormatMode:
        """How structured output is currently requested (falls back after a rejection)."""
        return self._format_mode

    def _cost(
        self, prompt_tokens: int, completion_tokens: int, *, tokens_known: bool = True
    ) -> float | None:
        if self._price is None:
            return None  # unknown price: cost unknown, never $0
        if not tokens_known:  # unknown tokens: cost unknown, unless every token is free
            free = self._price.input_per_mtok == 0 and self._price.output_per_mtok == 0
            return 0.0 if free else None
        return (
            prompt_tokens * self._price.input_per_mtok
            + completion_tokens * self._price.output_per_mtok
        ) / 1_000_000

    # -- the one public call ---------------------------------------------------------------
    async def complete_structured(
        self,
        messages: Sequence[ChatMessage] | Sequence[Mapping[str, str]],
        schema: type[T],
        *,
        prompt_name: str,
        prompt_version: str,
        repetition: int = 0,
        max_tokens: int | None = None,
        scope: str = "default",
        check: Callable[[T], str | None] | None = None,
        keep_invalid: bool = False,
    ) -> CallResult[T]:
        """Ask the model for one JSON object matching ``schema``.

        Args:
            messages: the chat messages (``role``: system, user or assistant; ``content``).
            schema: the pydantic model the reply must validate against.
            prompt_name: name of the prompt template (part of the cache key).
            prompt_version: version of the prompt template (part of the cache key).
            repetition: repetition index; a different index is a different cache entry, so
                repeated runs measure the model's spread instead of replaying one reply.
            max_tokens: completion budget for this call (default ``config.max_tokens``).
            scope: accounting bucket for :attr:`usage_by_scope` (e.g. the scorer's name).
            check: an extra test of a reply that validated (``None``: usable, else why not).
                A reply it rejects is treated like one that does not parse: one repair
                request, then ``parse_failure``; it is never cached.
            keep_invalid: also cache the reply and its repair when neither validates, so a
                rerun replays the same ``parse_failure`` without a request. For a caller that
                passes the raw reply on to a reader of its own (the peers' proxy: the peer
                library decides what its reply means); the judges leave it off, so a rerun
                asks again exactly the requests that failed.

        Returns:
            ``ok`` with the validated value; ``parse_failure`` with the raw reply and the
            validation error (after one repair request); ``model_error`` when no reply came
            after the allowed retries, the server asked to wait longer than
            ``config.max_retry_after``, the endpoint rejected this request (any HTTP status,
            e.g. a 400 from a content filter, or a prompt too long for the model), or its 2xx
            body is not a readable chat completion (the call is still counted in the usage).

        Raises:
            ModelAuthError: the endpoint answered 401/403 before any request of this client
                succeeded (bad or missing key: every request would fail).
            ModelHTTPError: HTTP 404 (unknown model or bad URL), or 429 ``insufficient_quota``
                (code ``model_quota``: no quota left), before any success.
            LocalModelError: the embedded model cannot start.
            BudgetExhaustedError: a cache miss not sent because of the client's ``budget``
                (its worst-case cost would cross the limit, or the budget is exhausted).
            ValueError: the arguments themselves are unusable (empty messages, an unknown role,
                a negative repetition index).
        """
        if not self._open:
            raise RuntimeError("ModelClient is not open: use 'async with ModelClient(config)'")
        if not messages:
            raise ValueError("complete_structured needs at least one message")
        if not prompt_name or not prompt_version:
            raise ValueError("complete_structured needs a prompt_name and a prompt_version")
        if repetition < 0:
            raise ValueError(f"repetition must be >= 0, got {repetition}")
        budget = self.config.max_tokens if max_tokens is None else max_tokens
        if budget <= 0:
            raise ValueError(f"max_tokens must be positive, got {budget}")
        tally = _Tally()
        conversation = _conversation(messages)
        request = _Request(schema, budget, prompt_name, prompt_version, repetition)
        result: CallResult[T]
        key = self._key(conversation, request)
        async with self._alone(key):
            first = await self._reply(conversation, request, tally, key)
            if isinstance(first, _Failed):
                result = CallResult[T](
                    status="model_error", error=first.error, usage=tally.freeze()
                )
            else:
                result = await self._validate_or_repair(
                    conversation,
                    first,
                    schema,
                    tally=tally,
                    request=request,
                    check=check,
                    keep_invalid=keep_invalid,
                )
        self._usage = self._usage + result.usage
        self._by_scope[scope] = self._by_scope.get(scope, Usage()) + result.usage
        self._log_call(request, scope, result)
        return result

    def _log_call(self, request: _Request, scope: str, result: CallResult[Any]) -> None:
        """One debug record per call: model, prompt, tokens, latency, cache hit, retries (the
        endpoint is shown redacted; no key, no message text)."""
        if not _LOG.isEnabledFor(logging.DEBUG):
            return
        u = result.usage
        fields = {
            "endpoint": self._shown_url,
            "model": self.config.model,
            "prompt": f"{request.prompt_name}@{request.prompt_version}",
            "repetition": request.repetition,
            "scope": scope,
            "status": result.status,
            "prompt_tokens": u.prompt_tokens,
            "completion_tokens": u.completion_tokens,
            "latency_s": round(u.latency_s, 3),
            "cache_hit": u.cache_hits > 0,
            "retries": u.retries,
            "repairs": u.repairs,
        }
        _LOG.debug(
            "model call: %s",
            " ".join(f"{key}={value}" for key, value in fields.items()),
            extra={"model_call": fields},
        )

    async def _validate_or_repair(
        self,
        conversation: list[ChatMessage],
        first: _Reply,
        schema: type[T],
        *,
        tally: _Tally,
        request: _Request,
        check: Callable[[T], str | None] | None = None,
        keep_invalid: bool = False,
    ) -> CallResult[T]:
        try:
            value = validate_reply(first.content, schema, truncated=first.finish_reason == "length")
            _apply_check(check, value)
        except InvalidReplyError as exc:
            reason = str(exc)
            if first.finish_reason == "length" and "finish_reason=length" not in reason:
                reason += " (the reply hit the max_tokens limit: finish_reason=length)"
        else:
            self._keep(first)
            return CallResult[T](
                status="ok",
                value=value,
                raw=first.content,
                usage=tally.freeze(),
                cached=first.cached,
            )
        repair: list[ChatMessage] = [
            *conversation,
            {"role": "assistant", "content": first.content},
            {"role": "user", "content": repair_message(reason, schema)},
        ]
        second = await self._reply(repair, request, tally)
        if not (isinstance(second, _Reply) and second.cached):
            tally.add(repairs=1)  # a repair served from the cache was not sent
        if isinstance(second, _Failed):
            return CallResult[T](
                status="parse_failure",
                raw=first.content,
                error=f"{reason}; the repair request failed: {second.error}",
                usage=tally.freeze(),
                cached=False,
            )
        cached = first.cached and second.cached
        try:
            value = validate_reply(
                second.content, schema, truncated=second.finish_reason == "length"
            )
            _apply_check(check, value)
        except InvalidReplyError as exc:
            second_reason = str(exc)
            if second.finish_reason == "length" and "finish_reason=length" not in second_reason:
                second_reason += " (the reply hit the max_tokens limit: finish_reason=length)"
            if keep_invalid:
                self._keep(first, second)  # replayed as the same failure on a rerun
            return CallResult[T](
                status="parse_failure",
                raw=second.content,
                error=f"{second_reason} (after one repair request; first reply: {reason})",
                usage=tally.freeze(),
                cached=cached,
            )
        self._keep(first, second)  # the pair that led to a valid value
        return CallResult[T](
            status="ok", value=value, raw=second.content, usage=tally.freeze(), cached=cached
        )

    def _keep(self, *replies: _Reply) -> None:
        """Store fresh replies that led to a valid value. A reply that did not validate is not
        cached (unless the caller asked ``keep_invalid``), so a rerun asks again instead of
        replaying the failure."""
        if self._cache is None:
            return
        for reply in replies:
            if reply.entry is not None and not reply.cached:
                self._cache.set(reply.key, reply.entry)

    # -- one reply: cache, then the endpoint -----------------------------------------------
    def _key(self, messages: list[ChatMessage], request: _Request) -> str:
        """The identity of one request: its cache key."""
        config = self.config
        return cache_key(
            {
                "endpoint": config.endpoint_identity,
                "model": config.model,
                "messages": messages,
                "temperature": config.temperature,
                "seed": config.seed,
                "max_tokens": request.max_tokens,
                "response_schema": schema_identity(request.schema),
                "prompt_name": request.prompt_name,
                "prompt_version": request.prompt_version,
                "repetition": request.repetition,
            }
        )

    @contextlib.asynccontextmanager
    async def _alone(self, key: str) -> AsyncIterator[None]:
        """One request of an identity at a time: a caller whose identical request is already in
        flight waits for it, and is then served from the reply cache (a cache hit in its usage)
        instead of sending the same request again. A base answer and its mutants share most of
        their sentences, so the judges often ask the same question for two records at once."""
        while (pending := self._in_flight.get(key)) is not None:
            await pending.wait()
        done = self._in_flight[key] = asyncio.Event()
        try:
            yield
        finally:
            del self._in_flight[key]
            done.set()

    async def _reply(
        self,
        messages: list[ChatMessage],
        request: _Request,
        tally: _Tally,
        key: str | None = None,
    ) -> _Reply | _Failed:
        config = self.config
        key = self._key(messages, request) if key is None else key
        if self._cache is not None:
            entry = self._cache.get(key)
            if entry is not None:
                tally.add(
                    cache_hits=1, saved_cost_usd=entry.cost_usd, saved_latency_s=entry.latency_s
                )
                return _Reply(entry.content, entry.finish_reason, cached=True)
        oai = await self._transport()
        attempts = config.max_retries + 1

        def worth_retrying(exc: BaseException) -> bool:
            """Transient, and the server does not ask for a longer wait than we allow."""
            after = retry_after_seconds(exc)
            return is_retryable(exc) and (after is None or after <= config.max_retry_after)

        retrying = AsyncRetrying(
            stop=stop_after_attempt(attempts),
            wait=BackoffWait(
                initial=config.retry_initial_wait,
                maximum=config.retry_max_wait,
                jitter=config.retry_jitter,
                max_retry_after=config.max_retry_after,
            ),
            retry=retry_if_exception(worth_retrying),
            reraise=True,
            before_sleep=lambda state: self._log_retry(state, tally, attempts, request),
        )
        try:
            async for attempt in retrying:
                with attempt:
                    completion, latency = await self._send(oai, messages, request, tally)
        except openai.APIStatusError as exc:
            after = retry_after_seconds(exc)
            if is_retryable(exc) and after is not None and after > config.max_retry_after:
                return self._failed(
                    f"{self._shown_url} answered HTTP {exc.status_code} "
                    f"({_server_message(exc)}) and asked to wait {after:.6g} s before retrying "
                    f"(Retry-After), longer than max_retry_after {config.max_retry_after:g} s: "
                    "not retried, not cached; a rerun asks again"
                )
            if is_retryable(exc):
                return self._failed(
                    f"{self._shown_url}: gave up after {attempts} attempts; the last was "
                    f"answered HTTP {exc.status_code} ({_server_message(exc)})"
                )
            if _prompt_too_long(exc):
                return self._failed(
                    f"the prompt is too long for model {config.model!r} "
                    f"(HTTP {exc.status_code}: {_server_message(exc)})"
                )
            if _unusable_endpoint(exc) and not self._any_success:
                raise self._unusable or self._config_error(
                    exc, f"prompt {request.prompt_name}@{request.prompt_version}"
                ) from None
            return self._failed(
                f"{self._shown_url} rejected this request with HTTP {exc.status_code} "
                f"({_server_message(exc)}); not retried, not cached: a rerun asks again"
            )
        except openai.APITimeoutError:
            return self._failed(
                f"{self._shown_url}: gave up after {attempts} attempts; the last got no "
                f"complete answer within the {config.timeout:g} s timeout (a deadline for the whole request)"
            )
        except (openai.APIConnectionError, httpx.TransportError) as exc:
            cause = exc.__cause__ or exc
            return self._failed(
                f"could not reach {self._shown_url}: gave up after {attempts} attempts; the "
                f"last failed with {type(cause).__name__}: {cause}"
            )
        except ModelResponseError as exc:
            return self._failed(str(exc))
        self._any_success = True
        content = redact_secrets(completion.content, self._secrets)
        finish_reason = completion.finish_reason
        prompt_tokens, completion_tokens = completion.prompt_tokens, completion.completion_tokens
        if completion.usage_problem is not None:
            self._warn_usage(completion.usage_problem)
        cost = self._cost(
            prompt_tokens, completion_tokens, tokens_known=completion.usage_problem is None
        )
        tally.add(prompt_tokens=prompt_tokens, completion_tokens=completion_tokens, cost_usd=cost)
        entry = CachedReply(
            content=content,
            finish_reason=finish_reason,
            model=config.model,
            endpoint=redact_url(config.endpoint_identity),
            prompt_name=request.prompt_name,
            prompt_version=request.prompt_version,
            repetition=request.repetition,
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            cost_usd=cost,
            latency_s=latency,
            created_at=CachedReply.now(),
        )
        return _Reply(content, finish_reason, cached=False, key=key, entry=entry)

    def _failed(self, message: str) -> _Failed:
        return _Failed(redact_secrets(message, self._secrets))

    def _log_retry(
        self, state: RetryCallState, tally: _Tally, attempts: int, request: _Request
    ) -> None:
        """Count one retry and log it as it happens (one warning, no secrets)."""
        tally.add(retries=1)
        outcome = state.outcome
        exc = outcome.exception() if outcome is not None and outcome.failed else None
        wait = state.next_action.sleep if state.next_action is not None else 0.0
        _LOG.warning(
            "%s: %s attempt %d of %d failed (%s); retrying in %.3g s",
            self._shown_url,
            f"{request.prompt_name}@{request.prompt_version}",
            state.attempt_number,
            attempts,
            redact_secrets(self._describe(exc), self._secrets),
            wait,
        )

    def _describe(self, exc: BaseException | None) -> str:
        if isinstance(exc, openai.APIStatusError):
            return f"HTTP {exc.status_code}: {_server_message(exc)}"
        if isinstance(exc, openai.APITimeoutError):
            return f"no complete answer within the {self.config.timeout:g} s timeout"
        if isinstance(exc, openai.APIConnectionError | httpx.TransportError):
            cause = exc.__cause__ or exc
            return f"{type(cause).__name__}: {cause}"
        return type(exc).__name__ if exc is not None else "unknown"

    async def _send(
        self,
        oai: openai.AsyncOpenAI,
        messages: list[ChatMessage],
        request: _Request,
        tally: _Tally,
    ) -> tuple[_Completion, float]:
        """One attempt: rate limits, the semaphore, the request; falls back on the response
        format if the endpoint rejects it. Returns the completion read and the latency.

        The body is read here, not by the SDK, so that a 200 which is not a chat completion (not
        UTF-8, not JSON, nested too deeply, a stream) is a :class:`ModelResponseError` for this
        one call instead of an exception that escapes the model layer."""
        if self._rpm is not None:
            await self._rpm.acquire(1)
        if self._tpm is not None:
            chars = sum(len(m["content"]) for m in messages)
            await self._tpm.acquire(chars / _CHARS_PER_TOKEN + request.max_tokens)
        while True:
            mode = self._format_mode
            fmt = response_format(request.schema, mode)
            async with self._semaphore:
                if self._unusable is not None:  # a call queued before the endpoint refused
                    raise self._unusable
                reserved = self._reserve(messages, request)  # BudgetExhaustedError: not sent
                billed: float | None = 0.0  # an HTTP error status is not billed
                answered = False
                start = time.monotonic()
                tally.add(calls=1)
                try:
                    async with asyncio.timeout(self.config.timeout):  # whole-request deadline
                        raw = await oai.chat.completions.with_raw_response.create(
                            model=self.config.model,
                            messages=cast("list[ChatCompletionMessageParam]", messages),
                            temperature=self.config.temperature,
                            seed=self.config.seed if self.config.seed is not None else openai.omit,
                            max_tokens=request.max_tokens,
                            response_format=cast(Any, fmt) if fmt is not None else openai.omit,
                        )
                    answered = True
                except TimeoutError:
                    billed = None  # the server may have done the work: its worst case stays
                    raise openai.APITimeoutError(
                        request=httpx.Request("POST", f"{self._base_url}/chat/completions")
                    ) from None
                except (openai.APIConnectionError, httpx.TransportError):
                    billed = None
                    raise
                except openai.APIStatusError as exc:
                    if mode is not FormatMode.NONE and _rejects_response_format(exc):
                        self._fall_back(mode, exc)
                        continue
                    if _unusable_endpoint(exc) and not self._any_success:
                        # noted before the semaphore is released: no queued call is sent
                        self._unusable = self._config_error(
                            exc, f"prompt {request.prompt_name}@{request.prompt_version}"
                        )
                    raise
                finally:
                    elapsed = time.monotonic() - start
                    tally.add(latency_s=elapsed)
                    if not answered:  # an answer is settled below, once its body is read
                        self._settle(reserved, billed)
                try:
                    completion = self._read(self._body(raw.http_response))
                except ModelResponseError:
                    # a 2xx came back, maybe billed: what it cost is unknown, never $0
                    tally.add(cost_usd=self._cost(0, 0, tokens_known=False))
                    self._settle(reserved, None)
                    raise
                known = completion.usage_problem is None
                self._settle(
                    reserved,
                    self._cost(
                        completion.prompt_tokens, completion.completion_tokens, tokens_known=known
                    ),
                )
                return completion, elapsed

    def _reserve(self, messages: list[ChatMessage], request: _Request) -> float:
        """Reserve the worst-case cost of one request in the run's budget (0 without one).

        Raises:
            BudgetExhaustedError: the budget refuses it; nothing is sent.
        """
        if self.budget is None or self._price is None:
            return 0.0
        return self.budget.reserve(
            worst_case_cost(messages, request.max_tokens, self._price),
            f"a request of prompt {request.prompt_name}@{request.prompt_version}",
        )

    def _settle(self, reserved: float, cost: float | None) -> None:
        """Replace a reservation by what the request cost (``None``: unknown, kept at worst)."""
        if self.budget is not None and self._price is not None:
            self.budget.settle(reserved, cost)

    def _fall_back(self, mode: FormatMode, exc: openai.APIStatusError) -> None:
        """Ask for structured output one way less strict from now on (never back up), with one
        warning per change of mode."""
        new = max(self._format_mode, FormatMode(mode + 1))
        if new is not self._format_mode:
            _LOG.warning(
                "%s rejected response_format %s (HTTP %d: %s); asking with %s from now on",
                self._shown_url,
                mode.name.lower(),
                exc.status_code,
                redact_secrets(_server_message(exc), self._secrets),
                "no response_format" if new is FormatMode.NONE else new.name.lower(),
            )
        self._format_mode = new

    def _body(self, response: httpx.Response) -> Mapping[str, Any]:
        """The JSON object of a 2xx body, or ModelResponseError saying what it is instead."""
        where = f"{self._shown_url} answered HTTP {response.status_code}"
        data = response.content
        content_type = response.headers.get("content-type", "").lower()
        if "text/event-stream" in content_type or data.lstrip().startswith(b"data:"):
            raise ModelResponseError(
                f"{where} with a stream of server-sent events to a request that did not ask for "
                "streaming; turn streaming off on the server (or the proxy in front of it)"
            )
        try:
            body = json.loads(data)
        except UnicodeDecodeError as exc:
            raise ModelResponseError(
                f"{where} with a body that is not valid UTF-8 ({exc.reason} at byte "
                f"{exc.start}); is the base URL an OpenAI-compatible /v1 endpoint?"
            ) from None
        except RecursionError:
            raise ModelResponseError(
                f"{where} with a JSON body nested too deeply to read; not a chat completion"
            ) from None
        except ValueError as exc:
            raise ModelResponseError(
                f"{where} with a body that is not JSON ({exc}); is the base URL an "
                "OpenAI-compatible /v1 endpoint?"
            ) from None
        if not isinstance(body, Mapping):
            raise ModelResponseError(
                f"{where} with a JSON {type(body).__name__}, not a chat completion object; is "
                "the base URL an OpenAI-compatible /v1 endpoint?"
            )
        return cast("Mapping[str, Any]", body)

    def _read(self, body: Mapping[str, Any]) -> _Completion:
        """Content, finish reason and token counts of a completion, or ModelResponseError.

        A refusal without content is read as its refusal text. Token counts are checked
        (:func:`_read_usage`): missing or implausible ones make the call's cost unknown.
        """
        choices = body.get("choices")
        if not isinstance(choices, list) or not choices:
            error = body.get("error")
            if isinstance(error, Mapping) and error.get("message"):
                said = redact_secrets(str(error["message"]), self._secrets)[:300]
                raise ModelResponseError(
                    f"{self._shown_url} answered HTTP 200 with an error instead of a "
                    f"completion: {said}"
                )
            raise ModelResponseError(
                f"{self._shown_url} answered without any 'choices': not a chat completion; is the "
                "base URL an OpenAI-compatible /v1 endpoint?"
            )
        first = choices[0]
        if not isinstance(first, Mapping):
            raise ModelResponseError(
                f"{self._shown_url} answered with a choice that is not an object: not a chat "
                "completion; is the base URL an OpenAI-compatible /v1 endpoint?"
            )
        message = first.get("message")
        message = message if isinstance(message, Mapping) else {}
        content = message.get("content")
        if content is None:
            content = message.get("refusal") or ""
        finish_reason = first.get("finish_reason")
        prompt_tokens, completion_tokens, problem = _read_usage(body)
        return _Completion(
            content=str(content),
            finish_reason=finish_reason if isinstance(finish_reason, str) else None,
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            usage_problem=problem,
        )

    def _warn_usage(self, problem: str) -> None:
        """Log once per client and reason that a reply's token counts are unknown."""
        if problem in self._usage_warned:
            return
        self._usage_warned.add(problem)
        _LOG.warning(
            "%s: %s; the cost of such a call is unknown (reported as none, never $0) and only "
            "valid token counts are added (logged once per reason)",
            self._shown_url,
            problem,
        )

    def _config_error(self, exc: openai.APIStatusError, what: str) -> ModelHTTPError:
        status = exc.status_code
        said = _server_message(exc)
        where = f"{self._shown_url} (model {self.config.model!r})"
        if status in (401, 403):
            key_state = "is not set" if self._key_missing else "is set"
            return ModelAuthError(
                redact_secrets(
                    f"{where} refused the request with HTTP {status}: {said}. The API key is "
                    f"read from {_key_env_label(self.config.api_key_env)}, which {key_state}: "
                    "check it, or name another variable with api_key_env",
                    self._secrets,
                ),
                status=status,
            )
        if is_quota_exhausted(exc):
            return ModelHTTPError(
                f"{where} answered HTTP 429 insufficient_quota: {said}. The account behind the "
                "API key has no quota left, so every request would fail: add credit (or raise "
                "its limit), or use another key",
                status=status,
                code="model_quota",
            )
        if status == 404:
            return ModelHTTPError(
                f"{where} answered HTTP 404: {said}. Check model and base_url (an "
                "OpenAI-compatible base URL usually ends in /v1)",
                status=status,
            )
        return ModelHTTPError(
            f"{where} rejected {what} with HTTP {status}: {said}. "
            "Not retried: fix the model settings",
            status=status,
        )

    # -- transport -------------------------------------------------------------------------
    async def _transport(self) -> openai.AsyncOpenAI:
        """The SDK client, created on first use (starting the local server if needed)."""
        if self._oai is not None:
            return self._oai
        async with self._transport_lock:
            if self._oai is not None:
                return self._oai
            if self._start_error is not None:  # do not reload the model for every waiting call
                raise self._start_error
            if self.config.backend == "local":
                try:
                    base_url = await self._start_local()
                except LocalModelError as exc:
                    self._start_error = exc
                    raise
            else:
                base_url = self.config.base_url or OPENAI_BASE_URL
            limit = self.config.max_concurrency
            http_client = openai.DefaultAsyncHttpxClient(
                limits=httpx.Limits(max_connections=limit, max_keepalive_connections=limit),
                timeout=httpx.Timeout(self.config.timeout),
            )
            self._base_url = base_url.rstrip("/")
            self._shown_url = redact_url(self._base_url)
            oai = openai.AsyncOpenAI(
                api_key=self.__api_key,
                base_url=base_url,
                max_retries=0,
                timeout=self.config.timeout,
                http_client=http_client,
            )
            # The SDK imports its resource modules lazily (seconds on a slow machine): do it
            # here, off the event loop, so it is not counted as the first request's latency.
            await asyncio.to_thread(lambda: (oai.chat.completions, oai.models))
            self._oai = oai
            return oai

    async def _start_local(self) -> str:
        try:
            from hybridjudge.model._local import LocalModelServer
        except ImportError as exc:
            from hybridjudge.model._weights import LOCAL_MODEL_HINT

            raise LocalModelError(
                f"the local backend is unavailable ({exc}); {LOCAL_MODEL_HINT}",
                code="local_model_missing",
            ) from None
        server = LocalModelServer(n_parallel=self.config.max_concurrency)
        base_url: str = await asyncio.to_thread(server.start)
        self._local_server = server
        return base_url

    async def list_models(self) -> list[str]:
        """Model ids the endpoint serves (``GET /models``): a cheap pre-flight check.

        Raises:
            ModelAuthError: 401/403.
            ModelHTTPError: another HTTP error.
            ModelConnectionError: the endpoint cannot be reached or timed out.
        """
        oai = await self._transport()
        try:
            page = await oai.models.list()
        except openai.APIStatusError as exc:
            raise self._config_error(exc, "GET /models") from None
        except openai.APIConnectionError as exc:
            cause = exc.__cause__ or exc
            raise ModelConnectionError(
                f"could not reach {self._shown_url}: {type(cause).__name__}: {cause}"
            ) from None
        return [model.id for model in page.data]
