"""Benchmark: hybridjudge.metrics.retrieval.evaluate vs ranx and pytrec_eval (pytrec-eval-terrier).

A synthetic run (default 100,000 queries x 100 documents, seeded) with graded qrels (grades 0-3,
10 judged documents per query: 7 retrieved, 3 not), evaluated end to end from in-memory dicts
``{qid: {docid: score}}`` / ``{qid: {docid: grade}}`` with the same metrics in each tool:

    ours         ndcg@10, map, mrr, p@10, recall@100, hit@10
    pytrec_eval  ndcg_cut.10, map, recip_rank, P.10, recall.100, success.10
    ranx         ndcg@10, map, mrr, precision@10, recall@100, hit_rate@10

Isolation: each tool runs in its own subprocess (``--worker TOOL``) that builds the same data
from the same seed, warms up on a 50-query slice (numba compiles ranx's kernels on first use),
resets the peak-RSS counter (``/proc/self/clear_refs``), then times ``--repeat`` full
evaluations (best wall time, ``time.perf_counter``, and best CPU time, ``time.process_time``; on
a shared machine the CPU time is the steadier figure), each including building the tool's input
objects from the dicts and collecting the per-query values. Peak memory is the process's VmHWM during that evaluation;
"extra" is VmHWM minus the resident size just before it (what the evaluation itself added on
top of the input dicts). The means of the three tools are compared as a sanity check.

Usage::

    .venv/bin/python bench/bench_retrieval.py                # 100,000 queries (a few minutes)
    .venv/bin/python bench/bench_retrieval.py --queries 5000 # quick run
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

DOCS_PER_QUERY = 100
JUDGED_RETRIEVED = 7
JUDGED_UNRETRIEVED = 3
POOL = 1_000_000

OURS = ["ndcg@10", "map", "mrr", "p@10", "recall@100", "hit@10"]
PYTREC = {
    "ndcg@10": "ndcg_cut_10",
    "map": "map",
    "mrr": "recip_rank",
    "p@10": "P_10",
    "recall@100": "recall_100",
    "hit@10": "success_10",
}
RANX = {
    "ndcg@10": "ndcg@10",
    "map": "map",
    "mrr": "mrr",
    "p@10": "precision@10",
    "recall@100": "recall@100",
    "hit@10": "hit_rate@10",
}
TOOLS = ("ours", "pytrec_eval", "ranx")


def make_data(
    n_queries: int, seed: int
) -> tuple[dict[str, dict[str, int]], dict[str, dict[str, float]]]:
    """Seeded synthetic qrels and run (see the module docstring)."""
    rng = np.random.default_rng(seed)
    names = [f"d{i:07d}" for i in range(POOL)]
    base = rng.integers(0, POOL, size=n_queries)
    # steps coprime with POOL = 2**6 * 5**6 give 100 distinct documents per query
    step = rng.integers(1, 5000, size=n_queries) * 2 + 1
    step = np.where(step % 5 == 0, step + 2, step)
    docs = (base[:, None] + np.arange(DOCS_PER_QUERY)[None, :] * step[:, None]) % POOL
    scores = rng.random((n_queries, DOCS_PER_QUERY)).round(6)  # some ties, as in real runs
    extra = (docs[:, :JUDGED_UNRETRIEVED] + POOL // 2 + 1) % POOL  # never retrieved
    judged_pos = np.argsort(rng.random((n_queries, DOCS_PER_QUERY)), axis=1)[:, :JUDGED_RETRIEVED]
    judged = np.concatenate([np.take_along_axis(docs, judged_pos, axis=1), extra], axis=1)
    grades = rng.integers(0, 4, size=judged.shape)
    run: dict[str, dict[str, float]] = {}
    qrels: dict[str, dict[str, int]] = {}
    for q in range(n_queries):
        qid = f"q{q}"
        run[qid] = dict(zip([names[d] for d in docs[q].tolist()], scores[q].tolist(), strict=True))
        qrels[qid] = dict(
            zip([names[d] for d in judged[q].tolist()], grades[q].tolist(), strict=True)
        )
    return qrels, run


def _rss_kb(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return -1


def _evaluate_ours(qrels: Any, run: Any) -> dict[str, float]:
    from hybridjudge.metrics.retrieval import evaluate

    result = evaluate(qrels, run, OURS)
    return dict(result.means)


def _evaluate_pytrec(qrels: Any, run: Any) -> dict[str, float]:
    import pytrec_eval

    evaluator = pytrec_eval.RelevanceEvaluator(
        qrels, {"ndcg_cut.10", "map", "recip_rank", "P.10", "recall.100", "success.10"}
    )
    per_query = evaluator.evaluate(run)
    return {
        ours: float(np.mean([values[theirs] for values in per_query.values()]))
        for ours, theirs in PYTREC.items()
    }


def _evaluate_ranx(qrels: Any, run: Any) -> dict[str, float]:
    from ranx import Qrels, Run, evaluate

    means = evaluate(Qrels(qrels), Run(run), list(RANX.values()))
    return {ours: float(means[theirs]) for ours, theirs in RANX.items()}


def worker(tool: str, n_queries: int, seed: int, repeat: int) -> dict[str, Any]:
    """Build the data, warm up, then time ``repeat`` evaluations; returns figures as a dict."""
    fn = {"ours": _evaluate_ours, "pytrec_eval": _evaluate_pytrec, "ranx": _evaluate_ranx}[tool]
    qrels, run = make_data(n_queries, seed)
    warm = [f"q{i}" for i in range(min(50, n_queries))]
    fn({q: qrels[q] for q in warm}, {q: run[q] for q in warm})
    Path("/proc/self/clear_refs").write_text("5")  # reset VmHWM to the current RSS
    before = _rss_kb("VmRSS")
    walls, cpus = [], []
    means: dict[str, float] = {}
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        means = fn(qrels, run)
        cpus.append(time.process_time() - cpu)
        walls.append(time.perf_counter() - wall)
    peak = _rss_kb("VmHWM")
    return {
        "tool": tool,
        "seconds": min(walls),
        "cpu_seconds": min(cpus),
        "peak_mb": peak / 1024,
        "extra_mb": (peak - before) / 1024,
        "means": means,
    }


def main() -> int:
    """Run every tool in its own subprocess and print times, ratios and memory."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=100_000, help="number of queries")
    parser.add_argument("--seed", type=int, default=0, help="data seed")
    parser.add_argument("--tools", default=",".join(TOOLS), help="comma-separated subset")
    parser.add_argument(
        "--repeat", type=int, default=3, help="timed evaluations per tool (the best is kept)"
    )
    parser.add_argument("--worker", choices=TOOLS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(args.worker, args.queries, args.seed, args.repeat)))
        return 0

    env = dict(os.environ)
    print(
        f"{args.queries:,} queries x {DOCS_PER_QUERY} docs, graded qrels "
        f"({JUDGED_RETRIEVED + JUDGED_UNRETRIEVED} judged/query), seed {args.seed}; "
        f"metrics {', '.join(OURS)}"
    )
    print(f"OPENBLAS_CORETYPE={env.get('OPENBLAS_CORETYPE', '(unset)')}; one subprocess per tool")
    results: dict[str, dict[str, Any]] = {}
    for tool in args.tools.split(","):
        command = [
            sys.executable,
            __file__,
            "--worker",
            tool,
            "--queries",
            str(args.queries),
            "--seed",
            str(args.seed),
        ]
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
        if done.returncode != 0:
            print(f"{tool}: failed\n{done.stderr[-2000:]}")
            continue
        results[tool] = json.loads(done.stdout.strip().splitlines()[-1])
        r = results[tool]
        print(
            f"{tool:12s} wall {r['seconds']:7.2f} s  cpu {r['cpu_seconds']:7.2f} s  "
            f"peak RSS {r['peak_mb']:6.0f} MB (evaluation added {r['extra_mb']:5.0f} MB)"
        )
    if "ours" in results:
        ours = results["ours"]
        for tool, r in results.items():
            if tool == "ours":
                continue
            worst = max(abs(ours["means"][m] - r["means"][m]) for m in OURS)
            print(
                f"ours/{tool}: wall {ours['seconds'] / r['seconds']:.3f} "
                f"({r['seconds'] / ours['seconds']:.1f}x faster), "
                f"cpu {ours['cpu_seconds'] / r['cpu_seconds']:.3f} "
                f"({r['cpu_seconds'] / ours['cpu_seconds']:.1f}x); "
                f"max |difference of means| {worst:.2e}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
