"""Benchmark: hybridjudge's grounding checks against opengate-grounding's, in one process.

Every figure is printed as a ratio against opengate-grounding 0.1.0 (``check_grounding``) run in
the same process on the same inputs; calls are interleaved so that both see the same machine
load, and for each output the fastest of several calls is kept (timeit's convention: the minimum
is the least disturbed measurement). Sections (``--only`` picks some):

``opengate``
    OpenGATE's 27 outputs (6 bases + 21 mutants) against their gold cases, as before: ``warm``
    (``check_grounding`` with the case already parsed), ``checker`` (a prepared
    ``GroundingChecker``), ``cold`` (every memo cleared before each call).
``tatqa``
    TAT-QA's gold answers (``validity/tatqa.py``) against their contexts (a table plus
    paragraphs): ``first call`` (a
    context never seen before: each call gets a distinct context, so no memo helps) and
    ``prepared`` (the context prepared beforehand, ``prepare_context``, and for each call a new
    ``GroundingChecker`` on it with the question, built outside the timing: ``checker.check``
    of an answer the checker has not seen, so that no round reuses what the checker
    remembers of the one before). First
    calls are printed for the answers whose figures all stand in the context as written
    (median; see ``_as_written``) and for all answers (mean, and the p95 of the per-answer
    ratio); prepared as a mean. ``opengate`` and ``financebench`` print the same lines.
``pages``
    Long generated report pages of 10k, 100k and 1M characters (paragraphs with figures, dates
    and percentages, and ``|``-separated table rows), an answer quoting four of their figures and
    one fabricated: first call and prepared, as above.
``many``
    A file with more distinct contexts than any memo holds (TAT-QA contexts, each in 8 distinct
    retrievals: 2,224 contexts), its outputs in round-robin order so each context comes back only
    after all the others: ``check_grounding`` per output.
``cli``
    ``hybridjudge check`` on a one-case file: wall time of the whole command (fastest of 5; the
    target is < 0.3 s on an idle machine), the bare interpreter's start for reference, and the
    import time (``python -X importtime``) with the slowest top-level imports; says whether the
    openai SDK was imported.
``financebench``
    FinanceBench's oracle answers (``validity/financebench.py``; skipped with a message when
    the data set is absent: see ``validity/README.md``) against their evidence pages, text as a PDF
    extractor returns it (a cell per line, ``$`` on its own line): first call and prepared, as
    ``tatqa``.
``answerscan``
    The answer side alone (issue 33, point 4): ``scan`` (normalising included) of each
    FinanceBench oracle answer, and ``normalize`` alone, against opengate-grounding's whole
    check of the same record (answer, evidence pages, question); per answer the fastest of
    ``--scan-rounds`` interleaved calls, then the median and mean over the answers. Skipped with
    a message when the data set is absent.
``floor``
    What the TAT-QA first-call target allows in pure Python: a deliberately minimal checker
    (one ``findall`` of digit strings per context, their float values in a set, and for an
    answer number not found, numpy's pairwise sums, differences, ratios and percent changes at
    the answer's precision) on the same first calls as ``tatqa``, against opengate-grounding.
    It reads no scale, sign word, unit, date, number word or table, so it is no checker to
    ship; it shows how much of our first call goes into those semantics.
``linear``
    Time against input size from 1 MB to ``--max-mb`` (default 10) of generated text: a long
    answer checked against a 10k-character page, and a long context with a short answer. Prints
    seconds per MB at each size, the least-squares slope, and the ratio of the per-MB time at the
    largest size to that at 1 MB (1.0 = linear). hybridjudge only (no peer figure).
``memory``
    Peak memory (maximum resident set of a fresh interpreter) and time of one short answer
    against a generated context of ``--memory-mb`` (default 50) MB whose figure stands in the
    context as written (the fast path), and of ``--memory-full-mb`` (default 10) MB whose figure
    does not (from 4 million characters the context is checked a piece of about 1 MB at a time,
    ``grounding._chunks``: a bounded peak; below it, the full index, about 46 MB of memory per MB
    of context). hybridjudge only.

Run from the repository root::

    .venv/bin/python bench/bench_grounding.py                  # everything (a few minutes)
    .venv/bin/python bench/bench_grounding.py --only opengate,cli
    .venv/bin/python bench/bench_grounding.py --only linear --max-mb 4
"""

from __future__ import annotations

import argparse
import gc
import importlib.metadata
import importlib.util
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

import opengate_grounding as og

from hybridjudge.corpus import Case, Output, read_jsonl_models
from hybridjudge.grounding import (
    GroundingChecker,
    GroundingContext,
    check_grounding,
    prepare_context,
)
from hybridjudge.grounding import _fast as grounding_fast

ROOT = Path(__file__).resolve().parents[1]
SECTIONS = (
    "opengate",
    "tatqa",
    "financebench",
    "answerscan",
    "floor",
    "pages",
    "many",
    "cli",
    "linear",
    "memory",
)


@contextmanager
def _no_gc() -> Iterator[None]:
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _clear_memos() -> None:
    """Forget every parsed case, context and literal that the grounding modules memoise.

    Found generically (functions with ``cache_clear``, module-level dict/LRU caches whose name
    says cache or memo), so the benchmark survives changes in how the checks memoise. The
    compiled abstention markers are kept: they are per process, not per case.
    """
    for name, module in list(sys.modules.items()):
        if not name.startswith("hybridjudge.grounding.") or module is None:
            continue
        if name.endswith("_abstention"):
            continue
        for attr, obj in list(vars(module).items()):
            if callable(getattr(obj, "cache_clear", None)):
                obj.cache_clear()
            elif (
                any(w in attr.upper() for w in ("CACHE", "MEMO"))
                and hasattr(obj, "clear")
                and not isinstance(obj, type)
            ):
                obj.clear()


def _tag(i: int) -> str:
    """A distinct, digit-free passage (``ref bcd``) that makes a context unseen by any memo."""
    letters = "bcdfghjklmnpqrstvwxz"
    out = ""
    i += 1
    while i:
        i, r = divmod(i, len(letters))
        out += letters[r]
    return f"ref {out}"


def _ratio_line(name: str, ours: float, theirs: float, unit: str = "us/output") -> str:
    ratio = ours / theirs
    shown = f"{ratio:.2f}" if ratio >= 0.1 else f"{ratio:.3f}"
    return f"  {name:<34} {ours:>12.1f} {theirs:>12.1f} {shown:>8}x   ({unit})"


def _header(title: str) -> None:
    print("")
    print(title)
    print(f"  {'figure':<34} {'hybridjudge':>12} {'opengate':>12} {'ratio':>9}")


def _og(answer: str, passages: Sequence[str], question: str | None) -> None:
    og.check_grounding(answer, list(passages), question=question)


# --------------------------------------------------------------------------------------------
# OpenGATE's 27 outputs (the original comparison)


def _load_opengate() -> list[tuple[Output, Case]]:
    cases = {c.id: c for c in read_jsonl_models(ROOT / "corpus/opengate/cases.jsonl", Case)}
    outputs = read_jsonl_models(ROOT / "corpus/opengate/outputs.jsonl", Output)
    return [(o, cases[o.case_id]) for o in outputs]


def bench_opengate(rounds: int) -> None:
    items = _load_opengate()
    n = len(items)
    og_args = [
        (
            o.text,
            list(c.context),
            c.question,
            [og.Anchor(a.value, list(a.aliases)) for a in c.anchors],
            list(c.allowed_numbers),
            c.answerable is not False,  # opengate has no "unknown"
        )
        for o, c in items
    ]
    checkers = {
        c.id: GroundingChecker(
            c.context,
            question=c.question,
            anchors=c.anchors,
            answerable=c.answerable,
            allowed_numbers=c.allowed_numbers,
        )
        for _, c in items
    }
    prepared = [(o.text, checkers[c.id]) for o, c in items]

    def theirs(i: int) -> None:
        answer, context, question, anchors, allowed, answerable = og_args[i]
        og.check_grounding(
            answer,
            context,
            question=question,
            anchors=anchors,
            allowed_new_numbers=allowed,
            answerable=answerable,
        )

    def ours_warm(i: int) -> None:
        o, c = items[i]
        check_grounding(
            o.text,
            c.context,
            question=c.question,
            anchors=c.anchors,
            answerable=c.answerable,
            allowed_numbers=c.allowed_numbers,
        )

    def ours_checker(i: int) -> None:
        answer, checker = prepared[i]
        checker.check(answer)

    contestants: dict[str, Callable[[int], None]] = {
        "opengate-grounding": theirs,
        "hybridjudge warm": ours_warm,
        "hybridjudge checker": ours_checker,
        "hybridjudge cold": ours_warm,  # timed right after clearing every memo
    }
    for fn in contestants.values():  # warm-up: imports, memos, regex caches
        for i in range(n):
            fn(i)
    names = list(contestants)
    best = {name: [float("inf")] * n for name in names}
    with _no_gc():
        for r in range(rounds):
            for i in range(n):
                order = names if (r + i) % 2 == 0 else names[::-1]
                for name in order:
                    if name == "hybridjudge cold":
                        _clear_memos()
                    t0 = time.perf_counter()
                    contestants[name](i)
                    elapsed = time.perf_counter() - t0
                    if elapsed < best[name][i]:
                        best[name][i] = elapsed

    per = {name: sum(best[name]) / n * 1e6 for name in names}
    print("")
    print(f"OpenGATE: {n} outputs; per output the fastest of {rounds} interleaved calls")
    print(f"  {'scorer':<22} {'us/output':>10} {'ratio vs opengate':>18}")
    for name in names:
        print(f"  {name:<22} {per[name]:>10.1f} {per[name] / per['opengate-grounding']:>18.2f}")
    _header(f"OpenGATE first calls (answer, context and question only); fastest of {rounds}")
    _print_first_calls([(o.text, tuple(c.context), c.question) for o, c in items], rounds)


# --------------------------------------------------------------------------------------------
# TAT-QA contexts


def _tatqa() -> ModuleType:
    spec = importlib.util.spec_from_file_location("hj_validity_tatqa", ROOT / "validity/tatqa.py")
    if spec is None or spec.loader is None:  # pragma: no cover - the file is in the repo
        raise SystemExit("validity/tatqa.py is missing")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


Job = tuple[str, tuple[str, ...], str | None]
"""(answer, passages, question)"""


def _tatqa_jobs() -> list[Job]:
    tatqa = _tatqa()
    docs = tatqa.build_documents(tatqa.load_documents())
    return [
        (it.answer, d.passages, it.question)
        for d in docs
        for it in d.items
        if it.variant.startswith("gold")
    ]


def _best_times(jobs: Sequence[Job], rounds: int) -> tuple[list[float], list[float], list[float]]:
    """Per job the fastest call, seconds: (ours first call, ours prepared, theirs)."""
    n = len(jobs)
    best_first = [float("inf")] * n
    best_prep = [float("inf")] * n
    best_og = [float("inf")] * n
    contexts: dict[tuple[str, ...], GroundingContext] = {}
    serial = 0
    with _no_gc():
        for r in range(rounds):
            for i, (answer, passages, question) in enumerate(jobs):
                context = contexts.get(passages)
                if context is None:
                    context = contexts[passages] = prepare_context(passages)
                # a new checker: the answer is new to it (a checker remembers the figures of
                # the answers it has checked, which a later round would otherwise reuse)
                checker = GroundingChecker(context, question=question)
                serial += 1
                fresh = (*passages, _tag(serial))  # a context never seen before
                steps = ("og", "first", "prep") if (r + i) % 2 == 0 else ("prep", "first", "og")
                for step in steps:
                    t0 = time.perf_counter()
                    if step == "og":
                        _og(answer, fresh, question)
                    elif step == "first":
                        check_grounding(answer, fresh, question=question)
                    else:
                        checker.check(answer)
                    elapsed = time.perf_counter() - t0
                    target = {"og": best_og, "first": best_first, "prep": best_prep}[step]
                    if elapsed < target[i]:
                        target[i] = elapsed
    return best_first, best_prep, best_og


def _first_and_prepared(jobs: Sequence[Job], rounds: int) -> tuple[float, float, float]:
    """Mean over jobs of the fastest call: (ours first call, ours prepared, theirs), seconds."""
    first, prep, theirs = _best_times(jobs, rounds)
    return statistics.fmean(first), statistics.fmean(prep), statistics.fmean(theirs)


def _as_written(jobs: Sequence[Job]) -> list[bool]:
    """Per job whether every figure of the answer stands in the context as written: it has
    figures, and each traces to the context (the full path's trace, the fast path off) to a
    figure written with the same digits (``$5,409 million`` for ``$5,409 million`` or for a
    cell ``5,409`` under ``(in millions)``; not ``$5.4 billion``, nor a derived figure)."""
    enabled = grounding_fast.ENABLED
    grounding_fast.ENABLED = False
    try:
        out = []
        for answer, passages, question in jobs:
            traces = check_grounding(answer, passages, question=question).quantities
            out.append(
                bool(traces)
                and all(
                    t.source == "context"
                    and t.matched_text is not None
                    and grounding_fast.needle_of(t.quantity.text)
                    == grounding_fast.needle_of(t.matched_text)
                    for t in traces
                )
            )
        return out
    finally:
        grounding_fast.ENABLED = enabled


def _p95(values: Sequence[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def _print_first_calls(jobs: Sequence[Job], rounds: int) -> None:
    """The acceptance's lines: first calls on the answers whose figures stand as written
    (median), on all answers (mean; p95 of the per-answer ratio), prepared (mean)."""
    first, prep, theirs = _best_times(jobs, rounds)
    written = _as_written(jobs)
    sub = [k for k, w in enumerate(written) if w]
    if sub:
        ours_w = statistics.median(first[k] for k in sub) * 1e6
        theirs_w = statistics.median(theirs[k] for k in sub) * 1e6
        label = f"first, as written ({len(sub)}), median"
        print(_ratio_line(label, ours_w, theirs_w))
    mean_first, mean_og = statistics.fmean(first) * 1e6, statistics.fmean(theirs) * 1e6
    print(_ratio_line(f"first, all ({len(jobs)}), mean", mean_first, mean_og))
    ratios = [a / b for a, b in zip(first, theirs, strict=True)]
    print(
        f"  {'first, all: per-answer ratio':<34} median {statistics.median(ratios):.2f}x, "
        f"p95 {_p95(ratios):.2f}x; p95 time {_p95(first) * 1e6:.0f} vs {_p95(theirs) * 1e6:.0f} us"
    )
    print(_ratio_line("prepared GroundingChecker, mean", statistics.fmean(prep) * 1e6, mean_og))
    print("  targets: as written <= 1.0x (median), all <= 3x (mean), prepared <= 0.7x")


_FLOOR_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


def _floor_check(answer: str, passages: Sequence[str], question: str | None) -> list[str]:
    """The minimal checker of the ``floor`` section: the answer's digit strings that are neither
    a context figure nor a sum, difference, ratio or percent change of two (see the module
    docstring); ``question`` is ignored."""
    import numpy as np

    values = {float(t.replace(",", "")) for t in _FLOOR_NUMBER.findall("\n".join(passages))}
    derived = None
    missing = []
    for token in _FLOOR_NUMBER.findall(answer):
        v = float(token.replace(",", ""))
        if v in values:
            continue
        if derived is None:
            arr = np.fromiter(values, float)
            with np.errstate(all="ignore"):
                ratio = arr[:, None] / arr[None, :]
                derived = np.concatenate(
                    [
                        np.abs(arr[:, None] - arr[None, :]).ravel(),
                        (arr[:, None] + arr[None, :]).ravel(),
                        ratio.ravel(),
                        ((ratio - 1) * 100).ravel(),
                    ]
                )
        decimals = len(token.split(".")[1]) if "." in token else 0
        if not np.any(np.abs(derived - v) <= 0.5 * 10.0**-decimals):
            missing.append(token)
    return missing


def bench_floor(rounds: int) -> None:
    jobs = _tatqa_jobs()
    best_floor = [float("inf")] * len(jobs)
    best_og = [float("inf")] * len(jobs)
    serial = 0
    with _no_gc():
        for r in range(rounds):
            for i, (answer, passages, question) in enumerate(jobs):
                serial += 1
                fresh = (*passages, _tag(serial))
                order = (_floor_check, _og) if (r + i) % 2 == 0 else (_og, _floor_check)
                for fn in order:
                    t0 = time.perf_counter()
                    fn(answer, fresh, question)
                    elapsed = time.perf_counter() - t0
                    target = best_floor if fn is _floor_check else best_og
                    if elapsed < target[i]:
                        target[i] = elapsed
    _header(f"TAT-QA first calls, a minimal pure-Python checker: fastest of {rounds} per output")
    ours, theirs = statistics.fmean(best_floor) * 1e6, statistics.fmean(best_og) * 1e6
    print(_ratio_line("minimal checker (floor, not shipped)", ours, theirs))


def bench_tatqa(rounds: int) -> None:
    jobs = _tatqa_jobs()
    sizes = sorted(sum(len(p) for p in passages) for _, passages, _ in jobs)
    _header(
        f"TAT-QA: {len(jobs)} gold answers on 278 contexts (median {sizes[len(sizes) // 2]:,} "
        f"characters); fastest of {rounds} per output"
    )
    _print_first_calls(jobs, rounds)


def _financebench() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "hj_validity_financebench", ROOT / "validity/financebench.py"
    )
    if spec is None or spec.loader is None:  # pragma: no cover - the file is in the repo
        raise SystemExit("validity/financebench.py is missing")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _financebench_jobs(section: str) -> list[Job]:
    """FinanceBench's oracle answers as jobs, or none (with a message naming ``section``) when
    the data set is absent."""
    fb = _financebench()
    if not (fb.DATA / "questions_dev.jsonl").is_file():
        print(f"\n{section}: not found at {fb.DATA}, section skipped")
        return []
    return [(a.answer, a.pages, a.question) for a in fb.load_answers(fb.DATA)]


def bench_financebench(rounds: int) -> None:
    jobs = _financebench_jobs("FinanceBench")
    if not jobs:
        return
    sizes = sorted(sum(len(p) for p in passages) for _, passages, _ in jobs)
    _header(
        f"FinanceBench: {len(jobs)} oracle answers on their evidence pages as a PDF extractor "
        f"returns them (median {sizes[len(sizes) // 2]:,} characters); fastest of {rounds}"
    )
    _print_first_calls(jobs, rounds)


def bench_answer_scan(rounds: int) -> None:
    from hybridjudge.grounding._normalize import normalize
    from hybridjudge.grounding._quantities import scan

    jobs = _financebench_jobs("FinanceBench answers")
    if not jobs:
        return
    n = len(jobs)
    best: dict[str, list[float]] = {k: [float("inf")] * n for k in ("scan", "normalize", "og")}
    calls: dict[str, Callable[[Job], object]] = {
        "scan": lambda job: scan(job[0]),
        "normalize": lambda job: normalize(job[0]),
        "og": lambda job: _og(*job),
    }
    with _no_gc():
        for r in range(rounds):
            for i, job in enumerate(jobs):
                names = list(calls) if (r + i) % 2 == 0 else list(reversed(calls))
                for name in names:
                    t0 = time.perf_counter()
                    calls[name](job)
                    elapsed = time.perf_counter() - t0
                    if elapsed < best[name][i]:
                        best[name][i] = elapsed
    chars = sorted(len(answer) for answer, _, _ in jobs)
    _header(
        f"FinanceBench answers alone: {n} oracle answers (median {chars[n // 2]:,} characters); "
        f"ours: scan of the answer, theirs: the whole check of the record; fastest of {rounds}"
    )
    theirs_med = statistics.median(best["og"]) * 1e6
    theirs_mean = statistics.fmean(best["og"]) * 1e6
    for name, label in (("scan", "scan(answer)"), ("normalize", "normalize(answer) only")):
        ours_med = statistics.median(best[name]) * 1e6
        print(_ratio_line(f"{label}, median", ours_med, theirs_med))
        print(_ratio_line(f"{label}, mean", statistics.fmean(best[name]) * 1e6, theirs_mean))
    print("  target: the scan of an answer well under the peer's whole check (< 1.0x)")


# --------------------------------------------------------------------------------------------
# Long generated pages

_ITEMS = (
    "revenue",
    "operating income",
    "net income",
    "cost of sales",
    "research and development",
    "deferred tax assets",
    "capital expenditure",
    "free cash flow",
    "headcount",
    "goodwill",
)
_MONTHS = ("January", "March", "June", "September", "December")


def _page(n_chars: int, seed: int = 7) -> tuple[str, list[str]]:
    """A report-like page of about ``n_chars`` characters, and some figures written on it."""
    rng = random.Random(seed)
    parts: list[str] = []
    figures: list[str] = []
    size = 0
    section = 0
    while size < n_chars:
        section += 1
        year = rng.randint(2005, 2023)
        item = rng.choice(_ITEMS)
        a = rng.randint(100, 99_999) / 10
        b = rng.randint(100, 99_999) / 10
        pct = rng.randint(1, 999) / 10
        day = rng.randint(1, 28)
        text = (
            f"Note {section}. In fiscal {year}, {item} was ${a:,.1f} million compared with "
            f"${b:,.1f} million in fiscal {year - 1}, a change of {pct}%. The figures are "
            f"stated as of {rng.choice(_MONTHS)} {day}, {year}; the committee met {day} times "
            f"and approved {rng.randint(2, 40)} resolutions.\n"
        )
        if section % 3 == 0:
            rows = [f"(in thousands) | {year} | {year - 1} | {year - 2}"]
            for name in rng.sample(_ITEMS, 4):
                cells = [f"{rng.randint(1_000, 9_999_999):,}" for _ in range(3)]
                if rng.random() < 0.2:
                    cells[1] = f"({cells[1]})"
                rows.append(" | ".join([name.capitalize(), *cells]))
            text += "\n".join(rows) + "\n"
        parts.append(text)
        size += len(text)
        if len(figures) < 64:
            figures.append(f"${a:,.1f} million")
            figures.append(f"{pct}%")
    return "".join(parts), figures


_WORDS = (
    "the",
    "company",
    "reported",
    "that",
    "its",
    "customers",
    "and",
    "suppliers",
    "were",
    "not",
    "affected",
    "by",
    "the",
    "change",
    "in",
    "policy",
    "although",
    "several",
    "markets",
    "saw",
    "lower",
    "demand",
    "during",
    "the",
    "period",
    "while",
    "management",
    "expects",
    "growth",
    "to",
    "return",
    "once",
    "the",
    "new",
    "products",
    "reach",
    "every",
    "region",
    "and",
    "the",
    "costs",
    "of",
    "the",
    "programme",
    "are",
    "fully",
    "absorbed",
    "by",
    "the",
    "business",
)


def _prose(n_chars: int, seed: int = 5) -> str:
    """Ordinary prose of about ``n_chars`` characters: sentences of common words, a figure now
    and then, paragraphs of a few sentences."""
    rng = random.Random(seed)
    parts: list[str] = []
    size = 0
    while size < n_chars:
        words = rng.choices(_WORDS, k=rng.randint(8, 24))
        if rng.random() < 0.1:
            words.insert(rng.randrange(len(words)), f"{rng.randint(2, 900)}")
        sentence = " ".join(words).capitalize() + (".\n\n" if rng.random() < 0.2 else ". ")
        parts.append(sentence)
        size += len(sentence)
    return "".join(parts)


def _answer_for(figures: Sequence[str], seed: int = 11) -> str:
    rng = random.Random(seed)
    a, b, c, d = rng.sample(list(figures), 4)
    return (
        f"The report gives {a} and {b}; the change was {c}, and {d} the year before. "
        "The board also approved a dividend of $4.17 per share."
    )


def bench_pages(sizes: Sequence[int]) -> None:
    _header("Long generated pages: an answer with 4 figures of the page and 1 fabricated")
    for n_chars in sizes:
        page, figures = _page(n_chars)
        answer = _answer_for(figures)
        rounds = max(2, min(20, 2_000_000 // n_chars))
        jobs: list[Job] = [(answer, (page,), None)]
        first, prep, theirs = _first_and_prepared(jobs, rounds)
        label = f"{len(page) // 1000:,}k chars"
        print(_ratio_line(f"{label}: first call", first * 1e3, theirs * 1e3, "ms/output"))
        print(_ratio_line(f"{label}: prepared", prep * 1e3, theirs * 1e3, "ms/output"))


# --------------------------------------------------------------------------------------------
# A file with many distinct contexts


def bench_many(copies: int = 8) -> None:
    tatqa = _tatqa()
    docs = tatqa.build_documents(tatqa.load_documents())
    groups: list[list[Job]] = []
    for copy in range(copies):
        for d in docs:
            passages = (*d.passages, _tag(10_000_000 + copy))
            golds = [it for it in d.items if it.variant.startswith("gold")][:2]
            groups.append([(it.answer, passages, it.question) for it in golds])
    # Round robin: first output of every context, then the second of every context.
    jobs = [g[k] for k in range(2) for g in groups if k < len(g)]
    n_contexts = len(groups)
    _clear_memos()
    order = [("og", "ours"), ("ours", "og")]
    totals = {"og": 0.0, "ours": 0.0}
    with _no_gc():
        for i, (answer, passages, question) in enumerate(jobs):
            for who in order[i % 2]:
                t0 = time.perf_counter()
                if who == "og":
                    _og(answer, passages, question)
                else:
                    check_grounding(answer, passages, question=question)
                totals[who] += time.perf_counter() - t0
    _header(
        f"A file of {len(jobs)} outputs on {n_contexts} distinct contexts (each context's "
        f"outputs {n_contexts} outputs apart)"
    )
    print(
        _ratio_line(
            "check_grounding per output",
            totals["ours"] / len(jobs) * 1e6,
            totals["og"] / len(jobs) * 1e6,
        )
    )


# --------------------------------------------------------------------------------------------
# The command line


def _wall(cmd: Sequence[str], runs: int, env: dict[str, str]) -> float:
    best = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=False, capture_output=True, env=env, cwd=ROOT)
        best = min(best, time.perf_counter() - t0)
    return best


def _importtime(
    cmd: Sequence[str], env: dict[str, str]
) -> tuple[float, list[tuple[float, str]], list[tuple[float, str]]]:
    """Total import time of ``cmd`` (seconds, the sum over top-level imports), the packages it
    imports (cumulative seconds of each package's first import, slowest first) and hybridjudge's
    own modules (self seconds, slowest first)."""
    proc = subprocess.run(
        [cmd[0], "-X", "importtime", *cmd[1:]],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
    )
    total = 0.0
    packages: list[tuple[float, str]] = []
    own: list[tuple[float, str]] = []
    for line in proc.stderr.splitlines():
        m = re.match(r"import time:\s+(\d+) \|\s+(\d+) \| (\s*)(\S+)", line)
        if m is None:
            continue
        seconds = int(m.group(2)) / 1e6
        if not m.group(3):  # depth 0: no indent after the bar
            total += seconds
        name = m.group(4)
        if name.startswith("hybridjudge"):
            own.append((int(m.group(1)) / 1e6, name))
        elif "." not in name and not name.startswith("_"):
            packages.append((seconds, name))
    return total, sorted(packages, reverse=True), sorted(own, reverse=True)


def bench_cli(runs: int = 5) -> None:
    line = (
        (ROOT / "examples/check/opengate-cases.jsonl").read_text(encoding="utf-8").splitlines()[0]
    )
    with tempfile.TemporaryDirectory() as tmp:
        # byte-code caches as an installed package has them: written on the first run (into a
        # temporary prefix, not the source tree) even where PYTHONDONTWRITEBYTECODE is set, as
        # in some CI and sandbox shells (every run would otherwise recompile every module)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        # and the long expressions' code, stored by the first run as a user's first run
        # stores it (hybridjudge.grounding._stored); also timed with the store off
        env["HYBRIDJUDGE_EXPRESSION_CACHE"] = str(Path(tmp) / "expressions")
        path = Path(tmp) / "one.jsonl"
        path.write_text(line + "\n", encoding="utf-8")
        cli = [sys.executable, "-m", "hybridjudge", "check", str(path)]
        proc = subprocess.run(cli, check=False, capture_output=True, text=True, cwd=ROOT, env=env)
        wall = _wall(cli, runs, env)
        unstored = _wall(cli, runs, {**env, "HYBRIDJUDGE_EXPRESSION_CACHE": "off"})
        bare = _wall([sys.executable, "-c", "pass"], runs, env)
        total, top, own = _importtime(cli, env)
        mods = subprocess.run(
            [
                sys.executable,
                "-c",
                "import sys, runpy; sys.argv = ['hybridjudge', 'check', sys.argv[1]];\n"
                "try:\n runpy.run_module('hybridjudge', run_name='__main__')\n"
                "except SystemExit: pass\n"
                "print(sorted({m.split('.')[0] for m in sys.modules}))",
                str(path),
            ],
            check=False,
            capture_output=True,
            text=True,
            cwd=ROOT,
            env=env,
        )
    loaded = mods.stdout.strip().splitlines()[-1] if mods.stdout.strip() else "[]"
    print("")
    print(
        f"`hybridjudge check` on one case (exit {proc.returncode}); fastest of {runs} runs "
        "(byte-code and the long expressions' code stored by a first run)"
    )
    print(f"  wall time: {wall:.3f} s (target < 0.3 s on an idle machine)")
    print(f"  with no stored expressions (HYBRIDJUDGE_EXPRESSION_CACHE=off): {unstored:.3f} s")
    print(f"  bare `python -c pass`: {bare:.3f} s; so hybridjudge adds {wall - bare:.3f} s")
    print(
        f"  import time (-X importtime, all imports): {total:.3f} s; the rest (start-up, reading "
        f"and checking the case, printing): {max(0.0, wall - total):.3f} s"
    )
    print("  slowest packages (cumulative):")
    for seconds, name in top[:8]:
        print(f"    {seconds * 1e3:8.1f} ms  {name}")
    print(f"  hybridjudge's own modules: {sum(t for t, _ in own):.3f} s (self time); slowest:")
    for seconds, name in own[:5]:
        print(f"    {seconds * 1e3:8.1f} ms  {name}")
    heavy = [
        m
        for m in ("openai", "httpx", "pydantic", "numpy", "matplotlib", "rich")
        if f"'{m}'" in loaded
    ]
    print(
        f"  packages of note imported (openai, httpx, numpy, matplotlib should not be): {', '.join(heavy) if heavy else 'none'}"
    )


# --------------------------------------------------------------------------------------------
# Linear time


def _fit(xs: Sequence[float], ys: Sequence[float]) -> float:
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum(
        (x - mx) ** 2 for x in xs
    )


def bench_linear(max_mb: int) -> None:
    sizes = [s for s in (1, 2, 4, 7, 10) if s <= max_mb] or [1]
    if max_mb not in sizes and max_mb > 1:
        sizes.append(max_mb)
    small_page, _ = _page(10_000, seed=3)
    print("")
    print(f"Linear time: generated text of 1 to {sizes[-1]} MB (hybridjudge, one call each)")
    print(
        f"  {'case':<32} " + " ".join(f"{s:>6} MB" for s in sizes) + f" {'slope':>10} {'ratio':>7}"
    )

    def long_answer(mb: int) -> tuple[str, tuple[str, ...]]:
        return _page(mb * 1_000_000, seed=mb)[0], (small_page,)

    def long_context(mb: int) -> tuple[str, tuple[str, ...]]:
        return "Revenue was $4.17 million in 2019.", (_page(mb * 1_000_000, seed=mb)[0],)

    def long_prose(mb: int) -> tuple[str, tuple[str, ...]]:
        return _prose(mb * 1_000_000, seed=mb), (small_page,)

    cases: list[tuple[str, Callable[[int], tuple[str, tuple[str, ...]]]]] = [
        ("long answer, 10k context", long_answer),
        ("long context, short answer", long_context),
        ("long prose answer, 10k context", long_prose),
    ]
    for label, make in cases:
        per_mb: list[float] = []
        secs: list[float] = []
        for mb in sizes:
            answer, passages = make(mb)
            _clear_memos()
            with _no_gc():
                t0 = time.perf_counter()
                check_grounding(answer, passages)
                elapsed = time.perf_counter() - t0
            secs.append(elapsed)
            per_mb.append(elapsed / mb)
        slope = _fit([float(s) for s in sizes], secs) if len(sizes) > 1 else per_mb[0]
        cells = " ".join(f"{t:>7.2f}s" for t in secs)
        print(f"  {label:<32} {cells} {slope:>8.2f}s/MB {per_mb[-1] / per_mb[0]:>7.2f}")
    print("  ratio = seconds per MB at the largest size / at 1 MB (1.0 = linear)")


_MEMORY_CHILD = """
import resource, sys, time
sys.path.insert(0, sys.argv[3])
import bench_grounding as bg
from hybridjudge.grounding import check_grounding

def peak():
    # the peak resident set of this process (kB): VmHWM, which starts afresh with the
    # interpreter (ru_maxrss may keep the parent's high-water mark across fork and exec)
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

mb = int(sys.argv[1])
answer = sys.argv[2]
context = bg._page(mb * 1_000_000, seed=mb)[0]
before = peak()
t0 = time.perf_counter()
report = check_grounding(answer, context)
elapsed = time.perf_counter() - t0
after = peak()
print(before, after, elapsed, report.grounded)
"""


def bench_memory(mb: int, full_mb: int) -> None:
    """Peak memory (the process's maximum resident set, in a fresh interpreter) of checking a
    short answer against a generated context of ``mb`` MB whose figure stands in the context as
    written (the fast path), and against one of ``full_mb`` MB whose figure does not (checked a
    piece at a time from 4 million characters, ``grounding._chunks``: about 25 MB over the text
    and 1.5-1.7 s per MB; 0 skips it)."""
    runs = [(mb, "figure as written", True)]
    if full_mb:
        runs.append((full_mb, "figure not in the context", False))
    print("")
    print("Memory: a generated context, one short answer, in a fresh interpreter")
    for size, label, written in runs:
        page = _page(20_000, seed=size)[1]  # the first figures of the page generated so
        answer = f"Revenue was {page[0]}." if written else "Revenue was $4.17 million in 2019."
        label = f"{size} MB, {label}"
        proc = subprocess.run(
            [sys.executable, "-c", _MEMORY_CHILD, str(size), answer, str(ROOT / "bench")],
            check=False,
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        if proc.returncode != 0:
            print(f"  {label}: failed: {proc.stderr.strip().splitlines()[-1:]}")
            continue
        before, after, elapsed, grounded = proc.stdout.split()
        print(
            f"  {label:<28} peak RSS {int(after) / 1024:>7.0f} MB (text generated: "
            f"{int(before) / 1024:.0f} MB; the check adds {(int(after) - int(before)) / 1024:.0f} "
            f"MB), {float(elapsed):.2f} s, grounded={grounded}"
        )
    print("  target: well under 500 MB")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200, help="OpenGATE timed rounds (200)")
    parser.add_argument("--tatqa-rounds", type=int, default=3, help="TAT-QA timed rounds (3)")
    parser.add_argument("--scan-rounds", type=int, default=20, help="answerscan timed rounds (20)")
    parser.add_argument("--max-mb", type=int, default=10, help="largest size of `linear` (10)")
    parser.add_argument("--memory-mb", type=int, default=50, help="context size of `memory` (50)")
    parser.add_argument(
        "--memory-full-mb",
        type=int,
        default=10,
        help="context size of `memory` for a figure not in it (10; 0: skip)",
    )
    parser.add_argument(
        "--only",
        default=",".join(SECTIONS),
        help=f"comma-separated sections to run (default all: {','.join(SECTIONS)})",
    )
    args = parser.parse_args(argv)
    chosen = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = sorted(set(chosen) - set(SECTIONS))
    if unknown:
        parser.error(f"unknown section(s) {', '.join(unknown)}; choose from {', '.join(SECTIONS)}")
    peer = importlib.metadata.version("opengate-grounding")
    print(f"Python {sys.version.split()[0]}; opengate-grounding {peer}")
    runners: dict[str, Callable[[], None]] = {
        "opengate": lambda: bench_opengate(args.rounds),
        "tatqa": lambda: bench_tatqa(args.tatqa_rounds),
        "financebench": lambda: bench_financebench(args.tatqa_rounds),
        "answerscan": lambda: bench_answer_scan(args.scan_rounds),
        "floor": lambda: bench_floor(args.tatqa_rounds),
        "pages": lambda: bench_pages((10_000, 100_000, 1_000_000)),
        "many": bench_many,
        "cli": bench_cli,
        "linear": lambda: bench_linear(args.max_mb),
        "memory": lambda: bench_memory(args.memory_mb, args.memory_full_mb),
    }
    for section in SECTIONS:
        if section in chosen:
            runners[section]()
    return 0


if __name__ == "__main__":
    sys.exit(main())
