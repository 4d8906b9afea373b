"""The per-claim reply schemas, the evidence selection and the quote check, without a model."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from hybridjudge.judges._evidence import (
    claim_sentences,
    context_sentences,
    polarity_differs,
    quote_covers,
    quote_in_context,
    ranked_sentences,
    related_sentences,
)
from hybridjudge.judges._schemas import ContradictionReply, SharedReply, SupportReply

CONTEXT = context_sentences(
    [
        "Refund Policy. Customers may request a full refund within 30 days of purchase for any "
        "reason. Refunds are processed to the original payment method within 5 business days. "
        "There is no restocking fee for standard plans. Enterprise hardware returns are subject "
        "to a 15% restocking fee."
    ]
)


def test_replies_accept_only_the_verdict_codes() -> None:
    assert SupportReply.model_validate({"quote": "x", "verdict": "YES"}).verdict == "YES"
    assert ContradictionReply.model_validate({"verdict": "NO"}).verdict == "NO"
    shared = SharedReply.model_validate({"quote": "", "stated": "NO", "both_true": "YES"})
    assert (shared.stated, shared.both_true) == ("NO", "YES")
    for bad in (
        {"quote": "x", "verdict": "supported"},  # a label, not a code
        {"verdict": "YES"},  # the quote is required
        {"quote": "x", "verdict": "YES", "reason": "because"},  # no free text
    ):
        with pytest.raises(ValidationError):
            SupportReply.model_validate(bad)
    with pytest.raises(ValidationError):
        ContradictionReply.model_validate({"verdict": "unknown"})


def test_quote_comes_before_the_code_in_the_schema() -> None:
    # a small model writes the span before it commits to YES or NO
    assert list(SupportReply.model_json_schema()["properties"]) == ["quote", "verdict"]
    assert list(SharedReply.model_json_schema()["properties"]) == ["quote", "stated", "both_true"]


def test_context_sentences_split_glued_sentences() -> None:
    assert context_sentences(["One fact.Another fact here. A third"]) == (
        "One fact",
        "Another fact here",
        "A third",
    )
    assert claim_sentences("- First point.  \n- Second point\n\n...") == [
        "First point",
        "Second point",
    ]


def test_related_sentences_rank_by_shared_content_words_and_numbers() -> None:
    claim = "Enterprise hardware returns have a 15% restocking fee"
    # by hand: HARDWARE shares enterprise, hardware, returns, 15 (x2), restocking, fee = 7;
    # "There is no restocking fee ..." shares restocking, fee = 2; the others none
    assert ranked_sentences(claim, CONTEXT)[:2] == [CONTEXT[4], CONTEXT[3]]
    # the best k in context order; ties go to the earlier sentence (here "Refund Policy")
    assert related_sentences(claim, CONTEXT, k=3) == (CONTEXT[0], CONTEXT[3], CONTEXT[4])
    assert related_sentences(claim, CONTEXT[:2], k=3) == CONTEXT[:2]


@pytest.mark.parametrize(
    ("quote", "found"),
    [
        ("customers may request a full refund within 30 days", True),  # substring, case folded
        ("There is no restocking fee for standard plans.", True),
        ("Customers may request a refund within 30 days of purchase", True),  # 1 word dropped
        # 10 of 11 words in order, but the quote adds a negation the context does not have
        ("Customers may not request a refund within 30 days of purchase", False),
        ("there is a restocking fee for standard plans", False),  # drops the context's "no"
        ("Customers may request a full refund within 60 days", False),  # another number
        ("refund within 40 days", False),
        # every content word must be in the sentence: a substituted word is not a quote
        ("Customers may request a partial refund within 30 days", False),
        ("", False),
        ("  .. ", False),
    ],
)
def test_quote_in_context(quote: str, found: bool) -> None:
    assert quote_in_context(quote, CONTEXT) is found


@pytest.mark.parametrize(
    ("claim", "sentence", "differs"),
    [
        (
            "A notice period of ninety (90) days is not required to terminate the agreement",
            "Either party may terminate this Agreement upon ninety (90) days' written notice.",
            True,
        ),
        (
            "A notice period of ninety (90) days is required to terminate the agreement",
            "Either party may terminate this Agreement upon ninety (90) days' written notice.",
            False,
        ),
        ("Standard plans are also subject to a restocking fee", CONTEXT[3], True),
        # the negated clause is about something else than the sentence
        (
            "Customers have 30 days to request a refund, and there is no restocking fee",
            CONTEXT[1],
            False,
        ),
        (
            "Do not go to hospital if you have a fever",
            "Return to hospital if you have a fever.",
            True,
        ),
    ],
)
def test_polarity_differs(claim: str, sentence: str, differs: bool) -> None:
    assert polarity_differs(claim, sentence) is differs


@pytest.mark.parametrize(
    ("claim", "quote", "answer", "covers"),
    [
        ("Visit your GP for a check-up in 2 weeks", "Please see your GP in 2 weeks", None, True),
        # a real span about something else
        (
            "You do not need to finish the course of antibiotics",
            "See your GP in 2 weeks",
            None,
            False,
        ),
        # the claim's number is not in the quote
        (
            "About 11% of people notice an improvement",
            "most people notice an improvement",
            None,
            False,
        ),
        # a bare answer shown as the answer to its question: the quote must name the answer,
        # and the numbers that count are the answer's, not the question's
        (
            'The answer to "Head office in what city?" is: Delhi',
            "its head office in Delhi",
            "Delhi",
            True,
        ),
        (
            'The answer to "What comic book published the superhero?" is: DC Comics',
            "The Sandman Overture",
            "DC Comics",
            False,
        ),
        (
            'The answer to "What vehicle, introduced in 2006, does he drive?" is: Ford Fusion',
            "driving the No. 32 Ford Fusion",
            "Ford Fusion",
            True,
        ),
    ],
)
def test_quote_covers(claim: str, quote: str, answer: str | None, covers: bool) -> None:
    assert quote_covers(claim, quote, answer=answer) is covers
