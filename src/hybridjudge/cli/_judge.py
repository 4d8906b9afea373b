"""``hybridjudge judge``: support- and contradiction-based faithfulness of each case's answer.

Reads the same case lines as ``hybridjudge check`` (one JSON object per line: ``id``, ``answer``,
``context``, optional ``question`` ...). A bad line is reported on stderr with its line number and
the others are still judged. Exit codes: 0 every line was judged (scores and unscored results
alike: an unscored result is a reported outcome, not a crash), 2 some line was unusable or the
configuration is invalid.

``--json`` prints one object per case and repetition (format version :data:`JSON_FORMAT_VERSION`):
``{"format_version", "line", "id", "repetition", "mode", "results": {scorer: JudgeResult},
"usage": Usage}``. Without it, a table and a usage summary (calls, tokens, cost, cache hits and
what they saved).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hybridjudge.corpus import CaseLine
    from hybridjudge.judges import JudgeResult, Mode
    from hybridjudge.model import ModelClient, ModelConfig, Usage

__all__ = ["JSON_FORMAT_VERSION", "register"]

JSON_FORMAT_VERSION = 1
"""Version of the ``--json`` line format."""

_PROGRESS_MIN_TASKS = 4


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``judge``."""
    from hybridjudge.model import add_model_arguments

    parser = subparsers.add_parser(
        "judge",
        help="LLM judges: support- and contradiction-based faithfulness per case",
        description=(
            "Judge each case's answer against its context with an LLM: 'support' asks per claim "
            "whether the context directly supports it (RAGAS-style), 'contradiction' whether the "
            "context contradicts it (DeepEval-style; unknown counts as faithful). Every result "
            "is a score with per-claim verdicts, or unscored with a reason (no_claims, "
            "parse_failure, model_error). Replies are cached: a rerun costs nothing."
        ),
    )
    parser.add_argument(
        "cases", metavar="CASES.jsonl", help="case lines as for 'hybridjudge check'"
    )
    parser.add_argument(
        "--scorers",
        default="support,contradiction",
        help="comma-separated scorers: support, contradiction (default both)",
    )
    parser.add_argument(
        "--mode",
        choices=("separate", "shared"),
        default="separate",
        help="'separate': one verdict call per scorer (default); 'shared': one three-way call "
        "(supported / contradicted / not in context) feeds both scores",
    )
    parser.add_argument(
        "--repetitions",
        type=int,
        default=1,
        metavar="R",
        help="judge each case R times (repetition index in the cache key; default 1)",
    )
    parser.add_argument(
        "--json", action="store_true", help="print one JSON object per case and repetition"
    )
    add_model_arguments(parser)
    parser.set_defaults(handler=_run)


def _parse_scorers(text: str) -> tuple[str, ...]:
    from hybridjudge._errors import ConfigError
    from hybridjudge.judges import SCORERS

    names = tuple(part.strip() for part in text.split(",") if part.strip())
    unknown = [n for n in names if n not in SCORERS]
    if not names or unknown:
        raise ConfigError(
            f"--scorers {text!r}: unknown or missing scorer {unknown or ''}; "
            f"use a comma-separated list of {', '.join(SCORERS)}"
        )
    if len(set(names)) != len(names):
        raise ConfigError(f"--scorers {text!r}: a scorer is listed twice; list each once")
    return names


def _run(args: argparse.Namespace) -> int:
    from hybridjudge._errors import ConfigError
    from hybridjudge.corpus import read_case_lines
    from hybridjudge.model import config_from_args

    scorers = _parse_scorers(args.scorers)
    if args.repetitions < 1:
        raise ConfigError(f"--repetitions {args.repetitions}: give 1 or more")
    config = config_from_args(args)

    lines = list(read_case_lines(args.cases))
    bad = 0
    cases: list[tuple[int, CaseLine]] = []
    for item in lines:
        if item.error is not None:
            bad += 1
            print(f"hybridjudge judge: skipped: {item.error}", file=sys.stderr)
        elif item.case is not None:
            cases.append((item.line, item.case))

    jobs = [(line, case, rep) for line, case in cases for rep in range(args.repetitions)]
    results, total, by_scope = asyncio.run(_judge_all(config, jobs, scorers, args.mode))

    if args.json:
        _print_json(jobs, results, args.mode)
    else:
        _print_table(jobs, results, scorers, total, by_scope, config, bad)
    if bad:
        print(
            f"hybridjudge judge: {bad} of {len(lines)} line(s) unusable (see above); "
            "fix them and rerun (judged lines are cached)",
            file=sys.stderr,
        )
        return 2
    return 0


async def _judge_all(
    config: ModelConfig,
    jobs: list[tuple[int, CaseLine, int]],
    scorers: tuple[str, ...],
    mode: Mode,
) -> tuple[list[dict[str, JudgeResult]], Usage, dict[str, Usage]]:
    """Judge every (case, repetition) concurrently (the client bounds the requests in flight)."""
    from hybridjudge.judges import judge
    from hybridjudge.model import ModelClient

    results: list[dict[str, JudgeResult] | None] = [None] * len(jobs)

    async def one(index: int, client: ModelClient) -> int:
        _, case, rep = jobs[index]
        results[index] = await judge(
            client,
            answer=case.answer,
            context=case.context,
            question=case.question,
            scorers=scorers,
            mode=mode,
            repetition=rep,
        )
        return index

    async with ModelClient(config) as client:
        tasks = [asyncio.ensure_future(one(i, client)) for i in range(len(jobs))]
        try:
            if len(jobs) >= _PROGRESS_MIN_TASKS and sys.stderr.isatty():
                from rich.console import Console
                from rich.progress import Progress

                with Progress(console=Console(stderr=True), transient=True) as progress:
                    bar = progress.add_task("judging", total=len(jobs))
                    for done in asyncio.as_completed(tasks):
                        await done
                        progress.advance(bar)
            else:
                await asyncio.gather(*tasks)
        except BaseException:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            raise
        total = client.usage
        by_scope = dict(client.usage_by_scope)
    return [r for r in results if r is not None], total, by_scope


def _print_json(
    jobs: list[tuple[int, CaseLine, int]], results: list[dict[str, JudgeResult]], mode: str
) -> None:
    from hybridjudge.judges import total_usage

    for (line, case, rep), per_scorer in zip(jobs, results, strict=True):
        record = {
            "format_version": JSON_FORMAT_VERSION,
            "line": line,
            "id": case.id,
            "repetition": rep,
            "mode": mode,
            "results": {name: r.model_dump(mode="json") for name, r in per_scorer.items()},
            "usage": total_usage(per_scorer).model_dump(mode="json"),
        }
        sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")


def _cell(result: JudgeResult) -> str:
    if result.status == "unscored":
        return f"[yellow]unscored: {result.unscored_reason}[/yellow]"
    if result.abstained:
        return f"{result.score:.2f} (abstained)"
    faithful = sum(v.faithful for v in result.verdicts)
    return f"{result.score:.2f} ({faithful}/{len(result.verdicts)})"


def _print_table(
    jobs: list[tuple[int, CaseLine, int]],
    results: list[dict[str, JudgeResult]],
    scorers: tuple[str, ...],
    total: Usage,
    by_scope: dict[str, Usage],
    config: ModelConfig,
    bad: int,
) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    table = Table(title="faithfulness (faithful claims / claims)")
    table.add_column("case", overflow="fold")
    table.add_column("rep", justify="right")
    table.add_column("claims", justify="right")
    for name in scorers:
        table.add_column(name, justify="right")
    for (_, case, rep), per_scorer in zip(jobs, results, strict=True):
        first = next(iter(per_scorer.values()))
        cells = [_cell(per_scorer[name]) for name in scorers]
        table.add_row(case.id, str(rep), str(len(first.claims)), *cells)
    console.print(table)

    usage = Table(title=f"model usage ({config.model})")
    for column in (
        "scope",
        "calls",
        "hits",
        "retries",
        "repairs",
        "tokens in/out",
        "USD",
        "saved s",
    ):
        usage.add_column(column, justify="left" if column == "scope" else "right")
    for scope, u in [*sorted(by_scope.items()), ("total", total)]:
        usage.add_row(
            scope,
            str(u.calls),
            str(u.cache_hits),
            str(u.retries),
            str(u.repairs),
            f"{u.prompt_tokens}/{u.completion_tokens}",
            f"{u.cost_usd:.4f}",
            f"{u.saved_latency_s:.1f}",
        )
    console.print(usage)
    unscored = sum(r.status == "unscored" for per in results for r in per.values())
    console.print(
        f"{len(results)} evaluation(s), {unscored} unscored result(s), {bad} unusable line(s); "
        f"{total.calls} model call(s) costing ${total.cost_usd:.4f} in {total.latency_s:.1f} s; "
        f"{total.cache_hits} cache hit(s) saved ${total.saved_cost_usd:.4f} and "
        f"{total.saved_latency_s:.1f} s",
        soft_wrap=True,
    )
