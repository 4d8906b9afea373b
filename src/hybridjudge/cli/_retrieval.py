"""``hybridjudge retrieval eval``: a retrieval report card that agrees with trec_eval.

Two ways in::

    hybridjudge retrieval eval --qrels QRELS --run RUN [--metrics ndcg@10,mrr] [--json] [--html OUT]
    hybridjudge retrieval eval --cases eval_cases.json (--retriever module:function | --run run.jsonl)

The report card gives each metric's mean with a seeded percentile-bootstrap 95% interval over
queries, the number of queries, the worst queries, and which queries were skipped; ``--json``
prints the same with every per-query value instead.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from hybridjudge.cli._common import ListAction, parse_list

__all__ = ["DEFAULT_METRICS", "register"]

DEFAULT_METRICS = "ndcg@10,mrr,hit@5,p@10,recall@100,map"
"""Metrics reported when ``--metrics`` is not given."""

_JSON_KIND = "hybridjudge.retrieval.eval"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``retrieval`` with its ``eval`` subcommand."""
    parser = subparsers.add_parser(
        "retrieval",
        help="retrieval metrics (hit@k, MRR, P@k, recall@k, MAP, nDCG) as trec_eval",
        description="Retrieval metrics that agree with trec_eval, with bootstrap intervals.",
    )
    commands = parser.add_subparsers(dest="retrieval_command", metavar="SUBCOMMAND")
    parser.set_defaults(handler=_help(parser))
    ev = commands.add_parser(
        "eval",
        help="evaluate a run (or a retriever over a case file) and print a report card",
        description=(
            "Evaluate a ranked run against relevance judgments with trec_eval's conventions: "
            "ties by score then document id descending, P@k divided by k, nDCG's ideal ranking "
            "from all judged documents, run queries without qrels ignored."
        ),
    )
    source = ev.add_mutually_exclusive_group(required=True)
    source.add_argument("--qrels", metavar="FILE", help="judgments: TREC qrels, .json or .jsonl")
    source.add_argument(
        "--cases", metavar="FILE", help="case file (eval_cases.json): questions and expected docs"
    )
    ranking = ev.add_mutually_exclusive_group(required=True)
    ranking.add_argument("--run", metavar="FILE", help="ranked results: TREC run, .json or .jsonl")
    ranking.add_argument(
        "--retriever",
        metavar="MODULE:FUNCTION",
        help="with --cases: a function called with each question, returning a ranked list",
    )
    ev.add_argument(
        "--metrics",
        nargs="+",
        action=ListAction,
        default=parse_list(DEFAULT_METRICS),
        metavar="NAME",
        help=f"metric names, comma- or space-separated (default: {DEFAULT_METRICS})",
    )
    ev.add_argument(
        "--relevance-level",
        type=int,
        default=1,
        metavar="N",
        help="minimum grade counted as relevant (trec_eval -l; default 1)",
    )
    ev.add_argument(
        "--tie-break",
        default="trec_eval",
        choices=("trec_eval", "stable", "rank"),
        help="order of tied scores (default trec_eval: document id descending)",
    )
    ev.add_argument(
        "--complete",
        action="store_true",
        help="score qrels queries missing from the run as 0 (trec_eval -c)",
    )
    ev.add_argument(
        "--max-docs",
        type=int,
        default=None,
        metavar="N",
        help="keep the first N ranked documents per query (trec_eval -M)",
    )
    ev.add_argument(
        "--resamples",
        type=int,
        default=2000,
        metavar="N",
        help="bootstrap resamples for the intervals (default 2000, at least 100)",
    )
    # the old spelling, hidden: no other command uses --bootstrap, so it has one meaning
    ev.add_argument("--bootstrap", type=int, dest="resamples", help=argparse.SUPPRESS)
    ev.add_argument(
        "--bootstrap-seed", type=int, default=0, metavar="N", help="bootstrap seed (default 0)"
    )
    ev.add_argument(
        "--worst",
        type=int,
        default=5,
        metavar="N",
        help="how many worst queries to list (default 5)",
    )
    ev.add_argument(
        "--json",
        action="store_true",
        help="print JSON with per-query values instead of the report card",
    )
    ev.add_argument(
        "--html",
        type=Path,
        metavar="OUT",
        help="also write the report card as a self-contained HTML page",
    )
    ev.set_defaults(handler=_run)


def _help(parser: argparse.ArgumentParser) -> Any:
    def show(args: argparse.Namespace) -> int:
        parser.print_help()
        return 2

    return show


def _run(args: argparse.Namespace) -> int:
    from hybridjudge._errors import ConfigError
    from hybridjudge.metrics.retrieval import (
        cases_to_qrels,
        evaluate,
        load_retriever,
        read_cases,
        read_qrels,
        read_run,
        run_retriever,
        summarize,
    )

    if args.retriever and not args.cases:
        raise ConfigError(
            "--retriever needs --cases (the questions to ask it); with --qrels use --run"
        )
    if args.worst < 0:
        raise ConfigError(f"--worst {args.worst}: use 0 or more")
    questions: dict[str, str] = {}
    if args.cases:
        cases = read_cases(args.cases)
        qrels = cases_to_qrels(cases)
        questions = {case.id: case.question for case in cases}
        run = (
            run_retriever(load_retriever(args.retriever), cases)
            if args.retriever
            else read_run(args.run)
        )
        sources = {
            "cases": args.cases,
            "retriever" if args.retriever else "run": args.retriever or args.run,
        }
    else:
        qrels = read_qrels(args.qrels)
        run = read_run(args.run)
        sources = {"qrels": args.qrels, "run": args.run}
    metrics: list[str] = args.metrics
    result = evaluate(
        qrels,
        run,
        metrics,
        relevance_level=args.relevance_level,
        tie_break=args.tie_break,
        complete=args.complete,
        max_docs=args.max_docs,
    )
    summaries = summarize(result, n_resamples=args.resamples, seed=args.bootstrap_seed)
    if args.html is not None:
        _write_html(args.html, result, summaries, sources, questions, args.worst)
    if args.json:
        payload = {
            "format_version": 1,
            "kind": _JSON_KIND,
            "sources": sources,
            "summary": [summary.model_dump(mode="json") for summary in summaries],
            "result": result.model_dump(mode="json"),
        }
        print(json.dumps(payload, indent=2, ensure_ascii=False))
        return 0
    _print_card(result, summaries, sources, questions, args.worst)
    return 0


def _write_html(
    path: Path,
    result: Any,
    summaries: list[Any],
    sources: dict[str, str],
    questions: dict[str, str],
    worst: int,
) -> None:
    from hybridjudge._atomic import atomic_write_text
    from hybridjudge._errors import InputError
    from hybridjudge.reports import RetrievalCard, render_retrieval_html

    card = RetrievalCard.build(result, summaries, sources, questions, worst)
    try:
        atomic_write_text(path, render_retrieval_html(card))  # never a half-written page
    except OSError as exc:
        raise InputError(f"{path}: cannot write the HTML report ({exc.strerror})") from None
    print(f"hybridjudge retrieval eval: wrote {path}", file=sys.stderr)


def _print_card(
    result: Any,
    summaries: list[Any],
    sources: dict[str, str],
    questions: dict[str, str],
    worst: int,
) -> None:
    from rich.console import Console
    from rich.markup import escape

    from hybridjudge.reports import RetrievalCard

    card = RetrievalCard.build(result, summaries, sources, questions, worst)
    console = Console(width=max(100, Console().width), highlight=False)
    facts = dict(card.facts)
    where = ", ".join(f"{key} {value}" for key, value in sources.items())
    console.print(f"[bold]{card.title}[/bold]: {result.num_queries} queries; {escape(where)}")
    console.print(card.summary.to_rich())
    if "intervals" in facts:
        console.print(f"interval: {facts['intervals']}", markup=False)
    console.print(facts["conventions"], markup=False)
    for note in card.notes:
        console.print(f"note: {note}", markup=False)
    if card.worst is not None:
        console.print(card.worst.to_rich())
