"""The named-ratio construction of the TAT-QA validity (validity/tatqa_stated_ratios.py): its
reading of cells and headings and its answer sentence, worked out by hand from TAT-QA's tables,
and the gold rate on the whole dev split against issue 9's arithmetic target (>= 90% with no
finding)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.support.tatqa import load_validity

ratios = load_validity("tatqa_stated_ratios")


@pytest.mark.parametrize(
    ("cell", "expected"),
    [
        ("$ 22,149", Decimal(22149)),
        ("(3,709 )", Decimal(-3709)),
        ("$   125,843", Decimal(125843)),
        ("7.8", Decimal("7.8")),
        ("57%", None),
        ("n/a", None),
        ("", None),
    ],
)
def test_a_cell_is_read_as_its_figure(cell: str, expected: Decimal | None) -> None:
    assert ratios.cell_value(cell) == expected


def test_the_columns_take_the_years_of_the_first_rows() -> None:
    table = [["", "Fiscal", ""], ["", "2019", "2018"], ["Revenue", "5", "4"]]
    assert ratios.column_years(table) == {1: 2019, 2: 2018}


def test_the_ratio_rows_are_found_by_the_lexicons_labels() -> None:
    table = [["", "2019"], ["Gross profit:", "40"], ["Net sales", "100"], ["Other", "1"]]
    found = [(name, top[0], bottom[0]) for name, top, bottom in ratios.ratio_rows(table)]
    assert found == [("gross margin", "Gross profit:", "Net sales")]


def test_the_answer_states_the_cell_then_the_named_ratio() -> None:
    assert (
        ratios.stated_ratio("$ 22,149", 2019, "operating margin", Decimal("23.6"))
        == "It was $22,149 in 2019, an operating margin of 23.6%."
    )


def test_a_share_of_the_total_row_below_is_stated_for_each_row_above() -> None:
    table = [
        ["", "2019", "2018"],
        ["Audit fees", "55,000", "50,000"],
        ["Tax fees", "11,000", "10,000"],
        ["Total fees", "66,000", "60,000"],
    ]
    built = ratios.share_cases([{"table": {"table": table}}])
    answers = {(q, v): a for _, v, q, a, _ in built}
    assert answers[("What was Audit fees in 2019?", "gold")] == (
        "It was 55,000 in 2019, 83.3% of total fees."
    )
    assert answers[("What was Audit fees in 2019?", "digit")].endswith(" 84.3% of total fees.")
    assert answers[("What was Audit fees in 2019?", "row")].endswith(" 16.7% of total fees.")
    assert answers[("What was Tax fees in 2018?", "gold")].endswith(" 16.7% of total fees.")
    assert ("What was Audit fees in 2018?", "year") not in answers  # 83.3% both years


@pytest.fixture(scope="module")
def counts() -> dict[tuple[str, str], list[int]]:
    measured, _ = ratios.measure("pipe")
    return dict(measured)


def test_named_ratios_meet_the_arithmetic_target(counts: dict[tuple[str, str], list[int]]) -> None:
    # measured 6 December 2026: 97.0% of 33 (42.4% before a ratio the answer names was traced)
    n, right, _ = counts[("named ratio", "gold")]
    assert n >= 30
    assert right / n >= 0.90


def test_shares_meet_the_arithmetic_and_perturbed_targets(
    counts: dict[tuple[str, str], list[int]],
) -> None:
    # measured 6 December 2026: gold 98.5% of 739 (3.2% before a share the answer states was
    # traced); digit 99.5%, year 96.2%, row 97.2% flagged
    n, right, _ = counts[("share", "gold")]
    assert n > 700
    assert right / n >= 0.90
    for variant in ("digit", "year", "row"):
        n, right, _ = counts[("share", variant)]
        assert right / n >= 0.95, variant
