"""The TAT-QA validity benchmark (validity/tatqa.py): its construction and the issue's targets.

Golden sources: the TAT-QA dev split itself (Zhu et al., ACL 2021; the answers, their
``derivation`` and ``scale`` as the annotators wrote them) and hand reading of the rows quoted
below; the thresholds are issue 9's acceptance targets (gold answers with no finding: span and
multi-span >= 98%, arithmetic >= 90%; perturbed answers flagged >= 95%).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from tests.support.tatqa import load_tatqa

tatqa = load_tatqa()
RAW = tatqa.load_documents()
EVERY = 10
"""The slice the construction tests read: every 10th context (28 contexts, ~950 answers)."""


@pytest.fixture(scope="module")
def docs() -> list[Any]:
    # The targets are asserted on the whole dev split (278 contexts, ~10,000 answers, about half
    # a minute): on a slice of ~180 perturbed answers per kind one answer is half a point.
    built: list[Any] = tatqa.build_documents(RAW)
    return built


@pytest.fixture(scope="module")
def split_results(docs: list[Any]) -> list[object]:
    results: list[object] = tatqa.run(docs)
    return results


def test_the_shipped_data_is_the_whole_dev_split() -> None:
    # The paper's dev split: 278 tables (contexts) and 1,668 questions.
    assert len(RAW) == 278
    assert sum(len(d["questions"]) for d in RAW) == 1668


def test_first_context_renders_table_rows_and_paragraphs() -> None:
    passages = tatqa.context_passages(RAW[0])
    assert passages[0].splitlines()[-1] == "Total sales | $1,496.5 | $1,202.9 | $1,107.7"
    assert passages[2].endswith("disaggregated by contract type (in millions):")


def test_gold_answers_are_written_with_scale_and_currency() -> None:
    (doc,) = tatqa.build_documents(RAW[:1])
    gold = {it.question_uid[:8]: it.answer for it in doc.items if it.variant == "gold"}
    assert gold["4960801d"] == "$1,496.5 million"  # span "$1,496.5", scale million
    assert gold["eb787966"] == "-12.6 million"  # 44.1 - 56.7, row "Other" has no "$"
    assert gold["05b670d3"] == "-22.22%"  # (44.1 - 56.7) / 56.7, scale percent
    assert gold["593c4388"] == "fixed-price type, cost-plus type and time-and-material type"
    working = {it.question_uid[:8]: it.answer for it in doc.items if it.variant == "gold+working"}
    assert working["05b670d3"] == "(44.1 - 56.7) / 56.7 × 100 = -22.22%"


def test_perturbations_change_one_number_and_never_into_a_context_figure() -> None:
    docs = tatqa.build_documents(RAW, every=EVERY)
    seen = set()
    for doc in docs:
        signed, absolute = tatqa.context_values(doc.passages)
        gold = {(it.question_uid, it.variant): it for it in doc.items}
        for it in doc.items:
            if not it.perturbed:
                continue
            seen.add(it.variant)
            base = gold[(it.question_uid, it.base)]
            assert it.answer != base.answer
            if it.variant == "digit":
                assert len(it.answer) == len(base.answer)
                diffs = [(a, b) for a, b in zip(it.answer, base.answer, strict=True) if a != b]
                assert len(diffs) == 1
                assert abs(int(diffs[0][0]) - int(diffs[0][1])) == 1
            if it.variant == "sign":
                assert it.answer.replace("-", "") == base.answer.replace("-", "")
            new_signed = (
                tatqa.context_values([it.answer])[0] - tatqa.context_values([base.answer])[0]
            )
            if it.variant in ("digit", "x10"):
                assert not {abs(v) for v in new_signed} & absolute, it
            elif it.variant == "sign":
                assert not new_signed & signed, it
    assert seen == set(tatqa.PERTURBATIONS)
    fig = tatqa.figure_from_text("$1,496.5", "million")
    assert fig is not None
    assert fig.value == Decimal("1496.5")
    assert tatqa.figure_from_text("(5,022)", "thousand").text == "-5,022 thousand"


def test_construction_is_deterministic() -> None:
    a = tatqa.build_documents(RAW, every=50)
    b = tatqa.build_documents(RAW, every=50)
    assert [[it.answer for it in d.items] for d in a] == [[it.answer for it in d.items] for d in b]
    c = tatqa.build_documents(RAW, every=50, seed=1)
    assert [[it.answer for it in d.items] for d in a] != [[it.answer for it in d.items] for d in c]


def _gold_rows(results: list[object]) -> dict[str, Any]:
    tables = tatqa.summarise(results)
    rows = tables["gold answers with no finding, numbers mode, by answer type"]
    return {r.group: r for r in rows}


def test_gold_span_answers_have_no_finding(split_results: list[object]) -> None:
    rows = _gold_rows(split_results)
    for group in ("span [gold]", "multi-span [gold]"):
        row = rows[group]
        assert row.n >= 20
        assert row.target == 0.98
        assert row.hybridjudge >= row.target, row


def test_gold_arithmetic_answers_with_working_have_no_finding(split_results: list[object]) -> None:
    row = _gold_rows(split_results)["arithmetic [gold+working]"]
    assert row.n >= 20
    assert row.target == 0.90
    assert row.hybridjudge >= row.target, row


def test_gold_arithmetic_values_have_no_finding(split_results: list[object]) -> None:
    row = _gold_rows(split_results)["arithmetic [gold]"]
    assert row.n >= 20
    assert row.target == 0.90
    assert row.hybridjudge >= row.target, row


def _perturbed_rows(results: list[object]) -> dict[str, Any]:
    tables = tatqa.summarise(results)
    rows = tables[
        "perturbed answers flagged (digit/x10/sign: numbers mode; swap: anchored), by kind"
    ]
    assert {r.group for r in rows} == set(tatqa.PERTURBATIONS)
    return {r.group: r for r in rows}


@pytest.mark.parametrize("kind", ["digit", "x10", "sign", "swap"])
def test_perturbed_answers_are_flagged(split_results: list[object], kind: str) -> None:
    row = _perturbed_rows(split_results)[kind]
    assert row.n >= 1000
    assert row.target == tatqa.PERTURBED_TARGET == 0.95
    assert row.hybridjudge >= row.target, row


def test_fabricated_numbers_are_rarely_explained_by_chance(docs: list[Any]) -> None:
    # Issue 9: the share of random fabricated numbers that some derivation "explains" must stay
    # low (aim under 2%); no question is passed, so only the context's figures can explain one.
    out = tatqa.run_fabricated(docs)
    assert out["n"] >= 2000
    assert out["hybridjudge_explained_by_derivation"] < 0.02, out
    assert out["hybridjudge_passed"] < 0.03, out


def test_answers_in_a_models_phrasing_stay_grounded_and_wrong_ones_flagged() -> None:
    # Every 5th context (56): the gold answers each checker passes as written, put in the
    # sentences of tatqa.PHRASINGS, SCALE_FORMS and OPERAND_PHRASINGS ("In FY19, it was X.",
    # "It was X y/y.", "$X mil", "It went from A to B, a change of X."), and the digit and sign
    # perturbations it flags. Each phrasing read wrong cost most of its answers before (FY19
    # kept 4.3% of the gold answers, y/y 36.9%, "$X mil" 58.9% and let 3% of the wrong ones
    # through; "from A to B, a change of -X" let 57% of the sign flips through); a reporting
    # period ("for the twelve months ended") is a claim only a context naming one grounds (a
    # period ended, a table whose columns are years: 93.5% on the whole split, 68.4% before the
    # columns counted), so gold answers have a lower bound there.
    rows = {r.phrasing: r for r in tatqa.run_phrasings(tatqa.build_documents(RAW, every=5))}
    assert (
        len(rows)
        == len(tatqa.PHRASINGS) + len(tatqa.SCALE_FORMS) + len(tatqa.OPERAND_PHRASINGS) + 4
    )
    # the working in LaTeX (tatqa.LATEX_WORKING) is held to what the working written plainly
    # gets: "-\$154" lost its sign and "\frac{a - b}{b}" its figures before LaTeX was read
    assert tatqa.LATEX_WORKING in rows
    for name, row in rows.items():
        # negative answers only for the accounting negative "(X) million": 85 on the whole split
        assert row.n["gold"] >= (10 if name.startswith("(X) million") else 20), row
        assert row.n["digit"] >= 10, row
        if name == tatqa.DIRECTION:
            # "a decrease of X" for a change's sign: a sign flip shows only where the table's
            # years or the rows the question names fix the direction, and another pair of
            # cells may differ by the same amount (92.8% here, 85.5% before the named rows'
            # other direction counted as a finding; 90.9% on the whole split)
            assert row.hybridjudge["sign"] >= 0.9, row
            assert row.hybridjudge["gold"] >= 0.98, row
            assert row.hybridjudge["digit"] >= 0.98, row
            continue
        if name == tatqa.RESCALED:
            # "$1.86 billion" for 1,858 million is as precise as its three or four significant
            # digits: a wrong figure so rounded meets a chance derivation more often (95.7% and
            # 98.1% flagged on the whole split)
            assert row.hybridjudge["digit"] >= 0.93, row
            assert row.hybridjudge["sign"] >= 0.95, row
            assert row.hybridjudge["gold"] >= 0.98, row
            continue
        assert row.hybridjudge["digit"] >= 0.98, row
        if not name.startswith("operands"):
            assert row.hybridjudge["sign"] >= 0.98, row
        if name == "reporting period (twelve months)":
            bound = 0.85
        elif name == tatqa.FULL_DIGITS:
            # "$96,168,000" for 96,168 under a caption "(in thousands)" kept in a passage of
            # its own: 94.5% here (87.6% on the whole split; 53.0% before such captions
            # counted, 72.8% before derivations took the caption's scale)
            bound = 0.85
        else:
            bound = 0.95 if name.startswith("operands") else 0.98
        assert row.hybridjudge["gold"] >= bound, row
    for name in ("operands: from ... to ...", "operands: compared with"):
        assert rows[name].hybridjudge["sign"] >= 0.90, rows[name]


def test_tables_laid_out_a_cell_per_line_keep_the_pipe_rows_rates() -> None:
    # The whole dev split with each table as a PDF extractor returns it (validity/README.md,
    # `--layout pdf`): a cell per line, `$` on its own line. On main (3695426) span answers
    # passed 89.4%, multi-span 91.2%, bare arithmetic 48.9% (the table's scale heading governed
    # nothing below a line holding a space, and no figure line was a cell).
    docs = tatqa.build_documents(RAW, layout="pdf")
    assert docs[0].passages[0].splitlines()[-7:] == [
        "Total sales",
        "$",
        "1,496.5",
        "$",
        "1,202.9",
        "$",
        "1,107.7",
    ]
    results = tatqa.run(docs)
    gold = _gold_rows(results)
    assert gold["span [gold]"].hybridjudge >= 0.995  # 99.7% (pipe rows 100%)
    assert gold["multi-span [gold]"].hybridjudge >= 0.995  # 100%
    assert gold["arithmetic [gold+working]"].hybridjudge >= 0.995  # 99.9%
    assert gold["arithmetic [gold]"].hybridjudge >= 0.90  # 90.7% (pipe rows 92.2%)
    perturbed = _perturbed_rows(results)
    for kind in ("digit", "x10", "sign", "swap"):
        assert perturbed[kind].hybridjudge >= 0.95, perturbed[kind]


def test_tables_whose_words_an_extractor_glued_keep_the_pdf_texts_rates() -> None:
    # The whole dev split as pypdf writes a PDF without space glyphs (`--layout glued`): a cell
    # per line, each text cell's words glued (`Discountrate`, `(Inthousands)`,
    # `January26,2019`). At 83eee4e bare arithmetic passed 88.2% and flipped signs were flagged
    # 94.3% (a question named no glued row, no glued statement scaled its table); the PDF text
    # with spaces: 92.3% and 96.3%.
    docs = tatqa.build_documents(RAW, layout="glued")
    assert "Discountrate" in docs[2].passages[0].splitlines()
    results = tatqa.run(docs)
    rows = {**_gold_rows(results), **_perturbed_rows(results)}
    bounds = {
        "span [gold]": 0.99,  # 99.6% (PDF text 100%)
        "multi-span [gold]": 0.995,  # 100%
        "arithmetic [gold+working]": 0.995,  # 99.9%
        "arithmetic [gold]": 0.91,  # 91.5% (PDF text 92.3%)
        **dict.fromkeys(("digit", "x10", "sign", "swap"), 0.955),  # 97.0, 97.5, 96.3, 99.8%
    }
    low = {name: rows[name].hybridjudge for name, bound in bounds.items()}
    assert all(low[name] >= bound for name, bound in bounds.items()), low


def test_reform_writes_every_answer_and_the_table_s_passage_alone() -> None:
    docs = tatqa.build_documents(RAW, every=100)
    passages = [d.passages for d in docs]
    answers = [[i.answer for i in d.items] for d in docs]
    tatqa.reform(docs, "list", "title")
    for doc, before, written in zip(docs, passages, answers, strict=True):
        assert doc.passages == (f"Table 3\n\n{before[0]}", *before[1:])
        assert [i.answer for i in doc.items] == [
            f"- {a}\n- Source: the table above." for a in written
        ]


@pytest.mark.parametrize(
    ("answer_form", "page_form", "layout", "currency"),
    [
        ("list", "plain", "pipe", "dollar"),
        ("numbered", "plain", "pipe", "dollar"),
        ("latex-dollar", "plain", "pipe", "dollar"),
        ("plain", "title", "pdf", "dollar"),
        ("plain", "footer", "pdf", "dollar"),
        ("plain", "plain", "pipe", "rmb"),
        ("plain", "plain", "pipe", "rupee"),
        ("plain", "plain", "pdf", "ringgit"),
    ],
)
def test_answers_and_pages_as_pipelines_hand_them_over_keep_the_rates(
    answer_form: str, page_form: str, layout: str, currency: str
) -> None:
    # Every third context (`--every 3 --answer-form F --page-form P --layout L --currency C`).
    # At 39fe99e: a list's first item, working 4.7% and sign flagged 75.9% (its dash read as a
    # minus); a numbered list, working 97.9% and bare arithmetic 91.0% (the item's number a
    # figure); escaped dollars, working 99.1%; at 8c9867a a PDF page's title or footer, bare
    # arithmetic 91.0% (the table then no grid); at 560fc1f `RMB`, `Rs. ` and `RM` for `$`,
    # sign flagged 74-76% on the whole split (`-RMB12.6 million` read as positive) and bare
    # arithmetic 88.7-89.7% (`RMB(62)` no figure). Now 100%, 96.5-96.7%, 92.3-93.2%.
    docs = tatqa.build_documents(RAW, every=3, layout=layout)
    tatqa.reform(docs, answer_form, page_form, currency)
    results = tatqa.run(docs)
    rows = {**_gold_rows(results), **_perturbed_rows(results)}
    bounds = {
        "span [gold]": 0.99,
        "multi-span [gold]": 0.99,
        "arithmetic [gold+working]": 0.995,
        "arithmetic [gold]": 0.92,
        **dict.fromkeys(("digit", "x10", "sign", "swap"), 0.95),
    }
    low = {name: rows[name].hybridjudge for name in bounds}
    assert all(low[name] >= bound for name, bound in bounds.items()), low


def _assert_anchored(
    results: list[object], *, span: float, multi: float, bare: float, working: float
) -> None:
    """The gold answers with no finding in anchored mode, by answer type, at the bounds."""
    anchored = tatqa.summarise(results)[
        "gold answers with no finding, anchored mode, by answer type"
    ]
    rows = {r.group: r.hybridjudge for r in anchored}
    bounds = {
        "span [gold]": span,
        "multi-span [gold]": multi,
        "arithmetic [gold]": bare,
        "arithmetic [gold+working]": working,
    }
    assert all(rows[name] >= bound for name, bound in bounds.items()), rows


@pytest.mark.parametrize(
    ("answer_form", "marker"), [("french", " milliers"), ("french-dollar", " k$")]
)
def test_answers_written_the_continental_way_keep_their_required_facts(
    answer_form: str, marker: str
) -> None:
    # Every third context, each answer's figures written as a model answering in French writes
    # them (`--answer-form french`: `22 626 milliers`, `-42,7 - 20,9 = -63,6 millions`), or as
    # French in Canada writes a dollar amount, the sign after it and its scale glued to the sign
    # (`french-dollar`: `22 626 k$`, `-1 496,5 M$`, `168 $`), the required facts as TAT-QA
    # writes them (`22,626 thousand`). On the whole split, the required facts were kept in
    # 71-85% of the gold answers at ea63376 for `french` (`milliers` no scale after a figure,
    # `-42,7 - 20,9` a CSV row), in 72.7-78.3% at 72633da for `french-dollar` (`22,6 M$` read as
    # metres, `2,41 $` as no money; 81.5-99.6% with no finding in numbers mode); now 98.6-100%,
    # and the numbers mode at the English form's rates.
    docs = tatqa.build_documents(RAW, every=3)
    tatqa.reform(docs, answer_form)
    assert any(marker in i.answer for d in docs for i in d.items)  # the form applies
    results = tatqa.run(docs)
    _assert_anchored(results, span=0.97, multi=0.97, bare=0.99, working=0.99)
    numbers = _gold_rows(results)
    assert numbers["arithmetic [gold+working]"].hybridjudge >= 0.99
    assert numbers["arithmetic [gold]"].hybridjudge >= 0.90
    assert numbers["span [gold]"].hybridjudge >= 0.98
    perturbed = _perturbed_rows(results)
    assert all(perturbed[k].hybridjudge >= 0.95 for k in ("digit", "x10", "sign", "swap"))


def test_answers_written_rounded_keep_their_required_facts_and_working() -> None:
    # Every third context, each figure with a scale word or `%` rounded to three significant
    # digits, a thousand of a scale in the next (`--answer-form rounded`: `$22.6 million` for
    # `$22,626 thousand`, `(4,411 + 4,044) / 2 = 4.23 billion` for cells in millions), the
    # required facts as TAT-QA writes them. At e331bac, on the whole split, 52-82% of the gold
    # answers kept their required facts (a required fact matched its exact value only) and
    # 75.3% of the answers showing working had no finding (the working in the cells' scale, the
    # result in the next); now 95.5-99.5% and 99.3%.
    docs = tatqa.build_documents(RAW, every=3)
    tatqa.reform(docs, "rounded")
    assert any(" million" in i.answer and "thousand" in i.anchors[0] for d in docs for i in d.items)
    results = tatqa.run(docs)
    _assert_anchored(results, span=0.97, multi=0.97, bare=0.93, working=0.97)
    assert _gold_rows(results)["arithmetic [gold+working]"].hybridjudge >= 0.97


@pytest.mark.parametrize(
    ("answer", "rounded"),
    [
        ("It was $22,626 thousand.", "It was $22.6 million."),
        ("-$1,496.5 million", "-$1.50 billion"),
        ("It rose 30.79%.", "It rose 30.8%."),
        ("$168 thousand", "$168 thousand"),  # three digits stay
        ("In 2019: 1,234.5", "In 2019: 1,234.5"),  # no scale word, no percent sign
    ],
)
def test_the_rounded_form_rounds_figures_with_a_scale_to_three_digits(
    answer: str, rounded: str
) -> None:
    assert tatqa.ANSWER_FORMS["rounded"](answer) == rounded
