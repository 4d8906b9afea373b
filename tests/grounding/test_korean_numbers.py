"""Korean numerals (the ``numbers`` and ``counters`` of ko.json, read by
``grounding._languages.korean_numbers``): values worked out by hand. The lexicon's golden cases
(``data/lexicon_golden.jsonl``, ``ko-native``, ``ko-sino``, ...) hold more phrasings."""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding, parse_quantities
from hybridjudge.grounding._languages import KOREAN_NATIVE


def test_native_numbers_compose_a_ten_and_a_unit() -> None:
    assert KOREAN_NATIVE["두"] == 2
    assert KOREAN_NATIVE["열"] == 10
    assert KOREAN_NATIVE["열두"] == 12
    assert KOREAN_NATIVE["스무"] == 20
    assert KOREAN_NATIVE["스물세"] == 23
    assert KOREAN_NATIVE["아흔아홉"] == 99
    assert "한" not in KOREAN_NATIVE  # one: mostly "a" or "once"
    assert "스물열" not in KOREAN_NATIVE  # a ten after a ten is no number


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("직원은 일곱 명입니다.", "7"),
        ("열한 개 지점", "11"),
        ("구백 명", "900"),
        ("이천이십 개", "2020"),
        ("삼억 오천만 원", "350000000"),
        ("육십오 세 이상", "65"),
    ],
)
def test_values(text: str, value: str) -> None:
    assert [str(q.value) for q in parse_quantities(text)] == [value]


@pytest.mark.parametrize(
    "text",
    [
        "천 회장은 말했다.",  # 천: a family name, no digit syllable
        "직원 세명",  # a native numeral glued to its counter is not read (세대, "generation")
        "이 사람",  # 이 (this), 사 (company)
        "한 명이 왔다.",  # one
    ],
)
def test_words_that_are_not_read(text: str) -> None:
    assert parse_quantities(text) == []


def test_an_answer_in_words_against_figures() -> None:
    context = ["이 회사의 직원은 5명이고 매출은 5억 원이다."]
    assert check_grounding("직원은 다섯 명이고 매출은 오억 원입니다.", context).grounded
    report = check_grounding("직원은 여섯 명입니다.", context)
    assert [f.kind for f in report.findings] == ["ungrounded_number"]
    report = check_grounding("매출은 육억 원입니다.", context)
    assert [f.kind for f in report.findings] == ["ungrounded_number"]


def test_a_context_in_words_against_an_answer_in_figures() -> None:
    context = ["참석자는 삼천오백 명이었다."]
    assert check_grounding("참석자는 3,500명입니다.", context).grounded
    assert not check_grounding("참석자는 3,600명입니다.", context).grounded


def test_a_figure_with_a_korean_scale_is_as_precise_as_its_scale() -> None:
    # "7억 원" is 700 million won to the hundred million, as "7亿元" and "7億円" are: the
    # rounding of 702,345,000 won (by hand: 7.02345 x 10^8 rounds to 7 x 10^8), not of 802
    # million; written out in full it is the same figure at another scale
    assert check_grounding("매출은 7억 원이다.", "매출액: 702,345,000원").grounded
    assert not check_grounding("매출은 7억 원이다.", "매출액: 802,345,000원").grounded
    assert not check_grounding("매출은 8억 원이다.", "매출액: 702,345,000원").grounded
    (trace,) = check_grounding("매출은 7억 원이다.", "매출액: 700,000,000원").quantities
    assert trace.rule == "rescaled"
    # "1억 2000만" is written to the ten thousand: 120,004,000 rounds to it, 120,040,000 not
    assert check_grounding("1억 2000만 원", "합계: 120,004,000원").grounded
    assert not check_grounding("1억 2000만 원", "합계: 120,040,000원").grounded
