"""Each mutator on hand-written cases: the mutant carries its defect and only that one.

Expected texts below are worked out by hand from each mutator's documented rule; whether a
mutant carries its defect is decided by ``hybridjudge.grounding.check_grounding`` directly
(``tests/mutations/_support.py``), not by the mutators' own verifier.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hybridjudge.corpus import Anchor, Case, load_corpus
from hybridjudge.mutations import (
    MUTATORS,
    MutationRefused,
    contradiction,
    fabricated_number,
    inversion,
    non_abstention,
    omission,
    verify_mutant,
)
from tests.mutations._support import added_findings, assert_carries_only, numbers

CORPUS = Path(__file__).resolve().parents[2] / "corpus"

REFUND = Case(
    id="refund",
    question="How long do customers have to request a refund, and is there a restocking fee?",
    context=(
        "Customers may request a full refund within 30 days of purchase. "
        "There is no restocking fee for standard plans. "
        "Enterprise hardware returns are subject to a 15% restocking fee.",
    ),
    anchors=(Anchor(value="30 days", aliases=("thirty days",)), Anchor(value="no restocking fee")),
    label_source="hand-written test",
)
REFUND_ANSWER = (
    "Customers have 30 days to request a refund, and there is no restocking fee for standard "
    "plans. Enterprise hardware returns are subject to a 15% restocking fee."
)

DOSE = Case(
    id="dose",
    question=None,
    context=("Take amoxicillin 500 mg three times daily for 5 days. Take it with food.",),
    anchors=(Anchor(value="5 days", aliases=("five days",)),),
    allowed_numbers=("3",),
    kind="simplification",
    label_source="hand-written test",
)

UNANSWERABLE = Case(
    id="price",
    question="What is the annual price of the Enterprise plan?",
    context=(
        "Our Pro plan includes unlimited projects and priority support. "
        "All plans are billed monthly or annually.",
    ),
    answerable=False,
    label_source="hand-written test",
)
ABSTENTION = (
    "The context does not provide information about the annual price of the Enterprise plan."
)

SEEDS = range(12)


# --- omission ---------------------------------------------------------------------------------


def test_omission_deletes_the_anchor_with_its_preposition() -> None:
    # Hand-derived: the only anchor "5 days" goes with its leading preposition "for".
    mutant = omission("Take amoxicillin 500 mg three times a day for 5 days.", DOSE, seed=0)
    assert mutant.text == "Take amoxicillin 500 mg three times a day."
    assert mutant.defect == "omission"
    assert "'5 days'" in mutant.detail


@pytest.mark.parametrize("seed", SEEDS)
def test_omission_carries_one_missing_anchor(seed: int) -> None:
    mutant = omission(REFUND_ANSWER, REFUND, seed=seed)
    assert_carries_only("omission", REFUND_ANSWER, mutant.text, REFUND)
    ((_, subject),) = added_findings(REFUND_ANSWER, mutant.text, REFUND)
    assert subject in {"30 days", "no restocking fee"}
    assert subject in mutant.detail


def test_omission_removes_every_alias_occurrence() -> None:
    text = "You take it for five days. After the 5 days, stop."
    mutant = omission(text, DOSE, seed=3)
    assert "5 days" not in mutant.text
    assert "five days" not in mutant.text
    assert_carries_only("omission", text, mutant.text, DOSE)


def test_omission_refusals() -> None:
    no_anchors = Case(id="x", context="ctx", label_source="t")
    with pytest.raises(MutationRefused, match="has no anchors"):
        omission("Anything.", no_anchors, seed=0)
    with pytest.raises(MutationRefused, match="contains none of the case's anchors"):
        omission("Take it with food.", DOSE, seed=0)
    bare = Case(id="y", context="Delhi is the capital.", anchors=("Delhi",), label_source="t")
    with pytest.raises(MutationRefused, match="the answer is the anchor itself") as info:
        omission("Delhi", bare, seed=0)
    assert info.value.defect == "omission"


# --- fabricated_number ----------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_fabricated_number_adds_exactly_one_ungrounded_number(seed: int) -> None:
    mutant = fabricated_number(REFUND_ANSWER, REFUND, seed=seed)
    assert_carries_only("fabricated_number", REFUND_ANSWER, mutant.text, REFUND)
    new = set(numbers(mutant.text)) - set(numbers(REFUND_ANSWER))
    assert len(new) == 1
    assert not any(n in REFUND.context[0] for n in new)


def test_fabricated_number_varies_template_unit_and_mode() -> None:
    details = [fabricated_number(REFUND_ANSWER, REFUND, seed=s).detail for s in range(40)]
    inserted = {d.split(": ", 1)[1] for d in details if d.startswith("sentence")}
    altered = [d for d in details if d.startswith("number '15' altered")]
    # Several distinct sentences (templates x units x values), and the in-place alteration of
    # the one context number that is no anchor ("15"), both occur across 40 seeds.
    assert len(inserted) >= 10
    assert altered


def test_fabricated_number_never_alters_an_anchor_number() -> None:
    for seed in range(30):
        mutant = fabricated_number(REFUND_ANSWER, REFUND, seed=seed)
        assert "30 days" in mutant.text


# --- non_abstention -------------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_non_abstention_replaces_the_abstention(seed: int) -> None:
    mutant = non_abstention(ABSTENTION, UNANSWERABLE, seed=seed)
    assert_carries_only("non_abstention", ABSTENTION, mutant.text, UNANSWERABLE)


def test_non_abstention_refusals() -> None:
    with pytest.raises(MutationRefused, match="answerable"):
        non_abstention(REFUND_ANSWER, REFUND, seed=0)
    with pytest.raises(MutationRefused, match="does not abstain"):
        non_abstention("The Enterprise plan is billed annually.", UNANSWERABLE, seed=0)


# --- contradiction --------------------------------------------------------------------------


def test_contradiction_appends_a_flipped_context_statement() -> None:
    case = Case(
        id="food",
        context="Doses must be taken with food.",
        anchors=("each dose",),
        label_source="hand-written test",
    )
    base = "Take each dose with food."
    # Hand-derived: the one context statement has two flips (negation after "must", and
    # with -> without); either is appended after the intact base.
    expected = {
        "Take each dose with food. Doses must not be taken with food.",
        "Take each dose with food. Doses must be taken without food.",
    }
    got = {contradiction(base, case, seed=s).text for s in range(10)}
    assert got <= expected
    for text in got:
        assert_carries_only("contradiction", base, text, case)


@pytest.mark.parametrize("seed", SEEDS)
def test_contradiction_adds_no_number_and_removes_no_anchor(seed: int) -> None:
    mutant = contradiction(REFUND_ANSWER, REFUND, seed=seed)
    assert_carries_only("contradiction", REFUND_ANSWER, mutant.text, REFUND)


def test_contradiction_in_a_bulleted_answer_is_a_new_bullet() -> None:
    base = "- Take amoxicillin 500 mg three times a day for 5 days.  \n- Eat first."
    mutant = contradiction(base, DOSE, seed=1)
    assert mutant.text.startswith(base + "\n- ")
    assert_carries_only("contradiction", base, mutant.text, DOSE)


def test_contradiction_refuses_a_context_without_statements() -> None:
    case = Case(id="z", context="Paris. Berlin.", anchors=("Paris",), label_source="t")
    with pytest.raises(MutationRefused, match="no flippable statement"):
        contradiction("Paris", case, seed=0)


# --- inversion ------------------------------------------------------------------------------


def test_inversion_flips_in_place() -> None:
    case = Case(
        id="tablet",
        context="Take the tablet before breakfast.",
        anchors=("breakfast",),
        label_source="hand-written test",
    )
    base = "Take the tablet before breakfast."
    # Hand-derived: imperative negated, or before -> after.
    expected = {"Do not take the tablet before breakfast.", "Take the tablet after breakfast."}
    got = {inversion(base, case, seed=s).text for s in range(12)}
    assert got == expected
    for text in got:
        assert_carries_only("inversion", base, text, case)


def test_inversion_refuses_a_flip_that_negates_an_anchor() -> None:
    # With "tablet" as the anchor, "Do not take the tablet" negates it (a negation cue within
    # NEGATION_WINDOW = 3 words: a second, deterministic defect), so only before -> after is left.
    case = Case(
        id="tablet",
        context="Take the tablet before breakfast.",
        anchors=("tablet",),
        label_source="hand-written test",
    )
    got = {inversion("Take the tablet before breakfast.", case, seed=s).text for s in range(12)}
    assert got == {"Take the tablet after breakfast."}


def test_inversion_never_touches_an_anchor() -> None:
    case = Case(
        id="tablet",
        context="Take the blue tablet before breakfast.",
        anchors=("before breakfast",),
        label_source="hand-written test",
    )
    base = "Take the blue tablet before breakfast."
    got = {inversion(base, case, seed=s).text for s in range(8)}
    assert got == {"Do not take the blue tablet before breakfast."}


@pytest.mark.parametrize("seed", SEEDS)
def test_inversion_keeps_every_anchor_and_number(seed: int) -> None:
    mutant = inversion(REFUND_ANSWER, REFUND, seed=seed)
    assert_carries_only("inversion", REFUND_ANSWER, mutant.text, REFUND)


def test_inversion_refusals() -> None:
    bare = Case(id="y", context="Delhi is the capital.", anchors=("Delhi",), label_source="t")
    with pytest.raises(MutationRefused, match="no statement to flip"):
        inversion("Delhi", bare, seed=0)
    # Removing the abstention's negation would make it answer: a second defect, so refused.
    with pytest.raises(MutationRefused, match="non_abstention"):
        inversion(ABSTENTION, UNANSWERABLE, seed=0)


# --- verifier -------------------------------------------------------------------------------


def test_verifier_refuses_a_mutant_with_two_defects() -> None:
    # Dropping "30 days" AND adding "45" is two defects.
    two = "Customers can ask for a refund within 45 days, and there is no restocking fee."
    with pytest.raises(MutationRefused, match="expected one new missing_anchor"):
        verify_mutant("omission", REFUND_ANSWER, two, REFUND, anchor=REFUND.anchors[0])
    with pytest.raises(MutationRefused, match="expected one new ungrounded_number"):
        verify_mutant("fabricated_number", REFUND_ANSWER, two, REFUND)
    with pytest.raises(MutationRefused, match="identical"):
        verify_mutant("inversion", REFUND_ANSWER, REFUND_ANSWER, REFUND)


# --- property: every emitted mutant carries its defect, for any seed -------------------------

_BASES = [
    (load_corpus(CORPUS / name).case_for(o), o.text)
    for name in ("opengate", "halueval")
    for o in load_corpus(CORPUS / name).bases()[:6]
]


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**63 - 1))
def test_every_emitted_mutant_carries_its_defect(seed: int) -> None:
    for case, text in _BASES:
        for defect, mutator in MUTATORS.items():
            try:
                mutant = mutator(text, case, seed=seed)
            except MutationRefused:
                continue
            assert mutant.defect == defect
            assert mutant.text != text
            # its own verifier accepts it, and so do the independent grounding checks
            verify_mutant(defect, text, mutant.text, case, anchor=mutant.anchor)
            assert_carries_only(defect, text, mutant.text, case)


_PIECES = st.sampled_from(
    ["Take", "500 mg", "5 days", "five days", "not", "is", "before", "with", "the", "dose", ".",
     ",", "\n- ", "12", "I don't know", "(", ")", "no", "don't", "Go", "1.", "ninety (90)", "’"]
)  # fmt: skip


@settings(max_examples=40, deadline=None)
@given(
    parts=st.lists(st.one_of(_PIECES, st.text(max_size=4)), max_size=20),
    seed=st.integers(min_value=0, max_value=2**32),
    unanswerable=st.booleans(),
)
def test_arbitrary_text_gives_a_verified_mutant_or_a_refusal(
    parts: list[str], seed: int, unanswerable: bool
) -> None:
    text = " ".join(parts)
    case = UNANSWERABLE if unanswerable else DOSE
    for defect, mutator in MUTATORS.items():
        try:
            mutant = mutator(text, case, seed=seed)
        except MutationRefused as exc:
            refusal: MutationRefused | None = exc
        else:
            refusal = None
            assert_carries_only(defect, text, mutant.text, case)
        if refusal is not None:
            assert refusal.defect == defect
            assert refusal.reason
