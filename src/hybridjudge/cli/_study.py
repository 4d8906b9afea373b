"""``hybridjudge study run``: the mutation study, the product's main job."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hybridjudge.cli._common import ListAction, add_csv_raw_formulas_argument
from hybridjudge.cli._exit import parse_fraction

if TYPE_CHECKING:
    from hybridjudge.model import ModelConfig
    from hybridjudge.study import StudyPlan

__all__ = ["register", "scorer_threshold"]


def scorer_threshold(text: str) -> tuple[str, float]:
    """``argparse`` type of ``--threshold SCORER=VALUE`` (``study run`` and ``judge``): a judge's
    output passes when its score is at or above VALUE, in [0, 1] (``90%`` also accepted)."""
    name, sep, value = text.partition("=")
    number = parse_fraction(value)
    if not sep or not name or not 0.0 <= number <= 1.0:
        raise argparse.ArgumentTypeError(
            f"expected SCORER=VALUE with VALUE in [0, 1] (e.g. support=0.9 or support=90%), got "
            f"{text!r}"
        )
    return name, number


def _budget(text: str) -> float:
    """``argparse`` type of ``--false-alarm-budget``: a share strictly between 0 and 1."""
    value = parse_fraction(text)
    if not 0.0 < value < 1.0:
        raise argparse.ArgumentTypeError(
            f"expected a share strictly between 0 and 1 (e.g. 0.05 or 5%), got {text!r}"
        )
    return value


def _sample(text: str) -> int | dict[str, int | None] | None:
    """``N``, ``CORPUS=N,...`` (``CORPUS=all``: that corpus whole) or ``all``."""
    if text == "all":
        return None
    try:
        if "=" not in text:
            return int(text)
        pairs = [part.split("=", 1) for part in text.split(",") if part.strip()]
        return {
            name.strip(): None if value.strip() == "all" else int(value) for name, value in pairs
        }
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected N, CORPUS=N|all[,CORPUS=N|all...] or 'all', got {text!r}"
        ) from None


_EPILOG = """example:
  hybridjudge study run --corpus corpus/opengate --mutations mutations/opengate.jsonl \\
      --scorers deterministic,support --repetitions 2 --judge-sample 2 --out results/demo

  several judges in one study (a column group each, the cheapest per defect class):
  hybridjudge study run --corpus corpus/opengate --corpus corpus/halueval --out results/judges \\
      --judge small=local \\
      --judge mini=base_url=https://api.openai.com/v1,model=gpt-4o-mini,price_in=0.15,\\
price_out=0.6,api_key_env=OPENAI_API_KEY"""

_JUDGE_HELP = (
    "a judge model, repeatable: several judges in one study, each a column group in every "
    "table, their scorers named NAME:SCORER. SPEC is 'local' (the embedded model) or "
    "model=MODEL[,base_url=URL,price_in=USD,price_out=USD,api_key_env=VAR] for any "
    "OpenAI-compatible endpoint (USD per million tokens; also temperature, seed, max_tokens, "
    "timeout, concurrency, rpm, tpm, max_retries). Example: --judge small=local --judge "
    "mini=base_url=https://api.openai.com/v1,model=gpt-4o-mini,price_in=0.15,price_out=0.6,"
    "api_key_env=OPENAI_API_KEY. Settings a spec leaves out (sampling, retries, cache) come "
    "from the model flags; without --judge, one judge from the model flags"
)


def register(subparsers: Any) -> None:
    """Add ``study run``."""
    from hybridjudge.cli._budget import add_budget_arguments
    from hybridjudge.cli._dryrun import add_dry_run_argument
    from hybridjudge.cli._exit import add_max_unscored_argument
    from hybridjudge.cli._model_args import add_model_arguments

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
        epilog=_EPILOG,
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
        nargs="+",
        action=ListAction,
        default=["deterministic", "support", "contradiction"],
        metavar="SCORER",
        help="scorers to run, comma- or space-separated: deterministic, support, contradiction "
        "(default: these three); hybrid adds the cascade (checks first, claims stated as "
        "written, then --hybrid-judges on the rest; docs/hybrid.md); ragas, deepeval add the "
        "peer scorers on the same model (needs pip install 'hybridjudge[peers]')",
    )
    from hybridjudge.cli._hybrid import add_hybrid_judges_argument

    add_hybrid_judges_argument(run)
    run.add_argument(
        "--hybrid-all-outputs",
        action="store_true",
        help="run the hybrid scorer on every output, not only on the judges' sample "
        "(--judge-sample): the checks decide most outputs without a call",
    )
    run.add_argument(
        "--judge",
        action="append",
        default=[],
        metavar="NAME=SPEC",
        help=_JUDGE_HELP,
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
        type=scorer_threshold,
        action="append",
        default=[],
        metavar="SCORER=VALUE",
        help="judge flags an output whose score is below VALUE (default 1.0); with --judge, "
        "NAME:SCORER=VALUE sets one judge's",
    )
    run.add_argument(
        "--false-alarm-budget",
        type=_budget,
        default=None,
        metavar="SHARE",
        help="choose each judge's threshold: the highest that flags at most SHARE of the "
        "clean outputs (answers labelled correct) on a seeded half of them, with a bootstrap "
        "interval and its false alarms on the other half; written into study.json and the "
        "reports, read by judge/gate --threshold-from. Needs ceil(1/SHARE) clean outputs in "
        "each half, else it says so and chooses none (default: off)",
    )
    run.add_argument(
        "--judge-sample",
        type=_sample,
        default=None,
        metavar="N|CORPUS=N,...|all",
        help="judge only N bases per corpus (or CORPUS=N,... with N or all per corpus; a corpus "
        "not named is judged whole), each with all its mutants, chosen by a seeded shuffle that "
        "covers defect classes first; default all",
    )
    run.add_argument(
        "--sample-seed",
        type=int,
        default=0,
        metavar="N",
        help="seed of the judge sample (default 0)",
    )
    run.add_argument(
        "--out",
        required=True,
        type=Path,
        metavar="DIR",
        help="results directory (study.json, report.md, report.html, observations.csv)",
    )
    add_max_unscored_argument(run)
    add_dry_run_argument(run)
    add_budget_arguments(run)
    add_csv_raw_formulas_argument(run)
    add_model_arguments(run)
    from hybridjudge.cli._check import add_limit_arguments

    add_limit_arguments(run)  # the bounds on the corpus files read
    run.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from hybridjudge._atomic import OutDirLock, check_out_dir
    from hybridjudge._errors import ConfigError
    from hybridjudge._params import check_repetitions
    from hybridjudge.cli._budget import budget_from_args, report_budget
    from hybridjudge.cli._check import read_limits
    from hybridjudge.cli._exit import EXIT_INCOMPLETE, EXIT_OK, judged_incomplete
    from hybridjudge.cli._model_args import config_from_args
    from hybridjudge.cli._progress import ProgressLines
    from hybridjudge.reports import (
        log_study_warnings,
        print_study_summary,
        study_console,
        write_reports,
    )
    from hybridjudge.study import (
        HYBRID,
        JUDGE_SCORERS,
        PEER_SCORERS,
        compare_with_paper,
        load_plan,
        run_study,
        split_scorer,
        unscored_count,
    )

    console = study_console()
    check_repetitions(args.repetitions)
    peers = [s for s in args.scorers if s in PEER_SCORERS]
    if peers:
        from hybridjudge.peers import require_peer

        for peer in peers:  # before any work: a missing package names the [peers] extra
            require_peer(peer)
    needs_model = any(s in JUDGE_SCORERS or s in PEER_SCORERS or s == HYBRID for s in args.scorers)
    hybrid_flags = args.hybrid_judges is not None or args.hybrid_all_outputs
    if (hybrid_flags or args.hybrid_grade_failed) and HYBRID not in args.scorers:
        raise ConfigError(
            "--hybrid-judges, --hybrid-all-outputs and --hybrid-grade-failed set the hybrid "
            "scorer, but --scorers has no hybrid; add hybrid to --scorers, or drop them"
        )
    # every --judge spec is checked before the corpora are read or a model is called
    judges = _judge_configs(args) if args.judge and needs_model else {}
    if args.judge and not needs_model:
        raise ConfigError(
            "--judge names judge models, but --scorers has no judge or peer; add support, "
            "contradiction, ragas or deepeval to --scorers, or drop --judge"
        )
    thresholds = dict(args.threshold)
    unknown = [
        k
        for k in thresholds
        if split_scorer(k)[1] not in (*JUDGE_SCORERS, *peers, HYBRID)
        or (split_scorer(k)[0] is not None and split_scorer(k)[0] not in judges)
    ]
    if unknown:
        named = f"; judges named by --judge: {', '.join(judges)}" if judges else ""
        raise ConfigError(
            f"--threshold names unknown judge(s) {', '.join(unknown)}; judges: "
            f"{', '.join(JUDGE_SCORERS)}{named}"
        )
    if args.false_alarm_budget is not None and not needs_model:
        raise ConfigError(
            "--false-alarm-budget chooses judges' thresholds, but --scorers has no judge or "
            "peer; add support, contradiction, ragas or deepeval to --scorers, or drop it"
        )
    out = check_out_dir(args.out, create=not args.dry_run)  # a dry run writes nothing
    plan = load_plan(
        corpus_paths=args.corpus,
        mutation_paths=args.mutations,
        judge_sample=args.judge_sample,
        seed=args.sample_seed,
        limits=read_limits(args),
    )
    _require_something_to_measure(plan, args.corpus)
    config = config_from_args(args) if needs_model and not judges else None
    budget = budget_from_args(args) if needs_model else None
    if budget is not None:
        from hybridjudge.model import budget_price

        for judge_config in judges.values() if judges else [config]:
            if judge_config is not None:  # a limit in dollars needs every judge's price
                budget_price(judge_config)
    if not args.dry_run:  # before the deterministic phase: how to get a model, in one line
        from hybridjudge.cli._model_args import require_judge_model

        require_judge_model([c for c in (config, *judges.values()) if c is not None])
    if args.dry_run:
        from hybridjudge.cli._dryrun import estimate_judging, print_estimate, refused_incomplete

        judge_scorers = [s for s in args.scorers if s in JUDGE_SCORERS]
        configs = dict(judges) if judges else {"": config} if config is not None else {}
        incomplete = False
        if HYBRID in args.scorers:
            incomplete = _estimate_hybrid(args, plan, configs)
        if not configs or not judge_scorers:
            if HYBRID not in args.scorers:
                print("hybridjudge study run --dry-run: no judge among --scorers; no model call")
            if peers:
                print("hybridjudge study run --dry-run: peer scorers are not estimated")
            return EXIT_INCOMPLETE if incomplete else EXIT_OK
        answers = []
        where = []
        for output in plan.outputs:
            if output.id in plan.judged:
                case = plan.case_of(output)
                answers.append((output.text, plan.context_of(output), case.question))
                where.append(f"output {output.id!r} (case {case.id!r})")
        for name, judge_config in configs.items():
            estimate = estimate_judging(
                answers,
                scorers=judge_scorers,
                mode=args.judge_mode,
                repetitions=args.repetitions,
                config=judge_config,
                max_claims=args.max_claims,
            )
            label = f"hybridjudge study run (judge {name})" if name else "hybridjudge study run"
            print_estimate(label, estimate, judge_config, max_cost=args.max_cost)
            incomplete |= refused_incomplete(
                label, estimate, where, judge_scorers, args.repetitions, args.max_unscored
            )
        if peers:
            print("hybridjudge study run --dry-run: peer scorers are not estimated")
        return EXIT_INCOMPLETE if incomplete else EXIT_OK
    sampling = plan.sampling(HYBRID in args.scorers and args.hybrid_all_outputs)
    if sampling is not None and needs_model:
        logging.getLogger("hybridjudge.cli.study").warning("sampled run: %s", sampling.note)

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
    # no bar is drawn in a log: plain lines instead, at most every 30 s per phase
    lines = None if console.is_terminal or args.quiet else ProgressLines("hybridjudge study run")

    def hook(phase: str, done: int, total: int) -> None:
        if phase not in tasks:
            tasks[phase] = progress.add_task(phase, total=total)
        progress.update(tasks[phase], completed=done, total=total)
        if lines is not None:
            lines.update(phase, done, total)

    with OutDirLock(out):
        with progress:
            result = run_study(
                plan,
                scorers=args.scorers,
                repetitions=args.repetitions,
                thresholds=thresholds,
                judge_mode=args.judge_mode,
                model_config=config,
                judges=judges or None,
                progress=hook,
                max_claims=args.max_claims,
                max_cost_usd=budget,
                hybrid_judges=args.hybrid_judges,
                hybrid_all_outputs=args.hybrid_all_outputs,
                hybrid_grade_failed=args.hybrid_grade_failed,
            )
        result = compare_with_paper(result, plan)
        if args.false_alarm_budget is not None:
            from hybridjudge.study import with_thresholds

            result = with_thresholds(result, args.false_alarm_budget)
            for row in result.analysis.thresholds:
                if row.note is not None:
                    logging.getLogger("hybridjudge.cli.study").warning(
                        "%s: %s", row.scorer, row.note
                    )
        paths = write_reports(result, out, csv_raw_formulas=args.csv_raw_formulas)
    log_study_warnings(result, sampling=False)  # the sample was announced before the run
    if not args.quiet:
        print_study_summary(result, console)
    for kind, path in paths.items():
        print(f"{kind}: {path}", file=sys.stdout)
    left = sum(o.unscored_reason == "budget_exhausted" for o in result.observations)
    report_budget("hybridjudge study run", budget, left)
    counts = {
        row.scorer: (unscored_count(row), row.evaluations) for row in result.analysis.unscored
    }
    see = "see the unscored table in the report"
    if judged_incomplete("hybridjudge study run", counts, args.max_unscored, see):
        return EXIT_INCOMPLETE
    return EXIT_OK


LABELS = frozenset({"correct", "incorrect"})
"""The labels of an answer a study can measure a scorer on (``unknown`` is no label)."""


def _require_something_to_measure(plan: Any, corpora: list[str]) -> None:
    """Refuse a study that can measure nothing (exit 2): no mutant or natural defect among the
    outputs (``--mutations`` gives mutants) and no output labelled right or wrong (``clean``
    set, or a ``label`` of correct or incorrect). Its detection and false-alarm tables would
    be empty, which reads as a pass.

    Raises:
        InputError: ``nothing_to_measure``, naming what to add.
    """
    from hybridjudge._errors import InputError

    for output in plan.outputs:
        if output.origin != "base" or output.clean is not None:
            return
        if getattr(output, "label", None) in LABELS:
            return
    raise InputError(
        f"nothing to measure in {', '.join(corpora)}: no mutant (no --mutations file given, and "
        f"the corpus has no defective outputs) and no answer labelled correct or incorrect; "
        "freeze mutants with 'hybridjudge mutate CORPUS --mutation-seed 0 --out FILE' and pass "
        "--mutations FILE, or label your answers (a label of correct or incorrect per record)",
        code="nothing_to_measure",
    )


_PER_JUDGE_FLAGS = {
    "backend": ("--backend", "write NAME=local for the embedded model"),
    "model": ("--model", "put model=MODEL in each --judge spec"),
    "price_input_per_mtok": ("--price-in", "put price_in=USD in each --judge spec"),
    "price_output_per_mtok": ("--price-out", "put price_out=USD in each --judge spec"),
}


def _judge_configs(args: argparse.Namespace) -> dict[str, Any]:
    """Judge name -> ModelConfig for the ``--judge`` flags (errors name ``--judge``).

    The settings a spec leaves out come from the model flags (and ``HYBRIDJUDGE_*``): sampling,
    retries and the cache; a spec without ``base_url`` takes ``--base-url`` and
    ``--api-key-env`` (or their variables). Flags that name one model (``--model``,
    ``--backend``, prices) make no sense beside several judges and are refused.
    """
    import os

    from hybridjudge._errors import ConfigError
    from hybridjudge.cli._model_args import config_from_args
    from hybridjudge.study import resolve_judges

    for field, (flag, fix) in _PER_JUDGE_FLAGS.items():
        if getattr(args, f"model_{field}", None) is not None:
            raise ConfigError(
                f"{flag} sets one judge model, but --judge names several: {fix}",
                code="invalid_judge_spec",
            )
    shared_args = argparse.Namespace(**vars(args))
    # the shared settings are read as for the embedded model, so that no endpoint, model or
    # price in the environment leaks into a judge that names its own
    shared_args.model_backend = "local"
    shared_args.model_base_url = None
    shared = config_from_args(shared_args)
    base_url = args.model_base_url or os.environ.get("HYBRIDJUDGE_BASE_URL") or None
    endpoint = None
    if base_url:
        key_env = (
            args.model_api_key_env or os.environ.get("HYBRIDJUDGE_API_KEY_ENV") or "OPENAI_API_KEY"
        )
        endpoint = (base_url, key_env)
    return resolve_judges(args.judge, shared, source="--judge", endpoint=endpoint)


def _estimate_hybrid(
    args: argparse.Namespace, plan: StudyPlan, configs: dict[str, ModelConfig]
) -> bool:
    """``--dry-run`` for the hybrid scorer: its free stages run, its judges' calls are counted;
    whether a record it would refuse makes the run incomplete."""
    from hybridjudge.cli._dryrun import estimate_hybrid, print_estimate, refused_incomplete

    outputs = [o for o in plan.outputs if args.hybrid_all_outputs or o.id in plan.judged]
    where = [f"output {o.id!r} (case {plan.case_of(o).id!r})" for o in outputs]
    incomplete = False
    for name, judge_config in configs.items():
        estimate = estimate_hybrid(
            [plan.check_record(o) for o in outputs],
            judges=args.hybrid_judges,
            mode=args.judge_mode,
            repetitions=args.repetitions,
            config=judge_config,
            max_claims=args.max_claims,
            grade_failed=args.hybrid_grade_failed,
        )
        label = "hybridjudge study run (hybrid scorer" + (f", judge {name})" if name else ")")
        print_estimate(label, estimate, judge_config, max_cost=args.max_cost)
        incomplete |= refused_incomplete(
            label, estimate, where, ["hybrid"], args.repetitions, args.max_unscored
        )
    return incomplete
