"""The JSON shapes the judges ask the model for, as pydantic models.

The model layer turns each into a JSON schema (``response_format``), validates the reply against
it and asks for one repair when it does not validate. So every rule written here is enforced
*before* a reply reaches the judges, and a reply that breaks one twice is a ``parse_failure``:

- a verdict reply must hold exactly one verdict per claim: the list length is fixed to the number
  of claims (``minItems`` = ``maxItems`` = n, which grammar-constrained servers such as llama.cpp
  also enforce while generating) and the ``claim_id`` values must be exactly 1..n, each once;
- in each verdict, ``reason`` comes before ``verdict``: a small model writes its justification
  before committing to a label.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, Literal, cast

from pydantic import BaseModel, ConfigDict, Field, create_model, model_validator

__all__ = [
    "ClaimsReply",
    "ContradictionLabel",
    "ContradictionReply",
    "ContradictionVerdict",
    "SharedLabel",
    "SharedReply",
    "SharedVerdict",
    "SupportLabel",
    "SupportReply",
    "SupportVerdict",
    "VerdictReply",
    "verdict_schema",
]

SupportLabel = Literal["supported", "not_supported"]
"""Support-based verdict (RAGAS ``Faithfulness``): can the claim be directly inferred?"""
ContradictionLabel = Literal["contradicted", "not_contradicted", "unknown"]
"""Contradiction-based verdict (DeepEval ``FaithfulnessMetric``): does the context contradict it?"""
SharedLabel = Literal["supported", "contradicted", "not_in_context"]
"""The three-way verdict of the shared mode, which feeds both scores."""


class ClaimsReply(BaseModel):
    """Claim extraction: the answer as atomic, self-contained claims."""

    model_config = ConfigDict(extra="forbid")

    claims: list[str]
    """The claims, in the order the answer states them; empty when it asserts nothing."""


class _Verdict(BaseModel):
    model_config = ConfigDict(extra="forbid")

    claim_id: int
    """1-based number of the claim, as listed in the prompt."""
    reason: str
    """One sentence of justification, written before the label."""


class SupportVerdict(_Verdict):
    """One support verdict."""

    verdict: SupportLabel
    """``supported`` or ``not_supported``."""


class ContradictionVerdict(_Verdict):
    """One contradiction verdict."""

    verdict: ContradictionLabel
    """``contradicted``, ``not_contradicted`` or ``unknown``."""


class SharedVerdict(_Verdict):
    """One three-way verdict of the shared mode."""

    verdict: SharedLabel
    """``supported``, ``contradicted`` or ``not_in_context``."""


class VerdictReply(BaseModel):
    """Base of the verdict replies: checks that the claim ids are 1..n, each exactly once."""

    model_config = ConfigDict(extra="forbid")

    verdicts: list[_Verdict]
    """One verdict per claim."""

    @model_validator(mode="after")
    def _ids_are_one_to_n(self) -> VerdictReply:
        ids = [v.claim_id for v in self.verdicts]
        expected = list(range(1, len(ids) + 1))
        if sorted(ids) != expected:
            duplicates = sorted({i for i in ids if ids.count(i) > 1})
            unknown = sorted(set(ids) - set(expected))
            problems = []
            if duplicates:
                problems.append(f"duplicate claim_id {duplicates}")
            if unknown:
                problems.append(f"claim_id out of range {unknown}")
            raise ValueError(
                f"{'; '.join(problems)}: give exactly one verdict for each claim_id 1..{len(ids)}"
            )
        return self


class SupportReply(VerdictReply):
    """Verdicts of the support-based judge."""

    verdicts: list[SupportVerdict]  # type: ignore[assignment]
    """One verdict per claim."""


class ContradictionReply(VerdictReply):
    """Verdicts of the contradiction-based judge."""

    verdicts: list[ContradictionVerdict]  # type: ignore[assignment]
    """One verdict per claim."""


class SharedReply(VerdictReply):
    """Verdicts of the shared three-way call."""

    verdicts: list[SharedVerdict]  # type: ignore[assignment]
    """One verdict per claim."""


_ITEM: dict[type[VerdictReply], type[_Verdict]] = {
    SupportReply: SupportVerdict,
    ContradictionReply: ContradictionVerdict,
    SharedReply: SharedVerdict,
}


@cache
def verdict_schema(base: type[VerdictReply], n_claims: int) -> type[VerdictReply]:
    """``base`` with its ``verdicts`` list fixed to exactly ``n_claims`` items.

    The JSON schema then carries ``minItems`` = ``maxItems`` = ``n_claims``, so a reply with a
    missing or an extra verdict fails validation (and gets the model layer's one repair).
    """
    if n_claims < 1:
        raise ValueError(f"a verdict schema needs at least one claim, got {n_claims}")
    item = _ITEM[base]
    fixed_length: Any = Annotated[list[item], Field(min_length=n_claims, max_length=n_claims)]  # type: ignore[valid-type]
    model = create_model(
        f"{base.__name__}{n_claims}",
        __base__=base,
        __doc__=f"{base.__doc__} Exactly {n_claims} verdicts.",
        verdicts=(fixed_length, ...),
    )
    return cast("type[VerdictReply]", model)
