"""Doses per body surface and per volume, and areas.

``75 mg/m2`` (docetaxel) is a dose per square metre of body surface: an answer giving ``75 mg``
names about half the dose of an adult of 1.8 m2, and ``75 mg/kg`` a forty-fold one. A
suspension's ``250 mg/5 mL`` names the volume that holds the dose: ``Give 5 mL (250 mg)`` copies
it, ``250 mg/mL`` is a fivefold error. Values worked out by hand (75 m2 = 807.3 sq ft, 1 sq ft =
0.09290304 m2 by definition).
"""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding

DOCETAXEL = "Docetaxel 75 mg/m2 IV every 3 weeks."
SUSPENSION = "Amoxicillin oral suspension: 250 mg/5 mL. Shake well before use."
FLAT = "Flat for rent, 75 m2, second floor, 1,450 EUR a month."


@pytest.mark.parametrize(
    ("answer", "context"),
    [
        ("The dose is 75 mg/m2 every 3 weeks.", DOCETAXEL),
        ("The dose is 75 mg/m² every 3 weeks.", DOCETAXEL),
        ("Give 5 mL (250 mg).", SUSPENSION),
        ("The suspension holds 250 mg per 5 mL.", SUSPENSION),
        ("The suspension is 250 mg/5 mL.", SUSPENSION),
        ("The flat measures 75 square metres.", FLAT),
        ("The flat measures about 807 sq ft.", FLAT),
    ],
)
def test_a_dose_or_area_as_the_context_states_it_passes(answer: str, context: str) -> None:
    report = check_grounding(answer, [context])
    assert report.grounded, report.findings


@pytest.mark.parametrize(
    ("answer", "context"),
    [
        ("The dose is 75 mg every 3 weeks.", DOCETAXEL),  # per m2 dropped: a flat dose
        ("The dose is 75 mg/kg every 3 weeks.", DOCETAXEL),  # per kg for per m2
        ("The dose is 60 mg/m2 every 3 weeks.", DOCETAXEL),
        ("The suspension holds 250 mg/mL.", SUSPENSION),  # fivefold
        ("The flat measures 75 sq ft.", FLAT),  # square feet for square metres
    ],
)
def test_a_dose_or_area_in_another_unit_is_flagged(answer: str, context: str) -> None:
    report = check_grounding(answer, [context])
    assert [f.kind for f in report.findings] == ["ungrounded_number"]


@pytest.mark.parametrize("separator", [",", "\t", " | "])
@pytest.mark.parametrize(
    ("answer", "grounded"),
    [
        ("Cloud revenue was $5.4 billion in 2024.", True),  # 5,387 USD m, the heading's scale
        ("Cloud revenue grew 28.0% in 2024.", True),  # 5,387 / 4,210 - 1 = 27.96%
        ("Cloud's operating margin was 31.2% in 2024.", True),
        ("Cloud revenue was $5,387 billion.", False),  # millions, the heading says
    ],
)
def test_a_heading_in_snake_case_names_its_year_and_scale(
    separator: str, answer: str, grounded: bool
) -> None:
    # a data frame's columns as pandas writes them (to_csv, to_markdown): each heading names
    # its year and its scale (usd_m: millions of dollars)
    rows = [
        ["segment", "revenue_2023_usd_m", "revenue_2024_usd_m", "operating_margin_2024_pct"],
        ["Cloud", "4210", "5387", "31.2"],
        ["Devices", "2876", "2641", "8.4"],
    ]
    table = "\n".join(separator.join(row) for row in rows)
    report = check_grounding(answer, [table])
    assert report.grounded is grounded, report.findings


def test_an_identifier_in_running_text_stays_whole() -> None:
    # no table row: model_v2_2024 holds no figure, so the answer's 2024 is not its
    report = check_grounding("The model was trained in 2024.", ["We used model_v2_2024."])
    assert [f.kind for f in report.findings] == ["ungrounded_number"]
