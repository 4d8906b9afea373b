"""The approximation phrasing of the TAT-QA validity (validity/tatqa_approximations.py): its
rounding, computed by hand (half up, at the significant digits asked)."""

from __future__ import annotations

import pytest

from tests.support.tatqa import load_validity

approximations = load_validity("tatqa_approximations")


@pytest.mark.parametrize(
    ("answer", "word", "digits", "expected"),
    [
        ("$16,458 thousand", "about", 2, "It was about $16,000 thousand."),
        ("-22.22%", "approximately", 3, "It was approximately -22.2%."),
        ("$1,496.5 million", "about", 1, "It was about $1,000 million."),
        ("2,487.08%", "about", 2, "It was about 2,500%."),
        ("0.125", "about", 2, "It was about 0.13."),  # half up, not to even
        # left out: a year, a zero, a figure the rounding leaves as it was, two figures
        ("2019", "about", 2, None),
        ("0", "about", 1, None),
        ("1,500", "about", 2, None),
        ("73,260 thousand and 57,768 thousand", "about", 2, None),
    ],
)
def test_an_answer_is_rounded_half_up_to_its_significant_digits(
    answer: str, word: str, digits: int, expected: str | None
) -> None:
    assert approximations.approximated(answer, word, digits) == expected
