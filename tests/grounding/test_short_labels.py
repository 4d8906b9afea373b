"""Rows named by a short word: a question's ``UK`` or ``U.S.`` names the row labelled so.

A row label's words were its runs of three letters or more, so a row labelled ``UK``, ``US``,
``EU`` or ``U.S.`` (a segment table's regions) had no word a question could name: ``What share
of total revenue came from the U.S. in 2022?`` pointed at the total row alone, and the right
share of the U.S. row was flagged. A short word now counts where the question and the label both
hold it (a question's in capitals or with stops only: ``us`` and ``it`` are pronouns too). The
figures were worked out by hand.
"""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding
from hybridjudge.grounding._derive import _short_words


def _table(label: str) -> str:
    return (
        "(in millions)\n| | 2022 | 2021 |\n"
        f"| {label} | 5,000 | 4,000 |\n| International | 3,000 | 2,500 |\n| Total | 8,000 | 6,500 |"
    )


@pytest.mark.parametrize("label", ["U.S.", "US", "U.S"])
@pytest.mark.parametrize("named", ["the U.S.", "the US", "U.S."])
def test_a_share_of_the_row_a_short_word_names(label: str, named: str) -> None:
    # 5,000 / 8,000 = 62.5%: the question names the U.S. row and the total row
    report = check_grounding(
        "62.5%", _table(label), question=f"What share of total revenue came from {named} in 2022?"
    )
    assert report.grounded, report.findings
    assert report.quantities[0].derivation == "62.5% = 5,000 / 8,000"


@pytest.mark.parametrize(("label", "named"), [("UK", "UK"), ("EU", "the EU"), ("U.K.", "UK")])
def test_a_change_of_the_row_a_short_word_names(label: str, named: str) -> None:
    # 5,000 - 4,000 = 1,000 (the total's change is 1,500, International's 500)
    question = f"What was the change in revenue from {named} from 2021 to 2022?"
    report = check_grounding("$1,000 million", _table(label), question=question)
    assert report.grounded, report.findings


def test_a_wrong_share_stays_flagged() -> None:
    report = check_grounding(
        "60.5%", _table("US"), question="What share of total revenue came from the US in 2022?"
    )
    assert not report.grounded


@pytest.mark.parametrize(
    ("text", "label", "expected"),
    [
        ("What was UK revenue in 2022?", False, {"uk"}),
        ("What was U.S. revenue in 2022?", False, {"us"}),
        ("What was u.s. revenue in 2022?", False, {"us"}),  # stops make it an acronym
        ("Tell us the revenue of it in 2022.", False, set()),  # pronouns, not rows
        ("WHAT WAS US REVENUE IN 2022?", False, set()),  # all capitals: no acronym told apart
        ("us", True, {"us"}),  # a label is read lower-cased: every short word of it
        ("u.s. operations", True, {"us"}),
        ("cost of sales", True, {"of"}),
        ("e.u.", True, {"eu"}),
    ],
)
def test_short_words(text: str, label: bool, expected: set[str]) -> None:
    assert _short_words(text, label=label) == frozenset(expected)
