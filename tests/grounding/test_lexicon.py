"""The lexicons (src/hybridjudge/grounding/data/lexicon/): every file follows its schema, a bad
file is refused naming the file and the field, one table of scales and currencies serves every
module, and the golden cases of tests/grounding/data/lexicon_golden.jsonl (read by
validity/lexicon_golden.py too) hold."""

from __future__ import annotations

import ast
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from hybridjudge.grounding import MARKERS_BY_LANGUAGE, abstains, parse_quantities
from hybridjudge.grounding._lexicon import (
    LANGUAGES,
    Lexicon,
    LexiconError,
    alternation,
    currency_of,
    lexicon,
    lexicon_dir,
    load_lexicon,
    scales,
)
from hybridjudge.grounding._normalize import normalize_plain
from tests.support.tatqa import load_validity

golden = load_validity("lexicon_golden")
GROUNDING = Path(__file__).resolve().parents[2] / "src" / "hybridjudge" / "grounding"
REQUIRED = ("en", "de", "fr", "es", "it", "pt", "nl", "ja", "zh", "ko")


def test_the_required_languages_have_a_lexicon() -> None:
    files = {p.stem for p in lexicon_dir().glob("*.json")}
    assert set(REQUIRED) <= files
    assert files == set(LANGUAGES)  # a file not merged would be dead data


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_lexicon_file_loads_with_its_schema(language: str) -> None:
    lex = load_lexicon(lexicon_dir() / f"{language}.json")
    assert isinstance(lex, Lexicon)
    assert lex.language == language
    assert lex == lexicon(language)  # the packaged reading, built without validation
    assert lex.model_dump() == lexicon(language).model_dump()


def _write(tmp_path: Path, name: str, data: Any) -> Path:
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"language": "xx", "name": "X", "scales": {"million": "a million"}}, "scales.million"),
        ({"language": "xx", "name": "X", "scales": {}, "figure_scales": ["bn"]}, "(file)"),
        ({"language": "xx", "name": "X", "months": {"13": ["x"]}}, "(file)"),
        ({"language": "xx", "name": "X", "currencies": [{"code": "dollar"}]}, "currencies.0.code"),
        ({"language": "xx", "name": "X", "refusal": {"xx": ["no sé"]}}, "refusal"),
        ({"language": "xx", "name": "X", "refusals": {"en": ["I don't know"]}}, "(file)"),
    ],
)
def test_a_bad_lexicon_is_refused_naming_the_file_and_the_field(
    tmp_path: Path, data: dict[str, Any], field: str
) -> None:
    path = _write(tmp_path, "xx", data)
    with pytest.raises(LexiconError) as info:
        load_lexicon(path)
    assert str(path) in str(info.value)
    assert info.value.field == field
    assert info.value.code == "invalid_lexicon"
    assert isinstance(info.value, ValueError)


def test_a_lexicon_named_after_another_language_or_not_json_is_refused(tmp_path: Path) -> None:
    with pytest.raises(LexiconError, match="the file name says 'de'"):
        load_lexicon(_write(tmp_path, "de", {"language": "fr", "name": "French"}))
    broken = tmp_path / "it.json"
    broken.write_text('{"language": "it",', encoding="utf-8")
    with pytest.raises(LexiconError, match="cannot be read as JSON"):
        load_lexicon(broken)


def test_alternations_are_escaped_and_longest_first() -> None:
    assert alternation(["mrd", "mrd.", "m"]) == r"mrd\.|mrd|m"
    assert alternation(["a menos que", "si"], space=r"\s+") == r"a\s+menos\s+que|si"


def test_one_table_of_scales_and_currencies_serves_every_module() -> None:
    from hybridjudge.grounding import _check, _layout, _quantities

    table = scales()
    assert table["crore"] == 10**7
    assert table["lakh"] == 10**5
    assert table["mrd"] == 10**9
    for module_table in (_quantities._SCALES, _layout.SCALE_WORDS, _check._FOREIGN_SCALE_WORDS):
        assert all(table[w] == v for w, v in module_table.items())
    assert currency_of(("signs", "codes")) == _quantities._CURRENCY_SYMBOLS
    assert {"$", "€", "£", "¥", "₹"} == _layout.CURRENCY_SIGNS


def _code_strings(path: Path) -> list[str]:
    """The string constants of a module that are not docstrings (of a module, a class, a
    function or an attribute: a string standing as a statement)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(n.value)
        for n in ast.walk(tree)
        if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)
    }
    return [
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings
    ]


@pytest.mark.parametrize("word", ["crore", "lakh", "milliard", "millones", "miljard", "janvier"])
def test_a_scale_or_month_word_is_written_only_in_the_lexicons(word: str) -> None:
    # "crore" was written in 6 places in 3 modules: now in en.json only (and in docstrings)
    holders = [
        p.name for p in sorted(GROUNDING.glob("*.py")) if any(word in s for s in _code_strings(p))
    ]
    assert holders == []
    assert any(word in p.read_text(encoding="utf-8") for p in lexicon_dir().glob("*.json"))


@pytest.mark.parametrize("case", golden.load_cases(), ids=lambda c: c["id"])
def test_golden_case(case: dict[str, Any]) -> None:
    assert golden.check_case(case) is None


def test_every_required_language_has_golden_cases() -> None:
    assert set(REQUIRED) <= {c["language"] for c in golden.load_cases()}


def test_a_golden_case_that_fails_is_reported(tmp_path: Path) -> None:
    case = {
        "id": "x",
        "language": "de",
        "text": "1,9 Millionen Euro",
        "quantities": [{"value": "19"}],
    }
    assert golden.check_case(case) == "quantities: [('1900000', 'currency-eur')]"
    bad = tmp_path / "golden.jsonl"
    bad.write_text('{"id": "x"}\n', encoding="utf-8")
    with pytest.raises(ValueError, match="one of quantities, abstains, anchor"):
        golden.load_cases(bad)
    bad.write_text('{"id": "x", "language": "it", "text": "t", "anchor": "a"}\n', encoding="utf-8")
    with pytest.raises(ValueError, match="anchor with negated"):
        golden.load_cases(bad)  # an anchor case says whether it is negated
    case = {"id": "x", "language": "it", "text": "Contiene lattosio.", "anchor": "lattosio"}
    assert golden.check_case({**case, "negated": True}) == "negated: False"
    bad.write_text(
        '{"id": "x", "language": "fr", "text": "t", "grounded": true}\n', encoding="utf-8"
    )
    with pytest.raises(ValueError, match="grounded with context and question"):
        golden.load_cases(bad)  # a grounded case gives the table and the question
    table = "Poste | 2023\nVentes | 900\nAutres produits | 40"
    case = {"id": "x", "language": "fr", "text": "La somme est de 950.", "context": table}
    question = "Quelle est la somme des ventes et des autres produits en 2023 ?"
    assert golden.check_case({**case, "question": question, "grounded": True}) == "grounded: False"
    # grounded, but by another rule than the case names: 940 is the sum 900 + 40
    right = {**case, "text": "La somme est de 940.", "question": question, "grounded": True}
    assert golden.check_case({**right, "rules": ["sum"]}) is None
    assert golden.check_case({**right, "rules": ["as_written"]}) == "rules: ['sum']"


def test_italian_refusals_come_from_the_lexicon() -> None:
    assert "non lo so" in MARKERS_BY_LANGUAGE["it"]
    assert abstains("Non lo so.")
    assert abstains("Il contesto non specifica la data di apertura.")
    assert not abstains("La causa è sconosciuta.")  # ^sconosciuto$ is a whole answer only


def test_a_new_italian_refusal_is_one_lexicon_entry(tmp_path: Path) -> None:
    answer = "Il documento tace sulla data di apertura."
    packaged = lexicon("it").refusals["it"]
    assert not abstains(answer, packaged)
    folder = tmp_path / "lexicon"
    shutil.copytree(lexicon_dir(), folder)
    path = folder / "it.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["refusals"]["it"].append("il documento tace")  # the one entry
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert abstains(answer, load_lexicon(path).refusals["it"])
    assert parse_quantities(answer) == []


def test_the_phrases_around_a_refusal_are_written_as_the_normalised_texts_they_match() -> None:
    # _abstention matches them as written in normalised texts: German "gemäss", not "gemäß";
    # Thai SARA AM as NFKC writes it (two characters)
    for language in LANGUAGES:
        answers = lexicon(language).answers
        for field, words in (answers.model_dump() if answers else {}).items():
            wrong = [w for w in words if normalize_plain(w) != w]
            fix = [normalize_plain(w) for w in wrong]
            assert not wrong, f"{language}.json answers.{field}: write {fix}, not {wrong}"
