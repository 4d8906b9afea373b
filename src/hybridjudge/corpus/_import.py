"""Turn a user's own RAG records into a corpus folder the mutation study can run on.

Each record (question, contexts, answer; optionally required facts, an answerable label, a
reference answer, a label saying whether the answer is right, and the user's own fields) becomes
one gold :class:`Case` and one base :class:`Output` (the answer the user's system gave, with its
label as ``clean``: ``correct`` true, ``incorrect`` false, ``unknown`` null). The folder has the same format as the
shipped corpora (``cases.jsonl``, ``outputs.jsonl``), plus ``import.json`` (where it came from,
the sha256 of the source and of every file written, and every record that was skipped and why)
and a ``README.md`` that says what the study can and cannot measure on it.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from hybridjudge._anchor import Anchor
from hybridjudge._errors import CaseFileError, ConfigError
from hybridjudge._limits import ReadLimits
from hybridjudge._text import word_list, word_sequence
from hybridjudge.corpus._formats import InputRecord, read_cases
from hybridjudge.corpus._io import write_jsonl_models
from hybridjudge.corpus._labels import clean_of
from hybridjudge.corpus._load import CASES_FILE, OUTPUTS_FILE
from hybridjudge.corpus._models import Case, Output, Producer

__all__ = [
    "IMPORT_FILE",
    "IMPORT_FORMAT",
    "IMPORT_FORMAT_VERSION",
    "OMISSION_WITHOUT_ANCHORS",
    "ImportReport",
    "SkippedRecord",
    "derive_anchors",
    "import_corpus",
]

IMPORT_FILE = "import.json"
"""The import manifest written beside ``cases.jsonl`` and ``outputs.jsonl``."""
IMPORT_FORMAT = "hybridjudge.corpus-import"
IMPORT_FORMAT_VERSION = 2
"""Version 2 added the label counts (``labelled_correct``, ``labelled_incorrect``, ``unlabelled``)."""

OMISSION_WITHOUT_ANCHORS = (
    "the omission class needs required facts (anchors): on a case without them no omission "
    "mutant can be made, so omission detection is measured only on the cases that have anchors "
    "and says nothing about the others; the judges cannot see omissions by construction either "
    "(a shorter answer has fewer claims, not unsupported ones). Add anchors to your records, or "
    "import with derive=True (`corpus import --derive-anchors`) to take candidate anchors (numbers, named entities) from the "
    "reference answer, marked as derived"
)
"""What the omission class can and cannot measure when records have no required facts."""

OMISSION_AFTER_DERIVING = (
    OMISSION_WITHOUT_ANCHORS.split(". Add anchors", 1)[0]
    + ". Deriving anchors found none for {n} case(s) (no reference answer, an empty context, or "
    "none of the reference's numbers and names is in the context): add anchors to those records"
)
"""The same note after ``derive=True``, which it must not suggest again (``{n}``: the cases
left without anchors)."""

DERIVED_ANCHORS_KEY = "derived_anchors"
"""Case metadata key listing the anchors taken from the reference answer (not reviewed)."""


class SkippedRecord(BaseModel):
    """A record that did not become a case, with every problem it has."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    record: int
    """1-based line (JSONL, CSV) or record number."""
    problems: tuple[str, ...]
    """Every problem of the record."""


class ImportReport(BaseModel):
    """What :func:`import_corpus` did; also written as ``import.json``."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    format: str = IMPORT_FORMAT
    format_version: int = IMPORT_FORMAT_VERSION
    name: str
    """The corpus name (its folder name)."""
    source: str
    """The source file's name, or the kind of object imported (``DataFrame``, ``list``...)."""
    source_sha256: str | None
    """sha256 of the source file's bytes (``None`` for an in-memory source)."""
    records: int
    """Records read."""
    cases: int
    """Cases written (one base output each)."""
    skipped: tuple[SkippedRecord, ...]
    """Records not imported, each with all its problems."""
    cases_with_anchors: int
    """Cases with required facts given in the record."""
    cases_with_derived_anchors: int
    """Cases whose anchors were derived from the reference answer (``derive_anchors``)."""
    cases_without_anchors: int
    """Cases with no anchors at all: omission cannot be measured on them."""
    omission_note: str | None
    """:data:`OMISSION_WITHOUT_ANCHORS` when some case has no given anchors, else ``None``."""
    labelled_correct: int = 0
    """Answers labelled correct (``clean`` true): the study's false alarms count only these."""
    labelled_incorrect: int = 0
    """Answers labelled incorrect (``clean`` false): a natural-defect row of the study."""
    unlabelled: int = 0
    """Answers without a label (``clean`` null): in no false-alarm rate."""
    files_sha256: dict[str, str]
    """sha256 of ``cases.jsonl`` and ``outputs.jsonl`` as written."""


_ENTITY = re.compile(
    r"\b[A-Z][\w'’&.-]*(?:\s+(?:"
    + "|".join(word_sequence("name_particles"))
    + r")?\s*[A-Z][\w'’&.-]*)*"
)
_SENTENCE_START = re.compile(r"(?:^|[.!?]\s+|\n)$")
_STOP = word_list("entity_function_words")
_SENTENCE_END = re.compile(r"(?<=[a-z]{2}[.!?])\s+")


def derive_anchors(reference: str, context: Sequence[str] = ()) -> tuple[Anchor, ...]:
    """Candidate anchors from a reference answer: its numbers and its named entities.

    Numbers are the quantities the grounding checks parse (with their unit as written, e.g.
    ``"30 days"``); named entities are runs of capitalised words, except a lone capitalised
    word at the start of a sentence and common function words. When *context* is given, only
    candidates that occur in it (case-insensitively) are kept: a required fact must be
    something the context can support. These are candidates, not reviewed labels; the importer
    marks them as derived.

    Examples:
        >>> [a.value for a in derive_anchors("The refund window is 30 days at Acme Corp.")]
        ['30 days', 'Acme Corp']
    """
    from hybridjudge.grounding import parse_quantities

    found: list[tuple[int, str]] = []
    taken: list[tuple[int, int]] = []
    for quantity in parse_quantities(reference):
        start, end = quantity.span
        found.append((start, reference[start:end]))
        taken.append((start, end))
    pieces: list[tuple[int, str]] = []
    for match in _ENTITY.finditer(reference):
        offset = match.start()
        for piece in _SENTENCE_END.split(match.group(0)):  # "France. It" is two sentences
            pieces.append((reference.index(piece, offset), piece))
            offset += len(piece)
    for start, piece in pieces:
        text = piece.rstrip(".-'’ ")
        words = text.split()
        while words and words[0] in _STOP:
            start += len(words[0]) + 1
            words = words[1:]
        if not words:
            continue
        text = " ".join(words)
        at_sentence_start = bool(_SENTENCE_START.search(reference[:start]))
        if len(words) == 1 and at_sentence_start:
            continue
        if any(s < start + len(text) and start < e for s, e in taken):
            continue
        found.append((start, text))
    haystack = " ".join(context).casefold()
    out: list[Anchor] = []
    seen: set[str] = set()
    for _, text in sorted(found):
        key = text.casefold()
        if key in seen or not text.strip():
            continue
        if context and key not in haystack:
            continue
        seen.add(key)
        out.append(Anchor(value=text))
    return tuple(out)


def _source_label(source: Any) -> tuple[str, str | None]:
    if isinstance(source, str | Path):
        path = Path(source)
        try:
            with path.open("rb") as handle:  # in blocks: the file may be large
                digest = hashlib.file_digest(handle, "sha256").hexdigest()
        except OSError:
            digest = None
        return path.name, digest
    return type(source).__name__, None


def _nothing_usable(source: Any, label: str, skipped: Sequence[SkippedRecord]) -> CaseFileError:
    """The error for a source that gave no case: empty, or every record bad (the first three
    shown), naming the source."""
    path = str(source) if isinstance(source, str | Path) else None
    where = "" if path is not None else f"the {label}: "
    if not skipped:
        return CaseFileError(
            f"{where}no record to import: the source is empty (a CSV needs a header row and "
            "one row per record); add records",
            path=path,
        )
    shown = "; ".join(f"record {s.record}: {'; '.join(s.problems)}" for s in skipped[:3])
    more = f"; and {len(skipped) - 3} more" if len(skipped) > 3 else ""
    return CaseFileError(
        f"{where}no usable record, nothing imported; fix these and import again: {shown}{more}",
        path=path,
    )


def import_corpus(
    source: Any,
    out_dir: str | Path,
    *,
    strict: bool = False,
    format: str | None = None,
    derive: bool = False,
    system: str = "my-rag",
    model: str | None = None,
    producer_kind: Literal["real", "production", "synthetic"] = "production",
    overwrite: bool = False,
    limits: ReadLimits | None = None,
    delimiter: str | None = None,
) -> ImportReport:
    """Write the corpus folder *out_dir* from the records of *source*.

    *source* is anything :func:`~hybridjudge.corpus.read_cases` reads (a JSONL, JSON, CSV or
    Parquet file, a DataFrame, a Hugging Face dataset, RAGAS or DeepEval records...). Each good
    record becomes case ``<id>`` and base output ``<id>::base`` (the record's answer, produced by
    *system*); the record's reference answer and extra fields go to the case's ``metadata``.
    With *derive*, a record with a reference answer but no anchors gets candidate anchors from
    :func:`derive_anchors`, listed under ``metadata["derived_anchors"]`` and named in
    ``label_source``. A record's label (``label``: ``correct``/``incorrect``/``unknown``, or a
    boolean ``clean``, ``is_correct``, ``is_hallucination``...; see :mod:`hybridjudge.corpus._labels`)
    becomes its base output's ``clean`` (true, false, null). Bad records (a label that is not one
    included, repeated ids, and records past a bound of *limits*) are skipped and listed in the
    report with every problem; the others are imported. *limits* and *delimiter* are as for
    :func:`~hybridjudge.corpus.read_cases`.

    Raises:
        CaseFileError: the source cannot be read at all, is empty, or has no usable record
            (code ``invalid_case_file``).
        ConfigError: *out_dir* holds files and *overwrite* is false.
    """
    root = Path(out_dir)
    if root.exists() and not root.is_dir():
        raise ConfigError(f"{root}: exists and is not a folder; choose another output folder")
    if root.is_dir() and any(root.iterdir()) and not overwrite:
        raise ConfigError(
            f"{root}: folder is not empty; choose a new output folder, or pass --overwrite "
            "(overwrite=True in the API) to replace the corpus files in it"
        )
    label, digest = _source_label(source)
    records: list[InputRecord] = read_cases(
        source, strict=strict, format=format, limits=limits, delimiter=delimiter
    )
    producer = Producer(system=system, model=model, kind=producer_kind)
    origin = f"{label} (sha256 {digest[:12]})" if digest else f"a {label} in memory"

    cases: list[Case] = []
    outputs: list[Output] = []
    skipped: list[SkippedRecord] = []
    seen: dict[str, int] = {}
    given = derived = without = 0
    for record in records:
        if record.case is None or record.label_problems:
            problems = record.problems + record.label_problems
            skipped.append(SkippedRecord(record=record.line, problems=problems))
            continue
        line = record.case
        if line.id in seen:
            skipped.append(
                SkippedRecord(
                    record=record.line,
                    problems=(
                        f"id: {line.id!r} repeats record {seen[line.id]}; every record needs "
                        "its own id",
                    ),
                )
            )
            continue
        seen[line.id] = record.line
        metadata: dict[str, Any] = dict(line.metadata)
        if record.label_field is not None:  # kept as the output's label, not as metadata
            metadata.pop(record.label_field, None)
        if record.reference is not None:
            metadata["reference"] = record.reference
        anchors = tuple(line.anchors)
        if anchors:
            given += 1
            labels = "anchors given in the record"
        elif derive and record.reference:
            # the context filters the candidates: an empty context keeps none (not "no filter")
            anchors = derive_anchors(record.reference, line.context or [""])
            metadata[DERIVED_ANCHORS_KEY] = [a.value for a in anchors]
            labels = (
                "anchors DERIVED from the reference answer by hybridjudge.corpus.derive_anchors "
                "(candidates, not reviewed)"
                if anchors
                else "no anchors (none derived from the reference answer: omission not "
                "measurable on this case)"
            )
        else:
            labels = "no anchors (omission not measurable on this case)"
        if anchors and labels.startswith("anchors DERIVED"):
            derived += 1
        if not anchors:
            without += 1
        cases.append(
            Case(
                id=line.id,
                question=line.question,
                context=line.context,
                answerable=line.answerable,
                anchors=anchors,
                allowed_numbers=line.allowed_numbers,
                kind="qa",
                label_source=f"user import from {origin}; {labels}",
                metadata=metadata,
            )
        )
        outputs.append(
            Output(
                id=f"{line.id}::base",
                case_id=line.id,
                text=line.answer,
                producer=producer,
                clean=clean_of(record.label),
            )
        )
    if not cases:
        raise _nothing_usable(source, label, skipped)

    root.mkdir(parents=True, exist_ok=True)
    write_jsonl_models(root / CASES_FILE, cases)
    write_jsonl_models(root / OUTPUTS_FILE, outputs)
    files = {
        name: hashlib.sha256((root / name).read_bytes()).hexdigest()
        for name in (CASES_FILE, OUTPUTS_FILE)
    }
    report = ImportReport(
        name=root.resolve().name,
        source=label,
        source_sha256=digest,
        records=len(records),
        cases=len(cases),
        skipped=tuple(skipped),
        cases_with_anchors=given,
        cases_with_derived_anchors=derived,
        cases_without_anchors=without,
        omission_note=(
            (OMISSION_AFTER_DERIVING.format(n=without) if without else None)
            if derive
            else OMISSION_WITHOUT_ANCHORS
            if given < len(cases)
            else None
        ),
        labelled_correct=sum(1 for o in outputs if o.clean is True),
        labelled_incorrect=sum(1 for o in outputs if o.clean is False),
        unlabelled=sum(1 for o in outputs if o.clean is None),
        files_sha256=files,
    )
    from hybridjudge._atomic import atomic_write_text  # never a half-written file

    atomic_write_text(
        root / IMPORT_FILE,
        json.dumps(report.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n",
    )
    atomic_write_text(root / "README.md", _readme(report, producer))
    return report


def _readme(report: ImportReport, producer: Producer) -> str:
    """The corpus README; the folder name, the source path and the producer are the user's
    text, written escaped (no raw HTML, no code span cut short by a backtick)."""
    from hybridjudge._sinks import markdown_code, markdown_text

    lines = [
        f"# corpus/{markdown_text(report.name)}: imported from {markdown_text(str(report.source))}",
        "",
        "Written by `hybridjudge corpus import` (`hybridjudge.corpus.import_corpus`); "
        f"`{IMPORT_FILE}` records the source's sha256, the sha256 of every file written and "
        "every skipped record with its problems.",
        "",
        f"- records read: {report.records}; cases written: {report.cases}; "
        f"skipped: {len(report.skipped)}",
        f"- each case `<id>` has one base output `<id>::base`: the record's answer, produced by "
        f"{markdown_code(producer.system)} (kind {markdown_code(producer.kind)}), with the record's "
        "label as `clean`",
        f"- labels: {report.labelled_correct} correct (`clean` true: the only answers false "
        f"alarms count), {report.labelled_incorrect} incorrect (`clean` false: a natural-defect "
        f"row of the study), {report.unlabelled} unlabelled (`clean` null: in no false-alarm "
        "rate)",
        "- the reference answer and every extra field of a record are kept in the case's "
        "`metadata`",
        f"- anchors (required facts): given in {report.cases_with_anchors} case(s), derived "
        f"from the reference answer in {report.cases_with_derived_anchors}, none in "
        f"{report.cases_without_anchors}",
        "",
        "Next: `hybridjudge mutate <this folder> --mutation-seed 0 --out mutations/<name>.jsonl`, then "
        "`hybridjudge study run --corpus <this folder> --mutations mutations/<name>.jsonl "
        "--scorers deterministic,support,contradiction --out results/<name>`.",
    ]
    if report.omission_note:
        note = markdown_text(report.omission_note)
        lines += ["", "## What the omission class can measure here", "", note + "."]
    if report.cases_with_derived_anchors:
        lines += [
            "",
            "## Derived anchors",
            "",
            "Anchors listed under `metadata.derived_anchors` were taken from the reference "
            "answer (its numbers and named entities that the context contains). They are "
            "candidates, not reviewed labels: review them before trusting omission figures.",
        ]
    return "\n".join(lines) + "\n"
