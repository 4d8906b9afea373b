"""The words of the grounding checks, one lexicon per language, read from data files.

``data/lexicon/<language>.json`` holds a language's words under one schema (:class:`Lexicon`):
scale words with their multipliers and the roles they play, currencies (signs, codes, names),
month names, units, number words, refusal markers, contrast and condition words. ``und.json``
(BCP 47 "undetermined") holds what no one language owns: currency signs and ISO codes, CJK
scale characters. Each file is validated when read (:class:`LexiconError` names the file and
the field), once per process (:func:`lexicon`).

The checks never write a word list of a language in code: they ask this module for a table
(:func:`scales`, :func:`currencies`, :func:`months`, ...), merged over :data:`LANGUAGES` in
that order, and build their expressions from it with :func:`alternation` (escaped, longest
first); the verdicts of ``_abstention`` are phrase patterns (``no {puedo|podemos} responder``),
written out by :func:`phrase_pattern`. How to add a language or a phrasing: ``docs/lexicons.md``.

This module alone does without ``from __future__ import annotations``: pydantic reads a
string annotation by compiling it, for each of the schema's ~150 fields when its classes are
created, about 3 ms of every process's start (a one-case ``hybridjudge check``).
"""

import functools
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, NamedTuple, Self

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from hybridjudge._errors import InputError

__all__ = [
    "LANGUAGES",
    "SUBSTRING_LANGUAGES",
    "AnswerPhrases",
    "Currency",
    "DerivationWords",
    "ExceptedRows",
    "FigureContextWords",
    "FrequencyWords",
    "Lexicon",
    "LexiconError",
    "NamedRatio",
    "NumberWords",
    "Period",
    "ScaleStatementWords",
    "ShareWords",
    "UnitDefinition",
    "alternation",
    "currencies",
    "currency_of",
    "derivation_words",
    "excepted_rows",
    "figure_forms",
    "grouped",
    "grouped_table",
    "label_acronyms",
    "lexicon",
    "lexicon_dir",
    "load_lexicon",
    "merged",
    "months",
    "named_ratios",
    "periods",
    "phrase_pattern",
    "scale_statement_words",
    "scales",
    "trie_alternation",
]

SUBSTRING_LANGUAGES: tuple[str, ...] = ("zh", "ja", "ko", "th")
"""Languages whose words attach particles and endings (or are written without spaces): their
markers and contrast words match as substrings, not on word boundaries."""

LANGUAGES: tuple[str, ...] = (
    "und",
    *("en", "fr", "de", "es", "it", "pt", "nl"),
    *("zh", "ja", "ko", "th"),
)
"""The lexicons the package ships, in the order their tables are merged (a word two languages
share keeps the first one's place)."""


class LexiconError(InputError):
    """A lexicon file that cannot be read or does not follow the schema (code
    ``invalid_lexicon``): the message names the file and the field.

    Attributes:
        path: the file.
        field: the offending field (``scales.million``, ``numbers.units``), or ``None`` when the
            whole file is unusable.
    """

    code = "invalid_lexicon"

    def __init__(self, message: str, *, path: Path, field: str | None = None) -> None:
        super().__init__(message)
        self.path = path
        self.field = field


ScaleForm = Literal["word", "spaced", "dotted", "before_sign", "glued", "char"]
"""How a scale word stands after a figure (:attr:`Lexicon.figure_forms`)."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class Currency(_Strict):
    """A currency and how a text writes it."""

    code: str = Field(pattern=r"^[a-z]{3}$")
    """ISO 4217 code, lower case (``usd``): the dimension is ``currency-<code>``."""
    signs: tuple[str, ...] = ()
    """Signs written before a figure, glued or not (``$``, ``us$``, ``rs.``), lower case."""
    codes: tuple[str, ...] = ()
    """Codes written before a figure (``usd``, ``rmb``), lower case; read as signs when glued."""
    names: tuple[str, ...] = ()
    """Words naming the currency in a scale statement (``dollars``, ``euros``, ``rupees``)."""
    numbering: tuple[str, ...] = ()
    """Scale words of the currency's own numbering (``lakh``, ``crore``: keys of the
    lexicon's scales): a text that writes one groups its figures as that numbering does
    (``1,50,000``)."""


class UnitDefinition(_Strict):
    """What a canonical unit measures and its factor to the dimension's base unit."""

    dimension: str
    """The dimension (``mass``, ``time``, ``currency-usd``; empty: read but no unit, as
    ``degrees`` alone)."""
    factor: str = Field(pattern=r"^\d+(/\d+)?$")
    """The exact factor to the dimension's base unit, an integer or a fraction (``1/1000``
    for ``mg`` of grams)."""


class NumberWords(_Strict):
    """A language's number words: the engine of ``_languages`` composes them by the language's
    grammar (``einundzwanzig``, ``treinta y cinco``)."""

    units: tuple[str, ...] = ()
    """The words from zero in order (zero, one, two, ... as far as the language has its own
    words: nineteen, or twenty in Spanish)."""
    tens: tuple[str, ...] = ()
    """The tens words in order, from twenty (Spanish: from thirty; :attr:`tens_from`)."""
    tens_from: int = 20
    """The value of the first word of :attr:`tens`."""
    hundreds: tuple[str, ...] = ()
    """Hundreds written as one word, from two hundred (Spanish ``doscientos``)."""
    hundred: str = ""
    """The hundred as written glued after a unit (``zweihundert``, ``trecento``): ``hundert``."""
    thousand: str = ""
    """The thousand as written glued after a unit (``dreitausend``, ``tremila``): ``mila``."""
    conjunction: str = ""
    """The word between tens and units (``treinta y cinco``, ``vinte e dois``): ``y``."""
    glued: bool = False
    """Whether a number below a million is one word, what follows a hundred or a thousand glued
    to it (``hundertzwanzig``, ``tweehonderdvijftig``)."""
    words: dict[str, int] = {}
    """Further words with their values (``une``: 1, ``cent``: 100, ``mille``: 1000)."""
    scales: tuple[str, ...] = ()
    """Scale words written out in number words (``millions``, ``Milliarden``): keys of the
    lexicon's scales."""
    ambiguous: tuple[str, ...] = ()
    """Number words that are also common words (``un``, ``sept``, ``elf``): read as a number
    only with a unit after them."""


class Period(_Strict):
    """A period a frequency or a rate names (``day``, ``fortnight``, ``quarterly``), as a count
    of a unit."""

    unit: str
    """The unit it counts: a key of the ``unit_definitions`` of ``und.json`` (``h``, ``day``,
    ``week``, ``month``, ``year``), or a part of the day no unit measures (``night``,
    ``morning``), an interval of its own."""
    count: int = Field(default=1, ge=1)
    """How many of the unit (``fortnight``: 2 ``week``, ``quarter``: 3 ``month``)."""
    adverb: bool = False
    """Whether the word stands alone, with no word of :attr:`FrequencyWords.per` before it
    (``daily``, ``quarterly``), rather than after one (``a day``, ``per quarter``)."""


class FrequencyWords(_Strict):
    """The words of frequencies and rates: ``twice daily``, ``3 times a week``, ``every 12
    hours``, ``every other day``, ``$5 per month``."""

    periods: dict[str, Period] = {}
    """Every word of the lists below with its period (``fortnight``: 2 weeks, ``annum``: a
    year, ``daily``: a day, written alone)."""
    articles: tuple[str, ...] = ()
    """Articles that stand for ``per`` before a period (``twice a day``, ``$60 a year``), but
    not before a period that is also a fraction (``a quarter`` is a share)."""
    per: tuple[str, ...] = ()
    """Words before a period that make it a frequency or a rate (``per``, ``every``,
    ``each``)."""
    every: tuple[str, ...] = ()
    """Words before a duration that make it the interval of a thing done repeatedly (``every
    12 hours``)."""
    every_other: tuple[str, ...] = ()
    """Words before a period that make it every second one (``every other day``)."""
    times: tuple[str, ...] = ()
    """Words after a count that make it a number of occurrences (``3 times a week``)."""
    multiplicatives: dict[str, int] = {}
    """Counts written as one word, with their value (``once``: 1, ``twice``: 2)."""
    counted: tuple[str, ...] = ()
    """Periods (keys of :attr:`periods`) after a count (``twice daily``, ``3 times a
    week``)."""
    uncounted: tuple[str, ...] = ()
    """Periods (keys of :attr:`periods`) that state a frequency alone (``daily``, ``per
    week``, ``quarterly``)."""
    alternate: tuple[str, ...] = ()
    """Periods (keys of :attr:`periods`) after :attr:`every_other` (``every other week``)."""
    rates: tuple[str, ...] = ()
    """Periods (keys of :attr:`periods`) after an amount that make it a rate (``$5 per
    month``, ``€9.99/mo``, ``$10 monthly``)."""

    @model_validator(mode="after")
    def _roles_are_periods(self) -> Self:
        for role in ("counted", "uncounted", "alternate", "rates"):
            missing = [w for w in getattr(self, role) if w not in self.periods]
            if missing:
                raise ValueError(f"{role}: {missing} not in periods (add them with their period)")
        return self


class ShareWords(_Strict):
    """The words of shares written in words: ``two-thirds``, ``a quarter of``, ``half the
    staff``."""

    numerators: dict[str, int] = {}
    """The numerator of a fraction in words (``a``: 1, ``two``: 2 in ``two-thirds``)."""
    denominators: dict[str, int] = {}
    """Denominators after a numerator of one (``half``: 2, ``third``: 3, ``quarter``: 4)."""
    plural_denominators: dict[str, int] = {}
    """Denominators after a numerator above one (``thirds``: 3, ``quarters``: 4)."""
    of_determiners: tuple[str, ...] = ()
    """Words after ``of`` that make a fraction of :attr:`period_fractions` a share (``three
    quarters of the votes``, not ``two quarters of growth``)."""
    period_fractions: tuple[str, ...] = ()
    """Denominators that also name a period (``quarter``, ``quarters``): a share only before
    ``of`` and a word of :attr:`of_determiners`."""
    half_determiners: tuple[str, ...] = ()
    """Words after ``half`` that make it a share of something (``half of the votes``, ``half
    the staff``: 50%)."""
    half_ordinals: tuple[str, ...] = ()
    """Ordinals before ``half`` that make it a period that counts (``the first half``,
    ``the latter half``)."""
    half_positions: tuple[str, ...] = ()
    """Other words before ``half`` that make it a part, not a share (``the last half of the
    year``, ``the lower half of the range``)."""
    pairs: tuple[str, ...] = ()
    """Words between a count and its whole that make them a share (``9 out of 10``, ``one in
    five``, ``9 von 10``, ``3 sur 4``: 90%, 20%, 90%, 75%)."""


class FigureContextWords(_Strict):
    """Words around a figure that say what it is: a count of the context's items, a citation,
    a label, a time of day, a decade, a change."""

    count_before: tuple[str, ...] = ()
    """Words before a small count of things the context lists (``the two figures``, ``both
    years``, ``each of the``)."""
    count_before_periods: tuple[str, ...] = ()
    """Words between :attr:`count_before` and such a count (``over the past three years``)."""
    count_adjectives: tuple[str, ...] = ()
    """Adjectives between such a count and its noun (``the two reported figures``)."""
    count_nouns: tuple[str, ...] = ()
    """Nouns of the things such a count counts (``figures``, ``years``, ``data points``)."""
    count_anaphora: tuple[str, ...] = ()
    """Words right before a small count that point back at what the answer itself names
    (``these two customer groups``, ``diese zwei Gruppen``): the answer's count, no claim about
    the context (trace rule ``enumerated``)."""
    list_joiners: tuple[str, ...] = ()
    """Words that join the last item of a list (``A, B and C``, ``A, B or C``): a count before a
    colon counts the items listed after it (trace rule ``enumerated``)."""
    complement_before: tuple[str, ...] = ()
    """Words before a percentage, at most three words apart, that state it as the rest of a
    whole (``the remaining 60%``, ``the other regions made up 60%``, ``die übrigen 60 %``):
    100% less it may be a share the context or the answer states (trace rule
    ``complement``)."""
    complement_after: tuple[str, ...] = ()
    """The same words after the percentage (``60% remaining``, ``les 60 % restants``, ``el 60 %
    restante``, ``60% came from the other regions``)."""
    counted_adjectives: tuple[str, ...] = ()
    """Adjectives after a figure with a scale letter (``1.2m active users``)."""
    counted_nouns: tuple[str, ...] = ()
    """Nouns after a figure with a scale letter that make it a count, not metres (``1.2m
    users``: 1.2 million)."""
    frequency_words: tuple[str, ...] = ()
    """Words after a figure that make it a frequency, not a count of a noun (``3 times
    daily``): :meth:`GroundingChecker._counted_otherwise
    <hybridjudge.grounding.GroundingChecker>` leaves such a figure alone."""
    age_before: tuple[str, ...] = ()
    """Words before a figure of running text that make it an age in years (``aged 18-65``,
    ``ages 6 to 12``): an answer's ``65 years`` may name it, its ``12 days`` not."""
    citation_labels: tuple[str, ...] = ()
    """Words that number the retrieved passages an answer cites (``[Source 2]``, ``document
    3``)."""
    page_labels: tuple[str, ...] = ()
    """Words that number a page or a part of a source an answer cites (``p. 14``, ``page 12``,
    ``Note 5``, ``Table 2``, ``Item 7``): a place, no figure."""
    index_names: tuple[str, ...] = ()
    """(``und.json``) Stock indexes and rankings named with a number (``s&p``, ``ftse``)."""
    index_numbers: tuple[str, ...] = ()
    """(``und.json``) The numbers of those names (``500``, ``100``)."""
    roman_labels: tuple[str, ...] = ()
    """Words a Roman numeral in capitals numbers (``Phase III``, ``Chapter XI``)."""
    clock_before: tuple[str, ...] = ()
    """Words before ``h:mm:ss`` that make it a time of day, not a duration (``at``,
    ``until``)."""
    clock_words: dict[str, int] = {}
    """Times of day in words with their minutes after midnight (``noon``: 720)."""
    decades: dict[str, int] = {}
    """Decades of an age in words with their first year (``thirties``: 30)."""
    decade_determiners: tuple[str, ...] = ()
    """Words between ``in`` and a decade (``in her thirties``, ``in the 40s``)."""
    decade_parts: tuple[str, ...] = ()
    """Words before a decade that name a part of it (``early``, ``mid``, ``late``)."""
    time_units: tuple[str, ...] = ()
    """The units of time in words, singular (``minute``, ``year``): after ``time and a
    half`` a duration, after a number word of another language an English text (``due
    days``)."""
    halved_units: tuple[str, ...] = ()
    """Units of time an answer halves in words (``half an hour``, ``a year and a half``)."""
    rate_units: tuple[str, ...] = ()
    """Units of time after ``3 in 10`` that make it a rate, not a share (``3 in 10
    minutes``), singular."""
    decrease_links: tuple[str, ...] = ()
    """Words between a decrease word and its figure (``a decline was 5%``, ``a loss
    totaling $3``)."""


class ScaleStatementWords(_Strict):
    """The words of a scale statement (``(in millions)``, ``(Dollars in thousands)``, ``$ in
    billions``, ``(€m)``) by where they stand; its grammar is in ``_check``. The scale fields
    (:attr:`after_in`, :attr:`in_brackets`, :attr:`after_sign`, :attr:`singular`) hold keys of
    :attr:`Lexicon.scales`, the currency fields any written form of a currency (sign, code or
    name)."""

    after_in: tuple[str, ...] = ()
    """Scales read after ``in`` (``in millions``, ``in '000s``)."""
    in_brackets: tuple[str, ...] = ()
    """Scales read alone in brackets, after a currency sign or not (``(m)``, ``($bn)``,
    ``(000s)``)."""
    after_sign: tuple[str, ...] = ()
    """Scales read right after a currency sign (``$ millions``, ``€m``)."""
    singular: tuple[str, ...] = ()
    """Singular scale words read right after a currency (``€ million``, ``USD thousand``;
    :attr:`currencies_before_singular`)."""
    currencies_after_in: tuple[str, ...] = ()
    """Currencies written between ``in`` and the scale (``in $ millions``, ``in usd
    thousands``)."""
    currencies_after_of: tuple[str, ...] = ()
    """Currencies named after the scale and ``of`` (``in millions of dollars``)."""
    currencies_before: tuple[str, ...] = ()
    """Currencies written before a statement (``dollars in millions``, ``€ amounts in
    thousands``)."""
    between: tuple[str, ...] = ()
    """Words between such a currency and the statement (``amounts``, ``expressed``: ``U.S.
    dollars expressed in thousands``)."""
    currencies_before_singular: tuple[str, ...] = ()
    """Currencies written before a singular scale word (``€ million``, ``USD million``; a sign
    with a country prefix, ``S$``, is read by the grammar)."""
    unscaled_rows: tuple[str, ...] = ()
    """Words of a row's label whose figures no statement scales: an amount per share
    (``per share``, ``je Aktie``, ``每股``), as written under ``(in millions, except per share
    amounts)`` and under ``(in millions)`` alike."""
    unscaled_sublabels: tuple[str, ...] = ()
    """Labels of the rows right under a heading of :attr:`unscaled_rows` that take its reading
    (``Earnings per share:``, then ``Basic`` and ``Diluted``)."""
    exceptions: tuple[str, ...] = ()
    """Words that open what a statement excepts from its scale (``except``, ``excluding``:
    ``(in millions, except share data)``); what they name is read by
    :attr:`Lexicon.excepted_rows`."""
    markers: tuple[str, ...] = ()
    """Words that open a statement written as a label and a colon (``単位``, ``单位``,
    ``단위``: ``(単位:百万円)``, ``单位:人民币万元``, ``(단위: 백만원)``). What follows is the
    scale in the language's scale characters (keys of :attr:`Lexicon.scales`, multiplied as
    a numeral's: ``百万`` is 10^6, ``십억`` 10^9) and the currency (a unit of a currency in
    :attr:`Lexicon.units`: ``円``, ``元``, ``원``), or ``%``."""
    below_markers: tuple[str, ...] = ()
    """Words after a scale and a currency in scale characters that state them as the unit the
    figures are cut or rounded to (``百万円未満切捨て``, amounts under a million yen cut: the
    figures are in millions of yen)."""


class ExceptedRows(_Strict):
    """Rows a scale statement names as excepted from its scale (``(in thousands, except share
    and per share data)``): under such a statement, a row whose label holds one of
    :attr:`rows` counts what :attr:`named` names, in units (``Weighted average shares
    outstanding | 25,123,456``), while the statement still scales the other rows."""

    named: tuple[str, ...] = Field(min_length=1)
    """Words of the exception (after one of ``scale_statement.exceptions``) that name these
    rows, lower case, found in the exception with its amounts per unit taken out (``share`` in
    ``except share and per share data``; none in ``except per share data``, whose share
    counts the statement scales)."""
    rows: tuple[str, ...] = Field(min_length=1)
    """Words of a row label that count them (``weighted average shares``, ``shares used in``),
    lower case; spaces and hyphens between the words are optional (``weighted-average``)."""


class NamedRatio(_Strict):
    """A ratio a question may name (``gross margin``) and the table rows it divides: a figure
    of a :attr:`numerator` row by the figure of a :attr:`denominator` row in the same column."""

    names: tuple[str, ...] = Field(min_length=1)
    """The phrases that name it (``gross margin``, ``gross profit margin``), lower case."""
    numerator: tuple[str, ...] = Field(min_length=1)
    """Row labels of its numerator (``gross profit``), lower case; a label matches with its
    words, in order, and no others (a leading ``total`` aside)."""
    denominator: tuple[str, ...] = Field(min_length=1)
    """Row labels of its denominator (``net sales``, ``revenue``), as :attr:`numerator`."""


class DerivationWords(_Strict):
    """The words of derived figures (``_derive``): what operation a question asks for, how an
    answer states the direction of a change and what its number counts."""

    asks_mean: tuple[str, ...] = ()
    """Whole words asking for a mean (``average``): a mean, a sum or a difference."""
    asks_share: tuple[str, ...] = ()
    """Word starts asking for a share (``proportion``, ``constitut``, ``percentage of``): a
    ratio or a sum."""
    asks_difference: tuple[str, ...] = ()
    """Word starts asking for a difference or a change (``increase``, ``differ``, ``higher``):
    a difference or a percent change."""
    comparisons: tuple[str, ...] = ()
    """Whole words after a figure with which an answer states it as a comparison (``than``,
    ``above``: ``0.47 kg heavier than``, ``1.45 GHz above the base``; before it they state a
    bound, ``above 12 g/dL``): a measure is derived only where its sentence states an
    operation (:func:`~hybridjudge.grounding._derive.states_operation`)."""
    totals: tuple[str, ...] = ()
    """Whole words anywhere in its sentence with which an answer states a figure as a total
    (``together``, ``in total``): see :attr:`comparisons`."""
    asks_sum: tuple[str, ...] = ()
    """Word starts asking for a sum (``combined``, ``altogether``)."""
    asks_total: tuple[str, ...] = ()
    """Word starts naming a total (``total``): a sum, or a total less its other parts."""
    asks_change: tuple[str, ...] = ()
    """Word starts asking for a change over time (``change``, ``growth``, ``fall``): the newer
    figure minus the older."""
    asks_gap: tuple[str, ...] = ()
    """Word starts asking for the gap between two figures (``differ``, ``écart``, ``差额``): the
    larger less the smaller, or the newer less the older."""
    asks_decrease: tuple[str, ...] = ()
    """Word starts asking for a decrease (``decrease``, ``baisse``, ``减少``): the older figure
    less the newer, unless the question also asks for an increase (:attr:`asks_increase`)."""
    asks_increase: tuple[str, ...] = ()
    """Word starts asking for an increase (``increase``, ``hausse``, ``增加``)."""
    asks_growth_rate: tuple[str, ...] = ()
    """Word starts asking for a compound annual growth rate (``cagr``, ``compound annual
    growth``), in the question or the answer: the rate from one figure to another over the years
    between them (the trace rule ``growth_rate``)."""
    stop_words: tuple[str, ...] = ()
    """Words of a question that name no table row (``the``, ``what``, ``value``)."""
    rises_before: tuple[str, ...] = ()
    """Words of a rise right before a figure, besides :attr:`Lexicon.trend_up` (``up 5%``,
    ``gained 3``): too common to give a clause its direction."""
    falls_before: tuple[str, ...] = ()
    """Words of a fall right before a figure, besides :attr:`Lexicon.trend_down` (``down
    5%``)."""
    change_links: tuple[str, ...] = ()
    """Words between a change word and its figure (``grew by 12%``, ``an increase of 5``)."""
    share_links: tuple[str, ...] = ()
    """Words between a percentage and the figure it is a share of in an answer's working
    (``(41% of 186)``, ``(2 % von 385.000 €)``): the working's value is their product."""
    apposition_links: tuple[str, ...] = ()
    """Words after a comma that restate a figure as a percentage (``fell by $3.2 million, or
    11.1%,``, ``sank um 3,2 Mio. €, also 11,1 %``): the percentage states the same change as
    the figure before it (its decrease too; a bracket right after the figure does as well:
    ``fell $3.2 million (11.1%)``)."""
    change_from: tuple[str, ...] = ()
    """Whole words right before a change's first figure when the answer writes it from one
    figure to another (``from``, ``van``: ``fell from $14.2 million to $6.5 million``); its
    percent change is then relative to that figure (a hedge of :attr:`change_hedges` may stand
    between them)."""
    change_to: tuple[str, ...] = ()
    """Whole words before the second figure of such a change (``to``, ``naar``), within 30
    characters after the first."""
    not_changes: tuple[str, ...] = ()
    """Whole phrases that end in a word of :attr:`rises_before`, :attr:`falls_before` or the
    lexicon's ``trend_up``, ``trend_down`` and state no change (``made up``, ``broken down``:
    ``made up about 43% of sales`` is a share, not a rise of 43%)."""
    change_hedges: tuple[str, ...] = ()
    """Words between a change word (and its link) and its figure that hedge it (``rose by
    about 5%``, ``fell just 2%``)."""
    change_periods: tuple[str, ...] = ()
    """Words before a year that may stand between a change word and its figure (``fell in 2023
    by 5%``, ``sank im Jahr 2023 um 5 %``; a bare year too: ``sank 2023 um 5 %``), and what
    it is compared with (``fell compared with 2022 by 5%``, ``sank gegenüber 2022 um 5 %``)."""
    change_asides: tuple[str, ...] = ()
    """Whole phrases that may stand between a change word and its figure without changing
    what it states (``fell year over year by 5%``, ``sank gegenüber dem Vorjahr um 5 %``,
    ``verringerte sich um 5 %``); each may be followed by a year. A phrase that waits for a
    figure (``compared with``) belongs in :attr:`change_periods`, which needs the year: bare,
    it would make the year after it a change (``fell compared with 2022``)."""
    rises_after: tuple[str, ...] = ()
    """Words of a rise right after a figure (``a 30% increase``, ``1,862 more``)."""
    falls_after: tuple[str, ...] = ()
    """Words of a fall right after a figure (``a 30% decrease``, ``12% lower``)."""
    clause_ends: tuple[str, ...] = ()
    """Words that end the clause whose change words give a figure's direction (``but``,
    ``whereas``)."""
    not_nouns: tuple[str, ...] = ()
    """Words after a number that are not what it counts (``than``, ``million``,
    ``respectively``)."""


class AnswerPhrases(_Strict):
    """The phrases with which :mod:`hybridjudge.grounding._abstention` reads an answer around its
    refusal: what states nothing (a filler, a frame, a deflection), what separates or joins
    clauses, and what concludes. The expressions around them (their order, their spacing,
    what may stand between them) are the module's; the words are a language's. Words of the
    languages written without spaces (:data:`SUBSTRING_LANGUAGES`) match as substrings, the
    others on word boundaries."""

    labels: tuple[str, ...] = ()
    """Words that label an answer before a colon (``Answer: N/A``): ``answer``, ``respuesta``,
    ``答案``."""
    head_breaks: tuple[str, ...] = ()
    """Contrast words that separate a statement from a refusal after it in the same sentence
    (``Revenue was $4.2 billion, but the context ...``): ``but``, ``aber``, ``但``."""
    concessive: tuple[str, ...] = ()
    """Words that open a leading concessive clause (``Although the report does not mention
    profit, ...``): ``although``, ``even if``, ``obwohl``, ``虽然``."""
    connectors: tuple[str, ...] = ()
    """Conjunctions dropped from the start of a clause before it is read (``but``, ``and``,
    ``sin embargo``, ``但是``)."""
    fillers: tuple[str, ...] = ()
    """Openings of a clause that states nothing about the question, which is dropped whole:
    apologies, thanks, greetings, remarks on the question (``i'm sorry``, ``regarding``,
    ``the question asks``, ``lo siento``, ``抱歉``)."""
    first_person: tuple[str, ...] = ()
    """The answerer as a subject (``i``, ``we``): ``I have reviewed the documents``."""
    review_auxiliaries: tuple[str, ...] = ()
    """Auxiliaries between the answerer and :attr:`reviewed` (``have``, ``had``, ``'ve``)."""
    review_adverbs: tuple[str, ...] = ()
    """Adverbs before :attr:`reviewed` (``carefully``, ``thoroughly``)."""
    reviewed: tuple[str, ...] = ()
    """Participles of reading the source after :attr:`first_person` (``I have carefully
    reviewed ...``: a filler): ``reviewed``, ``gone through``."""
    frame_openers: tuple[str, ...] = ()
    """Words that open a frame before a source (``based on``, ``según``, ``laut``, ``根据``): the
    frame (``Based on the provided context, ...``) is cut from its clause."""
    source_nouns: tuple[str, ...] = ()
    """Nouns naming a source, every form (``context``, ``documents``, ``informe``,
    ``Unterlagen``, ``文档``)."""
    frame_qualifiers: tuple[str, ...] = ()
    """Words after a source noun that end a frame (``provided``, ``given``, ``fournies``)."""
    frame_after: tuple[str, ...] = ()
    """Particles after the source noun of a frame in the languages written without spaces
    (``中``, ``によると``, ``에 따르면``)."""
    conclusions: tuple[str, ...] = ()
    """Words that draw a conclusion before a bare "I can't say" (``so``, ``therefore``, ``por
    lo tanto``, ``daher``, ``所以``): only after one is it a verdict."""
    regrets: tuple[str, ...] = ()
    """Words of regret between a conclusion and its verdict (``unfortunately``, ``i'm afraid``,
    ``leider``)."""
    question_prepositions: tuple[str, ...] = ()
    """Prepositions before the question after a verdict (``to``: ``I cannot answer to the
    question``)."""
    question_determiners: tuple[str, ...] = ()
    """Determiners of the question after a verdict (``the``, ``this``, ``esta``, ``cette``)."""
    question_nouns: tuple[str, ...] = ()
    """The question after a verdict (``question``, ``preguntas``)."""
    tail_openers: tuple[str, ...] = ()
    """Words before a source after a verdict (``based on``, ``from``, ``según``, ``d'après``):
    ``I cannot answer based on the provided context``."""
    data_nouns: tuple[str, ...] = ()
    """Nouns that name the source after a verdict, besides :attr:`source_nouns` (``data``,
    ``datos``)."""
    tail_qualifiers: tuple[str, ...] = ()
    """Words after the source after a verdict (``provided``, ``alone``, ``disponibles``)."""
    tail_times: tuple[str, ...] = ()
    """Words of time that end a verdict's clause (``at this time``, ``right now``)."""
    open_questions: tuple[str, ...] = ()
    """Words that open, after a comma, what is not known (``Ich weiß nicht, ob ...``, ``I don't
    know whether ...``): the comma does not end the verdict's clause (``ob``, ``whether``,
    ``cómo``, ``pourquoi``)."""
    open_question_stems: tuple[str, ...] = ()
    """Beginnings of such words, any ending (``welche``: ``welcher``, ``welches``)."""
    refusal_subjects: tuple[str, ...] = ()
    """The answerer or a source, every form (German ``ich``, ``Unterlagen``, ``Textes``): a
    German marker in the past tense refuses only near one of them or of
    :attr:`refusal_findings` (``Der Kaufpreis wurde nicht offengelegt`` reports an event)."""
    refusal_subject_stems: tuple[str, ...] = ()
    """Beginnings of such words, any ending (``bereitgestellte``, ``vorliegende``)."""
    refusal_findings: tuple[str, ...] = ()
    """Words of finding the information (``Informationen``, ``gefunden``, ``entnehmen``)."""
    indicated: tuple[str, ...] = ()
    """Refusal markers that also say "indicated" in its medical sense (``n'est pas indiqué``,
    ``no se indica``): no refusal before one of :attr:`indicated_for`."""
    indicated_for: tuple[str, ...] = ()
    """What follows "indicated" in its medical sense (``chez``, ``en cas``, ``en niños``,
    ``su uso``)."""
    personal_data_after: tuple[str, ...] = ()
    """What follows a missing-information marker that speaks of personal data, not of the
    source (``personnelles``, ``a terceros``: ``Nous ne vendons pas d'informations
    personnelles``): no refusal."""
    source_openers: tuple[str, ...] = ()
    """Words before a source as the subject of a sentence (``unfortunately``, ``however``,
    ``while``: ``While the documents cover ...``)."""
    source_determiners: tuple[str, ...] = ()
    """Determiners of a source as the subject of a sentence (``the``, ``this``, ``these``)."""
    source_adjectives: tuple[str, ...] = ()
    """Adjectives before a source as the subject of a sentence (``provided``, ``retrieved``,
    ``above``)."""
    missing_cues: tuple[str, ...] = ()
    """Openings of a loose cue that something is missing, wider than the refusals (``sorry``,
    ``unknown``, ``no information``, ``未提及``)."""
    missing_negations: tuple[str, ...] = ()
    """Negations before :attr:`missing_stems`, up to two words apart (``not``, ``couldn't``)."""
    missing_stems: tuple[str, ...] = ()
    """Beginnings of verbs of saying or finding that a negation makes a loose cue (``mention``,
    ``provid``, ``specif``, ``locat``)."""
    deflections: tuple[str, ...] = ()
    """Openings of a clause that only points elsewhere (``i would suggest``, ``it is best``,
    ``puede consultar``, ``bitte``, ``建议``): it states nothing."""
    deflection_imperatives: tuple[str, ...] = ()
    """Verbs that point elsewhere as a whole word at the start of a clause (``please``,
    ``consult``, ``refer to``)."""
    offer_modals: tuple[str, ...] = ()
    """Modals between :attr:`first_person` and :attr:`offer_verbs`, a word apart at most (``I
    can suggest``, ``we could certainly help``): ``can``, ``might``."""
    offer_verbs: tuple[str, ...] = ()
    """Verbs of the answerer offering help elsewhere (``suggest``, ``point``, ``refer``)."""
    second_person: tuple[str, ...] = ()
    """The asker as a subject (``you``: ``You can check the website``)."""
    advice_modals: tuple[str, ...] = ()
    """Modals between :attr:`second_person` and :attr:`advice_verbs`, a word apart at most
    (``can``, ``may want to``)."""
    advice_verbs: tuple[str, ...] = ()
    """Verbs of looking elsewhere (``check``, ``contact``, ``search``)."""
    source_pronouns: tuple[str, ...] = ()
    """Pronouns that may stand for a source in a remark on it (``it``, ``they``: ``It mainly
    discusses the merger``; a clause that opens with one is dropped, as it may also be the
    product: ``It covers dental care``)."""
    remark_qualifiers: tuple[str, ...] = ()
    """Words after a source in a remark on it (``provided``, ``above``)."""
    remark_adverbs: tuple[str, ...] = ()
    """Adverbs before the verb of a remark on a source (``only``, ``mainly``)."""
    remark_verbs: tuple[str, ...] = ()
    """Verbs of a remark on what a source is about, not what it says (``covers``, ``talks
    about``, ``summarizes``: ``The context only covers revenue``; not followed by ``that``)."""
    listing_verbs: tuple[str, ...] = ()
    """Verbs of a remark on a source that also state a price (``lists``)."""
    listing_not_before: tuple[str, ...] = ()
    """Words after which a :attr:`listing_verbs` states a price (``for``, ``at``: ``It lists at
    $499``)."""
    remark_having: tuple[str, ...] = ()
    """Verbs of a source having information (``contains``, ``provides``, ``has``)."""
    remark_amounts: tuple[str, ...] = ()
    """Words of how much information a source has (``some``, ``limited``, ``a lot of``)."""
    remark_objects: tuple[str, ...] = ()
    """What a source has in a remark on it (``information``, ``details``, ``an overview``)."""
    weak_verdicts: tuple[str, ...] = ()
    """Phrase patterns (:func:`phrase_pattern`) of a bare "I don't know", "I can't tell": a
    verdict only when drawn as a conclusion, after one of :attr:`conclusions` (``..., so I
    don't know.``); after a statement and "but" it is a disclaimer on that statement.
    ``{i|we} {don't|do not} know``, ``no estoy segur{o|a}``, ``weiss ich[ {es|das}] nicht``,
    ``不知道``, ``알 수 없습니다`` (in :data:`SUBSTRING_LANGUAGES` a space matches any spacing or
    none). The ones that open with :attr:`unable` are written there and in
    :attr:`unable_say`."""
    strong_verdicts: tuple[str, ...] = ()
    """Phrase patterns (:func:`phrase_pattern`) of a refusal of the whole question, a verdict
    wherever it stands (``..., so I cannot answer this question.``: what the answer stated
    before it was not the answer): ``{the|this|your} question {can't|cannot} be answered``,
    ``no {puedo|podemos|se puede} {responder|contestar}``, ``(この質問には)答えられません``.
    Tried in the order written; the question (:attr:`question_nouns`) and the source
    (:attr:`tail_openers`) may follow one, and then the clause ends. A verdict counts only where
    the answer holds a refusal marker (:attr:`Lexicon.refusals`): write the plain phrase there
    too (``non posso rispondere``)."""
    unable: tuple[str, ...] = ()
    """Phrase patterns of the answerer saying they cannot, before a verb of :attr:`unable_answer`
    (a strong verdict) or :attr:`unable_say` (a weak one): ``{i|we} {can't|cannot}``,
    ``{i|we}{ am|'m} unable to``."""
    unable_answer: tuple[str, ...] = ()
    """Phrase patterns after :attr:`unable` that refuse the whole question (a strong verdict):
    ``answer[ {this|that|it}]``, ``{provide|give} {a|the} answer`` (``I am unable to provide an
    answer``)."""
    unable_say: tuple[str, ...] = ()
    """Phrase patterns after :attr:`unable` that make a bare verdict (a weak one, as
    :attr:`weak_verdicts`): ``say[ for sure]``, ``know`` (``..., so I can't say.``)."""

    @field_validator("weak_verdicts", "strong_verdicts", "unable", "unable_answer", "unable_say")
    @classmethod
    def _phrase_patterns(cls, patterns: tuple[str, ...]) -> tuple[str, ...]:
        for p in patterns:
            re.compile(phrase_pattern(p))  # a ValueError names the pattern and where it breaks
        return patterns


class Lexicon(_Strict):
    """One language's words (the schema of ``data/lexicon/<language>.json``)."""

    language: str = Field(pattern=r"^[a-z]{2,3}$")
    """BCP 47 primary tag (``en``, ``de``; ``und`` for the words no one language owns)."""
    name: str
    """The language's English name."""
    scales: dict[str, int] = {}
    """Every scale word or abbreviation with its multiplier (``million``: 10**6, ``crore``:
    10**7, ``mrd``: 10**9), normalised (lower case)."""
    figure_scales: tuple[str, ...] = ()
    """Scales read after a figure (``2.5 million``, ``3,5 Mrd.``): keys of :attr:`scales`."""
    figure_forms: dict[ScaleForm, tuple[str, ...]] = {}
    """How the scales of :attr:`figure_scales` stand after a figure (keys of :attr:`scales`):
    ``word`` (a space or none before, a word end after: ``2.5 million``, ``$12.4bn``),
    ``spaced`` (a space before: ``1,9 Millionen``, ``500 crore``), ``dotted`` (a space before,
    a full stop or a word end after: ``3,5 Mrd.``), ``before_sign`` (before a euro or a dollar
    sign after the figure: ``150 M€``, ``22,6 M$``), ``glued`` (glued, no letter after: ``82.9M``), ``char`` (a character of a
    script without spaces: ``1.5万``, ``1,200 ล้าน``)."""
    statement_scales: tuple[str, ...] = ()
    """Scales a table's or a page's scale statement may name (``(in millions)``, ``en
    milliers d'euros``): keys of :attr:`scales`."""
    signal_words: tuple[str, ...] = ()
    """Common words of the language that English texts do not write (``der``, ``los``,
    ``fatturato``): a text holding two of them is written in a language that writes its
    figures the continental way (``3.676,2``)."""
    signal_scales: tuple[str, ...] = ()
    """Scale words no English text writes (``millones``, ``mrd``; keys of :attr:`scales`):
    one counts as two :attr:`signal_words`."""
    spaced_thousands: bool = False
    """The language groups thousands with spaces (``1 283``, French): a text with one of its
    :attr:`signal_words` and a figure so grouped reads that figure whole (``La somme est de
    1 283.`` is 1,283; in other texts a space stays a separator: ``sizes 10 500``)."""
    currencies: tuple[Currency, ...] = ()
    """Currencies as this language writes them."""
    months: dict[str, tuple[str, ...]] = {}
    """Month names and abbreviations by month number (``"1"``: ``januar``, ``jan``)."""
    unit_definitions: dict[str, UnitDefinition] = {}
    """The canonical units with their dimensions and factors (``und.json``): conversions are
    exact and only inside a dimension."""
    units: dict[str, tuple[str, ...]] = {}
    """Unit symbols or words after a number by canonical unit (``day``: ``jours``, ``jour``;
    ``mg``: ``mg``; a key of the ``unit_definitions`` of ``und.json``)."""
    glued_units: dict[str, tuple[str, ...]] = {}
    """Unit symbols read only glued to their figure, by canonical unit (``pence``: ``p``:
    ``12.5p`` is 12.5 pence; ``5 p`` stays 5 and a letter, as in ``Table 5 p 6``)."""
    ambiguous_units: tuple[str, ...] = ()
    """Unit symbols of :attr:`units` that are words of a language too (``um`` for µm, German
    "by": ``stieg 2023 um 5 %``): not a unit where a figure follows."""
    not_numbers: tuple[str, ...] = ()
    """Phrases of this language that open with a number word of another (``ten opzichte van``,
    Dutch "compared with", opens with English ``ten``; ``ten minste``, at least): no number
    there."""
    counters: tuple[str, ...] = ()
    """Counter characters after a numeral (``八百名员工``, ``三家公司``): the numeral counts, with
    no unit."""
    percent_words: tuple[str, ...] = ()
    """Words after a number that make it a percentage or percentage points (``percent``, ``per
    cent``, ``prozentpunkte``, ``パーセント``); a space in one matches one blank or more, so a
    word also written glued is listed glued too (``pour cent``, ``pourcent``)."""
    basis_points: tuple[str, ...] = ()
    """Words after a number that make it hundredths of a percentage point (``bps``, ``basis
    points``)."""
    figure_context: FigureContextWords | None = None
    """Words around a figure that say what it is (counts, citations, labels, decades)."""
    frequencies: FrequencyWords | None = None
    """Words of frequencies and rates (``twice daily``, ``$5 per month``)."""
    shares: ShareWords | None = None
    """Words of shares written in words (``two-thirds``, ``half of the``)."""
    numbers: NumberWords | None = None
    """Number words (none for the languages whose numerals are characters)."""
    approximations: tuple[str, ...] = ()
    """Words before a figure that make it an approximation (``about``, ``environ``, ``etwa``;
    ``~``), in the order they are tried (a word that ends another is listed after it)."""
    bounds_above: tuple[str, ...] = ()
    """Words before a figure that make it a lower bound (``more than``, ``at least``)."""
    bounds_below: tuple[str, ...] = ()
    """Words before a figure that make it an upper bound (``less than``, ``at most``)."""
    bounds_after: tuple[str, ...] = ()
    """Words after a figure that make it a bound, either way (``$50 or more``, ``65 and
    over``, ``18 or younger``)."""
    partitives: tuple[str, ...] = ()
    """Words after a share that take its whole from the figure before it (``1,200 patients,
    half of them``, ``of whom``)."""
    article_durations: tuple[str, ...] = ()
    """Units of time a duration of one writes with the article (``within a week``, ``for an
    hour``): an answer may write it ``7 days`` or ``one week``."""
    article_duration_cues: tuple[str, ...] = ()
    """Words before the article and unit of :attr:`article_durations` that make them a duration
    (``within``, ``lasted``, ``up to``; ``twice a day`` is a frequency, read elsewhere)."""
    period_ordinals: dict[str, tuple[str, ...]] = {}
    """Ordinals before a quarter or a half by number (``"3"``: ``troisième``, ``3e``, ``dritten``,
    ``3.``): ``troisième trimestre`` is ``Q3`` for an English answer."""
    period_quarters: tuple[str, ...] = ()
    """Words for a quarter of a year after an ordinal of :attr:`period_ordinals` (``trimestre``,
    ``Quartal``)."""
    period_halves: tuple[str, ...] = ()
    """Words for a half year after an ordinal of :attr:`period_ordinals` (``semestre``,
    ``Halbjahr``)."""
    period_letters: dict[Literal["quarter", "half"], tuple[str, ...]] = {}
    """Letters glued after a quarter's or a half's number that name it (``3Q``, ``4Q23``:
    ``quarter``: ``q``; ``2H 2023``, ``1H23``: ``half``: ``h``): a half only with its year, a
    number and ``h`` alone being hours."""
    scale_statement: ScaleStatementWords | None = None
    """The words of a table's or a page's scale statement besides its scale (``(in millions of
    dollars)``, ``$ in thousands``)."""
    total_words: tuple[str, ...] = ()
    """Words a table row's label opens with before what it totals (``total``, ``totale``,
    ``summe``): ``Total net sales`` is a row of ``net sales`` for :attr:`named_ratios`."""
    label_acronyms: dict[str, tuple[str, ...]] = {}
    """Names a table row's label and a question may write out or as an acronym, by the name
    written out, lower case (``united states``: ``us``, ``usa``): a question's ``U.S.`` names
    the row ``United States``, its ``United Kingdom`` the row ``UK`` (an acronym without its
    stops, lower case)."""
    range_words: tuple[str, ...] = ()
    """Words that join two figures into a range by themselves (``6 to 8``, ``6 bis 8``, ``6至8``):
    the low end takes the high end's unit and scale (``5 to 7 million`` is 5 million)."""
    range_pairs: dict[str, tuple[str, ...]] = {}
    """Words that open a range (the keys) with the words that join its ends after them
    (``between 6 and 8``: ``{"between": ["and"]}``; ``entre 6 et 8``, ``de 6 à 8``): such a
    word joins a range only after its opener (``6 and 8`` alone are two figures)."""
    conjunctions: tuple[str, ...] = ()
    """The word ``and`` (``und``, ``et``): it joins the two parts of a duration (``2 hours and
    30 minutes``)."""
    negative_words: tuple[str, ...] = ()
    """Words before a figure that stand as its minus sign (``minus 20 degrees``, ``negative
    3%``)."""
    negative_operators: tuple[str, ...] = ()
    """Words after which a word of :attr:`negative_words` is an operator, not a sign (``plus or
    minus 2%``; after a figure it is one too: ``5 minus 3``)."""
    negative_signs: tuple[str, ...] = ()
    """Characters written right before a figure as its minus sign (``△1,234``, ``▲567`` in
    Japanese and Korean statements), one character each; one space may stand between."""
    per_one: tuple[str, ...] = ()
    """Words after a ``1`` and a counter of one or two characters that make them "per", no
    quantity (``1株当たり``, per share; ``1人あたり``; ``1주당``, ``1인당``): the 1 is no figure."""
    month_suffixes: tuple[str, ...] = ()
    """Words right after a figure from 1 to 12 that make it a calendar month's name, no
    quantity (``2024年3月``, ``2024년 3월``: March 2024, as ``March`` is no figure); a full date
    (``3月31日``) is read as one."""
    factor_changes: dict[str, int] = {}
    """Words of a change by a factor with the percentage change each states (``doubled``: 100,
    ``halved``: -50, ``verdoppelt``: 100): a context's ``sales doubled`` grounds an answer's
    ``up 100%``."""
    excepted_rows: tuple[ExceptedRows, ...] = ()
    """Rows a scale statement may name as excepted from its scale (:class:`ExceptedRows`)."""
    named_ratios: tuple[NamedRatio, ...] = ()
    """Ratios a question, or an answer's clause before its percentage, names by their usual
    name (``gross margin``) and the rows they divide (:class:`NamedRatio`)."""
    derivation: DerivationWords | None = None
    """The words with which a question asks for a derived figure and an answer states a
    change."""
    trend_up: tuple[str, ...] = ()
    """Words of a change upward in running text (``rose``, ``grew``, ``improved``): the
    direction an answer states for its number (``revenue rose 12%``)."""
    trend_down: tuple[str, ...] = ()
    """Words of a change downward (``fell``, ``declined``, ``narrowed``)."""
    decrease_verbs: tuple[str, ...] = ()
    """Verbs before a figure that state it as a decrease (``fell 30%``, ``cut by 5``)."""
    decrease_words: tuple[str, ...] = ()
    """Other words before a figure that make it a decrease (``a decline of``, ``a loss of``,
    ``minus``)."""
    decrease_after: tuple[str, ...] = ()
    """Nouns after a figure that state a decrease (``a 6% decrease``, ``6% lower``)."""
    precision: tuple[str, ...] = ()
    """Words with which a refusal refuses only a detail's precision (``exact``, ``genaue``):
    such a refusal followed by a statement is a partial answer."""
    refusals: dict[str, tuple[str, ...]] = {}
    """Abstention markers by BCP 47 tag (the language, or a script of it: ``zh-Hans``,
    ``zh-Hant``): ``I don't know``, ``la source ne précise pas``; see
    :mod:`hybridjudge.grounding._abstention` for their syntax (``^...$``: a whole answer). An
    entry may be a phrase pattern without ``[x]*`` (``{le texte|le rapport}[ fourni] ne précise
    pas``): it is written out into the markers it stands for when the file is read
    (:func:`expand_phrase`), in the order written, duplicates dropped."""
    refusal_classes: dict[str, tuple[str, ...]] = {}
    """Named subsets of :attr:`refusals` that the engine reads apart: ``pronoun`` (English
    markers whose subject is a pronoun, ``it doesn't include``: a refusal only where the
    pronoun stands for a source), ``active`` (German markers whose verb has a subject who did
    not find out, ``nicht feststellen``)."""
    negations: tuple[str, ...] = ()
    """Negation cues (``not``, ``without``, ``keine``; Chinese ``不``, ``没有``, matched as
    substrings): an anchor after one is negated."""
    negation_after: tuple[str, ...] = ()
    """Negation cues that follow what they negate, in languages that close a clause with its
    verb (Japanese ``ない``, ``ません``; Korean ``않``, ``아니``, ``없``): an anchor with one
    after it in its clause, a few characters on, is negated. Matched as substrings."""
    subject_particles: tuple[str, ...] = ()
    """Particles that mark a clause's subject or topic (Japanese ``は``, ``が``; Korean ``은``,
    ``는`` with a space after: at the end of a word): one between an anchor and a cue of
    :attr:`negation_after`, not right after the anchor, gives the cue a subject of its own
    (``返金は30日以内で手数料はかかりません``: the fee is what is not charged)."""
    asserting_negations: tuple[str, ...] = ()
    """Phrases that hold a negation cue yet assert what they say (Japanese ``なければならない``
    "must", ``しかない`` "only"; Korean ``수밖에 없`` "cannot but", ``틀림없`` "surely"), or
    words that hold one and are no negation (``少ない`` "few", ``危ない`` "dangerous"): a cue
    inside one negates nothing. Matched as substrings; a space matches any spacing or none."""
    contrast: tuple[str, ...] = ()
    """Contrast and hedge words that open what an answer goes on to state (``but``,
    ``however``, ``probably``)."""
    contrast_openers: tuple[str, ...] = ()
    """Words that are a contrast only at the start of a sentence (``Still, ...``)."""
    condition: tuple[str, ...] = ()
    """Words that open a condition (``if``, ``unless``, ``falls``, ``a menos que``; in a
    script written without spaces matched as substrings: ``如果``)."""
    condition_after: tuple[str, ...] = ()
    """What makes the clause a condition when it follows a marker right away (languages that
    close a condition: Japanese ``記載されていない場合``, Korean ``정보가 없는 경우``, ``없으면``,
    Chinese ``没有提供的话``)."""
    concession_before: tuple[str, ...] = ()
    """Words that make a condition word that follows them a concession (``even if``, ``auch
    wenn``)."""
    concession_after: tuple[str, ...] = ()
    """Words that make a condition word before them a concession (``si bien``, ``wenn
    auch``)."""
    clause_breaks: tuple[str, ...] = ()
    """Conjunctions that open another clause (``but``, ``whereas``): a negation cue before one
    does not negate what follows it (``no fee, but a deposit``)."""
    negation_limits: tuple[str, ...] = ()
    """Words after a negation cue that make it a limit, not a negation (``more than``, ``later
    than``, ``exceeding``: ``no more than 30 days``), or no negation at all (``only``: ``not
    only``). In :data:`SUBSTRING_LANGUAGES` glued to the cue: Chinese ``超过`` (``不超过``, "no
    more than"), ``常`` (``非常``, "very"), ``来`` (``未来``, "future"); Japanese ``とも``
    (``少なくとも``, "at least")."""
    answers: AnswerPhrases | None = None
    """The phrases around a refusal (:class:`AnswerPhrases`)."""

    @field_validator("refusals", "refusal_classes")
    @classmethod
    def _written_out(cls, markers: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
        return written_out(markers)

    @model_validator(mode="after")
    def _roles_are_scales(self) -> Self:
        roles = {
            "figure_scales": self.figure_scales,
            "figure_forms": [w for ws in self.figure_forms.values() for w in ws],
            "statement_scales": self.statement_scales,
            "signal_scales": self.signal_scales,
            "numbers.scales": self.numbers.scales if self.numbers else (),
            "currencies.numbering": [w for c in self.currencies for w in c.numbering],
            **{
                f"scale_statement.{name}": getattr(self.scale_statement, name, ())
                for name in ("after_in", "in_brackets", "after_sign", "singular")
            },
        }
        for field, words in roles.items():
            missing = [w for w in words if w not in self.scales]
            if missing:
                raise ValueError(f"{field}: {missing} not in scales (add them with their value)")
        unknown = {
            name: [w for w in words if w not in {m for ms in self.refusals.values() for m in ms}]
            for name, words in self.refusal_classes.items()
        }
        unknown = {name: words for name, words in unknown.items() if words}
        if unknown:
            raise ValueError(f"refusal_classes: {unknown} are not refusals of this lexicon")
        foreign = [t for t in self.refusals if t.split("-")[0] != self.language]
        if foreign:
            raise ValueError(f"refusals: tags {foreign} are not of language {self.language!r}")
        bad = [k for k in self.months if not (k.isdigit() and 1 <= int(k) <= 12)]
        if bad:
            raise ValueError(f"months: keys {bad} are not month numbers 1-12")
        bad = [k for k in self.period_ordinals if not (k.isdigit() and 1 <= int(k) <= 4)]
        if bad:
            raise ValueError(f"period_ordinals: keys {bad} are not quarter numbers 1-4")
        bad = [
            a
            for name, acronyms in self.label_acronyms.items()
            for a in (name, *acronyms)
            if a != a.lower() or (a in acronyms and not (a.isascii() and a.isalpha()))
        ]
        if bad:
            raise ValueError(
                f"label_acronyms: {bad} must be lower case, an acronym letters only (us, not U.S.)"
            )
        return self


def lexicon_dir() -> Path:
    """The folder of the packaged lexicons."""
    return Path(__file__).parent / "data" / "lexicon"


def load_lexicon(path: Path) -> Lexicon:
    """The lexicon of one file, validated. :class:`LexiconError` names the file and the
    field when the file cannot be read or breaks the schema."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise LexiconError(
            f"lexicon {path}: cannot be read as JSON ({exc}); fix the file's syntax", path=path
        ) from exc
    try:
        lex = Lexicon.model_validate(raw)
    except ValidationError as exc:
        where = [".".join(str(p) for p in e["loc"]) or "(file)" for e in exc.errors()]
        fields = "; ".join(f"{w}: {e['msg']}" for w, e in zip(where, exc.errors(), strict=True))
        raise LexiconError(
            f"lexicon {path}: {fields} (the schema: hybridjudge.grounding._lexicon.Lexicon, "
            "docs/lexicons.md)",
            path=path,
            field=where[0],
        ) from exc
    if lex.language != path.stem:
        raise LexiconError(
            f"lexicon {path}: language is {lex.language!r}, the file name says {path.stem!r}; "
            "name the file after its language",
            path=path,
            field="language",
        )
    return lex


def _frozen(value: Any) -> Any:
    """``value`` read from JSON with every list a tuple (as the schema's fields hold them)."""
    if isinstance(value, list):
        for v in value:
            if not isinstance(v, str):
                return tuple(map(_frozen, value))
        return tuple(value)  # a list of words, most of them: nothing inside to freeze
    if isinstance(value, dict):
        return {k: _frozen(v) for k, v in value.items()}
    return value


def written_out(markers: Mapping[str, Sequence[str]]) -> dict[str, tuple[str, ...]]:
    """``markers`` (per tag, :attr:`Lexicon.refusals`) with each phrase pattern written out
    into the markers it stands for (:func:`expand_phrase`), in order, duplicates dropped."""
    out: dict[str, tuple[str, ...]] = {}
    for tag, ms in markers.items():
        joined = "".join(ms)  # most tags hold no pattern: one look over them all
        if "{" in joined or "[" in joined:
            out[tag] = tuple(dict.fromkeys(m for p in ms for m in expand_phrase(p)))
        else:
            out[tag] = tuple(dict.fromkeys(ms))
    return out


def _constructed(raw: dict[str, Any]) -> Lexicon:
    """A packaged lexicon as :class:`Lexicon`, built without validation (see :func:`lexicon`)."""
    fields = {k: _frozen(v) for k, v in raw.items()}
    for name in ("refusals", "refusal_classes"):  # as the schema's validator writes them out
        if name in fields:
            fields[name] = written_out(fields[name])
    if "currencies" in fields:
        fields["currencies"] = tuple(Currency.model_construct(**c) for c in fields["currencies"])
    if "numbers" in fields:
        fields["numbers"] = NumberWords.model_construct(**fields["numbers"])
    if "frequencies" in fields:
        freq = dict(fields["frequencies"])
        freq["periods"] = {
            k: Period.model_construct(**v) for k, v in freq.get("periods", {}).items()
        }
        fields["frequencies"] = FrequencyWords.model_construct(**freq)
    for name, model in (("figure_context", FigureContextWords), ("shares", ShareWords)):
        if name in fields:
            fields[name] = model.model_construct(**fields[name])
    if "scale_statement" in fields:
        fields["scale_statement"] = ScaleStatementWords.model_construct(**fields["scale_statement"])
    if "derivation" in fields:
        fields["derivation"] = DerivationWords.model_construct(**fields["derivation"])
    for name, item in (("named_ratios", NamedRatio), ("excepted_rows", ExceptedRows)):
        if name in fields:
            fields[name] = tuple(item.model_construct(**r) for r in fields[name])
    if "answers" in fields:
        fields["answers"] = AnswerPhrases.model_construct(**fields["answers"])
    if "unit_definitions" in fields:
        fields["unit_definitions"] = {
            k: UnitDefinition.model_construct(**v) for k, v in fields["unit_definitions"].items()
        }
    return Lexicon.model_construct(**fields)


@functools.cache
def lexicon(language: str) -> Lexicon:
    """The packaged lexicon of ``language``, read once per process.

    The packaged files are validated against the schema by the test suite
    (``tests/grounding/test_lexicon.py`` loads each with :func:`load_lexicon` and compares);
    here they are read without pydantic's validation, which would cost every process that
    imports the checks about 100 ms (building the validators and pydantic's scan of the
    installed plugins) for files that cannot change after the wheel is built. A file of your
    own goes through :func:`load_lexicon`."""
    path = lexicon_dir() / f"{language}.json"
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return load_lexicon(path)  # the error, named by the validating loader
    if not isinstance(raw, dict) or raw.get("language") != language:
        return load_lexicon(path)
    return _constructed(raw)


def merged(field: str, languages: Iterable[str] = LANGUAGES) -> tuple[str, ...]:
    """The words of a list field (``refusals``, ``contrast``, ``answers.fillers``: a field of a
    nested model after a dot) over ``languages``, in order, each once."""
    return tuple(dict.fromkeys(w for lang in languages for w in _words(lexicon(lang), field)))


def _words(lex: Lexicon, field: str) -> tuple[str, ...]:
    """The words of ``field`` (dotted: ``answers.fillers``, or a key of a mapping field:
    ``period_letters.quarter``) in ``lex``; none when a model or a key on the way is left
    out."""
    value: Any = lex
    for name in field.split("."):
        if value is None:
            return ()
        value = value.get(name) if isinstance(value, dict) else getattr(value, name)
    return tuple(value or ())


@functools.cache
def scales(role: str | None = None) -> dict[str, int]:
    """The one table of scale words and their multipliers, over every language; with ``role``
    (``"figure"`` or ``"statement"``) only the words that play it."""
    out: dict[str, int] = {}
    for lang in LANGUAGES:
        lex = lexicon(lang)
        words = lex.scales if role is None else getattr(lex, f"{role}_scales")
        for w in words:
            out.setdefault(w, lex.scales[w])
    return out


@functools.cache
def figure_forms() -> dict[ScaleForm, tuple[str, ...]]:
    """The scale words of every lexicon by how they stand after a figure."""
    out: dict[ScaleForm, dict[str, None]] = {}
    for lang in LANGUAGES:
        for form, words in lexicon(lang).figure_forms.items():
            out.setdefault(form, {}).update(dict.fromkeys(words))
    return {form: tuple(words) for form, words in out.items()}


@functools.cache
def currencies() -> tuple[Currency, ...]:
    """Every currency of every lexicon (a currency several lexicons write is listed once per
    lexicon; :func:`currency_of` reads them in order)."""
    return tuple(c for lang in LANGUAGES for c in lexicon(lang).currencies)


@functools.cache
def currency_of(kinds: tuple[str, ...] = ("signs", "codes", "names")) -> dict[str, str]:
    """Each written form of the given kinds (``signs``, ``codes``, ``names``) -> its ISO code;
    the first lexicon to write a form decides it."""
    out: dict[str, str] = {}
    for kind in kinds:
        for c in currencies():
            for w in getattr(c, kind):
                out.setdefault(w, c.code)
    return out


@functools.cache
def scale_statement_words() -> ScaleStatementWords:
    """The words of scale statements over every lexicon, each field merged in order."""
    return ScaleStatementWords.model_construct(
        None, **_merged_group(ScaleStatementWords, "scale_statement")
    )


@functools.cache
def named_ratios() -> tuple[NamedRatio, ...]:
    """The named ratios of every lexicon, in order."""
    return tuple(r for lang in LANGUAGES for r in lexicon(lang).named_ratios)


@functools.cache
def label_acronyms() -> dict[str, tuple[str, ...]]:
    """The names and their acronyms of every lexicon (:attr:`Lexicon.label_acronyms`), the
    acronyms of a name listed twice merged in order."""
    out: dict[str, tuple[str, ...]] = {}
    for lang in LANGUAGES:
        for name, acronyms in lexicon(lang).label_acronyms.items():
            out[name] = tuple(dict.fromkeys((*out.get(name, ()), *acronyms)))
    return out


@functools.cache
def excepted_rows() -> tuple[ExceptedRows, ...]:
    """The excepted rows of every lexicon, in order."""
    return tuple(r for lang in LANGUAGES for r in lexicon(lang).excepted_rows)


def derivation_words() -> DerivationWords:
    """The words of derived figures over every lexicon, each field merged in order."""
    return DerivationWords.model_construct(None, **_merged_group(DerivationWords, "derivation"))


def _merged_group(model: type[_Strict], group: str) -> dict[str, tuple[str, ...]]:
    """Each word field of ``model``, the lexicon's nested field ``group``, merged over
    :data:`LANGUAGES` (:func:`merged`)."""
    return {name: merged(f"{group}.{name}") for name in model.model_fields}


@functools.cache
def months(languages: tuple[str, ...] = LANGUAGES) -> dict[str, int]:
    """Month name or abbreviation -> month number, over ``languages``."""
    out: dict[str, int] = {}
    for month in range(1, 13):
        for lang in languages:
            for name in lexicon(lang).months.get(str(month), ()):
                out.setdefault(name, month)
    return out


GroupName = Literal["figure_context", "frequencies", "shares"]
"""The lexicon's groups of words (nested fields) that :func:`grouped` reads."""


@functools.cache
def grouped(
    group: GroupName, field: str, languages: tuple[str, ...] = LANGUAGES
) -> tuple[str, ...]:
    """The words of a list field of a group (``figure_context``, ``count_nouns``) over
    ``languages``, in order, each once (:func:`merged` of ``group.field``)."""
    return merged(f"{group}.{field}", languages)


@functools.cache
def grouped_table(
    group: GroupName, field: str, languages: tuple[str, ...] = LANGUAGES
) -> dict[str, int]:
    """A word -> value field of a group (``shares``, ``numerators``) over ``languages``; the
    first lexicon to write a word decides its value."""
    out: dict[str, int] = {}
    for lang in languages:
        words = getattr(lexicon(lang), group)
        if words is not None:
            for w, v in getattr(words, field).items():
                out.setdefault(w, v)
    return out


@functools.cache
def periods() -> dict[str, Period]:
    """Every period word of every lexicon (:attr:`FrequencyWords.periods`); the first lexicon
    to write a word decides its period."""
    out: dict[str, Period] = {}
    for lang in LANGUAGES:
        freq = lexicon(lang).frequencies
        if freq is not None:
            for w, period in freq.periods.items():
                out.setdefault(w, period)
    return out


def trie_alternation(words: Iterable[str], space: str = r"\s+") -> str:
    """A regex alternation of literal words, longest first (inner spaces match ``space``),
    written as a trie: ``k(?:mh?|g)`` for ``kmh``, ``km``, ``kg``. Python's engine tries
    the branches of an alternation one by one, so a flat list of 280 units costs 280 tests at
    every figure; the trie costs one per letter read. It matches what the flat list sorted
    longest first matches: at one position, only words that are prefixes of one another can
    both match, and the trie tries the longer first (a word that ends at a node is its last
    branch). No words: an expression that matches nothing."""
    trie: dict[str, Any] = {}
    for w in set(words):
        node = trie
        for ch in w:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: dict[str, Any]) -> str:
        parts = [
            (space if ch == " " else re.escape(ch)) + emit(node[ch]) for ch in sorted(node) if ch
        ]
        if not parts:
            return ""
        if len(parts) == 1 and "" not in node:
            return parts[0]
        if len(parts) == 1 and len(parts[0]) - parts[0].startswith("\\") == 1:
            return parts[0] + "?"  # "s?" rather than "(?:s)?": the same code, parsed faster
        return f"(?:{'|'.join(parts)})" + ("?" if "" in node else "")

    return emit(trie) or "(?!)"


def alternation(words: Iterable[str], *, space: str | None = None) -> str:
    """A regex alternation of ``words``, longest first (then alphabetical), each escaped: the
    order an engine that tries branches one by one needs to prefer the longest word. With
    ``space`` (``r"\\s+"``), a space inside a word matches that expression."""
    ordered = sorted(set(words), key=lambda w: (-len(w), w))
    if space is None:
        return "|".join(re.escape(w) for w in ordered)
    return "|".join(space.join(re.escape(p) for p in w.split(" ")) for w in ordered)


_PHRASE_TOKEN = re.compile(r" +|\]\*|[{}\[\]|*]|[^ {}\[\]|*]+")
"""The pieces of a phrase pattern (:func:`phrase_pattern`): blanks, the syntax (``{``, ``|``,
``}``, ``[``, ``]``, ``]*``; a ``*`` elsewhere is an error), and text."""


def phrase_pattern(text: str, *, substring: bool = False) -> str:
    """The regex source of a *phrase pattern*, the syntax of the verdict fields of
    :class:`AnswerPhrases` (``docs/lexicons.md``, "Phrase patterns"):

    - ``{a|b|c}``: one of the alternatives, tried in the order written (each a pattern itself:
      ``{dar|{proporcionar|ofrecer} una}``);
    - ``[x]``: ``x`` or nothing; ``[x]*``: ``x`` any number of times, or nothing. A space that
      goes with an optional part is written inside it: ``answer[ {this|it}]``;
    - a space: one blank or more (with ``substring``, for :data:`SUBSTRING_LANGUAGES`: any
      blanks or none);
    - anything else is text, matched as written (escaped).

    ``no {puedo|se puede} {responder|dar una respuesta}`` gives
    ``no\\s+(?:puedo|se\\s+puede)\\s+(?:responder|dar\\s+una\\s+respuesta)``.

    Raises:
        ValueError: a malformed pattern (an unclosed or stray bracket, a
            ``|`` outside a choice, an empty alternative or pattern, a ``*`` not after ``]``),
            saying where.
    """
    return _regex(_phrase_pieces(text), r"\s*" if substring else r"\s+")


def expand_phrase(text: str) -> list[str]:
    """The phrases a *phrase pattern* (:func:`phrase_pattern`'s syntax, without ``[x]*``) stands
    for, in the order written: ``le {texte|rapport}[ fourni] ne précise pas`` gives ``le texte
    ne précise pas``, ``le texte fourni ne précise pas``, ``le rapport ne précise pas``, ``le
    rapport fourni ne précise pas``. A text without ``{``, ``[`` stands for itself.

    Raises:
        ValueError: a malformed pattern (as :func:`phrase_pattern`), a ``[x]*`` (no finite
            expansion), or more than :data:`MAX_EXPANSION` phrases.
    """
    if "{" not in text and "[" not in text:
        return [text]
    phrases = _phrases(_phrase_pieces(text), text)
    return list(
        dict.fromkeys(
            " ".join(p.split()) if "  " in p or p[:1] == " " or p[-1:] == " " else p
            for p in phrases  # two blanks around an empty part, or one at an end: one or none
        )
    )


MAX_EXPANSION = 4096
"""Most phrases one pattern of :func:`expand_phrase` may stand for."""


class _Choice(NamedTuple):
    """``{a|b}`` of a phrase pattern: its alternatives, in the order written."""

    options: tuple[tuple["_Piece", ...], ...]


class _Optional(NamedTuple):
    """``[x]`` (or, ``repeated``, ``[x]*``) of a phrase pattern."""

    body: tuple["_Piece", ...]
    repeated: bool


_Piece = str | _Choice | _Optional
"""A piece of a parsed phrase pattern: text as written, ``" "`` (a blank: text holds none), a
choice or an optional part."""


def _phrase_pieces(text: str) -> tuple[_Piece, ...]:
    """The one reading of a phrase pattern, which :func:`phrase_pattern` writes as an
    expression and :func:`expand_phrase` writes out (``ValueError``: where it breaks)."""
    tokens: list[str] = _PHRASE_TOKEN.findall(text)
    i = 0

    def fail(why: str) -> ValueError:
        where = sum(map(len, tokens[:i]))  # the tokens cover the text, in order
        return ValueError(f"phrase pattern {text!r}: {why} at character {where + 1}")

    def sequence(closers: tuple[str, ...]) -> tuple[_Piece, ...]:
        # The pieces up to one of ``closers`` (not consumed) or the end.
        nonlocal i
        out: list[_Piece] = []
        start = i
        while i < len(tokens) and tokens[i] not in closers:
            token = tokens[i]
            i += 1
            if token[0] == " ":
                out.append(" ")
            elif token == "{":
                options = [sequence(("|", "}"))]
                while i < len(tokens) and tokens[i] == "|":
                    i += 1
                    options.append(sequence(("|", "}")))
                if i >= len(tokens):
                    raise fail("'{' is not closed")
                i += 1
                out.append(_Choice(tuple(options)))
            elif token == "[":
                body = sequence(("]", "]*"))
                if i >= len(tokens):
                    raise fail("'[' is not closed")
                out.append(_Optional(body, tokens[i] == "]*"))
                i += 1
            elif token in ("}", "]", "]*", "|", "*"):
                i -= 1
                raise fail(
                    f"{token[0]!r} out of place" + (" (not after ']')" if token == "*" else "")
                )
            else:
                out.append(token)
        if i == start:
            raise fail("nothing written" if not text else "an empty alternative or group")
        return tuple(out)

    return sequence(())


def _regex(pieces: tuple[_Piece, ...], space: str) -> str:
    """The expression of parsed pieces (:func:`phrase_pattern`); a blank matches ``space``."""
    out: list[str] = []
    for p in pieces:
        if isinstance(p, _Choice):
            out.append(f"(?:{'|'.join(_regex(o, space) for o in p.options)})")
        elif isinstance(p, _Optional):
            out.append(f"(?:{_regex(p.body, space)}){'*' if p.repeated else '?'}")
        else:
            out.append(space if p == " " else re.escape(p))
    return "".join(out)  # a valid expression: every piece is escaped text or a closed group


def _phrases(pieces: tuple[_Piece, ...], text: str) -> list[str]:
    """The phrases parsed pieces stand for, in order (:func:`expand_phrase`; ``text`` names
    the pattern in an error)."""
    out = [""]
    for p in pieces:
        if isinstance(p, _Choice):
            parts = [s for o in p.options for s in _phrases(o, text)]
        elif isinstance(p, _Optional):
            if p.repeated:
                raise ValueError(f"phrase pattern {text!r}: '[x]*' has no finite expansion")
            parts = ["", *_phrases(p.body, text)]
        else:
            parts = [p]
        out = [a + b for a in out for b in parts]
        if len(out) > MAX_EXPANSION:
            raise ValueError(
                f"phrase pattern {text!r}: more than {MAX_EXPANSION} phrases; split it"
            )
    return out
