"""A throwaway ``redis-server`` on a random 127.0.0.1 port, without persistence, for tests.

Used by the ``redis_url`` fixtures (tests/dist, tests/model/test_cache.py). Skips the test with
the reason when ``redis-server`` is not installed (``.ci/run`` installs Debian's).
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

__all__ = ["redis_server"]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


@contextmanager
def redis_server(workdir: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """Start ``redis-server --port N --save '' --appendonly no``; yields its URL and process."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server; .ci/run does)")
    port = _free_port()
    proc = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        cwd=workdir,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError(f"redis-server did not start on port {port}") from None
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0", proc
    finally:
        if proc.poll() is None:
            proc.terminate()
        proc.wait(timeout=10)
