"""``load_corpus``: the checksums it records and the clear errors it raises."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from pydantic import ValidationError

from hybridjudge import CaseFileError
from hybridjudge.corpus import Anchor, Case, Output, Producer, load_corpus, write_jsonl_models
from hybridjudge.grounding import GroundingInputError, check_grounding

SHIPPED = Path(__file__).resolve().parents[2] / "corpus"
PRODUCER = Producer(system="test", kind="synthetic")


def _case(case_id: str) -> Case:
    return Case(id=case_id, context="ctx", label_source="hand-written test")


def _base(case_id: str, output_id: str | None = None) -> Output:
    return Output(id=output_id or f"{case_id}::base", case_id=case_id, text="x", producer=PRODUCER)


def _mutant(case_id: str, base_id: str, output_id: str) -> Output:
    return Output(
        id=output_id,
        case_id=case_id,
        text="y",
        base_id=base_id,
        defect="omission",
        origin="mutator",
        producer=PRODUCER,
    )


def _write(root: Path, cases: list[Case], outputs: list[Output]) -> Path:
    write_jsonl_models(root / "cases.jsonl", cases)
    write_jsonl_models(root / "outputs.jsonl", outputs)
    return root


def test_records_the_sha256_of_every_file_read() -> None:
    corpus = load_corpus(SHIPPED / "opengate")
    assert corpus.name == "opengate"
    assert corpus.files_sha256 == {
        name: hashlib.sha256((SHIPPED / "opengate" / name).read_bytes()).hexdigest()
        for name in ("cases.jsonl", "outputs.jsonl")
    }


def test_helpers_split_bases_and_mutants(tmp_path: Path) -> None:
    root = _write(
        tmp_path,
        [_case("a"), _case("b")],
        [_base("a"), _mutant("a", "a::base", "a::m"), _base("b")],
    )
    corpus = load_corpus(root)
    assert [o.id for o in corpus.bases()] == ["a::base", "b::base"]
    assert [o.id for o in corpus.mutants()] == ["a::m"]
    assert corpus.case_for(corpus.mutants()[0]).id == "a"
    stray = _base("zzz")
    with pytest.raises(CaseFileError, match="unknown case id 'zzz'"):
        corpus.case_for(stray)


def test_missing_directory(tmp_path: Path) -> None:
    with pytest.raises(CaseFileError, match="not a corpus directory") as info:
        load_corpus(tmp_path / "absent")
    assert info.value.code == "invalid_case_file"  # the whole input, not one line of it


def test_an_unusable_line_has_the_line_code(tmp_path: Path) -> None:
    root = _write(tmp_path, [_case("a")], [_base("a"), _base("b")])
    with pytest.raises(CaseFileError) as info:
        load_corpus(root)
    assert info.value.line == 2
    assert info.value.code == "invalid_case_line"


def test_missing_outputs_file(tmp_path: Path) -> None:
    write_jsonl_models(tmp_path / "cases.jsonl", [_case("a")])
    with pytest.raises(CaseFileError, match=r"outputs\.jsonl: missing"):
        load_corpus(tmp_path)


def test_unknown_case_id_names_the_line(tmp_path: Path) -> None:
    root = _write(tmp_path, [_case("a")], [_base("a"), _base("b")])
    with pytest.raises(CaseFileError, match=r"line 2, field 'case_id': unknown case id 'b'"):
        load_corpus(root)


def test_unknown_base_id(tmp_path: Path) -> None:
    root = _write(tmp_path, [_case("a")], [_base("a"), _mutant("a", "a::nope", "a::m")])
    with pytest.raises(CaseFileError, match=r"line 2, field 'base_id': unknown base id 'a::nope'"):
        load_corpus(root)


def test_base_id_of_a_mutant_or_of_another_case(tmp_path: Path) -> None:
    root = _write(
        tmp_path,
        [_case("a")],
        [_base("a"), _mutant("a", "a::base", "a::m1"), _mutant("a", "a::m1", "a::m2")],
    )
    with pytest.raises(CaseFileError, match="is itself derived"):
        load_corpus(root)
    root = _write(
        tmp_path, [_case("a"), _case("b")], [_base("a"), _base("b"), _mutant("b", "a::base", "m")]
    )
    with pytest.raises(CaseFileError, match="answers case 'a', not 'b'"):
        load_corpus(root)


def test_duplicate_case_id(tmp_path: Path) -> None:
    root = _write(tmp_path, [_case("a"), _case("a")], [_base("a")])
    with pytest.raises(CaseFileError, match=r"cases\.jsonl, line 2, case 'a': duplicate case id"):
        load_corpus(root)


def test_duplicate_output_id(tmp_path: Path) -> None:
    root = _write(tmp_path, [_case("a")], [_base("a"), _base("a")])
    with pytest.raises(CaseFileError, match=r"line 2, field 'id': duplicate output id"):
        load_corpus(root)


def test_invalid_line_names_line_and_field(tmp_path: Path) -> None:
    root = _write(tmp_path, [_case("a")], [_base("a")])
    with (root / "outputs.jsonl").open("a", encoding="utf-8") as handle:
        handle.write('{"id": "a::x", "case_id": "a", "text": "t"}\n')
    with pytest.raises(
        CaseFileError, match=r"line 2, case 'a::x', field 'producer': required field is missing"
    ):
        load_corpus(root)


@pytest.mark.parametrize("value", [" ", "\u200b", "\ufeff \u2060", "\t\x00"])
def test_an_anchor_of_nothing_visible_is_refused(value: str) -> None:
    """An anchor of spaces, controls or invisible format characters only (``\\u200b``) would be
    reported missing from every answer: the corpus refuses it as the grounding checks do."""
    with pytest.raises(ValidationError, match="an anchor must not be blank"):
        Anchor(value=value)
    assert Anchor(value="5 days\u200b").value == "5 days\u200b"  # something visible stays
    with pytest.raises(GroundingInputError, match=r"anchors\[0\] is invalid at 'value'"):
        check_grounding("It is 5 days.", "5 days", anchors=[{"value": value}])


@pytest.mark.parametrize("alias", ["", " ", "\u200b"])
def test_a_blank_alias_is_refused_by_its_index(alias: str) -> None:
    """A blank paraphrase matched nothing and was dropped without a word; it is refused, named
    by its index, in the corpus and in the grounding checks alike."""
    with pytest.raises(ValidationError, match=r"aliases\[1\] is blank"):
        Anchor(value="5 days", aliases=("five days", alias))
    with pytest.raises(GroundingInputError, match=r"anchors\[0\] is invalid at 'aliases'"):
        check_grounding(
            "It is 5 days.", "5 days", anchors=[{"value": "5 days", "aliases": ["x", alias]}]
        )
