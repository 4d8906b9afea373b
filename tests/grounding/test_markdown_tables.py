"""Markdown tables (``| Products | 16,525 |`` under a ``|---|`` rule), as document converters
write them, read like ``|`` tables: the cell after a row's leading ``|`` is its label.

Expected values are computed by hand in the comments; each case is also checked against the same
table written without the outer pipes (the form the checks read natively), which must agree.
"""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding

PIPES = (
    "Revenue by segment (in millions)\n"
    "Segment | 2019 | 2018\nProducts | $16,525 | $14,020\nServices | 3,676.2 | 460.8\n"
    "Gross margin (%) | 41.5 | 40.2"
)
MARKDOWN = (
    "Revenue by segment (in millions)\n\n"
    "| Segment | 2019 | 2018 |\n|:---|---:|---:|\n| Products | $16,525 | $14,020 |\n"
    "| Services | 3,676.2 | 460.8 |\n| Gross margin (%) | 41.5 | 40.2 |"
)

CASES = [
    # the question names the row and the years: 16,525 - 14,020 = 2,505
    ("The change was 2,505.", "What was the change in Products from 2018 to 2019?", True),
    # (16,525 + 14,020) / 2 = 15,272.5
    ("The average was 15,272.5.", "What was the average Products revenue in 2018 and 2019?", True),
    # 3,676.2 - 460.8 = 3,215.4 (million, the caption's scale)
    ("Services grew by $3,215.4 million.", None, True),
    # the label "Gross margin (%)" makes its row percentages: 41.5% - 40.2% = 1.3 points
    ("The gross margin was 41.5%.", None, True),
    ("The gross margin rose by 1.3 percentage points.", None, True),
    # 2,605 is no difference of the Products row (2,505)
    ("The change was 2,605.", "What was the change in Products from 2018 to 2019?", False),
]


@pytest.mark.parametrize(("answer", "question", "grounded"), CASES)
def test_a_markdown_table_reads_like_a_pipe_table(
    answer: str, question: str | None, grounded: bool
) -> None:
    md = check_grounding(answer, MARKDOWN, question=question)
    pipes = check_grounding(answer, PIPES, question=question)
    assert md.grounded is grounded, md.findings
    assert md.kinds == pipes.kinds
    assert [t.derivation for t in md.quantities] == [t.derivation for t in pipes.quantities]


def test_a_row_that_opens_with_a_pipe_outside_markdown_keeps_its_empty_label() -> None:
    # no "|---|" rule: " | 2019 | 2018" is a header whose first cell is empty (TAT-QA writes
    # tables so), and its years head the columns of the rows below: 105 - 100 = 5 is 2019 minus
    # 2018, so a fall of 5 is the reversed difference
    table = " | 2019 | 2018\nSales | 105 | 100"
    assert check_grounding("Sales rose by 5.", table).grounded
    assert check_grounding("Sales changed by -5.", table).kinds == {"ungrounded_number"}
