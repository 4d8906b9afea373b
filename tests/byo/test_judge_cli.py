"""``hybridjudge judge`` on users' formats: --fail-under, --dry-run, metadata in --json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hybridjudge.cli import main
from hybridjudge.corpus import import_corpus, load_corpus
from hybridjudge.judges import SCORERS, planned_calls
from hybridjudge.mutations import load_mutations
from tests.byo._judge import TextJudge
from tests.byo._records import ragas_records
from tests.support.openai_server import FakeOpenAIServer

CONTEXT = "Customers may request a full refund within 30 days of purchase."
FAITHFUL = CONTEXT
# 1 of 2 claims faithful: support 0.5. The unfaithful one shares a word with the context and has
# more than five words, so both questions are asked about it (a claim sharing no word with the
# context, or a bare answer of five words or fewer, is not asked the contradiction question)
HALF = CONTEXT + " Refunds take 90 days to arrive."


@pytest.fixture
def scripted(openai_server: FakeOpenAIServer) -> TextJudge:
    responder = TextJudge([CONTEXT])
    openai_server.respond_with(responder)
    return responder


def _ragas(path: Path) -> Path:
    rows = [
        {"user_input": "Refunds?", "response": FAITHFUL, "retrieved_contexts": [CONTEXT]},
        {
            "user_input": "Refunds?",
            "response": HALF,
            "retrieved_contexts": [CONTEXT],
            "trace_id": "t-2",
        },
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _flags(server: FakeOpenAIServer, tmp_path: Path) -> list[str]:
    return [
        "--base-url",
        server.base_url,
        "--model",
        "fake-model",
        "--price-in",
        "1",
        "--price-out",
        "2",
        "--cache-dir",
        str(tmp_path / "cache"),
    ]


def test_fail_under_is_the_share_of_outputs_that_pass(
    openai_server: FakeOpenAIServer,
    scripted: TextJudge,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """One meaning of --fail-under everywhere: the share of usable outputs that pass (for a
    judge, a score at or above --threshold, default 1.0). Before, judge compared the mean
    score, and exited 0 whatever the scores without --fail-under."""
    cases = _ragas(tmp_path / "rag.jsonl")
    flags = _flags(openai_server, tmp_path)
    # by hand: support scores 1.0 and 0.5, contradiction likewise. At the default threshold
    # 1.0, one of the two outputs passes each scorer: a share of 0.5 (the mean, 0.75, would
    # hide the failing answer)
    assert main(["judge", str(cases), *flags]) == 1  # before: 0
    err = capsys.readouterr().err
    assert (
        "FAIL support: 1 of 2 usable output(s) fail (pass: score at or above --threshold 1)" in err
    )
    assert "FAIL contradiction: 1 of 2 usable output(s) fail" in err
    assert err.count("so every output must pass; failing: 'record-2'") == 2  # which one
    assert main(["judge", str(cases), *flags, "--fail-under", "support=0.75"]) == 1  # before: 0
    err = capsys.readouterr().err
    assert (
        "FAIL support: 1 of 2 usable output(s) pass (pass: score at or above --threshold 1), a "
        "share of 0.500, below --fail-under 0.75" in err
    )
    both = "support=0.5,contradiction=50%"
    assert main(["judge", str(cases), *flags, "--fail-under", both]) == 0
    assert "FAIL" not in capsys.readouterr().err
    # --threshold sets what passing means: at 0.5 both outputs pass every scorer
    halves = ["--threshold", "support=0.5", "--threshold", "contradiction=50%"]
    assert main(["judge", str(cases), *flags, *halves]) == 0
    assert main(["judge", str(cases), *flags, "--threshold", "support=0.6"]) == 1
    capsys.readouterr()
    assert main(["judge", str(cases), *flags, "--fail-under", "deterministic=0.5"]) == 2
    assert main(["judge", str(cases), *flags, "--threshold", "deterministic=0.5"]) == 2
    assert "--threshold 'deterministic=0.5': unknown scorer" in capsys.readouterr().err
    with pytest.raises(SystemExit) as refused:  # argparse: not a fraction
        main(["judge", str(cases), *flags, "--threshold", "support=2"])
    assert refused.value.code == 2


def test_json_lines_carry_the_records_metadata(
    openai_server: FakeOpenAIServer,
    scripted: TextJudge,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    cases = _ragas(tmp_path / "rag.jsonl")
    assert main(["judge", str(cases), *_flags(openai_server, tmp_path), "--json"]) == 1
    first, second = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert first["metadata"] == {}
    assert second["metadata"] == {"trace_id": "t-2"}
    assert second["results"]["support"]["score"] == 0.5


def test_dry_run_estimates_without_any_request(
    openai_server: FakeOpenAIServer,
    scripted: TextJudge,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    cases = _ragas(tmp_path / "rag.jsonl")
    argv = ["judge", str(cases), *_flags(openai_server, tmp_path), "--dry-run"]
    assert main([*argv, "--repetitions", "3"]) == 0
    out = capsys.readouterr().out
    assert openai_server.request_count == 0
    # by hand: claims are sentences; FAITHFUL has 1, HALF 2. So 3 claims x 3 questions
    # (support, its pointing second look, which an upper bound counts; contradiction, with no
    # second look: no negation) x 3 repetitions = 27 calls; completion budgets: 9 support
    # calls x 96 + 9 pointing calls x 32 + 9 contradiction calls x 12 tokens
    budget = 9 * SCORERS["support"].max_tokens + 9 * 32 + 9 * SCORERS["contradiction"].max_tokens
    assert "6 evaluation(s) on fake-model (openai): at most 27 model call(s)" in out
    assert f"at most {budget:,} completion token(s)" in out
    assert "No request was made." in out
    shared = main([*argv, "--mode", "shared", "--scorers", "support,contradiction"])
    assert shared == 0
    assert "at most 3 model call(s)" in capsys.readouterr().out  # 3 claims x 1 shared call
    # no price known: the estimate says so instead of $0
    unpriced = [a for a in argv if a not in ("--price-in", "--price-out", "1", "2")]
    assert main(unpriced) == 0
    assert "cost at most unknown price" in capsys.readouterr().out
    # with --json, the same estimate as one JSON object on stdout (it printed plain text)
    assert main([*argv, "--repetitions", "3", "--json"]) == 0
    estimate = json.loads(capsys.readouterr().out)
    assert estimate == {
        "dry_run": True,
        "model": "fake-model",
        "backend": "openai",
        "backend_installed": True,
        "evaluations": 6,
        "calls": 27,
        "prompt_tokens": estimate["prompt_tokens"],
        "completion_tokens": budget,
        "cost_usd": estimate["cost_usd"],
        "max_cost_usd": None,  # no --max-cost
        "worst_case_usd": estimate["worst_case_usd"],
        "refused": [],
    }
    assert estimate["worst_case_usd"] > estimate["cost_usd"]  # every byte a token: above
    assert estimate["cost_usd"] > 0  # priced by _flags' --price-in/--price-out
    assert openai_server.request_count == 0


def test_an_empty_context_is_one_outcome_for_check_judge_and_the_dry_run(
    openai_server: FakeOpenAIServer,
    scripted: TextJudge,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """An answer asserting facts against an empty context: a no_context finding of the checks,
    0.0 from every judge without a call (a failing output, exit 1), never an unscored
    record_error that makes the run incomplete (before: exit 3 under --max-unscored 0)."""
    cases = _ragas(tmp_path / "rag.jsonl")
    empty = {"user_input": "Refunds?", "response": HALF, "retrieved_contexts": [" "]}
    with cases.open("a", encoding="utf-8") as f:
        f.write(json.dumps(empty) + "\n")
    argv = ["judge", str(cases), *_flags(openai_server, tmp_path)]
    assert main([*argv, "--dry-run"]) == 0  # before: 3
    captured = capsys.readouterr()
    assert openai_server.request_count == 0
    assert "would not be judged" not in captured.err
    # the empty-context record needs no call: only the 2 others' 3 claims x 3 calls
    assert "3 evaluation(s) on fake-model (openai): at most 9 model call(s)" in captured.out
    assert main([*argv, "--json", "--fail-under", "support=0.3,contradiction=0.3"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    third = lines[2]["results"]
    assert [third[n]["score"] for n in ("support", "contradiction")] == [0.0, 0.0]
    assert {v["label"] for v in third["support"]["verdicts"]} == {"no_context"}
    assert main([*argv, "--json"]) == 1  # it fails; it is not unscored (that would be 3)
    capsys.readouterr()
    assert main(["check", str(cases), "--json"]) == 1
    checked = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert next(f["kind"] for f in checked[2]["findings"]) == "no_context"
    # an abstention with no context is right, for both
    abstain = {"user_input": "Refunds?", "response": "The context does not say.", "contexts": []}
    only = tmp_path / "abstain.jsonl"
    only.write_text(json.dumps(abstain) + "\n", encoding="utf-8")
    assert main(["check", str(only)]) == 0
    assert main(["judge", str(only), *_flags(openai_server, tmp_path)]) == 0


def test_study_run_dry_run_makes_no_request(
    openai_server: FakeOpenAIServer,
    scripted: TextJudge,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import_corpus(ragas_records(), tmp_path / "shop")
    mutations = tmp_path / "shop.jsonl"
    assert (
        main(["mutate", str(tmp_path / "shop"), "--mutation-seed", "0", "--out", str(mutations)])
        == 0
    )
    outputs = 14 + len(load_mutations(mutations).outputs)
    capsys.readouterr()
    argv = ["study", "run", "--corpus", str(tmp_path / "shop"), "--mutations", str(mutations)]
    argv += ["--scorers", "deterministic,support,contradiction", "--repetitions", "2"]
    argv += ["--out", str(tmp_path / "results"), "--dry-run", *_flags(openai_server, tmp_path)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    # every output judged twice; per judging, the verdict calls the judges can make for it
    # (planned_calls: one per claim and question, claims being the answer's sentences)
    corpus = load_corpus(tmp_path / "shop")
    texts = [(o.text, o.case_id) for o in [*corpus.outputs, *load_mutations(mutations).outputs]]
    per_run = sum(
        len(planned_calls(text, corpus.cases[case].context, corpus.cases[case].question))
        for text, case in texts
    )
    # at most 3 calls per sentence (support, contradiction and its second look), and at least
    # the 2 questions on the shortest answers
    assert 2 * outputs <= per_run <= 3 * sum(len(text.split(". ")) for text, _ in texts)
    expected = f"{2 * outputs} evaluation(s) on fake-model (openai): at most {2 * per_run} model"
    assert expected in out
    assert openai_server.request_count == 0
    assert not (tmp_path / "results" / "study.json").exists()


def test_study_run_with_nothing_to_measure_exits_2(
    openai_server: FakeOpenAIServer,
    scripted: TextJudge,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """No --mutations and no labelled answer: before, exit 0 with an empty detection table."""
    records = ragas_records()[:3]
    records[1]["retrieved_contexts"] = [""]  # retrieval found nothing
    import_corpus(records, tmp_path / "shop")
    argv = ["study", "run", "--corpus", str(tmp_path / "shop"), "--scorers", "support"]
    argv += ["--out", str(tmp_path / "results"), *_flags(openai_server, tmp_path)]
    for extra in ([], ["--dry-run"]):
        assert main([*argv, *extra]) == 2
        err = capsys.readouterr().err
        assert "error [nothing_to_measure]: nothing to measure" in err
        assert "--mutations" in err
        assert "label" in err
    assert openai_server.request_count == 0
    assert not (tmp_path / "results" / "study.json").exists()
    # with mutants, the empty-context case is measured, never refused (no record_error)
    mutations = tmp_path / "shop.jsonl"
    assert (
        main(["mutate", str(tmp_path / "shop"), "--mutation-seed", "0", "--out", str(mutations)])
        == 0
    )
    assert main([*argv, "--mutations", str(mutations), "--dry-run"]) == 0
    assert "record_error" not in capsys.readouterr().err
