"""Benchmark import time: the free half of hybridjudge against named peers, in fresh interpreters.

For each statement, runs ``python -X importtime -c STATEMENT`` in a fresh interpreter ``--runs``
times and takes the median of the **cumulative** microseconds CPython reports for the imported
module (the ``-X importtime`` line of that module: itself plus everything it imported that was not
loaded yet). Python's own start-up is excluded that way, so the figures compare imports only.

Ours: ``import hybridjudge.grounding`` (the target: under 150 ms on an idle machine),
``import hybridjudge``, ``import hybridjudge.metrics.retrieval``, ``import hybridjudge.cli`` (what
``hybridjudge check`` loads before reading a file). Peers, run the same way: ``import openai``
(what ``import hybridjudge.grounding`` used to pull in through the model layer) and
``import opengate_grounding`` (the reference implementation of the same checks, when installed).
Ratios are ours / peer. Also how many modules the import loads (which machine load cannot skew)
and the wall time of ``hybridjudge check`` on one case (interpreter start-up included).
``--baseline DIR`` also measures another source tree (e.g. the code before a change, exported
with ``git archive``) with ``PYTHONPATH=DIR``.

Run::

    .venv/bin/python bench/bench_import.py
    .venv/bin/python bench/bench_import.py --runs 15 --baseline /tmp/base/src
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_MS = 150.0
"""The issue's target for ``import hybridjudge.grounding`` (cumulative, idle machine)."""

OURS = (
    "hybridjudge.grounding",
    "hybridjudge",
    "hybridjudge.metrics.retrieval",
    "hybridjudge.cli",
)
PEERS = ("openai", "opengate_grounding")


def cumulative_us(module: str, *, env: dict[str, str] | None = None) -> int:
    """Cumulative import time of ``module`` in microseconds, from one fresh interpreter."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", f"import {module}"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    for line in reversed(done.stderr.splitlines()):
        # "import time:      self [us] |  cumulative | imported package"
        if not line.startswith("import time:"):
            continue
        fields = [f.strip() for f in line.removeprefix("import time:").split("|")]
        if len(fields) == 3 and fields[2] == module:
            return int(fields[1])
    raise RuntimeError(f"no -X importtime line for {module}:\n{done.stderr[-2000:]}")


def median_ms(module: str, runs: int, *, env: dict[str, str] | None = None) -> float:
    """Median over ``runs`` fresh interpreters, in milliseconds."""
    cumulative_us(module, env=env)  # warm the file-system cache and the .pyc files
    return statistics.median(cumulative_us(module, env=env) for _ in range(runs)) / 1000.0


def modules_loaded(module: str, *, env: dict[str, str] | None = None) -> int:
    """How many modules ``import module`` adds to ``sys.modules`` (a figure load cannot skew)."""
    code = (
        "import sys; before = set(sys.modules); "
        f"import {module}; print(len(set(sys.modules) - before))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    return int(done.stdout.strip())


def check_wall_ms(runs: int, *, env: dict[str, str] | None = None) -> float:
    """Median wall time of ``python -m hybridjudge check ONE_CASE --json`` (start-up included)."""
    with tempfile.TemporaryDirectory() as tmp:
        cases = Path(tmp) / "one.jsonl"
        line = {"id": "a", "answer": "It costs 12 EUR.", "context": "The price is 12 EUR."}
        cases.write_text(json.dumps(line) + "\n", encoding="utf-8")
        command = [sys.executable, "-m", "hybridjudge", "check", str(cases), "--json"]
        subprocess.run(command, capture_output=True, env=env, check=True)  # warm up
        walls = []
        for _ in range(runs):
            start = time.perf_counter()
            subprocess.run(command, capture_output=True, env=env, check=True)
            walls.append(time.perf_counter() - start)
    return statistics.median(walls) * 1000.0


def main(argv: list[str] | None = None) -> int:
    """Print each figure, the target check and the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="fresh interpreters per figure")
    parser.add_argument(
        "--baseline", type=Path, default=None, help="another src/ tree to measure as well"
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as pycache:
        # byte-code caches as an installed package has them: written by the warm-up run (into
        # a temporary prefix, not the source tree) even where PYTHONDONTWRITEBYTECODE is set,
        # as in some CI and sandbox shells; every run would otherwise recompile every module
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
        os.environ["PYTHONPYCACHEPREFIX"] = pycache
        return _measure(args)


def _measure(args: argparse.Namespace) -> int:
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, median of {args.runs} runs")
    print("cumulative import time (-X importtime), ms")
    ours = {module: median_ms(module, args.runs) for module in OURS}
    for module, ms in ours.items():
        print(f"  import {module:<36} {ms:8.1f}")
    peers: dict[str, float] = {}
    for module in PEERS:
        if importlib.util.find_spec(module) is None:
            print(f"  import {module:<36} (not installed)")
            continue
        peers[module] = median_ms(module, args.runs)
        print(f"  import {module:<36} {peers[module]:8.1f}   (peer)")
    grounding = ours["hybridjudge.grounding"]
    verdict = "meets" if grounding < TARGET_MS else "MISSES"
    print(
        f"import hybridjudge.grounding: {grounding:.1f} ms, {verdict} the {TARGET_MS:.0f} ms target"
    )
    for module, ms in peers.items():
        print(f"ratio hybridjudge.grounding / {module}: {grounding / ms:.2f}")
    loaded_now = modules_loaded("hybridjudge.grounding")
    print(f"modules loaded by import hybridjudge.grounding: {loaded_now}")
    check_now = check_wall_ms(args.runs)
    print(
        f"hybridjudge check on one case (wall, interpreter start-up included): {check_now:.0f} ms"
    )
    if args.baseline is not None:
        env = dict(os.environ, PYTHONPATH=str(args.baseline.resolve()))
        before = median_ms("hybridjudge.grounding", args.runs, env=env)
        print(
            f"baseline {args.baseline}: import hybridjudge.grounding {before:.1f} ms; "
            f"ratio now / baseline: {grounding / before:.2f}"
        )
        loaded_before = modules_loaded("hybridjudge.grounding", env=env)
        print(
            f"baseline {args.baseline}: modules loaded by import hybridjudge.grounding "
            f"{loaded_before} (now {loaded_now})"
        )
        check_before = check_wall_ms(args.runs, env=env)
        print(
            f"baseline {args.baseline}: hybridjudge check on one case {check_before:.0f} ms; "
            f"ratio now / baseline: {check_now / check_before:.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
