"""Rows named by an acronym of what their label writes out, or the other way round.

A question's ``U.S.`` named the row ``U.S.`` (e24ebf0) but not the row ``United States``: ``What
share of total revenue came from the U.S.?`` pointed at the total row alone, and the right share
of the United States row was flagged (noticed at 79ce59d, left then). The names and their
acronyms are lexicon data (``label_acronyms``: ``united states``: ``us``, ``usa``); a name's
words count only where a label holds all of them. The figures were worked out by hand.
"""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding


def _table(label: str, other: str = "International") -> str:
    return (
        "(in millions)\n| | 2022 | 2021 |\n"
        f"| {label} | 5,000 | 4,000 |\n| {other} | 3,000 | 2,600 |\n| Total | 8,000 | 6,600 |"
    )


def _share(label: str, named: str, answer: str = "62.5%") -> tuple[bool, str | None]:
    # 5,000 / 8,000 = 62.5%, and no other two figures of the table give it: the question must
    # name the row (and the total row names itself), or the hint holds the total row alone
    report = check_grounding(
        answer, _table(label), question=f"What share of total revenue came from {named} in 2022?"
    )
    return report.grounded, report.quantities[0].derivation


@pytest.mark.parametrize("named", ["the U.S.", "the US", "the USA", "U.S."])
@pytest.mark.parametrize("label", ["United States", "United States of America"])
def test_an_acronym_names_the_row_that_writes_it_out(label: str, named: str) -> None:
    assert _share(label, named) == (True, "62.5% = 5,000 / 8,000")


@pytest.mark.parametrize("label", ["U.S.", "US", "USA"])
def test_a_name_written_out_names_the_row_of_its_acronym(label: str) -> None:
    assert _share(label, "the United States") == (True, "62.5% = 5,000 / 8,000")


@pytest.mark.parametrize(
    ("label", "named"),
    [
        ("United Kingdom", "the UK"),
        ("European Union", "the EU"),
        ("UK", "the United Kingdom"),
        ("Asia Pacific", "APAC"),
        ("Europe, Middle East and Africa", "EMEA"),
    ],
)
def test_other_names(label: str, named: str) -> None:
    assert _share(label, named) == (True, "62.5% = 5,000 / 8,000")


@pytest.mark.parametrize(
    ("label", "named"),
    [
        ("State taxes", "the US"),  # a word of "united states", not all of them
        ("United States", "us"),  # "us" in lower case: a pronoun
        ("United Kingdom", "the US"),  # another name
    ],
)
def test_no_row_is_named_by_part_of_a_name_or_a_pronoun(label: str, named: str) -> None:
    assert _share(label, named)[0] is False


def test_acronyms() -> None:
    from hybridjudge.grounding._derive import _acronyms, _short_words, _words

    question = "How much came from the U.S. and the United Kingdom?"
    spelled, named = _acronyms(_words(question), _short_words(question, label=False))
    assert _words("United States") in spelled
    assert {"uk"} <= named
    assert _acronyms(_words("Where is it?"), _short_words("Where is it?", label=False)) == (
        (),
        frozenset(),
    )


@pytest.mark.parametrize("bad", [{"united states": ["U.S."]}, {"United States": ["us"]}])
def test_the_lexicon_schema_keeps_acronyms_lower_case_letters(bad: dict[str, list[str]]) -> None:
    import json

    from pydantic import ValidationError

    from hybridjudge.grounding._lexicon import Lexicon, lexicon_dir

    raw = json.loads((lexicon_dir() / "en.json").read_text(encoding="utf-8"))
    Lexicon.model_validate(raw)
    raw["label_acronyms"] = bad
    with pytest.raises(ValidationError, match="label_acronyms"):
        Lexicon.model_validate(raw)
