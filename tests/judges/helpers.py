"""Helpers for the judge tests: route fake-server requests by prompt, build verdict replies."""

from __future__ import annotations

import asyncio
import json
from collections import defaultdict, deque
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hybridjudge.judges import JudgeResult, judge, load_prompt
from hybridjudge.model import ModelClient, ModelConfig, Usage
from tests.support.openai_server import RecordedRequest, Step, json_reply

PROMPTS = ("claims", "support", "contradiction", "shared")


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


def prompt_of(request: RecordedRequest) -> str:
    """Which judge prompt a request was built from (by its system message)."""
    system = request.messages[0]["content"]
    for name in PROMPTS:
        if system == load_prompt(name).system:
            return name
    raise AssertionError(f"request with an unknown system prompt: {system[:80]!r}")


class Router:
    """A fake-server responder answering each prompt from its own queue of steps.

    The support and contradiction calls run concurrently, so a single FIFO script would hand
    replies to the wrong prompt; routing by the system message keeps each reply with its prompt.
    A repair request carries the same system message and takes the prompt's next step.
    """

    def __init__(self, **steps: Step | Sequence[Step]) -> None:
        self.queues: dict[str, deque[Step]] = {}
        for name, value in steps.items():
            self.queues[name] = deque([value] if isinstance(value, Step) else value)
        self.counts: defaultdict[str, int] = defaultdict(int)

    def __call__(self, request: RecordedRequest) -> Step:
        name = prompt_of(request)
        self.counts[name] += 1
        queue = self.queues.get(name)
        if not queue:
            raise AssertionError(f"no scripted reply left for prompt {name!r}")
        return queue.popleft()


def claims_reply(*claims: str, **kwargs: Any) -> Step:
    """A claim-extraction reply."""
    return json_reply({"claims": list(claims)}, **kwargs)


def verdicts_reply(*labels: str, order: Sequence[int] | None = None, **kwargs: Any) -> Step:
    """A verdict reply giving ``labels[i]`` to claim ``i + 1`` (listed in ``order`` if given)."""
    ids = list(order) if order is not None else list(range(1, len(labels) + 1))
    verdicts = [
        {"claim_id": i, "reason": f"reason for claim {i}", "verdict": labels[i - 1]} for i in ids
    ]
    return json_reply({"verdicts": verdicts}, **kwargs)


def verdicts_text(*labels: str) -> str:
    """The JSON text :func:`verdicts_reply` sends."""
    verdicts = [
        {"claim_id": i, "reason": f"reason for claim {i}", "verdict": label}
        for i, label in enumerate(labels, start=1)
    ]
    return json.dumps({"verdicts": verdicts})


def run_judge(
    config: ModelConfig, **kwargs: Any
) -> tuple[dict[str, JudgeResult], Usage, dict[str, Usage]]:
    """Open a client, call :func:`judge`, return the results and the client's usage."""

    async def go() -> tuple[dict[str, JudgeResult], Usage, dict[str, Usage]]:
        async with ModelClient(config) as client:
            results = await judge(client, **kwargs)
            return results, client.usage, client.usage_by_scope

    return asyncio.run(go())
