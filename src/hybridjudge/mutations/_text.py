"""Small text tools shared by the mutators: anchor spans, polarity flips (sentence spans are the
package's, :func:`hybridjudge._text.sentence_spans`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from hybridjudge._text import word_pairs, word_sequence
from hybridjudge.corpus import Anchor

__all__ = [
    "Edit",
    "anchor_spans",
    "apply_edit",
    "digit_tokens",
    "flip_candidates",
    "protected_spans",
    "surfaces",
]

_DIGITS = re.compile(r"\d+(?:[.,]\d+)*")


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace ``text[start:end]`` with ``replacement``; ``rule`` names what the edit does."""

    start: int
    end: int
    replacement: str
    rule: str


def apply_edit(text: str, edit: Edit) -> str:
    """The text with one edit applied."""
    return text[: edit.start] + edit.replacement + text[edit.end :]


def surfaces(anchor: Anchor) -> list[str]:
    """An anchor's value and aliases, longest first, without blanks or duplicates."""
    seen: dict[str, None] = {}
    for s in (anchor.value, *anchor.aliases):
        if s.strip():
            seen.setdefault(s.strip(), None)
    return sorted(seen, key=lambda s: (-len(s), s))


def anchor_spans(text: str, anchor: Anchor) -> list[tuple[int, int]]:
    """Non-overlapping case-insensitive occurrences of any surface of *anchor*, as whole words.

    An occurrence must not sit inside a longer word or number ("5 days" is not found in
    "15 days"). Longer surfaces win over shorter ones at the same place.
    """
    taken: list[tuple[int, int]] = []
    lowered = text.lower()
    for surface in surfaces(anchor):
        needle = surface.lower()
        pattern = re.compile(
            (r"(?<![\w.])" if needle[0].isalnum() else "")
            + re.escape(needle)
            + (r"(?![\w]|[.,]\d)" if needle[-1].isalnum() else "")
        )
        for m in pattern.finditer(lowered):
            span = (m.start(), m.end())
            if not any(s < span[1] and span[0] < e for s, e in taken):
                taken.append(span)
    return sorted(taken)


def digit_tokens(text: str) -> list[str]:
    """Every run of digits (inner ``.``/``,`` kept), in order: the numbers that must survive."""
    return _DIGITS.findall(text)


def _match_case(template: str, word: str) -> str:
    if word.isupper() and len(word) > 1:
        return template.upper()
    if word[:1].isupper():
        return template[:1].upper() + template[1:]
    return template


_ANTONYMS = word_pairs("antonyms")
"""Antonym pairs applied in both directions (whole words, case kept)."""
_ANTONYM_MAP: dict[str, str] = {}
for _a, _b in _ANTONYMS:
    _ANTONYM_MAP[_a] = _b
    _ANTONYM_MAP[_b] = _a
_ANTONYM_RE = re.compile(
    r"\b(" + "|".join(sorted(map(re.escape, _ANTONYM_MAP), key=len, reverse=True)) + r")\b",
    re.IGNORECASE,
)

_FIXED_BEFORE = re.compile(
    r"\b(?:" + "|".join(word_sequence("antonym_fixed_before")) + r")\s+$", re.IGNORECASE
)
"""Words after which an antonym is part of a fixed phrase, not a polarity ("consistent with",
"named after", "took over", "the latter")."""
_FIXED_AFTER = re.compile(
    r"\s+(?:" + "|".join(word_sequence("antonym_fixed_after")) + r")\b", re.IGNORECASE
)
"""Words before which an antonym is part of a fixed phrase ("better known", "high school")."""
_NUMERIC_ONLY = {"over", "under"}
"""Antonyms swapped only right before a number ("over 38", not "over the years")."""


def _fixed_phrase(text: str, start: int, end: int) -> bool:
    """Whether the antonym at ``text[start:end]`` belongs to a fixed phrase or a name."""
    word = text[start:end]
    if _FIXED_BEFORE.search(text, 0, start) or _FIXED_AFTER.match(text, end):
        return True
    if word.lower() in _NUMERIC_ONLY and not re.match(r"\s*[$€£]?\d", text[end:]):
        return True
    before = text[:start].rstrip(" \t\"'“‘(")
    at_sentence_start = not before or before[-1] in ".!?:\n-*•"
    return word[:1].isupper() and not at_sentence_start  # "Lower Manhattan"


_AUX = "|".join(word_sequence("negatable_auxiliaries"))
_NEGATE_RE = re.compile(rf"\b({_AUX})\b(?!\s+(?:not|never|no|n't)\b)(?!n't)", re.IGNORECASE)
_UNNEGATE_RE = re.compile(
    r"\b(" + "|".join(word_sequence("unnegatable_auxiliaries")) + r")\s+not\b", re.IGNORECASE
)
_CONTRACTED = dict(word_pairs("negated_contractions"))
_CONTRACTED_RE = re.compile(
    r"\b(" + "|".join(k.replace("'", "['’]") for k in _CONTRACTED) + r")(?!\w)", re.IGNORECASE
)
_IMPERATIVE = "|".join(word_sequence("imperative_verbs"))
_IMPERATIVE_RE = re.compile(rf"(?:^|(?<=[.!?] )|(?<=^- )|(?<=^\* ))({_IMPERATIVE})\b", re.MULTILINE)


_VERB_BASE = dict(word_pairs("negatable_verbs"))
_THIRD_PERSON = frozenset(form for form, base in _VERB_BASE.items() if form != base)
"""The forms of :data:`_VERB_BASE` other than their base: third person, negated with "does"."""
_VERB_RE = re.compile(
    r"\b("
    + "|".join(word_sequence("verb_subjects"))
    + r")\s+("
    + "|".join(sorted(_VERB_BASE, key=len, reverse=True))
    + r")\b",
    re.IGNORECASE,
)
_THERE_NO_RE = re.compile(r"\b(there\s+(?:is|was|are|were))\s+no\b", re.IGNORECASE)


def _negate_verb(m: re.Match[str]) -> str:
    verb = m.group(2)
    aux = "does" if verb.lower() in _THIRD_PERSON else "do"
    return f"{m.group(1)} {aux} not {_VERB_BASE[verb.lower()]}"


def _there_is(m: re.Match[str]) -> str:
    head = m.group(1)
    plural = head.lower().split()[-1] in {"are", "were"}
    return f"{head} {'some' if plural else 'a'}"


def _negate(m: re.Match[str]) -> str:
    return f"{m.group(1)} not"


def _unnegate(m: re.Match[str]) -> str:
    return m.group(1)


def _uncontract(m: re.Match[str]) -> str:
    word = m.group(1)
    key = word.lower().replace("’", "'")
    return _match_case(_CONTRACTED[key], word)


def _imperative(m: re.Match[str]) -> str:
    return f"Do not {m.group(1).lower()}"


def _antonym(m: re.Match[str]) -> str:
    word = m.group(1)
    return _match_case(_ANTONYM_MAP[word.lower()], word)


_RULES: tuple[tuple[str, re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    ("negation inserted", _NEGATE_RE, _negate),
    ("negation removed", _UNNEGATE_RE, _unnegate),
    ("negation removed", _CONTRACTED_RE, _uncontract),
    ("imperative negated", _IMPERATIVE_RE, _imperative),
    ("verb negated", _VERB_RE, _negate_verb),
    ("negation removed", _THERE_NO_RE, _there_is),
    ("antonym swapped", _ANTONYM_RE, _antonym),
)


def flip_candidates(text: str, protected: Sequence[tuple[int, int]] = ()) -> list[Edit]:
    """Every single-place polarity flip of *text* that touches no protected span or digit.

    Flips: negation inserted after an auxiliary ("is" -> "is not"), negation removed ("does not"
    -> "does", "isn't" -> "is"), an imperative negated ("Go" -> "Do not go"), or an antonym
    swapped (before/after, increase/decrease, with/without, required/optional, more/less, ...).
    Candidates come in text order; the caller chooses among them.
    """
    edits: list[Edit] = []
    for rule, pattern, replace in _RULES:
        for m in pattern.finditer(text):
            start, end = m.start(), m.end()
            if any(s < end and start < e for s, e in protected):
                continue
            if _DIGITS.search(m.group()):
                continue
            if pattern is _ANTONYM_RE and _fixed_phrase(text, start, end):
                continue
            replacement = replace(m)
            if replacement == m.group():
                continue
            edits.append(Edit(start, end, replacement, f"{rule}: {m.group()!r} -> {replacement!r}"))
    edits.sort(key=lambda e: (e.start, e.end, e.rule))
    return edits


def protected_spans(text: str, anchors: Iterable[Anchor]) -> list[tuple[int, int]]:
    """Spans of every anchor occurrence and every number: no flip may touch them."""
    spans = [span for anchor in anchors for span in anchor_spans(text, anchor)]
    spans += [(m.start(), m.end()) for m in _DIGITS.finditer(text)]
    return sorted(spans)
