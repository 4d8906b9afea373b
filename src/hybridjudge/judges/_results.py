"""Typed results of the judges: a score with its per-claim verdicts, or *unscored* with a reason.

A :class:`JudgeResult` is never NaN and never built on a default verdict: either every claim got
exactly one verdict from the model (``status="scored"``), or the result says why there is no
score (``status="unscored"`` with ``unscored_reason`` and ``detail``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from hybridjudge.model._types import Usage

__all__ = [
    "ClaimVerdict",
    "DroppedClaim",
    "FailureDetail",
    "JudgeResult",
    "ScorerName",
    "UnscoredReason",
    "total_usage",
]

ScorerName = Literal["support", "contradiction"]
"""The two definitions of faithfulness (``../shared/MISSION.md`` §1)."""

UnscoredReason = Literal["no_claims", "parse_failure", "model_error"]
"""Why a result has no score: the answer asserts nothing (and does not abstain); the model's
reply did not validate even after one repair; no usable reply after the retries."""


class ClaimVerdict(BaseModel):
    """The verdict on one claim, as the model gave it, and what it means for this scorer."""

    model_config = ConfigDict(frozen=True)

    claim_id: int
    """1-based position of the claim in :attr:`JudgeResult.claims`."""
    claim: str
    """The claim text."""
    label: str
    """The model's label: ``supported``/``not_supported`` (support), ``contradicted``/
    ``not_contradicted``/``unknown`` (contradiction), or ``supported``/``contradicted``/
    ``not_in_context`` (shared mode)."""
    reason: str
    """The model's one-sentence reason, given before the label."""
    faithful: bool
    """Whether this claim counts as faithful for this scorer (the numerator of the score)."""


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

    stage: Literal["claims", "verdicts"]
    """The call that failed: claim extraction or the verdict call."""
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
