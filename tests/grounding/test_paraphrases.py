"""Correct paraphrases of English sentences (policy, medical, product, finance), and each with a figure changed (three held-out rounds).

Written as a held-out round before any code for it: at 532c61a, 4 of these 25 correct
paraphrases were flagged and 1 changed one passed. Fixed since: a figure after a hyphen that
follows a figure's unit (``9am-5pm``: the ``5pm`` was dropped), a day span written with one
year (``June 3-5, 2024``), and ``half an hour``. Two outcomes are kept and asserted below:
``two weeks`` for ``14 business days`` is a finding (business days are not calendar days), and
``every hour`` for ``every 30 minutes`` passes (it writes no figure to check).
"""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding, parse_quantities

CASES: list[tuple[str, str, str, list[str]]] = [
    # (context, correct paraphrase, the paraphrase with a figure changed, its findings)
    (
        "Take 500 mg twice daily for 7 days.",
        "The dose is 500 mg two times a day for a week.",
        "The dose is 500 mg three times a day for a week.",
        ["three"],
    ),
    (
        "Adults: 1 g every 4 to 6 hours, maximum 4 g per day.",
        "Adults may take 1,000 mg every 4-6 hours, up to 4,000 mg a day.",
        "Adults may take 1,000 mg every 4-6 hours, up to 5,000 mg a day.",
        ["5,000 mg"],
    ),
    (
        "Store at 2-8 °C.",
        "Keep refrigerated between 2 and 8 degrees Celsius.",
        "Keep refrigerated between 2 and 10 degrees Celsius.",
        ["10 degrees Celsius"],
    ),
    (
        "The warranty lasts 24 months from purchase.",
        "The warranty is valid for two years from the date of purchase.",
        "The warranty is valid for three years from the date of purchase.",
        ["three years"],
    ),
    (
        "The battery lasts up to 10 hours.",
        "Battery life is up to ten hours.",
        "Battery life is up to twelve hours.",
        ["twelve hours"],
    ),
    (
        "The plan costs $12.99 per month or $129 per year.",
        "It's $12.99 monthly, or $129 annually.",
        "It's $12.99 monthly, or $139 annually.",
        ["$139"],
    ),
    (
        "Shipping is free on orders over $50.",
        "Orders above fifty dollars ship free.",
        "Orders above forty dollars ship free.",
        ["forty dollars"],
    ),
    (
        "The library is open 9am-5pm Monday to Friday.",
        "Hours are 9:00 a.m. to 5:00 p.m. on weekdays.",
        "Hours are 9:00 a.m. to 6:00 p.m. on weekdays.",
        ["6:00 p.m."],
    ),
    (
        "The speed limit is 30 mph in residential areas.",
        "In residential zones the limit is thirty miles per hour.",
        "In residential zones the limit is forty miles per hour.",
        ["forty miles per hour"],
    ),
    (
        "Revenue grew 12% year over year to $4.5 billion.",
        "Revenue rose twelve percent from the prior year, reaching $4.5bn.",
        "Revenue rose fifteen percent from the prior year, reaching $4.5bn.",
        ["fifteen percent"],
    ),
    (
        "The study enrolled 1,250 participants aged 18-65.",
        "1250 people between 18 and 65 years old took part.",
        "1520 people between 18 and 65 years old took part.",
        ["1520"],
    ),
    (
        "The device weighs 1.2 kg.",
        "It weighs 1.2 kilograms (1,200 g).",
        "It weighs 1.5 kilograms (1,500 g).",
        ["1.5 kilograms", "1,500 g"],
    ),
    (
        "Interest is charged at 19.9% APR.",
        "The APR is 19.9 percent.",
        "The APR is 29.9 percent.",
        ["29.9 percent"],
    ),
    (
        "Applications close on 31 March 2025.",
        "The deadline for applications is March 31st, 2025.",
        "The deadline for applications is March 30th, 2025.",
        ["March 30th, 2025"],
    ),
    (
        "Employees accrue 1.5 vacation days per month.",
        "Staff earn one and a half days of vacation each month.",
        "Staff earn two and a half days of vacation each month.",
        ["two and a half days"],
    ),
    (
        "The building has 42 floors and is 180 m tall.",
        "The 42-storey tower rises 180 metres.",
        "The 42-storey tower rises 190 metres.",
        ["190 metres"],
    ),
    (
        "The loan term is 30 years at a fixed rate of 6.5%.",
        "It's a 30-year fixed mortgage at 6.5 percent.",
        "It's a 15-year fixed mortgage at 6.5 percent.",
        ["15-year"],
    ),
    (
        "Children under 2 fly free; ages 2-11 pay 75% of the adult fare.",
        "Kids younger than two fly for free, and those 2 to 11 pay three quarters of the adult fare.",
        "Kids younger than two fly for free, and those 2 to 11 pay half of the adult fare.",
        ["half"],
    ),
    (
        "The event had about 3,000 attendees.",
        "Roughly three thousand people attended.",
        "Roughly five thousand people attended.",
        ["five thousand"],
    ),
    (
        "The conference runs from June 3 to June 5, 2024.",
        "The conference is June 3-5, 2024.",
        "The conference is June 3-6, 2024.",
        ["6, 2024"],
    ),
    (
        "Net income was $(2.3) million.",
        "The company posted a net loss of $2.3 million.",
        "The company posted a net loss of $3.2 million.",
        ["$3.2 million"],
    ),
    (
        "Unemployment fell from 5.2% to 4.8%.",
        "Unemployment dropped 0.4 percentage points to 4.8%.",
        "Unemployment dropped 0.6 percentage points to 4.8%.",
        ["0.6 percentage points"],
    ),
    (
        "The medication should not be given to children under 12.",
        "It is not for kids younger than twelve.",
        "It is not for kids younger than ten.",
        ["ten"],
    ),
]


def test_the_two_kept_outcomes() -> None:
    refunds = "Refunds are issued within 14 business days."
    report = check_grounding("You'll get your refund within two weeks (14 business days).", refunds)
    assert [f.subject for f in report.findings] == ["two weeks"]
    flights = "Flights depart every 30 minutes between 6:00 and 22:00."
    assert check_grounding("There's a flight every hour from 6 am to 10 pm.", flights).grounded


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("open 9am-5pm", [("9am", "time", 540), ("5pm", "time", 1020)]),
        ("from 3pm-4pm", [("3pm", "time", 900), ("4pm", "time", 960)]),
        ("10k-20k users", [("10k", "number", 10_000), ("20k", "number", 20_000)]),
        ("June 3-5, 2024", [("June 3", "date", 20240603), ("5, 2024", "date", 20240605)]),
        ("June 3 – 5, 2024", [("June 3", "date", 20240603), ("5, 2024", "date", 20240605)]),
        ("June 3-5", [("June 3", "date", 603), ("5", "date", 605)]),
        (
            "June 3 to June 5, 2024",
            [("June 3", "date", 20240603), ("June 5, 2024", "date", 20240605)],
        ),
        (
            "December 28 to January 3, 2025",
            [("December 28", "date", 20241228), ("January 3, 2025", "date", 20250103)],
        ),
        # spaced, without a year: a date and a count
        ("on June 3 - 5 people came", [("June 3", "date", 603), ("5", "number", 5)]),
        ("every half hour", [("half hour", "number", 0.5)]),
        ("in half a day", [("half a day", "number", 0.5)]),
        # a share of something: 50% (as "a quarter of" is 25%); a period is no share
        ("half of the staff", [("half", "number", 50)]),
        ("in the first half of the year", [("half", "number", 0.5)]),
    ],
)
def test_figures_in_spans_and_half_durations_are_read(
    text: str, read: list[tuple[str, str, float]]
) -> None:
    assert [(q.text, q.kind, float(q.value)) for q in parse_quantities(text)] == read


def test_half_an_hour_is_thirty_minutes() -> None:
    context = "Flights depart every 30 minutes."
    assert check_grounding("There's a flight every half hour.", context).grounded
    assert check_grounding("There's a flight every half day.", context).findings


CASES_ROUND_2: list[tuple[str, str, str, list[str]]] = [
    # a second held-out round (finance and survey phrasing): at 0cfd69c, 7 of 25 correct
    # paraphrases were flagged and 1 changed one passed. Fixed since: fractions in words
    # (one-third, two-thirds, a quarter of, two-fifths: shares, read as percentages), "a year and a
    # half", and words of change before "X to Y" ("improved 140 bps to 41.2%" was a range).
    # Kept, asserted below: "rose 50%" for "doubled from $50 million to $100 million" passes by a
    # share (50 / 100) that the answer does not mean. "100,000 units a month" for "1.2 million
    # units per year", flagged while rates of a count were not converted, is the same rate over
    # another period since 6 December (the rule `rate` reads counts of a noun too).
    (
        "Revenue for fiscal 2023 was $1,215 million.",
        "FY23 revenue was $1.2B.",
        "FY23 revenue was $2.1B.",
        ["$2.1B"],
    ),
    (
        "Revenue for fiscal 2023 was $1,215 million.",
        "Revenue was about $1.2 billion in fiscal 2023.",
        "Revenue was about $1.5 billion in fiscal 2023.",
        ["$1.5 billion"],
    ),
    (
        "Diluted EPS was $2.45, compared with $2.10 a year earlier.",
        "EPS rose to $2.45 from $2.10.",
        "EPS rose to $2.54 from $2.10.",
        ["$2.54"],
    ),
    (
        "Operating margin expanded 150 basis points to 23.5%.",
        "Operating margin rose 1.5 points to 23.5%.",
        "Operating margin rose 2.5 points to 23.5%.",
        ["2.5"],
    ),
    (
        "The unemployment rate rose to 4.2% from 3.9%.",
        "Unemployment rose 0.3 percentage points to 4.2%.",
        "Unemployment rose 0.4 percentage points to 4.2%.",
        ["0.4 percentage points"],
    ),
    (
        "About one-third of respondents said yes.",
        "Roughly 33% of respondents said yes.",
        "Roughly 43% of respondents said yes.",
        ["43%"],
    ),
    (
        "Two-thirds of the staff work remotely.",
        "About 67% of the staff work remotely.",
        "About 76% of the staff work remotely.",
        ["76%"],
    ),
    (
        "A quarter of the budget goes to salaries.",
        "25% of the budget goes to salaries.",
        "35% of the budget goes to salaries.",
        ["35%"],
    ),
    (
        "The project will take 18 months.",
        "The project will take a year and a half.",
        "The project will take two and a half years.",
        ["two and a half years"],
    ),
    (
        "The project will take 18 months.",
        "The project will take 1.5 years.",
        "The project will take 2.5 years.",
        ["2.5 years"],
    ),
    (
        "Shares trade at 15 times earnings.",
        "The P/E ratio is 15x.",
        "The P/E ratio is 25x.",
        ["25x"],
    ),
    (
        "The company approved a 3-for-1 stock split.",
        "The company approved a three-for-one split.",
        "The company approved a two-for-one split.",
        ["two"],
    ),
    (
        "In H1 2024 revenue grew 7%.",
        "In the first half of 2024, revenue grew 7%.",
        "In the first half of 2024, revenue grew 9%.",
        ["9%"],
    ),
    (
        "Revenue grew at a compound annual rate of 8% from 2019 to 2023.",
        "Revenue had an 8% CAGR over 2019-2023.",
        "Revenue had a 6% CAGR over 2019-2023.",
        ["6%"],
    ),
    (
        "There were 987 complaints.",
        "There were nearly 1,000 complaints.",
        "There were nearly 2,000 complaints.",
        ["2,000"],
    ),
    (
        "The fund returned 12.4% in 2023 versus 10.1% for the benchmark.",
        "The fund beat its benchmark by 2.3 percentage points in 2023.",
        "The fund beat its benchmark by 3.2 percentage points in 2023.",
        ["3.2 percentage points"],
    ),
    (
        "Capital expenditures were $450 million, or 9% of revenue.",
        "Capex was $0.45 billion, 9% of revenue.",
        "Capex was $0.54 billion, 9% of revenue.",
        ["$0.54 billion"],
    ),
    (
        "The company has 25,000 employees.",
        "The company has 25k employees.",
        "The company has 52k employees.",
        ["52k"],
    ),
    (
        "The company has 25,000 employees.",
        "The company employs twenty-five thousand people.",
        "The company employs thirty-five thousand people.",
        ["thirty-five thousand"],
    ),
    (
        "The dividend was raised by 10% to $1.10 per share.",
        "The dividend rose 10 percent to $1.10 a share.",
        "The dividend rose 11 percent to $1.10 a share.",
        ["11 percent"],
    ),
    (
        "Net debt fell to $2.0 billion at year end from $2.6 billion.",
        "Net debt decreased by $600 million to $2 billion.",
        "Net debt decreased by $400 million to $2 billion.",
        ["$400 million"],
    ),
    (
        "The drug reduced the risk by 40%.",
        "The drug cut the risk by two-fifths.",
        "The drug cut the risk by three-fifths.",
        ["three-fifths"],
    ),
    (
        "Gross margin was 41.2% compared to 39.8% last year.",
        "Gross margin improved 140 bps to 41.2%.",
        "Gross margin improved 240 bps to 41.2%.",
        ["240 bps"],
    ),
]


def test_the_second_round_s_kept_outcomes() -> None:
    plant = "The plant produces 1.2 million units per year."
    (trace,) = check_grounding("The plant makes 100,000 units a month.", plant).quantities
    assert trace.rule == "rate"
    assert check_grounding("The plant makes 120,000 units a month.", plant).findings
    sales = "Sales doubled from $50 million to $100 million."
    report = check_grounding("Sales rose 50% to $100 million.", sales)
    assert report.grounded
    assert [t.derivation for t in report.derived] == ["50% = $50 million / $100 million"]


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("About one-third of respondents", [("one-third", 100 / 3)]),
        ("Two-thirds of the staff", [("Two-thirds", 200 / 3)]),
        ("a two-thirds majority", [("two-thirds", 200 / 3)]),
        ("A quarter of the budget", [("A quarter", 25.0)]),
        ("three quarters of the votes", [("three quarters", 75.0)]),
        ("cut the risk by two-fifths", [("two-fifths", 40.0)]),
        ("a tenth of the cost", [("a tenth", 10.0)]),
    ],
)
def test_fractions_in_words_are_shares(text: str, read: list[tuple[str, float]]) -> None:
    quantities = parse_quantities(text)
    assert [(q.text, float(q.value)) for q in quantities] == read
    assert all(q.unit == "%" for q in quantities)


@pytest.mark.parametrize(
    "text",
    [
        "a third party",  # no share
        "the third quarter",
        "in a quarter",  # a quarter of a year
        "two quarters of growth",  # two periods: "quarters of" a share only before a determiner
        "a five-quarter average",  # singular after more than one: an adjective
    ],
)
def test_words_like_fractions_are_not_shares(text: str) -> None:
    assert all(q.unit != "%" for q in parse_quantities(text))


def test_a_year_and_a_half_and_words_of_change() -> None:
    assert check_grounding("It takes a year and a half.", "It takes 18 months.").grounded
    assert check_grounding("It takes an hour and a half.", "It takes 18 months.").findings
    # after a word of change, "X to Y" is the change, then the level reached, not a range
    read = parse_quantities("Gross margin improved 140 bps to 41.2%.")
    assert [q.range_role for q in read] == [None, None]


CASES_ROUND_3: list[tuple[str, str, str, list[str]]] = [
    # a third held-out round (medical, policy, product): at edd07ee, 2 of 15 correct paraphrases
    # were flagged, 0 changed ones passed. Fixed since: a day and month without a year written
    # day first ("30 June"), and "midnight" / "noon" as times. Kept, asserted below: "nearly
    # half" for 48% (a half is not a share).
    (
        "Patients should take 2 tablets every 6 hours, not exceeding 8 tablets in 24 hours.",
        "Take two tablets every six hours, with no more than eight in a day.",
        "Take two tablets every four hours, with no more than eight in a day.",
        ["four hours"],
    ),
    (
        "The clinic is closed on public holidays and open 8:30-17:00 on weekdays.",
        "On weekdays the clinic opens at 8:30 am and closes at 5 pm.",
        "On weekdays the clinic opens at 8:30 am and closes at 6 pm.",
        ["6 pm"],
    ),
    (
        "Members get a 15% discount; students get 20%.",
        "Students receive a 20 percent discount, members 15 percent.",
        "Students receive a 25 percent discount, members 15 percent.",
        ["25 percent"],
    ),
    (
        "Passwords must be at least 12 characters long.",
        "A password needs a minimum of twelve characters.",
        "A password needs a minimum of ten characters.",
        ["ten"],
    ),
    (
        "The train takes 2 h 15 min.",
        "The journey lasts two hours and fifteen minutes.",
        "The journey lasts two hours and thirty minutes.",
        ["two hours and thirty minutes"],
    ),
    (
        "The return window is 30 days; refunds take 5-7 business days.",
        "You have a month to return items, and refunds arrive in 5 to 7 business days.",
        "You have a month to return items, and refunds arrive in 7 to 10 business days.",
        ["10"],
    ),
    (
        "The vaccine is 95% effective after two doses given 21 days apart.",
        "Two doses, three weeks apart, give 95% efficacy.",
        "Two doses, four weeks apart, give 95% efficacy.",
        ["four weeks"],
    ),
    (
        "The building was completed in 1998 at a cost of $45 million.",
        "It was finished in 1998 for $45M.",
        "It was finished in 1999 for $45M.",
        ["1999"],
    ),
    (
        "The bridge is 1.2 km long.",
        "The bridge is 1,200 metres long.",
        "The bridge is 1,500 metres long.",
        ["1,500 metres"],
    ),
    (
        "The phone has a 6.1-inch display and 128 GB of storage.",
        'It features a 6.1" screen and 128GB storage.',
        'It features a 6.7" screen and 128GB storage.',
        ["6.7"],
    ),
    (
        "Fewer than 1 in 10 applicants are accepted.",
        "Under 10% of applicants get in.",
        "Under 20% of applicants get in.",
        ["20%"],
    ),
    (
        "Revenue: Q1 $3.2M, Q2 $3.8M.",
        "Revenue grew from $3.2 million in Q1 to $3.8 million in Q2.",
        "Revenue grew from $3.2 million in Q1 to $4.8 million in Q2.",
        ["$4.8 million"],
    ),
    (
        "The offer expires at midnight on 30 June.",
        "The offer ends at 12 am on June 30.",
        "The offer ends at 12 am on June 20.",
        ["June 20"],
    ),
    (
        "Each serving contains 250 kcal and 8 g of protein.",
        "A serving has 250 calories and 8 grams of protein.",
        "A serving has 350 calories and 8 grams of protein.",
        ["350 calories"],  # calories as food labels write them: kilocalories
    ),
]


def test_the_third_round_s_kept_outcome() -> None:
    survey = "The survey covered 2,000 adults; 48% favoured the plan."
    report = check_grounding("Nearly half of the 2,000 adults surveyed favoured the plan.", survey)
    assert [f.subject for f in report.findings] == ["half"]


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("at midnight on 30 June.", [("midnight", "time", 0), ("30 June", "date", 630)]),
        ("at 12 am on June 30", [("12 am", "time", 0), ("June 30", "date", 630)]),
        ("at noon", [("noon", "time", 720)]),
        ("on 30 June 2024", [("30 June 2024", "date", 20240630)]),
        ("as at 31-Dec", [("31-Dec", "date", 1231)]),
        ("3 may be enough", [("3", "number", 3)]),  # a verb, without a year
    ],
)
def test_day_first_dates_without_a_year_and_clock_words(
    text: str, read: list[tuple[str, str, int]]
) -> None:
    assert [(q.text, q.kind, int(q.value)) for q in parse_quantities(text)] == read


@pytest.mark.parametrize(
    ("context", "answer", "changed", "subjects"), CASES + CASES_ROUND_2 + CASES_ROUND_3
)
def test_a_correct_paraphrase_is_grounded_and_a_changed_figure_flagged(
    context: str, answer: str, changed: str, subjects: list[str]
) -> None:
    report = check_grounding(answer, context)
    assert report.grounded, [f.message for f in report.findings]
    assert [f.subject for f in check_grounding(changed, context).findings] == subjects
