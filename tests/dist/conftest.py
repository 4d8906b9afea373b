"""Fixtures of the distributed tests: one local Ray cluster (2 CPUs) for the whole session, and a
throwaway Redis server on a random 127.0.0.1 port.

Ray is started once (``ray.init`` takes several seconds) and shut down at the end of the session.
The whole folder is skipped, with the reason, when the ``[ray]`` extra is not installed.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.redis_server import redis_server

ray = pytest.importorskip("ray", reason="the [ray] extra is not installed: pip install -e '.[ray]'")


@pytest.fixture(scope="session")
def ray_cluster() -> Iterator[None]:
    """A local Ray cluster with 2 CPUs, shared by every test of the session."""
    import warnings

    # Ray runs its workers at niceness 15: on a busy CI machine they would crawl
    os.environ.setdefault("RAY_worker_niceness", "0")
    with warnings.catch_warnings():
        # Ray Data's own context sets a deprecated option of its own at import time
        warnings.simplefilter("ignore", DeprecationWarning)
        ray.init(
            num_cpus=2,
            include_dashboard=False,
            log_to_driver=False,
            configure_logging=False,
        )
        from ray.data import DataContext

        ctx = DataContext.get_current()
        ctx.enable_progress_bars = False
    yield
    ray.shutdown()


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    """A fresh redis-server on a random 127.0.0.1 port, no persistence; its URL."""
    with redis_server(tmp_path) as (url, _proc):
        yield url
