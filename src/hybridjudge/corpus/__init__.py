"""Corpus records and their files: gold cases, base outputs and mutants, CLI case lines."""

from hybridjudge.corpus._formats import (
    FIELD_ALIASES,
    INPUT_FORMATS,
    InputFormat,
    InputRecord,
    read_cases,
    read_raw_records,
)
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
from hybridjudge.corpus._io import (
    LineResult,
    read_case_lines,
    read_jsonl_models,
    write_jsonl_models,
)
from hybridjudge.corpus._load import CASES_FILE, OUTPUTS_FILE, Corpus, load_corpus
from hybridjudge.corpus._models import (
    DEFECT_CLASSES,
    Anchor,
    Case,
    CaseLine,
    DefectClass,
    Output,
    Producer,
)
from hybridjudge.corpus._opengate import OPENGATE_DEFECT_MAP, build_opengate, load_opengate_source

__all__ = [
    "CASES_FILE",
    "DEFECT_CLASSES",
    "FIELD_ALIASES",
    "HALUEVAL_SAMPLE_SIZE",
    "HALUEVAL_SEED",
    "HALUEVAL_UNCLASSIFIED_DETAIL",
    "IMPORT_FILE",
    "INPUT_FORMATS",
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
    "LineResult",
    "Output",
    "Producer",
    "SkippedRecord",
    "build_halueval",
    "build_opengate",
    "derive_anchors",
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
