"""``check_many``: grounding checks over many records, one prepared checker per case."""

from __future__ import annotations

import asyncio
import sys
from typing import Any

import pytest

import hybridjudge
from hybridjudge.grounding import (
    CheckBatch,
    CheckRecord,
    GroundingChecker,
    GroundingTypeError,
    check_grounding,
    check_many,
)

REFUND = "Customers may request a full refund within 30 days of purchase."
SHIPPING = "Orders ship within 2 business days."


def _records() -> list[Any]:
    anchors = [{"value": "30 days", "aliases": ["thirty days"]}]
    return [
        CheckRecord(id="a", answer="Refunds within 30 days.", context=(REFUND,), anchors=anchors),
        {"id": "b", "answer": "Refunds within 45 days.", "context": REFUND, "anchors": anchors},
        {
            "id": "c",
            "answer": "Refunds within thirty days.",
            "context": [REFUND],
            "anchors": anchors,
            "metadata": {"team": "web"},
        },
        {"id": "d", "answer": "Orders ship within 3 business days.", "context": SHIPPING},
    ]


def test_each_record_gets_the_report_check_grounding_gives(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[object] = []

    class Counting(GroundingChecker):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            built.append(args[0])
            super().__init__(*args, **kwargs)

    monkeypatch.setattr("hybridjudge.grounding._batch.GroundingChecker", Counting)
    seen: list[tuple[int, int]] = []
    batch = check_many(_records(), progress=lambda done, total: seen.append((done, total)))
    # three records share the refund case (a plain string or a one-element list is the same
    # context), one is on its own: two checkers, each context parsed once
    assert batch.prepared_cases == 2
    assert len(built) == 2
    assert seen == [(4, 4)]
    for record, outcome in zip(_records(), batch.outcomes, strict=True):
        data = record.model_dump() if isinstance(record, CheckRecord) else record
        alone = check_grounding(data["answer"], data["context"], anchors=data.get("anchors", ()))
        assert outcome.report == alone
    # by hand: 45 days is not in the context; 3 business days is not either
    assert [o.grounded for o in batch.outcomes] == [True, False, True, False]


def test_a_bad_record_fails_alone_with_the_reason() -> None:
    records: list[Any] = [
        {"id": "ok", "answer": "Refunds within 30 days.", "context": REFUND},
        {"id": "type", "answer": 30, "context": REFUND},
        {"id": "anchor", "answer": "Refunds.", "context": REFUND, "anchors": [{"aliases": ["x"]}]},
        {"id": "twice", "answer": "Refunds.", "response": "Refunds.", "context": REFUND},
        {"id": "ok2", "answer": "Refunds within 31 days.", "context": REFUND},
    ]
    batch = check_many(records)
    assert [o.status for o in batch.outcomes] == [
        "checked",
        "failed",
        "failed",
        "failed",
        "checked",
    ]
    errors = {o.id: o.error or "" for o in batch.failed}
    assert "'answer'" in errors["type"]
    assert "value" in errors["anchor"]
    assert "both 'answer' and 'response'" in errors["twice"]  # one field under two names
    assert batch.outcomes[4].grounded is False
    assert batch.outcomes[1].grounded is None


def test_invalid_markers_are_refused_once_for_the_whole_batch() -> None:
    with pytest.raises(GroundingTypeError, match="abstain_markers"):
        check_many(_records(), abstain_markers="I don't know")


def test_batch_converts_to_records_and_a_dataframe() -> None:
    batch = check_many(_records())
    rows = batch.to_records()
    assert [r["grounded"] for r in rows] == [True, False, True, False]
    # by hand: "45 days" is not in the context, and the required "30 days" is missing
    assert rows[1]["finding_kinds"] == "missing_anchor: 30 days; ungrounded_number: 45 days"
    assert rows[2]["metadata.team"] == "web"
    assert "metadata.team" not in rows[0]
    frame = batch.to_pandas()
    assert list(frame.columns) == [
        "id",
        "status",
        "grounded",
        "abstained",
        "findings",
        "finding_kinds",
        "error",
        "elapsed_ms",
        "metadata.team",
    ]
    assert frame["findings"].tolist() == [0, 2, 0, 1]
    assert CheckBatch.model_validate_json(batch.model_dump_json()) == batch


def test_to_pandas_without_pandas_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    batch = check_many(_records()[:1])
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match=r"pip install 'hybridjudge\[pandas\]'"):
        batch.to_pandas()


def test_check_many_works_inside_a_running_event_loop() -> None:
    async def notebook_cell() -> CheckBatch:
        asyncio.get_running_loop()
        return check_many(_records())

    inside = asyncio.run(notebook_cell())
    assert [o.grounded for o in inside.outcomes] == [True, False, True, False]
    assert hybridjudge.check_many is check_many
