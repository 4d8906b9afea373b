"""Deterministic grounding checks: required facts, traceable numbers, abstention.

The free, deterministic half of hybridjudge: microseconds per answer, and every finding says
exactly what is wrong (``missing_anchor``, ``negated_anchor``, ``ungrounded_number``,
``non_abstention``, ``over_abstention``) and where. Every quantity of the answer is traced, and
its trace names the rule that explained it (:data:`TraceRule`, described in
:data:`TRACE_RULES`: ``as_written``, ``rounded``, ``rescaled``, ``percent_change``...).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hybridjudge._lazy import lazy_attribute as _lazy_attribute
from hybridjudge._lazy import lazy_dir as _lazy_dir
from hybridjudge.grounding._abstention import (
    DEFAULT_ABSTAIN_MARKERS,
    MARKERS_BY_LANGUAGE,
    abstains,
    says_something_is_missing,
)
from hybridjudge.grounding._anchors import (
    NEGATION_WINDOW,
    AnchorLike,
    CompiledAnchors,
    compile_anchors,
)
from hybridjudge.grounding._check import (
    DerivedPolicy,
    GroundingChecker,
    GroundingContext,
    check_grounding,
    prepare_context,
)
from hybridjudge.grounding._errors import GroundingInputError, GroundingTypeError
from hybridjudge.grounding._models import (
    GROUNDING_REPORT_VERSION,
    TRACE_RULES,
    Finding,
    FindingKind,
    GroundingReport,
    Quantity,
    QuantityKind,
    QuantityTrace,
    TraceRule,
    TraceSource,
)
from hybridjudge.grounding._normalize import normalize_plain as normalize_text
from hybridjudge.grounding._quantities import parse_quantities

if TYPE_CHECKING:
    from hybridjudge.grounding._batch import (
        CheckBatch,
        CheckOutcome,
        CheckProgress,
        CheckRecord,
        check_many,
    )

# The checks of many records at once load on first use (PEP 562): a one-case check needs none
# of them (nor their pydantic models).
_LAZY: dict[str, str] = {
    "CheckBatch": "_batch",
    "CheckOutcome": "_batch",
    "CheckProgress": "_batch",
    "CheckRecord": "_batch",
    "check_many": "_batch",
}


def __getattr__(name: str) -> Any:
    """Import a lazy name's private module on first access (PEP 562) and keep the name here."""
    return _lazy_attribute(globals(), _LAZY, name)


def __dir__() -> list[str]:
    return _lazy_dir(globals(), _LAZY)


__all__ = [
    "DEFAULT_ABSTAIN_MARKERS",
    "GROUNDING_REPORT_VERSION",
    "MARKERS_BY_LANGUAGE",
    "NEGATION_WINDOW",
    "TRACE_RULES",
    "AnchorLike",
    "CheckBatch",
    "CheckOutcome",
    "CheckProgress",
    "CheckRecord",
    "CompiledAnchors",
    "DerivedPolicy",
    "Finding",
    "FindingKind",
    "GroundingChecker",
    "GroundingContext",
    "GroundingInputError",
    "GroundingReport",
    "GroundingTypeError",
    "Quantity",
    "QuantityKind",
    "QuantityTrace",
    "TraceRule",
    "TraceSource",
    "abstains",
    "check_grounding",
    "check_many",
    "compile_anchors",
    "normalize_text",
    "parse_quantities",
    "prepare_context",
    "says_something_is_missing",
]
