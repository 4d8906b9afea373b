"""Abstention markers in every built-in language, both directions."""

from __future__ import annotations

import pytest

from hybridjudge.grounding import MARKERS_BY_LANGUAGE, GroundingTypeError, abstains

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
