"""Rules found on annual reports as pypdf extracts them (validity/financebench_pdfs.py).

Each case is hand-built from a line of a filing as pypdf returns it (a row on one line, its cells
apart by spaces) and read by hand: the row's figures are in the scale the statement heads them
with, a bracketed cell is negative, a footnote letter is no scale.
"""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding

AMCOR = """Two Year Review of Results
(in millions) 2023 2022
Net sales $ 14,694 100.0 % $ 14,544 100.0 %
Interest expense (290) (2.0) (159) (1.1)
Research and development expenses (101) (0.7) (96) (0.7)
Net income $ 1,058 7.2 % $ 815 5.6 %"""


@pytest.mark.parametrize(
    ("answer", "grounded"),
    [
        ("Interest expense was -$290 million.", True),  # "(290)": a cell of a row, negative
        ("Research and development expenses were -$101 million.", True),
        ("Interest expense was $290 million.", True),  # an expense named by its magnitude
        ("Interest expense was -$291 million.", False),
        ("Net income was -$1,058 million.", False),  # a positive cell made negative
    ],
)
def test_a_bracketed_cell_of_a_row_apart_by_spaces_is_negative(answer: str, grounded: bool) -> None:
    assert check_grounding(answer, AMCOR).grounded is grounded


def test_a_bracketed_figure_in_prose_is_no_cell() -> None:
    # "(290)" in running text is an aside, not an accounting negative: -290 stands nowhere
    context = "The plant employs many people (290) across two shifts."
    assert not check_grounding("It employs -290 people.", context).grounded
    assert check_grounding("It employs 290 people.", context).grounded


GENERAL_MILLS = """In Millions, Except Per Share Data, Percentages and Ratios 2020 (a) 2019 2018
Net sales $ 17,626.6 $ 16,865.2 $ 15,740.4
Gross margin (b) (d) 6,129.9 5,756.8 5,435.6
Research and development expense 224.4 221.9 219.1"""


def test_a_footnote_letter_in_brackets_states_no_scale() -> None:
    # "(b)" after "Gross margin" marks a note; read as "billions" it put the rows below it in
    # billions and $219.1 million stood nowhere
    report = check_grounding("Research and development expense was $219.1 million.", GENERAL_MILLS)
    assert report.grounded, report.findings
    assert not check_grounding(
        "Research and development expense was $219.1 billion.", GENERAL_MILLS
    ).grounded


def test_a_currency_with_a_letter_still_states_a_scale() -> None:
    assert check_grounding("Revenue was €5.2 billion.", "Revenue (€m) 5,200 4,900").grounded
    assert check_grounding("Revenue was $5.2 billion.", "Revenue ($b) 5.2 4.9").grounded


@pytest.mark.parametrize(
    "answer",
    [
        "It paid $389 million (since 1 billion is equal to 1,000 million), or $0.389 billion.",
        "It paid $389 million; 1 billion = 1,000 million, so $0.389 billion.",
        "It paid $389 million, that is $0.389 billion (1,000 million equals 1 billion).",
    ],
)
def test_a_definition_of_a_scale_word_is_working(answer: str) -> None:
    report = check_grounding(answer, "(in millions)\nDividends paid (389) (364)")
    assert report.grounded, report.findings
    assert {t.quantity.text: t.source for t in report.quantities}["1,000 million"] == "working"


def test_a_figure_that_is_no_definition_is_still_checked() -> None:
    report = check_grounding("It paid 1,000 million.", "(in millions)\nDividends paid (389)")
    assert report.kinds == {"ungrounded_number"}


TABLE = """Balance (in millions) | 2019 | 2018
Income taxes payable | 54 | 97
Accrued interest | 30 | 5"""


def test_a_question_naming_a_row_and_no_operation_asks_for_a_stated_figure() -> None:
    # 76 = (54 + 97) / 2 and 25 = 30 - 5: arithmetic of the page, but the question asks for a
    # figure the row states, so neither explains a wrong figure
    q = "What was income taxes payable?"
    assert not check_grounding("Income taxes payable was $76 million.", TABLE, question=q).grounded
    assert check_grounding("Income taxes payable was $54 million.", TABLE, question=q).grounded
    q2 = "What was accrued interest?"
    assert not check_grounding("Accrued interest was $25 million.", TABLE, question=q2).grounded


def test_a_question_asking_for_an_operation_still_gets_its_derivation() -> None:
    avg = "What was the average income taxes payable?"
    assert check_grounding("It was $75.5 million.", TABLE, question=avg).grounded
    total = "What was the total accrued interest?"
    assert check_grounding("It was $35 million.", TABLE, question=total).grounded
    change = "What was the change in accrued interest?"
    assert check_grounding("It rose by $25 million.", TABLE, question=change).grounded


# pdfplumber (pdfminer's layout) writes a statement's rows with their cells one space apart, and
# pypdf some rows of a statement so (ADOBE 2022 10-K, consolidated balance sheets, p. 53: the
# lines as the extractors return them)
ONE_SPACE = """CONSOLIDATED BALANCE SHEETS
(In millions, except par value)
December 2, December 3,
2022 2021
Current liabilities:
Trade payables $ 379 $ 312
Accrued expenses 1,790 1,736
Debt 500 —
Deferred revenue 5,297 4,733
Income taxes payable 75 54
Operating lease liabilities 87 97
Total current liabilities 8,128 6,932"""


def test_rows_whose_cells_stand_one_space_apart_are_rows() -> None:
    # 76 = 27,241 - 27,165 (by hand), two other cells of the page: the question names the row
    # "Income taxes payable" and no operation, so no difference explains a wrong figure, once
    # the lines are read as rows (before, they were text, and the difference explained it)
    page = ONE_SPACE + "\nTotal assets $ 27,165 $ 27,241"
    q = "What was Income taxes payable?"
    assert not check_grounding("Income taxes payable was $76 million.", page, question=q).grounded
    assert check_grounding("Income taxes payable was $75 million.", page, question=q).grounded
    assert check_grounding("Income taxes payable was $54 million.", page, question=q).grounded


@pytest.mark.parametrize(
    ("text", "rows"),
    [
        # cells one space apart, a currency sign and a percent sign apart from their figure
        (
            "Digital Media $ 12,385 $ 11,048 12 %\nDigital Experience 3,880 3,379 15 %",
            "digital media|$ 12,385|$ 11,048|12 %\ndigital experience|3,880|3,379|15 %",
        ),
        ("Debt 500 -\nDeferred revenue 5,297 4,733", "debt|500|-\ndeferred revenue|5,297|4,733"),
        # a date, a lone line ending with two figures, working: no rows
        ("December 31, 2019\nAugust 31, 2018 (1)", "december 31, 2019\naugust 31, 2018 (1)"),
        ("Revenue was 5 6\n\n\n\nand then 7 8", "revenue was 5 6\n\n\n\nand then 7 8"),
        (
            "CAGR = (1.0089)^(1/2) - 1\nCAGR = 1.00447 - 1",
            "cagr = (1.0089)^(1/2) - 1\ncagr = 1.00447 - 1",
        ),
    ],
)
def test_which_lines_are_rows_one_space_apart(text: str, rows: str) -> None:
    from hybridjudge.grounding._normalize import normalize, spaced_cells

    assert spaced_cells(normalize(text).text) == rows


CASH = """(in millions)
Cash $ 750 $ - $ - $ 750
Cash equivalents:
Money market funds 2,914 - - 2,914
Time deposits 175 - - 175
Total cash equivalents 3,094 - - 3,094
Total cash and cash equivalents 3,844 - - 3,844"""


def test_a_figure_of_the_row_asked_for_with_its_sign_flipped_is_no_derivation() -> None:
    # -3,094 = 750 - 3,844 (by hand), two other cells of the rows the question's words name; but
    # the row asked for states 3,094: the answer flips its sign (ADOBE 2022 10-K, p. 70)
    q = "What was Total cash equivalents?"
    assert check_grounding("Total cash equivalents was $3,094 million.", CASH, question=q).grounded
    report = check_grounding("Total cash equivalents was -$3,094 million.", CASH, question=q)
    assert report.kinds == {"ungrounded_number"}
    # a question asking for a change still gets a negative difference
    change = "What was the change from cash to total cash and cash equivalents?"
    assert check_grounding("It changed by $3,094 million.", CASH, question=change).grounded


# pdfminer's extract_text of the same balance sheet: the labels in one block, each column of
# figures in a block of its own (no row left to name)
BLOCKS = """(In millions, except par value)

Current liabilities:
Trade payables
Accrued expenses
Income taxes payable
Operating lease liabilities

379
1,790
75
87

312
1,736
54
97"""


def test_a_question_naming_a_label_of_a_block_of_labels_asks_for_a_stated_figure() -> None:
    # (54 + 97) / 2 = 75.5, which rounds to 76 (by hand): the mean of two figures of the page
    # explained $76 million before; the question names the label "Income taxes payable" of the
    # block of labels and no operation, so it asks for a figure the page states
    q = "What was Income taxes payable?"
    assert not check_grounding("Income taxes payable was $76 million.", BLOCKS, question=q).grounded
    assert check_grounding("Income taxes payable was $75 million.", BLOCKS, question=q).grounded
    # a question asking for an operation still gets it: (75 + 54) / 2 = 64.5
    avg = "What was the average of Income taxes payable over the two years?"
    assert check_grounding("It was $64.5 million.", BLOCKS, question=avg).grounded


# pdfminer's extract_text of an intangibles table: its years, then the labels, then a block of
# figures for each column (a "$" before the first); the rule for a cell per line joins the
# years and the labels into one row, so the labels were no block of labels any more
INTANGIBLES = """Other intangibles, net, as of December 2, 2022 were as follows:
(in millions)
2022
2021
Customer contracts and relationships
Purchased technology
Trademarks
Other
Other intangibles, net
$
1,204
1,060
375
61
2,700
$
834
709
248
29
1,820
"""


def test_the_labels_of_a_block_are_read_before_the_layout_joins_them() -> None:
    # 375 + 61 = 436 (by hand): a sum of two figures of the page explained $436 million before;
    # the question names "Trademarks" of the block of labels and no operation
    q = "What was Trademarks?"
    assert check_grounding("Trademarks was $375 million.", INTANGIBLES, question=q).grounded
    report = check_grounding("Trademarks was $436 million.", INTANGIBLES, question=q)
    assert report.kinds == {"ungrounded_number"}
    # a question asking for the sum still gets it
    total = "What was the sum of Trademarks and Other in 2022?"
    assert check_grounding("It was $436 million.", INTANGIBLES, question=total).grounded


CASH_FLOW = """(in millions) | 2022 | 2021
Cash and cash equivalents at beginning of year | 3,604 | 3,160
Net change in cash and cash equivalents | 444 | 444
Cash and cash equivalents at end of year | 3,160 | 3,604
Cost of revenue, total | 48,881 | 51,896"""


def test_a_question_whose_change_word_is_the_rows_own_label_asks_for_the_stated_figure() -> None:
    # 3,160 - 3,604 = -444 (by hand): a change along two other rows; but "What was Net change
    # in cash and cash equivalents?" names the row "Net change in cash and cash equivalents"
    # (its "change" asks for nothing), which states 444: -$444 million flips its sign
    q = "What was Net change in cash and cash equivalents in 2022?"
    report = check_grounding("It was -$444 million.", CASH_FLOW, question=q)
    assert report.kinds == {"ungrounded_number"}
    assert check_grounding("It was $444 million.", CASH_FLOW, question=q).grounded
    # over two years the label's words may ask for an operation: 48,881 + 51,896 = 100,777
    both = "What is the Cost of revenue, total in both 2022 and 2021?"
    assert check_grounding("It was $100,777 million.", CASH_FLOW, question=both).grounded
