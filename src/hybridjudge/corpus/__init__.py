"""Corpus records and their files: gold cases, base outputs and mutants, CLI case lines."""

from hybridjudge.corpus._halueval import (
    HALUEVAL_SAMPLE_SIZE,
    HALUEVAL_SEED,
    HALUEVAL_UNCLASSIFIED_DETAIL,
    build_halueval,
    sample_halueval,
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
    "HALUEVAL_SAMPLE_SIZE",
    "HALUEVAL_SEED",
    "HALUEVAL_UNCLASSIFIED_DETAIL",
    "OPENGATE_DEFECT_MAP",
    "OUTPUTS_FILE",
    "Anchor",
    "Case",
    "CaseLine",
    "Corpus",
    "DefectClass",
    "LineResult",
    "Output",
    "Producer",
    "build_halueval",
    "build_opengate",
    "load_corpus",
    "load_opengate_source",
    "read_case_lines",
    "read_jsonl_models",
    "sample_halueval",
    "write_jsonl_models",
]
