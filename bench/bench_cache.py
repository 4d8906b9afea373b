"""Benchmark the reply cache's guards: reads and writes of ``replies.db`` (the project's own
layout, every row validated) against diskcache (the previous layout, which unpickles any row), in
the same process on the same entries.

A rerun from the cache is a stream of ``get`` calls (the main job's rerun: about 900 of them), and
a cold run a stream of ``set`` calls. For each store the benchmark fills a fresh folder with
``--entries`` replies of the main job's size (a claim's verdict: about 600 bytes of JSON), then
times ``--rounds`` passes of one ``get`` per entry, interleaving the two stores so machine load
hits both alike, and prints the median microseconds per call and the ratio ours / diskcache.
Also the time to open each cache (ours checks the whole file with ``quick_check`` and its schema)
and the peak memory of reading a crafted row of 100 MB (refused unread: the bound, not the row).

Run::

    .venv/bin/python bench/bench_cache.py
    .venv/bin/python bench/bench_cache.py --entries 5000 --rounds 9
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import sqlite3
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path

import diskcache

from hybridjudge.model import CachedReply, CorruptCacheError, ReplyCache


def reply(i: int) -> CachedReply:
    """A stored verdict of the main job's size."""
    verdict = f'{{"verdicts": [{{"verdict": "yes", "reason": "stated in sentence {i}"}}]}}'
    return CachedReply(
        content=verdict * 4,
        finish_reason="stop",
        model="qwen2.5-coder-1.5b-instruct-q4_k_m",
        endpoint="local://qwen@" + "0" * 64,
        prompt_name="support_verdicts",
        prompt_version="7",
        repetition=0,
        prompt_tokens=220,
        completion_tokens=24,
        cost_usd=0.0,
        latency_s=2.5,
        created_at="2026-12-01T00:00:00+00:00",
    )


def key(i: int) -> str:
    return hashlib.sha256(str(i).encode()).hexdigest()


def timed_gets(get: object, keys: list[str]) -> float:
    """Microseconds per ``get`` over ``keys``."""
    assert callable(get)
    start = time.perf_counter()
    for k in keys:
        if get(k) is None:
            raise SystemExit(f"miss on {k}")
    return (time.perf_counter() - start) / len(keys) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    keys = [key(i) for i in range(args.entries)]
    with tempfile.TemporaryDirectory() as tmp:
        ours_dir, peer_dir = Path(tmp) / "ours", Path(tmp) / "diskcache"
        start = time.perf_counter()
        with ReplyCache(ours_dir) as ours:
            for i, k in enumerate(keys):
                ours.set(k, reply(i))
        set_ours = (time.perf_counter() - start) / len(keys) * 1e6
        start = time.perf_counter()
        with diskcache.Cache(str(peer_dir)) as peer:
            for i, k in enumerate(keys):
                peer.set(k, reply(i).model_dump_json())
        set_peer = (time.perf_counter() - start) / len(keys) * 1e6

        start = time.perf_counter()
        ours = ReplyCache(ours_dir)
        open_ours = (time.perf_counter() - start) * 1e3
        start = time.perf_counter()
        peer = diskcache.Cache(str(peer_dir))
        open_peer = (time.perf_counter() - start) * 1e3

        def peer_get(k: str) -> CachedReply | None:
            raw = peer.get(k)  # what the previous ReplyCache.get did: fetch, then validate
            return None if raw is None else CachedReply.model_validate_json(str(raw))

        get_ours: list[float] = []
        get_peer: list[float] = []
        for _ in range(args.rounds):
            get_ours.append(timed_gets(ours.get, keys))
            get_peer.append(timed_gets(peer_get, keys))
        ours.close()
        peer.close()

        crafted = Path(tmp) / "crafted"
        with ReplyCache(crafted):
            pass
        with sqlite3.connect(crafted / "replies.db") as db:
            db.execute("INSERT INTO replies VALUES ('big', ?)", ("x" * 100_000_000,))
        db.close()
        tracemalloc.start()
        with ReplyCache(crafted) as cache, contextlib.suppress(CorruptCacheError):
            cache.get("big")
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()

    med_ours, med_peer = statistics.median(get_ours), statistics.median(get_peer)
    print(f"entries {args.entries}, rounds {args.rounds} (interleaved), medians:")
    print(
        f"  get   ours {med_ours:7.1f} us   diskcache {med_peer:7.1f} us   ratio {med_ours / med_peer:.2f}x"
    )
    print(
        f"  set   ours {set_ours:7.1f} us   diskcache {set_peer:7.1f} us   ratio {set_ours / set_peer:.2f}x"
    )
    print(
        f"  open  ours {open_ours:7.1f} ms   diskcache {open_peer:7.1f} ms (ours: quick_check + schema)"
    )
    print(f"  a crafted 100 MB row, refused unread: peak {peak / 1e6:.2f} MB traced")


if __name__ == "__main__":
    main()
