"""``check_many`` reads its records as ``hybridjudge check`` reads a case line (docs/formats.md,
"Case lines"), refuses what is not a list of records, and the README's first example prints what
the README shows."""

from __future__ import annotations

import contextlib
import io
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from hybridjudge.cli import main
from hybridjudge.corpus import FIELD_ALIASES, read_cases
from hybridjudge.grounding import (
    CheckRecord,
    GroundingInputError,
    GroundingTypeError,
    check_grounding,
    check_many,
)

REFUND = "Refunds within 30 days."
ROOT = Path(__file__).resolve().parents[2]


def test_opengate_field_names_are_read_as_ours() -> None:
    batch = check_many(
        [
            {
                "answer": "Within 30 days.",
                "context": [REFUND],
                "answerAnchors": ["30 days"],
                "allowedNewNumbers": [],
            },
            {"answer": "Within 45 days.", "context": [REFUND], "answerAnchors": ["30 days"]},
        ]
    )
    assert [o.status for o in batch.outcomes] == ["checked", "checked"]
    # by hand: the first answer holds the anchor; the second lacks it and adds 45 days
    assert [o.grounded for o in batch.outcomes] == [True, False]
    second = batch.outcomes[1].report
    assert second is not None
    assert second.kinds == {"missing_anchor", "ungrounded_number"}


def test_ragas_and_deepeval_names_are_read_and_extra_fields_kept_as_metadata() -> None:
    batch = check_many(
        [
            {
                "user_input": "How long for refunds?",
                "response": "Within 30 days.",
                "retrieved_contexts": [REFUND],
                "reference": "30 days",
                "team": "web",
            },
            {
                "input": "How long for refunds?",
                "actual_output": "Within 30 days.",
                "retrieval_context": [REFUND],
                "additional_metadata": {"anchors": ["30 days"], "owner": "ana"},
            },
        ]
    )
    first, second = batch.outcomes
    assert (first.status, first.grounded, first.metadata) == ("checked", True, {"team": "web"})
    # DeepEval keeps labels in additional_metadata: the anchors are used, the rest stays metadata
    assert (second.status, second.grounded, second.metadata) == ("checked", True, {"owner": "ana"})
    assert second.report is not None
    assert second.report == check_grounding("Within 30 days.", [REFUND], anchors=["30 days"])


def test_records_without_id_are_record_n_as_the_cli_names_them(tmp_path: Path) -> None:
    records: list[dict[str, Any]] = [
        {"id": "a", "answer": "Within 30 days.", "context": REFUND},
        {"case_id": "b", "answer": "Within 30 days.", "context": REFUND},
        {"id": 7, "answer": "Within 30 days.", "context": REFUND},
        {"answer": "Within 30 days.", "context": REFUND},
        {"answer": 30, "context": REFUND},  # invalid: its failed outcome has the same rule
    ]
    batch = check_many(records)
    assert [o.id for o in batch.outcomes] == ["a", "b", "7", "record-4", "record-5"]
    assert batch.outcomes[4].status == "failed"
    # the CLI reading the same records from a .json file (record numbers, 1-based)
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(records), encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["check", str(path), "--json", "-q"])
    cli_ids = [json.loads(line)["id"] for line in out.getvalue().splitlines()]
    assert cli_ids[:4] == ["a", "b", "7", "record-4"]


def test_a_field_given_under_two_names_fails_that_record_alone() -> None:
    batch = check_many(
        [
            {"id": "two", "answer": "A.", "response": "B.", "context": REFUND},
            {"id": "ok", "answer": "Within 30 days.", "context": REFUND},
        ]
    )
    assert [o.status for o in batch.outcomes] == ["failed", "checked"]
    assert "'answer'" in (batch.outcomes[0].error or "")
    assert "keep one" in (batch.outcomes[0].error or "")


@dataclass
class _Sample:
    """A record as an object with fields (as RAGAS's SingleTurnSample is read)."""

    response: str
    retrieved_contexts: list[str]
    sample_id: str


def test_objects_with_fields_are_read_like_mappings() -> None:
    batch = check_many([_Sample("Within 30 days.", [REFUND], "s1")])
    assert [(o.id, o.status, o.grounded) for o in batch.outcomes] == [("s1", "checked", True)]


def test_typed_records_and_case_lines_still_go_through() -> None:
    cases = [r.case for r in read_cases([{"answer": "Within 45 days.", "context": REFUND}])]
    record = CheckRecord(id="x", answer="Within 30 days.", context=(REFUND,), anchors=["30 days"])
    batch = check_many([record, *cases])
    assert [(o.id, o.grounded) for o in batch.outcomes] == [("x", True), ("record-1", False)]


def test_the_same_records_read_the_same_as_read_cases() -> None:
    # the batch API and the CLI's reader map field names with the same table and rules
    from hybridjudge._frames import FIELD_ALIASES as FRAME_ALIASES

    assert FRAME_ALIASES == FIELD_ALIASES
    records: list[dict[str, Any]] = [
        {"response": "Within 30 days.", "contexts": [REFUND], "query": "How long?", "x": 1},
        {"answer": "Within 30 days.", "context": REFUND, "required_facts": "30 days"},
        {"answer": "Within 30 days.", "context": REFUND, "metadata": {"id": "lifted", "k": 2}},
        {"answer": "A.", "context": REFUND, "retrieval_context": [REFUND]},
        {"answer": "A.", "context": REFUND, "metadata": {"x": 1}, "x": 2},
        {"answer": "A.", "context": REFUND, "reference": 5},
    ]
    batch = check_many(records)
    read = read_cases(records)
    for outcome, case in zip(batch.outcomes, read, strict=True):
        assert (outcome.status == "checked") == (case.case is not None)
        if case.case is not None:
            assert outcome.id == case.case.id
            assert outcome.metadata == case.case.metadata


@pytest.mark.parametrize(
    ("records", "what"),
    [
        ("cases.jsonl", "a str"),
        (b"cases.jsonl", "a bytes"),
        ({"answer": "Within 30 days.", "context": REFUND}, "a single mapping"),
        (42, "a int"),
    ],
)
def test_a_string_or_a_mapping_is_refused_not_iterated(records: Any, what: str) -> None:
    with pytest.raises(GroundingTypeError, match="list of records") as caught:
        check_many(records)
    assert isinstance(caught.value, GroundingInputError)
    assert caught.value.argument == "records"
    assert what in str(caught.value)
    assert "read_cases" in str(caught.value)  # how to check a file instead


def test_a_dataframe_is_read_row_by_row() -> None:
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(
        [{"id": "a", "response": "Within 30 days.", "retrieved_contexts": [REFUND]}]
    )
    batch = check_many(frame)
    assert [(o.id, o.grounded) for o in batch.outcomes] == [("a", True)]


# -- the README's first Python example ------------------------------------------------------------


def test_the_readme_grounding_example_shows_exactly_what_it_prints() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    (block,) = [
        b for b in re.findall(r"```python\n(.*?)```", readme, flags=re.S) if "check_grounding(" in b
    ]
    shown = [line[2:] for line in block.splitlines() if line.startswith("# ")]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(block, {})
    assert out.getvalue().splitlines() == shown


# -- the report model (a batch's outcomes hold it, and it round-trips through JSON) ---------------


def _report_data(**changes: Any) -> dict[str, Any]:
    report = check_grounding("Within 45 days.", [REFUND])
    data: dict[str, Any] = json.loads(report.model_dump_json())
    data.update(changes)
    return data


def test_a_report_round_trips() -> None:
    from hybridjudge.grounding import GroundingReport

    report = check_grounding("Within 45 days.", [REFUND])
    assert GroundingReport.model_validate_json(report.model_dump_json()) == report


@pytest.mark.parametrize("version", [99, 3, 0, True, 1.0, "1"])
def test_a_report_of_an_unknown_version_is_refused(version: object) -> None:
    from pydantic import ValidationError

    from hybridjudge.grounding import GroundingReport

    with pytest.raises(ValidationError, match=r"version .* is not supported .*reads versions 1, 2"):
        GroundingReport.model_validate(_report_data(version=version))


def test_grounded_means_no_finding() -> None:
    from pydantic import ValidationError

    from hybridjudge.grounding import GroundingReport

    with pytest.raises(ValidationError, match="grounded exactly when it has no finding"):
        GroundingReport.model_validate(_report_data(grounded=True))
    with pytest.raises(ValidationError, match="grounded exactly when it has no finding"):
        GroundingReport(grounded=False, abstained=False, answerable=True)


def test_a_lone_surrogate_fails_its_record_alone_and_the_batch_writes_as_json() -> None:
    """A string holding a lone UTF-16 surrogate (``json.loads('"\\ud800"')``) is refused as
    ``hybridjudge check`` refuses it in a case line: that record fails, naming the field, and
    the batch stays writable as JSON (its outcomes used to carry the string, and
    ``model_dump_json`` raised)."""
    batch = check_many(
        [
            {"id": "a\ud800", "answer": "5", "context": ["5"]},
            {"id": "b", "answer": "It is 5\ud800.", "context": ["5"]},
            {"id": "c", "answer": "5", "context": ["5"], "metadata": {"note": "\udfff"}},
            {
                "id": "d",
                "answer": "5",
                "context": ["5"],
                "anchors": [{"value": "5", "aliases": ["x\ud800"]}],
            },
            {"id": "e", "answer": "5", "context": ["5 and \ud800"]},
            {"id": "f", "answer": "5", "context": ["5"]},
        ]
    )
    assert [o.id for o in batch.outcomes] == ["record-1", "b", "c", "d", "e", "f"]
    assert [o.status for o in batch.outcomes] == ["failed"] * 5 + ["checked"]
    assert "'id'" in (batch.outcomes[0].error or "")
    fields = ("answer", "metadata", "anchors", "context")
    for outcome, field in zip(batch.outcomes[1:5], fields, strict=True):
        assert outcome.error == (
            f"field {field!r}: a string holds a lone UTF-16 surrogate (\\ud800-\\udfff); "
            "fix the escape"
        )
    assert json.loads(batch.model_dump_json())["outcomes"][5]["status"] == "checked"


def test_a_record_nested_too_deep_fails_alone_naming_its_field() -> None:
    """Metadata nested deeper than the JSONL reader reads (64 levels) fails its record, as in a
    case line; it crashed reading the record (RecursionError in the field-name mapping) and
    naming it."""
    deep: dict[str, Any] = {}
    inner = deep
    for _ in range(3_000):
        inner["k"] = {}
        inner = inner["k"]
    batch = check_many(
        [
            {"id": "deep", "answer": "5", "context": ["5"], "metadata": deep},
            {"id": "ok", "answer": "5", "context": ["5"]},
        ]
    )
    assert [(o.id, o.status) for o in batch.outcomes] == [("deep", "failed"), ("ok", "checked")]
    assert (
        batch.outcomes[0].error
        == "field 'metadata': nested deeper than 64 levels of arrays/objects"
    )
