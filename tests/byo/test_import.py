"""``hybridjudge corpus import`` / ``import_corpus``: a user's records become a corpus folder."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from hybridjudge._errors import ConfigError
from hybridjudge.cli import main
from hybridjudge.corpus import (
    IMPORT_FILE,
    OMISSION_WITHOUT_ANCHORS,
    derive_anchors,
    import_corpus,
    load_corpus,
)
from tests.byo._records import ragas_records


def _jsonl(path: Path, rows: Sequence[object]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_import_writes_a_loadable_corpus_with_its_hashes(tmp_path: Path) -> None:
    source = _jsonl(tmp_path / "rag.jsonl", ragas_records())
    report = import_corpus(source, tmp_path / "shop", system="shop-bot", model="gpt-x")
    corpus = load_corpus(tmp_path / "shop")
    assert corpus.name == report.name == "shop"
    assert corpus.files_sha256 == report.files_sha256  # the hashes in import.json are the files'
    manifest = json.loads((tmp_path / "shop" / IMPORT_FILE).read_text(encoding="utf-8"))
    assert manifest["source_sha256"] == hashlib.sha256(source.read_bytes()).hexdigest()
    assert manifest["files_sha256"] == corpus.files_sha256
    assert (manifest["records"], manifest["cases"], manifest["skipped"]) == (14, 14, [])
    # one case and one base output per record
    assert list(corpus.cases) == [r["id"] for r in ragas_records()]
    base = corpus.output("warranty::base")
    assert base.text == "Laptops have a 24 month warranty that covers manufacturing defects."
    assert (base.producer.system, base.producer.model, base.producer.kind) == (
        "shop-bot",
        "gpt-x",
        "production",
    )
    assert base.clean is None  # the user's answers are not labelled clean
    case = corpus.cases["store-hours-sunday"]
    assert case.answerable is False
    assert case.metadata == {
        "team": "logistics",
        "trace_id": "tr-012",
        "reference": "Unknown from the policy.",
    }
    # 6 records carry anchors, 8 do not: the omission note is in the manifest and the README
    assert (report.cases_with_anchors, report.cases_without_anchors) == (6, 8)
    assert report.omission_note == OMISSION_WITHOUT_ANCHORS
    readme = (tmp_path / "shop" / "README.md").read_text(encoding="utf-8")
    assert OMISSION_WITHOUT_ANCHORS in readme
    assert "no anchors (omission not measurable on this case)" in case.label_source


def test_no_omission_note_when_every_record_has_anchors(tmp_path: Path) -> None:
    rows = [r for r in ragas_records() if "anchors" in r]
    report = import_corpus(rows, tmp_path / "anchored")
    assert report.omission_note is None
    assert "omission class" not in (tmp_path / "anchored" / "README.md").read_text()


def test_derived_anchors_come_from_the_reference_and_are_marked(tmp_path: Path) -> None:
    report = import_corpus(ragas_records(), tmp_path / "derived", derive=True)
    corpus = load_corpus(tmp_path / "derived")
    case = corpus.cases["express-cost"]  # reference "$12, delivered in 2 days."
    assert [a.value for a in case.anchors] == ["$12", "2 days"]
    assert case.metadata["derived_anchors"] == ["$12", "2 days"]
    assert "anchors DERIVED from the reference answer" in case.label_source
    given = corpus.cases["warranty"]  # anchors given in the record are never replaced
    assert [a.value for a in given.anchors] == ["24 month"]
    assert "derived_anchors" not in given.metadata
    assert report.cases_with_derived_anchors == 6
    assert "Derived anchors" in (tmp_path / "derived" / "README.md").read_text()


def test_derive_anchors_keeps_numbers_and_entities_the_context_supports() -> None:
    # by hand: quantities as parsed, capitalised runs except a lone sentence-initial word,
    # and only what the context contains
    assert [a.value for a in derive_anchors("The refund window is 30 days at Acme Corp.")] == [
        "30 days",
        "Acme Corp",
    ]
    context = ["Paris is the capital of France, home to 2.1 million people."]
    found = derive_anchors(
        "Paris is the capital of France. It has 2.1 million people and hosted the Olympics.",
        context,
    )
    assert [a.value for a in found] == ["France", "2.1 million"]


def test_bad_and_repeated_records_are_skipped_with_every_problem(tmp_path: Path) -> None:
    rows: list[object] = [
        {"id": "a", "response": "x", "retrieved_contexts": ["y"]},
        {"id": "b", "response": 3, "answerable": "perhaps"},
        {"id": "a", "response": "again", "retrieved_contexts": ["y"]},
    ]
    report = import_corpus(_jsonl(tmp_path / "rag.jsonl", rows), tmp_path / "c")
    assert report.cases == 1
    assert [(s.record, s.problems) for s in report.skipped] == [
        (
            2,
            (
                "answer: Input should be a valid string",
                "context: required field is missing; add one of 'context' / "
                "'retrieved_contexts' / 'contexts' / 'retrieval_context'",
                "answerable: Input should be a valid boolean, unable to interpret input",
            ),
        ),
        (3, ("id: 'a' repeats record 1; every record needs its own id",)),
    ]


def test_cli_import_reports_skipped_lines_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = _jsonl(
        tmp_path / "rag.jsonl",
        [{"response": "x", "retrieved_contexts": ["y"], "team": "t"}, {"response": "x"}],
    )
    assert main(["corpus", "import", str(source), "--out", str(tmp_path / "c")]) == 2
    out, err = capsys.readouterr()
    assert "1 case(s) from 2 record(s), 1 skipped" in out
    assert f"{source}: line 2: skipped: context: required field is missing" in err
    assert load_corpus(tmp_path / "c").cases["record-1"].metadata == {"team": "t"}
    # strict: the extra field is rejected, nothing usable is left
    assert main(["corpus", "import", str(source), "--out", str(tmp_path / "s"), "--strict"]) == 2
    assert "no usable record" in capsys.readouterr().err


def test_a_non_empty_folder_is_not_overwritten_unless_asked(tmp_path: Path) -> None:
    target = tmp_path / "c"
    import_corpus(ragas_records(), target)
    with pytest.raises(ConfigError, match="folder is not empty"):
        import_corpus(ragas_records(), target)
    report = import_corpus(ragas_records()[:3], target, overwrite=True)
    assert len(load_corpus(target).cases) == report.cases == 3
