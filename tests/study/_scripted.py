"""The one place the study tests script an LLM judge on the fake OpenAI-compatible server.

:func:`judge_step` answers a judge request as a judge that reads each answer as one claim and
calls it unfaithful exactly when the test says the answer is bad; :func:`garbage_step` is a reply
no judge can parse. Both are built on the judge tests' helpers, so a change of the judges'
prompts or verdict schema is absorbed here.
"""

from __future__ import annotations

import re
from collections.abc import Container, Mapping, Sequence

from tests.judges.helpers import (
    claims_reply,
    contradiction_reply,
    evidence_of,
    prompt_of,
    shared_reply,
    statement_of,
    support_reply,
)
from tests.support.openai_server import RecordedRequest, Step, reply

__all__ = ["answer_in", "garbage_step", "judge_step", "prompt_name"]


def prompt_name(request: RecordedRequest) -> str:
    """``claims``, ``support``, ``contradiction`` or ``shared``."""
    return prompt_of(request)


def answer_in(request: RecordedRequest, answers: Sequence[str]) -> str:
    """Which of ``answers`` the request is about: a verdict request's statement (the answer's
    one sentence), or the answer shown to the claim-extraction prompt."""
    if prompt_of(request) == "claims":
        text = "\n".join(str(m.get("content", "")) for m in request.messages[1:])
        found = [a for a in answers if a in text]
    else:
        statement = statement_of(request).strip()
        # a fragment is shown as 'The answer to "Q" is: ...', without its final period
        found = [a for a in answers if statement.endswith((a, a.rstrip(".")))]
    if not found:
        raise AssertionError(f"request about none of the scripted answers: {request.messages!r}")
    return max(found, key=len)


def _quote(request: RecordedRequest) -> str:
    """A real span of the evidence the request shows (a "supported" verdict needs one): its
    sentence sharing the most words with the statement, at most 20 words."""
    statement = set(re.findall(r"\w+", statement_of(request).lower()))
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", evidence_of(request)) if s.strip()]
    best = max(sentences, key=lambda s: len(statement & set(re.findall(r"\w+", s.lower()))))
    return " ".join(best.split()[:20])


def judge_step(
    request: RecordedRequest,
    answers: Sequence[str],
    *,
    bad: Container[str],
    blind: Container[str] = (),
    completion_tokens: Mapping[str, int] | None = None,
) -> Step:
    """The reply of a judge that takes each answer as its one claim and finds it unfaithful
    iff it is in ``bad`` (not stated, and contradicted); for the prompts in ``blind`` it accepts
    every claim. ``completion_tokens`` bills some prompts' replies differently (default 5)."""
    answer = answer_in(request, answers)
    name = prompt_name(request)
    tokens = (completion_tokens or {}).get(name, 5)
    if name == "claims":
        return claims_reply(answer, completion_tokens=tokens)
    accept = answer not in bad or name in blind
    quote = _quote(request) if accept else ""
    if name == "support":
        return support_reply("YES" if accept else "NO", quote, completion_tokens=tokens)
    if name == "contradiction":  # "can both be true at the same time?"
        return contradiction_reply("YES" if accept else "NO", completion_tokens=tokens)
    code = "YES" if accept else "NO"
    return shared_reply(code, code, quote, completion_tokens=tokens)


def garbage_step() -> Step:
    """A reply that is not JSON at all (the judge records ``parse_failure``)."""
    return reply("I cannot answer in JSON today.")
