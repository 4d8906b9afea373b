"""Abstention: does an answer say that the context cannot answer?

Markers are phrases, normalised like every other text (NFKC, case folding, apostrophes), and
compiled once per marker set into one regular expression. Latin-script markers match on word
boundaries; markers in scripts written without spaces (Chinese, Japanese, Thai) and Korean match as
substrings, since their words attach particles and endings.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from hybridjudge.grounding._errors import GroundingInputError, GroundingTypeError
from hybridjudge.grounding._normalize import normalize_plain
from hybridjudge.grounding._quantities import letter_runs

__all__ = [
    "DEFAULT_ABSTAIN_MARKERS",
    "MARKERS_BY_LANGUAGE",
    "MarkerSet",
    "abstains",
    "compile_markers",
]


def _both(*phrases: str) -> tuple[str, ...]:
    """English phrases with ``n't`` also spelled ``not`` (``doesn't`` -> ``does not``)."""
    out: list[str] = []
    for p in phrases:
        out.append(p)
        if "n't" in p:
            out.append(
                p.replace("can't", "cannot").replace("won't", "will not").replace("n't", " not")
            )
    return tuple(dict.fromkeys(out))


MARKERS_BY_LANGUAGE: dict[str, tuple[str, ...]] = {
    "en": _both(
        "I don't know",
        "we don't know",
        "I really don't know",
        "not in the provided context",
        "not in the context",
        "not in the given context",
        "the context doesn't",
        "the provided context doesn't",
        "the documents don't",
        "the text doesn't",
        "doesn't provide information",
        "doesn't provide any information",
        "doesn't provide details",
        "doesn't mention",
        "doesn't specify",
        "doesn't say",
        "doesn't contain information",
        "doesn't include information",
        # Passive forms only at the end of a sentence ("the price is not mentioned."), or with
        # a source ("not mentioned in the text"): "not provided with the kit" is no abstention.
        "isn't mentioned.",
        "isn't specified.",
        "isn't provided.",
        "isn't stated.",
        "isn't available.",
        "not mentioned in the",
        "not specified in the",
        "not provided in the",
        "not stated in the",
        "no information about",
        "no information on",
        "no information regarding",
        "no information in the",
        "no information is available",
        "no information.",
        "not enough information",
        "insufficient information",
        "can't answer",
        "can not answer",
        "unable to answer",
        "can't determine",
        "unable to determine",
        "can't be determined",
        "I'm not sure",
        "I am not sure",
        "there is no mention",
        "no mention of",
    ),
    "zh-Hans": (
        "不知道",
        "无法回答",
        "无法确定",
        "没有提供",
        "未提供",
        "没有提及",
        "未提及",
        "没有提到",
        "未提到",
        "没有相关信息",
        "信息不足",
        "上下文中没有",
        "资料中没有",
        "无法从",
    ),
    "zh-Hant": (
        "不知道",
        "無法回答",
        "無法確定",
        "沒有提供",
        "未提供",
        "沒有提及",
        "未提及",
        "沒有提到",
        "未提到",
        "沒有相關資訊",
        "沒有相關信息",
        "資訊不足",
        "資料不足",
        "資料中沒有",
        "無法從",
    ),
    "ja": (
        "わかりません",
        "分かりません",
        "わからない",
        "分からない",
        "記載されていません",
        "記載がありません",
        "情報がありません",
        "答えられません",
        "回答できません",
        "判断できません",
        "不明です",
        "言及されていません",
    ),
    "ko": (
        "모르겠습니다",
        "모릅니다",
        "알 수 없",
        "답변할 수 없",
        "답할 수 없",
        "정보가 없",
        "언급되어 있지 않",
        "언급되지 않",
        "제공되지 않",
        "나와 있지 않",
    ),
    "th": (
        "ไม่ทราบ",
        "ไม่มีข้อมูล",
        "ไม่สามารถตอบ",
        "ไม่ได้ระบุ",
        "ไม่ได้กล่าวถึง",
        "ข้อมูลไม่เพียงพอ",
    ),
    "es": (
        "no lo sé",
        "no sé",
        "no se menciona",
        "no se proporciona",
        "no se especifica",
        "no hay información",
        "no tengo información",
        "no puedo responder",
        "no puedo determinar",
        "información insuficiente",
        "el contexto no",
    ),
    "fr": (
        "je ne sais pas",
        "n'est pas mentionné",
        "n'est pas précisé",
        "n'est pas indiqué",
        "ne mentionne pas",
        "ne précise pas",
        "pas d'information",
        "aucune information",
        "je ne peux pas répondre",
        "information insuffisante",
        "informations insuffisantes",
        "le contexte ne",
    ),
    "de": (
        "ich weiß nicht",
        "weiß ich nicht",
        "nicht erwähnt",
        "nicht angegeben",
        "nicht genannt",
        "keine informationen",
        "keine angaben",
        "kann ich nicht beantworten",
        "nicht beantworten",
        "der kontext enthält keine",
        "nicht im kontext",
    ),
}
"""Built-in abstention markers per language (BCP 47 tags)."""

DEFAULT_ABSTAIN_MARKERS: tuple[str, ...] = tuple(
    dict.fromkeys(m for ms in MARKERS_BY_LANGUAGE.values() for m in ms)
)
"""Every built-in marker. Add your own with ``(*DEFAULT_ABSTAIN_MARKERS, "my phrase")`` or
replace them by passing only yours."""


def _latin_word_char(ch: str) -> bool:
    return ch.isalnum() and ord(ch) < 0x0250


def _marker_pattern(marker: str) -> str:
    text = " ".join(normalize_plain(marker).split())
    body = r"\s+".join(re.escape(w) for w in text.split(" "))
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
    only in non-ASCII texts.
    """

    __slots__ = ("_groups", "_needs", "_others", "markers")

    def __init__(self, markers: tuple[str, ...]) -> None:
        self.markers = markers
        grouped: dict[bytes | None, list[str]] = {}
        needs: dict[bytes, list[frozenset[bytes]]] = {}
        for m in dict.fromkeys(markers):
            runs = letter_runs(normalize_plain(m))
            ordered = sorted(runs, key=lambda r: (-len(r), r))
            trigger = ordered[0] if ordered else None
            grouped.setdefault(trigger, []).append(m)
            if trigger is not None:
                needs.setdefault(trigger, []).append(runs)
        self._groups: dict[bytes, re.Pattern[str]] = {
            t: _alternation(ms) for t, ms in grouped.items() if t is not None
        }
        # A group is searched only if all letter runs of one of its markers are in the text.
        self._needs = needs
        others = grouped.get(None)
        self._others = _alternation(others) if others else None

    def search(self, text: str, words: frozenset[bytes] | None = None) -> re.Match[str] | None:
        """The first marker found in the *normalised* ``text`` (``None``: no abstention).

        ``words`` is the set of ASCII letter runs of ``text`` (:func:`letter_runs`) when the
        caller has it. Markers ending in a full stop also match at the very end of the text.
        """
        if words is None:
            words = letter_runs(text)
        text += "."  # so that sentence-final markers match an answer without a final stop
        best: re.Match[str] | None = None
        for trigger in words & self._groups.keys():
            if not any(need <= words for need in self._needs[trigger]):
                continue
            m = self._groups[trigger].search(text)
            if m is not None and (best is None or m.start() < best.start()):
                best = m
        if self._others is not None and not text.isascii():
            m = self._others.search(text)
            if m is not None and (best is None or m.start() < best.start()):
                best = m
        return best


def _alternation(markers: list[str]) -> re.Pattern[str]:
    ordered = sorted(markers, key=len, reverse=True)
    return re.compile("|".join(_marker_pattern(m) for m in ordered))


@lru_cache(maxsize=64)
def _compile(markers: tuple[str, ...]) -> MarkerSet | None:
    if not markers:
        return None
    return MarkerSet(markers)


def compile_markers(markers: Sequence[str] | None) -> MarkerSet | None:
    """Validate and compile a marker set (``None``: the built-in markers; empty: never abstains).

    Raises:
        GroundingTypeError: ``markers`` is a bare string or holds a non-string.
        GroundingInputError: a marker is blank.
    """
    if markers is None:
        return _compile(DEFAULT_ABSTAIN_MARKERS)
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
        if not m.strip():
            raise GroundingInputError(
                f"abstain_markers[{i}] is blank; remove it", argument=f"abstain_markers[{i}]"
            )
    return _compile(items)


def abstains(text: str, markers: Sequence[str] | None = None) -> bool:
    """Whether ``text`` abstains, i.e. contains one of ``markers`` (built-in ones by default).

    Examples:
        >>> abstains("The context does not provide the annual price.")
        True
        >>> abstains("上下文中没有提到价格。")
        True
        >>> abstains("The Enterprise plan costs $499.")
        False
    """
    if not isinstance(text, str):
        raise GroundingTypeError(
            f"abstains() needs the answer as a str, got {type(text).__name__}", argument="text"
        )
    pattern = compile_markers(markers)
    return pattern is not None and pattern.search(normalize_plain(text)) is not None
