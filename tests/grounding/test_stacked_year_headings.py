"""A year heading covers the rows below it down to the next (issue 33, point 1: each heading with
its scope). Reports stack one table per year in one block (``As of December 31, 2019`` over
one, ``As of December 31, 2018`` over the next, the same columns) or head groups of rows with a
date alone on its row; a column's year was the first one written in it, so every figure of the
second table read as 2019 and a change between the two had no direction: its sign flip passed.
A date in the label of a row of figures (``Non-vested at December 31, 2018 | 1,187,586``) is
that row's and heads nothing below it (the movements of a roll-forward belong to the year it
runs to)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from hybridjudge.grounding import check_grounding

STACKED = """ |  | As of December 31, 2019 |  |
 | Amortized Cost | Unrealized Gains | Unrealized Losses | Fair Value
Foreign government obligations | $129,499 | $— | $3,433 | $126,066
U.S. government obligations | 99,700 | — | 1,981 | 97,719
Total | $229,199 | $— | $5,414 | $223,785
 |  | As of December 31, 2018 |  |
 | Amortized Cost | Unrealized Gains | Unrealized Losses | Fair Value
Foreign government obligations | $73,798 | $14,234 | $235 | $87,797
U.S. government obligations | 97,223 | 416 | 6,436 | 91,203
Total | $171,021 | $14,650 | $6,671 | $179,000"""
GROUPS = """ | Accounts Receivable, Gross | Allowance for Losses | Accounts Receivable, Net
December 31, 2019 |  |  |
Transaction related | $12,863 | $(238) | $12,625
Servicing related | 6,868 | — | 6,868
Total | $19,731 | $(238) | $19,493
December 31, 2018 |  |  |
Transaction related | $14,704 | $(168) | $14,536
Servicing related | 864 | — | 864
Total | $15,568 | $(168) | $15,400"""
ROLL_FORWARD = """Non-vested awards | Shares | Weighted-Average Grant Date Fair Value
Non-vested at December 31, 2018 | 1,187,586 | $41.12
Granted | 473,550 | $53.53
Vested | (365,223) | $41.83
Forfeited | (12,632) | $50.49
Non-vested at December 31, 2019 | 1,283,281 | $45.40"""

STACKED_Q = "What was the change in the total fair value from 2018 to 2019?"
STACKED_PCT = "What was the percentage change in the total amortized cost from 2018 to 2019?"
GROUPS_Q = "What was the change in the total gross accounts receivable between 2018 and 2019?"


def _markdown(table: str) -> str:
    """``table`` as a Markdown table: each row between pipes, a separator under the first."""
    rows = [f"| {line.strip()} |" for line in table.splitlines()]
    width = rows[0].count("|") - 1
    return "\n".join([rows[0], "|" + "---|" * width, *rows[1:]])


LAYOUTS = pytest.mark.parametrize("layout", [str, _markdown], ids=["pipe", "markdown"])


def _flagged(answer: str, context: str, question: str) -> bool:
    report = check_grounding(answer, [context], question=question)
    return any(f.kind == "ungrounded_number" for f in report.findings)


@LAYOUTS
@pytest.mark.parametrize(
    ("answer", "context", "question"),
    [
        ("$44,785", STACKED, STACKED_Q),  # 223,785 - 179,000
        ("34.02%", STACKED, STACKED_PCT),  # (229,199 - 171,021) / 171,021
        ("$4,163", GROUPS, GROUPS_Q),  # 19,731 - 15,568
        ("an increase of $4,163", GROUPS, GROUPS_Q),
    ],
)
def test_a_change_between_stacked_tables_runs_from_the_older_heading(
    answer: str, context: str, question: str, layout: Callable[[str], str]
) -> None:
    assert not _flagged(answer, layout(context), question)


@LAYOUTS
@pytest.mark.parametrize(
    ("answer", "context", "question"),
    [
        ("-$44,785", STACKED, STACKED_Q),
        ("-34.02%", STACKED, STACKED_PCT),
        ("-$4,163", GROUPS, GROUPS_Q),
        ("a decrease of $4,163", GROUPS, GROUPS_Q),
    ],
)
def test_its_sign_flip_is_a_finding(
    answer: str, context: str, question: str, layout: Callable[[str], str]
) -> None:
    assert _flagged(answer, layout(context), question)


@LAYOUTS
def test_a_date_in_a_row_label_heads_no_rows_below_it(layout: Callable[[str], str]) -> None:
    # the shares granted in 2019 stand below "Non-vested at December 31, 2018": not of 2018
    question = (
        "What is the percentage of non-vested shares granted in 2019 as a percentage of the "
        "total non-vested shares at December 31, 2019?"
    )
    assert not _flagged("36.9%", layout(ROLL_FORWARD), question)  # 473,550 / 1,283,281
