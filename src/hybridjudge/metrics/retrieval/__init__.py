"""Retrieval metrics that agree with trec_eval: hit@k, MRR, P@k, recall@k, MAP, nDCG@k.

One entry point, :func:`evaluate`, over ``{qid: {docid: grade}}`` qrels and
``{qid: {docid: score}}`` runs; readers for TREC, JSON and JSONL files and for the seed
articles' case files; seeded bootstrap intervals for the means (:func:`summarize`).
Conventions (ties, cutoffs, queries without relevant documents) are those of trec_eval and are
documented in :func:`evaluate` and :data:`METRIC_FAMILIES`.
"""

from __future__ import annotations

from hybridjudge.metrics.retrieval._arrays import TIE_BREAKS, TieBreak
from hybridjudge.metrics.retrieval._bootstrap import MetricSummary, summarize
from hybridjudge.metrics.retrieval._evaluate import (
    RESULT_FORMAT_VERSION,
    RetrievalResult,
    evaluate,
)
from hybridjudge.metrics.retrieval._io import (
    RetrievalCase,
    cases_to_qrels,
    load_retriever,
    ranking_to_scores,
    read_cases,
    read_qrels,
    read_run,
    run_retriever,
)
from hybridjudge.metrics.retrieval._measures import (
    METRIC_FAMILIES,
    MetricNameError,
    MetricSpec,
    parse_metric,
    parse_metrics,
)

__all__ = [
    "METRIC_FAMILIES",
    "RESULT_FORMAT_VERSION",
    "TIE_BREAKS",
    "MetricNameError",
    "MetricSpec",
    "MetricSummary",
    "RetrievalCase",
    "RetrievalResult",
    "TieBreak",
    "cases_to_qrels",
    "evaluate",
    "load_retriever",
    "parse_metric",
    "parse_metrics",
    "ranking_to_scores",
    "read_cases",
    "read_qrels",
    "read_run",
    "run_retriever",
    "summarize",
]
