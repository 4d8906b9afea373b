"""The retriever's defects as mutation classes: each context mutator on a hand-written case.

Expected contexts below are worked out by hand from each mutator's documented rule; that the
fact is really gone is decided by ``hybridjudge.grounding.check_grounding`` directly (its anchor
matcher over the mutant context), not only by the mutators' own verifier. The negative controls
are checked on every shipped base: they change no deterministic verdict.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from hybridjudge.corpus import (
    CONTEXT_DEFECT_CLASSES,
    CONTROL_CLASSES,
    Anchor,
    Case,
    Output,
    load_corpus,
)
from hybridjudge.grounding import check_grounding
from hybridjudge.mutations import (
    CONTEXT_MUTATORS,
    ContextMutant,
    Evidence,
    MutationRefused,
    distractor,
    evidence_dropped,
    generate_mutations,
    load_mutations,
    passage_duplicated,
    passages,
    passages_shuffled,
    stale_passage,
    truncated,
    verify_context_mutant,
    write_mutations,
)

REPO = Path(__file__).resolve().parents[2]

REFUND = Case(
    id="refund",
    question="How long do customers have to request a refund?",
    context=(
        "Customers may request a full refund within 30 days of purchase. "
        "There is no restocking fee for standard plans. "
        "Enterprise hardware returns are subject to a 15% restocking fee.",
    ),
    anchors=(Anchor(value="30 days", aliases=("thirty days",)), Anchor(value="no restocking fee")),
    label_source="hand-written test",
)
ANSWER = "You can get a full refund within 30 days, and there is no restocking fee."
SHIPPING = Case(
    id="shipping",
    question="How fast is shipping?",
    context=(
        "Standard shipping takes 5 business days. Customers may request express delivery "
        "for a fee of 12 dollars.",
    ),
    label_source="hand-written test",
)
SENTENCES = (
    "Customers may request a full refund within 30 days of purchase.",
    "There is no restocking fee for standard plans.",
    "Enterprise hardware returns are subject to a 15% restocking fee.",
)


def _anchor_in(context: tuple[str, ...], anchor: Anchor) -> bool:
    report = check_grounding("\n".join(context), list(context), anchors=[anchor])
    return not any(f.kind == "missing_anchor" for f in report.findings)


def _seed_for(mutator: object, fact: str, **kw: object) -> ContextMutant:
    """The first seed whose mutant targets *fact* (the seed picks among the facts)."""
    for seed in range(50):
        found: ContextMutant = mutator(ANSWER, REFUND, seed=seed, **kw)  # type: ignore[operator]
        if found.evidence is not None and found.evidence.value == fact:
            return found
    raise AssertionError(f"no seed targets {fact}")


def test_a_single_passage_context_is_split_into_its_sentences() -> None:
    assert passages(REFUND) == SENTENCES
    two = REFUND.model_copy(update={"context": ("a b.", "c d.")})
    assert passages(two) == ("a b.", "c d.")


def test_evidence_dropped_removes_every_passage_holding_the_fact() -> None:
    found = _seed_for(evidence_dropped, "30 days")
    assert found.context == SENTENCES[1:]
    assert found.defect == "evidence_dropped"
    assert not _anchor_in(found.context, REFUND.anchors[0])  # gone for grounding too
    assert _anchor_in(found.context, REFUND.anchors[1])  # the other fact stays
    assert found.detail == "passage 1 of 3 holding anchor '30 days' dropped"


def test_distractor_puts_another_cases_nearest_passage_where_the_evidence_was() -> None:
    found = _seed_for(distractor, "30 days", pool=(REFUND, SHIPPING))
    # the seed picks among the three passages of other cases nearest the evidence; SHIPPING
    # has two, so either may stand where the evidence was, and the rest stays as it was
    assert found.context[0] in passages(SHIPPING)
    assert found.context[1:] == SENTENCES[1:]
    assert not _anchor_in(found.context, REFUND.anchors[0])
    assert "from case 'shipping'" in found.detail
    with pytest.raises(MutationRefused, match="no other case"):
        distractor(ANSWER, REFUND, seed=0, pool=(REFUND,))


def test_stale_passage_states_another_figure_for_the_same_thing() -> None:
    found = _seed_for(stale_passage, "30")
    (stale,) = [p for p in found.context if p not in SENTENCES]
    new = stale.split("within ")[1].split(" days")[0]
    assert stale == f"Customers may request a full refund within {new} days of purchase."
    assert new in {"60", "31", "32", "35", "90", "29"}  # 2n, n+1, n+2, n+5, 3n, n-1 by hand
    assert found.context[1:] == SENTENCES[1:]  # only the evidence passage changed
    assert not _anchor_in(found.context, REFUND.anchors[0])
    # the answer's figure is no longer in the context: the number check now sees it
    report = check_grounding(ANSWER, list(found.context))
    assert [f.subject for f in report.findings if f.kind == "ungrounded_number"] == ["30 days"]


def test_truncated_cuts_the_context_right_before_the_fact() -> None:
    found = _seed_for(truncated, "no restocking fee")
    assert found.context == (SENTENCES[0], "There is")
    assert "\n".join(SENTENCES).startswith("\n".join(found.context))
    assert not _anchor_in(found.context, REFUND.anchors[1])
    opening = REFUND.model_copy(update={"context": ("30 days is the limit for refunds.",)})
    with pytest.raises(MutationRefused, match="empty"):
        # the only fact opens the context: nothing is left before it
        truncated("Within 30 days.", opening, seed=0)


def test_the_controls_keep_every_passage() -> None:
    shuffled = passages_shuffled(ANSWER, REFUND, seed=3)
    assert sorted(shuffled.context) == sorted(SENTENCES)
    assert shuffled.context != SENTENCES
    duplicated = passage_duplicated(ANSWER, REFUND, seed=3)
    assert len(duplicated.context) == 4
    i = next(i for i in range(3) if duplicated.context[i] == duplicated.context[i + 1])
    assert duplicated.context[: i + 1] + duplicated.context[i + 2 :] == SENTENCES
    one = REFUND.model_copy(update={"context": ("Only one sentence here",)})
    with pytest.raises(MutationRefused, match="fewer than two"):
        passages_shuffled(ANSWER, one, seed=0)


@pytest.mark.parametrize("defect", [*CONTEXT_DEFECT_CLASSES, *CONTROL_CLASSES])
def test_same_seed_same_mutant_and_seeds_differ(defect: str) -> None:
    mutator = CONTEXT_MUTATORS[defect]  # type: ignore[index]
    pool = (REFUND, SHIPPING)
    first = mutator(ANSWER, REFUND, seed=11, pool=pool)
    assert mutator(ANSWER, REFUND, seed=11, pool=pool) == first
    assert len({mutator(ANSWER, REFUND, seed=s, pool=pool).context for s in range(12)}) > 1


def test_the_verifier_refuses_a_context_that_still_holds_the_fact() -> None:
    fact = Evidence(kind="anchor", value="30 days", anchor=REFUND.anchors[0])
    # the alias "thirty days" survives: the fact is not gone
    still = ("Refunds within thirty days.", *SENTENCES[1:])
    with pytest.raises(MutationRefused, match="still in the context"):
        verify_context_mutant(
            ContextMutant("evidence_dropped", still, "crafted", fact), ANSWER, REFUND
        )
    with pytest.raises(MutationRefused, match="does not state"):
        verify_context_mutant(
            ContextMutant("evidence_dropped", SENTENCES[1:], "crafted", fact), "No.", REFUND
        )
    with pytest.raises(MutationRefused, match="one passage repeated"):
        verify_context_mutant(
            ContextMutant("passage_duplicated", (*SENTENCES, "Other text."), "crafted"),
            ANSWER,
            REFUND,
        )


def test_an_output_carries_its_own_context_and_files_keep_their_bytes() -> None:
    plain = Output.model_validate_json(
        '{"id":"a","case_id":"c","text":"t","producer":{"system":"s","kind":"real"}}'
    )
    assert "context" not in json.loads(plain.model_dump_json())  # answer outputs unchanged
    own = plain.model_copy(update={"context": ("p1", "p2")})
    assert Output.model_validate_json(own.model_dump_json()).context == ("p1", "p2")


@pytest.mark.parametrize("name", ["opengate", "halueval"])
def test_frozen_retrieval_files_regenerate_byte_for_byte(name: str, tmp_path: Path) -> None:
    corpus = load_corpus(REPO / "corpus" / name)
    made = generate_mutations(corpus, seed=0, classes=(*CONTEXT_DEFECT_CLASSES, *CONTROL_CLASSES))
    write_mutations(made, tmp_path / "out.jsonl")
    frozen = REPO / "mutations" / f"{name}-retrieval.jsonl"
    assert (tmp_path / "out.jsonl").read_bytes() == frozen.read_bytes()
    assert json.loads(frozen.read_bytes().splitlines()[0])["format_version"] == 2
    # the answer-side file stays version 1, byte for byte
    answers = generate_mutations(corpus, seed=0)
    write_mutations(answers, tmp_path / "answers.jsonl")
    shipped = REPO / "mutations" / f"{name}.jsonl"
    assert (
        hashlib.sha256((tmp_path / "answers.jsonl").read_bytes()).digest()
        == hashlib.sha256(shipped.read_bytes()).digest()
    )


@pytest.mark.parametrize("name", ["opengate", "halueval"])
def test_every_frozen_context_mutant_carries_its_defect(name: str) -> None:
    corpus = load_corpus(REPO / "corpus" / name)
    mutants = load_mutations(REPO / "mutations" / f"{name}-retrieval.jsonl")
    mutants.check_corpus(corpus)
    bases = {o.id: o for o in corpus.bases()}
    counts: dict[str, int] = {}
    for out in mutants.outputs:
        base = bases[out.base_id or ""]
        case = corpus.case_for(base)
        assert out.text == base.text  # the answer is kept
        assert out.context is not None
        assert out.context != passages(case)
        counts[str(out.defect)] = counts.get(str(out.defect), 0) + 1
        if out.defect in CONTROL_CLASSES:
            assert set(out.context) == set(passages(case))
            continue
        # independently of the verifier: an anchor the detail names is gone for grounding
        anchor = next(
            (a for a in case.anchors if f"anchor {a.value!r}" in (out.defect_detail or "")), None
        )
        if anchor is not None and out.defect != "stale_passage":
            assert not _anchor_in(out.context, anchor), out.id
    assert set(counts) == {*CONTEXT_DEFECT_CLASSES, *CONTROL_CLASSES}


def _verdict(
    answer: str, context: tuple[str, ...], case: Case
) -> tuple[bool, set[tuple[str, str]]]:
    report = check_grounding(
        answer,
        list(context),
        question=case.question,
        anchors=case.anchors,
        answerable=case.answerable,
        allowed_numbers=case.allowed_numbers,
    )
    return report.grounded, {(str(f.kind), f.subject) for f in report.findings}


@pytest.mark.parametrize("name", ["opengate", "halueval"])
def test_the_negative_controls_change_no_deterministic_verdict(name: str) -> None:
    corpus = load_corpus(REPO / "corpus" / name)
    mutants = load_mutations(REPO / "mutations" / f"{name}-retrieval.jsonl")
    bases = {o.id: o for o in corpus.bases()}
    checked = 0
    for out in mutants.outputs:
        if out.defect not in CONTROL_CLASSES:
            continue
        case = corpus.case_for(bases[out.base_id or ""])
        assert out.context is not None

        assert _verdict(out.text, out.context, case) == _verdict(out.text, case.context, case)
        checked += 1
    assert checked == {"opengate": 12, "halueval": 200}[name]
