"""Every word an expression of the grounding package can capture is a key of the table the
captured word is then looked up in.

The package builds many expressions from the lexicons' word lists (``data/lexicon/*.json``) and
reads a match's word in a table built from another list (``table[m["unit"]]``, not
``table.get(...)``): a word the expression reads and the table lacks is a ``KeyError`` on any
text that writes it (``$'million`` was one: the statement read it, its scales lacked it). Each
test takes the words of one expression's group, with the normalisation applied between the
match and the lookup (whitespace runs to one space, a trailing full stop kept, ...), and asserts
they are keys of its table; a failure lists the missing words."""

from __future__ import annotations

import re
from collections.abc import Iterable


def _missing(words: Iterable[str], table: Iterable[str]) -> list[str]:
    """The words of ``words`` that ``table`` lacks, sorted."""
    return sorted(set(words) - set(table))


def _group_words(pattern: str, group: str) -> list[str]:
    """The literal words of the named ``group`` of ``pattern`` written as ``(?P<group>a|b|c)``."""
    m = re.search(rf"\(\?P<{group}>([\w|]+)\)", pattern)
    assert m is not None, f"no literal group {group!r} in the expression"
    return m[1].split("|")


def test_every_duration_with_an_article_is_a_unit() -> None:
    # _add_one_unit: "within a week" reads a word of article_durations, then _UNITS[word]
    from hybridjudge.grounding._check import _ONE_UNIT_WORDS, _UNITS

    missing = _missing(_ONE_UNIT_WORDS, {*_UNITS, "fortnight"})
    assert not missing, missing


def test_every_heading_word_has_its_scale() -> None:
    # _scopes: "(millions, except per share data)", then _DECL_SCALE[heading_word(m)]
    from hybridjudge.grounding._check import _DECL_SCALE
    from hybridjudge.grounding._layout import _PLURALS

    missing = _missing(_PLURALS.split("|"), _DECL_SCALE)
    assert not missing, missing


def test_every_glued_statement_word_has_its_scale() -> None:
    # _glued_statements: "(inmillions)", then _DECL_SCALE[m.group()[2:]]
    from hybridjudge.grounding._check import _DECL_SCALE, _GLUED_SCALES

    missing = _missing(_GLUED_SCALES, _DECL_SCALE)
    assert not missing, missing


def test_every_times_word_has_its_scale() -> None:
    # _foreign_scales: "(x € 1 miljoen)", then scales()[m["xw"]]
    from hybridjudge.grounding._check import _TIMES_WORDS
    from hybridjudge.grounding._lexicon import scales

    missing = _missing(_TIMES_WORDS, scales())
    assert not missing, missing


def test_every_foreign_statement_word_has_its_scale() -> None:
    # _foreign_scales: each group's word, whitespace runs made one space, then
    # _FOREIGN_SCALE_WORDS[word] ("in Mio. €", "TEUR", "en milliers d'euros", "(₹ in crore)")
    from hybridjudge.grounding._check import (
        _FOREIGN_SCALE,
        _FOREIGN_SCALE_WORDS,
        _FOREIGN_STATEMENT_WORDS,
        _GLUED_CURRENCY_WORDS,
        _INDIAN_SCALES,
    )
    from hybridjudge.grounding._lexicon import lexicon

    pattern = _FOREIGN_SCALE().pattern
    words = {
        *_group_words(pattern, "de"),
        *_group_words(pattern, "de2"),
        *_GLUED_CURRENCY_WORDS,
        *lexicon("fr").statement_scales,
        *lexicon("es").statement_scales,
        *_FOREIGN_STATEMENT_WORDS,
        *_INDIAN_SCALES,
    }
    missing = _missing((re.sub(r"\s+", " ", w) for w in words), _FOREIGN_SCALE_WORDS)
    assert not missing, missing


def test_every_quarter_share_numerator_has_its_value() -> None:
    # _quarter_shares: "three quarters of users", then _FRACTION_NUMERATORS[m[1]]
    from hybridjudge.grounding._check import (
        _FRACTION_DENOMINATORS,
        _FRACTION_NUMERATORS,
        _QUARTER_SHARE,
    )

    m = re.search(r"\(([a-z|]+)\)", _QUARTER_SHARE().pattern)
    assert m is not None
    missing = _missing(m[1].split("|"), _FRACTION_NUMERATORS)
    assert not missing, missing
    assert "quarter" in _FRACTION_DENOMINATORS


def test_every_frequency_word_has_its_period() -> None:
    # stated_interval, rate_period, uncounted_intervals: _PERIODS[m["unit"] or m["adverb"] ...]
    from hybridjudge.grounding._lexicon import grouped
    from hybridjudge.grounding._quantities import _PERIODS

    for role in ("counted", "rates", "uncounted", "alternate"):
        missing = _missing(grouped("frequencies", role), _PERIODS)
        assert not missing, (role, missing)


def test_every_glued_unit_is_a_unit() -> None:
    # _parse "glued": "12.5p" -> _GLUED_UNITS[gsuf], its canonical unit then UNITS[unit]
    from hybridjudge.grounding._quantities import _GLUED_UNITS, UNITS

    missing = _missing(_GLUED_UNITS.values(), UNITS)
    assert not missing, missing


def test_every_halved_unit_is_a_unit() -> None:
    # _parse "ahalf" and "half": "a year and a half", "half an hour", then UNITS[m["au"]]
    from hybridjudge.grounding._lexicon import grouped
    from hybridjudge.grounding._quantities import UNITS

    missing = _missing(grouped("figure_context", "halved_units"), UNITS)
    assert not missing, missing


def test_every_scale_after_a_figure_has_its_multiplier() -> None:
    # _number: the scale after a figure (m1/m2, stripped; a dotted one with its full stop,
    # "5 Mio.") -> _SCALES[mult_text]; "5m" and "5mm" read as units -> UNITS
    from hybridjudge.grounding._lexicon import figure_forms
    from hybridjudge.grounding._quantities import _CASE_SENSITIVE_SCALES, _SCALES, UNITS

    for form, words in figure_forms().items():
        written = {w.strip() for w in words}
        if form == "dotted":
            written |= {w.strip() + "." for w in words}
        missing = _missing(written, _SCALES)
        assert not missing, (form, missing)
    missing = _missing(_CASE_SENSITIVE_SCALES, UNITS)
    assert not missing, missing


def test_every_ambiguous_unit_is_a_unit() -> None:
    # _unit_info: the unit after a figure, the lexicons' ambiguous_units among them -> UNITS
    from hybridjudge.grounding._quantities import _AMBIGUOUS_UNITS, _SPACES, UNITS

    missing = _missing((_SPACES.sub(" ", u) for u in _AMBIGUOUS_UNITS), UNITS)
    assert not missing, missing


def test_every_currency_before_a_figure_has_its_code() -> None:
    # _with_unit, _simple_number: the sign, country prefix with "$", code or written sign
    # before a figure -> _CURRENCY_SYMBOLS[cur]
    from hybridjudge.grounding._quantities import (
        _CURRENCY_CODES,
        _CURRENCY_SYMBOLS,
        _DOLLAR_PREFIXES,
        _SIMPLE,
        _WRITTEN_SIGNS,
    )

    m = re.search(r"\(\?P<c>\[([^\]]+)\]", _SIMPLE().pattern)
    assert m is not None
    signs = set(m[1])
    prefixes = _DOLLAR_PREFIXES.removeprefix("(?:").removesuffix(")").split("|")
    words = {*signs, *(p + "$" for p in prefixes), *_CURRENCY_CODES, *_WRITTEN_SIGNS}
    missing = _missing(words, _CURRENCY_SYMBOLS)
    assert not missing, missing


def test_every_unit_after_a_cjk_numeral_is_read() -> None:
    # _other_scripts: "三十天", then _UNIT_AFTER_CJK.get(u) or UNITS[u] (counters aside)
    from hybridjudge.grounding._languages import _CJK_UNITS, CJK_COUNTERS
    from hybridjudge.grounding._quantities import _UNIT_AFTER_CJK, UNITS

    missing = _missing(set(_CJK_UNITS) - CJK_COUNTERS, {*_UNIT_AFTER_CJK, *UNITS})
    assert not missing, missing


def test_every_word_after_a_korean_numeral_is_read() -> None:
    # _korean: "오억 원", then _UNIT_AFTER_CJK.get(after) or UNITS[after] (counters aside)
    from hybridjudge.grounding._languages import _KO_AFTER, KOREAN_COUNTERS
    from hybridjudge.grounding._quantities import _UNIT_AFTER_CJK, UNITS

    missing = _missing(set(_KO_AFTER) - KOREAN_COUNTERS, {*_UNIT_AFTER_CJK, *UNITS})
    assert not missing, missing


def test_every_scale_of_a_share_has_its_multiplier() -> None:
    # _shares_of_a_scale: "half a million", then _SCALES[m["s"]]
    from hybridjudge.grounding._quantities import _SCALE_WORDS, _SCALES

    missing = _missing(_SCALE_WORDS, _SCALES)
    assert not missing, missing


def test_every_unit_of_time_is_a_unit() -> None:
    # _merge_compound_durations: UNITS[lo.unit] of a figure's canonical unit of time
    from hybridjudge.grounding._quantities import UNITS

    canon = {c for c, dim, _f in UNITS.values() if c and dim in ("time", "calendar")}
    missing = _missing(canon, UNITS)
    assert not missing, missing
