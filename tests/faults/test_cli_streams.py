"""Streams fail closed (issue 10): a closed stdout ends quietly, user text never breaks a table,
every command documents the exit codes."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hybridjudge._params import over_max_unscored
from hybridjudge.cli import build_parser, main
from hybridjudge.cli._exit import (
    EXIT_FINDINGS,
    EXIT_INCOMPLETE,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
)

SRC = Path(__file__).resolve().parents[2] / "src"


def _run_into_closed_pipe(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    """Run the CLI with a stdout whose reader has already gone (like ``| head`` that quit)."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # every write now fails with EPIPE
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    try:
        return subprocess.run(
            [sys.executable, "-m", "hybridjudge", *argv],
            stdout=write_end,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env=env,
            timeout=300,
            check=False,
        )
    finally:
        os.close(write_end)


def _cases(path: Path, n: int = 20) -> Path:
    lines = [
        {"id": f"c{i}", "answer": "Refunds within 30 days.", "context": "Refunds within 30 days."}
        for i in range(n)
    ]
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return path


def test_check_json_into_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    done = _run_into_closed_pipe(["check", str(_cases(tmp_path / "c.jsonl")), "--json"], tmp_path)
    assert done.returncode == 0
    assert b"Traceback" not in done.stderr
    assert b"BrokenPipeError" not in done.stderr


def test_retrieval_eval_json_into_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    (tmp_path / "q.txt").write_text("q1 0 d1 1\nq2 0 d2 1\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text("q1 Q0 d1 1 2.0 r\nq2 Q0 d3 1 1.0 r\n", encoding="utf-8")
    done = _run_into_closed_pipe(
        ["retrieval", "eval", "--qrels", "q.txt", "--run", "r.txt", "--json"], tmp_path
    )
    assert done.returncode == 0
    assert b"Traceback" not in done.stderr
    assert b"BrokenPipeError" not in done.stderr


def test_triage_report_into_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    rows = "\n".join(f"{r},{r}" for r in (1, 2, 3, 4, 5) * 4)
    (tmp_path / "p.csv").write_text(f"ref,pred\n{rows}\n", encoding="utf-8")
    done = _run_into_closed_pipe(
        [
            "triage",
            "report",
            "p.csv",
            "--reference-column",
            "ref",
            "--prediction-column",
            "pred",
            "--scale",
            "KTAS",
            "--label-source",
            "expert",
            "--resamples",
            "100",
        ],
        tmp_path,
    )
    assert done.returncode == 0
    assert b"Traceback" not in done.stderr
    assert b"BrokenPipeError" not in done.stderr


def test_rich_markup_in_a_case_id_is_shown_as_typed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "c.jsonl"
    rows = [
        {"id": "[/x]crash", "answer": "Refunds within 30 days.", "context": "within 30 days"},
        {"id": "case[b]7[/b]-A", "answer": "Refunds within 30 days.", "context": "within 30 days"},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    assert main(["check", str(path)]) == EXIT_OK
    out = capsys.readouterr().out
    assert "[/x]crash" in out
    assert "case[b]7[/b]-A" in out  # never displayed like "case7-A"


def test_every_command_documents_the_exit_codes() -> None:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    missing = []
    for name, sub in action.choices.items():
        text = sub.format_help()
        # one block, from the table of cli/_exit.py (a command lists the codes it can return;
        # every one can be interrupted)
        if text.count("exit codes:") != 1 or "\n  130  interrupted" not in text:
            missing.append(name)
    assert missing == []


def test_exit_code_constants_and_threshold() -> None:
    assert (EXIT_OK, EXIT_FINDINGS, EXIT_USAGE, EXIT_INCOMPLETE, EXIT_INTERRUPTED) == (
        0,
        1,
        2,
        3,
        130,
    )
    assert not over_max_unscored(0, 10)
    assert over_max_unscored(1, 10)  # default threshold 0: any unscored result
    assert not over_max_unscored(1, 10, 0.1)
    assert over_max_unscored(2, 10, 0.1)
    assert over_max_unscored(10, 10, 1.0)  # nothing measured is never complete
    assert not over_max_unscored(9, 10, 1.0)
    assert not over_max_unscored(0, 0)  # nothing evaluated is reported as exit 2 by the caller
