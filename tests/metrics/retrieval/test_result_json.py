"""RetrievalResult as a versioned file: it reads back from its own JSON, and a file of another
format version is refused with a message saying so.

Golden per-query values are computed by hand in the comments (trec_eval's definitions, see
docs/metrics.md).
"""

from __future__ import annotations

import json
import re
from typing import Any

import numpy as np
import pytest
from pydantic import ValidationError

from hybridjudge.metrics.retrieval import RESULT_FORMAT_VERSION, RetrievalResult, evaluate

QRELS = {"q1": {"d1": 1, "d2": 0, "d3": 2}, "q2": {"d9": 1}, "q3": {"d5": 1}}
RUN = {"q1": {"d2": 0.9, "d1": 0.8, "d4": 0.1}, "q2": {"d7": 0.3}, "q4": {"d1": 1.0}}
METRICS = ["mrr", "p@2", "recall@2", "ndcg@3"]


def _result() -> RetrievalResult:
    return evaluate(QRELS, RUN, METRICS, complete=True)


def test_result_round_trips_through_its_own_json() -> None:
    result = _result()
    loaded = RetrievalResult.model_validate_json(result.model_dump_json())
    # by hand: q1 ranks d2 (grade 0), d1 (1), d4 (unjudged): first relevant at rank 2 -> 1/2;
    # 1 relevant in the top 2 -> p@2 = 1/2; recall@2 = 1/2 (d1 of d1, d3). q2 retrieves
    # nothing relevant and q3 (complete=True) nothing at all: 0 everywhere.
    assert loaded.per_query["mrr"].tolist() == [0.5, 0.0, 0.0]
    assert loaded.per_query["p@2"].tolist() == [0.5, 0.0, 0.0]
    assert loaded.per_query["recall@2"].tolist() == [0.5, 0.0, 0.0]
    for name in result.metrics:
        assert loaded.per_query[name].dtype == np.float64
        assert not loaded.per_query[name].flags.writeable  # read-only, as evaluate() gives
        np.testing.assert_array_equal(loaded.per_query[name], result.per_query[name])
    assert loaded.means == result.means
    assert loaded.model_dump(mode="json") == result.model_dump(mode="json")
    assert (loaded.query_ids, loaded.run_only_queries, loaded.missing_queries) == (
        ("q1", "q2", "q3"),
        ("q4",),
        ("q3",),
    )
    assert loaded.query("q1") == result.query("q1")
    # and the reloaded result dumps to the same text: a fixed point
    assert loaded.model_dump_json() == result.model_dump_json()


def test_result_round_trips_through_a_python_dict_of_lists() -> None:
    result = _result()
    loaded = RetrievalResult.model_validate(json.loads(result.model_dump_json()))
    assert loaded.means == result.means
    np.testing.assert_array_equal(loaded.per_query["ndcg@3"], result.per_query["ndcg@3"])


def _dumped(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(_result().model_dump_json())
    data.update(changes)
    return data


@pytest.mark.parametrize("version", [2, 0, "1", 1.0, True, None])
def test_another_format_version_is_refused_saying_so(version: object) -> None:
    with pytest.raises(ValidationError) as caught:
        RetrievalResult.model_validate_json(json.dumps(_dumped(format_version=version)))
    message = str(caught.value)
    assert f"retrieval result version {version!r} is not supported by this hybridjudge" in message
    assert f"(it reads version {RESULT_FORMAT_VERSION})" in message
    assert "Input should be 1" not in message
    assert caught.value.error_count() == 1  # one clear error, not one per changed field


@pytest.mark.parametrize(
    ("per_query", "needle"),
    [
        ({"mrr": [0.5, None, 0.0]}, "item 1 is None"),
        ({"mrr": ["0.5", 0.0, 0.0]}, "item 0 is '0.5'"),
        ({"mrr": [True, 0.0, 0.0]}, "item 0 is True"),
        ({"mrr": "0.5"}, "expected a list of numbers"),
    ],
)
def test_per_query_values_from_json_must_be_numbers(per_query: dict[str, Any], needle: str) -> None:
    data = _dumped()
    data["per_query"].update(per_query)
    with pytest.raises(ValidationError, match=re.escape(needle)):
        RetrievalResult.model_validate_json(json.dumps(data))


def test_per_query_of_the_wrong_length_or_names_is_refused() -> None:
    data = _dumped()
    data["per_query"]["mrr"] = [0.5, 0.0]
    with pytest.raises(ValidationError, match=r"per_query\['mrr'\] has 2 values for 3 queries"):
        RetrievalResult.model_validate_json(json.dumps(data))
    data = _dumped()
    del data["per_query"]["mrr"]
    with pytest.raises(ValidationError, match="the result is incomplete or edited"):
        RetrievalResult.model_validate_json(json.dumps(data))
