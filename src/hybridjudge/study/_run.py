"""Running a mutation study: every scorer on every base and mutant, R repetitions.

Data flow: corpora (+ frozen mutation files) -> deterministic checks and LLM judges -> raw
:class:`Observation` records -> :func:`analyse` -> :class:`StudyResult`. Every judge call goes
through :class:`hybridjudge.model.ModelClient`, whose disk cache makes an interrupted study resume
where it stopped and a finished one rerun in seconds.
"""

from __future__ import annotations

import asyncio
import datetime as _dt
import hashlib
import random
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from hybridjudge._errors import ConfigError, InputError
from hybridjudge.corpus import Case, Output
from hybridjudge.model._types import Usage
from hybridjudge.study._analysis import analyse
from hybridjudge.study._models import (
    CorpusRecord,
    MutationSetRecord,
    Observation,
    OutputRecord,
    SamplingRecord,
    StudyConfig,
    StudyResult,
)

if TYPE_CHECKING:
    from hybridjudge.grounding import Finding
    from hybridjudge.judges import JudgeResult
    from hybridjudge.model import ModelConfig

__all__ = ["DETERMINISTIC", "JUDGE_SCORERS", "ProgressHook", "StudyPlan", "run_study"]

DETERMINISTIC = "deterministic"
JUDGE_SCORERS = ("support", "contradiction")
KNOWN_SCORERS = (DETERMINISTIC, *JUDGE_SCORERS)

ProgressHook = Callable[[str, int, int], None]
"""Called as ``hook(phase, done, total)`` while the study runs."""


class StudyPlan:
    """Everything a study will score, resolved and validated before any model call."""

    def __init__(
        self,
        *,
        corpus_paths: Sequence[str | Path],
        mutation_paths: Sequence[str | Path] = (),
        judge_sample: int | Mapping[str, int] | None = None,
        seed: int = 0,
    ) -> None:
        from hybridjudge.corpus import load_corpus
        from hybridjudge.mutations import load_mutations

        if not corpus_paths:
            raise ConfigError("no corpus given; pass --corpus DIR (e.g. corpus/opengate)")
        self.corpora = [load_corpus(p) for p in corpus_paths]
        names = [c.name for c in self.corpora]
        if len(set(names)) != len(names):
            raise ConfigError(f"the same corpus was given twice: {names}")
        by_name = {c.name: c for c in self.corpora}
        self.corpus_records = [
            CorpusRecord(name=c.name, path=str(p), files_sha256=dict(c.files_sha256))
            for c, p in zip(self.corpora, corpus_paths, strict=True)
        ]
        self.cases: dict[str, Case] = {}
        self.outputs: list[Output] = []
        self.corpus_of: dict[str, str] = {}
        for corpus in self.corpora:
            for case_id, case in corpus.cases.items():
                self.cases[f"{corpus.name}/{case_id}"] = case
            for out in corpus.outputs:
                self._add(out, corpus.name)
        self.mutation_records: list[MutationSetRecord] = []
        for mpath in mutation_paths:
            mset = load_mutations(mpath)
            source = by_name.get(mset.corpus)
            if source is None:
                raise ConfigError(
                    f"{mpath}: mutants were made from corpus {mset.corpus!r}, which is not in "
                    f"this study ({', '.join(names)}); add --corpus for it or drop the file"
                )
            mset.check_corpus(source)
            for out in mset.outputs:
                self._add(out, source.name)
            self.mutation_records.append(
                MutationSetRecord(
                    path=str(mpath),
                    sha256=hashlib.sha256(Path(mpath).read_bytes()).hexdigest(),
                    corpus=mset.corpus,
                    seed=mset.seed,
                    mutator_versions=dict(mset.mutator_versions),
                    outputs=len(mset.outputs),
                )
            )
        self.judged = self._sample(judge_sample, seed)
        self.judge_sample = judge_sample
        self.seed = seed

    def _add(self, out: Output, corpus: str) -> None:
        if out.id in self.corpus_of:
            raise InputError(
                f"output id {out.id!r} occurs twice (corpus {self.corpus_of[out.id]!r} and "
                f"{corpus!r}); output ids must be unique across the study"
            )
        self.corpus_of[out.id] = corpus
        self.outputs.append(out)

    def case_of(self, out: Output) -> Case:
        """The gold case of an output."""
        return self.cases[f"{self.corpus_of[out.id]}/{out.case_id}"]

    def _sample(self, sample: int | Mapping[str, int] | None, seed: int) -> set[str]:
        """Bases chosen per corpus (with all their mutants), covering defect classes first.

        The order is a seeded shuffle of the base ids; bases whose mutants add a defect class
        not yet covered are taken first, so a small sample still sees every class it can.
        """
        if sample is None:
            return {o.id for o in self.outputs}
        quotas = self._quotas(sample)
        chosen: set[str] = set()
        for corpus in self.corpora:
            quota = quotas.get(corpus.name)
            mine = [o for o in self.outputs if self.corpus_of[o.id] == corpus.name]
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
                    (len(classes[b] - covered), -i, b)
                    for i, b in enumerate(order)
                    if b not in picked
                ]
                best = max(gains)
                picked.append(best[2])
                covered |= classes[best[2]]
            chosen |= set(picked)
        chosen |= {o.id for o in self.outputs if o.base_id in chosen}
        return chosen

    def _quotas(self, sample: int | Mapping[str, int]) -> dict[str, int]:
        names = [c.name for c in self.corpora]
        if isinstance(sample, int):
            quotas = dict.fromkeys(names, sample)
        else:
            unknown = sorted(set(sample) - set(names))
            if unknown:
                raise ConfigError(
                    f"--judge-sample names corpus {', '.join(unknown)}, which is not in this "
                    f"study ({', '.join(names)})"
                )
            quotas = dict(sample)
        for name, value in quotas.items():
            if value < 1:
                raise ConfigError(f"--judge-sample for {name} must be at least 1 base (or 'all')")
        return quotas

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
                )
            )
        return out

    def sampling(self) -> SamplingRecord | None:
        """The sampling record, ``None`` when the judges score everything."""
        if self.judge_sample is None or len(self.judged) == len(self.outputs):
            return None
        quotas = self._quotas(self.judge_sample)
        return SamplingRecord(
            judged_outputs=len(self.judged),
            total_outputs=len(self.outputs),
            bases_per_corpus=quotas,
            seed=self.seed,
            note=(
                f"The LLM judges scored a deterministic sample of {len(self.judged)} of "
                f"{len(self.outputs)} outputs (bases per corpus: "
                + ", ".join(f"{k} {v}" for k, v in quotas.items())
                + f", each with all its mutants, covering defect classes first; seed {self.seed}) "
                "to keep the time budget; the deterministic checks scored all. Run with "
                "--judge-sample all for the full study."
            ),
        )


def _finding_key(finding: Finding) -> str:
    return f"{finding.kind}: {finding.subject}"


def _deterministic(
    plan: StudyPlan, repetitions: int, hook: ProgressHook | None
) -> tuple[list[Observation], float]:
    from hybridjudge.grounding import GroundingChecker

    # One checker per case: its context, anchors and question are parsed once and reused by
    # every output of the case in every repetition (the first output pays for the parse).
    checkers: dict[tuple[str, str], GroundingChecker] = {}
    observations: list[Observation] = []
    walls: list[float] = []
    total = len(plan.outputs) * repetitions
    done = 0
    for rep in range(repetitions):
        start = time.perf_counter()
        for out in plan.outputs:
            key = (plan.corpus_of[out.id], out.case_id)
            t0 = time.perf_counter()
            checker = checkers.get(key)
            if checker is None:
                case = plan.case_of(out)
                checker = checkers[key] = GroundingChecker(
                    list(case.context),
                    question=case.question,
                    anchors=case.anchors,
                    answerable=case.answerable,
                    allowed_numbers=case.allowed_numbers,
                )
            report = checker.check(out.text)
            elapsed_ms = (time.perf_counter() - t0) * 1000.0
            observations.append(
                Observation(
                    output_id=out.id,
                    scorer=DETERMINISTIC,
                    repetition=rep,
                    status="scored",
                    score=1.0 if report.grounded else 0.0,
                    flagged=not report.grounded,
                    issues=tuple(sorted({_finding_key(f) for f in report.findings})),
                    latency_ms=elapsed_ms,
                )
            )
            done += 1
            if hook is not None and done % 50 == 0:
                hook(DETERMINISTIC, done, total)
        walls.append(time.perf_counter() - start)
    if hook is not None:
        hook(DETERMINISTIC, total, total)
    return observations, sum(walls) / len(walls)


def _judge_observation(
    output_id: str, scorer: str, repetition: int, result: JudgeResult, threshold: float
) -> Observation:
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
) -> tuple[list[Observation], float, Usage]:
    from hybridjudge.judges import judge
    from hybridjudge.model import ModelClient

    judged = [o for o in plan.outputs if o.id in plan.judged]
    total = len(judged) * repetitions
    done = 0
    observations: list[Observation] = []
    walls: list[float] = []
    async with ModelClient(config) as client:
        for rep in range(repetitions):
            start = time.perf_counter()

            async def one(out: Output, rep: int = rep) -> tuple[Output, dict[str, JudgeResult]]:
                case = plan.case_of(out)
                results = await judge(
                    client,
                    answer=out.text,
                    context=list(case.context),
                    question=case.question,
                    scorers=scorers,
                    mode=mode,
                    repetition=rep,
                )
                return out, results

            for fut in asyncio.as_completed([one(o) for o in judged]):
                out, results = await fut
                for scorer in scorers:
                    observations.append(
                        _judge_observation(out.id, scorer, rep, results[scorer], thresholds[scorer])
                    )
                done += 1
                if hook is not None:
                    hook("judges", done, total)
            walls.append(time.perf_counter() - start)
        run_usage = client.usage
    return observations, (sum(walls) / len(walls)) if walls else 0.0, run_usage


def run_study(
    plan: StudyPlan,
    *,
    scorers: Sequence[str] = KNOWN_SCORERS,
    repetitions: int = 1,
    thresholds: dict[str, float] | None = None,
    judge_mode: Literal["separate", "shared"] = "separate",
    model_config: ModelConfig | None = None,
    progress: ProgressHook | None = None,
) -> StudyResult:
    """Run every scorer on every output of ``plan`` ``repetitions`` times and analyse it."""
    from hybridjudge import __version__

    unknown = [s for s in scorers if s not in KNOWN_SCORERS]
    if unknown:
        raise ConfigError(
            f"unknown scorer(s) {', '.join(unknown)}; choose from {', '.join(KNOWN_SCORERS)}"
        )
    if not scorers:
        raise ConfigError("no scorer selected; pass e.g. --scorers deterministic,support")
    if repetitions < 1:
        raise ConfigError("--repetitions must be at least 1")
    limits = dict.fromkeys(JUDGE_SCORERS, 1.0)
    limits.update(thresholds or {})
    for name, value in limits.items():
        if not 0.0 <= value <= 1.0:
            raise ConfigError(f"threshold for {name} must be in [0, 1], got {value}")
    judge_scorers = [s for s in scorers if s in JUDGE_SCORERS]
    if judge_scorers and model_config is None:
        from hybridjudge.model import ModelConfig

        model_config = ModelConfig.local()

    observations: list[Observation] = []
    wall: dict[str, float] = {}
    judge_usage: Usage | None = None
    if DETERMINISTIC in scorers:
        obs, wall[DETERMINISTIC] = _deterministic(plan, repetitions, progress)
        observations += obs
    if judge_scorers:
        assert model_config is not None  # for mypy: set above
        obs, wall["judges"], judge_usage = asyncio.run(
            _judges(plan, judge_scorers, repetitions, model_config, judge_mode, limits, progress)
        )
        observations += obs

    records = plan.records()
    analysis = analyse(
        records, observations, scorers=list(scorers), repetitions=repetitions, wall_s=wall
    )
    reference, note, differences = _reference(plan, records, observations)
    model_info: dict[str, str | float | int | None] = {}
    if judge_scorers and model_config is not None:
        model_info = model_config.describe()
    return StudyResult(
        hybridjudge_version=__version__,
        created_at=_dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        config=StudyConfig(
            scorers=tuple(scorers),
            repetitions=repetitions,
            thresholds={s: limits[s] for s in judge_scorers},
            judge_mode=judge_mode,
            model=model_info,
        ),
        corpora=tuple(plan.corpus_records),
        mutation_sets=tuple(plan.mutation_records),
        sampling=plan.sampling(),
        outputs=tuple(records),
        observations=tuple(observations),
        wall_s=wall,
        judge_usage=judge_usage,
        analysis=analysis,
        reference=reference,
        reference_note=note,
        reference_differences=differences,
    )


def _reference(
    plan: StudyPlan, records: list[OutputRecord], observations: list[Observation]
) -> tuple[Any, str | None, tuple[Any, ...]]:
    from hybridjudge.study._paper import paper_reference

    for corpus, record in zip(plan.corpora, plan.corpus_records, strict=True):
        mine = [r for r in records if r.corpus == corpus.name]
        found = paper_reference(Path(record.path), corpus, mine, observations)
        if found is not None:
            return found
    return None, None, ()
