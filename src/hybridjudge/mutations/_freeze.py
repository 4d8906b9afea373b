"""Freeze mutants into a versioned JSONL file, and load such a file back.

Format ``hybridjudge.mutations`` version 1: the first line is a :class:`MutationHeader` (corpus
name and files sha256, seed, classes, mutator versions, refusals), every further line one
:class:`~hybridjudge.corpus.Output` with ``origin="mutator"``. The file holds no timestamp, so the
same seed over the same corpus gives the same bytes.

Version 2 adds context mutants (the retriever's defect classes and the negative controls): such an
output carries its own ``context``. A file of answer-side classes only is still written as
version 1, so the frozen files of the shipped corpora keep their bytes; both versions read.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from hybridjudge._errors import CaseFileError, ConfigError, InputError
from hybridjudge._jsonl import describe_validation, iter_json_lines, read_bytes, validate_line
from hybridjudge._versions import version_problem
from hybridjudge.corpus import (
    ALL_CLASSES,
    DEFECT_CLASSES,
    Corpus,
    DefectClass,
    Output,
    Producer,
)
from hybridjudge.grounding import GroundingInputError
from hybridjudge.mutations._context import CONTEXT_MUTATOR_VERSIONS, CONTEXT_MUTATORS
from hybridjudge.mutations._errors import MutationRefused
from hybridjudge.mutations._mutators import MUTATOR_VERSIONS, MUTATORS

__all__ = [
    "MUTATIONS_FORMAT",
    "MUTATIONS_FORMAT_VERSION",
    "MUTATOR_PRODUCER",
    "MutationHeader",
    "MutationSet",
    "Refusal",
    "StaleMutationsError",
    "derive_seed",
    "generate_mutations",
    "load_mutations",
    "write_mutations",
]

MUTATIONS_FORMAT: Final = "hybridjudge.mutations"
"""The ``format`` name in the header line of a mutation file."""
MUTATIONS_FORMAT_VERSION = 2
"""The newest header/record layout this code reads and writes (2: outputs may carry their own
context; written only for a file holding context classes)."""
READABLE_MUTATIONS_FORMAT_VERSIONS = (1, 2)
"""The layouts this code reads."""
MUTATOR_PRODUCER = Producer(system="hybridjudge.mutations", model=None, kind="synthetic")
"""The producer recorded on every mutant."""


class StaleMutationsError(InputError):
    """A mutation file was made from a different corpus (or a different version of it)."""

    code = "stale_mutations"


class Refusal(BaseModel):
    """A (base, class) pair for which the mutator emitted nothing, and why."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    base_id: str
    """The base output the mutator was given."""
    defect: DefectClass
    """The class that was asked for."""
    reason: str
    """Why no mutant was emitted."""


class MutationHeader(BaseModel):
    """The first line of a mutation file."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    format: Literal["hybridjudge.mutations"] = "hybridjudge.mutations"
    """Always ``"hybridjudge.mutations"``."""
    format_version: int = 1
    """Layout version of the file (1: answer mutants only; 2: context mutants too); readers
    refuse versions they do not know."""
    corpus: str
    """Name of the corpus the mutants were made from."""
    corpus_files_sha256: dict[str, str]
    """sha256 of each corpus file read, keyed by its path relative to the corpus directory."""
    seed: int
    """The seed given to ``hybridjudge mutate``; each (base, class) derives its own from it."""
    classes: tuple[DefectClass, ...]
    """The defect classes that were asked for, in order."""
    mutator_versions: dict[str, str]
    """Version of each mutator that ran."""
    created_by: str
    """The tool and version that wrote the file, e.g. ``"hybridjudge 0.1.0"``."""
    refused: tuple[Refusal, ...] = ()
    """Every (base, class) pair that produced no mutant, with the reason."""

    @field_validator("format_version", mode="before")
    @classmethod
    def _known_version(cls, value: object) -> object:
        problem = _version_problem(value)
        if problem is not None:
            raise ValueError(problem)
        return value


def _version_problem(value: object) -> str | None:
    return version_problem(value, READABLE_MUTATIONS_FORMAT_VERSIONS, "mutation file format")


class MutationSet(MutationHeader):
    """A loaded (or freshly generated) mutation file: its header fields plus the mutants."""

    outputs: tuple[Output, ...] = Field(default=())
    """The mutants, in (base, class) order."""

    def header(self) -> MutationHeader:
        """The header line of this set."""
        return MutationHeader.model_validate(self.model_dump(exclude={"outputs"}))

    def counts(self) -> dict[DefectClass, tuple[int, int]]:
        """Per requested class: (mutants made, bases refused)."""
        return {
            cls: (
                sum(1 for o in self.outputs if o.defect == cls),
                sum(1 for r in self.refused if r.defect == cls),
            )
            for cls in self.classes
        }

    def check_corpus(self, corpus: Corpus) -> None:
        """Raise :class:`StaleMutationsError` unless *corpus* is the one the mutants came from.

        The corpus name and the sha256 of every corpus file must match the header, and every
        mutant's base must be a base output of the corpus.
        """
        if corpus.name != self.corpus:
            raise StaleMutationsError(
                f"mutations were made from corpus {self.corpus!r}, not {corpus.name!r}; "
                "pass the matching corpus"
            )
        if corpus.files_sha256 != self.corpus_files_sha256:
            changed = sorted(
                name
                for name in set(corpus.files_sha256) | set(self.corpus_files_sha256)
                if corpus.files_sha256.get(name) != self.corpus_files_sha256.get(name)
            )
            raise StaleMutationsError(
                f"corpus {corpus.name!r} changed since the mutants were frozen "
                f"({', '.join(changed)} differ); regenerate them with "
                f"generate_mutations(corpus, seed={self.seed}) (the `hybridjudge mutate` command)"
            )
        bases = {o.id for o in corpus.bases()}
        for output in self.outputs:
            if output.base_id not in bases:
                raise StaleMutationsError(
                    f"mutant {output.id!r} names base {output.base_id!r}, which corpus "
                    f"{corpus.name!r} does not hold; regenerate the mutants"
                )


def derive_seed(seed: int, defect: str, base_id: str) -> int:
    """The seed of one (base, class): a hash of the run seed, the class and the base id.

    Adding or removing other bases never changes an existing base's mutant.
    """
    digest = hashlib.sha256(f"{seed}\x00{defect}\x00{base_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _created_by() -> str:
    from hybridjudge._version import __version__

    return f"hybridjudge {__version__}"


def generate_mutations(
    corpus: Corpus, *, seed: int, classes: Sequence[DefectClass] = DEFECT_CLASSES
) -> MutationSet:
    """Run the mutators of *classes* on every base output of *corpus*.

    Mutant ids are ``<base id>::<class>``. Each (base, class) uses :func:`derive_seed`. The
    context classes (``evidence_dropped``, ``distractor``, ``stale_passage``, ``truncated`` and
    the controls ``passages_shuffled``, ``passage_duplicated``) keep the base's text and give the
    mutant its own ``context``; a set holding one is written as format version 2.

    Raises:
        ConfigError: a class is unknown or repeated.
        InputError: ``seed`` is not a whole number from 0 to 2**63 - 1.
        CaseFileError: a case the grounding checks cannot use (an allowed number without a
            number, an anchor they refuse), naming the case and the field.
    """
    from hybridjudge._params import check_seed

    check_seed(seed)  # a negative or huge seed is refused, never silently accepted
    unknown = [c for c in classes if c not in MUTATORS and c not in CONTEXT_MUTATORS]
    if unknown or len(set(classes)) != len(classes):
        raise ConfigError(
            f"classes must be distinct names from {', '.join(ALL_CLASSES)}; got {list(classes)}"
        )
    outputs: list[Output] = []
    refused: list[Refusal] = []
    pool = tuple(corpus.cases.values())
    for base in corpus.bases():
        case = corpus.case_for(base)
        for defect in classes:
            own_seed = derive_seed(seed, defect, base.id)
            text, context = base.text, None
            try:
                if defect in CONTEXT_MUTATORS:
                    found = CONTEXT_MUTATORS[defect](base.text, case, seed=own_seed, pool=pool)
                    detail, context = found.detail, found.context
                else:
                    mutant = MUTATORS[defect](base.text, case, seed=own_seed)
                    text, detail = mutant.text, mutant.detail
            except MutationRefused as exc:
                refused.append(Refusal(base_id=base.id, defect=defect, reason=exc.reason))
                continue
            except GroundingInputError as exc:  # the case cannot be checked: name it
                raise CaseFileError(
                    f"{exc.message}; fix the case in corpus {corpus.name!r} (the grounding "
                    "checks that verify each mutant cannot use it)",
                    case_id=case.id,
                    field=exc.argument,
                ) from None
            outputs.append(
                Output(
                    id=f"{base.id}::{defect}",
                    case_id=base.case_id,
                    text=text,
                    base_id=base.id,
                    defect=defect,
                    defect_detail=detail,
                    origin="mutator",
                    producer=MUTATOR_PRODUCER,
                    context=context,
                )
            )
    return MutationSet(
        format_version=2 if any(c in CONTEXT_MUTATORS for c in classes) else 1,
        corpus=corpus.name,
        corpus_files_sha256=dict(corpus.files_sha256),
        seed=seed,
        classes=tuple(classes),
        mutator_versions={c: {**MUTATOR_VERSIONS, **CONTEXT_MUTATOR_VERSIONS}[c] for c in classes},
        created_by=_created_by(),
        refused=tuple(refused),
        outputs=tuple(outputs),
    )


def write_mutations(mutations: MutationSet, path: str | Path) -> None:
    """Write *mutations* as a header line plus one output per line (UTF-8, ``\\n`` endings)."""
    from hybridjudge._atomic import atomic_write_text  # never a half-written file

    lines = [mutations.header().model_dump_json()]
    lines.extend(output.model_dump_json() for output in mutations.outputs)
    atomic_write_text(path, "".join(line + "\n" for line in lines))


def load_mutations(path: str | Path) -> MutationSet:
    """Read a mutation file written by :func:`write_mutations`.

    Raises:
        CaseFileError: the file is missing, its header is not a ``hybridjudge.mutations``
            header of a known version, or a line is not a valid mutant (named by line number).
    """
    p = Path(path)
    lines = read_bytes(p, hint="create it with `hybridjudge mutate`").splitlines()
    items = iter_json_lines(lines, path=str(p))  # the one JSONL reader (BOM, hostile lines)
    first = next(items, None)
    if first is None or first.line != 1:
        raise CaseFileError("empty; the first line must be the header", path=str(p), line=1)
    if first.error is not None:
        raise CaseFileError(
            f"the header line is not JSON ({first.error.message})", path=str(p), line=1
        )
    head = first.value
    if not isinstance(head, dict) or head.get("format") != MUTATIONS_FORMAT:
        raise CaseFileError(
            f"not a mutation file (the header's format must be {MUTATIONS_FORMAT!r})",
            path=str(p),
            line=1,
            field="format",
        )
    problem = _version_problem(head.get("format_version"))
    if problem is not None:
        raise CaseFileError(
            problem,
            path=str(p),
            line=1,
            field="format_version",
        )
    try:
        header = MutationHeader.model_validate(head)
    except ValidationError as exc:
        field, msg = describe_validation(exc)
        raise CaseFileError(msg, path=str(p), line=1, field=field) from None
    outputs: list[Output] = []
    seen: set[str] = set()
    for item in items:
        number = item.line
        output = validate_line(item, Output, path=str(p))
        if output.origin != "mutator" or output.base_id is None or output.defect is None:
            raise CaseFileError(
                "not a mutant: a mutation file holds outputs with origin 'mutator', a base_id "
                "and a defect",
                path=str(p),
                line=number,
            )
        if output.id in seen:
            raise CaseFileError(
                f"duplicate output id {output.id!r}", path=str(p), line=number, field="id"
            )
        seen.add(output.id)
        outputs.append(output)
    return MutationSet(**header.model_dump(), outputs=tuple(outputs))
