"""Derived-number tracing guided by the question, and signed accounting negatives.

Expected values are hand computations on the small tables written here (each modelled on a
TAT-QA dev context: rows of a financial table, newest year first unless said otherwise).
"""

from __future__ import annotations

from hybridjudge.grounding import GroundingChecker, check_grounding
from hybridjudge.grounding._check import GroundingContext

TABLE = "\n".join(
    [
        " | 2019 | 2018 | 2017",
        "Net sales | 9,538.4 | 7,938.3 | 7,714.2",
        "Interest expense | (598) | (268) | (310)",
        "Net profit/(loss) after tax | (9,819) | 6,639 | 5,101",
        "Discount rate | 4.00% | 3.10% | 1.90%",
    ]
)


def _derived(answer: str, question: str, context: str = TABLE) -> str | None:
    """The derivation of the answer's one number, or None when it is a finding."""
    report = check_grounding(answer, context, question=question)
    (trace,) = report.quantities
    if trace.source is None:
        assert not report.grounded
        return None
    assert report.grounded, report.findings
    assert trace.source == "derived", trace
    return trace.derivation


def test_a_change_is_the_newer_figure_minus_the_older() -> None:
    q = "What was the change in net sales from 2018 to 2019?"
    # 9,538.4 - 7,938.3 = 1,600.1 (hand)
    assert _derived("1,600.1", q) == "1,600.1 = 9,538.4 - 7,938.3"
    # the sign-flipped answer is the reversed difference: a finding, not a derivation
    assert _derived("-1,600.1", q) is None


def test_a_decrease_by_is_the_older_figure_minus_the_newer() -> None:
    q = "By how much did the discount rate decrease from 2017 to 2018?"
    # the rate rose from 1.90% (2017) to 3.10% (2018): a change of 1.2 points, a decrease of -1.2
    assert _derived("1.2%", "What was the change in the discount rate from 2017 to 2018?") == (
        "1.2% = 3.10% - 1.90%"
    )
    assert _derived("-1.2%", q) == "-1.2% = 1.90% - 3.10%"
    assert _derived("1.2%", q) is None


def test_a_difference_may_be_the_positive_one() -> None:
    q = "What is the difference in net sales between 2018 and 2019?"
    # 7,938.3 - 9,538.4 = -1,600.1 (2018 minus 2019) is not accepted; the positive one is
    assert _derived("1,600.1", q) == "1,600.1 = 9,538.4 - 7,938.3"


def test_accounting_brackets_are_negative_in_a_computation() -> None:
    # (9,819) is -9,819: the change from 2018 is -9,819 - 6,639 = -16,458 (hand)
    q = "What was the change in net profit/(loss) after tax from 2018 to 2019?"
    assert _derived("-16,458", q) == "-16,458 = (9,819) - 6,639"
    assert _derived("16,458", q) is None
    # the mean of (598) and (268) is -433 (hand), and 433 is a finding
    q = "What is the average interest expense for 2018 and 2019?"
    assert _derived("-433", q) == "-433 = ((598) + (268)) / 2"
    assert _derived("433", q) is None


def test_a_percent_change_of_two_named_years() -> None:
    q = "What was the percentage change in net sales from 2017 to 2018?"
    # (7,938.3 - 7,714.2) / 7,714.2 = 2.905% (hand): written at two significant digits
    assert _derived("2.9%", q) == "2.9% = (7,938.3 - 7,714.2) / 7,714.2"
    assert _derived("-2.9%", q) is None


def test_the_question_selects_the_operands_and_the_operation() -> None:
    ctx = GroundingContext(TABLE)
    hint = ctx.hint("What is the average interest expense for 2018 and 2019?")
    assert hint is not None
    figures = ctx._operands()[0]
    # the row it names, in the columns of the years it names; a mean (or a sum)
    assert [figures.figures[k].text for k in hint.operands] == ["(598)", "(268)"]
    assert "mean" in hint.ops
    assert "pch" not in hint.ops
    hint = ctx.hint("What was the percentage change in net sales from 2017 to 2018?")
    assert hint is not None
    assert [figures.figures[k].text for k in hint.operands] == ["7,938.3", "7,714.2"]
    assert hint.ops == {"diff", "pch"}
    assert ctx.hint("Who audits the company?") is None


def test_a_share_of_a_sum() -> None:
    context = "\n".join(
        [
            " | 2019",
            "Taiwan | 2,703",
            "Japan | 958",
            "Total revenue | 23,406",
        ]
    )
    q = "What is the percentage of revenue from Taiwan and Japan over total revenue in 2019?"
    # (2,703 + 958) / 23,406 = 15.641% (hand)
    assert _derived("15.64%", q, context) == "15.64% = (2,703 + 958) / 23,406"


def test_dates_heading_the_columns_give_years_and_their_order() -> None:
    context = "\n".join(
        [
            " | June 30, 2018 | June 30, 2019",
            "Total fair value | 3,757 | 3,777",
        ]
    )
    ctx = GroundingContext(context)
    q = "What is the percentage change in the total fair value from 2018 to 2019?"
    # oldest first: (3,777 - 3,757) / 3,757 = 0.532% (hand), and the reverse is a finding
    assert GroundingChecker(ctx, question=q).check("0.53%").grounded
    assert not GroundingChecker(ctx, question=q).check("-0.53%").grounded
    hint = ctx.hint(q)
    assert hint is not None
    assert hint.mode == "change"


def test_without_a_question_the_context_alone_is_searched() -> None:
    # no question: the bounded search over neighbouring figures, as before
    assert _derived("1,600.1", "") == "1,600.1 = 9,538.4 - 7,938.3"


def test_the_derivation_index_is_built_only_when_needed() -> None:
    ctx = GroundingContext(TABLE)
    checker = GroundingChecker(ctx, question="What were net sales in 2019?")
    assert checker.check("Net sales were 9,538.4.").grounded
    figures = ctx._operands()[0]
    assert figures._tables is None  # a number found as written needs no derivation
    # a question naming the operands explains a derived number without the index either
    named = GroundingChecker(ctx, question="What was the change in net sales from 2018 to 2019?")
    assert named.check("1,600.1").grounded
    assert figures._tables is None
    assert GroundingChecker(ctx).check("1,600.1").grounded
    assert figures._tables is not None


VALUATION = "\n".join(
    [
        " | 2019 | 2018",
        "Freehold internal valuation | 73% | 62%",
        "Leasehold internal valuation | 38% | 23%",
    ]
)


def test_only_the_operation_the_question_asks_for_explains_a_number() -> None:
    q = "What is the average freehold internal valuation for 2018 and 2019?"
    # (73 + 62) / 2 = 67.5 (hand): the mean the question asks for
    assert _derived("67.5%", q, VALUATION) == "67.5% = (73% + 62%) / 2"
    # 23 / 38 = 60.53% (hand): a ratio of two other cells, which explained the embedded model's
    # wrong answer "60.5%" (validity/tatqa_model_answers.py); an average is no ratio
    assert _derived("60.5%", q, VALUATION) is None
    # without a question, any operation may explain it (the context alone)
    assert check_grounding("60.5%", VALUATION).grounded


def test_a_small_count_is_no_operation_of_the_question() -> None:
    # "In how many years did the change ...": a count (TAT-QA's count answers, "2: 2019 and
    # 2018", kept their traces), which the question's "change" does not restrict; here only
    # 6 / 3 = 2 (hand) explains it, a ratio
    context = " | 2019 | 2018 | 2017\nUnits | 6 | 3 | 7"
    q = "In how many years was the change in units negative?"
    assert _derived("2", q, context) == "2 = 6 / 3"
    # a figure that is no small count is held to the question's operation: 6 / 3 = 2.0
    assert _derived("2.0", q, context) is None


def test_a_bare_derived_figure_under_a_stated_scale_needs_the_question() -> None:
    # (11,275 + 11,000) / 2 = 11,137.5 (hand computation) in thousands: written without its
    # scale word, only the figures the question names explain it (docs/grounding.md)
    table = "(In thousands) | 2019 | 2018\nFurniture and equipment | 11,275 | 11,000"
    question = "What was the average Furniture and equipment for 2018 and 2019?"
    assert _derived("11,137.5", question, table) == "11,137.5 = (11,275 + 11,000) / 2"
    assert _derived("11,137.5 thousand", question, table) is not None
    assert check_grounding("11,137.5", table).kinds == {"ungrounded_number"}
    assert check_grounding("11,137.5 thousand", table).grounded


def test_a_question_asking_for_the_total_in_any_language_takes_the_unlabelled_total_row() -> None:
    # the row without a label is the table's total: a question asking for a total (the
    # lexicons' derivation.asks_total: "total", "insgesamt", "合计") points at it with the rows
    # it names; a question asking for none does not
    context = "\n".join(
        [
            " | 2023 | 2022",
            "Umsatz Europa | 400 | 380",
            "Umsatz Asien | 250 | 240",
            " | 650 | 620",
        ]
    )
    ctx = GroundingContext(context)
    figures = ctx._operands()[0]
    for question in (
        "What was the Umsatz Europa as a part of the total in 2023?",
        "Wie hoch war der Anteil von Umsatz Europa am Umsatz insgesamt 2023?",
    ):
        hint = ctx.hint(question)
        assert hint is not None, question
        assert [figures.figures[k].text for k in hint.operands] == ["400", "650"], question
    hint = ctx.hint("Wie hoch war der Umsatz Europa 2023?")
    assert hint is not None
    assert [figures.figures[k].text for k in hint.operands] == ["400"]
