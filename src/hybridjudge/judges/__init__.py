"""LLM judges of faithfulness: claim extraction, support- and contradiction-based verdicts.

Two definitions side by side (``docs/faithfulness.md``): ``support`` asks per claim "can it
be directly inferred from the context?" (RAGAS), ``contradiction`` asks "does the context directly
contradict it?" (DeepEval; unknown counts as faithful). Every result is a score with its per-claim
verdicts and usage, a recognised abstention, or unscored with an explicit reason; never NaN.

Example::

    from hybridjudge.judges import judge
    from hybridjudge.model import ModelClient, ModelConfig

    async with ModelClient(ModelConfig.local()) as client:
        results = await judge(client, answer="...", context=["..."], mode="shared")
        results["support"].score, results["contradiction"].unscored_reason

Many answers at once, from plain or async code (also inside a notebook's running loop)::

    from hybridjudge.judges import judge_many

    batch = judge_many(records, scorers=["support"], config=ModelConfig.local())
    batch.to_pandas()  # one row per record, repetition and scorer

The hybrid scorer (:func:`evaluate`, :func:`evaluate_many`): the grounding checks decide first,
claims the context states as written are supported without a call, and only the remaining
claims go to the judges; every decision records its stage (``docs/hybrid.md``).
"""

from hybridjudge.judges._cascade import (
    CASCADE_STAGES,
    DEFAULT_CASCADE_JUDGES,
    CascadeBatch,
    CascadeClaim,
    CascadeOutcome,
    CascadeResult,
    CascadeStage,
    aevaluate,
    aevaluate_many,
    cascade,
    cascade_judges,
    cascade_planned_calls,
    evaluate,
    evaluate_many,
    stated_as_written,
)
from hybridjudge.judges._judge import (
    DEFAULT_MAX_CLAIMS,
    SCORERS,
    ClaimsSource,
    Mode,
    PlannedCall,
    Scorer,
    check_max_claims,
    claims_token_budget,
    judge,
    planned_calls,
    scorer_names,
    verdicts_token_budget,
)
from hybridjudge.judges._many import JudgeProgress, ajudge_many, judge_many
from hybridjudge.judges._prompts import PROMPT_NAMES, Prompt, PromptError, load_prompt
from hybridjudge.judges._pure import is_pure_abstention, pure_abstention_reason
from hybridjudge.judges._results import (
    ClaimVerdict,
    DroppedClaim,
    FailureDetail,
    JudgeBatch,
    JudgeOutcome,
    JudgeRecord,
    JudgeResult,
    ScorerName,
    UnscoredReason,
    total_usage,
)

__all__ = [
    "CASCADE_STAGES",
    "DEFAULT_CASCADE_JUDGES",
    "DEFAULT_MAX_CLAIMS",
    "PROMPT_NAMES",
    "SCORERS",
    "CascadeBatch",
    "CascadeClaim",
    "CascadeOutcome",
    "CascadeResult",
    "CascadeStage",
    "ClaimVerdict",
    "ClaimsSource",
    "DroppedClaim",
    "FailureDetail",
    "JudgeBatch",
    "JudgeOutcome",
    "JudgeProgress",
    "JudgeRecord",
    "JudgeResult",
    "Mode",
    "PlannedCall",
    "Prompt",
    "PromptError",
    "Scorer",
    "ScorerName",
    "UnscoredReason",
    "aevaluate",
    "aevaluate_many",
    "ajudge_many",
    "cascade",
    "cascade_judges",
    "cascade_planned_calls",
    "check_max_claims",
    "claims_token_budget",
    "evaluate",
    "evaluate_many",
    "is_pure_abstention",
    "judge",
    "judge_many",
    "load_prompt",
    "planned_calls",
    "pure_abstention_reason",
    "scorer_names",
    "stated_as_written",
    "total_usage",
    "verdicts_token_budget",
]
