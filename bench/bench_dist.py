"""Benchmark: hybridjudge.dist on a local Ray cluster against the single-process path.

Every figure is a ratio against the single-process path run in the same script on the same
generated records (``tests/dist/helpers.py``: three field-name families, four contexts shared by
many records, five answer shapes):

``checks``
    ``check_dataset`` over ``--check-records`` records (default 1,000,000, generated inside the
    workers from ``ray.data.range``) against ``check_grounding`` record by record in this process
    on ``--single-records`` of them (default 100,000; throughput is per record, so the sample
    size does not bias the ratio). Prints records/s both ways, the ratio, and the peak memory of
    each Ray worker (Ray Data's per-task USS) next to this process's peak RSS.
``judges``
    ``judge_dataset`` over ``--judge-records`` records (default 10,000) against ``judge_many`` in
    this process, both against the scripted OpenAI-compatible server (tests/support) running in
    its own process with a fixed ``--latency`` per reply (default 20 ms), shared mode, the same
    total ``--concurrency`` (default 32), each path on a cold cache of its own. Prints
    records/s, requests/s and the ratio: the endpoint's concurrency is the bottleneck, so Ray
    cannot beat it on one machine (nor on many: the limit is the endpoint's, not the CPU's).

The machine's load average is printed first and last: on a busy machine (other jobs on the 2
cores) read the ratios, not the absolute rates. Run from the repository root::

    .venv/bin/python bench/bench_dist.py                       # both (several minutes)
    .venv/bin/python bench/bench_dist.py --only checks --check-records 200000
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import re
import resource
import sys
import tempfile
import threading
import time
import warnings
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} CPUs"


def _peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class WorkerMemory:
    """Samples, twice a second, the proportional set size (PSS: private memory plus a fair share
    of shared pages, from /proc/PID/smaps_rollup) of every Ray worker process whose title names
    ``marker``; keeps each process's peak."""

    def __init__(self, marker: str) -> None:
        self.marker = marker
        self.peaks: dict[int, int] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> WorkerMemory:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.wait(0.5):
            for proc in Path("/proc").iterdir():
                if not proc.name.isdigit():
                    continue
                try:
                    if self.marker not in (proc / "cmdline").read_bytes().decode(
                        "utf-8", "replace"
                    ):
                        continue
                    rollup = (proc / "smaps_rollup").read_text()
                except OSError:
                    continue
                found = re.search(r"^Pss:\s+(\d+) kB", rollup, re.MULTILINE)
                if found:
                    pid = int(proc.name)
                    self.peaks[pid] = max(self.peaks.get(pid, 0), int(found.group(1)) * 1024)

    def summary(self) -> str:
        if not self.peaks:
            return "n/a (no worker process seen)"
        values = sorted(v / 2**20 for v in self.peaks.values())
        return (
            f"{values[0]:.0f}-{values[-1]:.0f} MiB PSS over {len(values)} worker process(es) "
            "(peak of each)"
        )


def _generate(batch: dict[str, Any]) -> dict[str, Any]:
    ids = batch["id"]
    first = int(ids[0])
    records = _records_from(first, len(ids))
    return {
        "id": [f"rec-{first + k}" for k in range(len(ids))],
        "answer": [r["answer"] for r in records],
        "context": [r["context"] for r in records],
        "question": ["What does the policy say?"] * len(ids),
    }


def _records_from(first: int, count: int) -> list[dict[str, Any]]:
    from tests.dist.helpers import ANSWERS, CONTEXTS, letters

    out = []
    for i in range(first, first + count):
        out.append(
            {
                "answer": ANSWERS[i % len(ANSWERS)].format(n=i % 40, name=letters(i)),
                "context": list(CONTEXTS[i % len(CONTEXTS)]),
            }
        )
    return out


def bench_checks(check_records: int, single_records: int) -> None:
    import ray

    from hybridjudge.dist import check_dataset, cluster_cpus
    from hybridjudge.grounding import check_grounding

    print(f"\n== checks: {check_records:,} records on Ray vs {single_records:,} in one process")
    sample = _records_from(0, single_records)
    start = time.perf_counter()
    grounded = 0
    for record in sample:
        report = check_grounding(
            record["answer"], record["context"], question="What does the policy say?"
        )
        grounded += report.grounded
    single_s = time.perf_counter() - start
    single_rate = single_records / single_s
    print(f"single process: {single_rate:,.0f} records/s ({single_s:.1f} s; {grounded:,} grounded)")
    print(f"  peak RSS of this process: {_peak_rss_mib():.0f} MiB")

    ds = ray.data.range(check_records, override_num_blocks=max(8, check_records // 20_000))
    ds = ds.map_batches(_generate, batch_format="numpy", batch_size=4096)
    start = time.perf_counter()
    with WorkerMemory("_CheckBatch") as memory:
        checked = check_dataset(ds, batch_size=4096).select_columns(["grounded"]).materialize()
    ray_s = time.perf_counter() - start
    count = checked.count()
    ray_grounded = int(checked.sum("grounded") or 0)
    ray_rate = count / ray_s
    workers = int(cluster_cpus())
    print(
        f"Ray ({workers} workers): {ray_rate:,.0f} records/s ({ray_s:.1f} s for {count:,}, "
        f"generation included; {ray_grounded:,} grounded)"
    )
    print(f"  ratio Ray / single process: {ray_rate / single_rate:.2f}x")
    print(f"  memory per Ray checker: {memory.summary()}")


def _serve(port_queue: Any, latency: float) -> None:
    from tests.dist.helpers import ScriptedJudge
    from tests.support.openai_server import FakeOpenAIServer

    server = FakeOpenAIServer()
    server.start()
    server.respond_with(ScriptedJudge(delay=latency))
    port_queue.put((server.base_url, os.getpid()))
    while True:
        time.sleep(3600)


def bench_judges(records_n: int, latency: float, concurrency: int) -> None:
    import ray
    from tests.dist.helpers import make_records

    from hybridjudge.dist import judge_dataset
    from hybridjudge.judges import judge_many
    from hybridjudge.model import ModelConfig

    print(
        f"\n== judges: {records_n:,} records, scripted server with {latency * 1000:.0f} ms per "
        f"reply, total concurrency {concurrency}, shared mode, cold caches"
    )
    queue: Any = multiprocessing.get_context("spawn").Queue()
    proc = multiprocessing.get_context("spawn").Process(
        target=_serve, args=(queue, latency), daemon=True
    )
    proc.start()
    base_url, _pid = queue.get(timeout=60)
    records = [
        {
            "id": f"rec-{i}",
            "answer": r.get("answer") or r.get("response") or r.get("actual_output"),
            "context": r.get("context")
            or r.get("retrieved_contexts")
            or r.get("retrieval_context"),
            "question": "What does the policy say?",
        }
        for i, r in enumerate(make_records(records_n))
    ]
    try:
        with tempfile.TemporaryDirectory() as tmp:

            def config(name: str) -> ModelConfig:
                return ModelConfig(
                    backend="openai",
                    base_url=base_url,
                    model="fake-model",
                    price_input_per_mtok=1.0,
                    price_output_per_mtok=2.0,
                    max_concurrency=concurrency,
                    timeout=60.0,
                    cache_dir=Path(tmp) / name,
                )

            start = time.perf_counter()
            batch = judge_many(records, mode="shared", config=config("single"))
            single_s = time.perf_counter() - start
            calls = batch.usage.calls
            print(
                f"single process: {records_n / single_s:,.0f} records/s, {calls / single_s:,.0f} "
                f"requests/s ({single_s:.1f} s, {calls:,} requests)"
            )
            ds = ray.data.from_items(records, override_num_blocks=16)
            start = time.perf_counter()
            judged = judge_dataset(ds, config=config("ray"), mode="shared", batch_size=250)
            with WorkerMemory("_JudgeBatch") as memory:
                done = judged.select_columns(["calls"]).materialize()
            ray_s = time.perf_counter() - start
            ray_calls = int(done.sum("calls") or 0)
            print(
                f"Ray: {records_n / ray_s:,.0f} records/s, {ray_calls / ray_s:,.0f} requests/s "
                f"({ray_s:.1f} s, {ray_calls:,} requests)"
            )
            print(f"  ratio Ray / single process: {single_s / ray_s:.2f}x")
            print(f"  memory per Ray judge worker: {memory.summary()}")
    finally:
        proc.kill()
        proc.join()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="checks,judges")
    parser.add_argument("--check-records", type=int, default=1_000_000)
    parser.add_argument("--single-records", type=int, default=100_000)
    parser.add_argument("--judge-records", type=int, default=10_000)
    parser.add_argument("--latency", type=float, default=0.02)
    parser.add_argument("--concurrency", type=int, default=32)
    args = parser.parse_args()
    parts = set(args.only.split(","))

    import ray

    print(f"start: {_load()}")
    # Ray runs its workers at niceness 15; this process runs at 0: level the field. And Ray's
    # memory monitor kills workers when the *machine* is short of memory (other jobs included):
    # a killed checker would be restarted and its batch redone, which measures the neighbours.
    os.environ.setdefault("RAY_worker_niceness", "0")
    os.environ.setdefault("RAY_memory_monitor_refresh_ms", "0")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        ray.init(
            num_cpus=os.cpu_count(),
            include_dashboard=False,
            log_to_driver=False,
            runtime_env={"env_vars": {"PYTHONPATH": str(ROOT)}},
        )
    from ray.data import DataContext

    DataContext.get_current().enable_progress_bars = False
    try:
        if "checks" in parts:
            bench_checks(args.check_records, args.single_records)
        if "judges" in parts:
            bench_judges(args.judge_records, args.latency, args.concurrency)
    finally:
        ray.shutdown()
    print(f"\nend: {_load()}")


if __name__ == "__main__":
    main()
