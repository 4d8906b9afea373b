"""Validity of the lexicons: every golden case of ``tests/grounding/data/lexicon_golden.jsonl``.

Each line of the file is a case a language's lexicon must get right (``docs/lexicons.md`` says
how to add one with a new phrasing): a text and one of the quantities read from it (``value``:
the exact value as written, scale applied; ``dimension`` when one is given), whether it
abstains, an ``anchor`` (a required fact) and whether the text states it ``negated`` (a
negation cue before it: ``non contiene lattosio``), or whether the text, an answer, is
``grounded`` in a ``context`` (a table) for a ``question`` that names its rows and asks for an
operation in the language's words (``合计``, ``somme``), and then, where ``rules`` is given, by
which trace rule each of the answer's figures is explained (``["sum"]``: a case that a wrong
reading grounds by chance fails so). The values were worked out by hand
(``why``). The test suite runs the same file
(``tests/grounding/test_lexicon.py``); this script prints the count per language.

Run from the repository root::

    PYTHONPATH=src .venv/bin/python validity/lexicon_golden.py

It exits 1 when a case fails, after listing it.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from hybridjudge.grounding import abstains, check_grounding, parse_quantities

_KINDS = ("quantities", "abstains", "anchor", "grounded")

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "grounding" / "data"
GOLDEN_FILE = GOLDEN / "lexicon_golden.jsonl"


def load_cases(path: Path = GOLDEN_FILE) -> list[dict[str, Any]]:
    """The golden cases of ``path``, one JSON object a line; a line that is not a case (no
    ``id``, ``language``, ``text``, or not exactly one of ``quantities`` / ``abstains`` /
    ``anchor``, an ``anchor`` with its ``negated``) is an error naming the line."""
    cases = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        case = json.loads(line)
        missing = [k for k in ("id", "language", "text") if k not in case]
        kinds = [k for k in _KINDS if k in case]
        if (
            missing
            or len(kinds) != 1
            or ("anchor" in case) != ("negated" in case)
            or ("grounded" in case) != ("context" in case and "question" in case)
        ):
            raise ValueError(
                f"{path}:{number}: a case needs id, language, text and one of quantities, "
                f"abstains, anchor with negated, or grounded with context and question "
                f"(missing: {missing or 'quantities/abstains'}; given: {kinds})"
            )
        cases.append(case)
    return cases


def check_case(case: dict[str, Any]) -> str | None:
    """``None`` when the checks read ``case`` as expected, else what they read instead."""
    text = case["text"]
    if "abstains" in case:
        got = abstains(text)
        return None if got == case["abstains"] else f"abstains: {got}"
    if "grounded" in case:
        report = check_grounding(text, [case["context"]], question=case["question"])
        if report.grounded != case["grounded"]:
            return f"grounded: {report.grounded}"
        rules = [t.rule for t in report.quantities]
        return None if case.get("rules", rules) == rules else f"rules: {rules}"
    if "anchor" in case:
        report = check_grounding(text, [text], anchors=[case["anchor"]], answerable=None)
        negated = any(f.kind == "negated_anchor" for f in report.findings)
        return None if negated == case["negated"] else f"negated: {negated}"
    found = [(str(q.value), q.dimension) for q in parse_quantities(text)]
    expected = case["quantities"]
    same = len(found) == len(expected) and all(
        value == e["value"] and ("dimension" not in e or dimension == e["dimension"])
        for (value, dimension), e in zip(found, expected, strict=True)
    )
    return None if same else f"quantities: {found}"


def main() -> int:
    """Print the cases passed per language; 1 when one fails."""
    cases = load_cases()
    passed: Counter[str] = Counter()
    total: Counter[str] = Counter()
    failures = []
    for case in cases:
        total[case["language"]] += 1
        wrong = check_case(case)
        if wrong is None:
            passed[case["language"]] += 1
        else:
            failures.append(f"  {case['id']}: {case['text']!r} read as {wrong}")
    print(f"Lexicon golden cases ({GOLDEN_FILE.name})")
    print("| language | cases | passed |")
    print("|---|---|---|")
    for lang in sorted(total):
        print(f"| {lang} | {total[lang]} | {passed[lang]} |")
    print(f"| all | {sum(total.values())} | {sum(passed.values())} |")
    if failures:
        print("Failed:")
        print("\n".join(failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
