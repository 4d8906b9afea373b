"""A range the answer states around a context figure: ``between $22 and $23 million`` for a cell
``22,626`` under ``(in thousands)``.

Each end was traced alone: the ``$23 million`` rounds 22,626 thousand, the ``$22`` (million) is
no figure of the context and was a finding, although the range holds the figure. A range that
bounds one figure (a hyphen or a pair's second word: ``22-23``, ``between 22 and 23``; not
``from 22 to 23``, which may be a change) now traces both ends to a context figure inside it
(rule ``bound``, as ``more than 10,000`` for 10,500), written more precisely than its ends,
where the range is at most :data:`~hybridjudge.grounding._check.RANGE_SHARE` of its upper end
wide. Every grounded case below failed before; the flagged ones were flagged before too.
"""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding

TABLE = "(in thousands) | 2019 | 2018\nRevenue | $22,626 | $19,373\nMargin | 30.79% | 28.1%"
PROSE = "The company has 10,500 employees and 3 plants."


def _ungrounded(answer: str, context: str) -> list[str]:
    report = check_grounding(answer, context)
    return [f.subject for f in report.findings if f.kind == "ungrounded_number"]


@pytest.mark.parametrize(
    ("answer", "context"),
    [
        ("Revenue was between $22 and $23 million.", TABLE),
        ("Revenue was $22-23 million.", TABLE),
        ("Le chiffre d'affaires était entre 22 et 23 millions de dollars.", TABLE),
        ("It has between 10,000 and 12,000 employees.", PROSE),
        ("It has 10,000-11,000 employees.", PROSE),
        ("The margin was between 30% and 31%.", TABLE),
    ],
)
def test_a_range_around_a_context_figure_is_grounded(answer: str, context: str) -> None:
    assert _ungrounded(answer, context) == []


def test_both_ends_are_traced_by_the_rule_bound() -> None:
    report = check_grounding("Revenue was between $22 and $23 million.", TABLE)
    assert {t.quantity.text: t.rule for t in report.quantities} == {
        "$22": "bound",
        "$23 million": "rounded",  # traced alone first
    }


@pytest.mark.parametrize(
    ("answer", "context", "subjects"),
    [
        # too wide to say much
        ("Revenue was between $20 and $30 million.", TABLE, ["$20", "$30 million"]),
        # the figure lies outside it
        ("Revenue was between $23 and $24 million.", TABLE, ["$24 million"]),
        ("It has between 10,000 and 10,400 employees.", PROSE, ["10,000", "10,400"]),
        # another currency
        ("Revenue was between €22 and €23 million.", TABLE, ["€22", "€23 million"]),
        # "from ... to" may be a change from one figure to another
        ("Revenue rose from $22 to $23 million.", TABLE, ["$22"]),
        ("It has between 3 and 4 plants.", PROSE, ["4"]),  # 25% of 4 wide
        # a range of years names its years
        ("In 2018-20, revenue was $22.6 million.", TABLE.replace("2018", "2017"), ["2018", "20"]),
    ],
)
def test_a_range_that_does_not_bound_a_context_figure_is_flagged(
    answer: str, context: str, subjects: list[str]
) -> None:
    assert _ungrounded(answer, context) == subjects
