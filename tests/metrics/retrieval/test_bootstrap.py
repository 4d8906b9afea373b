"""The seeded bootstrap intervals of :func:`summarize`.

Independent check: scipy.stats.bootstrap (percentile method) on the same per-query values gives
nearly the same interval (different random draws, so compared with a tolerance).
"""

from __future__ import annotations

import numpy as np
import pytest

from hybridjudge._errors import InputError
from hybridjudge.metrics.retrieval import RetrievalResult, evaluate, summarize


def _result() -> RetrievalResult:
    rng = np.random.default_rng(11)
    qrels = {f"q{i}": {"rel": 1} for i in range(200)}
    run = {}
    for i in range(200):
        # the relevant document at a random rank 1..5, or not retrieved (rank 6)
        ranked = [f"x{j}" for j in range(5)]
        rank = int(rng.integers(1, 7))
        if rank <= 5:
            ranked[rank - 1] = "rel"
        run[f"q{i}"] = {doc: 10.0 - j for j, doc in enumerate(ranked)}
    return evaluate(qrels, run, ["mrr", "hit@3"])


def test_interval_is_seeded_and_paired() -> None:
    result = _result()
    a = summarize(result, n_resamples=500, seed=5)
    b = summarize(result, n_resamples=500, seed=5)
    c = summarize(result, n_resamples=500, seed=6)
    assert a == b
    assert (a[0].ci_low, a[0].ci_high) != (c[0].ci_low, c[0].ci_high)
    for s in a:
        assert s.ci_low < s.mean < s.ci_high
        assert s.n_queries == 200
        assert s.seed == 5
        assert s.method.startswith("percentile bootstrap")


def test_interval_agrees_with_scipy_percentile_bootstrap() -> None:
    stats = pytest.importorskip("scipy.stats")
    result = _result()
    ours = summarize(result, n_resamples=4000, seed=0)
    for s in ours:
        values = result.per_query[s.metric]
        theirs = stats.bootstrap(
            (values,), np.mean, n_resamples=4000, method="percentile", random_state=1
        ).confidence_interval
        assert s.ci_low == pytest.approx(theirs.low, abs=0.02)
        assert s.ci_high == pytest.approx(theirs.high, abs=0.02)


def test_bad_bootstrap_settings() -> None:
    result = _result()
    with pytest.raises(InputError, match="n_resamples"):
        summarize(result, n_resamples=10)
    with pytest.raises(InputError, match="confidence"):
        summarize(result, confidence=1.5)
    with pytest.raises(InputError, match="seed"):
        summarize(result, seed="x")  # type: ignore[arg-type]
