"""``hybridjudge check --derived grounded|finding`` (issue 9): a derived number is reported with
its derivation; by default it is grounded, with ``--derived finding`` it is a finding (exit 1).

Golden derivation by hand: (177,866 - 135,987) / 135,987 = 41,879 / 135,987 = 30.796% -> 30.8%.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hybridjudge.cli import main

CASES = [
    {"id": "derived", "answer": "Revenue grew 30.8%.", "context": "Revenue | 177,866 | 135,987"},
    {"id": "plain", "answer": "Revenue was 177,866.", "context": "Revenue | 177,866 | 135,987"},
]


def _write(tmp_path: Path) -> Path:
    path = tmp_path / "cases.jsonl"
    path.write_text("".join(json.dumps(c) + "\n" for c in CASES), encoding="utf-8")
    return path


def test_derived_numbers_are_grounded_by_default(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", str(_write(tmp_path)), "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert lines[0]["grounded"] is True
    assert lines[0]["derived"] == [
        {
            "number": "30.8%",
            "derivation": "30.8% = (177,866 - 135,987) / 135,987",
            "rule": "percent_change",
        }
    ]
    assert "derived" not in lines[1]  # only written when there is one


def test_derived_finding_flags_them(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(_write(tmp_path)), "--json", "--derived", "finding"]) == 1
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [f["kind"] for f in lines[0]["findings"]] == ["derived_number"]
    assert lines[1]["grounded"] is True
