"""A real, scriptable OpenAI-compatible HTTP server on 127.0.0.1 for tests.

:class:`FakeOpenAIServer` runs the stdlib ``ThreadingHTTPServer`` in a background thread on an
ephemeral port. It serves ``POST /v1/chat/completions`` and ``GET /v1/models``, records every
request, and answers chat requests from a *script*:

1. a FIFO queue of :class:`Step` values (``server.script(step, ...)``), consumed one per request;
2. when the queue is empty, a responder function ``fn(request: RecordedRequest) -> Step``
   (``server.respond_with(fn)``), e.g. to answer by looking at the prompt;
3. when neither is set, an HTTP 418 reply that names the problem (``script exhausted``), so a test
   that sends more requests than it scripted fails loudly (the call is a ``model_error`` naming
   the cause, 418 is not retried) instead of hanging. A responder that raises gets the same treatment, and
   its exception is kept in ``server.responder_errors``.

Steps are built with the factory functions below:

==============================  ===============================================================
``reply(content, ...)``         a normal completion (content, token usage, finish_reason, delay)
``json_reply(obj, ...)``        ``reply(json.dumps(obj))``
``truncated_json(obj, n)``      the JSON text of ``obj`` with its last ``n`` characters cut
``rate_limited(retry_after)``   HTTP 429 with a ``Retry-After`` header (seconds or HTTP-date)
``server_error(status=500)``    an HTTP 5xx with an OpenAI-style error body
``http_error(status, msg)``     any HTTP error (401, 403, 400, 404 ...) with an OpenAI error body
``slow(delay, content)``        a normal reply sent only after ``delay`` seconds
``malformed_body()``            HTTP 200 whose body is not JSON at all
``wrong_shape_body()``          HTTP 200 with valid JSON that is not a chat completion
``drop_connection()``           close the socket without sending any response
``trickle(content, every)``     a normal completion whose body bytes arrive one per ``every`` s
``never_answer()``              accept the request and never answer (until the server stops)
``cut_off(content)``            a completion with ``finish_reason="length"``
==============================  ===============================================================

Faults for the fault-injection matrix (``tests/faults``) are these steps, played by a responder
that decides per request (by prompt or output) which requests fail.

Recorded data (all thread-safe to read once the client is done):

- ``server.requests``: every chat request as a :class:`RecordedRequest` (``body`` dict,
  ``headers`` with lower-cased names, ``path``); ``server.request_count`` is its length.
- ``server.max_in_flight``: high-water mark of chat requests being handled at the same time.
- ``server.max_open_connections``: high-water mark of open TCP connections.
- ``server.base_url``: ``http://127.0.0.1:<port>/v1`` (what an OpenAI client takes).

Example::

    from tests.support.openai_server import FakeOpenAIServer, json_reply, rate_limited

    with FakeOpenAIServer() as server:
        server.script(rate_limited(retry_after="0.05"), json_reply({"claims": ["a"]}))
        ...  # point an OpenAI client at server.base_url
        assert server.request_count == 2
        assert server.requests[1].body["model"] == "fake-model"

In tests use the ``openai_server`` fixture from ``tests/conftest.py``, which yields a started
server and stops it afterwards.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

__all__ = [
    "FakeOpenAIServer",
    "RecordedRequest",
    "Responder",
    "Step",
    "cut_off",
    "drop_connection",
    "http_error",
    "json_reply",
    "malformed_body",
    "never_answer",
    "rate_limited",
    "reply",
    "server_error",
    "slow",
    "trickle",
    "truncated_json",
    "wrong_shape_body",
]


@dataclass(frozen=True)
class RecordedRequest:
    """One request the server received."""

    method: str
    """HTTP method."""
    path: str
    """Request path, e.g. ``/v1/chat/completions``."""
    headers: dict[str, str]
    """Request headers, names lower-cased."""
    body: dict[str, Any]
    """The JSON body (empty for GET)."""

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The ``messages`` of a chat request."""
        messages: list[dict[str, Any]] = self.body.get("messages", [])
        return messages

    @property
    def last_user_content(self) -> str:
        """Content of the last user message ('' when there is none)."""
        for message in reversed(self.messages):
            if message.get("role") == "user":
                return str(message.get("content", ""))
        return ""


@dataclass(frozen=True)
class Step:
    """What the server does for one chat request. Build it with the factory functions."""

    status: int = 200
    """HTTP status to send."""
    content: str | None = None
    """Assistant message content; when set, the body is a chat completion built from it."""
    raw_body: bytes | None = None
    """A body sent verbatim instead of a chat completion (errors, malformed bodies)."""
    headers: dict[str, str] = field(default_factory=dict)
    """Extra response headers (e.g. ``Retry-After``)."""
    prompt_tokens: int = 10
    """``usage.prompt_tokens`` of a completion."""
    completion_tokens: int = 5
    """``usage.completion_tokens`` of a completion."""
    finish_reason: str = "stop"
    """``choices[0].finish_reason`` of a completion."""
    delay: float = 0.0
    """Seconds to wait before answering."""
    drop: bool = False
    """Close the connection without any response."""
    trickle: float = 0.0
    """Seconds between body bytes (0: send the body at once)."""


Responder = Callable[[RecordedRequest], Step]
"""A function of the request that returns the step to play."""


def reply(
    content: str,
    *,
    prompt_tokens: int = 10,
    completion_tokens: int = 5,
    finish_reason: str = "stop",
    delay: float = 0.0,
) -> Step:
    """A normal chat completion whose assistant message is ``content``."""
    return Step(
        content=content,
        prompt_tokens=prompt_tokens,
        completion_tokens=completion_tokens,
        finish_reason=finish_reason,
        delay=delay,
    )


def json_reply(obj: Any, **kwargs: Any) -> Step:
    """A normal completion whose content is ``json.dumps(obj)``; kwargs as in :func:`reply`."""
    return reply(json.dumps(obj), **kwargs)


def truncated_json(obj: Any, cut: int = 1, **kwargs: Any) -> Step:
    """A completion whose content is the JSON of ``obj`` without its last ``cut`` characters."""
    text = json.dumps(obj)
    return reply(text[: len(text) - cut], **kwargs)


def _error_body(message: str, error_type: str, code: str | None) -> bytes:
    return json.dumps(
        {"error": {"message": message, "type": error_type, "param": None, "code": code}}
    ).encode()


def http_error(
    status: int,
    message: str = "error injected by the fake server",
    *,
    error_type: str = "invalid_request_error",
    code: str | None = None,
    headers: dict[str, str] | None = None,
) -> Step:
    """An HTTP error with an OpenAI-style ``{"error": {...}}`` body."""
    return Step(
        status=status,
        raw_body=_error_body(message, error_type, code),
        headers=dict(headers or {}),
    )


def rate_limited(retry_after: str | None = "0.05", message: str = "Rate limit reached") -> Step:
    """HTTP 429; ``retry_after`` is the ``Retry-After`` header (seconds or an HTTP-date)."""
    headers = {} if retry_after is None else {"Retry-After": retry_after}
    return http_error(
        429, message, error_type="rate_limit_error", code="rate_limit_exceeded", headers=headers
    )


def server_error(status: int = 500, message: str = "internal server error") -> Step:
    """An HTTP 5xx."""
    return http_error(status, message, error_type="server_error")


def slow(delay: float, content: str = "{}", **kwargs: Any) -> Step:
    """A normal completion sent after ``delay`` seconds (use one longer than the client timeout)."""
    return reply(content, delay=delay, **kwargs)


def malformed_body() -> Step:
    """HTTP 200 with a body that is not JSON."""
    return Step(raw_body=b'{"id": "chatcmpl-broken", "choices": [')


def wrong_shape_body() -> Step:
    """HTTP 200 with valid JSON that is not a chat completion."""
    return Step(raw_body=b'{"result": "this is not a chat completion"}')


def drop_connection() -> Step:
    """Close the connection without sending a response."""
    return Step(drop=True)


def trickle(content: str = "{}", every: float = 0.2, **kwargs: Any) -> Step:
    """A normal completion whose body is sent one byte per ``every`` seconds (headers at once):
    each read gets a byte well within a per-read timeout, the whole takes far longer."""
    return Step(
        content=content,
        trickle=every,
        prompt_tokens=kwargs.get("prompt_tokens", 10),
        completion_tokens=kwargs.get("completion_tokens", 5),
        finish_reason=kwargs.get("finish_reason", "stop"),
    )


def never_answer() -> Step:
    """Accept the request and never answer (the step is woken up when the server stops)."""
    return Step(content="{}", delay=3600.0)


def cut_off(content: str, **kwargs: Any) -> Step:
    """A completion that stopped at the token limit (``finish_reason="length"``)."""
    return reply(content, finish_reason="length", **kwargs)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def setup(self) -> None:
        super().setup()
        self.server.owner._connection_opened()

    def finish(self) -> None:
        try:
            super().finish()
        finally:
            self.server.owner._connection_closed()

    def log_message(self, format: str, *args: Any) -> None:
        """Silence the default stderr access log."""

    def _read_body(self) -> dict[str, Any]:
        length = int(self.headers.get("Content-Length") or 0)
        data = self.rfile.read(length) if length else b""
        if not data:
            return {}
        try:
            parsed = json.loads(data)
        except ValueError:
            return {"_unparsable_body": data.decode("utf-8", "replace")}
        return parsed if isinstance(parsed, dict) else {"_body": parsed}

    def _send(
        self,
        status: int,
        body: bytes,
        headers: dict[str, str] | None = None,
        trickle: float = 0.0,
    ) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            if trickle > 0:
                self.wfile.flush()
                for index in range(len(body)):
                    if self.server.owner._stopping.wait(trickle):
                        self.close_connection = True
                        return
                    self.wfile.write(body[index : index + 1])
                    self.wfile.flush()
            else:
                self.wfile.write(body)
            self.wfile.flush()
        except OSError:
            # The client gave up (timeout) and closed its end: nothing to answer.
            self.close_connection = True

    def do_GET(self) -> None:
        owner = self.server.owner
        if self.path.rstrip("/") != "/v1/models":
            self._send(404, _error_body(f"no route {self.path}", "not_found", None))
            return
        owner._record(RecordedRequest("GET", self.path, _headers(self), {}), chat=False)
        data = [
            {"id": m, "object": "model", "created": 0, "owned_by": "fake"} for m in owner.models
        ]
        self._send(200, json.dumps({"object": "list", "data": data}).encode())

    def do_POST(self) -> None:
        owner = self.server.owner
        body = self._read_body()
        if self.path.rstrip("/") != "/v1/chat/completions":
            self._send(404, _error_body(f"no route {self.path}", "not_found", None))
            return
        request = RecordedRequest("POST", self.path, _headers(self), body)
        number = owner._record(request, chat=True)
        owner._enter()
        try:
            step = owner._next_step(request)
            if step.delay > 0 and owner._stopping.wait(step.delay):
                self.close_connection = True
                return
            if step.drop:
                self.close_connection = True
                return
            if step.raw_body is not None:
                self._send(step.status, step.raw_body, step.headers)
                return
            completion = {
                "id": f"chatcmpl-fake-{number}",
                "object": "chat.completion",
                "created": 0,
                "model": body.get("model", "fake-model"),
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": step.content},
                        "finish_reason": step.finish_reason,
                        "logprobs": None,
                    }
                ],
                "usage": {
                    "prompt_tokens": step.prompt_tokens,
                    "completion_tokens": step.completion_tokens,
                    "total_tokens": step.prompt_tokens + step.completion_tokens,
                },
            }
            self._send(step.status, json.dumps(completion).encode(), step.headers, step.trickle)
        finally:
            owner._leave()


def _headers(handler: BaseHTTPRequestHandler) -> dict[str, str]:
    return {name.lower(): value for name, value in handler.headers.items()}


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False

    def __init__(self, owner: FakeOpenAIServer) -> None:
        self.owner = owner
        super().__init__(("127.0.0.1", 0), _Handler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Connection resets from clients that gave up are expected; keep the log quiet."""


class FakeOpenAIServer:
    """A scripted OpenAI-compatible server on 127.0.0.1 (see the module docstring)."""

    def __init__(self, models: tuple[str, ...] = ("fake-model",)) -> None:
        self.models = list(models)
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._queue: deque[Step] = deque()
        self._responder: Responder | None = None
        self._requests: list[RecordedRequest] = []
        self._other_requests: list[RecordedRequest] = []
        self._responder_errors: list[Exception] = []
        self._in_flight = 0
        self._max_in_flight = 0
        self._open_connections = 0
        self._max_open_connections = 0
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle -------------------------------------------------------------------------
    def start(self) -> str:
        """Bind an ephemeral port, serve in a daemon thread; returns :attr:`base_url`."""
        if self._server is not None:
            return self.base_url
        self._stopping.clear()
        self._server = _Server(self)
        self._thread = threading.Thread(
            target=self._server.serve_forever,
            kwargs={"poll_interval": 0.05},
            name="fake-openai-server",
            daemon=True,
        )
        self._thread.start()
        return self.base_url

    def stop(self) -> None:
        """Stop serving, wake delayed replies, close the listening socket."""
        if self._server is None:
            return
        self._stopping.set()
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._server = None
        self._thread = None

    def __enter__(self) -> FakeOpenAIServer:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    @property
    def port(self) -> int:
        """The bound port (the server must be started)."""
        if self._server is None:
            raise RuntimeError("FakeOpenAIServer is not started; call start() first")
        return int(self._server.server_address[1])

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>/v1``."""
        return f"http://127.0.0.1:{self.port}/v1"

    # -- scripting -------------------------------------------------------------------------
    def script(self, *steps: Step) -> None:
        """Append steps to the queue; each chat request consumes the first one."""
        with self._lock:
            self._queue.extend(steps)

    def respond_with(self, responder: Responder | None) -> None:
        """Answer with ``responder(request)`` whenever the queue is empty (``None`` to unset)."""
        with self._lock:
            self._responder = responder

    def reset(self) -> None:
        """Forget the script, the responder and every recorded request and high-water mark."""
        with self._lock:
            self._queue.clear()
            self._responder = None
            self._requests.clear()
            self._other_requests.clear()
            self._responder_errors.clear()
            self._max_in_flight = self._in_flight
            self._max_open_connections = self._open_connections

    @property
    def pending_steps(self) -> int:
        """Scripted steps not consumed yet."""
        with self._lock:
            return len(self._queue)

    # -- recorded data ---------------------------------------------------------------------
    @property
    def requests(self) -> list[RecordedRequest]:
        """Every chat-completions request received, in arrival order (a copy)."""
        with self._lock:
            return list(self._requests)

    @property
    def request_count(self) -> int:
        """Number of chat-completions requests received."""
        with self._lock:
            return len(self._requests)

    @property
    def other_requests(self) -> list[RecordedRequest]:
        """Requests to routes other than chat completions (``GET /v1/models``)."""
        with self._lock:
            return list(self._other_requests)

    @property
    def responder_errors(self) -> list[Exception]:
        """Exceptions raised by the responder function (each answered with HTTP 418)."""
        with self._lock:
            return list(self._responder_errors)

    @property
    def max_in_flight(self) -> int:
        """Most chat requests being handled at the same time."""
        with self._lock:
            return self._max_in_flight

    @property
    def max_open_connections(self) -> int:
        """Most TCP connections open at the same time."""
        with self._lock:
            return self._max_open_connections

    # -- used by the handler threads -------------------------------------------------------
    def _record(self, request: RecordedRequest, *, chat: bool) -> int:
        with self._lock:
            target = self._requests if chat else self._other_requests
            target.append(request)
            return len(target)

    def _next_step(self, request: RecordedRequest) -> Step:
        with self._lock:
            if self._queue:
                return self._queue.popleft()
            responder = self._responder
        if responder is not None:
            try:
                return responder(request)
            except Exception as exc:
                with self._lock:
                    self._responder_errors.append(exc)
                return http_error(
                    418, f"fake server: responder raised {exc!r}", error_type="responder_error"
                )
        return http_error(
            418,
            "fake server: script exhausted (more requests than scripted steps and no responder)",
            error_type="script_exhausted",
        )

    def _enter(self) -> None:
        with self._lock:
            self._in_flight += 1
            self._max_in_flight = max(self._max_in_flight, self._in_flight)

    def _leave(self) -> None:
        with self._lock:
            self._in_flight -= 1

    def _connection_opened(self) -> None:
        with self._lock:
            self._open_connections += 1
            self._max_open_connections = max(self._max_open_connections, self._open_connections)

    def _connection_closed(self) -> None:
        with self._lock:
            self._open_connections -= 1
