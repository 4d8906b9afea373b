"""Bounded inputs and outputs (issue 37, item 2; issue 34, item 4): bytes per file, record and
field, each named in a typed error with the flag that raises it; Parquet and Excel checked
before they are unpacked; findings capped in ``check``'s output; CSV delimiters detected.

Each test fails on the code before the bounds: there a long line was read whole, a Parquet file
decompressed whole, every finding printed, and a semicolon CSV gave no usable row.
"""

from __future__ import annotations

import csv
import json
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

from hybridjudge import CaseFileError
from hybridjudge.cli import main
from hybridjudge.corpus import ReadLimits, import_corpus, load_corpus, read_cases

GOOD = {"id": "good", "answer": "Refunds take 30 days.", "context": "Refunds take 30 days."}


def _jsonl(path: Path, *lines: bytes) -> Path:
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def _line(record: dict[str, Any]) -> bytes:
    return json.dumps(record).encode()


# -- bytes per record: a long line is one bad record, never read whole -----------------------


def test_a_line_past_the_record_limit_is_one_bad_record_read_in_bounded_memory(
    tmp_path: Path,
) -> None:
    big = {**GOOD, "id": "big", "answer": "x" * (8 << 20)}  # an 8 MiB line
    path = _jsonl(tmp_path / "cases.jsonl", _line(GOOD), _line(big), _line({**GOOD, "id": "b"}))
    tracemalloc.start()
    try:
        first, second, third = read_cases(path, limits=ReadLimits(max_record_bytes=256 << 10))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # the line was dropped block by block: memory bounded by the 1 MiB block and the limit,
    # not by the 8 MiB line (the previous reader held the file and the line: over 16 MiB)
    assert peak < 4 << 20, peak
    assert first.case is not None
    assert third.case is not None
    assert second.case is None
    assert second.error is not None
    assert second.error.code == "record_too_large"
    assert second.error.line == 2
    assert "the line has 8.0 MiB" in second.error.message
    assert "record limit of 256 KiB" in second.error.message
    assert "--max-record-bytes" in second.error.message


def test_the_record_limit_is_a_flag_and_the_other_lines_are_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    big = {**GOOD, "id": "big", "answer": "y" * 5000}
    path = _jsonl(tmp_path / "cases.jsonl", _line(GOOD), _line(big), _line({**GOOD, "id": "b"}))
    assert main(["check", str(path), "--json", "--max-record-bytes", "4KiB"]) == 2
    out, err = capsys.readouterr()
    lines = [json.loads(line) for line in out.splitlines()]
    assert [(r["line"], r.get("grounded")) for r in lines] == [(1, True), (2, None), (3, True)]
    assert "past the record limit of 4 KiB" in lines[1]["error"]
    assert "line 2" in err
    assert "--max-record-bytes" in err
    # raised, the same line is read
    assert main(["check", str(path), "--json", "--max-record-bytes", "1MiB"]) == 0


def test_a_bad_size_is_a_usage_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = _jsonl(tmp_path / "cases.jsonl", _line(GOOD))
    with pytest.raises(SystemExit) as exc:
        main(["check", str(path), "--max-record-bytes", "lots"])
    assert exc.value.code == 2
    assert "give a size in bytes" in capsys.readouterr().err


def test_a_csv_row_past_the_record_limit_is_one_bad_record(tmp_path: Path) -> None:
    path = tmp_path / "cases.csv"
    path.write_text(
        "id,answer,context\n"
        "a,Refunds take 30 days.,Refunds take 30 days.\n"
        f"b,{'z' * 10_000},Refunds take 30 days.\n"
        "c,Refunds take 30 days.,Refunds take 30 days.\n"
    )
    a, b, c = read_cases(path, limits=ReadLimits(max_record_bytes=2048))
    assert a.case is not None
    assert c.case is not None
    assert c.line == 4
    assert b.error is not None
    assert b.error.code == "record_too_large"
    assert b.error.line == 3


# -- bytes per field --------------------------------------------------------------------------


def test_a_string_past_the_field_limit_names_its_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    long = {**GOOD, "id": "long", "context": ["short", "c" * 3000]}
    path = _jsonl(tmp_path / "cases.jsonl", _line(GOOD), _line(long))
    good, bad = read_cases(path, limits=ReadLimits(max_field_bytes=1024))
    assert good.case is not None
    assert bad.error is not None
    assert bad.error.code == "field_too_large"
    assert bad.error.field == "context"
    assert main(["check", str(path), "--max-field-bytes", "1KiB"]) == 2
    err = capsys.readouterr().err
    assert "field 'context'" in err
    assert "--max-field-bytes" in err


# -- bytes per file ---------------------------------------------------------------------------


@pytest.mark.parametrize("suffix", [".jsonl", ".json", ".csv"])
def test_a_file_past_the_file_limit_is_refused_before_it_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], suffix: str
) -> None:
    path = tmp_path / f"cases{suffix}"
    path.write_bytes(b"x" * 5000)
    with pytest.raises(CaseFileError) as exc:
        read_cases(path, limits=ReadLimits(max_file_bytes=4096))
    assert exc.value.code == "file_too_large"
    assert "file limit of 4 KiB" in exc.value.message
    assert main(["check", str(path), "--max-file-bytes", "4096"]) == 2
    assert "[file_too_large]" in capsys.readouterr().err


def test_corpus_import_skips_a_record_past_the_limit_and_mutate_and_study_read_within_limits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    big = {**GOOD, "id": "big", "answer": "y" * 5000}
    source = _jsonl(tmp_path / "rag.jsonl", _line(GOOD), _line(big))
    out = tmp_path / "corpus"
    report = import_corpus(source, out, limits=ReadLimits(max_record_bytes=4096))
    assert report.cases == 1
    assert [s.record for s in report.skipped] == [2]
    assert "record limit" in report.skipped[0].problems[0]
    # exit 2: a record was skipped (reported on stderr), the others imported
    assert main(["corpus", "import", str(source), "--out", str(tmp_path / "c2"),
                 "--max-record-bytes", "4KiB"]) == 2  # fmt: skip
    assert (tmp_path / "c2" / "cases.jsonl").read_text().count("\n") == 1
    assert "line 2: skipped" in capsys.readouterr().err
    # the corpus files are read within limits too (load_corpus, mutate)
    with pytest.raises(CaseFileError) as exc:
        load_corpus(out, limits=ReadLimits(max_record_bytes=64))
    assert exc.value.code == "record_too_large"
    assert main(["mutate", str(out), "--mutation-seed", "0", "--out",
                 str(tmp_path / "m.jsonl"), "--max-record-bytes", "64"]) == 2  # fmt: skip
    assert "--max-record-bytes" in capsys.readouterr().err
    assert main(["study", "run", "--corpus", str(out), "--scorers", "deterministic",
                 "--out", str(tmp_path / "study"), "--max-record-bytes", "64"]) == 2  # fmt: skip
    assert "[record_too_large]" in capsys.readouterr().err


# -- Parquet: the declared size is checked before decompressing; a row group at a time ---------


def _parquet(path: Path, rows: list[dict[str, Any]], row_group_size: int) -> Path:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    pq.write_table(
        pa.Table.from_pylist(rows), path, compression="zstd", row_group_size=row_group_size
    )
    return path


def test_a_parquet_bomb_is_refused_from_its_metadata(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 24 MiB of one letter compress to a few KB: the file is small, its data is not
    path = _parquet(tmp_path / "bomb.parquet", [{**GOOD, "answer": "a" * (24 << 20)}], 1)
    assert path.stat().st_size < 64 << 10
    with pytest.raises(CaseFileError) as exc:
        read_cases(path, limits=ReadLimits(max_file_bytes=16 << 20))
    assert exc.value.code == "file_too_large"
    assert "by its own metadata" in exc.value.message
    assert main(["check", str(path), "--max-file-bytes", "16MiB"]) == 2
    assert "--max-file-bytes" in capsys.readouterr().err


def test_a_parquet_row_group_too_large_for_its_rows_is_skipped_unread(tmp_path: Path) -> None:
    rows = [GOOD, {**GOOD, "id": "huge", "answer": "a" * (2 << 20)}, {**GOOD, "id": "after"}]
    path = _parquet(tmp_path / "cases.parquet", rows, 1)
    first, second, third = read_cases(path, limits=ReadLimits(max_record_bytes=1 << 20))
    assert first.case is not None
    assert third.case is not None
    assert third.line == 3
    assert second.error is not None
    assert second.error.code == "record_too_large"
    assert "row group 2 (rows 2-2)" in second.error.message


# -- check: findings capped, the full count kept ------------------------------------------------


def _many_findings(tmp_path: Path, count: int) -> Path:
    answer = ",".join(["1"] * count)  # every 1 is a number the context lacks: one finding each
    return _jsonl(
        tmp_path / "cases.jsonl", _line({"id": "many", "answer": answer, "context": "no"})
    )


def test_check_caps_the_findings_per_case_and_keeps_the_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _many_findings(tmp_path, 120)
    assert main(["check", str(path), "--json"]) == 1
    record = json.loads(capsys.readouterr().out)
    assert len(record["findings"]) == 50
    assert record["findings_count"] == 120
    assert main(["check", str(path), "--json", "--max-findings", "all"]) == 1
    assert len(json.loads(capsys.readouterr().out)["findings"]) == 120
    assert main(["check", str(path), "--max-findings", "5"]) == 1
    out = capsys.readouterr().out
    assert out.count("ungrounded_number") == 5
    assert "... and 115 more (--max-findings to show them)" in out


# -- CSV dialects and Excel ----------------------------------------------------------------------

EUROPEAN = (
    "id;question;answer;context\n"
    "r1;Wie hoch ist der Zins?;Der Zins beträgt 1,5 %.;Der Zins beträgt 1,5 % pro Jahr.\n"
    "r2;Wie lange?;Erstattung in 30 Tagen.;Erstattungen dauern 30 Tage.\n"
    "r3;Preis?;Der Preis ist 2,75 EUR.;Der Preis ist 2,75 EUR.\n"
    'r4;Wer?;"Die Bank; nicht der Händler.";Die Bank zahlt, nicht der Händler.\n'
)


def test_a_semicolon_csv_with_decimal_commas_gives_all_its_rows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "export.csv"
    path.write_text(EUROPEAN, encoding="utf-8-sig")  # as Excel writes it, with a BOM
    records = read_cases(path)
    assert [r.error for r in records] == [None] * 4
    assert [r.case.id for r in records if r.case] == ["r1", "r2", "r3", "r4"]
    assert records[0].case is not None
    assert records[0].case.answer == "Der Zins beträgt 1,5 %."
    assert records[3].case is not None
    assert records[3].case.answer == "Die Bank; nicht der Händler."
    assert main(["check", str(path), "--json"]) in (0, 1)
    assert len(capsys.readouterr().out.splitlines()) == 4


def test_tab_and_comma_are_detected_and_delimiter_overrides(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tabbed = tmp_path / "cases.csv"
    tabbed.write_text("id\tanswer\tcontext\na\tRefunds take 30 days.\tRefunds take 30 days.\n")
    (record,) = read_cases(tabbed)
    assert record.case is not None
    assert record.case.id == "a"
    # forced to a comma, the same file is one column: the error names the delimiter used
    path = tmp_path / "export.csv"
    path.write_text(EUROPEAN)
    records = read_cases(path, delimiter=",")
    assert all(r.case is None for r in records)
    assert main(["check", str(path), "--delimiter", ","]) == 2
    err = capsys.readouterr().err
    assert "read with the delimiter comma (','), given" in err
    assert main(["check", str(path), "--delimiter", ";"]) in (0, 1)
    with pytest.raises(CaseFileError, match="for a CSV file"):
        read_cases(tmp_path / "x.jsonl", delimiter=";")


def test_the_csv_modules_own_limit_is_left_as_the_caller_set_it(tmp_path: Path) -> None:
    path = tmp_path / "cases.csv"
    path.write_text(f"id,answer,context\na,{'w' * 200_000},ctx\n")
    before = csv.field_size_limit()
    (record,) = read_cases(path)  # 200,000 characters: over csv's own 131,072, under ours
    assert record.case is not None
    assert csv.field_size_limit() == before


def _workbook(path: Path, rows: list[list[Any]]) -> Path:
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    sheet = book.active
    for row in rows:
        sheet.append(row)
    book.save(path)
    return path


def test_an_excel_workbook_is_read_like_a_csv(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _workbook(
        tmp_path / "cases.xlsx",
        [
            ["id", "question", "answer", "context", "answerable"],
            ["x1", "How long?", "Refunds take 30 days.", "Refunds take 30 days.", True],
            [2, "Rate?", "The rate is 1.5%.", "The rate is 1.5% a year.", None],
            [None, None, None, None, None],
            ["x3", "Who?", "The bank pays.", "x" * 3000, None],
        ],
    )
    records = read_cases(path, limits=ReadLimits(max_field_bytes=2048))
    assert [r.line for r in records] == [2, 3, 5]
    assert records[0].case is not None
    assert records[0].case.answerable is True
    assert records[1].case is not None
    assert records[1].case.id == "2"
    assert records[2].error is not None
    assert records[2].error.code == "field_too_large"
    assert records[2].error.field == "context"
    assert records[2].error.line == 5
    assert main(["check", str(path), "--json"]) == 0
    assert [json.loads(line)["id"] for line in capsys.readouterr().out.splitlines()] == [
        "x1",
        "2",
        "x3",
    ]


def test_an_excel_bomb_is_refused_from_its_zip_index(tmp_path: Path) -> None:
    import zipfile

    plain = _workbook(tmp_path / "plain.xlsx", [["id", "answer", "context"], ["a", "b", "c"]])
    path = tmp_path / "bomb.xlsx"
    sheet = (
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        '<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>'
        + "b" * (8 << 20)
        + "</t></is></c></row></sheetData></worksheet>"
    )
    with zipfile.ZipFile(plain) as src, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for info in src.infolist():
            data = src.read(info)
            out.writestr(info.filename, sheet if info.filename.endswith("sheet1.xml") else data)
    assert path.stat().st_size < 1 << 20  # 8 MiB of one letter deflate to a few KB
    with pytest.raises(CaseFileError) as exc:
        read_cases(path, limits=ReadLimits(max_file_bytes=4 << 20))
    assert exc.value.code == "file_too_large"
    assert "unpacks to 8.0 MiB by its own index" in exc.value.message
