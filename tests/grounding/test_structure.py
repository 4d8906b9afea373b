"""The structure of grounding/ (issue 33, points 2 and 5): no word table of a language in code,
no module reading another module's private names.

A *word table* is what ``tests/support/word_tables.py`` scans for: a collection literal of at
least five words, or a string with an alternation of at least five, outside docstrings (the same
scan holds the rest of the package, ``tests/test_word_tables.py``). Words belong in the lexicons
(``data/lexicon/<language>.json``, docs/lexicons.md). What the scan still finds is listed below
with a reason: :data:`NOT_LEXICAL` (names, tags, column headers: no words of a language) and
:data:`NOT_YET_MOVED` (word tables still to be moved to the lexicons). The second list may only
shrink: a table it names that the scan no longer finds fails the test until its entry is removed.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.support.word_tables import word_tables

GROUNDING = Path(__file__).resolve().parents[2] / "src" / "hybridjudge" / "grounding"

NOT_LEXICAL: dict[str, str] = {
    "__init__.__all__": "the public names of the package",
    "_anchors.__all__": "public names",
    "_batch.to_records": "the column headers of a batch's CSV",
    "_batch._CHECK_COLUMNS": "the column headers of a batch's CSV",
    "_check._LOOKUP_ORDER": "the trace rules of the report format, in the lookup's order",
    "_derive.__all__": "public names",
    "_derive._ALL_OPS": "the names of a derivation's operations (sum, diff, mean, ratio, pch)",
    "_lexicon.LANGUAGES": "the BCP 47 tags of the lexicons",
    "_lexicon.ScaleForm": "the schema's names of the ways a scale stands after a figure",
    "_lexicon.__all__": "public names",
    "_languages._FOREIGN_LANGUAGES": "BCP 47 tags",
    "_models.TRACE_RULES": "the trace rules of the report format and what each means",
    "_models.TraceRule": "the trace rules of the report format (docs/formats.md)",
    "_models.TraceSource": "the trace sources of the report format (docs/formats.md)",
    "_models.__all__": "public names",
    "_quantities.__all__": "public names",
    "_quantities._ALTERNATIVES": "the names of the master expression's groups",
    "_quantities._DIGIT_ALTERNATIVES": "the names of the master expression's groups",
    "_quantities._MASTER_ALTERNATIVES": "the names of the master expression's groups",
    "_quantities._NUMBER_GROUPS": "the names of the master expression's groups",
    "_stored._record": "the fields of a stored expression's header (flags, groups, length)",
}
"""Tables of names that are no words of a language."""

NOT_YET_MOVED: dict[str, str] = {}
"""Word tables still in code: this list may only shrink."""

PRIVATE_IMPORTS: dict[str, str] = {}
"""Imports of another grounding module's private names (``from ._x import _name``) still in
place: this list may only shrink."""


def private_imports(source: str, module: str) -> set[str]:
    """``module <- other._name`` for every private name ``module`` imports from another
    grounding module."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ImportFrom) or node.module is None:
            continue
        other = node.module.rpartition(".")[2]
        inside = node.module.startswith("hybridjudge.grounding.") or node.level > 0
        if inside and other.startswith("_"):
            found |= {f"{module} <- {other}.{a.name}" for a in node.names if a.name[0] == "_"}
    return found


def _modules() -> dict[str, str]:
    return {p.stem: p.read_text(encoding="utf-8") for p in sorted(GROUNDING.glob("*.py"))}


def test_no_word_table_of_a_language_in_code() -> None:
    found = set().union(*(word_tables(src, name) for name, src in _modules().items()))
    allowed = set(NOT_LEXICAL) | set(NOT_YET_MOVED)
    assert sorted(found - allowed) == [], "word tables in code: move them to data/lexicon/"
    assert sorted(set(NOT_YET_MOVED) - found) == [], "moved: remove them from NOT_YET_MOVED"
    assert sorted(set(NOT_LEXICAL) - found) == []


def test_no_module_imports_another_grounding_modules_private_names() -> None:
    found = set().union(*(private_imports(src, name) for name, src in _modules().items()))
    assert sorted(found - set(PRIVATE_IMPORTS)) == []
    assert sorted(set(PRIVATE_IMPORTS) - found) == [], "fixed: remove them from PRIVATE_IMPORTS"


def test_the_scan_finds_the_word_tables_that_were_in_code() -> None:
    # the shapes the lexicons replaced (_languages._MONTH_NAMES, _abstention._CONTRAST_WORDS,
    # _quantities._SCALES, _anchors._NEG_WORDS), and what it leaves alone
    source = '''
_MONTH_NAMES = {1: ("januar", "jänner", "jan", "janvier", "janv", "enero")}
_CONTRAST = lazy(r"(?<!\\w)(?:but|however|although|though|nevertheless)(?!\\w)")
_SCALES = {"thousand": 10**3, "million": 10**6, "billion": 10**9, "lakh": 10**5, "crore": 10**7}
def negated(w):
    return w in ("no", "not", "never", "without", "none")
_FOUR = ("no", "not", "never", "without")
_GRAMMAR = re.compile(r"\\d+(?:\\.\\d+)?\\s*(?:[a-z]{1,3})")
"""A docstring: but|however|although|though|nevertheless."""
'''
    assert word_tables(source, "m") == {"m._MONTH_NAMES", "m._CONTRAST", "m._SCALES", "m.negated"}


def test_the_scan_finds_a_private_import() -> None:
    source = (
        "from hybridjudge.grounding._quantities import _UNITS, scan\n"
        "from ._normalize import _fold\nfrom hybridjudge._errors import _x\n"
    )
    assert private_imports(source, "m") == {"m <- _quantities._UNITS", "m <- _normalize._fold"}


def test_the_counts_left_in_code() -> None:
    # the figures docs/lexicons.md and the closing note cite
    assert len(NOT_YET_MOVED) == 0
    assert len(PRIVATE_IMPORTS) == 0


MAX_FUNCTION_LINES = 80
"""Issue 33, point 5: no function of grounding/ over this many lines (decorators excluded)."""
TOO_LONG: dict[str, int] = {}
"""Functions still over :data:`MAX_FUNCTION_LINES` (4 December 2026), each with its length as a
ceiling: it may shrink, not grow, and an entry whose function is short enough must go."""


def _function_lengths() -> dict[str, int]:
    out: dict[str, int] = {}
    for path in sorted(GROUNDING.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                assert node.end_lineno is not None
                name = f"{path.stem}.{node.name}"
                out[name] = max(out.get(name, 0), node.end_lineno - node.lineno + 1)
    return out


def test_no_function_of_grounding_is_longer_than_80_lines_but_the_listed_ones() -> None:
    lengths = _function_lengths()
    over = {name: n for name, n in lengths.items() if n > MAX_FUNCTION_LINES}
    new = sorted(set(over) - set(TOO_LONG))
    assert not new, f"functions over {MAX_FUNCTION_LINES} lines: {[(n, over[n]) for n in new]}"
    grown = sorted(n for n in over if n in TOO_LONG and over[n] > TOO_LONG[n])
    assert not grown, f"listed functions that grew: {[(n, TOO_LONG[n], over[n]) for n in grown]}"
    stale = sorted(set(TOO_LONG) - set(over))
    assert not stale, f"short enough now, remove from TOO_LONG: {stale}"
