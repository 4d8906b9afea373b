"""A huge context checked a piece at a time (grounding._chunks) traces every answer as the full
index does: the same findings, the same traces (source, passage, span, rule, derivation)."""

from __future__ import annotations

import random
import re

import pytest

from hybridjudge.grounding import _chunks, check_grounding
from hybridjudge.grounding._check import GroundingChecker, GroundingContext, _scope_spans
from hybridjudge.grounding._quantities import scan

_ROWS = ("Revenue", "Cost of sales", "Research and development", "Selling and marketing")


def _context(
    pages: int, seed: int = 11, blank: str = "\n"
) -> tuple[str, list[dict[str, tuple[float, float]]]]:
    """A report of TAT-QA-like pages: a scale heading, a table of two years, prose about it,
    blocks apart by ``blank`` (``""``: no blank line at all, a statement's scope runs to the
    next). Returns the text and each page's rows (label: (2019, 2018))."""
    rng = random.Random(seed)
    parts: list[str] = []
    tables: list[dict[str, tuple[float, float]]] = []
    for page in range(1, pages + 1):
        scale = "millions" if page % 2 else "thousands"
        rows = {
            label: (rng.randint(10_000, 999_999) / 10, rng.randint(10_000, 999_999) / 10)
            for label in _ROWS
        }
        tables.append(rows)
        table = "\n".join(f"{label} | {a:,.1f} | {b:,.1f}" for label, (a, b) in rows.items())
        rev = rows["Revenue"]
        parts.append(
            f"Page {page}\n(In {scale}, except per share data)\n{blank}"
            f" | 2019 | 2018\n{table}\n{blank}"
            f"Revenue was {rev[0]:,.1f} in 2019 against {rev[1]:,.1f} in 2018; the board met "
            f"{rng.randint(3, 40)} times and approved {rng.randint(2, 90)} resolutions.\n{blank}"
        )
    return "".join(parts), tables


def _answers(tables: list[dict[str, tuple[float, float]]]) -> list[tuple[str, str | None]]:
    """Answers about a late page (an answer and the source its first figure must trace to)."""
    page = len(tables) - 3  # odd: millions
    rows = tables[page - 1]
    thousands = tables[page - 2]["Selling and marketing"][1] / 1000
    rev19, rev18 = rows["Revenue"]
    cost19 = rows["Cost of sales"][0]
    trend = "increased" if rev19 > rev18 else "decreased"
    return [
        (f"Cost of sales was ${cost19:,.1f} million in 2019.", "context"),  # as written
        (f"Cost of sales was ${cost19 * 1_000_000:,.0f} in 2019.", "context"),  # rescaled
        (f"Cost of sales was about ${cost19 / 1000:.2f} billion.", "context"),  # rounded
        (f"Revenue {trend} by ${abs(rev19 - rev18):,.1f} million.", "derived"),  # from a row
        (f"Selling and marketing was about ${thousands:.2f} million.", "context"),  # rounded
        (f"Together ${rev19 + cost19:,.1f} million in 2019.", "derived"),  # from a column
        ("Revenue was $987,654.3 million in 2019.", None),  # fabricated
        ("It was 123,456,789 units.", None),  # fabricated, no scale
        ("The years 2019 and 2018.", "context"),  # as written, too often for the fast path
    ]


def _summary(answer: str, context: str | list[str]) -> tuple[object, ...]:
    report = check_grounding(answer, context)
    return (
        report.grounded,
        tuple(
            (t.quantity.span, t.source, t.passage, t.span, t.matched_text, t.rule, t.derivation)
            for t in report.quantities
        ),
        tuple((f.kind, f.subject, f.span, f.evidence) for f in report.findings),
    )


def _assert_bounded_as_full(
    answers: list[tuple[str, str | None]],
    context: str | list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each answer checked piece by piece reports what the full index reports, and its first
    figure is traced to ``source`` (``None``: not traced)."""
    monkeypatch.setattr(_chunks, "BOUNDED_MIN_CHARS", 10**12)
    full = [_summary(answer, context) for answer, _source in answers]
    monkeypatch.setattr(_chunks, "BOUNDED_MIN_CHARS", 1_000)
    bounded = [_summary(answer, context) for answer, _source in answers]
    for (answer, source), f, b in zip(answers, full, bounded, strict=True):
        assert b == f, answer
        traces = f[1]
        assert isinstance(traces, tuple)
        assert traces[0][1] == source, (answer, traces)


@pytest.fixture
def small_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_chunks, "PIECE_CHARS", 8_000)
    monkeypatch.setattr(_chunks, "SEARCH_CHARS", 2_000)


@pytest.mark.parametrize(("blank", "starts"), [("\n", ("Page ", "Revenue was ")), ("", ("(In ",))])
def test_pieces_cut_between_pages(small_pieces: None, blank: str, starts: tuple[str, ...]) -> None:
    text, _tables = _context(200, blank=blank)
    pieces = list(_chunks.pieces((text,), _scope_spans))
    assert len(pieces) > 5
    assert "".join(texts[0] for _origins, texts in pieces) == text
    for origins, texts in pieces[1:]:
        assert texts[0].startswith(starts)  # a table stays with its scale
        assert text[origins[0][1] :].startswith(texts[0])


@pytest.mark.parametrize("blank", ["\n", ""])
def test_bounded_traces_as_the_full_index(
    small_pieces: None, monkeypatch: pytest.MonkeyPatch, blank: str
) -> None:
    text, tables = _context(200, blank=blank)
    answers = _answers(tables)
    _assert_bounded_as_full(answers, text, monkeypatch)


def test_bounded_several_passages(small_pieces: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """A context of many passages: pieces of whole passages, named as the context's."""
    text, tables = _context(120, seed=5)
    passages = re.split(r"(?<=\n\n)(?=Page )", text)
    answers = _answers(tables)
    _assert_bounded_as_full(answers, passages, monkeypatch)


def test_bounded_caption_of_another_passage(
    small_pieces: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tables whose scale a passage of its own states (a caption): every piece reads it."""
    text, tables = _context(120, seed=9)
    text = re.sub(r"\(In \w+, except per share data\)\n", "", text)
    passages = [
        "Deferred charges consisted of the following (in thousands):\n",
        *re.split(r"(?<=\n\n)(?=Page )", text),
    ]
    cost19 = tables[-4]["Cost of sales"][0]
    answers = [
        (f"Cost of sales was ${cost19 * 1000:,.0f} in 2019.", "context"),
        (f"Cost of sales was ${cost19:,.1f} in 2019.", "context"),
        ("Revenue was $987,654.3 million in 2019.", None),
    ]
    _assert_bounded_as_full(answers, passages, monkeypatch)


def test_piecewise_stops_when_every_figure_is_as_written(
    small_pieces: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Figures as written in the first piece: no later piece is parsed (none could come first)."""
    text, _tables = _context(200)
    answer = "The years 2019 and 2018."
    full = GroundingChecker(text)._trace(scan(answer))
    made: list[int] = []
    piece = GroundingContext.piece

    def counted(self: GroundingContext, texts: tuple[str, ...]) -> GroundingContext:
        made.append(len(texts))
        return piece(self, texts)

    monkeypatch.setattr(GroundingContext, "piece", counted)
    assert GroundingChecker(text)._piecewise(scan(answer)) == full
    assert len(made) == 1
