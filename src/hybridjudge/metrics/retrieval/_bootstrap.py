"""Seeded percentile-bootstrap intervals for the means of a :class:`RetrievalResult`."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from pydantic import BaseModel, ConfigDict

from hybridjudge._stats import BOOTSTRAP_METHOD, bootstrap_interval
from hybridjudge.metrics.retrieval._evaluate import RetrievalResult

__all__ = ["MetricSummary", "summarize"]


class MetricSummary(BaseModel):
    """The mean of one metric over queries with its bootstrap confidence interval."""

    model_config = ConfigDict(frozen=True)

    metric: str
    """Canonical metric name, e.g. ``"ndcg@10"``."""
    mean: float
    """Mean over the evaluated queries."""
    ci_low: float
    """Lower bound of the interval."""
    ci_high: float
    """Upper bound of the interval."""
    confidence: float
    """Two-sided confidence level of the interval, e.g. 0.95."""
    n_queries: int
    """Number of queries resampled (the evaluated queries)."""
    method: str
    """How the interval was computed (percentile bootstrap over queries)."""
    n_resamples: int
    """Number of bootstrap resamples."""
    seed: int
    """Seed of numpy's ``default_rng``: the same inputs and seed give the same interval."""


def _row_means(values: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    means: npt.NDArray[np.float64] = values.mean(axis=1)
    return means


def summarize(
    result: RetrievalResult,
    *,
    n_resamples: int = 2000,
    confidence: float = 0.95,
    seed: int = 0,
) -> list[MetricSummary]:
    """Mean and percentile-bootstrap interval of every metric of ``result``.

    Queries are resampled with replacement (``n_resamples`` times, numpy ``default_rng(seed)``);
    every metric sees the same resamples, so the intervals are paired. The interval is the
    ``(1 - confidence)/2`` and ``(1 + confidence)/2`` quantiles of the resampled means.

    Raises
    ------
    InputError
        When ``n_resamples < 100`` or ``confidence`` is not in (0, 1).

    Examples
    --------
    >>> from hybridjudge.metrics.retrieval import evaluate
    >>> result = evaluate({"a": {"x": 1}, "b": {"y": 1}}, {"a": {"x": 1.0}, "b": {"z": 1.0}},
    ...                   ["hit@1"])
    >>> s = summarize(result, seed=7)[0]
    >>> (s.mean, s.ci_low <= s.mean <= s.ci_high)
    (0.5, True)
    """
    from hybridjudge._params import check_resamples, check_seed

    check_resamples(n_resamples)
    check_seed(seed)
    summaries: list[MetricSummary] = []
    for name in result.metrics:
        values = np.asarray(result.per_query[name], dtype=np.float64)
        low, high = bootstrap_interval(
            _row_means,
            values,
            n_resamples=n_resamples,
            confidence=confidence,
            seed=seed,
            vectorized=True,
        )
        summaries.append(
            MetricSummary(
                metric=name,
                mean=result.means[name],
                ci_low=low,
                ci_high=high,
                confidence=confidence,
                n_queries=result.num_queries,
                method=f"{BOOTSTRAP_METHOD} over queries",
                n_resamples=n_resamples,
                seed=seed,
            )
        )
    return summaries
