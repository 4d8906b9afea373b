"""Operations an answer states in words the checks did not read as one (a third probe's tuning
half and the first probe; every value worked out by hand).

- A comparative after a measure or a percentage states a difference or a change: ``125 km
  longer``, ``40.3% longer`` (435 km against 310 km); the lexicons' ``derivation`` words
  (``asks_difference``, ``rises_after``, ``falls_after``).
- A phrasal verb ending in ``up`` or ``down`` states no change: ``made up about 43% of total
  net sales`` is a share, not a rise of 43% (``derivation.not_changes``).
- A percentage among the answer's own operands is a fraction in a product or a quotient:
  ``$3,850 (1.0% of $385,000)``, ``€38.00`` for ``€11.40`` at a ``30%`` target.
- A share of a whole the answer writes first: ``1 130 étudiants ..., dont 742 ..., soit environ
  66 %``.
- A change written from one figure to another in other languages than English (``van ...
  naar``, ``von ... auf``, ``da ... a``): its percent change is relative to the first
  (``derivation.change_from``, ``change_to``), and the hedge between a decrease word and its
  figure is one list for both readings (``een daling van ongeveer 54 %``:
  ``derivation.change_hedges``).
"""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding

ROUTES = "Route A is 310 km and route B is 435 km."
SALES = (
    "Net sales in the Americas segment were $169.7 billion in fiscal 2024, compared with "
    "$162.6 billion in fiscal 2023. Greater China net sales declined 8% to $66.9 billion."
)
MORTGAGE = "Loan amount: $385,000. Origination fee: 1.0% of the loan amount. Term: 30 years."
DISH = "Plated cost per portion: €11.40. Target food cost: 30% of the menu price before VAT."
ENROLMENT = (
    "<table><tr><th>Formation</th><th>Vœux</th><th>Inscrits</th></tr><tr><td>Licence Droit</td>"
    "<td>12 480</td><td>742</td></tr><tr><td>Licence Psychologie</td><td>9 315</td><td>388</td>"
    "</tr><tr><td>Total</td><td>21 795</td><td>1 130</td></tr></table>"
)
CLUB = (
    "Staat van baten en lasten (x € 1.000)\n\n| Post | 2023/24 | 2022/23 |\n|---|---|---|\n"
    "| Transferresultaat | 6.480 | 14.210 |\n| Mediarechten | 9.120 | 8.455 |"
)


def _derived(answer: str, context: str) -> list[tuple[str, str | None]]:
    report = check_grounding(answer, context)
    assert report.grounded, [f.message for f in report.findings]
    return [(t.quantity.text, t.rule) for t in report.quantities if t.source == "derived"]


@pytest.mark.parametrize(
    ("answer", "context", "derived"),
    [
        ("Route B is 125 km longer.", ROUTES, ("125 km", "difference")),
        ("Route B is 40.3% longer than route A.", ROUTES, ("40.3%", "percent_change")),
        (
            "The origination fee is $3,850 (1.0% of $385,000).",
            MORTGAGE,
            ("$3,850", "shown_working"),  # its own working: a percentage of a figure
        ),
        (
            "To hit the 30% target at €11.40 per portion, the menu price would be €38.00.",
            DISH,
            ("€38.00", "ratio"),
        ),
        (
            "Au total, 1 130 étudiants se sont inscrits, dont 742 en droit, soit environ 66 %.",
            ENROLMENT,
            ("66 %", "ratio"),
        ),
        (
            "Het transferresultaat daalde van € 14,2 miljoen naar € 6,5 miljoen, een daling "
            "van ongeveer 54 %.",
            CLUB,
            ("54 %", "percent_change"),
        ),
    ],
)
def test_an_operation_stated_in_words_is_derived(
    answer: str, context: str, derived: tuple[str, str]
) -> None:
    assert derived in _derived(answer, context)


@pytest.mark.parametrize(
    ("answer", "context"),
    [
        ("Route B is 135 km longer.", ROUTES),  # 125
        ("Route B is 41.3% longer.", ROUTES),  # 40.3
        ("The origination fee is $3,580 (1.0% of $385,000).", MORTGAGE),  # 3,850
        ("At the 30% target the menu price would be €34.20 (€11.40 / 30%).", DISH),  # 38.00
        ("Sur 1 130 inscrits, 742 en droit, soit environ 62 %.", ENROLMENT),  # 66
        # a fall of 54%, relative to the first figure; 118% is relative to the second
        (
            "Het transferresultaat daalde van € 14,2 miljoen naar € 6,5 miljoen, een daling "
            "van ongeveer 118 %.",
            CLUB,
        ),
    ],
)
def test_the_same_operation_done_wrong_is_flagged(answer: str, context: str) -> None:
    report = check_grounding(answer, context)
    assert not report.grounded
    assert [f.kind for f in report.findings] == ["ungrounded_number"]


def test_made_up_states_a_share_not_a_rise() -> None:
    # "up" after "made" is a verb's particle: the figure is read as no change (a rise of 43%
    # from 162.6 would be 232.5, nothing of the sort is claimed)
    from hybridjudge.grounding._derive import stated_trend

    text = "the americas made up about 43% of total net sales."
    at = text.index("43%")
    assert stated_trend(text, at, at + 3) == 0
    rose = "net sales were up about 4.4% in the americas."
    at = rose.index("4.4%")
    assert stated_trend(rose, at, at + 4) == 1
    report = check_grounding("Net sales were up about 4.4% in the Americas.", SALES)
    assert report.grounded


# --- One operand stated by the answer (_derive._pinned) ------------------------------------
# A change or a share whose one operand the answer's sentence states: the other is a context
# figure the words tie to it (the same table row; running text sharing a word before them; for a
# share, a figure the words after the percentage name). Two significant digits are trusted then.

FABRIKAM = [
    "Fabrikam 2023 Annual Report, p. 4: Group revenue reached €4.2 billion in 2023, and the "
    "dividend was raised to €1.15 per share.",
    "Fabrikam 2022 Annual Report, p. 5: Group revenue was €3.9 billion in 2022; the dividend was "
    "€1.05 per share.",
]
KENNZAHLEN = (
    "Konzernkennzahlen (in Mio. €)\n\n| | Q3 2024 | Q3 2023 |\n|---|---|---|\n"
    "| Umsatzerlöse | 1.204,0 | 1.118,0 |\n| EBIT | 96,4 | 88,1 |\n| Konzernergebnis | 61,2 | 57,9 |"
)
GROUPE = (
    "Le chiffre d'affaires du groupe s'est établi à 3 418,2 millions d'euros en 2023, contre "
    "3 105,6 millions d'euros en 2022. Le résultat net part du groupe atteint 212,7 M€. Les "
    "effectifs atteignent 12 480 salariés."
)


@pytest.mark.parametrize(
    ("answer", "context", "derived"),
    [
        # 4.2 / 3.9 - 1 = 7.69%: the other passage's figure, both after "group revenue"
        ("Revenue rose about 7.7% to €4.2 billion in 2023.", FABRIKAM, ("7.7%", "percent_change")),
        # 96,4 - 88,1 in EBIT's row, from Q3 2023 to Q3 2024
        (
            "Das EBIT stieg gegenüber dem Vorjahresquartal um 8,3 Mio. € auf 96,4 Mio. €.",
            KENNZAHLEN,
            ("8,3 Mio. €", "difference"),
        ),
        # 212,7 / 3 418,2 = 6.22%: "du chiffre d'affaires" names the whole
        (
            "Le résultat net s'élève à 212,7 millions d'euros, soit 6,2 pour cent du chiffre "
            "d'affaires.",
            GROUPE,
            ("6,2 pour cent", "ratio"),
        ),
    ],
)
def test_an_operand_the_answer_states_pins_the_other(
    answer: str, context: str | list[str], derived: tuple[str, str]
) -> None:
    report = check_grounding(answer, context)
    assert report.grounded, [f.message for f in report.findings]
    assert derived in [(t.quantity.text, t.rule) for t in report.quantities]


@pytest.mark.parametrize(
    ("answer", "context"),
    [
        ("Revenue rose about 8.7% to €4.2 billion in 2023.", FABRIKAM),  # 7.7
        # a fall is relative to the larger figure: 4.2 from 3.9 is a rise of 7.7%, no fall
        ("Revenue fell about 7.7% to €4.2 billion in 2023.", FABRIKAM),
        # the row's change is a rise from Q3 2023 to Q3 2024
        ("Das EBIT sank gegenüber dem Vorjahresquartal um 8,3 Mio. € auf 96,4 Mio. €.", KENNZAHLEN),
        ("Das EBIT stieg um 9,3 Mio. € auf 96,4 Mio. €.", KENNZAHLEN),  # 8,3
        # the words name the staff, whose figure is no whole of 212,7 at 6,2 %
        (
            "Le résultat net s'élève à 212,7 millions d'euros, soit 6,2 pour cent des effectifs.",
            GROUPE,
        ),
        (
            "Le résultat net s'élève à 212,7 millions d'euros, soit 7,2 pour cent du chiffre d'affaires.",
            GROUPE,
        ),
    ],
)
def test_a_pinned_operation_that_does_not_hold_is_flagged(
    answer: str, context: str | list[str]
) -> None:
    report = check_grounding(answer, context)
    assert not report.grounded
