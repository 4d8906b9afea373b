"""Sentence-level evidence for the per-claim verdicts, and the check of a supporting quote.

The judges verify one claim at a time against the few context sentences most related to it, the
way MiniCheck (Tang, Laban and Durrett, EMNLP 2024) checks each sentence of a response against
chunks of its grounding document: on the embedded 1.5B model a claim shown with the one or two
sentences it concerns is judged far better than the same claim against the whole context (asked
about a claim against the whole context, it never answered "contradicted").

- :func:`context_sentences` splits the passages into sentences (also where a period is followed
  directly by a capital letter, as in HaluEval's knowledge strings "...Group.The Oberoi...").
- :func:`related_sentences` ranks them by lexical overlap with the claim (shared content words,
  numbers counted double) and keeps the best ``k`` in context order.
- :func:`quote_in_context` decides whether a quote the model gave is really in the context: a
  normalised substring (case, whitespace, quotes and dashes folded), or at least 80 % of the
  quote's words found in order inside one context sentence. A "supported" verdict whose quote
  fails this check does not count as supported.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from hybridjudge._text import QUOTES, fold, split_sentences, word_list, word_sequence

__all__ = [
    "MAX_QUOTE_CHARS",
    "claim_sentences",
    "context_sentences",
    "has_negation",
    "normalise",
    "polarity_differs",
    "quote_covers",
    "quote_in_context",
    "ranked_sentences",
    "related_sentences",
    "shares_words",
]

MAX_QUOTE_CHARS = 200
"""Longest quote kept from a reply (the schema caps it; a longer one is cut here too)."""

_GLUED = re.compile(r"(?<=[a-z0-9)\]][.!?])(?=[A-Z])")
_WORD = re.compile(r"\w+", re.UNICODE)
_STOP = word_list("evidence_stop_words")
_MIN_QUOTE_OVERLAP = 0.8


def normalise(text: str) -> str:
    """Lower case, NFKC, typographic quotes and dashes folded, whitespace collapsed."""
    return " ".join(fold(text, QUOTES).split())


def _words(text: str) -> list[str]:
    return _WORD.findall(normalise(text))


def _stem(word: str) -> str:
    """A light stem so that "refunds"/"refund" and "increased"/"increase" meet."""
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def _content(text: str) -> set[str]:
    return {_stem(w) for w in _words(text) if w not in _STOP}


def context_sentences(passages: Sequence[str]) -> tuple[str, ...]:
    """Every sentence of every passage, in order, blank ones dropped."""
    sentences: list[str] = []
    for passage in passages:
        for sentence in split_sentences(_GLUED.sub(" ", passage), "trimmed"):
            if sentence.strip():
                sentences.append(sentence.strip())
    return tuple(sentences)


def claim_sentences(answer: str) -> list[str]:
    """The sentences of ``answer`` as claims (bullets and line breaks split too)."""
    return [s for s in split_sentences(_GLUED.sub(" ", answer), "trimmed") if _WORD.search(s)]


def ranked_sentences(claim: str, sentences: Sequence[str]) -> list[str]:
    """``sentences`` from the most to the least related to ``claim``.

    Relatedness is lexical overlap: each shared content word counts once, each shared number
    twice (a changed number is the commonest defect); ties go to the earlier sentence.
    """
    wanted = _content(claim)

    def overlap(sentence: str) -> int:
        shared = wanted & _content(sentence)
        return len(shared) + sum(1 for w in shared if w.isdigit())

    ranked = sorted(range(len(sentences)), key=lambda i: (-overlap(sentences[i]), i))
    return [sentences[i] for i in ranked]


def related_sentences(claim: str, sentences: Sequence[str], k: int = 3) -> tuple[str, ...]:
    """The ``k`` sentences most related to ``claim`` (:func:`ranked_sentences`), in the
    context's order. With ``k`` or fewer sentences, all of them are returned."""
    if len(sentences) <= k:
        return tuple(sentences)
    best = set(ranked_sentences(claim, sentences)[:k])
    return tuple(s for s in sentences if s in best)


def shares_words(claim: str, sentences: Sequence[str]) -> bool:
    """Whether some sentence shares a content word with ``claim``. When none does, the context
    is silent on the claim: it can neither state nor contradict it, and no model is asked."""
    wanted = _content(claim)
    return any(wanted & _content(sentence) for sentence in sentences)


def has_negation(text: str) -> bool:
    """Whether ``text`` holds a negation word ("not", "no", "never", "n't", "without" ...)."""
    return bool(_negations(_words(text)))


_CLAUSE = re.compile(r"[,;:()]|\b(?:" + "|".join(word_sequence("clause_joiners")) + r")\b")
_MIN_CLAUSE_OVERLAP = 2


def _clauses(text: str) -> list[str]:
    return [c for c in _CLAUSE.split(normalise(text)) if _WORD.search(c)]


def polarity_differs(claim: str, sentence: str) -> bool:
    """Whether ``claim`` and ``sentence`` say the same thing with opposite polarity: some clause
    of the claim shares at least two content words with a clause of the sentence (its best
    match) and exactly one of the two is negated.

    "A notice period of 90 days is not required" against "Either party may terminate ... upon
    ninety (90) days' prior written notice" differs; "Customers have 30 days to request a
    refund, and there is no restocking fee" against "Customers may request a full refund
    within 30 days" does not (the negated clause is about something else).
    """
    theirs = [(_content(c), has_negation(c)) for c in _clauses(sentence)]
    for clause in _clauses(claim):
        words = _content(clause)
        best = max(theirs, key=lambda t: len(words & t[0]), default=None)
        if best is None or len(words & best[0]) < _MIN_CLAUSE_OVERLAP:
            continue
        if has_negation(clause) != best[1]:
            return True
    return False


_MIN_SHARED_WORDS = 2


def quote_covers(claim: str, quote: str, *, answer: str | None = None) -> bool:
    """Whether ``quote`` is about ``claim``: it shares at least two of the claim's content words
    (all of them when the claim has fewer) and holds every number of the claim.

    A real span of the context that is about something else ("Please see your GP in 2 weeks"
    quoted for "You do not need to finish the course of antibiotics") does not support it, and
    neither does one without the claim's number ("About 11% of people improve"). ``answer``:
    the bare sentence when ``claim`` shows it as the answer to the question; the numbers are
    then the answer's (not the question's), and the quote must hold every content word of the
    answer ("DC Comics" is not supported by a quote naming "The Sandman Overture").
    """
    wanted = _content(claim)
    shared = wanted & _content(quote)
    if len(shared) < min(_MIN_SHARED_WORDS, len(wanted)):
        return False
    own = claim if answer is None else answer
    if answer is not None and not _content(answer) <= _content(quote):
        return False
    numbers = {w for w in _words(own) if w.isdigit()}
    return numbers <= {w for w in _words(quote) if w.isdigit()}


def quote_in_context(quote: str, sentences: Sequence[str]) -> bool:
    """Whether ``quote`` is really taken from the context.

    True when its normalised text is a substring of the normalised context, or when at least
    80 % of its words appear, in order, inside one context sentence (the model may drop a word
    or change punctuation), every content word of the quote among them (only small words may
    differ: "He lost two titles" is not a quote of "he won two titles"), *and* the span they
    cover has the same negations and holds every number of the quote: "Customers may not request a refund within 30 days" is not a quote
    of "Customers may request a full refund within 30 days", though 10 of its 11 words are.
    An empty quote is never in the context.
    """
    text = normalise(quote).strip(" \"'.,;:")
    if not _WORD.search(text):
        return False
    if text in normalise(" ".join(sentences)):
        return True
    words = _words(text)
    for sentence in sentences:
        other = _words(sentence)
        pairs = _aligned(words, other)
        if len(pairs) < _MIN_QUOTE_OVERLAP * len(words):
            continue
        span = other[pairs[0][1] : pairs[-1][1] + 1]
        if _negations(span) != _negations(words):
            continue
        kept = {words[i] for i, _ in pairs}
        if any(w not in _STOP and w not in kept for w in words):
            continue  # a content word of the quote is not in the sentence: "lost" for "won"
        if not {w for w in words if w.isdigit()} <= {w for w in span if w.isdigit()}:
            continue
        return True
    return False


_NEGATIONS = word_list("evidence_negations")


def _negations(words: Sequence[str]) -> set[str]:
    return {w for w in words if w in _NEGATIONS}


def _aligned(needle: list[str], haystack: list[str]) -> list[tuple[int, int]]:
    """A longest common subsequence of the two word lists, as pairs of positions (in
    ``needle``, in ``haystack``), in order."""
    n, m = len(needle), len(haystack)
    table = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            if needle[i] == haystack[j]:
                table[i][j] = table[i + 1][j + 1] + 1
            else:
                table[i][j] = max(table[i + 1][j], table[i][j + 1])
    pairs: list[tuple[int, int]] = []
    i = j = 0
    while i < n and j < m:
        if needle[i] == haystack[j]:
            pairs.append((i, j))
            i += 1
            j += 1
        elif table[i + 1][j] >= table[i][j + 1]:
            i += 1
        else:
            j += 1
    return pairs
