"""Many answers scored by the peers in one run: one proxy, one model client, one cache."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from hybridjudge._errors import ConfigError
from hybridjudge._params import check_repetitions
from hybridjudge._sync import gather_all, run_sync
from hybridjudge.model import CostBudget, ModelConfig, Usage
from hybridjudge.peers._adapters import ascore_peer, require_peer
from hybridjudge.peers._proxy import PeerProxy
from hybridjudge.peers._results import PEERS, PeerName, PeerResult

__all__ = ["PeerBatch", "PeerOutcome", "PeerRecord", "ascore_peers_many", "score_peers_many"]


class PeerRecord(BaseModel):
    """One answer to score: the fields the peers read (other attributes are ignored, so a
    :class:`hybridjudge.judges.JudgeRecord` or a study output's case works as is)."""

    model_config = ConfigDict(frozen=True, extra="ignore", from_attributes=True)

    id: str = ""
    """The caller's identifier, copied to the outcome."""
    answer: str
    """The answer to judge."""
    context: tuple[str, ...]
    """The context passages."""
    question: str = ""
    """The question (a placeholder is used when empty or ``None``: both peers refuse an empty
    one)."""

    @field_validator("question", mode="before")
    @classmethod
    def _no_question(cls, value: object) -> object:
        # A case without a question (OpenGATE's simplification cases) carries ``None``.
        return "" if value is None else value


class PeerOutcome(BaseModel):
    """Every requested peer's result for one record in one repetition."""

    model_config = ConfigDict(frozen=True)

    index: int = Field(ge=0)
    """Position of the record in the input."""
    id: str
    """The record's id."""
    repetition: int = Field(ge=0)
    """Repetition index."""
    results: dict[str, PeerResult]
    """Peer name -> its result (scored or unscored with a reason)."""


class PeerBatch(BaseModel):
    """The outcomes of :func:`ascore_peers_many` with the run's usage."""

    model_config = ConfigDict(frozen=True)

    outcomes: tuple[PeerOutcome, ...]
    """One per record and repetition, ordered by repetition then record."""
    usage: Usage
    """Every model call of the run (all peers)."""
    usage_by_peer: dict[str, Usage]
    """Usage per peer."""
    wall_s: float
    """Wall seconds of the whole run."""


def _records(records: Iterable[Any]) -> list[PeerRecord]:
    out: list[PeerRecord] = []
    for index, record in enumerate(records):
        try:
            out.append(
                PeerRecord.model_validate(record)
                if isinstance(record, dict)
                else PeerRecord.model_validate(record, from_attributes=True)
            )
        except ValueError as exc:
            raise ConfigError(
                f"record {index} cannot be scored by the peers: {exc}".splitlines()[0]
                + " (it needs answer: str and context: list of str)",
                code="invalid_peer_record",
            ) from None
    return out


async def ascore_peers_many(
    records: Iterable[Any],
    *,
    config: ModelConfig,
    peers: Sequence[PeerName] = PEERS,
    repetitions: int = 1,
    progress: Callable[[int, int], None] | None = None,
    budget: CostBudget | None = None,
) -> PeerBatch:
    """Score every record with every peer, ``repetitions`` times, through one proxy.

    Evaluations run concurrently (the model client's ``max_concurrency`` bounds the requests).

    Args:
        records: objects or dicts with ``answer``, ``context`` and optionally ``id``,
            ``question``.
        config: the model settings (the same as our judges', to compare like with like).
        peers: which peers, e.g. ``("ragas",)``.
        repetitions: repetitions (1 to 1,000); each is a fresh sample (its own cache entries).
        progress: called as ``progress(done, total)`` after each evaluation.
        budget: the run's spending limit (:class:`~hybridjudge.model.CostBudget`): an
            evaluation whose request it refuses is unscored ``budget_exhausted``.

    Raises:
        ConfigError: an unknown or uninstalled peer, a bad record, a bad repetition count, or
            an endpoint unusable for every request.
    """
    chosen = list(dict.fromkeys(peers))
    if not chosen:
        raise ConfigError("no peer selected; choose ragas and/or deepeval", code="unknown_peer")
    for peer in chosen:
        require_peer(peer)
    check_repetitions(repetitions)
    items = _records(records)
    total = len(items) * repetitions * len(chosen)
    done = 0
    start = time.monotonic()
    semaphore = asyncio.Semaphore(max(1, config.max_concurrency))

    with PeerProxy(config, budget=budget) as proxy:

        async def one(record: PeerRecord, peer: PeerName, repetition: int) -> PeerResult:
            nonlocal done
            async with semaphore:
                result = await ascore_peer(
                    proxy,
                    peer,
                    answer=record.answer,
                    context=record.context,
                    question=record.question,
                    repetition=repetition,
                )
            done += 1
            if progress is not None:
                progress(done, total)
            return result

        jobs = [
            (index, repetition, peer)
            for repetition in range(repetitions)
            for index in range(len(items))
            for peer in chosen
        ]
        results = await gather_all(*(one(items[i], p, r) for i, r, p in jobs))
        usage = proxy.usage
        by_peer = proxy.usage_by_scope

    grouped: dict[tuple[int, int], dict[str, PeerResult]] = {}
    for (index, repetition, peer), result in zip(jobs, results, strict=True):
        grouped.setdefault((repetition, index), {})[peer] = result
    outcomes = tuple(
        PeerOutcome(index=index, id=items[index].id, repetition=repetition, results=found)
        for (repetition, index), found in sorted(grouped.items())
    )
    return PeerBatch(
        outcomes=outcomes,
        usage=usage,
        usage_by_peer={peer: by_peer.get(peer, Usage()) for peer in chosen},
        wall_s=time.monotonic() - start,
    )


def score_peers_many(
    records: Iterable[Any],
    *,
    config: ModelConfig,
    peers: Sequence[PeerName] = PEERS,
    repetitions: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> PeerBatch:
    """:func:`ascore_peers_many` from plain code (or inside a running event loop)."""
    return run_sync(
        lambda: ascore_peers_many(
            records, config=config, peers=peers, repetitions=repetitions, progress=progress
        )
    )
