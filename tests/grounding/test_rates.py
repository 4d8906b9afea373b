"""A rate names the amount of each period, not the amount of anything else it is per.

``10 mg/day`` is ``10 mg`` a day: an answer's ``take 10 mg a day`` names it (the rule of
``_numerator_key``). Before this rule every rate's numerator was an amount: ``Give 10 mg.``
passed against ``10 mg/kg every 6 hours`` (a dose per kilogram of body weight: 10 mg/kg is
200 mg for a child of 20 kg, a twentyfold dosing error passed), ``100 mg/5 mL`` against a
solution of ``100 mg/mL`` (five times weaker), ``10 mg/kg`` against ``10 mg/m2``. These cases
come from a probe of invented pages (a dosing table, a label, a chemotherapy schedule); each
expectation was worked out by hand.
"""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding

PROSE = "Ibuprofen: 10 mg/kg every 6 hours, at most 40 mg/kg a day. The dose is 200 mg/day."
PIPE = "| Drug | Dose |\n| --- | --- |\n| Ibuprofen | 10 mg/kg |\n| Paracetamol | 500 mg/day |"
PDF = "Drug\nDose\nIbuprofen\n10 mg/kg\nParacetamol\n500 mg/day"


@pytest.mark.parametrize(
    ("answer", "context"),
    [
        ("Give 10 mg every 6 hours.", PROSE),
        ("At most 40 mg a day.", PROSE),
        ("The dose is 10 mg.", PIPE),
        ("The dose is 10 mg.", PDF),
        ("It holds 100 mg/5 mL.", "The solution contains 100 mg/mL."),
        ("The solution holds 100 mg.", "The solution contains 100 mg/mL."),
        ("Give 10 mg/kg weekly.", "Give 10 mg/m2 weekly."),
        ("The limit is 60 km.", "The limit is 60 km per litre of fuel."),
    ],
)
def test_a_rate_per_anything_but_a_period_is_no_amount(answer: str, context: str) -> None:
    report = check_grounding(answer, [context])
    assert not report.grounded, report.quantities
    assert any(f.kind == "ungrounded_number" for f in report.findings)


@pytest.mark.parametrize(
    ("answer", "context"),
    [
        ("The dose is 200 mg a day.", PROSE),
        ("The dose is 200 mg daily.", PROSE),
        ("Take 10 mg/day.", "The dose is 10 mg a day."),
        ("Paracetamol: 500 mg a day.", PIPE),
        ("Paracetamol: 500 mg a day.", PDF),
        ("It drove at 60 km an hour.", "Its speed was 60 km/h."),
        ("The dose is 10 mg/kg every 6 hours.", PROSE),
        ("The dose is 10 mg/kg.", PIPE),
        ("The dose is 10 mg/kg.", PDF),
    ],
)
def test_a_rate_per_period_names_the_amount_of_each_period(answer: str, context: str) -> None:
    report = check_grounding(answer, [context])
    assert report.grounded, report.findings


def test_a_rate_per_one_period_is_no_rate_per_another() -> None:
    report = check_grounding("The dose is 10 mg per week.", ["The dose is 10 mg/day."])
    assert not report.grounded
