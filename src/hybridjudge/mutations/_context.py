"""Seeded mutators of the retrieved context: the retriever's defects, the answer kept.

A context mutant is the base answer scored against a context that carries exactly one retrieval
defect. The unit of the context is the *passage*: the case's passages when it has two or more,
else the sentences of its single passage (OpenGATE's and HaluEval's contexts are one passage of
a few sentences, and a retriever that returns chunks returns sentence-sized ones). The mutant's
context is that list of passages with the defect applied.

The *evidence* is a fact the answer states and the context supports: one of the case's anchors
(any alias) present in both, or a figure (a digit run) of the answer found in the context outside
the anchors. The seed picks the evidence among them.

- ``evidence_dropped``: every passage holding the evidence is removed (the rest kept in order).
- ``distractor``: every passage holding the evidence is replaced by the passage of another case
  of the same corpus that shares the most words with it (a near-duplicate that lacks the fact).
- ``stale_passage``: the evidence passage *substituted* by a stale version of itself, the same
  text with the evidence's figure changed to another value (``500 mg`` -> ``1000 mg``), as an
  outdated copy of the document states it; the original passage is gone, so the context
  states a different figure for the same thing and nothing else.
- ``truncated``: the context cut right before the evidence's first occurrence (mid-passage
  where it falls there), everything after it lost, as a context window or token limit cuts it.

Two negative controls, which must change no verdict: ``passages_shuffled`` (the same passages
in another order) and ``passage_duplicated`` (one passage repeated right after itself).

Every candidate is checked by :func:`verify_context_mutant` before it is emitted.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from hybridjudge._text import sentence_spans
from hybridjudge.corpus import Anchor, Case, DefectClass
from hybridjudge.mutations._errors import MutationRefused
from hybridjudge.mutations._text import anchor_spans, digit_tokens

__all__ = [
    "CONTEXT_MUTATORS",
    "CONTEXT_MUTATOR_VERSIONS",
    "ContextMutant",
    "ContextMutator",
    "Evidence",
    "distractor",
    "evidence_dropped",
    "passage_duplicated",
    "passages",
    "passages_shuffled",
    "stale_passage",
    "truncated",
    "verify_context_mutant",
]

CONTEXT_MUTATOR_VERSIONS: dict[DefectClass, str] = {
    "evidence_dropped": "1",
    "distractor": "1",
    "stale_passage": "1",
    "truncated": "1",
    "passages_shuffled": "1",
    "passage_duplicated": "1",
}
"""Version of each context mutator; bump one whenever its output for a given seed can change."""

MAX_ATTEMPTS = 40
"""Candidates verified at most per (base, class) before the mutator gives up."""


@dataclass(frozen=True, slots=True)
class Evidence:
    """A fact the answer states and the context supports."""

    kind: Literal["anchor", "figure"]
    """``anchor``: one of the case's required facts; ``figure``: a number of the answer."""
    value: str
    """The anchor's value, or the figure's digits."""
    anchor: Anchor | None = None
    """The anchor (for ``kind="anchor"``)."""

    def spans(self, text: str) -> list[tuple[int, int]]:
        """Every occurrence of the fact in *text* (an anchor: any alias, as a whole word)."""
        if self.anchor is not None:
            return anchor_spans(text, self.anchor)
        pattern = rf"(?<![\d.,]){re.escape(self.value)}(?![\d]|[.,]\d)"
        return [(m.start(), m.end()) for m in re.finditer(pattern, text)]

    def describe(self) -> str:
        """``anchor '500 mg'`` or ``figure '38'``."""
        return f"{self.kind} {self.value!r}"


@dataclass(frozen=True, slots=True)
class ContextMutant:
    """A verified context mutant: the context with one retrieval defect, and what it is."""

    defect: DefectClass
    """The one defect the context carries."""
    context: tuple[str, ...]
    """The mutant context, as passages."""
    detail: str
    """What exactly was done, e.g. ``"passage 2 of 4 holding anchor '500 mg' dropped"``."""
    evidence: Evidence | None = None
    """The fact the defect targets (``None`` for the negative controls)."""


class ContextMutator(Protocol):
    """``mutator(answer, case, *, seed, pool) -> ContextMutant``; raises MutationRefused.

    ``pool`` is every case of the corpus (a distractor is drawn from the others).
    """

    def __call__(
        self, text: str, case: Case, *, seed: int, pool: Sequence[Case]
    ) -> ContextMutant: ...


def passages(case: Case) -> tuple[str, ...]:
    """The case's context as passages: its own when it has two or more, else the sentences of
    its one passage (blank passages left out)."""
    given = tuple(p for p in case.context if p.strip())
    if len(given) != 1:
        return given
    only = given[0]
    return tuple(only[s:e] for s, e in sentence_spans(only, "whole")) or given


def _evidence(text: str, case: Case, context: Sequence[str]) -> list[Evidence]:
    """Facts the answer states that the context holds: anchors first, then other figures."""
    joined = "\n".join(context)
    found: list[Evidence] = []
    taken: list[tuple[int, int]] = []
    for anchor in case.anchors:
        spans = anchor_spans(text, anchor)
        taken += spans
        if spans and anchor_spans(joined, anchor):
            found.append(Evidence(kind="anchor", value=anchor.value, anchor=anchor))
    seen: set[str] = set()
    for m in re.finditer(r"\d+(?:[.,]\d+)*", text):
        figure = m.group()
        if figure in seen or any(s < m.end() and m.start() < e for s, e in taken):
            continue
        seen.add(figure)
        # a list enumerator ("1." at a line start) is not a fact
        if re.match(r"[.)](?:\s|$)", text[m.end() : m.end() + 2]) and re.search(
            r"(?:^|\n)\s*$", text[: m.start()]
        ):
            continue
        fact = Evidence(kind="figure", value=figure)
        if fact.spans(joined):
            found.append(fact)
    return found


def _holding(context: Sequence[str], fact: Evidence) -> list[int]:
    return [i for i, p in enumerate(context) if fact.spans(p)]


def _shuffled_evidence(text: str, case: Case, rng: random.Random) -> list[Evidence]:
    facts = _evidence(text, case, passages(case))
    rng.shuffle(facts)
    return facts


def _first_verified(
    defect: DefectClass,
    text: str,
    case: Case,
    candidates: Iterator[ContextMutant],
    *,
    nothing: str,
) -> ContextMutant:
    reasons: list[str] = []
    for attempt, mutant in enumerate(candidates):
        if attempt >= MAX_ATTEMPTS:
            break
        try:
            verify_context_mutant(mutant, text, case)
        except MutationRefused as exc:
            reasons.append(exc.reason)
            continue
        return mutant
    if not reasons:
        raise MutationRefused(defect, nothing)
    distinct = list(dict.fromkeys(reasons))
    tried = f"{len(reasons)} candidate{'s' if len(reasons) > 1 else ''} tried"
    raise MutationRefused(defect, f"{distinct[0]} ({tried})")


_NO_EVIDENCE = "the answer states no anchor or figure that the context holds"


# --- evidence_dropped -----------------------------------------------------------------------


def _dropped_candidates(text: str, case: Case, rng: random.Random) -> Iterator[ContextMutant]:
    context = passages(case)
    for fact in _shuffled_evidence(text, case, rng):
        holding = _holding(context, fact)
        kept = tuple(p for i, p in enumerate(context) if i not in holding)
        where = ", ".join(str(i + 1) for i in holding)
        yield ContextMutant(
            defect="evidence_dropped",
            context=kept,
            detail=(
                f"passage{'s' if len(holding) > 1 else ''} {where} of {len(context)} holding "
                f"{fact.describe()} dropped"
            ),
            evidence=fact,
        )


def evidence_dropped(
    text: str, case: Case, *, seed: int, pool: Sequence[Case] = ()
) -> ContextMutant:
    """Drop every passage that holds one fact of the answer (picked by the seed).

    Raises:
        MutationRefused: the answer states no fact the context holds, or dropping it would
            leave no context.
    """
    del pool  # the same signature as every context mutator
    return _first_verified(
        "evidence_dropped",
        text,
        case,
        _dropped_candidates(text, case, random.Random(seed)),
        nothing=_NO_EVIDENCE,
    )


# --- distractor -----------------------------------------------------------------------------

_WORD = re.compile(r"[a-z]{3,}")


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


def _similarity(a: str, b: str) -> float:
    wa, wb = _words(a), _words(b)
    return len(wa & wb) / len(wa | wb) if wa | wb else 0.0


def _distractor_candidates(
    text: str, case: Case, rng: random.Random, pool: Sequence[Case]
) -> Iterator[ContextMutant]:
    context = passages(case)
    others = [(other.id, p) for other in pool if other.id != case.id for p in passages(other)]
    if not others:
        return
    for fact in _shuffled_evidence(text, case, rng):
        holding = _holding(context, fact)
        lacking = [(cid, p) for cid, p in others if not fact.spans(p) and p not in context]
        if not lacking:
            continue
        evidence = " ".join(context[i] for i in holding)
        ranked = sorted(lacking, key=lambda cp: (-_similarity(evidence, cp[1]), cp[0], cp[1]))
        # the seed picks among the three nearest, so not every mutant takes the same passage
        source, replacement = rng.choice(ranked[:3])
        out: list[str] = []
        for i, p in enumerate(context):
            if i == holding[0]:
                out.append(replacement)
            elif i not in holding:
                out.append(p)
        yield ContextMutant(
            defect="distractor",
            context=tuple(out),
            detail=(
                f"passage {holding[0] + 1} of {len(context)} holding {fact.describe()} replaced "
                f"by a near-duplicate from case {source!r}: {replacement!r}"
            ),
            evidence=fact,
        )


def distractor(text: str, case: Case, *, seed: int, pool: Sequence[Case] = ()) -> ContextMutant:
    """Replace the passages holding one fact of the answer by the most similar passage of
    another case of the same corpus (``pool``), one that lacks the fact.

    Raises:
        MutationRefused: no other case in ``pool``, or the answer states no fact the context
            holds.
    """
    if not any(other.id != case.id for other in pool):
        raise MutationRefused("distractor", "the corpus has no other case to draw a passage from")
    return _first_verified(
        "distractor",
        text,
        case,
        _distractor_candidates(text, case, random.Random(seed), pool),
        nothing=_NO_EVIDENCE,
    )


# --- stale_passage --------------------------------------------------------------------------


def _stale_values(figure: str, banned: str, rng: random.Random) -> list[str]:
    if not figure.isdigit():
        if re.fullmatch(r"\d+\.\d+", figure):
            whole, frac = figure.split(".")
            options = [f"{whole}.{d}" for d in "123456789"] + [f"{int(whole) + 1}.{frac}"]
        else:
            return []
    else:
        n = int(figure)
        options = [str(v) for v in (2 * n, n + 1, n + 2, n + 5, 3 * n, n - 1) if v > 0]
    options = [o for o in dict.fromkeys(options) if o != figure]
    fresh = [
        o for o in options if not re.search(rf"(?<![\d.,]){re.escape(o)}(?![\d]|[.,]\d)", banned)
    ]
    rng.shuffle(fresh)
    return fresh


def _stale_candidates(text: str, case: Case, rng: random.Random) -> Iterator[ContextMutant]:
    context = passages(case)
    banned = " ".join((*context, text, case.question or "", *case.allowed_numbers))
    for fact in _shuffled_evidence(text, case, rng):
        # the figure the stale passage changes: the evidence itself, or the anchor's number
        figures = [fact.value] if fact.kind == "figure" else []
        if fact.anchor is not None:
            for s, e in anchor_spans("\n".join(context), fact.anchor):
                figures += digit_tokens("\n".join(context)[s:e])
        for figure in dict.fromkeys(figures):
            target = Evidence(kind="figure", value=figure)
            holding = _holding(context, target)
            if not holding:
                continue
            for new in _stale_values(figure, banned, rng)[:2]:
                out = list(context)
                for i in holding:
                    spans = target.spans(out[i])
                    for s, e in reversed(spans):
                        out[i] = out[i][:s] + new + out[i][e:]
                yield ContextMutant(
                    defect="stale_passage",
                    context=tuple(out),
                    detail=(
                        f"passage {holding[0] + 1} of {len(context)} replaced by a stale version "
                        f"stating {new!r} where the context said {figure!r} "
                        f"({fact.describe()})"
                    ),
                    evidence=target,
                )


def stale_passage(text: str, case: Case, *, seed: int, pool: Sequence[Case] = ()) -> ContextMutant:
    """Substitute the passage holding a figure of the answer by a stale version of itself that
    states another value for it (every occurrence changed, the rest verbatim).

    The new value is one of 2n, n+1, n+2, n+5, 3n, n-1 (a decimal: another last digit, or the
    whole part plus one) that the context, question, allowed numbers and answer do not state;
    a figure written with a thousands separator ("1,496.5") is not altered.

    Raises:
        MutationRefused: the answer states no figure the context holds.
    """
    del pool
    return _first_verified(
        "stale_passage",
        text,
        case,
        _stale_candidates(text, case, random.Random(seed)),
        nothing="the answer states no figure that the context holds",
    )


# --- truncated ------------------------------------------------------------------------------


def _truncated_candidates(text: str, case: Case, rng: random.Random) -> Iterator[ContextMutant]:
    context = passages(case)
    for fact in _shuffled_evidence(text, case, rng):
        holding = _holding(context, fact)
        first = holding[0]
        start = fact.spans(context[first])[0][0]
        # cut at a word boundary before the fact; a passage left with no word is dropped
        head = context[first][:start].rstrip()
        out = [*context[:first], *([head] if any(ch.isalnum() for ch in head) else [])]
        yield ContextMutant(
            defect="truncated",
            context=tuple(out),
            detail=(
                f"context cut in passage {first + 1} of {len(context)}, right before "
                f"{fact.describe()}: {sum(map(len, context)) - sum(map(len, out))} characters lost"
            ),
            evidence=fact,
        )


def truncated(text: str, case: Case, *, seed: int, pool: Sequence[Case] = ()) -> ContextMutant:
    """Cut the context right before the first occurrence of one fact of the answer.

    Raises:
        MutationRefused: the answer states no fact the context holds, or the cut leaves no
            context (the fact opens it).
    """
    del pool
    return _first_verified(
        "truncated",
        text,
        case,
        _truncated_candidates(text, case, random.Random(seed)),
        nothing=_NO_EVIDENCE,
    )


# --- negative controls ----------------------------------------------------------------------


def passages_shuffled(
    text: str, case: Case, *, seed: int, pool: Sequence[Case] = ()
) -> ContextMutant:
    """The same passages in another order (a negative control: no verdict may change).

    Raises:
        MutationRefused: the context has fewer than two distinct passages.
    """
    del pool
    context = passages(case)
    if len(set(context)) < 2:
        raise MutationRefused("passages_shuffled", "the context has fewer than two passages")
    rng = random.Random(seed)
    order = list(range(len(context)))
    while order == sorted(order) or [context[i] for i in order] == list(context):
        rng.shuffle(order)
    mutant = ContextMutant(
        defect="passages_shuffled",
        context=tuple(context[i] for i in order),
        detail=f"passages reordered {[i + 1 for i in order]}",
    )
    verify_context_mutant(mutant, text, case)
    return mutant


def passage_duplicated(
    text: str, case: Case, *, seed: int, pool: Sequence[Case] = ()
) -> ContextMutant:
    """One passage (picked by the seed) repeated right after itself (a negative control).

    Raises:
        MutationRefused: the context has no passage.
    """
    del pool
    context = passages(case)
    if not context:
        raise MutationRefused("passage_duplicated", "the context has no passage")
    i = random.Random(seed).randrange(len(context))
    mutant = ContextMutant(
        defect="passage_duplicated",
        context=(*context[: i + 1], context[i], *context[i + 1 :]),
        detail=f"passage {i + 1} of {len(context)} repeated",
    )
    verify_context_mutant(mutant, text, case)
    return mutant


# --- verification ---------------------------------------------------------------------------


def _anchor_in(context: Sequence[str], anchor: Anchor) -> bool:
    """Whether grounding's own anchor matcher finds *anchor* in *context* (aliases, spelled
    numbers, normalisation): a second opinion beside the literal search."""
    from hybridjudge.grounding import check_grounding

    joined = "\n".join(context)
    if not joined.strip():
        return False
    report = check_grounding(joined, list(context), anchors=[anchor])
    return not any(f.kind == "missing_anchor" for f in report.findings)


def _ordered_subset(kept: Sequence[str], context: Sequence[str]) -> bool:
    it = iter(context)
    return all(any(p == q for q in it) for p in kept)


def verify_context_mutant(mutant: ContextMutant, text: str, case: Case) -> None:
    """Raise :class:`MutationRefused` unless *mutant*'s context carries exactly its defect.

    - every retrieval defect: the context changed, is not empty, the answer states the
      evidence and the case's context holds it;
    - ``evidence_dropped``: the evidence is gone (literally and for grounding's anchor
      matcher), and the context is the case's passages with some removed, in order;
    - ``distractor``: the same, one passage of another case standing where the evidence was;
    - ``stale_passage``: the original figure is gone, the stale one is new to the context and
      the answer, and exactly the evidence passages differ;
    - ``truncated``: the evidence is gone and the context is a prefix of the case's;
    - ``passages_shuffled``: the same passages in another order; ``passage_duplicated``: the
      case's passages with one repeated.
    """
    defect = mutant.defect
    context = passages(case)
    new = mutant.context
    if tuple(new) == tuple(context):
        raise MutationRefused(defect, "the mutant context is identical to the case's")
    if not any(p.strip() for p in new):
        raise MutationRefused(defect, "the mutant context is empty")
    if defect == "passages_shuffled":
        if Counter(new) != Counter(context):
            raise MutationRefused(defect, "the shuffled context lost or gained a passage")
        return
    if defect == "passage_duplicated":
        extra = Counter(new) - Counter(context)
        if (
            len(new) != len(context) + 1
            or Counter(context) - Counter(new)
            or sum(extra.values()) != 1
            or next(iter(extra)) not in context
        ):
            raise MutationRefused(defect, "the context is not the case's with one passage repeated")
        return
    fact = mutant.evidence
    if fact is None:
        raise MutationRefused(defect, "no evidence named for a retrieval defect")
    if not fact.spans(text):
        raise MutationRefused(defect, f"the answer does not state {fact.describe()}")
    if not _holding(context, fact):
        raise MutationRefused(defect, f"the case's context does not hold {fact.describe()}")
    if any(fact.spans(p) for p in new):
        raise MutationRefused(defect, f"{fact.describe()} is still in the context")
    if fact.anchor is not None and _anchor_in(new, fact.anchor):
        raise MutationRefused(
            defect, f"{fact.describe()} is still in the context for grounding's anchor matcher"
        )
    if defect == "evidence_dropped":
        if not _ordered_subset(new, context) or len(new) >= len(context):
            raise MutationRefused(defect, "the context is not the case's with passages removed")
        return
    if defect == "distractor":
        foreign = [p for p in new if p not in context]
        if len(foreign) != 1:
            raise MutationRefused(defect, "expected exactly one passage from another case")
        if not _ordered_subset([p for p in new if p in context], context):
            raise MutationRefused(defect, "the case's passages were reordered")
        return
    if defect == "stale_passage":
        changed = [i for i, (a, b) in enumerate(zip(context, new, strict=False)) if a != b]
        if len(new) != len(context) or not changed:
            raise MutationRefused(defect, "the stale context does not keep the case's passages")
        if not all(_holding(context, fact).count(i) for i in changed):
            raise MutationRefused(defect, "a passage without the evidence changed")
        added = set(digit_tokens(" ".join(new))) - set(digit_tokens(" ".join(context)))
        if len(added) != 1:
            raise MutationRefused(defect, f"expected one new figure, got {sorted(added)}")
        stale = added.pop()
        if stale == fact.value or Evidence(kind="figure", value=stale).spans(text):
            raise MutationRefused(defect, f"the stale figure {stale!r} does not differ")
        return
    if defect == "truncated":
        joined, whole = "\n".join(new), "\n".join(context)
        if not whole.startswith(joined) or len(joined) >= len(whole):
            raise MutationRefused(defect, "the context is not a prefix of the case's")
        return
    raise MutationRefused(defect, "not a context defect class")


CONTEXT_MUTATORS: dict[DefectClass, ContextMutator] = {
    "evidence_dropped": evidence_dropped,
    "distractor": distractor,
    "stale_passage": stale_passage,
    "truncated": truncated,
    "passages_shuffled": passages_shuffled,
    "passage_duplicated": passage_duplicated,
}
"""Each context class's mutator: ``mutator(answer, case, *, seed, pool) -> ContextMutant``."""
