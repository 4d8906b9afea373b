"""The judges recognise an abstention that asserts nothing else, with grounding's one detector.

Every refusal phrase comes from :func:`hybridjudge.grounding.abstains` (no marker list in the
judges); the judges add only the rule that a pure abstention holds no other clause. The lists
below are hand-written (the first is OpenGATE's unanswerable base output verbatim).
"""

from __future__ import annotations

import importlib.util

import pytest

from hybridjudge.grounding import abstains
from hybridjudge.judges import is_pure_abstention, pure_abstention_reason
from hybridjudge.judges._pure import mentions_abstention

PURE = [
    # OpenGATE's grounding-unanswerable base output, verbatim.
    "The context does not provide information about the annual price of the Enterprise plan.",
    "I don't know.",
    "There is no information about the Enterprise plan price in the context.",
    "This question cannot be answered from the context.",
    "Unfortunately, the context does not mention the price.",
    "上下文沒有提供企業方案的年費資訊。",
    "资料中没有提到企业版的价格。",
    "บริบทไม่ได้ระบุราคาแผน Enterprise",
]

NOT_PURE = [
    # Abstains AND asserts: the assertion must be judged (the OpenGATE blind spot).
    "I don't know, but probably $499.",
    "The context does not mention a restocking fee, so there is none.",
    "The price is $499, and the context does not mention shipping.",
    "我不知道，但可能是499美元。",
    "ไม่มีข้อมูลเกี่ยวกับราคา แต่อาจจะ 499 ดอลลาร์",
    # Plain assertions, including a negation that is a fact, not an abstention.
    "The Enterprise plan is priced the same as the Pro plan and is billed annually.",
    "There is no restocking fee for standard plans.",
]


@pytest.mark.parametrize("answer", PURE)
def test_pure_abstention_is_recognised(answer: str) -> None:
    reason = pure_abstention_reason(answer)
    assert reason is not None
    assert "information is missing" in reason


@pytest.mark.parametrize("answer", NOT_PURE)
def test_an_answer_that_asserts_something_is_not_a_pure_abstention(answer: str) -> None:
    assert pure_abstention_reason(answer) is None


def test_abstention_followed_by_a_claim_is_not_pure() -> None:
    answer = "The context does not specify the price. The Pro plan has a 30-day free trial."
    assert pure_abstention_reason(answer) is None
    assert mentions_abstention(answer)


@pytest.mark.parametrize(
    "answer", ["I don't know, but probably $499.", "我不知道，但可能是499美元。"]
)
def test_hedged_answer_mentions_an_abstention(answer: str) -> None:
    assert mentions_abstention(answer)


def test_claim_level_check_matches_whole_claims_only() -> None:
    assert is_pure_abstention("The context does not provide the annual price.")
    assert not is_pure_abstention("The annual price is not provided, but it is probably $499.")
    assert not is_pure_abstention("")


@pytest.mark.parametrize("sentence", [*PURE, *NOT_PURE])
def test_the_judges_recognise_no_refusal_that_grounding_does_not(sentence: str) -> None:
    # one detector: a sentence grounding does not call an abstention is never a pure one
    if not abstains(sentence):
        assert not is_pure_abstention(sentence)


def test_the_judges_have_no_abstention_detector_of_their_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert importlib.util.find_spec("hybridjudge.judges._abstention") is None
    # with grounding's detector switched off, the judges recognise no abstention at all
    monkeypatch.setattr("hybridjudge.judges._pure.abstains", lambda *a, **k: False)
    assert not any(is_pure_abstention(s) for s in PURE)
    assert all(pure_abstention_reason(s) is None for s in PURE)
