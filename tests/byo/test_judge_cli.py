"""``hybridjudge judge`` on users' formats: --fail-under, --dry-run, metadata in --json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hybridjudge.cli import main
from hybridjudge.corpus import import_corpus
from hybridjudge.judges import claims_token_budget, verdicts_token_budget
from hybridjudge.mutations import load_mutations
from tests.byo._judge import TextJudge
from tests.byo._records import ragas_records
from tests.support.openai_server import FakeOpenAIServer

CONTEXT = "Customers may request a full refund within 30 days of purchase."
FAITHFUL = CONTEXT
HALF = CONTEXT + " Shipping is always free."  # 1 of 2 claims faithful: support 0.5


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
    # by hand: 2 answers x 3 repetitions x (1 claims + 2 verdict calls) = 18 calls; completion
    # budgets: claims_token_budget(answer) + 2 x verdicts_token_budget(sentences)
    budget = 3 * (
        claims_token_budget(FAITHFUL)
        + 2 * verdicts_token_budget(1)
        + claims_token_budget(HALF)
        + 2 * verdicts_token_budget(2)
    )
    assert "6 evaluation(s) on fake-model (openai): at most 18 model call(s)" in out
    assert f"at most {budget:,} completion token(s)" in out
    assert "No request was made." in out
    shared = main([*argv, "--mode", "shared", "--scorers", "support,contradiction"])
    assert shared == 0
    assert "at most 4 model call(s)" in capsys.readouterr().out  # 2 x (claims + 1 shared)
    # no price known: the estimate says so instead of $0
    unpriced = [a for a in argv if a not in ("--price-in", "--price-out", "1", "2")]
    assert main(unpriced) == 0
    assert "cost at most unknown price" in capsys.readouterr().out
    assert openai_server.request_count == 0


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
    # by hand: every output judged twice, each time 1 claims call + 2 verdict calls
    assert f"{2 * outputs} evaluation(s) on fake-model (openai): at most {6 * outputs} model" in out
    assert openai_server.request_count == 0
    assert not (tmp_path / "results" / "study.json").exists()
