"""Synchronous entry points that also work inside a running event loop (a Jupyter notebook).

``asyncio.run`` refuses to start while the calling thread already runs a loop, which is always
the case in a notebook cell. :func:`run_sync` runs the coroutine with ``asyncio.run`` when no loop
is running, and otherwise on a short-lived worker thread with its own loop, blocking the caller
until it is done. Callbacks passed into the coroutine then run on that worker thread.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

__all__ = ["gather_all", "run_sync"]

T = TypeVar("T")


def run_sync(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run the coroutine built by ``make()`` to completion and return its result.

    Works both from plain synchronous code and from code that runs inside an event loop; the
    coroutine is built only in the thread that runs it. Exceptions propagate unchanged.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(make())
    context = contextvars.copy_context()
    with concurrent.futures.ThreadPoolExecutor(
        max_workers=1, thread_name_prefix="hybridjudge-sync"
    ) as pool:
        return pool.submit(context.run, lambda: asyncio.run(make())).result()


async def gather_all(*aws: Awaitable[T]) -> list[T]:
    """``asyncio.gather`` that cancels the others when one fails, then raises its exception.

    ``asyncio.gather`` lets the siblings of a failed awaitable run on (and send their requests)
    after the exception has reached the caller; here they are cancelled and awaited first, so a
    run that stops on an error (a damaged cache, a refused key) sends nothing more. The
    exception propagates unchanged (not wrapped in an ``ExceptionGroup``, as ``TaskGroup``
    would)."""
    tasks = [asyncio.ensure_future(a) for a in aws]
    try:
        return list(await asyncio.gather(*tasks))
    except BaseException:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise
