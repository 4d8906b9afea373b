"""The collector's threshold while a command runs (``hybridjudge.cli._GC_THRESHOLD``): raised for
the command, so that its start-up's long-lived objects are not traversed a hundred times, and
given back when the command ends, however it ends (a test or an embedding program calling
:func:`hybridjudge.cli.main` keeps its own setting)."""

from __future__ import annotations

import gc
import json
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

import hybridjudge.cli as cli


@pytest.fixture
def default_threshold() -> Iterator[tuple[int, int, int]]:
    saved = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    try:
        yield (700, 10, 10)
    finally:
        gc.set_threshold(*saved)


def test_a_command_runs_with_the_raised_threshold_and_gives_it_back(
    default_threshold: tuple[int, int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[int, int, int]] = []

    def command(argv: Sequence[str] | None) -> int:
        seen.append(gc.get_threshold())
        return 0

    monkeypatch.setattr(cli, "_main", command)
    assert cli.main(["check", "x"]) == 0
    assert seen == [(50_000, 10, 10)]  # the first threshold raised, the older ones as found
    assert gc.get_threshold() == default_threshold


def test_the_threshold_comes_back_after_an_error(
    default_threshold: tuple[int, int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    def command(argv: Sequence[str] | None) -> int:
        raise RuntimeError("a bug in a handler")

    monkeypatch.setattr(cli, "_main", command)
    with pytest.raises(RuntimeError):
        cli.main(["check", "x"])
    assert gc.get_threshold() == default_threshold


def test_a_higher_threshold_of_the_caller_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    saved = gc.get_threshold()
    seen: list[tuple[int, int, int]] = []
    monkeypatch.setattr(cli, "_main", lambda argv: seen.append(gc.get_threshold()) or 0)
    gc.set_threshold(200_000, 5, 5)
    try:
        cli.main(["check", "x"])
        assert seen == [(200_000, 5, 5)]  # never lowered
        assert gc.get_threshold() == (200_000, 5, 5)
    finally:
        gc.set_threshold(*saved)


def test_a_real_check_gives_the_threshold_back(
    default_threshold: tuple[int, int, int], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "one.jsonl"
    case = {"id": "a", "answer": "Refunds within 30 days.", "context": "Refunds within 30 days."}
    path.write_text(json.dumps(case) + "\n", encoding="utf-8")
    assert cli.main(["check", str(path)]) == 0
    assert "1 grounded" in capsys.readouterr().err
    assert gc.get_threshold() == default_threshold


def test_a_command_s_imports_run_with_the_collector_paused_and_are_frozen() -> None:
    """``cli._common.lasting``: paused inside, then every object alive frozen out of the
    collector's passes, and the collector running again as it was."""
    from hybridjudge.cli._common import lasting

    assert gc.isenabled()
    try:
        with lasting():
            assert not gc.isenabled()
            made = [[] for _ in range(1000)]
        assert gc.isenabled()
        assert gc.get_freeze_count() >= len(made)
    finally:
        gc.unfreeze()
    gc.disable()
    try:
        with lasting():
            pass
        assert not gc.isenabled()  # a caller's paused collector stays paused
    finally:
        gc.unfreeze()
        gc.enable()


def test_a_real_check_freezes_its_imports_and_unfreezes_them_when_it_ends(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "one.jsonl"
    case = {"id": "a", "answer": "Refunds within 30 days.", "context": "Refunds within 30 days."}
    path.write_text(json.dumps(case) + "\n", encoding="utf-8")
    frozen: list[int] = []
    freeze = gc.freeze

    def counting() -> None:
        freeze()
        frozen.append(gc.get_freeze_count())

    monkeypatch.setattr(gc, "freeze", counting)
    assert gc.get_freeze_count() == 0
    assert cli.main(["check", str(path)]) == 0
    assert "1 grounded" in capsys.readouterr().err
    assert len(frozen) == 1
    assert frozen[0] > 0  # the command froze what its imports made
    assert gc.get_freeze_count() == 0  # and main gave it back to the collector
    assert gc.isenabled()
