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

import re
import unicodedata
from collections.abc import Callable, Sequence
from functools import cache, lru_cache

from hybridjudge.grounding._errors import GroundingInputError, GroundingTypeError
from hybridjudge.grounding._normalize import letter_runs, normalize_plain
from hybridjudge.grounding._patterns import lazy

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


def _concat(heads: tuple[str, ...], tails: tuple[str, ...]) -> tuple[str, ...]:
    """Every ``headtail`` phrase, without a space (scripts written without spaces)."""
    return tuple(f"{h}{t}" for h in heads for t in tails)


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

# Sources an answer may say are silent. A negated verb of saying is a refusal only with one of
# them as its subject ("the report does not disclose ..."): "the company does not disclose its
# margins" or "the plan does not include dental care" are answers.
_EN_SOURCE_ONE = (
    "context",
    "document",
    "text",
    "report",
    "passage",
    "excerpt",
    "source",
    "article",
    "snippet",
    "information provided",
    "information given",
    "provided information",
    # after the nine nouns above (the sources of _EN_THE_SOURCE): "The text provided does not
    # include ...", "This isn't covered in the documentation"
    *_combine(
        ("context", "document", "text", "passage", "excerpt", "snippet"),
        ("provided", "given", "supplied"),
    ),
    "documentation",
    "knowledge base",
)
_EN_SOURCE_MANY = (
    "contexts",
    "documents",
    "texts",
    "reports",
    "passages",
    "excerpts",
    "sources",
    "articles",
    "snippets",
    "materials",
    *_combine(
        ("contexts", "documents", "texts", "passages", "excerpts", "snippets", "sources"),
        ("provided", "given", "supplied"),
    ),
)
_EN_SOURCE_VERBS = (
    "disclose",
    "specify",
    "state",
    "indicate",
    "include",
    "mention",
    "say",
    "provide",
    "give",
    "contain",
    "reveal",
    "list",
    "detail",
    "cover",
    "address",
    "explain",
    "clarify",
    "discuss",
    "describe",
)
_EN_SOURCE_SAYS_NOT = (
    *_combine(_combine(_EN_SOURCE_ONE, ("doesn't",)), _EN_SOURCE_VERBS),
    *_combine(_combine(_EN_SOURCE_MANY, ("don't",)), _EN_SOURCE_VERBS),
    *_combine(_EN_SOURCE_ONE, ("is silent", "remains silent")),
    *_combine(_EN_SOURCE_MANY, ("are silent", "remain silent")),
)
# "it does not include the price", "but does not provide the fee": the source as a pronoun, or
# left out after "but". Each counts only in a sentence whose subject is a source (or after one
# such sentence): "The context discusses the Pro plan, but it does not include the price of the
# Enterprise plan." refuses, "The plan is cheap, but it does not include dental care." answers
# (:func:`_refuses_here`). The verbs that are markers on their own ("doesn't mention") are not
# repeated.
_EN_PRONOUN_SAYS_NOT = _both(
    *_combine(
        ("it doesn't", "they don't", "but doesn't", "but don't"),
        tuple(
            v
            for v in _EN_SOURCE_VERBS
            if v not in ("specify", "state", "mention", "say", "address")
        ),
    )
)
# "the provided excerpt", "the documents", "this context": after "not included in", "unclear
# from" and the like (without a source, "not included in the price" is an answer). Not "the
# report" or "this article": annual reports say "statements not included in this report".
_EN_THE_SOURCE = (
    "the provided",
    "the given",
    "the supplied",
    "the retrieved",
    "the available",
    "the information",
    *_combine(
        ("the", "this"),
        tuple(s for s in _EN_SOURCE_ONE[:9] + _EN_SOURCE_MANY if not s.startswith(("rep", "art"))),
    ),
    "the documentation",
    "the knowledge base",
)
_EN_ABSENT_FROM_SOURCE = _combine(
    (
        "not included in",
        "not disclosed in",
        "not listed in",
        "not given in",
        "not indicated in",
        "not present in",
        "not contained in",
        "not addressed in",
        "not discussed in",
        "not detailed in",
        "not described in",
        "not shown in",
        # "not covered in the documents", not "not covered in the warranty" (an answer)
        "not covered in",
        "not found in",
        "not available in",
        "isn't covered in",
        "isn't found in",
        "isn't available in",
        "missing from",
        "absent from",
        "unclear from",
        "unclear in",
        "unclear based on",
        "not clear from",
        "not clear in",
        "not clear based on",
        "isn't clear from",
        "isn't clear in",
    ),
    _EN_THE_SOURCE,
)
# "I couldn't find the CEO's salary ...", "I was unable to locate ...": in the first person only
# ("rescuers could not locate the wreck" is an answer).
_EN_SEARCHED = _combine(
    (
        "I couldn't",
        "I can't",
        "I didn't",
        "I was unable to",
        "I wasn't able to",
        "I am unable to",
        "I'm unable to",
        "I am not able to",
        "I'm not able to",
        "I have been unable to",
        "I've been unable to",
        "I failed to",
        "we couldn't",
        "we can't",
        "we didn't",
        "we were unable to",
        "we weren't able to",
        "we are unable to",
    ),
    ("find", "locate", "identify"),
)
# "It is not possible to determine ...", "impossible to say", "there is no way to tell".
_EN_NOT_POSSIBLE = _combine(
    ("not possible to", "impossible to", "no way to"),
    ("determine", "tell", "say", "know", "answer", "ascertain", "establish", "confirm", "verify"),
)

# Spanish, French and German counterparts of the forms above.
_ES_SOURCE_ONE = (
    "el texto",
    "el documento",
    "el informe",
    "el pasaje",
    "el fragmento",
    "el extracto",
    "la fuente",
    "la información proporcionada",
    "la información disponible",
    "el contexto",
    "el texto proporcionado",
    "el contexto proporcionado",
    "el documento proporcionado",
    "la documentación",
)
_ES_SOURCE_MANY = (
    "los textos",
    "los informes",
    "los pasajes",
    "los fragmentos",
    "los extractos",
    "las fuentes",
    "los documentos",
    "los documentos proporcionados",
    "los textos proporcionados",
)
_ES_SAYS_NOT = (
    *_combine(
        _ES_SOURCE_ONE,
        (
            "no menciona",
            "no especifica",
            "no indica",
            "no revela",
            "no detalla",
            "no incluye",
            "no proporciona",
            "no contiene",
            "no dice",
            "no aclara",
            "no precisa",
            "no ofrece",
            "no es suficiente",
            "es insuficiente",
            "no basta",
            "no aborda",
            "no trata",
        ),
    ),
    *_combine(
        _ES_SOURCE_MANY,
        (
            "no mencionan",
            "no especifican",
            "no indican",
            "no revelan",
            "no detallan",
            "no incluyen",
            "no proporcionan",
            "no contienen",
            "no dicen",
            "no aclaran",
            "no precisan",
            "no ofrecen",
            "no son suficientes",
            "son insuficientes",
            "no bastan",
            "no abordan",
            "no tratan",
        ),
    ),
    # "Nada en el contexto aborda esto."
    *_combine(
        (
            "nada en el contexto",
            "nada en el texto",
            "nada en el documento",
            "nada en los documentos",
        ),
        ("aborda", "menciona", "indica", "dice", "trata", "especifica", "responde"),
    ),
)
_ES_CANNOT = (
    *_combine(
        ("no se puede", "no se pueden", "no es posible", "no puedo", "es imposible", "imposible"),
        (
            "determinar",
            "saber",
            "responder",
            "precisar",
            "establecer",
            "identificar",
            "confirmar",
            "concluir",
        ),
    ),
    *_combine(
        ("no pude", "no puedo", "no he podido", "no logré", "no he logrado", "no fue posible"),
        ("encontrar", "localizar", "identificar", "hallar"),
    ),
    *_combine(
        ("no está claro", "no queda claro", "no resulta claro"),
        ("a partir del", "a partir de los", "en el texto", "en el contexto", "en los documentos"),
    ),
    "no encontré",
    "no he encontrado",
    "no es suficiente para responder",
    "no son suficientes para responder",
    "no basta para responder",
    "no bastan para responder",
)
_ES_NOT_PROVIDED = (
    *_combine(
        ("no se proporciona", "no se proporcionan"),
        (
            "información",
            "informaciones",
            "datos",
            "detalles",
            "ningún dato",
            "ninguna información",
            "ningún detalle",
            "esa información",
            "esta información",
            "dicha información",
            "el dato",
            "los datos",
            "la información",
            "la cifra",
            "en el texto",
            "en el contexto",
            "en el documento",
            "en los documentos",
            "en el informe",
            "en el fragmento",
            "en el pasaje",
            "en la información",
            "en las fuentes",
        ),
    ),
    "no se proporciona.",
    "no se proporcionan.",
)
_FR_SAYS_NOT = (
    *_combine(
        (
            *("le texte", "le document", "le rapport", "le passage", "l'extrait", "la source"),
            *("le contexte", "le texte fourni", "le contexte fourni", "le document fourni"),
            "la documentation",
        ),
        (
            "n'indique pas",
            "ne mentionne pas",
            "ne traite pas",
            "n'aborde pas",
            "est insuffisant",
            "est insuffisante",
            "n'est pas suffisant",
            "ne révèle pas",
            "ne divulgue pas",
            "ne donne pas",
            "ne fournit pas",
            "ne contient pas",
            "n'inclut pas",
            "ne dit pas",
            "ne spécifie pas",
            "ne détaille pas",
            "ne fait pas mention",
            "ne suffit pas",
            "ne permet pas de déterminer",
            "ne permet pas de savoir",
        ),
    ),
    *_combine(
        (
            "les textes",
            "les rapports",
            "les passages",
            "les extraits",
            "les sources",
            "les informations fournies",
            "les informations disponibles",
            "les documents",
            "les documents fournis",
            "les textes fournis",
        ),
        (
            "n'indiquent pas",
            "ne mentionnent pas",
            "ne traitent pas",
            "n'abordent pas",
            "sont insuffisants",
            "sont insuffisantes",
            "ne révèlent pas",
            "ne divulguent pas",
            "ne donnent pas",
            "ne fournissent pas",
            "ne contiennent pas",
            "n'incluent pas",
            "ne disent pas",
            "ne spécifient pas",
            "ne détaillent pas",
            "ne font pas mention",
            "ne suffisent pas",
            "ne permettent pas de déterminer",
            "ne permettent pas de savoir",
        ),
    ),
    *_combine(
        (
            "ne figure pas dans",
            "n'apparaît pas dans",
            "n'est pas indiqué dans",
            "pas clair d'après",
        ),
        ("le texte", "le document", "les documents", "le contexte", "le rapport", "l'extrait"),
    ),
)
_FR_CANNOT = (
    *_combine(
        (
            "impossible de",
            "il n'est pas possible de",
            "je ne peux pas",
            "je ne suis pas en mesure de",
        ),
        ("déterminer", "savoir", "préciser", "établir", "confirmer", "dire", "identifier"),
    ),
    *_combine(
        ("ne peut pas être", "ne peut être", "ne peuvent pas être"),
        ("déterminé", "déterminée", "déterminés", "établi", "établie", "précisé", "précisée"),
    ),
    *_combine(
        ("je n'ai pas pu", "je ne parviens pas à", "je n'arrive pas à", "nous n'avons pas pu"),
        ("trouver", "localiser", "identifier"),
    ),
    "je ne trouve pas",
    "je n'ai trouvé aucune",
    "ne suffisent pas pour répondre",
    "ne suffit pas pour répondre",
    "ne suffisent pas à répondre",
    "insuffisantes pour répondre",
)
_DE_NOT_ENOUGH = (
    *_combine(
        ("informationen", "angaben", "daten", "unterlagen", "dokumente", "quellen", "textstellen"),
        ("reichen nicht aus", "sind nicht ausreichend", "genügen nicht"),
    ),
    *_combine(
        ("der text", "der kontext", "das dokument", "der bericht", "der auszug", "der abschnitt"),
        ("reicht nicht aus", "ist nicht ausreichend", "genügt nicht"),
    ),
    # "geht aus dem Text nicht hervor", "lässt sich aus den Dokumenten nicht bestimmen"
    *_combine(
        ("aus dem", "aus den"),
        (
            "text nicht",
            "kontext nicht",
            "dokument nicht",
            "dokumenten nicht",
            "unterlagen nicht",
            "bericht nicht",
            "auszug nicht",
            "bereitgestellten informationen nicht",
            "bereitgestellten dokumenten nicht",
        ),
    ),
    "nicht bestimmen",
    "nicht ermitteln",
    "nicht feststellen",
    "nicht bestimmt werden",
    "nicht ermittelt werden",
    "nicht festgestellt werden",
    "nicht zu entnehmen",
    "nicht entnehmen",
    "nicht offengelegt",
    "nicht auffinden",
    "nicht finden.",
)
# Chinese, Japanese, Korean, Thai: a source then "not" (文档中未…, 資料には含まれていません), and
# "cannot" + a verb of finding out.
_ZH_HANS_MORE = (
    *_concat(
        ("文中", "文档中", "文件中", "资料中", "报告中", "上下文中", "文本中", "提供的信息中"),
        ("未", "并未", "没有", "并没有"),
    ),
    *_concat(("无法", "未能", "没能"), ("判断", "确认", "得出", "找到", "查到", "推断", "确定")),
    "不足以回答",
    "不足以确定",
    "不足以判断",
    "无从判断",
    "查不到",
)
_ZH_HANT_MORE = (
    *_concat(
        ("文中", "文件中", "資料中", "報告中", "上下文中", "文本中", "提供的資訊中"),
        ("未", "並未", "沒有", "並沒有"),
    ),
    *_concat(("無法", "未能", "沒能"), ("判斷", "確認", "得出", "找到", "查到", "推斷", "確定")),
    "不足以回答",
    "不足以確定",
    "不足以判斷",
    "無從判斷",
    "查不到",
)
_JA_MORE = (
    *_concat(
        ("記載", "言及", "明記", "明示", "開示", "説明", "記述", "掲載"),
        ("されていません", "されておりません", "されていない", "されておらず"),
    ),
    *_concat(
        ("特定", "判断", "確認", "判別", "断定", "把握"),
        ("できません", "することはできません", "することができません", "できかねます"),
    ),
    *_concat(
        ("資料には", "文書には", "コンテキストには", "テキストには", "文脈には", "本文には"),
        ("含まれていません", "ありません"),
    ),
    "見当たりません",
    *_concat(
        ("答えるには", "回答するには", "情報が"), ("不十分です", "不十分であり", "不足しています")
    ),
    "見つけられませんでした",
    "見つけることができませんでした",
    "情報はありません",
)
_KO_MORE = (
    *_combine(
        (
            "문서에",
            "문서에는",
            "자료에",
            "자료에는",
            "본문에",
            "본문에는",
            "텍스트에",
            "텍스트에는",
            "컨텍스트에",
            "컨텍스트에는",
            "보고서에",
            "보고서에는",
        ),
        (
            "공개되어 있지 않",
            "공개되지 않",
            "포함되지 않",
            "기재되어 있지 않",
            "기재되지 않",
            "설명되어 있지 않",
            "언급이 없",
            "나와 있지 않",
        ),
    ),
    "판단할 수 없",
    "파악할 수 없",
    "특정할 수 없",
    "확인할 수 없",
    "찾지 못했",
    "찾을 수 없",
    "정보가 부족",
)
_TH_MORE = (
    *_concat(("ไม่สามารถ",), ("หา", "บอก", "ยืนยัน", "ตัดสิน", "สรุป", "ระบุ")),
    *_concat(("ไม่ปรากฏใน", "ไม่พบใน"), ("เอกสาร", "ข้อความ", "บริบท")),
    "ไม่ได้เปิดเผย",
    "ไม่ได้ให้รายละเอียด",
    "ไม่ได้บอก",
    "หาไม่พบ",
    "ค้นหาไม่พบ",
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
        # "It mentions the 2019 revenue but does not state the 2021 figure." (as "don't state")
        "doesn't state",
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
        "insufficient context",
        "insufficient details",
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
        "doesn't appear in the provided",
        "doesn't appear in the document",
        "doesn't appear in the context",
        "doesn't appear in the text",
        "not supported by the retrieved documents",
        "not supported by the provided documents",
        "I don't see that in the",
        "I don't see this in the",
        "I don't see any information",
        "I don't see any reference",
        "I don't see any mention",
        "no information is given",
        "no information was given",
        "no information is provided",
        "no details are given",
        "no details are provided",
        # "Nothing in the context indicates when the product launched."
        *_combine(
            (
                "nothing in the context",
                "nothing in the provided context",
                "nothing in the documents",
                "nothing in the provided documents",
                "nothing in the text",
                "nothing in the passage",
                "nothing in the passages",
                "nothing in the sources",
            ),
            (
                *("indicates", "says", "states", "mentions", "specifies", "tells us"),
                *("addresses", "covers", "answers", "discusses", "explains", "describes"),
            ),
        ),
        # "The context is insufficient to answer this question."
        *_combine(_EN_SOURCE_ONE, ("is insufficient", "isn't sufficient", "isn't enough")),
        *_combine(_EN_SOURCE_MANY, ("are insufficient", "aren't sufficient", "aren't enough")),
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
        *_EN_SOURCE_SAYS_NOT,
        *_EN_PRONOUN_SAYS_NOT,
        *_EN_ABSENT_FROM_SOURCE,
        *_EN_SEARCHED,
        *_EN_NOT_POSSIBLE,
        "I don't have access",
        "I have no access",
        "we don't have access",
        "I lack access",
        # The whole answer only (``^...$``): "Unknown." answers nothing, "the cause is unknown"
        # is an answer.
        "^n/a$",
        "^unknown$",
        "^not known$",
        "^not available$",
        "^not specified$",
        "^not stated$",
        "^not mentioned$",
        "^not provided$",
        "^not given$",
        "^no answer$",
        "^unanswerable$",
        "^not answerable$",
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
        *_ZH_HANS_MORE,
        "^未知$",
        "^不详$",
        "^不明$",
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
        *_ZH_HANT_MORE,
        "^未知$",
        "^不詳$",
        "^不明$",
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
        *_JA_MORE,
        "^不明$",
    ),
    "ko": (
        "모르겠습니다",
        "모릅니다",
        "알 수 없",
        "답변할 수 없",
        "답할 수 없",
        "정보가 없",
        "정보는 없",  # "…에 대한 정보는 없습니다": the topic particle
        "정보도 없",
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
        *_KO_MORE,
        "^알 수 없음$",
        "^불명$",
        "^미상$",
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
        *_TH_MORE,
        "^ไม่ระบุ$",
    ),
    "es": (
        "no lo sé",
        "no sé",
        "no se menciona",
        # "no se proporciona" only with what is missing, a source or at the end of a sentence:
        # "No se proporciona transporte desde el aeropuerto." is an answer (as "not provided").
        *_ES_NOT_PROVIDED,
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
        # with its source only: "El plan no incluye información de facturación" answers
        "proporcionados no incluyen información",
        "proporcionado no incluye información",
        "proporcionadas no incluyen información",
        "proporcionada no incluye información",
        "documentos no incluyen información",
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
        *_ES_SAYS_NOT,
        *_ES_CANNOT,
        "^desconocido$",
        "^desconocida$",
        "^no disponible$",
        "^no especificado$",
        "^n/d$",
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
        "je ne dispose pas de cette information",
        "je ne dispose pas de ces informations",
        "je ne dispose pas de l'information",
        "je ne dispose pas des informations",
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
        *_FR_SAYS_NOT,
        *_FR_CANNOT,
        "^inconnu$",
        "^inconnue$",
        "^non disponible$",
        "^non précisé$",
        "^non spécifié$",
        "^non communiqué$",
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
        # "Nichts im Kontext behandelt diese Frage.", "Die Dokumentation erwähnt keine Garantie."
        *_combine(
            (
                "nichts im kontext",
                "nichts im text",
                "nichts im dokument",
                "nichts in den dokumenten",
            ),
            ("behandelt", "erwähnt", "sagt", "beantwortet", "nennt", "beschreibt"),
        ),
        *_combine(
            ("die dokumentation", "der text", "der kontext", "das dokument"),
            ("erwähnt kein", "erwähnt keine", "erwähnt keinen", "nennt kein", "nennt keine"),
        ),
        *_DE_NOT_ENOUGH,
        "^unbekannt$",
        "^nicht bekannt$",
        "^keine angabe$",
        "^k. a.$",
        "^k.a.$",
        "^nicht verfügbar$",
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


def _phrase(marker: str) -> str:
    """A marker (or a marker's match) as its set keeps it: normalised, single spaces."""
    return " ".join(normalize_plain(marker).split())


def _marker_pattern(marker: str) -> str:
    text = _phrase(marker)
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
        "markers",
    )

    def __init__(self, markers: tuple[str, ...]) -> None:
        self.markers = markers
        grouped: dict[bytes | None, list[str]] = {}
        needs: dict[bytes, list[frozenset[bytes]]] = {}
        whole: list[str] = []
        for m in dict.fromkeys(markers):
            if _is_whole_answer(m):
                whole.append(m[1:-1])
                continue
            runs = letter_runs(normalize_plain(m))
            trigger = max(sorted(runs), key=len) if runs else None  # longest, then first
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
        # Markers without ASCII letters: compiled on the first non-ASCII text that holds the
        # first character of one of them (a curly quote or a dash is no reason to compile them).
        self._other_markers = grouped.get(None) or []
        self._others: re.Pattern[str] | None = None
        self._other_starts: re.Pattern[str] | None = None
        self._triggers = frozenset(self._sources)
        # Punctuation, quotes and markup around a whole answer are ignored ("**N/A**", "Unknown."),
        # and so is a label before it ("Answer: N/A").
        self._whole = (
            re.compile(rf"[\W_]*(?:{_ANSWER_LABEL}[\W_]*)?(?:{_bodies(whole)})[\W_]*\Z")
            if whole
            else None
        )

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
        """The first marker found in the *normalised* ``text`` that refuses where it stands
        (:func:`_refuses_here`; ``None``: no abstention).

        ``words`` is the set of ASCII letter runs of ``text`` (:func:`letter_runs`) when the
        caller has it. Markers ending in a full stop also match at the very end of the text;
        ``^phrase$`` markers match only the whole text. Unless ``include_hedged``, ``None`` when
        the first marker belongs to a partial answer (see :func:`abstains`): the text answers,
        so later markers only refuse details of it.
        """
        if self._whole is not None and len(text) <= _WHOLE_ANSWER_MAX:
            whole = self._whole.match(text)
            if whole is not None:
                return whole
        if words is None:
            words = letter_runs(text)
        text += "."  # so that sentence-final markers match an answer without a final stop
        triggered = [
            self._group(t)
            for t in words & self._triggers  # a frozenset: iterates the smaller side
            if any(need <= words for need in self._needs[t])
        ]
        other = self._other(text)
        if other is not None:
            triggered.append(other)
        found: list[tuple[re.Match[str], re.Pattern[str]]] | None = None  # most texts: none
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
            if not any(need <= words for need in self._needs[trigger]):
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
        concessive = _CONCESSIVE.match(head)
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
        begin = _since(_LAST_SENTENCE_END, text, m.start())
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
        for v in _VERDICT().finditer(text, _since(_LAST_SENTENCE_END, text, pos)):
            start = v.start()
            weak = v.lastgroup in ("weak", "weak_cjk")
            if weak and _CONCLUSION_BEFORE().search(text, max(0, start - 60), start) is None:
                continue
            clause = _since(_LAST_CLAUSE_BREAK, text, start)
            if _CONDITION().search(text, clause, start) is not None:
                continue
            sentence = _since(_LAST_SENTENCE_END, text, start)
            concessive = _CONCESSIVE.match(text, sentence, start)
            if concessive is not None and _CLAUSE_END.search(text, concessive.end(), start) is None:
                continue
            if not self._contrast_answers(text, v.end()):
                return True
        return False


_WHOLE_ANSWER_MAX = 200
"""Longest text tried against the whole-answer (``^phrase$``) markers."""
_ANSWER_LABEL = r"(?:answer|response|respuesta|réponse|antwort|答案|回答|답변|คำตอบ)\s*:"


def _is_whole_answer(marker: str) -> bool:
    """Whether ``marker`` is written ``^phrase$`` (matches only a whole answer)."""
    return len(marker) > 2 and marker[0] == "^" and marker[-1] == "$" and bool(marker[1:-1].strip())


def _bodies(phrases: list[str]) -> str:
    """An alternation of the normalised ``phrases``, longest first, any spacing between words."""
    texts = sorted({_phrase(p) for p in phrases}, key=len, reverse=True)
    return "|".join(r"\s+".join(re.escape(w) for w in t.split(" ")) for t in texts)


# Sentence ends: . ! ? and their CJK forms (not a decimal point), or a line break.
_SENTENCE_END = re.compile(r"[.!?。！？](?!\d)|\n")
_PRECISION_WORD = lazy(
    r"(?<!\w)(?:exact|exactly|precise|precisely"  # English
    r"|exacte?s?|exactement|précisément"  # French ("précise" is also "specifies")
    r"|exact[ao]s?|exactamente|precisamente"  # Spanish (so is "precisa")
    r"|genaue?[nrs]?|exakte?[nrs]?)(?!\w)"  # German
)
"""Words with which a refusal refuses only a detail's precision (see ``_precision_then_answer``):
``exact``, ``exacte``, ``exacta``, ``genaue``."""
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
_CONTRAST_IN = lazy(rf"(?<!\w)(?:{_CONTRAST_WORDS})(?!\w)|;|{_CONTRAST_CJK}")
# A contrast opening the next sentence ("However, ...", "Still, ...", "但是...").
_CONTRAST_OPENS = lazy(rf"(?i)\s*(?:(?:{_CONTRAST_WORDS}|still|yet)(?!\w)|{_CONTRAST_CJK})")
# What separates a statement from a refusal that follows it in the same sentence ("Revenue was
# $4.2 billion; however, the context ..."): a semicolon or a contrast. A comma alone does not:
# "The salary, bonus and options are not mentioned." is one refusal.
_HEAD_BREAK = lazy(
    r";|(?<!\w)(?:but|however|although|though|yet|whereas|pero|sin embargo|aunque|mais|"
    r"cependant|toutefois|pourtant|aber|jedoch|allerdings)(?!\w)|"
    r"但|不过|不過|然而|可是|ただし|しかし|ですが|が、|が,|하지만|그러나|지만|แต่"
)
# A sentence opening with a concessive subordinate clause ("Although ..., <main clause>").
_CONCESSIVE = re.compile(
    r"\s*(?:(?:although|though|even though|while|whilst|even if|aunque|si bien|a pesar de que|"
    r"bien que|quoique|même si|obwohl|obgleich|wenngleich|auch wenn)(?!\w)|虽然|雖然|尽管|儘管)"
)
# The end of a clause: a comma (not a thousands or decimal one), a semicolon or a dash.
_CLAUSE_END = re.compile(r",(?!\d)|;|、|\s-\s")
# A continuation that only points elsewhere ("but you can check the website", "However, I can
# suggest ...") does not answer.
_DEFLECTION = lazy(
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
# Clauses that state nothing about the question, dropped whole: apologies, thanks, greetings,
# "I have reviewed the documents", "Regarding your question", "As an AI ...".
_FILLER = lazy(
    r"\s*(?:(?:"
    r"sorry|i'm sorry|i am sorry|we're sorry|we are sorry|apologies|my apologies|"
    r"i apologi[sz]e|we apologi[sz]e|unfortunately|regrettably|sadly|alas|thank you|thanks|"
    r"hello|hi|hey|dear|good question|great question|that's a (?:good|great) question|"
    r"certainly|sure|of course|okay|ok|well|hmm|let me|here is|here's|here are|"
    r"as an ai|i'm an ai|i am an ai|to answer|in response to|regarding|concerning|as for|"
    r"as to|with regard to|with respect to|in regard to|you asked|you're asking|"
    r"you are asking|(?:the|this|your) question (?:asks|is asking|is about|concerns|refers to)|"
    r"please note|"
    r"(?:i|we) (?:have |had |'ve )?(?:carefully |thoroughly )?(?:reviewed|checked|read|"
    r"searched|examined|looked|gone through|went through|scanned|analy[sz]ed)|"
    r"after (?:carefully )?(?:reviewing|checking|reading|searching|examining|looking|"
    r"analy[sz]ing|going through)|upon (?:reviewing|checking|reading|examining|review)|"
    r"having (?:reviewed|checked|read|searched|examined|looked)|"
    r"lo siento|lamentablemente|desafortunadamente|disculp[ae]|perdón|gracias|hola|claro|"
    r"por supuesto|con respecto a|en cuanto a|respecto a|después de revisar|tras revisar|"
    r"he revisado|revisé|"
    r"désolée?|je suis désolée?|malheureusement|hélas|pardon|excusez|je m'excuse|merci|"
    r"bonjour|bien sûr|concernant|en ce qui concerne|quant à|après avoir|"
    r"j'ai (?:examiné|consulté|vérifié|lu|parcouru)|"
    r"leider|entschuldigung|es tut mir leid|tut mir leid|bedauerlicherweise|danke|"
    r"vielen dank|hallo|natürlich|bezüglich|hinsichtlich|nach (?:prüfung|durchsicht)"
    r")(?![\w'-])|"
    r"抱歉|很抱歉|非常抱歉|对不起|對不起|不好意思|遗憾|遺憾|您好|你好|谢谢|謝謝|感谢|感謝|关于|關於|"
    r"申し訳|すみません|恐れ入り|残念|ご質問|こんにちは|ありがとう|"
    r"죄송|미안|유감스럽게도|안녕하세요|감사합니다|"
    r"ขออภัย|ขอโทษ|เสียใจ|น่าเสียดาย|สวัสดี|ขอบคุณ"
    r")"
)
# A frame before what a clause states ("Based on the provided context, ...", "Según el
# texto, ..."), dropped from the clause.
_SOURCE_NOUNS = (
    r"contexts?|documents?|texts?|passages?|excerpts?|sources?|materials?|information|reports?|"
    r"articles?|snippets?|contexto|texto|documentos?|información|fragmentos?|pasajes?|informe|"
    r"fuentes?|contexte|texte|informations?|extraits?|rapport|kontext|textes?|dokumente?n?|"
    r"unterlagen|informationen|angaben|quellen?|bericht|berichts|auszug"
)
_FRAME = lazy(
    r"\s*(?:(?:based on|according to|from|in|within|given|per|looking (?:at|through|over)|"
    r"reviewing|checking|searching|según|de acuerdo con|basándome en|basado en|con base en|en|"
    r"a partir de|selon|d'après|sur la base d[eu]s?|en me basant sur|dans|à partir d[eu]s?|"
    r"laut|gemäß|basierend auf|auf grundlage|anhand|im|in den|aus dem|aus den)"
    rf"\s+(?:\S+\s+){{0,3}}?(?:{_SOURCE_NOUNS})(?!\w)"
    r"(?:\s+(?:provided|given|available|supplied|above|below|retrieved|proporcionad[oa]s?|"
    r"dad[oa]s?|disponibles?|fournie?s?|donnée?s?))?|"
    r"(?:根据|根據|依据|依據|基于|基於|按照)[^,。]{0,12}?(?:文档|文件|资料|資料|上下文|文本|内容|內容|"
    r"信息|資訊|报告|報告)(?:中|里|裡|内|內)?|"
    r"提供された(?:資料|文書|ドキュメント|コンテキスト|情報|テキスト)(?:によると|に基づくと|では|には)?|"
    r"제공된 (?:문서|자료|정보|컨텍스트|텍스트)(?:에 따르면|에 의하면|를 바탕으로|에서는|에는)?"
    r")"
)
# A remark on what the source is about, not what it says: "The context only covers revenue and
# headcount", "It mainly discusses the merger", "The documents provide details about the Pro
# plan" (but "The report mentions that ..." states, as "According to the report, ..." does).
_META = lazy(
    r"\s*(?:(?:the|this|these) )?(?:(?:provided|given|retrieved|available|supplied) )?"
    r"(?:contexts?|documents?|texts?|passages?|excerpts?|sources?|reports?|articles?|"
    r"information|materials?|snippets?|it|they)(?: provided| given| above)?"
    r"(?: only| mainly| primarily| just)? (?:mentions?|discuss(?:es)?|describes?|covers?|"
    r"talks? about|focus(?:es)? on|is about|are about|deals? with|refers? to|concerns?|"
    r"relates? to|address(?:es)?|explains?|outlines?|lists?(?! for| at)|summari[sz]es?|"
    r"touch(?:es)? on|"
    r"highlights?|(?:contains?|provides?|includes?|gives?|offers?|has|have) "
    r"(?:some |only |general |limited |detailed |specific |more |extensive |a lot of )?"
    r"(?:information|details|data|an overview|a description|a summary|an explanation))"
    r"(?!\w)(?! that)"
)
_CONNECTOR = lazy(
    r"(?:\s*(?:(?:but|however|although|though|yet|still|and|so|also|instead|nevertheless|"
    r"nonetheless|that said|pero|sin embargo|aunque|y|mais|cependant|toutefois|pourtant|et|"
    r"aber|jedoch|allerdings|doch|und)(?![\w'-])|但是|但|不过|不過|然而|可是|しかし|ただし|"
    r"하지만|그러나|다만|แต่)[\s,]*){0,3}"
)
# A clause that is only a list number ("1" of "1. The context does not ...").
_ENUMERATOR = re.compile(r"[\W_]*\d{1,2}[\W_]*")
_CLAUSE_BREAK = re.compile(r"[,;:、]|\s-\s")


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
        for clause in _CLAUSE_BREAK.split(part):
            connector = _CONNECTOR().match(clause)
            if connector is not None:
                clause = clause[connector.end() :]
            frame = _FRAME().match(clause)
            if frame is not None:
                clause = clause[frame.end() :]
            if _META().match(clause):
                if clause.lstrip().startswith(("it ", "they ")):
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
# Written as expressions over the normalised text (case folded, "ß" as "ss"), not as phrase lists:
# the phrases they stand for would make a pattern ten times as long, 50 ms to compile.
_EN_UNABLE = (
    r"(?:i|we)(?:\s+(?:can't|cannot|can\s+not|couldn't|could\s+not|won't\s+be\s+able\s+to|"
    r"will\s+not\s+be\s+able\s+to)|(?:\s+am|'m|\s+are|'re|\s+was|\s+were)\s+(?:unable|not\s+able)"
    r"\s+to)"
)
# A refusal of the whole question, a verdict wherever it stands.
_VERDICT_STRONG = (
    # English
    rf"{_EN_UNABLE}\s+(?:answer(?:\s+(?:this|that|it))?|(?:provide|give|offer|determine|find)\s+"
    r"(?:an?|the)\s+(?:(?:definitive|specific|precise|clear|accurate)\s+)?answer)|"
    r"(?:the|this|your)\s+question\s+(?:can't|cannot|can\s+not)\s+be\s+answered|"
    r"it(?:\s+is|'s)\s+(?:not\s+possible|impossible)\s+to\s+answer|there\s+is\s+no\s+way\s+to\s+"
    r"answer|(?:there\s+is|there's|there\s+isn't|i\s+(?:don't|do\s+not)\s+have)\s+(?:not\s+)?"
    r"(?:enough|sufficient|insufficient)\s+information\s+to\s+answer|"
    # Spanish
    r"(?:no\s+(?:puedo|podemos|me\s+es\s+posible|es\s+posible|se\s+puede)|es\s+imposible)\s+"
    r"(?:responder|contestar|(?:dar|proporcionar|ofrecer)\s+una\s+respuesta|dar\s+la\s+respuesta)|"
    # French
    r"(?:je\s+ne\s+peux(?:\s+donc)?\s+pas|nous\s+ne\s+pouvons(?:\s+donc)?\s+pas|"
    r"(?:je|nous)\s+ne\s+(?:suis|sommes)(?:\s+donc)?\s+pas\s+en\s+mesure\s+de|"
    r"il\s+(?:m'est|est)(?:\s+donc)?\s+impossible\s+de|il\s+n'est(?:\s+donc)?\s+pas\s+possible\s+"
    r"de|impossible\s+de)\s+(?:répondre|(?:donner|fournir|apporter)\s+(?:une|de)\s+réponse)|"
    # German
    r"(?:kann\s+ich|ich\s+kann)(?:\s+(?:die|diese|ihre)\s+frage|\s+das|\s+dies)?"
    r"(?:\s+(?:daher|deshalb|somit|also|leider))*\s+(?:nicht\s+beantworten|keine\s+antwort\s+geben)|"
    r"lässt\s+sich(?:\s+(?:die|diese)\s+frage)?\s+nicht\s+beantworten|"
    r"kann(?:\s+(?:die|diese)\s+frage)?\s+nicht\s+beantwortet\s+werden|ist\s+nicht\s+zu\s+beantworten"
)
# A bare "I can't say" or "I don't know": a verdict only when drawn as a conclusion
# ("..., so I can't say."); after a statement and "but" it is a disclaimer on that statement.
_VERDICT_WEAK = (
    rf"{_EN_UNABLE}\s+(?:say(?:\s+(?:more|for\s+sure|for\s+certain|with\s+certainty))?|"
    r"tell(?:\s+for\s+sure)?|determine(?:\s+(?:this|it))?|know|confirm)|"
    r"(?:i|we)\s+(?:don't|do\s+not)\s+know|i(?:'m|\s+am)\s+not\s+sure|"
    r"it(?:\s+is|'s)\s+(?:not\s+possible|impossible)\s+to\s+(?:say|tell|determine|know)|"
    r"(?:it|this)\s+(?:can't|cannot|can\s+not)\s+be\s+determined|"
    r"no\s+(?:lo\s+)?sé|no\s+estoy\s+segur[oa]|"
    r"no\s+(?:puedo|es\s+posible|se\s+puede)\s+(?:saber|determinar|decir)(?:lo)?|"
    r"je\s+ne\s+sais\s+pas|je\s+l'ignore|je\s+ne\s+suis\s+pas\s+sûre?|"
    r"(?:je\s+ne\s+peux\s+pas|(?:il\s+est\s+)?impossible\s+de|on\s+ne\s+peut\s+pas)\s+le\s+"
    r"(?:dire|savoir|déterminer|préciser)|"
    r"ich\s+weiss(?:\s+es)?\s+nicht|weiss\s+ich(?:\s+(?:es|das))?\s+nicht|"
    r"(?:ich\s+bin|bin\s+ich)\s+mir\s+nicht\s+sicher|"
    r"(?:kann\s+ich|lässt\s+sich)(?:\s+(?:es|das))?\s+nicht\s+sagen|"
    r"lässt\s+sich(?:\s+das)?\s+nicht\s+bestimmen"
)
# Chinese, Japanese, Korean and Thai (no word boundaries: their verbs attach endings).
_VERDICT_STRONG_CJK = (
    r"(?:无法|無法|不能|无从|無從)回答(?:这个|這個|该|該|此|您的|你的)?(?:问题|問題)?|"
    # Japanese: "(この質問には)答えられません", "回答できません", "お答えすることができません"
    r"(?:(?:この|その|ご)?(?:ご)?質問(?:に|には|へは)\s*)?(?:お)?(?:答え|回答)(?:られ|でき|"
    r"することができ|いたしかね|しかね)(?:ません|ない)|"
    # Korean: "(이 질문에) 답할 수 없습니다", "답변을 드릴 수 없습니다", "대답할 수 없어요"
    r"(?:(?:이|그|해당)\s*질문에\s*(?:대해(?:서는)?\s*)?)?(?:답변|대답|답)(?:을|를)?\s*(?:하|할|드릴)\s*"
    r"수\s*(?:없습니다|없어요|없다|없음)|"
    # Thai: "ไม่สามารถตอบ(คำถามนี้)ได้", "ตอบคำถามนี้ไม่ได้" (in NFKC, as texts are normalised:
    # SARA AM is two characters there)
    + unicodedata.normalize(
        "NFKC", r"ไม่สามารถ(?:ให้)?(?:ตอบ|คำตอบ)(?:คำถาม(?:นี้)?)?(?:ได้)?|ตอบ(?:คำถาม(?:นี้)?)?ไม่ได้"
    )
)
_VERDICT_WEAK_CJK = (
    r"(?:我)?(?:不知道|无法确定|無法確定|无法判断|無法判斷)|"
    r"(?:わかりません|分かりません|判断できません|特定できません|確認できません)|"
    r"(?:(?:잘\s*)?모르겠습니다|(?:알|확인할|판단할)\s*수\s*(?:없습니다|없어요))|"
    r"(?:ไม่ทราบ|ไม่รู้|ไม่สามารถ(?:ระบุ|ยืนยัน|บอก)ได้)"
)
# What may follow a verdict in its clause: the question, then the source, then "at this time".
_QUESTION_TAIL = (
    r"(?:\s+(?:(?:to|a|à)\s+)?(?:the|this|your|that|la|esta|su|tu|cette|votre|ta)\s+"
    r"(?:question|pregunta)s?)?"
)
_SOURCE_TAIL = (
    r"(?:\s*,?\s*(?:(?:based|solely|only)\s+(?:(?:solely|only)\s+)?on|from|with|using|given|"
    r"according\s+to|in|con|a\s+partir\s+de|según|con\s+base\s+en|basándome\s+en|"
    r"à\s+partir\s+d[eu]s?|d'après|selon|avec|sur\s+la\s+base\s+d[eu]s?|"
    r"en\s+me\s+basant\s+sur)\s+(?:\S+\s+){0,4}?"
    rf"(?:{_SOURCE_NOUNS}|data|datos|données)(?!\w)"
    r"(?:\s+(?:provided|given|available|above|alone|proporcionad[oa]s?|dad[oa]s?|"
    r"disponibles?|fournie?s?|donnée?s?))?)?"
    r"(?:\s+(?:at\s+this\s+time|at\s+the\s+moment|right\s+now|here))?"
)
# The end of the verdict's clause; not a comma that opens what is not known ("Ich weiß nicht,
# ob ...").
_VERDICT_END = (
    r"(?=\s*(?:[.!?;。！？；\n]|[,，](?!\s*(?:ob|wie|was|wann|wo|warum|wer|welche\w*|dass|whether|"
    r"if|si|qué|cuál|cuándo|cómo|dónde|quand|où|comment|pourquoi|what|which|when|how|why|who)"
    r"(?!\w))))"
)
_VERDICT = lazy(
    rf"(?:(?<![\w'])(?P<strong>{_VERDICT_STRONG}){_QUESTION_TAIL}"
    rf"|(?P<strong_cjk>{_VERDICT_STRONG_CJK})"
    rf"|(?<![\w'])(?P<weak>{_VERDICT_WEAK})"
    rf"|(?P<weak_cjk>{_VERDICT_WEAK_CJK})){_SOURCE_TAIL}{_VERDICT_END}"
)
# A conclusion just before a weak verdict: "..., so (unfortunately) I can't say".
_CONCLUSION_WORDS = (
    "so|therefore|thus|hence|consequently|as a result|as such|accordingly|for this reason|"
    "for that reason|which is why|that is why|that's why|this is why|which means|meaning|"
    "por lo tanto|por tanto|por lo que|así que|por eso|por ello|por consiguiente|"
    "en consecuencia|de modo que|de manera que|"
    "donc|par conséquent|ainsi|c'est pourquoi|de ce fait|dès lors|en conséquence|"
    "daher|deshalb|deswegen|somit|folglich|darum|also|aus diesem grund|weshalb"
).replace(" ", r"\s+")
_CONCLUSION_BEFORE = lazy(
    rf"(?:(?<![\w'])(?:{_CONCLUSION_WORDS})(?:\s+that)?[\s,]*"
    r"(?:(?:unfortunately|sadly|regrettably|i'm\s+afraid|i\s+am\s+afraid|lamentablemente|"
    r"malheureusement|leider)[\s,]*)?|"
    # Chinese; Japanese ("...ため、", "したがって"); Korean ("...없으므로", "따라서");
    # Thai ("ดังนั้น(จึง)")
    r"(?:所以|因此|因而|故而|したがって|従って|そのため|ため|ので|よって|따라서|그러므로|그래서|"
    r"므로|때문에|ดังนั้น(?:จึง)?|จึง)[\s,，、]*)\Z"
)
"""A verdict whose group is ``weak`` or ``weak_cjk`` counts only after one of these."""


# --- Markers that do not refuse where they stand ---------------------------------------------
_LOOKBACK = 200
"""How far back (characters) the clause or sentence of a marker is looked for."""
_LAST_CLAUSE_BREAK = re.compile(r"(?s:.*)(?:[,;:!?。！？、；\n]|\.(?!\d)|\s-\s)")
_LAST_SENTENCE_END = re.compile(r"(?s:.*)(?:[!?。！？\n]|\.(?!\d))")


def _since(last_break: re.Pattern[str], text: str, pos: int) -> int:
    """Where the clause or sentence holding ``pos`` opens (``last_break``: what closes one),
    looking back at most :data:`_LOOKBACK` characters."""
    lo = max(0, pos - _LOOKBACK)
    m = last_break.match(text, lo, pos)
    return m.end() if m is not None else lo


# A condition ("If no date is specified, ...", "Falls nicht angegeben, ...", "Si no se especifica
# una fecha, ..."), not a concession ("even if", "auch wenn", "même si", "si bien").
_CONDITION = lazy(
    r"(?<![\w'-])(?<!even )(?<!auch )(?<!selbst )(?<!même )(?<!aun )(?<!incluso )"
    r"(?:if|unless|si|wenn|falls|sofern|soweit|a\s+menos\s+que|salvo\s+que|"
    r"en\s+caso\s+de\s+que|à\s+moins\s+que|au\s+cas\s+où)(?![\w'-])(?!\s+(?:bien|auch)(?!\w))"
)
# What a missing-information marker is followed by when it speaks of personal data, not of the
# source: "Nous ne vendons pas d'informations personnelles", "Der Anbieter gibt keine
# Informationen an Dritte weiter", "No hay información personal almacenada en el dispositivo".
_PERSONAL_DATA_AFTER = lazy(
    r"\s+(?:personnelles?|personal(?:es)?|persönliche[nrs]?|personenbezogene[nrs]?|"
    r"confidentielles?|confidenciales?|vertrauliche[nrs]?|(?:à|aux|avec)\s+(?:des\s+)?tiers|"
    r"(?:a|con)\s+terceros|an\s+dritte|(?:with|to)\s+third\s+parties)(?![\w'-])"
)
# "indicated" in the medical sense: "Le médicament n'est pas indiqué chez l'enfant", "No se
# indica su uso durante el embarazo".
_FR_INDICATED_FOR = lazy(
    r"\s+(?:chez|pendant|durant|lors|en\s+cas|en\s+association|en\s+monothérapie|"
    r"en\s+(?:première|deuxième|seconde)\s+intention|(?:dans|pour)\s+(?:le\s+traitement|"
    r"la\s+prise\s+en\s+charge|la\s+prévention|ce\s+cas|cette\s+indication|les\s+cas)|"
    r"avant\s+l'âge|aux?\s+(?:enfants?|patients?|femmes?|personnes?|adultes?|nourrissons?))"
    r"(?![\w'-])"
)
_ES_INDICATED_FOR = lazy(
    r"\s+(?:en\s+(?:niños|niñas|menores|pacientes|embarazadas|mujeres|adultos|personas|"
    r"ancianos|lactantes|el\s+embarazo|caso\s+de)|durante|para\s+el\s+tratamiento|"
    r"en\s+el\s+tratamiento|como\s+tratamiento|su\s+uso|el\s+uso)(?![\w'-])"
)
_SENSE_AFTER: dict[str, Callable[[], re.Pattern[str]]] = {
    "n'est pas indiqué": _FR_INDICATED_FOR,
    "n'est pas indiquée": _FR_INDICATED_FOR,
    "no se indica": _ES_INDICATED_FOR,
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
    r"(?<!\w)(?:ich|wir|mir|mich|uns|texte?s?|kontexte?s?|dokumente?[ns]?|berichte?[ns]?|"
    r"unterlagen|quellen?|auszug|auszüge[n]?|abschnitte?[ns]?|textstellen?|passagen?|artikel|"
    r"materialien|bereitgestellte\w*|vorliegende\w*)(?!\w)"
)
_DE_FINDING = lazy(
    r"(?<!\w)(?:informationen|information|angaben|antwort|daten|hinweise?|gefunden|finden|"
    r"auffinden|entnehmen|entnommen|ersichtlich|hervor)(?!\w)"
)
_DE_PAST = lazy(
    r"(?<!\w)(?:wurden?|worden|waren?|konnten?|hatten?|hat|haben|machten?|gaben?|lagen?)(?!\w)"
)
_DE_REFLEXIVE = lazy(r"(?<!\w)sich(?!\w)")
_DE_ACTIVE = frozenset(
    (
        "nicht bestimmen",
        "nicht ermitteln",
        "nicht feststellen",
        "nicht finden.",
        "nicht auffinden",
        "nicht beantworten",
        "nicht entnehmen",
        "keine antwort geben",
        "kann keine antwort",
    )
)
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
    sentence = _since(_LAST_SENTENCE_END, text, start)
    stop = _SENTENCE_END.search(text, end, end + _LOOKBACK)
    close = stop.start() if stop is not None else min(len(text), end + _LOOKBACK)
    around = f"{text[sentence:start]} {text[end:close]}"
    if _DE_SOURCE().search(around) is not None or _DE_FINDING().search(around) is not None:
        return True
    if phrase in _DE_ACTIVE:
        return _DE_REFLEXIVE().search(around) is not None
    closed = _CLAUSE_BREAK.search(text, end, close)
    clause_text = f"{text[clause:start]} {text[end : closed.start() if closed else close]}"
    return _DE_PAST().search(clause_text) is None


_EN_PRONOUN_MARKERS = frozenset(_phrase(m) for m in _EN_PRONOUN_SAYS_NOT)
# A sentence whose subject is a source: "The provided context discusses ...", "While the
# documents cover ...", "Unfortunately, the passage ...".
_SOURCE_OPENING = lazy(
    r"[\s\W]*(?:(?:unfortunately|however|but|sorry|while|whilst|although|though|even\s+though|"
    r"also|moreover|additionally|furthermore)(?!\w)[\s,]*)*"
    r"(?:the|this|these)\s+(?:(?:provided|given|retrieved|available|supplied|above)\s+)?"
    r"(?:contexts?|documents?|texts?|passages?|excerpts?|sources?|reports?|articles?|snippets?|"
    r"materials?|information)(?!\w)"
)


def _source_pronoun(text: str, start: int) -> bool:
    """Whether a pronoun marker at ``start`` ("it does not include") speaks of a source: its
    sentence opens with a source as subject, or it opens its sentence after one that does."""
    sentence = _since(_LAST_SENTENCE_END, text, start)
    if _SOURCE_OPENING().match(text, sentence, start) is not None:
        return True
    if sentence == 0 or text[sentence:start].strip(" \t,;") not in ("", "however", "but"):
        return False
    previous = _since(_LAST_SENTENCE_END, text, sentence - 1)
    return _SOURCE_OPENING().match(text, previous, sentence) is not None


def _scan(pattern: re.Pattern[str], text: str) -> list[re.Match[str]]:
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
    clause = _since(_LAST_CLAUSE_BREAK, text, start)
    if _CONDITION().search(text, clause, start) is not None:
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
    end of a sentence or of the answer; one written ``^phrase$`` only as the whole answer.

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
        if not m.strip():
            raise GroundingInputError(
                f"abstain_markers[{i}] is blank; remove it", argument=f"abstain_markers[{i}]"
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
    return abstains(text, include_hedged=True) or _MISSING_CUE().search(text) is not None
