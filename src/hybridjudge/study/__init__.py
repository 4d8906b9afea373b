"""The mutation study: every scorer on every base and mutant, per defect class, never summed.

Every failed output is blamed on the retriever, the generator, both, or neither knowably
(:func:`blame_answer`; in a study :attr:`StudyResult.blame` and the table
:attr:`StudyAnalysis.blame`).

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
from hybridjudge.study._blame import (
    BLAME_CALLS,
    Blame,
    BlameCall,
    BlameRow,
    RetrievalScores,
    blame_answer,
    blame_rows,
    retrieval_scores,
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
    ControlRow,
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
    blame_study,
    compare_with_paper,
    load_plan,
    run_study,
)

__all__ = [
    "BLAME_CALLS",
    "DETERMINISTIC",
    "IN_SCOPE",
    "JUDGE_SCORERS",
    "JUDGE_SPEC_EXAMPLE",
    "JUDGE_SPEC_KEYS",
    "PEER_SCORERS",
    "READABLE_STUDY_FORMAT_VERSIONS",
    "STUDY_FORMAT",
    "STUDY_FORMAT_VERSION",
    "Blame",
    "BlameCall",
    "BlameRow",
    "CheapestRow",
    "ControlRow",
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
    "RetrievalScores",
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
    "blame_answer",
    "blame_rows",
    "blame_study",
    "cheapest_rows",
    "compare_with_paper",
    "load_plan",
    "load_study",
    "parse_judge_spec",
    "reacted",
    "resolve_judges",
    "retrieval_scores",
    "run_study",
    "save_study",
    "separation_rows",
    "split_scorer",
    "unscored_count",
    "unscored_share",
]
