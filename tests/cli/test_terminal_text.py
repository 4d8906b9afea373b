"""Control characters from user text reach the terminal escaped, never obeyed (issue 37, item 4).

An id with OSC 0 (window title), ``ESC[2J`` (clear screen), OSC 8 (hyperlink), a newline or a
bidi override, printed by ``check`` (table and ``--json``) and ``mutate`` (one line per item).
"""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

from hybridjudge.cli import main

REPO = Path(__file__).resolve().parents[2]

TITLE = "a\x1b]0;pwned\x07"
CLEAR = "b\x1b[2J"
LINK = "c\x1b]8;;http://evil.example/\x1b\\click\x1b]8;;\x1b\\"
NEWLINE = "d\nsecond line"
BIDI = "e\u202eevil\x7f\x85"
IDS = (TITLE, CLEAR, LINK, NEWLINE, BIDI)

RAW = ("\x1b", "\x07", "\u202e", "\x7f", "\x85")


def _raw_controls(text: str) -> list[str]:
    return [c for c in RAW if c in text]


def _cases(path: Path) -> Path:
    rows = [{"id": i, "answer": "It costs 13 EUR.", "context": "The price is 12 EUR."} for i in IDS]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_check_prints_control_characters_in_ids_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", str(_cases(tmp_path / "cases.jsonl"))]) == 1
    out, err = capsys.readouterr()
    assert _raw_controls(out + err) == []
    for shown in (
        "a\\x1b]0;pwned\\x07",
        "b\\x1b[2J",
        "c\\x1b]8;;http://evil.example/\\x1b\\click\\x1b]8;;\\x1b\\",
        "d\\nsecond line",  # one table row per case: the id stays on its line
        "e\\u202eevil\\u007f\\u0085",
    ):
        assert shown in out
    assert "second line" not in out.replace("d\\nsecond line", "")


def test_check_json_keeps_the_ids_exactly_and_prints_no_raw_control(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", str(_cases(tmp_path / "cases.jsonl")), "--json"]) == 1
    out = capsys.readouterr().out
    assert _raw_controls(out) == []
    # still valid JSON, and the id reads back exactly as it was in the file
    assert [json.loads(line)["id"] for line in out.splitlines()] == list(IDS)


def test_mutate_keeps_one_line_per_item_for_an_id_with_a_newline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    corpus = tmp_path / "corpus"
    shutil.copytree(REPO / "corpus/opengate", corpus)
    crafted = "grounding\\nunanswerable\\u001b]0;pwned\\u0007\\u001b[2J"  # JSON-escaped
    for name in ("cases.jsonl", "outputs.jsonl"):
        path = corpus / name
        path.write_text(
            path.read_text(encoding="utf-8").replace("grounding-unanswerable", crafted),
            encoding="utf-8",
        )
    code = main(["mutate", str(corpus), "--mutation-seed", "0", "--out", str(tmp_path / "m")])
    assert code == 0
    out = capsys.readouterr().out
    assert _raw_controls(out) == []
    # the refusal of omission names the base on its own line, as for a plain id
    line = "the case has no anchors [grounding\\nunanswerable\\x1b]0;pwned\\x07\\x1b[2J::base]"
    assert line in out.splitlines()[2]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_guard_lets_richs_own_colours_through_on_a_terminal_only() -> None:
    from hybridjudge._sinks import TerminalGuard

    colour = "\x1b[1mbold\x1b[0m"
    tty = _Terminal()
    TerminalGuard(tty).write(f"{colour} {TITLE}\x1b[2J\n")  # type: ignore[arg-type]
    assert tty.getvalue() == f"{colour} a\\x1b]0;pwned\\x07\\x1b[2J\n"
    log = io.StringIO()
    TerminalGuard(log).write(colour)  # type: ignore[arg-type]
    assert log.getvalue() == "\\x1b[1mbold\\x1b[0m"


def test_escape_controls_by_hand() -> None:
    from hybridjudge._sinks import escape_controls

    assert escape_controls("tab\tand\nline") == "tab\tand\nline"
    assert escape_controls("tab\tand\nline\r", one_line=True) == "tab\\tand\\nline\\r"
    assert escape_controls("\u2066iso\u2069 \x9b31m") == "\\u2066iso\\u2069 \\u009b31m"
