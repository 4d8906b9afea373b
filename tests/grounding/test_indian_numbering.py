"""Figures of Indian reports: the rupee written ``Rs.``/``Rs``, lakh and crore, the grouping
``1,50,000`` and scale headings ``(₹ in crore)``. Every value below is computed by hand: a lakh is
100,000 and a crore 10,000,000."""

from __future__ import annotations

import time
from fractions import Fraction

import pytest

from hybridjudge.grounding import check_grounding, parse_quantities


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Rs.500", [("Rs.500", Fraction(500), "inr")]),
        ("Rs. 500", [("Rs. 500", Fraction(500), "inr")]),
        ("Rs 1,200 per month", [("Rs 1,200", Fraction(1200), "inr")]),
        ("₹ 1,50,000", [("₹ 1,50,000", Fraction(150_000), "inr")]),
        ("1,50,000 shares", [("1,50,000", Fraction(150_000), None)]),
        ("Rs 2,50,00,000", [("Rs 2,50,00,000", Fraction(25_000_000), "inr")]),
        ("₹500 crore", [("₹500 crore", Fraction(5_000_000_000), "inr")]),
        ("Rs 2 crores", [("Rs 2 crores", Fraction(20_000_000), "inr")]),
        ("1.5 lakh", [("1.5 lakh", Fraction(150_000), None)]),
        ("3 lakhs", [("3 lakhs", Fraction(300_000), None)]),
        # Western grouping is read as before, and "rs" inside a word is no rupee
        ("12,345", [("12,345", Fraction(12_345), None)]),
        ("1,234,567", [("1,234,567", Fraction(1_234_567), None)]),
        ("Mrs. 5", [("5", Fraction(5), None)]),
        ("hrs 5", [("5", Fraction(5), None)]),
    ],
)
def test_indian_figures_are_read(
    text: str, expected: list[tuple[str, Fraction, str | None]]
) -> None:
    assert [(q.text, q.value, q.unit) for q in parse_quantities(text)] == expected


@pytest.mark.parametrize(
    ("answer", "context"),
    [
        ("The fee is Rs.500.", "The fee is ₹500."),
        ("The fee is Rs. 500.", "The fee is INR 500."),
        ("Profit was ₹1,50,000.", "Profit was Rs. 150,000."),
        ("Revenue was ₹5 crore.", "Revenue was ₹50,000,000."),
        ("Revenue was ₹1.5 lakh.", "Revenue was ₹150,000."),
        # a scale heading governs its table: 500 crore = 5,000 million; 12.50 lakh = 1.25 million
        ("Revenue was ₹5,000 million.", "(₹ in crore)\nItem | FY24\nRevenue | 500"),
        ("Revenue was ₹5 billion.", "(in ₹ crore)\nItem | FY24\nRevenue | 500"),
        ("Revenue was ₹5 billion.", "(₹ crore)\nItem | FY24\nRevenue | 500"),
        ("Revenue was Rs. 1.25 million.", "(Rs. in lakhs)\nItem | FY24\nRevenue | 12.50"),
        ("Revenue was ₹500 crore.", "(₹ in crore)\nItem | FY24\nRevenue | 500"),
    ],
)
def test_indian_answers_trace_to_their_context(answer: str, context: str) -> None:
    report = check_grounding(answer, context)
    assert report.grounded, report.findings


@pytest.mark.parametrize(
    ("answer", "context", "subject"),
    [
        # "Rs.600" was read as no number at all, so the wrong fee passed
        ("The fee is Rs.600.", "The fee is ₹500.", "Rs.600"),
        ("The fee is Rs. 600.", "The fee is ₹500.", "Rs. 600"),
        ("Profit was ₹2,50,000.", "Profit was Rs. 150,000.", "₹2,50,000"),
        ("Revenue was ₹600 crore.", "(₹ in crore)\nItem | FY24\nRevenue | 500", "₹600 crore"),
        # a figure's own scale word in running text is no heading for the others
        ("Revenue was ₹5 billion.", "Revenue grew to ₹5 crore in 2024.", "₹5 billion"),
    ],
)
def test_wrong_indian_figures_are_findings(answer: str, context: str, subject: str) -> None:
    report = check_grounding(answer, context)
    assert [f.subject for f in report.findings] == [subject]


def test_a_long_list_of_figures_in_a_rupee_text_is_read_in_linear_time() -> None:
    # one line of 200,000 comma-separated digits (400 KB) in a text that writes rupees: each
    # comma's run of digits and commas is found once per line, not once per comma (that was
    # quadratic: hours); about a second on a slow machine
    text = "Amounts in ₹\n" + ",".join(str(i % 10) for i in range(200_000))
    started = time.perf_counter()
    quantities = parse_quantities(text)
    assert time.perf_counter() - started < 10
    assert len(quantities) == 200_000  # CSV cells, one figure each
