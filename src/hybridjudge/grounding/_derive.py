"""Derived-number tracing: figures an answer computes from the context's figures.

An answer's number that the context does not contain may still be traceable: a difference of two
figures (``3,215.4 = 3,676.2 - 460.8``), a percent change, a ratio, a sum, a product, a share of
a total, a percentage-point difference or the mean of a short run of figures. This module
computes those derived figures once per context, vectorised with numpy, and looks an answer's
number up among them *at the precision the answer states* (``30.8%`` matches 30.7937...: the
answer rounds; it never needs float equality).

A search over every pair of figures would explain almost any number by chance, so operands are
paired only where a derivation is plausible: two figures of one table row, of one table column
(same block, at most :data:`COLUMN_SPAN` rows apart) or, in prose, at most :data:`PROSE_SPAN`
figures apart; at most :data:`MAX_PAIRS` pairs are kept (the closest first), so the search stays
bounded on a page with thousands of figures. An answer number with fewer than
:data:`MIN_SIGNIFICANT` significant digits is only traced to neighbouring figures (adjacent
cells, consecutive figures) or to the numbers the answer itself shows in its working. Two
percentages add up only as neighbouring cells, a column's two-figure mean needs adjacent rows, and
a derived value exactly halfway between two written values rounds away from zero (``41.5`` is
``42``, never ``41``): such ties would otherwise explain either neighbour.

Given a question, the figures it points at come first (:meth:`Figures.hint`): the table rows it
names by their labels, in the columns headed by the years it names, combined by the operations
it asks for ("average", "percentage of", "change", "difference") at any precision, a change
taken as the newer figure minus the older. When those figures give the answer's number with the
opposite sign, the number is not explained at all (a sign-flipped change is no reversed
difference). Accounting negatives are signed (``(709)`` is -709) in sums, differences, means and
percent changes; ratios and shares compare magnitudes, and the mean of a run of bracketed cells
is also taken by magnitude. Nothing is computed before an answer's number is not found as
written: the operands are gathered on first need and the index of derived values is built only
when the question's figures do not explain the number.

What a derivation may not explain:

* a percentage from a sum or difference of plain figures, except neighbouring cells of a table
  of percentages (one holding a ``%`` figure or a column headed ``%``): ``12% = 52 - 40`` of two
  counts is no percentage;
* a change against the direction the answer states in words (``fell``, ``1,862 fewer``; see
  :func:`stated_trend`) when the table's years or the words of the context's clause
  (:func:`clause_trend`) fix its sign;
* a sum or difference with a count or label (``Scope 1``, ``3 plants``) more than
  :data:`COUNT_RATIO` times smaller than the other operand, or a count of one thing from a count
  of it and a count of another (``12 doctors = 19 nurses - 7 doctors``);
* an answer with its own scale word or currency from operands of running text with neither
  (``€1.3bn = 2.3 - +1``);
* outside the question's figures and a table row, a sum or difference whose smaller operand is
  under :data:`NEAR_OPERAND` units of the answer's last digit and under :data:`NEAR_SHARE` of
  the larger: it only says that the answer is close to the larger figure.
"""

from __future__ import annotations

import ast
import functools
import math
import re
from bisect import bisect_right, insort
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, fields, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Literal

from hybridjudge._text import float_slack, sentence_spans
from hybridjudge.grounding._languages import by_spacing, no_space
from hybridjudge.grounding._lexicon import (
    alternation,
    derivation_words,
    label_acronyms,
    merged,
    named_ratios,
    trie_alternation,
)
from hybridjudge.grounding._normalize import key_runs, letter_runs, normalize
from hybridjudge.grounding._patterns import lazy

if TYPE_CHECKING:  # numpy is imported on first use: importing the checks stays cheap
    import numpy as np
    import numpy.typing as npt

    from hybridjudge.grounding._models import TraceRule
    from hybridjudge.grounding._quantities import Scan

__all__ = [
    "BETWEEN_CHANGE_AND_FIGURE",
    "CHANGE_NEAR",
    "CHANGE_WINDOW",
    "COLUMN_SPAN",
    "COUNT_RATIO",
    "DOUBLE_ROUNDING",
    "LABEL_BLOCK",
    "MAX_EXPONENT",
    "MAX_GROWTH_FIGURES",
    "MAX_GROWTH_YEARS",
    "MAX_PAIRS",
    "MAX_SHAPES",
    "MEAN_RUN",
    "MIN_SIGNIFICANT",
    "NEAR_OPERAND",
    "NEAR_SHARE",
    "PROSE_SPAN",
    "SENTENCE_REACH",
    "SMALL_COUNT",
    "YEAR_RE",
    "Derivation",
    "Figure",
    "Figures",
    "Growth",
    "Hint",
    "Rate",
    "Target",
    "WorkingShapes",
    "asks_operation",
    "change_word_before",
    "clause_trend",
    "compared_after",
    "counted_noun",
    "counted_phrase",
    "explain_from",
    "explain_run",
    "gives",
    "growth_periods",
    "growth_rate",
    "is_year",
    "label_block_lines",
    "may_end_aside",
    "rounding_window",
    "sentence_around",
    "stated_mean",
    "stated_operand",
    "stated_rate",
    "stated_ratio",
    "stated_trend",
    "stated_whole",
    "states_operation",
    "trend_before",
    "whole_digits",
]

MAX_PAIRS = 100_000
"""Most operand pairs derived per context (the closest pairs are kept)."""
DOUBLE_ROUNDING = 1.1
"""How far toward zero of a figure a derivation's value may lie and still give it, in halves of
a unit of the figure's last digit: 1.1, that is 0.55 of a unit (rounded once, 0.5). A value
rounded first to one more digit, then to the figure's, gives it from there: 2,725 / 14,694 =
0.1854497, 0.18545 at five decimals, then ``18.55%`` (rounded once, 18.54%); 20,437 / 500,343 =
4.0846%, 4.085%, then ``4.09%``. Models writing out their working do this. Away from zero the
window stays half a unit (4.0951% does not give ``4.09%``, rounded once or twice). Measured on 4 December 2026 (``validity/README.md``): FinanceBench correct answers
flagged 44 -> 40 of 284, incorrect as before; TAT-QA gold arithmetic with working grounded
99.9% -> 100%, one-digit and x10 perturbations flagged 97.1% -> 97.0% and 97.7% -> 97.6% (a
perturbed figure that is the value rounded twice), random fabricated figures as before."""


def rounding_window(y: float, tol: float, inner: float | None = None) -> tuple[float, float]:
    """The values a derivation may have to give a figure ``y`` written with ``tol``, half a
    unit of its last digit widened for float error (:func:`~hybridjudge._text.float_slack`):
    ``tol`` x :data:`DOUBLE_ROUNDING` toward zero, ``inner`` (default ``tol``) away from zero,
    where a tie rounds away from zero; ``tol`` either side of a zero."""
    out = tol if inner is None else inner
    if y > 0:
        return y - tol * DOUBLE_ROUNDING, y + out
    if y < 0:
        return y - out, y + tol * DOUBLE_ROUNDING
    return -tol, tol


def whole_digits(value: Fraction, mult: int = 1) -> tuple[int, int]:
    """The significant digits and the trailing zeros of the whole figure ``value`` writes before
    its scale word ``mult`` (``16,000``: 2 and 3; ``1,496,500,000``: 5 and 5; zero: 1 and 0).
    Only for a whole value."""
    whole = str(abs(value.numerator) // mult) if mult else "0"
    if whole == "0":
        return 1, 0
    kept = len(whole.rstrip("0"))
    return kept, len(whole) - kept


def gives(x: float, y: float, tol: float, inner: float | None = None) -> bool:
    """Whether a derivation's value ``x`` gives the figure ``y`` (see :func:`rounding_window`)."""
    lo, hi = rounding_window(y, tol, inner)
    return lo <= x <= hi


COLUMN_SPAN = 30
"""Most table rows between two figures of one column that are paired."""
PROSE_SPAN = 3
"""Most figures between two figures of running text that are paired."""
ROW_ALL_PAIRS = 10
"""A table row with at most this many figures pairs every two of them; longer rows pair
figures at most :data:`PROSE_SPAN` apart."""
MEAN_RUN = 6
"""Longest run of consecutive figures (in a row or a column) whose mean is derived."""
MIN_SIGNIFICANT = 3
"""Fewer significant digits than this: only neighbouring operands explain the number by a sum,
a difference or a mean."""
MIN_SIGNIFICANT_RATIO = 4
"""The same for ratios, shares and percent changes (continuous values: any precision can be hit
by chance, so a figure traced to distant operands must be written more precisely)."""

# Operation codes.
_SUM, _DIFF, _PROD, _RATIO, _PCH, _MEAN, _MEAN2, _RUNSUM, _COLMEAN, _COLSUM = range(10)
"""The operations of a derivation (a run, ``_MEAN`` and ``_RUNSUM``: of consecutive figures of
a row, ``a`` the first, ``b`` how many; a column, ``_COLMEAN`` and ``_COLSUM``: ``a`` the
index of :attr:`Figures.column_runs`)."""

RATIO_LIMIT = 10.0
"""A plain answer number (no ``%``, no ``x``) is traced to a ratio of two figures only below
this value: larger ratios are rarely stated without a unit and would explain many fabrications."""

_NO_YEAR = 10_000
"""Above every year: ``(line, _NO_YEAR)`` sorts after every ``(line, year)`` of that line."""

COUNT_RATIO = 10.0
"""A count or label (:attr:`Figure.count`: ``Scope 1``, ``3 plants``) is not added to, or taken
from, a figure more than this many times its size (``12,503 = 12,500 + 3``), unless both count
the same thing."""
NEAR_OPERAND = 50.0
"""A sum or difference whose smaller operand is under this many units of the answer's last digit
and under :data:`NEAR_SHARE` of the larger operand is no evidence outside the question's figures
and a table row: it only says that the answer is close to the larger operand
(``33.4 = 34.3 - 0.9``, ``12,503 = 12,500 + 3``)."""
NEAR_SHARE = 0.1
"""See :data:`NEAR_OPERAND`."""

TargetKind = Literal["percent", "ratio", "plain"]

Derivation = tuple[str, "TraceRule"]
"""How an answer's number follows from figures (``"30.8% = (177,866 - 135,987) / 135,987"``) and
the named rule that is (``percent_change``)."""


@dataclass(frozen=True, slots=True)
class Figure:
    """One context figure usable as an operand."""

    value: float
    """The value as written (sign included, before any stated scale)."""
    scale: float
    """The scale the context states for it (``1`` when none)."""
    text: str
    """How it is written (for the derivation shown to the user)."""
    line: int
    """Line number in its passage (figures of one line form a table row)."""
    column: int
    """Column: cell separators before it on its line (or its rank on the line)."""
    block: int
    """Block (paragraph or table) number: blank lines separate blocks."""
    table: bool
    """Whether its line is a table row (cells separated by ``|`` or tabs)."""
    percent: bool
    """Whether it is a percentage (written with ``%`` or under an ``in %`` heading)."""
    bracketed: bool = False
    """Whether it is an accounting negative in brackets (``(709)``: ``value`` is -709)."""
    trend: int = 0
    """The direction its clause of running text states before it: ``1`` (rose, increased),
    ``-1`` (fell, decreased), ``0`` (none, or a table cell)."""
    noun: str = ""
    """What a figure of running text counts: the word after it (``doctor`` in ``7 doctors``)."""
    count: bool = False
    """A small whole number glued to a word: a label (``Scope 1`` in a row's label cell) or a
    count of things in running text (``3 plants``), without a currency or a scale."""
    measured: bool = False
    """Whether it carries a currency or a scale (its own, ``$5``, ``2.3 billion``, or the one
    its block states)."""
    caption: float = 1.0
    """The scale a caption in a passage of its own states for its table (``1`` when none): a
    further reading of a figure with no :attr:`scale` (``$5,149,000`` for ``5,149`` under such
    an ``(in thousands)``)."""
    units: bool = False
    """In a row of amounts per share that the statement around it does not scale (``Diluted
    earnings per share | 11.82`` under ``(in millions)``): a figure computed from it is read
    as written, never with a scale word of the answer's (``$1.72 million``)."""
    range_end: str | None = None
    """``low`` or ``high`` for an end of a range (``1-2 business days``), else ``None``: the
    two ends of one range sum to nothing."""
    before: str = ""
    """For a figure of running text, the text of its line before it (at most
    :data:`BEFORE_REACH` characters): the words that name it (``Group revenue reached``), read
    by :func:`_pinned`; ``""`` for a table cell, which its row's label names."""


@dataclass(frozen=True, slots=True)
class Rate:
    """A percentage an answer's sentence states before a figure (:func:`stated_rate`): the
    figure may be it applied to a context figure its words name (:func:`_applied_rate`)."""

    value: float
    """The percentage (``3.0`` for ``3%``)."""
    text: str
    """The percentage as written."""
    trend: int
    """The direction its words state (``rises 3%``: ``1``; ``a 10% discount``: ``0``)."""
    words: frozenset[str]
    """The words of its clause before it and after it (:func:`_words`: ``base``, ``rent`` in
    ``base rent rises 3% to``; ``dwelling``, ``coverage`` in ``2% of the dwelling coverage``),
    which may name the figure it applies to."""


@dataclass(frozen=True, slots=True)
class Target:
    """An answer's number to explain, with the precision it is written at."""

    value: float
    """The value (scale words applied)."""
    half: float
    """Half a unit of the last digit written (scale words applied)."""
    mult: float
    """The scale word the answer wrote (``1`` when none)."""
    kind: TargetKind
    """``percent`` (``30.8%``), ``ratio`` (``1.5x``) or ``plain``."""
    significant: int
    """Significant digits written."""
    text: str
    """The number as written in the answer."""
    trend: int = 0
    """The direction the answer states for it in words (``fell 30%``: ``-1``; ``grew by 12%``,
    ``1,862 more``: ``1``; ``0``: none). A change traced with the opposite sign is no
    explanation."""
    noun: str = ""
    """What the answer counts with it (``doctor`` in ``12 doctors``; see :func:`counted_noun`)."""
    named: str = ""
    """The ratios the answer's clause names before it (``an operating margin of 17.5%``; see
    :func:`stated_ratio`): it may be that ratio of two figures of one column, as where the
    question names it."""
    whole: frozenset[str] = frozenset()
    """The words that follow it in its clause (``17.5% of total revenue``: ``total``,
    ``revenue``; see :func:`stated_whole`): it may be the share of a figure the question points
    at in the row they name."""
    averaged: bool = False
    """Whether the answer's clause states it as an average (``the average over 2018 and 2019
    was``; the lexicons' ``asks_mean``, see :func:`stated_mean`): it may be the mean of a row
    the question names."""
    parts: frozenset[float] = frozenset()
    """The values of the figures the answer states before it (years and percentages aside),
    read where :attr:`whole` is: the figure a share stated after it is of (``$262.4 million,
    17.5% of revenue``: 262,400,000)."""
    years: frozenset[int] = frozenset()
    """The years the answer names, read where it states a direction (:attr:`trend`) or an
    average (:attr:`averaged`): a change stated beside the figure asked for may run from a cell
    of one of them (``up 8,146 thousand from 2017``), an average be of their cells."""
    currency: bool = False
    """Whether the answer writes it with a currency."""
    cells_only: bool = False
    """Whether it is read in a scale the context does not state (``$4,071,000,000`` as
    ``$4,071 million``, ``$10.03 million`` as ``$10,030 thousand``): then only table cells
    explain it (a figure of running text with its own scale word is a whole value: ``$179
    million - $178 million`` is no ``$1,000 million`` read in thousands)."""
    reach: Literal["all", "near", "question"] = "all"
    """Which figures may explain it: ``all`` pairs (the precision written), or, for an
    approximation rounded at its last non-zero digit (:attr:`half` is then that rounding's:
    ``approximately 11,100``: 50), only ``near`` (neighbouring) operands and the question's
    figures, or the ``question``'s figures alone (``about 430``)."""
    rule: TraceRule | None = None
    """The named rule this reading of the answer's number applies (``truncated``), recorded
    with its derivation; ``None`` for the number as written."""
    dimension: str | None = None
    """For a measure (``2.6 kg``: ``mass``), its dimension: :attr:`value` and :attr:`half`
    are then in the dimension's base unit (grams), and only the context's figures of that
    dimension explain it (``13.8 kg - 11.2 kg``); ``None`` for a plain figure, a sum of money
    or a percentage."""
    stated: tuple[tuple[float, float], ...] = ()
    """The other figures of its sentence (years and percentages aside) as ``(value, half a unit
    of the last digit)``, scale words applied, read for a change or a percentage: one of them
    may be an operand (``rose about 7.7% to €4.2 billion``; ``212,7 millions d'euros, soit 6,2
    pour cent du chiffre d'affaires``), :func:`_pinned`."""
    rates: tuple[Rate, ...] = ()
    """The percentages its sentence states before it, each traced to the context, read for a
    plain figure: it may be one of them applied to a context figure their words name (``2% of
    the dwelling coverage, which works out to $7,700``), :func:`_applied_rate`."""


@dataclass(frozen=True, slots=True)
class Hint:
    """The figures a question points at (see :meth:`Figures.hint`)."""

    operands: tuple[int, ...]
    """Indices into :attr:`Figures.figures`, in document order."""
    rows: tuple[int, ...]
    """Every figure of the rows the question names (whatever their year), in order."""
    ops: frozenset[str]
    """The operations the question asks for (``sum``, ``diff``, ``mean``, ``ratio``, ``pch``)."""
    mode: Literal["change", "decrease", "difference", "any"]
    """What the question asks for: a ``change`` (the newer figure minus the older), a
    ``decrease`` (the older minus the newer), a ``difference`` (a positive one, or the newer
    minus the older) or ``any``."""
    named: tuple[tuple[str, int, int], ...] = ()
    """The ratios the question names by name (``gross margin``): ``(name, numerator,
    denominator)`` for each column of the rows they divide, indices into
    :attr:`Figures.figures` (see :func:`_named_ratio`)."""


HINT_OPERANDS = 12
"""Most figures a question's hint may select (more: the question is too vague to help)."""

HINT_TRIPLES = 8
"""Most hinted figures whose triples are tried (sums of three, shares of a sum)."""

YEAR_RE = lazy(r"(?<!\d)((?:19|20)\d\d)(?!\d)")
"""A year in a text, 1900 to 2099 (``FY2024``, ``30.09.2024``, ``2023年``), compiled on first use."""
_WORDS = derivation_words()
_WORD_RE = re.compile(r"[a-z]+")
_STOP = frozenset(_WORDS.stop_words)
"""Words of a question that name no table row."""
_LABEL_WORD = re.compile(r"[^\W\d_]+")
"""A word of a row label, in any script (``résultat``, ``umsatzerlöse``, ``营业收入``: a run of
a script without spaces is one word)."""


def _spaced_or_glued(words: Sequence[str], before: str, after: str = "") -> str:
    """An expression for ``words`` in lower-cased text: each between ``before`` and ``after``
    (a word's boundaries), or as a substring where it is written in a script without spaces
    (``毛利率``, ``영업이익률은``, ``合计``); one that matches nothing when there are none."""
    spaced, glued = by_spacing(words)
    parts = [rf"{before}(?:{alternation(spaced)}){after}"] if spaced else []
    if glued:
        parts.append(alternation(glued))
    return "|".join(parts) or "(?!)"


def _names_pattern(names: tuple[str, ...]) -> str:
    """What names a ratio in a lower-cased question: a name as whole words, or as a substring
    where it is written in a script without spaces (``毛利率``, ``영업이익률은``)."""
    return _spaced_or_glued(names, r"(?<![^\W_])", r"(?![^\W_])")


@dataclass(frozen=True, slots=True)
class _Cue:
    """The question words of a lexicons' ``derivation`` field: word starts (``whole``: whole
    words) where words are spaced, substrings in a script without them. An ASCII question is
    searched for the ASCII words only (none of the others can stand in it: the expression of
    every language's words takes two and a half times as long)."""

    ascii: Callable[[], re.Pattern[str]]
    every: Callable[[], re.Pattern[str]]

    def search(self, lower: str) -> bool:
        """Whether the lower-cased question ``lower`` holds one of the words."""
        return (self.ascii if lower.isascii() else self.every)().search(lower) is not None


def _cue(words: Sequence[str], whole: bool = False) -> _Cue:
    """The :class:`_Cue` of ``words``."""
    after = r"\b" if whole else ""
    ascii_words = [w for w in words if w.isascii()]
    return _Cue(
        lazy(functools.partial(_spaced_or_glued, ascii_words, r"\b", after)),
        lazy(functools.partial(_spaced_or_glued, words, r"\b", after)),
    )


_ASKS_CHANGE = _cue(_WORDS.asks_change)
_ASKS_GAP = _cue(_WORDS.asks_gap)
_ASKS_DECREASE = _cue(_WORDS.asks_decrease)
_ASKS_INCREASE = _cue(_WORDS.asks_increase)
_ASKS_TOTAL = _cue(_WORDS.asks_total)
_DIGITS_OF = re.compile(r"[^\d.]")
"""What :func:`stated_operand` strips from a figure's text to compare its digits."""
_MEAN_ONLY = frozenset({"mean"})
"""The operation :func:`stated_operand` tries on the figures a question names: their mean."""
_STATES_MEAN = _cue(_WORDS.asks_mean, whole=True)


_NAMED_RATIOS = tuple(
    (
        lazy(functools.partial(_names_pattern, r.names)),
        frozenset(tuple(_LABEL_WORD.findall(label)) for label in r.numerator),
        frozenset(tuple(_LABEL_WORD.findall(label)) for label in r.denominator),
    )
    for r in named_ratios()
)
"""The lexicons' named ratios: what names each in a lower-cased question, and the words of the
row labels of its numerator and of its denominator."""
_RATIO_NAMES = tuple(n for r in named_ratios() for n in r.names)
_RATIO_KEYS = key_runs(_RATIO_NAMES)
"""A run of letters of each name that has one (a text holding none of them holds no name
written in letters: :func:`stated_ratio`'s pre-filter)."""
_ANY_RATIO_NAME = lazy(functools.partial(_names_pattern, _RATIO_NAMES))
"""Any name (one search before trying each ratio's: :func:`stated_ratio`)."""
_ANY_ASCII_RATIO_NAME = lazy(
    functools.partial(_names_pattern, tuple(n for n in _RATIO_NAMES if n.isascii()))
)
"""The names written in ASCII, all an ASCII text can hold."""
_TOTAL = frozenset(merged("total_words"))
"""The words a row label may open with before what it totals (``total``, ``totale``)."""


_ALL_OPS = frozenset({"sum", "diff", "mean", "ratio", "pch"})
_OP_CUES: tuple[tuple[_Cue, frozenset[str]], ...] = (
    (_cue(_WORDS.asks_mean, whole=True), frozenset({"mean", "sum", "diff"})),
    (_cue(_WORDS.asks_share), frozenset({"ratio", "sum"})),
    (_cue(_WORDS.asks_difference), frozenset({"diff", "pch"})),
    (_cue(_WORDS.asks_sum), frozenset({"sum"})),
    # "the total expenses": a sum, or a total less its other parts
    (_ASKS_TOTAL, frozenset({"sum", "diff"})),
)
"""The operations each kind of question word asks for (the words: the lexicons' ``derivation``)."""


SENTENCE_REACH = 160
"""How far before and after a figure :func:`states_operation` reads its sentence (characters)."""
_AFTER_CUES = (
    _cue(_WORDS.comparisons, whole=True),
    _cue((*_WORDS.asks_difference, *_WORDS.asks_share)),
)
"""What states a comparison after a figure (``0.47 kg heavier than``, ``2.6 kg less``), a bound
before it (``above 12 g/dL``, ``more than 3 days``)."""
_ANYWHERE_CUES = (
    _cue((*_WORDS.totals, *_WORDS.asks_mean), whole=True),
    _cue((*_WORDS.asks_sum, *_WORDS.asks_total)),
)
"""What states a total or a mean anywhere in a figure's sentence (``together they are``,
``combined``, ``an average of``)."""


def compared_after(text: str, end: int) -> bool:
    """Whether a word of the lexicons' ``derivation.comparisons`` follows the figure that ends
    at ``end`` of ``text`` (normalised, lower case) within its next few words (``8.1 µg/L
    below the 80 µg/L limit``, ``0.47 kg more than``): the figure is a gap, a difference's
    magnitude, whichever of its two operands the answer writes first."""
    return _AFTER_CUES[0].search(" ".join(text[end : end + 40].split()[:3]))


def states_operation(text: str, start: int, end: int) -> bool:
    """Whether the sentence of ``text`` (normalised, lower case) that holds the figure at
    ``start:end`` states it as an operation's result: a total or a mean anywhere in it
    (``together they are 745 km``; the lexicons' ``derivation.totals``, ``asks_sum``,
    ``asks_total``, ``asks_mean``), a comparison or a difference after the figure (``0.47 kg
    heavier than``, ``1.45 GHz above the base``; ``comparisons``, ``asks_difference``,
    ``asks_share``). A measure stated without one is a figure of its own (``a maximum single
    dose of 600 mg`` is no ``1 g - 400 mg`` of two rows; ``above 12 g/dL`` is a bound)."""
    a, b = sentence_around(text, start, end)
    sentence, after = text[a:b], text[end:b]
    return any(cue.search(after) for cue in _AFTER_CUES) or any(
        cue.search(sentence) for cue in _ANYWHERE_CUES
    )


def sentence_around(text: str, start: int, end: int) -> tuple[int, int]:
    """The offsets in ``text`` of the sentence that holds ``text[start:end]``, read within
    :data:`SENTENCE_REACH` characters either side by the shared splitter (a long answer is
    not split whole for one figure)."""
    first = max(0, start - SENTENCE_REACH)
    window = text[first : end + SENTENCE_REACH]
    at, to = start - first, end - first
    a, b = next(
        ((a, b) for a, b in sentence_spans(window, "whole") if a <= at and to <= b),
        (0, len(window)),
    )
    return first + a, first + b


def asks_operation(question: str) -> bool:
    """Whether the (lower-cased) question asks for an operation in words (:func:`_asked_ops`
    finds one)."""
    return _asked_ops(question) is not _ALL_OPS


def _asked_ops(question: str) -> frozenset[str]:
    """The operations a (lower-cased) question asks for; all of them when it names none."""
    out: set[str] = set()
    for cue, ops in _OP_CUES:
        if cue.search(question):
            out |= ops
    return frozenset(out) if out else _ALL_OPS


def _words(text: str) -> frozenset[str]:
    """The words of ``text`` that may name a table row: its ASCII letter runs of three letters
    or more but stop words (a plural's ``s`` cut), and its runs of a script written without
    spaces whole (``营业收入``: :func:`_glued_common` finds them in a question)."""
    lower = text.lower()
    out = set()
    for w in _WORD_RE.findall(lower):
        if len(w) < 3 or w in _STOP:
            continue
        out.add(w[:-1] if len(w) > 3 and w.endswith("s") else w)
    if not lower.isascii():
        out.update(w for w in _LABEL_WORD.findall(lower) if len(w) > 1 and no_space(w[0]))
    return frozenset(out)


_DOTTED = lazy(r"(?<![a-z0-9.])[a-z](?:\.[a-z]){1,2}\.?(?![a-z0-9])")
"""An acronym written with stops (``u.s.``, ``u.k.``, ``e.u.``), in lower case."""
_TWO_LETTERS = lazy(r"(?<![A-Za-z0-9])[A-Za-z]{2}(?![A-Za-z0-9])")


def _short_words(text: str, *, label: bool) -> frozenset[str]:
    """The short words of ``text`` that may name a table row, which :func:`_words` leaves out:
    acronyms written with stops, without them (``U.S.``: ``us``), and words of two letters: of
    a ``label`` (read lower-cased) every one (``uk``, ``us``, ``eu``); of a question only those
    written in capitals (``UK``, ``US``; not in a question written in capitals only), where
    ``us`` or ``it`` is no pronoun. :meth:`Figures._row_hint` counts such a word only where the
    question and the label both hold it, so it never makes a label's match worse."""
    lower = text.lower()
    out = {m.group().replace(".", "") for m in _DOTTED().finditer(lower)}
    if label:
        out.update(_TWO_LETTERS().findall(lower))
    elif text != text.upper():  # some lower-case letter: its capitals mean something
        out.update(w.lower() for w in _TWO_LETTERS().findall(text) if w.isupper())
    return frozenset(out)


@functools.cache
def _acronym_names() -> tuple[tuple[frozenset[str], frozenset[str]], ...]:
    """Each name of the lexicons' ``label_acronyms`` as (its words as :func:`_words` reads a
    label's, its acronyms)."""
    return tuple((_words(name), frozenset(acr)) for name, acr in label_acronyms().items())


def _acronyms(
    words: frozenset[str], short: frozenset[str]
) -> tuple[tuple[frozenset[str], ...], frozenset[str]]:
    """The names of the lexicons' ``label_acronyms`` a question writes as an acronym, as their
    words (``U.S.``, ``US``, ``USA``: ``united``, ``state``), and the acronyms of those it writes
    out (``United Kingdom``: ``uk``); ``words`` and ``short`` are the question's
    (:func:`_words`, :func:`_short_words`). :meth:`Figures._row_hint` counts a name's words
    only where a label holds all of them."""
    said = words | short
    spelled: list[frozenset[str]] = []
    named: set[str] = set()
    for name_words, acronyms in _acronym_names():
        if not said.isdisjoint(acronyms):
            spelled.append(name_words)
        if name_words and name_words <= words:
            named |= acronyms
    return tuple(spelled), frozenset(named)


def _glued_common(own: frozenset[str], words: frozenset[str], lower: str) -> int:
    """How many of a label's words (``own``) of a script without spaces a question (``lower``,
    its ``words``) holds but not as a word of its own: ``2023年营业收入是多少`` holds the label
    ``营业收入`` inside one run."""
    return sum(1 for w in own - words if no_space(w[0]) and w in lower)


GLUED_LABEL = 16
"""Letters of a row label written without a space from which a page's labels are read as
glued by its extractor (pypdf writes a PDF without space glyphs so:
``DilutednetincomepercommonshareattributabletoWalmart``, ``Expectedreturnonplanassets``): no
row label of one word is that long."""
_FILLER = lazy("(?:" + alternation([w for w in (*_WORDS.stop_words, "s") if w.isascii()]) + ")+")
"""What a glued label may hold between the words a question names that is no word of its
own: stop words, a plural's ``s``."""


def _glued_labels(labels: dict[tuple[int, int], str]) -> dict[tuple[int, int], str]:
    """The row labels of ``labels`` written without spaces (lower-cased), when one of them is
    :data:`GLUED_LABEL` letters long or more (the extractor glued the page's words); else
    none: a page with spaces between its words has one-word labels, not glued ones."""
    bare = {key: label.strip(" :$|").lower() for key, label in labels.items()}
    out = {
        key: text
        for key, text in bare.items()
        if text.isascii() and not any(c.isspace() for c in text) and any(c.isalpha() for c in text)
    }
    if not any(sum(c.isalpha() for c in text) >= GLUED_LABEL for text in out.values()):
        return {}
    return out


def _question_words(words: frozenset[str]) -> re.Pattern[str] | None:
    """The ASCII words of a question (:func:`_words`) as one expression, the longest first:
    what :func:`_segmented` looks for in a glued label. No memo of this module's own (the
    questions of a run are unbounded; ``re``'s bounded cache of compiled expressions serves
    a context's answers, which repeat its question)."""
    ascii_words = sorted((w for w in words if w.isascii()), key=len, reverse=True)
    return re.compile(alternation(ascii_words)) if ascii_words else None


def _segmented(label: str, found: re.Pattern[str] | None) -> tuple[int, int]:
    """``(words of a question in it, its words in all)`` of a glued label (``discountrate``
    of ``What was the discount rate?``: 2 of 2; ``dilutednetincomepercommonshare
    attributabletowalmart`` of ``diluted net income per common share``: 5 of 6, the rest one
    word of its own): the question's words found in it, each other run of letters one word
    unless it is stop words (:data:`_FILLER`) or shorter than three letters."""
    if found is None:
        return 0, 0
    named: set[str] = set()
    others = 0
    pos = 0
    for m in (*found.finditer(label), None):
        gap = label[pos : len(label) if m is None else m.start()]
        for run in _WORD_RE.findall(gap):
            if len(run) > 2 and _FILLER().fullmatch(run) is None:
                others += 1
        if m is not None:
            named.add(m.group())
            pos = m.end()
    return len(named), len(named) + others


def _directed(
    up: Sequence[str], down: Sequence[str], before: str, after: str, glued: bool = True
) -> str:
    """An expression for words of a rise (groups ``up``, ``gup``) or a fall (``down``,
    ``gdown``): each between ``before`` and ``after`` (a word's boundaries) where words are
    spaced, anywhere in a script without spaces (``下降``, ``減少``, ``감소``; :func:`_direction`
    reads which; without ``glued``, none of those: an expression that opens with its
    look-behind tries its words only at word starts). The words are tries
    (:func:`trie_alternation`): seven languages' words in a flat alternation cost 2.5% of a
    first call."""
    spaced_up, glued_up = by_spacing(up)
    spaced_down, glued_down = by_spacing(down)
    spaced = (
        rf"{before}(?:(?P<up>{trie_alternation(spaced_up)})"
        rf"|(?P<down>{trie_alternation(spaced_down)})){after}"
    )
    if not glued:
        return rf"{spaced}(?:(?P<gup>(?!))|(?P<gdown>(?!)))?"
    return (
        rf"(?:{spaced}|(?P<gup>{trie_alternation(glued_up)})"
        rf"|(?P<gdown>{trie_alternation(glued_down)}))"
    )


def _direction(m: re.Match[str]) -> int:
    """``1`` when :func:`_directed`'s match ``m`` is a word of a rise, else ``-1``."""
    return 1 if m["up"] is not None or m["gup"] is not None else -1


_PERIOD_WORDS = alternation(merged("derivation.change_periods"), space=r"[ \t]+")
_ASIDES = alternation(merged("derivation.change_asides"), space=r"[ \t]+") or "(?!)"
_YEAR = r"(?:19|20)\d\d"
BETWEEN_CHANGE_AND_FIGURE = (
    rf"(?:\s+(?:(?:{_PERIOD_WORDS})[ \t]+)?{_YEAR}"
    rf"|\s+(?:{_ASIDES})(?![\w])(?:[ \t]+{_YEAR})?){{0,2}}"
)
"""What may stand between a change word and its figure, twice at most: a year, after a word of
the lexicons' ``derivation.change_periods`` or alone (``fell in 2023 by 5%``, ``sank 2023 um 5
%``, ``fell compared with 2022 by 5%``), or a phrase of ``derivation.change_asides``
(``fell year over year by 5%``, ``verringerte sich gegenüber dem Vorjahr um 5 %``)."""
CHANGE_NEAR = 40
"""How far before a figure its change word is looked for first (characters)."""
CHANGE_WINDOW = 64
"""How far before a figure its change word is looked for when a phrase of
``derivation.change_asides`` or a year ends near the figure (:func:`may_end_aside`; else
:data:`CHANGE_NEAR`): ``a baissé par rapport à l'année précédente de 5 %`` has 46 between
them."""
_ASIDE_ENDS = frozenset(p.rsplit(None, 1)[-1] for p in merged("derivation.change_asides"))
"""The last word of each phrase that may stand between a change word and its figure (the
lexicons' ``derivation.change_asides``: ``vorjahr`` of ``gegenüber dem vorjahr``)."""


def may_end_aside(before: str) -> bool:
    """Whether one of the last three words of ``before`` (a link and a hedge may follow a
    phrase) ends a phrase of :data:`_ASIDE_ENDS` or is a year: a cheap test before the wider
    window (:data:`CHANGE_WINDOW`) is searched for a word of change."""
    return any(w in _ASIDE_ENDS or is_year(w) for w in before.rsplit(None, 3)[-3:])


def is_year(word: str) -> bool:
    """Whether ``word`` is a year of four digits, 1900 to 2099 (:data:`_YEAR`)."""
    return len(word) == 4 and word.isdigit() and word[:2] in ("19", "20")


def change_word_before(
    text: str, start: int, search: Callable[[int], re.Match[str] | None]
) -> re.Match[str] | None:
    """The match of ``search(lo)`` (an expression of a change word and what may follow it,
    searched in ``text[lo:start]``) in the window of :data:`CHANGE_NEAR` characters before
    ``start``, else, where a phrase may have pushed the word out of it (:func:`may_end_aside`),
    in that of :data:`CHANGE_WINDOW`: the one rule of :func:`trend_before` and of the decrease
    words of ``_quantities``."""
    lo = max(0, start - CHANGE_NEAR)
    m = search(lo)
    if m is None and lo and may_end_aside(text[lo:start]):
        m = search(max(0, start - CHANGE_WINDOW))
    return m


_TREND_TAIL = (
    rf"{BETWEEN_CHANGE_AND_FIGURE}(?:\s+(?:{alternation(_WORDS.change_links)}))?"
    rf"(?:\s+(?:{alternation(_WORDS.change_hedges)}))?\s*$"
)
_RISES = (*merged("trend_up"), *_WORDS.rises_before)
_FALLS = (*merged("trend_down"), *_WORDS.falls_before)
_TREND_BEFORE = lazy(lambda: _directed(_RISES, _FALLS, r"(?<![\w])", "", glued=False) + _TREND_TAIL)
"""A word of change right before a figure (the lexicons' ``trend_up``, ``trend_down`` and
``derivation.rises_before``, ``falls_before``: ``margin improved 140 bps to 41.2%`` is a change,
then the level reached; ``the loss narrowed``: its size fell), where words are spaced."""
_TREND_BEFORE_GLUED = lazy(lambda: _directed(_RISES, _FALLS, r"(?<![\w])", "") + _TREND_TAIL)
"""The same, and the words of scripts without spaces (``同比下降5%``): for a text before the
figure that is not ASCII."""
_NOT_CHANGES = merged("derivation.not_changes")
_BLANKS = r"[ \t]+"
_NOT_CHANGE = lazy(
    rf"(?<![\w])(?:{alternation(_NOT_CHANGES, space=_BLANKS)})$" if _NOT_CHANGES else "(?!)"
)
"""A phrase that ends in a word of change and states none (the lexicons'
``derivation.not_changes``: ``made up``), ending where :func:`trend_before` found the word."""
_NOT_CHANGE_REACH = 2 * max(map(len, _NOT_CHANGES), default=0)
"""How far before a change word's end :data:`_NOT_CHANGE` is searched (blanks may be wider
than the phrase's one space)."""
_TREND_AFTER = lazy(
    lambda: r"\s*" + _directed(_WORDS.rises_after, _WORDS.falls_after, "", r"(?![\w])")
)
"""A word of change right after a figure (``a 30% increase``, ``5%減少``, ``5% 감소했다``)."""
_TREND_WORD = lazy(
    lambda: _directed(merged("trend_up"), merged("trend_down"), r"(?<![\w])", r"(?![\w])")
)
_CLAUSE_END = lazy(rf"[.;!?](?:\s|$)|\n|\b(?:{alternation(_WORDS.clause_ends)})\b")
_NOUN_AFTER = re.compile(r" ([a-z]{3,})(?![\w-])")
_NOUN_PAIR = re.compile(_NOUN_AFTER.pattern + f"(?:{_NOUN_AFTER.pattern})?")
"""The word after a figure, and the word after that (:func:`counted_phrase`)."""
_NOT_NOUNS = frozenset(_WORDS.not_nouns)


def stated_trend(text: str, start: int, end: int) -> int:
    """The direction an answer states in words for its number at ``text[start:end]``
    (normalised text): a change word right before it (``fell 30%``, ``grew by 12%``, ``an
    increase of 5``) or right after it (``a 30% increase``, ``1,862 more``, ``12% lower``), or
    a plus sign written on it (``(+21.3% YoY)``; not an operator: ``1,234 +262.5``).
    ``1`` up, ``-1`` down, ``0`` none (``rose to 52`` states a level, not a change)."""
    before = trend_before(text, start)
    if before:
        return before
    m = _TREND_AFTER().match(text, end)
    if m is not None:
        return _direction(m)
    return 1 if text.startswith("+", start) and not _after_operand(text, start) else 0


def _after_operand(text: str, start: int) -> bool:
    """Whether ``text[start]`` follows a figure or a closing bracket (a space between): an
    operator's place (``1,234 + 262.5``, ``(3) +4``), not a sign's."""
    i = start - 1
    if i >= 0 and text[i] == " ":
        i -= 1
    return i >= 0 and (text[i].isdigit() or text[i] in ")]")


def trend_before(text: str, start: int) -> int:
    """The direction a change word right before ``text[start:]`` states (``fell 30%``, ``grew
    by 12%``, ``an increase of 5``): ``1`` up, ``-1`` down, ``0`` none."""

    def search(lo: int) -> re.Match[str] | None:
        pattern = _TREND_BEFORE if text[lo:start].isascii() else _TREND_BEFORE_GLUED
        return pattern().search(text, lo, start)

    m = change_word_before(text, start, search)
    if m is None:
        return 0
    if m["up"] is not None or m["down"] is not None:  # a spaced word: maybe a verb's particle
        end = m.end("up") if m["up"] is not None else m.end("down")
        if _NOT_CHANGE().search(text, max(0, end - _NOT_CHANGE_REACH), end) is not None:
            return 0  # "made up about 43% of sales": a share, no rise
    return _direction(m)


def stated_ratio(text: str, start: int, words: frozenset[bytes]) -> str:
    """The names of the ratios (the lexicons' ``named_ratios``) that the clause of running text
    before ``start`` states (``Operating income was $262.4 million, an operating margin of``:
    ``operating margin``), joined by ``;``; ``""`` when it names none. ``words``: the text's
    runs of letters (:attr:`Scan.words <hybridjudge.grounding._quantities.Scan.words>`), a
    pre-filter."""
    if words.isdisjoint(_RATIO_KEYS) and text.isascii():
        return ""
    clause = text[_clause_start(text, start) : start]
    if not (_ANY_ASCII_RATIO_NAME if clause.isascii() else _ANY_RATIO_NAME)().search(clause):
        return ""
    found = (names().search(clause) for names, _, _ in _NAMED_RATIOS)
    return ";".join(m.group() for m in found if m is not None)


def stated_mean(text: str, start: int, words: frozenset[bytes]) -> bool:
    """Whether the clause of running text before ``start`` states an average (a word of the
    lexicons' ``asks_mean``: ``the average over 2018 and 2019 was``, ``averaging``); ``words``:
    the text's runs of letters, a pre-filter (as :func:`stated_ratio`'s)."""
    if words.isdisjoint(_MEAN_KEYS) and text.isascii():
        return False
    return _STATES_MEAN.search(text[_clause_start(text, start) : start].lower())


_MEAN_KEYS = key_runs(_WORDS.asks_mean)
"""A run of letters of each word of an average (:func:`stated_mean`'s pre-filter)."""


def stated_whole(text: str, end: int) -> frozenset[str]:
    """The words that may name a table row (:func:`_words`) among the next
    :data:`WHOLE_WORDS` words after ``end`` in the clause (``17.5% of total revenue.``:
    ``total``, ``revenue``), what a percentage there is a share of."""
    m = _CLAUSE_END().search(text, end, end + 80)
    after = text[end : m.start() if m else end + 80]
    return _words(" ".join(after.split()[:WHOLE_WORDS]))


WHOLE_WORDS = 8
"""Most words after a percentage read for the row it is a share of."""


def stated_rate(text: str, start: int, end: int, value: float) -> Rate:
    """The percentage ``value`` at ``text[start:end]`` (normalised) as a :class:`Rate`: its
    direction (:func:`stated_trend`) and the words of its clause before it and after it."""
    before = _words(text[_clause_start(text, start) : start])
    words = before | stated_whole(text, end)
    return Rate(value, text[start:end], stated_trend(text, start, end), words)


def _clause_start(text: str, start: int) -> int:
    """Where the clause of running text that ``text[start]`` stands in begins (at most 160
    characters back)."""
    cut = max(0, start - 160)
    for m in _CLAUSE_END().finditer(text, cut, start):
        cut = m.end()
    return cut


def clause_trend(text: str, start: int) -> int:
    """The direction the clause of running text before ``start`` states (``Staff rose from 40
    to``: ``1``): its last change word, ``0`` when it has none."""
    trend = 0
    for m in _TREND_WORD().finditer(text, _clause_start(text, start), start):
        trend = _direction(m)
    return trend


def counted_noun(text: str, end: int) -> str:
    """What the number ending at ``end`` counts: the word right after it, singular
    (``7 doctors``: ``doctor``), or ``""`` (for every figure of running text a context's index
    reads: one word, not :func:`counted_phrase`'s two)."""
    m = _NOUN_AFTER.match(text, end)
    return "" if m is None or m[1] in _NOT_NOUNS else _singular(m[1])


def counted_phrase(text: str, end: int) -> tuple[str, str | None, int] | None:
    """The noun the number ending at ``end`` of ``text`` (normalised) counts, singular (``3 usb
    ports``: ``usb``; ``7 doctors``: ``doctor``), the word after it where that names a thing
    too (``port``; ``None`` for ``7 doctors and``), and where they end; ``None`` where no noun
    follows (``3 of``, ``5 percent``: the lexicons' ``derivation.not_nouns``)."""
    m = _NOUN_PAIR.match(text, end)
    if m is None or m[1] in _NOT_NOUNS:
        return None
    if m[2] is None or m[2] in _NOT_NOUNS:
        return _singular(m[1]), None, m.end(1)
    return _singular(m[1]), _singular(m[2]), m.end(2)


def _singular(word: str) -> str:
    """``word`` without a plural's ``s`` (``doctors``; not ``class``, ``bus``)."""
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


@dataclass(slots=True)
class _Table:
    """Derived values of one family, sorted for window searches, with how each was made."""

    values: npt.NDArray[np.float64]
    op: npt.NDArray[np.int64]
    a: npt.NDArray[np.int64]
    b: npt.NDArray[np.int64]
    near: npt.NDArray[np.bool_]

    @classmethod
    def build(
        cls,
        values: npt.NDArray[np.float64],
        op: npt.NDArray[np.int64],
        a: npt.NDArray[np.int64],
        b: npt.NDArray[np.int64],
        near: npt.NDArray[np.bool_],
    ) -> _Table:
        import numpy as np

        keep = np.isfinite(values)
        order = np.argsort(values[keep], kind="stable")
        return cls(
            values[keep][order], op[keep][order], a[keep][order], b[keep][order], near[keep][order]
        )

    def window(self, lo: float, hi: float, near_only: bool) -> list[int]:
        import numpy as np

        i = int(np.searchsorted(self.values, lo, side="left"))
        j = int(np.searchsorted(self.values, hi, side="right"))
        if i >= j:
            return []
        idx = range(i, j)
        if near_only:
            return [k for k in idx if self.near[k]]
        return list(idx)


@dataclass(slots=True)
class _FigureArrays:
    """The figures' attributes as arrays, by figure (:meth:`Figures._build`)."""

    val: npt.NDArray[np.float64]
    scl: npt.NDArray[np.float64]
    cap: npt.NDArray[np.float64]
    pct: npt.NDArray[np.bool_]
    line: npt.NDArray[np.int64]
    block: npt.NDArray[np.int64]
    table: npt.NDArray[np.bool_]
    newest: npt.NDArray[np.bool_]
    """Whether the figure's table lists the newest year first (the default)."""
    ordered: npt.NDArray[np.bool_]
    """Whether the figure's table's header names years: a table whose header names none
    (``181-360 days | >360 days``) has no order, a change along its rows may go either way."""


@dataclass(slots=True)
class _Sums:
    """Sums, differences and means of figures, each with how it was made (the fields of
    :class:`_Table`) and what it may explain (:meth:`Figures._build`)."""

    v: npt.NDArray[np.float64]
    op: npt.NDArray[np.int64]
    a: npt.NDArray[np.int64]
    b: npt.NDArray[np.int64]
    near: npt.NDArray[np.bool_]
    scale: npt.NDArray[np.float64]
    """The scale stated for every operand (NaN: they differ)."""
    cap: npt.NDArray[np.float64]
    """The scale a caption states for every operand (1.0: none, or they differ)."""
    pct: npt.NDArray[np.bool_]
    """Of percentages only."""
    plain: npt.NDArray[np.bool_]
    """Of plain figures only (no percentage)."""
    table: npt.NDArray[np.bool_]
    """Of cells of a table of percentages (a run: of consecutive cells)."""

    @staticmethod
    def join(parts: Sequence[_Sums]) -> _Sums:
        """The values of ``parts``, in order."""
        import numpy as np

        return _Sums(*(np.concatenate([getattr(p, f.name) for p in parts]) for f in fields(_Sums)))


@dataclass(slots=True)
class _Pairs:
    """The operand pairs of :meth:`Figures._pairs` as arrays (``a - b``: figure ``ai`` minus
    figure ``bi``), with what a derivation from each needs to know (:meth:`Figures._build`)."""

    ai: npt.NDArray[np.int64]
    bi: npt.NDArray[np.int64]
    near: npt.NDArray[np.bool_]
    """Whether the two are neighbours (adjacent cells, consecutive figures)."""
    a: npt.NDArray[np.float64]
    b: npt.NDArray[np.float64]
    row: npt.NDArray[np.bool_]
    """Whether they are cells of one table row."""
    fwd: npt.NDArray[np.bool_]
    """Whether ``a - b`` is a change (along a row: the newer minus the older) or, between rows
    and in prose, the larger minus the smaller."""
    bwd: npt.NDArray[np.bool_]
    """The same for ``b - a``."""
    both_pct: npt.NDArray[np.bool_]
    no_pct: npt.NDArray[np.bool_]
    prose: npt.NDArray[np.bool_]
    """Whether neither is a table cell."""


@dataclass(slots=True)
class Figures:
    """The operand figures of one context and, built on first use, their derived values."""

    figures: list[Figure] = field(default_factory=list)
    newest_first: dict[int, bool] = field(default_factory=dict)
    """Per block: whether its table lists the newest year first (``2019 | 2018``, the default)
    or last; a change along a row is then newer minus older."""
    labels: dict[tuple[int, int], str] = field(default_factory=dict)
    """Per table row ``(block, line)``: its label (the text before its first cell separator)."""
    blocks: int = 0
    """Blocks numbered so far (block numbers run on from one passage to the next)."""
    column_years: dict[tuple[int, int], int] = field(default_factory=dict)
    """Per table column ``(block, column)``: the first year a cell of it names (its header's)."""
    _year_lines: dict[tuple[int, int], list[tuple[int, int]]] = field(default_factory=dict)
    """Per table column ``(block, column)``: each ``(line, year)`` a cell of it names, in line
    order (:meth:`year_of`)."""
    percent_blocks: set[int] = field(default_factory=set)
    """Blocks whose table heads a column with a bare ``%`` cell (its figures are written
    without the sign)."""
    texts: list[str] = field(default_factory=list)
    """The passages of three lines or more as written, whose blocks of labels
    (:meth:`label_lines`) are read on first need, in their normalised lines before the layout
    joins any (a rule for a cell per line may join pdfminer's block of labels into one row)."""
    _label_lines: frozenset[str] | None = None
    _row_dates: dict[tuple[int, int], int] = field(default_factory=dict)
    _label_words: dict[tuple[int, int], frozenset[str]] | None = None
    _label_short: dict[tuple[int, int], frozenset[str]] | None = None
    _before_words: dict[int, frozenset[str]] = field(default_factory=dict)
    """Per figure of running text: :func:`_words` of the words before it, made on first need
    (:meth:`before_words`)."""
    _glued: dict[tuple[int, int], str] = field(default_factory=dict)
    """The row labels an extractor wrote without spaces (:func:`_glued_labels`), lower-cased."""
    _by_row: dict[tuple[int, int], list[int]] | None = None
    _tables: dict[str, _Table] | None = None
    column_runs: list[list[int]] = field(default_factory=list)
    """The figures of each whole column of a table (:meth:`_column_runs`), by index: what
    ``_COLMEAN`` and ``_COLSUM`` derivations name (built with the derived tables)."""

    def add(self, fig: Figure) -> None:
        """Add one operand figure (in document order); a zero is no operand (x - 0 = x)."""
        if fig.value == 0:
            return
        self.figures.append(fig)
        self._tables = None
        self._by_row = None

    def label_lines(self) -> frozenset[str]:
        """The lines of runs of row labels without figures in :attr:`texts`
        (:func:`label_block_lines`: a table whose rows an extractor wrote as a block of labels
        and blocks of figures), lower case; read on first need (a question that names no row
        and no operation)."""
        if self._label_lines is None:
            self._label_lines = frozenset(
                line for text in self.texts for line in label_block_lines(normalize(text).text)
            )
        return self._label_lines

    def mark_share_columns(self, first: int) -> None:
        """Make percentages the figures, from :attr:`figures` ``[first]`` on (one passage's),
        of the table columns a row of theirs writes as percentages between amounts (``Net sales
        $ 14,694 100.0 % $ 14,544 100.0 %``: each amount's share of net sales beside it): the
        other rows write those shares without the sign (``Interest expense (290) (2.0) (159)
        (1.1)``), and a share is no amount to add to its neighbour (``(290) + (1.1)``)."""
        rows: dict[tuple[int, int], list[Figure]] = {}
        for f in self.figures[first:]:
            if f.table:
                rows.setdefault((f.block, f.line), []).append(f)
        shares: set[tuple[int, int]] = set()
        for (block, _line), cells in rows.items():
            if len(cells) >= 4 and all(f.percent == (k % 2 == 1) for k, f in enumerate(cells)):
                shares.update((block, f.column) for f in cells if f.percent)
        if not shares:
            return
        for k in range(first, len(self.figures)):
            f = self.figures[k]
            if f.table and not f.percent and (f.block, f.column) in shares:
                self.figures[k] = replace(f, percent=True)
        self._tables = None
        self._by_row = None

    def note_year(self, block: int, line: int, column: int, year: int) -> None:
        """Record a year (or a date's) written in a table cell at ``line`` of ``column``."""
        self.column_years.setdefault((block, column), year)
        insort(self._year_lines.setdefault((block, column), []), (line, year))

    def note_date(self, block: int, line: int, column: int, date: int) -> None:
        """Record a date (``YYYYMMDD``) written in a table cell: the year of its column and,
        from two dates of one row, whether the table lists the newest first."""
        if date < 10000101:
            return
        self.note_year(block, line, column, date // 10000)
        if block in self.newest_first:
            return
        first = self._row_dates.setdefault((block, line), date)
        if first != date:
            self.newest_first[block] = first > date

    def explain(self, target: Target, hint: Hint | None = None) -> Derivation | None:
        """A derivation of ``target`` from two figures (or a mean) and its rule, or ``None``.

        ``hint`` (from :meth:`hint`): the figures a question points at, tried first.
        """
        if not self.figures:
            return None
        if hint is not None and hint.named:
            how = _named_ratio(self, hint, target)
            if how is not None:
                return how
            if not hint.operands:  # named ratios alone: no rows named by their words
                hint = None
        # a small count ("2: 2019 and 2018" for "how many years...") is no operation's result
        count = (
            target.kind == "plain"
            and target.mult == 1.0
            and target.half >= 0.5  # written without decimals
            and target.value in _SMALL_COUNTS
        )
        if target.named and self.labels:
            # the answer names the ratio it states ("$262.4 million, an operating margin of
            # 17.5%"), as a question may
            how = _named_ratio(self, _stated_ratio_hint(self, hint, target), target)
            if how is not None:
                return how
        if target.whole and hint is not None and hint.operands:
            # "$262.4 million, 17.5% of revenue": the share of the figure asked for in a row
            # the words after the percentage name
            how = _stated_share(self, hint, target)
            if how is not None:
                return how
        if target.averaged and hint is not None and not count:
            # "$1,496.5 million; the average over 2018 and 2019 was $1,365.3 million"
            how = _stated_mean(self, hint, target)
            if how is not None:
                return how
        if hint is not None and target.trend and not count:
            # the answer adds the change it states in words ("$1,496.5 million, up 21.3%"): of a
            # row the question names, whatever operation the question asks for
            how = _stated_change(self, hint, target)
            if how is not None:
                return how
        if target.stated and not count:  # a figure its sentence states may be an operand
            how = _pinned(self, target)
            if how is not None:
                return how
        if target.rates and not count:  # a percentage its sentence states, applied
            how = _applied_rate(self, target)
            if how is not None:
                return how
        if hint is not None and hint.ops is _ALL_OPS and not count:
            # a question that names rows of the table and no operation ("What was income taxes
            # payable?") asks for a figure the table states: no sum or mean of other figures,
            # its row's or another's, explains another one
            return None
        if hint is not None and hint.operands and _flips_a_named_figure(self, hint, target):
            return None
        if hint is not None and hint.operands:
            how = _search_hint(self, hint, target)
            if how is not None:
                return how
            if any(_search_hint(self, hint, t) is not None for t in _opposites(target)):
                return None  # the figures the question names give the opposite sign
        if target.reach == "question":
            return None
        # by the operations the question asks for ("average": no ratio explains the answer)
        asked = hint.ops if hint is not None and not count else None
        return _search(self._derived_tables(), self, target, asked)

    def prepare(self) -> None:
        """Build now what :meth:`explain` builds on first use (for a context prepared once and
        checked many times)."""
        self._derived_tables()

    def _derived_tables(self) -> dict[str, _Table]:
        """The derived values of the figures, by family (built on first need)."""
        if self._tables is None:
            self._tables = self._build()
        return self._tables

    def hint(self, question: str) -> Hint | None:
        """The figures ``question`` points at: the cells of the table rows it names (by the
        words of their labels), in the columns of the years it names; ``None`` when it names
        none. A question asking for a change (not a difference) fixes its direction: the newer
        figure minus the older one."""
        named = self._named(question.lower()) if self.labels else ()
        rows = self._row_hint(question)
        if rows is None and not named and self.texts:
            lower = question.lower()
            named_lines = [line for line in self.label_lines() if _names_line(lower, line)]
            if named_lines and _asked_ops(_without(lower, named_lines)) is _ALL_OPS:
                # the question names a row whose figures the layout has moved away from it
                # (a block of labels, blocks of figures): it asks for a figure the table states
                return Hint((), (), _ALL_OPS, "any")
        if named:
            return replace(rows, named=named) if rows else Hint((), (), _ALL_OPS, "any", named)
        return rows

    def _named(self, lower: str) -> tuple[tuple[str, int, int], ...]:
        """The ratios the (lower-cased) question names (the lexicons' ``named_ratios``), as
        pairs of a numerator and a denominator figure of one column of one table."""
        out: list[tuple[str, int, int]] = []
        labels: dict[tuple[int, int], tuple[str, ...]] | None = None
        for names, numerator, denominator in _NAMED_RATIOS:
            m = names().search(lower)
            if m is None:
                continue
            if labels is None:  # once, for the first ratio the question names
                labels = {k: tuple(_LABEL_WORD.findall(v.lower())) for k, v in self.labels.items()}
            bottoms = self._labelled(labels, denominator)
            for k in self._labelled(labels, numerator):
                fa = self.figures[k]
                for j in bottoms:
                    fb = self.figures[j]
                    if fb.block == fa.block and fb.column == fa.column and fb.value:
                        out.append((m.group(), k, j))
        return tuple(out)

    def _label_short_sets(self) -> dict[tuple[int, int], frozenset[str]]:
        """The short words of each row label (:func:`_short_words`), made once per context."""
        if self._label_short is None:
            self._label_short = {
                key: _short_words(label, label=True) for key, label in self.labels.items()
            }
        return self._label_short

    def _label_word_sets(self) -> dict[tuple[int, int], frozenset[str]]:
        """The words of each row label that may name it (:func:`_words`), and the labels an
        extractor glued (:attr:`_glued`), made once per context: questions and answers repeat
        over it."""
        if self._label_words is None:
            self._label_words = {key: _words(label) for key, label in self.labels.items()}
            self._glued = _glued_labels(self.labels)
        return self._label_words

    def before_words(self, k: int) -> frozenset[str]:
        """:func:`_words` of the words before figure ``k`` (:attr:`Figure.before`), made once
        per context: :func:`_tied` reads them for every pinned figure of every answer."""
        words = self._before_words.get(k)
        if words is None:
            words = self._before_words[k] = _words(self.figures[k].before)
        return words

    def _labelled(
        self, labels: dict[tuple[int, int], tuple[str, ...]], wanted: frozenset[tuple[str, ...]]
    ) -> list[int]:
        """The figures (not percentages) of the table rows whose label's words (``labels``)
        are one of ``wanted``, a leading word of a total aside (``total``, ``totale``: the
        lexicons' ``total_words``)."""
        glued = {"".join(w) for w in wanted}  # "grossprofit": an extractor glued its words
        rows = {
            key
            for key, words in labels.items()
            if words in wanted
            or (words[:1] and words[0] in _TOTAL and words[1:] in wanted)
            or (len(words) == 1 and words[0] in glued)
        }
        return [k for k in self._in_rows(rows) if not self.figures[k].percent]

    def _row_hint(self, question: str) -> Hint | None:
        """:meth:`hint`'s figures of the rows the question names by their words."""
        words = _words(question)
        if not words or not self.labels:
            return None
        best = 0
        rows: list[tuple[int, int]] = []
        whole: list[tuple[int, int]] = []  # rows every word of whose label the question has
        extra: list[tuple[int, int]] = []  # unlabelled (total) rows, rows labelled by its years
        years = {int(y) for y in YEAR_RE().findall(question)}
        lower = question.lower()
        ascii_question = lower.isascii()
        ops = _asked_ops(lower)
        total = _ASKS_TOTAL.search(lower)  # an unlabelled row is a table's total
        label_words = self._label_word_sets()
        found = _question_words(words) if self._glued else None
        short = _short_words(question, label=False)
        spelled, named = _acronyms(words, short)
        short |= named
        label_short = self._label_short_sets() if short else None
        for key, label in self.labels.items():
            own = label_words[key]
            # the short words both hold ("U.S.", "UK"): a match, counted on both sides; a name
            # the question writes as an acronym, the row writes out, or the other way round
            more = len(label_short[key] & short) if label_short is not None else 0
            said = len((own & named) - words) + sum(len(w - words) for w in spelled if w <= own)
            if not own and not more:
                # an unlabelled row is a table's total; a row labelled by a year is that year's
                bare = label.strip(" :$")
                if (total and not bare) or (bare.isdecimal() and int(bare) in years):
                    extra.append(key)
                continue
            common, size = len(own & words) + more + said, len(own) + more
            if not ascii_question:
                common += _glued_common(own, words, lower)
            elif found is not None and key in self._glued:
                common, size = max((common, size), _segmented(self._glued[key], found))
            if common == size:
                whole.append(key)
            if 2 * common < size or common < best or common == 0:
                continue
            if common > best:
                best, rows = common, []
            rows.append(key)
        # the widest choice of rows that stays within HINT_OPERANDS figures
        for choice in (rows + whole + extra, rows + whole, rows):
            picked = self._cells(set(choice), years)
            if 0 < len(picked) <= HINT_OPERANDS:
                break
        else:
            return None
        chosen = set(choice)
        in_rows = tuple(self._in_rows(chosen))
        if whole and ops is not _ALL_OPS and len(years) <= 1:
            # the words of a row's label ask for nothing: "What was Net change in cash?" names
            # the row "Net change in cash", "What was Total revenue?" the row "Total revenue";
            # over two years they may ("the total cost of revenue in both 2019 and 2018")
            lower = _without(lower, (self.labels[k] for k in whole))
            ops = _asked_ops(lower)
        mode: Literal["change", "decrease", "difference", "any"] = "any"
        if _ASKS_GAP.search(lower):
            mode = "difference"
        elif _ASKS_DECREASE.search(lower) and not _ASKS_INCREASE.search(lower):
            mode = "decrease"
        elif _ASKS_CHANGE.search(lower):
            mode = "change"
        return Hint(tuple(picked), in_rows, ops, mode)

    def year_of(self, f: Figure) -> int | None:
        """The year heading ``f``'s column, or the nearest column to its left (a header cell
        spanning several columns: ``| 2019 | | 2018 |`` over ``| $ | % | $ | % |``): the last
        year written in that column at or above ``f``'s row in a row of no other figure, as a
        heading covers the rows below it down to the next (two tables stacked in one block,
        ``Fiscal 2019`` over one and ``Fiscal 2018`` over the other; ``December 31, 2019`` over
        its rows), else the first year written in it."""
        if not f.table:
            return None
        for column in range(f.column, max(f.column - 3, 0) - 1, -1):
            year = self.column_years.get((f.block, column))
            if year is None:
                continue
            lines = self._year_lines.get((f.block, column))
            if lines is None or len(lines) == 1:
                return year
            rows = self._rows()
            k = bisect_right(lines, (f.line, _NO_YEAR)) - 1
            while k >= 0 and (f.block, lines[k][0]) in rows:
                k -= 1  # a row of figures dated in its label heads no rows below it
            return lines[k][1] if k >= 0 else year
        return None

    def _in_rows(self, rows: set[tuple[int, int]]) -> list[int]:
        """The figures of ``rows``, in document order."""
        by_row = self._rows()
        return sorted(k for row in rows for k in by_row.get(row, ()))

    def _rows(self) -> dict[tuple[int, int], list[int]]:
        """The figures of each row ``(block, line)`` (made once per context)."""
        if self._by_row is None:
            self._by_row = {}
            for k, f in enumerate(self.figures):
                self._by_row.setdefault((f.block, f.line), []).append(k)
        return self._by_row

    def _cells(self, rows: set[tuple[int, int]], years: set[int]) -> list[int]:
        """The figures of ``rows``; only those in the columns of ``years`` if any are."""
        picked = self._in_rows(rows)
        if years:
            in_years = [k for k in picked if self.year_of(self.figures[k]) in years]
            if in_years:
                return in_years
        return picked

    def _pairs(self) -> tuple[list[int], list[int], list[bool]]:
        figs = self.figures
        ai: list[int] = []
        bi: list[int] = []
        near: list[bool] = []
        seen: set[tuple[int, int]] = set()

        def pair(i: int, j: int, is_near: bool) -> None:
            key = (i, j) if i < j else (j, i)
            if key in seen:
                return
            seen.add(key)
            ai.append(key[0])
            bi.append(key[1])
            near.append(is_near)

        by_line: dict[tuple[int, int], list[int]] = {}
        by_column: dict[tuple[int, int], list[int]] = {}
        for k, f in enumerate(figs):
            by_line.setdefault((f.block, f.line), []).append(k)
            if f.table:
                by_column.setdefault((f.block, f.column), []).append(k)
        for members in by_line.values():
            n = len(members)
            span = n if figs[members[0]].table and n <= ROW_ALL_PAIRS else PROSE_SPAN + 1
            for x in range(n):
                for y in range(x + 1, min(n, x + span)):
                    pair(members[x], members[y], y - x == 1)
        for members in by_column.values():
            for x in range(len(members)):
                for y in range(x + 1, len(members)):
                    if figs[members[y]].line - figs[members[x]].line > COLUMN_SPAN:
                        break
                    pair(members[x], members[y], y - x == 1)
        for k in range(len(figs) - 1):  # neighbours across lines in running text
            for d in range(1, PROSE_SPAN + 1):
                j = k + d
                if j < len(figs) and figs[j].block == figs[k].block and not figs[k].table:
                    pair(k, j, d == 1)
        if len(ai) > MAX_PAIRS:
            order = sorted(range(len(ai)), key=lambda p: bi[p] - ai[p])[:MAX_PAIRS]
            ai = [ai[p] for p in order]
            bi = [bi[p] for p in order]
            near = [near[p] for p in order]
        return ai, bi, near

    def _cells_by(
        self, key: Callable[[Figure], tuple[int, int]]
    ) -> dict[tuple[int, int], list[int]]:
        """The indexes of the figures that are table cells, grouped by ``key`` (a row: block
        and line; a column: block and column), each group in order."""
        groups: dict[tuple[int, int], list[int]] = {}
        for k, f in enumerate(self.figures):
            if f.table:
                groups.setdefault(key(f), []).append(k)
        return groups

    def _runs(self) -> list[list[int]]:
        """Runs of 3 to :data:`MEAN_RUN` consecutive figures of one table row, all percentages
        or all not (means of two figures come from the pairs)."""
        figs = self.figures
        runs: list[list[int]] = []
        for members in self._cells_by(lambda f: (f.block, f.line)).values():
            for x in range(len(members)):
                for length in range(3, MEAN_RUN + 1):
                    run = members[x : x + length]
                    if len(run) == length and len({figs[r].percent for r in run}) == 1:
                        runs.append(run)
        return runs

    def _column_runs(self) -> list[list[int]]:
        """The figures of each column of a table, one a line, in order: every figure of it and,
        from four, every one but the last (a total row under the items), all percentages or
        all not. A column's sum or mean states a figure no cell does (``379 active minutes``
        for a week's seven cells; ``13 rainy days`` for three months')."""
        figs = self.figures
        runs: list[list[int]] = []
        for members in self._cells_by(lambda f: (f.block, f.column)).values():
            lines = [figs[k].line for k in members]
            if (
                len(members) >= 3
                and len(set(lines)) == len(lines)
                and len({figs[k].percent for k in members}) == 1
            ):
                runs.append(members)
                if len(members) >= 4:
                    runs.append(members[:-1])
        return runs

    def _build(self) -> dict[str, _Table]:
        import numpy as np

        arrays = self._arrays()
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            pairs = self._pair_arrays(arrays)
            add = _Sums.join([*self._pair_sums(arrays, pairs), *self._run_sums(arrays)])
            unscaled = add.scale == 1.0
            ratio, pch = _ratio_tables(pairs)

        def sub(mask: npt.NDArray[np.bool_], values: npt.NDArray[np.float64]) -> _Table:
            return _Table.build(
                values[mask], add.op[mask], add.a[mask], add.b[mask], add.near[mask]
            )

        return {
            # sums, differences and means of plain figures, with their stated scale applied
            "add_abs": sub(add.plain, add.v * add.scale),
            # the same where no scale is stated (an answer may add its own scale word)
            "add_raw": sub(add.plain & unscaled, add.v),
            # and with the scale a caption of its own states for the table
            "add_cap": sub(add.plain & unscaled & (add.cap != 1.0), add.v * add.cap),
            # differences of percentages: percentage points
            "add_pct": sub(add.pct, add.v),
            # neighbouring cells of a column headed "%" need not carry the sign (cells only: a
            # difference of two counts of running text is no percentage)
            "add_near": sub(add.plain & add.near & add.table & unscaled, add.v),
            "ratio": ratio,
            "pch": pch,
        }

    def _arrays(self) -> _FigureArrays:
        """The figures' attributes as arrays."""
        import numpy as np

        figs = self.figures
        return _FigureArrays(
            val=np.array([f.value for f in figs], dtype=np.float64),
            scl=np.array([f.scale for f in figs], dtype=np.float64),
            cap=np.array([f.caption for f in figs], dtype=np.float64),
            pct=np.array([f.percent for f in figs], dtype=np.bool_),
            line=np.array([f.line for f in figs], dtype=np.int64),
            block=np.array([f.block for f in figs], dtype=np.int64),
            table=np.array([f.table for f in figs], dtype=np.bool_),
            newest=np.array([self.newest_first.get(f.block, True) for f in figs], dtype=np.bool_),
            ordered=np.array([f.block in self.newest_first for f in figs], dtype=np.bool_),
        )

    def _pair_arrays(self, arrays: _FigureArrays) -> _Pairs:
        """The operand pairs of :meth:`_pairs` as arrays, with what a derivation from each
        needs to know."""
        import numpy as np

        ai_l, bi_l, near_l = self._pairs()
        ai = np.array(ai_l, dtype=np.int64)
        bi = np.array(bi_l, dtype=np.int64)
        near = np.array(near_l, dtype=np.bool_)
        pct, line, block, table = arrays.pct, arrays.line, arrays.block, arrays.table
        # Along a table row a change is newer minus older: the left figure minus the right one
        # when the newest year comes first. Between rows (or in prose) a difference is the
        # larger minus the smaller: "total - item" explains the other item, not its negation.
        row = table[ai] & (line[ai] == line[bi]) & (block[ai] == block[bi])
        a, b = arrays.val[ai], arrays.val[bi]
        unordered = row & ~arrays.ordered[ai]
        return _Pairs(
            ai=ai,
            bi=bi,
            near=near,
            a=a,
            b=b,
            row=row,
            fwd=(row & arrays.newest[ai]) | (~row & (a >= b)) | unordered,
            bwd=(row & ~arrays.newest[ai]) | (~row & (b >= a)) | unordered,
            both_pct=pct[ai] & pct[bi],
            no_pct=~pct[ai] & ~pct[bi],
            prose=~table[ai] & ~table[bi],
        )

    def _pair_sums(self, arrays: _FigureArrays, pairs: _Pairs) -> list[_Sums]:
        """The sums, differences (forward and backward) and two-figure means of ``pairs``."""
        import numpy as np

        pct, line, block, table = arrays.pct, arrays.line, arrays.block, arrays.table
        ai, bi, near, a, b = pairs.ai, pairs.bi, pairs.near, pairs.a, pairs.b
        mean2 = pairs.row | (near & (np.abs(line[bi] - line[ai]) == 1))
        # the scale stated for both operands (or a caption's), else none
        pair_scale = np.where(arrays.scl[ai] == arrays.scl[bi], arrays.scl[ai], np.nan)
        pair_cap = np.where(arrays.cap[ai] == arrays.cap[bi], arrays.cap[ai], 1.0)
        # a table of percentages: a block holding one, or a column headed "%"
        pct_blocks = np.zeros(int(block.max()) + 1 if len(block) else 1, dtype=np.bool_)
        pct_blocks[block[pct]] = True
        heads = [k for k in self.percent_blocks if k < len(pct_blocks)]
        pct_blocks[heads] = True
        pair_table = table[ai] & table[bi] & pct_blocks[block[ai]] & pct_blocks[block[bi]]
        # additive: a + b, a - b, b - a, (a + b) / 2 (the means of runs: _run_sums)
        parts = [
            # two percentages add up only as neighbouring cells (shares of one total)
            (a + b, _SUM, ai, bi, near | ~pairs.both_pct),
            (a - b, _DIFF, ai, bi, pairs.fwd),
            (b - a, _DIFF, bi, ai, pairs.bwd),
            ((a + b) / 2.0, _MEAN2, ai, bi, mean2),
        ]
        return [
            _Sums(
                v[m],
                np.full(int(m.sum()), op),
                x[m],
                y[m],
                near[m],
                pair_scale[m],
                pair_cap[m],
                pairs.both_pct[m],
                pairs.no_pct[m],
                pair_table[m],
            )
            for v, op, x, y, m in parts
        ]

    def _run_sums(self, arrays: _FigureArrays) -> list[_Sums]:
        """The means and the sums of the runs of :meth:`_runs` and of the whole columns of
        :meth:`_column_runs` (kept in :attr:`column_runs`: a derivation names its column by
        index, a row's run by its first figure and length)."""
        import numpy as np

        figs = self.figures
        columns = self.column_runs = self._column_runs()
        out = _run_tables(arrays, columns, list(range(len(columns))), (_COLMEAN, _COLSUM))
        runs = self._runs()
        if not runs:
            return out
        # the mean of a run of accounting negatives also by magnitude: "(709)" may be an
        # outflow of 709 ("net cash used"); a question naming them rejects the flipped sign
        magnitude = [r for r in runs if all(figs[k].bracketed for k in r)]
        starts = [r[0] for r in runs + magnitude]
        rows = _run_tables(arrays, runs + magnitude, starts, (_MEAN, _RUNSUM))
        if magnitude:  # as further sums are not needed, a mean stands in their place
            size = len(runs)
            rows[0].v[size:] = -rows[0].v[size:]
            rows[1].v[size:] = np.nan
        return out + rows


def _run_tables(
    arrays: _FigureArrays, runs: list[list[int]], named: list[int], ops: tuple[int, int]
) -> list[_Sums]:
    """The means and the sums of ``runs`` (figure indexes), as :class:`_Sums` of the operations
    ``ops`` (mean, sum), each run named by ``named`` (its ``a``; its length is ``b``): runs of
    consecutive cells, near (a "%" column's mean or sum need not carry the sign)."""
    import numpy as np

    if not runs:
        return []
    val = arrays.val
    means = np.array([val[r].mean() for r in runs], dtype=np.float64)
    sums = np.array([val[r].sum() for r in runs], dtype=np.float64)
    scale = _run_shared(arrays.scl, runs, np.nan)
    cap = _run_shared(arrays.cap, runs, 1.0)
    pct = arrays.pct[[r[0] for r in runs]]
    index = np.array(named)
    lengths = np.array([len(r) for r in runs])
    ones = np.ones(len(runs), dtype=np.bool_)
    return [
        _Sums(v, np.full(len(runs), op), index, lengths, ones, scale, cap, pct, ~pct, ones)
        for v, op in zip((means, sums), ops, strict=True)
    ]


def _ratio_tables(pairs: _Pairs) -> tuple[_Table, _Table]:
    """The ratios and the percent changes of ``pairs``, both ways (a percent change in running
    text either way, in a table as the years of a row fix it)."""
    import numpy as np

    a, b, ai, bi, near = pairs.a, pairs.b, pairs.ai, pairs.bi, pairs.near
    same = pairs.no_pct | pairs.both_pct
    ratio_ok = np.concatenate([same, same])
    # a ratio or a share compares sizes: "(709)" is an outflow of 709
    mag_a, mag_b = np.abs(a), np.abs(b)
    rat = np.concatenate([mag_a / mag_b, mag_b / mag_a])
    pch = np.concatenate([(a - b) / b * 100.0, (b - a) / a * 100.0])
    # in running text a change may be a rise from the smaller figure or a fall from the
    # larger one ("fell from 200 to 150": -25%), the sign tells which; in a table the
    # years of a row fix the direction, and between rows it is a rise
    prose = pairs.prose
    pch_ok = np.concatenate([pairs.fwd | prose, pairs.bwd | prose]) & ratio_ok
    two_a = np.concatenate([ai, bi])
    two_b = np.concatenate([bi, ai])
    two_near = np.concatenate([near, near])
    return (
        _Table.build(
            rat[ratio_ok],
            np.full(int(ratio_ok.sum()), _RATIO),
            two_a[ratio_ok],
            two_b[ratio_ok],
            two_near[ratio_ok],
        ),
        _Table.build(
            pch[pch_ok],
            np.full(int(pch_ok.sum()), _PCH),
            two_a[pch_ok],
            two_b[pch_ok],
            two_near[pch_ok],
        ),
    )


def _run_shared(
    values: npt.NDArray[np.float64], runs: Sequence[list[int]], fill: float
) -> npt.NDArray[np.float64]:
    """Per run of figures, the value every figure of it has (a scale, a caption's scale), or
    ``fill`` where they differ."""
    import numpy as np

    return np.array([values[r[0]] if (values[r] == values[r[0]]).all() else fill for r in runs])


LABEL_BLOCK = 3
"""Consecutive lines of labels without figures that make a block of a table's labels
(:func:`label_block_lines`): a heading or two above a paragraph make none."""
_LABEL_LINE = lazy(r"[^\W\d_][^\d\n|\t]{2,78}")
"""A line a table's row label may be: a letter first, no digit, at most 80 characters."""


def label_block_lines(text: str) -> list[str]:
    """The lines of ``text`` (normalised) in runs of :data:`LABEL_BLOCK` or more lines that
    are row labels without figures (:data:`_LABEL_LINE`, not a sentence: no final full stop),
    as pdfminer's ``extract_text`` writes a table: its labels in one block, each column of
    figures in a block of its own."""
    out: list[str] = []
    run: list[str] = []
    for raw in (*text.split("\n"), ""):
        line = raw.strip()
        if _LABEL_LINE().fullmatch(line) is not None and not line.endswith("."):
            run.append(line.rstrip(":"))
            continue
        if len(run) >= LABEL_BLOCK:
            out.extend(run)
        run = []
    return out


def _without(question: str, labels: Iterable[str]) -> str:
    """The (lower-cased) ``question`` without the labels of two words or more it writes whole
    (each lower-cased, its blanks one space): what is left of it asks for an operation, or for
    none. A label of one word stays: ``Total`` names a row, and asks for a sum too. The longest
    first: ``current liabilities`` taken out of ``total current liabilities`` would leave
    ``total``."""
    texts = {" ".join(label.lower().strip(" :$").split()) for label in labels}
    for text in sorted(texts, key=len, reverse=True):
        if " " in text:
            question = question.replace(text, " ")
    return question


def _names_line(question: str, line: str) -> bool:
    """Whether the (lower-cased) ``question`` holds the label ``line`` as whole words."""
    k = question.find(line)
    while k >= 0:
        end = k + len(line)
        if (k == 0 or not question[k - 1].isalnum()) and (
            end == len(question) or not question[end].isalnum()
        ):
            return True
        k = question.find(line, k + 1)
    return False


def _negated(t: Target) -> Target:
    return replace(t, value=-t.value)


def _opposites(t: Target) -> tuple[Target, ...]:
    """``t`` with the other sign: its number negated and, where the answer states a direction
    in words (``a decrease of 0.1 million``), the other direction with the number as written
    or negated (the figures a question names giving ``3.4 - 3.3``, a rise, contradict it)."""
    if not t.trend:
        return (_negated(t),)
    other = replace(t, trend=-t.trend)
    return (_negated(t), other, _negated(other))


def _flips_a_named_figure(figs: Figures, hint: Hint, t: Target) -> bool:
    """Whether a figure of the rows a question names, asking for no change or difference
    (``What was total cash equivalents?``), is the answer's number with the other sign
    (``-$3,094 million`` for the cell ``3,094``): the answer flips the sign of the figure asked
    for, which no derivation explains (``750 - 3,844``, two other cells of its rows, would)."""
    if hint.mode != "any" or not t.value:
        return False
    near = _Near.of(_negated(t))
    for k in hint.operands:
        f = figs.figures[k]
        if f.value and (f.value > 0) != (t.value > 0) and near.plain(f.value, f):
            return True
    return False


def _newer_first(figs: Figures, fa: Figure, fb: Figure, strict: bool = False) -> bool | None:
    """Whether ``fa - fb`` is the newer figure minus the older (``None``: not known; ``strict``:
    only from the years the table states, not from its default order)."""
    ya = figs.year_of(fa)
    yb = figs.year_of(fb)
    if ya is not None and yb is not None and ya != yb:
        return ya > yb
    if fa.table and fb.table and (fa.block, fa.line) == (fb.block, fb.line):
        if strict and fa.block not in figs.newest_first:
            return None
        # a table lists the newest year first unless its header says otherwise
        return (fa.column < fb.column) == figs.newest_first.get(fa.block, True)
    return None


def _money_and_count(fa: Figure, fb: Figure) -> bool:
    """Whether ``fa`` is a figure of running text with a currency or a scale and ``fb`` a bare
    figure of running text: their ratio is no share (``2% = 1 / $50``, the 1 of ``1-2
    business days``); a table's bare cell may be money its first row writes with ``$``."""
    return fa.measured and not fa.table and not fb.measured and not fb.table and not fb.percent


def _plausible(figs: Figures, t: Target, op: int, fa: Figure, fb: Figure, value: float) -> bool:
    """Whether ``value``, derived from ``fa`` and ``fb`` by ``op``, may explain ``t``.

    A sum, difference or mean of two figures does not explain an answer with its own scale word
    or currency when an operand has neither and stands in running text (``€1.3bn = 2.3 - +1``);
    a count or label is not combined with a much larger figure (``12,503 = 12,500 + 3``); a
    count of one thing is not computed from a count of it and a count of another (``12
    doctors = 19 nurses - 7 doctors``). A change (a difference or a percent change) whose sign
    the table's years or the context's words fix does not explain an answer stating the
    opposite direction (``fell 30%`` for a rise from 40 to 52). A target read in a scale the
    context does not state (:attr:`Target.cells_only`) comes from table cells only. Money and
    a bare figure of running text make no ratio (:func:`_money_and_count`), nor the two ends of
    one range a sum (``3 = 1 + 2`` of ``1-2 business days``)."""
    if t.cells_only and not (fa.table and fb.table):
        return False
    if op == _RATIO and (_money_and_count(fa, fb) or _money_and_count(fb, fa)):
        return False
    if op == _SUM and {fa.range_end, fb.range_end} == {"low", "high"} and fa.line == fb.line:
        return False
    if op in (_SUM, _DIFF, _MEAN2):
        if (t.mult != 1.0 or t.currency) and not (
            (fa.table or fa.measured) and (fb.table or fb.measured)
        ):
            return False
        if fa.count or fb.count:
            small, big = (fa, fb) if fa.count and abs(fa.value) <= abs(fb.value) else (fb, fa)
            much_larger = abs(big.value) * big.scale > COUNT_RATIO * abs(small.value)
            if small.count and much_larger and not (small.noun and small.noun == big.noun):
                return False
        if t.noun and fa.noun and fb.noun and fa.noun != fb.noun and t.noun in (fa.noun, fb.noun):
            return False
    if t.trend and op in (_DIFF, _PCH) and value:
        newer = _newer_first(figs, fa, fb, strict=True)
        if newer is not None:
            rise = (value > 0) == newer
            if (rise and t.trend < 0) or (not rise and t.trend > 0):
                return False
        elif -t.trend in (fa.trend, fb.trend) and t.trend not in (fa.trend, fb.trend):
            return False
    return True


@dataclass(frozen=True, slots=True)
class _Near:
    """Whether a value computed from a question's figures gives an answer's number at the
    precision the answer writes (:func:`_search_hint`)."""

    t: Target
    h: float
    """Half a unit of the answer's last digit, widened by a rounding error."""
    shrink: float
    """The share of :attr:`h` on the side away from zero (a tie rounds away from zero)."""

    @classmethod
    def of(cls, t: Target) -> _Near:
        """The tolerance of ``t``."""
        eps = float_slack(t.value)
        h = t.half + eps
        return cls(t, h, (t.half - eps) / h if t.half > eps else 1.0)

    def hit(self, x: float, v: float, tol: float) -> bool:
        """Whether ``x`` rounds to ``v`` within ``tol``."""
        return gives(x, v, tol, tol * self.shrink)  # a tie rounds away from zero, as in _search

    def plain(self, x: float, f: Figure) -> bool:
        """Whether ``x``, computed from figures like ``f``, gives the answer's number: with the
        stated scale, or as written (the answer may omit the scale or state its own), or with
        the scale a caption of its own states for the table."""
        t, h, hit = self.t, self.h, self.hit
        return (
            hit(x * f.scale, t.value, h)
            or (
                not (t.mult != 1.0 and (f.units or f.scale != 1.0))
                and hit(x, t.value / t.mult, h / t.mult)
            )
            or (f.caption != 1.0 and hit(x * f.caption, t.value, h))
        )


def _table_rows(figs: Figures, keys: Iterable[int], percent: bool | None = None) -> list[list[int]]:
    """The table cells among ``keys`` (indices into :attr:`Figures.figures`) grouped by their
    row, in order; with ``percent``, only the cells that are (or are not) percentages."""
    by_row: dict[tuple[int, int], list[int]] = {}
    for k in keys:
        f = figs.figures[k]
        if f.table and (percent is None or f.percent == percent):
            by_row.setdefault((f.block, f.line), []).append(k)
    return list(by_row.values())


def _stated_mean(figs: Figures, hint: Hint, t: Target) -> Derivation | None:
    """``t``, a number the answer states as an average (:attr:`Target.averaged`), as the mean
    of the cells of one row the question names (rule ``mean``, at the answer's precision): of
    the years the answer names (two or more), else of a cell the question points at and the
    cell beside it, or of the whole row."""
    if t.kind == "ratio" or not hint.rows or len(hint.rows) > 4 * HINT_OPERANDS:
        return None
    asked = set(hint.operands)
    near = _Near.of(t)
    for cells in _table_rows(figs, hint.rows, percent=t.kind == "percent"):
        by_year: dict[int, int] = {}  # the first cell under each year the answer names
        for k in cells:
            year = figs.year_of(figs.figures[k])
            if year in t.years:
                by_year.setdefault(year, k)
        named = list(by_year.values())
        runs = [named] if len(named) >= 2 else []
        runs += [cells[x : x + 2] for x, k in enumerate(cells[:-1]) if {k, cells[x + 1]} & asked]
        runs.append(cells)
        for run in runs:
            group = [figs.figures[k] for k in run]
            if len(group) < 2 or len({f.scale for f in group}) != 1:
                continue
            if near.plain(sum(f.value for f in group) / len(group), group[0]):
                summed = " + ".join(f.text for f in group)
                return f"{t.text} = ({summed}) / {len(group)}", "mean"
    return None


def _stated_share(figs: Figures, hint: Hint, t: Target) -> Derivation | None:
    """``t``, a percentage the answer follows with the words of a row (:attr:`Target.whole`:
    ``17.5% of revenue``), as the share of a figure the question points at in that row's figure
    of the same column (rule ``ratio``), at the answer's precision: the rows whose label's words
    all stand among those words, the ones with the most words first; the figure a share of
    one the answer states before it (:attr:`Target.parts`), as written or in its scale, its
    sign aside (``(268)``: an answer's brackets may be an aside)."""
    if t.kind != "percent" or not t.parts:
        return None
    words = figs._label_word_sets()
    named = sorted(
        (key for key, own in words.items() if own and own <= t.whole),
        key=lambda key: -len(words[key]),
    )
    if not named:
        return None
    near = _Near.of(t)
    rows = figs._rows()
    for key in named:
        for j in rows.get(key, ()):
            fb = figs.figures[j]
            for k in hint.operands:
                fa = figs.figures[k]
                if k == j or fa.percent or fb.percent or not fb.value:
                    continue
                if not any(
                    math.isclose(abs(x), abs(p))
                    for p in t.parts
                    for x in (fa.value, fa.value * fa.scale)
                ):
                    continue  # a share of a figure the answer does not state
                if (fa.block, fa.column) != (fb.block, fb.column):
                    continue
                if near.hit(abs(fa.value) / abs(fb.value) * 100.0, t.value, near.h):
                    return f"{t.text} = {fa.text} / {fb.text}", "ratio"
    return None


BEFORE_REACH = 64
"""How much of its line before a figure of running text :attr:`Figure.before` keeps."""
PINNED_FIGURES = 6
"""Most context figures one stated figure is found as (:func:`_pinned`): a figure written all
over a context names none of them."""


def _pinned(figs: Figures, t: Target) -> Derivation | None:
    """``t``, a change the answer states in words (:attr:`Target.trend`) or a percentage,
    from a figure its sentence states (:attr:`Target.stated`, found in the context as
    written or rounded) and one other context figure that the words around them tie to it
    (:func:`_tied`): the change of one figure (the same table row, or running text whose words
    before each share one: ``Group revenue reached €4.2 billion`` and ``Group revenue was €3.9
    billion`` for ``rose about 7.7% to €4.2 billion``; signed and directed as
    :func:`_pinned_change` says), or for a percentage without a direction, the stated figure's
    share of a whole the words after the percentage name (a row of its column named whole by
    them, or two of them before a figure of running text: ``212,7 millions d'euros, soit 6,2
    pour cent du chiffre d'affaires``). One operand pinned by the answer and tied by words to
    the other: no search over every pair, so a precision of two digits is trusted."""
    if t.kind == "ratio" or (t.kind == "plain" and not t.trend):
        return None
    pins = [k for k, f in enumerate(figs.figures) if _states(f, t.stated)]
    if not pins or len(pins) > PINNED_FIGURES:
        return None
    near, goal = _Near.of(t), abs(t.value)
    share = t.kind == "percent" and not t.trend
    rows = figs._label_word_sets() if figs.labels else {}
    for k in pins:
        fk = figs.figures[k]
        for j in _tied(figs, k, t.whole if share else None, rows):
            fj = figs.figures[j]
            if share:
                vk, vj = abs(fk.value * fk.scale), abs(fj.value * fj.scale)
                if vk < vj and near.hit(vk / vj * 100.0, goal, near.h):  # the stated: the part
                    return f"{t.text} = {fk.text} / {fj.text}", "ratio"
                continue
            how = _pinned_change(figs, fk, fj, t, near)
            if how is not None:
                return how
    return None


def _pinned_change(
    figs: Figures, fa: Figure, fb: Figure, t: Target, near: _Near
) -> Derivation | None:
    """``t``, a change stated in words (a difference, or a percent change), as the change
    between ``fa`` and ``fb`` (:func:`_pinned`): from the older to the newer where their years
    or their table row order them (a table lists the newest first unless its header says
    otherwise), signed as every change is (from a negative figure a rise is a negative
    percentage), its direction the one the answer states; else a rise relative to the smaller
    figure, a fall to the larger (``fell 54%`` from 14.2 to 6.5; a rise from 6.5 would be
    118%), and a difference the larger less the smaller. ``near``: ``t``'s tolerance."""
    goal = abs(t.value)
    if t.years and any((y := figs.year_of(f)) is not None and y not in t.years for f in (fa, fb)):
        return None  # a figure of a year the answer does not name ("up $35 million from 2018")
    va, vb = fa.value * fa.scale, fb.value * fb.scale
    newer_first = _newer_first(figs, fa, fb)
    if newer_first is not None:
        new, old, fn, fo = (va, vb, fa, fb) if newer_first else (vb, va, fb, fa)
        if not old:
            return None
        # signed, as every change is: from a negative figure a rise is a negative percentage
        x = new - old if t.kind == "plain" else (new - old) / old * 100.0
        if x * t.trend <= 0:
            return None  # the change goes the other way
        x = abs(x)
    else:
        small, large = sorted((abs(va), abs(vb)))
        fn, fo = (fa, fb) if abs(va) >= abs(vb) else (fb, fa)
        if t.kind == "plain":
            x = large - small
        else:
            x = (large - small) / (small if t.trend > 0 else large) * 100.0
            if t.trend < 0:
                fn, fo = fo, fn
    if not near.hit(x, goal, near.h):
        return None
    if t.kind == "plain":
        return f"{t.text} = {fn.text} - {fo.text}", "difference"
    return f"{t.text} = ({fn.text} - {fo.text}) / {fo.text}", "percent_change"


def _names_figure(
    figs: Figures, j: int, words: frozenset[str], rows: dict[tuple[int, int], frozenset[str]]
) -> bool:
    """Whether ``words`` (:func:`_words`) name context figure ``j``: every word of its table
    row's label is one of them (``rows``: the labels' words), or, in running text, its words
    before it hold two of them (or the one there is)."""
    f = figs.figures[j]
    if f.table:
        label = rows.get((f.block, f.line), frozenset())
        return bool(label) and label <= words
    return len(words & figs.before_words(j)) >= min(2, len(words))


def _applied_rate(figs: Figures, t: Target) -> Derivation | None:
    """``t``, a plain figure, as a percentage its sentence states (:attr:`Target.rates`)
    applied to a context figure the words of that percentage's clause name: a row whose label's
    words are all among them, or running text whose words before the figure hold two of them
    (or the one there is). Its share (``2% of the dwelling coverage, which works out to
    $7,700``: 2% of ``Coverage A (Dwelling): $385,000``), or the figure after the rise or the
    fall it states (``base rent rises 3% to $5,047``: ``Base rent | $4,900`` x 1.03); with no
    direction stated, any of the three. One operand pinned by the answer and the other named
    by its words: no search over every pair, as :func:`_pinned`."""
    if t.value <= 0:
        return None
    near = _Near.of(t)
    rows = figs._label_word_sets() if figs.labels else {}
    for rate in t.rates:
        if not rate.words:
            continue
        p = rate.value / 100.0
        forms = [
            (factor, how)
            for factor, how, trend in (
                (p, rate.text, 0),
                (1.0 + p, f"(1 + {rate.text})", 1),
                (1.0 - p, f"(1 - {rate.text})", -1),
            )
            if rate.trend in (0, trend)
        ]
        for j, f in enumerate(figs.figures):
            if f.percent or not f.value or not _names_figure(figs, j, rate.words, rows):
                continue
            for factor, how in forms:
                if near.plain(abs(f.value) * factor, f):
                    return f"{t.text} = {f.text} × {how}", "product"
    return None


def _states(f: Figure, stated: tuple[tuple[float, float], ...]) -> bool:
    """Whether ``f`` (not a percentage) is one of the answer's ``stated`` figures, as written
    or rounded, with its stated scale."""
    if f.percent or not f.value:
        return False
    v = abs(f.value * f.scale)
    return any(gives(v, abs(x), h + float_slack(x)) for x, h in stated)


def _tied(
    figs: Figures,
    k: int,
    whole: frozenset[str] | None,
    rows: dict[tuple[int, int], frozenset[str]],
) -> Iterator[int]:
    """The context figures the words around them tie to figure ``k`` (:func:`_pinned`):
    without ``whole``, those of its table row, or of running text sharing a word before it
    with ``k``'s; with it, the figures of ``k``'s table column in a row every word of whose
    label is one of ``whole`` (the words after a share), or of running text whose words
    before it hold two of them (or the one there is)."""
    fk = figs.figures[k]
    own = frozenset() if fk.table else figs.before_words(k)
    for j, fj in enumerate(figs.figures):
        if j == k or fj.percent or not fj.value or fj.table != fk.table:
            continue
        if whole is None:
            tied = (
                (fj.block, fj.line) == (fk.block, fk.line)
                if fk.table
                else not own.isdisjoint(figs.before_words(j))
            )
        else:  # a row the words name whole, in the figure's column; or running text
            same_column = (fj.block, fj.column) == (fk.block, fk.column) or not fk.table
            tied = same_column and _names_figure(figs, j, whole, rows)
        if tied:
            yield j


def _stated_ratio_hint(figs: Figures, hint: Hint | None, t: Target) -> Hint:
    """The pairs of figures of the ratios the answer names (:attr:`Target.named`): those of a
    figure the question points at where there are some (``What was operating income in
    2019?``: 2019's column, not 2018's margin), else every column's."""
    pairs = figs._named(t.named)
    if hint is not None and hint.operands:
        asked = set(hint.operands)
        own = tuple(p for p in pairs if p[1] in asked or p[2] in asked)
        pairs = own or pairs
    return Hint((), (), _ALL_OPS, "any", pairs)


def _named_ratio(figs: Figures, hint: Hint, t: Target) -> Derivation | None:
    """``t`` as a ratio the question names (``gross margin``: gross profit / net sales), of
    the two figures of one column of the rows it divides, at the answer's precision: a
    percentage, or a plain number under :data:`RATIO_LIMIT`."""
    if t.kind == "ratio" or (t.kind == "plain" and abs(t.value) >= RATIO_LIMIT):
        return None
    near = _Near.of(t)
    times = 100.0 if t.kind == "percent" else 1.0
    for name, k, j in hint.named:
        fa, fb = figs.figures[k], figs.figures[j]
        x = abs(fa.value * fa.scale) / abs(fb.value * fb.scale) * times
        if near.hit(x, t.value, near.h):
            return f"{t.text} = {fa.text} / {fb.text}: {name}", "ratio"
    return None


def asks_mean(question: str) -> bool:
    """Whether ``question`` asks for an average of the figures of two or more years (a word
    of the lexicons' ``asks_mean``, and not one year alone: ``the average exchange rate in FY
    2019`` names a figure the table states), the questions :func:`stated_operand` reads."""
    lower = question.lower()
    if not _STATES_MEAN.search(lower):
        return False  # a word of a mean first: one expression, where _asked_ops runs five
    ops = _asked_ops(lower)
    return ops != _ALL_OPS and "mean" in ops and len(set(YEAR_RE().findall(lower))) != 1


def stated_operand(figs: Figures, hint: Hint, t: Target, found: str) -> Figure | None:
    """The figure the question names that ``t`` states (its value, with its scale or as
    written, or the digits of ``found``, the context's text the answer's figure was found
    as: ``$239,310,000`` for ``239,310``), when the question asks for an average of figures
    of two or more years (:func:`asks_mean`) and no mean of the figures it names gives ``t``:
    the answer states one of the operands instead of the result (``What is the average X for
    2018 and 2019?`` answered with 2018's figure). ``None`` otherwise: the figure's row
    states an average (``Average price``), or its row holds no other figure the question
    names under another year."""
    if "mean" not in hint.ops or hint.ops == _ALL_OPS or len(hint.operands) < 2:
        return None
    near = _Near.of(t)
    digits = _DIGITS_OF.sub("", found)
    ops = [figs.figures[k] for k in hint.operands]
    stated = next(
        (
            f
            for f in ops
            if f.percent == (t.kind == "percent")
            and (near.plain(f.value, f) or _DIGITS_OF.sub("", f.text) == digits)
        ),
        None,
    )
    if stated is None:
        return None
    label = figs.labels.get((stated.block, stated.line), "").lower()
    year = figs.year_of(stated)
    other_years = {
        figs.year_of(f)
        for f in ops
        if f is not stated and (f.block, f.line) == (stated.block, stated.line)
    }
    if _STATES_MEAN.search(label) or year is None or not other_years - {None, year}:
        return None
    # a mean of the figures named that gives it is no operand stated
    return None if _search_hint(figs, replace(hint, ops=_MEAN_ONLY), t) is not None else stated


def _search_hint(figs: Figures, hint: Hint, t: Target) -> Derivation | None:
    """A derivation of ``t`` from the figures a question points at, by the operations the
    question asks for (every operation when it names none): pairs (a difference in the
    direction the question asks for; a change only along a row or between years), shares of a
    sum, sums of three, and the sum or mean of a named row; any precision."""
    ops = [figs.figures[k] for k in hint.operands]
    near = _Near.of(t)
    return (
        _hint_pairs(figs, hint, t, ops, near)
        or _hint_mean_change(figs, hint, t, near)
        or _hint_row_means(hint, t, ops, near)
        or _hint_triples(hint.ops, t, ops, near)
        or _hint_runs(figs, hint.ops, t, ops, near)
    )


def _hint_pairs(
    figs: Figures, hint: Hint, t: Target, ops: list[Figure], near: _Near
) -> Derivation | None:
    """A derivation of ``t`` from two of the question's figures ``ops`` (:func:`_search_hint`):
    a difference in the direction the question asks for, a percent change, a ratio, a sum or
    a mean."""
    want = hint.ops
    hit, plain, h = near.hit, near.plain, near.h
    n = len(ops)
    for i in range(n):
        fa = ops[i]
        for j in range(n):
            fb = ops[j]
            if i == j or fa.percent != fb.percent:
                continue
            if fa.table and fb.table and fa.line != fb.line and fa.column != fb.column:
                continue  # two cells of a table combine along a row or down a column
            a, b = fa.value, fb.value
            newer = _newer_first(figs, fa, fb)
            if hint.mode == "decrease" and newer is not None:
                newer = not newer
            # a change runs along a row or between years; a difference may be the positive one
            if hint.mode == "any":
                diff_ok = True
            elif hint.mode == "difference":
                diff_ok = bool(newer) or a >= b
            else:
                diff_ok = newer is not False
            ta, tb = fa.text, fb.text
            if t.kind == "percent":
                found = _percent_pair(figs, want, t, fa, fb, i < j, diff_ok, near)
                if found is not None:
                    return found
                continue
            if t.kind == "ratio":
                if "ratio" in want and b and hit(abs(a) / abs(b), t.value, h):
                    return f"{t.text} = {ta} / {tb}", "ratio"
                continue
            if fa.percent or fa.scale != fb.scale:
                continue
            if (
                "sum" in want
                and i < j
                and plain(a + b, fa)
                and _plausible(figs, t, _SUM, fa, fb, a + b)
            ):
                return f"{t.text} = {ta} + {tb}", "sum"
            if (
                "diff" in want
                and diff_ok
                and plain(a - b, fa)
                and _plausible(figs, t, _DIFF, fa, fb, a - b)
            ):
                return f"{t.text} = {ta} - {tb}", "difference"
            if (
                "mean" in want
                and i < j
                and plain((a + b) / 2.0, fa)
                and _plausible(figs, t, _MEAN2, fa, fb, (a + b) / 2.0)
            ):
                return f"{t.text} = ({ta} + {tb}) / 2", "mean"
            if "ratio" in want and b and abs(t.value) < RATIO_LIMIT and hit(abs(a / b), t.value, h):
                return f"{t.text} = {ta} / {tb}", "ratio"
    return None


def _percent_pair(
    figs: Figures,
    want: frozenset[str],
    t: Target,
    fa: Figure,
    fb: Figure,
    first: bool,
    diff_ok: bool,
    near: _Near,
) -> Derivation | None:
    """A percentage ``t`` from the pair ``fa``, ``fb`` (:func:`_hint_pairs`; ``first``: ``fa``
    comes first among the question's figures, ``diff_ok``: their difference runs the way the
    question asks): a difference of percentages, a percent change, a ratio or a mean."""
    hit, h = near.hit, near.h
    a, b, ta, tb = fa.value, fb.value, fa.text, fb.text
    if (
        "diff" in want
        and fa.percent
        and diff_ok
        and hit(a - b, t.value, h)
        and _plausible(figs, t, _DIFF, fa, fb, a - b)
    ):
        return f"{t.text} = {ta} - {tb}", "difference"
    if (
        "pch" in want
        and b
        and diff_ok
        and hit(pch := (a - b) / b * 100.0, t.value, h)
        and _plausible(figs, t, _PCH, fa, fb, pch)
    ):
        return f"{t.text} = ({ta} - {tb}) / {tb}", "percent_change"
    if "ratio" in want and b and hit(abs(a) / abs(b) * 100.0, t.value, h):
        return f"{t.text} = {ta} / {tb}", "ratio"
    if "mean" in want and first and fa.percent and hit((a + b) / 2.0, t.value, h):
        return f"{t.text} = ({ta} + {tb}) / 2", "mean"
    return None


_CHANGE_OPS = frozenset({"diff", "pch"})


def _stated_change(figs: Figures, hint: Hint, t: Target) -> Derivation | None:
    """``t``, a number the answer states as a change in words (``up 21.3%``, ``a decrease of
    $262.5 million``), as the change of one row the question names (``What was revenue in
    2019?``) from a cell the question points at to the cell beside it or to a cell of a year
    the answer names (``up 8,146 thousand from 2017``): the newer minus the older, or its
    percent change, in the direction the words state (which cell is newer known from the
    table's years or its order); never two rows combined, nor cells further apart (``up 61%
    from 2018`` for 2019 over 2017 in a table of three years)."""
    if not hint.rows or len(hint.rows) > 4 * HINT_OPERANDS:
        return None
    asked = set(hint.operands)
    change = Hint((), hint.rows, _CHANGE_OPS, "change")
    near = _Near.of(t)
    for cells in _table_rows(figs, hint.rows):
        for x, k in enumerate(cells):
            if k not in asked:
                continue
            fa = figs.figures[k]
            for y, other in enumerate(cells):
                fb = figs.figures[other]
                if y == x or (abs(y - x) > 1 and figs.year_of(fb) not in t.years):
                    continue
                newer = _newer_first(figs, fa, fb)
                if newer is None:
                    continue  # which year is newer is not known
                hi, lo = (fa, fb) if newer else (fb, fa)
                how = _hint_pairs(figs, change, t, [hi, lo], near)
                if how is None:
                    continue
                value = hi.value - lo.value
                if how[1] == "percent_change":
                    value /= lo.value
                if (value > 0) == (t.trend > 0):  # the direction the words state
                    return how
    return None


def _hint_mean_change(figs: Figures, hint: Hint, t: Target, near: _Near) -> Derivation | None:
    """The change of a two-year mean, ``((a + b) - (b + c)) / 2`` along a row of the question's
    rows, ``a - c`` newer first (:func:`_search_hint`)."""
    if (
        not ({"mean", "diff"} <= hint.ops and t.kind == "plain")
        or len(hint.rows) > 4 * HINT_OPERANDS
    ):
        return None
    line_of: dict[tuple[int, int], list[Figure]] = {}
    for k in hint.rows:
        f = figs.figures[k]
        if f.table and not f.percent:
            line_of.setdefault((f.block, f.line), []).append(f)
    for cells in line_of.values():
        for x in range(len(cells) - 2):
            fa, fc = cells[x], cells[x + 2]
            if fa.scale != fc.scale or fa.scale != cells[x + 1].scale:
                continue
            newer = _newer_first(figs, fa, fc)
            if newer is None:
                continue
            d = (fa.value - fc.value) / 2.0 if newer else (fc.value - fa.value) / 2.0
            if near.plain(d, fa):
                mid = cells[x + 1].text
                a_, c_ = (fa.text, fc.text) if newer else (fc.text, fa.text)
                return f"{t.text} = ({a_} + {mid}) / 2 - ({mid} + {c_}) / 2", "difference"
    return None


def _hint_row_means(hint: Hint, t: Target, ops: list[Figure], near: _Near) -> Derivation | None:
    """The difference of two named rows' means, ``(a + b) / 2 - (c + d) / 2``
    (:func:`_search_hint`)."""
    if not ({"mean", "diff"} <= hint.ops and t.kind == "plain"):
        return None
    by_row: dict[tuple[int, int], list[Figure]] = {}
    for f in ops:
        if not f.percent:
            by_row.setdefault((f.block, f.line), []).append(f)
    means = [
        (sum(f.value for f in g) / len(g), g)
        for g in by_row.values()
        if len(g) >= 2 and len({f.scale for f in g}) == 1
    ]
    for ma, ga in means:
        for mb, gb in means:
            if ga is gb or ga[0].scale != gb[0].scale:
                continue
            if hint.mode != "any" and ma < mb:
                continue  # a difference of two rows is the larger minus the smaller
            if near.plain(ma - mb, ga[0]):
                sa = " + ".join(f.text for f in ga)
                sb = " + ".join(f.text for f in gb)
                return f"{t.text} = ({sa}) / {len(ga)} - ({sb}) / {len(gb)}", "difference"
    return None


def _hint_triples(
    want: frozenset[str], t: Target, ops: list[Figure], near: _Near
) -> Derivation | None:
    """The share of a sum, ``(a + b) / c``, and the sum of three of the question's figures
    (:func:`_search_hint`)."""
    n = len(ops)
    if n > HINT_TRIPLES or not ("ratio" in want or "sum" in want):
        return None
    hit, plain, h = near.hit, near.plain, near.h
    for i in range(n):
        fa = ops[i]
        for j in range(i + 1, n):
            fb = ops[j]
            if fa.percent or fb.percent or fa.scale != fb.scale:
                continue
            ab = fa.value + fb.value
            for k in range(n):
                fc = ops[k]
                if k in (i, j) or fc.percent or fc.scale != fa.scale or not fc.value:
                    continue
                if "ratio" in want:
                    how = f"({fa.text} + {fb.text}) / {fc.text}"
                    share = abs(ab) / abs(fc.value)
                    if t.kind == "percent" and hit(share * 100.0, t.value, h):
                        return f"{t.text} = {how}", "ratio"
                    if t.kind != "percent" and share < 1.0 and hit(share, t.value, h):
                        return f"{t.text} = {how}", "ratio"
                if "sum" in want and k > j and t.kind == "plain" and plain(ab + fc.value, fa):
                    return f"{t.text} = {fa.text} + {fb.text} + {fc.text}", "sum"
    return None


def _hint_runs(
    figs: Figures, want: frozenset[str], t: Target, ops: list[Figure], near: _Near
) -> Derivation | None:
    """The sum or mean of a named row's figures (or of every named figure)
    (:func:`_search_hint`)."""
    groups: dict[tuple[int, int], list[Figure]] = {}
    for f in ops:
        groups.setdefault((f.block, f.line), []).append(f)
    runs = [g for g in groups.values() if len(g) >= 3]
    # a row's cells under year headings only (not its change or % columns)
    runs += [
        g2
        for g in groups.values()
        if len(g2 := [f for f in g if figs.column_years.get((f.block, f.column))]) >= 2
        and len(g2) < len(g)
    ]
    if len(groups) > 1:
        runs.append(ops)
    for run in runs:
        if t.kind != "plain" or len({(f.scale, f.percent) for f in run}) != 1 or run[0].percent:
            continue
        total = sum(f.value for f in run)
        shown = " + ".join(f.text for f in run)
        if "sum" in want and near.plain(total, run[0]):
            return f"{t.text} = {shown}", "sum"
        if "mean" in want and near.plain(total / len(run), run[0]):
            return f"{t.text} = ({shown}) / {len(run)}", "mean"
    return None


def _bridges(fa: Figure, fb: Figure, scale: float, unit: float) -> bool:
    """Whether a sum or difference of ``fa`` and ``fb`` only bridges the gap between the answer
    and the larger figure: the smaller is under :data:`NEAR_OPERAND` units of the answer's last
    digit (``unit``, in the units of ``scale``) and under :data:`NEAR_SHARE` of the larger,
    and the two are not cells of one table row (a change over the years may be small)."""
    small, big = sorted((abs(fa.value), abs(fb.value)))
    if small * scale >= NEAR_OPERAND * unit or small >= NEAR_SHARE * big:
        return False
    return not (fa.table and fb.table and (fa.block, fa.line) == (fb.block, fb.line))


SEARCH_HITS = 64
"""Most derived values within an answer's precision that are checked for plausibility."""


SMALL_COUNT = 12
"""The largest whole number an answer may count with (how many years, rows, segments, single
trips) or write as a label's (``Attainment 8``) rather than as a figure it compares."""
_SMALL_COUNTS = frozenset(float(n) for n in range(SMALL_COUNT + 1))
"""Whole numbers an answer may count with."""
_OP_NAMES = {
    _SUM: "sum",
    _RUNSUM: "sum",
    _COLSUM: "sum",
    _COLMEAN: "mean",
    _DIFF: "diff",
    _PROD: "ratio",
    _RATIO: "ratio",
    _PCH: "pch",
    _MEAN: "mean",
    _MEAN2: "mean",
}
"""The operation a question asks for (:func:`_asked_ops`) that each derivation is."""


def _search(
    tables: dict[str, _Table], owner: Figures, t: Target, asked: frozenset[str] | None = None
) -> Derivation | None:
    eps = float_slack(t.value)
    h = t.half + eps
    v = t.value
    figs = owner.figures
    plans: list[tuple[str, float, float]] = []  # (table, target, tolerance) in table units
    if t.kind == "percent":
        plans += [("pch", v, h), ("ratio", v / 100.0, h / 100.0), ("add_pct", v, h)]
        plans += [("add_near", v, h)]
    elif t.kind == "ratio":
        plans += [("ratio", v, h)]
    else:
        plans += [("add_abs", v, h), ("add_cap", v, h)]
        if t.mult != 1.0:
            plans += [("add_raw", v / t.mult, h / t.mult)]
        if abs(v) < RATIO_LIMIT:
            plans += [("ratio", v, h)]
    for name, x, tol in plans:
        table = tables[name]
        needed = MIN_SIGNIFICANT_RATIO if name in ("ratio", "pch") else MIN_SIGNIFICANT
        # a tie rounds away from zero: 34.5 is written "35", so "34" excludes it (a mean of two
        # whole figures is a tie half the time, and would explain either neighbour)
        inner = tol * (t.half - eps) / h if t.half > eps else tol
        lo, hi = rounding_window(x, tol, inner)
        significant = t.significant
        unit = 2.0 * tol
        if name == "add_cap" and x and float(x).is_integer():
            # in full digits a caption's scale writes zeros the figures do not have: the
            # answer is as precise as its digits without them ("23,000,000" as "23" million)
            digits = str(int(abs(x)))
            significant = min(significant, len(digits.rstrip("0")))
            unit = max(unit, 10.0 ** (len(digits) - len(digits.rstrip("0"))))
        hits = table.window(lo, hi, significant < needed or t.reach == "near")
        for k in hits[:SEARCH_HITS]:
            op, a, b = int(table.op[k]), int(table.a[k]), int(table.b[k])
            if asked is not None and _OP_NAMES[op] not in asked:
                continue  # not what the question asks for ("average": no ratio explains it)
            if op in _COLUMN_OPS and significant < MIN_SIGNIFICANT:
                continue  # a whole column's total or mean gives a figure of 2 digits by chance
            if op not in _RUN_OPS:
                fa, fb = figs[a], figs[b]
                if not _plausible(owner, t, op, fa, fb, float(table.values[k])):
                    continue
                if name == "add_raw" and (
                    fa.units or fb.units or fa.scale != 1.0 or fb.scale != 1.0
                ):
                    # the answer's scale word is the operands' own where a statement gives
                    # theirs ("$672 thousand" is no 5,428 - 4,756 under "(in millions)"),
                    # and rows per share have none ("$1.72 million")
                    continue
                scale = fa.scale if name == "add_abs" else fa.caption if name == "add_cap" else 1.0
                if op in (_SUM, _DIFF) and _bridges(fa, fb, scale, unit):
                    continue
            return _describe(t, op, a, b, figs, owner.column_runs), _OP_RULES[op]
    return None


_RUN_OPS = frozenset((_MEAN, _RUNSUM, _COLMEAN, _COLSUM))
"""The operations of a run of figures (no pair to check for plausibility)."""
_COLUMN_OPS = frozenset((_COLMEAN, _COLSUM))
"""Those of a whole column (:meth:`Figures._column_runs`)."""


_OP_RULES: dict[int, TraceRule] = {
    _SUM: "sum",
    _RUNSUM: "sum",
    _COLSUM: "sum",
    _COLMEAN: "mean",
    _DIFF: "difference",
    _PROD: "product",
    _RATIO: "ratio",
    _PCH: "percent_change",
    _MEAN: "mean",
    _MEAN2: "mean",
}
"""The named rule (:data:`~hybridjudge.grounding.TraceRule`) of each operation."""


def _describe(
    t: Target,
    op: int,
    a: int,
    b: int,
    figs: Sequence[Figure],
    columns: Sequence[list[int]] = (),
) -> str:
    if op in _RUN_OPS:  # a column's run by its index, a row's by its first figure
        members = columns[a] if op in _COLUMN_OPS else range(a, a + b)
        run = " + ".join(figs[k].text for k in members)
        return f"{t.text} = ({run}) / {b}" if op in (_MEAN, _COLMEAN) else f"{t.text} = {run}"
    ta = figs[a].text
    tb = figs[b].text
    if op == _MEAN2:
        return f"{t.text} = ({ta} + {tb}) / 2"
    if op == _SUM:
        return f"{t.text} = {ta} + {tb}"
    if op == _DIFF:
        return f"{t.text} = {ta} - {tb}"
    if op == _PROD:
        return f"{t.text} = {ta} × {tb}"
    if op == _PCH:
        return f"{t.text} = ({ta} - {tb}) / {tb}"
    return f"{t.text} = {ta} / {tb}"


def explain_from(
    operands: Sequence[tuple[float, str, bool]],
    t: Target,
    from_to: frozenset[tuple[int, int]] = frozenset(),
) -> Derivation | None:
    """A derivation of ``t`` from numbers the answer itself shows (its working), and its rule.

    ``operands``: ``(value, text, is_percent)`` of the answer's numbers already traced, in order.
    Every pair is tried (the answer names its operands), and the mean of consecutive runs. A
    pair ``(i, j)`` of ``from_to`` is a change the answer states from the first to the second
    (``from 3.3 to 3.4``): its difference is the second minus the first, its percent change
    relative to the first (``a change of -0.1`` does not follow from it).
    """
    n = len(operands)
    if n < 2:
        return None
    y1, d1, y2, d2 = _goals(t)
    for i in range(n):
        for j in range(i + 1, n):  # in the order the answer writes them
            ia, ib = (j, i) if (i, j) in from_to else (i, j)
            for x, how, rule in _pair_candidates(operands[ia], operands[ib], t.kind == "percent"):
                if gives(x, y1, d1) or gives(x, y2, d2):
                    return f"{t.text} = {how}", rule
    return explain_run(operands, t)


def _goals(t: Target) -> tuple[float, float, float, float]:
    """The values an operation of the answer's own figures must give for ``t``, each with its
    tolerance: ``t`` as written, and without its scale word (``1,496.5`` for ``$1,496.5
    million``; the same pair again when it has none)."""
    tol = t.half + float_slack(t.value)
    if t.mult == 1.0:
        return t.value, tol, t.value, tol
    return t.value, tol, t.value / t.mult, tol / t.mult


def explain_run(
    operands: Sequence[tuple[float, str, bool]], t: Target, shortest: int = 2
) -> Derivation | None:
    """``t`` as the mean of a run of consecutive ``operands`` (of ``shortest`` or more), or
    the sum of one of three or more (two are a pair's), and its rule; else ``None``."""
    y1, d1, y2, d2 = _goals(t)
    n = len(operands)
    vals = [o[0] for o in operands]
    for start in range(n - 1):
        total = vals[start]
        for end in range(start + 1, n):
            total += vals[end]
            length = end - start + 1
            if length < shortest:
                continue
            mean = total / length
            is_sum = length > 2 and (gives(total, y1, d1) or gives(total, y2, d2))
            if is_sum or gives(mean, y1, d1) or gives(mean, y2, d2):
                shown = " + ".join(o[1] for o in operands[start : end + 1])
                if is_sum:
                    return f"{t.text} = {shown}", "sum"
                return f"{t.text} = ({shown}) / {length}", "mean"
    return None


def _pair_candidates(
    first: tuple[float, str, bool], second: tuple[float, str, bool], percent: bool
) -> Iterator[tuple[float, str, TraceRule]]:
    """What :func:`explain_from` tries for a pair of the answer's operands (``(value, text,
    is_percent)``, ``first`` as its operations read first: the order written, or a change's
    start), each with its working and rule. A percentage: the points between them, the
    percent change from ``second`` to ``first``, ``first`` as a share of ``second`` and, of
    two plain figures, the smaller as a share of the larger written before it (``1 545
    étudiants, dont 742, soit 48 %``). A plain figure: their sum, difference, product and
    quotient, and with one percentage among them, its fraction of the other figure and the other
    figure over it (``$3,850 (1.0% of $385,000)``, ``€38.00`` for ``€11.40`` at a ``30%``
    target)."""
    a, ta, pa = first
    b, tb, pb = second
    if percent:
        yield a - b, f"{ta} - {tb}", "difference"  # percentage points
        if b:
            yield (a - b) / b * 100.0, f"({ta} - {tb}) / {tb}", "percent_change"
            yield a / b * 100.0, f"{ta} / {tb}", "ratio"
        if a and not pa and not pb and abs(b) < abs(a):
            yield b / a * 100.0, f"{tb} / {ta}", "ratio"
        return
    yield a + b, f"{ta} + {tb}", "sum"
    yield a - b, f"{ta} - {tb}", "difference"
    yield a * b, f"{ta} × {tb}", "product"
    if b:
        yield a / b, f"{ta} / {tb}", "ratio"
    if pa != pb:  # one percentage, as a fraction: "1.0% of $385,000", "€11.40 / 30%"
        (p, tp), (f, tf) = ((b, tb), (a / 100.0, ta)) if pa else ((a, ta), (b / 100.0, tb))
        yield p * f, f"{tf} × {tp}", "product"
        if f:
            yield p / f, f"{tp} / {tf}", "ratio"


# ---------------------------------------------------------------------------------------------
# Growth rates: "a CAGR of 10%" for 100 in 2019 and 133.1 in 2022

MAX_GROWTH_YEARS = 50
"""Most years a compound growth rate is taken over."""
MAX_GROWTH_FIGURES = 24
"""Most figures of one table row or one paragraph paired for a growth rate (the first ones)."""

Growth = tuple[Derivation, "int | None"]
"""A growth rate's derivation, and its number of years when the years of its figures' columns
give it (``..., the years between 2020 and 2022``: 2; then the number of years an answer states
for it, ``the two-year CAGR``, is traced to them), else ``None``."""
_DECIMAL = re.compile(r"(?<![\d/])\d*\.\d+(?![\d/])")
"""A rate written as a decimal (``0.1``, ``.0953``), not a fraction (``1/3``)."""
_GROWTH_CUE = lazy(rf"(?<![a-z])(?:{alternation(_WORDS.asks_growth_rate)})")
_GROWTH_RUNS = frozenset(
    min(letter_runs(w.lower()), key=w.lower().encode().find)
    for w in _WORDS.asks_growth_rate
    if letter_runs(w.lower())
)
"""The first ASCII letter run of each growth word (``cagr``, ``compound``, ``taux``): a text
without one of them among its runs holds none of those words."""
_GROWTH_GLUED = tuple(w.lower() for w in _WORDS.asks_growth_rate if not letter_runs(w.lower()))
"""The growth words with no ASCII letter (``复合年增长率``), looked for as substrings."""


def asks_growth_rate(text: str, words: frozenset[bytes] | None = None) -> bool:
    """Whether ``text`` asks for a compound growth rate (the lexicons'
    ``derivation.asks_growth_rate``); ``words``: its lower-cased ASCII letter runs, when known
    (a :class:`~hybridjudge.grounding._quantities.Scan`'s), which make a text without one
    cheap to pass over."""
    low = text.lower()
    if words is None:
        words = letter_runs(low)
    if words.isdisjoint(_GROWTH_RUNS) and (
        text.isascii() or not any(w in low for w in _GROWTH_GLUED)
    ):
        return False
    return _GROWTH_CUE().search(low) is not None


def growth_periods(*scans: Scan) -> frozenset[int]:
    """The numbers of years a growth rate may be taken over that the texts of ``scans`` (the
    question's, the answer's) state: a duration in years (``2 years``, ``three-year``) and the
    span between the first and the last year a text names (``from FY2020 to FY2022``: 2);
    empty when none is stated (the years of a table's columns then give it). Whether a text
    asks for a growth rate at all: :func:`asks_growth_rate`."""
    out: set[int] = set()
    for sc in scans:
        years = {int(y) for y in YEAR_RE().findall(sc.norm.text)}
        if len(years) >= 2:
            out.add(max(years) - min(years))
        for q in sc.quantities:
            if q.unit == "year" and q.value.denominator == 1:
                out.add(int(q.value))
    return frozenset(n for n in out if 1 <= n <= MAX_GROWTH_YEARS)


def growth_rate(
    figs: Figures, t: Target, hint: Hint | None, periods: frozenset[int]
) -> Growth | None:
    """``t`` (a percentage, or a rate written as a decimal under 1: ``0.1``) as a compound
    annual growth rate from one positive figure to another, ``(new / old)^(1/n) - 1`` at the
    answer's precision: two figures of one table row (of the rows the question names, when it
    names some), ``n`` the years between their columns (one of the ``periods`` the texts state,
    when they state some: :func:`growth_periods`) and the older the one of the earlier year;
    or two figures of one paragraph, ``n`` one of the ``periods``. Returns the derivation with
    ``n`` when the columns' years gave it (:data:`Growth`)."""
    if t.kind == "percent":
        v, h = t.value, t.half + float_slack(t.value)
    elif t.kind == "plain" and t.mult == 1.0 and abs(t.value) < 1.0 and _DECIMAL.search(t.text):
        v, h = t.value * 100.0, (t.half + float_slack(t.value)) * 100.0
    else:
        return None
    wanted = -v if t.trend < 0 < v else v  # "fell at a CAGR of 10%": -10%
    pool = hint.rows if hint is not None and hint.rows else range(len(figs.figures))
    groups: dict[tuple[int, int], list[Figure]] = {}
    for k in pool:
        f = figs.figures[k]
        if f.percent or f.count or f.value <= 0:
            continue
        members = groups.setdefault((f.block, f.line if f.table else -1), [])
        if len(members) < MAX_GROWTH_FIGURES:
            members.append(f)
    for members in groups.values():
        for i, fa in enumerate(members):
            for fb in members[i + 1 :]:
                for old, new, n in _growth_tries(figs, fa, fb, periods):
                    x = ((new.value * new.scale) / (old.value * old.scale)) ** (1.0 / n) - 1.0
                    if gives(x * 100.0, wanted, h):
                        how = f"{t.text} = ({new.text} / {old.text})^(1/{n}) - 1"
                        ya, yb = figs.year_of(old), figs.year_of(new)
                        if ya is None or yb is None:
                            return (how, "growth_rate"), None
                        # the period the table states
                        return (f"{how}, the years between {ya} and {yb}", "growth_rate"), n
    return None


def _growth_tries(
    figs: Figures, fa: Figure, fb: Figure, periods: frozenset[int]
) -> list[tuple[Figure, Figure, int]]:
    """The readings of ``fa`` and ``fb`` as ``(older, newer, years)``: by the years of their
    table columns when both have one, else each way round over ``periods``."""
    if fa.measured != fb.measured:  # an amount grows from an amount, a count from a count
        return []
    ya, yb = figs.year_of(fa), figs.year_of(fb)
    if ya is not None and yb is not None:
        if ya == yb or (periods and abs(ya - yb) not in periods):
            return []
        return [(fa, fb, yb - ya)] if ya < yb else [(fb, fa, ya - yb)]
    return [(old, new, n) for n in sorted(periods) for old, new in ((fa, fb), (fb, fa))]


# ---------------------------------------------------------------------------------------------
# Shown working: "(235,514 × 2.92) + (81,794 × 3.59) = 981,341.34"

_WORKING_CHARS = frozenset(" \t()[]{}+-*/×÷x·^")
"""Characters an arithmetic expression holds besides its figures."""
_TO_PYTHON = str.maketrans({"×": "*", "÷": "/", "x": "*", "·": "*", "[": "(", "]": ")", "^": "**"})
_TO_PYTHON.update({ord("{"): "(", ord("}"): ")"})
MAX_WORKING_FIGURES = 12
"""Most figures of one shown expression that are evaluated (longer working is not traced)."""
MAX_EXPONENT = 64
"""Largest power (``^`` or ``**``) of shown working that is evaluated (a growth rate's ``^(1/3)``
or ``^3``; a larger one is not traced)."""


def _evaluate(node: ast.expr, values: Sequence[Fraction]) -> Fraction | None:
    """The value of an expression of placeholders ``_0``, ``_1``... and + - × / (exact) and
    powers (:func:`_power`)."""
    if isinstance(node, ast.Name) and node.id.startswith("_") and node.id[1:].isdigit():
        return values[int(node.id[1:])]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        v = _evaluate(node.operand, values)
        return None if v is None else (-v if isinstance(node.op, ast.USub) else v)
    if isinstance(node, ast.BinOp) and isinstance(
        node.op, ast.Add | ast.Sub | ast.Mult | ast.Div | ast.Pow
    ):
        a = _evaluate(node.left, values)
        b = _evaluate(node.right, values)
        if a is None or b is None:
            return None
        if isinstance(node.op, ast.Pow):
            return _power(a, b)
        if isinstance(node.op, ast.Add):
            return a + b
        if isinstance(node.op, ast.Sub):
            return a - b
        if isinstance(node.op, ast.Mult):
            return a * b
        return None if b == 0 else a / b
    return None


_MAX_POWER_BITS = 4096
"""Largest numerator or denominator (bits) a whole power of shown working may reach (a power
of a power of crafted working would otherwise grow without bound)."""


def _power(a: Fraction, b: Fraction) -> Fraction | None:
    """``a ** b`` of shown working: exact for a whole exponent, in floats for a root of a
    positive base (``(133.1 / 100) ^ (1/3)``); ``None`` for an exponent over
    :data:`MAX_EXPONENT`, a root of a negative base or a power of zero below one."""
    if abs(b) > MAX_EXPONENT or (a == 0 and b < 0):
        return None
    if b.denominator == 1:
        size = max(a.numerator.bit_length(), a.denominator.bit_length()) * abs(int(b))
        return a ** int(b) if size <= _MAX_POWER_BITS else None
    if a < 0:
        return None
    try:
        return Fraction(float(a) ** float(b))
    except OverflowError:  # beyond a float: no figure of working
        return None


WorkingShapes = dict[str, "tuple[ast.Expression, int] | None"]
"""Parsed working by its shape (:func:`shown_working`'s ``shapes``)."""
MAX_SHAPES = 1024
"""Most shapes a :data:`WorkingShapes` holds (it is emptied when full)."""


def _parse_working(source: str) -> tuple[ast.Expression, int] | None:
    """The expression ``source`` (placeholders ``_0``, ``_1``... and + - * / ** in Python's
    syntax) parsed, with the characters dropped from its start (an ``x`` of a word, an
    unmatched bracket: the leading characters are dropped one by one until it parses), or
    ``None``."""
    tree: ast.Expression | None = None
    offset = 0  # characters dropped from the start ("x" of a word, an unmatched bracket)
    blanks = 0
    while offset < len(source) and tree is None:
        head = source[offset:]
        first = head.lstrip()[:1]
        if first in ("", ")", "*", "/", "+"):
            offset += 1
            continue
        blanks = len(head) - len(head.lstrip())
        try:
            tree = ast.parse(head.strip(), mode="eval")
        except SyntaxError:
            if first not in ("(", "-"):
                return None
            offset += blanks + 1
    if tree is None:
        return None
    return tree, offset + blanks


_LIST_LINE = re.compile(r"\n[ \t]*(?:[-*•][ \t]|\d{1,2}[.)][ \t])")
"""A line of a list after the first (its item's marker: ``- ``, ``* ``, ``2. ``)."""


def _expression_before(
    text: str, eq: int, figures: Sequence[tuple[int, int, Fraction, bool, bool, bool]]
) -> tuple[int, list[int], bool]:
    """Where the arithmetic that ends at ``eq`` starts, the indexes of ``figures`` in it (in
    order), and whether a dash and a blank before it may be a minus sign: the figures and
    :data:`_WORKING_CHARS` walked back from ``eq``. A dash and a blank opening a line are
    Markdown's marker of a list item (the start is after them) after a line break, and at the
    start of a text that is a list (another line opens with a marker, :data:`_LIST_LINE`); at
    the start of any other text the dash may be either (``- (197 + 101) / 2 = -149``: TAT-QA's
    working writes a minus so): :func:`shown_working` then reads both."""
    pos = eq
    k = len(figures) - 1
    used: list[int] = []
    i = eq - 1
    while i >= 0:
        if k >= 0 and i < figures[k][1]:
            if i < figures[k][0]:  # pragma: no cover - figures end before eq, in order
                k -= 1
                continue
            used.append(k)
            pos = figures[k][0]
            i = pos - 1
            k -= 1
            continue
        ch = text[i]
        if ch not in _WORKING_CHARS:
            break
        if ch not in " \t":
            pos = i
        i -= 1
    dashed = (i < 0 or text[i] == "\n") and text.startswith(("- ", "-\t"), pos)
    used.reverse()
    # after a line break, or opening a text that is a list, the dash is a list item's marker
    either = dashed and i < 0 and _LIST_LINE.search(text, pos + 1) is None
    return pos + dashed, used, either


def shown_working(
    text: str,
    eq: int,
    figures: Sequence[tuple[int, int, Fraction, bool, bool, bool]],
    shapes: WorkingShapes | None = None,
) -> list[tuple[int, list[Fraction]]]:
    """The arithmetic expression an answer writes before its ``=`` at ``eq`` in ``text``.

    ``figures``: the answer's figures that end before ``eq``, as ``(start, end, value,
    bracketed, traced, percent)`` in order. Returns its readings, each where the expression
    starts and its values:
    as the figures read, and, when some are bracketed, with the brackets as grouping
    (``(-2,088)`` in working is -2,088, not an accounting negative), and when some are
    percentages, with them as fractions (``1,027 / 11%`` is 1,027 / 0.11), and when a dash and
    a blank open a text that is no list, with the dash as a list item's marker and as a minus
    sign (a model writes ``- (12.6% + 5.7%) / 2 = 9.2%`` as a Markdown list item, TAT-QA's
    working ``- (197 + 101 + 206) / 3 = -168`` with a minus: :func:`_expression_before`; two
    readings, the list item's first). Empty when no
    expression of two to :data:`MAX_WORKING_FIGURES` figures and + - × / ends there, or one of
    its figures was not traced (the result is then left to the other checks).

    ``shapes`` keeps what was parsed by the expression's shape (``(_0 - _1) / _1 * 100``),
    which the answers of one case repeat (parsing is most of the cost); a prepared checker
    owns one.
    """
    pos, used, either = _expression_before(text, eq, figures)
    if not 2 <= len(used) <= MAX_WORKING_FIGURES or not all(figures[u][4] for u in used):
        return []
    starts = (pos, pos - 1) if either else (pos,)  # the dash as a minus too
    return [
        found
        for start in starts
        if (found := _working_values(text, start, eq, used, figures, shapes)) is not None
    ]


def _working_values(
    text: str,
    pos: int,
    eq: int,
    used: list[int],
    figures: Sequence[tuple[int, int, Fraction, bool, bool, bool]],
    shapes: WorkingShapes | None,
) -> tuple[int, list[Fraction]] | None:
    """:func:`shown_working`'s reading of the expression from ``pos`` to ``eq`` whose figures
    are ``figures[u]`` for ``u`` in ``used``: where it starts and its values."""
    # the expression in Python's syntax, its figures as placeholders _0, _1...
    pieces: list[str] = []
    cursor = pos
    for j, u in enumerate(used):
        pieces.append(text[cursor : figures[u][0]].translate(_TO_PYTHON))
        pieces.append(f" _{j} ")
        cursor = figures[u][1]
    pieces.append(text[cursor:eq].translate(_TO_PYTHON))
    source = "".join(pieces)
    if shapes is None:
        parsed = _parse_working(source)
    elif source in shapes:
        parsed = shapes[source]
    else:
        if len(shapes) >= MAX_SHAPES:
            shapes.clear()
        parsed = shapes[source] = _parse_working(source)
    if parsed is None:
        return None
    tree, lead = parsed
    # the characters before the first figure translate one for one: offsets into the text
    start = pos + lead if lead < len(pieces[0]) else figures[used[0]][0]
    flips = (False, True) if any(figures[u][3] for u in used) else (False,)
    shares = (False, True) if any(figures[u][5] for u in used) else (False,)
    readings = [
        [
            (-f[2] if flip and f[3] else f[2]) / (100 if share and f[5] else 1)
            for f in (figures[u] for u in used)
        ]
        for flip in flips
        for share in shares
    ]
    values = [v for r in readings if (v := _evaluate(tree.body, r)) is not None]
    return (start, values) if values else None
