"""Every mutant is checked by the deterministic grounding checks before it is emitted.

A mutant must carry its one defect and nothing else:

- ``omission``: exactly one new ``missing_anchor`` finding, for the deleted anchor;
- ``fabricated_number``: exactly one new ``ungrounded_number`` finding;
- ``non_abstention``: the base abstains on an unanswerable case, the mutant does not, the only
  new finding is ``non_abstention`` and the mutant adds no number;
- ``contradiction`` / ``inversion``: no new finding of any kind, the text changed, and every
  anchor occurrence and every number of the base survives verbatim; a contradiction (appended)
  adds no number the base does not already state; an inversion (in place) keeps exactly the
  base's numbers and quantities.

"New" compares the findings of base and mutant as multisets keyed by kind and subject.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from hybridjudge.corpus import Anchor, Case, DefectClass
from hybridjudge.grounding import GroundingReport, check_grounding
from hybridjudge.mutations._errors import MutationRefused
from hybridjudge.mutations._text import anchor_spans, digit_tokens, surfaces

__all__ = ["grounding_report", "new_findings", "verify_mutant"]


@lru_cache(maxsize=512)
def grounding_report(text: str, case: Case) -> GroundingReport:
    """:func:`hybridjudge.grounding.check_grounding` of *text* against *case*, memoised.

    Every candidate of a base is compared with the same base report, so caching saves half
    the checks.
    """
    return check_grounding(
        text,
        case.context,
        question=case.question,
        anchors=case.anchors,
        answerable=case.answerable,
        allowed_numbers=case.allowed_numbers,
    )


def _keys(report: GroundingReport) -> Counter[tuple[str, str]]:
    return Counter((str(f.kind), str(f.subject)) for f in report.findings)


def _describe(findings: list[tuple[str, str]]) -> str:
    if not findings:
        return "none"
    return ", ".join(f"{kind} {subject!r}" if subject else kind for kind, subject in findings)


def new_findings(
    base_report: GroundingReport, mutant_report: GroundingReport
) -> list[tuple[str, str]]:
    """The ``(kind, subject)`` findings the mutant raises beyond the base's, sorted."""
    return sorted((_keys(mutant_report) - _keys(base_report)).elements())


def _anchor_surfaces_present(text: str, anchor: Anchor) -> Counter[str]:
    return Counter(text[s:e] for s, e in anchor_spans(text, anchor))


def _verbatim_survivors(base: str, mutant: str, case: Case) -> str | None:
    """None when every anchor occurrence and number of *base* survives in *mutant* verbatim."""
    for anchor in case.anchors:
        # The exact strings of the base must still occur at least as often.
        for surface, count in _anchor_surfaces_present(base, anchor).items():
            if mutant.count(surface) < count:
                return f"anchor {anchor.value!r} ({surface!r}) did not survive verbatim"
    base_digits, mutant_digits = Counter(digit_tokens(base)), Counter(digit_tokens(mutant))
    lost = base_digits - mutant_digits
    if lost:
        return f"number(s) {sorted(lost)} of the base did not survive"
    return None


def verify_mutant(
    defect: DefectClass,
    base: str,
    mutant: str,
    case: Case,
    *,
    anchor: Anchor | None = None,
) -> None:
    """Raise :class:`MutationRefused` unless *mutant* carries exactly the one *defect*.

    Args:
        defect: the class the mutant claims to carry.
        base: the base output's text.
        mutant: the candidate mutant's text.
        case: the gold case both answer.
        anchor: for ``omission``, the anchor that was deleted.
    """
    if mutant == base:
        raise MutationRefused(defect, "the mutant is identical to its base")
    if not any(ch.isalnum() for ch in mutant):
        raise MutationRefused(defect, "the mutant has no words left")
    base_report = grounding_report(base, case)
    mutant_report = grounding_report(mutant, case)
    new = new_findings(base_report, mutant_report)
    kinds = [kind for kind, _ in new]

    if defect == "omission":
        if anchor is None:
            raise MutationRefused(defect, "no anchor named for the omission")
        if not anchor_spans(base, anchor):
            raise MutationRefused(defect, f"the base does not contain anchor {anchor.value!r}")
        if anchor_spans(mutant, anchor):
            raise MutationRefused(defect, f"anchor {anchor.value!r} is still present")
        if kinds != ["missing_anchor"]:
            raise MutationRefused(
                defect, f"expected one new missing_anchor finding, got {_describe(new)}"
            )
        subject = new[0][1]
        if subject and subject not in surfaces(anchor):
            raise MutationRefused(
                defect, f"the missing anchor is {subject!r}, not {anchor.value!r}"
            )
        return

    if defect == "fabricated_number":
        if kinds != ["ungrounded_number"]:
            raise MutationRefused(
                defect, f"expected one new ungrounded_number finding, got {_describe(new)}"
            )
        return

    if defect == "non_abstention":
        if case.answerable is not False:
            raise MutationRefused(defect, "the case is answerable; nothing to abstain from")
        if not base_report.abstained:
            raise MutationRefused(defect, "the base does not abstain")
        if mutant_report.abstained:
            raise MutationRefused(defect, "the mutant still abstains")
        if kinds != ["non_abstention"]:
            raise MutationRefused(
                defect, f"expected one new non_abstention finding, got {_describe(new)}"
            )
        if len(digit_tokens(mutant)) > len(digit_tokens(base)):
            raise MutationRefused(defect, "the confident answer adds a number (a second defect)")
        return

    # contradiction / inversion: invisible to the deterministic checks by construction.
    if new:
        raise MutationRefused(defect, f"the edit raised deterministic findings: {_describe(new)}")
    if mutant_report.abstained and not base_report.abstained:
        raise MutationRefused(defect, "the edit turned the answer into an abstention")
    problem = _verbatim_survivors(base, mutant, case)
    if problem is not None:
        raise MutationRefused(defect, problem)
    if defect == "contradiction":
        added = set(digit_tokens(mutant)) - set(digit_tokens(base))
        if added:
            raise MutationRefused(defect, f"the appended sentence adds number(s) {sorted(added)}")
        return
    if Counter(digit_tokens(mutant)) != Counter(digit_tokens(base)):
        raise MutationRefused(defect, "the edit changed the numbers of the answer")
    if len(mutant_report.quantities) != len(base_report.quantities):
        raise MutationRefused(defect, "the edit changed the quantities of the answer")
