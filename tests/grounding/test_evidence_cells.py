"""A finding's evidence names the table cell it compared with (issue 33, point 1): the row's
label and the column's heading, in every layout a retriever hands a table over, in the
context's own writing."""

from __future__ import annotations

import pytest

from hybridjudge.grounding import GroundingChecker
from hybridjudge.grounding._check import table_cell

PIPE = """Revenue by segment (in millions)
Segment | 2019 | 2018
Products | $16,525 | $14,020
Services | 3,676.2 | 460.8"""
MARKDOWN = """Revenue by segment (in millions)

| Segment | 2019 | 2018 |
|---|---:|---:|
| Products | $16,525 | $14,020 |
| Services | 3,676.2 | 460.8 |"""
HTML = """<p>Revenue by segment (in millions)</p><table>
<tr><th>Segment</th><th>2019</th><th>2018</th></tr>
<tr><td>Products</td><td>$16,525</td><td>$14,020</td></tr>
<tr><td>Services</td><td>3,676.2</td><td>460.8</td></tr></table>"""
PDF = "\n".join(
    ["ACME CORP. 2019 ANNUAL REPORT", "Revenue by segment", "(in millions)", "Segment", "2019",
     "2018", "Products", "$", "16,525", "$", "14,020", "Services", "3,676.2", "460.8", "47"]
)  # fmt: skip
CSV = """Revenue by segment (in millions)
Segment,2019,2018
Products,"$16,525","$14,020"
Services,3676.2,460.8"""


def _evidence(context: str, answer: str) -> str:
    report = GroundingChecker(context).check(answer)
    assert [f.kind for f in report.findings] == ["ungrounded_number"]
    evidence = report.findings[0].evidence
    assert evidence is not None
    return evidence


@pytest.mark.parametrize("layout", [PIPE, MARKDOWN, HTML, PDF, CSV])
@pytest.mark.parametrize(
    ("answer", "cell"),
    [
        ("Products brought in $17.2 billion.", 'row "Products", column "2019"'),
        ("Services made 470.1 million.", 'row "Services", column "2018"'),
    ],
)
def test_the_evidence_names_the_row_and_column_in_every_layout(
    layout: str, answer: str, cell: str
) -> None:
    assert _evidence(layout, answer).endswith(f"; {cell})")


def test_outside_a_table_the_evidence_names_no_cell() -> None:
    evidence = _evidence("Revenue was $16,525 million in 2019.", "Revenue was $17.2 billion.")
    assert "row" not in evidence
    assert evidence.endswith("(passage 0, characters 12-27)")


def test_a_row_without_a_header_names_its_row_only() -> None:
    evidence = _evidence("Total revenue | $16,525", "Total revenue was $17,200.")
    assert evidence.endswith('; row "Total revenue")')


def test_the_context_s_own_casing_is_kept() -> None:
    evidence = _evidence(
        PIPE.replace("Products", "PRODUCTS and Co"), "It brought in $17.2 billion."
    )
    assert 'row "PRODUCTS and Co"' in evidence


@pytest.mark.parametrize(
    ("text", "at", "expected"),
    [
        ("a | b | c\nx | 1 | 2\ny | 3 | 4", "4", ("y", "c")),
        ("a | b | c\nx | 1 | 2", "1", ("x", "b")),
        ("a | b | c\nx | 1 | 2", "b", None),  # the header row itself
        ("x | 1 | 2", "2", ("x", None)),  # one row: no header
        ("a | b\nx | 1 | 2", "2", ("x", None)),  # the header has no such column
        ("x | 1\nplain text 2", "2", None),  # not a table row
        ("\n| a | b |\n|---|---|\n| x | 1 |", "1", ("x", "b")),  # Markdown
        ("\n|---|---|\n| x | 1 |", "1", ("x", None)),  # a rule but no header above it
        # a PDF page's run that opens with rows of figures names no column from them ...
        ("x\t$ 4.40\t(113)\ny\t1,108\t7", "7", ("y", None)),
        # ... and takes the first row that names something: a word or a year
        ("x\t$ 4.40\t(113)\nfy2019\tbudget\n\nq\t1", "budget", ("fy2019", None)),
        ("x\t1\t2\nlabel\t2019\tfy2018\ny\t3\t4", "4", ("y", "fy2018")),
    ],
)
def test_table_cell_by_hand(text: str, at: str, expected: tuple[str, str | None] | None) -> None:
    markdown = "---" in text
    found = table_cell(text, text.rindex(at), markdown)
    if expected is None:
        assert found is None
        return
    assert found is not None
    (r0, r1), heading = found
    assert (text[r0:r1], text[heading[0] : heading[1]] if heading else None) == expected


def test_the_nearest_figure_is_nearest_by_ratio_not_an_unscaled_reading() -> None:
    # $3,700 million against the table in millions: by ratio the nearest dollar figure is
    # $14,020 million (3.79 times), not the unscaled reading "$16,525" = $16,525 (by difference
    # 3.7e9 away against 10.3e9)
    evidence = _evidence(PIPE, "Services brought in $3,700 million.")
    assert evidence.startswith('nearest in the context: "$14,020" = 14020000000 usd')
    assert evidence.endswith('row "Products", column "2018")')


def test_distance_by_hand() -> None:
    from math import log

    from hybridjudge.grounding._check import _distance

    assert _distance(16525.0, 3.7e9) == (False, log(3.7e9 / 16525.0))
    assert _distance(-5.0, -10.0) == (False, log(2.0))
    assert _distance(-5.0, 10.0) == (True, 15.0)  # signs differ: after every same-sign figure
    assert _distance(0.0, 10.0) == (True, 10.0)
