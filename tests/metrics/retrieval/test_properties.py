"""Hypothesis properties of the measures, and agreement with pytrec_eval on random inputs.

pytrec_eval (pytrec-eval-terrier) wraps trec_eval's C code, so it is an independent oracle for
random qrels and runs, ties included; that test is skipped when it is not installed.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hybridjudge.metrics.retrieval import evaluate

DOCS = [f"d{i}" for i in range(12)]
METRICS = [
    "hit@1", "hit@3", "mrr", "mrr@3", "p@1", "p@5", "recall@3", "recall@20",
    "map", "map@5", "ndcg", "ndcg@3", "ndcg@10", "ndcg_exp@5",
]  # fmt: skip


@st.composite
def qrels_and_run(draw: Any, distinct_scores: bool = False) -> tuple[dict[str, Any], ...]:
    n_queries = draw(st.integers(1, 4))
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for q in range(n_queries):
        qid = f"q{q}"
        judged = draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=8, unique=True))
        qrels[qid] = {d: draw(st.integers(-1, 3)) for d in judged}
        retrieved = draw(st.lists(st.sampled_from(DOCS), min_size=0, max_size=10, unique=True))
        if distinct_scores:
            values = draw(
                st.lists(
                    st.floats(-5, 5, allow_nan=False),
                    min_size=len(retrieved),
                    max_size=len(retrieved),
                    unique=True,
                )
            )
        else:  # few distinct values: many ties
            values = [draw(st.sampled_from([0.0, 0.5, 1.0])) for _ in retrieved]
        run[qid] = dict(zip(retrieved, values, strict=True))
    return qrels, run


@settings(max_examples=60, deadline=None)
@given(data=qrels_and_run(), level=st.integers(1, 3))
def test_metrics_are_in_unit_interval(data: tuple[dict[str, Any], ...], level: int) -> None:
    qrels, run = data
    result = evaluate(qrels, run, METRICS, relevance_level=level)
    for name in METRICS:
        values = result.per_query[name]
        assert np.all((values >= 0.0) & (values <= 1.0 + 1e-12)), name


@settings(max_examples=60, deadline=None)
@given(data=qrels_and_run(distinct_scores=True), seed=st.integers(0, 2**16))
def test_order_and_labels_of_documents_are_irrelevant_with_distinct_scores(
    data: tuple[dict[str, Any], ...], seed: int
) -> None:
    qrels, run = data
    shuffled = {}
    for qid, docs in run.items():
        items = list(docs.items())
        random.Random(seed).shuffle(items)
        shuffled[qid] = dict(items)
    # relabel the documents by a random bijection, consistently in qrels and run: with
    # distinct scores the ids only name documents, so nothing may change
    labels = DOCS[:]
    random.Random(seed + 1).shuffle(labels)
    rename = dict(zip(DOCS, labels, strict=True))
    relabelled_qrels = {q: {rename[d]: g for d, g in docs.items()} for q, docs in qrels.items()}
    relabelled_run = {q: {rename[d]: s for d, s in docs.items()} for q, docs in run.items()}
    c = evaluate(relabelled_qrels, relabelled_run, METRICS)
    for policy in ("trec_eval", "stable"):
        a = evaluate(qrels, run, METRICS, tie_break=policy)
        b = evaluate(qrels, shuffled, METRICS, tie_break=policy)
        for name in METRICS:
            assert np.array_equal(a.per_query[name], b.per_query[name]), name
            assert np.array_equal(a.per_query[name], c.per_query[name]), name


@settings(max_examples=60, deadline=None)
@given(data=qrels_and_run())
def test_hit_and_counts_are_monotone_in_k(data: tuple[dict[str, Any], ...]) -> None:
    qrels, run = data
    ks = [1, 2, 3, 5, 8, 13]
    names = [f"{f}@{k}" for f in ("hit", "recall", "p") for k in ks]
    result = evaluate(qrels, run, names)
    for smaller, larger in itertools.pairwise(ks):
        assert np.all(result.per_query[f"hit@{smaller}"] <= result.per_query[f"hit@{larger}"])
        assert np.all(result.per_query[f"recall@{smaller}"] <= result.per_query[f"recall@{larger}"])
        # relevant count in the top k = p@k * k never decreases
        assert np.all(
            result.per_query[f"p@{smaller}"] * smaller
            <= result.per_query[f"p@{larger}"] * larger + 1e-12
        )


@settings(max_examples=40, deadline=None)
@given(data=qrels_and_run())
def test_ideal_run_has_ndcg_one(data: tuple[dict[str, Any], ...]) -> None:
    qrels, _ = data
    # rank every judged document by its grade (distinct scores): nDCG@k is 1 wherever a
    # positive grade exists
    ideal = {
        qid: {d: g + i * 1e-6 for i, (d, g) in enumerate(sorted(docs.items()))}
        for qid, docs in qrels.items()
    }
    result = evaluate(qrels, ideal, ["ndcg@3", "ndcg", "ndcg_exp@5"])
    for qid in result.query_ids:
        has_gain = any(g > 0 for g in qrels[qid].values())
        for value in result.query(qid).values():
            assert value == pytest.approx(1.0 if has_gain else 0.0)


PYTREC = {
    "map": "map",
    "mrr": "recip_rank",
    "p@5": "P_5",
    "recall@5": "recall_5",
    "ndcg@5": "ndcg_cut_5",
    "ndcg@10": "ndcg_cut_10",
    "hit@5": "success_5",
    "ndcg": "ndcg",
}


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=qrels_and_run(), level=st.integers(1, 2))
def test_agrees_with_pytrec_eval(data: tuple[dict[str, Any], ...], level: int) -> None:
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels, run = data
    run = {q: docs for q, docs in run.items() if docs}  # trec_eval cannot express empty lists
    # a query judged only with negative grades sends trec_eval's ideal-DCG loop (as built into
    # pytrec-eval-terrier 0.5.11) into an endless loop; ours scores it 0 (tested elsewhere)
    qrels = {q: docs for q, docs in qrels.items() if max(docs.values()) >= 0}
    if not any(q in qrels for q in run):
        return
    evaluator = pytrec_eval.RelevanceEvaluator(
        qrels,
        {"map", "recip_rank", "P.5", "recall.5", "ndcg_cut.5,10", "success.5", "ndcg"},
        relevance_level=level,
    )
    theirs = evaluator.evaluate(run)
    ours = evaluate(qrels, run, list(PYTREC), relevance_level=level)
    assert set(ours.query_ids) == set(theirs)
    for qid in ours.query_ids:
        values = ours.query(qid)
        for name, measure in PYTREC.items():
            assert values[name] == pytest.approx(theirs[qid][measure], abs=1e-12), (qid, name)
