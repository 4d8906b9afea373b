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
import itertools
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
from hybridjudge._jsonl import (
    OversizeLine,
    bounded_lines,
    check_value,
    iter_json_lines,
    open_bounded,
    read_bytes,
)
from hybridjudge._limits import DEFAULT_LIMITS, ReadLimits, format_size, too_large
from hybridjudge.corpus._labels import Label, read_label
from hybridjudge.corpus._models import CaseLine

__all__ = [
    "CSV_DELIMITERS",
    "FIELD_ALIASES",
    "INPUT_FORMATS",
    "InputFormat",
    "InputRecord",
    "detect_delimiter",
    "normalize_record",
    "read_cases",
    "read_raw_records",
]

InputFormat = Literal["jsonl", "json", "csv", "parquet", "xlsx"]
"""File formats read by :func:`read_cases` (chosen by the file's extension unless given)."""

INPUT_FORMATS: dict[str, InputFormat] = {
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".json": "json",
    ".csv": "csv",
    ".parquet": "parquet",
    ".pq": "parquet",
    ".xlsx": "xlsx",
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
                f"unknown input format {given!r}; use one of jsonl, json, csv, parquet, xlsx",
                path=str(path),
            )
        return given  # type: ignore[return-value]
    fmt = INPUT_FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise CaseFileError(
            f"cannot tell the format from the extension {path.suffix!r}; name the file "
            ".jsonl, .json, .csv, .parquet or .xlsx, or give its format (jsonl, json, csv, "
            "parquet, xlsx)",
            path=str(path),
        )
    return fmt


RawRecord = tuple[int, dict[str, Any] | CaseFileError]
"""A record number (or line) and the decoded mapping, or why it could not be decoded."""


def read_raw_records(
    source: Any,
    *,
    format: str | None = None,
    limits: ReadLimits = DEFAULT_LIMITS,
    delimiter: str | None = None,
) -> Iterator[RawRecord]:
    """Yield ``(line, mapping)`` for every record of *source*, or ``(line, CaseFileError)``.

    *source* is a path (``str`` or :class:`~pathlib.Path`), a pandas ``DataFrame``, a Hugging
    Face ``Dataset``, a RAGAS or DeepEval evaluation dataset, or an iterable of mappings or
    objects with fields. A CSV record with a list cell that is not valid JSON (see
    :func:`_csv_cell`) is yielded as a :class:`CaseFileError` naming the line and field, as is a
    record past a bound of *limits*. *delimiter* is the CSV cell separator (default: detected
    from the header row among comma, semicolon and tab).

    Raises:
        CaseFileError: the file cannot be opened, its format is unknown or needs a missing
            optional package, or *source* is not something records can be read from.
    """
    path = str(source) if isinstance(source, str | Path) else None
    for number, data in _raw_records(source, format=format, limits=limits, delimiter=delimiter):
        bad = _bad_cells(data) if isinstance(data, dict) else {}
        if not bad:
            yield number, data
            continue
        texts = [f"{name}: {problem}" for name, problem in bad.items()]
        field, message = next(iter(bad.items())) if len(bad) == 1 else (None, "; ".join(texts))
        yield number, CaseFileError(message, path=path, line=number, field=field)


def _raw_records(
    source: Any,
    *,
    format: str | None = None,
    limits: ReadLimits = DEFAULT_LIMITS,
    delimiter: str | None = None,
) -> Iterator[RawRecord]:
    """:func:`read_raw_records` before broken CSV list cells are turned into errors."""
    if isinstance(source, str | Path):
        path = Path(source)
        fmt = _format_of(path, format)
        if delimiter is not None and fmt != "csv":
            raise CaseFileError(
                f"a delimiter ({delimiter!r}) is for a CSV file, and this one is read as {fmt}; "
                "drop --delimiter or give --format csv",
                path=str(path),
            )
        if fmt == "jsonl":
            yield from _jsonl(path, limits)
        elif fmt == "json":
            yield from _json(path, limits)
        elif fmt == "csv":
            yield from _csv(path, limits, delimiter)
        elif fmt == "xlsx":
            yield from _xlsx(path, limits)
        else:
            yield from _parquet(path, limits)
        return
    yield from _objects(source)


_OPEN_HINT = "check the path"
_WHAT = " the case file"


def _jsonl(path: Path, limits: ReadLimits) -> Iterator[RawRecord]:
    """Lines through the one JSONL reader (:mod:`hybridjudge._jsonl`: BOM, invalid UTF-8,
    5,000-deep nesting, 5,000-digit integers, lone surrogates, a line or a string past its
    limit are each one bad line; the file is read a block at a time)."""
    where = str(path)
    with open_bounded(path, hint=_OPEN_HINT, limits=limits, what=_WHAT) as handle:
        lines = bounded_lines(handle, path=where, limits=limits)
        for item in iter_json_lines(lines, path=where, limits=limits):
            if item.error is not None:
                yield item.line, item.error
            elif not isinstance(item.value, dict):
                yield (
                    item.line,
                    CaseFileError(
                        f"expected a JSON object, got {type(item.value).__name__}",
                        path=where,
                        line=item.line,
                    ),
                )
            else:
                yield item.line, item.value


def _json(path: Path, limits: ReadLimits) -> Iterator[RawRecord]:
    raw = read_bytes(path, hint=_OPEN_HINT, limits=limits, what=_WHAT)
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
    # no string can be longer than the file it is written in: the length check only when it
    # can fail; the walk for lone surrogates and deep nesting always (as the JSONL reader's)
    max_field = limits.max_field_bytes if len(raw) > limits.max_field_bytes else None
    for number, item in enumerate(data, start=1):
        problem = check_value(item, max_field) if isinstance(item, dict) else None
        if problem is not None:
            reason, field, size = problem
            message = f"record {number}: {reason}"
            yield (
                number,
                too_large("field", message, limits.max_field_bytes, path=str(path), field=field)
                if size
                else CaseFileError(message, path=str(path), field=field),
            )
        elif isinstance(item, dict):
            yield number, item
        else:
            yield (
                number,
                _record_error(path, number, f"expected a JSON object, got {type(item).__name__}"),
            )


def _record_error(path: Path | str | None, number: int, message: str) -> CaseFileError:
    return CaseFileError(f"record {number}: {message}", path=str(path) if path else None)


CSV_DELIMITERS: dict[str, str] = {",": "comma", ";": "semicolon", "\t": "tab"}
"""The cell separators a CSV file's header row is tested for (the first one wins a tie)."""


def detect_delimiter(header: str) -> str:
    """The delimiter of a CSV file from its header row: the one of :data:`CSV_DELIMITERS` that
    splits it into the most columns (quotes respected), a comma when none splits it.

    A European spreadsheet exports ``id;answer;context`` with decimal commas in its cells
    (``1,5``): the header has no comma, so the semicolon wins and ``1,5`` stays one cell.

    Examples:
        >>> detect_delimiter("id;question;answer;context")
        ';'
        >>> detect_delimiter('id,"a;b",answer')
        ','
    """
    best, columns = ",", 1
    for delimiter in CSV_DELIMITERS:
        try:
            count = len(next(csv.reader([header], delimiter=delimiter), []))
        except csv.Error:
            continue
        if count > columns:
            best, columns = delimiter, count
    return best


def _describe_delimiter(delimiter: str) -> str:
    name = CSV_DELIMITERS.get(delimiter)
    return f"{name} ({delimiter!r})" if name else repr(delimiter)


class _CsvFeed:
    """The lines of a CSV file for :func:`csv.reader`, one at a time, within the limits: the
    bytes of the record being read are counted, a line past the record limit is handed over as
    an empty line (and marked), and a record growing past the limit over several lines stops the
    reading (:class:`_RecordTooLargeError`)."""

    def __init__(self, lines: Iterator[bytes | OversizeLine], path: Path, limits: ReadLimits):
        self._lines = lines
        self._path = path
        self._max = limits.max_record_bytes
        self.record_bytes = 0
        self.oversize = 0  # > 0: the record is one line past the limit, of this many bytes
        self.first = True
        self.line = 0  # the line last handed over

    def start_record(self) -> None:
        self.record_bytes = 0
        self.oversize = 0

    def __iter__(self) -> Iterator[str]:
        return self

    def __next__(self) -> str:
        item = next(self._lines)
        self.line += 1
        if isinstance(item, OversizeLine):
            if self.record_bytes == 0:  # a whole record on one line: skip it, read on
                self.oversize = item.size
                return "\n"
            raise _RecordTooLargeError(self.record_bytes + item.size)
        self.record_bytes += len(item)
        if self.record_bytes > self._max:
            raise _RecordTooLargeError(self.record_bytes)
        try:
            text = item.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise CaseFileError(
                f"line {self.line} is not valid UTF-8 (byte {exc.start} of the line); re-encode "
                "the file as UTF-8",
                path=str(self._path),
            ) from None
        if self.first:
            self.first = False
            text = text.removeprefix("\ufeff")
        return text


class _RecordTooLargeError(Exception):
    """A CSV record spread over several lines went past the record limit."""

    def __init__(self, size: int) -> None:
        super().__init__(size)
        self.size = size


def _csv(path: Path, limits: ReadLimits, delimiter: str | None) -> Iterator[RawRecord]:
    """CSV records, each numbered by the line it STARTS on (a quoted cell may span lines), read
    a line at a time within *limits*; the delimiter detected from the header unless given."""
    where = str(path)
    with open_bounded(path, hint=_OPEN_HINT, limits=limits, what=_WHAT) as handle:
        feed = _CsvFeed(
            bounded_lines(handle, path=where, limits=limits, keepends=True), path, limits
        )
        header_line = next(feed, None)
        if header_line is None:
            return
        if feed.oversize:
            raise too_large(
                "record", "the header row is longer", limits.max_record_bytes, path=where, line=1
            )
        chosen = delimiter if delimiter is not None else detect_delimiter(header_line)
        how = "given" if delimiter is not None else "detected from the header row"
        named = f"read with the delimiter {_describe_delimiter(chosen)}, {how}"
        reader = csv.reader(itertools.chain([header_line], feed), delimiter=chosen)
        field_limit = max(1, limits.max_field_bytes)
        try:
            header = _next_row(reader, field_limit)
        except csv.Error as exc:
            raise CaseFileError(
                f"cannot read the header row ({named}): {_csv_error_hint(exc, chosen)}",
                path=where,
            ) from None
        except _RecordTooLargeError as exc:
            raise too_large(
                "record",
                f"the header row has more than {format_size(exc.size)}",
                limits.max_record_bytes,
                path=where,
                line=1,
            ) from None
        if not header:
            return
        while True:
            # csv's line_num is the line a record ENDS on: the next record starts one line later
            start = reader.line_num + 1
            feed.start_record()
            try:
                row = _next_row(reader, field_limit)
            except StopIteration:
                return
            except _RecordTooLargeError as exc:
                yield (
                    start,
                    too_large(
                        "record",
                        f"the row goes on past {format_size(exc.size)} over several lines (a "
                        "quoted cell that is never closed?); the rest of the file was not read",
                        limits.max_record_bytes,
                        path=where,
                        line=start,
                    ),
                )
                return
            except csv.Error as exc:
                message = f"{_csv_error_hint(exc, chosen)} ({named})"
                if "field larger than field limit" in str(exc):
                    yield (
                        start,
                        too_large(
                            "field",
                            "a cell is longer",
                            limits.max_field_bytes,
                            path=where,
                            line=start,
                        ),
                    )
                else:
                    yield start, CaseFileError(message, path=where, line=start)
                if reader.line_num < start:  # nothing consumed: do not loop on the same error
                    return
                continue
            if feed.oversize:
                yield (
                    start,
                    too_large(
                        "record",
                        f"the line has {format_size(feed.oversize)}",
                        limits.max_record_bytes,
                        path=where,
                        line=start,
                    ),
                )
                continue
            if not row:
                continue  # a blank line is no record (as csv.DictReader skips it)
            if len(row) > len(header):
                yield (
                    start,
                    CaseFileError(
                        f"{len(row) - len(header)} more cell(s) than header columns ({named}); "
                        f"quote cells that hold the delimiter, or give --delimiter",
                        path=where,
                        line=start,
                    ),
                )
                continue
            long = next(
                (k for k, v in zip(header, row, strict=False) if _too_long(v, limits)), None
            )
            if long is not None:
                yield (
                    start,
                    too_large(
                        "field",
                        "the cell is longer",
                        limits.max_field_bytes,
                        path=where,
                        line=start,
                        field=long,
                    ),
                )
                continue
            # an empty cell is an absent field (CSV has no null)
            yield start, {k: _csv_cell(k, v) for k, v in zip(header, row, strict=False) if v != ""}


def _next_row(reader: Iterator[list[str]], field_limit: int) -> list[str]:
    """The next row of *reader* with the csv module's cell limit set to *field_limit*
    characters for this call only (it is process-wide: the caller's own setting is restored)."""
    previous = csv.field_size_limit(field_limit)
    try:
        return next(reader)
    finally:
        csv.field_size_limit(previous)


def _too_long(value: str, limits: ReadLimits) -> bool:
    """A cell longer than the field limit in UTF-8 bytes (the csv module counts characters)."""
    return len(value) * 4 > limits.max_field_bytes and (
        len(value.encode("utf-8", "surrogatepass")) > limits.max_field_bytes
    )


def _csv_error_hint(exc: csv.Error, delimiter: str = ",") -> str:
    """What the csv module could not read, and how to fix it."""
    return (
        f"not readable as CSV ({exc}); put a cell holding the delimiter {delimiter!r}, quotes or "
        'line breaks in double quotes, with each quote inside it doubled ("")'
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
    ``["30 days"``; nor is JSON holding a lone UTF-16 surrogate or nested past the JSON
    readers' depth (another cell holding one stays text). A ``context`` cell counts only when it starts like an array of strings
    (``["``), so a plain passage such as ``[1] Refunds take 30 days`` stays one passage.
    """
    stripped = value.strip()
    if stripped[:1] in ("[", "{"):
        try:
            decoded = json.loads(stripped)
        except json.JSONDecodeError as exc:
            reason = f"{exc.msg} at character {exc.pos + 1}"
        except RecursionError:
            reason = "nested too deeply to read"
        except ValueError as exc:  # an integer past Python's 4,300-digit limit
            reason = str(exc)
        else:  # a lone surrogate or a deep nesting, refused as the JSON readers refuse them
            problem = check_value(decoded)
            if problem is None:
                return decoded
            reason = problem[0]
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


def _parquet(path: Path, limits: ReadLimits) -> Iterator[RawRecord]:
    """Parquet rows, a row group at a time: the decoded size the file's metadata declares is
    checked against the file limit before anything is decompressed (a 1.6 KB file may declare
    1.6 GB), and a row group larger than its rows could be at the record limit is skipped as one
    bad record, unread; each row is then checked against the record and field limits."""
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise CaseFileError(
            "reading Parquet needs pyarrow: pip install 'hybridjudge[formats]'", path=str(path)
        ) from None
    where = str(path)
    with open_bounded(path, hint=_OPEN_HINT, limits=limits, what=_WHAT) as handle:
        try:
            parquet = pq.ParquetFile(
                handle,
                thrift_string_size_limit=min(limits.max_record_bytes, 100 << 20),
                thrift_container_size_limit=1_000_000,
            )
            meta = parquet.metadata
            groups = [meta.row_group(i) for i in range(meta.num_row_groups)]
            sizes = [
                max(
                    group.total_byte_size,
                    sum(group.column(c).total_uncompressed_size for c in range(group.num_columns)),
                )
                for group in groups
            ]
        except Exception as exc:  # pyarrow raises its own error types for a corrupt file
            raise CaseFileError(f"not a readable Parquet file: {exc}", path=where) from None
        declared = sum(sizes)
        if declared > limits.max_file_bytes:
            raise too_large(
                "file",
                f"the file's data decodes to {format_size(declared)} by its own metadata "
                f"({format_size(path.stat().st_size)} on disk)",
                limits.max_file_bytes,
                path=where,
            )
        number = 0
        for index, (group, size) in enumerate(zip(groups, sizes, strict=True)):
            first = number + 1
            if size > group.num_rows * limits.max_record_bytes or size > limits.max_file_bytes:
                number += group.num_rows
                yield (
                    first,
                    too_large(
                        "record",
                        f"record {first}: row group {index + 1} (rows {first}-{number}) decodes "
                        f"to {format_size(size)}, more than its {group.num_rows} row(s) may "
                        "hold; the group was skipped unread",
                        limits.max_record_bytes,
                        path=where,
                    ),
                )
                continue
            try:
                rows = parquet.read_row_group(index).to_pylist()
            except Exception as exc:  # a corrupt page, a lying size
                raise CaseFileError(
                    f"not a readable Parquet file (row group {index + 1}): {exc}", path=where
                ) from None
            for row in rows:
                number += 1
                yield number, _bounded_row(dict(row), number, limits, where)


def _bounded_row(
    row: dict[str, Any], number: int, limits: ReadLimits, where: str, *, line_based: bool = False
) -> dict[str, Any] | CaseFileError:
    """*row* (a decoded Parquet or Excel row), or the error for its record or field limit
    (naming the row as a line of the file when *line_based*, else as a record number)."""
    line = number if line_based else None
    prefix = "" if line_based else f"record {number}: "
    total = 0
    for key, value in row.items():
        size = _text_size(value)
        if size > limits.max_field_bytes:
            return too_large(
                "field",
                f"{prefix}a value of {format_size(size)}",
                limits.max_field_bytes,
                path=where,
                line=line,
                field=str(key),
            )
        total += size
    if total > limits.max_record_bytes:
        return too_large(
            "record",
            f"{prefix}{format_size(total)} of text",
            limits.max_record_bytes,
            path=where,
            line=line,
        )
    return row


def _text_size(value: Any) -> int:
    """The UTF-8 bytes of the text in a decoded value (strings in lists and mappings too)."""
    if isinstance(value, str):
        return len(value) if value.isascii() else len(value.encode("utf-8", "surrogatepass"))
    if isinstance(value, bytes):
        return len(value)
    if isinstance(value, list | tuple):
        return sum(_text_size(v) for v in value)
    if isinstance(value, Mapping):
        return sum(_text_size(k) + _text_size(v) for k, v in value.items())
    return 8


XLSX_HINT = "pip install 'hybridjudge[xlsx]'"
"""How to install the optional Excel reader (openpyxl)."""


def _xlsx(path: Path, limits: ReadLimits) -> Iterator[RawRecord]:
    """The rows of the first sheet of an Excel workbook (header row first), read in openpyxl's
    streaming read-only mode; the sizes the workbook's zip declares are checked against the file
    limit before anything is unpacked, and each row against the record and field limits. Cells
    are read as a CSV's are (:func:`_csv_cell`): text, numbers as written, empty = absent."""
    import zipfile

    where = str(path)
    with open_bounded(path, hint=_OPEN_HINT, limits=limits, what=_WHAT) as handle:
        try:
            with zipfile.ZipFile(handle) as archive:
                declared = sum(info.file_size for info in archive.infolist())
        except Exception as exc:  # zipfile raises many types (BadZipFile, NotImplementedError...)
            raise CaseFileError(
                f"not a readable .xlsx workbook ({exc}); save it from Excel as .xlsx, or export "
                "CSV",
                path=where,
            ) from None
        if declared > limits.max_file_bytes:
            raise too_large(
                "file",
                f"the workbook unpacks to {format_size(declared)} by its own index",
                limits.max_file_bytes,
                path=where,
            )
        try:
            import openpyxl
        except ImportError:
            raise CaseFileError(f"reading .xlsx needs openpyxl: {XLSX_HINT}", path=where) from None
        handle.seek(0)
        try:  # from our handle: closed by us also when openpyxl fails half-way
            book = openpyxl.load_workbook(handle, read_only=True, data_only=True)
        except Exception as exc:  # openpyxl and zipfile raise many types for a broken workbook
            raise CaseFileError(
                f"not a readable .xlsx workbook ({type(exc).__name__}: {exc}); save it from "
                "Excel as .xlsx, or export CSV",
                path=where,
            ) from None
        yield from _xlsx_rows(book, limits, where)


def _xlsx_rows(book: Any, limits: ReadLimits, where: str) -> Iterator[RawRecord]:
    """The records of the first sheet of an open workbook (closed at the end)."""
    try:
        rows = book.worksheets[0].iter_rows(values_only=True) if book.worksheets else iter(())
        header: list[str] | None = None
        number = 0
        while True:
            try:
                values = next(rows)
            except StopIteration:
                return
            except Exception as exc:  # a broken sheet part
                raise CaseFileError(
                    f"not a readable .xlsx sheet after row {number} ({type(exc).__name__}: {exc})",
                    path=where,
                ) from None
            number += 1
            cells = [_xlsx_text(v) for v in values]
            if header is None:
                header = [c or "" for c in cells]
                while header and not header[-1]:
                    header.pop()
                if not header:
                    return
                continue
            if not any(cells):
                continue
            extra = [c for c in cells[len(header) :] if c]
            if extra:
                yield (
                    number,
                    CaseFileError(
                        f"{len(extra)} more cell(s) than header columns; give each column a "
                        "header or clear the cells",
                        path=where,
                        line=number,
                    ),
                )
                continue
            data = {k: c for k, c in zip(header, cells, strict=False) if c}
            checked = _bounded_row(data, number, limits, where, line_based=True)
            if isinstance(checked, CaseFileError):
                yield number, checked
                continue
            yield number, {k: _csv_cell(k, v) for k, v in data.items()}
    finally:
        book.close()


def _xlsx_text(value: Any) -> str:
    """An Excel cell as the text a CSV export would hold ('' for an empty cell)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if hasattr(value, "isoformat"):
        return str(value.isoformat())
    return str(value)


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
            continue
        # as a file's records are: a lone surrogate could not be written to the corpus, a
        # deep nesting would overflow the recursion that turns the values into plain JSON
        problem = check_value(data)
        if problem is not None:
            reason, field, _ = problem
            yield number, CaseFileError(f"record {number}: {reason}", field=field)
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
    limits: ReadLimits | None = None,
    delimiter: str | None = None,
) -> list[InputRecord]:
    """Read every record of *source* as a case, keeping bad records as reported problems.

    *source*: a path to a ``.jsonl``, ``.json``, ``.csv`` or ``.parquet`` file (or any name with
    *format* given), a pandas ``DataFrame``, a Hugging Face ``Dataset``, a RAGAS or DeepEval
    evaluation dataset, or an iterable of mappings or objects (RAGAS ``SingleTurnSample``,
    DeepEval ``LLMTestCase``, dataclasses...). Field names are mapped by :data:`FIELD_ALIASES`;
    other fields go to ``metadata`` (rejected when *strict*). An ``.xlsx`` workbook (its first
    sheet) needs ``pip install 'hybridjudge[xlsx]'``.

    *limits* bounds the bytes read per file, per record and per field
    (:class:`~hybridjudge.corpus.ReadLimits`; defaults 1 GiB, 64 MiB, 16 MiB): a record past
    one is a bad record (code ``record_too_large`` or ``field_too_large``), read block by block
    and never held whole. *delimiter* is a CSV file's cell separator (default: detected from
    its header row among comma, semicolon and tab).

    Raises:
        CaseFileError: only when the source itself is unusable (missing file, unknown format,
            a missing optional package, past the file limit: code ``file_too_large``); every
            problem of a single record is returned in its
            :class:`InputRecord` so the other records are still read.
    """
    is_path = isinstance(source, str | Path)
    path = str(source) if is_path else None
    line_based = is_path and _format_of(Path(source), format) in ("jsonl", "csv", "xlsx")
    out: list[InputRecord] = []
    raw = _raw_records(source, format=format, limits=limits or DEFAULT_LIMITS, delimiter=delimiter)
    for number, data in raw:
        if isinstance(data, CaseFileError):
            out.append(InputRecord(number, None, data, None, (data.message,)))
        else:
            out.append(_record(number, data, strict=strict, path=path, line_based=line_based))
    return out
