"""An ``Output`` is a base or a mutant as docs/formats.md says, and every corpus and mutation file
the project ships still loads."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from hybridjudge.corpus import Output, Producer, load_corpus
from hybridjudge.mutations import load_mutations

ROOT = Path(__file__).resolve().parents[2]
PRODUCER = Producer(system="test", kind="synthetic")


def _output(**fields: Any) -> Output:
    values: dict[str, Any] = {"id": "c::x", "case_id": "c", "text": "t", "producer": PRODUCER}
    values.update(fields)
    return Output(**values)


def test_the_documented_shapes_validate() -> None:
    assert _output().origin == "base"
    assert _output(base_id="c::base", defect="omission", origin="mutator").defect == "omission"
    assert _output(base_id="c::base", defect="inversion", origin="paper").origin == "paper"
    assert _output(base_id="c::base", origin="natural").defect is None  # unclassified
    assert _output(base_id="c::base", defect="omission", origin="natural").origin == "natural"


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"origin": "mutator", "base_id": "c::base"}, "no defect"),
        ({"origin": "paper", "base_id": "c::base"}, "no defect"),
        ({"origin": "mutator", "defect": "omission"}, "no base_id"),
        ({"origin": "natural"}, "no base_id"),
        ({"defect": "omission"}, "origin 'base' .* but a defect"),
        ({"origin": "base", "base_id": "c::base"}, "origin 'base' .* but a base_id"),
    ],
)
def test_an_output_that_is_neither_base_nor_mutant_is_refused(
    fields: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValidationError, match=message):
        _output(**fields)


@pytest.mark.parametrize(
    "folder",
    [*sorted((ROOT / "corpus").iterdir()), ROOT / "tests" / "study" / "golden" / "toy"],
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_every_corpus_the_project_ships_still_loads(folder: Path) -> None:
    if not (folder / "outputs.jsonl").is_file():
        pytest.skip("not a corpus folder")
    corpus = load_corpus(folder)
    assert corpus.outputs


@pytest.mark.parametrize("path", sorted((ROOT / "mutations").glob("*.jsonl")), ids=lambda p: p.name)
def test_every_mutation_file_the_project_ships_still_loads(path: Path) -> None:
    assert load_mutations(path).outputs
