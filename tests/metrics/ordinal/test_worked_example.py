"""The worked example of docs/metrics.md (ordinal classification), reproduced exactly.

Golden figures come from that worked example (restated from the seed article): accuracy 82%,
majority baseline 70%, recalls 40 / 60 / 97.1 / 40 / 40%, balanced accuracy 55.4%, under-triage
11/100, over-triage 7/100, levels 1-2 under-triage 6/15, MAE 20/100, errors of 2+ levels 2/100.
The matrix and its derivation are in ``worked_example.py``.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from hybridjudge.metrics.ordinal import (
    accuracy_score,
    balanced_accuracy_score,
    confusion_matrix,
    far_error_rate,
    far_under_triage_rate,
    majority_baseline_score,
    mean_absolute_error,
    over_triage_rate,
    recall_per_level,
    triage_report,
    under_triage_rate,
)
from tests.metrics.ordinal.worked_example import LEVELS, WORKED_MATRIX, expand

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "triage"


def test_matrix_is_consistent_with_the_stated_class_sizes_and_diagonal() -> None:
    y_true, y_pred = expand()
    matrix = confusion_matrix(y_true, y_pred, labels=LEVELS)
    assert matrix.tolist() == [list(row) for row in WORKED_MATRIX]
    assert matrix.sum(axis=1).tolist() == [5, 10, 70, 10, 5]
    assert [int(matrix[i, i]) for i in range(5)] == [2, 6, 68, 4, 2]


def test_every_figure_of_the_worked_example() -> None:
    y_true, y_pred = expand()
    assert accuracy_score(y_true, y_pred, labels=LEVELS) == pytest.approx(0.82)
    assert majority_baseline_score(y_true, labels=LEVELS) == pytest.approx(0.70)
    recalls = recall_per_level(y_true, y_pred, labels=LEVELS)
    assert [(r.numerator, r.denominator) for r in recalls] == [
        (2, 5),
        (6, 10),
        (68, 70),
        (4, 10),
        (2, 5),
    ]
    assert [round(100 * (r.value or 0), 1) for r in recalls] == [40.0, 60.0, 97.1, 40.0, 40.0]
    assert round(100 * balanced_accuracy_score(y_true, y_pred, labels=LEVELS), 1) == 55.4

    under = under_triage_rate(y_true, y_pred, labels=LEVELS)
    assert (under.numerator, under.denominator, under.population) == (11, 100, "all cases")
    over = over_triage_rate(y_true, y_pred, labels=LEVELS)
    assert (over.numerator, over.denominator) == (7, 100)
    acute = under_triage_rate(y_true, y_pred, labels=LEVELS, levels=(1, 2))
    assert (acute.numerator, acute.denominator) == (6, 15)
    assert acute.value == pytest.approx(0.40)
    assert acute.population == "cases with reference level 1 or 2"

    assert mean_absolute_error(y_true, y_pred, labels=LEVELS) == pytest.approx(0.20)
    far = far_error_rate(y_true, y_pred, labels=LEVELS)
    assert (far.numerator, far.denominator) == (2, 100)
    # Listed separately: of the 2 far errors, 1 is a far under-triage (1 -> 3), by construction.
    assert far_under_triage_rate(y_true, y_pred, labels=LEVELS).numerator == 1


def test_worked_example_report() -> None:
    y_true, y_pred = expand()
    report = triage_report(y_true, y_pred, labels=LEVELS, scale="TTAS", label_source="dataset")
    assert report.n == 100
    assert (report.correct, report.under_triaged, report.over_triaged) == (82, 11, 7)
    assert report.metric("under_triage_high_acuity").value == pytest.approx(6 / 15)
    mae = report.metric("mae")
    assert (mae.numerator, mae.denominator) == (20, 100)
    assert mae.value == pytest.approx(0.2)
    # Wilson 95% for 6/15 (checked against scipy's binomtest(...).proportion_ci("wilson")):
    interval = report.metric("under_triage_high_acuity").interval
    assert interval is not None
    assert (round(interval.lower, 4), round(interval.upper, 4)) == (0.1982, 0.6425)
    assert interval.method == "Wilson score"
    balanced = report.metric("balanced_accuracy")
    assert balanced.interval is not None
    assert balanced.interval.method.startswith("stratified percentile bootstrap")
    assert balanced.interval.lower < 0.5543 < balanced.interval.upper


def test_committed_example_csv_has_the_worked_matrix() -> None:
    with (EXAMPLES / "worked_example.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    y_true = [int(row["reference_level"]) for row in rows]
    y_pred = [int(row["predicted_level"]) for row in rows]
    assert confusion_matrix(y_true, y_pred, labels=LEVELS).tolist() == [
        list(r) for r in WORKED_MATRIX
    ]
