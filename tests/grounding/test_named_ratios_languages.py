"""Named ratios in the other lexicons (``named_ratios`` of de, fr, es, it, pt, nl): a question
in the language names the ratio, the table's rows in the language divide (hand computed:
2,725 / 14,694 = 18.545%, 1,508 / 14,694 = 10.263%, 1,010 / 14,694 = 6.874%)."""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding

# per language: the rows (revenue, gross profit, operating profit, net income), then a question
# and an answer per ratio: gross margin 18,5 %, operating margin 10,3 %, net margin 6,9 %
LANGUAGES = {
    "de": (
        ("Umsatzerlöse", "Bruttoergebnis vom Umsatz", "Betriebsergebnis", "Jahresüberschuss"),
        ("Wie hoch war die Bruttomarge 2023?", "Die Bruttomarge betrug 2023 {} %."),
        ("Wie hoch war die EBIT-Marge 2023?", "Die EBIT-Marge betrug 2023 {} %."),
        ("Wie hoch war die Nettomarge 2023?", "Die Nettomarge betrug 2023 {} %."),
    ),
    "fr": (
        ("Chiffre d'affaires", "Marge brute", "Résultat opérationnel", "Résultat net"),
        ("Quel était le taux de marge brute en 2023 ?", "Le taux de marge brute était de {} %."),
        (
            "Quelle était la marge opérationnelle en 2023 ?",
            "La marge opérationnelle était de {} %.",
        ),
        ("Quelle était la marge nette en 2023 ?", "La marge nette était de {} %."),
    ),
    "es": (
        (
            "Importe neto de la cifra de negocios",
            "Beneficio bruto",
            "Resultado de explotación",
            "Resultado del ejercicio",
        ),
        ("¿Cuál fue el margen bruto en 2023?", "El margen bruto fue del {} %."),
        ("¿Cuál fue el margen operativo en 2023?", "El margen operativo fue del {} %."),
        ("¿Cuál fue el margen neto en 2023?", "El margen neto fue del {} %."),
    ),
    "it": (
        ("Ricavi", "Utile lordo", "Risultato operativo", "Utile netto"),
        ("Qual era il margine lordo nel 2023?", "Il margine lordo era del {} %."),
        ("Qual era il margine operativo nel 2023?", "Il margine operativo era del {} %."),
        ("Qual era il margine netto nel 2023?", "Il margine netto era del {} %."),
    ),
    "pt": (
        ("Receita líquida", "Lucro bruto", "Lucro operacional", "Lucro líquido"),
        ("Qual foi a margem bruta em 2023?", "A margem bruta foi de {} %."),
        ("Qual foi a margem operacional em 2023?", "A margem operacional foi de {} %."),
        ("Qual foi a margem líquida em 2023?", "A margem líquida foi de {} %."),
    ),
    "nl": (
        ("Omzet", "Brutowinst", "Bedrijfsresultaat", "Nettowinst"),
        ("Wat was de brutomarge in 2023?", "De brutomarge was {} %."),
        ("Wat was de operationele marge in 2023?", "De operationele marge was {} %."),
        ("Wat was de nettomarge in 2023?", "De nettomarge was {} %."),
    ),
}
FIGURES = (("14.694", "14.544"), ("2.725", "2.820"), ("1.508", "1.239"), ("1.010", "905"))
RIGHT = ("18,5", "10,3", "6,9")


def _table(rows: tuple[str, ...]) -> list[str]:
    lines = ["(in Mio. EUR)", "| | 2023 | 2022 |", "|---|---|---|"]
    lines += [f"| {label} | {a} | {b} |" for label, (a, b) in zip(rows, FIGURES, strict=True)]
    return ["\n".join(lines)]


@pytest.mark.parametrize("language", sorted(LANGUAGES))
@pytest.mark.parametrize("ratio", [0, 1, 2])
def test_the_ratio_a_question_names_is_traced(language: str, ratio: int) -> None:
    rows, *asked = LANGUAGES[language]
    question, answer = asked[ratio]
    report = check_grounding(answer.format(RIGHT[ratio]), _table(rows), question=question)
    assert report.grounded, report.findings
    assert [t.rule for t in report.quantities if t.quantity.unit == "%"] == ["ratio"]


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_another_ratios_figure_is_not(language: str) -> None:
    """The operating margin's 10,3 % given for the gross margin the question names."""
    rows, (question, answer), *_ = LANGUAGES[language]
    report = check_grounding(answer.format(RIGHT[1]), _table(rows), question=question)
    assert [f.kind for f in report.findings] == ["ungrounded_number"]
