"""Rules that keep derived-number tracing from explaining fabricated figures by chance.

Expected values are hand computations on the small tables built here.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from hybridjudge.grounding._derive import (
    Figure,
    Figures,
    Target,
    clause_trend,
    counted_noun,
    gives,
    rounding_window,
    stated_trend,
)


def _fig(value: float, line: int, column: int, *, percent: bool = False) -> Figure:
    text = f"{value:g}%" if percent else f"{value:g}"
    return Figure(value, 1.0, text, line, column, 0, True, percent)


def _prose(value: float, rank: int, **kw: object) -> Figure:
    """A figure of running text (one line, ``rank``-th on it)."""
    return replace(Figure(value, 1.0, f"{value:g}", 0, rank, 0, False, False), **kw)  # type: ignore[arg-type]


def _target(value: float, half: float, kind: str = "plain", sig: int = 2) -> Target:
    return Target(value, half, 1.0, kind, sig, f"{value:g}")  # type: ignore[arg-type]


def _figures(*figs: Figure) -> Figures:
    out = Figures()
    for f in figs:
        out.add(f)
    return out


def test_a_tie_rounds_away_from_zero() -> None:
    # (38 + 45) / 2 = 41.5 (hand): written "42", never "41"
    figs = _figures(_fig(38, 1, 1), _fig(45, 1, 2))
    assert figs.explain(_target(42, 0.5)) == ("42 = (38 + 45) / 2", "mean")
    assert figs.explain(_target(41, 0.5)) is None


def test_a_difference_at_a_tie_rounds_away_from_zero() -> None:
    # 45.5 - 38 = 7.5 (hand): written "8", never "7"
    figs = _figures(_fig(45.5, 1, 1), _fig(38, 1, 2))
    assert figs.explain(_target(8, 0.5, sig=1)) == ("8 = 45.5 - 38", "difference")
    assert figs.explain(_target(7, 0.5, sig=1)) is None


def test_two_distant_percentages_do_not_add_up() -> None:
    # 1.8% and 9.9% in one column, three rows apart: 11.7% is not their sum
    figs = _figures(
        _fig(1.8, 1, 1, percent=True),
        _fig(5.0, 2, 1, percent=True),
        _fig(9.9, 3, 1, percent=True),
    )
    assert figs.explain(_target(11.7, 0.05, "percent", 3)) is None
    # neighbouring shares still add up: 1.8% + 5.0% = 6.8%
    assert figs.explain(_target(6.8, 0.05, "percent", 2)) == ("6.8 = 1.8% + 5%", "sum")


def test_a_column_mean_needs_adjacent_rows() -> None:
    # 16 and 22 of one column: their mean 19 (hand) only when the rows are adjacent
    adjacent = _figures(_fig(16, 1, 1), _fig(22, 2, 1))
    assert adjacent.explain(_target(19, 0.5)) == ("19 = (16 + 22) / 2", "mean")
    apart = _figures(_fig(16, 1, 1), _fig(22, 5, 1))
    assert apart.explain(_target(19, 0.5)) is None


def test_the_mean_of_a_row_of_plain_cells_explains_a_percentage() -> None:
    # a row "% of net revenues | 70 | 65 | 66": (70 + 65 + 66) / 3 = 67 (hand)
    figs = _figures(_fig(70, 1, 1), _fig(65, 1, 2), _fig(66, 1, 3))
    assert figs.explain(_target(67, 0.5, "percent", 2)) == ("67 = (70 + 65 + 66) / 3", "mean")


def test_a_difference_of_counts_is_no_percentage() -> None:
    # 52 - 40 = 12 (hand): in running text never 12%; in a table of percentages it may be
    counts = _figures(_prose(40, 0), _prose(52, 1))
    assert counts.explain(_target(12, 0.5, "percent")) is None
    assert counts.explain(_target(12, 0.5)) == ("12 = 52 - 40", "difference")
    cells = _figures(_fig(52, 1, 1), _fig(40, 1, 2), _fig(100, 2, 1, percent=True))
    assert cells.explain(_target(12, 0.5, "percent")) == ("12 = 52 - 40", "difference")


@pytest.mark.parametrize(
    ("trend", "explained"),
    [
        (1, ("30 = (52 - 40) / 40", "percent_change")),
        (0, ("30 = (52 - 40) / 40", "percent_change")),
        (-1, None),
    ],
)
def test_a_change_against_the_contexts_words_is_not_explained(
    trend: int, explained: tuple[str, str] | None
) -> None:
    # "Staff rose from 40 to 52": (52 - 40) / 40 = 30% (hand), a rise
    figs = _figures(_prose(40, 0, trend=1), _prose(52, 1, trend=1))
    assert figs.explain(replace(_target(30, 0.5, "percent"), trend=trend)) == explained


@pytest.mark.parametrize(
    ("trend", "explained"),
    [
        (1, ("1862 = 11862 - 10000", "difference")),
        (0, ("1862 = 11862 - 10000", "difference")),
        (-1, None),
    ],
)
def test_a_change_against_the_tables_years_is_not_explained(
    trend: int, explained: tuple[str, str] | None
) -> None:
    # header 2023 | 2022, "Visits | 11,862 | 10,000": 11,862 - 10,000 = +1,862 (hand), a rise
    figs = _figures(_fig(11862, 1, 1), _fig(10000, 1, 2))
    figs.column_years.update({(0, 1): 2023, (0, 2): 2022})
    figs.newest_first[0] = True
    assert figs.explain(replace(_target(1862, 0.5, sig=4), trend=trend)) == explained


def test_a_count_is_not_added_to_a_much_larger_figure() -> None:
    # "12,500 people across 3 plants": 12,500 + 3 = 12,503 (hand) is no evidence
    figs = _figures(_prose(12500, 0, noun="people"), _prose(3, 1, noun="plant", count=True))
    assert figs.explain(_target(12503, 0.5, sig=5)) is None
    # two counts of comparable size still add up: 7 + 19 = 26
    figs = _figures(
        _prose(7, 0, noun="doctor", count=True), _prose(19, 1, noun="nurse", count=True)
    )
    assert figs.explain(_target(26, 0.5)) == ("26 = 7 + 19", "sum")


def test_a_count_of_one_thing_is_not_computed_from_a_count_of_another() -> None:
    # "7 doctors and 19 nurses": 19 - 7 = 12 (hand) is 12 more nurses, not 12 doctors
    figs = _figures(
        _prose(7, 0, noun="doctor", count=True), _prose(19, 1, noun="nurse", count=True)
    )
    assert figs.explain(replace(_target(12, 0.5), noun="doctor")) is None
    assert figs.explain(replace(_target(12, 0.5), noun="nurse")) is None
    assert figs.explain(_target(12, 0.5)) == ("12 = 19 - 7", "difference")


def test_money_and_a_bare_figure_of_running_text_make_no_share() -> None:
    # "free on orders over $50", "1-2 business days": 1 / 50 = 2% (hand) is no fee
    figs = _figures(_prose(50, 0, measured=True), _prose(1, 1), _prose(2, 2))
    assert figs.explain(_target(2, 0.5, kind="percent")) is None
    # two amounts make one: $1 of $50 is 2%
    amounts = _figures(_prose(50, 0, measured=True), _prose(1, 1, measured=True))
    assert amounts.explain(_target(2, 0.5, kind="percent")) == ("2 = 1 / 50", "ratio")
    # a table's bare cell may be money its first row writes with $: 1 / $50 is 2%
    cells = _figures(replace(_fig(50, 1, 1), measured=True), _fig(1, 2, 1))
    assert cells.explain(_target(2, 0.5, kind="percent")) == ("2 = 1 / 50", "ratio")


def test_the_two_ends_of_a_range_sum_to_nothing() -> None:
    # "1-2 business days": 1 + 2 = 3 (hand) is no number of days
    days = _figures(_prose(1, 0, range_end="low"), _prose(2, 1, range_end="high"))
    assert days.explain(_target(3, 0.5)) is None
    # two figures of no range do sum: 1 + 2 = 3
    assert _figures(_prose(1, 0), _prose(2, 1)).explain(_target(3, 0.5)) == ("3 = 1 + 2", "sum")


def test_an_answers_own_scale_needs_operands_with_a_scale_or_a_currency() -> None:
    # "2.3.1" and "+1": 2.3 - 1 = 1.3 (hand), no amount in billions of euros
    bare = _figures(_prose(2.3, 0), _prose(1, 1))
    euro_bn = Target(1.3e9, 0.05e9, 1e9, "plain", 2, "€1.3bn", currency=True)
    assert bare.explain(euro_bn) is None
    assert bare.explain(replace(euro_bn, currency=False)) is None
    # the same figures as table cells, or written as amounts, do explain it
    assert _figures(_fig(2.3, 1, 1), _fig(1, 1, 2)).explain(euro_bn) == (
        "€1.3bn = 2.3 - 1",
        "difference",
    )
    amounts = _figures(_prose(2.3, 0, measured=True), _prose(1, 1, measured=True))
    assert amounts.explain(euro_bn) == ("€1.3bn = 2.3 - 1", "difference")


def test_a_small_operand_that_only_bridges_a_gap_is_no_evidence() -> None:
    # one column, two rows apart: 34.3 - 0.9 = 33.4 (hand): 0.9 is 9 units of 0.1 and 2.6% of
    # 34.3, so 33.4 is only "close to 34.3"
    column = _figures(_fig(34.3, 1, 1), _fig(12.0, 2, 1), _fig(0.9, 3, 1))
    assert column.explain(_target(33.4, 0.05, sig=3)) is None
    # along one table row (a change over the years) it is a derivation
    row = _figures(_fig(34.3, 1, 1), _fig(0.9, 1, 2))
    assert row.explain(_target(33.4, 0.05, sig=3)) == ("33.4 = 34.3 - 0.9", "difference")
    # written to more digits the same gap is evidence: 0.9 is 900 units of 0.001
    assert column.explain(_target(33.4, 0.0005, sig=5)) == ("33.4 = 34.3 - 0.9", "difference")


@pytest.mark.parametrize(
    ("text", "number", "trend"),
    [
        ("staff fell 30%.", "30%", -1),
        ("staff grew by 12%.", "12%", 1),
        ("an increase of about 5.", "5", 1),
        ("a 30% decrease.", "30%", -1),
        ("there were 1,862 fewer visits.", "1,862", -1),
        ("revenue was 12% higher.", "12%", 1),
        ("staff rose to 52.", "52", 0),  # a level, not a change
        ("revenue was $12m, up from $10m.", "$12m", 0),  # "up" after a level describes it
        ("the loss was 5.", "5", 0),  # a sign word, not a direction
    ],
)
def test_the_direction_an_answer_states(text: str, number: str, trend: int) -> None:
    start = text.index(number)
    assert stated_trend(text, start, start + len(number)) == trend


def test_the_direction_and_the_noun_of_a_context_figure() -> None:
    text = "staff rose from 40 to 52, while costs fell from 5 to 4. the clinic has 7 doctors."
    assert clause_trend(text, text.index("52")) == 1
    assert clause_trend(text, text.index("4.")) == -1
    assert clause_trend(text, text.index("7 doctors")) == 0  # a new sentence
    assert counted_noun(text, text.index("7 doctors") + 1) == "doctor"
    assert counted_noun(text, text.index("40") + 2) == ""  # "to" counts nothing


@pytest.mark.parametrize(
    ("value", "figure", "expected"),
    [
        (18.544970, 18.55, True),  # 18.545 at three decimals, then 18.55 (once: 18.54)
        (18.544, 18.55, False),  # 0.6 of a unit toward zero
        (18.5549, 18.55, True),  # rounded once
        (18.5551, 18.55, False),  # past half a unit away from zero: 18.56 either way
        (-18.544970, -18.55, True),  # toward zero is upwards for a negative figure
        (-18.5551, -18.55, False),
        (-18.544, -18.55, False),
        (0.0049, 0.0, True),  # a zero has no side toward zero: half a unit either way
        (-0.0049, 0.0, True),
        (-0.0054, 0.0, False),
    ],
)
def test_a_derivation_gives_a_figure_rounded_once_or_twice(
    value: float, figure: float, expected: bool
) -> None:
    # half a unit of the second decimal, widened a little as float_slack does
    assert gives(value, figure, 0.005 + 1e-12) is expected


def test_the_rounding_window_is_wider_toward_zero_only() -> None:
    lo, hi = rounding_window(4.09, 0.005)  # 0.55 of a unit below: one more digit rounded first
    assert (lo, hi) == (pytest.approx(4.0845), pytest.approx(4.095))
    lo, hi = rounding_window(-4.09, 0.005, 0.004)  # a tie excluded away from zero
    assert (lo, hi) == (pytest.approx(-4.094), pytest.approx(-4.0845))
