"""The trace rule ``enumerated``: a count of the answer's own items is no claim about the context.

An answer that counts what it lists (``two separate agreements:`` over a numbered list of two,
FinanceBench's PepsiCo answer; ``4: A, B, C and D``, TAT-QA's count answers) or what it has just
named (``these two customer groups``, FinanceBench's Boeing answer) restates its own list; before
this rule each such count was an ungrounded number, flagged on a correct answer. A count that
its list does not bear out stays untraced, so a count changed by one is still flagged. The
counts were worked out by hand.
"""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding
from hybridjudge.grounding._lists import counts_own_items, listed_after

CONTEXT = (
    "The company reports three segments: Chemicals, with revenue of $1,200 million, Pharma, "
    "with $800 million, and Services, with $400 million. Its U.S. and EU plants run at 90%."
)


def _rule(answer: str, figure: str, context: str = CONTEXT) -> str | None:
    report = check_grounding(answer, context, answerable=None)
    rules = [t.rule for t in report.quantities if t.quantity.text == figure]
    assert rules, [t.quantity.text for t in report.quantities]
    return rules[0]


@pytest.mark.parametrize(
    ("answer", "figure"),
    [
        ("It has two businesses of note:\n\n1. Chemicals, $1,200 million.\n\n2. Pharma.", "two"),
        ("It has two businesses of note:\n- Chemicals\n- Pharma", "two"),
        ("It has two businesses of note:\n* Chemicals\n  with $1,200 million\n* Pharma", "two"),
        ("It has two businesses of note:\n(a) Chemicals\n(b) Pharma\n\nBoth grew.", "two"),
        ("2: Chemicals and Pharma.", "2"),
        ("Its largest are 2: Chemicals, and Pharma.", "2"),
        ("Its largest are two: Chemicals ($1,200 million) and Pharma ($800 million).", "two"),
        ("Four places: the U.S. plants, the EU plants, the labs and the offices.", "Four"),
        ("Four places: the U.S. plants; the EU plants, mostly; the labs; and the offices.", "Four"),
        ("Chemicals and Pharma lead; these two businesses make $2,000 million.", "two"),
        ("Chemicals and Pharma lead; those two make $2,000 million.", "two"),
    ],
)
def test_a_count_of_the_answers_own_items(answer: str, figure: str) -> None:
    assert _rule(answer, figure) == "enumerated"


@pytest.mark.parametrize(
    ("answer", "figure"),
    [
        # the list does not bear the count out: one more, one fewer
        ("It has three businesses of note:\n\n1. Chemicals.\n\n2. Pharma.", "three"),
        ("It has two businesses of note:\n- Chemicals\n- Pharma\n- Services", "two"),
        ("3: Chemicals and Pharma.", "3"),
        ("Its largest are two: Chemicals, Pharma and Services.", "two"),
        # no list: a plain count, a count after the list, a colon of a ratio or a time
        ("It has two businesses of note.", "two"),
        ("Chemicals and Pharma: two businesses of note.", "two"),
        ("The mix is 2:1 for Chemicals and Pharma.", "2:1"),
        # too many words before the colon, a sentence ends before it, a count of one
        (
            "There are two of the segments that the company has named in its annual report: A and B.",
            "two",
        ),
        ("There are two. Segments: Chemicals and Pharma.", "two"),
        ("There is one: Chemicals.", "one"),
        ("Its businesses are two, of which one is larger: Chemicals and Pharma.", "two"),
    ],
)
def test_a_count_its_list_does_not_bear_out_is_untraced(answer: str, figure: str) -> None:
    report = check_grounding(answer, CONTEXT, answerable=None)
    traces = [t for t in report.quantities if t.quantity.text == figure]
    assert all(t.rule != "enumerated" for t in traces), [(t.quantity.text, t.rule) for t in traces]


def test_a_count_the_context_states_is_found_there_first() -> None:
    # "three segments" stands in the context: as written, not the answer's own count
    assert _rule("It has three segments: Chemicals, Pharma and Services.", "three") == "as_written"


def test_a_changed_count_is_flagged() -> None:
    right = "It has two businesses of note:\n1. Chemicals\n2. Pharma"
    assert check_grounding(right, CONTEXT).grounded
    wrong = check_grounding(right.replace("two", "four"), CONTEXT)
    assert [f.subject for f in wrong.findings] == ["four"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("4: a, b, c and d.", 4),
        ("4: a, b, c, and d.", 4),
        ("4: a; b, c; d and e; f.", 4),  # semicolons part the items where there are any
        ("2: $5,409 million and $4,756 million.", 2),  # a grouping comma parts nothing
        ("3: a, b, c", 3),
        ("2: a or b.", 2),
        ("2 items:\n\n1. a\n\n2. b\n\nThen c.", 2),
        ("2 items:\n- a\n  more of a\n- b\nc", 2),
        ("2 items:\nno list here", None),
        ("2 items: ", None),
        ("2 items", None),
        ("2 items, namely: a and b.", None),  # a comma before the colon: no head
        ("2:30 pm", None),
    ],
)
def test_listed_after(text: str, expected: int | None) -> None:
    end = 1  # after the count "2", "3" or "4"
    assert listed_after(text, end) == expected


@pytest.mark.parametrize(
    ("text", "start", "value", "expected"),
    [
        ("these two groups", 6, 2, True),
        ("These two groups", 6, 2, True),
        ("diese zwei Gruppen", 6, 2, True),
        ("ces deux segments", 4, 2, True),
        ("the two groups", 4, 2, False),  # "the" is no pointer back by itself
        ("these 13 groups", 6, 13, False),  # past MAX_LISTED
        ("these one group", 6, 1, False),
    ],
)
def test_counts_own_items_pointing_back(text: str, start: int, value: int, expected: bool) -> None:
    end = text.index(" ", start)
    assert counts_own_items(text, start, end, value) is expected
