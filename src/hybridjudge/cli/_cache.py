"""``hybridjudge cache stats`` and ``hybridjudge cache clear``: inspect or empty the reply cache."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``cache`` command with its ``stats`` and ``clear`` subcommands."""
    parser = subparsers.add_parser(
        "cache",
        help="inspect or clear the model reply cache",
        description=(
            "Inspect or clear the cache of model replies: the disk cache, or the shared Redis "
            "cache with --cache-url (or $HYBRIDJUDGE_CACHE_URL, as the runs use it)."
        ),
    )
    actions = parser.add_subparsers(dest="cache_command", metavar="ACTION", required=True)
    cache_dir_help = "cache directory (default $HYBRIDJUDGE_CACHE_DIR or .hybridjudge-cache)"
    cache_url_help = (
        "a shared Redis cache, redis://host:port/db (default $HYBRIDJUDGE_CACHE_URL, unless "
        "--cache-dir is given)"
    )

    stats = actions.add_parser(
        "stats",
        help="entries, size on disk and location",
        description=(
            "Show where the reply cache is, how many replies it holds per prompt, its size on "
            "disk and what a full rerun saves thanks to it."
        ),
    )
    stats.add_argument("--cache-dir", type=Path, default=None, help=cache_dir_help)
    stats.add_argument("--cache-url", default=None, metavar="URL", help=cache_url_help)
    stats.add_argument("--json", action="store_true", help="print one JSON object")
    stats.set_defaults(handler=_stats)

    clear = actions.add_parser(
        "clear",
        help="delete every cached reply",
        description=(
            "Delete every cached model reply (asks first unless --yes; the next run asks the "
            "model again)."
        ),
    )
    clear.add_argument("--cache-dir", type=Path, default=None, help=cache_dir_help)
    clear.add_argument("--cache-url", default=None, metavar="URL", help=cache_url_help)
    clear.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    clear.set_defaults(handler=_clear)


def _directory(args: argparse.Namespace) -> Path | str:
    """The cache the runs would use: ``--cache-url``, else ``--cache-dir``, else
    ``$HYBRIDJUDGE_CACHE_URL``, else the default cache directory."""
    import os

    from hybridjudge._errors import ConfigError
    from hybridjudge.model import default_cache_dir, is_cache_url

    url: str | None = args.cache_url
    directory: Path | None = args.cache_dir
    if url is not None and directory is not None:
        raise ConfigError("--cache-url and --cache-dir name two caches; give one of them")
    if url is None and directory is None:
        url = os.environ.get("HYBRIDJUDGE_CACHE_URL") or None
    if url is not None:
        if not is_cache_url(url):
            raise ConfigError(
                "--cache-url: only a Redis URL is supported (redis://host:port/db, rediss://, "
                "unix://); for a cache folder use --cache-dir"
            )
        return url
    return directory if directory is not None else default_cache_dir()


def _stats(args: argparse.Namespace) -> int:
    from hybridjudge.model import CorruptCacheError, cache_stats

    stats = cache_stats(_directory(args))  # creates nothing: a folder without one is no cache
    if stats.corrupt is not None:  # a typed error (exit 2) naming the fix, as a run reports it
        raise CorruptCacheError(Path(stats.directory), stats.corrupt)
    if args.json:
        print(stats.model_dump_json())
        return 0
    if not stats.exists:
        print(f"no cache at {stats.directory} (0 entries)")
        return 0
    print(f"location:   {stats.directory}")
    print(f"entries:    {stats.entries}")
    if stats.previous_layout:
        print("layout:     the previous one (cache.db); the next run imports its JSON replies")
    print(f"size:       {_human_size(stats.size_bytes)} ({stats.size_bytes} bytes)")
    print(f"cost saved per full rerun: ${stats.saved_cost_usd:.4f}")
    for prompt, count in stats.by_prompt.items():
        print(f"  {count:>7}  {prompt}")
    return 0


def _clear(args: argparse.Namespace) -> int:
    from hybridjudge._errors import InputError
    from hybridjudge.model import cache_stats, clear_cache

    directory = _directory(args)
    stats = cache_stats(directory)
    if not stats.exists:
        print(f"no cache at {stats.directory}: nothing to clear")
        return 0
    if not args.yes:
        if not sys.stdin.isatty():
            raise InputError(
                f"refusing to clear {stats.entries} cached replies in {stats.directory} "
                "without confirmation: pass --yes"
            )
        answer = input(f"Delete {stats.entries} cached replies in {stats.directory}? [y/N] ")
        if answer.strip().lower() not in ("y", "yes"):
            print("cache left unchanged")
            return 0
    removed = clear_cache(directory)
    if stats.corrupt:
        print(f"removed the corrupt cache database from {stats.directory}")
    else:
        print(f"removed {removed} cached replies from {stats.directory}")
    return 0


def _human_size(size: int) -> str:
    value = float(size)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{size} B"  # pragma: no cover
