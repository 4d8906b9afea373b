"""Abstention: does an answer say that the context cannot answer?

Markers are phrases, normalised like every other text (NFKC, case folding, apostrophes), and
compiled once per marker set into one regular expression. Latin-script markers match on word
boundaries; markers in scripts written without spaces (Chinese, Japanese, Thai) and Korean match as
substrings, since their words attach particles and endings.

A marker written ``^phrase$`` (``"^n/a$"``, ``"^unknown$"``) matches only a whole answer, with
the punctuation, quotes, markup and an ``Answer:`` label around it ignored: ``"Unknown."`` is a
refusal, ``"The cause is unknown."`` an answer.

An answer that answers and also says a detail is missing is a *partial answer*, not a refusal.
The first marker of the answer belongs to a partial answer when the answer states something
before it (an earlier sentence, or a clause of its sentence before a semicolon or a contrast:
``"Revenue was $4.2 billion. I don't know the 2022 figure."``), when it sits in a leading
concessive clause whose main clause states something (``"Although the report does not mention
profit, revenue reached $4.2 billion."``), or when a contrast follows it and goes on to state
something (``"The report does not specify the exact date, but the plant opened in March 2019."``,
``"I don't know, but probably $499."``), or when it refuses only a detail's precision and the
next sentence states something (``"The context does not specify the exact date. The plant opened
in March 2019."``). Apologies, thanks, frames ("Based on the context"),
deflections ("Please refer to the annual report"), questions, list numbers and remarks on what the
source covers ("The context only covers revenue", "The documents discuss the Pro plan, which
includes priority support") state nothing. A claim in a sentence *after* an unhedged refusal does
not make it a partial answer, and neither does anything before a verdict that the question cannot
be answered ("The policy covers refunds; however, nothing says how long shipping takes, so I can't
say.", "..., so I cannot answer this question."). :func:`abstains` does not count a partial answer
unless asked to (``include_hedged=True``).

A marker refuses only where it stands for a refusal: not inside a condition ("If no date is
specified, the deadline is 30 days", "Falls nicht angegeben, ...", "Si no se especifica una
fecha, ..."), not about personal data ("pas d'informations personnelles"), not in another sense
("n'est pas indiqué chez l'enfant"); "it does not include" only when "it" is a source ("The
context discusses the Pro plan, but it does not include the price" refuses, "The plan is cheap,
but it does not include dental care" answers); and a German marker in the past tense reports an
event unless it speaks of the answerer, a source or finding the information ("Der Kaufpreis wurde
nicht offengelegt" answers, as English "was not disclosed" does).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable, Sequence
from functools import cache, lru_cache
from pathlib import Path

from hybridjudge.grounding._errors import GroundingInputError, GroundingTypeError
from hybridjudge.grounding._lexicon import (
    LANGUAGES,
    SUBSTRING_LANGUAGES,
    alternation,
    lexicon,
    merged,
    phrase_pattern,
)
from hybridjudge.grounding._normalize import letter_run_lists, letter_runs, normalize_plain
from hybridjudge.grounding._patterns import lazy

__all__ = [
    "DEFAULT_ABSTAIN_MARKERS",
    "MARKERS_BY_LANGUAGE",
    "TRIGGERS_FILE",
    "TRIGGERS_FORMAT",
    "MarkerSet",
    "abstains",
    "compile_markers",
    "marker_triggers",
    "phrases_digest",
    "says_something_is_missing",
    "split_markers",
]


MARKERS_BY_LANGUAGE: dict[str, tuple[str, ...]] = {
    tag: markers for lang in LANGUAGES for tag, markers in lexicon(lang).refusals.items()
}
"""Built-in abstention markers per language (BCP 47 tags): the ``refusals`` of the lexicons
(``data/lexicon/<language>.json``; ``docs/lexicons.md`` says how to add one)."""

DEFAULT_ABSTAIN_MARKERS: tuple[str, ...] = tuple(
    dict.fromkeys(m for ms in MARKERS_BY_LANGUAGE.values() for m in ms)
)
"""Every built-in marker. Add your own with ``(*DEFAULT_ABSTAIN_MARKERS, "my phrase")`` or
replace them by passing only yours."""


def _latin_word_char(ch: str) -> bool:
    return ch.isalnum() and ord(ch) < 0x0250


def _phrase(marker: str) -> str:
    """A marker (or a marker's match) as its set keeps it: normalised, single spaces."""
    return " ".join(normalize_plain(marker).split())


_GAP = " ... "
"""A gap in a marker (``der kontext nennt ... nicht.``; ``…`` normalises to it): one to
:data:`_GAP_WORDS` words of the same clause."""
_GAP_WORDS = 8
_GAP_PATTERN = rf"(?:\s+[^\s.,;:!?]+){{1,{_GAP_WORDS}}}?\s+"


def _marker_pattern(marker: str) -> str:
    text = _phrase(marker)
    body = _GAP_PATTERN.join(
        r"\s+".join(re.escape(w) for w in part.split(" ")) for part in text.split(_GAP)
    )
    tail = r"(?!\w)" if _latin_word_char(text[-1]) else ""
    if _latin_word_char(text[0]) and body[0] == text[0]:
        # Word boundary before the first character, written after it so the pattern starts with
        # a literal (much faster to search).
        return body[0] + r"(?<!\w.)" + body[1:] + tail
    return body + tail


class MarkerSet:
    """A compiled set of abstention markers.

    Searching one alternation of ~200 phrases at every position is slow in Python's regex
    engine, so markers are grouped by a *trigger*: their longest run of ASCII letters. A group is
    searched only when its trigger is among the letter runs of the text (which the quantity scan
    computes anyway). Markers without ASCII letters (Chinese, Japanese, Korean, Thai) are searched
    only in non-ASCII texts. Markers written ``^phrase$`` match only a whole (short) answer.
    """

    __slots__ = (
        "_groups",
        "_needs",
        "_other_markers",
        "_other_starts",
        "_others",
        "_sources",
        "_triggers",
        "_whole",
        "_whole_source",
        "markers",
    )

    def __init__(self, markers: tuple[str, ...]) -> None:
        self.markers = markers
        grouped: dict[bytes | None, list[str]] = {}
        phrases, whole = split_markers(markers)
        # Each marker's trigger (marker_triggers), read from the file written beforehand when
        # these are the built-in markers, as they are in most processes; no set of runs is
        # built here (most groups never meet a text that holds their trigger: see _needs_of).
        triggers = _stored_triggers(phrases) or marker_triggers(phrases)
        for m, trigger in zip(phrases, triggers, strict=True):
            grouped.setdefault(trigger, []).append(m)
        # One expression per trigger, compiled on the first text that has the trigger (most
        # texts trigger a few of the ~100 groups; compiling them all is most of the cost of a
        # one-case `hybridjudge check`).
        self._sources = {t: ms for t, ms in grouped.items() if t is not None}
        self._groups: dict[bytes, _Group] = {}
        # A group is searched only if all letter runs of one of its markers are in the text:
        # those sets, per trigger, made on the first text that holds the trigger.
        self._needs: dict[bytes, list[frozenset[bytes]]] = {}
        # Markers without ASCII letters: compiled on the first non-ASCII text that holds the
        # first character of one of them (a curly quote or a dash is no reason to compile them).
        self._other_markers = grouped.get(None) or []
        self._others: re.Pattern[str] | None = None
        self._other_starts: re.Pattern[str] | None = None
        self._triggers = frozenset(self._sources)
        # Punctuation, quotes and markup around a whole answer are ignored ("**N/A**", "Unknown."),
        # and so is a label before it ("Answer: N/A"); compiled on the first answer short enough
        # to be one.
        self._whole_source = (
            rf"[\W_]*(?:{_ANSWER_LABEL}[\W_]*)?(?:{_bodies(whole)})[\W_]*\Z" if whole else None
        )
        self._whole: re.Pattern[str] | None = None

    def _other(self, text: str) -> re.Pattern[str] | None:
        """The expression of the markers without ASCII letters, if any and ``text`` is not ASCII."""
        if not self._other_markers or text.isascii():
            return None
        if self._other_starts is None:
            # every match starts with its marker's first character (a marker that normalises
            # to nothing adds "", which matches anywhere, as its expression would)
            starts = sorted({_phrase(m)[:1] for m in self._other_markers})
            self._other_starts = re.compile("|".join(map(re.escape, starts)))
        if self._other_starts.search(text) is None:
            return None
        if self._others is None:
            self._others = _alternation(self._other_markers)
        return self._others

    def _needs_of(self, trigger: bytes) -> list[frozenset[bytes]]:
        """The letter runs of each marker of ``trigger``'s group, in its order (made once)."""
        needs = self._needs.get(trigger)
        if needs is None:
            needs = self._needs[trigger] = [
                letter_runs(normalize_plain(m)) for m in self._sources[trigger]
            ]
        return needs

    def _group(self, trigger: bytes) -> _Group:
        """The expression of the markers whose trigger is ``trigger`` (compiled once)."""
        group = self._groups.get(trigger)
        if group is None:
            group = self._groups[trigger] = _Group(trigger.decode(), self._sources[trigger])
        return group

    def search(
        self,
        text: str,
        words: frozenset[bytes] | None = None,
        *,
        include_hedged: bool = False,
    ) -> re.Match[str] | None:
        """The first marker found in the *normalised* ``text`` that refuses where it stands
        (:func:`_refuses_here`; ``None``: no abstention).

        ``words`` is the set of ASCII letter runs of ``text`` (:func:`letter_runs`) when the
        caller has it. Markers ending in a full stop also match at the very end of the text;
        ``^phrase$`` markers match only the whole text. Unless ``include_hedged``, ``None`` when
        the first marker belongs to a partial answer (see :func:`abstains`): the text answers,
        so later markers only refuse details of it.
        """
        if self._whole_source is not None and len(text) <= _WHOLE_ANSWER_MAX:
            if self._whole is None:
                self._whole = re.compile(self._whole_source)
            whole = self._whole.match(text)
            if whole is not None:
                return whole
        if words is None:
            words = letter_runs(text)
        text += "."  # so that sentence-final markers match an answer without a final stop
        triggered: list[_Searcher] = [
            self._group(t)
            for t in words & self._triggers  # a frozenset: iterates the smaller side
            if any(need <= words for need in self._needs_of(t))
        ]
        other = self._other(text)
        if other is not None:
            triggered.append(other)
        found: list[tuple[re.Match[str], _Searcher]] | None = None  # most texts: none
        for pattern in triggered:
            m = pattern.search(text)
            if m is not None:
                if found is None:
                    found = []
                found.append((m, pattern))
        first: re.Match[str] | None = None
        while found:
            i = min(range(len(found)), key=lambda k: found[k][0].start())
            m, pattern = found[i]
            if _refuses_here(text, m):
                first = m
                break
            # Rare: the earliest marker states a condition, reports an event... (see
            # :func:`_refuses_here`): that expression goes on from its next character.
            later = pattern.search(text, m.start() + 1)
            if later is None:
                del found[i]
            else:
                found[i] = (later, pattern)
        if first is None or include_hedged or not self._hedged(text, first):
            return first
        return None

    def _matches(self, text: str, words: frozenset[bytes]) -> list[re.Match[str]]:
        """Every marker occurrence in ``text`` (already ending in a full stop) that refuses where
        it stands (:func:`_refuses_here`), in text order."""
        found: list[re.Match[str]] = []
        for trigger in words & self._triggers:
            if not any(need <= words for need in self._needs_of(trigger)):
                continue
            found.extend(_scan(self._group(trigger), text))
        other = self._other(text)
        if other is not None:
            found.extend(_scan(other, text))
        found.sort(key=lambda m: m.start())
        return found

    def _refuses(self, text: str) -> bool:
        """Whether ``text`` (a stretch of the answer) holds a marker, hedged or not."""
        return bool(self._matches(text + ".", letter_runs(text)))

    def _hedged(self, text: str, m: re.Match[str]) -> bool:
        """Whether the first marker ``m`` of ``text`` belongs to a partial answer, one that still
        answers, on any of four counts:

        1. the text before it states something: an earlier sentence, or a clause of its own
           sentence before a contrast or a semicolon (``"Revenue was $4.2 billion. I don't
           know the 2022 figure."``, ``"Revenue was $4.2 billion; however, the context does
           not provide the growth rate."``);
        2. it sits in a leading concessive clause whose main clause states something
           (``"Although the report does not mention profit, revenue reached $4.2 billion."``);
        3. a contrast follows it (in its sentence, or opening the next one) and goes on to state
           something (``"... does not specify the exact date, but the plant opened in 2019."``);
        4. its sentence refuses only a detail's precision and the next one states something
           (:meth:`_precision_then_answer`);

        unless the answer, from that marker on, concludes that it cannot answer the question
        (:meth:`_concludes`: ``"The policy covers refunds; however, nothing says how long
        shipping takes, so I can't say."``): what it stated was not the answer.

        What "states something" means is :func:`_asserts`; a stretch that holds a marker itself
        never counts.
        """
        return self._answers_around(text, m) and not self._concludes(text, m.start())

    def _answers_around(self, text: str, m: re.Match[str]) -> bool:
        """Counts 1 to 4 of :meth:`_hedged`."""
        # Positions, not slices of the rest of the text: linear in the text.
        begin = 0
        for stop in _SENTENCE_END.finditer(text, 0, m.start()):
            if stop.group() not in "?？" and _asserts(text[begin : stop.start()]):
                return True
            begin = stop.end()
        head = text[begin : m.start()]  # the marker's sentence up to the marker
        last_break = -1
        for brk in _HEAD_BREAK().finditer(head):
            last_break = brk.start()
        if last_break > 0 and _asserts(head[:last_break]):
            return True
        concessive = _CONCESSIVE().match(head)
        if concessive is not None:
            # "Although revenue was $4.2 billion, the context does not give ...": the clause
            # before the marker (not after "while", often temporal: "While I was reading the
            # documents, I could not find ..."); "Although the context does not give ...,
            # revenue was ...": the main clause after it.
            closed = _CLAUSE_END.search(head, concessive.end())
            if (
                closed is not None
                and concessive.group().strip() not in ("while", "whilst")
                and _asserts(head[concessive.end() : closed.start()])
            ):
                return True
            after = _SENTENCE_END.search(text, m.end())
            end = after.end() if after else len(text)
            main = _CLAUSE_END.search(text, m.end(), end)
            if main is not None:
                rest = text[main.end() : end]
                if _asserts(rest) and not self._refuses(rest):
                    return True
        return self._contrast_answers(text, m.end()) or self._precision_then_answer(text, m)

    def _precision_then_answer(self, text: str, m: re.Match[str]) -> bool:
        """Whether the marker's sentence refuses only a detail's precision (``exact``,
        ``precise``) and the next sentence states something that is no refusal (count 4 of
        :meth:`_hedged`: ``"The context does not specify the exact date. The plant opened in
        March 2019."``)."""
        after = _SENTENCE_END.search(text, m.end())
        if after is None:
            return False
        begin = _since(_LAST_SENTENCE_END(), text, m.start())
        if _PRECISION_WORD().search(text, begin, after.start()) is None:
            return False
        stop = _SENTENCE_END.search(text, after.end())
        following = text[after.end() : stop.end() if stop else len(text)]
        return _asserts(following) and not self._refuses(following)

    def _contrast_answers(self, text: str, pos: int) -> bool:
        """Whether a contrast after ``pos`` (in its sentence, or opening the next one) goes on
        to state something that is no refusal (count 3 of :meth:`_hedged`)."""
        after = _SENTENCE_END.search(text, pos)
        end = after.end() if after else len(text)
        cut = _CONTRAST_IN().search(text, pos, end)
        if cut is not None:
            continuation = text[cut.end() : end]
        else:
            start = _CONTRAST_OPENS().match(text, end)
            if start is None:
                return False
            stop2 = _SENTENCE_END.search(text, start.end())
            continuation = text[start.end() : stop2.end() if stop2 else len(text)]
        return _asserts(continuation) and not self._refuses(continuation)

    def _concludes(self, text: str, pos: int) -> bool:
        """Whether ``text`` from ``pos`` on says, as its verdict, that it cannot answer the
        question: a refusal of the whole question (``"I cannot answer this question."``,
        ``"I am unable to provide an answer based on the context."``), or a bare "I can't say"
        or "I don't know" drawn as a conclusion (``"..., so I can't say."``, ``"Therefore, I
        don't know."``), with nothing after it in the clause but a source (``"... from the
        provided documents"``), not in a condition or a leading concessive clause, and not
        followed by a contrast that answers (``"I cannot answer, but it is probably $499."``).
        A refusal of a detail (``"I can't say how it grew"``) or of certainty (``"I can't say
        for sure"``) is no verdict."""
        # From the sentence of ``pos`` on: a verdict may hold the marker at ``pos`` ("daher kann
        # ich die Frage nicht beantworten").
        for v in _VERDICT().finditer(text, _since(_LAST_SENTENCE_END(), text, pos)):
            start = v.start()
            weak = v.lastgroup in ("weak", "weak_cjk")
            if weak and _CONCLUSION_BEFORE().search(text, max(0, start - 60), start) is None:
                continue
            if _conditional(text, _since(_LAST_CLAUSE_BREAK(), text, start), start, v.end()):
                continue
            sentence = _since(_LAST_SENTENCE_END(), text, start)
            concessive = _CONCESSIVE().match(text, sentence, start)
            if concessive is not None and _CLAUSE_END.search(text, concessive.end(), start) is None:
                continue
            if not self._contrast_answers(text, v.end()):
                return True
        return False


_WHOLE_ANSWER_MAX = 200
"""Longest text tried against the whole-answer (``^phrase$``) markers."""
_LATIN = tuple(lang for lang in LANGUAGES if lang not in SUBSTRING_LANGUAGES)
"""The languages whose phrases match on word boundaries (the others: as substrings)."""


def _words(field: str, languages: Iterable[str] = LANGUAGES) -> tuple[str, ...]:
    """The phrases of ``answers.<field>`` of the lexicons over ``languages`` (written as the
    normalised texts they are matched in: ``gemäss``, ``tests/grounding/test_lexicon.py``)."""
    return merged(f"answers.{field}", languages)


def _alt(field: str, languages: Iterable[str] = LANGUAGES, *, space: str | None = None) -> str:
    """An :func:`alternation` of the phrases of ``answers.<field>`` (:func:`_words`)."""
    return alternation(_words(field, languages), space=space)


_SPACE = r"\s+"
"""How a space inside a phrase matches where any spacing may stand."""
_ANSWER_LABEL = rf"(?:{_alt('labels')})\s*:"
"""A label before a whole answer (``Answer: N/A``)."""


def split_markers(markers: Iterable[str]) -> tuple[list[str], list[str]]:
    """``markers`` without repeats as (phrases, whole answers): the markers matched anywhere,
    and the bodies of those written ``^phrase$``, each in order."""
    phrases: list[str] = []
    whole: list[str] = []
    for m in dict.fromkeys(markers):
        if _is_whole_answer(m):
            whole.append(m[1:-1])
        else:
            phrases.append(m)
    return phrases, whole


def marker_triggers(phrases: Sequence[str]) -> list[bytes | None]:
    """The trigger of each of ``phrases`` (markers not written ``^phrase$``): the longest
    letter run (:func:`~hybridjudge.grounding._normalize.letter_runs`) of its normalised form,
    the first in byte order of the longest (a run listed twice changes neither); ``None`` for
    a marker without one. Of a marker with a gap, of its part before the first gap:
    :class:`_Group` reaches back from the trigger over what the phrase writes before it, and
    a gap writes no length."""
    runs_of = letter_run_lists([normalize_plain(m).partition(_GAP)[0] for m in phrases])
    return [_trigger(runs) for runs in runs_of]


TRIGGERS_FILE = Path(__file__).parent / "data" / "marker_triggers.json"
"""The built-in markers' triggers (:func:`marker_triggers`), written beforehand by
``scripts/marker_triggers.py``: computing them normalises each of the ~8,400 markers, about
15 ms of every process's first check. Read only while it holds the triggers of the markers
being compiled (:func:`phrases_digest`); any other set, a lexicon edited since included, has
its triggers computed. ``tests/grounding/test_marker_triggers.py`` fails when the file is
behind the lexicons or the code."""
TRIGGERS_FORMAT = 1


def phrases_digest(phrases: Sequence[str]) -> str:
    """The SHA-256 of ``phrases`` in order (what :data:`TRIGGERS_FILE` was written for)."""
    return hashlib.sha256("\n".join(phrases).encode("utf-8", "surrogatepass")).hexdigest()


@cache
def _triggers_file() -> tuple[int, str, tuple[bytes | None, ...]] | None:
    """:data:`TRIGGERS_FILE` as (count, digest, triggers), read once; ``None`` when it is
    missing or not of this format (the triggers are computed then)."""
    try:
        data = json.loads(TRIGGERS_FILE.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format_version") != TRIGGERS_FORMAT:
        return None
    digest, triggers = data.get("markers_sha256"), data.get("triggers")
    if not isinstance(digest, str) or not isinstance(triggers, list):
        return None
    if not all(t is None or isinstance(t, str) for t in triggers):
        return None
    stored = tuple(t.encode("ascii", "replace") if t is not None else None for t in triggers)
    return len(stored), digest, stored


def _stored_triggers(phrases: list[str]) -> Sequence[bytes | None] | None:
    """The triggers of :data:`TRIGGERS_FILE` if it was written for ``phrases``, else ``None``."""
    stored = _triggers_file()
    if stored is None or stored[0] != len(phrases) or not phrases:
        return None
    return stored[2] if stored[1] == phrases_digest(phrases) else None


def _trigger(runs: list[bytes]) -> bytes | None:
    """A marker's trigger among its letter ``runs``: the longest, the first in byte order of
    the longest (``None``: no run). A loop, not ``max(sorted(runs), key=len)``: it runs for each
    of the ~8,400 built-in markers when the set is built, at every process's first check."""
    if not runs:
        return None
    best = runs[0]
    for run in runs:
        if len(run) > len(best) or (len(run) == len(best) and run < best):
            best = run
    return best


def _is_whole_answer(marker: str) -> bool:
    """Whether ``marker`` is written ``^phrase$`` (matches only a whole answer)."""
    return len(marker) > 2 and marker[0] == "^" and marker[-1] == "$" and bool(marker[1:-1].strip())


def _bodies(phrases: list[str]) -> str:
    """An alternation of the normalised ``phrases``, longest first, any spacing between words."""
    texts = sorted({_phrase(p) for p in phrases}, key=len, reverse=True)
    return "|".join(r"\s+".join(re.escape(w) for w in t.split(" ")) for t in texts)


# Sentence ends: . ! ? and their CJK forms (not a decimal point), or a line break.
_SENTENCE_END = re.compile(r"[.!?。！？](?!\d)|\n")
_PRECISION_WORD = lazy(rf"(?<!\w)(?:{alternation(merged('precision'))})(?!\w)")
"""Words with which a refusal refuses only a detail's precision (see ``_precision_then_answer``):
``exact``, ``exacte``, ``exacta``, ``genaue``."""
_CONTRAST_WORDS = alternation(
    merged("contrast", (lang for lang in LANGUAGES if lang not in SUBSTRING_LANGUAGES))
)
_CONTRAST_CJK = alternation(merged("contrast", SUBSTRING_LANGUAGES))
_CONTRAST_OPENERS = alternation(merged("contrast_openers"))
# A contrast inside the marker's sentence: a contrast word or a semicolon.
_CONTRAST_IN = lazy(rf"(?<!\w)(?:{_CONTRAST_WORDS})(?!\w)|;|{_CONTRAST_CJK}")
# A contrast opening the next sentence ("However, ...", "Still, ...", "但是...").
_CONTRAST_OPENS = lazy(
    rf"(?i)\s*(?:(?:{_CONTRAST_WORDS}|{_CONTRAST_OPENERS})(?!\w)|{_CONTRAST_CJK})"
)
# What separates a statement from a refusal that follows it in the same sentence ("Revenue was
# $4.2 billion; however, the context ..."): a semicolon or a contrast. A comma alone does not:
# "The salary, bonus and options are not mentioned." is one refusal.
_HEAD_BREAK = lazy(
    rf";|(?<!\w)(?:{_alt('head_breaks', _LATIN)})(?!\w)|{_alt('head_breaks', SUBSTRING_LANGUAGES)}"
)
# A sentence opening with a concessive subordinate clause ("Although ..., <main clause>").
_CONCESSIVE = lazy(
    rf"\s*(?:(?:{_alt('concessive', _LATIN)})(?!\w)|{_alt('concessive', SUBSTRING_LANGUAGES)})"
)
# The end of a clause: a comma (not a thousands or decimal one), a semicolon or a dash.
_CLAUSE_END = re.compile(r",(?!\d)|;|、|\s-\s")
# A continuation that only points elsewhere ("but you can check the website", "However, I can
# suggest ...") does not answer.
_DEFLECTION = lazy(
    r"[\s,]*(?:"
    rf"(?:{_alt('first_person')}) (?:{_alt('offer_modals')})(?: \w+)? (?:{_alt('offer_verbs')})|"
    rf"(?:{_alt('second_person')}) (?:{_alt('advice_modals')})(?: \w+)? "
    rf"(?:{_alt('advice_verbs')})|"
    rf"(?:{_alt('deflection_imperatives')})\b|{_alt('deflections')}"
    r")"
)
# Clauses that state nothing about the question, dropped whole: apologies, thanks, greetings,
# "I have reviewed the documents", "Regarding your question", "As an AI ...".
_REVIEWED = (
    rf"(?:{_alt('first_person')}) (?:(?:{_alt('review_auxiliaries')}) )?"
    rf"(?:(?:{_alt('review_adverbs')}) )?(?:{_alt('reviewed')})"
)
"""``I have carefully reviewed`` (the documents): a filler."""
_FILLER = lazy(
    rf"\s*(?:(?:{_alt('fillers', _LATIN)}|{_REVIEWED})(?![\w'-])|"
    rf"{_alt('fillers', SUBSTRING_LANGUAGES)})"
)
# A frame before what a clause states ("Based on the provided context, ...", "Según el
# texto, ..."), dropped from the clause.
_SOURCE_NOUNS = _alt("source_nouns", _LATIN)
_FRAME_GLUE = {"zh": "[^,。]{0,12}?", "ja": "", "ko": " "}
"""What stands between a frame's opener and its source noun in the languages written without
spaces (``根据提供的文档``, ``提供された資料``, ``제공된 문서``)."""


def _frame_without_spaces(language: str) -> str:
    """A frame in ``language`` (a key of :data:`_FRAME_GLUE`): opener, source, particle."""
    return (
        rf"(?:{_alt('frame_openers', (language,))}){_FRAME_GLUE[language]}"
        rf"(?:{_alt('source_nouns', (language,))})(?:{_alt('frame_after', (language,))})?"
    )


_FRAME = lazy(
    rf"\s*(?:(?:{_alt('frame_openers', _LATIN)})"
    rf"\s+(?:\S+\s+){{0,3}}?(?:{_SOURCE_NOUNS})(?!\w)(?:\s+(?:{_alt('frame_qualifiers')}))?"
    + "".join(f"|{_frame_without_spaces(lang)}" for lang in _FRAME_GLUE)
    + ")"
)
# A remark on what the source is about, not what it says: "The context only covers revenue and
# headcount", "It mainly discusses the merger", "The documents provide details about the Pro
# plan" (but "The report mentions that ..." states, as "According to the report, ..." does).
_SOURCE_PRONOUNS = _words("source_pronouns")
_META = lazy(
    rf"\s*(?:(?:{_alt('source_determiners')}) )?(?:(?:{_alt('source_adjectives')}) )?"
    rf"(?:{_alt('source_nouns', ('en',))}|{_alt('source_pronouns')})"
    rf"(?: (?:{_alt('remark_qualifiers')}))?(?: (?:{_alt('remark_adverbs')}))? "
    rf"(?:{_alt('remark_verbs')}|(?:{_alt('listing_verbs')})"
    rf"(?! (?:{_alt('listing_not_before')}))|(?:{_alt('remark_having')}) "
    rf"(?:(?:{_alt('remark_amounts')}) )?(?:{_alt('remark_objects')}))"
    r"(?!\w)(?! that)"
)
_CONNECTOR = lazy(
    rf"(?:\s*(?:(?:{_alt('connectors', _LATIN)})(?![\w'-])|"
    rf"{_alt('connectors', SUBSTRING_LANGUAGES)})[\s,]*){{0,3}}"
)
# A clause that is only a list number ("1" of "1. The context does not ...").
_ENUMERATOR = re.compile(r"[\W_]*\d{1,2}[\W_]*")
_CLAUSE_BREAK = lazy(r"[,;:、]|\s-\s")


@lru_cache(maxsize=4096)  # answers repeat sentences ("Sorry." ...): each is analysed once
def _asserts(text: str) -> bool:
    """Whether ``text``, a stretch of an answer without a marker, states something: it is not a
    question, and once the clauses that state nothing about the question are dropped (fillers
    such as apologies, thanks, greetings and "I have reviewed the documents"; deflections such
    as "Please consult the annual report"; remarks on what the source covers, with the rest of
    their clause up to a semicolon: "The context mentions the trial, the discounts, ..."; list
    numbers) and frames cut ("Based on the context, ..."), what is left says something
    (:func:`_says_something`: a figure, or two words)."""
    text = text.strip()
    if text.endswith(("?", "？")):
        return False
    kept: list[str] = []
    for part in text.split(";"):
        for clause in _CLAUSE_BREAK().split(part):
            connector = _CONNECTOR().match(clause)
            if connector is not None:
                clause = clause[connector.end() :]
            frame = _FRAME().match(clause)
            if frame is not None:
                clause = clause[frame.end() :]
            if _META().match(clause):
                if clause.lstrip().split(" ", 1)[0] in _SOURCE_PRONOUNS:
                    continue  # "It covers dental care, vision and hearing" may be the product
                # A remark on the source runs on to the semicolon: its list or relative clause
                # says what the source covers ("The documents discuss the Pro plan, which
                # includes priority support, ...", "The context mentions the trial, the
                # discounts, ...").
                break
            if (
                _FILLER().match(clause)
                or _DEFLECTION().match(clause)
                or _ENUMERATOR.fullmatch(clause)
            ):
                continue
            kept.append(clause)
    return _says_something(" ".join(kept))


def _says_something(text: str) -> bool:
    """At least two words (or, in scripts without spaces, two letters) or a figure."""
    if any(ch.isdigit() for ch in text):
        return True
    words = [w for w in re.findall(r"\w+", text) if len(w) > 1 or not w.isascii()]
    return len(words) >= 2 or (len(words) == 1 and not words[0].isascii() and len(words[0]) >= 2)


# --- Verdicts: an answer that concludes it cannot answer the question --------------------------
# Their words are phrase patterns of the lexicons (``answers.strong_verdicts``, ...:
# ``no {puedo|podemos} {responder|contestar}``, :func:`phrase_pattern`), not phrase lists: the
# phrases they stand for would make a pattern ten times as long, 50 ms to compile.


def _verdicts(field: str, languages: Sequence[str]) -> str:
    """The phrase patterns of ``answers.<field>`` over ``languages`` as one alternation, in the
    order written (the languages' in :data:`LANGUAGES` order); empty when none writes one."""
    substring = all(lang in SUBSTRING_LANGUAGES for lang in languages)
    return "|".join(phrase_pattern(p, substring=substring) for p in _words(field, languages))


def _unable(field: str) -> list[str]:
    """``answers.unable`` then ``answers.<field>`` (``I can't`` + ``answer``), as an
    alternative of a verdict; none when either is empty."""
    unable, after = _verdicts("unable", _LATIN), _verdicts(field, _LATIN)
    return [rf"(?:{unable})\s+(?:{after})"] if unable and after else []


def _either(*alternatives: str) -> str:
    """An alternation of the non-empty ``alternatives``; one that never matches when all are
    empty (a package with no verdicts)."""
    return "|".join(a for a in alternatives if a) or r"(?!)"


# A refusal of the whole question, a verdict wherever it stands.
_VERDICT_STRONG = _either(*_unable("unable_answer"), _verdicts("strong_verdicts", _LATIN))
# A bare "I can't say" or "I don't know": a verdict only when drawn as a conclusion
# ("..., so I can't say."); after a statement and "but" it is a disclaimer on that statement.
_VERDICT_WEAK = _either(*_unable("unable_say"), _verdicts("weak_verdicts", _LATIN))
# Chinese, Japanese, Korean and Thai (no word boundaries: their verbs attach endings).
_VERDICT_STRONG_CJK = _either(_verdicts("strong_verdicts", SUBSTRING_LANGUAGES))
_VERDICT_WEAK_CJK = _either(_verdicts("weak_verdicts", SUBSTRING_LANGUAGES))
# What may follow a verdict in its clause: the question, then the source, then "at this time".
_QUESTION_TAIL = (
    rf"(?:\s+(?:(?:{_alt('question_prepositions')})\s+)?(?:{_alt('question_determiners')})\s+"
    rf"(?:{_alt('question_nouns')}))?"
)
_SOURCE_TAIL = (
    rf"(?:\s*,?\s*(?:{_alt('tail_openers', space=_SPACE)})\s+(?:\S+\s+){{0,4}}?"
    rf"(?:{_SOURCE_NOUNS}|{_alt('data_nouns')})(?!\w)(?:\s+(?:{_alt('tail_qualifiers')}))?)?"
    rf"(?:\s+(?:{_alt('tail_times', space=_SPACE)}))?"
)
# The end of the verdict's clause; not a comma that opens what is not known ("Ich weiß nicht,
# ob ...").
_VERDICT_END = (
    rf"(?=\s*(?:[.!?;。！？；\n]|[,，](?!\s*(?:{_alt('open_questions')}|"
    rf"(?:{_alt('open_question_stems')})\w*)(?!\w))))"
)
_VERDICT = lazy(
    rf"(?:(?<![\w'])(?P<strong>{_VERDICT_STRONG}){_QUESTION_TAIL}"
    rf"|(?P<strong_cjk>{_VERDICT_STRONG_CJK})"
    rf"|(?<![\w'])(?P<weak>{_VERDICT_WEAK})"
    rf"|(?P<weak_cjk>{_VERDICT_WEAK_CJK})){_SOURCE_TAIL}{_VERDICT_END}"
)
# A conclusion just before a weak verdict: "..., so (unfortunately) I can't say", "...ため、".
_CONCLUSION_BEFORE = lazy(
    rf"(?:(?<![\w'])(?:{_alt('conclusions', _LATIN, space=_SPACE)})(?:\s+that)?[\s,]*"
    rf"(?:(?:{_alt('regrets', space=_SPACE)})[\s,]*)?|"
    rf"(?:{_alt('conclusions', SUBSTRING_LANGUAGES)})[\s,，、]*)\Z"
)
"""A verdict whose group is ``weak`` or ``weak_cjk`` counts only after one of these."""


# --- Markers that do not refuse where they stand ---------------------------------------------
_LOOKBACK = 200
"""How far back (characters) the clause or sentence of a marker is looked for."""
_LAST_CLAUSE_BREAK = lazy(r"(?s:.*)(?:[,;:!?。！？、；\n]|\.(?!\d)|\s-\s)")
_LAST_SENTENCE_END = lazy(r"(?s:.*)(?:[!?。！？\n]|\.(?!\d))")


def _since(last_break: re.Pattern[str], text: str, pos: int) -> int:
    """Where the clause or sentence holding ``pos`` opens (``last_break``: what closes one),
    looking back at most :data:`_LOOKBACK` characters."""
    lo = max(0, pos - _LOOKBACK)
    m = last_break.match(text, lo, pos)
    return m.end() if m is not None else lo


# A condition ("If no date is specified, ...", "Falls nicht angegeben, ...", "Si no se especifica
# una fecha, ..."), not a concession ("even if", "auch wenn", "même si", "si bien"); in a script
# written without spaces, a condition word anywhere before the marker in its clause ("如果上下文
# 没有提供..."), or one that closes the condition right after it ("記載されていない場合").
_CONDITION_WORDS = alternation(merged("condition", _LATIN), space=r"\s+")
_CONDITION_GLUED = alternation(merged("condition", SUBSTRING_LANGUAGES))
_CONCESSION_AFTER = alternation(merged("concession_after"))
_CONDITION = lazy(
    r"(?:(?<![\w'-])"
    + "".join(rf"(?<!{re.escape(w)} )" for w in merged("concession_before"))
    + rf"(?:{_CONDITION_WORDS})(?![\w'-])(?!\s+(?:{_CONCESSION_AFTER})(?!\w))"
    + rf"|{_CONDITION_GLUED})"
)
_CONDITION_AFTER = lazy(alternation(merged("condition_after"), space=r"\s*"))


def _conditional(text: str, clause: int, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` (a marker, a verdict) stands in a condition: a condition
    word before it in its clause (from ``clause`` on), or one closing the condition right after
    it (``condition_after``)."""
    return (
        _CONDITION().search(text, clause, start) is not None
        or _CONDITION_AFTER().match(text, end) is not None
    )


# What a missing-information marker is followed by when it speaks of personal data, not of the
# source: "Nous ne vendons pas d'informations personnelles", "Der Anbieter gibt keine
# Informationen an Dritte weiter", "No hay información personal almacenada en el dispositivo".
_PERSONAL_DATA_AFTER = lazy(rf"\s+(?:{_alt('personal_data_after', space=_SPACE)})(?![\w'-])")
# "indicated" in the medical sense: "Le médicament n'est pas indiqué chez l'enfant", "No se
# indica su uso durante el embarazo".
_SENSE_AFTER: dict[str, Callable[[], re.Pattern[str]]] = {
    marker: lazy(rf"\s+(?:{_alt('indicated_for', (lang,), space=_SPACE)})(?![\w'-])")
    for lang in LANGUAGES
    for marker in _words("indicated", (lang,))
}
"""Built-in markers that have another sense when these follow them."""

# German: who did not find out. A refusal speaks of the answerer ("ich", "wir"), of a source
# ("im Text", "in den Unterlagen") or of finding the information ("Es konnten keine Informationen
# gefunden werden"); with none of them, a marker in the past tense reports an event ("Der
# Kaufpreis wurde nicht offengelegt", "Die Todesursache konnte nicht festgestellt werden"), as
# English "was not disclosed" is no marker, and an active "cannot find out" has another subject
# ("Der Kundendienst kann Fragen zur Abrechnung nicht beantworten"), as English "could not
# locate" counts only in the first person.
_DE_SOURCE = lazy(
    rf"(?<!\w)(?:{_alt('refusal_subjects', ('de',))}|"
    rf"(?:{_alt('refusal_subject_stems', ('de',))})\w*)(?!\w)"
)
_DE_FINDING = lazy(rf"(?<!\w)(?:{_alt('refusal_findings', ('de',))})(?!\w)")
_DE_PAST = lazy(
    r"(?<!\w)(?:wurden?|worden|waren?|konnten?|hatten?|hat|haben|machten?|gaben?|lagen?)(?!\w)"
)
_DE_REFLEXIVE = lazy(r"(?<!\w)sich(?!\w)")
_DE_ACTIVE = frozenset(lexicon("de").refusal_classes["active"])
"""German markers whose verb has a subject who did not find out."""


@cache
def _de_who() -> frozenset[str]:
    """German markers that do not name a source themselves (checked by
    :func:`_german_refuses`)."""
    return frozenset(
        _phrase(m)
        for m in MARKERS_BY_LANGUAGE["de"]
        if not _is_whole_answer(m) and _DE_SOURCE().search(_phrase(m)) is None
    )


def _german_refuses(text: str, m: re.Match[str], phrase: str, clause: int) -> bool:
    """Whether the German marker ``m`` (``phrase``) speaks of the answerer, a source or finding
    the information, or else is in the present tense (and, for an active "cannot find out", has
    a reflexive subject: "lässt sich nicht bestimmen")."""
    start, end = m.span()
    sentence = _since(_LAST_SENTENCE_END(), text, start)
    stop = _SENTENCE_END.search(text, end, end + _LOOKBACK)
    close = stop.start() if stop is not None else min(len(text), end + _LOOKBACK)
    around = f"{text[sentence:start]} {text[end:close]}"
    if _DE_SOURCE().search(around) is not None or _DE_FINDING().search(around) is not None:
        return True
    if phrase in _DE_ACTIVE:
        return _DE_REFLEXIVE().search(around) is not None
    closed = _CLAUSE_BREAK().search(text, end, close)
    clause_text = f"{text[clause:start]} {text[end : closed.start() if closed else close]}"
    return _DE_PAST().search(clause_text) is None


_EN_PRONOUN_MARKERS = frozenset(_phrase(m) for m in lexicon("en").refusal_classes["pronoun"])
# A sentence whose subject is a source: "The provided context discusses ...", "While the
# documents cover ...", "Unfortunately, the passage ...".
# (The pronoun markers are English: so are the sources they may stand for.)
_SOURCE_OPENING = lazy(
    rf"[\s\W]*(?:(?:{_alt('source_openers', space=_SPACE)})(?!\w)[\s,]*)*"
    rf"(?:{_alt('source_determiners')})\s+(?:(?:{_alt('source_adjectives')})\s+)?"
    rf"(?:{_alt('source_nouns', ('en',))})(?!\w)"
)


def _source_pronoun(text: str, start: int) -> bool:
    """Whether a pronoun marker at ``start`` ("it does not include") speaks of a source: its
    sentence opens with a source as subject, or it opens its sentence after one that does."""
    sentence = _since(_LAST_SENTENCE_END(), text, start)
    if _SOURCE_OPENING().match(text, sentence, start) is not None:
        return True
    if sentence == 0 or text[sentence:start].strip(" \t,;") not in ("", "however", "but"):
        return False
    previous = _since(_LAST_SENTENCE_END(), text, sentence - 1)
    return _SOURCE_OPENING().match(text, previous, sentence) is not None


def _scan(pattern: _Searcher, text: str) -> list[re.Match[str]]:
    """Every match of ``pattern`` in ``text`` that refuses where it stands; past one that does
    not, the scan goes on from its next character (a shorter marker may start inside it)."""
    found: list[re.Match[str]] = []
    pos = 0
    while (m := pattern.search(text, pos)) is not None:
        if _refuses_here(text, m):
            found.append(m)
            pos = m.end()
        else:
            pos = m.start() + 1
    return found


def _refuses_here(text: str, m: re.Match[str]) -> bool:
    """Whether the marker ``m`` refuses where it stands in ``text``: not inside a condition
    ("If no date is specified, the deadline is 30 days", "Falls nicht angegeben, ..."), not
    about personal data ("aucune information personnelle"), not in another sense ("n'est pas
    indiqué chez l'enfant"), a pronoun marker only of a source (:func:`_source_pronoun`) and,
    in German, not an event report (:func:`_german_refuses`)."""
    start, end = m.span()
    clause = _since(_LAST_CLAUSE_BREAK(), text, start)
    if _conditional(text, clause, start, end):
        return False
    if _PERSONAL_DATA_AFTER().match(text, end) is not None:
        return False
    phrase = " ".join(m.group().split())
    if phrase in _EN_PRONOUN_MARKERS and not _source_pronoun(text, start):
        return False
    sense = _SENSE_AFTER.get(phrase)
    if sense is not None and sense().match(text, end) is not None:
        return False
    return phrase not in _de_who() or _german_refuses(text, m, phrase, clause)


class _Group:
    """The markers of one trigger (:class:`MarkerSet`): their alternation, searched only where a
    match can start. Every marker's phrase holds the trigger, so a match holds an occurrence of
    it, preceded within the match by at most :attr:`_chars` characters other than blanks and
    :attr:`_runs` runs of blanks (a phrase's single spaces match any run); only the positions
    from that far before each occurrence up to it are tried, and only those whose character
    starts a phrase. The first match so found is the one ``search`` finds: the engine tries
    each position as ``match`` does, and no match starts elsewhere."""

    __slots__ = ("_chars", "_firsts", "_runs", "_trigger", "pattern")

    def __init__(self, trigger: str, markers: list[str]) -> None:
        self.pattern = _alternation(markers)
        self._trigger = trigger
        phrases = [_phrase(m) for m in markers]
        heads = [p[: p.find(trigger)] for p in phrases]
        self._chars = max((len(h) - h.count(" ") for h in heads), default=0)
        self._runs = max((h.count(" ") for h in heads), default=0)
        # every phrase holds the trigger and starts with a character of its own: else the
        # whole text is searched
        narrow = all(trigger in p and p[:1].strip() for p in phrases)
        self._firsts = frozenset(p[0] for p in phrases) if narrow else None

    def search(self, text: str, pos: int = 0) -> re.Match[str] | None:
        """``self.pattern.search(text, pos)``, trying only where a match can start."""
        firsts = self._firsts
        if firsts is None:
            return self.pattern.search(text, pos)
        match = self.pattern.match
        at = text.find(self._trigger, pos)
        tried = pos
        while at >= 0:
            for p in range(max(tried, self._reach_back(text, at)), at + 1):
                if text[p] in firsts and (m := match(text, p)) is not None:
                    return m
            tried = at + 1
            at = text.find(self._trigger, tried)
        return None

    def _reach_back(self, text: str, at: int) -> int:
        """The first position before ``at`` from which a match can reach the trigger at
        ``at``: at most :attr:`_chars` characters other than blanks and :attr:`_runs` runs of
        blanks before it."""
        chars, runs, blank = 0, 0, False
        j = at
        while j > 0:
            if text[j - 1].isspace():  # what \s matches
                if not blank:
                    runs += 1
                    if runs > self._runs:
                        break
                    blank = True
            else:
                chars += 1
                if chars > self._chars:
                    break
                blank = False
            j -= 1
        return j


_Searcher = re.Pattern[str] | _Group
"""What :func:`_scan` and :meth:`MarkerSet.search` search: a group, or the expression of the
markers without ASCII letters."""


def _alternation(markers: list[str]) -> re.Pattern[str]:
    ordered = sorted(markers, key=len, reverse=True)
    return re.compile("|".join(_marker_pattern(m) for m in ordered))


@lru_cache(maxsize=64)
def _compile(markers: tuple[str, ...]) -> MarkerSet | None:
    if not markers:
        return None
    return MarkerSet(markers)


@cache
def _default_markers() -> MarkerSet | None:
    """The built-in set, compiled once (``_compile``'s key would hash its ~4,000 phrases on
    every check)."""
    return _compile(DEFAULT_ABSTAIN_MARKERS)


def compile_markers(markers: Sequence[str] | None) -> MarkerSet | None:
    """Validate and compile a marker set (``None``: the built-in markers; empty: never abstains).

    A marker matches as a phrase anywhere in the answer; one ending in a full stop also at the
    end of a sentence or of the answer; one written ``^phrase$`` only as the whole answer. A
    ``...`` (or ``…``) in a marker is a gap of one to eight words of one clause
    (``der kontext nennt ... nicht.``).

    Raises:
        GroundingTypeError: ``markers`` is a bare string or holds a non-string.
        GroundingInputError: a marker is blank.
    """
    if markers is None:
        return _default_markers()
    if isinstance(markers, str | bytes):
        raise GroundingTypeError(
            "abstain_markers must be a list of phrases, not a single string; wrap it in a list",
            argument="abstain_markers",
        )
    items = tuple(markers)
    for i, m in enumerate(items):
        if not isinstance(m, str):
            raise GroundingTypeError(
                f"abstain_markers[{i}] must be a str, not {type(m).__name__}",
                argument=f"abstain_markers[{i}]",
            )
        if not _phrase(m):  # blank once normalised: spaces, or invisible characters only
            raise GroundingInputError(
                f"abstain_markers[{i}] is blank (nothing but spaces or invisible characters); "
                "remove it",
                argument=f"abstain_markers[{i}]",
            )
    return _compile(items)


def abstains(
    text: str, markers: Sequence[str] | None = None, *, include_hedged: bool = False
) -> bool:
    """Whether ``text`` abstains, i.e. contains one of ``markers`` (built-in ones by default).

    A partial answer is not an abstention unless ``include_hedged`` (then any marker counts):
    one that states something before its first marker ("Revenue was $4.2 billion. I don't know
    the 2022 figure."), around it in a concessive sentence ("Although the report does not
    mention profit, revenue reached $4.2 billion.") or after it behind a contrast ("The report
    does not specify the exact date, but the plant opened in 2019.", "I don't know, but probably
    $499."). Fillers, frames, deflections and questions state nothing ("I'm sorry. The context
    does not mention it." abstains).

    Examples:
        >>> abstains("The context does not provide the annual price.")
        True
        >>> abstains("上下文中没有提到价格。")
        True
        >>> abstains("The Enterprise plan costs $499.")
        False
        >>> abstains("It does not specify the exact date, but the plant opened in 2019.")
        False
        >>> abstains("I don't know, but probably $499.", include_hedged=True)
        True
        >>> abstains("Revenue was $4.2 billion. I don't know the 2022 figure.")
        False
        >>> abstains("Unknown.")
        True
    """
    if not isinstance(text, str):
        raise GroundingTypeError(
            f"abstains() needs the answer as a str, got {type(text).__name__}", argument="text"
        )
    pattern = compile_markers(markers)
    return (
        pattern is not None
        and pattern.search(normalize_plain(text), include_hedged=include_hedged) is not None
    )


_MISSING_CUE = lazy(
    rf"(?i)\b(?:{_alt('missing_cues', _LATIN)}|(?:{_alt('missing_negations')})"
    rf"\s+(?:\w+\s+){{0,2}}?(?:{_alt('missing_stems')})\w*)|"
    rf"{_alt('missing_cues', SUBSTRING_LANGUAGES)}"
)
"""A loose cue that a text says something is missing or unknown (wider than the markers)."""


def says_something_is_missing(text: str) -> bool:
    """Whether ``text`` *may* abstain: a recognised refusal (hedged ones included) or a loose cue
    that something is missing ("Sorry, I could not find the price in what I was given.").

    Wider than :func:`abstains` and so never used to grade an answer: the judges use it only to
    tell a claims reply that restates the answer's refusal from one the model made up for an
    answer that asserts something (a malformed reply, unscored).

    Examples:
        >>> says_something_is_missing("Sorry, I could not find the yearly price in what I was given.")
        True
        >>> says_something_is_missing("The plan costs $1,200.")
        False
    """
    return abstains(text, include_hedged=True) or _MISSING_CUE().search(text) is not None
