"""A mutation file's ``format_version`` must be exactly the integer 1 or 2 (2: context mutants):
``true`` and ``1.0`` are not version 1 (``True == 1`` in Python), and the header model refuses
them too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from hybridjudge._errors import CaseFileError
from hybridjudge.mutations import MutationHeader, load_mutations

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "mutations" / "opengate.jsonl"


def _with_version(tmp_path: Path, version: object) -> Path:
    lines = SHIPPED.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    head["format_version"] = version
    path = tmp_path / "m.jsonl"
    path.write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n", encoding="utf-8")
    return path


def test_the_shipped_file_still_loads() -> None:
    assert load_mutations(SHIPPED).format_version == 1


@pytest.mark.parametrize("version", [True, 1.0, "1", 3, 0, None])
def test_load_mutations_refuses_anything_but_the_integer_1(tmp_path: Path, version: object) -> None:
    with pytest.raises(
        CaseFileError,
        match=r"mutation file format version .* is not supported .*reads versions 1, 2\)",
    ) as caught:
        load_mutations(_with_version(tmp_path, version))
    assert caught.value.field == "format_version"
    assert caught.value.line == 1


@pytest.mark.parametrize("version", [True, 1.0, 3])
def test_the_header_model_refuses_them_too(version: object) -> None:
    head = json.loads(SHIPPED.read_text(encoding="utf-8").splitlines()[0])
    head["format_version"] = version
    with pytest.raises(ValidationError, match=r"mutation file format version .* is not supported"):
        MutationHeader.model_validate(head)
