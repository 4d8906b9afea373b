"""Typed, versioned results of a mutation study (``study.json``).

The file carries every raw observation (scorer x output x repetition) and the analysis derived
from them. No field anywhere aggregates detection across defect classes: each detection figure is
one (corpus, defect class, origin, scorer) cell, and a test enforces it.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    field_validator,
    model_serializer,
    model_validator,
)

from hybridjudge._versions import version_problem
from hybridjudge.model import Usage
from hybridjudge.study._blame import Blame, BlameRow

__all__ = [
    "READABLE_STUDY_FORMAT_VERSIONS",
    "STUDY_FORMAT",
    "STUDY_FORMAT_VERSION",
    "CascadeRow",
    "CheapestRow",
    "ControlRow",
    "CorpusRecord",
    "CostRow",
    "DetectionRow",
    "FalseAlarmRow",
    "JudgeRecord",
    "JudgedClaim",
    "MutationSetRecord",
    "Observation",
    "ObservationUnscoredReason",
    "OutputRecord",
    "ReferenceDifference",
    "SamplingRecord",
    "SeparationRow",
    "StabilityRow",
    "StudyAnalysis",
    "StudyConfig",
    "StudyResult",
    "ThresholdDetection",
    "ThresholdRow",
    "UnscoredRow",
]

STUDY_FORMAT = "hybridjudge.study"
STUDY_FORMAT_VERSION = 8
"""Version 2 added several judges (``config.judges``, ``judge_usage_by_judge``), the separation
of labelled right and hallucinated answers (``analysis.separation``) and the cheapest judge per
defect class (``analysis.cheapest``). Version 3 added the answers' labels: false alarms count only
bases labelled correct (``clean`` true) and count the unlabelled apart
(``FalseAlarmRow.unlabelled``); bases labelled incorrect get a detection row of their own
(``labelled_incorrect``, origin ``labelled``) and a separation row (``SeparationRow.origin``).
Version 4 added the thresholds chosen for a false-alarm budget (``analysis.thresholds``, written
by ``study run --false-alarm-budget``). Version 5 added the negative controls of the context
(``analysis.controls``), the blame of every failed output (``blame``) and its table per system and
corpus (``analysis.blame``). Version 6 added each judge's verdict per claim, with the quote it
gave (``Observation.verdicts``), which the viewer marks in the answer and the context. Version 7
added the hybrid scorer (the cascade): the stage that decided each of its observations
(``Observation.stage``, ``Observation.claim_stages``), the judges it asks
(``config.hybrid_judges``; ``config.hybrid_all_outputs``) and what it lost, gained and saved
against its parts run together (``analysis.cascade``). Version 8 added
``config.hybrid_grade_failed``: the hybrid scorer graded the outputs the checks failed claim by
claim (``--hybrid-grade-failed``) rather than scoring them 0.0 without a call."""
READABLE_STUDY_FORMAT_VERSIONS = (1, 2, 3, 4, 5, 6, 7, 8)
"""Versions :func:`~hybridjudge.study.load_study` reads (an older file has none of the newer
fields, which read as empty; its tables stay as they were computed: a version 1 or 2 study
counted an unlabelled base as clean)."""

ScorerKind = Literal["deterministic", "judge", "reference"]

ObservationUnscoredReason = Literal[
    "no_claims",
    "parse_failure",
    "model_error",
    "record_error",
    "too_many_claims",
    "budget_exhausted",
    "nan",
    "no_score_in_paper",
]
"""Why an observation has no score: a judge's reasons (``no_claims``, ``parse_failure``,
``model_error``, ``record_error``: the record could not be scored at all; ``too_many_claims``:
more claims than ``--max-claims``, not judged; ``budget_exhausted``: ``--max-cost`` was reached
before its calls were made), a peer's ``nan`` (the
peer returned NaN), or ``no_score_in_paper`` (a reference arm's score missing from the paper's
files)."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class JudgedClaim(_Frozen):
    """A judge's verdict on one claim of an answer, with the quote it gave from the context."""

    claim: str
    """The claim as the judge extracted it."""
    label: str
    """The verdict (``supported``, ``not_supported``, ``contradicted``, ``not_contradicted``,
    ``not_in_context``, ``no_context``)."""
    faithful: bool
    """Whether the claim counts as faithful for this scorer."""
    quote: str | None = None
    """The context span the judge quoted as stating the claim (``None``: it gave none, or was not
    asked for one)."""
    quote_found: bool | None = None
    """Whether that quote is really in the context (``None`` without a quote)."""


class Observation(_Frozen):
    """One scorer's verdict on one output in one repetition."""

    output_id: str
    """The scored output."""
    scorer: str
    """Scorer name: ``deterministic``, ``support``, ``contradiction`` (or a reference arm)."""
    repetition: int = Field(ge=0)
    """0-based repetition index (part of every judge cache key)."""
    status: Literal["scored", "unscored"]
    """``unscored`` when the scorer gave no score; ``unscored_reason`` says why."""
    score: float | None = Field(default=None, ge=0.0, le=1.0, allow_inf_nan=False)
    """Deterministic: 1.0 grounded, 0.0 not. Judges and peers: the faithfulness score in
    [0, 1]. Present exactly when scored."""
    flagged: bool | None = None
    """Deterministic: not grounded. Judges: ``score < threshold``. ``None`` when unscored."""
    issues: tuple[str, ...] = ()
    """What the scorer objected to: deterministic finding keys (``kind: subject``); for judges,
    the claims it did not accept. Deterministic reaction compares these with the base's."""
    unscored_reason: ObservationUnscoredReason | None = None
    """Why there is no score (see :data:`ObservationUnscoredReason`); present exactly when
    unscored."""
    detail: str | None = None
    """Free-text detail (the error, or the judge's abstention note)."""
    latency_ms: float = Field(default=0.0, ge=0.0, allow_inf_nan=False)
    """Milliseconds this evaluation took: measured wall time (deterministic) or time waiting on
    the endpoint (judges; 0 for cache hits)."""
    usage: Usage = Usage()
    """Model usage of this evaluation (all zeros for the deterministic scorer)."""
    cached: bool = False
    """True when every model call of this evaluation came from the cache."""
    verdicts: tuple[JudgedClaim, ...] = ()
    """A judge's verdict on every claim it judged, in order, with its quotes (study format 6;
    empty for the deterministic checks, the peers, an unscored result, and older studies); left
    out of ``study.json`` when empty."""
    stage: Literal["checks", "as_written", "judge"] | None = None
    """The hybrid scorer only (study format 7): the stage that decided this output (``checks``:
    the grounding checks failed it, no call; ``as_written``: every claim stated as written, no
    call; ``judge``: the judges decided the remaining claims, or left it unscored). Left out of
    ``study.json`` for the other scorers."""
    claim_stages: tuple[Literal["checks", "as_written", "judge"], ...] = ()
    """The hybrid scorer only: the stage that decided each claim, in order (``checks``, from
    study format 8: a claim holding a finding of an output graded with
    ``--hybrid-grade-failed``, or a finding no claim holds)."""

    @model_serializer(mode="wrap")
    def _omit_empty_fields(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # observations without claim verdicts or a cascade's stages keep the form they had
        # before formats 6 and 7
        data: dict[str, Any] = handler(self)
        if not data.get("verdicts"):
            data.pop("verdicts", None)
        if data.get("stage") is None:
            data.pop("stage", None)
        if not data.get("claim_stages"):
            data.pop("claim_stages", None)
        return data

    @model_validator(mode="after")
    def _status_matches_score(self) -> Observation:
        where = f"observation of {self.output_id!r} by {self.scorer!r}"
        if self.status == "scored":
            if self.score is None or self.unscored_reason is not None:
                raise ValueError(f"{where}: a scored observation needs a score and no reason")
            if self.flagged is None:
                raise ValueError(f"{where}: a scored observation says whether it is flagged")
        elif self.score is not None or self.unscored_reason is None or self.flagged is not None:
            raise ValueError(
                f"{where}: an unscored observation needs an unscored_reason, and no score "
                "and no flag"
            )
        return self


class OutputRecord(_Frozen):
    """What the study knows about one scored output."""

    id: str
    """Output id."""
    corpus: str
    """Corpus name."""
    case_id: str
    """Gold case."""
    base_id: str | None
    """The base a mutant derives from (``None`` for a base)."""
    defect: str | None
    """Defect class of a mutant; ``natural`` for an unclassified natural defect; ``None`` for a
    base."""
    origin: str
    """``base``, ``paper``, ``mutator`` or ``natural``."""
    clean: bool | None
    """For bases: the answer's label (``True``: correct, ``False``: incorrect, ``None``:
    unlabelled, in no false-alarm rate)."""
    judged: bool
    """Whether the LLM judges scored this output (false when outside the judge sample)."""
    metadata: dict[str, Any] = Field(default_factory=dict)
    """The case's metadata: the user's own fields (e.g. from ``corpus import``); left out of
    ``study.json`` when empty."""

    @model_serializer(mode="wrap")
    def _omit_empty_metadata(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # studies of corpora without metadata keep the file format they had before
        data: dict[str, Any] = handler(self)
        if not data.get("metadata"):
            data.pop("metadata", None)
        return data


class CorpusRecord(_Frozen):
    """A corpus the study read, with the sha256 of every file."""

    name: str
    """Corpus name."""
    path: str
    """Where it was read from."""
    files_sha256: dict[str, str]
    """sha256 of each corpus file, keyed by its path relative to the corpus directory."""


class MutationSetRecord(_Frozen):
    """A frozen mutation file the study read."""

    path: str
    """Where it was read from."""
    sha256: str
    """sha256 of the file."""
    corpus: str
    """The corpus it was made from."""
    seed: int
    """The mutators' seed."""
    mutator_versions: dict[str, str]
    """Version of each mutator that made it."""
    outputs: int
    """Number of mutants in it."""
    refused: dict[str, dict[str, int]] = Field(default_factory=dict)
    """Per defect class, how many bases the mutator refused, by reason (from the file's header),
    e.g. ``{"omission": {"the case has no anchors": 8}}``."""


class SamplingRecord(_Frozen):
    """How the judged outputs were chosen when the judges did not score everything."""

    judged_outputs: int
    """Outputs the judges scored."""
    total_outputs: int
    """Outputs in the study (the deterministic scorer scores all of them)."""
    bases_per_corpus: dict[str, int]
    """Bases sampled per corpus (each with all its mutants)."""
    seed: int
    """Seed of the deterministic sample."""
    note: str
    """One sentence for the reports, naming the flag that runs the full study."""


class JudgeRecord(_Frozen):
    """One named judge model of a study run with several judges (``--judge NAME=SPEC``)."""

    name: str
    """The judge's name: its scorers are ``NAME:SCORER`` (e.g. ``mini:support``)."""
    model: dict[str, str | float | int | None]
    """Its model configuration as :meth:`~hybridjudge.model.ModelConfig.describe` gives it
    (backend, endpoint, model, sampling settings, prices; never a key)."""


class StudyConfig(_Frozen):
    """The settings a study ran with (never an API key)."""

    scorers: tuple[str, ...]
    """Scorers in report order."""
    repetitions: int
    """Repetitions of every scorer."""
    thresholds: dict[str, float]
    """Judge thresholds: a judge flags an output whose score is below its threshold."""
    judge_mode: Literal["separate", "shared"]
    """Judges' verdict mode."""
    model: dict[str, str | float | int | None]
    """The model configuration (backend, base URL, model, temperature, seed, prices...); empty
    when the study ran several named judges (see ``judges``)."""
    judges: tuple[JudgeRecord, ...] = ()
    """The named judges, in order, when the study ran several (``--judge``); empty for a study
    with one judge from the model flags, whose scorers keep their plain names."""
    hybrid_judges: tuple[str, ...] = ()
    """The judges the hybrid scorer asks about the claims the checks leave (``--hybrid-judges``);
    empty (and left out of ``study.json``) when the study did not run it."""
    hybrid_all_outputs: bool = False
    """Whether the hybrid scorer ran on every output (``--hybrid-all-outputs``) rather than on
    the judges' sample; left out of ``study.json`` when false."""
    hybrid_grade_failed: bool = False
    """Whether the hybrid scorer graded the outputs the checks failed claim by claim
    (``--hybrid-grade-failed``) rather than scoring them 0.0 without a call; left out of
    ``study.json`` when false."""

    @model_serializer(mode="wrap")
    def _omit_empty_hybrid(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        if not data.get("hybrid_judges"):
            data.pop("hybrid_judges", None)
        for flag in ("hybrid_all_outputs", "hybrid_grade_failed"):
            if not data.get(flag):
                data.pop(flag, None)
        return data


class DetectionRow(_Frozen):
    """Detection of ONE defect class by ONE scorer on ONE corpus (never summed across classes)."""

    corpus: str
    """Corpus name."""
    defect_class: str
    """The defect class."""
    origin: str
    """Where the mutants came from: ``paper``, ``mutator`` or ``natural``."""
    scorer: str
    """Scorer name."""
    n: int
    """Mutants of this class the scorer was run on."""
    detected: int
    """Mutants it reacted to in every repetition."""
    reacted_sometimes: int
    """Mutants it reacted to in some but not all repetitions."""
    raw_flags: int
    """Mutants it flagged in every repetition, whatever it said about the base."""
    unscored: int
    """Mutants (or their bases) left unscored in at least one repetition."""
    rate: float | None
    """``detected / n`` (``None`` when n is 0)."""
    ci_low: float | None
    """Wilson 95% interval, lower bound."""
    ci_high: float | None
    """Wilson 95% interval, upper bound."""
    in_scope: bool | None
    """Whether this scorer can see this class by construction (``None``: not stated)."""


class FalseAlarmRow(_Frozen):
    """False alarms of one scorer on the bases of one corpus labelled correct (``clean`` true)."""

    corpus: str
    """Corpus name."""
    scorer: str
    """Scorer name."""
    n: int
    """Bases labelled correct scored."""
    flagged_every: int
    """Clean bases flagged in every repetition."""
    flagged_sometimes: int
    """Clean bases flagged in some but not all repetitions."""
    unscored: int
    """Clean bases left unscored in at least one repetition."""
    rate: float | None
    """``flagged_every / n``."""
    ci_low: float | None
    """Wilson 95% interval, lower bound."""
    ci_high: float | None
    """Wilson 95% interval, upper bound."""
    unlabelled: int = 0
    """Bases without a label (``clean`` null) the scorer ran on: in no false-alarm rate."""


class ControlRow(_Frozen):
    """A negative control of the context (passages shuffled, one duplicated) on ONE corpus by ONE
    scorer: every verdict change is a false alarm.

    A control mutant *changed the verdict* when the scorer reacted to it as it would to a defect
    (the rule of :func:`~hybridjudge.study.reacted`: a new deterministic issue, or a judge's
    score below its threshold and below the base's).
    """

    corpus: str
    """Corpus name."""
    control: str
    """``passages_shuffled`` or ``passage_duplicated``."""
    scorer: str
    """Scorer name."""
    n: int
    """Control mutants scored (with their bases) in every repetition."""
    changed_every: int
    """Controls whose verdict changed in every repetition (false alarms)."""
    changed_sometimes: int
    """Controls whose verdict changed in some but not all repetitions."""
    unscored: int
    """Controls (or their bases) left unscored in some repetition."""
    rate: float | None
    """``changed_every / n``."""
    ci_low: float | None
    """Wilson 95% interval, lower bound."""
    ci_high: float | None
    """Wilson 95% interval, upper bound."""


class StabilityRow(_Frozen):
    """How much one scorer moved across repetitions."""

    scorer: str
    """Scorer name."""
    outputs: int
    """Outputs scored in every repetition."""
    verdict_flips: int
    """Outputs flagged in some repetitions and not in others."""
    outputs_with_movement: int
    """Outputs whose score was not identical in every repetition."""
    max_range: float
    """Largest max-min score range of one output."""
    mean_range: float
    """Mean max-min score range over outputs."""
    identical_across_repetitions: bool
    """True when every repetition returned exactly the same scores."""


class UnscoredRow(_Frozen):
    """Unscored evaluations of one scorer by reason."""

    scorer: str
    """Scorer name."""
    evaluations: int
    """Evaluations attempted (outputs x repetitions)."""
    by_reason: dict[str, int]
    """Count per reason (``no_claims``, ``parse_failure``, ``model_error``)."""


class CostRow(_Frozen):
    """Cost and latency of one scorer."""

    scorer: str
    """Scorer name."""
    evaluations: int
    """Evaluations (outputs x repetitions)."""
    calls: int
    """HTTP requests made (cache hits excluded; retries and repairs included)."""
    prompt_tokens: int
    """Prompt tokens billed."""
    completion_tokens: int
    """Completion tokens billed."""
    cost_usd: float | None
    """Dollars billed in this run (``None``: no price known for the model)."""
    usd_per_1000: float | None
    """Dollars per 1,000 evaluations as if nothing were cached (billed + saved, per evaluation)."""
    wall_s_per_repetition: float
    """Wall seconds one repetition of this scorer took (judges: the judging phase's wall time
    is shared by the judges that ran together; see ``shared_wall``)."""
    shared_wall: bool
    """True when this scorer ran concurrently with other judges, so its wall time is theirs too."""
    median_ms: float
    """Median milliseconds per evaluation (judges: endpoint time as first measured, cache hits
    counted at their original latency)."""
    p95_ms: float
    """95th percentile milliseconds per evaluation (same basis as ``median_ms``)."""
    cache_hits: int
    """Model calls answered from the cache."""
    saved_usd: float | None
    """Dollars the cache hits saved (``None``: the model's price is unknown)."""
    saved_s: float
    """Seconds the cache hits saved."""
    includes_shared_claims: bool
    """True when the cost includes the claim extraction shared by the judges (so the judges'
    rows must not be summed)."""


class SeparationRow(_Frozen):
    """How well one scorer's score separates labelled right answers from natural hallucinations.

    On a corpus whose mutants include natural hallucinations (HaluEval: a hallucinated and a
    right answer per question), the right answers (the bases) are the positives and the
    hallucinated answers the negatives; the AUROC is the probability that a random right answer
    scores higher than a random hallucinated one (ties half). An output's score is its mean over
    the repetitions; an output unscored in any repetition is left out and counted.
    """

    corpus: str
    """Corpus name."""
    scorer: str
    """Scorer name."""
    positives: int
    """Right answers scored in every repetition (in the AUROC)."""
    negatives: int
    """Hallucinated answers scored in every repetition (in the AUROC)."""
    unscored_positives: int
    """Right answers left out: unscored in some repetition."""
    unscored_negatives: int
    """Hallucinated answers left out: unscored in some repetition."""
    auroc: float | None
    """Area under the ROC curve (``None`` when one group has no scored answer)."""
    ci_low: float | None
    """Lower end of the bootstrap interval."""
    ci_high: float | None
    """Upper end of the bootstrap interval."""
    confidence: float
    """Two-sided level of the interval."""
    resamples: int
    """Bootstrap resamples."""
    seed: int
    """Seed of the bootstrap."""
    method: str
    """How the interval was computed."""
    origin: Literal["natural", "labelled"] = "natural"
    """What the negatives are: ``natural``, natural hallucinations (the positives their bases);
    ``labelled``, the bases labelled incorrect (the positives the bases labelled correct)."""


class CheapestRow(_Frozen):
    """For one defect class: the cheapest LLM scorer that detects it in every repetition.

    A scorer *detects the class* when it detected every one of its mutants (reacted in every
    repetition, ``detected == n``, at least one mutant) and left none unscored. Among those,
    the one with the lowest dollars per 1,000 evaluations (as if nothing were cached) wins;
    ties go to the lower median latency, then to the earlier scorer. A scorer whose price is
    unknown ranks after every priced one.
    """

    corpus: str
    """Corpus name."""
    defect_class: str
    """The defect class."""
    origin: str
    """Where its mutants came from."""
    scorer: str | None
    """The cheapest scorer detecting it (``None``: no LLM scorer did)."""
    judge: str | None
    """The judge of that scorer (``None`` for a study with one unnamed judge, or none)."""
    usd_per_1000: float | None
    """Its dollars per 1,000 evaluations (``None``: price unknown, or no scorer)."""
    n: int
    """Mutants of the class it detected (all of them)."""
    detecting: tuple[str, ...]
    """Every LLM scorer that detects the class, cheapest first."""
    best: str | None = None
    """When none detects it: the scorer with the highest detection rate (``None``: none
    measured)."""
    best_detected: int = 0
    """That scorer's mutants detected."""
    best_n: int = 0
    """That scorer's mutants scored."""


class ThresholdDetection(_Frozen):
    """Defective outputs of ONE (corpus, defect class, origin) a chosen threshold flags."""

    corpus: str
    """Corpus name."""
    defect_class: str
    """The defect class (``labelled_incorrect`` for the bases labelled incorrect)."""
    origin: str
    """``paper``, ``mutator``, ``natural`` or ``labelled``."""
    n: int
    """Defective outputs of the class scored in every repetition."""
    flagged: int
    """Of those, the ones whose score (mean over repetitions) is below the threshold."""
    unscored: int
    """Defective outputs left out: unscored in some repetition."""
    rate: float | None
    """``flagged / n`` (``None`` when n is 0)."""
    ci_low: float | None
    """Wilson 95% interval, lower bound."""
    ci_high: float | None
    """Wilson 95% interval, upper bound."""


class ThresholdRow(_Frozen):
    """The threshold of one scorer that keeps false alarms on clean outputs within a budget.

    The clean outputs (bases labelled correct, scored in every repetition; an output's score is
    its mean over the repetitions) are split by a seeded shuffle into a *choosing* half (the
    first ``ceil(n/2)``) and a *kept-back* half. With ``m`` choosing scores sorted ascending and
    ``k = floor(budget * m)`` false alarms allowed, the threshold is the ``(k+1)``-th smallest:
    the highest threshold that flags (score below it) at most ``k`` of them. It is then measured
    on what did not choose it: the kept-back clean outputs (false alarms) and the defective ones
    (flagged, per defect class). With fewer than ``ceil(1/budget)`` choosing scores the budget
    cannot be resolved (``k`` would be 0): ``status`` is ``too_few_clean`` and no threshold is
    given.
    """

    scorer: str
    """Scorer name."""
    budget: float
    """The false-alarm budget: the largest share of clean outputs it may flag."""
    status: Literal["chosen", "too_few_clean"]
    """``chosen``, or ``too_few_clean`` (no threshold: see ``note``)."""
    threshold: float | None
    """The chosen threshold (an output is flagged when its score is below it)."""
    ci_low: float | None
    """Lower end of the bootstrap interval of the threshold (resampling the choosing half)."""
    ci_high: float | None
    """Upper end of that interval."""
    confidence: float
    """Two-sided level of the intervals."""
    resamples: int
    """Bootstrap resamples."""
    seed: int
    """Seed of the split and of the bootstrap."""
    method: str
    """How the threshold's interval was computed."""
    clean: int
    """Clean outputs scored in every repetition (choosing + kept back)."""
    choosing: int
    """Clean outputs the threshold was chosen on."""
    needed: int
    """Choosing clean outputs the budget needs: ``ceil(1 / budget)``."""
    unscored_clean: int
    """Clean outputs left out: unscored in some repetition."""
    choosing_false_alarms: int | None
    """Choosing clean outputs the threshold flags (at most ``floor(budget * choosing)``)."""
    kept_back: int
    """Kept-back clean outputs (the false-alarm rate is measured on them)."""
    kept_back_false_alarms: int | None
    """Kept-back clean outputs the threshold flags."""
    kept_back_rate: float | None
    """``kept_back_false_alarms / kept_back``."""
    kept_back_ci_low: float | None
    """Wilson 95% interval, lower bound."""
    kept_back_ci_high: float | None
    """Wilson 95% interval, upper bound."""
    detection: tuple[ThresholdDetection, ...] = ()
    """Defective outputs flagged at the threshold, one row per (corpus, defect class, origin)."""
    note: str | None = None
    """Why there is no threshold (``not enough clean outputs: N, need at least M ...``)."""


class CascadeRow(_Frozen):
    """What the hybrid scorer (the cascade) lost or gained on ONE (corpus, defect class, origin)
    against its parts run on every output together (the checks and its judges: an output is
    flagged when any of them flags it), never summed over classes.

    For a defect class, a mutant is *detected* by the parts together when, in every repetition,
    at least one part reacted to it (:func:`~hybridjudge.study.reacted`); for the clean row
    (``defect_class`` ``clean``, origin ``base``), a base labelled correct is a *false alarm* when
    at least one part flagged it in every repetition. ``lost``: the parts together detected (or
    flagged) it and the cascade did not; ``gained``: the other way round.
    """

    cascade: str
    """The cascade's scorer name (``hybrid``, or ``NAME:hybrid``)."""
    parts: tuple[str, ...]
    """The scorers it is made of, as named in the study."""
    corpus: str
    """Corpus name."""
    defect_class: str
    """The defect class, or ``clean`` for the false-alarm row of the bases labelled correct."""
    origin: str
    """``paper``, ``mutator``, ``natural``, ``labelled``, or ``base`` for the clean row."""
    n: int
    """Outputs the cascade and every part scored in every repetition."""
    cascade_count: int
    """Of those, the ones the cascade detected (false alarms on the clean row)."""
    parts_count: int
    """The ones its parts together detected (false alarms on the clean row)."""
    lost: int
    """Detected (or flagged) by the parts together, not by the cascade."""
    gained: int
    """Detected (or flagged) by the cascade, not by the parts together."""
    unscored: int
    """Outputs left out: unscored by the cascade or a part in some repetition."""


class StudyAnalysis(_Frozen):
    """Everything derived from the observations."""

    detection: tuple[DetectionRow, ...]
    """One row per (corpus, defect class, origin, scorer)."""
    false_alarms: tuple[FalseAlarmRow, ...]
    """One row per (corpus, scorer)."""
    stability: tuple[StabilityRow, ...]
    """One row per scorer."""
    unscored: tuple[UnscoredRow, ...]
    """One row per scorer."""
    cost: tuple[CostRow, ...]
    """One row per scorer."""
    separation: tuple[SeparationRow, ...] = ()
    """One row per (corpus with natural hallucinations, scorer): AUROC of right vs
    hallucinated answers."""
    cheapest: tuple[CheapestRow, ...] = ()
    """One row per (corpus, defect class, origin): the cheapest LLM scorer detecting it."""
    thresholds: tuple[ThresholdRow, ...] = ()
    """With a false-alarm budget (``study run --false-alarm-budget``): one row per judge or peer
    scorer, its threshold chosen on the clean outputs (empty without a budget)."""
    controls: tuple[ControlRow, ...] = ()
    """One row per (corpus, negative control of the context, scorer): verdict changes, which
    are false alarms (the controls have no detection row)."""
    blame: tuple[BlameRow, ...] = ()
    """One row per (corpus, system): the failed outputs and whose failures they are."""
    cascade: tuple[CascadeRow, ...] = ()
    """With the hybrid scorer and its parts in the study: one row per (cascade, corpus, defect
    class, origin) and a clean row per corpus, what it lost or gained against its parts run
    together."""


class ReferenceDifference(_Frozen):
    """One output where our deterministic scorer and the paper's reacted differently."""

    output_id: str
    """The paper's output."""
    defect_class: str
    """Its injected defect class."""
    ours_reacted: bool
    """Whether our deterministic scorer reacted (first repetition; ours is deterministic)."""
    paper_reacted: bool
    """Whether the paper's deterministic arm reacted (first repetition)."""
    ours_new_issues: tuple[str, ...]
    """Issues we raised on the mutant and not on its base: the explanation of the difference."""
    paper_new_issues: tuple[str, ...]
    """Issues the paper raised on the mutant and not on its base."""


class StudyResult(_Frozen):
    """A whole study: configuration, inputs with checksums, raw observations and analysis."""

    format: Literal["hybridjudge.study"] = "hybridjudge.study"
    """File format name."""
    format_version: int = Field(default=STUDY_FORMAT_VERSION)
    """File format version. Every version in :data:`READABLE_STUDY_FORMAT_VERSIONS` reads (an
    older one as the current version, the fields it lacks empty); any other is refused."""
    hybridjudge_version: str
    """The version that wrote the file."""
    created_at: str
    """ISO 8601 UTC time the study finished."""
    config: StudyConfig
    """Settings."""
    corpora: tuple[CorpusRecord, ...]
    """Corpora read, with checksums."""
    mutation_sets: tuple[MutationSetRecord, ...]
    """Frozen mutation files read, with checksums."""
    sampling: SamplingRecord | None
    """How judged outputs were sampled, ``None`` when the judges scored everything."""
    outputs: tuple[OutputRecord, ...]
    """Every output scored."""
    observations: tuple[Observation, ...]
    """Every raw verdict."""
    wall_s: dict[str, float]
    """Wall seconds per phase per repetition, e.g. ``{"deterministic": 0.01, "judges": 312.0}``
    (``peers`` when the peer scorers ran; ``judges:NAME`` and ``peers:NAME`` per named judge)."""
    judge_usage: Usage | None = None
    """Everything the judges' model client (and the peers' proxy, when peers ran) did in this
    run, each call counted once (the per-scorer cost rows include shared calls and must not be
    summed); with several judges, the sum over them."""
    judge_usage_by_judge: dict[str, Usage] = Field(default_factory=dict)
    """With several judges: each judge's own usage (its judges and peers), each call counted
    once."""
    analysis: StudyAnalysis
    """Derived tables."""
    blame: tuple[Blame, ...] = ()
    """Every failed output's blame call (retrieval, generation, both, unknown) with its
    evidence (:func:`~hybridjudge.study.blame_answer`)."""
    reference: StudyAnalysis | None = None
    """The same analysis of the OpenGATE paper's own per-repetition scores (RAGAS and DeepEval
    with gpt-4o, OpenGATE's deterministic arm), when the study includes that corpus."""
    reference_note: str | None = None
    """Where the reference scores came from."""
    reference_differences: tuple[ReferenceDifference, ...] = ()
    """Each paper output on which our deterministic scorer and the paper's disagree, with the
    issues that explain it."""

    @field_validator("format_version", mode="before")
    @classmethod
    def _readable_version(cls, value: object) -> object:
        problem = version_problem(value, READABLE_STUDY_FORMAT_VERSIONS, "study format")
        if problem is not None:
            raise ValueError(problem)
        return STUDY_FORMAT_VERSION  # an older file reads as the current version
