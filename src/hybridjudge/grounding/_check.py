"""The grounding check: required facts present, every number traceable, abstention as labelled.

Parsing is the expensive part, so everything that does not depend on the answer is parsed once:
:func:`prepare_context` builds a :class:`GroundingContext` with an index of its quantities (and,
on first need, the figures derivable from them); a :class:`GroundingChecker` adds the question,
the anchors, the allowed numbers and the markers, and then checks any number of answers. Nothing
is memoised behind the caller's back: :func:`check_grounding` parses its arguments on every call,
and a caller that checks many answers keeps the prepared objects instead.

How an answer's number is traced, in order: the same quantity in the context, the question, the
allowed numbers or an anchor (exact value and unit; a scale the context states for a table or
block applies to its figures, the sign may be stated in words, and an unsigned figure may name an
accounting negative ``(7,344)`` by its magnitude); the same figure rounded to the precision the
answer writes (``$16.5 billion`` for ``16,525`` under ``(in millions)``, ``$7.3 million`` for
``(7,344)`` in thousands); a constant or counting word of shown working (``x 100``, ``these two
figures``); and a figure derived from two context figures or from the answer's own working
(``derived``, with the derivation in the report).

A percentage matches a bare context figure only in a table cell (a ``%`` column's cells are often
written without the sign), never a count of running text (``40%`` is not ``40 staff``); a scale
word the answer adds (``$1,496.5 million``) matches a figure without a stated scale only in a
table cell or with a currency, and never a figure written less precisely (``€3.0bn`` is not the
``3`` of ``3 plants``).
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction
from typing import Literal

from hybridjudge._text import rounding_tolerance
from hybridjudge.grounding import _chunks, _fast
from hybridjudge.grounding._abstention import compile_markers
from hybridjudge.grounding._anchors import (
    AnchorLike,
    Canonical,
    CompiledAnchor,
    CompiledAnchors,
    canonicalize,
    compile_anchors,
    negation_cue,
    negation_cues,
)
from hybridjudge.grounding._complement import states_rest
from hybridjudge.grounding._derive import (
    BEFORE_REACH,
    LABEL_BLOCK,
    SENTENCE_REACH,
    SMALL_COUNT,
    Derivation,
    Figure,
    Figures,
    Growth,
    Hint,
    Rate,
    Target,
    WorkingShapes,
    asks_growth_rate,
    asks_mean,
    asks_operation,
    clause_trend,
    compared_after,
    counted_noun,
    counted_phrase,
    explain_from,
    explain_run,
    gives,
    growth_periods,
    growth_rate,
    sentence_around,
    shown_working,
    stated_mean,
    stated_operand,
    stated_rate,
    stated_ratio,
    stated_trend,
    stated_whole,
    states_operation,
    whole_digits,
)
from hybridjudge.grounding._errors import GroundingInputError, GroundingTypeError
from hybridjudge.grounding._fast import Windows, needle_of, standalone_at
from hybridjudge.grounding._languages import SCALE_CHARS, mixed_value, no_space
from hybridjudge.grounding._layout import SCALE_WORDS, heading_word, read_layout, scale_headings
from hybridjudge.grounding._lexicon import (
    LANGUAGES,
    alternation,
    currency_of,
    excepted_rows,
    grouped,
    lexicon,
    merged,
    months,
    scale_statement_words,
    scales,
    trie_alternation,
)
from hybridjudge.grounding._lists import counts_own_items
from hybridjudge.grounding._models import (
    GROUNDING_REPORT_VERSION,
    Finding,
    GroundingReport,
    Quantity,
    QuantityTrace,
    TraceRule,
    TraceSource,
)
from hybridjudge.grounding._normalize import (
    NormalizedText,
    continental_reading,
    continental_words,
    english_only,
    key_runs,
    letter_runs,
    normalize,
)
from hybridjudge.grounding._patterns import lazy
from hybridjudge.grounding._quantities import (
    CJK_CURRENCIES,
    CONTINENTAL_SCALE_RUNS,
    F_ABOVE,
    F_APPROX,
    F_BELOW,
    F_CHANGE,
    F_CONSTANT,
    F_COUNT,
    F_DECADE,
    F_DECREASE,
    F_OPERAND,
    F_OWN_SCALE,
    F_PAREN,
    F_RATIO,
    F_RESULT,
    F_SHARE,
    F_YEAR,
    Interval,
    Meta,
    Scan,
    binary_bytes,
    closed_range,
    period_names,
    rate_period,
    scan,
    share_pairs,
    stated_interval,
    uncounted_intervals,
)
from hybridjudge.grounding._quantities import FRACTION_DENOMINATORS as _FRACTION_DENOMINATORS
from hybridjudge.grounding._quantities import FRACTION_NUMERATORS as _FRACTION_NUMERATORS
from hybridjudge.grounding._quantities import HALF as _HALF
from hybridjudge.grounding._quantities import UNITS as _UNITS
from hybridjudge.grounding._quantities import is_upper_in_original as _is_upper_in_original
from hybridjudge.grounding._quantities import two_digit_year as _two_digit_year
from hybridjudge.grounding._rows import (
    Row,
    TableRows,
    answer_words,
    cell_marks,
    laid_offset,
    named_other_row,
    named_other_year,
    rows_around,
)
from hybridjudge.grounding._rows import words as row_words

__all__ = [
    "DerivedPolicy",
    "GroundingChecker",
    "GroundingContext",
    "check_grounding",
    "prepare_context",
]

DerivedPolicy = Literal["grounded", "finding"]
"""What a number derived from context figures counts as: ``grounded`` (the default: it is
reported in :attr:`GroundingReport.quantities` with its derivation) or ``finding`` (a
``derived_number`` finding, for gates that want every computed figure reviewed)."""

_CURRENCY_SYMBOLS = currency_of(("signs", "codes"))
"""Every currency sign and code written before a figure, with its currency (the lexicons')."""
_MONTHS = months(("en",))
"""English month names and abbreviations (en.json)."""
_INDIAN_SCALES = tuple(w for c in lexicon("en").currencies for w in c.numbering)
"""The scale words of Indian numbering (``lakh``, ``crore``: en.json)."""

# (source, passage/entry index, span in that text, text as written, the figure written there
# (None: words or a notation, ``a week``, ``BID``) and its scale word's multiplier (0: unknown))
_Occ = tuple[TraceSource, int | None, tuple[int, int], str, Quantity | None, int]
_Hit = tuple[_Occ, TraceRule]
"""An occurrence and the rule that traced an answer's figure to it."""


def _found(q: Quantity, mult: int, occ: _Occ | None) -> _Hit | None:
    """``occ``, which holds ``q`` (written with the scale word ``mult``) exactly, with the rule
    that says how: ``as_written`` when both write the same digits (whatever the sign, unit or
    scale word around them: ``709`` for ``(709)``, ``$60.3 million`` for ``60.3``; a year for a
    date of it), ``rescaled`` when the same amount is written in another scale or unit (``$1.2
    billion`` for ``1,200 million``, ``0.5 g`` for ``500 mg``), ``reworded`` when the context
    writes it in words."""
    if occ is None:
        return None
    figure, its = occ[4], occ[5]
    if figure is None:
        return occ, "reworded"
    if figure.text == q.text:  # the common case, decided without comparing values
        return occ, "as_written"
    value, other = q.value, figure.value
    if its == mult or not (its and mult):  # the common case: no scale word, or the same one
        same = value == other or value == -other
    else:
        same = abs(value) * its == abs(other) * mult
    # a date or a time as written, or a year as a date writes it ("2022" for "December 31, 2022")
    same = same or q.kind != "number" or figure.kind != "number"
    return occ, "as_written" if same else "rescaled"


_COUNTED_DIMENSIONS = frozenset(("time", "calendar"))
"""The dimensions of units an answer counts its own listed items in (``three days:``, ``two
months:``): days, weeks, months, years and quarters are listed by name."""


def _own_count(q: Quantity, meta: Meta, sc: Scan) -> bool:
    """Whether ``q``, a small whole number of ``sc`` with no unit or a unit of time or of the
    calendar, counts the answer's own items (:func:`grounding._lists.counts_own_items`: ``these
    two groups``, ``two agreements:`` and a list of two, ``on three days: Tuesday, Thursday and
    Saturday``): the trace rule ``enumerated``."""
    value = q.value
    return (
        q.kind == "number"
        and (q.unit is None or q.dimension in _COUNTED_DIMENSIONS)
        and meta[1] == 0
        and value.denominator == 1
        and counts_own_items(sc.norm.original, q.span[0], q.span[1], value.numerator)
    )


_HUNDRED = Fraction(100)
"""A whole, in percent (the rule ``complement``: the rest of a share)."""

WORKING_OPERANDS = 8
"""The answer's own numbers a derived number may be computed from: the last this many traced
before it (shown working is local; the bound keeps long answers linear)."""

_OTHER_DOLLARS = tuple(
    f"currency-{code}"
    for sign, code in _CURRENCY_SYMBOLS.items()
    if sign.endswith("$") and code != "usd"
)
"""The currencies written with a dollar sign and a country prefix (``HK$``, ``S$``, ``A$``...)."""
_BARE_DOLLAR = re.compile(r"(?<![A-Za-z.])\$")
"""A dollar sign without a country prefix (``US$``, ``HK$``) in the text of a quantity."""

_SHARE_THEN_WHOLE = lazy(r"[ \t]+of[ \t]+(?:[a-z'’-]+[ \t]+){0,3}")
"""Between a share and its whole: ``of``, then at most three words (``of the company's``)."""
_WHOLE_THEN_SHARE = lazy(r"[ \t]+(?:[a-z'’-]+[ \t]+){0,3}?[a-z'’-]+,[ \t]+")
"""Between a whole and a share of it: its noun and a comma (``1,200 patients, half``)."""
_PARTITIVES = alternation(merged("partitives"), space=r"[ \t]+")
_OF_THEM = lazy(rf"[ \t]+(?:{_PARTITIVES})(?![\w])")
"""A share's whole taken from the figure before it (``1,200 patients, half of them``)."""
_BOUNDS_AFTER = alternation(merged("bounds_after"), space=r"[ \t]+")
_BOUND_AFTER = lazy(rf"[ \t]*(?:\+|{_BOUNDS_AFTER})(?![\w])")
"""A bound written after its figure (``$50 or more``, ``65 and over``, ``18+``)."""
RANGE_SHARE = 0.2
"""The widest range, as a share of its upper end, whose ends a context figure inside it grounds
(``between $22 and $23 million`` for 22,626 thousand; not ``between 20 and 30 million``: a range
so loose says little). Twice :data:`BOUND_SHARE`: a range is two bounds."""
BOUND_SHARE = 0.1
"""How far past a bound a context figure may lie, as a share of the bound: ``more than 10,000`` is
grounded by 10,000 to 11,000 (``over 80`` by 85, ``less than 7,000`` by 6,960; not ``over
200,000`` by 294,000: a bound so loose says little), ``less than 5%`` by 4.5% to 5%."""
APPROX_SHARE = 0.025
"""How far a context figure may be from a round figure of one significant digit the answer
states as an approximation (``approximately 700,000``), as a share of it, besides rounding to
its last non-zero digit; with two or more (``approximately 1,200``) the rounding alone decides."""
APPROX_TRACE_SIGNIFICANT = 3
"""Fewest significant digits of a round figure stated as an approximation (``approximately
$11,100 thousand``) that a derivation may explain at its last non-zero digit (a mean of 11,137.5)
from neighbouring operands or the question's figures; with :data:`APPROX_QUESTION_SIGNIFICANT`
(``about 430 million`` for a change of 432 million) only the figures the question names may, and
with one (``about 400 million``) the derivation must give it at the precision written. Measured
on TAT-QA (``validity/tatqa_approximations.py``, one context in 2): gold arithmetic answers
rounded to three significant digits grounded 42.4% -> 93.0%, to two 53.9% -> 85.2%; random
fabricated figures so rounded (no question) passing 5.4% -> 6.0% and 18.1% -> 16.3%. Traced to
any operands, two-digit figures would let 28.2% of those fabrications pass."""
APPROX_QUESTION_SIGNIFICANT = 2
"""See :data:`APPROX_TRACE_SIGNIFICANT`."""

TRUNCATED_SIGNIFICANT = 4
"""Fewest significant digits of a figure with decimals stated as an approximation (``≈ 0.6638``,
``approximately 34.63%``) that may be a derivation's value cut at its last digit rather than
rounded (rule ``truncated``: the value lies between the figure and one unit of its last digit
further from zero, 0.66387 for ``≈ 0.6638``, not 0.66372). Models writing out their working do
this; with fewer digits (``≈ 0.66``), or written with ``=``, the rounding alone decides."""

SHARE_POINTS = 0.5
"""How far, in percentage points, a context percentage may lie from a share the answer states in
words (``two-thirds``, ``half of the``, ``one in three``) and still be it: a fraction word is
as precise as a whole percentage (``two-thirds`` is ``67%`` and ``66.7%``, ``a third`` is
``33%``; ``half`` is ``50.4%``, not ``49%``)."""
_SHARE_ROUNDING = (1.5, SHARE_POINTS)
"""(precision, half) of :meth:`GroundingContext.rounded` for such a share: a percentage written
to whole points or finer, within :data:`SHARE_POINTS`."""

_NUMERAL = re.compile(r"\d(?:[\d.,\s]*\d)?")
"""The digits of a figure as written, with their separators (``1 283`` of ``1 283 millions``)."""
_PLAIN_SPACES = str.maketrans("\u00a0\u202f\u2009", "   ")


def _plain_spaces(text: str) -> str:
    """``text`` with no-break, narrow no-break and thin spaces written as plain ones."""
    return text.translate(_PLAIN_SPACES)


_MEMO_MAX = 4096
"""Most distinct quantities a :class:`GroundingChecker` remembers the trace of (per checker)."""

_CANON_FACTORS: dict[str, Fraction] = {
    canon: factor for canon, dim, factor in _UNITS.values() if canon is not None
}


_Key = tuple[str | None, int, int]


def _k(dim: str | None, v: Fraction) -> _Key:
    """A cheap dictionary key for a value (hashing a Fraction is comparatively slow)."""
    return (dim, v.numerator, v.denominator)


_PERIODS = frozenset({"time", "calendar"})
"""The dimensions of a rate's period: ``10 mg/day`` is ``10 mg`` a day."""


def _numerator_key(q: Quantity) -> _Key:
    """For ``mg/day`` the key of its numerator (``mass``, grams): a rate per period names the
    amount of each period (``10 mg a day``); for simple units and rates per anything else the
    key (``10 mg/kg`` and ``100 mg/mL`` are no ``10 mg`` and ``100 mg``: a dose per body weight
    or a concentration, not an amount)."""
    if (
        q.dimension is None
        or "/" not in q.dimension
        or q.unit is None
        or q.dimension.split("/", 1)[1] not in _PERIODS
    ):
        return _k(q.dimension, q.base_value)
    factor = _CANON_FACTORS.get(q.unit.split("/", 1)[0])
    if factor is None:
        return _k(q.dimension, q.base_value)
    return _k(q.dimension.split("/", 1)[0], q.value * factor)


@dataclass(slots=True)
class _Index:
    """Quantities of one or more texts, keyed every way an answer's quantity may be traced."""

    exact: dict[_Key, _Occ] = field(default_factory=dict)
    numer: dict[_Key, _Occ] = field(default_factory=dict)
    unitless: dict[_Key, _Occ] = field(default_factory=dict)
    cells: dict[_Key, _Occ] = field(default_factory=dict)
    """Unitless figures of table cells: a percentage may match them (a ``%`` column's cells are
    often written bare), not a count of running text."""
    near: dict[_Key, _Occ] = field(default_factory=dict)
    """Unitless figures of running text whose neighbourhood states their unit (``1.5 vacation
    days``, ``aged 18-65``: :func:`_stated_near`), by that unit and the figure as written: an
    answer's ``one and a half days`` names the first, its ``two weeks`` not ``14 business
    days``."""
    currencies: set[str] = field(default_factory=set)
    """The currency dimensions of the quantities added (``currency-hkd``...)."""
    loose_units: bool = True
    """Whether a figure with a unit not found so written (a percentage, ``3 g``, ``12 days``)
    matches any unitless figure (the question, the allowed numbers and the anchors) or, for a
    context, only those of :attr:`cells` (a column's heading may state its unit; the running
    text writes a unit beside its figure, so ``three times a day`` or ``aged 6-12`` names no
    ``3 g`` or ``12 days``). A currency (``revenue of 5.4 million``) and a temperature (``38
    degrees``, read as a bare figure) match any unitless figure still (:data:`_UNIT_OPEN`)."""
    any_raw: dict[_Key, _Occ] = field(default_factory=dict)
    mantissa: dict[_Key, tuple[_Occ, int]] = field(default_factory=dict)
    """Figures without a stated scale (of table cells, or with a currency) and the most decimals
    written for each: ``$1,496.5 million`` may name the cell ``1,496.5``, ``€3.0bn`` not ``3``."""
    mantissa_column: tuple[list[float], list[tuple[_Occ, int]]] | None = None
    """:attr:`mantissa` sorted by value (built on the first :func:`_near_mantissa`, once the
    index is complete)."""
    own_scaled: dict[_Key, _Occ] = field(default_factory=dict)
    """Figures written with their own scale word, by the figure before it (``60.3`` for
    ``$60.3 million``): what an operand of shown working may write (``60.3 + 80.5 = $140.8
    million``)."""
    bracketed: dict[_Key, _Occ] = field(default_factory=dict)
    """Magnitudes of accounting negatives ``(43)``, also with their block's scale: an unsigned
    figure of the answer may name them (``used $7.3 million`` for ``(7,344)`` thousand)."""
    dates_md: dict[int, _Occ] = field(default_factory=dict)
    dates_md_yearless: dict[int, _Occ] = field(default_factory=dict)
    items: list[tuple[Quantity, _Occ]] = field(default_factory=list)
    scaled: list[tuple[Quantity, Fraction, str | None, _Occ]] = field(default_factory=list)
    """Figures with the scale their heading states (the figure, its scaled value, its currency
    dimension): candidates for the nearest-figure evidence of a finding."""

    def add(self, q: Quantity, occ: _Occ, cell: bool = True) -> None:
        """Add a quantity (``cell``: it stands in a table cell, see :attr:`cells`)."""
        self.items.append((q, occ))
        if q.kind == "date":
            v = int(q.value)
            self.exact.setdefault(_k("date", q.value), occ)
            self.dates_md.setdefault(v % 10000, occ)
            if v // 10000 == 0:
                self.dates_md_yearless.setdefault(v % 10000, occ)
            else:
                self.any_raw.setdefault(_k(None, Fraction(v // 10000)), occ)
            return
        num, den = q.value.numerator, q.value.denominator
        self.any_raw.setdefault((None, num, den), occ)
        if q.kind == "time":
            self.exact.setdefault(("time", num, den), occ)
            return
        dim = q.dimension
        if dim is None:
            self.unitless.setdefault((None, num, den), occ)
            if cell:
                self.cells.setdefault((None, num, den), occ)
            return
        b = q.base_value
        key = (dim, b.numerator, b.denominator)
        if dim.startswith("currency-"):
            self.currencies.add(dim)
        elif dim in _OTHER_SCALE:  # 38 °C is exactly 100.4 °F (an affine conversion)
            other, convert = _OTHER_SCALE[dim]
            self.exact.setdefault(_k(other, convert(b)), occ)
        elif dim == "data" and (binary := binary_bytes(q)) is not None:
            self.exact.setdefault(_k("data-binary", binary), occ)
        self.exact.setdefault(key, occ)
        self.numer.setdefault(key if "/" not in dim or q.unit is None else _numerator_key(q), occ)

    def add_value(
        self, value: Fraction, dimension: str | None, occ: _Occ, cell: bool = True
    ) -> None:
        """Add a value a context figure also stands for (scaled, or signed by words). With a
        currency (the figure's, or its heading's: ``(€ million)``) it is no unitless figure: an
        answer's ``$5 billion`` does not name ``5,000`` under ``(€ million)``, as it does not
        name ``€5,000 million``."""
        self.any_raw.setdefault(_k(None, value), occ)
        if dimension is None or not dimension.startswith("currency-"):
            self.unitless.setdefault(_k(None, value), occ)
            if cell:
                self.cells.setdefault(_k(None, value), occ)
        if dimension is not None:
            if dimension.startswith("currency-"):
                self.currencies.add(dimension)
            self.exact.setdefault(_k(dimension, value), occ)

    def find(self, q: Quantity) -> _Occ | None:
        if q.kind == "date":
            v = int(q.value)
            if v // 10000 == 0:
                return self.dates_md.get(v % 10000)
            return self.exact.get(_k("date", q.value)) or self.dates_md_yearless.get(v % 10000)
        if q.kind == "time":
            return self.exact.get(_k("time", q.value))
        if q.dimension is None:
            return self.any_raw.get(_k(None, q.value))
        occ = self.exact.get(_k(q.dimension, q.base_value))
        if occ is None and (occ := self.numer.get(_numerator_key(q))) is not None:
            other = occ[4]
            if "/" in q.dimension and other is not None and other.dimension == q.dimension:
                occ = None  # 10 mg per week is no 10 mg per day (10 mg/day is 10 mg a day)
        if occ is not None:
            return occ
        if q.dimension == "data" and (binary := binary_bytes(q)) is not None:
            occ = self.exact.get(_k("data-binary", binary))  # "10 GB" for "10,240 MB"
            if occ is not None:
                return occ
        if not self.loose_units and not q.dimension.startswith(_UNIT_OPEN):
            return self.cells.get(_k(None, q.value)) or self.near.get(_k(q.unit, q.value))
        return self.unitless.get(_k(None, q.value))


_NEAR_UNITS = {
    alias: unit
    for alias, unit in _UNITS.items()
    if unit[1] is not None and len(alias) > 1 and alias.replace(" ", "").isalpha()
}
"""Unit words (two letters or more) a bare figure of running text may have a word before
(:func:`_stated_near`)."""
_UNIT_NEAR = lazy(
    lambda: rf"[ ]+(?:[a-z]+[ ]+)?({trie_alternation(_NEAR_UNITS, space=' ')})(?![a-z])"
)
_AGE_BEFORE = lazy(
    rf"(?<![a-z])(?:{alternation(grouped('figure_context', 'age_before'), space=' ')})"
    r"[ ]+(?:\d+[ ]*(?:-|–|to)[ ]*)?\Z"
)


def _stated_near(s: str, start: int, end: int) -> str | None:
    """The unit the neighbourhood of a bare figure of running text (``s[start:end]``,
    normalised) states, ``None`` where it states none: a unit word after one other word
    (``1.5 vacation days``: ``day``), or an age word before it (``aged 18-65``: ``year``; the
    lexicons' ``figure_context.age_before``). ``three times a day``, ``43 events`` state none:
    such a figure names no ``3 g`` (:attr:`_Index.loose_units`)."""
    if s.startswith(" ", end) and (m := _UNIT_NEAR().match(s, end)) is not None:
        return _NEAR_UNITS[m[1]][0]
    if start and _AGE_BEFORE().search(s, max(0, start - 24), start) is not None:
        return "year"
    return None


_UNIT_OPEN = ("currency-", "temp_")
"""Dimensions whose figure may name a bare figure of running text (:attr:`_Index.loose_units`):
an amount of money (``revenue of 5.4 million`` for ``$5.4 million``) and a temperature (``a
fever above 38 degrees``: degrees of no stated scale are read as a bare figure)."""
_OTHER_SCALE: dict[str, tuple[str, Callable[[Fraction], Fraction]]] = {
    "temp_c": ("temp_f", lambda c: c * Fraction(9, 5) + 32),
    "temp_f": ("temp_c", lambda f: (f - 32) * Fraction(5, 9)),
}
"""A temperature on the other scale, exactly (no rounding: ``38 °C`` is ``100.4 °F``, ``37.5 °C``
is ``99.5 °F``, but ``39 °C`` is ``102.2 °F``, not ``102 °F``)."""
_LABELLED_FIGURE = lazy(
    r"[a-z]{2,6} \S|(?:fy|cy)['-]?\d"
    rf"|(?:{alternation(name[:3] for name in _MONTHS)})[a-z]{{0,6}}-\d{{4}}\Z"
)
"""Identifiers that are a figure after its label (an upper-case abbreviation, a fiscal year, a
month and its year: ``Jun-2018`` holds the year an answer writes ``June 2018``; the month by
the first three letters of its English name)."""
_GLUED_UNIT = re.compile(r"[\d,.]+[a-z]+\Z")
"""Identifiers that are a figure glued to a unit we do not read (``100mph``, ``220v``)."""
_PERIOD_NAMED = lazy(
    r"(?<![\w])(?:(first|second|third|fourth|1st|2nd|3rd|4th)[\s-]+quarter"
    r"|(first|second|1st|2nd)[\s-]+half)(?![\w])"
)
"""A quarter or a half named in words (``third quarter``, ``third-quarter``, ``first half``):
the context names ``Q3`` (``H1``) so, and an answer may write it so."""
_PERIOD_RUNS = frozenset((b"quarter", b"half"))
_DOSING = lazy(r"(?<![\w.])(?:(bid|tid|qid|qd)|(b\.i\.d|t\.i\.d|q\.i\.d|q\.d)\.?)(?![\w])")
"""The prescription abbreviations of a daily frequency: ``BID`` (twice daily), ``TID``, ``QID``,
``QD`` (once daily), in capitals (``bid`` is also a word) or dotted (``b.i.d.``)."""
_DOSING_RUNS = frozenset((b"bid", b"tid", b"qid", b"qd"))
_DOSING_TIMES = {"bid": 2, "tid": 3, "qid": 4, "qd": 1}
_INTERVAL = re.compile(r"q(\d{1,2})(?:h|hr|hrs)")
"""A dosing interval: ``q8h`` is every 8 hours."""
_HOUR = _UNITS["h"][2]
_DAY = _UNITS["day"][2]


def _occurrence(i: int, sc: Scan, start: int, end: int) -> _Occ:
    """The occurrence in passage ``i`` (scanned as ``sc``) of its normalised span
    ``start:end``: its span and text in the passage as written."""
    span = sc.norm.to_original(start, end)
    return ("context", i, span, sc.norm.original[span[0] : span[1]], None, 0)


_ONE_UNIT_WORDS = merged("article_durations")
_ONE_UNIT = lazy(rf"(?:{alternation(_ONE_UNIT_WORDS)})(?![\w])")
_ONE_UNIT_CUES = alternation(merged("article_duration_cues"), space=r"\s+")
_ONE_UNIT_BEFORE = lazy(rf"(?<![\w])(?:{_ONE_UNIT_CUES})\s+an?\s+\Z")
"""A duration of one unit written with the article (``within a week``, ``for an hour``): not
after a count (``twice a day`` is a frequency, read elsewhere). The unit is searched first (a
literal), then what precedes it."""
_ONE_UNIT_RUNS = frozenset(w.encode() for w in _ONE_UNIT_WORDS)
_FORTNIGHT: tuple[str | None, str | None, Fraction] = ("fortnight", "time", Fraction(14 * 86400))


_QUARTER_SHARE = lazy(r"(?<![\w-])(a|one|two|three)[ \t]+quarters?(?=[ \t]+of(?![\w]))")


def _quarter_shares(s: str) -> list[tuple[int, int, Fraction]]:
    """The shares normalised ``s`` states in quarters with a space (``a quarter of sales``,
    ``three quarters of users``: 25%, 75%), with their spans. Read only as the share a
    percentage of an answer may state: ``two quarters of growth`` may be two periods, as the
    scan reads it."""
    quarter = _FRACTION_DENOMINATORS["quarter"]
    return [
        (m.start(), m.end(), Fraction(100 * _FRACTION_NUMERATORS[m[1]], quarter))
        for m in _QUARTER_SHARE().finditer(s)
    ]


_FACTOR_CHANGES = {
    word: Fraction(change)
    for language in LANGUAGES
    for word, change in lexicon(language).factor_changes.items()
}
"""Words of a change by a factor, and the percentage change each states (the lexicons'
``factor_changes``: ``doubled`` +100%, ``halved`` -50%, ``verdoppelt`` +100%)."""
_FACTOR_RUNS = key_runs(_FACTOR_CHANGES)
"""The longest letter run of each of those words (:func:`key_runs`: ``doubl`` of ``doublé``): a
passage without one states none."""
_FACTOR_WORD = lazy(rf"(?<![\w-])(?:{alternation(_FACTOR_CHANGES)})(?![\w-])")
_ROUND_THE_CLOCK = re.compile(r"(?<![\w/.,])24/7(?![\w/]|[.,]\d)")


def _add_stated_changes(i: int, sc: Scan, index: _Index) -> None:
    """Add the percentage changes a passage states by a verb (``doubled``: +100%, ``tripled``:
    +200%, ``halved``: -50%, as percentages only: no bare 2 or 100) and the hours and days of
    ``24/7`` (an answer writes ``24 hours a day, 7 days a week``)."""
    s = sc.norm.text
    if not sc.words.isdisjoint(_FACTOR_RUNS):
        for m in _FACTOR_WORD().finditer(s):
            change = _FACTOR_CHANGES[m.group()]  # the expression reads only its words
            index.exact.setdefault(_k("percent", change), _occurrence(i, sc, *m.span()))
    if "24/7" in s:
        for m in _ROUND_THE_CLOCK.finditer(s):
            occ = _occurrence(i, sc, *m.span())
            index.exact.setdefault(_k("time", _DAY), occ)
            index.exact.setdefault(_k("time", 7 * _DAY), occ)


def _add_one_unit(i: int, sc: Scan, index: _Index) -> None:
    """Add the durations of one unit a passage writes with an article (``within a week`` is
    ``7 days`` or ``one week`` for an answer)."""
    if sc.words.isdisjoint(_ONE_UNIT_RUNS) or (b"a" not in sc.words and b"an" not in sc.words):
        return
    s = sc.norm.text
    for m in _ONE_UNIT().finditer(s):
        start = m.start()
        if start < 2 or s[start - 2] not in "an":  # "a week", "an hour"
            continue
        if _ONE_UNIT_BEFORE().search(s, max(0, start - 20), start) is None:
            continue
        word = m.group()
        _unit, dim, factor = _FORTNIGHT if word == "fortnight" else _UNITS[word]
        if dim is None:  # pragma: no cover - every unit above has a dimension
            continue
        index.exact.setdefault(_k(dim, factor), _occurrence(i, sc, *m.span()))


_NIL_CELL = lazy(r"(?<=[|\t])[ \t]*((?:[$€£¥₹][ \t]?)?-(?:[ \t]?%)?)[ \t]*(?=[|\t\n]|\Z)")
"""A table cell that is only a dash (``—``, ``–``, ``-`` once normalised), also after a currency
sign (``$—``) or before ``%``: nil, as financial statements write a zero."""


_PERIOD_ENDED = lazy(
    r"(?<![\w])(?:(?P<unit>year|quarter|half[- ]year)s?(?:[ \t]+|-)(?:ended|ending|to)(?![\w])"
    r"|(?:fiscal|financial)[ \t]+(?P<fy>year)(?![\w]))"
)
"""The reporting period a financial statement names: ``year ended`` (``fiscal year``,
``financial year``) is 12 months, ``quarter ended`` 3 and ``half-year ended`` 6, as an answer
writes them (``for the twelve months ended December 31``)."""
_PERIOD_MONTHS = {"year": 12, "quarter": 3, "half-year": 6, "half year": 6}
_REPORTING_RUNS = frozenset((b"year", b"years", b"quarter", b"quarters"))


_YEAR_CELL = lazy(
    r"[ \t]*(?:fiscal[ \t]+(?:years?[ \t]+)?)?(?:(?P<month>[a-z]{3,9})\.?[ \t]*\d{1,2},?[ \t]*"
    r"|\d{1,2}[ \t]+(?P<month2>[a-z]{3,9})\.?[ \t]+)?"
    r"(?P<year>(?:19|20)\d\d)(?:[ \t]*/[ \t]*(?:19|20)?\d\d)?[^\d]{0,12}(?:'000s?[^\d]{0,6})?"
)
"""A header cell naming a year (``2019``, ``Fiscal 2019``, ``2019 €m``, ``2018/2019``,
``December 31, 2019``, ``30 June 2019``), after a header's label cells (``$ million``,
``Change (%)``)."""
_HEADER_LINES = 2
"""Lines of a table looked at for its header row of years (a title row may come first)."""
_FIGURE_OF_3 = re.compile(r"\d{3}")
_OTHER_PERIODS = lazy(
    r"(?<![\w])(?:months?|weeks?|quarters?|half[- ]years?)[ \t]+(?:ended|ending)(?![\w])|(?<![\w])q[1-4](?![\w])"
)
"""A reporting period other than the year (``three months ended``, ``Q3``): years in a table's
header are then not its periods' length."""


def _year_columns(sc: Scan) -> tuple[int, int] | None:
    """The span of the first year of a table's header row whose cells with digits all name a
    year (:data:`_YEAR_CELL`), two or more, of one month or two neighbouring ones where they
    name dates (``December 31, 2019 | December 31, 2018``, ``January 3, 2020 | December 28,
    2018``; not ``September 30, 2019 | December 31, 2018``, a quarter's balance beside a
    year's): the columns of a financial statement's years. Only the first
    :data:`_HEADER_LINES` lines of the passage with a cell separator are read, up to the first
    with a figure of three digits or more (a title row, ``| December 31, |``, may come
    first)."""
    s = sc.norm.text
    pos = 0
    for _ in range(_HEADER_LINES):
        bar = s.find("|", pos)
        if bar < 0:
            return None
        start = s.rfind("\n", 0, bar) + 1
        end = _line_end(s, bar)
        pos = end
        years: list[re.Match[str]] = []
        cursor = start
        for cell in s[start:end].split("|"):
            if any(ch.isdigit() for ch in cell):
                m = _YEAR_CELL().fullmatch(s, cursor, cursor + len(cell))
                if m is None:
                    years = []
                    break
                years.append(m)
            cursor += len(cell) + 1
        if len(years) < 2:
            if years or _FIGURE_OF_3.search(s, start, end) is not None:
                return None  # the first row with figures is not the header of years
            continue  # a title row (`` | December 31, |``)
        named = {m["month"] or m["month2"] for m in years}
        if named == {None}:
            return years[0].span("year")
        months = [_MONTHS.get(x or "", 0) for x in named]
        # one month, or two neighbouring ones: a 52/53-week year ends on a weekday near the same
        # date (``January 3, 2020 | December 28, 2018``)
        if all(months) and all((a - b) % 12 in (0, 1, 11) for a in months for b in months):
            return years[0].span("year")
    return None


def _add_reporting_periods(i: int, sc: Scan, index: _Index) -> None:
    """Add the reporting periods a passage names (:data:`_PERIOD_ENDED`) as their months, and
    12 months for a table whose header row is years (:func:`_year_columns`) in a passage that
    names no period (:data:`_OTHER_PERIODS`): an answer writes ``for the twelve months ended
    2019`` of a figure in the column 2019."""
    s = sc.norm.text
    named = False
    if not sc.words.isdisjoint(_REPORTING_RUNS):
        for m in _PERIOD_ENDED().finditer(s):
            named = True
            unit = m["unit"] or m["fy"]
            occ = _occurrence(i, sc, *m.span("unit" if m["unit"] else "fy"))
            index.exact.setdefault(_k("calendar", Fraction(_PERIOD_MONTHS[unit])), occ)
    if named or "|" not in s or (first := _year_columns(sc)) is None:
        return
    if _OTHER_PERIODS().search(s) is not None:
        return
    index.exact.setdefault(_k("calendar", Fraction(12)), _occurrence(i, sc, *first))


_YEAR_CELL_AFTER = lazy(r"[ \t,|]*[\t|][ \t]*((?:19|20)\d\d)(?=[ \t]*(?:[|\t\n]|\Z))")
"""A year standing alone in the next cell of a header row (``December 31, | 2019 | 2018``)."""


def _add_column_dates(i: int, sc: Scan, index: _Index) -> None:
    """Add the dates a header row names once for its columns of years: ``June 30, | 2023 |
    2022 | 2021`` (a statement's heading, ``For the years ended June 30,`` above a row of
    years, as :func:`read_layout` joins a cell-per-line header) names June 30 of each year,
    as an answer writes them (``the fiscal year ended June 30, 2021``). The date's own year
    (or none) is followed by year cells only; a cell of anything else ends the row."""
    s = sc.norm.text
    if "\t" not in s and "|" not in s:
        return
    for q, (_, end) in zip(sc.quantities, sc.norm_spans, strict=True):
        if q.kind != "date":
            continue
        mmdd = int(q.value) % 10000
        m = _YEAR_CELL_AFTER().match(s, end)
        while m is not None:
            year = int(m[1])
            occ = _occurrence(i, sc, *m.span(1))
            index.exact.setdefault(_k("date", Fraction(year * 10000 + mmdd)), occ)
            m = _YEAR_CELL_AFTER().match(s, m.end())


def _add_nil_cells(i: int, sc: Scan, index: _Index) -> None:
    """Add the dash cells of a passage's tables as the figure 0 (``0 - (-42,271)`` for a row
    ``— | (42,271)``; a zero of an answer is grounded by nothing else, see
    :meth:`GroundingChecker._lookup`). Only for the lookup: a nil cell is no derivation
    operand."""
    s = sc.norm.text
    if "-" not in s:
        return
    for m in _NIL_CELL().finditer(s):
        index.add_value(Fraction(0), None, _occurrence(i, sc, *m.span(1)), True)


def _dosing_codes(sc: Scan) -> Iterator[tuple[int | None, Fraction | None, tuple[int, int]]]:
    """The daily frequencies and dosing intervals a passage writes as prescriptions do
    (``500 mg PO BID``: twice daily; ``q8h``: every 8 hours): ``(times a day, None, span)`` or
    ``(None, hours, span)``, spans in the normalised text."""
    s = sc.norm.text
    words = sc.words
    if not words.isdisjoint(_DOSING_RUNS) or (b"d" in words and (".i.d" in s or "q.d" in s)):
        for m in _DOSING().finditer(s):
            if m[1] and not _is_upper_in_original(sc.norm, *m.span(1)):
                continue  # "a bid of $5"
            yield _DOSING_TIMES[(m[1] or m[2]).replace(".", "")], None, m.span()
    for ident in sc.idents:
        interval = _INTERVAL.fullmatch(ident.text)
        if interval is not None:
            yield None, Fraction(int(interval[1])), (ident.start, ident.end)


def _intervals(sc: Scan) -> Iterator[tuple[Interval, int, int, bool]]:
    """Every interval a passage states for a thing done repeatedly, with its span in the
    normalised text and whether no count states it: frequencies without a count (``daily``,
    ``quarterly``), counts per period and ``every`` a time (``three times daily``, ``every 8
    hours``), and prescription codes (``TID``, ``q8h``)."""
    text = sc.norm.text
    for interval, a, b in uncounted_intervals(text):
        yield interval, a, b, True
    for q, (a, b) in zip(sc.quantities, sc.norm_spans, strict=True):
        stated = stated_interval(text, q, a, b)
        if stated is not None:
            yield stated[0], stated[1], stated[2], False
    for times, hours, (a, b) in _dosing_codes(sc):
        if times is not None:
            yield ("time", _DAY / times), a, b, False
        elif hours is not None:
            yield ("time", hours * _HOUR), a, b, False


def _add_dosing(i: int, sc: Scan, index: _Index) -> None:
    """Add the daily frequencies and dosing intervals a passage writes as prescriptions do
    (``500 mg PO BID``, ``q8h``): an answer writes them ``twice daily``, ``every 8 hours``."""
    for times, hours, (a, b) in _dosing_codes(sc):
        occ = _occurrence(i, sc, a, b)
        if times is not None:
            index.add_value(Fraction(times), None, occ, cell=False)
        elif hours is not None:
            index.exact.setdefault(_k("time", hours * _HOUR), occ)
            index.any_raw.setdefault(_k(None, hours), occ)


_ORDINAL_NUMBER = {
    **dict.fromkeys(("first", "1st"), "1"),
    **dict.fromkeys(("second", "2nd"), "2"),
    **dict.fromkeys(("third", "3rd"), "3"),
    **dict.fromkeys(("fourth", "4th"), "4"),
}


_AMBIGUOUS_NUMERAL = lazy(r"(?<![\d.,])\d{1,3}[.,]\d{3}(?![\d]|[.,]\d)")


def _ambiguous_numeral(text: str) -> str | None:
    """The numeral of a figure written as text (``23.400 Beschäftigte``) when it reads as
    thousands in one convention and as a decimal in the other (one group of three digits after
    a full stop or a comma), else ``None``."""
    if "." not in text and "," not in text:
        return None
    m = _AMBIGUOUS_NUMERAL().search(text)
    return None if m is None else m.group()


def _named_periods(s: str, words: frozenset[bytes]) -> set[str]:
    """The identifiers (``q3``, ``h1``) of the quarters and halves ``s`` names in words (its
    ASCII letter runs ``words`` say which languages to look for)."""
    found: set[str] = set()
    if not words.isdisjoint(_PERIOD_RUNS):
        found.update(
            f"q{_ORDINAL_NUMBER[m[1]]}" if m[1] else f"h{_ORDINAL_NUMBER[m[2]]}"
            for m in _PERIOD_NAMED().finditer(s)
        )
    found.update(name for _start, _end, name, _digit in period_names(s, words))
    return found


def _passages(context: object) -> tuple[str, ...]:
    if isinstance(context, str):
        return (context,)
    if type(context) is tuple and all(type(p) is str for p in context):
        return context
    if isinstance(context, bytes | bytearray):
        raise GroundingTypeError(
            "context must be text, not bytes; decode it first (e.g. data.decode('utf-8'))",
            argument="context",
        )
    if isinstance(context, Mapping):
        raise GroundingTypeError(
            "context must be a str or a list of str passages, not a mapping (its keys would be "
            "read as the passages); pass list(d.values()) or the passages themselves",
            argument="context",
        )
    if isinstance(context, Iterable):
        out = tuple(context)
        for i, p in enumerate(out):
            if not isinstance(p, str):
                raise GroundingTypeError(
                    f"context[{i}] must be a str passage, not {type(p).__name__}",
                    argument=f"context[{i}]",
                )
        return out
    raise GroundingTypeError(
        f"context must be a str or a list of str passages, not {type(context).__name__}",
        argument="context",
    )


# ---------------------------------------------------------------------------------------------
# Scales a context states for its figures: "(in millions)", "(Dollars in thousands)",
# "$ in billions", "(€m)", "in %", "(000s)". Matched on the normalised (lower-case) text.
# Every alternative starts with a literal character (the word boundary before "in" is checked
# after it): the regex engine then skips ahead to those characters, twice as fast. The words:
# the lexicons' ``scale_statement``; the currency signs of the character classes are grammar.
_STATEMENT = scale_statement_words()
_SCALE_DECL = lazy(
    r"""(?x)[i($€£¥](?:(?<=i)n(?<![\w]in)\s+(?:(?P<cur2>"""
    + alternation(_STATEMENT.currencies_after_in)
    + r""")\s*)?
    (?P<scale>"""
    + alternation(_STATEMENT.after_in)
    + r"""|%|percent(?:ages)?)(?![\w])
    (?:\s+of\s+(?P<cur3>"""
    + alternation(_STATEMENT.currencies_after_of, space=r"\s+")
    + r"""))?
    |(?<=\()\s*(?:(?P<cur4>[$€£¥])\s*)?(?P<abbr>"""
    + alternation(_STATEMENT.in_brackets)
    + r"""|(?P<pct>%))\s*\)
    |(?<=[$€£¥])\s?(?P<scale2>"""
    + alternation(_STATEMENT.after_sign)
    + r""")(?![\w,.]))""",
)
"""The expression starts with a character class of every alternative's first character (the
engine then skips ahead to those characters, 2.6 times as fast on TAT-QA passages as an
alternation of literals); each alternative checks, looking back, which one it was. The third
alternative's currency is the match's first character."""
_SCALE_RUNS = frozenset(
    w.encode()
    for w in (
        *_STATEMENT.after_in,
        *_STATEMENT.in_brackets,
        *_STATEMENT.after_sign,
        *("percent", "percentages"),
    )
    if w.isalpha()
)
"""Letter runs (:func:`letter_runs`) one of which a scale statement holds unless it holds
``000`` or ``%``: a passage without them states no scale (no expression is run)."""
_CURRENCY_BEFORE = lazy(
    r"(?:^|[\s(])(?P<cur>"
    + alternation(_STATEMENT.currencies_before, space=r"\s+")
    + r")\s*(?:(?:"
    + alternation(_STATEMENT.between)
    + r")\s+)?$"
)
"""A currency right before a scale statement (``dollars in millions``, ``€ amounts in
thousands``)."""
_GLUED_SCALES = tuple(w for w in _STATEMENT.after_in if w.isalpha())
_GLUED_KEY = lazy("in(?:" + alternation(_GLUED_SCALES) + ")")
"""What a statement whose words an extractor glued holds (``inmillions``): :func:`_scopes`
reads :func:`_glued_statements` on a page with one (one expression: half the cost of looking
for each word in turn)."""
_LONE_LETTERS = frozenset(w for w in SCALE_WORDS if len(w) == 1)
"""Scale abbreviations of one letter (``m``, ``b``, ``k``): in brackets they state a scale only
with a currency sign (``(€m)``, ``($b)``); alone (``(b)``) they mark a footnote."""
_DECL_SCALE = SCALE_WORDS
"""Scale words and their multipliers: the table of ``data/layout.json``."""
_CURRENCY_DIM = {w: f"currency-{code}" for w, code in currency_of().items()}
"""Every sign, code and name of a currency in the lexicons, with its dimension (``$``,
``dollars``, ``u.s. dollars``, ``eur``, ``dólares``, ``rs.``, ``rupees``)."""
_BLANK_LINE = re.compile(r"\n[ \t]*\n")
_DIGIT = re.compile(r"\d")


@dataclass(frozen=True, slots=True)
class _Scope:
    """A stated scale and the span of normalised text it governs."""

    start: int
    end: int
    scale: int
    """The multiplier (``1`` for a percent heading)."""
    currency: str | None
    """The currency dimension stated with it (``currency-usd``), if any."""
    percent: bool
    """An ``in %`` heading: the figures are percentages."""
    caption: bool = False
    """Stated by another passage (:func:`_caption_scopes`): the scaled reading is added to the
    figures as written, which still match as they did (with an answer's own scale word, in a
    derivation in the table's units; a derivation also takes the caption's scale,
    :attr:`Figure.caption`)."""
    columns: tuple[tuple[int, int, str | None], ...] = ()
    """Scales stated in the cells of one header row, by column (``| (Shares in thousands) | |
    (Dollars in millions)``): ``(column, scale, currency)``; a figure takes its column's (a
    column without one is unscaled). Empty: :attr:`scale` governs every figure."""
    stated: int = -1
    """The end of the statement itself (``in millions`` of ``(in millions, shares in
    thousands)``): what follows it up to its bracket's end qualifies it
    (:func:`_qualifier`); -1 for a scope no statement of this passage opens."""
    units: bool = False
    """A row the statement around it does not scale (:func:`_unit_rows`: ``Diluted earnings
    per share | 11.82`` under ``(in millions)``; :func:`_counted_rows`: ``Weighted average
    shares | 25,123,456`` under ``(in thousands, except share data)``): its figures are as
    written, and an answer may not give them a scale word of its own (``$11.82 million``)."""

    @property
    def states_scale(self) -> bool:
        """Whether it scales the figures it governs (not a percent heading, not ``1``)."""
        return not self.percent and self.scale != 1

    def for_column(self, column: int) -> _Scope | None:
        """The scope a figure in ``column`` of a table under this scope takes."""
        if not self.columns:
            return self
        for c, scale, currency in self.columns:
            if c == column:
                return replace(self, scale=scale, currency=currency, columns=())
        return None


def _states_nothing(s: str, words: frozenset[bytes]) -> bool:
    """Whether normalised ``s`` (``words``: its letter runs) holds none of the words and signs
    that open a scale statement: :func:`_scopes` then reads none (no expression is run)."""
    return (
        words.isdisjoint(_SCALE_RUNS)
        and words.isdisjoint(_CURRENCY_SCALE_RUNS)
        and words.isdisjoint(_FOREIGN_SCALE_RUNS)
        and "€" not in s
        and "000" not in s
        and "%" not in s
    )


def _scopes(s: str, words: frozenset[bytes]) -> list[_Scope]:
    """Every scale statement of a normalised passage (``words``: its letter runs) with the
    block it governs: from the statement to the next blank line (or the next statement); a
    statement alone in its block (a caption above a table) governs the next block."""
    marked = _has_marker(s)
    glued = _GLUED_KEY().search(s) is not None
    if not marked and not glued and _states_nothing(s, words):
        return []
    found: list[tuple[int, int, int, str | None, bool]] = []
    rows: list[tuple[int, int]] = []  # table rows whose label says "(%)"
    markdown = _is_markdown(s)
    for m in _SCALE_DECL().finditer(s):
        word = m["scale"] or m["scale2"] or m["abbr"]
        if word in _LONE_LETTERS and not m["cur4"] and m["abbr"]:
            continue  # "Gross margin (b) (d) 6,129.9": a note's letter, not "(€m)" nor "($b)"
        if m["pct"] or word in ("%", "percent", "percentages"):
            line_start = s.rfind("\n", 0, m.start()) + 1
            line_end = _line_end(s, m.end())
            label = _row_label(s, line_start, line_end, markdown)
            if label is None:
                found.append((m.start(), m.end(), 1, None, True))
            elif label[1] is not None and m.start() < label[1].start():
                # "Gross margin (%) | 73.2 | 72.2": the row's figures are percentages
                rows.append((m.start(), line_end))
            # "| 2019 | 2018 | Change (%)": a column's heading, not the table's scale
            continue
        cur = m["cur2"] or m["cur3"] or m["cur4"] or (m["scale2"] and _sign_at(s, m.start()))
        if cur is None and m["scale"]:
            before = _CURRENCY_BEFORE().search(s, max(0, m.start() - 40), m.start())
            cur = before["cur"] if before else None
        dim = _CURRENCY_DIM.get(re.sub(r"\s+", " ", cur)) if cur else None
        found.append((m.start(), m.end(), _DECL_SCALE[word], dim, False))
    if glued:
        found.extend(_glued_statements(s))
        found.sort()
    if "(" in s and not words.isdisjoint(_SCALE_RUNS):
        # "(millions, except per share data)": a statement heading without "in" (data)
        for m in scale_headings().finditer(s):
            found.append((m.start(), m.end(), _DECL_SCALE[heading_word(m)], None, False))
        found.sort()
    if not words.isdisjoint(_CURRENCY_SCALE_RUNS):
        found.extend(_currency_scales(s, words, found))
        found.sort()
    if (
        not words.isdisjoint(_FOREIGN_SCALE_RUNS)
        or (b"millions" in words and (b"en" in words or b"d" in words))
        or ((b"x" in words or "€" in s) and _TIMES_HINT.search(s) is not None)
        or ("€" in s and any(w in s for w in _EURO_STATEMENT_WORDS))
    ):
        found.extend(_foreign_scales(s))
        found.sort()
    if marked:
        found.extend(_label_statements(s))
        found.sort()
    out: list[_Scope] = []
    cuts = [_Scope(a, b, 1, None, True) for a, b in rows]
    if not found:
        return cuts
    blanks = [(m.start(), m.end()) for m in _BLANK_LINE.finditer(s)]
    blank_starts = [b[0] for b in blanks]
    found = _outside_qualifiers(s, found)
    tabular = "|" in s or "\t" in s
    merged = _header_columns(s, found, markdown) if tabular else [(*f, ()) for f in found]
    for k, (start, end, scale, dim, pct, columns) in enumerate(merged):
        i = bisect_left(blank_starts, end)
        stop = blanks[i][0] if i < len(blanks) else len(s)
        if i < len(blanks) and _DIGIT.search(s, end, blanks[i][0]) is None:
            # a caption alone in its block governs the next block
            stop = blanks[i + 1][0] if i + 1 < len(blanks) else len(s)
        if k + 1 < len(merged):
            stop = min(stop, merged[k + 1][0])
        out.append(_Scope(start, stop, scale, dim, pct, columns=columns, stated=end))
    cuts.extend(_unscaled_rows(s, words, out, glued))
    return _with_rows(out, cuts) if cuts else out


def _glued_statements(s: str) -> list[_Found]:
    """The statements of normalised ``s`` whose words an extractor glued (pypdf writes a PDF
    without space glyphs so): ``in`` and a scale word (:data:`_GLUED_KEY`) glued, a word glued
    before them or none, opening a bracket, a line or a cell, a currency sign first or none:
    ``(inmillions,exceptpershareamounts)``, ``(dollarsinmillions,exceptpersharedata)`` (in
    that currency), ``(sharesinthousands)``, ``$inthousands``; ``(marginmillions)`` is none,
    nor ``within millions``. Each as :func:`_scopes` reads a statement."""
    out: list[_Found] = []
    for m in _GLUED_KEY().finditer(s):
        if m.end() < len(s) and s[m.end()].isalpha():
            continue  # "inmillionsof...": a longer word
        k = m.start()
        while k and s[k - 1].isalpha():
            k -= 1
        pre = s[k : m.start()]
        sign = s[k - 1] if k and s[k - 1] in "$€£¥" else None
        opening = k - (sign is not None)
        if opening and s[opening - 1] not in "(\n|\t":
            continue
        dim = _CURRENCY_DIM.get(sign or pre)  # "$", "dollars"; "shares", "" name none
        out.append((k, m.end(), _DECL_SCALE[m.group()[2:]], dim, False))
    return out


def _unscaled_rows(
    s: str, words: frozenset[bytes], scopes: list[_Scope], glued: bool = False
) -> list[_Scope]:
    """The rows of normalised ``s`` (``words``: its letter runs) that a statement of ``scopes``
    governs and does not scale: amounts per unit (:func:`_unit_rows`) and the counts it
    excepts by name (:func:`_counted_rows`). ``glued``: ``s`` holds a statement whose words
    an extractor glued (its rows' words may be glued too: ``dilutedearningspershare``)."""
    out = _counted_rows(s, scopes)
    if glued or not words.isdisjoint(_UNSCALED_RUNS) or any(w in s for w in _UNSCALED_GLUED):
        out.extend(_unit_rows(s, scopes))
    return out


_UNSCALED_GLUED = tuple(w for w in _STATEMENT.unscaled_rows if any(map(no_space, w)))
"""Words of the lexicons' ``scale_statement.unscaled_rows`` with a character of a script
without spaces, found inside a run of text (``1株当たり当期純利益``, ``基本每股收益``)."""
_UNSCALED_RUNS = key_runs(w for w in _STATEMENT.unscaled_rows if w not in _UNSCALED_GLUED)
"""A letter run of each of the others (``share`` of ``per share``): :func:`_scopes`' pre-test."""
_UNSCALED_WORD = lazy(lambda: trie_alternation(_STATEMENT.unscaled_rows, space=" ?"))
"""Words of the lexicons' ``scale_statement.unscaled_rows``: an amount per share. Literals
only (the engine skips ahead to their first characters: four times as fast on FinanceBench's
pages as with word boundaries in the expression), as a trie (:func:`trie_alternation`: each
``p`` of a page tried once, not once per ``per ...`` word: 19 -> 12 us a page, the same
matches); :func:`_label_rows` checks that a spaced word stands whole. The blanks between
the words optional, for a label an extractor glued (``dilutedearningspershare``; no slower:
11 us a page either way)."""
_LABEL_BEFORE = lazy(r"[ \t]*\|?[^\n\d|\t]{0,80}")
"""What may stand before such words in a row's label: its first cell, no digit (a Markdown
row opens with ``|``)."""
_NEXT_CELL = lazy(
    r"[^\n|\t]*[|\t][ \t]*(?:(?:[$€£¥][ \t]*)?(?=[^\d(\-\s$€£¥])|(?:19|20)\d\d(?![\d.,]))"
)
"""The rest of a label cell and a next cell that opens with no figure (cells of several rows
a layout joined into one line) or is a year (a header row: ``Core loss per share | 2022 |
2021``): the line is no row of figures per share."""
_SUBLABEL_ROW = lazy(
    r"[ \t|]*(?:"
    + alternation(_STATEMENT.unscaled_sublabels, space=r"[ \t]+")
    + r")[ \t|:$€£¥]*(?=[\d(-])"
)
"""A row right under a heading of :data:`_UNSCALED_WORD` labelled by one of the lexicons'
``scale_statement.unscaled_sublabels`` (``basic | 2.45``)."""


def _unit_rows(s: str, scopes: list[_Scope]) -> list[_Scope]:
    """The rows of normalised ``s`` that a scaling statement of ``scopes`` governs but does not
    scale: a row whose label names an amount per share (``diluted earnings per share | 11.82``)
    and the rows of :data:`_SUBLABEL_ROW` under such a heading without figures (``earnings
    per share:``, then ``basic`` and ``diluted``), each as a scope of its own
    (:attr:`_Scope.units`) in the currency of the statement; a row that counts what a
    statement may except (``Shares used in computing earnings per share | 254``: the lexicons'
    ``excepted_rows``) is no amount per share (:func:`_counted_rows` decides it). The words
    may stand glued in a label an extractor glued (``dilutedearningspershare``)."""
    counted = _counted_row()
    spans = [
        (a, b)
        for a, b, label in _label_rows(s, _UNSCALED_WORD(), 0, len(s))
        if counted.search(s, label, b) is None
    ]
    starts = [x.start for x in scopes]
    out: list[_Scope] = []
    for a, b in spans:
        k = bisect_right(starts, a) - 1
        if k >= 0 and scopes[k].end > a and (scopes[k].states_scale or scopes[k].columns):
            out.append(replace(scopes[k], start=a, end=b, scale=1, columns=(), units=True))
    return out


def _label_rows(s: str, words: re.Pattern[str], start: int, end: int) -> list[tuple[int, int, int]]:
    """The rows of normalised ``s`` within ``start:end`` whose label holds a match of
    ``words`` (standing whole, after no digit), and the rows of :data:`_SUBLABEL_ROW` under
    such a row without figures (a heading: ``earnings per share:``, then ``basic`` and
    ``diluted``): ``(start, end, label start)`` of each, in order. A row whose next cell opens
    with no figure or is a year (:data:`_NEXT_CELL`) is none (a header row, joined labels)."""
    out: list[tuple[int, int, int]] = []
    done = -1  # the start of the last line read
    for m in words.finditer(s, start, end):
        a, b = m.span()
        line = s.rfind("\n", 0, a) + 1
        if (
            m.group() not in _UNSCALED_GLUED
            and ((a and s[a - 1].isalnum()) or (b < len(s) and (s[b].isalnum() or s[b] == "_")))
            and not _glued_label(s, line, a, m.group())
        ):
            continue  # inside a word ("super shares"): not the words themselves
        if line == done or _LABEL_BEFORE().fullmatch(s, line, a) is None:
            continue
        done = line
        line_end = _line_end(s, line)
        if _NEXT_CELL().match(s, b, line_end) is not None:
            continue
        out.append((line, line_end, line))
        if _DIGIT.search(s, b, line_end) is None:  # a heading: the rows under it
            k = line_end + 1
            while k < min(len(s), end):
                row_end = _line_end(s, k)
                if _SUBLABEL_ROW().match(s, k, row_end) is None:
                    break
                out.append((k, row_end, line))
                k = row_end + 1
    return out


def _glued_label(s: str, line: int, a: int, matched: str) -> bool:
    """Whether ``matched`` (at ``a`` in normalised ``s``, on the line from ``line``) stands in a
    row label an extractor glued: written without its spaces, after no blank in its cell
    (``dilutedearningspershare``; ``per share`` inside ``super shares`` is none)."""
    return " " not in matched and s[line:a].strip(" \t|").isalpha()


_EXCEPTED = excepted_rows()
_EXCEPTION_WORD = lazy(alternation(_STATEMENT.exceptions))
"""Words that open what a statement excepts from its scale (``except``; literals, so that a
PDF extractor's glued ``exceptsharedata`` is read too)."""
_PER_UNIT = lazy(alternation(_STATEMENT.unscaled_rows, space=r"\s*"))
"""The words of an amount per unit, spaced or glued (``per share``, ``pershare``), taken out
of a statement's qualifier before its named rows are looked for: ``share`` in ``except per
share data`` names no count of shares."""


@functools.cache
def _counted_words(named: tuple[int, ...]) -> re.Pattern[str]:
    """The row labels of the excepted counts ``named`` (indices in :data:`_EXCEPTED`; the
    normalised text is lower case), spaces and hyphens between their words optional, as a
    trie (:func:`trie_alternation`)."""
    words = (r for k in named for r in _EXCEPTED[k].rows)
    return re.compile(trie_alternation(words, space=r"[- \t]*"))


def _counted_row() -> re.Pattern[str]:
    """The row labels of every excepted count (``weighted average shares``)."""
    return _counted_words(tuple(range(len(_EXCEPTED))))


_QUALIFIER_END = re.compile(r"[()|\t]|\.\s")
_QUALIFIER_CHARS = 120
"""The most characters of a statement's qualifier (Apple's is 84: ``, except number of
shares, which are reflected in thousands, and per-share amounts``)."""


def _qualifier(s: str, end: int) -> int:
    """The end of what qualifies a statement that ends at ``end`` in normalised ``s``: its
    closing bracket, the end of its cell, sentence or line, at most :data:`_QUALIFIER_CHARS`
    on (``, shares in thousands, except per share data`` of ``($ in millions, shares in
    thousands, except per share data)``); a bracket that opens ends it too (a statement of
    its own further on in running text: ``in millions ... (in thousands)``)."""
    stop = min(_line_end(s, end), end + _QUALIFIER_CHARS)
    m = _QUALIFIER_END.search(s, end, stop)
    return stop if m is None else m.start()


def _outside_qualifiers(s: str, found: list[_Found]) -> list[_Found]:
    """``found`` (in order) without the statements inside another's qualifier (``in
    thousands`` of ``(In millions, shares in thousands)`` or of Apple's ``(In millions, except
    number of shares, which are reflected in thousands, and per-share amounts)`` scales the
    share counts alone, :func:`_excepted_counts`, not the table) and without a statement
    another grammar read on the same text already (``(rs. crore)``: a currency's singular
    scale word and an Indian scale; two statements on one line head a table's columns)."""
    out: list[_Found] = []
    inside = (0, 0)
    for f in found:
        if inside[0] <= f[0] < inside[1] or (out and f[0] < out[-1][1]):
            continue
        out.append(f)
        if f[2] != 1:
            inside = (f[1], _qualifier(s, f[1]))
    return out


def _excepted_counts(s: str, scope: _Scope) -> tuple[re.Pattern[str], int] | None:
    """The row labels of counts that the statement of ``scope`` in normalised ``s`` excepts
    from its scale or scales apart, and their scale: ``(in thousands, except share and per
    share data)``, the labels of share counts and 1; ``(In millions, shares in thousands)``
    or ``except number of shares, which are reflected in thousands``, 1,000. ``None`` when
    its qualifier names no count (``except per share data``: the share counts are in the
    statement's scale) or neither excepts nor states a scale (``(Dollars and shares in
    millions)``)."""
    if scope.stated < 0:
        return None
    end = _qualifier(s, scope.stated)
    inner = _SCALE_DECL().search(s, scope.stated, end)
    if inner is None and _EXCEPTION_WORD().search(s, scope.stated, end) is None:
        return None
    clause = _PER_UNIT().sub(" ", s[scope.stated : end])
    named = tuple(k for k, e in enumerate(_EXCEPTED) if any(w in clause for w in e.named))
    if not named:
        return None
    word = inner and (inner["scale"] or inner["scale2"] or inner["abbr"])
    return _counted_words(named), _DECL_SCALE.get(word, 1) if word else 1


def _counted_rows(s: str, scopes: list[_Scope]) -> list[_Scope]:
    """The rows that a statement of ``scopes`` excepts from its scale by name
    (:func:`_excepted_counts`): each a scope of its own (:attr:`_Scope.units`) in no currency,
    in the scale the exception states, if any: a count, ``Weighted average shares outstanding
    | 25,123,456`` under ``(in thousands, except share and per share data)``, is 25,123,456
    shares (an answer may write it ``25.1 million``, not ``25,123,456 thousand``); under
    ``(in millions, except per share data; shares in thousands)`` it is 25,123,456
    thousand."""
    out: list[_Scope] = []
    for scope in scopes:
        if not scope.states_scale or scope.columns or scope.units:
            continue
        excepted = _excepted_counts(s, scope)
        if excepted is None:
            continue
        words, scale = excepted
        for a, b, _label in _label_rows(s, words, scope.start, scope.end):
            end = min(b, scope.end)
            out.append(replace(scope, start=a, end=end, scale=scale, currency=None, units=True))
    return out


_Found = tuple[int, int, int, str | None, bool]
"""A scale statement: start, end, scale, currency dimension, whether a percent heading."""
_Columns = tuple[tuple[int, int, str | None], ...]


def _column_at(s: str, a: int, markdown: bool) -> int:
    """The column of a table cell at ``a`` in normalised ``s`` (``markdown``: see
    :func:`_is_markdown`), counted as :meth:`GroundingContext._add_passage` counts it (cell
    separators after the row's label start); ``-1`` outside a table row."""
    line_start = s.rfind("\n", 0, a) + 1
    label = _row_label(s, line_start, _line_end(s, a), markdown)
    if label is None:
        return -1
    return s.count("|", label[0], a) + s.count("\t", label[0], a)


def table_cell(
    s: str, a: int, markdown: bool
) -> tuple[tuple[int, int], tuple[int, int] | None] | None:
    """The spans in normalised ``s`` of the row label and of the column heading of the table
    cell at ``a`` (``markdown``: see :func:`_is_markdown`), columns counted as
    :func:`_column_at` counts them. The heading is the cell of that column in the first row
    above ``a``'s, in its run of table rows, that names something (a word or a year:
    ``2019``, ``Products``; not a figure, so a run that opens with rows of figures, as a PDF
    page's does, names no column); ``None`` when no row does. ``None`` when ``a`` is in no
    table row, in a row's label cell, or in a header row (the first of several rows:
    ``Segment | 2019 | 2018``)."""
    column = _column_at(s, a, markdown)
    if column <= 0:  # no table row, or the row's label cell
        return None
    line_start = s.rfind("\n", 0, a) + 1
    line_end = _line_end(s, a)
    label = _row_label(s, line_start, line_end, markdown)
    if label is None:  # pragma: no cover - _column_at found it
        return None
    row = _cell_span(s, label[0], label[1].start() if label[1] else line_end)
    if row is None:
        return None
    top = line_start  # the first line of the run of table rows
    while top > 0:
        above = s.rfind("\n", 0, top - 1) + 1
        if _row_label(s, above, top - 1, markdown) is None:
            break
        top = above
    if top == line_start:  # the run's first row: a header row if a row follows, else alone
        follows = line_end < len(s) and _row_label(
            s, line_end + 1, _line_end(s, line_end + 1), markdown
        )
        return None if follows else (row, None)
    while top < line_start:
        top_end = _line_end(s, top)
        heading = _cell_at(s, top, top_end, column, markdown)
        if heading is not None and _names_something(s[heading[0] : heading[1]]):
            return row, heading
        top = top_end + 1
    return row, None


def _cell_at(
    s: str, line_start: int, line_end: int, column: int, markdown: bool
) -> tuple[int, int] | None:
    """The span of cell ``column`` (counted as :func:`_column_at` counts) of the table row on
    ``s[line_start:line_end]``, ``None`` when the row has no such cell."""
    head = _row_label(s, line_start, line_end, markdown)
    if head is None:
        return None
    starts = [head[0]] + [m.end() for m in _SEPARATORS.finditer(s, head[0], line_end)]
    if column >= len(starts):
        return None
    end = _SEPARATORS.search(s, starts[column], line_end)
    return _cell_span(s, starts[column], end.start() if end else line_end)


_YEAR_HEADING = lazy(r"\(?(?:fy|cy)?[ ']*(?:19|20)\d\d\)?")
"""A heading cell that is a year (``2019``, ``FY2019``, ``(2019)``)."""


def _names_something(cell: str) -> bool:
    """Whether a table cell can head a column: it holds a word or is a year, not a figure."""
    return _LETTER.search(cell) is not None or _YEAR_HEADING().fullmatch(cell) is not None


def _line_end(s: str, start: int) -> int:
    """The end of the line of ``s`` that starts at ``start``."""
    end = s.find("\n", start)
    return len(s) if end < 0 else end


def _cell_span(s: str, start: int, end: int) -> tuple[int, int] | None:
    """``[start, end)`` without its surrounding spaces; ``None`` when only spaces."""
    while start < end and s[start].isspace():
        start += 1
    while end > start and s[end - 1].isspace():
        end -= 1
    return (start, end) if end > start else None


def _header_columns(
    s: str, found: list[_Found], markdown: bool
) -> list[tuple[int, int, int, str | None, bool, _Columns]]:
    """``found`` (scale statements in text order) with the statements that share a table row
    merged into one, whose scales are by column (:attr:`_Scope.columns`; a row ``| (Shares in
    thousands) | | (Shares in thousands) | (Dollars in millions)`` heads columns of different
    scales, and governed every figure below by its last statement)."""
    out: list[tuple[int, int, int, str | None, bool, _Columns]] = []
    k = 0
    while k < len(found):
        start = found[k][0]
        line_start = s.rfind("\n", 0, start) + 1
        line_end = _line_end(s, start)
        j = k + 1
        while j < len(found) and found[j][0] < line_end:
            j += 1
        label = _row_label(s, line_start, line_end, markdown) if j - k >= 2 else None
        if label is None or any(f[4] for f in found[k:j]):
            out.extend((*f, ()) for f in found[k:j])
            k = j
            continue
        columns = tuple((_column_at(s, f[0], markdown), f[2], f[3]) for f in found[k:j])
        out.append((start, found[j - 1][1], 1, None, False, columns))
        k = j
    return out


_SINGULAR_SCALES = {w: scales()[w] for w in _STATEMENT.singular}
_SINGULAR = lazy(rf"({alternation(_SINGULAR_SCALES)})(?![\w])")
"""A singular scale word (the word start is checked after a match: an expression that starts
with a look-behind is tried at every position)."""
_SINGULAR_RUNS = frozenset(w.encode() for w in _SINGULAR_SCALES)
_CURRENCY_THEN = lazy(
    r"(?:^|(?<=[\s(|]))(?:in\s+)?(?P<cur>[a-z]{1,2}\$|"
    + alternation(_STATEMENT.currencies_before_singular)
    + r")\s?$"
)
"""A currency (``$``, ``€``, ``S$``, ``EUR``, ``CHF``, also after ``in``) right before a
singular scale word: ``€ million``, ``(S$ million)``, ``USD million``, ``in € thousand``."""


_CURRENCY_ENDS = frozenset({"$", *(c[-1] for c in _STATEMENT.currencies_before_singular)})
"""The last characters of the currencies of :data:`_CURRENCY_THEN` (a cheap test first)."""


def _sign_at(s: str, i: int) -> str:
    """The currency sign that ends with the sign at ``i`` in normalised ``s``, with its
    country's letters (``hk$`` of ``hk$'000``, ``nt$``, ``s$``: the lexicons' signs), or the
    sign alone."""
    for k in (3, 2, 1):
        sign = s[max(0, i - k) : i + 1]
        if len(sign) == k + 1 and sign in _CURRENCY_DIM and not s[i - k - 1 : i - k].isalpha():
            return sign
    return s[i]


_CODE_SCALE_WORDS = tuple(
    dict.fromkeys((*_STATEMENT.after_sign, *_STATEMENT.in_brackets, *_STATEMENT.singular))
)
"""The scale words a statement writes after a currency's code (``rmb'000``, ``rmb'million``,
``eur m``, ``eurm``, ``usd thousands``, ``chf mn``)."""
_CODE_SCALES = {w: scales()[w] for w in _CODE_SCALE_WORDS}
_CODES = tuple(
    w for w in currency_of(("codes", "signs")) if w.rstrip(".").isalpha() and w.isascii()
)
"""The currencies written in letters before a figure (``eur``, ``rmb``, ``rm``, ``rs.``)."""
_CODE_SCALE = lazy(
    r"(?<![\w$])(?P<cur>"
    + alternation(_CODES)
    + r")\s?(?P<scale>"
    + alternation(_CODE_SCALE_WORDS)
    + r")(?![\w,.])"
)
"""A currency's code and a scale word: a statement (``RMB'000``, ``EUR m``, ``EURm``, ``(USD
thousands)``, a column's ``2023 RMB'000``)."""
_CODE_RUNS = frozenset(
    (c.rstrip(".") + w).encode()
    for c in _CODES
    for w in ("", *(w for w in _CODE_SCALE_WORDS if w.isalpha()))
)
"""The letter runs of a code alone or glued to its scale word (``eurm``): the pre-test of
:data:`_CODE_SCALE`."""
_CURRENCY_SCALE_RUNS = _SINGULAR_RUNS | _CODE_RUNS
"""The letter runs one of which a statement of :func:`_currency_scales` holds."""


def _after_per(s: str, at: int) -> bool:
    """Whether ``per`` stands right before ``at`` in normalised ``s``: a statement's words
    there are a rate (``per $ million of revenues``, ``per eur m of sales``)."""
    return s[max(0, at - 5) : at].rstrip().endswith("per")


def _currency_scales(s: str, words: frozenset[bytes], found: list[_Found]) -> list[_Found]:
    """Scale statements of a currency and a scale word: a singular one after any currency
    (:func:`_singular_scales`) and any after a currency's code (:data:`_CODE_SCALE`), the
    latter where no statement of ``found`` stands (``in usd thousands`` is one already) and
    not a rate (``per eur m``)."""
    out = _singular_scales(s) if not words.isdisjoint(_SINGULAR_RUNS) else []
    if words.isdisjoint(_CODE_RUNS):
        return out
    taken = [(f[0], f[1]) for f in (*found, *out)]
    for m in _CODE_SCALE().finditer(s):
        a, b = m.span()
        if (
            s[a:b] in _CURRENCY_DIM  # "rmb" is no "rm" and "b"
            or any(x < b and a < y for x, y in taken)
            or _after_per(s, a)
        ):
            continue  # a code, a statement read already, a rate ("per eur m of sales")
        out.append((a, b, _CODE_SCALES[m["scale"]], _CURRENCY_DIM.get(m["cur"]), False))
    return out


def _singular_scales(s: str) -> list[tuple[int, int, int, str | None, bool]]:
    """Scale statements with a singular scale word after a currency (``$ million``, ``(€
    million)``, ``EUR million``), as :func:`_scopes` collects them; not a rate (``per $
    million of revenues``) nor a figure's own scale (``$5 million``)."""
    out: list[tuple[int, int, int, str | None, bool]] = []
    for m in _SINGULAR().finditer(s):
        j = m.start() - 1
        if j >= 0 and s[j] == " ":
            j -= 1
        if j < 0 or s[j] not in _CURRENCY_ENDS or (j == m.start() - 1 and s[j].isalpha()):
            continue  # "$5 million", "a million": no currency right before the word
        before = _CURRENCY_THEN().search(s, max(0, m.start() - 12), m.start())
        if before is None or _after_per(s, before.start()):
            continue
        code = _CURRENCY_SYMBOLS.get(before["cur"])
        dim = f"currency-{code}" if code is not None else None
        out.append((before.start(), m.end(), _SINGULAR_SCALES[m[1]], dim, False))
    return out


_FOREIGN_STATEMENT_LANGUAGES = tuple(
    lang for lang in LANGUAGES if lang != "en" and lexicon(lang).statement_scales
)
"""The languages besides English whose lexicons name the scales of a statement
(``statement_scales``): :data:`_FOREIGN_SCALE` reads their statements."""
_FOREIGN_STATEMENT_WORDS = tuple(
    dict.fromkeys(
        w
        for w in merged("statement_scales", _FOREIGN_STATEMENT_LANGUAGES)
        if w not in lexicon("en").statement_scales  # "in millions)": English's
    )
)
"""The scale words of those statements that English statements do not write."""
_TIMES_HINT = re.compile(r"(?<![\w])x\s*€?\s*1(?:[.,]000|\s+[a-z])|€\s*/\s*000")
"""The start of a Dutch statement ``(x € 1.000)``, ``(x € 1 miljoen)``, or ``(€/000)``:
:func:`_scopes`' pre-test."""
_TIMES_WORDS = tuple(
    w for w in merged("figure_scales", _FOREIGN_STATEMENT_LANGUAGES) if w.isalpha() and len(w) > 2
)
"""Scale words after ``x 1`` in a statement (``x € 1 miljoen``): the figure scales of the
languages whose lexicons name statement scales."""
_GLUED_CURRENCY_WORDS = tuple(w for w in _FOREIGN_STATEMENT_WORDS if w.endswith(("€", "eur")))
"""The statement scales glued to the euro (``TEUR``, ``k€``, ``M€``, ``Md€``): a statement alone."""
_EURO_STATEMENT_WORDS = tuple(w for w in _GLUED_CURRENCY_WORDS if w.endswith("€"))
"""Those written with ``€``, which :func:`_scopes` looks for whole (a run ``t`` or ``m`` is in
too many words for a pre-test)."""
_STATEMENT_CURRENCY = alternation(tuple(_CURRENCY_DIM), space=r"\s+")
"""Every written form of a currency in the lexicons (sign, code, name), as an alternation: a
foreign statement may write one before its scale word or after it (``(R$ milhões)``, ``(in €
miljoen)``, ``(Euro milioni)``, ``(em milhões de reais)``, ``in Tausend €``)."""
_SCALE_ONLY_WORDS = tuple(w for w in _FOREIGN_STATEMENT_WORDS if w not in _GLUED_CURRENCY_WORDS)
"""The statement scales that name no currency of their own (``milhões``, ``Tausend``; not
``k€``): a currency may stand before or after them."""
_FOREIGN_SCALE = lazy(
    r"""(?x)(?<![\w])(?:
      (?:in\s+)?(?P<de>mio|mrd|tsd)\.?\s*(?P<cur>€|eur|euro|chf|usd|\$)(?![\w])
    | (?:in\s+)?(?P<cur2>€|eur|chf)\s*(?P<de2>mio|mrd|tsd)(?:\.|(?![\w]))
    | (?:in\s+)?(?P<k>"""
    + alternation(_GLUED_CURRENCY_WORDS)
    + r""")(?![\w])
    | (?:en\s+|(?<=\())(?P<fr>"""
    + alternation(lexicon("fr").statement_scales)
    + r""")\s+d['e]\s*(?P<cur3>euros?|dollars?|francs?)
    | (?:en\s+|(?<=\())(?P<es>"""
    + alternation(lexicon("es").statement_scales, space=r"\s+")
    + r""")\s+de\s+(?P<cur4>euros?|d[oó]lares|pesos)
    | (?:(?:in|em)\s+|(?<=\())(?:(?P<cur12>"""
    + _STATEMENT_CURRENCY
    + r""")\s*)?(?P<xl>"""
    + alternation(_SCALE_ONLY_WORDS, space=r"\s+")
    + r""")(?:\s+(?:di|de|van))?
      (?:\s*(?P<cur7>"""
    + _STATEMENT_CURRENCY
    + r""")(?![\w'])|(?=\s*\))|(?(cur12)(?=[ \t]*(?:\n|\Z))|(?!)))
    | x\s*(?P<cur8>€)?\s*(?P<times>1(?:[.,]000){1,3})(?![\d.,])(?:\s*(?P<cur9>euro|eur)(?![\w]))?
    | x\s*(?P<cur10>€)?\s*1\s+(?P<xw>"""
    + alternation(_TIMES_WORDS)
    + r""")(?![\w])
    | (?P<cur11>€)\s*/\s*(?P<per000>000)(?![\d])
    | (?:in\s+(?P<cur5>₹|rs\.?|inr|rupees)?|(?P<cur6>₹|rs\.?|inr|rupees)(?:\s*in)?)\s*
      (?P<inr>"""
    + alternation(_INDIAN_SCALES)
    + r""")(?![\w])
    )""",
)
"""Scale statements in German, French, Spanish, Italian, Portuguese and Dutch reports: ``in
Mio. €``, ``Mrd. EUR``, ``in € Tsd.``, ``TEUR``, ``en millions d'euros``, ``en milliers
d'euros``, ``en millones de euros``, ``en miles de euros``, ``in milioni di euro``, ``em
milhares de euros``, ``in miljoenen euro``, ``(in migliaia)``, or opened by the bracket
alone (``(milliers d'euros)``, ``(miles de euros)``, ``(migliaia di euro)``; the scale words: the
lexicons' ``statement_scales``), ``k€``, ``M€``, ``Md€``, the Dutch ``(x € 1.000)``,
``bedragen x 1.000 euro`` (a thousand, for each group of three zeros), ``(x € 1 miljoen)``, and
``(€/000)``; and in Indian reports ``(₹ in crore)``, ``(Rs. in lakhs)``,
``(in ₹ crore)``, ``(₹ crore)``."""
_FOREIGN_STATEMENT_SCALES = (*_FOREIGN_STATEMENT_WORDS, *_INDIAN_SCALES)
_FOREIGN_SCALE_RUNS = key_runs(w for w in _FOREIGN_STATEMENT_SCALES if w.replace(" ", "").isalpha())
"""A letter run of each statement scale word (``milh`` of ``milhões``); not of ``t€`` and
``k€``, which :func:`_scopes` looks for whole (a run ``t`` is in every ``don't``)."""
_FOREIGN_SCALE_WORDS = {
    w: scales()[w]
    for w in (*merged("statement_scales", _FOREIGN_STATEMENT_LANGUAGES), *_INDIAN_SCALES)
}


def _foreign_scales(s: str) -> list[tuple[int, int, int, str | None, bool]]:
    """Scale statements of :data:`_FOREIGN_SCALE`, as :func:`_scopes` collects them (a
    ``pesos`` or ``francs`` statement states the scale without a currency of ours; a figure's own
    scale, ``5 Mio. €``, is none)."""
    out: list[tuple[int, int, int, str | None, bool]] = []
    for m in _FOREIGN_SCALE().finditer(s):
        before = s[max(0, m.start() - 3) : m.start()].rstrip()
        if before[-1:].isdigit():  # a figure's own scale: "5 Mio. €"
            continue
        if m["times"] or m["xw"] or m["per000"]:  # "(x € 1.000)", "(x € 1 miljoen)", "€/000"
            written = m["cur8"] or m["cur9"] or m["cur10"] or m["cur11"]
            scale = (
                1000 ** (len(m["times"]) // 4)
                if m["times"]
                else scales()[m["xw"]]
                if m["xw"]
                else 1000
            )
            out.append((m.start(), m.end(), scale, _CURRENCY_DIM.get(written or ""), False))
            continue
        word = m["de"] or m["de2"] or m["k"] or m["fr"] or m["es"] or m["xl"] or m["inr"]
        word = re.sub(r"\s+", " ", word)
        written = (
            "eur"
            if m["k"]
            else m["cur"]
            or m["cur2"]
            or m["cur3"]
            or m["cur4"]
            or m["cur5"]
            or m["cur6"]
            or m["cur7"]
            or m["cur12"]
        )
        out.append(
            (m.start(), m.end(), _FOREIGN_SCALE_WORDS[word], _CURRENCY_DIM.get(written), False)
        )
    return out


_MARKERS = (*_STATEMENT.markers, *_STATEMENT.below_markers)
"""The words of a statement written as a label (``単位``, ``单位``, ``단위``) or as a note of
the unit figures are cut to (``未満切捨て``): :func:`_has_marker`'s pre-test."""
_SCALE_RUN = "[" + SCALE_CHARS + "]{1,4}"
"""A scale in scale characters (``百万``, ``십억``): :func:`mixed_value` composes it."""
_CJK_CURRENCY = alternation(CJK_CURRENCIES)
_LABEL_STATEMENT = lazy(
    "(?:"
    + alternation(_STATEMENT.markers)
    + r")[ \t]*:[ \t]*(?P<pre>[^\d\s:()\[\]]{0,6}?)[ \t]*(?:(?P<pct>%)|"
    + rf"(?P<scale>{_SCALE_RUN})[ \t]*(?P<cur>{_CJK_CURRENCY})?)"
    + rf"|(?<![\d.,])(?P<below>{_SCALE_RUN})(?P<cur2>{_CJK_CURRENCY})(?:"
    + alternation(_STATEMENT.below_markers)
    + rf")|\((?P<bracket>{_SCALE_RUN})(?P<cur3>{_CJK_CURRENCY})\)"
    + rf"|(?<=\|)[ \t]*(?P<cell>{_SCALE_RUN})(?P<cur4>{_CJK_CURRENCY})[ \t]*(?=\||$)"
)
"""A statement of the lexicons' ``scale_statement.markers``, its colon, a currency or any word
before the scale (``人民币``, ``新台幣``), the scale in scale characters and the currency after
it (``(単位:百万円)``, ``单位:人民币万元``, ``(단위: 백만원)``, ``(単位:千株)``), or ``%``; a
scale and a currency before a word of ``below_markers`` (``百万円未満切捨て``); or a scale and
a currency alone in brackets, in a heading or a row's label (``売上高(百万円)``,
``营业收入(万元)``, ``매출액(백만원)``), or alone in a table's cell (``| 百万円 | % |``: a
header row of units under the headings)."""


def _has_marker(s: str) -> bool:
    """Whether ``s`` may hold a statement of :data:`_LABEL_STATEMENT` (the pre-test)."""
    return not s.isascii() and (
        any(w in s for w in _MARKERS) or _BRACKETED_HINT().search(s) is not None
    )


_BRACKETED_HINT = lazy("[" + SCALE_CHARS + rf"](?:{_CJK_CURRENCY})[ \t]*[)|]")
"""A scale character, a currency and a closing bracket or a cell's end: a statement in
brackets or in a cell of its own may be there."""


def _label_statements(s: str) -> list[tuple[int, int, int, str | None, bool]]:
    """Statements written as a label (:data:`_LABEL_STATEMENT`), as :func:`_scopes` collects
    them: the scale the characters compose (``百万``: 10^6, ``십억``: 10^9) in the currency
    named before it (``人民币万元``), or else after it; a word before it that names no
    currency of ours (``新台幣千元``) leaves the currency unknown. A label naming no scale
    (``单位:元``) states none; a note of the unit figures are cut to (``百万円未満切捨て``)
    states its scale and currency."""
    out: list[tuple[int, int, int, str | None, bool]] = []
    for m in _LABEL_STATEMENT().finditer(s):
        if m["pct"]:
            out.append((m.start(), m.end(), 1, None, True))
            continue
        scale = mixed_value(m["scale"] or m["below"] or m["bracket"] or m["cell"])
        if scale is None or scale.denominator != 1 or scale <= 1:
            continue
        pre, cur = m["pre"], m["cur"] or m["cur2"] or m["cur3"] or m["cur4"]
        written = pre if pre else cur
        dim = _UNITS[written][1] if written in _UNITS else None
        out.append((m.start(), m.end(), int(scale), dim, False))
    return out


def _with_rows(scopes: list[_Scope], rows: list[_Scope]) -> list[_Scope]:
    """``scopes`` (in order, not overlapping) with the scope of each row of ``rows`` (a percent
    row, a row of :func:`_unit_rows`) cut out of the scope around it (the scope resumes after
    the row)."""
    out: list[_Scope] = []
    pending = sorted(scopes + rows, key=lambda x: x.start)
    open_scope: _Scope | None = None
    for sc in pending:
        if open_scope is not None and open_scope.end > sc.start:
            # a row inside an open scope: the scope stops at the row and resumes after it
            out.append(replace(open_scope, end=sc.start))
            out.append(sc)
            rest = replace(open_scope, start=sc.end)
            open_scope = rest if rest.end > rest.start else None
            continue
        if open_scope is not None:
            out.append(open_scope)
        open_scope = sc
    if open_scope is not None:
        out.append(open_scope)
    return [x for x in out if x.end > x.start]


def _governs_figures(sc: Scan, scope: _Scope) -> bool:
    """Whether a figure of ``sc`` (not a year or a date) stands in ``scope``'s span."""
    spans = sc.norm_spans
    k = bisect_left(spans, (scope.start, -1))  # the quantities are in text order
    while k < len(spans) and spans[k][0] < scope.end:
        if sc.quantities[k].kind == "number" and not (sc.meta and sc.meta[k][3] & F_YEAR):
            return True
        k += 1
    return False


def _caption_scopes(scans: Sequence[Scan], scopes_of: list[list[_Scope]]) -> None:
    """Give the tables of a context that state no scale of their own the scale that its other
    passages state for no figure of theirs (a caption kept apart from its table: ``Deferred
    charges consisted of the following (in thousands):``, ``Expressed in US $000's except
    share and per share amounts``), when they state one scale and currency only. A
    document split into passages keeps a table's caption in a passage of its own as often as
    in the table's (TAT-QA: 252 of 315 gold answers written in full digits, ``$96,168,000``
    for ``96,168`` under such a caption, were flagged). Such a scale only adds the scaled
    reading (:attr:`_Scope.caption`): that the caption is the table's is inferred."""
    stated: set[tuple[int, str | None]] = set()
    for sc, scopes in zip(scans, scopes_of, strict=True):
        for scope in scopes:
            if scope.states_scale and not _governs_figures(sc, scope):
                stated.add((scope.scale, scope.currency))
    if len(stated) != 1:
        return
    ((scale, currency),) = stated
    for k, (sc, scopes) in enumerate(zip(scans, scopes_of, strict=True)):
        filled = _captioned(sc.norm.text, scopes, scale, currency)
        if filled is not None:
            scopes_of[k] = filled


def _apply_caption(
    scans: Sequence[Scan], scopes_of: list[list[_Scope]], caption: tuple[int, str | None] | None
) -> None:
    """:func:`_caption_scopes` with the caption found over a whole context (``None``: none) for
    a piece of it (:meth:`GroundingContext.piece`)."""
    if caption is None:
        return
    for k, sc in enumerate(scans):
        filled = _captioned(sc.norm.text, scopes_of[k], *caption)
        if filled is not None:
            scopes_of[k] = filled


def _captioned(
    s: str, scopes: list[_Scope], scale: int, currency: str | None
) -> list[_Scope] | None:
    """The scopes of passage ``s`` with a caption's ``scale`` and ``currency`` in the gaps
    (:func:`_caption_scopes`), or ``None`` when the passage takes no caption (it holds no table
    in rows, or it states a scale of its own)."""
    if ("|" not in s and "\t" not in s) or any(x.states_scale for x in scopes):
        return None
    filled: list[_Scope] = []
    cursor = 0
    for x in scopes:  # in order, not overlapping: the caption's scale fills the gaps
        if x.start > cursor:
            filled.append(_Scope(cursor, x.start, scale, currency, False, caption=True))
        filled.append(x)
        cursor = max(cursor, x.end)
    if cursor < len(s):
        filled.append(_Scope(cursor, len(s), scale, currency, False, caption=True))
    return filled


_Sorted = tuple[list[float], list[int]]
"""Values sorted, and for each the position of its quantity (among the index's items, then its
scaled figures)."""


def _scaled_quantity(q: Quantity, value: Fraction, dim: str | None) -> Quantity:
    """A figure of :attr:`_Index.scaled` as a quantity of its scaled value (``16,525`` under
    ``(in millions)`` is 16525000000), as written, for the nearest-figure evidence."""
    unit = dim.split("-", 1)[1] if dim is not None and dim.startswith("currency-") else None
    return Quantity(q.text, q.span, "number", value, unit, dim, value)


def _nearest_tables(
    items: list[tuple[Quantity, _Occ]],
    scaled: list[tuple[Quantity, Fraction, str | None, _Occ]],
) -> dict[tuple[str, str, str | None], _Sorted]:
    """Context quantities sorted by value, per (kind, dimension) and per kind, for finding the
    nearest one by bisection (built once, on the first finding); the figures with their
    heading's scale (``scaled``) are numbers too, made quantities only when one is chosen."""
    groups: dict[tuple[str, str, str | None], list[tuple[float, int]]] = {}
    for i, (c, _occ) in enumerate(items):
        groups.setdefault(("dim", c.kind, c.dimension), []).append((float(c.base_value), i))
        groups.setdefault(("kind", c.kind, None), []).append((float(c.value), i))
    kind_rows = groups.setdefault(("kind", "number", None), []) if scaled else []
    n = len(items)
    for k, (_q, value, dim, _occ) in enumerate(scaled):
        x = float(value)
        groups.setdefault(("dim", "number", dim), []).append((x, n + k))
        kind_rows.append((x, n + k))
    out: dict[tuple[str, str, str | None], _Sorted] = {}
    for key, rows in groups.items():
        if not rows:
            continue
        rows.sort()  # ties: the earliest occurrence first
        out[key] = ([r[0] for r in rows], [r[1] for r in rows])
    return out


def _distance(a: float, x: float) -> tuple[bool, float]:
    """How far context figure ``a`` lies from the answer's ``x``, for the nearest-figure
    evidence: by ratio when both have one sign (``$14,020 million`` is nearer ``$3,700
    million`` than the unscaled reading ``$16,525`` of a cell under "(in millions)"), else by
    difference, after every figure of the same sign."""
    if a and x and (a > 0) == (x > 0) and math.isfinite(a) and math.isfinite(x):
        return False, abs(math.log(a / x))
    return True, abs(a - x)


def _precision(meta: Meta) -> float:
    """One unit of the last digit written, scale word applied (``16.5 billion``: 1e8)."""
    mult, decimals, _sig, _flags = meta
    return float(mult) * 10.0 ** (-decimals)


_SEPARATORS = re.compile(r"[|\t]")
_MARKDOWN_RULE = lazy(r"^[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*\|", re.MULTILINE)
"""The rule under a Markdown table's header (``|---|---|``, ``| :--- | ---: |``): its rows open
with a ``|``, so a row's label is the cell after it."""


_BORDERED_ROWS = lazy(r"^[ \t]*\|[^\n]*\|[ \t]*\n[ \t]*\|[^\n]*\|[ \t]*$", re.MULTILINE)
"""Two rows in a row that open and close with ``|``: a Markdown table's rows without the rule
under its header (a chunk cut below it, a converter that writes none)."""
_UNBORDERED_ROW = lazy(r"^(?=[^\n]*\|)(?![ \t]*\|[^\n]*\|[ \t]*$)", re.MULTILINE)
"""A line with a ``|`` that does not open and close with one: a table of pipe rows (``Revenue |
100 | 90``), whose rows with an empty first and last cell (`` | 2019 | ``) look bordered."""


def _is_markdown(s: str) -> bool:
    """Whether passage ``s`` holds a Markdown table: a :data:`_MARKDOWN_RULE`, or rows
    bordered by ``|`` without it (:data:`_BORDERED_ROWS`; every line with a ``|`` so bordered,
    :data:`_UNBORDERED_ROW`): either way its rows open with ``|``, the label in the cell after
    it."""
    if "|" not in s:
        return False
    if "--" in s and _MARKDOWN_RULE().search(s) is not None:
        return True
    return _BORDERED_ROWS().search(s) is not None and _UNBORDERED_ROW().search(s) is None


def _row_label(
    s: str, line_start: int, line_end: int, markdown: bool
) -> tuple[int, re.Match[str] | None] | None:
    """Where the label cell of the table row on ``s[line_start:line_end]`` starts, and the cell
    separator that ends it (``None``: the label runs to the line's end); ``None`` when the line
    is no table row. In a Markdown table (``markdown``) a row that opens with ``|`` has its
    label in the cell after it (``| Products | 16,525 |``)."""
    sep = _SEPARATORS.search(s, line_start, line_end)
    if sep is None:
        return None
    if markdown and not s[line_start : sep.start()].strip():
        return sep.end(), _SEPARATORS.search(s, sep.end(), line_end)
    return line_start, sep


_LETTER = re.compile(r"[^\W\d_]")
_PCT_CELL = lazy(r"(?:^|[|\t])[ ]*%[ ]*(?=[|\t\n]|$)", re.MULTILINE)
"""A table cell that is only ``%``: the heading of a column of bare percentages."""
_PCT_HEADING = lazy(r"(?:^|[|\t])[^|\t\n%]*\(%\)[ ]*(?=[|\t\n]|$)", re.MULTILINE)
"""A table cell that ends with ``(%)`` (``FY 2019 (%)``, ``Change (%)``): the same."""


_BRACKET_END = re.compile(r"\(([^()\d|\t\n]{1,12})\)[ ]*$")
"""A cell's last bracket, holding no digit: the unit a heading or a row's label names
(``Distance (km)``, ``Degenza media (giorni)``, ``Prezzo (€/m²)``)."""


def _unit_named(written: str) -> tuple[str, float] | None:
    """The dimension a unit written alone names and its factor to the base unit (``km``:
    ``length``, 1000), read as the figures' units are (``1 km``); ``None`` for a currency, a
    percentage, or no unit of the lexicons."""
    text = "1 " + written
    found = scan(text).quantities
    if len(found) != 1 or found[0].span != (0, len(text)):  # all of it: not "h" of "h:mm"
        return None
    q = found[0]
    dim = q.dimension
    if q.unit is None or dim is None or dim[:9] == "currency-" or q.unit == "%" or q.value != 1:
        return None
    return dim, float(q.base_value)


def _heading_units(s: str, markdown: bool) -> dict[tuple[int, int], tuple[str, float]]:
    """The unit each cell of a table row takes from its column's heading or its row's label
    (``Distance (km)`` above, ``Degenza media (giorni) | 7,1 | 6,8``), by ``(line, column)``
    as :class:`_Cursor` counts them, for the lines of normalised ``s`` under a heading row in
    the same block (a blank line ends it); a row's own label first. A unit the lexicons do
    not name, a currency or a percentage is none (:func:`_unit_named`)."""
    out: dict[tuple[int, int], tuple[str, float]] = {}
    columns: dict[int, tuple[str, float]] = {}
    pos = 0
    for line, text in enumerate(s.split("\n")):
        start, end = pos, pos + len(text)
        pos = end + 1
        label = _row_label(s, start, end, markdown) if text.strip() else None
        if label is None:
            columns = {} if not text.strip() else columns
            continue
        cells = re.split(r"[|\t]", s[label[0] : end])
        named = {
            c: unit
            for c, cell in enumerate(cells)
            if (m := _BRACKET_END.search(cell)) and (unit := _unit_named(m.group(1).strip()))
        }
        if named and not _DIGIT.search("".join(cells[1:]).replace("(", "")):
            columns = named  # a heading row: the units of its columns
            continue
        own = named.get(0)
        for c in range(1, len(cells)):
            unit = own or columns.get(c)
            if unit is not None:
                out[(line, c)] = unit
    return out


def _pct_cells(s: str) -> list[int]:
    """Where the cells of :data:`_PCT_CELL` and :data:`_PCT_HEADING` start, in order."""
    if "%" not in s:
        return []
    cells = [m.start() for m in _PCT_CELL().finditer(s)]
    if "(%)" in s:
        cells = sorted(cells + [m.start() for m in _PCT_HEADING().finditer(s)])
    return cells


COUNT_LIMIT = 100
"""A whole number below this, without a currency, a scale or decimals, written in running text
before a noun (``3 plants``) or in a row's label cell after a word (``Scope 1 | 59,495``), is a
count or a label (:attr:`Figure.count`)."""

_NAMED_PERIOD_IDENT = re.compile(r"[qh]\d")
"""The identifiers :func:`_named_periods` gives a quarter or a half named in words."""
_BLANKS_AND_BRACKETS = re.compile(r"[\s()]+")
"""What a legal identifier's text leaves out of its match (``501(c)(3)`` is ``501c3``)."""


def _squeezed(text: str) -> str:
    """``text`` without blanks and round brackets (:meth:`GroundingContext._not_written`)."""
    return _BLANKS_AND_BRACKETS.sub("", text)


_Whole = tuple[list[_Scope] | None, bool]
"""What a window of the fast path takes from its whole passage (:meth:`GroundingContext._whole`):
the scale statements (``None``: read around each window, a long passage) and whether the
passage holds a Markdown table."""
_REGION_BACK = 4_000
"""How far (characters) :meth:`GroundingContext._region_scopes` first reaches around a window."""
_REGION_LOOK = 80
"""How far after its first line a statement must stand in a region to be read as in the whole
passage (the currency a statement names may stand up to 40 characters before it)."""
_REGION_MIN = 20_000
"""A context of one passage longer than this (characters) has its scale statements read around
each window of the fast path, not over the whole passage (:meth:`GroundingContext._region_scopes`)."""


def _shifted_scopes(region: str, offset: int) -> list[_Scope]:
    """The scale statements of ``region`` (:func:`_scopes`), offsets moved by ``offset``."""
    return [
        replace(x, start=x.start + offset, end=x.end + offset)
        for x in _scopes(region, letter_runs(region))
    ]


def _blank_lines(s: str, start: int, end: int) -> int:
    """How many blank lines (:data:`_BLANK_LINE`) of ``s`` lie within ``start:end`` (3 at most:
    enough to tell that two whole blocks lie between)."""
    count = 0
    pos = start
    while count < 3:
        m = _BLANK_LINE.search(s, pos, end)
        if m is None:
            break
        count += 1
        pos = m.end()
        while pos < end and s[pos] in " \t\n":  # blank lines in a row are one boundary
            pos += 1
    return count


_Row = tuple[float, float, "_Occ", bool, str | None, bool]
"""A context figure for rounded matches: value (scale applied), precision, where, whether a
percentage may match it (a percentage or a table cell), its currency (its own or its block's:
``currency-eur``), if known, and whether the value is the figure's digits without the scale
its block states (``1,102,480`` under ``(in thousands)``: no answer's own scale word rounds
it, :meth:`GroundingContext.rounded`)."""


@dataclass(slots=True)
class _Cursor:
    """Where in a passage's layout the figure being read stands: its line, block, table row
    and column (:meth:`GroundingContext._add_passage` reads the figures in text order and
    advances it: linear overall)."""

    s: str
    """The passage, normalised."""
    markdown: bool
    """See :func:`_is_markdown`."""
    pct_cells: list[int]
    """Where the cells of :data:`_PCT_CELL` (a column headed ``%``) start."""
    block: int
    """The block (numbers run on across passages)."""
    line: int = 0
    line_start: int = 0
    line_end: int = -1
    table: bool = False
    """Whether the line is a table row."""
    column: int = 0
    pos: int = 0
    """Where the last count stopped."""

    def advance(self, a: int, figures: Figures) -> None:
        """Move to the figure starting at ``a``; on a new line, note its row's label (what a
        question names it by) and a column headed ``%`` above it in ``figures``."""
        s, pos = self.s, self.pos
        if a > self.line_end:
            self.line += s.count("\n", pos, a)
            line_start = self.line_start = s.rfind("\n", 0, a) + 1
            self.block += len(_BLANK_LINE.findall(s, pos, a))
            line_end = self.line_end = _line_end(s, a)
            label = _row_label(s, line_start, line_end, self.markdown)
            self.table = label is not None
            row_start = line_start
            if label is not None:
                row_start, sep = label
                label_end = sep.start() if sep is not None else line_end
                figures.labels[(self.block, self.line)] = s[row_start:label_end]
            cells = self.pct_cells
            if cells and bisect_left(cells, pos) < bisect_left(cells, a):
                figures.percent_blocks.add(self.block)  # a column headed "%" above
            self.column = 0
            pos = row_start
        if self.table:
            self.column += s.count("|", pos, a) + s.count("\t", pos, a)
        self.pos = a


_FISCAL_RUNS = frozenset((b"fy", b"cy"))
_FISCAL_YEAR_IDENT = re.compile(r"(?:fy|cy)\s?(?:19|20)?\d\d")
"""A fiscal year written as an identifier (``fy 2019``, ``FY19``): read apart from the figures."""


def _fiscal_year_columns(sc: Scan, at: _Cursor, figures: Figures) -> None:
    """Note the year of each table column a fiscal year heads (``Breakup | FY 2019 (%) | FY
    2018 (%)``), as a date heading a column notes it (:meth:`Figures.note_date`, given the
    year's first day): the question's years then pick its cells, and a change runs from the
    older column to the newer. ``at``: a fresh cursor over the passage, from its first block."""
    for ident in sc.idents:
        number = ident.number
        if number is None or _FISCAL_YEAR_IDENT.fullmatch(ident.text) is None:
            continue
        at.advance(ident.start, figures)
        if at.table and at.column > 0:
            figures.note_date(at.block, at.line, at.column, int(number) * 10000 + 101)


@dataclass(frozen=True, slots=True)
class _Reading:
    """How a context figure reads as an operand (:func:`_add_rounding_rows`)."""

    value: float
    percent: bool
    money: str | None
    """Its currency dimension, its own or its block's."""
    scale: int
    """The scale its block states (1: none, or a caption's)."""
    caption: float
    """The scale a caption of another passage states for it (1.0: none)."""
    units: bool = False
    """In a row the statement around it does not scale (:attr:`_Scope.units`)."""


_CELL_REST = re.compile(r"[^|\t\n]*")


def _words_after(s: str, end: int) -> bool:
    """Whether a letter follows ``end`` in its table cell (``187,200,539 and 186,880,413 shares
    issued)`` in a row's label; not ``Granted 1,906.5``, a row whose cells a space parts)."""
    m = _CELL_REST.match(s, end)
    return m is not None and any(ch.isalpha() for ch in m.group())


def _add_rounding_rows(
    q: Quantity,
    meta: Meta,
    occ: _Occ,
    scope: _Scope | None,
    plain: bool,
    table: bool,
    rows: list[_Row],
    label: bool = False,
) -> _Reading:
    """Add the rows of rounded matches of a context figure (``plain``: a sum of money or a
    unitless figure; ``table``: in a table row; ``label``: in its label, ``187,200,539 shares
    issued`` of a row ``Common stock``, a count the statement's scale does not name) under
    ``scope``: as written, scaled, and by magnitude for a bracketed figure; and how it reads as
    an operand."""
    flags = meta[3]
    prec = float(meta[0]) * 10.0 ** (-meta[1])  # _precision(meta), inlined
    value = q.value.numerator / q.value.denominator  # float(q.value), without dispatch
    if q.value.denominator != 1 and 10 ** meta[1] % q.value.denominator:
        prec = 0.0  # a fraction no decimal writes (2/3): exact, any rounding of it grounds
    percent = q.unit == "%"
    bracketed = bool(flags & F_PAREN) and value < 0
    money = (
        q.dimension
        if plain and q.dimension is not None
        else scope.currency
        if scope is not None and not percent
        else None
    )
    scale = 1
    caption = 1.0
    # a percentage may round a percentage or a cell, not a count of running text
    pct_ok = percent or table
    if scope is not None and scope.percent and q.dimension is None:
        percent = pct_ok = True
    elif plain and not flags & (F_OWN_SCALE | F_YEAR) and scope is not None and scope.scale != 1:
        # a caption's scale adds the scaled rounding; the operand stays as written, with
        # the caption's scale as a further reading (Figure.caption)
        factor = scope.scale
        scaled_money = money
        if scope.caption:
            money = q.dimension if plain and q.dimension is not None else None
            caption = float(factor)
        else:
            scale = factor
        rows.append((value * factor, prec * factor, occ, pct_ok, scaled_money, False))
        if bracketed:  # "used $7.3 million" for "(7,344)" in thousands
            rows.append((-value * factor, prec * factor, occ, False, scaled_money, False))
    if plain or percent:
        unstated = scale != 1 and not label  # its digits, not the amount its scale makes
        rows.append((value, prec, occ, pct_ok, money, unstated))
        if bracketed and plain:
            rows.append((-value, prec, occ, False, money, unstated))
    return _Reading(value, percent, money, scale, caption, scope is not None and scope.units)


def _operand(at: _Cursor, q: Quantity, a: int, b: int, meta: Meta, reading: _Reading) -> Figure:
    """The derivation operand of the context figure ``q`` at ``a:b`` (``at``: where it stands),
    read as ``reading`` says: signed (``(709)`` is -709; the derivation search decides where
    the magnitude is meant instead), with the direction and the noun of running text around
    it and whether it is a count."""
    flags = meta[3]
    s, table, scale = at.s, at.table, reading.scale
    currency = reading.money is not None  # its own currency or its block's
    noun = "" if table else counted_noun(s, b)
    count = (
        not reading.percent
        and not currency
        and scale == 1
        and not flags & F_OWN_SCALE
        and meta[1] == 0
        and q.value.denominator == 1
        and abs(q.value.numerator) < COUNT_LIMIT
        # a label ("Scope 1 | 59,495") or a count of running text ("3 plants")
        and (
            bool(noun)
            if not table
            else at.column == 0 and _LETTER.search(s, at.line_start, a) is not None
        )
    )
    return Figure(
        reading.value,
        float(scale),
        q.text,
        at.line,
        at.column,
        at.block,
        table,
        reading.percent,
        bool(flags & F_PAREN),
        0 if table else clause_trend(s, a),
        noun,
        count,
        currency or scale != 1 or bool(flags & F_OWN_SCALE),
        reading.caption,
        reading.units,
        q.range_role,
        "" if table else s[max(at.line_start, a - BEFORE_REACH) : a],
    )


class GroundingContext:
    """A context (one or more passages) parsed once, ready to check any number of answers.

    Build it with :func:`prepare_context` and keep it: pass it wherever a context is accepted,
    and every check reuses the parse. Built directly (``GroundingContext(passages)``), it parses
    on first need instead: the passages on the first check with a number to trace (an answer
    without numbers never needs them), the figures derivations are computed from on the first
    number not found as written (what :func:`check_grounding` does with a context it is given).

    Attributes:
        passages: the passages as given.
    """

    __slots__ = (
        "_approx",
        "_approx_rows",
        "_bounds",
        "_caption_of",
        "_cell_marks",
        "_convention",
        "_counts",
        "_defer",
        "_dimensions",
        "_fast",
        "_figures",
        "_identifiers",
        "_index",
        "_measures",
        "_nearest",
        "_numerals",
        "_parsed",
        "_parts",
        "_rows_read",
        "_shares",
        "_tables_read",
        "passages",
    )

    def __init__(self, context: str | Sequence[str]) -> None:
        self.passages: tuple[str, ...] = _passages(context)
        # Parsed on first need (an answer without numbers never needs the context's figures):
        # the lookup index, then, only when an answer's number is not in it, the derivation
        # operands and the rows for rounded matches (from the scans kept here).
        self._index: _Index | None = None
        self._identifiers: frozenset[str] = frozenset()
        self._parsed: list[tuple[Scan, list[_Scope]]] = []
        self._figures: Figures | None = None
        self._measures: dict[str, Figures] = {}
        self._dimensions: dict[str, int] | None = None
        self._approx_rows: list[_Row] | None = None
        self._approx: (
            tuple[list[float], list[float], list[bool], list[_Occ], list[str | None], list[bool]]
            | None
        ) = None
        self._nearest: dict[tuple[str, str, str | None], _Sorted] | None = None
        self._numerals: dict[str, list[tuple[Quantity, _Occ]]] | None = None
        self._shares: dict[Fraction, _Occ] | None = None
        self._bounds: frozenset[tuple[int, tuple[int, int]]] | None = None
        self._parts: list[tuple[Fraction, str | None, str]] | None = None
        self._counts: dict[str, list[_Count]] | None = None
        self._fast: Windows[_Whole] | None = None  # the fast path's windows (grounding._fast)
        self._defer = False  # a huge context checked a piece at a time: no full index
        self._cell_marks: dict[int, str] = {}  # per passage: the cell separators it writes
        self._rows_read: dict[int, dict[int, Row | None]] = {}  # per passage: rows_around's
        self._tables_read: dict[tuple[int, int], TableRows | None] = {}  # table_rows's
        # a piece of a context of several passages: the context's caption (_caption_scopes)
        self._caption_of: tuple[tuple[int, str | None] | None] | None = None
        self._convention: tuple[bool, bool] | None = None

    def convention(self) -> tuple[bool, bool]:
        """How the context writes its figures, read on first need: (a passage's figures were
        read the continental way, ``12,5`` or ``1.250``, and no other passage writes a figure
        only the English way does; a passage holds a word of a language that writes them so,
        as reads its scale words: ``R$ 612 mil``). An answer too short to show its own
        convention is read in the context's (:meth:`GroundingChecker._in_context_convention`)."""
        if self._convention is None:
            norms = [normalize(p) for p in self.passages]
            figures = any(n.continental for n in norms) and not any(
                english_only(n.text) for n in norms if not n.continental
            )
            words = any(continental_words(n.text) for n in norms)
            self._convention = (figures, words)
        return self._convention

    def _windows(self) -> Windows[_Whole] | None:
        """The fast path's windows while the full index is not built (once it is, it answers)."""
        if self._index is not None or not _fast.ENABLED:
            return None
        if self._fast is None:
            if sum(map(len, self.passages)) < _fast.MIN_CHARS:
                return None  # a short context: parsed whole (grounding._fast.MIN_CHARS)
            self._fast = Windows(self.passages, self._whole)
        return self._fast

    def _whole(self, i: int, laid: NormalizedText) -> _Whole:
        """What a window of passage ``i`` (normalised and laid out: ``laid``) takes from the whole
        passage: its scale statements (:func:`_scopes`) and whether it holds a Markdown table.
        A passage of several whose table states no scale may take another's (a caption,
        :func:`_caption_scopes`, which needs every passage parsed): no statement is read for
        it then, and its figures count as written only (a subset of what the full index
        holds for them)."""
        s = laid.text
        if len(self.passages) == 1 and len(s) > _REGION_MIN:
            return None, _is_markdown(s)  # a long passage: the statements around each window
        scopes = self._fast_scopes(i, laid)
        if (
            len(self.passages) > 1
            and ("|" in s or "\t" in s)
            and not any(x.states_scale for x in scopes)
        ):
            caption = self._fast_caption()
            if caption is not None:
                scopes = _captioned(s, scopes, *caption) or scopes
        return scopes, _is_markdown(s)

    def _region_scopes(
        self, windows: Windows[_Whole], i: int, at: int, markdown: bool
    ) -> list[_Scope] | None:
        """The scale statements of a long passage ``i`` that may govern offset ``at``, read from
        a region around it (:func:`_scopes`), offsets those of the passage; ``None`` when the
        region reads a table otherwise than the passage does (Markdown or not): the full index
        decides. A statement governs up to the next statement and at most the block after its
        own, so the region reaches back until it holds the start of the second block before
        ``at``'s or a statement before ``at`` (not on the region's first line), doubling its
        reach from :data:`_REGION_BACK` characters; it ends :data:`_REGION_BACK` characters
        after ``at`` (at a line's end)."""
        s = windows.laid(i).text
        stop = _line_end(s, min(at + _REGION_BACK, len(s)))
        reach = _REGION_BACK
        while True:
            start = s.rfind("\n", 0, at - reach) + 1 if at > reach else 0
            region = s[start:stop]
            if _is_markdown(region) != markdown:
                return None
            key = ("region", i, start, stop)
            scopes = windows.memo(key, functools.partial(_shifted_scopes, region, start))
            if start == 0 or _blank_lines(s, start, at) >= 3:
                return scopes
            first_line = s.find("\n", start)
            if any(first_line + _REGION_LOOK < x.start < at for x in scopes):
                return scopes
            reach *= 2

    def _fast_scopes(self, i: int, laid: NormalizedText) -> list[_Scope]:
        """The scale statements of passage ``i`` (:func:`_scopes`), read once for the fast path."""
        windows = self._fast
        assert windows is not None  # the fast path's own helper
        return windows.memo(("scopes", i), lambda: _scopes(laid.text, letter_runs(laid.text)))

    def _fast_caption(self) -> tuple[int, str | None] | None:
        """The one scale and currency the context's passages state for no figure of their own
        (:func:`_caption_scopes`), read for the fast path: every passage's statements, and for
        each that scales, the lines it governs parsed (not the whole passage) to see whether a
        figure stands there."""
        windows = self._fast
        assert windows is not None  # the fast path's own helper
        if self._caption_of is not None:
            return self._caption_of[0]

        def read() -> tuple[int, str | None] | None:
            stated: set[tuple[int, str | None]] = set()
            for j in range(len(self.passages)):
                laid = windows.laid(j)
                for scope in self._fast_scopes(j, laid):
                    if scope.states_scale and not windows.any_figure(j, scope.start, scope.end):
                        stated.add((scope.scale, scope.currency))
            return next(iter(stated)) if len(stated) == 1 else None

        return windows.memo(("caption",), read)

    def piece(self, texts: tuple[str, ...]) -> GroundingContext:
        """A context of ``texts``, a piece of this one (:mod:`grounding._chunks`) whose figures
        read the caption this context states (:func:`_caption_scopes`), if it has several
        passages, read here without parsing them whole (:meth:`_fast_caption`)."""
        piece = GroundingContext(texts)
        if len(self.passages) > 1:
            if self._caption_of is None:
                if self._fast is None:
                    self._fast = Windows(self.passages, self._whole)
                self._caption_of = (self._fast_caption(),)
            piece._caption_of = self._caption_of
        return piece

    def fast_find(self, q: Quantity, written: str, meta: Meta | None = None) -> _Occ | None:
        """``q`` (written ``written`` in the answer, normalised) found as the context writes it,
        from the lines around the occurrences of its digits only (:mod:`grounding._fast`), or
        ``None``: not so found, or the full index is already built (look there). A figure found
        here is one the full index finds (the window's quantities are a subset of it); the
        occurrence named may differ where the context writes the value more than once (the full
        index may name another occurrence, or another reading of it: ``11.4%`` before a cell
        ``11.4``). With ``meta`` (the answer's), a figure of money with its own scale word
        is also found as a cell whose scale the context does not state (``$1,496.5 million``
        for ``1,496.5``: :func:`_fast_mantissa`)."""
        windows = self._windows()
        needle = needle_of(written) if windows is not None else None
        if windows is None or needle is None:
            return None
        for i, sc, offset, line_start, line_end, (whole, markdown) in windows.windows(needle):
            scopes = whole
            if scopes is None:
                scopes = self._region_scopes(windows, i, offset, markdown)
                if scopes is None:
                    return None
            # the quantities of the occurrence's line, indexed as the full index does
            keep = [
                k for k, (a, b) in enumerate(sc.norm_spans) if a >= line_start and b <= line_end
            ]
            line = Scan(
                sc.norm,
                tuple(sc.quantities[k] for k in keep),
                tuple(sc.norm_spans[k] for k in keep),
                (),
                (),
                sc.words,
                tuple(sc.meta[k] for k in keep),
            )
            shifted = [replace(x, start=x.start - offset, end=x.end - offset) for x in scopes]
            index = _Index(loose_units=False)
            self._index_passage(i, line, shifted, index, markdown)
            occ = index.find(q) or _fast_mantissa(index, q, meta)
            if occ is not None:
                shifted_span = windows.passage_span(i, offset, occ[2])
                return occ[0], occ[1], shifted_span, occ[3], occ[4], occ[5]
        return None

    def _laid(self, i: int) -> NormalizedText:
        """Passage ``i`` normalised and laid out: the fast path's or the full parse's, else
        read here (the full parse reads each passage through this, taking the fast path's)."""
        if self._fast is not None:
            return self._fast.laid(i)
        if self._parsed:
            return self._parsed[i][0].norm
        return read_layout(normalize(self.passages[i]))

    def table_rows(self, i: int, span: tuple[int, int]) -> TableRows | None:
        """The table row of passage ``i`` whose cells hold the figure at ``span`` (of the
        passage as written) and the other rows of its table (:func:`rows_around`), read from
        the lines around it; ``None``: no row of a table whose cells the passage marks, or a
        huge context checked a piece at a time (no passage is laid out whole for it)."""
        if self._defer:
            return None
        key = (i, span[0])  # answers repeat a context's figures: each table read once
        if key in self._tables_read:
            return self._tables_read[key]
        table = None
        if self.marks_cells(i):
            laid = self._laid(i)
            seen = self._rows_read.setdefault(i, {})
            table = rows_around(laid, self._cell_marks[i], laid_offset(laid, span[0]), seen)
        self._tables_read[key] = table
        return table

    def marks_cells(self, i: int) -> bool:
        """Whether passage ``i`` as written marks a table's cells itself (:func:`cell_marks`:
        ``|``, HTML's cells, a tab), read once."""
        marks = self._cell_marks.get(i)
        if marks is None:
            marks = self._cell_marks[i] = cell_marks(self.passages[i])
        return bool(marks)

    def written_once(self, needle: str) -> bool:
        """Whether the digits ``needle`` stand alone in the context's passages, laid out, once
        only (a passage whose text holds them, or that is not ASCII, is laid out to count)."""
        count = 0
        for i, passage in enumerate(self.passages):
            if needle not in passage and passage.isascii():
                continue
            count += sum(1 for _ in itertools.islice(standalone_at(self._laid(i).text, needle), 2))
            if count > 1:
                return False
        return count == 1

    def fast_identifier(self, ident: str) -> bool | None:
        """Whether the normalised identifier ``ident`` stands in the context as the full parse
        reads it (:attr:`identifiers`), decided without parsing the whole context: ``True``
        when a window around its digits holds it; ``False`` when the windows around every
        occurrence of its digits hold no identifier so written (one of letters and digits
        only) and, for a quarter or a half, no passage names it in words either (``third
        quarter`` is ``q3``: :meth:`_periods_named`); ``None``: not decided here, ask
        :attr:`identifiers`."""
        windows = self._windows()
        needle = needle_of(ident) if windows is not None else None
        if windows is None or needle is None:
            return None
        if self._not_written(windows, ident):
            return False
        for _i, sc, _offset, line_start, line_end, _whole in windows.windows(needle):
            for found in sc.idents:
                if found.text == ident and line_start <= found.start and found.end <= line_end:
                    return True
        if windows.partial or not ident.isalnum():
            return None
        # every occurrence of its digits read, and no identifier so written among them
        if _NAMED_PERIOD_IDENT.fullmatch(ident) is not None:
            # a quarter or a half the context may name in words (:func:`_named_periods`)
            return ident in windows.memo(("named periods",), self._periods_named)
        return False

    def _not_written(self, windows: Windows[_Whole], ident: str) -> bool:
        """Whether no passage can hold ``ident`` (letters and digits, not digits alone nor a
        quarter or a half) as the full parse reads identifiers, decided without reading one:
        an identifier of letters and digits is written in the passage laid out as it stands,
        but for blanks and brackets (``501(c)(3)`` is ``501c3``), so a passage that holds
        none of it with those taken out holds no such identifier (a number of many digits,
        read as its digits alone, and the periods named in words are left to the other
        ways)."""
        if not ident.isalnum() or ident.isdigit() or _NAMED_PERIOD_IDENT.fullmatch(ident):
            return False
        for i in range(len(self.passages)):
            squeezed = windows.memo(
                ("squeezed", i), functools.partial(_squeezed, windows.laid(i).text)
            )
            if ident in squeezed:
                return False
        return True

    def _periods_named(self) -> frozenset[str]:
        """The identifiers of the quarters and halves the passages name in words, read as the
        full index reads them (:func:`_named_periods` of each passage laid out) for the fast
        path."""
        windows = self._fast
        assert windows is not None  # the fast path's own helper
        found: set[str] = set()
        for i in range(len(self.passages)):
            text = windows.laid(i).text
            found.update(_named_periods(text, letter_runs(text)))
        return frozenset(found)

    def _idx(self) -> _Index:
        """The lookup index of the context's quantities (every passage parsed once, here)."""
        index = self._index
        if index is None and self._defer:
            raise _Unbounded  # GroundingChecker._traces: checked a piece at a time instead
        if index is None:
            index = _Index(loose_units=False)
            idents: set[str] = set()
            parsed: list[tuple[Scan, list[_Scope]]] = []
            # the layout first: a table laid out a cell per line becomes rows (offsets kept);
            # the passages the fast path has read are not read again
            fast = self._fast
            scans = [scan(self._laid(i)) for i in range(len(self.passages))]
            scopes_of = [
                fast.memo(("scopes", i), functools.partial(_scopes, sc.norm.text, sc.words))
                if fast is not None
                else _scopes(sc.norm.text, sc.words)
                for i, sc in enumerate(scans)
            ]
            self._fast = None  # the full index answers from now on
            if self._caption_of is not None:
                _apply_caption(scans, scopes_of, self._caption_of[0])
            elif len(scans) > 1:
                _caption_scopes(scans, scopes_of)
            for i, (sc, scopes) in enumerate(zip(scans, scopes_of, strict=True)):
                self._index_passage(i, sc, scopes, index)
                parsed.append((sc, scopes))
                idents.update(_named_periods(sc.norm.text, sc.words))
                _add_dosing(i, sc, index)
                _add_one_unit(i, sc, index)
                _add_stated_changes(i, sc, index)
                _add_column_dates(i, sc, index)
                if "|" in sc.norm.text or "\t" in sc.norm.text:
                    _add_nil_cells(i, sc, index)
                for ident in sc.idents:
                    idents.add(ident.text)
                    if ident.number is not None and (
                        _LABELLED_FIGURE().match(ident.text) or _GLUED_UNIT.match(ident.text)
                    ):
                        # "OR 1.8", "RR 16", "FY 2023", "FY2023": a figure after its label,
                        # and "220V", "1080p": a figure with a unit we do not read; an answer
                        # may write the figure alone ("the odds ratio was 1.8", "220 V"),
                        # not with a unit or currency ("ISO 500" is no "$500")
                        occ = _occurrence(i, sc, ident.start, ident.end)
                        index.any_raw.setdefault(_k(None, ident.number), occ)
            for i, (sc, _) in enumerate(parsed):  # after every figure written as such
                _add_reporting_periods(i, sc, index)
            self._identifiers = frozenset(idents)
            self._parsed = parsed
            self._index = index
        return index

    def _parsed_passages(self) -> list[tuple[Scan, list[_Scope]]]:
        """Every passage's scan and scale scopes (parsed on first need)."""
        self._idx()
        return self._parsed

    @staticmethod
    def _index_passage(
        i: int, sc: Scan, scopes: list[_Scope], index: _Index, markdown: bool | None = None
    ) -> None:
        """Add one passage's quantities to the lookup index: as written, signed by words, and
        with the scale its block states (``markdown``: whether the passage holds a Markdown
        table, read here on the first figure under scales by column unless given)."""
        starts = [sc_.start for sc_ in scopes]
        s = sc.norm.text
        line_end = -1
        cell = False
        for q, (a, _b), meta in zip(sc.quantities, sc.norm_spans, sc.meta, strict=True):
            if a > line_end:  # a new line: whether it is a table row (linear overall)
                line_end = _line_end(s, a)
                line_start = s.rfind("\n", 0, a) + 1
                cell = _SEPARATORS.search(s, line_start, line_end) is not None
            occ: _Occ = ("context", i, q.span, q.text, q, meta[0])
            index.add(q, occ, cell)
            if q.kind != "number":
                continue
            if q.dimension is None and not cell and (unit := _stated_near(s, a, _b)):
                index.near.setdefault((unit, q.value.numerator, q.value.denominator), occ)
            flags = meta[3]
            if flags & F_OWN_SCALE and meta[0] != 1:
                index.own_scaled.setdefault(_k(None, q.value / meta[0]), occ)
            if flags & F_CHANGE and q.value > 0:
                index.add_value(-q.value, q.dimension, occ, cell)
            bracketed = flags & F_PAREN and q.value < 0
            if bracketed:
                index.bracketed.setdefault(_k(None, -q.value), occ)
            scope: _Scope | None = None
            if starts:
                k = bisect_right(starts, a) - 1
                if k >= 0 and scopes[k].end > a:
                    scope = scopes[k]
                    if scope.columns:  # scales by column: the figure's column's, if any
                        if markdown is None:
                            markdown = _is_markdown(s)
                        scope = scope.for_column(_column_at(s, a, markdown))
            if scope is not None and scope.percent and q.dimension is None:
                index.exact.setdefault(_k("percent", q.value), occ)
            elif (q.dimension is None or q.dimension.startswith("currency-")) and not flags & (
                F_OWN_SCALE | F_YEAR
            ):
                if scope is not None and scope.scale != 1:
                    scaled = q.value * scope.scale
                    index.add_value(scaled, q.dimension or scope.currency, occ, cell)
                    index.scaled.append((q, scaled, q.dimension or scope.currency, occ))
                    if flags & F_CHANGE and q.value > 0:
                        index.add_value(-scaled, q.dimension or scope.currency, occ, cell)
                    if bracketed:
                        index.bracketed.setdefault(_k(None, -scaled), occ)
                if (
                    (scope is None or scope.scale == 1 or scope.caption)
                    and (cell or q.dimension is not None)
                    and not (scope is not None and scope.units)
                ):
                    # a figure without a scale, to which an answer may add its own scale word
                    key = _k(None, q.value)
                    known = index.mantissa.get(key)
                    if known is None or known[1] < meta[1]:
                        index.mantissa[key] = (occ if known is None else known[0], meta[1])

    def _operands(self) -> tuple[Figures, list[_Row]]:
        """The derivation operands and the rounding rows, built on first need."""
        if self._figures is None or self._approx_rows is None:
            figures = Figures()
            rows: list[_Row] = []
            measures: dict[str, Figures] = {}
            for i, (sc, scopes) in enumerate(self._parsed_passages()):
                self._add_passage(i, sc, scopes, figures, rows, measures)
            self._figures, self._approx_rows, self._measures = figures, rows, measures
        return self._figures, self._approx_rows

    @staticmethod
    def _add_passage(
        i: int,
        sc: Scan,
        scopes: list[_Scope],
        figures: Figures,
        rows: list[_Row],
        measures: dict[str, Figures],
    ) -> None:
        """Add one passage's figures to the derivation operands (with their row, column and
        block, and in running text the direction and the noun around them), its measures
        (``13.8 kg``) to the operands of their dimension (``measures``, in its base unit: a
        measure is explained by measures of its kind only) and its figures to the rows of
        rounded matches (as written, scaled, and by magnitude for a bracketed figure)."""
        s = sc.norm.text
        starts = [sc_.start for sc_ in scopes]
        years: dict[tuple[int, int], list[float]] = {}
        pct_cells = _pct_cells(s)
        at = _Cursor(s, _is_markdown(s), pct_cells, figures.blocks)  # blocks run on
        # the units the headings or row labels of its tables name (cells of plain figures)
        named = _heading_units(s, at.markdown) if "(" in s and ("|" in s or "\t" in s) else {}
        first = len(figures.figures)
        for q, (a, b), meta in zip(sc.quantities, sc.norm_spans, sc.meta, strict=True):
            if q.kind != "number" and q.kind != "date":
                continue
            occ: _Occ = ("context", i, q.span, q.text, q, meta[0])
            flags = meta[3]
            at.advance(a, figures)
            line, column, block, table = at.line, at.column, at.block, at.table
            if q.kind == "date":  # a date heading a column: its year, and the table's order
                if table:
                    figures.note_date(block, line, column, int(q.value))
                continue
            plain = q.dimension is None or q.dimension.startswith("currency-")
            scope: _Scope | None = None
            if starts:
                k = bisect_right(starts, a) - 1
                if k >= 0 and scopes[k].end > a:
                    scope = scopes[k]
                    if scope.columns:  # scales by column: the figure's column's, if any
                        scope = scope.for_column(column if table else -1)
            label = table and column == 0 and _words_after(s, b)  # a count a label words
            reading = _add_rounding_rows(q, meta, occ, scope, plain, table, rows, label)
            if flags & F_YEAR and table:
                figures.note_year(block, line, column, int(reading.value))
            if flags & F_YEAR and table and block not in figures.newest_first:
                years.setdefault((block, line), []).append(reading.value)
                row_years = years[(block, line)]
                if len(row_years) >= 2 and row_years[0] != row_years[1]:
                    figures.newest_first[block] = row_years[0] > row_years[1]
            if flags & F_YEAR:
                continue
            if not (plain or reading.percent):
                if q.dimension is not None and q.value:  # a measure, in its base unit
                    fig = _operand(at, q, a, b, meta, reading)
                    base = float(reading.value * (q.base_value / q.value))
                    measures.setdefault(q.dimension, Figures()).add(replace(fig, value=base))
                continue
            fig = _operand(at, q, a, b, meta, reading)
            figures.add(fig)
            unit = named.get((line, column)) if named and q.dimension is None else None
            if unit is not None and not reading.percent:  # a cell under "Distance (km)"
                base = float(reading.value) * unit[1]
                measures.setdefault(unit[0], Figures()).add(replace(fig, value=base))
        if "%" in s:
            figures.mark_share_columns(first)
        if sc.norm.original.count("\n") >= LABEL_BLOCK:
            figures.texts.append(sc.norm.original)  # its blocks of labels, read on first need
        if sc.idents and not sc.words.isdisjoint(_FISCAL_RUNS):
            _fiscal_year_columns(sc, _Cursor(s, at.markdown, pct_cells, figures.blocks), figures)
        figures.blocks = at.block + 1

    @property
    def quantities(self) -> tuple[tuple[int, Quantity], ...]:
        """Every quantity of the context as ``(passage index, quantity)``."""
        return tuple((occ[1] or 0, q) for q, occ in self._idx().items)

    def parts_of_wholes(self) -> list[tuple[Fraction, str | None, str]]:
        """The parts the context states as a share of a whole in one phrase (``25% of the
        company's 1,200 employees``: 300; ``1,200 patients, half of them``: 600), as ``(part,
        dimension, how)``, built on first need."""
        if self._parts is None:
            parts: list[tuple[Fraction, str | None, str]] = []
            for sc, _scopes in self._parsed_passages():
                text = sc.norm.text
                qs, spans = sc.quantities, sc.norm_spans
                for k in range(len(qs) - 1):
                    a, b = qs[k], qs[k + 1]
                    between = text[spans[k][1] : spans[k + 1][0]]
                    if a.unit == "%" and b.unit != "%" and _SHARE_THEN_WHOLE().fullmatch(between):
                        share, whole = a, b  # "25% of the company's 1,200 employees"
                    elif (
                        b.unit == "%"
                        and a.unit != "%"
                        and _WHOLE_THEN_SHARE().fullmatch(between)
                        and _OF_THEM().match(text, spans[k + 1][1])
                    ):
                        share, whole = b, a  # "1,200 patients, half of them"
                    else:
                        continue
                    if whole.kind != "number" or whole.value <= 0 or not 0 < share.value < 100:
                        continue
                    part = share.value * whole.value / 100
                    parts.append((part, whole.dimension, f"{share.text} of {whole.text}"))
            self._parts = parts
        return self._parts

    def bounded(
        self,
        middle: float,
        half: float,
        precision: float,
        percent: bool,
        currencies: frozenset[str] | None,
    ) -> _Occ | None:
        """A context figure that an answer's bound states (``more than 10,000`` for 10,500):
        :meth:`rounded` over ``middle`` plus or minus ``half``, but never a figure the context
        itself states as a bound (``orders over $50`` is a threshold: ``above $40`` is another
        one, not a looser statement of it)."""
        bounds = self._bound_spans()
        return self.rounded(
            middle, half, precision, percent, currencies, lambda occ: (occ[1], occ[2]) in bounds
        )

    def _bound_spans(self) -> frozenset[tuple[int, tuple[int, int]]]:
        """(passage, span) of every figure the context states as a bound (``over $50``,
        ``$50 or more``, ``65+``), found on first need."""
        if self._bounds is None:
            self._bounds = frozenset(
                (i, q.span)
                for i, (sc, _scopes) in enumerate(self._parsed_passages())
                for q, (_a, b), meta in zip(sc.quantities, sc.norm_spans, sc.meta, strict=True)
                if meta[3] & (F_ABOVE | F_BELOW) or _BOUND_AFTER().match(sc.norm.text, b)
            )
        return self._bounds

    def near_in_unit(self, q: Quantity, middle: float, half: float, bound: bool) -> _Occ | None:
        """A context figure in ``q``'s physical dimension within ``half`` of ``middle`` (both
        in ``q``'s unit, compared in the dimension's base unit: ``about 300,000 km/s`` for
        ``299,792 km/s``, ``more than 300 km`` for ``312 km``); for a ``bound``, never a figure
        the context states as a bound. Linear in the context's figures: asked only for an
        approximation or a bound in a unit, which no other lookup traced."""
        if not q.value:
            return None
        factor = float(q.base_value / q.value)  # the unit's size in its base: positive
        tol = rounding_tolerance(half)
        lo, hi = (middle - tol) * factor, (middle + tol) * factor
        bounds = self._bound_spans() if bound else frozenset()
        for c, occ in self._idx().items:
            if (
                c.kind == "number"
                and c.dimension == q.dimension
                and lo <= float(c.base_value) <= hi
                and (occ[1], occ[2]) not in bounds
            ):
                return occ
        return None

    def rounded(
        self,
        value: float,
        half: float,
        precision: float,
        percent: bool = False,
        currencies: frozenset[str] | None = None,
        skip: Callable[[_Occ], bool] | None = None,
        own_scale: bool = False,
    ) -> _Occ | None:
        """A context figure (scale applied) that rounds to ``value`` at the answer's precision:
        written more precisely than the answer and within half its last unit. An unsigned
        ``value`` may round the magnitude of a bracketed figure (``7.3`` million for ``(7,344)``
        thousand); a ``percent`` only a percentage or a table cell; with ``currencies`` (the
        answer's), a figure whose currency is known only in one of them (``$16.5 billion`` is
        not ``16,525`` under ``€ million``). A figure with its ``own_scale`` word rounds no
        cell's digits read without the scale its block states: ``$1.10 million`` is no rounding
        of ``1,102,480`` under ``(in thousands)`` ($1.10 billion), a thousandfold error."""
        values, precs, pct_ok, occs, money, unstated = self._rounding_columns()
        tol = rounding_tolerance(half)
        lo = bisect_left(values, value - tol)
        hi = bisect_right(values, value + tol)
        for k in range(lo, hi):
            if (
                precs[k] < precision * (1 - 1e-9)
                and (pct_ok[k] or not percent)
                and (currencies is None or money[k] is None or money[k] in currencies)
                and (skip is None or not skip(occs[k]))
                and not (own_scale and unstated[k])
            ):
                return occs[k]
        return None

    def rounded_value(self, tr: QuantityTrace) -> float:
        """The value (scale applied) by which :meth:`rounded` ordered the context figure ``tr``
        names, nearest the answer's (a bracketed figure stands there twice, signed and by its
        magnitude); ``0.0`` when ``tr`` is no rounding of a figure of this context. Two pieces
        of a context (:mod:`grounding._chunks`) that round a figure are ordered so."""
        if self._approx is None or tr.source != "context" or tr.rule not in _ROUNDING_RULES:
            return 0.0
        values, _precs, _pct, occs, _money, _unstated = self._approx
        target = float(tr.quantity.value)
        found = [
            v for v, occ in zip(values, occs, strict=True) if occ[1:3] == (tr.passage, tr.span)
        ]
        return min(found, key=lambda v: abs(v - target)) if found else 0.0

    def _rounding_columns(
        self,
    ) -> tuple[list[float], list[float], list[bool], list[_Occ], list[str | None], list[bool]]:
        """The rounding rows sorted by value, as columns (built on first need; plain lists and
        bisection: a rounded match never imports numpy, only a derivation does)."""
        if self._approx is None:
            rows = sorted(self._operands()[1], key=lambda r: r[0])
            self._approx = (
                [r[0] for r in rows],
                [r[1] for r in rows],
                [r[3] for r in rows],
                [r[2] for r in rows],
                [r[4] for r in rows],
                [r[5] for r in rows],
            )
        return self._approx

    def _nearest_tables(self) -> dict[tuple[str, str, str | None], _Sorted]:
        """The context's quantities sorted for :meth:`nearest_evidence` (built on first need)."""
        if self._nearest is None:
            index = self._idx()
            self._nearest = _nearest_tables(index.items, index.scaled)
        return self._nearest

    def derive(self, target: Target, hint: Hint | None = None) -> Derivation | None:
        """How ``target`` derives from two context figures (or a mean), if it does, and by which
        rule; ``hint`` (from :meth:`hint`): the figures a question points at, tried first."""
        return self._operands()[0].explain(target, hint)

    def measure_count(self, dimension: str | None) -> int:
        """How many figures of the context carry the physical ``dimension`` (``mass``): with
        their own unit, or, where fewer than two do, also a table cell whose heading or row
        label names its unit (``Distance (km)``: :func:`_heading_units`, read with the
        derivation operands, here built)."""
        count = self._measure_counts().get(dimension or "", 0)
        if count >= 2 or dimension is None or not self._tabled():
            return count
        self._operands()
        figures = self._measures.get(dimension)
        return len(figures.figures) if figures is not None else count

    def _tabled(self) -> bool:
        """Whether a passage, laid out, holds a table row and a bracket (a heading may name a
        unit: :func:`_heading_units`)."""
        return any(
            "(" in t and ("|" in t or "\t" in t)
            for t in (sc.norm.text for sc, _scopes in self._parsed_passages())
        )

    def _measure_counts(self) -> dict[str, int]:
        """How many figures of the context carry each physical dimension (money and
        percentages aside), from the lookup index, counted on first need."""
        if self._dimensions is None:
            counts: dict[str, int] = {}
            for q, _occ in self._idx().items:
                dim = q.dimension
                if q.kind == "number" and dim and dim != "percent" and dim[:9] != "currency-":
                    counts[dim] = counts.get(dim, 0) + 1
            self._dimensions = counts
        return self._dimensions

    def derive_measure(self, target: Target, question: str | None) -> Derivation | None:
        """How ``target`` derives from two of the context's measures: of its dimension
        (:attr:`Target.dimension`: ``2.6 kg`` from ``13.8 kg`` and ``11.2 kg``) or, for a
        percentage the answer states as a change (``rose 50%``), of any one dimension
        (``1.4 mg/dL`` to ``2.1 mg/dL``); the question's hint read in those measures."""
        counts = self._measure_counts()
        if target.dimension is not None:
            dimensions = [target.dimension] if self.measure_count(target.dimension) >= 2 else []
        elif target.kind == "percent" and target.trend:
            dimensions = [d for d, n in counts.items() if n >= 2]
        else:
            dimensions = []
        if not dimensions:  # no two measures of a kind: no operands to build
            return None
        self._operands()
        for figures in (self._measures[d] for d in dimensions if d in self._measures):
            how = figures.explain(target, figures.hint(question) if question else None)
            if how is not None:
                return how
        return None

    def growth(self, target: Target, hint: Hint | None, periods: frozenset[int]) -> Growth | None:
        """``target`` as a compound annual growth rate of two context figures (see
        :func:`~hybridjudge.grounding._derive.growth_rate`)."""
        return growth_rate(self._operands()[0], target, hint, periods)

    def hint(self, question: str) -> Hint | None:
        """The figures ``question`` points at (the rows it names, in the years it names)."""
        return self._operands()[0].hint(question)

    def stated_operand(self, target: Target, hint: Hint, found: str) -> Figure | None:
        """The figure ``hint`` names that ``target`` (found as the context's text ``found``)
        states instead of the result the question asks for
        (:func:`~hybridjudge.grounding._derive.stated_operand`)."""
        return stated_operand(self._operands()[0], hint, target, found)

    def nearest_evidence(self, q: Quantity) -> str:
        """Describe the context quantity nearest to ``q`` (same dimension first, else same
        kind), for the evidence of an ``ungrounded_number`` finding."""
        found = self.nearest(q)
        return "the context contains no quantity of this kind" if found is None else found[1]

    def nearest(
        self, q: Quantity, origins: Sequence[tuple[int, int]] = ()
    ) -> tuple[tuple[bool, tuple[bool, float], float, bool], str] | None:
        """The context quantity nearest to ``q`` (:meth:`nearest_evidence`): the order it takes
        among candidates (of another dimension, its distance to ``q``, its value, whether a
        figure scaled) and its description, or ``None`` (no quantity of its kind). ``origins``:
        the passage and the offset of each passage in a larger context (a piece of it,
        :mod:`grounding._chunks`), named in the description."""
        nearest = self._nearest_tables()
        table = nearest.get(("dim", q.kind, q.dimension))
        same = table is not None
        if table is None:
            table = nearest.get(("kind", q.kind, None))
        if table is None:
            return None
        keys, positions = table
        value = q.base_value if same else q.value
        try:
            x = float(value)
        except OverflowError:  # a figure of hundreds of digits: beyond every context figure
            x = math.inf if value > 0 else -math.inf
        k = bisect_right(keys, x)
        best = min(
            (j for j in (k - 1, k) if 0 <= j < len(keys)), key=lambda j: (_distance(keys[j], x), j)
        )
        best = bisect_left(keys, keys[best])  # the first occurrence of that value
        index = self._idx()
        position = positions[best]
        if position < len(index.items):
            c, occ = index.items[position]
        else:
            figure, value, dim, occ = index.scaled[position - len(index.items)]
            c = _scaled_quantity(figure, value, dim)
        passage, offset = origins[occ[1]] if origins and occ[1] is not None else (occ[1], 0)
        where = f"passage {passage}, characters {occ[2][0] + offset}-{occ[2][1] + offset}"
        cell = self.cell_of(c, occ[1]) if occ[1] is not None else None
        if cell is not None:
            row, column = cell
            where += f'; row "{row}"' + (f', column "{column}"' if column else "")
        order = (not same, _distance(keys[best], x), keys[best], position >= len(index.items))
        return order, f'nearest in the context: "{c.text}" = {c.describe()} ({where})'

    def cell_of(self, q: Quantity, passage: int) -> tuple[str, str | None] | None:
        """The table cell context quantity ``q`` of ``passage`` stands in, as its row's label
        and its column's heading (``("Products", "2019")``; the heading ``None`` when the table
        has no header row above it), in the context's own writing; ``None`` outside a table.
        The same rows and columns in every layout :func:`read_layout` reads (pipe and
        Markdown rows, HTML tables, a PDF statement's cell per line)."""
        sc = self._parsed_passages()[passage][0]
        at = next(
            (
                span[0]
                for found, span in zip(sc.quantities, sc.norm_spans, strict=True)
                if found is q or found.span == q.span
            ),
            None,
        )
        if at is None:
            return None
        names = table_cell(sc.norm.text, at, _is_markdown(sc.norm.text))
        if names is None:
            return None
        (r0, r1), heading = names

        def written(span: tuple[int, int]) -> str:
            o0, o1 = sc.norm.to_original(*span)
            text = " ".join(sc.norm.original[o0:o1].split())
            return text or " ".join(sc.norm.text[span[0] : span[1]].split())

        return written((r0, r1)), written(heading) if heading else None

    def counts_of(self, noun: str) -> list[_Count]:
        """What the context counts ``noun`` as: each bare count of running text with that word
        after it (:func:`counted_phrase`: ``2 USB ports`` for ``usb``), with the word after the
        noun and the text as written, in the order the context writes them (built on the first
        need: every passage parsed, unless no passage holds the noun's letters at all)."""
        if self._counts is None:
            if self._index is None:  # a cheap look before the whole parse
                word = re.compile(re.escape(noun), re.IGNORECASE)
                if not any(word.search(p) for p in self.passages):
                    return []
            counts: dict[str, list[_Count]] = {}
            for sc, _scopes in self._parsed_passages():
                text = sc.norm.text
                said: tuple[str, str | None, int] | None = None
                mine: dict[str, list[_Count]] = {}
                # from the last figure back: one of a list takes the noun after the list's
                # last ("187,200,539 and 186,880,413 shares issued")
                for n in range(len(sc.quantities) - 1, -1, -1):
                    start, end = sc.norm_spans[n]
                    listed = n + 1 < len(sc.norm_spans) and _LIST_GAP.fullmatch(
                        text, end, sc.norm_spans[n + 1][0]
                    )
                    said = _noun_counted(text, end) or (said if listed else None)
                    q = sc.quantities[n]
                    if said is None or not _a_count(q, sc.meta[n]):
                        continue
                    period = rate_period(text, said[2])  # "5 visits per month"
                    o0, o1 = sc.norm.to_original(start, said[2] if period is None else period[1])
                    written = " ".join(sc.norm.original[o0:o1].split())
                    mine.setdefault(said[0], []).append(
                        (q.value, said[1], written, None if period is None else period[0])
                    )
                for noun_, found in mine.items():
                    counts.setdefault(noun_, []).extend(reversed(found))
            self._counts = counts
        return self._counts.get(noun, [])

    def stated_share(self, percent: Fraction) -> _Occ | None:
        """Where the context states the share ``percent`` as a count out of a whole (``one in
        five`` for 20%, ``9 out of 10`` for 90%: :func:`share_pairs`), exactly or rounded to
        0, 1 or 2 decimals as an answer writes it (``33%``, ``33.3%`` for ``one in three``)."""
        return self._stated_shares().get(percent)

    def _stated_shares(self) -> dict[Fraction, _Occ]:
        """The shares of :meth:`stated_share`, by percentage (built on the first percentage
        not found as written)."""
        if self._shares is None:
            shares: dict[Fraction, _Occ] = {}
            for i, (sc, _scopes) in enumerate(self._parsed_passages()):
                stated = [
                    (xs, ye, share) for xs, _, _, ye, share in share_pairs(sc.norm.text, sc.words)
                ]
                if b"quarter" in sc.words or b"quarters" in sc.words:
                    stated += _quarter_shares(sc.norm.text)
                for xs, ye, share in stated:
                    occ = _occurrence(i, sc, xs, ye)
                    shares.setdefault(share, occ)
                    for decimals in range(3):
                        unit = 10**decimals
                        shares.setdefault(Fraction(math.floor(share * unit + _HALF), unit), occ)
            self._shares = shares
        return self._shares

    def stated_scale(self, passage: int | None, span: tuple[int, int] | None) -> int:
        """The scale the context states for its figure at ``span`` of ``passage`` (``1_000_000``
        for a cell under ``(in millions)``), or 1: none stated, or no such figure."""
        for q, scaled, _currency, occ in self._idx().scaled:
            if occ[1] == passage and occ[2] == span and q.value:
                ratio = scaled / q.value
                return int(ratio) if ratio.denominator == 1 else 1
        return 1

    def same_numeral(self, q: Quantity) -> _Occ | None:
        """A context figure written with the same ambiguous numeral as ``q`` (``23.400``,
        ``1,234``: thousands in one convention, a decimal in the other) and read the other way
        (each value is one reading of the numeral as written, with no scale word), of ``q``'s
        dimension or of none: the same figure as written, though the two texts were read in
        different conventions (a short German answer gives no sign of its language; its
        context does)."""
        numeral = _ambiguous_numeral(q.text)
        if numeral is None:
            return None
        # the numeral's two readings, with the answer's sign; each side must be one of them
        # as written (a scale word would make "313,244 thousand" the reading of "313,244")
        english = Fraction(numeral.replace(",", ""))
        continental = Fraction(numeral.replace(".", "").replace(",", "."))
        if q.value < 0:
            english, continental = -english, -continental
        if q.value == english:
            other = continental
        elif q.value == continental:
            other = english
        else:
            return None
        for c, occ in self._ambiguous_numerals().get(numeral, ()):
            if c.value == other and (c.dimension == q.dimension or c.dimension is None):
                return occ
        return None

    def _ambiguous_numerals(self) -> dict[str, list[tuple[Quantity, _Occ]]]:
        """The context's figures written with an ambiguous numeral (:func:`_ambiguous_numeral`),
        by numeral, built on first need."""
        if self._numerals is None:
            numerals: dict[str, list[tuple[Quantity, _Occ]]] = {}
            for c, occ in self._idx().items:
                if c.kind == "number" and (n := _ambiguous_numeral(c.text)) is not None:
                    numerals.setdefault(n, []).append((c, occ))
            self._numerals = numerals
        return self._numerals

    def reads_continental(self, q: Quantity) -> bool:
        """Whether ``q``'s numeral is ambiguous with a full stop (``1.283``: 1.283 the English
        way, 1,283 the continental way; :func:`_ambiguous_numeral`) and the context reads such
        numerals the continental way (one of its own was read so: ``1.250`` as 1,250). A short
        answer in Spanish (``La suma es 1.283.``) gives no sign of its convention; a figure it
        derives from such a context is written in the context's."""
        numeral = _ambiguous_numeral(q.text)
        if numeral is None or "." not in numeral:
            return False
        return any(
            "." in n and any(abs(c.value) == int(n.replace(".", "")) for c, _ in found)
            for n, found in self._ambiguous_numerals().items()
        )

    @property
    def identifiers(self) -> frozenset[str]:
        """Normalised identifiers with digits found in the context (``covid-19``, ``iso 9001``)."""
        self._idx()
        return self._identifiers

    def __repr__(self) -> str:
        return (
            f"GroundingContext({len(self.passages)} passages, {len(self._idx().items)} quantities)"
        )


def _fast_mantissa(index: _Index, q: Quantity, meta: Meta | None) -> _Occ | None:
    """A figure of money with its own scale word found as a cell whose scale the context does
    not state, written with as many decimals at least (:attr:`_Index.mantissa`), as
    :meth:`GroundingChecker._lookup` finds it when nothing else does: the figure is traced
    either way (the full path may name another occurrence, or the question's)."""
    if meta is None or q.kind != "number":
        return None
    mult, decimals, _sig, flags = meta
    if not flags & F_OWN_SCALE or mult == 1 or flags & F_DECADE:  # a decade goes elsewhere
        return None
    if q.dimension is not None and not q.dimension.startswith("currency-"):
        return None
    known = index.mantissa.get(_k(None, q.value / mult))
    return known[0] if known is not None and known[1] >= decimals else None


def prepare_context(context: str | Sequence[str] | GroundingContext) -> GroundingContext:
    """Parse a context once for reuse across many answers (keep the result; nothing is cached
    behind your back). The parse happens here, so checks that follow only read it."""
    if isinstance(context, GroundingContext):
        return context
    prepared = GroundingContext(_passages(context))
    figures, _rows = prepared._operands()
    prepared._rounding_columns()
    prepared._nearest_tables()
    prepared._stated_shares()
    figures.prepare()
    return prepared


def _allowed_text(value: object, i: int) -> str:
    if isinstance(value, bool) or not isinstance(value, str | int | float | Decimal | Fraction):
        raise GroundingTypeError(
            f"allowed_numbers[{i}] must be a str or a number, not {type(value).__name__}",
            argument=f"allowed_numbers[{i}]",
        )
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def _allowed_index(values: tuple[str, ...]) -> _Index:
    index = _Index()
    for i, text in enumerate(values):
        sc = scan(text)
        qs = sc.quantities
        if not qs:
            raise GroundingInputError(
                f"allowed_numbers[{i}] = {text!r} contains no number; give a number such as "
                "'3' or a quantity such as '500 mg'",
                argument=f"allowed_numbers[{i}]",
            )
        for q, meta in zip(qs, sc.meta or ((1, 0, 1, 0),) * len(qs), strict=True):
            index.add(q, ("allowed", i, q.span, q.text, q, meta[0]))
    return index


def _question_index(question: str, sc: Scan) -> _Index:
    """The index of the figures of ``question`` (``sc``: its scan)."""
    index = _Index()
    for q, meta in zip(sc.quantities, sc.meta or ((1, 0, 1, 0),) * len(sc.quantities), strict=True):
        index.add(q, ("question", None, q.span, q.text, q, meta[0]))
    for ident in sc.idents:
        if ident.number is not None and _LABELLED_FIGURE().match(ident.text):
            # "FY2023", "FY 2023": the year a question names, as a context's (GroundingContext._idx)
            span = sc.norm.to_original(ident.start, ident.end)
            occ: _Occ = ("question", None, span, question[span[0] : span[1]], None, 0)
            index.any_raw.setdefault(_k(None, ident.number), occ)
    return index


def _anchor_index(compiled: CompiledAnchors) -> _Index:
    index = _Index()
    for i, ca in enumerate(compiled):
        for q, src in zip(ca.quantities, ca.sources, strict=True):
            index.add(q, ("anchor", i, q.span, src, q, 0))
    return index


def _approximation(q: Quantity, meta: Meta) -> tuple[float, float] | None:
    """For a round whole figure stated as an approximation (``approximately 1,200``, ``about
    30%``): the precision it states (its last non-zero digit: 100, 10) and how far a context
    figure may lie from it (half that; with one significant digit at most :data:`APPROX_SHARE` of
    it: ``about 100`` is not 96, ``approximately 700,000`` not 722,664); for a share in words (``two-thirds``, ``half
    of``, ``one in three``) :data:`_SHARE_ROUNDING`; ``None`` for any other figure."""
    mult, decimals, _sig, flags = meta
    if flags & F_SHARE:  # "two-thirds" for "67%", "half of" for "50.4%"
        return _SHARE_ROUNDING
    if not flags & F_APPROX or decimals != 0 or q.value.denominator != 1:
        return None
    kept, zeros = whole_digits(q.value, mult)
    precision = _precision(meta) * 10**zeros
    if kept >= 2:  # "about 16,000": two significant digits are 5% at most
        return precision, precision / 2
    return precision, min(precision / 2, APPROX_SHARE * abs(float(q.value)))


def _stated_half(q: Quantity, meta: Meta) -> float:
    """How far from ``q`` a value may lie and still be written as it is: half its last digit,
    or the margin an approximation states (:func:`_approximation`: ``about 300``)."""
    approx = _approximation(q, meta)
    return approx[1] if approx is not None else _precision(meta) / 2


FULL_DIGIT_SIGNIFICANT = 3
"""Fewest significant digits a figure in full digits keeps once a thousand, a million or a
billion is taken off it (``$88,848,000``: 88,848 thousand) to name a figure whose scale the
context does not state: ``5,000`` is no ``5`` thousand of a cell ``5``."""


def _full_digit_mantissas(value: Fraction) -> Iterator[tuple[Fraction, int]]:
    """The figures ``value`` (a whole number written without a scale word) writes out in full
    digits with a scale of a thousand, a million or a billion, and the decimals each then has
    (``1,496,500,000``: ``1,496,500`` with none, ``1,496.5`` with one; at most two), when it has
    :data:`FULL_DIGIT_SIGNIFICANT` significant digits or more."""
    if value.denominator != 1:
        return
    kept, zeros = whole_digits(value)
    if kept < FULL_DIGIT_SIGNIFICANT:
        return
    for power in (3, 6, 9):
        if power - zeros > 2 or kept + zeros <= power:
            return
        yield value / 10**power, max(0, power - zeros)


def _near_mantissa(index: _Index, value: float, half: float, precise: bool = False) -> _Occ | None:
    """A figure without a stated scale (:attr:`_Index.mantissa`) within ``half`` of ``value``:
    what an approximation with its own scale word may round (``about 500 thousand`` for a cell
    ``503``), or a figure with its own scale word in a smaller scale (``$1.89 billion`` for a
    cell ``1,887.8``; ``precise``: only a figure written at least as precisely as the answer).
    A binary search in those figures sorted once per context."""
    column = index.mantissa_column
    if column is None:
        ordered = sorted(
            ((num / den, entry) for (_dim, num, den), entry in index.mantissa.items()),
            key=lambda pair: pair[0],
        )
        column = index.mantissa_column = ([v for v, _ in ordered], [e for _, e in ordered])
    values, entries = column
    tol = rounding_tolerance(half)
    for k in range(bisect_left(values, value - tol), bisect_right(values, value + tol)):
        occ, decimals = entries[k]
        if not precise or 10.0**-decimals <= 2 * tol:
            return occ
    return None


SMALLER_SCALE_SIGNIFICANT = 3
"""Fewest significant digits of a figure with its own scale word that may name, rounded, a
figure whose scale the context does not state in a smaller scale (``$1.89 billion`` for
``1,887.8``, ``$53.33 million`` for ``53,330``): ``$2 billion`` names no ``1,960``."""


def _smaller_scales(q: Quantity, meta: Meta) -> list[int]:
    """The scales smaller than its own scale word (a thousand at least) in which ``q`` may name
    a figure whose scale the context does not state: none with fewer than
    :data:`SMALLER_SCALE_SIGNIFICANT` significant digits (the zeros ending a whole figure are
    none: ``$1,000 million`` has one, ``$1.50 billion`` three)."""
    mult, decimals, sig, _flags = meta
    if decimals <= 0:
        sig = whole_digits(q.value, mult)[0]
    if sig < SMALLER_SCALE_SIGNIFICANT:
        return []
    return [scale for scale in (10**9, 10**6, 10**3) if scale < mult]


def _end_precision(q: Quantity, meta: Meta) -> float:
    """One unit of the last non-zero digit of a bound or a range's end (``10,000``: 1,000;
    ``22`` million: a million; ``2.5%``: 0.1)."""
    precision = _precision(meta)
    if meta[1] == 0 and q.value.denominator == 1 and meta[0]:
        precision *= 10 ** whole_digits(q.value, meta[0])[1]
    return precision


def _bound(q: Quantity, meta: Meta) -> tuple[float, float, float] | None:
    """For a figure stated as a bound (``more than 10,000``, ``less than 5%``): the middle and
    half the width of the range of context figures that ground it (from the bound to one unit of
    its last non-zero digit past it, at most :data:`BOUND_SHARE` of it: ``over 10,000`` is 10,000
    to 11,000, ``under 5%`` 4.5% to 5%), and that unit; ``None`` for any other figure."""
    flags = meta[3]
    if not flags & (F_ABOVE | F_BELOW) or q.value <= 0:
        return None
    precision = _end_precision(q, meta)
    value = float(q.value)
    width = min(precision, BOUND_SHARE * value)
    middle = value + width / 2 if flags & F_ABOVE else value - width / 2
    return middle, width / 2, precision


_NOT_MEASURES = frozenset({"temp_c", "temp_f"})
"""Dimensions whose figures are not summed nor differenced as amounts (a temperature's zero
is no nothing: 38 °C less 36 °C is 2 degrees, not 2 °C of heat, and 100.4 °F converts by an
offset, not a factor)."""


def _target(q: Quantity, meta: Meta) -> Target | None:
    """The answer's number as a derivation target (``None``: not a plain figure)."""
    if q.kind != "number" or q.range_role is not None:
        return None
    mult, _decimals, sig, flags = meta
    dimension: str | None = None
    if q.unit == "%":
        kind: Literal["percent", "ratio", "plain"] = "percent"
    elif flags & F_RATIO:
        kind = "ratio"
    elif q.dimension is None or q.dimension.startswith("currency-"):
        kind = "plain"
    elif q.value and q.dimension not in _NOT_MEASURES and not flags & F_APPROX:
        kind, dimension = "plain", q.dimension  # a measure: in its base unit (2.6 kg: 2,600 g)
    else:
        return None
    currency = q.dimension is not None and q.dimension.startswith("currency-")
    # at the precision written; a zero only by a derivation that is zero ("0" is no rounding
    # of 1.4 / 3.4, nor "0.0%" of a 0.04% change)
    half = _precision(meta) / 2 if q.value else 0.0
    if dimension is not None:
        factor = q.base_value / q.value
        return Target(
            float(q.base_value), half * float(factor), 1.0, kind, sig, q.text, dimension=dimension
        )
    reach: Literal["all", "near", "question"] = "all"
    if flags & F_APPROX and (approx := _approximation(q, meta)) is not None:
        # "approximately $11,100 thousand" for a mean of 11,137.5: rounded at its last non-zero
        # digit, and then traced to fewer operands the fewer significant digits it keeps, as
        # chance derivations would explain invented round figures ("about 20%" = 95% - 76%)
        kept = whole_digits(q.value, mult)[0]
        if approx[1] > half and kept >= APPROX_QUESTION_SIGNIFICANT:
            half = approx[1]
            reach = "near" if kept >= APPROX_TRACE_SIGNIFICANT else "question"
    return Target(
        float(q.value),
        half,
        float(mult),
        kind,
        sig,
        q.text,
        currency=currency,
        reach=reach,
    )


def _parts_of(sc: Scan, n: int) -> frozenset[float]:
    """The values of the figures of ``sc`` before its ``n``-th (years and percentages aside)."""
    return frozenset(
        float(q.value)
        for q, m in zip(sc.quantities[:n], sc.meta[:n], strict=True)
        if not m[3] & F_YEAR and q.dimension != "percent"
    )


def _in_sentence(sc: Scan, n: int, figures: Sequence[int]) -> list[int]:
    """Those of ``figures`` (indexes of ``sc``'s quantities) in the sentence of its ``n``-th,
    the first :data:`WORKING_OPERANDS` of them."""
    lo, hi = sentence_around(sc.norm.text, *sc.norm_spans[n])
    return [k for k in figures if lo <= sc.norm_spans[k][0] < hi][:WORKING_OPERANDS]


def _stated_in_sentence(sc: Scan, n: int) -> tuple[tuple[float, float], ...]:
    """The figures of the sentence of ``sc``'s ``n``-th (itself, years and percentages aside)
    as :attr:`Target.stated <hybridjudge.grounding._derive.Target.stated>` (a measure of one
    in its base unit)."""
    lo, hi = sentence_around(sc.norm.text, *sc.norm_spans[n])
    out: list[tuple[float, float]] = []
    for k, (q, meta) in enumerate(zip(sc.quantities, sc.meta, strict=True)):
        if k == n or q.unit == "%" or meta[3] & F_YEAR or not lo <= sc.norm_spans[k][0] < hi:
            continue
        t = _target(q, meta)
        if t is not None and t.kind == "plain" and t.value:
            out.append((t.value, t.half))
    return tuple(out)


def _rates_before(
    sc: Scan, n: int, operands: Sequence[tuple[float, str, bool, int]]
) -> tuple[Rate, ...]:
    """The percentages traced before ``sc``'s ``n``-th figure in its sentence (``operands``:
    the answer's traced figures, each with its index), as :attr:`Target.rates
    <hybridjudge.grounding._derive.Target.rates>`."""
    before = [(value, k) for value, _text, percent, k in operands if percent and k < n]
    if not before:  # most figures: no sentence to read
        return ()
    lo, _ = sentence_around(sc.norm.text, *sc.norm_spans[n])
    return tuple(
        stated_rate(sc.norm.text, *sc.norm_spans[k], value)
        for value, k in before
        if sc.norm_spans[k][0] >= lo
    )


def _years_of(sc: Scan) -> frozenset[int]:
    """The years ``sc`` names (its figures read as calendar years)."""
    return frozenset(
        int(q.value) for q, m in zip(sc.quantities, sc.meta, strict=True) if m[3] & F_YEAR
    )


def _readings(target: Target, q: Quantity, meta: Meta) -> Iterator[Target]:
    """``target`` and, made only when the ones before explained nothing, its other readings:
    the decrease its words state as a negative figure, and a figure read in a scale the
    context does not state (:attr:`Target.cells_only`)."""
    yield target
    if meta[3] & F_DECREASE and target.value > 0:
        yield replace(target, value=-target.value)
    if meta[3] & F_APPROX and meta[1] > 0 and meta[2] >= TRUNCATED_SIGNIFICANT:
        # rule "truncated": "≈ 0.6638" for 0.66387, the working's value cut, not rounded
        yield replace(
            target, value=target.value + math.copysign(target.half, target.value), rule="truncated"
        )
    if target.dimension is not None:  # a measure: no unstated scale of money
        return
    if target.kind == "plain" and target.mult == 1.0 and meta[1] == 0:
        # "$4,071,000,000" as "$4,071 million" of figures whose scale is not stated, at the
        # precision written (its zeros are no rounding: "148,000" is no 147,820)
        for mantissa, _places in _full_digit_mantissas(q.value):
            yield replace(target, mult=float(q.value / mantissa), cells_only=True)
    elif target.kind == "plain" and meta[3] & F_OWN_SCALE:
        # "-$10.03 million" as "-$10,030 thousand" of figures whose scale is not stated
        for smaller in _smaller_scales(q, meta):
            yield replace(target, mult=float(smaller), cells_only=True)


class _Unbounded(Exception):  # noqa: N818 (a signal, not an error)
    """The full index of a context checked a piece at a time was asked for
    (:meth:`GroundingChecker._traces`)."""


def _scope_spans(region: str) -> list[tuple[int, int]] | None:
    """The spans of the scale statements' scopes of ``region`` (:func:`_scopes`), for
    :func:`grounding._chunks.pieces`; ``None`` when its normalisation moves offsets."""
    laid = read_layout(normalize(region))
    if laid.segments:
        return None
    return [(x.start, x.end) for x in _scopes(laid.text, letter_runs(laid.text))]


def _shifted_trace(tr: QuantityTrace, origins: Sequence[tuple[int, int]]) -> QuantityTrace:
    """``tr`` traced in a piece of the context, its passage and span named as the context's."""
    if tr.source != "context" or tr.passage is None or tr.span is None:
        return tr
    passage, offset = origins[tr.passage]
    return replace(tr, passage=passage, span=(tr.span[0] + offset, tr.span[1] + offset))


_ROUNDING_RULES = frozenset(("rounded", "bound", "approximation"))
"""The rules of :meth:`GroundingContext.rounded` (by value, then in the context's order)."""

_LOOKUP_ORDER: dict[str | None, int] = {
    "as_written": 0,
    "reworded": 0,
    "share_in_words": 1,
    "decade": 1,
    "rescaled": 2,
    "bound": 3,
    "rounded": 3,
    "approximation": 3,
    "numeral": 4,
}
"""The order in which :meth:`GroundingChecker._lookup` tries its rules (roughly: a figure as
written first, in any of the indexes), for :func:`_trace_rank`."""


_AS_WRITTEN = (0, 0, 0, 0.0)
"""The first rank of :func:`_trace_rank` (with no rounded value): as written in the context."""


def _trace_rank(tr: QuantityTrace) -> tuple[int, int, int]:
    """The order of a trace among the traces of one quantity in the pieces of a context
    (:meth:`GroundingChecker._piecewise`): found by the lookup (by its rule, the context before
    the question, the allowed numbers and the anchors), a constant of working, derived, none."""
    if tr.source is None:
        return (3, 0, 0)
    if tr.source == "working":
        return (1, 0, 0)
    if tr.source == "derived":
        return (2, 0, 0)
    return (0, _LOOKUP_ORDER.get(tr.rule, 5), 0 if tr.source == "context" else 1)


def _repeated(q: Quantity, how: str, note: str = " (repeated)") -> QuantityTrace:
    """``q`` traced by rule ``repeated`` to the derivation ``how`` stated above."""
    return QuantityTrace(q, "derived", derivation=f"{how}{note}", rule="repeated")


_ASIDE_BEFORE = lazy(r"(?:[^\W_]|[*×/÷+=-])[ \t]*\Z")
"""What stands before brackets that are no sign: a word or a figure (an aside, ``total assets
($228,275 million)``, ``debt service for 2024-25 ($3.5 million)``, ``Umsatz (5.022)``) or an
operator (grouping in working, ``365 * ($43,762.5 million)``)."""


def _bracket_not_sign(sc: Scan, n: int) -> bool:
    """Whether the brackets of the ``n``-th figure of ``sc`` (read as an accounting negative)
    set off an aside or group working rather than sign it (``net loss: (5,022)`` signs it)."""
    start = sc.norm_spans[n][0]
    text = sc.norm.text
    return (
        text.startswith("(", start)
        and _ASIDE_BEFORE().search(text, max(0, start - 4), start) is not None
    )


class GroundingChecker:
    """Everything about one case parsed once: call :meth:`check` for each answer.

    Args mirror :func:`check_grounding`; ``context`` may be a prepared :class:`GroundingContext`
    and ``anchors`` a :class:`CompiledAnchors` (both are kept as given, so a caller checking many
    cases that share a context or anchors parses them once).
    """

    __slots__ = (
        "_anchors",
        "_asks",
        "_derived",
        "_derived_memo",
        "_evidence",
        "_evidence_order",
        "_growth",
        "_growth_asked",
        "_hint",
        "_indexes",
        "_markers",
        "_memo",
        "_no_context",
        "_pending",
        "_question",
        "_question_sc",
        "_shapes",
        "answerable",
        "context",
    )

    def __init__(
        self,
        context: str | Sequence[str] | GroundingContext,
        *,
        question: str | None = None,
        anchors: Sequence[AnchorLike] | CompiledAnchors = (),
        answerable: bool | None = True,
        allowed_numbers: Sequence[str | int | float | Decimal | Fraction] = (),
        abstain_markers: Sequence[str] | None = None,
        derived: DerivedPolicy = "grounded",
    ) -> None:
        self.context = prepare_context(context)
        if question is not None and not isinstance(question, str):
            raise GroundingTypeError(
                f"question must be a str or None, not {type(question).__name__}",
                argument="question",
            )
        if answerable is not None and not isinstance(answerable, bool):
            raise GroundingTypeError(
                f"answerable must be True, False or None, not {answerable!r}",
                argument="answerable",
            )
        if derived not in ("grounded", "finding"):
            raise GroundingInputError(
                f"derived must be 'grounded' or 'finding', not {derived!r}", argument="derived"
            )
        self.answerable = answerable
        self._question = question or ""
        self._hint: Hint | bool | None = False  # built on first derivation
        self._asks: bool | None = None  # whether it asks for an average
        prepared = bool(question) and self.context._figures is not None
        if prepared:
            # a prepared context: everything about the case is parsed here, not on a check
            self._hint = self.context.hint(self._question)
            self._asks = asks_mean(self._question)
        self._derived: DerivedPolicy = derived
        self._anchors = compile_anchors(anchors)
        if isinstance(allowed_numbers, str | bytes) or not isinstance(allowed_numbers, Iterable):
            raise GroundingTypeError(
                "allowed_numbers must be a list of numbers or strings; wrap a single one in a list",
                argument="allowed_numbers",
            )
        allowed = tuple(_allowed_text(v, i) for i, v in enumerate(allowed_numbers))
        # after the context's (GroundingContext._idx, on first need); the question's is built
        # here on a prepared context, else on the first figure not found in the context
        # (:meth:`_other_indexes`)
        indexes: list[_Index] = []
        if allowed:
            indexes.append(_allowed_index(allowed))
        if self._anchors:
            indexes.append(_anchor_index(self._anchors))
        self._question_sc: Scan | None = None
        self._indexes: tuple[_Index, ...] | None = None if question else tuple(indexes)
        if prepared:
            self._indexes = (_question_index(self._question, self._question_scan()), *indexes)
        self._pending = tuple(indexes)
        if abstain_markers is not None and (
            isinstance(abstain_markers, str | bytes) or not isinstance(abstain_markers, Iterable)
        ):
            raise GroundingTypeError(
                "abstain_markers must be a list of phrases or None; wrap a single one in a list",
                argument="abstain_markers",
            )
        self._markers = compile_markers(abstain_markers)
        # Where each distinct quantity traces to: answers of one case repeat most quantities.
        self._memo: dict[tuple[str, str | None, Meta], _Hit | None] = {}
        self._evidence: dict[tuple[str, str | None, Fraction, Fraction], str] = {}
        self._evidence_order: dict[
            tuple[str, str | None, Fraction, Fraction], tuple[bool, tuple[bool, float], float, bool]
        ] = {}  # the order of the nearest figure kept, on a context checked a piece at a time
        self._derived_memo: dict[Target, Derivation | None] = {}
        self._shapes: WorkingShapes = {}  # working shown in answers, parsed by its shape
        # the answer last checked, the periods of the growth rate it or the question asks for
        # (None: none asked for), and the growth rates derived from it by their number of
        # years, where the columns' years gave it (_trace_growth_years)
        self._growth: tuple[Scan, frozenset[int] | None, dict[int, str]] | None = None
        # whether the question asks for a growth rate, and the periods it states (read once)
        self._growth_asked: tuple[bool, frozenset[int]] | None = None
        # no passage with text: an answer that asserts anything has nothing to stand on
        self._no_context = not any(p.strip() for p in self.context.passages)

    def check(self, answer: str) -> GroundingReport:
        """Check one answer against the prepared case."""
        if not isinstance(answer, str):
            raise GroundingTypeError(
                f"answer must be a str, not {type(answer).__name__}", argument="answer"
            )
        sc = scan(answer)
        if not sc.norm.continental:
            sc = self._in_context_convention(sc)
        findings: list[Finding] = []
        if self._anchors:
            canon = canonicalize(sc)
            cues = negation_cues(canon)
            for ca in self._anchors:
                finding = _check_anchor(ca, canon, sc.words, cues)
                if finding is not None:
                    findings.append(finding)
        traces = self._traces(sc)
        if any(tr.source is None for tr in traces):
            sc, traces = self._read_as_the_context(sc, traces)
        aligned = _per_quantity(sc, traces)  # an identifier's traces aside
        for more in (self._operands_stated, self._other_periods, self._counted_otherwise):
            findings.extend(more(sc, aligned))
        findings.extend(self._other_rows(sc, aligned))
        for tr in traces:
            if tr.source is None:
                findings.append(self._ungrounded(tr.quantity))
            elif tr.source == "derived" and self._derived == "finding":
                findings.append(
                    Finding(
                        kind="derived_number",
                        message=(
                            f'number "{tr.quantity.text}" is not in the context but derives '
                            f"from its figures: {tr.derivation}"
                        ),
                        subject=tr.quantity.text,
                        span=tr.quantity.span,
                        evidence=tr.derivation,
                    )
                )
        marker = self._markers.search(sc.norm.text, sc.words) if self._markers is not None else None
        abstained = marker is not None
        if self.answerable is False and not abstained:
            findings.append(
                Finding(
                    kind="non_abstention",
                    message=(
                        "the context cannot answer this question, but the answer does not "
                        "abstain (no abstention marker found)"
                    ),
                    subject="",
                    span=None,
                    evidence=None,
                )
            )
        elif self.answerable is True and marker is not None and not self._no_context:
            m_start, m_end = marker.span()
            span = sc.norm.to_original(m_start, min(m_end, len(sc.norm.text)))
            said = answer[span[0] : span[1]]
            findings.append(
                Finding(
                    kind="over_abstention",
                    message=(
                        f'the answer abstains ("{said}") although the context answers the question'
                    ),
                    subject=said,
                    span=span,
                    evidence=None,
                )
            )
        if self._no_context and not abstained and answer.strip():
            findings.insert(0, _NO_CONTEXT)
        return GroundingReport.model_construct(
            version=GROUNDING_REPORT_VERSION,
            grounded=not findings,
            abstained=abstained,
            answerable=self.answerable,
            findings=tuple(findings),
            quantities=traces,
        )

    def _in_context_convention(self, sc: Scan) -> Scan:
        """The answer ``sc``, read the English way, read the continental way instead where it
        could be (:func:`continental_reading`: ``12.500``, ``1,5``) and its context writes its
        figures so (:meth:`GroundingContext.convention`): ``Sie kosten 12.500 €`` is 12,500
        euros beside a page that writes ``12,5 €`` (before: 12.5 euros, the page's figure, a
        thousandfold error passed). A scale word a continental language reads otherwise
        (``mil``: :data:`CONTINENTAL_SCALES`) takes that reading beside a context written in
        such a language (``R$ 612 mil``: a thousand, not English slang's million)."""
        swapped = continental_reading(sc.norm.text)
        scale_word = not sc.words.isdisjoint(CONTINENTAL_SCALE_RUNS)
        if swapped is None and not scale_word:
            return sc
        figures, words = self.context.convention()
        norm = sc.norm
        if swapped is not None and figures:
            return scan(NormalizedText(swapped, norm.original, norm.segments, True))
        if scale_word and (figures or words):
            return scan(NormalizedText(norm.text, norm.original, norm.segments, True))
        return sc

    def _read_as_the_context(
        self, sc: Scan, traces: tuple[QuantityTrace, ...]
    ) -> tuple[Scan, tuple[QuantityTrace, ...]]:
        """``sc`` and its ``traces``, or the answer read the continental way
        (:func:`continental_reading`: ``1 283``, ``12.500``, ``1,5``) and its traces, where an
        answer too short to show its convention (``Il s'élève à 1 283 millions.``) copies a
        figure as the context writes it: every figure read otherwise stands in the context as
        written, character for character (a context read the English way reads its ``1 283`` as
        1 and 283, so no copy of it is read otherwise), and fewer figures are left untraced.
        Those figures' rule is ``numeral``, as :meth:`GroundingContext.same_numeral` names one
        numeral read in two conventions; that one compares a figure at a time, so it cannot join
        ``1`` and ``283`` into one figure nor read a scale word (``1 283 millions``)."""
        swapped = continental_reading(sc.norm.text)
        if swapped is None:
            return sc, traces
        alt = scan(NormalizedText(swapped, sc.norm.original, sc.norm.segments, True))
        before = {(q.span, q.value) for q in sc.quantities}
        alt_traces = self._traces(alt)
        for tr in alt_traces:
            q = tr.quantity
            if (q.span, q.value) in before:
                continue
            numeral = _NUMERAL.search(q.text)
            if (
                tr.rule != "as_written"
                or tr.source != "context"
                or numeral is None
                or numeral.group() not in _plain_spaces(tr.matched_text or "")
            ):
                return sc, traces
        untraced = sum(tr.source is None for tr in traces)
        if sum(tr.source is None for tr in alt_traces) >= untraced:
            return sc, traces
        # the trace rule of a numeral read in the other convention (GroundingContext.same_numeral)
        return alt, tuple(
            tr if (tr.quantity.span, tr.quantity.value) in before else replace(tr, rule="numeral")
            for tr in alt_traces
        )

    def _traces(self, sc: Scan) -> tuple[QuantityTrace, ...]:
        """:meth:`_trace`, or on a context of at least :data:`grounding._chunks.BOUNDED_MIN_CHARS`
        characters whose full index is not built, :meth:`_trace` without it (the fast path
        only), and at the first figure that needs it, :meth:`_piecewise`."""
        context = self.context
        if context._index is not None or sum(map(len, context.passages)) < (
            _chunks.BOUNDED_MIN_CHARS
        ):
            return self._trace(sc)
        context._defer = True
        try:
            return self._trace(sc)
        except _Unbounded:
            return self._piecewise(sc)
        finally:
            context._defer = False

    def _piece_checker(self, texts: tuple[str, ...]) -> GroundingChecker:
        """A checker of this case on a piece of its context (:meth:`_piecewise`)."""
        sub = GroundingChecker(
            self.context.piece(texts), question=self._question or None, derived=self._derived
        )
        sub._pending = self._pending
        sub._indexes = self._indexes
        sub._shapes = self._shapes
        return sub

    def _piecewise(self, sc: Scan) -> tuple[QuantityTrace, ...]:
        """The traces of ``sc`` on a huge context checked a piece at a time
        (:mod:`grounding._chunks`): each piece parsed, traced and dropped; for each quantity
        the first piece's trace of the earliest rule (:func:`_trace_rank`), a piece's passages
        and offsets named as the context's; and the evidence of each quantity traced nowhere
        (the nearest figure of every piece), kept for :meth:`_ungrounded`."""
        own = {q.span for q in sc.quantities}
        self._evidence_order.clear()  # the nearest figure of every piece, afresh
        best: dict[tuple[int, int], QuantityTrace] = {}
        ranks: dict[tuple[int, int], tuple[int, int, int, float]] = {}
        seen: dict[tuple[int, int], int] = {}  # an identifier's trace: in how many pieces
        count = 0
        for origins, texts in _chunks.pieces(self.context.passages, _scope_spans):
            sub = self._piece_checker(texts)
            count += 1
            for tr in sub._trace(sc):
                rank = (*_trace_rank(tr), sub.context.rounded_value(tr))
                tr = _shifted_trace(tr, origins)
                key = tr.quantity.span
                seen[key] = seen.get(key, 0) + 1
                known = ranks.get(key)
                if known is None or rank < known:
                    best[key], ranks[key] = tr, rank
            self._nearest_of(sub.context, best.values(), origins)
            del sub
            if best.keys() <= own and all(r == _AS_WRITTEN for r in ranks.values()):
                break  # every figure as written in the context: no later piece comes first
        out = [tr for key, tr in best.items() if key in own or seen[key] == count]
        out.sort(key=lambda t: t.quantity.span)
        return tuple(out)

    def _nearest_of(
        self,
        piece: GroundingContext,
        traces: Iterable[QuantityTrace],
        origins: Sequence[tuple[int, int]],
    ) -> None:
        """Keep in :attr:`_evidence` the nearest figure of ``piece`` to each quantity of
        ``traces`` traced nowhere so far, where nearer than the nearest of earlier pieces."""
        best = self._evidence_order
        for tr in traces:
            if tr.source is not None:
                continue
            q = tr.quantity
            key = (q.kind, q.dimension, q.value, q.base_value)
            found = piece.nearest(q, origins)
            if found is None:
                self._evidence.setdefault(key, "the context contains no quantity of this kind")
                continue
            known = best.get(key)
            if known is None or found[0] < known:
                best[key] = found[0]
                self._evidence[key] = found[1]

    def _trace(self, sc: Scan) -> tuple[QuantityTrace, ...]:
        out: list[QuantityTrace] = []
        memo = self._memo
        operands: list[tuple[float, str, bool, int]] = []  # and the quantity's index
        traced = [False] * len(sc.quantities)
        derived_here: dict[tuple[str, Fraction, str | None], str] = {}
        """The answer's figures derived so far, by kind, value and unit: a figure the answer
        repeats (``36.76% = $5,802 million / $15,785 million``, then ``from 32.93% to 36.76%``)
        is the same derivation, wherever the operands stand."""
        meta_of = sc.meta or ((1, 0, 1, 0),) * len(sc.quantities)
        for n, (q, ph, meta) in enumerate(
            zip(sc.quantities, sc.placeholders, meta_of, strict=True)
        ):
            key = (ph, q.unit, meta)
            try:
                hit = memo[key]
            except KeyError:
                a, b = sc.norm_spans[n]
                fast = self.context.fast_find(q, sc.norm.text[a:b], meta)
                hit = _found(q, meta[0], fast) if fast is not None else self._lookup(q, meta)
                if len(memo) >= _MEMO_MAX:
                    memo.clear()
                memo[key] = hit
            if hit is not None:
                occ = hit[0]
                out.append(QuantityTrace(q, occ[0], occ[1], occ[2], occ[3], None, hit[1]))
                traced[n] = True
                if q.kind == "number" and not meta[3] & F_YEAR:  # a year is no operand
                    operands.append((float(q.value), q.text, q.unit == "%", n))
                continue
            flags = meta[3]
            if flags & (F_CONSTANT | F_COUNT):
                out.append(QuantityTrace(q, "working", rule="constant"))
                traced[n] = True
                continue
            if _own_count(q, meta, sc):
                out.append(QuantityTrace(q, "working", rule="enumerated"))
                traced[n] = True
                continue
            restated = self._restated(q, meta, sc, n)
            if restated is not None:
                out.append(restated)
                traced[n] = True
                continue
            rest = self._complement(q, meta, sc, n, operands)
            if rest is not None:  # an operand of later working, as a derived figure
                out.append(rest)
                traced[n] = True
                operands.append((float(q.value), q.text, True, n))
                continue
            again = self._again(q, meta, sc, n, derived_here, traced)
            if again is not None:  # "repeated", "restated", or a bracket that is no sign
                if again[0].rule == "restated":
                    derived_here.setdefault((q.kind, q.value, q.unit), again[0].derivation or "")
                out.append(again[0])
                traced[n] = True
                operands.append((float(again[1]), q.text, q.unit == "%", n))
                continue
            derived = self._derive(q, meta, operands, sc, n, traced, out)
            if derived is not None:
                how = derived[0]
                derived_here.setdefault((q.kind, q.value, q.unit), how)
                out.append(QuantityTrace(q, "derived", derivation=how, rule=derived[1]))
                traced[n] = True
                operands.append((float(q.value), q.text, q.unit == "%", n))
                continue
            out.append(QuantityTrace(q, None))
        _trace_own_working(sc, meta_of, out, traced)
        if not all(traced):
            _trace_stated_operands(sc, meta_of, out, traced)
        if not all(traced) and sc.separators:
            self._trace_ranges(sc, meta_of, out, traced)
        if not all(traced) and self._growth is not None and self._growth[0] is sc:
            _trace_growth_years(sc, out, traced, self._growth[2])
        if not all(traced):
            self._trace_shares(sc, out)
        if sc.idents:
            self._trace_identifiers(sc, out)
        return tuple(out)

    def _complement(
        self,
        q: Quantity,
        meta: Meta,
        sc: Scan,
        n: int,
        operands: Sequence[tuple[float, str, bool, int]],
    ) -> QuantityTrace | None:
        """``q``, a percentage below 100% that the answer states as the rest of a whole
        (:func:`~hybridjudge.grounding._complement.states_rest`: ``the remaining 60%``),
        traced to the share it completes (rule ``complement``): 100% less it, a percentage of
        the context at the answer's precision (the trace names that figure), or one the answer
        traced before it (``40% ...; the remaining 60%``, its 40% derived); else ``None``."""
        if q.kind != "number" or q.unit != "%" or not 0 < q.value < _HUNDRED:
            return None
        if not states_rest(sc.norm.text, *sc.norm_spans[n]):
            return None
        rest = _HUNDRED - q.value
        hit = self._lookup(replace(q, value=rest, base_value=rest), meta)
        if hit is not None:
            occ = hit[0]
            return QuantityTrace(q, occ[0], occ[1], occ[2], occ[3], None, "complement")
        tol = rounding_tolerance(_precision(meta) / 2)  # at the answer's precision
        for value, text, percent, _ in reversed(operands):
            if percent and abs(value - float(rest)) <= tol:
                return QuantityTrace(q, "derived", derivation=f"100% - {text}", rule="complement")
        return None

    def _trace_ranges(
        self, sc: Scan, meta_of: Sequence[Meta], out: list[QuantityTrace], traced: list[bool]
    ) -> None:
        """Trace in ``out`` (one trace per quantity of ``sc``) the ends of each range the answer
        states, where one is not traced, to a context figure inside it (rule ``bound``):
        ``between $22 and $23 million`` for 22,626 under ``(in thousands)``. Only a range that
        bounds one figure (:func:`closed_range`: ``22-23``, ``between 22 and 23``; not ``from 22
        to 23``), of one unit, positive, at most :data:`RANGE_SHARE` of its upper end wide; a
        context figure written more precisely than its ends."""
        text = sc.norm.text
        qs = sc.quantities
        for k in range(len(qs) - 1):
            lo, hi = qs[k], qs[k + 1]
            if (traced[k] and traced[k + 1]) or lo.range_role != "low" or hi.range_role != "high":
                continue
            unit = hi.unit or lo.unit  # "$22-23 million": the sign on one end
            if {lo.unit, hi.unit} - {unit, None} or not 0 < lo.value < hi.value:
                continue
            if not closed_range(text, sc.norm_spans[k][1], sc.norm_spans[k + 1][0]):
                continue
            dim = hi.dimension or lo.dimension
            money = dim is not None and dim.startswith("currency-")
            if lo.kind != "number" or (not money and dim not in (None, "percent")):
                continue  # a unit: near_in_unit's, not the rounding rows'
            if (meta_of[k][3] | meta_of[k + 1][3]) & F_YEAR:
                continue  # "2018-20" names its years: 2019 is none of them
            low, high = float(lo.value), float(hi.value)
            if high - low > RANGE_SHARE * high:
                continue
            precision = max(_end_precision(q, meta_of[n]) for n, q in ((k, lo), (k + 1, hi)))
            occ = self.context.bounded(
                (low + high) / 2,
                (high - low) / 2,
                precision,
                unit == "%",
                frozenset((dim,)) if money and dim else None,
            )
            if occ is None:
                continue
            for n in (k, k + 1):
                if not traced[n]:
                    out[n] = QuantityTrace(qs[n], occ[0], occ[1], occ[2], occ[3], None, "bound")
                    traced[n] = True

    def _again(
        self,
        q: Quantity,
        meta: Meta,
        sc: Scan,
        n: int,
        derived_here: Mapping[tuple[str, Fraction, str | None], str],
        traced: Sequence[bool],
    ) -> tuple[QuantityTrace, Fraction] | None:
        """``q`` as a figure the answer states again, with the value it stands for as an
        operand of later working: a figure derived above (rule ``repeated``; also by its
        magnitude: ``a decrease of 186.03 million`` for ``-186.03 million``, or in brackets that
        group working or set off an aside, ``365 * ($43,762.5 million)``), the figure just
        before it in another form (rule ``restated``: ``0.01424 or 1.424%``), or a context
        figure in such brackets (``total current assets ($1,001,425)``); else ``None``."""
        if q.kind != "number":
            how = derived_here.get((q.kind, q.value, q.unit))
            return None if how is None else (_repeated(q, how), q.value)
        grouping = meta[3] & F_PAREN and q.value < 0 and _bracket_not_sign(sc, n)
        money = q.dimension is not None and q.dimension.startswith("currency-")
        units = (q.unit, None) if money else (q.unit,)  # "-186.03 million", then "... dollars"
        for value in (q.value, -q.value) if q.value > 0 or grouping else (q.value,):
            how = next(filter(None, (derived_here.get((q.kind, value, u)) for u in units)), None)
            if how is not None:
                note = " (by its magnitude) (repeated)" if value != q.value else " (repeated)"
                return _repeated(q, how, note), abs(q.value) if grouping else q.value
        restated = _restated_form(q, sc, n, traced)
        if restated is not None:
            return QuantityTrace(q, "derived", derivation=restated, rule="restated"), q.value
        if grouping:
            hit = self._lookup(replace(q, value=-q.value, base_value=-q.base_value), meta)
            if hit is not None:
                occ = hit[0]
                trace = QuantityTrace(q, occ[0], occ[1], occ[2], occ[3], None, hit[1])
                return trace, -q.value
        return None

    def _trace_identifiers(self, sc: Scan, out: list[QuantityTrace]) -> None:
        """Add to ``out`` the figures of the identifiers of ``sc`` that the context does not
        hold as written (``covid-19``, ``FY 2023``, ``the 1960s``), traced as figures, and put
        ``out`` in answer order."""
        context = self.context
        norm = sc.norm
        for ident in sc.idents:
            if ident.number is None:
                continue
            known = context.fast_identifier(ident.text)
            if known is None:
                known = ident.text in context.identifiers
            if known:
                continue
            span = norm.to_original(ident.start, ident.end)
            q = Quantity(
                text=norm.original[span[0] : span[1]],
                span=span,
                kind="number",
                value=ident.number,
                unit=None,
                dimension=None,
                base_value=ident.number,
            )
            found = (
                self._find_decade(q)
                if ident.text.endswith("0s")
                else _found(q, 1, context.fast_find(q, ident.text) or self._find(q))
            )
            out.append(
                QuantityTrace(q, None)
                if found is None
                else QuantityTrace(q, *found[0][:4], rule=found[1])
            )
        out.sort(key=lambda t: t.quantity.span)

    def _trace_shares(self, sc: Scan, out: list[QuantityTrace]) -> None:
        """Trace the count and the whole of a share the answer states so (``one in three``,
        ``9 out of 10``: :func:`share_pairs`) to the percentage the context states for it
        (exactly, or within :data:`SHARE_POINTS`: ``33%``), when either is not traced on
        its own. ``out`` holds one trace per quantity of ``sc``, in order."""
        for xs, xe, ys, ye, share in share_pairs(sc.norm.text, sc.words):
            members = [
                n for n, span in enumerate(sc.norm_spans) if span == (xs, xe) or span == (ys, ye)
            ]
            if all(out[n].source is not None for n in members):
                continue
            occ = (
                self._find(
                    Quantity(
                        text=sc.norm.text[xs:ye],
                        span=(xs, ye),
                        kind="number",
                        value=share,
                        unit="%",
                        dimension="percent",
                        base_value=share,
                    )
                )
                or self.context.stated_share(share)
                or self.context.rounded(
                    float(share), _SHARE_ROUNDING[1], _SHARE_ROUNDING[0], percent=True
                )
            )
            if occ is None:
                continue
            for n in members:
                if out[n].source is None:
                    out[n] = QuantityTrace(sc.quantities[n], *occ[:4], rule="share_in_words")

    def _frequency(self, q: Quantity, sc: Scan, n: int) -> tuple[_Occ, str | None] | None:
        """A frequency the context states another way: the same interval between two
        occurrences, as a count per period, ``every`` a time, a frequency with no count or a
        prescription's code (``every 8 hours`` for ``three times daily`` or ``TID``, ``twice
        daily`` for ``every 12 hours`` or ``q12h``, ``once daily`` for ``every 24 hours``,
        ``every 3 months`` or ``four times a year`` for ``quarterly``, ``every 2 days`` for
        ``every other day``). Not ``every 6 hours`` for ``three times daily``, nor ``twice
        daily`` for ``daily``: whole periods only, days and months apart (a month is no 30
        days).

        Returns the context's phrase and how the answer's follows from it (a derivation: the
        answer's figure is computed from the context's, ``24 / 3``, so ``derived="finding"``
        reports it), or no derivation for ``once`` before the frequency the context states
        without a count (``once daily`` for ``daily``: the same claim)."""
        start, end = sc.norm_spans[n]
        said = stated_interval(sc.norm.text, q, start, end)
        if said is None:
            return None
        want, a0, b0 = said
        for i, (scanned, _scopes) in enumerate(self.context._parsed_passages()):
            for interval, a, b, uncounted in _intervals(scanned):
                if interval != want:
                    continue
                occ = _occurrence(i, scanned, a, b)
                if uncounted and q.dimension is None and q.value == 1:
                    return occ, None  # "once daily" for "daily"
                a, b = sc.norm.to_original(a0, b0)
                return occ, f"{sc.norm.original[a:b]} = {occ[3]}: the same interval"
        return None

    def _restated(self, q: Quantity, meta: Meta, sc: Scan, n: int) -> QuantityTrace | None:
        """``q`` traced to a context figure the answer states in another form: a frequency as
        its interval (:meth:`_frequency`), a rate over another period (:meth:`_rate`), the
        years of a range as a duration (:meth:`_years_of_range`), a year written ``'98``."""
        frequency = self._frequency(q, sc, n)
        if frequency is not None:
            occ, how = frequency
            if how is None:
                return QuantityTrace(q, *occ[:4], rule="frequency")
            return QuantityTrace(q, "derived", derivation=how, rule="frequency")
        how = self._rate(q, meta, sc, n)
        if how is not None:
            return QuantityTrace(q, "derived", derivation=how, rule="rate")
        how = self._years_of_range(q, sc)
        if how is not None:
            return QuantityTrace(q, "derived", derivation=how, rule="years_of_range")
        how = self._part(q, meta)
        if how is not None:
            return QuantityTrace(q, "derived", derivation=how, rule="share")
        start = sc.norm_spans[n][0]
        text = sc.norm.text
        if (
            q.dimension is None
            and len(q.text) == 2
            and q.text.isdecimal()
            and start >= 1
            and text[start - 1] in "'’"
            and (start == 1 or not text[start - 2].isalnum())
        ):  # "in '98": the year 1998
            year = Fraction(_two_digit_year(int(q.text)))
            same = self._find(replace(q, value=year, base_value=year))
            if same is not None:
                return QuantityTrace(q, *same[:4], rule="reworded")
        return None

    def _part(self, q: Quantity, meta: Meta) -> str | None:
        """A part the context states as a share of a whole (``300`` for ``25% of the 1,200
        employees``, ``600`` for ``1,200 patients, half of them``), at the answer's precision
        (an approximation's: ``about 300``), in the whole's dimension; the derivation, or
        ``None``."""
        if q.kind != "number" or q.unit == "%" or q.value <= 0 or q.range_role is not None:
            return None
        half = rounding_tolerance(_stated_half(q, meta), floor=0.0)
        for part, dimension, how in self.context.parts_of_wholes():
            if dimension == q.dimension and abs(float(part - q.value)) <= half:
                return f"{q.text} = {how}: a share of a whole"
        return None

    def _years_of_range(self, q: Quantity, sc: Scan) -> str | None:
        """A number of years the context states as a range of years (``4 years`` for ``from
        2015 to 2019``, or ``5 years`` counting both ends), or that the years the answer names
        span (:meth:`_years_named`), as a derivation, or ``None``."""
        if q.unit != "year" or q.range_role is not None or q.value.denominator != 1:
            return None
        years = q.value.numerator
        if not 1 <= years <= 300:
            return None
        return self._range_years(q, years) or self._years_named(q, sc)

    def _range_years(self, q: Quantity, years: int) -> str | None:
        """:meth:`_years_of_range` from a range of years the context states."""
        for scanned, _scopes in self.context._parsed_passages():
            qs, metas = scanned.quantities, scanned.meta
            for k in range(len(qs) - 1):
                lo, hi = qs[k], qs[k + 1]
                if (
                    lo.range_role != "low"
                    or hi.range_role != "high"
                    or not metas[k][3] & metas[k + 1][3] & F_YEAR
                ):
                    continue
                span = hi.value - lo.value
                if span == years:
                    return f"{q.text} = {hi.text} - {lo.text}: the years of a range"
                if span + 1 == years:
                    return f"{q.text} = {lo.text} to {hi.text}, both years counted"
        return None

    def _years_named(self, q: Quantity, sc: Scan) -> str | None:
        """A number of years that the years the answer names span (``the two-year period`` of
        an answer naming 2020, 2021 and 2022, counted from the first to the last, or ``the
        three-year period``, each year counted), each of them standing in the context or the
        question; as a derivation, or ``None`` (:meth:`_years_of_range`). Where the answer
        names fewer than two, with the years the question names (``over the two-year period``
        for "How did revenue change from 2018 to 2019?")."""
        years, who = self._named_years(sc), "answer"
        if len(years) < 2 and self._question:
            years, who = years | self._named_years(self._question_scan()), "question"
        if len(years) < 2:
            return None
        first, last = min(years), max(years)
        if q.value == last - first:
            return f"{q.text} = {last} - {first}: the years the {who} names"
        if q.value == len(years) == last - first + 1:
            return f"{q.text} = {first} to {last}, each year counted: the years the {who} names"
        return None

    def _named_years(self, sc: Scan) -> set[int]:
        """The years ``sc`` names that stand in the context (:meth:`_years_named`)."""
        years: set[int] = set()
        for other, meta in zip(sc.quantities, sc.meta, strict=True):
            if other.kind == "number" and meta[3] & F_YEAR:
                year = int(other.value)
            elif other.kind == "date" and other.value >= 10_000_000:  # yyyymmdd
                year = int(other.value) // 10_000
            else:
                continue
            if year not in years and self._find(other) is not None:
                years.add(year)
        return years

    def _rate(self, q: Quantity, meta: Meta, sc: Scan, n: int) -> str | None:
        """An amount the answer writes as a rate over another period than the context's
        (``$60 a year`` for ``$5 per month``, ``$119.88 annually`` for ``€9.99/mo`` in euros:
        no): the context's rate in the same currency times the ratio of the periods, at the
        answer's precision, inside days and weeks or inside months, quarters and years. The
        derivation, or ``None``. A count of a noun too (``60 visits a year`` for ``5 visits per
        month``: :meth:`_count_rate`)."""
        if q.dimension is None and _a_count(q, meta):
            return self._count_rate(q, sc, n)
        if q.dimension is None or not q.dimension.startswith("currency-") or not q.value:
            return None
        said = rate_period(sc.norm.text, sc.norm_spans[n][1])
        if said is None:
            return None
        half = rounding_tolerance(_precision(meta) / 2, floor=0.0)
        for cq, stated, _words in self._amounts(q.dimension):
            factor = _period_factor(stated, said[0])
            if cq.value and factor is not None and abs(float(cq.value * factor - q.value)) <= half:
                return _same_rate(q, cq.text, factor)
        return None

    def _count_rate(self, q: Quantity, sc: Scan, n: int) -> str | None:
        """A count of a noun the answer writes as a rate over another period than the
        context's count of that noun (``60 visits a year`` for ``5 visits per month``): that
        count times the ratio of the periods, exactly (:meth:`_rate` for money). The
        derivation, or ``None``."""
        text = sc.norm.text
        said = _noun_counted(text, sc.norm_spans[n][1])
        if said is None or (period := rate_period(text, said[2])) is None:
            return None
        for value, after, written, stated in self.context.counts_of(said[0]):
            if said[1] is not None and after is not None and after != said[1]:
                continue
            factor = _period_factor(stated, period[0])
            if factor is not None and value * factor == q.value:
                return _same_rate(q, written, factor)
        return None

    def _amounts(self, dimension: str) -> Iterator[tuple[Quantity, Interval | None, str]]:
        """The context's amounts in currency ``dimension``, each with the period it is a rate
        over (:func:`rate_period`: ``$5 per month``) and its words (``per month``), or
        ``None`` and ``""`` where none follows it."""
        for scanned, _scopes in self.context._parsed_passages():
            text = scanned.norm.text
            for cq, (_a, b) in zip(scanned.quantities, scanned.norm_spans, strict=True):
                if cq.dimension == dimension:
                    stated = rate_period(text, b)
                    if stated is None:
                        yield cq, None, ""
                    else:
                        yield cq, stated[0], text[b : stated[1]].strip()

    def _lookup(self, q: Quantity, meta: Meta) -> _Hit | None:
        """``q`` traced to the context, question, allowed numbers or anchors, and by which rule."""
        mult, _decimals, _sig, flags = meta
        occ = self._find(q)
        if occ is not None or q.kind != "number":
            return _found(q, mult, occ)
        if q.unit == "%" and (occ := self.context.stated_share(q.value)) is not None:
            return occ, "share_in_words"  # "20%" for "one in five"
        if flags & F_DECADE:
            return self._find_decade(q)
        if flags & F_DECREASE and q.value > 0:
            occ = self._find(replace(q, value=-q.value, base_value=-q.base_value))
            if occ is not None:
                return _found(q, mult, occ)
        bare = q.dimension == "currency-usd" and _BARE_DOLLAR.search(q.text) is not None
        if bare:
            # a bare "$" may name a figure in any dollar ("$512 million" for "HK$512 million")
            held = self.context._idx().currencies.union(
                *(ix.currencies for ix in self._other_indexes())
            )
            for dim in _OTHER_DOLLARS:
                if dim in held:
                    occ = self._find(replace(q, unit=dim[9:], dimension=dim))
                    if occ is not None:
                        return _found(q, mult, occ)
        index = self.context._idx()
        if flags & F_OPERAND and q.dimension is None and mult == 1:
            # an operand of shown working without its scale word: "60.3 + 80.5 = ..." for
            # "$60.3 million" and "$80.5 million"
            occ = index.own_scaled.get(_k(None, q.value))
            if occ is not None:
                return _found(q, mult, occ)
        money = q.dimension is None or q.dimension.startswith("currency-")
        if flags & F_OPERAND or (money and q.value > 0):
            # an unsigned figure may name an accounting negative "(7,344)" by its magnitude
            occ = index.bracketed.get(_k(None, abs(q.value)))
            if occ is not None:
                return _found(q, mult, occ)
        if not money and q.unit != "%":
            return self._near_in_unit(q, meta)
        hit = self._in_other_scale(q, meta, index)
        if hit is not None:
            return hit
        return self._rounded(q, meta, bare, index)

    @staticmethod
    def _in_other_scale(q: Quantity, meta: Meta, index: _Index) -> _Hit | None:
        """``q``, a sum of money or a plain figure, traced to a context figure whose scale the
        context does not state: ``$1,496.5 million`` for a cell ``1,496.5``, ``$53.33 million``
        for ``53,330``, ``$88,848,000`` for ``$88,848`` (as :meth:`_lookup` traces it)."""
        mult, decimals, _sig, flags = meta
        if flags & F_OWN_SCALE and mult != 1:
            # "$1,496.5 million" for a cell "1,496.5" whose scale the context does not state,
            # never more precisely than the cell is written ("€3.0bn" is not "3")
            mantissa = q.value / mult
            known = index.mantissa.get(_k(None, mantissa))
            if known is None and flags & F_DECREASE and mantissa > 0:
                known = index.mantissa.get(_k(None, -mantissa))
            if known is not None and known[1] >= decimals:
                return _found(q, mult, known[0])
            # "$53.33 million" for "53,330", "$1.89 billion" for "1,887.8": the same figure in
            # a smaller scale, rounded at the answer's precision
            for smaller in _smaller_scales(q, meta):
                tol = _precision(meta) / 2 / smaller
                for signed in (mantissa, -mantissa) if flags & F_DECREASE else (mantissa,):
                    at = float(signed) * mult / smaller
                    occ = _near_mantissa(index, at, tol, precise=True)
                    if occ is not None:
                        return occ, "rescaled"
        elif mult == 1 and decimals == 0:
            # "$88,848,000" for "$88,848" whose scale the context does not state: its zeros
            # write a thousand, a million or a billion out (as "$88,848 thousand" would)
            # out; with decimals, only a table cell's ("1,496,500,000" for a cell "1,496.5"):
            # "$12,500" is no 12.5 thousand of a price "$12.5" in running text
            for mantissa, places in _full_digit_mantissas(q.value):
                key = _k(None, mantissa)
                known = index.mantissa.get(key)
                if known is not None and known[1] >= places and (places == 0 or key in index.cells):
                    return known[0], "rescaled"
        return None

    def _rounded(self, q: Quantity, meta: Meta, bare: bool, index: _Index) -> _Hit | None:
        """``q``, a sum of money or a plain figure (``bare``: written with a bare ``$``), traced
        as a bound, a rounding or an approximation of a context figure (as :meth:`_lookup`
        traces it), else as the same numeral read in the other convention."""
        mult, _decimals, sig, flags = meta
        approx = _approximation(q, meta)
        currencies: frozenset[str] | None = None
        if q.dimension is not None:  # a currency (money): the figures it may round
            currencies = frozenset((q.dimension, *(_OTHER_DOLLARS if bare else ())))
        bound = _bound(q, meta)
        if bound is not None:  # "more than 10,000" for 10,500, "less than 5%" for 4.6%
            middle, half, unit = bound
            occ = self.context.bounded(middle, half, unit, q.unit == "%", currencies)
            # a bound is no rounding: "over $1.2 million" is not $1,150,000
            return (occ, "bound") if occ is not None else self._same_numeral(q)
        # a zero rounds every figure smaller than its last digit ("0.0 million" for a cell
        # "1.4"): only a zero grounds it
        if q.value and (sig >= 2 or flags & F_OWN_SCALE or approx is not None):
            precision, half = approx or (_precision(meta), _precision(meta) / 2)
            values = [float(q.value)]
            own = bool(flags & F_OWN_SCALE) and mult != 1
            if flags & F_DECREASE and q.value > 0:
                values.append(-float(q.value))
            for v in values:
                occ = self.context.rounded(
                    v, half, precision, q.unit == "%", currencies, own_scale=own
                )
                if occ is not None:
                    return occ, "rounded" if approx is None else "approximation"
            if approx is not None and flags & F_OWN_SCALE and mult != 1:
                # "about 500 thousand" for a cell "503" whose scale the context does not state
                occ = _near_mantissa(index, float(q.value) / mult, approx[1] / mult)
                if occ is not None:
                    return occ, "approximation"
        return self._same_numeral(q)

    def _near_in_unit(self, q: Quantity, meta: Meta) -> _Hit | None:
        """``q``, a figure in a unit, traced as a bound, a rounding or an approximation of a
        context figure in it (as :meth:`_lookup` traces a figure without one), or as the same
        numeral read in the other convention."""
        near = None
        bound = _bound(q, meta)
        approx = _approximation(q, meta)
        rule: TraceRule = "bound"
        if bound is not None:
            near = self.context.near_in_unit(q, bound[0], bound[1], bound=True)
        elif q.value and (meta[2] >= 2 or approx is not None):
            half = _stated_half(q, meta)
            rule = "approximation" if approx is not None else "rounded"
            near = self.context.near_in_unit(q, float(q.value), half, bound=False)
        return (near, rule) if near is not None else self._same_numeral(q)

    def _same_numeral(self, q: Quantity) -> _Hit | None:
        """:meth:`GroundingContext.same_numeral`, with its rule."""
        occ = self.context.same_numeral(q)
        return None if occ is None else (occ, "numeral")

    def _working_scale(self, out: Sequence[QuantityTrace], figures: Sequence[int]) -> int:
        """The one scale the context states for the answer's ``figures`` (indexes into ``out``,
        its traces so far) that it traced to the context as written (``4,411 + 4,044`` for two
        cells under ``(in millions)``: a million; a figure it states no scale for, such as the
        ``2`` of an average, aside); 0 when it states none for any of them; 1 when there is
        no such figure, or two scales."""
        scales = {
            self.context.stated_scale(tr.passage, tr.span)
            for k in figures
            if k < len(out) and (tr := out[k]).source == "context" and tr.rule == "as_written"
        }
        if scales == {1}:
            return 0
        scales.discard(1)
        return scales.pop() if len(scales) == 1 else 1

    def _derive(
        self,
        q: Quantity,
        meta: Meta,
        operands: list[tuple[float, str, bool, int]],
        sc: Scan,
        n: int,
        traced: Sequence[bool] = (),
        out: Sequence[QuantityTrace] = (),
    ) -> Derivation | None:
        if meta[3] & F_RESULT and n < len(sc.norm_spans) and q.kind == "number":
            scale = functools.partial(self._working_scale, out)
            shown_how = _from_shown_working(q, meta, sc, n, traced, self._shapes, scale)
            if shown_how:  # a measure too (``(24.1 + 27.8 + 27.3) / 3 = 26.4 °C``)
                return shown_how, "shown_working"
            if shown_how is not None and not (_is_measure(q) and q.unit != "%"):
                # the working the answer shows decides: its value, or no derivation at all (a
                # measure's may be in other units, ``1.5 kg - 500 g = 1 kg``: read as one)
                return None
        target = _target(q, meta)
        if target is None:
            return None
        if target.dimension is not None:
            return self._derive_measure(target, q, meta, sc, n)
        if n < len(sc.norm_spans):  # the direction and the noun the answer states with it
            start, end = sc.norm_spans[n]
            text = sc.norm.text
            trend = stated_trend(text, start, end)
            noun = counted_noun(text, end)
            hint = self._question_hint()
            if hint is not None and stated_mean(text, start, sc.words):
                target = replace(target, averaged=True, years=_years_of(sc))
            if target.kind == "percent":
                named = stated_ratio(text, start, sc.words)
                # a share is of a figure the question names, or of one the words after it name
                # (_pinned)
                whole = stated_whole(text, end)
                parts = _parts_of(sc, n) if whole and hint and hint.operands else frozenset()
                target = replace(target, named=named, whole=whole, parts=parts)
            if trend or noun:
                target = replace(
                    target, trend=trend, noun=noun, years=_years_of(sc) if trend else target.years
                )
            if trend or target.kind == "percent":
                target = replace(target, stated=_stated_in_sentence(sc, n))
            if target.kind == "plain" and (rates := _rates_before(sc, n, operands)):
                target = replace(target, rates=rates)
            gap = self._gap(q, meta, sc, n, operands) if target.kind != "ratio" else False
            if gap is not False:  # a gap from a figure the sentence states before it decides
                return gap
            if target.kind == "plain" and (times := self._counted(q, meta, sc, n, operands)):
                return times
        shown = operands[-WORKING_OPERANDS:]
        from_to = _from_to(sc, [o[3] for o in shown])
        values = [o[:3] for o in shown]
        for t in _readings(target, q, meta):
            found = explain_from(values, t, from_to)
            # the result of shown working ("... = 30.8%") must follow from that working
            if found is None and not (meta[3] & F_RESULT and len(shown) >= 2):
                found = self._growth_rate(t, sc, n) or self._context_derivation(t)
            if found is not None:
                return (f"{found[0]} ({t.rule})", t.rule) if t.rule else found
        if meta[1] == 3 and self.context.reads_continental(q):
            # "1.283", read with three decimals, as 1,283: as the context reads its numerals
            return self._context_derivation(
                replace(target, value=target.value * 1000, half=target.mult / 2)
            )
        return None

    def _gap(
        self,
        q: Quantity,
        meta: Meta,
        sc: Scan,
        n: int,
        operands: Sequence[tuple[float, str, bool, int]],
    ) -> Derivation | Literal[False] | None:
        """``q``, the ``n``-th figure of ``sc``, stated as a gap by a comparison after it
        (:func:`compared_after`: ``49.3 was 4.2 points above the national average``), from the
        figure its sentence states last before it and traced (``49.3``): the context figure
        that far from it, either way (rule ``difference``), or ``None`` where none is: the
        stated figure decides, no other pair of the context's figures explains the gap.
        ``False`` where no such gap or figure is (the other derivations are tried)."""
        text = sc.norm.text
        start, end = sc.norm_spans[n]
        if not operands or q.value <= 0 or not compared_after(text, end):
            return False
        lo, _hi = sentence_around(text, start, end)
        before = [k for *_, k in operands if lo <= sc.norm_spans[k][0] < start]
        if not before:
            return False
        stated = sc.quantities[before[-1]]
        if (stated.unit == "%") != (q.unit == "%") or (
            stated.value.denominator == 1 and 0 <= stated.value <= SMALL_COUNT
        ):
            return False  # a small whole number names or counts (Attainment 8, 3 plants)
        for other in (stated.value - q.value, stated.value + q.value):
            hit = self._lookup(replace(q, value=other, base_value=other), meta)
            if hit is not None and hit[0][0] == "context":
                # the larger less the smaller
                first, second = (
                    (stated.text, hit[0][3]) if other < stated.value else (hit[0][3], stated.text)
                )
                return f"{q.text} = {first} - {second}", "difference"
        return None

    def _counted(
        self,
        q: Quantity,
        meta: Meta,
        sc: Scan,
        n: int,
        operands: Sequence[tuple[float, str, bool, int]],
    ) -> Derivation | None:
        """``q``, the ``n``-th figure of ``sc``, as a count its sentence states before it (a
        whole number from 2 to :data:`SMALL_COUNT` without a unit, traced: ``four single
        trips``), the figure right before it (past a modifier of the noun it counts: ``Four
        7-day passes``), times a context figure: ``four single trips would
        cost $12.80`` for a trip's ``$3.20`` (rule ``product``). Pinned by the answer's count:
        the other figure is ``q`` divided by it, found as the context writes it; no search over
        pairs."""
        k = n - 1  # the figure right before it, past a modifier of its noun ("Four 7-day passes")
        while k >= 0 and "-" in sc.quantities[k].text and sc.quantities[k].unit is not None:
            k -= 1
        if q.value <= 0 or k < 0 or not any(o[3] == k for o in operands[-3:]):
            return None
        count = sc.quantities[k]
        if not (
            count.unit is None
            and count.value.denominator == 1
            and 2 <= count.value <= SMALL_COUNT
            and sentence_around(sc.norm.text, *sc.norm_spans[n])[0] <= sc.norm_spans[k][0]
        ):
            return None
        each = q.value / count.value
        hit = self._lookup(replace(q, value=each, base_value=each), meta)
        if hit is not None and hit[0][0] == "context":
            return f"{q.text} = {count.text} × {hit[0][3]}", "product"
        return None

    def _derive_measure(
        self, target: Target, q: Quantity, meta: Meta, sc: Scan, n: int
    ) -> Derivation | None:
        """``target``, the measure ``q`` (``2.6 kg``), derived from the context's measures of
        its dimension (:meth:`GroundingContext.derive_measure`), where the context holds two or
        more and the answer's sentence states an operation or a change
        (:func:`states_operation`, :func:`stated_trend`) or the question asks for one: a
        measure stated as no operation's result is a figure of its own."""
        if n >= len(sc.norm_spans):
            return None
        start, end = sc.norm_spans[n]
        trend = stated_trend(sc.norm.text, start, end)
        if not (
            trend
            or states_operation(sc.norm.text, start, end)
            or asks_operation(self._question.lower())
        ):
            return None
        if self.context.measure_count(target.dimension) < 2:  # after the cheap tests
            return None
        stated = _stated_in_sentence(sc, n) if trend else ()
        for t in _readings(replace(target, trend=trend, stated=stated), q, meta):
            found = self._context_derivation(t)
            if found is not None:
                return (f"{found[0]} ({t.rule})", t.rule) if t.rule else found
        return None

    def _growth_rate(self, target: Target, sc: Scan, n: int) -> Derivation | None:
        """``target``, the ``n``-th figure of ``sc``, as a compound annual growth rate of two
        context figures (:func:`~hybridjudge.grounding._derive.growth_rate`), when the question
        or the answer ``sc`` asks for one (tried before the other derivations: a growth rate
        asked for is no percent change of one year); its direction the one its clause states
        (``fell at a CAGR of 10%``: -10%)."""
        if self._growth is None or self._growth[0] is not sc:
            if self._growth_asked is None:  # the question's, once
                q_asks = asks_growth_rate(self._question)
                self._growth_asked = (
                    q_asks,
                    growth_periods(self._question_scan()) if q_asks else frozenset(),
                )
            q_asks, q_periods = self._growth_asked
            asked = q_asks or asks_growth_rate(sc.norm.text, sc.words)
            self._growth = (sc, q_periods | growth_periods(sc) if asked else None, {})
        periods, found = self._growth[1], self._growth[2]
        if periods is None:
            return None
        if not target.trend and n < len(sc.norm_spans):
            target = replace(target, trend=clause_trend(sc.norm.text, sc.norm_spans[n][0]))
        growth = self.context.growth(target, self._question_hint(), periods)
        if growth is None:
            return None
        how, years = growth
        if years is not None:
            found.setdefault(years, how[0])
        return how

    def _question_hint(self) -> Hint | None:
        """The figures the question points at (:meth:`GroundingContext.hint`), read on first
        need."""
        if self._hint is False:
            self._hint = self.context.hint(self._question) if self._question else None
        return self._hint if isinstance(self._hint, Hint) else None

    def _context_derivation(self, target: Target) -> Derivation | None:
        """How ``target`` derives from the context's figures (the question's hint applied),
        remembered per target: answers of one case repeat most derived figures."""
        memo = self._derived_memo
        try:
            return memo[target]
        except KeyError:
            pass
        if target.dimension is not None:
            how = self.context.derive_measure(target, self._question)
        else:
            how = self.context.derive(target, self._question_hint())
            if how is None and target.kind == "percent" and target.trend:
                how = self.context.derive_measure(target, self._question)  # "rose 50%"
        if len(memo) >= _MEMO_MAX:
            memo.clear()
        memo[target] = how
        return how

    def _find_decade(self, q: Quantity) -> _Hit | None:
        """A year of the decade ``q`` names (``1964`` or ``May 5, 1964`` for ``the 1960s``; not
        the century ``the 1900s`` may also be: a hundred years of a context would ground a
        wrong birth year), or for a decade written in two digits (``in her 30s``, ``the '80s``,
        ``the eighties``) a figure of the ten or a year of the 1900s or 2000s so numbered
        (``1984`` for ``the 80s``)."""
        first = int(q.value)
        starts = (first, 1900 + first, 2000 + first) if first < 100 else (first,)
        for years in (range(start, start + 10) for start in starts):
            for year in years:
                value = Fraction(year)
                occ = self._find(replace(q, value=value, base_value=value))
                if occ is not None:
                    return occ, "decade"
        return None

    def _find(self, q: Quantity) -> _Occ | None:
        occ = self.context._idx().find(q)
        if occ is not None:
            return occ
        for index in self._other_indexes():
            occ = index.find(q)
            if occ is not None:
                return occ
        return None

    def _other_indexes(self) -> tuple[_Index, ...]:
        """The indexes of the question, the allowed numbers and the anchors, in that order (the
        question's parsed here, on the first figure the context does not hold as written)."""
        indexes = self._indexes
        if indexes is None:
            question = _question_index(self._question, self._question_scan())
            indexes = self._indexes = (question, *self._pending)
        return indexes

    def _question_scan(self) -> Scan:
        """The question's figures, years and identifiers (scanned once, on the first need)."""
        if self._question_sc is None:
            self._question_sc = scan(self._question)
        return self._question_sc

    def _operands_stated(self, sc: Scan, traces: Sequence[QuantityTrace]) -> Iterator[Finding]:
        """A finding for the answer's figure found in the context as one of the figures the
        question averages, where their average does not give it
        (:meth:`GroundingContext.stated_operand`): ``What is the average X for 2018 and
        2019?`` answered with 2018's figure alone. Only for an answer of one figure (years,
        counts and the question's own figures aside): working shows the operands on its way
        to the result. Traced as found; the finding says why it is no answer."""
        if not self._asks_mean():
            return
        figures = [
            n
            for n, q in enumerate(sc.quantities)
            if q.kind == "number"
            and not sc.meta[n][3] & F_YEAR
            and traces[n].rule != "constant"  # "the three years"
        ]
        if not figures or len(figures) > _OPERAND_FIGURES:
            return
        if len(figures) > 1:
            # the question's own figures aside ("the 2-year period", "after more than one
            # year"): its index, built once per checker
            own = self._other_indexes()[0]
            figures = [n for n in figures if own.find(sc.quantities[n]) is None]
        if len(figures) != 1 or traces[figures[0]].source != "context":
            return
        n = figures[0]
        q = sc.quantities[n]
        target = _target(q, sc.meta[n])
        hint = self._question_hint() if target is not None else None
        found = traces[n].matched_text or ""
        stated = self.context.stated_operand(target, hint, found) if target and hint else None
        if stated is not None:
            yield Finding(
                kind="ungrounded_number",
                message=(
                    f'number "{q.text}" is a figure the question names ("{stated.text}"), but '
                    "the question asks for the average of the figures it names, which is not "
                    "it: the answer states an operand, not the result"
                ),
                subject=q.text,
                span=q.span,
                evidence=f'"{stated.text}" in the context',
            )

    def _other_periods(self, sc: Scan, traces: Sequence[QuantityTrace]) -> Iterator[Finding]:
        """A finding for an amount the answer writes as a rate (``$9.99 per year``) found in
        the context as written where every occurrence of it states another period (``$9.99
        per month``; ``$5 per day`` for ``$5 a month``, though days and months convert into
        none another): the amount stands there, the rate does not. An occurrence with no
        period, or with the answer's, keeps it grounded."""
        text = sc.norm.text
        for n, q in enumerate(sc.quantities):
            if (
                traces[n].source != "context"
                or q.dimension is None
                or not q.dimension.startswith("currency-")
                or (said := rate_period(text, sc.norm_spans[n][1])) is None
            ):
                continue
            stated = self._periods_stated(q.dimension, q.base_value)
            if stated and said[0] not in stated:
                other = f"{traces[n].matched_text} {min(stated.values())}"
                yield _other_period_finding(sc, n, said[1], other)

    def _counted_otherwise(self, sc: Scan, traces: Sequence[QuantityTrace]) -> Iterator[Finding]:
        """A finding for a count the answer writes before a noun (``3 USB ports``), found in
        the context as written only where it counts something else, while the context counts
        that noun otherwise (``2 USB ports``, and ``3 speakers``: the figure found counts another
        noun; a table's cell counts none, and is left alone): the number stands there, the
        count does not. A count the context gives the noun too, or the sum of
        its counts of it, or the difference of two (``12 stores`` and ``15 stores``: 3 more),
        keeps it grounded; so do nouns whose next words differ (``2 USB ports``, ``3 USB
        cables``). A count found as the same noun's, written as a rate over another period than
        every such count of the context (``5 visits per year`` for ``5 visits per month``), is a
        finding too (:func:`_count_over_another_period`)."""
        text = sc.norm.text
        for n, q in enumerate(sc.quantities):
            tr = traces[n]
            if (
                (at := _placed_as_written(tr)) is None
                or not _a_count(q, sc.meta[n])
                or (said := _noun_counted(text, sc.norm_spans[n][1])) is None
                # the figure found counts another noun ("3 speakers"; not a table's cell), read
                # where it stands: the context is parsed whole only then
                or (found := self._counted_at(*at) or _in_its_unit(tr)) is None
            ):
                continue
            same = found[0] == said[0]
            period = rate_period(text, said[2]) if same else None
            if same and (period is None or period[0] == found[2]):
                continue  # the same noun over the same period: the count found is the answer's
            counts = [
                c
                for c in self.context.counts_of(said[0])  # the context parsed whole: rare
                if said[1] is None or c[1] is None or c[1] == said[1]
            ]
            if period is not None:
                finding = _count_over_another_period(sc, n, period, counts)
            else:
                finding = _count_of_another_noun(sc, n, said, counts, found[1])
            if finding is not None:
                yield finding

    def _other_rows(self, sc: Scan, traces: Sequence[QuantityTrace]) -> Iterator[Finding]:
        """A finding for a figure found as written in a table's row (cells the context marks:
        pipes, tabs, HTML), written once in the context, where the answer's words around it
        name another row of that table and its sentence nothing of the figure's own row
        (:func:`named_other_row`): ``415 étudiants se sont inscrits en licence de psychologie``
        where 415 is computer science's row and psychology's holds another figure; or, naming
        no other row, names beside it the year of another column and nowhere its own column's
        (:func:`named_other_year`: ``Operating income was $1,402 million in FY2024`` for a
        cell of the FY2023 column). A change the answer states (``rises 3%``) is not read: a
        table states a row's change in a row of its own. Read from the lines of the one table
        the figure stands in (:meth:`GroundingContext.table_rows`): the context is not parsed
        whole for it."""
        text = sc.norm.text
        worded: bool | None = None  # whether the answer has a word that may name a row at all
        for n, q in enumerate(sc.quantities):
            tr = traces[n]
            if (
                (at := _placed_as_written(tr)) is None
                or q.kind != "number"  # a date names its own column, a year is no cell's
                or sc.meta[n][3] & F_YEAR
                or not self.context.marks_cells(at[0])
                or not (worded := bool(row_words(text)) if worded is None else worded)
                or (not (said := answer_words(sc, n)).part_words and not said.near_years)
                # a change the answer states ("base rent rises 3%") is its row's change, which
                # a table states in a row of its own ("Annual escalation | 3%")
                or stated_trend(text, *sc.norm_spans[n])
                or (table := self.context.table_rows(*at)) is None
            ):
                continue  # (words beside the figure first: most figures have none)
            row = named_other_row(table, said, self._question.lower())
            year = named_other_year(table, said, self._question) if row is None else None
            needle = needle_of(text[slice(*sc.norm_spans[n])])
            if (row is None and year is None) or needle is None:
                continue
            if not self.context.written_once(needle):
                continue
            yield _other_row_finding(q, table, tr.matched_text or q.text, row, year)

    def _counted_at(
        self, passage: int, span: tuple[int, int]
    ) -> tuple[str, str, Interval | None] | None:
        """The noun the context's figure at ``span`` of passage ``passage`` counts, the figure
        with its noun as written (``3 speakers``), and the period after the noun (``5 visits
        per month``; ``None``: none); ``None`` where no noun follows it (a table's cell, ``3
        of``)."""
        text = self.context.passages[passage]
        window = text[span[1] : span[1] + _NOUN_WINDOW].lower()
        if (frequency := rate_period(window, 0)) is not None:  # "twice daily": no noun's count
            return "", text[span[0] : span[1] + frequency[1]], None
        said = counted_phrase(window, 0)  # "3 times a day" is the count of no tablets either
        if said is None:
            return None
        period = rate_period(window, said[2])
        return said[0], text[span[0] : span[1] + said[2]], None if period is None else period[0]

    def _periods_stated(self, dimension: str, value: Fraction) -> dict[Interval, str] | None:
        """The periods after every occurrence of an amount in the context (of currency
        ``dimension``, of ``value``), each with its words (``per month``), or ``None`` when one
        states none."""
        out: dict[Interval, str] = {}
        for cq, stated, words in self._amounts(dimension):
            if cq.base_value == value:
                if stated is None:
                    return None
                out.setdefault(stated, words)
        return out

    def _asks_mean(self) -> bool:
        """Whether the question asks for an average of two or more years (read once)."""
        if self._asks is None:
            self._asks = asks_mean(self._question)
        return self._asks

    def _ungrounded(self, q: Quantity) -> Finding:
        key = (q.kind, q.dimension, q.value, q.base_value)
        evidence = self._evidence.get(key)
        if evidence is None:
            evidence = self.context.nearest_evidence(q)
            if len(self._evidence) >= _MEMO_MAX:
                self._evidence.clear()
            self._evidence[key] = evidence
        return Finding(
            kind="ungrounded_number",
            message=(
                f'number "{q.text}" ({q.describe()}) is not in the context, the question or the '
                "allowed numbers"
            ),
            subject=q.text,
            span=q.span,
            evidence=evidence,
        )


def _period_factor(stated: Interval | None, said: Interval) -> Fraction | None:
    """What a rate over ``stated`` is multiplied by to be one over ``said`` (``12``: a month to
    a year), inside one family of periods (days and weeks; months, quarters and years);
    ``None`` for no period, the same one, or another family."""
    if stated is None or stated[0] != said[0] or stated[1] == said[1]:
        return None
    return said[1] / stated[1]


def _same_rate(q: Quantity, written: str, factor: Fraction) -> str:
    """The derivation of ``q`` from the context's rate ``written`` over another period."""
    by = f"× {factor}" if factor > 1 else f"/ {1 / factor}"
    return f"{q.text} = {written} {by}: the same rate over another period"


_Count = tuple[Fraction, str | None, str, Interval | None]
"""A count of a noun in the context (:meth:`GroundingContext.counts_of`): its value, the word
after the noun (``None``: none that names a thing), the text as written (``2 USB ports``, ``5
visits per month``) and the period it is a rate over (``None``: none)."""


def _noun_counted(text: str, end: int) -> tuple[str, str | None, int] | None:
    """:func:`counted_phrase` after a figure ending at ``end`` of ``text`` (normalised), but
    not a frequency (``three times daily``, ``twice a week``: a period or ``times`` after the
    figure counts no noun)."""
    said = counted_phrase(text, end)
    if said is None or said[0] in _FREQUENCY_WORDS or rate_period(text, end) is not None:
        return None
    return said


def _in_its_unit(tr: QuantityTrace) -> tuple[str, str, None] | None:
    """What a context figure in a unit counts (``1212515 sqft``: square feet), as
    :meth:`GroundingChecker._counted_at` names a noun: an answer's count of a noun found as such
    a figure (``1212515 stores``) counts another thing. ``None`` for a figure without one."""
    found = tr.matched_text
    if found is None or not any(ch.isalpha() for ch in found):
        return None
    read = scan(found).quantities  # the figure alone, as its context reads it
    unit = read[0].unit if len(read) == 1 else None
    return None if unit is None else (unit, found, None)


def _count_of_another_noun(
    sc: Scan, n: int, said: tuple[str, str | None, int], counts: list[_Count], found: str
) -> Finding | None:
    """The finding of :meth:`GroundingChecker._counted_otherwise` for the answer's count ``n``
    of the noun ``said``, found as the count of another noun (``found``, as written), where
    the context counts the answer's noun otherwise (``counts``)."""
    q = sc.quantities[n]
    values = {c[0] for c in counts}
    if not values or q.value in values or q.value in _sums_and_differences(values):
        return None
    written = _written(sc, sc.norm_spans[n][1], said[2])
    return _claim_finding(q, f'counts "{written}"', counts[0][2], found)


def _count_over_another_period(
    sc: Scan, n: int, period: tuple[Interval, int], counts: list[_Count]
) -> Finding | None:
    """The finding of :meth:`GroundingChecker._counted_otherwise` for the answer's count ``n``
    of a noun written as a rate over ``period`` (``5 visits per year``: the period and where
    its words end) where every count of that number of the noun in the context (``counts``) is
    a rate over another period (``5 visits per month``); one with no period, or with the
    answer's, keeps it grounded."""
    q = sc.quantities[n]
    same = [c for c in counts if c[0] == q.value]
    if not same or any(c[3] in (None, period[0]) for c in same):
        return None
    return _other_period_finding(sc, n, period[1], same[0][2])


def _other_period_finding(sc: Scan, n: int, end: int, stated: str) -> Finding:
    """The one finding for an amount or a count the answer's figure ``n`` writes as a rate,
    its period's words ending at ``end``, where the context ``stated`` it over another period
    only (:meth:`GroundingChecker._other_periods`, :func:`_count_over_another_period`):
    ``number "$9.99" ("$9.99 per year") is a rate over another period: the context states
    "$9.99 per month"``."""
    written = _written(sc, sc.norm_spans[n][0], end)
    return _claim_finding(sc.quantities[n], f'("{written}") is a rate over another period', stated)


def _placed_as_written(tr: QuantityTrace) -> tuple[int, tuple[int, int]] | None:
    """Where ``tr`` found its figure in the context as written (its passage and span, which
    the passes after tracing read around); ``None``: not so found."""
    if tr.source != "context" or tr.rule != "as_written":
        return None
    if tr.passage is None or tr.span is None:
        return None
    return tr.passage, tr.span


def _per_quantity(sc: Scan, traces: Sequence[QuantityTrace]) -> tuple[QuantityTrace, ...]:
    """The trace of each quantity of ``sc``, in its order: ``traces`` without those of the
    answer's identifiers (:meth:`GroundingChecker._trace_identifiers` puts them in answer
    order among the others: ``3Q23``'s ``23``), which the passes that read ``traces[n]`` for
    ``sc.quantities[n]`` must not take for a quantity's."""
    if len(traces) == len(sc.quantities) and all(
        tr.quantity.span == q.span for tr, q in zip(traces, sc.quantities, strict=True)
    ):
        return tuple(traces)
    by_span = {tr.quantity.span: tr for tr in traces}
    return tuple(by_span.get(q.span) or QuantityTrace(q, None) for q in sc.quantities)


def _other_row_finding(
    q: Quantity, table: TableRows, found: str, row: Row | None, year: str | None
) -> Finding:
    """The finding of :meth:`GroundingChecker._other_rows`: ``number "415" stands in the row
    "Informatique", not in the row "Licence de psychologie" the answer names: the context
    states "Informatique: 415"``; for a column, ``... stands in the column of 2023, not of 2024
    the answer names ...``."""
    own = table.written(table.own)
    if row is not None:
        claim = f'stands in the row "{own}", not in the row "{table.written(row)}" the answer names'
    else:
        years = "/".join(sorted(table.heading()[0]))
        claim = f"stands in the column of {years}, not of {year} the answer names"
    return _claim_finding(q, claim, f"{own}: {found}")


def _written(sc: Scan, start: int, end: int) -> str:
    """The text of ``sc`` at its normalised span ``start:end``, as written."""
    o0, o1 = sc.norm.to_original(start, end)
    return sc.norm.original[o0:o1].strip()


def _claim_finding(q: Quantity, claim: str, stated: str, found: str | None = None) -> Finding:
    """An ``ungrounded_number`` finding on ``q``: what it ``claim``s, what the context states,
    and (``found``) what it writes where the number stands."""
    where = f'; it writes "{found}"' if found is not None else ""
    return Finding(
        kind="ungrounded_number",
        message=f'number "{q.text}" {claim}: the context states "{stated}"{where}',
        subject=q.text,
        span=q.span,
        evidence=f'"{stated}" in the context',
    )


_FREQUENCY_WORDS = frozenset(
    w.removesuffix("s") for w in grouped("figure_context", "frequency_words")
)
"""Words after a figure that make it a frequency, no count of a noun (``3 times``), singular as
:func:`counted_phrase` reads them."""
_NOUN_WINDOW = 48
"""Characters after a context's figure read for the noun it counts (two words)."""
_LIST_GAP = re.compile(r",? (?:and|or|to) |, |[ ]?[-/][ ]?")
"""Between two figures of a list or a range that count one noun, written after the last
(``187,200,539 and 186,880,413 shares``, ``2, 3 or 4 ports``, ``10-12 days``)."""


def _a_count(q: Quantity, meta: Meta) -> bool:
    """Whether ``q`` is a bare whole count (no unit, currency or percentage; no year)."""
    return (
        q.kind == "number"
        and q.dimension is None
        and q.unit is None
        and q.value > 0
        and q.value.denominator == 1
        and not meta[3] & F_YEAR
    )


def _sums_and_differences(values: set[Fraction]) -> set[Fraction]:
    """The sum of ``values`` and the difference of any two: what an answer may count of a
    noun the context counts several times (``3 more stores`` for ``12`` and ``15``)."""
    out = {sum(values, Fraction(0))}
    out.update(abs(a - b) for a in values for b in values if a != b)
    return out


_OPERAND_FIGURES = 3
"""Most figures (years and counts aside) an answer may hold for
:meth:`GroundingChecker._operands_stated` to read it: after the question's own are set aside,
one must remain."""

_CHANGE_HEDGE = rf"(?:(?:{alternation(merged('derivation.change_hedges'))})\s+)?"
_FROM_BEFORE = lazy(
    rf"(?<![\w])(?:{alternation(merged('derivation.change_from')) or '(?!)'})\s+{_CHANGE_HEDGE}\Z"
)
"""A change's first figure follows (the lexicons' ``derivation.change_from``: ``from``,
``van``), maybe hedged (``change_hedges``)."""
_TO_BETWEEN = lazy(
    r"(?:[^.;\n]|\.(?=\d)){0,30}?"
    rf"(?<![\w])(?:{alternation(merged('derivation.change_to')) or '(?!)'})\s+{_CHANGE_HEDGE}\Z"
)
"""What stands between a change's two figures: a word of ``derivation.change_to`` (``to``,
``naar``) within 30 characters of the first, maybe hedged."""


_NO_CONTEXT = Finding(
    kind="no_context",
    message=(
        "the context is empty (no passage with text), but the answer asserts something instead "
        "of abstaining: nothing can ground it"
    ),
    subject="",
    span=None,
    evidence=None,
)
"""The finding of an answer that does not abstain against an empty context."""


def _from_to(sc: Scan, indices: Sequence[int]) -> frozenset[tuple[int, int]]:
    """The pairs of ``indices`` (positions in the list) that the answer writes as a change
    ``from A to B`` (``went from 3.3 in 2018 to 3.4``): consecutive operands only."""
    text = sc.norm.text
    pairs = []
    for k in range(len(indices) - 1):
        a_start, a_end = sc.norm_spans[indices[k]]
        b_start = sc.norm_spans[indices[k + 1]][0]
        if (
            b_start - a_end <= 40
            and _FROM_BEFORE().search(text, max(0, a_start - 20), a_start) is not None
            and _TO_BETWEEN().fullmatch(text, a_end, b_start) is not None
        ):
            pairs.append((k, k + 1))
    return frozenset(pairs)


_RESTATING = frozenset({"", "or", "i.e.", "="})
"""What may stand between a figure and its restatement in another form (besides blanks, commas
and brackets): ``0.01424 or 1.424%``, ``0.1855 (18.55%)``, working's ``... - 1 = 0.1 = 10%``."""


def _restated_form(q: Quantity, sc: Scan, n: int, traced: Sequence[bool]) -> str | None:
    """``q``, a percentage, as the traced figure right before it written as a share, or the
    other way round (rule ``restated``: ``0.01424 or 1.424%`` is 0.01424 × 100, exactly),
    with the derivation; else ``None``."""
    if n == 0 or not traced[n - 1]:
        return None
    prev = sc.quantities[n - 1]
    if prev.kind != "number" or (prev.unit == "%") == (q.unit == "%"):
        return None
    if q.unit == "%" and prev.unit is None and q.value != prev.value * 100:
        return None
    if prev.unit == "%" and q.unit is None and q.value * 100 != prev.value:
        return None
    if q.unit not in ("%", None) or prev.unit not in ("%", None):
        return None
    if sc.meta and (sc.meta[n][0] != 1 or sc.meta[n - 1][0] != 1):
        return None  # a scale word is no share's restatement ("0% = $0 million")
    # no more precise than the figure it restates ("0.54 or 54.00%" claims two digits more)
    share, percent = (sc.meta[n - 1], sc.meta[n]) if q.unit == "%" else (sc.meta[n], sc.meta[n - 1])
    if percent[1] > max(0, share[1] - 2):
        return None
    between = sc.norm.text[sc.norm_spans[n - 1][1] : sc.norm_spans[n][0]]
    if between.strip(" \t,()") not in _RESTATING:
        return None
    return f"{q.text} = {prev.text}{' × 100' if q.unit == '%' else ' / 100'} (restated)"


def _from_shown_working(
    q: Quantity,
    meta: Meta,
    sc: Scan,
    n: int,
    traced: Sequence[bool],
    shapes: WorkingShapes | None = None,
    scale_of: Callable[[Sequence[int]], int] | None = None,
) -> str | None:
    """``q`` as the result of the expression the answer writes before its ``=`` (``(235,514
    × 2.92) + (81,794 × 3.59) = 981,341.34``), every figure of which was traced: its value at
    the precision the answer writes, also when the working leaves out the result's scale word
    (``123 + 344 = $467 million``) or its ``× 100`` (``(a - b) / b = 30.8%``), or, for a result
    with a scale word of its own, when the working's figures are in the scale the context
    states for them (``scale_of``, given the indexes of the working's figures: ``(4,411 +
    4,044) / 2 = 4.23 billion`` for two cells under ``(in millions)``), or, where it states
    none, in a smaller scale than the result's (:func:`_smaller_scales`, as a figure may be).

    Returns the derivation, ``""`` when the expression has another value (the result does not
    follow from the working shown), or ``None`` when there is no such expression."""
    text = sc.norm.text
    eq = text.rfind("=", 0, sc.norm_spans[n][0])
    if eq < 0:
        return None
    readings = shown_working(text, eq, _working_figures(sc, range(n), eq, traced), shapes)
    if not readings:
        return None
    how = next(
        (how for start, values in readings if (how := _result_of(q, meta, sc, values, start, eq))),
        "",
    )
    if how or scale_of is None or meta[0] == 1 or not meta[3] & F_OWN_SCALE or not q.value:
        return how  # a zero rounds every small result: grounded only by a zero (_rounded)
    for start, values in readings:
        stated = scale_of([k for k in range(n) if start <= sc.norm_spans[k][0] < eq])
        # no scale stated: the working may be in a smaller scale, as a cell may (_smaller_scales)
        for scale in (stated,) if stated != 0 else _smaller_scales(q, meta):
            if scale != 1 and (how := _result_of(q, meta, sc, values, start, eq, scale)):
                return how
    return ""


def _from_working_after(
    q: Quantity, meta: Meta, sc: Scan, n: int, traced: Sequence[bool]
) -> str | None:
    """``q`` as the result of the arithmetic the answer writes in brackets right after it
    (``155.5% ($7,396 million / $4,756 million)``, ``$7,396 million ($7,838 million - $442
    million)``; a word may stand between, what the figure counts: ``103 million trips (24.6 +
    ...)``), every figure of which was traced: as :func:`_from_shown_working`, the bracket
    holding the whole expression and nothing else. Returns the derivation, ``""`` when the
    expression has another value, or ``None`` when no such bracket follows."""
    text = sc.norm.text
    end = sc.norm_spans[n][1]
    noun = _NOUN_BEFORE_BRACKET.match(text, end)  # "103 million trips (24.6 + ...)"
    opening = noun.end() if noun else end
    while opening < len(text) and text[opening] in " \t":
        opening += 1
    if not text.startswith("(", opening):
        return None
    closing = _closing_bracket(text, opening)
    if closing < 0:
        return None
    inside = range(n + 1, bisect_left(sc.norm_spans, (closing, 0), n + 1))
    if len(inside) < 2 or sc.norm_spans[inside[0]][0] <= opening:
        return None
    readings = shown_working(text, closing + 1, _working_figures(sc, inside, closing, traced))
    values = next((v for start, v in readings if start == opening), None)
    if values is None:
        values = _share_working(sc, inside, opening, closing, traced)
        if values is None:
            return None
    return _result_of(q, meta, sc, values, opening + 1, closing)


_SHARE_LINK = lazy(
    lambda: (
        r"[ \t]*(?:"
        + (alternation(merged("derivation.share_links"), space=r"[ \t]+") or "(?!)")
        + r")[ \t]*"
    )
)
"""Between a percentage and its whole in working: a word of the lexicons'
``derivation.share_links`` (``of``, ``von``, ``de``; ``d'`` glued)."""


def _share_working(
    sc: Scan, inside: range, opening: int, closing: int, traced: Sequence[bool]
) -> list[Fraction] | None:
    """The value of a bracket from ``opening`` to ``closing`` that holds a percentage of a
    figure and nothing else (``(41% of 186)``: 76.26), both traced, or ``None``."""
    if len(inside) != 2 or not all(traced[k] for k in inside):
        return None
    (pa, pb), (wa, wb) = (sc.norm_spans[k] for k in inside)
    share, whole = (sc.quantities[k] for k in inside)
    text = sc.norm.text
    if (
        share.unit != "%"
        or whole.unit == "%"
        or text[opening + 1 : pa].strip()
        or text[wb:closing].strip()
        or _SHARE_LINK().fullmatch(text, pb, wa) is None
    ):
        return None
    return [share.value / 100 * whole.value]


def _trace_own_working(
    sc: Scan, meta_of: Sequence[Meta], out: list[QuantityTrace], traced: list[bool]
) -> None:
    """What the answer shows decides its figures, whatever other figures gave them: its working
    in brackets after a figure (:func:`_trace_working_after`) and a percentage restating a share
    it states (:func:`_trace_restated_shares`)."""
    _trace_working_after(sc, meta_of, out, traced)
    if sc.quantities and "%" in sc.norm.text:
        _trace_restated_shares(sc, meta_of, out, traced)


_RESTATED_SHARE = lazy(
    lambda: (
        r"[ \t]+(?:[\w'‐–-]+[ \t]+){0,5}?(?:[\w'‐–-]+)?[ \t]*[,(][ \t]*"
        r"(?:(?:" + alternation(merged("approximations"), space=r"[ \t]+") + r")[ \t]+)?"
    )
)
"""Between ``A of B`` and the percentage that restates it: up to six words or years (what
``B`` counts, when), a comma or an opening bracket, and an approximation word maybe (``48 of
59 free throws in 2021-22, about 81%``, ``12 of 40 patients (30%)``)."""


_YEAR_VALUES = (Fraction(1900), Fraction(2099))
"""The values a figure may have as a year (``22`` of ``2021-22`` reads 2022)."""


def _trace_restated_shares(
    sc: Scan, meta_of: Sequence[Meta], out: list[QuantityTrace], traced: list[bool]
) -> None:
    """Trace in ``out`` each percentage of ``sc`` that restates the share ``A of B`` written
    right before it (``She made 48 of 59 free throws, about 81%``: 48 / 59 = 81.4%; a word of
    the lexicons' ``derivation.share_links`` between ``A`` and ``B``, both traced plain
    figures, ``A`` the smaller) as that share (rule ``ratio``), at the precision it is written
    or stated as approximate; a percentage the share does not give is untraced, whatever other
    figures gave it (the answer's own share decides, as its working does)."""
    qs, spans, text = sc.quantities, sc.norm_spans, sc.norm.text
    # years are words here (a range's second year too: "2021-22" reads 2022)
    figures = [
        k
        for k in range(len(qs))
        if not meta_of[k][3] & F_YEAR and not _YEAR_VALUES[0] <= qs[k].value <= _YEAR_VALUES[1]
    ]
    for i in range(2, len(figures)):
        ka, kb, n = figures[i - 2 : i + 1]
        q, a, b = qs[n], qs[ka], qs[kb]
        if (
            q.unit != "%"
            or not (traced[ka] and traced[kb])
            or a.unit is not None
            or b.unit is not None
            or not 0 < a.value < b.value
            or (traced[n] and out[n].source == "context")
            or _SHARE_LINK().fullmatch(text, spans[ka][1], spans[kb][0]) is None
            or _RESTATED_SHARE().fullmatch(text, spans[kb][1], spans[n][0]) is None
        ):
            continue
        share = float(a.value / b.value) * 100.0
        if abs(share - float(q.value)) <= rounding_tolerance(_stated_half(q, meta_of[n])):
            how = f"{q.text} = {a.text} / {b.text}"
            out[n] = QuantityTrace(q, "derived", derivation=how, rule="ratio")
            traced[n] = True
        elif traced[n]:
            out[n] = QuantityTrace(q, None)
            traced[n] = False


def _trace_working_after(
    sc: Scan, meta_of: Sequence[Meta], out: list[QuantityTrace], traced: list[bool]
) -> None:
    """Trace in ``out`` (one trace per quantity of ``sc``, in order; ``meta_of``: their meta)
    each figure not traced, or derived from the context's figures, whose working follows it in
    brackets (:func:`_from_working_after`), left to right, once every other figure was traced:
    the working's figures stand after it. That working decides: a figure it does not give is
    untraced again, whatever other figures of the context gave it (``Around 67 students (41% of
    186)``: 76.26, though a mean of three cells of a row gives 67)."""
    for n, q in enumerate(sc.quantities):
        if q.kind != "number" or (traced[n] and out[n].source != "derived"):
            continue
        how = _from_working_after(q, meta_of[n], sc, n, traced)
        if how:
            out[n] = QuantityTrace(q, "derived", derivation=how, rule="shown_working")
            traced[n] = True
        elif how is not None and traced[n] and out[n].rule != "shown_working":
            out[n] = QuantityTrace(q, None)
            traced[n] = False


def _trace_stated_operands(
    sc: Scan, meta_of: Sequence[Meta], out: list[QuantityTrace], traced: list[bool]
) -> None:
    """Trace in ``out`` each figure not traced that one operation of two figures its sentence
    states and that were traced gives, wherever they stand in it (:func:`explain_from`): the
    operands after the result too (``$15,190 a year (2,450 sq ft × $6.20)``, ``26.2 kWh per day
    on average (812 kWh over 31 days)``, ``7.2 percentage points (21.3% with placebo vs
    14.1%)``), which :meth:`GroundingChecker._derive`, reading the answer left to right, has not
    seen yet; in the order written, or the other for a magnitude of two operands after it
    (:func:`_stated_operation`). A measure is compared in the unit it is written in, as its
    operands are, at the precision written, from two measures whose units the operation makes
    its unit (:func:`_operation_unit`: ``8 hours`` is no ``250 / 30`` of ``30-50 mL/min`` and
    ``250 mg``). Never the result nor an operand of working the answer writes (``a - b = c``:
    that working decides)."""
    for n, q in enumerate(sc.quantities):
        meta = meta_of[n]
        # the result of working the answer writes ("a - b = c") is that working's or none, and
        # an operand of working is no result
        if traced[n] or q.kind != "number" or meta[3] & (F_YEAR | F_RESULT | F_OPERAND):
            continue
        if _is_measure(q) and q.unit != "%":
            found = _stated_measure(sc, meta_of, out, traced, n)
        else:  # money and percentages at the precision written too, "about" or not
            target = _target(q, (*meta[:3], meta[3] & ~F_APPROX) if q.dimension else meta)
            operands = [] if target is None else _operands_near(sc, meta_of, out, traced, n, False)
            if target is None or len(operands) < 2:  # cheap first: the sentence read with two
                continue
            found = _stated_operation(sc, _in_sentence(sc, n, operands), target, n)
        if found is not None:
            out[n] = QuantityTrace(sc.quantities[n], "derived", derivation=found[0], rule=found[1])
            traced[n] = True


def _stated_measure(
    sc: Scan,
    meta_of: Sequence[Meta],
    out: Sequence[QuantityTrace],
    traced: Sequence[bool],
    n: int,
) -> Derivation | None:
    """The ``n``-th quantity of ``sc``, a measure, compared in the unit it is written in, at the
    precision written or the one an approximation states (``environ 23 680 kWh (287 kWh/m² ×
    82,5 m²)``: to the ten): from two measures its sentence states whose operation gives its
    unit (:func:`_stated_measure_operation`), else as the mean or the sum of a run of figures
    without a unit it states (:func:`_bare_run`; a temperature only so: no operation of two
    temperatures is an amount of heat)."""
    q, meta = sc.quantities[n], meta_of[n]
    if q.range_role is not None:
        return None
    half = _stated_half(q, meta) if q.value else 0.0
    target = Target(float(q.value), half, 1.0, "plain", meta[2], q.text)
    if _target(q, (*meta[:3], meta[3] & ~F_APPROX)) is not None:  # no temperature
        operands = _operands_near(sc, meta_of, out, traced, n, True)
        if len(operands) >= 2:
            operands = _in_sentence(sc, n, operands)
            found = _stated_measure_operation(sc, operands, target, q.unit, n)
            if found is not None:
                return found
    return _bare_run(sc, meta_of, out, traced, n, target)


def _bare_run(
    sc: Scan,
    meta_of: Sequence[Meta],
    out: Sequence[QuantityTrace],
    traced: Sequence[bool],
    n: int,
    target: Target,
) -> Derivation | None:
    """``target``, the ``n``-th quantity of ``sc`` (a measure, compared in the unit written), as
    the mean or the sum of three or more consecutive figures without a unit that its sentence
    states and that were traced (:func:`explain_run`): cells of a column whose heading names
    the unit (``(24,1 + 27,8 + 27,3) / 3, la temperatura media è di circa 26,4 °C`` for a
    column ``Temp. media (°C)``). Two such figures make no measure (a pair explains too much)."""
    quantities = sc.quantities
    bare = [
        k
        for k in _operands_near(sc, meta_of, out, traced, n, measures=False)
        if quantities[k].dimension is None
        and quantities[k].unit is None
        and not meta_of[k][3] & F_CONSTANT
    ]
    if len(bare) < 3:  # cheap first: the sentence is read only with three around
        return None
    bare = _in_sentence(sc, n, bare)
    if len(bare) < 3:
        return None
    values = [(float(quantities[k].value), quantities[k].text, False) for k in bare]
    return explain_run(values, target, shortest=3)


def _operands_near(
    sc: Scan,
    meta_of: Sequence[Meta],
    out: Sequence[QuantityTrace],
    traced: Sequence[bool],
    n: int,
    measures: bool,
) -> list[int]:
    """The answer's figures that may be operands of its ``n``-th (:func:`_trace_stated_operands`):
    traced numbers, no year nor constant, within :data:`SENTENCE_REACH` of it (``measures``:
    measures only)."""
    start, end = sc.norm_spans[n]
    lo, hi = start - SENTENCE_REACH, end + SENTENCE_REACH
    return [
        k
        for k, x in enumerate(sc.quantities)
        if k != n
        and traced[k]
        and x.kind == "number"
        and lo <= sc.norm_spans[k][0] < hi
        and out[k].rule not in _NO_OPERAND_RULES
        and not meta_of[k][3] & F_YEAR
        and (not measures or _is_measure(x))
    ]


def _stated_operation(sc: Scan, operands: list[int], target: Target, n: int) -> Derivation | None:
    """``target``, the ``n``-th quantity of ``sc``, from ``operands`` (indexes of ``sc``'s
    quantities, one after it at least) by :func:`explain_from`, in the order written or, for a
    positive target and two operands after it, the other (a bracket after a result names its
    operands in no fixed order: ``21.5 percentage points less frequent (7.0% vs 28.5%)``; a
    negative result follows the order written: ``-21.5`` is ``7.0 - 28.5``; and operands before
    it are the order the answer states a change in: ``it was 44.1 compared with 56.7, a change
    of 12.6`` is a sign flipped)."""
    after = [k for k in operands if k > n]
    if len(operands) < 2 or not after:  # those before it alone: GroundingChecker._derive's
        return None
    values = [
        (float(x.value), x.text, x.unit == "%") for x in map(sc.quantities.__getitem__, operands)
    ]
    from_to = _from_to(sc, operands)  # "from 3.3 to 3.4": the change is 3.4 - 3.3
    found = explain_from(values, target, from_to)
    if found is None and len(after) >= 2 and target.value > 0 and not _from_to(sc, after):
        # a magnitude of two operands after it, in the other order
        found = explain_from([values[operands.index(k)] for k in reversed(after)], target)
    return found


def _stated_measure_operation(
    sc: Scan, operands: list[int], target: Target, unit: str | None, n: int
) -> Derivation | None:
    """A measure ``target`` (the ``n``-th quantity) in ``unit`` from two measures of
    ``operands`` whose operation gives that unit (:func:`_operation_unit`: their values are
    compared as written, so ``27 days`` is no ``25 days + 2 weeks``), in the order written or,
    as :func:`_stated_operation` reads them, the other for a magnitude of two after it."""
    quantities = sc.quantities
    measures = [k for k in operands if _is_measure(quantities[k])]
    # a gap the answer states ("8.1 µg/L below the 80 µg/L limit"): either order
    gap = target.value > 0 and compared_after(sc.norm.text, sc.norm_spans[n][1])
    for i in measures:
        for j in measures:
            # in the order written; the other only for a magnitude of two after it, or a gap
            if i == j or (i > j and (target.value <= 0 or j < n) and not gap):
                continue
            a, b = quantities[i], quantities[j]
            found = explain_from(
                [(float(a.value), a.text, False), (float(b.value), b.text, False)], target
            )
            if found is not None and _operation_unit(found[1], a.unit, b.unit) == unit:
                return found
    return None


def _operation_unit(rule: str, first: str | None, second: str | None) -> str | None:
    """The unit ``rule`` (``sum``, ``difference``, ``product``, ``ratio``) gives from measures
    in units ``first`` and ``second`` (``kwh`` / ``day``: ``kwh/day``; ``mg`` / ``mg/ml``:
    ``ml``; ``ml/h`` × ``h``: ``ml``), ``None`` where it gives none."""
    if first is None or second is None:
        return None
    if rule in ("sum", "difference"):
        return first if first == second else None
    top, _, bottom = second.partition("/")
    if rule == "ratio":
        if bottom:
            return bottom if first == top else None
        return f"{first}/{second}" if "/" not in first else None
    if rule == "product":
        for per, by in ((first, second), (second, first)):
            num, _, den = per.partition("/")
            if den and den == by:
                return num
    return None


def _is_measure(q: Quantity) -> bool:
    """Whether ``q`` is a measure in a unit (``812 kWh``, ``31 days``), not money nor a bare
    figure."""
    return q.dimension is not None and not q.dimension.startswith("currency-")


_NO_OPERAND_RULES = frozenset(("constant", "enumerated"))
"""The rules of figures that are no operand of the answer's arithmetic (``× 100``, a count of
the answer's own list)."""


def _trace_growth_years(
    sc: Scan, out: list[QuantityTrace], traced: list[bool], periods: Mapping[int, str]
) -> None:
    """Trace in ``out`` each number of years not traced (``the three-year CAGR``) that is the
    period of a growth rate the answer states, between the years of its figures' columns
    (``periods``: the derivations of such rates by their number of years; rule
    ``growth_rate``: ``^(1/3) - 1, the years between 2019 and 2022``). A period only the
    answer states is not traced by its own growth rate."""
    if not periods:
        return
    for n, q in enumerate(sc.quantities):
        if traced[n] or q.unit != "year" or q.value.denominator != 1:
            continue
        how = periods.get(q.value.numerator)
        if how is not None:
            out[n] = QuantityTrace(
                q, "derived", derivation=f"{q.text}: the period of {how}", rule="growth_rate"
            )
            traced[n] = True


def _closing_bracket(text: str, opening: int) -> int:
    """The offset of the ``)`` that closes the ``(`` at ``opening`` on its line, or -1."""
    depth = 0
    for i in range(opening, _line_end(text, opening)):
        ch = text[i]
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if not depth:
                return i
    return -1


_NOUN_BEFORE_BRACKET = re.compile(r"[ \t]+[^\W\d_]+(?=[ \t]*\()")
"""One word between a figure and the bracket of its working (what the figure counts)."""
_SUM_ONLY = re.compile(r"[\d\s.,'+\-$€£¥]*")
"""What a sum or a difference of figures holds between its first figure and its last: digits,
blanks, separators, plus and minus signs (normalised text writes every minus ``-``), currency
signs."""


def _working_figures(
    sc: Scan, indexes: range, stop: int, traced: Sequence[bool]
) -> list[tuple[int, int, Fraction, bool, bool, bool]]:
    """The figures of ``sc`` at ``indexes`` that end by ``stop``, as :func:`shown_working`
    reads them: ``(start, end, value, bracketed, traced, percent)``. A scale word written once,
    after the last figure of a sum or a difference, is the whole working's (``(24.6 + 25.1 +
    27.3 + 26.0 million)``: 26.0, as the others), as a working may leave out the result's."""
    out = []
    scales = []
    for k in indexes:
        x, (a, b), m = sc.quantities[k], sc.norm_spans[k], sc.meta[k]
        if b <= stop and x.kind == "number":
            out.append(
                (a, b, x.value, bool(m[3] & F_PAREN), k < len(traced) and traced[k], x.unit == "%")
            )
            scales.append(m[0])
    if (
        len(out) >= 2
        and scales[-1] != 1
        and all(s == 1 for s in scales[:-1])
        and _SUM_ONLY.fullmatch(sc.norm.text, out[0][0], out[-1][0])
    ):
        a, b, value, paren, done, percent = out[-1]
        out[-1] = (a, b, value / scales[-1], paren, done, percent)
    return out


def _result_of(
    q: Quantity,
    meta: Meta,
    sc: Scan,
    values: Sequence[Fraction],
    start: int,
    stop: int,
    scale: int = 0,
) -> str:
    """The derivation of ``q`` from working written from ``start`` to ``stop`` whose values
    are ``values``, at the precision ``q`` is written (see :func:`_from_shown_working`), or
    ``""``; with ``scale``, the working's values in that scale only."""
    result = float(q.value)
    mult = float(scale or meta[0])
    tol = rounding_tolerance(_precision(meta) / 2)
    # the working in the result's units, or without its scale word (then a zero result is
    # compared scaled only: "3.4 - 3.3 = 0.0 million" is 100,000 off, not 0.1)
    as_written = not scale and (result != 0.0 or mult == 1.0)
    for v in values:
        x = float(v)
        if (
            (as_written and gives(x, result, tol))
            or (mult != 1.0 and gives(x * mult, result, tol))
            or (q.unit == "%" and gives(x * 100.0, result, tol))
        ):
            a, b = sc.norm.to_original(start, stop)
            return f"{q.text} = {sc.norm.original[a:b].strip()}"
    return ""


def _check_anchor(
    ca: CompiledAnchor, canon: Canonical, words: frozenset[bytes], cues: list[re.Match[str]]
) -> Finding | None:
    value = ca.anchor.value
    negated_at: tuple[int, int] | None = None
    cue_text = cue_side = ""
    for m in ca.found(canon, words):
        cue = negation_cue(canon.text, m.start(), m.end(), cues) if cues else None
        if cue is None:
            return None
        if negated_at is None:
            negated_at = canon.to_original(m.start(), m.end())
            cue_text = cue.group()
            cue_side = "before" if cue.lastgroup == "after" else "after"
    if negated_at is not None:
        written = canon.scan.norm.original[negated_at[0] : negated_at[1]]
        return Finding(
            kind="negated_anchor",
            message=f'required fact "{value}" appears only under a negation ("{cue_text}")',
            subject=value,
            span=negated_at,
            evidence=f'written as "{written}" {cue_side} "{cue_text}" in the same clause',
        )
    n = len(ca.anchor.aliases)
    alts = f" nor any of its {n} accepted paraphrase{'s' if n != 1 else ''}" if n else ""
    return Finding(
        kind="missing_anchor",
        message=f'missing required fact "{value}"{alts}',
        subject=value,
        span=None,
        evidence=None,
    )


def check_grounding(
    answer: str,
    context: str | Sequence[str] | GroundingContext,
    *,
    question: str | None = None,
    anchors: Sequence[AnchorLike] | CompiledAnchors = (),
    answerable: bool | None = True,
    allowed_numbers: Sequence[str | int | float | Decimal | Fraction] = (),
    abstain_markers: Sequence[str] | None = None,
    derived: DerivedPolicy = "grounded",
) -> GroundingReport:
    """Check whether ``answer`` is grounded in ``context``.

    Args:
        answer: the system's answer.
        context: the retrieved context: a string, a list of passages, or a
            :class:`GroundingContext` from :func:`prepare_context`.
        question: the question; numbers it contains are traceable.
        anchors: facts a correct answer must contain: strings, ``{"value", "aliases"}`` mappings,
            :class:`hybridjudge.corpus.Anchor` objects, or a :class:`CompiledAnchors` from
            :func:`compile_anchors`. Matched on token boundaries after Unicode normalisation,
            quantities by value and unit (``"30 days"`` is in ``"thirty days"``).
        answerable: ``False``: the answer must abstain (else ``non_abstention``); ``True``: it
            must not (else ``over_abstention``); ``None``: abstention is reported, not judged.
        allowed_numbers: numbers (or quantities) the answer may introduce.
        abstain_markers: phrases that count as abstaining; ``None`` uses
            :data:`DEFAULT_ABSTAIN_MARKERS` (English, Chinese, Japanese, Korean, Thai, Spanish,
            French, German). To add rather than replace, pass
            ``(*DEFAULT_ABSTAIN_MARKERS, "my phrase")``.
        derived: a number the answer computes from context figures (``30.8%`` from 177,866 and
            135,987) is reported with its derivation (source ``derived``); ``"grounded"`` (the
            default) accepts it, ``"finding"`` also reports a ``derived_number`` finding.

    Returns:
        A :class:`GroundingReport`. Anchor and number checks run whatever the abstention, so
        ``"I don't know, but probably $499"`` still reports the untraceable ``$499``.

    Raises:
        GroundingTypeError: an argument has the wrong type (names the argument).
        GroundingInputError: an argument is unusable, e.g. a blank anchor.

    Nothing is cached between calls: to check many answers against one context, keep a
    :class:`GroundingChecker` (or a :func:`prepare_context` result) and reuse it.

    Examples:
        >>> r = check_grounding(
        ...     "You have 30 days; there is no restocking fee.",
        ...     "Refunds within thirty days. There is no restocking fee.",
        ...     anchors=["30 days", "restocking fee"],
        ... )
        >>> [(f.kind, f.subject) for f in r.findings]
        [('negated_anchor', 'restocking fee')]
    """
    checker = GroundingChecker(
        # parsed on first need: an answer without numbers never needs the context's figures
        context if isinstance(context, GroundingContext) else GroundingContext(context),
        question=question,
        anchors=anchors,
        answerable=answerable,
        allowed_numbers=allowed_numbers,
        abstain_markers=abstain_markers,
        derived=derived,
    )
    return checker.check(answer)
