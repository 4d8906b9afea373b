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

import importlib
import logging
from typing import TYPE_CHECKING, Any

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
from hybridjudge._version import __version__

# A library is silent unless its user configures logging (the CLI does, with -v / -q).
logging.getLogger(__name__).addHandler(logging.NullHandler())

if TYPE_CHECKING:
    from hybridjudge.corpus import Anchor, Case, Corpus, Output, load_corpus
    from hybridjudge.grounding import (
        CheckBatch,
        Finding,
        GroundingChecker,
        GroundingReport,
        abstains,
        check_grounding,
        check_many,
        parse_quantities,
        prepare_context,
    )
    from hybridjudge.judges import (
        CascadeBatch,
        CascadeResult,
        JudgeBatch,
        JudgeResult,
        aevaluate,
        aevaluate_many,
        ajudge_many,
        evaluate,
        evaluate_many,
        judge,
        judge_many,
    )
    from hybridjudge.metrics.ordinal import TriageReport, triage_report
    from hybridjudge.metrics.ordinal import compare as compare_triage_reports
    from hybridjudge.metrics.retrieval import RetrievalResult
    from hybridjudge.metrics.retrieval import evaluate as evaluate_retrieval
    from hybridjudge.model import CallResult, ModelClient, ModelConfig, Usage
    from hybridjudge.mutations import MutationSet, generate_mutations, load_mutations
    from hybridjudge.reports import gate, write_reports
    from hybridjudge.study import (
        Blame,
        StudyPlan,
        StudyResult,
        arun_study,
        blame_answer,
        compare_with_paper,
        load_plan,
        load_study,
        run_study,
    )

# Every other public name loads on first use (PEP 562), so that ``import hybridjudge`` (and so any
# ``import hybridjudge.<stage>``) imports only the errors and the version, not the model layer,
# openai or matplotlib. Name -> (module, attribute in that module).
_LAZY: dict[str, tuple[str, str]] = {
    "Anchor": ("hybridjudge.corpus", "Anchor"),
    "Case": ("hybridjudge.corpus", "Case"),
    "Corpus": ("hybridjudge.corpus", "Corpus"),
    "Output": ("hybridjudge.corpus", "Output"),
    "load_corpus": ("hybridjudge.corpus", "load_corpus"),
    "Finding": ("hybridjudge.grounding", "Finding"),
    "GroundingChecker": ("hybridjudge.grounding", "GroundingChecker"),
    "GroundingReport": ("hybridjudge.grounding", "GroundingReport"),
    "abstains": ("hybridjudge.grounding", "abstains"),
    "check_grounding": ("hybridjudge.grounding", "check_grounding"),
    "CheckBatch": ("hybridjudge.grounding", "CheckBatch"),
    "check_many": ("hybridjudge.grounding", "check_many"),
    "parse_quantities": ("hybridjudge.grounding", "parse_quantities"),
    "prepare_context": ("hybridjudge.grounding", "prepare_context"),
    "JudgeResult": ("hybridjudge.judges", "JudgeResult"),
    "judge": ("hybridjudge.judges", "judge"),
    "JudgeBatch": ("hybridjudge.judges", "JudgeBatch"),
    "judge_many": ("hybridjudge.judges", "judge_many"),
    "ajudge_many": ("hybridjudge.judges", "ajudge_many"),
    "CascadeBatch": ("hybridjudge.judges", "CascadeBatch"),
    "CascadeResult": ("hybridjudge.judges", "CascadeResult"),
    "evaluate": ("hybridjudge.judges", "evaluate"),
    "aevaluate": ("hybridjudge.judges", "aevaluate"),
    "evaluate_many": ("hybridjudge.judges", "evaluate_many"),
    "aevaluate_many": ("hybridjudge.judges", "aevaluate_many"),
    "TriageReport": ("hybridjudge.metrics.ordinal", "TriageReport"),
    "triage_report": ("hybridjudge.metrics.ordinal", "triage_report"),
    "compare_triage_reports": ("hybridjudge.metrics.ordinal", "compare"),
    "RetrievalResult": ("hybridjudge.metrics.retrieval", "RetrievalResult"),
    "evaluate_retrieval": ("hybridjudge.metrics.retrieval", "evaluate"),
    "CallResult": ("hybridjudge.model", "CallResult"),
    "ModelClient": ("hybridjudge.model", "ModelClient"),
    "ModelConfig": ("hybridjudge.model", "ModelConfig"),
    "Usage": ("hybridjudge.model", "Usage"),
    "MutationSet": ("hybridjudge.mutations", "MutationSet"),
    "generate_mutations": ("hybridjudge.mutations", "generate_mutations"),
    "load_mutations": ("hybridjudge.mutations", "load_mutations"),
    "gate": ("hybridjudge.reports", "gate"),
    "write_reports": ("hybridjudge.reports", "write_reports"),
    "StudyPlan": ("hybridjudge.study", "StudyPlan"),
    "StudyResult": ("hybridjudge.study", "StudyResult"),
    "load_study": ("hybridjudge.study", "load_study"),
    "run_study": ("hybridjudge.study", "run_study"),
    "arun_study": ("hybridjudge.study", "arun_study"),
    "load_plan": ("hybridjudge.study", "load_plan"),
    "compare_with_paper": ("hybridjudge.study", "compare_with_paper"),
    "Blame": ("hybridjudge.study", "Blame"),
    "blame_answer": ("hybridjudge.study", "blame_answer"),
}


# Stage packages reachable as attributes (``import hybridjudge; hybridjudge.grounding``), as when
# the top-level package imported them all.
_SUBPACKAGES = frozenset(
    {"corpus", "grounding", "judges", "metrics", "model", "mutations", "reports", "study"}
)


def __getattr__(name: str) -> Any:
    """Import a public name's module on first access (PEP 562) and cache the name here."""
    if name in _SUBPACKAGES:
        return importlib.import_module(f"hybridjudge.{name}")
    try:
        module_name, attr = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'hybridjudge' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(module_name), attr)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "Anchor",
    "Blame",
    "CallResult",
    "CascadeBatch",
    "CascadeResult",
    "Case",
    "CaseFileError",
    "CheckBatch",
    "ConfigError",
    "Corpus",
    "Finding",
    "GroundingChecker",
    "GroundingReport",
    "HybridJudgeError",
    "IncompatibleReportsError",
    "InputError",
    "InvariantError",
    "JudgeBatch",
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
    "aevaluate",
    "aevaluate_many",
    "ajudge_many",
    "arun_study",
    "blame_answer",
    "check_grounding",
    "check_many",
    "compare_triage_reports",
    "compare_with_paper",
    "evaluate",
    "evaluate_many",
    "evaluate_retrieval",
    "gate",
    "generate_mutations",
    "judge",
    "judge_many",
    "load_corpus",
    "load_mutations",
    "load_plan",
    "load_study",
    "parse_quantities",
    "prepare_context",
    "run_study",
    "triage_report",
    "write_reports",
]
