"""The trace-rule tables of the validity scripts (issue 33, point 3).

Every figure hybridjudge traces names the rule that explained it
(:data:`hybridjudge.grounding.TRACE_RULES`). A validity script counts, per rule, the figures it
explained in each group of answers: for right answers, how much each rule carries; for wrong
ones (a perturbed figure, an answer labelled incorrect) that it traced, where a rule is too
loose. ``tatqa.py``, ``financebench.py`` and ``financebench_pdfs.py`` print such a table; this
module, imported from beside them, is their one implementation.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any


def rules_of(traces: Iterable[Any], span: tuple[int, int] | None = None) -> Counter[str]:
    """How many of ``traces`` (a report's ``quantities``) each rule explained; with ``span``
    (``(start, end)`` in the answer), only the figures that overlap it (a perturbed figure)."""
    out: Counter[str] = Counter()
    for t in traces:
        if t.rule is None:
            continue
        if span is not None and not (t.quantity.span[0] < span[1] and span[0] < t.quantity.span[1]):
            continue
        out[t.rule] += 1
    return out


def format_rule_table(title: str, columns: Mapping[str, Counter[str]]) -> str:
    """A table of figures per rule (rows, in the vocabulary's order; rules with no figure in
    any column left out) and group of answers (columns), with the columns' totals."""
    from hybridjudge.grounding import TRACE_RULES

    names = list(columns)
    width = max(len(rule) for rule in TRACE_RULES)
    cells = [max(len(name), 6) for name in names]
    head = "".join(f" {name:>{w}}" for name, w in zip(names, cells, strict=True))
    lines = [title, f"  {'rule':<{width}}{head}"]
    for rule in TRACE_RULES:
        counts = [columns[name][rule] for name in names]
        if any(counts):
            row = "".join(f" {n:>{w},}" for n, w in zip(counts, cells, strict=True))
            lines.append(f"  {rule:<{width}}{row}")
    totals = "".join(
        f" {sum(columns[name].values()):>{w},}" for name, w in zip(names, cells, strict=True)
    )
    lines.append(f"  {'all':<{width}}{totals}")
    return "\n".join(lines)
