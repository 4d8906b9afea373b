"""``check --json`` and ``judge --json`` carry the "why" the Python API returns: each finding's
subject and evidence (the nearest context number), and each claim's verdict and reason."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hybridjudge.cli import main
from hybridjudge.grounding import check_grounding

CASE: dict[str, Any] = {
    "id": "refund",
    "answer": "The refund window is 45 days.",
    "context": "Refunds are accepted within 30 days of purchase.",
    "anchors": ["30 days"],
}


def test_check_json_findings_have_subject_and_evidence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cases.jsonl"
    path.write_text(json.dumps(CASE) + "\n", encoding="utf-8")
    assert main(["check", str(path), "--json"]) == 1  # not grounded: exit 1
    record = json.loads(capsys.readouterr().out.splitlines()[0])
    by_kind = {f["kind"]: f for f in record["findings"]}
    # hand-read: "45 days" is not in the context; the nearest context quantity is "30 days"
    number = by_kind["ungrounded_number"]
    assert number["subject"] == "45 days"
    assert '"30 days"' in number["evidence"]
    assert number["span"] == [21, 28]
    assert by_kind["missing_anchor"]["subject"] == "30 days"
    assert by_kind["missing_anchor"]["evidence"] is None
    # exactly what the Python API returns
    report = check_grounding(CASE["answer"], CASE["context"], anchors=CASE["anchors"])
    assert [(f["subject"], f["evidence"]) for f in record["findings"]] == [
        (f.subject, f.evidence) for f in report.findings
    ]
