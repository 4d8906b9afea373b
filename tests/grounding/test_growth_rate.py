"""Growth rates (issue 33, point 3: "growth rate with powers and roots"): the trace rule
``growth_rate`` and powers in shown working. The golden cases of the rule itself are in
``data/trace_rule_cases.json`` (hand-computed); these test its parts: the cue words of every
lexicon, the periods read from the texts, and crafted working that must stay bounded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hybridjudge.grounding import check_grounding
from hybridjudge.grounding._derive import MAX_EXPONENT, asks_growth_rate, growth_periods
from hybridjudge.grounding._quantities import scan

LEXICONS = Path(__file__).resolve().parents[2] / "src/hybridjudge/grounding/data/lexicon"
TABLE = "| | 2022 | 2021 | 2020 |\n| Revenue | 12,100 | 10,500 | 10,000 |"
"""Revenue from 10,000 (2020) to 12,100 (2022): a CAGR of exactly 10% (1.21 ** 0.5 = 1.1),
no one-year change of 10% (5.0%, 15.2%) and a two-year change of 21%."""


def _growth_words() -> list[tuple[str, str]]:
    out = []
    for path in sorted(LEXICONS.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for word in data.get("derivation", {}).get("asks_growth_rate", []):
            out.append((path.stem, word))
    return out


def test_the_lexicons_name_growth_rates_in_the_required_languages() -> None:
    languages = {lang for lang, _ in _growth_words()}
    assert {"en", "de", "fr", "es", "it", "pt", "nl", "ja", "zh", "ko"} <= languages


@pytest.mark.parametrize(("language", "word"), _growth_words())
def test_every_growth_word_asks_for_a_growth_rate(language: str, word: str) -> None:
    # as the lexicon writes it, capitalised, and inside a sentence
    for text in (f"{word} 2020-2022", f"What was the {word.upper()} from 2020 to 2022?"):
        assert asks_growth_rate(text), (language, text)
        assert growth_periods(scan(text)) == frozenset({2}), (language, text)


def test_no_growth_word_no_growth_rate() -> None:
    assert not asks_growth_rate("What was the change in revenue from 2020 to 2022?")
    # a cue inside a longer word is no cue
    assert not asks_growth_rate("the scagr index")


def test_periods_come_from_durations_and_from_the_years_named() -> None:
    assert growth_periods(scan("the three-year CAGR")) == frozenset({3})
    assert growth_periods(
        scan("What was the CAGR?"), scan("It grew 9.3% a year from 2017 to 2022.")
    ) == (frozenset({5}))
    assert growth_periods(scan("The CAGR over 2 years")) == frozenset({2})
    # a duration beyond 50 years, or none at all: no period (the table's columns may give one)
    assert growth_periods(scan("a 120-year CAGR")) == frozenset()
    assert growth_periods(scan("the CAGR")) == frozenset()


def test_a_decline_at_a_compound_rate() -> None:
    table = "| | 2022 | 2020 |\n| Revenue | 8,100 | 10,000 |"
    # (8,100 / 10,000) ** 0.5 - 1 = 0.9 - 1 = -10%
    report = check_grounding("Revenue fell at a CAGR of 10% from 2020 to 2022.", table)
    assert report.grounded, [(t.quantity.text, t.rule) for t in report.quantities]
    report = check_grounding("Revenue grew at a CAGR of 11.1% from 2020 to 2022.", table)
    assert not report.grounded  # (10,000 / 8,100) ** 0.5 - 1 = 11.1%: the wrong direction


def test_a_percentage_is_no_operand_of_a_growth_rate() -> None:
    table = "| | 2022 | 2020 |\n| Margin | 12.1% | 10.0% |"
    report = check_grounding("The margin's CAGR was 10.0%.", table)
    assert [t.rule for t in report.quantities if t.quantity.text == "10.0%"] != ["growth_rate"]


@pytest.mark.parametrize(
    "working",
    [
        "(12,100 / 10,000) ^ 65 = 3",  # an exponent over MAX_EXPONENT
        "((12,100 / 10,000) ^ 64) ^ 64 = 3",  # a power of a power: more than 4,096 bits
        "((12,100 / 10,000) ^ 64) ^ 64 ^ 64 ^ 64 = 3",
        "(10,000 - 12,100) ^ (1/2) = 3",  # a root of a negative number
        "(10,000 - 10,000) ^ (-1) = 3",  # zero to a negative power
        "(12,100 * 10,000 * 12,100 * 10,000 * 12,100) ^ (1/3) ^ 64 = 3",
    ],
)
def test_crafted_powers_of_shown_working_are_not_evaluated(working: str) -> None:
    # each returns at once with the result flagged (it does not follow from working that is
    # not evaluated); without the bounds, the second and third would not return for hours
    report = check_grounding(f"CAGR = {working}", TABLE)
    assert "3" in [f.subject for f in report.findings if f.kind == "ungrounded_number"]
    assert MAX_EXPONENT == 64


def test_a_whole_power_in_working_is_exact() -> None:
    # 1.21 ^ 2 = 1.4641 exactly; the exponent is a constant of the working
    report = check_grounding("Check: (12,100 / 10,000) ^ 2 = 1.4641", TABLE)
    traces = {t.quantity.text: t.rule for t in report.quantities}
    assert traces["1.4641"] == "shown_working", traces
    assert traces["2"] == "constant", traces
    assert not check_grounding("Check: (12,100 / 10,000) ^ 2 = 1.4642", TABLE).grounded


def test_the_cue_is_found_in_any_case_and_any_script() -> None:
    # the cheap gate before the expression: the first ASCII letter run of a cue, or a cue
    # without one (Chinese) as a substring
    assert asks_growth_rate("What was the CAGR?")
    assert asks_growth_rate("Compound Annual Growth Rate")
    assert asks_growth_rate("营收的复合年增长率是多少？")
    assert asks_growth_rate("le TCAC du chiffre d'affaires")
    assert not asks_growth_rate("What was the growth rate?")  # no compound rate asked for
    assert not asks_growth_rate("compound interest")
