"""The one JSONL reader (hybridjudge._jsonl): BOM, per-line typed errors, hostile lines.

Every expected value is written by hand here: the bytes of each line, its 1-based number, and
the reason the reader must give. Python's own limits that make a line hostile are documented in
the standard library: ``json`` recurses per nesting level (``RecursionError`` past the recursion
limit) and ``int`` refuses more than 4,300 digits (``sys.get_int_max_str_digits()``, Python 3.11).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from hybridjudge import CaseFileError
from hybridjudge._jsonl import MAX_DEPTH, iter_json_lines, parse_json_line, read_json_lines
from hybridjudge.corpus import load_corpus, read_case_lines

GOOD = b'{"id": "ok", "answer": "It costs 12 EUR.", "context": "The price is 12 EUR."}'

HOSTILE: list[tuple[str, bytes, str]] = [
    # (what, the line, what the error must say)
    ("deep nesting", b"[" * 100_000 + b"]" * 100_000, f"deeper than {MAX_DEPTH} levels"),
    ("deep objects", b'{"a":' * 5_000 + b"1" + b"}" * 5_000, f"deeper than {MAX_DEPTH} levels"),
    ("5,000-digit integer", b'{"id": "x", "n": ' + b"7" * 5_000 + b"}", "4,300 digits"),
    ("lone surrogate", b'{"id": "x", "answer": "\\ud800"}', "lone UTF-16 surrogate"),
    ("lone surrogate in a key", b'{"\\udfff": 1}', "lone UTF-16 surrogate"),
    ("NaN", b'{"id": "x", "score": NaN}', "NaN is not JSON"),
    ("Infinity", b'{"id": "x", "score": -Infinity}', "-Infinity is not JSON"),
    ("not UTF-8", b'{"id": "caf\xe9"}', "not valid UTF-8 (byte 11)"),
    ("not JSON", b'{"id": "x",}', "invalid JSON at column 12"),
]


@pytest.mark.parametrize(("what", "line", "reason"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_a_hostile_line_is_a_bad_line_not_a_traceback(what: str, line: bytes, reason: str) -> None:
    item = parse_json_line(line, path="cases.jsonl", line=7)
    assert item.value is None
    assert item.error is not None, what
    assert isinstance(item.error, CaseFileError)
    assert item.error.line == 7
    assert str(item.error).startswith("cases.jsonl, line 7: "), str(item.error)
    assert reason in str(item.error)


def test_the_limits_are_the_ones_python_would_hit() -> None:
    # the reasons above stand in for these exceptions: check they are what Python raises
    with pytest.raises(RecursionError):
        json.loads("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ValueError, match="4300 digits"):
        json.loads("7" * 5_000)
    assert sys.get_int_max_str_digits() == 4300


def test_nesting_up_to_the_limit_is_accepted() -> None:
    at_limit = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert parse_json_line(at_limit).ok
    assert not parse_json_line("[" + at_limit + "]").ok


def test_a_surrogate_pair_is_a_character_not_a_lone_surrogate() -> None:
    item = parse_json_line(b'{"answer": "\\ud83d\\ude00"}')
    assert item.ok
    assert item.value == {"answer": "\N{GRINNING FACE}"}


def test_a_byte_order_mark_is_dropped_from_the_first_line_only() -> None:
    items = list(iter_json_lines([b"\xef\xbb\xbf" + b'{"id": "a"}', b'{"id": "b"}']))
    assert [i.value for i in items] == [{"id": "a"}, {"id": "b"}]
    # a BOM in the middle of a file is content, and not JSON
    later = list(iter_json_lines([b'{"id": "a"}', b"\xef\xbb\xbf" + b'{"id": "b"}']))
    assert later[1].error is not None
    assert later[1].line == 2


def test_line_numbers_count_blank_lines(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    path.write_bytes(b'{"id": "a"}\n\n   \n{"id": \n{"id": "c"}\n')
    items = list(read_json_lines(path))
    assert [(i.line, i.ok) for i in items] == [(1, True), (4, False), (5, True)]
    assert items[1].error is not None
    assert f"{path}, line 4: invalid JSON" in str(items[1].error)


def test_case_lines_report_each_hostile_line_and_check_the_others(tmp_path: Path) -> None:
    path = tmp_path / "cases.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + GOOD + b"\n" + b"\n".join(h[1] for h in HOSTILE) + b"\n")
    results = list(read_case_lines(path))
    assert len(results) == 1 + len(HOSTILE)
    first = results[0]
    assert first.case is not None  # the BOM did not stick to the first key
    assert first.case.id == "ok"
    for result, (what, _line, reason) in zip(results[1:], HOSTILE, strict=True):
        assert result.case is None, what
        assert result.error is not None
        assert reason in str(result.error), what


def test_a_corpus_file_with_a_hostile_line_fails_with_the_line_number(tmp_path: Path) -> None:
    root = tmp_path / "corpus"
    root.mkdir()
    (root / "cases.jsonl").write_bytes(b"[" * 50_000 + b"]" * 50_000 + b"\n")
    (root / "outputs.jsonl").write_bytes(b"")
    with pytest.raises(CaseFileError, match=r"cases\.jsonl, line 1: nested deeper"):
        load_corpus(root)


def test_a_missing_file_names_the_path_and_the_fix(tmp_path: Path) -> None:
    with pytest.raises(CaseFileError, match=r"nope\.jsonl: cannot open: .*; check the path"):
        list(read_json_lines(tmp_path / "nope.jsonl"))
    with pytest.raises(CaseFileError, match="is a folder, not a file"):
        list(read_json_lines(tmp_path))


def test_nan_is_refused_unless_the_format_allows_it() -> None:
    assert not parse_json_line(b'{"score": NaN}').ok
    allowed = parse_json_line(b'{"score": -Infinity}', allow_nan=True)
    assert allowed.ok
    assert allowed.value == {"score": float("-inf")}


def test_text_lines_get_the_same_rules_as_bytes() -> None:
    items = list(iter_json_lines(["\ufeff", '{"id": "a"}', '{"id": NaN}'], path="x.jsonl"))
    assert [(i.line, i.ok) for i in items] == [(2, True), (3, False)]
