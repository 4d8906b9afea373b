"""Reading case files line by line: one bad line is reported, never fatal to the others."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from hybridjudge._errors import CaseFileError
from hybridjudge._jsonl import (
    JsonLine,
    describe_validation,
    read_json_lines,
    validate_line,
)
from hybridjudge._limits import DEFAULT_LIMITS, ReadLimits
from hybridjudge.corpus._models import CaseLine

__all__ = ["LineResult", "read_case_lines", "read_jsonl_models", "write_jsonl_models"]

M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True, slots=True)
class LineResult:
    """A case line that parsed (``case``) or the error that it raised (``error``)."""

    line: int
    case: CaseLine | None
    error: CaseFileError | None


def read_case_lines(path: str | Path, *, limits: ReadLimits | None = None) -> Iterator[LineResult]:
    """Yield every non-blank line of a JSONL case file as a :class:`LineResult`.

    Raises :class:`CaseFileError` only when the file itself cannot be opened; every other
    problem (invalid JSON, non-UTF-8 bytes, a hostile line, a missing or mistyped field) is
    yielded for its line so the remaining lines are still processed. Lines are read by
    :mod:`hybridjudge._jsonl`, the one JSONL reader (a UTF-8 byte-order mark is dropped), within
    *limits* (:class:`~hybridjudge.corpus.ReadLimits`): a line past one is a bad line.
    """
    p = str(Path(path))
    for item in read_json_lines(path, hint="check the path", limits=limits or DEFAULT_LIMITS):
        yield _case_line(p, item)


def _case_line(path: str, item: JsonLine) -> LineResult:
    number = item.line
    if item.error is not None:
        return LineResult(number, None, item.error)
    data = item.value
    if not isinstance(data, dict):
        err = CaseFileError(
            f"expected a JSON object, got {type(data).__name__}", path=path, line=number
        )
        return LineResult(number, None, err)
    case_id = data.get("id") if isinstance(data.get("id"), str) else None
    try:
        case = CaseLine.from_mapping(data)
    except ValidationError as exc:
        field, msg = describe_validation(exc)
        err = CaseFileError(msg, path=path, line=number, case_id=case_id, field=field)
        return LineResult(number, None, err)
    except ValueError as exc:
        err = CaseFileError(str(exc), path=path, line=number, case_id=case_id)
        return LineResult(number, None, err)
    return LineResult(number, case, None)


def read_jsonl_models(
    path: str | Path, model: type[M], *, limits: ReadLimits | None = None
) -> list[M]:
    """Read a JSONL file of one pydantic model within *limits*, failing on the first bad line
    (also one past a limit) with its number."""
    p = str(Path(path))
    lines = read_json_lines(path, hint="check the path", limits=limits or DEFAULT_LIMITS)
    return [validate_line(item, model, path=p) for item in lines]


def write_jsonl_models(path: str | Path, records: list[M] | tuple[M, ...]) -> None:
    """Write pydantic models as JSONL, one per line, keys in field order, UTF-8, ``\\n`` endings."""
    from hybridjudge._atomic import atomic_write_text  # never a half-written file

    atomic_write_text(
        path, "".join(record.model_dump_json(exclude_none=False) + "\n" for record in records)
    )
