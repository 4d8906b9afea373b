"""Load a corpus directory (``cases.jsonl`` + ``outputs.jsonl``) with its files' sha256."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ConfigDict

from hybridjudge._errors import CaseFileError
from hybridjudge._jsonl import bounded_lines, iter_json_lines, open_bounded, validate_line
from hybridjudge._limits import DEFAULT_LIMITS, ReadLimits
from hybridjudge.corpus._models import Case, Output

__all__ = ["CASES_FILE", "OUTPUTS_FILE", "Corpus", "load_corpus"]

CASES_FILE = "cases.jsonl"
"""The gold cases of a corpus directory, one :class:`Case` per line."""
M = TypeVar("M", bound=BaseModel)

OUTPUTS_FILE = "outputs.jsonl"
"""The outputs of a corpus directory (bases, then mutants), one :class:`Output` per line."""


class Corpus(BaseModel):
    """A loaded corpus: gold cases, outputs, and the sha256 of every file read."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    name: str
    """The corpus name (its directory name, e.g. ``"opengate"``)."""
    cases: dict[str, Case]
    """Gold cases by id, in file order."""
    outputs: list[Output]
    """Every output in file order: bases, the paper's mutants, natural defects."""
    files_sha256: dict[str, str]
    """sha256 of every corpus file read, keyed by its path relative to the corpus directory."""

    def bases(self) -> list[Output]:
        """The base outputs (no ``base_id``), in file order."""
        return [o for o in self.outputs if o.base_id is None]

    def mutants(self) -> list[Output]:
        """The outputs derived from a base (paper mutants, natural defects), in file order."""
        return [o for o in self.outputs if o.base_id is not None]

    def case_for(self, output: Output) -> Case:
        """The gold case an output answers.

        Raises:
            CaseFileError: the output's ``case_id`` is not in this corpus.
        """
        case = self.cases.get(output.case_id)
        if case is None:
            raise CaseFileError(
                f"unknown case id {output.case_id!r} in corpus {self.name!r}",
                case_id=output.id,
                field="case_id",
            )
        return case

    def output(self, output_id: str) -> Output:
        """The output with this id.

        Raises:
            KeyError: no output has this id.
        """
        for candidate in self.outputs:
            if candidate.id == output_id:
                return candidate
        raise KeyError(output_id)


def _read_records(
    path: Path, model: type[M], limits: ReadLimits
) -> tuple[str, list[tuple[int, M]]]:
    """Read one JSONL file within *limits*: its sha256 and every record with its 1-based line
    number."""
    if not path.exists():
        raise CaseFileError(
            "missing; a corpus directory holds cases.jsonl and outputs.jsonl "
            "(rebuild the shipped ones with `python scripts/build_corpus.py`)",
            path=str(path),
        )
    where = str(path)
    digest = hashlib.sha256()
    with open_bounded(path, limits=limits) as handle:
        lines = bounded_lines(handle, path=where, limits=limits, digest=digest)
        records = [
            (item.line, validate_line(item, model, path=where))
            for item in iter_json_lines(lines, path=where, limits=limits)
        ]
    return digest.hexdigest(), records


def load_corpus(path: str | Path, *, limits: ReadLimits | None = None) -> Corpus:
    """Load the corpus in directory *path* and check its references; each file is read within
    *limits* (:class:`~hybridjudge.corpus.ReadLimits`, the defaults when ``None``).

    Raises:
        CaseFileError: the directory or one of its files is missing or malformed; two cases or
            two outputs share an id; an output names an unknown case; a mutant names an unknown
            base (or a base of another case, or another mutant); a file, a line or a field is
            past its limit (codes ``file_too_large``, ``record_too_large``,
            ``field_too_large``). The message names file and line.
    """
    root = Path(path)
    if not root.is_dir():
        raise CaseFileError(
            "not a corpus directory; pass a folder holding cases.jsonl and outputs.jsonl",
            path=str(root),
        )
    cases_path, outputs_path = root / CASES_FILE, root / OUTPUTS_FILE
    bounds = limits or DEFAULT_LIMITS
    cases_sha, case_records = _read_records(cases_path, Case, bounds)
    outputs_sha, output_records = _read_records(outputs_path, Output, bounds)

    cases: dict[str, Case] = {}
    for number, case in case_records:
        if case.id in cases:
            raise CaseFileError(
                "duplicate case id; every case needs its own id",
                path=str(cases_path),
                line=number,
                case_id=case.id,
            )
        cases[case.id] = case

    outputs: dict[str, Output] = {}
    for number, output in output_records:
        if output.id in outputs:
            raise CaseFileError(
                f"duplicate output id {output.id!r}; every output needs its own id",
                path=str(outputs_path),
                line=number,
                field="id",
            )
        if output.case_id not in cases:
            raise CaseFileError(
                f"unknown case id {output.case_id!r}; add the case to {CASES_FILE} or fix the id",
                path=str(outputs_path),
                line=number,
                field="case_id",
            )
        outputs[output.id] = output
    for number, output in output_records:
        if output.base_id is None:
            continue
        base = outputs.get(output.base_id)
        problem = None
        if base is None:
            problem = f"unknown base id {output.base_id!r}; add the base output or fix the id"
        elif base.base_id is not None:
            problem = f"base id {output.base_id!r} is itself derived; point at a base output"
        elif base.case_id != output.case_id:
            problem = (
                f"base {output.base_id!r} answers case {base.case_id!r}, "
                f"not {output.case_id!r}; a mutant answers its base's case"
            )
        if problem is not None:
            raise CaseFileError(problem, path=str(outputs_path), line=number, field="base_id")

    return Corpus(
        name=root.resolve().name,
        cases=cases,
        outputs=list(outputs.values()),
        files_sha256={CASES_FILE: cases_sha, OUTPUTS_FILE: outputs_sha},
    )
