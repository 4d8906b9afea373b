"""Benchmark the main job served from its reply cache: this tree against another (the code before
the guards of issue 37), the same study, interleaved.

The main job (`make study`) served from its cache is the path a team reruns most: every judge
call a cache hit, then the analysis and the reports. The embedded model would take 10 minutes
cold to fill the cache, so this benchmark fills it from a scripted OpenAI-compatible server on
127.0.0.1 (the tests' ``TextJudge``: a claim is faithful when it is a sentence of a base
answer; a valid reply to every prompt, so every call is cached), with the main job's
corpora, mutants, scorers, sample and mode. Then it copies the cache into the layout the other
tree reads (diskcache's ``cache.db`` for a tree before this release, detected from its source)
and times ``study run`` from the cache with each tree in fresh interpreters, alternating
``--rounds`` times, and prints the medians and the ratio ours / base. The server stays up but is
never asked (the run fails if a request reaches it).

Run::

    git worktree add /tmp/base 3695426
    .venv/bin/python bench/bench_study_cache.py --base /tmp/base/src
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.byo._judge import TextJudge  # noqa: E402
from tests.support.openai_server import FakeOpenAIServer  # noqa: E402

KEY_ENV = "HYBRIDJUDGE_BENCH_KEY"


def study_argv(base_url: str, cache: Path, out: Path) -> list[str]:
    """The Makefile's main job, pointed at the scripted server."""
    return [
        "study",
        "run",
        *("--corpus", str(REPO / "corpus/opengate"), "--corpus", str(REPO / "corpus/halueval")),
        *("--mutations", str(REPO / "mutations/opengate.jsonl")),
        *("--mutations", str(REPO / "mutations/halueval.jsonl")),
        *("--scorers", "deterministic,support,contradiction"),
        *("--repetitions", "1", "--judge-sample", "opengate=6,halueval=20"),
        *("--judge-mode", "separate", "--max-unscored", "1"),
        *("--backend", "openai", "--base-url", base_url, "--model", "fake-model"),
        *("--api-key-env", KEY_ENV, "--cache-dir", str(cache), "--out", str(out), "--quiet"),
    ]


def run(src: Path, argv: list[str]) -> float:
    """Seconds of one ``hybridjudge ARGV`` with ``src`` first on the path."""
    env = {**os.environ, "PYTHONPATH": str(src), KEY_ENV: "sk-bench"}
    code = "import sys; from hybridjudge.cli import main; sys.exit(main(sys.argv[1:]))"
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", code, *argv], env=env, capture_output=True, text=True, check=False
    )
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):  # 1: a gate-style finding; the reports are written
        raise SystemExit(f"study run failed ({done.returncode}) with {src}:\n{done.stderr[-2000:]}")
    return elapsed


def base_answers() -> list[str]:
    """The base outputs' answers of the main job's corpora (what the scripted judge accepts)."""
    import json

    answers = []
    for corpus in ("opengate", "halueval"):
        for line in (REPO / "corpus" / corpus / "outputs.jsonl").read_text().splitlines():
            record = json.loads(line) if line.strip() else {}
            if str(record.get("id", "")).endswith("::base"):
                answers.append(str(record.get("text", "")))
    return answers


def to_previous_layout(ours: Path, previous: Path) -> int:
    """Copy every reply of ``replies.db`` into a diskcache ``cache.db`` (the layout before)."""
    import diskcache

    with sqlite3.connect(ours / "replies.db") as db:
        rows = db.execute("SELECT key, entry FROM replies").fetchall()
    db.close()
    with diskcache.Cache(str(previous)) as cache:
        for key, entry in rows:
            cache.set(key, entry)
    return len(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", type=Path, required=True, help="the other tree's src folder")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    ours_src = REPO / "src"
    base_reads_previous = (
        "replies.db" not in (args.base / "hybridjudge/model/_cache.py").read_text()
    )
    with tempfile.TemporaryDirectory() as tmp, FakeOpenAIServer() as server:
        server.respond_with(TextJudge(base_answers()))
        root = Path(tmp)
        ours_cache, base_cache = root / "cache-ours", root / "cache-base"
        run(ours_src, study_argv(server.base_url, ours_cache, root / "fill"))
        filled = server.request_count
        if base_reads_previous:
            entries = to_previous_layout(ours_cache, base_cache)
        else:
            shutil.copytree(ours_cache, base_cache)
            entries = filled
        times: dict[str, list[float]] = {"ours": [], "base": []}
        for i in range(args.rounds):
            for name, src, cache in (
                ("ours", ours_src, ours_cache),
                ("base", args.base, base_cache),
            ):
                times[name].append(
                    run(src, study_argv(server.base_url, cache, root / f"{name}{i}"))
                )
        if server.request_count != filled:
            raise SystemExit(f"a rerun asked the server {server.request_count - filled} times")
    ours, base = statistics.median(times["ours"]), statistics.median(times["base"])
    print(
        f"main job from its cache ({filled} replies filled, {entries} in the base's layout), "
        f"{args.rounds} interleaved rounds, fresh interpreters:"
    )
    print(f"  ours {ours:.2f} s  base {base:.2f} s  ratio {ours / base:.3f}")
    print(f"  ours {[round(t, 2) for t in times['ours']]}")
    print(f"  base {[round(t, 2) for t in times['base']]}")


if __name__ == "__main__":
    main()
