"""hybridjudge: can your RAG system be trusted?

Deterministic grounding checks and cached LLM judges side by side, a mutation harness that
measures which scorer catches which defect (per defect class, never one aggregate), and metrics
for retrieval and ordinal classification. Data flows corpus -> mutations -> scorers (grounding
checks, LLM judges through one model-client layer) -> study results -> reports.

The names below are the public API; each stage also has its own package
(:mod:`hybridjudge.grounding`, :mod:`hybridjudge.model`, :mod:`hybridjudge.judges`,
:mod:`hybridjudge.corpus`, :mod:`hybridjudge.mutations`, :mod:`hybridjudge.study`,
:mod:`hybridjudge.reports`, :mod:`hybridjudge.metrics.retrieval`,
:mod:`hybridjudge.metrics.ordinal`) with more.
"""

from __future__ import annotations

__version__ = "0.1.0"

from hybridjudge._errors import (
    CaseFileError,
    ConfigError,
    HybridJudgeError,
    IncompatibleReportsError,
    InputError,
    InvariantError,
    LocalModelError,
    ModelAuthError,
    ModelConnectionError,
    ModelError,
    ModelHTTPError,
    ModelResponseError,
)
from hybridjudge.corpus import Anchor, Case, Corpus, Output, load_corpus
from hybridjudge.grounding import (
    Finding,
    GroundingChecker,
    GroundingReport,
    abstains,
    check_grounding,
    parse_quantities,
    prepare_context,
)
from hybridjudge.judges import JudgeResult, judge
from hybridjudge.metrics.ordinal import TriageReport, triage_report
from hybridjudge.metrics.ordinal import compare as compare_triage_reports
from hybridjudge.metrics.retrieval import RetrievalResult
from hybridjudge.metrics.retrieval import evaluate as evaluate_retrieval
from hybridjudge.model import CallResult, ModelClient, ModelConfig, Usage
from hybridjudge.mutations import MutationSet, generate_mutations, load_mutations
from hybridjudge.reports import gate, write_reports
from hybridjudge.study import StudyPlan, StudyResult, load_study, run_study

__all__ = [
    "Anchor",
    "CallResult",
    "Case",
    "CaseFileError",
    "ConfigError",
    "Corpus",
    "Finding",
    "GroundingChecker",
    "GroundingReport",
    "HybridJudgeError",
    "IncompatibleReportsError",
    "InputError",
    "InvariantError",
    "JudgeResult",
    "LocalModelError",
    "ModelAuthError",
    "ModelClient",
    "ModelConfig",
    "ModelConnectionError",
    "ModelError",
    "ModelHTTPError",
    "ModelResponseError",
    "MutationSet",
    "Output",
    "RetrievalResult",
    "StudyPlan",
    "StudyResult",
    "TriageReport",
    "Usage",
    "__version__",
    "abstains",
    "check_grounding",
    "compare_triage_reports",
    "evaluate_retrieval",
    "gate",
    "generate_mutations",
    "judge",
    "load_corpus",
    "load_mutations",
    "load_study",
    "parse_quantities",
    "prepare_context",
    "run_study",
    "triage_report",
    "write_reports",
]
