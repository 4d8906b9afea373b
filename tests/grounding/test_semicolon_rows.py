"""CSV rows as a continental spreadsheet writes them: cells parted by semicolons, figures with
decimal commas (``Arbeitspreis;3.412;kWh;0,3189;1.088,09``).

Before, the commas of such a row were read as cell separators: ``0,3189`` became the cells ``0``
and ``3189``, so a price of 3,189 euros per kWh passed and the right 0,3189 was flagged. An
invented electricity bill, every value read off it by hand.
"""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding
from hybridjudge.grounding._normalize import normalize

BILL = (
    "Stromrechnung 2024\n"
    "Position;Menge;Einheit;Preis je Einheit (€);Betrag (€)\n"
    "Arbeitspreis;3.412;kWh;0,3189;1.088,09\n"
    "Grundpreis;12;Monate;13,45;161,40\n"
    "Summe netto;;;;1.249,49\n"
    "USt 19 %;;;;237,40\n"
    "Gesamtbetrag;;;;1.486,89"
)


@pytest.mark.parametrize(
    "answer",
    [
        "Der Arbeitspreis beträgt 0,3189 € je kWh.",
        "Der Gesamtbetrag liegt bei 1.486,89 €.",
        "Der Grundpreis beträgt 13,45 € im Monat.",
        "Die Umsatzsteuer beträgt 237,40 €.",
    ],
)
def test_a_figure_of_a_semicolon_row_passes_as_written(answer: str) -> None:
    report = check_grounding(answer, [BILL])
    assert report.grounded, report.findings


@pytest.mark.parametrize(
    "answer",
    [
        "Der Arbeitspreis beträgt 3189 € je kWh.",  # the decimals of 0,3189 read as a cell
        "Der Gesamtbetrag liegt bei 1.468,89 €.",  # two digits swapped
        "Der Grundpreis beträgt 45 € im Monat.",  # the decimals of 13,45
    ],
)
def test_a_decimal_part_read_as_a_cell_is_flagged(answer: str) -> None:
    report = check_grounding(answer, [BILL])
    assert [f.kind for f in report.findings] == ["ungrounded_number"]


def test_semicolons_of_running_text_part_no_cells() -> None:
    # a blank after each semicolon: a list in a sentence, its commas are the text's
    text = "Dosen: 3,5 mg; 7 mg; 10,5 mg pro Tag."
    assert "|" not in normalize(text).text
