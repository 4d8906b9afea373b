"""Forms of answers and tables the fourth probe's tuning half showed unread (7 December 2026),
each a mechanism, not a case: a bracketed aside after a figure or a year is no accounting sign;
an answer counts its own listed days; a month that labels a table row makes no date with the
cell beside it; working an answer shows decides a measure's value too; a measure may be the mean
of three or more figures its sentence states without the unit (a column whose heading names it);
and an approximation of a measure the answer computes from its own operands is read at the
precision it states. Worked out by hand in each case."""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding, parse_quantities

BUDGET = (
    "On the spending side, public works accounts for $11.7 million and debt service $3.5 "
    "million. The town adopted its budget for fiscal year 2024-25 on June 11, 2024."
)
STEPS = (
    "Day\tSteps\nMon\t9,412\nTue\t12,870\nWed\t6,205\nThu\t11,064\nFri\t8,733\nSat\t15,980\n"
    "Sun\t4,118"
)
SUMMER = "Month\tMean temp (°C)\tRain days\nJune\t24.1\t7\nJuly\t27.8\t2\nAugust\t27.3\t4"


def test_a_bracket_after_a_year_sets_off_an_aside() -> None:
    # "for 2024-25 ($3.5 million)": the bracket restates the figure, it signs nothing
    answer = "The document gives debt service only for 2024-25 ($3.5 million)."
    assert check_grounding(answer, [BUDGET]).grounded
    # a sign still matters where no word nor figure stands before the bracket
    assert not check_grounding("Debt service: ($3.4 million).", [BUDGET]).grounded


def test_an_answer_counts_its_own_listed_days() -> None:
    # 12,870, 11,064 and 15,980 are the days at 10,000 steps or more: three, each named
    answer = "You reached 10,000 steps on three days: Tuesday, Thursday and Saturday."
    report = check_grounding(answer, [STEPS + "\nGoal: 10,000 steps a day."])
    assert report.grounded, report.findings
    assert [t.rule for t in report.quantities] == ["as_written", "enumerated"]
    # a count its list does not bear out is still checked
    wrong = "You reached 10,000 steps on three days: Tuesday and Saturday."
    assert not check_grounding(wrong, [STEPS + "\nGoal: 10,000 steps a day."]).grounded


@pytest.mark.parametrize(
    "text",
    [
        "Month\tMean temp\njune\t24.1\njuly\t27.8",
        "Month | Mean temp\nJune | 24.1\nJuly | 27.8",
        "June\n24.1\nJuly\n27.8",
    ],
)
def test_a_month_labelling_a_row_makes_no_date_with_its_cell(text: str) -> None:
    found = [(q.kind, q.value) for q in parse_quantities(text)]
    assert ("number", 24.1) in [(k, float(v)) for k, v in found]
    assert all(kind != "date" for kind, _ in found)
    # a date written on one line is still one
    dates = [q for q in parse_quantities("It opened on June 24, 2023.") if q.kind == "date"]
    assert [float(q.value) for q in dates] == [20230624.0]


def test_shown_working_decides_a_measure() -> None:
    # (24.1 + 27.8 + 27.3) / 3 = 26.4
    right = "The mean is (24.1 + 27.8 + 27.3) / 3 = 26.4 °C."
    report = check_grounding(right, [SUMMER])
    assert report.grounded, report.findings
    assert report.quantities[-1].rule == "shown_working"
    assert not check_grounding("The mean is (24.1 + 27.8 + 27.3) / 3 = 28.4 °C.", [SUMMER]).grounded


SUMMER_IT = "Mese\tTemp. media (°C)\nGiugno\t24,1\nLuglio\t27,8\nAgosto\t27,3"


@pytest.mark.parametrize(
    ("answer", "context", "grounded"),
    [
        ("Averaging (24.1 + 27.8 + 27.3) / 3, the summer's mean was about 26.4 °C.", SUMMER, True),
        (
            "Facendo la media (24,1 + 27,8 + 27,3) / 3, la temperatura media è di circa 26,4 °C.",
            SUMMER_IT,
            True,
        ),
        ("Averaging (24.1 + 27.8 + 27.3) / 3, the summer's mean was about 25.4 °C.", SUMMER, False),
        # two figures make no measure's run
        ("Averaging 24.1 and 27.8, the summer's mean was about 25.95 °C.", SUMMER, False),
    ],
)
def test_a_measure_may_be_the_mean_of_a_run_its_sentence_states(
    answer: str, context: str, grounded: bool
) -> None:
    assert check_grounding(answer, [context]).grounded is grounded


@pytest.mark.parametrize(
    ("answer", "grounded"),
    [
        # 287 × 82.5 = 23,677.5: about 23,680 (to the ten) and 23,700 (to the hundred)
        ("About 23,680 kWh a year (287 kWh/m² × 82.5 m²).", True),
        ("About 23,700 kWh a year (287 kWh/m² × 82.5 m²).", True),
        ("About 24,680 kWh a year (287 kWh/m² × 82.5 m²).", False),
        # without "about", at the precision written: 23,680 is no 23,677.5
        ("23,680 kWh a year (287 kWh/m² × 82.5 m²).", False),
    ],
)
def test_an_approximate_measure_from_its_own_operands(answer: str, grounded: bool) -> None:
    context = "Primary energy use: 287 kWh/m² a year. Floor area: 82.5 m²."
    assert check_grounding(answer, [context]).grounded is grounded


@pytest.mark.parametrize(
    ("answer", "grounded"),
    [
        # 7 + 2 + 4 = 13: a measure in days from the figures its sentence lists without a unit
        ("In total 13 days of rain: 7 in June, 2 in July and 4 in August.", True),
        ("In totale tredici giorni di pioggia: 7 a giugno, 2 a luglio e 4 ad agosto.", True),
        ("In total 15 days of rain: 7 in June, 2 in July and 4 in August.", False),
    ],
)
def test_a_measure_may_be_the_sum_of_a_run_its_sentence_lists(answer: str, grounded: bool) -> None:
    assert check_grounding(answer, [SUMMER]).grounded is grounded


@pytest.mark.parametrize(
    ("text", "dimension"),
    [
        ("The $11.50 day pass caps the fares.", "currency-usd"),
        ("A €9.90 month ticket.", "currency-eur"),
        ("£7.99 month subscription", "currency-gbp"),
        ("It lasts 5 days.", "time"),  # a period's noun without money stays a duration
    ],
)
def test_a_period_noun_after_money_names_what_it_buys(text: str, dimension: str) -> None:
    (q,) = parse_quantities(text)
    assert q.dimension == dimension


def test_money_before_a_period_noun_is_found_as_written() -> None:
    context = "Day pass: $11.50. Single trip: $3.20. 7-day pass: $42.00."
    assert check_grounding("The $11.50 day pass is cheaper than four trips.", [context]).grounded
