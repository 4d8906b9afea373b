"""The embedded model's HTTP server, in this process; also the child process's entry point.

:func:`serve_in_process` serves the verified weights (:mod:`hybridjudge.model._weights`) with the
prebuilt ``xllamacpp`` wheel (llama.cpp's HTTP server compiled into a Python extension) and
exposes an OpenAI-compatible ``/v1/chat/completions`` on 127.0.0.1. :func:`serve_local_model`
adds the checks, the weights and the wait; ``hybridjudge model serve`` and the child process of
:class:`hybridjudge.model.LocalModelServer` both run it. The child is started as::

    python -m hybridjudge.model._server '{"host": "127.0.0.1", "port": 8081, ...}'

(one JSON object of :func:`serve_local_model`'s keyword arguments), so serving the model depends
on the model layer alone: no command-line module, no other subcommand.

JSON-schema output (checked against xllamacpp 2026.10.11549): the OpenAI request shape
``response_format={"type": "json_schema", "json_schema": {"name": ..., "schema": {...}}}`` is
honoured and constrains decoding with a grammar (llguidance), including ``enum``,
``additionalProperties: false`` and ``minItems``/``maxItems``; so are ``response_format={"type":
"json_object", "schema": {...}}`` and a top-level ``json_schema``. ``{"type": "json_object"}``
without a schema only guarantees some JSON object. A schema the grammar compiler cannot handle is
answered with HTTP 400; a reply cut by ``max_tokens`` ends with ``finish_reason="length"`` and
truncated JSON.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from hybridjudge._errors import HybridJudgeError, LocalModelError
from hybridjudge.model._config import LOCAL_MODEL_NAME
from hybridjudge.model._weights import model_file, require_xllamacpp

__all__ = [
    "check_port_free",
    "die_with_parent",
    "main",
    "serve_in_process",
    "serve_local_model",
    "wait_for_parent_exit",
]

_LOCALHOST = "127.0.0.1"
_CTX_PER_SLOT = 4096  # tokens per request slot (prompt + completion) unless n_ctx is given
_CTX_TRAINED = 32768  # Qwen2.5-Coder-1.5B's training context (GGUF metadata n_ctx_train)


def check_port_free(host: str, port: int) -> None:
    """Raise :class:`LocalModelError` when ``host:port`` cannot be bound (in use or forbidden)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        # llama.cpp's HTTP server sets SO_REUSEADDR too, so a port in TIME_WAIT is not "busy".
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise LocalModelError(
                f"cannot serve the local model on {host}:{port}: {exc.strerror or exc} (another "
                "process is listening there?); choose another port, or port 0 to "
                "pick a free one",
                code="local_model_port",
            ) from exc


def _validate_server_options(
    host: str, port: int | None, n_ctx: int, n_parallel: int, n_threads: int
) -> None:
    if port is not None and not 0 <= port <= 65535:
        raise LocalModelError(
            f"port {port} is out of range; give 1-65535, or omit it to pick a free port",
            code="local_model_config",
        )
    if n_parallel < 1:
        raise LocalModelError(
            f"n_parallel must be at least 1, got {n_parallel}",
            code="local_model_config",
        )
    if n_ctx < 512 * n_parallel:
        raise LocalModelError(
            f"n_ctx {n_ctx} leaves {n_ctx // n_parallel} tokens per slot for "
            f"{n_parallel} slots; give at least {512 * n_parallel} (the context is split "
            "across the parallel slots)",
            code="local_model_config",
        )
    if n_ctx // n_parallel > _CTX_TRAINED:
        raise LocalModelError(
            f"n_ctx {n_ctx} gives {n_ctx // n_parallel} tokens per slot, more than the "
            f"{_CTX_TRAINED} the model was trained on; give at most {_CTX_TRAINED * n_parallel}",
            code="local_model_config",
        )
    if n_threads < 1:
        raise LocalModelError(
            f"n_threads must be at least 1, got {n_threads}",
            code="local_model_config",
        )
    if not host:
        raise LocalModelError("host must not be empty; use 127.0.0.1", code="local_model_config")


@contextlib.contextmanager
def serve_in_process(
    model_path: Path,
    *,
    host: str = _LOCALHOST,
    port: int = 0,
    n_ctx: int | None = None,
    n_parallel: int = 2,
    n_threads: int | None = None,
) -> Iterator[str]:
    """Serve ``model_path`` from this process; yields the base URL (``http://host:port/v1``).

    This is what ``hybridjudge model serve`` and the child of :class:`LocalModelServer` run.
    ``port=0`` lets the operating system pick a free port; ``n_ctx`` is the total context split
    across the ``n_parallel`` slots (default 4096 tokens per slot). The native server is released on exit
    from the ``with`` block only as far as ``xllamacpp`` allows; use :class:`LocalModelServer`
    when the memory and the port must really come back.

    Raises:
        LocalModelError: xllamacpp missing, the port busy, or the server failed to start.
    """
    threads = n_threads if n_threads is not None else (os.cpu_count() or 1)
    context = n_ctx if n_ctx is not None else _CTX_PER_SLOT * n_parallel
    _validate_server_options(host, port, context, n_parallel, threads)
    require_xllamacpp()
    if port:
        check_port_free(host, port)
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = str(model_path)
    params.model_alias = {LOCAL_MODEL_NAME}
    params.hostnames = [host]
    params.port = port
    params.n_ctx = context
    params.n_parallel = n_parallel
    params.cpuparams.n_threads = threads
    params.cpuparams_batch.n_threads = threads
    # Keep n_ctx as asked instead of letting llama.cpp shrink/grow it to "fit" device memory.
    params.fit_params = False
    try:
        server = xllamacpp.Server(params)
    except Exception as exc:  # the binding raises plain RuntimeError/ValueError
        raise LocalModelError(
            f"the local model server failed to start on {host}:{port or '(free port)'} with "
            f"{model_path}: {exc}",
            code="local_model_start",
        ) from exc
    address = str(server.listening_address).rstrip("/")
    try:
        yield f"{address}/v1"
    finally:
        del server


def die_with_parent(parent_pid: int | None) -> None:
    """Ask the kernel to kill this process when ``parent_pid`` (its parent) exits (Linux).

    :func:`wait_for_parent_exit` polls from Python, which cannot run while the native server
    holds the interpreter: under load an orphaned server was seen decoding on for minutes after
    its parent was killed. ``PR_SET_PDEATHSIG`` delivers SIGKILL whatever the process is doing.
    Elsewhere (or when ``prctl`` is unavailable) the polling remains the only guard. Exits at once
    when the parent is already gone.
    """
    if parent_pid is None:
        return
    if sys.platform.startswith("linux"):
        import ctypes
        import signal

        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # 1 = PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass  # no prctl: polling only
    if os.getppid() != parent_pid:
        os._exit(0)


def wait_for_parent_exit(parent_pid: int | None, poll_s: float = 1.0) -> None:
    """Sleep until interrupted or, when ``parent_pid`` is given, until that parent is gone."""
    while True:
        if parent_pid is not None and os.getppid() != parent_pid:
            return
        time.sleep(poll_s)


def serve_local_model(
    *,
    host: str = _LOCALHOST,
    port: int = 0,
    n_ctx: int | None = None,
    n_parallel: int = 2,
    n_threads: int | None = None,
    model_dir: Path | None = None,
    parent_pid: int | None = None,
    on_ready: Callable[[str], None] | None = None,
) -> bool:
    """Serve the embedded model until interrupted or, with ``parent_pid``, until that parent exits.

    Checks xllamacpp and the port before touching the 1.1 GB weights, assembles and verifies them
    (:func:`~hybridjudge.model._weights.model_file`), serves them (:func:`serve_in_process`) and
    calls ``on_ready(base_url)`` once the server listens.

    Returns:
        ``True`` when the parent process is gone (the caller should leave at once, without waiting
        for the native server), ``False`` after ``KeyboardInterrupt``.

    Raises:
        LocalModelError: xllamacpp missing, the port busy, the weights missing or corrupt, or
            the server failed to start.
    """
    # fail on bad options, a missing server or a busy port before touching the 1.1 GB weights
    _validate_server_options(
        host,
        port,
        n_ctx if n_ctx is not None else _CTX_PER_SLOT * n_parallel,
        n_parallel,
        n_threads if n_threads is not None else (os.cpu_count() or 1),
    )
    require_xllamacpp()
    if port:
        check_port_free(host, port)
    path = model_file(model_dir)
    with serve_in_process(
        path, host=host, port=port, n_ctx=n_ctx, n_parallel=n_parallel, n_threads=n_threads
    ) as base_url:
        if on_ready is not None:
            on_ready(base_url)
        try:
            wait_for_parent_exit(parent_pid)
        except KeyboardInterrupt:
            return False
        return True


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the child process: ``python -m hybridjudge.model._server OPTIONS_JSON``.

    ``OPTIONS_JSON`` is one JSON object of :func:`serve_local_model`'s keyword arguments
    (``model_dir`` a path string). Prints the base URL on stdout when ready; errors go to stderr
    with exit code 2; exits 0 when interrupted or when the parent process is gone.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        if len(args) != 1:
            raise LocalModelError(
                "expected one argument, a JSON object of serve_local_model's options",
                code="local_model_config",
            )
        try:
            options: dict[str, Any] = json.loads(args[0])
        except json.JSONDecodeError as exc:
            raise LocalModelError(
                f"the options are not JSON ({exc})", code="local_model_config"
            ) from None
        if not isinstance(options, dict):
            raise LocalModelError("the options must be a JSON object", code="local_model_config")
        if options.get("model_dir") is not None:
            options["model_dir"] = Path(options["model_dir"])
        parent = options.get("parent_pid")
        die_with_parent(parent if isinstance(parent, int) else None)

        def ready(base_url: str) -> None:
            print(base_url, flush=True)
            print(
                f"serving {LOCAL_MODEL_NAME} at {base_url} (pid {os.getpid()})",
                file=sys.stderr,
                flush=True,
            )

        parent_gone = serve_local_model(**options, on_ready=ready)
    except (HybridJudgeError, TypeError) as exc:
        print(f"hybridjudge model server: error: {exc}", file=sys.stderr, flush=True)
        return 2
    if parent_gone:
        # Leave at once rather than wait for the native server to finish a request nobody will
        # read; the operating system frees the memory and the port.
        print("parent process gone; exiting", file=sys.stderr, flush=True)
        os._exit(0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
