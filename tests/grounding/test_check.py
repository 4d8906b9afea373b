"""check_grounding's report, context reuse, and its handling of bad input."""

from __future__ import annotations

import inspect
import json
from decimal import Decimal
from fractions import Fraction

import pytest

import hybridjudge.grounding as grounding
from hybridjudge import InputError
from hybridjudge.corpus import Anchor
from hybridjudge.grounding import (
    DEFAULT_ABSTAIN_MARKERS,
    GroundingChecker,
    GroundingContext,
    GroundingInputError,
    GroundingReport,
    GroundingTypeError,
    check_grounding,
    compile_anchors,
    prepare_context,
)

CONTEXT = [
    "Refund Policy. Customers may request a full refund within 30 days of purchase.",
    "There is no restocking fee for standard plans. Hardware returns carry a 15% fee.",
]


def test_all_exports_are_documented_and_resolve() -> None:
    for name in grounding.__all__:
        obj = getattr(grounding, name)
        if inspect.isclass(obj) or inspect.isfunction(obj):
            assert obj.__doc__, name


def test_report_traces_each_quantity_to_its_passage_and_span() -> None:
    answer = "You have thirty days; hardware carries a 15 percent fee."
    report = check_grounding(answer, CONTEXT, anchors=["30 days"])
    assert report.grounded
    days, pct = report.quantities
    assert answer[days.quantity.span[0] : days.quantity.span[1]] == "thirty days"
    assert (days.source, days.passage) == ("context", 0)
    start, end = days.span  # type: ignore[misc]
    assert CONTEXT[0][start:end] == "30 days"
    assert (pct.source, pct.passage, pct.matched_text) == ("context", 1, "15%")


def test_quantities_trace_to_question_allowed_list_and_anchor() -> None:
    report = check_grounding(
        "Section 8.2 gives 90 days, about 3 months.",
        "Either party may terminate upon ninety (90) days' notice.",
        question="What does section 8.2 say?",
        allowed_numbers=["3 months"],
        anchors=[{"value": "90 days", "aliases": ["ninety days"]}],
    )
    sources = [(t.quantity.text, t.source) for t in report.quantities]
    assert sources == [("8.2", "question"), ("90 days", "context"), ("3 months", "allowed")]


def test_range_ends_are_traced_one_by_one() -> None:
    report = check_grounding("Recheck in 6 to 8 weeks.", "Tests are repeated in 6–8 weeks.")
    assert [(t.quantity.range_role, t.matched_text) for t in report.quantities] == [
        ("low", "6"),
        ("high", "8 weeks"),
    ]


def test_a_range_with_its_scale_once_is_traced_to_the_ends_written_in_full() -> None:
    # "between 5 and 7 million dollars": 5 million and 7 million (the 5 was 5 dollars)
    report = check_grounding(
        "The outlook is between 5 and 7 million dollars.",
        "Outlook: $5 million to $7 million.",
    )
    assert report.grounded, report.findings
    assert [(t.quantity.range_role, t.matched_text) for t in report.quantities] == [
        ("low", "$5 million"),
        ("high", "$7 million"),
    ]
    # the same in German words: "zwischen ... und" joins a range, the scale stated once
    report = check_grounding(
        "Die Prognose liegt zwischen 5 und 7 Millionen Euro.",
        "Prognose: 5 Millionen Euro bis 7 Millionen Euro.",
    )
    assert report.grounded, report.findings
    # one end that stands in the context at no scale is no longer read so
    assert not check_grounding(
        "The outlook is between 5 and 7 million dollars.", "Outlook: $5 thousand or $7 million."
    ).grounded


def test_over_abstention_points_at_the_marker() -> None:
    answer = "Sorry, I don't know."
    (finding,) = check_grounding(answer, CONTEXT).findings
    assert finding.kind == "over_abstention"
    assert finding.span is not None
    assert answer[finding.span[0] : finding.span[1]] == "I don't know"


def test_ungrounded_number_names_the_number_and_the_nearest_context_quantity() -> None:
    answer = "Take 500 mg twice daily."
    report = check_grounding(answer, "Take 500 g twice daily, or 200 mg at night.")
    (finding,) = report.findings
    assert finding.kind == "ungrounded_number"
    assert '"500 mg"' in finding.message
    assert finding.span is not None
    assert answer[finding.span[0] : finding.span[1]] == "500 mg"
    # nearest by value in the same dimension: 0.5 kg (500 g) is nearer to 0.5 g than 0.2 g? no:
    # |500 - 0.5| = 499.5 > |0.2 - 0.5| = 0.3, so the nearest is 200 mg (hand computation).
    assert finding.evidence is not None
    assert '"200 mg"' in finding.evidence


def test_negated_anchor_points_at_the_occurrence_and_the_cue() -> None:
    answer = "Returns are free: there is no restocking fee."
    report = check_grounding(answer, CONTEXT, anchors=["restocking fee"])
    (finding,) = report.findings
    assert finding.kind == "negated_anchor"
    assert finding.span is not None
    assert answer[finding.span[0] : finding.span[1]] == "restocking fee"
    assert '"no"' in finding.message


@pytest.mark.parametrize(
    ("answer", "kinds"),
    [
        ("You do not have 30 days to ask.", ("negated_anchor",)),
        ("A refund is possible within 30 days, not later.", ()),
        ("Refunds: no later than 30 days after purchase.", ()),
        ("Do not forget: you have 30 days.", ()),  # clause break between cue and anchor
    ],
)
def test_negation_scope(answer: str, kinds: tuple[str, ...]) -> None:
    report = check_grounding(answer, CONTEXT, anchors=["30 days"])
    assert tuple(f.kind for f in report.findings) == kinds


def test_missing_anchor_message_names_fact_and_paraphrase_count() -> None:
    report = check_grounding(
        "Refunds exist.", CONTEXT, anchors=[Anchor(value="30 days", aliases=("a month",))]
    )
    (finding,) = report.findings
    assert finding.kind == "missing_anchor"
    assert finding.message == 'missing required fact "30 days" nor any of its 1 accepted paraphrase'
    assert finding.span is None


def test_alias_satisfies_the_anchor() -> None:
    report = check_grounding(
        "You may return it within a month.",
        CONTEXT,
        anchors=[{"value": "30 days", "aliases": ["a month"]}],
        allowed_numbers=[],
    )
    assert report.grounded


def test_cjk_anchor_matches_inside_a_sentence_without_spaces() -> None:
    report = check_grounding("全额退款适用于标准计划", "全额退款", anchors=["退款"])
    assert report.grounded


def test_report_serialises_with_its_format_version() -> None:
    report = check_grounding("Take 500 mg.", "Take 500 g.", anchors=["500 g"])
    data = json.loads(report.model_dump_json())
    assert data["version"] == grounding.GROUNDING_REPORT_VERSION
    assert [f["kind"] for f in data["findings"]] == ["missing_anchor", "ungrounded_number"]
    assert data["quantities"][0]["quantity"]["value"] == "500"
    again = GroundingReport.model_validate_json(report.model_dump_json())
    assert again.quantities[0].quantity.value == Fraction(500)


def test_prepared_context_and_checker_give_the_same_reports() -> None:
    answers = ["You have 30 days.", "You have 31 days.", "I don't know."]
    ctx = prepare_context(CONTEXT)
    assert isinstance(ctx, GroundingContext)
    assert prepare_context(ctx) is ctx  # a prepared context is kept as given
    assert prepare_context(CONTEXT) is not ctx  # no hidden process-wide memo (issue 9)
    compiled = compile_anchors(["30 days"])
    assert compile_anchors(compiled) is compiled
    checker = GroundingChecker(ctx, anchors=compiled)
    for answer in answers:
        direct = check_grounding(answer, CONTEXT, anchors=["30 days"])
        assert check_grounding(answer, ctx, anchors=["30 days"]) == direct
        assert checker.check(answer) == direct


def test_markers_can_be_replaced_or_extended() -> None:
    answer = "N/A - see the manual."
    assert not check_grounding(answer, CONTEXT, answerable=None).abstained
    replaced = check_grounding(answer, CONTEXT, answerable=False, abstain_markers=["n/a"])
    assert replaced.abstained
    assert replaced.grounded
    only_mine = check_grounding("I don't know.", CONTEXT, answerable=None, abstain_markers=["n/a"])
    assert not only_mine.abstained  # replaced, so the built-in English markers are gone
    extended = (*DEFAULT_ABSTAIN_MARKERS, "n/a")
    assert check_grounding(answer, CONTEXT, answerable=None, abstain_markers=extended).abstained
    assert check_grounding(
        "I don't know.", CONTEXT, answerable=None, abstain_markers=extended
    ).abstained


def test_allowed_numbers_accept_numbers_and_quantities() -> None:
    report = check_grounding(
        "Take 2 tablets, 0.25 g, 1/3 of the time, 7.5% VAT.",
        "Take tablets.",
        allowed_numbers=[2, Decimal("250e-3") * 1000, Fraction(1, 3), 7.5, "250 mg"],
    )
    # 2 by int, "0.25 g" by the quantity "250 mg", 1/3 by Fraction, 7.5 by float (hand check)
    assert report.grounded, report.findings


# --- bad input ------------------------------------------------------------------------------


def test_empty_strings_are_valid_input() -> None:
    assert check_grounding("", "").grounded
    report = check_grounding("", [], anchors=["30 days"], answerable=False)
    assert [f.kind for f in report.findings] == ["missing_anchor", "non_abstention"]


def test_ten_megabyte_context() -> None:
    filler = "The refund policy below applies to every plan we sell. "
    context = filler * (10_000_000 // len(filler)) + "Refunds within 30 days; fee 15%."
    assert len(context) >= 10_000_000
    report = check_grounding("Refunds within 30 days, fee 16%.", context, anchors=["30 days"])
    assert [(f.kind, f.subject) for f in report.findings] == [("ungrounded_number", "16%")]
    (trace,) = [t for t in report.quantities if t.source is not None]
    assert trace.span is not None
    assert context[trace.span[0] : trace.span[1]] == "30 days"


@pytest.mark.parametrize(
    ("kwargs", "argument", "exc_type"),
    [
        ({"answer": 5}, "answer", GroundingTypeError),
        ({"context": b"bytes"}, "context", GroundingTypeError),
        ({"context": ["ok", 3]}, "context[1]", GroundingTypeError),
        ({"context": 3}, "context", GroundingTypeError),
        ({"anchors": "30 days"}, "anchors", GroundingTypeError),
        ({"anchors": [5]}, "anchors[0]", GroundingTypeError),
        ({"anchors": ["ok", "  "]}, "anchors[1]", GroundingInputError),
        ({"anchors": [{"value": "x", "alias": []}]}, "anchors[0]", GroundingInputError),
        ({"anchors": [{"aliases": ["x"]}]}, "anchors[0]", GroundingInputError),
        ({"answerable": "yes"}, "answerable", GroundingTypeError),
        ({"question": 3}, "question", GroundingTypeError),
        ({"allowed_numbers": [True]}, "allowed_numbers[0]", GroundingTypeError),
        ({"allowed_numbers": ["lots"]}, "allowed_numbers[0]", GroundingInputError),
        ({"allowed_numbers": "3"}, "allowed_numbers", GroundingTypeError),
        ({"abstain_markers": "n/a"}, "abstain_markers", GroundingTypeError),
        ({"abstain_markers": ["ok", ""]}, "abstain_markers[1]", GroundingInputError),
        ({"abstain_markers": [None]}, "abstain_markers[0]", GroundingTypeError),
    ],
)
def test_bad_arguments_raise_typed_errors_naming_the_argument(
    kwargs: dict[str, object], argument: str, exc_type: type[Exception]
) -> None:
    call: dict[str, object] = {"answer": "You have 30 days.", "context": CONTEXT, **kwargs}
    answer = call.pop("answer")
    context = call.pop("context")
    with pytest.raises(exc_type) as info:
        check_grounding(answer, context, **call)  # type: ignore[arg-type]
    assert isinstance(info.value, InputError)  # one root: hybridjudge errors
    assert info.value.argument == argument  # type: ignore[attr-defined]
    assert argument.split("[")[0] in str(info.value)
    if exc_type is GroundingTypeError:
        assert isinstance(info.value, TypeError)
    else:
        assert isinstance(info.value, ValueError)


def test_bad_arguments_also_rejected_with_a_prepared_context() -> None:
    ctx = prepare_context(CONTEXT)
    with pytest.raises(GroundingTypeError, match="anchors"):
        check_grounding("x", ctx, anchors="30 days")
    with pytest.raises(GroundingTypeError, match="answer"):
        GroundingChecker(ctx).check(None)  # type: ignore[arg-type]


def test_currency_code_before_a_number_is_not_an_identifier() -> None:
    # "ISO 9001" is an identifier; "USD 500" is an amount (hand-written pair)
    assert check_grounding("It costs $500.", "The fee is USD 500.").grounded
    report = check_grounding("It costs $500.", "Certified to ISO 500.")
    assert [f.kind for f in report.findings] == ["ungrounded_number"]
