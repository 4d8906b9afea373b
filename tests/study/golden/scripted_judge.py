"""A deterministic scripted judge for the golden study: replies depend only on the request.

Claim extraction (when asked) returns the answer's sentences; each verdict is chosen by a hash of
the prompt name and the claim (a "YES" support verdict quotes the start of the evidence shown);
the support verdict on any claim about "business days" is truncated JSON (a parse failure, also
after the repair request); the pointing second look names sentence 1 or none, by the same hash. The prompt is recognised as the judge tests recognise it
(:func:`tests.judges.helpers.prompt_of`).
"""

from __future__ import annotations

import hashlib
import re

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
from tests.support.openai_server import RecordedRequest, Step, reply

CODES = ("YES", "NO")


def _pick(name: str, claim: str, salt: str = "") -> str:
    digest = hashlib.sha256(f"{name}\x1f{claim}{salt}".encode()).digest()
    return CODES[digest[0] % len(CODES)]


def respond(request: RecordedRequest) -> Step:
    """The reply to one chat request."""
    name = prompt_of(request)
    if name == "claims":
        user = request.messages[-1]["content"]
        found = re.search(r"<answer>\s*(.*?)\s*</answer>", user, re.S)
        answer = found.group(1) if found else user
        sentences = [s.strip() for s in re.split(r"(?<=[.!?。])\s*", answer) if s.strip()]
        return claims_reply(*sentences)
    claim = statement_of(request)
    quote = " ".join(evidence_of(request).split()[:6])
    if name == "support":
        if "business days" in claim:
            return reply('{"quote": "", "verdict": ')
        code = _pick(name, claim)
        return support_reply(code, quote if code == "YES" else "")
    if name == "contradiction":
        return contradiction_reply(_pick(name, claim))
    if name == "point":  # the support question's second look: sentence 1, or none
        code = _pick(name, claim)
        return point_reply(code, 1) if code == "YES" else point_reply(code)
    stated = _pick(name, claim)
    return shared_reply(stated, _pick(name, claim, "both"), quote if stated == "YES" else "")
