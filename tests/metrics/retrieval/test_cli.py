"""``hybridjudge retrieval eval`` through ``hybridjudge.cli.main``.

Golden means: trec_eval's summary file out.test (``trec_eval qrels.test results.test``):
map 0.1785, recip_rank 0.4064, P_10 0.3000.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from hybridjudge.cli import main

DATA = Path(__file__).resolve().parents[2] / "data" / "trec_eval"
TREC = ["--qrels", str(DATA / "qrels.test"), "--run", str(DATA / "results.test")]


def test_json_output_matches_trec_eval_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["retrieval", "eval", *TREC, "--metrics", "map,recip_rank", "P_10",
                 "--json", "--resamples", "200", "--bootstrap-seed", "3"])  # fmt: skip
    assert code == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["format_version"] == 1
    assert payload["kind"] == "hybridjudge.retrieval.eval"
    means = {s["metric"]: round(s["mean"], 4) for s in payload["summary"]}
    assert means == {"map": 0.1785, "mrr": 0.4064, "p@10": 0.3}
    for summary in payload["summary"]:
        assert summary["ci_low"] <= summary["mean"] <= summary["ci_high"]
        assert summary["seed"] == 3
        assert summary["n_resamples"] == 200
    per_query = payload["result"]["per_query"]
    assert payload["result"]["query_ids"] == ["301", "302", "303"]
    # out.test.aq per-query map: 0.0324, 0.4175, 0.0858
    assert [round(v, 4) for v in per_query["map"]] == [0.0324, 0.4175, 0.0858]


def test_report_card_lists_metrics_ci_and_worst(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["retrieval", "eval", *TREC, "--metrics", "ndcg@10", "map",
                 "--resamples", "100", "--worst", "2"]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "Retrieval report card" in out
    assert "3 queries" in out
    assert "0.3016" in out  # ndcg_cut_10 'all' in out.test.aq
    assert "95% CI" in out
    assert "seed 0" in out
    assert "Worst 2 queries by ndcg@10" in out
    worst_table = out[out.index("Worst 2") :]
    assert "303" in worst_table
    assert "301" in worst_table
    assert "302" not in worst_table


def test_seeded_intervals_repeat(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["retrieval", "eval", *TREC, "--metrics", "map", "--json", "--resamples", "100"]
    main(args)
    first = json.loads(capsys.readouterr().out)["summary"]
    main(args)
    assert json.loads(capsys.readouterr().out)["summary"] == first


def test_cases_with_retriever_and_with_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = tmp_path / "eval_cases.json"
    cases.write_text(json.dumps([
        {"id": "c1", "question": "Where is the index built?",
         "expected_paths": ["src/build_index.py"]},
        {"id": "c2", "question": "Which module is shared?", "expected_paths": ["src/rag_common.py"]},
    ]))  # fmt: skip
    (tmp_path / "toy_retriever_cli.py").write_text(
        "def search(question):\n"
        "    return ['src/build_index.py', 'src/rag_common.py', 'src/rag_chat.py']\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.delitem(sys.modules, "toy_retriever_cli", raising=False)
    code = main(["retrieval", "eval", "--cases", str(cases), "--retriever",
                 "toy_retriever_cli:search", "--metrics", "mrr,hit@1,p@3", "--json",
                 "--resamples", "100"])  # fmt: skip
    assert code == 0
    result = json.loads(capsys.readouterr().out)["result"]
    # c1 found at rank 1, c2 at rank 2 (hand computed); P@3 = 1/3 each
    assert result["per_query"]["mrr"] == [1.0, 0.5]
    assert result["per_query"]["hit@1"] == [1.0, 0.0]
    assert result["means"]["p@3"] == pytest.approx(1 / 3)

    run = tmp_path / "run.jsonl"
    run.write_text(
        json.dumps({"qid": "c1", "docs": [{"path": "src/x.py"}, {"path": "src/build_index.py"}]})
        + "\n"
    )
    assert main(["retrieval", "eval", "--cases", str(cases), "--run", str(run),
                 "--metrics", "mrr", "--resamples", "100"]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "Which module is shared?" not in out.split("Worst")[0]
    assert "1 qrels queries missing from the run, skipped" in out
    assert "c2" in out


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--metrics", "ndcg@0"], "cutoff k=0"),
        (["--metrics", "bleu"], "unknown metric 'bleu'"),
        (["--relevance-level", "0"], "relevance_level=0"),
        (["--resamples", "5"], "n_resamples=5"),
    ],
)
def test_bad_input_exits_2_with_message(
    extra: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["retrieval", "eval", *TREC, *extra]) == 2
    assert message in capsys.readouterr().err


def test_retriever_without_cases_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["retrieval", "eval", "--qrels", str(DATA / "qrels.test"),
                 "--retriever", "json:loads"])  # fmt: skip
    assert code == 2
    assert "--retriever needs --cases" in capsys.readouterr().err


def test_duplicate_in_run_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = tmp_path / "run.txt"
    run.write_text("301 Q0 a 1 1.0 t\n301 Q0 a 2 0.5 t\n")
    assert main(["retrieval", "eval", "--qrels", str(DATA / "qrels.test"),
                 "--run", str(run)]) == 2  # fmt: skip
    err = capsys.readouterr().err
    assert "run.txt, line 2" in err
    assert "retrieved twice" in err
