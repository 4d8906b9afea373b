"""The study as a plain library call: an immutable plan from a loader, the paper comparison as
an explicit step, settings validated once."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from hybridjudge import ConfigError, InputError
from hybridjudge.corpus import load_corpus
from hybridjudge.study import StudyPlan, compare_with_paper, load_plan, run_study

ROOT = Path(__file__).resolve().parents[2]
OPENGATE = ROOT / "corpus" / "opengate"
TOY = Path(__file__).resolve().parent / "golden" / "toy"


def test_a_plan_is_immutable_and_built_by_a_loader() -> None:
    plan = load_plan(
        corpus_paths=[OPENGATE], mutation_paths=[ROOT / "mutations" / "opengate.jsonl"]
    )
    with pytest.raises(ValidationError, match="frozen"):
        plan.seed = 3  # type: ignore[misc]
    again = StudyPlan.load(
        corpus_paths=[OPENGATE], mutation_paths=[ROOT / "mutations" / "opengate.jsonl"]
    )
    assert again == plan
    # 27 lines of outputs.jsonl + 23 mutants (24 lines of the mutation file, one its header)
    assert len(plan.outputs) == 27 + 23
    assert plan.judged == frozenset(o.id for o in plan.outputs)


def test_a_plan_from_loaded_corpora_reads_no_file(tmp_path: Path) -> None:
    corpus = load_corpus(TOY)
    plan = StudyPlan.from_corpora([(corpus, "anywhere/toy")], judge_sample=1, seed=0)
    assert plan.corpus_records[0].path == "anywhere/toy"
    judged_bases = [o for o in plan.outputs if o.id in plan.judged and o.base_id is None]
    assert len(judged_bases) == 1


def test_the_paper_comparison_is_an_explicit_step() -> None:
    plan = load_plan(corpus_paths=[OPENGATE])
    study = run_study(plan, scorers=["deterministic"])
    assert study.reference is None
    assert study.reference_differences == ()
    compared = compare_with_paper(study, plan)
    assert compared.reference is not None
    assert compared.reference_note is not None
    assert "OpenGATE paper" in compared.reference_note
    assert compared.observations == study.observations
    # a corpus without the paper's files: nothing to compare, the study comes back unchanged
    toy = load_plan(corpus_paths=[TOY])
    toy_study = run_study(toy, scorers=["deterministic"])
    assert compare_with_paper(toy_study, toy) is toy_study


def test_settings_are_validated_once_with_parameter_names() -> None:
    plan = load_plan(corpus_paths=[TOY])
    with pytest.raises(ConfigError, match="repetitions must be a whole number of at least 1") as e:
        run_study(plan, scorers=["deterministic"], repetitions=0)
    assert e.value.code == "invalid_repetitions"
    with pytest.raises(ConfigError, match="listed twice"):
        run_study(plan, scorers=["deterministic", "deterministic"])
    with pytest.raises(ConfigError, match="not a judge"):
        run_study(plan, scorers=["deterministic"], thresholds={"deterministic": 0.5})
    with pytest.raises(ConfigError, match="no corpus given") as empty:
        load_plan(corpus_paths=[])
    assert "--" not in str(empty.value)  # library errors speak of parameters, not flags
    with pytest.raises(ConfigError, match="judge_sample names corpus halueval"):
        load_plan(corpus_paths=[TOY], judge_sample={"halueval": 2})
    with pytest.raises(InputError, match="seed=-1") as seed:
        load_plan(corpus_paths=[TOY], seed=-1)
    assert seed.value.code == "invalid_seed"
