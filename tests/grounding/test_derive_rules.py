"""Rules that keep derived-number tracing from explaining fabricated figures by chance.

Expected values are hand computations on the small tables built here.
"""

from __future__ import annotations

from hybridjudge.grounding._derive import Figure, Figures, Target


def _fig(value: float, line: int, column: int, *, percent: bool = False) -> Figure:
    text = f"{value:g}%" if percent else f"{value:g}"
    return Figure(value, 1.0, text, line, column, 0, True, percent)


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
    assert figs.explain(_target(42, 0.5)) == "42 = (38 + 45) / 2"
    assert figs.explain(_target(41, 0.5)) is None


def test_a_difference_at_a_tie_rounds_away_from_zero() -> None:
    # 45.5 - 38 = 7.5 (hand): written "8", never "7"
    figs = _figures(_fig(45.5, 1, 1), _fig(38, 1, 2))
    assert figs.explain(_target(8, 0.5, sig=1)) == "8 = 45.5 - 38"
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
    assert figs.explain(_target(6.8, 0.05, "percent", 2)) == "6.8 = 1.8% + 5%"


def test_a_column_mean_needs_adjacent_rows() -> None:
    # 16 and 22 of one column: their mean 19 (hand) only when the rows are adjacent
    adjacent = _figures(_fig(16, 1, 1), _fig(22, 2, 1))
    assert adjacent.explain(_target(19, 0.5)) == "19 = (16 + 22) / 2"
    apart = _figures(_fig(16, 1, 1), _fig(22, 5, 1))
    assert apart.explain(_target(19, 0.5)) is None


def test_the_mean_of_a_row_of_plain_cells_explains_a_percentage() -> None:
    # a row "% of net revenues | 70 | 65 | 66": (70 + 65 + 66) / 3 = 67 (hand)
    figs = _figures(_fig(70, 1, 1), _fig(65, 1, 2), _fig(66, 1, 3))
    assert figs.explain(_target(67, 0.5, "percent", 2)) == "67 = (70 + 65 + 66) / 3"
