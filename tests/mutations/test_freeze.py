"""Mutation files: determinism, the committed frozen files, loading, and stale-corpus errors."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from hybridjudge import CaseFileError, ConfigError
from hybridjudge.corpus import load_corpus
from hybridjudge.mutations import (
    MUTATOR_VERSIONS,
    StaleMutationsError,
    derive_seed,
    generate_mutations,
    load_mutations,
    write_mutations,
)

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def opengate_seed0(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("mut") / "opengate.jsonl"
    write_mutations(generate_mutations(load_corpus(REPO / "corpus/opengate"), seed=0), path)
    return path


def test_same_seed_and_corpus_give_identical_bytes(opengate_seed0: Path, tmp_path: Path) -> None:
    again = tmp_path / "again.jsonl"
    write_mutations(generate_mutations(load_corpus(REPO / "corpus/opengate"), seed=0), again)
    assert again.read_bytes() == opengate_seed0.read_bytes()
    other = tmp_path / "other.jsonl"
    write_mutations(generate_mutations(load_corpus(REPO / "corpus/opengate"), seed=1), other)
    assert other.read_bytes() != opengate_seed0.read_bytes()


@pytest.mark.parametrize("name", ["opengate", "halueval"])
def test_committed_files_are_the_seed_0_output(name: str, tmp_path: Path) -> None:
    # mutations/<name>.jsonl must be what `hybridjudge mutate corpus/<name> --mutation-seed 0`
    # writes now.
    fresh = tmp_path / f"{name}.jsonl"
    write_mutations(generate_mutations(load_corpus(REPO / "corpus" / name), seed=0), fresh)
    assert fresh.read_bytes() == (REPO / "mutations" / f"{name}.jsonl").read_bytes()


def test_header_and_round_trip(opengate_seed0: Path) -> None:
    corpus = load_corpus(REPO / "corpus/opengate")
    loaded = load_mutations(opengate_seed0)
    header = json.loads(opengate_seed0.read_bytes().splitlines()[0])
    assert header["format"] == "hybridjudge.mutations"
    assert header["format_version"] == 1
    assert header["corpus"] == "opengate"
    assert header["seed"] == 0
    assert header["corpus_files_sha256"] == {
        name: hashlib.sha256((REPO / "corpus/opengate" / name).read_bytes()).hexdigest()
        for name in ("cases.jsonl", "outputs.jsonl")
    }
    assert header["mutator_versions"] == MUTATOR_VERSIONS
    assert header["created_by"].startswith("hybridjudge ")
    assert loaded.corpus_files_sha256 == corpus.files_sha256
    base_ids = {o.id for o in corpus.bases()}
    for output in loaded.outputs:
        assert output.origin == "mutator"
        assert output.producer.system == "hybridjudge.mutations"
        assert output.base_id in base_ids
        assert output.id == f"{output.base_id}::{output.defect}"
        assert output.defect_detail
    # every (base, class) pair is either a mutant or a refusal, never both, never neither
    made = {(o.base_id, o.defect) for o in loaded.outputs}
    refused = {(r.base_id, r.defect) for r in loaded.refused}
    assert not made & refused
    assert made | refused == {(b, c) for b in base_ids for c in MUTATOR_VERSIONS}
    loaded.check_corpus(corpus)


def test_derived_seeds_differ_per_base_and_class() -> None:
    seeds = {derive_seed(0, c, b) for c in ("omission", "inversion") for b in ("a", "b")}
    assert len(seeds) == 4
    assert derive_seed(0, "omission", "a") == derive_seed(0, "omission", "a")


def test_classes_filter_and_validation() -> None:
    corpus = load_corpus(REPO / "corpus/opengate")
    only = generate_mutations(corpus, seed=0, classes=["inversion"])
    assert {o.defect for o in only.outputs} == {"inversion"}
    assert only.counts() == {"inversion": (5, 1)}
    with pytest.raises(ConfigError, match="classes must be distinct names"):
        generate_mutations(corpus, seed=0, classes=["typo"])  # type: ignore[list-item]


def test_a_case_the_grounding_checks_refuse_is_named(tmp_path: Path) -> None:
    # fuzz: the corpus model accepts an allowed number without a number; generate_mutations
    # stopped with the grounding checks' own error, which named the argument but not the case
    from hybridjudge.corpus import import_corpus

    text = "Refunds take 30 days."
    record = {"id": "r1", "answer": text, "context": [text], "allowed_numbers": ["x"]}
    import_corpus([record], tmp_path / "c")
    with pytest.raises(CaseFileError) as info:
        generate_mutations(load_corpus(tmp_path / "c"), seed=0)
    assert (info.value.case_id, info.value.field) == ("r1", "allowed_numbers[0]")
    assert str(info.value).startswith(
        "case 'r1', field 'allowed_numbers[0]': allowed_numbers[0] = 'x' contains no number"
    )
    assert "fix the case in corpus 'c'" in str(info.value)


def test_stale_corpus_is_refused(opengate_seed0: Path, tmp_path: Path) -> None:
    copy = tmp_path / "opengate"
    shutil.copytree(REPO / "corpus/opengate", copy)
    with (copy / "cases.jsonl").open("a", encoding="utf-8") as handle:
        handle.write("\n")  # same records, different bytes
    with pytest.raises(StaleMutationsError, match=r"changed since .*cases\.jsonl differ"):
        load_mutations(opengate_seed0).check_corpus(load_corpus(copy))
    with pytest.raises(StaleMutationsError, match="made from corpus 'opengate', not 'halueval'"):
        load_mutations(opengate_seed0).check_corpus(load_corpus(REPO / "corpus/halueval"))


def _rewrite_header(src: Path, dst: Path, **changes: object) -> Path:
    lines = src.read_bytes().splitlines()
    header = json.loads(lines[0])
    header.update(changes)
    dst.write_bytes(b"\n".join([json.dumps(header).encode(), *lines[1:]]) + b"\n")
    return dst


def test_unknown_format_version_is_refused(opengate_seed0: Path, tmp_path: Path) -> None:
    path = _rewrite_header(opengate_seed0, tmp_path / "v3.jsonl", format_version=3)
    with pytest.raises(
        CaseFileError,
        match=r"line 1, field 'format_version': mutation file format version 3 is not supported",
    ):
        load_mutations(path)


def test_not_a_mutation_file(tmp_path: Path) -> None:
    path = _rewrite_header(REPO / "corpus/opengate/outputs.jsonl", tmp_path / "x.jsonl")
    with pytest.raises(CaseFileError, match="not a mutation file"):
        load_mutations(path)
    with pytest.raises(CaseFileError, match="cannot read"):
        load_mutations(tmp_path / "absent.jsonl")
    (tmp_path / "empty.jsonl").write_bytes(b"")
    with pytest.raises(CaseFileError, match="empty"):
        load_mutations(tmp_path / "empty.jsonl")


def test_a_line_that_is_not_a_mutant(opengate_seed0: Path, tmp_path: Path) -> None:
    lines = opengate_seed0.read_bytes().splitlines()
    base_line = (REPO / "corpus/opengate/outputs.jsonl").read_bytes().splitlines()[0]
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(b"\n".join([lines[0], lines[1], base_line]) + b"\n")
    with pytest.raises(CaseFileError, match="line 3: not a mutant"):
        load_mutations(path)
    path.write_bytes(b"\n".join([lines[0], lines[1], lines[1]]) + b"\n")
    with pytest.raises(CaseFileError, match="line 3, field 'id': duplicate output id"):
        load_mutations(path)
