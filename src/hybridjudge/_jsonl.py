"""The one JSONL reader: every JSON Lines file hybridjudge reads goes through here.

A utility module below every stage (corpus files, mutation files, case lines, retrieval runs and
qrels). It reads bytes, so it also knows the exact bytes a caller may hash, and gives each
non-blank line either its parsed JSON value or a :class:`~hybridjudge.CaseFileError` that names
the file and the 1-based line number, so a caller can report one bad line and go on (case lines)
or stop at the first (a corpus file, where every record matters).

A line is bad, never a traceback, when it is:

- not UTF-8 (the byte offset is named); a UTF-8 byte-order mark at the start of the file is
  dropped, as spreadsheet exports write one;
- not JSON, or JSON with ``NaN``/``Infinity`` (not JSON by RFC 8259);
- nested deeper than :data:`MAX_DEPTH` arrays/objects (Python's parser would raise
  ``RecursionError`` past about 1,000);
- an integer of more than 4,300 digits (``int`` refuses to convert it: ``ValueError``);
- a string with a lone UTF-16 surrogate escape (``"\\ud800"``): it cannot be written back as
  UTF-8, so it would fail later, far from its line;
- longer than the record limit, or holding a string longer than the field limit
  (:class:`~hybridjudge._limits.ReadLimits`, code ``record_too_large`` / ``field_too_large``).
  A file is read in blocks (:func:`bounded_lines`), so a 200 MB line costs memory bounded by the
  limit, never by the line; a file past the file limit is refused (``file_too_large``).
"""

from __future__ import annotations

import itertools
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Protocol, TypeVar

from pydantic import BaseModel, ValidationError

from hybridjudge._errors import CaseFileError
from hybridjudge._limits import DEFAULT_LIMITS, ReadLimits, format_size, too_large

__all__ = [
    "MAX_DEPTH",
    "JsonLine",
    "OversizeLine",
    "bounded_lines",
    "check_value",
    "describe_validation",
    "iter_json_lines",
    "open_bounded",
    "parse_json_line",
    "read_bytes",
    "read_json_lines",
    "validate_line",
]

M = TypeVar("M", bound=BaseModel)

MAX_DEPTH = 64
"""Most nested arrays/objects a line may hold (real records need fewer than ten)."""

_BOM = b"\xef\xbb\xbf"
_SURROGATE = re.compile("[\ud800-\udfff]")
_BLOCK = 1 << 20
"""Bytes read at a time: a line longer than the record limit is dropped block by block."""


@dataclass(frozen=True, slots=True)
class OversizeLine:
    """A line longer than the record limit, in place of its bytes (which were not kept)."""

    size: int
    """Its length in bytes (without the line break)."""


class _Digest(Protocol):
    def update(self, data: bytes, /) -> None: ...


@dataclass(frozen=True, slots=True)
class JsonLine:
    """One non-blank line: its number and either its JSON ``value`` or its ``error``."""

    line: int
    """1-based line number in the file."""
    value: Any
    """The parsed JSON value (``None`` when ``error`` is set; JSON ``null`` is also ``None``)."""
    error: CaseFileError | None
    """Why the line is unusable, naming the file and the line; ``None`` for a good line."""

    @property
    def ok(self) -> bool:
        """True when the line parsed."""
        return self.error is None


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON; write the number or null")


def check_value(value: Any, max_field: int | None = None) -> tuple[str, str | None, int] | None:
    """Walk a parsed value without recursion: ``(reason, top-level field, string size)`` when it
    is too deep, has a surrogate (size 0 for both), or a string longer than *max_field* UTF-8
    bytes. ``None`` skips that check: a caller whose whole input is no longer than the limit
    passes none (a decoded JSON string is never longer than its text), so the common case walks
    the value once, as cheaply as before the limit."""
    if max_field is not None:
        found = _long_string(value, max_field)
        if found is not None:
            return found
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if not item.isascii() and _SURROGATE.search(item):
                return (
                    "a string holds a lone UTF-16 surrogate (\\ud800-\\udfff); fix the escape",
                    None,
                    0,
                )
        elif isinstance(item, dict | list):
            if depth > MAX_DEPTH:
                return f"nested deeper than {MAX_DEPTH} levels of arrays/objects", None, 0
            if isinstance(item, dict):
                for key, child in item.items():
                    stack.append((key, depth + 1))
                    stack.append((child, depth + 1))
            else:
                stack.extend((child, depth + 1) for child in item)
    return None


def _long_string(value: Any, max_field: int) -> tuple[str, str | None, int] | None:
    """The first string of *value* longer than *max_field* UTF-8 bytes, as :func:`check_value`
    reports it (depth is left to that walk: past :data:`MAX_DEPTH` this one stops descending)."""
    quarter = max_field // 4
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if len(item) > quarter:  # its UTF-8 bytes counted without a copy when ASCII
                size = len(item) if item.isascii() else len(item.encode("utf-8", "surrogatepass"))
                if size > max_field:
                    return f"a string of {format_size(size)}", _field_of(value, item), size
        elif isinstance(item, dict | list) and depth <= MAX_DEPTH:
            children = [*item.keys(), *item.values()] if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return None


def _field_of(value: Any, target: str) -> str | None:
    """The top-level key of *value* (an object) under which the string *target* is (by
    identity), or ``None``."""
    if not isinstance(value, dict):
        return None
    for key, child in value.items():
        stack = [key, child]
        while stack:
            item = stack.pop()
            if item is target:
                return str(key)
            if isinstance(item, dict):
                stack.extend(item.keys())
                stack.extend(item.values())
            elif isinstance(item, list):
                stack.extend(item)
    return None


def parse_json_line(
    raw: bytes | str,
    *,
    path: str | None = None,
    line: int = 1,
    allow_nan: bool = False,
    object_pairs_hook: Callable[[list[tuple[str, Any]]], Any] | None = None,
    limits: ReadLimits = DEFAULT_LIMITS,
) -> JsonLine:
    """Parse one line of JSON (bytes are decoded as UTF-8); never raises for bad content.

    ``allow_nan=True`` accepts ``NaN``/``Infinity`` (Python's extension of JSON), for a reader whose
    format documents them (e.g. scores); by default they make the line bad.
    ``object_pairs_hook`` builds each object, as for :func:`json.loads` (a reader that must see
    a key listed twice passes one). A line longer than ``limits.max_record_bytes`` or with a
    string longer than ``limits.max_field_bytes`` is bad (codes ``record_too_large``,
    ``field_too_large``).
    """
    is_bytes = isinstance(raw, bytes)
    # an upper bound on the line's UTF-8 bytes (a character is at most 4)
    size = len(raw) if is_bytes else 4 * len(raw)
    if size > limits.max_record_bytes:
        exact = size if is_bytes else len(str(raw).encode("utf-8", "surrogatepass"))
        if exact > limits.max_record_bytes:
            return JsonLine(line, None, _oversize(exact, limits, path, line))
    if isinstance(raw, bytes):
        if line == 1 and raw.startswith(_BOM):
            raw = raw[len(_BOM) :]
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            return JsonLine(
                line,
                None,
                _bad(
                    f"not valid UTF-8 (byte {exc.start}); re-encode the file as UTF-8", path, line
                ),
            )
    else:
        text = raw.removeprefix("\ufeff") if line == 1 else raw
    try:
        value = json.loads(
            text,
            parse_constant=None if allow_nan else _refuse_constant,
            object_pairs_hook=object_pairs_hook,
        )
    except json.JSONDecodeError as exc:
        return JsonLine(
            line,
            None,
            _bad(
                f"invalid JSON at column {exc.colno}: {exc.msg}; each line must be one JSON value",
                path,
                line,
            ),
        )
    except RecursionError:
        return JsonLine(
            line, None, _bad(f"nested deeper than {MAX_DEPTH} levels of arrays/objects", path, line)
        )
    except ValueError as exc:  # NaN/Infinity, or an integer past int's 4,300-digit limit
        reason = str(exc)
        if "integer string conversion" in reason or "digits" in reason:
            reason = "an integer has more than 4,300 digits; write it as a string"
        return JsonLine(line, None, _bad(reason, path, line))
    # no string can be longer than the line it is written on: most lines skip the field check
    problem = check_value(value, limits.max_field_bytes if size > limits.max_field_bytes else None)
    if problem is not None:
        reason, field, size = problem
        if size:
            error = too_large(
                "field", reason, limits.max_field_bytes, path=path, line=line, field=field
            )
            return JsonLine(line, None, error)
        return JsonLine(line, None, _bad(reason, path, line))
    return JsonLine(line, value, None)


def _oversize(size: int, limits: ReadLimits, path: str | None, line: int) -> CaseFileError:
    return too_large(
        "record",
        f"the line has {format_size(size)}",
        limits.max_record_bytes,
        path=path,
        line=line,
    )


def _bad(message: str, path: str | None, line: int) -> CaseFileError:
    return CaseFileError(message, path=path, line=line)


def iter_json_lines(
    lines: Iterable[bytes | str | OversizeLine],
    *,
    path: str | None = None,
    allow_nan: bool = False,
    object_pairs_hook: Callable[[list[tuple[str, Any]]], Any] | None = None,
    limits: ReadLimits = DEFAULT_LIMITS,
) -> Iterator[JsonLine]:
    """Parse every non-blank line of ``lines`` (numbered from 1, blank lines counted); the
    keyword arguments as for :func:`parse_json_line`. An :class:`OversizeLine` (from
    :func:`bounded_lines`) is a bad line (code ``record_too_large``)."""
    for number, raw in enumerate(lines, start=1):
        if isinstance(raw, OversizeLine):
            yield JsonLine(number, None, _oversize(raw.size, limits, path, number))
            continue
        if number == 1:
            raw = raw[len(_BOM) :] if isinstance(raw, bytes) and raw.startswith(_BOM) else raw
            raw = raw.removeprefix("\ufeff") if isinstance(raw, str) else raw
        if not raw.strip():
            continue
        yield parse_json_line(
            raw,
            path=path,
            line=number,
            allow_nan=allow_nan,
            object_pairs_hook=object_pairs_hook,
            limits=limits,
        )


def open_bounded(
    path: str | Path,
    *,
    hint: str = "check the path",
    limits: ReadLimits = DEFAULT_LIMITS,
    what: str = "",
    action: str = "open",
) -> IO[bytes]:
    """``path`` opened for reading bytes, once its size is known to be within
    ``limits.max_file_bytes`` (a file whose size the system cannot tell, such as a pipe, is
    counted as it is read: :func:`bounded_lines`, :func:`read_bytes`). The error for a file that
    cannot be opened reads ``cannot <action><what>: <reason>; <hint>`` (*what*: ``" the case
    file"`` or empty).

    Raises:
        CaseFileError: the file cannot be opened (``hint`` says how to fix it), or is larger
            than the file limit (code ``file_too_large``).
    """
    p = Path(path)
    try:
        handle = p.open("rb")
    except IsADirectoryError:
        raise CaseFileError(f"is a folder, not a file; {hint}", path=str(p)) from None
    except OSError as exc:
        raise CaseFileError(
            f"cannot {action}{what}: {exc.strerror or exc}; {hint}", path=str(p)
        ) from None
    try:
        size = os.fstat(handle.fileno()).st_size
    except OSError:
        size = 0
    if size > limits.max_file_bytes:
        handle.close()
        raise _file_too_large(size, limits, str(p))
    return handle


def _file_too_large(size: int, limits: ReadLimits, path: str) -> CaseFileError:
    return too_large("file", f"the file has {format_size(size)}", limits.max_file_bytes, path=path)


def read_bytes(
    path: str | Path,
    *,
    hint: str = "check the path",
    limits: ReadLimits = DEFAULT_LIMITS,
    what: str = "",
) -> bytes:
    """The bytes of ``path`` (at most ``limits.max_file_bytes``).

    Raises:
        CaseFileError: the file cannot be read (the message names it, the reason and ``hint``),
            or is larger than the file limit (code ``file_too_large``).
    """
    p = Path(path)
    with open_bounded(p, hint=hint, limits=limits, what=what, action="read") as handle:
        try:
            data = handle.read(limits.max_file_bytes + 1)
        except OSError as exc:
            raise CaseFileError(
                f"cannot read: {exc.strerror or exc}; {hint}", path=str(p)
            ) from None
    if len(data) > limits.max_file_bytes:
        raise _file_too_large(len(data), limits, str(p))
    return data


def bounded_lines(
    handle: IO[bytes],
    *,
    path: str | None = None,
    limits: ReadLimits = DEFAULT_LIMITS,
    digest: _Digest | None = None,
    keepends: bool = False,
) -> Iterator[bytes | OversizeLine]:
    """The lines of ``handle`` without their line breaks (``\\n``, ``\\r\\n`` or ``\\r``, as
    :meth:`bytes.splitlines`), read a block at a time: a line longer than
    ``limits.max_record_bytes`` is an :class:`OversizeLine`, its bytes dropped as they are read,
    so memory stays bounded by the limit whatever the line. ``digest`` (e.g. a
    ``hashlib.sha256()``) is updated with every byte read; with ``keepends`` each line keeps
    its line break (the limit still counts the line without it).

    Raises:
        CaseFileError: more than ``limits.max_file_bytes`` were read (code ``file_too_large``).
    """
    # the lines of a block are handed over as one list and chained in C: per line, the reader
    # costs what iterating bytes.splitlines() costs
    blocks = _line_blocks(handle, path=path, limits=limits, digest=digest, keepends=keepends)
    return itertools.chain.from_iterable(blocks)


def _line_blocks(
    handle: IO[bytes],
    *,
    path: str | None,
    limits: ReadLimits,
    digest: _Digest | None,
    keepends: bool,
) -> Iterator[list[bytes | OversizeLine]]:
    """The lines of :func:`bounded_lines`, a list per block read."""
    max_record = limits.max_record_bytes
    total = 0
    pending: list[bytes] = []  # the start of a line that goes on in the next block
    pending_size = 0
    skipped = 0  # > 0: the bytes of an oversize line dropped so far
    while True:
        block = handle.read(_BLOCK)
        while block.endswith(b"\r"):  # keep a CR LF pair in one block
            more = handle.read(1)
            if not more:
                break
            block += more
        if not block:
            break
        total += len(block)
        if total > limits.max_file_bytes:
            raise _file_too_large(total, limits, path or "input")
        if digest is not None:
            digest.update(block)
        # splitlines in C; the lines are looked at one by one only when one may be too long
        lines = block.splitlines(keepends)
        tail = b"" if block.endswith((b"\n", b"\r")) else lines.pop()
        start = 0
        if lines and skipped:  # the end of an oversize line
            yield [OversizeLine(skipped + _body_size(lines[0], keepends))]
            skipped = 0
            start = 1
        elif lines and pending:  # the end of a line begun in an earlier block
            pending.append(lines[0])
            lines[0] = b"".join(pending)
            pending.clear()
            pending_size = 0
        if start < len(lines):
            rest = lines[start:] if start else lines
            if max(map(len, rest)) > max_record:
                yield [
                    OversizeLine(size)
                    if (size := _body_size(line, keepends)) > max_record
                    else line
                    for line in rest
                ]
            else:
                yield list(rest)  # a list of bytes is a list of bytes | OversizeLine
        if tail:
            if skipped:
                skipped += len(tail)
            else:
                pending.append(tail)
                pending_size += len(tail)
                if pending_size > max_record:
                    skipped = pending_size
                    pending.clear()
                    pending_size = 0
    if skipped:
        yield [OversizeLine(skipped)]
    elif pending:
        yield [b"".join(pending)]


def _body_size(line: bytes, keepends: bool) -> int:
    """The length of *line* without its line break."""
    if not keepends:
        return len(line)
    return len(line) - (2 if line.endswith(b"\r\n") else 1 if line.endswith((b"\n", b"\r")) else 0)


def read_json_lines(
    path: str | Path,
    *,
    hint: str = "check the path",
    limits: ReadLimits = DEFAULT_LIMITS,
    digest: _Digest | None = None,
    what: str = "",
) -> Iterator[JsonLine]:
    """Stream the non-blank lines of the JSONL file ``path`` as :class:`JsonLine` items, read
    within ``limits`` (:func:`bounded_lines`; ``digest`` is updated with every byte read).

    Raises:
        CaseFileError: only when the file itself cannot be opened (``hint`` says how to fix it)
            or is past the file limit; a bad line (also one past the record or field limit) is
            yielded with its error so the other lines are still read.
    """
    p = Path(path)
    with open_bounded(p, hint=hint, limits=limits, what=what) as handle:
        lines = bounded_lines(handle, path=str(p), limits=limits, digest=digest)
        yield from iter_json_lines(lines, path=str(p), limits=limits)


def describe_validation(exc: ValidationError) -> tuple[str | None, str]:
    """The first offending field (dotted) and a one-line message for a pydantic error."""
    first = exc.errors()[0]
    loc = first.get("loc", ())
    field = ".".join(str(p) for p in loc) if loc else None
    msg = first.get("msg", "invalid value")
    if first.get("type") == "missing":
        msg = "required field is missing; add it"
    elif first.get("type") == "extra_forbidden":
        msg = "unknown field; remove it or check its spelling"
    count = len(exc.errors())
    if count > 1:
        msg += f" (and {count - 1} more problem{'s' if count > 2 else ''} on this line)"
    return field, msg


def validate_line(item: JsonLine, model: type[M], *, path: str | None = None) -> M:
    """The record of a parsed line as ``model``.

    Raises:
        CaseFileError: the line did not parse, or does not fit ``model`` (naming the line, the
            case id when the record has a string ``id``, and the first offending field).
    """
    if item.error is not None:
        raise item.error
    try:
        return model.model_validate(item.value)
    except ValidationError as exc:
        field, msg = describe_validation(exc)
        value = item.value
        case_id = value.get("id") if isinstance(value, dict) else None
        raise CaseFileError(
            msg,
            path=path,
            line=item.line,
            case_id=case_id if isinstance(case_id, str) else None,
            field=field,
        ) from None
