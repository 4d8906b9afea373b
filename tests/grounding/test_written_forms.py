"""Figures in the written forms a second audit found unread or misread: a dollar sign's country
prefix, currency codes before a figure, lists and CSV rows without spaces, decimal commas and
continental scale words, LaTeX math, dates in figures, versions and addresses.

Every expected value is read off the sentence by hand (the figure a reader sees in it)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from hybridjudge.corpus import Case, Output, read_jsonl_models
from hybridjudge.grounding import check_grounding, parse_quantities
from hybridjudge.grounding._normalize import normalize


def _read(text: str) -> list[tuple[str, Fraction, str | None]]:
    return [(q.text, q.value, q.dimension) for q in parse_quantities(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Revenue was US$9.9 billion.", [("US$9.9 billion", Fraction(9_900_000_000), "usd")]),
        ("Net profit was HK$512 million.", [("HK$512 million", Fraction(512_000_000), "hkd")]),
        ("It costs S$45.", [("S$45", Fraction(45), "sgd")]),
        ("C$3 and A$4", [("C$3", Fraction(3), "cad"), ("A$4", Fraction(4), "aud")]),
        ("USD 9.9 billion", [("USD 9.9 billion", Fraction(9_900_000_000), "usd")]),
        ("EUR 3.2bn", [("EUR 3.2bn", Fraction(3_200_000_000), "eur")]),
        ("HKD 512", [("HKD 512", Fraction(512), "hkd")]),
        ("RMB3,550 million", [("RMB3,550 million", Fraction(3_550_000_000), "cny")]),
        ("INR19 a share", [("INR19", Fraction(19), "inr")]),
        ("₹5,000", [("₹5,000", Fraction(5000), "inr")]),
        # the ringgit: "RM5.0 million" was an identifier "rm5" and its figure was lost
        ("Revenue was RM5.0 million.", [("RM5.0 million", Fraction(5_000_000), "myr")]),
        ("RM 250", [("RM 250", Fraction(250), "myr")]),
        ("MYR5 million", [("MYR5 million", Fraction(5_000_000), "myr")]),
        # more ISO codes, before or glued to the figure ("AED5.5 million" lost its figure)
        ("AED5.5 million", [("AED5.5 million", Fraction(5_500_000), "aed")]),
        ("SAR 1.2bn", [("SAR 1.2bn", Fraction(1_200_000_000), "sar")]),
        ("PLN 300", [("PLN 300", Fraction(300), "pln")]),
    ],
)
def test_a_currency_written_before_the_figure_is_read(
    text: str, expected: list[tuple[str, Fraction, str]]
) -> None:
    assert _read(text) == [(t, v, f"currency-{c}") for t, v, c in expected]


@pytest.mark.parametrize(
    "text",
    [
        " | US$000 | US$000",  # a column header's unit, not a figure
        " | US$'000 | US$'000",
        "bus$5",  # not a currency prefix
    ],
)
def test_what_only_looks_like_a_currency_figure_is_not_read(text: str) -> None:
    assert parse_quantities(text) == []


@pytest.mark.parametrize(
    ("answer", "context", "flagged"),
    [
        ("Revenue was US$9.9 billion.", "Revenue was US$3.2 billion in 2023.", True),
        ("Revenue was RM9.0 million.", "Revenue was RM5.0 million.", True),  # passed
        ("Revenue was MYR 5 million.", "Revenue was RM5.0 million.", False),
        ("Revenue was AED9.5 million.", "Revenue was AED5.5 million.", True),  # passed
        ("Try it 5 times.", "Try it 5 times a day.", False),  # TRY is no currency read
        ("Revenue was US$3.2 billion.", "Revenue was US$3.2 billion in 2023.", False),
        ("Net profit was HK$512 million.", "Net profit was HK$388 million.", True),
        ("It costs S$45.", "It costs S$30.", True),
        ("Revenue was USD 3.2bn.", "Revenue was $3.2 billion.", False),
        ("Revenue was EUR 3.2 billion.", "Revenue was $3.2 billion.", True),
        ("Revenue was 3.2 billion.", "Revenue was $3.2 billion.", False),
    ],
)
def test_a_figure_with_a_prefixed_currency_is_checked(
    answer: str, context: str, flagged: bool
) -> None:
    assert bool(check_grounding(answer, context).findings) is flagged


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("Segment,2019,2018", [2019, 2018]),
        ("Marine Services,194.3,172.5", [Fraction(1943, 10), Fraction(345, 2)]),
        ("Doses: 5,15,20 mg.", [5, 15, 20]),
        ("[1,3,5]", [1, 3, 5]),
        ("300万元，450万元，520万元", [3_000_000, 4_500_000, 5_200_000]),
        ("1,234,567 units", [1_234_567]),  # thousands separators stay thousands separators
        ("sold for$264,000.", []),  # ",000" continues a figure glued to a word: not zero
    ],
)
def test_figures_after_a_comma_without_a_space_are_read(
    text: str, values: list[Fraction | int]
) -> None:
    assert [q.value for q in parse_quantities(text)] == values


@pytest.mark.parametrize(
    ("answer", "flagged"),
    [
        ("前三个季度的收入分别为300万元，990万元，520万元。", True),
        ("第二季度收入为450万元。", False),
    ],
)
def test_a_chinese_list_with_full_width_commas_is_checked(answer: str, flagged: bool) -> None:
    context = "前三个季度的收入分别为300万元，450万元，520万元。"
    assert bool(check_grounding(answer, context).findings) is flagged


def test_a_changed_figure_in_a_list_without_spaces_is_flagged() -> None:
    # 17 is no figure of the context, nor a sum, difference or ratio of two of 5, 10, 20
    report = check_grounding("Doses: 5,17,20 mg.", "Doses: 5,10,20 mg.")
    assert [t.quantity.text for t in report.quantities if t.source is None] == ["17"]


@pytest.mark.parametrize(
    ("text", "value", "dimension"),
    [
        ("1,9 Millionen Euro", Fraction(1_900_000), "currency-eur"),
        ("3,8 milliards", Fraction(3_800_000_000), None),
        ("2,5 Mio. Euro", Fraction(2_500_000), "currency-eur"),
        ("1,2 Mrd. Dollar", Fraction(1_200_000_000), "currency-usd"),
        ("4,7 %", Fraction(47, 10), "percent"),
        ("2,50 €", Fraction(5, 2), "currency-eur"),  # the euro sign after the figure
        ("150 M€", Fraction(150_000_000), "currency-eur"),  # French: millions of euros
        ("1,2 Md€", Fraction(1_200_000_000), "currency-eur"),
        ("500 k€", Fraction(500_000), "currency-eur"),
        # Italian and Dutch abbreviate billions "mld" (read as 1.5 before)
        ("1,5 mld euro", Fraction(1_500_000_000), "currency-eur"),
        ("2,3 mld. di euro", Fraction(2_300_000_000), None),
    ],
)
def test_a_decimal_comma_and_continental_scale_words_are_read(
    text: str, value: Fraction, dimension: str | None
) -> None:
    (q,) = parse_quantities(text)[:1]
    assert (q.value, q.dimension) == (value, dimension)


@pytest.mark.parametrize(
    ("answer", "context", "flagged"),
    [
        ("Der Umsatz betrug 1,9 Millionen Euro.", "Der Umsatz betrug 1,2 Millionen Euro.", True),
        ("Der Umsatz betrug 1,2 Millionen Euro.", "Der Umsatz betrug 1,2 Millionen Euro.", False),
        ("Le chiffre a atteint 3,8 milliards.", "Le chiffre a atteint 3,5 milliards.", True),
        ("La marge est de 4,7 %.", "La marge est de 4,2 %.", True),
        ("Revenue was 1.9 million euros.", "Der Umsatz betrug 1,9 Millionen Euro.", False),
        ("De omzet bedroeg 1,5 mld euro.", "De omzet bedroeg 1,5 miljard euro.", False),
        ("De omzet bedroeg 1,5 mld euro.", "De omzet bedroeg 1,5 miljoen euro.", True),
    ],
)
def test_a_changed_figure_with_a_decimal_comma_is_flagged(
    answer: str, context: str, flagged: bool
) -> None:
    assert bool(check_grounding(answer, context).findings) is flagged


def test_figures_in_latex_math_are_not_dollars() -> None:
    assert _read(r"LDL fell by $35\%$ over $12$ weeks.") == [
        (r"$35\%", Fraction(35), "percent"),
        ("$12", Fraction(12), None),
    ]
    context = "LDL fell by 35% over 12 weeks."
    assert not check_grounding(r"LDL fell by $35\%$ over $12$ weeks.", context).findings
    assert check_grounding(r"LDL fell by $45\%$ over $12$ weeks.", context).findings


@pytest.mark.parametrize(
    ("answer", "context", "flagged"),
    [
        # prescription abbreviations (BID = twice daily, TID = three times daily, q12h = every
        # 12 hours): an answer writes them in words
        ("Take 500 mg twice daily.", "Amoxicillin 500 mg PO BID", False),
        ("Take 500 mg twice daily.", "Amoxicillin 500 mg b.i.d.", False),
        ("Take it 3 times a day.", "Amoxicillin 500 mg TID for 7 days", False),
        ("Take 500 mg every 12 hours.", "Amoxicillin 500 mg PO q12h", False),
        ("Take 500 mg three times daily.", "Amoxicillin 500 mg PO BID", True),
        ("Take 500 mg every 8 hours.", "Amoxicillin 500 mg PO q12h", True),
        ("The bid was 2 dollars.", "The company placed a bid on the shares.", True),  # a word
    ],
)
def test_prescription_frequencies_ground_their_words(
    answer: str, context: str, flagged: bool
) -> None:
    assert bool(check_grounding(answer, context).findings) is flagged


@pytest.mark.parametrize(
    ("answer", "context", "flagged"),
    [
        # a figure glued to a unit the checks do not read was dropped, so a wrong one passed
        ("The plan includes 5GB of data.", "The plan includes 10 GB of data.", True),
        ("It reaches 100mph.", "Top speed is 80 mph.", True),
        ("The battery holds 75kWh.", "Battery capacity: 60 kWh.", True),
        # the same figure, glued or not, on either side
        ("The plan includes 10GB of data.", "The plan includes 10 GB of data.", False),
        ("The plan includes 10 GB of data.", "The plan includes 10GB of data.", False),
        ("It runs at 3.5GHz.", "Clock speed: 3.5GHz.", False),
        # an ordinal is no figure (as before)
        ("It ranked 3rd.", "It came third in the survey.", False),
    ],
)
def test_a_figure_glued_to_an_unknown_unit_is_checked(
    answer: str, context: str, flagged: bool
) -> None:
    assert bool(check_grounding(answer, context).findings) is flagged


@pytest.mark.parametrize(
    ("answer", "context", "flagged"),
    [
        # a unit the checks did not read was dropped and the bare figure matched: a
        # thousandfold error passed (conversions by the SI and IEC prefixes, by hand)
        ("The plan includes 10 MB.", "The plan includes 10 GB.", True),
        ("The plan includes 10MB.", "The plan includes 10 GB.", True),
        ("It runs at 3.5 MHz.", "Clock speed: 3.5 GHz.", True),
        ("The plant produces 5 MW.", "The plant produces 5 GW.", True),
        ("The plant produces 5 mW.", "The plant produces 5 MW.", True),  # milli, mega
        ("Usage was 5 kWh.", "Usage was 5 MWh.", True),
        ("Speed: 100 Mbps", "Speed: 1 Gbps", True),
        # the same quantity in another unit of its dimension
        ("The plan includes 10 GB.", "The plan includes 10,000 MB.", False),
        ("The plan includes 10 GB.", "The plan includes 10,240 MB.", False),  # 1024s
        ("Upload limit is 2 MB.", "Upload limit: 2048 KB.", False),
        ("Upload limit is 2 MB.", "Upload limit: 2 MiB.", False),
        ("The drive holds 1 TB.", "The drive holds 1,000 GB.", False),
        ("It runs at 3.5 GHz.", "Clock speed: 3,500 MHz.", False),
        ("The plant produces 5 MW.", "The plant produces 5,000 kW.", False),
        ("Usage was 5 MWh.", "Usage was 5,000 kWh.", False),
        ("Usage was 1 kWh.", "Usage was 3.6 MJ.", False),
        ("The line carries 11 kV.", "The line carries 11,000 volts.", False),
        # a unit on one side only: the figure (as before)
        ("A serving has 250 calories.", "Each serving contains 250 kcal.", False),
        ("Each serving contains 250 kcal.", "A serving has 250 calories.", False),
        ("Rates rose 25 bps.", "Rates rose 0.25 percentage points.", False),  # basis points
        # percentage points as analysts abbreviate them, and compounds with a hyphen (read as
        # plain figures before): 45.2% - 44.1% = 1.1 points
        ("Margin rose 1.1 ppts.", "Margin was 45.2% against 44.1%.", False),
        ("Margin rose 1.1 percentage pts.", "Margin was 45.2% against 44.1%.", False),
        ("A 1.1-percentage-point rise.", "Margin was 45.2% against 44.1%.", False),
        ("A 110-basis-point rise.", "Margin was 45.2% against 44.1%.", False),
        ("A 120-basis-point rise.", "Margin was 45.2% against 44.1%.", True),
        ("A 1.1-percentage-point rise.", "The margin rose 1.1%.", False),
    ],
)
def test_data_frequency_power_and_energy_units(answer: str, context: str, flagged: bool) -> None:
    assert bool(check_grounding(answer, context).findings) is flagged


def test_swiss_grouping_is_read() -> None:
    # 10'000 and 1'250'000.50 as Swiss reports write them (the typographic apostrophe too)
    assert _read("CHF 10'000 and CHF 1’250’000.50") == [
        ("CHF 10'000", Fraction(10_000), "currency-chf"),
        ("CHF 1’250’000.50", Fraction(2_500_001, 2), "currency-chf"),
    ]
    assert check_grounding("The fee is CHF 10'000.", "The fee is CHF 10,000.").grounded
    assert check_grounding("The fee is CHF 12'000.", "The fee is CHF 10,000.").findings
    # an apostrophe before two digits is no grouping (5'10" is five feet ten)
    assert [q.value for q in parse_quantities("5'10\"")] == [5, 10]


def test_typographic_space_grouping_is_read() -> None:
    # a no-break, narrow no-break or thin space between digit groups (typeset and SI style)
    assert _read("10\u00a0000 and 1\u202f234\u202f567.5 and 2\u2009500") == [
        ("10\u00a0000", Fraction(10_000), None),
        ("1\u202f234\u202f567.5", Fraction(2_469_135, 2), None),
        ("2\u2009500", Fraction(2_500), None),
    ]
    context = "The trial enrolled 10\u202f000 patients."
    assert check_grounding("The trial enrolled 10,000 patients.", context).grounded
    assert check_grounding("The trial enrolled 12,000 patients.", context).findings
    # plain spaces between figures stay separators ("in 2019 500 people")
    assert [q.value for q in parse_quantities("in 2019 500 people")] == [2019, 500]


def test_plain_space_grouping_is_read_where_a_group_of_zeros_shows_it() -> None:
    # text extracted from a typeset page writes its thin spaces as plain ones: "10 000" was the
    # figures 10 and 0 (a finding against "10,000" either way); a group with a leading zero is
    # no figure of its own, and beside one every grouped figure is read whole
    assert _read("EUR 1 050 000 and 12 500 units") == [
        ("EUR 1 050 000", Fraction(1_050_000), "currency-eur"),
        ("12 500", Fraction(12_500), None),
    ]
    context = "The company has 10 000 employees."
    assert check_grounding("The company has 10,000 employees.", context).grounded
    assert check_grounding("The company has 10 000 employees.", "It has 10,000 staff.").grounded
    assert check_grounding("The company has 12,000 employees.", context).findings
    # without a group of zeros, plain spaces stay separators
    assert [q.value for q in parse_quantities("sizes 10 500 and 20")] == [10, 500, 20]
    assert [q.value for q in parse_quantities("call 555 0123")] == [555, 123]
    assert [q.value for q in parse_quantities("in 2019 10 000 people")][:2] == [2019, 10]


def test_typographic_space_grouping_with_a_decimal_comma_is_read() -> None:
    # beside groups of a narrow no-break space, a comma before one or two digits is the decimal
    # sign (SI style, German and French typesetting), with or without the words that make a
    # text continental ("Die" and "Euro" are not among them)
    assert _read("Die 12\u202f500,5 Euro und 1\u00a0234\u00a0567,25 Euro") == [
        ("12\u202f500,5 Euro", Fraction(25_001, 2), "currency-eur"),
        ("1\u00a0234\u00a0567,25 Euro", Fraction(4_938_269, 4), "currency-eur"),
    ]
    context = "Kosten: 12.500,5 Euro."
    assert check_grounding("Die 12\u202f500,5 Euro.", context).grounded
    assert check_grounding("Die 12\u202f500,6 Euro.", context).findings
    # three digits after the comma may be a further group: no decimal is read there
    values = [q.value for q in parse_quantities("1\u202f234,567 and 2\u202f000")]
    assert Fraction(1_234_567, 1000) not in values
    assert values[-1] == 2000


def test_decimal_commas_in_running_text_are_no_csv_row() -> None:
    # a sentence with two decimal commas and no ", " is running text, not the CSV row
    # "Der Umsatz stieg um 3 | 5 % auf 12 | 4 Mio. Euro" (it was read so, and every figure of
    # a correct answer was flagged)
    de = "Der Umsatz stieg um 3,5 % auf 12,4 Mio. Euro."
    assert _read(de) == [
        ("3,5 %", Fraction(7, 2), "percent"),
        ("12,4 Mio. Euro", Fraction(12_400_000), "currency-eur"),
    ]
    assert check_grounding("Revenue rose 3.5% to EUR 12.4 million.", de).grounded
    assert check_grounding("Der Umsatz stieg um 3,5 %.", de).grounded
    assert check_grounding("Revenue rose 3.6% to EUR 12.4 million.", de).findings
    fr = "Le chiffre d'affaires a progressé de 4,2 % pour atteindre 8,7 millions d'euros."
    assert check_grounding("Revenue grew 4.2% to 8.7 million euros.", fr).grounded
    assert check_grounding("Revenue grew 4.2% to 7.8 million euros.", fr).findings
    # CSV rows are still rows, figures with grouped thousands too
    assert normalize("Segment,2019,2018\nProducts,16525,14020").text == (
        "segment|2019|2018\nproducts|16525|14020"
    )
    assert normalize("Net income,1,234,5,678").text == "net income|1,234|5,678"


@pytest.mark.parametrize(
    ("text", "yyyymmdd"),
    [
        ("Discharge date: 03/07/2024.", 20240307),  # month first by default
        ("12/31/2024", 20241231),
        ("31/12/2024", 20241231),  # the first figure exceeds 12: day first
        ("on 25/12/2024 and 03/07/2024", 20240703),  # the text writes its dates day first
        ("3/7/24", 20240307),
        ("07.03.2024", 20240307),  # dotted: day first
        ("2023年3月5日に", 20230305),
        ("2023년 3월 5일", 20230305),
        ("2024/01/05", 20240105),  # year first with slashes (read as the year 2024 before)
        ("Filed on 24-Jan-2024.", 20240124),  # day-month-year with hyphens (read as 24 before)
        ("24-January-2024", 20240124),
    ],
)
def test_a_date_in_figures_is_a_date(text: str, yyyymmdd: int) -> None:
    dates = [q for q in parse_quantities(text) if q.kind == "date"]
    assert dates[-1].value == yyyymmdd


@pytest.mark.parametrize(
    ("answer", "context", "flagged"),
    [
        ("He was discharged on 03/09/2024.", "Discharge date: 03/07/2024.", True),
        ("He was discharged on March 7, 2024.", "Discharge date: 03/07/2024.", False),
        ("It opened on 2024/02/05.", "It opened on 5 January 2024.", True),
        ("It opened on 2024/01/05.", "It opened on 5 January 2024.", False),
        ("Filed on 25-Jan-2024.", "Filed on January 24, 2024.", True),
        ("Filed on 24-Jan-2024.", "Filed on January 24, 2024.", False),
        (
            "He was discharged on 7 March 2024.",
            "Admitted 25/02/2024, discharged 07/03/2024.",
            False,
        ),
        ("Er wurde am 08.03.2024 entlassen.", "Entlassung: 07.03.2024.", True),
        ("The meeting was on March 5, 2023.", "会議は2023年3月5日に開催された。", False),
        ("会議は2023年3月6日に開催された。", "The meeting was held on March 5, 2023.", True),
    ],
)
def test_a_changed_date_in_figures_is_flagged(answer: str, context: str, flagged: bool) -> None:
    assert bool(check_grounding(answer, context).findings) is flagged


@pytest.mark.parametrize("text", ["version 2.3.1", "192.168.1.1", "Section 4.2.1"])
def test_versions_and_addresses_are_not_quantities(text: str) -> None:
    assert parse_quantities(text) == []


def test_a_version_the_context_does_not_hold_is_flagged() -> None:
    assert check_grounding("Upgrade to version 2.4.0.", "Version 2.3.1 fixes the bug.").findings
    assert not check_grounding("Upgrade to 2.3.1.", "Version 2.3.1 fixes the bug.").findings


def test_a_long_run_of_cjk_numerals_is_read_where_it_ends_with_a_unit() -> None:
    # one run of 20,000 numerals with no unit (formerly quadratic), then a real figure
    assert [q.value for q in parse_quantities("三" * 20_000 + "。退款期限为三十天")] == [30]


@pytest.mark.parametrize(
    ("text", "value", "dimension"),
    [
        ("1e6 days", Fraction(1_000_000), "time"),
        ("The dose is 5e3 mg.", Fraction(5000), "mass"),
        ("We ship 6.02e23 units.", Fraction(602 * 10**21), None),
        ("It costs 2.5E+03 dollars.", Fraction(2500), "currency-usd"),
        ("5e-3 g", Fraction(1, 200), "mass"),
    ],
)
def test_scientific_notation_is_read(text: str, value: Fraction, dimension: str | None) -> None:
    (q,) = parse_quantities(text)
    assert (q.value, q.dimension) == (value, dimension)


@pytest.mark.parametrize(
    ("answer", "context"),
    [
        ("Refunds within 1e6 days.", "Refunds within 30 days."),
        ("The dose is 5e3 mg.", "The dose is 10 mg."),
        ("公司有八百名员工。", "公司员工五百人。"),
        ("百分之四十的客户续约。", "百分之三十的客户续约。"),
        ("利用者の40パーセントが更新した。", "利用者の30パーセントが更新した。"),
        ("It has 1.5m active users.", "It has 1.2 million active users."),
    ],
)
def test_a_changed_figure_in_these_forms_is_flagged(answer: str, context: str) -> None:
    assert check_grounding(answer, context).findings


@pytest.mark.parametrize(
    ("answer", "context"),
    [
        ("公司有五百名员工。", "公司员工五百人。"),
        ("百分之三十的客户续约。", "30%的客户续约。"),
        ("利用者の30パーセントが更新した。", "利用者の30%が更新した。"),
        ("It has 1.2m active users.", "It has 1.2 million active users."),
        ("A budget of 5m euros.", "The budget is EUR 5 million."),
        ("一个问题", "没有数字的上下文"),  # 一个 is the article "a", not a claim of one
    ],
)
def test_the_same_figure_in_these_forms_is_grounded(answer: str, context: str) -> None:
    assert not check_grounding(answer, context).findings


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a 5m wall", (Fraction(5), "length")),  # measured: metres
        ("the 100m sprint", (Fraction(100), "length")),
        ("1.2m monthly active users", (Fraction(1_200_000), None)),  # counted: millions
    ],
)
def test_a_lower_case_m_is_millions_only_before_what_is_counted(
    text: str, expected: tuple[Fraction, str | None]
) -> None:
    (q,) = parse_quantities(text)
    assert (q.value, q.dimension) == expected


@pytest.mark.parametrize(
    ("answer", "flagged"),
    [
        ("FY2024 Q3 sales were $3.2bn.", True),  # a fiscal year the context does not hold
        ("FY2023 Q4 sales were $3.2bn.", True),  # a quarter it does not hold
        ("FY2023 Q3 sales were $3.2bn.", False),
    ],
)
def test_a_fiscal_period_is_checked(answer: str, flagged: bool) -> None:
    context = "FY2023 Q3 sales were $3.2bn."
    assert bool(check_grounding(answer, context).findings) is flagged


@pytest.mark.parametrize(
    ("answer", "context", "flagged"),
    [
        # a quarter or a half the context names in words: "Q3" for "third quarter"
        ("Q3 revenue was $5M.", "Third-quarter revenue was $5 million.", False),
        ("Q4 sales were $5M.", "Sales in the 4th quarter were $5 million.", False),
        ("H1 sales were $5M.", "Sales in the first half were $5 million.", False),
        ("Q2 revenue was $5M.", "Third-quarter revenue was $5 million.", True),
        ("H2 sales were $5M.", "Sales in the first half were $5 million.", True),
    ],
)
def test_a_quarter_named_in_words_grounds_its_label(
    answer: str, context: str, flagged: bool
) -> None:
    assert bool(check_grounding(answer, context).findings) is flagged


CSV_TABLE = "Segment,2019,2018\nMarine Services,194.3,172.5\nTotal,350.1,300.2"


@pytest.mark.parametrize(
    ("answer", "source"),
    [
        # the same cells as a "|" table: a scale the answer adds to a cell, and derivations
        # along a row (194.3 - 172.5 = 21.8; 21.8 / 172.5 = 12.6%), all by hand
        ("Marine Services revenue was $194.3 million in 2019.", "context"),
        ("Marine Services revenue was $172.5 million in 2018.", "context"),
        ("Revenue grew by $21.8 million.", "derived"),
        ("Revenue grew by 12.6%.", "derived"),
        ("Marine Services revenue was $195.3 million in 2019.", None),
    ],
)
def test_a_csv_table_is_read_as_a_table(answer: str, source: str | None) -> None:
    report = check_grounding(answer, CSV_TABLE)
    assert report.quantities[0].source == source


@pytest.mark.parametrize(
    ("text", "normalised"),
    [
        ("Segment,2019,2018", "segment|2019|2018"),
        ("Revenue was 1,234, up from 1,100.", "revenue was 1,234, up from 1,100."),  # prose
        ("Total,1,234,567", "total,1,234,567"),  # one separator: not a row
        ("Item,3.5,1,250", "item|3.5|1,250"),  # the thousands comma stays
    ],
)
def test_only_the_cell_separators_of_a_csv_row_become_bars(text: str, normalised: str) -> None:
    from hybridjudge.grounding._normalize import normalize

    assert normalize(text).text == normalised


@pytest.mark.parametrize(
    ("answer", "context", "flagged"),
    [
        # a figure written after its abbreviation in the context may be named without it
        ("The adjusted odds ratio was 1.8.", "Adjusted OR 1.8 (95% CI 1.2-2.7).", False),
        ("Respiratory rate was 16.", "Vitals: RR 16, HR 88.", False),
        ("Respiratory rate was 18.", "Vitals: RR 16, HR 88.", True),
        ("Sales in fiscal 2023 were $3.2bn.", "FY2023 Q3 sales were $3.2bn.", False),
        ("It costs $500.", "Certified to ISO 500.", True),  # never with a currency or unit
    ],
)
def test_a_labelled_figure_in_the_context_grounds_the_bare_figure(
    answer: str, context: str, flagged: bool
) -> None:
    assert bool(check_grounding(answer, context).findings) is flagged


@pytest.mark.parametrize(
    ("answer", "context", "flagged"),
    [
        # a two-digit fiscal or calendar year is the year (FY19 is 2019; 00-68 in the 2000s,
        # 69-99 in the 1900s, as POSIX strptime reads %y): it was the bare 19, flagged against
        # "fiscal 2019" (TAT-QA's gold answers written "For FY19, ...": 333 of 350 flagged)
        ("In FY19, revenue was $5 million.", "Fiscal 2019 revenue was $5 million.", False),
        ("In FY 19, revenue was $5 million.", "Fiscal 2019 revenue was $5 million.", False),
        ("In FY'19, revenue was $5 million.", "Fiscal 2019 revenue was $5 million.", False),
        ("In FY\u201919, revenue was $5 million.", "Fiscal 2019 revenue was $5 million.", False),
        ("In FY-19, revenue was $5 million.", "Fiscal 2019 revenue was $5 million.", False),
        ("In CY99, revenue was $5 million.", "In 1999 revenue was $5 million.", False),
        ("In FY18, revenue was $5 million.", "Fiscal 2019 revenue was $5 million.", True),
        ("In FY'18, revenue was $5 million.", "Fiscal 2019 revenue was $5 million.", True),
        ("In FY2019, revenue was $5 million.", "Fiscal 2019 revenue was $5 million.", False),
        # and the other way round: the context's FY19 grounds 2019, not 2018
        ("In fiscal 2019, revenue was $5 million.", "FY19 revenue: $5 million.", False),
        ("In fiscal 2019, revenue was $5 million.", "FY'19 revenue: $5 million.", False),
        ("In fiscal 2018, revenue was $5 million.", "FY19 revenue: $5 million.", True),
        ("In FY19, revenue was $5 million.", "FY19 revenue: $5 million.", False),
    ],
)
def test_a_two_digit_fiscal_year_is_its_year(answer: str, context: str, flagged: bool) -> None:
    assert bool(check_grounding(answer, context).findings) is flagged


_SPLIT_YEARS = "Revenue was 5,428 in FY{a} against 4,756 in FY{b}."


@pytest.mark.parametrize(
    ("this", "last"),
    [
        # a fiscal year written with both its calendar years, as Indian, British and Japanese
        # reports write it, is the year it ends in ("FY 2023-24": 2024)
        ("2023/24", "2022/23"),
        (" 2023/24", " 2022/23"),
        ("23/24", "22/23"),
        ("2023-24", "2022-23"),
        (" 2023-24", " 2022-23"),
        (" 23-24", " 22-23"),
    ],
)
@pytest.mark.parametrize(
    ("answer", "flagged"),
    [
        ("FY24 revenue was 5,428.", False),
        ("FY2024 revenue was 5,428.", False),
        ("Revenue for fiscal 2023/24 was 5,428.", False),
        ("Revenue rose by 672 in FY 2023-24.", False),
        ("FY23 revenue was 4,756.", False),
        ("FY25 revenue was 5,428.", True),
        ("Revenue in FY 2024-25 was 5,428.", True),
    ],
)
def test_a_fiscal_year_of_two_calendar_years(
    this: str, last: str, answer: str, flagged: bool
) -> None:
    # "FY2023/24" was the year 2023 ("/24" dropped), "FY2023-24" no year at all, "FY 2023-24"
    # 2023 and a figure 24: FY24 and FY2024 were flagged against them
    context = _SPLIT_YEARS.format(a=this, b=last)
    assert bool(check_grounding(answer, context).findings) is flagged


def test_a_date_heading_before_a_colon_is_a_date() -> None:
    # "For the year ended December 31: | 2019 | 2018" (a table's heading): December 31 without
    # a year, which an answer's "December 31, 2018" names (it was read as no date)
    context = (
        "($ in millions) | | \nFor the year ended December 31: | 2019 | 2018\nCost | $100 | $82"
    )
    assert check_grounding("As of December 31, 2018, cost was $82 million.", context).grounded
    assert not check_grounding("As of June 30, 2018, cost was $82 million.", context).grounded
    # a time after a date's day is still no date's colon
    assert [q.kind for q in parse_quantities("May 5:30 pm")] == ["time"]


@pytest.mark.parametrize(
    ("answer", "context", "flagged"),
    [
        ("Take metoprolol 50 mg once daily.", "Metoprolol 50 mg PO daily.", False),
        ("Take it once a week.", "Take it weekly.", False),
        ("Take metoprolol 50 mg once daily.", "Metoprolol 50 mg PO twice daily.", True),
        ("Take it once a day.", "Take it every week.", True),
    ],
)
def test_once_is_the_frequency_the_context_states_without_a_count(
    answer: str, context: str, flagged: bool
) -> None:
    assert bool(check_grounding(answer, context).findings) is flagged


BRIEF = "simplify-discharge-brief"
BRIEF_BASE = f"{BRIEF}::base"


@pytest.mark.parametrize(
    ("answer", "context", "flagged"),
    [
        # a daily count and the dosing interval it makes (24 hours in whole doses, by hand)
        ("Take one tablet every 12 hours.", "Dosage: one tablet twice daily.", False),
        ("Take one tablet twice daily.", "Dosage: one tablet every 12 hours.", False),
        ("Take it three times a day.", "Take one every 8 hours.", False),
        ("Take it every 8 hours.", "Take three times daily.", False),
        ("Take 500 mg 4 times a day.", "Amoxicillin 500 mg q6h.", False),
        ("Take 500 mg every 12 hours.", "Amoxicillin 500 mg PO BID.", False),
        ("Take one tablet once daily.", "Take one tablet every 24 hours.", False),
        ("Take one tablet every 24 hours.", "Take one tablet daily.", False),
        # and over days, weeks, months and years (a quarter is 3 months, by hand)
        ("We bill every 3 months.", "We bill quarterly.", False),
        ("We bill four times a year.", "We bill every 3 months.", False),
        ("Reports are filed every 12 months.", "Reports are filed annually.", False),
        ("Reports are filed twice a year.", "Reports are filed semi-annually.", False),
        ("Take it every 48 hours.", "Take it every other day.", False),
        ("We meet every 2 weeks.", "We meet fortnightly.", False),
        ("We meet every 7 days.", "We meet weekly.", False),
        ("Take it twice a week.", "Take it every 3.5 days.", False),
        # another interval, another period, a range or no "every": no such reading
        ("Take it every 6 hours.", "Take three times daily.", True),
        ("Take it twice daily.", "Take one every 8 hours.", True),
        ("Take 500 mg 3 times a day.", "Amoxicillin 500 mg q6h.", True),
        ("Take 500 mg every 8 hours.", "Amoxicillin 500 mg PO BID.", True),
        ("Take one tablet every 24 hours.", "Take one tablet twice daily.", True),
        ("Take it twice a week.", "Take one every 12 hours.", True),
        ("The effect lasts 12 hours.", "Take it twice daily.", True),
        ("Take it every 4 to 6 hours.", "Take it 4 times a day.", True),
        ("We bill every 4 months.", "We bill quarterly.", True),
        ("Take it every 3 days.", "Take it every other day.", True),
        ("We bill every 30 days.", "We bill monthly.", True),  # a month is no 30 days
        ("We bill every 4 months.", "A quarter of sales came from Asia.", True),  # a share
    ],
)
def test_a_frequency_is_the_interval_it_makes(answer: str, context: str, flagged: bool) -> None:
    # found on OpenGATE's discharge and lab-result cases ("500 mg three times daily", "200 mg
    # twice a day"): "every 8 hours" for "three times daily" was an ungrounded number, as was
    # "every 3 months" for a policy's "quarterly"
    report = check_grounding(answer, context)
    assert bool(report.findings) is flagged
    if not flagged:  # computed from the context's phrase: a derivation, as "derived" reports
        assert report.quantities[-1].source == "derived"
        assert check_grounding(answer, context, derived="finding").kinds == {"derived_number"}


def test_the_interval_names_the_context_phrase() -> None:
    # OpenGATE's discharge case and its base output, the dose's frequency written as an interval
    corpus = Path(__file__).resolve().parents[2] / "corpus" / "opengate"
    case = next(c for c in read_jsonl_models(corpus / "cases.jsonl", Case) if c.id == BRIEF)
    base = next(
        o for o in read_jsonl_models(corpus / "outputs.jsonl", Output) if o.id == BRIEF_BASE
    )
    assert "500 mg three times a day" in base.text
    right = base.text.replace("500 mg three times a day", "500 mg every 8 hours")
    report = check_grounding(right, case.context, anchors=case.anchors)
    assert report.grounded
    assert [t.matched_text for t in report.quantities][:3] == ["500 mg", None, "5 days"]
    assert report.quantities[1].derivation == "every 8 hours = three times daily: the same interval"
    wrong = base.text.replace("500 mg three times a day", "500 mg every 12 hours")
    report = check_grounding(wrong, case.context, anchors=case.anchors)
    assert [f.subject for f in report.findings] == ["12 hours"]
    back = check_grounding("Take it 2 times a day.", "Take one tablet every 12 hours.")
    assert back.quantities[0].derivation == "2 times a day = every 12 hours: the same interval"
    # once before the frequency the context states without a count is the same claim
    same = check_grounding("Take it once a week.", "Take it weekly.")
    assert (same.quantities[0].source, same.quantities[0].matched_text) == ("context", "weekly")


@pytest.mark.parametrize(
    ("answer", "source"),
    [
        ("Staff rose by 12.", None),  # "by" in running text is no operator: 12 is a claim
        ("We have over 100 customers.", None),
        ("The total divided by 2 is the mean.", "working"),
        ("We multiply by 100.", "working"),
    ],
)
def test_only_an_operator_in_words_makes_a_constant_of_working(
    answer: str, source: str | None
) -> None:
    report = check_grounding(answer, "Staff: 45.")
    assert report.quantities[0].source == source


@pytest.mark.parametrize(
    ("answer", "context", "flagged"),
    [
        # the 1 that closes a ratio is notation, not a claim (TAT-QA: "Hedge ratio | 1:1")
        ("The current ratio was 1.5:1.", "Current ratio: 1.5x.", False),
        ("The ratio was 1.5 to 1.", "The current ratio was 1.5.", False),
        ("The debt-to-equity ratio is 0.8 : 1.", "Debt to equity: 0.8", False),
        ("The ratio of assets to liabilities was 2,100 to 1.", "Asset ratio: 2,100", False),
        # its first figure is still a claim, and a change to 1 is no ratio
        ("The current ratio was 1.5:1.", "The current ratio was 2.5.", True),
        ("The ratio fell from 5 to 1.", "The ratio fell from 5 to 2.", True),
        ("The ratio fell from 5.5 to 1.", "The ratio fell from 5.5 to 2.", True),
        ("Staff fell from 5 to 1.", "Staff fell from 5 to 2.", True),
    ],
)
def test_the_one_of_a_ratio_is_notation(answer: str, context: str, flagged: bool) -> None:
    assert bool(check_grounding(answer, context).findings) is flagged


@pytest.mark.parametrize(
    ("answer", "context", "derivation"),
    [
        # a part the context states as a share of a whole (by hand: 50% of 1,200 = 600; 25% of
        # 200 = 50; 25% of 1,200 = 300; 40% of 5,000 = 2,000; two-thirds of 600 = 400)
        (
            "The trial enrolled 1,200 patients, 600 of them women.",
            "The trial enrolled 1,200 patients, half of them women.",
            "600 = half of 1,200",
        ),
        (
            "Of the 200 respondents, 50 said yes.",
            "A quarter of the 200 respondents said yes.",
            "50 = A quarter of 200",
        ),
        (
            "About 300 of the 1,200 employees work remotely.",
            "25% of the company's 1,200 employees work remotely.",
            "300 = 25% of 1,200",
        ),
        ("400 members voted.", "Two-thirds of the 600 members voted.", "400 = Two-thirds of 600"),
        # another part, or a share and a figure that are no share of it
        ("350 members voted.", "Two-thirds of the 600 members voted.", None),
        (
            "700 patients were women.",
            "The trial enrolled 1,200 patients, half of them women.",
            None,
        ),
        (
            "300 employees work remotely.",
            "Revenue grew 25% in 2019. The company has 1,200 employees.",
            None,
        ),
    ],
)
def test_a_part_of_a_whole_the_context_states_as_a_share(
    answer: str, context: str, derivation: str | None
) -> None:
    report = check_grounding(answer, context)
    assert report.grounded is (derivation is not None)
    if derivation is not None:
        assert [t.derivation for t in report.quantities if t.source == "derived"] == [
            f"{derivation}: a share of a whole"
        ]


@pytest.mark.parametrize(
    ("answer", "context", "traced"),
    [
        # a duration the context states as a range of years (by hand: 2019 - 2015 = 4; five
        # years counting both ends; 2017 - 2009 = 8)
        ("The study ran 4 years.", "The study ran from 2015 to 2019.", "4 years = 2019 - 2015"),
        (
            "The study covered 5 years.",
            "The study ran from 2015 to 2019.",
            "5 years = 2015 to 2019",
        ),
        ("He served 8 years.", "He served between 2009 and 2017.", "8 years = 2017 - 2009"),
        ("The study covered 6 years.", "The study ran from 2015 to 2019.", None),
        ("The study covered 4 years.", "Data for 2015 and 2019.", None),  # two years, no range
        # a year written with an apostrophe is that year (POSIX's %y: 00-68 are the 2000s)
        ("It was founded in '98.", "Founded in 1998.", "1998"),
        ("The '19 results were strong.", "Results for 2019 were strong.", "2019"),
        ("It was founded in '97.", "Founded in 1998.", None),
        ("He is 98.", "Founded in 1998.", None),
    ],
)
def test_years_written_another_way(answer: str, context: str, traced: str | None) -> None:
    report = check_grounding(answer, context)
    assert report.grounded is (traced is not None)
    if traced is not None:
        last = report.quantities[-1]
        assert (last.derivation or last.matched_text or "").startswith(traced)


@pytest.mark.parametrize(
    ("answer", "context", "derivation"),
    [
        # an amount as a rate over another period: the context's times the ratio of the periods
        # (by hand: 5 x 12 = 60; 9.99 x 12 = 119.88; 5 x 3 = 15; 60 / 12 = 5; 10 x 7 = 70)
        ("It costs $60 a year.", "It costs $5 per month.", "$60 = $5 × 12"),
        ("It costs $119.88 annually.", "It costs $9.99/mo.", "$119.88 = $9.99 × 12"),
        ("It costs $120 annually.", "It costs $9.99/mo.", "$120 = $9.99 × 12"),  # as written
        ("It costs $15 per quarter.", "It costs $5 per month.", "$15 = $5 × 3"),
        ("It costs $5 per month.", "It costs $60 a year.", "$5 = $60 / 12"),
        ("It costs $70 a week.", "It costs $10 per day.", "$70 = $10 × 7"),
        # another currency, another amount, days against months, or no period: no derivation
        ("It costs $60 a year.", "It costs €5 per month.", None),
        ("It costs $70 a year.", "It costs $5 per month.", None),
        ("It costs $150 a month.", "It costs $5 per day.", None),  # a month is no 30 days
        ("It costs $60.", "It costs $5 per month.", None),
    ],
)
def test_an_amount_per_period_converts_to_another_period(
    answer: str, context: str, derivation: str | None
) -> None:
    report = check_grounding(answer, context)
    assert report.grounded is (derivation is not None)
    if derivation is not None:
        assert report.quantities[0].derivation == f"{derivation}: the same rate over another period"
        assert check_grounding(answer, context, derived="finding").kinds == {"derived_number"}


@pytest.mark.parametrize(
    ("answer", "context", "grounded"),
    [
        # the amount as written, the rate over another period of the same kind: wrong
        ("Premium costs $9.99 per year.", "Premium costs $99 per year or $9.99 per month.", False),
        ("Premium costs $99 per month.", "Premium costs $99 per year or $9.99 per month.", False),
        ("It costs $10 a week.", "It costs $10 per day.", False),
        # the same period in other words, or an occurrence with no period: grounded
        ("Premium costs $9.99 monthly.", "Premium costs $99 per year or $9.99 per month.", True),
        ("Premium costs $9.99/mo.", "Premium costs $99 per year or $9.99 per month.", True),
        ("It costs $4.99 per month.", "Standard costs $4.99.", True),
        ("It costs $5 per month.", "It costs $5 per month; setup is $5.", True),
        # periods of two kinds (days against months) convert into none another, but differ
        ("It costs $5 a month.", "It costs $5 per day.", False),
    ],
)
def test_an_amount_stated_over_another_period_is_no_rate_of_the_context(
    answer: str, context: str, grounded: bool
) -> None:
    report = check_grounding(answer, context)
    assert report.grounded is grounded
    if not grounded:
        assert "another period" in report.findings[0].message


@pytest.mark.parametrize(
    ("answer", "context", "flagged", "matched"),
    [
        # a change stated by a verb is the percentage change it makes (by hand: doubled is
        # +100%, tripled +200%, halved -50%), as a percentage only
        ("Sales rose 100% to $2 million.", "Sales doubled to $2 million.", False, "doubled"),
        ("Sales rose 200%.", "Sales tripled.", False, "tripled"),
        ("Costs fell 50%.", "Costs were halved.", False, "halved"),
        ("Costs were reduced by 50%.", "Costs were halved.", False, "halved"),
        ("Costs were cut by 50%.", "Costs were halved.", False, "halved"),
        ("Costs rose 50%.", "Costs were halved.", True, None),
        ("Sales rose 50%.", "Sales doubled.", True, None),
        ("Sales rose 100%.", "Sales were double those of 2018.", True, None),  # no change
        ("Sales were 100.", "Sales doubled.", True, None),
        # the lexicons' factor_changes: the same verbs in other languages
        ("Der Umsatz stieg um 100 %.", "Der Umsatz hat sich verdoppelt.", False, "verdoppelt"),
        ("Le chiffre d'affaires a progressé de 200 %.", "Il a triplé.", False, "triplé"),
        ("El beneficio creció un 100 %.", "El beneficio se duplicó.", False, "duplicó"),
        ("L'utile è cresciuto del 100 %.", "L'utile è raddoppiato.", False, "raddoppiato"),
        ("O lucro cresceu 100 %.", "O lucro dobrou.", False, "dobrou"),
        ("De winst steeg met 100 %.", "De winst is verdubbeld.", False, "verdubbeld"),
        ("De winst steeg met 50 %.", "De winst is verdubbeld.", True, None),
        # 24/7 is 24 hours a day and 7 days a week
        ("Available 24 hours a day, 7 days a week.", "Support is available 24/7.", False, "24/7"),
        ("Available 12 hours a day.", "Support is available 24/7.", True, None),
        ("Available 24 hours a day.", "Call 1-800-24/75.", True, None),
        # a share in quarters written with a space (see also test_shares.py)
        ("25% of sales came from Asia.", "A quarter of sales came from Asia.", False, "A quarter"),
    ],
)
def test_words_that_state_a_figure(
    answer: str, context: str, flagged: bool, matched: str | None
) -> None:
    report = check_grounding(answer, context)
    assert bool(report.findings) is flagged
    if matched is not None:
        assert report.quantities[0].matched_text == matched


def test_a_mapping_is_not_a_context() -> None:
    from hybridjudge.grounding import GroundingTypeError

    with pytest.raises(GroundingTypeError, match="not a mapping") as caught:
        check_grounding("30 days", {"Refunds within 30 days.": 1})  # type: ignore[arg-type]
    assert caught.value.argument == "context"


# --- the phrasing of answers about financial statements ----------------------------------------
# Each form below was measured on TAT-QA's gold answers (validity/tatqa.py's documents) put in a
# sentence as a model writes one; the counts in the comments are gold answers flagged before.

STATEMENT = """(In thousands) | Year Ended December 31, | |
 | 2019 | 2018 | 2017
Revenue | 150,092 | 120,011 | 98,500"""


@pytest.mark.parametrize(
    "answer",
    [
        "Revenue was $150.1 million y/y.",  # "y/y" was an opaque unit (668 of 1,060)
        "Revenue was $150.1 million q/q.",
        "Step 1: find the row. Step 2: revenue was 150,092 thousand.",  # "Step 2" (92)
        "In 2018-19, revenue was 150,092 thousand.",  # 19 is 2019 (578 of 614)
        "In 2017-19, revenue rose to 150,092 thousand.",
        "Over the two years, revenue was 150,092 thousand.",  # counting words (499 of 614)
        "Of the three years shown, 2019 had 150,092 thousand.",
        # the reporting period: "year ended" is twelve months (934 of 1,060 flagged in all,
        # 336 still: their contexts name no period)
        "For the twelve months ended December 31, 2019, revenue was 150,092 thousand.",
        "For the 12 months of 2019, revenue was 150,092 thousand.",
    ],
)
def test_the_phrasing_of_a_financial_answer_is_no_claim_beyond_it(answer: str) -> None:
    report = check_grounding(answer, STATEMENT)
    assert report.grounded, report.findings


@pytest.mark.parametrize(
    ("answer", "subject"),
    [
        ("In 2016-17, revenue was 150,092 thousand.", "2016"),  # neither year is a column
        ("In 2018-20, revenue was 150,092 thousand.", "20"),  # 2020 is not
        ("For the six months of 2019, revenue was 150,092 thousand.", "six months"),
        ("Revenue rose 10% over three years.", "three years"),  # a duration, not a count
        ("Revenue was 150,092 thousand in the two-year period.", "two-year"),
    ],
)
def test_what_the_phrasing_claims_is_still_checked(answer: str, subject: str) -> None:
    subjects = [f.subject for f in check_grounding(answer, STATEMENT).findings]
    assert subject in subjects


def test_a_year_span_reads_both_years() -> None:
    # "2018-19" is 2018 to 2019 (as "2018/19" is the fiscal year 2019); "1999-00" ends in 2000
    assert [q.value for q in parse_quantities("In 2018-19 and 1999-00")] == [2018, 2019, 1999, 2000]
    # no year ("pages 12-19" is a page citation, no figure)
    assert [q.value for q in parse_quantities("sizes 12-19")] == [12, 19]
    # only written as one span: "from 82 in 2017 to 95 in 2018" is no 2095
    assert [q.value for q in parse_quantities("from 82 in 2017 to 95 in 2018")] == [
        82,
        2017,
        95,
        2018,
    ]
    assert [q.value for q in parse_quantities("2018 - 19 = 1,999")] == [2018, 19, 1999]


def test_a_quarter_ended_is_three_months() -> None:
    context = "For the quarter ended June 30, 2019, revenue was $5 million."
    assert check_grounding(
        "In the three months ended June 30, 2019, it was $5 million.", context
    ).grounded
    assert not check_grounding(
        "In the six months ended June 30, 2019, it was $5 million.", context
    ).grounded


@pytest.mark.parametrize(
    "header",
    [
        " | 2019 | 2018 | 2017",
        " |  | Fiscal | \n | 2019 | 2018 | 2017",  # a title row first
        "Income statement expense |  |  | \n | 2019 €m | 2018 €m | 2017 €m",
        "$ million | 2019 | 2018 | Change (%)",
        "€ million | 2017/2018 | 2018/2019",
        " | December 31, 2019 | December 31, 2018",
        " | April 26, 2019 | April 27, 2018",  # a 52/53-week fiscal year
        " | December 31, | \n | 2019 | 2018",  # a title row with a date
        " | 30 June 2019 | 30 June 2018 | Change",
        " | 2019 $'000 | 2018 $'000",
        " | January 3, 2020 | December 28, 2019",  # 52/53-week years ending near the turn
        " | Year-ended 31 March 2019 | Year-ended 31 March 2018",  # a period named, hyphenated
    ],
)
def test_a_table_with_years_as_columns_grounds_twelve_months(header: str) -> None:
    # TAT-QA's gold answers put "For the twelve months ended 2019, it was X." were flagged in
    # 335 of 1,060 cases whose contexts name no period (validity/tatqa.py's phrasings): a
    # table's columns of years are its years
    context = f"{header}\nRevenue | 150,092 | 120,011 | 98,500"
    report = check_grounding("For the twelve months ended 2019, it was 150,092.", context)
    assert report.grounded, report.findings
    twelve = next(t for t in report.quantities if t.quantity.text == "twelve months")
    assert twelve.source == "context"


@pytest.mark.parametrize(
    "context",
    [
        # another period is named: the years are not its length
        "Three months ended | 2019 | 2018\nRevenue | 150,092 | 120,011",
        " | Q3 2019 | Q3 2018\nRevenue | 150,092 | 120,011",
        # a quarter's balance beside a year's: dates of different months
        " | September 30, 2019 | December 31, 2018\nRevenue | 150,092 | 120,011",
        " | June 30, 2019 | January 1, 2019\nRevenue | 150,092 | 120,011",
        # one year is no columns of years; figures in the header are no years
        " | 2019 | Change\nRevenue | 150,092 | 3%",
        "Revenue | 150,092 | 120,011\nCost | 2019 | 2018",  # a row of data, not the header
        "Revenue in 2019 was 150,092 and in 2018 120,011.",  # no table
    ],
)
def test_twelve_months_needs_a_header_of_years_only(context: str) -> None:
    report = check_grounding("For the twelve months ended 2019, it was 150,092.", context)
    assert [f.subject for f in report.findings] == ["twelve months"]


def test_a_year_of_the_answer_is_no_operand_of_its_own_working() -> None:
    # "For the twelve months ended 2018, it was 0.01.": 12 / 2018 = 0.006 was "0.01" (a TAT-QA
    # digit perturbation that passed); 2019 - 2018 = 1 is no "1%" either
    context = "For the year ended September 30, 2018 | 2018 | 2017\nGranted | 1,500 | 800"
    report = check_grounding("For the twelve months ended 2018, it was 0.01.", context)
    assert [f.subject for f in report.findings] == ["0.01"]
    report = check_grounding("From 2017 to 2018, it rose 1%.", context)
    assert [f.subject for f in report.findings] == ["1%"]


@pytest.mark.parametrize(
    ("answer", "context", "flagged"),
    [
        # a decade is any of its years ("1960s" was 1,960 seconds: flagged against "1964", and
        # "1,960 seconds" grounded it); HaluEval's knowledge texts write 24 decades in 500
        ("He was born in the 1960s.", "He was born on 5 May 1964.", False),
        ("It was built in the late 1990s.", "Built in 1998, the bridge...", False),
        ("He was born in the mid-1960s.", "He was born in 1965.", False),
        ("The band formed in the 1960s.", "The band formed in the 1960s.", False),
        ("It was built in the 1990s.", "Built in 2005, the bridge...", True),
        ("He was born in the mid-1970s.", "He was born in 1965.", True),
    ],
)
def test_a_decade_is_any_of_its_years(answer: str, context: str, flagged: bool) -> None:
    assert bool(check_grounding(answer, context).findings) is flagged


def test_a_decade_is_no_duration() -> None:
    (q,) = parse_quantities("in the 1960s")
    assert (q.value, q.unit, q.dimension) == (1960, None, None)
    assert [q.unit for q in parse_quantities("after 1960 s and 10s")] == ["s", "s"]


@pytest.mark.parametrize(
    "answer",
    [
        # the passage numbers a RAG answer cites are no claims about the context (each was an
        # ungrounded number whenever the context held no such figure)
        "Revenue was $5 million [1].",
        "Revenue was $5 million [2][3].",
        "Revenue was $5 million [1, 3].",
        "Revenue was $5 million [1-3].",
        "Revenue was $5 million [^4].",  # a Markdown footnote
        "Revenue was $5 million^1.",
        "Revenue was $5 million 【3†source】.",
        "Revenue was $5 million (Source 2).",
        "Revenue was $5 million [Doc 3].",
        "Revenue was $5 million [source: 2].",
        "Revenue was $5 million (see passage 3).",
        "According to document 2, revenue was $5 million.",
        "Sources 1 and 3 say revenue was $5 million.",
        "In fiscal 2019 [1], revenue was $5 million.",
        # names with a number are no figures: the SEC's filings (TAT-QA's contexts cite "Form
        # 10-K" 11 times: its 10 was a figure that grounded an answer's 10), stock indexes and
        # rankings, a disease; and a Markdown heading's number
        "According to its 10-K, revenue was $5 million.",
        "Per the Form 10-Q/A, revenue was $5 million.",
        "Its S-1 shows revenue of $5 million.",
        "The S&P 500 company reported revenue of $5 million.",
        "A Fortune 500 firm, a Nasdaq-100 member, had revenue of $5 million.",
        "Due to COVID-19, revenue was $5 million.",
        "### 1. Revenue\nRevenue was $5 million.",
    ],
)
def test_citation_markers_and_names_are_no_claims(answer: str) -> None:
    report = check_grounding(answer, "Revenue was $5 million in fiscal 2019.")
    assert report.grounded, report.findings
    assert [t.quantity.text for t in report.quantities] == [
        q.text for q in parse_quantities(answer)
    ]


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("median 5 [3-7] days", [5, 3, 7]),  # an interquartile range after its figure
        ("Revenue was $6 million [1].", [6_000_000]),  # the claim is still read
        ("x^2 + 1", [2, 1]),  # an exponent, not a footnote
        ("source 25% of", [25]),  # a figure after the word, not a passage number
        ("[1,000] units", [1000]),
    ],
)
def test_what_only_looks_like_a_citation_is_read(text: str, values: list[int]) -> None:
    assert [q.value for q in parse_quantities(text)] == values


def test_a_name_is_no_figure_of_the_context_either() -> None:
    context = "See the Form 10-K for fiscal 2019. The S&P 500 rose; sales were $5 million."
    assert [f.subject for f in check_grounding("It has 10 plants.", context).findings] == ["10"]
    assert [f.subject for f in check_grounding("It has 500 staff.", context).findings] == ["500"]
    # a model's number is still its claim: the F-22 is not the F-35
    assert [f.subject for f in check_grounding("The F-22 flew.", "The F-35 flew.").findings] == [
        "F-22"
    ]


def test_a_month_and_its_year_hold_the_year() -> None:
    # TAT-QA's warrant table writes issuance dates "Jun-2018": the embedded model's "June 2018"
    # was flagged for 2018 (the month-year was an identifier whose year the context did not hold)
    context = "Issuance Date | 2019\nJun-2018 | 458,202\nAug - 2019 | 842,000"
    assert check_grounding("Warrants issued in June 2018 were 458,202.", context).grounded
    assert check_grounding("Warrants issued in Jun-2018 were 458,202.", context).grounded
    report = check_grounding("Warrants issued in June 2017 were 458,202.", context)
    assert [f.subject for f in report.findings] == ["2017"]
