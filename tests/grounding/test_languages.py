"""Numbers in other languages (issue 9): digits glued to CJK/Thai text, full-width digits,
Chinese/Japanese numerals, French/German/Spanish number words, with their units.

Expected values are the numbers' meanings, worked out by hand (三十 = 3 x 10 = 30; 1.5万 =
1.5 x 10,000 = 15,000; 2亿 = 2 x 10^8; "quatre-vingt-dix" = 4 x 20 + 10 = 90; "einundzwanzig"
= 1 + 20 = 21; "treinta y cinco" = 30 + 5 = 35).
"""

from __future__ import annotations

import time
from fractions import Fraction

import pytest

from hybridjudge.grounding import check_grounding, parse_quantities

DAY = 86400  # seconds: the base unit of time


@pytest.mark.parametrize(
    ("text", "value", "unit"),
    [
        ("退款期限为15天", Fraction(15), "day"),  # digits glued to Chinese
        ("30天内", Fraction(30), "day"),
        ("15日以内", Fraction(15), "day"),  # Japanese
        ("３０日", Fraction(30), "day"),  # full-width digits
        ("三十天", Fraction(30), "day"),
        ("十五日", Fraction(15), "day"),
        ("两个月", Fraction(2), "month"),
        ("三か月", Fraction(3), "month"),
        ("1.5万元", Fraction(15000), "cny"),
        ("2亿", Fraction(200_000_000), None),
        ("一百零五天", Fraction(105), "day"),
        ("ภายใน 30 วัน", Fraction(30), "day"),  # Thai
        ("ภายใน30วัน", Fraction(30), "day"),
        ("30일 이내", Fraction(30), "day"),  # Korean
        ("trente jours", Fraction(30), "day"),
        ("quatre-vingt-dix jours", Fraction(90), "day"),
        ("vingt et un jours", Fraction(21), "day"),
        ("deux cents euros", Fraction(200), "eur"),
        ("dreißig Tagen", Fraction(30), "day"),
        ("einundzwanzig Tage", Fraction(21), "day"),
        ("zwei Wochen", Fraction(2), "week"),
        ("treinta días", Fraction(30), "day"),
        ("treinta y cinco días", Fraction(35), "day"),
        ("dos mil euros", Fraction(2000), "eur"),
        ("quince días", Fraction(15), "day"),
        ("un jour", Fraction(1), "day"),  # an article-like word counts with a unit
    ],
)
def test_numbers_in_other_languages(text: str, value: Fraction, unit: str | None) -> None:
    (q,) = parse_quantities(text)
    assert (q.value, q.unit) == (value, unit)


@pytest.mark.parametrize(
    "text",
    ["Il y a une erreur.", "Ein Haus.", "Una casa.", "once upon a time", "一些问题", "万一"],
)
def test_articles_and_words_are_not_numbers(text: str) -> None:
    assert parse_quantities(text) == []


@pytest.mark.parametrize(
    ("answer", "context"),
    [
        ("退款期限为15天", "购买后30天内可申请退款。"),  # the example: a finding
        ("返品は15日以内です。", "返品は購入後30日以内に受け付けます。"),
        ("退款期限为十五天", "购买后三十天内可申请退款。"),
        ("Vous avez quinze jours.", "Remboursement sous trente jours."),
        ("Sie haben vierzehn Tage.", "Rückgabe innerhalb von dreißig Tagen."),
        ("Tiene quince días.", "Devoluciones dentro de treinta días."),
        ("คืนเงินภายใน 15 วัน", "คืนเงินภายใน 30 วัน"),
    ],
)
def test_a_wrong_number_is_flagged_in_every_language(answer: str, context: str) -> None:
    report = check_grounding(answer, context)
    assert [f.kind for f in report.findings] == ["ungrounded_number"]


@pytest.mark.parametrize(
    ("answer", "context"),
    [
        ("退款期限为30天", "购买后30天内可申请退款。"),
        ("退款期限为三十天", "购买后30天内可申请退款。"),  # 三十天 = 30 days
        ("退款期限为３０天", "购买后三十天内可申请退款。"),
        ("返品は30日以内です。", "返品は購入後三十日以内に受け付けます。"),
        ("期限は一か月です。", "期限は1か月です。"),
        ("Vous avez trente jours.", "Remboursement sous 30 jours."),
        ("Vous avez 30 jours.", "Remboursement sous trente jours."),
        ("Sie haben dreißig Tage.", "Rückgabe innerhalb von 30 Tagen."),
        ("Tiene 30 días.", "Devoluciones dentro de treinta días."),
        ("You have 30 days.", "Devoluciones dentro de treinta días."),  # across languages
        ("The cap is 15,000 CNY.", "上限为1.5万元。"),
        ("คืนเงินภายใน 30 วัน", "คืนเงินภายใน30วัน"),
    ],
)
def test_the_same_answers_correctly_grounded(answer: str, context: str) -> None:
    report = check_grounding(answer, context)
    assert report.grounded, report.findings


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # German and Dutch write a number below a million as one word (by hand: 100 + 20,
        # 2 x 100 + 50, 2 x 1,000 + 5 x 100, 3 x 100 + 5 + 20, 100 x 1,000, 1,000 + 1)
        ("hundertzwanzig Tage", 120),
        ("hundertundzwanzig Tage", 120),
        ("zweihundertfünfzig Euro", 250),
        ("zweitausendfünfhundert Euro", 2500),
        ("dreihundertfünfundzwanzig Mitarbeiter", 325),
        ("zweihunderttausend Euro", 200_000),
        ("tweehonderdvijftig euro", 250),
        ("honderdtwintig dagen", 120),
    ],
)
def test_numbers_glued_onto_a_hundred_or_a_thousand(text: str, value: int) -> None:
    # unread before: no letter run of such a word is a number word's
    assert [q.value for q in parse_quantities(text)] == [value]


@pytest.mark.parametrize(
    "text", ["Hunderte von Kunden", "Hunderttausende Menschen", "Die hundertste Kundin"]
)
def test_words_on_a_hundred_that_are_no_number(text: str) -> None:
    assert parse_quantities(text) == []


def test_a_glued_german_number_is_checked() -> None:
    answer = "Die Frist beträgt hundertzwanzig Tage."
    assert check_grounding(answer, "Die Frist beträgt 120 Tage.").grounded
    report = check_grounding(answer, "Die Frist beträgt 90 Tage.")
    assert [f.subject for f in report.findings] == ["hundertzwanzig Tage"]


def test_units_convert_across_languages() -> None:
    (q,) = parse_quantities("两周")  # two weeks = 14 days
    assert q.base_value == 14 * DAY
    assert check_grounding("14 days", "两周内").grounded


@pytest.mark.parametrize(
    ("text", "value", "unit"),
    [
        # figures with CJK or Korean scale characters, read whole (by hand: 1亿 = 10**8,
        # 万/만 = 10**4, 천 = 1,000): they were read in parts ("1" and "5000万元")
        ("1亿5000万元", Fraction(150_000_000), "cny"),
        ("3亿2000万", Fraction(320_000_000), None),
        ("5만 원", Fraction(50_000), "krw"),
        ("3천만 원", Fraction(30_000_000), "krw"),
        ("1억 2천만 원", Fraction(120_000_000), "krw"),
        ("5만 명", Fraction(50_000), None),
    ],
)
def test_figures_with_scale_characters_are_read_whole(
    text: str, value: Fraction, unit: str | None
) -> None:
    assert [(q.value, q.unit) for q in parse_quantities(text)] == [(value, unit)]


@pytest.mark.parametrize(
    ("answer", "context", "flagged"),
    [
        ("营收为1.5亿元。", "公司营收达到1亿5000万元。", False),
        ("营收为1.6亿元。", "公司营收达到1亿5000万元。", True),
        ("가격은 5만 원입니다.", "가격은 50,000원입니다.", False),
        ("가격은 6만 원입니다.", "가격은 50,000원입니다.", True),
        # a date without its year is the dated context's month and day ("5日" was 5 days)
        ("会议于3月5日举行。", "会议定于2023年3月5日召开。", False),
        ("会议于3月6日举行。", "会议定于2023年3月5日召开。", True),
        ("회의는 3월 5일입니다.", "회의는 2024년 3월 5일에 열립니다.", False),
        # "제3조" (Article 3) is no 3 x 10**12
        ("제3조에 따라 30일 이내.", "제3조: 30일 이내에 신청", False),
    ],
)
def test_scale_characters_and_dates_without_year(answer: str, context: str, flagged: bool) -> None:
    assert bool(check_grounding(answer, context).findings) is flagged


@pytest.mark.parametrize(
    ("text", "value", "unit"),
    [
        # a thousand millions, as Spain and Portugal write a billion ("1,2 mil" was 1.2 million)
        ("Ingresos: 1,2 mil millones de euros", Fraction(1_200_000_000), None),
        ("Receitas: 3,5 mil milhões de euros", Fraction(3_500_000_000), None),
        # plain spaces grouping a figure before a euro sign, as French writes amounts ("1 200
        # M€" was the figures 1 and 200 million euros)
        ("Chiffre d'affaires : 1 200 M€", Fraction(1_200_000_000), "eur"),
        ("Prix : 12 500 €", Fraction(12_500), "eur"),
        ("Coût 3 450,50 €", Fraction(690_100, 200), "eur"),
        # Thai scale words (ล้าน a million, พันล้าน a thousand millions) and the baht
        ("รายได้ 1,200 ล้านบาท", Fraction(1_200_000_000), "thb"),
        ("รายได้ทั้งหมด 1.2 พันล้านบาท", Fraction(1_200_000_000), "thb"),
    ],
)
def test_more_scale_words_and_groupings(text: str, value: Fraction, unit: str | None) -> None:
    assert [(q.value, q.unit) for q in parse_quantities(text)] == [(value, unit)]


@pytest.mark.parametrize(
    ("answer", "context", "flagged"),
    [
        (
            "Los ingresos fueron de 1.200 millones de euros.",
            "Ingresos: 1,2 mil millones de euros",
            False,
        ),
        (
            "Los ingresos fueron de 1.300 millones de euros.",
            "Ingresos: 1,2 mil millones de euros",
            True,
        ),
        (
            "Le chiffre d'affaires était de 1,2 milliard d'euros.",
            "Chiffre d'affaires : 1 200 M€",
            False,
        ),
        (
            "Le chiffre d'affaires était de 1,3 milliard d'euros.",
            "Chiffre d'affaires : 1 200 M€",
            True,
        ),
        ("รายได้ 1,200 ล้านบาท", "รายได้ทั้งหมด 1.2 พันล้านบาท", False),
        ("รายได้ 1,300 ล้านบาท", "รายได้ทั้งหมด 1.2 พันล้านบาท", True),
        ("The sizes are 10 500.", "Sizes 10 and 500 in stock.", False),  # no euro: separators
    ],
)
def test_the_same_amount_across_scale_words(answer: str, context: str, flagged: bool) -> None:
    assert bool(check_grounding(answer, context).findings) is flagged


def test_many_figures_with_scale_characters_are_read_in_linear_time() -> None:
    # 100,000 figures "5만 원" and dates "3月5日" in one text: each replaces its parts in one pass
    # over the text's quantities (about a second on a slow machine)
    text = " ".join("5만 원" for _ in range(50_000)) + "，".join("3月5日" for _ in range(50_000))
    started = time.perf_counter()
    quantities = parse_quantities(text)
    assert time.perf_counter() - started < 10
    assert len(quantities) == 100_000


@pytest.mark.parametrize(
    ("text", "read"),
    [
        # German "um" ("by") before a figure is no micrometre (und.json's ambiguous_units)
        ("Der Umsatz stieg 2023 um 5 %.", [("2023", None), ("5 %", "%")]),
        ("Die Schicht ist 5 um dick.", [("5 um", "μm")]),
        # a French elision after a figure is no unit of one letter ("l'" is no litre)
        ("En 2023 l'entreprise a vendu 5 l d'huile.", [("2023", None), ("5 l", "l")]),
        # an apostrophe after a longer unit stays: a possessive, a scale
        ("ninety days' notice, or 90 days' notice", [("ninety days", "day"), ("90 days", "day")]),
    ],
)
def test_words_of_a_language_that_look_like_units(
    text: str, read: list[tuple[str, str | None]]
) -> None:
    assert [(q.text, q.unit) for q in parse_quantities(text)] == read
