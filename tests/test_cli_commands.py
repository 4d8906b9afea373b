"""The command registry of ``hybridjudge``: no subcommand is ever skipped silently.

A subcommand module that fails to import stays listed as unavailable, running it exits 2 with the
reason and the fix, and the other commands keep working.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import hybridjudge.cli as cli
from hybridjudge.cli import build_parser, main


@pytest.fixture
def broken_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A subcommand module whose import fails the way a missing optional dependency does."""
    (tmp_path / "hj_broken_cmd.py").write_text(
        "raise ModuleNotFoundError(\"No module named 'ray'\", name='ray')\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(cli, "_COMMAND_MODULES", (*cli._COMMAND_MODULES, "hj_broken_cmd"))
    yield "hj_broken_cmd"
    sys.modules.pop("hj_broken_cmd", None)


def test_every_shipped_command_loads() -> None:
    help_text = build_parser().format_help()
    assert "UNAVAILABLE" not in help_text
    for module in cli._COMMAND_MODULES:
        assert module.rsplit("._", 1)[-1] in help_text, module


def test_a_command_that_fails_to_import_is_listed_as_unavailable(broken_command: str) -> None:
    help_text = " ".join(build_parser().format_help().split())  # unwrapped
    assert broken_command in help_text
    assert "UNAVAILABLE" in help_text
    assert "No module named 'ray'" in help_text


def test_running_it_says_why_and_how_to_fix_it(
    broken_command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([broken_command, "--anything", "x"]) == 2
    err = capsys.readouterr().err
    assert f"hybridjudge {broken_command}: error [command_unavailable]" in err
    assert "ModuleNotFoundError: No module named 'ray'" in err
    assert "reinstall hybridjudge" in err
    assert "Traceback" not in err


def test_the_other_commands_still_work(
    broken_command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = tmp_path / "cases.jsonl"
    line = {"id": "a", "answer": "It costs 12 EUR.", "context": "The price is 12 EUR."}
    cases.write_text(json.dumps(line) + "\n", encoding="utf-8")
    assert main(["check", str(cases), "--json"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[0])["id"] == "a"


def test_a_library_error_about_parameters_gets_the_flag_hint(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # the model layer names parameters (price_input_per_mtok); the CLI adds its flags for the code
    import hybridjudge.cli._check as check_module
    from hybridjudge import ConfigError
    from hybridjudge.cli._model_args import FLAG_HINTS

    def fail(_args: object) -> int:
        raise ConfigError("no price known: set price_input_per_mtok", code="unknown_price")

    monkeypatch.setattr(check_module, "_run", fail)
    assert main(["check", "cases.jsonl"]) == 2
    err = capsys.readouterr().err
    assert "error [unknown_price]: no price known: set price_input_per_mtok" in err
    assert f"hint: {FLAG_HINTS['unknown_price']}" in err
    assert "--price-in" in FLAG_HINTS["unknown_price"]
