"""Typed values of an ordinal report: intervals, rates and other statistics."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from hybridjudge._errors import InvariantError

__all__ = ["Interval", "MetricRole", "Rate", "Statistic"]

MetricRole = Literal["primary", "secondary", "safety", "exploratory"]
"""Where a metric stands: named by the analysis plan (primary, secondary, safety) or not."""

FiniteFloat = Annotated[float, Field(allow_inf_nan=False)]
"""A float that is neither NaN nor infinite (JSON has no NaN: it would be written as null)."""

Proportion = Annotated[float, Field(ge=0.0, le=1.0, allow_inf_nan=False)]
"""A finite float in [0, 1]."""

_TOLERANCE = 1e-12
"""Slack for comparing a stored value with the ratio it was computed from."""


def _broken(what: str, statement: str) -> InvariantError:
    """A value inconsistent with its own parts: a bug, or an edited report file."""
    return InvariantError(
        f"{what} invariant violated: {statement}; the value is inconsistent (a bug or an edited "
        "file) and must not be used"
    )


class Interval(BaseModel):
    """A two-sided confidence interval together with the method that produced it.

    Bounds are finite with ``lower <= upper`` and the confidence is strictly between 0 and 1: a
    bound or level out of range is a ``ValidationError``, bounds in the wrong order an
    :class:`~hybridjudge.InvariantError` (the interval contradicts itself).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    lower: FiniteFloat
    """Lower bound, on the same scale as the value (a proportion in [0, 1], levels, kappa)."""
    upper: FiniteFloat
    """Upper bound, at least ``lower``."""
    confidence: float = Field(default=0.95, gt=0.0, lt=1.0)
    """Two-sided confidence level, strictly between 0 and 1."""
    method: str = Field(min_length=1)
    """How the interval was computed, e.g. "Wilson score" or
    "stratified percentile bootstrap (2000 resamples, strata: reference level, seed 0)"."""

    @model_validator(mode="after")
    def _ordered(self) -> Interval:
        if self.lower > self.upper:
            raise _broken("interval", f"lower bound {self.lower} > upper bound {self.upper}")
        return self


class Rate(BaseModel):
    """A proportion given as numerator, denominator and the population it covers.

    ``value`` is ``numerator / denominator``; it is ``None`` (and so is the interval) when the
    population is empty, because a rate of nothing is undefined rather than 0.

    Checked on creation and on loading: a value outside [0, 1] or not finite is a
    ``ValidationError``; a value that is not ``numerator / denominator``, a numerator above the
    denominator, or an interval outside [0, 1] or not around the value is an
    :class:`~hybridjudge.InvariantError` (a bug or an edited file).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["rate"] = "rate"
    """Discriminator: this value is a proportion of counted cases."""
    name: str
    """Machine name, as used in analysis plans (e.g. ``under_triage_high_acuity``)."""
    title: str
    """Human name, e.g. "under-triage, high-acuity levels"."""
    numerator: int = Field(ge=0)
    """Cases counted (e.g. under-triaged cases)."""
    denominator: int = Field(ge=0)
    """Cases in the population (e.g. all cases with reference level 1 or 2)."""
    population: str
    """The population the denominator covers, in words ("cases with reference level 1 or 2")."""
    value: Proportion | None
    """``numerator / denominator``, or ``None`` when the population is empty."""
    interval: Interval | None = None
    """95% Wilson score interval (``None`` when the population is empty)."""
    role: MetricRole = "exploratory"
    """Role given by the analysis plan; "exploratory" when the plan does not name the metric."""

    @model_validator(mode="after")
    def _consistent(self) -> Rate:
        if self.numerator > self.denominator:
            raise _broken(
                "rate", f"{self.name}: numerator {self.numerator} > denominator {self.denominator}"
            )
        if self.denominator == 0:
            if self.numerator or self.value is not None or self.interval is not None:
                raise _broken(
                    "rate",
                    f"{self.name} has an empty population but a numerator, value or interval "
                    "(a rate of nothing is undefined: numerator 0, no value, no interval)",
                )
            return self
        expected = self.numerator / self.denominator
        if self.value is None or abs(self.value - expected) > _TOLERANCE:
            raise _broken(
                "rate", f"{self.name} = {self.value} but {self.numerator}/{self.denominator}"
            )
        interval = self.interval
        if interval is not None and not (
            0.0 <= interval.lower <= expected + _TOLERANCE
            and expected - _TOLERANCE <= interval.upper <= 1.0
        ):
            raise _broken(
                "rate",
                f"{self.name}: interval [{interval.lower}, {interval.upper}] does not lie in "
                f"[0, 1] around the value {self.value}",
            )
        return self


class Statistic(BaseModel):
    """A statistic that is not a simple proportion (balanced accuracy, MAE, weighted kappa).

    Values are finite (``None`` when undefined, never NaN); a mean carries both its numerator
    and denominator and equals their ratio, else :class:`~hybridjudge.InvariantError`.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["statistic"] = "statistic"
    """Discriminator: this value is not a single proportion."""
    name: str
    """Machine name, as used in analysis plans (e.g. ``mae``)."""
    title: str
    """Human name, e.g. "mean absolute error (levels)"."""
    value: FiniteFloat | None
    """The statistic; ``None`` when undefined on these data (e.g. kappa with one label only)."""
    unit: str
    """Unit of ``value``: "proportion", "levels" or "kappa"."""
    population: str
    """The cases the statistic covers, in words."""
    numerator: FiniteFloat | None = None
    """For a mean, the total (e.g. the sum of level distances); ``None`` otherwise."""
    denominator: int | None = Field(default=None, ge=1)
    """For a mean, the number of cases averaged; ``None`` otherwise."""
    interval: Interval | None = None
    """95% bootstrap interval, ``None`` when the statistic or its interval is undefined."""
    role: MetricRole = "exploratory"
    """Role given by the analysis plan; "exploratory" when the plan does not name the metric."""

    @model_validator(mode="after")
    def _consistent(self) -> Statistic:
        if (self.numerator is None) != (self.denominator is None):
            raise _broken(
                "statistic",
                f"{self.name} has only one of numerator and denominator (a mean has both)",
            )
        if self.value is None:
            if self.interval is not None:
                raise _broken("statistic", f"{self.name} has no value but an interval")
            return self
        if self.numerator is not None and self.denominator is not None:
            expected = self.numerator / self.denominator
            if abs(self.value - expected) > _TOLERANCE * max(1.0, abs(expected)):
                raise _broken(
                    "statistic",
                    f"{self.name} = {self.value} but {self.numerator:g}/{self.denominator}",
                )
        return self
