"""The hybrid scorer (the cascade) against a real OpenAI-compatible server on 127.0.0.1.

Every expectation is worked out by hand from the three stages: the checks decide an output they
fail (no call); a claim that is a whole context sentence is supported as written (no call); only
the remaining claims reach the judges, one verdict call per claim and judge (the scripted judge
answers the contradiction question "NO" for a bad claim, so no second look is taken).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from hybridjudge import evaluate, evaluate_many
from hybridjudge._errors import ConfigError
from hybridjudge.judges import aevaluate, stated_as_written
from hybridjudge.model import ModelConfig
from tests.judges.helpers import make_config, statement_of
from tests.study._scripted import garbage_step, judge_step, prompt_name
from tests.support.openai_server import FakeOpenAIServer, RecordedRequest, Step

CONTEXT = [
    "Customers may request a full refund within 30 days of purchase. "
    "Refunds are processed within 5 business days."
]
AS_WRITTEN = "Refunds are processed within 5 business days."
INVERTED = "Customers may not request a refund within 30 days."
GOOD = "Customers may request a refund within 30 days."
FABRICATED = "Refunds are processed within 7 business days."
ANSWERS = (AS_WRITTEN, INVERTED, GOOD, FABRICATED)


def _judge(request: RecordedRequest) -> Step:
    return judge_step(request, ANSWERS, bad={INVERTED})


@pytest.fixture
def config(openai_server: FakeOpenAIServer, tmp_path: Path) -> ModelConfig:
    openai_server.respond_with(_judge)
    return make_config(openai_server.base_url, tmp_path / "cache")


def test_the_checks_decide_a_failed_output_without_a_call(
    openai_server: FakeOpenAIServer, config: ModelConfig
) -> None:
    result = evaluate(answer=FABRICATED, context=CONTEXT, config=config)
    # by hand: 7 is in no context figure, so the number check fails it
    assert openai_server.request_count == 0
    assert (result.status, result.stage, result.score, result.flagged) == (
        "scored",
        "checks",
        0.0,
        True,
    )
    assert [i.split(":")[0] for i in result.issues] == ["ungrounded_number"]
    assert result.usage.calls == 0
    assert result.claims == ()


def test_a_claim_stated_as_written_needs_no_call(
    openai_server: FakeOpenAIServer, config: ModelConfig
) -> None:
    result = evaluate(answer=AS_WRITTEN, context=CONTEXT, config=config)
    assert openai_server.request_count == 0
    assert (result.stage, result.score, result.flagged) == ("as_written", 1.0, False)
    assert result.claim_stages == ("as_written",)
    # the context sentence as the judges split it (its stop is the split point)
    assert result.claims[0].evidence == "Refunds are processed within 5 business days"


def test_only_the_remaining_claims_reach_the_judge(
    openai_server: FakeOpenAIServer, config: ModelConfig
) -> None:
    answer = f"{AS_WRITTEN} {INVERTED}"
    result = evaluate(answer=answer, context=CONTEXT, config=config)
    # by hand: claim 1 is a context sentence (no call), claim 2 goes to the contradiction judge
    # alone (the default): one call, which says "cannot both be true"
    assert openai_server.request_count == 1
    assert [prompt_name(r) for r in openai_server.requests] == ["contradiction"]
    assert statement_of(openai_server.requests[0]).strip() == INVERTED.rstrip(".")
    assert result.stage == "judge"
    assert result.claim_stages == ("as_written", "judge")
    assert [c.faithful for c in result.claims] == [True, False]
    assert result.score == 0.5
    assert result.flagged is True
    assert result.issues == (INVERTED.rstrip("."),)
    assert result.claims[1].verdicts["contradiction"].label == "contradicted"
    assert result.usage.calls == 1


def test_both_judges_when_asked(openai_server: FakeOpenAIServer, config: ModelConfig) -> None:
    answer = f"{AS_WRITTEN} {GOOD}"
    result = evaluate(answer=answer, context=CONTEXT, config=config, judges="support,contradiction")
    # by hand: one remaining claim x two judges; both accept it
    assert sorted(prompt_name(r) for r in openai_server.requests) == ["contradiction", "support"]
    assert (result.score, result.flagged) == (1.0, False)
    assert set(result.claims[1].verdicts) == {"support", "contradiction"}


def test_an_unscored_judge_leaves_the_cascade_unscored(
    openai_server: FakeOpenAIServer, config: ModelConfig
) -> None:
    openai_server.respond_with(lambda request: garbage_step())
    result = evaluate(answer=f"{AS_WRITTEN} {GOOD}", context=CONTEXT, config=config)
    assert result.status == "unscored"
    assert result.unscored_reason == "parse_failure"
    assert result.stage == "judge"
    assert result.score is None
    assert result.flagged is None  # never a silent pass
    assert result.detail is not None
    assert result.detail.startswith("contradiction: verdicts")


def test_evaluate_many_records_stages_and_record_errors(
    openai_server: FakeOpenAIServer, config: ModelConfig
) -> None:
    records = [
        {"id": "fails", "answer": FABRICATED, "context": CONTEXT},
        {"id": "written", "answer": AS_WRITTEN, "context": CONTEXT},
        {"id": "judged", "answer": f"{AS_WRITTEN} {INVERTED}", "context": CONTEXT},
        {"id": "broken", "answer": 42, "context": CONTEXT},
        {"id": "anchor", "answer": GOOD, "context": CONTEXT, "anchors": ["5 business days"]},
    ]
    batch = evaluate_many(records, config=config)
    by_id = {o.id: o.result for o in batch}
    assert by_id["fails"].stage == "checks"
    assert by_id["written"].stage == "as_written"
    assert by_id["judged"].stage == "judge"
    assert by_id["broken"].unscored_reason == "record_error"
    assert by_id["anchor"].stage == "checks"  # the required fact is missing
    assert batch.stage_counts() == {"checks": 2, "as_written": 1, "judge": 1, "unscored": 1}
    assert openai_server.request_count == 1
    rows = {r["id"]: r for r in batch.to_records()}
    assert rows["judged"]["claims_as_written"] == 1
    assert rows["judged"]["claims_judged"] == 1


def test_evaluate_inside_a_running_loop(config: ModelConfig) -> None:
    async def main() -> str:
        sync = evaluate(answer=AS_WRITTEN, context=CONTEXT, config=config)
        other = await aevaluate(answer=FABRICATED, context=CONTEXT, config=config)
        return f"{sync.stage} {other.stage}"

    assert asyncio.run(main()) == "as_written checks"


def test_as_written_needs_the_whole_sentence() -> None:
    sentences = ["If you cancel within 30 days, you get a full refund."]
    # a part of a sentence could drop its condition: not settled
    assert stated_as_written("You get a full refund.", sentences) is None
    # the checks' normalisation: case, typographic quotes and dashes, whitespace
    assert stated_as_written("if you cancel within 30 days,  you get a full refund", sentences)
    assert stated_as_written("If you cancel within 60 days, you get a full refund.", sentences) is (
        None
    )


def test_unknown_judge_is_refused(config: ModelConfig) -> None:
    with pytest.raises(ConfigError, match="hybrid_judges"):
        evaluate(answer=AS_WRITTEN, context=CONTEXT, config=config, judges="ragas")
    with pytest.raises(ConfigError, match="threshold"):
        evaluate(answer=AS_WRITTEN, context=CONTEXT, config=config, threshold=2)
    with pytest.raises(ConfigError, match="mode"):
        evaluate(answer=AS_WRITTEN, context=CONTEXT, config=config, mode="both")  # type: ignore[arg-type]


def test_judge_command_runs_the_cascade(
    openai_server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from hybridjudge.cli import main

    openai_server.respond_with(_judge)
    cases = tmp_path / "cases.jsonl"
    lines = [
        {"id": "fails", "answer": FABRICATED, "context": CONTEXT},
        {"id": "written", "answer": AS_WRITTEN, "context": CONTEXT, "anchors": ["5 business days"]},
        {"id": "judged", "answer": f"{AS_WRITTEN} {GOOD}", "context": CONTEXT},
    ]
    cases.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    flags = ["--backend", "openai", "--base-url", openai_server.base_url, "--model", "m"]
    flags += ["--cache-dir", str(tmp_path / "c")]
    code = main(["judge", str(cases), "--scorers", "hybrid", "--json", *flags])
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    # by hand: "fails" scores 0.0 at the checks, so the command fails (exit 1); one call, for
    # the one claim of "judged" that is not a context sentence
    assert code == 1
    assert [(o["id"], o["results"]["hybrid"]["stage"]) for o in out] == [
        ("fails", "checks"),
        ("written", "as_written"),
        ("judged", "judge"),
    ]
    assert out[2]["results"]["hybrid"]["score"] == 1.0
    assert openai_server.request_count == 1
    # the hybrid scorer runs alone in 'judge', and --hybrid-judges needs it
    assert main(["judge", str(cases), "--scorers", "support,hybrid", *flags]) == 2
    assert main(["judge", str(cases), "--hybrid-judges", "support", *flags]) == 2


def test_grade_failed_grades_a_failed_output_claim_by_claim(
    openai_server: FakeOpenAIServer, config: ModelConfig
) -> None:
    base = f"{FABRICATED} {GOOD}"
    mutant = f"{base} {INVERTED}"
    # by hand, without grading: the checks fail both (7 is in no context figure), 0.0 each, no
    # call: the inversion added to the mutant cannot score below its base
    plain = [evaluate(answer=a, context=CONTEXT, config=config).score for a in (base, mutant)]
    assert plain == [0.0, 0.0]
    assert openai_server.request_count == 0
    graded = [
        evaluate(answer=a, context=CONTEXT, config=config, grade_failed=True)
        for a in (base, mutant)
    ]
    # by hand: claim 1 holds the finding (unfaithful, no call); GOOD goes to the judge
    # (accepted) and, in the mutant, INVERTED (contradicted): base 1/2, mutant 1/3
    assert [r.score for r in graded] == [0.5, pytest.approx(1 / 3)]
    assert all(r.stage == "checks" and r.flagged and r.graded for r in graded)
    assert graded[1].claim_stages == ("checks", "judge", "judge")
    assert graded[1].claims[0].findings[0].startswith("ungrounded_number: 7")
    assert [c.faithful for c in graded[1].claims] == [False, True, False]
    # the findings first, then the claims the judge rejected
    assert graded[1].issues[-1] == INVERTED.rstrip(".")
    assert graded[1].issues[0].startswith("ungrounded_number")
    # one verdict call per judged claim: GOOD (base), then GOOD again (its reply cached: the
    # same question) and INVERTED (mutant)
    assert [statement_of(r).strip() for r in openai_server.requests] == [
        GOOD.rstrip("."),
        INVERTED.rstrip("."),
    ]


def test_grade_failed_counts_a_finding_no_claim_holds(
    openai_server: FakeOpenAIServer, config: ModelConfig
) -> None:
    # a required fact the answer omits is in no sentence: one more unfaithful claim
    result = evaluate(
        answer=GOOD, context=CONTEXT, anchors=["5 business days"], config=config, grade_failed=True
    )
    assert result.claim_stages == ("judge", "checks")
    assert result.claims[1].claim.startswith("missing_anchor: 5 business days")
    assert (result.score, result.flagged) == (0.5, True)
    assert openai_server.request_count == 1
    # every claim holds a finding: no call at all
    alone = evaluate(answer=FABRICATED, context=CONTEXT, config=config, grade_failed=True)
    assert (alone.score, alone.claim_stages, alone.usage.calls) == (0.0, ("checks",), 0)
    assert openai_server.request_count == 1


def test_grade_failed_keeps_the_checks_decision_when_the_judge_gives_no_grade(
    openai_server: FakeOpenAIServer, config: ModelConfig
) -> None:
    openai_server.respond_with(lambda request: garbage_step())
    result = evaluate(
        answer=f"{FABRICATED} {GOOD}", context=CONTEXT, config=config, grade_failed=True
    )
    # the checks failed it: flagged whatever the judge says, scored as without grading
    assert (result.status, result.stage, result.score, result.flagged) == (
        "scored",
        "checks",
        0.0,
        True,
    )
    assert result.graded is False
    assert result.detail is not None
    assert result.detail.startswith("graded by the checks alone")
    assert "parse_failure" in result.detail
    with pytest.raises(ConfigError, match="grade_failed"):
        evaluate(answer=GOOD, context=CONTEXT, config=config, grade_failed="yes")  # type: ignore[arg-type]


def test_judge_command_grades_failed_outputs_when_asked(
    openai_server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from hybridjudge.cli import main

    openai_server.respond_with(_judge)
    cases = tmp_path / "cases.jsonl"
    lines = [{"id": "wrong", "answer": f"{FABRICATED} {GOOD} {INVERTED}", "context": CONTEXT}]
    cases.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    flags = ["--backend", "openai", "--base-url", openai_server.base_url, "--model", "m"]
    flags += ["--cache-dir", str(tmp_path / "c"), "--json"]
    assert main(["judge", str(cases), "--scorers", "hybrid", "--hybrid-grade-failed", *flags]) == 1
    (line,) = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    hybrid = line["results"]["hybrid"]
    # by hand: 1 of 3 claims faithful (the finding's claim and the inversion are not)
    assert (hybrid["stage"], hybrid["graded"], hybrid["flagged"]) == ("checks", True, True)
    assert hybrid["score"] == pytest.approx(1 / 3)
    assert [c["stage"] for c in hybrid["claims"]] == ["checks", "judge", "judge"]
    # the flag sets the hybrid scorer: refused without it, before any call
    calls = openai_server.request_count
    assert main(["judge", str(cases), "--hybrid-grade-failed", *flags]) == 2
    assert "--hybrid-grade-failed" in capsys.readouterr().err
    assert openai_server.request_count == calls


def test_planned_calls_follow_the_free_stages() -> None:
    from hybridjudge.grounding import CheckRecord
    from hybridjudge.judges import cascade_planned_calls, planned_calls

    def record(answer: str) -> CheckRecord:
        return CheckRecord(id="r", answer=answer, context=CONTEXT)

    one = planned_calls(GOOD, CONTEXT, scorers=["contradiction"])
    assert one  # the contradiction question for GOOD
    # the checks fail it: no call, unless graded, and then only for the claim with no finding
    failed = record(f"{FABRICATED} {GOOD}")
    assert cascade_planned_calls(failed) == []
    graded = cascade_planned_calls(failed, grade_failed=True)
    assert [c.messages for c in graded] == [c.messages for c in one]
    # a claim stated as written needs none; the others are planned as the judges plan them
    assert cascade_planned_calls(record(AS_WRITTEN)) == []
    mixed = cascade_planned_calls(record(f"{AS_WRITTEN} {GOOD}"), judges="support,contradiction")
    both = planned_calls(GOOD, CONTEXT, scorers=["support", "contradiction"])
    assert [c.messages for c in mixed] == [c.messages for c in both]


def test_judge_dry_run_estimates_the_cascade(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from hybridjudge.cli import main
    from hybridjudge.judges import planned_calls

    cases = tmp_path / "cases.jsonl"
    lines = [
        {"id": "fails", "answer": f"{FABRICATED} {INVERTED}", "context": CONTEXT},
        {"id": "written", "answer": AS_WRITTEN, "context": CONTEXT},
        {"id": "judged", "answer": f"{AS_WRITTEN} {GOOD}", "context": CONTEXT},
    ]
    cases.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    flags = ["--backend", "openai", "--base-url", "http://127.0.0.1:9/v1", "--model", "m"]
    flags += ["--scorers", "hybrid", "--dry-run", "--json"]
    # by hand: only GOOD reaches the judge; graded, INVERTED too (FABRICATED holds the finding)
    good = len(planned_calls(GOOD, CONTEXT, scorers=["contradiction"]))
    inverted = len(planned_calls(INVERTED, CONTEXT, scorers=["contradiction"]))
    assert main(["judge", str(cases), *flags]) == 0
    assert json.loads(capsys.readouterr().out)["calls"] == good
    assert main(["judge", str(cases), *flags, "--hybrid-grade-failed"]) == 0
    assert json.loads(capsys.readouterr().out)["calls"] == good + inverted
