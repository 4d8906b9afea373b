"""A quarter or a half named by its ordinal in a lexicon's words is a name, as ``Q3`` is, not
the figure 3: ``第3四半期`` (ja), ``第3季度`` and ``三季度`` (zh), ``3분기`` (ko), ``3. Quartal``,
``3e trimestre``, ``terzo trimestre``, ``3º trimestre``, ``3e kwartaal`` (the lexicons'
``period_ordinals`` with their ``period_quarters`` and ``period_halves``). An answer's period
name is grounded where the context names the same period in any of these ways (``Q3``,
``third quarter``, ``第3四半期``), and flagged where it names none (``4분기`` against a table
of Q1 to Q3), as ``Q4`` is; one language's ordinal does not pair with another's word (French
``1 trimestre`` is a duration, not Chinese ``1`` before a quarter). An analyst's ``3Q``,
``4Q23``, ``1H23`` and ``2H 2023`` (a number and a letter: the lexicons' ``period_letters``)
name the same periods, a glued year as ``FY23`` names it."""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding, parse_quantities

_TABLE = "Quarter | Q1 2023 | Q2 2023 | Q3 2023\nRevenue | 100 | 110 | 120"
_FILLER = "The figures below are unaudited and presented for information only. " * 8


@pytest.mark.parametrize("long", [False, True], ids=["short", "fast path"])
@pytest.mark.parametrize(
    ("answer", "grounded"),
    [
        ("2023年第3四半期の売上高は120でした。", True),
        ("2023年第3季度营业收入为120。", True),
        ("2023年第三季度营业收入为120。", True),
        ("2023년 3분기 매출은 120입니다.", True),
        ("Im 3. Quartal 2023 betrug der Umsatz 120.", True),
        ("Au 3e trimestre 2023, le chiffre était de 120.", True),
        ("Nel 3° trimestre 2023 i ricavi sono stati 120.", True),
        ("No 3º trimestre de 2023, a receita foi de 120.", True),
        ("In het 3e kwartaal van 2023 was de omzet 120.", True),
        # a quarter the context does not name
        ("2023년 4분기 매출은 120입니다.", False),
        ("2023年第4四半期の売上高は120でした。", False),
        ("Im 4. Quartal 2023 betrug der Umsatz 120.", False),
    ],
)
def test_a_quarter_named_in_the_answer(answer: str, grounded: bool, long: bool) -> None:
    context = f"{_FILLER}\n\n{_TABLE}" if long else _TABLE
    assert check_grounding(answer, context).grounded is grounded


@pytest.mark.parametrize(
    "context",
    [
        "2023年第3四半期の受注件数は120件でした。",
        "2023年第三季度订单为120个。",
        "2023년 3분기 주문은 120건입니다.",
        "Le chiffre d'affaires du troisième trimestre 2023 était de 120.",
    ],
)
def test_a_quarter_named_in_the_context(context: str) -> None:
    assert check_grounding("In Q3 2023 it was 120.", context).grounded
    assert not check_grounding("In Q2 2023 it was 120.", context).grounded


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("第3四半期の売上高", []),
        ("3분기 매출 120", [120]),
        ("dans 1 trimestre", [1]),  # French: one quarter, a duration's count
        ("13季度", [13]),  # no ordinal of a quarter
    ],
)
def test_no_figure_in_a_period_name(text: str, values: list[int]) -> None:
    assert [q.value for q in parse_quantities(text)] == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # a month's name (month_suffixes), as "March 2024" reads 2024 alone
        ("2024年3月の売上高", [2024]),
        ("2024년 3월 매출", [2024]),
        ("2023年4月から2024年3月まで", [2023, 2024]),
        # durations and full dates as before
        ("3か月", [3]),
        ("3개월", [3]),
        ("2024年3月31日", [20240331]),
        ("13月", [13]),  # no month
    ],
)
def test_a_month_named_by_its_number(text: str, values: list[int]) -> None:
    assert [q.value for q in parse_quantities(text)] == values


def test_an_answer_naming_a_month() -> None:
    context = "区分 | 2023年 | 2024年\n売上高 | 1,234 | 1,345"
    assert check_grounding("2024年3月の売上高は1,345でした。", context).grounded


@pytest.mark.parametrize("long", [False, True], ids=["short", "fast path"])
@pytest.mark.parametrize(
    ("answer", "grounded"),
    [
        # a number and a letter glued after it (the lexicons' period_letters): an analyst's
        # "3Q" is Q3, with its year glued or not ("3Q23" was 3 flagged, or nothing read)
        ("In 3Q revenue was 120.", True),
        ("3Q23 revenue was 120.", True),
        ("3Q2023 revenue was 120.", True),
        ("1H 2023 revenue was 210.", True),
        ("1H23 revenue was 210.", True),
        ("Revenue was 210 in 1H 2023.", True),  # the year ends the sentence
        # a period the context does not name
        ("4Q23 revenue was 120.", False),
        ("2H 2023 revenue was 210.", False),
        ("Revenue was 210 in 2H 2023.", False),
        ("In 4Q revenue was 120.", False),
    ],
)
def test_a_period_named_by_a_number_and_a_letter(answer: str, grounded: bool, long: bool) -> None:
    table = _TABLE + "\nRevenue in H1 2023 | 210"
    context = f"{_FILLER}\n\n{table}" if long else table
    assert check_grounding(answer, context).grounded is grounded


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("3Q revenue", []),
        ("4Q23 revenue", []),
        ("2H 2023 revenue", [2023]),  # a year after a space stays a figure
        ("the 3q model", []),
        ("it takes 2h", [2]),  # a number and "h" alone are hours
        ("every 8 h", [8]),
        ("2h 30", [2, 30]),
        ("5Q", []),  # no quarter: an identifier, as before
    ],
)
def test_no_figure_in_a_period_named_by_a_letter(text: str, values: list[int]) -> None:
    assert [q.value for q in parse_quantities(text)] == values


def test_a_context_naming_a_period_by_a_number_and_a_letter() -> None:
    context = "| | 3Q23 | 2Q23 |\n| Revenue | 120 | 110 |\n"
    assert check_grounding("Revenue in Q3 2023 was 120.", context).grounded
    assert check_grounding("Revenue in the third quarter was 120.", context).grounded
    assert not check_grounding("Revenue in Q4 2023 was 120.", context).grounded
