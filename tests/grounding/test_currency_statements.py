"""Scale statements written as a currency and a scale word, as reports outside the United States
write them: a country's dollar (``HK$'000``, ``S$'000``, ``NT$ thousands``, ``A$m``, ``C$
millions``: the lexicons' signs with their letters, not the US dollar), a currency's code
(``RMB'000``, ``USD'000``, ``(USD thousands)``, ``EUR m``, ``EURm``, ``EUR mn``, ``CHF m``,
``RM'000``: the lexicons' codes and letter signs before a scale word of ``scale_statement``),
and ``€ mn``. Each stands in three places: a row of units under the years (``| | HK$'000 |
HK$'000 |``, as Hong Kong and Chinese reports write their statements), a caption in brackets
above the table (and above a page's text with a cell per line), and each column's heading
(``| | 2023 RMB'000 | 2022 RMB'000 |``). By hand:
5,428 thousand is 5.4 million; 5,428 million is 5.4 billion."""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding

# (statement, its currency as an answer writes it, the statement's scale is thousands)
FORMS = [
    ("HK$'000", "HK$", True),
    ("S$'000", "S$", True),
    ("NT$ thousands", "NT$", True),
    ("US$'000", "US$", True),
    ("A$m", "A$", False),
    ("C$ millions", "C$", False),
    ("RMB'000", "RMB", True),
    ("RMB’Million", "RMB", False),  # Tencent's statements, a typographic apostrophe
    ("USD'000", "USD ", True),
    ("USD thousands", "USD ", True),
    ("RM'000", "RM", True),
    ("EUR m", "EUR ", False),
    ("EURm", "EUR ", False),
    ("EUR mn", "EUR ", False),
    ("CHF m", "CHF ", False),
    ("€ mn", "€", False),
    ("$'million", "$", False),  # it crashed (KeyError: no scale for 'million after a sign)
    ("€’million", "€", False),
]

PLACES = {
    "units row": "| | 2023 | 2022 |\n| | {s} | {s} |\n| Revenue | 5,428 | 4,756 |\n",
    "caption": "({s})\n| | 2023 | 2022 |\n| Revenue | 5,428 | 4,756 |\n",
    "column heading": "| | 2023 {s} | 2022 {s} |\n| Revenue | 5,428 | 4,756 |\n",
    # as a PDF extractor writes a statement: a cell per line
    "cell per line": "CONSOLIDATED INCOME STATEMENT\n({s})\n2023\n2022\nRevenue\n5,428\n4,756\n",
}


@pytest.mark.parametrize("place", sorted(PLACES))
@pytest.mark.parametrize(("statement", "currency", "thousands"), FORMS)
def test_a_currency_and_a_scale_word_state_the_tables_scale(
    place: str, statement: str, currency: str, thousands: bool
) -> None:
    context = PLACES[place].format(s=statement)
    right, wrong = ("5.4 million", "5,428 million") if thousands else ("5.4 billion", "5.4 million")
    assert check_grounding(f"Revenue was {currency}{right} in 2023.", context).grounded
    assert not check_grounding(f"Revenue was {currency}{wrong} in 2023.", context).grounded


@pytest.mark.parametrize(
    ("statement", "other"),
    [("HK$'000", "US$"), ("S$'000", "US$"), ("RMB'000", "US$"), ("EUR m", "US$")],
)
def test_the_statements_currency_is_the_tables(statement: str, other: str) -> None:
    # a Hong Kong dollar is no US dollar: the statement's sign with its letters decides
    context = PLACES["units row"].format(s=statement)
    scale = "million" if "'000" in statement else "billion"
    assert not check_grounding(f"Revenue was {other}5.4 {scale} in 2023.", context).grounded


def test_a_code_read_as_a_statement_already_is_read_once() -> None:
    # "in USD thousands" is a statement of its own grammar; the code after "in" adds none
    context = "Amounts in USD thousands\n| | 2023 | 2022 |\n| Revenue | 5,428 | 4,756 |\n"
    assert check_grounding("Revenue was USD 5.4 million in 2023.", context).grounded
    assert not check_grounding("Revenue was USD 5,428 million in 2023.", context).grounded


def test_a_rate_or_a_figure_is_no_statement() -> None:
    # "per EUR m of sales" is a rate, "EUR 5 m" a figure: the table keeps no scale of theirs
    for lead in ("Emissions per EUR m of sales", "Capital expenditure was EUR 5 m"):
        context = f"{lead}.\n| | 2023 | 2022 |\n| Revenue | 5,428 | 4,756 |\n"
        assert check_grounding("Revenue was 5,428 in 2023.", context).grounded
        assert not check_grounding("Revenue was EUR 5.4 billion in 2023.", context).grounded


def test_a_code_is_not_a_shorter_code_and_a_scale_letter() -> None:
    # "RMB" is the renminbi, not "RM" (the ringgit) and "b" (billions): no statement
    context = "| | 2023 | 2022 |\n| | RMB | RMB |\n| Revenue | 5,428 | 4,756 |\n"
    assert check_grounding("Revenue was RMB5,428 in 2023.", context).grounded
    assert not check_grounding("Revenue was RMB5.4 trillion in 2023.", context).grounded


@pytest.mark.parametrize("place", sorted(PLACES))
@pytest.mark.parametrize(
    ("statement", "currency"), [("Rs. crore", "Rs. "), ("₹ crore", "₹"), ("Rs. lakh", "Rs. ")]
)
def test_an_indian_scale_after_a_currency(place: str, statement: str, currency: str) -> None:
    # a crore is 10^7, a lakh 10^5 (scale_statement.singular): 5,428 crore is 54.28 billion
    context = PLACES[place].format(s=statement)
    word = statement.split()[-1]
    assert check_grounding(f"Revenue was {currency}5,428 {word} in 2023.", context).grounded
    assert not check_grounding(f"Revenue was {currency}5,428 million in 2023.", context).grounded


def test_every_word_of_a_statement_has_its_scale() -> None:
    # the statement expression's words after "in", in brackets and after a sign, each looked up
    # in the statements' scales: "$'million" was matched and had none (found by a fuzz run)
    from hybridjudge.grounding._check import _DECL_SCALE, _STATEMENT

    words = {*_STATEMENT.after_in, *_STATEMENT.in_brackets, *_STATEMENT.after_sign}
    assert words <= set(_DECL_SCALE), sorted(words - set(_DECL_SCALE))
