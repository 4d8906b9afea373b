"""The phrase-pattern syntax of the verdict fields of the lexicons (``_lexicon.phrase_pattern``,
docs/lexicons.md "Phrase patterns"): the expressions it writes, what they match, and the
malformed patterns a lexicon is refused for, naming the file and the field."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from hybridjudge.grounding._lexicon import (
    LANGUAGES,
    SUBSTRING_LANGUAGES,
    LexiconError,
    expand_phrase,
    lexicon,
    lexicon_dir,
    load_lexicon,
    phrase_pattern,
)
from hybridjudge.grounding._lexicon import _constructed as constructed_lexicon

VERDICT_FIELDS = ("weak_verdicts", "strong_verdicts", "unable", "unable_answer", "unable_say")


@pytest.mark.parametrize(
    ("pattern", "regex"),
    [
        ("je ne sais pas", r"je\s+ne\s+sais\s+pas"),
        ("can't", "can't"),  # an apostrophe is text
        ("{a|b c}", r"(?:a|b\s+c)"),
        ("answer[ {this|it}]", r"answer(?:\s+(?:this|it))?"),
        ("sûr[e]", "sûr(?:e)?"),
        ("kann[ {daher|also}]* nicht", r"kann(?:\s+(?:daher|also))*\s+nicht"),
        ("{i|we}{ am|'m} unable to", r"(?:i|we)(?:\s+am|'m)\s+unable\s+to"),
        (
            "no {puedo|se puede} {responder|{dar|ofrecer} una respuesta}",
            r"no\s+(?:puedo|se\s+puede)\s+(?:responder|(?:dar|ofrecer)\s+una\s+respuesta)",
        ),
        ("a  b", r"a\s+b"),  # a run of spaces is one space
        ("n.a. (1+1)?", r"n\.a\.\s+\(1\+1\)\?"),  # everything else is escaped
    ],
)
def test_the_expression_a_pattern_writes(pattern: str, regex: str) -> None:
    assert phrase_pattern(pattern) == regex


def test_a_space_is_any_spacing_or_none_in_the_substring_languages() -> None:
    assert phrase_pattern("알 수 없습니다", substring=True) == r"알\s*수\s*없습니다"
    assert re.fullmatch(phrase_pattern("알 수 없습니다", substring=True), "알수 없습니다")
    assert not re.fullmatch(phrase_pattern("a b"), "ab")


@pytest.mark.parametrize(
    ("pattern", "matches", "misses"),
    [
        (
            "{the|this} question {can't|cannot} be answered",
            ["the question can't be answered", "this  question\ncannot be answered"],
            ["question cannot be answered", "the question can be answered"],
        ),
        (
            "{kann ich|ich kann}[ {die|diese} frage][ {daher|leider}]* nicht beantworten",
            [
                "ich kann nicht beantworten",
                "kann ich die frage daher leider nicht beantworten",
                "ich kann leider leider nicht beantworten",
            ],
            ["ich kann frage nicht beantworten", "ich kann daherleider nicht beantworten"],
        ),
        (
            "no[ lo] sé",
            ["no sé", "no lo sé"],
            ["nolo sé", "no lo  lo sé"],
        ),
    ],
)
def test_what_a_pattern_matches(pattern: str, matches: list[str], misses: list[str]) -> None:
    compiled = re.compile(phrase_pattern(pattern))
    assert [t for t in matches if not compiled.fullmatch(t)] == []
    assert [t for t in misses if compiled.fullmatch(t)] == []


def test_choices_are_tried_in_the_order_written() -> None:
    # as an engine that tries branches one by one: the first that leads to a match wins
    assert re.match(phrase_pattern("{a|ab}"), "ab").group() == "a"  # type: ignore[union-attr]
    assert re.match(phrase_pattern("{ab|a}"), "ab").group() == "ab"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("pattern", "why"),
    [
        ("", "nothing written"),
        ("{a|b", "'{' is not closed"),
        ("[a", "'[' is not closed"),
        ("a}", "'}' out of place"),
        ("a]", "']' out of place"),
        ("a|b", "'|' out of place"),
        ("[a|b]", "'|' out of place"),
        ("{a|}", "an empty alternative"),
        ("{}", "an empty alternative"),
        ("x []", "an empty alternative"),
        ("a*", "'*' out of place (not after ']')"),
        ("{a}*", "'*' out of place"),
    ],
)
def test_a_malformed_pattern_is_refused_saying_where(pattern: str, why: str) -> None:
    with pytest.raises(ValueError, match=re.escape(why)):
        phrase_pattern(pattern)


@pytest.mark.parametrize("field", VERDICT_FIELDS)
def test_a_lexicon_with_a_malformed_pattern_is_refused_naming_the_file_and_the_field(
    tmp_path: Path, field: str
) -> None:
    path = tmp_path / "it.json"
    data = {"language": "it", "name": "Italian", "answers": {field: ["non {posso|possiamo"]}}
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(LexiconError) as info:
        load_lexicon(path)
    assert info.value.field == f"answers.{field}"
    assert str(path) in str(info.value)
    assert "'{' is not closed" in str(info.value)
    assert "non {posso|possiamo" in str(info.value)


def test_every_packaged_verdict_pattern_compiles() -> None:
    count = 0
    for language in LANGUAGES:
        answers = lexicon(language).answers
        substring = language in SUBSTRING_LANGUAGES
        for field in VERDICT_FIELDS:
            for pattern in getattr(answers, field, ()) if answers else ():
                re.compile(phrase_pattern(pattern, substring=substring))
                count += 1
    assert count >= 30


# --- Refusals written as phrase patterns (written out into plain markers when read) ---------


@pytest.mark.parametrize(
    ("pattern", "phrases"),
    [
        ("je ne sais pas", ["je ne sais pas"]),
        ("^inconnu$", ["^inconnu$"]),
        ("der kontext nennt ... nicht.", ["der kontext nennt ... nicht."]),  # a gap stays
        (
            "le {texte|rapport}[ fourni] ne précise pas",
            [
                "le texte ne précise pas",
                "le texte fourni ne précise pas",
                "le rapport ne précise pas",
                "le rapport fourni ne précise pas",
            ],
        ),
        # nested, and duplicates dropped in the order written
        (
            "no {puedo|{puedo|podemos} dar} responder",
            ["no puedo responder", "no puedo dar responder", "no podemos dar responder"],
        ),
    ],
)
def test_a_refusal_pattern_is_written_out_in_order(pattern: str, phrases: list[str]) -> None:
    assert expand_phrase(pattern) == phrases


@pytest.mark.parametrize(
    ("pattern", "why"),
    [
        ("a [b]* c", "no finite expansion"),
        ("a {b|c", "'{' is not closed"),
        ("{a|b|c|d} {a|b|c|d} {a|b|c|d} {a|b|c|d} {a|b|c|d} {a|b|c|d} {a|b|c|d}", "more than"),
    ],
)
def test_a_refusal_pattern_without_a_finite_writing_is_refused(pattern: str, why: str) -> None:
    with pytest.raises(ValueError, match=re.escape(why)):
        expand_phrase(pattern)


def test_a_lexicon_file_writes_its_refusal_patterns_out_both_ways(tmp_path: Path) -> None:
    # the validated reading (load_lexicon: a file of your own) and the packaged one (lexicon:
    # read without validation) write the same markers
    raw = {
        "language": "fr",
        "name": "French",
        "refusals": {"fr": ["le {texte|rapport} ne précise pas", "le texte ne précise pas"]},
    }
    path = tmp_path / "fr.json"
    path.write_text(json.dumps(raw, ensure_ascii=False), encoding="utf-8")
    expected = ("le texte ne précise pas", "le rapport ne précise pas")
    assert load_lexicon(path).refusals == {"fr": expected}
    assert constructed_lexicon(raw).refusals == {"fr": expected}
    bad = dict(raw, refusals={"fr": ["le {texte|rapport ne précise pas"]})
    path.write_text(json.dumps(bad, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(LexiconError, match="is not closed"):
        load_lexicon(path)


def test_the_french_lexicon_writes_its_document_refusals_as_two_patterns() -> None:
    # 410 markers (11 subjects x 20 verbs in the singular, 10 x 19 in the plural) were a list;
    # two patterns write them out in the same order (docs/lexicons.md)
    raw = json.loads((lexicon_dir() / "fr.json").read_text(encoding="utf-8"))
    patterns = [m for m in raw["refusals"]["fr"] if m.startswith("{")]
    assert len(patterns) >= 2
    markers = lexicon("fr").refusals["fr"]
    assert "la documentation ne permet pas de savoir" in markers
    assert "les textes fournis ne permettent pas de savoir" in markers
    assert markers.index("le texte n'indique pas") + 409 == markers.index(
        "les textes fournis ne permettent pas de savoir"
    )
