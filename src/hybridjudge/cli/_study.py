"""``hybridjudge study run``: the mutation study, the product's main job."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

__all__ = ["register"]


def _scorers(text: str) -> list[str]:
    names = [s.strip() for s in text.split(",") if s.strip()]
    if not names:
        raise argparse.ArgumentTypeError("give at least one scorer, e.g. deterministic,support")
    return names


def _threshold(text: str) -> tuple[str, float]:
    name, sep, value = text.partition("=")
    try:
        number = float(value)
    except ValueError:
        number = float("nan")
    if not sep or not name or not 0.0 <= number <= 1.0:
        raise argparse.ArgumentTypeError(
            f"expected SCORER=VALUE with VALUE in [0, 1], got {text!r}"
        )
    return name, number


def _sample(text: str) -> int | dict[str, int] | None:
    if text == "all":
        return None
    try:
        if "=" not in text:
            return int(text)
        pairs = [part.split("=", 1) for part in text.split(",") if part.strip()]
        return {name.strip(): int(value) for name, value in pairs}
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected N, CORPUS=N[,CORPUS=N...] or 'all', got {text!r}"
        ) from None


def register(subparsers: Any) -> None:
    """Add ``study run``."""
    from hybridjudge.model._config import add_model_arguments

    study = subparsers.add_parser("study", help="run the mutation study (the main job)")
    sub = study.add_subparsers(dest="study_command", metavar="SUBCOMMAND", required=True)
    run = sub.add_parser(
        "run",
        help="score every base and mutant with every scorer, R repetitions, and write reports",
        description=(
            "Run deterministic checks and LLM judges on every base output and mutant of the "
            "given corpora; report detection per defect class (never one aggregate), false "
            "alarms, stability, unscored counts, cost and latency. Finished model calls are "
            "cached: an interrupted study resumes where it stopped."
        ),
    )
    run.add_argument(
        "--corpus",
        action="append",
        required=True,
        metavar="DIR",
        help="corpus directory (repeatable)",
    )
    run.add_argument(
        "--mutations",
        action="append",
        default=[],
        metavar="FILE",
        help="frozen mutation file (repeatable)",
    )
    run.add_argument(
        "--scorers",
        type=_scorers,
        default=["deterministic", "support", "contradiction"],
        help="comma-separated: deterministic,support,contradiction (default: all three)",
    )
    run.add_argument(
        "--repetitions",
        type=int,
        default=1,
        metavar="R",
        help="repetitions of every scorer (default 1)",
    )
    run.add_argument(
        "--judge-mode",
        choices=["separate", "shared"],
        default="separate",
        help="separate: each judge asks its own question; shared: one three-way verdict call feeds both",
    )
    run.add_argument(
        "--threshold",
        type=_threshold,
        action="append",
        default=[],
        metavar="SCORER=VALUE",
        help="judge flags an output whose score is below VALUE (default 1.0)",
    )
    run.add_argument(
        "--judge-sample",
        type=_sample,
        default=None,
        metavar="N|CORPUS=N,...|all",
        help="judge only N bases per corpus (or CORPUS=N,...), each with all its mutants, chosen by a seeded shuffle that covers defect classes first; default all",
    )
    run.add_argument(
        "--sample-seed", type=int, default=0, help="seed of the judge sample (default 0)"
    )
    run.add_argument(
        "--out",
        required=True,
        type=Path,
        metavar="DIR",
        help="results directory (study.json, report.md, report.html)",
    )
    run.add_argument("--quiet", action="store_true", help="no progress bar or summary table")
    add_model_arguments(run)
    run.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from hybridjudge._errors import ConfigError
    from hybridjudge.model._config import config_from_args
    from hybridjudge.reports import write_reports
    from hybridjudge.study import JUDGE_SCORERS, StudyPlan, run_study

    console = Console(stderr=True)
    if not console.is_terminal:
        console = Console(stderr=True, width=160)  # a log file: do not wrap the tables at 80
    if args.repetitions < 1:
        raise ConfigError("--repetitions must be at least 1")
    thresholds = dict(args.threshold)
    unknown = [k for k in thresholds if k not in JUDGE_SCORERS]
    if unknown:
        raise ConfigError(
            f"--threshold names unknown judge(s) {', '.join(unknown)}; judges: {', '.join(JUDGE_SCORERS)}"
        )
    plan = StudyPlan(
        corpus_paths=args.corpus,
        mutation_paths=args.mutations,
        judge_sample=args.judge_sample,
        seed=args.sample_seed,
    )
    needs_model = any(s in JUDGE_SCORERS for s in args.scorers)
    config = config_from_args(args) if needs_model else None
    sampling = plan.sampling()
    if sampling is not None and needs_model and not args.quiet:
        console.print(f"[yellow]{sampling.note}[/yellow]")

    progress = Progress(
        TextColumn("{task.description:<14}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=console,
        disable=args.quiet,
    )
    tasks: dict[str, Any] = {}

    def hook(phase: str, done: int, total: int) -> None:
        if phase not in tasks:
            tasks[phase] = progress.add_task(phase, total=total)
        progress.update(tasks[phase], completed=done, total=total)

    with progress:
        result = run_study(
            plan,
            scorers=args.scorers,
            repetitions=args.repetitions,
            thresholds=thresholds,
            judge_mode=args.judge_mode,
            model_config=config,
            progress=hook,
        )
    paths = write_reports(result, args.out)
    if not args.quiet:
        _print_summary(result, console)
    for kind, path in paths.items():
        print(f"{kind}: {path}", file=sys.stdout)
    return 0


def _print_summary(result: Any, console: Any) -> None:
    from rich.table import Table

    from hybridjudge.reports._tables import cell_text, corpora, detection_grid

    scorers = list(result.config.scorers)
    grid = detection_grid(result.analysis)
    for corpus in corpora(grid):
        table = Table(
            title=f"{corpus}: detected in every repetition / mutants [Wilson 95%]",
            title_justify="left",
        )
        table.add_column("defect class")
        for s in scorers:
            table.add_column(s)
        for row in (r for r in grid if r.corpus == corpus):
            table.add_row(row.label, *[cell_text(row.cells.get(s)) for s in scorers])
        fa = {r.scorer: r for r in result.analysis.false_alarms if r.corpus == corpus}
        table.add_row(
            "clean bases flagged (false alarms)",
            *[
                "—" if (f := fa.get(s)) is None or f.n == 0 else f"{f.flagged_every}/{f.n}"
                for s in scorers
            ],
        )
        console.print(table)
    for c in result.analysis.cost:
        console.print(
            f"{c.scorer}: {c.evaluations} evaluations, {c.calls} model calls, "
            f"{c.prompt_tokens}+{c.completion_tokens} tokens, median {c.median_ms:.2f} ms, "
            f"{c.cache_hits} cache hits (saved {c.saved_s:.1f} s)"
        )
