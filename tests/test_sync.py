"""``hybridjudge._sync.gather_all``: one failure stops its siblings before the caller sees it.

The behaviour ``asyncio.gather`` lacks (its other awaitables run on after the first exception
has reached the caller) is what let a run that stopped on a damaged reply cache send one more
request for a sibling claim (``tests/faults/test_judge_failures.py``, under load).
"""

from __future__ import annotations

import asyncio

import pytest

from hybridjudge._sync import gather_all


class StopError(Exception):
    """The failure of one awaitable."""


def test_a_failure_cancels_the_siblings_before_it_is_raised() -> None:
    sent: list[str] = []
    cancelled: list[str] = []

    async def fails() -> str:
        await asyncio.sleep(0)
        raise StopError("damaged cache")

    async def sibling(name: str) -> str:
        try:
            await asyncio.sleep(0.05)  # still waiting for its reply when the other fails
        except asyncio.CancelledError:
            cancelled.append(name)
            raise
        sent.append(name)  # what it would send next
        return name

    async def main() -> None:
        with pytest.raises(StopError, match="damaged cache"):  # unchanged, not an ExceptionGroup
            await gather_all(sibling("a"), fails(), sibling("b"))
        await asyncio.sleep(0.1)  # had they run on, they would have sent by now

    asyncio.run(main())
    assert cancelled == ["a", "b"]
    assert sent == []


def test_results_keep_the_order_of_the_awaitables() -> None:
    async def after(delay: float, value: int) -> int:
        await asyncio.sleep(delay)
        return value

    assert asyncio.run(gather_all(after(0.02, 1), after(0.0, 2), after(0.01, 3))) == [1, 2, 3]
