"""Pages whose words an extractor glued: pypdf writes a PDF without space glyphs as
``(Inmillions,exceptpershareamounts)``, ``DilutednetincomepercommonshareattributabletoWalmart``,
``Discountrate`` and ``January26,2019`` (12 of FinanceBench's 98 evidence pages hold such runs).
The statement glued still scales the table, a row of amounts per share glued is still unscaled,
a question still names a glued row by its words, and a glued date's comma separates no cells.
Each in PDF text (a cell per line) and in pipe rows. Figures by hand: 510,329 million = $510.3
billion; 4.00 - 1.90 = 2.10; (4.00 - 3.75) / 3.75 = 6.67%; 65.53 - 64.77 = 0.76."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from hybridjudge.grounding import check_grounding

Rows = list[tuple[str, str, str]]

_INCOME: Rows = [
    ("Netsales", "$ 510,329", "$ 495,761"),
    ("DilutednetincomepercommonshareattributabletoWalmart", "$ 2.26", "$ 3.28"),
]


def _pdf(head: str, rows: Rows = _INCOME, years: str = "2019\n2018") -> str:
    cells = "".join(
        f"{label}\n" + "".join(c.replace("$ ", "$\n") + "\n" for c in (a, b))
        for label, a, b in rows
    )
    return f"WalmartInc.\nConsolidatedStatementsofIncome\n{head}\n{years}\n{cells}"


def _pipe(head: str, rows: Rows = _INCOME, years: str = "2019\n2018") -> str:
    body = "".join(f"{label} | {a} | {b}\n" for label, a, b in rows)
    return f"WalmartInc.\nConsolidatedStatementsofIncome\n{head}\n | {years.replace(chr(10), ' | ')}\n{body}"


LAYOUTS: list[Callable[..., str]] = [_pdf, _pipe]


def _grounded(answer: str, page: str, question: str | None = None) -> bool:
    return check_grounding(answer, [page], question=question).grounded


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize(
    "head", ["(Inmillions,exceptpershareamounts)", "(Amountsinmillions,exceptpersharedata)"]
)
def test_a_glued_statement_scales_the_table(layout: Callable[..., str], head: str) -> None:
    page = layout(head)
    assert _grounded("Net sales were $510.3 billion in 2019.", page)
    assert _grounded("Net sales were $510,329 million in 2019.", page)
    # the statement says millions: thousands are another figure
    assert not _grounded("Net sales were $510,329 thousand in 2019.", page)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_glued_row_per_share_keeps_its_figures_unscaled(layout: Callable[..., str]) -> None:
    page = layout("(Inmillions,exceptpershareamounts)")
    assert _grounded("Diluted EPS was $2.26 in 2019.", page)
    assert not _grounded("Diluted EPS was $2.26 million in 2019.", page)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_glued_currency_statement_states_its_currency(layout: Callable[..., str]) -> None:
    page = layout("(Dollarsinmillions,exceptpersharedata)")
    assert _grounded("Net sales were $510.3 billion in 2019.", page)
    assert not _grounded("Net sales were $510,329 thousand in 2019.", page)


def test_spaced_words_inside_a_spaced_label_are_still_no_row_per_share() -> None:
    # "su(per share)s": the words stand inside another word of a label written with spaces
    page = _pipe("(In millions)", [("Super shares issued", "$ 5,428", "$ 4,756")])
    assert _grounded("Super shares issued were $5.4 billion.", page)  # a row per share: flagged


def _rates(labels: tuple[str, str, str], layout: str) -> str:
    rows = [
        ["", "Domestic", "", "International", ""],
        ["", "September 30,", "", "September 30,", ""],
        ["", "2019", "2018", "2019", "2018"],
        [labels[0], "4.00%", "3.75%", "1.90%", "2.80%"],
        [labels[1], "", "", "3.40%", "3.70%"],
        [labels[2], "-", "-", "3.20%", "3.10%"],
    ]
    if layout == "pipe":
        return "\n".join(" | ".join(r) for r in rows) + "\n"
    return "\n".join(c or " " for r in rows for c in r) + "\n"  # a cell per line


_GLUED_RATES = ("Discountrate", "Expectedreturnonplanassets", "Rateofcompensationincrease")
_DIFFERENCE = (
    "What is the difference between the domestic and international discount rates as at "
    "September 30, 2019?"
)


@pytest.mark.parametrize("layout", ["pipe", "pdf"])
def test_a_question_names_a_glued_row_by_its_words(layout: str) -> None:
    page = _rates(_GLUED_RATES, layout)
    assert _grounded("2.1%", page, _DIFFERENCE)  # 4.00 - 1.90, of the row "Discountrate"
    assert not _grounded("1.1%", page, _DIFFERENCE)
    change = "What is the year on year percentage change in domestic discount rate?"
    assert _grounded("6.67%", page, change)


def test_a_page_with_spaces_reads_no_one_word_label_as_glued() -> None:
    # no label of sixteen letters without a space: "Corporate" is one word, not "corpo" and
    # "rate", so the question's discount rate is the row that says so
    page = _rates(("Corporate", "Discount rate", "Rate of compensation increase"), "pipe")
    assert not _grounded("2.1%", page, _DIFFERENCE)  # 4.00 - 1.90, of the row "Corporate"
    assert _grounded("-0.3%", page, _DIFFERENCE)  # 3.40 - 3.70


REPURCHASES = [
    [
        "Period",
        "Total Number of Shares Purchased",
        "Average Price Paid per Share",
        "Total Number of Shares Purchased as Part of Publicly Announced Program",
        "Approximate Dollar Value of Shares That May Yet Be Purchased Under The Program",
    ],
    ["", "(Shares in thousands)", "", "(Shares in thousands)", "(Dollars in millions)"],
    ["January 26, 2019 - February 22, 2019", "262", "$ 64.77", "306,255", "$ 2,372"],
    ["February 23, 2019 - March 22, 2019", "3,380", "$ 65.53", "309,635", "$ 2,150"],
    ["March 23, 2019 - April 26, 2019", "3,608", "$ 72.49", "313,244", "$ 1,889"],
    ["Total", "7,250", "$ 68.97", "", ""],
]
"""A table of share repurchases, its statements heading its columns (the shares in thousands,
the dollars in millions, the price per share unscaled)."""
_REPURCHASES = [[c if c.startswith("$") else "".join(c.split()) for c in r] for r in REPURCHASES]
"""The same, each text cell's words glued."""


def _cells_per_line(rows: list[list[str]]) -> str:
    return "\n".join((c or " ").replace("$ ", "$\n") for r in rows for c in r)


def test_a_glued_dates_comma_separates_no_cells() -> None:
    # "26,2019" is no CSV cell separator: the price stays in its column, which no statement
    # scales (the columns of shares and of dollars have theirs)
    page = _cells_per_line(_REPURCHASES)
    question = "What was the change in average price paid per share between the first two periods?"
    assert _grounded("0.76", page, question)
    assert _grounded("3,380 thousand shares", page)
    assert _grounded("$2.15 billion", page)
    assert not _grounded("$2,150 thousand", page)
