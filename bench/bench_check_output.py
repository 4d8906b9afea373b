"""Benchmark the ``check`` output on answers with many findings: linear, not quadratic.

An answer of ``1,1,1,...`` (every ``1`` a number the context lacks: one finding each) of 50,000,
100,000 and 200,000 characters is checked once (``check_grounding``), then printed three ways
into a string buffer 200 columns wide (as ``hybridjudge check`` prints to a file or a pipe):

- ``peer``: the table as it was built before (every finding joined by line breaks into one
  escaped cell): rich splits that one text at each line break by copying the rest, so it is
  quadratic (issue 37: 100k characters 11.9 s, 200k 40 s);
- ``all``: the table as now built with ``--max-findings all`` (each finding its own ``Text`` in
  a ``Group``);
- ``capped``: the default, the first 50 findings and ``... and N more``.

Printed: seconds per size, and the slope of log(time) against log(size) between the smallest
and the largest size (1.0 = linear, 2.0 = quadratic), and the ratio peer / all at each size.

Run::

    PYTHONPATH=src .venv/bin/python bench/bench_check_output.py
    PYTHONPATH=src .venv/bin/python bench/bench_check_output.py --sizes 50000 100000 --no-peer
"""

from __future__ import annotations

import argparse
import functools
import io
import math
import sys
import time
from collections.abc import Callable
from contextlib import redirect_stdout

from hybridjudge.cli._check import _table
from hybridjudge.grounding import GroundingReport, check_grounding


def peer_table(rows: list[tuple[int, str, GroundingReport]]) -> None:
    """The table of ``check`` before the change: one joined, escaped cell of findings."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    table = Table(title="grounding checks", show_lines=False)
    for name in ("line", "id", "grounded", "abstained", "findings"):
        table.add_column(name)
    for line, case_id, report in rows:
        findings = "\n".join(f"{f.kind}: {f.message}" for f in report.findings) or "-"
        table.add_row(str(line), escape(case_id), "NO", "no", escape(findings))
    Console(file=sys.stdout, highlight=False, emoji=False, soft_wrap=False, width=200).print(table)


def timed(render: Callable[[], None]) -> tuple[float, int]:
    """Seconds to print into a buffer, and the characters printed."""
    buffer = io.StringIO()
    start = time.perf_counter()
    with redirect_stdout(buffer):
        render()
    return time.perf_counter() - start, len(buffer.getvalue())


def slope(sizes: list[int], seconds: list[float]) -> float:
    """Exponent of time against size between the first and the last size."""
    return math.log(seconds[-1] / seconds[0]) / math.log(sizes[-1] / sizes[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[50_000, 100_000, 200_000])
    parser.add_argument("--no-peer", action="store_true", help="skip the quadratic peer")
    args = parser.parse_args()

    results: dict[str, list[float]] = {"check": [], "capped": [], "all": [], "peer": []}
    for size in args.sizes:
        answer = ",".join(["1"] * ((size + 1) // 2))
        start = time.perf_counter()
        report = check_grounding(answer, ["The context has no figure."])
        results["check"].append(time.perf_counter() - start)
        rows = [(1, "case", report)]
        capped, capped_chars = timed(functools.partial(_table, rows))
        full, full_chars = timed(functools.partial(_table, rows, None))
        results["capped"].append(capped)
        results["all"].append(full)
        line = (
            f"{size:>8,} chars {len(report.findings):>7,} findings: check {results['check'][-1]:6.2f} s"
            f" | capped {capped:6.3f} s ({capped_chars:,} chars) | all {full:6.2f} s "
            f"({full_chars:,} chars)"
        )
        if not args.no_peer:
            peer, _ = timed(functools.partial(peer_table, rows))
            results["peer"].append(peer)
            line += f" | peer {peer:6.2f} s (peer/all {peer / full:4.1f}x)"
        print(line, flush=True)
    if len(args.sizes) > 1:
        shown = ", ".join(
            f"{name} {slope(args.sizes, values):.2f}" for name, values in results.items() if values
        )
        print(f"slope of log(time) on log(size) (1 = linear, 2 = quadratic): {shown}")


if __name__ == "__main__":
    main()
