"""Abstention: does an answer say that the context cannot answer?

Markers are phrases, normalised like every other text (NFKC, case folding, apostrophes), and
compiled once per marker set into one regular expression. Latin-script markers match on word
boundaries; markers in scripts written without spaces (Chinese, Japanese, Thai) and Korean match as
substrings, since their words attach particles and endings.

A marker followed by a contrast that goes on to say something (``"The report does not specify
the exact date, but the plant opened in March 2019."``, ``"I don't know, but probably $499."``) is a
*hedged partial answer*, not a refusal: the answer still answers. :func:`abstains` does not count
it unless asked to (``include_hedged=True``).
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
    "says_something_is_missing",
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


def _combine(heads: tuple[str, ...], tails: tuple[str, ...]) -> tuple[str, ...]:
    """Every ``head tail`` phrase (``tails`` may hold ``""``)."""
    return tuple(f"{h} {t}".strip() for h in heads for t in tails)


# Real refusal forms (issue 9): "I do not have (specific) information about ...", "I am unable to
# provide an answer ...", "The provided documents do not mention ...", "I don't have enough
# information to answer ...", "I could not find any information ...".
_EN_HAVE_INFO = _combine(
    ("I don't have", "we don't have", "I have no", "I don't possess"),
    tuple(
        f"{q}information"
        for q in (
            "",
            "any ",
            "specific ",
            "enough ",
            "sufficient ",
            "detailed ",
            "relevant ",
            "the ",
            "that ",
            "this ",
            "further ",
            "more ",
            "reliable ",
            "verified ",
            "precise ",
            "exact ",
            "that specific ",
            "the specific ",
            "any specific ",
            "access to ",
            "access to any ",
        )
    ),
)
_EN_PROVIDE = _combine(
    ("unable to provide", "can't provide", "not able to provide", "can't give", "unable to give"),
    (
        "an answer",
        "a specific answer",
        "a definitive answer",
        "a precise answer",
        "an accurate answer",
        "the answer",
        "information",
        "specific information",
        "any information",
        "the information",
        "that information",
        "details",
        "specific details",
    ),
)
_EN_FIND = _combine(
    ("unable to find", "can't find", "couldn't find", "didn't find", "wasn't able to find"),
    (
        "information",
        "any information",
        "specific information",
        "sufficient information",
        "enough information",
        "relevant information",
        "the answer",
        "an answer",
        "the answer in",
        "this information",
        "that information",
        "the information",
        "any mention",
        "that in the",
        "this in the",
        "it in the",
    ),
)
_EN_SOURCE_PLURAL = _combine(
    ("don't",),
    (
        "mention",
        "specify",
        "state",
        "contain information",
        "contain any information",
        "contain specific information",
        "contain enough information",
        "contain sufficient information",
        "contain the information",
        "contain this information",
        "contain that information",
        "contain the answer",
        "include information",
        "include any information",
        "provide information",
        "provide any information",
        "provide details",
        "provide the answer",
        "address",
        "explicitly mention",
        "explicitly state",
    ),
)


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
        *_EN_HAVE_INFO,
        *_EN_PROVIDE,
        *_EN_FIND,
        *_EN_SOURCE_PLURAL,
        "doesn't contain the answer",
        "doesn't contain any information",
        "doesn't contain specific information",
        "doesn't contain enough information",
        "doesn't contain sufficient information",
        "doesn't explicitly mention",
        "doesn't explicitly state",
        "doesn't address",
        "isn't explicitly mentioned",
        "isn't explicitly stated",
        "not explicitly mentioned in the",
        "not explicitly stated in the",
        "not in the documents",
        "not in the document",
        "not in the provided documents",
        "not in the provided document",
        "not in the retrieved documents",
        "not in the provided text",
        "not in the sources",
        "not found in the",
        "not covered in the",
        "not available in the",
        "doesn't appear in the provided",
        "doesn't appear in the document",
        "doesn't appear in the context",
        "doesn't appear in the text",
        "not supported by the retrieved documents",
        "not supported by the provided documents",
        "I don't see that in the",
        "I don't see this in the",
        "I don't see any information",
        "no information related to",
        "no relevant information",
        "no specific information",
        "no further information",
        "there is no information",
        "can't be answered",
        "unable to respond",
        "can't help with that",
        "I can't say",
        "I can't tell",
        "I can't confirm",
        "unable to say",
        "unable to confirm",
        "can't say more",
        "can't be sure",
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
        # Real forms: 提供的文档中没有找到相关信息 / 没有足够信息 / 无法提供答案.
        "没有找到",
        "未找到",
        "找不到",
        "未能找到",
        "未检索到",
        "没有足够信息",
        "没有足够的信息",
        "没有具体信息",
        "没有关于此问题",
        "无法提供",
        "无法给出",
        "无法得知",
        "无从得知",
        "我不清楚",
        "未说明",
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
        "沒有找到",
        "未找到",
        "找不到",
        "未能找到",
        "未檢索到",
        "沒有足夠資訊",
        "沒有足夠的資訊",
        "沒有具體資訊",
        "無法提供",
        "無法給出",
        "無法得知",
        "無從得知",
        "我不清楚",
        "未說明",
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
        # Real forms: 提供されたコンテキストには、…に関する情報は含まれていません。
        "情報は含まれていません",
        "情報が含まれていません",
        "情報は含まれておりません",
        "情報は持っていません",
        "情報を持っていません",
        "情報を持ち合わせていません",
        "見つかりませんでした",
        "情報が見つかりません",
        "お答えできません",
        "お答えすることができません",
        "回答を提供できません",
        "触れられていません",
        "明記されていません",
        "記載はありません",
        "記述がありません",
        "わかりかねます",
        "分かりかねます",
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
        # Real forms: …에 대한 정보는 제공된 문서에 포함되어 있지 않습니다 / 문서에 없습니다 /
        # 문서에서 찾을 수 없으므로 답변할 수 없습니다.
        "문서에 포함되어 있지 않",
        "자료에 포함되어 있지 않",
        "정보가 포함되어 있지 않",
        "문서에 없습니다",
        "문서에는 없습니다",
        "자료에 없습니다",
        "정보를 찾을 수 없",
        "에서 찾을 수 없",
        "에서 확인할 수 없",
        "명시되어 있지 않",
        "명시되지 않",
        "답변을 드릴 수 없",
        "답변드릴 수 없",
        "답변을 제공할 수 없",
        "정보를 가지고 있지 않",
        "정보를 갖고 있지 않",
        "알지 못합니다",
    ),
    "th": (
        "ไม่ทราบ",
        "ไม่มีข้อมูล",
        "ไม่สามารถตอบ",
        "ไม่ได้ระบุ",
        "ไม่ได้กล่าวถึง",
        "ข้อมูลไม่เพียงพอ",
        "ไม่พบข้อมูล",
        "ไม่สามารถให้คำตอบ",
        "ไม่สามารถให้ข้อมูล",
        "ไม่ได้ให้ข้อมูล",
        "ไม่มีการกล่าวถึง",
        "ไม่ได้มีการระบุ",
        "ไม่ได้มีการกล่าวถึง",
        "ไม่สามารถระบุได้",
        "ไม่แน่ใจ",
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
        # Real forms: Los documentos proporcionados no contienen información suficiente ... /
        # No puedo encontrar información suficiente en los documentos proporcionados.
        "no dispongo de información",
        "no tengo suficiente información",
        "no puedo encontrar información",
        "no pude encontrar información",
        "no encontré información",
        "no se encontró información",
        "no se encuentra información",
        "no contiene información",
        "no contienen información",
        "no mencionan",
        "no menciona",
        "no especifican",
        "no especifica",
        "no se indica",
        "no se detalla",
        "no está especificado",
        "no se dispone de información",
        "no puedo proporcionar una respuesta",
        "no puedo proporcionar información",
        "no puedo dar una respuesta",
        "no puedo ofrecer una respuesta",
        "los documentos no",
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
        # Real forms: Les documents fournis ne précisent pas / ne contiennent pas cette
        # information / ne permettent pas de répondre; Je n'ai pas trouvé cette information.
        "pas d'informations",
        "je n'ai pas trouvé",
        "je ne dispose pas d'information",
        "je ne dispose pas d'informations",
        "ne contient pas cette information",
        "ne contiennent pas cette information",
        "ne contient pas d'information",
        "ne contiennent pas d'information",
        "ne contiennent pas d'informations",
        "ne contiennent pas les informations",
        "ne contiennent pas l'information",
        "ne mentionnent pas",
        "ne précisent pas",
        "ne permet pas de répondre",
        "ne permettent pas de répondre",
        "ne permet pas de conclure",
        "ne permettent pas de conclure",
        "ne traite pas de",
        "ne traitent pas de",
        "ne sais pas",
        "je ne suis pas en mesure de répondre",
        "je ne peux pas fournir",
        "impossible de répondre",
        "n'est pas précisée",
        "n'est pas mentionnée",
        "n'est pas indiquée",
        "n'est pas spécifié",
        "n'est pas spécifiée",
        "aucune mention",
        "les documents ne",
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
        # Real forms: Ich kann in den bereitgestellten Dokumenten keine ausreichenden
        # Informationen finden; Die Antwort ... konnte ... nicht gefunden werden.
        "keine information",
        "keine ausreichenden informationen",
        "keine genauen informationen",
        "keine konkreten informationen",
        "keine spezifischen informationen",
        "keine näheren informationen",
        "keine weiteren informationen",
        "nicht gefunden werden",
        "nicht aufgeführt",
        "nicht spezifiziert",
        "nicht ersichtlich",
        "geht nicht hervor",
        "gehen nicht hervor",
        "erwähnen nicht",
        "erwähnt nicht",
        "kann keine antwort",
        "keine antwort geben",
        "nicht beantwortet werden",
        "die dokumente enthalten keine",
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

    __slots__ = ("_groups", "_needs", "_others", "_sources", "_triggers", "markers")

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
        # One expression per trigger, compiled on the first text that has the trigger (most
        # texts trigger a few of the ~100 groups; compiling them all is most of the cost of a
        # one-case `hybridjudge check`).
        self._sources = {t: ms for t, ms in grouped.items() if t is not None}
        self._groups: dict[bytes, re.Pattern[str]] = {}
        # A group is searched only if all letter runs of one of its markers are in the text.
        self._needs = needs
        others = grouped.get(None)
        self._others = _alternation(others) if others else None
        self._triggers = frozenset(self._sources)

    def _group(self, trigger: bytes) -> re.Pattern[str]:
        """The expression of the markers whose trigger is ``trigger`` (compiled once)."""
        pattern = self._groups.get(trigger)
        if pattern is None:
            pattern = self._groups[trigger] = _alternation(self._sources[trigger])
        return pattern

    def search(
        self,
        text: str,
        words: frozenset[bytes] | None = None,
        *,
        include_hedged: bool = False,
    ) -> re.Match[str] | None:
        """The first marker found in the *normalised* ``text`` (``None``: no abstention).

        ``words`` is the set of ASCII letter runs of ``text`` (:func:`letter_runs`) when the
        caller has it. Markers ending in a full stop also match at the very end of the text.
        A marker that opens a hedged partial answer (a contrast follows that still answers; see
        :func:`abstains`) is skipped unless ``include_hedged``.
        """
        if words is None:
            words = letter_runs(text)
        text += "."  # so that sentence-final markers match an answer without a final stop
        triggered = [
            self._group(t)
            for t in words & self._triggers  # a frozenset: iterates the smaller side
            if any(need <= words for need in self._needs[t])
        ]
        if self._others is not None and not text.isascii():
            triggered.append(self._others)
        # The next match of each pattern, searched again only once passed: linear in the text
        # however many hedged markers it holds.
        ahead: list[re.Match[str] | None] = [p.search(text) for p in triggered]
        while True:
            best: re.Match[str] | None = None
            for m in ahead:
                if m is not None and (best is None or m.start() < best.start()):
                    best = m
            if best is None or include_hedged or not self._hedged(text, best):
                return best
            pos = best.end()  # a hedged partial answer: look for a later refusal
            for i, m in enumerate(ahead):
                if m is not None and m.start() < pos:
                    ahead[i] = triggered[i].search(text, pos)

    def _matches(self, text: str, words: frozenset[bytes]) -> list[re.Match[str]]:
        """Every marker occurrence in ``text`` (already ending in a full stop), in text order."""
        found: list[re.Match[str]] = []
        for trigger in words & self._triggers:
            if not any(need <= words for need in self._needs[trigger]):
                continue
            found.extend(self._group(trigger).finditer(text))
        if self._others is not None and not text.isascii():
            found.extend(self._others.finditer(text))
        found.sort(key=lambda m: m.start())
        return found

    def _hedged(self, text: str, m: re.Match[str]) -> bool:
        """Whether the marker ``m`` opens a hedged partial answer: a contrast follows it (in its
        sentence, or opening the next one) and goes on to say something that is not itself a
        refusal (``"... does not specify the exact date, but the plant opened in 2019."``)."""
        # Positions, not slices of the rest of the text: linear however many markers there are.
        stop = _SENTENCE_END.search(text, m.end())
        end = stop.end() if stop else len(text)
        cut = _CONTRAST_IN.search(text, m.end(), end)
        if cut is not None:
            continuation = text[cut.end() : end]
        else:
            start = _CONTRAST_OPENS.match(text, end)
            if start is None:
                return False
            stop2 = _SENTENCE_END.search(text, start.end())
            continuation = text[start.end() : stop2.end() if stop2 else len(text)]
        if not _says_something(continuation) or _DEFLECTION.match(continuation):
            return False
        return not self._matches(continuation + ".", letter_runs(continuation))


# Sentence ends: . ! ? and their CJK forms (not a decimal point), or a line break.
_SENTENCE_END = re.compile(r"[.!?。！？](?!\d)|\n")
_CONTRAST_WORDS = (
    "but|however|although|though|nevertheless|nonetheless|that said|instead|"
    "probably|likely|perhaps|maybe|possibly|presumably|"
    "pero|sin embargo|aunque|probablemente|quizás|quizá|"
    "mais|cependant|toutefois|néanmoins|pourtant|probablement|peut-être|"
    "aber|jedoch|allerdings|dennoch|trotzdem|wahrscheinlich|vermutlich|vielleicht"
)
_CONTRAST_CJK = (
    "但|不过|不過|然而|可是|可能|大概|也许|也許|或许|或許|估计|估計|"
    "ただし|しかし|ですが|けれど|が、|が,|おそらく|たぶん|"
    "하지만|그러나|다만|지만|아마|"
    "แต่|อย่างไรก็ตาม|อาจ|น่าจะ"
)
# A contrast inside the marker's sentence: a contrast word or a semicolon.
_CONTRAST_IN = re.compile(rf"(?<!\w)(?:{_CONTRAST_WORDS})(?!\w)|;|{_CONTRAST_CJK}")
# A contrast opening the next sentence ("However, ...", "Still, ...", "但是...").
_CONTRAST_OPENS = re.compile(
    rf"\s*(?:(?:{_CONTRAST_WORDS}|still|yet)(?!\w)|{_CONTRAST_CJK})", re.IGNORECASE
)
# A continuation that only points elsewhere ("but you can check the website", "However, I can
# suggest ...") does not answer.
_DEFLECTION = re.compile(
    r"[\s,]*(?:"
    r"(?:i|we) (?:can|could|would|will|may|might)(?: \w+)? (?:suggest|recommend|offer|try|help|"
    r"point|direct|advise|refer)|"
    r"(?:i|we)(?:'d| would)? (?:suggest|recommend|advise)|"
    r"you (?:can|could|may|might|should|would|will|need to|may want to|might want to|could try to)"
    r"(?: \w+)? (?:check|try|consult|contact|visit|refer|look|ask|find|search|reach|call|email|see|"
    r"review|read)|"
    r"(?:please|try|consider|consult|contact|check|visit|refer to)\b|"
    r"it (?:is|would be|may be|might be) (?:best|advisable|recommended|worth)|"
    r"puede consultar|puedes consultar|le recomiendo|te recomiendo|consulte|"
    r"vous pouvez consulter|je vous (?:recommande|suggère|conseille)|veuillez|"
    r"sie können|bitte|ich empfehle|"
    r"建议|建議|请|請|お問い合わせ|ご確認|문의|확인하시기|กรุณา|แนะนำ"
    r")"
)


def _says_something(text: str) -> bool:
    """At least two words (or, in scripts without spaces, two letters) or a figure."""
    if any(ch.isdigit() for ch in text):
        return True
    words = [w for w in re.findall(r"\w+", text) if len(w) > 1 or not w.isascii()]
    return len(words) >= 2 or (len(words) == 1 and not words[0].isascii() and len(words[0]) >= 2)


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


def abstains(
    text: str, markers: Sequence[str] | None = None, *, include_hedged: bool = False
) -> bool:
    """Whether ``text`` abstains, i.e. contains one of ``markers`` (built-in ones by default).

    A hedged partial answer, a marker followed by a contrast that still answers ("The report
    does not specify the exact date, but the plant opened in 2019.", "I don't know, but probably
    $499."), is not an abstention unless ``include_hedged`` (then any marker counts).

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


_MISSING_CUE = re.compile(
    r"(?i)\b(?:sorry|unable to|unknown|unclear|insufficient|unavailable|no (?:information|data|"
    r"details?|mention|answer|record)|(?:not|n't|never|neither|nor|cannot|can't|could not|"
    r"couldn't)\s+(?:\w+\s+){0,2}?(?:mention|provid|stat|specif|give|given|available|found|"
    r"find|know|sure|say|said|contain|includ|determin|answer|tell|list|disclos|cover|locat|"
    r"confirm|verif|see|saw)\w*)|没有提到|未提及|无法|不知道|未提供|没有提供"
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
    return abstains(text, include_hedged=True) or _MISSING_CUE.search(text) is not None
