"""A figure computed from cells whose block states their scale takes that scale: under ``(in
millions)``, 5,428 - 4,756 = 672 is $672 million (or $0.672 billion, $672,000,000), not $672
thousand nor $672 billion, as a cell is not (``$5,428 thousand`` was a finding already; the
computed figure was grounded with any scale word, the answer's mantissa read in the table's
units). Without a statement the table's units are unknown and the answer's scale word stands;
a caption in a passage of its own keeps that reading too (docs/grounding.md). By hand: 5,428 -
4,756 = 672; 2,345 - (-1,234) = 3,579; 12,500 - 10,000 = 2,500."""

from __future__ import annotations

from fractions import Fraction

import pytest

from hybridjudge.grounding import check_grounding, parse_quantities

_ROWS = "Year | 2023 | 2022\nNet income | 5,428 | 4,756"
_QUESTION = "How much did net income change from 2022 to 2023?"

STATED = {
    "pipe": "(in millions)\n" + _ROWS,
    "markdown": "(In millions)\n\n| | 2023 | 2022 |\n|---|---|---|\n| Net income | 5,428 | 4,756 |",
    "cell per line": "(In millions)\n2023\n2022\nNet income\n$\n5,428\n$\n4,756\nTotal\n$\n9\n$\n8\n",
    "dollars in millions": "Dollars in millions\n" + _ROWS,
}


@pytest.mark.parametrize("layout", sorted(STATED))
@pytest.mark.parametrize(
    ("answer", "grounded"),
    [
        ("Net income rose by $672 million.", True),
        ("Net income rose by $0.672 billion.", True),
        ("Net income rose by $672,000,000.", True),
        ("Net income rose by 672.", True),  # the table's own units, no scale word
        ("Net income rose by $672 thousand.", False),
        ("Net income rose by $672 billion.", False),
    ],
)
def test_a_computed_figure_takes_the_stated_scale(layout: str, answer: str, grounded: bool) -> None:
    report = check_grounding(answer, STATED[layout], question=_QUESTION)
    assert report.grounded is grounded, report.findings


@pytest.mark.parametrize(
    "answer", ["Net income rose by $672 thousand.", "Net income rose by $672 billion."]
)
def test_without_a_statement_the_answer_states_the_scale(answer: str) -> None:
    assert check_grounding(answer, _ROWS, question=_QUESTION).grounded
    caption = ["Net income (in thousands):", _ROWS]  # a caption of its own: as before
    assert check_grounding(answer, caption, question=_QUESTION).grounded


@pytest.mark.parametrize(
    ("context", "answer", "grounded"),
    [
        ("(in Mio. €)\nPosten | 2023 | 2022\nUmsatz | 12.500 | 10.000", "um 2.500 Mio. €", True),
        ("(in Mio. €)\nPosten | 2023 | 2022\nUmsatz | 12.500 | 10.000", "um 2.500 Tsd. €", False),
        ("(in Mio. €)\nPosten | 2023 | 2022\nUmsatz | 12.500 | 10.000", "um 2,5 Mrd. €", True),
        ("(in Mio. €)\nPosten | 2023 | 2022\nUmsatz | 12.500 | 10.000", "um 2.500 Mrd. €", False),
        ("(in TEUR)\nPosten | 2023 | 2022\nUmsatz | 12.500 | 10.000", "um 2.500 TEUR", True),
        ("(in TEUR)\nPosten | 2023 | 2022\nUmsatz | 12.500 | 10.000", "um 2.500 Tsd. €", True),
        ("(in TEUR)\nPosten | 2023 | 2022\nUmsatz | 12.500 | 10.000", "um 2,5 Mio. €", True),
        ("(in TEUR)\nPosten | 2023 | 2022\nUmsatz | 12.500 | 10.000", "um 2.500 Mio. €", False),
        (
            "（単位：百万円）\n区分 | 前期 | 当期\n営業利益 | 2,345 | △1,234",
            "3,579百万円減少",
            True,
        ),
        ("（単位：百万円）\n区分 | 前期 | 当期\n営業利益 | 2,345 | △1,234", "3,579千円減少", False),
    ],
)
def test_in_the_words_of_other_languages(context: str, answer: str, grounded: bool) -> None:
    question = "Wie stark stieg der Umsatz?" if "Umsatz" in context else "営業利益の変化は？"
    text = f"Der Umsatz stieg {answer}." if "Umsatz" in context else f"営業利益は{answer}しました。"
    assert check_grounding(text, context, question=question).grounded is grounded


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # German reports' thousands after a figure: Tsd. (figure_scales), TEUR and KEUR (the
        # scale before "eur", as before "€": 2.500 T€)
        ("Der Umsatz betrug 12.500 TEUR.", Fraction(12_500_000)),
        ("Der Umsatz betrug 12.500 KEUR.", Fraction(12_500_000)),
        ("Der Umsatz betrug 12.500 Tsd. €.", Fraction(12_500_000)),
        ("Der Umsatz betrug 12.500 T€.", Fraction(12_500_000)),
        ("Der Umsatz betrug 5 MEUR.", Fraction(5_000_000)),
    ],
)
def test_german_thousands_after_a_figure(text: str, value: Fraction) -> None:
    (q,) = parse_quantities(text)
    assert (q.value, q.dimension) == (value, "currency-eur")
