"""The trace rule ``complement``: a percentage stated as the rest of a whole.

``North America made up 40% of revenue; the remaining 60% came from other regions``: the
context states the 40%, the answer states the rest. Before this rule the 60% was an ungrounded
number, flagged on a right answer. The rule needs a word of the rest beside the figure (the
lexicons' ``figure_context.complement_before`` and ``complement_after``): 100% less a context
percentage would explain almost any percentage by chance otherwise. Every complement below was
worked out by hand (100 - 40 = 60; 100 - 40.3 = 59.7, 60 at the answer's precision).
"""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding
from hybridjudge.grounding._complement import states_rest
from hybridjudge.grounding._normalize import normalize_plain

CONTEXT = "North America accounted for 40% of total revenue in 2022; its margin was 12.5%."
PIPE = "| Region | Share of revenue |\n| North America | 40.0% |\n| Margin | 12.5% |"
PDF = "Region\nShare of revenue (%)\nNorth America\n40.0\nMargin\n12.5"


def _trace(answer: str, figure: str, context: str = CONTEXT) -> tuple[str | None, str | None]:
    report = check_grounding(answer, context)
    traces = [t for t in report.quantities if t.quantity.text == figure]
    assert traces, [t.quantity.text for t in report.quantities]
    return traces[0].rule, traces[0].derivation


@pytest.mark.parametrize(
    ("answer", "figure"),
    [
        ("The remaining 60% came from other regions.", "60%"),
        ("Remaining 60% came from other regions.", "60%"),
        ("The rest (60%) came from Europe and Asia.", "60%"),
        ("The remainder, 60%, came from Europe.", "60%"),
        ("The balance of 60% came from Europe.", "60%"),
        ("The other regions made up 60% of revenue.", "60%"),
        ("All other regions made up 60%.", "60%"),
        ("60% came from the other regions.", "60%"),
        ("Europe and Asia made up the remaining 60 percent.", "60 percent"),
        ("About 60% was earned elsewhere.", "60%"),
        ("North America made 40%; the remaining 60% came from abroad.", "60%"),
    ],
)
def test_a_percentage_stated_as_the_rest_is_traced_to_the_share_it_completes(
    answer: str, figure: str
) -> None:
    rule, _ = _trace(answer, figure)
    assert rule == "complement"


@pytest.mark.parametrize("context", [PIPE, PDF])
def test_the_share_may_stand_in_a_table_row_or_in_pdf_text(context: str) -> None:
    assert _trace("The remaining 60% came from other regions.", "60%", context)[0] == "complement"


def test_at_the_answers_precision() -> None:
    # 100 - 40.3 = 59.7: "60%" at whole percents, "59.7%" exactly; "59.5%" neither
    context = "North America accounted for 40.3% of total revenue."
    assert _trace("The remaining 60% came from abroad.", "60%", context)[0] == "complement"
    assert _trace("The remaining 59.7% came from abroad.", "59.7%", context)[0] == "complement"
    assert _trace("The remaining 59.5% came from abroad.", "59.5%", context)[0] is None


def test_the_share_may_be_the_answers_own_derived_figure() -> None:
    # 400 / 1,000 = 40% (ratio), then 100% - 40% = 60%
    report = check_grounding(
        "North America made 400 of 1,000 (40%); the remaining 60% came from abroad.",
        "North America | 400\nTotal | 1,000",
    )
    assert report.grounded
    trace = next(t for t in report.quantities if t.quantity.text == "60%")
    assert (trace.rule, trace.derivation) == ("complement", "100% - 40%")


@pytest.mark.parametrize(
    ("answer", "figure", "context"),
    [
        ("Die übrigen 60 % stammen aus Europa.", "60 %", "Nordamerika: 40 % des Umsatzes."),
        ("Les 60 % restants viennent d'Europe.", "60 %", "Amérique du Nord : 40 % du chiffre."),
        ("El 60 % restante procede de Europa.", "60 %", "América del Norte: 40 % de las ventas."),
        ("Il restante 60% viene dall'Europa.", "60%", "Nord America: 40% dei ricavi."),
        ("Os restantes 60% vêm da Europa.", "60%", "América do Norte: 40% das vendas."),
        ("De overige 60% komt uit Europa.", "60%", "Noord-Amerika: 40% van de omzet."),
    ],
)
def test_the_words_of_the_rest_in_other_languages(answer: str, figure: str, context: str) -> None:
    assert _trace(answer, figure, context)[0] == "complement"


@pytest.mark.parametrize(
    ("answer", "figure"),
    [
        ("The remaining 70% came from other regions.", "70%"),  # 100 - 70 = 30: no such share
        ("Other regions made up 60%.", "60%"),  # no word of the rest ("other" alone: a label)
        ("Europe made up 60% of revenue.", "60%"),  # no word of the rest at all
        ("The remaining regions of the world as a whole made up 60%.", "60%"),  # 6 words apart
        ("The remaining revenue. It grew 60%.", "60%"),  # another sentence
        ("The remaining 60 came from other regions.", "60"),  # not a percentage
        ("The remaining 87.5% came from other regions.", "87.5%"),  # 12.5% is a margin, but a %
    ],
)
def test_no_word_of_the_rest_or_no_share_it_completes_stays_flagged(
    answer: str, figure: str
) -> None:
    rule, _ = _trace(answer, figure)
    if figure == "87.5%":
        # the rule reads words and figures, not what the figure is a share of: 100 - 12.5
        assert rule == "complement"
    else:
        assert rule is None


def test_a_changed_complement_is_flagged() -> None:
    right = check_grounding("The remaining 60% came from abroad.", CONTEXT)
    wrong = check_grounding("The remaining 61% came from abroad.", CONTEXT)
    assert right.grounded
    assert not wrong.grounded
    assert [f.kind for f in wrong.findings] == ["ungrounded_number"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("the remaining 60% came", True),
        ("the rest, that is 60%", True),
        ("60% remaining", True),
        ("60% is left for the others", True),
        ("les 60 % restants", True),
        ("remainingly 60%", False),  # a longer word
        ("the remaining one, two and three 60%", False),  # too many words between
        ("the remaining 5, then 60%", False),  # a figure between
        ("60% of the revenue in the remaining", False),  # four words before the word after
    ],
)
def test_states_rest(text: str, expected: bool) -> None:
    norm = normalize_plain(text)
    start = norm.index("60")
    end = start + len("60%") if "60 %" not in norm else start + len("60 %")
    assert states_rest(norm, start, end) is expected
