"""``--ray [ADDRESS]`` for ``hybridjudge check`` and ``hybridjudge judge``: the same work on a Ray
cluster (:mod:`hybridjudge.dist`), from a Parquet or JSONL file or folder to a folder of results.

Ray Data shows its progress bars on stderr; one summary line follows. The commands' own modules
call :func:`add_ray_arguments` and, when ``--ray`` is given, :func:`run_check` / :func:`run_judge`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import ray.data

    from hybridjudge.model import ModelConfig

__all__ = ["add_ray_arguments", "check_ray_flags", "run_check", "run_judge"]

_LOCAL = "local"


def add_ray_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--ray [ADDRESS]``, ``--out DIR``, ``--out-format`` and ``--workers``."""
    group = parser.add_argument_group(
        "on a Ray cluster (pip install 'hybridjudge[ray]')",
        "CASES may then be a folder of .parquet or .jsonl files; results go to --out as files "
        "of the same format (or --out-format), one row per record with the results as columns.",
    )
    group.add_argument(
        "--ray",
        nargs="?",
        const=_LOCAL,
        default=None,
        metavar="ADDRESS",
        help="run on Ray: a local cluster by default (or $RAY_ADDRESS), or ADDRESS "
        "(e.g. auto, ray://head:10001)",
    )
    group.add_argument("--out", type=Path, metavar="DIR", help="results folder (with --ray)")
    group.add_argument(
        "--out-format",
        choices=("parquet", "jsonl"),
        help="format of the result files (default: the input's)",
    )
    group.add_argument(
        "--workers", type=int, metavar="N", help="Ray workers (default: one per cluster CPU)"
    )


def _connect(address: str) -> None:
    import ray

    if ray.is_initialized():
        return
    ray.init(address=None if address == _LOCAL else address, log_to_driver=False)


def _input(args: argparse.Namespace) -> tuple[ray.data.Dataset, str | None, str]:
    """The input Dataset, its JSON-text column (JSONL) or None (Parquet), and its format."""
    import ray.data

    from hybridjudge._errors import ConfigError

    path = Path(args.cases)
    if not path.exists():
        raise ConfigError(f"{path}: no such file or folder; check the path")
    fmt = getattr(args, "format", None)
    if fmt is None:
        files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
        suffixes = {p.suffix.lower() for p in files if not p.name.startswith((".", "_"))}
        if suffixes <= {".parquet", ".pq"} and suffixes:
            fmt = "parquet"
        elif suffixes <= {".jsonl", ".ndjson"} and suffixes:
            fmt = "jsonl"
    if fmt == "parquet":
        return ray.data.read_parquet(str(path)), None, "parquet"
    if fmt == "jsonl":
        return ray.data.read_text(str(path), drop_empty_lines=True), "text", "jsonl"
    raise ConfigError(
        f"{path}: with --ray the input must be Parquet or JSONL files (a file or a folder of "
        "one kind), or say which with --format parquet|jsonl"
    )


def _check_out(args: argparse.Namespace) -> Path:
    from hybridjudge._atomic import check_out_dir
    from hybridjudge._errors import ConfigError

    if getattr(args, "json", False):
        raise ConfigError("--json and --ray do not go together: --ray writes files to --out")
    if args.out is None:
        raise ConfigError("--ray needs --out DIR, the folder for the result files")
    if getattr(args, "dry_run", False):
        raise ConfigError(
            "--dry-run and --ray do not go together: run the estimate without --ray, on the "
            "same cases (it sends no request either way)"
        )
    out: Path = args.out
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise ConfigError(f"--out {out}: exists and is not an empty folder; choose a new one")
    check_out_dir(out, create=False)  # writable, before any work: Ray creates it at the end
    if args.workers is not None and args.workers < 1:
        raise ConfigError(f"--workers {args.workers}: give 1 or more")
    return out


def check_ray_flags(args: argparse.Namespace) -> None:
    """Refuse the flags that only ``--ray`` uses when it is not given (they would be ignored).

    Raises:
        ConfigError: ``--out``, ``--out-format`` or ``--workers`` without ``--ray``.
    """
    from hybridjudge._errors import ConfigError

    if args.ray is not None:
        return
    given = [
        flag
        for flag, value in (
            ("--out", args.out),
            ("--out-format", args.out_format),
            ("--workers", args.workers),
        )
        if value is not None
    ]
    if given:
        raise ConfigError(
            f"{', '.join(given)} only go{'es' if len(given) == 1 else ''} with --ray (results "
            "as files in a folder); without --ray the results are printed: add --ray, or use "
            "--json > FILE"
        )


def _write(ds: ray.data.Dataset, out: Path, fmt: str) -> None:
    if fmt == "parquet":
        ds.write_parquet(str(out))
    else:
        ds.write_json(str(out))  # JSON lines, one file per block


def _counts(ds: ray.data.Dataset, columns: list[str]) -> list[dict[str, Any]]:
    return list(ds.select_columns(columns).iter_rows())


def run_check(args: argparse.Namespace) -> int:
    """``hybridjudge check --ray``: exit 0 all grounded (or the grounded share at least
    ``--fail-under``), 1 otherwise, 2 some unusable."""
    from hybridjudge.dist import check_dataset

    out = _check_out(args)
    _connect(args.ray)
    ds, record_column, fmt = _input(args)
    checked = check_dataset(
        ds, workers=args.workers, record_column=record_column, strict=args.strict
    ).materialize()
    _write(checked, out, args.out_format or fmt)
    rows = _counts(checked, ["grounded", "error"])
    bad = sum(r["error"] is not None for r in rows)
    failed = sum(r["grounded"] is False for r in rows)
    print(
        f"hybridjudge check: {len(rows)} records, {len(rows) - bad - failed} grounded, "
        f"{failed} not grounded, {bad} unusable (see the error column); results in {out}",
        file=sys.stderr,
    )
    if bad:
        return 2
    from hybridjudge.cli._check import DETERMINISTIC, failed_shares, parse_fail_under

    fail_under = parse_fail_under(args.fail_under, (DETERMINISTIC,))
    passes = {DETERMINISTIC: [r["grounded"] is True for r in rows]}
    return 1 if failed_shares(passes, fail_under) else 0


def run_judge(args: argparse.Namespace, config: ModelConfig, scorers: tuple[str, ...]) -> int:
    """``hybridjudge judge --ray``: exit 0 when every record was judged and passes, 1 when outputs
    fail (``--threshold``, ``--fail-under``: the rule without ``--ray``), 2 when some record was
    unusable, 3 when a scorer's share of unscored results is above ``--max-unscored`` (as
    without ``--ray``: what was not measured is never counted as passed)."""
    from hybridjudge.cli._exit import EXIT_INCOMPLETE, judged_incomplete
    from hybridjudge.dist import judge_dataset

    out = _check_out(args)
    _connect(args.ray)
    ds, record_column, fmt = _input(args)
    judged = judge_dataset(
        ds,
        config=config,
        scorers=scorers,
        mode=args.mode,
        repetitions=args.repetitions,
        workers=args.workers,
        record_column=record_column,
        strict=args.strict,
        max_claims=args.max_claims,
    ).materialize()
    _write(judged, out, args.out_format or fmt)
    status_columns = [f"{name}_status" for name in scorers]
    score_columns = [f"{name}_score" for name in scorers]
    columns = ["id", "status", "calls", "cache_hits", "cost_usd", *status_columns, *score_columns]
    rows = _counts(judged, columns)
    failed = sum(r["status"] == "failed" for r in rows)
    calls = sum(r["calls"] for r in rows)
    hits = sum(r["cache_hits"] for r in rows)
    costs = [r["cost_usd"] for r in rows]
    # an unknown price (no --price-in/--price-out for the model) is an unknown cost, never $0
    cost = "unknown" if any(c is None for c in costs) else f"${sum(costs):.4f}"
    # every scorer's result of a judged record (a failed record is counted as unusable, above)
    results = [r[c] for r in rows if r["status"] != "failed" for c in status_columns]
    unscored = sum(status == "unscored" for status in results)
    print(
        f"hybridjudge judge: {len(rows)} evaluations, {failed} unusable records, {unscored} of "
        f"{len(results)} results unscored; {calls} model calls costing {cost}, {hits} cache "
        f"hits; results in {out}",
        file=sys.stderr,
    )
    if failed:
        return 2
    see = "see the <scorer>_unscored_reason columns"
    judged = [r for r in rows if r["status"] != "failed"]
    counts = {
        name: (sum(r[f"{name}_status"] == "unscored" for r in judged), len(judged))
        for name in scorers
    }
    if judged_incomplete("hybridjudge judge", counts, args.max_unscored, see):
        return EXIT_INCOMPLETE
    from hybridjudge.cli._judge import judged_outputs_fail, pass_rule

    limits, fail_under = pass_rule(args, scorers)
    scores = {
        name: [(r["id"], r[f"{name}_score"]) for r in judged if r[f"{name}_status"] == "scored"]
        for name in scorers
    }
    return judged_outputs_fail(scores, limits, fail_under)
