"""Validity of approximations: TAT-QA's gold answers rounded as a model rounds them.

A model often writes ``about $16,000 thousand`` for 16,458 thousand or ``approximately 2,490%``
for 2,487.08%. This script takes the gold answers of ``validity/tatqa.py`` that are one figure
(no year, no count) and that hybridjudge grounds as written, rounds each to 1, 2 and 3
significant digits (half up), writes it after ``about`` or ``approximately`` (``It was about
$16,000 thousand.``), and prints the share still grounded, by answer type (numbers mode, the
question given). A rounding that leaves the figure as it was is skipped. The random fabricated
numbers of ``validity/tatqa.py`` (no question given), and wrong arithmetic answers (the gold 7% to
50% off, the question given), rounded and written alike, show the other side: the share that
passes.

Only gold answers are measured: a perturbed figure rounded may be right again. What the rules
are (docs/grounding.md, "Numbers"): an approximation of one significant digit lies within 2.5%
of a context figure; of two or more, it rounds to the context figure at its last non-zero
digit; a derived figure is rounded at its last non-zero digit only when that keeps three or more
significant digits, and is then traced to neighbouring operands or the question's figures only
(an invented round figure is not explained by chance derivations), so arithmetic answers rounded
to one or two digits are mostly flagged.

Run from the repository root::

    .venv/bin/python validity/tatqa_approximations.py           # every 2nd context (~1 min)
    .venv/bin/python validity/tatqa_approximations.py --every 1
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from decimal import ROUND_HALF_UP, Decimal
from math import floor, log10
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_ONE_FIGURE = re.compile(r"(-?\$?)(\d[\d,]*(?:\.\d+)?)( (?:thousand|million|billion))?(%?)")
FORMS = (("about", 1), ("about", 2), ("approximately", 3))
"""(word, significant digits) of each approximation measured."""


def approximated(answer: str, word: str, digits: int) -> str | None:
    """``answer`` (one figure, with its sign, ``$``, scale word or ``%``) rounded half up to
    ``digits`` significant digits after ``word``, in a sentence; ``None`` for an answer of
    another shape, a year, a zero, or a figure the rounding leaves as it was."""
    m = _ONE_FIGURE.fullmatch(answer)
    if m is None:
        return None
    value = Decimal(m[2].replace(",", ""))
    if value == 0 or ("." not in m[2] and 1900 <= value <= 2100):
        return None
    exponent = floor(log10(abs(value)))
    step = Decimal(1).scaleb(exponent - digits + 1)
    rounded = (value / step).quantize(Decimal(1), rounding=ROUND_HALF_UP) * step
    if rounded == value:
        return None
    text = f"{rounded:,.{max(0, digits - 1 - exponent)}f}"
    return f"It was {word} {m[1]}{text}{m[3] or ''}{m[4]}."


def _scaled(answer: str, rng: random.Random) -> str | None:
    """``answer`` (one figure, as :func:`approximated` reads it) times a random factor 7% to 50%
    away from 1, to two decimals; ``None`` for an answer of another shape."""
    m = _ONE_FIGURE.fullmatch(answer)
    if m is None:
        return None
    factor = rng.choice((rng.uniform(0.5, 0.93), rng.uniform(1.07, 1.5)))
    value = Decimal(m[2].replace(",", "")) * Decimal(str(round(factor, 4)))
    return f"{m[1]}{value:.2f}{m[3] or ''}{m[4]}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--every", type=int, default=2, help="every Nth context (default 2)")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT / "validity"))
    import tatqa  # the benchmark's loader and checker, beside this script

    docs = tatqa.build_documents(tatqa.load_documents(), every=args.every)
    ours = tatqa.hybridjudge_checker()
    docs_by_index = {doc.index: doc for doc in docs}
    print(f"TAT-QA dev, one context in {args.every}: gold answers rounded (numbers mode)")
    print(f"  {'form':<36} {'type':<12} {'n':>5}  grounded")
    for word, digits in FORMS:
        counts: dict[str, list[int]] = {}
        for doc in docs:
            for it in doc.items:
                if it.variant != "gold" or it.answer_type == "count":
                    continue
                phrased = approximated(it.answer, word, digits)
                if phrased is None or ours(it.answer, doc.passages, it.question, ())[0]:
                    continue
                cell = counts.setdefault(it.answer_type, [0, 0])
                cell[0] += 1
                cell[1] += not ours(phrased, doc.passages, it.question, ())[0]
        for kind, (n, kept) in sorted(counts.items()):
            form = f"{word}, {digits} significant digit{'s' if digits > 1 else ''}"
            print(f"  {form:<36} {kind:<12} {n:>5}  {kept / n:7.1%}")
    print("wrong arithmetic answers (the gold times 0.5-0.93 or 1.07-1.5), rounded alike, the")
    print("question given: share that passes")
    for word, digits in FORMS:
        n = passed = 0
        for doc in docs:
            rng = random.Random(f"{tatqa.SEED}:wrong:{doc.index}")
            for it in doc.items:
                if it.variant != "gold" or it.answer_type != "arithmetic":
                    continue
                wrong = _scaled(it.answer, rng)
                phrased = approximated(wrong, word, digits) if wrong is not None else None
                if phrased is None or ours(it.answer, doc.passages, it.question, ())[0]:
                    continue
                n += 1
                passed += not ours(phrased, doc.passages, it.question, ())[0]
        form = f"{word}, {digits} significant digit{'s' if digits > 1 else ''}"
        print(f"  {form:<36} {'wrong':<12} {n:>5}  {passed / n:7.1%}")
    print("random fabricated numbers (tatqa.py's) rounded alike, no question: share that passes")
    for word, digits in FORMS:
        n = passed = 0
        for index, text in tatqa.fabricated_numbers(docs):
            phrased = approximated(text, word, digits)
            if phrased is None:
                continue
            n += 1
            passed += not ours(phrased, docs_by_index[index].passages, "", ())[0]
        form = f"{word}, {digits} significant digit{'s' if digits > 1 else ''}"
        print(f"  {form:<36} {'fabricated':<12} {n:>5}  {passed / n:7.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
