"""The total and the mean of a whole table column (``_derive.Figures._column_runs``): an answer
states a column's sum or mean that no cell holds (``379 active minutes`` for a week's seven
cells). Worked out by hand: 48 + 76 + 22 + 65 + 41 + 112 + 15 = 379; 379 / 7 = 54.14...;
6.8 + 4.9 + 3.7 + 3.3 + 2.9 = 21.6; the items of a column above its total row: 86,149 + 42,090
+ 55,769 = 184,008."""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding

WEEK = (
    "Day\tSteps\tActive minutes\tResting HR (bpm)\n"
    "Mon\t9,412\t48\t58\nTue\t12,870\t76\t57\nWed\t6,205\t22\t59\nThu\t11,064\t65\t57\n"
    "Fri\t8,733\t41\t60\nSat\t15,980\t112\t56\nSun\t4,118\t15\t58"
)
HOLDINGS = (
    "Top holdings,Sector,Weight (%)\nMicrosoft,Technology,6.8\nTaiwan Semiconductor,Technology,4.9\n"
    "Schneider Electric,Industrials,3.7\nNovo Nordisk,Health Care,3.3\nXylem,Industrials,2.9"
)
COSTS = (
    "| Item | Cost (£) |\n|---|---|\n| Preliminaries | 86,149 |\n| Overheads and profit | 42,090 |\n"
    "| Contingency | 55,769 |\n| Total | 184,008 |"
)


@pytest.mark.parametrize(
    ("answer", "context", "derivation"),
    [
        (
            "You logged 379 active minutes this week.",
            WEEK,
            "379 = 48 + 76 + 22 + 65 + 41 + 112 + 15",
        ),
        (
            "You averaged 54.1 active minutes a day.",
            WEEK,
            "54.1 = (48 + 76 + 22 + 65 + 41 + 112 + 15) / 7",
        ),
        (
            "Together the holdings make up 21.6% of the fund.",
            HOLDINGS,
            "21.6% = 6.8 + 4.9 + 3.7 + 3.3 + 2.9",
        ),
        # the mean of the items above a total row (the total is no item)
        ("The three items average £61,336.", COSTS, "£61,336 = (86,149 + 42,090 + 55,769) / 3"),
    ],
)
def test_a_columns_total_or_mean_is_derived(answer: str, context: str, derivation: str) -> None:
    report = check_grounding(answer, [context])
    assert report.grounded, report.findings
    (trace,) = (t for t in report.quantities if t.source == "derived")
    assert trace.derivation == derivation
    assert trace.rule in ("sum", "mean")


@pytest.mark.parametrize(
    ("answer", "context"),
    [
        ("You logged 397 active minutes this week.", WEEK),  # digits swapped
        ("Together the holdings make up 26.1% of the fund.", HOLDINGS),
        # two digits: a whole column's total or mean gives one by chance (58 + 57 + ... / 7 is
        # 57.86, and 58 stands in the column anyway; 55 is no figure of it)
        ("Your resting heart rate averaged 55 bpm.", WEEK),
    ],
)
def test_a_figure_no_column_gives_is_flagged(answer: str, context: str) -> None:
    assert not check_grounding(answer, [context]).grounded
