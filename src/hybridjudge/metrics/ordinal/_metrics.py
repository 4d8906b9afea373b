"""Ordinal classification metrics with scikit-learn-style signatures.

Every function takes ``(y_true, y_pred, *, labels=None, ...)``: ``y_true`` is the reference level
of each case, ``y_pred`` the predicted level, and ``labels`` fixes the order of the scale (as in
:func:`sklearn.metrics.confusion_matrix`); with ``labels=None`` the sorted union of observed values
is used. Distances are counted in *levels*, i.e. positions in ``labels`` (with labels 1..5 this is
``|prediction - reference|``).

Direction: ``most_urgent="first"`` (default) means ``labels[0]`` is the most urgent level, as
in 5-level triage (TTAS, KTAS, ESI, CTAS, MTS: level 1 = resuscitation). A prediction *less*
urgent than the reference is **under-triage**, a prediction *more* urgent is **over-triage**.

Functions named ``*_score`` / ``*_error`` return floats (higher better / lower better, the
scikit-learn convention); functions named ``*_rate`` and :func:`recall_per_level` return
:class:`Rate` values that carry numerator, denominator, population and a Wilson interval.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from hybridjudge._errors import ConfigError
from hybridjudge._stats import WILSON_METHOD, wilson_interval
from hybridjudge.metrics.ordinal._models import Interval, Rate
from hybridjudge.metrics.ordinal._validation import (
    Encoded,
    MostUrgent,
    check_most_urgent,
    encode,
    level_list,
)

__all__ = [
    "accuracy_score",
    "balanced_accuracy_score",
    "confusion_matrix",
    "far_error_rate",
    "far_under_triage_rate",
    "majority_baseline_score",
    "mean_absolute_error",
    "over_triage_rate",
    "recall_per_level",
    "under_triage_rate",
    "weighted_kappa_score",
]

Weights = Literal["linear", "quadratic"]
IntMatrix = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


# --- matrix-level kernels (work on one K x K matrix or a stack of shape (..., K, K)) ----------


def _matrix(encoded: Encoded) -> IntMatrix:
    k = encoded.n_labels
    flat = encoded.reference * k + encoded.prediction
    return np.bincount(flat, minlength=k * k).reshape(k, k).astype(np.int64)


def _distance(k: int) -> IntMatrix:
    index = np.arange(k, dtype=np.int64)
    distance: IntMatrix = np.abs(np.subtract.outer(index, index))
    return distance


def _under_mask(k: int, most_urgent: MostUrgent) -> npt.NDArray[np.bool_]:
    """Cells (reference i, prediction j) where the prediction is less urgent than the reference."""
    index = np.arange(k)
    if most_urgent == "first":
        return index[None, :] > index[:, None]
    return index[None, :] < index[:, None]


def _balanced_accuracy_kernel(matrix: IntMatrix) -> FloatArray:
    rows = matrix.sum(axis=-1)
    diagonal = np.diagonal(matrix, axis1=-2, axis2=-1)
    present = rows > 0
    recall = np.divide(diagonal, rows, out=np.zeros(rows.shape, dtype=float), where=present)
    return np.asarray(recall.sum(axis=-1) / present.sum(axis=-1), dtype=float)


def _mae_kernel(matrix: IntMatrix) -> FloatArray:
    k = matrix.shape[-1]
    total = (matrix * _distance(k)).sum(axis=(-2, -1))
    return np.asarray(total / matrix.sum(axis=(-2, -1)), dtype=float)


def _kappa_kernel(matrix: IntMatrix, weights: Weights) -> FloatArray:
    """Cohen's weighted kappa, ``1 - sum(W*O) / sum(W*E)``; NaN where ``sum(W*E) == 0``."""
    k = matrix.shape[-1]
    distance = _distance(k).astype(float)
    weight = distance if weights == "linear" else distance**2
    observed = matrix.astype(float)
    n = observed.sum(axis=(-2, -1), keepdims=True)
    expected = observed.sum(axis=-1, keepdims=True) * observed.sum(axis=-2, keepdims=True) / n
    disagreement = (weight * observed).sum(axis=(-2, -1))
    chance = (weight * expected).sum(axis=(-2, -1))
    kappa = np.full(np.shape(chance), np.nan)
    np.subtract(1.0, disagreement / np.where(chance > 0, chance, 1.0), out=kappa, where=chance > 0)
    return np.asarray(kappa, dtype=float)


def _check_weights(weights: str) -> Weights:
    if weights == "linear":
        return "linear"
    if weights == "quadratic":
        return "quadratic"
    raise ConfigError(f"weights={weights!r}; use 'linear' or 'quadratic'")


def _level_rows(levels: Sequence[Any] | None, scale: tuple[Any, ...]) -> npt.NDArray[np.bool_]:
    if levels is None:
        return np.ones(len(scale), dtype=bool)
    chosen = level_list(levels, "levels")
    unknown = [level for level in chosen if level not in scale]
    if unknown or not chosen:
        raise ConfigError(
            f"levels={chosen!r}: {unknown!r} not in the scale {list(scale)!r}; "
            "name one or more levels of the scale (e.g. levels=(1, 2))"
        )
    return np.array([label in chosen for label in scale], dtype=bool)


def _population(levels: Sequence[Any] | None, scale: tuple[Any, ...]) -> str:
    if levels is None:
        return "all cases"
    chosen = [label for label in scale if label in list(levels)]
    if len(chosen) == 1:
        return f"cases with reference level {chosen[0]}"
    return (
        "cases with reference level " + ", ".join(str(x) for x in chosen[:-1]) + f" or {chosen[-1]}"
    )


def _rate(name: str, title: str, numerator: int, denominator: int, population: str) -> Rate:
    if denominator == 0:
        return Rate(
            name=name,
            title=title,
            numerator=0,
            denominator=0,
            population=population,
            value=None,
            interval=None,
        )
    lower, upper = wilson_interval(int(numerator), int(denominator))
    return Rate(
        name=name,
        title=title,
        numerator=int(numerator),
        denominator=int(denominator),
        population=population,
        value=numerator / denominator,
        interval=Interval(lower=lower, upper=upper, confidence=0.95, method=WILSON_METHOD),
    )


# --- public metrics --------------------------------------------------------------------------


def confusion_matrix(y_true: Any, y_pred: Any, *, labels: Sequence[Any] | None = None) -> IntMatrix:
    """Confusion matrix: rows are the reference level, columns the predicted level.

    ``C[i, j]`` counts cases with reference ``labels[i]`` predicted as ``labels[j]`` (the
    orientation of :func:`sklearn.metrics.confusion_matrix`).

    Parameters
    ----------
    y_true, y_pred : sequence of labels
        Reference and predicted level of each case.
    labels : sequence, optional
        The scale in order; every value must be one of them. Default: sorted observed values.

    Returns
    -------
    ndarray of shape (n_labels, n_labels), int64

    Examples
    --------
    >>> confusion_matrix([1, 2, 3, 3], [1, 3, 3, 2], labels=[1, 2, 3]).tolist()
    [[1, 0, 0], [0, 0, 1], [0, 1, 1]]
    """
    return _matrix(encode(y_true, y_pred, labels))


def accuracy_score(y_true: Any, y_pred: Any, *, labels: Sequence[Any] | None = None) -> float:
    """Overall accuracy: the fraction of cases whose predicted level equals the reference.

    Examples
    --------
    >>> accuracy_score([1, 2, 3, 3], [1, 3, 3, 2])
    0.5
    """
    encoded = encode(y_true, y_pred, labels)
    return float(np.mean(encoded.reference == encoded.prediction))


def majority_baseline_score(y_true: Any, *, labels: Sequence[Any] | None = None) -> float:
    """Accuracy of always predicting the most frequent reference level (the floor to beat).

    Examples
    --------
    >>> majority_baseline_score([3, 3, 3, 1])
    0.75
    """
    encoded = encode(y_true, y_true, labels)
    counts = np.bincount(encoded.reference, minlength=encoded.n_labels)
    return float(counts.max() / counts.sum())


def recall_per_level(
    y_true: Any, y_pred: Any, *, labels: Sequence[Any] | None = None
) -> list[Rate]:
    """Recall of each level with its n: correct / reference cases of that level.

    Returns one :class:`Rate` per label, in scale order (name ``recall_level_<label>``); a level
    with no reference case has ``value=None`` (scikit-learn's ``zero_division`` case).

    Examples
    --------
    >>> [(r.numerator, r.denominator) for r in recall_per_level([1, 1, 2], [1, 2, 2])]
    [(1, 2), (1, 1)]
    """
    encoded = encode(y_true, y_pred, labels)
    matrix = _matrix(encoded)
    return [
        _rate(
            f"recall_level_{label}",
            f"recall, level {label}",
            int(matrix[index, index]),
            int(matrix[index].sum()),
            f"cases with reference level {label}",
        )
        for index, label in enumerate(encoded.labels)
    ]


def balanced_accuracy_score(
    y_true: Any, y_pred: Any, *, labels: Sequence[Any] | None = None
) -> float:
    """Balanced accuracy: the unweighted mean of per-level recall over levels present in y_true.

    Matches :func:`sklearn.metrics.balanced_accuracy_score` (``adjusted=False``).

    Examples
    --------
    >>> balanced_accuracy_score([1, 1, 2, 2], [1, 2, 2, 2])
    0.75
    """
    return float(_balanced_accuracy_kernel(_matrix(encode(y_true, y_pred, labels))))


def _direction_rate(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Sequence[Any] | None,
    most_urgent: str,
    levels: Sequence[Any] | None,
    under: bool,
    min_distance: int,
) -> Rate:
    direction = check_most_urgent(most_urgent)
    encoded = encode(y_true, y_pred, labels)
    matrix = _matrix(encoded)
    k = encoded.n_labels
    mask = _under_mask(k, direction) if under else _under_mask(k, direction).T
    mask = mask & (_distance(k) >= min_distance)
    rows = _level_rows(levels, encoded.labels)
    numerator = int(matrix[rows][mask[rows]].sum())
    denominator = int(matrix[rows].sum())
    kind = "under-triage" if under else "over-triage"
    far = f" by {min_distance} or more levels" if min_distance > 1 else ""
    name = ("far_" if min_distance > 1 else "") + kind.replace("-", "_")
    if levels is not None:
        name += "_subset"
    title = f"{kind}{far} (prediction {'less' if under else 'more'} urgent than reference)"
    return _rate(name, title, numerator, denominator, _population(levels, encoded.labels))


def under_triage_rate(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Sequence[Any] | None = None,
    most_urgent: str = "first",
    levels: Sequence[Any] | None = None,
) -> Rate:
    """Under-triage: cases predicted less urgent than their reference level.

    Parameters
    ----------
    y_true, y_pred : sequence of labels
    labels : sequence, optional
        The scale in order.
    most_urgent : {"first", "last"}, default "first"
        Which end of ``labels`` is most urgent. With "first" (level 1 most urgent),
        prediction > reference is under-triage.
    levels : sequence, optional
        Restrict the population to cases whose *reference* level is one of these (e.g. (1, 2)
        for the high-acuity subset). Default: all cases.

    Returns
    -------
    Rate
        numerator = under-triaged cases in the population, denominator = the population.

    Examples
    --------
    >>> r = under_triage_rate([1, 2, 3, 3], [2, 2, 3, 1], levels=(1, 2))
    >>> (r.numerator, r.denominator, r.population)
    (1, 2, 'cases with reference level 1 or 2')
    """
    return _direction_rate(
        y_true,
        y_pred,
        labels=labels,
        most_urgent=most_urgent,
        levels=levels,
        under=True,
        min_distance=1,
    )


def over_triage_rate(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Sequence[Any] | None = None,
    most_urgent: str = "first",
    levels: Sequence[Any] | None = None,
) -> Rate:
    """Over-triage: cases predicted more urgent than their reference level.

    Parameters are those of :func:`under_triage_rate`.

    Examples
    --------
    >>> over_triage_rate([1, 2, 3, 3], [2, 2, 3, 1]).numerator
    1
    """
    return _direction_rate(
        y_true,
        y_pred,
        labels=labels,
        most_urgent=most_urgent,
        levels=levels,
        under=False,
        min_distance=1,
    )


def far_under_triage_rate(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Sequence[Any] | None = None,
    most_urgent: str = "first",
    levels: Sequence[Any] | None = None,
    min_distance: int = 2,
) -> Rate:
    """Far under-triage: predicted less urgent than the reference by ``min_distance``+ levels.

    Parameters are those of :func:`under_triage_rate`, plus ``min_distance`` (default 2).

    Examples
    --------
    >>> far_under_triage_rate([1, 1, 2], [3, 2, 2]).numerator
    1
    """
    _check_min_distance(min_distance)
    return _direction_rate(
        y_true,
        y_pred,
        labels=labels,
        most_urgent=most_urgent,
        levels=levels,
        under=True,
        min_distance=min_distance,
    )


def _check_min_distance(min_distance: int) -> None:
    if isinstance(min_distance, bool) or not isinstance(min_distance, int) or min_distance < 1:
        raise ConfigError(f"min_distance={min_distance!r}; use a whole number of levels >= 1")


def far_error_rate(
    y_true: Any, y_pred: Any, *, labels: Sequence[Any] | None = None, min_distance: int = 2
) -> Rate:
    """Errors ``min_distance`` (default 2) or more levels away, in either direction, over all cases.

    Examples
    --------
    >>> far_error_rate([1, 1, 5], [3, 2, 2]).numerator
    2
    """
    _check_min_distance(min_distance)
    encoded = encode(y_true, y_pred, labels)
    far = int(np.sum(np.abs(encoded.reference - encoded.prediction) >= min_distance))
    return _rate(
        "far_errors",
        f"errors {min_distance} or more levels away (either direction)",
        far,
        int(encoded.reference.shape[0]),
        "all cases",
    )


def mean_absolute_error(y_true: Any, y_pred: Any, *, labels: Sequence[Any] | None = None) -> float:
    """Mean absolute error in levels: mean of ``|position(pred) - position(ref)|``.

    With labels 1..5 this equals :func:`sklearn.metrics.mean_absolute_error` on the numbers; for
    other labels the distance is counted in positions of ``labels``, never in label values.

    Examples
    --------
    >>> mean_absolute_error([1, 2, 3, 4], [1, 4, 3, 3])
    0.75
    """
    return float(_mae_kernel(_matrix(encode(y_true, y_pred, labels))))


def weighted_kappa_score(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Sequence[Any] | None = None,
    weights: str = "linear",
) -> float:
    """Cohen's weighted kappa with linear or quadratic disagreement weights.

    ``kappa = 1 - sum(w * O) / sum(w * E)`` where ``O`` is the confusion matrix, ``E`` the
    matrix expected from its margins and ``w[i, j] = |i - j|`` (linear) or ``(i - j)**2``
    (quadratic), positions taken from ``labels``; the same definition as
    :func:`sklearn.metrics.cohen_kappa_score`. Returns NaN when undefined (both raters used one
    and the same level for every case, so no disagreement is expected by chance).

    Examples
    --------
    >>> round(weighted_kappa_score([1, 2, 3, 3], [1, 2, 3, 2], weights="quadratic"), 4)
    0.8
    """
    scheme = _check_weights(weights)
    return float(_kappa_kernel(_matrix(encode(y_true, y_pred, labels)), scheme))
