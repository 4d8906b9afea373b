"""A unit a table's column heading or row label names in brackets is its cells' unit for the
measures derived from them (``_check._heading_units``): ``0,3 giorni`` is ``7,1 - 6,8`` of a
row ``Degenza media (giorni)``; ``2.7 km`` is ``9.8 - 7.1`` of a column ``Distance (km)``. A
measure is derived from measures of its dimension only, so before this no bare cell could
explain one. Worked out by hand."""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding
from hybridjudge.grounding._check import _heading_units

HOSPITAL = (
    "Indicatore | 2022 | 2023\nRicoveri ordinari | 31.420 | 32.875\n"
    "Degenza media (giorni) | 7,1 | 6,8"
)
WALKS = "Day\tSteps\tDistance (km)\nMon\t9,412\t7.1\nTue\t12,870\t9.8\nWed\t6,205\t4.7"


@pytest.mark.parametrize(
    ("answer", "context", "grounded"),
    [
        ("La degenza media è scesa di 0,3 giorni, a 6,8 giorni.", HOSPITAL, True),
        ("La degenza media è scesa di 0,4 giorni.", HOSPITAL, False),
        ("On Tuesday you walked 2.7 km more than on Monday.", WALKS, True),
        ("On Tuesday you walked 3.7 km more than on Monday.", WALKS, False),
        # the base unit: 2.7 km is 2,700 m
        ("On Tuesday you walked 2,700 m more than on Monday.", WALKS, True),
    ],
)
def test_a_measure_derives_from_cells_its_heading_names_the_unit_of(
    answer: str, context: str, grounded: bool
) -> None:
    report = check_grounding(answer, [context])
    assert report.grounded is grounded, report.findings
    if grounded:
        assert any(t.rule == "difference" for t in report.quantities)


def test_heading_units_read_by_line_and_column() -> None:
    text = "day\tsteps\tdistance (km)\tsleep (h:mm)\nmon\t9,412\t7.1\t7:05\n\nnotes\t(see below)\t3"
    units = _heading_units(text, markdown=False)
    # the distance column of the row under the heading; "h:mm" names no unit, and a blank line
    # ends the heading's table
    assert set(units) == {(1, 2)}
    assert units[(1, 2)] == ("length", 1000.0)
