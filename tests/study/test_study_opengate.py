"""The study on the shipped OpenGATE corpus: the paper's own numbers are the golden values.

``corpus/opengate/paper-results/summary.json`` is the paper's summary (nickjlamb/opengate, MIT),
computed by the paper's code from the same per-repetition scores; our analysis of those scores
must reproduce it exactly, and our deterministic scorer must match or exceed its deterministic arm.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hybridjudge.cli import main
from hybridjudge.study import (
    StudyResult,
    compare_with_paper,
    load_plan,
    load_study,
    run_study,
)

ROOT = Path(__file__).resolve().parents[2]
OPENGATE = ROOT / "corpus" / "opengate"
SUMMARY = json.loads((OPENGATE / "paper-results" / "summary.json").read_text(encoding="utf-8"))
PAPER_CLASS = {
    "omission": "dropped_anchor",
    "fabricated_number": "fabricated_number",
    "non_abstention": "non_abstention",
    "contradiction": "contradiction",
    "inversion": "inversion",
}
ARMS = {
    "paper: OpenGATE deterministic": "deterministic",
    "paper: RAGAS (gpt-4o)": "ragas",
    "paper: DeepEval (gpt-4o)": "deepeval",
}


@pytest.fixture(scope="module")
def study() -> StudyResult:
    plan = load_plan(corpus_paths=[OPENGATE])
    return compare_with_paper(run_study(plan, scorers=["deterministic"], repetitions=2), plan)


def test_reference_reproduces_the_papers_summary_exactly(study: StudyResult) -> None:
    assert study.reference is not None
    for row in study.reference.detection:
        if row.origin == "labelled":
            continue  # the 2 bases the corpus labels faulty: not a row of the paper's summary
        paper = SUMMARY["detection"][PAPER_CLASS[row.defect_class]]["arms"][ARMS[row.scorer]]
        assert row.n == SUMMARY["detection"][PAPER_CLASS[row.defect_class]]["n"]
        assert row.detected == paper["detectedEveryRepeat"], (row.scorer, row.defect_class)
        assert row.detected + row.reacted_sometimes == paper["detectedAtLeastOnce"]
        assert row.raw_flags == paper["rawDetectedEveryRepeat"]
    for fa in study.reference.false_alarms:
        paper_fa = SUMMARY["falsePositives"][ARMS[fa.scorer]]
        assert (fa.n, fa.flagged_every) == (paper_fa["n"], paper_fa["flaggedEveryRepeat"])
    # the paper lists those 2 bases as failing its deterministic gate (failingBases)
    (failing,) = [
        r
        for r in study.reference.detection
        if r.origin == "labelled" and r.scorer == "paper: OpenGATE deterministic"
    ]
    assert (failing.detected, failing.n) == (len(SUMMARY["failingBases"]), 2)
    flips = {s.scorer: s.verdict_flips for s in study.reference.stability}
    for scorer, arm in ARMS.items():
        assert flips[scorer] == SUMMARY["arms"][arm]["stability"]["verdictFlips"]


def test_deterministic_column_matches_or_exceeds_the_paper(study: StudyResult) -> None:
    assert study.reference is not None
    paper = {
        r.defect_class: r
        for r in study.reference.detection
        if r.scorer == "paper: OpenGATE deterministic" and r.origin == "paper"
    }
    ours = {
        r.defect_class: r
        for r in study.analysis.detection
        if r.scorer == "deterministic" and r.origin == "paper"
    }
    assert set(ours) == set(paper)
    for defect, row in ours.items():
        assert row.n == paper[defect].n
        assert row.detected >= paper[defect].detected, defect
    # the classes the checks are built for are caught every time
    for defect in ("omission", "fabricated_number", "non_abstention"):
        assert ours[defect].detected == ours[defect].n
    (fa,) = [r for r in study.analysis.false_alarms if r.scorer == "deterministic"]
    assert (fa.n, fa.flagged_every, fa.flagged_sometimes, fa.unlabelled) == (4, 0, 0, 0)
    # the 2 bases labelled faulty (clean false) are a row of their own, both flagged
    (wrong,) = [r for r in study.analysis.detection if r.origin == "labelled"]
    assert (wrong.defect_class, wrong.detected, wrong.n) == ("labelled_incorrect", 2, 2)
    (stab,) = study.analysis.stability
    assert stab.identical_across_repetitions


def test_every_corpus_file_is_checksummed(study: StudyResult) -> None:
    (record,) = study.corpora
    assert {"cases.jsonl", "outputs.jsonl"} <= set(record.files_sha256)
    assert all(len(v) == 64 for v in record.files_sha256.values())


def test_cli_writes_reports_and_report_regenerates_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "res"
    code = main(
        [
            "study",
            "run",
            "--corpus",
            str(OPENGATE),
            "--mutations",
            str(ROOT / "mutations" / "opengate.jsonl"),
            "--scorers",
            "deterministic",
            "--repetitions",
            "2",
            "--out",
            str(out),
            "--quiet",
        ]
    )
    assert code == 0
    printed = capsys.readouterr().out
    assert str(out / "report.html") in printed
    study = load_study(out)
    assert {r.origin for r in study.analysis.detection} == {"paper", "mutator", "labelled"}
    first = (out / "report.md").read_text()
    (out / "report.md").unlink()
    assert main(["report", str(out)]) == 0
    assert (out / "report.md").read_text() == first


def test_study_refuses_unknown_scorers_and_bad_repetitions() -> None:
    from hybridjudge import ConfigError

    plan = load_plan(corpus_paths=[OPENGATE])
    with pytest.raises(ConfigError, match=r"unknown scorer.*bogus.*ragas, deepeval"):
        run_study(plan, scorers=["deterministic", "bogus"])
    with pytest.raises(ConfigError, match="at least 1"):
        run_study(plan, scorers=["deterministic"], repetitions=0)


def test_each_difference_from_the_paper_is_explained(study: StudyResult) -> None:
    # By hand: the paper's legal-clause contradiction mutant appends "without any written
    # notice"; the paper's substring test still finds the anchor "written notice", ours sees it
    # under a negation. That is the only paper mutant on which the two disagree.
    (diff,) = study.reference_differences
    assert diff.output_id == "grounding-legal-clause::contradiction"
    assert (diff.ours_reacted, diff.paper_reacted) == (True, False)
    assert diff.ours_new_issues == ("negated_anchor: written notice",)
    from hybridjudge.reports import render_markdown

    assert "grounding-legal-clause::contradiction" in render_markdown(study)


def test_judge_sample_is_seeded_covers_every_class_and_is_reported() -> None:
    muts = [ROOT / "mutations" / "opengate.jsonl"]
    plan = load_plan(corpus_paths=[OPENGATE], mutation_paths=muts, judge_sample=2, seed=0)
    again = load_plan(corpus_paths=[OPENGATE], mutation_paths=muts, judge_sample=2, seed=0)
    assert plan.judged == again.judged
    judged = [r for r in plan.records() if r.judged]
    bases = [r for r in judged if r.base_id is None]
    assert len(bases) == 2
    # every mutant of a chosen base comes along, and nothing else
    assert {r.id for r in judged if r.base_id} == {
        r.id for r in plan.records() if r.base_id in {b.id for b in bases}
    }
    # two bases suffice to cover all five classes (the unanswerable case is the only one with
    # failure-to-abstain mutants, so it must be among them)
    assert {r.defect for r in judged if r.defect} == {
        "omission",
        "fabricated_number",
        "non_abstention",
        "contradiction",
        "inversion",
    }
    sampling = plan.sampling()
    assert sampling is not None
    assert sampling.bases_per_corpus == {"opengate": 2}
    assert "--judge-sample all" in sampling.note
    assert "(bases per corpus: opengate 2 of 6," in sampling.note  # 6 bases in OpenGATE
    assert "the deterministic checks scored all. Run" in sampling.note
    # the hybrid scorer on every output (--hybrid-all-outputs) is named with the checks
    every = plan.sampling(hybrid_all_outputs=True)
    assert every is not None
    assert "the deterministic checks scored all, and so did the hybrid scorer." in every.note
    # a quota above the corpus's bases judges them all and says how many there are
    larger = load_plan(corpus_paths=[OPENGATE], mutation_paths=muts, judge_sample=100).sampling()
    assert larger is None  # every output judged: not a sample
    assert load_plan(corpus_paths=[OPENGATE], judge_sample=None).sampling() is None


def test_judge_sample_all_for_one_corpus_judges_it_whole() -> None:
    """``opengate=all,halueval=3`` (as ``--judge-sample`` writes it): OpenGATE whole, 3 HaluEval
    bases; the record names OpenGATE's 6 bases; a misspelt corpus is still refused."""
    from hybridjudge import ConfigError
    from hybridjudge.cli._study import _sample

    halueval = ROOT / "corpus" / "halueval"
    sample = _sample("opengate=all,halueval=3")
    assert sample == {"opengate": None, "halueval": 3}
    plan = load_plan(corpus_paths=[OPENGATE, halueval], judge_sample=sample)
    whole = load_plan(corpus_paths=[OPENGATE], judge_sample=None)
    opengate_judged = {i for i in plan.judged if plan.corpus_of[i] == "opengate"}
    assert opengate_judged == set(whole.judged)  # every OpenGATE output
    halueval_bases = [
        r for r in plan.records() if r.judged and r.base_id is None and r.corpus == "halueval"
    ]
    assert len(halueval_bases) == 3
    sampling = plan.sampling()
    assert sampling is not None
    assert sampling.bases_per_corpus == {"opengate": 6, "halueval": 3}
    assert "opengate 6 of 6, halueval 3 of 100" in sampling.note
    with pytest.raises(ConfigError, match="opengat"):
        load_plan(corpus_paths=[OPENGATE], judge_sample=_sample("opengat=all"))


def test_judge_sample_errors_name_the_corpus() -> None:
    from hybridjudge import ConfigError

    with pytest.raises(ConfigError, match="halueval"):
        load_plan(corpus_paths=[OPENGATE], judge_sample={"halueval": 2})
    with pytest.raises(ConfigError, match="at least 1"):
        load_plan(corpus_paths=[OPENGATE], judge_sample=0)
