"""How much of an input file hybridjudge reads: bytes per file, per record, per field.

A utility module below every stage: the case readers (JSONL, JSON, CSV, Parquet, Excel), the
corpus loader and the mutation reader all check these bounds, so a crafted or broken file (a
200 MB line, a Parquet file whose 1.6 KB expand to 1.6 GB) costs memory bounded by the limit,
never by the file. Each bound is named in its error, with the flag and the keyword that raise it.

The defaults are far past any real evaluation set, so nobody meets them by accident. Measured on
the data this project ships and uses (December 2026): the largest case file is 0.55 MB
(FinanceBench questions), the largest record 41 KB (a HaluEval mutation line), the largest
field 7.7 KB (a FinanceBench evidence passage); the whole text of a 10-K filing, the longest
context a RAG record plausibly carries in one passage, is 1-3 MB.

=====================  ==========  =========================================================
bound                  default     margin over the largest seen
=====================  ==========  =========================================================
``max_file_bytes``     1 GiB       1,900x (and the records read are all kept in memory)
``max_record_bytes``   64 MiB      1,600x; 20x a whole 10-K in one record
``max_field_bytes``    16 MiB      2,000x; 5x a whole 10-K in one passage
=====================  ==========  =========================================================
"""

from __future__ import annotations

import functools
import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from hybridjudge._errors import CaseFileError, ConfigError

__all__ = [
    "DEFAULT_LIMITS",
    "MAX_FIELD_BYTES",
    "MAX_FILE_BYTES",
    "MAX_RECORD_BYTES",
    "LimitKind",
    "ReadLimits",
    "format_size",
    "parse_size",
    "too_large",
]

MAX_FILE_BYTES = 1 << 30
"""Default bound on the bytes of one input file (for Parquet and Excel: of its decoded data)."""
MAX_RECORD_BYTES = 64 << 20
"""Default bound on one record: a JSONL line, a CSV row, a Parquet or Excel row."""
MAX_FIELD_BYTES = 16 << 20
"""Default bound on one field of a record (a JSON string, a CSV or Excel cell), UTF-8 bytes."""

LimitKind = Literal["file", "record", "field"]
"""Which bound an input broke."""

_FLAGS: dict[LimitKind, tuple[str, str]] = {
    "file": ("--max-file-bytes", "max_file_bytes"),
    "record": ("--max-record-bytes", "max_record_bytes"),
    "field": ("--max-field-bytes", "max_field_bytes"),
}


class ReadLimits(BaseModel):
    """Bounds on what a reader takes from one input file (bytes, UTF-8 for text).

    Pass one to :func:`hybridjudge.corpus.read_cases`, :func:`hybridjudge.corpus.load_corpus`
    or :func:`hybridjudge.corpus.import_corpus` (``limits=ReadLimits(max_record_bytes=...)``);
    the commands take ``--max-file-bytes``, ``--max-record-bytes`` and ``--max-field-bytes``.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    max_file_bytes: int = Field(MAX_FILE_BYTES, gt=0)
    """Bytes of one file (Parquet, Excel: the decoded size their metadata declares)."""
    max_record_bytes: int = Field(MAX_RECORD_BYTES, gt=0)
    """Bytes of one record: a JSONL line, a CSV row (all its lines), a Parquet or Excel row."""
    max_field_bytes: int = Field(MAX_FIELD_BYTES, gt=0)
    """Bytes of one field: a JSON string, a CSV or Excel cell."""


DEFAULT_LIMITS = ReadLimits()
"""The limits every reader applies unless given others."""

_UNITS = {
    "": 1,
    "b": 1,
    "k": 1000,
    "kb": 1000,
    "kib": 1 << 10,
    "m": 1000**2,
    "mb": 1000**2,
    "mib": 1 << 20,
    "g": 1000**3,
    "gb": 1000**3,
    "gib": 1 << 30,
}


@functools.cache
def _size_pattern() -> re.Pattern[str]:
    """What :func:`parse_size` reads, compiled on its first call (only a size flag needs it)."""
    return re.compile(r"\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*", re.IGNORECASE)


def parse_size(text: str, *, flag: str = "size") -> int:
    """``"64MiB"`` -> 67108864: a whole number of bytes, or a number with a unit (``k``/``KB``
    = 1000, ``KiB`` = 1024; likewise ``M``/``MiB``, ``G``/``GiB``).

    Raises:
        ConfigError: not such a size, or not above zero.
    """
    match = _size_pattern().fullmatch(text)
    unit = _UNITS.get(match.group(2).lower()) if match else None
    if match is None or unit is None or float(match.group(1)) * unit < 1:
        raise ConfigError(
            f"{flag} {text!r}: give a size in bytes above zero, e.g. 67108864, 64MiB or 2GB"
        )
    return int(float(match.group(1)) * unit)


def format_size(size: int) -> str:
    """A byte count for a message: ``"64 MiB"``, ``"1.5 KiB"``, ``"12 bytes"``."""
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if size >= 1 << shift:
            value = size / (1 << shift)
            return f"{value:.0f} {unit}" if value == int(value) else f"{value:.1f} {unit}"
    return f"{size} bytes"


def too_large(
    kind: LimitKind,
    what: str,
    limit: int,
    *,
    path: str | None = None,
    line: int | None = None,
    field: str | None = None,
) -> CaseFileError:
    """The error for an input past a bound (code ``file_too_large``, ``record_too_large`` or
    ``field_too_large``): *what* says what broke it (``"the line has more than 1 KiB"``), and
    the message names the limit and the flag and keyword that raise it."""
    flag, keyword = _FLAGS[kind]
    error = CaseFileError(
        f"{what}, past the {kind} limit of {format_size(limit)}; nothing of it was kept. If the "
        f"input is genuine, raise the limit with {flag} (ReadLimits({keyword}=...) in the API)",
        path=path,
        line=line,
        field=field,
    )
    error.code = f"{kind}_too_large"
    return error
