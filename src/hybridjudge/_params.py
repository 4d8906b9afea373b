"""Validators for parameters that several layers accept, each written once with one message.

A utility module: the library entry points (``run_study``, the judges' batch loop) call these, and
the command line lets the library's error through instead of checking the value a second time.
"""

from __future__ import annotations

import math

from hybridjudge._errors import ConfigError, InputError

__all__ = [
    "DEFAULT_MAX_CLAIMS",
    "DEFAULT_THRESHOLD",
    "MAX_REPETITIONS",
    "MAX_RESAMPLES",
    "MIN_RESAMPLES",
    "check_max_claims",
    "check_max_cost",
    "check_repetitions",
    "check_resamples",
    "check_seed",
    "fails_pass_share",
    "over_max_unscored",
]

DEFAULT_THRESHOLD = 1.0
"""A judge's output passes when its score is at least this (``judge --threshold``, ``study run
--threshold``, :func:`hybridjudge.testing.assert_faithful`): by default every claim must be
faithful, as every check must pass for a grounded answer."""

MAX_REPETITIONS = 1_000
"""Most repetitions accepted (``10**12`` would run until the machine is switched off)."""
MIN_RESAMPLES = 100
"""Fewest bootstrap resamples accepted (fewer give meaningless percentile intervals)."""
MAX_RESAMPLES = 1_000_000
"""Most bootstrap resamples accepted (more only cost memory and time: 10**6 already pins the
interval's bounds to well under 0.1 percentage point)."""
_MAX_SEED = 2**63 - 1


def check_repetitions(value: object) -> int:
    """Return ``value`` if it is a whole number of repetitions (1 or more).

    Raises:
        ConfigError: ``value`` is not an ``int`` (``bool`` is refused), is below 1 or above
            :data:`MAX_REPETITIONS`.
    """
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ConfigError(
            f"repetitions must be a whole number of at least 1, got {value!r}",
            code="invalid_repetitions",
        )
    if value > MAX_REPETITIONS:
        raise ConfigError(
            f"repetitions must be at most {MAX_REPETITIONS:,}, got {value:,}: every repetition "
            "reruns every scorer on every output",
            code="invalid_repetitions",
        )
    return value


def check_resamples(value: object, *, name: str = "n_resamples") -> int:
    """Return ``value`` if it is a whole number of bootstrap resamples in
    [:data:`MIN_RESAMPLES`, :data:`MAX_RESAMPLES`].

    Raises:
        InputError: (code ``invalid_resamples``) not an ``int`` or out of range; checked before
            any work, so ``10**12`` fails at once instead of after allocating terabytes.
    """
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or not MIN_RESAMPLES <= value <= MAX_RESAMPLES
    ):
        raise InputError(
            f"{name}={value!r}: use a whole number of resamples from {MIN_RESAMPLES:,} to "
            f"{MAX_RESAMPLES:,}",
            code="invalid_resamples",
        )
    return value


def check_seed(value: object, *, name: str = "seed") -> int:
    """Return ``value`` if it is a usable random seed: an ``int`` from 0 to 2**63 - 1.

    Raises:
        InputError: (code ``invalid_seed``) negative, too large, or not an ``int``.
    """
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= _MAX_SEED:
        raise InputError(
            f"{name}={value!r}: use a whole number from 0 to 2**63 - 1", code="invalid_seed"
        )
    return value


def over_max_unscored(unscored: int, total: int, max_share: float = 0.0) -> bool:
    """Whether one scorer's ``unscored`` of ``total`` results fail the ``max_unscored``
    threshold: a share above ``max_share``, or every result unscored (a scorer that measured
    nothing is never complete, whatever the threshold). Applied per scorer by ``judge``,
    ``study run`` and ``gate``: a pooled share would let a deterministic scorer that never fails
    hide a judge's failures.

    ``total == 0`` (nothing evaluated) is never over: callers report an empty input themselves.
    """
    if total <= 0:
        return False
    return unscored == total or unscored / total > max_share + 1e-12


DEFAULT_MAX_CLAIMS = 64
"""Most claims one answer may have to be judged (``max_claims``, ``--max-claims``): each claim
costs one to three calls per scorer, so an answer of 2,000 sentences would cost 6,000 calls.
An answer with more is unscored ``too_many_claims`` without a verdict call (with
``claims="model"``, after the extraction call). 64 is far above a RAG answer (the OpenGATE and
TAT-QA answers have at most a dozen sentences); ``None`` lifts the cap."""


def check_max_claims(value: object, where: str = "max_claims") -> int | None:
    """``value`` as a claims cap: a whole number >= 1, or ``None`` (no cap).

    Raises:
        ConfigError: anything else (named after ``where``).
    """
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ConfigError(
            f"{where} must be a whole number of at least 1 (or None: no cap), got {value!r}"
        )
    return value


def check_max_cost(value: object, where: str = "max_cost_usd") -> float:
    """``value`` as a spending limit in US dollars (a finite number >= 0).

    Raises:
        ConfigError: not a number, negative, NaN or infinite (named after ``where``).
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ConfigError(f"{where} must be a number of US dollars, got {value!r}")
    limit = float(value)
    if not math.isfinite(limit) or limit < 0:
        raise ConfigError(f"{where} must be a finite number of US dollars >= 0, got {value!r}")
    return limit


def fails_pass_share(passed: int, usable: int, fail_under: float | None) -> bool:
    """Whether one scorer fails ``--fail-under``: the one meaning of that flag in every command
    and in :mod:`hybridjudge.testing`. ``passed`` of the ``usable`` outputs pass (grounded for
    the checks; a judge's score at or above its threshold; an unscored output is not usable and
    is counted by ``--max-unscored`` instead). ``fail_under`` is the least share that must pass;
    ``None`` (not given) means every usable output must pass. No usable output at all fails:
    a gate fails closed.
    """
    if usable <= 0:
        return True
    if fail_under is None:
        return passed < usable
    return passed / usable < fail_under - 1e-12
