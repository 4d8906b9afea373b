"""Case records from the formats users already have, under the field names they already use.

Sources: JSONL, JSON, CSV and Parquet files; a pandas ``DataFrame``; a Hugging Face
``datasets.Dataset``; RAGAS and DeepEval evaluation datasets; any iterable of mappings or of
objects with fields (pydantic models, dataclasses, plain objects: RAGAS ``SingleTurnSample`` and
DeepEval ``LLMTestCase`` are read by their attributes, so neither package is imported). pandas,
pyarrow and datasets are optional (``pip install 'hybridjudge[formats]'``).

Field-name families, mapped to ours (the first name of each row):

==================  ===============================================================
ours                also accepted
==================  ===============================================================
``id``              ``case_id``, ``sample_id`` (``record-N`` when absent: N the line of
                    a JSONL or CSV file, else the record number)
``question``        ``user_input`` (RAGAS), ``input`` (DeepEval), ``query``
``answer``          ``response`` (RAGAS), ``actual_output`` (DeepEval)
``context``         ``retrieved_contexts`` (RAGAS), ``contexts`` (RAGAS legacy),
                    ``retrieval_context`` (DeepEval)
``reference``       ``reference`` (RAGAS), ``ground_truth`` (RAGAS legacy),
                    ``expected_output`` (DeepEval), ``reference_answer``, ``ground_truths``
``anchors``         ``answerAnchors`` (OpenGATE), ``required_facts``
``answerable``      (none)
``allowed_numbers`` ``allowedNewNumbers`` (OpenGATE)
``metadata``        ``additional_metadata`` (DeepEval): merged with the extra fields
==================  ===============================================================

Every other field is kept in ``metadata`` and carried into the results (with ``strict=True`` it
is rejected instead, and only our own names and OpenGATE's are accepted, as before). A DeepEval
record with both ``retrieval_context`` and ``context`` uses the retrieved one and keeps the other
as ``metadata["reference_context"]``. An ``id``, ``anchors``, ``answerable`` or ``allowed_numbers`` found
inside the metadata (where DeepEval users keep labels) is used as that field. Every problem of a record is reported at once, never only
the first, and one bad record never stops the others.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import ValidationError

from hybridjudge._errors import CaseFileError
from hybridjudge._frames import (
    FIELD_ALIASES,
    as_mapping,
    is_frame,
    normalize_record,
    record_list,
)
from hybridjudge.corpus._labels import Label, read_label
from hybridjudge.corpus._models import CaseLine

__all__ = [
    "FIELD_ALIASES",
    "INPUT_FORMATS",
    "InputFormat",
    "InputRecord",
    "normalize_record",
    "read_cases",
    "read_raw_records",
]

InputFormat = Literal["jsonl", "json", "csv", "parquet"]
"""File formats read by :func:`read_cases` (chosen by the file's extension unless given)."""

INPUT_FORMATS: dict[str, InputFormat] = {
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".json": "json",
    ".csv": "csv",
    ".parquet": "parquet",
    ".pq": "parquet",
}
"""File extension -> format."""


@dataclass(frozen=True, slots=True)
class InputRecord:
    """One input record: the case it gave, or every problem it has.

    ``line`` is the 1-based line of a JSONL or CSV file, else the 1-based record number.
    """

    line: int
    case: CaseLine | None
    error: CaseFileError | None
    reference: str | None = None
    """The reference (gold) answer when the record has one (RAGAS ``reference``, DeepEval
    ``expected_output``...)."""
    problems: tuple[str, ...] = ()
    """Every problem of the record (``error`` states them all in one message)."""
    label: Label = "unknown"
    """Whether the answer is right, as the record labels it (:mod:`hybridjudge.corpus._labels`:
    ``label``, ``clean``, ``is_hallucination``...); read by ``corpus import``, while ``check``
    and ``judge`` keep the field in ``metadata`` as before."""
    label_field: str | None = None
    """The field the label was read from (``None``: the record has none)."""
    label_problems: tuple[str, ...] = ()
    """Why the label cannot be read (``corpus import`` skips such a record)."""


# -- reading raw records ----------------------------------------------------------------------


def _format_of(path: Path, given: str | None) -> InputFormat:
    if given is not None:
        if given not in INPUT_FORMATS.values():
            raise CaseFileError(
                f"unknown input format {given!r}; use one of jsonl, json, csv, parquet",
                path=str(path),
            )
        return given  # type: ignore[return-value]
    fmt = INPUT_FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise CaseFileError(
            f"cannot tell the format from the extension {path.suffix!r}; name the file "
            ".jsonl, .json, .csv or .parquet, or give its format (jsonl, json, csv, parquet)",
            path=str(path),
        )
    return fmt


RawRecord = tuple[int, dict[str, Any] | CaseFileError]
"""A record number (or line) and the decoded mapping, or why it could not be decoded."""


def read_raw_records(source: Any, *, format: str | None = None) -> Iterator[RawRecord]:
    """Yield ``(line, mapping)`` for every record of *source*, or ``(line, CaseFileError)``.

    *source* is a path (``str`` or :class:`~pathlib.Path`), a pandas ``DataFrame``, a Hugging
    Face ``Dataset``, a RAGAS or DeepEval evaluation dataset, or an iterable of mappings or
    objects with fields. A CSV record with a list cell that is not valid JSON (see
    :func:`_csv_cell`) is yielded as a :class:`CaseFileError` naming the line and field.

    Raises:
        CaseFileError: the file cannot be opened, its format is unknown or needs a missing
            optional package, or *source* is not something records can be read from.
    """
    path = str(source) if isinstance(source, str | Path) else None
    for number, data in _raw_records(source, format=format):
        bad = _bad_cells(data) if isinstance(data, dict) else {}
        if not bad:
            yield number, data
            continue
        texts = [f"{name}: {problem}" for name, problem in bad.items()]
        field, message = next(iter(bad.items())) if len(bad) == 1 else (None, "; ".join(texts))
        yield number, CaseFileError(message, path=path, line=number, field=field)


def _raw_records(source: Any, *, format: str | None = None) -> Iterator[RawRecord]:
    """:func:`read_raw_records` before broken CSV list cells are turned into errors."""
    if isinstance(source, str | Path):
        path = Path(source)
        fmt = _format_of(path, format)
        if fmt == "jsonl":
            yield from _jsonl(path)
        elif fmt == "json":
            yield from _json(path)
        elif fmt == "csv":
            yield from _csv(path)
        else:
            yield from _parquet(path)
        return
    yield from _objects(source)


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise CaseFileError(
            f"cannot open the case file: {exc.strerror or exc}; check the path", path=str(path)
        ) from None


def _jsonl(path: Path) -> Iterator[RawRecord]:
    """Lines through the one JSONL reader (:mod:`hybridjudge._jsonl`: BOM, invalid UTF-8,
    5,000-deep nesting, 5,000-digit integers, lone surrogates are each one bad line)."""
    from hybridjudge._jsonl import iter_json_lines

    for item in iter_json_lines(_read_bytes(path).splitlines(), path=str(path)):
        if item.error is not None:
            yield item.line, item.error
        elif not isinstance(item.value, dict):
            yield (
                item.line,
                CaseFileError(
                    f"expected a JSON object, got {type(item.value).__name__}",
                    path=str(path),
                    line=item.line,
                ),
            )
        else:
            yield item.line, item.value


def _json(path: Path) -> Iterator[RawRecord]:
    raw = _read_bytes(path)
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise CaseFileError(
            f"not valid UTF-8 (byte {exc.start}); re-encode the file as UTF-8", path=str(path)
        ) from None
    except json.JSONDecodeError as exc:
        raise CaseFileError(
            f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}", path=str(path)
        ) from None
    except RecursionError:
        raise CaseFileError("invalid JSON: nested too deeply to read", path=str(path)) from None
    except ValueError as exc:  # an integer past Python's 4,300-digit limit
        raise CaseFileError(f"invalid JSON: {exc}", path=str(path)) from None
    if isinstance(data, dict):
        for key in ("samples", "test_cases", "records", "data"):
            if isinstance(data.get(key), list):
                data = data[key]
                break
    if not isinstance(data, list):
        raise CaseFileError(
            "expected a JSON array of records (or an object holding one under 'samples', "
            "'test_cases', 'records' or 'data')",
            path=str(path),
        )
    for number, item in enumerate(data, start=1):
        if isinstance(item, dict):
            yield number, item
        else:
            yield (
                number,
                _record_error(path, number, f"expected a JSON object, got {type(item).__name__}"),
            )


def _record_error(path: Path | str | None, number: int, message: str) -> CaseFileError:
    return CaseFileError(f"record {number}: {message}", path=str(path) if path else None)


def _csv(path: Path) -> Iterator[RawRecord]:
    """CSV records, each numbered by the line it STARTS on (a quoted cell may span lines)."""
    raw = _read_bytes(path)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CaseFileError(
            f"not valid UTF-8 (byte {exc.start}); re-encode the file as UTF-8", path=str(path)
        ) from None
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader, None)
    except csv.Error as exc:
        raise CaseFileError(
            f"cannot read the header row: {_csv_error_hint(exc)}", path=str(path)
        ) from None
    if not header:
        return
    while True:
        # csv's line_num is the line a record ENDS on: the next record starts one line later
        start = reader.line_num + 1
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            yield start, CaseFileError(_csv_error_hint(exc), path=str(path), line=start)
            if reader.line_num < start:  # nothing consumed: do not loop on the same error
                return
            continue
        if not row:
            continue  # a blank line is no record (as csv.DictReader skips it)
        if len(row) > len(header):
            yield (
                start,
                CaseFileError(
                    f"{len(row) - len(header)} more cell(s) than header columns; quote cells "
                    "that hold commas",
                    path=str(path),
                    line=start,
                ),
            )
            continue
        # an empty cell is an absent field (CSV has no null)
        yield start, {k: _csv_cell(k, v) for k, v in zip(header, row, strict=False) if v != ""}


def _csv_error_hint(exc: csv.Error) -> str:
    """What the csv module could not read, and how to fix it."""
    if "field limit" in str(exc):
        return (
            f"a cell is longer than the CSV reader allows ({csv.field_size_limit()} characters); "
            "shorten it or write the records as JSONL"
        )
    return (
        f"not readable as CSV ({exc}); put a cell holding commas, quotes or line breaks in "
        'double quotes, with each quote inside it doubled ("")'
    )


_LIST_COLUMNS: dict[str, str] = {
    name: ours for ours in ("context", "anchors", "allowed_numbers") for name in FIELD_ALIASES[ours]
}
"""Every accepted column name of a list field -> our field name."""

_LIST_EXAMPLES = {
    "context": '["first passage", "second passage"]',
    "anchors": '["30 days"]',
    "allowed_numbers": '["30", "45"]',
}


@dataclass(frozen=True, slots=True)
class _BadCell:
    """A CSV list cell that is meant as JSON but is not valid JSON (reported, never kept)."""

    problem: str


def _bad_cells(data: Mapping[str, Any]) -> dict[str, str]:
    """Column name -> problem, for every broken list cell of a decoded CSV record."""
    return {k: v.problem for k, v in data.items() if isinstance(v, _BadCell)}


def _csv_cell(name: str, value: str) -> Any:
    """A CSV cell: JSON arrays/objects and booleans are decoded, everything else stays text.

    A list-field cell (``anchors``, ``allowed_numbers``, ``context`` and their other names)
    that starts with ``[`` or ``{`` but is not valid JSON is a :class:`_BadCell`, never a
    literal string: ``["30 days"`` (no closing bracket) must not become the anchor
    ``["30 days"``. A ``context`` cell counts only when it starts like an array of strings
    (``["``), so a plain passage such as ``[1] Refunds take 30 days`` stays one passage.
    """
    stripped = value.strip()
    if stripped[:1] in ("[", "{"):
        try:
            return json.loads(stripped)
        except json.JSONDecodeError as exc:
            reason = f"{exc.msg} at character {exc.pos + 1}"
        except RecursionError:
            reason = "nested too deeply to read"
        except ValueError as exc:  # an integer past Python's 4,300-digit limit
            reason = str(exc)
        ours = _LIST_COLUMNS.get(name)
        if ours is not None and _meant_as_json(ours, stripped):
            kind = "a JSON array" if stripped[0] == "[" else "valid JSON"
            return _BadCell(
                f"not {kind} ({reason}); write a list cell as a JSON array such as "
                f"{_LIST_EXAMPLES[ours]}"
            )
        return value
    if name == "answerable":
        lowered = stripped.lower()
        if lowered in ("true", "yes", "1"):
            return True
        if lowered in ("false", "no", "0"):
            return False
        if lowered in ("null", "none", "unknown"):
            return None
    return value


def _meant_as_json(ours: str, stripped: str) -> bool:
    """Whether a list cell starting with ``[`` or ``{`` was meant as JSON (see _csv_cell)."""
    if ours != "context":
        return True  # an anchor or a number never starts with a bracket
    return stripped[0] == "[" and stripped[1:].lstrip()[:1] in ('"', "]", "")


def _parquet(path: Path) -> Iterator[RawRecord]:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise CaseFileError(
            "reading Parquet needs pyarrow: pip install 'hybridjudge[formats]'", path=str(path)
        ) from None
    try:
        rows = pq.read_table(path).to_pylist()
    except FileNotFoundError:
        raise CaseFileError("cannot open the case file; check the path", path=str(path)) from None
    except Exception as exc:  # pyarrow raises its own error types for a corrupt file
        raise CaseFileError(f"not a readable Parquet file: {exc}", path=str(path)) from None
    for number, row in enumerate(rows, start=1):
        yield number, dict(row)


def _objects(source: Any) -> Iterator[RawRecord]:
    if is_frame(source):  # a pandas DataFrame, recognised without importing pandas
        rows: Iterable[Any] = record_list(source)
    # RAGAS EvaluationDataset (.samples) and DeepEval EvaluationDataset (.test_cases)
    elif isinstance(getattr(source, "samples", None), list):
        rows = source.samples
    elif isinstance(getattr(source, "test_cases", None), list):
        rows = source.test_cases
    elif isinstance(source, Mapping | str | bytes):
        raise CaseFileError(
            f"cannot read records from a {type(source).__name__}; pass a file path, a "
            "DataFrame, a datasets.Dataset or a list of records"
        )
    else:
        try:
            rows = iter(source)  # a Hugging Face Dataset iterates as dicts, a list as itself
        except TypeError:
            raise CaseFileError(
                f"cannot read records from a {type(source).__name__}; pass a file path, a "
                "DataFrame, a datasets.Dataset or a list of records"
            ) from None
    for number, item in enumerate(rows, start=1):
        data = as_mapping(item)
        if data is None:
            yield (
                number,
                _record_error(
                    None,
                    number,
                    f"a {type(item).__name__} is neither a mapping nor an object with fields",
                ),
            )
        else:
            yield number, data


def _describe_all(exc: ValidationError) -> list[tuple[str | None, str]]:
    problems: list[tuple[str | None, str]] = []
    for error in exc.errors():
        loc = error.get("loc", ())
        field = ".".join(str(p) for p in loc) if loc else None
        kind = error.get("type")
        if kind == "missing":
            msg = "required field is missing; add it"
        elif kind == "extra_forbidden":
            msg = "unknown field; remove it or check its spelling"
        else:
            msg = str(error.get("msg", "invalid value")).removeprefix("Value error, ")
        problems.append((field, msg))
    return problems


def _missing_hint(field: str | None, strict: bool) -> str | None:
    if strict or field not in ("answer", "context"):
        return None
    names = " / ".join(repr(n) for n in FIELD_ALIASES[field])
    return f"required field is missing; add one of {names}"


def _record(
    number: int,
    data: Mapping[str, Any],
    *,
    strict: bool,
    path: str | None,
    line_based: bool,
) -> InputRecord:
    bad = _bad_cells(data)
    if bad:  # reported as they are, and read as absent so no other problem repeats them
        data = {k: v for k, v in data.items() if k not in bad}
    labelled = read_label(data, strict=strict)
    if strict and "label" in data:  # our own field, never an unknown one
        data = {k: v for k, v in data.items() if k != "label"}
    mapped, reference, problems = normalize_record(data, number=number, strict=strict)
    problems[:0] = list(bad.items())
    covered = {_LIST_COLUMNS[name] for name in bad}
    case: CaseLine | None = None
    try:
        case = CaseLine.model_validate(mapped)
    except ValidationError as exc:
        for field, msg in _describe_all(exc):
            if field in covered:
                continue
            if msg == "required field is missing; add it":
                msg = _missing_hint(field, strict) or msg
            problems.append((field, msg))
    if not problems and case is not None:
        return InputRecord(
            number,
            case,
            None,
            reference,
            label=labelled.label,
            label_field=labelled.field,
            label_problems=labelled.problems,
        )
    texts = tuple(f"{f}: {m}" if f else m for f, m in problems)
    message = texts[0] if len(texts) == 1 else f"{len(texts)} problems: " + "; ".join(texts)
    case_id = mapped.get("id") if isinstance(mapped.get("id"), str) else None
    if case_id == f"record-{number}" and not any(k in data for k in FIELD_ALIASES["id"]):
        case_id = None  # generated: the record number already says which one
    field = problems[0][0] if len(problems) == 1 else None
    if len(texts) == 1 and field is not None:
        message = problems[0][1]
    if line_based:
        error = CaseFileError(message, path=path, line=number, case_id=case_id, field=field)
    else:
        error = CaseFileError(
            f"record {number}: {message}", path=path, case_id=case_id, field=field
        )
    return InputRecord(
        number,
        None,
        error,
        reference,
        texts,
        label=labelled.label,
        label_field=labelled.field,
        label_problems=labelled.problems,
    )


def read_cases(
    source: Any,
    *,
    strict: bool = False,
    format: str | None = None,
) -> list[InputRecord]:
    """Read every record of *source* as a case, keeping bad records as reported problems.

    *source*: a path to a ``.jsonl``, ``.json``, ``.csv`` or ``.parquet`` file (or any name with
    *format* given), a pandas ``DataFrame``, a Hugging Face ``Dataset``, a RAGAS or DeepEval
    evaluation dataset, or an iterable of mappings or objects (RAGAS ``SingleTurnSample``,
    DeepEval ``LLMTestCase``, dataclasses...). Field names are mapped by :data:`FIELD_ALIASES`;
    other fields go to ``metadata`` (rejected when *strict*).

    Raises:
        CaseFileError: only when the source itself is unusable (missing file, unknown format,
            a missing optional package); every problem of a single record is returned in its
            :class:`InputRecord` so the other records are still read.
    """
    is_path = isinstance(source, str | Path)
    path = str(source) if is_path else None
    line_based = is_path and _format_of(Path(source), format) in ("jsonl", "csv")
    out: list[InputRecord] = []
    for number, data in _raw_records(source, format=format):
        if isinstance(data, CaseFileError):
            out.append(InputRecord(number, None, data, None, (data.message,)))
        else:
            out.append(_record(number, data, strict=strict, path=path, line_based=line_based))
    return out
