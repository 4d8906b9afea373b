"""``judge_many``: the one judging loop, on the real scripted OpenAI-compatible server."""

from __future__ import annotations

import asyncio
import dataclasses
import sys
from pathlib import Path
from typing import Any

import pytest

import hybridjudge
from hybridjudge import ConfigError
from hybridjudge.judges import JudgeBatch, JudgeRecord, ajudge_many, judge_many
from hybridjudge.model import ModelConfig
from tests.judges.helpers import prompt_of, statement_of, verdict_step
from tests.support.openai_server import FakeOpenAIServer, RecordedRequest, Step, json_reply

CONTEXT = "Customers may request a full refund within 30 days of purchase."


def _answer_of(request: RecordedRequest) -> str:
    user = request.last_user_content
    return user.split("<answer>")[1].split("</answer>")[0].strip()


def perfect(request: RecordedRequest, delay: float = 0.0) -> Step:
    """Supported (quoting the first context sentence shown) and not contradicted iff the claim
    says "30 days". Every answer here is one sentence, so one claim; an extraction request
    (``claims="model"``) gets the answer itself as its one claim."""
    name = prompt_of(request)
    if name == "claims":
        return json_reply({"claims": [_answer_of(request)]}, delay=delay)
    return verdict_step(request, good="30 days" in statement_of(request), delay=delay)


@dataclasses.dataclass
class Sample:
    """A duck-typed record (e.g. another library's test case)."""

    id: str
    answer: str
    context: list[str]
    question: str | None = None


def _records() -> list[Any]:
    return [
        JudgeRecord(
            id="a", answer="Refunds within 30 days.", context=(CONTEXT,), metadata={"k": 1}
        ),
        {"id": "b", "answer": "Refunds within 60 days.", "context": CONTEXT, "metadata": {"k": 2}},
        Sample(id="c", answer="You have 30 days to ask.", context=[CONTEXT], question="Refund?"),
    ]


def test_records_of_every_form_are_judged_in_input_order(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.respond_with(perfect)
    seen: list[tuple[int, int]] = []
    batch = judge_many(
        _records(),
        repetitions=2,
        config=fake_model_config,
        progress=lambda done, total: seen.append((done, total)),
    )
    assert [(o.id, o.repetition) for o in batch.outcomes] == [
        ("a", 0),
        ("a", 1),
        ("b", 0),
        ("b", 1),
        ("c", 0),
        ("c", 1),
    ]
    assert all(o.status == "judged" for o in batch.outcomes)
    scores = {(o.id, o.repetition): o.results["support"].score for o in batch.outcomes}
    # by hand: a and c say "30 days" (supported, not contradicted); b says 60 days
    assert scores == {
        ("a", 0): 1.0,
        ("a", 1): 1.0,
        ("b", 0): 0.0,
        ("b", 1): 0.0,
        ("c", 0): 1.0,
        ("c", 1): 1.0,
    }
    assert [o.results["contradiction"].score for o in batch.outcomes if o.id == "b"] == [0.0, 0.0]
    assert seen == [(i, 6) for i in range(1, 7)]
    # 3 records x 2 repetitions x 2 verdicts on the one claim (the answer's one sentence; no
    # claim extraction); each repetition is a fresh sample
    assert openai_server.request_count == 12
    assert batch.usage.calls == 12
    assert len(batch.wall_s) == 2


def test_a_bad_record_is_an_explicit_unscored_outcome_and_the_rest_goes_on(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.respond_with(perfect)
    records: list[Any] = [
        {"id": "ok", "answer": "Refunds within 30 days.", "context": CONTEXT},
        {"id": "bad", "answer": 5, "context": CONTEXT},
        {"id": "no-context", "answer": "Refunds within 30 days."},
        {"id": "ok2", "answer": "Refunds within 60 days.", "context": [CONTEXT]},
    ]
    batch = judge_many(records, scorers=["support"], config=fake_model_config)
    status = {o.id: o.status for o in batch.outcomes}
    assert status == {"ok": "judged", "bad": "failed", "no-context": "failed", "ok2": "judged"}
    (bad, missing) = batch.failed
    assert "'answer'" in (bad.error or "")
    assert "'context'" in (missing.error or "")
    result = bad.results["support"]
    assert (result.status, result.unscored_reason, result.score) == (
        "unscored",
        "record_error",
        None,
    )
    assert result.detail is not None
    assert result.detail.stage == "record"
    assert openai_server.request_count == 2  # the two good records: one verdict each


def test_an_unexpected_error_in_one_record_does_not_end_the_batch(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig, monkeypatch: pytest.MonkeyPatch
) -> None:
    openai_server.respond_with(perfect)
    from hybridjudge.judges import judge as real

    async def flaky(client: Any, **kwargs: Any) -> Any:
        if kwargs["answer"] == "boom":
            raise RuntimeError("a bug in one record")
        return await real(client, **kwargs)

    monkeypatch.setattr("hybridjudge.judges._many.judge", flaky)
    records = [{"answer": "boom", "context": CONTEXT}, {"answer": "30 days.", "context": CONTEXT}]
    batch = judge_many(records, scorers=["support"], config=fake_model_config)
    first, second = batch.outcomes
    assert first.id == "record-1"  # no id given: its 1-based position, as the CLI names it
    assert first.status == "failed"
    assert first.error == "RuntimeError: a bug in one record"
    assert second.status == "judged"
    assert second.results["support"].score == 1.0


def test_a_progress_callback_that_raises_stops_the_batch(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.respond_with(perfect)

    class StopError(Exception):
        pass

    def stop(done: int, total: int) -> None:
        raise StopError

    records = [{"id": str(i), "answer": f"{i} days.", "context": CONTEXT} for i in range(20)]
    with pytest.raises(StopError):
        judge_many(
            records, scorers=["support"], config=fake_model_config, concurrency=1, progress=stop
        )
    assert openai_server.request_count < 40


@pytest.mark.parametrize("concurrency", [1, 2])
def test_records_in_flight_are_bounded(
    openai_server: FakeOpenAIServer, tmp_path: Path, concurrency: int
) -> None:
    openai_server.respond_with(lambda r: perfect(r, delay=0.05))
    config = ModelConfig(
        backend="openai",
        base_url=openai_server.base_url,
        model="fake-model",
        cache_dir=tmp_path / "cache",
        max_concurrency=8,
        price_input_per_mtok=1.0,
        price_output_per_mtok=2.0,
        timeout=10.0,
    )
    records = [{"id": str(i), "answer": f"{i} days.", "context": CONTEXT} for i in range(6)]
    # one scorer: each record has at most one request in flight (claims, then its verdict)
    batch = judge_many(records, scorers=["support"], config=config, concurrency=concurrency)
    assert len(batch.outcomes) == 6
    assert openai_server.max_in_flight <= concurrency


def test_settings_are_checked_before_any_request(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    records = [{"answer": "x", "context": CONTEXT}]
    with pytest.raises(ConfigError, match="unknown scorer"):
        judge_many(records, scorers=["ragas"], config=fake_model_config)
    with pytest.raises(ConfigError, match="repetitions must be a whole number of at least 1"):
        judge_many(records, repetitions=0, config=fake_model_config)
    with pytest.raises(ConfigError, match="concurrency"):
        judge_many(records, concurrency=0, config=fake_model_config)
    with pytest.raises(ConfigError, match="mode"):
        judge_many(records, mode="both", config=fake_model_config)  # type: ignore[arg-type]
    assert openai_server.request_count == 0


def test_batch_converts_to_records_and_to_a_dataframe(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.respond_with(perfect)
    batch = judge_many(_records(), config=fake_model_config, mode="shared")
    rows = batch.to_records()
    assert len(rows) == 3 * 2  # records x scorers
    first = rows[0]
    assert (first["id"], first["scorer"], first["mode"], first["score"]) == (
        "a",
        "support",
        "shared",
        1.0,
    )
    assert (first["claims"], first["faithful_claims"], first["metadata.k"]) == (1, 1, 1)
    frame = batch.to_pandas()
    assert list(frame.columns[:5]) == ["id", "repetition", "scorer", "mode", "status"]
    assert frame.shape == (6, len(first))
    assert frame.loc[frame["id"] == "b", "score"].tolist() == [0.0, 0.0]
    assert frame["metadata.k"].tolist()[:4] == [1, 1, 2, 2]
    # a batch is plain data: it round-trips through JSON
    assert JudgeBatch.model_validate_json(batch.model_dump_json()) == batch


def test_to_pandas_without_pandas_names_the_extra(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig, monkeypatch: pytest.MonkeyPatch
) -> None:
    openai_server.respond_with(perfect)
    batch = judge_many(_records()[:1], scorers=["support"], config=fake_model_config)
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match=r"hybridjudge\[pandas\]"):
        batch.to_pandas()
    assert batch.to_records()[0]["score"] == 1.0


def test_sync_judge_many_works_inside_a_running_event_loop(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.respond_with(perfect)

    async def notebook_cell() -> JudgeBatch:
        asyncio.get_running_loop()  # a loop is running, as in Jupyter
        return judge_many(_records(), scorers=["support"], config=fake_model_config)

    inside = asyncio.run(notebook_cell())
    awaited = asyncio.run(ajudge_many(_records(), scorers=["support"], config=fake_model_config))
    assert [o.results["support"].score for o in inside.outcomes] == [1.0, 0.0, 1.0]
    assert [o.results["support"].score for o in awaited.outcomes] == [1.0, 0.0, 1.0]
    # the second run was served from the cache the first one filled
    assert awaited.usage.calls == 0
    assert awaited.usage.cache_hits == 3


def test_judge_many_is_exported_lazily_from_the_top_level() -> None:
    assert hybridjudge.judge_many is judge_many
    assert hybridjudge.ajudge_many is ajudge_many
