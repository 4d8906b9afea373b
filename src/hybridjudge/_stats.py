"""Confidence intervals shared by every report: Wilson score intervals and a seeded bootstrap.

Two helpers, both pure functions of their inputs (the bootstrap is seeded, so the same call always
returns the same interval):

- :func:`wilson_interval` for a proportion ``successes / n`` (Wilson 1927, without continuity
  correction; the method scipy calls ``"wilson"`` and statsmodels ``"wilson"``).
- :func:`bootstrap_interval` for any statistic of one or more paired samples: a percentile
  bootstrap, stratified when a label array is given (each resample keeps every stratum's size).
- :func:`percentile_interval` for bootstrap replicates drawn some other way.

The names to print beside an interval are :data:`WILSON_METHOD` and
:data:`BOOTSTRAP_METHOD` / :data:`STRATIFIED_BOOTSTRAP_METHOD`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from statistics import NormalDist
from typing import Any

import numpy as np
import numpy.typing as npt

from hybridjudge._errors import InputError

__all__ = [
    "BOOTSTRAP_METHOD",
    "STRATIFIED_BOOTSTRAP_METHOD",
    "WILSON_METHOD",
    "bootstrap_interval",
    "percentile_interval",
    "wilson_interval",
]

WILSON_METHOD = "Wilson score"
"""Name of the method of :func:`wilson_interval`, for printing beside the interval."""

BOOTSTRAP_METHOD = "percentile bootstrap"
"""Name of the method of :func:`bootstrap_interval` without strata."""

STRATIFIED_BOOTSTRAP_METHOD = "stratified percentile bootstrap"
"""Name of the method of :func:`bootstrap_interval` with ``strata``."""


def _check_confidence(confidence: float) -> None:
    if not (isinstance(confidence, int | float) and 0.0 < float(confidence) < 1.0):
        raise InputError(
            f"confidence={confidence!r} is not a level strictly between 0 and 1; "
            "pass e.g. confidence=0.95 for a 95% interval"
        )


def wilson_interval(successes: int, n: int, *, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for the proportion ``successes / n``.

    The interval (Wilson 1927; Newcombe 1998 "method 3") is::

        centre = (p + z²/2n) / (1 + z²/n)
        half   = z / (1 + z²/n) * sqrt(p(1-p)/n + z²/4n²)

    with ``p = successes / n`` and ``z`` the two-sided normal quantile of ``confidence``. Unlike the
    normal ("Wald") interval it stays inside [0, 1] and is not degenerate at 0 or n successes,
    which matters for small groups such as the most urgent triage level.

    Parameters
    ----------
    successes : int
        Number of successes, ``0 <= successes <= n``.
    n : int
        Number of trials. Must be at least 1.
    confidence : float, default 0.95
        Two-sided confidence level, strictly between 0 and 1.

    Returns
    -------
    (lower, upper) : tuple of float
        The bounds, with ``0 <= lower <= successes/n <= upper <= 1``; exactly 0.0 when
        ``successes == 0`` and exactly 1.0 when ``successes == n``.

    Raises
    ------
    InputError
        When ``n == 0`` (a proportion of nothing has no interval: report the group as empty
        instead), when counts are negative, non-integer or ``successes > n``, or when
        ``confidence`` is outside (0, 1).

    Examples
    --------
    >>> low, high = wilson_interval(81, 263)   # Newcombe (1998), Table II: 0.2553 to 0.3662
    >>> round(low, 4), round(high, 4)
    (0.2553, 0.3662)
    """
    for name, value in (("successes", successes), ("n", n)):
        if isinstance(value, bool) or not isinstance(value, int | np.integer):
            raise InputError(f"{name}={value!r} must be a whole count (int)")
    _check_confidence(confidence)
    if n == 0:
        raise InputError(
            "wilson_interval: n=0, a proportion of an empty group has no interval; "
            "report the group as empty (n=0) instead of computing a rate"
        )
    if n < 0 or successes < 0 or successes > n:
        raise InputError(
            f"wilson_interval: successes={successes}, n={n}; need 0 <= successes <= n and n >= 1"
        )
    z = NormalDist().inv_cdf(0.5 + float(confidence) / 2.0)
    p = successes / n
    z2 = z * z
    denominator = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = (z / denominator) * math.sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n))
    lower = 0.0 if successes == 0 else max(0.0, centre - half)
    upper = 1.0 if successes == n else min(1.0, centre + half)
    return (lower, upper)


_BATCH_CELLS = 2_000_000
"""Upper bound on resamples x rows drawn at once, so memory stays bounded for large samples."""


def bootstrap_interval(
    statistic: Callable[..., Any],
    *samples: npt.ArrayLike,
    strata: npt.ArrayLike | None = None,
    n_resamples: int = 2000,
    confidence: float = 0.95,
    seed: int = 0,
    vectorized: bool = False,
) -> tuple[float, float]:
    """Seeded percentile bootstrap interval of ``statistic(*samples)``.

    Every resample draws ``N`` row indices with replacement and applies them to all ``samples``
    together (rows stay paired, e.g. reference and prediction of one case). With ``strata``, rows
    are drawn with replacement *within* each stratum so that every resample has exactly the
    stratum sizes of the data (e.g. the class sizes of the reference labels); this keeps rare
    classes present in every resample, so per-class statistics such as balanced accuracy stay
    defined. The interval is the ``(1 - confidence)/2`` and ``(1 + confidence)/2`` quantiles
    (numpy's default linear interpolation) of the resampled statistics.

    Parameters
    ----------
    statistic : callable
        ``statistic(*resampled_samples) -> float``, called once per resample with 1-D numpy
        arrays; with ``vectorized=True`` it is called with 2-D arrays of shape
        ``(batch, N)`` (one resample per row) and must return ``batch`` values.
    *samples : array-like
        One or more 1-D arrays of the same length ``N >= 1``.
    strata : array-like, optional
        A label per row (length ``N``); resampling is stratified by it when given.
    n_resamples : int, default 2000
        Number of bootstrap resamples (at least 100).
    confidence : float, default 0.95
        Two-sided confidence level, strictly between 0 and 1.
    seed : int, default 0
        Seed of the numpy ``default_rng``; the same inputs and seed give the same interval
        (whether or not ``vectorized``), and two statistics bootstrapped with the same seed on
        the same samples see the same resamples.
    vectorized : bool, default False
        Whether ``statistic`` accepts a batch of resamples at once (much faster).

    Returns
    -------
    (lower, upper) : tuple of float

    Raises
    ------
    InputError
        When no sample is given, samples (or strata) differ in length or are empty,
        ``n_resamples < 100``, or the statistic is not finite on at least 95% of the resamples
        (the interval would describe a filtered subset; resamples where it is NaN or infinite are
        otherwise left out).

    Examples
    --------
    >>> import numpy as np
    >>> low, high = bootstrap_interval(np.mean, np.array([1.0, 2.0, 3.0, 4.0]), seed=1)
    >>> 1.0 <= low <= 2.5 <= high <= 4.0
    True
    """
    if not samples:
        raise InputError("bootstrap_interval: pass at least one sample array after the statistic")
    arrays = [np.asarray(sample) for sample in samples]
    size = arrays[0].shape[0] if arrays[0].ndim >= 1 else 0
    if size == 0:
        raise InputError("bootstrap_interval: the samples are empty; there is nothing to resample")
    for position, array in enumerate(arrays):
        if array.ndim != 1 or array.shape[0] != size:
            raise InputError(
                f"bootstrap_interval: sample {position} has shape {array.shape}; every sample "
                f"must be 1-D with the same length as sample 0 ({size})"
            )
    from hybridjudge._params import check_resamples, check_seed

    check_resamples(n_resamples)
    check_seed(seed)
    _check_confidence(confidence)

    members: list[npt.NDArray[np.intp]] = []
    if strata is not None:
        groups = np.asarray(strata)
        if groups.ndim != 1 or groups.shape[0] != size:
            raise InputError(
                f"bootstrap_interval: strata has shape {groups.shape}; it needs one label per "
                f"row ({size})"
            )
        members = [np.flatnonzero(groups == value) for value in np.unique(groups)]

    rng = np.random.default_rng(seed)
    batch = max(1, _BATCH_CELLS // size)
    values = np.empty(n_resamples, dtype=float)
    for start in range(0, n_resamples, batch):
        count = min(batch, n_resamples - start)
        if not members:
            indices = rng.integers(0, size, size=(count, size))
        else:
            indices = np.concatenate(
                [
                    group[rng.integers(0, group.shape[0], size=(count, group.shape[0]))]
                    for group in members
                ],
                axis=1,
            )
        if vectorized:
            batch_values = np.asarray(statistic(*[array[indices] for array in arrays]), float)
            if batch_values.shape != (count,):
                raise InputError(
                    f"bootstrap_interval: the vectorized statistic returned shape "
                    f"{batch_values.shape} for {count} resamples; return one value per row"
                )
            values[start : start + count] = batch_values
        else:
            for row in range(count):
                take = indices[row]
                values[start + row] = float(statistic(*[array[take] for array in arrays]))
    return percentile_interval(values, confidence=confidence)


def percentile_interval(values: npt.ArrayLike, *, confidence: float = 0.95) -> tuple[float, float]:
    """Percentile interval of bootstrap replicates (the step :func:`bootstrap_interval` ends with).

    Use it directly when the replicates are drawn another way (e.g. multinomial draws of a
    confusion matrix). Non-finite replicates (NaN, inf: the statistic was undefined on that
    resample) are left out, but if they are more than 5% of all replicates the interval would
    describe a filtered subset, so :class:`InputError` is raised instead.

    Examples
    --------
    >>> low, high = percentile_interval([float(x) for x in range(101)], confidence=0.8)
    >>> round(low, 9), round(high, 9)
    (10.0, 90.0)
    """
    _check_confidence(confidence)
    replicates = np.asarray(values, dtype=float).ravel()
    if replicates.shape[0] == 0:
        raise InputError("percentile_interval: no bootstrap replicates were given")
    finite = replicates[np.isfinite(replicates)]
    if finite.shape[0] < 0.95 * replicates.shape[0]:
        raise InputError(
            f"bootstrap interval: the statistic was undefined (NaN/inf) on "
            f"{replicates.shape[0] - finite.shape[0]} of {replicates.shape[0]} resamples; the "
            "data are too small or too uniform for a bootstrap interval (stratify by the label, "
            "or report none)"
        )
    alpha = 1.0 - float(confidence)
    lower, upper = np.quantile(finite, [alpha / 2.0, 1.0 - alpha / 2.0])
    return (float(lower), float(upper))
