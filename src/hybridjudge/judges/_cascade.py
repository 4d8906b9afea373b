"""The hybrid scorer: a cascade in which free checks decide first and judges only where needed.

One output goes through three stages, and every decision records the stage that made it:

1. ``checks``: the deterministic grounding checks (:func:`hybridjudge.grounding.check_grounding`:
   required facts, traceable numbers, abstention). An output they fail is decided there (flagged,
   score 0.0, their findings attached) without a model call.
2. ``as_written``: for an output the checks pass, each claim (the answer's sentences, the judges'
   default claim source) that the context states as written is supported without a call: after
   the grounding checks' own normalisation (:func:`hybridjudge.grounding.normalize_text`: Unicode
   NFKC, case, dashes and quotes folded) and with whitespace collapsed and its final stop dropped,
   the claim equals a whole context sentence, so its figures, negations and conditions are the
   context's. A claim shown as the answer to the question (five words or fewer) is never settled
   here: its meaning comes from the question.
3. ``judge``: only the remaining claims go to the judges the user chose (``support``,
   ``contradiction`` or both; default :data:`DEFAULT_CASCADE_JUDGES`), through
   :func:`~hybridjudge.judges.judge` itself (the same questions, so the reply cache serves a
   cascade and a judge that asked the same thing). A claim is faithful when every chosen judge
   accepts it.

The score is faithful claims / claims (a claim stated as written is faithful), 0.0 when the checks
failed; the output is flagged when the score is below ``threshold`` (default 1.0: any claim not
accepted). An unscored judge result (``parse_failure``, ``model_error`` ...) leaves the cascade
unscored with that reason at stage ``judge``: never a silent pass.

With ``grade_failed=True`` an output the checks fail is still flagged by them, but graded rather
than scored 0.0: each claim holding a finding (the finding's words are in it) is unfaithful
without a call, each finding no claim holds (an omitted fact, a missing abstention) counts as one
more unfaithful claim, a claim stated as written is faithful, and the judges are asked only about
the claims left. A defect added to an answer that is already wrong then lowers its score, which
a gate does not need (the output fails either way) but a comparison of systems, or the mutation
study's rule (a mutant must score *below* its base), does; it costs the calls for those claims.
If a judge leaves that grading unscored, the output keeps the checks' decision and score 0.0,
with the judge's reason in ``detail``.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from hybridjudge._errors import ConfigError, HybridJudgeError, InputError
from hybridjudge._frames import record_id
from hybridjudge._params import DEFAULT_MAX_CLAIMS, check_max_claims, check_repetitions
from hybridjudge._sync import gather_all, run_sync
from hybridjudge.grounding import (
    CheckRecord,
    GroundingReport,
    check_grounding,
    normalize_text,
)
from hybridjudge.judges._evidence import claim_sentences, context_sentences
from hybridjudge.judges._judge import (
    Mode,
    PlannedCall,
    _clean_claims,
    _judge,
    _passages,
    _statement,
    _validate,
    planned_calls,
    scorer_names,
)
from hybridjudge.judges._many import check_batch_options, prepare_records
from hybridjudge.judges._results import ClaimVerdict, JudgeResult, ScorerName, UnscoredReason
from hybridjudge.model import Usage

if TYPE_CHECKING:
    from hybridjudge.model import ModelClient, ModelConfig

__all__ = [
    "CASCADE_STAGES",
    "DEFAULT_CASCADE_JUDGES",
    "CascadeBatch",
    "CascadeClaim",
    "CascadeOutcome",
    "CascadeResult",
    "CascadeStage",
    "aevaluate",
    "aevaluate_many",
    "cascade",
    "cascade_judges",
    "cascade_planned_calls",
    "evaluate",
    "evaluate_many",
    "stated_as_written",
]

_LOG = logging.getLogger(__name__)

CascadeStage = Literal["checks", "as_written", "judge"]
"""The stage that decided an output or a claim (see the module docstring)."""
CASCADE_STAGES: tuple[CascadeStage, ...] = ("checks", "as_written", "judge")
"""The stages in the order they run."""

DEFAULT_CASCADE_JUDGES: tuple[ScorerName, ...] = ("contradiction",)
"""The judges the cascade asks by default: measured best on the OpenGATE + HaluEval mutation
study with the embedded model (docs/hybrid.md): with the checks before it, the contradiction
judge alone detects every class within one mutant of both judges, with no false alarm on
HaluEval's clean answers (the support judge adds 4 of 20) and a third of both judges' calls."""

_STOPS = ".!?。！？ "


def _plain(text: str) -> str:
    """``text`` as the as-written stage compares it: the grounding checks' normalisation,
    whitespace collapsed, its final stops dropped."""
    return " ".join(normalize_text(text).split()).rstrip(_STOPS)


def stated_as_written(claim: str, sentences: Sequence[str]) -> str | None:
    """The context sentence that states ``claim`` as written, or ``None``.

    After the grounding checks' normalisation (:func:`hybridjudge.grounding.normalize_text`),
    with whitespace collapsed and the final stop dropped, the claim must equal a whole context
    sentence: a claim that is only part of a sentence could drop its condition ("you get a full
    refund" of "If you cancel within 30 days, you get a full refund."), so it is not settled.

    Examples:
        >>> stated_as_written("Refunds take 30 days", ["Refunds take 30 days.", "No fee."])
        'Refunds take 30 days.'
        >>> stated_as_written("Refunds take 60 days.", ["Refunds take 30 days."]) is None
        True
    """
    wanted = _plain(claim)
    if not wanted:
        return None
    for sentence in sentences:
        if _plain(sentence) == wanted:
            return sentence
    return None


def cascade_judges(judges: Sequence[str] | str | None) -> tuple[ScorerName, ...]:
    """The cascade's judges (a sequence or ``"support,contradiction"``), default
    :data:`DEFAULT_CASCADE_JUDGES`.

    Raises:
        ConfigError: no judge, an unknown one, or one listed twice.
    """
    if judges is None:
        return DEFAULT_CASCADE_JUDGES
    try:
        return scorer_names(judges)
    except ConfigError as exc:
        raise ConfigError(f"hybrid_judges (--hybrid-judges): {exc}") from None


class CascadeClaim(BaseModel):
    """One claim of an output, and the stage that decided it."""

    model_config = ConfigDict(frozen=True)

    claim_id: int
    """1-based position of the claim in :attr:`CascadeResult.claims`."""
    claim: str
    """The claim (a sentence of the answer)."""
    stage: CascadeStage
    """``checks``: a finding of the checks is in it, or it is a finding no claim holds (unfaithful,
    no call; only when grading an output the checks failed, ``grade_failed``); ``as_written``: the
    context states it as written (supported, no call); ``judge``: the judges decided it."""
    faithful: bool
    """Stated as written, or accepted by every judge of the cascade."""
    reason: str
    """Why, in one sentence."""
    verdicts: dict[str, ClaimVerdict] = Field(default_factory=dict)
    """Judge name -> its verdict on this claim (stage ``judge`` only)."""
    evidence: str | None = None
    """The context sentence that states it (stage ``as_written``)."""
    findings: tuple[str, ...] = ()
    """The checks' findings it holds, ``kind: subject`` (stage ``checks``)."""


class CascadeResult(BaseModel):
    """The cascade's judgement of one answer in one repetition."""

    model_config = ConfigDict(frozen=True)

    status: Literal["scored", "unscored"]
    """Whether :attr:`score` holds a number."""
    stage: CascadeStage
    """The stage that decided the output: ``checks`` (they failed it: flagged, no call),
    ``as_written`` (every claim stated as written: no call), ``judge`` (the judges decided the
    remaining claims, or left it unscored)."""
    score: float | None = Field(default=None, ge=0.0, le=1.0, allow_inf_nan=False)
    """Faithful claims / claims (1.0 for a recognised abstention; 0.0 when the checks failed,
    unless ``grade_failed`` graded it); ``None`` when unscored."""
    threshold: float = Field(default=1.0, ge=0.0, le=1.0)
    """The score below which the output is flagged."""
    flagged: bool | None = None
    """``score < threshold`` (always true when the checks failed); ``None`` when unscored."""
    judges: tuple[ScorerName, ...] = DEFAULT_CASCADE_JUDGES
    """The judges the cascade asks about the remaining claims."""
    grounding: GroundingReport | None = None
    """The checks' report (``None`` when the record could not be checked)."""
    claims: tuple[CascadeClaim, ...] = ()
    """The claims, each with its stage (empty when the checks decided without grading, or for an
    abstention)."""
    judge_results: dict[str, JudgeResult] = Field(default_factory=dict)
    """Each judge's result on the remaining claims (empty when no judge was needed)."""
    unscored_reason: UnscoredReason | None = None
    """Why there is no score (a judge's reason, passed through); ``None`` when scored."""
    detail: str | None = None
    """The error of an unscored result, or the abstention note."""
    abstained: bool = False
    """A recognised abstention that asserts nothing else (scored 1.0 by the judges' rule)."""
    graded: bool = False
    """An output the checks failed, graded claim by claim (``grade_failed``)."""
    usage: Usage = Usage()
    """The judges' calls for this answer, each counted once."""
    repetition: int = Field(default=0, ge=0)
    """Repetition index (part of every judge cache key)."""

    @model_validator(mode="after")
    def _consistent(self) -> CascadeResult:
        if self.status == "scored":
            if self.score is None or self.flagged is None or self.unscored_reason is not None:
                raise ValueError("a scored cascade result needs a score, a flag and no reason")
        elif self.score is not None or self.flagged is not None or self.unscored_reason is None:
            raise ValueError("an unscored cascade result needs a reason and no score or flag")
        return self

    @property
    def scored(self) -> bool:
        """``status == "scored"``."""
        return self.status == "scored"

    @property
    def claim_stages(self) -> tuple[str, ...]:
        """The stage of each claim, in order."""
        return tuple(c.stage for c in self.claims)

    @property
    def issues(self) -> tuple[str, ...]:
        """What the cascade objected to: the checks' findings (``kind: subject``) or the claims
        not accepted."""
        judged = tuple(c.claim for c in self.claims if c.stage != "checks" and not c.faithful)
        if self.stage == "checks" and self.grounding is not None:
            found = sorted({f"{f.kind}: {f.subject}" for f in self.grounding.findings})
            return (*found, *judged)
        return judged


def _check_grade_failed(grade_failed: bool) -> bool:
    if not isinstance(grade_failed, bool):
        raise ConfigError(f"grade_failed must be True or False, got {grade_failed!r}")
    return grade_failed


def _check_threshold(threshold: float) -> float:
    if (
        isinstance(threshold, bool)
        or not isinstance(threshold, int | float)
        or not 0.0 <= threshold <= 1.0
    ):
        raise ConfigError(f"threshold must be a number in [0, 1], got {threshold!r}")
    return float(threshold)


async def cascade(
    client: ModelClient,
    *,
    answer: str,
    context: Sequence[str] | str,
    question: str | None = None,
    anchors: Sequence[Any] = (),
    answerable: bool | None = True,
    allowed_numbers: Sequence[Any] = (),
    judges: Sequence[str] | str | None = None,
    mode: Mode = "separate",
    repetition: int = 0,
    max_claims: int | None = DEFAULT_MAX_CLAIMS,
    threshold: float = 1.0,
    grade_failed: bool = False,
) -> CascadeResult:
    """Judge one answer with the cascade (checks, then claims as written, then the judges).

    Args:
        client: an open :class:`~hybridjudge.model.ModelClient` (cache, retries, usage).
        answer: the answer to judge.
        context: the retrieved passages (a single ``str`` is one passage).
        question: the question (numbers in it are traceable; a claim of five words or fewer is
            judged as its answer).
        anchors: facts a correct answer must contain, as for
            :func:`~hybridjudge.grounding.check_grounding`.
        answerable: ``False``: the answer must abstain; ``True``: it must not; ``None``: not
            judged.
        allowed_numbers: numbers the answer may introduce.
        judges: the judges asked about the remaining claims (default
            :data:`DEFAULT_CASCADE_JUDGES`).
        mode: the judges' verdict mode.
        repetition: repetition index (part of every cache key).
        max_claims: an answer with more claims is unscored ``too_many_claims``, no call.
        threshold: the score below which the output is flagged.
        grade_failed: grade an output the checks fail claim by claim (the module docstring)
            instead of scoring it 0.0 without a call.

    Raises:
        ConfigError: an unknown judge, mode or threshold.
        InputError: an argument of the wrong type (the checks' or the judges' errors).
        BudgetExhaustedError: the client's budget refused a request.
    """
    names = _validate(cascade_judges(judges), mode, repetition, answer, question, "sentences")
    threshold = _check_threshold(threshold)
    grade_failed = _check_grade_failed(grade_failed)
    max_claims = check_max_claims(max_claims)
    report = check_grounding(
        answer,
        context,
        question=question,
        anchors=anchors,
        answerable=answerable,
        allowed_numbers=allowed_numbers,
    )
    base: dict[str, Any] = {
        "threshold": threshold,
        "judges": names,
        "grounding": report,
        "repetition": repetition,
    }
    if not report.grounded and not grade_failed:
        return CascadeResult(status="scored", stage="checks", score=0.0, flagged=True, **base)

    passages = _passages(context)
    kept, held, loose, settled = _free_stages(answer, passages, question, report)
    if not report.grounded:
        return await _grade(
            client,
            kept,
            (held, loose, settled),
            base,
            judge_args={
                "answer": answer,
                "context": passages,
                "question": question,
                "scorers": names,
                "mode": mode,
                "repetition": repetition,
                "claims": "sentences",
                "max_claims": max_claims,
            },
        )
    if kept and len(settled) == len(kept) and (max_claims is None or len(kept) <= max_claims):
        claims = tuple(_as_written(i, c, settled[c]) for i, c in enumerate(kept, start=1))
        return CascadeResult(
            status="scored",
            stage="as_written",
            score=1.0,
            flagged=False,  # 1.0 is below no threshold in [0, 1]
            claims=claims,
            **base,
        )

    remaining = [c for c in kept if c not in settled]
    results = await _judge(
        client,
        answer=answer,
        context=passages,
        question=question,
        scorers=names,
        mode=mode,
        repetition=repetition,
        claims="sentences",
        max_claims=max_claims,
        only=remaining if kept else None,
    )
    return _combine(kept, settled, results, names, base)


def _as_written(claim_id: int, claim: str, sentence: str) -> CascadeClaim:
    return CascadeClaim(
        claim_id=claim_id,
        claim=claim,
        stage="as_written",
        faithful=True,
        reason="the context states it as written (same words and figures after normalisation): "
        "supported without a call",
        evidence=sentence,
    )


def _free_stages(
    answer: str, passages: Sequence[str], question: str | None, report: GroundingReport
) -> tuple[list[str], dict[str, tuple[str, ...]], tuple[str, ...], dict[str, str]]:
    """The answer's claims, the findings each holds, the findings no claim holds, and the claims
    the context states as written (claim -> its sentence): everything decided without a call."""
    kept, _ = _clean_claims(claim_sentences(answer))
    held, loose = _findings_by_claim(kept, answer, report)
    sentences = context_sentences(passages)
    settled: dict[str, str] = {}
    for claim in kept:
        if claim in held or _statement(claim, question) != claim:
            continue  # a fragment means what the question makes it mean
        found = stated_as_written(claim, sentences)
        if found is not None:
            settled[claim] = found
    return kept, held, loose, settled


def cascade_planned_calls(
    record: CheckRecord,
    *,
    judges: Sequence[str] | str | None = None,
    mode: Mode = "separate",
    max_claims: int | None = DEFAULT_MAX_CLAIMS,
    grade_failed: bool = False,
) -> list[PlannedCall]:
    """Every verdict call the cascade can make for ``record``, without any request: the checks
    and the as-written stage run (they are free), and the judges' calls are planned for the
    claims they leave (an upper bound, as :func:`~hybridjudge.judges.planned_calls` is). No call
    for an output the checks fail, unless ``grade_failed``.

    Raises:
        InputError: more claims than ``max_claims`` (code ``too_many_claims``: a run records it
            unscored, with no call), or what the judges refuse for this answer.
        ConfigError: an unknown judge or mode.
    """
    names = cascade_judges(judges)
    grade_failed = _check_grade_failed(grade_failed)
    max_claims = check_max_claims(max_claims)
    report = check_grounding(
        record.answer,
        record.context,
        question=record.question,
        anchors=record.anchors,
        answerable=record.answerable,
        allowed_numbers=record.allowed_numbers,
    )
    if not report.grounded and not grade_failed:
        return []
    passages = _passages(record.context)
    kept, held, _, settled = _free_stages(record.answer, passages, record.question, report)
    within = max_claims is None or len(kept) <= max_claims
    remaining = [c for c in kept if c not in held and c not in settled]
    if (kept and not remaining and within) or (not report.grounded and not within):
        # all decided for free; a graded output over the limit keeps the checks' 0.0
        return []
    return planned_calls(
        record.answer,
        passages,
        record.question,
        scorers=names,
        mode=mode,
        max_claims=max_claims,
        only=remaining if kept else None,
    )


def _findings_by_claim(
    kept: Sequence[str], answer: str, report: GroundingReport
) -> tuple[dict[str, tuple[str, ...]], tuple[str, ...]]:
    """The checks' findings held by each claim (the finding's words, as the answer writes them at
    its span, are in the claim), and those no claim holds (``kind: subject`` each)."""
    held: dict[str, list[str]] = {}
    loose: list[str] = []
    for finding in report.findings:
        label = f"{finding.kind}: {finding.subject}"
        words = ""
        if finding.span is not None:
            words = " ".join(answer[finding.span[0] : finding.span[1]].split())
        holders = [c for c in kept if words and words in c]
        for claim in holders:
            held.setdefault(claim, []).append(label)
        if not holders:
            loose.append(label)
    return {c: tuple(dict.fromkeys(f)) for c, f in held.items()}, tuple(dict.fromkeys(loose))


async def _grade(
    client: ModelClient,
    kept: Sequence[str],
    decided: tuple[Mapping[str, tuple[str, ...]], Sequence[str], Mapping[str, str]],
    base: dict[str, Any],
    judge_args: dict[str, Any],
) -> CascadeResult:
    """An output the checks failed, graded claim by claim (``grade_failed``): flagged by the
    checks, its score faithful claims / (claims + findings no claim holds)."""
    held, loose, settled = decided
    remaining = [c for c in kept if c not in held and c not in settled]
    results: dict[str, JudgeResult] = {}
    if remaining:
        results = dict(await _judge(client, only=remaining, **judge_args))
    usage = _usage(results)
    unscored = [f"{n}: {r.unscored_reason}" for n, r in results.items() if r.status == "unscored"]
    if unscored:
        return CascadeResult(
            status="scored",
            stage="checks",
            score=0.0,
            flagged=True,
            detail="graded by the checks alone, a judge gave no grade: " + "; ".join(unscored),
            judge_results=results,
            usage=usage,
            **base,
        )
    names: Sequence[ScorerName] = base["judges"]
    by_claim = _verdicts_by_claim(results, names) if results else {}
    claims: list[CascadeClaim] = []
    for i, claim in enumerate(kept, start=1):
        if claim in held:
            claims.append(_held(i, claim, held[claim]))
        elif claim in settled:
            claims.append(_as_written(i, claim, settled[claim]))
        else:
            claims.append(_judged(i, claim, by_claim, names))
    for j, label in enumerate(loose, start=len(kept) + 1):
        claims.append(_held(j, label, (label,), stated=False))
    score = sum(c.faithful for c in claims) / len(claims) if claims else 0.0
    return CascadeResult(
        status="scored",
        stage="checks",
        score=score,
        flagged=True,
        claims=tuple(claims),
        judge_results=results,
        graded=True,
        usage=usage,
        **base,
    )


def _held(
    claim_id: int, claim: str, findings: tuple[str, ...], stated: bool = True
) -> CascadeClaim:
    reason = (
        "the checks found " + "; ".join(findings) + " in it: unfaithful without a call"
        if stated
        else "a finding no sentence of the answer holds: counted as one unfaithful claim"
    )
    return CascadeClaim(
        claim_id=claim_id,
        claim=claim,
        stage="checks",
        faithful=False,
        reason=reason,
        findings=findings,
    )


def _verdicts_by_claim(
    results: Mapping[str, JudgeResult], names: Sequence[ScorerName]
) -> dict[str, dict[str, ClaimVerdict]]:
    by_claim: dict[str, dict[str, ClaimVerdict]] = {}
    for name in names:
        for verdict in results[name].verdicts:
            by_claim.setdefault(verdict.claim, {})[name] = verdict
    return by_claim


def _judged(
    claim_id: int,
    claim: str,
    by_claim: Mapping[str, Mapping[str, ClaimVerdict]],
    names: Sequence[ScorerName],
) -> CascadeClaim:
    verdicts = dict(by_claim.get(claim, {}))
    if set(verdicts) != set(names):
        raise InputError(f"the judges gave no verdict on claim {claim_id} ({claim!r})")
    return CascadeClaim(
        claim_id=claim_id,
        claim=claim,
        stage="judge",
        faithful=all(v.faithful for v in verdicts.values()),
        reason="; ".join(f"{n}: {v.label}" for n, v in verdicts.items()),
        verdicts=verdicts,
    )


def _combine(
    kept: Sequence[str],
    settled: Mapping[str, str],
    results: Mapping[str, JudgeResult],
    names: Sequence[ScorerName],
    base: dict[str, Any],
) -> CascadeResult:
    """The cascade's result from the claims settled as written and the judges' results on the
    others; the first unscored judge result leaves it unscored (fail closed)."""
    usage = _usage(results)
    threshold = float(base["threshold"])
    for name in names:
        result = results[name]
        if result.status == "unscored":
            detail = None
            if result.detail is not None:
                detail = f"{name}: {result.detail.stage}: {result.detail.error}"
            _LOG.warning("cascade unscored: %s %s", name, result.unscored_reason)
            return CascadeResult(
                status="unscored",
                stage="judge",
                unscored_reason=result.unscored_reason,
                detail=detail,
                judge_results=dict(results),
                usage=usage,
                **base,
            )
    first = results[names[0]]
    if first.abstained or not kept:
        # the judges' rule for an answer with no claim to judge (an abstention: 1.0)
        score = 1.0 if first.abstained else float(first.score or 0.0)
        return CascadeResult(
            status="scored",
            stage="judge",
            score=score,
            flagged=score < threshold,
            abstained=first.abstained,
            detail=first.abstention_reason,
            judge_results=dict(results),
            usage=usage,
            **base,
        )
    by_claim = _verdicts_by_claim(results, names)
    claims = [
        _as_written(i, claim, settled[claim])
        if claim in settled
        else _judged(i, claim, by_claim, names)
        for i, claim in enumerate(kept, start=1)
    ]
    score = sum(c.faithful for c in claims) / len(claims)
    return CascadeResult(
        status="scored",
        stage="judge",
        score=score,
        flagged=score < threshold,
        claims=tuple(claims),
        judge_results=dict(results),
        usage=usage,
        **base,
    )


def _usage(results: Mapping[str, JudgeResult]) -> Usage:
    from hybridjudge.judges._results import total_usage

    return total_usage(results)


class CascadeOutcome(BaseModel):
    """The cascade's result on one record in one repetition."""

    model_config = ConfigDict(frozen=True)

    index: int = Field(ge=0)
    """Position of the record in the input."""
    id: str
    """The record's ``id``."""
    repetition: int = Field(ge=0)
    """Repetition index."""
    result: CascadeResult
    """The result (unscored ``record_error`` when the record could not be judged)."""
    metadata: dict[str, Any] = Field(default_factory=dict)
    """The record's metadata, unchanged."""


class CascadeBatch(BaseModel):
    """The outcome of :func:`evaluate_many`: one outcome per record and repetition, in order."""

    model_config = ConfigDict(frozen=True)

    judges: tuple[ScorerName, ...]
    """The cascade's judges."""
    repetitions: int = Field(ge=1)
    """Repetitions of every record."""
    outcomes: tuple[CascadeOutcome, ...]
    """Ordered by record position, then repetition."""
    wall_s: tuple[float, ...] = ()
    """Wall seconds of each repetition."""

    def __iter__(self) -> Iterator[CascadeOutcome]:  # type: ignore[override]
        """The outcomes, in order (``for o in batch``), not the model's fields."""
        return iter(self.outcomes)

    def __len__(self) -> int:
        """How many outcomes the batch holds."""
        return len(self.outcomes)

    @property
    def usage(self) -> Usage:
        """Usage of every outcome."""
        total = Usage()
        for outcome in self.outcomes:
            total = total + outcome.result.usage
        return total

    def stage_counts(self) -> dict[str, int]:
        """How many outcomes each stage decided (``unscored`` counted apart)."""
        counts = dict.fromkeys((*CASCADE_STAGES, "unscored"), 0)
        for outcome in self.outcomes:
            key = "unscored" if outcome.result.status == "unscored" else outcome.result.stage
            counts[key] += 1
        return counts

    def to_records(self) -> list[dict[str, Any]]:
        """One flat dict per record and repetition: ``id, repetition, status, stage, score,
        flagged, unscored_reason, claims, claims_as_written, claims_judged, issues, calls,
        cache_hits, prompt_tokens, completion_tokens`` and ``metadata.KEY`` columns."""
        rows: list[dict[str, Any]] = []
        for o in self.outcomes:
            r = o.result
            row: dict[str, Any] = {
                "id": o.id,
                "repetition": o.repetition,
                "status": r.status,
                "stage": r.stage,
                "score": r.score,
                "flagged": r.flagged,
                "unscored_reason": r.unscored_reason,
                "claims": len(r.claims),
                "claims_as_written": r.claim_stages.count("as_written"),
                "claims_judged": r.claim_stages.count("judge"),
                "issues": " | ".join(r.issues),
                "calls": r.usage.calls,
                "cache_hits": r.usage.cache_hits,
                "prompt_tokens": r.usage.prompt_tokens,
                "completion_tokens": r.usage.completion_tokens,
            }
            row.update({f"metadata.{k}": v for k, v in o.metadata.items()})
            rows.append(row)
        return rows


def _failed(
    error: str,
    names: tuple[ScorerName, ...],
    threshold: float,
    repetition: int,
    reason: Literal["record_error", "budget_exhausted"] = "record_error",
) -> CascadeResult:
    return CascadeResult(
        status="unscored",
        stage="checks" if reason == "record_error" else "judge",
        unscored_reason=reason,
        detail=error,
        judges=names,
        threshold=threshold,
        repetition=repetition,
    )


RecordLike = CheckRecord | Mapping[str, Any] | object
"""A :class:`~hybridjudge.grounding.CheckRecord`, a mapping with its fields, or an object."""


async def aevaluate_many(
    records: Iterable[RecordLike],
    *,
    judges: Sequence[str] | str | None = None,
    mode: Mode = "separate",
    repetitions: int = 1,
    client: ModelClient | None = None,
    config: ModelConfig | None = None,
    concurrency: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    max_claims: int | None = DEFAULT_MAX_CLAIMS,
    threshold: float = 1.0,
    grade_failed: bool = False,
) -> CascadeBatch:
    """The cascade on every record, ``repetitions`` times (async; see :func:`evaluate_many`).

    Records are read as :func:`~hybridjudge.grounding.check_many` reads them (``id``,
    ``answer``, ``context``, ``question``, ``anchors``, ``answerable``, ``allowed_numbers``,
    ``metadata``). A record that cannot be judged becomes an unscored ``record_error`` outcome,
    and the others go on; a budget refusal becomes ``budget_exhausted``. ``grade_failed``
    grades the outputs the checks fail claim by claim (see :func:`cascade`).

    Raises:
        ConfigError: an unknown judge or mode, bad repetitions, concurrency or threshold, both
            ``client`` and ``config``.
        InputError: ``records`` is not a list of records.
        ModelError: the endpoint cannot be used at all.
    """
    from hybridjudge.model import BudgetExhaustedError, CorruptCacheError

    names = cascade_judges(judges)
    if mode not in ("separate", "shared"):
        raise ConfigError(f"unknown mode {mode!r}; use 'separate' or 'shared'")
    repetitions = check_repetitions(repetitions)
    threshold = _check_threshold(threshold)
    grade_failed = _check_grade_failed(grade_failed)
    max_claims = check_max_claims(max_claims)
    check_batch_options(concurrency, client, config)
    items, prepared = prepare_records(records, CheckRecord, call="evaluate_many")

    async def run(open_client: ModelClient) -> CascadeBatch:
        limit = concurrency if concurrency is not None else 2 * open_client.config.max_concurrency
        gate = asyncio.Semaphore(limit)
        total = len(prepared) * repetitions
        done = 0

        async def one(index: int, repetition: int) -> CascadeOutcome:
            nonlocal done
            record = prepared[index]
            async with gate:
                if isinstance(record, str):
                    rid = record_id(index, items[index])
                    result = _failed(record, names, threshold, repetition)
                    outcome = CascadeOutcome(
                        index=index, id=rid, repetition=repetition, result=result
                    )
                else:
                    result = await _one(open_client, record, repetition)
                    outcome = CascadeOutcome(
                        index=index,
                        id=record.id,
                        repetition=repetition,
                        result=result,
                        metadata=record.metadata,
                    )
            done += 1
            if progress is not None:
                progress(done, total)
            return outcome

        async def _one(open_client: ModelClient, record: CheckRecord, rep: int) -> CascadeResult:
            try:
                return await cascade(
                    open_client,
                    answer=record.answer,
                    context=record.context,
                    question=record.question,
                    anchors=record.anchors,
                    answerable=record.answerable,
                    allowed_numbers=record.allowed_numbers,
                    judges=names,
                    mode=mode,
                    repetition=rep,
                    max_claims=max_claims,
                    threshold=threshold,
                    grade_failed=grade_failed,
                )
            except BudgetExhaustedError as exc:
                return _failed(str(exc), names, threshold, rep, "budget_exhausted")
            except CorruptCacheError:
                raise
            except (InputError, ValidationError, TypeError, ValueError) as exc:
                error = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                return _failed(error, names, threshold, rep)
            except HybridJudgeError:
                raise
            except Exception as exc:  # one record must not end the batch
                _LOG.exception("record %r (repetition %d) could not be judged", record.id, rep)
                return _failed(f"{type(exc).__name__}: {exc}", names, threshold, rep)

        outcomes: list[CascadeOutcome] = []
        walls: list[float] = []
        for repetition in range(repetitions):
            start = time.perf_counter()
            outcomes += await gather_all(*(one(i, repetition) for i in range(len(prepared))))
            walls.append(time.perf_counter() - start)
        ordered = sorted(outcomes, key=lambda o: (o.index, o.repetition))
        return CascadeBatch(
            judges=names, repetitions=repetitions, outcomes=tuple(ordered), wall_s=tuple(walls)
        )

    if client is not None:
        return await run(client)
    from hybridjudge.model import ModelClient, ModelConfig

    async with ModelClient(config if config is not None else ModelConfig.local()) as own:
        return await run(own)


def evaluate_many(
    records: Iterable[RecordLike],
    *,
    judges: Sequence[str] | str | None = None,
    mode: Mode = "separate",
    repetitions: int = 1,
    config: ModelConfig | None = None,
    concurrency: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    max_claims: int | None = DEFAULT_MAX_CLAIMS,
    threshold: float = 1.0,
    grade_failed: bool = False,
) -> CascadeBatch:
    """The hybrid scorer (the cascade) on many records; returns a :class:`CascadeBatch`.

    Synchronous form of :func:`aevaluate_many`; works in plain scripts and inside a running
    event loop (a notebook). Example::

        from hybridjudge import evaluate_many, ModelConfig

        batch = evaluate_many(
            [{"id": "q1", "answer": "Refunds take 30 days.", "context": ["..."],
              "anchors": ["30 days"]}],
            config=ModelConfig(base_url="http://localhost:8000/v1", model="my-model"),
        )
        batch.stage_counts()   # {"checks": ..., "as_written": ..., "judge": ..., "unscored": ...}
    """
    return run_sync(
        lambda: aevaluate_many(
            records,
            judges=judges,
            mode=mode,
            repetitions=repetitions,
            config=config,
            concurrency=concurrency,
            progress=progress,
            max_claims=max_claims,
            threshold=threshold,
            grade_failed=grade_failed,
        )
    )


async def aevaluate(
    *,
    answer: str,
    context: Sequence[str] | str,
    question: str | None = None,
    anchors: Sequence[Any] = (),
    answerable: bool | None = True,
    allowed_numbers: Sequence[Any] = (),
    judges: Sequence[str] | str | None = None,
    mode: Mode = "separate",
    config: ModelConfig | None = None,
    client: ModelClient | None = None,
    max_claims: int | None = DEFAULT_MAX_CLAIMS,
    threshold: float = 1.0,
    grade_failed: bool = False,
) -> CascadeResult:
    """One answer through the cascade (async; see :func:`evaluate`)."""
    if client is not None and config is not None:
        raise ConfigError("pass either an open client or a config, not both")
    kwargs: dict[str, Any] = {
        "answer": answer,
        "context": context,
        "question": question,
        "anchors": anchors,
        "answerable": answerable,
        "allowed_numbers": allowed_numbers,
        "judges": judges,
        "mode": mode,
        "max_claims": max_claims,
        "threshold": threshold,
        "grade_failed": grade_failed,
    }
    if client is not None:
        return await cascade(client, **kwargs)
    from hybridjudge.model import ModelClient, ModelConfig

    async with ModelClient(config if config is not None else ModelConfig.local()) as own:
        return await cascade(own, **kwargs)


def evaluate(
    *,
    answer: str,
    context: Sequence[str] | str,
    question: str | None = None,
    anchors: Sequence[Any] = (),
    answerable: bool | None = True,
    allowed_numbers: Sequence[Any] = (),
    judges: Sequence[str] | str | None = None,
    mode: Mode = "separate",
    config: ModelConfig | None = None,
    max_claims: int | None = DEFAULT_MAX_CLAIMS,
    threshold: float = 1.0,
    grade_failed: bool = False,
) -> CascadeResult:
    """Judge one answer with the hybrid scorer: the checks first, then the claims the context
    states as written, then the judges on the rest only.

    Example::

        from hybridjudge import evaluate, ModelConfig

        result = evaluate(
            answer="Refunds take 30 days.", context=["Refunds take 30 days."],
            anchors=["30 days"], config=ModelConfig(base_url=URL, model="my-model"),
        )
        result.stage, result.flagged   # ("as_written", False): no model call

    ``grade_failed=True`` grades an answer the checks fail claim by claim (still flagged),
    asking the judges about the claims no finding is in (see :func:`cascade`).

    Raises:
        ConfigError: an unknown judge or mode, a bad threshold.
        InputError: an argument of the wrong type.
    """
    return run_sync(
        lambda: aevaluate(
            answer=answer,
            context=context,
            question=question,
            anchors=anchors,
            answerable=answerable,
            allowed_numbers=allowed_numbers,
            judges=judges,
            mode=mode,
            config=config,
            max_claims=max_claims,
            threshold=threshold,
            grade_failed=grade_failed,
        )
    )
