"""A row of amounts per share is not scaled by the statement above its table: under ``(In
millions, except per share amounts)``, and under ``(in millions)`` alone, ``Diluted earnings per
share $ 11.82`` is $11.82, not $11.82 million (the lexicons' ``scale_statement.unscaled_rows``
and, under a heading ``Earnings per share:``, the rows ``Basic`` and ``Diluted``:
``unscaled_sublabels``). Differences by hand: 11.82 - 10.10 = 1.72; 5,428 - 4,756 = 672."""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding

_HEAD = "CONSOLIDATED STATEMENTS OF INCOME\n(In millions, except per share amounts)\n"

LAYOUTS = {
    # pypdf: a row on one line, the currency sign apart from its figure
    "rows": _HEAD
    + "Year ended December 31, 2023 2022\n"
    + "Net income $ 5,428 $ 4,756\n"
    + "Diluted earnings per share $ 11.82 $ 10.10\n",
    # a cell per line, "$" on its own line (as a PDF extractor writes a statement)
    "cell per line": _HEAD
    + "2023\n2022\nNet income\n$\n5,428\n$\n4,756\n"
    + "Diluted earnings per share\n$\n11.82\n$\n10.10\n",
    # a Markdown table
    "markdown": _HEAD
    + "\n| | 2023 | 2022 |\n|---|---|---|\n| Net income | $ 5,428 | $ 4,756 |\n"
    + "| Diluted earnings per share | $ 11.82 | $ 10.10 |\n",
    # a heading, then its rows Basic and Diluted
    "heading": _HEAD
    + "Year ended December 31 | 2023 | 2022\nNet income | 5,428 | 4,756\n"
    + "Earnings per share:\nBasic | $ 11.95 | $ 10.21\nDiluted | $ 11.82 | $ 10.10\n",
    # under "(in millions)" alone: an amount per share is still no amount in millions
    "no except": "(in millions)\nYear | 2023 | 2022\nNet income | 5,428 | 4,756\n"
    + "Diluted earnings per share | 11.82 | 10.10\n",
}


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize(
    ("answer", "grounded"),
    [
        ("Diluted earnings per share were $11.82 in 2023.", True),
        ("Diluted EPS rose by $1.72.", True),
        # a difference of amounts per share takes no scale word of the answer's either
        ("Diluted EPS rose by $1.72 million.", False),
        ("Diluted EPS rose by 1.72 million dollars.", False),
        ("Diluted earnings per share were $11.82 million in 2023.", False),
        ("Diluted earnings per share were $11.82 billion in 2023.", False),
        # the statement still scales the other rows
        ("Net income was $5,428 million in 2023.", True),
        ("Net income rose by $672 million.", True),
        ("Net income was $5,428 billion in 2023.", False),
    ],
)
def test_an_amount_per_share_is_not_scaled(layout: str, answer: str, grounded: bool) -> None:
    report = check_grounding(answer, LAYOUTS[layout])
    assert report.grounded is grounded, report.findings


@pytest.mark.parametrize(
    "context",
    [
        # German and French statements: je Aktie, par action
        "(in Mio. €)\nKonzernergebnis | 5.428 | 4.756\nErgebnis je Aktie | 11,82 | 10,10\n",
        "(en millions d'euros)\nRésultat net | 5 428 | 4 756\nRésultat par action | 11,82 | 10,10\n",
    ],
)
def test_an_amount_per_share_in_the_words_of_a_language(context: str) -> None:
    assert check_grounding("11,82 €", context).grounded
    assert not check_grounding("11,82 Mio. €", context).grounded


def test_a_header_row_or_a_joined_line_is_no_row_per_share() -> None:
    # a row whose next cell is a year heads columns; a line whose label cell is followed by
    # another label joins several rows (pdfminer's blocks): the statement scales them as before
    header = "(in millions)\nCore loss per share\t2022\t2021\nNet loss\t(4,935)\t(4,202)\n"
    assert check_grounding("Net loss was -$4,935 million.", header).grounded
    joined = "(in millions)\nnet revenue\tcore loss per share\tnet loss\t(4,935)\t(4,202)\n"
    assert check_grounding("Net loss was -$4,935 million.", joined).grounded
