"""Run a Python snippet in a child process and SIGKILL it once it says it is mid-work."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"


def run_and_kill(code: str, *args: str, ready: Path, what: str, settle: float = 0.0) -> None:
    """Run ``code`` (``python -c``, the repository's ``src`` on its path) with ``args``, wait
    up to 60 s for it to create ``ready``, wait ``settle`` seconds more, and SIGKILL it.

    Raises:
        AssertionError: the child never created ``ready`` (``what`` says what it was doing),
            or it ended some other way than by the kill.
    """
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    proc = subprocess.Popen([sys.executable, "-c", code, *args], env=env)
    try:
        for _ in range(600):  # up to 60 s on a loaded machine
            if ready.exists() or proc.poll() is not None:
                break
            time.sleep(0.1)
        assert ready.exists(), f"the child never got there: {what}"
        time.sleep(settle)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == -signal.SIGKILL, f"the child ended with {proc.returncode}"
