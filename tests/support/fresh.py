"""Code run in a fresh interpreter (what a module imports or compiles at first use shows only
there), with the JSON it prints last read back."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any


def fresh_json(code: str) -> Any:
    """Run ``code`` in a new interpreter (this one's executable and environment) and return
    the JSON value of its last line of output; the run must succeed."""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])
