"""Anchors: required facts matched on token boundaries, quantities by value and unit.

A text is turned into a *canonical* string: its normalised form with every quantity replaced by a
placeholder that spells out the exact value and dimension (private-use characters delimit it),
and the text between the two ends of a range replaced by ``~``. Each wording of an anchor (value
and aliases) is compiled once into a regular expression over canonical strings, so ``"30 days"``
finds ``"thirty days"`` and ``"a 30-day window"`` but not ``"15 days"``, and ``"500 mg"`` finds
``"0.5 g"``.

An occurrence is *negated* when a negation cue (``no``, ``not``, ``never``, ``without``, ...)
stands in the same clause before it with at most :data:`NEGATION_WINDOW` words in between
(``"no restocking fee"``, ``"without any written notice"``). Quantifier limits such as ``"no more
than"`` or ``"not later than"`` are not negations. An anchor that itself starts with a cue
(``"no restocking fee"``) is matched as written; only cues *before* the match count, but in
the languages that put a negation after its verb (``negation_after``: Japanese ``ません``,
Korean ``않``), where a cue after the match in its clause, :data:`NEGATION_AFTER_CHARS`
characters on at most, negates it. Chinese cues (``不``, ``没有``) are glued to what they negate:
:data:`NEGATION_GLUED_CHARS` characters at most.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import Any

from hybridjudge._anchor import Anchor
from hybridjudge.grounding._derive import gives, whole_digits
from hybridjudge.grounding._errors import GroundingInputError, GroundingTypeError
from hybridjudge.grounding._languages import no_space
from hybridjudge.grounding._lexicon import alternation, merged
from hybridjudge.grounding._models import Quantity
from hybridjudge.grounding._normalize import continental_reading, letter_runs, normalize_plain
from hybridjudge.grounding._patterns import lazy
from hybridjudge.grounding._quantities import (
    F_CONSTANT,
    F_COUNT,
    F_OPERAND,
    F_OWN_SCALE,
    F_RESULT,
    Q_BASE,
    Q_CLOSE,
    Q_DIM,
    Q_OPEN,
    Meta,
    Scan,
    placeholder_of,
    scan,
)

__all__ = [
    "NEGATION_WINDOW",
    "AnchorLike",
    "Canonical",
    "CompiledAnchor",
    "CompiledAnchors",
    "canonicalize",
    "compile_anchors",
    "negation_cue",
    "negation_cues",
    "to_anchor",
]

AnchorLike = str | Mapping[str, Any] | Anchor
"""An anchor as callers may give it: a string, ``{"value": ..., "aliases": [...]}``, or an
:class:`hybridjudge.corpus.Anchor`."""

NEGATION_WINDOW = 2
"""Most words allowed between a negation cue and the anchor it negates."""

_RANGE_MARK = "~"


_NEG_WORDS = merged("negations")
"""Negation cues of every lexicon (``no``, ``not``, ``sans``, ``keine``, ``sin``, ``不``)."""
_NEG_SPACED = tuple(w for w in _NEG_WORDS if not no_space(w[0]))
"""The cues matched as whole words."""
_NEG_GLUED = tuple(w for w in _NEG_WORDS if no_space(w[0]))
"""The cues of scripts written without spaces (``不``, ``没有``): matched as substrings."""
_NEG_AFTER = merged("negation_after")
"""The cues that follow what they negate (``ません``, ``않``): matched as substrings."""
_LIMITS = merged("negation_limits")
_NEG_WORDS_B = frozenset(w.encode() for w in _NEG_SPACED if w.isascii())
_NEG_WORDS_OTHER = tuple(
    dict.fromkeys(
        [w for w in _NEG_SPACED if not w.isascii()]
        + [w.split(" ")[0] for w in (*_NEG_GLUED, *_NEG_AFTER)]
    )
)
"""Cues with a letter outside ASCII (``não``, ``né``, ``不``, ``않``; of a cue with a space, its
first word): not among a text's ASCII letter runs, so looked for as substrings."""
_GLUED_LIMIT = r"(?!\s*(?:" + alternation(w for w in _LIMITS if no_space(w[0])) + "))"
_NEG = lazy(
    r"(?<![\w'])(?:" + alternation(_NEG_SPACED) + r")(?![\w'])"
    r"(?!\s+(?:" + alternation((w for w in _LIMITS if not no_space(w[0])), space=r"\s+") + r")\b)"
    r"|n't(?!\w)"
    r"|(?P<glued>"
    + alternation(_NEG_GLUED)
    + ")"
    + _GLUED_LIMIT
    + r"|(?P<after>"
    + alternation(_NEG_AFTER, space=r"\s*")
    + ")"
    + _GLUED_LIMIT
)
"""A negation cue, not one that states a limit (``no more than``, ``not later than``, ``不超过``:
the ``negation_limits`` of the lexicons); group ``glued`` a cue of a script written without
spaces, ``after`` one that follows what it negates (``negation_after``)."""
_ASSERTING = lazy(alternation(merged("asserting_negations"), space=r"\s*"))
"""Phrases whose negation cue negates nothing (``なければならない``, "must":
``asserting_negations``)."""
_SUBJECT_PARTICLES = merged("subject_particles")
"""Particles of a subject or a topic (``は``, ``는 ``): one between an anchor and a cue after it
gives the cue another subject."""
NEGATION_GLUED_CHARS = 3
"""Most characters (not blanks; a quantity counts one) between a cue of a script written
without spaces and the anchor it negates (``不含乳糖``, ``没有提供退款``)."""
NEGATION_AFTER_CHARS = 8
"""Most characters (not blanks; a quantity counts one) between an anchor and a cue after it
(``乳糖は含まれていません``, ``유당을 포함하지 않습니다``)."""
_CLAUSE_BREAK = lazy(
    r"[.;:!?\n,。；！？，、]|(?<!\w)(?:" + alternation(merged("clause_breaks")) + r")(?!\w)"
)
"""What ends a negation's clause: punctuation, or a conjunction (``clause_breaks``)."""
_WORDISH = re.compile(r"[^\W_]+|" + Q_OPEN + "[^" + Q_CLOSE + "]*" + Q_CLOSE)
_PLACEHOLDER = re.compile(Q_OPEN + "[^" + Q_CLOSE + "]*" + Q_CLOSE)
_CLAUSE_LOOKBACK = 240


def placeholder(q: Quantity) -> str:
    """The canonical spelling of a quantity (see :func:`placeholder_of`)."""
    return placeholder_of(q.kind, q.value, q.dimension, q.base_value)


@dataclass(slots=True)
class Canonical:
    """A canonical string and the breakpoints mapping it back to the normalised text.

    Not frozen (creation is several times faster); treat it as read-only.
    """

    text: str
    """Normalised text with quantities replaced by placeholders and range separators by ``~``."""
    scan: Scan
    """The scan it was built from."""
    canon_starts: tuple[int, ...]
    """Canonical start of each replaced piece (sorted)."""
    pieces: tuple[tuple[int, int, int], ...]
    """``(canon_end, norm_start, norm_end)`` of each replaced piece; text between pieces is
    copied verbatim, so offsets there advance one to one."""

    def to_norm(self, start: int, end: int) -> tuple[int, int]:
        """Map a canonical ``[start, end)`` span to the normalised text."""
        return self._point(start, False), self._point(end, True)

    def to_original(self, start: int, end: int) -> tuple[int, int]:
        """Map a canonical ``[start, end)`` span to the original text."""
        a, b = self.to_norm(start, end)
        return self.scan.norm.to_original(a, b)

    def _point(self, pos: int, is_end: bool) -> int:
        k = bisect_right(self.canon_starts, pos - 1 if is_end else pos) - 1
        if k < 0:
            return pos
        canon_end, norm_start, norm_end = self.pieces[k]
        if pos < canon_end or (is_end and pos == canon_end):
            return norm_end if is_end else norm_start
        return norm_end + (pos - canon_end)


def canonicalize(sc: Scan) -> Canonical:
    """Build the canonical string of a scanned text."""
    s = sc.norm.text
    if not sc.placeholders:
        return Canonical(s, sc, (), ())
    cuts = list(zip(sc.norm_spans, sc.placeholders, strict=True))
    if sc.separators:
        cuts.extend((span, _RANGE_MARK) for span in sc.separators)
        cuts.sort()
    parts: list[str] = []
    starts: list[int] = []
    pieces: list[tuple[int, int, int]] = []
    pos = 0
    cpos = 0
    for (a, b), rep in cuts:
        parts.append(s[pos:a])
        cpos += a - pos
        parts.append(rep)
        starts.append(cpos)
        cpos += len(rep)
        pieces.append((cpos, a, b))
        pos = b
    parts.append(s[pos:])
    return Canonical("".join(parts), sc, tuple(starts), tuple(pieces))


def _quantity_pattern(q: Quantity) -> str:
    any_raw = f"{Q_OPEN}[^{Q_DIM}]*{Q_DIM}"
    if q.kind == "date":
        v = int(q.value)
        if v // 10000 == 0:
            return f"{Q_OPEN}\\d{{4}}{v % 10000:04d}{Q_DIM}[^{Q_CLOSE}]*{Q_CLOSE}"
        return re.escape(placeholder(q))
    if q.dimension is None:
        return f"{Q_OPEN}{re.escape(str(q.value))}{Q_DIM}[^{Q_CLOSE}]*{Q_CLOSE}"
    return f"{any_raw}{re.escape(q.dimension)}{Q_BASE}{re.escape(str(q.base_value))}{Q_CLOSE}"


def _quantity_literal(q: Quantity) -> str:
    """A substring every canonical text matching the quantity's pattern contains."""
    if q.kind == "date":
        v = int(q.value)
        if v // 10000 == 0:
            return f"{v % 10000:04d}{Q_DIM}date{Q_BASE}"
        return placeholder(q)
    if q.dimension is None:
        return f"{Q_OPEN}{q.value}{Q_DIM}"
    return f"{Q_DIM}{q.dimension}{Q_BASE}{q.base_value}{Q_CLOSE}"


def _loose_pattern(q: Quantity) -> str | None:
    """A pattern of every figure in the dimension of ``q`` (its base value captured), for a
    rounding (:meth:`CompiledAnchor.roundings`); ``None`` for a date, a time or a range's end,
    which match as written only."""
    if q.kind != "number" or q.range_role is not None:
        return None
    dim = re.escape(q.dimension or "")
    return f"{Q_OPEN}[^{Q_DIM}]*{Q_DIM}{dim}{Q_BASE}([^{Q_CLOSE}]*){Q_CLOSE}"


@dataclass(frozen=True, slots=True)
class _Figure:
    """A figure as a rounding compares it: its value and one unit of its last digit, both in
    its dimension's base unit, its significant digits (not the zeros that end a whole figure:
    ``$10 million`` has one), and whether it reads as rounded (a
    scale word of its own or a percentage: ``$22.6 million``, ``30.8%``)."""

    base: float
    precision: float
    sig: int
    rounded: bool


def _figure(q: Quantity, meta: Meta) -> _Figure:
    mult, decimals, sig, flags = meta
    if decimals <= 0 and q.value.denominator == 1:  # the zeros ending "$10 million" are none
        sig = whole_digits(q.value, mult)[0]
    per_unit = float(q.base_value / q.value) if q.value else 1.0
    rounded = bool(flags & F_OWN_SCALE) or q.unit == "%"
    return _Figure(float(q.base_value), mult * 10.0**-decimals * per_unit, sig, rounded)


ROUNDING_DIGITS = 2
"""Fewest significant digits of the coarser of two figures that one is a rounding of the other
(``$23 million`` for ``$22,626 thousand``, not ``$20 million``), as the rule ``rounded`` of
traceable numbers asks of an answer's figure."""


def _rounds(anchor: _Figure, written: _Figure) -> bool:
    """Whether a text's figure ``written`` is the anchor's figure at the precision of the coarser
    of the two, written with :data:`ROUNDING_DIGITS` significant digits at least: the text's
    rounding of it (``$22.6 million`` or ``$23 million`` for ``$22,626 thousand``, ``30.8%`` for
    ``30.79%``), or, where the anchor reads as rounded, the figure it rounds (``$22,626
    thousand`` for ``$22.6 million``; not ``15.4 mg`` for ``15 mg``)."""
    if written.precision >= anchor.precision:
        coarse, fine = written, anchor
    elif anchor.rounded:
        coarse, fine = anchor, written
    else:
        return False
    return coarse.sig >= ROUNDING_DIGITS and gives(fine.base, coarse.base, coarse.precision / 2)


@dataclass(frozen=True, slots=True)
class _Loose:
    """A wording's pattern with every figure free in value (within its dimension), and the
    wording's figures in the order of its groups."""

    pattern: re.Pattern[str]
    figures: tuple[_Figure, ...]
    literals: tuple[str, ...]
    """Substrings a canonical text holding a match contains (one per free figure)."""


@dataclass(frozen=True, slots=True)
class _Variant:
    """One wording of an anchor, compiled, with cheap pre-conditions for a match."""

    pattern: re.Pattern[str]
    """Matches the wording inside canonical strings."""
    needs: frozenset[bytes]
    """Letter runs of its literal words: all must be among the answer's letter runs."""
    literals: tuple[str, ...]
    """Substrings the canonical answer must contain (one per quantity)."""
    scan: Scan
    """The wording's scan (its figures' precision, for a rounding)."""
    _loose: list[_Loose | None] = field(default_factory=list, compare=False)

    def loose(self) -> _Loose | None:
        """The wording with its figures free (built on first need: only an anchor missing as
        written needs it); ``None`` when no figure of it may be rounded."""
        if not self._loose:
            self._loose.append(_loose(self.scan))
        return self._loose[0]


def _loose(sc: Scan) -> _Loose | None:
    free = [
        (q, meta)
        for q, meta in zip(sc.quantities, sc.meta, strict=True)
        if _loose_pattern(q) is not None
    ]
    if not free:
        return None
    source = _variant_pattern(sc, lambda q: _loose_pattern(q) or _quantity_pattern(q))
    if source is None:
        return None
    return _Loose(
        re.compile(source),
        tuple(_figure(q, meta) for q, meta in free),
        tuple(f"{Q_DIM}{q.dimension or ''}{Q_BASE}" for q, _meta in free),
    )


def _variant(text: str, sc: Scan) -> _Variant | None:
    """Compile one anchor wording (``None`` when nothing survives normalisation)."""
    source = _variant_pattern(sc)
    if source is None:
        return None
    s = sc.norm.text
    literal_text = list(s)
    for a, b in (*sc.norm_spans, *sc.separators):
        literal_text[a:b] = " " * (b - a)
    return _Variant(
        re.compile(source),
        letter_runs("".join(literal_text)),
        tuple(_quantity_literal(q) for q in sc.quantities),
        sc,
    )


def _variant_pattern(
    sc: Scan, pattern: Callable[[Quantity], str] = _quantity_pattern
) -> str | None:
    """Regex source matching one anchor wording inside canonical strings (``None``: empty),
    each quantity by ``pattern``."""
    s = sc.norm.text
    cuts: list[tuple[int, int, str]] = [
        (a, b, pattern(q)) for q, (a, b) in zip(sc.quantities, sc.norm_spans, strict=True)
    ]
    cuts.extend((a, b, re.escape(_RANGE_MARK)) for a, b in sc.separators)
    cuts.sort()
    out: list[str] = []
    pos = 0

    def literal(chunk: str) -> None:
        for i, piece in enumerate(re.split(r"\s+", chunk)):
            if i:
                out.append(r"\s+")
            if piece:
                out.append(re.escape(piece))

    for a, b, pat in cuts:
        literal(s[pos:a])
        out.append(pat)
        pos = b
    literal(s[pos:])
    stripped = s.strip()
    body = "".join(out).strip()
    while body.startswith(r"\s+"):
        body = body[3:]
    while body.endswith(r"\s+"):
        body = body[:-3]
    if not body or not stripped:
        return None
    first, last = stripped[0], stripped[-1]
    starts_q = bool(cuts) and cuts[0][0] == len(s) - len(s.lstrip())
    ends_q = bool(cuts) and cuts[-1][1] == len(s.rstrip())
    tail = "" if ends_q or not (last.isalnum() and not no_space(last)) else r"(?!\w)"
    if not starts_q and first.isalnum() and not no_space(first):
        # The word boundary before the first word is written *after* that word, as a
        # fixed-width look-behind: the pattern then starts with a literal string, which the
        # regex engine finds with a fast substring search instead of trying every position.
        head = stripped.split(None, 1)[0]
        escaped = re.escape(head)
        if body.startswith(escaped):
            return f"{escaped}(?<!\\w.{{{len(head)}}}){body[len(escaped) :]}{tail}"
    return f"{body}{tail}"


@dataclass(frozen=True, slots=True, eq=False)
class CompiledAnchor:
    """An anchor compiled into regular expressions over canonical strings, one per wording.

    Compared and hashed by identity."""

    anchor: Anchor
    """The anchor as given (value and aliases)."""
    variants: tuple[_Variant, ...]
    """The value and each alias, compiled (empty when no wording survives normalisation)."""
    quantities: tuple[Quantity, ...]
    """Quantities written in the value and the aliases (numbers an answer may repeat)."""
    sources: tuple[str, ...]
    """The wording (value or alias) each quantity of :attr:`quantities` came from."""

    def occurrences(self, canon: str, words: frozenset[bytes]) -> Iterator[re.Match[str]]:
        """Every match of any wording in a canonical text, wording by wording.

        Wordings whose letter runs or quantities the text lacks are skipped without a search.
        """
        for v in self.variants:
            if not v.needs <= words:
                continue
            if any(lit not in canon for lit in v.literals):
                continue
            yield from v.pattern.finditer(canon)

    def roundings(self, canon: Canonical, words: frozenset[bytes]) -> Iterator[re.Match[str]]:
        """Every match of a wording whose figures the text writes rounded, or more precisely
        (``$22.6 million`` for ``$22,626 thousand`` and the other way round, ``30.8%`` for
        ``30.79%``: one figure at the precision of the coarser, :func:`_rounds`), in the same
        dimension and with the wording's words; an anchor found as written never needs it."""
        text = canon.text
        for v in self.variants:
            if not v.needs <= words:
                continue
            loose = v.loose()
            if loose is None or any(lit not in text for lit in loose.literals):
                continue
            for m in loose.pattern.finditer(text):
                written = (_figure_at(canon, m.start(g)) for g in range(1, len(loose.figures) + 1))
                if all(
                    w is not None and _rounds(f, w)
                    for f, w in zip(loose.figures, written, strict=True)
                ):
                    yield m

    def found(self, canon: Canonical, words: frozenset[bytes]) -> Iterator[re.Match[str]]:
        """:meth:`occurrences`, then :meth:`roundings` (searched only when every occurrence as
        written has been read)."""
        return chain(self.occurrences(canon.text, words), self.roundings(canon, words))


def _figure_at(canon: Canonical, pos: int) -> _Figure | None:
    """The figure of the text whose placeholder holds the canonical position ``pos``; ``None``
    for a figure that states nothing by itself: an operand or a constant of working the text
    shows (the ``39`` of ``(27 + 52 + 39) / 3`` is no rounding of a fact ``39.33``)."""
    k = bisect_right(canon.canon_starts, pos) - 1
    if k < 0:
        return None
    sc = canon.scan
    _end, a, b = canon.pieces[k]
    try:
        n = sc.norm_spans.index((a, b))
    except ValueError:  # a range's separator
        return None
    meta = sc.meta[n] if sc.meta else (1, 0, 1, 0)
    flags = meta[3]
    if flags & (F_CONSTANT | F_COUNT) or (flags & F_OPERAND and not flags & F_RESULT):
        return None
    return _figure(sc.quantities[n], meta)


def to_anchor(item: object, index: int) -> Anchor:
    """Coerce one caller-given anchor, naming ``anchors[index]`` in any error."""
    if isinstance(item, Anchor):
        return item
    if isinstance(item, str):
        if not normalize_plain(item).strip():  # spaces, or invisible characters only
            raise GroundingInputError(
                f"anchors[{index}] is blank (nothing but spaces or invisible characters); give "
                "the fact's wording or drop it",
                argument=f"anchors[{index}]",
            )
        return _validated({"value": item}, index, "fix the text")
    if isinstance(item, Mapping):
        return _validated(dict(item), index, "use {'value': str, 'aliases': [str, ...]}")
    raise GroundingTypeError(
        f"anchors[{index}] must be a str, a {{'value', 'aliases'}} mapping or an Anchor, "
        f"not {type(item).__name__}",
        argument=f"anchors[{index}]",
    )


def _validated(fields: dict[Any, Any], index: int, fix: str) -> Anchor:
    """An :class:`Anchor` of ``fields``, or the first reason it is invalid as a typed error
    naming ``anchors[index]`` and ``fix`` (a lone UTF-16 surrogate, from a broken escape,
    is no text)."""
    from pydantic import ValidationError

    try:
        return Anchor.model_validate(fields)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        raise GroundingInputError(
            f"anchors[{index}] is invalid at {where or 'the top level'!r}: "
            f"{first.get('msg', 'invalid')}; {fix}",
            argument=f"anchors[{index}]",
        ) from None


def _compile_one(anchor: Anchor) -> CompiledAnchor:
    sources: list[str] = []
    quantities: list[Quantity] = []
    variants: list[_Variant] = []
    written = (anchor.value, *anchor.aliases)
    # "12.500 Euro" alone reads as 12.5, but an answer in German may write 12,500 so: the
    # continental reading of an anchor's figures is one more way to write it
    extra = tuple(c for v in written if (c := continental_reading(v)) is not None)
    for k, v in enumerate((*written, *extra)):
        sc = scan(v)
        compiled = _variant(v, sc)
        if compiled is not None:
            variants.append(compiled)
        if k < len(written):  # the numbers an answer may repeat: as the anchor writes them
            for q in sc.quantities:
                quantities.append(q)
                sources.append(v)
    return CompiledAnchor(anchor, tuple(variants), tuple(quantities), tuple(sources))


@dataclass(frozen=True, slots=True, eq=False)
class CompiledAnchors:
    """Anchors validated and compiled once, immutable: keep it and pass it as ``anchors=`` to
    :func:`~hybridjudge.grounding.check_grounding` or
    :class:`~hybridjudge.grounding.GroundingChecker` to skip validation and compilation.

    Build it with :func:`compile_anchors`. Iterating yields one :class:`CompiledAnchor` per anchor.
    """

    items: tuple[CompiledAnchor, ...]
    """The compiled anchors, in the order given."""

    def __iter__(self) -> Iterator[CompiledAnchor]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def __bool__(self) -> bool:
        return bool(self.items)

    @property
    def anchors(self) -> tuple[Anchor, ...]:
        """The anchors as validated (value and aliases)."""
        return tuple(ca.anchor for ca in self.items)


def compile_anchors(anchors: Sequence[AnchorLike] | CompiledAnchors) -> CompiledAnchors:
    """Validate and compile anchors once (strings, ``{"value", "aliases"}`` mappings or
    :class:`~hybridjudge.corpus.Anchor`); a :class:`CompiledAnchors` is returned as is.

    Raises:
        GroundingTypeError: ``anchors`` is not a list, or an item has the wrong type.
        GroundingInputError: an anchor is blank or malformed (names ``anchors[i]``).
    """
    if isinstance(anchors, CompiledAnchors):
        return anchors
    if isinstance(anchors, str | bytes) or not isinstance(anchors, Iterable):
        raise GroundingTypeError(
            "anchors must be a list (of strings, {value, aliases} mappings or Anchors); "
            "wrap a single anchor in a list",
            argument="anchors",
        )
    return CompiledAnchors(tuple(_compile_one(to_anchor(a, i)) for i, a in enumerate(anchors)))


def negation_cues(canon: Canonical) -> list[re.Match[str]]:
    """Every negation cue in a canonical text, in text order (cheap when there is none: a set
    test; the cues of other scripts than Latin are looked for only in a text outside ASCII); a
    cue inside an :data:`_ASSERTING` phrase is none."""
    text = canon.text
    present = [w.decode() for w in canon.scan.words & _NEG_WORDS_B]
    plain = canon.scan.norm.text.isascii()
    if not plain:
        present += [w for w in _NEG_WORDS_OTHER if w in text]
    if "n't" in text:
        present.append("n't")
    if not present:
        return []
    found: dict[int, re.Match[str]] = {}
    for w in present:
        i = text.find(w)
        while i >= 0:
            m = _NEG().match(text, i)
            if m is not None:
                found[i] = m
            i = text.find(w, i + 1)
    cues = [found[i] for i in sorted(found)]
    if not plain and any(c.lastgroup is not None for c in cues):
        asserting = [m.span() for m in _ASSERTING().finditer(text)]
        if asserting:
            cues = [c for c in cues if not any(a <= c.start() < b for a, b in asserting)]
    return cues


def negation_cue(
    canon: str, start: int, end: int, cues: list[re.Match[str]]
) -> re.Match[str] | None:
    """The cue negating a match from ``start`` to ``end``: the last cue before it, in the same
    clause (no clause break in between), at most :data:`NEGATION_WINDOW` words away (a cue of
    a script written without spaces: :data:`NEGATION_GLUED_CHARS` characters); else the first
    cue of ``negation_after`` after it, in the same clause, at most
    :data:`NEGATION_AFTER_CHARS` characters away."""
    before: re.Match[str] | None = None
    i, n = 0, len(cues)
    while i < n and cues[i].end() <= start:
        if cues[i].lastgroup != "after":
            before = cues[i]
        i += 1
    if before is not None and _negates(canon, before.end(), start, before.lastgroup == "glued"):
        return before
    while i < n:
        cue = cues[i]
        if cue.lastgroup == "after" and cue.start() >= end:
            return cue if _negates(canon, end, cue.start(), None) else None
        i += 1
    return None


def _negates(canon: str, a: int, b: int, glued: bool | None) -> bool:
    """Whether a cue and an anchor with ``canon[a:b]`` between them are in one clause and near
    enough: in words (``glued`` false), else in characters (``glued`` true: a cue before, of a
    script without spaces; ``None``: a cue after)."""
    if b - a > _CLAUSE_LOOKBACK or _CLAUSE_BREAK().search(canon, a, b) is not None:
        return False
    if glued is False:
        return len(_WORDISH.findall(canon, a, b)) <= NEGATION_WINDOW
    between = canon[a:b]
    if glued is None and _another_subject(between.lstrip()):
        return False
    chars = len(_PLACEHOLDER.sub("#", between)) - sum(ch.isspace() for ch in between)
    return chars <= (NEGATION_GLUED_CHARS if glued else NEGATION_AFTER_CHARS)


def _another_subject(between: str) -> bool:
    """Whether ``between`` (from an anchor to a cue after it) holds a subject particle after a
    word of its own: after a character that is not hiragana (``手数料は``, ``수수료는 ``; not
    ``では``, a particle after a particle, nor a particle right after the anchor)."""
    for p in _SUBJECT_PARTICLES:
        i = between.find(p, 1)
        while i > 0:
            if not "\u3040" <= between[i - 1] <= "\u309f":
                return True
            i = between.find(p, i + 1)
    return False


def nearest(value: float, candidates: list[float]) -> int | None:
    """Index of the candidate closest to ``value`` (``None`` when there is none)."""
    best: int | None = None
    best_d: float | None = None
    for i, c in enumerate(candidates):
        d = abs(c - value)
        if best_d is None or d < best_d:
            best, best_d = i, d
    return best
