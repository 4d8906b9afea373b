"""``hybridjudge judge`` end to end against the fake OpenAI-compatible server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hybridjudge.cli import main
from tests.judges.helpers import (
    contradiction_reply,
    evidence_of,
    prompt_of,
    shared_reply,
    statement_of,
    support_reply,
)
from tests.support.openai_server import FakeOpenAIServer, RecordedRequest, Step

CONTEXT = "Customers may request a full refund within 30 days. There is no restocking fee."


def _quote(claim: str, evidence: str) -> str:
    """The evidence line about the claim's topic (restocking or refunds), quoted in full."""
    topic = "restocking" if "restocking" in claim else "refund"
    return next(line for line in evidence.splitlines() if topic in line)


def _responder(request: RecordedRequest) -> Step:
    """Every verdict favourable with a real quote, unless the claim says 10 days."""
    name = prompt_of(request)
    claim = statement_of(request)
    bad = "10 days" in claim
    quote = _quote(claim, evidence_of(request))
    if name == "support":
        return support_reply("NO") if bad else support_reply("YES", quote)
    if name == "contradiction":
        return contradiction_reply("NO" if bad else "YES")
    return shared_reply("NO", "NO") if bad else shared_reply("YES", "YES", quote)


def _write_cases(path: Path) -> Path:
    lines = [
        {"id": "good", "answer": "Refunds within 30 days. No restocking fee.", "context": CONTEXT},
        {"id": "broken", "answer": 42, "context": CONTEXT},
        {
            "id": "wrong",
            "question": "How long is the refund window?",
            "answer": "Refunds within 10 days. No restocking fee.",
            "context": [CONTEXT],
        },
    ]
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    return path


def _args(server: FakeOpenAIServer, cache: Path) -> list[str]:
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
        str(cache),
    ]


@pytest.fixture(autouse=True)
def _no_model_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("HYBRIDJUDGE_BACKEND", "HYBRIDJUDGE_BASE_URL", "HYBRIDJUDGE_MODEL"):
        monkeypatch.delenv(name, raising=False)


def test_json_lines_per_case_and_bad_line_reported(
    openai_server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    openai_server.respond_with(_responder)
    cases = _write_cases(tmp_path / "cases.jsonl")
    code = main(["judge", str(cases), "--json", *_args(openai_server, tmp_path / "c")])
    out, err = capsys.readouterr()

    assert code == 2  # one unusable line; the others were still judged
    assert "line 2" in err
    assert "'broken'" in err
    assert "answer" in err
    records = [json.loads(line) for line in out.splitlines()]
    assert [(r["id"], r["line"], r["repetition"]) for r in records] == [
        ("good", 1, 0),
        ("wrong", 3, 0),
    ]
    good, wrong = records
    assert good["format_version"] == 2
    assert good["results"]["support"]["score"] == 1.0
    # "wrong": 2 claims (its sentences), the 10-day one unsupported: 1/2. Both are bare
    # answers (five words or fewer) to its question: the contradiction question is not asked
    assert wrong["results"]["support"]["score"] == 0.5
    assert wrong["results"]["contradiction"]["score"] == 1.0
    # each claim's verdict and quote (issue 12): the quote and whether it is in the context
    verdicts = wrong["results"]["support"]["verdicts"]
    assert [(v["claim"], v["label"], v["quote"], v["quote_found"]) for v in verdicts] == [
        ("Refunds within 10 days", "not_supported", None, None),
        ("No restocking fee", "supported", "There is no restocking fee.", True),
    ]
    assert verdicts[1]["evidence"] == [
        "Customers may request a full refund within 30 days",
        "There is no restocking fee",
    ]
    contradiction = wrong["results"]["contradiction"]["verdicts"]
    assert [v["label"] for v in contradiction] == ["not_contradicted", "not_contradicted"]
    assert all("bare answer" in v["reason"] for v in contradiction)
    # usage per case: one support call per claim, no claim extraction; the fake server counts
    # 10 prompt + 5 completion tokens per call
    assert (wrong["usage"]["calls"], wrong["usage"]["prompt_tokens"]) == (2, 20)
    # "good" has no question: both questions asked about its two claims
    assert good["usage"]["calls"] == 4


def test_shared_mode_with_repetitions_and_a_cached_rerun(
    openai_server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    openai_server.respond_with(_responder)
    cases = tmp_path / "cases.jsonl"
    cases.write_text(
        json.dumps({"id": "wrong", "answer": "Refunds within 10 days.", "context": CONTEXT}) + "\n",
        encoding="utf-8",
    )
    argv = [
        "judge",
        str(cases),
        "--mode",
        "shared",
        "--repetitions",
        "2",
        "--json",
        *_args(openai_server, tmp_path / "c"),
    ]
    assert main(argv) == 1  # a contradicted answer scores 0.0: it fails the default threshold
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["repetition"] for r in records] == [0, 1]
    assert {r["results"]["support"]["mode"] for r in records} == {"shared"}
    # contradicted -> support 0 and contradiction-faithful 0
    assert {r["results"]["contradiction"]["score"] for r in records} == {0.0}
    assert {r["results"]["support"]["verdicts"][0]["label"] for r in records} == {"contradicted"}
    # 2 repetitions x one shared call for the one claim; the repetition is part of the cache key
    assert openai_server.request_count == 2

    assert main(argv) == 1
    assert openai_server.request_count == 2  # the rerun made no request
    rerun = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert {r["usage"]["cache_hits"] for r in rerun} == {1}


def test_table_output_with_usage_summary(
    openai_server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    openai_server.respond_with(_responder)
    cases = _write_cases(tmp_path / "cases.jsonl")
    main(["judge", str(cases), "--scorers", "support", *_args(openai_server, tmp_path / "c")])
    out = capsys.readouterr().out
    assert "0.50 (1/2)" in out  # "wrong": 1 of 2 claims supported
    assert "1.00 (2/2)" in out
    assert "contradiction" not in out.split("model usage")[0]
    # 2 cases x 2 claims x one support call = 4 calls of 10 prompt + 5 completion tokens each;
    # at 1 and 2 USD per million: 4 x (10 + 2 x 5) / 1e6 = 8e-5 USD, printed rounded to $0.0001.
    assert "40/20" in out.split("model usage")[1]
    assert "2 evaluation(s), 0 unscored result(s), 1 unusable line(s)" in out
    assert "4 model call(s) costing $0.0001" in out
    assert "0 cache hit(s)" in out


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--scorers", "support,ragas"], "unknown or missing scorer"),
        (["--scorers", "support,support"], "listed twice"),
        (["--repetitions", "0"], "repetitions must be a whole number of at least 1, got 0"),
    ],
)
def test_bad_flags_exit_2_with_a_message(
    openai_server: FakeOpenAIServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    extra: list[str],
    message: str,
) -> None:
    cases = _write_cases(tmp_path / "cases.jsonl")
    code = main(["judge", str(cases), *extra, *_args(openai_server, tmp_path / "c")])
    assert code == 2
    assert message in capsys.readouterr().err
    assert openai_server.request_count == 0


def test_missing_case_file_exits_2(
    openai_server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["judge", str(tmp_path / "nope.jsonl"), *_args(openai_server, tmp_path / "c")])
    assert code == 2
    assert "nope.jsonl" in capsys.readouterr().err


def _unscored_for_ten_days(request: RecordedRequest) -> Step:
    """Like ``_responder``, but the support verdict on a "10 days" claim is truncated JSON."""
    if prompt_of(request) == "support" and "10 days" in statement_of(request):
        from tests.support.openai_server import reply

        return reply('{"quote": "", "verdict": ')
    return _responder(request)


# 25% was enough when the share was pooled over the scorers (1 of 4 results); each scorer is now
# held to the threshold on its own (support: 1 of 2 = 50%). Complete at 0.5, the run still exits 1:
# "wrong" fails (its scored results are below the default --threshold 1.0)
@pytest.mark.parametrize(("max_unscored", "code"), [("0", 3), ("0.5", 1), ("25%", 3), ("49%", 3)])
def test_unscored_share_above_max_unscored_exits_3(
    openai_server: FakeOpenAIServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    max_unscored: str,
    code: int,
) -> None:
    openai_server.respond_with(_unscored_for_ten_days)
    cases = tmp_path / "cases.jsonl"
    lines = [
        {"id": "good", "answer": "Refunds within 30 days.", "context": CONTEXT, "team": "web"},
        {"id": "wrong", "answer": "Refunds within 10 days.", "context": CONTEXT},
    ]
    cases.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    args = ["judge", str(cases), "--json", "--max-unscored", max_unscored]
    assert main([*args, *_args(openai_server, tmp_path / "c")]) == code
    captured = capsys.readouterr()
    rows = [json.loads(x) for x in captured.out.splitlines()]
    # by hand: 2 cases x 2 scorers; only wrong's support result is unscored: support 1 of 2
    unscored = [
        (r["id"], n) for r in rows for n, v in r["results"].items() if v["status"] == "unscored"
    ]
    assert unscored == [("wrong", "support")]
    assert ("support: 1 of 2 result(s) unscored" in captured.err) is (code == 3)
    assert "contradiction: 0 of" not in captured.err  # contradiction is never incomplete
    assert ("FAIL contradiction: 1 of 2 usable output(s) fail" in captured.err) is (code == 1)
    # the case's own extra field travels with its result
    assert [r["metadata"] for r in rows] == [{"team": "web"}, {}]
