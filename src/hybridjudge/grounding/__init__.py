"""Deterministic grounding checks: required facts, traceable numbers, abstention.

The free, deterministic half of hybridjudge: microseconds per answer, and every finding says
exactly what is wrong (``missing_anchor``, ``negated_anchor``, ``ungrounded_number``,
``non_abstention``, ``over_abstention``) and where.
"""

from hybridjudge.grounding._abstention import (
    DEFAULT_ABSTAIN_MARKERS,
    MARKERS_BY_LANGUAGE,
    abstains,
)
from hybridjudge.grounding._anchors import NEGATION_WINDOW, AnchorLike
from hybridjudge.grounding._check import (
    GroundingChecker,
    GroundingContext,
    check_grounding,
    prepare_context,
)
from hybridjudge.grounding._errors import GroundingInputError, GroundingTypeError
from hybridjudge.grounding._models import (
    GROUNDING_REPORT_VERSION,
    Finding,
    FindingKind,
    GroundingReport,
    Quantity,
    QuantityKind,
    QuantityTrace,
    TraceSource,
)
from hybridjudge.grounding._normalize import normalize_plain as normalize_text
from hybridjudge.grounding._quantities import parse_quantities

__all__ = [
    "DEFAULT_ABSTAIN_MARKERS",
    "GROUNDING_REPORT_VERSION",
    "MARKERS_BY_LANGUAGE",
    "NEGATION_WINDOW",
    "AnchorLike",
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
    "TraceSource",
    "abstains",
    "check_grounding",
    "normalize_text",
    "parse_quantities",
    "prepare_context",
]
