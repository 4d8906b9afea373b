"""Metrics for the rest of the RAG pipeline: retrieval (:mod:`.retrieval`) and ordinal classification (:mod:`.ordinal`).

Also :func:`auroc` / :func:`auroc_interval`: how well a score separates two labelled groups
(e.g. HaluEval's right and hallucinated answers), with a stratified bootstrap interval.
"""

from hybridjudge.metrics._auroc import AurocResult, auroc, auroc_interval

__all__ = ["AurocResult", "auroc", "auroc_interval"]
