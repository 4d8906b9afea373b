"""``hybridjudge check --ray`` and ``hybridjudge judge --ray``: Parquet and JSONL folders in and out,
on the session's local Ray cluster (the CLI connects to it instead of starting another)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hybridjudge.cli import main
from hybridjudge.corpus import read_cases
from hybridjudge.grounding import check_grounding
from tests.dist.helpers import ScriptedJudge, make_records
from tests.support.openai_server import FakeOpenAIServer, RecordedRequest, Step

ray = pytest.importorskip("ray")
pq = pytest.importorskip("pyarrow.parquet")
pytestmark = [
    pytest.mark.usefixtures("ray_cluster"),
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
]


def expected_grounded(records: list[dict[str, Any]]) -> dict[str, bool]:
    out = {}
    for item in read_cases(records):
        assert item.case is not None
        case = item.case
        out[case.id] = check_grounding(case.answer, case.context, question=case.question).grounded
    return out


def read_jsonl_folder(folder: Path) -> list[dict[str, Any]]:
    rows = []
    for path in sorted(folder.glob("*.json*")):
        rows += [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return rows


def test_check_ray_reads_a_parquet_folder_and_writes_parquet(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import pyarrow as pa

    records = [r for r in make_records(300) if "response" in r]  # the RAGAS family only
    source = tmp_path / "logs"
    source.mkdir()
    half = len(records) // 2
    pq.write_table(pa.Table.from_pylist(records[:half]), source / "part-0.parquet")
    pq.write_table(pa.Table.from_pylist(records[half:]), source / "part-1.parquet")
    out = tmp_path / "checked"

    code = main(["check", str(source), "--ray", "--out", str(out)])
    expected = expected_grounded(records)
    assert code == (0 if all(expected.values()) else 1)
    table = pq.read_table(out)
    assert table.num_rows == len(records)
    rows = {row["case_id"]: row for row in table.to_pylist()}  # the input columns stay
    assert {case_id: row["grounded"] for case_id, row in rows.items()} == expected
    assert "results in" in capsys.readouterr().err


def test_check_ray_on_jsonl_reports_a_bad_line_and_checks_the_others(tmp_path: Path) -> None:
    records = make_records(50)
    source = tmp_path / "cases.jsonl"
    lines = [json.dumps(r) for r in records]
    lines.insert(10, "{not json")
    source.write_text("\n".join(lines) + "\n")
    out = tmp_path / "checked"

    assert main(["check", str(source), "--ray", "--out", str(out)]) == 2
    rows = read_jsonl_folder(out)
    assert len(rows) == 51
    bad = [row for row in rows if row["error"] is not None]
    assert len(bad) == 1
    assert "invalid JSON" in bad[0]["error"]
    expected = expected_grounded(records)
    assert {row["id"]: row["grounded"] for row in rows if row["error"] is None} == expected


def test_check_ray_refuses_a_non_empty_out_folder_before_any_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "cases.jsonl"
    source.write_text(json.dumps(make_records(1)[0]) + "\n")
    out = tmp_path / "out"
    out.mkdir()
    (out / "old.txt").write_text("keep me")
    assert main(["check", str(source), "--ray", "--out", str(out)]) == 2
    assert "not an empty folder" in capsys.readouterr().err
    assert (out / "old.txt").read_text() == "keep me"


def test_judge_ray_writes_the_single_process_scores(
    openai_server: FakeOpenAIServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from hybridjudge.judges import judge_many
    from hybridjudge.model import ModelConfig

    openai_server.respond_with(ScriptedJudge())
    records = make_records(40)
    source = tmp_path / "cases.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records))
    out = tmp_path / "judged"
    cache = tmp_path / "cache"
    monkeypatch.setenv("HYBRIDJUDGE_TEST_API_KEY", "sk-test")
    args = [
        "judge", str(source), "--ray", "--out", str(out), "--mode", "shared",
        "--base-url", openai_server.base_url, "--model", "fake-model",
        "--api-key-env", "HYBRIDJUDGE_TEST_API_KEY", "--price-in", "1", "--price-out", "2",
        "--cache-dir", str(cache), "--concurrency", "4",
    ]  # fmt: skip
    code = main(args)
    sent = openai_server.request_count
    rows = {row["id"]: row for row in read_jsonl_folder(out)}
    assert len(rows) == 40
    # the rule without --ray: an output below the default --threshold 1.0 fails the run
    below = sum(
        row[f"{n}_score"] < 1.0 for row in rows.values() for n in ("support", "contradiction")
    )
    assert below > 0
    assert code == 1
    # --fail-under with --ray (before: refused, exit 2): the share of outputs that pass
    lenient = [a if a != str(out) else str(tmp_path / "judged-0") for a in args]
    assert main([*lenient, "--fail-under", "support=0,contradiction=0"]) == 0

    mapped = []
    for item in read_cases(records):
        assert item.case is not None
        c = item.case
        mapped.append(
            {"id": c.id, "answer": c.answer, "context": c.context, "question": c.question}
        )
    config = ModelConfig(
        backend="openai",
        base_url=openai_server.base_url,
        model="fake-model",
        api_key_env="HYBRIDJUDGE_TEST_API_KEY",
        price_input_per_mtok=1.0,
        price_output_per_mtok=2.0,
        cache_dir=cache,
    )
    batch = judge_many(mapped, mode="shared", config=config)
    assert openai_server.request_count == sent  # the same cache, every reply a hit
    for outcome in batch.outcomes:
        for name in ("support", "contradiction"):
            assert rows[outcome.id][f"{name}_score"] == outcome.results[name].score


def _judge_args(
    source: Path, out: Path, server: FakeOpenAIServer, cache: Path, *extra: str
) -> list[str]:
    return [
        "judge", str(source), "--ray", "--out", str(out), "--mode", "shared",
        "--base-url", server.base_url, "--model", "fake-model",
        "--api-key-env", "HYBRIDJUDGE_TEST_API_KEY", "--cache-dir", str(cache), *extra,
    ]  # fmt: skip


def test_judge_ray_fails_closed_when_the_judges_could_not_score(
    openai_server: FakeOpenAIServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Unreadable replies for one record's questions: its results are unscored, so the run is
    incomplete (exit 3), as without --ray; a --max-unscored above that share accepts it, one
    below it does not. An unknown price (no --price-in) is printed as an
    unknown cost, not summed."""
    from tests.support.openai_server import reply

    scripted = ScriptedJudge()

    def responder(request: RecordedRequest) -> Step:
        # the question and its repair (the conversation repeats the statement)
        if "within 0 days" in json.dumps(request.messages):
            return reply("I would say so, mostly.")
        return scripted(request)

    openai_server.respond_with(responder)
    records = make_records(10)
    source = tmp_path / "cases.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records))
    monkeypatch.setenv("HYBRIDJUDGE_TEST_API_KEY", "sk-test")
    cache = tmp_path / "cache"

    code = main(_judge_args(source, tmp_path / "judged", openai_server, cache))
    err = capsys.readouterr().err
    assert code == 3, err
    rows = read_jsonl_folder(tmp_path / "judged")
    assert len(rows) == 10
    by_id = {row["id"]: row for row in rows}
    statuses = [row[f"{name}_status"] for row in rows for name in ("support", "contradiction")]
    unscored = statuses.count("unscored")
    assert {by_id["rec-0"]["support_status"], by_id["rec-0"]["contradiction_status"]} == {
        "unscored"
    }
    assert unscored == 2  # only rec-0's questions were unreadable
    assert f"{unscored} of {len(statuses)} results unscored" in err
    assert "costing unknown" in err
    for name in ("support", "contradiction"):  # each scorer is held to the threshold
        assert f"judge: {name}: 1 of 10 result(s) unscored (above --max-unscored 0)" in err

    share = 1 / 10  # per scorer (pooled, 2 of 20 would be the same share here)
    # every scored output passes at threshold 0: only the unscored share decides
    passing = ["--threshold", "support=0", "--threshold", "contradiction=0"]
    args = _judge_args(source, tmp_path / "judged-2", openai_server, cache, *passing)
    assert main([*args, "--max-unscored", f"{share + 0.01:.2f}"]) == 0
    args = _judge_args(source, tmp_path / "judged-3", openai_server, cache)
    assert main([*args, "--max-unscored", f"{share - 0.01:.2f}"]) == 3
