"""Structured output: the requested ``response_format``, JSON extraction, validation, repair.

Extraction order (:func:`extract_json`): the whole reply; else the content of a fenced
```` ```json ```` block; else the **last** complete JSON object in the text (a model that "thinks
aloud" puts its answer last), never an object nested inside a broken one, and never an earlier
draft when the reply goes on to a later object that is broken or cut off (the model's last word
is what counts, and it did not finish). A ``{`` that cannot begin any object (as in a reasoning
preamble "I must output {verdict</think>") is prose, not a broken object, so it does not hide the
object that follows; one that could begin an object, even in another syntax (``{'key'``,
``{key:``) or cut off at the end of the text, is still a broken object. Nothing is guessed: a reply cut short (e.g. a small model
that stops after ``]`` without the closing ``}``) does not parse, and is sent back once for
repair. A reply the server marks ``finish_reason=length`` must be one complete JSON value as a
whole (see :func:`validate_reply`'s ``truncated``).
"""

from __future__ import annotations

import json
import re
from enum import IntEnum
from typing import Any, TypeVar

from openai.lib._pydantic import to_strict_json_schema
from pydantic import BaseModel, ValidationError

__all__ = [
    "FormatMode",
    "InvalidReplyError",
    "extract_json",
    "repair_message",
    "response_format",
    "schema_identity",
    "validate_reply",
]

T = TypeVar("T", bound=BaseModel)

_FENCE = re.compile(r"```[ \t]*(?:json|JSON)?[ \t]*\r?\n(.*?)```", re.DOTALL)
_MAX_ERRORS_SHOWN = 5
_OBJECT_START = re.compile(r"""\{\s*(?:["'}]|[A-Za-z_$][\w$-]*\s*(?::|\Z)|\Z)""")
"""What may begin an object, even a broken or cut-off one: ``{`` then (after white space) a
quote (``"key"``, or ``'key'`` as in a Python dict), ``}``, an unquoted key and ``:`` (as in
JavaScript), or the end of the text (cut off). Any other ``{`` is prose."""


class FormatMode(IntEnum):
    """How the schema is asked for; a client falls back down this list, never up."""

    JSON_SCHEMA = 0
    """``response_format={"type": "json_schema", ...}`` (strict)."""
    JSON_OBJECT = 1
    """``response_format={"type": "json_object"}``."""
    NONE = 2
    """No ``response_format``: the JSON is extracted from free text."""


class InvalidReplyError(ValueError):
    """A reply that did not yield a valid object; ``str()`` is a one-line reason."""


def schema_name(schema: type[BaseModel]) -> str:
    """The schema's name as OpenAI accepts it (``^[a-zA-Z0-9_-]{1,64}$``)."""
    return re.sub(r"[^a-zA-Z0-9_-]", "_", schema.__name__)[:64] or "reply"


def schema_identity(schema: type[BaseModel]) -> dict[str, Any]:
    """What identifies the requested schema in a cache key: its name and strict JSON schema."""
    return {"name": schema_name(schema), "schema": to_strict_json_schema(schema)}


def response_format(schema: type[BaseModel], mode: FormatMode) -> dict[str, Any] | None:
    """The ``response_format`` request parameter for ``mode`` (``None``: send none).

    The JSON schema is made strict by the openai SDK's own converter (every object gets
    ``additionalProperties: false`` and lists all its properties as required), which OpenAI's
    ``strict`` mode demands and llama.cpp's grammar accepts.
    """
    if mode is FormatMode.JSON_SCHEMA:
        return {
            "type": "json_schema",
            "json_schema": {
                "name": schema_name(schema),
                "schema": to_strict_json_schema(schema),
                "strict": True,
            },
        }
    if mode is FormatMode.JSON_OBJECT:
        return {"type": "json_object"}
    return None


def _last_object(text: str) -> Any:
    """The last complete top-level JSON object in ``text`` (decoded by ``json``), or ``None``.

    Objects nested inside a broken (unclosed or invalid) object are not candidates: a reply cut
    off before its final ``}`` must not be replaced by one of its inner objects. A broken object
    *after* the last complete one means the model's final answer is broken: ``None`` then (a
    draft followed by a cut-off object must not be scored from the draft). Outside JSON, quotes
    are prose; inside a broken object, strings are tracked so their braces do not count.

    A ``{`` that cannot begin an object (see ``_OBJECT_START``: not followed by a quote, ``}``,
    an unquoted key and ``:``, or the end of the text) is prose and skipped; any other ``{``
    that does not decode counts as a broken object.
    """
    decoder = json.JSONDecoder()
    found: Any = None
    broken_after = False
    depth = 0
    in_string = escaped = False
    index = 0
    while index < len(text):
        char = text[index]
        if depth == 0:
            if char == "{":
                if not _OBJECT_START.match(text, index):
                    index += 1  # "{verdict</think>", "{ step by step": prose, not an object
                    continue
                try:
                    value, end = decoder.raw_decode(text, index)
                except RecursionError:
                    raise InvalidReplyError("the reply nests JSON too deeply to read") from None
                except ValueError:
                    depth = 1
                    broken_after = True
                    index += 1
                    continue
                if isinstance(value, dict):
                    found = value
                    broken_after = False
                index = end
                continue
        elif in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        index += 1
    return None if broken_after else found


def extract_json(text: str, *, truncated: bool = False) -> Any:
    """The JSON value a reply carries (see the module docstring for the order tried).

    Args:
        text: the reply.
        truncated: the server cut the reply at its token limit (``finish_reason=length``):
            only the whole reply as one JSON value is accepted, never a fenced block or an
            object found inside the text (it would be a draft, the answer itself was cut off).

    Raises:
        InvalidReplyError: no complete JSON value was found; the message says why.
    """
    stripped = text.strip()
    if not stripped:
        raise InvalidReplyError("the reply is empty")
    try:
        return json.loads(stripped)
    except ValueError as exc:
        whole_error = exc
    except RecursionError:
        raise InvalidReplyError("the reply nests JSON too deeply to read") from None
    if truncated:
        raise InvalidReplyError(
            "the reply was cut off at the max_tokens limit (finish_reason=length) and is not "
            f"one complete JSON object ({whole_error}); an earlier draft in it is not used"
        )
    for block in _FENCE.findall(stripped):
        try:
            return json.loads(block)
        except ValueError:
            continue
        except RecursionError:
            raise InvalidReplyError("the reply nests JSON too deeply to read") from None
    found = _last_object(stripped)
    if found is not None:
        return found
    raise InvalidReplyError(f"the reply is not valid JSON ({whole_error})")


def _format_validation_error(error: ValidationError) -> str:
    parts = []
    for item in error.errors()[:_MAX_ERRORS_SHOWN]:
        location = ".".join(str(p) for p in item["loc"]) or "(root)"
        parts.append(f"{location}: {item['msg']}")
    more = error.error_count() - _MAX_ERRORS_SHOWN
    if more > 0:
        parts.append(f"and {more} more")
    return "; ".join(parts)


def validate_reply(text: str, schema: type[T], *, truncated: bool = False) -> T:
    """Extract the JSON of ``text`` and validate it against ``schema``.

    ``truncated``: the reply ended at the token limit (see :func:`extract_json`).

    Raises:
        InvalidReplyError: no JSON, or JSON that does not match the schema; one-line reason.
    """
    value = extract_json(text, truncated=truncated)
    try:
        return schema.model_validate(value)
    except ValidationError as exc:
        raise InvalidReplyError(
            f"the JSON does not match {schema.__name__}: {_format_validation_error(exc)}"
        ) from None


def repair_message(reason: str, schema: type[BaseModel]) -> str:
    """The user message of the one repair request, quoting what was wrong."""
    return (
        f"Your previous reply could not be used: {reason}.\n"
        "Reply again with only one complete, valid JSON object (no prose, no code fence) that "
        "matches this JSON schema:\n"
        f"{json.dumps(to_strict_json_schema(schema), separators=(',', ':'))}"
    )
