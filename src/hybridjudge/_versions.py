"""The one rule for a saved file's format version: exactly a version this hybridjudge reads."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic_core import PydanticCustomError

__all__ = ["check_format_version", "version_problem"]


def version_problem(value: object, readable: tuple[int, ...], what: str) -> str | None:
    """Why ``value`` cannot be the format version of ``what`` (``"study format"``,
    ``"grounding report"``...), or ``None`` when this hybridjudge reads it.

    A version is an integer (``True``, ``1.0`` and ``"1"`` are not versions)."""
    if type(value) is int and value in readable:
        return None
    versions = ", ".join(str(v) for v in readable)
    plural = "versions" if len(readable) > 1 else "version"
    return (
        f"{what} version {value!r} is not supported by this hybridjudge (it reads {plural} "
        f"{versions}); write the file again with this hybridjudge, or upgrade hybridjudge to "
        "read a newer one"
    )


def check_format_version(data: Any, readable: tuple[int, ...], what: str) -> Any:
    """A ``mode="before"`` model validator: refuse a ``format_version`` (see
    :func:`version_problem`) before the fields are checked, so a file written by another
    version gets one clear error instead of one per changed field."""
    if isinstance(data, Mapping) and "format_version" in data:
        problem = version_problem(data["format_version"], readable, what)
        if problem is not None:
            raise PydanticCustomError("unsupported_format_version", problem)
    return data
