"""Numbers written in other languages: CJK numerals and French, German, Spanish, Italian,
Portuguese and Dutch number words, with those languages' scale words, month names and units.

Everything here is data built once at import (no memo): phrase tables, their regular expressions
and the units written after them. Texts are matched in their normalised form (NFKC, case folded),
so the phrases are stored case folded (``dreißig`` is ``dreissig``) and accents are optional
(``dieciseis`` reads like ``dieciséis``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from fractions import Fraction

from hybridjudge.grounding._patterns import lazy

__all__ = [
    "CJK_COUNTERS",
    "CJK_NUMERAL",
    "CJK_PERCENT",
    "CJK_SCALES",
    "FOREIGN_AMBIGUOUS",
    "FOREIGN_DATE_SOURCE",
    "FOREIGN_FIRST_WORDS",
    "FOREIGN_MONTHS",
    "FOREIGN_MONTH_KEYS",
    "FOREIGN_PHRASE_SOURCE",
    "FOREIGN_SCALES",
    "FOREIGN_UNIT_ALIASES",
    "GLUED_MARKERS",
    "KOREAN_SCALES",
    "MIXED_HINT",
    "MIXED_NUMBER",
    "NO_SPACE_CHARS",
    "cjk_value",
    "foreign_dates_possible",
    "foreign_value",
    "mixed_value",
]

# ---------------------------------------------------------------------------------------------
# Scripts written without spaces: a digit run glued to these characters is still a number.
NO_SPACE_CHARS = (
    "\u0e00-\u0eff"  # Thai, Lao
    "\u1100-\u11ff"  # Hangul jamo
    "\u2e80-\u9fff"  # CJK radicals .. unified ideographs, kana
    "\uac00-\ud7af"  # Hangul syllables
    "\uf900-\ufaff"  # CJK compatibility ideographs
    "\uff66-\uff9f"  # half-width katakana
)

# Units written after numbers, by canonical unit (added to the unit table of _quantities).
FOREIGN_UNIT_ALIASES: dict[str, tuple[str, ...]] = {
    "day": (
        "天",
        "日",
        "日間",
        "วัน",
        "일",
        "jours",
        "jour",
        "tage",
        "tagen",
        "tag",
        "días",
        "dias",
        "día",
        "dia",
        "giorni",
        "giorno",
        "dagen",
    ),
    "week": (
        "周",
        "週",
        "週間",
        "星期",
        "สัปดาห์",
        "주",
        "semaines",
        "semaine",
        "wochen",
        "woche",
        "semanas",
        "semana",
        "settimane",
        "settimana",
        "weken",
    ),
    "month": (
        "个月",
        "個月",
        "か月",
        "ヶ月",
        "ケ月",
        "カ月",
        "箇月",
        "เดือน",
        "개월",
        "mois",
        "monate",
        "monaten",
        "monat",
        "meses",
        "mes",
        "mesi",
        "mese",
        "maanden",
        "maand",
    ),
    "year": (
        "年",
        "ปี",
        "년",
        "années",
        "annees",
        "année",
        "annee",
        "ans",
        "jahre",
        "jahren",
        "jahr",
        "años",
        "anos",
        "año",
        "ano",
        "anni",
        "anno",
        "jaren",
        "jaar",
    ),
    "h": (
        "小时",
        "小時",
        "時間",
        "ชั่วโมง",
        "시간",
        "heures",
        "heure",
        "stunden",
        "stunde",
        "horas",
        "hora",
        "uur",
        "uren",
    ),
    "min": ("分钟", "分鐘", "分間", "นาที", "minuten", "minutos", "minuto", "minuti"),
    "s": (
        "秒",
        "secondes",
        "seconde",
        "sekunden",
        "sekunde",
        "segundos",
        "segundo",
        "secondi",
        "seconden",
    ),
    "cny": ("元", "人民币"),
    "jpy": ("円",),
    "krw": ("원",),
    "thb": ("บาท",),
}

# ---------------------------------------------------------------------------------------------
# Chinese / Japanese numerals: 三十 = 30, 一百零五 = 105, 两千 = 2000, 三万五千 = 35000.
_CJK_DIGITS = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "兩": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
_CJK_SMALL = {"十": 10, "百": 100, "千": 1000}
_CJK_BIG = {"万": 10**4, "萬": 10**4, "亿": 10**8, "億": 10**8, "兆": 10**12}
_CJK_CHARS = "".join([*_CJK_DIGITS, *_CJK_SMALL, *_CJK_BIG])
CJK_COUNTERS = frozenset("名人个個位家件次种種只台辆輛张張本条條项項例岁歳間所")
"""Counters after a CJK numeral (``八百名员工``, ``三家公司``): the numeral counts, with no unit."""
_CJK_UNITS = tuple(
    sorted(
        {a for aliases in FOREIGN_UNIT_ALIASES.values() for a in aliases if ord(a[0]) > 0x2E80}
        | {"%", "倍"}
        | CJK_COUNTERS,
        key=lambda u: (-len(u), u),
    )
)
CJK_NUMERAL = re.compile(
    rf"(?<![{_CJK_CHARS}])(?P<cjk>[{_CJK_CHARS}]++)"
    rf"(?P<cjku>{'|'.join(re.escape(u) for u in _CJK_UNITS)})"
)
"""A run of CJK numerals followed by a unit (``三十天``, ``两个月``); a numeral run alone (``一些``,
``万一``) is too often part of a word to be read as a number. Tried only where a run starts,
and without backtracking into it (no unit starts with a numeral), so a long run of numerals
costs linear time, not quadratic."""


CJK_PERCENT = re.compile(rf"百分之(?P<cjk>[{_CJK_CHARS}]++)")
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


_MIXED_SMALL = {**_CJK_SMALL, "백": 100, "천": 1000}
_MIXED_BIG = {**_CJK_BIG, "만": 10**4, "억": 10**8, "조": 10**12}
CJK_SCALES = frozenset({*_CJK_SMALL, *_CJK_BIG})
"""The scale characters of CJK numerals (十 百 千 万 萬 亿 億 兆)."""
KOREAN_SCALES = frozenset({*_MIXED_SMALL, *_MIXED_BIG}) - CJK_SCALES
"""Korean scale characters after figures (백 천 만 억 조)."""
_SMALL_CLASS = "".join(_MIXED_SMALL)
_BIG_CLASS = "".join(_MIXED_BIG)
_MIXED_FIGURE = r"(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?"
"""A figure in a mixed number, its thousands grouped by commas or not (``1兆2,345億``)."""
MIXED_NUMBER = re.compile(
    rf"(?<![\d.,]){_MIXED_FIGURE}(?:\s?(?:{_MIXED_FIGURE}\s?)?[{_SMALL_CLASS}{_BIG_CLASS}]){{1,6}}"
    r"(?:(?<=[万萬만])\d{4}(?![\d.,]))?"
)
"""A figure in digits with CJK or Korean scale characters (``1亿5000万``, ``3천만``, ``5만``,
``1억 2천만``, ``1兆2,345億``, ``2조 5천억``), and four digits after ten thousand (``5万3000``:
53,000; fewer are ambiguous, ``5万3`` is spoken for 53,000): read whole by
:func:`mixed_value`."""
MIXED_HINT = re.compile(rf"\d\s?[{_SMALL_CLASS}{_BIG_CLASS}]")
"""A digit before a scale character: a text where :data:`MIXED_NUMBER` may match."""
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


# ---------------------------------------------------------------------------------------------
# Dates with a German, French or Spanish month name: "15. März 2024", "1er janvier 2024",
# "31 de diciembre de 2023" (day, month, year: the order these languages write).

_MONTH_NAMES: dict[int, tuple[str, ...]] = {
    1: ("januar", "jänner", "jan", "janvier", "janv", "enero", "ene", "gennaio", "janeiro"),
    2: ("februar", "feb", "février", "fevrier", "févr", "fevr", "febrero", "febbraio"),
    3: ("märz", "maerz", "mär", "mrz", "mars", "marzo", "março", "maart"),
    4: ("april", "apr", "avril", "avr", "abril", "abr", "aprile"),
    5: ("mai", "mayo", "maggio", "maio", "mei"),
    6: ("juni", "jun", "juin", "junio", "giugno", "junho"),
    7: ("juli", "jul", "juillet", "juil", "julio", "luglio", "julho"),
    8: ("august", "aug", "août", "aout", "agosto", "ago", "augustus"),
    9: (
        "september",
        "sept",
        "sep",
        "septembre",
        "septiembre",
        "setiembre",
        "settembre",
        "setembro",
    ),
    10: ("oktober", "okt", "octobre", "oct", "octubre", "ottobre", "outubro"),
    11: ("november", "nov", "novembre", "noviembre", "novembro"),
    12: (
        "dezember",
        "dez",
        "décembre",
        "decembre",
        "déc",
        "dec",
        "diciembre",
        "dic",
        "dicembre",
        "dezembro",
    ),
}
FOREIGN_MONTHS: dict[str, int] = {
    name: month for month, names in _MONTH_NAMES.items() for name in names
}
"""German, French and Spanish month names and their usual abbreviations, and the Italian,
Portuguese and Dutch names (written out), case folded."""
_ENGLISH_MONTHS = frozenset(
    (
        *("jan", "feb", "apr", "april", "jun", "jul", "aug", "august", "sep", "sept"),
        *("september", "oct", "nov", "november", "dec"),
    )
)
FOREIGN_MONTH_KEYS = frozenset(
    max(re.findall(r"[a-z]+", name), key=len).encode()
    for name in FOREIGN_MONTHS
    if name not in _ENGLISH_MONTHS
)
"""The longest ASCII letter run of each month name English does not write alike: a text whose
letter runs hold none of them, nor :data:`_DOTTED_ENGLISH_NAME`, writes no date of
:data:`FOREIGN_DATE_SOURCE` (a cheap pre-filter; ``märz`` is found by ``rz``)."""
_DOTTED_ENGLISH_NAME = re.compile(
    r"\.[ \t]*(?:jan|feb|apr|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?[ \t]+\d"
)
"""German writes the day with a full stop before months English also names (``15. April 2024``,
``3. Nov. 2023``); the English dates never do (the expression starts with its full stop: the
engine skips ahead to it)."""


_ENGLISH_MONTH_RUNS = frozenset(m.encode() for m in _ENGLISH_MONTHS)
_ANY_MONTH_RUNS = FOREIGN_MONTH_KEYS | _ENGLISH_MONTH_RUNS


def foreign_dates_possible(s: str, words: frozenset[bytes]) -> bool:
    """Whether ``s`` (normalised, with its ASCII letter runs ``words``) may hold a date of
    :data:`FOREIGN_DATE_SOURCE`."""
    if words.isdisjoint(_ANY_MONTH_RUNS):  # the common case: one set operation
        return False
    return not words.isdisjoint(FOREIGN_MONTH_KEYS) or (
        not words.isdisjoint(_ENGLISH_MONTH_RUNS) and _DOTTED_ENGLISH_NAME.search(s) is not None
    )


_MONTH_ALT = "|".join(re.escape(n) for n in sorted(FOREIGN_MONTHS, key=lambda n: (-len(n), n)))
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


def _fold(word: str) -> str:
    return unicodedata.normalize("NFKC", word).casefold()


def _strip_accents(word: str) -> str:
    return "".join(
        c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c)
    ).casefold()


def _tens(words: str, first: int = 20) -> dict[int, str]:
    """The tens from ``first`` to 90, by value, from their words in order."""
    return dict(zip(range(first, 100, 10), words.split(), strict=True))


def _joined_tens(
    out: dict[str, int], tens: dict[int, str], units: str, join: str, more: dict[str, int]
) -> None:
    """Each tens word alone and joined to a unit word (``units``, from zero; and those of
    ``more``) by ``join``: ``treinta y cinco``, ``vinte e duas``."""
    words = {**{w: u for u, w in enumerate(units.split()) if 0 < u < 10}, **more}
    for t, w in tens.items():
        out[w] = t
        for unit, u in words.items():
            out[f"{w} {join} {unit}"] = t + u


def _glued_tens(
    out: dict[str, int], tens: dict[int, str], units: str, glue: Callable[[str, str, int], str]
) -> None:
    """Each tens word alone and glued to each unit from one to nine (``units``, from zero) as
    ``glue(tens, unit, u)`` writes them: ``einundzwanzig``, ``ventotto``, ``tweeëntwintig``."""
    unit_words = units.split()
    for t, w in tens.items():
        out[w] = t
        for u in range(1, 10):
            out[glue(w, unit_words[u], u)] = t + u


def _glued_multiples(out: dict[str, int], units: str, hundred: str, thousand: str) -> None:
    """Two to nine hundred and thousand written as one word, the unit before the multiple
    (``zweihundert``, ``tremila``, ``driehonderd``); ``units`` from zero."""
    for u, unit in enumerate(units.split()[2:10], start=2):
        out[unit + hundred] = u * 100
        out[unit + thousand] = u * 1000


def _hundreds(out: dict[str, int], words: str, start: int = 2) -> None:
    """The hundreds from ``start``, masculine and feminine (``doscientos``, ``doscientas``)."""
    for i, w in enumerate(words.split(), start=start):
        out[w] = out[w[:-2] + "as"] = i * 100


def _french() -> dict[str, int]:
    units = "zéro un deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze "
    units += "quinze seize dix-sept dix-huit dix-neuf"
    out = {w: i for i, w in enumerate(units.split())}
    out["une"] = 1
    tens = {20: "vingt", 30: "trente", 40: "quarante", 50: "cinquante", 60: "soixante"}
    for t, w in tens.items():
        out[w] = t
        out[f"{w} et un"] = t + 1
        out[f"{w} et une"] = t + 1
        for u in range(2, 10):
            out[f"{w}-{units.split()[u]}"] = t + u
    for u in range(10, 20):  # soixante-dix .. soixante-dix-neuf
        out[f"soixante-{units.split()[u]}"] = 60 + u
    out["soixante et onze"] = 71
    out["quatre-vingts"] = 80
    out["quatre-vingt"] = 80
    for u in range(1, 20):
        out[f"quatre-vingt-{units.split()[u]}"] = 80 + u
    out["septante"], out["huitante"], out["octante"], out["nonante"] = 70, 80, 80, 90
    out["cent"] = 100
    out["cents"] = 100
    out["mille"] = 1000
    return out


def _german() -> dict[str, int]:
    units = "null eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf dreizehn "
    units += "vierzehn fünfzehn sechzehn siebzehn achtzehn neunzehn"
    out = {w: i for i, w in enumerate(units.split())}
    for w in ("ein", "eine", "einen", "einem", "einer"):
        out[w] = 1
    out["zwo"] = 2
    tens = _tens("zwanzig dreißig vierzig fünfzig sechzig siebzig achtzig neunzig")
    # the unit, "und", the tens; one is "ein" there (einundzwanzig)
    _glued_tens(out, tens, units, lambda w, unit, u: f"{'ein' if u == 1 else unit}und{w}")
    out["hundert"] = 100
    out["einhundert"] = 100
    out["tausend"] = 1000
    out["eintausend"] = 1000
    _glued_multiples(out, units, "hundert", "tausend")
    return out


def _spanish() -> dict[str, int]:
    units = "cero uno dos tres cuatro cinco seis siete ocho nueve diez once doce trece catorce "
    units += "quince dieciséis diecisiete dieciocho diecinueve veinte"
    out = {w: i for i, w in enumerate(units.split())}
    out["una"] = 1
    out["un"] = 1
    veinti = "veintiuno veintidós veintitrés veinticuatro veinticinco veintiséis veintisiete "
    veinti += "veintiocho veintinueve"
    for i, w in enumerate(veinti.split(), start=21):
        out[w] = i
    out["veintiún"] = 21
    out["veintiuna"] = 21
    tens = _tens("treinta cuarenta cincuenta sesenta setenta ochenta noventa", first=30)
    _joined_tens(out, tens, units, "y", {"una": 1, "un": 1})
    out["cien"] = 100
    out["ciento"] = 100
    _hundreds(out, "doscientos trescientos cuatrocientos quinientos seiscientos setecientos")
    _hundreds(out, "ochocientos novecientos", start=8)
    out["mil"] = 1000
    return out


def _italian() -> dict[str, int]:
    units = "zero uno due tre quattro cinque sei sette otto nove dieci undici dodici tredici "
    units += "quattordici quindici sedici diciassette diciotto diciannove"
    out = {w: i for i, w in enumerate(units.split())}
    out["un"] = out["una"] = 1
    tens = _tens("venti trenta quaranta cinquanta sessanta settanta ottanta novanta")
    # the tens drop their vowel before uno and otto (ventuno, trentotto); tre is tré
    _glued_tens(
        out,
        tens,
        units,
        lambda w, unit, u: (w[:-1] if u in (1, 8) else w) + ("tré" if u == 3 else unit),
    )
    out["cento"] = 100
    out["mille"] = 1000
    _glued_multiples(out, units, "cento", "mila")
    return out


def _portuguese() -> dict[str, int]:
    units = "zero um dois três quatro cinco seis sete oito nove dez onze doze treze catorze "
    units += "quinze dezesseis dezessete dezoito dezenove"
    out = {w: i for i, w in enumerate(units.split())}
    out["uma"], out["duas"], out["quatorze"] = 1, 2, 14
    out["dezasseis"], out["dezassete"], out["dezanove"] = 16, 17, 19  # as Portugal writes them
    tens = _tens("vinte trinta quarenta cinquenta sessenta setenta oitenta noventa")
    _joined_tens(out, tens, units, "e", {"uma": 1, "duas": 2})
    out["cem"] = out["cento"] = 100  # cento e vinte: the e after a hundred, see foreign_value
    _hundreds(out, "duzentos trezentos quatrocentos quinhentos seiscentos setecentos")
    _hundreds(out, "oitocentos novecentos", start=8)
    out["mil"] = 1000
    return out


def _dutch() -> dict[str, int]:
    units = "nul een twee drie vier vijf zes zeven acht negen tien elf twaalf dertien veertien "
    units += "vijftien zestien zeventien achttien negentien"
    out = {w: i for i, w in enumerate(units.split())}
    out["één"] = 1
    tens = _tens("twintig dertig veertig vijftig zestig zeventig tachtig negentig")
    # the unit, "en", the tens; a diaeresis after a unit ending in e (tweeëntwintig)
    _glued_tens(
        out, tens, units, lambda w, unit, u: f"{unit}{'ën' if unit.endswith('e') else 'en'}{w}"
    )
    out["honderd"] = 100
    out["duizend"] = 1000
    _glued_multiples(out, units, "honderd", "duizend")
    return out


FOREIGN_SCALES: dict[str, int] = {
    _fold(w): v
    for w, v in {
        "million": 10**6,
        "millions": 10**6,
        "milliard": 10**9,
        "milliards": 10**9,
        "millionen": 10**6,
        "milliarde": 10**9,
        "milliarden": 10**9,
        "millón": 10**6,
        "millon": 10**6,
        "millones": 10**6,
        "milione": 10**6,
        "milioni": 10**6,
        "miliardo": 10**9,
        "miliardi": 10**9,
        "milhão": 10**6,
        "milhões": 10**6,
        "bilhão": 10**9,
        "bilhões": 10**9,
        "miljoen": 10**6,
        "miljard": 10**9,
    }.items()
}
"""Scale words above the thousands (``deux millions``, ``drei Millionen``, ``dos millones``; and
after a figure, ``8,7 milioni``, ``3,2 milhões``, ``1,5 miljard``: Portuguese ``bilhão`` is
Brazil's, 10^9)."""


def _phrases() -> dict[str, int]:
    out: dict[str, int] = {}
    for table in (_french(), _german(), _spanish(), _italian(), _portuguese(), _dutch()):
        for w, v in table.items():
            out[_KEY.sub(" ", _fold(w))] = v
            out[_KEY.sub(" ", _strip_accents(w))] = v
    for w, v in FOREIGN_SCALES.items():
        out[w] = v
        out[_strip_accents(w)] = v
    return out


FOREIGN_WORDS: dict[str, int] = _phrases()
"""Every French, German, Spanish, Italian, Portuguese and Dutch phrase (folded; hyphens and
spaces interchangeable)."""

FOREIGN_AMBIGUOUS = frozenset(
    _fold(w)
    for w in (
        "un",
        "une",
        "uno",
        "una",
        "ein",
        "eine",
        "einen",
        "einem",
        "einer",
        "eins",
        "once",
        "sept",
        "elf",
        "null",
        "mil",
        "cent",
        "cents",
        "dos",
        "neuf",
        "tres",
        "seize",
        "mille",
        "zero",
        "cero",
        "zéro",
        "ciento",
        # Italian, Portuguese and Dutch: English words (due, doze, um), articles (uma, een),
        # a name (Otto), a French nul and tien, a German sei
        *("due", "otto", "sei", "um", "uma", "doze", "een", "één", "nul", "tien"),
    )
)
"""Words that are also common words of English or articles of their own language: read as a
number only with a unit after them (``un jour``, ``once días``)."""


def _phrase_pattern(phrase: str) -> str:
    return r"[\s-]+".join(re.escape(p) for p in _KEY.split(phrase))


_ALT = "|".join(_phrase_pattern(p) for p in sorted(FOREIGN_WORDS, key=lambda p: (-len(p), p)))
GLUED_MARKERS = ("hundert", "tausend", "honderd", "duizend")
"""German and Dutch write a number below a million as one word: what follows a hundred or a
thousand is glued to it (``hundertzwanzig``, ``zweitausendfünfhundert``,
``tweehonderdvijftig``), in German also after ``und`` (``hundertundzwanzig``)."""
_AFTER_GLUED = "|".join(f"(?<={m})" for m in GLUED_MARKERS)
FOREIGN_PHRASE_SOURCE = (
    r"(?:(?:(?:(?:(?<=ntos|ntas|ento)|(?<=mil))[ \t]+e(?=[ \t]))?[\s-]+"
    rf"|(?:{_AFTER_GLUED})(?:und)?(?=[^\W\d_])"
    rf"|(?<![^\W{NO_SPACE_CHARS}]|-))(?:{_ALT}))+(?![\w-])"
)
"""Regex source: one or more phrases in a row (``trois mille``, ``dos millones``), and in
Portuguese an ``e`` after a hundred or a thousand (``cento e vinte``, ``mil e quinhentos``);
in German and Dutch glued onto a hundred or a thousand (:data:`GLUED_MARKERS`).
Each phrase after a separator, or at a word start (the first): the alternation of ~800 phrases
is written once, and compiles in half the time it took written twice."""
_ONE_PHRASE = lazy(rf"(?:{_ALT})(?:(?![\w])|{_AFTER_GLUED})")
"""One phrase (:func:`foreign_value` reads a run of them one by one), compiled on first use."""


FOREIGN_FIRST_WORDS: dict[str, frozenset[str]] = {}
"""ASCII letter run (the longest of the phrase's first word) -> first words that contain it:
a text whose letter runs lack the key cannot contain the word (a cheap pre-filter)."""


def _build_first_words() -> None:
    acc: dict[str, set[str]] = {}
    for phrase in FOREIGN_WORDS:
        first = _KEY.split(phrase)[0]
        if first in ("six", "million", "millions"):
            continue  # English spells these alike; the English parser starts there
        runs = re.findall(r"[a-z]+", first)
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
        m = _ONE_PHRASE().match(phrase, pos)
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
