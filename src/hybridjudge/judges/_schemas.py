"""The JSON shapes the judges ask the model for, as pydantic models.

The model layer turns each into a JSON schema (``response_format``; grammar-constrained on
llama.cpp, so the embedded model cannot answer outside it), validates the reply against it and
asks for one repair when it does not validate. A reply that breaks the schema twice is a
``parse_failure``, never a verdict.

Verdict replies are per claim and compact: a verdict code (``"YES"``/``"NO"``, one token each)
and, for the support question, a short quote of the supporting span, written before the code so
the model looks for the span before it commits. No free-text reasoning: the score does not need
it, and it was most of the completion tokens (up to about 550 per call for a long answer).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "ClaimReply",
    "ClaimsReply",
    "ContradictionLabel",
    "ContradictionReply",
    "PointReply",
    "SharedLabel",
    "SharedReply",
    "SupportLabel",
    "SupportReply",
    "YesNo",
]

SupportLabel = Literal["supported", "not_supported"]
"""Support-based verdict (RAGAS ``Faithfulness``): can the claim be directly inferred?"""
ContradictionLabel = Literal["contradicted", "not_contradicted"]
"""Contradiction-based verdict (DeepEval ``FaithfulnessMetric``): does the context contradict it?"""
SharedLabel = Literal["supported", "contradicted", "not_in_context"]
"""The three-way verdict of the shared mode, which feeds both scores."""
YesNo = Literal["YES", "NO"]
"""A verdict code."""

_QUOTE = Field(
    description="the shortest span of the text that states the statement, copied; '' if none"
)


class ClaimsReply(BaseModel):
    """Claim extraction (``claims="model"``): the answer as atomic, self-contained claims."""

    model_config = ConfigDict(extra="forbid")

    claims: list[str]
    """The claims, in the order the answer states them; empty when it asserts nothing."""


class ClaimReply(BaseModel):
    """Base of the per-claim verdict replies."""

    model_config = ConfigDict(extra="forbid")


class SupportReply(ClaimReply):
    """Support question: the supporting span, then whether the text states the statement."""

    quote: str = _QUOTE
    """The shortest supporting span, copied from the text (``""`` when there is none). Its
    length is capped by the call's ``max_tokens`` and the prompt (at most 20 words); the judges
    keep at most :data:`~hybridjudge.judges._evidence.MAX_QUOTE_CHARS` characters of it."""
    verdict: YesNo
    """``YES``: the text states the statement or it follows directly; ``NO`` otherwise."""


class PointReply(ClaimReply):
    """The support question's second look: which numbered sentences state the statement.

    Asked when the first reply said "YES" but its quote is not usable evidence (not in the
    context, or not about the claim): the embedded model often copies the *statement* as its
    "quote", while it can point at a numbered sentence. The sentences it names, copied from the
    context by us, then stand as the quote and get the same checks."""

    sentences: list[int] = Field(
        description="the numbers of the sentences that state the statement; [] if none"
    )
    """The numbers (1-based, as shown) of the sentences that state the statement."""
    verdict: YesNo
    """``YES``: those sentences state the statement or it follows directly; ``NO`` otherwise."""


class ContradictionReply(ClaimReply):
    """Contradiction question: can the statement and the text both be true?"""

    verdict: YesNo
    """``YES``: both can be true (agreement, or the text is silent); ``NO``: they cannot."""


class SharedReply(ClaimReply):
    """Shared mode: both questions in one reply."""

    quote: str = _QUOTE
    """As :attr:`SupportReply.quote`."""
    stated: YesNo
    """The support question's code."""
    both_true: YesNo
    """The contradiction question's code."""
