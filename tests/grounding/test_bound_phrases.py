"""A bound's direction is its longest phrase: "no more than" is an upper bound, though it ends with
"more than" (hand-read: a figure just under an upper bound matches it, one just over does not)."""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding


@pytest.mark.parametrize(
    ("answer", "context", "grounded"),
    [
        ("It costs no more than $50.", "It costs $48.", True),
        ("It costs no more than $50.", "It costs $52.", False),
        ("It costs not more than $50.", "It costs $52.", False),
        ("It lasts no less than 10 days.", "It lasts 10.5 days.", True),
        ("It lasts no less than 10 days.", "It lasts 9.5 days.", False),
        ("Orders of more than 10,000 units.", "Orders of 10,400 units.", True),
        ("Orders of less than 10,000 units.", "Orders of 10,400 units.", False),
    ],
)
def test_the_longest_bound_phrase_decides_the_direction(
    answer: str, context: str, grounded: bool
) -> None:
    assert check_grounding(answer, context).grounded is grounded
