"""Batch records in and out: any record-like input as a typed record, and plain records to a
pandas DataFrame, with pandas as an optional extra.

The batch inputs (``check_many``, ``judge_many``) read each record as ``hybridjudge check`` and
``hybridjudge judge`` read a case line (docs/formats.md, "Case lines"): the same field names
(ours, OpenGATE's ``answerAnchors``/``allowedNewNumbers``, RAGAS's and DeepEval's), the user's
other fields kept in ``metadata``, and ``record-N`` (N the 1-based record number) as the id of a
record without one (:func:`as_record`, :func:`record_id`). The batch results
(:class:`hybridjudge.judges.JudgeBatch`, :class:`hybridjudge.grounding.CheckBatch`) convert to
plain records (lists of flat dicts) with no dependency, and to a DataFrame through
:func:`to_frame`, which names the extra to install when pandas is missing.

The field-name mapping (:func:`normalize_record`) is defined here, below every stage (the
grounding layer imports nothing else of ours), and :func:`hybridjudge.corpus.read_cases` uses it
too: a file and a list of records are read by the same rules.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from pydantic_core import InitErrorDetails, PydanticCustomError

from hybridjudge._jsonl import check_value

__all__ = [
    "FIELD_ALIASES",
    "PANDAS_HINT",
    "as_mapping",
    "as_record",
    "is_frame",
    "metadata_columns",
    "normalize_record",
    "record_id",
    "record_list",
    "records_problem",
    "to_frame",
]

R = TypeVar("R", bound=BaseModel)

PANDAS_HINT = "pip install 'hybridjudge[pandas]'"
"""How to install the optional pandas dependency."""

FIELD_ALIASES: dict[str, tuple[str, ...]] = {
    "id": ("id", "case_id", "sample_id"),
    "question": ("question", "user_input", "input", "query"),
    "answer": ("answer", "response", "actual_output"),
    "context": ("context", "retrieved_contexts", "contexts", "retrieval_context"),
    "reference": (
        "reference",
        "ground_truth",
        "expected_output",
        "reference_answer",
        "ground_truths",
    ),
    "anchors": ("anchors", "answerAnchors", "required_facts"),
    "answerable": ("answerable",),
    "allowed_numbers": ("allowed_numbers", "allowedNewNumbers"),
    "metadata": ("metadata", "additional_metadata"),
}
"""Our field name -> every field name accepted for it (ours first); the same table as
:data:`hybridjudge.corpus.FIELD_ALIASES` (this is its one definition)."""

_STRICT_NAMES: dict[str, tuple[str, ...]] = {
    "id": ("id",),
    "question": ("question",),
    "answer": ("answer",),
    "context": ("context",),
    "reference": ("reference",),
    "anchors": ("anchors", "answerAnchors"),
    "answerable": ("answerable",),
    "allowed_numbers": ("allowed_numbers", "allowedNewNumbers"),
    "metadata": ("metadata",),
}
"""The names a strict reading (``--strict``) accepts: ours, and OpenGATE's anchors and allowed
numbers."""
_LIST_FIELDS = ("anchors", "allowed_numbers")
"""List fields where a single string is one item (a context string is one passage anyway)."""
_LIFTED = ("id", "anchors", "answerable", "allowed_numbers")
"""Labels read from inside ``metadata`` when the record has no such field itself."""


def records_problem(records: object, *, call: str, argument: str = "records") -> str | None:
    """Why ``records`` (the argument of ``call``) is not a collection of records (a string, a
    single mapping, not iterable), or ``None`` when it is one."""
    hint = (
        f"pass a list of records (mappings or objects with an answer and a context) or a "
        f"pandas DataFrame; to use a case file, read it first: cases = [r.case for r in "
        f"hybridjudge.corpus.read_cases(path) if r.case is not None], then {call}(cases)"
    )
    where = f"{call}(): {argument}"
    if isinstance(records, str | bytes | bytearray):
        return (
            f"{where} is a {type(records).__name__}, not a list of records (it would be read "
            f"one character at a time); {hint}"
        )
    if isinstance(records, Mapping):
        return (
            f"{where} is a single mapping, not a list of records (it would be read one key at "
            f"a time); wrap a single record in a list, or {hint}"
        )
    if is_frame(records):
        return None
    if not isinstance(records, Iterable):
        return f"{where} is a {type(records).__name__}, not a list of records; {hint}"
    return None


def is_frame(records: object) -> bool:
    """A pandas DataFrame, recognised without importing pandas."""
    return all(hasattr(records, name) for name in ("to_dict", "columns", "iloc"))


def record_list(records: Iterable[object]) -> list[object]:
    """The records of ``records`` as a list (a DataFrame: one mapping per row). Check it with
    :func:`records_problem` first."""
    if is_frame(records):
        rows: list[object] = records.to_dict(orient="records")  # type: ignore[attr-defined]
        return rows
    return list(records)


def _plain(value: Any) -> Any:
    """Plain JSON values from numpy arrays and scalars, tuples, NaN (-> ``None``); a pydantic
    model (an ``Anchor``) becomes its fields."""
    if value is None or isinstance(value, bool | str | int):
        return value
    if isinstance(value, float):
        return None if math.isnan(value) else value
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, BaseModel):
        return _plain(value.model_dump())
    tolist = getattr(value, "tolist", None)  # numpy arrays and scalars, pyarrow scalars
    if callable(tolist):
        return _plain(tolist())
    item = getattr(value, "item", None)
    if callable(item):
        return _plain(item())
    if type(value).__name__ in ("NAType", "NaTType"):
        return None
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return str(value)


def as_mapping(item: object) -> dict[str, Any] | None:
    """A record as a mapping: a mapping itself, a pydantic model's fields (RAGAS
    ``SingleTurnSample``, DeepEval ``LLMTestCase``), a dataclass's fields or an object's public
    attributes; ``None`` for anything else."""
    if isinstance(item, Mapping):
        return {str(k): v for k, v in item.items()}
    dump = getattr(item, "model_dump", None)
    if callable(dump):
        dumped = dump()
        return dict(dumped) if isinstance(dumped, Mapping) else None
    if dataclasses.is_dataclass(item) and not isinstance(item, type):
        return {f.name: getattr(item, f.name) for f in dataclasses.fields(item)}
    fields = getattr(item, "__dict__", None)
    if isinstance(fields, dict) and fields:
        return {k: v for k, v in fields.items() if not k.startswith("_")}
    return None


def normalize_record(
    data: Mapping[str, Any], *, number: int, strict: bool = False
) -> tuple[dict[str, Any], str | None, list[tuple[str | None, str]]]:
    """Map one decoded record to our field names.

    Returns the mapping to validate as a :class:`~hybridjudge.corpus.CaseLine`, the reference
    answer (``None`` if absent), and every problem found so far as ``(field, message)``.
    """
    names = _STRICT_NAMES if strict else FIELD_ALIASES
    values = {str(k): _plain(v) for k, v in data.items()}
    present = {k for k, v in values.items() if v is not None}
    problems: list[tuple[str | None, str]] = []
    out: dict[str, Any] = {}
    used: set[str] = set()
    extra_meta: dict[str, Any] = {}

    if (
        not strict
        and "retrieval_context" in present
        and "context" in present
        and "retrieved_contexts" not in present
        and "contexts" not in present
    ):
        # DeepEval: `context` is the ideal context, `retrieval_context` what was retrieved
        extra_meta["reference_context"] = values["context"]
        used.add("context")
        present.discard("context")

    if not strict:
        # labels kept in the metadata (DeepEval's additional_metadata has no other place)
        for meta_name in FIELD_ALIASES["metadata"]:
            meta = values.get(meta_name)
            if not isinstance(meta, dict):
                continue
            meta = dict(meta)
            for label in _LIFTED:
                if label in meta and label not in present:
                    values[label] = meta.pop(label)
                    present.add(label)
            values[meta_name] = meta

    for ours, accepted in names.items():
        given = [name for name in accepted if name in present]
        used.update(name for name in accepted if name in values)
        if len(given) > 1:
            problems.append(
                (
                    ours,
                    f"both {given[0]!r} and {given[1]!r} give the {ours}; keep one",
                )
            )
        if given:
            out[ours] = values[given[0]]

    extras = {k: v for k, v in values.items() if k not in used}
    if strict:
        for name in extras:
            problems.append((name, "unknown field; remove it or check its spelling"))
        extras = {}

    # id: generated when absent (not in strict mode), numbers become text
    if isinstance(out.get("id"), int | float) and not isinstance(out.get("id"), bool):
        out["id"] = str(out["id"])
    if "id" not in out and not strict:
        out["id"] = f"record-{number}"

    for name in _LIST_FIELDS:
        if isinstance(out.get(name), str):
            out[name] = [out[name]]

    reference = out.pop("reference", None)
    if isinstance(reference, list) and all(isinstance(r, str) for r in reference):
        reference = "\n".join(reference)  # RAGAS legacy ground_truths
    if reference is not None and not isinstance(reference, str):
        problems.append(("reference", "must be a string (the reference answer)"))
        reference = None

    metadata = out.pop("metadata", None)
    merged: dict[str, Any] = {}
    if metadata is not None:
        if isinstance(metadata, Mapping):
            merged.update(metadata)
        else:
            problems.append(("metadata", "must be an object of your own fields"))
    for key, value in {**extras, **extra_meta}.items():
        if value is None:
            continue
        if key in merged:
            problems.append((key, "given both as a field and inside metadata; keep one"))
            continue
        merged[key] = value
    if merged:
        out["metadata"] = merged
    return out, reference, problems


def as_record(model: type[R], index: int, item: object) -> R:
    """``item`` (a ``model``, a mapping or an object with the fields) as a ``model``, read as
    ``hybridjudge check`` reads a case line (:func:`normalize_record`); a record without an
    ``id`` gets ``record-<index + 1>``.

    Raises:
        pydantic.ValidationError: the item does not fit ``model`` (also for a field given under
            two names, a reference or metadata of the wrong type, or a string holding a lone
            UTF-16 surrogate).
    """
    if isinstance(item, model):
        record = item
    else:
        data = as_mapping(item)
        if data is not None:
            # every string of the record comes from ``data``: walked once, here, before
            # normalize_record's recursive walk
            unread = _unread(data)
            if unread is not None:
                raise _invalid(model, [unread], {})
            mapped, _reference, problems = normalize_record(data, number=index + 1)
            if problems:
                raise _invalid(model, problems, data)
            return model.model_validate(mapped)
        record = model.model_validate(item, from_attributes=True)  # e.g. __slots__
    unreadable = _unreadable(record)
    if unreadable is not None:
        raise _invalid(model, [unreadable], {})  # the string itself is not shown
    return record


def _invalid(
    model: type[BaseModel], problems: Sequence[tuple[str | None, str]], data: Mapping[str, Any]
) -> ValidationError:
    """The validation error of a record of ``model`` (``data``) with ``problems``: (field or
    ``None`` for the record, message) each."""
    return ValidationError.from_exception_data(
        model.__name__,
        [
            InitErrorDetails(
                type=PydanticCustomError("invalid_record", message),
                loc=(field,) if field else (),
                input=data.get(field) if field else data,
            )
            for field, message in problems
        ],
    )


def _unread(data: Mapping[str, Any]) -> tuple[str | None, str] | None:
    """Why ``data`` (a record as a mapping) cannot be read as the JSONL reader reads a case
    line (``check_value``: a string holding a lone UTF-16 surrogate, nesting deeper than it
    reads), and the field it is in (``None``: a field's name), or ``None``."""
    problem = check_value(data)
    if problem is None:
        return None
    for key, value in data.items():
        if check_value(key) is None and check_value(value) is not None:
            return key, problem[0]
    return None, problem[0]


def _unreadable(record: BaseModel) -> tuple[str, str] | None:
    """The first field of ``record`` that cannot be read as text, and why: a string holding a
    lone UTF-16 surrogate (from a broken escape, ``"\\ud800"``) or a value nested deeper than
    the JSONL reader reads, as ``hybridjudge check`` refuses them in a case line; nothing made
    of it could be written as JSON. Walked without recursion (``check_value``): a field's
    tuple (passages, anchors) as a list, a model in it (an ``Anchor``) as its fields."""
    for name in type(record).model_fields:
        value = getattr(record, name)
        if isinstance(value, tuple):
            value = [v.model_dump() if isinstance(v, BaseModel) else v for v in value]
        problem = check_value(value)
        if problem is not None:
            return name, problem[0]
    return None


def record_id(index: int, item: object) -> str:
    """The id :func:`as_record` gives ``item`` (for an invalid record): its ``id`` (or
    ``case_id``, ``sample_id``, an id in its metadata) when that is text or a number (and
    holds no lone UTF-16 surrogate), else ``record-<index + 1>``."""
    data = as_mapping(item)
    found: object = None
    if data is not None:
        if check_value(data) is None:
            found = normalize_record(data, number=index + 1)[0].get("id")
        else:  # a record too deep to walk (or holding a surrogate): its own id field only
            found = data.get("id")
    else:
        found = getattr(item, "id", None)
    if isinstance(found, str) and found and check_value(found) is None:
        return found
    return f"record-{index + 1}"  # none, or one that cannot be written (a lone surrogate)


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
