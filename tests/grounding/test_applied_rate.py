"""A percentage the answer states, applied to the figure its words name (``_derive._applied_rate``,
rule ``product``): its share (``2% of the dwelling coverage, which works out to $7,700``) or the
figure after the rise or the fall it states (``base rent rises 3% to $5,047``). The percentage
must be traced to the context and the figure named by the words of its clause; the direction the
answer states decides which; worked out by hand."""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding

POLICY = [
    "Coverage A (Dwelling): $385,000. Coverage B (Other Structures): $38,500. "
    "Coverage C (Personal Property): $192,500.",
    "Deductibles: All-peril deductible $1,500 per claim. Windstorm/hail deductible: 2% of "
    "Coverage A.",
]
LEASE = [
    "| Term | Detail |\n|---|---|\n| Base rent (Year 1) | $4,900 per month |\n"
    "| Annual escalation | 3% on each anniversary |\n| Security deposit | $9,800 |"
]
PRICES = [
    "| Item | Amount |\n|---|---|\n| List price | $1,500 |\n| Early-booking discount | 10% |\n"
    "| VAT | 20% |"
]


def _rules(answer: str, context: list[str]) -> list[tuple[str, str | None]]:
    report = check_grounding(answer, context)
    return [(t.quantity.text, t.rule) for t in report.quantities]


@pytest.mark.parametrize(
    ("answer", "context", "derivation"),
    [
        (  # 385,000 x 2% = 7,700
            "The windstorm/hail deductible is 2% of the dwelling coverage, which works out to "
            "$7,700.",
            POLICY,
            "$7,700 = $385,000 × 2%",
        ),
        (  # 4,900 x 1.03 = 5,047
            "In the second year, base rent rises 3% to $5,047 per month.",
            LEASE,
            "$5,047 = $4,900 × (1 + 3%)",
        ),
        (  # 1,500 x 0.9 = 1,350
            "With the early-booking discount the list price falls 10% to $1,350.",
            PRICES,
            "$1,500 × (1 - 10%)",
        ),
        (  # 1,500 x 1.2 = 1,800: no direction stated, any of the three
            "Including 20% VAT, the list price comes to $1,800.",
            PRICES,
            "$1,500 × (1 + 20%)",
        ),
    ],
)
def test_a_percentage_applied_to_the_figure_its_words_name(
    answer: str, context: list[str], derivation: str
) -> None:
    report = check_grounding(answer, context)
    assert report.grounded, report.findings
    (applied,) = [t for t in report.quantities if t.rule == "product"]
    assert applied.source == "derived"
    assert derivation in (applied.derivation or "")


@pytest.mark.parametrize(
    ("answer", "context", "flagged"),
    [
        # a figure the rate does not give (5,074: two digits swapped)
        ("In the second year, base rent rises 3% to $5,074 per month.", LEASE, ["$5,074"]),
        # the opposite direction: 4,900 x 0.97 = 4,753, not 5,047
        ("In the second year, base rent falls 3% to $5,047 per month.", LEASE, ["$5,047"]),
        # words that name another row: the deposit is 9,800 (x 1.03 = 10,094)
        ("The security deposit is 3% higher, at $5,047.", LEASE, ["$5,047"]),
        # a percentage the context does not state is no operand (4,900 x 1.04 = 5,096)
        ("In the second year, base rent rises 4% to $5,096 per month.", LEASE, ["4%", "$5,096"]),
    ],
)
def test_what_the_rate_does_not_give_stays_a_finding(
    answer: str, context: list[str], flagged: list[str]
) -> None:
    report = check_grounding(answer, context)
    assert sorted(f.subject for f in report.findings) == sorted(flagged)


def test_the_rule_is_named_product() -> None:
    rules = _rules("In the second year, base rent rises 3% to $5,047 per month.", LEASE)
    assert rules == [("3%", "as_written"), ("$5,047", "product")]
