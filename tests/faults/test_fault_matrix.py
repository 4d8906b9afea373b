"""Fault-injection matrix (issue 10): every per-output fault, for ``judge`` and ``study run``.

Each fault hits every request about one output (the victim) on the real scripted server on
127.0.0.1. Asserted for each: the run finishes; the victim is unscored for every judge with the
right reason and its cause named; the other outputs are scored; nothing failed was cached; the
exit code is the documented 3 (incomplete: unscored share above --max-unscored 0); and a rerun
after the fault clears completes with exactly the victim's missing calls (counted at the server)
and exits 0. The planted API key appears in no output stream or file.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hybridjudge.cli import main
from hybridjudge.cli._exit import EXIT_INCOMPLETE, EXIT_OK, EXIT_USAGE
from tests.faults._support import (
    ALL_PASS,
    CALLS_PER_OUTPUT,
    FAULTS,
    KEY,
    KEY_ENV,
    QUOTES,
    TEXTS,
    VICTIM,
    Fault,
    FaultyJudge,
    fast_backoff,
    files_containing,
    model_args,
    run_study,
    write_cases,
    write_corpus,
)
from tests.support.openai_server import FakeOpenAIServer, RecordedRequest, Step, http_error

JUDGES = ("support", "contradiction")
RETRIED = {"http429", "http500", "trickling_bytes", "never_answering"}


@pytest.fixture(autouse=True)
def _env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (
        "HYBRIDJUDGE_BACKEND",
        "HYBRIDJUDGE_BASE_URL",
        "HYBRIDJUDGE_MODEL",
        "OPENAI_BASE_URL",
        "OPENAI_API_KEY",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv(KEY_ENV, KEY)
    fast_backoff(monkeypatch)


def _judge_records(out: str) -> dict[str, dict[str, dict[str, object]]]:
    records = [json.loads(line) for line in out.splitlines() if line.strip()]
    return {r["id"]: r["results"] for r in records}


@pytest.mark.parametrize("fault", FAULTS, ids=lambda f: f.name)
def test_judge_survives_the_fault_and_a_rerun_completes_it(
    fault: Fault,
    openai_server: FakeOpenAIServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    judge = FaultyJudge(fault=fault.step)
    openai_server.respond_with(judge)
    cases = write_cases(tmp_path / "cases.jsonl")
    cache = tmp_path / "cache"
    argv = ["judge", str(cases), "--json", *ALL_PASS, *model_args(openai_server.base_url, cache)]

    code = main(argv)
    out, err = capsys.readouterr()
    assert code == EXIT_INCOMPLETE, err
    results = _judge_records(out)
    assert set(results) == set(TEXTS)  # the run finished: every case has its line
    for name in JUDGES:
        victim = results[VICTIM][name]
        assert victim["status"] == "unscored"
        assert victim["unscored_reason"] == fault.reason
        detail = json.dumps(victim["detail"])
        assert fault.in_detail in detail, detail
        for oid in set(TEXTS) - {VICTIM}:
            assert results[oid][name]["status"] == "scored"
    assert judge.victim_requests >= 1
    if fault.name in RETRIED:  # each retry was logged on stderr as it happened: every
        # request about the victim but the first attempt of each of its calls
        assert err.count("retrying in") == judge.victim_requests - CALLS_PER_OUTPUT, err
    assert KEY not in out + err
    assert openai_server.requests[0].headers["authorization"] == f"Bearer {KEY}"

    # the fault clears: the rerun sends exactly the victim's calls, the rest is cached
    judge.fault = None
    before = openai_server.request_count
    judge.by_output.clear()
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == EXIT_OK, err
    assert openai_server.request_count - before == CALLS_PER_OUTPUT
    assert judge.by_output == {VICTIM: CALLS_PER_OUTPUT}
    results = _judge_records(out)
    assert all(results[oid][n]["status"] == "scored" for oid in TEXTS for n in JUDGES)
    assert files_containing(tmp_path, KEY) == []


@pytest.mark.parametrize("fault", FAULTS, ids=lambda f: f.name)
def test_study_survives_the_fault_and_a_rerun_completes_it(
    fault: Fault,
    openai_server: FakeOpenAIServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    judge = FaultyJudge(fault=fault.step)
    openai_server.respond_with(judge)
    corpus = write_corpus(tmp_path / "toy")
    out_dir = tmp_path / "results"
    code = run_study(corpus, openai_server.base_url, out_dir, tmp_path)
    out, err = capsys.readouterr()
    assert code == EXIT_INCOMPLETE, err
    study = json.loads((out_dir / "study.json").read_text(encoding="utf-8"))
    observations = {(o["output_id"], o["scorer"]): o for o in study["observations"]}
    for name in JUDGES:
        victim = observations[(VICTIM, name)]
        assert victim["status"] == "unscored"
        assert victim["unscored_reason"] == fault.reason
        assert fault.in_detail in (victim["detail"] or "")
        for oid in set(TEXTS) - {VICTIM}:
            assert observations[(oid, name)]["status"] == "scored"
    # the victim's clean base is unscored, so it is out of the false-alarm denominator
    fa = {r["scorer"]: r for r in study["analysis"]["false_alarms"]}
    assert (fa["support"]["n"], fa["support"]["unscored"]) == (1, 1)
    assert (out_dir / "report.md").is_file()
    assert (out_dir / "report.html").is_file()
    assert not (out_dir / ".hybridjudge.lock").exists()
    assert KEY not in out + err

    judge.fault = None
    judge.by_output.clear()
    before = openai_server.request_count
    code = run_study(corpus, openai_server.base_url, out_dir, tmp_path)
    out, err = capsys.readouterr()
    assert code == EXIT_OK, err
    assert openai_server.request_count - before == CALLS_PER_OUTPUT
    assert judge.by_output == {VICTIM: CALLS_PER_OUTPUT}
    study = json.loads((out_dir / "study.json").read_text(encoding="utf-8"))
    assert all(o["status"] == "scored" for o in study["observations"])
    fa = {r["scorer"]: r for r in study["analysis"]["false_alarms"]}
    assert (fa["support"]["n"], fa["support"]["unscored"]) == (2, 0)
    assert files_containing(tmp_path, KEY) == []


def test_max_unscored_tolerates_a_share(
    openai_server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # one case of four unscored = 25% of the results: exit 3 at 0.2, exit 0 at 0.25
    judge = FaultyJudge(fault=FAULTS[0].step)
    openai_server.respond_with(judge)
    cases = write_cases(tmp_path / "cases.jsonl")
    base = [
        "judge",
        str(cases),
        "--json",
        *ALL_PASS,
        *model_args(openai_server.base_url, tmp_path / "c"),
    ]
    assert main([*base, "--max-unscored", "0.2"]) == EXIT_INCOMPLETE
    assert main([*base, "--max-unscored", "25%"]) == EXIT_OK
    capsys.readouterr()


def test_judge_with_every_call_failed_is_incomplete(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a dead endpoint (nothing listens): every call fails after its retries, the run finishes
    with FakeOpenAIServer() as server:
        dead_url = server.base_url
    cases = write_cases(tmp_path / "cases.jsonl")
    code = main(["judge", str(cases), "--json", *ALL_PASS, *model_args(dead_url, tmp_path / "c")])
    out, _err = capsys.readouterr()
    assert code == EXIT_INCOMPLETE
    results = _judge_records(out)
    assert {r[n]["unscored_reason"] for r in results.values() for n in JUDGES} == {"model_error"}


def test_an_endpoint_that_rejects_the_key_from_the_start_stops_the_run(
    openai_server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the documented rule: 401/403/404 before any success = unusable endpoint = exit 2 at once
    openai_server.respond_with(lambda _r: http_error(401, f"bad key {KEY}"))
    corpus = write_corpus(tmp_path / "toy")
    code = main(
        [
            "study",
            "run",
            "--corpus",
            str(corpus),
            "--scorers",
            "support",
            "--out",
            str(tmp_path / "results"),
            "--quiet",
            *model_args(openai_server.base_url, tmp_path / "cache"),
        ]
    )
    out, err = capsys.readouterr()
    assert code == EXIT_USAGE
    assert "HTTP 401" in err
    assert KEY_ENV in err
    assert KEY not in out + err
    assert openai_server.request_count == 1  # failed fast: no retry, no other output tried
    assert not (tmp_path / "results" / "study.json").exists()
    assert not (tmp_path / "results" / ".hybridjudge.lock").exists()


def test_a_key_echoed_in_a_good_reply_is_stored_redacted(
    openai_server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.judges.helpers import prompt_of, statement_of, support_reply

    judge = FaultyJudge()

    def echo_key_in_the_quote(request: RecordedRequest) -> Step:
        if prompt_of(request) == "support" and statement_of(request).endswith(TEXTS[VICTIM][:-1]):
            return support_reply("YES", f"{QUOTES[VICTIM]} Its token is {KEY}.")
        return judge(request)

    openai_server.respond_with(echo_key_in_the_quote)
    corpus = write_corpus(tmp_path / "toy")
    user_url = openai_server.base_url.replace("http://", f"http://admin:{KEY}@")
    code = main(
        [
            "study",
            "run",
            "--corpus",
            str(corpus),
            "--scorers",
            "support",
            "--out",
            str(tmp_path / "results"),
            "--quiet",
            *model_args(user_url, tmp_path / "cache"),
        ]
    )
    out, err = capsys.readouterr()
    assert code in (EXIT_OK, EXIT_INCOMPLETE), err
    study = (tmp_path / "results" / "study.json").read_text(encoding="utf-8")
    endpoint = json.loads(study)["config"]["model"]["endpoint"]
    assert endpoint == openai_server.base_url.replace("http://", "http://[REDACTED]@")
    victim = next(o for o in json.loads(study)["observations"] if o["output_id"] == VICTIM)
    assert victim["status"] == "scored", victim["detail"]  # usable: kept, key replaced
    # the cached reply holds the redacted text (and no file anywhere holds the key, below)
    assert files_containing(tmp_path / "cache", "token is [REDACTED]") != []
    assert KEY not in out + err
    assert files_containing(tmp_path, KEY) == []


def test_judge_with_a_lone_surrogate_line_reports_it_and_judges_the_rest(
    openai_server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    openai_server.respond_with(FaultyJudge())
    cases = write_cases(tmp_path / "cases.jsonl")
    with cases.open("ab") as handle:
        handle.write(b'{"id": "sur\\ud800", "answer": "x \\udfff", "context": "c"}\n')
    code = main(
        ["judge", str(cases), "--json", *ALL_PASS, *model_args(openai_server.base_url, tmp_path)]
    )
    out, err = capsys.readouterr()
    assert code == EXIT_USAGE  # one unusable line, reported with its number
    assert "line 5" in err
    assert "surrogate" in err
    assert set(_judge_records(out)) == set(TEXTS)  # the other lines were judged


def test_a_key_given_to_api_key_env_is_never_echoed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    cases = write_cases(tmp_path / "cases.jsonl")
    code = main(
        ["judge", str(cases), "--backend", "openai", "--model", "gpt-4o-mini", "--api-key-env", KEY]
    )
    out, err = capsys.readouterr()
    assert code == EXIT_USAGE
    assert "looks like a key" in err
    assert "--api-key-env" in err  # the hint names the flag
    assert KEY not in out + err


@pytest.mark.parametrize("content", [b"", b"\n  \n", b"\xef\xbb\xbf\n"])
def test_judge_on_an_empty_file_is_exit_2_no_cases(
    openai_server: FakeOpenAIServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    content: bytes,
) -> None:
    cases = tmp_path / "empty.jsonl"
    cases.write_bytes(content)
    code = main(["judge", str(cases), *model_args(openai_server.base_url, tmp_path / "c")])
    assert code == EXIT_USAGE
    assert "no case in the file" in capsys.readouterr().err
    assert openai_server.request_count == 0


# -- cache faults (model/_cache.py, issue 10's cache bullets) through both commands -------------


def _both_commands(tmp_path: Path, base_url: str, cache: Path) -> dict[str, list[str]]:
    corpus = write_corpus(tmp_path / "toy")
    cases = write_cases(tmp_path / "cases.jsonl")
    return {
        "judge": ["judge", str(cases), "--json", *ALL_PASS, *model_args(base_url, cache)],
        "study": [
            "study",
            "run",
            "--corpus",
            str(corpus),
            "--scorers",
            "deterministic,support,contradiction",
            "--out",
            str(tmp_path / "results"),
            "--quiet",
            *model_args(base_url, cache),
        ],
    }


@pytest.mark.parametrize("command", ["judge", "study"])
def test_a_cache_that_cannot_be_written_warns_and_the_run_finishes_uncached(
    command: str,
    openai_server: FakeOpenAIServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    openai_server.respond_with(FaultyJudge())
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    argv = _both_commands(tmp_path, openai_server.base_url, blocker / "cache")[command]
    argv = [a for a in argv if a != "--quiet"]  # -q would hide the warning (errors only)
    assert main(argv) == EXIT_OK
    err = capsys.readouterr().err
    assert "continuing without caching" in err  # the warning reaches stderr
    assert openai_server.request_count == len(TEXTS) * CALLS_PER_OUTPUT
    assert main(argv) == EXIT_OK  # nothing was cached: the rerun asks again, and finishes
    assert openai_server.request_count == 2 * len(TEXTS) * CALLS_PER_OUTPUT
    capsys.readouterr()


@pytest.mark.parametrize("command", ["judge", "study"])
def test_a_cache_corrupt_is_exit_2_naming_the_folder_and_cache_clear_repairs_it(
    command: str,
    openai_server: FakeOpenAIServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    openai_server.respond_with(FaultyJudge())
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "replies.db").write_bytes(b"this is not an SQLite database, " * 64)
    argv = _both_commands(tmp_path, openai_server.base_url, cache)[command]
    assert main(argv) == EXIT_USAGE
    err = capsys.readouterr().err
    assert str(cache) in err
    assert "hybridjudge cache clear" in err
    assert "Traceback" not in err
    assert openai_server.request_count == 0
    assert main(["cache", "clear", "--cache-dir", str(cache), "--yes"]) == 0
    assert main(argv) == EXIT_OK
    assert openai_server.request_count == len(TEXTS) * CALLS_PER_OUTPUT
    capsys.readouterr()


@pytest.mark.parametrize("command", ["judge", "study"])
def test_a_disk_full_cache_mid_run_warns_and_the_run_finishes(
    command: str,
    openai_server: FakeOpenAIServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tests.support.sqlite_faults import disk_full

    openai_server.respond_with(FaultyJudge())
    disk_full(monkeypatch)
    argv = _both_commands(tmp_path, openai_server.base_url, tmp_path / "cache")[command]
    argv = [a for a in argv if a != "--quiet"]
    assert main(argv) == EXIT_OK
    err = capsys.readouterr().err
    assert "database or disk is full" in err
    assert "Traceback" not in err
    if command == "study":
        assert (tmp_path / "results" / "study.json").is_file()


def test_gate_fails_a_dead_endpoint_study_against_a_good_baseline_end_to_end(
    openai_server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the repro: a study whose judges never ran exited 0 and passed the gate
    openai_server.respond_with(FaultyJudge())
    corpus = write_corpus(tmp_path / "toy")

    def study(base_url: str, out: Path) -> int:
        return run_study(corpus, base_url, out, tmp_path)

    assert study(openai_server.base_url, tmp_path / "good") == EXIT_OK
    with FakeOpenAIServer() as gone:
        dead_url = gone.base_url  # nothing listens there any more
    assert study(dead_url, tmp_path / "dead") == EXIT_INCOMPLETE
    capsys.readouterr()
    baseline = str(tmp_path / "good" / "study.json")
    assert main(["gate", str(tmp_path / "good"), "--baseline", baseline]) == EXIT_OK
    assert main(["gate", str(tmp_path / "dead"), "--baseline", baseline]) == EXIT_INCOMPLETE
    out, err = capsys.readouterr()
    assert "gate passed" in out  # the good one
    assert "INCOMPLETE support: 4 of 4 evaluations unscored" in err
    assert "not measured now" in err
