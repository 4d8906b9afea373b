"""Named trace rules: a figure cut rather than rounded after an approximation sign (``≈ 0.6638``
for 0.66387: ``truncated``) and a derived figure the answer states again (``repeated``), each
recorded by name in the derivation of its trace; and the counting words of the years a table
lists (``over the past three years``) and the ``* 100%`` of a percentage formula.

The golden cases are data (``data/trace_rule_cases.json``), each with its verdict worked out by
hand.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hybridjudge.grounding import check_grounding

CASES: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "data" / "trace_rule_cases.json").read_text(encoding="utf-8")
)["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden_case(case: dict[str, Any]) -> None:
    report = check_grounding(
        case["answer"], "\n".join(case["context"]), question=case.get("question"), answerable=None
    )
    flagged = [f.subject for f in report.findings if f.kind == "ungrounded_number"]
    assert (not flagged) == case["grounded"], (case["why"], flagged)
    if "rule" in case:
        rules = [t.derivation for t in report.quantities if t.derivation]
        assert any(d.endswith(f"({case['rule']})") for d in rules), rules


def test_an_approximation_sign_makes_a_figure_approximate() -> None:
    # "≈ 1,200" is "approximately 1,200": rounded at its last non-zero digit (1,180 is near)
    report = check_grounding("Revenue was ≈ 1,200 million.", "Revenue was 1,180 million.")
    assert report.grounded, report.findings
