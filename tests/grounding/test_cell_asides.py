"""A bracket after a figure in the same table cell is an aside of that figure, not an accounting
negative: ``| 247 (60.0) |`` is a count and its percentage (clinical tables write ``n (%)``),
``| 12.5 (11.2) |`` a figure and the year before's. Before, ``(60.0)`` read -60: the right
answer ``60.0% responded`` was flagged, and a wrong ``6.4%`` passed as a chance mean of
``19 + (4.6) + 15 + (3.7)`` (a probe of invented pages, 7 December). A row whose cells spaces or
tabs part, as a PDF extractor writes one (``318 (215)``) or the layout joins a page's lines
(``33 (15)\t1,238`` on a pdfminer page: a change in brackets, -15), and a bracketed cell of its
own (``| (215) |``) keep the accounting negative.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from hybridjudge.grounding import check_grounding, parse_quantities

TRIAL = (
    "| Outcome | Drug (n=412) | Placebo (n=410) |\n| --- | --- | --- |\n"
    "| Responders, n (%) | 247 (60.0) | 198 (48.3) |\n"
    "| Serious adverse events, n (%) | 19 (4.6) | 15 (3.7) |"
)
TRIAL_HTML = (
    "<table><tr><th>Outcome</th><th>Drug</th><th>Placebo</th></tr>"
    "<tr><td>Responders, n (%)</td><td>247 (60.0)</td><td>198 (48.3)</td></tr>"
    "<tr><td>Serious adverse events, n (%)</td><td>19 (4.6)</td><td>15 (3.7)</td></tr></table>"
)


@pytest.mark.parametrize("context", [TRIAL, TRIAL_HTML])
@pytest.mark.parametrize(
    ("answer", "grounded"),
    [
        ("60.0% of patients on the drug responded.", True),
        ("Serious adverse events: 4.6% on the drug, 3.7% on placebo.", True),
        ("Serious adverse events: 6.4% on the drug.", False),
        ("-60.0% responded.", False),
    ],
)
def test_a_bracket_after_a_figure_in_its_cell_is_an_aside(
    context: str, answer: str, grounded: bool
) -> None:
    report = check_grounding(answer, [context])
    assert report.grounded is grounded, (report.findings, report.quantities)


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("| Responders | 247 (60.0) | 198 (48.3) |", ["247", "60", "198", "483/10"]),
        ("| EBIT | 12.5 (11.2) |", ["25/2", "56/5"]),
        ("| Net income | (215) | 318 |", ["-215", "318"]),  # a cell of its own
        ("Net income\t1,234\t(215)", ["1234", "-215"]),  # a tab between: another cell
        ("Deliveries\t33 (15)\t1,238", ["33", "-15", "1238"]),  # tabs: a PDF page's row
        ("Operating income (loss) 318 (215)", ["318", "-215"]),  # cells parted by a space
    ],
)
def test_which_brackets_are_negatives(text: str, values: list[str]) -> None:
    assert [q.value for q in parse_quantities(text)] == [Fraction(v) for v in values]
