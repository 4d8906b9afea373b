"""The judges against a real OpenAI-compatible HTTP server on 127.0.0.1 with scripted replies.

Expected scores are hand-computed from the scripted verdicts in the comments: support = supported
/ claims; contradiction = (claims - contradicted) / claims (``docs/faithfulness.md``). A
"supported" needs the model's YES *and* a quote found in the context.
"""

from __future__ import annotations

import asyncio
import math
from pathlib import Path

import pytest

from hybridjudge import ConfigError
from hybridjudge.judges import SCORERS, JudgeResult, judge, load_prompt, total_usage
from hybridjudge.model import ModelClient
from tests.judges.helpers import (
    Router,
    claims_reply,
    contradiction_reply,
    evidence_of,
    make_config,
    point_reply,
    prompt_of,
    run_judge,
    shared_reply,
    statement_of,
    support_reply,
)
from tests.support.openai_server import FakeOpenAIServer, reply, server_error

CONTEXT = [
    "Refund Policy. Customers may request a full refund within 30 days of purchase for any "
    "reason. Refunds are processed to the original payment method within 5 business days. "
    "There is no restocking fee for standard plans. Enterprise hardware returns are subject to "
    "a 15% restocking fee."
]
REFUND = "Customers may request a full refund within 30 days of purchase for any reason"
PROCESSED = "Refunds are processed to the original payment method within 5 business days"
NO_FEE = "There is no restocking fee for standard plans"
HARDWARE = "Enterprise hardware returns are subject to a 15% restocking fee"
ANSWER = (
    "Customers have 30 days to request a refund. A refund takes 10 business days. There is no "
    "restocking fee for standard plans. Enterprise hardware returns have a 15% restocking fee."
)
CLAIMS = (
    "Customers have 30 days to request a refund",
    "A refund takes 10 business days",
    "There is no restocking fee for standard plans",
    "Enterprise hardware returns have a 15% restocking fee",
)
UNANSWERABLE_CONTEXT = [
    "Our Pro plan includes unlimited projects, priority support, and a 30-day free trial. "
    "Contact sales for volume discounts. All plans are billed monthly or annually."
]


@pytest.fixture
def cache_dir(tmp_path: Path) -> Path:
    return tmp_path / "cache"


def _scripted() -> Router:
    """Support: claims 1, 3, 4 quoted from the context, claim 2 not; contradiction: claim 2."""
    return Router(
        support={
            CLAIMS[0]: support_reply("YES", REFUND),
            CLAIMS[1]: support_reply("NO"),
            CLAIMS[2]: support_reply("YES", NO_FEE + "."),
            CLAIMS[3]: support_reply("YES", HARDWARE.lower()),
        },
        contradiction={
            CLAIMS[0]: contradiction_reply("YES"),
            CLAIMS[1]: contradiction_reply("NO"),
            CLAIMS[2]: contradiction_reply("YES"),
            CLAIMS[3]: contradiction_reply("YES"),
        },
    )


def test_separate_mode_judges_each_sentence_in_its_own_short_calls(
    openai_server: FakeOpenAIServer, cache_dir: Path
) -> None:
    router = _scripted()
    openai_server.respond_with(router)
    results, _, _ = run_judge(
        make_config(openai_server.base_url, cache_dir), answer=ANSWER, context=CONTEXT
    )
    support, contradiction = results["support"], results["contradiction"]
    # claims are the answer's sentences: no claim-extraction call
    assert support.claims == CLAIMS
    assert dict(router.counts) == {"support": 4, "contradiction": 4}
    # support: 3 supported of 4 = 0.75; contradiction: 1 contradicted of 4 -> 0.75
    assert support.score == pytest.approx(0.75)
    assert contradiction.score == pytest.approx(0.75)
    assert [v.label for v in support.verdicts] == [
        "supported",
        "not_supported",
        "supported",
        "supported",
    ]
    assert [v.label for v in contradiction.verdicts] == [
        "not_contradicted",
        "contradicted",
        "not_contradicted",
        "not_contradicted",
    ]
    # the quote travels with the verdict, checked against the context (case and the final
    # period do not matter)
    assert [(v.quote, v.quote_found) for v in support.verdicts] == [
        (REFUND, True),
        (None, None),
        (NO_FEE + ".", True),
        (HARDWARE.lower(), True),
    ]
    assert {v.quote for v in contradiction.verdicts} == {None}
    # each claim is shown with the 3 context sentences sharing most content words with it, in
    # context order; by hand for "A refund takes 10 business days": PROCESSED shares refund,
    # business, days (3); REFUND shares refund, days (2); "Refund Policy" refund (1); NO_FEE
    # and HARDWARE none
    assert support.verdicts[1].evidence == ("Refund Policy", REFUND, PROCESSED)
    assert support.prompt_versions == {
        name: load_prompt(name).version for name in ("support", "contradiction")
    }
    assert {r.mode for r in results.values()} == {"separate"}


def test_every_verdict_prompt_starts_with_the_same_instructions_then_the_context(
    openai_server: FakeOpenAIServer, cache_dir: Path
) -> None:
    openai_server.respond_with(_scripted())
    run_judge(make_config(openai_server.base_url, cache_dir), answer=ANSWER, context=CONTEXT)
    requests = openai_server.requests
    # one system message for every verdict prompt, so the server's prompt cache is reused
    assert len({r.messages[0]["content"] for r in requests}) == 1
    for request in requests:
        assert request.messages[1]["content"].startswith("Text:\n")
    # for one claim, the support and contradiction prompts agree up to the claim
    by_claim: dict[str, list[str]] = {}
    for request in requests:
        user = request.messages[1]["content"]
        by_claim.setdefault(statement_of(request), []).append(user.split("\n\nStatement: ")[0])
    assert all(len(set(prefixes)) == 1 for prefixes in by_claim.values())
    # replies are compact: a code (and a capped quote), never free-text reasoning
    budgets = {prompt_of(r): r.body["max_tokens"] for r in requests}
    assert budgets == {"support": 96, "contradiction": 12}


def test_a_paraphrase_quoted_as_itself_is_supported_by_the_sentence_it_points_at(
    openai_server: FakeOpenAIServer, cache_dir: Path
) -> None:
    # issue 13: the embedded model copied paraphrased claims as their own "quote" (not in the
    # context), so clean simplified answers read as unsupported; pointing at a numbered sentence
    # it can do, and the sentence (copied by us) gets the quote's checks
    paraphrase = "You can get all your money back within 30 days of buying"
    invented = "Refunds take 10 business days"
    router = Router(
        support={
            paraphrase: support_reply("YES", paraphrase),
            invented: support_reply("YES", invented),
        },
        point={paraphrase: point_reply("YES", 2), invented: point_reply("YES", 3)},
    )
    openai_server.respond_with(router)
    results, _, by_scope = run_judge(
        make_config(openai_server.base_url, cache_dir),
        answer=f"{paraphrase}. {invented}.",
        context=CONTEXT,
        scorers=["support"],
    )
    support = results["support"]
    first, second = support.verdicts
    assert (first.label, first.quote, first.quote_found) == ("supported", f"{REFUND}.", True)
    assert "pointed at sentence 2" in first.reason
    # the invented figure: the sentence pointed at lacks the claim's number (10), so no support
    assert (second.label, second.quote) == ("not_supported", f"{PROCESSED}.")
    assert support.score == 0.5
    # by hand: 2 support calls + 2 second looks, all counted under the support scope
    assert router.counts == {"support": 2, "point": 2}
    assert support.usage.calls == 4
    assert by_scope["support"].calls == 4


def test_a_pointing_reply_naming_a_sentence_not_shown_is_a_parse_failure(
    openai_server: FakeOpenAIServer, cache_dir: Path
) -> None:
    claim = "You can get all your money back within 30 days of buying"
    openai_server.respond_with(
        Router(
            support={claim: support_reply("YES", claim)},
            # 7 is not among the 3 sentences shown; the repair names none for a YES
            point={claim: [point_reply("YES", 7), point_reply("YES")]},
        )
    )
    results, _, _ = run_judge(
        make_config(openai_server.base_url, cache_dir),
        answer=f"{claim}.",
        context=CONTEXT,
        scorers=["support"],
    )
    support = results["support"]
    assert (support.status, support.score, support.unscored_reason) == (
        "unscored",
        None,
        "parse_failure",
    )
    assert support.detail is not None
    assert "between 1 and 3" in support.detail.error
    assert 'a "YES" must list the numbers' in support.detail.error


def test_a_supported_verdict_without_a_real_quote_is_not_supported(
    openai_server: FakeOpenAIServer, cache_dir: Path
) -> None:
    inverted = "Customers may not request a refund within 30 days of purchase"
    opposite = "Standard plans are also subject to a restocking fee on return"
    vague = "Refunds are fast"
    elsewhere = "Standard plans may be returned within 60 days"
    openai_server.respond_with(
        Router(
            support={
                # a real span, but about something else and without the claim's number
                elsewhere: support_reply("YES", NO_FEE),
                # the model restates the inverted claim as what the context says
                inverted: support_reply("YES", inverted),
                # a real quote, but it says the opposite (one of the two is negated)
                opposite: support_reply("YES", NO_FEE),
                # YES with no quote at all
                vague: support_reply("YES", ""),
            },
            # the second look (asked for every YES without a usable quote, not for the quote
            # of opposite polarity): the sentence the model points at must pass the same checks
            point={
                inverted: point_reply("YES", 2),  # the refund sentence: opposite polarity
                vague: point_reply("NO"),
                elsewhere: point_reply("YES", 1),  # a sentence without the claim's number
            },
        )
    )
    results, _, _ = run_judge(
        make_config(openai_server.base_url, cache_dir),
        answer=f"{inverted}. {opposite}. {vague}. {elsewhere}.",
        context=CONTEXT,
        scorers=["support"],
    )
    support = results["support"]
    assert support.score == 0.0
    assert [(v.label, v.quote_found) for v in support.verdicts] == [
        ("not_supported", True),  # the sentence pointed at (copied by us) is in the context
        ("not_supported", True),
        ("not_supported", None),
        ("not_supported", True),
    ]
    assert "not in the context" in support.verdicts[0].reason
    assert "opposite polarity" in support.verdicts[0].reason
    assert "none does" in support.verdicts[2].reason
    assert "second look" not in support.verdicts[1].reason
    assert "opposite polarity" in support.verdicts[1].reason
    assert "not about the claim" in support.verdicts[3].reason


def test_contradiction_takes_a_second_look_when_the_claim_negates_its_sentence(
    openai_server: FakeOpenAIServer, cache_dir: Path
) -> None:
    inverted = "Customers may not request a refund within 30 days of purchase"
    router = Router(
        contradiction={
            # with 3 sentences the model sees no conflict; against the one sentence, it does
            inverted: [contradiction_reply("YES"), contradiction_reply("NO")],
            CLAIMS[3]: contradiction_reply("YES"),
        }
    )
    openai_server.respond_with(router)
    results, _, _ = run_judge(
        make_config(openai_server.base_url, cache_dir),
        answer=f"{inverted}. {CLAIMS[3]}.",
        context=CONTEXT,
        scorers=["contradiction"],
    )
    result = results["contradiction"]
    assert [v.label for v in result.verdicts] == ["contradicted", "not_contradicted"]
    assert result.score == pytest.approx(0.5)
    # the inverted claim: a second call against its most related sentence alone; the other
    # claim has no polarity cue and gets one call
    assert router.seen.count(("contradiction", inverted)) == 2
    assert router.seen.count(("contradiction", CLAIMS[3])) == 1
    second = [r for r in openai_server.requests if statement_of(r) == inverted][1]
    assert evidence_of(second) == REFUND + "."
    assert result.usage.calls == 3


def test_a_claim_the_context_is_silent_on_is_not_asked_about(
    openai_server: FakeOpenAIServer, cache_dir: Path
) -> None:
    router = _scripted()
    openai_server.respond_with(router)
    # "Taking it on an empty stomach helps absorption" shares no content word with the context
    silent = "Taking it on an empty stomach helps absorption"
    results, _, _ = run_judge(
        make_config(openai_server.base_url, cache_dir),
        answer=f"{CLAIMS[0]}. {silent}.",
        context=CONTEXT,
    )
    assert dict(router.counts) == {"support": 1, "contradiction": 1}  # claim 1 only
    support, contradiction = results["support"], results["contradiction"]
    assert (support.verdicts[1].label, contradiction.verdicts[1].label) == (
        "not_supported",
        "not_contradicted",
    )
    assert "silent" in support.verdicts[1].reason
    assert support.verdicts[1].evidence == ()
    # support 1 of 2; contradiction 0 of 2 contradicted
    assert (support.score, contradiction.score) == (0.5, 1.0)


def test_a_short_fragment_is_judged_as_the_answer_to_the_question(
    openai_server: FakeOpenAIServer, cache_dir: Path
) -> None:
    question = "The Oberoi family is part of a hotel company that has a head office in what city?"
    context = [
        "The Oberoi family is an Indian family that is famous for its involvement in hotels, "
        "namely through The Oberoi Group.The Oberoi Group is a hotel company with its head "
        "office in Delhi."
    ]
    openai_server.respond_with(
        Router(support={"Delhi": support_reply("YES", "its head office in Delhi")})
    )
    results, _, _ = run_judge(
        make_config(openai_server.base_url, cache_dir),
        answer="Delhi",
        context=context,
        question=question,
    )
    assert results["support"].score == 1.0
    # a bare answer is not asked the contradiction question (on the embedded model it drew
    # false contradictions on right answers, such as "United States")
    assert results["contradiction"].score == 1.0
    assert "bare answer" in results["contradiction"].verdicts[0].reason
    (request,) = openai_server.requests
    assert statement_of(request) == f'The answer to "{question}" is: Delhi'
    # HaluEval's glued sentences ("...Group.The Oberoi...") are split
    assert evidence_of(request).splitlines() == [
        "The Oberoi family is an Indian family that is famous for its involvement in hotels, "
        "namely through The Oberoi Group.",
        "The Oberoi Group is a hotel company with its head office in Delhi.",
    ]


def test_shared_mode_one_call_per_claim_feeds_both_scores(
    openai_server: FakeOpenAIServer, cache_dir: Path
) -> None:
    router = Router(
        shared={
            CLAIMS[0]: shared_reply("YES", "YES", REFUND),
            CLAIMS[1]: shared_reply("NO", "NO"),
            CLAIMS[2]: shared_reply("NO", "YES"),
            # YES without a real quote: not supported, and both can be true: not_in_context
            CLAIMS[3]: shared_reply("YES", "YES", "hardware has a fee of 15 percent"),
        }
    )
    openai_server.respond_with(router)
    results, _, _ = run_judge(
        make_config(openai_server.base_url, cache_dir),
        answer=ANSWER,
        context=CONTEXT,
        mode="shared",
    )
    assert dict(router.counts) == {"shared": 4}
    labels = ["supported", "contradicted", "not_in_context", "not_in_context"]
    for name in ("support", "contradiction"):
        assert [v.label for v in results[name].verdicts] == labels
        assert results[name].scope == "shared"
    # support: 1 supported of 4; contradiction: 1 contradicted of 4 -> 3/4
    assert results["support"].score == pytest.approx(0.25)
    assert results["contradiction"].score == pytest.approx(0.75)
    assert total_usage(results).calls == 4  # the shared calls counted once


def test_claims_can_come_from_the_model(openai_server: FakeOpenAIServer, cache_dir: Path) -> None:
    router = Router(
        claims=claims_reply(CLAIMS[0], CLAIMS[1]),
        support={CLAIMS[0]: support_reply("YES", REFUND), CLAIMS[1]: support_reply("NO")},
    )
    openai_server.respond_with(router)
    results, _, by_scope = run_judge(
        make_config(openai_server.base_url, cache_dir),
        answer="Thirty days to ask, and ten business days to get it.",
        context=CONTEXT,
        scorers=["support"],
        claims="model",
    )
    support = results["support"]
    assert support.claims == CLAIMS[:2]
    assert support.score == pytest.approx(0.5)
    assert dict(router.counts) == {"claims": 1, "support": 2}
    assert set(support.prompt_versions) == {"claims", "support"}
    assert support.claims_usage.calls == 1
    assert by_scope["claims"].calls == 1


def test_an_unparseable_reply_is_unscored_with_the_claim_never_a_verdict(
    openai_server: FakeOpenAIServer, cache_dir: Path
) -> None:
    router = _scripted()
    # claim 2's support reply is cut off, and so is the repair
    router.queues[("support", CLAIMS[1])].clear()
    router.queues[("support", CLAIMS[1])].extend(
        [reply('{"quote": "", "verdict": '), reply('{"quote": "", "verdict": "MAYBE"}')]
    )
    openai_server.respond_with(router)
    results, _, _ = run_judge(
        make_config(openai_server.base_url, cache_dir), answer=ANSWER, context=CONTEXT
    )
    support = results["support"]
    assert support.status == "unscored"
    assert support.score is None
    assert support.unscored_reason == "parse_failure"
    assert support.detail is not None
    assert support.detail.stage == "verdicts"
    assert support.detail.error.startswith("claim 2: ")
    assert support.detail.raw == '{"quote": "", "verdict": "MAYBE"}'
    assert support.verdicts == ()
    assert support.usage.calls == 5  # 4 claims + the repair
    assert support.usage.repairs == 1
    # the other definition is unaffected
    assert results["contradiction"].score == pytest.approx(0.75)


def test_model_error_is_unscored_for_the_failing_scorer_only(
    openai_server: FakeOpenAIServer, cache_dir: Path
) -> None:
    router = _scripted()
    router.queues[("contradiction", CLAIMS[0])].clear()
    router.queues[("contradiction", CLAIMS[0])].extend([server_error(), server_error()])
    openai_server.respond_with(router)
    results, _, _ = run_judge(
        make_config(openai_server.base_url, cache_dir), answer=ANSWER, context=CONTEXT
    )
    assert results["contradiction"].unscored_reason == "model_error"
    assert results["contradiction"].detail is not None
    assert results["contradiction"].detail.error.startswith("claim 1: ")
    assert results["support"].score == pytest.approx(0.75)


def test_no_claims_is_unscored_never_nan(openai_server: FakeOpenAIServer, cache_dir: Path) -> None:
    results, _, _ = run_judge(
        make_config(openai_server.base_url, cache_dir), answer="... !!", context=CONTEXT
    )
    for result in results.values():
        assert result.status == "unscored"
        assert result.unscored_reason == "no_claims"
        assert result.score is None
    assert openai_server.request_count == 0


def test_blank_answer_is_no_claims_without_any_request(
    openai_server: FakeOpenAIServer, cache_dir: Path
) -> None:
    results, _, _ = run_judge(
        make_config(openai_server.base_url, cache_dir), answer="   ", context=CONTEXT
    )
    assert {r.unscored_reason for r in results.values()} == {"no_claims"}
    assert openai_server.request_count == 0


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
    claim = "The Enterprise plan is priced the same as the Pro plan and is billed annually"
    openai_server.respond_with(
        Router(support={claim: support_reply("YES", "All plans are billed monthly or annually")})
    )
    results, _, _ = run_judge(
        make_config(openai_server.base_url, cache_dir),
        answer=claim + ".",
        context=UNANSWERABLE_CONTEXT,
        scorers=["support"],
    )
    assert not results["support"].abstained
    # the quote is real, but only covers "billed annually": the model's YES counts here
    # (the quote check is about the quote's existence and polarity, not its coverage)
    assert results["support"].verdicts[0].quote_found is True


def test_abstaining_and_asserting_answer_has_its_assertion_judged(
    openai_server: FakeOpenAIServer, cache_dir: Path
) -> None:
    sentence = "I don't know, but probably $499 a year"
    router = Router(
        support={sentence: support_reply("NO")},
        contradiction={sentence: contradiction_reply("YES")},
    )
    openai_server.respond_with(router)
    results, _, _ = run_judge(
        make_config(openai_server.base_url, cache_dir),
        answer=sentence + ".",
        context=UNANSWERABLE_CONTEXT,
    )
    assert results["support"].score == 0.0
    assert not results["support"].abstained
    assert results["contradiction"].score == 1.0  # the contradiction definition's blind spot


def test_extracted_abstention_claims_are_dropped_and_recorded(
    openai_server: FakeOpenAIServer, cache_dir: Path
) -> None:
    # Not recognised before extraction (no marker covers "says nothing about"), but the only
    # claim the extractor returns is itself an abstention.
    router = Router(
        claims=claims_reply("The documents do not provide the yearly price of the Enterprise plan.")
    )
    openai_server.respond_with(router)
    results, _, _ = run_judge(
        make_config(openai_server.base_url, cache_dir),
        answer="Sorry, what I was given says nothing about the Enterprise plan's yearly price.",
        context=UNANSWERABLE_CONTEXT,
        claims="model",
    )
    for result in results.values():
        assert result.score == 1.0
        assert result.abstained
        assert [d.why for d in result.dropped_claims] == ["abstention"]
        assert result.claims == ()
    assert dict(router.counts) == {"claims": 1}


def test_duplicate_and_abstaining_sentences_are_dropped_before_judging(
    openai_server: FakeOpenAIServer, cache_dir: Path
) -> None:
    router = Router(support={CLAIMS[0]: support_reply("YES", REFUND)})
    openai_server.respond_with(router)
    results, _, _ = run_judge(
        make_config(openai_server.base_url, cache_dir),
        answer=f"{CLAIMS[0]}. {CLAIMS[0].upper()}. The context does not say how fast refunds are.",
        context=CONTEXT,
        scorers=["support"],
    )
    support = results["support"]
    assert support.claims == (CLAIMS[0],)
    assert [d.why for d in support.dropped_claims] == ["duplicate", "abstention"]
    assert support.score == 1.0
    assert dict(router.counts) == {"support": 1}


def test_usage_is_attributed_per_scorer(openai_server: FakeOpenAIServer, cache_dir: Path) -> None:
    openai_server.respond_with(
        Router(
            support={
                c: support_reply("NO", prompt_tokens=200, completion_tokens=30) for c in CLAIMS[:2]
            },
            contradiction={
                c: contradiction_reply("YES", prompt_tokens=100, completion_tokens=5)
                for c in CLAIMS[:2]
            },
        )
    )
    results, total, by_scope = run_judge(
        make_config(openai_server.base_url, cache_dir),
        answer=f"{CLAIMS[0]}. {CLAIMS[1]}.",
        context=CONTEXT,
    )
    # Prices 1 USD / 2 USD per million prompt / completion tokens, 2 calls per scorer:
    # support 2 x (200 + 2 x 30) = 520e-6; contradiction 2 x (100 + 2 x 5) = 220e-6
    assert results["support"].usage.prompt_tokens == 400
    assert results["support"].usage.cost_usd == pytest.approx(520e-6)
    assert results["contradiction"].usage.completion_tokens == 10
    assert results["contradiction"].usage.cost_usd == pytest.approx(220e-6)
    assert results["support"].claims_usage.calls == 0
    assert by_scope["support"].calls == 2
    assert by_scope["contradiction"].prompt_tokens == 200
    combined = total_usage(results)
    assert (combined.calls, combined.prompt_tokens, combined.completion_tokens) == (4, 600, 70)
    assert total.cost_usd == pytest.approx(combined.cost_usd)


def test_claims_budget_grows_with_the_answer(
    openai_server: FakeOpenAIServer, cache_dir: Path
) -> None:
    openai_server.respond_with(
        Router(claims=claims_reply(CLAIMS[1]), support={CLAIMS[1]: support_reply("NO")})
    )
    run_judge(
        make_config(openai_server.base_url, cache_dir),
        answer=ANSWER,
        context=CONTEXT,
        scorers=["support"],
        claims="model",
    )
    budgets = {prompt_of(r): r.body["max_tokens"] for r in openai_server.requests}
    # claims: 256 + 2 * ceil(bytes / 3)
    assert budgets["claims"] == 256 + 2 * math.ceil(len(ANSWER.encode()) / 3)
    assert budgets["support"] == 96


def test_second_run_is_served_from_the_cache_with_zero_requests(
    openai_server: FakeOpenAIServer, cache_dir: Path
) -> None:
    openai_server.respond_with(_scripted())
    config = make_config(openai_server.base_url, cache_dir)
    first, first_usage, _ = run_judge(config, answer=ANSWER, context=CONTEXT)
    sent = openai_server.request_count
    assert sent == 8

    second, second_usage, _ = run_judge(config, answer=ANSWER, context=CONTEXT)
    assert openai_server.request_count == sent  # not a single new HTTP request
    assert second_usage.calls == 0
    assert second_usage.cache_hits == 8
    assert second_usage.saved_cost_usd == pytest.approx(first_usage.cost_usd)
    for name in SCORERS:
        assert second[name].score == first[name].score
        assert second[name].verdicts == first[name].verdicts


def test_a_new_repetition_is_a_new_sample_not_a_cache_hit(
    openai_server: FakeOpenAIServer, cache_dir: Path
) -> None:
    openai_server.respond_with(
        Router(support={CLAIMS[0]: [support_reply("YES", REFUND), support_reply("NO")]})
    )
    config = make_config(openai_server.base_url, cache_dir)
    kwargs = {"answer": CLAIMS[0], "context": CONTEXT, "scorers": ["support"]}
    rep0, _, _ = run_judge(config, **kwargs)
    rep1, _, _ = run_judge(config, **kwargs, repetition=1)
    assert (rep0["support"].score, rep1["support"].score) == (1.0, 0.0)
    assert (rep0["support"].repetition, rep1["support"].repetition) == (0, 1)
    assert openai_server.request_count == 2


def test_scorer_registry_calls_one_definition(
    openai_server: FakeOpenAIServer, cache_dir: Path
) -> None:
    openai_server.respond_with(Router(contradiction={CLAIMS[1]: contradiction_reply("NO")}))

    async def go() -> JudgeResult:
        async with ModelClient(make_config(openai_server.base_url, cache_dir)) as client:
            return await SCORERS["contradiction"](client, answer=CLAIMS[1], context=CONTEXT)

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
        ({"claims": "words"}, "unknown claims source"),
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


def test_the_same_question_asked_twice_at_once_is_sent_once(
    openai_server: FakeOpenAIServer, cache_dir: Path
) -> None:
    # a base answer and its mutant share a sentence; judged at the same time, the shared
    # question is sent once and the second asker is served from the cache
    shared_claim, extra = CLAIMS[0], CLAIMS[1]
    router = Router(
        support={
            shared_claim: support_reply("YES", REFUND, delay=0.3),
            extra: support_reply("NO", delay=0.3),
        }
    )
    openai_server.respond_with(router)

    async def go() -> list[dict[str, JudgeResult]]:
        async with ModelClient(make_config(openai_server.base_url, cache_dir)) as client:
            return list(
                await asyncio.gather(
                    judge(client, answer=shared_claim, context=CONTEXT, scorers=["support"]),
                    judge(
                        client,
                        answer=f"{shared_claim}. {extra}.",
                        context=CONTEXT,
                        scorers=["support"],
                    ),
                )
            )

    base, mutant = asyncio.run(go())
    assert sorted(router.seen) == sorted([("support", shared_claim), ("support", extra)])
    assert (base["support"].score, mutant["support"].score) == (1.0, 0.5)
    usages = [base["support"].usage, mutant["support"].usage]
    assert sum(u.calls for u in usages) == 2
    assert sum(u.cache_hits for u in usages) == 1


def test_planned_calls_bound_the_calls_without_any_request() -> None:
    from hybridjudge.judges import planned_calls

    inverted = "Customers may not request a refund within 30 days of purchase"
    silent = "Taking it on an empty stomach helps absorption"
    calls = planned_calls(f"{inverted}. {silent}. Delhi.", CONTEXT, "Which city?")
    # by hand: the inverted claim gets a support call, a contradiction call and (its polarity
    # differs from its best sentence) a second look, and the support call its pointing second
    # look (counted: the first reply decides whether it happens); the silent claim none; the
    # bare answer "Delhi" shares no word with the context either (its question neither)
    assert [c.prompt for c in calls] == ["support", "point", "contradiction", "contradiction"]
    assert [c.max_tokens for c in calls] == [96, 32, 12, 12]
    assert calls[3].messages[1]["content"].startswith(f"Text:\n{REFUND}.\n\nStatement: ")
    # the pointing question shows the support question's sentences, numbered
    support_text = calls[0].messages[1]["content"].split("Text:\n", 1)[1].split("\n\n")[0]
    pointed = calls[1].messages[1]["content"].split("Sentences:\n", 1)[1].split("\n\n")[0]
    assert pointed.splitlines() == [
        f"[{i}] {line}" for i, line in enumerate(support_text.splitlines(), 1)
    ]
    shared = planned_calls(f"{inverted}. {silent}.", CONTEXT, mode="shared")
    assert [c.prompt for c in shared] == ["shared"]
    assert planned_calls("The context does not say.", CONTEXT) == []
