"""Parallel slots of the embedded model: judging throughput with 1, 2 and 4 slots (issue 13).

The embedded llama.cpp server decodes up to ``n_parallel`` requests together (continuous
batching). On 2 CPU cores, is more than one slot worth it? For each slot count (and thread
count), this starts a fresh :class:`~hybridjudge.model.LocalModelServer`, sends at most that many
requests at a time (``max_concurrency`` = slots), and judges the same OpenGATE outputs with both
judges in separate mode with a fresh reply cache, so every call is a real request. The model's
load time is measured apart (a first request warms the server). Printed per configuration: wall
seconds, model calls, prompt and completion tokens, calls per second, and the wall time as a
ratio to the named peer in this run: **1 slot with the same thread count**.

Default outputs: the 16 outputs of the cases ``grounding-legal-clause``,
``grounding-saas-refund``, ``grounding-unanswerable`` and ``simplify-discharge-brief`` (short and
medium answers, every defect class); ``--all`` for OpenGATE's 27.

Run on idle cores (other processes on the cores distort every figure; see
:class:`~hybridjudge.model.LocalModelServer` on ``n_threads``)::

    .venv/bin/python bench/bench_slots.py                       # slots 1, 2, 4; all threads
    .venv/bin/python bench/bench_slots.py --slots 1,2 --threads 1,2
    .venv/bin/python bench/bench_slots.py --cases grounding-saas-refund   # a quick look
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from hybridjudge.corpus import Case, Output, read_jsonl_models
from hybridjudge.judges import JudgeRecord, ajudge_many
from hybridjudge.model import LOCAL_MODEL_NAME, LocalModelServer, ModelClient, ModelConfig, Usage

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "corpus" / "opengate"
DEFAULT_CASES = (
    "grounding-legal-clause",
    "grounding-saas-refund",
    "grounding-unanswerable",
    "simplify-discharge-brief",
)


@dataclass(frozen=True)
class Run:
    """One configuration's measurement."""

    slots: int
    threads: int
    load_s: float
    wall_s: float
    usage: Usage
    unscored: int


def records(all_outputs: bool, wanted: tuple[str, ...] = DEFAULT_CASES) -> list[JudgeRecord]:
    """The outputs to judge, as judge records."""
    cases = {c.id: c for c in read_jsonl_models(CORPUS / "cases.jsonl", Case)}
    outputs = read_jsonl_models(CORPUS / "outputs.jsonl", Output)
    chosen = [o for o in outputs if all_outputs or o.case_id in wanted]
    return [
        JudgeRecord(
            id=o.id,
            answer=o.text,
            context=tuple(cases[o.case_id].context),
            question=cases[o.case_id].question,
        )
        for o in chosen
    ]


async def measure(batch: list[JudgeRecord], slots: int, threads: int) -> Run:
    """Judge ``batch`` once on a fresh server with ``slots`` slots and ``threads`` threads."""
    started = time.perf_counter()
    with (
        LocalModelServer(n_parallel=slots, n_threads=threads) as server,
        tempfile.TemporaryDirectory(prefix="bench-slots-") as cache,
    ):
        config = ModelConfig(
            backend="openai",
            base_url=server.base_url,
            model=LOCAL_MODEL_NAME,
            api_key_env="BENCH_SLOTS_NO_KEY",
            cache_dir=Path(cache),
            max_concurrency=slots,
            timeout=1800.0,
            price_input_per_mtok=0.0,
            price_output_per_mtok=0.0,
        )
        async with ModelClient(config) as client:
            await client.list_models()  # the server is up and answering
            load_s = time.perf_counter() - started
            t0 = time.perf_counter()
            result = await ajudge_many(
                batch, scorers=("support", "contradiction"), mode="separate", client=client
            )
            wall_s = time.perf_counter() - t0
            unscored = sum(
                r.status == "unscored" for o in result.outcomes for r in o.results.values()
            )
            return Run(slots, threads, load_s, wall_s, client.usage, unscored)


def main(argv: list[str] | None = None) -> int:
    """Measure and print; exit 0."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slots", default="1,2,4", help="slot counts, comma-separated")
    parser.add_argument(
        "--threads", default=str(os.cpu_count() or 1), help="thread counts, comma-separated"
    )
    parser.add_argument("--all", action="store_true", help="OpenGATE's 27 outputs")
    parser.add_argument(
        "--cases", default=",".join(DEFAULT_CASES), help="OpenGATE case ids, comma-separated"
    )
    args = parser.parse_args(argv)
    os.environ.setdefault("BENCH_SLOTS_NO_KEY", "local")
    batch = records(args.all, tuple(args.cases.split(",")))
    slot_counts = [int(s) for s in args.slots.split(",")]
    thread_counts = [int(t) for t in args.threads.split(",")]
    print(
        f"embedded model {LOCAL_MODEL_NAME}, {len(batch)} OpenGATE outputs, both judges, "
        f"separate mode, fresh cache per configuration; {os.cpu_count()} CPU(s)"
    )
    runs: list[Run] = []
    for threads in thread_counts:
        for slots in slot_counts:
            run = asyncio.run(measure(batch, slots, threads))
            runs.append(run)
            print(
                f"  measured slots={slots} threads={threads}: {run.wall_s:.1f} s",
                file=sys.stderr,
                flush=True,
            )
    print(
        f"\n{'slots':>5} {'threads':>7} {'load s':>7} {'wall s':>7} {'calls':>6} "
        f"{'prompt tok':>10} {'compl tok':>9} {'calls/s':>7} {'unscored':>8} "
        f"{'wall / 1 slot':>13}"
    )
    for run in runs:
        peer = next(
            (r for r in runs if r.slots == 1 and r.threads == run.threads), None
        )  # the named peer: 1 slot, same threads
        ratio = f"{run.wall_s / peer.wall_s:.2f}x" if peer is not None else "-"
        print(
            f"{run.slots:>5} {run.threads:>7} {run.load_s:>7.1f} {run.wall_s:>7.1f} "
            f"{run.usage.calls:>6} {run.usage.prompt_tokens:>10} "
            f"{run.usage.completion_tokens:>9} {run.usage.calls / run.wall_s:>7.2f} "
            f"{run.unscored:>8} {ratio:>13}"
        )
    best = min(runs, key=lambda r: r.wall_s)
    print(f"\nfastest: {best.slots} slot(s), {best.threads} thread(s), {best.wall_s:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
