"""An accounting negative with its currency inside the bracket (issue 33: reports outside the
United States): ``(US$773)``, ``(HK$512)``, ``(RMB5,000)``, ``(USD 773)``, ``(EUR 1,234)``,
``(Rs. 500)``, and a code glued to the bracket, ``RMB(62)``, are negative as ``($773)``,
``$(62)`` and ``(€773)`` are; a minus before a currency code or a currency written in letters
(``-RMB5 million``, ``-Rs. 1,200``) is a minus, as before ``$``. The answer's negative figure
then traces to the cell, its positive magnitude still names the bracketed figure, and a minus
before a positive cell is a finding."""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding
from hybridjudge.grounding._quantities import scan

CURRENCIES = pytest.mark.parametrize(
    "cur", ["US$", "HK$", "S$", "A$", "R$", "USD ", "EUR ", "RMB ", "RMB", "Rs. ", "Rs.", "RM"]
)


def _table(cur: str) -> str:
    return f"Net loss | ({cur}773) | ({cur}512)\nRevenue | {cur}1,200 | {cur}1,100"


def _flagged(answer: str, context: str) -> bool:
    report = check_grounding(answer, [context])
    return any(f.kind == "ungrounded_number" for f in report.findings)


@CURRENCIES
def test_a_bracketed_cell_with_its_currency_is_negative(cur: str) -> None:
    values = [q.value for q in scan(_table(cur)).quantities]
    assert values == [-773, -512, 1200, 1100]


@CURRENCIES
def test_the_negative_answer_traces_and_a_flipped_sign_is_a_finding(cur: str) -> None:
    context = _table(cur)
    assert not _flagged(f"The net loss was -{cur}773.", context)
    assert not _flagged(f"The net loss was ({cur}773).", context)
    assert not _flagged(f"The net loss was {cur}773.", context)  # its magnitude names it
    assert _flagged(f"Revenue was -{cur}1,200.", context)
    assert not _flagged(f"Revenue was {cur}1,200.", context)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("The loss was -RMB5 million.", -5_000_000),
        ("The loss was -Rs. 1,200.", -1200),
        ("The loss was -RM5 million.", -5_000_000),
        ("A loss of (USD 1.2 billion).", -1_200_000_000),
        ("Net loss | RMB(238) |", -238),  # the code glued to the bracket, as $(238)
        ("Net loss | RM(238) |", -238),
        ("Net loss | USD(238) |", -238),
    ],
)
def test_a_sign_or_a_bracket_before_a_currency_in_letters(text: str, value: int) -> None:
    assert [q.value for q in scan(text).quantities] == [value]


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("twenty-five people", [25]),
        ("(five people)", [5]),
        ("the COVID-19 cases", []),
        ("(see note 5)", []),
        ("see note(5) and room(12)", [5, 12]),
    ],
)
def test_words_and_asides_read_as_before(text: str, values: list[int]) -> None:
    assert [q.value for q in scan(text).quantities] == values
