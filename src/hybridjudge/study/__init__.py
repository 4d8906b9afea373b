"""The mutation study: every scorer on every base and mutant, per defect class, never summed.

Build a :class:`StudyPlan` with :func:`load_plan`, run it with :func:`run_study` (or
:func:`arun_study` from async code), and optionally add the OpenGATE paper's own scores with
:func:`compare_with_paper`; results are a versioned
:class:`StudyResult` (``study.json``) from which :mod:`hybridjudge.reports` writes Markdown and HTML
and the CI gate compares against a baseline.
"""

from hybridjudge.study._analysis import (
    IN_SCOPE,
    analyse,
    reacted,
    unscored_count,
    unscored_share,
)
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
from hybridjudge.study._run import (
    DETERMINISTIC,
    JUDGE_SCORERS,
    PEER_SCORERS,
    ProgressHook,
    StudyPlan,
    arun_study,
    compare_with_paper,
    load_plan,
    run_study,
)

__all__ = [
    "DETERMINISTIC",
    "IN_SCOPE",
    "JUDGE_SCORERS",
    "PEER_SCORERS",
    "STUDY_FORMAT",
    "STUDY_FORMAT_VERSION",
    "CorpusRecord",
    "CostRow",
    "DetectionRow",
    "FalseAlarmRow",
    "MutationSetRecord",
    "Observation",
    "OutputRecord",
    "ProgressHook",
    "ReferenceDifference",
    "SamplingRecord",
    "StabilityRow",
    "StudyAnalysis",
    "StudyConfig",
    "StudyPlan",
    "StudyResult",
    "UnscoredRow",
    "analyse",
    "arun_study",
    "compare_with_paper",
    "load_plan",
    "load_study",
    "reacted",
    "run_study",
    "save_study",
    "unscored_count",
    "unscored_share",
]
