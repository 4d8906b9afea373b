"""Finding quantities in normalised text: numbers with units, percentages, ranges, dates, times.

A cheap pre-filter finds the positions where a quantity can start (digit runs by one character
class pass, number words and month names through the text's set of letter runs); precompiled
master expressions (one for digits, one for letters) are then tried only there, left to right.
Each candidate's text is parsed once (memoised on its text) into exact values
(:class:`fractions.Fraction`). A last pass merges ``6-8``, ``6–8`` and ``6 to 8`` into ranges (two
quantities with ``range_role``) and lets the unit of the high end apply to a bare low end.

Not quantities: list enumerators at the start of a line or after ``:``/``;``/``,`` (``1.``,
``2)``, ``(3)``), ordinals (``3rd``), numbers glued into names (``H2O``, ``B12``, ``HbA1c``), and
identifiers such as ``COVID-19`` or ``ISO 9001`` -- the latter are reported as :class:`Ident` so
the grounding check can decide with the context whether the digits are a claim.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, Literal

from hybridjudge.grounding._models import Quantity, QuantityKind
from hybridjudge.grounding._normalize import NormalizedText, normalize

__all__ = ["Ident", "Scan", "letter_runs", "parse_quantities", "placeholder_of", "scan"]

# ---------------------------------------------------------------------------------------------
# Units: alias -> (canonical unit, dimension, factor to the dimension's base unit). Conversions
# are exact and only inside a dimension; unknown words after a number are not units.
_UNIT_GROUPS: tuple[tuple[str, str, Fraction, tuple[str, ...]], ...] = (
    ("mcg", "mass", Fraction(1, 10**6), ("mcg", "μg", "ug", "microgram", "micrograms")),
    ("mg", "mass", Fraction(1, 1000), ("mg", "milligram", "milligrams", "milligramme")),
    ("g", "mass", Fraction(1), ("g", "gm", "gram", "grams", "gramme", "grammes")),
    ("kg", "mass", Fraction(1000), ("kg", "kilogram", "kilograms", "kilo", "kilos")),
    (
        "μl",
        "volume",
        Fraction(1, 10**6),
        ("μl", "ul", "microliter", "microliters", "microlitre", "microlitres"),
    ),
    (
        "ml",
        "volume",
        Fraction(1, 1000),
        ("ml", "milliliter", "milliliters", "millilitre", "millilitres", "cc"),
    ),
    ("cl", "volume", Fraction(1, 100), ("cl", "centiliter", "centilitre")),
    ("dl", "volume", Fraction(1, 10), ("dl", "deciliter", "deciliters", "decilitre", "decilitres")),
    ("l", "volume", Fraction(1), ("l", "liter", "liters", "litre", "litres")),
    (
        "μm",
        "length",
        Fraction(1, 10**6),
        ("μm", "um", "micrometer", "micrometers", "micrometre", "micrometres", "micron", "microns"),
    ),
    (
        "mm",
        "length",
        Fraction(1, 1000),
        ("mm", "millimeter", "millimeters", "millimetre", "millimetres"),
    ),
    (
        "cm",
        "length",
        Fraction(1, 100),
        ("cm", "centimeter", "centimeters", "centimetre", "centimetres"),
    ),
    ("m", "length", Fraction(1), ("m", "meter", "meters", "metre", "metres")),
    ("km", "length", Fraction(1000), ("km", "kilometer", "kilometers", "kilometre", "kilometres")),
    ("ms", "time", Fraction(1, 1000), ("ms", "millisecond", "milliseconds")),
    ("s", "time", Fraction(1), ("s", "sec", "secs", "second", "seconds")),
    ("min", "time", Fraction(60), ("min", "mins", "minute", "minutes")),
    ("h", "time", Fraction(3600), ("h", "hr", "hrs", "hour", "hours")),
    ("day", "time", Fraction(86400), ("day", "days")),
    ("week", "time", Fraction(604800), ("wk", "wks", "week", "weeks")),
    ("month", "calendar", Fraction(1), ("mo", "mos", "month", "months")),
    ("year", "calendar", Fraction(12), ("yr", "yrs", "year", "years")),
    ("mol", "amount", Fraction(1), ("mol", "mole", "moles")),
    ("mmol", "amount", Fraction(1, 1000), ("mmol", "millimole", "millimoles")),
    ("μmol", "amount", Fraction(1, 10**6), ("μmol", "umol", "micromole", "micromoles")),
    ("nmol", "amount", Fraction(1, 10**9), ("nmol", "nanomole", "nanomoles")),
    (
        "°c",
        "temp_c",
        Fraction(1),
        (
            "°c",
            "° c",
            "degrees c",
            "degrees celsius",
            "degree celsius",
            "celsius",
            "degrees centigrade",
        ),
    ),
    (
        "°f",
        "temp_f",
        Fraction(1),
        ("°f", "° f", "degrees f", "degrees fahrenheit", "degree fahrenheit", "fahrenheit"),
    ),
    ("usd", "currency-usd", Fraction(1), ("usd", "dollar", "dollars", "us$")),
    ("eur", "currency-eur", Fraction(1), ("eur", "euro", "euros")),
    ("gbp", "currency-gbp", Fraction(1), ("gbp",)),
    # "degrees" alone (temperature or angle?) is consumed but carries no unit.
    ("", "", Fraction(1), ("degrees", "degree", "°")),
)

_UNITS: dict[str, tuple[str | None, str | None, Fraction]] = {}
for _canon, _dim, _factor, _aliases in _UNIT_GROUPS:
    for _alias in _aliases:
        _UNITS[_alias] = (_canon or None, _dim or None, _factor)

_CURRENCY_SYMBOLS = {"$": "usd", "€": "eur", "£": "gbp", "¥": "jpy"}
_MULTIPLIERS = {"thousand": 1000, "million": 10**6, "billion": 10**9}

_SMALL = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
}
_TENS = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_SCALES = {"thousand": 1000, "million": 10**6, "billion": 10**9}

_MONTHS = {
    "january": 1,
    "jan": 1,
    "february": 2,
    "feb": 2,
    "march": 3,
    "mar": 3,
    "april": 4,
    "apr": 4,
    "may": 5,
    "june": 6,
    "jun": 6,
    "july": 7,
    "jul": 7,
    "august": 8,
    "aug": 8,
    "september": 9,
    "sept": 9,
    "sep": 9,
    "october": 10,
    "oct": 10,
    "november": 11,
    "nov": 11,
    "december": 12,
    "dec": 12,
}


def _alt(words: Iterable[str]) -> str:
    """A regex alternation of literal words, longest first (inner spaces match any spaces)."""
    items = sorted(set(words), key=lambda w: (-len(w), w))
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in items)


_UNIT_ALT = _alt(_UNITS)
_WORD_ALT = _alt([*_SMALL, *_TENS, "hundred", *_SCALES])
_MONTH_ALT = _alt(_MONTHS)
_FREQ = (
    r"(?:\s+(?:a|an|per|every|each)\s+(?:day|week|month|year|hour|night|morning|evening)"
    r"|\s+(?:daily|weekly|monthly|yearly|annually|nightly|hourly))\b"
)


def _unit_part(prefix: str) -> str:
    """The optional unit after a number, with group names prefixed (names must be unique)."""
    return (
        rf"(?:(?P<{prefix}pct>\s?%|\s?per\s?cent(?![a-z]))"
        rf"|(?:\s?|-)(?P<{prefix}unit>{_UNIT_ALT})"
        rf"(?:(?:/|\s+per\s+)(?P<{prefix}den>{_UNIT_ALT}))?(?![a-zμ°])"
        rf"|\s?(?P<{prefix}opq>(?!and/|or/)[a-zμ]{{1,4}}/[a-zμ]{{1,4}})(?![a-zμ]))?"
    )


_ALTERNATIVES: dict[str, str] = {
    "enum": r"""(?P<enum>(?:^|(?<=\n))[ \t]*(?:[-*•·][ \t]*)?(?:\(\d{1,2}\)|\d{1,2}[.)])(?=\s)
       |(?:(?<=[:;,])|(?<=[:;,][ \t])|(?<=\band[ \t])|(?<=\bor[ \t]))\(\d{1,2}\)(?=\s))""",
    "iso": r"""(?P<iso>(?<![\w.])(?P<iy>\d{4})-(?P<im>\d{1,2})-(?P<id>\d{1,2})(?![\w-]))""",
    "dmy": rf"""(?P<dmy>(?<![\w.])(?P<dd>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<dm>{_MONTH_ALT})\.?,?
       \s+(?P<dy>\d{{4}})(?![\w]))""",
    "mdy": rf"""(?P<mdy>(?<![\w])(?P<mm>{_MONTH_ALT})\.?\s+(?P<md>\d{{1,2}})(?:st|nd|rd|th)?
       (?:,?\s+(?P<my>\d{{4}}))?(?![\w:]))""",
    "sdate": r"""(?P<sdate>(?<![\w./])\d{1,2}/\d{1,2}/\d{2,4}(?![\w/]))""",
    "time": r"""(?P<time>(?<![\w.:])(?P<th>\d{1,2})(?::(?P<tm>\d{2}))?\s?(?P<ap>a\.m\.|p\.m\.|am|pm)(?![a-z])
       |(?<![\w.:])(?P<th2>\d{1,2}):(?P<tm2>\d{2})(?![\d:]))""",
    "num": rf"""(?P<num>(?<![\w.,/])(?:(?P<cur>[$€£¥])\s?)?(?P<sign>[-+](?=[\d.]))?
       (?:(?P<mi>\d+)\s(?P<mn>\d+)/(?P<md2>\d+)(?![\d/])
         |(?P<fn>\d+)/(?P<fd>\d+)(?![\d/])
         |(?P<dec>(?:\d{{1,3}}(?:,\d{{3}})+(?!\d)|\d+)(?:\.\d+)?|\.\d+))
       (?:\s?(?P<mult>thousand|million|billion)(?![a-z]))?
       {_unit_part("n")}(?![\w]))""",
    "times": rf"""(?P<times>(?<![\w])(?:twice|thrice|once(?={_FREQ}))(?![\w]))""",
    "words": rf"""(?P<words>(?<![\w-])(?:a\s+(?=(?:hundred|thousand|million|billion)\b))?(?:{_WORD_ALT})
       (?:(?:[ \t]+|-|[ \t]+and[ \t]+)(?:{_WORD_ALT}))*(?:[ \t]+and[ \t]+a[ \t]+half)?(?![\w])
       (?:[ \t]*\([ \t]*(?P<wpar>\d[\d,.]*)[ \t]*\))?{_unit_part("w")}(?![\w]))""",
    "half": r"""(?P<half>(?<![\w])half(?![\w]))""",
    "ident": r"""(?P<ident>(?<![\w-])[a-z]+-?\d[a-z\d]*(?:-\d+)?(?![\w-]))""",
}
"""The master expression's alternatives, in priority order (named groups are unique)."""


def _master(names: tuple[str, ...]) -> re.Pattern[str]:
    alternation = "\n|".join(_ALTERNATIVES[n] for n in names)
    return re.compile(rf"(?<!\w)(?:{alternation})", re.VERBOSE | re.MULTILINE)


_MASTER = _master(tuple(_ALTERNATIVES))
# At a digit or a letter only some alternatives can start; smaller expressions match faster.
_MASTER_DIGIT = _master(("enum", "iso", "dmy", "sdate", "time", "num"))
_MASTER_ALPHA = _master(("mdy", "times", "words", "half", "ident"))
# Upper-case words before a number that make it a quantity, not an identifier ("USD 500").
_NOT_ACRONYMS = frozenset(
    {"usd", "eur", "gbp", "jpy", "chf", "cad", "aud", "cny", "inr", "krw", "thb", "nzd", "sek"}
    | {a for a in _UNITS if a.isalpha()}
)
_ACRONYM_BEFORE = re.compile(r"(?<![\w])([a-z]{2,6}) $")
_MAX_RANGE_GAP = 11  # len(" through ") plus slack: longer gaps cannot be range separators
_RANGE_SEP = re.compile(r"\s*(?:-|to|through|and)\s*")
_BETWEEN_BEFORE = re.compile(r"(?:between|from)\s+$")


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


# A parsed candidate before spans are attached: kind, value, unit, dimension, base value.
_Parsed = tuple[QuantityKind, Fraction, str | None, str | None, Fraction]


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
    placeholder: str
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
    placeholders: tuple[str, ...]
    """The same quantities' canonical spellings (see :func:`placeholder_of`)."""
    idents: tuple[Ident, ...]
    """Identifiers with digits."""
    separators: tuple[tuple[int, int], ...]
    """Normalised spans of the text between the two ends of each range."""
    words: frozenset[bytes]
    """Every run of ASCII letters in the normalised text (a cheap pre-filter for markers)."""


@lru_cache(maxsize=8192)
def _dec(text: str) -> Fraction:
    return Fraction(text.replace(",", ""))


def _unit_info(
    unit: str | None, den: str | None, opq: str | None
) -> tuple[str | None, str | None, Fraction]:
    if opq is not None:
        return opq, f"opaque-{opq}", Fraction(1)
    if unit is None:
        return None, None, Fraction(1)
    canon, dim, factor = _UNITS[re.sub(r"\s+", " ", unit)]
    if den is not None and canon is not None:
        dcanon, ddim, dfactor = _UNITS[re.sub(r"\s+", " ", den)]
        if dcanon is not None and ddim is not None:
            return f"{canon}/{dcanon}", f"{dim}/{ddim}", factor / dfactor
    return canon, dim, factor


def _words_value(phrase: str) -> Fraction | None:
    """English number words to a value; ``None`` for a sequence that is not one number."""
    tokens = [t for t in re.split(r"[\s-]+", phrase) if t]
    extra = Fraction(0)
    if len(tokens) >= 3 and tokens[-3:] == ["and", "a", "half"]:
        extra = Fraction(1, 2)
        tokens = tokens[:-3]
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
        elif tok in _SCALES:
            total += (current or 1) * _SCALES[tok]
            current = 0
            last = "scale"
        else:  # pragma: no cover - the regex admits only the words above
            return None
    return Fraction(total + current) + extra


_Q_OPEN, _Q_DIM, _Q_BASE, _Q_CLOSE = "\ue000", "\ue001", "\ue002", "\ue003"


def placeholder_of(kind: str, value: Fraction, dimension: str | None, base: Fraction) -> str:
    """The canonical spelling of a quantity: value as written, dimension, base value.

    Private-use characters delimit it, so it never touches the words around it.
    """
    raw = f"{int(value):08d}" if kind == "date" else str(value)
    return f"{_Q_OPEN}{raw}{_Q_DIM}{dimension or ''}{_Q_BASE}{base}{_Q_CLOSE}"


_PARSE_CACHE: dict[tuple[str, str], tuple[_Parsed, str] | None] = {}
_PARSE_CACHE_MAX = 65536
_MISSING: Any = object()
_MAX_NUMBER_CHARS = 80  # longer digit runs are not quantities (and would overflow int parsing)
_MAX_WORDS_CHARS = 400  # "nine hundred and ninety-nine million nine hundred ..." fits


def _parse_cached(group: str, m: re.Match[str]) -> tuple[_Parsed, str] | None:
    """Parse one candidate, memoised on its alternative and text (values repeat across texts)."""
    key = (group, m.group())
    try:
        return _PARSE_CACHE[key]
    except KeyError:
        pass
    p = _parse(group, m)
    parsed = None if p is None else (p, placeholder_of(p[0], p[1], p[3], p[4]))
    if len(_PARSE_CACHE) >= _PARSE_CACHE_MAX:
        _PARSE_CACHE.clear()
    _PARSE_CACHE[key] = parsed
    return parsed


def _parse(group: str, m: re.Match[str]) -> _Parsed | None:
    """Parse one master-regex candidate into exact values (``None``: not a quantity after all)."""
    if m.end() - m.start() > (_MAX_WORDS_CHARS if group == "words" else _MAX_NUMBER_CHARS):
        return None
    if group == "iso":
        return _date(int(m["iy"]), int(m["im"]), int(m["id"]))
    if group == "dmy":
        return _date(int(m["dy"]), _MONTHS[m["dm"]], int(m["dd"]))
    if group == "mdy":
        return _date(int(m["my"] or 0), _MONTHS[m["mm"]], int(m["md"]))
    if group == "time":
        return _time(m["th"] or m["th2"], m["tm"] or m["tm2"], m["ap"])
    if group == "times":
        v = Fraction({"once": 1, "twice": 2, "thrice": 3}[m.group()])
        return ("number", v, None, None, v)
    if group == "half":
        return ("number", Fraction(1, 2), None, None, Fraction(1, 2))
    if group == "num":
        return _number(m)
    if group == "words":
        return _words(m)
    return None


def _date(y: int, mo: int, d: int) -> _Parsed | None:
    if not (1 <= mo <= 12 and 1 <= d <= 31):
        return None
    v = Fraction(y * 10000 + mo * 100 + d)
    return ("date", v, "date", "date", v)


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
    return ("time", v, "time", "time", v)


def _number(m: re.Match[str]) -> _Parsed | None:
    if m["mi"] is not None:
        if int(m["md2"]) == 0:
            return None
        value = int(m["mi"]) + Fraction(int(m["mn"]), int(m["md2"]))
    elif m["fn"] is not None:
        if int(m["fd"]) == 0:
            return None
        value = Fraction(int(m["fn"]), int(m["fd"]))
    else:
        value = _dec(m["dec"])
    if m["sign"] == "-":
        value = -value
    if m["mult"]:
        value *= _MULTIPLIERS[m["mult"]]
    if m["npct"]:
        return ("number", value, "%", "percent", value)
    unit, dim, factor = _unit_info(m["nunit"], m["nden"], m["nopq"])
    if m["cur"] and unit is None:
        unit = _CURRENCY_SYMBOLS[m["cur"]]
        dim = f"currency-{unit}"
    return ("number", value, unit, dim, value * factor)


def _words(m: re.Match[str]) -> _Parsed | None:
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
    if m["wpct"]:
        return ("number", value, "%", "percent", value)
    unit, dim, factor = _unit_info(m["wunit"], m["wden"], m["wopq"])
    return ("number", value, unit, dim, value * factor)


_DIGIT_RUN = re.compile(r"[\d$€£¥]+")
_LETTERS_ONLY = bytes(c if 97 <= c <= 122 else 32 for c in range(256))


def letter_runs(s: str) -> frozenset[bytes]:
    """Every run of ASCII lower-case letters in ``s``, as bytes (fast: one C-level pass)."""
    return frozenset(s.encode("utf-8", "replace").translate(_LETTERS_ONLY).split())


_STARTER_WORDS = frozenset(
    w.encode()
    for w in {*_SMALL, *_TENS, "hundred", *_SCALES, "half", "twice", "thrice", "once", *_MONTHS}
)
_A_SCALE = {w: f"a {w}" for w in ("hundred", *_SCALES)}
_LINE_PREFIX_CHARS = " \t-*•·("


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
        elif prev.isalpha() or (prev == "-" and p > 1 and s[p - 2].isalpha()):
            q = p - 1 if prev.isalpha() else p - 2
            while q > 0 and s[q - 1].isalpha():
                q -= 1
            add(q)
            continue
        else:
            if prev in "-+.(":
                add(p - 1)
            add(p)
        if e < n and s[e] in ".)" and _at_line_start(s, p):
            add(s.rfind("\n", 0, p) + 1)
    for wb in words & _STARTER_WORDS:
        w = wb.decode()
        for needle in (w, _A_SCALE[w]) if w in _A_SCALE else (w,):
            i = s.find(needle)
            while i >= 0:
                if i == 0 or not (s[i - 1].isalnum() or s[i - 1] == "-"):
                    add(i)
                i = s.find(needle, i + 1)
    return sorted(set(out))


def _at_line_start(s: str, p: int) -> bool:
    """Whether only blanks, bullets or an opening parenthesis precede ``p`` on its line."""
    start = s.rfind("\n", 0, p) + 1
    return p - start <= 8 and not s[start:p].strip(_LINE_PREFIX_CHARS)


def scan(text: str | NormalizedText) -> Scan:
    """Find every quantity and identifier in ``text`` (normalised here unless already done)."""
    norm = text if isinstance(text, NormalizedText) else normalize(text)
    s = norm.text
    raws: list[_Raw] = []
    idents: list[Ident] = []
    words = letter_runs(s)
    last_end = 0
    for cand in _candidates(s, words):
        if cand < last_end:
            continue
        ch = s[cand]
        if "0" <= ch <= "9":
            m = _MASTER_DIGIT.match(s, cand)
        elif "a" <= ch <= "z":
            m = _MASTER_ALPHA.match(s, cand)
        else:
            m = _MASTER.match(s, cand)
        if m is None:
            continue
        last_end = m.end()
        group = m.lastgroup
        if group is None or group == "enum" or group == "sdate":
            continue
        start, end = m.span()
        if group == "ident":
            idents.append(_ident(m.group(), start, end))
            continue
        parsed = _PARSE_CACHE.get((group, m.group()), _MISSING)
        if parsed is _MISSING:
            parsed = _parse_cached(group, m)
        if parsed is None:
            continue
        (kind, value, unit, dim, base), ph = parsed
        if (
            group == "num"
            and unit is None
            and start >= 2
            and s[start - 1] == " "
            and s[start - 2].isalpha()
        ):
            acro = _ACRONYM_BEFORE.search(s, max(0, start - 8), start)
            if (
                acro is not None
                and acro.group(1) not in _NOT_ACRONYMS
                and _is_upper_in_original(norm, acro.start(1), acro.end(1))
            ):
                idents.append(Ident(f"{acro.group(1)} {m.group()}", acro.start(1), end, value))
                continue
        raws.append(_Raw(kind, value, unit, dim, base, start, end, ph))
    separators = _merge_ranges(s, raws)
    quantities = tuple(
        Quantity(
            text=norm.original[a:b],
            span=(a, b),
            kind=r.kind,
            value=r.value,
            unit=r.unit,
            dimension=r.dimension,
            base_value=r.base,
            range_role=r.role,
        )
        for r in raws
        for a, b in (norm.to_original(r.start, r.end),)
    )
    return Scan(
        norm=norm,
        quantities=quantities,
        norm_spans=tuple((r.start, r.end) for r in raws),
        placeholders=tuple(r.placeholder for r in raws),
        idents=tuple(idents),
        separators=tuple(separators),
        words=words,
    )


def _ident(text: str, start: int, end: int) -> Ident:
    hy = re.fullmatch(r"([a-z]+)-(\d+)", text)
    return Ident(text, start, end, Fraction(int(hy.group(2))) if hy else None)


def _is_upper_in_original(norm: NormalizedText, start: int, end: int) -> bool:
    a, b = norm.to_original(start, end)
    word = norm.original[a:b]
    return word.isupper() and word.isalpha()


def _merge_ranges(s: str, raws: list[_Raw]) -> list[tuple[int, int]]:
    """Mark ``6-8``, ``6 to 8`` (and ``between 6 and 8``) as ranges; return the separators."""
    seps: list[tuple[int, int]] = []
    i = 0
    while i + 1 < len(raws):
        lo, hi = raws[i], raws[i + 1]
        if hi.start - lo.end <= _MAX_RANGE_GAP and lo.kind == hi.kind == "number" and not lo.role:
            sep = _RANGE_SEP.fullmatch(s, lo.end, hi.start)
            ok = sep is not None
            if ok and "and" in s[lo.end : hi.start]:
                ok = _BETWEEN_BEFORE.search(s, max(0, lo.start - 9), lo.start) is not None
            if ok and lo.unit is None and hi.unit is not None:
                lo.unit, lo.dimension = hi.unit, hi.dimension
                lo.base = lo.value * (hi.base / hi.value) if hi.value else lo.value
                lo.placeholder = placeholder_of(lo.kind, lo.value, lo.dimension, lo.base)
            elif ok and lo.dimension != hi.dimension and hi.unit is not None:
                ok = False
            if ok:
                lo.role, hi.role = "low", "high"
                seps.append((lo.end, hi.start))
                i += 2
                continue
        i += 1
    return seps


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
        raise TypeError(f"parse_quantities() needs a str, got {type(text).__name__}")
    return list(scan(text).quantities)
