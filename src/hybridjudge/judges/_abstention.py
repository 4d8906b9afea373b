"""Recognising an abstention ("the context does not provide ...") so it is not graded as a claim.

RAGAS and DeepEval both scored the correct abstention of OpenGATE's unanswerable case 0.0, so a
failure to abstain could never score below its base (``../shared/MISSION.md`` §1). The judges
therefore treat a sentence that *only* says some information is missing as asserting nothing.

The test is deliberately strict: a sentence is a *pure* abstention only when one of the patterns
below matches the **whole** sentence and its tail holds no clause that could assert something
(no comma, semicolon or colon, no "but", "so", "however", "probably" ...). "I don't know, but
probably $499" is therefore not pure: its assertion is extracted and judged.

Patterns cover English, Chinese (simplified and traditional) and Thai, the languages of the
project's sources. Whether abstaining was *right* (the question was unanswerable) is the grounding
checks' question, not the judges'.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from functools import cache

__all__ = ["is_pure_abstention", "mentions_abstention", "pure_abstention_reason", "split_sentences"]

# A tail that cannot start a new assertion: no clause punctuation and no connective or hedge.
_EN_TAIL = (
    r"(?:(?!\b(?:but|so|however|although|though|yet|therefore|thus|instead|probably|likely|"
    r"perhaps|maybe|presumably|which|because|since|while|whereas)\b)[^,;:])*"
)
_EN_SOURCE = (
    r"(?:the |this |that )?(?:provided |given |available |retrieved )?"
    r"(?:context|text|document|documents|passage|passages|information|source|sources|material|"
    r"excerpt|data)(?: provided| given| available| above| retrieved)?"
)
_EN_NEG = r"(?:does not|doesn't|do not|don't|did not|didn't|cannot|can't|fails to|does not seem to)"
_EN_VERB = (
    r"(?:provide|mention|contain|include|specify|state|say|give|answer|address|cover|describe|"
    r"indicate|list|discuss|detail|offer|reveal|tell)"
)

_EN_PATTERNS = (
    rf"(?:(?:i'?m|i am) sorry,? (?:but )?)?(?:unfortunately,? )?"
    rf"{_EN_SOURCE} {_EN_NEG} {_EN_VERB}\b{_EN_TAIL}",
    rf"(?:(?:i'?m|i am) sorry,? (?:but )?)?(?:unfortunately,? )?"
    rf"(?:based on|according to|from|in) {_EN_SOURCE},? (?:there is|there's) no\b{_EN_TAIL}",
    rf"(?:(?:i'?m|i am) sorry,? (?:but )?)?(?:unfortunately,? )?"
    rf"(?:based on|according to|from) {_EN_SOURCE},? (?:i|it) (?:cannot|can't|can not|am unable to|"
    rf"is not possible to|is impossible to) (?:be )?(?:answer|determine|tell|say|find|know|"
    rf"answered|determined)\b{_EN_TAIL}",
    rf"(?:i do not|i don't|i do not) know\b{_EN_TAIL}",
    rf"(?:i'?m|i am) (?:not sure|unsure|unable to (?:answer|determine|tell|say|find)){_EN_TAIL}",
    rf"i (?:cannot|can't|can not) (?:answer|determine|tell|say|find|know)\b{_EN_TAIL}",
    rf"there (?:is|are) no (?:information|mention|data|details?|indication)\b{_EN_TAIL}",
    rf"(?:no|insufficient|not enough) (?:information|data|details?) (?:is |are )?"
    rf"(?:available|provided|given|mentioned|included)\b{_EN_TAIL}",
    rf"(?:the |this )?(?:answer|information|price|figure|value) (?:is|was) not "
    rf"(?:available|provided|given|found|mentioned|specified|stated|included)\b{_EN_TAIL}",
    rf"(?:(?:this|that|the) question|this|that|the answer) "
    rf"(?:is not|isn't|cannot be|can't be|can not be) "
    rf"(?:answerable|answered|determined|found|known)\b{_EN_TAIL}",
)

# Chinese: no clause punctuation, no "but" (但/不過/然而) or hedge (可能/大概/或許/也許/估計).
_ZH_TAIL = r"(?:(?!但|不過|不过|然而|可能|大概|或許|或许|也許|也许|估計|估计)[^，,；;：:])*"
_ZH_SOURCE = (
    r"(?:提供的|所提供的|給定的|给定的|檢索到的|检索到的)?"
    r"(?:上下文|語境|语境|文中|文本|文件|資料|资料|內容|内容|來源|来源|背景資料|背景资料)(?:中|裡|里|內|内)?"
)
_ZH_PATTERNS = (
    rf"(?:抱歉|很抱歉|對不起|对不起)?[，,]?{_ZH_SOURCE}(?:並|并)?(?:沒有|没有|未|無|无|不)"
    rf"(?:提供|提及|提到|說明|说明|包含|包括|給出|给出|指出|列出|記載|记载|涉及)?{_ZH_TAIL}",
    rf"(?:抱歉|很抱歉|對不起|对不起)?[，,]?(?:我)?(?:不知道|不清楚|不確定|不确定){_ZH_TAIL}",
    rf"(?:抱歉|很抱歉|對不起|对不起)?[，,]?(?:我)?(?:無法|无法|不能)(?:回答|確定|确定|判斷|判断|得知|找到){_ZH_TAIL}",
    rf"(?:沒有|没有)(?:相關|相关)?(?:資訊|资讯|信息|資料|资料){_ZH_TAIL}",
)

# Thai (no spaces between words): no "but" (แต่) or hedge (อาจ/น่าจะ/ประมาณ).
_TH_TAIL = r"(?:(?!แต่|อาจ|น่าจะ|ประมาณ)[^,;:])*"
_TH_PATTERNS = (
    rf"(?:ขออภัย\s*)?(?:ใน)?(?:บริบท|ข้อความ|เอกสาร|ข้อมูล)(?:ที่ให้มา|ที่ได้รับ)?\s*ไม่(?:ได้)?"
    rf"(?:ระบุ|กล่าวถึง|มีข้อมูล|ให้ข้อมูล|ครอบคลุม|บอก){_TH_TAIL}",
    rf"(?:ขออภัย\s*)?ไม่มีข้อมูล{_TH_TAIL}",
    rf"(?:ขออภัย\s*)?(?:ฉัน|ผม|ดิฉัน)?ไม่(?:ทราบ|รู้){_TH_TAIL}",
    rf"(?:ขออภัย\s*)?(?:ฉัน|ผม|ดิฉัน)?ไม่สามารถ(?:ตอบ|ระบุ|หา|บอก){_TH_TAIL}",
)

_PURE = tuple(re.compile(p, re.IGNORECASE) for p in (*_EN_PATTERNS, *_ZH_PATTERNS, *_TH_PATTERNS))

# Sentence boundaries: ., ! or ? followed by space; CJK full stops; newlines; Thai uses spaces.
_SENTENCE_SPLIT = re.compile(
    r"(?<=[.!?])\s+|[。！？!?]+|\n+|(?<=[\u0E00-\u0E7F])\s+(?=[\u0E00-\u0E7F])"
)
_FIRST_CLAUSE = re.compile(r"[,，;；:：]")
_TRIM = " \t\"'“”‘’«»()[]*-•–—.!?。！？"


def split_sentences(text: str) -> list[str]:
    """Split ``text`` into trimmed, non-empty sentences (English, Chinese and Thai punctuation)."""
    return [s.strip(_TRIM) for s in _SENTENCE_SPLIT.split(text) if s.strip(_TRIM)]


def is_pure_abstention(sentence: str) -> bool:
    """Whether ``sentence`` (one sentence or claim) only says that information is missing."""
    text = " ".join(sentence.split()).strip(_TRIM).replace("’", "'")
    return bool(text) and any(p.fullmatch(text) for p in _PURE)


def pure_abstention_reason(answer: str) -> str | None:
    """A description when *every* sentence of ``answer`` is a pure abstention, else ``None``."""
    sentences = split_sentences(answer)
    if not sentences or not all(is_pure_abstention(s) for s in sentences):
        return None
    quoted = " / ".join(repr(s) for s in sentences)
    return f"every sentence only says the information is missing: {quoted}"


def mentions_abstention(answer: str) -> bool:
    """Whether ``answer`` contains an abstention anywhere (possibly next to assertions).

    Uses :func:`hybridjudge.grounding.abstains` when that package is available, and falls back
    to a sentence-level test with the patterns of this module.
    """
    abstains = _grounding_abstains()
    if abstains is not None:
        return bool(abstains(answer))
    return any(
        is_pure_abstention(s) or is_pure_abstention(_FIRST_CLAUSE.split(s, maxsplit=1)[0])
        for s in split_sentences(answer)
    )


@cache
def _grounding_abstains() -> Callable[[str], object] | None:
    """``hybridjudge.grounding.abstains`` when that package provides it, else ``None``."""
    try:
        module = importlib.import_module("hybridjudge.grounding")
    except ImportError:
        return None
    found = getattr(module, "abstains", None)
    return found if callable(found) else None
