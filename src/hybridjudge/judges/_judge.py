"""The LLM judges: claim extraction, then support- and contradiction-based faithfulness.

One :func:`judge` call evaluates one answer against its context:

1. **Abstention.** An answer whose every sentence only says that information is missing ("The
   context does not provide the annual price.") asserts nothing: each scorer returns 1.0 with
   ``abstained=True`` and no model call.
2. **Claims** (one call, scope ``claims``, shared by every scorer in either mode): the answer as
   atomic, self-contained claims. Blank and duplicate claims and claims that are themselves pure
   abstentions are dropped and recorded in ``dropped_claims``. No claim left: 1.0 with
   ``abstained=True`` when the answer abstains; *unscored* ``parse_failure`` when the reply's
   only claims are abstentions but the answer does not abstain (a malformed reply never becomes
   a score); else *unscored* ``no_claims`` (never NaN).
3. **Verdicts.** ``mode="separate"``: each scorer asks its own question in its own call (scope =
   the scorer's name): support, "can the claim be directly inferred from the context?"
   (RAGAS ``Faithfulness``); contradiction, "does the context directly contradict it?" (DeepEval
   ``FaithfulnessMetric``). ``mode="shared"``: one three-way call (scope ``shared``) whose
   ``supported`` / ``contradicted`` / ``not_in_context`` verdicts feed both scores.

Usage attribution: the claim extraction is recorded under the client scope ``claims`` and in each
result's ``claims_usage``; each verdict call under its scope and in the result's ``usage``. Use
:func:`~hybridjudge.judges.total_usage` to add up the results of one call without counting the
shared calls twice.

Output budgets are sized to the work: ``max_tokens`` for claim extraction grows with the answer
(:func:`claims_token_budget`), for verdicts with the number of claims
(:func:`verdicts_token_budget`); a fixed 1,024-token cap truncated RAGAS on the embedded model.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, cast

from hybridjudge._errors import ConfigError, InputError
from hybridjudge.grounding import says_something_is_missing
from hybridjudge.judges._prompts import load_prompt
from hybridjudge.judges._pure import (
    is_pure_abstention,
    mentions_abstention,
    pure_abstention_reason,
)
from hybridjudge.judges._results import (
    ClaimVerdict,
    DroppedClaim,
    FailureDetail,
    JudgeResult,
    ScorerName,
)
from hybridjudge.judges._schemas import (
    ClaimsReply,
    ContradictionReply,
    SharedReply,
    SupportReply,
    VerdictReply,
    verdict_schema,
)
from hybridjudge.model import CallResult, Usage

if TYPE_CHECKING:
    from hybridjudge.model import ModelClient

__all__ = [
    "SCORERS",
    "Mode",
    "Scorer",
    "claims_token_budget",
    "judge",
    "scorer_names",
    "verdicts_token_budget",
]

_LOG = logging.getLogger(__name__)

Mode = Literal["separate", "shared"]
"""``separate``: one verdict call per scorer; ``shared``: one three-way call feeds both."""

_NO_QUESTION = "(not given)"


@dataclass(frozen=True, slots=True)
class Scorer:
    """One definition of faithfulness: its question, prompt, labels and scoring rule.

    Calling a scorer judges one answer with it alone (claims are extracted for it)::

        result = await SCORERS["support"](client, answer=..., context=[...])
    """

    name: ScorerName
    """Registry key and result ``scorer``."""
    anchor: str
    """The public metric whose definition this scorer follows."""
    question: str
    """The question asked per claim."""
    prompt: str
    """Name of its prompt in separate mode."""
    reply: type[VerdictReply]
    """Reply schema of its separate-mode call."""
    faithful_labels: frozenset[str]
    """Separate-mode labels that count as faithful (the numerator of the score)."""
    shared_faithful_labels: frozenset[str]
    """Shared-mode labels that count as faithful for this scorer."""

    def score(self, labels: Sequence[str], *, mode: Mode) -> float:
        """Faithful claims / claims for the given labels (``labels`` must not be empty)."""
        if not labels:
            raise InputError(f"scorer {self.name!r}: cannot score zero claims; report no_claims")
        faithful = self.faithful_labels if mode == "separate" else self.shared_faithful_labels
        return sum(label in faithful for label in labels) / len(labels)

    async def __call__(
        self,
        client: ModelClient,
        *,
        answer: str,
        context: Sequence[str],
        question: str | None = None,
        mode: Mode = "separate",
        repetition: int = 0,
    ) -> JudgeResult:
        """Judge ``answer`` with this scorer only; see :func:`judge`."""
        results = await judge(
            client,
            answer=answer,
            context=context,
            question=question,
            scorers=(self.name,),
            mode=mode,
            repetition=repetition,
        )
        return results[self.name]


SCORERS: dict[str, Scorer] = {
    "support": Scorer(
        name="support",
        anchor="RAGAS Faithfulness (support-based)",
        question="Can the claim be directly inferred from the context?",
        prompt="support",
        reply=SupportReply,
        faithful_labels=frozenset({"supported"}),
        shared_faithful_labels=frozenset({"supported"}),
    ),
    "contradiction": Scorer(
        name="contradiction",
        anchor="DeepEval FaithfulnessMetric (contradiction-based)",
        question="Does the context directly contradict the claim? (unknown counts as faithful)",
        prompt="contradiction",
        reply=ContradictionReply,
        faithful_labels=frozenset({"not_contradicted", "unknown"}),
        shared_faithful_labels=frozenset({"supported", "not_in_context"}),
    ),
}
"""The two definitions of faithfulness, by name (``docs/faithfulness.md``)."""


def _estimate_tokens(text: str) -> int:
    """A generous token estimate: one token per 3 UTF-8 bytes (English ~4, CJK ~3 per token)."""
    return math.ceil(len(text.encode("utf-8", "surrogatepass")) / 3)


def claims_token_budget(answer: str) -> int:
    """``max_tokens`` for claim extraction: 256 plus twice the answer's estimated tokens.

    Claims restate the answer with pronouns resolved (often longer than the answer) inside a
    JSON list; twice the answer plus a fixed allowance leaves room for both.
    """
    return 256 + 2 * _estimate_tokens(answer)


def verdicts_token_budget(n_claims: int) -> int:
    """``max_tokens`` for a verdict call: 64 plus 128 per claim (id, one-sentence reason, label)."""
    return 64 + 128 * n_claims


def _may_abstain(answer: str) -> bool:
    """Whether ``answer`` can be an abstention at all: grounding's detector, with its loose cue
    that something is missing ("could not find", "not mentioned", "no information", "sorry" ...).

    Used to tell an extracted abstention claim that restates the answer ("Sorry, I could not
    find the price") from one the model made up for an answer that asserts something ("The
    plan costs $1,200."): the latter is a malformed reply, never a 1.0.
    """
    return says_something_is_missing(answer)


def _abstention_only(reply: ClaimsReply, answer: str) -> str | None:
    """Why a claims reply is unusable: its only claims say information is missing while the
    answer does not abstain (``None``: usable). Checked in the model layer, so such a reply is
    repaired once, never cached, and ends as ``parse_failure``, never a 1.0."""
    texts = [" ".join(c.split()) for c in reply.claims]
    texts = [t for t in texts if t]
    if texts and all(is_pure_abstention(t) for t in texts) and not _may_abstain(answer):
        quoted = " / ".join(repr(t) for t in texts)
        return (
            f"the claims reply only says information is missing ({quoted}) but the answer "
            "does not abstain: list the claims the answer asserts"
        )
    return None


def _passages(context: Sequence[str] | str) -> tuple[str, ...]:
    if isinstance(context, str):
        return (context,)
    passages = tuple(context)
    for i, passage in enumerate(passages):
        if not isinstance(passage, str):
            raise InputError(
                f"context passage {i} is {type(passage).__name__}, not str; pass the context "
                "as a sequence of strings"
            )
    return passages


def _render_context(passages: Sequence[str]) -> str:
    kept = [p.strip() for p in passages if p.strip()]
    if not kept:
        return "(empty)"
    if len(kept) == 1:
        return kept[0]
    return "\n\n".join(f"[{i}] {p}" for i, p in enumerate(kept, start=1))


def _render_claims(claims: Sequence[str]) -> str:
    return "\n".join(f"{i}. {claim}" for i, claim in enumerate(claims, start=1))


def _clean_claims(raw: Sequence[str]) -> tuple[list[str], list[DroppedClaim]]:
    """Trim claims; drop blank ones, exact duplicates and pure abstentions (each recorded)."""
    kept: list[str] = []
    dropped: list[DroppedClaim] = []
    seen: set[str] = set()
    for claim in raw:
        text = " ".join(claim.split())
        if not text:
            dropped.append(DroppedClaim(claim=claim, why="blank"))
        elif text.casefold() in seen:
            dropped.append(DroppedClaim(claim=claim, why="duplicate"))
        elif is_pure_abstention(text):
            dropped.append(DroppedClaim(claim=claim, why="abstention"))
        else:
            seen.add(text.casefold())
            kept.append(text)
    return kept, dropped


def scorer_names(scorers: Sequence[str] | str) -> tuple[ScorerName, ...]:
    """``scorers`` (a sequence or a comma-separated string) checked against :data:`SCORERS`.

    Raises:
        ConfigError: no scorer, an unknown one, or one listed twice.
    """
    if isinstance(scorers, str):
        scorers = tuple(s.strip() for s in scorers.split(","))
    names = tuple(scorers)
    if not names:
        raise ConfigError(f"no scorer given; choose from {', '.join(SCORERS)}")
    unknown = [n for n in names if n not in SCORERS]
    if unknown:
        raise ConfigError(f"unknown scorer(s) {unknown}; choose from {', '.join(SCORERS)}")
    if len(set(names)) != len(names):
        raise ConfigError(f"scorer listed twice in {list(names)}; list each once")
    return cast(tuple[ScorerName, ...], names)


def _validate(
    scorers: Sequence[str], mode: str, repetition: int, answer: object, question: object
) -> tuple[ScorerName, ...]:
    names = scorer_names(scorers)
    if mode not in ("separate", "shared"):
        raise ConfigError(f"unknown mode {mode!r}; use 'separate' or 'shared'")
    if isinstance(repetition, bool) or not isinstance(repetition, int) or repetition < 0:
        raise ConfigError(f"repetition must be an integer >= 0, got {repetition!r}")
    if not isinstance(answer, str):
        raise InputError(f"answer must be a str, got {type(answer).__name__}")
    if question is not None and not isinstance(question, str):
        raise InputError(f"question must be a str or None, got {type(question).__name__}")
    return names


@dataclass(frozen=True, slots=True)
class _Common:
    """What every result of one :func:`judge` call shares."""

    mode: Mode
    repetition: int
    prompt_versions: dict[str, str]
    claims: tuple[str, ...] = ()
    dropped: tuple[DroppedClaim, ...] = ()
    claims_usage: Usage = dataclasses.field(default_factory=Usage)

    def scope(self, scorer: ScorerName) -> str:
        return "shared" if self.mode == "shared" else scorer

    def abstained(self, scorer: ScorerName, reason: str) -> JudgeResult:
        return JudgeResult(
            scorer=scorer,
            mode=self.mode,
            status="scored",
            score=1.0,
            claims=self.claims,
            dropped_claims=self.dropped,
            abstained=True,
            abstention_reason=reason,
            claims_usage=self.claims_usage,
            scope=self.scope(scorer),
            repetition=self.repetition,
            prompt_versions=self.prompt_versions,
        )

    def unscored(
        self,
        scorer: ScorerName,
        reason: Literal["no_claims", "parse_failure", "model_error"],
        detail: FailureDetail | None = None,
        usage: Usage | None = None,
    ) -> JudgeResult:
        return JudgeResult(
            scorer=scorer,
            mode=self.mode,
            status="unscored",
            unscored_reason=reason,
            detail=detail,
            claims=self.claims,
            dropped_claims=self.dropped,
            usage=usage if usage is not None else Usage(),
            claims_usage=self.claims_usage,
            scope=self.scope(scorer),
            repetition=self.repetition,
            prompt_versions=self.prompt_versions,
        )


def _failure(
    stage: Literal["claims", "verdicts"], result: CallResult[VerdictReply] | CallResult[ClaimsReply]
) -> tuple[Literal["parse_failure", "model_error"], FailureDetail]:
    reason: Literal["parse_failure", "model_error"] = (
        "model_error" if result.status == "model_error" else "parse_failure"
    )
    detail = FailureDetail(
        stage=stage,
        error=result.error or f"{result.status} without a message from the model layer",
        raw=result.raw,
    )
    return reason, detail


async def _verdict_call(
    client: ModelClient,
    *,
    prompt_name: str,
    reply: type[VerdictReply],
    claims: Sequence[str],
    passages: Sequence[str],
    repetition: int,
    scope: str,
) -> CallResult[VerdictReply]:
    prompt = load_prompt(prompt_name)
    result: CallResult[VerdictReply] = await client.complete_structured(
        messages=prompt.messages(context=_render_context(passages), claims=_render_claims(claims)),
        schema=verdict_schema(reply, len(claims)),
        prompt_name=prompt.name,
        prompt_version=prompt.version,
        repetition=repetition,
        max_tokens=verdicts_token_budget(len(claims)),
        scope=scope,
    )
    return result


def _from_verdicts(
    common: _Common, scorer: ScorerName, result: CallResult[VerdictReply]
) -> JudgeResult:
    """A scored result from an ``ok`` verdict reply, or the unscored result it calls for."""
    if result.status != "ok" or result.value is None:
        reason, detail = _failure("verdicts", result)
        return common.unscored(scorer, reason, detail, result.usage)
    by_id = {v.claim_id: v for v in result.value.verdicts}
    expected = set(range(1, len(common.claims) + 1))
    if set(by_id) != expected or len(result.value.verdicts) != len(common.claims):
        # The schema already enforces this; a model layer that skipped validation must not
        # turn a partial reply into a score.
        detail = FailureDetail(
            stage="verdicts",
            error=(
                f"{len(result.value.verdicts)} verdicts with claim ids {sorted(by_id)} for "
                f"{len(common.claims)} claims; need exactly one per claim id "
                f"1..{len(common.claims)}"
            ),
            raw=result.raw,
        )
        return common.unscored(scorer, "parse_failure", detail, result.usage)
    spec = SCORERS[scorer]
    faithful = spec.faithful_labels if common.mode == "separate" else spec.shared_faithful_labels
    verdicts = tuple(
        ClaimVerdict(
            claim_id=i,
            claim=claim,
            label=str(by_id[i].verdict),  # type: ignore[attr-defined]
            reason=by_id[i].reason,
            faithful=str(by_id[i].verdict) in faithful,  # type: ignore[attr-defined]
        )
        for i, claim in enumerate(common.claims, start=1)
    )
    return JudgeResult(
        scorer=scorer,
        mode=common.mode,
        status="scored",
        score=spec.score([v.label for v in verdicts], mode=common.mode),
        claims=common.claims,
        verdicts=verdicts,
        dropped_claims=common.dropped,
        usage=result.usage,
        claims_usage=common.claims_usage,
        scope=common.scope(scorer),
        repetition=common.repetition,
        prompt_versions=common.prompt_versions,
    )


async def judge(
    client: ModelClient,
    *,
    answer: str,
    context: Sequence[str],
    question: str | None = None,
    scorers: Sequence[str] = ("support", "contradiction"),
    mode: Literal["separate", "shared"] = "separate",
    repetition: int = 0,
) -> dict[str, JudgeResult]:
    """Judge the faithfulness of ``answer`` to ``context`` with each of ``scorers``.

    Args:
        client: an open :class:`~hybridjudge.model.ModelClient` (cache, retries, usage).
        answer: the answer to judge.
        context: the retrieved passages (a single ``str`` is taken as one passage).
        question: the question, used to make claims self-contained; optional.
        scorers: names from :data:`SCORERS` (``"support"``, ``"contradiction"``).
        mode: ``"separate"`` asks each scorer's own question in its own call; ``"shared"`` makes
            one three-way call (supported / contradicted / not_in_context) that feeds both:
            supported -> support 1, contradiction-faithful 1; contradicted -> 0 and 0;
            not_in_context -> support 0, contradiction-faithful 1.
        repetition: repetition index, part of every cache key (a fresh sample per repetition).

    Returns:
        ``{scorer name: JudgeResult}`` in the order of ``scorers``. Every result is a score in
        [0, 1] with one verdict per claim, a recognised abstention (1.0, ``abstained=True``), or
        unscored with ``no_claims``, ``parse_failure`` or ``model_error``: never NaN.

    Raises:
        ConfigError: unknown or repeated scorer, unknown mode, negative repetition.
        InputError: an answer or a passage that is not a string.
    """
    results = await _judge(
        client,
        answer=answer,
        context=context,
        question=question,
        scorers=scorers,
        mode=mode,
        repetition=repetition,
    )
    for name, result in results.items():
        if result.status == "unscored":
            stage = result.detail.stage if result.detail is not None else "-"
            _LOG.warning(
                "%s unscored (%s at stage %s, repetition %d)",
                name,
                result.unscored_reason,
                stage,
                repetition,
            )
    return results


async def _judge(
    client: ModelClient,
    *,
    answer: str,
    context: Sequence[str],
    question: str | None,
    scorers: Sequence[str],
    mode: Literal["separate", "shared"],
    repetition: int,
) -> dict[str, JudgeResult]:
    names = _validate(scorers, mode, repetition, answer, question)
    passages = _passages(context)
    verdict_prompts = [SCORERS[n].prompt for n in names] if mode == "separate" else ["shared"]
    prompt_names = ["claims", *verdict_prompts]
    common = _Common(
        mode=mode,
        repetition=repetition,
        prompt_versions={name: load_prompt(name).version for name in prompt_names},
    )

    reason = pure_abstention_reason(answer)
    if reason is not None:
        return {n: common.abstained(n, reason) for n in names}
    if not answer.strip():
        detail = FailureDetail(stage="claims", error="the answer is empty; nothing to judge")
        return {n: common.unscored(n, "no_claims", detail) for n in names}

    prompt = load_prompt("claims")
    extracted: CallResult[ClaimsReply] = await client.complete_structured(
        messages=prompt.messages(question=question or _NO_QUESTION, answer=answer),
        schema=ClaimsReply,
        prompt_name=prompt.name,
        prompt_version=prompt.version,
        repetition=repetition,
        max_tokens=claims_token_budget(answer),
        scope="claims",
        check=lambda reply: _abstention_only(reply, answer),
    )
    if extracted.status != "ok" or extracted.value is None:
        failure, detail = _failure("claims", extracted)
        common = dataclasses.replace(common, claims_usage=extracted.usage)
        return {n: common.unscored(n, failure, detail) for n in names}

    claims, dropped = _clean_claims(extracted.value.claims)
    common = dataclasses.replace(
        common, claims=tuple(claims), dropped=tuple(dropped), claims_usage=extracted.usage
    )
    if not claims:
        abstention = [d.claim for d in dropped if d.why == "abstention"]
        if abstention and _may_abstain(answer):
            why = "the only claims extracted say the information is missing: " + " / ".join(
                repr(c) for c in abstention
            )
            return {n: common.abstained(n, why) for n in names}
        if abstention:
            # The model answered an abstention for an answer that does not abstain: a malformed
            # claims reply, never a score (it would read as a perfect 1.0).
            detail = FailureDetail(
                stage="claims",
                error=(
                    "the claims reply only says information is missing ("
                    + " / ".join(repr(c) for c in abstention)
                    + ") but the answer does not abstain; not scored"
                ),
                raw=extracted.raw,
            )
            return {n: common.unscored(n, "parse_failure", detail) for n in names}
        if mentions_abstention(answer):
            why = "the answer abstains and no claim was extracted besides the abstention"
            return {n: common.abstained(n, why) for n in names}
        detail = FailureDetail(
            stage="claims",
            error="the answer asserts nothing to verify (no claims extracted)",
            raw=extracted.raw,
        )
        return {n: common.unscored(n, "no_claims", detail) for n in names}

    if mode == "shared":
        shared = await _verdict_call(
            client,
            prompt_name="shared",
            reply=SharedReply,
            claims=claims,
            passages=passages,
            repetition=repetition,
            scope="shared",
        )
        return {n: _from_verdicts(common, n, shared) for n in names}

    calls = [
        _verdict_call(
            client,
            prompt_name=SCORERS[n].prompt,
            reply=SCORERS[n].reply,
            claims=claims,
            passages=passages,
            repetition=repetition,
            scope=n,
        )
        for n in names
    ]
    replies = await asyncio.gather(*calls)
    return {n: _from_verdicts(common, n, r) for n, r in zip(names, replies, strict=True)}
