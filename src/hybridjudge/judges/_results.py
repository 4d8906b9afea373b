"""Typed results of the judges: a score with its per-claim verdicts, or *unscored* with a reason.

A :class:`JudgeResult` is never NaN and never built on a default verdict: either every claim got
exactly one verdict from the model (``status="scored"``), or the result says why there is no
score (``status="unscored"`` with ``unscored_reason`` and ``detail``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from hybridjudge._frames import metadata_columns, to_frame
from hybridjudge.model import Usage

__all__ = [
    "ClaimVerdict",
    "DroppedClaim",
    "FailureDetail",
    "JudgeBatch",
    "JudgeOutcome",
    "JudgeRecord",
    "JudgeResult",
    "ScorerName",
    "UnscoredReason",
    "total_usage",
]

ScorerName = Literal["support", "contradiction"]
"""The two definitions of faithfulness (``docs/faithfulness.md``)."""

UnscoredReason = Literal[
    "no_claims",
    "parse_failure",
    "model_error",
    "record_error",
    "too_many_claims",
    "budget_exhausted",
]
"""Why a result has no score: the answer asserts nothing (and does not abstain); the model's
reply did not validate even after one repair; no usable reply after the retries; the record could
not be judged at all (a field of the wrong type, an unexpected error: :func:`judge_many` records it
and goes on with the other records); the answer has more claims than ``max_claims``
(``--max-claims``; not judged, no verdict call made: a score of its first claims would pass for a
score of the answer); the run's ``--max-cost`` was reached before this output's calls were all
answered (the calls it would need were not sent)."""


class ClaimVerdict(BaseModel):
    """The verdict on one claim, as the model gave it, and what it means for this scorer."""

    model_config = ConfigDict(frozen=True)

    claim_id: int
    """1-based position of the claim in :attr:`JudgeResult.claims`."""
    claim: str
    """The claim text."""
    label: str
    """The verdict: ``supported``/``not_supported`` (support), ``contradicted``/
    ``not_contradicted`` (contradiction), or ``supported``/``contradicted``/``not_in_context``
    (shared mode). ``supported`` needs the model's ``YES`` *and* a quote found in the context.
    ``no_context`` (every scorer, no model call): the context is empty, so nothing supports the
    claim."""
    reason: str
    """Why, in one sentence: what the model answered and whether its quote was found."""
    faithful: bool
    """Whether this claim counts as faithful for this scorer (the numerator of the score)."""
    quote: str | None = None
    """The span the model quoted as stating the claim (support and shared mode; at most 200
    characters); ``None`` when it gave none or was not asked for one."""
    quote_found: bool | None = None
    """Whether :attr:`quote` is really in the context (a normalised substring, or 80 % of its
    words in order in one context sentence with the same negations and numbers); ``None``
    without a quote."""
    evidence: tuple[str, ...] = ()
    """The context sentences the claim was judged against (those sharing most words with it)."""


class DroppedClaim(BaseModel):
    """An extracted claim that was not judged, and why."""

    model_config = ConfigDict(frozen=True)

    claim: str
    """The claim text as extracted."""
    why: Literal["abstention", "duplicate", "blank"]
    """``abstention``: it only says that information is missing (e.g. "the context does not
    provide the price"), which asserts nothing to verify; ``duplicate``: the same text as an
    earlier claim (it would count twice); ``blank``: empty after trimming."""


class FailureDetail(BaseModel):
    """What went wrong for an unscored result."""

    model_config = ConfigDict(frozen=True)

    stage: Literal["claims", "verdicts", "record"]
    """The call that failed: claim extraction or the verdict call (``claims`` also for
    ``too_many_claims``); ``record`` when the record itself could not be judged
    (``unscored_reason="record_error"``) or was not judged to the end (``budget_exhausted``)."""
    error: str
    """The model layer's error message (validation error or model error), one line."""
    raw: str | None = None
    """The model's last raw reply, kept for parse failures."""


class JudgeResult(BaseModel):
    """One scorer's judgement of one answer in one repetition."""

    model_config = ConfigDict(frozen=True)

    scorer: ScorerName
    """``support`` (support-based faithfulness) or ``contradiction`` (contradiction-based)."""
    mode: Literal["separate", "shared"]
    """``separate``: this scorer's own verdict call; ``shared``: one three-way call fed both."""
    status: Literal["scored", "unscored"]
    """Whether :attr:`score` holds a number."""
    score: float | None = Field(default=None, ge=0.0, le=1.0, allow_inf_nan=False)
    """Faithful claims / claims in [0, 1] when scored (1.0 for a recognised abstention); else
    ``None``."""
    unscored_reason: UnscoredReason | None = None
    """Why there is no score; ``None`` when scored."""
    detail: FailureDetail | None = None
    """The failed call, its error and (parse failures) the raw reply; ``None`` otherwise."""
    claims: tuple[str, ...] = ()
    """The claims judged, in order (claim ``i`` has ``claim_id`` ``i + 1``)."""
    verdicts: tuple[ClaimVerdict, ...] = ()
    """Exactly one verdict per claim when scored from verdicts; empty otherwise."""
    dropped_claims: tuple[DroppedClaim, ...] = ()
    """Extracted claims that were not judged, each with the reason."""
    abstained: bool = False
    """True when the answer is a recognised abstention that asserts nothing else: scored 1.0
    without a verdict (whether abstaining was *right* is the grounding check's question)."""
    abstention_reason: str | None = None
    """How the abstention was recognised, e.g. the matching sentence."""
    usage: Usage = Usage()
    """Usage of the verdict call(s) behind this result (scope :attr:`scope`). In shared mode both
    scorers carry the same shared call: sum usage with :func:`total_usage`, not by hand."""
    claims_usage: Usage = Usage()
    """Usage of the claim extraction (scope ``claims``), shared by every scorer of one
    :func:`judge` call."""
    scope: str
    """Usage scope of the verdict call in the model client: ``support``, ``contradiction`` or
    ``shared``."""
    repetition: int = Field(ge=0)
    """Repetition index (part of every cache key, so each repetition is a fresh sample)."""
    prompt_versions: dict[str, str] = Field(default_factory=dict)
    """Name -> version (sha256[:12]) of every prompt used, for reports."""

    @model_validator(mode="after")
    def _consistent(self) -> JudgeResult:
        if self.status == "scored":
            if self.score is None or self.unscored_reason is not None:
                raise ValueError("a scored result needs a score and no unscored_reason")
            if not self.abstained and len(self.verdicts) != len(self.claims):
                raise ValueError("a scored result needs exactly one verdict per claim")
        else:
            if self.score is not None or self.unscored_reason is None:
                raise ValueError("an unscored result needs an unscored_reason and no score")
            if self.abstained:
                raise ValueError("a recognised abstention is scored, not unscored")
        return self

    @property
    def scored(self) -> bool:
        """``status == "scored"``."""
        return self.status == "scored"


def total_usage(results: Mapping[str, JudgeResult] | list[JudgeResult]) -> Usage:
    """Usage of the results of one :func:`judge` call, each call counted once.

    Claim extraction is shared by every scorer and the shared-mode verdict call by both, so
    adding ``r.usage + r.claims_usage`` over the results would count them twice.
    """
    values = list(results.values()) if isinstance(results, Mapping) else list(results)
    total = Usage()
    if not values:
        return total
    total = total + values[0].claims_usage
    seen: set[str] = set()
    for result in values:
        if result.scope not in seen:
            seen.add(result.scope)
            total = total + result.usage
    return total


class JudgeRecord(BaseModel):
    """One answer to judge in a batch: the answer, its context, and what travels with it.

    A single context string is one passage. The grounding-only keys of a check record
    (``anchors``, ``answerable``, ``allowed_numbers``) are accepted and ignored, so one list of
    records feeds both :func:`~hybridjudge.grounding.check_many` and :func:`judge_many`. Built
    by keyword, this model refuses any other unknown key (put it in ``metadata``);
    :func:`judge_many` reads a mapping or an object as ``hybridjudge judge`` reads a case line
    (docs/formats.md, "Case lines"): RAGAS's, DeepEval's and OpenGATE's field names are mapped
    to these, every other field goes into ``metadata``, and a record without an id gets
    ``record-N`` (N its 1-based position).
    """

    model_config = ConfigDict(frozen=True, extra="forbid", from_attributes=True)

    id: str = Field(min_length=1)
    """The record's identifier, repeated in its outcome (``record-N``, N its 1-based position,
    when none was given)."""
    answer: str
    """The answer to judge."""
    context: tuple[str, ...]
    """The retrieved passages the answer should be faithful to."""
    question: str | None = None
    """The question, used to make claims self-contained; optional."""
    metadata: dict[str, Any] = Field(default_factory=dict)
    """Anything the caller wants carried into the outcome and the table (JSON values)."""

    @model_validator(mode="before")
    @classmethod
    def _drop_grounding_fields(cls, data: object) -> object:
        if isinstance(data, Mapping) and any(k in data for k in _GROUNDING_ONLY):
            return {k: v for k, v in data.items() if k not in _GROUNDING_ONLY}
        return data

    @field_validator("context", mode="before")
    @classmethod
    def _one_passage(cls, value: object) -> object:
        return (value,) if isinstance(value, str) else value


_GROUNDING_ONLY = frozenset({"anchors", "answerable", "allowed_numbers"})

JudgeOutcomeStatus = Literal["judged", "failed"]


class JudgeOutcome(BaseModel):
    """Every scorer's judgement of one record in one repetition (or why there is none)."""

    model_config = ConfigDict(frozen=True)

    index: int = Field(ge=0)
    """Position of the record in the input."""
    id: str
    """The record's ``id``."""
    repetition: int = Field(ge=0)
    """Repetition index (part of every cache key)."""
    status: JudgeOutcomeStatus
    """``judged``: :func:`judge` ran (each result is still scored or unscored); ``failed``: the
    record could not be judged, and every result is unscored with ``record_error``."""
    results: dict[str, JudgeResult]
    """Scorer name -> result, in the order of the batch's scorers."""
    error: str | None = None
    """Why the record failed, one line; ``None`` when judged."""
    metadata: dict[str, Any] = Field(default_factory=dict)
    """The record's metadata, unchanged."""

    @property
    def usage(self) -> Usage:
        """Usage of this outcome's calls, each shared call counted once (:func:`total_usage`)."""
        return total_usage(self.results)


_JUDGE_COLUMNS = (
    "id",
    "repetition",
    "scorer",
    "mode",
    "status",
    "score",
    "unscored_reason",
    "abstained",
    "claims",
    "faithful_claims",
    "detail",
    "calls",
    "cache_hits",
    "prompt_tokens",
    "completion_tokens",
    "cost_usd",
    "latency_s",
)


class JudgeBatch(BaseModel):
    """The outcome of :func:`~hybridjudge.judges.judge_many`: one outcome per record and
    repetition, in input order (record by record, repetitions together)."""

    model_config = ConfigDict(frozen=True)

    scorers: tuple[ScorerName, ...]
    """The scorers run, in order."""
    mode: Literal["separate", "shared"]
    """The verdict mode."""
    repetitions: int = Field(ge=1)
    """Repetitions of every record."""
    outcomes: tuple[JudgeOutcome, ...]
    """Ordered by record position, then repetition."""
    wall_s: tuple[float, ...] = ()
    """Wall seconds of each repetition (repetitions run one after the other)."""

    def __iter__(self) -> Iterator[JudgeOutcome]:  # type: ignore[override]
        """The outcomes, in order (``list(batch)``, ``for o in batch``), not the model's fields
        (``model_dump()`` gives those), as :class:`~hybridjudge.grounding.CheckBatch`."""
        return iter(self.outcomes)

    def __len__(self) -> int:
        """How many outcomes (records x repetitions) the batch holds."""
        return len(self.outcomes)

    @property
    def usage(self) -> Usage:
        """Usage of every outcome, shared calls counted once per outcome."""
        total = Usage()
        for outcome in self.outcomes:
            total = total + outcome.usage
        return total

    @property
    def failed(self) -> tuple[JudgeOutcome, ...]:
        """The outcomes whose record could not be judged."""
        return tuple(o for o in self.outcomes if o.status == "failed")

    def to_records(self) -> list[dict[str, Any]]:
        """One flat dict per record, repetition and scorer (a long table).

        Columns: ``id, repetition, scorer, mode, status, score, unscored_reason, abstained,
        claims, faithful_claims, detail, calls, cache_hits, prompt_tokens, completion_tokens,
        cost_usd, latency_s`` and one ``metadata.KEY`` column per metadata key. A scorer's usage
        includes the claim extraction it needs (shared with the other scorer of the same
        record), so each row reads as the cost of running that scorer alone.
        """
        rows: list[dict[str, Any]] = []
        for outcome in self.outcomes:
            for name, r in outcome.results.items():
                usage = r.usage + r.claims_usage
                detail = r.abstention_reason if r.abstained else None
                if r.detail is not None:
                    detail = f"{r.detail.stage}: {r.detail.error}"
                row: dict[str, Any] = {
                    "id": outcome.id,
                    "repetition": outcome.repetition,
                    "scorer": name,
                    "mode": r.mode,
                    "status": r.status,
                    "score": r.score,
                    "unscored_reason": r.unscored_reason,
                    "abstained": r.abstained,
                    "claims": len(r.claims),
                    "faithful_claims": sum(v.faithful for v in r.verdicts),
                    "detail": detail,
                    "calls": usage.calls,
                    "cache_hits": usage.cache_hits,
                    "prompt_tokens": usage.prompt_tokens,
                    "completion_tokens": usage.completion_tokens,
                    "cost_usd": usage.cost_usd,
                    "latency_s": usage.latency_s,
                }
                row.update({f"metadata.{k}": v for k, v in outcome.metadata.items()})
                rows.append(row)
        return rows

    def to_pandas(self) -> Any:
        """:meth:`to_records` as a ``pandas.DataFrame`` (needs the ``pandas`` extra).

        Raises:
            ImportError: pandas is not installed (the message names the extra).
        """
        rows = self.to_records()
        return to_frame(rows, metadata_columns(rows, _JUDGE_COLUMNS), what="JudgeBatch")
