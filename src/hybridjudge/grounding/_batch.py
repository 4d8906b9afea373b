"""Grounding checks over many records: :func:`check_many` and its typed :class:`CheckBatch`.

Records that share a case (the same context, question, required facts, answerability and
allowed numbers) share one :class:`GroundingChecker`: the context is parsed once, however many
answers are checked against it. A record that cannot be checked (a field of the wrong type, a
malformed anchor) becomes a ``failed`` outcome with the reason, and the others go on.

The checks are synchronous CPU work, so :func:`check_many` is a plain function that also works
inside a running event loop (a notebook).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from hybridjudge._frames import (
    as_record,
    metadata_columns,
    record_id,
    record_list,
    records_problem,
    to_frame,
)
from hybridjudge.grounding._abstention import compile_markers
from hybridjudge.grounding._check import GroundingChecker
from hybridjudge.grounding._errors import GroundingInputError, GroundingTypeError
from hybridjudge.grounding._models import GroundingReport

__all__ = ["CheckBatch", "CheckOutcome", "CheckProgress", "CheckRecord", "check_many"]

CheckProgress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` while :func:`check_many` runs (every 50 records and at
the end); an exception it raises stops the batch."""

_PROGRESS_EVERY = 50


class CheckRecord(BaseModel):
    """One answer to check, with its case; a single context string is one passage.

    Built by keyword, this model refuses unknown keys (put them in ``metadata``).
    :func:`check_many` reads a mapping or an object as ``hybridjudge check`` reads a case line
    (docs/formats.md, "Case lines"): OpenGATE's, RAGAS's and DeepEval's field names are mapped
    to these, every other field goes into ``metadata``, and a record without an id gets
    ``record-N`` (N its 1-based position)."""

    model_config = ConfigDict(frozen=True, extra="forbid", from_attributes=True, defer_build=True)

    id: str = Field(min_length=1)
    """The record's identifier (``record-N``, N its 1-based position, when none was given)."""
    answer: str
    """The answer to check."""
    context: tuple[str, ...]
    """The retrieved passages."""
    question: str | None = None
    """The question; numbers it contains are traceable."""
    anchors: tuple[Any, ...] = ()
    """Required facts: strings, ``{"value", "aliases"}`` mappings or ``Anchor`` objects."""
    answerable: bool | None = True
    """``False``: the answer must abstain; ``True``: it must not; ``None``: not judged."""
    allowed_numbers: tuple[Any, ...] = ()
    """Numbers the answer may introduce."""
    metadata: dict[str, Any] = Field(default_factory=dict)
    """Carried unchanged into the outcome and the table."""

    @field_validator("context", mode="before")
    @classmethod
    def _one_passage(cls, value: object) -> object:
        return (value,) if isinstance(value, str) else value


class CheckOutcome(BaseModel):
    """The grounding report of one record, or why there is none."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    index: int = Field(ge=0)
    """Position of the record in the input."""
    id: str
    """The record's ``id``."""
    status: Literal["checked", "failed"]
    """``checked``: :attr:`report` holds the report; ``failed``: :attr:`error` says why not."""
    report: GroundingReport | None = None
    """The report when checked."""
    error: str | None = None
    """Why the record could not be checked, one line."""
    elapsed_ms: float = 0.0
    """Milliseconds spent on this record (preparing its case, when first seen, included)."""
    metadata: dict[str, Any] = Field(default_factory=dict)
    """The record's metadata, unchanged."""

    @property
    def grounded(self) -> bool | None:
        """The report's verdict; ``None`` when the record failed."""
        return None if self.report is None else self.report.grounded


_CHECK_COLUMNS = (
    "id",
    "status",
    "grounded",
    "abstained",
    "findings",
    "finding_kinds",
    "error",
    "elapsed_ms",
)


class CheckBatch(BaseModel):
    """The outcome of :func:`check_many`: one outcome per record, in input order."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    outcomes: tuple[CheckOutcome, ...]
    """One per record, in input order."""
    prepared_cases: int = Field(ge=0)
    """Distinct cases prepared (one :class:`GroundingChecker` each)."""

    def __iter__(self) -> Iterator[CheckOutcome]:  # type: ignore[override]
        """The outcomes, in input order (``list(batch)``, ``for o in batch``), not the model's
        fields (``model_dump()`` gives those)."""
        return iter(self.outcomes)

    def __len__(self) -> int:
        """How many records (outcomes) the batch holds."""
        return len(self.outcomes)

    @property
    def failed(self) -> tuple[CheckOutcome, ...]:
        """The outcomes whose record could not be checked."""
        return tuple(o for o in self.outcomes if o.status == "failed")

    def to_records(self) -> list[dict[str, Any]]:
        """One flat dict per record: ``id, status, grounded, abstained, findings`` (how many),
        ``finding_kinds`` (``kind: subject`` joined by ``"; "``), ``error, elapsed_ms`` and one
        ``metadata.KEY`` column per metadata key."""
        rows: list[dict[str, Any]] = []
        for o in self.outcomes:
            report = o.report
            row: dict[str, Any] = {
                "id": o.id,
                "status": o.status,
                "grounded": None if report is None else report.grounded,
                "abstained": None if report is None else report.abstained,
                "findings": None if report is None else len(report.findings),
                "finding_kinds": None
                if report is None
                else "; ".join(f"{f.kind}: {f.subject}" for f in report.findings),
                "error": o.error,
                "elapsed_ms": o.elapsed_ms,
            }
            row.update({f"metadata.{k}": v for k, v in o.metadata.items()})
            rows.append(row)
        return rows

    def to_pandas(self) -> Any:
        """:meth:`to_records` as a ``pandas.DataFrame`` (needs the ``pandas`` extra).

        Raises:
            ImportError: pandas is not installed (the message names the extra).
        """
        rows = self.to_records()
        return to_frame(rows, metadata_columns(rows, _CHECK_COLUMNS), what="CheckBatch")


def _case_key(record: CheckRecord) -> object:
    """What makes two records share a checker: everything but the answer and the metadata."""
    key = (
        record.context,
        record.question,
        record.anchors,
        record.answerable,
        record.allowed_numbers,
    )
    try:
        hash(key)
    except TypeError:  # anchors given as mappings or lists: compare their JSON instead
        return json.dumps(
            [
                record.context,
                record.question,
                record.anchors,
                record.answerable,
                record.allowed_numbers,
            ],
            sort_keys=True,
            default=repr,
        )
    return key


def check_many(
    records: Iterable[CheckRecord | Mapping[str, Any] | object],
    *,
    abstain_markers: Sequence[str] | None = None,
    progress: CheckProgress | None = None,
) -> CheckBatch:
    """Check many answers; records of the same case share one prepared :class:`GroundingChecker`.

    Args:
        records: a list (any iterable, or a pandas ``DataFrame``) of :class:`CheckRecord`
            values, mappings or objects with their fields, read as ``hybridjudge check``
            reads a case line (docs/formats.md, "Case lines"): ``id`` (default ``record-N``,
            N the 1-based position), ``answer``, ``context``, optional ``question``,
            ``anchors``, ``answerable``, ``allowed_numbers``, ``metadata``; OpenGATE's
            ``answerAnchors``/``allowedNewNumbers`` and RAGAS's and DeepEval's names are
            accepted, and any other field is kept in ``metadata``.
        abstain_markers: as for :func:`check_grounding` (``None``: the built-in markers).
        progress: ``progress(done, total)`` every 50 records and at the end.

    Returns:
        A :class:`CheckBatch`, one outcome per record in input order.

    Raises:
        GroundingTypeError: ``records`` is not a collection of records (a string such as a file
            name, a single mapping, a number); read a file with
            :func:`hybridjudge.corpus.read_cases` first.
        GroundingTypeError, GroundingInputError: ``abstain_markers`` is invalid (it applies to
            every record). A bad record never raises: its outcome is ``failed``.

    Example:
        >>> batch = check_many([
        ...     {"id": "a", "answer": "Refunds within 30 days.", "context": "Refunds within 30 days."},
        ...     {"id": "b", "answer": "Refunds within 45 days.", "context": "Refunds within 30 days."},
        ... ])
        >>> [o.grounded for o in batch.outcomes], batch.prepared_cases
        ([True, False], 1)
    """
    problem = records_problem(records, call="check_many")
    if problem is not None:
        raise GroundingTypeError(problem, argument="records")
    items = record_list(records)
    checkers: dict[object, GroundingChecker | str] = {}
    keys: dict[object, object] = {}
    alive: list[CheckRecord] = []
    outcomes: list[CheckOutcome] = []
    total = len(items)
    compile_markers(abstain_markers)  # validated once: it applies to every record
    for index, item in enumerate(items):
        start = time.perf_counter()
        try:
            record = as_record(CheckRecord, index, item)
        except ValidationError as exc:
            outcomes.append(_invalid_outcome(index, item, exc))
            continue
        alive.append(record)  # keeps its objects alive, so their ids stay unique in this call
        checker = _checker_for(record, abstain_markers, keys, checkers)
        outcomes.append(_outcome_of(index, record, checker, start))
        if progress is not None and (index + 1) % _PROGRESS_EVERY == 0:
            progress(index + 1, total)
    if progress is not None:
        progress(total, total)
    prepared = sum(not isinstance(c, str) for c in checkers.values())
    return CheckBatch(outcomes=tuple(outcomes), prepared_cases=prepared)


def _invalid_outcome(index: int, item: object, exc: ValidationError) -> CheckOutcome:
    """The ``failed`` outcome of a record that is no :class:`CheckRecord`: its first problem
    (field and message) and how many more there are."""
    first = exc.errors()[0]
    field = ".".join(str(p) for p in first.get("loc", ())) or "record"
    more = len(exc.errors()) - 1
    error = f"field {field!r}: {first.get('msg')}" + (
        f" (and {more} more problem(s))" if more else ""
    )
    return CheckOutcome(index=index, id=record_id(index, item), status="failed", error=error)


def _checker_for(
    record: CheckRecord,
    abstain_markers: Sequence[str] | None,
    keys: dict[object, object],
    checkers: dict[object, GroundingChecker | str],
) -> GroundingChecker | str:
    """The prepared checker of ``record``'s case, built on its first record (``checkers`` by
    case key), or the message of the error that building it raised."""
    # records built from one case share its objects: compute each case's key once
    ident = (id(record.context), id(record.anchors), id(record.allowed_numbers))
    ident_key = (ident, record.question, record.answerable)
    key = keys.get(ident_key)
    if key is None:
        key = keys[ident_key] = _case_key(record)
    checker = checkers.get(key)
    if checker is None:
        try:
            checker = GroundingChecker(
                list(record.context),
                question=record.question,
                anchors=record.anchors,
                answerable=record.answerable,
                allowed_numbers=record.allowed_numbers,
                abstain_markers=abstain_markers,
            )
        except (GroundingTypeError, GroundingInputError) as exc:
            checker = str(exc)
        checkers[key] = checker
    return checker


def _outcome_of(
    index: int, record: CheckRecord, checker: GroundingChecker | str, start: float
) -> CheckOutcome:
    """The outcome of checking ``record``'s answer with ``checker`` (an error message: the case
    could not be prepared); ``start``: when its handling began (``time.perf_counter``)."""
    if isinstance(checker, str):
        return CheckOutcome(
            index=index, id=record.id, status="failed", error=checker, metadata=record.metadata
        )
    try:
        report = checker.check(record.answer)
    except (GroundingTypeError, GroundingInputError) as exc:
        return CheckOutcome(
            index=index, id=record.id, status="failed", error=str(exc), metadata=record.metadata
        )
    return CheckOutcome.model_construct(  # every field is ours: no validation
        index=index,
        id=record.id,
        status="checked",
        report=report,
        elapsed_ms=(time.perf_counter() - start) * 1000.0,
        metadata=record.metadata,
    )
