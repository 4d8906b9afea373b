"""CSV input and ``corpus import`` messages: broken list cells, start lines, empty sources."""

from __future__ import annotations

from pathlib import Path

import pytest

from hybridjudge import CaseFileError
from hybridjudge._errors import ConfigError
from hybridjudge.cli import main
from hybridjudge.corpus import import_corpus, load_corpus, read_cases, read_raw_records

HEADER = "id,answer,context,anchors\n"
GOOD = 'b,Refunds take 30 days.,Refunds take 30 days.,"[""30 days""]"\n'
BROKEN_THEN_GOOD = HEADER + 'a,Refunds take 30 days.,Refunds take 30 days.,"[""30 days"""\n' + GOOD
"""Line 2: an anchors cell of broken JSON (no closing bracket); line 3: a good record."""


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8", newline="")
    return path


# -- 1. a list cell with broken JSON is an error for its line and field ---------------------


def test_broken_json_list_cell_is_an_error_for_its_line_and_field(tmp_path: Path) -> None:
    path = _write(tmp_path / "r.csv", BROKEN_THEN_GOOD)
    bad, good = read_cases(path)
    assert bad.case is None
    assert bad.error is not None
    assert (bad.line, bad.error.line, bad.error.field) == (2, 2, "anchors")
    assert bad.error.case_id == "a"
    assert bad.error.code == "invalid_case_line"
    assert "not a JSON array" in bad.error.message
    assert 'write a list cell as a JSON array such as ["30 days"]' in bad.error.message
    assert bad.error.message.startswith(f"{path}, line 2, case 'a', field 'anchors': ")
    # the broken cell is reported once, not also as a literal anchor or a missing field
    assert len(bad.problems) == 1
    assert bad.problems[0].startswith("anchors: ")
    # the next line is still read
    assert good.case is not None
    assert good.line == 3
    assert [a.value for a in good.case.anchors] == ["30 days"]


def test_broken_cell_is_reported_with_the_other_problems_of_its_record(tmp_path: Path) -> None:
    path = _write(tmp_path / "r.csv", 'id,context,allowed_numbers\na,ctx,"[30, 45"\n')
    (record,) = read_cases(path)
    assert record.error is not None
    assert record.error.field is None
    assert record.problems[0].startswith("allowed_numbers: not a JSON array (")
    assert 'such as ["30", "45"]' in record.problems[0]
    assert any(p.startswith("answer: required field is missing") for p in record.problems)


def test_public_raw_reader_gives_an_error_not_a_placeholder(tmp_path: Path) -> None:
    path = _write(tmp_path / "r.csv", 'id,required_facts\na,[30 days]\nb,"[""x""]"\n')
    (line, first), (_, second) = read_raw_records(path)
    assert isinstance(first, CaseFileError)
    assert (line, first.line, first.field) == (2, 2, "required_facts")
    assert second == {"id": "b", "required_facts": ["x"]}


def test_plain_text_list_cells_are_still_accepted(tmp_path: Path) -> None:
    path = _write(
        tmp_path / "r.csv",
        "id,answer,context,anchors\na,Refunds take 30 days.,[1] Refunds take 30 days.,30 days\n",
    )
    (record,) = read_cases(path)
    assert record.case is not None, record.problems
    assert record.case.context == ("[1] Refunds take 30 days.",)  # a passage, not an array
    assert [a.value for a in record.case.anchors] == ["30 days"]


def test_broken_context_array_is_an_error(tmp_path: Path) -> None:
    path = _write(tmp_path / "r.csv", 'id,answer,context\na,x,"[""one"", ""two"""\n')
    (record,) = read_cases(path)
    assert record.error is not None
    assert record.error.field == "context"
    assert "not a JSON array" in record.error.message


def test_check_reports_the_broken_cell_and_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path / "r.csv", BROKEN_THEN_GOOD)
    assert main(["check", str(path)]) == 2
    out, err = capsys.readouterr()
    assert f"{path}, line 2, case 'a', field 'anchors': not a JSON array" in err
    assert "missing required fact" not in out + err
    assert "1 checked, 1 grounded" in err


def test_import_skips_the_broken_cell_instead_of_storing_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path / "r.csv", BROKEN_THEN_GOOD)
    out_dir = tmp_path / "c"
    assert main(["corpus", "import", str(path), "--out", str(out_dir)]) == 2
    assert f"{path}: line 2: skipped: anchors: not a JSON array" in capsys.readouterr().err
    cases = load_corpus(out_dir).cases
    assert list(cases) == ["b"]
    assert [a.value for a in cases["b"].anchors] == ["30 days"]


# -- 2. a record is numbered by the line it starts on ---------------------------------------


def test_multi_line_record_is_numbered_by_its_first_line(tmp_path: Path) -> None:
    path = _write(
        tmp_path / "r.csv",
        "answer,context\n"
        '"multi\nline\nanswer",ctx\n'  # lines 2-4
        "x,\n"  # line 5: no context
        "\n"  # line 6: blank, no record
        "y,ctx\n",  # line 7
    )
    first, second, third = read_cases(path)
    assert first.case is not None
    assert first.line == 2
    assert first.case.id == "record-2"
    assert second.error is not None
    assert (second.line, second.error.line) == (5, 5)
    assert second.error.field == "context"
    assert third.case is not None
    assert third.case.id == "record-7"


def test_single_line_records_keep_their_record_ids(tmp_path: Path) -> None:
    path = _write(tmp_path / "r.csv", "answer,context\na,c\nb,c\nc,c\n")
    assert [r.case.id for r in read_cases(path) if r.case] == ["record-2", "record-3", "record-4"]


def test_extra_cells_in_a_multi_line_record_name_its_first_line(tmp_path: Path) -> None:
    path = _write(tmp_path / "r.csv", 'answer,context\n"a\nb",c,extra\nx,y\n')
    first, second = read_cases(path)
    assert first.error is not None
    assert (first.line, first.error.line) == (2, 2)
    assert "1 more cell(s) than header columns" in first.error.message
    assert second.case is not None
    assert second.line == 4


def test_an_oversized_cell_is_an_error_for_its_line(tmp_path: Path) -> None:
    """The cell bound is the field limit (ReadLimits.max_field_bytes, --max-field-bytes), not
    the csv module's process-wide setting, which is left as the caller had it."""
    import csv

    from hybridjudge.corpus import ReadLimits

    path = _write(tmp_path / "r.csv", "answer,context\na," + "c" * 50 + "\nb,c\n")
    before = csv.field_size_limit()
    first, second = read_cases(path, limits=ReadLimits(max_field_bytes=20))
    assert csv.field_size_limit() == before
    assert first.error is not None
    assert (first.line, first.error.line) == (2, 2)
    assert first.error.code == "field_too_large"
    assert "past the field limit of 20 bytes" in first.error.message
    assert "--max-field-bytes" in first.error.message
    assert second.case is not None
    assert second.line == 3


# -- 3. corpus import: an empty source and the --overwrite message --------------------------


@pytest.mark.parametrize("text", ["", "id,answer,context\n"])
def test_import_of_an_empty_file_is_an_input_error_naming_it(tmp_path: Path, text: str) -> None:
    path = _write(tmp_path / "empty.csv", text)
    with pytest.raises(CaseFileError) as info:
        import_corpus(path, tmp_path / "c")
    assert info.value.code == "invalid_case_file"
    assert info.value.path == str(path)
    assert str(info.value).startswith(f"{path}: no record to import: the source is empty")
    assert "()" not in str(info.value)
    assert not (tmp_path / "c").exists()


def test_cli_import_of_an_empty_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path / "empty.csv", "")
    assert main(["corpus", "import", str(path), "--out", str(tmp_path / "c")]) == 2
    err = capsys.readouterr().err
    assert "[invalid_case_file]" in err
    assert f"{path}: no record to import" in err


def test_import_with_only_bad_records_lists_them(tmp_path: Path) -> None:
    with pytest.raises(CaseFileError) as info:
        import_corpus([{"answer": "x"}], tmp_path / "c")
    assert info.value.code == "invalid_case_file"
    assert "the list: no usable record, nothing imported" in str(info.value)
    assert "record 1: context: required field is missing" in str(info.value)


def test_non_empty_folder_message_names_the_overwrite_flag(tmp_path: Path) -> None:
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "keep.txt").write_text("x", encoding="utf-8")
    with pytest.raises(ConfigError, match="folder is not empty") as info:
        import_corpus([{"answer": "x", "context": "y"}], tmp_path / "c")
    assert "pass --overwrite (overwrite=True in the API)" in str(info.value)


# -- fuzz: a lone surrogate or a deep nesting in a JSON file, a CSV cell or a list in memory ----
# Each was read into a record: the surrogate crashed writing cases.jsonl
# (PydanticSerializationError), the nesting crashed turning the values into plain JSON
# (RecursionError). Each is now a skipped record naming the reason, as in a JSONL file.

_SURROGATE = "\ud800"
_DEEP = "[" * 900 + "]" * 900


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('[{"id": "a", "answer": "x\\ud800", "context": ["c"]}]', "a string holds a lone UTF-16"),
        (
            '{"data": [{"id": "a", "answer": "x", "context": ["c"], "metadata": {"k": '
            + _DEEP
            + "}}]}",
            "nested deeper than 64 levels",
        ),
    ],
)
def test_a_json_file_record_with_a_surrogate_or_deep_nesting_is_skipped(
    tmp_path: Path, text: str, reason: str
) -> None:
    path = _write(tmp_path / "r.json", text)
    (record,) = read_cases(path)
    assert record.error is not None
    assert f"{path}: record 1: {reason}" in record.error.message
    with pytest.raises(CaseFileError, match=f"no usable record.*{reason}"):
        import_corpus(path, tmp_path / "c")
    assert not (tmp_path / "c").exists()


def test_a_json_cell_with_a_surrogate_or_deep_nesting_is_a_bad_list_cell(tmp_path: Path) -> None:
    text = HEADER + 'a,x,c,"[""\\ud800""]"\n' + f'b,x,c,"{_DEEP}"\n' + GOOD
    first, second, good = read_cases(_write(tmp_path / "r.csv", text))
    assert first.error is not None
    assert first.error.field == "anchors"
    assert "not a JSON array (a string holds a lone UTF-16 surrogate" in first.error.message
    assert second.error is not None
    assert second.error.field == "anchors"
    assert "nested deeper than 64 levels" in second.error.message
    assert good.case is not None
    report = import_corpus(tmp_path / "r.csv", tmp_path / "c")
    assert (report.cases, [s.record for s in report.skipped]) == (1, [2, 3])
    assert [c.id for c in load_corpus(tmp_path / "c").cases.values()] == ["b"]


def test_records_in_memory_with_a_surrogate_or_deep_nesting_are_skipped(tmp_path: Path) -> None:
    deep: object = 1
    for _ in range(3000):
        deep = [deep]
    records = [
        {"id": "a", "answer": "x" + _SURROGATE, "context": ["c"]},
        {"id": "b", "answer": "x", "context": ["c"], "metadata": {"k": deep}},
        {"id": "c", "answer": "Refunds take 30 days.", "context": ["Refunds take 30 days."]},
    ]
    first, second, good = read_cases(records)
    assert first.error is not None
    assert "record 1: a string holds a lone UTF-16" in str(first.error)
    assert second.error is not None
    assert "record 2: nested deeper than 64" in str(second.error)
    assert good.case is not None
    report = import_corpus(records, tmp_path / "c")
    assert (report.cases, [s.record for s in report.skipped]) == (1, [1, 2])
