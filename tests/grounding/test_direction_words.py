"""A change's direction stated in words (issue 33: answers as models write them): ``a decrease of
0.1 million`` where the rows the question names rose from 3.3 to 3.4 is the sign flip of ``0.1
million``, whatever other pair of the table happens to differ by 0.1 (``10.5 - 10.4``, two rows
of one year). The figures the question names decide, as they do for a minus sign: when they give
the answer's number in the other direction, the number is a finding. Every case is checked
against the table in pipe rows and as a PDF extractor returns it (a cell per line)."""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding

PIPE = """($ in millions) | 2019 | 2018
Accrued compensation and benefits | $71.2 | $83.3
Deferred revenue | 10.5 | 10.4
Accrued interest expense | 10.4 | 10.4
Accrued pension liabilities | 3.4 | 3.3
Other | 26.5 | 24.4"""
PDF = "\n".join(
    ["($ in millions)", "2019", "2018", "Accrued compensation and benefits", "$71.2", "$83.3",
     "Deferred revenue", "10.5", "10.4", "Accrued interest expense", "10.4", "10.4",
     "Accrued pension liabilities", "3.4", "3.3", "Other", "26.5", "24.4"]
)  # fmt: skip
LAYOUTS = pytest.mark.parametrize("context", [PIPE, PDF], ids=["pipe", "pdf"])
CHANGE = "What was the change in Accrued pension liabilities in 2019 from 2018?"
PERCENT = "What was the percentage change in Accrued pension liabilities in 2019 from 2018?"
INCREASE = "What is the increase / (decrease) in Other from 2018 to 2019?"


def _flagged(answer: str, context: str, question: str) -> bool:
    report = check_grounding(answer, [context], question=question)
    return any(f.kind == "ungrounded_number" for f in report.findings)


@LAYOUTS
@pytest.mark.parametrize(
    ("answer", "question"),
    [
        ("a decrease of 0.1 million", CHANGE),
        ("It decreased by $0.1 million.", CHANGE),
        ("Accrued pension liabilities fell 0.1 million.", CHANGE),
        ("a decline of 3.03%", PERCENT),
        ("a decrease of 2.1 million", INCREASE),
        ("It fell by 8.61%.", "What is the percentage change in Other from 2018 to 2019?"),
    ],
)
def test_the_other_direction_than_the_named_rows_give_is_a_finding(
    answer: str, question: str, context: str
) -> None:
    assert _flagged(answer, context, question)


@LAYOUTS
@pytest.mark.parametrize(
    ("answer", "question"),
    [
        ("an increase of 0.1 million", CHANGE),
        ("It increased by $0.1 million.", CHANGE),
        ("0.1 million", CHANGE),
        ("an increase of 3.03%", PERCENT),
        ("an increase of 2.1 million", INCREASE),
        ("It rose by 8.61%.", "What is the percentage change in Other from 2018 to 2019?"),
    ],
)
def test_the_direction_the_named_rows_give_is_explained(
    answer: str, question: str, context: str
) -> None:
    assert not _flagged(answer, context, question)


@LAYOUTS
def test_a_minus_sign_is_decided_as_before(context: str) -> None:
    assert _flagged("-0.1 million", context, CHANGE)
    assert not _flagged("0.1 million", context, CHANGE)
