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
  UTF-8, so it would fail later, far from its line.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from hybridjudge._errors import CaseFileError

__all__ = [
    "MAX_DEPTH",
    "JsonLine",
    "describe_validation",
    "iter_json_lines",
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


def _check_value(value: Any) -> str | None:
    """Walk a parsed value without recursion; a reason when it is too deep or has a surrogate."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if not item.isascii() and _SURROGATE.search(item):
                return "a string holds a lone UTF-16 surrogate (\\ud800-\\udfff); fix the escape"
        elif isinstance(item, dict | list):
            if depth > MAX_DEPTH:
                return f"nested deeper than {MAX_DEPTH} levels of arrays/objects"
            if isinstance(item, dict):
                for key, child in item.items():
                    stack.append((key, depth + 1))
                    stack.append((child, depth + 1))
            else:
                stack.extend((child, depth + 1) for child in item)
    return None


def parse_json_line(
    raw: bytes | str,
    *,
    path: str | None = None,
    line: int = 1,
    allow_nan: bool = False,
    object_pairs_hook: Callable[[list[tuple[str, Any]]], Any] | None = None,
) -> JsonLine:
    """Parse one line of JSON (bytes are decoded as UTF-8); never raises for bad content.

    ``allow_nan=True`` accepts ``NaN``/``Infinity`` (Python's extension of JSON), for a reader whose
    format documents them (e.g. scores); by default they make the line bad.
    ``object_pairs_hook`` builds each object, as for :func:`json.loads` (a reader that must see
    a key listed twice passes one).
    """
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
    problem = _check_value(value)
    if problem is not None:
        return JsonLine(line, None, _bad(problem, path, line))
    return JsonLine(line, value, None)


def _bad(message: str, path: str | None, line: int) -> CaseFileError:
    return CaseFileError(message, path=path, line=line)


def iter_json_lines(
    lines: Iterable[bytes | str],
    *,
    path: str | None = None,
    allow_nan: bool = False,
    object_pairs_hook: Callable[[list[tuple[str, Any]]], Any] | None = None,
) -> Iterator[JsonLine]:
    """Parse every non-blank line of ``lines`` (numbered from 1, blank lines counted); the
    keyword arguments as for :func:`parse_json_line`."""
    for number, raw in enumerate(lines, start=1):
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
        )


def read_bytes(path: str | Path, *, hint: str = "check the path") -> bytes:
    """The bytes of ``path``.

    Raises:
        CaseFileError: the file cannot be read; the message names it, the reason and ``hint``.
    """
    p = Path(path)
    try:
        return p.read_bytes()
    except IsADirectoryError:
        raise CaseFileError(f"is a folder, not a file; {hint}", path=str(p)) from None
    except OSError as exc:
        raise CaseFileError(f"cannot read: {exc.strerror or exc}; {hint}", path=str(p)) from None


def read_json_lines(path: str | Path, *, hint: str = "check the path") -> Iterator[JsonLine]:
    """Stream the non-blank lines of the JSONL file ``path`` as :class:`JsonLine` items.

    Raises:
        CaseFileError: only when the file itself cannot be opened (``hint`` says how to fix it);
            a bad line is yielded with its error so the other lines are still read.
    """
    p = Path(path)
    try:
        handle = p.open("rb")
    except IsADirectoryError:
        raise CaseFileError(f"is a folder, not a file; {hint}", path=str(p)) from None
    except OSError as exc:
        raise CaseFileError(f"cannot open: {exc.strerror or exc}; {hint}", path=str(p)) from None
    with handle:
        yield from iter_json_lines(handle, path=str(p))


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
