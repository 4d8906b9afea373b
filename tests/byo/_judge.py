"""A scripted judge for the scripted OpenAI-compatible server: faithful to a known set of texts.

Claim extraction returns each sentence of the answer as one claim. A verdict call marks a claim
faithful exactly when it is a sentence of one of the given clean texts (the base answers, which
restate their context); any other claim (a sentence a mutant changed or added) is unfaithful. So, worked out by hand: every mutant scores 0
and its base 1, and each judge detects every mutant it scores, in every class.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from tests.judges.helpers import claims_reply, prompt_of, verdicts_reply
from tests.support.openai_server import RecordedRequest, Step

_ANSWER = re.compile(r"<answer>\n(.*)\n</answer>", re.S)
_CLAIM = re.compile(r"^(\d+)\. (.*)$", re.M)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def sentences(text: str) -> list[str]:
    """The sentences of *text*."""
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]


LABELS = {
    "support": ("supported", "not_supported"),
    "contradiction": ("not_contradicted", "contradicted"),
    "shared": ("supported", "contradicted"),
}


class TextJudge:
    """Responder: faithful iff the claim is a sentence of one of the ``clean`` texts."""

    def __init__(self, clean: Iterable[str]) -> None:
        self.clean = {sentence for text in clean for sentence in sentences(text)}
        self.requests = 0

    def __call__(self, request: RecordedRequest) -> Step:
        self.requests += 1
        name = prompt_of(request)
        user = request.messages[-1]["content"]
        if name == "claims":
            match = _ANSWER.search(user)
            assert match is not None, user
            return claims_reply(*sentences(match.group(1)))
        claims_part = user.split("Claims:\n", 1)[1]
        good, bad = LABELS[name]
        labels = [
            good if text.strip() in self.clean else bad for _, text in _CLAIM.findall(claims_part)
        ]
        return verdicts_reply(*labels)
