"""The annual-report construction (validity/financebench_pdfs.py): pages as pypdf extracts them.

The PDFs are FinanceBench's (``shared/data/financebench/pdfs``, never copied into the repository:
the data set states no licence); without them, or without pypdf, the tests that need them are
skipped with a message. Golden values: the construction's rows read by hand from the lines quoted
(Amcor's and Boeing's 10-K as pypdf returns them), and the targets of issue 33 (right answers
grounded >= 98%, perturbed flagged >= 95%) where they are met; where one is not, the figure
measured is held so that a change cannot lose it unseen (validity/README.md).
"""

from __future__ import annotations

import importlib.util
import random
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from tests.support.tatqa import load_validity

pdfs = load_validity("financebench_pdfs")
fb = load_validity("financebench")
FOLDER = Path(fb.DATA) / "pdfs"
HAVE_PDFS = FOLDER.is_dir() and importlib.util.find_spec("pypdf") is not None
needs_pdfs = pytest.mark.skipif(
    not HAVE_PDFS, reason=f"FinanceBench PDFs not found at {FOLDER}, or pypdf not installed"
)


def test_a_row_apart_by_spaces_is_read_from_the_right() -> None:
    label, cells = pdfs.parse_row("Interest expense (290) (2.0) (159) (1.1)")
    assert label == "Interest expense"
    assert [c.value for c in cells] == [
        Decimal(-290),
        Decimal("-2.0"),
        Decimal(-159),
        Decimal("-1.1"),
    ]
    label, cells = pdfs.parse_row("Net loss ($5,053) ($4,290) ($11,941)")
    assert (label, [c.text for c in cells]) == ("Net loss", ["5,053", "4,290", "11,941"])
    assert pdfs.parse_row("Total 25,742 $169.94") is None  # a count beside a price per share
    assert pdfs.parse_row("Fiscal 2020") is None  # one cell: no row
    assert pdfs.parse_row("As of December 31, 2022 1,200 1,100") is None  # a digit in the label


def test_rows_count_only_under_a_stated_scale() -> None:
    page = (
        "Cash 1,200 1,100\n($ in millions) 2023 2022\nNet sales $ 14,694 $ 14,544\n2023 2022 2021"
    )
    rows = pdfs.page_rows(page)
    assert [(r.label, r.scale) for r in rows] == [("Net sales", "million")]


def test_perturbations_never_land_on_a_figure_of_the_page() -> None:
    cell = pdfs.Cell("1,252", Decimal(1252))
    signed = {Decimal(1252), Decimal(883), Decimal(-1084)}
    absolute = {abs(v) for v in signed}
    rng = random.Random(0)
    digit = pdfs.perturb("digit", cell, rng, signed, absolute, [])
    assert digit is not None
    assert abs(digit.value) not in absolute
    assert sum(a != b for a, b in zip(digit.text, cell.text, strict=True)) == 1
    assert pdfs.perturb("x10", cell, rng, signed, absolute, []).value == Decimal(12520)
    assert pdfs.perturb("sign", cell, rng, signed, absolute, []).value == Decimal(-1252)
    # a negative figure is not flipped: "$1,084 million" names an outflow by its magnitude
    assert (
        pdfs.perturb("sign", pdfs.Cell("1,084", Decimal(-1084)), rng, signed, absolute, []) is None
    )
    assert pdfs._rescaled(cell, "million") == "$1.25 billion"
    assert pdfs._rescaled(pdfs.Cell("92,187", Decimal(92187)), "million") == "$92.2 billion"


@needs_pdfs
def test_held_out_reports_are_financebenchs_held_out_companies() -> None:
    stems = [p.stem for p in sorted(FOLDER.glob("*.pdf"))]
    assert sorted(pdfs.held_out_reports(stems)) == [
        "BOEING_2022_10K",
        "LOCKHEEDMARTIN_2022_10K",
        "PEPSICO_2022_10K",
    ]


@pytest.fixture(scope="module", params=pdfs.TARGET_EXTRACTORS)
def rates(request: pytest.FixtureRequest) -> dict[tuple[str, str], tuple[int, float, float]]:
    # each extractor is a layout of the same pages: pypdf's rows with wide gaps, pdfplumber's
    # with their cells one space apart (its text extracted once, ~2.5 minutes, then cached)
    extractor: str = request.param
    if importlib.util.find_spec(extractor) is None:
        pytest.skip(f"{extractor} is not installed ({pdfs.EXTRACTORS[extractor]})")
    stems = sorted(FOLDER.glob("*.pdf"))
    pages = {p.stem: pdfs.page_texts(p, extractor=extractor) for p in stems}
    items, contexts = pdfs.build_items(pages, held=pdfs.held_out_reports(list(pages)))
    results: list[Any] = pdfs.check_all(items, contexts)
    return {(g, v): (n, ours, peer) for g, v, n, ours, peer in pdfs.rates(results)}


@needs_pdfs
def test_right_answers_are_grounded(rates: dict[tuple[str, str], tuple[int, float, float]]) -> None:
    # measured (validity/README.md), pypdf: as written 99.5% of 660 (87.0% before a bracketed
    # cell of a row apart by spaces was read as negative and a footnote letter "(b)" stopped
    # stating billions, 98.8% before rows one space apart were rows), rescaled 100% of 269
    # (94.4%); held out: 100% and 100%; pdfplumber: 99.5% of 788, 99.7% of 363
    for variant in ("as written", "rescaled"):
        for group in ("all", "held out"):
            n, ours, _ = rates[(group, variant)]
            assert n > 50
            assert ours >= 0.98, (group, variant, ours)


@needs_pdfs
def test_perturbed_answers_are_flagged(
    rates: dict[tuple[str, str], tuple[int, float, float]],
) -> None:
    # measured, pypdf: digit 99.7%, x10 99.8%, sign 99.8%, swap 100% (digit 90.9% before a
    # question naming a row and no operation stopped explaining a figure by arithmetic of the
    # page, "$76 million = (54 + 97) / 2", 95.4% before rows one space apart were rows); the
    # peer 91.0%, 98.8%, 0.0%, 100%; pdfplumber: 99.5%, 99.6%, 99.7%, 100% (digit 94.0% before
    # its rows, one space apart, were rows); scale (a thousandfold slip, $92.19 million for
    # 92,190 in millions): 97.4%, pdfplumber 99.7% (93.6% and 96.6% before a figure with its
    # own scale word stopped rounding a cell's digits read without their statement's scale)
    for variant in ("digit", "x10", "sign", "swap", "scale"):
        for group in ("all", "held out"):
            assert rates[(group, variant)][1] >= 0.95, (group, variant)


@needs_pdfs
def test_a_layout_without_rows_keeps_right_answers_grounded() -> None:
    # pdfminer's extract_text (what PDFMinerLoader hands a model): a table's labels in a block,
    # each column of figures in a block of its own, so no row survives; the answers are drawn
    # from pypdf's rows of the same pages. Measured (validity/README.md): as written 99.2%,
    # rescaled 99.6%; perturbed: digit 96.8% (the peer 91.0%), sign 98.3%, x10 99.1%, swap
    # 100% (digit 82.4%, sign 84.0% before a question naming a label of a block of labels asked
    # for a stated figure, 94.2% and 94.0% before a label's own words, "Total ...", stopped
    # asking for a sum, 95.9% and 96.9% before the labels were read before the layout joined
    # them: arithmetic of the page explained the wrong ones).
    if importlib.util.find_spec("pdfminer") is None:
        pytest.skip(f"pdfminer.six is not installed ({pdfs.EXTRACTORS['pdfminer']})")
    stems = sorted(FOLDER.glob("*.pdf"))
    rows = {p.stem: pdfs.page_texts(p) for p in stems}
    items, contexts = pdfs.build_items(rows, held=pdfs.held_out_reports(list(rows)))
    pages = {p.stem: pdfs.page_texts(p, extractor="pdfminer") for p in stems}
    results: list[Any] = pdfs.check_all(items, pdfs.laid_out_by(contexts, pages))
    rates = {(g, v): ours for g, v, n, ours, _ in pdfs.rates(results)}
    assert rates[("all", "as written")] >= 0.98
    assert rates[("all", "rescaled")] >= 0.98
    for variant in ("digit", "x10", "sign", "swap", "scale"):  # scale: 97.7% (94.0% before)
        assert rates[("all", variant)] >= 0.95, variant
