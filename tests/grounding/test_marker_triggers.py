"""The built-in abstention markers' triggers, written beforehand (``data/marker_triggers.json``).

A marker set is searched by groups, one per trigger (a marker's longest letter run). The file
saves every process from normalising the ~8,400 built-in markers to find them; it must hold
exactly what the code computes, and be used only for the markers it was written for.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from hybridjudge.grounding import _abstention
from hybridjudge.grounding._abstention import (
    DEFAULT_ABSTAIN_MARKERS,
    MarkerSet,
    abstains,
    marker_triggers,
    phrases_digest,
    split_markers,
)
from tests.support.scripts import load_script

REPO = Path(__file__).resolve().parents[2]

ANSWERS = [
    "I don't know.",
    "The context does not mention the price.",
    "Der Kontext nennt den Preis nicht.",
    "Le contexte ne précise pas la date.",
    "Revenue was $4.2 billion. I don't know the 2022 figure.",
    "N/A",
    "文中没有提到价格。",
    "The plant opened in March 2019.",
    "If no date is specified, the deadline is 30 days.",
]


def _script() -> ModuleType:
    return load_script("scripts/marker_triggers.py", "hj_marker_triggers")


@pytest.fixture
def triggers_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """A temporary stand-in for the packaged file (the read is cached: cleared around)."""
    path = tmp_path / "marker_triggers.json"
    monkeypatch.setattr(_abstention, "TRIGGERS_FILE", path)
    _abstention._triggers_file.cache_clear()
    yield path
    _abstention._triggers_file.cache_clear()


def _groups(markers: tuple[str, ...]) -> dict[bytes, list[str]]:
    return dict(MarkerSet(markers)._sources)


def test_the_packaged_file_holds_what_the_code_computes() -> None:
    phrases, _ = split_markers(DEFAULT_ABSTAIN_MARKERS)
    stored = _abstention._stored_triggers(phrases)
    assert stored is not None, "run python scripts/marker_triggers.py"
    assert list(stored) == marker_triggers(phrases)
    assert len(phrases) > 8000


def test_the_script_check_passes_on_the_repository() -> None:
    assert _script().main(["--check"]) == 0


def test_the_script_check_fails_on_a_stale_file_and_writing_mends_it(
    triggers_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    script = _script()
    monkeypatch.setattr(script, "TRIGGERS_FILE", triggers_file)
    assert script.main(["--check"]) == 1  # missing
    triggers_file.write_text(script.render().replace('"know"', '"knw"', 1), encoding="utf-8")
    assert script.main(["--check"]) == 1  # one trigger wrong
    assert script.main([]) == 0
    assert script.main(["--check"]) == 0


def test_a_trigger_is_the_longest_run_then_the_first_in_byte_order() -> None:
    assert marker_triggers(
        ["I do not know", "was not disclosed", "ab cd", "ne ... pas du tout"]
    ) == [
        b"know",
        b"disclosed",
        b"ab",
        b"ne",  # the part before the gap
    ]
    assert marker_triggers(["文中没有提到", "n/a"]) == [None, b"a"]  # "a" before "n"


def test_a_set_other_than_the_built_in_one_computes_its_triggers(triggers_file: Path) -> None:
    phrases, _ = split_markers(DEFAULT_ABSTAIN_MARKERS)
    # a file written for the built-in set, but every trigger replaced: used only if read
    wrong = {
        "format_version": _abstention.TRIGGERS_FORMAT,
        "markers_sha256": phrases_digest(phrases),
        "triggers": ["zzz"] * len(phrases),
    }
    triggers_file.write_text(json.dumps(wrong), encoding="utf-8")
    assert set(_groups(DEFAULT_ABSTAIN_MARKERS)) == {b"zzz"}  # the file is read for this set
    first, second, *rest = DEFAULT_ABSTAIN_MARKERS
    assert not first.startswith("^")
    assert not second.startswith("^")
    added = (*DEFAULT_ABSTAIN_MARKERS, "nothing here says so")
    changed = ("nothing here says so", second, *rest)
    reordered = (second, first, *rest)
    dropped = (second, *rest)
    for markers in (added, changed, reordered, dropped):
        groups = _groups(markers)
        assert b"zzz" not in groups
        assert b"know" in groups


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        json.dumps({"format_version": 99, "markers_sha256": "x", "triggers": []}),
        json.dumps([1, 2]),
        json.dumps({"format_version": 1, "markers_sha256": 5, "triggers": []}),
        json.dumps({"format_version": 1, "markers_sha256": "x", "triggers": [1]}),
    ],
)
def test_a_broken_file_is_ignored(triggers_file: Path, text: str) -> None:
    triggers_file.write_text(text, encoding="utf-8")
    assert _abstention._triggers_file() is None
    assert b"know" in _groups(DEFAULT_ABSTAIN_MARKERS)


def test_a_missing_file_is_ignored(triggers_file: Path) -> None:
    assert _abstention._triggers_file() is None
    assert b"know" in _groups(DEFAULT_ABSTAIN_MARKERS)


@pytest.mark.parametrize("answer", ANSWERS)
def test_verdicts_are_the_same_with_stored_and_computed_triggers(
    answer: str, triggers_file: Path
) -> None:
    _abstention._compile.cache_clear()
    computed = abstains(answer, list(DEFAULT_ABSTAIN_MARKERS))  # no file here: computed
    _abstention._compile.cache_clear()
    _abstention._triggers_file.cache_clear()
    phrases, _ = split_markers(DEFAULT_ABSTAIN_MARKERS)
    triggers_file.write_text(_script().render(), encoding="utf-8")
    assert _abstention._stored_triggers(phrases) is not None
    assert abstains(answer, list(DEFAULT_ABSTAIN_MARKERS)) == computed
    _abstention._compile.cache_clear()
