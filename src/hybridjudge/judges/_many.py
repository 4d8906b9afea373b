"""The one judging loop: many records, every scorer, R repetitions, bounded concurrency.

``hybridjudge judge`` and the mutation study both judge through :func:`ajudge_many`. Each record
is judged with :func:`~hybridjudge.judges.judge`; a record that cannot be judged at all (a field of
the wrong type, an unexpected error) becomes a ``failed`` outcome whose results are unscored with
``record_error``, and the others go on. Errors about the whole run (an invalid setting, an endpoint
that refuses every request, a reply cache found corrupt in the middle of the run) still raise.

Repetitions run one after the other (each has its own wall time); inside a repetition at most
``concurrency`` records are in flight, and the model client bounds the requests.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from pydantic import BaseModel, ValidationError

from hybridjudge._errors import ConfigError, HybridJudgeError, InputError
from hybridjudge._frames import as_record, record_id, record_list, records_problem
from hybridjudge._params import DEFAULT_MAX_CLAIMS, check_max_claims, check_repetitions
from hybridjudge._sync import gather_all, run_sync
from hybridjudge.judges._judge import Mode, judge, scorer_names
from hybridjudge.judges._results import (
    FailureDetail,
    JudgeBatch,
    JudgeOutcome,
    JudgeRecord,
    JudgeResult,
    ScorerName,
)

if TYPE_CHECKING:
    from hybridjudge.model import ModelClient, ModelConfig

__all__ = ["JudgeProgress", "OutcomeHook", "ajudge_many", "judge_many"]

logger = logging.getLogger(__name__)

JudgeProgress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` after each record and repetition is finished; an exception
it raises stops the batch (the calls already answered stay cached)."""

OutcomeHook = Callable[[JudgeOutcome], None]
"""``on_outcome(outcome)``: called with each finished outcome, in the order they finish (a
caller that is interrupted keeps what was finished: ``judge --json`` prints those lines)."""

RecordLike = JudgeRecord | Mapping[str, Any] | object
"""A :class:`JudgeRecord`, a mapping with its fields, or an object with those attributes."""

R = TypeVar("R", bound=BaseModel)


def _problems(exc: ValidationError) -> str:
    parts = []
    for error in exc.errors():
        field = ".".join(str(p) for p in error.get("loc", ())) or "record"
        parts.append(f"field {field!r}: {error.get('msg')}")
    return "; ".join(parts)


def check_batch_options(
    concurrency: int | None, client: ModelClient | None, config: ModelConfig | None
) -> None:
    """Refuse a ``concurrency`` that is not a whole number >= 1, and both a client and a config.

    Raises:
        ConfigError: naming the option and the fix.
    """
    if concurrency is not None and (
        isinstance(concurrency, bool) or not isinstance(concurrency, int) or concurrency < 1
    ):
        raise ConfigError(f"concurrency must be a whole number of at least 1, got {concurrency!r}")
    if client is not None and config is not None:
        raise ConfigError("pass either an open client or a config, not both")


def prepare_records(
    records: Iterable[RecordLike], model: type[R], *, call: str
) -> tuple[list[RecordLike], list[R | str]]:
    """The items of ``records`` and each as a ``model`` (or the one-line problem that keeps it
    from being one: that record becomes a failed outcome, and the others go on).

    Raises:
        InputError: ``records`` is a string, a single mapping or not iterable.
    """
    problem = records_problem(records, call=call)
    if problem is not None:
        raise InputError(problem)
    items = record_list(records)
    prepared: list[R | str] = []
    for index, item in enumerate(items):
        try:
            prepared.append(as_record(model, index, item))
        except ValidationError as exc:
            prepared.append(_problems(exc))
    return items, prepared


def _failed(
    index: int,
    record_id: str,
    repetition: int,
    scorers: Sequence[ScorerName],
    mode: Mode,
    error: str,
    metadata: Mapping[str, Any] | None = None,
    reason: Literal["record_error", "budget_exhausted"] = "record_error",
) -> JudgeOutcome:
    detail = FailureDetail(stage="record", error=error)
    results = {
        name: JudgeResult(
            scorer=name,
            mode=mode,
            status="unscored",
            unscored_reason=reason,
            detail=detail,
            scope="shared" if mode == "shared" else name,
            repetition=repetition,
        )
        for name in scorers
    }
    return JudgeOutcome(
        index=index,
        id=record_id,
        repetition=repetition,
        status="failed",
        results=results,
        error=error,
        metadata=dict(metadata or {}),
    )


async def ajudge_many(
    records: Iterable[RecordLike],
    *,
    scorers: Sequence[str] | str = ("support", "contradiction"),
    mode: Mode = "separate",
    repetitions: int = 1,
    client: ModelClient | None = None,
    config: ModelConfig | None = None,
    concurrency: int | None = None,
    progress: JudgeProgress | None = None,
    max_claims: int | None = DEFAULT_MAX_CLAIMS,
    max_cost_usd: float | None = None,
    on_outcome: OutcomeHook | None = None,
) -> JudgeBatch:
    """Judge every record with every scorer, ``repetitions`` times (async; see :func:`judge_many`).

    Args:
        records: :class:`JudgeRecord` values, mappings with their fields (``id``, ``answer``,
            ``context``, optional ``question`` and ``metadata``) or objects with those attributes.
        scorers: names from :data:`~hybridjudge.judges.SCORERS` (or one comma-separated string).
        mode: ``"separate"`` (one verdict call per scorer) or ``"shared"`` (one three-way call).
        repetitions: how many times each record is judged (the index is in every cache key).
        client: an open :class:`~hybridjudge.model.ModelClient` to use (left open); or
        config: a configuration to open one with (default :meth:`ModelConfig.local`).
        concurrency: records in flight at once (default twice the client's request limit).
        progress: ``progress(done, total)`` after each finished record and repetition.
        max_claims: an answer with more claims is unscored ``too_many_claims``, without a
            verdict call (default :data:`~hybridjudge.judges.DEFAULT_MAX_CLAIMS`; ``None``: no
            cap).
        max_cost_usd: stop before the request whose worst-case cost would cross this many US
            dollars (:class:`~hybridjudge.model.CostBudget`; cache hits cost nothing): the
            outputs not judged to the end are unscored ``budget_exhausted``. Only when this
            function opens the client; an open ``client`` carries its own ``budget``.
        on_outcome: ``on_outcome(outcome)`` with each finished :class:`JudgeOutcome`, as it
            finishes (before ``progress``): what a caller keeps if the run is interrupted.

    Returns:
        A :class:`JudgeBatch` with one outcome per record and repetition, in input order.

    Raises:
        ConfigError: unknown or repeated scorer, unknown mode, bad repetitions, concurrency,
            ``max_claims`` or ``max_cost_usd``, both ``client`` and ``config`` given, or
            ``client`` and ``max_cost_usd`` (give the client a ``budget``), a ``max_cost_usd``
            for a model without a known price (code ``budget_needs_price``).
        InputError: ``records`` is a string, a single mapping or not iterable (not a list of
            records).
        ModelError: the endpoint cannot be used at all (e.g. a rejected API key).
        CorruptCacheError: the reply cache turned out to be damaged (when opened or mid-run).
    """
    names = scorer_names(scorers)
    if mode not in ("separate", "shared"):
        raise ConfigError(f"unknown mode {mode!r}; use 'separate' or 'shared'")
    repetitions = check_repetitions(repetitions)
    check_batch_options(concurrency, client, config)
    max_claims = check_max_claims(max_claims)
    budget = None
    if max_cost_usd is not None:
        from hybridjudge.model import CostBudget

        if client is not None:
            raise ConfigError(
                "max_cost_usd applies to the client this function opens; an open client "
                "carries its own limit: ModelClient(config, budget=CostBudget(max_cost_usd))"
            )
        budget = CostBudget(max_cost_usd)

    items, prepared = prepare_records(records, JudgeRecord, call="judge_many")

    if client is None:
        from hybridjudge.model import ModelClient, ModelConfig

        own = ModelClient(config if config is not None else ModelConfig.local(), budget=budget)
        async with own:
            return await _run(
                items,
                prepared,
                names,
                mode,
                repetitions,
                own,
                concurrency,
                progress,
                max_claims,
                on_outcome,
            )
    return await _run(
        items,
        prepared,
        names,
        mode,
        repetitions,
        client,
        concurrency,
        progress,
        max_claims,
        on_outcome,
    )


async def _run(
    items: list[RecordLike],
    prepared: list[JudgeRecord | str],
    names: tuple[ScorerName, ...],
    mode: Mode,
    repetitions: int,
    client: ModelClient,
    concurrency: int | None,
    progress: JudgeProgress | None,
    max_claims: int | None = DEFAULT_MAX_CLAIMS,
    on_outcome: OutcomeHook | None = None,
) -> JudgeBatch:
    # loaded with the client already
    from hybridjudge.model import BudgetExhaustedError, CorruptCacheError

    limit = concurrency if concurrency is not None else 2 * client.config.max_concurrency
    total = len(prepared) * repetitions
    done = 0
    outcomes: dict[tuple[int, int], JudgeOutcome] = {}
    walls: list[float] = []

    async def one(index: int, repetition: int) -> JudgeOutcome:
        record = prepared[index]
        if isinstance(record, str):
            return _failed(index, record_id(index, items[index]), repetition, names, mode, record)
        try:
            results = await judge(
                client,
                answer=record.answer,
                context=record.context,
                question=record.question,
                scorers=names,
                mode=mode,
                repetition=repetition,
                max_claims=max_claims,
            )
        except BudgetExhaustedError as exc:  # --max-cost: no request sent for this record
            return _failed(
                index,
                record.id,
                repetition,
                names,
                mode,
                str(exc),
                record.metadata,
                reason="budget_exhausted",
            )
        except CorruptCacheError:
            raise  # about the whole run: every record would fail on it (exit 2 with the fix)
        except (InputError, ValidationError) as exc:
            error = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            return _failed(index, record.id, repetition, names, mode, error, record.metadata)
        except HybridJudgeError:
            raise  # about the whole run: a setting, the endpoint, the embedded model
        except Exception as exc:  # one record must not end the batch
            logger.exception("record %r (repetition %d) could not be judged", record.id, repetition)
            error = f"{type(exc).__name__}: {exc}"
            return _failed(index, record.id, repetition, names, mode, error, record.metadata)
        return JudgeOutcome(
            index=index,
            id=record.id,
            repetition=repetition,
            status="judged",
            results=results,
            metadata=record.metadata,
        )

    for repetition in range(repetitions):
        start = time.perf_counter()
        queue = iter(range(len(prepared)))

        async def worker(repetition: int = repetition, queue: Iterator[int] = queue) -> None:
            nonlocal done
            for index in queue:  # shared iterator: each index is taken by one worker
                outcomes[index, repetition] = await one(index, repetition)
                if on_outcome is not None:
                    on_outcome(outcomes[index, repetition])
                done += 1
                if progress is not None:
                    progress(done, total)

        await gather_all(*(worker() for _ in range(min(limit, len(prepared)))))
        walls.append(time.perf_counter() - start)

    ordered = tuple(outcomes[key] for key in sorted(outcomes))
    return JudgeBatch(
        scorers=names, mode=mode, repetitions=repetitions, outcomes=ordered, wall_s=tuple(walls)
    )


def judge_many(
    records: Iterable[RecordLike],
    *,
    scorers: Sequence[str] | str = ("support", "contradiction"),
    mode: Mode = "separate",
    repetitions: int = 1,
    config: ModelConfig | None = None,
    concurrency: int | None = None,
    progress: JudgeProgress | None = None,
    max_claims: int | None = DEFAULT_MAX_CLAIMS,
    max_cost_usd: float | None = None,
) -> JudgeBatch:
    """Judge many records with every scorer, ``repetitions`` times; returns a :class:`JudgeBatch`.

    The synchronous form of :func:`ajudge_many` (which also takes an open ``client``): it opens
    a :class:`~hybridjudge.model.ModelClient` for ``config`` (default the embedded model), and
    works in plain scripts and inside a running event loop (a notebook), where it runs on a
    worker thread. ``progress`` then runs on that thread. Example::

        from hybridjudge import judge_many, ModelConfig

        batch = judge_many(
            [{"id": "q1", "answer": "Refunds take 30 days.", "context": ["..."]}],
            config=ModelConfig(base_url="http://localhost:8000/v1", model="my-model"),
        )
        batch.to_pandas()   # one row per record, repetition and scorer
    """
    return run_sync(
        lambda: ajudge_many(
            records,
            scorers=scorers,
            mode=mode,
            repetitions=repetitions,
            config=config,
            concurrency=concurrency,
            progress=progress,
            max_claims=max_claims,
            max_cost_usd=max_cost_usd,
        )
    )
