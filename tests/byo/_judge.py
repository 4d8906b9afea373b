"""A scripted judge for the scripted OpenAI-compatible server: faithful to a known set of texts.

The judges take the answer's sentences as its claims (no model call; claim extraction, when a
test asks for it, returns each sentence of the answer). A verdict call, one per claim and scorer,
finds a claim faithful exactly when it is a sentence of one of the given clean texts (the base
answers, which restate their context): "YES" with a quote of the context sentence shown that
shares most words with it; any other claim (a sentence a mutant changed or added) gets "NO"
from every question (not stated; cannot both be true). So, worked out by hand: every base
scores 1 and every mutant less with support; with contradiction too, except a mutant whose
changed sentences share no content word with the context (the judges do not ask about those:
the context is silent, which the contradiction definition counts as faithful).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from tests.judges.helpers import (
    claims_reply,
    contradiction_reply,
    evidence_of,
    point_reply,
    prompt_of,
    shared_reply,
    statement_of,
    support_reply,
)
from tests.support.openai_server import RecordedRequest, Step

_ANSWER = re.compile(r"<answer>\n(.*)\n</answer>", re.S)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_FRAGMENT = re.compile(r'^The answer to ".*" is: (.*)$', re.S)
_WORD = re.compile(r"\w+")
_NUMBERED = re.compile(r"^\s*\[\d+\]\s*")


def sentences(text: str) -> list[str]:
    """The sentences of *text*."""
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]


def _key(sentence: str) -> str:
    """A sentence compared without case, spacing or its closing punctuation (the judges'
    sentence claims drop the final period)."""
    return " ".join(sentence.split()).strip(" .!?\"'").casefold()


def claim_of(request: RecordedRequest) -> str:
    """The claim a verdict request asks about (a short claim is shown as the answer to the
    question: 'The answer to "Q" is: claim')."""
    statement = statement_of(request)
    fragment = _FRAGMENT.match(statement)
    return fragment.group(1) if fragment else statement


def quote_for(request: RecordedRequest) -> str:
    """A real span of the context the request shows: its sentence sharing most words with the
    claim (a "YES" support verdict without a quote found in the context does not count). A
    context of several sentences is shown numbered ("[2] ..."): the number is not quoted."""
    return " ".join(_NUMBERED.sub("", _best_sentence(request)).split()[:20])


def _best_sentence(request: RecordedRequest) -> str:
    """The sentence of the shown context sharing most words with the claim, as shown."""
    words = set(_WORD.findall(claim_of(request).casefold()))
    shown = [s for s in _SENTENCE_END.split(evidence_of(request)) if s.strip()]
    return max(shown, key=lambda s: len(words & set(_WORD.findall(s.casefold()))))


class TextJudge:
    """Responder: faithful iff the claim is a sentence of one of the ``clean`` texts."""

    def __init__(self, clean: Iterable[str]) -> None:
        self.clean = {_key(sentence) for text in clean for sentence in sentences(text)}
        self.requests = 0

    def __call__(self, request: RecordedRequest) -> Step:
        self.requests += 1
        name = prompt_of(request)
        if name == "claims":
            match = _ANSWER.search(request.messages[-1]["content"])
            assert match is not None, request.messages
            return claims_reply(*sentences(match.group(1)))
        faithful = _key(claim_of(request)) in self.clean
        code = "YES" if faithful else "NO"
        quote = quote_for(request) if faithful else ""
        if name == "support":
            return support_reply(code, quote)
        if name == "point":  # the support question's second look: the numbered sentence
            number = re.match(r"\s*\[(\d+)\]", _best_sentence(request))
            return point_reply(code, *([int(number.group(1))] if faithful and number else []))
        if name == "contradiction":
            return contradiction_reply(code)
        return shared_reply(code, code, quote)
