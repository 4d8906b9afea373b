"""Plain records to a pandas DataFrame, with pandas as an optional extra.

The batch results (:class:`hybridjudge.judges.JudgeBatch`, :class:`hybridjudge.grounding.CheckBatch`)
convert to plain records (lists of flat dicts) with no dependency, and to a DataFrame through
:func:`to_frame`, which names the extra to install when pandas is missing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["PANDAS_HINT", "metadata_columns", "to_frame"]

PANDAS_HINT = "pip install 'hybridjudge[pandas]'"
"""How to install the optional pandas dependency."""


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
