"""The words around figures in the lexicons (issue 33, point 2): the groups ``figure_context``,
``frequencies`` and ``shares`` and the percent words follow their schema, merge over the
languages, and are what the scan reads (``_quantities`` builds its expressions from them)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from hybridjudge.grounding import parse_quantities
from hybridjudge.grounding._lexicon import (
    FrequencyWords,
    LexiconError,
    grouped,
    grouped_table,
    lexicon,
    load_lexicon,
    periods,
)
from hybridjudge.grounding._normalize import normalize
from hybridjudge.grounding._quantities import (
    FRACTION_DENOMINATORS,
    FRACTION_NUMERATORS,
    rate_period,
    uncounted_intervals,
)


def _write(tmp_path: Path, data: dict[str, object]) -> Path:
    path = tmp_path / "xx.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def test_a_period_role_names_only_periods(tmp_path: Path) -> None:
    data = {
        "language": "xx",
        "name": "X",
        "frequencies": {"periods": {"day": {"unit": "day"}}, "rates": ["day", "month"]},
    }
    with pytest.raises(LexiconError, match=r"rates: \['month'\] not in periods"):
        load_lexicon(_write(tmp_path, data))


def test_a_group_of_words_refuses_an_unknown_field(tmp_path: Path) -> None:
    data = {"language": "xx", "name": "X", "shares": {"numerator": {"a": 1}}}
    with pytest.raises(LexiconError) as info:
        load_lexicon(_write(tmp_path, data))
    assert info.value.field == "shares.numerator"


def test_the_groups_merge_over_the_languages() -> None:
    assert "page" in grouped("figure_context", "page_labels")
    assert "s&p" in grouped("figure_context", "index_names")  # und.json
    assert grouped_table("frequencies", "multiplicatives")["twice"] == 2
    assert periods()["fortnight"].unit == "week"
    assert periods()["fortnight"].count == 2
    assert periods()["quarterly"].adverb
    freq = lexicon("en").frequencies
    assert isinstance(freq, FrequencyWords)
    for role in ("counted", "uncounted", "alternate", "rates"):
        assert set(getattr(freq, role)) <= set(freq.periods)


def test_the_fractions_are_the_lexicons() -> None:
    assert FRACTION_NUMERATORS["two"] == 2
    assert FRACTION_DENOMINATORS["quarter"] == FRACTION_DENOMINATORS["quarters"] == 4
    (q,) = parse_quantities("Two-thirds of the votes")
    assert q.value == Fraction(200, 3)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Il tasso è salito di 2 punti percentuali.", 2),
        ("La tasa subió 3 puntos porcentuales.", 3),
        ("La tasa subió 1 punto porcentual.", 1),
        ("Le taux est de 5 pour cent.", 5),
        ("Die Quote stieg um 4 Prozentpunkte.", 4),
        ("De rente steeg met 6 procent.", 6),
        ("Rates rose 7 per cent.", 7),
        ("Rates rose 8 percentage points.", 8),
    ],
)
def test_the_percent_words_of_each_language(text: str, value: int) -> None:
    (q,) = parse_quantities(text)
    assert (q.value, q.unit) == (value, "%")


def test_basis_points_are_hundredths_of_a_point() -> None:
    (q,) = parse_quantities("The spread narrowed 25 basis points.")
    assert (q.value, q.unit) == (Fraction(1, 4), "%")


def test_the_periods_of_rates_and_frequencies() -> None:
    text = normalize("$5 per quarter, $9.99/mo or $60 a year").text
    for at, months in ((" per", 3), ("/mo", 1), (" a year", 12)):
        found = rate_period(text, text.index(at))
        assert found is not None
        assert found[0] == ("calendar", months)
    text = normalize("Billed quarterly; a check-up every other week, a pill per night.").text
    found = [interval for interval, _, _ in uncounted_intervals(text)]
    assert found == [("calendar", 3), ("time", 2 * 604800), ("night", 1)]
