"""Negation cues of Chinese, Japanese and Korean (``negations``, ``negation_after``,
``subject_particles``, ``asserting_negations`` of the lexicons): the window each reads, worked
out by hand. The lexicon's golden cases (``data/lexicon_golden.jsonl``) hold the phrasings."""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding
from hybridjudge.grounding._anchors import NEGATION_AFTER_CHARS, NEGATION_GLUED_CHARS


def _negated(text: str, anchor: str) -> list[str]:
    report = check_grounding(text, [text], anchors=[anchor], answerable=None)
    return [f.evidence or "" for f in report.findings if f.kind == "negated_anchor"]


def test_a_glued_cue_negates_within_its_characters() -> None:
    assert NEGATION_GLUED_CHARS == 3
    assert _negated("本店没有提供退款。", "退款")  # 提供: two characters
    # 无需 ... 退款: five characters between, another verb's negation
    assert not _negated("无需付费即可申请退款。", "退款")


def test_a_cue_after_names_its_side() -> None:
    (evidence,) = _negated("この製品は乳糖を含みません。", "乳糖")
    assert evidence == 'written as "乳糖" before "ません" in the same clause'
    (evidence,) = _negated("该产品不含乳糖。", "乳糖")
    assert evidence == 'written as "乳糖" after "不" in the same clause'


def test_a_cue_after_reads_its_window() -> None:
    assert NEGATION_AFTER_CHARS == 8
    # 유당 ... 않: "을 포함하지" is 5 characters (blanks not counted)
    assert _negated("이 제품은 유당을 포함하지 않습니다.", "유당")
    # "을 포함하고 있다고 표시되어 있지" is 15: the negation is too far to be the fact's
    assert not _negated("이 제품은 유당을 포함하고 있다고 표시되어 있지 않습니다.", "유당")


def test_a_clause_break_ends_a_cue_after() -> None:
    assert _negated("返金は30日以内ではありません。", "30日以内")
    assert not _negated("返金は30日以内で、手数料はありません。", "30日以内")


@pytest.mark.parametrize(
    ("text", "anchor"),
    [
        ("返金は30日以内で手数料はかかりません。", "30日以内"),  # 手数料は: another subject
        ("この製品には乳糖が含まれています。", "乳糖"),  # no cue at all
        ("返金は30日以内でなければなりません。", "30日以内"),  # "must"
        ("기간은 30일밖에 없습니다.", "30일"),  # "only 30 days"
        ("未满18岁不得购买。", "18岁"),  # 未满: "under", a bound
    ],
)
def test_what_is_no_negation(text: str, anchor: str) -> None:
    assert not _negated(text, anchor)


def test_the_subject_particle_right_after_the_fact_is_the_facts() -> None:
    # 乳糖は / 乳糖が: the fact's own subject; では: a particle after a particle
    assert _negated("この製品では乳糖は含まれていません。", "乳糖")
    assert _negated("この製品には乳糖が含まれていません。", "乳糖")
    assert _negated("환불 기간은 30일이 아닙니다.", "30일")


def test_latin_texts_keep_their_reading() -> None:
    assert _negated("We don't charge a restocking fee.", "restocking fee")
    assert not _negated("No more than 30 days.", "30 days")
    assert not _negated("Shipping is free, but a restocking fee applies.", "restocking fee")
