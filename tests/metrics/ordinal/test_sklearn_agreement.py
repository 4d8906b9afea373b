"""Every metric shared with scikit-learn agrees with it on random data (Hypothesis).

Independent reference: scikit-learn's ``accuracy_score``, ``balanced_accuracy_score``,
``recall_score(average=None)``, ``mean_absolute_error``, ``confusion_matrix`` and
``cohen_kappa_score(weights="linear"|"quadratic")``.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm

from hybridjudge.metrics import ordinal

COLOURS = ("red", "orange", "yellow", "green", "blue")


@st.composite
def paired_labels(
    draw: st.DrawFn, *, strings: bool = False
) -> tuple[list[Any], list[Any], list[Any]]:
    """Random (labels, y_true, y_pred) on a scale of 2..6 levels with 1..80 cases."""
    if strings:
        labels: list[Any] = list(COLOURS)
    else:
        labels = list(range(1, draw(st.integers(min_value=2, max_value=6)) + 1))
    n = draw(st.integers(min_value=1, max_value=80))
    level = st.sampled_from(labels)
    y_true = draw(st.lists(level, min_size=n, max_size=n))
    y_pred = draw(st.lists(level, min_size=n, max_size=n))
    return labels, y_true, y_pred


def _quiet(function: Any, *args: Any, **kwargs: Any) -> Any:
    # scikit-learn warns (UndefinedMetricWarning, "y_pred contains classes not in y_true") on
    # some random draws; pytest turns warnings into errors, so silence them around the reference.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


@settings(max_examples=80, deadline=None)
@given(data=paired_labels())
def test_confusion_matrix_accuracy_and_mae_agree(
    data: tuple[list[Any], list[Any], list[Any]],
) -> None:
    labels, y_true, y_pred = data
    np.testing.assert_array_equal(
        ordinal.confusion_matrix(y_true, y_pred, labels=labels),
        skm.confusion_matrix(y_true, y_pred, labels=labels),
    )
    assert ordinal.accuracy_score(y_true, y_pred, labels=labels) == pytest.approx(
        skm.accuracy_score(y_true, y_pred), abs=1e-12
    )
    assert ordinal.mean_absolute_error(y_true, y_pred, labels=labels) == pytest.approx(
        skm.mean_absolute_error(y_true, y_pred), abs=1e-12
    )


@settings(max_examples=80, deadline=None)
@given(data=paired_labels())
def test_recall_and_balanced_accuracy_agree(data: tuple[list[Any], list[Any], list[Any]]) -> None:
    labels, y_true, y_pred = data
    reference = _quiet(
        skm.recall_score, y_true, y_pred, labels=labels, average=None, zero_division=np.nan
    )
    ours = [
        np.nan if r.value is None else r.value
        for r in ordinal.recall_per_level(y_true, y_pred, labels=labels)
    ]
    np.testing.assert_allclose(ours, reference, atol=1e-12)
    assert ordinal.balanced_accuracy_score(y_true, y_pred, labels=labels) == pytest.approx(
        _quiet(skm.balanced_accuracy_score, y_true, y_pred), abs=1e-12
    )


@settings(max_examples=80, deadline=None)
@given(data=paired_labels(), weights=st.sampled_from(["linear", "quadratic"]))
def test_weighted_kappa_agrees(data: tuple[list[Any], list[Any], list[Any]], weights: str) -> None:
    labels, y_true, y_pred = data
    ours = ordinal.weighted_kappa_score(y_true, y_pred, labels=labels, weights=weights)
    reference = _quiet(skm.cohen_kappa_score, y_true, y_pred, labels=labels, weights=weights)
    if np.isnan(reference):
        assert np.isnan(ours)
    else:
        assert ours == pytest.approx(reference, abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(data=paired_labels(strings=True), weights=st.sampled_from(["linear", "quadratic"]))
def test_string_labels_follow_the_given_order(
    data: tuple[list[Any], list[Any], list[Any]], weights: str
) -> None:
    # Non-numeric scale (MTS colours): positions come from `labels`, as in scikit-learn.
    labels, y_true, y_pred = data
    np.testing.assert_array_equal(
        ordinal.confusion_matrix(y_true, y_pred, labels=labels),
        skm.confusion_matrix(y_true, y_pred, labels=labels),
    )
    ours = ordinal.weighted_kappa_score(y_true, y_pred, labels=labels, weights=weights)
    reference = _quiet(skm.cohen_kappa_score, y_true, y_pred, labels=labels, weights=weights)
    assert (np.isnan(ours) and np.isnan(reference)) or ours == pytest.approx(reference, abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(data=paired_labels())
def test_direction_partition_and_reversal(data: tuple[list[Any], list[Any], list[Any]]) -> None:
    # Hand-derived properties: correct + under + over = N; reversing the scale and declaring the
    # last level most urgent describes the same cases, so the rates are unchanged.
    labels, y_true, y_pred = data
    n = len(y_true)
    under = ordinal.under_triage_rate(y_true, y_pred, labels=labels)
    over = ordinal.over_triage_rate(y_true, y_pred, labels=labels)
    correct = sum(t == p for t, p in zip(y_true, y_pred, strict=True))
    assert correct + under.numerator + over.numerator == n
    assert under.numerator == sum(p > t for t, p in zip(y_true, y_pred, strict=True))
    flipped = labels[::-1]
    assert ordinal.under_triage_rate(y_true, y_pred, labels=flipped, most_urgent="last") == under
    assert ordinal.over_triage_rate(y_true, y_pred, labels=flipped, most_urgent="last") == over
    far = ordinal.far_error_rate(y_true, y_pred, labels=labels)
    assert far.numerator == sum(abs(t - p) >= 2 for t, p in zip(y_true, y_pred, strict=True))
