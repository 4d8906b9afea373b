"""The study with both judges against a real OpenAI-compatible server on 127.0.0.1 (scripted).

The scripted model answers like a perfect judge: the mutant's inverted claim is unsupported and
contradicted, the base's claim is supported. Expected counts are worked out by hand.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hybridjudge.corpus import Case, Output, Producer, write_jsonl_models
from hybridjudge.model import ModelConfig
from hybridjudge.study import load_plan, run_study
from tests.study._scripted import judge_step, prompt_name
from tests.support.openai_server import FakeOpenAIServer, RecordedRequest, Step

BASE = "Customers may request a refund within 30 days."
INVERTED = "Customers may not request a refund within 30 days."
BASE2 = "Refunds are processed within 5 business days."
INVERTED2 = "Refunds are never processed within 5 business days."
CONTEXT = (
    "Customers may request a full refund within 30 days of purchase. "
    "Refunds are processed within 5 business days."
)


def _corpus(root: Path) -> Path:
    producer = Producer(system="toy", kind="synthetic")
    cases = [
        Case(
            id=f"c{i}",
            question="Refunds?",
            context=CONTEXT,
            anchors=(),
            label_source="hand-written",
        )
        for i in (1, 2)
    ]
    outputs = [
        Output(id="c1::base", case_id="c1", text=BASE, producer=producer, clean=True),
        Output(
            id="c1::inv",
            case_id="c1",
            text=INVERTED,
            base_id="c1::base",
            defect="inversion",
            origin="paper",
            producer=producer,
        ),
        Output(id="c2::base", case_id="c2", text=BASE2, producer=producer, clean=True),
        Output(
            id="c2::inv",
            case_id="c2",
            text=INVERTED2,
            base_id="c2::base",
            defect="inversion",
            origin="paper",
            producer=producer,
        ),
    ]
    write_jsonl_models(root / "cases.jsonl", cases)
    write_jsonl_models(root / "outputs.jsonl", outputs)
    return root


def _perfect_judge(request: RecordedRequest) -> Step:
    return judge_step(request, (BASE, INVERTED, BASE2, INVERTED2), bad={INVERTED, INVERTED2})


@pytest.fixture
def config(openai_server: FakeOpenAIServer, tmp_path: Path) -> ModelConfig:
    openai_server.respond_with(_perfect_judge)
    return ModelConfig(
        backend="openai",
        base_url=openai_server.base_url,
        model="fake-model",
        cache_dir=tmp_path / "cache",
        max_concurrency=1,
        price_input_per_mtok=1.0,
        price_output_per_mtok=2.0,
        timeout=5.0,
    )


SCORERS = ["deterministic", "support", "contradiction"]


def test_judged_study_counts_and_costs(
    openai_server: FakeOpenAIServer,
    config: ModelConfig,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    planted = "sk-PLANTED-study-5f4e3d2c1b0a"  # a key the run really uses (checked below)
    monkeypatch.setenv(config.api_key_env, planted)
    plan = load_plan(corpus_paths=[_corpus(tmp_path / "toy")])
    result = run_study(plan, scorers=SCORERS, repetitions=2, model_config=config)
    rows = {r.scorer: r for r in result.analysis.detection}
    # by hand: both inversions carry every anchor and number, so the checks cannot see them;
    # a perfect judge scores each mutant 0 < base 1 in both repetitions
    assert (rows["deterministic"].detected, rows["deterministic"].n) == (0, 2)
    assert (rows["support"].detected, rows["support"].n) == (2, 2)
    assert (rows["contradiction"].detected, rows["contradiction"].n) == (2, 2)
    # each answer is one sentence, so one claim (no model call to extract it): 4 outputs x 2
    # repetitions x 2 verdict calls (support, contradiction)
    assert openai_server.request_count == 16
    assert result.judge_usage is not None
    assert result.judge_usage.calls == 16
    assert result.judge_usage.prompt_tokens > 0
    cost = {c.scorer: c for c in result.analysis.cost}
    # each judge's row carries its own verdict calls: 4 outputs x 2 repetitions
    assert cost["support"].calls == 8
    assert cost["support"].includes_shared_claims
    assert cost["support"].usd_per_1000 is not None
    assert cost["support"].usd_per_1000 > 0
    assert cost["deterministic"].calls == 0
    # the key was in play (sent to the endpoint) and is nowhere in the results
    assert openai_server.requests[0].headers["authorization"] == f"Bearer {planted}"
    assert planted not in result.model_dump_json()
    assert "sk-" not in json.dumps(result.config.model)


def test_each_judge_observation_keeps_every_verdict_with_its_quote_and_the_viewer_places_it(
    config: ModelConfig, tmp_path: Path
) -> None:
    from hybridjudge.study import load_study, save_study, view_data

    plan = load_plan(corpus_paths=[_corpus(tmp_path / "toy")])
    result = run_study(plan, scorers=SCORERS, repetitions=1, model_config=config)
    save_study(result, tmp_path / "out" / "study.json")
    # study format 6: the verdicts survive the file
    study = load_study(tmp_path / "out" / "study.json")
    obs = {(o.output_id, o.scorer): o for o in study.observations}
    # the base's one claim: supported, with the quote the scripted judge gave (the context's
    # sentence sharing most words with it), which is in the context
    (verdict,) = obs["c1::base", "support"].verdicts
    assert verdict.claim == BASE.rstrip(".")  # the one-sentence answer is its claim
    assert (verdict.label, verdict.faithful) == ("supported", True)
    assert verdict.quote == "Customers may request a full refund within 30 days of purchase."
    assert verdict.quote_found is True
    # the inversion's: not supported, no quote; the contradiction judge gives none either
    (verdict,) = obs["c1::inv", "support"].verdicts
    assert (verdict.claim, verdict.label, verdict.faithful) == (
        INVERTED.rstrip("."),
        "not_supported",
        False,
    )
    (verdict,) = obs["c1::base", "contradiction"].verdicts
    assert (verdict.label, verdict.faithful, verdict.quote) == ("not_contradicted", True, None)
    # the checks have no claims: no key in the file
    saved = json.loads((tmp_path / "out" / "study.json").read_text(encoding="utf-8"))
    assert not any("verdicts" in o for o in saved["observations"] if o["scorer"] == "deterministic")
    # the viewer gets the accepted claim too, its quote placed at the start of the context
    view = {o.id: o for o in view_data(study).outputs}
    claims = {c.scorer: c for c in view["c1::base"].claims}
    assert claims["support"].faithful
    assert (claims["support"].start, claims["support"].end) == (0, len(BASE) - 1)
    assert (claims["support"].passage, claims["support"].quote_start) == (0, 0)
    assert claims["contradiction"].passage is None  # no quote


def test_rerun_is_served_from_the_cache(
    openai_server: FakeOpenAIServer, config: ModelConfig, tmp_path: Path
) -> None:
    plan = load_plan(corpus_paths=[_corpus(tmp_path / "toy")])
    first = run_study(plan, scorers=SCORERS, repetitions=1, model_config=config)
    sent = openai_server.request_count
    second = run_study(plan, scorers=SCORERS, repetitions=1, model_config=config)
    assert openai_server.request_count == sent  # zero new requests
    assert second.analysis.detection == first.analysis.detection
    cost = {c.scorer: c for c in second.analysis.cost}
    assert cost["support"].calls == 0
    assert cost["support"].cache_hits == 4  # 4 outputs x 1 verdict
    saved = cost["support"].saved_usd
    assert saved is not None
    assert saved > 0


class _InterruptedError(Exception):
    pass


def test_interrupted_study_resumes_without_repeating_finished_calls(
    openai_server: FakeOpenAIServer, config: ModelConfig, tmp_path: Path
) -> None:
    plan = load_plan(corpus_paths=[_corpus(tmp_path / "toy")])

    def stop_after_first(phase: str, done: int, total: int) -> None:
        if phase == "judges" and done == 1:
            raise _InterruptedError

    with pytest.raises(_InterruptedError):
        run_study(
            plan, scorers=SCORERS, repetitions=1, model_config=config, progress=stop_after_first
        )
    first = openai_server.request_count
    # 4 outputs x 2 verdict calls = 8 in all; it stopped after the first output was judged
    assert 2 <= first < 8
    result = run_study(plan, scorers=SCORERS, repetitions=1, model_config=config)
    resumed = openai_server.request_count - first
    # every call answered before the interruption came from the cache; at most the one request
    # in flight when it stopped (concurrency 1) is asked again
    assert 8 - first <= resumed <= 8 - first + 1
    assert resumed <= 7
    rows = {r.scorer: r for r in result.analysis.detection}
    assert rows["support"].detected == 2


def test_unscored_judgements_are_counted_by_reason_never_scored(
    openai_server: FakeOpenAIServer, config: ModelConfig, tmp_path: Path
) -> None:
    def broken_verdicts(request: RecordedRequest) -> Step:
        if prompt_name(request) == "support":
            from tests.support.openai_server import reply

            return reply('{"verdicts": [')  # truncated JSON, and its repair too
        return _perfect_judge(request)

    openai_server.respond_with(broken_verdicts)
    plan = load_plan(corpus_paths=[_corpus(tmp_path / "toy")])
    result = run_study(plan, scorers=SCORERS, repetitions=1, model_config=config)
    unscored = {u.scorer: u for u in result.analysis.unscored}
    assert unscored["support"].by_reason == {"parse_failure": 4}
    assert unscored["contradiction"].by_reason == {}
    rows = {r.scorer: r for r in result.analysis.detection}
    assert (rows["support"].detected, rows["support"].unscored) == (0, 2)
    support_obs = [o for o in result.observations if o.scorer == "support"]
    assert all(o.score is None and o.flagged is None for o in support_obs)
    assert all(o.detail and "raw reply" in o.detail for o in support_obs)
