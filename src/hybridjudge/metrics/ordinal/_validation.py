"""The one validator every ordinal metric uses: labels, lengths, direction."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from hybridjudge._errors import ConfigError, InputError

__all__ = [
    "Encoded",
    "MostUrgent",
    "check_most_urgent",
    "encode",
    "level_list",
    "urgency_positions",
]

MostUrgent = Literal["first", "last"]
"""Which end of ``labels`` is the most urgent level: ``"first"`` (level 1 of a 5-level triage
scale) or ``"last"``."""


@dataclass(frozen=True)
class Encoded:
    """Reference and prediction as positions in ``labels`` (0 = ``labels[0]``)."""

    reference: npt.NDArray[np.intp]
    prediction: npt.NDArray[np.intp]
    labels: tuple[Any, ...]

    @property
    def n_labels(self) -> int:
        """Number of levels of the scale."""
        return len(self.labels)


def _as_list(values: Any, name: str) -> list[Any]:
    if isinstance(values, str | bytes) or not isinstance(values, Iterable):
        raise InputError(f"{name} must be a sequence of labels, got {type(values).__name__}")
    array = np.asarray(values, dtype=object)
    if array.ndim != 1:
        raise InputError(f"{name} must be 1-D, got shape {array.shape}")
    return [item.item() if isinstance(item, np.generic) else item for item in array]


_MISSING_TYPES = frozenset({"NAType", "NaTType"})  # pandas.NA, pandas.NaT (pandas not imported)


def _is_missing(value: Any) -> bool:
    """True for None, NaN (float, numpy, Decimal) and pandas' NA/NaT: a missing label."""
    if value is None or type(value).__name__ in _MISSING_TYPES:
        return True
    try:
        return (value != value) is True  # NaN is the value not equal to itself
    except Exception:  # an object whose comparison raises is not a missing value
        return False


def _refuse_missing(values: list[Any], name: str) -> None:
    for index, value in enumerate(values):
        if _is_missing(value):
            raise InputError(
                f"{name}[{index}] is missing ({value!r}); every case needs a level: drop the "
                "case (and report how many were dropped) or fill in its level. A missing value "
                "is never counted as a level of the scale (scikit-learn also refuses NaN)"
            )


def encode(y_true: Any, y_pred: Any, labels: Sequence[Any] | None) -> Encoded:
    """Validate ``y_true``/``y_pred`` against ``labels`` and return them as level positions.

    ``labels`` fixes the order of the scale (most urgent first or last, see ``most_urgent``);
    with ``labels=None`` the sorted union of the observed values is used, as in scikit-learn.
    A value outside ``labels`` is an :class:`InputError` naming its 0-based position, and so is
    a missing value (None, NaN, pandas' NA), with or without ``labels``.
    """
    reference = _as_list(y_true, "y_true")
    prediction = _as_list(y_pred, "y_pred")
    _refuse_missing(reference, "y_true")
    _refuse_missing(prediction, "y_pred")
    if len(reference) != len(prediction):
        raise InputError(
            f"y_true has {len(reference)} labels but y_pred has {len(prediction)}; "
            "pass one reference and one prediction per case"
        )
    if not reference:
        raise InputError("y_true and y_pred are empty; an ordinal report needs at least one case")
    if labels is None:
        try:
            scale = tuple(sorted(set(reference) | set(prediction)))
        except TypeError as exc:
            raise InputError(
                "the labels mix types that cannot be ordered; pass labels=[...] in scale order"
            ) from exc
    else:
        scale = tuple(_as_list(labels, "labels"))
        _refuse_missing(list(scale), "labels")
    if len(scale) < 2:
        raise InputError(
            f"labels={list(scale)!r}: an ordinal scale needs at least two levels; "
            "pass labels=[...] with every level of the scale"
        )
    for item in scale:
        try:  # a tuple is Hashable but hashes only when its items do (and Decimal('sNaN') never)
            hash(item)
        except TypeError:
            raise InputError(
                f"label {item!r} is not hashable; use ints or strings as labels"
            ) from None
    if len(set(scale)) != len(scale):
        raise InputError(f"labels={list(scale)!r} repeats a level; list each level once")
    position = {label: index for index, label in enumerate(scale)}
    encoded = []
    for name, values in (("y_true", reference), ("y_pred", prediction)):
        out = np.empty(len(values), dtype=np.intp)
        for index, value in enumerate(values):
            try:
                out[index] = position[value]
            except (KeyError, TypeError):
                raise InputError(
                    f"{name}[{index}] = {value!r} is not a level of the scale {list(scale)!r}; "
                    "fix the value or pass the full scale as labels=[...]"
                ) from None
        encoded.append(out)
    return Encoded(reference=encoded[0], prediction=encoded[1], labels=scale)


def level_list(levels: Any, name: str) -> list[Any]:
    """``levels`` (a subset of the scale's levels) as a list, or a :class:`ConfigError` naming
    ``name`` when it is not a sequence of levels (a string or a single level)."""
    if isinstance(levels, str | bytes) or not isinstance(levels, Iterable):
        raise ConfigError(
            f"{name}={levels!r}: pass a sequence of levels of the scale, e.g. {name}=(1, 2)"
        )
    return list(levels)


def check_most_urgent(most_urgent: str) -> MostUrgent:
    """Return ``most_urgent`` if it is "first" or "last", else raise :class:`ConfigError`."""
    if most_urgent == "first":
        return "first"
    if most_urgent == "last":
        return "last"
    raise ConfigError(
        f"most_urgent={most_urgent!r}; use 'first' (labels[0] is the most urgent level, as in "
        "5-level triage) or 'last'"
    )


def urgency_positions(
    positions: npt.NDArray[np.intp], n_labels: int, most_urgent: MostUrgent
) -> npt.NDArray[np.intp]:
    """Map label positions to urgency ranks: 0 = most urgent, increasing = less urgent."""
    if most_urgent == "first":
        return positions
    return (n_labels - 1) - positions
