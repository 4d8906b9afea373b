"""Logging: silent by default in the library; ``-v``/``-q`` on the command line; one
debug record per model call (model, tokens, latency, cache hit, retries) that never carries a
secret."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from hybridjudge.cli import main
from tests.byo._judge import quote_for
from tests.judges.helpers import contradiction_reply, prompt_of, support_reply
from tests.support.openai_server import FakeOpenAIServer, RecordedRequest, Step

PLANTED = "sk-PLANTED-9f8e7d6c5b4a"
CONTEXT = "Customers may request a full refund within 30 days. There is no restocking fee."


def _responder(request: RecordedRequest) -> Step:
    """Every claim is stated (quoting its context sentence) and can be true with the context."""
    if prompt_of(request) == "support":
        return support_reply("YES", quote_for(request))
    return contradiction_reply("YES")


def _cases(tmp_path: Path) -> Path:
    path = tmp_path / "cases.jsonl"
    # no sentence in both answers: a shared one would be asked once and then served from the
    # cache, a log record without a request
    lines = [
        {"id": "a", "answer": "Refunds within 30 days. No restocking fee.", "context": CONTEXT},
        {"id": "b", "answer": "A full refund within 30 days. No fee.", "context": CONTEXT},
    ]
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name in ("HYBRIDJUDGE_BACKEND", "HYBRIDJUDGE_BASE_URL", "HYBRIDJUDGE_MODEL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HYBRIDJUDGE_PLANTED_KEY", PLANTED)
    yield
    logging.getLogger("hybridjudge").setLevel(logging.NOTSET)


def _judge(server: FakeOpenAIServer, tmp_path: Path, *flags: str) -> int:
    return main(
        [
            "judge",
            str(_cases(tmp_path)),
            "--json",
            "--base-url",
            server.base_url,
            "--model",
            "fake-model",
            "--api-key-env",
            "HYBRIDJUDGE_PLANTED_KEY",
            "--price-in",
            "1",
            "--price-out",
            "2",
            "--cache-dir",
            str(tmp_path / "cache"),
            *flags,
        ]
    )


def _records(err: str) -> list[dict[str, str]]:
    out = []
    for line in err.splitlines():
        if "model call:" in line:
            fields = line.split("model call:", 1)[1].split()
            out.append(dict(field.split("=", 1) for field in fields))
    return out


def test_library_is_silent_by_default() -> None:
    import hybridjudge

    handlers = logging.getLogger(hybridjudge.__name__).handlers
    assert any(isinstance(h, logging.NullHandler) for h in handlers)


def test_one_debug_record_per_model_call_and_no_secret(
    openai_server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    openai_server.respond_with(_responder)
    assert _judge(openai_server, tmp_path, "-v") == 0
    out, err = capsys.readouterr()
    records = _records(err)
    # one record per call; a call sends 1 request plus its retries and repairs (none here). By
    # hand: 4 distinct sentences (claims), each asked by support and contradiction (no
    # second look: a claim and its context sentence agree in negation) = 8
    assert len(records) == openai_server.request_count == 8
    assert {(r["retries"], r["repairs"], r["status"]) for r in records} == {("0", "0", "ok")}
    first = records[0]
    assert first["model"] == "fake-model"
    assert first["cache_hit"] == "False"
    assert first["retries"] == "0"
    assert int(first["prompt_tokens"]) > 0
    assert int(first["completion_tokens"]) > 0
    assert float(first["latency_s"]) >= 0
    # claims are the answers' sentences (no extraction call): one call per claim and scorer
    assert {r["prompt"].split("@")[0] for r in records} == {"support", "contradiction"}
    # the key reached the server (so it was in play) but never any log line or output
    assert openai_server.requests[0].headers["authorization"] == f"Bearer {PLANTED}"
    assert PLANTED not in err
    assert PLANTED not in out

    # the same run again: every call is a cache hit, still one record each, no request sent
    sent = openai_server.request_count
    assert _judge(openai_server, tmp_path, "-v") == 0
    again = _records(capsys.readouterr().err)
    assert openai_server.request_count == sent
    assert len(again) == len(records)
    assert {r["cache_hit"] for r in again} == {"True"}


def test_default_and_quiet_show_no_debug_records(
    openai_server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    openai_server.respond_with(_responder)
    assert _judge(openai_server, tmp_path) == 0
    assert _records(capsys.readouterr().err) == []
    assert _judge(openai_server, tmp_path, "-q") == 0
    assert not re.search(r"hybridjudge: (DEBUG|INFO|WARNING)", capsys.readouterr().err)


def test_judge_json_carries_each_claims_verdict_and_reason(
    openai_server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    openai_server.respond_with(_responder)
    assert _judge(openai_server, tmp_path) == 0
    record = json.loads(capsys.readouterr().out.splitlines()[0])
    verdicts = record["results"]["support"]["verdicts"]
    # each claim (the answer's sentences, without the period), its verdict, the quote the
    # scripted model gave (the context sentence sharing most words with it) and the reason
    refund, fee = (
        "Customers may request a full refund within 30 days.",
        "There is no restocking fee.",
    )
    assert [(v["claim"], v["label"], v["quote"], v["quote_found"]) for v in verdicts] == [
        ("Refunds within 30 days", "supported", refund, True),
        ("No restocking fee", "supported", fee, True),
    ]
    assert verdicts[0]["reason"] == f"the context states it: {refund!r}"


def test_report_warns_about_sampled_runs_and_unscored_outputs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from hybridjudge.study import analyse, load_study, save_study

    study = load_study(
        Path(__file__).resolve().parents[2] / "tests" / "data" / "studies" / "main-2026-12-01"
    )
    # two unscored support evaluations, by two reasons
    marked = {0: "parse_failure", 1: "model_error"}
    changed = 0
    observations = []
    for o in study.observations:
        if o.scorer == "support" and o.repetition == 0 and changed < 2:
            o = o.model_copy(
                update={
                    "status": "unscored",
                    "score": None,
                    "flagged": None,
                    "unscored_reason": marked[changed],
                }
            )
            changed += 1
        observations.append(o)
    analysis = analyse(study.outputs, observations, scorers=list(study.config.scorers),
                       repetitions=study.config.repetitions)  # fmt: skip
    save_study(
        study.model_copy(update={"observations": tuple(observations), "analysis": analysis}),
        tmp_path / "study.json",
    )
    assert main(["report", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert "WARNING" in err
    assert study.sampling is not None  # the committed main job judges a sample
    judged = study.sampling.judged_outputs
    assert f"sampled run: The LLM judges scored a deterministic sample of {judged} of 430" in err
    total = sum(1 for o in observations if o.scorer == "support")
    assert f"support: 2 of {total} evaluations unscored" in err
    assert "model_error 1, parse_failure 1" in err
    assert "contradiction:" not in err  # nothing unscored there: no warning
    # -q silences warnings
    assert main(["report", str(tmp_path), "-q"]) == 0
    assert "WARNING" not in capsys.readouterr().err
