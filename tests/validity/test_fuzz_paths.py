"""validity/fuzz_paths.py: mutated real texts never crash a check, and its three paths agree.

A seeded run over TAT-QA's answers and tables (in the repository; FinanceBench is left out so
that the cases do not depend on the machine's data), in two layouts: the fast path, the full
index and a prepared checker give one verdict on every case, and none raises. The full run
(``--seconds 600``, FinanceBench's pages too) is a command in ``validity/README.md``.
"""

from __future__ import annotations

import random

import pytest

from tests.support.tatqa import load_validity

fuzz = load_validity("fuzz_paths")


@pytest.mark.parametrize(("layout", "seed"), [("pipe", 1), ("pdf", 2)])
def test_mutated_texts_never_crash_and_the_paths_agree(layout: str, seed: int) -> None:
    ran, failures = fuzz.run(800, None, seed, layout, financebench=False)
    assert ran == 800
    assert not failures, [(f.number, f.kind, f.detail[:200]) for f in failures[:5]]


def test_the_cases_reproduce_from_the_seed() -> None:
    bag = fuzz.pieces()
    text = "Revenue was $5,409 million in 2019."
    first = [fuzz.mutate(random.Random(7), text, 4, bag) for _ in range(3)]
    assert first == [fuzz.mutate(random.Random(7), text, 4, bag) for _ in range(3)]
    assert first[0] != text


def test_the_pieces_hold_the_lexicons_words() -> None:
    # the crash it found needed a scale word after a sign: "$'million"
    bag = {piece for group in fuzz.pieces() for piece in group}
    assert {"$'million", "'million", "crore", "milliards", "(in thousands)"} <= bag
