"""A deterministic scripted judge for the golden study: replies depend only on the request.

Claim extraction returns the answer's sentences; each verdict is chosen by a hash of the prompt
name and the claim; the support verdict on any claim about "business days" is truncated JSON (a
parse failure, also after the repair request). The prompt is recognised by its system message.
"""

from __future__ import annotations

import hashlib
import re

from hybridjudge.judges import load_prompt
from tests.support.openai_server import RecordedRequest, Step, json_reply, reply

LABELS = {
    "support": ("supported", "not_supported"),
    "contradiction": ("contradicted", "not_contradicted", "unknown"),
    "shared": ("supported", "contradicted", "not_in_context"),
}


def _prompt(request: RecordedRequest) -> str:
    system = request.messages[0]["content"]
    for name in ("claims", *LABELS):
        if system == load_prompt(name).system:
            return name
    raise AssertionError(f"unknown system prompt: {system[:80]!r}")


def _pick(name: str, claim: str) -> str:
    labels = LABELS[name]
    digest = hashlib.sha256(f"{name}\x1f{claim}".encode()).digest()
    return labels[digest[0] % len(labels)]


def respond(request: RecordedRequest) -> Step:
    """The reply to one chat request."""
    name = _prompt(request)
    user = request.messages[-1]["content"]
    if name == "claims":
        found = re.search(r"<answer>\s*(.*?)\s*</answer>", user, re.S)
        answer = found.group(1) if found else user
        sentences = [s.strip() for s in re.split(r"(?<=[.!?。])\s*", answer) if s.strip()]
        return json_reply({"claims": sentences})
    claims = re.findall(r"^\d+\. (.*)$", user.split("Claims:")[-1], re.M)
    if name == "support" and any("business days" in c for c in claims):
        return reply('{"verdicts": [')
    verdicts = [
        {"claim_id": i, "reason": "scripted", "verdict": _pick(name, c)}
        for i, c in enumerate(claims, start=1)
    ]
    return json_reply({"verdicts": verdicts})
