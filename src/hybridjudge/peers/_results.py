"""Typed results of the peer scorers: a score, or *unscored* with a reason, never NaN."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from hybridjudge.model import Usage

__all__ = ["PEERS", "PeerName", "PeerResult", "PeerUnscoredReason"]

PeerName = Literal["ragas", "deepeval"]
"""``ragas``: RAGAS Faithfulness (supported statements / statements); ``deepeval``: DeepEval
FaithfulnessMetric (claims not contradicted by the context's truths / claims)."""

PEERS: tuple[PeerName, ...] = ("ragas", "deepeval")
"""Every peer scorer, in report order."""

PeerUnscoredReason = Literal["no_claims", "nan", "parse_failure", "model_error", "budget_exhausted"]
"""Why a peer result has no score: the peer found no statement/claim in the answer (RAGAS
returns NaN, DeepEval silently returns 1.0); the peer returned NaN for another reason; a model
reply the peer could not parse (invalid JSON, a schema it rejects, or as many verdicts as claims
not returned); no usable reply from the model, or the peer raised; a request not sent because
the run's ``--max-cost`` was reached."""


class PeerResult(BaseModel):
    """One peer's score of one answer in one repetition."""

    model_config = ConfigDict(frozen=True)

    scorer: PeerName
    """Which peer."""
    status: Literal["scored", "unscored"]
    """Whether :attr:`score` holds a number."""
    score: float | None = Field(default=None, ge=0.0, le=1.0, allow_inf_nan=False)
    """The peer's faithfulness score in [0, 1] when scored; else ``None``."""
    unscored_reason: PeerUnscoredReason | None = None
    """Why there is no score; ``None`` when scored."""
    error: str | None = None
    """The failure, one line (the model layer's error, or the peer's exception)."""
    claims: tuple[str, ...] = ()
    """The statements (RAGAS) or claims (DeepEval) the peer judged, when it exposes them."""
    usage: Usage = Usage()
    """Usage of every model call the peer made for this result (through the proxy)."""
    repetition: int = Field(default=0, ge=0)
    """Repetition index (part of every cache key)."""
    peer_version: str = ""
    """The installed version of the peer package."""

    @model_validator(mode="after")
    def _consistent(self) -> PeerResult:
        if self.status == "scored":
            if self.score is None or self.unscored_reason is not None:
                raise ValueError("a scored result needs a score and no unscored_reason")
        elif self.score is not None or self.unscored_reason is None:
            raise ValueError("an unscored result needs an unscored_reason and no score")
        return self

    @property
    def scored(self) -> bool:
        """``status == "scored"``."""
        return self.status == "scored"
