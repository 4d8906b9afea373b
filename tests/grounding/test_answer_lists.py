"""An answer written as a Markdown list (issue 33: documents and answers as pipelines hand them
over): a model writes its working as list items (``- (44.1 - 56.7) / 56.7 × 100 = -22.22%``,
``1. $44.1 million``) and escapes its dollars for LaTeX (``\\$166.3``). The item's marker is no
figure and no minus sign; at the start of a one-line answer a dash and a blank may be either
(TAT-QA's working writes ``- (197 + 101 + 206) / 3`` with a minus), and the working is read
both ways. Every case is checked against a table in pipe rows and the same table as a PDF
extractor returns it (a cell per line, ``$`` on its own line)."""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding

PIPE = """Segment results (in millions)
| | 2019 | 2018 |
| Other | 44.1 | 56.7 |
| Products | $197 | $101 |
| Services | 206 | 86.8 |"""
PDF = "\n".join(
    ["Segment results (in millions)", "2019", "2018", "Other", "44.1", "56.7", "Products", "$",
     "197", "$", "101", "Services", "206", "86.8"]
)  # fmt: skip
LAYOUTS = pytest.mark.parametrize("context", [PIPE, PDF], ids=["pipe", "pdf"])


def _flagged(answer: str, context: str) -> list[str]:
    report = check_grounding(answer, [context])
    return [f.kind for f in report.findings if f.kind == "ungrounded_number"]


def _derivation(answer: str, context: str, figure: str) -> str | None:
    report = check_grounding(answer, [context])
    traces = {t.quantity.text: t for t in report.quantities}
    return traces[figure].derivation


@LAYOUTS
@pytest.mark.parametrize(
    "answer",
    [
        # a list whose first item opens the answer: its dash is a marker, no minus
        "- 44.1 - 56.7 = -12.6 million\n- Source: the table above.",
        "- (44.1 - 56.7) / 56.7 × 100 = -22.22%\n- (197 - 101) / 101 × 100 = 95.05%",
        "* (44.1 - 56.7) / 56.7 × 100 = -22.22%\n* Source: the table above.",
        # after a line break the dash is a marker, as before
        "The change:\n- 44.1 - 56.7 = -12.6 million",
        # numbered items: the item's number is no figure of the answer
        "1. $44.1 million\n2. $56.7 million",
        "1. (86.8 - 56.7) / 56.7 × 100 = 53.09%",
        "1) -(44.1 + 56.7) / 2 = -50.4 million",
        # LaTeX's escaped dollars in working beside a non-ASCII operator
        "(\\$197 - \\$101) / \\$101 × 100 = 95.05%",
    ],
)
def test_a_list_item_s_marker_is_no_figure_and_no_sign(answer: str, context: str) -> None:
    assert _flagged(answer, context) == []


@LAYOUTS
@pytest.mark.parametrize(
    "answer",
    [
        # the sign of a list item's result flipped: the marker gives it no minus
        "- 44.1 - 56.7 = 12.6 million\n- Source: the table above.",
        "- (44.1 - 56.7) / 56.7 × 100 = 22.22%\n- (197 - 101) / 101 × 100 = 95.05%",
        "The change:\n- (197 + 101 + 206) / 3 = -168 million",
        "1. (86.8 - 56.7) / 56.7 × 100 = 63.09%",
        "(\\$197 - \\$101) / \\$101 × 100 = 96.05%",
    ],
)
def test_a_wrong_result_in_a_list_item_is_flagged(answer: str, context: str) -> None:
    assert _flagged(answer, context) == ["ungrounded_number"]


@LAYOUTS
def test_a_dash_opening_a_one_line_answer_is_read_both_ways(context: str) -> None:
    # TAT-QA's working: a minus with a blank after it ...
    minus = "- (197 + 101 + 206) / 3 = -168 million"
    assert _flagged(minus, context) == []
    assert _derivation(minus, context, "-168 million") == ("-168 million = - (197 + 101 + 206) / 3")
    # ... a model's single list item
    item = "- (197 + 101 + 206) / 3 = 168 million"
    assert _flagged(item, context) == []
    assert _derivation(item, context, "168 million") == "168 million = (197 + 101 + 206) / 3"
    # a result neither reading gives
    assert _flagged("- (197 + 101 + 206) / 3 = 169 million", context) == ["ungrounded_number"]
