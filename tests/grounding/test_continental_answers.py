"""Answers that write their figures the continental way, about a table written the English way.

Found writing TAT-QA's gold answers as a model answering in French or German writes them (a
scratch answer form over ``validity/tatqa.py``'s items: ``22 626 milliers``, ``-42,7 - 20,9 =
-63,6 millions``, ``(68.024 - 67.314) / 67.314 × 100 = 1,05 %``): with the gold value as a
required fact, 71% to 83% of the French answers were grounded by kind of answer (English forms:
98-100%). Three mechanisms: ``milliers`` was read as a scale of a page's statement but not after
a figure (nor ``migliaia``, ``milhares``, ``duizend``: their lexicons' ``figure_scales``); a
signed figure with a decimal comma (``-42,7 - 20,9``) made the line a CSV row, cut at its commas;
and a decimal comma beside dotted thousands (``67.314`` and ``1,05 %``) did not make the text
continental without words of its language. Each case below failed before.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from hybridjudge.grounding import check_grounding, parse_quantities

TABLE = (
    "| | 2019 | 2018 |\n"
    "| Revenue | 68,024 | 67,314 |\n"
    "| Costs | 22,626 | 19,373 |\n"
    "| Change | (42.7) | 20.9 |\n"
    "(in thousands)"
)


@pytest.mark.parametrize(
    ("answer", "required"),
    [
        ("Les coûts s'élèvent à 22\u202f626 milliers.", ["22,626 thousand"]),
        ("22\u202f626 milliers", ["22,626 thousand"]),
        ("-42,7 - 20,9 = -63,6", ["-63.6"]),
        ("(68.024 - 67.314) / 67.314 × 100 = 1,05\u00a0%", ["1.05%"]),
    ],
)
def test_a_continental_answer_about_an_english_table_is_grounded(
    answer: str, required: list[str]
) -> None:
    report = check_grounding(answer, [TABLE], question="What was it?", anchors=required)
    assert report.grounded, [f.message for f in report.findings]


@pytest.mark.parametrize(
    ("answer", "figure"),
    [
        ("26\u202f626 milliers", "26\u202f626 milliers"),
        ("-42,7 - 20,9 = -65,6", "-65,6"),
        ("(68.024 - 67.314) / 67.314 × 100 = 1,50\u00a0%", "1,50\u00a0%"),
        ("(68.024 - 76.314) / 76.314 × 100 = 1,05\u00a0%", "76.314"),
    ],
)
def test_the_same_answer_with_a_figure_changed_is_flagged_on_that_figure(
    answer: str, figure: str
) -> None:
    findings = check_grounding(answer, [TABLE], question="What was it?").findings
    assert findings
    assert {f.subject for f in findings} == {figure}


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # a thousand as the scale word after a figure, in the languages that write one
        ("Le résultat net s'élève à 22 626 milliers d'euros.", [22_626_000]),
        ("Il risultato netto è pari a 12.345 migliaia di euro.", [12_345_000]),
        ("O resultado líquido foi de 12.345 milhares de euros.", [12_345_000]),
        ("A receita foi de 3,5 milhares de milhões de euros.", [3_500_000_000]),
        ("De omzet bedroeg 12 duizend euro.", [12_000]),
        # signed figures with a decimal comma are words of running text, not a CSV row
        ("-42,7 - 20,9 = -63,6", [Fraction(-427, 10), Fraction(209, 10), Fraction(-318, 5)]),
        ("-42,7 et -20,9", [Fraction(-427, 10), Fraction(-209, 10)]),
        # a decimal comma beside three digits after a point: the continental way
        ("68.024 / 67.314 = 1,01", [68_024, 67_314, Fraction(101, 100)]),
        # but a percentage with three decimals stays one ("2.625% notes")
        ("It rose 2.625% to 3,5 and 1.250", [Fraction(21, 8), Fraction(7, 2), Fraction(5, 4)]),
    ],
)
def test_the_figures_are_read(text: str, values: list[Fraction | int]) -> None:
    assert [q.value for q in parse_quantities(text)] == values


def test_rows_without_spaces_are_still_csv_rows() -> None:
    from hybridjudge.grounding._normalize import normalize

    assert normalize("Segment,-1,2").text == "segment|-1|2"
    assert normalize("a,-42,7,b").text == "a|-42|7|b"
