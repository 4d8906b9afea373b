"""Validity benchmark: figures of annual reports as a RAG pipeline extracts them, written as a model writes.

FinanceBench ships seven companies' annual reports (10-K filings) as PDF files
(``shared/data/financebench/pdfs``). A RAG pipeline over such files hands a model the text an
extractor returns; here pypdf's ``extract_text`` (a validity dependency only, in the ``dev``
extra; ``--extractor pdfplumber``: pdfplumber's, a second layout of the same pages, its rows'
cells one space apart), one page a passage: a table row on one line with its cells apart by spaces, the currency
sign apart from its figure (``Interest expense $ (112) $ (113) $ (116)``) or inside the bracket of a
negative one (``Net loss ($5,053) ($4,290)``), the scale stated once above the table
(``(Dollars in millions)``, ``($ in millions)``, ``(in millions except per share amounts)``),
page headers and footers mixed in.

**Construction** (read by this script's own expressions, independently of hybridjudge's parser):

- A page holds a *stated scale* when a line states ``in millions``/``thousands``/``billions`` (or
  ``(millions``, ``(thousands``); the rows below it, up to the next such statement, are in its
  scope. Only rows in the scope of a statement are used.
- A *row* is a line with a label (at least three letters, no digit, not a per-share row,
  ``Basic`` or ``Diluted`` among them, nor a percentage, ratio or count row) followed by at least two cells (a figure with ``$`` or brackets, or ``—``);
  a *figure* is one of its cells with an absolute value of at least 10.
- From every page, up to ``--per-page`` figures are drawn (seeded with the file and page), each
  written as a model writes it: ``Interest expense was -$112 million.`` (``as written``: the
  figure with the statement's scale word and a ``$``), and for a figure of 1,000 or more
  ``Total assets was $92.19 billion.`` (``rescaled``: the next scale word at two decimals, one for
  10,000 or more). The question is ``What was <label>?``; the context is the page.
- **Perturbed** answers change the ``as written`` answer's figure: ``digit`` (one digit one off),
  ``x10``, ``sign`` (a positive figure made negative: the other way round names an expense or
  an outflow by its magnitude, which is right), never to a figure the page holds (with that
  sign), checked for number traceability; ``swap`` puts another figure of the page's rows in its place and is checked with
  the right figure as a required fact (an anchor), since a figure the page holds elsewhere is
  traceable by construction; ``scale`` (added 7 December 2026) is the ``rescaled`` answer's
  digits with the statement's own scale word, a thousandfold slip (``Total assets was $92.19
  million.`` for ``92,190`` under ``in millions``), for a figure whose ``rescaled`` answer exists
  and whose slipped value the page does not hold.

A good check grounds the right answers (target >= 98%) and flags the perturbed ones (>= 95%).
opengate-grounding, the plain peer, runs on the same answers in the same process.

**Held-out companies.** Those of ``financebench.py`` (every third of its 17 companies by name):
here Boeing, Lockheed Martin and PepsiCo, measured but not looked at while changing the checks
(Lockheed Martin's misses were listed once, before the split was aligned with
``financebench.py``: three figures under a footnote letter ``(a)(b)``, the rule found on
General Mills' pages); their rates are printed apart.

The PDFs are read where they lie (``shared/data/financebench/pdfs``, never copied: the data set
states no licence); their text is cached in ``--cache`` (default
``~/.cache/hybridjudge/validity/pdf-text``) by the file's sha256 and the extractor's name and
version. Absent files or extractor: a message and exit status 0.

Run from the repository root::

    .venv/bin/python validity/financebench_pdfs.py               # the rates, tuning and held out
    .venv/bin/python validity/financebench_pdfs.py --show 5      # plus 5 misses per variant
    .venv/bin/python validity/financebench_pdfs.py --extractor pdfplumber
    .venv/bin/python validity/financebench_pdfs.py --json o.json # every verdict
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import random
import re
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent
SEED = 0
PER_PAGE = 4
CACHE = Path.home() / ".cache" / "hybridjudge" / "validity" / "pdf-text"
EXTRACTORS = {
    "pypdf": "pip install 'pypdf[crypto]'",
    "pdfplumber": "pip install pdfplumber",
    "pdfminer": "pip install pdfminer.six",
}
"""The text extractors a pipeline uses, with how to install each (validity dependencies only,
in the ``dev`` extra): pypdf's ``extract_text``; pdfplumber's (its rows' cells one space
apart, a table's header on one line); pdfminer.six's ``extract_text`` (its text boxes in order,
what ``PDFMinerLoader`` hands a model: a table's labels in one block and each column of
figures in a block of its own, no row left)."""
TARGET_EXTRACTORS = ("pdfplumber", "pypdf")
"""The extractors whose layout keeps a row on a line: the targets hold for them (the tests
measure both); pdfminer's is measured and reported (``validity/README.md``)."""
PERTURBATIONS = ("digit", "x10", "sign", "swap", "scale")
SCALES = {"thousands": "thousand", "millions": "million", "billions": "billion"}
NEXT_SCALE = {"thousand": "million", "million": "billion"}

_STATEMENT = re.compile(r"\bin\s+(thousands|millions|billions)\b|\((thousands|millions)\b", re.I)
_CELL = re.compile(
    r"(?:\(\s*\$?\s*(?P<neg>\d{1,3}(?:,\d{3})*(?:\.\d+)?)\s*\)"
    r"|\$?\s*(?<![\d,.])(?P<pos>\d{1,3}(?:,\d{3})*(?:\.\d+)?)(?![\d,])|—)"
)
_TAIL_CELL = re.compile(rf"\s*(?:\$\s*)?{_CELL.pattern}\s*$")
_SKIP_LABEL = re.compile(
    r"per (?:common )?share|^(?:basic|diluted)\b|percent|%|ratio|margin|rate\b|shares|employees"
    r"|days|years?\b",
    re.I,
)
"""Labels of rows not drawn: amounts per share (``Diluted`` under ``Earnings per share``: the
statement's scale does not apply), percentages, ratios and counts."""


def _financebench() -> ModuleType:
    """``financebench.py`` beside this file (for where the data lies), loaded once per process
    under the name the tests give it."""
    module = sys.modules.get("hj_validity_financebench")
    if module is not None:
        return module
    spec = importlib.util.spec_from_file_location(
        "hj_validity_financebench", HERE / "financebench.py"
    )
    if spec is None or spec.loader is None:  # pragma: no cover - the file is in the repo
        raise SystemExit("validity/financebench.py is missing")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def page_texts(pdf: Path, cache: Path = CACHE, extractor: str = "pypdf") -> list[str]:
    """The text of each page of ``pdf`` as ``extractor`` (:data:`EXTRACTORS`) extracts it,
    cached by content, extractor and version."""
    module = importlib.import_module(extractor)
    digest = hashlib.sha256(pdf.read_bytes()).hexdigest()[:16]
    cached = cache / f"{pdf.stem}-{digest}-{extractor}{module.__version__}.json"
    if cached.is_file():
        pages: list[str] = json.loads(cached.read_text(encoding="utf-8"))
        return pages
    if extractor == "pypdf":
        reader = module.PdfReader(pdf)
        pages = [page.extract_text() or "" for page in reader.pages]
    elif extractor == "pdfminer":  # extract_text's text boxes, a page at a time
        from pdfminer.high_level import extract_pages
        from pdfminer.layout import LTTextContainer

        pages = [
            "".join(box.get_text() for box in page if isinstance(box, LTTextContainer))
            for page in extract_pages(pdf)
        ]
    else:  # pdfplumber: its default extract_text, as a pipeline calls it
        with module.open(pdf) as document:
            pages = []
            for page in document.pages:
                pages.append(page.extract_text() or "")
                page.close()  # pdfplumber keeps each page's objects otherwise
    cache.mkdir(parents=True, exist_ok=True)
    cached.write_text(json.dumps(pages), encoding="utf-8")
    return pages


@dataclass(frozen=True, slots=True)
class Cell:
    """A figure of a row: its text as the page writes it and its signed value."""

    text: str
    value: Decimal


@dataclass(frozen=True, slots=True)
class Row:
    """A row of a table on a page, in the scope of a scale statement."""

    label: str
    cells: tuple[Cell, ...]
    scale: str
    """``thousand``, ``million`` or ``billion``."""


def parse_row(line: str) -> tuple[str, list[Cell]] | None:
    """A label and its cells, read from the right; ``None`` for a line that is no table row."""
    cells: list[Cell] = []
    rest = line.rstrip()
    while True:
        m = _TAIL_CELL.search(rest)
        if m is None or m.start() == len(rest):
            break
        number = m.group("neg") or m.group("pos") or ""
        if "$" in m.group(0) and "." in number:
            return None  # a price per share beside a count ("Total 25,742 $169.94")
        if m.group("neg") is not None:
            cells.append(Cell(m.group("neg"), -Decimal(m.group("neg").replace(",", ""))))
        elif m.group("pos") is not None:
            cells.append(Cell(m.group("pos"), Decimal(m.group("pos").replace(",", ""))))
        else:
            cells.append(Cell("—", Decimal(0)))
        rest = rest[: m.start()]
    label = " ".join(rest.split()).rstrip(" $:")
    if len(cells) < 2 or sum(c.isalpha() for c in label) < 3 or any(c.isdigit() for c in label):
        return None
    if rest.rstrip().endswith(("%", "-", "/")):
        return None
    return label, cells[::-1]


def page_rows(text: str) -> list[Row]:
    """The rows of ``text`` in the scope of a scale statement (see the module docstring)."""
    rows: list[Row] = []
    scale: str | None = None
    for line in text.splitlines():
        m = _STATEMENT.search(line)
        if m is not None:
            scale = SCALES[(m.group(1) or m.group(2)).lower()]
            continue
        if scale is None or "%" in line:
            continue
        parsed = parse_row(line)
        if parsed is None or _SKIP_LABEL.search(parsed[0]):
            continue
        label, cells = parsed
        if all(1900 <= abs(c.value) <= 2100 and "," not in c.text for c in cells):
            continue  # a header of years
        rows.append(Row(label, tuple(cells), scale))
    return rows


def _money(value: Decimal, digits: str, scale: str) -> str:
    sign = "-" if value < 0 else ""
    return f"{sign}${digits} {scale}"


def _rescaled_value(cell: Cell, scale: str) -> Decimal | None:
    """The ``rescaled`` answer's magnitude in the next scale word (two decimals, one for 10,000
    or more); ``None`` where the statement's scale has no next word or the figure is under
    1,000."""
    if NEXT_SCALE.get(scale) is None or abs(cell.value) < 1000:
        return None
    places = Decimal("0.1") if abs(cell.value) >= 10000 else Decimal("0.01")
    return (abs(cell.value) / 1000).quantize(places, rounding=ROUND_HALF_UP)


def _rescaled(cell: Cell, scale: str) -> str | None:
    value = _rescaled_value(cell, scale)
    return None if value is None else _money(cell.value, f"{value:,}", NEXT_SCALE[scale])


def _slipped(cell: Cell, scale: str, absolute: set[Decimal]) -> str | None:
    """The ``scale`` perturbation: the ``rescaled`` answer's digits with the statement's own
    scale word (``$92.19 million`` for ``92,190`` in millions: a thousandfold slip); ``None``
    without a ``rescaled`` answer or where the page holds the slipped value."""
    value = _rescaled_value(cell, scale)
    if value is None or value in absolute:
        return None
    return _money(cell.value, f"{value:,}", scale)


def _values(text: str) -> tuple[set[Decimal], set[Decimal]]:
    """Every figure of the page, signed (brackets negative) and absolute."""
    signed: set[Decimal] = set()
    for m in _CELL.finditer(text):
        if m.group("neg") is not None:
            signed.add(-Decimal(m.group("neg").replace(",", "")))
        elif m.group("pos") is not None:
            signed.add(Decimal(m.group("pos").replace(",", "")))
    return signed, {abs(v) for v in signed}


def _grouped(value: Decimal) -> str:
    return f"{value:,}"


def perturb(
    kind: str,
    cell: Cell,
    rng: random.Random,
    signed: set[Decimal],
    absolute: set[Decimal],
    others: Sequence[Cell],
) -> Cell | None:
    """``cell`` with one change of ``kind``, never to a figure the page holds (``swap``: another
    figure of the page's rows, which it does hold); ``None`` when no such change exists."""
    own = abs(cell.value)
    if kind == "digit":
        digits = cell.text
        positions = [i for i, ch in enumerate(digits) if ch.isdigit()]
        rng.shuffle(positions)
        for i in positions:
            d = int(digits[i])
            for new in rng.sample([(d + 1) % 10, (d - 1) % 10], 2):
                if abs(new - d) != 1 or (new == 0 and i == 0):
                    continue
                text = digits[:i] + str(new) + digits[i + 1 :]
                value = Decimal(text.replace(",", ""))
                if value not in absolute:
                    return Cell(text, -value if cell.value < 0 else value)
        return None
    if kind == "x10":
        value = own * 10
        return None if value in absolute else Cell(_grouped(value), value.copy_sign(cell.value))
    if kind == "sign":
        # a positive figure made negative; not the other way round: "Interest expense was $290
        # million" for "(290)" is right (an expense's magnitude), so that flip is no defect
        if cell.value <= 0 or -cell.value in signed:
            return None
        return Cell(cell.text, -cell.value)
    if kind == "swap":
        pool = sorted({c.text for c in others if abs(c.value) >= 10 and abs(c.value) != own})
        if not pool:
            return None
        text = rng.choice(pool)
        value = Decimal(text.replace(",", ""))
        return Cell(text, -value if cell.value < 0 else value)
    raise ValueError(f"unknown perturbation {kind!r}")


@dataclass(frozen=True, slots=True)
class Item:
    """One answer to check against one page."""

    company: str
    page: int
    label: str
    variant: str
    """``as written`` or ``rescaled`` (right), or a perturbation of ``as written``."""
    answer: str
    question: str
    anchor: str
    """The right figure as the answer writes it (the required fact of ``swap``)."""
    held_out: bool


def held_out_reports(stems: Sequence[str], data: Path | None = None) -> set[str]:
    """The reports of the companies ``financebench.py`` holds out (every third of the 17 by
    name: American Express, Boeing, Corning, Lockheed Martin, PepsiCo), by file stem
    (``LOCKHEEDMARTIN_2022_10K``)."""
    fb = _financebench()
    folder = Path(data or fb.DATA)
    questions = fb._read_jsonl(folder / "questions_dev.jsonl")
    companies = sorted({str(q["company"]) for q in questions})
    every = fb.HELD_OUT_EVERY
    held = {c for i, c in enumerate(companies) if i % every == every - 1}
    keys = {re.sub(r"[^A-Z]", "", c.upper()) for c in held}
    return {stem for stem in stems if stem.split("_", 1)[0] in keys}


def build_items(
    pages_by_company: dict[str, list[str]],
    per_page: int = PER_PAGE,
    seed: int = SEED,
    held: set[str] | frozenset[str] = frozenset(),
) -> tuple[list[Item], dict[tuple[str, int], str]]:
    """The right and perturbed answers, and the pages they are checked against (``held``: the
    reports of held-out companies)."""
    items: list[Item] = []
    contexts: dict[tuple[str, int], str] = {}
    for company, pages in sorted(pages_by_company.items()):
        for number, text in enumerate(pages):
            rows = page_rows(text)
            candidates = [(r, c) for r in rows for c in r.cells if abs(c.value) >= 10]
            if not candidates:
                continue
            contexts[(company, number)] = text
            signed, absolute = _values(text)
            others = [c for r in rows for c in r.cells]
            rng = random.Random(f"{seed}:{company}:{number}")
            for row, cell in rng.sample(candidates, min(per_page, len(candidates))):
                written = _money(cell.value, cell.text, row.scale)
                figures = [("as written", written)]
                rescaled = _rescaled(cell, row.scale)
                if rescaled is not None:
                    figures.append(("rescaled", rescaled))
                for kind in PERTURBATIONS:
                    if kind == "scale":  # no random draw: the other kinds' stay as they were
                        slipped = _slipped(cell, row.scale, absolute)
                        if slipped is not None:
                            figures.append((kind, slipped))
                        continue
                    changed = perturb(kind, cell, rng, signed, absolute, others)
                    if changed is not None:
                        figures.append((kind, _money(changed.value, changed.text, row.scale)))
                items.extend(
                    Item(
                        company,
                        number,
                        row.label,
                        variant,
                        f"{row.label} was {figure}.",
                        f"What was {row.label}?",
                        written,
                        company in held,
                    )
                    for variant, figure in figures
                )
    return items, contexts


@dataclass(slots=True)
class Result:
    """One answer's verdicts: flagged by hybridjudge and by the peer, with hybridjudge's findings."""

    item: Item
    flagged: bool
    peer_flagged: bool
    findings: list[str]
    rules: dict[str, int] = field(default_factory=dict)
    """How many of the answer's figures each trace rule explained (hybridjudge; the answer
    holds one figure, its label none)."""


def laid_out_by(
    contexts: dict[tuple[str, int], str], pages: dict[str, list[str]]
) -> dict[tuple[str, int], str]:
    """The pages of ``contexts`` (as :func:`build_items` returns them) as another extractor
    lays them out (``pages``, by company): the answers drawn from one extractor's rows, checked
    against the same page in another's layout (``--rows-from``)."""
    return {(company, page): pages[company][page] for company, page in contexts}


def check_all(items: Sequence[Item], contexts: dict[tuple[str, int], str]) -> list[Result]:
    """Both checkers on every item: number traceability, plus the anchor for ``swap``."""
    import opengate_grounding as og

    from hybridjudge.grounding import check_grounding

    results = []
    for it in items:
        page = (contexts[(it.company, it.page)],)
        anchors = (it.anchor,) if it.variant == "swap" else ()
        report = check_grounding(
            it.answer, page, question=it.question, anchors=anchors, answerable=None
        )
        peer = og.check_grounding(
            it.answer,
            list(page),
            question=it.question,
            anchors=[og.Anchor(a, []) for a in anchors] or None,
        )
        results.append(
            Result(
                it,
                bool(report.findings),
                not peer.grounded,
                [f"{f.kind}: {f.subject}" for f in report.findings],
                dict(_financebench()._trace_rules().rules_of(report.quantities)),
            )
        )
    return results


def rule_table(results: Sequence[Result]) -> str:
    """Figures per trace rule, by the kind of answer: the right ones (as written, rescaled) and
    the perturbed ones (digit, x10, sign: a rule that traces their figure lets a wrong figure
    through; swap's figure is the page's, traced as written, and caught by its anchor)."""
    order = ("as written", "rescaled", *PERTURBATIONS)
    columns: dict[str, Counter[str]] = {variant: Counter() for variant in order}
    for r in results:
        columns[r.item.variant].update(r.rules)
    table: str = (
        _financebench()
        ._trace_rules()
        .format_rule_table("figures per trace rule (hybridjudge), by answer", columns)
    )
    return table


def rates(results: Sequence[Result]) -> list[tuple[str, str, int, float, float]]:
    """Per company group and variant: (group, variant, n, ours, peer), the share grounded for the
    right answers and the share flagged for the perturbed ones."""
    groups: dict[tuple[str, str], list[Result]] = defaultdict(list)
    for r in results:
        group = "held out" if r.item.held_out else "tuning"
        groups[(group, r.item.variant)].append(r)
        groups[("all", r.item.variant)].append(r)
    out = []
    order = ("as written", "rescaled", *PERTURBATIONS)
    for group in ("all", "tuning", "held out"):
        for variant in order:
            rs = groups.get((group, variant), [])
            if not rs:
                continue
            right = variant in ("as written", "rescaled")
            ours = sum((not r.flagged) if right else r.flagged for r in rs) / len(rs)
            peer = sum((not r.peer_flagged) if right else r.peer_flagged for r in rs) / len(rs)
            out.append((group, variant, len(rs), ours, peer))
    return out


def format_rates(rows: Sequence[tuple[str, str, int, float, float]]) -> str:
    """The rates as a Markdown table."""
    lines = [
        "| companies | answers | n | hybridjudge | opengate-grounding | target |",
        "|---|---|---:|---:|---:|---|",
    ]
    for group, variant, n, ours, peer in rows:
        right = variant in ("as written", "rescaled")
        what = f"right, {variant}: grounded" if right else f"{variant}: flagged"
        target = ">= 98%" if right else ">= 95%"
        lines.append(f"| {group} | {what} | {n:,} | {ours:.1%} | {peer:.1%} | {target} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pdfs", type=Path, help="the PDF folder (default: FinanceBench's)")
    parser.add_argument("--cache", type=Path, default=CACHE, help=f"text cache (default {CACHE})")
    parser.add_argument("--per-page", type=int, default=PER_PAGE, help="figures drawn per page")
    parser.add_argument("--seed", type=int, default=SEED, help=f"seed (default {SEED})")
    parser.add_argument("--only", help="companies, comma-separated file stems (default: all)")
    parser.add_argument("--show", type=int, default=0, help="misses to print per variant")
    parser.add_argument("--json", type=Path, help="write every verdict to this file")
    parser.add_argument(
        "--extractor",
        choices=sorted(EXTRACTORS),
        default="pypdf",
        help="the text extractor (default pypdf; pdfplumber and pdfminer: other layouts of the "
        "same pages)",
    )
    parser.add_argument(
        "--rows-from",
        choices=sorted(EXTRACTORS),
        help="read the rows the answers are drawn from in this extractor's text, and check them "
        "against --extractor's pages (default: the same; pdfminer, whose text keeps no row: "
        "pypdf)",
    )
    args = parser.parse_args(argv)
    rows_from = args.rows_from or ("pypdf" if args.extractor == "pdfminer" else args.extractor)
    folder = args.pdfs or Path(_financebench().DATA) / "pdfs"
    if not folder.is_dir():
        print(f"no PDFs at {folder}: nothing measured (see validity/README.md)")
        return 0
    for extractor in {args.extractor, rows_from}:
        if importlib.util.find_spec(extractor) is None:
            print(f"{extractor} is not installed ({EXTRACTORS[extractor]}): nothing measured")
            return 0
    pdfs = sorted(folder.glob("*.pdf"))
    if args.only:
        wanted = set(args.only.split(","))
        pdfs = [p for p in pdfs if p.stem in wanted]
    t0 = time.perf_counter()
    pages = {p.stem: page_texts(p, args.cache, rows_from) for p in pdfs}
    checked = pages
    if rows_from != args.extractor:
        checked = {p.stem: page_texts(p, args.cache, args.extractor) for p in pdfs}
    t1 = time.perf_counter()
    held = held_out_reports(list(pages), folder.parent) if args.pdfs is None else set()
    items, contexts = build_items(pages, args.per_page, args.seed, held)
    if checked is not pages:
        contexts = laid_out_by(contexts, checked)
    results = check_all(items, contexts)
    t2 = time.perf_counter()
    n_pages = sum(len(v) for v in pages.values())
    print(
        f"{len(pdfs)} reports, {n_pages} pages ({args.extractor}, rows read from {rows_from}; "
        f"{t1 - t0:.1f} s to extract or "
        f"read the cache), "
        f"{len(contexts)} pages with rows under a stated scale, {len(items)} answers "
        f"({t2 - t1:.1f} s to check with both)"
    )
    print(format_rates(rates(results)))
    print("")
    print(rule_table(results))
    if args.show:
        shown: dict[str, int] = defaultdict(int)
        for r in results:
            right = r.item.variant in ("as written", "rescaled")
            if (r.flagged if right else not r.flagged) and shown[r.item.variant] < args.show:
                shown[r.item.variant] += 1
                print(f"\n[{r.item.variant}] {r.item.company} p.{r.item.page + 1}: {r.item.answer}")
                print(f"  findings: {r.findings or 'none'}")
    if args.json:
        rows: list[dict[str, Any]] = [
            {
                **asdict(r.item),
                "flagged": r.flagged,
                "peer_flagged": r.peer_flagged,
                "findings": r.findings,
                "rules": r.rules,
            }
            for r in results
        ]
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
