"""A measure (a figure with a physical unit: ``2.6 kg``, ``745 km``, ``45 minutes``) derives from
the context's measures of its kind, and a change stated in percent from two measures of one kind.

Before, only sums of money, plain figures and percentages were derived: ``fell from 13.8 kg to
11.2 kg`` answered ``dropped by 2.6 kg`` was flagged, as were a trip's total length and a lab
value's percent change (a probe of invented medical, technical and HR pages found ten such
correct answers flagged). A measure is explained by measures of its dimension only, in its base
unit (``2,600 g`` is ``13.8 kg - 11.2 kg``), and only where the answer states an operation (a
change, ``dropped by``; a comparison, ``heavier than``; a total, ``together``) or the question
asks for one: ``a maximum single dose of 600 mg`` is no ``1 g - 400 mg`` of two rows (the same
probe's wrong answers). A temperature is never a sum or a difference of amounts. Every value below was worked out by hand (13.8 - 11.2 = 2.6; 310 + 435 = 745;
(2.1 - 1.4) / 1.4 = 50%).
"""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding

PROSE = "The patient's weight fell from 13.8 kg to 11.2 kg over the trial."
PIPE = "| Patient | Before | After |\n| --- | --- | --- |\n| A | 13.8 kg | 11.2 kg |"
PDF = "Patient\nBefore\nAfter\nA\n13.8 kg\n11.2 kg"
ROUTE = "The first leg is 310 km and the second 435 km."
LAB = "Creatinine went from 1.4 mg/dL at baseline to 2.1 mg/dL at week 12."
STEPS = "The first step takes 30 minutes and the second 15 minutes."


@pytest.mark.parametrize(
    ("answer", "context", "rule"),
    [
        ("It dropped by 2.6 kg.", PROSE, "difference"),
        ("It dropped by 2.6 kg.", PIPE, "difference"),
        ("It dropped by 2.6 kg.", PDF, "difference"),
        ("It dropped by 2,600 g.", PROSE, "difference"),
        ("Together the legs are 745 km.", ROUTE, "sum"),
        ("The route is 745 km in total.", ROUTE, "sum"),
        (
            "The NX-16 is 0.47 kg heavier than the NX-14.",
            "NX-14 | 1.35 kg\nNX-16 | 1.82 kg",
            "difference",
        ),
        ("Creatinine rose 50%.", LAB, "percent_change"),
        ("It took 45 minutes in all.", STEPS, "sum"),
    ],
)
def test_a_measure_derives_from_measures_of_its_kind(answer: str, context: str, rule: str) -> None:
    report = check_grounding(answer, [context])
    assert report.grounded, report.findings
    assert [t.rule for t in report.quantities] == [rule]
    assert [t.source for t in report.quantities] == ["derived"]


@pytest.mark.parametrize(
    ("answer", "context"),
    [
        ("It dropped by 3.6 kg.", PROSE),  # one digit off
        ("It dropped by 2.6 g.", PROSE),  # another scale of the unit
        ("It dropped by 2.6 km.", PROSE),  # another dimension
        ("The route is 755 km in total.", ROUTE),
        ("The route is 745 miles in total.", ROUTE),
        # stated as no operation's result: a figure of its own, not a chance sum or difference
        ("The route is 745 km long.", ROUTE),
        ("The maximum single dose is 600 mg.", "Drug | Max single dose\nA | 1 g\nB | 400 mg"),
        ("Annual leave is 20 days.", "Leave\tEntitlement\tNotice\nAnnual\t25 days\t2 weeks"),
        ("Creatinine rose 60%.", LAB),
        ("Creatinine was 50%.", LAB),  # a percentage stated as no change
        ("The difference is 2 °C.", "It was 38 °C in the morning and 36 °C at night."),
        ("It took 45 minutes in all.", "The first step takes 30 seconds and the second 15."),
    ],
)
def test_a_wrong_measure_is_flagged(answer: str, context: str) -> None:
    report = check_grounding(answer, [context])
    assert [f.kind for f in report.findings] == ["ungrounded_number"]
