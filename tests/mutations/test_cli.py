"""``hybridjudge mutate``: writes the frozen file, reports per class, rejects bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from hybridjudge.cli import main
from hybridjudge.mutations import load_mutations

REPO = Path(__file__).resolve().parents[2]


def test_mutate_writes_the_frozen_file_and_reports_per_class(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "opengate.jsonl"
    code = main(
        ["mutate", str(REPO / "corpus/opengate"), "--mutation-seed", "0", "--out", str(out)]
    )
    assert code == 0
    assert out.read_bytes() == (REPO / "mutations/opengate.jsonl").read_bytes()
    printed = capsys.readouterr().out
    counts = load_mutations(out).counts()
    for cls, (made, refused) in counts.items():
        assert f"{cls:<18} {made:>4} made, {refused:>4} refused" in printed
    # the one refusal of omission is named with its base and reason
    assert "the case has no anchors [grounding-unanswerable::base]" in printed


def test_mutate_classes_filter(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "two.jsonl"
    argv = ["mutate", str(REPO / "corpus/opengate"), "--mutation-seed", "3", "--out", str(out)]
    assert main([*argv, "--classes", "inversion,omission"]) == 0
    loaded = load_mutations(out)
    assert loaded.classes == ("omission", "inversion")
    assert {o.defect for o in loaded.outputs} == {"omission", "inversion"}
    assert "fabricated_number" not in capsys.readouterr().out


def test_mutate_rejects_an_unknown_class(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [
        "mutate",
        str(REPO / "corpus/opengate"),
        "--mutation-seed",
        "0",
        "--out",
        str(tmp_path / "x"),
    ]
    assert main([*argv, "--classes", "omision"]) == 2
    assert "unknown class omision" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


def test_mutate_rejects_a_missing_corpus(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["mutate", str(tmp_path / "nope"), "--mutation-seed", "0", "--out", str(tmp_path / "x")]
    assert main(argv) == 2
    assert "not a corpus directory" in capsys.readouterr().err


def test_mutate_retrieval_writes_the_frozen_context_mutants(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "retrieval.jsonl"
    argv = ["mutate", str(REPO / "corpus/opengate"), "--mutation-seed", "0", "--out", str(out)]
    assert main([*argv, "--classes", "retrieval"]) == 0
    assert out.read_bytes() == (REPO / "mutations/opengate-retrieval.jsonl").read_bytes()
    printed = capsys.readouterr().out
    assert f"{'evidence_dropped':<18} {5:>4} made, {1:>4} refused" in printed
    assert f"{'passages_shuffled':<18} {6:>4} made, {0:>4} refused" in printed
    # a context class beside an answer class, in report order
    assert main([*argv, "--classes", "truncated,omission"]) == 0
    assert load_mutations(out).classes == ("omission", "truncated")
