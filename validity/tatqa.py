"""Validity benchmark: hybridjudge's grounding checks on TAT-QA, beside opengate-grounding.

TAT-QA's dev split (Zhu et al., ACL 2021; data CC BY 4.0, see ``validity/README.md``) holds 278
financial-report contexts (a table plus paragraphs) and 1,668 questions, each answer with its type
(span, multi-span, arithmetic, count), its ``derivation`` and its ``scale``. From it this script
builds, deterministically (seeded), the answers a user's model would write:

* **gold** answers: the value with its scale word and currency (``"$1,496.5 million"``), lists
  for multi-span answers, arithmetic answers as the computed value and, separately, with the
  working shown (``"(44.1 - 56.7) / 56.7 × 100 = -22.22%"``), counts with what was counted.
  These are correct, so a good check reports **no finding**.
* **perturbed** answers: the same with one number changed: one digit off by one (``digit``),
  scaled by 10 (``x10``), sign flipped (``sign``), or replaced by a different figure of the same
  table (``swap``). These are wrong, so a good check **flags** them. ``digit``, ``x10`` and
  ``sign`` never produce a figure that is written in the context (such candidates are skipped), so
  number traceability alone can catch them; ``swap`` puts a context figure in the answer, which
  only an anchor (the gold value as a required fact) can catch.

Every answer is checked twice, in two modes: ``numbers`` (number traceability only: context,
question, no anchors) and ``anchored`` (the gold value as a required anchor as well), by
hybridjudge's ``check_grounding`` and by opengate-grounding's ``check_grounding`` on the same
passages. The tables print, per answer type and per scale, the share of gold answers with no
finding and the share of perturbed answers flagged. A further table measures how many random
fabricated numbers pass the checks (and how many a derived-number trace "explains"), and a last
one puts the gold answers and their ``digit`` perturbations in the sentences a model writes
(``In FY19, it was ...``, ``It was ... y/y.``, ``$539 mil``: :data:`PHRASINGS`,
:data:`SCALE_FORMS`) and prints the share each checker still gets right.

Run from the repository root::

    .venv/bin/python validity/tatqa.py                 # full dev split (~1,700 questions)
    .venv/bin/python validity/tatqa.py --every 10      # every 10th context (fast)
    .venv/bin/python validity/tatqa.py --json /tmp/tatqa.json
    .venv/bin/python validity/tatqa.py --layout pdf --page-form title --answer-form list
    .venv/bin/python validity/tatqa.py --currency rmb   # RMB5,022 for $5,022 throughout
"""

from __future__ import annotations

import argparse
import csv
import functools
import gzip
import html
import io
import json
import random
import re
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DATA = HERE / "data" / "tatqa_dataset_dev.json.gz"

SEED = 20210801
"""Seed of every random choice (perturbed digit, swapped figure, fabricated numbers)."""

TARGETS = {"span": 0.98, "multi-span": 0.98, "arithmetic": 0.90}
"""Share of gold answers with no finding that the checks must reach (numbers mode)."""
PERTURBED_TARGET = 0.95
"""Share of perturbed answers the checks must flag (digit, x10, sign: numbers mode; swap:
anchored mode)."""

SCALE_WORDS = {"thousand": "thousand", "million": "million", "billion": "billion"}
PERTURBATIONS = ("digit", "x10", "sign", "swap")

_NUM_TEXT = re.compile(
    r"^\s*(\()?\s*(-)?\s*(\$)?\s*(-)?\s*(\d[\d,]*(?:\.\d+)?|\.\d+)\s*(%)?\s*(\))?\s*$"
)
_CTX_NUM = re.compile(r"(\()?-?\$?\s*(\d[\d,]*(?:\.\d+)?)(\))?")
_YEAR = re.compile(r"(19|20)\d\d")
_DERIV_NUM = re.compile(r"\d[\d,]*(?:\.\d+)?")


# --------------------------------------------------------------------------------------------
# Data


def load_documents(path: Path = DATA) -> list[dict[str, Any]]:
    """The TAT-QA dev split: one dict per context (``table``, ``paragraphs``, ``questions``)."""
    with gzip.open(path, "rt", encoding="utf-8") as f:
        docs: list[dict[str, Any]] = json.load(f)
    return docs


LAYOUTS = ("pipe", "markdown", "bordered", "csv", "tsv", "html", "pdf", "glued")
"""How a table is handed to the checks (``--layout``): pipe rows (``Total sales | $1,496.5 |
$1,202.9``), a Markdown table, its rows alone (``bordered``: ``| Total sales | $1,496.5 |``,
without the ``|---|`` rule under the header, as a chunk cut below it hands them over), CSV
rows (``Total sales,"$1,496.5","$1,202.9"``: a cell with a comma quoted, as Python's ``csv``
writes it), TSV rows (cells separated by tabs), an HTML table, or text as a PDF extractor
returns it (``pdf``: a cell per line, a currency sign on a line of its own before its figure,
``$ million`` as written, an empty cell as a line holding a space); ``glued``: that text with
the words of each cell that holds a letter glued, as pypdf writes a PDF without space glyphs
(``Discountrate``, ``(Inthousands)``, ``January26,2019``; 12 of FinanceBench's 98 evidence pages
hold such runs)."""


def _cells(row: Sequence[str]) -> list[str]:
    return [" ".join(str(c).split()) for c in row]


def render_table(table: Sequence[Sequence[str]], layout: str = "pipe") -> str:
    """The table as a retriever would hand it over in ``layout`` (:data:`LAYOUTS`); ``pipe``:
    one line per row, cells separated by `` | ``."""
    rows = [cells for cells in (_cells(row) for row in table) if any(cells)]
    if layout == "pipe":
        return "\n".join(" | ".join(cells) for cells in rows)
    if layout in ("markdown", "bordered"):
        width = max((len(r) for r in rows), default=0)
        lines = ["| " + " | ".join(r + [""] * (width - len(r))) + " |" for r in rows]
        if lines and layout == "markdown":
            lines.insert(1, "|" + "---|" * width)
        return "\n".join(lines)
    if layout in ("csv", "tsv"):
        out = io.StringIO()
        writer = csv.writer(out, delimiter="," if layout == "csv" else "\t", lineterminator="\n")
        writer.writerows(rows)
        return out.getvalue().rstrip("\n")
    if layout == "html":
        body = "".join(
            "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in rows
        )
        return f"<table>{body}</table>"
    if layout in ("pdf", "glued"):
        lines = []
        for r in rows:
            for c in r:
                if not c:
                    lines.append(" ")
                elif c[0] in "$€£" and c[1:].strip()[:1] in tuple("0123456789(.-"):
                    lines.extend((c[0], c[1:].strip()))  # "$1,496.5"; not "$ million"
                elif layout == "glued" and any(ch.isalpha() for ch in c):
                    lines.append("".join(c.split()))
                else:
                    lines.append(c)
        return "\n".join(lines)
    raise ValueError(f"unknown layout {layout!r}: one of {', '.join(LAYOUTS)}")


def context_passages(doc: dict[str, Any], layout: str = "pipe") -> tuple[str, ...]:
    """The passages of one context: the rendered table, then the paragraphs in order."""
    paragraphs = sorted(doc["paragraphs"], key=lambda p: int(p["order"]))
    return (render_table(doc["table"]["table"], layout), *(str(p["text"]) for p in paragraphs))


def _dec(text: str) -> Decimal | None:
    try:
        return Decimal(text.replace(",", ""))
    except InvalidOperation:
        return None


def context_values(passages: Iterable[str]) -> tuple[set[Decimal], set[Decimal]]:
    """Every figure written in the passages, as (signed values, absolute values).

    An independent, plain reading (digits with separators, ``(5,022)`` and ``-5,022`` negative),
    used only to keep perturbed figures out of the context.
    """
    signed: set[Decimal] = set()
    absolute: set[Decimal] = set()
    for text in passages:
        for m in _CTX_NUM.finditer(text):
            v = _dec(m.group(2))
            if v is None:
                continue
            neg = (m.group(1) is not None and m.group(3) is not None) or m.group(0).startswith("-")
            signed.add(-v if neg else v)
            absolute.add(v)
    return signed, absolute


# --------------------------------------------------------------------------------------------
# Rendering answers as a model would write them


@dataclass(frozen=True, slots=True)
class Figure:
    """One figure of an answer: ``prefix`` + ``digits`` + ``suffix``, e.g. ``-$`` ``12.6``
    `` million``. Perturbations change ``negative`` or ``digits`` only."""

    negative: bool
    currency: bool
    digits: str
    suffix: str

    @property
    def text(self) -> str:
        return (
            ("-" if self.negative else "")
            + ("$" if self.currency else "")
            + self.digits
            + self.suffix
        )

    @property
    def value(self) -> Decimal:
        v = Decimal(self.digits.replace(",", ""))
        return -v if self.negative else v


def _suffix(scale: str, percent: bool) -> str:
    if percent or scale == "percent":
        return "%"
    word = SCALE_WORDS.get(scale)
    return f" {word}" if word else ""


def figure_from_text(text: str, scale: str) -> Figure | None:
    """A TAT-QA answer string such as ``"$1,496.5"``, ``"(5,022)"`` or ``"27.1%"`` as a figure with
    its scale word; ``None`` when the string is not a single figure."""
    m = _NUM_TEXT.match(text)
    if m is None:
        return None
    paren, neg1, cur, neg2, digits, pct, close = m.groups()
    if (paren is None) != (close is None):
        return None
    negative = bool(paren or neg1 or neg2)
    if _YEAR.fullmatch(digits) and not (cur or pct or negative):
        scale = ""  # a year ("2019") takes no scale word even when the question's figures do
    return Figure(negative, cur is not None, digits, _suffix(scale, pct is not None))


def _format_number(value: Decimal, decimals: int, grouping: bool = True) -> str:
    q = (
        abs(value).quantize(Decimal(1).scaleb(-decimals))
        if decimals
        else abs(value).quantize(Decimal(1))
    )
    return f"{q:,}" if grouping else f"{q}"


def figure_from_value(value: float | int, scale: str, currency: bool) -> Figure:
    """An arithmetic answer (a float or int in TAT-QA) as written: ``-$12.6 million``."""
    text = repr(value) if isinstance(value, float) else str(value)
    d = Decimal(text)
    decimals = max(0, -d.normalize().as_tuple().exponent) if d != d.to_integral() else 0  # type: ignore[operator]
    return Figure(d < 0, currency, _format_number(d, decimals), _suffix(scale, False))


def _row_has_currency(table: Sequence[Sequence[str]], paragraphs: str, operand: str) -> bool:
    bare = operand.replace(",", "")
    for row in table:
        for cell in row:
            if (
                cell.replace(",", "").replace("$", "").replace("(", "").replace(")", "").strip()
                == bare
            ):
                return any("$" in c for c in row)
    return f"${operand}" in paragraphs or f"$ {operand}" in paragraphs


def _join(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _tidy_derivation(derivation: str) -> str:
    text = " ".join(derivation.split())
    text = re.sub(r"\s*([+*/])\s*", r" \1 ", text)
    text = re.sub(r"(?<=[\d)%])\s*-\s*", " - ", text)
    return text.strip()


def _bracketed(expr: str) -> str:
    """``expr`` in brackets when it has a sum or difference outside any bracket (so that the
    ``× 100`` appended to it applies to all of it)."""
    flat = expr
    while True:
        inner = re.sub(r"\([^()]*\)", "", flat)
        if inner == flat:
            break
        flat = inner
    return f"({expr})" if re.search(r"\s[+-]\s", flat) else expr


def _eval_derivation(derivation: str) -> float | None:
    """The value of a derivation such as ``(44.1-56.7)/56.7`` (``None``: not plain arithmetic)."""
    expr = derivation.replace(",", "").replace("$", "").replace("%", "")
    if not re.fullmatch(r"[\d.\s()+\-*/]+", expr):
        return None
    try:
        # Safe: the expression holds only digits, dots, spaces, brackets and + - * /.
        value = eval(expr, {"__builtins__": {}}, {})
    except (SyntaxError, ZeroDivisionError, TypeError):
        return None
    return float(value) if isinstance(value, int | float) else None


# --------------------------------------------------------------------------------------------
# Cases


@dataclass(slots=True)
class Item:
    """One answer to check."""

    doc: int
    question_uid: str
    question: str
    answer_type: str
    scale: str
    variant: str
    """``gold`` or ``gold+working`` (correct), or a perturbation (``digit``, ``x10``, ``sign``,
    ``swap``) of the gold variant named in ``base``."""
    answer: str
    anchors: tuple[str, ...]
    base: str = ""
    span: tuple[int, int] | None = None
    """Of a perturbed answer: where its changed figure stands in :attr:`answer`."""

    @property
    def perturbed(self) -> bool:
        return self.variant in PERTURBATIONS


@dataclass(slots=True)
class Document:
    """One context with its answers."""

    index: int
    passages: tuple[str, ...]
    items: list[Item] = field(default_factory=list)


_DIGITS = r"(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?![\d,]\d)"
"""A figure written the English way, its whole part and its decimals in two groups (``1,234``,
``.5``; not the comma that ends ``31,`` in ``October 31, 2019``)."""
_ENGLISH_FIGURE = re.compile(rf"(?<![\d.,]){_DIGITS}")
"""A figure of an answer written the English way (``1,234.5``, ``0.87``, ``2019``)."""


def _continental_figure(whole: str, decimals: str | None, group: str) -> str:
    """An English figure's whole part and decimals (``1,496``, ``.5``) written the continental
    way: thousands grouped by ``group``, a decimal comma."""
    return whole.replace(",", group) + ("," + decimals[1:] if decimals else "")


_SCALE_WORD = re.compile(r" (thousand|million|billion)s?\b")


def _continental(group: str, scales: dict[str, str], percent: str) -> Callable[[str], str]:
    """An answer form writing each figure the continental way: thousands grouped by ``group``,
    a decimal comma, the scale words of ``scales`` and ``percent`` for ``%``."""

    def form(answer: str) -> str:
        out = _ENGLISH_FIGURE.sub(lambda m: _continental_figure(m[1], m[2], group), answer)
        out = _SCALE_WORD.sub(lambda m: " " + scales[m[1]], out)
        return out.replace("%", percent)

    return form


_FRENCH = _continental(
    "\u202f",
    {"thousand": "milliers", "million": "millions", "billion": "milliards"},
    "\u202f%",
)
_GERMAN = _continental(".", {"thousand": "Tsd.", "million": "Mio.", "billion": "Mrd."}, "\u00a0%")

_DOLLAR_FIGURE = re.compile(rf"(-?)\$(?:{_DIGITS})(?: (thousand|million|billion)\b)?")
"""A figure of an answer after a dollar sign, with its scale word (``-$1,496.5 million``)."""

_DOLLAR_SCALES = {"": " $", "thousand": " k$", "million": " M$", "billion": " Md$"}
"""How French in Canada writes a dollar amount's scale after it (``22,6 M$``, ``1,5 Md$``)."""


def _french_dollar(answer: str) -> str:
    """An answer form writing each figure as French in Canada writes it: a dollar amount with
    the sign after it, its scale glued to the sign (``22\u202f626 k$``, ``-1\u202f496,5 M$``,
    ``168 $``), every other figure as :data:`_FRENCH` writes it."""

    def amount(m: re.Match[str]) -> str:
        figure = _continental_figure(m[2], m[3], "\u202f")
        return f"{m[1]}{figure}{_DOLLAR_SCALES[m[4] or '']}"

    return _FRENCH(_DOLLAR_FIGURE.sub(amount, answer))


_SCALED_FIGURE = re.compile(rf"{_ENGLISH_FIGURE.pattern}( (?:thousand|million|billion)\b|%)")
"""A figure of an answer with a scale word or a percent sign after it (``22,626 thousand``,
``30.79%``): the figures a model writes rounded."""

_NEXT_SCALE = {"thousand": "million", "million": "billion", "billion": "trillion"}


def _rounded(answer: str) -> str:
    """An answer form writing each figure with a scale word or ``%`` rounded to three
    significant digits, a thousand of a scale in the next (``$22.6 million`` for ``$22,626
    thousand``, ``30.8%`` for ``30.79%``, ``$1.50 billion`` for ``$1,496.5 million``), as a
    model summing up a table writes them; a figure of three digits or fewer stays."""

    def three(value: Decimal) -> Decimal:
        return value.quantize(Decimal(1).scaleb(value.adjusted() - 2), rounding=ROUND_HALF_UP)

    def figure(m: re.Match[str]) -> str:
        value = Decimal(m[1].replace(",", "") + (m[2] or ""))
        unit = m[3]
        if not value or len(value.normalize().as_tuple().digits) <= 3:
            return m[0]
        kept = three(value)
        if unit.strip() in _NEXT_SCALE and kept >= 1000:
            kept, unit = three(value / 1000), " " + _NEXT_SCALE[unit.strip()]
        return f"{kept:,f}{unit}"

    return _SCALED_FIGURE.sub(figure, answer)


ANSWER_FORMS: dict[str, Callable[[str], str]] = {
    "plain": lambda a: a,
    "bold": lambda a: f"The answer is **{a}**.",
    "us-dollar": lambda a: a.replace("$", "US$"),
    "cited": lambda a: f"{a} [Source: Table 2, page 47]",
    "list": lambda a: f"- {a}\n- Source: the table above.",
    "numbered": lambda a: f"1. {a}\n2. Source: the table above.",
    "one-item": lambda a: f"- {a}",
    "latex-dollar": lambda a: a.replace("$", "\\$"),
    "french": _FRENCH,
    "german": _GERMAN,
    "german-sentence": lambda a: f"Der Wert betrug {_GERMAN(a).removesuffix('.')}.",
    "rounded": _rounded,
    "french-dollar": _french_dollar,
}
"""How a model may write each answer, gold and perturbed alike (``--answer-form``): in bold,
with ``US$``, followed by the source it cites, as a Markdown list's first item (a second item
after it), a numbered list's, a list's only item (``- -$168 thousand``: a dash opening a
one-line answer may be a minus as well), with LaTeX's escaped dollars (``\\$5.2 million``), or
with its figures written the continental way, as a model answering in French or German writes
them (``22\u202f626 milliers``, ``-42,7 - 20,9 = -63,6 millions``, ``$48.881``, ``1,05\u00a0%``;
``german-sentence``: inside ``Der Wert betrug ...``, words that name the language), or with
each figure with a scale word or ``%`` rounded to three significant digits (``rounded``: ``$22.6
million`` for ``$22,626 thousand``), or with each dollar amount as French in Canada writes it
(``french-dollar``: ``22\u202f626 k$``, ``168 $``). The required facts of anchored mode stay as
TAT-QA writes them, the English way and unrounded."""

PAGE_FORMS: dict[str, Callable[[str], str]] = {
    "plain": lambda p: p,
    "title": lambda p: f"Table 3\n\n{p}",
    "footer": lambda p: (
        f"{p}\nThe accompanying notes are an integral part of these financial statements.\n47"
    ),
    "final-newline": lambda p: f"{p}\n",
    "crlf": lambda p: p.replace("\n", "\r\n"),
}
"""How an extractor may hand over the table's passage (``--page-form``): under the page's
title, above its footer and page number, ending with a line break, with Windows' line ends."""


CURRENCIES: dict[str, str] = {
    "dollar": "$",
    "us-dollar": "US$",
    "hk-dollar": "HK$",
    "rmb": "RMB",
    "rmb-spaced": "RMB ",
    "usd": "USD ",
    "eur": "EUR ",
    "rupee": "Rs. ",
    "ringgit": "RM",
}
"""The currency a report outside the United States writes where TAT-QA's writes ``$``
(``--currency``), in the tables, the paragraphs and the answers alike: ``US$1,496.5``,
``(RMB5,022)``, ``-USD 12.6 million``, ``Rs. 44.1``."""


def reform(
    docs: Sequence[Document],
    answer_form: str = "plain",
    page_form: str = "plain",
    currency: str = "dollar",
) -> None:
    """Rewrite ``docs`` in place: each answer in ``answer_form`` (:data:`ANSWER_FORMS`), the
    table's passage in ``page_form`` (:data:`PAGE_FORMS`), and ``$`` as ``currency``
    (:data:`CURRENCIES`) in every passage and answer. A perturbed answer the form writes as its
    gold answer is none any more (``rounded``: ``$22,636 thousand`` and ``$22,626 thousand``
    are both ``$22.6 million``): it is dropped."""
    answer, page = ANSWER_FORMS[answer_form], PAGE_FORMS[page_form]
    sign = CURRENCIES[currency]

    def written(text: str) -> str:
        # "Rs. 44.1" before its figure, "Rs." alone (on its line in the PDF text)
        return _SIGN.sub(lambda m: sign if m[1] else sign.rstrip(), text)

    for doc in docs:
        doc.passages = tuple(written(p) for p in (page(doc.passages[0]), *doc.passages[1:]))
        for item in doc.items:
            item.answer = answer(written(item.answer))
        gold = {(i.question_uid, i.variant): i.answer for i in doc.items if not i.base}
        doc.items[:] = [
            i for i in doc.items if not i.base or gold.get((i.question_uid, i.base)) != i.answer
        ]


_SIGN = re.compile(r"\$(?=([\d(-])?)")
"""A dollar sign, and whether a figure follows it (:func:`reform`)."""


def _perturb(
    kind: str,
    fig: Figure,
    rng: random.Random,
    signed: set[Decimal],
    absolute: set[Decimal],
    table_figures: Sequence[str],
) -> Figure | None:
    """``fig`` with one number changed, never to a figure written in the context (``swap``
    excepted: that is its point); ``None`` when no such change exists."""
    if kind == "digit":
        positions = [i for i, ch in enumerate(fig.digits) if ch.isdigit()]
        rng.shuffle(positions)
        for i in positions:
            d = int(fig.digits[i])
            for new in rng.sample([(d + 1) % 10, (d - 1) % 10], 2):
                if abs(new - d) != 1:
                    continue
                leading = not any(c.isdigit() and c != "0" for c in fig.digits[:i])
                if new == 0 and leading and "." not in fig.digits[:i]:
                    continue  # no leading zero
                digits = fig.digits[:i] + str(new) + fig.digits[i + 1 :]
                cand = Figure(fig.negative, fig.currency, digits, fig.suffix)
                if abs(cand.value) not in absolute:
                    return cand
        return None
    if kind == "x10":
        v = abs(fig.value) * 10
        decimals = len(fig.digits.split(".")[1]) - 1 if "." in fig.digits else 0
        cand = Figure(fig.negative, fig.currency, _format_number(v, max(0, decimals)), fig.suffix)
        return None if abs(cand.value) in absolute else cand
    if kind == "sign":
        if fig.value == 0:
            return None
        cand = Figure(not fig.negative, fig.currency, fig.digits, fig.suffix)
        return None if cand.value in signed else cand
    if kind == "swap":
        own = abs(fig.value)
        pool = [
            t for t in table_figures if (val := _dec(t)) is not None and val != own and val >= 10
        ]
        if not pool:
            return None
        return Figure(fig.negative, fig.currency, rng.choice(pool), fig.suffix)
    raise ValueError(f"unknown perturbation {kind!r}")


def _table_figures(table: Sequence[Sequence[str]]) -> list[str]:
    out = []
    for row in table[1:]:
        for cell in row[1:]:
            m = _NUM_TEXT.match(cell)
            if m is not None and m.group(6) is None and not _YEAR.fullmatch(m.group(5)):
                out.append(m.group(5))
    return sorted(set(out))


def build_documents(
    raw: Sequence[dict[str, Any]], every: int = 1, seed: int = SEED, layout: str = "pipe"
) -> list[Document]:
    """Every ``every``-th context with its gold and perturbed answers (deterministic in ``seed``),
    its table rendered in ``layout`` (:data:`LAYOUTS`). The answers do not depend on the layout
    (the figures kept out of the perturbations are read from the pipe rows)."""
    docs: list[Document] = []
    for index in range(0, len(raw), every):
        doc = raw[index]
        passages = context_passages(doc)
        paragraphs = "\n".join(passages[1:])
        table = doc["table"]["table"]
        signed, absolute = context_values(passages)
        figures = _table_figures(table)
        out = Document(index, passages if layout == "pipe" else context_passages(doc, layout))
        for q in sorted(doc["questions"], key=lambda q: int(q["order"])):
            rng = random.Random(f"{seed}:{q['uid']}")
            # Figures of the question are traceable too: keep perturbations out of them as well.
            q_signed, q_absolute = context_values([q["question"]])
            out.items.extend(
                _items_for(
                    index,
                    q,
                    table,
                    paragraphs,
                    signed | q_signed,
                    absolute | q_absolute,
                    figures,
                    rng,
                )
            )
        docs.append(out)
    return docs


def _items_for(
    index: int,
    q: dict[str, Any],
    table: Sequence[Sequence[str]],
    paragraphs: str,
    signed: set[Decimal],
    absolute: set[Decimal],
    figures: Sequence[str],
    rng: random.Random,
) -> list[Item]:
    atype: str = q["answer_type"]
    scale: str = q["scale"] or ""
    raw = q["answer"]
    derivation: str = q["derivation"] or ""

    def item(
        variant: str,
        answer: str,
        anchors: Sequence[str],
        base: str = "",
        span: tuple[int, int] | None = None,
    ) -> Item:
        return Item(
            index,
            q["uid"],
            q["question"],
            atype,
            scale,
            variant,
            answer,
            tuple(anchors),
            base,
            span,
        )

    # Each gold variant: the parts of the answer (text or Figure) and which part to perturb.
    variants: list[tuple[str, list[str | Figure], int | None]] = []
    if atype in ("span", "multi-span"):
        parts: list[str | Figure] = []
        for text in raw:
            fig = figure_from_text(str(text), scale)
            if fig is not None:
                parts.append(fig)
            elif str(text).strip():
                parts.append(" ".join(str(text).split()))
        target = next((i for i, p in enumerate(parts) if isinstance(p, Figure)), None)
        variants.append(("gold", parts, target))
    elif atype == "arithmetic":
        operands = _DERIV_NUM.findall(derivation)
        currency = scale in SCALE_WORDS and any(
            _row_has_currency(table, paragraphs, op) for op in operands
        )
        fig = figure_from_value(raw, scale, currency)
        variants.append(("gold", [fig], 0))
        if derivation:
            shown = _tidy_derivation(derivation)
            value = _eval_derivation(derivation)
            if (
                scale == "percent"
                and "/" in derivation
                and value is not None
                and abs(value * 100 - float(raw)) < abs(value - float(raw))
            ):
                shown = _bracketed(shown) + " × 100"
            variants.append(("gold+working", [shown + " = ", fig], 1))
    elif atype == "count":
        items = [" ".join(s.split()) for s in derivation.split("##") if s.strip()]
        variants.append(("gold", [f"{raw}: {_join(items)}" if items else str(raw)], None))
    else:  # pragma: no cover - TAT-QA has only these four types
        return []

    out: list[Item] = []
    for name, parts, target in variants:
        texts = [p.text if isinstance(p, Figure) else p for p in parts]
        answer = "".join(texts) if name == "gold+working" else _join(texts)
        if atype == "arithmetic":
            anchors: list[str] = [texts[-1]]
        elif atype == "count":
            anchors = [str(raw)]
        else:
            anchors = [t for t in texts if t.strip()]
        out.append(item(name, answer, anchors))
        if target is None:
            continue
        chosen = parts[target]
        assert isinstance(chosen, Figure)
        for kind in PERTURBATIONS:
            new = _perturb(kind, chosen, rng, signed, absolute, figures)
            if new is None:
                continue
            changed = list(texts)
            changed[target] = new.text
            answer = "".join(changed) if name == "gold+working" else _join(changed)
            if name == "gold+working" or target == 0:
                start = len("".join(changed[:target]))
            else:  # _join: ", " between the parts, " and " before the last
                last = target == len(changed) - 1
                start = len(", ".join(changed[:target])) + len(" and " if last else ", ")
            span = (start, start + len(new.text))
            assert answer[span[0] : span[1]] == new.text
            out.append(item(kind, answer, anchors, base=name, span=span))
    return out


# --------------------------------------------------------------------------------------------
# Checking


@dataclass(slots=True)
class Result:
    """The verdicts on one item in one mode."""

    doc: int
    question_uid: str
    answer_type: str
    scale: str
    variant: str
    base: str
    mode: str
    answer: str
    hybridjudge_flagged: bool
    hybridjudge_kinds: list[str]
    opengate_flagged: bool
    derived: bool = False
    """Some number of the answer was traced by a derivation (hybridjudge), not found as written."""
    rules: dict[str, int] = field(default_factory=dict)
    """How many of the answer's figures each trace rule explained (hybridjudge)."""
    wrong_rules: dict[str, int] = field(default_factory=dict)
    """Of a perturbed answer: the rule that traced its changed figure, if one did."""


Checker = Callable[
    [str, tuple[str, ...], str, tuple[str, ...]], tuple[bool, list[str], bool, tuple[Any, ...]]
]


def hybridjudge_checker() -> Checker:
    """``check_grounding`` of this repository: (flagged, finding kinds, traced by derivation,
    the traces)."""
    from hybridjudge.grounding import check_grounding

    def check(
        answer: str, passages: tuple[str, ...], question: str, anchors: tuple[str, ...]
    ) -> tuple[bool, list[str], bool, tuple[Any, ...]]:
        report = check_grounding(
            answer, passages, question=question, anchors=anchors, answerable=True
        )
        derived = any(str(t.source) == "derived" for t in report.quantities)
        return bool(report.findings), sorted(report.kinds), derived, report.quantities

    return check


def _trace_rules() -> Any:
    """``validity/trace_rules.py``, the rule tables shared with the FinanceBench scripts."""
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))
    import trace_rules

    return trace_rules


def opengate_checker() -> Callable[[str, tuple[str, ...], str, tuple[str, ...]], bool]:
    """opengate-grounding's ``check_grounding``: flagged = not grounded."""
    import opengate_grounding as og

    def check(
        answer: str, passages: tuple[str, ...], question: str, anchors: tuple[str, ...]
    ) -> bool:
        result = og.check_grounding(
            answer,
            list(passages),
            question=question,
            anchors=[og.Anchor(a, []) for a in anchors] or None,
            answerable=True,
        )
        return not result.grounded

    return check


MODES = ("numbers", "anchored")


def run(docs: Sequence[Document]) -> list[Result]:
    """Check every item of ``docs`` in both modes with both checkers."""
    ours = hybridjudge_checker()
    theirs = opengate_checker()
    results: list[Result] = []
    for doc in docs:
        for it in doc.items:
            for mode in MODES:
                anchors = it.anchors if mode == "anchored" else ()
                flagged, kinds, derived, traces = ours(
                    it.answer, doc.passages, it.question, anchors
                )
                og_flagged = theirs(it.answer, doc.passages, it.question, anchors)
                rules_of = _trace_rules().rules_of
                results.append(
                    Result(
                        it.doc,
                        it.question_uid,
                        it.answer_type,
                        it.scale,
                        it.variant,
                        it.base,
                        mode,
                        it.answer,
                        flagged,
                        kinds,
                        og_flagged,
                        derived,
                        dict(rules_of(traces)),
                        dict(rules_of(traces, it.span)) if it.span is not None else {},
                    )
                )
    return results


# --------------------------------------------------------------------------------------------
# Fabricated numbers


def fabricated_numbers(
    docs: Sequence[Document], per_doc: int = 10, seed: int = SEED
) -> list[tuple[int, str]]:
    """Random numbers that are in no context: a figure of the table scaled by a random factor in
    [0.5, 1.5] at the figure's own precision, or a random percentage with one or two decimals."""
    out: list[tuple[int, str]] = []
    for doc in docs:
        rng = random.Random(f"{seed}:fabricated:{doc.index}")
        _, absolute = context_values(doc.passages)
        figures = [
            v
            for m in _CTX_NUM.finditer(doc.passages[0])
            if (v := _dec(m.group(2))) is not None and v >= 10
        ]
        made = 0
        tries = 0
        while made < per_doc and tries < per_doc * 20:
            tries += 1
            if figures and rng.random() < 0.7:
                base = rng.choice(figures)
                decimals = max(0, -base.as_tuple().exponent)  # type: ignore[operator]
                v = base * Decimal(str(round(rng.uniform(0.5, 1.5), 6)))
                text = _format_number(v, decimals)
            else:
                decimals = rng.choice((1, 2))
                v = Decimal(str(round(rng.uniform(-50, 150), decimals)))
                text = ("-" if v < 0 else "") + _format_number(v, decimals) + "%"
            value = _dec(text.rstrip("%").lstrip("-"))
            if value is None or value in absolute or value == 0:
                continue
            out.append((doc.index, text))
            made += 1
    return out


def run_fabricated(docs: Sequence[Document], per_doc: int = 10) -> dict[str, Any]:
    """How many fabricated numbers pass each checker (and how many a derivation explains, and
    by which trace rule hybridjudge traced those that pass: ``rules``)."""
    ours = hybridjudge_checker()
    theirs = opengate_checker()
    by_index = {d.index: d for d in docs}
    n = passed = derived = og_passed = 0
    rules: Counter[str] = Counter()
    for index, text in fabricated_numbers(docs, per_doc):
        doc = by_index[index]
        answer = f"The figure is {text}."
        flagged, _, was_derived, traces = ours(answer, doc.passages, "", ())
        n += 1
        passed += not flagged
        derived += was_derived and not flagged
        og_passed += not theirs(answer, doc.passages, "", ())
        if not flagged:
            rules += _trace_rules().rules_of(traces)
    return {
        "n": n,
        "hybridjudge_passed": passed / n if n else 0.0,
        "hybridjudge_explained_by_derivation": derived / n if n else 0.0,
        "opengate_passed": og_passed / n if n else 0.0,
        "rules": dict(rules),
    }


TRACED_PERTURBATIONS = ("digit", "x10", "sign")
"""The perturbations whose figure is in no context by construction: a rule that traces one lets
a wrong figure through (``swap`` puts a context figure in the answer: it is traced as written)."""


def rule_table(results: Sequence[Result], fabricated: dict[str, Any]) -> str:
    """Figures per trace rule (numbers mode): in the gold answers, and the perturbed figures
    (:data:`TRACED_PERTURBATIONS`) and fabricated numbers a rule traced: where it is too
    loose."""
    numbers = [r for r in results if r.mode == "numbers"]
    columns: dict[str, Counter[str]] = {"gold": Counter()}
    for r in numbers:
        if r.variant.startswith("gold"):
            columns["gold"].update(r.rules)
    for kind in TRACED_PERTURBATIONS:
        columns[kind] = Counter()
        for r in numbers:
            if r.variant == kind:
                columns[kind].update(r.wrong_rules)
    if fabricated:
        columns["fabricated"] = Counter(fabricated.get("rules", {}))
    table: str = _trace_rules().format_rule_table(
        "figures per trace rule, numbers mode: of the gold answers (every traced figure), and the "
        "wrong figures a rule traced\n(the changed figure of a digit/x10/sign perturbation; a "
        "fabricated number that passes)",
        columns,
    )
    return table


# --------------------------------------------------------------------------------------------
# Phrasings: the same answers in the sentences a model writes

PHRASINGS: tuple[tuple[str, str], ...] = (
    ("as written", "{answer}"),
    ("in a sentence with the year", "In {year}, it was {answer}."),
    ("fiscal year", "In fiscal {year}, it was {answer}."),
    ("two-digit fiscal year (FY19)", "In FY{yy}, it was {answer}."),
    ("year on year (y/y)", "It was {answer} y/y."),
    ("from one year to the other", "From {first} to {year}, it was {answer}."),
    ("span of years (2018-19)", "In {first}-{yy}, it was {answer}."),
    ("counting words (the two years)", "Over the two years, it was {answer}."),
    ("numbered steps", "Step 1: find the row. Step 2: it was {answer}."),
    ("citation markers ([1][2])", "In {year}, it was {answer} [1][2]."),
    ("cited passage (Source 2)", "According to Source 2, it was {answer} in {year}."),
    ("cited page (p. 14)", "In {year}, it was {answer} (Doc 1, p. 14)."),
    ("reporting period (twelve months)", "For the twelve months ended {year}, it was {answer}."),
)
"""Sentences a model puts an answer in (name, template): ``{year}`` is the question's latest
year, ``{first}`` its earliest (templates with ``{first}`` only for questions naming two years),
``{yy}`` the latest's last two digits. None adds a claim that a context written as a financial
statement does not support, except the reporting period where the context names none."""

SCALE_FORMS: tuple[tuple[str, str, str], ...] = (
    ("$X mn", r"\$([\d,.]+) million", r"$\1 mn"),
    ("$X mil", r"\$([\d,.]+) million", r"$\1 mil"),
    ("$XM", r"\$([\d,.]+) million", r"$\1M"),
    ("$XK", r"\$([\d,.]+) thousand", r"$\1K"),
    ("USD X million", r"\$([\d,.]+) (million|billion|thousand)", r"USD \1 \2"),
    ("X pct", r"([\d.]+)%", r"\1 pct"),
    ("X per cent", r"([\d.]+)%", r"\1 per cent"),
    ("(X) million for -X million", r"-(\$?)([\d,.]+) (million|billion|thousand)", r"\1(\2) \3"),
)
"""Other ways to write an answer's scale or percentage (name, pattern, replacement)."""

FULL_DIGITS = "$X,000 for $X thousand (full digits)"
"""The phrasing that writes the scale out in digits (``$96,168,000`` for ``$96,168 thousand``,
``1,496,500,000`` for ``1,496.5 million``): the table's figure is then found through the scale
its caption states or, where none is stated, as a figure with its own scale word would be
(:func:`full_digits`)."""
_SCALED = re.compile(r"(\$?)([\d,]+(?:\.\d+)?) (thousand|million|billion)\b")
_POWERS = {"thousand": 3, "million": 6, "billion": 9}


def full_digits(answer: str) -> str | None:
    """``answer`` with every figure and scale word written as one figure in full digits, or
    ``None`` when it has none or one is no whole number so written (``1.2345 thousand``)."""
    whole = True

    def digits(m: re.Match[str]) -> str:
        nonlocal whole
        value = Decimal(m[2].replace(",", "")).scaleb(_POWERS[m[3]])
        if value != value.to_integral_value():
            whole = False
        return f"{m[1]}{int(value):,}"

    out = _SCALED.sub(digits, answer)
    return out if whole and out != answer else None


RESCALED = "$X.XX million for $X thousand (next scale up)"
"""The phrasing that states an answer's figure in the next larger scale, rounded half up to two
decimals as a summary does (``$53.33 million`` for ``$53,330 thousand``, ``$1.89 billion`` for
``$1,887.8 million``): :func:`rescaled`. A perturbation the rounding hides (``53,331``) is no
perturbation so phrased and is not measured."""
_NEXT_SCALE = {"thousand": "million", "million": "billion"}


def rescaled(answer: str) -> str | None:
    """``answer`` with every figure written with ``thousand`` or ``million`` stated in the next
    larger scale to two decimals, or ``None`` when it has none or one would be under 1."""
    small = False

    def larger(m: re.Match[str]) -> str:
        nonlocal small
        value = (Decimal(m[2].replace(",", "")) / 1000).quantize(
            Decimal("0.01"), rounding=ROUND_HALF_UP
        )
        if value < 1:
            small = True
        return f"{m[1]}{value:,} {_NEXT_SCALE[m[3]]}"

    out = _RESCALABLE.sub(larger, answer)
    return out if not small and out != answer else None


_RESCALABLE = re.compile(r"(\$?)([\d,]+(?:\.\d+)?) (thousand|million)\b")

DIRECTION = "direction in words (a decrease of X)"
"""The phrasing that states a change's sign in words, as a summary does (``a decrease of 12.6
million`` for ``-12.6 million``, ``an increase of 5.2%`` for ``5.2%``): :func:`direction`, for
an answer of one figure to a question asking for a change (``What was the change in ...``,
``the increase / (decrease) in ...``), whose sign is the direction. Its sign perturbation
states the other direction; the checks must see it from the table's years or the rows the
question names, not from a minus sign."""
_ASKS_CHANGE = re.compile(r"\bchange\b|\bincrease\s*/\s*\(?\s*decrease", re.IGNORECASE)
_ONE_FIGURE = re.compile(r"(-?)(\$?\d[\d,]*(?:\.\d+)?(?: (?:thousand|million|billion))?%?)")


def direction(answer: str, question: str) -> str | None:
    """``answer`` (one figure) with its sign as a direction in words, or ``None`` when the
    question asks for no change (:data:`DIRECTION`) or the answer is more than one figure."""
    m = _ONE_FIGURE.fullmatch(answer)
    if m is None or _ASKS_CHANGE.search(question) is None:
        return None
    return f"{'a decrease' if m[1] else 'an increase'} of {m[2]}"


LATEX_WORKING = "working in LaTeX (\\frac, \\times)"
"""The phrasing that shows an arithmetic answer's working in LaTeX, as chat models write it
(``\\[ \\frac{44.1 - 56.7}{56.7} \\times 100 = -22.22\\% \\]``): :func:`latex_working`."""
_FRACTION = re.compile(r"\((?P<num>[^()]+)\) / (?P<den>[^()+*/ ]+|\([^()]+\))")
_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")


def latex_working(answer: str, derivation: str) -> str | None:
    """``answer`` after TAT-QA's ``derivation`` written in LaTeX (a quotient as ``\\frac``,
    ``*`` as ``\\times``, ``/`` as ``\\div``, ``\\times 100`` where the answer is the
    quotient as a percentage, ``%`` and ``$`` escaped), in display-math brackets; ``None`` with
    no derivation."""
    if not derivation.strip():
        return None
    shown = _tidy_derivation(derivation)
    m = _FRACTION.fullmatch(shown)
    expr = shown if m is None else rf"\frac{{{m['num']}}}{{{m['den'].strip('()')}}}"
    value = _eval_derivation(derivation)
    number = _NUMBER.search(answer)
    stated = float(number.group().replace(",", "")) if number is not None else None
    if (
        answer.endswith("%")
        and "/" in shown
        and value is not None
        and stated is not None
        and abs(value * 100 - stated) < abs(value - stated)
    ):
        expr = (expr if m is not None else _bracketed(expr)) + " * 100"
    expr = expr.replace(" * ", r" \times ").replace(" / ", r" \div ")
    result = answer.replace("%", r"\%").replace("$", r"\$")
    return rf"\[ {expr} = {result} \]"


OPERAND_PHRASINGS: tuple[tuple[str, str], ...] = (
    (
        "operands: from ... to ...",
        "It went from {older} in {first} to {newer} in {year}, a change of {answer}.",
    ),
    (
        "operands: compared with",
        "In {year}, it was {newer} compared with {older} in {first}, a change of {answer}.",
    ),
)
"""Sentences that state an arithmetic answer's two operands (TAT-QA's ``derivation`` ``newer -
older`` or ``(newer - older) / older``, as the annotators wrote them) with the result: only for
questions naming two years. Stating the operands must not let a wrong result through."""

_DIFFERENCE = re.compile(
    r"\(?\s*(?P<newer>-?\$?\d[\d,]*(?:\.\d+)?)\s*-\s*(?P<older>-?\$?\d[\d,]*(?:\.\d+)?)\s*\)?"
    r"(?:\s*/\s*\(?-?\$?\d[\d,]*(?:\.\d+)?\)?)?"
)
"""A derivation ``newer - older``, optionally divided (a percent change), operands unbracketed."""

PHRASED_KINDS = ("gold", "digit", "sign")
"""The answers each phrasing is measured on: gold answers (no finding is right) and their
``digit`` and ``sign`` perturbations (a finding is right)."""


@dataclass(slots=True)
class PhrasingRow:
    """One phrasing: of the answers of each kind (:data:`PHRASED_KINDS`) that a checker gets
    right as written, how many it is measured on (``n``: hybridjudge's) and the share it still
    gets right so phrased."""

    phrasing: str
    n: dict[str, int]
    hybridjudge: dict[str, float]
    opengate: dict[str, float]


def _phrased(template: str, answer: str, question: str, derivation: str = "") -> str | None:
    years = sorted({int(m.group()) for m in _YEAR.finditer(question)})
    if not years:
        return None
    if "{first}" in template and len(years) < 2:
        return None
    fields = {"older": "", "newer": ""}
    if "{older}" in template:
        m = _DIFFERENCE.fullmatch(derivation.strip())
        if m is None:
            return None
        fields = {"older": m["older"], "newer": m["newer"]}
    year = years[-1]
    return template.format(
        answer=answer, year=year, first=years[0], yy=f"{year % 100:02d}", **fields
    )


_Form = Callable[[str, str, str], str | None]
"""A phrasing: (answer, question, derivation) -> the phrased answer, or ``None``."""


def run_phrasings(docs: Sequence[Document]) -> list[PhrasingRow]:
    """Gold answers and their ``digit`` and ``sign`` perturbations in each of :data:`PHRASINGS`,
    :data:`SCALE_FORMS` and :data:`OPERAND_PHRASINGS`, by both checkers (numbers mode)."""
    ours = hybridjudge_checker()
    theirs = opengate_checker()
    derivations = {
        q["uid"]: str(q.get("derivation") or "") for d in load_documents() for q in d["questions"]
    }
    forms: list[tuple[str, _Form]] = [
        (name, functools.partial(_phrased, template))
        for name, template in (*PHRASINGS, *OPERAND_PHRASINGS)
    ]
    for name, pattern, repl in SCALE_FORMS:
        rx = re.compile(pattern)

        def scale_form(
            a: str, q: str, d: str, rx: re.Pattern[str] = rx, repl: str = repl
        ) -> str | None:
            b = rx.sub(repl, a)
            return b if b != a else None

        forms.append((name, scale_form))
    forms.append((FULL_DIGITS, lambda a, q, d: full_digits(a)))
    forms.append((RESCALED, lambda a, q, d: rescaled(a)))
    forms.append((LATEX_WORKING, lambda a, q, d: latex_working(a, d)))
    forms.append((DIRECTION, lambda a, q, d: direction(a, q)))
    # counts[name][(checker, kind)] = [considered, still right]
    counts: dict[str, dict[tuple[int, str], list[int]]] = {
        name: {(k, kind): [0, 0] for k in (0, 1) for kind in PHRASED_KINDS} for name, _ in forms
    }
    for doc in docs:
        golds = {it.question_uid: it.answer for it in doc.items if it.variant == "gold"}
        for it in doc.items:
            if it.answer_type == "count" or it.variant not in PHRASED_KINDS:
                continue
            if it.variant != "gold" and it.base != "gold":
                continue
            gold = it.variant == "gold"
            question = it.question  # every variant of a question carries it
            derivation = (
                derivations.get(it.question_uid, "") if it.answer_type == "arithmetic" else ""
            )
            plain = (
                ours(it.answer, doc.passages, question, ())[0],
                theirs(it.answer, doc.passages, question, ()),
            )
            for name, form in forms:
                phrased = form(it.answer, question, derivation)
                if phrased is None:
                    continue
                if not gold and phrased == form(
                    golds.get(it.question_uid, ""), question, derivation
                ):
                    continue  # the phrasing hides the perturbation (a rounding)
                for k in (0, 1):
                    if plain[k] == gold:  # wrong as written: the phrasing is not measured
                        continue
                    if k == 0:
                        flagged = ours(phrased, doc.passages, question, ())[0]
                    else:
                        flagged = theirs(phrased, doc.passages, question, ())
                    cell = counts[name][(k, it.variant)]
                    cell[0] += 1
                    cell[1] += flagged != gold
    rows = []
    for name, _ in forms:
        c = counts[name]
        rows.append(
            PhrasingRow(
                name,
                {kind: c[(0, kind)][0] for kind in PHRASED_KINDS},
                *(
                    {
                        kind: c[(k, kind)][1] / c[(k, kind)][0] if c[(k, kind)][0] else 0.0
                        for kind in PHRASED_KINDS
                    }
                    for k in (0, 1)
                ),
            )
        )
    return rows


def format_phrasings(rows: Sequence[PhrasingRow]) -> str:
    """The phrasing table as text (hybridjudge / opengate-grounding per kind)."""
    head = "".join(f" {kind + ' n':>8} {'hj':>6} {'og':>6}" for kind in PHRASED_KINDS)
    lines = [
        "",
        "gold answers (no count) and their digit and sign perturbations in a model's phrasing,",
        "numbers mode: of those each checker gets right as written, the share it still gets right",
        "so phrased (hj: hybridjudge, og: opengate-grounding)",
        f"  {'phrasing':<34}{head}",
    ]
    for r in rows:
        cells = "".join(
            f" {r.n[kind]:>8} {r.hybridjudge[kind]:>6.1%} {r.opengate[kind]:>6.1%}"
            for kind in PHRASED_KINDS
        )
        lines.append(f"  {r.phrasing:<34}{cells}")
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# Summaries


@dataclass(slots=True)
class Row:
    """One line of a summary table."""

    group: str
    n: int
    hybridjudge: float
    opengate: float
    target: float | None = None

    @property
    def meets(self) -> bool | None:
        return None if self.target is None else self.hybridjudge >= self.target


def _rows(
    results: Iterable[Result],
    key: Callable[[Result], str | None],
    value: Callable[[Result], tuple[bool, bool]],
    targets: dict[str, float] | None = None,
    default_target: float | None = None,
) -> list[Row]:
    groups: dict[str, list[tuple[bool, bool]]] = defaultdict(list)
    for r in results:
        k = key(r)
        if k is not None:
            groups[k].append(value(r))
    rows = []
    for k in sorted(groups):
        vals = groups[k]
        n = len(vals)
        target = (targets or {}).get(k.split(" ")[0], default_target)
        rows.append(Row(k, n, sum(a for a, _ in vals) / n, sum(b for _, b in vals) / n, target))
    return rows


def _scale(r: Result) -> str:
    return r.scale or "none"


def summarise(results: Sequence[Result]) -> dict[str, list[Row]]:
    """The summary tables, by name."""
    gold = [r for r in results if r.variant.startswith("gold")]
    pert = [r for r in results if r.variant in PERTURBATIONS]

    def ok(r: Result) -> tuple[bool, bool]:
        return (not r.hybridjudge_flagged, not r.opengate_flagged)

    def caught(r: Result) -> tuple[bool, bool]:
        return (r.hybridjudge_flagged, r.opengate_flagged)

    def num(rs: Sequence[Result], mode: str) -> list[Result]:
        return [r for r in rs if r.mode == mode]

    # Perturbations judged in the mode that can catch them: swap needs the anchor.
    fair = [r for r in pert if (r.mode == "anchored") == (r.variant == "swap")]
    return {
        "gold answers with no finding, numbers mode, by answer type": _rows(
            num(gold, "numbers"), lambda r: f"{r.answer_type} [{r.variant}]", ok, TARGETS
        ),
        "gold answers with no finding, numbers mode, by scale": _rows(
            num(gold, "numbers"), lambda r: f"{_scale(r)} [{r.answer_type}]", ok
        ),
        "gold answers with no finding, anchored mode, by answer type": _rows(
            num(gold, "anchored"), lambda r: f"{r.answer_type} [{r.variant}]", ok, TARGETS
        ),
        "perturbed answers flagged (digit/x10/sign: numbers mode; swap: anchored), by kind": _rows(
            fair, lambda r: r.variant, caught, default_target=PERTURBED_TARGET
        ),
        "perturbed answers flagged (same), by answer type": _rows(
            fair, lambda r: r.answer_type, caught, default_target=PERTURBED_TARGET
        ),
        "perturbed answers flagged (same), by scale": _rows(
            fair, _scale, caught, default_target=PERTURBED_TARGET
        ),
        "perturbed answers flagged or traced only by a derivation (derived as finding), by kind": _rows(
            fair,
            lambda r: r.variant,
            lambda r: (r.hybridjudge_flagged or r.derived, r.opengate_flagged),
        ),
        "gold answers with no finding and no derivation (derived as finding), by answer type": _rows(
            num(gold, "numbers"),
            lambda r: f"{r.answer_type} [{r.variant}]",
            lambda r: (not (r.hybridjudge_flagged or r.derived), not r.opengate_flagged),
        ),
        "perturbed answers flagged, anchored mode, by kind": _rows(
            num(pert, "anchored"), lambda r: r.variant, caught, default_target=PERTURBED_TARGET
        ),
        "perturbed answers flagged, numbers mode (swap cannot be caught), by kind": _rows(
            num(pert, "numbers"), lambda r: r.variant, caught
        ),
    }


def format_tables(tables: dict[str, list[Row]]) -> str:
    """The summary tables as text."""
    lines = []
    for title, rows in tables.items():
        lines.append("")
        lines.append(title)
        lines.append(f"  {'group':<34} {'n':>6} {'hybridjudge':>12} {'opengate':>10} {'target':>8}")
        for row in rows:
            target = (
                ""
                if row.target is None
                else f">={row.target:.0%}" + (" ok" if row.meets else " NO")
            )
            lines.append(
                f"  {row.group:<34} {row.n:>6} {row.hybridjudge:>12.1%} {row.opengate:>10.1%} {target:>8}"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--every", type=int, default=1, help="use every N-th context (default 1: all)"
    )
    parser.add_argument("--seed", type=int, default=SEED, help=f"seed (default {SEED})")
    parser.add_argument("--json", type=Path, help="write every verdict and the tables to this file")
    parser.add_argument(
        "--fabricated",
        type=int,
        default=10,
        help="fabricated numbers per context (default 10; 0: skip)",
    )
    parser.add_argument(
        "--show", type=int, default=0, help="print up to N failures per table row kind"
    )
    parser.add_argument(
        "--layout",
        choices=LAYOUTS,
        default="pipe",
        help="how each table is handed over (default pipe rows; markdown, bordered: its rows "
        "without the rule, csv, tsv, html, or pdf: a cell per line, a currency sign on its own "
        "line)",
    )
    parser.add_argument(
        "--answer-form",
        choices=list(ANSWER_FORMS),
        default="plain",
        help="how each answer is written (default plain; bold, us-dollar, cited, list, "
        "numbered, one-item, latex-dollar, french, german, german-sentence: figures written "
        "the continental way)",
    )
    parser.add_argument(
        "--page-form",
        choices=list(PAGE_FORMS),
        default="plain",
        help="how the table's passage is handed over (default plain; title, footer, "
        "final-newline, crlf)",
    )
    parser.add_argument(
        "--currency",
        choices=list(CURRENCIES),
        default="dollar",
        help="the currency written for $ in tables, paragraphs and answers (default dollar; "
        "us-dollar, hk-dollar, rmb, rmb-spaced, usd, eur, rupee, ringgit)",
    )
    parser.add_argument(
        "--no-phrasings",
        action="store_true",
        help="skip the table of answers in a model's phrasing (about half the run time)",
    )
    args = parser.parse_args(argv)
    if args.every < 1:
        parser.error("--every must be at least 1")

    t0 = time.perf_counter()
    docs = build_documents(load_documents(), every=args.every, seed=args.seed, layout=args.layout)
    reform(docs, args.answer_form, args.page_form, args.currency)
    results = run(docs)
    tables = summarise(results)
    n_items = sum(len(d.items) for d in docs)
    forms = (
        ""
        if args.answer_form == args.page_form == "plain" and args.currency == "dollar"
        else (f", answers {args.answer_form}, page {args.page_form}, currency {args.currency}")
    )
    print(
        f"TAT-QA dev ({args.layout} tables{forms}): {len(docs)} contexts, {n_items} answers "
        f"({sum(1 for d in docs for i in d.items if not i.perturbed)} gold, "
        f"{sum(1 for d in docs for i in d.items if i.perturbed)} perturbed), seed {args.seed}"
    )
    print(format_tables(tables))
    fabricated: dict[str, Any] = {}
    if args.fabricated:
        fabricated = run_fabricated(docs, args.fabricated)
        print("")
        print(
            f"random fabricated numbers ({fabricated['n']}, 'The figure is X.'): share that passes"
        )
        print(
            f"  hybridjudge: {fabricated['hybridjudge_passed']:.1%} "
            f"(explained by a derivation: {fabricated['hybridjudge_explained_by_derivation']:.1%}); "
            f"opengate-grounding: {fabricated['opengate_passed']:.1%}"
        )
    print("")
    print(rule_table(results, fabricated))
    phrasings: list[PhrasingRow] = []
    if not args.no_phrasings:
        phrasings = run_phrasings(docs)
        print(format_phrasings(phrasings))
    if args.show:
        shown: dict[str, int] = defaultdict(int)
        print("")
        print("examples of misses (gold flagged / perturbed not flagged), hybridjudge:")
        for r in results:
            wrong = r.hybridjudge_flagged != (r.variant in PERTURBATIONS)
            fair_mode = (
                (r.mode == "anchored") == (r.variant == "swap")
                if r.variant in PERTURBATIONS
                else r.mode == "numbers"
            )
            key = f"{r.answer_type}/{r.variant}"
            if wrong and fair_mode and shown[key] < args.show:
                shown[key] += 1
                print(f"  [{key}] doc {r.doc} {r.hybridjudge_kinds}: {r.answer[:150]!r}")
    print(f"\n{time.perf_counter() - t0:.1f} s")
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "seed": args.seed,
                    "every": args.every,
                    "layout": args.layout,
                    "tables": {t: [asdict(r) for r in rows] for t, rows in tables.items()},
                    "fabricated": fabricated,
                    "phrasings": [asdict(r) for r in phrasings],
                    "results": [asdict(r) for r in results],
                },
                indent=1,
            ),
            encoding="utf-8",
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
