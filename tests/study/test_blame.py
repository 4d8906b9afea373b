"""Blame per answer: retrieval, generation, both or unknown, with its evidence.

Hand-worked cases first (each expected call and fact worked out from the rule in
``hybridjudge.study._blame``), then the acceptance figure on cases constructed from the shipped
OpenGATE corpus (``tests/study/_blame_cases.py``), then the study's tables and files.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from hybridjudge.corpus import load_corpus
from hybridjudge.mutations import load_mutations
from hybridjudge.reports import render_markdown
from hybridjudge.reports._export import BLAME_COLUMNS, OBSERVATION_COLUMNS, observations_csv
from hybridjudge.study import (
    StudyPlan,
    blame_answer,
    retrieval_scores,
    run_study,
)
from tests.study._blame_cases import rates

REPO = Path(__file__).resolve().parents[2]


def test_a_required_fact_missing_from_the_context_is_the_retrievers() -> None:
    blame = blame_answer("Take 500 mg for 5 days.", ["Take it for 5 days."], anchors=["500 mg"])
    assert blame.call == "retrieval"
    assert blame.missing_from_context == ("anchor: 500 mg",)
    assert blame.generation == ()


def test_a_fact_in_the_context_misstated_is_the_generators() -> None:
    blame = blame_answer("Take 250 mg for 5 days.", ["Take 500 mg for 5 days."], anchors=["500 mg"])
    assert blame.call == "generation"
    assert blame.missing_from_context == ()
    assert set(blame.generation) == {"missing_anchor: 500 mg", "ungrounded_number: 250 mg"}


def test_both_when_the_context_lacks_a_fact_and_the_answer_adds_its_own_error() -> None:
    blame = blame_answer("Take 500 mg for 7 days.", ["Take it for 5 days."], anchors=["500 mg"])
    assert blame.call == "both"
    assert blame.missing_from_context == ("anchor: 500 mg",)
    assert blame.generation == ("ungrounded_number: 7 days",)
    assert "500 mg" in blame.evidence
    assert "7 days" in blame.evidence


def test_unknown_when_nothing_is_known_to_be_required() -> None:
    blame = blame_answer("It costs 40 dollars.", ["It is cheap."])
    assert blame.call == "unknown"
    assert blame.generation == ("ungrounded_number: 40 dollars",)


def test_a_reference_figure_the_context_lacks_is_missing() -> None:
    # no anchors: the reference answer's figure is what is required
    blame = blame_answer(
        "The fee is 15%.", ["Returns are free."], reference="A 15% restocking fee applies."
    )
    assert blame.call == "retrieval"
    assert blame.missing_from_context == ("figure: 15%",)
    assert blame.explained == ("ungrounded_number: 15%",)


def test_a_judges_claim_that_flips_the_lost_fact_is_the_generators() -> None:
    reference = "You can get a refund within 30 days."
    context = ["Shipping is free."]
    kept = blame_answer(
        reference,
        context,
        anchors=["30 days"],
        reference=reference,
        judge_issues=["You can get a refund within 30 days."],
        judge_failed=True,
    )
    assert kept.call == "retrieval"
    flipped = blame_answer(
        "You cannot get a refund within 30 days.",
        context,
        anchors=["30 days"],
        reference=reference,
        judge_issues=["You cannot get a refund within 30 days."],
        judge_failed=True,
    )
    assert flipped.call == "both"
    assert flipped.generation == ("You cannot get a refund within 30 days.",)


def test_retrieval_scores_by_hand() -> None:
    # d1 relevant at rank 2 of 3, d9 relevant and not retrieved
    scores = retrieval_scores(["d3", "d1", "d7"], qrels={"d1": 1, "d9": 2, "d3": 0})
    assert scores is not None
    assert (scores.k, scores.relevant, scores.retrieved_relevant) == (3, 2, 1)
    assert (scores.hit, scores.recall, scores.reciprocal_rank) == (1.0, 0.5, 0.5)
    texts = retrieval_scores(
        ["Shipping is free.", "Refunds within 30 days of purchase."],
        reference_contexts=["refunds within 30 days"],
    )
    assert texts is not None
    assert (texts.hit, texts.recall, texts.reciprocal_rank) == (1.0, 1.0, 0.5)
    assert retrieval_scores(["a"], qrels=[]) is None
    missed = blame_answer("x", ["a"], retrieval=retrieval_scores(["a"], qrels=["b"]))
    assert missed.call == "retrieval"
    assert missed.missing_from_context == (
        "passage: 1 of 1 relevant not retrieved (recall@1 0.00)",
    )


def test_blame_is_right_on_at_least_95_percent_of_constructed_opengate_cases() -> None:
    """Acceptance (issue 35): each kind of constructed case, from the shipped corpus."""
    measured = rates()
    assert set(measured) == {"retrieval", "generation", "both"}
    for kind, (right, total, misses) in measured.items():
        assert total >= 50, f"{kind}: only {total} constructed cases"
        assert right / total >= 0.95, f"{kind}: {right}/{total}; misses: {misses[:3]}"


@pytest.fixture(scope="module")
def study() -> object:
    corpus = load_corpus(REPO / "corpus/opengate")
    sets = [
        (load_mutations(REPO / f"mutations/{name}.jsonl"), f"mutations/{name}.jsonl", "sha")
        for name in ("opengate", "opengate-retrieval")
    ]
    plan = StudyPlan.from_corpora([(corpus, "corpus/opengate")], sets)
    return run_study(plan, scorers=["deterministic"])


def test_the_study_blames_each_failed_output_and_tables_the_shares(study: object) -> None:
    from hybridjudge.study import StudyResult

    assert isinstance(study, StudyResult)
    calls = {b.output_id: b for b in study.blame}
    # a right answer whose evidence passage was dropped (the figure 8.2 with it)
    dropped = calls["simplify-medication-change::base::evidence_dropped"]
    assert dropped.call == "retrieval"
    assert "figure: 8.2 mU/L" in dropped.missing_from_context
    assert dropped.defect == "evidence_dropped"
    assert dropped.system == "patiently"  # its base's producer
    # an answer mutant scored against the whole context
    assert calls["grounding-saas-refund::base::fabricated_number"].call == "generation"
    # every flagged output is blamed, and only those
    flagged = {o.output_id for o in study.observations if o.flagged}
    assert set(calls) == flagged
    rows = {(r.corpus, r.system): r for r in study.analysis.blame}
    for row in rows.values():
        assert row.failures == row.retrieval + row.generation + row.both + row.unknown
    assert sum(r.failures for r in rows.values()) == len(flagged)
    markdown = render_markdown(study)
    assert "## Whose failure: the retriever's or the generator's" in markdown
    assert "| opengate | generic-rag-answerer |" in markdown


def test_controls_are_false_alarm_rows_and_retriever_classes_detection_rows(study: object) -> None:
    from hybridjudge.study import StudyResult

    assert isinstance(study, StudyResult)
    controls = {r.control: r for r in study.analysis.controls}
    assert set(controls) == {"passages_shuffled", "passage_duplicated"}
    for row in controls.values():
        assert (row.n, row.changed_every, row.changed_sometimes) == (6, 0, 0)
    classes = {r.defect_class for r in study.analysis.detection}
    assert {"evidence_dropped", "distractor", "stale_passage", "truncated"} <= classes
    assert not classes & set(controls)  # a control is never a detection
    markdown = render_markdown(study)
    assert "passages shuffled (control): verdict changed (false alarms)" in markdown
    assert "evidence dropped (retriever) [mutator]" in markdown


def test_observations_csv_ends_with_the_blame(study: object) -> None:
    from hybridjudge.study import StudyResult

    assert isinstance(study, StudyResult)
    rows = list(csv.reader(io.StringIO(observations_csv(study))))
    # after the columns there were before (the corpus has no metadata: they end the row)
    assert tuple(rows[0]) == (*OBSERVATION_COLUMNS, *BLAME_COLUMNS)
    by_id = {r[1]: r for r in rows[1:]}
    dropped = by_id["simplify-medication-change::base::evidence_dropped"]
    assert dropped[-4] == "retrieval"
    assert "anchor: levothyroxine" in dropped[-3]
    clean = by_id["simplify-discharge-brief::base"]
    assert clean[-4:] == ["", "", "", ""]


def test_the_viewer_shows_a_context_mutant_its_own_context() -> None:
    from hybridjudge.study import load_study, view_data

    data = view_data(load_study(REPO / "results/retrieval/study.json"), roots=(REPO,))
    views = {v.id: v for v in data.outputs}
    base = views["simplify-discharge-brief::base"]
    dropped = views["simplify-discharge-brief::base::evidence_dropped"]
    mutant = load_mutations(REPO / "mutations/opengate-retrieval.jsonl")
    (own,) = [o for o in mutant.outputs if o.id == dropped.id]
    assert dropped.context == own.context
    assert dropped.context != base.context
