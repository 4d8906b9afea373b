"""Batch records in and out: any record-like input as a typed record, and plain records to a
pandas DataFrame, with pandas as an optional extra.

The batch inputs (``check_many``, ``judge_many``) accept a typed record, a mapping or any object
with the fields (:func:`as_record`). The batch results (:class:`hybridjudge.judges.JudgeBatch`, :class:`hybridjudge.grounding.CheckBatch`)
convert to plain records (lists of flat dicts) with no dependency, and to a DataFrame through
:func:`to_frame`, which names the extra to install when pandas is missing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from pydantic import BaseModel

__all__ = ["PANDAS_HINT", "as_record", "metadata_columns", "record_id", "to_frame"]

R = TypeVar("R", bound=BaseModel)

PANDAS_HINT = "pip install 'hybridjudge[pandas]'"
"""How to install the optional pandas dependency."""


def as_record(model: type[R], index: int, item: object) -> R:
    """``item`` (a ``model``, a mapping or an object with the fields) as a ``model``; a mapping
    without an ``id`` gets its position ``index`` as its id.

    Raises:
        pydantic.ValidationError: the item does not fit ``model``.
    """
    if isinstance(item, model):
        return item
    if isinstance(item, Mapping):
        data = dict(item)
        data.setdefault("id", str(index))
        return model.model_validate(data)
    return model.model_validate(item, from_attributes=True)


def record_id(index: int, item: object) -> str:
    """The string ``id`` of a mapping or object, else its position (for an invalid record)."""
    found = item.get("id") if isinstance(item, Mapping) else getattr(item, "id", None)
    return found if isinstance(found, str) else str(index)


def metadata_columns(rows: Sequence[dict[str, Any]], fixed: Sequence[str]) -> list[str]:
    """``fixed`` followed by every other key of ``rows`` (metadata columns), sorted."""
    extra = sorted({key for row in rows for key in row} - set(fixed))
    return [*fixed, *extra]


def to_frame(rows: Sequence[dict[str, Any]], columns: Sequence[str], *, what: str) -> Any:
    """``rows`` as a ``pandas.DataFrame`` with ``columns`` in this order (also when empty).

    Raises:
        ImportError: pandas is not installed; the message names the extra that installs it.
    """
    try:
        import pandas as pd
    except ImportError:
        raise ImportError(
            f"{what}.to_pandas() needs pandas, which is not installed; install it with "
            f"{PANDAS_HINT} (or use {what}.to_records() for plain dicts)"
        ) from None
    return pd.DataFrame.from_records(list(rows), columns=list(columns))
