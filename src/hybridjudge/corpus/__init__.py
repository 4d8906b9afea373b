"""Corpus records and their files: gold cases, base outputs and mutants, CLI case lines."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hybridjudge._lazy import lazy_attribute as _lazy_attribute
from hybridjudge._lazy import lazy_dir as _lazy_dir
from hybridjudge._limits import ReadLimits
from hybridjudge.corpus._formats import (
    CSV_DELIMITERS,
    FIELD_ALIASES,
    INPUT_FORMATS,
    InputFormat,
    InputRecord,
    detect_delimiter,
    read_cases,
    read_raw_records,
)
from hybridjudge.corpus._io import (
    LineResult,
    read_case_lines,
    read_jsonl_models,
    write_jsonl_models,
)
from hybridjudge.corpus._labels import LABEL_FIELDS, LABELS, Label
from hybridjudge.corpus._models import (
    ALL_CLASSES,
    CONTEXT_DEFECT_CLASSES,
    CONTROL_CLASSES,
    DEFECT_CLASSES,
    Anchor,
    Case,
    CaseLine,
    DefectClass,
    Output,
    Producer,
)

__all__ = [
    "ALL_CLASSES",
    "CASES_FILE",
    "CONTEXT_DEFECT_CLASSES",
    "CONTROL_CLASSES",
    "CSV_DELIMITERS",
    "DEFECT_CLASSES",
    "FIELD_ALIASES",
    "HALUEVAL_SAMPLE_SIZE",
    "HALUEVAL_SEED",
    "HALUEVAL_UNCLASSIFIED_DETAIL",
    "IMPORT_FILE",
    "INPUT_FORMATS",
    "LABELS",
    "LABEL_FIELDS",
    "OMISSION_WITHOUT_ANCHORS",
    "OPENGATE_DEFECT_MAP",
    "OUTPUTS_FILE",
    "Anchor",
    "Case",
    "CaseLine",
    "Corpus",
    "DefectClass",
    "ImportReport",
    "InputFormat",
    "InputRecord",
    "Label",
    "LineResult",
    "Output",
    "Producer",
    "ReadLimits",
    "SkippedRecord",
    "build_halueval",
    "build_opengate",
    "derive_anchors",
    "detect_delimiter",
    "import_corpus",
    "load_corpus",
    "load_opengate_source",
    "read_case_lines",
    "read_cases",
    "read_jsonl_models",
    "read_raw_records",
    "sample_halueval",
    "write_jsonl_models",
]

if TYPE_CHECKING:
    from hybridjudge.corpus._halueval import (
        HALUEVAL_SAMPLE_SIZE,
        HALUEVAL_SEED,
        HALUEVAL_UNCLASSIFIED_DETAIL,
        build_halueval,
        sample_halueval,
    )
    from hybridjudge.corpus._import import (
        IMPORT_FILE,
        OMISSION_WITHOUT_ANCHORS,
        ImportReport,
        SkippedRecord,
        derive_anchors,
        import_corpus,
    )
    from hybridjudge.corpus._load import CASES_FILE, OUTPUTS_FILE, Corpus, load_corpus
    from hybridjudge.corpus._opengate import (
        OPENGATE_DEFECT_MAP,
        build_opengate,
        load_opengate_source,
    )

# The builders of the shipped corpora and the corpus importer load on first use (PEP 562): the
# case-file readers and the records (all that ``hybridjudge check`` needs) do not import them.
# Name -> private module.
_LAZY: dict[str, str] = {
    "HALUEVAL_SAMPLE_SIZE": "_halueval",
    "HALUEVAL_SEED": "_halueval",
    "HALUEVAL_UNCLASSIFIED_DETAIL": "_halueval",
    "build_halueval": "_halueval",
    "sample_halueval": "_halueval",
    "IMPORT_FILE": "_import",
    "OMISSION_WITHOUT_ANCHORS": "_import",
    "ImportReport": "_import",
    "SkippedRecord": "_import",
    "derive_anchors": "_import",
    "import_corpus": "_import",
    "CASES_FILE": "_load",
    "OUTPUTS_FILE": "_load",
    "Corpus": "_load",
    "load_corpus": "_load",
    "OPENGATE_DEFECT_MAP": "_opengate",
    "build_opengate": "_opengate",
    "load_opengate_source": "_opengate",
}


def __getattr__(name: str) -> Any:
    """Import a lazy name's private module on first access (PEP 562) and keep the name here."""
    return _lazy_attribute(globals(), _LAZY, name)


def __dir__() -> list[str]:
    return _lazy_dir(globals(), _LAZY)
