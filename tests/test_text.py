"""The shared text helpers (``hybridjudge._text``): golden values written by hand, the one place
rule (no second sentence splitter or NFKC fold elsewhere in the package) and the words-are-data
rule of tests/grounding/test_structure.py applied to the module."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from hybridjudge._text import (
    QUOTES,
    TYPOGRAPHY,
    fold,
    rounding_tolerance,
    sentence_spans,
    split_sentences,
    word_list,
    word_pairs,
    word_sequence,
)
from tests.support.word_tables import word_tables

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "hybridjudge"


# --- sentences -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "spans"),
    [
        ("Pay 3.5 EUR. Done!", [(0, 12), (13, 18)]),
        # a lone capital's period and a period before a lower-case letter end no sentence
        ("The U.S. team won. Next", [(0, 18), (19, 23)]),
        ("see p.m. hours?! Yes", [(0, 8), (9, 16), (17, 20)]),  # "." then a blank ends one
        ("  - one\n\n- two.  ", [(2, 7), (9, 15)]),
        ("", []),
        ("...", []),  # stops alone are no sentence
    ],
)
def test_whole_sentences_keep_their_stops_and_numbers(
    text: str, spans: list[tuple[int, int]]
) -> None:
    assert sentence_spans(text, "whole") == spans


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        ('"Yes!" - No.', ["Yes", "No"]),
        ("It costs 3.5 kg. Then more", ["It costs 3.5 kg", "Then more"]),
        # every stop followed by a blank breaks, initials too (the judges' rule)
        ("The U.S. team won", ["The U.S", "team won"]),
        ("- Item one\n* Item two", ["Item one", "Item two"]),
        ("今天下雨。明天晴！好", ["今天下雨", "明天晴", "好"]),
        ("สวัสดี ครับ", ["สวัสดี", "ครับ"]),
        ("Wait?!Now", ["Wait", "Now"]),
        ("« (Done) »", ["Done"]),
        (" - . ! ", []),
    ],
)
def test_trimmed_sentences(text: str, sentences: list[str]) -> None:
    assert split_sentences(text, "trimmed") == sentences


def test_stops_sentences_are_not_trimmed() -> None:
    assert split_sentences("One. Two\n\n  Three?  Four", "stops") == [
        "One.",
        "Two",
        "  Three?",
        "Four",
    ]
    assert split_sentences("a!b", "stops") == ["a!b"]  # no blank after the stop
    assert split_sentences(" \n ", "stops") == []


@pytest.mark.parametrize("rule", ["whole", "trimmed", "stops"])
def test_a_split_is_the_texts_of_the_spans(rule: str) -> None:
    text = '  "Refunds take 30 days."\n- Fees: 2.5%! See U.S. rules?  Done.'
    spans = sentence_spans(text, rule)  # type: ignore[arg-type]
    assert [text[a:b] for a, b in spans] == split_sentences(text, rule)  # type: ignore[arg-type]
    assert all(a < b for a, b in spans)
    assert spans == sorted(spans)


# --- folding ---------------------------------------------------------------------------------


def test_fold_variants() -> None:
    assert fold("Straße – “ﬁne”", QUOTES) == 'strasse - "fine"'
    assert fold("Straße – “ﬁne”", None) == "strasse – “fine”"
    # grounding's table: minus sign, micro sign, zero-width space, private use, fraction slash
    assert fold("−5 µm\u200b1\u20442\ue000", TYPOGRAPHY) == "-5 μm 1/2 "
    assert fold("−5", QUOTES) == "−5"  # the judges' table leaves the minus sign
    assert fold("Ⅻ", None) == "xii"


def test_typography_keeps_offsets() -> None:
    assert all(len(v) == 1 for v in TYPOGRAPHY.values())


def test_quotes_after_case_folding_is_the_same_as_before_it() -> None:
    # The judges translated before case folding, grounding after; fold() does it after. The two
    # orders agree on every text iff case folding changes no key or value of QUOTES and yields
    # no key from any other code point (both maps work one code point at a time).
    keys = {chr(k) for k in QUOTES}
    assert all(k.casefold() == k for k in keys)
    assert all(v.casefold() == v for v in QUOTES.values())
    yields_key = [
        hex(c)
        for c in range(0x110000)
        if not 0xD800 <= c <= 0xDFFF and chr(c) not in keys and keys & set(chr(c).casefold())
    ]
    assert yields_key == []


# --- word lists ------------------------------------------------------------------------------


def test_word_lists() -> None:
    assert len(word_list("evidence_stop_words")) == 107
    assert word_list("evidence_negations") == {
        "not",
        "no",
        "never",
        "none",
        "nor",
        "without",
        "cannot",
        "t",
    }
    function_words = word_list("entity_function_words")
    assert len(function_words) == 41
    assert {"The", "Yes", "Which"} <= function_words
    assert all(w[0].isupper() for w in function_words)
    assert len(word_list("entity_noun_stop_words")) == 12
    with pytest.raises(KeyError):
        word_list("stop_words")


def test_word_sequences_keep_their_order() -> None:
    # a regular expression's alternation: the first word that matches wins
    joiners = ("and", "but", "however", "although", "though", "while", "whereas")
    assert word_sequence("clause_joiners") == joiners
    assert word_list("clause_joiners") == set(joiners)


def test_every_entry_of_words_json_says_what_it_is_for() -> None:
    entries = json.loads((PACKAGE / "data" / "words.json").read_text(encoding="utf-8"))
    for name, entry in entries.items():
        assert set(entry) in ({"about", "words"}, {"about", "pairs"}), name
        assert entry["about"].strip(), name
        if "words" in entry:
            assert len(word_sequence(name)) == len(word_list(name)), f"{name}: a word twice"
        else:
            pairs = word_pairs(name)
            assert pairs, name
            assert len({a for a, _ in pairs}) == len(pairs), f"{name}: a word twice"
            with pytest.raises(KeyError):
                word_sequence(name)


# --- tolerance -------------------------------------------------------------------------------


def test_rounding_tolerance_absorbs_float_error() -> None:
    # 2.68 is 2.675 rounded to two decimals, but their float difference exceeds half a cent
    assert abs(2.68 - 2.675) > 0.005
    assert abs(2.68 - 2.675) <= rounding_tolerance(0.005)
    assert abs(2.68 - 2.674) > rounding_tolerance(0.005)
    assert rounding_tolerance(0.5) == 0.5 * (1 + 1e-9) + 1e-12
    assert rounding_tolerance(0.0) == 1e-12
    assert rounding_tolerance(0.0, floor=0.0) == 0.0


# --- one place -------------------------------------------------------------------------------

_SENTENCE_STOPS = re.compile(r"\[[^\]]*\.[^\]]*!\?|\[[^\]]*!\?[^\]]*\.")
"""A character class holding ``.``, ``!`` and ``?``: a sentence end."""

OTHER_SENTENCE_SPLITS: dict[str, str] = {
    "corpus._import._SENTENCE_END": "cuts a run of capitalised words at a sentence end "
    '("France. It"), not a text into sentences',
    "grounding._abstention._SENTENCE_END": "the sentence around one abstention marker, searched "
    "from the marker (on grounding's normalised text): no text is split",
    "mutations._mutators._ENTITY": "capitalised names not at a sentence start (a look-behind)",
    "study._blame._ENTITY": "capitalised names not at a sentence start (a look-behind)",
}
"""Splits at sentence ends outside ``_text`` that are no sentence splitter."""


def _sources() -> dict[str, str]:
    return {
        ".".join(p.relative_to(PACKAGE).with_suffix("").parts): p.read_text(encoding="utf-8")
        for p in sorted(PACKAGE.rglob("*.py"))
    }


def _pattern(node: ast.expr | None, compiled: dict[str, str]) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name):
        return compiled.get(node.id)
    return None


_SPLITS = frozenset({"split", "finditer", "findall"})


def sentence_splits(source: str, module: str) -> set[str]:
    """``module.name`` of every split of a text at sentence stops: ``re.split(pattern, ...)``
    (or ``finditer``, ``findall``) or ``NAME.split(...)`` on a compiled pattern, whose pattern
    holds a character class with ``.!?`` (``[^.!?]`` too)."""
    tree = ast.parse(source)
    compiled: dict[str, str] = {}
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Attribute)
            and node.value.func.attr == "compile"
            and node.value.args
        ):
            pattern = _pattern(node.value.args[0], {})
            if pattern is not None:
                compiled[node.targets[0].id] = pattern
    found = set()
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr not in _SPLITS or not isinstance(node.func.value, ast.Name):
            continue
        owner = node.func.value.id
        pattern = _pattern(node.args[0] if node.args else None, compiled)
        name = owner
        if owner != "re":
            pattern = compiled.get(owner)
        elif isinstance(node.args[0], ast.Name):
            name = node.args[0].id
        if pattern is not None and _SENTENCE_STOPS.search(pattern):
            found.add(f"{module}.{name}")
    return found


def nfkc_calls(source: str, module: str) -> set[str]:
    """``module:line`` of every ``unicodedata.normalize("NFKC", ...)`` (or NFKD): a fold."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "normalize"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and node.args[0].value in {"NFKC", "NFKD"}
        ):
            found.add(f"{module}:{node.lineno}")
    return found


def test_the_scans_find_what_they_look_for() -> None:
    source = """
import re, unicodedata
_BREAK = re.compile(r"(?<=[.!?])\\s+")
def f(text):
    return _BREAK.split(text), re.split(r"[!?.]\\s", text), re.split(r",", text)
def g(text):
    return unicodedata.normalize("NFKC", text).casefold(), unicodedata.normalize("NFD", text)
"""
    assert sentence_splits(source, "m") == {"m._BREAK", "m.re"}
    assert nfkc_calls(source, "m") == {"m:7"}


def test_one_sentence_splitter_and_one_fold() -> None:
    sources = _sources()
    splits = set().union(*(sentence_splits(s, m) for m, s in sources.items() if m != "_text"))
    assert sorted(splits - set(OTHER_SENTENCE_SPLITS)) == [], (
        "split sentences with hybridjudge._text.sentence_spans (a rule of its own is a new "
        "SentenceRule there)"
    )
    assert sorted(set(OTHER_SENTENCE_SPLITS) - splits) == [], "gone: remove it from the list"
    folds = set().union(*(nfkc_calls(s, m) for m, s in sources.items() if m != "_text"))
    assert sorted(folds) == [], "fold with hybridjudge._text.fold (a new table is a variant)"


def test_the_module_holds_no_word_table() -> None:
    # the words are data (data/words.json), as in grounding (tests/grounding/test_structure.py)
    assert word_tables((PACKAGE / "_text.py").read_text(encoding="utf-8"), "_text") == set()


@pytest.mark.parametrize(
    "moved",
    [
        "judges._evidence._STOP",
        "judges._evidence._NEGATIONS",
        "corpus._import._STOP",
        "mutations._mutators._STOP",
        "study._blame._NOT_ENTITIES",
        "study._blame._POLARITY",
        "mutations._text._ANTONYMS",
        "mutations._text._CONTRACTED",
        "mutations._text._VERB_BASE",
    ],
)
def test_the_word_lists_read_from_data_stay_there(moved: str) -> None:
    module, _, name = moved.rpartition(".")
    path = PACKAGE.joinpath(*module.split(".")).with_suffix(".py")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    values = [
        node.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)
    ]
    assert len(values) == 1
    call = values[0]
    if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "dict":
        call = call.args[0]  # a mapping of word pairs
    assert isinstance(call, ast.Call)
    assert isinstance(call.func, ast.Name)
    assert call.func.id in {"word_list", "word_sequence", "word_pairs"}
