"""Durations written in two units, ``h:mm:ss``, decades and centuries, a decade of life, and
Roman numerals after a label: forms a correct answer (or its context) writes that the checks
read as other figures, or not at all.

Every expected value is computed by hand from the sentence (``2 hours and 30 minutes`` is
2 x 60 + 30 = 150 minutes; ``3:05:12`` is 3 x 3,600 + 5 x 60 + 12 = 11,112 seconds)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from hybridjudge.grounding import check_grounding, normalize_text, parse_quantities


def _read(text: str) -> list[tuple[str, Fraction, str | None, str | None]]:
    return [(q.text, q.value, q.unit, q.dimension) for q in parse_quantities(text)]


def _ungrounded(answer: str, context: str) -> list[str]:
    return [f.subject or "" for f in check_grounding(answer, context).findings]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2 hours and 30 minutes", [("2 hours and 30 minutes", Fraction(150), "min", "time")]),
        ("2 h 15 min", [("2 h 15 min", Fraction(135), "min", "time")]),
        ("two hours and fifteen minutes", [("two hours and fifteen minutes", 135, "min", "time")]),
        ("1 hour 45 minutes", [("1 hour 45 minutes", Fraction(105), "min", "time")]),
        # "30m" after "2h" is minutes, not metres
        ("2h 30m", [("2h 30m", Fraction(150), "min", "time")]),
        (
            "3 hours, 5 minutes and 12 seconds",
            [("3 hours, 5 minutes and 12 seconds", 11112, "s", "time")],
        ),
        ("3 days 12 hours", [("3 days 12 hours", Fraction(84), "h", "time")]),
        ("5 years and 6 months", [("5 years and 6 months", Fraction(66), "month", "calendar")]),
        ("one year and six months", [("one year and six months", 18, "month", "calendar")]),
        ("finished in 3:05:12", [("3:05:12", Fraction(11112), "s", "time")]),
        ("a time of 2:01:09.5", [("2:01:09.5", Fraction(14539, 2), "s", "time")]),
        ("two decades", [("two decades", Fraction(2), "decade", "calendar")]),
        ("3 centuries", [("3 centuries", Fraction(3), "century", "calendar")]),
    ],
)
def test_a_duration_is_read_as_one_figure(
    text: str, expected: list[tuple[str, Fraction | int, str, str]]
) -> None:
    assert _read(text) == [(t, Fraction(v), u, d) for t, v, u, d in expected]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # not one duration: the smaller part is not less than one larger unit, the units rise,
        # or the larger figure is not whole
        ("2 hours 90 minutes", ["2 hours", "90 minutes"]),
        ("8 hours, 5 days a week", ["8 hours", "5 days"]),
        ("2.5 hours 10 minutes", ["2.5 hours", "10 minutes"]),
        ("in 2 years, 3 of them abroad", ["2 years", "3"]),
        # a time of day stays one
        ("at 10:30:00", ["10", "30", "00"]),
        ("10:30:00 am", ["10", "30", "00"]),
    ],
)
def test_what_is_no_duration_in_two_units_stays_as_it_was(text: str, expected: list[str]) -> None:
    assert [q.text for q in parse_quantities(text)] == expected


@pytest.mark.parametrize(
    ("answer", "context"),
    [
        ("The flight lasted 150 minutes.", "The flight lasted 2 hours and 30 minutes."),
        ("The flight lasted 2.5 hours.", "The flight lasted 2 hours 30 minutes."),
        ("The flight lasted 2 hours 30 minutes.", "The flight lasted 2.5 hours."),
        ("The flight lasted 2h 30m.", "The flight lasted 150 minutes."),
        ("The movie runs 1 hour 45 minutes.", "The movie runs 105 minutes."),
        ("He served 5 years and 6 months.", "He served five and a half years."),
        ("He ran the marathon in 3:05:12.", "He ran it in 3 hours, 5 minutes and 12 seconds."),
        ("The warranty lasts ten years.", "The warranty lasts a decade."),
        ("It lasted 100 years.", "It lasted a century."),
        ("It lasted 20 years.", "It lasted two decades."),
        ("Two decades later it closed.", "Twenty years later it closed."),
        ("She is in her 30s.", "She is 34."),
        ("He was in his early thirties.", "He was 31."),
        ("She is in her mid-40s.", "She is 45 years old."),
        ("The drug is in Phase 3 trials.", "The drug is in Phase III trials."),
        (
            "Patients with stage 4 cancer were excluded.",
            "Patients with Stage IV cancer were excluded.",
        ),
        ("It treats type 2 diabetes.", "It treats Type II diabetes."),
        ("See Chapter 11 of the code.", "See Chapter XI of the code."),
    ],
)
def test_the_same_figure_written_another_way_is_grounded(answer: str, context: str) -> None:
    assert _ungrounded(answer, context) == []


@pytest.mark.parametrize(
    ("answer", "context", "subject"),
    [
        (
            "The flight lasted 2 hours and 30 minutes.",
            "It lasted 3 hours.",
            "2 hours and 30 minutes",
        ),
        (
            "The flight lasted 2 hours and 30 minutes.",
            "It lasted 2 hours and 45 minutes.",
            "2 hours and 30 minutes",
        ),
        # a part of the duration is not the duration
        ("The flight lasted 2 hours.", "The flight lasted 2 hours and 30 minutes.", "2 hours"),
        (
            "He ran the marathon in 3:15:12.",
            "He ran it in 3 hours, 5 minutes and 12 seconds.",
            "3:15:12",
        ),
        ("It lasted 30 years.", "It lasted two decades.", "30 years"),
        ("It lasted two decades.", "It lasted 30 years.", "two decades"),
        ("She is in her 30s.", "She is 44.", "30s"),
        ("He was in his early thirties.", "He was 51.", "thirties"),
        ("The drug is in Phase III trials.", "The drug is in Phase 2 trials.", "III"),
        ("The drug is in Phase 2 trials.", "The drug is in Phase III trials.", "2"),
    ],
)
def test_another_duration_or_numeral_is_flagged(answer: str, context: str, subject: str) -> None:
    assert _ungrounded(answer, context) == [subject]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Phase III trials", [("III", 3)]),
        ("Stage IV cancer", [("IV", 4)]),
        ("Title IX", [("IX", 9)]),
        ("Part I and Part II", [("I", 1), ("II", 2)]),
        ("Chapter XLIV", [("XLIV", 44)]),
        # lower case is a word ("type i" may be a typo'd pronoun), and no label, no numeral
        ("a type i error", []),
        ("World War II", []),
        ("Louis XIV", []),
        ("Class A shares", []),
    ],
)
def test_a_roman_numeral_after_a_label_is_its_figure(
    text: str, expected: list[tuple[str, int]]
) -> None:
    assert [(q.text, q.value) for q in parse_quantities(text)] == [
        (t, Fraction(v)) for t, v in expected
    ]


def test_a_decade_of_life_is_no_duration_in_seconds() -> None:
    # "30s" was 30 seconds; as a decade any of 30-39 grounds it
    [q] = parse_quantities("She is in her 30s.")
    assert (q.text, q.value, q.dimension) == ("30s", Fraction(30), None)
    assert _ungrounded("She is in her 30s.", "She is 39.") == []
    assert _ungrounded("She is in her 30s.", "She is 40.") == ["30s"]
    # a duration in seconds is still one
    assert _read("It took 30s.") == [("30s", Fraction(30), "s", "time")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the second figure was lost ("c-8", "kg-10" read as identifiers) or read as negative
        ("Store refrigerated at 2°C–8°C.", [("2°C", 2, "low"), ("8°C", 8, "high")]),
        ("from 5 kg-10 kg", [("5 kg", 5, "low"), ("10 kg", 10, "high")]),
        ("rates of 3%-4%", [("3%", 3, "low"), ("4%", 4, "high")]),
        ("10 ml-20 ml", [("10 ml", 10, "low"), ("20 ml", 20, "high")]),
        # what was read before is read so still
        ("5mg-10mg", [("5mg", 5, "low"), ("10mg", 10, "high")]),
        ("grew 5%-a record", [("5%", 5, None)]),
        ("in 2020 COVID-19 hit", [("2020", 2020, None)]),
    ],
)
def test_a_range_after_a_unit_reads_both_ends(
    text: str, expected: list[tuple[str, int, str | None]]
) -> None:
    assert [(q.text, q.value, q.range_role) for q in parse_quantities(text)] == [
        (t, Fraction(v), r) for t, v, r in expected
    ]


def test_both_ends_of_a_range_after_a_unit_are_checked() -> None:
    context = "Store refrigerated at 2°C–8°C."
    assert _ungrounded("Store between 2 and 8 degrees Celsius.", context) == []
    assert _ungrounded("Store between 2 and 10 degrees Celsius.", context) == ["10 degrees Celsius"]


UNIT_APPROXIMATIONS_AND_BOUNDS: list[tuple[str, str, list[str]]] = [
    # an approximation of a figure in a unit: rounded at its last non-zero digit, within
    # 2.5% (APPROX_SHARE), as for a figure without one
    ("The speed of light is about 300,000 km/s.", "It is 299,792 km/s.", []),
    ("The Moon is about 384,000 km away.", "The distance is 384,400 km.", []),
    ("The drive takes about 2 hours.", "The drive takes 118 minutes.", []),
    ("The Moon is about 300,000 km away.", "The distance is 384,400 km.", ["300,000 km"]),
    ("The drive takes about 3 hours.", "The drive takes 118 minutes.", ["3 hours"]),
    # a bound in a unit: up to one unit of its last non-zero digit and 10% past it
    ("The route is more than 300 km long.", "The route is 312 km long.", []),
    ("The trial lasted over 3 years.", "The trial lasted 38 months.", []),
    ("The route is over 300 km long.", "The route is 400 km long.", ["300 km"]),
    ("The route is more than 400 km long.", "The route is 312 km long.", ["400 km"]),
    # never a bound the context states itself
    ("Bags under 25 kg fly free.", "Bags under 24 kg fly free.", ["25 kg"]),
    ("Bags under 25 kg fly free.", "Bags weighing 24 kg fly free.", []),
]


TIME_AND_A_HALF: list[tuple[str, str, list[str]]] = [
    (
        "Overtime is paid at 1.5 times the normal rate.",
        "Overtime is paid at time and a half.",
        [],
    ),
    ("Overtime is paid at time and a half.", "Overtime is paid at 1.5x the normal rate.", []),
    (
        "Overtime is paid at time-and-a-half.",
        "Overtime is paid at 2x the normal rate.",
        ["time-and-a-half"],
    ),
    (
        "Overtime is paid at 2 times the normal rate.",
        "Overtime is paid at time and a half.",
        ["2 times"],
    ),
]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # read apart before: "half" (1/2) and "a million" (1,000,000)
        ("half a million dollars", [("half a million dollars", 500_000, "currency-usd")]),
        ("a half million people", [("a half million", 500_000, None)]),
        ("a quarter of a million copies", [("a quarter of a million", 250_000, None)]),
        (
            "three quarters of a billion euros",
            [("three quarters of a billion euros", 750_000_000, "currency-eur")],
        ),
        ("two and a half billion", [("two and a half billion", 2_500_000_000, None)]),
        ("one-and-a-half million users", [("one-and-a-half million", 1_500_000, None)]),
        # scientific notation: 6 x 10^24 was 6, 10 and 24 kg
        ("The mass is 6 × 10^24 kg.", [("6 × 10^24 kg", 6 * 10**24, "mass")]),
        ("6×10²⁴ kg", [("6×10²⁴ kg", 6 * 10**24, "mass")]),
        ("6.022 × 10^23 atoms", [("6.022 × 10^23", Fraction(6022, 1000) * 10**23, None)]),
        ("1.5 x 10^-3 mol", [("1.5 x 10^-3 mol", Fraction(3, 2000), "amount")]),
        # no power of ten: a product, a grid
        ("a 2 x 10 grid", [("2", 2, None), ("10", 10, None)]),
        ("3 x 1024 pixels", [("3", 3, None), ("1024", 1024, None)]),
    ],
)
def test_a_share_of_a_scale_word_and_a_power_of_ten_are_one_figure(
    text: str, expected: list[tuple[str, int | Fraction, str | None]]
) -> None:
    assert [(q.text, q.value, q.dimension) for q in parse_quantities(text)] == [
        (t, Fraction(v), d) for t, v, d in expected
    ]


SHARES_OF_SCALES_AND_POWERS: list[tuple[str, str, list[str]]] = [
    ("The city has half a million residents.", "The city has 500,000 residents.", []),
    ("The city has 500,000 residents.", "The city has half a million residents.", []),
    ("It sold a quarter of a million copies.", "It sold 250,000 copies.", []),
    ("It has 1.5 million users.", "It has one and a half million users.", []),
    ("It has one and a half million users.", "It has 1.5 million users.", []),
    ("The mass is 6 × 10^24 kg.", "The mass is 6e24 kg.", []),
    ("The mass is 6e24 kg.", "The mass is 6 × 10^24 kg.", []),
    (
        "The city has half a million residents.",
        "The city has 600,000 residents.",
        ["half a million"],
    ),
    ("It has 2.5 million users.", "It has one and a half million users.", ["2.5 million"]),
    ("The mass is 6 × 10^23 kg.", "The mass is 6e24 kg.", ["6 × 10^23 kg"]),
    # a share of a percent ("half" was read as 1/2, no percentage)
    ("Inflation was 0.5%.", "Inflation was half a percent.", []),
    ("Rates rose 25 basis points.", "Rates rose by a quarter of a percentage point.", []),
    ("Inflation was 1.5%.", "Inflation was half a percent.", ["1.5%"]),
    ("Inflation was half a percent.", "Inflation was 1.5%.", ["half a percent"]),
]


DECADES_AS_YEARS: list[tuple[str, str, list[str]]] = [
    # a decade in two digits or words is also the years so numbered (it was 80 seconds,
    # or unread)
    ("The band was popular in the 80s.", "The band had hits in 1984 and 1986.", []),
    ("The band was popular in the '80s.", "The band had hits in 1984 and 1986.", []),
    ("The band was popular in the eighties.", "The band had hits in 1984 and 1986.", []),
    ("The band was popular in the 70s.", "The band had hits in 1984 and 1986.", ["70s"]),
    # "the 1900s" stays a decade: as a century, any year of a biography would ground a
    # wrong birth year (HaluEval: born 1889, "born in the 1900s", died 1964)
    ("He was born in the 1900s.", "Nehru (14 November 1889 – 27 May 1964).", ["1900s"]),
]


UNIT_ROUNDING: list[tuple[str, str, list[str]]] = [
    # a figure in a unit rounds as one without: at the precision written, in the base unit
    ("The bridge is 2.7 km long.", "The bridge is 2,737 m long.", []),
    ("It weighs 1.5 kg.", "It weighs 1,480 g.", []),
    ("The flight takes 2.5 hours.", "The flight takes 148 minutes.", []),
    ("The marathon is 42.2 km.", "The marathon is 42.195 km.", []),
    ("The bridge is 2.8 km long.", "The bridge is 2,737 m long.", ["2.8 km"]),
    ("It weighs 1.4 kg.", "It weighs 1,480 g.", ["1.4 kg"]),
    ("The marathon is 42.5 km.", "The marathon is 42.195 km.", ["42.5 km"]),
    # one significant digit is no rounding (as "5" is not 5.4)
    ("The bridge is 3 km long.", "The bridge is 2,737 m long.", ["3 km"]),
]


OTHER_LANGUAGES: list[tuple[str, str, list[str]]] = [
    # a duration in two units and an approximation in German, French, Spanish (each part, and
    # the figure after "environ" or "etwa", was flagged)
    ("Der Flug dauert 2 Stunden und 30 Minuten.", "Der Flug dauert 150 Minuten.", []),
    ("Le vol dure 2 heures et 30 minutes.", "Le vol dure 150 minutes.", []),
    ("El vuelo dura 2 horas y 30 minutos.", "El vuelo dura 150 minutos.", []),
    ("The flight lasts 150 minutes.", "Der Flug dauert 2 Stunden und 30 Minuten.", []),
    (
        "Der Flug dauert 2 Stunden und 45 Minuten.",
        "Der Flug dauert 150 Minuten.",
        ["2 Stunden und 45 Minuten"],
    ),
    ("Le site compte environ 1 200 employés.", "Le site compte 1 204 employés.", []),
    ("Die Firma hat etwa 1.200 Mitarbeiter.", "Die Firma hat 1.204 Mitarbeiter.", []),
    ("La empresa tiene aproximadamente 1.200 empleados.", "La empresa tiene 1.204 empleados.", []),
    ("Le site compte environ 1 300 employés.", "Le site compte 1 204 employés.", ["1 300"]),
    # Chinese: a unit of time followed by a figure kept neither its unit nor the duration
    ("飞行时间为2小时30分钟。", "飞行时间为150分钟。", []),
    ("The flight takes 2.5 hours.", "飞行时间为2小时30分钟。", []),
    ("飞行时间为2小时45分钟。", "飞行时间为150分钟。", ["2小时45分钟"]),
    # four digits after 万 are its thousands: "5万3000" is 53,000 (it was 5 and 3,000, then
    # 50,000 and 3,000)
    ("价格为53,000元。", "价格为5万3000元。", []),
    ("价格为5万3000元。", "价格为53,000元。", []),
    ("价格为5万3000元。", "价格为50,000元。", ["5万3000元"]),
]
READINGS: dict[str, list[tuple[str, str, list[str]]]] = {
    "other-languages": OTHER_LANGUAGES,
    "unit-bound": UNIT_APPROXIMATIONS_AND_BOUNDS,
    "time-and-a-half": TIME_AND_A_HALF,
    "scale-share-power": SHARES_OF_SCALES_AND_POWERS,
    "decade-years": DECADES_AS_YEARS,
    "unit-rounding": UNIT_ROUNDING,
}
"""Cases by reading: an answer, its context, and the answer's figures that must be flagged."""


@pytest.mark.parametrize(
    ("answer", "context", "subjects"),
    [
        pytest.param(*c, id=f"{topic}-{i}")
        for topic, cases in READINGS.items()
        for i, c in enumerate(cases)
    ],
)
def test_each_reading_grounds_its_own_figure_and_flags_another(
    answer: str, context: str, subjects: list[str]
) -> None:
    """The ungrounded figures of each answer: none where the context states the same figure
    another way, the changed figure where it does not."""
    assert _ungrounded(answer, context) == subjects


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        # each command as what it writes, a part of a fraction in brackets only if it holds
        # an operator ("(5.0)" alone would be an accounting negative)
        (r"$$\frac{5.5 - 5.0}{5.0} \times 100 = 10\%$$", " (5.5 - 5.0)÷5.0 × 100 = 10% "),
        (r"\( 5.5 \div 5.0 = 1.1 \)", "  5.5 ÷ 5.0 = 1.1  "),
        (r"The total is \$5.2 million.", "the total is $5.2 million."),
        (r"\text{Margin} = \frac{3.0}{5.0}", "margin = 3.0÷5.0"),
        (r"\frac{a}{b + c}", "a÷(b + c)"),
        # the sign before an escaped dollar stays with the figure, a scale word in \text{}
        # with its figure
        (r"302 - 148 = -\$154 million", "302 - 148 = -$154 million"),
        (r"\$5.5 \text{ million}", "$5.5 million"),
        # an unclosed group stays as written
        (r"x \frac{1}{2", r"x \frac{1}{2"),
    ],
)
def test_latex_working_is_read_plainly(text: str, plain: str) -> None:
    assert normalize_text(text) == plain


def test_a_figure_in_latex_keeps_its_place_in_the_answer() -> None:
    answer = r"\[ \frac{\$5.5 \text{ million} - 5.0}{5.0} \times 100 = 10\% \]"
    assert [(q.text, q.value) for q in parse_quantities(answer)] == [
        (r"$5.5 \text{ million", Fraction(5_500_000)),
        ("5.0", Fraction(5)),
        ("5.0", Fraction(5)),
        ("100", Fraction(100)),
        (r"10\%", Fraction(10)),
    ]


@pytest.mark.parametrize(
    ("answer", "subjects"),
    [
        # the working's figures were flagged ("$$\frac{5.5" read as dollars, "10\%" as 10)
        (r"Growth: $$\frac{5.5 - 5.0}{5.0} \times 100 = 10\%$$", []),
        (r"\[ \frac{5.5 - 5.0}{5.0} \times 100 = 10\% \]", []),
        # the result must still follow from the working
        (r"\[ \frac{5.5 - 5.0}{5.0} \times 100 = 12\% \]", [r"12\%"]),
        (r"\[ \frac{5.5 - 5.2}{5.0} \times 100 = 10\% \]", ["5.2"]),
        (r"\[ \$5.5 \text{ million} - \$5.0 \text{ million} = \$0.5 \text{ million} \]", []),
        (
            r"\[ \$5.5 \text{ million} - \$5.0 \text{ million} = -\$0.5 \text{ million} \]",
            [r"-\$0.5 \text{ million"],
        ),
    ],
)
def test_an_answer_in_latex_is_checked_as_plain_working(answer: str, subjects: list[str]) -> None:
    context = "Revenue was $5.0 million in 2018 and $5.5 million in 2019."
    assert _ungrounded(answer, context) == subjects


@pytest.mark.parametrize(
    ("answer", "subjects"),
    [
        # a page an answer cites is a place in a source, no figure ("14" and "12" were flagged)
        ("Revenue was $5.5 million [Doc 2, p. 14].", []),
        ("Revenue was $5.5 million (see page 12).", []),
        ("Revenue was $5.5 million (pp. 12-14).", []),
        # a numbered list whose items open in bold ("2." was flagged)
        ("1. **2019:** $5.5 million\n2. **2018:** $5.0 million", []),
        # what is no page citation or list number is still checked
        ("The report has 12 pages; revenue was $5.5 million.", ["12"]),
        ("Revenue was $5.7 million [Doc 2, p. 14].", ["$5.7 million"]),
        ("1. **2019:** $5.7 million\n2. **2018:** $5.0 million", ["$5.7 million"]),
    ],
)
def test_page_citations_and_bold_list_numbers_are_no_claims(
    answer: str, subjects: list[str]
) -> None:
    context = "Revenue was $5.0 million in 2018 and $5.5 million in 2019."
    assert _ungrounded(answer, context) == subjects


def test_a_cjk_unit_before_a_figure_keeps_its_figure() -> None:
    # "2小时" lost its unit when a digit followed (no space separates them in Chinese); a
    # year "2024年" before its month stays a year, as a date of CJK characters needs it (the
    # month itself is a month's name, no figure: month_suffixes, test_period_names.py)
    assert _read("2小时30分钟") == [("2小时30分钟", Fraction(150), "min", "time")]
    assert _read("3天12小时") == [("3天12小时", Fraction(84), "h", "time")]
    assert [(q.text, q.value) for q in parse_quantities("2024年3月")] == [
        ("2024", Fraction(2024)),
    ]
    assert [q.kind for q in parse_quantities("2024年3月5日")] == ["date"]


def test_a_page_label_is_a_word_of_its_own() -> None:
    # "p." ends no other word: a sentence's last word, a month
    assert [q.text for q in parse_quantities("in the group. 14 members left")] == ["14"]
    assert [q.text for q in parse_quantities("on Sep. 14 they met")] == ["Sep. 14"]
    assert [q.text for q in parse_quantities("see page 12; p. 14; pp. 3-5")] == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # "two dozen" was 2 and "half a dozen" 0.5; "a dozen" was no figure
        ("a dozen eggs", [("a dozen", 12)]),
        ("two dozen roses", [("two dozen", 24)]),
        ("half a dozen eggs", [("half a dozen", 6)]),
        ("three dozen and four", [("three dozen and four", 40)]),
        # no count of twelves: a plural, a lone word
        ("dozens of eggs", []),
        ("the dozen", []),
    ],
)
def test_a_dozen_is_twelve(text: str, expected: list[tuple[str, int]]) -> None:
    assert [(q.text, q.value) for q in parse_quantities(text)] == expected


@pytest.mark.parametrize(
    ("answer", "context", "ungrounded"),
    [
        ("The company operates in 12 countries.", "It operates in a dozen countries.", []),
        ("We sold two dozen eggs.", "We sold 24 eggs.", []),
        ("We sold 6 eggs.", "We sold half a dozen eggs.", []),
        ("We sold 25 eggs.", "We sold two dozen eggs.", ["25"]),
        ("We sold three dozen eggs.", "We sold 24 eggs.", ["three dozen"]),
    ],
)
def test_dozens_ground_and_are_grounded(answer: str, context: str, ungrounded: list[str]) -> None:
    report = check_grounding(answer, context)
    assert [t.quantity.text for t in report.quantities if t.source is None] == ungrounded


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the sign in words was lost: "minus 20" was 20
        ("Store at minus 20 °C.", [("minus 20 °C", -20)]),
        ("It was minus five degrees.", [("minus five degrees", -5)]),
        ("The fund returned negative 3% last year.", [("negative 3%", -3)]),
        ("The result is minus 3.", [("minus 3", -3)]),
        # an operator, not a sign
        ("5 minus 3 equals 2", [("5", 5), ("3", 3), ("2", 2)]),
        ("10% minus 3%", [("10%", 10), ("3%", 3)]),
        ("a tolerance of plus or minus 2%", [("2%", 2)]),
    ],
)
def test_minus_and_negative_before_a_figure_are_its_sign(
    text: str, expected: list[tuple[str, int]]
) -> None:
    assert [(q.text, q.value) for q in parse_quantities(text)] == expected


@pytest.mark.parametrize(
    ("answer", "context", "ungrounded"),
    [
        ("Store it at -20°C.", "Store at minus 20 degrees Celsius.", []),
        ("Store it at minus 20 degrees Celsius.", "Store at -20°C.", []),
        ("Store it at 20°C.", "Store at minus 20 degrees Celsius.", ["20°C"]),
    ],
)
def test_a_sign_in_words_grounds_and_is_grounded(
    answer: str, context: str, ungrounded: list[str]
) -> None:
    report = check_grounding(answer, context)
    assert [t.quantity.text for t in report.quantities if t.source is None] == ungrounded
