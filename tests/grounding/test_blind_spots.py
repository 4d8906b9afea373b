"""Golden cases for every OpenGATE blind spot listed in docs/grounding.md, in both directions.

Each case is hand-written; its expected findings are hand-derived from the rule it illustrates.
``catch`` cases are defects OpenGATE misses and we must report; ``pass`` cases are correct
answers OpenGATE wrongly flags and we must pass. Where ``opengate_grounded`` is given, a second
test runs the installed ``opengate-grounding`` on the same inputs and asserts that it really has
the blind spot (so the table documents real behaviour, not folklore).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from hybridjudge.grounding import check_grounding


@dataclass(frozen=True)
class Golden:
    name: str
    answer: str
    context: str
    kinds: tuple[str, ...]  # our expected finding kinds, in order; () means grounded
    kwargs: dict[str, Any] = field(default_factory=dict)
    opengate_grounded: bool | None = None  # what OpenGATE says (None: not asserted)
    subject: str | None = None  # expected subject of the first finding


GOLDEN = [
    # "5 days" matches inside "15 days" (substring anchors)
    Golden(
        "catch: anchor 5 days is not inside 15 days",
        "Exchanges are possible within 15 days.",
        "Exchanges within 15 days. Refunds within 5 days.",
        ("missing_anchor",),
        {"anchors": ["5 days"]},
        opengate_grounded=True,
        subject="5 days",
    ),
    Golden(
        "pass: anchor 5 days present on token boundaries",
        "Refunds are possible within 5 days.",
        "Exchanges within 15 days. Refunds within 5 days.",
        (),
        {"anchors": ["5 days"]},
    ),
    # "no restocking fee" satisfies the anchor "restocking fee"
    Golden(
        "catch: anchor under a negation",
        "There is no restocking fee.",
        "A restocking fee of 15% applies.",
        ("negated_anchor",),
        {"anchors": ["restocking fee"]},
        opengate_grounded=True,
        subject="restocking fee",
    ),
    Golden(
        "pass: negated anchor matches its own wording",
        "Customers pay no restocking fee on standard plans.",
        "There is no restocking fee for standard plans.",
        (),
        {"anchors": ["no restocking fee"]},
    ),
    Golden(
        "pass: anchor in a clause without negation, negation elsewhere",
        "No refund is due after 30 days, but a restocking fee applies to hardware.",
        "No refund after 30 days. Hardware returns carry a restocking fee.",
        (),
        {"anchors": ["restocking fee"]},
    ),
    # units are ignored (500 mg vs 500 g)
    Golden(
        "catch: 500 mg against a context saying 500 g",
        "Take 500 mg twice daily.",
        "Take 500 g twice daily.",
        ("ungrounded_number",),
        opengate_grounded=True,
        subject="500 mg",
    ),
    Golden(
        "pass: 0.5 g is 500 mg",
        "Take 0.5 g twice daily.",
        "Take 500 mg twice daily.",
        (),
        opengate_grounded=False,
    ),
    Golden(
        "pass: anchor 500 mg present as 0.5 g",
        "Take 0.5 g twice daily.",
        "Take 500 mg twice daily.",
        (),
        {"anchors": ["500 mg"]},
        opengate_grounded=False,
    ),
    # ... nor is a figure with a unit a bare count of running text: "three times", "aged 6-12"
    Golden(
        "catch: 3 g is not the three of three times a day",
        "Do not exceed 3 g per dose.",
        "Take 500 mg three times a day. Do not exceed 1 g per dose.",
        ("ungrounded_number",),
        subject="3 g",
    ),
    Golden(
        "catch: 12 days is not the 12 of aged 6-12",
        "Take it for 12 days.",
        "Take it for 5 to 7 days. Half a tablet for children aged 6-12.",
        ("ungrounded_number",),
        opengate_grounded=True,
        subject="12 days",
    ),
    Golden(
        "catch: 10 mL is not the 10 of 1 in 10 patients",
        "Inject 10 mL.",
        "Inject 2.5 mL. About 1 in 10 patients get a rash.",
        ("ungrounded_number",),
        opengate_grounded=True,
        subject="10 mL",
    ),
    Golden(
        "pass: a table cell takes its unit from the column's heading",
        "The adult dose is 500 mg.",
        "Patient | Dose (mg)\nAdult | 500\nChild | 250",
        (),
    ),
    Golden(
        "pass: the year 2023 before the singular year is no duration",
        "In Q2 2023 year over year revenues fell by 5%.",
        "Q2 2023 revenues fell 5% from Q2 2022.",
        (),
    ),
    # ... nor a dose per week a dose per day
    Golden(
        "catch: 10 mg per week is not 10 mg per day",
        "Take 10 mg per week.",
        "Take 10 mg per day.",
        ("ungrounded_number",),
        opengate_grounded=True,
        subject="10 mg per week",
    ),
    Golden(
        "pass: 10 mg a day is 10 mg per day, and 10 mg per day is 10 mg taken daily",
        "Take 10 mg a day.",
        "Take 10 mg daily.",
        (),
    ),
    # ranges: the two ends of one range sum to nothing
    Golden(
        "catch: 3 business days is not 1 + 2 of 1-2 business days",
        "Express delivery takes 3 business days.",
        "Express delivery takes 1-2 business days. Standard shipping is free on orders over $50.",
        ("ungrounded_number",),
        subject="3",
    ),
    # a share of money and a count of running text
    Golden(
        "catch: a 2% fee is not 1 / $50",
        "Late payments incur a fee of 2% per month.",
        "Standard shipping costs $4.99 and is free on orders over $50. "
        "Express delivery takes 1-2 business days.",
        ("ungrounded_number",),
        subject="2%",
    ),
    # "1,000" becomes "1" and "0"
    Golden(
        "catch: 1 dollar is not 1,000",
        "The fee is 1 dollar.",
        "The fee is 1,000 dollars.",
        ("ungrounded_number",),
        opengate_grounded=True,
        subject="1 dollar",
    ),
    Golden(
        "pass: 1,000 is 1000",
        "The fee is 1,000 dollars.",
        "The fee is 1000 dollars.",
        (),
        opengate_grounded=False,
    ),
    # "3.0" differs from "3"; "0.50" from "0.5"
    Golden(
        "pass: 3.0 hours is 3 hours",
        "Wait 3.0 hours.",
        "Wait 3 hours before eating.",
        (),
        opengate_grounded=False,
    ),
    Golden(
        "pass: 0.50 is 0.5",
        "The rate is 0.50 percent.",
        "The rate is 0.5%.",
        (),
        opengate_grounded=False,
    ),
    # written numbers are invisible
    Golden(
        "catch: five days invented",
        "Take it for five days.",
        "Take it for 3 days.",
        ("ungrounded_number",),
        opengate_grounded=True,
        subject="five days",
    ),
    Golden(
        "pass: anchor 30 days written as thirty days",
        "You have thirty days to ask for a refund.",
        "Refunds within 30 days of purchase.",
        (),
        {"anchors": ["30 days"]},
        opengate_grounded=False,
    ),
    Golden(
        "pass: anchor 30 days inside a 30-day window",
        "You get a 30-day window for refunds.",
        "Refunds within 30 days of purchase.",
        (),
        {"anchors": ["30 days"]},
        opengate_grounded=False,
    ),
    Golden(
        "pass: number word traced to digits",
        "Recheck in eight weeks.",
        "We will recheck in 8 weeks.",
        (),
    ),
    # list enumerators taken for facts
    Golden(
        "pass: enumerators are not quantities",
        "Steps:\n1. Rest\n2) Ice\n(3) Elevate the leg",
        "Rest, ice and elevation help.",
        (),
        opengate_grounded=False,
    ),
    Golden(
        "catch: a real number after an enumerator",
        "1. Take 2 tablets",
        "Take one tablet.",
        ("ungrounded_number",),
        subject="2",
    ),
    # percentages
    Golden(
        "catch: 15% is not 15 mg",
        "About 15% of patients respond.",
        "The dose is 15 mg.",
        ("ungrounded_number",),
        opengate_grounded=True,
        subject="15%",
    ),
    Golden(
        "pass: 15% = fifteen per cent",
        "About 15% of patients respond.",
        "About fifteen per cent of patients respond.",
        (),
        opengate_grounded=False,
    ),
    # ranges
    Golden(
        "pass: anchor 6 to 8 weeks written 6–8 weeks",
        "Recheck in 6–8 weeks.",
        "Recheck thyroid tests in 6 to 8 weeks.",
        (),
        {"anchors": ["6 to 8 weeks"]},
        opengate_grounded=False,
    ),
    Golden(
        "catch: range end invented",
        "Recheck in 6-10 weeks.",
        "Recheck thyroid tests in 6 to 8 weeks.",
        ("ungrounded_number",),
        subject="10 weeks",
    ),
    # dates
    Golden(
        "catch: 5 May 2024 is not 2024-01-05",
        "The deadline is 5 May 2024.",
        "Deadline: 2024-01-05.",
        ("ungrounded_number",),
        opengate_grounded=True,
        subject="5 May 2024",
    ),
    Golden(
        "pass: 2024-01-05 = 5 January 2024",
        "The deadline is 2024-01-05.",
        "The deadline is 5 January 2024.",
        (),
        opengate_grounded=False,
    ),
    Golden(
        "pass: Jan 5, 2024 = 2024-01-05",
        "Due Jan 5, 2024.",
        "Due 2024-01-05.",
        (),
    ),
    # fractions
    Golden(
        "catch: ½ tablet against a quarter",
        "Take ½ tablet.",
        "Take 1/4 tablet.",
        ("ungrounded_number",),
        opengate_grounded=True,
        subject="½",
    ),
    Golden(
        "pass: 1/2 = half",
        "Take 1/2 tablet.",
        "Take half a tablet at night.",
        (),
        opengate_grounded=False,
    ),
    # clock times
    Golden(
        "catch: 8 pm is not 8 am",
        "The clinic opens at 8 pm.",
        "The clinic opens at 8:00 am.",
        ("ungrounded_number",),
        opengate_grounded=True,
        subject="8 pm",
    ),
    Golden(
        "pass: 8 am = 8:00 am",
        "The clinic opens at 8 am.",
        "The clinic opens at 8:00 am.",
        (),
    ),
    # signs
    Golden(
        "catch: -5 °C is not 5 °C",
        "Store at -5 °C.",
        "Store at 5 °C.",
        ("ungrounded_number",),
        opengate_grounded=True,
        subject="-5 °C",
    ),
    Golden(
        "pass: Unicode minus is a minus",
        "Store at −5 °C.",
        "Store at -5 °C.",
        (),
    ),
    # identifiers
    Golden(
        "catch: 19 patients is not traceable to COVID-19",
        "19 patients were admitted.",
        "Patients with COVID-19 were admitted.",
        ("ungrounded_number",),
        opengate_grounded=True,
        subject="19",
    ),
    Golden(
        "pass: identifiers the context contains are not quantities",
        "The plant is ISO 9001 certified and treats COVID-19.",
        "Our ISO 9001 plant treats COVID-19 patients.",
        (),
    ),
    # abstention: English-only list, only checked when unanswerable
    Golden(
        "pass: Chinese abstention on an unanswerable question",
        "上下文中没有提到企业版的价格。",
        "Pro plan includes a 30-day trial.",
        (),
        {"answerable": False},
        opengate_grounded=False,
    ),
    Golden(
        "pass: German abstention on an unanswerable question",
        "Der Preis wird im Kontext nicht erwähnt.",
        "Pro plan includes a 30-day trial.",
        (),
        {"answerable": False},
        opengate_grounded=False,
    ),
    # abstaining and inventing a figure
    Golden(
        "catch: abstains but invents $499",
        "I don't know, but probably $499.",
        "Pro plan includes a 30-day trial.",
        # a hedge that still answers is not an abstention (issue 9), so non_abstention too
        ("ungrounded_number", "non_abstention"),
        {"answerable": False},
        opengate_grounded=True,
        subject="$499",
    ),
    # refusing an answerable question
    Golden(
        "catch: refusing an answerable question",
        "I don't know.",
        "Refunds within 30 days of purchase.",
        ("over_abstention",),
        {"answerable": True},
        opengate_grounded=True,
        subject="I don't know",
    ),
    Golden(
        "pass: unknown answerability is reported, not judged",
        "I don't know.",
        "Refunds within 30 days of purchase.",
        (),
        {"answerable": None},
    ),
    Golden(
        "catch: answering an unanswerable question",
        "The Enterprise plan costs the same as Pro.",
        "Pro plan includes a 30-day trial.",
        ("non_abstention",),
        {"answerable": False},
    ),
]


@pytest.mark.parametrize("case", GOLDEN, ids=[g.name for g in GOLDEN])
def test_golden_case(case: Golden) -> None:
    report = check_grounding(case.answer, case.context, **case.kwargs)
    assert tuple(f.kind for f in report.findings) == case.kinds, report.findings
    assert report.grounded is (not case.kinds)
    if case.subject is not None:
        assert report.findings[0].subject == case.subject


OPENGATE_CASES = [g for g in GOLDEN if g.opengate_grounded is not None]


@pytest.mark.parametrize("case", OPENGATE_CASES, ids=[g.name for g in OPENGATE_CASES])
def test_opengate_really_has_the_blind_spot(case: Golden) -> None:
    og = pytest.importorskip("opengate_grounding")
    kwargs = dict(case.kwargs)
    answerable = kwargs.pop("answerable", True)
    result = og.check_grounding(
        case.answer, case.context, answerable=answerable is not False, **kwargs
    )
    assert result.grounded is case.opengate_grounded
    # ... and we disagree with it
    ours = check_grounding(case.answer, case.context, **case.kwargs)
    assert ours.grounded is not case.opengate_grounded


def test_abstaining_answer_still_gets_number_and_anchor_checks() -> None:
    report = check_grounding(
        "I don't know whether it is $499 a year.",
        "Pro plan includes a 30-day trial.",
        answerable=False,
        anchors=["30-day trial"],
    )
    assert report.abstained is True
    assert [f.kind for f in report.findings] == ["missing_anchor", "ungrounded_number"]


@pytest.mark.parametrize(
    ("text", "unit"),
    [
        ("In Q2 2023 year over year revenues fell.", None),  # the year 2023
        ("The 2019 Year was good.", None),
        ("a 5 year plan", "year"),  # a figure that is no year: a duration
        ("2023 years ago", "year"),  # the plural: a duration
    ],
)
def test_a_year_before_the_singular_year_is_the_year(text: str, unit: str | None) -> None:
    from hybridjudge.grounding import parse_quantities

    (q,) = parse_quantities(text)
    assert q.unit == unit
