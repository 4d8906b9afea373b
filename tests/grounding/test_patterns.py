"""Expressions compiled on first use (``hybridjudge.grounding._patterns``).

A one-case ``hybridjudge check`` pays for every expression compiled in its process; the
expressions that only some texts need (a refusal's, a table's scale heading, a figure
after a currency sign or a bullet) are compiled when a text needs them. Checked in a fresh
interpreter, which records every expression ``re`` compiles.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hybridjudge.grounding import _abstention, _check, _normalize, _quantities
from hybridjudge.grounding._languages import NO_SPACE_CHARS, no_space
from hybridjudge.grounding._lexicon import merged, trie_alternation
from hybridjudge.grounding._patterns import compiled, lazy
from tests.support.fresh import fresh_json

_LAZY = {
    "refusals": (_abstention._CONTRAST_IN, _abstention._HEAD_BREAK, _abstention._FILLER),
    "scale headings": (_check._SCALE_DECL, _check._FOREIGN_SCALE),
    "table cells": (_normalize._FIGURE_CELL,),
}
"""Expressions a plain English answer and context never need, by what needs them."""


def _compiled_after(code: str) -> list[str]:
    """The sources of every expression ``re`` compiled while a fresh interpreter ran ``code``
    (after importing ``hybridjudge.grounding``: its imports compile what every check needs)."""
    probe = (
        "import json, re, re._compiler as rc\n"
        "import hybridjudge.grounding\n"
        "seen = []\n"
        "_compile = rc.compile\n"
        "def record(p, flags=0):\n"
        "    seen.append(p if isinstance(p, str) else '')\n"
        "    return _compile(p, flags)\n"
        "rc.compile = record\n"
        f"{code}\n"
        "print(json.dumps(seen))\n"
    )
    seen: list[str] = fresh_json(probe)
    return seen


def _source(pattern: object) -> str:
    """The source of a :func:`lazy` expression (the argument its partial holds)."""
    args = getattr(pattern, "args", None)
    assert isinstance(args, tuple), pattern
    source = args[0]
    assert isinstance(source, str), pattern
    return source


def test_a_plain_answer_compiles_none_of_the_expressions_it_does_not_need() -> None:
    seen = set(
        _compiled_after(
            "from hybridjudge.grounding import check_grounding\n"
            "r = check_grounding('Take 500 mg three times a day for 5 days.',\n"
            "    ['You take 500 mg three times daily for 5 days.'])\n"
            "assert r.grounded, r\n"
        )
    )
    for need, patterns in _LAZY.items():
        assert not seen & {_source(p) for p in patterns}, need
    # no currency sign, parenthesis or bullet: the master expression for those is not compiled
    assert _quantities._master_for("other").pattern not in seen
    # but the digit and letter masters were: the probe sees what the check compiles
    assert _quantities._master_for("digit").pattern in seen
    assert _quantities._master_for("alpha").pattern in seen


def test_a_text_that_needs_them_compiles_them_and_is_read_as_before() -> None:
    seen = set(
        _compiled_after(
            "from hybridjudge.grounding import check_grounding\n"
            "r = check_grounding('Revenue was $16.5 billion.',\n"
            "    ['(Dollars in millions)\\nRevenue | 16,525 | 15,010'])\n"
            "assert r.grounded, r\n"
            "r = check_grounding('Sorry, the documents do not say.', ['Revenue was 5.'],\n"
            "    answerable=False)\n"
            "assert r.abstained, r\n"
        )
    )
    assert _source(_check._SCALE_DECL) in seen
    assert _source(_abstention._CONTRAST_IN) in seen
    assert _quantities._master_for("other").pattern in seen


def test_the_word_character_before_a_candidate_is_read_as_the_expression_would() -> None:
    # _word_char_before stands for the (?<!_W) the master expressions no longer hold, and
    # no_space for the class [NO_SPACE_CHARS]: the same answer for every character of the BMP
    # and some beyond
    word = re.compile(_quantities._W)
    no_space_class = re.compile(f"[{NO_SPACE_CHARS}]")
    for code in (*range(0x10000), 0x10000, 0x1D7CE, 0x20000, 0x2A6DF, 0xE0100, 0x10FFFF):
        ch = chr(code)
        assert _quantities._word_char_before(f"x{ch}", 2) == (word.match(ch) is not None), code
        assert no_space(ch) == (no_space_class.match(ch) is not None), code
    assert not _quantities._word_char_before("5", 0)


def test_one_answer_for_scripts_without_spaces_serves_figures_and_facts_alike() -> None:
    # a supplementary ideograph (U+20BB7, as in the name 𠮷野家) is written without spaces for
    # the figures as for the required facts: a figure glued after it is read (it was not: the
    # figures asked a table without the supplementary planes, the facts one of their own)
    assert no_space("\U00020bb7")
    assert no_space("\u1100")  # and Hangul jamo, for the facts too
    assert [q.value for q in _quantities.scan("店舗数は\U00020bb730").quantities] == [30]


def test_a_lazy_expression_is_compiled_once_with_its_inline_flags() -> None:
    words = lazy(r"(?ix) still \s+ yet")
    assert words() is words() is compiled(r"(?ix) still \s+ yet")
    assert words().fullmatch("STILL yet") is not None


def test_a_lazy_source_written_by_a_function_is_written_on_the_first_call_only() -> None:
    calls: list[int] = []

    def write() -> str:
        calls.append(1)
        return trie_alternation(["rose", "rises", "risen"])

    words = lazy(write)
    assert calls == []  # nothing written when the expression is declared
    assert words().fullmatch("rises") is not None
    assert words() is words()
    assert calls == [1]


def test_a_plain_answer_writes_none_of_the_trend_sources_nor_normalises_the_markers() -> None:
    # the trend words' tries (about 1 ms each) are written by the first text that needs them,
    # and the built-in markers' triggers are read from data/marker_triggers.json, not computed
    probe = (
        "import json\n"
        "import hybridjudge.grounding as g\n"
        "from hybridjudge.grounding import _abstention as a, _derive as d\n"
        "calls = []\n"
        "_computed = a.marker_triggers\n"
        "a.marker_triggers = lambda phrases: calls.append(len(phrases)) or _computed(phrases)\n"
        "r = g.check_grounding('Take 500 mg three times a day. I do not know the dose.',\n"
        "    ['You take 500 mg three times daily for 5 days.'])\n"
        "built = [d._TREND_BEFORE.cache_info().currsize, d._TREND_WORD.cache_info().currsize]\n"
        "print(json.dumps([calls, built, r.grounded]))\n"
    )
    calls, built, grounded = fresh_json(probe)
    assert calls == []
    assert built == [0, 0]
    assert grounded


def test_an_english_word_that_is_a_number_elsewhere_compiles_no_foreign_expression() -> None:
    # "due" is Italian for two, a number only before a unit ("due giorni"): "due to" is not
    # tried against the ~800 phrases of the foreign number words (20 ms to compile)
    english = _compiled_after(
        "from hybridjudge.grounding import check_grounding\n"
        "r = check_grounding('The delay was due to 3 storms.', ['Due to 3 storms, it was late.'])\n"
        "assert r.grounded, r\n"
    )
    assert _quantities._foreign_full().pattern not in english
    italian = _compiled_after(
        "from hybridjudge.grounding import check_grounding\n"
        "r = check_grounding('The warranty lasts two years.', ['La garanzia dura due anni.'])\n"
        "assert r.grounded, r\n"
    )
    assert _quantities._foreign_full().pattern in italian


# --- alternations of literal words written as a trie (_lexicon.trie_alternation) -------------

_WORD_LISTS = {
    "units": list(_quantities.UNITS),
    "months": list(_quantities._MONTHS),
    "number words": [*_quantities._SMALL, *_quantities._TENS, "hundred", "thousand", "million"],
    "change words": [*merged("trend_up"), *merged("trend_down")],
}


def _flat(words: list[str]) -> str:
    """The alternation as it was written before the trie: every word, longest first."""
    items = sorted(set(words), key=lambda w: (-len(w), w))
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in items)


@pytest.mark.parametrize("name", sorted(_WORD_LISTS))
def test_a_trie_of_words_matches_what_the_list_longest_first_matches(name: str) -> None:
    # Inside an expression that backtracks into the alternation (the unit must end a word, or
    # be followed by "/h"), at the start of every word, every word with a letter more, a
    # hyphen, a slash or a space after, and every prefix of a word.
    words = _WORD_LISTS[name]
    tail = r"(?:/h|(?![a-z]))"
    trie = re.compile(rf"(?:{trie_alternation(words)}){tail}")
    flat = re.compile(rf"(?:{_flat(words)}){tail}")
    probes = {w[:k] for w in words for k in range(1, len(w) + 1)}
    probes |= {w + s for w in words for s in ("s", "x", "-", "/h", " per", "  ", ".")}
    assert len(probes) > 3 * len(words)
    for probe in sorted(probes):
        a, b = trie.match(probe), flat.match(probe)
        assert (a and a.group()) == (b and b.group()), probe


@given(
    st.lists(
        st.text(alphabet="abk m/", min_size=1, max_size=5).filter(lambda w: w.strip() == w),
        min_size=1,
        max_size=12,
    ),
    st.text(alphabet="abk m/-", max_size=8),
)
def test_a_trie_of_any_words_matches_the_list_longest_first(words: list[str], probe: str) -> None:
    tail = r"(?![a-z])"
    trie = re.compile(rf"(?:{trie_alternation(words)}){tail}")
    flat = re.compile(rf"(?:{_flat(words)}){tail}")
    a, b = trie.match(probe), flat.match(probe)
    assert (a and a.group()) == (b and b.group())
