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
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

__all__ = ["run_sync"]

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
