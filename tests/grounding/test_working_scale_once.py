"""A sum's working written with its scale word once, after the last figure (``(24,6 + 25,1 +
27,3 + 26,0 miljoen)``), and with the word the figure counts between it and the bracket (``103
miljoen ritten (...)``): the working's sum is the result's (rule ``shown_working``); a result the
working does not give stays a finding. Worked out by hand: 24.6 + 25.1 + 27.3 + 26.0 = 103.0."""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding

CSV = [
    "RegioRail Nederland, december 2023 t/m april 2024.",
    # December first: the four months asked for are no whole column (whose sum would explain
    # 103 as the rule sum before the working is read)
    "Maand;Reizigerspunctualiteit (%);Treinen uitgevallen (%);Reizigersritten (mln)\n"
    "December;89,9;2,9;22,9\nJanuari;91,2;2,1;24,6\nFebruari;90,4;2,6;25,1\nMaart;88,7;3,4;27,3\n"
    "April;92,0;1,8;26,0",
]


@pytest.mark.parametrize(
    "answer",
    [
        "In totaal ongeveer 103 miljoen ritten (24,6 + 25,1 + 27,3 + 26,0 miljoen).",
        "In totaal ongeveer 103 miljoen (24,6 + 25,1 + 27,3 + 26,0 miljoen).",
        "In totaal 103,0 miljoen ritten (24,6 + 25,1 + 27,3 + 26,0 miljoen).",
    ],
)
def test_a_scale_word_written_once_after_a_sum_is_the_working_s(answer: str) -> None:
    report = check_grounding(answer, CSV)
    assert report.grounded, report.findings
    (result,) = [t for t in report.quantities if t.quantity.text.startswith("103")]
    assert result.rule == "shown_working"


@pytest.mark.parametrize(
    ("answer", "result"),
    [
        (
            "In totaal ongeveer 104 miljoen ritten (24,6 + 25,1 + 27,3 + 26,0 miljoen).",
            "104 miljoen",
        ),
        ("In totaal 103,9 miljoen ritten (24,6 + 25,1 + 27,3 + 26,0 miljoen).", "103,9 miljoen"),
    ],
)
def test_a_result_the_working_does_not_give_stays_a_finding(answer: str, result: str) -> None:
    report = check_grounding(answer, CSV)
    assert [f.subject for f in report.findings] == [result]
