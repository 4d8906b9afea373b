"""``judge`` and ``judge_many`` refuse a context that is not a list of passages, never judge an
empty context as faithful, and read their records as ``hybridjudge judge`` reads a case line."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from hybridjudge._errors import InputError
from hybridjudge.grounding import check_grounding
from hybridjudge.judges import JudgeRecord, judge, judge_many
from hybridjudge.model import ModelClient, ModelConfig
from tests.batch.test_judge_many import CONTEXT, perfect
from tests.support.openai_server import FakeOpenAIServer


def _judge(config: ModelConfig, **kwargs: Any) -> Any:
    async def go() -> Any:
        async with ModelClient(config) as client:
            return await judge(client, **kwargs)

    return asyncio.run(go())


@pytest.mark.parametrize(
    ("context", "kind"),
    [
        (None, "NoneType"),
        ({"passage": "Refunds within 30 days."}, "dict"),
        (b"Refunds within 30 days.", "bytes"),
        (30, "int"),
    ],
)
def test_a_context_that_is_not_passages_is_a_typed_error(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig, context: Any, kind: str
) -> None:
    openai_server.respond_with(perfect)
    with pytest.raises(InputError, match="context must be a string or a list of strings") as err:
        _judge(fake_model_config, answer="Refunds within 30 days.", context=context)
    assert kind in str(err.value)
    assert openai_server.request_count == 0


@pytest.mark.parametrize("context", [[], (), [""], ["  ", "\n"], ""])
def test_an_empty_context_scores_an_assertion_0_without_a_call(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig, context: Any
) -> None:
    # before: an InputError (record_error, unscored: exit 3 under --max-unscored 0); earlier
    # still, contradiction 1.0 ("faithful") with zero model calls. Now the outcome of the
    # grounding checks (no_context): nothing retrieved supports any claim, every scorer 0.0
    openai_server.respond_with(perfect)
    results = _judge(fake_model_config, answer="Refunds within 45 days.", context=context)
    for result in results.values():
        assert (result.status, result.score, result.abstained) == ("scored", 0.0, False)
        assert [(v.label, v.faithful) for v in result.verdicts] == [("no_context", False)]
    assert openai_server.request_count == 0
    assert check_grounding("Refunds within 45 days.", context).kinds >= {"no_context"}


def test_an_abstention_with_an_empty_context_is_still_recognised(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    # a recognised abstention is scored 1.0 whatever the context (docs/faithfulness.md)
    results = _judge(
        fake_model_config, answer="The context does not provide the annual price.", context=[]
    )
    assert all(r.abstained and r.score == 1.0 for r in results.values())
    assert openai_server.request_count == 0


def test_judge_many_scores_an_empty_context_and_fails_a_bad_one(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.respond_with(perfect)
    batch = judge_many(
        [
            {"id": "empty", "answer": "Refunds within 45 days.", "context": []},
            {"id": "dict", "answer": "Refunds within 45 days.", "context": {"a": CONTEXT}},
            {"id": "ok", "answer": "Refunds within 30 days.", "context": CONTEXT},
        ],
        scorers=["support", "contradiction"],
        config=fake_model_config,
    )
    by_id = {o.id: o for o in batch.outcomes}
    assert by_id["ok"].status == "judged"
    # an empty context is an outcome (0.0, no_context), not a record_error
    assert by_id["empty"].status == "judged"
    assert [r.score for r in by_id["empty"].results.values()] == [0.0, 0.0]
    outcome = by_id["dict"]
    assert outcome.status == "failed"
    for result in outcome.results.values():
        assert (result.status, result.unscored_reason, result.score) == (
            "unscored",
            "record_error",
            None,
        )
    assert "'context'" in (by_id["dict"].error or "")
    assert [o.id for o in batch] == ["empty", "dict", "ok"]
    assert len(batch) == 3


def test_judge_many_reads_the_case_line_format(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.respond_with(perfect)
    batch = judge_many(
        [
            {
                "response": "Refunds within 30 days.",
                "retrieved_contexts": [CONTEXT],
                "user_input": "How long?",
                "team": "web",
            },
            {
                "answer": "Refunds within 30 days.",
                "context": CONTEXT,
                "answerAnchors": ["30 days"],
                "allowedNewNumbers": ["30"],
            },
            {"sample_id": "s3", "actual_output": "Refunds within 45 days.", "context": CONTEXT},
        ],
        scorers=["support"],
        config=fake_model_config,
    )
    assert [o.status for o in batch.outcomes] == ["judged", "judged", "judged"]
    assert [o.id for o in batch.outcomes] == ["record-1", "record-2", "s3"]
    assert batch.outcomes[0].metadata == {"team": "web"}
    assert [o.results["support"].score for o in batch.outcomes] == [1.0, 1.0, 0.0]


def test_a_failed_record_without_id_is_named_record_n(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    openai_server.respond_with(perfect)
    batch = judge_many(
        [{"answer": "Refunds within 30 days.", "context": CONTEXT}, {"answer": 5, "context": "x"}],
        scorers=["support"],
        config=fake_model_config,
    )
    assert [(o.id, o.status) for o in batch.outcomes] == [
        ("record-1", "judged"),
        ("record-2", "failed"),
    ]


def test_a_judge_record_built_by_keyword_still_refuses_unknown_keys() -> None:
    with pytest.raises(ValueError, match="colour"):
        JudgeRecord.model_validate({"id": "a", "answer": "x", "context": "y", "colour": "red"})
    with pytest.raises(ValueError, match="id"):
        JudgeRecord(id="", answer="x", context=("y",))


@pytest.mark.parametrize("records", ["cases.jsonl", {"answer": "a", "context": ["c"]}, 42])
def test_judge_many_refuses_what_is_not_a_list_of_records(records: object) -> None:
    # refused before any model is opened or called (no config is even needed)
    with pytest.raises(InputError, match=r"judge_many\(\): records is"):
        judge_many(records)  # type: ignore[arg-type]


def test_judge_many_fails_a_record_holding_a_lone_surrogate_without_a_call(
    openai_server: FakeOpenAIServer, fake_model_config: ModelConfig
) -> None:
    """A string holding a lone UTF-16 surrogate (a broken escape) fails its record alone, as
    ``check_many`` and ``hybridjudge judge`` refuse it, and the batch stays writable as JSON
    (the outcome used to carry the string: ``model_dump_json`` raised)."""
    openai_server.respond_with(perfect)
    batch = judge_many(
        [
            {"id": "bad\ud800", "answer": "Refunds within 30 days.", "context": CONTEXT},
            {"id": "answer", "answer": "Refunds within 30 days.\udfff", "context": CONTEXT},
            {"id": "ok", "answer": "Refunds within 30 days.", "context": CONTEXT},
        ],
        scorers=["support"],
        config=fake_model_config,
    )
    assert [o.id for o in batch] == ["record-1", "answer", "ok"]
    assert [o.status for o in batch] == ["failed", "failed", "judged"]
    assert "lone UTF-16 surrogate" in (batch.outcomes[1].error or "")
    assert "'answer'" in (batch.outcomes[1].error or "")
    assert json.loads(batch.model_dump_json())["outcomes"][2]["status"] == "judged"
