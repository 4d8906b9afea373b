"""The grounding check: required facts present, every number traceable, abstention as labelled.

Parsing is the expensive part, so everything that does not depend on the answer is parsed once:
:func:`prepare_context` (memoised on the passages) builds a :class:`GroundingContext` with an
index of its quantities; a :class:`GroundingChecker` adds the question, the anchors, the allowed
numbers and the markers, and then checks any number of answers. :func:`check_grounding` is the
one-call form and reuses the same memoised pieces, so scoring many answers of one case never
re-parses the case.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache

from hybridjudge.corpus import Anchor
from hybridjudge.grounding._abstention import compile_markers
from hybridjudge.grounding._anchors import (
    AnchorLike,
    Canonical,
    CompiledAnchor,
    canonicalize,
    compile_anchors,
    nearest,
    negation_cue,
    negation_cues,
    to_anchor,
)
from hybridjudge.grounding._errors import GroundingInputError, GroundingTypeError
from hybridjudge.grounding._models import (
    GROUNDING_REPORT_VERSION,
    Finding,
    GroundingReport,
    Quantity,
    QuantityTrace,
    TraceSource,
)
from hybridjudge.grounding._quantities import _UNITS, Scan, scan

__all__ = ["GroundingChecker", "GroundingContext", "check_grounding", "prepare_context"]

# (source, passage/entry index, span in that text, text as written)
_Occ = tuple[TraceSource, int | None, tuple[int, int], str]

_MEMO_MAX = 4096
_CASE_MEMO = 64
"""How many prepared contexts / checkers :func:`check_grounding` keeps (each pins its context
in memory, which matters for very large contexts)."""

_CANON_FACTORS: dict[str, Fraction] = {
    canon: factor for canon, dim, factor in _UNITS.values() if canon is not None
}


_Key = tuple[str | None, int, int]


def _k(dim: str | None, v: Fraction) -> _Key:
    """A cheap dictionary key for a value (hashing a Fraction is comparatively slow)."""
    return (dim, v.numerator, v.denominator)


def _numerator_key(q: Quantity) -> _Key:
    """For ``mg/day`` the key of its numerator (``mass``, grams); for simple units the key."""
    if q.dimension is None or "/" not in q.dimension or q.unit is None:
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
    any_raw: dict[_Key, _Occ] = field(default_factory=dict)
    dates_md: dict[int, _Occ] = field(default_factory=dict)
    dates_md_yearless: dict[int, _Occ] = field(default_factory=dict)
    items: list[tuple[Quantity, _Occ]] = field(default_factory=list)

    def add(self, q: Quantity, occ: _Occ) -> None:
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
        self.any_raw.setdefault(_k(None, q.value), occ)
        if q.kind == "time":
            self.exact.setdefault(_k("time", q.value), occ)
            return
        if q.dimension is None:
            self.unitless.setdefault(_k(None, q.value), occ)
            return
        self.exact.setdefault(_k(q.dimension, q.base_value), occ)
        self.numer.setdefault(_numerator_key(q), occ)

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
        return (
            self.exact.get(_k(q.dimension, q.base_value))
            or self.numer.get(_numerator_key(q))
            or self.unitless.get(_k(None, q.value))
        )


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


class GroundingContext:
    """A context (one or more passages) parsed once, ready to check any number of answers.

    Build it with :func:`prepare_context` (memoised) or directly; pass it wherever a context is
    accepted.

    Attributes:
        passages: the passages as given.
    """

    __slots__ = ("_identifiers", "_index", "passages")

    def __init__(self, context: str | Sequence[str]) -> None:
        self.passages: tuple[str, ...] = _passages(context)
        index = _Index()
        idents: set[str] = set()
        for i, passage in enumerate(self.passages):
            sc = scan(passage)
            for q in sc.quantities:
                index.add(q, ("context", i, q.span, q.text))
            idents.update(ident.text for ident in sc.idents)
        self._index = index
        self._identifiers = frozenset(idents)

    @property
    def quantities(self) -> tuple[tuple[int, Quantity], ...]:
        """Every quantity of the context as ``(passage index, quantity)``."""
        return tuple((occ[1] or 0, q) for q, occ in self._index.items)

    def nearest_evidence(self, q: Quantity) -> str:
        """Describe the context quantity nearest to ``q`` (same dimension first, else same
        kind), for the evidence of an ``ungrounded_number`` finding."""
        items = self._index.items
        same = [(c, o) for c, o in items if c.dimension == q.dimension and c.kind == q.kind]
        pool = same or [(c, o) for c, o in items if c.kind == q.kind]
        if not pool:
            return "the context contains no quantity of this kind"
        key = [float(c.base_value if same else c.value) for c, _ in pool]
        best = nearest(float(q.base_value if same else q.value), key)
        if best is None:  # pragma: no cover - pool is not empty
            return "the context contains no quantity of this kind"
        c, occ = pool[best]
        return (
            f'nearest in the context: "{c.text}" = {c.describe()} '
            f"(passage {occ[1]}, characters {occ[2][0]}-{occ[2][1]})"
        )

    @property
    def identifiers(self) -> frozenset[str]:
        """Normalised identifiers with digits found in the context (``covid-19``, ``iso 9001``)."""
        return self._identifiers

    def __repr__(self) -> str:
        return (
            f"GroundingContext({len(self.passages)} passages, {len(self._index.items)} quantities)"
        )


@lru_cache(maxsize=_CASE_MEMO)
def _cached_context(passages: tuple[str, ...]) -> GroundingContext:
    return GroundingContext(passages)


def prepare_context(context: str | Sequence[str] | GroundingContext) -> GroundingContext:
    """Parse a context once (memoised on its passages) for reuse across many answers."""
    if isinstance(context, GroundingContext):
        return context
    return _cached_context(_passages(context))


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


@lru_cache(maxsize=256)
def _allowed_index(values: tuple[str, ...]) -> _Index:
    index = _Index()
    for i, text in enumerate(values):
        qs = scan(text).quantities
        if not qs:
            raise GroundingInputError(
                f"allowed_numbers[{i}] = {text!r} contains no number; give a number such as "
                "'3' or a quantity such as '500 mg'",
                argument=f"allowed_numbers[{i}]",
            )
        for q in qs:
            index.add(q, ("allowed", i, q.span, q.text))
    return index


@lru_cache(maxsize=256)
def _question_index(question: str) -> _Index:
    index = _Index()
    for q in scan(question).quantities:
        index.add(q, ("question", None, q.span, q.text))
    return index


@lru_cache(maxsize=256)
def _anchor_index(compiled: tuple[CompiledAnchor, ...]) -> _Index:
    index = _Index()
    for i, ca in enumerate(compiled):
        for q, src in zip(ca.quantities, ca.sources, strict=True):
            index.add(q, ("anchor", i, q.span, src))
    return index


class GroundingChecker:
    """Everything about one case parsed once: call :meth:`check` for each answer.

    Args mirror :func:`check_grounding`.
    """

    __slots__ = ("_anchors", "_evidence", "_indexes", "_markers", "_memo", "answerable", "context")

    def __init__(
        self,
        context: str | Sequence[str] | GroundingContext,
        *,
        question: str | None = None,
        anchors: Sequence[AnchorLike] = (),
        answerable: bool | None = True,
        allowed_numbers: Sequence[str | int | float | Decimal | Fraction] = (),
        abstain_markers: Sequence[str] | None = None,
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
        self.answerable = answerable
        if isinstance(anchors, str | bytes) or not isinstance(anchors, Iterable):
            raise GroundingTypeError(
                "anchors must be a list (of strings, {value, aliases} mappings or Anchors); "
                "wrap a single anchor in a list",
                argument="anchors",
            )
        anchor_objs: tuple[Anchor, ...] = tuple(to_anchor(a, i) for i, a in enumerate(anchors))
        self._anchors = compile_anchors(anchor_objs)
        if isinstance(allowed_numbers, str | bytes) or not isinstance(allowed_numbers, Iterable):
            raise GroundingTypeError(
                "allowed_numbers must be a list of numbers or strings; wrap a single one in a list",
                argument="allowed_numbers",
            )
        allowed = tuple(_allowed_text(v, i) for i, v in enumerate(allowed_numbers))
        indexes: list[_Index] = [self.context._index]
        if question:
            indexes.append(_question_index(question))
        if allowed:
            indexes.append(_allowed_index(allowed))
        if self._anchors:
            indexes.append(_anchor_index(self._anchors))
        self._indexes = tuple(indexes)
        self._markers = compile_markers(abstain_markers)
        # Where each distinct quantity traces to: answers of one case repeat most quantities.
        self._memo: dict[tuple[str, str | None], _Occ | None] = {}
        self._evidence: dict[tuple[str, str | None, Fraction, Fraction], str] = {}

    def check(self, answer: str) -> GroundingReport:
        """Check one answer against the prepared case."""
        if not isinstance(answer, str):
            raise GroundingTypeError(
                f"answer must be a str, not {type(answer).__name__}", argument="answer"
            )
        sc = scan(answer)
        canon = canonicalize(sc)
        findings: list[Finding] = []
        cues = negation_cues(canon.text, sc.words) if self._anchors else []
        for ca in self._anchors:
            finding = _check_anchor(ca, canon, sc.words, cues)
            if finding is not None:
                findings.append(finding)
        traces = self._trace(sc)
        for tr in traces:
            if tr.source is None:
                findings.append(self._ungrounded(tr.quantity))
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
        elif self.answerable is True and marker is not None:
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
        return GroundingReport.model_construct(
            version=GROUNDING_REPORT_VERSION,
            grounded=not findings,
            abstained=abstained,
            answerable=self.answerable,
            findings=tuple(findings),
            quantities=traces,
        )

    def _trace(self, sc: Scan) -> tuple[QuantityTrace, ...]:
        out: list[QuantityTrace] = []
        memo = self._memo
        for q, ph in zip(sc.quantities, sc.placeholders, strict=True):
            key = (ph, q.unit)
            try:
                occ = memo[key]
            except KeyError:
                occ = self._find(q)
                if len(memo) >= _MEMO_MAX:
                    memo.clear()
                memo[key] = occ
            out.append(
                QuantityTrace(q, None)
                if occ is None
                else QuantityTrace(q, occ[0], occ[1], occ[2], occ[3])
            )
        if sc.idents:
            known = self.context.identifiers
            norm = sc.norm
            for ident in sc.idents:
                if ident.number is None or ident.text in known:
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
                occ = self._find(q)
                out.append(
                    QuantityTrace(q, None)
                    if occ is None
                    else QuantityTrace(q, occ[0], occ[1], occ[2], occ[3])
                )
            out.sort(key=lambda t: t.quantity.span)
        return tuple(out)

    def _find(self, q: Quantity) -> _Occ | None:
        for index in self._indexes:
            occ = index.find(q)
            if occ is not None:
                return occ
        return None

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


def _check_anchor(
    ca: CompiledAnchor, canon: Canonical, words: frozenset[bytes], cues: list[re.Match[str]]
) -> Finding | None:
    value = ca.anchor.value
    negated_at: tuple[int, int] | None = None
    cue_text = ""
    for m in ca.occurrences(canon.text, words):
        cue = negation_cue(canon.text, m.start(), cues) if cues else None
        if cue is None:
            return None
        if negated_at is None:
            negated_at = canon.to_original(m.start(), m.end())
            cue_text = cue.group()
    if negated_at is not None:
        written = canon.scan.norm.original[negated_at[0] : negated_at[1]]
        return Finding(
            kind="negated_anchor",
            message=f'required fact "{value}" appears only under a negation ("{cue_text}")',
            subject=value,
            span=negated_at,
            evidence=f'written as "{written}" after "{cue_text}" in the same clause',
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


@lru_cache(maxsize=_CASE_MEMO)
def _cached_checker(
    passages: tuple[str, ...],
    question: str | None,
    anchors: tuple[tuple[str, tuple[str, ...]], ...],
    answerable: bool | None,
    allowed: tuple[str, ...],
    markers: tuple[str, ...] | None,
) -> GroundingChecker:
    return GroundingChecker(
        _cached_context(passages),
        question=question,
        anchors=[Anchor(value=v, aliases=a) for v, a in anchors],
        answerable=answerable,
        allowed_numbers=allowed,
        abstain_markers=markers,
    )


def check_grounding(
    answer: str,
    context: str | Sequence[str] | GroundingContext,
    *,
    question: str | None = None,
    anchors: Sequence[AnchorLike] = (),
    answerable: bool | None = True,
    allowed_numbers: Sequence[str | int | float | Decimal | Fraction] = (),
    abstain_markers: Sequence[str] | None = None,
) -> GroundingReport:
    """Check whether ``answer`` is grounded in ``context``.

    Args:
        answer: the system's answer.
        context: the retrieved context: a string, a list of passages, or a
            :class:`GroundingContext` from :func:`prepare_context`.
        question: the question; numbers it contains are traceable.
        anchors: facts a correct answer must contain: strings, ``{"value", "aliases"}`` mappings
            or :class:`hybridjudge.corpus.Anchor`. Matched on token boundaries after Unicode
            normalisation, quantities by value and unit (``"30 days"`` is in ``"thirty days"``).
        answerable: ``False``: the answer must abstain (else ``non_abstention``); ``True``: it
            must not (else ``over_abstention``); ``None``: abstention is reported, not judged.
        allowed_numbers: numbers (or quantities) the answer may introduce.
        abstain_markers: phrases that count as abstaining; ``None`` uses
            :data:`DEFAULT_ABSTAIN_MARKERS` (English, Chinese, Japanese, Korean, Thai, Spanish,
            French, German). To add rather than replace, pass
            ``(*DEFAULT_ABSTAIN_MARKERS, "my phrase")``.

    Returns:
        A :class:`GroundingReport`. Anchor and number checks run whatever the abstention, so
        ``"I don't know, but probably $499"`` still reports the untraceable ``$499``.

    Raises:
        GroundingTypeError: an argument has the wrong type (names the argument).
        GroundingInputError: an argument is unusable, e.g. a blank anchor.

    Examples:
        >>> r = check_grounding(
        ...     "You have 30 days; there is no restocking fee.",
        ...     "Refunds within thirty days. There is no restocking fee.",
        ...     anchors=["30 days", "restocking fee"],
        ... )
        >>> [(f.kind, f.subject) for f in r.findings]
        [('negated_anchor', 'restocking fee')]
    """
    if isinstance(context, GroundingContext):
        checker = GroundingChecker(
            context,
            question=question,
            anchors=anchors,
            answerable=answerable,
            allowed_numbers=allowed_numbers,
            abstain_markers=abstain_markers,
        )
        return checker.check(answer)
    key = _checker_key(context, question, anchors, answerable, allowed_numbers, abstain_markers)
    return _cached_checker(*key).check(answer)


_ALLOWED_TYPES = (str, int, float, Decimal, Fraction)


def _anchor_key(item: object, index: int) -> tuple[str, tuple[str, ...]]:
    """A cheap hashable key for an anchor; anything unusual is validated by :func:`to_anchor`."""
    if type(item) is str and item.strip():
        return (item, ())
    if isinstance(item, Anchor):
        return (item.value, item.aliases)
    a = to_anchor(item, index)
    return (a.value, a.aliases)


def _checker_key(
    context: object,
    question: object,
    anchors: object,
    answerable: object,
    allowed_numbers: object,
    abstain_markers: object,
) -> tuple[
    tuple[str, ...],
    str | None,
    tuple[tuple[str, tuple[str, ...]], ...],
    bool | None,
    tuple[str, ...],
    tuple[str, ...] | None,
]:
    """Validate the per-case arguments cheaply and build the memo key of their checker."""
    passages = _passages(context)
    if question is not None and not isinstance(question, str):
        raise GroundingTypeError(
            f"question must be a str or None, not {type(question).__name__}", argument="question"
        )
    if answerable is not None and not isinstance(answerable, bool):
        raise GroundingTypeError(
            f"answerable must be True, False or None, not {answerable!r}", argument="answerable"
        )
    if isinstance(anchors, str | bytes) or not isinstance(anchors, Iterable):
        raise GroundingTypeError(
            "anchors must be a list; wrap a single anchor in a list", argument="anchors"
        )
    anchor_key = tuple(_anchor_key(a, i) for i, a in enumerate(anchors))
    if isinstance(allowed_numbers, str | bytes) or not isinstance(allowed_numbers, Iterable):
        raise GroundingTypeError(
            "allowed_numbers must be a list of numbers or strings; wrap a single one in a list",
            argument="allowed_numbers",
        )
    allowed = tuple(
        v if type(v) is str else _allowed_text(v, i) for i, v in enumerate(allowed_numbers)
    )
    markers: tuple[str, ...] | None = None
    if abstain_markers is not None:
        if isinstance(abstain_markers, str | bytes) or not isinstance(abstain_markers, Iterable):
            raise GroundingTypeError(
                "abstain_markers must be a list of phrases or None; wrap a single one in a list",
                argument="abstain_markers",
            )
        markers = tuple(abstain_markers)
        compile_markers(markers)  # validates, memoised
    return passages, question, anchor_key, answerable, allowed, markers
