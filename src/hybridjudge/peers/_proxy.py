"""An OpenAI-compatible chat-completions endpoint on 127.0.0.1 backed by our :class:`ModelClient`.

The peer libraries (RAGAS, DeepEval) talk to an OpenAI-compatible endpoint with their own SDK
clients. Pointing them at this proxy sends every one of their requests through
:meth:`hybridjudge.model.ModelClient.complete_structured`, so their calls are cached, retried,
rate limited, counted and timed exactly like our judges' calls, and a rerun is served from the
cache without a request.

Layout: one background thread runs an asyncio event loop that owns the :class:`ModelClient`;
a stdlib ``ThreadingHTTPServer`` in a second thread accepts the peers' requests and hands each to
that loop (``asyncio.run_coroutine_threadsafe``). The peers may therefore call from any thread or
event loop, sync or async.

Each evaluation opens a :class:`ProxySession` (its own base URL ``http://127.0.0.1:PORT/<token>/v1``)
that records the usage and the outcome of every request it made, so the adapter can tell a peer
failure caused by the model (``model_error``, ``parse_failure``) from one of the peer itself.

A request is answered:

- ``200`` with the model's reply text as the completion content when the call is ``ok``, or a
  ``parse_failure`` (the peer sees the invalid reply and fails on it; the session records it);
- ``400`` with an OpenAI-style error body for a ``model_error`` (400 is not retried by the peers'
  SDKs: our client already retried), an unknown token or a request the proxy cannot serve
  (streaming, ``n > 1``, non-text content).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import secrets
import threading
import time
from collections.abc import Mapping
from concurrent.futures import Future
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from hybridjudge.model import (
    BudgetExhaustedError,
    CallResult,
    CostBudget,
    ModelClient,
    ModelConfig,
    Usage,
)

__all__ = ["PEER_PROMPT_VERSION", "PeerProxy", "ProxyCall", "ProxySession"]

_LOG = logging.getLogger(__name__)

PEER_PROMPT_VERSION = "1"
"""Bumped when the proxy changes how a peer request maps to a model call (part of cache keys)."""

_ROLE_MAP = {"system": "system", "developer": "system", "user": "user", "assistant": "assistant"}


class _AnyObject(BaseModel):
    """Any JSON object: the peer validates its own schema; we only require JSON."""

    model_config = ConfigDict(extra="allow")


@dataclass(frozen=True)
class ProxyCall:
    """One request a peer made through the proxy, and what our client made of it."""

    status: Literal["ok", "parse_failure", "model_error", "rejected", "budget_exhausted"]
    """``ok``: a reply that parses as a JSON object; ``parse_failure``: not JSON even after one
    repair (the peer got the raw text); ``model_error``: no usable reply; ``rejected``: the proxy
    could not serve the request at all (see :attr:`error`); ``budget_exhausted``: not sent, the
    run's ``--max-cost`` was reached (the peer got an HTTP 400)."""
    error: str | None
    """Why it is not ``ok``."""
    usage: Usage
    """Usage of this request (calls, tokens, cost, latency, cache hits)."""


@dataclass
class ProxySession:
    """The requests of one peer evaluation (one base URL)."""

    token: str
    """Path prefix identifying the session."""
    scope: str
    """Usage scope in the model client (the peer's name)."""
    repetition: int
    """Repetition index passed to every call (part of the cache key)."""
    base_url: str
    """What to give the peer's OpenAI client: ``http://127.0.0.1:PORT/<token>/v1``."""
    calls: list[ProxyCall] = field(default_factory=list)
    """Every request of the session, in the order they finished."""
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(self, call: ProxyCall) -> None:
        """Record one finished request (thread-safe)."""
        with self._lock:
            self.calls.append(call)

    @property
    def usage(self) -> Usage:
        """Summed usage of the session's requests."""
        with self._lock:
            total = Usage()
            for call in self.calls:
                total = total + call.usage
            return total

    def first_failure(self) -> ProxyCall | None:
        """The first request that was not ``ok``, preferring model errors over parse failures."""
        with self._lock:
            calls = list(self.calls)
        for status in ("budget_exhausted", "model_error", "rejected", "parse_failure"):
            for call in calls:
                if call.status == status:
                    return call
        return None


def _text(content: Any) -> str | None:
    """Message content as text: a string, or the text parts of a content list."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts: list[str] = []
        for part in content:
            if not isinstance(part, Mapping) or part.get("type") != "text":
                return None
            text = part.get("text")
            if not isinstance(text, str):
                return None
            parts.append(text)
        return "".join(parts)
    return None


@dataclass(frozen=True)
class _Parsed:
    messages: list[dict[str, str]]
    max_tokens: int | None
    format_identity: str


def _parse_request(body: Any) -> _Parsed | str:
    """The messages, budget and response-format identity of a chat request, or why not."""
    if not isinstance(body, Mapping):
        return "the request body is not a JSON object"
    if body.get("stream"):
        return "streaming is not supported by the hybridjudge peer proxy"
    if body.get("n") not in (None, 1):
        return "n > 1 is not supported by the hybridjudge peer proxy"
    raw_messages = body.get("messages")
    if not isinstance(raw_messages, list) or not raw_messages:
        return "the request has no messages"
    messages: list[dict[str, str]] = []
    for index, message in enumerate(raw_messages):
        if not isinstance(message, Mapping):
            return f"message {index} is not an object"
        role = _ROLE_MAP.get(str(message.get("role")))
        text = _text(message.get("content"))
        if role is None or text is None:
            return f"message {index}: only system/user/assistant text messages are supported"
        messages.append({"role": role, "content": text})
    budget = body.get("max_completion_tokens") or body.get("max_tokens")
    max_tokens = budget if isinstance(budget, int) and budget > 0 else None
    fmt = body.get("response_format")
    identity = json.dumps(fmt, sort_keys=True, ensure_ascii=False, default=str)
    return _Parsed(messages, max_tokens, hashlib.sha256(identity.encode()).hexdigest()[:12])


def _completion(model: str, content: str, usage: Usage) -> dict[str, Any]:
    return {
        "id": f"chatcmpl-hybridjudge-{secrets.token_hex(6)}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
                "logprobs": None,
            }
        ],
        "usage": {
            "prompt_tokens": usage.prompt_tokens,
            "completion_tokens": usage.completion_tokens,
            "total_tokens": usage.prompt_tokens + usage.completion_tokens,
        },
    }


class _Handler(BaseHTTPRequestHandler):
    server: _HTTPServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        _LOG.debug("peer proxy: " + format, *args)

    def _send_json(self, status: int, payload: Mapping[str, Any]) -> None:
        data = json.dumps(payload, ensure_ascii=False).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _error(self, status: int, message: str) -> None:
        self._send_json(
            status,
            {"error": {"message": message, "type": "hybridjudge_proxy_error", "code": None}},
        )

    def do_GET(self) -> None:
        proxy = self.server.proxy
        if self.path.endswith("/v1/models"):
            model = proxy.config.model or "local"
            self._send_json(200, {"object": "list", "data": [{"id": model, "object": "model"}]})
        else:
            self._error(404, f"unknown path {self.path}")

    def do_POST(self) -> None:
        proxy = self.server.proxy
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        parts = self.path.strip("/").split("/")
        session = proxy._sessions.get(parts[0]) if parts else None
        if session is None or parts[1:] != ["v1", "chat", "completions"]:
            self._error(404, f"unknown path {self.path}: not a session of this proxy")
            return
        try:
            body = json.loads(raw)
        except ValueError:
            body = None
        parsed = _parse_request(body)
        if isinstance(parsed, str):
            session.add(ProxyCall("rejected", parsed, Usage()))
            self._error(400, parsed)
            return
        try:
            result = proxy._call(session, parsed)
        except BudgetExhaustedError as exc:  # --max-cost: this output only, the run goes on
            session.add(ProxyCall("budget_exhausted", str(exc), Usage()))
            self._error(400, str(exc))
            return
        except Exception as exc:  # a whole-run error (bad key, local model cannot start)
            message = f"{type(exc).__name__}: {exc}"
            proxy._record_fatal(exc)
            session.add(ProxyCall("model_error", message, Usage()))
            self._error(400, message)
            return
        if result.status == "model_error":
            session.add(ProxyCall("model_error", result.error, result.usage))
            self._error(400, result.error or "model error")
            return
        status: Literal["ok", "parse_failure"] = "ok" if result.status == "ok" else "parse_failure"
        session.add(ProxyCall(status, result.error, result.usage))
        model = str(body.get("model") or proxy.config.model or "local")
        self._send_json(200, _completion(model, result.raw or "", result.usage))


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, proxy: PeerProxy) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.proxy = proxy


class PeerProxy:
    """Serve the peers' chat requests through one :class:`ModelClient`.

    Use as ``with PeerProxy(config) as proxy:``; :meth:`session` gives each evaluation its own
    base URL. Closing stops the server, closes the client (and its cache) and the loop thread.

    Args:
        config: the model settings, the same as our judges'.
        client_factory: builds the client (tests and the distributed runner pass their own).
        budget: the run's spending limit, given to the client (``budget=``) when set: a
            request it refuses is answered HTTP 400 and recorded as ``budget_exhausted``.
    """

    def __init__(
        self,
        config: ModelConfig,
        *,
        client_factory: type[ModelClient] = ModelClient,
        budget: CostBudget | None = None,
    ):
        self.config = config
        self._factory = client_factory
        self._budget = budget
        self._sessions: dict[str, ProxySession] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._loop_thread: threading.Thread | None = None
        self._client: ModelClient | None = None
        self._server: _HTTPServer | None = None
        self._server_thread: threading.Thread | None = None
        self._fatal: BaseException | None = None

    # -- lifecycle -------------------------------------------------------------------------
    def start(self) -> PeerProxy:
        """Start the loop thread, open the client, start the HTTP server. Returns ``self``."""
        loop = asyncio.new_event_loop()
        self._loop = loop
        self._loop_thread = threading.Thread(
            target=loop.run_forever, name="hybridjudge-peer-proxy-loop", daemon=True
        )
        self._loop_thread.start()
        try:
            # ConfigError: e.g. no API key, a budget for a model without a price
            client = (
                self._factory(self.config)
                if self._budget is None
                else self._factory(self.config, budget=self._budget)
            )
            asyncio.run_coroutine_threadsafe(client.__aenter__(), loop).result()
        except BaseException:
            self.stop()  # no thread left behind
            raise
        self._client = client
        self._server = _HTTPServer(self)
        self._server_thread = threading.Thread(
            target=self._server.serve_forever, name="hybridjudge-peer-proxy", daemon=True
        )
        self._server_thread.start()
        return self

    def stop(self) -> None:
        """Stop the server, close the client and the loop. Safe to call twice."""
        server, self._server = self._server, None
        if server is not None:
            server.shutdown()
            server.server_close()
        loop, self._loop = self._loop, None
        client, self._client = self._client, None
        if loop is not None:
            try:
                if client is not None:
                    asyncio.run_coroutine_threadsafe(client.aclose(), loop).result()
            finally:
                loop.call_soon_threadsafe(loop.stop)
                if self._loop_thread is not None:
                    self._loop_thread.join()
                loop.close()

    def __enter__(self) -> PeerProxy:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    # -- use -------------------------------------------------------------------------------
    @property
    def port(self) -> int:
        """The TCP port on 127.0.0.1."""
        if self._server is None:
            raise RuntimeError("PeerProxy is not started: use 'with PeerProxy(config) as proxy'")
        return int(self._server.server_address[1])

    def session(self, scope: str, repetition: int = 0) -> ProxySession:
        """A new session (its own base URL) whose calls count under ``scope``."""
        token = secrets.token_hex(8)
        session = ProxySession(
            token=token,
            scope=scope,
            repetition=repetition,
            base_url=f"http://127.0.0.1:{self.port}/{token}/v1",
        )
        self._sessions[token] = session
        return session

    def close_session(self, session: ProxySession) -> None:
        """Forget a finished session (its URL answers 404 afterwards)."""
        self._sessions.pop(session.token, None)

    @property
    def usage(self) -> Usage:
        """Total usage of every call made through the proxy."""
        return self._client.usage if self._client is not None else Usage()

    @property
    def usage_by_scope(self) -> dict[str, Usage]:
        """Usage per scope (per peer)."""
        return self._client.usage_by_scope if self._client is not None else {}

    def raise_fatal(self) -> None:
        """Re-raise a whole-run error (bad key, unknown model, local model that cannot start)
        that a request hit, so the caller stops instead of recording every output unscored."""
        if self._fatal is not None:
            raise self._fatal

    def _record_fatal(self, exc: BaseException) -> None:
        if self._fatal is None:
            self._fatal = exc

    def _call(self, session: ProxySession, parsed: _Parsed) -> CallResult[_AnyObject]:
        if self._client is None or self._loop is None:
            raise RuntimeError("PeerProxy is not started")
        coroutine = self._client.complete_structured(
            parsed.messages,
            _AnyObject,
            prompt_name=f"peer-{session.scope}",
            prompt_version=f"{PEER_PROMPT_VERSION}-{parsed.format_identity}",
            repetition=session.repetition,
            max_tokens=parsed.max_tokens,
            scope=session.scope,
            # the peer reads the reply, not us: an unusable one is replayed on a rerun like
            # any other (temperature 0 would give it again), so a cached rerun sends nothing
            keep_invalid=True,
        )
        future: Future[CallResult[_AnyObject]] = asyncio.run_coroutine_threadsafe(
            coroutine, self._loop
        )
        return future.result()
