"""Abstention markers with a gap (``der kontext nennt ... nicht.``): one to eight words of
one clause stand for the ``...``, worked out by hand."""

from __future__ import annotations

import pytest

from hybridjudge.grounding import abstains, check_grounding


@pytest.mark.parametrize(
    ("text", "refuses"),
    [
        ("Der Text nennt den Betrag nicht.", True),  # one word... two: "den Betrag"
        ("Der Text nennt es nicht.", True),  # one word
        ("Der Text nennt nicht.", False),  # no word: the gap needs one
        ("Der Text nennt a b c d e f g h nicht.", True),  # eight words
        ("Der Text nennt a b c d e f g h i nicht.", False),  # nine
        ("Der Text nennt den Betrag, den die Firma nicht.", False),  # a comma ends the clause
        ("Der Text nennt den Betrag nicht ausdrücklich.", False),  # nicht does not end it
    ],
)
def test_the_gap_reads_one_clause(text: str, refuses: bool) -> None:
    assert abstains(text) is refuses


def test_a_gap_in_a_callers_marker() -> None:
    """The syntax is the markers', so a caller's own marker may use it (``…`` too: it
    normalises to ``...``)."""
    for marker in ("the memo ... omits.", "the memo … omits."):
        report = check_grounding(
            "The memo sadly omits.",
            ["Revenue rose."],
            answerable=False,
            abstain_markers=[marker],
        )
        assert report.abstained
    report = check_grounding(
        "The memo omits.",
        ["Revenue rose."],
        answerable=False,
        abstain_markers=["the memo ... omits."],
    )
    assert not report.abstained  # no word where the gap needs one
