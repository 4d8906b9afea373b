"""A tiny corpus, its case file, and a scripted judge that can fail on one output.

Four outputs share one context: two clean bases and one inversion mutant of each, each one
sentence (so one claim: the judges take the answer's sentences as its claims) of more than five
words (a shorter one is framed as the answer to the question, which is not asked the
contradiction question). The scripted model answers like a perfect judge (the inverted claims
are not stated and cannot be true with the context; a base claim is stated, quoting its context
sentence). :class:`FaultyJudge` plays a *fault* step instead for every request about the victim
output (its verdicts, their repairs), until ``fault`` is cleared.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from hybridjudge.cli import main
from hybridjudge.corpus import Case, Output, Producer, write_jsonl_models
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
from tests.support.openai_server import (
    RecordedRequest,
    Step,
    cut_off,
    http_error,
    json_reply,
    never_answer,
    rate_limited,
    server_error,
    trickle,
    truncated_json,
)

SENTENCES = (
    "Customers may request a full refund within 30 days of purchase.",
    "Refunds are processed within 5 business days.",
)
CONTEXT = " ".join(SENTENCES)
TEXTS = {
    "a::base": "Customers can get a refund within 30 days.",
    "a::inv": "Customers can not get a refund within 30 days.",
    "b::base": "Refunds are paid within 5 business days.",
    "b::inv": "Refunds are never paid within 5 business days.",
}
INVERTED = {"a::inv", "b::inv"}
QUOTES = {"a::base": SENTENCES[0], "b::base": SENTENCES[1]}
"""The context sentence that states each base output (the quote of a "YES" support verdict)."""
VICTIM = "b::base"
"""The output every fault hits (third in order, so requests for other outputs succeed first)."""

KEY = "sk-test-PLANTEDplantedPLANTED0123456789abcdefXYZ"
"""A planted API key: it must never appear in any output file or stream."""
KEY_ENV = "HYBRIDJUDGE_FAULT_TEST_KEY"
"""The environment variable holding :data:`KEY`."""

CALLS_PER_OUTPUT = 2
"""Support and contradiction verdicts on the output's one claim (separate mode, one repetition;
no claims call: the claims are the answer's sentences). By hand, no output gets the second
contradiction call, which is only made after a "YES" when the claim and its best context
sentence differ in negation: the inverted outputs get "NO", and neither base output nor its
context sentence is negated."""


ALL_PASS = ["--threshold", "support=0", "--threshold", "contradiction=0"]
"""``judge`` flags under which every scored output passes: these tests are about faults and
completeness (exit 0 or 3), not verdicts, and two of the four outputs are inverted mutants that
fail the default ``--threshold`` 1.0 (exit 1 without these flags)."""


def write_corpus(root: Path) -> Path:
    """The corpus directory (cases.jsonl, outputs.jsonl)."""
    producer = Producer(system="toy", kind="synthetic")
    cases = [
        Case(id=c, question="Refunds?", context=CONTEXT, anchors=(), label_source="hand-written")
        for c in ("a", "b")
    ]
    outputs = [
        Output(
            id=oid,
            case_id=oid.split("::")[0],
            text=text,
            producer=producer,
            clean=True if oid.endswith("base") else None,
            base_id=None if oid.endswith("base") else oid.replace("inv", "base"),
            defect=None if oid.endswith("base") else "inversion",
            origin="paper" if oid.endswith("inv") else "base",
        )
        for oid, text in TEXTS.items()
    ]
    write_jsonl_models(root / "cases.jsonl", cases)
    write_jsonl_models(root / "outputs.jsonl", outputs)
    return root


def write_cases(path: Path) -> Path:
    """The same four outputs as a ``judge`` case file."""
    lines = [{"id": oid, "answer": text, "context": CONTEXT} for oid, text in TEXTS.items()]
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return path


def _output_of(request: RecordedRequest) -> str:
    if prompt_of(request) == "claims":
        text = "\n".join(str(m.get("content", "")) for m in request.messages)
    else:  # a verdict request is about its statement: the output's sentence, without its period
        text = statement_of(request)
    # longest first: no answer is a substring of another, but be safe
    for oid, answer in sorted(TEXTS.items(), key=lambda kv: -len(kv[1])):
        if answer.rstrip(".") in text:
            return oid
    raise AssertionError(f"request about no known output: {text[:200]!r}")


@dataclass
class FaultyJudge:
    """The fake server's responder: a perfect judge, except the fault for the victim."""

    fault: Callable[[], Step] | None = None
    victim_requests: int = 0
    by_output: dict[str, int] = field(default_factory=dict)

    def __call__(self, request: RecordedRequest) -> Step:
        oid = _output_of(request)
        self.by_output[oid] = self.by_output.get(oid, 0) + 1
        name = prompt_of(request)
        if oid == VICTIM and self.fault is not None:
            self.victim_requests += 1
            return self.fault()
        if name == "claims":
            return claims_reply(TEXTS[oid])
        code = "NO" if oid in INVERTED else "YES"
        quote = QUOTES.get(oid, "")
        if name == "support":
            return support_reply(code, quote)
        if name == "contradiction":
            return contradiction_reply(code)
        if name == "point":  # the second look: the numbered sentence holding the quote
            shown = evidence_of(request).splitlines()
            hits = [i for i, line in enumerate(shown, 1) if quote and quote.rstrip(".") in line]
            return point_reply(code, *hits[:1]) if code == "YES" and hits else point_reply("NO")
        return shared_reply(code, code, quote)


@dataclass(frozen=True)
class Fault:
    """One injected fault and what it must lead to."""

    name: str
    step: Callable[[], Step]
    reason: str
    """The unscored reason the victim's results must carry."""
    in_detail: str
    """A fragment the unscored detail must contain (the cause, named)."""


FAULTS: tuple[Fault, ...] = (
    Fault(
        "http400_content_filter",
        lambda: http_error(400, "content filtered by policy", code="content_filter"),
        "model_error",
        "HTTP 400",
    ),
    Fault(
        "http401_after_success",
        lambda: http_error(401, "key revoked", code="invalid_api_key"),
        "model_error",
        "HTTP 401",
    ),
    Fault(
        "http404_after_success",
        lambda: http_error(404, "deployment gone", code="not_found"),
        "model_error",
        "HTTP 404",
    ),
    Fault("http429", lambda: rate_limited(retry_after="0.001"), "model_error", "HTTP 429"),
    Fault("http500", lambda: server_error(500), "model_error", "HTTP 500"),
    Fault(
        "trickling_bytes",
        lambda: trickle(json.dumps({"quote": QUOTES[VICTIM], "verdict": "YES"}), every=0.05),
        "model_error",
        "timeout",
    ),
    Fault("never_answering", never_answer, "model_error", "timeout"),
    Fault(
        "truncated_json",
        lambda: truncated_json({"quote": QUOTES[VICTIM], "verdict": "YES"}, 2),
        "parse_failure",
        "not valid JSON",
    ),
    Fault(
        "draft_then_cut_off_length",
        lambda: cut_off('{"verdict": "NO"}\n{"quote": "Refunds are processed within 5 busi'),
        "parse_failure",
        "finish_reason=length",
    ),
    # was "abstention_only_claims" (a claims reply saying only that information is missing):
    # the CLI no longer asks for claims (they are the answer's sentences), so the reply that
    # is valid JSON but not a usable verdict is now one off the verdict schema
    Fault(
        "off_schema_verdict",
        lambda: json_reply({"quote": "", "verdict": "MAYBE"}),
        "parse_failure",
        "does not match",
    ),
    Fault(
        "key_echoed_in_error_body",
        lambda: http_error(400, f"invalid request from key {KEY}; Bearer {KEY}"),
        "model_error",
        "[REDACTED]",
    ),
)
"""The per-output faults of the matrix."""


def fast_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    """Millisecond backoff for every client created by the CLI in this test."""
    from hybridjudge.model import _client, _retry

    original = _retry.BackoffWait

    class Fast(original):  # type: ignore[misc, valid-type]
        def __init__(self, **_: float) -> None:
            super().__init__(initial=0.001, maximum=0.002, jitter=0.0, max_retry_after=0.01)

    monkeypatch.setattr(_client, "BackoffWait", Fast)


def run_study(corpus: Path, base_url: str, out: Path, cache_root: Path) -> int:
    """``hybridjudge study run`` of ``corpus`` with the deterministic checks and both judges
    against the fake server at ``base_url``, quiet, into ``out`` (its reply cache of its own under
    ``cache_root``): the exit code."""
    return main(
        [
            "study",
            "run",
            "--corpus",
            str(corpus),
            "--scorers",
            "deterministic,support,contradiction",
            "--out",
            str(out),
            "--quiet",
            *model_args(base_url, cache_root / f"cache-{out.name}"),
        ]
    )


def model_args(base_url: str, cache: Path) -> list[str]:
    """CLI model flags for the fake server: one request at a time (a stable order), a 0.5 s
    deadline per request, one retry."""
    return [
        "--base-url",
        base_url,
        "--model",
        "fake-model",
        "--api-key-env",
        KEY_ENV,
        "--price-in",
        "1",
        "--price-out",
        "2",
        "--cache-dir",
        str(cache),
        "--concurrency",
        "1",
        "--timeout",
        "0.5",
        "--max-retries",
        "1",
    ]


def files_containing(root: Path, needle: str) -> list[Path]:
    """Every file under ``root`` whose bytes contain ``needle``."""
    data = needle.encode()
    return [p for p in root.rglob("*") if p.is_file() and data in p.read_bytes()]
