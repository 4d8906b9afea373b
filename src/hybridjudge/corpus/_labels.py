"""The label a user gives an answer: ``correct``, ``incorrect`` or ``unknown``.

A record says whether its answer is right under one of these names (the first found; two of them
in one record is a problem of the record, as for any field given twice):

==================================  =====================================================
field                               value
==================================  =====================================================
``label``                           ``correct``, ``incorrect`` or ``unknown`` (any case)
``clean``, ``is_correct``           a boolean: true -> ``correct``, false -> ``incorrect``
``is_hallucination``,               a boolean: true -> ``incorrect``, false -> ``correct``
``hallucination``, ``hallucinated``
==================================  =====================================================

A boolean may be written ``true``/``false``, ``yes``/``no`` (HaluEval's ``hallucination``) or
``1``/``0``, as a JSON value or as text (a CSV cell); an empty value (``null``, an empty CSV
cell, ``NaN`` from a DataFrame) is ``unknown``. RAGAS and DeepEval have no label field of their
own: a DeepEval user keeps it in ``additional_metadata``, which is read too (a label in the
metadata counts when the record has none itself). With ``strict`` only ``label`` is read.

A corpus stores the label of a base output as its ``clean`` field (``correct``: ``true``,
``incorrect``: ``false``, ``unknown``: ``null``): the study counts false alarms only on answers
labelled correct, reports answers labelled incorrect as a natural-defect row of their own, and
counts the unlabelled apart (docs/study.md).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

__all__ = [
    "LABELS",
    "LABEL_FIELDS",
    "Label",
    "LabelReading",
    "clean_of",
    "label_of_clean",
    "read_label",
]

Label = Literal["correct", "incorrect", "unknown"]
"""Whether the user says an answer is right (``unknown``: not labelled)."""

LABELS: tuple[Label, ...] = ("correct", "incorrect", "unknown")
"""The accepted values of the ``label`` field."""

LABEL_FIELDS: dict[str, bool | None] = {
    "label": None,
    "clean": True,
    "is_correct": True,
    "is_hallucination": False,
    "hallucination": False,
    "hallucinated": False,
}
"""Every field read as the label -> what a true boolean means (``True``: correct; ``False``:
incorrect; ``None``: the field holds the label's name itself)."""

_TRUE = frozenset({"true", "yes", "1"})
_FALSE = frozenset({"false", "no", "0"})
_EMPTY = frozenset({"", "null", "none"})
_METADATA = ("metadata", "additional_metadata")


@dataclass(frozen=True, slots=True)
class LabelReading:
    """The label of one record, the field it came from, and every problem reading it."""

    label: Label = "unknown"
    field: str | None = None
    """The field it was read from (``None``: no label field)."""
    problems: tuple[str, ...] = ()
    """Why the record's label cannot be read (the record is then not imported)."""


def _empty(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _boolean(value: Any) -> bool | None:
    """``value`` as a boolean, ``None`` when it is none."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        text = value.strip().casefold()
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
    return None


def _parse(name: str, value: Any) -> tuple[Label, str | None]:
    """The label a field gives, or why it cannot be read."""
    polarity = LABEL_FIELDS[name]
    item = getattr(value, "item", None)  # a numpy or pyarrow scalar: its Python value
    if callable(item) and not isinstance(value, str | bytes):
        value = item()
    if _empty(value) or (isinstance(value, str) and value.strip().casefold() in _EMPTY):
        return "unknown", None
    if polarity is None:
        text = value.strip().casefold() if isinstance(value, str) else None
        for label in LABELS:
            if text == label:
                return label, None
        return "unknown", (
            f"label: {value!r} is not a label; use one of correct, incorrect, unknown (or a "
            "boolean field: clean / is_correct true for a right answer, is_hallucination true "
            "for a wrong one)"
        )
    flag = _boolean(value)
    if flag is None:
        meaning = "right" if polarity else "wrong"
        return "unknown", (
            f"{name}: {value!r} is not a boolean; write true when the answer is {meaning}, "
            "false otherwise (yes/no and 1/0 are read too), or leave it empty when unknown"
        )
    return ("correct" if flag == polarity else "incorrect"), None


def read_label(data: Mapping[str, Any], *, strict: bool = False) -> LabelReading:
    """The label of one decoded record (see the module's table).

    Fields are looked for in the record, then (unless *strict*) in its ``metadata`` or
    ``additional_metadata``. A record with two label fields, or with a value that is not a
    label, gets a problem naming the field and the accepted values.
    """
    names = ("label",) if strict else tuple(LABEL_FIELDS)
    given = [name for name in names if name in data and not _empty(data[name])]
    where = data
    if not given and not strict:
        for meta_name in _METADATA:
            meta = data.get(meta_name)
            if isinstance(meta, Mapping):
                inside = [n for n in names if n in meta and not _empty(meta[n])]
                if inside:
                    given, where = inside, meta
                    break
    if not given:
        return LabelReading()
    if len(given) > 1:
        return LabelReading(
            field=given[0],
            problems=(
                f"{given[0]}: both {given[0]!r} and {given[1]!r} give the answer's label; keep one",
            ),
        )
    label, problem = _parse(given[0], where[given[0]])
    return LabelReading(label, given[0], (problem,) if problem else ())


def clean_of(label: Label) -> bool | None:
    """The ``clean`` field of a base output with this label (``unknown``: ``None``)."""
    return {"correct": True, "incorrect": False, "unknown": None}[label]


def label_of_clean(clean: bool | None) -> Label:
    """The label of a base output from its ``clean`` field."""
    return "unknown" if clean is None else ("correct" if clean else "incorrect")
