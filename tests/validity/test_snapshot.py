"""The verdict snapshot (validity/snapshot.py): what it records and how two snapshots are diffed.

Issue 33: every changed verdict of a rebuilt grounding core is listed. Golden values are hand-made
snapshots (two answers, one whose verdict flips) and ``check_grounding`` itself on the same input.
"""

from __future__ import annotations

import json
from pathlib import Path

from hybridjudge.grounding import check_grounding
from tests.support.tatqa import load_validity

snapshot = load_validity("snapshot")


def _write(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_a_verdict_is_the_reports_grounded_findings_and_traces() -> None:
    record = {
        "id": "x/1",
        "answer": "It costs $12 and ships in 3 days.",
        "context": ("The price is $12.",),
        "question": "How much?",
        "answerable": True,
    }
    row = snapshot.verdict(record)
    report = check_grounding(
        "It costs $12 and ships in 3 days.",
        ("The price is $12.",),
        question="How much?",
        answerable=True,
    )
    assert row["grounded"] is False
    assert row["findings"] == [[f.kind, f.subject] for f in report.findings]
    assert ["ungrounded_number", "3 days"] in row["findings"]
    assert [t[1] for t in row["traces"]] == ["context", None]


def test_diff_lists_each_changed_verdict_with_both_sides(tmp_path: Path) -> None:
    same = {"id": "study/a", "grounded": True, "findings": [], "traces": [["1", "context", None]]}
    old = _write(
        tmp_path / "old.jsonl",
        [
            same,
            {
                "id": "tatqa-pdf/b",
                "grounded": False,
                "findings": [["ungrounded_number", "$5"]],
                "traces": [["$5", None, None]],
            },
        ],
    )
    new = _write(
        tmp_path / "new.jsonl",
        [
            same,
            {
                "id": "tatqa-pdf/b",
                "grounded": True,
                "findings": [],
                "traces": [["$5", "context", None]],
            },
        ],
    )
    text, changed = snapshot.diff(old, new)
    assert changed == 1
    assert "1 of 2 verdicts changed" in text
    assert "tatqa-pdf: 1 (flagged -> grounded: 1)" in text
    assert "old: [['ungrounded_number', '$5']]" in text
    assert snapshot.main(["--diff", str(old), str(new)]) == 1
    assert snapshot.main(["--diff", str(old), str(old)]) == 0


def test_a_changed_trace_counts_only_when_asked(tmp_path: Path) -> None:
    old = _write(
        tmp_path / "o.jsonl",
        [
            {
                "id": "s/a",
                "grounded": True,
                "findings": [],
                "traces": [["30%", "derived", "30% = 3 / 10"]],
            }
        ],
    )
    new = _write(
        tmp_path / "n.jsonl",
        [{"id": "s/a", "grounded": True, "findings": [], "traces": [["30%", "context", None]]}],
    )
    assert snapshot.diff(old, new)[1] == 0
    assert snapshot.diff(old, new, traces=True)[1] == 1


def test_the_snapshot_covers_the_study_outputs_and_tatqa(tmp_path: Path) -> None:
    out = tmp_path / "snap.jsonl"
    assert snapshot.main(["--out", str(out), "--every", "50", "--layouts", "pipe"]) == 0
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    sources = {r["id"].split("/", 1)[0] for r in rows}
    assert {"study", "tatqa-pipe", "tatqa-model"} <= sources
    # the main job's 430 outputs plus the retriever's context mutants
    assert sum(r["id"].startswith("study/") for r in rows) > 430
    assert len({r["id"] for r in rows}) == len(rows)
