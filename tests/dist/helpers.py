"""Records and a deterministic scripted judge for the distributed tests."""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections import Counter
from typing import Any

from tests.judges.helpers import prompt_of, verdict_step
from tests.support.openai_server import RecordedRequest, Step, json_reply

CONTEXTS = (
    ["Refunds are accepted within 30 days.", "There is no restocking fee."],
    ["The plan costs $12 per month.", "Support is available 24/7."],
    ["Shipping takes 3 to 5 business days.", "Orders over $50 ship free."],
    ["The warranty lasts 2 years.", "Batteries are covered for 6 months."],
)
ANSWERS = (
    "Dear {name}, refunds are accepted within {n} days.",
    "Dear {name}, the plan costs ${n} per month.",
    "I don't know, {name}; the context does not say.",
    "Dear {name}, shipping takes 3 to 5 business days and orders over $50 ship free.",
    "Dear {name}, the warranty lasts {n} years and there is a restocking fee.",
)
FAMILIES = (
    ("id", "answer", "context", "question"),
    ("case_id", "response", "retrieved_contexts", "user_input"),  # RAGAS
    ("id", "actual_output", "retrieval_context", "input"),  # DeepEval
)


def letters(i: int) -> str:
    """``i`` written with letters only (a name that makes each answer unique without adding a
    number to it): 0 -> "a", 25 -> "z", 26 -> "ba"."""
    out = ""
    while True:
        out = chr(ord("a") + i % 26) + out
        i //= 26
        if i == 0:
            return "customer " + out


ASKED_PER_20 = 8
"""Verdict calls (shared mode) per 20 consecutive records, worked out by hand. Record ``i`` has
answer shape ``i % 5`` and context ``i % 4`` (20 pairs), each answer one sentence, so one claim.
The judges ask about a claim only when it shares a content word with the context: refunds
(shape 0) with contexts 0 and 2 ("days"), plan (1) with 1 and 3 ("month"), shipping (3) with 0
("days") and 2, warranty (4) with 0 ("restocking fee") and 3; the abstention (2) is never asked.
The numbers ``i % 40`` of the other pairs (5/25, 15/35, 16/36, 6/26, 9/29, 14/34) are in none of
their contexts. 8 pairs."""


def make_records(count: int) -> list[dict[str, Any]]:
    """``count`` records cycling through three field-name families, four contexts (shared by many
    records) and five answer shapes (grounded, ungrounded numbers, abstention, negation); every
    answer is unique, so each asks the judges its own questions."""
    records = []
    for i in range(count):
        id_name, answer_name, context_name, question_name = FAMILIES[i % len(FAMILIES)]
        context = CONTEXTS[i % len(CONTEXTS)]
        answer = ANSWERS[i % len(ANSWERS)].format(n=i % 40, name=letters(i))
        record: dict[str, Any] = {
            id_name: f"rec-{i}",
            answer_name: answer,
            context_name: list(context),
            question_name: "What does the policy say?",
        }
        records.append(record)
    return records


def digest(text: str) -> int:
    return int(hashlib.sha256(text.encode("utf-8")).hexdigest()[:8], 16)


class ScriptedJudge:
    """A responder answering every judge prompt deterministically from the request text.

    Claims (only with ``claims="model"``): one claim naming a digest of the request; verdicts:
    favourable or not by that digest (:func:`tests.judges.helpers.verdict_step`).
    Records the time, the body and the in-flight requests of every call (thread-safe).
    """

    def __init__(self, *, delay: float = 0.0) -> None:
        self.delay = delay
        self.lock = threading.Lock()
        self.times: list[float] = []
        self.bodies: Counter[str] = Counter()
        self.in_flight: set[str] = set()
        self.on_request: Any = None

    def __call__(self, request: RecordedRequest) -> Step:
        body = json.dumps(request.messages, sort_keys=True)
        with self.lock:
            self.times.append(time.monotonic())
            self.bodies[body] += 1
            self.in_flight.add(body)
            count = len(self.times)
        try:
            if self.on_request is not None:
                self.on_request(count, body)
            return self._step(request)
        finally:
            with self.lock:
                self.in_flight.discard(body)

    def _step(self, request: RecordedRequest) -> Step:
        name = prompt_of(request)
        text = request.last_user_content
        h = digest(text)
        if name == "claims":
            claims = [f"The answer states fact {h:08x}."]
            return json_reply({"claims": claims}, delay=self.delay)
        # favourable or not by the hash of the request: deterministic per claim and question
        return verdict_step(request, good=h % 2 == 0, delay=self.delay)
