"""Benchmark our LLM judges against RAGAS and DeepEval, all measured in this run on one model.

Our judges (support and contradiction, both definitions from one ``judge`` call) and the two peer
scorers (RAGAS 0.4.3 Faithfulness, DeepEval 4.3.1 FaithfulnessMetric, from ``hybridjudge.peers``)
score the same outputs of OpenGATE on the same :class:`~hybridjudge.model.ModelConfig` (default:
the embedded model, ``--backend local``; any OpenAI-compatible endpoint with the usual model
flags) with a fresh reply cache, so every call is a real request. The peers' calls go through
``hybridjudge.peers.PeerProxy``: the same client, cache, retries and usage counting as ours.

Per output, in turn (so a change in the machine's load hits every scorer alike): our judges in
each requested mode, then RAGAS, then DeepEval, each evaluation alone (up to the configuration's
``max_concurrency`` requests of that one evaluation in flight). Prints per scorer: evaluations,
model calls, prompt and completion tokens and wall seconds per evaluation, model seconds by call
scope, unscored results by reason; the ratios ours / (RAGAS + DeepEval) in calls, tokens and wall
time (issue 13's target: at most 0.5 in tokens and in time); a per-output table of scores; and a
rerun of everything from the cache (HTTP requests, expected 0). With ``--modes separate,shared``
it also prints how often the two modes agree. No figure is quoted from elsewhere.

Default outputs: the deterministic sample of the 12 outputs of the cases ``grounding-saas-refund``,
``grounding-unanswerable`` and ``simplify-discharge-brief`` (3 bases and 9 mutants, every defect
class, short and medium answers); ``--all`` for OpenGATE's 27.

Needs the peers' packages (``pip install -e '.[peers,local]'``: ``make bench-judges`` builds the
``.venv-peers`` venv and runs this script there); without them it says so and exits 2.

Run::

    make bench-judges                                       # the default sample, embedded model
    .venv-peers/bin/python bench/bench_judges.py --all      # OpenGATE's 27 outputs
    .venv-peers/bin/python bench/bench_judges.py --match grounding-saas --limit 2   # quick look
    .venv-peers/bin/python bench/bench_judges.py --modes separate,shared
    .venv-peers/bin/python bench/bench_judges.py --base-url URL --model NAME   # another endpoint
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from hybridjudge import HybridJudgeError
from hybridjudge.corpus import Case, Output, read_jsonl_models
from hybridjudge.judges import PROMPT_NAMES, JudgeResult, Mode, load_prompt
from hybridjudge.judges import judge as run_judge
from hybridjudge.model import ModelClient, ModelConfig, Usage
from hybridjudge.peers import PEERS, PeerName, PeerProxy, PeerResult, ascore_peer, require_peer

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "corpus" / "opengate"

DEFAULT_CASES = ("grounding-saas-refund", "grounding-unanswerable", "simplify-discharge-brief")
"""The default sample: every output of these cases (12 outputs, every defect class)."""

TARGET_RATIO = 0.5
"""Issue 13: ours (both definitions together) at most this share of RAGAS + DeepEval together."""


@dataclass(frozen=True)
class Item:
    """One output to judge with its case."""

    id: str
    defect: str
    answer: str
    context: tuple[str, ...]
    question: str | None


def load_items() -> list[Item]:
    """OpenGATE's 27 outputs (6 bases, 21 mutants) with their cases, from ``corpus/opengate``."""
    cases = {c.id: c for c in read_jsonl_models(CORPUS / "cases.jsonl", Case)}
    return [
        Item(
            o.id,
            o.defect or "none",
            o.text,
            tuple(cases[o.case_id].context),
            cases[o.case_id].question,
        )
        for o in read_jsonl_models(CORPUS / "outputs.jsonl", Output)
    ]


def choose(
    items: Sequence[Item], *, all_outputs: bool, match: Sequence[str] | None, limit: int | None
) -> list[Item]:
    """The outputs to judge: ``match`` (ids containing a text, in that order), else all or the
    default cases' outputs; then the first ``limit``."""
    if match:
        chosen = [item for text in match for item in items if text in item.id]
    elif all_outputs:
        chosen = list(items)
    else:
        chosen = [i for i in items if i.id.split("::", 1)[0] in DEFAULT_CASES]
    unique = list({item.id: item for item in chosen}.values())
    return unique if limit is None else unique[:limit]


def minus(after: Usage, before: Usage) -> Usage:
    """``after - before`` for every counter of a :class:`Usage` (costs: ``None`` stays unknown)."""

    def cost(a: float | None, b: float | None) -> float | None:
        return None if a is None or b is None else a - b

    return Usage(
        calls=after.calls - before.calls,
        cache_hits=after.cache_hits - before.cache_hits,
        retries=after.retries - before.retries,
        repairs=after.repairs - before.repairs,
        prompt_tokens=after.prompt_tokens - before.prompt_tokens,
        completion_tokens=after.completion_tokens - before.completion_tokens,
        cost_usd=cost(after.cost_usd, before.cost_usd),
        latency_s=after.latency_s - before.latency_s,
        saved_cost_usd=cost(after.saved_cost_usd, before.saved_cost_usd),
        saved_latency_s=after.saved_latency_s - before.saved_latency_s,
    )


def scope_delta(after: Mapping[str, Usage], before: Mapping[str, Usage]) -> dict[str, Usage]:
    """Per-scope usage added between two ``usage_by_scope`` snapshots (unchanged scopes left out)."""
    out: dict[str, Usage] = {}
    for scope, usage in after.items():
        delta = minus(usage, before.get(scope, Usage()))
        if delta.calls or delta.cache_hits:
            out[scope] = delta
    return out


def total(usages: Mapping[str, Usage]) -> Usage:
    """The sum of per-scope usages."""
    out = Usage()
    for usage in usages.values():
        out = out + usage
    return out


@dataclass
class Ours:
    """Our judges on one output in one mode: results, usage by call scope, wall seconds."""

    results: dict[str, JudgeResult]
    scopes: dict[str, Usage]
    wall_s: float


@dataclass
class Row:
    """Every scorer's outcome on one output."""

    item: Item
    ours: dict[str, Ours] = field(default_factory=dict)
    peers: dict[str, PeerResult] = field(default_factory=dict)
    peer_wall_s: dict[str, float] = field(default_factory=dict)


def charge_shared_calls(rows: Sequence[Row], modes: Sequence[str]) -> None:
    """A later mode reads the calls it shares with the first (the claim extraction) from the
    cache: charge it the first mode's usage of those scopes and their model seconds, so each mode
    is costed as if it ran alone."""
    first = modes[0]
    for row in rows:
        for mode in modes[1:]:
            ours = row.ours[mode]
            for scope, usage in list(ours.scopes.items()):
                original = row.ours[first].scopes.get(scope)
                if usage.calls == 0 and usage.cache_hits and original is not None:
                    ours.scopes[scope] = original
                    ours.wall_s += original.latency_s


async def measure(
    items: Sequence[Item],
    config: ModelConfig,
    modes: Sequence[Mode],
    peers: Sequence[PeerName],
    budget_s: float | None,
) -> list[Row]:
    """Score every item with our judges (each mode) and each peer, one evaluation at a time."""
    rows: list[Row] = []
    began = time.perf_counter()
    async with ModelClient(config) as client:
        with PeerProxy(config) as proxy:
            for number, item in enumerate(items, start=1):
                if budget_s is not None and time.perf_counter() - began > budget_s:
                    print(
                        f"time budget of {budget_s:.0f} s spent: stopping after {len(rows)} "
                        f"of {len(items)} outputs",
                        file=sys.stderr,
                    )
                    break
                row = Row(item)
                for mode in modes:
                    before = client.usage_by_scope
                    start = time.perf_counter()
                    results = await run_judge(
                        client,
                        answer=item.answer,
                        context=item.context,
                        question=item.question,
                        mode=mode,
                    )
                    wall = time.perf_counter() - start
                    row.ours[mode] = Ours(results, scope_delta(client.usage_by_scope, before), wall)
                for peer in peers:
                    start = time.perf_counter()
                    row.peers[peer] = await ascore_peer(
                        proxy,
                        peer,
                        answer=item.answer,
                        context=item.context,
                        question=item.question or "",
                    )
                    row.peer_wall_s[peer] = time.perf_counter() - start
                rows.append(row)
                parts = [
                    f"{mode} {row.ours[mode].wall_s:.1f} s ({_fmt(row.ours[mode].results['support'])}"
                    f", {_fmt(row.ours[mode].results['contradiction'])})"
                    for mode in modes
                ] + [f"{p} {row.peer_wall_s[p]:.1f} s ({_fmt(row.peers[p])})" for p in peers]
                print(
                    f"[{number}/{len(items)}] {item.id}: " + "; ".join(parts),
                    file=sys.stderr,
                    flush=True,
                )
    return rows


async def rerun(
    items: Sequence[Item], config: ModelConfig, modes: Sequence[Mode], peers: Sequence[PeerName]
) -> tuple[Usage, float]:
    """Everything again from the same cache: the requests it makes (expected 0) and its time."""
    start = time.perf_counter()
    async with ModelClient(config) as client:
        with PeerProxy(config) as proxy:
            for item in items:
                for mode in modes:
                    await run_judge(
                        client,
                        answer=item.answer,
                        context=item.context,
                        question=item.question,
                        mode=mode,
                    )
                for peer in peers:
                    await ascore_peer(
                        proxy,
                        peer,
                        answer=item.answer,
                        context=item.context,
                        question=item.question or "",
                    )
            usage = client.usage + proxy.usage
    return usage, time.perf_counter() - start


def _fmt(result: JudgeResult | PeerResult) -> str:
    if result.status == "unscored":
        return f"-({result.unscored_reason})"
    abstained = isinstance(result, JudgeResult) and result.abstained
    return f"{result.score:.2f}{'a' if abstained else ''}"


@dataclass(frozen=True)
class Figures:
    """One scorer's totals over the run."""

    name: str
    evaluations: int
    usage: Usage
    wall_s: float
    outcomes: dict[str, int]
    scope: bool = False
    """A row of one call scope of ours (no wall time of its own: the calls may overlap)."""

    def line(self) -> str:
        """A table row of per-evaluation figures."""
        n = max(self.evaluations, 1)
        u = self.usage
        return (
            f"{self.name:<32}{self.evaluations:>6}{u.calls / n:>8.2f}{u.prompt_tokens / n:>10.0f}"
            f"{u.completion_tokens / n:>9.0f}{u.total_tokens / n:>9.0f}"
            f"{'-' if self.scope else format(self.wall_s / n, '.1f'):>9}"
            f"{u.latency_s / n:>9.1f}{u.repairs:>5}{u.retries:>5}{u.cache_hits:>6}"
        )


HEADER = (
    f"{'scorer':<32}{'evals':>6}{'calls':>8}{'prompt':>10}{'compl':>9}{'tokens':>9}{'wall s':>9}"
    f"{'model s':>9}{'rep':>5}{'ret':>5}{'hits':>6}"
)


def _outcome(result: JudgeResult | PeerResult) -> str:
    if result.unscored_reason is not None:
        return str(result.unscored_reason)
    return "abstained" if isinstance(result, JudgeResult) and result.abstained else "scored"


def figures(rows: Sequence[Row], modes: Sequence[str], peers: Sequence[str]) -> list[Figures]:
    """Totals per scorer: ours per mode (both definitions), each of its call scopes, each peer."""
    out: list[Figures] = []
    n = len(rows)
    for mode in modes:
        outcomes: dict[str, int] = {}
        for row in rows:
            for result in row.ours[mode].results.values():
                key = f"{result.scorer}:{_outcome(result)}"
                outcomes[key] = outcomes.get(key, 0) + 1
        scopes = sorted({s for row in rows for s in row.ours[mode].scopes})
        out.append(
            Figures(
                f"ours {mode} (sup+con)",
                n,
                total({r.item.id: total(r.ours[mode].scopes) for r in rows}),
                sum(r.ours[mode].wall_s for r in rows),
                dict(sorted(outcomes.items())),
            )
        )
        for scope in scopes:
            usage = Usage()
            for row in rows:
                usage = usage + row.ours[mode].scopes.get(scope, Usage())
            out.append(Figures(f"  {mode} calls: {scope}", n, usage, 0.0, {}, scope=True))
    for peer in peers:
        outcomes = {}
        usage = Usage()
        for row in rows:
            scored = row.peers[peer]
            usage = usage + scored.usage
            outcomes[_outcome(scored)] = outcomes.get(_outcome(scored), 0) + 1
        wall = sum(r.peer_wall_s[peer] for r in rows)
        out.append(Figures(peer, n, usage, wall, dict(sorted(outcomes.items()))))
    return out


def ratio(ours: float, peers: float) -> str:
    """``ours / peers`` with two decimals (``n/a`` when the peers used nothing)."""
    return f"{ours / peers:.2f}" if peers > 0 else "n/a"


def report(
    rows: Sequence[Row],
    modes: Sequence[str],
    peers: Sequence[str],
    again: tuple[Usage, float],
    config: ModelConfig,
) -> None:
    """Print the figures."""
    n = len(rows)
    model = config.describe()
    versions = ", ".join(f"{name} {load_prompt(name).version}" for name in PROMPT_NAMES)
    peer_versions = ", ".join(f"{p} {require_peer(p)}" for p in PEERS if p in peers)
    print(
        f"\nOpenGATE, {n} outputs, 1 repetition, model {model['model']} ({model['backend']}), "
        f"temperature {model['temperature']}, max_concurrency {config.max_concurrency}, "
        "fresh cache: every figure measured in this run"
    )
    print(f"our prompt versions: {versions}; peers: {peer_versions}")
    print("per evaluation (one output scored by the scorer; ours = both definitions at once):")
    print(HEADER)
    table = figures(rows, modes, peers)
    for fig in table:
        print(fig.line())
    print(
        "wall s: the evaluation's elapsed time; model s: summed request latencies; rep, ret, "
        "hits: repairs, retries and cache hits in total. Hits come from this run only (the "
        "cache starts empty): a request identical to an earlier one, e.g. our per-claim "
        "calls for the sentences a mutant shares with its base, or DeepEval's truths of a "
        "context it has already read"
    )
    for fig in table:
        if fig.outcomes:
            print(f"outcomes {fig.name.strip()}: {fig.outcomes}")

    by_name = {fig.name: fig for fig in table}
    peer_usage = Usage()
    peer_wall = 0.0
    for peer in peers:
        peer_usage = peer_usage + by_name[peer].usage
        peer_wall += by_name[peer].wall_s
    if peers:
        print(
            f"\nours / ({' + '.join(peers)}) together (target <= {TARGET_RATIO}x in tokens and time):"
        )
        for mode in modes:
            ours = by_name[f"ours {mode} (sup+con)"]
            tokens = ratio(ours.usage.total_tokens, peer_usage.total_tokens)
            wall = ratio(ours.wall_s, peer_wall)
            met = (
                peer_usage.total_tokens > 0
                and peer_wall > 0
                and ours.usage.total_tokens <= TARGET_RATIO * peer_usage.total_tokens
                and ours.wall_s <= TARGET_RATIO * peer_wall
            )
            print(
                f"  {mode:<9} calls {ratio(ours.usage.calls, peer_usage.calls)}x, "
                f"prompt tokens {ratio(ours.usage.prompt_tokens, peer_usage.prompt_tokens)}x, "
                f"completion tokens "
                f"{ratio(ours.usage.completion_tokens, peer_usage.completion_tokens)}x, "
                f"tokens {tokens}x, wall time {wall}x, model time "
                f"{ratio(ours.usage.latency_s, peer_usage.latency_s)}x: "
                f"{'meets' if met else 'MISSES'} the target"
            )

    if len(modes) > 1:
        agreement(rows, modes[0], modes[1])

    usage, seconds = again
    print(
        f"\nrerun of every scorer from the cache: {usage.calls} HTTP requests, "
        f"{usage.cache_hits} cache hits, {seconds:.2f} s for {n} outputs "
        f"(saved {usage.saved_latency_s:.0f} s of model time)"
    )

    columns = [f"{m[:3]} {s[:3]}" for m in modes for s in ("support", "contradiction")]
    print(f"\n{'output':<46}{'defect':<18}" + "".join(f" {c:>18}" for c in [*columns, *peers]))
    for row in rows:
        cells = [
            _fmt(row.ours[m].results[s]) for m in modes for s in ("support", "contradiction")
        ] + [_fmt(row.peers[p]) for p in peers]
        print(f"{row.item.id:<46}{row.item.defect:<18}" + "".join(f" {c:>18}" for c in cells))


def agreement(rows: Sequence[Row], first: str, second: str) -> None:
    """How often two modes agree, per claim and per output score."""
    for scorer in ("support", "contradiction"):
        same_claims = total_claims = same_scores = both_scored = 0
        diffs: list[float] = []
        for row in rows:
            a, b = row.ours[first].results[scorer], row.ours[second].results[scorer]
            if a.score is not None and b.score is not None:
                both_scored += 1
                same_scores += abs(a.score - b.score) < 1e-9
                diffs.append(abs(a.score - b.score))
            if a.verdicts and len(a.verdicts) == len(b.verdicts):
                total_claims += len(a.verdicts)
                same_claims += sum(
                    x.faithful == y.faithful for x, y in zip(a.verdicts, b.verdicts, strict=True)
                )
        mean_diff = statistics.fmean(diffs) if diffs else float("nan")
        print(
            f"agreement {first}/{second} {scorer}: per claim {same_claims}/{total_claims}; "
            f"identical output scores {same_scores}/{both_scored}; "
            f"mean |score difference| {mean_diff:.3f}"
        )


def _modes(text: str) -> list[Mode]:
    out: list[Mode] = []
    for part in text.split(","):
        name = part.strip()
        if name == "separate":
            out.append("separate")
        elif name == "shared":
            out.append("shared")
        else:
            raise argparse.ArgumentTypeError(f"unknown mode {name!r}: use separate and/or shared")
    if not out:
        raise argparse.ArgumentTypeError("no mode given: use separate and/or shared")
    return list(dict.fromkeys(out))


def build_config(args: argparse.Namespace, cache_dir: Path) -> ModelConfig:
    """The model configuration from the model flags, with ``cache_dir`` unless one was given."""
    from hybridjudge.cli._model_args import config_from_args

    config = config_from_args(args)
    if getattr(args, "model_cache_dir", None) is None:
        config = config.model_copy(update={"cache_dir": cache_dir})
    return config


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command line."""
    from hybridjudge.cli._model_args import add_model_arguments

    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--all", action="store_true", help="all 27 OpenGATE outputs")
    parser.add_argument(
        "--match",
        action="append",
        default=None,
        help="judge only outputs whose id contains this text (repeatable; in this order)",
    )
    parser.add_argument("--limit", type=int, default=None, help="only the first N outputs")
    parser.add_argument(
        "--modes",
        type=_modes,
        default=["separate"],
        help="our judging modes, comma-separated: separate (default), shared, or both",
    )
    parser.add_argument(
        "--budget-s",
        type=float,
        default=None,
        help="start no new output after this many seconds (report the ones done)",
    )
    add_model_arguments(parser)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; 2 when the peers are not installed or the model cannot be used."""
    args = parse_args(argv)
    peers: list[PeerName] = list(PEERS)
    try:
        for peer in peers:
            require_peer(peer)
    except HybridJudgeError as exc:
        print(
            f"bench_judges: {exc}. The peers are measured in the same run, so this benchmark "
            "needs them: make bench-judges (builds .venv-peers with the [peers,local] extras), "
            "or pip install -e '.[peers,local]'",
            file=sys.stderr,
        )
        return 2
    items = choose(load_items(), all_outputs=args.all, match=args.match, limit=args.limit)
    if not items:
        print("bench_judges: no output matches --match/--limit", file=sys.stderr)
        return 2
    modes: list[Mode] = args.modes
    with tempfile.TemporaryDirectory(prefix="bench-judges-") as tmp:
        try:
            config = build_config(args, Path(tmp))
            rows = asyncio.run(measure(items, config, modes, peers, args.budget_s))
            charge_shared_calls(rows, modes)
            again = asyncio.run(rerun([row.item for row in rows], config, modes, peers))
        except HybridJudgeError as exc:
            print(f"bench_judges: {exc}", file=sys.stderr)
            return 2
    report(rows, modes, peers, again, config)
    return 0


if __name__ == "__main__":
    sys.exit(main())
