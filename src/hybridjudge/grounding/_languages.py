"""Numbers written in other languages: CJK and Korean numerals and French, German, Spanish, Italian,
Portuguese and Dutch number words, with those languages' scale words, month names and units.

Everything here is data built once at import (no memo): phrase tables, their regular expressions
and the units written after them. Texts are matched in their normalised form (NFKC, case folded),
so the phrases are stored case folded (``dreißig`` is ``dreissig``) and accents are optional
(``dieciseis`` reads like ``dieciséis``).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from fractions import Fraction

from hybridjudge._text import fold
from hybridjudge.grounding._lexicon import (
    LANGUAGES,
    NumberWords,
    alternation,
    lexicon,
    months,
    scales,
)
from hybridjudge.grounding._normalize import key_runs
from hybridjudge.grounding._patterns import lazy

__all__ = [
    "CJK_COUNTERS",
    "CJK_NUMERAL",
    "CJK_NUMERAL_HINT",
    "CJK_PERCENT",
    "CJK_SCALES",
    "FOREIGN_AMBIGUOUS",
    "FOREIGN_DATE_SOURCE",
    "FOREIGN_FIRST_WORDS",
    "FOREIGN_MONTHS",
    "FOREIGN_MONTH_KEYS",
    "FOREIGN_SCALES",
    "FOREIGN_UNIT_ALIASES",
    "GLUED_MARKERS",
    "HANGUL",
    "KOREAN_COUNTERS",
    "KOREAN_NATIVE",
    "KOREAN_NUMERAL",
    "KOREAN_PERCENT",
    "KOREAN_SCALES",
    "MIXED_HINT",
    "MIXED_NUMBER",
    "NO_SPACE_CHARS",
    "NO_SPACE_RANGES",
    "SCALE_CHARS",
    "by_spacing",
    "cjk_value",
    "foreign_dates_possible",
    "foreign_phrase_source",
    "foreign_value",
    "mixed_precision",
    "mixed_value",
    "no_space",
]


def _numbers(lang: str) -> NumberWords:
    """The number words of ``lang``'s lexicon (none: an empty table)."""
    return lexicon(lang).numbers or NumberWords()


# ---------------------------------------------------------------------------------------------
# Scripts written without spaces: a digit run glued to these characters is still a number.
NO_SPACE_RANGES: tuple[tuple[str, str], ...] = (
    ("\u0e00", "\u0eff"),  # Thai, Lao
    ("\u1100", "\u11ff"),  # Hangul jamo
    ("\u2e80", "\u9fff"),  # CJK radicals .. unified ideographs, kana
    ("\uac00", "\ud7af"),  # Hangul syllables
    ("\uf900", "\ufaff"),  # CJK compatibility ideographs
    ("\uff66", "\uff9f"),  # half-width katakana
    ("\U00020000", "\U0003ffff"),  # supplementary ideographs (extensions B to H)
)
"""The first and last character of each range of :data:`NO_SPACE_CHARS`."""
NO_SPACE_CHARS = "".join(f"{first}-{last}" for first, last in NO_SPACE_RANGES)
"""The characters of scripts written without spaces, as the body of a character class."""


def no_space(ch: str) -> bool:
    """Whether the character ``ch`` is of a script written without spaces: what the class
    ``[NO_SPACE_CHARS]`` matches, without compiling it (Python builds a class's table one code
    point at a time: these 41,000 cost about 4 ms)."""
    return any(first <= ch <= last for first, last in NO_SPACE_RANGES)


def by_spacing(words: Iterable[str]) -> tuple[list[str], list[str]]:
    """``words`` parted by their script: those written with spaces between words, and those of
    a script without spaces (:func:`no_space` of the first character: ``下降``, ``감소``), which
    an expression finds inside a run of text rather than at word boundaries."""
    spaced: list[str] = []
    glued: list[str] = []
    for w in words:
        (glued if no_space(w[0]) else spaced).append(w)
    return spaced, glued


# Units written after numbers, by canonical unit (added to the unit table of _quantities).
def _unit_aliases() -> dict[str, tuple[str, ...]]:
    out: dict[str, dict[str, None]] = {}
    for lang in LANGUAGES:
        if lang not in ("und", "en"):
            for canon, aliases in lexicon(lang).units.items():
                out.setdefault(canon, {}).update(dict.fromkeys(aliases))
    return {canon: tuple(aliases) for canon, aliases in out.items()}


FOREIGN_UNIT_ALIASES: dict[str, tuple[str, ...]] = _unit_aliases()
"""Units written after numbers in the lexicons of other languages than English, by canonical
unit (added to the unit table of _quantities)."""

# ---------------------------------------------------------------------------------------------
# Chinese / Japanese numerals: 三十 = 30, 一百零五 = 105, 两千 = 2000, 三万五千 = 35000.
_CJK_DIGITS: dict[str, int] = {
    w: v for lang in ("zh", "ja") for w, v in _numbers(lang).words.items() if v < 10
}
_CJK_SMALL = {w: v for w, v in lexicon("zh").scales.items() if v < 10**4}
_CJK_BIG = {w: v for w, v in lexicon("zh").scales.items() if v >= 10**4}
_CJK_CHARS = "".join([*_CJK_DIGITS, *_CJK_SMALL, *_CJK_BIG])
CJK_COUNTERS = frozenset(c for lang in ("zh", "ja") for c in lexicon(lang).counters)
"""Counters after a CJK numeral (``八百名员工``, ``三家公司``): the numeral counts, with no unit."""
_CJK_UNITS = tuple(
    sorted(
        {a for aliases in FOREIGN_UNIT_ALIASES.values() for a in aliases if ord(a[0]) > 0x2E80}
        | {"%", "倍"}
        | CJK_COUNTERS,
        key=lambda u: (-len(u), u),
    )
)
CJK_NUMERAL = lazy(
    rf"(?<![{_CJK_CHARS}])(?P<cjk>[{_CJK_CHARS}]++)"
    rf"(?P<cjku>{'|'.join(re.escape(u) for u in _CJK_UNITS)})"
)
"""A run of CJK numerals followed by a unit (``三十天``, ``两个月``); a numeral run alone (``一些``,
``万一``) is too often part of a word to be read as a number. Tried only where a run starts,
and without backtracking into it (no unit starts with a numeral), so a long run of numerals
costs linear time, not quadratic."""


CJK_PERCENT = lazy(rf"百分之(?P<cjk>[{_CJK_CHARS}]++)")
"""A percentage in CJK numerals: ``百分之三十`` is 30%."""


def cjk_value(text: str) -> int | None:
    """The value of a run of CJK numerals (``None`` when the run is not one number)."""
    if len(text) > 1 and all(ch in _CJK_DIGITS for ch in text):
        return int("".join(str(_CJK_DIGITS[ch]) for ch in text))  # 二〇二四 = 2024
    value = _compose(
        (_CJK_DIGITS[ch], 0, 0)
        if ch in _CJK_DIGITS
        else (None, _CJK_SMALL.get(ch, 0), _CJK_BIG.get(ch, 0))
        for ch in text
    )
    return None if value is None else int(value)


def _compose(tokens: Iterable[tuple[Fraction | int | None, int, int]]) -> Fraction | None:
    """The value of a number written as figures and scale characters, in order: each token is
    ``(figure, 0, 0)``, ``(None, small scale, 0)`` (十 百 千 천) or ``(None, 0, big scale)`` (万
    亿 兆 만 억): ``三万五千`` is 35,000, ``1亿5000万`` 150,000,000, ``3천만`` 30,000,000.
    ``None``: two figures in a row (not one number)."""
    total = Fraction(0)
    section = Fraction(0)
    number: Fraction | None = None
    for figure, small, big in tokens:
        if figure is not None:
            if number is not None and number != 0:
                return None
            number = Fraction(figure)
        elif small:
            section += (1 if number is None else number) * small
            number = None
        else:
            section += number or 0
            total += (section or 1) * big
            section = Fraction(0)
            number = None
    return total + section + (number or 0)


# ---------------------------------------------------------------------------------------------
# Korean numerals: Sino-Korean (삼십 = 30, 오억 = 500,000,000) and native (세 = 3, 스물다섯 =
# 25), each before a counter or a unit (the ``numbers`` of ko.json: its ``words`` under ten are
# the Sino-Korean digits, composed with the scale syllables as CJK numerals are; ``units``,
# ``tens`` and the other ``words`` are the native numbers, a ten glued before a unit).
_KO = _numbers("ko")
_KO_DIGITS = {w: v for w, v in _KO.words.items() if v < 10}
_KO_SCALES = lexicon("ko").scales
_KO_SINO = "".join([*_KO_DIGITS, *_KO_SCALES])
_KO_BIG = "".join(w for w, v in _KO_SCALES.items() if v >= 10**4)
_KO_NATIVE_UNITS = {w: v for v, w in enumerate(_KO.units) if v}
_KO_NATIVE_TENS = {
    **{w: _KO.tens_from + 10 * i for i, w in enumerate(_KO.tens)},
    **{w: v for w, v in _KO.words.items() if v >= 10},
    **{w: v for w, v in _KO_NATIVE_UNITS.items() if v == 10},
}
KOREAN_NATIVE: dict[str, int] = {
    **{w: v for w, v in _KO_NATIVE_UNITS.items() if v > 1},
    **_KO_NATIVE_TENS,
    **{
        t + u: tv + uv
        for t, tv in _KO_NATIVE_TENS.items()
        for u, uv in _KO_NATIVE_UNITS.items()
        if uv < 10
    },
}
"""The native Korean numbers before a counter, by their value (``두``: 2, ``열다섯``: 15,
``스물세``: 23); not ``한`` (one: ``한 번``, like ``一个``, is mostly "a" or "once")."""
KOREAN_COUNTERS = frozenset(lexicon("ko").counters)
"""Counters after a Korean numeral (``세 명``, ``삼천 개``): the numeral counts, with no unit."""
_KO_AFTER = {
    *KOREAN_COUNTERS,
    *(a for aliases in lexicon("ko").units.values() for a in aliases),
    *lexicon("ko").percent_words,
}
"""What a Korean numeral stands before: a counter, a unit or a percent word (an alternation
orders them longest first)."""
KOREAN_PERCENT = frozenset(lexicon("ko").percent_words)
"""The words after a Korean numeral that make it a percentage (``퍼센트``)."""
KOREAN_NUMERAL = lazy(
    r"(?<![가-힣])(?:(?P<sino>(?:["
    + _KO_SINO
    + r"]*["
    + _KO_BIG
    + r"]\s)*["
    + _KO_SINO
    + r"]++)\s?"
    r"|(?P<native>" + alternation(KOREAN_NATIVE) + r")\s)"
    r"(?P<kou>" + alternation(_KO_AFTER) + r")(?!째)"
)
"""A Korean numeral before a counter or a unit (``삼천 명``, ``오억 원``, ``세 곳``, ``스무 살``):
a native one with a space before it (``세대``, "generation", is no count), a Sino-Korean one
glued or not, a space after each of its ten thousands (``삼억 오천만 원``); not an ordinal
(``두 번째``)."""
_KOREAN_STARTS = "".join(sorted({*_KO_DIGITS, *_KO_SCALES, *(w[0] for w in KOREAN_NATIVE)}))
"""The syllables a Korean numeral may start with (in :data:`CJK_NUMERAL_HINT`)."""
HANGUL = lazy("[\uac00-\ud7a3]")
"""A Hangul syllable: a text without one holds no :data:`KOREAN_NUMERAL`."""


def korean_numbers(s: str) -> Iterator[tuple[int, int, int, str]]:
    """The Korean numerals of ``s`` before a counter or a unit (:data:`KOREAN_NUMERAL`):
    ``(start, end, value, what follows)``. A Sino-Korean one counts only with a scale syllable
    (``이``, "this", ``사``, "company", alone are words), and not a scale syllable under ten
    thousand alone (``백``, ``천`` are also family names: ``백 대표``, ``천 회장``); one of value
    one not at all."""
    for m in KOREAN_NUMERAL().finditer(s):
        sino = m["sino"]
        if sino is None:
            value: int | None = KOREAN_NATIVE[m["native"]]
        elif not any(ch in _KO_SCALES for ch in sino) or (
            len(sino) == 1 and _KO_SCALES[sino] < 10**4
        ):
            continue
        else:
            value = _korean_sino(sino)
        if value is not None and value != 1:
            yield m.start(), m.end(), value, m["kou"]


def _korean_sino(text: str) -> int | None:
    """The value of a run of Sino-Korean digit and scale syllables (``삼천오백`` = 3,500; ``삼억
    오천만`` = 350,000,000)."""
    value = _compose(
        (_KO_DIGITS[ch], 0, 0)
        if ch in _KO_DIGITS
        else (None, _KO_SCALES[ch], 0)
        if _KO_SCALES[ch] < 10**4
        else (None, 0, _KO_SCALES[ch])
        for ch in text
        if not ch.isspace()
    )
    return None if value is None else int(value)


_MIXED_SMALL = {**_CJK_SMALL, **{w: v for w, v in lexicon("ko").scales.items() if v < 10**4}}
_MIXED_BIG = {**_CJK_BIG, **{w: v for w, v in lexicon("ko").scales.items() if v >= 10**4}}
CJK_SCALES = frozenset({*_CJK_SMALL, *_CJK_BIG})
"""The scale characters of CJK numerals (十 百 千 万 萬 亿 億 兆)."""
KOREAN_SCALES = frozenset({*_MIXED_SMALL, *_MIXED_BIG}) - CJK_SCALES
"""Korean scale characters after figures (백 천 만 억 조)."""
_SMALL_CLASS = "".join(_MIXED_SMALL)
_BIG_CLASS = "".join(_MIXED_BIG)
_MIXED_FIGURE = r"(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?"
"""A figure in a mixed number, its thousands grouped by commas or not (``1兆2,345億``)."""
MIXED_NUMBER = lazy(
    rf"(?<![\d.,]){_MIXED_FIGURE}(?:\s?(?:{_MIXED_FIGURE}\s?)?[{_SMALL_CLASS}{_BIG_CLASS}]){{1,6}}"
    r"(?:(?:(?<=[万萬])|(?<=만)[ ]?)(?:\d{4}|\d,\d{3})(?![\d.,]))?"
)
"""A figure in digits with CJK or Korean scale characters (``1亿5000万``, ``3천만``, ``5만``,
``1억 2천만``, ``1兆2,345億``, ``2조 5천억``), and four digits after ten thousand (``5万3000``,
``3万2,400``, ``3만 2,400``, Korean with a space or none: 53,000 and 32,400; fewer are
ambiguous, ``5万3`` is spoken for 53,000): read whole by :func:`mixed_value`."""
SCALE_CHARS = _SMALL_CLASS + _BIG_CLASS
"""The CJK and Korean scale characters (``十百千万亿億兆`` and ``십백천만억조``), each once: what
:func:`mixed_value` composes."""
MIXED_HINT = lazy(rf"\d\s?[{_SMALL_CLASS}{_BIG_CLASS}]")
"""A digit before a scale character: a text where :data:`MIXED_NUMBER` may match."""
CJK_NUMERAL_HINT = lazy(
    "["
    + re.escape("".join(sorted({*_CJK_CHARS, *_SMALL_CLASS, *_BIG_CLASS, *_KOREAN_STARTS})))
    + "]"
)
"""A CJK numeral, a CJK or Korean scale character or the first syllable of a Korean numeral: a
text without one holds no match of :data:`CJK_NUMERAL`, :data:`CJK_PERCENT`,
:data:`KOREAN_NUMERAL` nor :data:`MIXED_HINT` (one character-class search;
a text with curly quotes or dashes is no ASCII text, yet has none)."""
_MIXED_TOKEN = lazy(rf"({_MIXED_FIGURE})|([{_SMALL_CLASS}])|([{_BIG_CLASS}])")


def mixed_value(text: str) -> Fraction | None:
    """The value of a :data:`MIXED_NUMBER` (``None``: not one number)."""
    return _compose(
        (Fraction(m[1].replace(",", "")), 0, 0)
        if m[1]
        else (None, _MIXED_SMALL[m[2]], 0)
        if m[2]
        else (None, 0, _MIXED_BIG[m[3]])
        for m in _MIXED_TOKEN().finditer(text)
    )


def mixed_precision(text: str) -> tuple[int, int, int]:
    """What a :data:`MIXED_NUMBER` is written to: the scale of its last figure (the product of
    the scale characters after it: ``7억`` 10**8, ``7천만`` 10**7, ``1억 2000만`` 10**4; 1 when
    it ends with digits), and that figure's decimals and significant digits (``1.5억``: one
    decimal, two digits): as precise as ``700 million`` is, not as a figure written out."""
    tokens = list(_MIXED_TOKEN().finditer(text))
    scale = 1
    k = len(tokens) - 1
    while k >= 0 and not tokens[k][1]:
        scale *= _MIXED_SMALL[tokens[k][2]] if tokens[k][2] else _MIXED_BIG[tokens[k][3]]
        k -= 1
    if k < 0:
        return 1, 0, 1
    figure = tokens[k][1].replace(",", "")
    decimals = len(figure.partition(".")[2])
    return scale, decimals, len(figure.replace(".", "").lstrip("0")) or 1


# ---------------------------------------------------------------------------------------------
# Dates with a German, French or Spanish month name: "15. März 2024", "1er janvier 2024",
# "31 de diciembre de 2023" (day, month, year: the order these languages write).

_FOREIGN_LANGUAGES = ("fr", "de", "es", "it", "pt", "nl")
FOREIGN_MONTHS: dict[str, int] = months(_FOREIGN_LANGUAGES)
"""German, French and Spanish month names and their usual abbreviations, and the Italian,
Portuguese and Dutch names (written out), case folded."""
_ENGLISH_MONTHS = frozenset(months(("en",))) & frozenset(FOREIGN_MONTHS)
"""The month names other languages write as English does (``april``, ``nov``)."""
FOREIGN_MONTH_KEYS = key_runs(name for name in FOREIGN_MONTHS if name not in _ENGLISH_MONTHS)
"""The longest ASCII letter run of each month name English does not write alike: a text whose
letter runs hold none of them, nor :data:`_DOTTED_ENGLISH_NAME`, writes no date of
:data:`FOREIGN_DATE_SOURCE` (a cheap pre-filter; ``märz`` is found by ``rz``)."""
_DOTTED_ENGLISH_NAME = lazy(rf"\.[ \t]*(?:{alternation(_ENGLISH_MONTHS)})[a-z]*\.?[ \t]+\d")
"""German writes the day with a full stop before months English also names
(:data:`_ENGLISH_MONTHS`: ``15. April 2024``, ``3. Nov. 2023``); the English dates never do (the
expression starts with its full stop: the engine skips ahead to it)."""


_ENGLISH_MONTH_RUNS = frozenset(m.encode() for m in _ENGLISH_MONTHS)
_ANY_MONTH_RUNS = FOREIGN_MONTH_KEYS | _ENGLISH_MONTH_RUNS


def foreign_dates_possible(s: str, words: frozenset[bytes]) -> bool:
    """Whether ``s`` (normalised, with its ASCII letter runs ``words``) may hold a date of
    :data:`FOREIGN_DATE_SOURCE`."""
    if words.isdisjoint(_ANY_MONTH_RUNS):  # the common case: one set operation
        return False
    return not words.isdisjoint(FOREIGN_MONTH_KEYS) or (
        not words.isdisjoint(_ENGLISH_MONTH_RUNS) and _DOTTED_ENGLISH_NAME().search(s) is not None
    )


_MONTH_ALT = alternation(FOREIGN_MONTHS)
FOREIGN_DATE_SOURCE = (
    rf"(?<![\w.,])(?P<d>[0-3]?\d)(?:\.[ \t]*|(?:er|º|°)?[ \t]+)(?:de[ \t]+)?"
    rf"(?P<m>{_MONTH_ALT})\.?[ \t]+(?:del?[ \t]+)?(?P<y>\d{{4}})(?![\w]|[.,]\d)"
)
"""A date written day, month name, year in German (``15. März 2024``), French (``1er janvier
2024``) or Spanish (``31 de diciembre de 2023``): the year is required (``15. März`` alone, or
``mars 2024``, is left to the figures). Compiled on first need (``_patterns.compiled``), as the
other expressions of this module: ``hybridjudge check`` on an English case never compiles it."""


# ---------------------------------------------------------------------------------------------
# French, German and Spanish number words, 0-100 and hundreds / thousands / millions.


_KEY = re.compile(r"[\s-]+")


def _strip_accents(word: str) -> str:
    if word.isascii():  # nothing to decompose, no accent to drop
        return word.casefold()
    return "".join(
        c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c)
    ).casefold()


def _joined_tens(
    out: dict[str, int],
    tens: dict[int, str],
    units: Sequence[str],
    join: str,
    more: dict[str, int],
) -> None:
    """Each tens word alone and joined to a unit word (``units``, from zero; and those of
    ``more``) by ``join``: ``treinta y cinco``, ``vinte e duas``."""
    words = {**{w: u for u, w in enumerate(units) if 0 < u < 10}, **more}
    for t, w in tens.items():
        out[w] = t
        for unit, u in words.items():
            out[f"{w} {join} {unit}"] = t + u


def _glued_tens(
    out: dict[str, int],
    tens: dict[int, str],
    units: Sequence[str],
    glue: Callable[[str, str, int], str],
) -> None:
    """Each tens word alone and glued to each unit from one to nine (``units``, from zero) as
    ``glue(tens, unit, u)`` writes them: ``einundzwanzig``, ``ventotto``, ``tweeëntwintig``."""
    for t, w in tens.items():
        out[w] = t
        for u in range(1, 10):
            out[glue(w, units[u], u)] = t + u


def _glued_multiples(
    out: dict[str, int], units: Sequence[str], hundred: str, thousand: str
) -> None:
    """Two to nine hundred and thousand written as one word, the unit before the multiple
    (``zweihundert``, ``tremila``, ``driehonderd``); ``units`` from zero."""
    for u, unit in enumerate(units[2:10], start=2):
        out[unit + hundred] = u * 100
        out[unit + thousand] = u * 1000


def _hundreds(out: dict[str, int], words: Iterable[str], start: int = 2) -> None:
    """The hundreds from ``start``, masculine and feminine (``doscientos``, ``doscientas``)."""
    for i, w in enumerate(words, start=start):
        out[w] = out[w[:-2] + "as"] = i * 100


def _base(n: NumberWords) -> dict[str, int]:
    """The unit words by value (zero first)."""
    return {w: i for i, w in enumerate(n.units)}


def _french() -> dict[str, int]:
    n = _numbers("fr")
    units = n.units
    out = _base(n)
    tens = dict(zip(range(n.tens_from, 100, 10), n.tens, strict=False))
    for t, w in tens.items():
        out[w] = t
        out[f"{w} et {units[1]}"] = t + 1
        out[f"{w} et {units[1]}e"] = t + 1
        for u in range(2, 10):
            out[f"{w}-{units[u]}"] = t + u
    for u in range(10, 20):  # soixante-dix .. soixante-dix-neuf
        out[f"{tens[60]}-{units[u]}"] = 60 + u
    eighty = next(w for w, v in n.words.items() if v == 80 and w.endswith("s"))[:-1]
    for u in range(1, 20):  # quatre-vingt-un .. quatre-vingt-dix-neuf
        out[f"{eighty}-{units[u]}"] = 80 + u
    out.update(n.words)
    return out


def _german() -> dict[str, int]:
    n = _numbers("de")
    out = _base(n)
    tens = dict(zip(range(n.tens_from, 100, 10), n.tens, strict=True))
    one = next(w for w, v in n.words.items() if v == 1)
    # the unit, "und", the tens; one is "ein" there (einundzwanzig)
    _glued_tens(out, tens, n.units, lambda w, unit, u: f"{one if u == 1 else unit}und{w}")
    _glued_multiples(out, n.units, n.hundred, n.thousand)
    out.update(n.words)
    return out


def _spanish() -> dict[str, int]:
    n = _numbers("es")
    out = _base(n)
    out.update(n.words)
    tens = dict(zip(range(n.tens_from, 100, 10), n.tens, strict=True))
    more = {w: v for w, v in n.words.items() if v < 10}
    _joined_tens(out, tens, n.units, n.conjunction, more)
    _hundreds(out, n.hundreds)
    return out


def _italian() -> dict[str, int]:
    n = _numbers("it")
    out = _base(n)
    out.update(n.words)
    tens = dict(zip(range(n.tens_from, 100, 10), n.tens, strict=True))
    # the tens drop their vowel before uno and otto (ventuno, trentotto); tre is tré
    _glued_tens(
        out,
        tens,
        n.units,
        lambda w, unit, u: (w[:-1] if u in (1, 8) else w) + ("tré" if u == 3 else unit),
    )
    _glued_multiples(out, n.units, n.hundred, n.thousand)
    return out


def _portuguese() -> dict[str, int]:
    n = _numbers("pt")
    out = _base(n)
    out.update(n.words)  # cento e vinte: the e after a hundred, see foreign_value
    tens = dict(zip(range(n.tens_from, 100, 10), n.tens, strict=True))
    more = {w: v for w, v in n.words.items() if v < 10}
    _joined_tens(out, tens, n.units, n.conjunction, more)
    _hundreds(out, n.hundreds)
    return out


def _dutch() -> dict[str, int]:
    n = _numbers("nl")
    out = _base(n)
    tens = dict(zip(range(n.tens_from, 100, 10), n.tens, strict=True))
    # the unit, "en", the tens; a diaeresis after a unit ending in e (tweeëntwintig)
    _glued_tens(
        out, tens, n.units, lambda w, unit, u: f"{unit}{'ën' if unit.endswith('e') else 'en'}{w}"
    )
    _glued_multiples(out, n.units, n.hundred, n.thousand)
    out.update(n.words)
    return out


FOREIGN_SCALES: dict[str, int] = {
    fold(w, None): scales()[w] for lang in _FOREIGN_LANGUAGES for w in _numbers(lang).scales
}
"""Scale words above the thousands (``deux millions``, ``drei Millionen``, ``dos millones``; and
after a figure, ``8,7 milioni``, ``3,2 milhões``, ``1,5 miljard``: Portuguese ``bilhão`` is
Brazil's, 10^9)."""


def _phrases() -> dict[str, int]:
    out: dict[str, int] = {}
    for table in (_french(), _german(), _spanish(), _italian(), _portuguese(), _dutch()):
        for w, v in table.items():
            out[_KEY.sub(" ", fold(w, None))] = v
            out[_KEY.sub(" ", _strip_accents(w))] = v
    for w, v in FOREIGN_SCALES.items():
        out[w] = v
        out[_strip_accents(w)] = v
    return out


FOREIGN_WORDS: dict[str, int] = _phrases()
"""Every French, German, Spanish, Italian, Portuguese and Dutch phrase (folded; hyphens and
spaces interchangeable)."""

FOREIGN_AMBIGUOUS = frozenset(
    fold(w, None) for lang in _FOREIGN_LANGUAGES for w in _numbers(lang).ambiguous
)
"""Words that are also common words of English or articles of their own language: read as a
number only with a unit after them (``un jour``, ``once días``)."""


def _phrase_pattern(phrase: str) -> str:
    return r"[\s-]+".join(re.escape(p) for p in _KEY.split(phrase))


@functools.cache
def _alternation() -> str:
    """The alternation of every phrase of :data:`FOREIGN_WORDS`, longest first, made on first
    use (a text with a foreign number word: the scan's pre-filter finds none in most)."""
    return "|".join(_phrase_pattern(p) for p in sorted(FOREIGN_WORDS, key=lambda p: (-len(p), p)))


GLUED_MARKERS = tuple(
    w
    for lang in _FOREIGN_LANGUAGES
    if _numbers(lang).glued
    for w in (_numbers(lang).hundred, _numbers(lang).thousand)
)
"""German and Dutch write a number below a million as one word: what follows a hundred or a
thousand is glued to it (``hundertzwanzig``, ``zweitausendfünfhundert``,
``tweehonderdvijftig``), in German also after ``und`` (``hundertundzwanzig``)."""
_AFTER_GLUED = "|".join(f"(?<={m})" for m in GLUED_MARKERS)


@functools.cache
def foreign_phrase_source() -> str:
    """Regex source: one or more phrases in a row (``trois mille``, ``dos millones``), and in
    Portuguese an ``e`` after a hundred or a thousand (``cento e vinte``, ``mil e quinhentos``);
    in German and Dutch glued onto a hundred or a thousand (:data:`GLUED_MARKERS`).
    Each phrase after a separator, or at a word start (the first): the alternation of ~800
    phrases is written once, and compiles in half the time it took written twice. Made on first
    use, as the expressions that hold it are."""
    return (
        r"(?:(?:(?:(?:(?<=ntos|ntas|ento)|(?<=mil))[ \t]+e(?=[ \t]))?[\s-]+"
        rf"|(?:{_AFTER_GLUED})(?:und)?(?=[^\W\d_])"
        rf"|(?<![^\W{NO_SPACE_CHARS}]|-))(?:{_alternation()}))+(?![\w-])"
    )


@functools.cache
def _one_phrase() -> re.Pattern[str]:
    """One phrase (:func:`foreign_value` reads a run of them one by one), compiled on first
    use."""
    return re.compile(rf"(?:{_alternation()})(?:(?![\w])|{_AFTER_GLUED})")


FOREIGN_FIRST_WORDS: dict[str, frozenset[str]] = {}
"""ASCII letter run (the longest of the phrase's first word) -> first words that contain it:
a text whose letter runs lack the key cannot contain the word (a cheap pre-filter)."""


_LETTER_RUN = re.compile(r"[a-z]+")


def _build_first_words() -> None:
    acc: dict[str, set[str]] = {}
    for phrase in FOREIGN_WORDS:
        first = _KEY.split(phrase)[0]
        if first in ("six", "million", "millions"):
            continue  # English spells these alike; the English parser starts there
        runs = _LETTER_RUN.findall(first)
        if not runs:  # pragma: no cover - every phrase has ASCII letters
            continue
        acc.setdefault(max(runs, key=len), set()).add(first)
    FOREIGN_FIRST_WORDS.update({k: frozenset(v) for k, v in acc.items()})


_build_first_words()


def foreign_value(phrase: str) -> Fraction | None:
    """The value of a run of number phrases of :data:`FOREIGN_WORDS` (``None``: not one
    number)."""
    total = 0
    current = 0
    pos = 0
    seen = False
    while pos < len(phrase):
        if phrase[pos] in " \t\n-":
            pos += 1
            continue
        if phrase.startswith("e ", pos) and (
            (current >= 100 and current % 100 == 0) or (total and not current)
        ):
            pos += 2  # "cento e vinte", "mil e quinhentos": Portuguese joins them so
            continue
        if phrase.startswith("und", pos) and phrase.endswith(GLUED_MARKERS, 0, pos):
            pos += 3  # "hundertundzwanzig": German may join the glued rest so
            continue
        m = _one_phrase().match(phrase, pos)
        if m is None:
            return None
        v = FOREIGN_WORDS[_KEY.sub(" ", m.group())]
        pos = m.end()
        seen = True
        if v >= 10**6:
            total += (current or 1) * v
            current = 0
        elif v == 1000:
            total += (current or 1) * 1000
            current = 0
        elif v == 100 and current and current < 100:
            current *= 100
        else:
            current += v
    if not seen:
        return None
    return Fraction(total + current)
