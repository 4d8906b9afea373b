"""Input validation and documented edge cases of the ordinal metric functions."""

from __future__ import annotations

import inspect
import math
import re
from decimal import Decimal

import pytest

from hybridjudge._errors import ConfigError, InputError
from hybridjudge.metrics import ordinal


@pytest.mark.parametrize(
    ("y_true", "y_pred", "labels", "needle"),
    [
        ([1, 2], [1], None, "y_true has 2 labels but y_pred has 1"),
        ([], [], None, "are empty"),
        ([1, 1], [1, 1], None, "at least two levels"),
        ([1, 2], [1, 2], [1, 2, 2], "repeats a level"),
        ([1, 2], [1, 3], [1, 2], "y_pred[1] = 3 is not a level of the scale [1, 2]"),
        ([1, "2"], [1, 1], None, "cannot be ordered"),
        ("12", [1, 2], None, "must be a sequence of labels"),
        # fuzz: Hashable but unhashable labels raised a raw TypeError from set()
        ([2, 2], [2, 2], [(1, [2]), 2], "label (1, [2]) is not hashable"),
        ([2, 2], [2, 2], [Decimal("sNaN"), 2], "label Decimal('sNaN') is not hashable"),
    ],
)
def test_invalid_inputs_name_the_problem(
    y_true: object, y_pred: object, labels: object, needle: str
) -> None:
    with pytest.raises(InputError, match=re.escape(needle)):
        ordinal.confusion_matrix(y_true, y_pred, labels=labels)  # type: ignore[arg-type]


def test_invalid_options() -> None:
    with pytest.raises(ConfigError, match="weights='cubic'"):
        ordinal.weighted_kappa_score([1, 2], [1, 2], weights="cubic")
    with pytest.raises(ConfigError, match="min_distance=0"):
        ordinal.far_error_rate([1, 2], [1, 2], min_distance=0)
    with pytest.raises(ConfigError, match=re.escape("levels=[7]: [7] not in the scale")):
        ordinal.under_triage_rate([1, 2], [2, 2], levels=[7])
    with pytest.raises(ConfigError, match="most_urgent='top'"):
        ordinal.over_triage_rate([1, 2], [2, 2], most_urgent="top")
    # fuzz: a single level or None as levels raised a raw TypeError from list()
    with pytest.raises(ConfigError, match=re.escape("levels=5: pass a sequence of levels")):
        ordinal.under_triage_rate([1, 2], [2, 2], levels=5)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match=re.escape("levels='12': pass a sequence of levels")):
        ordinal.far_under_triage_rate([1, 2], [2, 2], levels="12")


def test_labels_fix_the_scale_even_when_levels_are_unobserved() -> None:
    # Hand computation: level 2 never occurs, yet the matrix has a row and column for it.
    matrix = ordinal.confusion_matrix([1, 3], [3, 3], labels=[1, 2, 3])
    assert matrix.tolist() == [[0, 0, 1], [0, 0, 0], [0, 0, 1]]
    # 1 -> 3 is two levels away on the full scale
    assert ordinal.mean_absolute_error([1, 3], [3, 3], labels=[1, 2, 3]) == 1.0
    recalls = ordinal.recall_per_level([1, 3], [3, 3], labels=[1, 2, 3])
    assert [r.value for r in recalls] == [0.0, None, 1.0]
    assert recalls[1].interval is None
    assert recalls[1].denominator == 0


def test_rates_carry_wilson_intervals_and_populations() -> None:
    rate = ordinal.under_triage_rate([1, 1, 2, 3], [2, 1, 3, 3], levels=(1,))
    assert (rate.numerator, rate.denominator) == (1, 2)
    assert rate.population == "cases with reference level 1"
    assert rate.interval is not None
    # Wilson 95% for 1/2 by hand (z = 1.96): centre (0.5 + 0.9604) / 2.9208 = 0.5,
    # half = 1.96 / 2.9208 * sqrt(0.125 + 3.8416 / 16) = 0.4055 -> (0.0945, 0.9055).
    assert rate.interval.lower == pytest.approx(0.0945, abs=1e-4)
    assert rate.interval.upper == pytest.approx(0.9055, abs=1e-4)
    assert rate.interval.method == "Wilson score"


def test_far_under_triage_counts_only_the_less_urgent_direction() -> None:
    # 1 -> 4 (far under), 5 -> 2 (far over), 2 -> 3 (near under)
    y_true, y_pred = [1, 5, 2], [4, 2, 3]
    assert ordinal.far_under_triage_rate(y_true, y_pred, labels=[1, 2, 3, 4, 5]).numerator == 1
    assert ordinal.far_error_rate(y_true, y_pred, labels=[1, 2, 3, 4, 5]).numerator == 2
    assert (
        ordinal.far_error_rate(y_true, y_pred, min_distance=4, labels=[1, 2, 3, 4, 5]).numerator
        == 0
    )


def test_kappa_is_nan_when_undefined() -> None:
    assert math.isnan(ordinal.weighted_kappa_score([2, 2], [2, 2], labels=[1, 2, 3]))


def test_public_names_are_exported_and_documented() -> None:
    # The thin __init__ re-exports everything public and __all__ lists exactly that.
    public = {
        name
        for name in vars(ordinal)
        if not name.startswith("_")
        and name != "annotations"
        and not inspect.ismodule(getattr(ordinal, name))
    }
    assert public == set(ordinal.__all__)
    for name in ordinal.__all__:
        obj = getattr(ordinal, name)
        if inspect.isfunction(obj) or inspect.isclass(obj):
            assert (obj.__doc__ or "").strip(), f"{name} has no docstring"
