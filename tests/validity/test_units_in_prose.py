"""The units-in-prose validity benchmark (validity/units_in_prose.py): construction and targets.

Golden sources: HaluEval's knowledge passages (Wikipedia text, MIT) read by hand for the cases
quoted below; the thresholds are the validity README's (right answers grounded >= 98%, wrong
ones flagged >= 95%).
"""

from __future__ import annotations

from typing import Any

import pytest

from hybridjudge.grounding import check_grounding
from tests.support.tatqa import load_validity

units = load_validity("units_in_prose")


@pytest.fixture(scope="module")
def items() -> list[Any]:
    return list(units.build(units.load_passages()))


def test_the_shipped_data_is_halueval_qa() -> None:
    # HaluEval's generation/qa/qa_one-turn_data.json as shared: 500 records, 500 passages.
    assert len(units.load_passages()) == 500


def test_construction_by_hand(items: list[Any]) -> None:
    # The passage on "Just the Two of Us": "staying there for 3 weeks" is a figure as written;
    # "(9 to 5)", "No. 1" and "Hot 100" hold counts, but "spent nine weeks at No. 1" states 9
    # with a unit (in words), so "9 weeks" is no wrong answer; "1981" and "1974" are years.
    of_song = [(i.answer, i.right) for i in items if "Just the Two of Us" in i.passage]
    assert of_song == [
        ("It is 3 weeks.", True),
        ("It is 5 weeks.", False),
        ("It is 1 weeks.", False),
        ("It is 100 weeks.", False),
    ]


def test_targets(items: list[Any]) -> None:
    right = [i for i in items if i.right]
    wrong = [i for i in items if not i.right]
    # the construction yields enough of each
    assert len(right) >= 30
    assert len(wrong) >= 20
    grounded = sum(check_grounding(i.answer, [i.passage]).grounded for i in right)
    flagged = sum(not check_grounding(i.answer, [i.passage]).grounded for i in wrong)
    assert grounded / len(right) >= units.TARGET_RIGHT
    assert flagged / len(wrong) >= units.TARGET_WRONG


def test_counts_of_a_noun_by_hand_and_their_rates() -> None:
    # The passage on Children's National Medical Center: "926 beds" and "the top 10 children's
    # hospitals": each count as written is right, each swapped with the other's number wrong.
    counts = list(units.build_counts(units.load_passages()))
    of_hospital = [(i.answer, i.right) for i in counts if "926 beds" in i.passage]
    assert ("It has 926 children.", False) in of_hospital
    assert ("It has 10 beds.", False) in of_hospital
    assert ("It has 10 children.", True) in of_hospital
    right = [i for i in counts if i.right]
    swapped = [i for i in counts if not i.right]
    assert len(right) >= 30
    assert len(swapped) >= 8
    grounded = sum(check_grounding(i.answer, [i.passage]).grounded for i in right)
    assert grounded / len(right) >= units.TARGET_RIGHT
    # at ea63376 none was flagged: the number stands in the passage, counting another noun
    flagged = sum(not check_grounding(i.answer, [i.passage]).grounded for i in swapped)
    assert flagged / len(swapped) >= 0.9
