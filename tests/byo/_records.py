"""RAG records written for these tests: a support bot's answers over a shop's policy passages.

Twelve answerable records (each answer restates its context with its numbers) and two
unanswerable ones (the context does not say; the answer abstains). Every record carries fields
of the user's own (``team``, ``trace_id``) that must reach the results as metadata.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# (id, question, contexts, answer, reference, anchors or None)
_ROWS: list[tuple[str, str, list[str], str, str, list[str] | None]] = [
    (
        "refund-window",
        "How long do I have to ask for a refund?",
        ["Customers may request a full refund within 30 days of purchase."],
        "You can request a full refund within 30 days of purchase.",
        "Within 30 days of purchase.",
        ["30 days"],
    ),
    (
        "refund-speed",
        "How fast are refunds processed?",
        ["Refunds are processed within 5 business days after the return arrives."],
        "Refunds are processed within 5 business days after your return arrives.",
        "Within 5 business days.",
        ["5 business days"],
    ),
    (
        "restocking-fee",
        "Is there a restocking fee on hardware?",
        ["Enterprise hardware returns are subject to a 15% restocking fee."],
        "Yes, enterprise hardware returns have a 15% restocking fee.",
        "A 15% restocking fee applies to enterprise hardware.",
        ["15%"],
    ),
    (
        "shipping-free",
        "When is shipping free?",
        ["Standard shipping is free on orders over $50 within Germany."],
        "Standard shipping is free on orders over $50 within Germany.",
        "Orders over $50 ship free within Germany.",
        None,
    ),
    (
        "express-cost",
        "What does express shipping cost?",
        ["Express shipping costs $12 and arrives in 2 days."],
        "Express shipping costs $12 and arrives in 2 days.",
        "$12, delivered in 2 days.",
        None,
    ),
    (
        "warranty",
        "How long is the warranty on laptops?",
        ["All laptops come with a 24 month warranty covering manufacturing defects."],
        "Laptops have a 24 month warranty that covers manufacturing defects.",
        "24 months.",
        ["24 month"],
    ),
    (
        "support-hours",
        "When is phone support open?",
        ["Phone support is open from 8 am to 6 pm on weekdays."],
        "Phone support is open from 8 am to 6 pm on weekdays.",
        "8 am to 6 pm, Monday to Friday.",
        None,
    ),
    (
        "loyalty-points",
        "How many points do I earn per euro?",
        ["Members earn 2 loyalty points for every euro spent at Acme Store."],
        "You earn 2 loyalty points for every euro you spend at Acme Store.",
        "2 points per euro at Acme Store.",
        None,
    ),
    (
        "gift-cards",
        "Do gift cards expire?",
        ["Gift cards are valid for 3 years from the date of purchase."],
        "Gift cards are valid for 3 years from the date of purchase.",
        "They expire after 3 years.",
        ["3 years"],
    ),
    (
        "price-match",
        "Do you match competitor prices?",
        ["Acme Store matches the price of any local competitor within 14 days of purchase."],
        "Acme Store will match a local competitor's price within 14 days of purchase.",
        "Yes, within 14 days.",
        None,
    ),
    (
        "student-discount",
        "Is there a student discount?",
        ["Students with a valid ID receive a 10% discount on all software."],
        "Students with a valid ID get a 10% discount on all software.",
        "10% off software for students.",
        ["10%"],
    ),
    (
        "trade-in",
        "Can I trade in my old phone?",
        ["Phones up to 4 years old can be traded in for store credit."],
        "Phones up to 4 years old can be traded in for store credit.",
        "Yes, if the phone is at most 4 years old.",
        None,
    ),
    (
        "store-hours-sunday",
        "Is the Berlin store open on public holidays?",
        ["The Berlin store is open from 10 am to 8 pm, Monday to Saturday."],
        "The context does not say whether the Berlin store opens on public holidays.",
        "Unknown from the policy.",
        None,
    ),
    (
        "ceo-name",
        "Who founded the company?",
        ["Acme Store ships to 12 countries in Europe."],
        "I don't know: the context does not say who founded the company.",
        "Not stated.",
        None,
    ),
]
UNANSWERABLE = {"store-hours-sunday", "ceo-name"}


def ragas_records() -> list[dict[str, Any]]:
    """The records in RAGAS's field names (``user_input``, ``response``...), with extra fields."""
    out = []
    for number, (rid, question, contexts, answer, reference, anchors) in enumerate(_ROWS):
        record: dict[str, Any] = {
            "id": rid,
            "user_input": question,
            "retrieved_contexts": contexts,
            "response": answer,
            "reference": reference,
            "answerable": rid not in UNANSWERABLE,
            "team": "payments" if number % 2 else "logistics",
            "trace_id": f"tr-{number:03d}",
        }
        if anchors is not None:
            record["anchors"] = anchors
        out.append(record)
    return out


@dataclass
class LLMTestCase:
    """Shaped like DeepEval's ``LLMTestCase`` (its field names), without importing DeepEval."""

    input: str
    actual_output: str
    expected_output: str | None = None
    retrieval_context: list[str] | None = None
    context: list[str] | None = None
    name: str | None = None
    additional_metadata: dict[str, Any] | None = None
    tools_called: list[Any] | None = None
    tags: list[str] = field(default_factory=list)


def deepeval_cases() -> list[LLMTestCase]:
    """The same records as DeepEval-style test cases; ids, labels and anchors go in metadata."""
    out = []
    for record in ragas_records():
        meta = {
            "id": record["id"],
            "answerable": record["answerable"],
            "team": record["team"],
            "trace_id": record["trace_id"],
        }
        if "anchors" in record:
            meta["anchors"] = record["anchors"]
        out.append(
            LLMTestCase(
                input=record["user_input"],
                actual_output=record["response"],
                expected_output=record["reference"],
                retrieval_context=record["retrieved_contexts"],
                name=record["id"],
                additional_metadata=meta,
                tags=["shop"],
            )
        )
    return out
