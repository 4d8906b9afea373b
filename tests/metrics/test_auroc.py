"""AUROC and its bootstrap interval (hybridjudge.metrics.auroc / auroc_interval).

Golden values come from scikit-learn's ``roc_auc_score`` (an independent implementation: the
trapezoidal area under its ROC curve) on random inputs with many ties, and from hand counting.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score

from hybridjudge._errors import InputError
from hybridjudge.metrics import AurocResult, auroc, auroc_interval


@pytest.mark.parametrize("seed", range(40))
def test_auroc_matches_scikit_learn_on_random_inputs_with_ties(seed: int) -> None:
    rng = np.random.default_rng(seed)
    size = int(rng.integers(2, 60))
    labels = rng.integers(0, 2, size=size).astype(bool)
    labels[0], labels[1] = True, False  # both groups present
    # few distinct values -> many ties, like judge scores (0, 1/3, 1/2, 1 ...)
    scores = rng.integers(0, int(rng.integers(1, 6)) + 1, size=size) / 4.0
    assert auroc(labels, scores) == pytest.approx(roc_auc_score(labels, scores), abs=1e-12)


def test_auroc_with_continuous_scores_matches_scikit_learn() -> None:
    rng = np.random.default_rng(7)
    labels = rng.integers(0, 2, size=500)
    scores = rng.normal(size=500) + labels
    assert auroc(labels, scores) == pytest.approx(roc_auc_score(labels, scores), abs=1e-12)


def test_auroc_by_hand() -> None:
    # pairs (positive, negative): (0.9, 0.5) win, (0.9, 0.1) win, (0.5, 0.5) tie, (0.5, 0.1) win
    assert auroc([True, True, False, False], [0.9, 0.5, 0.5, 0.1]) == 3.5 / 4
    assert auroc([True, False], [0.2, 0.8]) == 0.0
    assert auroc([1, 0, 1, 0], [0.5, 0.5, 0.5, 0.5]) == 0.5


def test_interval_contains_the_point_and_is_seeded() -> None:
    rng = np.random.default_rng(1)
    labels = np.repeat([True, False], 40)
    scores = np.round(rng.random(80) + 0.3 * labels, 1)
    result = auroc_interval(labels, scores, seed=5, n_resamples=500)
    assert isinstance(result, AurocResult)
    assert result.auroc == pytest.approx(roc_auc_score(labels, scores), abs=1e-12)
    assert 0.0 <= result.low < result.auroc < result.high <= 1.0
    assert (result.n_positive, result.n_negative, result.confidence) == (40, 40, 0.95)
    assert auroc_interval(labels, scores, seed=5, n_resamples=500) == result
    other = auroc_interval(labels, scores, seed=6, n_resamples=500)
    assert (other.low, other.high) != (result.low, result.high)


def test_interval_narrows_with_more_data() -> None:
    rng = np.random.default_rng(2)

    def width(n: int) -> float:
        labels = np.repeat([True, False], n)
        scores = rng.random(2 * n) + 0.5 * labels
        result = auroc_interval(labels, scores, n_resamples=400)
        return result.high - result.low

    assert width(400) < width(20)


def test_perfect_separation_gives_a_degenerate_interval_at_one() -> None:
    # stratified resampling keeps both groups; every resample still separates perfectly
    result = auroc_interval([1, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.2, 0.1], n_resamples=200)
    assert (result.auroc, result.low, result.high) == (1.0, 1.0, 1.0)


@pytest.mark.parametrize(
    ("positive", "scores", "words"),
    [
        ([True, True], [0.1, 0.2], "both positive and negative"),
        ([True, False], [0.1, float("nan")], "NaN"),
        ([True, False, True], [0.1, 0.2], "shape"),
        (["yes", "no"], [0.1, 0.2], "booleans"),
    ],
)
def test_bad_input_is_a_clear_error(
    positive: list[object], scores: list[float], words: str
) -> None:
    with pytest.raises(InputError, match=words):
        auroc(positive, scores)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("positive", "scores", "words"),
    [
        # the audit's cases: a numpy ValueError and a TypeError before
        ([1, 0], ["a", "b"], "scores must be numbers, got strings"),
        ([1, 0], {"a": 1}, "scores is a dict"),
        ({"a": 1}, [0.9, 0.1], "positive is a dict"),
        # converted silently before: text that looks like numbers, and flags
        ([1, 0], ["0.9", "0.1"], "scores must be numbers, got strings"),
        ([1, 0], [True, False], "scores must be numbers, got booleans"),
        ([1, 0], [0.9, None], "scores must be numbers, got values of type NoneType, float"),
        ([1, 0], 0.5, "scores is a float"),
        ([1, 0], "0.9", "scores is a str"),
        ([1, 0], [[0.9], [0.1, 0.2]], "scores cannot be read as a 1-D array"),
        (["1", "0"], [0.9, 0.1], "positive must hold booleans"),
    ],
)
def test_unusable_types_are_a_typed_error(positive: object, scores: object, words: str) -> None:
    for function in (auroc, auroc_interval):
        with pytest.raises(InputError, match=re.escape(words)):
            function(positive, scores)  # type: ignore[arg-type]


def test_numeric_types_are_accepted_as_scikit_learn_does() -> None:
    labels = np.array([1, 0, 1, 0])
    for scores in ([3, 1, 2, 2], np.array([0.9, 0.1, 0.5, 0.5], dtype=np.float32)):
        assert auroc(labels, scores) == pytest.approx(roc_auc_score(labels, scores), abs=1e-12)


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.tuples(st.booleans(), st.integers(0, 6)), min_size=2, max_size=40),
    st.integers(0, 2**16),
)
def test_the_vectorised_bootstrap_gives_the_very_interval_of_one_call_per_resample(
    rows: list[tuple[bool, int]], seed: int
) -> None:
    from hybridjudge._stats import bootstrap_interval
    from hybridjudge.metrics._auroc import _auroc, _auroc_batch

    labels = np.array([r[0] for r in rows])
    values = np.array([r[1] / 2 for r in rows], dtype=float)  # many ties
    assume(0 < labels.sum() < len(rows))
    looped = bootstrap_interval(_auroc, labels, values, strata=labels, seed=seed, n_resamples=200)
    batched = bootstrap_interval(
        _auroc_batch, labels, values, strata=labels, seed=seed, n_resamples=200, vectorized=True
    )
    assert batched == looped
