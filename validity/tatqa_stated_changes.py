"""Validity of a change a model adds to the figure asked for: ``What was X in 2019?`` answered
``It was 302 in 2019, up 104.05% from 2018.``

A model asked for a row's figure often adds how it moved. TAT-QA's dev split asks for such
changes directly (``What was the percentage change in Total operating income in 2019 from
2018?``, derivation ``(302-148)/148``; a difference of percentages is a difference: ``40.0-50.9``,
``-10.9%``); this script turns each into the lookup question a user
asks (``What was Total operating income in 2019?``, :func:`lookup_question`) and writes the
answer a model gives to it: the newer operand of TAT-QA's derivation as the figure asked for,
then the change in words, ``up`` or ``down`` by its sign (:func:`stated_change`). The gold
change (TAT-QA's answer as ``validity/tatqa.py`` writes it) must pass; its ``digit``, ``x10``
and ``sign`` perturbations (the sign flipped is the other direction: ``down 104.05%``) must be
flagged. A third kind, ``mean``: TAT-QA's average questions over two years (``What is the
average net income for 2018 and 2019?``, derivation ``(a + b) / 2``) turned into the lookup of
the newer year and answered ``In 2019, the average over 2018 and 2019 was 88.45.``
(:func:`mean_question`, :func:`stated_mean`). Only differences (``newer - older``) and percent
changes (``(newer - older) / older``)
of questions naming two years, and no change of zero (no direction), are used; both checkers run in numbers mode (no anchors) on the
same context and question, the table laid out as ``--layout`` says.

Run from the repository root::

    .venv/bin/python validity/tatqa_stated_changes.py                 # pipe rows
    .venv/bin/python validity/tatqa_stated_changes.py --layout pdf    # a cell per line
    .venv/bin/python validity/tatqa_stated_changes.py --show 5        # plus misses
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
VARIANTS = ("gold", "digit", "x10", "sign")
"""The answers measured: the gold change and its perturbations (``validity/tatqa.py``)."""

_YEAR = r"((?:19|20)\d\d)"
_LOOKUP = re.compile(
    r"what (?:is|was) the (?:year on year |annual )?(?:percentage |percent )?"
    r"(?:change|increase|decrease) (?:in|of) (?P<what>.+?) "
    rf"(?:(?:in|for) {_YEAR} (?:from|compared to|compared with) {_YEAR}"
    rf"|(?:from|between) {_YEAR} (?:to|and) {_YEAR})\s*\?",
    re.IGNORECASE,
)
_PCH = re.compile(
    r"\(\s*(?P<newer>.+?)\s*-\s*(?P<older>.+?)\s*\)\s*/\s*(?P<base>.+?)(?:\s*\*\s*100)?"
)
_OPERAND = re.compile(r"-?\$?\d[\d,]*(?:\.\d+)?")
_NONZERO = re.compile(r"[1-9]")
_SCALE = re.compile(r" (thousand|million|billion)$")


def lookup_question(question: str) -> tuple[str, int, int] | None:
    """The question asking for the row's newer figure instead of its change (``What was the
    percentage change in X in 2019 from 2018?`` -> ``What was X in 2019?``), with the newer
    and the older year; ``None`` for a question of another shape."""
    m = _LOOKUP.fullmatch(question.strip())
    if m is None:
        return None
    years = [int(y) for y in m.groups()[1:] if y is not None]
    newer, older = max(years), min(years)
    if newer == older:
        return None
    return f"What was {m['what']} in {newer}?", newer, older


_MEAN_LOOKUP = re.compile(
    r"what (?:is|was) the (?:company's )?average (?P<what>.+?) "
    rf"(?:for|between|in|from) {_YEAR} (?:and|to) {_YEAR}\s*\?",
    re.IGNORECASE,
)
_MEAN = re.compile(r"\(\s*-?\$?[\d,.]+\s*\+\s*-?\$?[\d,.]+\s*\)\s*/\s*2")


def mean_question(question: str, derivation: str) -> tuple[str, int, int] | None:
    """The question asking for the row's newer figure instead of the mean of two years
    (``What is the average net income for 2018 and 2019?`` -> ``What was net income in
    2019?``, TAT-QA's derivation ``(a + b) / 2``), with the newer and the older year; ``None``
    for a question or derivation of another shape."""
    m = _MEAN_LOOKUP.fullmatch(question.strip())
    if m is None or not _MEAN.fullmatch(derivation.strip()):
        return None
    years = sorted({int(m[2]), int(m[3])})
    if len(years) != 2:
        return None
    return f"What was {m['what']} in {years[1]}?", years[1], years[0]


def stated_mean(answer: str, year: int, older: int) -> str:
    """The sentence a model writes for the mean beside the figure asked for."""
    return f"In {year}, the average over {older} and {year} was {answer}."


def newer_operand(derivation: str) -> tuple[str, str] | None:
    """The kind of TAT-QA's derivation, ``difference`` (``302-148``) or ``percent change``
    (``(302-148)/148``), and its newer operand as written (``302``, ``$788,948``); ``None`` for
    another derivation."""
    text = derivation.strip()
    m = _PCH.fullmatch(text)
    if m is not None:
        if m["older"].strip("() ") != m["base"].strip("() "):
            return None
        kind, newer = "percent change", m["newer"]
    else:
        parts = [p.strip() for p in re.split(r"(?<=\d)\s*-\s*(?=[-$\d])", text)]
        if len(parts) != 2:
            return None
        kind, newer = "difference", parts[0]
    return (kind, newer) if _OPERAND.fullmatch(newer) else None


def stated_change(answer: str, newer: str, year: int, older: int) -> str:
    """The sentence a model writes: the newer figure (with the change's scale word, if any),
    then the change (``answer``, TAT-QA's as ``validity/tatqa.py`` writes it) as ``up`` or
    ``down`` by its sign, its magnitude as written."""
    scale = _SCALE.search(answer)
    figure = newer + (scale.group() if scale else "")
    down = answer.startswith("-")
    magnitude = answer[1:] if down else answer
    return f"It was {figure} in {year}, {'down' if down else 'up'} {magnitude} from {older}."


Counts = dict[tuple[str, str], list[int]]
"""Per (kind, answer variant): [answers, right by hybridjudge, right by opengate-grounding]."""


def measure(layout: str = "pipe", show: int = 0) -> tuple[Counts, dict[tuple[str, str], list[str]]]:
    """Both checkers on every stated change of TAT-QA's dev split, the table laid out as
    ``layout``: the counts, and up to ``show`` misses of hybridjudge per row."""
    sys.path.insert(0, str(HERE))
    import tatqa  # the benchmark's loader and checkers, beside this script

    raw = tatqa.load_documents()
    derivations = {q["uid"]: str(q.get("derivation") or "") for d in raw for q in d["questions"]}
    docs = tatqa.build_documents(raw, layout=layout)
    ours, theirs = tatqa.hybridjudge_checker(), tatqa.opengate_checker()
    counts: Counts = defaultdict(lambda: [0, 0, 0])
    misses: dict[tuple[str, str], list[str]] = defaultdict(list)
    for doc in docs:
        golds = {it.question_uid: it.answer for it in doc.items if it.variant == "gold"}
        for it in doc.items:
            if it.answer_type != "arithmetic" or it.variant not in VARIANTS:
                continue
            if it.variant != "gold" and (it.base != "gold" or it.answer == golds[it.question_uid]):
                continue  # a perturbation of working shown, or one that is the gold answer
            derivation = derivations.get(it.question_uid, "")
            averaged = mean_question(it.question, derivation)
            asked = lookup_question(it.question)
            operand = newer_operand(derivation)
            if averaged is not None:
                question, year, older = averaged
                kind, answer = "mean", stated_mean(it.answer, year, older)
            elif asked is None or operand is None or not _NONZERO.search(golds[it.question_uid]):
                continue  # another shape, or no change (a zero has no direction)
            else:
                question, year, older = asked
                kind, newer = operand
                answer = stated_change(it.answer, newer, year, older)
            right = it.variant == "gold"
            ours_ok = ours(answer, doc.passages, question, ())[0] != right
            cell = counts[(kind, it.variant)]
            cell[0] += 1
            cell[1] += ours_ok
            cell[2] += theirs(answer, doc.passages, question, ()) != right
            if not ours_ok and len(misses[(kind, it.variant)]) < show:
                misses[(kind, it.variant)].append(f"{question} -> {answer}")
    return counts, misses


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--layout", default="pipe", help="table layout (validity/tatqa.py's)")
    parser.add_argument("--show", type=int, default=0, help="print up to N misses per row")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    counts, misses = measure(args.layout, args.show)
    print(
        f"TAT-QA dev ({args.layout} tables): changes stated beside the figure a lookup question "
        "asks for; share right (gold: no finding; perturbed: flagged), numbers mode"
    )
    print(f"  {'kind':<16} {'answer':<8} {'n':>5} {'hybridjudge':>12} {'opengate':>9}")
    for kind in ("difference", "percent change", "mean"):
        for variant in VARIANTS:
            n, hj, og = counts[(kind, variant)]
            if n:
                print(f"  {kind:<16} {variant:<8} {n:>5} {hj / n:>12.1%} {og / n:>9.1%}")
            for line in misses[(kind, variant)]:
                print(f"      miss: {line}")
    print(f"\n{time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
