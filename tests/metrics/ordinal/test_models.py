"""Rate, Statistic and Interval check themselves: ranges, finiteness and consistency.

Before, ``Rate(numerator=5, denominator=2, value=2.5)`` and a NaN value were accepted, and an
``Interval`` could run backwards (lower 0.9, upper 0.1) at confidence 5; a NaN bound was written
to JSON as null and then failed to load. Golden values are hand computed: 3/10 = 0.3, and its
95% Wilson interval from the closed form (centre (p + z^2/2n) / (1 + z^2/n), z = 1.96),
(0.1078, 0.6032) to four places.
"""

from __future__ import annotations

import math
import re
from typing import Any

import pytest
from pydantic import ValidationError

from hybridjudge._errors import InvariantError
from hybridjudge.metrics.ordinal import Interval, Rate, Statistic

WILSON = {"lower": 0.1078, "upper": 0.6032, "confidence": 0.95, "method": "Wilson score"}


def _rate(**changes: Any) -> dict[str, Any]:
    fields: dict[str, Any] = {
        "name": "under_triage",
        "title": "under-triage",
        "numerator": 3,
        "denominator": 10,
        "population": "all cases",
        "value": 0.3,
        "interval": WILSON,
    }
    fields.update(changes)
    return fields


def _statistic(**changes: Any) -> dict[str, Any]:
    fields: dict[str, Any] = {
        "name": "mae",
        "title": "mean absolute error (levels)",
        "value": 0.2,
        "unit": "levels",
        "population": "all cases",
        "numerator": 20.0,
        "denominator": 100,
    }
    fields.update(changes)
    return fields


def test_the_wilson_bounds_used_here_by_hand() -> None:
    n, p, z = 10, 0.3, 1.959964
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    assert (round(centre - half, 4), round(centre + half, 4)) == (WILSON["lower"], WILSON["upper"])


def test_valid_values_round_trip_through_json() -> None:
    for model, fields in ((Rate, _rate()), (Statistic, _statistic()), (Interval, WILSON)):
        value = model.model_validate(fields)
        assert type(value).model_validate_json(value.model_dump_json()) == value
    empty = Rate(**_rate(numerator=0, denominator=0, value=None, interval=None))
    assert Rate.model_validate_json(empty.model_dump_json()) == empty


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"value": 2.5, "numerator": 5, "denominator": 2}, "value"),  # the audit's case
        ({"value": math.nan}, "value"),
        ({"value": math.inf}, "value"),
        ({"value": -0.1}, "value"),
        ({"numerator": -1}, "numerator"),
        ({"denominator": -1}, "denominator"),
    ],
)
def test_rate_fields_out_of_range_are_refused(changes: dict[str, Any], field: str) -> None:
    with pytest.raises(ValidationError) as caught:
        Rate(**_rate(**changes))
    assert caught.value.errors()[0]["loc"][0] == field


@pytest.mark.parametrize(
    ("changes", "needle"),
    [
        ({"value": 0.5}, "under_triage = 0.5 but 3/10"),
        ({"value": None}, "under_triage = None but 3/10"),
        ({"numerator": 11, "value": 1.1}, None),  # 1.1 is out of [0, 1]: a ValidationError
        ({"numerator": 11, "value": 1.0}, "numerator 11 > denominator 10"),
        ({"numerator": 0, "denominator": 0, "value": 0.0, "interval": None}, "empty population"),
        ({"numerator": 0, "denominator": 0, "value": None}, "empty population"),
        ({"interval": {**WILSON, "lower": 0.35}}, "does not lie in [0, 1] around the value 0.3"),
        ({"interval": {**WILSON, "upper": 1.2}}, "does not lie in [0, 1]"),
    ],
)
def test_inconsistent_rates_break_an_invariant(changes: dict[str, Any], needle: str | None) -> None:
    if needle is None:
        with pytest.raises(ValidationError):
            Rate(**_rate(**changes))
        return
    with pytest.raises(InvariantError, match=re.escape(needle)):
        Rate(**_rate(**changes))


@pytest.mark.parametrize(
    ("changes", "error", "needle"),
    [
        ({"lower": 0.9, "upper": 0.1}, InvariantError, "lower bound 0.9 > upper bound 0.1"),
        ({"confidence": 5}, ValidationError, "confidence"),
        ({"confidence": 0.0}, ValidationError, "confidence"),
        ({"confidence": 1.0}, ValidationError, "confidence"),
        ({"lower": math.nan}, ValidationError, "lower"),
        ({"upper": math.inf}, ValidationError, "upper"),
        ({"method": ""}, ValidationError, "method"),
    ],
)
def test_bad_intervals_are_refused(
    changes: dict[str, Any], error: type[Exception], needle: str
) -> None:
    with pytest.raises(error, match=re.escape(needle)):
        Interval(**{**WILSON, **changes})


def test_a_nan_bound_can_no_longer_break_the_json_round_trip() -> None:
    # before: Interval(lower=nan) was accepted, dumped as {"lower": null} and failed to load
    with pytest.raises(ValidationError, match="finite"):
        Interval(lower=math.nan, upper=0.1, method="m")


@pytest.mark.parametrize(
    ("changes", "error", "needle"),
    [
        ({"value": math.nan}, ValidationError, "value"),
        ({"value": 0.3}, InvariantError, "mae = 0.3 but 20/100"),
        ({"numerator": None}, InvariantError, "only one of numerator and denominator"),
        ({"denominator": 0}, ValidationError, "denominator"),
        (
            {"value": None, "interval": WILSON},
            InvariantError,
            "mae has no value but an interval",
        ),
    ],
)
def test_bad_statistics_are_refused(
    changes: dict[str, Any], error: type[Exception], needle: str
) -> None:
    with pytest.raises(error, match=re.escape(needle)):
        Statistic(**_statistic(**changes))


def test_a_statistic_without_counts_may_take_any_finite_value() -> None:
    kappa = Statistic(
        **_statistic(name="kappa_linear", value=-0.25, numerator=None, denominator=None)
    )
    assert kappa.value == -0.25
