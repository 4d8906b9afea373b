"""Finding quantities in normalised text: numbers with units, percentages, ranges, dates, times.

A cheap pre-filter finds the positions where a quantity can start (digit runs by one character
class pass, number words and month names through the text's set of letter runs); master
expressions (one for digits, one for letters, one for any other character; each compiled on
the first candidate that needs it) are then tried only there, left to right.
Each candidate's text is parsed once (memoised on its text) into exact values
(:class:`fractions.Fraction`). A last pass merges ``6-8``, ``6–8`` and ``6 to 8`` into ranges (two
quantities with ``range_role``) and lets the unit of the high end apply to a bare low end.

Not quantities: list enumerators at the start of a line or after ``:``/``;``/``,`` (``1.``,
``2)``, ``(3)``), ordinals (``3rd``), numbers glued into names (``H2O``, ``B12``, ``HbA1c``), and
identifiers such as ``COVID-19`` or ``ISO 9001`` -- the latter are reported as :class:`Ident` so
the grounding check can decide with the context whether the digits are a claim.
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_right
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Literal

from hybridjudge.grounding._derive import (
    BETWEEN_CHANGE_AND_FIGURE,
    change_word_before,
    is_year,
    trend_before,
)
from hybridjudge.grounding._errors import GroundingTypeError
from hybridjudge.grounding._languages import (
    CJK_COUNTERS,
    CJK_NUMERAL,
    CJK_NUMERAL_HINT,
    CJK_PERCENT,
    CJK_SCALES,
    FOREIGN_AMBIGUOUS,
    FOREIGN_DATE_SOURCE,
    FOREIGN_FIRST_WORDS,
    FOREIGN_MONTHS,
    FOREIGN_UNIT_ALIASES,
    FOREIGN_WORDS,
    GLUED_MARKERS,
    HANGUL,
    KOREAN_COUNTERS,
    KOREAN_PERCENT,
    KOREAN_SCALES,
    MIXED_HINT,
    MIXED_NUMBER,
    NO_SPACE_CHARS,
    by_spacing,
    cjk_value,
    foreign_dates_possible,
    foreign_phrase_source,
    foreign_value,
    korean_numbers,
    mixed_precision,
    mixed_value,
    no_space,
)
from hybridjudge.grounding._lexicon import (
    LANGUAGES,
    NumberWords,
    Period,
    alternation,
    currency_of,
    figure_forms,
    grouped,
    grouped_table,
    lexicon,
    merged,
    months,
    periods,
    scales,
    trie_alternation,
)
from hybridjudge.grounding._models import Quantity, QuantityKind
from hybridjudge.grounding._normalize import (
    NormalizedText,
    continental_words,
    key_runs,
    letter_runs,
    normalize,
)
from hybridjudge.grounding._patterns import compiled, lazy

__all__ = [
    "CJK_CURRENCIES",
    "CONTINENTAL_SCALES",
    "CONTINENTAL_SCALE_RUNS",
    "FRACTION_DENOMINATORS",
    "FRACTION_NUMERATORS",
    "HALF",
    "Q_BASE",
    "Q_CLOSE",
    "Q_DIM",
    "Q_OPEN",
    "UNITS",
    "Ident",
    "Interval",
    "Scan",
    "binary_bytes",
    "closed_range",
    "is_upper_in_original",
    "parse_quantities",
    "period_names",
    "placeholder_of",
    "rate_period",
    "scan",
    "share_pairs",
    "stated_interval",
    "two_digit_year",
    "uncounted_intervals",
]

# ---------------------------------------------------------------------------------------------
# Units: alias -> (canonical unit, dimension, factor to the dimension's base unit). Conversions
# are exact and only inside a dimension; unknown words after a number are not units. The
# definitions and symbols are und.json's, the English names en.json's (data/lexicon/).


def _unit_table() -> dict[str, tuple[str | None, str | None, Fraction]]:
    out: dict[str, tuple[str | None, str | None, Fraction]] = {}
    for canon, definition in lexicon("und").unit_definitions.items():
        unit = (canon or None, definition.dimension or None, Fraction(definition.factor))
        for lang in ("und", "en"):
            for alias in lexicon(lang).units.get(canon, ()):
                out[alias] = unit
    return out


UNITS: dict[str, tuple[str | None, str | None, Fraction]] = _unit_table()
"""Every unit alias the scan reads (English, symbols and the foreign aliases added below) ->
(canonical unit, dimension, factor to the dimension's base unit): ``"km"`` -> ``("km",
"length", 1000)``. Public for the checks that convert units; read it, never write to it."""
_GLUED_UNITS = {
    alias: unit
    for lang in LANGUAGES
    for unit, aliases in lexicon(lang).glued_units.items()
    for alias in aliases
}
"""Unit symbols read only glued to their figure (the lexicons' ``glued_units``: ``p`` of
``12.5p``) -> their canonical unit, a key of :data:`UNITS`."""
_BY_CANON = {canon: (canon, dim, factor) for canon, dim, factor in UNITS.values() if canon}
_UPPER_UNITS = {"mw": _BY_CANON["MW"], "mwh": _BY_CANON["MWh"], "mj": _BY_CANON["MJ"]}
"""Units whose lower-case form is milli and upper-case ``M`` mega (``5 MW``, ``5 mW``)."""
for _canon, _aliases in FOREIGN_UNIT_ALIASES.items():
    for _alias in _aliases:
        UNITS.setdefault(_alias, _BY_CANON[_canon])
CJK_CURRENCIES: tuple[str, ...] = tuple(
    w
    for w, (_c, dim, _f) in UNITS.items()
    if dim is not None and dim.startswith("currency-") and no_space(w[0])
)
"""The currencies of the lexicons' ``units`` written in a script without spaces (``円``,
``元``, ``人民币``, ``원``, ``美元``, ``米ドル``; :func:`alternation` orders them)."""

_DECIMAL_BYTES = {
    canon: power
    for canon, dim, factor in _BY_CANON.values()
    if dim == "data"
    for power in range(1, 7)
    if factor == 1000**power
}
"""The decimal data units with their power of 1000 (``kb``: 1, ``gb``: 3), from :data:`UNITS`."""


def binary_bytes(q: Quantity) -> Fraction | None:
    """A data size with every prefix read as a power of 1024 (``10 GB`` is 10 GiB), as an
    operating system writes sizes; ``None`` for any other quantity."""
    if q.dimension != "data" or q.unit is None:
        return None
    power = _DECIMAL_BYTES.get(q.unit)
    return q.base_value if power is None else q.value * 1024**power


_CURRENCY_CODES: dict[str, str] = currency_of(("codes",))
"""Upper-case ISO codes written before a figure (``USD 9.9 billion``, ``EUR 3.2bn``): its
currency. After a figure only the codes in the unit table are read (``9.9 usd``), as other
three-letter words after a number are rarely currencies (``5 CAD drawings``)."""
_CURRENCY_SYMBOLS: dict[str, str] = currency_of(("signs", "codes"))
"""Every sign written before a figure (``$``, ``US$``, ``Rs.``, ``RM``) with its currency; and
the codes of :data:`_CURRENCY_CODES`, as a code glued to its figure is read as a sign."""
_GLUED_CODES = "(?:" + alternation(_CURRENCY_CODES) + ")"
"""The codes of :data:`_CURRENCY_CODES`, as glued to a figure (``USD500 million``, ``AED5
million``; codes that are English words, ``TRY``, ``PEN``, are in neither)."""
_DOLLAR_PREFIXES = (
    "(?:" + "|".join(k[:-1] for k in _CURRENCY_SYMBOLS if k.endswith("$") and k != "$") + ")"
)
"""The country prefixes of a dollar sign (``us``, ``hk``...), from :data:`_CURRENCY_SYMBOLS`."""
_WRITTEN_SIGNS = [k for k in currency_of(("signs",)) if k.isalpha() or k.endswith(".")]
"""The currency signs written in letters (``rs``, ``rs.``, ``rm``)."""
_WRITTEN_CURRENCIES = "(?:" + alternation(_WRITTEN_SIGNS) + r")(?=\s?\(?\d)"
_CUR_PREFIX_SOURCE = rf"{_DOLLAR_PREFIXES}\$|{_GLUED_CODES}(?=\(?\d)|{_WRITTEN_CURRENCIES}"
_CUR_PREFIX = lazy(_CUR_PREFIX_SOURCE)
"""A currency at a word start: a dollar sign's country prefix (``US$9.9``, ``HK$512``), an ISO
code glued to the figure (``USD500 million``, ``RMB3,550 million``), the rupee written out
(``Rs. 500``, ``Rs.600``) or the ringgit (``RM5.0 million``: read as an identifier ``rm5``, its
figure was lost); a code glued to an accounting negative's bracket (``RMB(62)``). Its source
is the master expression's currency before a figure and inside a bracket."""

_SCALES: dict[str, int] = scales("figure")
"""The one table of scale words and abbreviations after a number (``2.5 million``, ``$82.9M``,
``$12.4bn``, ``10k``, ``1.5万``) and in number words (``three million``)."""
_SCALE_WORDS = (lexicon("en").numbers or NumberWords()).scales
"""The scale words of English number words (``three million``)."""
CONTINENTAL_SCALES: dict[str, int] = {
    w: v
    for lang in LANGUAGES
    if (lex := lexicon(lang)).signal_words
    for w, v in {**(lex.numbers.words if lex.numbers else {}), **lex.scales}.items()
    if w in _SCALES and _SCALES[w] != v
}
"""Scale words a language that writes figures the continental way reads otherwise than the
scale table (``mil``: a thousand in Spanish and Portuguese, a million in English slang): a
figure's scale word in such a text (:attr:`NormalizedText.continental`, or its words:
:func:`continental_words`) takes this value (``612,4 mil euros``, ``R$ 612 mil``)."""
CONTINENTAL_SCALE_RUNS = frozenset(w.encode() for w in CONTINENTAL_SCALES if w.isalpha())
"""The words of :data:`CONTINENTAL_SCALES` as letter runs (a text without one holds none)."""
_DECIMAL_COMMA_END = re.compile(r",\d{1,2}$")
"""A figure written with a decimal comma (``612,4``): of a text written the continental way."""
_CASE_SENSITIVE_SCALES = frozenset({"m", "mm"})
"""``82.9M`` is millions, ``82.9m`` metres (``mm`` millimetres) unless a currency is written
(``$5m``, ``5m euros``) or what follows is counted, not measured (``1.2m active users``)."""
_COUNTED_AFTER = lazy(
    rf"\s?(?:(?:{alternation(grouped('figure_context', 'counted_adjectives'))})\s+){{0,2}}"
    rf"(?:{alternation(grouped('figure_context', 'counted_nouns'))})(?![a-z])"
)
"""Nouns after ``1.2m`` that make it millions of something, not metres."""
_NO_UNIT: tuple[str | None, str | None, Fraction] = (None, None, Fraction(1))

_EN = lexicon("en").numbers or NumberWords()
_SMALL = {w: i for i, w in enumerate(_EN.units)}
_TENS = {w: t for t, w in zip(range(_EN.tens_from, 100, 10), _EN.tens, strict=True)}
_MONTHS = months(("en",))
_BLANKS = r"\s+"
"""What a space inside a word of the lexicons matches in most expressions (:func:`alternation`)."""


_AMBIGUOUS_UNITS = merged("ambiguous_units")
_UNIT_ALT = (
    f"{trie_alternation(u for u in UNITS if u not in _AMBIGUOUS_UNITS)}"
    rf"|(?:{alternation(_AMBIGUOUS_UNITS)})(?![ ]*[\d(])"
)
"""The unit symbols and words after a figure; those that are words too or signs of a figure
after them (the lexicons' ``ambiguous_units``: ``um``, ``$``) are none before a figure (``2023
um 5 %``; ``1,234 $5,678`` and ``1,234 $ (5,678)``: the second figure's dollar; ``2,41 $`` is
2.41 dollars, as French writes them), and are tried last (after the longer units they
begin)."""
_WORD_ALT = trie_alternation([*_SMALL, *_TENS, *_EN.words, *_SCALE_WORDS])
_W = rf"[^\W{NO_SPACE_CHARS}]"
"""A word character that is not of a script written without spaces: digits glued to Chinese,
Japanese, Korean or Thai text (``退款期限为15天``) are still numbers."""
_MONTH_ALT = trie_alternation(_MONTHS)
FRACTION_NUMERATORS: dict[str, int] = dict(grouped_table("shares", "numerators"))
"""The numerator of a fraction in words (``two`` in ``two-thirds``): see
:data:`FRACTION_DENOMINATORS`."""
_DENOMINATORS_ONE = grouped_table("shares", "denominators")
_DENOMINATORS_MANY = grouped_table("shares", "plural_denominators")
FRACTION_DENOMINATORS: dict[str, int] = {**_DENOMINATORS_ONE, **_DENOMINATORS_MANY}
"""A fraction in words is a share, read as a percentage: ``two-thirds`` (66.67%), ``a quarter of``
(25%), ``two fifths of`` (40%): hyphenated, or spaced before ``of`` (``a third party``, ``the
third quarter`` and ``a quarter`` of a year are no shares), one with a singular denominator and
more with a plural (``a five-quarter average`` is no share either). ``half of the`` alone is
the ``shalf`` alternative. The words are the lexicons' (:class:`~._lexicon.ShareWords`)."""
_FRACTION_ONE = trie_alternation(_DENOMINATORS_ONE)
_FRACTION_MANY = trie_alternation(_DENOMINATORS_MANY)
_FRACTION_ONE_NUMERATORS = alternation(n for n, v in FRACTION_NUMERATORS.items() if v == 1)
_FRACTION_MANY_NUMERATORS = trie_alternation(n for n, v in FRACTION_NUMERATORS.items() if v > 1)
_SHARE_OF = (
    "".join(rf"(?<!{re.escape(w)}[ \t])" for w in grouped("shares", "period_fractions"))
    + r"of(?![\w])"
    + rf"|of[ \t]+(?:{alternation(grouped('shares', 'of_determiners'))})(?![\w])"
)
"""``of`` after a spaced fraction; after a fraction that also names a period (``quarter(s)``)
only before a determiner: ``three quarters of the votes`` is a share, ``two quarters of growth``
two periods."""
_SHARE_DETERMINERS = alternation(grouped("shares", "half_determiners"))
"""What follows ``half`` as a share of something (``half of the votes``, ``half the staff``):
read as 50%, as ``a quarter of`` is 25% (``half an hour`` is a duration, ``the first half`` a
period, and a lone ``half`` stays the number 0.5)."""
_HALF_ORDINALS = grouped("shares", "half_ordinals")
_NOT_ORDINAL = "".join(
    rf"(?<!{re.escape(w)}[ \t])" for w in (*_HALF_ORDINALS, *grouped("shares", "half_positions"))
)
"""Not after an ordinal or a position: ``the first half of the year``, ``the last half of the
fiscal year`` are periods (a ``half`` that :data:`_ORDINAL_HALF` makes a counting word),
``the lower half of the range`` a part, not 50% of it."""
_TIME_WORDS = grouped("figure_context", "time_units")
"""The English units of time, singular: what makes ``time and a half`` before it a duration,
and what makes a number word of another language English (``due days``)."""
_HALVED_UNITS = alternation(grouped("figure_context", "halved_units"))
"""The units of time an answer halves in words (from the minute: ``half an hour``, ``a year and
a half``)."""
_UNIT_AND_A_HALF_SOURCE = (
    rf"(?<![\w-])(?:an?|one)[ \t]+(?P<au>{_HALVED_UNITS})[ \t]+and[ \t]+a[ \t]+half(?![\w])"
)
"""One unit and a half (``a year and a half``: 18 months), the master's ``ahalf`` alternative and
what :func:`_candidates` looks for to start there."""


def _period_words(role: str, *, adverb: bool) -> str:
    """An alternation of the periods of ``role`` (a list of :class:`~._lexicon.FrequencyWords`)
    written alone (``adverb``: ``daily``) or after a word of ``per`` (``a day``)."""
    return alternation(w for w in grouped("frequencies", role) if periods()[w].adverb == adverb)


_PER = alternation((*grouped("frequencies", "articles"), *grouped("frequencies", "per")))
"""The words before a period that make it a frequency (``a``, ``per``, ``every``)."""
_FREQ = (
    rf"(?:\s+(?:{_PER})\s+(?:{_period_words('counted', adverb=False)})"
    rf"|\s+(?:{_period_words('counted', adverb=True)}))\b"
)
_FREQ_AFTER = lazy(
    rf"\s+(?:(?:{_PER})\s+(?P<unit>{_period_words('counted', adverb=False)})"
    rf"|(?P<adverb>{_period_words('counted', adverb=True)}))\b"
)
_MULTIPLICATIVES = grouped_table("frequencies", "multiplicatives")
"""Counts in one word (``twice``: 2); one of 1 (``once``) is a count only before a frequency."""
_TIMES = alternation(grouped("frequencies", "times"))
_COUNTED_BEFORE = lazy(rf"(?:{alternation(_MULTIPLICATIVES)}|{_TIMES}|\d\s*x|\d)\s*$")


Interval = tuple[str, Fraction]
"""The time between two occurrences of a thing done repeatedly: ``("time", seconds)``,
``("calendar", months)``, or ``(unit, 1)`` for a part of the day (``night``)."""


def _interval(period: Period) -> Interval:
    """The length of a period in the base unit of its dimension in :data:`UNITS` (seconds,
    months); a part of the day (``night``), no unit, is an interval of its own."""
    unit = _BY_CANON.get(period.unit)
    if unit is None or unit[1] is None:
        return period.unit, Fraction(1)
    return unit[1], period.count * unit[2]


_PERIODS: dict[str, Interval] = {w: _interval(period) for w, period in periods().items()}
"""The length of each period word (:func:`~._lexicon.periods`: ``hour``, ``quarterly``,
``annum``): what ``every 12 hours``, ``every 3 months`` and ``$5 per month`` are read as. A
rate converts only inside one dimension (a month is no 30 days, a year no 52 weeks)."""
_TIMES_AFTER = re.compile(rf"\s+(?:{_TIMES})(?![\w])")
_EVERY_BEFORE = re.compile(rf"(?<![\w])(?:{alternation(grouped('frequencies', 'every'))})\s+\Z")
_SHARE_PERIODS = [w for w in grouped("frequencies", "uncounted") if w in FRACTION_DENOMINATORS]
"""Periods that are also fractions (``quarter``): after an article a share (``a quarter``), so
a frequency only after a word of ``per`` (``per quarter``)."""
_UNCOUNTED_NOUNS = alternation(
    w
    for w in grouped("frequencies", "uncounted")
    if not periods()[w].adverb and w not in _SHARE_PERIODS
)
_EVERY_OTHER = alternation(grouped("frequencies", "every_other"), space=_BLANKS)
_UNCOUNTED_FREQ = lazy(
    rf"(?<![\w])(?:(?:{_EVERY_OTHER})\s+(?P<other>{_period_words('alternate', adverb=False)})"
    rf"|(?P<adverb>{_period_words('uncounted', adverb=True)})"
    rf"|(?:{_PER})\s+(?P<unit>{_UNCOUNTED_NOUNS})"
    rf"|(?:{alternation(grouped('frequencies', 'per'))})\s+"
    rf"(?P<quarter>{alternation(_SHARE_PERIODS) or '(?!)'}))(?![\w])"
)
"""A frequency no count states (``daily``, ``per week``, ``every other day``, ``quarterly``;
``a quarter`` is a share)."""


def stated_interval(
    text: str, q: Quantity, start: int, end: int
) -> tuple[Interval, int, int] | None:
    """The interval ``q`` (at ``start:end`` in normalised ``text``) states for a thing done
    repeatedly, and the span of its phrase: a count per period (``twice daily``, ``3 times a
    week``, ``four times a year``: a day over 2, a week over 3, 3 months) or ``every`` a time
    (``every 12 hours``, ``every 3 months``); ``None`` for any other quantity (``3 days``, a
    range ``every 4 to 6 hours``)."""
    if q.dimension is None:
        if q.value.denominator != 1 or not 1 <= q.value <= 24:
            return None
        times = _TIMES_AFTER.match(text, end)
        m = _FREQ_AFTER().match(text, times.end() if times is not None else end)
        if m is None:
            return None
        family, length = _PERIODS[m["unit"] or m["adverb"]]
        return (family, length / q.value), start, m.end()
    if q.dimension not in ("time", "calendar") or q.range_role is not None or q.value <= 0:
        return None
    every = _EVERY_BEFORE.search(text, max(0, start - 8), start)
    if every is None:
        return None
    return (q.dimension, q.base_value), every.start(), end


_RATE_PERIOD = lazy(
    rf"[ \t]*(?:(?:{_PER})[ \t]+|/[ \t]*)(?P<unit>{_period_words('rates', adverb=False)})(?![\w])"
    rf"|[ \t]+(?P<adverb>{_period_words('rates', adverb=True)})(?![\w])"
)
"""The period of a rate after its amount (``$5 per month``, ``€9.99/mo``, ``$10 monthly``)."""


def rate_period(text: str, end: int) -> tuple[Interval, int] | None:
    """The period of an amount written as a rate right after ``end`` in normalised ``text``
    (``$5 per month``, ``$60 a year``, ``€9.99/mo``, ``$10 monthly``) and the end of its
    phrase, or ``None``."""
    m = _RATE_PERIOD().match(text, end)
    if m is None:
        return None
    return _PERIODS[m["unit"] or m["adverb"]], m.end()


def uncounted_intervals(text: str) -> Iterator[tuple[Interval, int, int]]:
    """The intervals normalised ``text`` states with no count (``daily``, ``per week``: once
    a day, once a week; ``every other day``; ``quarterly``: every 3 months), with their spans;
    not a frequency a count precedes (``twice daily``: see :func:`stated_interval`)."""
    for m in _UNCOUNTED_FREQ().finditer(text):
        if _COUNTED_BEFORE().search(text, max(0, m.start() - 12), m.start()) is not None:
            continue
        if m["other"]:
            family, length = _PERIODS[m["other"]]
            yield (family, 2 * length), m.start(), m.end()
            continue
        yield _PERIODS[m["unit"] or m["quarter"] or m["adverb"]], m.start(), m.end()


_PERCENT_WORDS = [w for w in merged("percent_words") if "a" <= w[-1] <= "z"]
"""The percent words in letters a-z (``percent``, ``pour cent``): a word end after them."""
_PERCENT_ALT = trie_alternation(_PERCENT_WORDS, space=r"[ \t]+")
_PERCENT_CHARS = alternation(w for w in merged("percent_words") if not "a" <= w[-1] <= "z")
"""The percent words of scripts without spaces (``パーセント``)."""
_BASIS_POINTS_ALT = trie_alternation(merged("basis_points"), space=r"[ \t]+")


def _unit_part(prefix: str) -> str:
    """The optional unit after a number, with group names prefixed (names must be unique); on
    the number's line (``$10.26\nSecond Quarter`` is no 10.26 seconds) and in its cell: a
    space between them or a compound's hyphen (``5-year``, ``a 1.1-percentage-point rise``,
    ``a 110-basis-point cut``), not a tab (a tab separates the cells of a row: ``2019\t% Change`` is
    no 2019%). A unit of one letter not before an elision (``2023 l'entreprise`` is no 2023
    litres, ``2023 s'élève`` no 2023 seconds: any letter after it; ``90 days' notice``,
    ``RMB'000`` stay) nor before a comparison of periods it names (``$20 million year over
    year``, ``month-on-month``: the growth's period, no unit of the figure) nor, for a unit
    symbol that is a word too (:data:`_AMBIGUOUS_UNITS`), before a figure. ``[ ]``: the master
    expression is verbose."""
    return (
        rf"(?:(?P<{prefix}pct>[ ]?%|(?:[ ]?|-)(?:{_PERCENT_ALT})(?![a-z])|[ ]?(?:{_PERCENT_CHARS})"
        rf"|(?:[ ]?|-)(?P<{prefix}bp>{_BASIS_POINTS_ALT})(?![a-z]))"
        rf"|(?:[ ]?|-)(?P<{prefix}unit>{_UNIT_ALT})"
        rf"(?:(?:/|[ ]+per[ ]+)(?P<{prefix}den>{_UNIT_ALT}))?(?![a-zμ°]|'(?<![a-zμ°][a-zμ°]')[^\W\d_])"
        rf"(?![ -](?:over|on)[ -](?P={prefix}unit)(?![a-z]))"
        rf"|[ ]?(?P<{prefix}opq>(?!and/|or/|[yqmhw]/[yqmhw](?![a-zμ]))[a-zμ]{{1,4}}/[a-zμ]{{1,4}})(?![a-zμ]))?"
    )


def _mult() -> str:
    """The scale after a figure, by how each form stands (:func:`figure_forms`): the words are
    the lexicons', the ways they stand are here; in the figure's cell (a space, not a tab, as
    :func:`_unit_part`)."""
    forms = figure_forms()
    spaced = forms["spaced"]
    return (
        rf"""(?:[ ](?:{alternation(w for w in spaced if " " in w)}"""
        rf"""|{trie_alternation(w for w in spaced if " " not in w)})(?![a-z])"""
        rf"""|[ ]?(?:{trie_alternation(forms["word"])})(?![a-z])"""
        rf"""|[ ](?:{trie_alternation(forms["dotted"])})(?:\.|(?![a-z]))"""
        rf"""|[ ]?(?:{trie_alternation(forms["before_sign"])})"""
        rf"""(?=[ ]?€|eur(?![a-z])|[ ]?\$(?![ ]*[\d(]))"""
        rf"""|(?:{trie_alternation(forms["glued"])})(?![a-zμ°])"""
        rf"""|[ ]?(?:{alternation(forms["char"])}))"""
    )


_MULT = _mult()
_CITE_LABELS = grouped("figure_context", "citation_labels")
"""Words that number the retrieved passages an answer cites (``[Source 2]``, ``according to
document 3``, ``(see passage 1)``)."""
_CITE_SEP = r"(?:[ \t]*;[ \t]*|,[ \t]+|,(?!\d{3}(?!\d))|[ \t]*-[ \t]*)"
"""Between the numbers of one citation (``[1, 3]``, ``[1-3]``; not ``[1,000]``)."""
_PAGE_LABELS = grouped("figure_context", "page_labels")
"""Words that number a page an answer cites (``[Doc 2, p. 14]``, ``(see page 12)``): a place
in a source, no figure of it (``12 pages`` stays a count)."""
_CITE_AFTER = "|".join(
    [
        *(rf"(?<={re.escape(w)}[ \t])" for w in _CITE_LABELS),
        *(rf"(?<=(?<![\w.]){re.escape(w)}[ \t])" for w in _PAGE_LABELS),
    ]
)
_INDEX_NAMES = grouped("figure_context", "index_names")
_INDEX_AFTER = "|".join(
    [
        *(rf"(?<={re.escape(w)}[ \t-])" for w in _INDEX_NAMES),
        *(rf"(?<={re.escape(w)})" for w in _INDEX_NAMES if not w.isalpha()),
    ]
)
"""After the name of an index, and glued to a name written with a sign (``S&P500``)."""
_INDEX_NUMBERS = alternation(grouped("figure_context", "index_numbers"))
"""Stock indexes and rankings named with a number (``S&P 500``, ``Nasdaq-100``, ``FTSE 100``,
``Russell 2000``, ``Fortune 500``, ``Nikkei 225``, ``CAC 40``): names, not figures; so are the
SEC's filings (``10-K``, ``10-Q``, ``8-K``, ``20-F``: the ``skip`` alternative; ``S-1`` and the
names of :data:`_NAMED` among identifiers)."""
_NAMED_RUNS = frozenset(
    w.encode()
    for w in (
        *(w.rstrip(":.") for w in (*_CITE_LABELS, *_PAGE_LABELS)),
        *(run for name in _INDEX_NAMES for run in re.findall("[a-z]+", name)[-1:]),
    )
)
"""Letter runs one of which a text holds when the ``named`` alternative (a passage number after
its label, an index's number) can match in it (``s&p`` is the runs ``s`` and ``p``): without
them the digit master leaves it out (its many look-behinds are tried at every figure)."""
_SCALE_ALT = alternation(_SCALE_WORDS)
"""The English scale words of number words (``thousand``, ``million``)."""
_A_WORDS = alternation((*_EN.words, *_SCALE_WORDS))
"""What ``a`` counts one of in number words (``a hundred``, ``a dozen``, ``a million``)."""
_ONCE = alternation(w for w, v in _MULTIPLICATIVES.items() if v == 1)
_MANY_TIMES = alternation(w for w, v in _MULTIPLICATIVES.items() if v > 1)
_CLOCK_WORDS = grouped_table("figure_context", "clock_words")
"""Times of day in words, in minutes after midnight (``noon``: 720)."""
_DATE_GAP = r"[ \t]+|[ ]*\r?\n[ ]*"
"""What may stand between a date's day and its year: blanks on one line (a tab: cells a PDF's
lines joined), or one line break between spaces (``December 31,`` above ``2019``); not a line
break beside a tab (``September 30,<tab>`` ends a row of a tab-separated table, ``<tab>2019``
opens the next) nor a blank line."""
_ALTERNATIVES: dict[str, str] = {
    "cite": rf"""(?P<cite>(?:(?<=\[)|(?<=\[\^)|(?<=【))\d{{1,3}}(?=\]|】|†)
       |(?:(?<=[a-z]{{2}}\^)|(?<=[.)\]]\^))\d{{1,3}}(?![\d.,]\d)
       |(?<!\d\[)(?<!\d[ ]\[)(?<=\[)\d{{1,3}}(?:{_CITE_SEP}\d{{1,3}})+(?=\]))""",
    "named": rf"""(?P<named>(?:{_CITE_AFTER})\d{{1,3}}(?:{_CITE_SEP}\d{{1,3}}|[ \t]+and[ \t]+\d{{1,3}})*
       (?!\d|[.,]\d|[ \t]*(?:%|{_PERCENT_ALT}|{_SCALE_ALT}))
       |(?:{_INDEX_AFTER})(?:{_INDEX_NUMBERS})(?![\w.,]|[ \t]*%))""",
    "enum": rf"""(?P<enum>(?:^|(?<=\n))[ \t]*(?:[-*•·][ \t]*)?(?:(?:\(\d{{1,2}}\)|\d{{1,2}}[.)])(?=[ \t]+(?:[*_]{{1,2}})?[^\W\d]|[ \t]+[*_]{{1,2}}\d)|\d{{1,2}}[.)](?=[ ]+[-+]?\(?(?:[$€£¥₹][ ]?)?\d))(?![ \t]*(?:{_SCALE_ALT})\b)
       |(?:(?<=[:;,])|(?<=[:;,][ \t])|(?<=\band[ \t])|(?<=\bor[ \t]))\(\d{{1,2}}\)(?=\s)(?![ \t]*(?:{_SCALE_ALT})\b)
       |(?<=[.!?][ \t])\d{{1,2}}[.)](?=[ \t]+[^\W\d])
       |(?<=(?<![\w])step[ \t])\d{{1,2}}(?=[ \t]*[:.)](?!\d))
       |(?<=\#[ \t])\d{{1,2}}[.)]?(?=[ \t]+[^\W\d]))""",
    "skip": rf"""(?P<skip>(?<![\w./])24\s?[/x]\s?7(?![\w/])
       |(?<![\w-])(?:10-k|10-q|8-k|20-f|40-f|6-k|11-k)(?:/a)?(?![\w-])
       |(?<![\w.,])(?:{_DOLLAR_PREFIXES}?\$|[€£¥₹])\s?'?000s?(?![\d,.]))""",
    "legal": r"""(?P<legal>(?<![\w.,])\d{3}\s?\(\s?[a-z]\s?\)(?:\(\d{1,2}\))?(?![\w(])
       |(?<![\w.,$])(?:401|403|457)[kb](?!\w))""",
    "iso": r"""(?P<iso>(?<![\w./])(?P<iy>\d{4})(?P<isep>[-/])(?P<im>\d{1,2})(?P=isep)(?P<id>\d{1,2})(?![\w/-]))""",
    "dmy": rf"""(?P<dmy>(?<![\w.])(?P<dd>\d{{1,2}})(?:(?:st|nd|rd|th)?[ ]+(?:of[ ]+)?|-)(?P<dm>{_MONTH_ALT})
       (?:(?:\.?,?(?:{_DATE_GAP})|-)(?P<dy>\d{{4}})(?![\w])|(?<!may)(?![\w]|-\d)))""",
    "mdy": rf"""(?P<mdy>(?<![\w])(?P<mm>{_MONTH_ALT})\.?[ ]*(?P<md>\d{{1,2}})(?:st|nd|rd|th)?
       (?:(?:,(?:{_DATE_GAP})?|(?:{_DATE_GAP}))(?P<my>\d{{4}}))?(?![\w]|:\d))""",
    "sdate": r"""(?P<sdate>(?<![\w./])(?P<sa>\d{1,2})/(?P<sb>\d{1,2})/(?P<sy>\d{4}|\d{2})(?![\w/])
       |(?<![\w./])(?P<da>\d{1,2})\.(?P<db>\d{1,2})\.(?P<dy2>\d{4})(?![\w]|\.\d))""",
    "ver": r"""(?P<ver>(?<![\w.])\d+(?:\.\d+){2,}(?![\w]|\.\d))""",
    "cdate": r"""(?P<cdate>(?:(?P<cy>\d{4})\s?[年년]\s?|(?<![\d年년]))(?P<cm>\d{1,2})\s?[月월]\s?(?P<cd>\d{1,2})\s?[日일])""",
    "time": r"""(?P<time>(?<![\w.:])(?P<th>\d{1,2})(?::(?P<tm>\d{2}))?\s?(?P<ap>a\.m\.|p\.m\.|am|pm)(?![a-z])
       |(?<![\w.:])(?P<th2>\d{1,2}):(?P<tm2>\d{2})(?![\d:]))""",
    "num": rf"""(?P<num>(?<!/)(?<!%)(?<![\d.]\.)(?:(?<!\d,)|(?!\d{{3}}(?!\d|\.\d)))(?:(?P<sign0>[-+])(?=[$€£¥₹]|{_DOLLAR_PREFIXES}\$|{_GLUED_CODES}\d|{_WRITTEN_CURRENCIES}))?(?:(?=[a-z$€£¥₹])(?P<cur>[$€£¥₹]|{_CUR_PREFIX_SOURCE})\s?)?
       (?P<par>\((?=[$€£¥₹\d.-]|{_CUR_PREFIX_SOURCE}))?(?:(?P<cur2>[$€£¥₹]|(?<=\()(?:{_CUR_PREFIX_SOURCE}))\s?)?(?P<sign>[-+](?=[\d.]))?
       (?:(?P<mi>\d+)\s(?P<mn>\d+)/(?P<md2>\d+)(?![\d/])
         |(?P<fn>\d+)/(?P<fd>\d+)(?![\d/])
         |(?P<dec>(?>(?:(?=\d+[,'])(?:\d{{1,3}}(?:,\d{{3}})+(?!\d)|(?<!\d,)\d+,\d{{1,2}}(?![\d,]|\.\d)|\d{{1,2}}(?:,\d\d){{1,6}},\d{{3}}(?!\d)|\d{{1,3}}(?:'\d{{3}}){{1,6}}(?!\d))|\d+)(?:\.\d+)?|\.\d+))
         (?P<exp>e[-+]?\d{{1,2}}(?!\d))?)
       (?P<m1>{_MULT})?(?(par)[ \t]?\))(?(m1)|(?P<m2>{_MULT})?)
       (?P<xm>[ \t]?[x×](?!\w)(?!\s*(?:[\d($]|\.\d))|[ \t]+times(?![a-z])(?!\s+[\d(]))?
       {_unit_part("n")}(?:(?!{_W})|(?<=[{NO_SPACE_CHARS}])(?<![年년])))""",
    "times": rf"""(?P<times>(?<![\w])(?:{_MANY_TIMES}|(?:{_ONCE})(?={_FREQ}))(?![\w]))""",
    "words": rf"""(?P<words>(?<![\w-])(?:(?:half[ \t]+)?a\s+(?=(?:{_A_WORDS})\b))?(?:{_WORD_ALT})
       (?:(?:[ \t]+|-|[ \t]+and[ \t]+)(?:{_WORD_ALT}))*(?:[ \t]+and[ \t]+a[ \t]+half)?(?![\w])
       (?:[ \t]*\([ \t]*(?P<wpar>\d[\d,.]*)[ \t]*\))?{_unit_part("w")}(?!{_W}))""",
    "frac": rf"""(?P<frac>(?<![\w-])(?:(?P<fn>{_FRACTION_ONE_NUMERATORS})(?:-|[ \t]+(?=(?:{_FRACTION_ONE})[ \t]+(?:{_SHARE_OF})))(?P<fd>{_FRACTION_ONE})
       |(?P<fn2>{_FRACTION_MANY_NUMERATORS})(?:-|[ \t]+(?=(?:{_FRACTION_MANY})[ \t]+(?:{_SHARE_OF})))(?P<fd2>{_FRACTION_MANY}))(?![\w-]))""",
    "clock": rf"""(?P<clock>(?<![\w-])(?:{alternation(_CLOCK_WORDS)})(?![\w-]))""",
    "ahalf": rf"""(?P<ahalf>{_UNIT_AND_A_HALF_SOURCE})""",
    "shalf": rf"""(?P<shalf>(?<![\w]){_NOT_ORDINAL}half(?=[ \t]+(?:{_SHARE_DETERMINERS})(?![\w])))""",
    "half": rf"""(?P<half>(?<![\w])half(?:[ \t-]+(?:an?[ \t]+)?(?P<hu>{_HALVED_UNITS})(?![\w]))?(?![\w]))""",
    "ident": r"""(?P<ident>(?<![\w-])(?:(?:fy|cy)['-]?\d\d(?:\d\d)?/\d\d(?:\d\d)?|[a-z]+-?\d[a-z\d]*(?:-\d+)?|(?:fy|cy)'\d\d)(?![\w-]))""",
    "glued": r"""(?P<glued>(?<![\w.,])(?P<gnum>(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)(?P<gsuf>[a-z]{1,6})(?![\w]))""",
}
"""The master expression's alternatives, in priority order (named groups are unique)."""


def _master(names: tuple[str, ...]) -> re.Pattern[str]:
    """The alternation of ``names``, matched only where no character of :data:`_W` stands
    before the candidate: its ``(?<!_W)`` is tested by the caller (:func:`_word_char_before`),
    not written here, where it cost every master expression about 3 ms to compile (Python builds
    the class's table one code point at a time, 41,000 of them for :data:`NO_SPACE_CHARS`).
    Compiled by :func:`compiled`: its code is kept between processes (27 ms for the two a
    one-case check compiles, read back in well under one)."""
    alternation = "\n|".join(_ALTERNATIVES[n] for n in names)
    return compiled(rf"(?:{alternation})", re.VERBOSE | re.MULTILINE)


_DIGIT_ALTERNATIVES = (
    *("enum", "skip", "legal", "iso", "dmy", "sdate", "ver", "cdate", "time", "num", "glued"),
)
_MASTER_ALTERNATIVES = {
    "other": ("enum", "skip", "num"),
    "digit": ("cite", *_DIGIT_ALTERNATIVES),
    "named": ("cite", "named", *_DIGIT_ALTERNATIVES),
    "alpha": ("mdy", "times", "clock", "frac", "ahalf", "words", "shalf", "half", "ident"),
}
"""The alternatives of the master expression for a candidate at a digit, at a letter ``a``-``z``
and at any other character: only some alternatives can start there, and the alternation's
first match is the same without the others (smaller expressions compile and match faster; the
full alternation is never compiled). At any other character only ``enum`` (blanks, bullets,
``(``), ``skip`` (a currency sign) and ``num`` (sign, currency, ``(``, ``.``) can start: every
other alternative starts with a digit or an ASCII letter (a currency at a word start, ``us$9.9``
or ``usd500``, is tried with the former). At a digit, a text holding a word of
:data:`_NAMED_RUNS` is scanned with ``named`` as well. (The digits' expression would find the
same at any other character, and save a process with both kinds of candidate compiling ``num``
twice, about 12 ms; but its other alternatives, tried and failed at each such candidate, cost a
TAT-QA context's scan 10-15% more.)

``num`` does not repeat the master's ``(?<!_W)`` (:func:`_master`): it would test the same
character, and each class of :data:`_W` costs about 2-3 ms to compile."""


@functools.cache
def _master_for(kind: str) -> re.Pattern[str]:
    """The master expression of :data:`_MASTER_ALTERNATIVES` ``kind``, compiled on the first
    candidate that needs it, not at import: compiling them is most of this module's import
    time (``import hybridjudge`` and ``hybridjudge --help`` never scan), and a process whose
    texts hold no candidate of a kind (no ``$``, ``(`` or bullet, say) never compiles its
    expression."""
    return _master(_MASTER_ALTERNATIVES[kind])


# Upper-case words before a number that make it a quantity, not an identifier ("USD 500").
_NOT_ACRONYMS = frozenset(set(_CURRENCY_CODES) | {a for a in UNITS if a.isalpha()})
_ACRONYM_BEFORE = re.compile(r"(?<![\w])([a-z]{2,6}) $")


def _code_before(norm: NormalizedText, start: int) -> bool:
    """Whether a currency code in capitals stands right before ``start`` (``EUR 5m``)."""
    s = norm.text
    if start < 4 or s[start - 1] != " ":
        return False
    acro = _ACRONYM_BEFORE.search(s, max(0, start - 8), start)
    return (
        acro is not None
        and acro.group(1) in _CURRENCY_CODES
        and is_upper_in_original(norm, acro.start(1), acro.end(1))
    )


_MAX_RANGE_GAP = 11  # len(" through ") plus slack: longer gaps cannot be range separators


def _range_openers() -> dict[str, re.Pattern[str]]:
    """What must stand before a range's low end for each word of the lexicons' ``range_pairs``
    that joins its ends (``and``: ``between`` or ``from``), but for a word that joins one by
    itself (``range_words``)."""
    openers: dict[str, list[str]] = {}
    for language in LANGUAGES:
        for opener, joins in lexicon(language).range_pairs.items():
            for word in joins:
                openers.setdefault(word, []).append(opener)
    alone = set(merged("range_words"))
    return {
        word: re.compile(rf"(?<![\w])(?:{alternation(words)})\s+$")
        for word, words in openers.items()
        if word not in alone
    }


_RANGE_OPENERS = _range_openers()
_RANGE_SEP = re.compile(
    rf"\s*(?:-|(?P<word>{alternation((*merged('range_words'), *_RANGE_OPENERS))}))\s*"
)
"""What joins the two ends of a range: a hyphen (dashes are hyphens once normalised), or a
word of the lexicons' ``range_words`` or ``range_pairs`` (``to``, ``bis``, ``and``, ``至``)."""


def closed_range(text: str, start: int, end: int) -> bool:
    """Whether the separator ``text[start:end]`` of a range (:attr:`Scan.separators`) joins two
    ends that bound one figure: a hyphen (``22-23 million``) or the second word of a pair
    (``between 22 and 23``, ``entre 22 et 23``); not ``to`` nor ``bis`` (``from 22 to 23`` may
    be a change from one figure to another)."""
    m = _RANGE_SEP.fullmatch(text, start, end)
    return m is not None and (m["word"] is None or m["word"] in _RANGE_OPENERS)


@dataclass(frozen=True, slots=True)
class Ident:
    """An identifier with digits (``covid-19``, ``iso 9001``), span in the normalised text."""

    text: str
    """The identifier, normalised."""
    start: int
    """Start offset in the normalised text."""
    end: int
    """End offset in the normalised text."""
    number: Fraction | None
    """The separable number (``19`` in ``covid-19``), ``None`` when glued (``h2o``)."""


F_PAREN = 1
"""Written in brackets: ``(5,022)``."""
F_DECREASE = 2
"""The sign is stated in words before it: ``a decrease of 5,022``, ``fell by 3%``."""
F_YEAR = 4
"""Looks like a calendar year (``2019``): not an operand of derived figures."""
F_RATIO = 8
"""A multiple: ``1.5x``, ``2 times``."""
F_CONSTANT = 16
"""A constant of shown working: ``x 100``, ``/ 2``, ``divided by 2``."""
F_COUNT = 32
"""A counting word: ``these two figures``, ``the first half``."""
F_OWN_SCALE = 64
"""Carries its own scale word: ``16.5 billion``, ``$82.9M``."""
F_OPERAND = 128
"""An operand of shown working: next to ``+ - × / =`` or inside brackets of a formula."""
F_RESULT = 256
"""The result of shown working: written right after ``=``."""
F_CHANGE = 512
"""The sign is stated by a change with its amount (``decreased by 5,022``, ``a decline of 3%``)
in running text, not by a label such as ``Net loss`` in a table row."""
F_APPROX = 1024
"""Stated as an approximation: ``approximately 1,200``, ``about 2,000``, ``nearly``, ``~``,
``≈``."""
F_DECADE = 2048
"""A decade (``1960s``, ``mid-1990s``), valued at its first year: any year of it grounds it."""
F_SHARE = 4096
"""A share in words, read as a percentage: ``two-thirds`` (66.67%), ``half of`` (50%). Within
half a percentage point of a percentage it grounds it (``two-thirds`` for ``67%``): a fraction
word is as precise as a whole percentage, not as its exact value."""
F_ABOVE = 8192
"""Stated as a lower bound: ``more than 10,000``, ``over``, ``at least``, ``in excess of``."""
F_BELOW = 16384
"""Stated as an upper bound: ``less than 5%``, ``fewer than``, ``under``, ``at most``."""

# kind, value, unit, dimension, base value, scale multiplier, decimals, significant digits, flags
_Parsed = tuple[QuantityKind, Fraction, str | None, str | None, Fraction, int, int, int, int]

Meta = tuple[int, int, int, int]
"""Per quantity: (scale multiplier written, decimals written, significant digits, flags)."""


@dataclass(slots=True)
class _Raw:
    """A quantity during the scan (normalised offsets), before it becomes a :class:`Quantity`."""

    kind: QuantityKind
    value: Fraction
    unit: str | None
    dimension: str | None
    base: Fraction
    start: int
    end: int
    meta: Meta
    role: Literal["low", "high"] | None = None


@dataclass(slots=True)
class Scan:
    """Everything found in one normalised text.

    Not frozen (creation is several times faster); treat it as read-only.
    """

    norm: NormalizedText
    """The normalised text and its map back to the original."""
    quantities: tuple[Quantity, ...]
    """Quantities with spans in the original text."""
    norm_spans: tuple[tuple[int, int], ...]
    """The same quantities' spans in the normalised text."""
    idents: tuple[Ident, ...]
    """Identifiers with digits."""
    separators: tuple[tuple[int, int], ...]
    """Normalised spans of the text between the two ends of each range."""
    words: frozenset[bytes]
    """Every run of ASCII letters in the normalised text (a cheap pre-filter for markers)."""
    meta: tuple[Meta, ...] = ()
    """The same quantities' scale, precision and flags (see :data:`Meta`)."""
    _placeholders: tuple[str, ...] | None = field(default=None, repr=False, compare=False)

    @property
    def placeholders(self) -> tuple[str, ...]:
        """The same quantities' canonical spellings (see :func:`placeholder_of`), made on
        first use: a context's scan never needs them."""
        if self._placeholders is None:
            self._placeholders = tuple(
                placeholder_of(q.kind, q.value, q.dimension, q.base_value) for q in self.quantities
            )
        return self._placeholders


def _numeral(dec: str) -> str:
    """A numeral's digits with ``.`` as its decimal point: commas group thousands
    (``16,525``) unless a single comma has one or two digits after it, a decimal comma
    (``1,9 Millionen``, ``3,5 %``: the master expression reads no other form)."""
    if "'" in dec:  # Swiss grouping: 10'000 (the normalised apostrophe)
        dec = dec.replace("'", "")
    if "," not in dec:
        return dec
    if len(dec) - dec.rfind(",") <= 3 and dec.count(",") == 1 and "." not in dec:
        return dec.replace(",", ".")
    return dec.replace(",", "")


def _dec(text: str) -> Fraction:
    digits = _numeral(text)
    if "." not in digits:
        return Fraction(int(digits))
    whole, frac = digits.split(".", 1)
    return Fraction(int(whole + frac), 10 ** len(frac))


_SPACES = re.compile(r"\s+")
_ONE = Fraction(1)


_INTERNATIONAL_UNIT = lazy(r"(?<![a-zμ])([mμnpku]?)iu(?![a-zμ])")
"""An international unit in a unit we do not convert: the same as the enzyme or hormone unit
``U`` (``mIU/L`` is ``mU/L``, ``IU/mL`` is ``U/mL``)."""


def _unit_info(
    unit: str | None, den: str | None, opq: str | None
) -> tuple[str | None, str | None, Fraction]:
    if opq is not None:
        return opq, "opaque-" + _INTERNATIONAL_UNIT().sub(r"\1u", opq), Fraction(1)
    if unit is None:
        return None, None, Fraction(1)
    canon, dim, factor = UNITS[unit] if unit in UNITS else UNITS[_SPACES.sub(" ", unit)]
    if den is not None and canon is not None:
        dcanon, ddim, dfactor = UNITS[den] if den in UNITS else UNITS[_SPACES.sub(" ", den)]
        if dcanon is not None and ddim is not None:
            return f"{canon}/{dcanon}", f"{dim}/{ddim}", factor / dfactor
    return canon, dim, factor


def _words_value(phrase: str) -> Fraction | None:
    """English number words to a value; ``None`` for a sequence that is not one number."""
    tokens = [t for t in re.split(r"[\s-]+", phrase) if t]
    if tokens[:2] == ["half", "a"]:  # "half a dozen"
        whole = _words_value(" ".join(tokens[1:]))
        return whole / 2 if whole is not None else None
    extra = Fraction(0)
    if len(tokens) >= 3 and tokens[-3:] == ["and", "a", "half"]:
        extra = Fraction(1, 2)
        tokens = tokens[:-3]
    if len(tokens) == 1 and (tokens[0] in _SCALES or tokens[0] == "dozen"):
        return None  # "million" alone (e.g. after "$(3,264)") is a scale word, not a number
    total = 0
    current = 0
    last = ""  # "small", "tens", "hundred", "scale"
    for tok in tokens:
        if tok == "a":
            current, last = 1, "small"
        elif tok == "and":
            if last not in ("hundred", "scale"):
                return None
        elif tok in _SMALL:
            if last in ("small",) or (last == "tens" and _SMALL[tok] >= 10):
                return None
            current += _SMALL[tok]
            last = "small"
        elif tok in _TENS:
            if last in ("small", "tens"):
                return None
            current += _TENS[tok]
            last = "tens"
        elif tok == "hundred":
            if last == "hundred":
                return None
            current = (current or 1) * 100
            last = "hundred"
        elif tok == "dozen":  # "a dozen", "two dozen": twelves
            current = (current or 1) * 12
            last = "hundred"
        elif tok in _SCALES:
            total += (current or 1) * _SCALES[tok]
            current = 0
            last = "scale"
        else:  # pragma: no cover - the regex admits only the words above
            return None
    return Fraction(total + current) + extra


Q_OPEN, Q_DIM, Q_BASE, Q_CLOSE = "\ue000", "\ue001", "\ue002", "\ue003"
"""The delimiters of a quantity's placeholder (:func:`placeholder_of`): it opens with ``Q_OPEN``,
the value as written ends at ``Q_DIM``, the dimension at ``Q_BASE``, the base value at
``Q_CLOSE``. Private-use characters, so no text contains them; anchors match on them."""


def placeholder_of(kind: str, value: Fraction, dimension: str | None, base: Fraction) -> str:
    """The canonical spelling of a quantity: value as written, dimension, base value.

    Private-use characters delimit it, so it never touches the words around it.
    """
    raw = f"{int(value):08d}" if kind == "date" else str(value)
    return f"{Q_OPEN}{raw}{Q_DIM}{dimension or ''}{Q_BASE}{base}{Q_CLOSE}"


_MAX_NUMBER_CHARS = 80  # longer digit runs are not quantities: see _long_number
_MAX_WORDS_CHARS = 400  # "nine hundred and ninety-nine million nine hundred ..." fits
_MAX_LONG_DIGITS = 4000  # below the interpreter's limit on int("...") and str(int) (4,300)


def _long_number(written: str, start: int, end: int) -> Ident | None:
    """A figure written with more than :data:`_MAX_NUMBER_CHARS` characters (an account
    number, a hash, a model's runaway "99999…", or a fabricated figure such as 1 followed by 72
    zeros): kept as an identifier of all its digits, which an answer may only repeat from the
    context, never dropped unread. Its number (shown in a finding) is that of its first
    :data:`_MAX_LONG_DIGITS` digits. ``None``: no digit at all."""
    digits = "".join(ch for ch in written if "0" <= ch <= "9")
    if not digits:
        return None
    return Ident(digits, start, end, Fraction(int(digits[:_MAX_LONG_DIGITS])))


def _parse(group: str, m: re.Match[str], upper: bool) -> _Parsed | None:
    """Parse one master-regex candidate into exact values (``None``: not a quantity after all).

    ``upper``: the scale abbreviation after a number is written in capitals (``82.9M``); for
    a scale word of :data:`CONTINENTAL_SCALES` (``mil``), that the text is written the
    continental way; for a date in figures (``sdate``), that the text writes its dates day
    first."""
    if m.end() - m.start() > (_MAX_WORDS_CHARS if group == "words" else _MAX_NUMBER_CHARS):
        return None
    if group == "iso":
        return _date(int(m["iy"]), int(m["im"]), int(m["id"]))
    if group == "dmy":  # "30 June 2024", and without its year "30 June" (not "3 may")
        return _date(int(m["dy"] or 0), _MONTHS[m["dm"]], int(m["dd"]))
    if group == "mdy":
        return _date(int(m["my"] or 0), _MONTHS[m["mm"]], int(m["md"]))
    if group == "sdate":
        return _numeric_date(m, upper)
    if group == "cdate":
        return _date(int(m["cy"] or 0), int(m["cm"]), int(m["cd"]))  # 3月5日: no year
    if group == "time":
        return _time(m["th"] or m["th2"], m["tm"] or m["tm2"], m["ap"])
    if group == "glued":  # a unit read only glued to its figure (_GLUED_UNITS: "12.5p")
        p = _bare_number(m["gnum"])
        return _with_unit(p[1], (_GLUED_UNITS[m["gsuf"]], None, None, None), False, None, p[5:])
    if group == "times":
        v = Fraction(_MULTIPLICATIVES[m.group()])
        return ("number", v, None, None, v, 1, 0, 1, 0)
    if group == "frac":
        v = Fraction(
            100 * FRACTION_NUMERATORS[m["fn"] or m["fn2"]],
            FRACTION_DENOMINATORS[m["fd"] or m["fd2"]],
        )
        # exact (a percentage that rounds it, "66.7%", grounds it as written), and a share in
        # words: within half a point of a whole percentage ("67%"), see F_SHARE
        return ("number", v, "%", "percent", v, 1, 9, 9, F_SHARE)
    if group == "shalf":  # "half of the votes": a share, as "a quarter of" (see F_SHARE)
        return ("number", _FIFTY, "%", "percent", _FIFTY, 1, 9, 9, F_SHARE)
    if group == "clock":  # "midnight" is 12 am, "noon" 12 pm
        v = Fraction(_CLOCK_WORDS[m.group()])
        return ("time", v, "time", "time", v, 1, 0, 4, 0)
    if group == "ahalf":  # "a year and a half": one and a half of the unit
        unit, dim, factor = UNITS[m["au"]]
        v = Fraction(3, 2)
        return ("number", v, unit, dim, v * factor, 1, 1, 2, 0)
    if group == "half":
        if m["hu"] is not None:  # "half an hour", "a half-day": a duration
            unit, dim, factor = UNITS[m["hu"]]
            return ("number", HALF, unit, dim, HALF * factor, 1, 1, 1, 0)
        return ("number", HALF, None, None, HALF, 1, 1, 1, 0)
    if group == "num":
        return _number(m, upper)
    if group == "words":
        return _words(m)
    return None


HALF = Fraction(1, 2)
"""One half, the rounding offset (``floor(x + HALF)`` rounds half up) and ``half an hour``'s
value."""
_FIFTY = Fraction(50)


def _date(y: int, mo: int, d: int) -> _Parsed | None:
    if not (1 <= mo <= 12 and 1 <= d <= 31):
        return None
    v = Fraction(y * 10000 + mo * 100 + d)
    return ("date", v, "date", "date", v, 1, 0, 8, 0)


_DAY_FIRST = lazy(r"(?<![\w./])(?:1[3-9]|2\d|3[01])/(?:0?[1-9]|1[0-2])/\d{2,4}(?![\w/])")
"""A slashed date that can only be day first (``25/12/2024``): the text's convention."""


def _numeric_date(m: re.Match[str], day_first: bool) -> _Parsed | None:
    """A date written in figures: ``03/07/2024`` (month first, unless the first figure exceeds
    12 or the text writes its dates day first, ``day_first``), ``07.03.2024`` (day first, as
    the languages that write it so do), a two-digit year in the 2000s below 70."""
    if m["sa"] is not None:
        a, b, y = int(m["sa"]), int(m["sb"]), int(m["sy"])
        if len(m["sy"]) == 2:
            y += 2000 if y < 70 else 1900
        if a > 12 or (day_first and b <= 12):
            a, b = b, a
        return _date(y, a, b)
    return _date(int(m["dy2"]), int(m["db"]), int(m["da"]))


def _time(h: str, mi: str | None, ap: str | None) -> _Parsed | None:
    hour = int(h)
    minute = int(mi) if mi else 0
    if minute > 59:
        return None
    if ap:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if ap.startswith("p") else 0)
    elif hour > 24:
        return None
    v = Fraction(hour * 60 + minute)
    return ("time", v, "time", "time", v, 1, 0, 4, 0)


_NUMBER_GROUPS = (
    *("dec", "mi", "mn", "md2", "fn", "fd", "sign", "sign0", "cur", "cur2", "m1", "m2"),
    *("nunit", "nden", "nopq", "par", "xm", "npct", "exp"),
)


def _number(m: re.Match[str], upper: bool) -> _Parsed | None:
    if m.span("dec") == m.span():
        return _bare_number(m["dec"])
    # every group in one call (each lookup by name is a call of its own)
    (dec, mi, mn, md2, fn, fd, sign, sign0, cur, cur2, m1, m2) = m.group(*_NUMBER_GROUPS[:12])
    unit_word, den, opq, par, xm, npct, exp = m.group(*_NUMBER_GROUPS[12:])
    if mi is None and fn is None:  # a decimal (the common case, without a call)
        written, flags, decimals, digits = None, 0, 0, _numeral(dec)
        if "." not in digits:
            numerator, tens, sig = int(digits), 1, len(digits.lstrip("0")) or 1
        else:
            whole, frac = digits.split(".", 1)
            numerator, tens = int(whole + frac), 10 ** len(frac)
            decimals, sig = len(frac), len((whole + frac).lstrip("0")) or 1
    elif (parts := _numeral_parts(mi, mn, md2, fn, fd)) is None:
        return None
    else:
        written, numerator, tens, decimals, sig, flags = parts
    negative = (sign == "-") != (sign0 == "-")
    cur = cur or cur2
    mult_text = (m1 or m2 or "").strip()
    mult = 1
    if mult_text:
        if mult_text in _CASE_SENSITIVE_SCALES and not cur and not upper:
            # "5m" is five metres, "5mm" five millimetres; "5M" and "$5m" are millions
            if unit_word is not None or opq is not None:
                return None
            unit_word = mult_text
        else:
            mult = _SCALES[mult_text]
            if upper and mult_text in CONTINENTAL_SCALES:  # mil: its continental value
                mult = CONTINENTAL_SCALES[mult_text]
            flags |= F_OWN_SCALE
    if exp is not None:  # scientific notation: 6.02e23, 2.5E+03 (its own scale)
        e = int(exp[1:])
        decimals -= e
        if e >= 0:
            numerator *= 10**e
        else:
            tens *= 10**-e
        flags |= F_OWN_SCALE
    if written is None:
        numerator *= -mult if negative else mult
        value = Fraction(numerator) if tens == 1 else Fraction(numerator, tens)
    else:
        value = -written if negative else written
        if mult != 1:
            value *= mult
    if par:
        flags |= F_PAREN
    if xm:
        flags |= F_RATIO
    if npct:
        if m["nbp"]:  # basis points: hundredths of a percentage point (120 bps = 1.2 points)
            value /= 100
            decimals += 2
        return ("number", value, "%", "percent", value, mult, decimals, sig, flags)
    if (
        unit_word == "s"
        and dec is not None
        and len(dec) == 4
        and dec.endswith("0")
        and not (cur or mult_text or negative or par)
        and m.end("dec") == m.start("nunit")
        and 1000 <= numerator <= 2090
    ):
        # "the 1960s" is a decade, not 1,960 seconds
        return ("number", value, None, None, value, 1, 0, 3, F_YEAR | F_DECADE)
    return _with_unit(value, (unit_word, den, opq, cur), upper, dec, (mult, decimals, sig, flags))


def _numeral_parts(
    mi: str | None, mn: str | None, md2: str | None, fn: str | None, fd: str | None
) -> tuple[Fraction, int, int, int, int, int] | None:
    """What :func:`_number` reads from a mixed number (``mi mn/md2``) or a fraction or fiscal
    year (``fn/fd``), in the form of its decimal numerals: the value, 0 and 1 (no decimal digits
    nor power of ten), the decimals and significant digits it is as precise as, and the flags;
    ``None`` for a zero denominator. A fraction is as precise as two decimals (a whole
    percentage of its unit: ``2/3`` is 0.67, not anything from 0.17 to 1.17, as a numeral
    without decimals would be); a fiscal year as a year."""
    if mi is not None:
        if int(md2 or 0) == 0:
            return None
        return int(mi) + Fraction(int(mn or 0), int(md2 or 1)), 0, 1, _FRACTION_DECIMALS, 2, 0
    first, second = int(fn or 0), int(fd or 0)
    if second == 0:
        return None
    if len(fn or "") == 4 and 1900 <= first < 2100 and second in (first + 1, (first + 1) % 100):
        # a fiscal year ("2018/19", "2018/2019") is the year it ends in, not a fraction
        return Fraction(first + 1), 0, 1, 0, 1, F_YEAR
    return Fraction(first, second), 0, 1, _FRACTION_DECIMALS, 2, 0


_FRACTION_DECIMALS = 2
"""The decimals a fraction written in digits (``2/3``, ``1 1/2``) is as precise as."""


_PERIOD_DIMENSIONS = frozenset(("time", "calendar"))
"""The dimensions of a period's noun (``day``, ``month``): after a sum of money it names what
the money buys (``$11.50 day pass``), no duration."""


def _with_unit(
    value: Fraction,
    unit_words: tuple[str | None, str | None, str | None, str | None],
    upper: bool,
    dec: str | None,
    meta: tuple[int, int, int, int],
) -> _Parsed:
    """The parse of a figure of ``value`` with the unit its match names: ``unit_words`` (the
    unit word, its denominator, the unit after ``per``/``/``, the currency sign), ``meta`` (scale
    multiplier, decimals, significant digits and flags); a plain integer from 1900 to 2100 is
    flagged a year, as is one with the year word of a script without spaces (``2023年``)."""
    unit_word, den, opq, cur = unit_words
    mult, decimals, sig, flags = meta
    if unit_word is None and opq is None:
        unit, dim, factor = None, None, _ONE
    elif upper and den is None and opq is None and unit_word in _UPPER_UNITS:
        unit, dim, factor = _UPPER_UNITS[unit_word]
    else:
        unit, dim, factor = _unit_info(unit_word, den, opq)
    if cur and (unit is None or (opq is None and den is None and dim in _PERIOD_DIMENSIONS)):
        # money; "$11.50 day pass", "€9.90 month ticket": a period's noun names what it buys
        unit, factor = _CURRENCY_SYMBOLS[cur], _ONE
        dim = f"currency-{unit}"
    if (
        unit == "year"
        and unit_word
        and (no_space(unit_word[0]) or unit_word == unit)
        and mult == 1
        and decimals == 0
        and value.denominator == 1
        and 1900 <= value <= 2100
    ):
        # "2023年", "2023년", "Q2 2023 year over year", "the 2023 year end" (the singular): the
        # year 2023 (a duration of 2023 years is none); "3年", "a 5 year plan" stay years
        unit, dim, factor = None, None, _ONE
    if (
        unit is None
        and mult == 1
        and not flags
        and decimals == 0
        and "," not in (dec or ",")
        # 1900 <= value <= 2100 in integers (comparing Fractions is comparatively slow)
        and 1900 * value.denominator <= value.numerator <= 2100 * value.denominator
    ):
        flags |= F_YEAR
    base = value if factor == 1 else value * factor
    return ("number", value, unit, dim, base, mult, decimals, sig, flags)


_SIMPLE = lazy(
    r"""(?<![^ |\t\n])(?:(?P<c>[$€£¥₹])\s?(?!000(?![\d,.])))?
    (?P<d>(?>\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?)
    (?=[ \t]*(?:\||\Z|\n[ \t]*\|))""",
    re.VERBOSE,
)
"""A plain figure, with or without a currency sign, standing as a table cell: after a blank, a
``|`` or a line start, and followed by ``|`` (on its line, or first on the next line) or the
end of the text. The master expression matches exactly this text there as a ``num`` with only
``cur`` and ``dec`` set: no other alternative can start so (an enumerator needs ``.``/``)``, a
date or time a separator or a month, a list skip ``$000`` is excluded; a number the ``named``
alternative reads, ``| note 12 |``, is left to the master: :func:`_plain_cell`), and nothing can
follow (a unit, scale, percent sign or ``x`` needs a letter or sign before the ``|``)."""


_SIMPLE_ROW = lazy(
    r"""(?<![^ |\t\n])(?:(?P<c>[$€£¥₹])\s?(?!000(?![\d,.])))?
    (?P<d>(?>\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?)
    (?=[ \t]*(?:\||\Z|\n[ \t]*\|)
      |[ \t]*[\t\n]\s*(?:\Z|[-|$€£¥₹]|\d(?!\d*/))
      |[ \t]*\n\s*(?=[^\W\d_])(?!"""
    + _MONTH_ALT
    + r"""|of|[ap]\.?m|x|[年년月월]))""",
    re.VERBOSE,
)
"""A plain figure standing as a cell of a row whose cells a tab separates (a PDF's table laid
out, ``_layout.read_layout``; a TSV row), or last on its line: :data:`_SIMPLE`, and also a
figure after which a blank run holding a tab or a line break leads to no character that the
master expression's alternatives could read on from the figure. Those that reach over blanks
are few: over a tab, a multiplier (``x``, ``times``) and an enumerator after ``#`` (a letter
after); over any blank, a date (a month, ``of``, ``年``/``月``), a time (``am``), a mixed
fraction (``1 1/2``), a legal citation (``501 (c)``) and ``24 x 7``. So the figure is the
master's ``num`` with only ``cur`` and ``dec`` where the run ends the text or is followed by a
``|``, a minus, a currency sign or a number that is no fraction's, and, after a line break, by
a letter that starts none of those words (a unit or a scale word after a figure needs a space
at most, never a tab or a line break). As with :data:`_SIMPLE`, a number the master's ``named``
alternative reads (``page 12``) is left to the master (:func:`_plain_cell`)."""


def _simple_number(cur: str | None, dec: str) -> _Parsed:
    """:func:`_number` for a :data:`_SIMPLE` match (currency sign ``cur``, numeral ``dec``)."""
    p = _bare_number(dec)
    if cur is None:
        return p
    unit = _CURRENCY_SYMBOLS[cur]
    return ("number", p[1], unit, f"currency-{unit}", p[1], 1, p[6], p[7], 0)


def _bare_number(dec: str) -> _Parsed:
    """:func:`_number` for a numeral that is the whole match (``16,525``, ``3.5``): no sign,
    currency, scale, unit, bracket or percent sign can be part of it (the common case in tables)."""
    digits = _numeral(dec)
    if "." in digits:
        whole, frac = digits.split(".", 1)
        value = Fraction(int(whole + frac), 10 ** len(frac))
        return (
            "number",
            value,
            None,
            None,
            value,
            1,
            len(frac),
            len((whole + frac).lstrip("0")) or 1,
            0,
        )
    n = int(digits)
    value = Fraction(n)
    flags = F_YEAR if 1900 <= n <= 2100 and "," not in dec else 0
    return ("number", value, None, None, value, 1, 0, len(digits.lstrip("0")) or 1, flags)


_PAIR_WORDS = trie_alternation([*(w for w in _SMALL if w != "zero"), *_TENS, "hundred", "thousand"])
_PAIR_WHOLE = (
    rf"(?:(?:{alternation(merged('frequencies.every'))}) )?"
    rf"(?P<y>\d{{1,3}}(?:,\d{{3}})*|(?:a )?(?:{_PAIR_WORDS}))"
    rf"(?![\w%]|[.,]\d| (?:{alternation(grouped('figure_context', 'rate_units'))})s?(?![\w]))"
)
_SHARE_PAIRS = tuple(
    (f" {pair} ", pair.split()[0].encode(), lazy(f" {re.escape(pair)} {_PAIR_WHOLE}"))
    for pair in merged("shares.pairs")
)
"""The whole of a count out of a whole, after a word of the lexicons' ``shares.pairs``: ``9 out
of 10``, ``one in five``, ``1 in every 4``, ``3 in 4 adults``, ``9 von 10``, ``3 sur 4`` (not
``2 in 2019``, a year; nor ``3 in 10 minutes``, a rate). Each expression starts with its
literal words (the engine skips ahead to them; one that starts with the count is tried at every
position: four times as slow on TAT-QA's passages), and is tried only when the text holds them;
the count is read before them (:data:`_PAIR_COUNT`)."""
_PAIR_COUNT = lazy(rf"(?:^|(?<=[^\w.,$€£¥₹-]))(?P<x>\d{{1,3}}|{_PAIR_WORDS})\Z")
_PAIR_RUNS = frozenset(run for _, run, _ in _SHARE_PAIRS)


def share_pairs(s: str, words: frozenset[bytes]) -> list[tuple[int, int, int, int, Fraction]]:
    """The shares ``s`` (normalised) states as a count out of a whole (:data:`_SHARE_PAIRS`),
    as (start and end of the count, start and end of the whole, the share as a percentage):
    ``one in five`` is 20%, ``9 out of 10`` and ``9 von 10`` 90%. ``words`` are the letter runs
    of ``s``."""
    if words.isdisjoint(_PAIR_RUNS):
        return []
    out: list[tuple[int, int, int, int, Fraction]] = []
    for literal, run, pattern in _SHARE_PAIRS:
        if run not in words or literal not in s:
            continue
        for m in pattern().finditer(s):
            a = m.start()
            count = _PAIR_COUNT().search(s, max(0, a - 10), a)
            if count is None:
                continue
            x, y = _pair_value(count["x"]), _pair_value(m["y"])
            if x is not None and y is not None and 0 < x <= y and y >= 2:
                out.append((*count.span("x"), *m.span("y"), 100 * x / y))
    out.sort()
    return out


def _pair_value(written: str) -> Fraction | None:
    if written[0].isdigit():
        return Fraction(int(written.replace(",", "")))
    return _words_value(written)


_NOT_NUMBERS = lazy(rf"(?:{alternation(merged('not_numbers'), space=_BLANKS)})(?![\w])")
"""Phrases that open with a number word and hold no number (the lexicons' ``not_numbers``:
Dutch ``ten opzichte van``)."""


def _words(m: re.Match[str]) -> _Parsed | None:
    if _NOT_NUMBERS().match(m.string, m.start()) is not None:
        return None
    phrase = m.group()
    cut = len(phrase)
    for name in ("wpar", "wpct", "wunit", "wopq"):
        if m[name] is not None:
            cut = min(cut, m.start(name) - m.start())
    head = phrase[:cut]
    head = re.sub(r"[ \t]*\($", "", head.rstrip()).rstrip()
    value = _words_value(head)
    if value is None:
        return None
    if m["wpar"] is not None:
        try:
            if _dec(m["wpar"].rstrip(".,")) != value:
                return None
        except ValueError:
            return None
    if head == "one" and m["wunit"] is None and m["wpct"] is None and m["wpar"] is None:
        return None  # "one" alone is usually a pronoun ("one of", "the one that")
    sig = len(str(value.numerator).rstrip("0")) or 1
    if m["wpct"]:
        if m["wbp"]:  # "fifty basis points": half a percentage point
            return ("number", value / 100, "%", "percent", value / 100, 1, 2, sig, 0)
        return ("number", value, "%", "percent", value, 1, 0, sig, 0)
    unit, dim, factor = _unit_info(m["wunit"], m["wden"], m["wopq"])
    return ("number", value, unit, dim, value * factor, 1, 0, sig, 0)


_DIGIT_RUN = re.compile(r"[\d$€£¥₹]+")
_STARTER_WORDS = frozenset(
    w.encode()
    for w in (
        *_SMALL,
        *_TENS,
        *_EN.words,
        *_SCALE_WORDS,
        "half",
        *_MULTIPLICATIVES,
        *_CLOCK_WORDS,
        *_MONTHS,
        *(w.rstrip(".") for w in _WRITTEN_SIGNS),
    )
)
"""The letter runs a quantity in words may start with (a number word, ``half``, ``twice``,
``noon``, a month, a currency written out)."""
_A_SCALE = {w: f"a {w}" for w in (*_EN.words, *_SCALE_WORDS)}
_UNIT_AND_A_HALF = lazy(_UNIT_AND_A_HALF_SOURCE)
_FRACTION_RUNS = frozenset(d.encode() for d in _DENOMINATORS_ONE)
_LINE_PREFIX_CHARS = " \t-*•·("
_FOREIGN_KEYS = frozenset(k.encode() for k in FOREIGN_FIRST_WORDS)


def _wordlike(ch: str) -> bool:
    """A letter of a script that separates words by spaces."""
    return ch.isalpha() and (ch.isascii() or not no_space(ch))


def _word_char_before(s: str, pos: int) -> bool:
    """Whether a character of :data:`_W` (a word character of a script written with spaces)
    stands right before ``pos``: the ``(?<!_W)`` every master expression starts with, tested
    here rather than in the expression (see :func:`_master`). A word character is what ``\\w``
    matches: a letter or digit (``str.isalnum``, as Python's engine reads it) or ``_``."""
    if not pos:
        return False
    ch = s[pos - 1]
    if ch.isascii():
        return ch.isalnum() or ch == "_"
    return ch.isalnum() and not no_space(ch)


def _candidates(s: str, words: frozenset[bytes]) -> list[int]:
    """Positions where a quantity, date or identifier may start (a fast pre-filter).

    Trying the full master expression at every position is slow in Python's regex engine, so
    digit runs are found with one character-class pass, number words and month names through
    the set of ASCII letter runs of the text, and the master expression is tried only there.
    """
    out: list[int] = []
    add = out.append
    n = len(s)
    for m in _DIGIT_RUN.finditer(s):
        p, e = m.span()
        prev = s[p - 1] if p else " "
        if prev == " ":  # the common case
            add(p)
        elif _wordlike(prev) or (prev == "-" and p > 1 and _wordlike(s[p - 2])):
            q = p - 1 if prev != "-" else p - 2
            while q > 0 and _wordlike(s[q - 1]):
                q -= 1
            add(q)
            if q and s[q - 1] in "-+(":
                add(q - 1)  # "-US$773", "(US$773)", "-RMB5": a sign or bracket, a currency
            if prev == "-" and q > 0:
                k = q - 1
                while k > 0 and q - k <= 2 and s[k] in " °":  # "2°C-8°C", "5 kg-10 kg"
                    k -= 1
                if "0" <= s[k] <= "9":
                    add(p)  # "9am-5pm", "10k-20k": the word before the hyphen ends a figure
            continue
        else:
            if prev in "-+.(":
                add(p - 1)
                if prev == "(" and p > 1 and s[p - 2] in "$€£¥₹":
                    add(p - 2)
                elif prev == "(" and p > 2 and s[p - 2].isalpha():
                    q = p - 2  # "RMB(62)", "RM(62)": a currency glued to the bracket
                    while q and s[q - 1].isalpha() and p - q < 5:
                        q -= 1
                    add(q)
            elif prev == "'" and s[p - 3 : p - 1] in ("fy", "cy"):  # "FY'19"
                add(p - 3)
            add(p)
        if e < n and s[e] in ".)" and _at_line_start(s, p):
            add(s.rfind("\n", max(0, p - 9), p) + 1)
    for wb in words & _STARTER_WORDS:
        w = wb.decode()
        for needle in (w, _A_SCALE[w]) if w in _A_SCALE else (w,):
            _find_all(s, needle, add)
    if b"a" in words:
        for wb in words & _FRACTION_RUNS:  # "a third of", "a quarter of"
            _find_all(s, f"a {wb.decode()}", add)
        if b"half" in words and b"and" in words:  # "a year and a half"
            for m in _UNIT_AND_A_HALF().finditer(s):
                add(m.start())
    return sorted(set(out))


def _find_all(s: str, needle: str, add: Callable[[int], None]) -> None:
    """Add every position of ``needle`` in ``s`` that starts a word, and a sign or an opening
    bracket right before it (``-Rs. 500``, ``(Rs. 500)``: an accounting negative)."""
    i = s.find(needle)
    while i >= 0:
        if i == 0 or not (s[i - 1].isalnum() or s[i - 1] == "-"):
            add(i)
        if i and s[i - 1] in "-+(" and (i == 1 or not s[i - 2].isalnum()):
            add(i - 1)
        i = s.find(needle, i + 1)


def _at_line_start(s: str, p: int) -> bool:
    """Whether only blanks, bullets or an opening parenthesis precede ``p`` on its line
    (looking back at most 9 characters: the test stays constant-time on long lines)."""
    lo = max(0, p - 9)
    nl = s.rfind("\n", lo, p)
    if nl < 0 and lo > 0:
        return False
    start = nl + 1
    return p - start <= 8 and not s[start:p].strip(_LINE_PREFIX_CHARS)


_URL_SOURCE = r"(?:https?://|www\.|tel:|mailto:)[^\s<>\"')\]]+"
_URL = lazy(_URL_SOURCE + r"|[\w.+-]+@[\w-]+\.[\w.-]+")
_URL_NO_MAIL = re.compile(_URL_SOURCE)
"""``_URL`` for a text without ``@``: the e-mail alternative, which starts with a letter run,
cannot match, and without it the engine skips ahead to the literal starts (several times faster)."""


def _spaced_glued(field: str) -> tuple[str, str]:
    """The words of the lexicons' list ``field`` as two tries (:func:`by_spacing`): those of
    spaced scripts, and those of scripts without spaces (``下降``, ``減少``, ``감소``: found
    inside a run of text)."""
    spaced, glued = by_spacing(merged(field))
    return trie_alternation(spaced), trie_alternation(glued)


@functools.cache
def _decrease_sources() -> tuple[str, str, str]:
    """The sources of :data:`_DECREASE_BEFORE`, :data:`_DECREASE_BEFORE_GLUED` and
    :data:`_DECREASE_AFTER`, written on the first text that needs one (their tries of the
    lexicons' words cost every process about 1 ms at import otherwise)."""
    verbs, glued_verbs = _spaced_glued("decrease_verbs")
    words, glued_words = _spaced_glued("decrease_words")
    after, glued_after = _spaced_glued("decrease_after")
    spaced = rf"(?<![\w])(?:(?P<verb>{verbs})|{words})"
    tail = (
        rf"{BETWEEN_CHANGE_AND_FIGURE}"
        rf"(?:\s+(?P<by>{alternation(merged('derivation.change_links'), space=_BLANKS)})"
        rf"|\s+(?P<was>{alternation(grouped('figure_context', 'decrease_links'), space=_BLANKS)}))?"
        rf"(?:\s+(?:{alternation(merged('derivation.change_hedges'), space=_BLANKS)}))?\s*$"
    )
    return (
        rf"{spaced}(?P<gverb>(?!))?{tail}",
        rf"(?:{spaced}|(?P<gverb>{glued_verbs})|{glued_words}){tail}",
        rf"[ \t]+(?:{after})(?![\w-])|[ \t]*(?:{glued_after})",
    )


_DECREASE_BEFORE = lazy(lambda: _decrease_sources()[0])
"""A word of decrease right before a figure, where words are spaced (``fell 5%``, ``sank um 5
%``): the expression opens with its look-behind, so the engine tries its words only at word
starts."""
_DECREASE_BEFORE_GLUED = lazy(lambda: _decrease_sources()[1])
"""The same, and the words of scripts without spaces anywhere (``同比下降5%``): for a figure
after a character outside ASCII (trying the glued words at every position costs 3% of a scan
of OpenGATE's English texts)."""
_DECREASE_AFTER = lazy(lambda: _decrease_sources()[2])
"""A decrease stated by a noun after its figure (``a 6% decrease``, ``a $3,015 decline``, ``6%
lower``, ``5%減少``)."""
_MINUS_BEFORE = re.compile(r"\d\)?\s+[-+]\s+$")
_OPERATOR_AFTER = lazy(r"\s*\)?\s*(?:[x×*/÷]\s*[\d(]|=)")
_CONSTANTS = frozenset((1, 2, 3, 4, 5, 6, 10, 12, 100, 1000))
"""Formula constants, as integers (compared with a value's numerator when its denominator is 1:
hashing a Fraction is comparatively slow)."""
_COUNT_AFTER = re.compile(
    rf"\s+(?:(?:{alternation(grouped('figure_context', 'count_adjectives'))})\s+)?"
    rf"(?:{alternation(grouped('figure_context', 'count_nouns'), space=_BLANKS)})\b"
)
_COUNT_BEFORE = lazy(
    rf"(?:{alternation(grouped('figure_context', 'count_before'), space=_BLANKS)})"
    rf"(?:\s+(?:{alternation(grouped('figure_context', 'count_before_periods'))}))?\s+$"
)
"""Words before a count of things the context lists: ``the two figures``, ``both years``, ``over
the past three years`` (the years of its table)."""
_ORDINAL_HALF = lazy(rf"(?:{alternation(_HALF_ORDINALS)})\s+$")


def _in_table_line(s: str, start: int) -> bool:
    """Whether the line of ``start`` has cell separators before it (``Net loss | 5,022``)."""
    ls = s.rfind("\n", max(0, start - 200), start) + 1
    return "|" in s[ls:start] or "\t" in s[ls:start]


_ROW_TAIL = compiled(r"[\s\d,.$()%\u2014\u2013-]*")
"""What may follow a cell on its line in a row whose cells are apart by spaces (as pypdf
extracts a statement: ``Interest expense (290) (2.0) (159) (1.1)``): other cells only."""
_CELL_BEFORE = compiled(r"\d\)?\s*%?\s*$")


def _is_cell(s: str, start: int, end: int) -> bool:
    """Whether ``[start, end)`` stands as a table cell: its line has ``|`` or a tab, it is the
    whole line, or it is one of the cells that end a row apart by spaces (another cell beside
    it and nothing but cells after it)."""
    ls = s.rfind("\n", 0, start) + 1
    le = s.find("\n", end)
    if le < 0:
        le = len(s)
    line = s[ls:le]
    if "|" in line or "\t" in line:
        return True
    head, tail = s[ls:start], s[end:le]
    if not (head.strip() or tail.strip()):
        return True
    return _ROW_TAIL.fullmatch(tail) is not None and (
        any(c.isdigit() for c in tail) or _CELL_BEFORE.search(head) is not None
    )


_APPROX_WORDS = merged("approximations")
"""Words before a figure that make it an approximation (on the normalised text)."""


def _ends_with_word(before: str, words: tuple[str, ...]) -> bool:
    """Whether ``before`` ends with one of ``words`` as a word of its own (``~`` and ``≈`` need
    none)."""
    if not before.endswith(words):
        return False
    w = next(w for w in words if before.endswith(w))
    k = len(before) - len(w)
    return k == 0 or w in ("~", "≈") or not before[k - 1].isalpha()


_ABOVE_WORDS = merged("bounds_above")
_BELOW_WORDS = merged("bounds_below")
"""Words before a figure that make it a bound (``more than 10,000`` for 10,500)."""
_BOUND_WORDS = (*_ABOVE_WORDS, *_BELOW_WORDS)
_BOUNDS_LONGEST_FIRST = sorted(
    [(w, True) for w in _ABOVE_WORDS] + [(w, False) for w in _BELOW_WORDS],
    key=lambda pair: -len(pair[0]),
)


def _bound_flag(before: str) -> int:
    """``F_ABOVE`` or ``F_BELOW`` for the longest bound phrase ``before`` ends with, as words of
    its own (``no more than`` is an upper bound, though it ends with ``more than``), else 0."""
    for phrase, above in _BOUNDS_LONGEST_FIRST:
        if before.endswith(phrase):
            k = len(before) - len(phrase)
            if k == 0 or not before[k - 1].isalpha():
                return F_ABOVE if above else F_BELOW
    return 0


_OPERATOR_END = frozenset("x×*/÷(^")
_RATIO_TO_BEFORE = lazy(
    r"(?<![\w])ratios?(?![\w])(?:[^.;\n]|\.(?=\d)){0,50}?(?<!from )(?<![\d.,])\d(?:[\d,]*\d)?"
    r"(?:\.\d+)?x?\s*(?::|to)\s*\Z"
)


def _ratio_to_one(s: str, start: int, before: str) -> bool:
    """Whether the ``1`` at ``start`` closes a ratio written ``1.5:1`` or, after the word
    ``ratio``, ``1.5 to 1`` (notation, not a claim; ``from 5 to 1`` is a change); ``before``
    is the text before it, stripped."""
    if start >= 2 and s[start - 1] == ":" and s[start - 2].isdigit():
        return True
    return (
        before.endswith((":", "to"))
        and _RATIO_TO_BEFORE().search(s, max(0, start - 80), start) is not None
    )


_LAST_OF_INTEREST = frozenset("=x×*/÷(+-~≈^")
"""Characters before a number that may set a flag (besides letters)."""
_FIRST_AFTER_OF_INTEREST = frozenset(")=+*/×÷x")
"""First characters after a number (spaces skipped) that may set a flag."""
_OPERATOR_WORDS = ("by", "times", "over")
_OPERATOR_WORD_BEFORE = lazy(r"(?:(?:divid|multipl)[a-z]*\s+by|[\d)%]\s*(?:times|over))$")
"""An operator in words, as working writes it: ``divided by 2``, ``multiply by 100``, ``14 times 3``, ``(a - b) over
b``; a bare ``by``/``over`` is running text (``rose by 12``, ``over 100 customers``)."""


_IDENTITY_VERB = r"(?:is\s+equal\s+to|is\s+equivalent\s+to|equals|is|=)"
_SCALE_VALUES = {w: _SCALES[w] for w in _SCALE_WORDS}
"""The English scale words of number words (the lexicon's) with their multipliers."""
_SCALE_POWERS = frozenset(_SCALE_VALUES.values())
_SCALE_IDENTITY_BEFORE = compiled(rf"\b(?:one|1)\s+(?P<word>{_SCALE_ALT})\s+{_IDENTITY_VERB}$")
_SCALE_IDENTITY_AFTER = compiled(
    rf"\s+{_IDENTITY_VERB}\s+(?P<n>\d{{1,3}}(?:,\d{{3}})*|\d+)\s+(?P<word>{_SCALE_ALT})\b"
)


def _is_scale_identity(before: str, s: str, end: int, value: Fraction) -> bool:
    """Whether a figure is one side of a definition of a scale word by another (``1 billion is
    equal to 1,000 million``, ``1 million = 1,000 thousand``): the conversion an answer's
    working states, no claim about the context."""
    if value.denominator != 1 or value.numerator not in _SCALE_POWERS:
        return False
    m = _SCALE_IDENTITY_BEFORE.search(before)
    if m is not None:
        return value == _SCALE_VALUES[m["word"]]
    m = _SCALE_IDENTITY_AFTER.match(s, end)
    return m is not None and value == int(m["n"].replace(",", "")) * _SCALE_VALUES[m["word"]]


def _ends_with_year(before: str) -> bool:
    """Whether ``before`` (stripped) ends with a year standing alone (``fell in 2023``)."""
    return is_year(before[-4:]) and not before[-5:-4].isalnum()


_OPERAND_ENDS = frozenset("0123456789)]%")
"""What an operand of working ends with: a ``**`` after one is a power (``(a / b) ** 0.5``)."""


def _is_power(before: str) -> bool:
    """Whether the ``**`` that ends ``before`` raises an operand to a power (``(a / b) **``,
    ``1.05**``), not Markdown's bold opening before a figure (``was **2,605**``)."""
    return before[:-2].rstrip()[-1:] in _OPERAND_ENDS  # "" (nothing before) is none


def _flags_in_context(
    s: str, start: int, end: int, group: str, p: _Parsed, decrease_words: bool
) -> int:
    """Flags that depend on the words around a number (sign words, working, counting).

    Cheap character tests come first: most numbers have none of these around them."""
    before = s[max(0, start - 40) : start].rstrip()
    last = before[-1:]
    # a year right before the figure may follow its change word ("fell in 2023 5%"): the word
    # before the year decides as a letter would
    worded = last.isalpha() or (last.isdigit() and _ends_with_year(before))
    if group == "num" and last not in _LAST_OF_INTEREST and not worded:
        if last == ":" and p[1] == 1 and _ratio_to_one(s, start, before):
            return F_CONSTANT  # "1.5:1"
        # no word or operator before it: only an operator after it can set a flag
        after = s[end : end + 40].lstrip()
        if after:
            if after[0] not in _FIRST_AFTER_OF_INTEREST:
                return 0
        elif end + 40 >= len(s):
            return 0
    flags = 0
    if (last.isalpha() or last in "~≈.") and _ends_with_word(before, _APPROX_WORDS):
        flags |= F_APPROX
    if last.isalpha() and before.endswith(_BOUND_WORDS):
        flags |= _bound_flag(before)
    if decrease_words and worded:
        word_end = last if last.isalpha() else before[:-4].rstrip()[-1:]
        pattern = (_DECREASE_BEFORE if word_end.isascii() else _DECREASE_BEFORE_GLUED)()
        m = change_word_before(s, start, lambda lo: pattern.search(s[lo:start].rstrip() + " "))
        if m is not None:
            flags |= F_DECREASE
            # "decreased by 5,022", and a verb of change with its amount ("revenue fell 5%",
            # "down 3%"): the change is the negative figure
            verb = m["verb"] or m["gverb"]
            if (m["by"] or (verb and not m["was"])) and not _in_table_line(s, start):
                flags |= F_CHANGE
    if decrease_words and not flags & F_DECREASE and _DECREASE_AFTER().match(s, end):
        flags |= F_DECREASE  # "a 6% decrease", "6% lower": the decrease a noun after it states
    if last == "=":
        flags |= F_RESULT
    elif (last == "^" or (before.endswith("**") and _is_power(before))) and p[2] is None:
        flags |= F_CONSTANT  # an exponent of working ("^(1/3)", "** 2"): no claim
    value = p[1]
    # the value as an integer, read once (a Fraction's numerator and denominator are properties)
    whole = value.numerator if value.denominator == 1 else None
    if whole == 100 and p[2] == "%" and last in "*×":
        flags |= F_CONSTANT  # "[(a - b) / b] * 100%": the constant of a percentage formula
    elif (
        whole in _CONSTANTS
        and p[2] is None
        and not p[8] & F_OWN_SCALE
        and (
            (last in _OPERATOR_END and not (last == "x" and before[-2:-1].isalpha()))
            or (
                last.isalpha()
                and before.endswith(_OPERATOR_WORDS)
                and _OPERATOR_WORD_BEFORE().search(before) is not None
            )
            or (whole == 100 and _OPERATOR_AFTER().match(s, end) is not None)
            or (whole == 1 and last != "" and last in "-+")
            or (whole == 1 and _ratio_to_one(s, start, before))
        )
    ):
        flags |= F_CONSTANT
    if whole in _SCALE_POWERS and _is_scale_identity(before, s, end, value):
        flags |= F_CONSTANT  # "(since 1 billion is equal to 1,000 million)": a definition
    if group == "num" and (
        (last != "" and last in "(=+*/×÷^")
        or (end < len(s) and _WORKING_AFTER.match(s, end) is not None)
        or (last != "" and last in "-+" and _MINUS_BEFORE.search(before + " ") is not None)
    ):
        flags |= F_OPERAND
    if group != "num" or (p[7] <= 2 and p[6] == 0 and p[2] is None):  # _count_flags' figures
        flags |= _count_flags(s, end, group, p, before)
    return flags


def _count_flags(s: str, end: int, group: str, p: _Parsed, before: str) -> int:
    """:data:`F_COUNT` for a number that counts the context's items (``the two figures``, ``over
    the three years shown``, ``the second half``), else 0."""
    last = before[-1:]
    value = p[1]
    flags = 0
    if group == "half" or group == "shalf":
        if last.isalpha() and _ORDINAL_HALF().search(before + " ") is not None:
            flags |= F_COUNT
    elif (
        (group == "words" or (group == "num" and p[7] <= 2 and p[6] == 0))
        and value.denominator == 1
        and value.numerator <= 12
        and p[2] is None
        and _COUNT_AFTER.match(s, end) is not None
        and (
            group == "words"
            or (last.isalpha() and _COUNT_BEFORE().search(before + " ") is not None)
        )
    ):
        flags |= F_COUNT
    elif (
        group == "words"
        and p[2] in ("year", "quarter")
        and s[end - 1] == "s"  # "the two years", not "the two-year period" (a claim)
        and value.denominator == 1
        and value.numerator <= 12
        and last.isalpha()
        and _COUNT_BEFORE().search(before + " ") is not None
    ):
        # "over the two years", "of the three years shown", "over the past three years": the
        # years the context lists, as "the two figures" are its figures ("over 3 years", "for
        # three years" are durations)
        flags |= F_COUNT
    return flags


_DECREASE_ALL = (*merged("decrease_verbs"), *merged("decrease_words"), *merged("decrease_after"))
_DECREASE_WORDS = key_runs(_DECREASE_ALL)
"""The longest letter run of each word that states a decrease (:func:`key_runs`: ``baiss`` of
``baissé``, ``moins`` of ``de moins``): a text without one (nor one of :data:`_DECREASE_GLUED`)
states none."""
_DECREASE_GLUED = lazy(trie_alternation(w for w in _DECREASE_ALL if not letter_runs(w)))
"""The words of a decrease without a letter run (``下降``, ``減少``, ``감소``): looked for in a
text that is not ASCII (one expression: a test of each word as a substring costs 3% of a
scan of OpenGATE's texts, which hold a degree sign or a curly quote)."""


def _may_state_decrease(s: str, words: frozenset[bytes]) -> bool:
    """Whether normalised ``s`` (its letter runs ``words``) holds a word that may state a
    decrease (:data:`_DECREASE_WORDS`, :data:`_DECREASE_GLUED`)."""
    if not words.isdisjoint(_DECREASE_WORDS):
        return True
    return not s.isascii() and _DECREASE_GLUED().search(s) is not None


_NEGATIVE_WORDS = merged("negative_words")
_NEGATIVE_ENDINGS = tuple(f"{w} " for w in _NEGATIVE_WORDS)
"""What the text before a figure ends with when a word of the lexicons' ``negative_words``
stands there (a test cheaper than :data:`_SIGN_WORD`)."""
_SIGN_WORD = re.compile(rf"(?<![\w-])(?:{alternation(_NEGATIVE_WORDS)}) \Z")
_SIGN_WORD_AFTER = re.compile(rf"(?:[\d%)]|\b(?:{alternation(merged('negative_operators'))}))\s*\Z")


def _sign_word(
    s: str, start: int, value: Fraction, base: Fraction
) -> tuple[int, Fraction, Fraction]:
    """A figure after a word of the lexicons' ``negative_words`` standing as its sign (``minus
    20 degrees``, ``negative 3%``): its start, value and base value, negated, or as they were
    when the word is an operator (after a figure or a word of ``negative_operators``: ``5 minus
    3``, ``plus or minus 2%``) or is none."""
    m = _SIGN_WORD.search(s, max(0, start - 10), start)
    if m is None or _SIGN_WORD_AFTER.search(s, max(0, m.start() - 12), m.start()) is not None:
        return start, value, base
    return m.start(), -value, -base


def _period_languages() -> list[tuple[dict[str, int], frozenset[str], tuple[str, ...], bool]]:
    """Per lexicon with ordinals and words of a quarter or a half (``period_ordinals``,
    ``period_quarters``, ``period_halves``): its ordinals with their numbers, its words of a
    quarter, all its words, and whether they are written glued (a script without spaces)."""
    out = []
    for lang in LANGUAGES:
        lex = lexicon(lang)
        words = (*lex.period_quarters, *lex.period_halves)
        if lex.period_ordinals and words:
            ordinals = {w: int(n) for n, ws in lex.period_ordinals.items() for w in ws}
            out.append((ordinals, frozenset(lex.period_quarters), words, no_space(words[0][0])))
    return out


_PERIOD_LANGUAGES = _period_languages()
_PERIOD_NAME = lazy(
    "|".join(
        (
            rf"(?<![\d.,])(?P<o{i}>{alternation(ordinals)})(?P<w{i}>"
            if glued
            else rf"(?<![\w.])(?P<o{i}>{alternation(ordinals)})[ \t]*(?P<w{i}>"
        )
        + alternation(words, space=r"[ \t]+")
        + (")" if glued else r")(?![\w])")
        for i, (ordinals, _q, words, glued) in enumerate(_PERIOD_LANGUAGES)
    )
)
"""A quarter or a half named by its ordinal in a lexicon's words (``troisième trimestre``,
``3. Quartal``, ``3e kwartaal``, ``第3四半期``, ``三季度``, ``3분기``): each language's ordinals
with its own words (French ``1 trimestre`` is a duration, not Chinese ``1`` before a quarter)."""
_PERIOD_NAME_RUNS = key_runs(
    w for _o, _q, words, glued in _PERIOD_LANGUAGES if not glued for w in words
)
_PERIOD_GLUED = tuple(w for _o, _q, words, glued in _PERIOD_LANGUAGES if glued for w in words)


_PERIOD_LETTERS = {kind: merged(f"period_letters.{kind}") for kind in ("quarter", "half")}
_LETTERED_PERIOD = lazy(
    r"(?<![\w.,])(?:(?P<q>[1-4])(?:"
    + (alternation(_PERIOD_LETTERS["quarter"]) or "(?!)")
    + r")(?P<year>'?\d\d(?:\d\d)?)?|(?P<h>[12])(?:"
    + (alternation(_PERIOD_LETTERS["half"]) or "(?!)")
    + r")(?:(?P<year2>'?\d\d(?:\d\d)?)|(?=[ \t]+(?:fy|cy)?'?(?:19|20)\d\d(?![\w%]|[.,]\d))))(?![\w])"
)
"""A quarter or a half named by its number and a letter glued after it (the lexicons'
``period_letters``): ``3q``, ``4q23``, ``3q2023``, and a half with its year only (``2h
2023``, ``1h23``; ``2h`` alone is two hours). A year glued to it is an identifier of its own,
as ``cy23`` reads (2023); a year after a space stays a figure."""
_LETTERED_RUNS = frozenset(w.encode() for ws in _PERIOD_LETTERS.values() for w in ws)


def period_names(s: str, words: frozenset[bytes]) -> list[tuple[int, int, str, bool]]:
    """The quarters and halves normalised ``s`` (its letter runs ``words``) names by an
    ordinal (:data:`_PERIOD_NAME`) or by a number and a letter (:data:`_LETTERED_PERIOD`):
    ``(start, end, identifier, written with a digit)``, in text order, the identifier as
    ``Q3`` reads (``q3``, ``h1``)."""
    out = []
    if not words.isdisjoint(_PERIOD_NAME_RUNS) or (
        not s.isascii() and any(w in s for w in _PERIOD_GLUED)
    ):
        for m in _PERIOD_NAME().finditer(s):
            i = int(str(m.lastgroup)[1:])
            ordinals, quarters, _words, _glued = _PERIOD_LANGUAGES[i]
            ordinal, word = m[f"o{i}"], re.sub(r"[ \t]+", " ", m[f"w{i}"])
            kind = "q" if word in quarters else "h"
            digit = any(ch.isdigit() for ch in ordinal)
            out.append((m.start(), m.end(), f"{kind}{ordinals[ordinal]}", digit))
    if not words.isdisjoint(_LETTERED_RUNS):
        for m in _LETTERED_PERIOD().finditer(s):
            name = f"q{m['q']}" if m["q"] else f"h{m['h']}"
            group = "year" if m["year"] else "year2" if m["year2"] else None
            if group is None:
                out.append((m.start(), m.end(), name, True))
                continue
            # "4q23": the quarter, then the year as a fiscal year's "fy23" names it
            out.append((m.start(), m.start(group), name, True))
            out.append((m.start(group), m.end(), "cy" + m[group].lstrip("'"), True))
        out.sort()
    return out


def _period_idents(
    names: list[tuple[int, int, str, bool]], raws: list[_Raw], idents: list[Ident]
) -> None:
    """Put an identifier (``q3``) in place of the figures and identifiers read in each period
    name of ``names`` (``3`` of ``第3四半期``, ``3e`` of ``3e trimestre``): a name, no quantity,
    checked as ``Q3`` is (its number only when written with a digit)."""
    spans = [(start, end) for start, end, _text, _digit in names]  # in text order
    starts = [start for start, _end in spans]

    def inside(a: int, b: int) -> bool:
        k = bisect_right(starts, a) - 1  # the last name starting at or before a
        if k >= 0 and spans[k][1] > a:
            return True
        return k + 1 < len(spans) and spans[k + 1][0] < b

    raws[:] = [r for r in raws if not inside(r.start, r.end)]
    kept = [d for d in idents if not inside(d.start, d.end)]
    kept.extend(
        _ident(text, start, end) if digit else Ident(text, start, end, None)
        for start, end, text, digit in names
    )
    idents[:] = sorted(kept, key=lambda d: d.start)


def scan(text: str | NormalizedText) -> Scan:
    """Find every quantity and identifier in ``text`` (normalised here unless already done).

    Linear in the length of the text: every candidate position is tried once, left to right,
    and each distinct candidate text is parsed once per call (no memo survives the call)."""
    norm = text if isinstance(text, NormalizedText) else normalize(text)
    words = letter_runs(norm.text)
    raws, idents = _read_candidates(norm, words)
    _read_special_forms(norm, words, raws)
    names = period_names(norm.text, words)
    if names:
        _period_idents(names, raws, idents)
    separators = _merge_ranges(norm.text, raws)
    return _scan_of(norm, words, raws, idents, separators)


_APPOSITION = lazy(
    lambda: (
        r"(?:[ \t]+(?:(?:de|di|van|of)[ \t]+)?(?:"
        + alternation(tuple(currency_of()), space=r"[ \t]+")
        + r"))?[ \t]*(?:,[ \t]*(?:"
        + (alternation(merged("derivation.apposition_links"), space=r"[ \t]+") or "(?!)")
        + r")[ \t]+|\([ \t]*)"
    )
)
"""What stands between a figure and the percentage that restates it (``, or``, ``, also``,
``(``): the lexicons' ``derivation.apposition_links`` after a comma, or a bracket; the
figure's currency named after it may come first (``3,7 millones de euros, o 19,1 %``)."""


def _apposed_changes(s: str, raws: list[_Raw]) -> None:
    """Give a percentage that restates a decrease the figure before it states (``fell by $3.2
    million, or 11.1%, to``, ``sank um 3,2 Mio. €, also 11,1 %``, ``fell $3.2 million
    (11.1%)``) that figure's decrease and change flags: the same change, as a percentage
    (:data:`_APPOSITION` between them). In place; a signed or flagged percentage is left."""
    for k in range(1, len(raws)):
        before, raw = raws[k - 1], raws[k]
        flags = before.meta[3] & (F_DECREASE | F_CHANGE)
        if (
            flags & F_DECREASE
            and raw.unit == "%"
            and before.unit != "%"
            and raw.value > 0
            and not raw.meta[3] & F_DECREASE
            and _APPOSITION().fullmatch(s, before.end, raw.start) is not None
        ):
            mult, decimals, sig, own = raw.meta
            raws[k] = replace(raw, meta=(mult, decimals, sig, own | flags))


def _read_candidates(
    norm: NormalizedText, words: frozenset[bytes]
) -> tuple[list[_Raw], list[Ident]]:
    """The quantities and identifiers that start at :func:`_candidates`' positions, left to
    right, each candidate's text parsed once (a table cell's plain figure through
    :func:`_cell_readers`' expression, anything else through the master expression of its
    first character)."""
    s = norm.text
    raws: list[_Raw] = []
    idents: list[Ident] = []
    last_end = 0
    memo: _Parses = {}
    decrease_words = _may_state_decrease(s, words)
    # the master expression of each first character but a-z (whose depends on what follows),
    # looked up on the first candidate that needs it (see _master_for)
    by_char: dict[str, re.Pattern[str]] = {}
    digit_kind = "digit" if words.isdisjoint(_NAMED_RUNS) else "named"
    m: re.Match[str] | None
    simple, named = _cell_readers(s, digit_kind)
    day_first: bool | None = None
    for cand in _outside(_candidates(s, words), _url_spans(s)):
        if cand < last_end:
            continue
        ch = s[cand]
        if simple is not None and (sm := _plain_cell(simple, named, s, cand, ch)) is not None:
            # a table cell's plain figure: what the master finds, at a fraction of the cost
            start, end = sm.span()
            last_end = end
            group, written, m = "num", sm.group(), None
            p = _cell_figure(sm, written, memo, idents)
        elif _word_char_before(s, cand):  # the master expression's (?<!_W): see _master
            continue
        else:
            if (master := by_char.get(ch)) is None:
                master = _master_at(s, cand, ch, digit_kind)
                if not "a" <= ch <= "z":
                    by_char[ch] = master
            if (m := master.match(s, cand)) is None:
                continue
            last_end = m.end()
            group = m.lastgroup or "skip"
            if group in _NO_FIGURE_GROUPS:
                continue
            start, end = m.span()
            written = m.group()
            if group == "sdate" and day_first is None:  # the text's convention, decided once
                day_first = "/" in s and _DAY_FIRST().search(s) is not None
            p = _master_figure(norm, m, group, written, cand, bool(day_first), memo, idents)
        if p is None:
            continue
        if (
            group == "num"
            and p[2] is None
            and start >= 2
            and s[start - 1] == " "
            and s[start - 2].isalpha()
        ):
            start, end, p, ident = _after_acronym(norm, start, end, written, p)
            if ident is not None:
                idents.append(ident)
                last_end = max(last_end, ident.end)  # "FY 2023-24" ends after "-24"
                continue
        if m is not None and p[2] == "usd" and s[start] == "$" and "$" in s[end - 1 : end + 3]:
            start, end, p = _latex_math(s, start, end, p)
        kind, value, unit, dim, base, mult, decimals, sig, flags = p
        if (
            flags & F_PAREN
            and kind == "number"
            and m is not None
            and _accounting(s, m, start, end, mult, value)
        ):
            value, base = -value, -base
        if s.endswith(_NEGATIVE_ENDINGS, 0, start) and value > 0:
            start, value, base = _sign_word(s, start, value, base)
        flags |= _flags_in_context(s, start, end, group, p, decrease_words)
        raws.append(_Raw(kind, value, unit, dim, base, start, end, (mult, decimals, sig, flags)))
    if decrease_words:  # no decrease word: no figure states a decrease a percentage restates
        _apposed_changes(s, raws)
    return raws, idents


_NAMED_LAST = frozenset(w[-1] for w in (*_CITE_LABELS, *_PAGE_LABELS, *_INDEX_NAMES))
"""The last characters of the labels and names after which the master's ``named`` alternative
reads a number (``page 12``, ``note 7``, ``S&P 500``): its look-behinds end in one of them and a
blank."""
_NAMED_ONLY = lazy(_ALTERNATIVES["named"], re.VERBOSE | re.MULTILINE)
"""The master's ``named`` alternative alone (:func:`_plain_cell`)."""


def _plain_cell(
    simple: re.Pattern[str], named: re.Pattern[str] | None, s: str, cand: int, ch: str
) -> re.Match[str] | None:
    """The match of a table cell's plain figure at ``cand`` (its first character ``ch``) by
    ``simple`` (:func:`_cell_readers`), or ``None``: none there, or a number the master's
    ``named`` alternative (``named``: :data:`_NAMED_ONLY`, ``None`` where the text names no
    source nor index) reads as a place in a source or an index's name (``page 12``, ``S&P
    500``), tried only where such a label or name can end two characters before."""
    if not ("0" <= ch <= "9" or ch in _CURRENCY_SYMBOLS):
        return None
    sm = simple.match(s, cand)
    if (
        sm is not None
        and named is not None
        and cand >= 2
        and s[cand - 2] in _NAMED_LAST
        and named.match(s, cand) is not None
    ):
        return None
    return sm


def _cell_readers(s: str, digit_kind: str) -> tuple[re.Pattern[str] | None, re.Pattern[str] | None]:
    """The expression of a table cell's plain figure for text ``s`` (:data:`_SIMPLE_ROW` where
    a tab separates cells, :data:`_SIMPLE` where a ``|`` does, else none: the master does as
    well) and, where ``digit_kind`` is ``named``, the master's ``named`` alternative that
    :func:`_plain_cell` tries before it."""
    if "\t" in s:  # a PDF's table laid out, a TSV row
        simple: re.Pattern[str] | None = _SIMPLE_ROW()
    else:
        simple = _SIMPLE() if "|" in s else None
    return simple, None if digit_kind == "digit" or simple is None else _NAMED_ONLY()


_Parses = dict[tuple[str, str, bool], _Parsed | None]
"""The parse of each distinct candidate text of one scan: (group, text, upper) -> parse."""


def _outside(positions: list[int], spans: list[tuple[int, int]]) -> list[int]:
    """``positions`` (ascending) that lie in none of ``spans`` (ascending, disjoint)."""
    if not spans:
        return positions
    out = []
    u = 0
    for pos in positions:
        while u < len(spans) and spans[u][1] <= pos:
            u += 1
        if u == len(spans) or pos < spans[u][0]:
            out.append(pos)
    return out


def _cell_figure(
    sm: re.Match[str], written: str, memo: _Parses, idents: list[Ident]
) -> _Parsed | None:
    """The parse of a :data:`_SIMPLE` match (a table cell's plain figure), ``None`` when it is
    too long to be a figure."""
    if len(written) > _MAX_NUMBER_CHARS and _is_identifier("num", sm, written, idents):
        return None
    key = ("num", written, False)
    p: _Parsed | None = memo.get(key, _NOTHING)
    if p is _NOTHING:
        p = memo[key] = _simple_number(sm["c"], sm["d"])
    return p


def _master_figure(
    norm: NormalizedText,
    m: re.Match[str],
    group: str,
    written: str,
    cand: int,
    day_first: bool,
    memo: _Parses,
    idents: list[Ident],
) -> _Parsed | None:
    """The parse of a master expression match of ``group``, ``None`` when it is no quantity
    (an identifier goes to ``idents``); ``day_first``: the text writes slashed dates day
    first."""
    if (group in _IDENTIFIER_GROUPS or len(written) > _MAX_NUMBER_CHARS) and _is_identifier(
        group, m, written, idents
    ):
        return None
    upper = False
    if group == "sdate":
        upper = day_first
    elif group == "num" and (m["m1"] or m["m2"] or m["nunit"]):  # a scale or unit after it
        mult = (m["m1"] or m["m2"] or "").strip()
        if mult in CONTINENTAL_SCALES:  # "612,4 mil euros": the text's language decides
            upper = (
                norm.continental
                or _DECIMAL_COMMA_END.search(m["dec"] or "") is not None
                or continental_words(norm.text)
            )
        else:
            upper = _upper_case_reading(norm, m, cand)
    key = (group, written, upper)
    p: _Parsed | None = memo.get(key, _NOTHING)
    if p is _NOTHING:
        p = memo[key] = _parse(group, m, upper)
    return p


_NO_FIGURE_GROUPS = frozenset(("enum", "skip", "cite", "named"))
"""Master expression groups that are read and skipped: an enumerator, a list skip, a citation,
a name holding a number."""


def _master_at(s: str, cand: int, ch: str, digit_kind: str) -> re.Pattern[str]:
    """The master expression for the candidate at ``cand``, whose first character is ``ch``
    (``digit_kind``: the text's kind of digit candidates); it depends on ``ch`` alone but for a
    letter ``a``-``z``."""
    if "0" <= ch <= "9" or (ch > "\x7f" and ch.isdecimal()):  # what \d matches
        kind = digit_kind
    elif "a" <= ch <= "z" and not (
        (
            s.find("$", cand + 1, cand + 3) > 0
            or s[cand + 3 : cand + 5].lstrip("(")[:1].isdigit()  # "RMB5", "RMB(5)"
            or s.startswith(("rs", "rm"), cand)
        )
        and _CUR_PREFIX().match(s, cand)  # "US$9.9": the sign's prefix, as at a sign
    ):
        kind = "alpha"
    else:
        kind = "other"
    return _master_for(kind)


_IDENTIFIER_GROUPS = frozenset(("ident", "glued", "ver", "legal"))
"""Master expression groups that are identifiers, not quantities (see :func:`_is_identifier`)."""


def _is_identifier(group: str, m: re.Match[str], written: str, idents: list[Ident]) -> bool:
    """Whether the match of ``group`` is no quantity: an identifier (appended to ``idents``
    when it has a reading) or a numeral too long to be a figure."""
    start, end = m.span()
    if group == "num":
        if end - start <= _MAX_NUMBER_CHARS:
            return False
        if (long := _long_number(written, start, end)) is not None:  # an identifier
            idents.append(long)
    elif group == "ident":
        idents.append(_ident(written, start, end))
    elif group == "glued":  # "100mph", "220V": a figure with a unit we do not know
        if m["gsuf"] in _GLUED_UNITS:
            return False  # "12.5p": 12.5 pence (see _parse)
        if m["gsuf"] not in _ORDINAL_SUFFIXES:  # "3rd", "5th" are no claims of a figure
            idents.append(Ident(written, start, end, _dec(m["gnum"])))
    elif group == "ver":  # a version or an address (2.3.1, 192.168.1.1): no quantity
        idents.append(Ident(written, start, end, Fraction(int(written.split(".", 1)[0]))))
    elif group == "legal":
        idents.append(Ident(re.sub(r"[\s()]", "", written), start, end, None))
    else:
        return False
    return True


def _upper_case_reading(norm: NormalizedText, m: re.Match[str], cand: int) -> bool:
    """Whether a ``num`` match's case-sensitive scale or unit is read in its upper-case sense:
    ``5M``, ``$5m``, ``5m customers``, ``EUR 5m`` (millions, not metres), ``5 MW`` (mega)."""
    mt = m["m1"] or m["m2"]
    if mt and mt.strip() in _CASE_SENSITIVE_SCALES:
        a = m.start("m1") if m["m1"] else m.start("m2")
        return (
            is_upper_in_original(norm, a, a + 1, alpha_only=False)
            or (UNITS.get(m["nunit"] or "", _NO_UNIT)[1] or "").startswith("currency-")
            or _COUNTED_AFTER().match(norm.text, m.end()) is not None
            or _code_before(norm, cand)  # "EUR 5m", "GBP 2.5m": millions
        )
    if m["nunit"] in _UPPER_UNITS:  # "5 MW" is mega, "5 mW" milli
        a = m.start("nunit")
        return is_upper_in_original(norm, a, a + 1, alpha_only=False)
    return False


def _after_acronym(
    norm: NormalizedText, start: int, end: int, written: str, p: _Parsed
) -> tuple[int, int, _Parsed, Ident | None]:
    """A figure without a unit after an upper-case word and a blank: after a currency code
    (``USD 9.9 billion``, ``-USD 8,137 thousand``, ``(RMB 5,000)``: an accounting negative, as
    ``($5,000)`` is), its span and parse in that currency; after another acronym (``FY 19``,
    ``Q 3``), an identifier; else as it was."""
    s = norm.text
    acro = _ACRONYM_BEFORE.search(s, max(0, start - 8), start)
    if acro is None:
        return start, end, p, None
    word = acro.group(1)
    code = _CURRENCY_CODES.get(word)
    if (code is None and word in _NOT_ACRONYMS) or not is_upper_in_original(
        norm, acro.start(1), acro.end(1)
    ):
        return start, end, p, None
    if code is None:
        number = p[1]
        if word in ("fy", "cy") and written.isdigit() and len(written) in (2, 4):
            if (split := _FISCAL_END.match(s, end)) is not None:
                # "FY 2023-24", "FY 23/24": the fiscal year ends in 2024
                end, written = split.end(), written + split.group()
                number = Fraction(_end_year(int(written[: -len(split[1]) - 1]), split[1]))
            elif len(written) == 2:
                number = Fraction(two_digit_year(int(written)))  # "FY 19": 2019
        return start, end, p, Ident(f"{word} {written}", acro.start(1), end, number)
    start = acro.start(1)
    value, flags = p[1], p[8]
    if start and s[start - 1] == "-" and (start == 1 or not s[start - 2].isalnum()):
        start -= 1  # "-USD 8,137 thousand": the sign before the code
        value = -value
    elif start and s[start - 1] == "(" and s.startswith(")", end) and value > 0:
        start, end, value, flags = start - 1, end + 1, -value, flags | F_PAREN
    return start, end, (p[0], value, code, f"currency-{code}", value, *p[5:8], flags), None


_ASIDE_CELL = lazy(r"[ ]*[$€£¥]?[ ]?\d[\d.,]*%?[ ]*\(\d[\d.,]*%?\)[ ]*")
"""A table cell of a figure and a bracketed aside (``247 (60.0)``, ``12.5% (11.2%)``)."""


def _aside_in_cell(s: str, start: int) -> bool:
    """Whether the bracket at ``start`` is the aside of a figure before it in a table cell
    that ``|`` opens (and closes, or the row's end) and that holds those two figures only (a Markdown, HTML,
    CSV or pipe table): not an accounting negative (``| 247 (60.0) |``, a count and its
    percentage, as clinical tables write ``n (%)``; ``| 12.5 (11.2) |``, a figure and the year
    before's). A row whose cells spaces or tabs part keeps the bracket's reading: ``318
    (215)`` as a PDF extractor writes a row, the rows the layout makes of a page a cell per line
    (``33 (15)\t1,238``), a row only partly parted by ``|`` (``other comprehensive income
    240.8 (95.9) 144.9| 13.5``); so does a currency before the bracket (``215 $ (111)``)."""
    if s[start] != "(" or not start:
        return False
    line_start = s.rfind("\n", 0, start) + 1
    line_end = s.find("\n", start)
    line_end = len(s) if line_end < 0 else line_end
    left = s.rfind("|", line_start, start)
    if left < 0:
        return False
    right = s.find("|", start, line_end)
    return _ASIDE_CELL().fullmatch(s, left + 1, line_end if right < 0 else right) is not None


def _accounting(s: str, m: re.Match[str], start: int, end: int, mult: int, value: Fraction) -> bool:
    """Whether a figure in brackets, of ``value`` as written, is an accounting negative to make
    (``(1,234)``, ``$(35)``, ``(35) million``, a bracketed table cell) rather than an aside
    (``(5 million)``, ``(3)``) or a negative already (``(-5)``; ``(USD 773)``, made negative
    with its code by :func:`_after_acronym`)."""
    if value < 0 or _aside_in_cell(s, start):
        return False
    dec = m["dec"] or ""
    # "(35) million": a scale word after the bracket writes an accounting negative too
    # ("(5 million)" is an aside)
    scaled = mult != 1 and bool(dec) and s.startswith(")", m.end("dec"))
    return bool(
        m["cur"] or m["cur2"] or "," in dec or "." in dec or scaled or _is_cell(s, start, end)
    )


def _read_special_forms(norm: NormalizedText, words: frozenset[bytes], raws: list[_Raw]) -> None:
    """Add to ``raws`` what the master expression does not read, each pass run only when the
    text's words or characters say it may find something: other scripts, foreign dates, Roman
    numerals, ages by decade, colon durations, time and a half, shares of a scale, powers of ten;
    and join date spans and compound durations."""
    s = norm.text
    if not s.isascii() or not words.isdisjoint(_FOREIGN_KEYS) or _glued(s):
        _other_scripts(s, words, raws)
    if foreign_dates_possible(s, words):
        _foreign_dates(s, raws)
    if not words.isdisjoint(_ROMAN_LABEL_RUNS):
        _roman_numerals(norm, words, raws)
    if b"in" in words and ("0s" in s or not words.isdisjoint(_DECADE_WORDS)):
        _ages_by_decade(s, raws)
    if s.count(":") >= 2 and _COLON_DURATION_HINT.search(s) is not None:
        _colon_durations(s, raws)
    if b"time" in words and b"half" in words:
        _time_and_a_half(s, raws)
    if not words.isdisjoint(_SHARE_OF_SCALE_RUNS) and not words.isdisjoint(_SCALE_RUNS):
        _shares_of_a_scale(s, raws)
    if "10" in s and _TIMES_TEN().search(s) is not None:
        _powers_of_ten(norm, raws)
    if "/" in s and not words.isdisjoint(_VOLUME_RUNS) and _UNIT_SLASH_FIGURE.search(s):
        _volumes_of_a_dose(s, raws)
    if not words.isdisjoint(_MONTH_NAME_RUNS) and any(
        r.kind == "date" and r.value < 10000 for r in raws
    ):
        _date_spans(s, raws)
    if len(raws) > 1 and (
        not words.isdisjoint(_SMALLER_UNIT_RUNS)
        or (not s.isascii() and _CJK_COMPOUND_DURATION().search(s) is not None)
    ):
        _merge_compound_durations(s, raws)
    if not s.isascii():  # the words of scripts without spaces around a figure
        if any(w in s for w in _MONTH_SUFFIXES):
            _month_names(s, raws)
        if any(w in s for w in _PER_ONE):
            _per_one(s, raws)
        if any(c in s for c in _NEGATIVE_SIGNS) and _SPACELESS().search(s) is not None:
            _negative_signs(s, raws)


_PER_ONE = merged("per_one")
_PER_ONE_AFTER = lazy(r"[^\s\d]{1,2}?(?:" + alternation(_PER_ONE or ("\0",)) + ")")


def _per_one(s: str, raws: list[_Raw]) -> None:
    """Leave out each ``1`` right before a counter and a word of the lexicons' ``per_one``
    (``1株当たり``, ``1주당``): "per share", no quantity."""
    after = _PER_ONE_AFTER()
    raws[:] = [
        r
        for r in raws
        if not (
            r.kind == "number"
            and r.value == 1
            and s[r.start] == "1"
            and after.match(s, r.start + 1) is not None  # "1주당": 주 is no week here
        )
    ]


_MONTH_SUFFIXES = merged("month_suffixes")
_MONTH_NAME = lazy(r"[ ]?(?:" + alternation(_MONTH_SUFFIXES or ("\0",)) + ")")


def _month_names(s: str, raws: list[_Raw]) -> None:
    """Leave out the figures from 1 to 12 right before a word of the lexicons'
    ``month_suffixes`` (``3`` of ``2024年3月``, ``2024년 3월``): a calendar month's name, as
    ``March`` is, no quantity; the year before it stays a figure."""
    month = _MONTH_NAME()
    raws[:] = [
        r
        for r in raws
        if not (
            r.kind == "number"
            and r.unit is None
            and r.value.denominator == 1
            and 1 <= r.value <= 12
            and month.match(s, r.end) is not None
        )
    ]


_NEGATIVE_SIGNS = merged("negative_signs")
"""The lexicons' ``negative_signs``: a minus sign right before a figure (``△1,234``), read in a
text of a script written without spaces (the languages whose lexicons name them: in English
``▲ 5%`` is more often a rise)."""
_SPACELESS = lazy(f"[{NO_SPACE_CHARS}]")


def _negative_signs(s: str, raws: list[_Raw]) -> None:
    """Negate each figure of ``raws`` right after a sign of :data:`_NEGATIVE_SIGNS` (``△1,234``,
    ``▲ 567``: the accounting negative of Japanese and Korean statements), the sign joining
    its span; as a bracketed figure, its magnitude names it too (``営業損失1,234``, an
    operating loss, for ``営業利益 △1,234``)."""
    for i, r in enumerate(raws):
        j = r.start - 1
        if j >= 0 and s[j] == " ":
            j -= 1
        if j < 0 or s[j] not in _NEGATIVE_SIGNS or r.kind != "number" or r.value <= 0:
            continue
        flags = r.meta[3] | F_PAREN
        raws[i] = replace(
            r, value=-r.value, base=-r.base, start=j, meta=(r.meta[0], r.meta[1], r.meta[2], flags)
        )


def _scan_of(
    norm: NormalizedText,
    words: frozenset[bytes],
    raws: list[_Raw],
    idents: list[Ident],
    separators: list[tuple[int, int]],
) -> Scan:
    """The :class:`Scan` of the quantities read (``raws``, normalised offsets), their spans
    mapped back to the original text."""
    orig = norm.original
    norm_spans = tuple((r.start, r.end) for r in raws)
    # fields in declaration order (positional is faster): text, span, kind, value, unit,
    # dimension, base_value, range_role
    # without segments, offsets of the normalised text are those of the original
    spans = [norm.to_original(a, b) for a, b in norm_spans] if norm.segments else norm_spans
    quantities = tuple(
        Quantity(orig[a:b], (a, b), r.kind, r.value, r.unit, r.dimension, r.base, r.role)
        for r, (a, b) in zip(raws, spans, strict=True)
    )
    return Scan(
        norm=norm,
        quantities=quantities,
        norm_spans=norm_spans,
        idents=tuple(idents),
        separators=tuple(separators),
        words=words,
        meta=tuple(r.meta for r in raws),
    )


_NOTHING: Any = object()


@functools.cache
def _foreign_full() -> re.Pattern[str]:
    """A run of foreign number phrases with its unit (:func:`foreign_phrase_source`), compiled
    on first use."""
    return re.compile(rf"(?x)(?<!{_W})(?P<fw>{foreign_phrase_source()}){_unit_part('f')}(?!{_W})")


_UNIT_AFTER_CJK = {
    "倍": (None, None, Fraction(1)),
    "%": ("%", "percent", Fraction(1)),
    **dict.fromkeys(KOREAN_PERCENT, ("%", "percent", Fraction(1))),
}
"""What a CJK or Korean numeral's unit means where the unit table has no entry for it: ``倍``
(times) counts, ``%`` and the Korean percent words (``퍼센트``) make a percentage."""


def _latex_math(s: str, start: int, end: int, p: _Parsed) -> tuple[int, int, _Parsed]:
    """A figure between the dollar signs of LaTeX math (``$12$``, ``$35\\%$``) is not in
    dollars: its span, parse and flags without the currency (a percentage when ``\\%``
    closes it; the closing sign, read as a dollar after the figure, left out); any other figure
    is returned as it is."""
    if s[end - 1] == "$" and end - start > 2:  # "$12$": the closing sign read as a unit
        return start, len(s[: end - 1].rstrip(" ")), (p[0], p[1], None, None, p[1], *p[5:])
    closing = s[end : end + 3]
    if closing.startswith("$"):
        return start, end, (p[0], p[1], None, None, p[1], *p[5:])
    if closing == "\\%$":
        return start, end + 2, (p[0], p[1], "%", "percent", p[1], *p[5:])
    return start, end, p


def _url_spans(s: str) -> list[tuple[int, int]]:
    """Spans of URLs and e-mail addresses: the digits inside them are not claims."""
    if "://" not in s and "www." not in s and "@" not in s and ":" not in s:
        return []
    return [m.span() for m in (_URL() if "@" in s else _URL_NO_MAIL).finditer(s)]


def _other_scripts(s: str, words: frozenset[bytes], raws: list[_Raw]) -> None:
    """Add CJK numerals with units (``三十天``) and French/German/Spanish number words with
    accented letters or in ASCII (``trente jours``, ``dreißig Tagen``) that no English pattern
    read, keeping ``raws`` sorted and without overlaps."""
    if s.isascii() or CJK_NUMERAL_HINT().search(s) is None:
        # no CJK numeral nor scale character: only the number words can be there
        words_read = _foreign(s, words)
        if words_read:
            _merge_into(raws, words_read)
        return
    extra: list[_Raw] = []
    for m in CJK_NUMERAL().finditer(s):
        value = cjk_value(m["cjk"])
        if value is None:
            continue
        v = Fraction(value)
        unit_text = m["cjku"]
        if unit_text in CJK_COUNTERS:
            if m["cjk"] == "一":  # 一个, 一家: mostly the article "a", as "one" alone in English
                continue
            canon, dim, factor = None, None, _ONE
        else:
            canon, dim, factor = _UNIT_AFTER_CJK.get(unit_text) or UNITS[unit_text]
        flags = F_YEAR if canon is None and 1900 <= value <= 2100 else 0
        extra.append(
            _Raw("number", v, canon, dim, v * factor, m.start(), m.end(), (1, 0, 1, flags))
        )
    if HANGUL().search(s) is not None:
        extra.extend(_korean(s))
    if "百分之" in s:
        for m in CJK_PERCENT().finditer(s):
            value = cjk_value(m["cjk"])
            if value is not None:
                v = Fraction(value)
                extra.append(_Raw("number", v, "%", "percent", v, m.start(), m.end(), (1, 0, 1, 0)))
    extra.extend(_foreign(s, words))
    if extra:
        _merge_into(raws, extra)
    if MIXED_HINT().search(s) is not None:
        first: list[_Raw] = []  # read whole, over the parts the expressions above found
        for m in MIXED_NUMBER().finditer(s):
            written = m.group()
            korean = any(ch in KOREAN_SCALES for ch in written)
            if (
                not korean
                and sum(ch in CJK_SCALES for ch in written) < 2
                and not written[-1].isdigit()
            ):
                continue  # "5000万元", "1.5亿": the master expression reads them, with units
            mixed = mixed_value(written)
            if mixed is None:
                continue
            money = _CJK_MONEY.match(s, m.end())
            unit, dim, _factor = _NO_UNIT if money is None else UNITS[money[1]]
            end = m.end() if money is None else money.end()
            scale, decimals, sig = mixed_precision(written)
            meta = (scale, decimals, sig, F_OWN_SCALE if scale != 1 else 0)
            start = m.start()
            if start and s[start - 1] == "-" and (start < 2 or not s[start - 2].isdigit()):
                start, mixed = start - 1, -mixed  # "-1,234百万円"; not a range's "10-20億"
            first.append(_Raw("number", mixed, unit, dim, mixed, start, end, meta))
        if first:
            _replace_into(raws, first)


def _korean(s: str) -> list[_Raw]:
    """The Korean numerals of ``s`` before a counter or a unit (``세 명``: 3, ``오억 원``:
    500,000,000 won, ``삼십 퍼센트``: 30%)."""
    out = []
    for start, end, value, after in korean_numbers(s):
        v = Fraction(value)
        if after in KOREAN_COUNTERS:
            canon, dim, factor = None, None, _ONE
        else:
            canon, dim, factor = _UNIT_AFTER_CJK.get(after) or UNITS[after]
        out.append(_Raw("number", v, canon, dim, v * factor, start, end, (1, 0, 1, 0)))
    return out


def _foreign_dates(s: str, raws: list[_Raw]) -> None:
    """Put the dates of :data:`FOREIGN_DATE_SOURCE` (``15. März 2024``) in place of the figures
    read in them (the day and the year)."""
    dates: list[_Raw] = []
    for m in compiled(FOREIGN_DATE_SOURCE).finditer(s):
        p = _date(int(m["y"]), FOREIGN_MONTHS[m["m"]], int(m["d"]))
        if p is not None:
            dates.append(_date_raw(int(p[1]), m.start(), m.end(), p[5:]))
    if dates:
        _replace_into(raws, dates)


_ROMAN_LABELS = grouped("figure_context", "roman_labels")
"""Words a Roman numeral numbers (``Phase III``, ``Stage IV``, ``Type II``, ``Chapter XI``,
``Title IX``): the figure an answer writes in digits (``Phase 3``). Not ``World War II`` (an
answer writes ``the Second World War``, an ordinal, which is no figure) nor a monarch's
numeral."""
_ROMAN_LABEL_RUNS = frozenset(w.encode() for w in _ROMAN_LABELS)
_ROMAN_AFTER = lazy(
    r"s?\.?[ \t]+(?P<r>(?=[ivxl])(?:xl|l?x{0,3})(?:ix|iv|v?i{0,3}))(?![\w-]|[.,]\d)"
)
"""What follows a label when a Roman numeral numbers it (``phase iii``, ``stages i``)."""
_ROMAN_DIGITS = {"i": 1, "v": 5, "x": 10, "l": 50}


def _roman_value(numeral: str) -> int:
    """The value of a well-formed Roman numeral below 90 (``xiv``: 14, ``xliv``: 44)."""
    total = 0
    for i, ch in enumerate(numeral):
        v = _ROMAN_DIGITS[ch]
        nxt = _ROMAN_DIGITS[numeral[i + 1]] if i + 1 < len(numeral) else 0
        total += -v if v < nxt else v
    return total


def _roman_numerals(norm: NormalizedText, words: frozenset[bytes], raws: list[_Raw]) -> None:
    """Read the Roman numerals written in capitals after a word of :data:`_ROMAN_LABELS`
    (``Phase III``: 3) as the figures they are. Each label the text holds is found by a plain
    search (an expression over all of them costs a few microseconds on every text)."""
    s = norm.text
    found: list[_Raw] = []
    for label in words & _ROMAN_LABEL_RUNS:
        word = label.decode()
        i = s.find(word)
        while i >= 0:
            if (i == 0 or not (s[i - 1].isalnum() or s[i - 1] == "-")) and (
                m := _ROMAN_AFTER().match(s, i + len(word))
            ):
                start, end = m.span("r")
                if is_upper_in_original(norm, start, end):  # "type i" in lower case: a word
                    value = Fraction(_roman_value(m["r"]))
                    found.append(_Raw("number", value, None, None, value, start, end, (1, 0, 1, 0)))
            i = s.find(word, i + 1)
    if found:
        _replace_into(raws, found)


_DECADE_WORDS = {
    w.encode(): Fraction(v) for w, v in grouped_table("figure_context", "decades").items()
}
_AGE_DECADE = lazy(
    rf"(?<![\w])in(?:to)?[ \t]+(?:{alternation(grouped('figure_context', 'decade_determiners'))})"
    rf"[ \t]+(?:(?:{alternation(grouped('figure_context', 'decade_parts'))})(?:[ \t]+|-))?"
    rf"(?:(?P<d>'?[1-9]0s)|(?P<w>{alternation(w.decode() for w in _DECADE_WORDS)}))(?![\w'])"
)
"""A decade written in two digits or in words (``in her 30s``, ``in his early thirties``,
``temperatures in the 40s``, ``in the '80s``, ``in the eighties``): any figure of the ten it
spans, or a year of the 1900s or 2000s so numbered, grounds it (see :data:`F_DECADE`); ``30s``
is no 30 seconds."""


def _ages_by_decade(s: str, raws: list[_Raw]) -> None:
    """Put the decades of :data:`_AGE_DECADE` in place of what was read there."""
    found: list[_Raw] = []
    for m in _AGE_DECADE().finditer(s):
        value = Fraction(int(m["d"].strip("'s"))) if m["d"] else _DECADE_WORDS[m["w"].encode()]
        start, end = m.span("d") if m["d"] else m.span("w")
        found.append(_Raw("number", value, None, None, value, start, end, (1, 0, 1, F_DECADE)))
    if found:
        _replace_into(raws, found)


_COLON_DURATION = lazy(
    r"(?<![\w:.,/])(?P<h>\d{1,3}):(?P<m>[0-5]\d):(?P<s>[0-5]\d(?:\.\d{1,3})?)(?![\w:]|[.,]\d)"
)
_COLON_DURATION_HINT = re.compile(r":[0-5]\d:")
"""What every :data:`_COLON_DURATION` holds, found from its literal ``:`` (the full expression
starts with a look-behind, so the engine tries it at every position)."""
_CLOCK_BEFORE = lazy(
    rf"(?<![\w])(?:{alternation(grouped('figure_context', 'clock_before'))})[ \t]+\Z"
)
_CLOCK_AFTER = lazy(r"[ \t]*(?:am|pm|a\.m|p\.m|utc|gmt|[a-z]st|[a-z]dt)(?![\w])")


def _colon_durations(s: str, raws: list[_Raw]) -> None:
    """Read ``h:mm:ss`` (``finished in 3:05:12``, ``2:01:09.5``) as the duration it writes, in
    seconds: an answer writes ``3 hours, 5 minutes and 12 seconds``; not a time of day (``at
    10:30:00``, ``10:30:00 am``), which stays as the scan read it."""
    found: list[_Raw] = []
    for m in _COLON_DURATION().finditer(s):
        start, end = m.span()
        if (
            _CLOCK_BEFORE().search(s, max(0, start - 8), start) is not None
            or _CLOCK_AFTER().match(s, end) is not None
        ):
            continue
        sec = m["s"]
        decimals = len(sec) - 3 if "." in sec else 0
        value = Fraction(int(m["h"]) * 3600 + int(m["m"]) * 60) + Fraction(sec)
        sig = len(str(int(value))) + decimals
        found.append(_Raw("number", value, "s", "time", value, start, end, (1, decimals, sig, 0)))
    if found:
        _replace_into(raws, found)


_SHARE_OF_SCALE_RUNS = frozenset((b"half", b"quarter", b"quarters"))
_SCALE_RUNS = frozenset(w.encode() for w in (*_SCALE_WORDS, "percent", "cent", "percentage"))
_SHARE_OF_SCALE = lazy(
    r"(?<![\w-])(?:(?P<h>half[ -]an?|an?[ -]half)|(?P<q>(?:a|one)[ -]quarter[ -]of[ -]an?)"
    r"|(?P<tq>three[ -]quarters[ -]of[ -]an?)"
    rf"|(?P<n>\d{{1,3}}|{trie_alternation(w for w in _SMALL if w != 'zero')})[ -]and[ -]an?[ -]half)"
    rf"[ -](?:(?P<s>{'|'.join(_SCALE_WORDS)})(?![\w-])(?:[ \t]+(?P<c>[a-z]+))?"
    r"|(?P<pct>percent|per[ \t]cent|percentage[ \t]points?)(?![\w-]))"
)
"""A share of a scale word (``half a million``, ``a quarter of a million``, ``three quarters of
a billion``, ``one and a half million``, ``2-and-a-half billion``), optionally in a currency
written as a word (``half a million dollars``); and a share of a percent (``half a percent``,
``a quarter of a percentage point``: 0.5%, 0.25%)."""


def _shares_of_a_scale(s: str, raws: list[_Raw]) -> None:
    """Read the figures of :data:`_SHARE_OF_SCALE` (``half a million``: 500,000), in place of
    the fraction and the scale read apart."""
    found: list[_Raw] = []
    for m in _SHARE_OF_SCALE().finditer(s):
        if m["h"]:
            mantissa = Fraction(1, 2)
        elif m["q"] or m["tq"]:
            mantissa = Fraction(1 if m["q"] else 3, 4)
        else:
            n = m["n"]
            mantissa = (Fraction(int(n)) if n.isdecimal() else Fraction(_SMALL[n])) + Fraction(1, 2)
        decimals = 1 if mantissa.denominator == 2 else 2
        sig = len(str(mantissa.numerator * 10**decimals // mantissa.denominator).lstrip("0"))
        if m["pct"]:  # "half a percent": 0.5%
            meta = (1, decimals, sig, 0)
            found.append(_Raw("number", mantissa, "%", "percent", mantissa, *m.span(), meta))
            continue
        scale = _SCALES[m["s"]]
        value = mantissa * scale
        end = m.end("s")
        unit, dim, factor = None, None, _ONE
        info = UNITS.get(m["c"] or "")
        if info is not None and (info[1] or "").startswith("currency-"):
            unit, dim, factor = info
            end = m.end("c")
        meta = (scale, decimals, sig, F_OWN_SCALE)
        found.append(_Raw("number", value, unit, dim, value * factor, m.start(), end, meta))
    if found:
        _replace_into(raws, found)


_TIMES_TEN = lazy(r"\d[ \t]*[x×*·][ \t]*10\^?[-+]?\d")
_POWER_OF_TEN = lazy(
    r"(?<![\w.,])(?P<sign>-)?(?P<m>\d{1,3}(?:\.\d+)?)[ \t]*[x×*·][ \t]*10"
    r"(?:\^[ \t]*(?P<e>[-+]?\d{1,2})|(?P<sup>-?\d{1,2}))(?![\w.,]|\d)"
    r"(?:[ \t]?(?P<u>[^\W\d_][\w/°μ]*))?"
)
_SUPERSCRIPTS = frozenset("⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def _powers_of_ten(norm: NormalizedText, raws: list[_Raw]) -> None:
    """Read scientific notation (``6 × 10^24 kg``, ``6×10²⁴ kg``, ``1.5 x 10^-3 mol``) as the
    figure it writes, in place of its mantissa, its ``10`` and its exponent read apart (``6e24``
    is read by the master expression). A unit written after it is kept when it is one of
    :data:`UNITS`."""
    s = norm.text
    found: list[_Raw] = []
    for m in _POWER_OF_TEN().finditer(s):
        if m["sup"] is not None:  # "10²⁴" is normalised to "1024": only superscripts say so
            a, b = norm.to_original(*m.span("sup"))
            if not set(norm.original[a:b]) <= _SUPERSCRIPTS:
                continue
        exponent = int(m["e"] if m["e"] is not None else m["sup"])
        mantissa = Fraction(m["m"])
        value = mantissa * Fraction(10) ** exponent * (-1 if m["sign"] else 1)
        unit, dim, factor = None, None, _ONE
        end = m.end("e") if m["e"] is not None else m.end("sup")
        info = UNITS.get(m["u"] or "")
        if info is not None:
            unit, dim, factor = info
            end = m.end("u")
        decimals = len(m["m"].split(".")[1]) if "." in m["m"] else 0
        sig = len(m["m"].replace(".", "").lstrip("0")) or 1
        meta = (1, decimals - exponent, sig, 0)
        found.append(_Raw("number", value, unit, dim, value * factor, m.start(), end, meta))
    if found:
        _replace_into(raws, found)


_TIME_AND_A_HALF = lazy(
    r"(?<![\w-])time(?:[ \t]+|-)and(?:[ \t]+|-)a(?:[ \t]+|-)half"
    rf"(?![\w-]|[ \t]+(?:an?[ \t]+)?(?:{alternation(_TIME_WORDS)})s?(?![\w]))"
)


def _time_and_a_half(s: str, raws: list[_Raw]) -> None:
    """Read ``time and a half`` (a rate of pay) as the factor it is, ``1.5x``, in place of its
    ``half``."""
    found = [
        _Raw("number", Fraction(3, 2), None, None, Fraction(3, 2), *m.span(), (1, 1, 2, F_RATIO))
        for m in _TIME_AND_A_HALF().finditer(s)
    ]
    if found:
        _replace_into(raws, found)


def _forms_of(*dimensions: str) -> list[str]:
    """The written forms of the units of ``dimensions`` (:data:`UNITS`), longest first."""
    return sorted((f for f, (_, dim, _) in UNITS.items() if dim in dimensions), key=len)[::-1]


_SYMBOL = 4
"""The longest unit symbol of a dose over its volume (``mmol``): the units' words are not
written so (``250 milligrams/5 millilitres`` is no way to write a strength)."""
_VOLUME_FORMS = [f for f in _forms_of("volume") if len(f) <= _SYMBOL and f.isalpha()]
_VOLUME_RUNS = frozenset(run for f in _VOLUME_FORMS for run in letter_runs(f))
"""The letter runs of the volume units' symbols (``ml``, ``cc``): a text without one holds no
volume after a dose's ``/`` (:func:`_volumes_of_a_dose`)."""
_UNIT_SLASH_FIGURE = re.compile(r"/(?<=[a-zμ]/)\d")
"""A figure right after a unit's ``/`` (``mg/5``): a text without one holds no dose over its
volume (one search, its ``/`` first: the expression below costs a tenth of a scan)."""
_DOSE_VOLUME = lazy(
    rf"(?<![a-zμ])(?:{alternation(f for f in _forms_of('mass', 'amount') if len(f) <= _SYMBOL)})"
    rf"/(?P<n>\d+(?:\.\d+)?)[ ]?(?P<u>{alternation(_VOLUME_FORMS)})(?![a-zμ])"
)
"""An amount over the volume it is in (``250 mg/5 ml``, ``1 mmol/10 ml``): the volume."""


def _volumes_of_a_dose(s: str, raws: list[_Raw]) -> None:
    """Add the volume of a dose written over it (``5 mL`` of ``250 mg/5 mL``, a suspension's
    strength), which the master leaves out (a figure after ``/`` is none: ``24/7``, ``3/4``):
    ``Give 5 mL (250 mg)`` and ``250 mg per 5 mL`` name it as written."""
    found = []
    for m in _DOSE_VOLUME().finditer(s):
        p = _bare_number(m["n"])  # its value, decimals and significant digits as written
        value = p[1]
        unit, dim, factor = _unit_info(m["u"], None, None)
        meta = (1, p[6], p[7], 0)
        found.append(_Raw("number", value, unit, dim, value * factor, m.start("n"), m.end(), meta))
    if found:
        _merge_into(raws, found)


_WORD_AT = re.compile(r"[^\W\d_]+")
_NEXT_WORD = re.compile(r"[ \t-]*([^\s\d/.,;:!?()\[\]%-]*)")


@functools.cache
def _after_ambiguous() -> frozenset[str]:
    """The words that may follow a number word of :data:`FOREIGN_AMBIGUOUS` in a number: a
    unit's or a percent word's first word, a number or scale word, Portuguese ``e``."""
    first = {re.split(r"[\s/.]+", k)[0] for k in UNITS}
    first |= {p.split(" ", 1)[0] for p in FOREIGN_WORDS}  # stored with single spaces
    return frozenset(first | _PERCENT_FIRST_WORDS | {"e"})


_PERCENT_FIRST_WORDS = frozenset(
    w.split(" ")[0] for w in (*_PERCENT_WORDS, *merged("basis_points"))
)
"""The first words of the percent words of :func:`_unit_part` (``per cent``, ``Prozentpunkte``,
``punti percentuali``, ``basis points``)."""


def _may_start_foreign(s: str, pos: int) -> bool:
    """Whether a number phrase may start at ``pos``: a word of :data:`FOREIGN_AMBIGUOUS`
    (``due``, ``um``, ``once``: common words elsewhere) is one only before a unit, a percent
    word or another number word (``due giorni``, ``um milhão``), so ``due to`` is not tried
    against the ~800 phrases of the foreign expression."""
    word = _WORD_AT.match(s, pos)
    if word is None or word.group() not in FOREIGN_AMBIGUOUS:
        return True
    after = _NEXT_WORD.match(s, word.end())
    if after is None:  # pragma: no cover - the expression matches the empty string
        return True
    nxt = after.group(1)
    return not nxt or nxt in _after_ambiguous() or s.startswith("/", after.end())


_ENGLISH_TIME_UNITS = frozenset(f"{w}{plural}" for w in _TIME_WORDS for plural in ("", "s"))
"""English units after a word of :data:`FOREIGN_AMBIGUOUS`: an English text (``payment is due
days after``), not ``due giorni``."""


def _glued(s: str) -> bool:
    """Whether ``s`` may hold a German or Dutch number glued onto a hundred or a thousand
    (``hundertzwanzig``), which no letter run of :data:`FOREIGN_FIRST_WORDS` finds."""
    return any(m in s for m in GLUED_MARKERS)


def _foreign(s: str, words: frozenset[bytes]) -> list[_Raw]:
    out: list[_Raw] = []
    keys = words & _FOREIGN_KEYS
    glued = _glued(s)
    if not keys and not glued:
        return out
    starts: list[int] = []
    for kb in keys:
        for first in FOREIGN_FIRST_WORDS[kb.decode()]:
            _find_all(s, first, starts.append)
    if glued:  # the start of each word holding a hundred or a thousand
        for marker in GLUED_MARKERS:
            prev_i = prev_w = -1
            i = s.find(marker)
            while i >= 0:
                w = i
                while w > 0 and s[w - 1].isalpha():
                    w -= 1
                    if w == prev_i:  # the word of the previous one: each letter read once
                        w = prev_w
                        break
                starts.append(w)
                prev_i, prev_w = i, w
                i = s.find(marker, i + 1)
    last_end = 0
    for pos in sorted(set(starts)):
        if pos < last_end or not _may_start_foreign(s, pos):
            continue
        m = _foreign_full().match(s, pos)
        if m is None:
            continue
        value = foreign_value(m["fw"])
        if value is None:
            continue
        has_unit = m["fpct"] or m["funit"] or m["fopq"]
        if m["fw"] in FOREIGN_AMBIGUOUS and (not has_unit or m["funit"] in _ENGLISH_TIME_UNITS):
            continue  # "un", "due", "once": a number only before a unit of their language
        last_end = m.end()
        unit: str | None
        dim: str | None
        if m["fpct"]:
            unit, dim, factor = "%", "percent", Fraction(1)
        else:
            unit, dim, factor = _unit_info(m["funit"], m["fden"], m["fopq"])
        out.append(
            _Raw("number", value, unit, dim, value * factor, m.start(), m.end(), (1, 0, 1, 0))
        )
    return out


_CJK_MONEY = re.compile(r"\s?(" + alternation(CJK_CURRENCIES) + ")")
"""A currency after a figure read whole (``5만 원``, ``1亿5000万元``), from :data:`UNITS`."""


def _replace_into(raws: list[_Raw], first: list[_Raw]) -> None:
    """Put ``first`` into the sorted ``raws`` in place of every quantity it overlaps (``1亿5000万``
    over ``1`` and ``5000万``), except where it would cut a longer date; one linear pass over
    both."""
    first.sort(key=lambda r: r.start)
    out: list[_Raw] = []
    i = 0
    n = len(raws)
    last_end = -1
    for r in first:
        if r.start < last_end:
            continue
        while i < n and raws[i].end <= r.start:
            out.append(raws[i])
            i += 1
        j = i
        cuts_a_date = False
        while j < n and raws[j].start < r.end:
            q = raws[j]
            if q.kind == "date" and q.end - q.start > r.end - r.start:
                cuts_a_date = True
            j += 1
        if cuts_a_date:
            continue
        i = j  # the quantities it overlaps are dropped
        out.append(r)
        last_end = r.end
    out.extend(raws[i:])
    raws[:] = out


def _merge_into(raws: list[_Raw], extra: list[_Raw]) -> None:
    """Merge ``extra`` into the sorted ``raws`` (one linear pass), dropping any that overlaps
    a quantity already found."""
    extra.sort(key=lambda r: r.start)
    out: list[_Raw] = []
    i = 0
    last_end = -1
    for r in extra:
        while i < len(raws) and raws[i].start < r.start:
            out.append(raws[i])
            last_end = raws[i].end
            i += 1
        if r.start < last_end or (i < len(raws) and raws[i].start < r.end):
            continue
        out.append(r)
        last_end = r.end
    out.extend(raws[i:])
    raws[:] = out


_SEPARABLE = lazy(
    r"(?:fy|cy)['-]?(?:(\d{2}|\d{4})[-/])?(\d{2}|\d{4})|(?:early|mid|late)-(\d{3}0)s|[a-z]+-(\d+)"
    r"|q([1-4])|h([12])"
)
"""Identifiers whose number is a claim of its own: ``covid-19``, and periods glued to their
prefix (``FY2024``, ``Q3``, ``H1``): a fiscal year the context does not hold is a finding;
``mid-1990s`` is the decade 1990 (see :data:`F_DECADE`)."""


def two_digit_year(yy: int) -> int:
    """The year a two-digit fiscal or calendar year names (``FY19``: 2019): 00-68 in the 2000s,
    69-99 in the 1900s, as :func:`time.strptime` reads ``%y`` (POSIX)."""
    return yy + (2000 if yy <= 68 else 1900)


_ORDINAL_SUFFIXES = frozenset(("st", "nd", "rd", "th"))


_NAMED = frozenset(
    ("covid-19", "sars-cov-2", "nasdaq-100", "s-1", "s-3", "s-4", "s-8", "f-1", "f-3", "f-4")
)
"""Identifiers whose number is part of a name, not a claim: a disease and its virus, an index,
the SEC's registration statements."""


_FISCAL_END = re.compile(r"[-/](\d{2}|\d{4})(?![\w%]|[.,]\d)")
"""The end of a fiscal year written with its two calendar years (``-24`` of ``FY 2023-24``,
``/24`` of ``FY 23/24``)."""


def _end_year(first: int | None, end: str) -> int:
    """The year a fiscal year's end ``end`` names (two or four digits), after its first
    year ``first`` if written (``2023``, ``24``: 2024; ``1999``, ``00``: 2000)."""
    if len(end) == 4:
        return int(end)
    if first is None or first < 100:
        return two_digit_year(int(end))
    century = first - first % 100
    year = century + int(end)
    return year if year > first else year + 100


def _ident(text: str, start: int, end: int) -> Ident:
    sep = _SEPARABLE().fullmatch(text)
    if sep is None or text in _NAMED:
        return Ident(text, start, end, None)
    year = sep[2]
    if year is not None:
        # "FY19", "FY'19", "CY-19": the year 2019; "FY2019" as written; "FY2023/24",
        # "FY23-24": the year the fiscal year ends in, 2024
        first = sep[1]
        head = (
            None if first is None else two_digit_year(int(first)) if len(first) == 2 else int(first)
        )
        return Ident(text, start, end, Fraction(_end_year(head, year)))
    return Ident(text, start, end, Fraction(int(next(g for g in sep.groups() if g))))


def is_upper_in_original(
    norm: NormalizedText, start: int, end: int, *, alpha_only: bool = True
) -> bool:
    """Whether the original text of the normalised span ``start:end`` is written in capitals
    (``MW`` rather than ``mw``, ``US`` rather than ``us``), letters only unless ``alpha_only`` is
    false."""
    a, b = norm.to_original(start, end)
    word = norm.original[a:b]
    return word.isupper() and (word.isalpha() or not alpha_only)


_WORKING_BEFORE = re.compile(r"[(=+*/×÷]\s*$")
_WORKING_AFTER = re.compile(r"\s*[)=+*/×÷]")


def _is_working(s: str, start: int, end: int) -> bool:
    """``a - b`` inside shown working (``(a - b) / b``, ``a - b = c``) is a subtraction."""
    return (
        _WORKING_BEFORE.search(s, max(0, start - 3), start) is not None
        or _WORKING_AFTER.match(s, end) is not None
    )


_MONTH_NAME_RUNS = frozenset(m.encode() for m in _MONTHS)
"""A date without its year that a span may date is written with an English month name."""
_DAY_TO = lazy(r"[ \t]*(?:-|to|through|until|till)[ \t]*\Z")
_YEAR_AFTER = re.compile(r",?[ \t]+\Z")


def _date_raw(value: int, start: int, end: int, meta: Meta) -> _Raw:
    """A date (``YYYYMMDD``, or ``MMDD`` without its year) found at ``[start, end)``."""
    v = Fraction(value)
    return _Raw("date", v, "date", "date", v, start, end, meta)


def _date_spans(s: str, raws: list[_Raw]) -> None:
    """Give the dates of a span written with one year the year and month they share: ``June
    3-5, 2024`` is June 3 and June 5, 2024 (not June 3, a figure 5 and a figure 2024), and
    ``June 3 to June 5, 2024`` starts on June 3, 2024 (a December start is in the year before:
    ``December 28 to January 3, 2025``). ``raws`` is sorted; changed in place."""
    out: list[_Raw] = []
    i, n = 0, len(raws)
    while i < n:
        r = raws[i]
        nxt = raws[i + 1] if i + 1 < n else None
        if (
            nxt is None
            or r.kind != "date"
            or r.value >= 10000
            or nxt.start - r.end > 9
            or _DAY_TO().match(s[r.end : nxt.start]) is None
        ):
            out.append(r)
            i += 1
            continue
        mmdd = int(r.value)
        if nxt.kind == "date" and nxt.value >= 10000:  # "June 3 to June 5, 2024"
            year = int(nxt.value) // 10000 - (mmdd > int(nxt.value) % 10000)
            out.append(_date_raw(year * 10000 + mmdd, r.start, r.end, r.meta))
            i += 1
            continue
        day = nxt.value
        if not (
            nxt.kind == "number"
            and nxt.unit is None
            and day.denominator == 1
            and mmdd % 100 < day.numerator <= 31
        ):
            out.append(r)
            i += 1
            continue
        end_day = (mmdd // 100) * 100 + day.numerator
        year_raw = raws[i + 2] if i + 2 < n else None
        if (
            year_raw is not None
            and year_raw.kind == "number"
            and year_raw.meta[3] & F_YEAR
            and _YEAR_AFTER.match(s[nxt.end : year_raw.start]) is not None
        ):  # "June 3-5, 2024"
            year = int(year_raw.value) * 10000
            out.append(_date_raw(year + mmdd, r.start, r.end, r.meta))
            out.append(_date_raw(year + end_day, nxt.start, year_raw.end, r.meta))
            i += 3
        elif s[r.end : nxt.start] == "-":  # "June 3-5": the end day, no year
            out.append(r)
            out.append(_date_raw(end_day, nxt.start, nxt.end, r.meta))
            i += 2
        else:  # "on June 3 - 5 people came"
            out.append(r)
            i += 1
    raws[:] = out


_DURATION_ALIASES = sorted(
    (alias for alias, (_unit, dim, _factor) in UNITS.items() if dim in ("time", "calendar")),
    key=lambda a: (-len(a), a),
)
"""The words and characters of a unit of time or of the calendar, longest first."""
_TIME_ALIASES = [a for a in _DURATION_ALIASES if a.isascii() and a.isalpha()]
"""Those in ASCII letters, English and foreign (``hours``, ``stunden``, ``heures``)."""
_AND_WORDS = merged("conjunctions")
"""``and`` in every language (the lexicons' ``conjunctions``: ``und``, ``et``)."""
_CJK_COMPOUND_DURATION = lazy(
    f"(?:{'|'.join(a for a in _DURATION_ALIASES if ord(a[0]) > 0x2E80)})" + r"\d"
)
"""A CJK unit of time right before a figure (``2小时30分钟``): where a CJK duration in two
units may stand. (In other scripts a smaller unit among the text's words lets the loop over the
figures look: an expression over every unit word costs tens of microseconds a text.)"""
_SMALLER_UNIT_RUNS = frozenset(
    a.encode()
    for a in _TIME_ALIASES
    if UNITS[a][0] not in ("year", "decade", "century") and a not in ("s", "m")
)
"""The units a second, smaller part of a duration is written in (``h`` stands for ``2h 30m``;
``s`` and ``m`` alone are too common a run of letters to test)."""
_COMPOUND_GAP = re.compile(rf"[ \t]*(?:,[ \t]*)?(?:(?:{alternation(_AND_WORDS)})[ \t]+)?")


def _merge_compound_durations(s: str, raws: list[_Raw]) -> None:
    """Make one duration of a figure in a unit of time followed by a smaller part in a smaller
    unit (``2 hours and 30 minutes`` is 150 minutes, ``1 year 6 months`` 18 months, ``3 hours,
    5 minutes and 12 seconds``, ``2h 30m``): an answer writes ``2.5 hours`` or ``150 minutes``
    for it. The larger figure is whole and the smaller one less than one of its units (``2
    hours 90 minutes`` stays two figures, as ``8 hours, 5 days a week`` does)."""
    out: list[_Raw] = []
    for r in raws:
        lo = out[-1] if out else None
        if (
            r.unit is None  # most figures: the cheapest test first
            or lo is None
            or lo.unit is None
            or lo.dimension not in ("time", "calendar")
            or lo.kind != "number"
            or r.kind != "number"
            or lo.value.denominator != 1
            or lo.value <= 0
            or r.value < 0
            or _COMPOUND_GAP.fullmatch(s, lo.end, r.start) is None
        ):
            out.append(r)
            continue
        unit, factor = r.unit, UNITS[r.unit][2] if r.unit in UNITS else None
        if r.dimension != lo.dimension:
            if lo.unit == "h" and r.unit == "m" and r.start - lo.end <= 1:  # "2h 30m"
                unit, factor = "min", UNITS["min"][2]
            else:
                out.append(r)
                continue
        larger = UNITS[lo.unit][2]
        if factor is None or factor >= larger or r.value * factor >= larger:
            out.append(r)
            continue
        value = lo.base / factor + r.value
        mult, decimals, _sig, flags = r.meta
        sig = len(str(int(value))) + decimals
        out[-1] = _Raw(
            "number",
            value,
            unit,
            lo.dimension,
            value * factor,
            lo.start,
            r.end,
            (mult, decimals, sig, flags | lo.meta[3]),
        )
    raws[:] = out


def _merge_ranges(s: str, raws: list[_Raw]) -> list[tuple[int, int]]:
    """Mark ``6-8``, ``6 to 8``, ``between 6 and 8`` (the lexicons' range words) as ranges; return
    the separators."""
    seps: list[tuple[int, int]] = []
    i = 0
    while i + 1 < len(raws):
        lo, hi = raws[i], raws[i + 1]
        if hi.start - lo.end <= _MAX_RANGE_GAP and lo.kind == hi.kind == "number" and not lo.role:
            sep = _RANGE_SEP.fullmatch(s, lo.end, hi.start)
            ok = sep is not None and not _is_working(s, lo.start, hi.end)
            if ok and lo.start and trend_before(s, lo.start):
                # after a word of change, "X to Y" is the change, then the level reached ("fell
                # 25 bps to 4.75%", "rose 5% to $1.2 billion"), not a range
                ok = False
            word = sep["word"] if sep is not None else None
            if ok and word is not None and (opener := _RANGE_OPENERS.get(word)) is not None:
                # "between 6 and 8", "entre 6 et 8": a word that joins a range after its opener
                ok = opener.search(s, max(0, lo.start - 12), lo.start) is not None
            if ok and lo.unit == "%" and hi.unit != "%":
                # a percentage, then a figure: "en hausse de 5,2 % à 812 millions" (up 5.2%
                # to 812 million), no range
                ok = False
            if ok and lo.unit is None and hi.unit is not None:
                lo.unit, lo.dimension = hi.unit, hi.dimension
                lo.base = lo.value * (hi.base / hi.value) if hi.value else lo.value
            elif ok and lo.dimension != hi.dimension and hi.unit is not None:
                ok = False
            if ok:
                lo.role, hi.role = "low", "high"
                seps.append((lo.end, hi.start))
                _share_scale(lo, hi)
                if (
                    hi.start - lo.end == 1  # "2018-19", not "2017 to 95"
                    and hi.end - hi.start == 2
                    and lo.meta[3] & F_YEAR
                    and lo.end - lo.start == 4  # "2018", not "2018/19"
                    and hi.unit is None
                    and s[hi.start : hi.end].isdigit()
                    and (hi.value > lo.value % 100 or hi.value == (lo.value + 1) % 100)
                ):
                    # "2018-19": the years 2018 to 2019 (a fiscal year, as "2018/19" is;
                    # "1999-00" ends in 2000)
                    end_year = _end_year(int(lo.value), s[hi.start : hi.end])
                    hi.value = hi.base = Fraction(end_year)
                i += 2
                continue
        i += 1
    return seps


def _share_scale(lo: _Raw, hi: _Raw) -> None:
    """A range's low end written without the scale of its high end takes it (``between 5 and
    7 million``, ``$5-7 billion``: 5 million, $5 billion) when it then stays of the high end's
    size (not ``500 to 7 million``, whose 500 million would be more than ten times 7
    million)."""
    mult, decimals, sig, flags = lo.meta
    scale = hi.meta[0]
    if (
        scale != 1
        and hi.meta[3] & F_OWN_SCALE
        and mult == 1
        and not flags & (F_OWN_SCALE | F_YEAR)
        and hi.unit in (None, lo.unit)
        and abs(lo.value) * scale <= 10 * abs(hi.value)
    ):
        lo.value *= scale
        lo.base *= scale
        lo.meta = (scale, decimals, sig, flags | F_OWN_SCALE)


def parse_quantities(text: str) -> list[Quantity]:
    """Every quantity in ``text``, in order, with exact values and spans in ``text``.

    Understands thousands separators, decimals (``3.0`` = ``3``), signs (including ``−``),
    percentages, ranges (``6-8``, ``6–8``, ``6 to 8``; each end is returned with
    ``range_role``), fractions (``1/2``, ``½``, ``half``), English number words up to the
    billions, ``twice``/``thrice`` (and ``once`` before a frequency such as ``a day``), dates
    (``2024-01-05``, ``5 January 2024``, ``Jan 5, 2024``), clock times (``8:00 am`` = ``8 am``)
    and units with exact conversions (mg/g/kg/mcg/µg, mL/L, mm/cm/m, s/min/h/days/weeks...).
    List enumerators, ordinals and identifiers (``COVID-19``, ``ISO 9001``, ``B12``) are skipped.

    Examples:
        >>> [q.describe() for q in parse_quantities("Take 0.5 g twice daily for thirty days.")]
        ['0.5 g', '2', '30 day']
    """
    if not isinstance(text, str):
        raise GroundingTypeError(
            f"parse_quantities() needs the text as a str, got {type(text).__name__}",
            argument="text",
        )
    return list(scan(text).quantities)
