"""Verdict replies must carry exactly one verdict per claim id (enforced by the schema)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from hybridjudge.judges._schemas import (
    ContradictionReply,
    SharedReply,
    SupportReply,
    VerdictReply,
    verdict_schema,
)


def _v(claim_id: int, verdict: str = "supported") -> dict[str, object]:
    return {"claim_id": claim_id, "reason": "r", "verdict": verdict}


def test_exact_count_in_any_order_is_accepted() -> None:
    reply = verdict_schema(SupportReply, 3).model_validate(
        {"verdicts": [_v(3), _v(1, "not_supported"), _v(2)]}
    )
    assert sorted(v.claim_id for v in reply.verdicts) == [1, 2, 3]


@pytest.mark.parametrize(
    ("verdicts", "message"),
    [
        ([_v(1), _v(2)], "at least 3 items"),
        ([_v(1), _v(2), _v(3), _v(4)], "at most 3 items"),
        ([_v(1), _v(1), _v(2)], "duplicate claim_id"),
        ([_v(1), _v(2), _v(7)], "out of range"),
    ],
)
def test_wrong_count_or_ids_is_rejected(verdicts: list[dict[str, object]], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        verdict_schema(SupportReply, 3).model_validate({"verdicts": verdicts})


@pytest.mark.parametrize(
    ("reply", "good", "bad"),
    [
        (SupportReply, "not_supported", "unknown"),
        (ContradictionReply, "unknown", "supported"),
        (SharedReply, "not_in_context", "not_supported"),
    ],
)
def test_each_definition_has_its_own_labels(reply: type[VerdictReply], good: str, bad: str) -> None:
    schema = verdict_schema(reply, 1)
    parsed = schema.model_validate({"verdicts": [_v(1, good)]})
    assert parsed.model_dump()["verdicts"][0]["verdict"] == good
    with pytest.raises(ValidationError):
        schema.model_validate({"verdicts": [_v(1, bad)]})


def test_json_schema_fixes_the_count_and_puts_reason_before_verdict() -> None:
    schema = verdict_schema(ContradictionReply, 4).model_json_schema()
    verdicts = schema["properties"]["verdicts"]
    assert (verdicts["minItems"], verdicts["maxItems"]) == (4, 4)
    item = schema["$defs"]["ContradictionVerdict"]["properties"]
    assert list(item) == ["claim_id", "reason", "verdict"]


def test_zero_claims_has_no_verdict_schema() -> None:
    with pytest.raises(ValueError, match="at least one claim"):
        verdict_schema(SupportReply, 0)
