"""Code run in a fresh interpreter (what a module imports or compiles at first use shows only
there), with the JSON it prints last read back."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any


def fresh_json(code: str) -> Any:
    """Run ``code`` in a new interpreter (this one's executable and environment) and return
    the JSON value of its last line of output; the run must succeed. Stored expressions
    (``hybridjudge.grounding._stored``) are off there: what it compiles is compiled, not read
    back from an earlier process."""
    env = {**os.environ, "HYBRIDJUDGE_EXPRESSION_CACHE": "off"}
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])
