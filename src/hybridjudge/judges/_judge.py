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

import dataclasses
import logging
import math
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, cast

from hybridjudge._errors import ConfigError, InputError
from hybridjudge._params import DEFAULT_MAX_CLAIMS, check_max_claims
from hybridjudge._sync import gather_all
from hybridjudge.grounding import says_something_is_missing
from hybridjudge.judges._evidence import (
    MAX_QUOTE_CHARS,
    claim_sentences,
    context_sentences,
    polarity_differs,
    quote_covers,
    quote_in_context,
    ranked_sentences,
    related_sentences,
    shares_words,
)
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
    ClaimReply,
    ClaimsReply,
    ContradictionReply,
    PointReply,
    SharedReply,
    SupportReply,
)
from hybridjudge.model import CallResult, Usage

if TYPE_CHECKING:
    from hybridjudge.model import ChatMessage, ModelClient

__all__ = [
    "DEFAULT_MAX_CLAIMS",
    "SCORERS",
    "ClaimsSource",
    "Mode",
    "PlannedCall",
    "Scorer",
    "check_max_claims",
    "claims_token_budget",
    "judge",
    "planned_calls",
    "scorer_names",
    "verdicts_token_budget",
]

_LOG = logging.getLogger(__name__)

Mode = Literal["separate", "shared"]
"""``separate``: one verdict call per scorer; ``shared``: one three-way call feeds both."""

_NO_QUESTION = "(not given)"


ClaimsSource = Literal["sentences", "model"]
"""Where the claims come from: ``sentences`` (default) takes the answer's sentences as they are,
with no model call, as MiniCheck and the LLM-AggreFact benchmark check a response sentence by
sentence; ``model`` asks the model to split the answer into atomic, self-contained claims (one
extra call per answer, the slowest part of judging a long answer on the embedded model)."""


def _too_many(n_claims: int, max_claims: int | None) -> str | None:
    """Why an answer of ``n_claims`` claims is not judged, or ``None`` when it is."""
    if max_claims is None or n_claims <= max_claims:
        return None
    return (
        f"the answer has {n_claims:,} claims, more than max_claims {max_claims} "
        "(--max-claims): not judged and no verdict call made (a score of its first claims "
        "would not be the answer's); raise --max-claims to judge it"
    )


_FRAGMENT_WORDS = 5
"""A claim of at most this many words (``"Delhi"``) is judged as the answer to the question."""
_FRAGMENT_PREFIX = 'The answer to "'


@dataclass(frozen=True, slots=True)
class Scorer:
    """One definition of faithfulness: its question, prompt, labels and scoring rule.

    Calling a scorer judges one answer with it alone::

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
    reply: type[ClaimReply]
    """Reply schema of its separate-mode call (one call per claim)."""
    max_tokens: int
    """Completion budget of one separate-mode call: a verdict code, plus a capped quote for
    the support question."""
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
        claims: ClaimsSource = "sentences",
        max_claims: int | None = DEFAULT_MAX_CLAIMS,
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
            claims=claims,
            max_claims=max_claims,
        )
        return results[self.name]


SCORERS: dict[str, Scorer] = {
    "support": Scorer(
        name="support",
        anchor="RAGAS Faithfulness (support-based)",
        question="Does the context state the claim? (a quote of the span is required)",
        prompt="support",
        reply=SupportReply,
        max_tokens=96,
        faithful_labels=frozenset({"supported"}),
        shared_faithful_labels=frozenset({"supported"}),
    ),
    "contradiction": Scorer(
        name="contradiction",
        anchor="DeepEval FaithfulnessMetric (contradiction-based)",
        question="Can the claim and the context both be true? (silence counts as faithful)",
        prompt="contradiction",
        reply=ContradictionReply,
        max_tokens=12,
        faithful_labels=frozenset({"not_contradicted"}),
        shared_faithful_labels=frozenset({"supported", "not_in_context"}),
    ),
}
"""The two definitions of faithfulness, by name (``docs/faithfulness.md``)."""

_CLAIM_SENTENCES = 3
"""Context sentences shown with a claim (those sharing most words with it)."""

_SHARED_MAX_TOKENS = 112
"""Completion budget of one shared-mode call (quote and two codes)."""

_POINT_MAX_TOKENS = 32
"""Completion budget of the support question's pointing second look (a few numbers, a code)."""


def _estimate_tokens(text: str) -> int:
    """A generous token estimate: one token per 3 UTF-8 bytes (English ~4, CJK ~3 per token)."""
    return math.ceil(len(text.encode("utf-8", "surrogatepass")) / 3)


def claims_token_budget(answer: str) -> int:
    """``max_tokens`` for claim extraction (``claims="model"``): 256 plus twice the answer's
    estimated tokens.

    Claims restate the answer with pronouns resolved (often longer than the answer) inside a
    JSON list; twice the answer plus a fixed allowance leaves room for both.
    """
    return 256 + 2 * _estimate_tokens(answer)


def verdicts_token_budget(n_claims: int) -> int:
    """Most completion tokens one scorer's verdicts on ``n_claims`` claims can take: one call
    per claim, each at most the largest per-call budget (the support question's quote)."""
    return n_claims * max(_SHARED_MAX_TOKENS, *(s.max_tokens for s in SCORERS.values()))


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


def _passages(context: object) -> tuple[str, ...]:
    """The context as passages (a string is one passage).

    Raises:
        InputError: the context is not a string or a sequence of strings (``None``, a mapping,
            bytes, a number), or one of its passages is not a string.
    """
    if isinstance(context, str):
        return (context,)
    if (
        context is None
        or isinstance(context, Mapping | bytes | bytearray)
        or not isinstance(context, Iterable)
    ):
        raise InputError(
            f"context must be a string or a list of strings (the retrieved passages), got "
            f'{type(context).__name__}; pass e.g. context=["first passage", "second passage"]'
        )
    passages = tuple(context)
    for i, passage in enumerate(passages):
        if not isinstance(passage, str):
            raise InputError(
                f"context passage {i} is {type(passage).__name__}, not str; pass the context "
                "as a sequence of strings"
            )
    return passages


def _sentence(text: str) -> str:
    """A context sentence as the prompts show it: ending with its stop (a period if it has none)."""
    return text if text[-1] in ".!?。！？" else f"{text}."


def _render_evidence(sentences: Sequence[str]) -> str:
    if not sentences:
        return "(empty)"
    return "\n".join(_sentence(s) for s in sentences)


def _render_numbered(sentences: Sequence[str]) -> str:
    """The evidence sentences numbered from 1, one per line, for the pointing question."""
    return "\n".join(f"[{i}] {_sentence(s)}" for i, s in enumerate(sentences, 1))


def _verdict_messages(
    prompt_name: str, evidence: Sequence[str], statement: str
) -> list[ChatMessage]:
    """The messages of one verdict question (the pointing question shows its sentences numbered):
    what :func:`_ask` sends and :func:`planned_calls` counts."""
    shown = _render_numbered(evidence) if prompt_name == "point" else _render_evidence(evidence)
    return load_prompt(prompt_name).messages(context=shown, claims=statement)


def _fragment_answer(claim: str, statement: str) -> str | None:
    """The bare answer a fragment claim is, when :func:`_statement` shows it as the answer to the
    question (``None`` for a claim shown as it is)."""
    return claim if statement != claim else None


def _statement(claim: str, question: str | None) -> str:
    """The claim as the verdict prompt shows it: a bare fragment (``"Delhi"``) is shown as the
    answer to the question, so that it asserts something the context can state or deny."""
    if question and question.strip() and len(claim.split()) <= _FRAGMENT_WORDS:
        return f'{_FRAGMENT_PREFIX}{" ".join(question.split())}" is: {claim}'
    return claim


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
    scorers: Sequence[str],
    mode: str,
    repetition: int,
    answer: object,
    question: object,
    claims: str,
) -> tuple[ScorerName, ...]:
    names = scorer_names(scorers)
    if mode not in ("separate", "shared"):
        raise ConfigError(f"unknown mode {mode!r}; use 'separate' or 'shared'")
    if claims not in ("sentences", "model"):
        raise ConfigError(f"unknown claims source {claims!r}; use 'sentences' or 'model'")
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
        reason: Literal["no_claims", "parse_failure", "model_error", "too_many_claims"],
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
    stage: Literal["claims", "verdicts"],
    result: CallResult[ClaimReply] | CallResult[ClaimsReply],
    where: str = "",
) -> tuple[Literal["parse_failure", "model_error"], FailureDetail]:
    reason: Literal["parse_failure", "model_error"] = (
        "model_error" if result.status == "model_error" else "parse_failure"
    )
    error = result.error or f"{result.status} without a message from the model layer"
    detail = FailureDetail(stage=stage, error=f"{where}{error}", raw=result.raw)
    return reason, detail


@dataclass(frozen=True, slots=True)
class _Verdict:
    """One scorer's verdict on one claim, read from the model's reply."""

    label: str
    reason: str
    quote: str | None = None
    quote_found: bool | None = None


def _cut(quote: str) -> str:
    text = " ".join(quote.split())
    return text if len(text) <= MAX_QUOTE_CHARS else text[: MAX_QUOTE_CHARS - 1] + "…"


_SILENT = {
    "support": "not_supported",
    "contradiction": "not_contradicted",
    "shared": "not_in_context",
}


_SILENT_WHY = (
    "no context sentence shares a content word with the claim: the context is silent on it "
    "(not asked)"
)
_FRAGMENT_WHY = (
    "a bare answer of five words or fewer asserts nothing the context could contradict on its "
    "own (not asked; the support question judges it as the answer to the question)"
)


_Fit = Literal["off_topic", "opposite", "usable"]
_QuoteUse = Literal["none", "outside", "off_topic", "opposite", "usable"]


def _fit(claim: str, quote: str, answer: str | None) -> _Fit:
    """How a quote that is in the context serves ``claim``: not about it (too few of its words,
    or not its numbers), the same thing with the opposite polarity, or usable evidence."""
    if not quote_covers(claim, quote, answer=answer):
        return "off_topic"
    if polarity_differs(claim, quote):
        return "opposite"
    return "usable"


def _quote_use(claim: str, quote: str, context: Sequence[str], answer: str | None) -> _QuoteUse:
    """How a support reply's quote serves ``claim``: none given, not in the context, or (in
    it) :func:`_fit`. One rule for the pointing cue (:func:`_needs_pointing`) and the verdict
    (:func:`_read`)."""
    if not quote:
        return "none"
    if not quote_in_context(quote, context):
        return "outside"
    return _fit(claim, quote, answer)


def _refusal_why(fit: _Fit, quote: str) -> str:
    """Why a quote in the context that does not fit the claim is not counted as support."""
    if fit == "off_topic":
        return (
            f"the model quoted {quote!r}, which is in the context but not about the claim (too "
            "few of its words, or not its numbers): not counted as supported"
        )
    return (
        f"the model quoted {quote!r}, which is in the context, but it says the same thing "
        "as the claim with the opposite polarity (one is negated): not counted as supported"
    )


def _needs_pointing(
    reply: ClaimReply, claim: str, context: Sequence[str], answer: str | None
) -> bool:
    """Whether a support reply said "YES" with a quote that is not usable evidence (not in the
    context, or not about the claim): the cue for the pointing second look. A quote of the
    opposite polarity is not a cue: it is the model's own evidence against the claim."""
    if not isinstance(reply, SupportReply) or reply.verdict != "YES":
        return False
    return _quote_use(claim, _cut(reply.quote), context, answer) in ("none", "outside", "off_topic")


def _read(
    kind: str,
    replies: Sequence[ClaimReply],
    claim: str,
    context: Sequence[str],
    skipped: str | None = None,
    *,
    answer: str | None = None,
    evidence: Sequence[str] = (),
) -> _Verdict:
    """The label the validated replies on one claim give (``kind``: the prompt asked); a
    "supported" needs a quote that is in the context, about the claim and of its polarity, or
    (second look) context sentences the model pointed at that pass the same checks."""
    if not replies:
        return _Verdict(_SILENT[kind], skipped or _SILENT_WHY)
    reply = replies[0]
    if isinstance(reply, ContradictionReply):
        if any(isinstance(r, ContradictionReply) and r.verdict == "NO" for r in replies):
            return _Verdict(
                "contradicted",
                "the model answered that the claim and a context sentence cannot both be true",
            )
        return _Verdict(
            "not_contradicted",
            "the model answered that the claim and the context sentences shown can both be true",
        )
    assert isinstance(reply, SupportReply | SharedReply)
    quote = _cut(reply.quote)
    use = _quote_use(claim, quote, context, answer)
    found = use not in ("none", "outside")
    stated = reply.verdict if isinstance(reply, SupportReply) else reply.stated
    point = replies[1] if len(replies) > 1 and isinstance(replies[1], PointReply) else None
    if point is not None:
        shown = repr(quote) if quote else "no quote"
        first = f"the model answered that the context states it, but gave {shown}"
        first += ", which is not in the context" if not found else ", which is not about it"
        if point.verdict != "YES" or not point.sentences:
            return _Verdict(
                "not_supported",
                f"{first}; asked to point at the sentences shown that state it, it answered "
                "that none does",
                quote or None,
                found if quote else None,
            )
        numbers = sorted(set(point.sentences))
        cited = " ".join(_sentence(evidence[n - 1]) for n in numbers)
        fit = _fit(claim, cited, answer)
        shown_cited = _cut(cited)
        if fit != "usable":
            why = f"{first}; on a second look {_refusal_why(fit, cited)}"
            return _Verdict("not_supported", why, shown_cited, True)
        where = ", ".join(str(n) for n in numbers)
        return _Verdict(
            "supported",
            f"{first}; on a second look it pointed at sentence {where} of those shown, which "
            f"states it: {shown_cited!r}",
            shown_cited,
            True,
        )
    if stated == "YES" and (use == "off_topic" or use == "opposite"):
        label, why = "not_supported", _refusal_why(use, quote)
    elif stated == "YES" and use == "usable":
        label, why = "supported", f"the context states it: {quote!r}"
    elif stated == "YES":
        shown = repr(quote) if quote else "no quote"
        label = "not_supported"
        why = (
            f"the model answered that the context states it, but gave {shown}, which is not "
            "in the context: not counted as supported"
        )
    else:
        label, why = "not_supported", "the model answered that the context does not state it"
    if isinstance(reply, SharedReply) and label != "supported":
        if reply.both_true == "NO":
            label = "contradicted"
            why = f"{why}; and that the claim and the context cannot both be true"
        else:
            label = "not_in_context"
    return _Verdict(label, why, quote or None, found if quote else None)


def _pointed_check(n: int) -> Callable[[ClaimReply], str | None]:
    """Reject a pointing reply that names no sentence for "YES" or a number not shown."""

    def check(value: ClaimReply) -> str | None:
        if not isinstance(value, PointReply):
            return None
        bad = [k for k in value.sentences if not 1 <= k <= n]
        if bad:
            return f"sentence numbers must be between 1 and {n}; got {bad}"
        if value.verdict == "YES" and not value.sentences:
            return 'a "YES" must list the numbers of the sentences that state the statement'
        return None

    return check


async def _ask(
    client: ModelClient,
    *,
    prompt_name: str,
    reply: type[ClaimReply],
    max_tokens: int,
    statement: str,
    evidence: Sequence[str],
    repetition: int,
    scope: str,
) -> CallResult[ClaimReply]:
    prompt = load_prompt(prompt_name)
    result: CallResult[ClaimReply] = await client.complete_structured(
        messages=_verdict_messages(prompt_name, evidence, statement),
        schema=reply,
        prompt_name=prompt.name,
        prompt_version=prompt.version,
        repetition=repetition,
        max_tokens=max_tokens,
        scope=scope,
        check=_pointed_check(len(evidence)) if prompt_name == "point" else None,
    )
    return result


@dataclass(frozen=True, slots=True)
class _Asked:
    """The calls one scorer made about one claim, and the context sentences they showed."""

    calls: tuple[CallResult[ClaimReply], ...]
    evidence: tuple[str, ...]
    statement: str
    skipped: str | None = None
    """Why no call was made (the verdict is then the question's faithful-by-silence label)."""


async def _ask_claim(
    client: ModelClient,
    prompt_name: str,
    statement: str,
    sentences: Sequence[str],
    repetition: int,
    answer: str | None = None,
) -> _Asked:
    """One scorer's (or the shared mode's) calls about one claim.

    Every question shows the claim with its :data:`_CLAIM_SENTENCES` most related context
    sentences. When the model answers that the claim and those sentences can both be true
    although the claim says the same thing as its most related sentence with the opposite
    polarity (:func:`~hybridjudge.judges._evidence.polarity_differs`), the contradiction
    question gets a second look against that one sentence alone: the probe that judged 7 of 8
    such pairs right on the embedded model. A second look without that cue raised false
    contradictions on clean answers. When the support question is answered "YES" with a quote
    that is not usable evidence (not in the context, or not about the claim; ``answer``: the
    bare answer a fragment claim shows, as :func:`_read` takes it), it gets a second look that
    asks the model to point at the numbered sentences that state the claim instead of copying
    a span: the embedded model often "quotes" the claim itself, which made clean paraphrases
    (a simplified discharge letter) read as unsupported. A claim that shares no content word
    with any context
    sentence is not asked about at all: the context is silent on it (not supported, not
    contradicted); on the embedded model such claims drew false contradictions ("Taking it on an
    empty stomach helps absorption" against a context about the dose and its timing).
    """
    plan = _plan(prompt_name, statement, sentences)
    if plan.skipped is not None:
        return _Asked((), (), statement, plan.skipped)
    scope = "shared" if prompt_name == "shared" else prompt_name

    async def ask(evidence: tuple[str, ...]) -> CallResult[ClaimReply]:
        return await _ask(
            client,
            prompt_name=prompt_name,
            reply=plan.reply,
            max_tokens=plan.max_tokens,
            statement=statement,
            evidence=evidence,
            repetition=repetition,
            scope=scope,
        )

    first = await ask(plan.evidence)
    value = first.value
    if plan.point and value is not None and _needs_pointing(value, statement, sentences, answer):
        second = await _ask(
            client,
            prompt_name="point",
            reply=PointReply,
            max_tokens=_POINT_MAX_TOKENS,
            statement=statement,
            evidence=plan.point,
            repetition=repetition,
            scope=scope,
        )
        return _Asked((first, second), plan.evidence, statement)
    if (
        not plan.second_look
        or first.status != "ok"
        or not isinstance(value, ContradictionReply)
        or value.verdict == "NO"
    ):
        return _Asked((first,), plan.evidence, statement)
    second = await ask(plan.second_look)
    return _Asked((first, second), plan.evidence, statement)


@dataclass(frozen=True, slots=True)
class _Plan:
    """What one scorer (or the shared mode) asks about one claim, decided before any request:
    used by :func:`_ask_claim` and, without requests, by :func:`planned_calls`."""

    reply: type[ClaimReply]
    max_tokens: int
    evidence: tuple[str, ...] = ()
    """The context sentences shown with the claim."""
    second_look: tuple[str, ...] = ()
    """The contradiction question's second look (the claim's best sentence alone), asked only
    when the first answer is "YES"; empty when there is none to take."""
    point: tuple[str, ...] = ()
    """The support question's second look (the same sentences, numbered, to point at), asked
    only when the first answer is "YES" without a usable quote; empty for other questions."""
    skipped: str | None = None
    """Why the claim is not asked at all."""


def _plan(prompt_name: str, statement: str, sentences: Sequence[str]) -> _Plan:
    """The questions about one claim (see :func:`_ask_claim` for the rules)."""
    reply: type[ClaimReply]
    if prompt_name == "shared":
        reply, budget = SharedReply, _SHARED_MAX_TOKENS
    elif prompt_name == "contradiction":
        reply, budget = ContradictionReply, SCORERS["contradiction"].max_tokens
    else:
        reply, budget = SupportReply, SCORERS["support"].max_tokens
    if not shares_words(statement, sentences):
        return _Plan(reply, budget, skipped=_SILENT_WHY)
    if prompt_name == "contradiction" and statement.startswith(_FRAGMENT_PREFIX):
        return _Plan(reply, budget, skipped=_FRAGMENT_WHY)
    evidence = related_sentences(statement, sentences, k=_CLAIM_SENTENCES)
    second_look: tuple[str, ...] = ()
    if prompt_name == "contradiction":
        best = ranked_sentences(statement, sentences)[:1]
        if best and polarity_differs(statement, best[0]):
            second_look = tuple(best)
    point = evidence if prompt_name == "support" else ()
    return _Plan(reply, budget, evidence, second_look, point)


def _result(
    common: _Common, scorer: ScorerName, asked: Sequence[_Asked], context: Sequence[str]
) -> JudgeResult:
    """A scored result when every claim's calls gave a verdict, else the unscored result of
    the first claim whose call failed (never a default verdict)."""
    usage = Usage()
    for one in asked:
        for call in one.calls:
            usage = usage + call.usage
    for i, one in enumerate(asked, start=1):
        for call in one.calls:
            if call.status != "ok" or call.value is None:
                reason, detail = _failure("verdicts", call, where=f"claim {i}: ")
                return common.unscored(scorer, reason, detail, usage)
    spec = SCORERS[scorer]
    faithful = spec.faithful_labels if common.mode == "separate" else spec.shared_faithful_labels
    verdicts = []
    kind = "shared" if common.mode == "shared" else scorer
    for i, (claim, one) in enumerate(zip(common.claims, asked, strict=True), start=1):
        values = [c.value for c in one.calls if c.value is not None]
        read = _read(
            kind,
            values,
            one.statement,
            context,
            one.skipped,
            answer=_fragment_answer(claim, one.statement),
            evidence=one.evidence,
        )
        verdicts.append(
            ClaimVerdict(
                claim_id=i,
                claim=claim,
                label=read.label,
                reason=read.reason,
                faithful=read.label in faithful,
                quote=read.quote,
                quote_found=read.quote_found,
                evidence=one.evidence,
            )
        )
    return JudgeResult(
        scorer=scorer,
        mode=common.mode,
        status="scored",
        score=spec.score([v.label for v in verdicts], mode=common.mode),
        claims=common.claims,
        verdicts=tuple(verdicts),
        dropped_claims=common.dropped,
        usage=usage,
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
    claims: ClaimsSource = "sentences",
    max_claims: int | None = DEFAULT_MAX_CLAIMS,
) -> dict[str, JudgeResult]:
    """Judge the faithfulness of ``answer`` to ``context`` with each of ``scorers``.

    Each claim is judged on its own, against the few context sentences sharing most words with
    it (:func:`~hybridjudge.judges._evidence.related_sentences`), in one short call per claim
    and scorer whose prompt starts with those sentences (the server reuses its prompt cache
    for the other scorer of the same claim, and across repetitions).

    Args:
        client: an open :class:`~hybridjudge.model.ModelClient` (cache, retries, usage).
        answer: the answer to judge.
        context: the retrieved passages (a single ``str`` is taken as one passage).
        question: the question; a claim of five words or fewer is judged as its answer.
        scorers: names from :data:`SCORERS` (``"support"``, ``"contradiction"``).
        mode: ``"separate"`` asks each scorer's own question in its own call per claim:
            support, "does the context state the claim?" with a quote of the span (a
            ``YES`` whose quote is not in the context is not supported); contradiction, "can
            the claim and the context both be true?" (``NO``: contradicted). ``"shared"`` asks
            both in one call per claim: supported -> support 1, contradiction-faithful 1;
            contradicted -> 0 and 0; not_in_context -> support 0, contradiction-faithful 1.
        repetition: repetition index, part of every cache key (a fresh sample per repetition).
        claims: ``"sentences"`` (the answer's sentences, no model call) or ``"model"``
            (claim extraction by the model); see :data:`ClaimsSource`.
        max_claims: an answer with more claims is unscored ``too_many_claims`` without a
            verdict call (default :data:`DEFAULT_MAX_CLAIMS`; ``None``: no cap).

    Returns:
        ``{scorer name: JudgeResult}`` in the order of ``scorers``. Every result is a score in
        [0, 1] with one verdict per claim, a recognised abstention (1.0, ``abstained=True``), or
        unscored with ``no_claims``, ``parse_failure``, ``model_error`` or
        ``too_many_claims``: never NaN.

    Raises:
        ConfigError: unknown or repeated scorer, unknown mode or claims source, negative
            repetition, a ``max_claims`` that is not a whole number >= 1 or ``None``.
        BudgetExhaustedError: the client's ``budget`` refused a request
            (:func:`judge_many` records ``budget_exhausted`` and goes on).
        InputError: an answer or a passage that is not a string, or a context that is neither
            a string nor a list of strings. :func:`judge_many` turns these into a ``failed``
            outcome (``record_error``) and goes on.

    An empty context (no passage with text) is judged without a model call, as the grounding
    checks judge it (their ``no_context`` finding): an answer that asserts something is scored
    0.0 by every scorer, each of its sentences a ``no_context`` verdict (nothing retrieved can
    support it, and the contradiction scorer's "the context is silent" would otherwise read as
    a perfect 1.0 nobody judged); a recognised abstention is scored 1.0, as always.
    """
    results = await _judge(
        client,
        answer=answer,
        context=context,
        question=question,
        scorers=scorers,
        mode=mode,
        repetition=repetition,
        claims=claims,
        max_claims=check_max_claims(max_claims),
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


async def _extract(
    client: ModelClient, answer: str, question: str | None, repetition: int
) -> CallResult[ClaimsReply]:
    prompt = load_prompt("claims")
    result: CallResult[ClaimsReply] = await client.complete_structured(
        messages=prompt.messages(question=question or _NO_QUESTION, answer=answer),
        schema=ClaimsReply,
        prompt_name=prompt.name,
        prompt_version=prompt.version,
        repetition=repetition,
        max_tokens=claims_token_budget(answer),
        scope="claims",
        check=lambda reply: _abstention_only(reply, answer),
    )
    return result


async def _judge(
    client: ModelClient,
    *,
    answer: str,
    context: Sequence[str],
    question: str | None,
    scorers: Sequence[str],
    mode: Literal["separate", "shared"],
    repetition: int,
    claims: ClaimsSource,
    max_claims: int | None = DEFAULT_MAX_CLAIMS,
    only: Collection[str] | None = None,
) -> dict[str, JudgeResult]:
    """:func:`judge`; ``only``: judge just these of the answer's claims (the cascade's
    remaining claims, :mod:`hybridjudge.judges._cascade`), after ``max_claims`` is checked on
    all of them."""
    names = _validate(scorers, mode, repetition, answer, question, claims)
    passages = _passages(context)
    verdict_prompts = [SCORERS[n].prompt for n in names] if mode == "separate" else ["shared"]
    prompt_names = ["claims", *verdict_prompts] if claims == "model" else verdict_prompts
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
    if _no_context(passages):
        return _without_context(common, names, answer)

    raw: str | None = None
    if claims == "model":
        extracted = await _extract(client, answer, question, repetition)
        if extracted.status != "ok" or extracted.value is None:
            failure, detail = _failure("claims", extracted)
            common = dataclasses.replace(common, claims_usage=extracted.usage)
            return {n: common.unscored(n, failure, detail) for n in names}
        kept, dropped = _clean_claims(extracted.value.claims)
        common = dataclasses.replace(common, claims_usage=extracted.usage)
        raw = extracted.raw
    else:
        kept, dropped = _clean_claims(claim_sentences(answer))
    common = dataclasses.replace(common, claims=tuple(kept), dropped=tuple(dropped))
    if not kept:
        return _without_claims(common, names, dropped, answer, raw)
    over = _too_many(len(kept), max_claims)
    if over is not None:
        detail = FailureDetail(stage="claims", error=over)
        return {n: common.unscored(n, "too_many_claims", detail) for n in names}
    if only is not None:
        kept = [claim for claim in kept if claim in only]
        common = dataclasses.replace(common, claims=tuple(kept))
        if not kept:
            return _without_claims(common, names, dropped, answer, raw)

    sentences = context_sentences(passages)
    statements = [_statement(claim, question) for claim in kept]
    if mode == "shared":
        shared = await gather_all(
            *(
                _ask_claim(client, "shared", statement, sentences, repetition)
                for statement in statements
            )
        )
        return {n: _result(common, n, shared, sentences) for n in names}

    async def one_claim(claim: str, statement: str) -> list[_Asked]:
        # this claim's scorers one after the other: the second finds the common prompt prefix
        # (instructions, then context) in the server's cache of the slot that served the first
        answer = _fragment_answer(claim, statement)
        return [
            await _ask_claim(client, SCORERS[n].prompt, statement, sentences, repetition, answer)
            for n in names
        ]

    per_claim = await gather_all(
        *(one_claim(claim, st) for claim, st in zip(kept, statements, strict=True))
    )
    return {
        name: _result(common, name, [asked[j] for asked in per_claim], sentences)
        for j, name in enumerate(names)
    }


@dataclass(frozen=True, slots=True)
class PlannedCall:
    """One verdict call :func:`judge` may make: its messages and completion budget."""

    prompt: str
    """The prompt's name."""
    messages: list[ChatMessage]
    """The chat messages sent."""
    max_tokens: int
    """The completion budget."""


def _no_context(passages: Sequence[str]) -> bool:
    """Whether the context has no passage with text (:func:`judge` then calls no model)."""
    return not any(p.strip() for p in passages)


def _without_context(
    common: _Common, names: Sequence[ScorerName], answer: str
) -> dict[str, JudgeResult]:
    """An answer judged against an empty context: its sentences are its claims (no model call),
    each a ``no_context`` verdict that is not faithful, so every scorer gives 0.0; an answer
    whose sentences only say information is missing is an abstention (1.0). The grounding
    checks report the same answer as a ``no_context`` finding."""
    kept, dropped = _clean_claims(claim_sentences(answer))
    common = dataclasses.replace(common, claims=tuple(kept), dropped=tuple(dropped))
    if not kept:
        return _without_claims(common, names, dropped, answer, None)
    verdicts = tuple(
        ClaimVerdict(
            claim_id=i,
            claim=claim,
            label="no_context",
            reason="the context is empty (no passage with text): nothing can support this claim",
            faithful=False,
        )
        for i, claim in enumerate(kept, start=1)
    )
    return {
        n: JudgeResult(
            scorer=n,
            mode=common.mode,
            status="scored",
            score=0.0,
            claims=common.claims,
            verdicts=verdicts,
            dropped_claims=common.dropped,
            scope=common.scope(n),
            repetition=common.repetition,
            prompt_versions=common.prompt_versions,
        )
        for n in names
    }


def planned_calls(
    answer: str,
    context: Sequence[str],
    question: str | None = None,
    *,
    scorers: Sequence[str] = ("support", "contradiction"),
    mode: str = "separate",
    max_claims: int | None = DEFAULT_MAX_CLAIMS,
    only: Collection[str] | None = None,
) -> list[PlannedCall]:
    """Every verdict call :func:`judge` (``claims="sentences"``) can make for this answer, without
    any request: an upper bound for a dry run (the contradiction question's second look is
    counted wherever it can happen; the model's first answer decides whether it does).
    ``only``: just these of the answer's claims, as the hybrid scorer asks.

    An empty context makes no call (:func:`judge` scores the answer without one).

    Raises:
        InputError: what :func:`judge` refuses for this answer, so that a dry run names the
            records a run would record as ``record_error``; code ``too_many_claims`` for an
            answer with more claims than ``max_claims`` (a run records it as
            ``too_many_claims``, no call).
    """
    names = _validate(scorers, mode, 0, answer, question, "sentences")
    max_claims = check_max_claims(max_claims)
    if pure_abstention_reason(answer) is not None or not answer.strip():
        return []
    passages = _passages(context)
    if _no_context(passages):
        return []
    kept, _ = _clean_claims(claim_sentences(answer))
    over = _too_many(len(kept), max_claims)
    if over is not None:
        raise InputError(over, code="too_many_claims")
    if only is not None:
        kept = [claim for claim in kept if claim in only]
    sentences = context_sentences(passages)
    prompts = ["shared"] if mode == "shared" else [SCORERS[n].prompt for n in names]
    calls: list[PlannedCall] = []
    for claim in kept:
        statement = _statement(claim, question)
        for name in prompts:
            plan = _plan(name, statement, sentences)
            if plan.skipped is not None:
                continue
            for part in (plan.evidence, plan.second_look):
                if part:
                    messages = _verdict_messages(name, part, statement)
                    calls.append(PlannedCall(name, messages, plan.max_tokens))
            if plan.point:
                messages = _verdict_messages("point", plan.point, statement)
                calls.append(PlannedCall("point", messages, _POINT_MAX_TOKENS))
    return calls


def _without_claims(
    common: _Common,
    names: Sequence[ScorerName],
    dropped: Sequence[DroppedClaim],
    answer: str,
    raw: str | None,
) -> dict[str, JudgeResult]:
    """The results when no claim is left to judge: an abstention, or unscored."""
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
            raw=raw,
        )
        return {n: common.unscored(n, "parse_failure", detail) for n in names}
    if mentions_abstention(answer):
        why = "the answer abstains and no claim was extracted besides the abstention"
        return {n: common.abstained(n, why) for n in names}
    detail = FailureDetail(
        stage="claims",
        error="the answer asserts nothing to verify (no claims extracted)",
        raw=raw,
    )
    return {n: common.unscored(n, "no_claims", detail) for n in names}
