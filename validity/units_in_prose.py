"""Validity benchmark: a figure with a unit in running text, against a bare count of the same text.

OpenGATE's blind spot "units are ignored" has a second half beside ``500 mg`` against ``500 g``:
an answer's ``12 days`` or ``3 km`` whose number the passage holds only as a count, an age or a
rank (``three levels``, ``aged 6-12``, ``a total of 43 events``). A figure of running text writes
its unit beside it, so such a number names no quantity of that unit; only a table's cell takes
its unit from its column's heading.

**Construction** (read by this script's own expressions, independently of hybridjudge's parser),
from HaluEval's knowledge passages (Wikipedia text, ``data/halueval_qa_one-turn_data.json.gz``,
500 records, copied with its licence: see ``validity/README.md``):

- A *figure with a unit* is a number in digits followed by one of :data:`UNITS` (``13 miles``,
  ``615 ft``, ``3 weeks``, ``11.2 km``); a *count* is a whole number in digits standing alone
  (no unit, ``%``, ``$`` or digit beside it, not a year from 1800 to 2100).
- ``as written``: ``It is 13 miles.`` for each figure with a unit: right, must be grounded.
- ``count as unit``: ``It is 43 miles.``: the number of a count of the same passage with the unit
  of one of its figures (each of its first three units), where no figure of the passage is that
  number with a unit, in digits or in words (``nine weeks``): wrong, must be flagged.

A second construction (``--counts``'s table, printed too) swaps a count of one noun with
another's, as a model that mixes up two counts of a passage does:

- ``count as written``: ``It has 45 teachers.`` for each whole count in digits followed by a
  noun (:data:`_COUNTED`: the word after it, three letters or more, not one of
  :data:`NOT_NOUNS`): right, must be grounded.
- ``count swapped``: ``It has 926 teachers.``: the number of another count of the passage that
  counts another noun (``926 students``), where no count of the passage gives that number to the
  answer's noun: wrong; measured (no target: a swapped count whose number stands in the passage
  only as a unit, a year or inside a list is read as a number that stands there).

The question is not passed (HaluEval's questions hold figures of their own). opengate-grounding,
the plain peer, runs on the same answers in the same process.

Run from the repository root::

    .venv/bin/python validity/units_in_prose.py           # the rates
    .venv/bin/python validity/units_in_prose.py --show 5  # plus up to 5 misses per variant
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data" / "halueval_qa_one-turn_data.json.gz"

UNITS = (
    "mi|miles|mile|km|kilometres|kilometers|kilometre|kilometer|m|metres|meters|metre|meter"
    "|ft|feet|foot|inches|cm|mm|kg|kilograms|g|grams|lb|lbs|pounds|tonnes|tons"
    "|years|year|months|month|weeks|week|days|day|hours|hour|minutes|minute|seconds|second"
    "|acres|hectares|ha|sq mi|square miles|km2|mph|km/h|kW|MW|hp"
)
"""The unit words a figure of the construction is written with (English, as Wikipedia writes
them)."""

_WORDS = {
    w: i
    for i, w in enumerate(
        [
            *("zero", "one", "two", "three", "four", "five", "six"),
            *("seven", "eight", "nine", "ten", "eleven", "twelve"),
        ]
    )
}
_FIGURE = re.compile(rf"(?<![\w.,$])(\d[\d,]*(?:\.\d+)?)[ \u00a0]?({UNITS})(?![\w/-])")
_WORD_FIGURE = re.compile(rf"(?i)(?<![\w-])({'|'.join(_WORDS)})[ -]({UNITS})(?![\w/-])")
"""A figure with a unit written in words (``nine weeks``): no answer of the construction, but a
count of that number names it (the passage states it)."""
_COUNT = re.compile(r"(?<![\w.,$%/-])(\d+)(?![\w.,%/-]|[ \u00a0]?(?:" + UNITS + r")\b)")

NOT_NOUNS = frozenset(
    [
        "and",
        "are",
        "but",
        "for",
        "from",
        "per",
        "than",
        "the",
        "was",
        "were",
        "with",
        "more",
        "fewer",
        "less",
        "million",
        "billion",
        "thousand",
        "percent",
        "has",
        "had",
        "have",
        "that",
        "this",
        "these",
        "those",
        "its",
        "their",
        "his",
        "her",
        "our",
        "out",
        "into",
        "over",
        "under",
        "also",
        "not",
        "times",
        "plus",
        "minus",
        "through",
        "between",
        "after",
        "before",
        "above",
        "below",
        "within",
    ]
)
"""Words after a count that name no noun (read by this script's own construction)."""
_UNIT_WORDS = frozenset(UNITS.split("|"))
_COUNTED = re.compile(r"(?<![\w.,$%/-])(\d{1,7})[ ]([a-z]{3,})(?![\w-])")

TARGET_RIGHT = 0.98
TARGET_WRONG = 0.95


@dataclass(frozen=True, slots=True)
class Item:
    """One answer: the passage it is checked against, its text, its variant, right or not."""

    passage: str
    answer: str
    variant: str
    right: bool


def load_passages(path: Path = DATA) -> list[str]:
    """HaluEval's knowledge passages, each once, in the file's order."""
    seen: dict[str, None] = {}
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            if line.strip():
                seen.setdefault(json.loads(line)["knowledge"], None)
    return list(seen)


def _value(text: str) -> float:
    return float(text.replace(",", ""))


def build(passages: list[str]) -> Iterator[Item]:
    """The answers of the construction (module docstring), in passage order."""
    for passage in passages:
        figures = [(m[1], m[2]) for m in _FIGURE.finditer(passage)]
        if not figures:
            continue
        with_unit = {_value(number) for number, _ in figures}
        with_unit.update(_WORDS[m[1].lower()] for m in _WORD_FIGURE.finditer(passage))
        counts = [
            m[1]
            for m in _COUNT.finditer(passage)
            if not 1800 <= int(m[1]) <= 2100 and int(m[1]) > 0
        ]
        for number, unit in figures:
            yield Item(passage, f"It is {number} {unit}.", "as written", True)
        units = list(dict.fromkeys(unit for _, unit in figures))[:3]
        for count in dict.fromkeys(counts):
            if _value(count) in with_unit:
                continue
            for unit in units:
                yield Item(passage, f"It is {count} {unit}.", "count as unit", False)


def build_counts(passages: list[str]) -> Iterator[Item]:
    """The answers of the second construction (module docstring), in passage order: at most
    three counts a passage, each with one swap."""
    for passage in passages:
        counted = [
            (int(m[1]), m[2])
            for m in _COUNTED.finditer(passage)
            if m[2] not in NOT_NOUNS and m[2] not in _UNIT_WORDS and not 1800 <= int(m[1]) <= 2100
        ]
        for number, noun in counted[:3]:
            yield Item(passage, f"It has {number} {noun}.", "count as written", True)
            own = {n for n, w in counted if w == noun}
            others = [n for n, w in counted if w != noun and n not in own]
            if others:
                yield Item(passage, f"It has {others[0]} {noun}.", "count swapped", False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--show", type=int, default=0, help="print up to N misses per variant")
    args = parser.parse_args(argv)

    import opengate_grounding as og

    from hybridjudge.grounding import check_grounding

    items = list(build(load_passages())) + list(build_counts(load_passages()))
    rows: dict[str, list[tuple[bool, bool]]] = {}
    misses: dict[str, list[Item]] = {}
    for item in items:
        ours = check_grounding(item.answer, [item.passage]).grounded
        theirs = og.check_grounding(item.answer, [item.passage], answerable=True).grounded
        right_ours = ours if item.right else not ours
        right_theirs = theirs if item.right else not theirs
        rows.setdefault(item.variant, []).append((right_ours, right_theirs))
        if not right_ours:
            misses.setdefault(item.variant, []).append(item)
    print(f"HaluEval knowledge passages: {len(load_passages())}, answers {len(items)}")
    print(f"  {'variant':<16} {'n':>5} {'hybridjudge':>12} {'opengate':>10}  target")
    ok = True
    for variant, results in rows.items():
        n = len(results)
        ours_rate = sum(r[0] for r in results) / n
        theirs_rate = sum(r[1] for r in results) / n
        right = variant in ("as written", "count as written")
        want = TARGET_RIGHT if right else TARGET_WRONG
        what = "grounded" if right else "flagged"
        if variant == "count swapped":  # measured only (module docstring)
            print(f"  {variant:<16} {n:>5} {ours_rate:>11.1%} {theirs_rate:>9.1%}  {what}")
            continue
        met = ours_rate >= want
        ok = ok and met
        print(
            f"  {variant:<16} {n:>5} {ours_rate:>11.1%} {theirs_rate:>9.1%}  "
            f"{what} >={want:.0%} {'ok' if met else 'NO'}"
        )
    for variant, missed in misses.items():
        for item in missed[: args.show]:
            print(f"  [{variant}] {item.answer!r} <- {item.passage[:160]!r}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
