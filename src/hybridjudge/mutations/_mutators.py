"""Five pure, seeded mutators, each injecting exactly one defect into a base output.

Every mutator takes the base text, its gold case and a seed, builds candidate edits, shuffles or
picks among them with ``random.Random(seed)``, and returns the first candidate that
:func:`~hybridjudge.mutations._verify.verify_mutant` accepts (it carries its defect and only it).
When no candidate passes it raises :class:`MutationRefused` with the reason.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Protocol, TypeVar

from hybridjudge._text import sentence_spans, word_list, word_sequence
from hybridjudge.corpus import Anchor, Case, DefectClass
from hybridjudge.mutations._errors import MutationRefused
from hybridjudge.mutations._text import (
    Edit,
    anchor_spans,
    apply_edit,
    digit_tokens,
    flip_candidates,
    protected_spans,
    surfaces,
)
from hybridjudge.mutations._verify import verify_mutant

__all__ = [
    "MUTATORS",
    "MUTATOR_VERSIONS",
    "Mutant",
    "Mutator",
    "contradiction",
    "fabricated_number",
    "inversion",
    "non_abstention",
    "omission",
]

MUTATOR_VERSIONS: dict[DefectClass, str] = {
    "omission": "1",
    "fabricated_number": "1",
    "non_abstention": "1",
    "contradiction": "1",
    "inversion": "1",
}
"""Version of each mutator; bump one whenever its output for a given seed can change."""

MAX_ATTEMPTS = 40
"""Candidates verified at most per (base, class) before the mutator gives up."""


@dataclass(frozen=True, slots=True)
class Mutant:
    """A verified mutant text and what was injected."""

    defect: DefectClass
    """The one defect the text carries."""
    text: str
    """The mutant text."""
    detail: str
    """What exactly was injected, e.g. ``'anchor "500 mg" deleted'``."""
    anchor: Anchor | None = None
    """For ``omission``: the anchor that was deleted (``None`` for the other classes)."""


T = TypeVar("T")


class Mutator(Protocol):
    """``mutator(base_text, case, *, seed) -> Mutant``; raises :class:`MutationRefused`."""

    def __call__(self, text: str, case: Case, *, seed: int) -> Mutant: ...


def _first_verified(
    defect: DefectClass,
    base: str,
    case: Case,
    candidates: Iterable[tuple[str, str, Anchor | None]],
    *,
    nothing: str,
) -> Mutant:
    """The first candidate ``(text, detail, anchor)`` that verifies; refuse with reasons."""
    reasons: list[str] = []
    for attempt, (text, detail, anchor) in enumerate(candidates):
        if attempt >= MAX_ATTEMPTS:
            break
        try:
            verify_mutant(defect, base, text, case, anchor=anchor)
        except MutationRefused as exc:
            reasons.append(exc.reason)
            continue
        return Mutant(defect=defect, text=text, detail=detail, anchor=anchor)
    if not reasons:
        raise MutationRefused(defect, nothing)
    distinct = list(dict.fromkeys(reasons))
    tried = f"{len(reasons)} candidate{'s' if len(reasons) > 1 else ''} tried"
    more = f", {len(distinct) - 1} other reason{'s' if len(distinct) > 2 else ''}"
    raise MutationRefused(defect, f"{distinct[0]} ({tried}{more if len(distinct) > 1 else ''})")


def _shuffled(items: Iterable[T], rng: random.Random) -> list[T]:
    out = list(items)
    rng.shuffle(out)
    return out


# --- omission ------------------------------------------------------------------------------

_UNIT_AFTER = re.compile(
    r"(?:\s?(?:[%°]\s?[CF]?|(?:[a-zA-Zµμ]{1,12}(?:/[a-zA-Z]{1,4})|"
    + "|".join(
        f"{unit}s?" if unit in word_list("units_with_plural") else unit
        for unit in word_sequence("units_after_number")
    )
    + r"))(?![\w/]))?"
)
_ATTACHED = re.compile(r"[^\s.,;:!?)\]]*")
_LEADING_PREPOSITION = re.compile(
    r"(?:\b(?:"
    + "|".join(word_sequence("quantity_prepositions"))
    + r")(?:\s+(?:"
    + "|".join(word_sequence("quantity_determiners"))
    + r"))?)\s+$",
    re.IGNORECASE,
)


def _phrase_span(text: str, start: int, end: int) -> tuple[int, int, bool]:
    """Widen an anchor occurrence to its attached unit and a leading preposition, if any.

    Returns the span and whether a preposition was taken along ("for 5 days").
    """
    m = _ATTACHED.match(text, end)
    end = m.end() if m else end
    if text[start:end][:1].isdigit():
        unit = _UNIT_AFTER.match(text, end)
        if unit:
            end = unit.end()
    prep = _LEADING_PREPOSITION.search(text, max(0, start - 40), start)
    if prep is not None and prep.end() == start:
        return prep.start(), end, True
    return start, end, False


_CLAUSE_BREAK = re.compile(
    r",\s+(?:" + "|".join(word_sequence("comma_clause_joiners")) + r")\s+|;\s+"
)


def _clause_span(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The clause ("..., and ..." / "...; ...") holding an occurrence, with its joiner."""
    for s, e in sentence_spans(text, "whole"):
        if not (s <= start and end <= e):
            continue
        breaks = list(_CLAUSE_BREAK.finditer(text, s, e))
        if not breaks:
            return None
        bounds = [s, *[b.start() for b in breaks], e]
        joiners = [(b.start(), b.end()) for b in breaks]
        for i in range(len(bounds) - 1):
            c_start = bounds[i] if i == 0 else joiners[i - 1][1]
            c_end = bounds[i + 1]
            if c_start <= start and end <= c_end:
                if i == 0:  # first clause: drop it with the joiner after it
                    return c_start, joiners[0][1]
                # later clause: drop it with the joiner before it, keep the final stop
                tail = c_end
                if i == len(bounds) - 2 and text[e - 1 : e] in {".", "!", "?"}:
                    tail = e - 1
                return joiners[i - 1][0], tail
        return None
    return None


def _sentence_span(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The whole sentence (or bullet line) holding an occurrence, with its trailing blanks."""
    for s, e in sentence_spans(text, "whole"):
        if s <= start and end <= e:
            bullet = re.search(r"(?:^|\n)([ \t]*[-*•][ \t]+)$", text[:s])
            if bullet is not None:
                s = bullet.start(1)
                line_end = text.find("\n", e)
                if line_end < 0:  # last line: take the newline before it
                    return max(0, s - 1), len(text.rstrip())
                return s, line_end + 1
            trail = re.match(r"[ \t]*", text[e:])
            return s, e + (trail.end() if trail else 0)
    return None


def _delete(text: str, spans: list[tuple[int, int]]) -> str:
    """Delete spans (right to left) and tidy the blanks and punctuation they leave."""
    out = text
    for start, end in sorted(set(spans), reverse=True):
        left, right = out[:start], out[end:]
        if not left.strip() or left.rstrip()[-1] in ".!?" or left.endswith("\n"):
            # the deletion took a sentence's start: drop a dangling ", " and capitalise
            right = right.lstrip(" ,;:")
            if right[:1].islower():
                right = right[:1].upper() + right[1:]
            if left and not left[-1].isspace() and right and not right[0].isspace():
                left += " "
        elif left.endswith(" ") and right.startswith((" ", ",", ".", ";", ":", "!", "?", ")")):
            left = left[:-1]
        out = left + right
    out = re.sub(r"\(\s*\)", "", out)
    out = re.sub(r"[ \t]+([,.;:!?])", r"\1", out)
    out = re.sub(r"([,;:])\s*([.!?])", r"\2", out)
    out = re.sub(r"(?m)^(\s*[-*•]\s*)[,;:]\s*", r"\1", out)
    if text == text.rstrip():
        out = out.rstrip()
    return out


def _omission_candidates(
    text: str, case: Case, rng: random.Random
) -> Iterator[tuple[str, str, Anchor | None]]:
    present = [a for a in case.anchors if anchor_spans(text, a)]
    for anchor in _shuffled(present, rng):
        spans = anchor_spans(text, anchor)
        phrases = [_phrase_span(text, s, e) for s, e in spans]
        plans: list[tuple[str, list[tuple[int, int]]]] = []
        if all(took for _, _, took in phrases):
            plans.append(("with its preposition", [(s, e) for s, e, _ in phrases]))
        clauses = [_clause_span(text, s, e) for s, e in spans]
        if all(c is not None for c in clauses):
            plans.append(("with its clause", [c for c in clauses if c is not None]))
        sentences = [_sentence_span(text, s, e) for s, e in spans]
        if all(c is not None for c in sentences):
            plans.append(("with its sentence", [c for c in sentences if c is not None]))
        plans.append(("in place", [_phrase_span(text, s, e)[:2] for s, e in spans]))
        seen: set[str] = set()
        for how, wide in plans:
            mutant = _delete(text, wide)
            if mutant in seen:
                continue
            seen.add(mutant)
            removed = "; ".join(repr(text[s:e].strip()) for s, e in sorted(set(wide)))
            yield mutant, f"anchor {anchor.value!r} deleted {how}: {removed}", anchor


def omission(text: str, case: Case, *, seed: int) -> Mutant:
    """Delete every occurrence of one anchor (any alias) from the answer.

    The anchor is picked by the seed among the anchors the base contains. To keep the text
    readable the deletion takes, in this order of preference, the anchor with its leading
    preposition ("for 5 days"), its clause ("..., and ..."), its sentence or bullet, and last
    the bare anchor; the first that verifies (no other anchor lost, nothing else raised) wins.

    Raises:
        MutationRefused: the case has no anchors, the base contains none, or every deletion
            leaves no words or raises a second finding.
    """
    rng = random.Random(seed)
    if not case.anchors:
        raise MutationRefused("omission", "the case has no anchors")
    bare = " \t\n\"'“”‘’.!?"
    whole = text.strip(bare).lower()
    if any(whole == s.strip(bare).lower() for a in case.anchors for s in surfaces(a)):
        raise MutationRefused(
            "omission", "the answer is the anchor itself; deleting it leaves no words"
        )
    return _first_verified(
        "omission",
        text,
        case,
        _omission_candidates(text, case, rng),
        nothing="the base contains none of the case's anchors",
    )


# --- fabricated_number ------------------------------------------------------------------------

_TEMPLATES: tuple[tuple[str, tuple[str, ...], tuple[int, int]], ...] = (
    ("This applies in approximately {n}{u} of cases.", ("%",), (6, 94)),
    ("Roughly {n}{u} of similar requests are handled this way.", ("%",), (6, 94)),
    ("The usual waiting time is about {n} {u}.", ("days", "weeks", "hours"), (3, 19)),
    ("This has been the standard for around {n} {u}.", ("years", "months"), (6, 48)),
    ("It was first described in {n}{u}.", ("",), (1851, 2014)),
    ("A typical amount is {n} {u}.", ("mg", "ml", "grams", "units"), (11, 950)),
    ("Records show {n} {u} of this last year.", ("cases", "reports", "instances"), (13, 990)),
    ("The distance involved is roughly {n} {u}.", ("km", "miles"), (7, 480)),
    ("A follow-up is usually arranged after {n} {u}.", ("days", "weeks", "months"), (3, 17)),
    ("The cost is typically around {n} {u}.", ("dollars", "euros", "pounds"), (23, 900)),
)
_NUMBER = re.compile(r"(?<![\w.,])\d+(?:\.\d+)?(?![\w]|[.,]\d)")


def _occurs(number: str, haystack: str) -> bool:
    return re.search(rf"(?<![\d.,]){re.escape(number)}(?![\d]|[.,]\d)", haystack) is not None


def _fresh_numbers(lo: int, hi: int, banned: str, rng: random.Random, count: int) -> list[int]:
    out: list[int] = []
    for _ in range(count * 8):
        n = rng.randint(lo, hi)
        if n not in out and not _occurs(str(n), banned):
            out.append(n)
        if len(out) == count:
            break
    return out


def _insertion_points(text: str) -> list[int]:
    """Offsets right after a sentence or bullet line where a new sentence can go."""
    points = [e for _, e in sentence_spans(text, "whole") if text[e - 1 : e] in {".", "!", "?"}]
    end = len(text.rstrip())
    return sorted(set(points) | {end})


def _insert_sentence(text: str, at: int, sentence: str) -> str:
    """Insert *sentence* after offset *at*: as a new bullet in a bulleted text, else inline."""
    bullet = re.match(r"\s*([-*•])\s", text)
    if bullet is not None:
        line_end = text.find("\n", at)
        at = len(text.rstrip()) if line_end < 0 else line_end
        return f"{text[:at]}\n{bullet.group(1)} {sentence}{text[at:]}"
    head, tail = text[:at].rstrip(), text[at:]
    if head and head[-1] not in {".", "!", "?"}:
        head += "."
    if not tail.strip() or tail[: len(tail) - len(tail.lstrip())].count("\n"):
        return f"{head} {sentence}{tail}"
    return f"{head} {sentence} {tail.lstrip()}"


def _fabrication_candidates(
    text: str, case: Case, rng: random.Random
) -> Iterator[tuple[str, str, Anchor | None]]:
    banned = " ".join((*case.context, case.question or "", *case.allowed_numbers, text))
    anchored = [span for a in case.anchors for span in anchor_spans(text, a)]
    context = " ".join(case.context)
    alterable = [
        m
        for m in _NUMBER.finditer(text)
        if not any(s < m.end() and m.start() < e for s, e in anchored)
        and _occurs(m.group(), context)
        # a list enumerator ("1." / "2)" at a line start) is not a fact
        and not (
            re.match(r"[.)](?:\s|$)", text[m.end() : m.end() + 2])
            and re.search(r"(?:^|\n)\s*$", text[: m.start()])
        )
    ]
    modes = ["append", "alter"] if alterable else ["append"]
    for _ in range(MAX_ATTEMPTS):
        mode = rng.choice(modes)
        if mode == "alter":
            m = rng.choice(alterable)
            old = m.group()
            if "." in old:
                whole = old.split(".")[0]
                options = [f"{whole}.{d}" for d in "123456789" if f"{whole}.{d}" != old]
            else:
                n = int(old)
                options = [
                    str(v) for v in (n + 1, n + 2, n + 3, n + 5, n + 7, 2 * n, 3 * n) if v > 0
                ]
            options = [o for o in options if o != old and not _occurs(o, banned)]
            if not options:
                continue
            new = rng.choice(options)
            mutant = apply_edit(text, Edit(m.start(), m.end(), new, "altered"))
            yield mutant, f"number {old!r} altered to {new!r} (not in the context)", None
        else:
            template, units, (lo, hi) = rng.choice(_TEMPLATES)
            unit = rng.choice(units)
            numbers = _fresh_numbers(lo, hi, banned, rng, 1)
            if not numbers:
                continue
            sentence = template.format(n=numbers[0], u=unit)
            at = rng.choice(_insertion_points(text))
            mutant = _insert_sentence(text, at, sentence)
            yield mutant, f"sentence with number {numbers[0]} inserted: {sentence!r}", None


def fabricated_number(text: str, case: Case, *, seed: int) -> Mutant:
    """Introduce one quantity found nowhere in the context, question or allowed numbers.

    The seed chooses between altering a number the answer took from the context (one that is
    not part of an anchor) and inserting a new sentence; the sentence template, its unit and
    its value, and where it goes, are all drawn from the seed.

    Raises:
        MutationRefused: no candidate raised exactly one new ungrounded number.
    """
    rng = random.Random(seed)
    return _first_verified(
        "fabricated_number",
        text,
        case,
        _fabrication_candidates(text, case, rng),
        nothing="no fresh number could be drawn",
    )


# --- non_abstention -------------------------------------------------------------------------

_WH_IS = re.compile(
    r"^\s*(?:what|which)\s+(is|are|was|were)\s+(.+?)\s*\??\s*$", re.IGNORECASE | re.DOTALL
)
_WHO_IS = re.compile(r"^\s*who\s+(is|are|was|were)\s+(.+?)\s*\??\s*$", re.IGNORECASE | re.DOTALL)
_ENTITY = re.compile(r"(?<![.!?]\s)(?<!^)\b([A-Z][\w-]*(?:\s+[A-Z][\w-]*)*)(\s+[a-z]{3,})?")
_STOP = word_list("entity_noun_stop_words")


def _entities(case: Case) -> list[str]:
    """Capitalised phrases of the context (with a following noun) that the question lacks."""
    question = (case.question or "").lower()
    found: dict[str, None] = {}
    for passage in case.context:
        for m in _ENTITY.finditer(passage):
            name = m.group(1)
            if m.start() == 0 or any(ch.isdigit() for ch in m.group()):
                continue
            noun = (m.group(2) or "").strip()
            phrase = f"{name} {noun}" if noun and noun not in _STOP else name
            if phrase.lower() not in question:
                found.setdefault(phrase, None)
    return list(found)


def _confident_answers(case: Case, rng: random.Random) -> list[tuple[str, str]]:
    question = case.question or ""
    entities = _entities(case)
    answers: list[tuple[str, str]] = []
    m = _WH_IS.match(question) or _WHO_IS.match(question)
    if m is not None:
        verb, subject = m.group(1).lower(), m.group(2)
        subject = subject[:1].upper() + subject[1:]
        for entity in entities:
            answers.append((f"{subject} {verb} the same as for the {entity}.", "same-as entity"))
            answers.append((f"{subject} {verb} set by the {entity} terms.", "set-by entity"))
        answers.append((f"{subject} {verb} fixed and {verb} the same for every customer.", "fixed"))
        answers.append((f"{subject} {verb} included at no extra cost.", "included"))
    for entity in entities:
        answers.append((f"It is the same as for the {entity}, with no exceptions.", "same-as"))
    answers.append(("Yes, this is covered in full under the standard terms.", "covered"))
    return _shuffled(answers, rng)


def non_abstention(text: str, case: Case, *, seed: int) -> Mutant:
    """Replace an abstention on an unanswerable case with a confident, specific answer.

    The answer restates the question's subject and commits to something the context does not
    say (e.g. that the price equals another plan's), adding no number.

    Raises:
        MutationRefused: the case is answerable, the base does not abstain, or no confident
            answer verified.
    """
    rng = random.Random(seed)
    if case.answerable is not False:
        raise MutationRefused("non_abstention", "the case is answerable; nothing to abstain from")
    candidates = (
        (answer, f"abstention replaced by a confident answer ({how}): {answer!r}", None)
        for answer, how in _confident_answers(case, rng)
    )
    return _first_verified(
        "non_abstention", text, case, candidates, nothing="no confident answer could be built"
    )


# --- contradiction --------------------------------------------------------------------------


def _contradiction_candidates(
    text: str, case: Case, rng: random.Random
) -> Iterator[tuple[str, str, Anchor | None]]:
    known = set(digit_tokens(text))
    plain: list[str] = []
    numbered: list[str] = []
    for passage in case.context:
        for s, e in sentence_spans(passage, "whole"):
            # a parenthesis holding numbers ("(born March 2, 1991)") is dropped, not kept
            sentence = re.sub(r"\s*\([^()]*\d[^()]*\)", "", passage[s:e])
            if len(sentence.split()) < 4 or not sentence[0].isupper():
                continue
            numbers = set(digit_tokens(sentence))
            if not numbers:
                plain.append(sentence)
            elif numbers <= known:  # numbers the answer already states add no new number
                numbered.append(sentence)
    points = _insertion_points(text)
    for sentence in [*_shuffled(plain, rng), *_shuffled(numbered, rng)]:
        flips = flip_candidates(sentence)
        if not flips:
            continue
        # a negation states the opposite outright; an antonym swap only when there is none
        negations = [f for f in flips if not f.rule.startswith("antonym")]
        edit = rng.choice(negations or flips)
        flipped = apply_edit(sentence, edit)
        if flipped[-1:] not in {".", "!", "?"}:
            flipped += "."
        mutant = _insert_sentence(text, points[-1], flipped)
        yield (
            mutant,
            f"appended {flipped!r}, contradicting the context's {sentence!r} ({edit.rule})",
            None,
        )


def contradiction(text: str, case: Case, *, seed: int) -> Mutant:
    """Append a sentence that contradicts a context statement, adding no number.

    The statement is a context sentence picked by the seed (first among those without numbers,
    then among those whose numbers the answer already states), with its polarity flipped: a
    negation inserted or removed when the sentence allows one, else an antonym swapped
    (before/after, with/without, ...). The base text is kept intact.

    Raises:
        MutationRefused: the context has no flippable statement without numbers, or every
            candidate raised a deterministic finding (e.g. it negated an anchor).
    """
    rng = random.Random(seed)
    return _first_verified(
        "contradiction",
        text,
        case,
        _contradiction_candidates(text, case, rng),
        nothing="the context has no flippable statement without new numbers",
    )


# --- inversion ------------------------------------------------------------------------------


def _inversion_candidates(
    text: str, case: Case, rng: random.Random
) -> Iterator[tuple[str, str, Anchor | None]]:
    edits = flip_candidates(text, protected_spans(text, case.anchors))
    for edit in _shuffled(edits, rng):
        yield apply_edit(text, edit), f"in place, {edit.rule}", None


def inversion(text: str, case: Case, *, seed: int) -> Mutant:
    """Flip the meaning of one statement of the answer in place.

    Negation inserted or removed, an imperative negated, or an antonym swapped
    (before/after, increase/decrease, with/without, required/optional, more/less, ...); no
    anchor occurrence and no number is touched.

    Raises:
        MutationRefused: the answer has no flippable statement, or every flip raised a finding.
    """
    rng = random.Random(seed)
    return _first_verified(
        "inversion",
        text,
        case,
        _inversion_candidates(text, case, rng),
        nothing="the answer has no statement to flip outside its anchors and numbers",
    )


MUTATORS: dict[DefectClass, Mutator] = {
    "omission": omission,
    "fabricated_number": fabricated_number,
    "non_abstention": non_abstention,
    "contradiction": contradiction,
    "inversion": inversion,
}
"""Each defect class's mutator: ``mutator(base_text, case, *, seed) -> Mutant``."""
