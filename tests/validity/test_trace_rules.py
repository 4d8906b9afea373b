"""The trace-rule tables of the validity scripts (validity/trace_rules.py): counts per rule, by
hand, and the perturbed figure's own trace picked by its span."""

from __future__ import annotations

from collections import Counter

from hybridjudge.grounding import check_grounding
from tests.support.tatqa import load_tatqa, load_validity

rules = load_validity("trace_rules")

CONTEXT = "| Revenue | 177,866 | 135,987 |"


def test_rules_of_counts_every_traced_figure_or_those_in_a_span() -> None:
    # "177,866" as written, "30.8%" = (177,866 - 135,987) / 135,987 (0.30796, hand), "12" nowhere
    answer = "Revenue of 177,866 grew 30.8% in 12 months."
    report = check_grounding(answer, CONTEXT)
    assert rules.rules_of(report.quantities) == Counter({"as_written": 1, "percent_change": 1})
    start = answer.index("30.8%")
    assert rules.rules_of(report.quantities, (start, start + 5)) == Counter({"percent_change": 1})
    start = answer.index("12")
    assert rules.rules_of(report.quantities, (start, start + 2)) == Counter()


def test_the_table_lists_the_rules_with_figures_in_the_vocabularys_order() -> None:
    table = rules.format_rule_table(
        "title",
        {"right": Counter({"sum": 2, "as_written": 1500}), "wrong": Counter({"sum": 1})},
    )
    assert table.splitlines() == [
        "title",
        "  rule            right  wrong",
        "  as_written      1,500      0",
        "  sum                 2      1",
        "  all             1,502      1",
    ]


def test_a_tatqa_perturbation_knows_where_its_figure_stands() -> None:
    tatqa = load_tatqa()
    docs = tatqa.build_documents(tatqa.load_documents(), every=50)
    perturbed = [it for doc in docs for it in doc.items if it.perturbed]
    assert perturbed
    for it in perturbed:
        assert it.span is not None
        gold = next(
            g.answer
            for doc in docs
            for g in doc.items
            if g.question_uid == it.question_uid and g.variant == it.base
        )
        # the answer differs from its gold answer inside that span only
        start, end = it.span
        assert it.answer[:start] == gold[:start]
        assert it.answer[end:] == gold[len(gold) - (len(it.answer) - end) :]
