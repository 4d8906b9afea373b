"""The guide to your own data (``docs/own-data.md``, the README's "Evaluate your own RAG outputs"
in full) runs as written and says what it prints."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from hybridjudge.cli import build_parser, main
from tests.byo._judge import TextJudge
from tests.support.openai_server import FakeOpenAIServer

ROOT = Path(__file__).resolve().parents[2]
SECTION = (ROOT / "docs" / "own-data.md").read_text(encoding="utf-8")


def _block(language: str, marker: str) -> str:
    blocks: list[str] = re.findall(rf"```{language}\n(.*?)```", SECTION, flags=re.S)
    (found,) = [b for b in blocks if marker in b]
    return found


def _run_python_block(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, Any] = {}
    exec(_block("python", "import_corpus(records"), namespace)
    return namespace


def test_python_example_prints_what_the_readme_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    block = _block("python", "import_corpus(records")
    _run_python_block(tmp_path, monkeypatch)
    printed = capsys.readouterr().out.splitlines()
    inline = re.search(r"\)  # (\d+ \d+ \d+)\n", block)
    assert inline is not None
    documented = [inline.group(1), *re.findall(r"^# (\w+ +\d+/\d+)$", block, flags=re.M)]
    assert printed == documented
    # by hand: 2 cases have a reference with numbers the context contains, the third has no
    # reference (abstains); only the 2 anchored cases can lose an anchor, only the unanswerable
    # one can fail to abstain, and the checks cannot see an inversion
    assert documented[0] == "3 2 1"
    assert "omission           2/2" in documented
    assert "non_abstention     1/1" in documented
    assert "inversion          0/1" in documented
    corpus = tmp_path / "corpus" / "mine"
    cases = [json.loads(line) for line in (corpus / "cases.jsonl").read_text().splitlines()]
    assert cases[0]["metadata"]["team"] == "payments"
    assert cases[0]["metadata"]["derived_anchors"] == ["30 days"]


def test_command_line_example_runs_as_written(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    openai_server: FakeOpenAIServer,
    capsys: pytest.CaptureFixture[str],
) -> None:
    (tmp_path / "py").mkdir()
    namespace = _run_python_block(tmp_path / "py", monkeypatch)
    monkeypatch.chdir(tmp_path)
    records = namespace["records"]
    (tmp_path / "my_rag.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in records), encoding="utf-8"
    )
    judge = TextJudge(r["response"] for r in records)
    openai_server.respond_with(judge)
    lines = [line for line in _block("bash", "corpus import my_rag").splitlines() if line]
    assert len(lines) == 6
    for line in lines:
        argv = shlex.split(line.replace("http://localhost:8000/v1", openai_server.base_url))
        assert argv[0] == "hybridjudge"
        before = openai_server.request_count
        assert main(argv[1:]) == 0, line
        if "--dry-run" in argv:
            assert openai_server.request_count == before
            assert "No request was made." in capsys.readouterr().out
    assert (tmp_path / "results" / "mine" / "study.json").is_file()
    assert judge.requests > 0


def test_ci_example_commands_exist() -> None:
    block = _block("yaml", "actions/cache")
    commands = re.findall(r"run: (hybridjudge .*)$", block, flags=re.M)
    assert len(commands) == 2
    parser = build_parser()
    for command in commands:
        parser.parse_args(shlex.split(command)[1:])  # SystemExit on an unknown flag
    assert "~/.cache/hybridjudge/models" in block  # the embedded model's folder
    assert ".hybridjudge-cache" in block  # the reply cache
    yaml = pytest.importorskip("yaml")
    workflow = yaml.safe_load(block)
    steps = workflow["jobs"]["judge"]["steps"]
    assert any(step.get("uses", "").startswith("actions/cache") for step in steps)
