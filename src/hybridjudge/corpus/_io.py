"""Reading case files line by line: one bad line is reported, never fatal to the others."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from hybridjudge._errors import CaseFileError
from hybridjudge.corpus._models import CaseLine

__all__ = ["LineResult", "read_case_lines", "read_jsonl_models", "write_jsonl_models"]

M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True, slots=True)
class LineResult:
    """A case line that parsed (``case``) or the error that it raised (``error``)."""

    line: int
    case: CaseLine | None
    error: CaseFileError | None


def _describe_validation(exc: ValidationError) -> tuple[str | None, str]:
    """The first offending field and a one-line message for a pydantic error."""
    first = exc.errors()[0]
    loc = first.get("loc", ())
    field = str(loc[0]) if loc else None
    if len(loc) > 1:
        field = ".".join(str(p) for p in loc)
    msg = first.get("msg", "invalid value")
    if first.get("type") == "missing":
        msg = "required field is missing; add it"
    elif first.get("type") == "extra_forbidden":
        msg = "unknown field; remove it or check its spelling"
    count = len(exc.errors())
    if count > 1:
        msg += f" (and {count - 1} more problem{'s' if count > 2 else ''} on this line)"
    return field, msg


def read_case_lines(path: str | Path) -> Iterator[LineResult]:
    """Yield every non-blank line of a JSONL case file as a :class:`LineResult`.

    Raises :class:`CaseFileError` only when the file itself cannot be opened; every other
    problem (invalid JSON, non-UTF-8 bytes, a missing or mistyped field) is yielded for its
    line so the remaining lines are still processed.
    """
    p = Path(path)
    try:
        handle = p.open("rb")
    except OSError as exc:
        raise CaseFileError(
            f"cannot open the case file: {exc.strerror or exc}; check the path", path=str(p)
        ) from None
    with handle:
        for number, raw in enumerate(handle, start=1):
            if not raw.strip():
                continue
            yield _parse_line(str(p), number, raw)


def _parse_line(path: str, number: int, raw: bytes) -> LineResult:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        err = CaseFileError(
            f"not valid UTF-8 (byte {exc.start}); re-encode the file as UTF-8",
            path=path,
            line=number,
        )
        return LineResult(number, None, err)
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError as exc:
        err = CaseFileError(
            f"invalid JSON at column {exc.colno}: {exc.msg}; each line must be one JSON object",
            path=path,
            line=number,
        )
        return LineResult(number, None, err)
    if not isinstance(data, dict):
        err = CaseFileError(
            f"expected a JSON object, got {type(data).__name__}", path=path, line=number
        )
        return LineResult(number, None, err)
    case_id = data.get("id") if isinstance(data.get("id"), str) else None
    try:
        case = CaseLine.from_mapping(data)
    except ValidationError as exc:
        field, msg = _describe_validation(exc)
        err = CaseFileError(msg, path=path, line=number, case_id=case_id, field=field)
        return LineResult(number, None, err)
    except ValueError as exc:
        err = CaseFileError(str(exc), path=path, line=number, case_id=case_id)
        return LineResult(number, None, err)
    return LineResult(number, case, None)


def read_jsonl_models(path: str | Path, model: type[M]) -> list[M]:
    """Read a JSONL file of one pydantic model, failing on the first bad line with its number."""
    p = Path(path)
    out: list[M] = []
    try:
        lines = p.read_bytes().splitlines()
    except OSError as exc:
        raise CaseFileError(f"cannot read: {exc.strerror or exc}", path=str(p)) from None
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            out.append(model.model_validate_json(raw))
        except ValidationError as exc:
            field, msg = _describe_validation(exc)
            raise CaseFileError(msg, path=str(p), line=number, field=field) from None
    return out


def write_jsonl_models(path: str | Path, records: list[M] | tuple[M, ...]) -> None:
    """Write pydantic models as JSONL, one per line, keys in field order, UTF-8, ``\\n`` endings."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    with p.open("w", encoding="utf-8", newline="\n") as handle:
        for record in records:
            handle.write(record.model_dump_json(exclude_none=False))
            handle.write("\n")
