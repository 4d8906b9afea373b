"""A bracket after a figure in the same table cell is an aside of that figure, not an accounting
negative: ``| 247 (60.0) |`` is a count and its percentage (clinical tables write ``n (%)``),
``| 12.5 (11.2) |`` a figure and the year before's. Before, ``(60.0)`` read -60: the right
answer ``60.0% responded`` was flagged, and a wrong ``6.4%`` passed as a chance mean of
``19 + (4.6) + 15 + (3.7)`` (a probe of invented pages, 7 December). A row whose cells only spaces
part, as a PDF extractor writes one (``318 (215)``), and a bracketed cell of its own (``|
(215) |``) keep the accounting negative.
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
TRIAL_TSV = (
    "Outcome\tDrug\tPlacebo\nResponders, n (%)\t247 (60.0)\t198 (48.3)\n"
    "Serious adverse events, n (%)\t19 (4.6)\t15 (3.7)"
)


@pytest.mark.parametrize("context", [TRIAL, TRIAL_TSV])
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
        ("Operating income (loss) 318 (215)", ["318", "-215"]),  # cells parted by a space
    ],
)
def test_which_brackets_are_negatives(text: str, values: list[str]) -> None:
    assert [q.value for q in parse_quantities(text)] == [Fraction(v) for v in values]
