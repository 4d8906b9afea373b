"""Named ratios in the other lexicons (``named_ratios`` of de, fr, es, it, pt, nl, zh, ja,
ko; ``total_words``): a question in the language names the ratio, the table's rows in the
language divide (hand computed: 2,725 / 14,694 = 18.545%, 1,508 / 14,694 = 10.263%, 1,010 /
14,694 = 6.874%)."""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding

# per language: the rows (revenue, gross profit, operating profit, net income), then a question
# and an answer per ratio: gross margin 18,5 %, operating margin 10,3 %, net margin 6,9 %
CASES = {
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
    # Chinese, Japanese, Korean: a name glued to the words around it (毛利率是多少, 영업이익률은),
    # a label one word of its script, figures written the English way
    "zh": (
        ("营业收入", "毛利", "营业利润", "净利润"),
        ("2023年的毛利率是多少？", "2023年的毛利率为{}%。"),
        ("2023年的营业利润率是多少？", "2023年的营业利润率为{}%。"),
        ("2023年的净利率是多少？", "2023年的净利率为{}%。"),
    ),
    "ja": (
        ("売上高", "売上総利益", "営業利益", "当期純利益"),
        ("2023年の売上総利益率は？", "2023年の売上総利益率は{}%でした。"),
        ("2023年の営業利益率は？", "2023年の営業利益率は{}%でした。"),
        ("2023年の純利益率は？", "2023年の純利益率は{}%でした。"),
    ),
    "ko": (
        ("매출액", "매출총이익", "영업이익", "당기순이익"),
        ("2023년 매출총이익률은 얼마입니까?", "2023년 매출총이익률은 {}%입니다."),
        ("2023년 영업이익률은 얼마입니까?", "2023년 영업이익률은 {}%입니다."),
        ("2023년 순이익률은 얼마입니까?", "2023년 순이익률은 {}%입니다."),
    ),
}
FIGURES = (("14.694", "14.544"), ("2.725", "2.820"), ("1.508", "1.239"), ("1.010", "905"))
RIGHT = ("18,5", "10,3", "6,9")
ENGLISH_FIGURES = tuple((a.replace(".", ","), b.replace(".", ",")) for a, b in FIGURES)
RIGHT_POINT = tuple(r.replace(",", ".") for r in RIGHT)


WITHOUT_SPACES = ("zh", "ja", "ko")


def _case(language: str) -> tuple[list[tuple[str, str]], tuple[str, ...], list[str]]:
    """The questions and answers, the right figures and the table of ``language``
    (continental figures under ``(in Mio. EUR)`` in the lexicons with spaces; English figures
    in Chinese, Japanese and Korean)."""
    spaced = language not in WITHOUT_SPACES
    rows, *asked = CASES[language]
    figures = FIGURES if spaced else ENGLISH_FIGURES
    lines = ["(in Mio. EUR)"] if spaced else []
    lines += ["| | 2023 | 2022 |", "|---|---|---|"]
    lines += [f"| {label} | {a} | {b} |" for label, (a, b) in zip(rows, figures, strict=True)]
    return asked, RIGHT if spaced else RIGHT_POINT, ["\n".join(lines)]


@pytest.mark.parametrize("language", sorted(CASES))
@pytest.mark.parametrize("ratio", [0, 1, 2])
def test_the_ratio_a_question_names_is_traced(language: str, ratio: int) -> None:
    asked, right, table = _case(language)
    question, answer = asked[ratio]
    report = check_grounding(answer.format(right[ratio]), table, question=question)
    assert report.grounded, report.findings
    assert [t.rule for t in report.quantities if t.quantity.unit == "%"] == ["ratio"]


@pytest.mark.parametrize("language", sorted(CASES))
def test_another_ratios_figure_is_not(language: str) -> None:
    """The operating margin's figure given for the gross margin the question names."""
    asked, right, table = _case(language)
    question, answer = asked[0]
    report = check_grounding(answer.format(right[1]), table, question=question)
    assert [f.kind for f in report.findings] == ["ungrounded_number"]


def test_a_total_row_in_another_language() -> None:
    """``Summe Umsatzerlöse`` is the row of ``umsatzerlöse`` (the lexicons' ``total_words``)."""
    table = [
        "| | 2023 |\n|---|---|\n| Summe Umsatzerlöse | 14.694 |\n"
        "| Umsatzkosten | -11.969 |\n| Sonstige Erträge | 50 |\n| Bruttoergebnis | 2.725 |"
    ]
    report = check_grounding(
        "Die Bruttomarge betrug 18,5 %.", table, question="Wie hoch war die Bruttomarge 2023?"
    )
    assert report.grounded, report.findings
