"""Benchmark the bounded readers: peak memory on hostile files, and the cost of the guards on
the files this project ships, each against the code before the bounds.

Peer: the same calls on another source tree (``--baseline DIR``, default: the commit before the
bounds, exported with ``git archive`` into a temporary folder), run the same way in the same
kind of subprocess. Every measurement runs in a fresh interpreter, so the peak resident memory
(``VmHWM`` of ``/proc/self/status``, Linux; ``ru_maxrss`` would carry the parent's peak over
``exec``) is that of the one read; it is printed less the peak after the imports.

1. **A 200 MB JSONL line** (``--line-mb``) between two good lines, read by
   ``hybridjudge.corpus.read_cases`` with the default limits (64 MiB per record) and with
   ``max_record_bytes`` 1 MiB: memory bounded by the block and the limit, not by the line.
   The peer reads the line whole (issue 37: ``check`` took 45 s and 3.3 GB).
2. **A Parquet bomb**: one row whose answer is ``--bomb-mb`` MB of one letter, zstd-compressed
   to a few KB; read with ``max_file_bytes`` 64 MiB (refused from the metadata) and by the peer
   (decompressed whole).
3. **The guards on the shipped files**: ``read_cases`` and ``hybridjudge check`` on
   ``examples/check/opengate-cases.jsonl`` (what ``make check`` runs), ``load_corpus`` on
   ``corpus/opengate`` and ``corpus/halueval``, and ``read_raw_records`` on
   ``mutations/halueval.jsonl`` (41 KB lines); the best of ``--repeat`` calls per run,
   ``--rounds`` runs alternating ours and the peer; medians, and the ratio ours / peer (the
   target: within 5%; on a machine shared with other work, rerun before trusting a ratio).
4. **The same in one process**: every shipped JSONL file read line by line (with its sha256, as
   the corpus loader does) by the bounded path (``open_bounded`` + ``bounded_lines`` +
   ``iter_json_lines``) and by the path before it (``read_bytes`` whole, ``splitlines``,
   ``iter_json_lines``), interleaved, best of ``--repeat`` x ``--rounds``: no second
   interpreter, so no noise between processes.

Run::

    PYTHONPATH=src .venv/bin/python bench/bench_bounds.py
    PYTHONPATH=src .venv/bin/python bench/bench_bounds.py --line-mb 50 --bomb-mb 64 --rounds 3
    PYTHONPATH=src .venv/bin/python bench/bench_bounds.py --baseline /tmp/base/src
    PYTHONPATH=src .venv/bin/python bench/bench_bounds.py --only-in-process
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASE_COMMIT = "3695426"
"""The commit before the bounds (the peer by default)."""

MEMORY = r"""
import json, sys, time
def hwm():  # this process's peak resident memory in KB (not inherited from the parent)
    with open("/proc/self/status") as status:
        return next(int(l.split()[1]) for l in status if l.startswith("VmHWM:"))
from hybridjudge.corpus import read_cases
from hybridjudge import HybridJudgeError
kind, path, limits = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
if path.endswith(".parquet"):
    import pyarrow.parquet  # its import is not the read: before the baseline
kwargs = {}
if limits is not None:
    from hybridjudge.corpus import ReadLimits
    kwargs["limits"] = ReadLimits(**limits)
base = hwm()
start = time.perf_counter()
try:
    records = read_cases(path, **kwargs)
    outcome = f"{sum(r.case is not None for r in records)} read, " + ", ".join(
        sorted({r.error.code for r in records if r.error is not None})) or "no error"
except HybridJudgeError as exc:
    outcome = f"refused: {exc.code}"
seconds = time.perf_counter() - start
peak = hwm()
print(json.dumps({"peak_mb": (peak - base) / 1024, "seconds": seconds, "outcome": outcome}))
"""

TIMING = r"""
import contextlib, io, json, sys, time
from hybridjudge.cli import main
from hybridjudge.corpus import load_corpus, read_cases, read_raw_records
root, repeat = sys.argv[1], int(sys.argv[2])
cases = f"{root}/examples/check/opengate-cases.jsonl"
def check():
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        main(["check", cases])
work = {
    "read_cases opengate-cases.jsonl": lambda: read_cases(cases),
    "check opengate-cases.jsonl": check,
    "load_corpus corpus/opengate": lambda: load_corpus(f"{root}/corpus/opengate"),
    "load_corpus corpus/halueval": lambda: load_corpus(f"{root}/corpus/halueval"),
    "read_raw_records mutations/halueval.jsonl": lambda: list(
        read_raw_records(f"{root}/mutations/halueval.jsonl")),
}
for fn in work.values():
    fn()  # warm: imports, caches
out = {}
for name, fn in work.items():
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    out[name] = min(times)
print(json.dumps(out))
"""


def run(src: Path, code: str, *args: str) -> dict[str, object]:
    """Run *code* with ``PYTHONPATH=src`` in a fresh interpreter; its one line of JSON."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    result = subprocess.run(
        [sys.executable, "-c", code, *args], env=env, capture_output=True, text=True, check=False
    )
    if result.returncode != 0:
        return {"error": result.stderr.strip().splitlines()[-1:]}
    data: dict[str, object] = json.loads(result.stdout.strip().splitlines()[-1])
    return data


def baseline_tree(given: str | None, work: Path) -> Path:
    """The peer's ``src`` folder: *given*, or the commit before the bounds exported."""
    if given:
        return Path(given)
    target = work / "base"
    target.mkdir()
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", BASE_COMMIT, "src"], capture_output=True, check=True
    )
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive.stdout, check=True)
    return target / "src"


def write_long_line(path: Path, megabytes: int) -> None:
    good = json.dumps({"id": "a", "answer": "Refunds take 30 days.", "context": "30 days."})
    with path.open("w") as handle:
        handle.write(good + "\n")
        handle.write('{"id": "long", "context": "c", "answer": "')
        chunk = "x" * (1 << 20)
        for _ in range(megabytes):
            handle.write(chunk)
        handle.write('"}\n')
        handle.write(good.replace('"a"', '"b"') + "\n")


def write_bomb(path: Path, megabytes: int) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table(
        {"id": ["bomb"], "answer": ["a" * (megabytes << 20)], "context": ["Nothing here."]}
    )
    pq.write_table(table, path, compression="zstd")


def memory(ours: Path, peer: Path, label: str, path: Path, limits: object, skip: bool) -> None:
    mine = run(ours, MEMORY, "x", str(path), json.dumps(limits))
    line = f"{label:<44} ours: {_mem(mine)}"
    if not skip:
        theirs = run(peer, MEMORY, "x", str(path), json.dumps(None))
        line += f" | peer: {_mem(theirs)}"
    print(line, flush=True)


def _mem(result: dict[str, object]) -> str:
    if "error" in result:
        return f"failed ({result['error']})"
    return (
        f"peak +{float(str(result['peak_mb'])):7.1f} MB, {float(str(result['seconds'])):6.2f} s, "
        f"{result['outcome']}"
    )


SHIPPED = (
    "examples/check/opengate-cases.jsonl",
    "corpus/opengate/cases.jsonl",
    "corpus/opengate/outputs.jsonl",
    "corpus/halueval/cases.jsonl",
    "corpus/halueval/outputs.jsonl",
    "mutations/opengate.jsonl",
    "mutations/halueval.jsonl",
)


def in_process(repeat: int, rounds: int) -> None:
    """Section 4: the bounded line reader against the whole-file one, in this process."""
    import hashlib
    import time

    from hybridjudge._jsonl import bounded_lines, iter_json_lines, open_bounded, read_bytes

    def whole(path: Path) -> str:
        raw = read_bytes(path)
        list(iter_json_lines(raw.splitlines(), path=str(path)))
        return hashlib.sha256(raw).hexdigest()

    def bounded(path: Path) -> str:
        digest = hashlib.sha256()
        with open_bounded(path) as handle:
            lines = bounded_lines(handle, path=str(path), digest=digest)
            list(iter_json_lines(lines, path=str(path)))
        return digest.hexdigest()

    print(f"\nin one process: bounded vs whole-file reading (best of {repeat} x {rounds})")
    for name in SHIPPED:
        path = ROOT / name
        best = {"bounded": float("inf"), "whole": float("inf")}
        assert bounded(path) == whole(path)
        for _ in range(rounds):
            for label, read in (("bounded", bounded), ("whole", whole)):
                for _ in range(repeat):
                    start = time.perf_counter()
                    read(path)
                    best[label] = min(best[label], time.perf_counter() - start)
        ratio = best["bounded"] / best["whole"]
        print(f"  {name:<44} bounded {best['bounded'] * 1e3:7.3f} ms | whole "
              f"{best['whole'] * 1e3:7.3f} ms | bounded/whole {ratio:5.3f}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", help="the peer's src folder (default: git archive)")
    parser.add_argument("--line-mb", type=int, default=200)
    parser.add_argument("--bomb-mb", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument("--no-peer-memory", action="store_true", help="skip the peer's reads")
    parser.add_argument("--only-in-process", action="store_true", help="section 4 only")
    args = parser.parse_args()
    if args.only_in_process:
        in_process(args.repeat, args.rounds)
        return

    ours = ROOT / "src"
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        peer = baseline_tree(args.baseline, work)
        print(f"ours: {ours}; peer: {peer}")

        long_line = work / "long.jsonl"
        write_long_line(long_line, args.line_mb)
        size = f"{long_line.stat().st_size / 1e6:.0f} MB file"
        memory(ours, peer, f"{args.line_mb} MiB line ({size}), default limits", long_line, {},
               args.no_peer_memory)  # fmt: skip
        memory(ours, peer, f"{args.line_mb} MiB line, max_record_bytes 1 MiB", long_line,
               {"max_record_bytes": 1 << 20}, True)  # fmt: skip
        long_line.unlink()

        bomb = work / "bomb.parquet"
        write_bomb(bomb, args.bomb_mb)
        label = f"Parquet bomb ({bomb.stat().st_size / 1e3:.1f} KB -> {args.bomb_mb} MiB)"
        memory(ours, peer, label + ", max_file_bytes 64 MiB", bomb,
               {"max_file_bytes": 64 << 20}, args.no_peer_memory)  # fmt: skip

        mine: dict[str, list[float]] = {}
        theirs: dict[str, list[float]] = {}
        for _ in range(args.rounds):
            for tree, store in ((ours, mine), (peer, theirs)):
                result = run(tree, TIMING, str(ROOT), str(args.repeat))
                if "error" in result:
                    raise SystemExit(f"timing failed on {tree}: {result['error']}")
                for name, seconds in result.items():
                    store.setdefault(name, []).append(float(str(seconds)))
        print(
            f"\nguards on the shipped files (best of {args.repeat}, median of {args.rounds} runs)"
        )
        for name in mine:
            ms, ps = statistics.median(mine[name]), statistics.median(theirs[name])
            print(f"  {name:<44} ours {ms * 1e3:8.2f} ms | peer {ps * 1e3:8.2f} ms | "
                  f"ours/peer {ms / ps:5.3f}")  # fmt: skip
    in_process(args.repeat, args.rounds)


if __name__ == "__main__":
    main()
