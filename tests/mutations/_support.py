"""Independent checks that a mutant carries its one defect, straight from ``check_grounding``.

These deliberately do not call :func:`hybridjudge.mutations.verify_mutant` (which the mutators
use themselves), so the tests check the mutators against the grounding checks directly.
"""

from __future__ import annotations

import re
from collections import Counter

from hybridjudge.corpus import Case
from hybridjudge.grounding import GroundingReport, abstains, check_grounding


def report(text: str, case: Case) -> GroundingReport:
    """The grounding report of *text* for *case*."""
    return check_grounding(
        text,
        case.context,
        question=case.question,
        anchors=case.anchors,
        answerable=case.answerable,
        allowed_numbers=case.allowed_numbers,
    )


def added_findings(base: str, mutant: str, case: Case) -> list[tuple[str, str]]:
    """Findings (kind, subject) of the mutant that the base does not have."""
    before = Counter((f.kind, f.subject) for f in report(base, case).findings)
    after = Counter((f.kind, f.subject) for f in report(mutant, case).findings)
    return sorted((after - before).elements())


def numbers(text: str) -> Counter[str]:
    """Every digit run of *text*."""
    return Counter(re.findall(r"\d+(?:[.,]\d+)*", text))


def assert_carries_only(defect: str, base: str, mutant: str, case: Case) -> None:
    """Fail unless *mutant* differs from *base* and carries exactly *defect*."""
    assert mutant != base
    added = added_findings(base, mutant, case)
    kinds = [kind for kind, _ in added]
    if defect == "omission":
        assert kinds == ["missing_anchor"], added
    elif defect == "fabricated_number":
        assert kinds == ["ungrounded_number"], added
    elif defect == "non_abstention":
        assert abstains(base)
        assert not abstains(mutant)
        assert kinds == ["non_abstention"], added
        assert not numbers(mutant)
    else:
        assert added == []
        assert not report(mutant, case).abstained or report(base, case).abstained
        for anchor in case.anchors:
            for surface in (anchor.value, *anchor.aliases):
                assert mutant.count(surface) >= base.count(surface), surface
        if defect == "contradiction":
            assert mutant.startswith(base.rstrip())
            assert set(numbers(mutant)) <= set(numbers(base))
        else:
            assert numbers(mutant) == numbers(base)
