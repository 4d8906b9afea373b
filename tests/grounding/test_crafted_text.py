"""Crafted text never breaks a check: every answer, context and question gets a report.

The texts are strung together from the pieces that the grounding rules read (figures, signs,
scales in several languages, units, dates, table cells, refusals, negations, superscript and
non-Latin digits, invisible and control characters), in random order, from a fixed seed: a
failure names its case and reproduces. Each crash found so stays as a case of its own: ``In
'²³`` (a superscript read as two digits, then ``int('²³')``), ``3 x 10^400`` (a value beyond a
float's range), an abstention marker or an anchor of invisible characters only, and an anchor
holding a lone UTF-16 surrogate (pydantic's error, untyped).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from hybridjudge.grounding import (
    GroundingChecker,
    GroundingInputError,
    GroundingReport,
    check_grounding,
    prepare_context,
)

PIECES = (
    *("0", "1", "9", "12", "1,234", "5,409", "3.5", "0.0", "-", "+", "(", ")", "$", "€", "£"),
    *("¥", "₹", "%", "‰", "|", "\n", "\t", " ", ".", ",", ":", ";", "/", "=", "×", "*", "÷"),
    *("~", "≈", "million", "billion", "thousand", "in millions", "(in thousands)", "Mio."),
    *("Mrd.", "crore", "lakh", "万", "億", "亿", "円", "元", "원", "%p", "bps", "x", "times"),
    *("per cent", "FY2022", "Q3", "2019", "2018", "December 31, 2016", "31/12/2016"),
    *("2016-12-31", "third", "half", "a quarter", "twice", "dozen", "twenty-five", "zwei"),
    *("trois", "cinco", "I don't know", "cannot answer", "不知道", "わかりません", "no", "not"),
    *("less than", "more than", "about", "from", "to", "between", "and", "increase"),
    *("decrease", "fell", "rose", "down", "minus", "negative", "e", "E+03", "1e9", "10^6"),
    *("²", "³", "½", "٣", "३", "๓", "१२", "Ⅻ", "XII", "iv", "'", "’", "<td>", "</td>"),
    *("<tr>", "<table>", "</table>", "|---|", "\u200b", "\u00a0", "\u202f", "\ufeff"),
    *("\u2212", "–", "—", "…", "ﬁ", "＄", "１２３", "，", "％", "\r\n", "\x00", "\x1b[31m"),
    *("mg", "kg", "°C", "hours", "days", "years", "GB", "USD", "US$", "HK$", "R$", "Rs."),
)


def _text(rng: random.Random, most: int) -> str:
    return "".join(
        rng.choice(PIECES) + (" " if rng.random() < 0.5 else "")
        for _ in range(rng.randint(0, most))
    )


@pytest.mark.parametrize(
    ("answer", "context"),
    [
        ("In '²³ it grew.", "Revenue 2023 was 5."),  # a superscript is no two-digit year
        ("In '³٣ it grew.", "Revenue 1998 was 5."),
        ("In '٩٨ it grew to 5.", "Revenue 1998 was 5."),  # Arabic-Indic digits are digits
    ],
)
def test_an_apostrophe_year_of_other_digits(answer: str, context: str) -> None:
    report = check_grounding(answer, context)
    assert isinstance(report, GroundingReport)


@pytest.mark.parametrize(
    ("answer", "context"),
    [
        ("It is 6.", "Revenue | 3 x 10^400 | 7"),
        ("About 6 million.", "It was 3 x 10^400 or 7."),
        ("It grew 20%.", "It was 3 x 10^400 in 2019 and 7 in 2018."),
        ("It is 6.", "The mass is 2 * 10^6१२ kg and 7 kg."),  # Devanagari digits: 10^612
        ("It is 3 x 10^400, or 6.", "It was 3 x 10^400 or 7."),
    ],
)
def test_a_power_of_ten_beyond_a_float(answer: str, context: str) -> None:
    """Scientific notation reads exponents of two digits, as ``1e99`` does: ``10^400`` is no
    figure of 3 x 10^400 (its value, beyond a float's range, overflowed every float computed
    from it), but its digits apart."""
    report = check_grounding(answer, context)
    assert isinstance(report, GroundingReport)
    assert GroundingChecker(prepare_context(context)).check(answer) == report
    assert "3 x 10^400" not in [q.quantity.text for q in report.quantities]


@pytest.mark.parametrize("marker", ["", " ", "\r\n", "\u200b", "\ufeff", "\u202f \u200b"])
def test_a_marker_of_nothing_visible_is_refused_by_name(marker: str) -> None:
    """An abstention marker that normalises to nothing (it crashed the marker set's compiler)
    is a typed error naming it, as a blank one is."""
    with pytest.raises(GroundingInputError, match=r"abstain_markers\[1\] is blank"):
        check_grounding("I do not know.", "x", abstain_markers=["no idea", marker])


@pytest.mark.parametrize(
    ("anchor", "says"),
    [
        ("\u200b", "is blank"),  # it was kept, and reported missing from every answer
        ("\ufeff \u2060", "is blank"),
        ("5 days\ud800", "is invalid at 'value'"),  # a lone surrogate: pydantic's raw error
        ({"value": "5 days\udfff"}, "is invalid at 'value'"),
    ],
)
def test_an_anchor_of_no_text_is_refused_by_name(anchor: str | dict[str, str], says: str) -> None:
    with pytest.raises(GroundingInputError, match=rf"anchors\[1\] {says}") as raised:
        check_grounding("It is 5 days.", "5 days", anchors=["5 days", anchor])
    assert raised.value.argument == "anchors[1]"


def test_crafted_texts_always_get_a_report() -> None:
    rng = random.Random(20261204)
    for case in range(2_000):
        passages = [_text(rng, 60) for _ in range(rng.randint(1, 3))]
        answer = _text(rng, 40)
        question = _text(rng, 10) if rng.random() < 0.5 else None
        options: dict[str, Any] = {}
        if rng.random() < 0.3:
            options["anchors"] = [_text(rng, 4) + "x" for _ in range(rng.randint(1, 3))]
        if rng.random() < 0.2:
            options["allowed_numbers"] = [rng.choice(("5", "1,234", "3.5%", _text(rng, 3)))]
        if rng.random() < 0.2:
            options["answerable"] = rng.choice([True, False, None])
        if rng.random() < 0.1:
            options["abstain_markers"] = [_text(rng, 3)]
        where = (case, answer, passages, question, options)
        refused: str | None = None
        try:
            report = check_grounding(answer, passages, question=question, **options)
        except GroundingInputError as e:  # an option refused by name is an outcome, no crash
            refused = e.argument.split("[")[0]
        if refused is not None:
            assert refused in options, where
            continue
        assert isinstance(report, GroundingReport), where
        assert report.grounded == (not report.findings), where
        if case % 5 == 0:  # the prepared path reads the same texts the other way
            prepared = GroundingChecker(prepare_context(passages), question=question, **options)
            assert prepared.check(answer).grounded == report.grounded, where
