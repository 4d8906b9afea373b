"""A table laid out a cell per line, its empty cells written as blank-looking lines (a grid:
its rows are counted out line by line), under a page's title or above its footer (issue 33,
point 1: documents as retrievers hand them over). The title's lines and the footer's are no
cells: the grid is found between them, so that its header rows still head its columns. A
page whose table has no empty cell is no grid found by counting (a title of a row's length
would count out as a header row); it is read line by line, as before."""

from __future__ import annotations

import pytest

from hybridjudge.grounding import GroundingChecker, check_grounding
from hybridjudge.grounding._layout import read_layout
from hybridjudge.grounding._normalize import normalize

GRID = [
    "Income statement expense", " ", " ", " ",
    " ", "2019 €m", "2018 €m", "2017 €m",
    "Defined contribution schemes", "166", "178", "192",
    "Defined benefit schemes", "57", "44", "20",
    "Total amount charged to income statement (note 23)", "223", "222", "212",
]  # fmt: skip
TITLES = {
    "none": ([], []),
    "title and a blank line": (["Pension costs", ""], []),
    "title": (["Pension costs"], []),
    "two title lines": (["Vodafone Group Plc", "Pensions"], []),
    "footer": ([], ["See accompanying notes.", "47"]),
    "title and footer": (["Pension costs"], ["See accompanying notes.", "47"]),
}
QUESTION = "What was the change in the defined benefit schemes from 2017 to 2019?"


def _page(name: str) -> str:
    above, below = TITLES[name]
    return "\n".join([*above, *GRID, *below])


@pytest.mark.parametrize("name", list(TITLES))
def test_the_header_rows_head_their_columns_under_a_title(name: str) -> None:
    laid = read_layout(normalize(_page(name))).text
    assert "\n \t2019 €m\t2018 €m\t2017 €m\n" in laid
    assert "\ndefined benefit schemes\t57\t44\t20\n" in laid


@pytest.mark.parametrize("name", list(TITLES))
def test_a_change_between_the_columns_a_question_names(name: str) -> None:
    # 57 - 20: the columns told by their years
    report = check_grounding("€37m", [_page(name)], question=QUESTION)
    assert [f.kind for f in report.findings] == []
    assert report.quantities[0].derivation == "€37m = 57 - 20"


@pytest.mark.parametrize("name", list(TITLES))
def test_the_evidence_names_the_column(name: str) -> None:
    report = GroundingChecker(_page(name)).check("Defined benefit schemes cost €60m in 2019.")
    evidence = report.findings[0].evidence
    assert evidence is not None
    assert evidence.endswith('row "Defined benefit schemes", column "2019 €m")')


def test_a_title_of_a_row_s_length_over_a_table_without_empty_cells_is_no_header() -> None:
    # three title lines over a table two figures wide: counted out, they would make a row
    page = "\n".join(
        ["ACME CORP. 2019 ANNUAL REPORT", "Revenue by segment", "(in millions)", "Segment",
         "2019", "2018", "Products", "$", "16,525", "$", "14,020", "Services", "3,676.2",
         "460.8", "47"]
    )  # fmt: skip
    laid = read_layout(normalize(page)).text
    assert laid.startswith("acme corp. 2019 annual report\nrevenue by segment\n(in millions)\n")
