"""hybridjudge.dist on a local Ray cluster (2 CPUs) against the scripted OpenAI-compatible server.

Each test compares with the single-process path on the same records: the checks with
``check_grounding`` record by record, the judges with ``judge_many`` (the loop ``hybridjudge
judge`` uses), through the same reply cache.
"""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path
from typing import Any

import pytest

from hybridjudge.corpus import read_cases
from hybridjudge.grounding import check_grounding
from hybridjudge.judges import judge_many
from hybridjudge.model import ModelConfig
from tests.dist.helpers import ASKED_PER_20, ScriptedJudge, make_records
from tests.support.openai_server import FakeOpenAIServer

ray = pytest.importorskip("ray")
pytestmark = [
    pytest.mark.usefixtures("ray_cluster"),
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
]


def config_for(server: FakeOpenAIServer, cache_dir: Path, **changes: Any) -> ModelConfig:
    values: dict[str, Any] = {
        "backend": "openai",
        "base_url": server.base_url,
        "model": "fake-model",
        "api_key_env": "HYBRIDJUDGE_TEST_API_KEY",
        "timeout": 10.0,
        "max_concurrency": 4,
        "max_retries": 2,
        "retry_initial_wait": 0.001,
        "retry_max_wait": 0.005,
        "retry_jitter": 0.0,
        "price_input_per_mtok": 1.0,
        "price_output_per_mtok": 2.0,
        "cache_dir": cache_dir,
    }
    values.update(changes)
    return ModelConfig(**values)


def by_id(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    out = {row["id"]: row for row in rows}
    assert len(out) == len(rows), "ids must be unique"
    return out


# -- checks --------------------------------------------------------------------------------------


def test_check_dataset_gives_the_single_process_findings_on_1200_records() -> None:
    from hybridjudge.dist import check_dataset

    records = make_records(1200)
    records.append({"id": "no-context", "answer": "It costs $3."})
    records.append({"id": "wrong-type", "answer": 42, "context": "x"})
    ds = ray.data.from_items(records, override_num_blocks=6)
    rows = by_id(check_dataset(ds, batch_size=128).take_all())
    assert len(rows) == len(records)

    expected = read_cases(records)  # the single-process reader, same field-name families
    compared = 0
    for item in expected:
        if item.case is None:
            continue
        case = item.case
        report = check_grounding(
            case.answer,
            case.context,
            question=case.question,
            anchors=case.anchors,
            answerable=case.answerable,
            allowed_numbers=case.allowed_numbers,
        )
        row = rows[case.id]
        assert row["error"] is None
        assert row["grounded"] is report.grounded
        assert row["abstained"] is report.abstained
        assert [
            (f["kind"], f["message"], f["subject"], f["span_start"], f["span_end"], f["evidence"])
            for f in row["findings"]
        ] == [
            (
                f.kind,
                f.message,
                f.subject,
                f.span[0] if f.span else None,
                f.span[1] if f.span else None,
                f.evidence,
            )
            for f in report.findings
        ]
        compared += 1
    assert compared == 1200
    kinds = {f["kind"] for r in rows.values() if r["findings"] for f in r["findings"]}
    assert {"ungrounded_number", "over_abstention"} <= kinds  # the records exercise findings
    assert sum(r["grounded"] is True for r in rows.values()) >= 50
    # bad records are rows with an error, and the run went on
    assert "context" in rows["no-context"]["error"]
    assert rows["no-context"]["grounded"] is None
    assert "answer" in rows["wrong-type"]["error"]
    # the input columns travel with the results (here the RAGAS family's)
    assert rows["rec-1"]["response"] == records[1]["response"]


# -- judges --------------------------------------------------------------------------------------


def comparable(result_json: str) -> dict[str, Any]:
    """A judge result without what differs between two runs of the same replies (timings,
    cache hits): scores, verdicts, claims, reasons stay."""
    result: dict[str, Any] = json.loads(result_json)
    result.pop("usage", None)
    result.pop("claims_usage", None)
    return result


def single_process(records: list[dict[str, Any]], config: ModelConfig) -> dict[str, Any]:
    """The single-process path: judge_many on the same records (our field names)."""
    mapped = []
    for item in read_cases(records):
        assert item.case is not None
        case = item.case
        mapped.append(
            {
                "id": case.id,
                "answer": case.answer,
                "context": case.context,
                "question": case.question,
            }
        )
    batch = judge_many(mapped, scorers=("support", "contradiction"), mode="shared", config=config)
    return {o.id: o for o in batch.outcomes}


def test_judge_dataset_gives_the_single_process_scores_on_1000_records(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    from hybridjudge.dist import judge_dataset

    judge = ScriptedJudge()
    openai_server.respond_with(judge)
    records = make_records(1000)
    cache = tmp_path / "cache"

    reference = single_process(records, config_for(openai_server, cache))
    calls = openai_server.request_count
    # one shared verdict call per claim asked about, the claims being the answers' one
    # sentence (no extraction call): 50 x ASKED_PER_20, by hand
    assert calls == 50 * ASKED_PER_20
    assert set(judge.bodies.values()) == {1}

    ds = ray.data.from_items(records, override_num_blocks=8)
    config = config_for(openai_server, cache, max_concurrency=8)
    rows = by_id(
        judge_dataset(
            ds, config=config, scorers=("support", "contradiction"), mode="shared", batch_size=50
        ).take_all()
    )
    assert openai_server.request_count == calls  # every reply came from the shared disk cache
    assert len(rows) == 1000
    scored = 0
    for record_id, outcome in reference.items():
        row = rows[record_id]
        assert row["status"] == outcome.status == "judged"
        for name in ("support", "contradiction"):
            result = outcome.results[name]
            assert row[f"{name}_score"] == result.score
            assert row[f"{name}_status"] == result.status
            assert row[f"{name}_unscored_reason"] == result.unscored_reason
            assert comparable(row[f"{name}_result"]) == comparable(result.model_dump_json())
            scored += result.status == "scored"
        assert row["calls"] == 0
    # every reply the single process paid for was a cache hit here, once (a record whose
    # claim is not asked about, or that abstains, has none)
    assert sum(row["cache_hits"] for row in rows.values()) == calls
    assert scored > 1000
    # by hand, support is 0.0 throughout: a "supported" verdict needs a quote holding every
    # number of the claim, and no claim asked about has its numbers in one context sentence
    # (i % 40 is never its context's number; shape 3 also names $50, from the other passage);
    # the contradiction scores follow the scripted hash: not one constant score
    assert {row["support_score"] for row in rows.values()} == {0.0}
    assert len({row["contradiction_score"] for row in rows.values()}) >= 2


def test_judge_dataset_on_a_cold_cache_asks_each_question_once(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    from hybridjudge.dist import judge_dataset

    judge = ScriptedJudge()
    openai_server.respond_with(judge)
    records = make_records(60)
    config = config_for(openai_server, tmp_path / "ray-cache", max_concurrency=6)
    ds = ray.data.from_items(records, override_num_blocks=4)
    rows = by_id(judge_dataset(ds, config=config, mode="shared", batch_size=15).take_all())
    assert set(judge.bodies.values()) == {1}  # no request sent twice by two workers
    paid = sum(row["calls"] for row in rows.values())
    assert paid == openai_server.request_count == 3 * ASKED_PER_20
    assert openai_server.max_in_flight <= 6  # the total concurrency, not per worker

    reference = single_process(records, config_for(openai_server, tmp_path / "fresh"))
    for record_id, outcome in reference.items():
        for name in ("support", "contradiction"):
            assert rows[record_id][f"{name}_score"] == outcome.results[name].score


def _judge_worker_pids() -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().decode("utf-8", "replace")
        except OSError:
            continue
        if "_JudgeBatch" in cmdline and int(entry.name) != os.getpid():
            pids.append(int(entry.name))
    return pids


def test_a_worker_killed_mid_run_loses_no_reply_and_pays_none_twice(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    from hybridjudge.dist import judge_dataset

    judge = ScriptedJudge(delay=0.002)
    killed: list[tuple[int, set[str]]] = []

    def kill_one_worker(count: int, _body: str) -> None:
        if count == 30 and not killed:  # of the run's 10 x ASKED_PER_20 = 80 requests
            pids = _judge_worker_pids()
            assert pids, "no judge worker process found"
            with judge.lock:
                in_flight = set(judge.in_flight)
            os.kill(pids[0], signal.SIGKILL)
            killed.append((pids[0], in_flight))

    judge.on_request = kill_one_worker
    openai_server.respond_with(judge)
    records = make_records(200)
    # 2 workers with one request in flight each
    config = config_for(openai_server, tmp_path / "cache", max_concurrency=2)
    ds = ray.data.from_items(records, override_num_blocks=8)
    rows = by_id(
        judge_dataset(ds, config=config, mode="shared", workers=2, batch_size=25).take_all()
    )
    assert killed, "the worker was never killed"
    _pid, in_flight_at_kill = killed[0]
    assert len(rows) == 200
    assert all(row["status"] == "judged" for row in rows.values())
    assert not any(row["support_unscored_reason"] == "model_error" for row in rows.values())
    # Ray retried the dead worker's whole batch (25 records, about half of them already judged
    # when it died), yet no reply it had received was asked for again: the only request sent
    # twice is at most the one the dead worker had in flight (its concurrency is 1; that
    # request may have reached the server just before or just after the kill)
    repeated = {body for body, n in judge.bodies.items() if n > 1}
    assert len(repeated) <= 1
    assert max(judge.bodies.values()) <= 2
    assert openai_server.request_count == len(judge.bodies) + len(repeated)
    assert in_flight_at_kill is not None
    distinct = len(judge.bodies)
    assert distinct == 10 * ASKED_PER_20  # every distinct request was answered

    reference = single_process(records, config_for(openai_server, tmp_path / "cache"))
    for record_id, outcome in reference.items():  # served from the cache the workers wrote
        for name in ("support", "contradiction"):
            assert rows[record_id][f"{name}_score"] == outcome.results[name].score
    assert len(judge.bodies) == distinct


def test_the_request_rate_limit_holds_across_all_workers(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    from hybridjudge.dist import judge_dataset

    judge = ScriptedJudge()
    openai_server.respond_with(judge)
    records = make_records(160)
    rpm = 600.0  # 10 requests a second for the whole cluster, a burst of one second's worth
    config = config_for(
        openai_server, tmp_path / "cache", max_concurrency=4, requests_per_minute=rpm
    )
    ds = ray.data.from_items(records, override_num_blocks=4)
    judge_dataset(ds, config=config, mode="shared", workers=2, batch_size=10).materialize()
    times = sorted(judge.times)
    assert len(times) == 8 * ASKED_PER_20
    rate, burst = rpm / 60.0, 10
    # a token bucket: any window of w seconds holds at most burst + rate * w requests (one
    # request of slack for the time between the permit and the server's clock)
    for i, start in enumerate(times):
        for window in (0.5, 1.0, 2.0):
            inside = sum(1 for t in times[i:] if t - start <= window)
            assert inside <= burst + rate * window + 1, (start, window, inside)
    span = times[-1] - times[0]
    assert (len(times) - burst) / span <= rate * 1.1
    # two workers each with its own 10/s limit would have finished in half the time
    assert span >= (len(times) - burst) / rate * 0.9


# -- the shared reply cache (Redis) ---------------------------------------------------------------


def test_workers_share_one_redis_cache_keyed_as_the_disk_cache(
    openai_server: FakeOpenAIServer, tmp_path: Path, redis_url: str
) -> None:
    import redis

    from hybridjudge.dist import judge_dataset
    from hybridjudge.model import REDIS_KEY_PREFIX, ReplyCache

    judge = ScriptedJudge()
    openai_server.respond_with(judge)
    records = make_records(60)
    shared = config_for(openai_server, tmp_path / "unused", cache_url=redis_url)
    ds = ray.data.from_items(records, override_num_blocks=4)
    rows = by_id(judge_dataset(ds, config=shared, mode="shared", batch_size=15).take_all())
    first = openai_server.request_count
    assert first == 3 * ASKED_PER_20

    # the single-process path on the same Redis: every reply is a hit, same scores
    reference = single_process(records, shared)
    assert openai_server.request_count == first
    for record_id, outcome in reference.items():
        for name in ("support", "contradiction"):
            assert rows[record_id][f"{name}_score"] == outcome.results[name].score

    # the same records through the disk cache: the very same keys and values
    disk = config_for(openai_server, tmp_path / "disk")
    single_process(records, disk)
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    redis_keys = {str(k)[len(REDIS_KEY_PREFIX) :] for k in client.scan_iter(REDIS_KEY_PREFIX + "*")}
    with ReplyCache(tmp_path / "disk") as cache:
        disk_keys = set(cache.keys())
        assert redis_keys == disk_keys
        key = sorted(disk_keys)[0]
        stored = json.loads(str(client.get(REDIS_KEY_PREFIX + key) or "{}"))
        on_disk = cache.get(key)
        assert on_disk is not None
        assert stored["content"] == on_disk.content
    client.close()
