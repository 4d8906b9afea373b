"""No behaviour change from the study's loops: its observations are what the scorers give alone.

The study judges every output of every repetition through one batch loop (``ajudge_many``) and
checks them through another (``check_many``). On the hand-written corpus ``golden/toy``, with the
scripted judge ``golden/scripted_judge.py`` on the real OpenAI-compatible test server (separate
mode with two repetitions, shared mode with one), every judge observation's status, score, flag,
rejected claims and unscored reason must equal what :func:`hybridjudge.judges.judge` returns
when called on that one output and repetition by itself (with its own client and cache); and
every deterministic observation must equal :func:`check_grounding` called on the output alone.

(This replaced a comparison with observations stored from the pre-refactor code, which the
judges' deliberate changes of prompts and verdict schema made obsolete.)

The corpus covers the judges' abstention handling: two correct abstentions (English, Chinese)
recognised without a model call, a hedged abstention that still asserts a price, and an answer
whose abstaining sentence is dropped as a claim while its other claim is judged; and the scripted
support verdict about "business days" is truncated JSON (a ``parse_failure``).
"""

from __future__ import annotations

import asyncio
import functools
from pathlib import Path
from typing import Any, Literal

import pytest

from hybridjudge.corpus import Corpus, load_corpus
from hybridjudge.grounding import check_grounding
from hybridjudge.judges import JudgeResult, judge
from hybridjudge.model import ModelClient, ModelConfig
from hybridjudge.study import StudyResult, load_plan, run_study
from tests.study.golden.make_golden import HERE
from tests.study.golden.scripted_judge import respond
from tests.support.openai_server import FakeOpenAIServer

RUNS: tuple[tuple[Literal["separate", "shared"], int], ...] = (("separate", 2), ("shared", 1))
SCORERS = ("support", "contradiction")


def _config(server: FakeOpenAIServer, cache: Path) -> ModelConfig:
    return ModelConfig(
        backend="openai",
        base_url=server.base_url,
        model="fake-model",
        cache_dir=cache,
        price_input_per_mtok=1.0,
        price_output_per_mtok=2.0,
        timeout=10.0,
    )


@pytest.fixture(scope="module")
def studies() -> dict[str, tuple[StudyResult, dict[tuple[str, int], dict[str, JudgeResult]]]]:
    """Per mode: the study, and each output's results from ``judge`` called alone."""
    import tempfile

    plan = load_plan(corpus_paths=[CORPUS_DIR])
    found: dict[str, Any] = {}
    with FakeOpenAIServer() as server, tempfile.TemporaryDirectory() as tmp:
        server.respond_with(respond)
        for mode, repetitions in RUNS:
            study = run_study(
                plan,
                scorers=["deterministic", *SCORERS],
                repetitions=repetitions,
                judge_mode=mode,
                model_config=_config(server, Path(tmp) / f"study-{mode}"),
            )

            async def alone(
                mode: Literal["separate", "shared"] = mode, repetitions: int = repetitions
            ) -> dict[tuple[str, int], dict[str, JudgeResult]]:
                results = {}
                async with ModelClient(_config(server, Path(tmp) / f"alone-{mode}")) as client:
                    for out in plan.outputs:
                        case = plan.case_of(out)
                        for rep in range(repetitions):
                            results[(out.id, rep)] = await judge(
                                client,
                                answer=out.text,
                                context=case.context,
                                question=case.question,
                                scorers=SCORERS,
                                mode=mode,
                                repetition=rep,
                            )
                return results

            found[mode] = (study, asyncio.run(alone()))
    return found


@pytest.mark.parametrize("mode", [m for m, _ in RUNS])
def test_study_judge_observations_are_the_judges_results_alone(
    studies: dict[str, tuple[StudyResult, dict[tuple[str, int], dict[str, JudgeResult]]]],
    mode: str,
) -> None:
    study, alone = studies[mode]
    judged = [o for o in study.observations if o.scorer in SCORERS]
    assert len(judged) == len(alone) * len(SCORERS)
    for obs in judged:
        result = alone[(obs.output_id, obs.repetition)][obs.scorer]
        where = (mode, obs.output_id, obs.scorer, obs.repetition)
        assert obs.status == result.status, where
        assert obs.unscored_reason == result.unscored_reason, where
        assert obs.score == result.score, where
        if result.score is not None:
            assert obs.flagged == (result.score < 1.0), where
            assert obs.issues == tuple(v.claim for v in result.verdicts if not v.faithful), where
            assert obs.detail == (result.abstention_reason if result.abstained else None), where
    for obs in study.observations:
        if obs.scorer == "deterministic":
            assert _direct(CORPUS_DIR, obs.output_id) == (obs.flagged, list(obs.issues))


def test_golden_study_exercises_what_it_claims(
    studies: dict[str, tuple[StudyResult, dict[tuple[str, int], dict[str, JudgeResult]]]],
) -> None:
    study, _ = studies["separate"]
    rows = [o for o in study.observations if o.scorer in SCORERS]
    abstained = {o.output_id for o in rows if (o.detail or "").startswith("every sentence")}
    assert abstained == {"price::base", "price-zh::base"}
    reasons = {o.unscored_reason for o in rows if o.status == "unscored"}
    assert reasons == {"parse_failure"}
    hedged = [o for o in rows if o.output_id == "price::hedged"]
    assert hedged
    assert all(o.detail is None for o in hedged)  # judged, not an abstention
    assert all(o.status == "scored" for o in hedged)


CORPUS_DIR = HERE / "toy"


def _direct(corpus_dir: Path, output_id: str) -> tuple[bool, list[str]]:
    """The deterministic verdict of one output from :func:`check_grounding` on its own."""
    corpus = _corpus(corpus_dir)
    out = next(o for o in corpus.outputs if o.id == output_id)
    case = corpus.cases[out.case_id]
    report = check_grounding(
        out.text,
        list(case.context),
        question=case.question,
        anchors=case.anchors,
        answerable=case.answerable,
        allowed_numbers=case.allowed_numbers,
    )
    return not report.grounded, sorted({f"{f.kind}: {f.subject}" for f in report.findings})


@functools.cache
def _corpus(corpus_dir: Path) -> Corpus:
    return load_corpus(corpus_dir)


def test_deterministic_loop_matches_check_grounding_on_every_shipped_output() -> None:
    """Both shipped corpora with their mutants: the study's batch loop (one checker per case,
    reused across outputs and repetitions) reports what ``check_grounding`` reports alone."""
    root = HERE.parents[2]
    plan = load_plan(
        corpus_paths=[root / "corpus" / "opengate", root / "corpus" / "halueval"],
        mutation_paths=[
            root / "mutations" / "opengate.jsonl",
            root / "mutations" / "halueval.jsonl",
        ],
    )
    result = run_study(plan, scorers=["deterministic"], repetitions=2)
    assert len(result.observations) == 2 * len(plan.outputs)
    expected: dict[str, tuple[bool, list[str]]] = {}
    for out in plan.outputs:
        case = plan.case_of(out)
        report = check_grounding(
            out.text,
            list(case.context),
            question=case.question,
            anchors=case.anchors,
            answerable=case.answerable,
            allowed_numbers=case.allowed_numbers,
        )
        expected[out.id] = (
            not report.grounded,
            sorted({f"{f.kind}: {f.subject}" for f in report.findings}),
        )
    for obs in result.observations:
        assert (obs.flagged, list(obs.issues)) == expected[obs.output_id], obs.output_id
