"""The ``hybridjudge`` command line.

Each subcommand lives in its own private module exposing ``register(subparsers)``; the module
imports heavy dependencies only inside its handler so ``hybridjudge --help`` stays fast.
Exit codes: 0 success, 1 the evaluated system failed (findings, a failed gate), 2 unusable input
or configuration.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from hybridjudge._errors import HybridJudgeError

__all__ = ["EXIT_FAILED", "EXIT_OK", "EXIT_USAGE", "build_parser", "main"]

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2

# Subcommand modules, in the order `--help` lists them. A module that is missing (an issue not
# built yet) is skipped, so the CLI never breaks on a partial tree.
_COMMAND_MODULES = (
    "hybridjudge.cli._study",
    "hybridjudge.cli._check",
    "hybridjudge.cli._judge",
    "hybridjudge.cli._mutate",
    "hybridjudge.cli._report",
    "hybridjudge.cli._gate",
    "hybridjudge.cli._retrieval",
    "hybridjudge.cli._triage",
    "hybridjudge.cli._model",
    "hybridjudge.cli._cache",
)


def build_parser() -> argparse.ArgumentParser:
    """Build the top-level parser with every available subcommand registered."""
    from hybridjudge import __version__

    parser = argparse.ArgumentParser(
        prog="hybridjudge",
        description=(
            "Deterministic grounding checks and cached LLM judges, side by side; "
            "a mutation study that measures which scorer catches which defect."
        ),
    )
    parser.add_argument("--version", action="version", version=f"hybridjudge {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in _COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue
            raise
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the process exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        code: int = handler(args)
    except HybridJudgeError as exc:
        print(f"hybridjudge {args.command}: error [{exc.code}]: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(
            f"hybridjudge {args.command}: interrupted; finished model calls are cached, "
            "rerun the same command to resume.",
            file=sys.stderr,
        )
        return 130
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
