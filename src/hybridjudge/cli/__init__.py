"""The ``hybridjudge`` command line.

Each subcommand lives in its own private module exposing ``register(subparsers)``; the module
imports heavy dependencies only inside its handler so ``hybridjudge --help`` stays fast.
Exit codes (defined once in :mod:`hybridjudge.cli._exit`): 0 success, 1 findings or regression,
2 unusable input or usage, 3 incomplete (a scorer's unscored share above ``--max-unscored``), 130
interrupted. A closed stdout (``| head``) ends quietly; text that cannot be encoded (a lone
surrogate in an id) is printed escaped instead of crashing.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import os
import sys
from collections.abc import Sequence

from hybridjudge._errors import HybridJudgeError
from hybridjudge.cli._common import configure_logging, finalize

__all__ = ["EXIT_FAILED", "EXIT_OK", "EXIT_USAGE", "build_parser", "main"]

from hybridjudge.cli._exit import EXIT_FINDINGS, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE

EXIT_FAILED = EXIT_FINDINGS

# Subcommand modules, in the order `--help` lists them; each module's name after "_" is its
# command. A module that fails to import is never skipped silently: its command stays listed as
# unavailable and running it reports why (the other commands keep working).
_COMMAND_MODULES = (
    "hybridjudge.cli._study",
    "hybridjudge.cli._check",
    "hybridjudge.cli._corpus",
    "hybridjudge.cli._judge",
    "hybridjudge.cli._mutate",
    "hybridjudge.cli._report",
    "hybridjudge.cli._view",
    "hybridjudge.cli._gate",
    "hybridjudge.cli._retrieval",
    "hybridjudge.cli._triage",
    "hybridjudge.cli._model",
    "hybridjudge.cli._cache",
)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """Build the top-level parser with every available subcommand registered, or only
    ``command``'s when it names one (what :func:`main` does when the arguments start with a
    command: the other commands' modules are not imported, which keeps a one-case
    ``hybridjudge check`` fast; ``--help`` and an unknown command still see them all)."""
    from hybridjudge._version import __version__

    parser = argparse.ArgumentParser(
        prog="hybridjudge",
        description=(
            "Deterministic grounding checks and cached LLM judges, side by side; "
            "a mutation study that measures which scorer catches which defect."
        ),
    )
    parser.add_argument("--version", action="version", version=f"hybridjudge {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    names = [n for n in _COMMAND_MODULES if n.rsplit("._", 1)[-1] == command] or _COMMAND_MODULES
    for name in names:
        try:
            module = importlib.import_module(name)
        except Exception as exc:  # any failure, reported when the command is used
            _register_unavailable(subparsers, name, exc)
            continue
        module.register(subparsers)
    finalize(parser)  # shared help: defaults, an example, exit codes; -v/-q on every command
    return parser


def _register_unavailable(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser], module: str, exc: Exception
) -> None:
    """List a command whose module failed to import; running it raises a clear error."""
    command = module.rsplit("._", 1)[-1]
    reason = f"{type(exc).__name__}: {exc}"
    parser = subparsers.add_parser(
        command,
        help=f"UNAVAILABLE: its module failed to import ({reason})",
        add_help=False,
        prefix_chars="\0",  # no options: every argument lands in `rest`, none is an error
    )
    parser.add_argument("rest", nargs="*", help=argparse.SUPPRESS)

    def unavailable(args: argparse.Namespace) -> int:
        raise HybridJudgeError(
            f"the {command!r} command cannot be loaded: importing {module} failed with {reason}; "
            "the installation is incomplete or broken: reinstall hybridjudge "
            "(pip install --force-reinstall hybridjudge, or make clean && make test in a clone)",
            code="command_unavailable",
        ) from exc

    parser.set_defaults(handler=unavailable)


def _command_parser(
    parser: argparse.ArgumentParser, args: argparse.Namespace
) -> argparse.ArgumentParser:
    """The parser of the (sub)command ``args`` ran: its usage is the one an error should show."""
    while True:
        action = next(
            (a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None
        )
        name = getattr(args, action.dest, None) if action is not None else None
        if action is None or name not in action.choices:
            return parser
        parser = action.choices[name]


def _tolerant_streams() -> None:
    """Print what cannot be encoded (lone surrogates, odd consoles) escaped, never crash."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(Exception):
                reconfigure(errors="backslashreplace")


def _silence_stdout() -> None:
    """After a closed stdout: point it at /dev/null so the interpreter's final flush is quiet."""
    with contextlib.suppress(Exception):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


_GC_THRESHOLD = 50_000
"""The collector's first threshold while a command runs (CPython's default: 700 allocations).

A command's start-up creates some 80,000 objects that live as long as the process (pydantic's
schemas, the compiled expressions and word tables of the grounding checks, rich's tables): at
the default, the collector runs about 110 times during it and traverses those objects again at
each older generation's turn, 20 ms of a one-case ``hybridjudge check``'s 0.3 s (measured with
``gc.callbacks``, December 2026). At 50,000 it runs once or twice; garbage in reference cycles
waits for at most 50,000 allocations more, a few megabytes. :func:`main` restores the threshold
it found when the command ends (a caller's own process, a test, keeps its setting)."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the process exit code.

    Everything the command prints goes through :class:`hybridjudge._sinks.TerminalGuard`: a
    control character from user text (an id, an answer, a file name) is shown escaped, never
    obeyed by the terminal. The collector's first threshold is ``_GC_THRESHOLD`` while the
    command runs, and what it froze (:func:`hybridjudge.cli._common.lasting`) is unfrozen when it
    ends (unless the caller had frozen objects itself).
    """
    _tolerant_streams()
    from hybridjudge._sinks import TerminalGuard

    stdout, stderr = sys.stdout, sys.stderr
    sys.stdout = TerminalGuard(stdout)
    sys.stderr = TerminalGuard(stderr)
    threshold = gc.get_threshold()
    frozen = gc.get_freeze_count()
    gc.set_threshold(max(threshold[0], _GC_THRESHOLD), *threshold[1:])
    try:
        return _main(argv)
    finally:
        gc.set_threshold(*threshold)
        if not frozen:  # what the command froze (cli._common.lasting) is collected again
            gc.unfreeze()
        sys.stdout, sys.stderr = stdout, stderr


def _main(argv: Sequence[str] | None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(words[0] if words else None)
    args, unknown = parser.parse_known_args(words)
    if unknown:  # the command's own usage, not the top-level one
        _command_parser(parser, args).error(f"unrecognized arguments: {' '.join(unknown)}")
    configure_logging(getattr(args, "verbose", 0), getattr(args, "quiet", False))
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        code: int = handler(args)
        sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's final flush
    except HybridJudgeError as exc:
        print(f"hybridjudge {args.command}: error [{exc.code}]: {exc}", file=sys.stderr)
        from hybridjudge.cli._model_args import FLAG_HINTS  # only an error needs the hints

        hint = FLAG_HINTS.get(exc.code)
        if hint:
            print(f"hybridjudge {args.command}: hint: {hint}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        if args.command in _MODEL_COMMANDS:
            why = "finished model calls are cached, rerun the same command to resume."
        else:
            why = "no file was left half-written; rerun the same command."
        print(f"hybridjudge {args.command}: interrupted; {why}", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): what it wanted was delivered; end quietly.
        _silence_stdout()
        return EXIT_OK
    except OSError as exc:  # a file or folder the command could not read or write
        where = f"{exc.filename}: " if exc.filename is not None else ""
        print(
            f"hybridjudge {args.command}: error [io_error]: {where}{exc.strerror or exc}; check "
            "the path (an output must be a writable place, not an existing folder where a file "
            "is expected) and run the command again",
            file=sys.stderr,
        )
        return EXIT_USAGE
    return code


_MODEL_COMMANDS = frozenset({"judge", "study"})
"""Commands whose interruption leaves finished model calls in the reply cache."""


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
