"""Markdown's emphasis and code marks around a figure are formatting, not working. A model that
bolds its answer (``The answer is **$2,605 million**.``) wrote ``**`` before the figure, which
the checks read as a power of working (an exponent is no claim: at 4f2e5ea ``**2,605**`` was
grounded whatever its value) and a lone ``*`` as a product. TAT-QA's answers in pipe rows, each
answer bolded whole (``The answer is **...**.``): perturbed figures flagged digit 67.5%, sign
67.4%, x10 67.4% at 4f2e5ea, 97.0%, 96.5%, 97.6% now (as without the marks). Figures by hand:
16,525 - 14,020 = 2,505; (16,525 / 14,020) ** 0.5 - 1 = 8.57%."""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding

_PIPE = (
    "(in millions)\nRevenue | 2019 | 2018\nProducts | 16,525 | 14,020\nServices | 3,676.2 | 460.8"
)
_PDF = "(in millions)\nRevenue\n2019\n2018\nProducts\n16,525\n14,020\nServices\n3,676.2\n460.8"

QUESTION = "What was the change in Products revenue from 2018 to 2019?"


def _grounded(answer: str, context: str, question: str | None = QUESTION) -> bool:
    return check_grounding(answer, [context], question=question).grounded


@pytest.mark.parametrize("context", [_PIPE, _PDF], ids=["pipe", "pdf"])
@pytest.mark.parametrize(
    ("right", "wrong"),
    [
        ("The change was **2,505**.", "The change was **2,605**."),
        ("The answer is **$2,505 million**.", "The answer is **$2,605 million**."),
        ("**$2.5 billion**", "**$2.6 billion**"),
        ("The change was *2,505*.", "The change was *2,605*."),
        ("The change was __2,505__.", "The change was __2,605__."),
        ("The change was `2,505`.", "The change was `2,605`."),
        ("- **Change:** **2,505**", "- **Change:** **2,605**"),
    ],
)
def test_an_emphasised_figure_is_checked_as_written(context: str, right: str, wrong: str) -> None:
    assert _grounded(right, context)
    assert not _grounded(wrong, context)


def test_a_small_bold_figure_is_no_constant_of_working() -> None:
    # "**12**" opens no product (12 is a constant of working after "*": months in a year)
    context = "Products sold 16,525 units in 2019."
    assert not _grounded("**12** products were sold.", context, None)
    assert _grounded("**16,525** products were sold.", context, None)


@pytest.mark.parametrize(
    "working",
    ["(16,525 / 14,020) ** 0.5 - 1 = 8.57%", "(16,525 / 14,020)**(1/2) - 1 = 8.57%"],
)
def test_a_power_of_working_stays_a_power(working: str) -> None:
    # the marks of emphasis open after no operand: "**" after ")" raises it to a power
    assert _grounded(working, _PIPE, "What was the growth rate of Products revenue?")
    assert not _grounded(working.replace("8.57%", "9.57%"), _PIPE, None)


def test_emphasis_in_the_context_is_no_working() -> None:
    context = "| | **2019** | **2018** |\n|---|---|---|\n| **Products** | **16,525** | 14,020 |"
    assert _grounded("Products brought in 16,525 in 2019.", context, None)
    assert not _grounded("Products brought in 16,625 in 2019.", context, None)


def test_the_span_of_an_emphasised_figure_is_the_figures() -> None:
    answer = "The change was **2,505**."
    report = check_grounding(answer, [_PIPE], question=QUESTION)
    a, b = report.quantities[0].quantity.span
    assert answer[a:b] == "2,505"
