"""The stated-change construction of the TAT-QA validity (validity/tatqa_stated_changes.py): its
question rewrite and answer sentence, worked out by hand from TAT-QA's own questions and
derivations, and the rates on the whole dev split against issue 9's targets (arithmetic answers
with no finding >= 90%, perturbed answers flagged >= 95%)."""

from __future__ import annotations

import pytest

from tests.support.tatqa import load_validity

changes = load_validity("tatqa_stated_changes")


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        (
            "What was the percentage change in Total operating income in 2019 from 2018?",
            ("What was Total operating income in 2019?", 2019, 2018),
        ),
        (
            "What is the year on year percentage change in domestic discount rate between 2018 "
            "and 2019?",
            ("What was domestic discount rate in 2019?", 2019, 2018),
        ),
        (
            "What was the change in net debt from 2018 to 2019?",
            ("What was net debt in 2019?", 2019, 2018),
        ),
        # no change between two years: left out
        ("What was the change in closing cash?", None),
        ("What was the difference in net profit between both FYs?", None),
    ],
)
def test_a_change_question_becomes_the_lookup_of_its_newer_year(
    question: str, expected: tuple[str, int, int] | None
) -> None:
    assert changes.lookup_question(question) == expected


@pytest.mark.parametrize(
    ("derivation", "expected"),
    [
        ("(302-148)/148", ("percent change", "302")),
        ("($166.3-$513.3)/$513.3", ("percent change", "$166.3")),
        ("$788,948-$718,892", ("difference", "$788,948")),
        ("-9,819 - 6,639 ", ("difference", "-9,819")),
        ("((85,123 - 79,046) + (63,954 - 62,575)) / 2 ", None),  # another operation
        ("(302-148)/150", None),  # the base is not the older operand
    ],
)
def test_the_derivation_gives_its_kind_and_newer_operand(
    derivation: str, expected: tuple[str, str] | None
) -> None:
    assert changes.newer_operand(derivation) == expected


def test_the_answer_states_the_figure_then_the_change_by_its_sign() -> None:
    up = changes.stated_change("104.05%", "302", 2019, 2018)
    down = changes.stated_change("-56.5 million", "828.8", 2019, 2018)
    assert up == "It was 302 in 2019, up 104.05% from 2018."
    assert down == "It was 828.8 million in 2019, down 56.5 million from 2018."


@pytest.fixture(scope="module")
def counts() -> dict[tuple[str, str], list[int]]:
    measured, _ = changes.measure("pipe")
    return dict(measured)


@pytest.mark.parametrize("kind", ["difference", "percent change"])
def test_stated_changes_meet_the_arithmetic_targets(
    counts: dict[tuple[str, str], list[int]], kind: str
) -> None:
    # measured 6 December 2026: gold 92.8% (differences) and 93.4% (percent changes), 9.9% and
    # 3.3% before a change stated in words was traced for a lookup question
    n, right, _ = counts[(kind, "gold")]
    assert n > 100
    assert right / n >= 0.90
    for variant in ("digit", "x10", "sign"):
        n, right, _ = counts[(kind, variant)]
        assert n > 100
        assert right / n >= 0.95, variant


@pytest.mark.parametrize(
    ("question", "derivation", "expected"),
    [
        (
            "What is the average net income for 2018 and 2019?",
            "(106.4 + 70.5) / 2",
            ("What was net income in 2019?", 2019, 2018),
        ),
        (
            "What is the company's average current state tax expense between 2018 and 2019?",
            "(428,501 + 423,209 )/2",
            ("What was current state tax expense in 2019?", 2019, 2018),
        ),
        ("What is the 2019 average free cash flow?", "(4,411+4,044)/2", None),  # one year
        ("What is the average net income for 2018 and 2019?", "(1 + 2 + 3) / 3", None),
    ],
)
def test_a_mean_question_becomes_the_lookup_of_its_newer_year(
    question: str, derivation: str, expected: tuple[str, int, int] | None
) -> None:
    assert changes.mean_question(question, derivation) == expected
    if expected is not None:
        assert changes.stated_mean("88.45", 2019, 2018) == (
            "In 2019, the average over 2018 and 2019 was 88.45."
        )


def test_stated_means_meet_the_arithmetic_targets(
    counts: dict[tuple[str, str], list[int]],
) -> None:
    # measured 6 December 2026: gold 92.5% of 53 (1.9% before an average the answer states was
    # traced); digit and x10 100%, sign 96.2% flagged
    n, right, _ = counts[("mean", "gold")]
    assert n >= 50
    assert right / n >= 0.90
    for variant in ("digit", "x10", "sign"):
        n, right, _ = counts[("mean", variant)]
        assert right / n >= 0.95, variant
