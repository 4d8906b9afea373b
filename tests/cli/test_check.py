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


def test_the_table_shows_case_ids_as_typed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # rich would turn ":tada:" into an emoji and "[b]" into bold: user text is shown as written
    cases = _write(tmp_path / "cases.jsonl", [{**GOOD, "id": ":tada: [b]x[/b]"}])
    assert main(["check", str(cases)]) == 0
    out = capsys.readouterr().out
    assert ":tada: [b]x[/b]" in out
    assert "\N{PARTY POPPER}" not in out


def test_findings_exit_1_and_json_has_one_object_per_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = _write(tmp_path / "cases.jsonl", [GOOD, FABRICATED])
    assert main(["check", str(cases), "--json"]) == 1
    out, _ = capsys.readouterr()
    first, second = (json.loads(line) for line in out.splitlines())
    assert first == {
        "format_version": 2,  # like judge --json's lines, each says its format
        "line": 1,
        "id": "good",
        "grounded": True,
        "abstained": False,
        "findings": [],
        "findings_count": 0,
        "rules": {"as_written": 1},  # "thirty days" is the context's "30 days"
    }
    assert second["line"] == 2
    assert second["id"] == "fabricated"
    assert second["grounded"] is False
    assert "rules" not in second  # "45 days" is traced by no rule
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
    assert [o["line"] for o in objects] == [1, 2, 3, 4, 5, 6, 7]
    assert {o["format_version"] for o in objects} == {2}
    assert "line 2: invalid JSON" in err
    assert "line 3: not valid UTF-8" in err
    assert "line 4, case 'no-answer', field 'answer'" in err
    assert "line 5, case 'typed', field 'answerable'" in err
    assert "line 6, case 'allowed', field 'allowed_numbers'" in err
    assert "5 unusable lines" in err


def test_a_file_of_only_bad_lines_prints_no_empty_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = _write(tmp_path / "cases.jsonl", ["{not json", {"id": "no-answer", "context": "x"}])
    assert main(["check", str(cases)]) == 2
    out, err = capsys.readouterr()
    assert out == ""  # nothing was checked: no table with a header and no row
    assert "0 checked" in err
    assert "2 unusable lines" in err


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
    assert "0    every usable case passes (is grounded)" in out
    assert "2    unusable input" in out
    assert out.count("exit codes") == 1  # one block, from cli/_exit.py's table


def test_other_formats_and_field_names_with_metadata_echoed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    csv_file = tmp_path / "cases.csv"
    csv_file.write_text(
        "user_input,response,retrieved_contexts,anchors,team\n"
        f'How long?,You have thirty days.,"{json.dumps([CONTEXT]).replace(chr(34), chr(34) * 2)}",'
        '"[""30 days""]",payments\n',
        encoding="utf-8",
    )
    assert main(["check", str(csv_file), "--json"]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    assert json.loads(line) == {
        "format_version": 2,
        "line": 2,
        "id": "record-2",  # no id: record-N, N the line (line 1 is the CSV header)
        "grounded": True,
        "abstained": False,
        "findings": [],
        "findings_count": 0,
        "rules": {"as_written": 1},
        "metadata": {"team": "payments"},
    }
    # --strict keeps the old behaviour: foreign names and extra fields are rejected, all listed
    assert main(["check", str(csv_file), "--json", "--strict"]) == 2
    err = capsys.readouterr().err
    assert "line 2: 7 problems: user_input: unknown field" in err
    assert "team: unknown field" in err


def test_parquet_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    rows = [
        {"id": "good", "answer": GOOD["answer"], "context": [CONTEXT]},
        {"id": "bad", "answer": "You have 45 days.", "context": [CONTEXT]},
    ]
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "cases.parquet")
    assert main(["check", str(tmp_path / "cases.parquet"), "--json"]) == 1
    out = capsys.readouterr().out
    assert [json.loads(line)["grounded"] for line in out.splitlines()] == [True, False]


def test_fail_under_sets_the_grounded_share_that_passes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = _write(tmp_path / "cases.jsonl", [GOOD, GOOD, GOOD, FABRICATED])  # 3 of 4 grounded
    assert main(["check", str(cases), "--fail-under", "deterministic=0.75"]) == 0
    assert main(["check", str(cases), "--fail-under", "deterministic=0.8"]) == 1
    err = capsys.readouterr().err
    assert (
        "FAIL deterministic: 3 of 4 usable output(s) pass (pass: grounded), a share of 0.750, "
        "below --fail-under 0.8" in err
    )
    assert main(["check", str(cases)]) == 1  # without it, any finding fails
    assert main(["check", str(cases), "--fail-under", "support=0.8"]) == 2
    assert "unknown scorer 'support'" in capsys.readouterr().err
    assert main(["check", str(cases), "--fail-under", "deterministic=1.5"]) == 2


def test_a_file_without_cases_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n\n", encoding="utf-8")
    assert main(["check", str(empty)]) == 2
    assert "no case in the file" in capsys.readouterr().err


def test_json_names_the_rule_of_each_traced_and_derived_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # (177,866 - 135,987) / 135,987 = 30.797% (hand): "30.8%" is a percent change, and the two
    # revenues stand in the context as written
    case = {
        "id": "growth",
        "answer": "Revenue rose from $135,987 to $177,866, up 30.8%.",
        "context": "Revenue was $177,866 in 2019 and $135,987 in 2018.",
    }
    cases = _write(tmp_path / "cases.jsonl", [case])
    assert main(["check", str(cases), "--json"]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    record = json.loads(line)
    assert record["rules"] == {"as_written": 2, "percent_change": 1}
    assert record["derived"] == [
        {
            "number": "30.8%",
            "derivation": "30.8% = ($177,866 - $135,987) / $135,987",
            "rule": "percent_change",
        }
    ]


def test_list_rules_prints_every_rule_with_its_meaning(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from hybridjudge.grounding import TRACE_RULES

    with pytest.raises(SystemExit) as exit_info:
        main(["check", "--list-rules"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    starts = [line.split()[0] for line in out.splitlines() if not line.startswith(" ")]
    assert starts == list(TRACE_RULES)
