"""Typed results of the grounding checks: quantities, traces, findings and the report."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from hybridjudge._versions import version_problem

__all__ = [
    "GROUNDING_REPORT_VERSION",
    "TRACE_RULES",
    "Finding",
    "FindingKind",
    "GroundingReport",
    "Quantity",
    "QuantityKind",
    "QuantityTrace",
    "TraceRule",
    "TraceSource",
]

GROUNDING_REPORT_VERSION = 2
"""Format version of :class:`GroundingReport` (bumped on any incompatible change). Version 2 adds
:attr:`QuantityTrace.rule`; a version 1 report still reads (its traces have no rule)."""
_READABLE_VERSIONS = (1, GROUNDING_REPORT_VERSION)
"""The report versions this hybridjudge reads."""

FindingKind = Literal[
    "missing_anchor",
    "negated_anchor",
    "ungrounded_number",
    "non_abstention",
    "over_abstention",
    "derived_number",
    "no_context",
]
"""What a finding says is wrong (``derived_number`` only with ``derived="finding"``;
``no_context``: the context is empty and the answer does not abstain)."""

QuantityKind = Literal["number", "date", "time"]
"""A plain number (with or without a unit), a calendar date, or a clock time."""

TraceSource = Literal["context", "question", "allowed", "anchor", "derived", "working"]
"""Where a quantity of the answer was found: in the context, the question, the allowed numbers or
an anchor's wording; ``derived`` from context figures (see :attr:`QuantityTrace.derivation`); or
``working``: a constant or counting word of the answer's shown working (``x 100``, ``/ 2``,
``these two figures``) or a count of the items the answer lists (``two agreements:`` and a
list of two), not a claim about the context."""

TraceRule = Literal[
    "as_written",
    "rescaled",
    "reworded",
    "numeral",
    "decade",
    "share_in_words",
    "rounded",
    "approximation",
    "bound",
    "sum",
    "difference",
    "product",
    "ratio",
    "percent_change",
    "growth_rate",
    "mean",
    "share",
    "rate",
    "years_of_range",
    "frequency",
    "shown_working",
    "truncated",
    "repeated",
    "restated",
    "constant",
    "enumerated",
    "complement",
]
"""The named rule that explained a quantity of the answer (:attr:`QuantityTrace.rule`); each is
described in :data:`TRACE_RULES`."""

TRACE_RULES: dict[TraceRule, str] = {
    "as_written": "the same number, in digits or in words (thirty days for 30 days; a sign, a unit "
    "or a currency of its own aside: 709 for (709), ($709) in an aside or in working for 709, "
    "12.5% for a cell 12.5 of a % column, $60.3 million for 60.3)",
    "rescaled": "the same amount in another scale or unit: $1.2 billion for 1,200 million or a "
    "cell 1,200 under (in millions), 0.5 g for 500 mg, 100.4 °F for 38 °C, $53.33 million for "
    "53,330 thousand at the answer's precision",
    "reworded": "a figure the context states in words or another notation: 100% for doubled, 7 "
    "days for a week, 0 for a nil cell -, 2023 for FY2023, 12 months for a fiscal year",
    "numeral": "the same ambiguous numeral read in the other convention (23.400 or 1,234: "
    "thousands in one, a decimal in the other; 1 283 in a short answer, one figure in a French "
    "context)",
    "decade": "a year of the decade the answer names (1964 for the 1960s)",
    "share_in_words": "a share written in words on one side and as a percentage on the other "
    "(20% for one in five, one in three for 33%)",
    "rounded": "a context figure (with the scale the context states for it) rounded at the "
    "precision the answer writes: 30.8% for 30.79%, $92.19 billion for 92,186 under (in millions)",
    "approximation": "a figure the answer states as approximate (about, approximately, ~) near a "
    "context figure (approximately 700,000 for 699,110)",
    "bound": "a context figure inside the bound or the range the answer states (more than 10,000 "
    "for 10,500; between $22 and $23 million for 22,626 under (in thousands))",
    "sum": "a sum of context figures (a whole table column's too: 379 for its seven cells 48, "
    "76, ..., 15; or of the answer's own), at the answer's precision",
    "difference": "a difference of two figures (or percentage points between two percentages; "
    "a gap the answer states from a figure its sentence states before it, to a context figure "
    "that far, no other pair: 49.3 was 3.2 points above the national average; between two of "
    "its own figures, in either order: 8.1 µg/L below "
    "the 80 µg/L limit for 71.9 µg/L; of two cells whose heading or row label names their "
    "unit: 0.3 days for a row Average stay (days) of 7.1 and 6.8)",
    "product": "a product of two figures the answer itself shows, before the result or after it "
    "in its sentence; or a percentage it states applied to the figure its words name ($7,700 for "
    "2% of the dwelling coverage of $385,000; $5,047 for base rent of $4,900 rising 3%); or a "
    "count the answer states right before it times a context figure (four single trips would "
    "cost $12.80 for $3.20 a trip)",
    "ratio": "a ratio of two figures, or a share of a sum: (a + b) / c; a percentage that "
    "restates a share the answer states before it is that share (48 of 59 free throws, about "
    "81%), no other",
    "percent_change": "a percent change from one figure to another: (a - b) / b",
    "growth_rate": "a compound annual growth rate from one figure to another, asked for by the "
    "question or the answer (CAGR): (new / old)^(1/n) - 1, n the years between their columns or "
    "the period stated (10% for 100 in 2019 and 133.1 in 2022)",
    "mean": "the mean of two or more figures (a whole table column's too; or, for a measure, "
    "of three or more figures without a unit that its sentence states: 26.4 °C for (24.1 + "
    "27.8 + 27.3) / 3 of a column Mean temp (°C))",
    "share": "a part the context states as a share of a whole (300 for 25% of 1,200 employees)",
    "rate": (
        "a rate the context states over another period ($60 a year for $5 per month; 60 visits"
        " a year for 5 visits per month)"
    ),
    "years_of_range": "a number of years the context states as a range (4 years for 2015 to "
    "2019), or that the years the answer names span (the three-year period of 2021, 2022 and "
    "2023), or, where the answer names fewer than two, the years the question names (the "
    'two-year period for "from 2021 to 2023")',
    "frequency": "a frequency the context states as its interval or a code (every 8 hours for "
    "three times daily or TID, once daily for daily)",
    "shown_working": "the result of the arithmetic the answer writes before its =, or in brackets "
    "right after it (155.5% ($7,396 million / $4,756 million); a percentage of a figure, 76 (41% "
    "of 186)), every figure of which was traced, and which decides (a figure it does not give "
    "is a finding, whatever else gives it); "
    "a result with its own scale word may take the working in the scale the context states for "
    "its figures ((4,411 + 4,044) / 2 = $4.23 billion for cells under (in millions)); a scale word "
    "written once after a sum's last figure is the whole sum's (103 million trips (24.6 + 25.1 + "
    "27.3 + 26.0 million))",
    "truncated": "a derivation's value cut at the last digit of a figure stated as approximate "
    "(≈ 0.6638 for 0.66387), not rounded",
    "repeated": "a figure the answer already derived earlier (the same derivation again; also "
    "by its magnitude: a decrease of 186.03 million for -186.03 million derived above)",
    "restated": "the figure the answer states right before it, as a percentage or as a share "
    "(0.01424 or 1.424%, working's = 0.1 = 10%: exactly 100 times it)",
    "constant": "a constant or counting word of the answer's shown working (× 100, / 2, an "
    "exponent ^(1/3), these two figures): no claim about the context",
    "enumerated": "a count of the answer's own items: those it lists right after the count and a "
    "colon (two agreements: and a list of two; 4: A, B, C and D; three days: Tuesday, Thursday "
    "and Saturday) or names before it (these two "
    "customer groups): no claim about the context; a count its list does not bear out stays "
    "untraced",
    "complement": "a percentage the answer states as the rest of a whole (the remaining 60%, "
    "les 60 % restants: a word of the rest beside it): 100% less a share the context states "
    "(40% of revenue), at the answer's precision, or one the answer traced before it",
}
"""What each :data:`TraceRule` means (the docs' rule table and ``hybridjudge check --help``)."""


@dataclass(slots=True)
class Quantity:
    """One quantity found in a text, with its exact value.

    A plain slotted dataclass (not a pydantic model, and not frozen: both make creation several
    times slower, and the checks create one per number of every answer); pydantic still
    validates and serialises it inside a report. Treat it as read-only.
    """

    text: str
    """The quantity as written, e.g. ``"ninety (90) days"``, ``"$499"``, ``"6"`` (the low end of
    ``"6-8 weeks"``)."""
    span: tuple[int, int]
    """``(start, end)`` character offsets in the text it was parsed from."""
    kind: QuantityKind
    """``number``, ``date`` or ``time``."""
    value: Fraction
    """The exact value in the unit as written (``0.50`` -> ``1/2``). Dates: ``yyyymmdd`` (year 0
    when no year was written); times: minutes after midnight."""
    unit: str | None
    """Canonical unit (``"mg"``, ``"%"``, ``"day"``, ``"g/dl"``, ``"usd"``), ``None`` for none."""
    dimension: str | None
    """What the unit measures (``"mass"``, ``"time"``, ``"percent"``, ``"mass/volume"``...)."""
    base_value: Fraction
    """The value converted to the dimension's base unit (grams, litres, metres, seconds...)."""
    range_role: Literal["low", "high"] | None = None
    """``low``/``high`` when this quantity is an end of a range such as ``6-8 weeks``."""

    @property
    def key(self) -> tuple[str | None, Fraction]:
        """``(dimension, base_value)``: equal keys mean the same amount of the same thing."""
        return (self.dimension, self.base_value)

    def describe(self) -> str:
        """A short human rendering: ``"500 mg"``, ``"15%"``, ``"2024-01-05"``."""
        if self.kind == "date":
            v = int(self.value)
            y, m, d = v // 10000, v // 100 % 100, v % 100
            return f"{y:04d}-{m:02d}-{d:02d}" if y else f"--{m:02d}-{d:02d}"
        if self.kind == "time":
            v = int(self.value)
            return f"{v // 60:02d}:{v % 60:02d}"
        num = _fraction_text(self.value)
        if self.unit == "%":
            return f"{num}%"
        return f"{num} {self.unit}" if self.unit else num


def _fraction_text(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    den = value.denominator
    while den % 2 == 0:
        den //= 2
    while den % 5 == 0:
        den //= 5
    if den == 1:  # terminating decimal
        text = f"{value.numerator / value.denominator:.12f}".rstrip("0").rstrip(".")
        if Fraction(text) == value:
            return text
    return f"{value.numerator}/{value.denominator}"


@dataclass(slots=True)
class QuantityTrace:
    """A quantity of the answer and where it was traced (``source`` is ``None`` when nowhere).

    A slotted dataclass like :class:`Quantity`, for the same reason; treat it as read-only."""

    quantity: Quantity
    """The quantity as found in the answer (span in the answer)."""
    source: TraceSource | None
    """``context``, ``question``, ``allowed`` (the allowed-numbers list), ``anchor`` (a gold
    anchor's own wording), ``derived`` (computed from context figures), ``working`` (a constant
    or counting word of shown working), or ``None``: untraceable, reported as
    ``ungrounded_number``."""
    passage: int | None = None
    """Index of the context passage (or of the allowed number / anchor) it was found in."""
    span: tuple[int, int] | None = None
    """``(start, end)`` of the matching quantity inside that passage / question / entry."""
    matched_text: str | None = None
    """How the matching quantity is written there, e.g. ``"0.5 g"`` for an answer's ``"500 mg"``."""
    derivation: str | None = None
    """For ``derived``: how the number follows from context figures, e.g.
    ``"30.8% = (177,866 - 135,987) / 135,987"``."""
    rule: TraceRule | None = None
    """The named rule that explained it (:data:`TRACE_RULES`): ``as_written``, ``rounded``,
    ``percent_change``...; ``None`` only when ``source`` is (or in a version 1 report)."""


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing wrong with an answer (a frozen dataclass: cheap to create, pydantic serialises
    it inside a :class:`GroundingReport`)."""

    kind: FindingKind
    """``missing_anchor``, ``negated_anchor``, ``ungrounded_number``, ``non_abstention``,
    ``over_abstention``, ``no_context`` (an answer that does not abstain, against a context with
    no text) or (only with ``derived="finding"``) ``derived_number``."""
    message: str
    """A sentence naming the fact or the number, e.g. ``missing required fact "30 days"``."""
    subject: str
    """The anchor value, the number as written, or the abstention marker concerned."""
    span: tuple[int, int] | None = None
    """``(start, end)`` in the answer where the problem is, when there is one."""
    evidence: str | None = None
    """Supporting detail, e.g. the nearest quantity the context does contain."""


class GroundingReport(BaseModel):
    """The outcome of :func:`hybridjudge.grounding.check_grounding` for one answer."""

    model_config = ConfigDict(
        frozen=True, extra="forbid", arbitrary_types_allowed=False, defer_build=True
    )

    version: int = GROUNDING_REPORT_VERSION
    """Format version of this report; a version this hybridjudge does not know is refused."""
    grounded: bool
    """``True`` when there is no finding."""
    abstained: bool
    """Whether the answer abstains (says the context cannot answer), whatever ``answerable``."""
    answerable: bool | None
    """The gold label the answer was judged against (``None``: abstention was not judged)."""
    findings: tuple[Finding, ...] = Field(default=())
    """Everything wrong, in answer order: anchors first, then numbers, then abstention."""
    quantities: tuple[QuantityTrace, ...] = Field(default=())
    """Every quantity found in the answer with where it was traced."""

    @field_validator("version", mode="before")
    @classmethod
    def _known_version(cls, value: object) -> object:
        problem = version_problem(value, _READABLE_VERSIONS, "grounding report")
        if problem is not None:
            raise ValueError(problem)
        return value

    @model_validator(mode="after")
    def _grounded_means_no_finding(self) -> GroundingReport:
        if self.grounded == bool(self.findings):
            raise ValueError(
                f"grounded={self.grounded} with {len(self.findings)} finding(s): a report is "
                "grounded exactly when it has no finding"
            )
        return self

    @property
    def derived(self) -> tuple[QuantityTrace, ...]:
        """The answer's numbers traced as derived from context figures, with their derivation."""
        return tuple(t for t in self.quantities if t.source == "derived")

    @property
    def kinds(self) -> frozenset[str]:
        """The set of finding kinds, handy for assertions and gates."""
        return frozenset(f.kind for f in self.findings)
