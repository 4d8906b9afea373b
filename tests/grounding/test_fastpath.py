"""The fast path (``grounding/_fast.py``) against the full path: the same verdicts everywhere.

A figure of the answer that stands in the context as written is found from the lines around
its digits, without the context's full index; every other figure goes the full way. Nothing
may change but the cost: for every answer of the repository's corpora (OpenGATE, HaluEval),
of TAT-QA dev (``validity/data``, its tables in every layout ``validity/tatqa.py`` renders) and
of FinanceBench (``validity/financebench.py`` finds it; skipped when absent), the findings and the
source of every figure's trace are the same with the fast path on and off
(``grounding._fast.ENABLED``, what ``HYBRIDJUDGE_GROUNDING_FULL=1`` sets). The occurrence a
figure is traced to may differ where the context writes the same value twice (the full index
keeps the first occurrence of any reading of the value, the fast path the first occurrence of
the figure's digits): that is counted, not compared.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hybridjudge.grounding._check as check_module
from hybridjudge.corpus import Case, Output, read_jsonl_models
from hybridjudge.grounding import GroundingContext, GroundingReport, check_grounding
from hybridjudge.grounding import _fast as fast
from hybridjudge.grounding._layout import read_layout
from hybridjudge.grounding._normalize import normalize
from tests.support.tatqa import load_tatqa, load_validity

ROOT = Path(__file__).resolve().parents[2]
Job = tuple[str, tuple[str, ...], str | None]


def _verdict(report: GroundingReport) -> tuple[object, ...]:
    return (
        report.grounded,
        tuple((f.kind, f.subject, f.span, f.evidence) for f in report.findings),
        tuple((t.quantity.span, t.quantity.text, t.source) for t in report.quantities),
    )


def _both(job: Job, monkeypatch: pytest.MonkeyPatch) -> tuple[GroundingReport, GroundingReport]:
    answer, passages, question = job
    monkeypatch.setattr(fast, "ENABLED", False)
    full = check_grounding(answer, passages, question=question)
    monkeypatch.setattr(fast, "ENABLED", True)
    monkeypatch.setattr(fast, "MIN_CHARS", 0)  # short contexts too (parsed whole by default)
    quick = check_grounding(answer, passages, question=question)
    return full, quick


def _compare(jobs: Sequence[Job], monkeypatch: pytest.MonkeyPatch) -> int:
    """Assert the same verdict for every job; return how many traced another occurrence."""
    assert jobs
    moved = 0
    for job in jobs:
        full, quick = _both(job, monkeypatch)
        assert _verdict(quick) == _verdict(full), job
        moved += [(t.passage, t.span) for t in quick.quantities] != [
            (t.passage, t.span) for t in full.quantities
        ]
    return moved


def _corpus(name: str) -> list[Job]:
    folder = ROOT / "corpus" / name
    cases = {c.id: c for c in read_jsonl_models(folder / "cases.jsonl", Case)}
    return [
        (o.text, tuple(cases[o.case_id].context), cases[o.case_id].question)
        for o in read_jsonl_models(folder / "outputs.jsonl", Output)
    ]


@pytest.mark.parametrize("name", ["opengate", "halueval"])
def test_the_corpora_get_the_same_verdicts(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    jobs = _corpus(name)
    moved = _compare(jobs, monkeypatch)
    assert moved <= len(jobs) // 50


def _tatqa_jobs(layout: str, every: int) -> Iterator[Job]:
    tatqa = load_tatqa()
    for doc in tatqa.build_documents(tatqa.load_documents(), every=every, layout=layout):
        for item in doc.items:
            yield item.answer, doc.passages, item.question


@pytest.mark.slow
@pytest.mark.parametrize("layout", ["pipe", "markdown", "html", "pdf"])
def test_tatqa_gets_the_same_verdicts_in_every_layout(
    layout: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # gold, perturbed and fabricated answers of every 3rd document (all of them: the
    # differential run of the branch, 20,224 answers in two layouts plus FinanceBench)
    jobs = list(_tatqa_jobs(layout, every=3))
    moved = _compare(jobs, monkeypatch)
    assert moved <= len(jobs) // 50


@pytest.mark.slow
@pytest.mark.parametrize("layout", ["pipe", "pdf"])
def test_one_long_passage_reads_its_scales_around_each_window(
    layout: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a context of one passage past _REGION_MIN (here: any) reads the scale statements of the
    # blocks around each window only; TAT-QA's passages joined into one, blocks apart
    monkeypatch.setattr(check_module, "_REGION_MIN", 0)
    jobs = [
        (answer, ("\n\n".join(passages),), question)
        for answer, passages, question in _tatqa_jobs(layout, every=5)
    ]
    moved = _compare(jobs, monkeypatch)
    assert moved <= len(jobs) // 50


@pytest.mark.slow
def test_financebench_gets_the_same_verdicts(monkeypatch: pytest.MonkeyPatch) -> None:
    fb = load_validity("financebench")
    if not (fb.DATA / "questions_dev.jsonl").is_file():
        pytest.skip(f"FinanceBench is not at {fb.DATA} (see validity/README.md)")
    jobs = [(a.answer, tuple(a.pages), a.question) for a in fb.load_answers(fb.DATA)]
    moved = _compare(jobs, monkeypatch)
    assert moved <= len(jobs) // 20


def test_a_short_context_is_parsed_whole() -> None:
    context = GroundingContext("Revenue was $12.0 million.")
    assert len(context.passages[0]) < fast.MIN_CHARS
    assert check_grounding("Revenue was $12.0 million.", context).grounded
    assert context._index is not None


def test_a_figure_as_written_needs_no_index(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fast, "MIN_CHARS", 0)
    # the cell "1,496.5" under a caption in another passage: "$1,496.5 million" is found from
    # the lines around it; the full index is never built
    context = GroundingContext(
        (
            "Sales by type (in millions)\n",
            " | 2019 | 2018\nFixed price | $1,452.4 | $1,146.2\nTotal sales | $1,496.5 | $1,202.9",
        )
    )
    report = check_grounding("Total sales were $1,496.5 million in 2019.", context)
    assert report.grounded
    assert [t.matched_text for t in report.quantities] == ["$1,496.5", "2019"]
    assert context._index is None


def test_a_figure_not_as_written_builds_the_index(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fast, "MIN_CHARS", 0)
    context = GroundingContext("Revenue was $12.0 million and costs $8.0 million.")
    report = check_grounding("Profit was $4.0 million.", context)
    assert report.grounded  # a difference: the derivation search
    assert context._index is not None


@pytest.mark.parametrize(
    ("answer", "passages"),
    [
        (
            "Revenue was £1,496.5 million in 2019.",
            ("Key ﬁgures… (in millions)\n | 2019 | 2018\nRevenue | £1,496.5 | £1,202.9", "ﬁn"),
        ),
        (
            "Sales rose to €5.2 million; net income was £1,294 thousand; costs £(35.2).",
            (
                "The group’s “core” sales… rose to €5.2 million ― up from €4.8 million.\n"
                "• Net income was £1,294 thousand.\n\nCosts | £(35.2) | £(30.1)",
            ),
        ),
    ],
)
def test_a_passage_whose_normalisation_moves_offsets_is_read_in_windows(
    answer: str, passages: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    # a ligature, an ellipsis, a horizontal bar: the normalised text is shorter than the
    # original; the window maps its figures back through the passage's own offset map
    assert read_layout(normalize(passages[0])).segments
    full, quick = _both((answer, passages, None), monkeypatch)
    assert quick.grounded
    assert _verdict(quick) == _verdict(full)
    traced = [(t.passage, t.span, t.matched_text) for t in quick.quantities]
    assert traced == [(t.passage, t.span, t.matched_text) for t in full.quantities]
    for passage, span, matched in traced:
        assert passage is not None
        assert span is not None
        assert passages[passage][span[0] : span[1]] == matched
    context = GroundingContext(passages)
    assert _verdict(check_grounding(answer, context)) == _verdict(quick)
    assert context._index is None  # found in windows: the full index was never built


@pytest.mark.parametrize(
    "passages",
    [
        ("Revenue in FY2022 was $5 million; in FY 2021, $4 million.",),
        ("Revenue in 2022 was $5 million.", "Second quarter sales rose; the first half was flat."),
        ("Status under section 501(c)(3) since 2022; Q2 2022 was strong.",),
        ("A 401k plan and 100mph winds in 2022; covid-19 cases fell.",),
    ],
)
def test_an_identifier_is_decided_as_the_full_index_decides(
    passages: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    # fast_identifier (True, False or None: not decided) never disagrees with the identifiers
    # the full parse reads, whether the identifier is written (or named in words) or not
    monkeypatch.setattr(fast, "MIN_CHARS", 0)
    idents = ("fy2022", "fy2021", "fy 2021", "q2", "h1", "q3", "501c3", "401k", "100mph")
    for ident in (*idents, "covid-19", "fy2023", "h2", "2022"):
        decided = GroundingContext(passages).fast_identifier(ident)
        if decided is not None:
            assert decided == (ident in GroundingContext(passages).identifiers), ident


def test_the_environment_switch_turns_the_fast_path_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(fast, "ENABLED", False)
    context = GroundingContext("Revenue was $12.0 million.")
    assert check_grounding("Revenue was $12.0 million.", context).grounded
    assert context._index is not None


_ITEMS = ("revenue", "net income", "cash", "goodwill", "headcount")
_SCALES = ("", "(in thousands)\n", "(in millions)\n", "($ in millions)\n")


@st.composite
def _cases(draw: st.DrawFn) -> tuple[str, tuple[str, ...]]:
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    heading = rng.choice(_SCALES)
    rows = [
        f"{item} | {rng.choice(['$', ''])}{rng.randint(1, 99_999):,} | ({rng.randint(1, 999)})"
        for item in rng.sample(_ITEMS, 3)
    ]
    # a line whose normalisation moves offsets (a ligature, an ellipsis, a horizontal bar)
    table = rng.choice(("", "Key ﬁgures… ― ")) + heading + " | 2020 | 2019\n" + "\n".join(rows)
    prose = f"In {rng.randint(2000, 2023)}, {rng.choice(_ITEMS)} rose {rng.randint(1, 99)}%."
    passages = (table, prose) if rng.random() < 0.5 else (table + "\n\n" + prose,)
    cells = [c.strip() for r in rows for c in r.split("|")[1:]]
    said = [rng.choice(cells) for _ in range(rng.randint(1, 3))]
    scale = rng.choice(("", " million", " thousand"))
    words = [f"{s}{scale}" if rng.random() < 0.5 else s for s in said]
    if rng.random() < 0.3:
        words.append(f"{rng.randint(1, 99_999):,}")  # a figure of no cell
    return "The figures were " + ", ".join(words) + ".", passages


@settings(max_examples=150, deadline=None)
@given(_cases())
def test_generated_tables_get_the_same_verdicts(case: tuple[str, tuple[str, ...]]) -> None:
    answer, passages = case
    with pytest.MonkeyPatch.context() as mp:
        full, quick = _both((answer, passages, None), mp)
    assert _verdict(quick) == _verdict(full)
