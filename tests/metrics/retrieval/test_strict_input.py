"""Input the retrieval metrics used to take silently, now refused with a typed error.

- a document (or query) listed twice in a JSON/JSONL run or qrels file: JSON parsers keep the
  last value, which changed the ranking without a word (trec_eval rejects duplicate documents,
  ``form_res_rels.c``: "duplicate docs");
- ``metrics=None``: there is no default set of metrics;
- scores that are strings or booleans, grades that are strings or booleans, and grades beyond
  the file readers' bound (+-1,000,000), which overflowed ``2**grade`` or the int64 cast;
- large grades within the bound: ``ndcg_exp`` stays finite and exact.

Golden values: hand computation (in the comments), scikit-learn's ``ndcg_score`` for
exponential gains (fed ``2**g - 1`` as its linear gains) and exact decimal arithmetic for grades
whose ``2**g`` no float holds.
"""

from __future__ import annotations

import json
import math
import re
import warnings
from decimal import Decimal, localcontext
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from sklearn.metrics import ndcg_score

from hybridjudge._errors import CaseFileError, InputError
from hybridjudge.metrics.retrieval import (
    MetricNameError,
    evaluate,
    read_cases,
    read_qrels,
    read_run,
)

# --- documents listed twice in JSON and JSONL files --------------------------------------------


@pytest.mark.parametrize(
    ("name", "text", "reader", "needle"),
    [
        (
            "run.json",
            '{"q1": {"d1": 0.9, "d2": 0.5, "d1": 0.1}}',
            read_run,
            "query 'q1': document 'd1' is listed twice",
        ),
        (
            "qrels.json",
            '{"q1": {"d1": 1, "d2": 0, "d1": 0}}',
            read_qrels,
            "query 'q1': document 'd1' is listed twice",
        ),
        (
            "run.json",
            '{"q1": {"d1": 0.9}, "q2": {"d3": 1.0}, "q1": {"d2": 0.5}}',
            read_run,
            "query 'q1' is listed twice",
        ),
        (
            "qrels.json",
            '{"q1": {"d1": 1}, "q1": {"d2": 1}}',
            read_qrels,
            "query 'q1' is listed twice",
        ),
        (
            "run.jsonl",
            '{"qid": "q0", "docs": {"d1": 1.0}}\n{"qid": "q1", "docs": {"d1": 0.9, "d1": 0.1}}\n',
            read_run,
            "line 2: query 'q1': document 'd1' is listed twice in docs",
        ),
        (
            "run.jsonl",
            '{"qid": "q1", "qid": "q2", "docs": ["d1"]}\n',
            read_run,
            "line 1: a JSON object lists the key 'qid' twice",
        ),
        (
            "qrels.jsonl",
            '{"qid": "q1", "docid": "d1", "relevance": 1, "relevance": 0}\n',
            read_qrels,
            "line 1: a JSON object lists the key 'relevance' twice",
        ),
        (
            "cases.json",
            '[{"id": "c1", "question": "q", "relevance": {"a": 2, "a": 0}}]',
            read_cases,
            "a JSON object at [0]['relevance'] lists the key 'a' twice",
        ),
        (
            "cases.jsonl",
            '{"id": "c1", "question": "q", "relevance": {"a": 2, "a": 0}}\n',
            read_cases,
            "line 1: a JSON object at ['relevance'] lists the key 'a' twice",
        ),
    ],
)
def test_a_key_listed_twice_in_a_json_file_is_refused(
    tmp_path: Path, name: str, text: str, reader: Any, needle: str
) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CaseFileError) as caught:
        reader(path)
    message = str(caught.value)
    assert message.startswith(str(path))  # the file is named
    assert needle in message


def test_the_duplicate_run_no_longer_scores(tmp_path: Path) -> None:
    # the audit's case: with the last value kept (d1 = 0.1) d2 ranked first and MRR was 1/2;
    # with the first (0.9) it would be 1. Neither is what the file says: it is refused.
    run = tmp_path / "run.json"
    run.write_text('{"q1": {"d1": 0.9, "d2": 0.5, "d1": 0.1}}', encoding="utf-8")
    with pytest.raises(CaseFileError, match="as in trec_eval"):
        evaluate({"q1": {"d1": 1}}, read_run(run), ["mrr"])


def test_distinct_keys_still_read(tmp_path: Path) -> None:
    run = tmp_path / "run.jsonl"
    run.write_text('{"qid": "q1", "docs": {"d1": 0.9, "d2": 0.5}}\n', encoding="utf-8")
    assert read_run(run) == {"q1": {"d1": 0.9, "d2": 0.5}}
    qrels = tmp_path / "qrels.json"
    qrels.write_text('{"q1": {"d1": 1, "d2": 0}, "q2": {"d1": 2}}', encoding="utf-8")
    assert read_qrels(qrels) == {"q1": {"d1": 1, "d2": 0}, "q2": {"d1": 2}}


# --- metrics ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("metrics", "needle"),
    [
        (None, "metrics=None: name the metrics to compute"),
        (5, "metrics=5: name the metrics to compute"),
        ({"mrr": 1}, "name the metrics to compute"),
        ([], "no metric requested"),
        ("", "no metric requested"),
        ([None], "metric name None is a NoneType"),
        (["mrr", 10], "metric name 10 is a int"),
    ],
)
def test_metrics_must_be_named(metrics: Any, needle: str) -> None:
    with pytest.raises(MetricNameError, match=re.escape(needle)) as caught:
        evaluate({"q": {"a": 1}}, {"q": {"a": 1.0}}, metrics)
    assert isinstance(caught.value, InputError)
    if "name the metrics" in needle:
        assert "ndcg@10" in str(caught.value)  # an example to copy, and the valid names


# --- scores and grades: types and bounds -----------------------------------------------------

QRELS = {"q": {"a": 1, "b": 0}}
RUN = {"q": {"a": 0.5, "b": 0.9}}


@pytest.mark.parametrize(
    ("qrels", "run", "needle"),
    [
        (QRELS, {"q": {"a": "0.5", "b": 0.9}}, "score '0.5' is not a number but a string"),
        (QRELS, {"q": {"a": True, "b": 0.9}}, "score True is not a number but a boolean"),
        (QRELS, {"q": {"a": np.bool_(True), "b": 0.9}}, "is not a number but a boolean"),
        (QRELS, {"q": {"a": b"1", "b": 0.9}}, "score b'1' is not a number (a bytes)"),
        (QRELS, {"q": {"a": 10**400, "b": 0.9}}, "does not fit a float"),
        ({"q": {"a": "1", "b": 0}}, RUN, "grade '1' is not a number but a string"),
        ({"q": {"a": True, "b": 0}}, RUN, "grade True is not a number but a boolean"),
        ({"q": {"a": None, "b": 0}}, RUN, "grade None is not a number (a NoneType)"),
        ({"q": {"a": 1_000_001, "b": 0}}, RUN, "grade 1000001 is out of range"),
        ({"q": {"a": -1_000_001, "b": 0}}, RUN, "grade -1000001 is out of range"),
        ({"q": {"a": 2**70, "b": 0}}, RUN, "grade 1180591620717411303424 is out of range"),
        ({"q": {"a": 10**400, "b": 0}}, RUN, "is out of range"),
        ({"q": {"a": 1e7, "b": 0}}, RUN, "grade 10000000.0 is out of range"),
        ({"q": {"a": math.inf, "b": 0}}, RUN, "grade inf is not a whole number"),
        ({"q": {"a": math.nan, "b": 0}}, RUN, "grade nan is not a whole number"),
        ({"q": {"a": np.int64(2**62), "b": 0}}, RUN, "is out of range"),
    ],
)
def test_scores_and_grades_are_not_coerced(qrels: Any, run: Any, needle: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no numpy overflow/cast warning on the way
        with pytest.raises(InputError) as caught:
            evaluate(qrels, run, ["mrr", "ndcg", "ndcg_exp"])
    message = str(caught.value)
    assert "query 'q', document 'a'" in message
    assert needle in message


@pytest.mark.parametrize(
    ("grade", "score"),
    [
        (1, 0.5),
        (np.int64(1), np.float32(0.5)),
        (1.0, 0.5),  # a whole float grade, as JSON may write it (the file readers accept it)
        (1, 1),  # an int score
        (1, np.int32(1)),
    ],
)
def test_numbers_of_every_numeric_type_are_accepted(grade: Any, score: Any) -> None:
    # by hand: b (grade 0, score 0.9) outranks the relevant a unless a scores higher; a
    # first gives MRR 1, a second gives 1/2
    result = evaluate({"q": {"a": grade, "b": 0}}, {"q": {"a": score, "b": 0.9}}, ["mrr"])
    assert result.means["mrr"] == (1.0 if float(score) > 0.9 else 0.5)


def test_the_grade_bound_is_the_file_readers_bound(tmp_path: Path) -> None:
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q 0 a 1000000\nq 0 b -1000000\n", encoding="utf-8")
    assert read_qrels(qrels) == {"q": {"a": 1_000_000, "b": -1_000_000}}
    evaluate(read_qrels(qrels), RUN, ["ndcg_exp"])  # the largest grade a file holds evaluates
    qrels.write_text("q 0 a 1000001\n", encoding="utf-8")
    with pytest.raises(CaseFileError, match="out of range"):
        read_qrels(qrels)


# --- ndcg_exp for large grades ------------------------------------------------------------------


def _exact_ndcg_exp(ranked_grades: list[int], ideal_grades: list[int]) -> float:
    """nDCG with gains 2**g - 1 in 60-digit decimal arithmetic (its exponent range reaches
    10**999999, so 2**1,000,000 is a number, not an overflow)."""
    with localcontext() as ctx:
        ctx.prec = 60
        ln2 = Decimal(2).ln()

        def dcg(grades: list[int]) -> Decimal:
            return sum(
                (
                    (Decimal(2) ** g - 1) * ln2 / Decimal(rank + 1).ln()
                    for rank, g in enumerate(grades, start=1)
                    if g > 0
                ),
                Decimal(0),
            )

        return float(dcg(ranked_grades) / dcg(sorted(ideal_grades, reverse=True)))


@pytest.mark.parametrize(
    "grades",
    [
        {"a": 1024, "b": 1},  # 2**1024 overflows a float: was nan with a warning
        {"a": 1023, "b": 1020, "c": 3},
        {"a": 5000, "b": 4999, "c": 4998},
        {"a": 1_000_000, "b": 999_999, "c": 1},
    ],
)
def test_ndcg_exp_is_finite_and_exact_for_large_grades(grades: dict[str, int]) -> None:
    # rank the documents in reverse alphabetical order: the lowest grade first
    docs = sorted(grades, reverse=True)
    run = {"q": {d: float(i) for i, d in enumerate(reversed(docs), start=1)}}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = evaluate({"q": grades}, run, ["ndcg_exp", "ndcg_exp@2", "ndcg"])
    value = result.query("q")["ndcg_exp"]
    expected = _exact_ndcg_exp([grades[d] for d in docs], list(grades.values()))
    assert math.isfinite(value)
    assert value == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("seed", range(10))
def test_ndcg_exp_for_small_grades_matches_scikit_learn(seed: int) -> None:
    # scikit-learn's ndcg_score uses y_true as the gains: give it 2**g - 1. All judged
    # documents are retrieved (sklearn's ideal is over the list) and scores are distinct.
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 30))
    grade = rng.integers(0, 12, size=n)
    grade[0] = max(int(grade[0]), 1)
    score = rng.permutation(n).astype(float)
    qrels = {"q": {f"d{i}": int(g) for i, g in enumerate(grade)}}
    run = {"q": {f"d{i}": float(s) for i, s in enumerate(score)}}
    ours = evaluate(qrels, run, ["ndcg_exp", "ndcg_exp@5"]).query("q")
    gains = (2.0**grade - 1.0)[None, :]
    assert ours["ndcg_exp"] == pytest.approx(ndcg_score(gains, score[None, :]), abs=1e-12)
    assert ours["ndcg_exp@5"] == pytest.approx(ndcg_score(gains, score[None, :], k=5), abs=1e-12)


def test_ndcg_exp_value_of_the_audit_case_by_hand() -> None:
    # grades a=1024 (ranked 2nd), b=1 (ranked 1st): DCG = 1 + (2^1024-1)/log2(3),
    # IDCG = (2^1024-1) + 1/log2(3); the ratio is 1/log2(3) to double precision
    result = evaluate({"q": {"a": 1024, "b": 1}}, {"q": {"a": 0.5, "b": 0.9}}, ["ndcg_exp"])
    assert result.means["ndcg_exp"] == pytest.approx(1 / math.log2(3), rel=1e-15)
    json.loads(result.model_dump_json())  # finite: writes as a number, not null
