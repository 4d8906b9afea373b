"""A plain figure in a row whose cells a tab separates, read without the master expression.

A PDF's table laid out (``_layout.read_layout``) and a TSV row hold their cells a tab apart:
``net income\\t$ 7,514 \\t$ 8,060``. ``_quantities._SIMPLE_ROW`` reads such a cell's plain
figure as the master expression would, at a fraction of the cost, where nothing after the figure
could be read on from it. Nothing may change but the cost: every test here scans the same text
twice, with the row expression and with the master expression alone (the row expression
replaced by one that never matches), and compares every quantity, span, reading and identifier.
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hybridjudge.grounding import _quantities as quantities
from hybridjudge.grounding._layout import read_layout
from hybridjudge.grounding._normalize import normalize
from tests.support.tatqa import load_tatqa

_NEVER = re.compile(r"(?!)")


def _both(text: str) -> tuple[tuple[object, ...], tuple[object, ...]]:
    """The scan of ``text`` (normalised, laid out) with the row expression and without it."""
    norm = read_layout(normalize(text))
    with_rows = quantities.scan(norm)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(quantities, "_SIMPLE_ROW", lambda: _NEVER)
        mp.setattr(quantities, "_SIMPLE", lambda: _NEVER)
        master = quantities.scan(norm)
    return tuple(_key(s) for s in (with_rows, master))  # type: ignore[return-value]


def _key(s: quantities.Scan) -> tuple[object, ...]:
    return (s.quantities, s.norm_spans, s.meta, s.idents)


# what a tab or a line break may lead to after a figure: whatever the master expression reads
# on over blanks (a multiplier, a month, a time, a fraction, a citation, 24 x 7), and cells
_TOKENS = (
    *("5", "31", "10", "1,637", "$ 9,895", "(8,107)", "24", "501", "1/2", "-3", "$", "€ 5"),
    *("x", "×", "times", "am", "p.m.", "december", "of", "月", "(c)", "#", "step", "%"),
    *("2019", "12.5", "revenue", "1.2.3", "2019-05-01", "3/4/2019", "7", "bn", "million"),
)
_SEPARATORS = ("\t", " \t", "\t ", "\n", " \n", "\t\n", " ", "\n\n", " | ", "\t\t")


@st.composite
def _rows(draw: st.DrawFn) -> str:
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    parts = [rng.choice(_TOKENS) for _ in range(rng.randint(2, 8))]
    seps = [rng.choice(_SEPARATORS) for _ in parts]
    text = "".join(p + s for p, s in zip(parts, seps, strict=True))
    return text.rstrip(rng.choice(("", " ", "\n")))


@settings(max_examples=1500, deadline=None)
@given(_rows())
def test_generated_rows_scan_as_the_master_reads_them(text: str) -> None:
    rows, master = _both(text)
    assert rows == master


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("ratio\t5\ttimes\tcover", "5\ttimes"),  # a multiplier over a tab
        ("ratio\t2.5\tx", "2.5\tx"),
        # a day and a month a tab or a line break apart are two cells, no date (a month
        # labelling a row makes none with the cell beside it: ``June<tab>24.1``)
        ("date\t31\tdecember 2019\t7", "31"),
        ("date\t31\ndecember 2019", "31"),
        ("date\t31\tof december 2019", "31"),
        ("time\t10\tam\t7", "10\tam"),
        ("time\t10\nam\t7", "10\nam"),  # (a time over one blank only)
        ("share\t1\t1/2\t7", "1\t1/2"),  # a mixed fraction
    ],
)
def test_what_the_master_reads_on_over_blanks_stays_the_masters(text: str, read: str) -> None:
    rows, master = _both(text)
    assert rows == master
    assert read in [q.text for q in rows[0]]  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("legal\t501\t(c)(3)\t7", ["7"]),  # a citation: an identifier, 501c3
        ("# 5\trevenue\t7", ["7"]),  # an enumerator after "#"
        ("24\tx\t7 support", []),  # 24 x 7
    ],
)
def test_identifiers_and_enumerators_over_blanks_stay_the_masters(
    text: str, read: list[str]
) -> None:
    rows, master = _both(text)
    assert rows == master
    assert [q.text for q in rows[0]] == read  # type: ignore[attr-defined]


def test_a_row_of_cells_is_read_without_the_master(monkeypatch: pytest.MonkeyPatch) -> None:
    # a cell followed by a tab and a figure or a currency sign, or by a line break and a label,
    # is read without the master expression; one before a bracket ("(34,630)": the master
    # may read on, "501 (c)"), and the bracket itself, by the master
    text = "revenue\t1,637 \t$ 1,556 \t1,301\ntotal\t42,967 \t(34,630)\t28,102"
    starts: list[str] = []
    master_at = quantities._master_at

    def counted(s: str, cand: int, ch: str, kind: str) -> re.Pattern[str]:
        starts.append(s[cand : cand + 6])
        return master_at(s, cand, ch, kind)

    monkeypatch.setattr(quantities, "_master_at", counted)
    sc = quantities.scan(text)
    assert [q.text for q in sc.quantities] == [
        *("1,637", "$ 1,556", "1,301", "42,967", "(34,630)", "28,102"),
    ]
    assert starts == ["42,967", "(34,63"]


@pytest.mark.parametrize(
    "text", ["see page\t12\t\n7\t8", "note 12\t7\t8", "| note 12 | 7 | 8 |", "s&p 500\t7"]
)
def test_a_number_after_a_label_or_an_index_name_stays_the_masters(text: str) -> None:
    # "page 12", "note 12" are places in a source, "S&P 500" an index (the master's ``named``),
    # no figures: in a row of cells a tab or a "|" separates too
    rows, master = _both(text)
    assert rows == master
    assert [q.text for q in rows[0]] == ["7", "8"][: len(rows[0])]  # type: ignore[arg-type]


@pytest.mark.slow
@pytest.mark.parametrize("layout", ["pdf", "tsv"])
def test_tatqa_tables_scan_as_the_master_reads_them(layout: str) -> None:
    tatqa = load_tatqa()
    texts = [
        passage
        for doc in tatqa.load_documents()
        for passage in tatqa.context_passages(doc, layout)
        if "\t" in read_layout(normalize(passage)).text
    ]
    assert len(texts) > 250  # 278 tables of TAT-QA dev
    for text in texts:
        rows, master = _both(text)
        assert rows == master, text[:200]
