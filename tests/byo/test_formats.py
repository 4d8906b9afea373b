"""Case input from the formats and field-name families users already have (corpus.read_cases)."""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from hybridjudge._errors import CaseFileError
from hybridjudge.corpus import CaseLine, InputRecord, read_cases
from tests.byo._records import deepeval_cases, ragas_records

CONTEXT = "Customers may request a full refund within 30 days of purchase."
ANSWER = "You can get a refund within 30 days."


def _cases(records: list[InputRecord]) -> list[CaseLine]:
    assert all(r.error is None for r in records), [str(r.error) for r in records]
    return [r.case for r in records if r.case is not None]


def _write_jsonl(path: Path, rows: list[Any]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


# -- field-name families ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("family", "record"),
    [
        ("hybridjudge", {"question": "Q?", "answer": ANSWER, "context": [CONTEXT]}),
        (
            "ragas",
            {
                "user_input": "Q?",
                "response": ANSWER,
                "retrieved_contexts": [CONTEXT],
                "reference": "30 days",
            },
        ),
        (
            "ragas-legacy",
            {"question": "Q?", "answer": ANSWER, "contexts": [CONTEXT], "ground_truth": "30 days"},
        ),
        (
            "deepeval",
            {
                "input": "Q?",
                "actual_output": ANSWER,
                "retrieval_context": [CONTEXT],
                "expected_output": "30 days",
            },
        ),
    ],
)
def test_each_field_name_family_maps_to_the_same_case(family: str, record: dict[str, Any]) -> None:
    (result,) = read_cases([record])
    case = result.case
    assert case is not None, result.error
    assert (case.id, case.question, case.answer, case.context) == (
        "record-1",
        "Q?",
        ANSWER,
        (CONTEXT,),
    )
    assert case.metadata == {}  # nothing left over: every field was recognised
    assert result.reference == (None if family == "hybridjudge" else "30 days")


def test_ragas_legacy_ground_truths_list_is_joined() -> None:
    (result,) = read_cases(
        [{"question": "Q", "answer": "a", "contexts": ["c"], "ground_truths": ["x", "y"]}]
    )
    assert result.reference == "x\ny"


def test_deepeval_context_beside_retrieval_context_is_kept_as_metadata() -> None:
    # DeepEval's `context` is the ideal context; what was retrieved is `retrieval_context`
    (result,) = read_cases(
        [{"input": "Q", "actual_output": "a", "retrieval_context": ["got"], "context": ["ideal"]}]
    )
    assert result.case is not None
    assert result.case.context == ("got",)
    assert result.case.metadata == {"reference_context": ["ideal"]}


def test_extra_fields_become_metadata_and_labels_are_lifted_from_it() -> None:
    (result,) = read_cases(
        [
            {
                "input": "Q",
                "actual_output": ANSWER,
                "retrieval_context": [CONTEXT],
                "team": "payments",
                "latency_ms": 812,
                "additional_metadata": {"id": "case-7", "anchors": ["30 days"], "owner": "ana"},
            }
        ]
    )
    case = result.case
    assert case is not None
    assert case.id == "case-7"  # DeepEval users keep labels in additional_metadata
    assert [a.value for a in case.anchors] == ["30 days"]
    assert case.metadata == {"owner": "ana", "team": "payments", "latency_ms": 812}


def test_strict_mode_rejects_extra_fields_and_foreign_names_listing_every_one() -> None:
    record = {"id": "a", "response": ANSWER, "contexts": [CONTEXT], "team": "x"}
    (lenient,) = read_cases([record])
    assert lenient.case is not None
    assert lenient.case.metadata == {"team": "x"}
    (strict,) = read_cases([record], strict=True)
    assert strict.case is None
    assert strict.error is not None
    # every problem, not the first one and "(and N more)"
    assert strict.problems == (
        "response: unknown field; remove it or check its spelling",
        "contexts: unknown field; remove it or check its spelling",
        "team: unknown field; remove it or check its spelling",
        "answer: required field is missing; add it",
        "context: required field is missing; add it",
    )
    assert "5 problems: response: unknown field" in str(strict.error)
    assert "and 4 more" not in str(strict.error)


def test_every_problem_on_a_line_is_listed(tmp_path: Path) -> None:
    path = _write_jsonl(
        tmp_path / "cases.jsonl",
        [
            {"id": "ok", "answer": ANSWER, "context": CONTEXT},
            {
                "id": "bad",
                "contexts": ["a"],
                "retrieved_contexts": ["b"],
                "answerable": "maybe",
                "allowed_numbers": [3],
                "metadata": "not an object",
            },
        ],
    )
    ok, bad = read_cases(path)
    assert ok.case is not None
    assert bad.case is None
    assert bad.error is not None
    assert bad.problems == (
        "context: both 'retrieved_contexts' and 'contexts' give the context; keep one",
        "metadata: must be an object of your own fields",
        "answer: required field is missing; add one of 'answer' / 'response' / 'actual_output'",
        "answerable: Input should be a valid boolean, unable to interpret input",
        "allowed_numbers.0: Input should be a valid string",
    )
    message = str(bad.error)
    assert message.startswith(f"{path}, line 2, case 'bad': 5 problems: ")
    assert all(p in message for p in bad.problems)


def test_bad_json_lines_are_reported_and_the_others_read(tmp_path: Path) -> None:
    path = tmp_path / "cases.jsonl"
    path.write_bytes(
        b"\xef\xbb\xbf"  # a BOM, as Windows editors write it
        + json.dumps({"id": "a", "answer": "x", "context": "y"}).encode()
        + b"\n{broken\n[1, 2]\n\n"
        + json.dumps({"id": "b", "answer": "x", "context": "y"}).encode()
        + b"\n"
    )
    records = read_cases(path)
    assert [r.line for r in records] == [1, 2, 3, 5]
    assert [r.case.id if r.case else None for r in records] == ["a", None, None, "b"]
    assert "line 2: invalid JSON" in str(records[1].error)
    assert "line 3: expected a JSON object, got list" in str(records[2].error)


# -- file formats and in-memory sources -------------------------------------------------------


def _check_ragas(cases: list[CaseLine]) -> None:
    expected = ragas_records()
    assert len(cases) == len(expected) == 14
    for case, record in zip(cases, expected, strict=True):
        assert case.id == record["id"]
        assert case.answer == record["response"]
        assert case.question == record["user_input"]
        assert case.context == tuple(record["retrieved_contexts"])
        assert case.answerable is record["answerable"]
        assert [a.value for a in case.anchors] == record.get("anchors", [])
        assert case.metadata == {"team": record["team"], "trace_id": record["trace_id"]}


def test_jsonl_file(tmp_path: Path) -> None:
    _check_ragas(_cases(read_cases(_write_jsonl(tmp_path / "r.jsonl", ragas_records()))))


def test_json_array_and_object_files(tmp_path: Path) -> None:
    array = tmp_path / "r.json"
    array.write_text(json.dumps(ragas_records()), encoding="utf-8")
    _check_ragas(_cases(read_cases(array)))
    wrapped = tmp_path / "dataset.json"  # RAGAS EvaluationDataset.to_jsonl-like wrappers
    wrapped.write_text(json.dumps({"samples": ragas_records()}), encoding="utf-8")
    _check_ragas(_cases(read_cases(wrapped)))


def test_json_record_errors_name_the_record(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps([{"id": "a", "answer": "x", "context": "y"}, 5, {"id": "c"}]))
    first, second, third = read_cases(path)
    assert first.case is not None
    assert str(second.error) == f"{path}: record 2: expected a JSON object, got int"
    assert str(third.error).startswith(f"{path}, case 'c': record 3: 2 problems: answer:")


def test_csv_file_with_json_list_cells_and_boolean_text(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        fields = ["id", "user_input", "response", "retrieved_contexts", "answerable", "anchors"]
        writer = csv.DictWriter(handle, fieldnames=[*fields, "team", "trace_id"])
        writer.writeheader()
        for r in ragas_records():
            row = {k: r.get(k) for k in ("id", "user_input", "response", "team", "trace_id")}
            row["retrieved_contexts"] = json.dumps(r["retrieved_contexts"])
            row["answerable"] = "true" if r["answerable"] else "false"
            row["anchors"] = json.dumps(r["anchors"]) if "anchors" in r else ""
            writer.writerow(row)
    records = read_cases(path)
    assert [r.line for r in records] == list(range(2, 16))  # line 1 is the header
    _check_ragas(_cases(records))


def test_parquet_file(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    pa = pytest.importorskip("pyarrow")
    rows = [dict(r, anchors=r.get("anchors", [])) for r in ragas_records()]
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "r.parquet")
    _check_ragas(_cases(read_cases(tmp_path / "r.parquet")))


def test_pandas_dataframe_with_numpy_values() -> None:
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(ragas_records())  # "anchors" is NaN where a record has none
    _check_ragas(_cases(read_cases(frame)))
    numeric = pd.DataFrame([{"id": 7, "answer": "a", "context": "c", "score": 0.5}])
    (record,) = read_cases(numeric)
    assert record.case is not None
    assert record.case.id == "7"
    assert record.case.metadata == {"score": 0.5}
    assert type(record.case.metadata["score"]) is float  # numpy float64 made plain


def test_hugging_face_dataset() -> None:
    datasets = pytest.importorskip("datasets")
    rows = [dict(r, anchors=r.get("anchors", [])) for r in ragas_records()]
    _check_ragas(_cases(read_cases(datasets.Dataset.from_list(rows))))


class SingleTurnSample(BaseModel):
    """Shaped like RAGAS's ``SingleTurnSample`` (its field names), without importing RAGAS."""

    user_input: str | None = None
    retrieved_contexts: list[str] | None = None
    reference_contexts: list[str] | None = None
    response: str | None = None
    reference: str | None = None
    rubrics: dict[str, str] | None = None


@dataclass
class EvaluationDataset:
    """Shaped like RAGAS's ``EvaluationDataset``: the samples are in ``.samples``."""

    samples: list[SingleTurnSample]


def test_ragas_objects_by_duck_typing() -> None:
    samples = [
        SingleTurnSample(
            user_input=r["user_input"],
            retrieved_contexts=r["retrieved_contexts"],
            response=r["response"],
            reference=r["reference"],
        )
        for r in ragas_records()
    ]
    records = read_cases(EvaluationDataset(samples))
    cases = _cases(records)
    assert [c.answer for c in cases] == [r["response"] for r in ragas_records()]
    assert [r.reference for r in records] == [r["reference"] for r in ragas_records()]
    assert all(c.metadata == {} for c in cases)  # None fields are absent, not metadata


def test_deepeval_test_cases_by_duck_typing() -> None:
    cases = _cases(read_cases(deepeval_cases()))
    expected = ragas_records()
    assert [c.id for c in cases] == [r["id"] for r in expected]
    assert [c.answerable for c in cases] == [r["answerable"] for r in expected]
    assert cases[0].metadata == {
        "team": "logistics",
        "trace_id": "tr-000",
        "name": "refund-window",
        "tags": ["shop"],
    }


def test_plain_objects_and_unusable_items() -> None:
    class Plain:
        def __init__(self) -> None:
            self.answer = "a"
            self.context = "c"
            self._private = "hidden"

    good, bad = read_cases([Plain(), 42])
    assert good.case is not None
    assert good.case.metadata == {}
    assert str(bad.error) == "record 2: a int is neither a mapping nor an object with fields"


def test_unusable_sources_raise_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(CaseFileError, match=r"cannot tell the format from the extension '\.txt'"):
        read_cases(tmp_path / "cases.txt")
    with pytest.raises(CaseFileError, match="cannot open the case file"):
        read_cases(tmp_path / "absent.jsonl")
    with pytest.raises(CaseFileError, match="cannot read records from a dict"):
        read_cases({"answer": "a"})
    (tmp_path / "cases.txt").write_text(json.dumps({"answer": "a", "context": "c"}) + "\n")
    (record,) = read_cases(tmp_path / "cases.txt", format="jsonl")
    assert record.case is not None


def test_a_deepeval_evaluation_dataset_by_its_test_cases() -> None:
    @dataclass
    class DeepEvalDataset:  # shaped like deepeval.dataset.EvaluationDataset
        test_cases: list[Any]

    cases = _cases(read_cases(DeepEvalDataset(deepeval_cases())))
    assert [c.id for c in cases] == [r["id"] for r in ragas_records()]
