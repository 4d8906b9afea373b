"""Helpers for the judge tests: route fake-server requests by prompt and claim, build replies."""

from __future__ import annotations

import asyncio
import json
import re
from collections import defaultdict, deque
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from hybridjudge.judges import JudgeResult, judge, load_prompt
from hybridjudge.model import ModelClient, ModelConfig, Usage
from tests.support.openai_server import RecordedRequest, Step, json_reply

PROMPTS = ("claims", "support", "point", "contradiction", "shared")
VERDICT_PROMPTS = ("support", "point", "contradiction", "shared")
_STATEMENT = re.compile(r"^Statement: (.*)$", re.MULTILINE)


def make_config(base_url: str, cache_dir: Path, **overrides: Any) -> ModelConfig:
    """A config for the fake server: priced (1 and 2 USD per million tokens), fast retries."""
    values: dict[str, Any] = {
        "backend": "openai",
        "base_url": base_url,
        "model": "fake-model",
        "cache_dir": cache_dir,
        "price_input_per_mtok": 1.0,
        "price_output_per_mtok": 2.0,
        "max_retries": 1,
        "retry_initial_wait": 0.0,
        "retry_jitter": 0.0,
        "timeout": 10.0,
    }
    values.update(overrides)
    return ModelConfig(**values)


def _tail(name: str) -> str:
    """The part of a verdict prompt's user template after the claim (its question)."""
    tail = load_prompt(name).user.template.split("${claims}", 1)[1]
    return re.split(r"\$\{\w+\}", tail)[-1]  # after the last placeholder


def prompt_of(request: RecordedRequest) -> str:
    """Which judge prompt a request was built from: claims by its system message; a verdict
    prompt by its question, which follows the claim (the verdict prompts share their system
    message and start with the context, so that the server's prompt cache is reused)."""
    system = request.messages[0]["content"]
    if system == load_prompt("claims").system:
        return "claims"
    user = request.messages[1]["content"]
    for name in VERDICT_PROMPTS:
        if user.endswith(_tail(name)):
            return name
    raise AssertionError(f"request from an unknown prompt: {user[-120:]!r}")


def statement_of(request: RecordedRequest) -> str:
    """The statement (claim) a verdict request asks about."""
    found = _STATEMENT.search(request.messages[1]["content"])
    assert found is not None, "a verdict request without a Statement line"
    return found.group(1)


def evidence_of(request: RecordedRequest) -> str:
    """The context text a verdict request shows (between "Text:" and "Statement:"; for the
    pointing question, its numbered sentences between "Sentences:" and "Statement:")."""
    user: str = request.messages[1]["content"]
    head = "Sentences:\n" if user.startswith("Sentences:\n") else "Text:\n"
    return user.split(head, 1)[1].split("\n\nStatement: ", 1)[0]


Steps = Step | Sequence[Step]


class Router:
    """A fake-server responder answering each prompt, and each claim, from its own queue.

    ``claims=`` takes a step or a list of steps (the claim-extraction replies). A verdict prompt
    takes a mapping ``{claim text: step or steps}``: the claim's calls run concurrently, so a
    single FIFO script would hand replies to the wrong claim. A key matches a request whose
    statement equals it or ends with it (a fragment is shown as the answer to the question).
    A repair request carries the same prompt and claim and takes the claim's next step.
    """

    def __init__(self, **steps: Steps | Mapping[str, Steps]) -> None:
        self.queues: dict[tuple[str, str], deque[Step]] = {}
        for name, value in steps.items():
            if isinstance(value, Mapping):
                for claim, claim_steps in value.items():
                    self.queues[(name, claim)] = _queue(claim_steps)
            else:
                self.queues[(name, "")] = _queue(value)
        self.counts: defaultdict[str, int] = defaultdict(int)
        self.seen: list[tuple[str, str]] = []

    def __call__(self, request: RecordedRequest) -> Step:
        name = prompt_of(request)
        self.counts[name] += 1
        claim = "" if name == "claims" else statement_of(request)
        self.seen.append((name, claim))
        for (prompt, key), queue in self.queues.items():
            if prompt == name and (claim == key or (key and claim.endswith(key))):
                if not queue:
                    raise AssertionError(f"no scripted reply left for {name!r} / {claim!r}")
                return queue.popleft()
        raise AssertionError(f"no script for prompt {name!r} and claim {claim!r}")


def _queue(steps: Steps) -> deque[Step]:
    return deque([steps] if isinstance(steps, Step) else steps)


def claims_reply(*claims: str, **kwargs: Any) -> Step:
    """A claim-extraction reply."""
    return json_reply({"claims": list(claims)}, **kwargs)


def support_reply(verdict: str, quote: str = "", **kwargs: Any) -> Step:
    """A support reply: the quote, then the code."""
    return json_reply({"quote": quote, "verdict": verdict}, **kwargs)


def point_reply(verdict: str, *sentences: int, **kwargs: Any) -> Step:
    """A pointing reply (the support question's second look): sentence numbers, then the code."""
    return json_reply({"sentences": list(sentences), "verdict": verdict}, **kwargs)


def contradiction_reply(verdict: str, **kwargs: Any) -> Step:
    """A contradiction reply: "YES" (both can be true) or "NO"."""
    return json_reply({"verdict": verdict}, **kwargs)


def shared_reply(stated: str, both_true: str, quote: str = "", **kwargs: Any) -> Step:
    """A shared-mode reply."""
    return json_reply({"quote": quote, "stated": stated, "both_true": both_true}, **kwargs)


def reply_text(obj: Any) -> str:
    """The JSON text a reply sends."""
    return json.dumps(obj)


def run_judge(
    config: ModelConfig, **kwargs: Any
) -> tuple[dict[str, JudgeResult], Usage, dict[str, Usage]]:
    """Open a client, call :func:`judge`, return the results and the client's usage."""

    async def go() -> tuple[dict[str, JudgeResult], Usage, dict[str, Usage]]:
        async with ModelClient(config) as client:
            results = await judge(client, **kwargs)
            return results, client.usage, client.usage_by_scope

    return asyncio.run(go())


def verdict_step(request: RecordedRequest, *, good: bool, delay: float = 0.0) -> Step:
    """The reply to any verdict request: favourable when ``good`` (support: YES quoting the first
    context sentence shown, which is really in the context; contradiction and shared likewise),
    else unfavourable (support NO; contradiction NO; shared contradicted)."""
    name = prompt_of(request)
    quote = evidence_of(request).splitlines()[0]
    if name == "support":
        return (
            support_reply("YES", quote, delay=delay) if good else support_reply("NO", delay=delay)
        )
    if name == "contradiction":
        return contradiction_reply("YES" if good else "NO", delay=delay)
    if name == "shared":
        if good:
            return shared_reply("YES", "YES", quote, delay=delay)
        return shared_reply("NO", "NO", delay=delay)
    raise AssertionError(f"not a verdict request: {name!r}")
