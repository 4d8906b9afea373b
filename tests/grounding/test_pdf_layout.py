"""Tables laid out a cell per line, as a PDF extractor returns a statement: read as rows before
their figures, a lone currency sign joined to its figure, the statement's scale heading over the
page (``hybridjudge.grounding._layout``).

The golden cases are data (``data/pdf_layout_cases.json``), each with its verdict worked out by
hand.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hybridjudge.grounding import check_grounding
from hybridjudge.grounding._layout import (
    SCALE_WORDS,
    heading_word,
    is_cell_per_line,
    read_layout,
    scale_headings,
)
from hybridjudge.grounding._normalize import normalize

CASES: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "data" / "pdf_layout_cases.json").read_text(encoding="utf-8")
)["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden_case(case: dict[str, Any]) -> None:
    report = check_grounding(
        case["answer"], "\n".join(case["context"]), question=case.get("question"), answerable=None
    )
    flagged = [f.subject for f in report.findings if f.kind == "ungrounded_number"]
    assert (not flagged) == case["grounded"], (case["why"], flagged)


PAGE = "(MILLIONS)\n2021\n2020\nRevenues\n$\n81,288 \n$\n41,651 \nCosts:\n \n \nCost of sales\n30,821 \n8,484 "


def test_a_cell_per_line_becomes_rows_one_character_for_one() -> None:
    norm = normalize(PAGE)
    laid = read_layout(norm)
    assert len(laid.text) == len(PAGE)
    assert laid.text.split("\n") == [
        "(millions)\t2021\t2020",
        "revenues\t$ 81,288 \t$ 41,651 ",
        "costs:    ",  # the blank-looking lines join the line before: no block ends
        "cost of sales\t30,821 \t8,484 ",
    ]
    # a figure's span still points at the original text
    report = check_grounding("Revenues were $81,288 million.", PAGE, answerable=None)
    (trace,) = report.quantities
    assert trace.span is not None
    assert PAGE[trace.span[0] : trace.span[1]] == "$\n81,288"


@pytest.mark.parametrize(
    "text",
    [
        "Revenue | 2019 | 2018\nProducts | 125 | 100\nServices | 30 | 20",  # pipe rows
        "The plant opened in\n2019\nand employs\n350\npeople.",  # two figure lines
        "Step one.\nStep two.\nStep three.\nStep four.",  # no figure
    ],
)
def test_other_text_is_left_as_it_is(text: str) -> None:
    norm = normalize(text)
    assert not is_cell_per_line(norm.text)
    assert read_layout(norm) is norm


@pytest.mark.parametrize(
    ("heading", "scale"),
    [
        ("(millions, except per common share data)", 10**6),
        ("(millions)", 10**6),
        ("(thousands of dollars)", 10**3),
        ("(billions except per share amounts)", 10**9),
    ],
)
def test_scale_headings_come_from_the_data_file(heading: str, scale: int) -> None:
    m = scale_headings().search(heading)
    assert m is not None
    assert SCALE_WORDS[heading_word(m)] == scale


def test_a_scale_word_in_running_text_is_no_heading() -> None:
    assert scale_headings().search("revenue rose by millions") is None
    assert scale_headings().search("(in millions)") is None  # read by the 'in' statements


GRID = "($ in thousands)\n2023\n% Change\n2022\nServices\n$\n48,120\n(6)%\n$\n51,190\nLicences\n2,910\n(21)%\n3,684"


def test_the_header_rows_of_a_grid_are_read_by_counting_its_lines() -> None:
    # every cell on a line of its own, four columns: the first four lines are one header row
    # (they were four rows of their own: '($ in thousands)' with the cell 2023, '% change' with 2022)
    assert read_layout(normalize(GRID)).text.split("\n")[:2] == [
        "($ in thousands)\t2023\t% change\t2022",
        "services\t$ 48,120\t(6)%\t$ 51,190",
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Revenue by product\n" + GRID,  # a title above: the lines no longer count out rows
        GRID.replace("Licences\n2,910", "Licences\n \n2,910"),  # an empty cell width misses
    ],
    ids=["title above", "empty cell in a row"],
)
def test_a_text_that_is_no_grid_keeps_its_header_lines(text: str) -> None:
    laid = read_layout(normalize(text)).text
    assert "% change\t2022" in laid  # read line by line, as before: no header row
    assert "thousands)\t2023\t" not in laid


def test_a_figure_after_an_empty_cell_of_a_grid_stays_in_its_column() -> None:
    # the total has no useful life: its blank cell is counted, so $ 492 is the value's column
    # (it was joined to the label by a space, and read as the first column's)
    text = (
        " \nUseful life (in years)\nFair value\nTechnology\n4.2\n$\n232\nTrademarks\n5.0\n25\n"
        "Total\n \n$\n492"
    )
    assert read_layout(normalize(text)).text.split("\n") == [
        " \tuseful life (in years)\tfair value",
        "technology\t4.2\t$ 232",
        "trademarks\t5.0\t25",
        "total\t \t$ 492",
    ]
