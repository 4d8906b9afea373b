"""The quantity parser: golden values (hand-computed) and Hypothesis properties."""

from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hybridjudge.grounding import GroundingTypeError, check_grounding, parse_quantities

# --- golden values: each expected value is computed by hand from the text -------------------

GOLDEN: list[tuple[str, list[tuple[Fraction, str | None, str | None]]]] = [
    # (text, [(value as written, unit, dimension), ...])
    ("1,000", [(Fraction(1000), None, None)]),
    ("1,234,567.5", [(Fraction(2469135, 2), None, None)]),
    ("3.0 and 0.50", [(Fraction(3), None, None), (Fraction(1, 2), None, None)]),
    ("−5 and -2.5", [(Fraction(-5), None, None), (Fraction(-5, 2), None, None)]),
    ("15%", [(Fraction(15), "%", "percent")]),
    ("15 percent", [(Fraction(15), "%", "percent")]),
    ("15 per cent", [(Fraction(15), "%", "percent")]),
    ("1/2", [(Fraction(1, 2), None, None)]),
    ("½", [(Fraction(1, 2), None, None)]),
    ("1½ tablets", [(Fraction(3, 2), None, None)]),
    ("half", [(Fraction(1, 2), None, None)]),
    ("twenty-five", [(Fraction(25), None, None)]),
    ("one hundred and five", [(Fraction(105), None, None)]),
    ("three million four hundred thousand", [(Fraction(3_400_000), None, None)]),
    ("a thousand", [(Fraction(1000), None, None)]),
    ("one and a half hours", [(Fraction(3, 2), "h", "time")]),
    ("twice", [(Fraction(2), None, None)]),
    ("thrice", [(Fraction(3), None, None)]),
    ("once a day", [(Fraction(1), None, None)]),
    ("2.5 million", [(Fraction(2_500_000), None, None)]),
    ("500 mg", [(Fraction(500), "mg", "mass")]),
    ("500mg", [(Fraction(500), "mg", "mass")]),
    ("100 µg", [(Fraction(100), "mcg", "mass")]),
    ("100 μg", [(Fraction(100), "mcg", "mass")]),
    ("100 micrograms", [(Fraction(100), "mcg", "mass")]),
    ("5 mL", [(Fraction(5), "ml", "volume")]),
    ("2 L", [(Fraction(2), "l", "volume")]),
    ("30-day", [(Fraction(30), "day", "time")]),
    ("thirty days", [(Fraction(30), "day", "time")]),
    ("ninety (90) days", [(Fraction(90), "day", "time")]),
    ("9.8 g/dL", [(Fraction(49, 5), "g/dl", "mass/volume")]),
    ("38°C", [(Fraction(38), "°c", "temp_c")]),
    ("$499", [(Fraction(499), "usd", "currency-usd")]),
]


@pytest.mark.parametrize(("text", "expected"), GOLDEN, ids=[t for t, _ in GOLDEN])
def test_golden_values(text: str, expected: list[tuple[Fraction, str | None, str | None]]) -> None:
    got = [(q.value, q.unit, q.dimension) for q in parse_quantities(text)]
    assert got == expected


# Exact conversions inside a dimension; each pair is equal by definition of the SI prefixes /
# clock units, computed by hand.
EQUAL = [
    ("500 mg", "0.5 g"),
    ("0.5 g", "500000 mcg"),
    ("2 kg", "2000 g"),
    ("250 mL", "0.25 L"),
    ("15 mm", "1.5 cm"),
    ("150 cm", "1.5 m"),
    ("90 s", "1.5 min"),
    ("90 minutes", "1.5 hours"),
    ("2 weeks", "14 days"),
    ("48 h", "2 days"),
    # US customary units by their exact definitions (1 lb = 0.45359237 kg, 1 ft = 12 in =
    # 0.3048 m, 1 yd = 3 ft, 1 mi = 1,760 yd, 1 lb = 16 oz, 1 gal = 128 fl oz = 3.785411784 L)
    ("16 oz", "1 lb"),
    ("1 lb", "453.59237 g"),
    ("12 inches", "1 ft"),
    ("3 ft", "1 yard"),
    ("1 mile", "1,760 yards"),
    ("1 mile", "1.609344 km"),
    ("1 gallon", "128 fl oz"),
    ("1 gal", "3.785411784 L"),
    # hundredths of a currency: 45 cents = $0.45, 45 pence = £0.45
    ("45 cents", "$0.45"),
    ("45¢", "$0.45"),
    ("45 pence", "£0.45"),
    # pence written as UK reports write them, glued (the lexicons' glued_units: "p")
    ("45p", "£0.45"),
    ("12.5p", "12.5 pence"),
]


@pytest.mark.parametrize(("a", "b"), EQUAL)
def test_conversions_are_exact(a: str, b: str) -> None:
    (qa,) = parse_quantities(a)
    (qb,) = parse_quantities(b)
    assert qa.key == qb.key


@pytest.mark.parametrize(
    ("answer", "context", "flagged"),
    [
        # exact conversions, by hand: 38 x 9/5 + 32 = 100.4; 37 x 9/5 + 32 = 98.6
        ("A fever is above 100.4°F.", "Fever: a temperature of 38 °C or higher.", False),
        ("A fever is 38°C or more.", "Fever: a temperature of 100.4 °F or higher.", False),
        ("Normal is 98.6 °F.", "Normal body temperature is 37 °C.", False),
        # 38 °C is 100.4 °F, not 101 °F; no rounding across scales
        ("A fever is 101°F.", "Fever: a temperature of 38 °C or higher.", True),
    ],
)
def test_a_temperature_converts_exactly_between_scales(
    answer: str, context: str, flagged: bool
) -> None:
    assert bool(check_grounding(answer, context).findings) is flagged


@pytest.mark.parametrize(
    ("answer", "context", "flagged"),
    [
        # one unit written with an article in the context: a week is 7 days, an hour 60 minutes
        ("Refunds take 7 days.", "Refunds are processed within a week.", False),
        ("It takes 60 minutes.", "It takes an hour.", False),
        ("Within 14 days.", "Within a fortnight.", False),
        ("Symptoms last 7-10 days.", "Symptoms resolve within a week to 10 days.", False),
        ("Refunds take 10 days.", "Refunds are processed within a week.", True),
        # after a count it is a frequency, not a duration of one day
        ("Take it for 1 day.", "Take it twice a day for 5 days.", True),
    ],
)
def test_a_duration_of_one_unit_in_words_is_read(answer: str, context: str, flagged: bool) -> None:
    assert bool(check_grounding(answer, context).findings) is flagged


def test_a_unit_error_in_us_units_is_a_finding() -> None:
    # "5 miles" was read as a bare 5, which matched "5 km"
    assert check_grounding("The trail is 5 miles long.", "The trail is 5 km long.").findings
    assert check_grounding("It weighs 5 lbs.", "It weighs 5 kg.").findings
    assert check_grounding("It weighs 5 lbs.", "It weighs 5 lb.").grounded
    assert check_grounding("A 6-foot fence.", "The fence is 6 ft high.").grounded
    assert check_grounding("EPS came in at $0.46.", "EPS was 45 cents.").findings
    assert check_grounding("The rate is 5 per cent.", "The rate is 5%.").grounded  # no cents
    # "in" (a preposition) and "pound(s)" (a currency too) stay no unit
    assert [q.unit for q in parse_quantities("5 in total, 5 pounds")] == [None, None]


@pytest.mark.parametrize("layout", ["prose", "table"])
def test_pence_glued_to_their_figure(layout: str) -> None:
    # "12.5p" was read as nothing: "12.5 pence" and "£0.125" were flagged against it
    context = (
        "Basic earnings per share were 45.2p (2022: 41.0p) and the dividend was 12.5p "
        "(2022: 11.0p)."
        if layout == "prose"
        else "| | 2023 | 2022 |\n| Basic earnings per share | 45.2p | 41.0p |\n"
        "| Dividend per share | 12.5p | 11.0p |\n"
    )
    for answer in ("The dividend was 12.5 pence.", "The dividend was £0.125.", "EPS was 45.2p."):
        assert check_grounding(answer, context).grounded, answer
    assert check_grounding("EPS rose 4.2p.", context).grounded  # 45.2 - 41.0
    for answer in ("The dividend was 13.5p.", "The dividend was £12.5.", "EPS rose 4.3p."):
        assert not check_grounding(answer, context).grounded, answer


def test_a_p_apart_from_its_figure_is_no_pence() -> None:
    assert [(q.value, q.unit) for q in parse_quantities("Row 5 p 6")] == [(5, None), (6, None)]
    assert [q.unit for q in parse_quantities("at 2 p.m.")] == ["time"]


def test_different_dimensions_never_equal() -> None:
    (mass,) = parse_quantities("500 mg")
    (volume,) = parse_quantities("500 mL")
    assert mass.dimension != volume.dimension


@pytest.mark.parametrize(
    "text", ["2024-01-05", "5 January 2024", "Jan 5, 2024", "January 5th, 2024", "5th of Jan 2024"]
)
def test_dates_in_common_formats(text: str) -> None:
    (q,) = parse_quantities(text)
    assert (q.kind, q.value) == ("date", Fraction(20240105))


@pytest.mark.parametrize(
    ("text", "minutes"),
    [
        ("8:00 am", 480),
        ("8 am", 480),
        ("08:00", 480),
        ("12 pm", 720),
        ("12 am", 0),
        ("6:30 p.m.", 1110),
    ],
)
def test_clock_times(text: str, minutes: int) -> None:
    (q,) = parse_quantities(text)
    assert (q.kind, q.value) == ("time", Fraction(minutes))


@pytest.mark.parametrize("sep", ["-", "–", " to ", " - "])
def test_ranges_have_two_ends_with_the_shared_unit(sep: str) -> None:
    low, high = parse_quantities(f"6{sep}8 weeks")
    assert (low.value, low.unit, low.range_role) == (Fraction(6), "week", "low")
    assert (high.value, high.unit, high.range_role) == (Fraction(8), "week", "high")


@pytest.mark.parametrize(
    ("text", "low"),
    [
        ("between 5 and 7 million", 5_000_000),
        ("$5-7 billion", 5_000_000_000),
        ("5 to 7.5 million", 5_000_000),
        ("0.5 to 1.2 billion", 500_000_000),
        # the low end scaled would be more than ten times the high end: it keeps its own value
        ("from 500 to 7 million", 500),
    ],
)
def test_a_range_shares_its_high_ends_scale(text: str, low: int) -> None:
    first, second = parse_quantities(text)
    assert (first.value, first.range_role, second.range_role) == (Fraction(low), "low", "high")


@pytest.mark.parametrize(
    "text",
    [
        "zwischen 5 und 7 Millionen",
        "5 bis 7 Millionen",
        "entre 5 et 7 millions",
        "de 5 à 7 millions",
        "entre 5 y 7 millones",
        "de 5 a 7 millones",
        "tra 5 e 7 milioni",
        "entre 5 e 7 milhões",
        "tussen 5 en 7 miljoen",
        "5 tot 7 miljoen",
        "5至7亿",  # 亿, 億, 억: a hundred million
        "5〜7億",
        "5～7億",  # a full-width tilde, "~" once normalised
        "5~7억",
    ],
)
def test_ranges_in_the_lexicons_words(text: str) -> None:
    # the lexicons' range_words and range_pairs: 5 to 7 of the scale in each
    scale = 100_000_000 if text[-1] in "亿億억" else 1_000_000
    low, high = parse_quantities(text)
    assert (low.value, low.range_role) == (Fraction(5 * scale), "low")
    assert (high.value, high.range_role) == (Fraction(7 * scale), "high")


@pytest.mark.parametrize(
    "text", ["5 and 7 million", "5 und 7 Millionen", "5 et 7 millions", "5 a 7 millones"]
)
def test_a_word_of_a_pair_joins_no_range_without_its_opener(text: str) -> None:
    low, high = parse_quantities(text)
    assert (low.value, low.range_role, high.range_role) == (Fraction(5), None, None)


@pytest.mark.parametrize(
    "text",
    [
        "1. Rest\n2. Ice",
        "  2) Ice",
        "(3) Elevate",
        "Options: (1) rest, (2) ice",
        "- 4. Compress",
        "COVID-19",
        "ISO 9001",
        "vitamin B12 and H2O",
        "the 3rd dose",
        "one of them",
        "once you feel better",
        "on behalf of",
    ],
)
def test_not_quantities(text: str) -> None:
    assert parse_quantities(text) == []


def test_spans_point_into_the_original_text() -> None:
    text = "Nimm ½ Tablette – ﬁve? No: 5 ＭＧ (Ｆｕｌｌ-width)."
    for q in parse_quantities(text):
        a, b = q.span
        assert text[a:b] == q.text
    assert [q.text for q in parse_quantities(text)] == ["½", "ﬁve", "5 ＭＧ"]


@pytest.mark.parametrize("text", [b"5 mg", None, ["5 mg"]])
def test_wrong_type_is_a_typed_error_naming_the_argument(text: object) -> None:
    with pytest.raises(GroundingTypeError, match="needs the text as a str") as caught:
        parse_quantities(text)  # type: ignore[arg-type]
    assert caught.value.argument == "text"
    assert isinstance(caught.value, TypeError)  # still a TypeError for callers that catch it


# --- properties ------------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_never_crashes_and_spans_are_consistent(text: str) -> None:
    for q in parse_quantities(text):
        a, b = q.span
        assert 0 <= a < b <= len(text)
        assert q.text == text[a:b]
        assert q.kind in ("number", "date", "time")


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=50), st.integers(1, 6))
def test_huge_strings_do_not_crash(chunk: str, exp: int) -> None:
    text = chunk * (2**exp * 100)
    for q in parse_quantities(text):
        assert 0 <= q.span[0] < q.span[1] <= len(text)


def test_very_large_random_unicode_string() -> None:
    rng = random.Random(20261130)
    alphabet = "0123456789 ,.-–/%½µ°$abcdefghijklmnopqrstuvwxyzé中文ไทย\n()"
    text = "".join(rng.choice(alphabet) for _ in range(300_000))
    quantities = parse_quantities(text)
    assert all(text[q.span[0] : q.span[1]] == q.text for q in quantities)
    long_digits = "9" * 10_000  # longer than Python's int-parsing limit
    assert parse_quantities(long_digits) == []


@settings(max_examples=200, deadline=None)
@given(
    st.decimals(min_value=Decimal("-1e12"), max_value=Decimal("1e12"), places=3, allow_nan=False)
)
def test_thousands_separated_decimal_round_trip(value: Decimal) -> None:
    text = f"the value is {value:,f} today"
    (q,) = parse_quantities(text)
    assert q.value == Fraction(value)


_ONES = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def _words(n: int) -> str:
    """An independent, textbook English spelling of ``n`` (0 <= n < 10**9)."""
    if n < 20:
        return _ONES[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens - 2] + (f"-{_ONES[ones]}" if ones else "")
    if n < 1000:
        hundreds, rest = divmod(n, 100)
        return f"{_ONES[hundreds]} hundred" + (f" and {_words(rest)}" if rest else "")
    for scale, name in ((10**6, "million"), (1000, "thousand")):
        if n >= scale:
            high, rest = divmod(n, scale)
            tail = ""
            if rest:
                tail = f" and {_words(rest)}" if rest < 100 else f" {_words(rest)}"
            return f"{_words(high)} {name}{tail}"
    raise AssertionError(n)  # pragma: no cover


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=999_999_999).filter(lambda n: n != 1))
def test_number_words_round_trip(n: int) -> None:
    (q,) = parse_quantities(f"about {_words(n)} people")
    assert q.value == n


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=1, max_value=10**7), st.sampled_from(["mg", "mL", "mm"]))
def test_milli_units_round_trip_through_the_base_unit(n: int, unit: str) -> None:
    base = {"mg": "g", "mL": "L", "mm": "m"}[unit]
    as_base = Decimal(n) / 1000
    (milli,) = parse_quantities(f"{n} {unit}")
    (whole,) = parse_quantities(f"{as_base:f} {base}")
    assert milli.key == whole.key


@settings(max_examples=100, deadline=None)
@given(st.dates(min_value=dt.date(1900, 1, 1), max_value=dt.date(2099, 12, 31)))
def test_date_formats_round_trip(day: dt.date) -> None:
    formats = [
        day.isoformat(),
        f"{day.day} {day:%B} {day.year}",
        f"{day:%b} {day.day}, {day.year}",
        f"{day:%B} {day.day} {day.year}",
    ]
    values = {parse_quantities(f"on {text}.")[0].value for text in formats}
    assert values == {Fraction(day.year * 10000 + day.month * 100 + day.day)}


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 23), st.integers(0, 59))
def test_clock_time_round_trip(hour: int, minute: int) -> None:
    twelve = f"{(hour % 12) or 12}:{minute:02d} {'am' if hour < 12 else 'pm'}"
    (a,) = parse_quantities(f"at {hour:02d}:{minute:02d}")
    (b,) = parse_quantities(f"at {twelve}")
    assert a.value == b.value == hour * 60 + minute


def test_lone_surrogates_do_not_break_parsing() -> None:
    # e.g. text decoded with errors="surrogateescape"
    quantities = parse_quantities("take 5 mg \udc80 then ½ \ud800")
    assert [(q.text, q.value) for q in quantities] == [("5 mg", 5), ("½", Fraction(1, 2))]


# A figure of more than 80 characters was dropped unread, so a fabricated one passed: "It costs
# 1 followed by 72 zeros dollars" against "It costs 5 dollars" was grounded (by hand: its digits
# appear nowhere in the context).
_HUGE = "1" + "0" * 72


@pytest.mark.parametrize(
    ("answer", "context", "grounded"),
    [
        (f"It costs {_HUGE} dollars.", "It costs 5 dollars.", False),
        (f"It costs {_HUGE} dollars.", f"The price is {_HUGE} dollars.", True),
        # the same digits written with thousands separators are the same figure
        ("Account 1," + ",".join(["000"] * 30) + ".", "Account 1" + "0" * 90 + ".", True),
        ("Account 1," + ",".join(["000"] * 30) + ".", "Account 1" + "0" * 89 + ".", False),
        # a model's runaway digits, beyond what int() reads at once, are still a finding
        ("The code is " + "9" * 5000 + ".", "The code is 42.", False),
        ("The code is " + "9" * 5000 + ".", "The code is " + "9" * 5000 + ".", True),
    ],
)
def test_an_overlong_figure_is_checked_not_dropped(
    answer: str, context: str, grounded: bool
) -> None:
    report = check_grounding(answer, [context])
    assert report.grounded is grounded
    if not grounded:
        (finding,) = report.findings
        assert finding.kind == "ungrounded_number"


@pytest.mark.parametrize(
    ("answer", "context", "grounded"),
    [
        # an international unit is the enzyme or hormone unit U (a TSH of 8.2 mIU/L is the
        # 8.2 mU/L of OpenGATE's thyroid letter; it was a finding)
        ("Your TSH was 8.2 mIU/L.", "Your TSH result was 8.2 mU/L.", True),
        ("Give 5 IU/mL.", "Give 5 U/mL.", True),
        ("Your TSH was 8.2 mIU/L.", "Your TSH result was 8.2 mg/L.", False),
        ("Give 5 IU/mL.", "Give 5 U/L.", False),
    ],
)
def test_an_international_unit_is_the_unit_u(answer: str, context: str, grounded: bool) -> None:
    assert check_grounding(answer, context).grounded is grounded


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # a figure right after an abbreviation's dot is read (it was nothing, so a wrong one
        # passed: "No.6" against "No. 5")
        ("See Policy No.5.", [5]),
        ("approx.5 kg", [5]),
        ("Fig.3 shows", [3]),
        # and still not the decimals of a figure, nor a version's parts
        ("3.14", [Fraction(314, 100)]),
        ("version 1.2.3", []),
    ],
)
def test_a_figure_after_an_abbreviations_dot_is_read(text: str, values: list[Fraction]) -> None:
    assert [q.value for q in parse_quantities(text)] == values


def test_a_wrong_figure_after_an_abbreviation_is_a_finding() -> None:
    context = "See Policy No. 5 for details; the dose is approx. 5 kg."
    assert [f.subject for f in check_grounding("See Policy No.6.", context).findings] == ["6"]
    assert check_grounding("See Policy No.5.", context).grounded
