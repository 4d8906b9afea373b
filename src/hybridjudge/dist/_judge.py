"""``judge_dataset``: the LLM judges over a Ray Dataset, on a pool of async judge actors.

Each judge worker is a Ray actor holding one open :class:`~hybridjudge.model.ModelClient` on its
own event loop; a batch is judged by :func:`hybridjudge.judges.ajudge_many` (the same judging loop
as ``hybridjudge judge``), so the scores are those of the single-process path. Across workers:

- concurrency: ``config.max_concurrency`` is the total; each of the ``w`` workers gets
  ``max_concurrency // w`` requests in flight (``w`` is capped at ``max_concurrency``);
- rate limits: ``requests_per_minute`` / ``tokens_per_minute`` are enforced by one limiter actor
  for the whole cluster (:mod:`hybridjudge.dist._limiter`);
- the reply cache: every worker opens the cache ``config`` selects; on one machine the disk cache
  is shared safely, across machines use ``cache_url="redis://..."``. Replies are written the
  moment they arrive, so when a worker dies Ray retries its batch and every reply already
  received is a cache hit, not a second request.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Coroutine, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from hybridjudge._errors import ConfigError
from hybridjudge._params import DEFAULT_MAX_CLAIMS

if TYPE_CHECKING:
    import pyarrow as pa
    import ray.data

    from hybridjudge.judges import JudgeOutcome
    from hybridjudge.model import ModelClient, ModelConfig

__all__ = ["USAGE_COLUMNS", "judge_columns", "judge_dataset"]

logger = logging.getLogger(__name__)

T = TypeVar("T")

USAGE_COLUMNS = ("calls", "cache_hits", "prompt_tokens", "completion_tokens", "cost_usd")
"""Usage columns of :func:`judge_dataset` (the record's calls, each shared call counted once)."""


def judge_columns(scorers: Sequence[str]) -> tuple[str, ...]:
    """Every column :func:`judge_dataset` adds for ``scorers``, in order."""
    per_scorer = tuple(
        f"{name}_{part}"
        for name in scorers
        for part in ("score", "status", "unscored_reason", "abstained", "result")
    )
    return ("id", "repetition", "status", "error", *per_scorer, *USAGE_COLUMNS)


class _JudgeBatch:
    """One judge worker: an open client on a private event loop; one batch per call."""

    def __init__(
        self,
        *,
        config: ModelConfig,
        scorers: tuple[str, ...],
        mode: str,
        repetitions: int,
        limiter: Any,
        record_column: str | None,
        strict: bool,
        keep_input: bool,
        max_claims: int | None = None,
    ) -> None:
        from hybridjudge.dist._limiter import RemoteLimiter
        from hybridjudge.model import ModelClient

        self._scorers = scorers
        self._mode = mode
        self._repetitions = repetitions
        self._record_column = record_column
        self._strict = strict
        self._keep_input = keep_input
        self._max_claims = max_claims
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_forever, name="hybridjudge-judge-loop", daemon=True
        )
        self._thread.start()
        requests = tokens = None
        if limiter is not None:
            if config.requests_per_minute:
                requests = RemoteLimiter(limiter, "requests")
            if config.tokens_per_minute:
                tokens = RemoteLimiter(limiter, "tokens")
        client = ModelClient(config, request_limiter=requests, token_limiter=tokens)
        self._client: ModelClient = self._run(client.__aenter__())

    def _run(self, coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result()

    def __call__(self, table: pa.Table) -> pa.Table:
        import pyarrow as pa

        from hybridjudge.dist._check import replace_columns
        from hybridjudge.dist._records import cases_of
        from hybridjudge.judges import ajudge_many

        cases = cases_of(table, record_column=self._record_column, strict=self._strict)
        positions = [i for i, c in enumerate(cases) if c.case is not None]
        records = []
        for i in positions:
            case = cases[i].case
            assert case is not None
            records.append(
                {
                    "id": cases[i].id or f"row-{i}",
                    "answer": case.answer,
                    "context": case.context,
                    "question": case.question,
                }
            )
        outcomes: dict[tuple[int, int], JudgeOutcome] = {}
        if records:
            batch = self._run(
                ajudge_many(
                    records,
                    scorers=self._scorers,
                    mode=self._mode,  # type: ignore[arg-type]
                    repetitions=self._repetitions,
                    client=self._client,
                    max_claims=self._max_claims,
                )
            )
            for outcome in batch.outcomes:
                outcomes[positions[outcome.index], outcome.repetition] = outcome

        take: list[int] = []
        cols: dict[str, list[Any]] = {name: [] for name in judge_columns(self._scorers)}
        for row, item in enumerate(cases):
            for rep in range(self._repetitions):
                take.append(row)
                found = outcomes.get((row, rep))
                cols["id"].append(item.id)
                cols["repetition"].append(rep)
                if found is None:
                    cols["status"].append("failed")
                    cols["error"].append(item.error or "unusable record")
                    for name in self._scorers:
                        cols[f"{name}_score"].append(None)
                        cols[f"{name}_status"].append("unscored")
                        cols[f"{name}_unscored_reason"].append("record_error")
                        cols[f"{name}_abstained"].append(None)
                        cols[f"{name}_result"].append(None)
                    for usage_name in USAGE_COLUMNS:
                        cols[usage_name].append(0)
                    continue
                cols["status"].append(found.status)
                cols["error"].append(found.error)
                for name in self._scorers:
                    result = found.results[name]
                    cols[f"{name}_score"].append(result.score)
                    cols[f"{name}_status"].append(result.status)
                    cols[f"{name}_unscored_reason"].append(result.unscored_reason)
                    cols[f"{name}_abstained"].append(result.abstained)
                    cols[f"{name}_result"].append(result.model_dump_json())
                usage = found.usage
                for usage_name in USAGE_COLUMNS:
                    cols[usage_name].append(getattr(usage, usage_name))
        types = {
            "id": pa.string(),
            "repetition": pa.int64(),
            "status": pa.string(),
            "error": pa.string(),
            "calls": pa.int64(),
            "cache_hits": pa.int64(),
            "prompt_tokens": pa.int64(),
            "completion_tokens": pa.int64(),
            "cost_usd": pa.float64(),
        }
        for name in self._scorers:
            types[f"{name}_score"] = pa.float64()
            types[f"{name}_status"] = pa.string()
            types[f"{name}_unscored_reason"] = pa.string()
            types[f"{name}_abstained"] = pa.bool_()
            types[f"{name}_result"] = pa.string()
        columns = {name: pa.array(values, types[name]) for name, values in cols.items()}
        source = table.take(pa.array(take, pa.int64())) if self._repetitions > 1 else table
        return replace_columns(
            source, columns, keep_input=self._keep_input, drop=self._record_column
        )


def judge_dataset(
    ds: ray.data.Dataset,
    *,
    config: ModelConfig,
    scorers: Sequence[str] = ("support", "contradiction"),
    mode: str = "separate",
    repetitions: int = 1,
    workers: int | None = None,
    batch_size: int = 64,
    worker_cpus: float = 0.25,
    record_column: str | None = None,
    strict: bool = False,
    keep_input: bool = True,
    burst_s: float = 1.0,
    max_claims: int | None = DEFAULT_MAX_CLAIMS,
) -> ray.data.Dataset:
    """The LLM judges on every record of ``ds`` (lazy, like any Dataset operation).

    Args:
        ds: records in any accepted field-name family (as for :func:`check_dataset`).
        config: the model settings; ``max_concurrency``, ``requests_per_minute`` and
            ``tokens_per_minute`` are totals for the whole cluster. The API key variable is read
            in each worker's environment (a local cluster inherits the driver's; on a
            multi-node cluster pass it with ``runtime_env={"env_vars": ...}``).
        scorers: ``support`` and/or ``contradiction``.
        mode: ``separate`` or ``shared`` (one three-way verdict call feeds both).
        repetitions: judge each record this many times (one output row per repetition).
        workers: judge actors (default one per cluster CPU, at most ``max_concurrency``).
        batch_size: records per batch.
        worker_cpus: CPUs Ray reserves per judge actor (default 0.25: they mostly wait on the
            endpoint, and the tasks reading the input need room too).
        record_column: a column of JSON text records (see :func:`check_dataset`).
        strict: accept only hybridjudge's own field names.
        keep_input: keep the input columns next to the results.
        burst_s: the cluster limiter's bucket holds this many seconds of permits.
        max_claims: an answer with more claims is unscored ``too_many_claims`` without a
            verdict call (``None``: no cap). There is no ``max_cost_usd`` on a cluster yet.

    Returns:
        A Dataset with the input columns and :func:`judge_columns`: ``id``, ``repetition``,
        ``status`` (``judged`` / ``failed``) and ``error``; per scorer ``<scorer>_score``,
        ``_status`` (``scored`` / ``unscored``), ``_unscored_reason``, ``_abstained`` and
        ``_result`` (the whole :class:`~hybridjudge.judges.JudgeResult` as JSON: claims,
        verdicts, failure detail, usage); and the usage columns :data:`USAGE_COLUMNS`.

    Raises:
        ConfigError: an unknown scorer or mode, ``repetitions``, ``workers`` or ``batch_size``
            below 1, a ``max_claims`` that is not a whole number >= 1 or ``None``.
    """
    import ray.data

    from hybridjudge._params import check_max_claims
    from hybridjudge.dist._check import cluster_cpus
    from hybridjudge.dist._limiter import start_limiter
    from hybridjudge.judges import scorer_names

    names = scorer_names(scorers)
    max_claims = check_max_claims(max_claims)
    if mode not in ("separate", "shared"):
        raise ConfigError(f"unknown mode {mode!r}; use 'separate' or 'shared'")
    for label, value in (("repetitions", repetitions), ("batch_size", batch_size)):
        if value < 1:
            raise ConfigError(f"{label} must be at least 1, got {value}")
    if workers is None:
        workers = max(1, int(cluster_cpus()))
    if workers < 1:
        raise ConfigError(f"workers must be at least 1, got {workers}")
    if worker_cpus <= 0:
        raise ConfigError(f"worker_cpus must be positive, got {worker_cpus}")
    workers = min(workers, config.max_concurrency)
    per_worker = config.max_concurrency // workers
    limiter = None
    if config.requests_per_minute or config.tokens_per_minute:
        limiter = start_limiter(
            config.requests_per_minute, config.tokens_per_minute, burst_s=burst_s
        )
    worker_config = config.model_copy(update={"max_concurrency": per_worker})
    return ds.map_batches(
        _JudgeBatch,
        batch_format="pyarrow",
        batch_size=batch_size,
        fn_constructor_kwargs={
            "config": worker_config,
            "scorers": names,
            "mode": mode,
            "repetitions": repetitions,
            "limiter": limiter,
            "record_column": record_column,
            "strict": strict,
            "keep_input": keep_input,
            "max_claims": max_claims,
        },
        compute=ray.data.ActorPoolStrategy(min_size=1, max_size=workers, initial_size=workers),
        num_cpus=worker_cpus,
        zero_copy_batch=True,
    )
