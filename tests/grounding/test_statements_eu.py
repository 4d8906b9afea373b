"""Scale statements of European reports written without a preposition or with the scale glued
to the euro, and the tables they head: ``(M€)``, ``(en k€)``, ``(Md€)`` (the lexicons'
``statement_scales`` glued to ``€``), ``(milliers d'euros)``, ``(miles de euros)``,
``(migliaia di euro)`` (opened by the bracket alone), the Dutch ``(x € 1.000)`` and ``(x € 1
miljoen)``, the Italian ``(€/000)``; and cells whose
thousands are grouped by plain spaces (``| 5 428 | 4 756 |``, as French tables write them),
read whole in a table of two such cells or more. By hand: 5,428 thousand euros is 5.4 million;
5,428 million euros is 5.4 billion."""

from __future__ import annotations

from fractions import Fraction

import pytest

from hybridjudge.grounding import check_grounding, parse_quantities

_FR = "\nPoste | 2023 | 2022\nRésultat | 5 428 | 4 756"
_DOTTED = "\nPosta | 2023 | 2022\nRisultato | 5.428 | 4.756"


@pytest.mark.parametrize(
    ("statement", "rows", "thousands", "million", "billion"),
    [
        ("(en M€)", _FR, False, "5,4 millions d'euros", "5,4 milliards d'euros"),
        ("(M€)", _FR, False, "5,4 millions d'euros", "5,4 milliards d'euros"),
        ("(en k€)", _FR, True, "5,4 millions d'euros", "5,4 milliards d'euros"),
        ("(milliers d'euros)", _FR, True, "5,4 millions d'euros", "5,4 milliards d'euros"),
        ("(millions d'euros)", _FR, False, "5,4 millions d'euros", "5,4 milliards d'euros"),
        (
            "(miles de euros)",
            _DOTTED,
            True,
            "5,4 millones de euros",
            "5,4 miles de millones de euros",
        ),
        ("(migliaia di euro)", _DOTTED, True, "5,4 milioni di euro", "5,4 miliardi di euro"),
        ("(x € 1.000)", _DOTTED, True, "5,4 miljoen euro", "5,4 miljard euro"),
        ("Bedragen x 1.000 euro", _DOTTED, True, "5,4 miljoen euro", "5,4 miljard euro"),
        ("(bedragen x € 1 miljoen)", _DOTTED, False, "5,4 miljoen euro", "5,4 miljard euro"),
        ("(€/000)", _DOTTED, True, "5,4 milioni di euro", "5,4 miliardi di euro"),
    ],
)
def test_a_statement_scales_its_table(
    statement: str, rows: str, thousands: bool, million: str, billion: str
) -> None:
    context = statement + rows
    assert check_grounding(f"Le résultat: {million}.", context).grounded is thousands
    assert check_grounding(f"Le résultat: {billion}.", context).grounded is not thousands


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("Résultat | 5 428 | 4 756", [5428, 4756]),
        ("Résultat | (1 234) | 2 345 €", [-1234, 2345]),
        ("Résultat | 1 234,5 | 2 345,6", [Fraction(2469, 2), Fraction(11728, 5)]),
        # one such cell is no evidence: a space may part two figures of running text
        ("Sizes | 10 | 500\nA | 5 428 | x", [10, 500, 5, 428]),
    ],
)
def test_cells_grouped_by_spaces(text: str, values: list[Fraction]) -> None:
    assert [q.value for q in parse_quantities(text)] == values


def test_a_scale_word_in_brackets_without_a_currency_states_no_scale() -> None:
    context = "(milioni di persone)\nPosta | 2023 | 2022\nVisitatori | 5.428 | 4.756"
    assert check_grounding("I visitatori sono stati 5.428.", context).grounded
    assert not check_grounding("I visitatori sono stati 5,4 miliardi.", context).grounded
