"""One command line: every subcommand's help has a description, an example, the exit codes and
its defaults; a flag name means one thing across commands; lists are parsed one way."""

from __future__ import annotations

import argparse
import shlex
from collections import defaultdict
from collections.abc import Iterator

import pytest

from hybridjudge.cli import build_parser
from hybridjudge.cli._common import EXAMPLES, ListAction, parse_list


def _walk(
    parser: argparse.ArgumentParser, path: str = ""
) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            seen: set[int] = set()
            for name, sub in action.choices.items():
                if id(sub) not in seen:
                    seen.add(id(sub))
                    yield from _walk(sub, f"{path} {name}".strip())


COMMANDS = [(path, p) for path, p in _walk(build_parser()) if path]
LEAVES = [
    (path, p)
    for path, p in COMMANDS
    if not any(isinstance(a, argparse._SubParsersAction) for a in p._actions)
]


def test_every_command_is_covered() -> None:
    names = {path for path, _ in COMMANDS}
    for expected in ("study run", "check", "judge", "mutate", "report", "gate", "cache stats",
                     "cache clear", "triage report", "retrieval eval"):  # fmt: skip
        assert expected in names


@pytest.mark.parametrize(("path", "parser"), COMMANDS, ids=[p for p, _ in COMMANDS])
def test_help_has_description_example_and_exit_codes(
    path: str, parser: argparse.ArgumentParser
) -> None:
    text = parser.format_help()
    assert parser.description, f"{path}: no description"
    assert "exit codes" in text, f"{path}: no exit codes"
    assert "130" in text, f"{path}: the shared exit codes are missing"
    assert "example:" in text, f"{path}: no example"
    example = text.split("example:", 1)[1].strip().splitlines()[0]
    assert example.startswith(f"hybridjudge {path.split()[0]}"), (path, example)


def _shows_default(action: argparse.Action) -> bool:
    default = action.default
    if not action.option_strings or action.help == argparse.SUPPRESS:
        return False
    if isinstance(action, argparse._HelpAction | argparse._VersionAction):
        return False
    if default is None or default is False or default is argparse.SUPPRESS or default == []:
        return False  # "not given": nothing to show
    return not (isinstance(action, argparse._CountAction) and default == 0)


@pytest.mark.parametrize(("path", "parser"), LEAVES, ids=[p for p, _ in LEAVES])
def test_every_default_is_shown(path: str, parser: argparse.ArgumentParser) -> None:
    formatter = parser._get_formatter()
    for action in parser._actions:
        if _shows_default(action):
            shown = (formatter._get_help_string(action) or "") % {"default": action.default}
            assert "default" in shown.lower(), (path, action.option_strings)
    # the model flags whose defaults depend on the backend say so explicitly
    flags = parser._option_string_actions
    for flag in ("--max-tokens", "--timeout", "--concurrency", "--max-retries"):
        if flag in flags:
            assert "default" in (flags[flag].help or ""), (path, flag)


SHARED_FLAGS = {
    "--json": "machine-readable output on stdout instead of the human one",
    "--out": "where the command writes its result (a file or a directory)",
    "--html": "also write a self-contained HTML report to this file",
    "--cache-dir": "the directory of the model reply cache",
    "--scorers": "which scorers run, a list",
    "--repetitions": "how many times every scorer runs",
    "--format": "the input file format",
    "--delimiter": "the cell separator of a CSV input file",
    "--strict": "reject input records with unknown fields",
    "--resamples": "bootstrap resamples for the intervals",
    "--bootstrap-seed": "seed of the bootstrap resampling",
    "--dry-run": "estimate the model calls, tokens and cost, and stop before any request",
    "--fail-under": "exit 1 when the share of usable outputs that pass is below it (check: "
    "grounded; judge: a score at or above --threshold)",
    "--threshold": "a judge's output passes when its score is at or above it (study run, judge)",
}
"""Flags that several commands share, with their one meaning (the model flags come from one
definition, cli/_model_args.py, and -h/-v/-q from cli/_common.py)."""

SHARED_SOURCES = {"-h", "--help", "-v", "--verbose", "-q", "--quiet"}


def _meaning(action: argparse.Action) -> tuple[object, ...]:
    value_type = getattr(action.type, "__name__", action.type)
    value_type = "str" if value_type in (None, "str", "Path") else value_type
    choices = tuple(action.choices) if action.choices else None
    return (type(action).__name__, value_type, action.nargs, choices)


def _model_flags() -> set[str]:
    from hybridjudge.cli._model_args import add_model_arguments

    parser = argparse.ArgumentParser(add_help=False)
    add_model_arguments(parser)
    return set(parser._option_string_actions)


def test_no_flag_name_has_two_meanings() -> None:
    meanings: dict[str, dict[tuple[object, ...], list[str]]] = defaultdict(dict)
    helps: dict[str, set[str]] = defaultdict(set)
    for path, parser in LEAVES:
        for action in parser._actions:
            for flag in action.option_strings:
                meanings[flag].setdefault(_meaning(action), []).append(path)
                helps[flag].add(action.help or "")
    # one shape per flag name: the same kind of action, value type, arity and choices
    clashes = {flag: m for flag, m in meanings.items() if len(m) > 1}
    assert clashes == {}
    # a flag used by several commands is defined once for all of them (the same help text
    # everywhere: the model flags, -v/-q, --max-unscored ...) or listed above with its one meaning
    model = _model_flags()
    shared = {f for f, m in meanings.items() if len(next(iter(m.values()))) > 1}
    worded_apart = {f for f in shared if len(helps[f]) > 1}
    assert worded_apart - model - SHARED_SOURCES <= set(SHARED_FLAGS), (
        worded_apart - model - SHARED_SOURCES - set(SHARED_FLAGS)
    )
    # the seeds are named apart; no bare --seed is left to mean four things
    assert "--seed" not in meanings
    for flag in ("--mutation-seed", "--sample-seed", "--model-seed", "--bootstrap-seed"):
        assert flag in meanings, flag


def test_lists_parse_one_way_everywhere() -> None:
    assert parse_list(["a,b", "c", "d, e"]) == ["a", "b", "c", "d", "e"]
    assert parse_list("ndcg@10, mrr") == ["ndcg@10", "mrr"]
    for path, parser in LEAVES:
        for action in parser._actions:
            if action.nargs in ("+", "*") and action.option_strings:
                assert isinstance(action, ListAction), (path, action.option_strings)


TRIAGE = ["triage", "report", "x.csv", "--reference-column", "r", "--prediction-column", "p",
          "--scale", "KTAS", "--label-source", "expert"]  # fmt: skip


@pytest.mark.parametrize("levels", [["1,2,3"], ["1", "2", "3"], ["1,", "2", "3"], ["1, 2", "3"]])
def test_commas_and_spaces_give_the_same_list(levels: list[str]) -> None:
    args = build_parser().parse_args([*TRIAGE, "--high-acuity", *levels])
    assert args.high_acuity == ["1", "2", "3"]


def test_every_example_names_a_real_command() -> None:
    names = {path for path, _ in COMMANDS} | {"hybridjudge"}
    assert set(EXAMPLES) <= names | {"corpus"}, set(EXAMPLES) - names


@pytest.mark.parametrize("path", sorted(EXAMPLES))
def test_every_example_parses(path: str, capsys: pytest.CaptureFixture[str]) -> None:
    # `model`'s example was "hybridjudge model info", a command that does not exist (exit 2)
    words = shlex.split(EXAMPLES[path].replace("\\\n", " "))
    assert words[0] == "hybridjudge"
    try:
        build_parser().parse_known_args(words[1:])
    except SystemExit:
        err = capsys.readouterr().err
        assert "invalid choice" not in err, err
        assert "..." in words, err  # only an example abbreviated with "..." may be incomplete


def test_verbose_and_quiet_on_every_command() -> None:
    for path, parser in LEAVES:
        flags = parser._option_string_actions
        if not parser.add_help:
            continue  # an unavailable command (its module failed to import)
        for flag in ("-v", "--verbose", "-q", "--quiet"):
            assert flag in flags, (path, flag)
