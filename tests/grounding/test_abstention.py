"""Abstention markers in every built-in language, both directions; real refusal forms; hedged
partial answers (issue 9 item 5); no refusal found in real answers (HaluEval, OpenGATE, TAT-QA)."""

from __future__ import annotations

import gzip
import json
import time
from pathlib import Path
from typing import Any

import pytest

from hybridjudge.grounding import MARKERS_BY_LANGUAGE, GroundingTypeError, abstains, check_grounding

# Hand-written abstentions (one per language, phrased as a model would) and, for each language,
# a confident answer that must NOT count as abstaining.
ABSTAIN = {
    "en": "The context does not provide the annual price of the Enterprise plan.",
    "en-contraction": "Sorry, I don’t know the price.",  # curly apostrophe
    "en-caps-newline": "The provided context DOES NOT\nmention the price.",
    "zh-Hans": "上下文中没有提到企业版的年费。",
    "zh-Hant": "資料中沒有提供企業版的年費。",
    "ja": "エンタープライズプランの価格は記載されていません。",
    "ko": "엔터프라이즈 요금제의 가격은 알 수 없습니다.",
    "th": "ไม่มีข้อมูลเกี่ยวกับราคาแพ็กเกจองค์กร",
    "es": "No se menciona el precio del plan Enterprise.",
    "fr": "Le prix du plan Enterprise n'est pas mentionné.",
    "de": "Der Preis des Enterprise-Plans wird nicht erwähnt.",
}
ANSWER = {
    "en": "The Enterprise plan costs $499 per year and knowledge base access is included.",
    "zh-Hans": "企业版每年收费四百九十九美元。",
    "zh-Hant": "企業版每年收費四百九十九美元。",
    "ja": "エンタープライズプランは年間499ドルです。",
    "ko": "엔터프라이즈 요금제는 연간 499달러입니다.",
    "th": "แพ็กเกจองค์กรราคา 499 ดอลลาร์ต่อปี",
    "es": "El plan Enterprise cuesta 499 dólares al año.",
    "fr": "Le plan Enterprise coûte 499 dollars par an.",
    "de": "Der Enterprise-Plan kostet 499 Dollar pro Jahr.",
}


def test_every_required_language_has_markers() -> None:
    required = {"en", "zh-Hans", "zh-Hant", "ja", "ko", "th", "es", "fr", "de"}
    assert required <= set(MARKERS_BY_LANGUAGE)
    assert all(MARKERS_BY_LANGUAGE[lang] for lang in required)


@pytest.mark.parametrize("text", list(ABSTAIN.values()), ids=list(ABSTAIN))
def test_abstentions_are_recognised(text: str) -> None:
    assert abstains(text)


@pytest.mark.parametrize("text", list(ANSWER.values()), ids=list(ANSWER))
def test_confident_answers_are_not_abstentions(text: str) -> None:
    assert not abstains(text)


def test_latin_markers_need_word_boundaries() -> None:
    # "no information" must not fire inside "piano informational"
    assert not abstains("The piano informational booklet is attached.")
    assert abstains("There is no information about that.")


def test_custom_markers_replace_the_built_in_ones() -> None:
    assert abstains("N/A", markers=["n/a"])
    assert not abstains("I don't know.", markers=["n/a"])
    assert not abstains("I don't know.", markers=[])


def test_bad_types() -> None:
    with pytest.raises(GroundingTypeError, match="answer as a str"):
        abstains(None)  # type: ignore[arg-type]
    with pytest.raises(GroundingTypeError, match="list of phrases"):
        abstains("x", markers="n/a")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The annual price is not mentioned.", True),
        ("The annual price is not mentioned", True),  # end of text counts as end of sentence
        ("The price is not mentioned in the text, sorry.", True),
        ("Batteries are not provided with the kit.", False),
        ("The plan doesn't provide refunds after 30 days.", False),
        ("If you do not know your dose, ask your pharmacist.", False),
    ],
)
def test_passive_markers_only_at_sentence_end_or_with_a_source(text: str, expected: bool) -> None:
    assert abstains(text) is expected


# Refusal forms that real models and RAG systems write (issue 9 item 5). Each sentence is our own
# wording of a form seen in public logged model replies and refusal templates (found with a code
# search; none copied): "I do not have (specific) information about ...", "I am unable to provide
# an answer ...", "The provided documents do not mention ...", "I don't have enough information to
# answer ...", "... に関する情報は含まれていません", "... 제공된 문서에 포함되어 있지 않습니다", and so on.
REAL_FORMS = {
    "en-have-specific-info": "I do not have specific information about the warranty terms for refurbished units.",
    "en-have-info-contraction": "Sorry, I don't have information about the parking rules on campus.",
    "en-have-enough": "I don't have enough information to answer whether the library opens on Sundays.",
    "en-unable-answer": "I apologize, but I am unable to provide an answer to this question.",
    "en-unable-answer-context": "Based on the retrieved passages, I'm unable to provide an answer about the fee.",
    "en-documents-plural": "The provided documents do not mention a loyalty discount.",
    "en-contexts-provided": "The contexts provided do not mention any grant for this programme in 2025.",
    "en-documents-contain": "The provided documents do not contain specific information regarding the merger date.",
    "en-not-in-documents": "Not in the provided documents.",
    "en-could-not-find": "I could not find any information about the shuttle timetable.",
    "en-cannot-find-sufficient": "I cannot find sufficient information in the provided documents to answer this.",
    "en-see": "I don't see that in the document.",
    "en-not-appear": "The answer does not appear in the provided document.",
    "en-unfortunately": "Unfortunately, the provided context does not mention which vendors were compared.",
    "zh-not-found": "抱歉，提供的文档中没有找到与退货政策相关的信息。",
    "zh-not-enough": "提供的资料中没有足够的信息来回答这个问题。",
    "zh-cannot-provide": "根据现有文档，我无法提供该产品的保修期限。",
    "zh-Hant-not-found": "抱歉，在提供的文件中找不到相關資訊。",
    "ja-not-contained": "提供された資料には、配送料金に関する情報は含まれていません。",
    "ja-cannot-answer": "申し訳ありませんが、その質問にはお答えできません。",
    "ko-not-included": "죄송하지만, 환불 기간에 대한 정보는 제공된 문서에 포함되어 있지 않습니다.",
    "ko-not-in-documents": "해당 질문에 대한 정보는 제공된 문서에 없습니다.",
    "ko-cannot-find": "이 질문에 대한 정보는 문서에서 찾을 수 없으므로 답변할 수 없습니다.",
    "th-not-found": "ไม่พบข้อมูลเกี่ยวกับค่าธรรมเนียมในเอกสารที่ให้มา",
    "es-not-contain": "Los documentos proporcionados no contienen información suficiente para responder.",
    "es-cannot-find": "No puedo encontrar información sobre la tarifa en los documentos.",
    "fr-not-specify": "Les documents fournis ne précisent pas la date de livraison.",
    "fr-not-found": "Je n'ai pas trouvé cette information dans les documents.",
    "fr-cannot-answer": "Les documents fournis ne permettent pas de répondre à cette question.",
    "de-not-enough": "Ich kann in den Dokumenten keine ausreichenden Informationen zur Gebühr finden.",
    "de-not-found": "Die Antwort konnte in den Unterlagen nicht gefunden werden.",
    # a held-out round of 17 refusals in six languages missed these two (at 63ca9f9)
    "fr-not-have-this": "Je ne dispose pas de cette information.",
    "es-not-include": "Los documentos proporcionados no incluyen información sobre el dividendo.",
}


@pytest.mark.parametrize("text", list(REAL_FORMS.values()), ids=list(REAL_FORMS))
def test_real_refusal_forms_are_recognised(text: str) -> None:
    assert abstains(text)


# Hedged partial answers: a refusal of a detail, then a contrast that still answers. Not refusals.
HEDGED = {
    "en-exact-date": "The report does not specify the exact date, but the plant opened in March 2019.",
    "en-guess": "I don't know, but probably $499.",
    "en-however": "The context does not state the total. However, the first quarter alone was $1.2 million.",
    "en-semicolon": "The documents do not mention the cause; they only say that sales fell by a third.",
    "zh": "我不知道具体日期，但工厂于2019年3月开业。",
    "ja": "正確な日付は記載されていませんが、工場は2019年3月に開業しました。",
    "ko": "정확한 날짜는 명시되어 있지 않지만, 공장은 2019년 3월에 문을 열었습니다.",
    "th": "ไม่ได้ระบุวันที่แน่ชัด แต่โรงงานเปิดในเดือนมีนาคม 2019",
    "es": "No se especifica la fecha exacta, pero la planta abrió en marzo de 2019.",
    "fr": "Le rapport ne précise pas la date exacte, mais l'usine a ouvert en mars 2019.",
    "de": "Das genaue Datum wird nicht genannt, aber das Werk wurde im März 2019 eröffnet.",
    # The first refusal is hedged, so the answer has answered before the second one, which only
    # refuses another detail (this sentence was a refusal before the rule of the section
    # "Partial answers" below; it has the shape of "Revenue was $4.2 billion. I don't know the
    # 2022 figure.").
    "en-later-refusal": "It does not say exactly when, but it was in 2019. I do not have information about the cost.",
}


@pytest.mark.parametrize("text", list(HEDGED.values()), ids=list(HEDGED))
def test_hedged_partial_answers_are_not_refusals(text: str) -> None:
    assert not abstains(text)
    assert abstains(text, include_hedged=True)  # the marker is there, and can be asked for


@pytest.mark.parametrize(
    "text",
    [
        # the contrast is itself a refusal, or says nothing
        "The context does not specify the price, but I cannot say more.",
        "I don't know, but sorry.",
        "The documents do not mention the fee; no information is available.",
        # a claim in a later sentence that does not open with a contrast
        "The context does not specify the price. The Pro plan has a 30-day free trial.",
        # a refusal of a detail's precision followed by no statement, or by a refusal
        "The context does not specify the exact date. Please check the annual report.",
        "I do not know the exact date. I cannot find it in the documents.",
        # the contrast only points elsewhere
        "I don't have that information, but you can check the university's website.",
        "The context doesn't mention the parking fee. However, I can suggest asking the office.",
        "Les documents ne précisent pas le tarif, mais vous pouvez consulter le site officiel.",
        # a contrast before the marker does not hedge it
        "I'm sorry, but the provided documents do not mention the bookstore's hours.",
    ],
)
def test_refusals_that_are_not_hedged_stay_refusals(text: str) -> None:
    assert abstains(text)


def test_a_hedged_answer_is_judged_as_an_answer() -> None:
    context = "The plant opened in March 2019 after a two-year build."
    answer = "The report does not specify the exact date, but the plant opened in March 2019."
    answerable = check_grounding(answer, context, answerable=True)
    assert "over_abstention" not in answerable.kinds
    assert not answerable.abstained
    unanswerable = check_grounding("I don't know, but probably $499.", context, answerable=False)
    assert "non_abstention" in unanswerable.kinds
    refusal = check_grounding(
        "I do not have specific information about the opening date.", context, answerable=True
    )
    assert refusal.kinds == {"over_abstention"}


ROOT = Path(__file__).resolve().parents[2]


def _jsonl(path: str) -> list[dict[str, Any]]:
    text = (ROOT / path).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def _real_answers() -> dict[str, list[str]]:
    """Real texts that do not refuse: HaluEval's right and hallucinated answers (200, as shipped
    in corpus/halueval), its knowledge passages (100), OpenGATE's outputs other than the one
    refusal (26), and TAT-QA's paragraphs (1,356) and long text answers (from annual reports)."""
    outputs = _jsonl("corpus/halueval/outputs.jsonl")
    cases = _jsonl("corpus/halueval/cases.jsonl")
    opengate = _jsonl("corpus/opengate/outputs.jsonl")
    with gzip.open(ROOT / "validity/data/tatqa_dataset_dev.json.gz", "rt", encoding="utf-8") as f:
        tatqa = json.load(f)
    return {
        "halueval answers": [o["text"] for o in outputs],
        "halueval knowledge": [p for c in cases for p in c["context"]],
        "opengate outputs": [o["text"] for o in opengate if o["id"] != OPENGATE_REFUSAL_ID],
        "tatqa paragraphs": [p["text"] for d in tatqa for p in d["paragraphs"]],
        "tatqa text answers": [
            a
            for d in tatqa
            for q in d["questions"]
            if isinstance(q["answer"], list)
            for a in q["answer"]
            if len(a) > 20
        ],
    }


OPENGATE_REFUSAL_ID = "grounding-unanswerable::base"


def test_real_answers_are_not_taken_for_refusals() -> None:
    # Golden: every one of these texts answers (none says the information is missing); read by
    # hand for the few that contain a negation ("does not include", "not provided").
    texts = _real_answers()
    assert sum(len(v) for v in texts.values()) > 1_900
    for source, items in texts.items():
        wrong = [t for t in items if abstains(t)]
        assert wrong == [], source


def test_opengates_real_refusal_is_recognised() -> None:
    outputs = {o["id"]: o["text"] for o in _jsonl("corpus/opengate/outputs.jsonl")}
    refusal = outputs[OPENGATE_REFUSAL_ID]
    assert refusal.startswith("The context does not provide information")
    assert abstains(refusal)


# --- Partial answers: the answer comes before the refusal of a detail -------------------------
# An answer that states something, then says a detail is missing, answers: an answer sentence
# before the marker's sentence, a clause of the marker's sentence before a semicolon or a
# contrast, or the main clause after a leading concessive clause that holds the marker. The
# expected values come from reading the sentences: each one gives a figure from the context.
ACME = (
    "Acme Corp reported total revenue of $4.2 billion in 2023. The company employs 12,000 people."
)
PARTIAL_ANSWERS = {
    "sentence-before": "Acme employs 12,000 people. The context does not mention how many are engineers.",
    "while-clause": "While the context does not give a breakdown, total revenue was $4.2 billion in 2023.",
    "although-clause": "Although the report does not mention profit, revenue reached $4.2 billion.",
    "semicolon-however": "Revenue was $4.2 billion; however, the context does not provide the growth rate.",
    "dont-know-after": "Revenue was $4.2 billion in 2023. I don't know the 2022 figure.",
    "comma-but": "Acme employs 12,000 people, but the context does not say how many are engineers.",
    "framed-sentence-before": "Based on the context, revenue was $4.2 billion. The growth rate is not mentioned in the text.",
    "although-statement": "Although revenue was $4.2 billion, the context does not give the growth rate.",
    "even-though": "Even though the text is silent on profit, Acme employs 12,000 people.",
    "es-aunque": "Aunque el texto no menciona el beneficio, los ingresos fueron de 4.200 millones de dólares.",
    "fr-bien-que": "Bien que le rapport ne précise pas le bénéfice, le chiffre d'affaires a atteint 4,2 milliards.",
    "de-obwohl": "Obwohl der Bericht den Gewinn nicht erwähnt, lag der Umsatz bei 4,2 Milliarden Dollar.",
    "zh-before": "收入为42亿美元。上下文中没有提到增长率。",
    "ja-before": "売上高は42億ドルです。成長率は記載されていません。",
}


@pytest.mark.parametrize("text", list(PARTIAL_ANSWERS.values()), ids=list(PARTIAL_ANSWERS))
def test_an_answer_before_a_refused_detail_is_a_partial_answer(text: str) -> None:
    assert not abstains(text)
    assert abstains(text, include_hedged=True)  # the marker is there
    report = check_grounding(text, ACME, answerable=True)
    assert "over_abstention" not in report.kinds
    assert not report.abstained


# Refusals whose other sentences or clauses state nothing about the question: an apology, a
# deflection, a frame, a question, a list number, a remark on what the source covers. Read by
# hand: none of them gives the CEO's salary or any other fact, so each abstains.
SPREAD_REFUSALS = {
    "sorry-sentence": "I'm sorry. The context does not mention the CEO's salary.",
    "refer-sentence": "The provided documents do not mention it. Please refer to the annual report.",
    "thanks-unfortunately": "Thank you for your question. Unfortunately, the context does not provide the CEO's salary.",
    "reviewed": "I have reviewed the provided documents. They do not mention the CEO's salary.",
    "covers-only": "The context only covers revenue and headcount. It does not mention the CEO's salary.",
    "provides-information-but": "The context provides information about revenue and headcount, but it does not mention the CEO's salary.",
    "question-echo": "What is the CEO's salary? The context does not say.",
    "numbered": "1. The context does not mention the CEO's salary.\n2. The context does not mention bonuses.",
    "enumeration-subject": "The CEO's salary, bonus and stock awards are not mentioned in the context.",
    "although-searched": "Although I searched the documents, I could not find the CEO's salary.",
    "while-temporal": "While I was reading the documents, I could not find the CEO's salary.",
    "let-me-check": "Let me check. The context does not mention it.",
    "zh-sorry": "抱歉。上下文中没有提到首席执行官的薪酬。",
    "ja-sorry": "申し訳ありませんが、提供された資料には記載されていません。",
    "ko-sorry": "죄송합니다. 제공된 문서에 CEO의 급여 정보가 없습니다.",
    "es-sorry": "Lo siento. No se menciona el salario del director.",
    "fr-sorry": "Désolé, le texte ne précise pas le salaire du PDG.",
}


@pytest.mark.parametrize("text", list(SPREAD_REFUSALS.values()), ids=list(SPREAD_REFUSALS))
def test_a_refusal_spread_over_sentences_stays_a_refusal(text: str) -> None:
    assert abstains(text)
    assert "non_abstention" not in check_grounding(text, ACME, answerable=False).kinds
    assert "over_abstention" in check_grounding(text, ACME, answerable=True).kinds


# --- More refusal forms ----------------------------------------------------------------------
# Common refusals the markers missed, and natural variants. Each says, by its words, that the
# information cannot be found or determined, so each abstains (read by hand).
MORE_REFUSALS = {
    "couldnt-find": "I couldn't find the CEO's salary in the provided documents.",
    "could-not-locate": "I could not locate the CEO's salary in the context.",
    "was-unable-to-locate": "I was unable to locate the CEO's salary in the documents.",
    "wasnt-able-to-identify": "I wasn't able to identify who signed the contract.",
    "not-possible-determine": "It is not possible to determine the CEO's salary from the context.",
    "not-possible-tell": "It's not possible to tell from the documents when the plant opened.",
    "impossible-say": "It is impossible to say how much the CEO earns.",
    "report-not-disclose": "The report does not disclose the CEO's salary.",
    "documents-not-specify": "The documents don't specify the CEO's salary.",
    "passage-not-state": "The passage does not state the CEO's salary.",
    "excerpt-not-indicate": "The excerpt doesn't indicate the CEO's salary.",
    "text-not-include": "The text does not include the CEO's salary.",
    "not-included-in-excerpt": "That detail is not included in the provided excerpt.",
    "missing-from-documents": "The salary is missing from the documents.",
    "silent": "The context is silent on the CEO's salary.",
    "sources-silent": "The sources are silent about the CEO's salary.",
    "unclear-from-context": "It is unclear from the context what the CEO earns.",
    "unclear-from-text": "It's unclear from the text when the plant opened.",
    "not-clear-from-passage": "It is not clear from the passage who the CEO is.",
    "access": "I don't have access to that information.",
    "access-not": "I do not have access to the company's payroll data.",
    "n/a": "N/A",
    "unknown": "Unknown.",
    "unknown-bold": "**Unknown**",
    "answer-label": "Answer: N/A",
    "es-no-se-puede": "No se puede determinar a partir del texto.",
    "es-no-es-posible": "No es posible saber el salario del director con esta información.",
    "es-no-pude": "No pude encontrar el salario del director en los documentos.",
    "es-informe": "El informe no revela el salario del director.",
    "es-desconocido": "Desconocido.",
    "de-reichen-nicht": "Die bereitgestellten Informationen reichen nicht aus, um die Frage zu beantworten.",
    "de-aus-dem-text": "Aus dem Text lässt sich das Gehalt nicht bestimmen.",
    "de-hervor": "Das Gehalt geht aus dem Text nicht hervor.",
    "de-unbekannt": "Unbekannt.",
    "fr-impossible": "Il est impossible de déterminer le salaire du PDG à partir du texte.",
    "fr-pas-pu": "Je n'ai pas pu trouver le salaire du PDG dans les documents.",
    "fr-rapport": "Le rapport n'indique pas le salaire du PDG.",
    "zh-cannot-judge": "根据上下文无法判断首席执行官的薪酬。",
    "zh-doc-not": "文档中并未说明首席执行官的薪酬。",
    "zh-Hant-cannot": "根據資料無法確認執行長的薪酬。",
    "ja-cannot-identify": "提供された情報からは特定できません。",
    "ja-not-disclosed": "CEOの報酬は開示されていません。",
    "ko-cannot-judge": "제공된 문서만으로는 판단할 수 없습니다.",
    "ko-not-disclosed": "CEO의 급여는 문서에 공개되어 있지 않습니다.",
    "th-cannot-tell": "ไม่สามารถบอกเงินเดือนของซีอีโอได้จากเอกสาร",
}


@pytest.mark.parametrize("text", list(MORE_REFUSALS.values()), ids=list(MORE_REFUSALS))
def test_more_refusal_forms_are_recognised(text: str) -> None:
    assert abstains(text)
    assert "non_abstention" not in check_grounding(text, ACME, answerable=False).kinds


# Ordinary answers that use the same words: a negated verb whose subject is not a source, a
# passive without a source, a third-person search, "unknown" inside a sentence. Read by hand:
# each states a fact.
NOT_REFUSALS = {
    "company-not-disclose": "The company does not disclose its margins by region.",
    "plan-not-include": "The plan does not include dental care.",
    "not-included-in-price": "Batteries are not included in the price.",
    "not-included-in-this-report": "Statements for 2016 are derived from financial statements not included in this report.",
    "rescuers-could-not-locate": "Rescuers could not locate the wreck until 1985.",
    "police-unable-identify": "The police were unable to identify the suspect.",
    "study-not-indicate": "The study does not indicate a link between coffee and cancer.",
    "unknown-in-sentence": "The cause of the fire is unknown.",
    "unknown-soldier": "Unknown Soldier is a 1990s comic series.",
    "answer-label-fact": "Answer: Delhi",
    "es-plan": "El plan no incluye soporte telefónico.",
    "de-nicht-moeglich": "Eine Rückerstattung ist nach 30 Tagen nicht möglich.",
}


@pytest.mark.parametrize("text", list(NOT_REFUSALS.values()), ids=list(NOT_REFUSALS))
def test_answers_with_refusal_words_are_not_refusals(text: str) -> None:
    assert not abstains(text, include_hedged=True)


def test_whole_answer_markers_are_custom_markers_too() -> None:
    # ``^phrase$`` matches the whole answer only; other markers still match anywhere.
    assert abstains("None.", markers=["^none$"])
    assert not abstains("None of the plans has a trial.", markers=["^none$"])
    assert abstains("n/a", markers=["^N/A$"])


@pytest.mark.parametrize(
    "text",
    [
        ("Sorry. " * 150_000) + "The context does not mention the price.",
        ("sorry, " * 150_000) + "but the context does not mention the price.",
        ("1. " * 350_000) + "I don't know.",
        ("抱歉。" * 350_000) + "上下文中没有提到。",
        "Although the context does not mention the price" + (", sorry" * 150_000) + ".",
        ("The context does not mention X, but sorry. " * 25_000),
        ("Revenue grew steadily over the year. " * 28_000) + "I don't know.",
    ],
    ids=["sentences", "clauses", "enumerators", "cjk", "concessive", "markers", "answer"],
)
def test_a_megabyte_answer_is_fast(text: str) -> None:
    # Linear: about a second on a slow machine; a quadratic scan of 1 MB would take minutes.
    assert len(text) >= 1_000_000
    started = time.perf_counter()
    abstains(text)
    abstains(text, include_hedged=True)
    assert time.perf_counter() - started < 10


# --- Refusals that first say what the source covers ------------------------------------------
# A model that cannot answer often says what the context does cover before it refuses, or draws
# the refusal as a conclusion ("..., so I cannot answer."). Each sentence below refuses the asked
# thing (read by hand; the first three are the forms reported): none gives the Enterprise plan's
# price, the 2021 revenue, the side effects or the shipping time it was asked about. All but the
# first two were read as partial answers (or found no marker) before.
UNANSWERABLE = (
    "Our Pro plan includes unlimited projects, priority support, and a 30-day free trial. "
    "Contact sales for volume discounts. All plans are billed monthly or annually."
)
RESTATED_REFUSALS = {
    "revenue-so-cannot-answer": "The context mentions the company's 2019 revenue but does not state its 2021 revenue, so I cannot answer.",
    "while-dosage": "While the passage discusses the drug's dosage, it does not provide information about its side effects.",
    "policy-so-cant-say": "The policy covers refunds; however, nothing in the provided documents says how long shipping takes, so I can't say.",
    "mentions-that-therefore": "The context mentions that all plans are billed monthly or annually, but it does not specify the annual price of the Enterprise plan. Therefore, I cannot answer this question.",
    "figure-so-cannot-answer": "The context mentions that the company's 2019 revenue was $3.1 million, but it does not state its 2021 revenue, so I cannot answer.",
    "relative-clause": "The provided context describes the Pro plan, which includes unlimited projects, priority support, and a 30-day free trial, but it does not mention the price of the Enterprise plan.",
    "list": "The context mentions the Pro plan's unlimited projects, priority support, and 30-day free trial, but it does not provide the annual price of the Enterprise plan.",
    "provides-details": "The documents provide details about the Pro plan, such as unlimited projects and priority support, but they do not include pricing for the Enterprise plan.",
    "pronoun-next-sentence": "The provided context only discusses the Pro plan. It does not provide the annual price of the Enterprise plan.",
    "outlines-but-does-not": "The passage outlines the recommended dosage of 500 mg three times daily but does not list any side effects.",
    "explains-so-unable": "The text explains that amoxicillin is taken three times daily for 5 days; however, it doesn't say what the side effects are, so I'm unable to answer your question.",
    "as-a-result": "The context refers to the 2019 annual report, but it does not contain the 2021 revenue figure. As a result, I am unable to provide an answer based on the provided context.",
    "statement-so-unable": "The Pro plan has a 30-day free trial. However, the context does not mention the annual price of the Enterprise plan, so I'm unable to answer.",
    "therefore-dont-know": "Refunds are available within 30 days. The documents do not say how long shipping takes, therefore I don't know.",
    "name-but-not-salary": "The document mentions the CEO's name, John Smith, but does not provide his salary.",
    "de-daher": "Der Text erwähnt, dass alle Pläne monatlich oder jährlich abgerechnet werden, aber der Preis des Enterprise-Plans wird nicht genannt. Daher kann ich die Frage nicht beantworten.",
    "de-daher-clause": "Der Kontext beschreibt den Pro-Plan, nennt aber keinen Preis für den Enterprise-Plan, daher kann ich die Frage nicht beantworten.",
    "es-por-lo-que": "El texto menciona que todos los planes se facturan mensual o anualmente, pero no especifica el precio del plan Enterprise, por lo que no puedo responder.",
    "fr-donc": "Le texte indique que la période d'essai est de 30 jours, mais ne précise pas le prix du plan Enterprise, donc je ne peux pas répondre à cette question.",
    "fr-ne-peux-donc-pas": "Le contexte mentionne que les remboursements sont possibles sous 30 jours ; cependant, il ne précise pas les délais de livraison, je ne peux donc pas répondre.",
    "zh-so-cannot-answer": "收入为42亿美元，但上下文中没有提到2021年的收入，所以无法回答。",
    # Japanese, Korean, Thai (written by hand as their models phrase it): the source's topic,
    # what it does not say, then "therefore I cannot answer (this question)" or "... don't know"
    "ja-tame-kotaeraremasen": "文書は返金ポリシーについて説明していますが、配送期間については記載されていないため、この質問には答えられません。",
    "ja-shitagatte-wakarimasen": "文書には返金の条件が書かれています。しかし、配送期間は記載されていません。したがって、わかりません。",
    "ko-eumeuro-dap-hal-su-eopseumnida": "문서는 환불 정책을 설명하지만 배송 기간에 대한 정보는 없으므로 이 질문에 답할 수 없습니다.",
    "ko-ttaraseo-al-su-eopseumnida": "문서는 환불 정책을 설명합니다. 하지만 배송 기간은 언급되지 않았습니다. 따라서 알 수 없습니다.",
    "th-dangnan-mai-samat-top": "เอกสารอธิบายนโยบายการคืนเงิน แต่ไม่ได้ระบุระยะเวลาการจัดส่ง ดังนั้นจึงไม่สามารถตอบคำถามนี้ได้",
    "th-chueng-mai-thrap": "เอกสารอธิบายนโยบายการคืนเงิน แต่ไม่ได้ระบุระยะเวลาการจัดส่ง จึงไม่ทราบ",
}


@pytest.mark.parametrize(
    "text",
    [
        # refusals as models write them (read by hand: none answers the question)
        "Nothing in the context indicates when the product launched.",
        "No information is given about the side effects.",
        "That detail isn't covered in the provided material.",
        "I don't see any reference to the 2021 revenue in the context.",
        "The price is not found in the documents.",
        "This isn't available in the provided text.",
        "Insufficient context.",
        "Insufficient details to answer.",
        # a source named with "provided" after it, the documentation or a knowledge base,
        # "nothing in the context" with more verbs, a source that is not enough
        "The text provided does not include details about the return window.",
        "The sources given don't mention the fee.",
        "This isn't covered in the documentation I have access to.",
        "The knowledge base doesn't mention a warranty.",
        "Nothing in the context addresses this.",
        "Nothing in the documents covers the shipping time.",
        "The context is insufficient to answer this question.",
        "The information provided is not sufficient to determine the date.",
        "The documents provided are insufficient.",
        # the same in French, Spanish, German and Japanese
        "Le contexte est insuffisant pour répondre à cette question.",
        "La documentation ne mentionne pas de garantie.",
        "El texto proporcionado no incluye detalles sobre el plazo de devolución.",
        "El contexto es insuficiente para responder a esta pregunta.",
        "Nada en el contexto aborda esto.",
        "Los documentos no mencionan el precio.",
        "Nichts im Kontext behandelt diese Frage.",
        "Die Dokumentation erwähnt keine Garantie.",
        "コンテキストだけではこの質問に答えるには不十分です。",
    ],
)
def test_more_refusal_forms_abstain(text: str) -> None:
    assert abstains(text)


@pytest.mark.parametrize(
    "text",
    [
        # answers about coverage, availability and contents (they were read as refusals)
        "Water damage is not covered in the warranty.",
        "Flood damage isn't covered in the standard policy.",
        "The X200 is not available in the UK.",
        "Gluten is not found in the product.",
        # a thing that is insufficient, a source that says something
        "The evidence is insufficient to prove fraud, the court said.",
        "The documents provided show revenue of $5 million.",
        "The knowledge base has 300 articles.",
        "El contexto histórico es complejo: la empresa se fundó en 1990.",
        "Der Text enthält 300 Wörter.",
        "El plan no aborda la cobertura dental.",
    ],
)
def test_not_covered_available_or_found_in_a_thing_answers(text: str) -> None:
    assert not abstains(text, include_hedged=True)
    assert "over_abstention" not in check_grounding(text, UNANSWERABLE, answerable=True).kinds


@pytest.mark.parametrize("text", list(RESTATED_REFUSALS.values()), ids=list(RESTATED_REFUSALS))
def test_a_refusal_that_restates_what_the_source_covers_abstains(text: str) -> None:
    assert abstains(text)
    assert "non_abstention" not in check_grounding(text, UNANSWERABLE, answerable=False).kinds
    assert "over_abstention" in check_grounding(text, UNANSWERABLE, answerable=True).kinds


# Partial answers beside refusal words that are no verdict on the question: a refused detail
# ("so I can't say which day"), a disclaimer on certainty ("but I can't say for sure"), a
# verdict followed by a contrast that answers, "I don't know whether ...". Each states a fact or
# a guess as its answer (read by hand), so each is a partial answer, not a refusal. "The context
# mentions that X, but it does not say Y" states X, as "According to the context, X" does.
STILL_PARTIAL = {
    "exact-date-but": "The document does not specify the exact date, but the refund takes 30 days.",
    "why-semicolon": "It does not say why; the fee is $25.",
    "so-cant-say-which": "The plant opened in 2019, but the exact day is not given, so I can't say which day.",
    "cant-say-for-sure": "It was probably in 2019, but I can't say for sure.",
    "but-cant-say": "It was probably in 2019, but I can't say.",
    "growth-precisely": "Revenue was $4.2 billion in 2023, but the 2022 figure is not mentioned in the context, so I cannot determine the growth rate precisely.",
    "second-part": "The fee is $25. I cannot answer the second part of your question, as the context does not mention refunds.",
    "verdict-then-contrast": "I cannot answer this question, but the fee is probably $25.",
    "mentions-that": "The context mentions that refunds take 30 days, but it does not say how long shipping takes.",
    "de-ob": "Der Umsatz betrug 4,2 Milliarden Dollar. Ich weiß nicht, ob er 2022 höher war.",
    "es-pero": "El reembolso tarda 30 días, pero no se especifica el plazo de envío.",
    "fr-mais": "Le remboursement prend 30 jours, mais le délai de livraison n'est pas précisé.",
    "ja-statement-then-missing": "返金は30日以内です。配送期間については記載されていません。",
    "ja-detail-wakarimasen": "返金は30日以内です。配送日数は記載されていないため、正確な日付はわかりません。",
    "ko-statement-then-missing": "환불 기간은 30일입니다. 배송 기간에 대한 정보는 없습니다.",
    "th-but-not-stated": "การคืนเงินภายใน 30 วัน แต่ไม่ได้ระบุระยะเวลาการจัดส่ง",
    "th-verdict-then-contrast": "ไม่สามารถตอบคำถามนี้ได้ แต่ค่าธรรมเนียมน่าจะเป็น 25 ดอลลาร์",
}


@pytest.mark.parametrize("text", list(STILL_PARTIAL.values()), ids=list(STILL_PARTIAL))
def test_partial_answers_without_a_verdict_stay_partial(text: str) -> None:
    assert not abstains(text)
    assert abstains(text, include_hedged=True)  # the marker is there
    assert "non_abstention" in check_grounding(text, UNANSWERABLE, answerable=False).kinds


@pytest.mark.parametrize(
    "text",
    [
        "If I cannot answer, the fee is $25.",  # a verdict in a condition
        "Although I cannot answer this question fully, the fee is $25.",  # no verdict
        "Although I cannot answer the question, the fee is probably $25.",  # concessive clause
    ],
)
def test_cannot_answer_in_a_condition_or_a_concession_does_not_refuse(text: str) -> None:
    assert not abstains(text)


# "it does not include ..." refuses only when "it" is a source: the sentence (or the sentence
# before, for one that opens with the pronoun) has a source as its subject.
@pytest.mark.parametrize(
    "text",
    [
        "The context discusses the Pro plan, but it does not include the price of the Enterprise plan.",
        "The documents cover the refund process but do not give the shipping time.",
        "The provided text only describes the Pro plan. However, it does not disclose the Enterprise price.",
        "Unfortunately, the passage mentions the dosage, but it does not list side effects.",
    ],
)
def test_a_pronoun_for_the_source_refuses(text: str) -> None:
    assert abstains(text)


@pytest.mark.parametrize(
    "text",
    [
        "The plan is cheap, but it does not include dental care.",
        "The Pro plan costs $29 per month, but it does not include priority support.",
        "It does not include dental care, but it covers eye exams.",
        "The warranty covers parts. It does not cover labour.",
        "They don't provide refunds after 30 days.",
        "Free cash flow does not represent total cash flow since it does not include the cash "
        "flows used in financing activities.",
    ],
)
def test_a_pronoun_for_anything_else_does_not_refuse(text: str) -> None:
    assert not abstains(text, include_hedged=True)


# --- Short refusal forms that answers use in German, French and Spanish -----------------------
# Each sentence is an answer a model could write from its context (read by hand: each states a
# fact, a default or a rule) that held a bare marker and was taken for a refusal or a hedged one:
# a condition ("Falls nicht angegeben, ..."), a past event ("Der Kaufpreis wurde nicht
# offengelegt", as English "was not disclosed"), a "cannot find out" whose subject is not the
# answerer, personal data ("aucune information personnelle"), "indiqué" in the medical sense,
# "no se proporciona" of a service (as English "not provided with the kit").
GUARDED_ANSWERS = {
    "de-past-disclosed": "Der Kaufpreis wurde nicht offengelegt.",
    "de-past-terms": "Die Bedingungen der Übernahme wurden nicht offengelegt.",
    "de-cause-of-death": "Die Todesursache konnte nicht festgestellt werden.",
    "de-police": "Die Polizei konnte den Täter nicht ermitteln.",
    "de-doctors": "Die Ärzte konnten die Ursache der Entzündung nicht feststellen.",
    "de-rescuers": "Die Rettungskräfte konnten den Vermissten nicht finden.",
    "de-wreck": "Das Wrack konnte nicht gefunden werden, bis Taucher es 1985 entdeckten.",
    "de-donor": "Der Name des Spenders wurde auf dessen Wunsch nicht genannt.",
    "de-patient": "Der Patient machte keine Angaben zu Allergien.",
    "de-published": "Die Firma hat keine Informationen über den Vorfall veröffentlicht.",
    "de-no-figures-2019": "Im Jahr 2019 wurden keine Angaben zum Umsatz veröffentlicht.",
    "de-doctor-answer": "Der Arzt konnte keine Antwort geben, da die Laborwerte fehlten.",
    "de-support": "Der Kundendienst kann Fragen zur Abrechnung nicht beantworten.",
    "de-commission": "Die Frage konnte von der Kommission nicht beantwortet werden.",
    "de-third-parties": "Der Anbieter gibt keine Informationen an Dritte weiter.",
    "de-if-not-given": "Falls nicht angegeben, beträgt die Kündigungsfrist 30 Tage.",
    "de-if-dose": "Wenn die Dosis nicht angegeben ist, nehmen Sie 5 mg.",
    "fr-indicated-child": "Le médicament n'est pas indiqué chez l'enfant de moins de 6 ans.",
    "fr-indicated-pregnancy": "Ce traitement n'est pas indiqué pendant la grossesse.",
    "fr-surgery": "La chirurgie n'est pas indiquée dans ce cas ; un traitement antibiotique suffit.",
    "fr-third-parties": "L'entreprise ne partage aucune information avec des tiers.",
    "fr-personal": "Nous ne vendons pas d'informations personnelles à des tiers.",
    "fr-personal-kept": "Aucune information personnelle n'est conservée après 30 jours.",
    "fr-if-date": "Si la date n'est pas précisée, le délai est de 30 jours.",
    "fr-unless": "Sauf si ce n'est pas précisé autrement, les prix sont hors taxes.",
    "es-transport": "No se proporciona transporte desde el aeropuerto.",
    "es-lunch": "El almuerzo no se proporciona; cada participante debe traer el suyo.",
    "es-if-date": "Si no se especifica una fecha, el plazo es de 30 días.",
    "es-if-date-after": "El plazo es de 30 días si no se especifica otra fecha.",
    "es-pregnancy": "No se indica su uso durante el embarazo.",
    "es-personal": "No hay información personal almacenada en el dispositivo.",
    "es-plan-info": "El plan básico no incluye información de facturación detallada.",
}


@pytest.mark.parametrize("text", list(GUARDED_ANSWERS.values()), ids=list(GUARDED_ANSWERS))
def test_answers_with_short_refusal_forms_are_not_refusals(text: str) -> None:
    assert not abstains(text, include_hedged=True)


# The same markers where they refuse: of a source, of the answerer, of finding the information,
# in the present tense, or with what is missing.
GUARDED_REFUSALS = {
    "de-present": "Der Preis wird im Text nicht genannt.",
    "de-past-source": "Der Preis wurde im Kontext nicht erwähnt.",
    "de-past-found": "Es konnten keine Informationen zum Preis gefunden werden.",
    "de-first-person": "Ich konnte den Preis nicht finden.",
    "de-reflexive": "Das lässt sich nicht bestimmen.",
    "de-passive": "Die Frage kann nicht beantwortet werden.",
    "de-no-details": "Leider gibt es keine Angaben zum Preis.",
    "de-past-passive-source": "Die Antwort konnte in den Unterlagen nicht gefunden werden.",
    "fr-indicated": "Le prix n'est pas indiqué.",
    "fr-indicated-source": "Le prix n'est pas indiqué dans le document.",
    "fr-no-information": "Il n'y a aucune information sur le prix.",
    "es-no-information-provided": "No se proporciona información sobre el precio.",
    "es-provided-source": "El precio no se proporciona en el texto.",
    "es-provided-end": "El precio no se proporciona.",
    "es-indicated": "No se indica el precio del plan.",
    "en-condition-before": "If you are asking about the Enterprise plan, the context does not mention its price.",
}


@pytest.mark.parametrize("text", list(GUARDED_REFUSALS.values()), ids=list(GUARDED_REFUSALS))
def test_short_refusal_forms_still_refuse_where_they_refuse(text: str) -> None:
    assert abstains(text)


@pytest.mark.parametrize(
    "text",
    [
        "The plan is cheap, but it does not include dental care. " * 18_000,
        "Falls nicht angegeben, beträgt die Frist 30 Tage. " * 20_000,
        "Der Kaufpreis wurde nicht offengelegt. " * 26_000,
        "Revenue was $4.2 billion. " + "So I can't say, but it was $4.2 billion. " * 25_000,
        "Revenue was $4.2 billion. " + "I can't say. " * 80_000,
        "The context mentions " + "revenue, " * 110_000 + "but it does not state profit.",
    ],
    ids=["pronoun", "condition", "german-past", "verdicts", "weak-verdicts", "remark-list"],
)
def test_a_megabyte_answer_with_guarded_markers_is_fast(text: str) -> None:
    # Linear: each rejected marker, verdict and remark is looked at once, within its sentence.
    assert len(text) >= 990_000
    started = time.perf_counter()
    abstains(text)
    abstains(text, include_hedged=True)
    assert time.perf_counter() - started < 10


def test_markers_without_latin_letters_are_searched_where_one_can_start() -> None:
    # such markers are compiled on the first text holding one of their first characters, not on
    # every non-ASCII text (curly quotes, dashes); a set searched first with such a text still
    # finds them afterwards
    from hybridjudge.grounding._abstention import MarkerSet
    from hybridjudge.grounding._normalize import normalize_plain

    markers = MarkerSet(("i cannot answer", "无法回答", "答えられません"))
    assert markers.search(normalize_plain("It\u2019s 12 \u2014 \u201cplain\u201d.")) is None
    found = markers.search(normalize_plain("抱歉，我无法回答这个问题。"))
    assert found is not None
    assert found.group() == "无法回答"
    found = markers.search(normalize_plain("申し訳ありませんが、答えられません。"))
    assert found is not None
    assert found.group() == "答えられません"
    assert markers.search(normalize_plain("我可以回答。")) is None


@pytest.mark.parametrize(
    "text",
    [
        # a refusal of a detail's precision, then the answer without a contrast word
        "The context does not specify the exact date. The plant opened in March 2019.",
        "The documents do not give a precise figure. Staff numbers are about 1,200.",
        "Le contexte ne précise pas la date exacte. L'usine a ouvert en mars 2019.",
        "El contexto no especifica la fecha exacta. La planta abrió en marzo de 2019.",
        "Die Dokumentation nennt kein genaues Datum. Das Werk wurde im März 2019 eröffnet.",
    ],
)
def test_a_refusal_of_precision_then_an_answer_is_a_partial_answer(text: str) -> None:
    assert not abstains(text)
    assert abstains(text, include_hedged=True)
    if text.startswith("The"):
        context = "The plant opened in March 2019 and employs about 1,200 staff."
        report = check_grounding(text, context, answerable=True)
        assert "over_abstention" not in report.kinds


@pytest.mark.parametrize(
    "text",
    [
        # "précise" and "precisa" are also the verbs "specifies": no precision word
        "Le contexte ne précise pas la date. L'usine a ouvert en mars 2019.",
        "El contexto no precisa la fecha. La planta abrió en marzo de 2019.",
        # a deflection after the refusal of precision
        "El contexto no especifica la fecha exacta. Consulte el informe anual.",
    ],
)
def test_a_refusal_without_a_precision_word_or_answer_after_it_abstains(text: str) -> None:
    assert abstains(text)


@pytest.mark.parametrize(
    "text",
    [
        "Based on the provided context, the information provided does not state the margin.",
        "The information is not provided.\n\n   The   information  provided\tdoes not   say.",
        "provided provided: no information was provided in the context provided.",
        "Nothing in the provided context tells us the price; the context does not specify it.",
        "Le contexte fourni ne précise pas le prix. Die Information ist nicht angegeben.",
    ],
)
def test_a_trigger_group_finds_what_its_whole_expression_finds(text: str) -> None:
    # a group is searched only near its trigger's occurrences (_abstention._Group); from every
    # start position it finds the match the expression finds searching the whole text
    from hybridjudge.grounding._abstention import DEFAULT_ABSTAIN_MARKERS, MarkerSet
    from hybridjudge.grounding._normalize import letter_runs, normalize_plain

    markers = MarkerSet(DEFAULT_ABSTAIN_MARKERS)
    norm = normalize_plain(text) + "."
    triggers = sorted(letter_runs(norm) & markers._triggers)
    assert triggers
    for trigger in triggers:
        group = markers._group(trigger)
        for pos in range(len(norm) + 1):
            expected = group.pattern.search(norm, pos)
            found = group.search(norm, pos)
            assert (found and (found.span(), found.group())) == (
                expected and (expected.span(), expected.group())
            )
