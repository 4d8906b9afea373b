"""How a text ends its lines does not change how its table is read: a page's text as an
extractor returns it usually ends with a line break (pdfminer with a form feed, ``\\n\\x0c``),
and a file written on Windows ends each line with ``\\r\\n``. A table laid out a cell per line
is read by counting its lines, so at 83eee4e a final line break made the table no grid (its
header row of statements no longer headed its columns) and ``\\r`` made no line a figure's
(TAT-QA in PDF text: bare arithmetic 92.3% -> 90.5% with a final line break, 47.8% with
``\\r\\n``). The same verdicts as with ``\\n`` alone, by hand: the shares columns are in
thousands (``3,380 thousand shares``; not ``7,250 million``), the dollars column in millions
(``$2.15 billion``; not ``$2,150 thousand``)."""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding
from tests.grounding.test_glued_text import REPURCHASES

_PAGE = "\n".join((c or " ").replace("$ ", "$\n") for r in REPURCHASES for c in r)
"""A cell per line, ``$`` on its own line, an empty cell a line holding a space."""

_VERDICTS = {
    "3,380 thousand shares": True,
    "7.25 million shares": True,
    "306.3 million shares": True,
    "$2.15 billion": True,
    "$68.97": True,
    "7,250 million shares": False,
    "$2,150 thousand": False,
}

ENDINGS = {
    "a final line break": _PAGE + "\n",
    "a form feed": _PAGE + "\n\x0c",
    "two line breaks": _PAGE + "\n\n",
    "windows line ends": _PAGE.replace("\n", "\r\n"),
    "windows line ends and a final one": _PAGE.replace("\n", "\r\n") + "\r\n",
    "old mac line ends": _PAGE.replace("\n", "\r"),
}


def test_the_page_as_written_is_read_by_hand() -> None:
    verdicts = {a: check_grounding(a, [_PAGE]).grounded for a in _VERDICTS}
    assert verdicts == _VERDICTS


@pytest.mark.parametrize("ending", list(ENDINGS))
def test_a_pages_line_ends_keep_its_verdicts(ending: str) -> None:
    page = ENDINGS[ending]
    verdicts = {a: check_grounding(a, [page]).grounded for a in _VERDICTS}
    assert verdicts == _VERDICTS


def test_a_figure_read_across_windows_line_ends_keeps_its_span() -> None:
    # the carriage return is read as a blank, one character for one: spans stay the original's
    page = "Revenue\r\n$\r\n5,428\r\n$\r\n4,756\r\nCosts\r\n$\r\n3,100\r\n$\r\n2,900\r\n"
    report = check_grounding("Revenue was $5,428.", [page])
    assert report.grounded
    a, b = report.quantities[0].span
    assert page[a:b] == "5,428"


_CSV = [
    ",Number of Shares (thousands),Weighted-Average Grant Date Fair Value,Remaining Term (years)",
    '"Nonvested as of December 31, 2018","4,100",$6.51,',
    'Granted,"2,000",$6.74,',
    'Released,"(1,000)",$6.60,',
    'Canceled,"(500)",$6.57,',
    '"Nonvested as of December 31, 2019","4,600",$6.59,1.81',
]


@pytest.mark.parametrize("end", [" \n", "\r\n"])
def test_csv_rows_that_end_with_blanks_are_rows(end: str) -> None:
    # a row whose last cell is empty, then blanks (or a carriage return, read as one): no
    # prose's ", " but the end of a row, so its commas separate cells and the question names
    # its rows (4,100 + 4,600 = 8,700)
    text = end.join(_CSV) + end
    question = "What is the total number of nonvested shares as of December 31, 2019 and 2018?"
    assert check_grounding("8,700 thousand", [text], question=question).grounded
    assert not check_grounding("8,800 thousand", [text], question=question).grounded
