"""An answer too short to show how it writes figures is read as its context writes them.

``Sie kosten 12.500 €.`` gives no sign of its convention: read the English way it is 12.5 euros,
the page's ``12,5 €`` as written, and a thousandfold error passed. Its context writes figures
the continental way (``12,5``), so the answer is read so too: 12,500 euros, not in the context.
``mil`` after a figure is a thousand in Spanish and Portuguese, a million in English slang; a
text in those languages, or an answer beside such a context, reads the thousand. And a figure in
full digits is no thousand of a price written with decimals in running text (``$12,500`` for
``$12.5 each``): only a table cell's scale may go unstated.

These cases come from a probe of invented pages in nine languages; every value was worked out
by hand (12,5 MW = 12,500 kW; 612,4 mil = 612,400).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from hybridjudge.grounding import check_grounding, parse_quantities

GERMAN_PRICE = "Die Bauteile kosten 12,5 € pro Stück; geliefert wurden 1.250 Stück."
GERMAN_POWER = "Die Anlage hat eine Leistung von 12,5 MW."
SPANISH = "Los ingresos ascendieron a 612,4 mil euros en el ejercicio."
PORTUGUESE = "A empresa investiu R$ 612 mil em treinamento no ano."


@pytest.mark.parametrize(
    ("answer", "context"),
    [
        ("Sie kosten 12.500 €.", GERMAN_PRICE),  # 12,500 euros, not the 12.5 of the page
        ("Es waren 1.250 Stück.", GERMAN_PRICE.replace("1.250", "1,25 Mio.")),
        ("Los ingresos fueron 612,4 millones de euros.", SPANISH),  # a million for a thousand
        ("R$ 612 milhões", PORTUGUESE),
        ("It costs $12,500.", "The part costs $12.5 each."),  # a price, no unstated scale
    ],
)
def test_a_thousandfold_error_is_flagged(answer: str, context: str) -> None:
    report = check_grounding(answer, [context])
    assert [f.kind for f in report.findings] == ["ungrounded_number"]


@pytest.mark.parametrize(
    ("answer", "context", "value"),
    [
        ("Die Anlage leistet 12.500 kW.", GERMAN_POWER, 12_500),
        ("Es waren 1.250 Stück.", GERMAN_PRICE, 1_250),
        ("Los ingresos fueron 612.400 euros.", SPANISH, 612_400),
        ("Fueron 612,4 mil euros.", SPANISH, 612_400),
        ("R$ 612 mil", PORTUGUESE, 612_000),
        ("Revenue was $88,848,000.", "Revenue | $88,848 | $80,000", 88_848_000),  # a cell
    ],
)
def test_a_short_answer_is_read_as_its_context_writes(
    answer: str, context: str, value: int
) -> None:
    report = check_grounding(answer, [context])
    assert report.grounded, report.findings
    assert [t.quantity.value for t in report.quantities] == [value]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("30 mil empleados", 30_000),
        ("A receita foi de R$ 612 mil em 2023.", 612_000),
        ("612,4 mil euros", 612_400),
        ("5 mil millones de euros", 5_000_000_000),
        ("The company paid $5 mil in fines.", 5_000_000),  # English slang: a million
    ],
)
def test_mil_is_read_in_the_language_of_its_text(text: str, value: int) -> None:
    assert parse_quantities(text)[0].value == value


def test_a_context_writing_figures_both_ways_leaves_the_answer_its_own_reading() -> None:
    # one passage German, one English (1,234,567): the answer's 23.400 stays 23.4, and is the
    # German passage's numeral as written (the trace rule ``numeral``)
    context = ["Es gab 23.400 Besucher im Jahr.", "The museum counted 1,234,567 visitors."]
    report = check_grounding("There were 23.400 visitors.", context)
    assert report.grounded, report.findings
    assert [(t.quantity.value, t.rule) for t in report.quantities] == [
        (Fraction("23.4"), "numeral")
    ]


def _long_portuguese_report() -> list[str]:
    """One passage long enough for the fast path (its windows of a few lines each): a figure
    written the continental way at the top, ``R$ 612 mil`` on a line of its own far below,
    among lines without a figure or a Portuguese number word."""
    lines = [
        "Relatório anual da empresa, exercício de 2024.",
        "A receita líquida foi de R$ 1.234,5 milhões no ano.",
        *(f"Item {chr(65 + i)} do anexo sem valores relevantes para a análise." for i in range(12)),
        "Total: R$ 612 mil",
    ]
    return ["\n".join(lines)]


@pytest.mark.parametrize("fast_path", [True, False])
@pytest.mark.parametrize(
    ("answer", "grounded"),
    [
        ("O total foi de R$ 612 milhões.", False),  # a thousandfold error
        ("O total foi de R$ 612 mil.", True),
        ("O total foi de R$ 612.000.", True),
    ],
)
def test_mil_reads_the_same_in_a_window_of_a_passage(
    monkeypatch: pytest.MonkeyPatch, fast_path: bool, answer: str, grounded: bool
) -> None:
    # the passage writes its figures the continental way: its `mil` is a thousand wherever the
    # answer's figure is looked up, a window of three lines (the fast path) or the whole passage
    from hybridjudge.grounding import _fast

    monkeypatch.setattr(_fast, "ENABLED", fast_path)
    report = check_grounding(answer, _long_portuguese_report(), question="Qual o total?")
    assert report.grounded is grounded, report.findings
    assert [t.quantity.value for t in report.quantities] == [
        612_000_000 if not grounded else 612_000
    ]
