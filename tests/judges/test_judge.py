"""The judges against a real OpenAI-compatible HTTP server on 127.0.0.1 with scripted replies.

Expected scores are hand-computed from the scripted verdicts in the comments: support = supported
/ claims; contradiction = (claims - contradicted) / claims (``docs/faithfulness.md``).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from hybridjudge import ConfigError
from hybridjudge.judges import SCORERS, JudgeResult, load_prompt, total_usage
from hybridjudge.model import Usage
from tests.judges.helpers import (
    Router,
    claims_reply,
    make_config,
    prompt_of,
    run_judge,
    verdicts_reply,
    verdicts_text,
)
from tests.support.openai_server import FakeOpenAIServer, reply, server_error, truncated_json

CONTEXT = [
    "Refund Policy. Customers may request a full refund within 30 days of purchase for any "
    "reason. Refunds are processed to the original payment method within 5 business days. "
    "There is no restocking fee for standard plans. Enterprise hardware returns are subject to "
    "a 15% restocking fee."
]
ANSWER = (
    "Customers have 30 days to request a refund, which takes 10 business days. There is no "
    "restocking fee for standard plans, and enterprise hardware has a 15% fee."
)
CLAIMS = (
    "Customers have 30 days to request a refund.",
    "A refund takes 10 business days.",
    "There is no restocking fee for standard plans.",
    "Enterprise hardware returns have a 15% restocking fee.",
)
UNANSWERABLE_CONTEXT = [
    "Our Pro plan includes unlimited projects, priority support, and a 30-day free trial. "
    "Contact sales for volume discounts. All plans are billed monthly or annually."
]


@pytest.fixture
def cache_dir(tmp_path: Path) -> Path:
    return tmp_path / "cache"


def test_separate_scores_come_from_each_scorers_own_verdicts(
    openai_server: FakeOpenAIServer, cache_dir: Path
) -> None:
    router = Router(
        claims=claims_reply(*CLAIMS),
        # Listed out of order on purpose: verdicts are matched to claims by claim_id.
        support=verdicts_reply(
            "supported", "not_supported", "supported", "supported", order=[4, 2, 3, 1]
        ),
        contradiction=verdicts_reply("not_contradicted", "contradicted", "unknown", "contradicted"),
    )
    openai_server.respond_with(router)
    results, _, _ = run_judge(
        make_config(openai_server.base_url, cache_dir), answer=ANSWER, context=CONTEXT
    )

    support, contradiction = results["support"], results["contradiction"]
    # support: 3 supported of 4 claims = 0.75
    assert support.status == "scored"
    assert support.score == pytest.approx(0.75)
    # contradiction: 2 contradicted of 4 -> (4 - 2) / 4 = 0.5; "unknown" counts as faithful
    assert contradiction.score == pytest.approx(0.5)
    assert [v.label for v in support.verdicts] == [
        "supported",
        "not_supported",
        "supported",
        "supported",
    ]
    assert [v.faithful for v in contradiction.verdicts] == [True, False, True, False]
    assert support.verdicts[1].claim == CLAIMS[1]
    assert support.verdicts[1].reason == "reason for claim 2"
    assert support.claims == CLAIMS
    assert dict(router.counts) == {"claims": 1, "support": 1, "contradiction": 1}
    # Each definition asked its own question, faithful to its anchor.
    systems = {prompt_of(r): r.messages[0]["content"] for r in openai_server.requests}
    assert "can be directly inferred from the context" in systems["support"]
    assert "whether the context directly contradicts it" in systems["contradiction"]
    assert {r.mode for r in results.values()} == {"separate"}
    assert support.prompt_versions == {
        name: load_prompt(name).version for name in ("claims", "support", "contradiction")
    }


def test_unknown_counts_as_faithful_for_contradiction_and_unfaithful_for_support(
    openai_server: FakeOpenAIServer, cache_dir: Path
) -> None:
    # An invented number the context is silent about: DeepEval's definition passes it.
    openai_server.respond_with(
        Router(
            claims=claims_reply("About 11% of cases apply.", "The notice period is 90 days."),
            support=verdicts_reply("not_supported", "supported"),
            contradiction=verdicts_reply("unknown", "unknown"),
        )
    )
    results, _, _ = run_judge(
        make_config(openai_server.base_url, cache_dir), answer="x y z.", context=["c"]
    )
    assert results["support"].score == pytest.approx(0.5)  # 1 of 2 supported
    assert results["contradiction"].score == pytest.approx(1.0)  # (2 - 0) / 2


def test_shared_mode_one_three_way_call_feeds_both_scores(
    openai_server: FakeOpenAIServer, cache_dir: Path
) -> None:
    router = Router(
        claims=claims_reply(*CLAIMS),
        shared=verdicts_reply("supported", "contradicted", "not_in_context", "not_in_context"),
    )
    openai_server.respond_with(router)
    results, _, by_scope = run_judge(
        make_config(openai_server.base_url, cache_dir),
        answer=ANSWER,
        context=CONTEXT,
        mode="shared",
    )
    # supported -> support 1, contradiction 1; contradicted -> 0, 0; not_in_context -> 0, 1
    # support: 1 of 4 = 0.25; contradiction: (4 - 1) / 4 = 0.75
    assert results["support"].score == pytest.approx(0.25)
    assert results["contradiction"].score == pytest.approx(0.75)
    assert [v.faithful for v in results["support"].verdicts] == [True, False, False, False]
    assert [v.faithful for v in results["contradiction"].verdicts] == [True, False, True, True]
    assert [v.label for v in results["contradiction"].verdicts][2] == "not_in_context"
    assert dict(router.counts) == {"claims": 1, "shared": 1}
    assert set(by_scope) == {"claims", "shared"}
    assert {r.scope for r in results.values()} == {"shared"}
    # The shared call is counted once, not once per scorer.
    assert total_usage(results).calls == 2


def test_no_claims_is_unscored_never_nan(openai_server: FakeOpenAIServer, cache_dir: Path) -> None:
    router = Router(claims=claims_reply())
    openai_server.respond_with(router)
    results, _, _ = run_judge(
        make_config(openai_server.base_url, cache_dir),
        answer="Thanks for asking, happy to help!",
        context=CONTEXT,
    )
    for result in results.values():
        assert result.status == "unscored"
        assert result.unscored_reason == "no_claims"
        assert result.score is None
        dumped = json.loads(result.model_dump_json())
        assert dumped["score"] is None
    assert dict(router.counts) == {"claims": 1}  # no verdict call without claims


def test_blank_answer_is_no_claims_without_any_request(
    openai_server: FakeOpenAIServer, cache_dir: Path
) -> None:
    results, usage, _ = run_judge(
        make_config(openai_server.base_url, cache_dir), answer="  \n", context=CONTEXT
    )
    assert {r.unscored_reason for r in results.values()} == {"no_claims"}
    assert openai_server.request_count == 0
    assert usage == Usage()


def test_verdict_count_mismatch_is_a_parse_failure_with_the_raw_reply(
    openai_server: FakeOpenAIServer, cache_dir: Path
) -> None:
    short = verdicts_text("supported", "supported")  # 2 verdicts for 3 claims
    router = Router(
        claims=claims_reply(*CLAIMS[:3]),
        support=[reply(short), reply(short)],  # the first reply and the one repair
        contradiction=verdicts_reply("unknown", "unknown", "contradicted"),
    )
    openai_server.respond_with(router)
    results, _, _ = run_judge(
        make_config(openai_server.base_url, cache_dir), answer=ANSWER, context=CONTEXT
    )
    support = results["support"]
    assert support.status == "unscored"
    assert support.unscored_reason == "parse_failure"
    assert support.score is None
    assert support.verdicts == ()
    assert support.detail is not None
    assert support.detail.stage == "verdicts"
    assert support.detail.raw == short
    assert "at least 3" in support.detail.error
    assert support.usage.repairs == 1
    assert router.counts["support"] == 2
    # The other definition is unaffected: (3 - 1) / 3
    assert results["contradiction"].score == pytest.approx(2 / 3)


def test_duplicate_claim_ids_are_a_parse_failure_not_a_score(
    openai_server: FakeOpenAIServer, cache_dir: Path
) -> None:
    duplicated = verdicts_reply("supported", "supported", order=[1, 1])
    openai_server.respond_with(
        Router(
            claims=claims_reply(*CLAIMS[:2]),
            support=[duplicated, duplicated],
        )
    )
    results, _, _ = run_judge(
        make_config(openai_server.base_url, cache_dir),
        answer=ANSWER,
        context=CONTEXT,
        scorers=["support"],
    )
    assert results["support"].unscored_reason == "parse_failure"
    assert results["support"].detail is not None
    assert "duplicate claim_id [1]" in results["support"].detail.error


def test_malformed_claims_json_is_a_parse_failure_for_every_scorer(
    openai_server: FakeOpenAIServer, cache_dir: Path
) -> None:
    # DeepEval's failure on the embedded model: the reply stops after "]" without its "}".
    cut = truncated_json({"claims": ["a claim"]}, 1)
    router = Router(claims=[cut, cut])
    openai_server.respond_with(router)
    results, _, _ = run_judge(
        make_config(openai_server.base_url, cache_dir), answer=ANSWER, context=CONTEXT
    )
    for result in results.values():
        assert result.unscored_reason == "parse_failure"
        assert result.detail is not None
        assert result.detail.stage == "claims"
        assert result.detail.raw == '{"claims": ["a claim"]'
    assert dict(router.counts) == {"claims": 2}


def test_model_error_is_unscored_for_the_failing_call_only(
    openai_server: FakeOpenAIServer, cache_dir: Path
) -> None:
    router = Router(
        claims=claims_reply(*CLAIMS[:2]),
        support=verdicts_reply("supported", "not_supported"),
        contradiction=[server_error(), server_error()],  # first try and the one retry
    )
    openai_server.respond_with(router)
    results, _, _ = run_judge(
        make_config(openai_server.base_url, cache_dir), answer=ANSWER, context=CONTEXT
    )
    contradiction = results["contradiction"]
    assert contradiction.unscored_reason == "model_error"
    assert contradiction.detail is not None
    assert "HTTP 500" in contradiction.detail.error
    assert contradiction.usage.retries == 1
    assert results["support"].score == pytest.approx(0.5)


def test_claims_model_error_leaves_every_scorer_unscored(
    openai_server: FakeOpenAIServer, cache_dir: Path
) -> None:
    openai_server.respond_with(Router(claims=[server_error(503), server_error(503)]))
    results, _, _ = run_judge(
        make_config(openai_server.base_url, cache_dir), answer=ANSWER, context=CONTEXT
    )
    assert {r.unscored_reason for r in results.values()} == {"model_error"}
    assert {r.detail.stage for r in results.values() if r.detail} == {"claims"}


def test_correct_abstention_scores_one_without_a_model_call(
    openai_server: FakeOpenAIServer, cache_dir: Path
) -> None:
    # OpenGATE grounding-unanswerable::base, verbatim: RAGAS and DeepEval both scored it 0.0.
    answer = (
        "The context does not provide information about the annual price of the Enterprise plan."
    )
    results, _, _ = run_judge(
        make_config(openai_server.base_url, cache_dir),
        answer=answer,
        context=UNANSWERABLE_CONTEXT,
        question="What is the annual price of the Enterprise plan?",
    )
    for result in results.values():
        assert result.status == "scored"
        assert result.score == 1.0
        assert result.abstained
        assert result.abstention_reason is not None
        assert "annual price" in result.abstention_reason
    assert openai_server.request_count == 0


def test_failure_to_abstain_scores_below_the_abstaining_base(
    openai_server: FakeOpenAIServer, cache_dir: Path
) -> None:
    # OpenGATE grounding-unanswerable::non-abstention: the base scores 1.0 (test above).
    openai_server.respond_with(
        Router(
            claims=claims_reply(
                "The Enterprise plan is priced the same as the Pro plan.",
                "The Enterprise plan is billed annually.",
            ),
            support=verdicts_reply("not_supported", "supported"),
        )
    )
    results, _, _ = run_judge(
        make_config(openai_server.base_url, cache_dir),
        answer="The Enterprise plan is priced the same as the Pro plan and is billed annually.",
        context=UNANSWERABLE_CONTEXT,
        scorers=["support"],
    )
    assert not results["support"].abstained
    assert results["support"].score == pytest.approx(0.5)  # 1 of 2, below the base's 1.0


def test_abstaining_and_asserting_answer_has_its_assertion_judged(
    openai_server: FakeOpenAIServer, cache_dir: Path
) -> None:
    router = Router(
        claims=claims_reply("The Enterprise plan probably costs $499 per year."),
        support=verdicts_reply("not_supported"),
        contradiction=verdicts_reply("unknown"),
    )
    openai_server.respond_with(router)
    results, _, _ = run_judge(
        make_config(openai_server.base_url, cache_dir),
        answer="I don't know, but probably $499 a year.",
        context=UNANSWERABLE_CONTEXT,
    )
    assert results["support"].score == 0.0
    assert not results["support"].abstained
    assert results["contradiction"].score == 1.0  # the contradiction definition's blind spot
    assert router.counts["claims"] == 1


def test_extracted_abstention_claims_are_dropped_and_recorded(
    openai_server: FakeOpenAIServer, cache_dir: Path
) -> None:
    # Not recognised before extraction (no pattern covers "could not find"), but the only claim
    # the extractor returns is itself an abstention.
    router = Router(
        claims=claims_reply("The documents do not provide the yearly price of the Enterprise plan.")
    )
    openai_server.respond_with(router)
    results, _, _ = run_judge(
        make_config(openai_server.base_url, cache_dir),
        answer="Sorry, I could not find the Enterprise plan's yearly price in what I was given.",
        context=UNANSWERABLE_CONTEXT,
    )
    for result in results.values():
        assert result.score == 1.0
        assert result.abstained
        assert [d.why for d in result.dropped_claims] == ["abstention"]
        assert result.claims == ()
    assert dict(router.counts) == {"claims": 1}


def test_blank_and_duplicate_claims_are_dropped_before_judging(
    openai_server: FakeOpenAIServer, cache_dir: Path
) -> None:
    router = Router(
        claims=claims_reply(CLAIMS[0], "  ", CLAIMS[0].upper(), CLAIMS[2]),
        support=verdicts_reply("supported", "not_supported"),
    )
    openai_server.respond_with(router)
    results, _, _ = run_judge(
        make_config(openai_server.base_url, cache_dir),
        answer=ANSWER,
        context=CONTEXT,
        scorers=["support"],
    )
    support = results["support"]
    assert support.claims == (CLAIMS[0], CLAIMS[2])
    assert [d.why for d in support.dropped_claims] == ["blank", "duplicate"]
    assert support.score == pytest.approx(0.5)  # 1 of the 2 claims judged
    verdict_request = next(r for r in openai_server.requests if prompt_of(r) == "support")
    assert "1. " + CLAIMS[0] in verdict_request.last_user_content
    assert "3. " not in verdict_request.last_user_content


def test_usage_is_attributed_per_scorer_and_to_the_claims_scope(
    openai_server: FakeOpenAIServer, cache_dir: Path
) -> None:
    openai_server.respond_with(
        Router(
            claims=claims_reply(*CLAIMS[:2], prompt_tokens=100, completion_tokens=20),
            support=verdicts_reply(
                "supported", "supported", prompt_tokens=200, completion_tokens=30
            ),
            contradiction=verdicts_reply(
                "unknown", "unknown", prompt_tokens=300, completion_tokens=40
            ),
        )
    )
    results, total, by_scope = run_judge(
        make_config(openai_server.base_url, cache_dir), answer=ANSWER, context=CONTEXT
    )
    # Prices 1 USD / 2 USD per million prompt / completion tokens:
    # claims 100 + 2*20 = 140e-6; support 200 + 2*30 = 260e-6; contradiction 300 + 2*40 = 380e-6
    assert results["support"].usage.prompt_tokens == 200
    assert results["support"].usage.cost_usd == pytest.approx(260e-6)
    assert results["contradiction"].usage.completion_tokens == 40
    assert results["contradiction"].usage.cost_usd == pytest.approx(380e-6)
    assert results["support"].claims_usage == results["contradiction"].claims_usage
    assert results["support"].claims_usage.cost_usd == pytest.approx(140e-6)
    assert by_scope["support"].prompt_tokens == 200
    assert by_scope["contradiction"].prompt_tokens == 300
    assert by_scope["claims"].prompt_tokens == 100
    combined = total_usage(results)
    assert (combined.calls, combined.prompt_tokens, combined.completion_tokens) == (3, 600, 90)
    assert combined.cost_usd == pytest.approx(780e-6)
    assert total.cost_usd == pytest.approx(combined.cost_usd)


def test_budgets_grow_with_the_answer_and_the_claims(
    openai_server: FakeOpenAIServer, cache_dir: Path
) -> None:
    many = tuple(f"Claim number {i} holds." for i in range(1, 12))
    openai_server.respond_with(
        Router(claims=claims_reply(*many), support=verdicts_reply(*["supported"] * 11))
    )
    results, _, _ = run_judge(
        make_config(openai_server.base_url, cache_dir),
        answer=ANSWER,
        context=CONTEXT,
        scorers=["support"],
    )
    assert results["support"].score == 1.0
    budgets = {prompt_of(r): r.body["max_tokens"] for r in openai_server.requests}
    # claims: 256 + 2 * ceil(bytes / 3); verdicts: 64 + 128 per claim = 1,472 for 11 claims
    assert budgets["claims"] == 256 + 2 * math.ceil(len(ANSWER.encode()) / 3)
    assert budgets["support"] == 64 + 128 * 11
    assert budgets["support"] > 1024  # RAGAS's fixed cap truncated on the embedded model


def test_second_run_is_served_from_the_cache_with_zero_requests(
    openai_server: FakeOpenAIServer, cache_dir: Path
) -> None:
    openai_server.respond_with(
        Router(
            claims=claims_reply(*CLAIMS[:2], prompt_tokens=100, completion_tokens=20),
            support=verdicts_reply("supported", "not_supported"),
            contradiction=verdicts_reply("unknown", "contradicted"),
        )
    )
    config = make_config(openai_server.base_url, cache_dir)
    first, first_usage, _ = run_judge(config, answer=ANSWER, context=CONTEXT)
    sent = openai_server.request_count
    assert sent == 3

    second, second_usage, _ = run_judge(config, answer=ANSWER, context=CONTEXT)
    assert openai_server.request_count == sent  # not a single new HTTP request
    assert second_usage.calls == 0
    assert second_usage.cache_hits == 3
    assert second_usage.saved_cost_usd == pytest.approx(first_usage.cost_usd)
    for name in SCORERS:
        assert second[name].score == first[name].score
        assert second[name].verdicts == first[name].verdicts


def test_a_new_repetition_is_a_new_sample_not_a_cache_hit(
    openai_server: FakeOpenAIServer, cache_dir: Path
) -> None:
    openai_server.respond_with(
        Router(
            claims=[claims_reply(CLAIMS[0]), claims_reply(CLAIMS[0])],
            support=[verdicts_reply("supported"), verdicts_reply("not_supported")],
        )
    )
    config = make_config(openai_server.base_url, cache_dir)
    rep0, _, _ = run_judge(config, answer=ANSWER, context=CONTEXT, scorers=["support"])
    rep1, _, _ = run_judge(
        config, answer=ANSWER, context=CONTEXT, scorers=["support"], repetition=1
    )
    assert (rep0["support"].score, rep1["support"].score) == (1.0, 0.0)
    assert (rep0["support"].repetition, rep1["support"].repetition) == (0, 1)
    assert openai_server.request_count == 4


def test_scorer_registry_calls_one_definition(
    openai_server: FakeOpenAIServer, cache_dir: Path
) -> None:
    import asyncio

    from hybridjudge.model import ModelClient

    openai_server.respond_with(
        Router(claims=claims_reply(CLAIMS[1]), contradiction=verdicts_reply("contradicted"))
    )

    async def go() -> JudgeResult:
        async with ModelClient(make_config(openai_server.base_url, cache_dir)) as client:
            return await SCORERS["contradiction"](client, answer=ANSWER, context=CONTEXT)

    result = asyncio.run(go())
    assert (result.scorer, result.score) == ("contradiction", 0.0)
    assert set(SCORERS) == {"support", "contradiction"}


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"scorers": ["faithfulness"]}, "unknown scorer"),
        ({"scorers": []}, "no scorer"),
        ({"scorers": ["support", "support"]}, "listed twice"),
        ({"mode": "both"}, "unknown mode"),
        ({"repetition": -1}, "repetition"),
    ],
)
def test_bad_arguments_raise_a_config_error_before_any_request(
    openai_server: FakeOpenAIServer, cache_dir: Path, kwargs: dict[str, object], message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        run_judge(
            make_config(openai_server.base_url, cache_dir),
            answer=ANSWER,
            context=CONTEXT,
            **kwargs,
        )
    assert openai_server.request_count == 0


def test_result_type_refuses_nan_and_inconsistent_states() -> None:
    from pydantic import ValidationError

    common = {"scorer": "support", "mode": "separate", "scope": "support", "repetition": 0}
    with pytest.raises(ValidationError):
        JudgeResult(status="scored", score=float("nan"), abstained=True, **common)
    with pytest.raises(ValidationError):
        JudgeResult(status="unscored", score=0.5, unscored_reason="no_claims", **common)
    with pytest.raises(ValidationError):
        JudgeResult(status="scored", score=0.5, claims=("a",), **common)  # no verdict
