"""A fraction written in digits (``2/3``, ``1 1/2``) is as precise as two decimals: a
derivation must give it to within half a hundredth (hand computed). It was read as a numeral
without decimals, so any ratio within 0.5 of it explained it (``2/3`` by 200 / 450 = 0.44)."""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding, parse_quantities


@pytest.mark.parametrize(
    ("answer", "context"),
    [
        ("The ratio is 2/3.", "Revenue was 200 and cost 450."),  # 0.444, not 0.667
        ("About 1/4 of staff left.", "Of 200 staff, 70 left."),  # 0.35, not 0.25
        ("The ratio is 3/4.", "Sales were 300 and costs 500."),  # 0.6, not 0.75
    ],
)
def test_a_far_ratio_no_longer_explains_a_fraction(answer: str, context: str) -> None:
    report = check_grounding(answer, [context])
    assert [f.kind for f in report.findings] == ["ungrounded_number"]


@pytest.mark.parametrize(
    ("answer", "context", "rule"),
    [
        ("The ratio is 2/3.", "Revenue was 200 and cost 300.", "ratio"),  # 0.6667 exactly
        ("About 1/4 of staff left.", "Of 200 staff, 50 left.", "ratio"),
        ("It takes 1 1/2 hours.", "It takes 90 minutes.", "rescaled"),
        ("Dose: 1/2 tablet", "Take 0.5 tablet.", "as_written"),
    ],
)
def test_the_fraction_itself_is_still_explained(answer: str, context: str, rule: str) -> None:
    report = check_grounding(answer, [context])
    assert report.grounded
    assert [t.rule for t in report.quantities] == [rule]


def test_a_fiscal_year_is_no_fraction() -> None:
    (q,) = parse_quantities("In fiscal 2018/19 revenue rose.")
    assert q.value == 2019


@pytest.mark.parametrize(
    ("answer", "grounded"),
    [
        # a context's 2/3 is exact: 0.67 and 0.667 round it (0.6667 by hand), 0.6 and 0.68 do not
        ("The ratio is 0.67.", True),
        ("The ratio is 0.667.", True),
        ("The ratio is 0.6.", False),
        ("The ratio is 0.68.", False),
    ],
)
def test_a_decimal_rounds_a_fraction_of_the_context(answer: str, grounded: bool) -> None:
    report = check_grounding(answer, ["The ratio was 2/3 in 2023."])
    assert report.grounded is grounded
    if grounded:
        assert [t.rule for t in report.quantities] == ["rounded"]
