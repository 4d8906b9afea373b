"""No word table of a language in code outside ``grounding/`` either (issue 33, point 2): the
scan of ``tests/grounding/test_structure.py`` (``tests/support/word_tables.py``) over the rest of
the package.

Words outside ``grounding/`` live in ``src/hybridjudge/data/words.json``, read through
``hybridjudge._text`` (:func:`~hybridjudge._text.word_list` and its ordered and paired
variants); the grounding checks read theirs from their lexicons (docs/lexicons.md). What the scan
still finds is listed below with a reason: :data:`NOT_LEXICAL` (names, tags, column headers,
other programs' messages: no words of a language) and :data:`NOT_YET_MOVED` (word tables still
in code). The second list may only shrink: a table it names that the scan no longer finds fails
the test until its entry is removed.
"""

from __future__ import annotations

import hashlib
import importlib
from pathlib import Path

import pytest

from tests.support.word_tables import word_tables

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "hybridjudge"

_PUBLIC = "public names"
_RECORD = "the keys of a record written out (JSON, CSV, Parquet): a format's field names"

NOT_LEXICAL: dict[str, str] = {
    "__init__._LAZY": "public names and the modules defining them",
    "__init__._SUBPACKAGES": "the package's subpackages",
    "__init__.__all__": _PUBLIC,
    "_errors.__all__": _PUBLIC,
    "_frames.FIELD_ALIASES": "the column names other tools give a case's fields",
    "_frames._STRICT_NAMES": "the column names of a case's fields",
    "_limits._UNITS": "the byte units of a size limit (kb, mib, ...)",
    "_redact._ASSIGNED_RE": "the names of credential parameters (api_key, token, ...)",
    "_redact._SENSITIVE_PARAM": "the names of credential parameters",
    "cli._check._run": _RECORD,
    "cli._check.add_input_arguments": "the input formats (jsonl, csv, parquet, ...)",
    "cli._common.EXAMPLES": "the commands and an example of each",
    "cli._exit.COMMAND_EXIT_CODES": "the commands and their exit codes",
    "cli._hybrid.run_hybrid": _RECORD,
    "cli._judge._print_json": _RECORD,
    "cli._judge._print_table": "the column headers of a table printed",
    "corpus.__init__.__all__": _PUBLIC,
    "corpus._formats.InputFormat": "the input formats",
    "corpus._models.DefectClass": "the defect classes' names",
    "corpus._models.__all__": _PUBLIC,
    "dist._check.CHECK_COLUMNS": "the column names of a checked dataset",
    "dist._check.__call__": _RECORD,
    "dist._judge.__call__": _RECORD,
    "dist._judge.judge_dataset": _RECORD,
    "judges.__init__.__all__": _PUBLIC,
    "judges._cascade.__all__": _PUBLIC,
    "judges._cascade.aevaluate": _RECORD,
    "judges._cascade.cascade": _RECORD,
    "judges._cascade.to_records": _RECORD,
    "judges._judge.__all__": _PUBLIC,
    "judges._prompts.PROMPT_NAMES": "the names of the prompts",
    "judges._results._JUDGE_COLUMNS": "the column headers of a judged batch",
    "judges._results.__all__": _PUBLIC,
    "judges._results.to_records": _RECORD,
    "judges._schemas.__all__": _PUBLIC,
    "metrics.ordinal.__init__.__all__": _PUBLIC,
    "metrics.ordinal._report.KNOWN_SCALES": "the triage scales' acronyms and names",
    "metrics.ordinal._report.__all__": _PUBLIC,
    "metrics.ordinal._report.triage_report": _RECORD,
    "metrics.retrieval.__init__.__all__": _PUBLIC,
    "metrics.retrieval._measures.Family": "the retrieval metrics' names",
    "metrics.retrieval._measures._ALIASES": "the retrieval metrics' names in other tools",
    "model.__init__._LAZY": "public names and the modules defining them",
    "model.__init__.__all__": _PUBLIC,
    "model._cache._DAMAGE_SIGNS": "fragments of SQLite's error messages",
    "model._cache.__all__": _PUBLIC,
    "model._client._UNSUPPORTED_WORDS": "fragments of model servers' error messages",
    "model._client._key": _RECORD,
    "model._client._log_call": _RECORD,
    "model._config.CONFIG_ENV_VARS": "the settings and their environment variables",
    "model._config.describe": _RECORD,
    "mutations.__init__.__all__": _PUBLIC,
    "mutations._context.__all__": _PUBLIC,
    "mutations._mutators.__all__": _PUBLIC,
    "peers.__init__.__all__": _PUBLIC,
    "peers._proxy._completion": _RECORD,
    "reports._export.OBSERVATION_COLUMNS": "the column headers of observations.csv",
    "reports._table.__all__": _PUBLIC,
    "reports._tables.CLASS_LABELS": "the defect classes' names and their labels in reports",
    "reports._tables._COST_LABELS": "the row labels of a report's table",
    "reports._tables.reference_differences_table": "the column headers of a report's table",
    "reports._triage._COLUMNS": "the column headers of a report's table",
    "study.__init__.__all__": _PUBLIC,
    "study._judges.JUDGE_SPEC_KEYS": "the keys of a judge's spec",
    "study._models.__all__": _PUBLIC,
    "study._thresholds.choose_threshold": _RECORD,
    "study._view.__all__": _PUBLIC,
}
"""Tables of names that are no words of a language."""

NOT_YET_MOVED: dict[str, str] = {}
"""Word tables still in code: this list may only shrink."""


def _found() -> set[str]:
    out: set[str] = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts[0] == "grounding":  # tests/grounding/test_structure.py
            continue
        out |= word_tables(path.read_text(encoding="utf-8"), ".".join(parts))
    return out


def test_no_word_table_of_a_language_in_code_outside_grounding() -> None:
    found = _found()
    allowed = set(NOT_LEXICAL) | set(NOT_YET_MOVED)
    assert sorted(found - allowed) == [], "word tables in code: move them to data/words.json"
    assert sorted(set(NOT_YET_MOVED) - found) == [], "moved: remove them from NOT_YET_MOVED"
    assert sorted(set(NOT_LEXICAL) - found) == [], "gone: remove them from NOT_LEXICAL"


def test_the_lists_do_not_overlap() -> None:
    assert set(NOT_LEXICAL).isdisjoint(NOT_YET_MOVED)


@pytest.mark.parametrize(
    ("table", "pattern"),
    [
        (
            "judges._evidence._CLAUSE",
            r"[,;:()]|\b(?:and|but|however|although|though|while|whereas)\b",
        ),
        (
            "corpus._import._ENTITY",
            r"\b[A-Z][\w'’&.-]*(?:\s+(?:of|the|de|van|von|and|for)?\s*[A-Z][\w'’&.-]*)*",
        ),
    ],
)
def test_the_expressions_built_from_data_are_the_ones_written_in_code(
    table: str, pattern: str
) -> None:
    # golden: the pattern as it stood in code before its words moved to data/words.json (the
    # words' order kept: the first alternative that matches wins)
    module, _, name = table.rpartition(".")
    compiled = getattr(importlib.import_module(f"hybridjudge.{module}"), name)
    assert compiled.pattern == pattern


@pytest.mark.parametrize(
    ("table", "sha256"),
    [
        ("mutations._mutators._CLAUSE_BREAK", "08b806c5ae7e32f7"),
        ("mutations._mutators._LEADING_PREPOSITION", "cb30e0835a6c7357"),
        ("mutations._mutators._UNIT_AFTER", "14f1748a954b1d7b"),
        ("mutations._text._ANTONYM_RE", "7bfe4879f2da9959"),
        ("mutations._text._FIXED_BEFORE", "ff5206009595c2b6"),
        ("mutations._text._FIXED_AFTER", "83e276a7a55bb7ff"),
        ("mutations._text._NEGATE_RE", "0f128429f7896a95"),
        ("mutations._text._UNNEGATE_RE", "9bd4e3602761c027"),
        ("mutations._text._CONTRACTED_RE", "09bc2de8b7df5f86"),
        ("mutations._text._IMPERATIVE_RE", "6d51ff44df447791"),
        ("mutations._text._VERB_RE", "fbf567eb41ead058"),
    ],
)
def test_the_long_expressions_built_from_data_are_the_ones_written_in_code(
    table: str, sha256: str
) -> None:
    # golden: the first 16 hex digits of the sha256 of the pattern as it stood in code (main,
    # 1d3e731) before its words moved to data/words.json; the mutants in mutations/*.jsonl are
    # made with these expressions
    module, _, name = table.rpartition(".")
    compiled = getattr(importlib.import_module(f"hybridjudge.{module}"), name)
    assert hashlib.sha256(compiled.pattern.encode()).hexdigest()[:16] == sha256
