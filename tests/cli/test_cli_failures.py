"""What a user hits at the edges of the command line: unwritable outputs, flags that do not go
together, -q, fractions written as percentages, Ctrl-C. Each is exit 2 (or 130) with a message
that names the input and the fix, never a traceback and never work done for nothing."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import pytest

from hybridjudge.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[2]
GOOD = {"id": "good", "answer": "Refunds within 30 days.", "context": "Refunds within 30 days."}


def _cases(path: Path) -> Path:
    path.write_text(json.dumps(GOOD) + "\n", encoding="utf-8")
    return path


def test_mutate_out_an_existing_folder_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "adir"
    folder.mkdir()
    args = ["mutate", str(ROOT / "corpus/opengate"), "--mutation-seed", "0", "--out", str(folder)]
    assert main(args) == 2  # was a traceback (IsADirectoryError) and exit 1, "findings"
    err = capsys.readouterr().err
    assert f"error [io_error]: {folder}: is a folder; give a file path" in err
    assert "Traceback" not in err


def test_corpus_import_under_a_file_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    args = ["corpus", "import", str(_cases(tmp_path / "c.jsonl")), "--out", str(blocker / "c")]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "error [io_error]:" in err
    assert str(blocker) in err
    assert "Traceback" not in err


def test_report_into_a_folder_it_cannot_write_names_the_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    results = tmp_path / "res"
    results.mkdir()
    shutil.copy(ROOT / "tests/data/studies/main-2026-12-01/study.json", results / "study.json")

    def read_only(*args: object, **kwargs: object) -> tuple[int, str]:
        raise OSError(30, "Read-only file system", str(results / ".report.md.x1y2.tmp"))

    # tests run as root, for whom no folder is unwritable: the file system's refusal is injected
    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    assert main(["report", str(results)]) == 2  # was a traceback and exit 1
    err = capsys.readouterr().err
    assert (
        f"error [io_error]: {results}: cannot write a file in this folder (Read-only file system)"
        in err
    )
    assert ".tmp" not in err  # the folder is named, not the temporary file


@pytest.mark.parametrize("command", ["check", "judge"])
def test_ray_out_that_cannot_be_created_fails_before_any_work(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    args = [command, str(_cases(tmp_path / "c.jsonl")), "--ray", "--out", str(blocker / "x")]
    if command == "judge":
        args += ["--base-url", "http://127.0.0.1:9/v1", "--model", "m"]
    assert main(args) == 2  # was: the whole Ray job, then a traceback
    err = capsys.readouterr().err
    assert f"--out {blocker / 'x'}: cannot be created ({blocker} is not a writable directory)" in (
        err
    )


def test_judge_dry_run_with_ray_is_refused_instead_of_judging(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    args = ["judge", str(_cases(tmp_path / "c.jsonl")), "--dry-run", "--ray", "--out", str(out)]
    args += ["--base-url", "http://127.0.0.1:9/v1", "--model", "m"]
    assert main(args) == 2  # --dry-run was ignored: the cases were judged (and paid for)
    assert "--dry-run and --ray do not go together" in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize(
    ("command", "extra", "named"),
    [
        ("check", ["--out", "o"], "--out only goes with --ray"),
        ("check", ["--workers", "2", "--out-format", "jsonl"], "--out-format, --workers only go"),
        ("judge", ["--dry-run", "--out", "o"], "--out only goes with --ray"),
    ],
)
def test_ray_flags_without_ray_are_refused_not_ignored(
    command: str,
    extra: list[str],
    named: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = [command, str(_cases(tmp_path / "c.jsonl")), *extra]
    if command == "judge":
        args += ["--base-url", "http://127.0.0.1:9/v1", "--model", "m"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert named in err
    assert "without --ray the results are printed" in err
    assert not (tmp_path / "o").exists()


def test_check_quiet_prints_no_summary_but_still_the_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "c.jsonl"
    path.write_text(json.dumps(GOOD) + "\n{not json\n", encoding="utf-8")
    assert main(["check", str(path), "-q"]) == 2
    err = capsys.readouterr().err
    assert "line 2: invalid JSON" in err  # an error is still shown
    assert "checked," not in err  # the summary is not (-q: "no summary")
    assert main(["check", str(path)]) == 2
    assert "1 checked, 1 grounded, 0 not grounded, 1 unusable line" in capsys.readouterr().err


def test_every_fraction_flag_takes_a_percentage(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    parser = build_parser()
    assert parser.parse_args(["gate", "r", "--baseline", "b", "--tolerance", "5%"]).tolerance == (
        pytest.approx(0.05)
    )
    assert parser.parse_args(["gate", "r", "--baseline", "b", "--max-unscored", "5%"]).max_unscored
    run = parser.parse_args(
        ["study", "run", "--corpus", "c", "--out", "o", "--threshold", "support=90%"]
    )
    assert run.threshold == [("support", pytest.approx(0.9))]
    cases = _cases(tmp_path / "c.jsonl")
    assert main(["check", str(cases), "--fail-under", "deterministic=100%"]) == 0
    with pytest.raises(SystemExit):
        parser.parse_args(["gate", "r", "--baseline", "b", "--tolerance", "120%"])
    assert "--tolerance expects a fraction in [0, 1] (e.g. 0.05 or 5%)" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("command", "said"),
    [
        ("check", "interrupted; no file was left half-written; rerun the same command."),
        ("judge", "interrupted; finished model calls are cached, rerun the same command"),
    ],
)
def test_ctrl_c_says_what_a_rerun_gets(
    command: str,
    said: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import hybridjudge.corpus

    def interrupt(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(hybridjudge.corpus, "read_cases", interrupt)  # Ctrl-C while reading
    args = [command, str(_cases(tmp_path / "c.jsonl"))]
    if command == "judge":
        args += ["--base-url", "http://127.0.0.1:9/v1", "--model", "m"]
    assert main(args) == 130
    err = capsys.readouterr().err
    assert f"hybridjudge {command}: {said}" in err
    if command == "check":
        assert "model calls" not in err  # check makes none


@pytest.mark.parametrize("command", ["check", "judge"])
def test_repeated_case_ids_are_warned_about(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "c.jsonl"
    other = {**GOOD, "id": "other"}
    path.write_text("".join(json.dumps(x) + "\n" for x in (GOOD, other, GOOD)), encoding="utf-8")
    args = [command, str(path)]
    if command == "judge":
        args += ["--dry-run", "--base-url", "http://127.0.0.1:9/v1", "--model", "m"]
    assert main(args) == 0  # a warning, not an error: a log may repeat an id on purpose
    err = capsys.readouterr().err
    assert f"hybridjudge {command}: warning: 1 case id(s) appear more than once ('good' on " in err
    assert "lines 1, 3)" in err
    assert main([*args, "-q"]) == 0
    assert "warning" not in capsys.readouterr().err
