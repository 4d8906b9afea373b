"""The shipped corpora are exactly what ``scripts/build_corpus.py`` builds from their sources.

The sources are byte-for-byte copies of the upstream files, shipped with their licences in
``tests/data/corpus-source`` (see its README), so every check here runs on a fresh clone.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

from hybridjudge.corpus import (
    HALUEVAL_SEED,
    HALUEVAL_UNCLASSIFIED_DETAIL,
    load_corpus,
    sample_halueval,
)
from tests.support.scripts import load_script

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data" / "corpus-source"
SHIPPED = REPO / "corpus"


def _script() -> ModuleType:
    return load_script("scripts/build_corpus.py", "hj_build_corpus")


def _files(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.name != "README.md"
    }


def test_rebuild_reproduces_the_committed_files_byte_for_byte(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _script().main(["--data", str(DATA), "--out", str(tmp_path)]) == 0
    built, shipped = _files(tmp_path), _files(SHIPPED)
    assert sorted(built) == sorted(shipped)
    different = [name for name in built if built[name] != shipped[name]]
    assert different == []
    # the script prints one "sha256  path" line per written file
    assert len(capsys.readouterr().out.splitlines()) == len(built)


def test_rebuild_refuses_a_missing_data_dir(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _script().main(["--data", str(tmp_path / "nope"), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert "frozen-corpus.json" in err
    assert "tests/data/corpus-source" in err  # where a copy of the sources is
    assert "shared" not in err  # nothing outside the repository is named


def test_paper_results_are_unchanged_copies() -> None:
    for src in sorted((DATA / "opengate/paper/exp2/results").glob("*.json")):
        copy = SHIPPED / "opengate/paper-results" / src.name
        assert copy.read_bytes() == src.read_bytes()


def test_opengate_matches_the_paper_design() -> None:
    corpus = load_corpus(SHIPPED / "opengate")
    # OpenGATE paper exp. 2 (docs/study.md, docs/corpus.md): 27 frozen outputs, 6 bases, 5 mutants per class
    # except one failure-to-abstain; 4 clean bases ("clean outputs flagged ... /4").
    assert len(corpus.outputs) == 27
    assert len(corpus.bases()) == 6
    assert Counter(o.defect for o in corpus.mutants()) == {
        "omission": 5,
        "fabricated_number": 5,
        "non_abstention": 1,
        "contradiction": 5,
        "inversion": 5,
    }
    assert all(o.origin == "paper" for o in corpus.mutants())
    assert sorted(o.id for o in corpus.bases() if o.clean) == [
        "grounding-saas-refund::base",
        "grounding-unanswerable::base",
        "simplify-discharge-brief::base",
        "simplify-medication-change::base",
    ]
    # the simplification cases take the source text as context and have no question
    simplify = corpus.cases["simplify-discharge-brief"]
    assert simplify.question is None
    assert simplify.kind == "simplification"
    assert simplify.context[0].startswith("Discharge summary: You were admitted")
    assert corpus.cases["grounding-unanswerable"].answerable is False
    # datasets/cases/grounding-legal-clause.json lists "8" and "2" as allowed numbers
    assert corpus.cases["grounding-legal-clause"].allowed_numbers == ("8", "2")


def test_halueval_outputs_are_the_source_records() -> None:
    lines = (DATA / "halueval/qa_one-turn_data.json").read_bytes().splitlines()
    records = [json.loads(line) for line in lines if line.strip()]
    corpus = load_corpus(SHIPPED / "halueval")
    assert len(corpus.cases) == 100
    for case_id, case in corpus.cases.items():
        record = records[int(case_id.rsplit("-", 1)[1])]
        assert case.context == (record["knowledge"],)
        assert case.question == record["question"]
        assert [a.value for a in case.anchors] == [record["right_answer"]]
        assert corpus.output(f"{case_id}::base").text == record["right_answer"]
        hallucinated = corpus.output(f"{case_id}::hallucinated")
        assert hallucinated.text == record["hallucinated_answer"]
        assert hallucinated.origin == "natural"
        assert hallucinated.defect is None
        assert hallucinated.defect_detail == HALUEVAL_UNCLASSIFIED_DETAIL
        assert hallucinated.base_id == f"{case_id}::base"


def test_halueval_sample_depends_on_the_seed_only() -> None:
    first, _ = sample_halueval(DATA / "halueval")
    again, _ = sample_halueval(DATA / "halueval", seed=HALUEVAL_SEED)
    other, _ = sample_halueval(DATA / "halueval", seed=HALUEVAL_SEED + 1)
    assert [c.id for c in first] == [c.id for c in again]
    assert [c.id for c in first] != [c.id for c in other]
    assert len({c.id for c in first}) == 100
