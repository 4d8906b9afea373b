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


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a reasoning preamble with an unmatched "{" that cannot begin a JSON object
        ('<think>I must output {verdict</think>\n{"verdict": "YES"}', {"verdict": "YES"}),
        (
            'Let me think { step by step.\n{"quote": "", "verdict": "NO"}',
            {"quote": "", "verdict": "NO"},
        ),
        ("{\n  oops\n" + '{"a": 1}', {"a": 1}),
    ],
)
def test_an_unmatched_prose_brace_does_not_hide_the_final_object(text: str, expected: Any) -> None:
    assert extract_json(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        # a "{" that can begin an object ('"' or '}' next), left open: still a broken object
        '<think>{"draft": 1</think>\n{"verdict": "YES"}',
        # an unmatched prose "{" and then a final object that is itself cut off
        'I must output {verdict\n{"verdict": "YE',
        # a "{" at the very end is an object that was cut off
        '{"verdict": "NO"} and then {',
        # a draft, a prose brace, then a cut-off object: the draft is not used
        '{"verdict": "NO"} hmm {x\n{"verdict": "YES", "quote": "Refunds',
        # objects in another syntax (a Python dict, JavaScript keys) are broken objects, whose
        # inner JSON objects are not candidates
        "{'type': 'text', 'text': '{\"verdict\": \"YES\"}'}",
        '{verdict: "NO", evidence: {"verdict": "YES"}',
        # an unquoted key cut off at the end of the text
        '{"verdict": "YES"} and finally {verd',
    ],
)
def test_a_prose_brace_never_turns_a_broken_reply_into_a_value(text: str) -> None:
    with pytest.raises(InvalidReplyError):
        extract_json(text)


def test_json_nested_too_deeply_anywhere_in_the_reply_is_an_invalid_reply() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    for text in (deep, f'Answer: {{"a": {deep}}}', f"```json\n{deep}\n```"):
        with pytest.raises(InvalidReplyError, match="nests JSON too deeply"):
            extract_json(text)
