"""``hybridjudge check CASES.jsonl [--json]``: output, exit codes and bad lines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hybridjudge.cli import main

CONTEXT = "Customers may request a full refund within 30 days. There is no restocking fee."
GOOD = {
    "id": "good",
    "answer": "You have thirty days and there is no restocking fee.",
    "context": CONTEXT,
    "anchors": ["30 days", {"value": "no restocking fee", "aliases": ["no fee"]}],
}
FABRICATED = {
    "id": "fabricated",
    "answer": "You have 45 days.",
    "context": [CONTEXT],
    "question": "How long do I have?",
    "answerAnchors": ["30 days"],  # OpenGATE's field names are accepted
    "allowedNewNumbers": [],
}


def _write(path: Path, lines: list[object]) -> Path:
    with path.open("wb") as handle:
        for line in lines:
            if isinstance(line, bytes):
                handle.write(line + b"\n")
            elif isinstance(line, str):
                handle.write(line.encode("utf-8") + b"\n")
            else:
                handle.write(json.dumps(line).encode("utf-8") + b"\n")
    return path


def test_all_grounded_exits_0_with_a_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = _write(tmp_path / "cases.jsonl", [GOOD])
    assert main(["check", str(cases)]) == 0
    out, err = capsys.readouterr()
    assert "good" in out
    assert "yes" in out
    assert "1 checked, 1 grounded, 0 not grounded" in err


def test_findings_exit_1_and_json_has_one_object_per_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = _write(tmp_path / "cases.jsonl", [GOOD, FABRICATED])
    assert main(["check", str(cases), "--json"]) == 1
    out, _ = capsys.readouterr()
    first, second = (json.loads(line) for line in out.splitlines())
    assert first == {"id": "good", "grounded": True, "abstained": False, "findings": []}
    assert second["id"] == "fabricated"
    assert second["grounded"] is False
    kinds = [f["kind"] for f in second["findings"]]
    assert kinds == ["missing_anchor", "ungrounded_number"]
    span = second["findings"][1]["span"]
    assert FABRICATED["answer"][span[0] : span[1]] == "45 days"


def test_table_lists_the_findings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cases = _write(tmp_path / "cases.jsonl", [FABRICATED])
    assert main(["check", str(cases)]) == 1
    out, _ = capsys.readouterr()
    assert "NO" in out
    assert 'ungrounded_number: number "45 days"' in out


def test_bad_lines_are_reported_counted_and_do_not_stop_the_others(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = _write(
        tmp_path / "cases.jsonl",
        [
            GOOD,
            "{not json",
            b'{"id": "latin1", "answer": "caf\xe9", "context": "x"}',
            {"id": "no-answer", "context": "x"},
            {"id": "typed", "answer": "x", "context": "x", "answerable": "maybe"},
            {"id": "allowed", "answer": "x", "context": "x", "allowed_numbers": ["lots"]},
            FABRICATED,
        ],
    )
    assert main(["check", str(cases), "--json"]) == 2
    out, err = capsys.readouterr()
    objects = [json.loads(line) for line in out.splitlines()]
    assert len(objects) == 7  # one per input line, in order
    assert [o.get("grounded") for o in objects] == [True, None, None, None, None, None, False]
    assert [o.get("line") for o in objects[1:6]] == [2, 3, 4, 5, 6]
    assert "line 2: invalid JSON" in err
    assert "line 3: not valid UTF-8" in err
    assert "line 4, case 'no-answer', field 'answer'" in err
    assert "line 5, case 'typed', field 'answerable'" in err
    assert "line 6, case 'allowed', field 'allowed_numbers'" in err
    assert "5 unusable lines" in err


def test_ten_megabyte_context_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    big = dict(GOOD, context="Policy text without figures. " * 350_000 + CONTEXT)
    cases = _write(tmp_path / "cases.jsonl", [big])
    assert cases.stat().st_size > 10_000_000
    assert main(["check", str(cases), "--json"]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    assert json.loads(line)["grounded"] is True


def test_empty_answer_is_checked_not_rejected(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = _write(tmp_path / "cases.jsonl", [dict(GOOD, answer="")])
    assert main(["check", str(cases), "--json"]) == 1
    (line,) = capsys.readouterr().out.splitlines()
    assert [f["kind"] for f in json.loads(line)["findings"]] == ["missing_anchor", "missing_anchor"]


def test_missing_file_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(tmp_path / "absent.jsonl")]) == 2
    assert "absent.jsonl" in capsys.readouterr().err


def test_help_explains_the_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    out = capsys.readouterr().out
    assert "0  every case is grounded" in out
    assert "2  unusable input" in out
