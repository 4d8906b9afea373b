"""Tests of hybridjudge._stats: Wilson intervals and the seeded (stratified) bootstrap."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binomtest  # type: ignore[import-untyped]

from hybridjudge._errors import InputError
from hybridjudge._stats import bootstrap_interval, percentile_interval, wilson_interval

# Published values: Newcombe, R. G. (1998), "Two-sided confidence intervals for the single
# proportion: comparison of seven methods", Statistics in Medicine 17:857-872, Table II, method 3
# (Wilson score interval without continuity correction), 95% level, four decimals.
NEWCOMBE_1998_WILSON = [
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0000, 0.1611),
    (1, 29, 0.0061, 0.1718),
]


@pytest.mark.parametrize(("successes", "n", "low", "high"), NEWCOMBE_1998_WILSON)
def test_wilson_matches_newcombe_1998(successes: int, n: int, low: float, high: float) -> None:
    lower, upper = wilson_interval(successes, n)
    assert round(lower, 4) == low
    assert round(upper, 4) == high


def test_wilson_hand_computed_two_of_five() -> None:
    # Hand computation, z = 1.959964: p = 0.4, z²/n = 0.768291, denominator 1.768291,
    # centre = (0.4 + 0.384146) / 1.768291 = 0.443448,
    # half = 1.959964 / 1.768291 * sqrt(0.048 + 0.038415) = 0.325827 -> (0.117621, 0.769276).
    lower, upper = wilson_interval(2, 5)
    assert lower == pytest.approx(0.117621, abs=1e-6)
    assert upper == pytest.approx(0.769276, abs=1e-6)


@settings(max_examples=200, deadline=None)
@given(
    data=st.integers(min_value=1, max_value=5000).flatmap(
        lambda n: st.tuples(st.integers(min_value=0, max_value=n), st.just(n))
    ),
    confidence=st.sampled_from([0.8, 0.9, 0.95, 0.99]),
)
def test_wilson_agrees_with_scipy(data: tuple[int, int], confidence: float) -> None:
    # Independent reference: scipy.stats.binomtest(...).proportion_ci(method="wilson").
    successes, n = data
    reference = binomtest(successes, n).proportion_ci(confidence, method="wilson")
    lower, upper = wilson_interval(successes, n, confidence=confidence)
    assert lower == pytest.approx(float(reference.low), abs=1e-12)
    assert upper == pytest.approx(float(reference.high), abs=1e-12)
    assert 0.0 <= lower <= successes / n <= upper <= 1.0


def test_wilson_extremes_are_exact() -> None:
    assert wilson_interval(0, 7)[0] == 0.0
    assert wilson_interval(7, 7)[1] == 1.0


def test_wilson_narrows_with_confidence() -> None:
    wide = wilson_interval(30, 100, confidence=0.99)
    narrow = wilson_interval(30, 100, confidence=0.90)
    assert wide[0] < narrow[0] < narrow[1] < wide[1]


@pytest.mark.parametrize(
    ("successes", "n", "confidence", "needle"),
    [
        (0, 0, 0.95, "n=0"),
        (3, 2, 0.95, "successes=3, n=2"),
        (-1, 5, 0.95, "successes=-1"),
        (1, 5, 1.0, "confidence=1.0"),
        (1, 5, 0.0, "confidence=0.0"),
    ],
)
def test_wilson_rejects_bad_input(successes: int, n: int, confidence: float, needle: str) -> None:
    with pytest.raises(InputError, match=needle):
        wilson_interval(successes, n, confidence=confidence)


def test_wilson_rejects_non_integer_counts() -> None:
    with pytest.raises(InputError, match="whole count"):
        wilson_interval(2.5, 5)  # type: ignore[arg-type]


def test_bootstrap_is_reproducible_with_a_seed() -> None:
    rng = np.random.default_rng(42)
    data = rng.normal(size=60)
    first = bootstrap_interval(np.mean, data, seed=7)
    assert bootstrap_interval(np.mean, data, seed=7) == first
    assert bootstrap_interval(np.mean, data, seed=8) != first


def test_bootstrap_of_constant_data_is_a_point() -> None:
    assert bootstrap_interval(np.mean, np.full(25, 3.5)) == (3.5, 3.5)


def test_bootstrap_mean_close_to_normal_theory() -> None:
    # Independent check: for the mean of N(0, 1) draws, the percentile bootstrap interval should
    # be close to mean ± 1.96 * s / sqrt(n) (large-sample theory), within a few percent.
    rng = np.random.default_rng(0)
    data = rng.normal(loc=10.0, scale=2.0, size=400)
    lower, upper = bootstrap_interval(np.mean, data, n_resamples=4000, seed=3)
    half = 1.959964 * data.std(ddof=1) / np.sqrt(data.shape[0])
    assert lower == pytest.approx(data.mean() - half, abs=0.06)
    assert upper == pytest.approx(data.mean() + half, abs=0.06)


def test_stratified_bootstrap_keeps_stratum_sizes() -> None:
    # With strata, every resample has exactly the data's stratum sizes, so the count of label "a"
    # in the resample is always 3: the interval collapses to (3, 3). Without strata it varies.
    labels = np.array(["a"] * 3 + ["b"] * 17)

    def count_a(values: np.ndarray) -> float:
        return float(np.sum(values == "a"))

    assert bootstrap_interval(count_a, labels, strata=labels) == (3.0, 3.0)
    lower, upper = bootstrap_interval(count_a, labels)
    assert lower < 3.0 < upper


def test_bootstrap_keeps_samples_paired() -> None:
    # Two identical columns resampled with the same indices stay identical in every resample.
    x = np.arange(30, dtype=float)

    def max_gap(a: np.ndarray, b: np.ndarray) -> float:
        return float(np.max(np.abs(a - b)))

    assert bootstrap_interval(max_gap, x, x.copy(), seed=5) == (0.0, 0.0)


def test_bootstrap_refuses_mostly_undefined_statistic() -> None:
    def undefined(values: np.ndarray) -> float:
        return float("nan")

    with pytest.raises(InputError, match="undefined"):
        bootstrap_interval(undefined, np.arange(10))


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"n_resamples": 10}, "n_resamples=10"),
        ({"confidence": 1.5}, "confidence=1.5"),
        ({"strata": np.arange(3)}, "strata"),
    ],
)
def test_bootstrap_rejects_bad_options(kwargs: dict[str, object], needle: str) -> None:
    with pytest.raises(InputError, match=needle):
        bootstrap_interval(np.mean, np.arange(10.0), **kwargs)  # type: ignore[arg-type]


def test_bootstrap_rejects_mismatched_or_empty_samples() -> None:
    with pytest.raises(InputError, match="same length"):
        bootstrap_interval(lambda a, b: 0.0, np.arange(5), np.arange(6))
    with pytest.raises(InputError, match="empty"):
        bootstrap_interval(np.mean, np.array([]))
    with pytest.raises(InputError, match="at least one sample"):
        bootstrap_interval(np.mean)


def test_vectorized_bootstrap_equals_loop() -> None:
    # The same seed draws the same resamples whether the statistic is vectorized or not.
    rng = np.random.default_rng(1)
    data = rng.integers(0, 5, size=80)
    strata = rng.integers(0, 3, size=80)
    looped = bootstrap_interval(np.mean, data, strata=strata, seed=4)
    batched = bootstrap_interval(
        lambda rows: rows.mean(axis=1), data, strata=strata, seed=4, vectorized=True
    )
    assert batched == pytest.approx(looped, abs=1e-12)


def test_vectorized_bootstrap_checks_the_statistic_shape() -> None:
    with pytest.raises(InputError, match="one value per row"):
        bootstrap_interval(lambda rows: rows.mean(), np.arange(10.0), vectorized=True)


def test_percentile_interval_by_hand() -> None:
    # numpy linear quantiles of 0..100 at 5% and 95% are exactly 5 and 95 (hand computation).
    assert percentile_interval(np.arange(101.0), confidence=0.9) == pytest.approx((5.0, 95.0))
    # a few undefined replicates are left out; too many is an error
    values = np.concatenate([np.arange(100.0), [np.nan]])
    assert percentile_interval(values, confidence=0.9) == pytest.approx((4.95, 94.05))
    with pytest.raises(InputError, match="undefined"):
        percentile_interval(np.array([1.0, np.nan]))
    with pytest.raises(InputError, match="no bootstrap replicates"):
        percentile_interval(np.array([]))
