"""A missing label (None, NaN, pandas' NA) is refused, never counted as a level of the scale.

Independent reference: scikit-learn refuses NaN in ``y_true``/``y_pred`` ("Input contains NaN");
before the fix ``accuracy_score([1, nan, 3], [1, 2, nan])`` returned 1/3 here and a pandas column
with one missing value became a six-level scale.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest
from sklearn import metrics as skm

from hybridjudge._errors import InputError
from hybridjudge.metrics import ordinal

NAN = math.nan
FUNCTIONS = [
    ordinal.accuracy_score,
    ordinal.balanced_accuracy_score,
    ordinal.confusion_matrix,
    ordinal.mean_absolute_error,
    ordinal.weighted_kappa_score,
    ordinal.under_triage_rate,
    ordinal.recall_per_level,
]


@pytest.mark.parametrize("function", FUNCTIONS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("labels", [None, [1, 2, 3, 4, 5]], ids=["no labels", "labels"])
@pytest.mark.parametrize(
    ("y_true", "y_pred", "where"),
    [
        ([1, NAN, 3], [1, 2, NAN], "y_true[1] is missing (nan)"),
        ([1, 2, 3], [1, 2, None], "y_pred[2] is missing (None)"),
        (np.array([1.0, 2.0, NAN]), [1, 2, 3], "y_true[2] is missing (nan)"),
        ([1, 2, 3], [np.float64(NAN), 2, 3], "y_pred[0] is missing (nan)"),
        ([1, 2, pd.NA], [1, 2, 3], "y_true[2] is missing (<NA>)"),
    ],
)
def test_missing_labels_are_refused_naming_argument_and_position(
    function: Any, labels: list[int] | None, y_true: Any, y_pred: Any, where: str
) -> None:
    with pytest.raises(InputError) as caught:
        function(y_true, y_pred, labels=labels)
    message = str(caught.value)
    assert message.startswith(where)
    assert "drop the case" in message


def test_scikit_learn_refuses_the_same_input() -> None:
    # the independent reference: NaN is not a label there either
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # sklearn's own cast warning on the way to its error
        with pytest.raises(ValueError, match="NaN"):
            skm.accuracy_score([1, NAN, 3], [1, 2, NAN])
        with pytest.raises(ValueError, match="NaN"):
            skm.mean_absolute_error([1.0, 2.0, NAN, 4.0, 5.0], [1, 2, 3, 4, 5])


@pytest.mark.parametrize("labels", [None, [1, 2, 3]])
def test_majority_baseline_refuses_a_missing_reference(labels: list[int] | None) -> None:
    with pytest.raises(InputError, match=r"^y_true\[1\] is missing \(nan\)"):
        ordinal.majority_baseline_score([1, NAN, 3], labels=labels)


def test_a_pandas_column_with_one_missing_value() -> None:
    # pandas stores an int column with a gap as float64 with NaN
    frame = pd.DataFrame({"ref": [1, 2, None, 4, 5], "pred": [1, 2, 3, 4, 5]})
    assert frame["ref"].dtype == np.float64
    with pytest.raises(InputError, match=r"^y_true\[2\] is missing \(nan\)"):
        ordinal.mean_absolute_error(frame["ref"], frame["pred"])
    with pytest.raises(InputError, match=r"^y_true\[2\] is missing \(<NA>\)"):
        ordinal.accuracy_score(frame["ref"].astype("Int64"), frame["pred"])
    # once the case is dropped, the values agree with scikit-learn
    kept = frame.dropna()
    assert ordinal.mean_absolute_error(kept["ref"], kept["pred"]) == skm.mean_absolute_error(
        kept["ref"], kept["pred"]
    )


def test_a_missing_level_in_labels_is_refused() -> None:
    with pytest.raises(InputError, match=r"^labels\[1\] is missing \(nan\)"):
        ordinal.accuracy_score([1, 3], [1, 3], labels=[1, NAN, 3])


def test_triage_report_refuses_a_missing_label() -> None:
    with pytest.raises(InputError, match=r"^y_pred\[1\] is missing \(nan\)"):
        ordinal.triage_report(
            [1, 2, 3, 4, 5],
            [1, NAN, 3, 4, 5],
            labels=None,
            scale="KTAS",
            label_source="expert",
        )


def test_string_labels_and_odd_objects_are_not_mistaken_for_missing() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert ordinal.accuracy_score(["a", "nan", "b"], ["a", "nan", "a"]) == pytest.approx(
            skm.accuracy_score(["a", "nan", "b"], ["a", "nan", "a"])
        )
