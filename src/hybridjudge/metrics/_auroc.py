"""AUROC of a score separating two labelled groups, with a seeded stratified bootstrap interval.

Used to report how well a scorer separates HaluEval's right answers from its hallucinated ones
(one of each per question): the area under the ROC curve is the probability that a random
positive (e.g. a right answer) scores higher than a random negative (a hallucinated one), ties
counting one half. That is the Mann-Whitney U statistic over midranks, and equals what
scikit-learn's ``roc_auc_score`` returns, ties included (its trapezoidal ROC curve gives a tied
pair half the area).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from hybridjudge._errors import InputError
from hybridjudge._stats import STRATIFIED_BOOTSTRAP_METHOD, bootstrap_interval

__all__ = ["AurocResult", "auroc", "auroc_interval"]


@dataclass(frozen=True)
class AurocResult:
    """The AUROC of one score with its bootstrap interval."""

    auroc: float
    """Area under the ROC curve in [0, 1]; 0.5 is no separation, 1.0 perfect."""
    low: float
    """Lower end of the interval."""
    high: float
    """Upper end of the interval."""
    n_positive: int
    """Rows labelled positive."""
    n_negative: int
    """Rows labelled negative."""
    confidence: float
    """Two-sided level of the interval, e.g. 0.95."""
    method: str = STRATIFIED_BOOTSTRAP_METHOD
    """How the interval was computed (resampled within each label, so both groups keep their
    sizes in every resample)."""


def _checked(
    positive: npt.ArrayLike, scores: npt.ArrayLike
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.float64]]:
    labels = _array(positive, "positive", "one boolean (or 0/1) per row")
    raw = _array(scores, "scores", "one finite number per row")
    if raw.dtype.kind not in "iuf":
        raise InputError(
            f"auroc: scores must be numbers, got {_describe(raw)}; pass one finite number per "
            "row (strings and booleans are not converted)"
        )
    values = raw.astype(float)
    if labels.ndim != 1 or values.ndim != 1 or labels.shape != values.shape:
        raise InputError(
            f"auroc: positive has shape {labels.shape} and scores {values.shape}; pass two 1-D "
            "arrays with one label and one score per row"
        )
    if labels.dtype != np.bool_:
        if labels.dtype.kind not in "iuf" or not np.isin(labels, (0, 1)).all():
            raise InputError(
                "auroc: positive must hold booleans (or 0/1): True marks a positive row"
            )
        labels = labels.astype(bool)
    if not np.isfinite(values).all():
        raise InputError(
            "auroc: scores hold NaN or infinite values; leave unscored rows out (and report how "
            "many) before computing the AUROC"
        )
    n_positive = int(labels.sum())
    if n_positive == 0 or n_positive == labels.shape[0]:
        raise InputError(
            f"auroc: needs both positive and negative rows, got {n_positive} positive of "
            f"{labels.shape[0]}; the AUROC is undefined with one group"
        )
    return labels, values


def _array(values: object, name: str, expected: str) -> npt.NDArray[Any]:
    """``np.asarray(values)``, refusing what is not a sequence of plain values."""
    if isinstance(values, str | bytes | Mapping | set | frozenset) or not isinstance(
        values, Iterable | np.ndarray
    ):
        raise InputError(
            f"auroc: {name} is a {type(values).__name__}; pass a list or 1-D array with {expected}"
        )
    try:
        return np.asarray(values)
    except (TypeError, ValueError) as exc:  # ragged nesting
        raise InputError(
            f"auroc: {name} cannot be read as a 1-D array ({exc}); pass {expected}"
        ) from None


def _describe(array: npt.NDArray[Any]) -> str:
    if array.dtype.kind == "b":
        return "booleans"
    if array.dtype.kind in "US":
        return "strings"
    if array.dtype.kind == "O":
        kinds = sorted({type(item).__name__ for item in array.ravel().tolist()})
        return "values of type " + ", ".join(kinds)
    return f"values of dtype {array.dtype}"


def _auroc(labels: npt.NDArray[np.bool_], values: npt.NDArray[np.float64]) -> float:
    """Mann-Whitney AUROC with midranks (tied scores share the mean of their ranks)."""
    _, inverse, counts = np.unique(values, return_inverse=True, return_counts=True)
    ends = np.cumsum(counts)  # 1-based rank of the last member of each tie group
    midranks = ends - (counts - 1) / 2.0
    ranks = midranks[inverse]
    n_positive = int(labels.sum())
    n_negative = int(labels.shape[0]) - n_positive
    u = float(ranks[labels].sum()) - n_positive * (n_positive + 1) / 2.0
    return u / (n_positive * n_negative)


def _auroc_batch(
    labels: npt.NDArray[np.bool_], values: npt.NDArray[np.float64]
) -> npt.NDArray[np.float64]:
    """:func:`_auroc` of each row of 2-D ``labels`` and ``values`` (one resample a row), with the
    same midranks: the bootstrap's 2,000 resamples in a few array operations, not 2,000 calls."""
    batch, size = values.shape
    order = np.argsort(values, axis=1, kind="stable")
    ordered = np.take_along_axis(values, order, axis=1)
    starts = np.ones((batch, size), dtype=bool)
    starts[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    group = np.cumsum(starts, axis=1) - 1 + (np.arange(batch) * size)[:, None]
    flat = group.ravel()
    rank = np.broadcast_to(np.arange(1, size + 1, dtype=np.float64), (batch, size)).ravel()
    midrank = np.bincount(flat, weights=rank) / np.maximum(np.bincount(flat), 1)
    ranks = np.empty((batch, size))
    np.put_along_axis(ranks, order, midrank[flat].reshape(batch, size), axis=1)
    n_positive = labels.sum(axis=1)
    n_negative = size - n_positive
    u = np.where(labels, ranks, 0.0).sum(axis=1) - n_positive * (n_positive + 1) / 2.0
    result: npt.NDArray[np.float64] = u / (n_positive * n_negative)
    return result


def auroc(positive: npt.ArrayLike, scores: npt.ArrayLike) -> float:
    """Area under the ROC curve of ``scores`` for the rows marked ``positive``.

    Args:
        positive: one boolean (or 0/1) per row; True marks the group expected to score higher
            (e.g. the right answers when the score is a faithfulness score).
        scores: one finite score per row.

    Returns:
        P(score of a positive > score of a negative) + 0.5 P(equal), as
        ``sklearn.metrics.roc_auc_score(positive, scores)`` computes it.

    Raises:
        InputError: shapes differ, a score is NaN/infinite (leave unscored rows out) or not a
            number (strings, booleans and ``None`` are not converted), an argument is not a
            sequence (a dict, a scalar), a label is not boolean, or one of the two groups is
            empty.

    Examples:
        >>> auroc([True, True, False, False], [0.9, 0.5, 0.5, 0.1])
        0.875
    """
    labels, values = _checked(positive, scores)
    return _auroc(labels, values)


def auroc_interval(
    positive: npt.ArrayLike,
    scores: npt.ArrayLike,
    *,
    n_resamples: int = 2000,
    confidence: float = 0.95,
    seed: int = 0,
) -> AurocResult:
    """AUROC with a seeded percentile bootstrap interval, resampled within each label.

    Each resample draws the positives from the positives and the negatives from the negatives
    (with replacement), so both groups keep their sizes and the AUROC is defined every time.

    Args:
        positive: one boolean (or 0/1) per row (see :func:`auroc`).
        scores: one finite score per row.
        n_resamples: bootstrap resamples (100 to 1,000,000).
        confidence: two-sided level, strictly between 0 and 1.
        seed: seed of the resampling; the same inputs and seed give the same interval.

    Returns:
        The point AUROC, the interval and the group sizes.

    Raises:
        InputError: as :func:`auroc`, or an unusable ``n_resamples``/``confidence``/``seed``.

    Examples:
        >>> result = auroc_interval([1, 1, 1, 0, 0, 0], [0.9, 0.8, 0.4, 0.5, 0.2, 0.1], seed=3)
        >>> round(result.auroc, 4), result.low <= result.auroc <= result.high
        (0.8889, True)
    """
    labels, values = _checked(positive, scores)
    point = _auroc(labels, values)
    low, high = bootstrap_interval(
        _auroc_batch,
        labels,
        values,
        strata=labels,
        n_resamples=n_resamples,
        confidence=confidence,
        seed=seed,
        vectorized=True,
    )
    n_positive = int(labels.sum())
    return AurocResult(
        auroc=point,
        low=low,
        high=high,
        n_positive=n_positive,
        n_negative=int(labels.shape[0]) - n_positive,
        confidence=confidence,
    )
