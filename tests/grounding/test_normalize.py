"""Unicode normalisation and the offset map back to the original text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hybridjudge.grounding import normalize_text
from hybridjudge.grounding._normalize import normalize


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Fee: 15 %", "fee: 15 %"),  # ASCII: lower-casing only
        ("6–8 weeks", "6-8 weeks"),  # en dash
        ("−5 °C", "-5 °c"),  # Unicode minus
        ("100 µg", "100 μg"),  # micro sign -> Greek mu
        ("don’t", "don't"),  # curly apostrophe
        ("30\u00a0days", "30 days"),  # no-break space
        ("ＭＧ", "mg"),  # full width (NFKC)
        ("Straße", "strasse"),  # case folding
        ("1½", "1 1/2"),  # vulgar fraction spelled out
        ("ﬁve", "five"),  # ligature (NFKC)
    ],
)
def test_normal_forms(raw: str, expected: str) -> None:
    assert normalize_text(raw) == expected


@pytest.mark.parametrize(
    ("raw", "needle", "original"),
    [
        ("Straße 30 días", "30", "30"),
        ("½ tablet", "1/2", "½"),
        ("ﬁve days", "five", "ﬁve"),
        ("x ＭＧ y", "mg", "ＭＧ"),
        ("plain ascii 42", "42", "42"),
    ],
)
def test_spans_map_back_to_the_original(raw: str, needle: str, original: str) -> None:
    norm = normalize(raw)
    start = norm.text.index(needle)
    a, b = norm.to_original(start, start + len(needle))
    assert raw[a:b] == original


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_offset_map_stays_inside_the_original(text: str) -> None:
    norm = normalize(text)
    n = len(norm.text)
    for start in range(0, n, max(1, n // 7)):
        a, b = norm.to_original(start, min(n, start + 3))
        assert 0 <= a <= b <= len(text)
