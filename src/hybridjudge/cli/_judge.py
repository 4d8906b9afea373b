"""``hybridjudge judge``: support- and contradiction-based faithfulness of each case's answer.

Reads the same case records as ``hybridjudge check`` (``id``, ``answer``, ``context``, optional
``question`` ...) and judges them with :func:`hybridjudge.judges.ajudge_many`, the loop the study
uses too. A bad line is reported on stderr with its line number and the others are still judged.
``--scorers hybrid`` runs the cascade instead (:mod:`hybridjudge.cli._hybrid`). Exit codes
(:data:`hybridjudge.cli._exit.COMMAND_EXIT_CODES`): 0 every scored output passes (its
score at or above the scorer's ``--threshold``, default 1.0), or each scorer's share that passes
is at least its ``--fail-under``; 1 otherwise; 2 some line was unusable or the configuration is
invalid; 3 a scorer with more results unscored than ``--max-unscored`` allows (or every one of its
results unscored).

``--json`` prints one object per case and repetition (format version :data:`JSON_FORMAT_VERSION`):
``{"format_version", "line", "id", "repetition", "mode", "results": {scorer: JudgeResult},
"usage": Usage, "metadata": {...}}`` (``metadata``: the case's own extra fields). Each scored
result lists one verdict per claim: ``claim``, ``label``, ``reason``, ``faithful``, ``quote``
(the span the model quoted as stating the claim), ``quote_found`` (whether that quote is really
in the context) and ``evidence`` (the context sentences the claim was judged against); version 2
added the last three. Without ``--json``, a table and a usage summary (calls, tokens, cost,
cache hits and what they saved).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hybridjudge.corpus import CaseLine
    from hybridjudge.judges import JudgeBatch, JudgeOutcome, JudgeResult, Mode
    from hybridjudge.model import CostBudget, ModelConfig, Usage

from hybridjudge._params import DEFAULT_MAX_CLAIMS, DEFAULT_THRESHOLD
from hybridjudge.cli._common import ListAction

__all__ = ["JSON_FORMAT_VERSION", "judged_outputs_fail", "pass_rule", "register"]

JSON_FORMAT_VERSION = 2
"""Version of the ``--json`` line format (2: per-claim ``quote``, ``quote_found``, ``evidence``)."""

_PROGRESS_MIN_TASKS = 4


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``judge``."""
    from hybridjudge.cli._budget import add_budget_arguments
    from hybridjudge.cli._check import add_input_arguments
    from hybridjudge.cli._dryrun import add_dry_run_argument
    from hybridjudge.cli._exit import add_max_unscored_argument
    from hybridjudge.cli._model_args import add_model_arguments

    parser = subparsers.add_parser(
        "judge",
        help="LLM judges: support- and contradiction-based faithfulness per case",
        description=(
            "Judge each case's answer against its context with an LLM: 'support' asks per claim "
            "whether the context directly supports it (RAGAS-style), 'contradiction' whether the "
            "context contradicts it (DeepEval-style; unknown counts as faithful). Every result "
            "is a score with per-claim verdicts, or unscored with a reason (no_claims, "
            "parse_failure, model_error, too_many_claims, budget_exhausted). Replies are "
            "cached: a rerun costs nothing."
        ),
    )
    parser.add_argument(
        "cases",
        metavar="CASES",
        help="case file: JSONL, JSON, CSV or Parquet, one case per line or record, as for "
        "'hybridjudge check' (or --format)",
    )
    parser.add_argument(
        "--scorers",
        nargs="+",
        action=ListAction,
        default=["support", "contradiction"],
        metavar="SCORER",
        help="scorers to run, comma- or space-separated: support, contradiction (default both); "
        "or hybrid alone: the cascade (the checks first, claims stated as written, then "
        "--hybrid-judges on the remaining claims; docs/hybrid.md)",
    )
    from hybridjudge.cli._hybrid import add_hybrid_judges_argument

    add_hybrid_judges_argument(parser)
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
        "--json",
        action="store_true",
        help="print one JSON object per case and repetition (format_version "
        f"{JSON_FORMAT_VERSION}: line, id, repetition, mode, results per scorer, usage, "
        "metadata)",
    )
    add_input_arguments(parser)
    from hybridjudge.cli._study import scorer_threshold

    parser.add_argument(
        "--threshold",
        type=scorer_threshold,
        action="append",
        default=[],
        metavar="SCORER=VALUE",
        help=f"an output passes a scorer when its score is at or above VALUE, e.g. "
        f"--threshold support=0.8 (repeatable; default {DEFAULT_THRESHOLD:g} for every scorer: "
        "every claim faithful; 'study run' flags an output below it)",
    )
    parser.add_argument(
        "--threshold-from",
        type=Path,
        default=None,
        metavar="RESULTS_DIR",
        help="take each scorer's --threshold from a study run with --false-alarm-budget (its "
        "directory or study.json): the threshold chosen there to keep false alarms within "
        "the budget; a scorer the study chose none for is an error, never a default",
    )
    parser.add_argument(
        "--fail-under",
        action="append",
        default=[],
        metavar="SCORER=SHARE",
        help="exit 1 only when the share of a scorer's scored outputs that pass (--threshold) "
        "is below SHARE, e.g. --fail-under support=0.9 (repeatable; default: every scored "
        "output must pass, so one failing output exits 1; unscored outputs count against "
        "--max-unscored instead)",
    )
    add_dry_run_argument(parser)
    add_max_unscored_argument(parser)
    add_budget_arguments(parser)
    add_model_arguments(parser)
    from hybridjudge.cli._ray import add_ray_arguments

    add_ray_arguments(parser)
    parser.set_defaults(handler=_run)


def _parse_scorers(items: list[str]) -> tuple[str, ...]:
    from hybridjudge._errors import ConfigError
    from hybridjudge.judges import SCORERS

    text = ",".join(items)
    names = tuple(items)
    if "hybrid" in names and len(names) > 1:
        raise ConfigError(
            f"--scorers {text!r}: the hybrid scorer runs alone in 'judge' (it asks its own "
            "judges, --hybrid-judges); to compare it with the judges, use 'study run --scorers "
            "deterministic,support,contradiction,hybrid'"
        )
    if names == ("hybrid",):
        return names
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
    from hybridjudge._params import check_repetitions
    from hybridjudge.cli._budget import budget_from_args, report_budget
    from hybridjudge.cli._check import read_delimiter, read_limits, warn_duplicate_ids
    from hybridjudge.cli._exit import EXIT_INCOMPLETE, judged_incomplete
    from hybridjudge.cli._model_args import config_from_args
    from hybridjudge.cli._ray import check_ray_flags
    from hybridjudge.corpus import read_cases
    from hybridjudge.model import budget_price

    scorers = _parse_scorers(args.scorers)
    hybrid = scorers == ("hybrid",)
    if (args.hybrid_judges is not None or args.hybrid_grade_failed) and not hybrid:
        raise ConfigError(
            "--hybrid-judges and --hybrid-grade-failed set the hybrid scorer, but --scorers is "
            "not hybrid; use --scorers hybrid, or drop them"
        )
    if hybrid and args.ray is not None:
        raise ConfigError(
            "--scorers hybrid does not run on --ray yet (the checks decide most outputs without "
            "a call); run it without --ray"
        )
    check_repetitions(args.repetitions)
    limits, thresholds = pass_rule(args, scorers)
    config = config_from_args(args)
    check_ray_flags(args)
    budget = budget_from_args(args)
    if budget is not None:
        if args.ray is not None:
            raise ConfigError(
                "--max-cost is not available with --ray yet (the workers would need one "
                "budget for the whole cluster); run without --ray, or bound the rate with "
                "--rpm/--tpm"
            )
        budget_price(config)  # before reading the cases: a limit in dollars needs a price
    if not args.dry_run:  # before any work: one line on how to get a model, not a traceback
        from hybridjudge.cli._model_args import require_judge_model

        require_judge_model([config])
    if args.ray is not None:  # on a Ray cluster: hybridjudge.dist
        from hybridjudge.cli._ray import run_judge

        return run_judge(args, config, scorers)

    lines = read_cases(
        args.cases,
        strict=args.strict,
        format=args.format,
        limits=read_limits(args),
        delimiter=read_delimiter(args),
    )
    bad = 0
    cases: list[tuple[int, CaseLine]] = []
    for item in lines:
        if item.error is not None:
            bad += 1
            print(f"hybridjudge judge: skipped: {item.error}", file=sys.stderr)
        elif item.case is not None:
            cases.append((item.line, item.case))
    if not args.quiet:
        warn_duplicate_ids("hybridjudge judge", [(line, case.id) for line, case in cases])
    if not lines:  # an empty or blank file: nothing to judge is not a success
        print(
            f"hybridjudge judge: {args.cases}: no case in the file; nothing was judged (give one "
            "case per line or record)",
            file=sys.stderr,
        )
        return 2

    if hybrid and not args.dry_run:
        from hybridjudge.cli._hybrid import run_hybrid

        return run_hybrid(args, config, cases, limits, thresholds, budget, bad, len(lines))

    if args.dry_run:
        from hybridjudge.cli._dryrun import (
            estimate_hybrid,
            estimate_judging,
            print_estimate,
            refused_incomplete,
        )

        if hybrid:
            from hybridjudge.cli._hybrid import check_records

            estimate = estimate_hybrid(
                check_records(cases),
                judges=args.hybrid_judges,
                mode=args.mode,
                repetitions=args.repetitions,
                config=config,
                max_claims=args.max_claims,
                grade_failed=args.hybrid_grade_failed,
            )
        else:
            estimate = estimate_judging(
                [(c.answer, c.context, c.question) for _, c in cases],
                scorers=scorers,
                mode=args.mode,
                repetitions=args.repetitions,
                config=config,
                max_claims=args.max_claims,
            )
        print_estimate(
            "hybridjudge judge", estimate, config, as_json=args.json, max_cost=args.max_cost
        )
        where = [f"line {line}" for line, _ in cases]
        incomplete = refused_incomplete(
            "hybridjudge judge", estimate, where, scorers, args.repetitions, args.max_unscored
        )
        if bad:
            return 2
        return EXIT_INCOMPLETE if incomplete else 0

    import asyncio  # here, not at the top: `hybridjudge check` builds this parser too

    line_of = [line for line, _ in cases]
    finished: list[JudgeOutcome] = []
    try:
        batch, total, by_scope = asyncio.run(
            _judge_all(
                config,
                cases,
                scorers,
                args.mode,
                args.repetitions,
                args.quiet,
                on_outcome=finished.append,
                max_claims=args.max_claims,
                budget=budget,
            )
        )
    except KeyboardInterrupt:
        if args.json:  # the lines of the outputs already judged, in input order
            done = sorted(finished, key=lambda o: (o.repetition, o.index))
            _print_json(line_of, done, args.mode)
        raise

    if args.json:
        _print_json(line_of, batch.outcomes, batch.mode)
    else:
        _print_table(batch, total, by_scope, config, bad)
    left = sum(
        r.unscored_reason == "budget_exhausted" for o in batch.outcomes for r in o.results.values()
    )
    report_budget("hybridjudge judge", budget, left)
    if bad:
        print(
            f"hybridjudge judge: {bad} of {len(lines)} line(s) unusable (see above); "
            "fix them and rerun (judged lines are cached)",
            file=sys.stderr,
        )
        return 2
    counts = {
        name: (
            sum(o.results[name].status == "unscored" for o in batch.outcomes if name in o.results),
            sum(name in o.results for o in batch.outcomes),
        )
        for name in scorers
    }
    if judged_incomplete("hybridjudge judge", counts, args.max_unscored, "see the reasons above"):
        return EXIT_INCOMPLETE
    scores: dict[str, list[tuple[str, float]]] = {name: [] for name in scorers}
    for outcome in batch.outcomes:
        for name, result in outcome.results.items():
            if result.status == "scored" and result.score is not None:
                scores[name].append((outcome.id, result.score))
    return judged_outputs_fail(scores, limits, thresholds)


def pass_rule(
    args: argparse.Namespace, scorers: tuple[str, ...]
) -> tuple[dict[str, float], dict[str, float]]:
    """``(threshold per scorer, --fail-under per scorer)`` from the flags: what passing means
    (``--threshold``, default :data:`~hybridjudge._params.DEFAULT_THRESHOLD`) and the share that
    must pass (a scorer without ``--fail-under``: every output). For ``judge`` with and without
    ``--ray``.

    Raises:
        ConfigError: a flag names a scorer that is not run, or one twice.
    """
    from hybridjudge.cli._check import parse_fail_under

    given = [f"{name}={value}" for name, value in args.threshold]
    limits = {
        **dict.fromkeys(scorers, DEFAULT_THRESHOLD),
        **_study_limits(getattr(args, "threshold_from", None), scorers, given),
        **parse_fail_under(given, scorers, "--threshold"),
    }
    return limits, parse_fail_under(args.fail_under, scorers)


def _study_limits(
    path: Path | None, scorers: tuple[str, ...], given: list[str]
) -> dict[str, float]:
    """The thresholds of ``--threshold-from`` for the scorers run (none without the flag).

    Raises:
        InputError: the study chose none for a scorer run (``no_chosen_threshold``).
        ConfigError: ``--threshold`` names a scorer ``--threshold-from`` sets too.
    """
    if path is None:
        return {}
    from hybridjudge._errors import ConfigError, InputError
    from hybridjudge.study import load_study, plain_thresholds

    where = f"--threshold-from {path}"
    chosen = plain_thresholds(load_study(path), where)
    missing = [s for s in scorers if s not in chosen]
    if missing:
        raise InputError(
            f"{where} has no chosen threshold for {', '.join(missing)} (it has "
            f"{', '.join(chosen)}); run the study with these scorers, or drop them from "
            "--scorers",
            code="no_chosen_threshold",
        )
    both = [g.partition("=")[0] for g in given if g.partition("=")[0] in chosen]
    if both:
        raise ConfigError(
            f"--threshold {both[0]}=... and --threshold-from both set {both[0]}'s threshold; "
            "keep one"
        )
    return {s: chosen[s] for s in scorers}


def judged_outputs_fail(
    scores: dict[str, list[tuple[str, float]]],
    limits: dict[str, float],
    fail_under: dict[str, float],
) -> int:
    """Exit 1 when a scorer fails the rule (``scores``: each scorer's ``(output id, score)`` of
    its scored outputs), saying why and which outputs on stderr; else 0.
    :func:`hybridjudge._params.fails_pass_share` is the rule."""
    from hybridjudge.cli._check import describe_failed_share, failed_shares
    from hybridjudge.cli._exit import EXIT_FINDINGS, EXIT_OK

    passes = {name: [s >= limits[name] for _, s in values] for name, values in scores.items()}
    below = failed_shares(passes, fail_under)
    for name, passed, usable, share in below:
        what = f"pass: score at or above --threshold {limits[name]:g}"
        failing = list(dict.fromkeys(i for i, s in scores[name] if s < limits[name]))
        line = describe_failed_share(name, passed, usable, share, what, failing)
        print(f"hybridjudge judge: {line}", file=sys.stderr)
    return EXIT_FINDINGS if below else EXIT_OK


def _usd(value: float | None) -> str:
    """Dollars, or "unknown cost" (a model without a known price, or a reply without usable
    token counts, is never shown as $0)."""
    return "unknown cost" if value is None else f"${value:.4f}"


async def _judge_all(
    config: ModelConfig,
    cases: list[tuple[int, CaseLine]],
    scorers: tuple[str, ...],
    mode: Mode,
    repetitions: int,
    quiet: bool = False,
    *,
    max_claims: int | None = DEFAULT_MAX_CLAIMS,
    budget: CostBudget | None = None,
    on_outcome: Callable[[JudgeOutcome], None] | None = None,
) -> tuple[JudgeBatch, Usage, dict[str, Usage]]:
    """Judge every case and repetition with :func:`ajudge_many`, with a progress bar on a tty
    and progress lines in a log (none with ``quiet``)."""
    from hybridjudge.judges import JudgeRecord, ajudge_many
    from hybridjudge.model import ModelClient

    records = [
        JudgeRecord(
            id=case.id,
            answer=case.answer,
            context=case.context,
            question=case.question,
            metadata=dict(getattr(case, "metadata", {}) or {}),
        )
        for _, case in cases
    ]
    jobs = len(records) * repetitions
    show = jobs >= _PROGRESS_MIN_TASKS and not quiet
    with contextlib.ExitStack() as stack:
        report: Callable[[int, int], None] | None = None
        if show and sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import Progress

            bars = stack.enter_context(Progress(console=Console(stderr=True), transient=True))
            bar = bars.add_task("judging", total=jobs)

            def report(done: int, _total: int) -> None:
                bars.update(bar, completed=done)

        elif show:  # no bar in a log: plain lines, at most every 30 s
            from hybridjudge.cli._progress import ProgressLines

            lines = ProgressLines("hybridjudge judge")

            def report(done: int, total: int) -> None:
                lines.update("judging", done, total)

        async with ModelClient(config, budget=budget) as client:
            batch = await ajudge_many(
                records,
                scorers=scorers,
                mode=mode,
                repetitions=repetitions,
                client=client,
                progress=report,
                max_claims=max_claims,
                on_outcome=on_outcome,
            )
            return batch, client.usage, dict(client.usage_by_scope)


def _print_json(line_of: list[int], outcomes: Sequence[JudgeOutcome], mode: str) -> None:
    for outcome in outcomes:
        record = {
            "format_version": JSON_FORMAT_VERSION,
            "line": line_of[outcome.index],
            "id": outcome.id,
            "repetition": outcome.repetition,
            "mode": mode,
            "results": {name: r.model_dump(mode="json") for name, r in outcome.results.items()},
            "usage": outcome.usage.model_dump(mode="json"),
            "metadata": outcome.metadata,
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
    batch: JudgeBatch,
    total: Usage,
    by_scope: dict[str, Usage],
    config: ModelConfig,
    bad: int,
) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from hybridjudge._sinks import escape_controls

    console = Console()
    table = Table(title="faithfulness (faithful claims / claims)")
    table.add_column("case", overflow="fold")
    table.add_column("rep", justify="right")
    table.add_column("claims", justify="right")
    for name in batch.scorers:
        table.add_column(name, justify="right")
    for outcome in batch.outcomes:
        first = next(iter(outcome.results.values()))
        cells = [_cell(outcome.results[name]) for name in batch.scorers]
        table.add_row(  # the id is user text: escape rich markup ("[/x]" would crash) and
            # show its control characters escaped, on one line
            escape(escape_controls(outcome.id, one_line=True)),
            str(outcome.repetition),
            str(len(first.claims)),
            *cells,
        )
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
            _usd(u.cost_usd),
            f"{u.saved_latency_s:.1f}",
        )
    console.print(usage)
    unscored = sum(r.status == "unscored" for o in batch.outcomes for r in o.results.values())
    console.print(
        f"{len(batch.outcomes)} evaluation(s), {unscored} unscored result(s), {bad} unusable line(s); "
        f"{total.calls} model call(s) costing {_usd(total.cost_usd)} in {total.latency_s:.1f} s; "
        f"{total.cache_hits} cache hit(s) saved {_usd(total.saved_cost_usd)} and "
        f"{total.saved_latency_s:.1f} s",
        soft_wrap=True,
    )
