"""A Markdown table's rows without the rule under its header (``| Net sales | 14,694 |``: a
chunk cut below the rule, a converter that writes none) are read as a Markdown table: the
label is the cell after the opening ``|``. Before, the label was the empty text before it, so no
row was named (a named ratio, a row the question names). ``validity/tatqa.py --layout
bordered`` measures the same on TAT-QA (bare arithmetic 86.9% before, 92.1% after, as
``markdown``)."""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding
from hybridjudge.grounding._check import _is_markdown

ROWS = [
    "| | 2023 | 2022 |\n"
    "| Net sales | 14,694 | 14,544 |\n"
    "| Cost of sales | (11,969) | (11,724) |\n"
    "| Gross profit | 2,725 | 2,820 |\n"
    "| Operating income | 1,508 | 1,239 |"
]


@pytest.mark.parametrize(
    ("answer", "traced"),
    [
        ("The gross margin was 18.5% in 2023.", True),  # 2,725 / 14,694 = 18.545%
        ("The gross margin was 19.4% in 2022.", True),  # 2,820 / 14,544 = 19.39%
        ("The gross margin was 10.3% in 2023.", False),  # the operating margin's figure
    ],
)
def test_a_named_ratio_of_bordered_rows(answer: str, traced: bool) -> None:
    report = check_grounding(answer, ROWS, question="What was the gross margin?")
    assert report.grounded is traced
    if traced:
        assert report.quantities[0].rule == "ratio"


def test_what_is_read_as_bordered() -> None:
    assert _is_markdown(ROWS[0])
    assert _is_markdown("| a | 1 |\n|---|---|\n| b | 2 |")  # with its rule
    # pipe rows: a row with an empty first and last cell looks bordered, the others do not
    assert not _is_markdown(" | 2019 | \n | 2018 | \nRevenue | 100 | 90")
    assert not _is_markdown("| a lone bordered line |\nand prose")
    assert not _is_markdown("Revenue | 100 | 90\nCosts | 50 | 40")
