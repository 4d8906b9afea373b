"""One judging loop: ``hybridjudge judge`` and the study both judge through ``ajudge_many``; the
synchronous study entry point also works inside a running event loop."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from hybridjudge.cli import main
from hybridjudge.judges import JudgeBatch
from hybridjudge.model import ModelConfig
from hybridjudge.study import StudyResult, arun_study, load_plan, run_study
from tests.batch.test_judge_many import perfect
from tests.study.golden.make_golden import HERE as GOLDEN
from tests.support.openai_server import FakeOpenAIServer

TOY = GOLDEN / "toy"


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Records passed to each ``ajudge_many`` call, wherever it is called from."""
    import hybridjudge.judges as judges

    real = judges.ajudge_many
    seen: list[int] = []

    async def spy(records: Any, **kwargs: Any) -> JudgeBatch:
        batch = await real(records, **kwargs)
        seen.append(len(batch.outcomes))
        return batch

    monkeypatch.setattr(judges, "ajudge_many", spy)
    return seen


def test_the_cli_judges_through_ajudge_many(
    openai_server: FakeOpenAIServer, tmp_path: Path, calls: list[int], capsys: Any
) -> None:
    openai_server.respond_with(perfect)
    cases = tmp_path / "cases.jsonl"
    lines = [
        {"id": "a", "answer": "Refunds within 30 days.", "context": "Refunds within 30 days."},
        {"id": "b", "answer": "Refunds within 60 days.", "context": "Refunds within 30 days."},
    ]
    cases.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    args = ["--backend", "openai", "--base-url", openai_server.base_url, "--model", "fake-model"]
    args += ["--price-in", "1", "--price-out", "2", "--cache-dir", str(tmp_path / "c")]
    code = main(["judge", str(cases), "--json", "--repetitions", "2", *args])
    assert code == 1  # "b" scores 0.0, below the default --threshold 1: an output fails
    assert calls == [4]  # one batch: 2 cases x 2 repetitions
    out = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [(r["id"], r["repetition"]) for r in out] == [("a", 0), ("a", 1), ("b", 0), ("b", 1)]
    assert [r["results"]["support"]["score"] for r in out] == [1.0, 1.0, 0.0, 0.0]


def _config(server: FakeOpenAIServer, tmp_path: Path) -> ModelConfig:
    return ModelConfig(
        backend="openai",
        base_url=server.base_url,
        model="fake-model",
        cache_dir=tmp_path / "cache",
        price_input_per_mtok=1.0,
        price_output_per_mtok=2.0,
        timeout=10.0,
    )


def test_the_study_judges_through_ajudge_many(
    openai_server: FakeOpenAIServer, tmp_path: Path, calls: list[int]
) -> None:
    openai_server.respond_with(perfect)
    plan = load_plan(corpus_paths=[TOY])
    result = run_study(
        plan, scorers=["support"], repetitions=2, model_config=_config(openai_server, tmp_path)
    )
    assert calls == [2 * len(plan.outputs)]
    assert len(result.observations) == 2 * len(plan.outputs)


def test_run_study_works_inside_a_running_event_loop(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    openai_server.respond_with(perfect)
    plan = load_plan(corpus_paths=[TOY])
    config = _config(openai_server, tmp_path)

    async def notebook_cell() -> StudyResult:
        asyncio.get_running_loop()
        return run_study(plan, scorers=["deterministic", "support"], model_config=config)

    inside = asyncio.run(notebook_cell())
    awaited = asyncio.run(
        arun_study(plan, scorers=["deterministic", "support"], model_config=config)
    )

    def key(study: StudyResult) -> list[tuple[Any, ...]]:
        return sorted(
            (o.output_id, o.scorer, o.score, o.flagged, o.issues) for o in study.observations
        )

    assert key(inside) == key(awaited)
    assert len(inside.observations) == 2 * len(plan.outputs)
    assert awaited.judge_usage is not None
    assert awaited.judge_usage.calls == 0  # the run inside the loop filled the cache
