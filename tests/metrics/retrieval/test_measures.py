"""Hand-computed golden examples, tie policies, query handling and metric names.

Every expected number here is computed by hand from the definitions (the arithmetic is written
out in the comments), not by our code.
"""

from __future__ import annotations

import math

import pytest

from hybridjudge._errors import InputError
from hybridjudge.metrics.retrieval import (
    METRIC_FAMILIES,
    MetricNameError,
    evaluate,
    parse_metric,
    parse_metrics,
)

# Binary example: relevant a, b, z (z never retrieved), c judged non-relevant.
# Ranking by score: a (rel), x (unjudged), b (rel), c (non-rel).
QRELS = {"q": {"a": 1, "b": 1, "c": 0, "z": 1}}
RUN = {"q": {"a": 0.9, "x": 0.8, "b": 0.7, "c": 0.6}}


def test_binary_example_by_hand() -> None:
    r = evaluate(
        QRELS,
        RUN,
        ["hit@1", "hit@2", "mrr", "mrr@1", "p@2", "p@5", "recall@3", "map", "map@2", "ndcg@3"],
    )
    v = r.query("q")
    assert v["hit@1"] == 1.0
    assert v["mrr"] == 1.0
    assert v["mrr@1"] == 1.0
    assert v["p@2"] == 0.5  # a, x -> 1 of 2
    # 2 relevant in the top 5 but only 4 retrieved: trec_eval still divides by k=5
    assert v["p@5"] == pytest.approx(2 / 5)
    assert v["recall@3"] == pytest.approx(2 / 3)  # a, b of the 3 relevant (z unretrieved)
    # AP: precision 1/1 at a, 2/3 at b, divided by all 3 relevant judged (z counts)
    assert v["map"] == pytest.approx((1 + 2 / 3) / 3)
    assert v["map@2"] == pytest.approx(1 / 3)  # only a is within the top 2
    # DCG@3 = 1/log2(2) + 1/log2(4) = 1.5; ideal from all 3 relevant judged documents:
    # 1/log2(2) + 1/log2(3) + 1/log2(4)
    assert v["ndcg@3"] == pytest.approx(1.5 / (1 + 1 / math.log2(3) + 0.5))


def test_reciprocal_rank_at_k_and_hit_at_k() -> None:
    # first relevant at rank 3
    qrels = {"q": {"c": 1}}
    run = {"q": {"a": 3.0, "b": 2.0, "c": 1.0}}
    v = evaluate(qrels, run, ["mrr", "mrr@2", "mrr@3", "hit@2", "hit@3"]).query("q")
    assert v == {"mrr": 1 / 3, "mrr@2": 0.0, "mrr@3": 1 / 3, "hit@2": 0.0, "hit@3": 1.0}


# Graded example from seed article 003: retrieved grades [3, 1, 0, 2, 0]; we add one judged
# document of grade 3 that was not retrieved ("u").
GRADED_QRELS = {"q": {"r1": 3, "r2": 1, "r3": 0, "r4": 2, "u": 3}}
GRADED_RUN = {"q": {"r1": 5.0, "r2": 4.0, "r3": 3.0, "r4": 2.0, "r5": 1.0}}


def seed_article_ndcg(retrieved_scores: list[float], k: int) -> float:
    """Seed article 003's nDCG, translated as written: the ideal is the retrieved list sorted."""

    def dcg(scores: list[float], k: int) -> float:
        return sum(s / math.log2(i + 1) for i, s in enumerate(scores[:k], start=1))

    ideal = sorted(retrieved_scores, reverse=True)
    idcg = dcg(ideal, k)
    return 0.0 if idcg == 0 else dcg(retrieved_scores, k) / idcg


def test_graded_ndcg_by_hand_linear_and_exponential() -> None:
    v = evaluate(GRADED_QRELS, GRADED_RUN, ["ndcg@5", "ndcg_exp@5"]).query("q")
    # linear: DCG = 3 + 1/log2(3) + 2/log2(5); ideal over ALL judged grades [3, 3, 2, 1]
    dcg = 3 + 1 / math.log2(3) + 2 / math.log2(5)
    idcg = 3 + 3 / math.log2(3) + 2 / math.log2(4) + 1 / math.log2(5)
    assert v["ndcg@5"] == pytest.approx(dcg / idcg)
    # exponential gains 2^g - 1: 7, 1, 0, 3, 0 vs ideal 7, 7, 3, 1
    dcg_exp = 7 + 1 / math.log2(3) + 3 / math.log2(5)
    idcg_exp = 7 + 7 / math.log2(3) + 3 / math.log2(4) + 1 / math.log2(5)
    assert v["ndcg_exp@5"] == pytest.approx(dcg_exp / idcg_exp)


def test_seed_article_ndcg_differs_where_an_unretrieved_document_is_judged() -> None:
    ours = evaluate(GRADED_QRELS, GRADED_RUN, ["ndcg@5"]).query("q")["ndcg@5"]
    seed = seed_article_ndcg([3, 1, 0, 2, 0], 5)
    # the seed's ideal [3, 2, 1, 0, 0] ignores the unretrieved grade-3 document, so it
    # overstates the ranking: 4.49 / 4.76 = 0.943 against ours 4.49 / 6.32 = 0.710
    assert seed == pytest.approx(
        (3 + 1 / math.log2(3) + 2 / math.log2(5)) / (3 + 2 / math.log2(3) + 1 / math.log2(4))
    )
    assert ours == pytest.approx(0.7104, abs=1e-4)
    assert seed - ours > 0.2
    # without the unretrieved judged document both agree (the seed is only wrong there)
    retrieved_only = {"q": {d: g for d, g in GRADED_QRELS["q"].items() if d != "u"}}
    same = evaluate(retrieved_only, GRADED_RUN, ["ndcg@5"]).query("q")["ndcg@5"]
    assert same == pytest.approx(seed)


def test_seed_article_precision_divides_by_retrieved_ours_by_k() -> None:
    # seed 001's test: 2 results, 1 correct, k=5 -> the article asserts p@5 == 0.5
    # (it divides by min(len(top_k), k)); trec_eval's P_5 divides by 5 -> 0.2
    v = evaluate(
        {"q": {"src/build_index.py": 1}},
        {"q": {"src/build_index.py": 2.0, "src/other.py": 1.0}},
        ["p@5", "hit@5", "mrr@5"],
    ).query("q")
    assert v == {"p@5": 0.2, "hit@5": 1.0, "mrr@5": 1.0}


def test_relevance_level_applies_to_binary_measures_not_to_ndcg_gains() -> None:
    # grade-1 document at rank 1, grade-2 at rank 2; with relevance_level=2 only the second is
    # relevant, but nDCG still uses grade 1 as a gain (trec_eval ndcg_cut under -l2)
    qrels = {"q": {"a": 1, "b": 2}}
    run = {"q": {"a": 2.0, "b": 1.0}}
    v = evaluate(qrels, run, ["mrr", "recall@1", "ndcg@2"], relevance_level=2).query("q")
    assert v["mrr"] == 0.5
    assert v["recall@1"] == 0.0
    # DCG = 1 + 2/log2(3); ideal = 2 + 1/log2(3)
    assert v["ndcg@2"] == pytest.approx((1 + 2 / math.log2(3)) / (2 + 1 / math.log2(3)))


# ---- ties ---------------------------------------------------------------------------------


def test_trec_eval_ties_by_docid_descending() -> None:
    qrels = {"q": {"a": 1}}
    run = {"q": {"a": 1.0, "b": 1.0, "c": 0.5}}
    # trec_eval: b before a (docid descending) -> first relevant at rank 2
    assert evaluate(qrels, run, ["mrr"]).means["mrr"] == 0.5
    # stable: ties keep the given order -> a first
    assert evaluate(qrels, run, ["mrr"], tie_break="stable").means["mrr"] == 1.0
    reordered = {"q": {"b": 1.0, "a": 1.0, "c": 0.5}}
    assert evaluate(qrels, reordered, ["mrr"], tie_break="stable").means["mrr"] == 0.5
    assert evaluate(qrels, reordered, ["mrr"]).means["mrr"] == 0.5


def test_rank_policy_uses_given_order_and_ignores_scores() -> None:
    qrels = {"q": {"c": 1}}
    run = {"q": {"c": 0.1, "a": 0.9}}
    assert evaluate(qrels, run, ["mrr"], tie_break="rank").means["mrr"] == 1.0
    assert evaluate(qrels, run, ["mrr"]).means["mrr"] == 0.5


def test_ties_compare_docids_bytewise_like_strcmp() -> None:
    # strcmp order: "B" (0x42) < "a" (0x61) < "b"; descending puts b, a, B
    qrels = {"q": {"B": 1}}
    run = {"q": {"a": 1.0, "B": 1.0, "b": 1.0}}
    assert evaluate(qrels, run, ["mrr"]).means["mrr"] == pytest.approx(1 / 3)


def test_infinite_scores_rank_first_and_last() -> None:
    # documented: +inf and -inf are valid scores and sort as the extremes
    qrels = {"q": {"lo": 1, "hi": 1}}
    run = {"q": {"lo": -math.inf, "mid": 0.0, "hi": math.inf}}
    v = evaluate(qrels, run, ["p@1", "mrr", "p@2"]).query("q")
    assert v == {"p@1": 1.0, "mrr": 1.0, "p@2": 0.5}


# ---- which queries are evaluated ------------------------------------------------------------


def test_run_only_queries_are_ignored_and_reported() -> None:
    r = evaluate({"q1": {"a": 1}}, {"q1": {"a": 1.0}, "extra": {"a": 1.0}}, ["mrr"])
    assert r.query_ids == ("q1",)
    assert r.run_only_queries == ("extra",)
    assert r.means["mrr"] == 1.0


def test_qrels_only_queries_skipped_unless_complete() -> None:
    qrels = {"q1": {"a": 1}, "q2": {"b": 1}}
    run = {"q1": {"a": 1.0}}
    skipped = evaluate(qrels, run, ["mrr"])
    assert skipped.query_ids == ("q1",)
    assert skipped.missing_queries == ("q2",)
    assert skipped.means["mrr"] == 1.0
    complete = evaluate(qrels, run, ["mrr"], complete=True)
    assert complete.query_ids == ("q1", "q2")
    assert complete.query("q2") == {"mrr": 0.0}
    assert complete.means["mrr"] == 0.5


def test_query_without_relevant_documents_scores_zero_and_is_reported() -> None:
    qrels = {"q1": {"a": 1}, "q2": {"b": 0}}
    run = {"q1": {"a": 1.0}, "q2": {"b": 1.0}}
    r = evaluate(qrels, run, ["mrr", "recall@1", "map", "ndcg@1", "p@1"])
    assert r.queries_without_relevant == ("q2",)
    assert r.query("q2") == {"mrr": 0.0, "recall@1": 0.0, "map": 0.0, "ndcg@1": 0.0, "p@1": 0.0}
    assert r.means["mrr"] == 0.5  # q2 counts in the mean, as in trec_eval


def test_empty_ranking_is_evaluated_as_zero() -> None:
    # documented: a query mapped to {} retrieved nothing; it is evaluated (not skipped)
    r = evaluate({"q1": {"a": 1}, "q2": {"b": 1}}, {"q1": {"a": 1.0}, "q2": {}}, ["hit@5", "map"])
    assert r.query_ids == ("q1", "q2")
    assert r.query("q2") == {"hit@5": 0.0, "map": 0.0}
    assert r.means == {"hit@5": 0.5, "map": 0.5}


def test_max_docs_truncates_after_ranking() -> None:
    qrels = {"q": {"c": 1}}
    run = {"q": {"a": 3.0, "b": 2.0, "c": 1.0}}
    assert evaluate(qrels, run, ["mrr"], max_docs=2).means["mrr"] == 0.0
    assert evaluate(qrels, run, ["mrr"], max_docs=3).means["mrr"] == pytest.approx(1 / 3)


def test_worst_lists_lowest_first() -> None:
    r = evaluate(
        {"q1": {"a": 1}, "q2": {"a": 1}, "q3": {"a": 1}},
        {"q1": {"a": 1.0}, "q2": {"b": 2.0, "a": 1.0}, "q3": {"b": 1.0}},
        ["mrr"],
    )
    assert r.worst("mrr", 2) == [("q3", 0.0), ("q2", 0.5)]
    with pytest.raises(InputError, match="not computed"):
        r.worst("map")
    with pytest.raises(InputError, match="not evaluated"):
        r.query("nope")


def test_result_json_has_format_version_and_lists() -> None:
    r = evaluate(QRELS, RUN, ["mrr", "p@2"])
    dumped = r.model_dump(mode="json")
    assert dumped["format_version"] == 1
    assert dumped["per_query"] == {"mrr": [1.0], "p@2": [0.5]}
    assert not r.per_query["mrr"].flags.writeable


# ---- metric names ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "canonical"),
    [
        ("ndcg@10", "ndcg@10"),
        ("NDCG_cut_10", "ndcg@10"),
        ("P_10", "p@10"),
        ("precision@5", "p@5"),
        ("success_5", "hit@5"),
        ("recip_rank", "mrr"),
        ("MRR@10", "mrr@10"),
        ("recall_100", "recall@100"),
        ("map_cut_20", "map@20"),
        ("AP", "map"),
        ("ndcg_exp@3", "ndcg_exp@3"),
        (" ndcg ", "ndcg"),
    ],
)
def test_metric_names_normalised(name: str, canonical: str) -> None:
    assert parse_metric(name).name == canonical
    assert canonical.split("@")[0] + ("@k" if "@" in canonical else "") in METRIC_FAMILIES


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("ndcg@0", "positive integer"),
        ("p@-1", "positive integer"),
        ("P_0", "positive integer"),
        ("precision", "needs a cutoff"),
        ("hit", "needs a cutoff"),
        ("ndcg_cut", "needs a cutoff"),
        ("bleu@4", "unknown metric"),
        ("ndcg@ten", "unknown metric"),
        ("", "empty"),
    ],
)
def test_bad_metric_names(name: str, message: str) -> None:
    with pytest.raises(MetricNameError, match=message) as info:
        evaluate(QRELS, RUN, [name])
    assert isinstance(info.value, InputError)


def test_a_cutoff_too_long_for_int_is_a_metric_name_error() -> None:
    # fuzz: int() refuses more than 4,300 digits (a raw ValueError from parse_metric)
    name = "ndcg@" + "9" * 5000
    with pytest.raises(MetricNameError, match=r"'ndcg@999.*has a cutoff of 5000 digits") as info:
        parse_metric(name)
    assert len(str(info.value)) < 200
    assert parse_metric("ndcg@" + "9" * 30).k == 10**30 - 1  # long but convertible: kept


def test_unknown_metric_lists_valid_names() -> None:
    with pytest.raises(MetricNameError) as info:
        parse_metric("bleu")
    for name in METRIC_FAMILIES:
        assert name in str(info.value)


def test_metric_list_from_string_and_duplicates() -> None:
    specs = parse_metrics("ndcg@10, ndcg_cut_10,mrr")
    assert [s.name for s in specs] == ["ndcg@10", "mrr"]
    with pytest.raises(MetricNameError, match="no metric"):
        parse_metrics([])


def test_query_judged_only_negative_scores_zero() -> None:
    # grade -1 marks a pooled but unjudged document (trec_eval): never relevant, no gain
    r = evaluate({"q": {"a": -1}}, {"q": {"a": 1.0}}, ["mrr", "ndcg@5", "map"])
    assert r.query("q") == {"mrr": 0.0, "ndcg@5": 0.0, "map": 0.0}
    assert r.queries_without_relevant == ("q",)
