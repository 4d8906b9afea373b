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
    cheapest_rows,
    reacted,
    separation_rows,
    unscored_count,
    unscored_share,
)
from hybridjudge.study._io import load_study, save_study
from hybridjudge.study._judges import (
    JUDGE_SPEC_EXAMPLE,
    JUDGE_SPEC_KEYS,
    JudgeSpec,
    parse_judge_spec,
    resolve_judges,
    split_scorer,
)
from hybridjudge.study._models import (
    READABLE_STUDY_FORMAT_VERSIONS,
    STUDY_FORMAT,
    STUDY_FORMAT_VERSION,
    CheapestRow,
    CorpusRecord,
    CostRow,
    DetectionRow,
    FalseAlarmRow,
    JudgeRecord,
    MutationSetRecord,
    Observation,
    OutputRecord,
    ReferenceDifference,
    SamplingRecord,
    SeparationRow,
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
    Judges,
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
    "JUDGE_SPEC_EXAMPLE",
    "JUDGE_SPEC_KEYS",
    "PEER_SCORERS",
    "READABLE_STUDY_FORMAT_VERSIONS",
    "STUDY_FORMAT",
    "STUDY_FORMAT_VERSION",
    "CheapestRow",
    "CorpusRecord",
    "CostRow",
    "DetectionRow",
    "FalseAlarmRow",
    "JudgeRecord",
    "JudgeSpec",
    "Judges",
    "MutationSetRecord",
    "Observation",
    "OutputRecord",
    "ProgressHook",
    "ReferenceDifference",
    "SamplingRecord",
    "SeparationRow",
    "StabilityRow",
    "StudyAnalysis",
    "StudyConfig",
    "StudyPlan",
    "StudyResult",
    "UnscoredRow",
    "analyse",
    "arun_study",
    "cheapest_rows",
    "compare_with_paper",
    "load_plan",
    "load_study",
    "parse_judge_spec",
    "reacted",
    "resolve_judges",
    "run_study",
    "save_study",
    "separation_rows",
    "split_scorer",
    "unscored_count",
    "unscored_share",
]
