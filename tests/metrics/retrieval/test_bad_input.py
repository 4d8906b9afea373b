"""Bad input: a clear InputError naming the input, or a documented and tested behaviour."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from hybridjudge._errors import CaseFileError, InputError
from hybridjudge.metrics.retrieval import evaluate, read_qrels, read_run

QRELS = {"q": {"a": 1}}


@pytest.mark.parametrize(
    ("qrels", "run", "message"),
    [
        ({}, {"q": {"a": 1.0}}, "qrels are empty"),
        (QRELS, {}, "run is empty"),
        (QRELS, {"other": {"a": 1.0}}, "no query is in both"),
        ({1: {"a": 1}}, {"q": {"a": 1.0}}, "query ids must be strings"),
        # fuzz: evaluated, then model_dump_json raised a raw PydanticSerializationError
        ({"\ud800": {"a": 1}}, {"\ud800": {"a": 1.0}}, r"qrels: query id '\\ud800'.*surrogate"),
        (QRELS, {"q": {"a": 1.0}, "x\udc80": {}}, r"run: query id 'x\\udc80'.*surrogate"),
        (QRELS, {1: {"a": 1.0}}, "query ids must be strings"),
        (QRELS, {"q": {1: 1.0}}, "document ids must be strings"),
        # fuzz: a qrels document id was never checked, so a qrels id 1 silently missed the
        # run's '1' (mrr 0.0); a run's ids are checked by the first of each query (every one
        # cost a third of the evaluation: bench/bench_retrieval.py, 1.75 -> 3.13 s)
        ({"q": {1: 1}}, {"q": {"1": 1.0}}, r"qrels: query 'q': document id 1 is a int"),
        ({"q": {"a": 1, 2: 0}}, {"q": {"a": 1.0}}, r"qrels: query 'q': document id 2 is a int"),
        (QRELS, {"q": {2: 1.0, "a": 0.5}}, r"run: query 'q': document id 2 is a int"),
        (QRELS, {"q": {"a": math.nan}}, r"query 'q', document 'a'.*NaN"),
        (QRELS, {"q": {"a": None}}, r"document 'a': score None is not a number"),
        (QRELS, {"q": {"a": "high"}}, r"document 'a'.*'high' is not a number"),
        ({"q": {"a": 1.5}}, {"q": {"a": 1.0}}, r"grade 1.5 is not a whole number"),
        ({"q": {"a": "x"}}, {"q": {"a": 1.0}}, r"grade 'x' is not a number"),
        ([("q", "a", 1)], {"q": {"a": 1.0}}, "must be a mapping"),
        (QRELS, {"q": [("a", 1.0)]}, "must be a mapping"),
    ],
)
def test_bad_dicts_raise_input_error(qrels: Any, run: Any, message: str) -> None:
    with pytest.raises(InputError, match=message):
        evaluate(qrels, run, ["mrr"])


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"relevance_level": 0}, "relevance_level=0"),
        ({"relevance_level": True}, "relevance_level=True"),
        ({"max_docs": 0}, "max_docs=0"),
        ({"tie_break": "random"}, "tie_break='random'"),
        ({"complete": "yes"}, "complete='yes'"),
    ],
)
def test_bad_options(options: dict[str, Any], message: str) -> None:
    with pytest.raises(InputError, match=message):
        evaluate(QRELS, {"q": {"a": 1.0}}, ["mrr"], **options)


def test_duplicate_document_in_trec_run_names_both_lines(tmp_path: Path) -> None:
    run = tmp_path / "run.txt"
    run.write_text("q Q0 a 1 2.0 x\nq Q0 b 2 1.0 x\nq Q0 a 3 0.5 x\n")
    with pytest.raises(CaseFileError, match=r"line 3.*retrieved twice \(first on line 1\)"):
        read_run(run)


def test_duplicate_judgment_in_qrels(tmp_path: Path) -> None:
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q 0 a 1\nq 0 a 0\n")
    with pytest.raises(CaseFileError, match=r"line 2.*judged twice"):
        read_qrels(qrels)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("q Q0 a 1 nan x\n", "line 1.*NaN"),
        ("q Q0 a 1 high x\n", "line 1.*'high' is not a number"),
        ("q Q0 a first 1.0 x\n", "line 1.*rank 'first' is not an integer"),
        ("q Q0 a 1 1.0\n", "line 1.*expected 6 fields"),
    ],
)
def test_malformed_trec_run_lines(tmp_path: Path, text: str, message: str) -> None:
    run = tmp_path / "run.txt"
    run.write_text(text)
    with pytest.raises(CaseFileError, match=message):
        read_run(run)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("q 0 a\n", "expected 4 fields"),
        ("q 0 a 1.5\n", "grade '1.5' is not an integer"),
        ("q 0 a yes\n", "grade 'yes' is not an integer"),
    ],
)
def test_malformed_qrels_lines(tmp_path: Path, text: str, message: str) -> None:
    qrels = tmp_path / "qrels.txt"
    qrels.write_text(text)
    with pytest.raises(CaseFileError, match=message):
        read_qrels(qrels)


def test_missing_file_and_bad_json(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        read_run(tmp_path / "absent.txt")
    bad = tmp_path / "run.json"
    bad.write_text("{not json")
    with pytest.raises(CaseFileError, match="invalid JSON"):
        read_run(bad)
    lines = tmp_path / "run.jsonl"
    lines.write_text('{"qid": "q", "docs": ["a"]}\n[1, 2]\n')
    with pytest.raises(CaseFileError, match=r"line 2.*JSON object"):
        read_run(lines)


def test_a_lone_surrogate_escape_in_a_json_file_names_the_file(tmp_path: Path) -> None:
    # fuzz: json.loads reads "\ud800" into a query id that no JSON result can be written with
    for name, reader in (("qrels.json", read_qrels), ("run.json", read_run)):
        path = tmp_path / name
        path.write_text('{"\\ud800": {"a": 1}}')
        with pytest.raises(CaseFileError, match=rf"{name}: invalid JSON: .*lone UTF-16 surrogate"):
            reader(path)


def test_inf_scores_from_a_trec_file_are_accepted(tmp_path: Path) -> None:
    # documented: inf/-inf parse (as trec_eval's atof) and rank as the extremes
    run = tmp_path / "run.txt"
    run.write_text("q Q0 a 1 -inf x\nq Q0 b 2 inf x\n")
    assert read_run(run) == {"q": {"a": -math.inf, "b": math.inf}}
