"""The peers as study scorers (``--scorers ...,ragas,deepeval``) against the scripted server.

A tiny study: one clean base and two mutants of it (an inversion and a changed number). The
scripted model answers the peers' own prompts: RAGAS finds the mutants' statements unsupported;
DeepEval calls the inversion contradicted and the changed number "idk" (not contradicted, so
DeepEval scores it 1.0 like the base). Expected detections are worked out by hand from those
scripted verdicts (a mutant is detected when it scores below its base).

Needs the ``[peers]`` extra (``make test-peers``); skipped with that reason without it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hybridjudge.corpus import Case, Output, Producer, write_jsonl_models
from hybridjudge.model import ModelConfig
from hybridjudge.peers import peer_version
from hybridjudge.study import load_plan, run_study
from tests.support.openai_server import FakeOpenAIServer, RecordedRequest, Step, json_reply

_MISSING = "needs the [peers] extra: pip install -e '.[peers]' (see docs/peers.md)"
_INSTALLED = peer_version("ragas") is not None and peer_version("deepeval") is not None
needs_peers = pytest.mark.skipif(not _INSTALLED, reason=f"ragas and deepeval {_MISSING}")
# ragas 0.4.3 reads its user id file with a bare open() and never closes it
pytestmark = pytest.mark.filterwarnings(
    "ignore:Exception ignored in.*uuid.json:pytest.PytestUnraisableExceptionWarning"
)

CONTEXT = "Customers may request a full refund within 30 days of purchase."
BASE = "Customers may request a refund within 30 days."
INVERTED = "Customers may not request a refund within 30 days."
NUMBER = "Customers may request a refund within 45 days."


@pytest.fixture(autouse=True)
def _env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HYBRIDJUDGE_TEST_API_KEY", "test-key")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))  # ragas writes its user id there


def _corpus(root: Path) -> Path:
    producer = Producer(system="toy", kind="synthetic")
    case = Case(id="c1", question="Refunds?", context=CONTEXT, anchors=(), label_source="hand")
    outputs = [
        Output(id="c1::base", case_id="c1", text=BASE, producer=producer, clean=True),
        Output(
            id="c1::inv",
            case_id="c1",
            text=INVERTED,
            base_id="c1::base",
            defect="inversion",
            origin="mutator",
            producer=producer,
        ),
        Output(
            id="c1::num",
            case_id="c1",
            text=NUMBER,
            base_id="c1::base",
            defect="fabricated_number",
            origin="mutator",
            producer=producer,
        ),
    ]
    write_jsonl_models(root / "cases.jsonl", [case])
    write_jsonl_models(root / "outputs.jsonl", outputs)
    return root


def _answer(text: str) -> str:
    found = [a for a in (BASE, INVERTED, NUMBER) if a in text]
    assert len(found) == 1, text[:300]
    return found[0]


def _script(request: RecordedRequest) -> Step:
    """The peers' prompts (recognised by their own texts, as in test_adapters.py)."""
    text = json.dumps(request.messages)
    if "Structured output for statement generation" in text:
        return json_reply({"statements": [_answer(text)]})
    if "StatementFaithfulnessAnswer" in text:
        supported = 1 if _answer(text) == BASE else 0
        return json_reply(
            {"statements": [{"statement": _answer(text), "reason": "r", "verdict": supported}]}
        )
    if "Based on the given claims" in text:
        label = {BASE: "yes", INVERTED: "no", NUMBER: "idk"}[_answer(text)]
        return json_reply({"verdicts": [{"verdict": label, "reason": "r"}]})
    if "provided actual AI output" in text:
        return json_reply({"claims": [_answer(text)]})
    if "truths" in text:
        return json_reply({"truths": [CONTEXT]})
    raise AssertionError(f"unexpected prompt: {text[:300]}")


@pytest.fixture
def config(openai_server: FakeOpenAIServer, tmp_path: Path) -> ModelConfig:
    openai_server.respond_with(_script)
    return ModelConfig(
        backend="openai",
        base_url=openai_server.base_url,
        model="fake-model",
        cache_dir=tmp_path / "cache",
        max_concurrency=1,  # evaluations in turn: the shared truths prompt is a cache hit
        price_input_per_mtok=1.0,
        price_output_per_mtok=2.0,
        timeout=5.0,
    )


SCORERS = ["deterministic", "ragas", "deepeval"]


def _detection(result: Any) -> dict[tuple[str, str], tuple[int, int, int]]:
    return {
        (r.scorer, r.defect_class): (r.detected, r.n, r.unscored) for r in result.analysis.detection
    }


@needs_peers
def test_peers_run_in_the_study_with_their_own_rows_and_a_free_rerun(
    openai_server: FakeOpenAIServer, config: ModelConfig, tmp_path: Path
) -> None:
    plan = load_plan(corpus_paths=[_corpus(tmp_path / "toy")])
    result = run_study(plan, scorers=SCORERS, repetitions=1, model_config=config)
    rows = _detection(result)
    # by hand from the script: RAGAS scores the base 1/1 and each mutant 0/1 -> both detected;
    # DeepEval scores the inversion 0/1 ("no"), the changed number 1/1 ("idk") like the base
    assert rows[("ragas", "inversion")] == (1, 1, 0)
    assert rows[("ragas", "fabricated_number")] == (1, 1, 0)
    assert rows[("deepeval", "inversion")] == (1, 1, 0)
    assert rows[("deepeval", "fabricated_number")] == (0, 1, 0)
    scores = {(o.scorer, o.output_id): o.score for o in result.observations}
    assert scores[("ragas", "c1::base")] == 1.0
    assert scores[("deepeval", "c1::num")] == 1.0
    # 3 outputs x (RAGAS 2 calls + DeepEval 3 calls) = 15, all through our client; DeepEval's
    # truths prompt sees only the context, the same for the 3 outputs: 1 request + 2 cache hits
    assert openai_server.request_count == 13
    cost = {c.scorer: c for c in result.analysis.cost}
    assert (cost["ragas"].evaluations, cost["ragas"].calls, cost["ragas"].cache_hits) == (3, 6, 0)
    assert (cost["deepeval"].evaluations, cost["deepeval"].calls) == (3, 7)
    assert cost["deepeval"].cache_hits == 2
    assert cost["ragas"].usd_per_1000 is not None
    assert cost["ragas"].usd_per_1000 > 0
    assert cost["deepeval"].prompt_tokens > 0
    assert cost["deepeval"].wall_s_per_repetition == result.wall_s["peers"] > 0
    assert result.judge_usage is not None
    assert result.judge_usage.calls == 13
    assert result.config.model["model"] == "fake-model"
    assert result.config.thresholds == {"ragas": 1.0, "deepeval": 1.0}

    again = run_study(plan, scorers=SCORERS, repetitions=1, model_config=config)
    assert openai_server.request_count == 13  # 0 requests on the rerun
    assert _detection(again) == rows
    cost_again = {c.scorer: c for c in again.analysis.cost}
    assert (cost_again["ragas"].calls, cost_again["ragas"].cache_hits) == (0, 6)
    assert (cost_again["deepeval"].calls, cost_again["deepeval"].cache_hits) == (0, 9)
    assert all(o.cached for o in again.observations if o.scorer != "deterministic")


@needs_peers
def test_a_peer_that_cannot_parse_is_unscored_in_the_study_never_scored(
    openai_server: FakeOpenAIServer, config: ModelConfig, tmp_path: Path
) -> None:
    def script(request: RecordedRequest) -> Step:
        if "Structured output for statement generation" in json.dumps(request.messages):
            return json_reply({"statements": "not a list"})
        return _script(request)

    openai_server.respond_with(script)
    plan = load_plan(corpus_paths=[_corpus(tmp_path / "toy")])
    result = run_study(plan, scorers=["ragas"], repetitions=1, model_config=config)
    ragas = [o for o in result.observations if o.scorer == "ragas"]
    assert [(o.status, o.score, o.unscored_reason) for o in ragas] == [
        ("unscored", None, "parse_failure")
    ] * 3
    assert {r.scorer: r.by_reason for r in result.analysis.unscored} == {
        "ragas": {"parse_failure": 3}
    }
    # an unscored mutant is counted as unscored, never as a detection or a miss
    assert _detection(result)[("ragas", "inversion")] == (0, 0, 1)


@needs_peers
def test_a_case_without_a_question_is_judged_with_the_placeholder_question(
    openai_server: FakeOpenAIServer, config: ModelConfig, tmp_path: Path
) -> None:
    # OpenGATE's simplification cases have no question (None in the corpus): the study used to
    # stop with a validation error of the peer record instead of judging them.
    root = _corpus(tmp_path / "toy")
    producer = Producer(system="toy", kind="synthetic")
    case = Case(id="c1", question=None, context=CONTEXT, anchors=(), label_source="hand")
    base = Output(id="c1::base", case_id="c1", text=BASE, producer=producer, clean=True)
    write_jsonl_models(root / "cases.jsonl", [case])
    write_jsonl_models(root / "outputs.jsonl", [base])
    plan = load_plan(corpus_paths=[root])
    result = run_study(plan, scorers=["ragas", "deepeval"], repetitions=1, model_config=config)
    scores = {(o.scorer, o.output_id): (o.status, o.score) for o in result.observations}
    assert scores == {
        ("ragas", "c1::base"): ("scored", 1.0),
        ("deepeval", "c1::base"): ("scored", 1.0),
    }
    prompts = [json.dumps(r.messages) for r in openai_server.requests]
    # both peers refuse an empty question; RAGAS puts the placeholder into its statements
    # prompt (DeepEval's faithfulness prompts do not show the question; it scored above)
    assert any(
        "(no question given)" in p and "Structured output for statement generation" in p
        for p in prompts
    )


@needs_peers
def test_each_named_judge_runs_the_peers_on_its_own_model(
    openai_server: FakeOpenAIServer, config: ModelConfig, tmp_path: Path
) -> None:
    # Two judge models on one endpoint: "lenient" finds every RAGAS statement supported and
    # DeepEval's claims consistent; "strict" answers as _script (the mutants unsupported). The
    # peers must ask each judge's own model and report per judge (NAME:ragas), so only the
    # strict judge's peers detect the mutants.
    def script(request: RecordedRequest) -> Step:
        text = json.dumps(request.messages)
        if request.body["model"] == "lenient":
            if "StatementFaithfulnessAnswer" in text:
                verdict = {"statement": _answer(text), "reason": "r", "verdict": 1}
                return json_reply({"statements": [verdict]})
            if "Based on the given claims" in text:
                return json_reply({"verdicts": [{"verdict": "yes", "reason": "r"}]})
        return _script(request)

    openai_server.respond_with(script)
    plan = load_plan(corpus_paths=[_corpus(tmp_path / "toy")])
    # one request at a time per judge: DeepEval's truths prompt (the same context) then hits
    spec = f"base_url={openai_server.base_url},api_key_env=HYBRIDJUDGE_TEST_API_KEY,concurrency=1"
    result = run_study(
        plan,
        scorers=["ragas", "deepeval"],
        repetitions=1,
        model_config=config,
        judges=[f"lenient=model=lenient,{spec}", f"strict=model=strict,{spec}"],
    )
    rows = _detection(result)
    for defect in ("inversion", "fabricated_number"):
        assert rows[("lenient:ragas", defect)] == (0, 1, 0)
        assert rows[("lenient:deepeval", defect)] == (0, 1, 0)
        assert rows[("strict:ragas", defect)] == (1, 1, 0)
    # by hand from _script: DeepEval calls the inversion contradicted, the number "idk"
    assert rows[("strict:deepeval", "inversion")] == (1, 1, 0)
    assert rows[("strict:deepeval", "fabricated_number")] == (0, 1, 0)
    models = {r.body["model"] for r in openai_server.requests}
    assert models == {"lenient", "strict"}
    # each judge: 3 outputs x (RAGAS 2 + DeepEval 3) = 15 calls, 2 of them DeepEval's truths
    # prompt answered from the cache (the same context); nothing shared between the two models
    assert openai_server.request_count == 2 * 13
    cost = {c.scorer: c for c in result.analysis.cost}
    assert {name: cost[name].calls for name in cost if name.endswith("ragas")} == {
        "lenient:ragas": 6,
        "strict:ragas": 6,
    }
    assert {"peers:lenient", "peers:strict"} <= set(result.wall_s)


@pytest.mark.skipif(_INSTALLED, reason="the peer packages are installed here")
def test_a_peer_scorer_without_the_packages_fails_before_any_work(
    openai_server: FakeOpenAIServer,
    config: ModelConfig,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from hybridjudge import ConfigError
    from hybridjudge.cli import main

    plan = load_plan(corpus_paths=[_corpus(tmp_path / "toy")])
    for peer in ("ragas", "deepeval"):
        with pytest.raises(ConfigError, match=r"pip install 'hybridjudge\[peers\]'") as caught:
            run_study(plan, scorers=["deterministic", "support", peer], model_config=config)
        assert caught.value.code == "missing_peer"
        assert repr(peer) in str(caught.value)
    out = tmp_path / "out"
    code = main(
        [
            "study",
            "run",
            "--corpus",
            str(tmp_path / "toy"),
            "--scorers",
            "deterministic,support,contradiction,ragas,deepeval",
            "--base-url",
            openai_server.base_url,
            "--model",
            "fake-model",
            "--out",
            str(out),
            "--quiet",
        ]
    )
    assert code != 0
    err = capsys.readouterr().err
    assert "pip install 'hybridjudge[peers]'" in err
    assert "Traceback" not in err
    assert openai_server.request_count == 0  # no model call: not even the judges ran
    assert not out.exists()


@needs_peers
def test_study_run_command_reports_the_peers_beside_the_checks(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    from hybridjudge.cli import main
    from hybridjudge.study import load_study

    openai_server.respond_with(_script)
    corpus = _corpus(tmp_path / "toy")
    args = ["study", "run", "--corpus", str(corpus), "-q", "--backend", "openai"]
    args += ["--scorers", "deterministic,ragas,deepeval", "--concurrency", "1"]
    args += ["--base-url", openai_server.base_url, "--model", "fake-model"]
    args += ["--price-in", "1", "--price-out", "2", "--cache-dir", str(tmp_path / "c")]
    assert main([*args, "--out", str(tmp_path / "first")]) == 0
    assert openai_server.request_count == 13  # as in the run_study test above
    study = load_study(tmp_path / "first")
    assert study.config.scorers == ("deterministic", "ragas", "deepeval")
    rows = {(r.scorer, r.defect_class): r.detected for r in study.analysis.detection}
    assert rows[("deepeval", "inversion")] == 1
    assert rows[("deepeval", "fabricated_number")] == 0
    report = (tmp_path / "first" / "report.md").read_text(encoding="utf-8")
    assert "ragas" in report
    assert "deepeval" in report
    assert (
        "model client of the judges and the peer scorers, each call counted once: 13 calls"
        in report
    )
    assert main([*args, "--out", str(tmp_path / "again")]) == 0
    assert openai_server.request_count == 13  # the rerun made 0 requests
