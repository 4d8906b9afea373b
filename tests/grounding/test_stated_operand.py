"""An answer that states one of the figures a question averages instead of their average.

Golden values by hand from the tables below (TAT-QA dev doc 59's layout, figures as its
Maintenance row; the real model answer "was $239,310,000" for its question is one of the
embedded model's, ``validity/data/tatqa_model_answers.jsonl``).
"""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding

REVENUE = (
    "(Dollars in thousands) | 2019 | 2018 | Change\n"
    "Software license | $275,792 | $282,950 | $(7,158)\n"
    "Maintenance | 254,924 | 239,310 | 15,614\n"
    "Cloud | 67,918 | 45,218 | 22,700"
)
ASKS_MEAN = "What is the company's average revenue from maintenance between 2018 and 2019?"


@pytest.mark.parametrize(
    "answer",
    [
        "The average revenue from maintenance between 2018 and 2019 was $239,310,000.",
        "The average revenue from maintenance between 2018 and 2019 was $254,924 thousand.",
        "$239,310",
    ],
)
def test_an_operand_stated_as_the_average_is_a_finding(answer: str) -> None:
    # (254,924 + 239,310) / 2 = 247,117 (hand): 2018's or 2019's figure alone is no average
    report = check_grounding(answer, [REVENUE], question=ASKS_MEAN)
    assert [f.kind for f in report.findings] == ["ungrounded_number"]
    assert "the average" in report.findings[0].message
    assert "operand" in report.findings[0].message


@pytest.mark.parametrize(
    "answer",
    [
        # the average itself, in thousands and in full digits
        "The average revenue from maintenance between 2018 and 2019 was $247,117 thousand.",
        "It was $247,117,000.",
        # working that shows the operands on its way to the result
        "(254,924 + 239,310) / 2 = 247,117 thousand",
        "In 2019 it was $254,924 thousand and in 2018 $239,310 thousand, so the average is "
        "$247,117 thousand.",
    ],
)
def test_the_average_and_its_working_are_grounded(answer: str) -> None:
    assert check_grounding(answer, [REVENUE], question=ASKS_MEAN).grounded


def test_a_question_naming_one_year_asks_for_a_figure_the_table_states() -> None:
    # "the average exchange rate in FY 2019": the table's own figure (TAT-QA dev doc 90)
    rates = "Currency | FY 2019 | FY 2018\nUSD | 70.07 | 64.49\nEUR | 80.82 | 76.16"
    question = "What was the average USD-INR exchange rate in FY 2019?"
    assert check_grounding("It was 70.07.", [rates], question=question).grounded


def test_a_row_that_states_an_average_is_no_operand() -> None:
    prices = "Per share | 2019 | 2018\nAverage price | $10.50 | $12.25\nHigh | $14.00 | $15.10"
    question = "What was the average price in 2018 and 2019?"
    assert check_grounding("It was $10.50 in 2019.", [prices], question=question).grounded


def test_without_a_question_or_an_average_asked_nothing_changes() -> None:
    assert check_grounding("It was $239,310 thousand.", [REVENUE]).grounded
    question = "What was the revenue from maintenance in 2018?"
    assert check_grounding("It was $239,310 thousand.", [REVENUE], question=question).grounded
