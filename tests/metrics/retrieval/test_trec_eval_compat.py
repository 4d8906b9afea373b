"""Agreement with trec_eval's own expected outputs, line by line.

Golden values: the expected-output files shipped with trec_eval (usnistgov/trec_eval @
f4253652, copied to tests/data/trec_eval with the NIST notice). Makefile.quicktest.txt there gives
the command line behind each file:

- out.test.aq    trec_eval -m all_trec -q             qrels.test      results.test
- out.test.aql   trec_eval -m all_trec -q -l2         qrels.rel_level results.test
- out.test.aqc   trec_eval -m all_trec -q -c          qrels.test      results.trunc
- out.test.aqcM  trec_eval -m all_trec -q -c -M100    qrels.test      results.trunc

Every (measure, query) line of those files whose measure we implement is one test case, including
the ``all`` line (the mean), compared at trec_eval's printed 4 decimals.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from hybridjudge.metrics.retrieval import (
    RetrievalResult,
    evaluate,
    parse_metric,
    read_qrels,
    read_run,
)

DATA = Path(__file__).resolve().parents[2] / "data" / "trec_eval"

# expected file -> (qrels, run, our options matching the trec_eval flags)
RUNS: dict[str, tuple[str, str, dict[str, Any]]] = {
    "out.test.aq": ("qrels.test", "results.test", {}),
    "out.test.aql": ("qrels.rel_level", "results.test", {"relevance_level": 2}),
    "out.test.aqc": ("qrels.test", "results.trunc", {"complete": True}),
    "out.test.aqcM": ("qrels.test", "results.trunc", {"complete": True, "max_docs": 100}),
}

# trec_eval measure name -> our metric name
_FIXED = {"map": "map", "recip_rank": "mrr", "ndcg": "ndcg"}
_CUT = re.compile(r"^(P|recall|ndcg_cut|success|map_cut)_(\d+)$")
_CUT_FAMILY = {"P": "p", "recall": "recall", "ndcg_cut": "ndcg", "success": "hit", "map_cut": "map"}


def our_name(measure: str) -> str | None:
    """Our canonical name for a trec_eval measure, or None when we do not implement it."""
    if measure in _FIXED:
        return _FIXED[measure]
    match = _CUT.match(measure)
    if match is None:
        return None
    return f"{_CUT_FAMILY[match.group(1)]}@{match.group(2)}"


def expected_lines(filename: str) -> list[tuple[str, str, str]]:
    lines = []
    for line in (DATA / filename).read_text().splitlines():
        measure, qid, value = line.split()
        if our_name(measure) is not None:
            lines.append((measure, qid, value))
    return lines


CASES = [
    pytest.param(filename, measure, qid, value, id=f"{filename}:{measure}:{qid}")
    for filename in RUNS
    for measure, qid, value in expected_lines(filename)
]


@cache
def result_for(filename: str) -> RetrievalResult:
    qrels_file, run_file, options = RUNS[filename]
    names = {our_name(m) for m, _, _ in expected_lines(filename)}
    metrics = sorted(name for name in names if name is not None)
    return evaluate(read_qrels(DATA / qrels_file), read_run(DATA / run_file), metrics, **options)


def test_every_implemented_measure_is_covered() -> None:
    # the measures we implement appear in out.test.aq for all three queries and 'all'
    measures = {case.values[1] for case in CASES}
    for family in (
        "map",
        "recip_rank",
        "ndcg",
        "P_10",
        "recall_100",
        "ndcg_cut_10",
        "success_1",
        "success_5",
        "success_10",
        "map_cut_100",
    ):
        assert family in measures
    assert len(CASES) == 4 * 42 * 4  # 4 files x 42 measures x (3 queries + all)


@pytest.mark.parametrize(("filename", "measure", "qid", "value"), CASES)
def test_matches_trec_eval(filename: str, measure: str, qid: str, value: str) -> None:
    result = result_for(filename)
    name = parse_metric(our_name(measure) or "").name
    ours = result.means[name] if qid == "all" else result.query(qid)[name]
    assert f"{ours:.4f}" == value


def test_num_q_matches() -> None:
    # trec_eval's num_q: 3 in every file (with -c the missing query 302 counts)
    for filename in RUNS:
        expected = next(
            line.split()[2]
            for line in (DATA / filename).read_text().splitlines()
            if line.startswith("num_q ")
        )
        assert str(result_for(filename).num_queries) == expected


def test_missing_query_is_scored_zero_only_with_complete() -> None:
    # results.trunc has no line for query 302: trec_eval -c scores it 0 (out.test.aqc), and
    # without -c trec_eval skips it, so the mean is over 301 and 303 only
    qrels = read_qrels(DATA / "qrels.test")
    run = read_run(DATA / "results.trunc")
    skipped = evaluate(qrels, run, ["map"])
    assert skipped.query_ids == ("301", "303")
    assert skipped.missing_queries == ("302",)
    completed = result_for("out.test.aqc")
    assert completed.query("302")["map"] == 0.0
    assert skipped.means["map"] == pytest.approx(completed.means["map"] * 3 / 2)


def test_ties_in_results_test_follow_docids_not_file_order() -> None:
    # PROVENANCE: results.test contains tied scores (e.g. query 301: FBIS3-58055, relevant, and
    # FBIS3-58025, not relevant, both 2.243509). trec_eval orders ties by docid descending
    # whatever the input order; keeping the input order ("stable") of a reversed run changes
    # the values, so the tie rule is what makes the compat tests pass.
    qrels = read_qrels(DATA / "qrels.test")
    run = read_run(DATA / "results.test")
    reversed_run = {qid: dict(reversed(list(docs.items()))) for qid, docs in run.items()}
    metrics = ["map", "ndcg@100"]
    ours = evaluate(qrels, run, metrics)
    ours_reversed = evaluate(qrels, reversed_run, metrics)
    stable_reversed = evaluate(qrels, reversed_run, metrics, tie_break="stable")
    for m in ours.metrics:
        assert (ours.per_query[m] == ours_reversed.per_query[m]).all()
    assert stable_reversed.query("301")["map"] < ours.query("301")["map"]
