"""A study of context mutants with an LLM judge on the real OpenAI-compatible test server.

The scripted support judge reads the context it is shown: it accepts the answer's claim exactly
when that context states "30 days" (a judge that checks support, nothing more); its
contradiction verdict accepts everything. So the judge must see each mutant's own context, not
its case's: it then detects the dropped evidence, and the negative controls change nothing.
Every expected figure below follows by hand from that script and the mutators' rules.
"""

from __future__ import annotations

from pathlib import Path

from hybridjudge.corpus import (
    CONTEXT_DEFECT_CLASSES,
    CONTROL_CLASSES,
    Anchor,
    Case,
    Output,
    Producer,
    load_corpus,
    write_jsonl_models,
)
from hybridjudge.model import ModelConfig
from hybridjudge.mutations import generate_mutations
from hybridjudge.study import StudyPlan, run_study
from tests.judges.helpers import (
    claims_reply,
    contradiction_reply,
    evidence_of,
    point_reply,
    prompt_of,
    statement_of,
    support_reply,
)
from tests.support.openai_server import FakeOpenAIServer, RecordedRequest, Step

CONTEXT = (
    "Customers may request a full refund within 30 days of purchase. "
    "Refunds are processed within 5 business days. "
    "Store credit never expires."
)
ANSWER = "You can ask for a refund within 30 days."


def _respond(request: RecordedRequest) -> Step:
    name = prompt_of(request)
    if name == "claims":
        return claims_reply(ANSWER)
    assert statement_of(request).rstrip(".") == ANSWER.rstrip(".")
    stated = "30 days" in evidence_of(request)
    if name == "support":
        quote = "a full refund within 30 days of purchase" if stated else ""
        return support_reply("YES" if stated else "NO", quote)
    if name == "point":
        return point_reply("NO")
    assert name == "contradiction", name
    return contradiction_reply("YES")


def test_the_judge_sees_each_mutants_own_context(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig, tmp_path: Path
) -> None:
    openai_server.respond_with(_respond)
    root = tmp_path / "refunds"
    case = Case(
        id="refund",
        question="How long do I have to ask for a refund?",
        context=CONTEXT,
        anchors=(Anchor(value="30 days"),),
        label_source="hand-written test",
    )
    base = Output(
        id="refund::base",
        case_id="refund",
        text=ANSWER,
        producer=Producer(system="toy-rag", kind="synthetic"),
        clean=True,
    )
    # a second case, with no output of its own, lends the distractor its passages
    other = Case(
        id="shipping",
        question="How fast is shipping?",
        context="Standard shipping takes 5 business days. Customers may request express delivery.",
        label_source="hand-written test",
    )
    write_jsonl_models(root / "cases.jsonl", [case, other])
    write_jsonl_models(root / "outputs.jsonl", [base])
    corpus = load_corpus(root)
    mutants = generate_mutations(
        corpus, seed=0, classes=(*CONTEXT_DEFECT_CLASSES, *CONTROL_CLASSES)
    )
    # the one fact of the answer is the anchor "30 days": every class is made
    assert {o.defect for o in mutants.outputs} == {*CONTEXT_DEFECT_CLASSES, *CONTROL_CLASSES}
    plan = StudyPlan.from_corpora([(corpus, root)], [(mutants, tmp_path / "m.jsonl", "sha")])
    study = run_study(plan, repetitions=2, model_config=fake_model_config)

    detected = {(r.defect_class, r.scorer): (r.detected, r.n) for r in study.analysis.detection}
    for defect in CONTEXT_DEFECT_CLASSES:
        # the support judge, shown a context without "30 days", rejects the claim every time
        assert detected[(defect, "support")] == (1, 1), defect
        assert detected[(defect, "contradiction")] == (0, 1), defect
        # an answer may repeat an anchor's quantity: the number check passes "30 days"
        assert detected[(defect, "deterministic")] == (0, 1), defect
    controls = {(r.control, r.scorer): (r.changed_every, r.n) for r in study.analysis.controls}
    for control in CONTROL_CLASSES:
        for scorer in ("deterministic", "support", "contradiction"):
            assert controls[(control, scorer)] == (0, 1), (control, scorer)
    assert not any(r.defect_class in CONTROL_CLASSES for r in study.analysis.detection)

    blames = {b.output_id: b for b in study.blame}
    # failed: the four retriever mutants (the support judge in both repetitions), nothing else
    assert set(blames) == {f"refund::base::{d}" for d in CONTEXT_DEFECT_CLASSES}
    for blame in blames.values():
        assert blame.call == "retrieval", blame
        assert blame.missing_from_context == ("anchor: 30 days",)
        assert blame.explained == (f"support: {ANSWER.rstrip('.')}",)  # the claim as judged
    (row,) = study.analysis.blame
    assert (row.system, row.failures, row.retrieval, row.retrieval_share) == ("toy-rag", 4, 4, 1.0)
