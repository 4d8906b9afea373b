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


def test_fail_under_compares_each_scorers_mean_score(
    openai_server: FakeOpenAIServer,
    scripted: TextJudge,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    cases = _ragas(tmp_path / "rag.jsonl")
    flags = _flags(openai_server, tmp_path)
    # by hand: support scores 1.0 and 0.5, mean 0.75; contradiction likewise
    assert main(["judge", str(cases), *flags, "--fail-under", "support=0.75"]) == 0
    assert main(["judge", str(cases), *flags, "--fail-under", "support=0.8"]) == 1
    err = capsys.readouterr().err
    assert "FAIL support: mean score 0.750 over 2 scored result(s) is below --fail-under 0.8" in err
    assert "FAIL contradiction" not in err
    code = main(["judge", str(cases), *flags, "--fail-under", "support=0.5,contradiction=0.9"])
    assert code == 1
    assert "FAIL contradiction: mean score 0.750" in capsys.readouterr().err
    assert main(["judge", str(cases), *flags, "--fail-under", "deterministic=0.5"]) == 2


def test_json_lines_carry_the_records_metadata(
    openai_server: FakeOpenAIServer,
    scripted: TextJudge,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    cases = _ragas(tmp_path / "rag.jsonl")
    assert main(["judge", str(cases), *_flags(openai_server, tmp_path), "--json"]) == 0
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


def test_dry_run_names_the_records_a_run_would_refuse(
    openai_server: FakeOpenAIServer,
    scripted: TextJudge,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A record with an empty context is refused by the judges (record_error, no model call):
    the dry run names it, leaves it out of the estimate and exits as the run would."""
    cases = _ragas(tmp_path / "rag.jsonl")
    empty = {"user_input": "Refunds?", "response": HALF, "retrieved_contexts": [" "]}
    with cases.open("a", encoding="utf-8") as f:
        f.write(json.dumps(empty) + "\n")
    argv = ["judge", str(cases), *_flags(openai_server, tmp_path)]
    # by default no result may be unscored: the dry run and the run both exit 3 (incomplete)
    assert main([*argv, "--dry-run"]) == 3
    captured = capsys.readouterr()
    assert openai_server.request_count == 0
    assert (
        "hybridjudge judge --dry-run: line 3: would not be judged (record_error): context is empty"
        in (captured.err)
    )
    assert "support: 1 of 3 result(s) unscored" in captured.err
    # the estimate counts the 3 evaluations but only the 2 judgeable records' 3 claims x 3 calls
    assert "3 evaluation(s) on fake-model (openai): at most 9 model call(s)" in captured.out
    assert main(argv) == 3
    run = capsys.readouterr()
    assert "support: 1 of 3 result(s) unscored" in run.err
    # allowing a share of unscored results, both pass (1 of 3 is within 0.4)
    assert main([*argv, "--dry-run", "--max-unscored", "0.4"]) == 0
    assert "line 3: would not be judged" in capsys.readouterr().err
    assert main([*argv, "--max-unscored", "0.4"]) == 0
    capsys.readouterr()
    # with --json, the refused record is in the estimate object
    assert main([*argv, "--dry-run", "--json", "--max-unscored", "0.4"]) == 0
    estimate = json.loads(capsys.readouterr().out)
    assert [r["index"] for r in estimate["refused"]] == [2]
    assert estimate["refused"][0]["error"].startswith("context is empty")


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


def test_study_run_dry_run_names_outputs_a_run_would_refuse(
    openai_server: FakeOpenAIServer,
    scripted: TextJudge,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    records = ragas_records()[:3]
    records[1]["retrieved_contexts"] = [""]  # retrieval found nothing
    import_corpus(records, tmp_path / "shop")
    empty_id = records[1]["id"]
    argv = ["study", "run", "--corpus", str(tmp_path / "shop"), "--scorers", "support"]
    argv += ["--out", str(tmp_path / "results"), *_flags(openai_server, tmp_path)]
    assert main([*argv, "--dry-run"]) == 3
    err = capsys.readouterr().err
    assert f"(case {empty_id!r}): would not be judged (record_error): context is empty" in err
    assert "support: 1 of 3 result(s) unscored" in err
    assert openai_server.request_count == 0
    # the run agrees: one record_error out of three, exit 3 after writing its reports
    assert main(argv) == 3
    assert "support: 1 of 3 result(s) unscored" in capsys.readouterr().err
    assert main([*argv, "--dry-run", "--max-unscored", "0.5"]) == 0
