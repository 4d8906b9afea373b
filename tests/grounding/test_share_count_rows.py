"""A row of share counts under a statement that excepts share data from its scale is counted in
shares: under ``(in thousands, except share and per share data)``, ``Weighted average shares
outstanding | 503,456,789`` is 503,456,789 shares, not 503,456,789 thousand, while the statement
still scales the other rows (the lexicons' ``excepted_rows`` and ``scale_statement.exceptions``).
Under ``except per share data`` alone the share counts are in the statement's scale, as before.
Figures by hand: 503,456,789 + 510,123,456 = 1,013,580,245; their mean 506,790,122.5; 510,123,456
- 503,456,789 = 6,666,667; 5,428 - 4,756 = 672."""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding

_ROWS = [
    ("Net revenue", "$ 5,428", "$ 4,756"),
    ("Diluted earnings per share", "$ 2.45", "$ 2.10"),
    ("Weighted average shares outstanding", "503,456,789", "510,123,456"),
]


Rows = list[tuple[str, str, str]]


def _pipe(head: str, rows: Rows = _ROWS) -> str:
    body = "".join(f"| {label} | {a} | {b} |\n" for label, a, b in rows)
    return f"CONSOLIDATED STATEMENTS OF INCOME\n{head}\n| | 2023 | 2022 |\n{body}"


def _markdown(head: str, rows: Rows = _ROWS) -> str:
    body = "".join(f"| {label} | {a} | {b} |\n" for label, a, b in rows)
    return f"{head}\n\n| | 2023 | 2022 |\n|---|---|---|\n{body}"


def _cell_per_line(head: str, rows: Rows = _ROWS) -> str:
    # as a PDF extractor writes a statement: a cell per line, "$" on its own line
    cells = "".join(
        f"{label}\n" + "".join(c.replace("$ ", "$\n") + "\n" for c in (a, b))
        for label, a, b in rows
    )
    return f"CONSOLIDATED STATEMENTS OF INCOME\n{head}\n2023\n2022\n{cells}"


def _html(head: str) -> str:
    rows = "".join(f"<tr><td>{label}</td><td>{a}</td><td>{b}</td></tr>" for label, a, b in _ROWS)
    return f"<p>{head}</p><table><tr><th></th><th>2023</th><th>2022</th></tr>{rows}</table>"


def _heading(head: str) -> str:
    # a heading without figures, then its rows Basic and Diluted
    return (
        f"{head}\nYear ended December 31 | 2023 | 2022\nNet revenue | 5,428 | 4,756\n"
        "Weighted average shares outstanding:\nBasic | 503,456,789 | 510,123,456\n"
        "Diluted | 505,000,000 | 512,000,000\n"
    )


LAYOUTS = {
    "pipe": _pipe,
    "markdown": _markdown,
    "cell per line": _cell_per_line,
    "html": _html,
    "heading": _heading,
}

EXCEPTING = [
    "(in thousands, except share and per share data)",
    "(In millions, except share data)",
    "($ in millions, except per share amounts and number of shares)",
    "(Dollars in thousands, except for share and per-share amounts)",
]


@pytest.mark.parametrize("head", EXCEPTING)
@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize(
    ("answer", "grounded"),
    [
        ("Weighted average shares outstanding were 503,456,789 in 2023.", True),
        ("Weighted average shares outstanding were 503.5 million in 2023.", True),
        ("Weighted average shares outstanding fell by 6,666,667 from 2022 to 2023.", True),
        ("Weighted average shares outstanding fell by 6.7 million from 2022 to 2023.", True),
        ("Over 2023 and 2022 the shares outstanding totalled 1,013,580,245.", True),
        # the statement's scale is no reading of an excepted row, nor an answer's own scale word
        ("Weighted average shares outstanding were 503,456,789 thousand in 2023.", False),
        ("Weighted average shares outstanding were 503,456,789 million in 2023.", False),
        ("Over 2023 and 2022 the shares outstanding totalled 1,013,580,245 million.", False),
        ("Weighted average shares outstanding fell by 6.7 from 2022 to 2023.", False),
    ],
)
def test_an_excepted_share_count_is_counted_in_shares(
    head: str, layout: str, answer: str, grounded: bool
) -> None:
    report = check_grounding(answer, LAYOUTS[layout](head))
    assert report.grounded is grounded, report.findings


@pytest.mark.parametrize("layout", ["pipe", "cell per line", "markdown"])
@pytest.mark.parametrize("head", EXCEPTING[:2])
def test_the_statement_still_scales_the_other_rows(layout: str, head: str) -> None:
    context = LAYOUTS[layout](head)
    scale = "thousand" if "thousands" in head else "million"
    assert check_grounding(f"Net revenue was ${5428:,} {scale} in 2023.", context).grounded
    assert check_grounding(f"Net revenue rose by $672 {scale}.", context).grounded
    assert check_grounding("Diluted earnings per share were $2.45 in 2023.", context).grounded
    assert not check_grounding("Diluted EPS were $2.45 million in 2023.", context).grounded


@pytest.mark.parametrize(
    "head",
    [
        "(in millions, except per share data)",
        "(In millions, except per common share amounts)",
        "(Millions, except per-share amounts)",
        "(in millions)",
    ],
)
def test_without_share_data_excepted_share_counts_take_the_statements_scale(head: str) -> None:
    # "except per share data" excepts amounts per share only: the share counts are in millions
    context = (
        f"{head}\n| | 2023 | 2022 |\n| Net revenue | 5,428 | 4,756 |\n"
        "| Weighted average shares outstanding | 503.5 | 510.1 |\n"
    )
    assert check_grounding("Weighted average shares were 503.5 million in 2023.", context).grounded
    assert check_grounding("The share count fell by 6.6 million.", context).grounded
    assert not check_grounding("The share count fell by 6.6 shares.", context).grounded


def test_shares_counted_for_earnings_per_share_are_no_amount_per_share() -> None:
    # the label names "per share" as the purpose of a count: the count is in the statement's
    # millions (254 million shares), not an amount per share that takes no scale word
    context = (
        "(in millions, except per share amounts)\n| | 2019 | 2018 |\n"
        "| Net income | 1,024 | 980 |\n"
        "| Shares used in computing basic earnings per share | 254 | 268 |\n"
        "| Basic earnings per share | 4.03 | 3.66 |\n"
    )
    assert check_grounding("254 million shares were used in 2019.", context).grounded
    assert check_grounding("The share count fell by 14 million.", context).grounded
    assert not check_grounding("Basic EPS was $4.03 million in 2019.", context).grounded


def test_a_share_count_written_in_a_label_is_read_as_before() -> None:
    # the figures of a label's text (a balance sheet's common stock line) are not a row's cells
    context = (
        "(In millions, except share and per share data)\n| | 2022 | 2021 |\n"
        "| Common stock ($0.01 par value; 500,000,000 shares authorized; 187,200,539 and "
        "186,880,413 shares issued) | 2 | 2 |\n| Total equity | 10,000 | 9,000 |\n"
    )
    assert check_grounding("187,200,539 shares were issued in 2022.", context).grounded
    assert check_grounding("About 187.2 million shares were issued.", context).grounded
    assert check_grounding("Common stock was $2 million in 2022.", context).grounded
    assert check_grounding("Total equity was $10 billion in 2022.", context).grounded


@pytest.mark.parametrize(
    "head",
    [
        # Apple's statements of operations
        "(In millions, except number of shares, which are reflected in thousands, and "
        "per-share amounts)",
        "(in millions, except per share data; shares in thousands)",
        # no exception: the shares are named with a scale of their own
        "(In millions, shares in thousands)",
        "($ in millions, shares in thousands, except per share data)",
        "Dollars in millions, shares in thousands",
    ],
)
@pytest.mark.parametrize("layout", ["pipe", "cell per line", "markdown"])
def test_an_exception_that_states_its_own_scale(head: str, layout: str) -> None:
    # "in thousands" inside the statement's qualifier scales the share counts alone, not the
    # table (it read every figure in thousands: $5,428 million was a finding, $5.4 million
    # grounded);
    # 16,215,963 - 15,744,231 = 471,732 thousand shares
    rows = [
        ("Net revenue", "$ 5,428", "$ 4,756"),
        ("Weighted average shares outstanding", "15,744,231", "16,215,963"),
        ("Diluted earnings per share", "$ 6.13", "$ 6.11"),
    ]
    context = {"pipe": _pipe, "cell per line": _cell_per_line, "markdown": _markdown}[layout](
        head, rows
    )
    assert check_grounding("Net revenue was $5,428 million in 2023.", context).grounded
    assert check_grounding("Net revenue rose by $672 million.", context).grounded
    assert not check_grounding("Net revenue was $5.4 million in 2023.", context).grounded
    assert check_grounding("Weighted average shares were 15.7 billion in 2023.", context).grounded
    assert check_grounding("The share count fell by 471.7 million.", context).grounded
    assert check_grounding("Diluted earnings per share were $6.13 in 2023.", context).grounded


def test_a_statement_further_on_in_running_text_is_read_as_before() -> None:
    # a bracket that opens ends a statement's qualifier: "(in thousands)" governs its table
    context = (
        "All amounts are in millions unless stated, and the table below (in thousands) shows "
        "revenue.\n| | 2023 | 2022 |\n| Revenue | 5,428 | 4,756 |\n"
    )
    assert check_grounding("Revenue was $5.4 million in 2023.", context).grounded
    assert not check_grounding("Revenue was $5,428 million in 2023.", context).grounded


_PARTNERSHIP = [
    ("Net income", "$ 5,428", "$ 4,756"),
    ("Net income per limited partner unit", "$ 2.45", "$ 2.10"),
    ("Weighted average limited partner units outstanding", "503,456,789", "510,123,456"),
]


@pytest.mark.parametrize("layout", ["pipe", "cell per line", "markdown"])
@pytest.mark.parametrize(
    ("answer", "grounded"),
    [
        # a partnership's units are its shares: amounts per unit take no scale, 2.45 - 2.10
        ("Net income per limited partner unit was $2.45 in 2023.", True),
        ("Net income per unit rose by $0.35.", True),
        ("Net income per limited partner unit was $2.45 thousand in 2023.", False),
        ("Net income per unit rose by $0.35 thousand.", False),
        # "except unit and per unit data": the counts of units are in units
        ("Units outstanding fell by 6.7 million.", True),
        ("Units outstanding were 503,456,789 thousand in 2023.", False),
        # the other rows in thousands
        ("Net income rose by $672 thousand.", True),
    ],
)
def test_a_partnerships_units_are_read_as_shares(layout: str, answer: str, grounded: bool) -> None:
    builder = {"pipe": _pipe, "cell per line": _cell_per_line, "markdown": _markdown}[layout]
    context = builder("(in thousands, except unit and per unit data)", _PARTNERSHIP)
    report = check_grounding(answer, context)
    assert report.grounded is grounded, report.findings
