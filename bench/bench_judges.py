"""Benchmark the LLM judges on the embedded model: shared vs separate mode over OpenGATE's outputs.

For each of OpenGATE's 27 frozen outputs (6 bases + 21 mutants), judge with both scorers in
``separate`` mode (claims + one support call + one contradiction call) and in ``shared`` mode
(claims + one three-way call). The claim extraction runs once per output and is shared by the two
modes (the second mode reads it from the cache), so both modes judge the same claims and the
agreement below compares verdicts, not extractions; its cost is charged to each mode.

Prints, per mode: model calls, prompt and completion tokens and wall seconds per evaluation,
unscored results by reason; the ratios shared / separate (the peer run in this process); how often
the two modes agree (per claim and per output score); a per-output table; and a rerun of both
modes from the cache (HTTP requests and wall time). The RAGAS and DeepEval figures it prints are
QUOTED, not measured by this script: they were measured once on the same model and corpus by the
project's earlier peer study (RAGAS 0.4.3, DeepEval 4.3.1, one repetition, restated in
``docs/faithfulness.md``), and the output labels them as such. The measured peer of this script is
the other judging mode, run in the same process.

Run (about 40 minutes for the 27 outputs on 2 shared cores; ``--limit`` or ``--match`` for a
quick look)::

    .venv/bin/python bench/bench_judges.py                 # fresh temporary cache
    .venv/bin/python bench/bench_judges.py --limit 3
    .venv/bin/python bench/bench_judges.py --match grounding-      # the 12 short grounding outputs
    .venv/bin/python bench/bench_judges.py --cache-dir .bench-cache/judges   # reusable cache
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from hybridjudge.corpus import Case, Output, read_jsonl_models
from hybridjudge.judges import PROMPT_NAMES, JudgeResult, Mode, load_prompt
from hybridjudge.judges import judge as run_judge
from hybridjudge.model import ModelClient, ModelConfig, Usage

QUOTED_PEERS_SOURCE = (
    "the RAGAS and DeepEval peer study on the embedded Qwen2.5-Coder-1.5B over OpenGATE's 27 "
    "outputs, one repetition, restated in docs/faithfulness.md"
)
"""Where the peers' figures this script prints come from: they are quoted, not measured."""


ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "corpus" / "opengate"
PAPER = ROOT.parent / "shared" / "data" / "opengate"

_PAPER_DEFECTS = {
    "dropped_anchor": "omission",
    "fabricated_number": "fabricated_number",
    "non_abstention": "non_abstention",
    "contradiction": "contradiction",
    "inversion": "inversion",
}


@dataclass(frozen=True)
class Item:
    """One output to judge with its case."""

    id: str
    defect: str
    answer: str
    context: tuple[str, ...]
    question: str | None


def load_items() -> tuple[list[Item], str]:
    """OpenGATE's outputs with their contexts, from ``corpus/opengate`` or the paper's files."""
    if (CORPUS / "outputs.jsonl").is_file() and (CORPUS / "cases.jsonl").is_file():
        cases = {c.id: c for c in read_jsonl_models(CORPUS / "cases.jsonl", Case)}
        outputs = read_jsonl_models(CORPUS / "outputs.jsonl", Output)
        items = [
            Item(
                o.id,
                o.defect or "none",
                o.text,
                cases[o.case_id].context,
                cases[o.case_id].question,
            )
            for o in outputs
        ]
        return items, str(CORPUS.relative_to(ROOT))
    frozen = json.loads((PAPER / "paper/exp2/corpus/frozen-corpus.json").read_text("utf-8"))
    items = []
    for entry in frozen["items"]:
        case = json.loads((PAPER / "datasets/cases" / f"{entry['caseId']}.json").read_text("utf-8"))
        context = case["context"] if case["kind"] == "grounding" else case["text"]
        defect = (entry.get("injectedDefect") or {}).get("class")
        items.append(
            Item(
                entry["outputId"],
                _PAPER_DEFECTS.get(defect or "", "none"),
                entry["text"],
                (context,),
                case.get("question"),
            )
        )
    return items, "opengate paper/exp2/corpus/frozen-corpus.json"


@dataclass
class Run:
    """The results of one output in both modes, with wall times."""

    item: Item
    separate: dict[str, JudgeResult]
    shared: dict[str, JudgeResult]
    separate_s: float
    shared_s: float


def _claims_usage(run: Run) -> Usage:
    return next(iter(run.separate.values())).claims_usage


def _verdict_usage(results: dict[str, JudgeResult]) -> Usage:
    total = Usage()
    for scope in {r.scope: r for r in results.values()}.values():
        total = total + scope.usage
    return total


async def _judge_all(items: list[Item], cache_dir: Path, budget_s: float | None) -> list[Run]:
    runs: list[Run] = []
    began = time.perf_counter()
    config = ModelConfig.local(cache_dir=cache_dir, timeout=1200.0)
    async with ModelClient(config) as client:
        for number, item in enumerate(items, start=1):
            if budget_s is not None and time.perf_counter() - began > budget_s:
                print(
                    f"time budget of {budget_s:.0f} s spent: stopping after {len(runs)} of "
                    f"{len(items)} outputs",
                    file=sys.stderr,
                )
                break
            start = time.perf_counter()
            separate = await run_judge(
                client, answer=item.answer, context=item.context, question=item.question
            )
            middle = time.perf_counter()
            shared = await run_judge(
                client,
                answer=item.answer,
                context=item.context,
                question=item.question,
                mode="shared",
            )
            end = time.perf_counter()
            runs.append(Run(item, separate, shared, middle - start, end - middle))
            print(
                f"[{number}/{len(items)}] {item.id}: {len(separate['support'].claims)} claims, "
                f"separate {middle - start:.1f} s "
                f"({_fmt(separate['support'])}, {_fmt(separate['contradiction'])}), "
                f"shared {end - middle:.1f} s "
                f"({_fmt(shared['support'])}, {_fmt(shared['contradiction'])})",
                file=sys.stderr,
                flush=True,
            )
    return runs


async def _rerun(items: list[Item], cache_dir: Path) -> tuple[Usage, float]:
    start = time.perf_counter()
    async with ModelClient(ModelConfig.local(cache_dir=cache_dir)) as client:
        for item in items:
            modes: tuple[Mode, ...] = ("separate", "shared")
            for mode in modes:
                await run_judge(
                    client,
                    answer=item.answer,
                    context=item.context,
                    question=item.question,
                    mode=mode,
                )
        usage = client.usage
    return usage, time.perf_counter() - start


def _fmt(result: JudgeResult) -> str:
    if result.status == "unscored":
        return f"-({result.unscored_reason})"
    return f"{result.score:.2f}{'a' if result.abstained else ''}"


def report(runs: list[Run], rerun: tuple[Usage, float], source: str) -> None:
    """Print the figures."""
    n = len(runs)
    claims = [_claims_usage(r) for r in runs]
    per_mode: dict[str, tuple[Usage, float]] = {}
    for mode in ("separate", "shared"):
        usage = Usage()
        wall = 0.0
        for run, claim_usage in zip(runs, claims, strict=True):
            results = run.separate if mode == "separate" else run.shared
            usage = usage + claim_usage + _verdict_usage(results)
            # The shared run read the claims from the cache: charge their first latency.
            wall += run.separate_s if mode == "separate" else run.shared_s + claim_usage.latency_s
        per_mode[mode] = (usage, wall)

    versions = ", ".join(f"{name} {load_prompt(name).version}" for name in PROMPT_NAMES)
    print(f"\nhybridjudge judges on the embedded model, {n} outputs of {source}, 1 repetition")
    print(f"prompt versions: {versions}")
    print(
        f"{'mode':<10}{'calls/eval':>11}{'prompt tok/eval':>17}{'compl tok/eval':>16}"
        f"{'wall s/eval':>13}{'repairs':>9}{'retries':>9}"
    )
    for mode, (usage, wall) in per_mode.items():
        print(
            f"{mode:<10}{usage.calls / n:>11.2f}{usage.prompt_tokens / n:>17.0f}"
            f"{usage.completion_tokens / n:>16.0f}{wall / n:>13.1f}{usage.repairs:>9}"
            f"{usage.retries:>9}"
        )
    sep, sha = per_mode["separate"], per_mode["shared"]
    print(
        "shared / separate: "
        f"calls {sha[0].calls / max(sep[0].calls, 1):.2f}, "
        f"tokens {sha[0].total_tokens / max(sep[0].total_tokens, 1):.2f}, "
        f"wall {sha[1] / max(sep[1], 1e-9):.2f}; "
        f"saved per eval: {(sep[0].calls - sha[0].calls) / n:.2f} calls, "
        f"{(sep[0].total_tokens - sha[0].total_tokens) / n:.0f} tokens, "
        f"{(sep[1] - sha[1]) / n:.1f} s"
    )

    for mode in ("separate", "shared"):
        reasons: dict[str, int] = {}
        for run in runs:
            for result in (run.separate if mode == "separate" else run.shared).values():
                key = result.unscored_reason or ("abstained" if result.abstained else "scored")
                reasons[key] = reasons.get(key, 0) + 1
        print(f"{mode} results by outcome: {dict(sorted(reasons.items()))}")

    for scorer in ("support", "contradiction"):
        same_claims = total_claims = same_scores = both_scored = 0
        diffs = []
        for run in runs:
            a, b = run.separate[scorer], run.shared[scorer]
            if a.scored and b.scored and a.score is not None and b.score is not None:
                both_scored += 1
                same_scores += abs(a.score - b.score) < 1e-9
                diffs.append(abs(a.score - b.score))
            if a.verdicts and b.verdicts:
                total_claims += len(a.verdicts)
                same_claims += sum(
                    x.faithful == y.faithful for x, y in zip(a.verdicts, b.verdicts, strict=True)
                )
        mean_diff = statistics.fmean(diffs) if diffs else float("nan")
        print(
            f"agreement {scorer}: per claim {same_claims}/{total_claims} "
            f"({same_claims / max(total_claims, 1):.0%}); identical output scores "
            f"{same_scores}/{both_scored} ({same_scores / max(both_scored, 1):.0%}); "
            f"mean |score difference| {mean_diff:.3f}"
        )

    usage, wall = rerun
    print(
        f"rerun of both modes from the cache: {usage.calls} HTTP requests, "
        f"{usage.cache_hits} cache hits, {wall:.2f} s for {n} outputs "
        f"(saved {usage.saved_latency_s:.0f} s of model time)"
    )
    print(
        f"QUOTED, not measured here ({QUOTED_PEERS_SOURCE}): RAGAS 0.4.3 2 calls, 1,886 + 606 "
        "tokens, 26 s per output; DeepEval 4.3.1 3.7 calls, 1,479 + 411 tokens, 16 s per output"
    )

    print(
        f"\n{'output':<46}{'defect':<18}{'claims':>6}  {'sep sup':>8}{'sep con':>8}"
        f"{'sh sup':>8}{'sh con':>8}"
    )
    for run in runs:
        s, h = run.separate, run.shared
        print(
            f"{run.item.id:<46}{run.item.defect:<18}{len(s['support'].claims):>6}  "
            f"{_fmt(s['support']):>8}{_fmt(s['contradiction']):>8}"
            f"{_fmt(h['support']):>8}{_fmt(h['contradiction']):>8}"
        )


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="judge only the first N outputs")
    parser.add_argument(
        "--match",
        action="append",
        default=None,
        help="judge only outputs whose id contains this text (repeatable; judged in this order)",
    )
    parser.add_argument(
        "--cache-dir",
        type=Path,
        default=None,
        help="reply cache (default: a fresh temporary directory, so every call is measured)",
    )
    parser.add_argument(
        "--budget-s",
        type=float,
        default=None,
        help="start no new output after this many seconds (report the ones done)",
    )
    args = parser.parse_args(argv)
    items, source = load_items()
    if args.match:
        chosen = [item for text in args.match for item in items if text in item.id]
        items = list({item.id: item for item in chosen}.values())
    if args.limit is not None:
        items = items[: args.limit]
    with tempfile.TemporaryDirectory(prefix="bench-judges-") as tmp:
        cache_dir = args.cache_dir or Path(tmp)
        runs = asyncio.run(_judge_all(items, cache_dir, args.budget_s))
        rerun = asyncio.run(_rerun([run.item for run in runs], cache_dir))
    report(runs, rerun, source)
    return 0


if __name__ == "__main__":
    sys.exit(main())
