"""The embedded offline judge as a child process: :class:`LocalModelServer`.

Why a child process: ``xllamacpp.Server`` has no ``stop()``; its HTTP server and model live in
native threads that are released only when the object is garbage-collected, and Python gives no
guarantee of when that happens (a traceback or a cycle keeps it alive with its 2 GB). So
:class:`LocalModelServer` runs the model layer's own server entry point
(``python -m hybridjudge.model._server``, see :mod:`hybridjudge.model._server`) as a child
process: ``stop()`` terminates it, and the operating system returns the memory and the port at
once, whatever state the native code is in. The child also exits by itself when its parent
disappears, so a killed judge run never leaves a 2 GB orphan behind. The weights are
:mod:`hybridjudge.model._weights`.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import weakref
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from hybridjudge._errors import LocalModelError
from hybridjudge.model._config import LOCAL_MODEL_NAME
from hybridjudge.model._server import (
    _CTX_PER_SLOT,
    _LOCALHOST,
    _validate_server_options,
    check_port_free,
)
from hybridjudge.model._weights import model_file, require_xllamacpp

__all__ = ["LocalModelServer"]


def _free_port(host: str) -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((host, 0))
        port: int = probe.getsockname()[1]
        return port


def _tail(path: Path, limit: int = 2000) -> str:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    tail = "\n".join(lines[-12:])
    return tail[-limit:]


def _terminate(process: subprocess.Popen[bytes], grace_s: float = 10.0) -> None:
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=grace_s)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


class LocalModelServer:
    """The embedded model served over HTTP on 127.0.0.1 by a child process.

    ``start()`` assembles and verifies the weights (:func:`model_file`), starts the model layer's
    server entry point in a child process (``python -m hybridjudge.model._server``, which imports
    no command-line module) and returns once ``/health`` answers 200;
    ``stop()`` terminates the child, which frees its memory (about 2 GB) and its port. Use it as
    a context manager::

        with LocalModelServer() as server:
            client = openai.OpenAI(base_url=server.base_url, api_key="local")

    Start at most one per machine at a time: each holds the whole model in memory.

    Args:
        host: interface to bind; keep the default 127.0.0.1 (the server has no API key).
        port: TCP port; ``None`` picks a free one. A busy explicit port raises
            :class:`LocalModelError` before anything is loaded.
        n_ctx: total context in tokens, split evenly across the ``n_parallel`` slots
            (llama.cpp's ``-c``); default 4096 per slot, so 8192 with 2 slots. Each request
            (prompt + completion) must fit in one slot; a longer prompt gets HTTP 400.
        n_parallel: request slots decoded together (continuous batching).
        n_threads: CPU threads; default ``os.cpu_count()``, the fastest on an otherwise idle
            machine. When other processes keep the cores busy, pass 1: this wheel's OpenMP
            threads then wait on each other, and on 2 shared cores 1 thread generated 5-7x
            faster than 2 (0.9 vs 6.3 tokens/s measured).
        model_dir: where the assembled model lives; default :func:`default_model_dir`.
        startup_timeout_s: how long ``start()`` waits for ``/health``.
    """

    def __init__(
        self,
        *,
        host: str = _LOCALHOST,
        port: int | None = None,
        n_ctx: int | None = None,
        n_parallel: int = 2,
        n_threads: int | None = None,
        model_dir: Path | None = None,
        startup_timeout_s: float = 180.0,
    ) -> None:
        self.host = host
        self.port = port
        self.n_ctx = n_ctx if n_ctx is not None else _CTX_PER_SLOT * n_parallel
        self.n_parallel = n_parallel
        self.n_threads = n_threads if n_threads is not None else (os.cpu_count() or 1)
        self.model_dir = model_dir
        self.startup_timeout_s = startup_timeout_s
        _validate_server_options(host, port, self.n_ctx, n_parallel, self.n_threads)
        self._process: subprocess.Popen[bytes] | None = None
        self._base_url: str | None = None
        self._finalizer: weakref.finalize[Any, Any] | None = None

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1`` of the running server.

        Raises:
            LocalModelError: the server is not running.
        """
        if self._base_url is None or self._process is None or self._process.poll() is not None:
            raise LocalModelError(
                "the local model server is not running; call start() or use it in a with block",
                code="local_model_not_running",
            )
        return self._base_url

    @property
    def pid(self) -> int | None:
        """Process id of the serving child, or ``None`` when stopped."""
        return self._process.pid if self._process is not None else None

    @property
    def running(self) -> bool:
        """True while the child process is alive."""
        return self._process is not None and self._process.poll() is None

    def start(self) -> str:
        """Start the server and block until it answers; return its base URL.

        Raises:
            LocalModelError: the extra is missing, the checksum fails, the port is busy, the
                child exits early (its log tail is in the message) or ``/health`` does not
                answer within ``startup_timeout_s``.
        """
        if self.running:
            return self.base_url
        self.stop()  # reap a child that died since the last start
        require_xllamacpp()
        if self.port is not None:
            check_port_free(self.host, self.port)  # fail before touching 1.1 GB
        path = model_file(self.model_dir)
        port = self.port if self.port is not None else _free_port(self.host)
        workdir = tempfile.TemporaryDirectory(prefix="hybridjudge-model-")
        log_path = Path(workdir.name) / "server.log"
        options = {
            "host": self.host,
            "port": port,
            "n_ctx": self.n_ctx,
            "n_parallel": self.n_parallel,
            "n_threads": self.n_threads,
            "model_dir": str(path.parent),
            "parent_pid": os.getpid(),
        }
        # the model layer's own entry point: no command-line module, no other subcommand
        command = [sys.executable, "-m", "hybridjudge.model._server", json.dumps(options)]
        try:
            with log_path.open("wb") as log:
                process = subprocess.Popen(
                    command, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT
                )
        except OSError as exc:
            workdir.cleanup()
            raise LocalModelError(
                f"could not start the local model server ({sys.executable}): {exc}",
                code="local_model_start",
            ) from exc
        self._process = process
        self._finalizer = weakref.finalize(self, _cleanup, process, workdir)
        base_url = f"http://{self.host}:{port}/v1"
        try:
            self._wait_ready(process, base_url, log_path)
        except BaseException:
            self.stop()
            raise
        self._base_url = base_url
        return base_url

    def _wait_ready(self, process: subprocess.Popen[bytes], base_url: str, log: Path) -> None:
        import httpx

        health = base_url.removesuffix("/v1") + "/health"
        deadline = time.monotonic() + self.startup_timeout_s
        with httpx.Client(timeout=2.0, trust_env=False) as client:
            while True:
                code = process.poll()
                if code is not None:
                    raise LocalModelError(
                        f"the local model server exited with code {code} before it was ready; "
                        f"its log ends with:\n{_tail(log)}",
                        code="local_model_start",
                    )
                try:
                    if client.get(health).status_code == 200:
                        return
                except httpx.TransportError:
                    pass  # not listening yet
                if time.monotonic() > deadline:
                    raise LocalModelError(
                        f"the local model server did not answer {health} within "
                        f"{self.startup_timeout_s:.0f} s; its log ends with:\n{_tail(log)}",
                        code="local_model_start",
                    )
                time.sleep(0.2)

    def stop(self) -> None:
        """Terminate the server process (idempotent); its memory and port are freed."""
        if self._finalizer is not None:
            self._finalizer()
            self._finalizer = None
        self._process = None
        self._base_url = None

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()

    def __repr__(self) -> str:
        state = f"running at {self._base_url}" if self.running else "stopped"
        return f"LocalModelServer({LOCAL_MODEL_NAME!r}, {state})"


def _cleanup(process: subprocess.Popen[bytes], workdir: tempfile.TemporaryDirectory[str]) -> None:
    _terminate(process)
    workdir.cleanup()
