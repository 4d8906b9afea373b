"""Abstentions that assert nothing else, so the judges do not grade them as unsupported claims.

RAGAS and DeepEval both scored the correct abstention of OpenGATE's unanswerable case 0.0, so a
failure to abstain could never score below its base. The judges therefore treat an answer that *only* says information is missing as
asserting nothing.

Whether a phrase is a refusal is decided by one detector, :func:`hybridjudge.grounding.abstains`
(markers in eight languages; a hedged partial answer such as "I don't know, but probably $499"
is not an abstention). This module adds no marker of its own, only the sentence rule the judges
need: a sentence is a *pure* abstention when it abstains and holds no other clause that could
assert something: every clause after the first abstaining one abstains too, and a clause before
it is a frame without any number ("Unfortunately, ...", "Based on the context, ...").
"""

from __future__ import annotations

import re

from hybridjudge._text import SENTENCE_TRIM, split_sentences
from hybridjudge.grounding import abstains

__all__ = ["is_pure_abstention", "mentions_abstention", "pure_abstention_reason"]

_CLAUSE_SPLIT = re.compile(r"[,;:，；：、]")
_DIGIT = re.compile(r"\d")


def is_pure_abstention(sentence: str) -> bool:
    """Whether ``sentence`` (one sentence or claim) only says that information is missing."""
    text = " ".join(sentence.split()).strip(SENTENCE_TRIM)
    if not text or not abstains(text):
        return False
    clauses = [c.strip() for c in _CLAUSE_SPLIT.split(text) if c.strip()]
    first = next((i for i, c in enumerate(clauses) if abstains(c)), None)
    if first is None:
        # the refusal spans a clause break ("I'm sorry, I don't know"): every clause is a frame
        return not _DIGIT.search(text)
    if any(_DIGIT.search(c) for c in clauses[:first]):
        return False
    return all(abstains(c) for c in clauses[first + 1 :])


def pure_abstention_reason(answer: str) -> str | None:
    """A description when *every* sentence of ``answer`` is a pure abstention, else ``None``."""
    sentences = split_sentences(answer, "trimmed")
    if not sentences or not all(is_pure_abstention(s) for s in sentences):
        return None
    quoted = " / ".join(repr(s) for s in sentences)
    return f"every sentence only says the information is missing: {quoted}"


def mentions_abstention(answer: str) -> bool:
    """Whether ``answer`` contains a refusal anywhere, hedged or next to assertions."""
    return abstains(answer, include_hedged=True)
