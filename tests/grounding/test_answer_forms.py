"""Forms of an answer a model writes around its figures: a sign before a dollar's country
prefix (``-US$773 million``: at 9674dc3 read as +773 million, so a flipped sign of a loss
passed) and the part of a source it cites (``Table 2``, ``Note 5``, ``Item 7``: a place, no
figure; at 9674dc3 each was a figure the context had to hold). TAT-QA's answers in pipe rows
with every ``$`` written ``US$``: flipped signs flagged 74.7% at 9674dc3, 96.5% now; each
answer followed by ``[Source: Table 2, page 47]``: span grounded 91.7% -> 100%."""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding

_PIPE = "(in millions)\n | 2019 | 2018\nRevenue | 16,525 | 14,020\nNet loss | (773) | (512)"
_PDF = "(in millions)\n2019\n2018\nRevenue\n16,525\n14,020\nNet loss\n(773)\n(512)"


@pytest.mark.parametrize("context", [_PIPE, _PDF], ids=["pipe", "pdf"])
@pytest.mark.parametrize("prefix", ["US$", "HK$", "A$"])
def test_a_sign_before_a_dollars_prefix_is_the_figures(context: str, prefix: str) -> None:
    page = context if prefix == "US$" else context.replace("(in millions)", f"({prefix} millions)")
    assert check_grounding(f"The net loss was -{prefix}773 million in 2019.", [page]).grounded
    assert not check_grounding(f"Revenue was -{prefix}16,525 million in 2019.", [page]).grounded


@pytest.mark.parametrize(
    "citation",
    ["[Source: Table 2, page 47]", "(see Note 5)", "(Item 7)", "(Notes 12 and 13)", "(Exhibit 4)"],
)
def test_the_part_of_a_source_an_answer_cites_is_no_figure(citation: str) -> None:
    assert check_grounding(f"Revenue was 16,525 in 2019 {citation}.", [_PIPE]).grounded
    assert not check_grounding(f"Revenue was 16,625 in 2019 {citation}.", [_PIPE]).grounded


def test_a_count_of_tables_is_still_a_figure() -> None:
    assert not check_grounding("The report has 3 tables.", [_PIPE]).grounded
