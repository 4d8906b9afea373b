"""OpenGATE's frozen corpus (paper, experiment 2): 6 base outputs and 21 mutants.

Golden sources: the corpus's own labels (``defect``, ``base_id``, ``clean``, from
``expected.defectClass`` in the paper's ``frozen-corpus.json``) and the paper's deterministic
arm results (``paper-results/deterministic.json``: anchors missed and ungrounded numbers per
output, identical in all 5 repetitions).
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from hybridjudge.corpus import Case, Output, read_jsonl_models
from hybridjudge.grounding import GroundingReport, check_grounding

CORPUS = Path(__file__).resolve().parents[2] / "corpus" / "opengate"
DETECTABLE = ("omission", "fabricated_number", "non_abstention")
EXPECTED_KIND = {
    "omission": "missing_anchor",
    "fabricated_number": "ungrounded_number",
    "non_abstention": "non_abstention",
}


def _load() -> tuple[dict[str, Case], list[Output]]:
    if not (CORPUS / "outputs.jsonl").exists():  # pragma: no cover - the corpus is in the repo
        pytest.skip(f"{CORPUS} is missing; build it with the corpus tools")
    cases = {c.id: c for c in read_jsonl_models(CORPUS / "cases.jsonl", Case)}
    outputs = read_jsonl_models(CORPUS / "outputs.jsonl", Output)
    return cases, outputs


CASES, OUTPUTS = _load()
BY_ID = {o.id: o for o in OUTPUTS}


def _check(output: Output) -> GroundingReport:
    case = CASES[output.case_id]
    return check_grounding(
        output.text,
        case.context,
        question=case.question,
        anchors=case.anchors,
        answerable=case.answerable,
        allowed_numbers=case.allowed_numbers,
    )


def _keys(report: GroundingReport) -> set[tuple[str, str]]:
    return {(f.kind, f.subject) for f in report.findings}


def test_corpus_is_the_papers_27_outputs() -> None:
    assert len(OUTPUTS) == 27
    assert sum(o.base_id is None for o in OUTPUTS) == 6
    detectable = [o for o in OUTPUTS if o.defect in DETECTABLE]
    assert len(detectable) == 11  # 5 omissions + 5 fabricated numbers + 1 non-abstention


MUTANTS = [o for o in OUTPUTS if o.defect in DETECTABLE]


@pytest.mark.parametrize("mutant", MUTANTS, ids=[o.id for o in MUTANTS])
def test_detectable_mutant_raises_a_finding_its_base_does_not(mutant: Output) -> None:
    assert mutant.base_id is not None
    assert mutant.defect is not None
    base = BY_ID[mutant.base_id]
    new = _keys(_check(mutant)) - _keys(_check(base))
    assert new, f"{mutant.id}: no new finding"
    assert {kind for kind, _ in new} == {EXPECTED_KIND[mutant.defect]}


CLEAN_BASES = [o for o in OUTPUTS if o.base_id is None and o.clean is True]


def test_the_paper_counts_four_clean_bases() -> None:
    # docs/study.md (reference study): "clean outputs flagged every repetition: 0/4"
    assert len(CLEAN_BASES) == 4


@pytest.mark.parametrize("base", CLEAN_BASES, ids=[o.id for o in CLEAN_BASES])
def test_clean_base_is_grounded(base: Output) -> None:
    report = _check(base)
    assert report.grounded, report.findings


def _paper_results() -> dict[str, dict[str, Any]]:
    data = json.loads((CORPUS / "paper-results" / "deterministic.json").read_text("utf-8"))
    return {s["outputId"]: s for s in data["runs"][0]["scores"]}


# Where we deliberately differ from OpenGATE's deterministic arm, and why (docs/grounding.md).
DIFFERENCES = {
    # "without any written notice" contains the anchor "written notice" as a substring; the
    # anchor is negated, which OpenGATE cannot see.
    "grounding-legal-clause::contradiction": {("negated_anchor", "written notice")},
}


@pytest.mark.parametrize("output", OUTPUTS, ids=[o.id for o in OUTPUTS])
def test_agrees_with_the_papers_deterministic_arm_except_its_blind_spots(output: Output) -> None:
    paper = _paper_results()[output.id]
    report = _check(output)
    missing = {f.subject for f in report.findings if f.kind == "missing_anchor"}
    ungrounded = {t.quantity.value for t in report.quantities if t.source is None}
    extra = {(f.kind, f.subject) for f in report.findings if f.kind in ("negated_anchor",)}
    assert missing == set(paper["anchorsMissed"])
    assert ungrounded == {Fraction(n) for n in paper["ungroundedNumbers"]}
    assert extra == DIFFERENCES.get(output.id, set())
    if paper["abstained"] is not None:
        assert report.abstained is paper["abstained"]
