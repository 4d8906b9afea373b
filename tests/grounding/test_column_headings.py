"""What a column's heading says of its cells: ``(%)`` makes them percentages, a fiscal year
(``FY 2023``) their year, as a ``%`` cell and a year cell do. Values hand computed."""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding

GROWTH = (
    "Revenue growth | FY 2023 (%) | FY 2022 (%)\n"
    "Volume | 11.4 | 6.7\n"
    "Exchange rates | 7.6 | (2.3)\n"
    "Total | 19.0 | 4.4"
)
CHANGE = "What is the change in exchange rates from FY 2022 to FY 2023?"


@pytest.mark.parametrize(
    ("answer", "question", "grounded"),
    [
        ("Volume added 4.7% more.", None, True),  # 11.4 - 6.7, cells of "(%)" columns
        ("It changed by 9.9%.", CHANGE, True),  # 7.6 - (-2.3): FY 2022 to FY 2023
        ("It changed by -9.9%.", CHANGE, False),  # the other way: FY 2023 to FY 2022
        ("It changed by 5.3%.", CHANGE, False),  # 7.6 - 2.3: the bracket is a minus
    ],
)
def test_percent_and_fiscal_year_headings(
    answer: str, question: str | None, grounded: bool
) -> None:
    assert check_grounding(answer, [GROWTH], question=question).grounded is grounded


def test_a_fiscal_year_heading_gives_a_change_its_direction() -> None:
    # the oldest year first: without the headings' years, a change would run right to left
    table = "Segment | FY 2022 | FY 2023\nRevenue | 1,100 | 1,250\nCosts | 790 | 830"
    question = "What was the change in revenue from FY 2022 to FY 2023?"
    assert check_grounding("It rose by 150.", [table], question=question).grounded
    assert not check_grounding("It changed by -150.", [table], question=question).grounded
