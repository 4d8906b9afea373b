"""Typed values of an ordinal report: intervals, rates and other statistics."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Interval", "MetricRole", "Rate", "Statistic"]

MetricRole = Literal["primary", "secondary", "safety", "exploratory"]
"""Where a metric stands: named by the analysis plan (primary, secondary, safety) or not."""


class Interval(BaseModel):
    """A two-sided confidence interval together with the method that produced it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    lower: float
    """Lower bound, on the same scale as the value (a proportion in [0, 1], levels, kappa)."""
    upper: float
    """Upper bound."""
    confidence: float = 0.95
    """Two-sided confidence level."""
    method: str
    """How the interval was computed, e.g. "Wilson score" or
    "stratified percentile bootstrap (2000 resamples, strata: reference level, seed 0)"."""


class Rate(BaseModel):
    """A proportion given as numerator, denominator and the population it covers.

    ``value`` is ``numerator / denominator``; it is ``None`` (and so is the interval) when the
    population is empty, because a rate of nothing is undefined rather than 0.
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
    value: float | None
    """``numerator / denominator``, or ``None`` when the population is empty."""
    interval: Interval | None = None
    """95% Wilson score interval (``None`` when the population is empty)."""
    role: MetricRole = "exploratory"
    """Role given by the analysis plan; "exploratory" when the plan does not name the metric."""


class Statistic(BaseModel):
    """A statistic that is not a simple proportion (balanced accuracy, MAE, weighted kappa)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["statistic"] = "statistic"
    """Discriminator: this value is not a single proportion."""
    name: str
    """Machine name, as used in analysis plans (e.g. ``mae``)."""
    title: str
    """Human name, e.g. "mean absolute error (levels)"."""
    value: float | None
    """The statistic; ``None`` when undefined on these data (e.g. kappa with one label only)."""
    unit: str
    """Unit of ``value``: "proportion", "levels" or "kappa"."""
    population: str
    """The cases the statistic covers, in words."""
    numerator: float | None = None
    """For a mean, the total (e.g. the sum of level distances); ``None`` otherwise."""
    denominator: int | None = None
    """For a mean, the number of cases averaged; ``None`` otherwise."""
    interval: Interval | None = None
    """95% bootstrap interval, ``None`` when the statistic or its interval is undefined."""
    role: MetricRole = "exploratory"
    """Role given by the analysis plan; "exploratory" when the plan does not name the metric."""
