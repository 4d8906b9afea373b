"""The mutation study: every scorer on every base and mutant, per defect class, never summed.

Run it with :func:`run_study` over a :class:`StudyPlan`; results are a versioned
:class:`StudyResult` (``study.json``) from which :mod:`hybridjudge.reports` writes Markdown and HTML
and the CI gate compares against a baseline.
"""

from hybridjudge.study._analysis import IN_SCOPE, analyse, reacted
from hybridjudge.study._io import load_study, save_study
from hybridjudge.study._models import (
    STUDY_FORMAT,
    STUDY_FORMAT_VERSION,
    CorpusRecord,
    CostRow,
    DetectionRow,
    FalseAlarmRow,
    MutationSetRecord,
    Observation,
    OutputRecord,
    ReferenceDifference,
    SamplingRecord,
    StabilityRow,
    StudyAnalysis,
    StudyConfig,
    StudyResult,
    UnscoredRow,
)
from hybridjudge.study._run import DETERMINISTIC, JUDGE_SCORERS, StudyPlan, run_study

__all__ = [
    "DETERMINISTIC",
    "IN_SCOPE",
    "JUDGE_SCORERS",
    "STUDY_FORMAT",
    "STUDY_FORMAT_VERSION",
    "CorpusRecord",
    "CostRow",
    "DetectionRow",
    "FalseAlarmRow",
    "MutationSetRecord",
    "Observation",
    "OutputRecord",
    "ReferenceDifference",
    "SamplingRecord",
    "StabilityRow",
    "StudyAnalysis",
    "StudyConfig",
    "StudyPlan",
    "StudyResult",
    "UnscoredRow",
    "analyse",
    "load_study",
    "reacted",
    "run_study",
    "save_study",
]
