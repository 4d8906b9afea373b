"""Running a mutation study: every scorer on every base and mutant, R repetitions.

Data flow: corpora (+ frozen mutation files) -> :func:`load_plan` -> :class:`StudyPlan` ->
:func:`run_study` (deterministic checks through :func:`hybridjudge.grounding.check_many`, LLM
judges through :func:`hybridjudge.judges.ajudge_many`) -> raw :class:`Observation` records ->
:func:`analyse` -> :class:`StudyResult`. Every judge call goes through
:class:`hybridjudge.model.ModelClient`, whose disk cache makes an interrupted study resume where it
stopped and a finished one rerun in seconds.

The comparison with the OpenGATE paper is a separate step, :func:`compare_with_paper`, which the
command line calls after the run.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict

from hybridjudge._errors import ConfigError, InputError
from hybridjudge._params import (
    DEFAULT_MAX_CLAIMS,
    check_max_claims,
    check_repetitions,
    check_seed,
)
from hybridjudge._sync import run_sync
from hybridjudge.corpus import Case, Corpus, Output, ReadLimits
from hybridjudge.study._analysis import HYBRID, analyse
from hybridjudge.study._blame import (
    Blame,
    RetrievalScores,
    blame_answer,
    blame_rows,
    retrieval_scores,
)
from hybridjudge.study._judges import SEPARATOR, JudgeSpec, resolve_judges, split_scorer
from hybridjudge.study._models import (
    CorpusRecord,
    JudgedClaim,
    JudgeRecord,
    MutationSetRecord,
    Observation,
    OutputRecord,
    SamplingRecord,
    StudyConfig,
    StudyResult,
)

if TYPE_CHECKING:
    from hybridjudge.grounding import CheckRecord
    from hybridjudge.judges import CascadeResult, JudgeBatch, JudgeResult
    from hybridjudge.model import CostBudget, ModelConfig, Usage
    from hybridjudge.mutations import MutationSet, Refusal
    from hybridjudge.peers import PeerResult

__all__ = [
    "DETERMINISTIC",
    "HYBRID",
    "JUDGE_SCORERS",
    "PEER_SCORERS",
    "ProgressHook",
    "StudyPlan",
    "arun_study",
    "blame_study",
    "compare_with_paper",
    "load_plan",
    "run_study",
]

DETERMINISTIC = "deterministic"
JUDGE_SCORERS = ("support", "contradiction")
PEER_SCORERS = ("ragas", "deepeval")
"""Optional peer scorers (RAGAS Faithfulness, DeepEval FaithfulnessMetric; the ``[peers]``
extra), run through :mod:`hybridjudge.peers` on the judges' model configuration."""
DEFAULT_SCORERS = (DETERMINISTIC, *JUDGE_SCORERS)
KNOWN_SCORERS = (*DEFAULT_SCORERS, HYBRID, *PEER_SCORERS)

ProgressHook = Callable[[str, int, int], None]
"""Called as ``hook(phase, done, total)`` while the study runs (``phase``: ``deterministic``,
``judges`` or ``peers``); an exception it raises stops the study (finished model calls stay
cached)."""

JudgeSample = int | Mapping[str, int | None] | None
"""Bases per corpus the judges score: a number for every corpus, a mapping corpus -> number
(``None``: all of that corpus; a corpus not named: all), or ``None`` for everything."""

Judges = Sequence[str | JudgeSpec] | Mapping[str, "str | ModelConfig"] | None
"""Several named judges: ``["NAME=SPEC", ...]`` or ``{name: spec or ModelConfig}`` (see
:mod:`hybridjudge.study._judges` for the spec syntax); ``None``: one judge, ``model_config``."""


def _qualified(judge: str | None, scorer: str) -> str:
    return scorer if judge is None else f"{judge}{SEPARATOR}{scorer}"


def _phase_key(phase: str, judge: str | None) -> str:
    """The wall-time (and progress) key of a phase: ``judges``, or ``judges:NAME`` per judge."""
    return phase if judge is None else f"{phase}{SEPARATOR}{judge}"


def _refusal_counts(refused: Sequence[Refusal]) -> dict[str, dict[str, int]]:
    """Bases refused per class and reason, from a mutation file's header."""
    counts: dict[str, dict[str, int]] = {}
    for refusal in refused:
        by_reason = counts.setdefault(refusal.defect, {})
        by_reason[refusal.reason] = by_reason.get(refusal.reason, 0) + 1
    return counts


class StudyPlan(BaseModel):
    """Everything a study will score, resolved and validated before any model call.

    Immutable. Build it with :func:`load_plan` (from corpus folders and mutation files) or
    :meth:`from_corpora` (from loaded corpora and mutation sets); it reads no file itself.
    """

    model_config = ConfigDict(frozen=True)

    corpora: tuple[Corpus, ...]
    """The corpora, in the order given."""
    corpus_records: tuple[CorpusRecord, ...]
    """Where each corpus came from, with the sha256 of its files."""
    mutation_records: tuple[MutationSetRecord, ...] = ()
    """Where each mutation set came from."""
    outputs: tuple[Output, ...]
    """Every output scored: each corpus's outputs, then each mutation set's mutants."""
    cases: dict[str, Case]
    """Gold cases keyed ``"corpus/case_id"``."""
    corpus_of: dict[str, str]
    """Output id -> corpus name."""
    judged: frozenset[str]
    """Ids of the outputs the LLM judges score (all of them unless sampled)."""
    judge_sample: int | dict[str, int | None] | None = None
    """Bases per corpus the judges score (``None``: all; see :data:`JudgeSample`)."""
    seed: int = 0
    """Seed of the judge sample."""

    @classmethod
    def from_corpora(
        cls,
        corpora: Sequence[tuple[Corpus, str | Path]],
        mutation_sets: Sequence[tuple[MutationSet, str | Path, str]] = (),
        *,
        judge_sample: JudgeSample = None,
        seed: int = 0,
    ) -> StudyPlan:
        """A plan from loaded corpora (each with its path) and mutation sets (each with its
        path and the sha256 of its file).

        Raises:
            ConfigError: no corpus, a corpus given twice, mutants of a corpus not in the study,
                an invalid judge sample.
            InputError: an output id that occurs twice.
            StaleMutationsError: mutants made from another version of their corpus.
        """
        if not corpora:
            raise ConfigError("no corpus given; pass at least one corpus directory")
        names = [c.name for c, _ in corpora]
        if len(set(names)) != len(names):
            raise ConfigError(f"the same corpus was given twice: {names}")
        by_name = {c.name: c for c, _ in corpora}
        cases: dict[str, Case] = {}
        outputs: list[Output] = []
        corpus_of: dict[str, str] = {}

        def add(out: Output, corpus: str) -> None:
            if out.id in corpus_of:
                raise InputError(
                    f"output id {out.id!r} occurs twice (corpus {corpus_of[out.id]!r} and "
                    f"{corpus!r}); output ids must be unique across the study"
                )
            corpus_of[out.id] = corpus
            outputs.append(out)

        for corpus, _ in corpora:
            for case_id, case in corpus.cases.items():
                cases[f"{corpus.name}/{case_id}"] = case
            for out in corpus.outputs:
                add(out, corpus.name)
        mutation_records = []
        for mset, mpath, sha256 in mutation_sets:
            source = by_name.get(mset.corpus)
            if source is None:
                raise ConfigError(
                    f"{mpath}: mutants were made from corpus {mset.corpus!r}, which is not in "
                    f"this study ({', '.join(names)}); add that corpus or drop the file"
                )
            mset.check_corpus(source)
            for out in mset.outputs:
                add(out, source.name)
            mutation_records.append(
                MutationSetRecord(
                    path=str(mpath),
                    sha256=sha256,
                    corpus=mset.corpus,
                    seed=mset.seed,
                    mutator_versions=dict(mset.mutator_versions),
                    outputs=len(mset.outputs),
                    refused=_refusal_counts(mset.refused),
                )
            )
        check_seed(seed)
        quotas = _quotas(names, judge_sample)
        judged = _sample([c for c, _ in corpora], outputs, corpus_of, quotas, seed)
        return cls(
            corpora=tuple(c for c, _ in corpora),
            corpus_records=tuple(
                CorpusRecord(name=c.name, path=str(p), files_sha256=dict(c.files_sha256))
                for c, p in corpora
            ),
            mutation_records=tuple(mutation_records),
            outputs=tuple(outputs),
            cases=cases,
            corpus_of=corpus_of,
            judged=frozenset(judged),
            judge_sample=None if judge_sample is None else _plain(judge_sample),
            seed=seed,
        )

    @classmethod
    def load(
        cls,
        *,
        corpus_paths: Sequence[str | Path],
        mutation_paths: Sequence[str | Path] = (),
        judge_sample: JudgeSample = None,
        seed: int = 0,
    ) -> StudyPlan:
        """Same as :func:`load_plan`."""
        return load_plan(
            corpus_paths=corpus_paths,
            mutation_paths=mutation_paths,
            judge_sample=judge_sample,
            seed=seed,
        )

    def case_of(self, out: Output) -> Case:
        """The gold case of an output."""
        return self.cases[f"{self.corpus_of[out.id]}/{out.case_id}"]

    def context_of(self, out: Output) -> tuple[str, ...]:
        """The context an output is scored against: its own (a context mutant's), else its
        case's."""
        return out.context if out.context is not None else self.case_of(out).context

    def check_record(self, out: Output) -> CheckRecord:
        """The output with its case, as the checks (and the hybrid scorer) read it."""
        from hybridjudge.grounding import CheckRecord

        case = self.case_of(out)
        return CheckRecord.model_construct(  # trusted: validated when the corpus was loaded
            id=out.id,
            answer=out.text,
            context=self.context_of(out),
            question=case.question,
            anchors=case.anchors,
            answerable=case.answerable,
            allowed_numbers=case.allowed_numbers,
            metadata={},
        )

    def records(self) -> list[OutputRecord]:
        """One :class:`OutputRecord` per output."""
        out = []
        for o in self.outputs:
            defect = o.defect if o.defect is not None else ("natural" if o.base_id else None)
            out.append(
                OutputRecord(
                    id=o.id,
                    corpus=self.corpus_of[o.id],
                    case_id=o.case_id,
                    base_id=o.base_id,
                    defect=defect,
                    origin=o.origin,
                    clean=o.clean,
                    judged=o.id in self.judged,
                    metadata=dict(self.case_of(o).metadata),
                )
            )
        return out

    def sampling(self, hybrid_all_outputs: bool = False) -> SamplingRecord | None:
        """The sampling record, ``None`` when the judges score everything
        (``hybrid_all_outputs``: the hybrid scorer scores every output, as the checks do)."""
        if self.judge_sample is None or len(self.judged) == len(self.outputs):
            return None
        quotas = _quotas([c.name for c in self.corpora], self.judge_sample)
        bases = {name: [0, 0] for name in quotas}  # judged, all
        for o in self.outputs:
            if o.base_id is None and (counts := bases.get(self.corpus_of[o.id])) is not None:
                counts[0] += o.id in self.judged
                counts[1] += 1
        return SamplingRecord(
            judged_outputs=len(self.judged),
            total_outputs=len(self.outputs),
            # a corpus judged whole ("CORPUS=all") is recorded with its number of bases
            bases_per_corpus={
                name: quota if quota is not None else bases[name][1]
                for name, quota in quotas.items()
            },
            seed=self.seed,
            note=(
                f"The LLM judges scored a deterministic sample of {len(self.judged)} of "
                f"{len(self.outputs)} outputs (bases per corpus: "
                + ", ".join(f"{k} {judged} of {total}" for k, (judged, total) in bases.items())
                + f", each with all its mutants, covering defect classes first; seed {self.seed}) "
                "to keep the time budget; the deterministic checks scored all"
                + (", and so did the hybrid scorer" if hybrid_all_outputs else "")
                + ". Run with "
                "--judge-sample all for the full study."
            ),
        )


def _plain(sample: int | Mapping[str, int | None]) -> int | dict[str, int | None]:
    return sample if isinstance(sample, int) else dict(sample)


def load_plan(
    *,
    corpus_paths: Sequence[str | Path],
    mutation_paths: Sequence[str | Path] = (),
    judge_sample: JudgeSample = None,
    seed: int = 0,
    limits: ReadLimits | None = None,
) -> StudyPlan:
    """Read corpus folders and frozen mutation files into a :class:`StudyPlan`.

    Args:
        corpus_paths: corpus directories (``cases.jsonl`` + ``outputs.jsonl``).
        mutation_paths: frozen mutation files, each made from one of the corpora.
        judge_sample: bases per corpus the judges score (an int for every corpus, or
            ``{corpus: n}``), each with all its mutants, chosen by a seeded shuffle that covers
            defect classes first; ``None`` scores everything.
        seed: seed of that shuffle.
        limits: the bounds on bytes read per corpus file, line and field
            (:class:`hybridjudge.corpus.ReadLimits`; the defaults when ``None``).

    Raises:
        ConfigError, InputError: see :meth:`StudyPlan.from_corpora`; unreadable files.
    """
    from hybridjudge.corpus import load_corpus
    from hybridjudge.mutations import load_mutations

    if isinstance(corpus_paths, str | Path):
        corpus_paths = [corpus_paths]
    if isinstance(mutation_paths, str | Path):
        mutation_paths = [mutation_paths]
    if not corpus_paths:
        raise ConfigError("no corpus given; pass at least one corpus directory")
    corpora = [(load_corpus(p, limits=limits), p) for p in corpus_paths]
    msets = [
        (load_mutations(m), m, hashlib.sha256(Path(m).read_bytes()).hexdigest())
        for m in mutation_paths
    ]
    return StudyPlan.from_corpora(corpora, msets, judge_sample=judge_sample, seed=seed)


def _quotas(names: Sequence[str], sample: JudgeSample) -> dict[str, int | None]:
    if sample is None:
        return {}
    if isinstance(sample, int) and not isinstance(sample, bool):
        quotas: dict[str, int | None] = dict.fromkeys(names, sample)
    elif isinstance(sample, Mapping):
        unknown = sorted(set(sample) - set(names))
        if unknown:
            raise ConfigError(
                f"judge_sample names corpus {', '.join(unknown)}, which is not in this "
                f"study ({', '.join(names)})"
            )
        quotas = dict(sample)
    else:
        raise ConfigError(
            f"judge_sample must be a number of bases, a mapping corpus -> bases, or None "
            f"(all), got {sample!r}"
        )
    for name, value in quotas.items():
        if value is None:
            continue  # all of that corpus
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ConfigError(f"judge_sample for {name} must be at least 1 base (or all)")
    return quotas


def _sample(
    corpora: Sequence[Corpus],
    outputs: Sequence[Output],
    corpus_of: Mapping[str, str],
    quotas: Mapping[str, int | None],
    seed: int,
) -> set[str]:
    """Bases chosen per corpus (with all their mutants), covering defect classes first.

    The order is a seeded shuffle of the base ids; bases whose mutants add a defect class
    not yet covered are taken first, so a small sample still sees every class it can.
    """
    if not quotas:
        return {o.id for o in outputs}
    chosen: set[str] = set()
    for corpus in corpora:
        quota = quotas.get(corpus.name)
        mine = [o for o in outputs if corpus_of[o.id] == corpus.name]
        bases = sorted(o.id for o in mine if o.base_id is None)
        if quota is None or quota >= len(bases):
            chosen |= set(bases)
            continue
        classes: dict[str, set[str]] = {b: set() for b in bases}
        for o in mine:
            if o.base_id in classes:
                classes[o.base_id].add(o.defect or "natural")
        order = list(bases)
        random.Random(f"{seed}:{corpus.name}").shuffle(order)
        covered: set[str] = set()
        picked: list[str] = []
        while len(picked) < quota:
            gains = [
                (len(classes[b] - covered), -i, b) for i, b in enumerate(order) if b not in picked
            ]
            best = max(gains)
            picked.append(best[2])
            covered |= classes[best[2]]
        chosen |= set(picked)
    chosen |= {o.id for o in outputs if o.base_id in chosen}
    return chosen


def _deterministic(
    plan: StudyPlan, repetitions: int, hook: ProgressHook | None
) -> tuple[list[Observation], float]:
    from hybridjudge.grounding import check_many

    # One record per output and repetition; check_many prepares one checker per case, reused
    # by every output of the case in every repetition (the first output pays for the parse).
    records = [plan.check_record(out) for _ in range(repetitions) for out in plan.outputs]
    batch = check_many(
        records,
        progress=None if hook is None else (lambda done, total: hook(DETERMINISTIC, done, total)),
    )
    observations: list[Observation] = []
    walls = [0.0] * repetitions
    per_rep = len(plan.outputs)
    for outcome in batch.outcomes:
        rep = outcome.index // per_rep if per_rep else 0
        walls[rep] += outcome.elapsed_ms / 1000.0
        report = outcome.report
        if report is None:
            observations.append(
                Observation(
                    output_id=outcome.id,
                    scorer=DETERMINISTIC,
                    repetition=rep,
                    status="unscored",
                    unscored_reason="record_error",
                    detail=outcome.error,
                )
            )
            continue
        observations.append(
            Observation(
                output_id=outcome.id,
                scorer=DETERMINISTIC,
                repetition=rep,
                status="scored",
                score=1.0 if report.grounded else 0.0,
                flagged=not report.grounded,
                issues=tuple(sorted({f"{f.kind}: {f.subject}" for f in report.findings})),
                latency_ms=outcome.elapsed_ms,
            )
        )
    return observations, sum(walls) / len(walls)


def _judge_observation(
    output_id: str, scorer: str, repetition: int, result: JudgeResult, threshold: float
) -> Observation:
    """One judge verdict as an observation named ``scorer`` (qualified for a named judge)."""
    # A scorer's usage includes the claim extraction it needs (shared with the other judge of
    # the same call), so its row reads as the cost of running it alone.
    usage: Usage = result.usage + result.claims_usage
    cached = usage.calls == 0 and usage.cache_hits > 0
    if result.status == "scored" and result.score is not None:
        return Observation(
            output_id=output_id,
            scorer=scorer,
            repetition=repetition,
            status="scored",
            score=float(result.score),
            flagged=float(result.score) < threshold,
            issues=tuple(v.claim for v in result.verdicts if not v.faithful),
            verdicts=tuple(
                JudgedClaim(
                    claim=v.claim,
                    label=v.label,
                    faithful=v.faithful,
                    quote=v.quote,
                    quote_found=v.quote_found,
                )
                for v in result.verdicts
            ),
            detail=result.abstention_reason if result.abstained else None,
            latency_ms=usage.latency_s * 1000.0,
            usage=usage,
            cached=cached,
        )
    detail = None
    if result.detail is not None:
        detail = f"{result.detail.stage}: {result.detail.error}"
        if result.detail.raw:
            detail += f" | raw reply: {result.detail.raw[:1500]}"
    return Observation(
        output_id=output_id,
        scorer=scorer,
        repetition=repetition,
        status="unscored",
        unscored_reason=result.unscored_reason,
        detail=detail,
        latency_ms=usage.latency_s * 1000.0,
        usage=usage,
        cached=cached,
    )


async def _judges(
    plan: StudyPlan,
    scorers: Sequence[str],
    repetitions: int,
    config: ModelConfig,
    mode: Literal["separate", "shared"],
    thresholds: dict[str, float],
    hook: ProgressHook | None,
    judge: str | None = None,
    max_claims: int | None = DEFAULT_MAX_CLAIMS,
    budget: CostBudget | None = None,
) -> tuple[list[Observation], float, Usage]:
    from hybridjudge.judges import JudgeRecord, ajudge_many
    from hybridjudge.model import ModelClient

    judged = [o for o in plan.outputs if o.id in plan.judged]
    records = []
    for out in judged:
        case = plan.case_of(out)
        records.append(
            JudgeRecord(
                id=out.id, answer=out.text, context=plan.context_of(out), question=case.question
            )
        )
    async with ModelClient(config, budget=budget) as client:
        batch: JudgeBatch = await ajudge_many(
            records,
            scorers=scorers,
            mode=mode,
            repetitions=repetitions,
            client=client,
            max_claims=max_claims,
            progress=None
            if hook is None
            else (lambda done, total: hook(_phase_key("judges", judge), done, total)),
        )
        run_usage = client.usage
    observations = [
        _judge_observation(
            o.id,
            _qualified(judge, scorer),
            o.repetition,
            o.results[scorer],
            thresholds[_qualified(judge, scorer)],
        )
        for o in sorted(batch.outcomes, key=lambda o: (o.repetition, o.index))
        for scorer in scorers
    ]
    walls = batch.wall_s
    return observations, (sum(walls) / len(walls)) if walls else 0.0, run_usage


def _hybrid_judges(judges: Sequence[str] | str | None) -> tuple[str, ...]:
    from hybridjudge.judges import cascade_judges

    return cascade_judges(judges)


def _own_cache(config: ModelConfig) -> ModelConfig:
    """The hybrid scorer's model configuration when other LLM scorers run in the same study:
    a reply cache of its own (``<cache dir>/hybrid``), so that its calls are counted as if it
    ran alone, not served by the replies the judges got to the same questions (a shared cache
    URL stays shared, and the reports say so)."""
    if not config.cache or config.cache_url is not None:
        return config
    return config.model_copy(update={"cache_dir": Path(config.cache_dir) / HYBRID})


def _hybrid_observation(
    output_id: str, scorer: str, result: CascadeResult, threshold: float
) -> Observation:
    """One cascade result as an observation, with the stage that decided it."""
    usage: Usage = result.usage
    cached = usage.calls == 0 and usage.cache_hits > 0
    claim_stages = tuple(c.stage for c in result.claims)
    if result.status == "scored" and result.score is not None:
        detail = result.detail
        if result.stage == "checks" and not result.graded:
            detail = result.detail or "decided by the grounding checks (no model call)"
        elif result.stage == "checks":
            detail = "flagged by the grounding checks, graded claim by claim"
        return Observation(
            output_id=output_id,
            scorer=scorer,
            repetition=result.repetition,
            status="scored",
            score=float(result.score),
            flagged=result.stage == "checks" or float(result.score) < threshold,
            issues=result.issues,
            detail=detail,
            latency_ms=usage.latency_s * 1000.0,
            usage=usage,
            cached=cached,
            stage=result.stage,
            claim_stages=claim_stages,
        )
    return Observation(
        output_id=output_id,
        scorer=scorer,
        repetition=result.repetition,
        status="unscored",
        unscored_reason=result.unscored_reason,
        detail=result.detail,
        latency_ms=usage.latency_s * 1000.0,
        usage=usage,
        cached=cached,
        stage=result.stage,
        claim_stages=claim_stages,
    )


async def _hybrid(
    plan: StudyPlan,
    repetitions: int,
    config: ModelConfig,
    mode: Literal["separate", "shared"],
    threshold: float,
    hook: ProgressHook | None,
    judge: str | None,
    max_claims: int | None,
    budget: CostBudget | None,
    judges: Sequence[str],
    every_output: bool = False,
    grade_failed: bool = False,
) -> tuple[list[Observation], float, Usage]:
    """The hybrid scorer on the judged outputs (the same sample as the judges), or on every
    output."""
    from hybridjudge.judges import aevaluate_many
    from hybridjudge.model import ModelClient

    records = [
        plan.check_record(out) for out in plan.outputs if every_output or out.id in plan.judged
    ]
    name = _qualified(judge, HYBRID)
    async with ModelClient(config, budget=budget) as client:
        batch = await aevaluate_many(
            records,
            judges=judges,
            mode=mode,
            repetitions=repetitions,
            client=client,
            max_claims=max_claims,
            threshold=threshold,
            grade_failed=grade_failed,
            progress=None if hook is None else (lambda done, total: hook(name, done, total)),
        )
        run_usage = client.usage
    observations = [
        _hybrid_observation(o.id, name, o.result, threshold)
        for o in sorted(batch.outcomes, key=lambda o: (o.repetition, o.index))
    ]
    walls = batch.wall_s
    return observations, (sum(walls) / len(walls)) if walls else 0.0, run_usage


def _peer_observation(
    output_id: str, repetition: int, result: PeerResult, threshold: float, judge: str | None = None
) -> Observation:
    # A peer's unscored reasons (no_claims, nan, parse_failure, model_error) pass through as
    # they are: never a score.
    usage: Usage = result.usage
    cached = usage.calls == 0 and usage.cache_hits > 0
    if result.status == "scored" and result.score is not None:
        return Observation(
            output_id=output_id,
            scorer=_qualified(judge, result.scorer),
            repetition=repetition,
            status="scored",
            score=float(result.score),
            flagged=float(result.score) < threshold,
            latency_ms=usage.latency_s * 1000.0,
            usage=usage,
            cached=cached,
        )
    return Observation(
        output_id=output_id,
        scorer=_qualified(judge, result.scorer),
        repetition=repetition,
        status="unscored",
        unscored_reason=result.unscored_reason,
        detail=result.error,
        latency_ms=usage.latency_s * 1000.0,
        usage=usage,
        cached=cached,
    )


async def _peers(
    plan: StudyPlan,
    scorers: Sequence[str],
    repetitions: int,
    config: ModelConfig,
    thresholds: dict[str, float],
    hook: ProgressHook | None,
    judge: str | None = None,
    budget: CostBudget | None = None,
) -> tuple[list[Observation], float, Usage]:
    from hybridjudge.peers import PEERS, PeerRecord, ascore_peers_many

    peers = [p for p in PEERS if p in scorers]
    records = []
    for out in plan.outputs:
        if out.id in plan.judged:
            case = plan.case_of(out)
            records.append(
                PeerRecord(
                    id=out.id,
                    answer=out.text,
                    context=plan.context_of(out),
                    question=case.question,
                )
            )
    # One proxy per run on the judges' ModelConfig: same cache directory and settings, so the
    # peers' calls are cached, retried, counted and timed like the judges'.
    batch = await ascore_peers_many(
        records,
        config=config,
        peers=peers,
        repetitions=repetitions,
        progress=None
        if hook is None
        else (lambda done, total: hook(_phase_key("peers", judge), done, total)),
        budget=budget,
    )
    observations = [
        _peer_observation(
            o.id, o.repetition, o.results[peer], thresholds[_qualified(judge, peer)], judge
        )
        for o in batch.outcomes
        for peer in peers
    ]
    return observations, batch.wall_s / repetitions, batch.usage


def _check_settings(
    scorers: Sequence[str],
    repetitions: int,
    thresholds: Mapping[str, float] | None,
    judges: Sequence[str] = (),
) -> dict[str, float]:
    """Validate the scorers and thresholds; the threshold of every LLM scorer by its name
    (``support``, or ``NAME:support`` for each named judge in ``judges``).

    A threshold may name a scorer (every judge's) or one judge's scorer (``NAME:support``).
    """
    unknown = [s for s in scorers if s not in KNOWN_SCORERS]
    if unknown:
        raise ConfigError(
            f"unknown scorer(s) {', '.join(unknown)}; choose from {', '.join(KNOWN_SCORERS)}"
        )
    if not scorers:
        raise ConfigError(f"no scorer selected; choose one or more of {', '.join(KNOWN_SCORERS)}")
    if len(set(scorers)) != len(scorers):
        raise ConfigError(f"a scorer is listed twice in {list(scorers)}; list each once")
    check_repetitions(repetitions)
    peers = [s for s in scorers if s in PEER_SCORERS]
    if peers:
        # before any work: a missing package names the extra that installs it
        from hybridjudge.peers import require_peer

        for peer in peers:
            require_peer(peer)  # type: ignore[arg-type]  # checked against PEER_SCORERS
    llm = (*JUDGE_SCORERS, *peers, *([HYBRID] if HYBRID in scorers else []))
    limits = dict.fromkeys(llm, 1.0)
    given = dict(thresholds or {})
    for name, value in given.items():
        judge, base = split_scorer(name)
        if (judge is not None and judge not in judges) or base not in llm:
            named = f"; named judges: {', '.join(judges)}" if judges else ""
            raise ConfigError(
                f"threshold given for {name!r}, which is not a judge or a selected peer; "
                f"judges: {', '.join(JUDGE_SCORERS)}{named}"
            )
        if not isinstance(value, int | float) or not 0.0 <= value <= 1.0:
            raise ConfigError(f"threshold for {name} must be in [0, 1], got {value}")
    for name, value in given.items():
        if split_scorer(name)[0] is None:
            limits[name] = value
    for judge in judges:
        for base in llm:
            qualified = _qualified(judge, base)
            limits[qualified] = given.get(qualified, limits[base])
    return limits


def _budget(max_cost_usd: float | CostBudget | None) -> CostBudget | None:
    """The run's one budget, shared by the clients of every judge and peer (``None``: no
    limit)."""
    if max_cost_usd is None:
        return None
    from hybridjudge.model import CostBudget

    return max_cost_usd if isinstance(max_cost_usd, CostBudget) else CostBudget(max_cost_usd)


async def arun_study(
    plan: StudyPlan,
    *,
    scorers: Sequence[str] = DEFAULT_SCORERS,
    repetitions: int = 1,
    thresholds: Mapping[str, float] | None = None,
    judge_mode: Literal["separate", "shared"] = "separate",
    model_config: ModelConfig | None = None,
    judges: Judges = None,
    progress: ProgressHook | None = None,
    max_claims: int | None = DEFAULT_MAX_CLAIMS,
    max_cost_usd: float | CostBudget | None = None,
    hybrid_judges: Sequence[str] | str | None = None,
    hybrid_all_outputs: bool = False,
    hybrid_grade_failed: bool = False,
) -> StudyResult:
    """Run the study from async code; see :func:`run_study`."""
    from hybridjudge._version import __version__

    scorers = list(scorers)
    judge_scorers = [s for s in scorers if s in JUDGE_SCORERS]
    peer_scorers = [s for s in scorers if s in PEER_SCORERS]
    hybrid = HYBRID in scorers
    cascade_judges_ = _hybrid_judges(hybrid_judges) if hybrid else ()
    # every judge spec is checked before any work, as the scorers and thresholds are
    named = resolve_judges(judges, model_config, source="judges")
    limits = _check_settings(scorers, repetitions, thresholds, tuple(named))
    max_claims = check_max_claims(max_claims)
    budget = _budget(max_cost_usd)
    llm = bool(judge_scorers or peer_scorers or hybrid)
    if llm and model_config is None and not named:
        from hybridjudge.model import ModelConfig

        model_config = ModelConfig.local()
    # one unnamed judge (the model flags) or several named ones, each a column group
    runs: list[tuple[str | None, ModelConfig]] = (
        list(named.items()) if named else [(None, model_config)] if model_config else []
    )

    observations: list[Observation] = []
    wall: dict[str, float] = {}
    judge_usage: Usage | None = None
    by_judge: dict[str, Usage] = {}
    sampling = plan.sampling(hybrid and hybrid_all_outputs)
    if DETERMINISTIC in scorers:
        obs, wall[DETERMINISTIC] = _deterministic(plan, repetitions, progress)
        observations += obs
    for judge, config in runs if llm else []:
        usage: Usage | None = None
        if judge_scorers:
            obs, wall[_phase_key("judges", judge)], usage = await _judges(
                plan,
                judge_scorers,
                repetitions,
                config,
                judge_mode,
                limits,
                progress,
                judge,
                max_claims,
                budget,
            )
            observations += obs
        if peer_scorers:
            obs, wall[_phase_key("peers", judge)], peer_usage = await _peers(
                plan, peer_scorers, repetitions, config, limits, progress, judge, budget
            )
            observations += obs
            usage = peer_usage if usage is None else usage + peer_usage
        if hybrid:
            obs, wall[_qualified(judge, HYBRID)], hybrid_usage = await _hybrid(
                plan,
                repetitions,
                _own_cache(config) if judge_scorers or peer_scorers else config,
                judge_mode,
                limits[_qualified(judge, HYBRID)],
                progress,
                judge,
                max_claims,
                budget,
                cascade_judges_,
                hybrid_all_outputs,
                hybrid_grade_failed,
            )
            observations += obs
            usage = hybrid_usage if usage is None else usage + hybrid_usage
        if usage is not None:
            judge_usage = usage if judge_usage is None else judge_usage + usage
            if judge is not None:
                by_judge[judge] = usage

    qualified = list(scorers)
    if named:  # the deterministic scorer first, then each judge's scorers together
        qualified = [s for s in scorers if s == DETERMINISTIC] + [
            _qualified(judge, s) for judge in named for s in scorers if s != DETERMINISTIC
        ]
    records = plan.records()
    parts = {
        _qualified(judge, HYBRID): (
            *([DETERMINISTIC] if DETERMINISTIC in scorers else []),
            *(_qualified(judge, j) for j in cascade_judges_),
        )
        for judge in (named or [None])
        if hybrid
    }
    analysis = analyse(
        records,
        observations,
        scorers=qualified,
        repetitions=repetitions,
        wall_s=wall,
        cascade_parts={c: p for c, p in parts.items() if DETERMINISTIC in p},
    )
    blames = blame_study(plan, observations, repetitions=repetitions)
    analysis = analysis.model_copy(update={"blame": tuple(blame_rows(blames))})
    model_info: dict[str, str | float | int | None] = {}
    if llm and model_config is not None and not named:
        model_info = model_config.describe()
    return StudyResult(
        hybridjudge_version=__version__,
        created_at=_dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        config=StudyConfig(
            scorers=tuple(qualified),
            repetitions=repetitions,
            thresholds={s: limits[s] for s in qualified if s != DETERMINISTIC},
            judge_mode=judge_mode,
            model=model_info,
            judges=tuple(JudgeRecord(name=n, model=c.describe()) for n, c in named.items()),
            hybrid_judges=tuple(cascade_judges_),
            hybrid_all_outputs=hybrid and hybrid_all_outputs,
            hybrid_grade_failed=hybrid and hybrid_grade_failed,
        ),
        corpora=plan.corpus_records,
        mutation_sets=plan.mutation_records,
        sampling=sampling,
        outputs=tuple(records),
        observations=tuple(observations),
        wall_s=wall,
        judge_usage=judge_usage,
        judge_usage_by_judge=by_judge,
        analysis=analysis,
        blame=tuple(blames),
    )


def _case_retrieval(case: Case, context: Sequence[str], own: bool) -> RetrievalScores | None:
    """The case's retrieval metrics from its metadata: ``reference_contexts`` (RAGAS: the
    relevant passages' texts), or ``qrels`` (relevant passage ids, a list or ``{id: grade}``)
    with ``retrieved_ids`` (the context's passage ids, in order; not for a context mutant,
    whose passages are no longer those ids)."""
    meta = case.metadata
    refs = meta.get("reference_contexts")
    if isinstance(refs, list) and all(isinstance(r, str) for r in refs):
        return retrieval_scores(context, reference_contexts=refs)
    qrels, ids = meta.get("qrels"), meta.get("retrieved_ids")
    if not own and isinstance(ids, list) and isinstance(qrels, dict | list):
        if isinstance(qrels, dict):
            grades = {str(k): int(v) for k, v in qrels.items() if isinstance(v, int | float)}
            return retrieval_scores([str(i) for i in ids], qrels=grades)
        return retrieval_scores([str(i) for i in ids], qrels=[str(q) for q in qrels])
    return None


def blame_study(
    plan: StudyPlan, observations: Sequence[Observation], *, repetitions: int = 1
) -> list[Blame]:
    """Blame every failed output of a study (:func:`~hybridjudge.study.blame_answer`).

    An output *failed* when the deterministic scorer flagged it, or a judge or peer flagged it
    in every repetition. Its findings are the deterministic scorer's issues (first repetition),
    its judge issues the claims the flagging judges did not accept; its reference answer is
    its base's text when it is a mutant of a base not labelled wrong; its retrieval metrics
    come from the case's ``reference_contexts`` or ``qrels`` + ``retrieved_ids`` metadata.
    """
    by_output: dict[str, dict[str, dict[int, Observation]]] = {}
    for obs in observations:
        by_output.setdefault(obs.output_id, {}).setdefault(obs.scorer, {})[obs.repetition] = obs
    outputs = {o.id: o for o in plan.outputs}
    blames: list[Blame] = []
    for out in plan.outputs:
        per_scorer = by_output.get(out.id, {})
        findings: list[str] = []
        judge_issues: list[str] = []
        failed = judge_failed = False
        for scorer, reps in per_scorer.items():
            if len(reps) < repetitions or not all(reps[r].flagged for r in range(repetitions)):
                continue
            failed = True
            first = reps[0]
            if scorer == DETERMINISTIC:
                findings = list(first.issues)
            else:
                judge_failed = True
                judge_issues += [f"{scorer}: {claim}" for claim in first.issues]
        if not failed:
            continue
        case = plan.case_of(out)
        base = outputs.get(out.base_id) if out.base_id is not None else None
        reference = base.text if base is not None and base.clean is not False else None
        context = plan.context_of(out)
        blame = blame_answer(
            out.text,
            context,
            output_id=out.id,
            anchors=case.anchors,
            reference=reference,
            question=case.question,
            answerable=case.answerable,
            allowed_numbers=case.allowed_numbers,
            findings=findings,
            judge_issues=judge_issues,
            judge_failed=judge_failed,
            retrieval=_case_retrieval(case, context, out.context is not None),
            source_context=case.context,
        )
        blames.append(
            blame.model_copy(
                update={
                    "corpus": plan.corpus_of[out.id],
                    "system": (base or out).producer.system,
                    "defect": out.defect
                    if out.defect is not None
                    else ("natural" if out.base_id else None),
                }
            )
        )
    return blames


def run_study(
    plan: StudyPlan,
    *,
    scorers: Sequence[str] = DEFAULT_SCORERS,
    repetitions: int = 1,
    thresholds: Mapping[str, float] | None = None,
    judge_mode: Literal["separate", "shared"] = "separate",
    model_config: ModelConfig | None = None,
    judges: Judges = None,
    progress: ProgressHook | None = None,
    max_claims: int | None = DEFAULT_MAX_CLAIMS,
    max_cost_usd: float | CostBudget | None = None,
    hybrid_judges: Sequence[str] | str | None = None,
    hybrid_all_outputs: bool = False,
    hybrid_grade_failed: bool = False,
) -> StudyResult:
    """Run every scorer on every output of ``plan`` ``repetitions`` times and analyse it.

    Synchronous; also works inside a running event loop (a notebook), where the study runs on a
    worker thread (``progress`` then runs there too). From async code, await :func:`arun_study`.

    Args:
        plan: what to score (:func:`load_plan`).
        scorers: ``deterministic``, ``support``, ``contradiction`` (default these three);
            ``hybrid`` adds the cascade (:func:`hybridjudge.judges.evaluate_many`: the checks
            first, then claims stated as written, then ``hybrid_judges`` on the rest) on the
            judges' sample, with a reply cache of its own when other LLM scorers run beside it
            (its cost is what it costs alone); ``ragas`` and ``deepeval`` add the peer scorers (the ``[peers]`` extra), run
            through :mod:`hybridjudge.peers` on the same ``model_config`` as the judges.
        repetitions: runs of every scorer on every output (1 or more).
        thresholds: judge or peer -> score below which it flags an output (default 1.0
            each); with ``judges``, ``NAME:support`` sets one judge's.
        judge_mode: ``separate`` (each judge its own verdict call) or ``shared``.
        model_config: the model the judges use (default the embedded model); with ``judges``,
            the shared settings (sampling, retries, cache) the judges' specs leave out.
        judges: several judge models in one study, e.g. ``["small=local",
            "mini=model=gpt-4o-mini,price_in=0.15,price_out=0.6"]`` or ``{"mini":
            ModelConfig(...)}`` (syntax: :mod:`hybridjudge.study._judges`). The LLM scorers
            (judges and peers) run once per judge, named ``NAME:SCORER`` (``mini:support``);
            the deterministic scorer runs once. ``None`` (default): one judge,
            ``model_config``, with plain scorer names as before.
        progress: ``progress(phase, done, total)``.
        max_claims: an answer with more claims is unscored ``too_many_claims`` for the
            judges, without a verdict call (default
            :data:`~hybridjudge.judges.DEFAULT_MAX_CLAIMS`; ``None``: no cap).
        max_cost_usd: a spending limit in US dollars for every judge of the run together
            (or a :class:`~hybridjudge.model.CostBudget`, to read ``spent_usd`` afterwards):
            the run stops before the request whose worst-case cost could cross it, and the
            outputs left are unscored ``budget_exhausted`` (the peer scorers' too).
        hybrid_judges: the judges the hybrid scorer asks (``support``, ``contradiction`` or
            both; default :data:`~hybridjudge.judges.DEFAULT_CASCADE_JUDGES`).
        hybrid_all_outputs: run the hybrid scorer on every output, not only on the judges'
            sample (its calls are few: the checks decide most outputs); its comparison with its
            parts stays on the outputs they all scored.
        hybrid_grade_failed: the hybrid scorer grades the outputs the checks fail claim by
            claim (:func:`hybridjudge.judges.cascade`'s ``grade_failed``), so that a defect
            added to an answer already wrong lowers its score.

    The comparison with the OpenGATE paper is not part of the run: call
    :func:`compare_with_paper` on the result.

    Raises:
        ConfigError: an unknown or repeated scorer, bad repetitions or thresholds, a peer
            scorer whose package is not installed (``code="missing_peer"``, naming the
            ``[peers]`` extra), an invalid judge spec (``code="invalid_judge_spec"``), before
            any work starts; a ``max_cost_usd`` for a judge model without a known price
            (code ``budget_needs_price``).
    """
    return run_sync(
        lambda: arun_study(
            plan,
            scorers=scorers,
            repetitions=repetitions,
            thresholds=thresholds,
            judge_mode=judge_mode,
            model_config=model_config,
            judges=judges,
            progress=progress,
            max_claims=max_claims,
            max_cost_usd=max_cost_usd,
            hybrid_judges=hybrid_judges,
            hybrid_all_outputs=hybrid_all_outputs,
            hybrid_grade_failed=hybrid_grade_failed,
        )
    )


def compare_with_paper(study: StudyResult, plan: StudyPlan) -> StudyResult:
    """``study`` with the OpenGATE paper's own scores analysed by the same rules, when one of
    the plan's corpora ships them (``paper-results/`` in its folder); else ``study`` unchanged.

    Fills :attr:`StudyResult.reference`, ``reference_note`` and ``reference_differences`` (the
    paper mutants on which our deterministic scorer reacts differently from the paper's), which
    the reports show in their reference section.
    """
    from hybridjudge.study._paper import paper_reference

    records = list(study.outputs)
    for corpus, record in zip(plan.corpora, plan.corpus_records, strict=True):
        mine = [r for r in records if r.corpus == corpus.name]
        found = paper_reference(Path(record.path), corpus, mine, study.observations)
        if found is not None:
            reference, note, differences = found
            return study.model_copy(
                update={
                    "reference": reference,
                    "reference_note": note,
                    "reference_differences": differences,
                }
            )
    return study
