"""Tables handed over as CSV or TSV rows (``validity/tatqa.py --layout csv`` / ``tsv``
measures them on TAT-QA: bare arithmetic 80.6% / 91.1% before 5238dc9, 91.2% / 91.5% after it,
92.1% / 92.1% since the header rows with empty cells, the curly quotes and the dates across
rows below; pipe rows 92.1%). Values hand computed."""

from __future__ import annotations

from hybridjudge.grounding import check_grounding
from hybridjudge.grounding._quantities import scan

QUOTED = (
    ",2019,2018,2017\n"
    'Automotive,"$ 5,686","$ 6,092","$ 5,228"\n'
    '"Aerospace, defense, oil, and gas","1,306","1,157","1,075"\n'
    "Appliances,680,774,676"
)


def test_quoted_csv_a_comma_outside_quotes_separates() -> None:
    """A CSV writer quotes every cell holding a comma, so ``680,774,676`` is three cells (it
    was the figure 680,774,676), and ``"1,306"`` one."""
    assert check_grounding("Appliances: 680 in 2019 and 774 in 2018.", [QUOTED]).grounded
    assert check_grounding("Aerospace: 1,306 in 2019.", [QUOTED]).grounded
    report = check_grounding(
        "Appliances fell by 94.",
        [QUOTED],
        question="What was the change in appliances between 2018 and 2019?",
    )
    assert report.grounded  # 680 - 774
    assert not check_grounding("Appliances: 680,774,676.", [QUOTED]).grounded


UNQUOTED = (
    "Income statement expense,,,\n"
    ",2019 €m,2018 €m,2017 €m\n"
    "Defined contribution schemes,166,178,192\n"
    "Defined benefit schemes,57,44,20\n"
    "Total amount charged,223,222,212"
)


def test_unquoted_csv_rows_as_wide_as_the_table() -> None:
    """``166,178,192`` could group one figure's thousands, but the table's other rows hold
    three commas that separate for sure: so does this row's three."""
    assert check_grounding("Defined contribution schemes cost €166m in 2019.", [UNQUOTED]).grounded
    assert not check_grounding("It was 166,178,192.", [UNQUOTED]).grounded


def test_figures_on_lines_of_their_own_stay_whole() -> None:
    """A PDF page's figures, one per line (``(1,000,346)``), beside labels glued by commas: no
    row width is set by lines without a digit, and a lone figure opens no row."""
    page = (
        "cash,cashequivalentsandrestrictedcash,beginningoftheyear\n"
        "(1,322,362)\n(1,000,346)\n"
        "cash,cashequivalentsandrestrictedcash,endoftheyear\n"
        "1,098,706\n3,201,863"
    )
    assert check_grounding("Purchases were 1,000,346.", [page]).grounded
    assert not check_grounding("It was 1,000.", [page]).grounded


def test_a_tab_ends_a_figures_cell() -> None:
    """``2019\\t% Change 2018 to 2019``: the ``%`` of the next cell is not the year's (it was
    read as 2019%, and the column lost its year)."""
    table = (
        "($ in thousands)\t2019\t% Change 2018 to 2019\t2018\n"
        "Services\t$59,545\t(8)%\t$64,476\n"
        "Total revenue\t$63,333\t(9)%\t$69,549"
    )
    question = "What was the change in services between 2018 and 2019?"
    report = check_grounding("It was -4,931.", [table], question=question)  # 59,545 - 64,476
    assert report.grounded
    assert [t.rule for t in report.quantities] == ["difference"]


TSV_DATES = (
    "\tDomestic\t\tForeign\t\n"
    "\tJune 30,\t\tJune 30,\t\n"
    "\t2023\t2022\t2023\t2022\n"
    "Discount rate\t5.10%\t4.60%\t3.30%\t2.90%"
)


def test_a_date_does_not_run_from_a_row_of_tab_separated_cells_into_the_next() -> None:
    """``June 30,<tab>`` closes a row and ``<tab>2023`` opens the next: no date ``June 30,
    2023`` (it took the first column's year, so the question's 2023 found one column of two)."""
    report = check_grounding(
        "The difference was 1.8%.",  # 5.10 - 3.30, both in a 2023 column
        [TSV_DATES],
        question="What is the difference between the domestic and foreign discount rates in 2023?",
    )
    assert report.grounded
    dates = [q.text for q in scan(TSV_DATES).quantities if q.kind == "date"]
    assert dates == ["June 30", "June 30"]
    # a date over a line break of running text, as a PDF extractor breaks it, is still one
    assert [q.text for q in scan("On June 30,\n2023 and December 31,\r\n2022").quantities] == [
        "June 30,\n2023",
        "December 31,\r\n2022",
    ]


YEAR_RANGES = (
    ",,Stores on leases\n"
    ",Ground,Building\n"
    "Expiring,leases,leases\n"
    "2025 - 2029,412,638\n"
    "2030 - 2034,57,126"
)


def test_csv_header_rows_with_empty_cells_set_the_rows_width() -> None:
    """Every data row's commas could group a figure (``2029,412,638``, ``57,126``); the header
    rows with an empty cell are rows for sure, two commas wide, so each comma separates."""
    report = check_grounding(
        "There were 226 more building leases.",  # 638 - 412
        [YEAR_RANGES],
        question="What is the difference between ground and building leases in 2025 - 2029?",
    )
    assert report.grounded
    assert check_grounding("57 ground leases expire in 2030 - 2034.", [YEAR_RANGES]).grounded
    assert not check_grounding("57,126 leases expire.", [YEAR_RANGES]).grounded


CURLY = ',2023,2022\nNorthwind Ltd. (“Northwind”),31%,27%\n"Contoso Co., Ltd. (“Contoso”)",14%,9%'


def test_a_curly_quote_in_a_quoted_csv_cell_is_no_csv_quote() -> None:
    """The CSV writer quotes ``Contoso Co., Ltd. (“Contoso”)`` with straight quotes; the curly
    ones inside, folded to ``"`` by normalisation, no longer end the cell (the row was read as
    running text: no cells)."""
    report = check_grounding(
        "Together they were 45% of revenue in 2023.",  # 31% + 14%
        [CURLY],
        question="What is the total share of revenue from Northwind and Contoso in 2023?",
    )
    assert report.grounded
