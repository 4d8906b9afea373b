"""Scale statements of Italian, Portuguese and Dutch reports (the lexicons'
``statement_scales``): ``in migliaia di euro``, ``em milhões de euros``, ``in miljoenen euro``
scale the table under them, as ``en milliers d'euros`` does. By hand: 5.428 thousand euros is
5,428,000 euros (5.4 million); 5.428 million euros is 5,428,000,000 (5.4 billion)."""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding


@pytest.mark.parametrize(
    ("statement", "thousands"),
    [
        ("(in migliaia di euro)", True),
        ("Importi in migliaia di euro", True),
        ("(in migliaia)", True),
        ("(in milioni di euro)", False),
        ("(em milhares de euros)", True),
        ("(em milhões de euros)", False),
        ("(in duizenden euro)", True),
        ("(bedragen in miljoenen euro's)", False),
        # a currency before the scale word, and German's scale words written out
        ("(€ milioni)", False),
        ("(Euro milioni)", False),
        ("(€ miljoen)", False),
        ("(in € miljoen)", False),
        ("(in Tausend Euro)", True),
        ("Angaben in Tausend €", True),
        ("(in Millionen Euro)", False),
    ],
)
def test_a_statement_scales_its_table(statement: str, thousands: bool) -> None:
    context = f"{statement}\nPosta | 2023 | 2022\nRisultato | 5.428 | 4.756"
    million, billion = "5,4 milioni di euro", "5,4 miliardi di euro"
    assert check_grounding(f"Il risultato è {million}.", context).grounded is thousands
    assert check_grounding(f"Il risultato è {billion}.", context).grounded is not thousands


@pytest.mark.parametrize(
    "text",
    [
        # a scale word in running text, no currency nor closing bracket after it: no statement
        "Er waren in miljoenen huishoudens televisies.\nOmzet | 5.428 | 4.756",
        "Si contano in milioni di persone i visitatori.\nRicavi | 5.428 | 4.756",
        "In Tausend Fällen wurde geprüft.\nUmsatz | 5.428 | 4.756",
        "Es gab in Millionen Haushalten Fernseher.\nUmsatz | 5.428 | 4.756",
    ],
)
def test_a_scale_word_in_running_text_states_no_scale(text: str) -> None:
    assert not check_grounding("Il risultato è 5,4 milioni di euro.", text).grounded


@pytest.mark.parametrize(
    "statement",
    ["(R$ milhões)", "(em R$ milhões)", "Valores em R$ milhões", "(em milhões de reais)"],
)
def test_a_statement_names_its_currency_before_or_after_the_scale(statement: str) -> None:
    # 5.428 million reais is R$ 5,4 billion: in reais, not in dollars, and not R$ 5,4 million
    context = f"{statement}\nItem | 2023 | 2022\nLucro | 5.428 | 4.756"
    assert check_grounding("O lucro foi de R$ 5,4 bilhões.", context).grounded
    assert not check_grounding("O lucro foi de US$ 5,4 bilhões.", context).grounded
    assert not check_grounding("O lucro foi de R$ 5,4 milhões.", context).grounded
