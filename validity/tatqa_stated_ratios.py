"""Validity of a named ratio or a share a model adds to the figure asked for: ``What was Gross
profit in 2019?`` answered ``It was 315,652 in 2019, a gross margin of 40.0%.``

A model asked for a row's figure often adds the margin it makes. TAT-QA's dev tables that hold
both rows of a ratio the English lexicon names (``named_ratios``: gross margin = gross profit /
revenue, operating margin, net margin, effective tax rate; the rows found by their labels as
the lexicon writes them, :func:`ratio_rows`) give, for each column under a year with both cells
a figure, the lookup a user asks (``What was <numerator row> in <year>?``) and the answer a
model gives to it: the numerator cell as written, then the ratio to one decimal after its name
(:func:`stated_ratio`). The right ratio must pass; three wrong ones must be flagged: ``digit``
(one more in the units digit), ``year`` (the same ratio of another column, where it differs at
one decimal) and ``name`` (the right value under another ratio's name, where no figure of the
table makes that ratio so). Both checkers in numbers mode on the same context and question, the
table laid out as ``--layout`` says. The ratio is computed here (the numerator over the
denominator, half up): TAT-QA states no margin for these rows.

A second kind, ``share`` (:func:`share_cases`): the share of a row's figure in the total row
below it (``It was 55,000 in 2019, 83.3% of total fees.``), for every row labelled ``Total ...``
and the rows right above it; wrong: ``digit``, ``row`` (another row's share in the column) and
``year`` (the row's share in another column).

Run from the repository root::

    .venv/bin/python validity/tatqa_stated_ratios.py                 # pipe rows
    .venv/bin/python validity/tatqa_stated_ratios.py --layout pdf    # a cell per line
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import defaultdict
from collections.abc import Iterator, Sequence
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
LEXICON = HERE.parent / "src/hybridjudge/grounding/data/lexicon/en.json"
VARIANTS = ("gold", "digit", "year", "name", "row")
"""The answers of both kinds, in the order printed (``name``: named ratios only, ``row``: shares)."""
_YEAR = re.compile(r"(?<!\d)((?:19|20)\d\d)(?!\d)")
_CELL = re.compile(r"\(?-?\$?\s*\d[\d,]*(?:\.\d+)?\s*\)?")

Case = tuple[int, str, str, str, str]
"""(raw document index, variant, question, answer, ratio name)."""


def ratios() -> list[tuple[str, frozenset[str], frozenset[str]]]:
    """The English lexicon's named ratios: (first name, numerator labels, denominator labels)."""
    lexicon = json.loads(LEXICON.read_text(encoding="utf-8"))
    return [
        (r["names"][0], frozenset(r["numerator"]), frozenset(r["denominator"]))
        for r in lexicon["named_ratios"]
    ]


def cell_value(cell: str) -> Decimal | None:
    """A table cell's figure (``$ 22,149`` 22149, ``(3,709 )`` -3709), ``None`` for a cell that
    is no plain figure (a percentage, ``n/a``, empty)."""
    text = cell.strip()
    if not _CELL.fullmatch(text):
        return None
    digits = re.sub(r"[^\d.]", "", text)
    value = Decimal(digits)
    return -value if text.startswith("(") or "-" in text else value


def _label(row: Sequence[str]) -> str:
    return row[0].strip().lower().rstrip(":").strip() if row else ""


def column_years(table: Sequence[Sequence[str]]) -> dict[int, int]:
    """The year heading each column (the first of the table's first three rows naming one)."""
    years: dict[int, int] = {}
    for row in table[:3]:
        for c, cell in enumerate(row):
            m = _YEAR.search(cell)
            if c and m and c not in years:
                years[c] = int(m.group())
    return years


def ratio_rows(
    table: Sequence[Sequence[str]],
) -> Iterator[tuple[str, Sequence[str], Sequence[str]]]:
    """Each named ratio whose numerator and denominator rows the table holds: (its name, the
    numerator row, the denominator row), the first row of each label."""
    by_label: dict[str, Sequence[str]] = {}
    for row in table:
        by_label.setdefault(_label(row), row)
    for name, numerators, denominators in ratios():
        top = next((by_label[x] for x in sorted(numerators) if x in by_label), None)
        bottom = next((by_label[x] for x in sorted(denominators) if x in by_label), None)
        if top is not None and bottom is not None:
            yield name, top, bottom


def _percent(top: Decimal, bottom: Decimal) -> Decimal:
    return (abs(top) / abs(bottom) * 100).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)


def _written(cell: str) -> str:
    """A table cell as a model writes it in a sentence (its blanks out: ``$ 22,149``)."""
    return re.sub(r"\s+", "", cell)


def stated_ratio(cell: str, year: int, name: str, value: Decimal) -> str:
    """The sentence a model writes: the cell as written (spaces out), then the ratio."""
    article = "an" if name[0] in "aeiou" else "a"
    return f"It was {_written(cell)} in {year}, {article} {name} of {value}%."


def cases(raw: Sequence[dict[str, Any]]) -> list[Case]:
    """The gold and wrong answers of every column of every named ratio of the tables."""
    names = [name for name, _, _ in ratios()]
    out: list[Case] = []
    for index, doc in enumerate(raw):
        table = doc["table"]["table"]
        years = column_years(table)
        for name, top, bottom in ratio_rows(table):
            values: dict[int, Decimal] = {}
            for c in range(1, min(len(top), len(bottom))):
                a, b = cell_value(top[c]), cell_value(bottom[c])
                if c in years and a is not None and b:
                    values[c] = _percent(a, b)
            for c, value in values.items():
                question = f"What was {top[0].strip().rstrip(':')} in {years[c]}?"
                wrong: list[tuple[str, Decimal, str]] = [("digit", value + 1, name)]
                other = next((v for o, v in values.items() if o != c and v != value), None)
                if other is not None:
                    wrong.append(("year", other, name))
                others = [n for n in names if n != name and n.endswith("margin")]
                if others and name.endswith("margin"):
                    wrong.append(("name", value, others[0]))
                for variant, v, n in [("gold", value, name), *wrong]:
                    answer = stated_ratio(top[c], years[c], n, v)
                    out.append((index, variant, question, answer, name))
    return out


def _figures(row: Sequence[str], years: dict[int, int]) -> dict[int, Decimal]:
    """The figures of ``row`` in the columns under a year (not percentages)."""
    out = {}
    for c in years:
        value = cell_value(row[c]) if c < len(row) else None
        if value is not None and not _YEAR.fullmatch(row[c].strip()):  # a header's year
            out[c] = value
    return out


def share_cases(raw: Sequence[dict[str, Any]]) -> list[Case]:
    """A row's figure with its share of the total row below it (``It was 55,000 in 2019, 83.3%
    of total fees.``): each table row labelled ``Total ...`` (more than the word), the rows right
    above it holding figures (up to 8, stopping at a row without or another total), each column
    under a year. Wrong: ``digit`` (one more in the units), ``row`` (another of those rows'
    share in the column), ``year`` (the row's share in another column)."""
    out: list[Case] = []
    for index, doc in enumerate(raw):
        table = doc["table"]["table"]
        years = column_years(table)
        for t, total in enumerate(table):
            label = _label(total)
            if not label.startswith("total ") or not years:
                continue
            whole = _figures(total, years)
            parts = []
            for row in reversed(table[max(0, t - 8) : t]):
                figures = _figures(row, years)
                if not figures or _label(row).startswith("total") or not _label(row):
                    break
                parts.append((row, figures))
            shares = {
                (id(row), c): _percent(v, whole[c])
                for row, figures in parts
                for c, v in figures.items()
                if whole.get(c)
            }
            for row, figures in parts:
                for c in figures:
                    share = shares.get((id(row), c))
                    if share is None or not share:
                        continue
                    question = f"What was {row[0].strip().rstrip(':')} in {years[c]}?"
                    wrong = [("digit", share + 1)]
                    for variant, same_row in (("row", False), ("year", True)):
                        # another row's share in this column, or this row's in another column
                        v = next(
                            (
                                v
                                for (r, o), v in shares.items()
                                if ((r == id(row)) == same_row)
                                and ((o == c) != same_row)
                                and v != share
                            ),
                            None,
                        )
                        if v is not None:
                            wrong.append((variant, v))
                    for variant, v in [("gold", share), *wrong]:
                        answer = f"It was {_written(row[c])} in {years[c]}, {v}% of {label}."
                        out.append((index, variant, question, answer, "share"))
    return out


KINDS = ("named ratio", "share")


def measure(layout: str = "pipe") -> tuple[dict[tuple[str, str], list[int]], list[str]]:
    """Both checkers on every case: per (kind, variant) [answers, right by hybridjudge, right by
    opengate-grounding], and hybridjudge's misses."""
    sys.path.insert(0, str(HERE))
    import tatqa  # the benchmark's loader and checkers, beside this script

    raw = tatqa.load_documents()
    passages = {d.index: d.passages for d in tatqa.build_documents(raw, layout=layout)}
    ours, theirs = tatqa.hybridjudge_checker(), tatqa.opengate_checker()
    counts: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    misses: list[str] = []
    for kind, built in zip(KINDS, (cases(raw), share_cases(raw)), strict=True):
        for index, variant, question, answer, _ in built:
            right = variant == "gold"
            ours_ok = ours(answer, passages[index], question, ())[0] != right
            cell = counts[(kind, variant)]
            cell[0] += 1
            cell[1] += ours_ok
            cell[2] += theirs(answer, passages[index], question, ()) != right
            if not ours_ok:
                misses.append(f"[{kind}/{variant}] doc {index}: {question} -> {answer}")
    return counts, misses


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--layout", default="pipe", help="table layout (validity/tatqa.py's)")
    parser.add_argument("--show", action="store_true", help="print every miss")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    counts, misses = measure(args.layout)
    print(
        f"TAT-QA dev ({args.layout} tables): a named ratio or a share stated beside the figure a "
        "lookup question asks for; share right (gold: no finding; wrong: flagged), numbers mode"
    )
    print(f"  {'kind':<12} {'answer':<8} {'n':>5} {'hybridjudge':>12} {'opengate':>9}")
    for (kind, variant), (n, hj, og) in sorted(counts.items(), key=lambda kv: _order(kv[0])):
        print(f"  {kind:<12} {variant:<8} {n:>5} {hj / n:>12.1%} {og / n:>9.1%}")
    if args.show:
        print("\n".join(misses))
    print(f"\n{time.perf_counter() - t0:.1f} s")
    return 0


def _order(key: tuple[str, str]) -> tuple[int, int]:
    return KINDS.index(key[0]), VARIANTS.index(key[1])


if __name__ == "__main__":
    raise SystemExit(main())
