"""Hypothesis fuzzing of the bounded case readers (issue 37): crafted bytes as a JSONL, CSV,
Parquet or Excel case file give records or the project's typed errors (the ``InputError``
family), never another traceback; nothing is written beside the input; and the block reader
splits lines exactly as :meth:`bytes.splitlines` does, whatever the block size and the limit.
"""

from __future__ import annotations

import io
import os
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hybridjudge._jsonl as jsonl
from hybridjudge import InputError
from hybridjudge._jsonl import OversizeLine, bounded_lines
from hybridjudge.corpus import InputRecord, ReadLimits, read_cases

FUZZ = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

SMALL = ReadLimits(max_file_bytes=1 << 20, max_record_bytes=512, max_field_bytes=128)
"""Limits small enough for the fuzzed inputs to meet them."""

FRAGMENTS = st.sampled_from(
    [
        b'{"id": "a", "answer": "Refunds take 30 days.", "context": "Refunds take 30 days."}',
        b"id,answer,context",
        b"id;answer;context",
        b"id\tanswer\tcontext",
        b'a;"1,5 %";"quoted\nline"',
        b'"never closed',
        b"\xef\xbb\xbf",
        b"\xff\xfe\x00",
        b"[" * 200,
        b"1" * 5000,
        b'"\\ud800"',
        b"x" * 700,
        b"\r",
        b"\n",
        b"\r\n",
        b",",
        b";",
        b"\t",
        b"\x00",
    ]
)
CRAFTED = st.lists(st.one_of(FRAGMENTS, st.binary(max_size=64)), max_size=12).map(b"".join)


def _read_in_place(folder: Path, name: str, data: bytes, **kwargs: object) -> None:
    """Read *data* as the file *name* in *folder*: records or an InputError, and the folder
    holds nothing else afterwards."""
    path = folder / name
    path.write_bytes(data)
    before = set(os.listdir(folder))
    records: list[InputRecord] = []
    raised: InputError | None = None
    try:
        records = read_cases(path, limits=SMALL, **kwargs)  # type: ignore[arg-type]
    except InputError as exc:  # typed, with its machine-readable code
        raised = exc
    assert raised is None or raised.code
    for record in records:
        assert (record.case is None) != (record.error is None)
        assert record.error is None or isinstance(record.error, InputError)
    assert set(os.listdir(folder)) == before
    path.unlink()


@FUZZ
@given(data=CRAFTED)
def test_jsonl_bytes(tmp_path: Path, data: bytes) -> None:
    _read_in_place(tmp_path, "cases.jsonl", data)


@FUZZ
@given(data=CRAFTED, delimiter=st.sampled_from([None, ",", ";", "\t"]))
def test_csv_bytes(tmp_path: Path, data: bytes, delimiter: str | None) -> None:
    _read_in_place(tmp_path, "cases.csv", data, delimiter=delimiter)


def _parquet_bytes() -> bytes:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    rows = [
        {"id": "a", "answer": "Refunds take 30 days.", "context": ["Refunds take 30 days."]},
        {"id": "b", "answer": "x" * 300, "context": ["c"] * 3},
    ]
    buffer = io.BytesIO()
    pq.write_table(pa.Table.from_pylist(rows), buffer, compression="zstd", row_group_size=1)
    return buffer.getvalue()


def _xlsx_bytes() -> bytes:
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    for row in (["id", "answer", "context"], ["a", "Refunds take 30 days.", "Refunds."]):
        book.active.append(row)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


MUTATION = st.lists(st.tuples(st.integers(min_value=0), st.integers(0, 255)), max_size=8)


def _mutate(data: bytes, edits: list[tuple[int, int]], cut: int | None) -> bytes:
    out = bytearray(data)
    for position, value in edits:
        out[position % len(out)] = value
    return bytes(out[:cut]) if cut is not None else bytes(out)


@FUZZ
@given(edits=MUTATION, cut=st.one_of(st.none(), st.integers(0, 4000)))
def test_parquet_bytes(tmp_path: Path, edits: list[tuple[int, int]], cut: int | None) -> None:
    _read_in_place(tmp_path, "cases.parquet", _mutate(_parquet_bytes(), edits, cut))


@FUZZ
@given(edits=MUTATION, cut=st.one_of(st.none(), st.integers(0, 6000)))
def test_xlsx_bytes(tmp_path: Path, edits: list[tuple[int, int]], cut: int | None) -> None:
    _read_in_place(tmp_path, "cases.xlsx", _mutate(_xlsx_bytes(), edits, cut))


@FUZZ
@given(members=st.dictionaries(st.sampled_from(["xl/workbook.xml", "x", "[Content_Types].xml"]), CRAFTED, max_size=3))  # fmt: skip
def test_xlsx_from_crafted_zip_members(tmp_path: Path, members: dict[str, bytes]) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    _read_in_place(tmp_path, "cases.xlsx", buffer.getvalue())


@settings(max_examples=200, deadline=None)
@given(
    data=st.lists(st.sampled_from([b"a", b"bc", b"\r", b"\n", b"\r\n", b"x" * 9]), max_size=40).map(b"".join),
    block=st.integers(1, 9),
    limit=st.integers(1, 12),
)  # fmt: skip
def test_the_block_reader_splits_lines_as_splitlines(data: bytes, block: int, limit: int) -> None:
    original = jsonl._BLOCK
    jsonl._BLOCK = block
    try:
        got = list(bounded_lines(io.BytesIO(data), limits=ReadLimits(max_record_bytes=limit)))
    finally:
        jsonl._BLOCK = original
    want = [line if len(line) <= limit else OversizeLine(len(line)) for line in data.splitlines()]
    assert got == want
