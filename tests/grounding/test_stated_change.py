"""A change the answer adds in words to the figure a question asks for: ``What was revenue in
2019?`` answered ``$1,496.5 million, up 21.3% from 2018``.

A question that names a table's row and no operation asks for a figure the table states, so no
derivation explained another figure of the answer: the ``21.3%`` was a finding although it is
the row's own change between its two years. Now a number the answer states as a change (a change
word before or after it, or a plus sign written on it: ``(+21.3% YoY)``) is traced as the change
of a row the question names between two of its cells, the newer minus the older or its percent
change, in the direction the words state; never two rows combined, never another row's change.
The same holds for a ratio the answer names (``$262.4 million, an operating margin of 17.5%``:
the lexicons' ``named_ratios``), as where the question names it: the two rows it divides, in a
column the question points at (not 2018's margin for a question on 2019).

Each case is checked on the table as pipe rows and as PDF text (a cell per line, ``$`` on its
own line). Every grounded case below failed before; every flagged one was flagged before too.
"""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding

PIPE = (
    "Consolidated results (in millions)\n"
    "| | 2019 | 2018 |\n"
    "| Revenue | $1,496.5 | $1,234.0 |\n"
    "| Operating income | 262.4 | 240.1 |\n"
    "| Gross margin | 41.3% | 40.8% |"
)
PDF = (
    "Consolidated results\n(in millions)\n2019\n2018\n"
    "Revenue\n$\n1,496.5 \n$\n1,234.0 \n"
    "Operating income\n262.4 \n240.1 \n"
    "Gross margin\n41.3 %\n40.8 %"
)
LAYOUTS = pytest.mark.parametrize("context", [PIPE, PDF], ids=["pipe", "pdf"])
QUESTION = "What was revenue in 2019?"


def _flagged(answer: str, context: str, question: str = QUESTION) -> list[str]:
    report = check_grounding(answer, context, question=question, answerable=None)
    return [f.subject for f in report.findings if f.kind == "ungrounded_number"]


@LAYOUTS
@pytest.mark.parametrize(
    "answer",
    [
        "Revenue was $1,496.5 million, up 21.3% from 2018.",
        "Revenue was $1,496.5 million, a 21% increase.",
        "Revenue was $1,496.5 million; it grew 21.27% year over year.",
        "Revenue was $1,496.5 million, an increase of $262.5 million.",
        "Revenue: $1,496.5M (+21.3% YoY)",
    ],
)
def test_the_named_rows_change_stated_in_words_is_traced(answer: str, context: str) -> None:
    assert _flagged(answer, context) == []


@LAYOUTS
def test_the_change_is_traced_by_its_rule(context: str) -> None:
    report = check_grounding(
        "Revenue was $1,496.5 million, up 21.3% from 2018.", context, question=QUESTION
    )
    rules = {t.quantity.text: t.rule for t in report.quantities}
    assert rules["21.3%"] == "percent_change"


@LAYOUTS
@pytest.mark.parametrize(
    ("answer", "subject"),
    [
        # the other direction
        ("Revenue was $1,496.5 million, down 21.3%.", "21.3%"),
        ("Revenue was $1,496.5 million, a decrease of $262.5 million.", "$262.5 million"),
        # no change of the row: stated as a level, or no direction stated
        ("Revenue was $1,496.5 million and 21.3%.", "21.3%"),
        ("Revenue was $1,496.5 million, up 25%.", "25%"),
        # another row's change: the question names revenue only
        ("Revenue was $1,496.5 million; operating income rose 9.3%.", "9.3%"),
        (
            "Revenue was $1,496.5 million; gross margin rose 0.5 percentage points.",
            "0.5 percentage points",
        ),
        # two rows combined: operating income's share of revenue is no change
        ("Revenue was $1,496.5 million, up 17.5%.", "17.5%"),
    ],
)
def test_what_is_no_change_of_the_named_row_stays_flagged(
    answer: str, subject: str, context: str
) -> None:
    assert _flagged(answer, context) == [subject]


def test_a_plus_between_figures_is_an_operator_not_a_stated_rise() -> None:
    # "1,234.0 +262.5": an addition shown; the sum is checked as working, the + states no change
    from hybridjudge.grounding._derive import stated_trend

    text = "1,234.0 +262.5 = 1,496.5 and (+21.3%)"
    assert stated_trend(text, text.index("+262.5"), text.index(" = ")) == 0
    assert stated_trend(text, text.index("+21.3"), text.index("%)") + 1) == 1


OPERATING = "What was operating income in 2019?"


@LAYOUTS
@pytest.mark.parametrize(
    "answer",
    [
        "Operating income was $262.4 million, an operating margin of 17.5%.",
        "Operating income was $262.4 million; operating margin 17.53%.",
        "Operating income was $262.4 million. Revenue grew, and the operating margin reached 17.5%.",
    ],
)
def test_a_ratio_the_answer_names_is_traced(answer: str, context: str) -> None:
    assert _flagged(answer, context, OPERATING) == []
    report = check_grounding(answer, context, question=OPERATING)
    assert {t.rule for t in report.quantities if t.quantity.text.startswith("17.5")} == {"ratio"}


@LAYOUTS
@pytest.mark.parametrize(
    ("answer", "subject"),
    [
        # 2018's operating margin (240.1 / 1,234.0), for a question on 2019
        ("Operating income was $262.4 million, an operating margin of 19.5%.", "19.5%"),
        # another ratio's name, another precision, no name
        ("Operating income was $262.4 million, a gross margin of 17.5%.", "17.5%"),
        ("Operating income was $262.4 million, an operating margin of 17.6%.", "17.6%"),
        ("Operating income was $262.4 million, and 17.5%.", "17.5%"),
    ],
)
def test_a_ratio_named_otherwise_stays_flagged(answer: str, subject: str, context: str) -> None:
    assert _flagged(answer, context, OPERATING) == [subject]


GERMAN = (
    "Konzern (in Mio. €)\n| | 2019 | 2018 |\n| Umsatzerlöse | 1.496,5 | 1.234,0 |\n"
    "| Betriebsergebnis | 262,4 | 240,1 |"
)


def test_a_ratio_named_in_another_language_is_traced() -> None:
    question = "Wie hoch war das Betriebsergebnis 2019?"
    right = "Das Betriebsergebnis betrug 262,4 Mio. €, eine EBIT-Marge von 17,5 %."
    wrong = "Das Betriebsergebnis betrug 262,4 Mio. €, eine EBIT-Marge von 19,5 %."
    assert _flagged(right, GERMAN, question) == []
    assert _flagged(wrong, GERMAN, question) == ["19,5 %"]


@LAYOUTS
@pytest.mark.parametrize(
    "answer",
    [
        "Operating income was $262.4 million, or 17.5% of revenue.",
        "Operating income was 262.4, 17.5% of total revenue in 2019.",
        "Operating income was $262.4 million (17.53% of revenue).",
    ],
)
def test_a_share_of_the_row_the_answer_names_is_traced(answer: str, context: str) -> None:
    assert _flagged(answer, context, OPERATING) == []


@LAYOUTS
@pytest.mark.parametrize(
    ("answer", "subject"),
    [
        # 2018's share (240.1 / 1,234.0), another row, no figure of which it is a share
        ("Operating income was $262.4 million, or 19.5% of revenue.", "19.5%"),
        ("Operating income was $262.4 million, or 17.5% of gross margin.", "17.5%"),
        ("It was 17.5% of revenue.", "17.5%"),
        # the share of a figure the answer does not state
        ("Operating income was $250 million, or 17.5% of revenue.", "$250 million"),
    ],
)
def test_a_share_otherwise_stays_flagged(answer: str, subject: str, context: str) -> None:
    assert subject in _flagged(answer, context, OPERATING)


def test_a_share_in_another_language_is_traced() -> None:
    context = (
        "(en millions d'euros)\n| | 2019 | 2018 |\n| Chiffre d'affaires | 1 496,5 | 1 234,0 |\n"
        "| Résultat opérationnel | 262,4 | 240,1 |"
    )
    question = "Quel était le résultat opérationnel en 2019 ?"
    right = "Le résultat opérationnel était de 262,4 millions d'euros, soit 17,5 % du chiffre d'affaires."
    assert _flagged(right, context, question) == []
    assert _flagged(right.replace("17,5", "19,5"), context, question) == ["19,5 %"]


@LAYOUTS
@pytest.mark.parametrize(
    "answer",
    [
        "Revenue was $1,496.5 million in 2019; the average over 2018 and 2019 was $1,365.25 "
        "million.",
        "Revenue was $1,496.5 million in 2019, averaging $1,365.3 million over the two years.",
    ],
)
def test_an_average_the_answer_states_is_traced(answer: str, context: str) -> None:
    assert _flagged(answer, context) == []
    report = check_grounding(answer, context, question=QUESTION)
    assert "mean" in {t.rule for t in report.quantities}


@LAYOUTS
@pytest.mark.parametrize(
    ("answer", "subject"),
    [
        (
            "Revenue was $1,496.5 million; the average over 2018 and 2019 was $1,400 million.",
            "$1,400 million",
        ),
        # another row's mean: the question names revenue
        (
            "Revenue was $1,496.5 million; operating income averaged $251.3 million.",
            "$251.3 million",
        ),
        # no average stated: a mean is no figure asked for
        ("Revenue was $1,496.5 million, and $1,365.3 million.", "$1,365.3 million"),
    ],
)
def test_another_average_stays_flagged(answer: str, subject: str, context: str) -> None:
    assert _flagged(answer, context) == [subject]
