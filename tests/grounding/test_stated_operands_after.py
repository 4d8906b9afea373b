"""A result whose operands the answer states after it, in the same sentence.

``about $15,190 a year (2,450 sq ft × $6.20)``, ``26.2 kWh per day on average (812 kWh over 31
days)``, ``7.2 percentage points (21.3% with placebo vs 14.1%)``: the answer shows its working
after the result, in words or in a bracket that holds more than the expression, and in no fixed
order. These were flagged: the checks read an answer left to right, and the operands were not
traced yet when the result was. A measure follows only from measures whose units make its
unit: ``8 hours`` is no ``250 / 30`` of ``30-50 mL/min`` and ``250 mg``. Cases from a second
probe's tuning half and the first probe; every value worked out by hand.
"""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding

LEASE = (
    "| Premises | Unit 4B, 2,450 sq ft |\n|---|---|\n"
    "| Operating expenses (CAM) | $6.20 per sq ft per year, estimated |"
)
BILL = "Billing period: 31 days\nElectricity usage | 812 kWh\nSupply charge | $32.55"
TRIAL = (
    "| Endpoint | Drug X (n=412) | Placebo (n=409) |\n|---|---|---|\n"
    "| Primary endpoint, % | 14.1 | 21.3 |\n| Neutropenia, % | 7.0 | 28.5 |"
)
LEAVE = "Parental leave (primary carer): 18 weeks, 100% for the first 12 weeks, 50% thereafter."
DOSING = (
    "Levetiracetam oral solution 100 mg/mL. Adults: 500 mg twice daily. With CrCl 30-50 "
    "mL/min: 250 to 750 mg every 12 hours."
)


@pytest.mark.parametrize(
    ("answer", "context", "rule"),
    [
        ("Operating expenses are about $15,190 a year (2,450 sq ft × $6.20).", LEASE, "product"),
        ("You used about 26.2 kWh per day on average (812 kWh over 31 days).", BILL, "ratio"),
        ("The risk fell by 7.2 percentage points (21.3% vs 14.1%).", TRIAL, "difference"),
        (
            "Neutropenia was 21.5 percentage points less frequent (7.0% vs 28.5%).",
            TRIAL,
            "difference",
        ),
        (
            "The last 6 weeks of the 18 weeks are paid at 50% after the first 12 weeks.",
            LEAVE,
            "difference",
        ),
        ("A 500 mg dose is 5 mL of the 100 mg/mL oral solution.", DOSING, "ratio"),
    ],
)
def test_a_result_before_its_stated_operands_is_derived(
    answer: str, context: str, rule: str
) -> None:
    report = check_grounding(answer, [context])
    assert report.grounded, report.findings
    assert rule in [t.rule for t in report.quantities]


@pytest.mark.parametrize(
    ("answer", "context"),
    [
        ("Operating expenses are about $15,100 a year (2,450 sq ft × $6.20).", LEASE),  # 15,190
        ("You used about 27.2 kWh per day on average (812 kWh over 31 days).", BILL),  # 26.2
        ("With CrCl 30-50 mL/min, give 250 to 750 mg every 8 hours.", DOSING),  # 250 / 30 no hours
        ("Paid leave is 20 weeks: 18 weeks plus 12 weeks at half pay.", LEAVE),  # 30 weeks
    ],
)
def test_a_wrong_result_or_one_from_other_units_is_flagged(answer: str, context: str) -> None:
    report = check_grounding(answer, [context])
    assert "ungrounded_number" in [f.kind for f in report.findings]
