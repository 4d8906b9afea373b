"""JSON extraction, validation and the requested response formats."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel

from hybridjudge.model import FormatMode, extract_json
from hybridjudge.model._structured import (
    InvalidReplyError,
    repair_message,
    response_format,
    validate_reply,
)


class Verdict(BaseModel):
    claim: str
    verdict: str


class Verdicts(BaseModel):
    verdicts: list[Verdict]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"a": 1}', {"a": 1}),
        ('  \n{"a": 1}\n', {"a": 1}),
        ("[1, 2]", [1, 2]),
        ('Sure!\n```json\n{"a": 2}\n```\nDone.', {"a": 2}),
        ('```\n{"a": 3}\n```', {"a": 3}),
        ('First {"a": 1}, then {"a": 2, "b": {"c": 3}} at last.', {"a": 2, "b": {"c": 3}}),
        ('broken {"a": } then good {"a": 4}', {"a": 4}),
    ],
)
def test_extract_json(text: str, expected: Any) -> None:
    assert extract_json(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "no json here",
        # docs/faithfulness.md (DeepEval on the embedded model): the small model stopped after "]" without the closing "}"
        '{"verdicts": [{"claim": "a", "verdict": "yes"}]',
        '{"reason": "a raw\nnewline inside a string"}',
    ],
)
def test_extract_json_does_not_guess(text: str) -> None:
    with pytest.raises(InvalidReplyError):
        extract_json(text)


@given(
    st.dictionaries(st.text(max_size=8), st.integers() | st.text(max_size=8), max_size=4),
    st.text(alphabet=st.characters(blacklist_characters="{}"), max_size=30),
)
def test_an_object_after_prose_is_found(obj: dict[str, Any], prose: str) -> None:
    assert extract_json(prose + json.dumps(obj)) == obj


def test_validate_reply_gives_a_one_line_reason_naming_the_field() -> None:
    with pytest.raises(InvalidReplyError) as info:
        validate_reply('{"verdicts": [{"claim": "a"}]}', Verdicts)
    message = str(info.value)
    assert "\n" not in message
    assert "verdicts.0.verdict" in message
    assert validate_reply('{"verdicts": []}', Verdicts) == Verdicts(verdicts=[])


def test_response_formats_in_fallback_order() -> None:
    strict = response_format(Verdicts, FormatMode.JSON_SCHEMA)
    assert strict is not None
    assert strict["type"] == "json_schema"
    schema = strict["json_schema"]["schema"]
    # OpenAI strict mode: every object closed and every property required
    assert schema["additionalProperties"] is False
    assert schema["$defs"]["Verdict"]["additionalProperties"] is False
    assert schema["$defs"]["Verdict"]["required"] == ["claim", "verdict"]
    assert response_format(Verdicts, FormatMode.JSON_OBJECT) == {"type": "json_object"}
    assert response_format(Verdicts, FormatMode.NONE) is None


def test_repair_message_quotes_the_error_and_the_schema() -> None:
    text = repair_message("the reply is not valid JSON (Expecting ',')", Verdicts)
    assert "Expecting ','" in text
    assert '"verdicts"' in text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a brace inside a string of a broken object does not end it
        ('{"a": "x}", "b": {"c": 1} <- truncated', None),
        # prose braces are skipped, the answer after them is found
        ('Use {curly} braces. Answer: {"a": 1}', {"a": 1}),
        # an escaped quote inside a broken object's string
        ('{"a": "say \\"}\\" then", "b": {"c": 1}', None),
    ],
)
def test_objects_inside_a_broken_object_are_not_candidates(text: str, expected: Any) -> None:
    if expected is None:
        with pytest.raises(InvalidReplyError):
            extract_json(text)
    else:
        assert extract_json(text) == expected
