"""A figure with its own scale word rounds no cell's digits read without the scale its table
states.

Under ``(in thousands of dollars)`` the cell ``1,102,480`` is $1,102,480 thousand, $1.10
billion. Its digits stay findable as written (``$1,102,480``: a model that copied the cell), but
``$1.10 million`` is no rounding of them: it is a thousandfold error, which passed before as a
rounding of the digits 1,102,480. An invented insurer's table in two layouts (Markdown, and PDF
text with a cell per line); every value worked out by hand.
"""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding

MARKDOWN = (
    "Underwriting Performance (in thousands of dollars, except ratios)\n\n"
    "| | 2024 | 2023 |\n|---|---|---|\n"
    "| Gross written premiums | $1,284,600 | $1,197,350 |\n"
    "| Net earned premiums | 1,102,480 | 1,046,920 |\n"
    "| Loss ratio | 67.9% | 69.9% |"
)
PDF = (
    "Underwriting Performance\n(in thousands of dollars, except ratios)\n2024\n2023\n"
    "Gross written premiums\n$\n1,284,600\n$\n1,197,350\n"
    "Net earned premiums\n1,102,480\n1,046,920\n"
    "Loss ratio\n67.9%\n69.9%"
)
QUESTION = "What were net earned premiums in 2024?"


@pytest.mark.parametrize("context", [MARKDOWN, PDF], ids=["markdown", "pdf"])
@pytest.mark.parametrize(
    "answer",
    [
        "Net earned premiums were $1.10 million in 2024.",
        "Net earned premiums were about $1.1 million.",
        "Gross written premiums were $1.28 million in 2024.",
    ],
)
def test_a_thousandfold_rounding_is_flagged(context: str, answer: str) -> None:
    report = check_grounding(answer, [context], question=QUESTION)
    assert [f.kind for f in report.findings] == ["ungrounded_number"]


@pytest.mark.parametrize("context", [MARKDOWN, PDF], ids=["markdown", "pdf"])
@pytest.mark.parametrize(
    "answer",
    [
        "Net earned premiums were $1.10 billion in 2024.",  # the statement's scale applied
        "Net earned premiums were $1,102.5 million in 2024.",
        "Net earned premiums were $1,102,480 thousand in 2024.",
        "Net earned premiums were $1,102,480 in 2024.",  # the cell's digits, copied
    ],
)
def test_the_stated_amount_and_the_cell_as_written_pass(context: str, answer: str) -> None:
    report = check_grounding(answer, [context], question=QUESTION)
    assert report.grounded, report.findings
