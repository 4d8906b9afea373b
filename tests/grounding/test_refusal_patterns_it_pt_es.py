"""The generated subject x verb refusals of the Italian, Portuguese and Spanish lexicons, written
as phrase patterns (docs/lexicons.md "Phrase patterns"): each pattern writes out its block of
markers in the order the list had them, a marker already listed before it keeping its place."""

from __future__ import annotations

import json

import pytest

from hybridjudge.grounding._lexicon import expand_phrase, lexicon, lexicon_dir, load_lexicon


def _raw_refusals(language: str) -> list[str]:
    raw = json.loads((lexicon_dir() / f"{language}.json").read_text(encoding="utf-8"))
    refusals: list[str] = raw["refusals"][language]
    return refusals


def _pattern(language: str, opening: str) -> str:
    """The one refusal pattern of ``language`` that begins with ``opening``."""
    found = [m for m in _raw_refusals(language) if m.startswith(opening) and "{" in m]
    assert len(found) == 1, found
    return found[0]


def _run(language: str, first: str, length: int) -> list[str]:
    """``length`` markers of the packaged reading, from ``first`` on."""
    markers = list(lexicon(language).refusals[language])
    start = markers.index(first)
    return markers[start : start + length]


@pytest.mark.parametrize(("language", "patterns"), [("it", 4), ("pt", 3), ("es", 10)])
def test_the_generated_blocks_are_patterns_read_the_same_both_ways(
    language: str, patterns: int
) -> None:
    raw = _raw_refusals(language)
    assert sum("{" in m for m in raw) == patterns
    packaged = lexicon(language).refusals
    assert load_lexicon(lexicon_dir() / f"{language}.json").refusals == packaged
    assert len(packaged[language]) == {"it": 354, "pt": 500, "es": 934}[language]


def test_the_italian_patterns_write_out_the_block_in_order() -> None:
    # 12 subjects x 10 verbs, each without and with a gap: 240, of which 3 are listed before
    subjects = _pattern("it", "{il documento|i documenti|")
    phrases = expand_phrase(subjects)
    assert len(phrases) == 240
    assert phrases[:4] == [
        "il documento non menziona",
        "il documento ... non menziona",
        "il documento non menzionano",
        "il documento ... non menzionano",
    ]
    assert phrases[-2:] == ["la scheda non precisano", "la scheda ... non precisano"]
    markers = list(lexicon("it").refusals["it"])
    assert markers.index("il testo non specifica") == 27  # keeps its earlier place
    assert markers.index("il contesto non menziona") == 25
    assert markers.index("il documento non menziona") == 59
    assert _run("it", "il testo non indicano", 5) == [
        "il testo non indicano",
        "il testo ... non indicano",
        "il testo ... non specifica",
        "il testo non specificano",
        "il testo ... non specificano",
    ]
    assert _run("it", "l'etichetta ... non precisano", 3) == [
        "l'etichetta ... non precisano",
        "il contesto ... non menziona",
        "il contesto non menzionano",
    ]
    assert _run("it", "la scheda ... non precisano", 3) == [
        "la scheda ... non precisano",
        "non compare nel documento",
        "non compare nei documenti",
    ]
    assert _run("it", "non figurano nel foglietto", 3) == [
        "non figurano nel foglietto",
        "non figurano nelle condizioni",
        "un dato ... non c'è",
    ]
    assert markers.index("non figurano nelle condizioni") == 335


def test_the_portuguese_patterns_write_out_the_block_in_order() -> None:
    # 12 subjects x 12 verbs, each without and with a gap: 288, of which 6 are listed before
    phrases = expand_phrase(_pattern("pt", "{o documento|os documentos|"))
    assert len(phrases) == 288
    assert phrases[-3:] == ["a ficha ... não traz", "a ficha não trazem", "a ficha ... não trazem"]
    markers = list(lexicon("pt").refusals["pt"])
    assert markers.index("o documento não menciona") == 7
    assert markers.index("o documento não refere") == 60
    assert _run("pt", "o documento não refere", 7) == [
        "o documento não refere",
        "o documento ... não refere",
        "o documento não referem",
        "o documento ... não referem",
        "o documento ... não menciona",
        "o documento não mencionam",
        "o documento ... não mencionam",
    ]
    assert expand_phrase(_pattern("pt", "não {aparece|"))[:2] == [
        "não aparece no documento",
        "não aparece nos documentos",
    ]
    assert _run("pt", "a ficha ... não trazem", 3) == [
        "a ficha ... não trazem",
        "não aparece no documento",
        "não aparece nos documentos",
    ]
    assert _run("pt", "não figuram no extrato", 3) == [
        "não figuram no extrato",
        "não figuram nas condições",
        "os destaques não traz",
    ]
    assert markers.index("não figuram nas condições") == 381


def test_the_spanish_patterns_write_out_the_blocks_in_order() -> None:
    markers = list(lexicon("es").refusals["es"])
    assert _run("es", "no se menciona", 3) == [
        "no se menciona",
        "no se proporciona información",
        "no se proporciona informaciones",
    ]
    assert _run("es", "no se proporcionan en la información", 3) == [
        "no se proporcionan en la información",
        "no se proporcionan en las fuentes",
        "no se proporciona.",
    ]
    # 14 singular subjects, then 9 plural ones, x 17 predicates
    singular = expand_phrase(_pattern("es", "{el texto|el documento|el informe|"))
    assert len(singular) == 14 * 17
    assert singular[:2] == ["el texto no menciona", "el texto no especifica"]
    assert singular[-2:] == ["la documentación no aborda", "la documentación no trata"]
    assert markers.index("el texto no menciona") == 91
    assert _run("es", "los textos no tratan", 2) == [
        "los textos no tratan",
        "los informes no mencionan",
    ]
    assert _run("es", "la documentación no trata", 2) == [
        "la documentación no trata",
        "los textos no mencionan",
    ]
    assert _run("es", "los textos proporcionados no tratan", 2) == [
        "los textos proporcionados no tratan",
        "nada en el contexto aborda",
    ]
    assert markers.index("los textos proporcionados no tratan") == 481
    assert _run("es", "nada en el contexto responde", 3) == [
        "nada en el contexto responde",
        "nada en el texto aborda",
        "nada en el texto menciona",
    ]
    assert _run("es", "nada en los documentos responde", 2) == [
        "nada en los documentos responde",
        "no se puede determinar",
    ]
    # "no puedo determinar" is listed before: the pattern's copy keeps that place
    assert markers.index("no puedo determinar") == 61
    assert _run("es", "no es posible concluir", 3) == [
        "no es posible concluir",
        "no puedo saber",
        "no puedo precisar",
    ]
    assert _run("es", "no se puede concluir", 3) == [
        "no se puede concluir",
        "no se pueden determinar",
        "no se pueden saber",
    ]
    assert _run("es", "imposible concluir", 6) == [
        "imposible concluir",
        "no pude encontrar",
        "no pude localizar",
        "no pude identificar",
        "no pude hallar",
        "no puedo encontrar",
    ]
    assert _run("es", "no he logrado hallar", 2) == [
        "no he logrado hallar",
        "no fue posible encontrar",
    ]
    assert _run("es", "no está claro a partir del", 6) == [
        "no está claro a partir del",
        "no está claro a partir de los",
        "no está claro en el texto",
        "no está claro en el contexto",
        "no está claro en los documentos",
        "no queda claro a partir del",
    ]
    assert _run("es", "no fue posible hallar", 2) == [
        "no fue posible hallar",
        "no está claro a partir del",
    ]
    assert _run("es", "no resulta claro en los documentos", 2) == [
        "no resulta claro en los documentos",
        "no encontré",
    ]
    # 12 subjects x 10 verbs, each without and with a gap
    gapped = expand_phrase(_pattern("es", "{el documento|los documentos|el texto|la tabla|"))
    assert len(gapped) == 240
    assert _run("es", "no es posible indicar", 7) == [
        "no es posible indicar",
        "el documento ... no indica",
        "el documento no indican",
        "el documento ... no indican",
        "el documento ... no menciona",
        "el documento no mencionan",
        "el documento ... no mencionan",
    ]
    assert _run("es", "la ficha ... no recogen", 3) == [
        "la ficha ... no recogen",
        "no figura en el documento",
        "no figura en los documentos",
    ]
    assert _run("es", "no aparecen en el prospecto", 3) == [
        "no aparecen en el prospecto",
        "no aparecen en las condiciones",
        "en la tarifa no aparece",
    ]
    assert markers.index("no aparecen en las condiciones") == 873
