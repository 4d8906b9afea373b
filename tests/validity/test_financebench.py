"""The FinanceBench validity benchmark (validity/financebench.py) and the figures it holds.

FinanceBench's oracle answers (patronus-ai/financebench; people labelled each ``Correct
Answer``, ``Incorrect Answer`` or ``Refusal``) are read from ``shared/data/financebench`` in a folder above the repository,
never copied into the repository: without it the tests that need it are skipped with a message.
The figures asserted are those measured in ``validity/README.md`` (number traceability only),
held so that a change cannot lose them unseen.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support.tatqa import load_validity

fb = load_validity("financebench")
HAVE_DATA = (fb.DATA / "questions_dev.jsonl").is_file()
needs_data = pytest.mark.skipif(
    not HAVE_DATA,
    reason=f"FinanceBench not found at {fb.DATA} (pass --data to validity/financebench.py)",
)


@pytest.fixture(scope="module")
def results() -> list[Any]:
    out: list[Any] = fb.check_all(fb.load_answers(fb.DATA))
    return out


def test_absent_data_is_a_message_not_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert fb.main(["--data", str(tmp_path / "nowhere")]) == 0
    assert "FinanceBench not found" in capsys.readouterr().out


def test_causes_are_read_without_the_checker() -> None:
    pages = fb._values(["Total current assets\n$\n5,409 \n$\n4,816", "2,018"])
    assert fb.cause("$5,409 million", pages) == "as written"
    assert fb.cause("$5,409,000,000", pages) == "as written"  # 5,409 in millions
    assert fb.cause("$10,225 million", pages) == "computed"  # 5,409 + 4,816
    assert fb.cause("December 31, 2016", pages) == "date"
    assert fb.cause("FY2021", pages) == "date"
    assert fb.cause("three years", pages) == "other"


@needs_data
def test_every_third_company_by_name_is_held_out() -> None:
    answers = fb.load_answers(fb.DATA)
    held = sorted({a.company for a in answers if a.held_out})
    assert held == ["American Express", "Boeing", "Corning", "Lockheed Martin", "PepsiCo"]
    assert len(answers) == 332


def test_the_gold_figure_is_read_at_its_own_precision() -> None:
    # hand-computed: 1,615.9 rounds to 1616; 0.389 billion is 389 million; 66.37% is 0.6637,
    # 0.66 at two decimals; 7.8% is 0.078, not 0.079; a year is no gold figure
    assert fb.gold_figure("AMCOR's Adj. EBITDA was $2,018mn in FY 2023") == 2018
    assert fb.gold_figure("In 2022 it was 1,616") == 1616
    assert fb.gold_figure("Trillium, Array, and Therachon") is None
    assert fb.states_gold("net AR is $1,615.9 million", fb.gold_figure("1616"))
    assert fb.states_gold("paid $0.389 billion", fb.gold_figure("389"))
    assert fb.states_gold("the ratio is 66.37%", fb.gold_figure("0.66"))
    assert not fb.states_gold("the average is 7.8%", fb.gold_figure("0.079"))
    assert not fb.states_gold("DPO is 42.67 days", fb.gold_figure("42.69"))


@needs_data
def test_the_gold_figure_catches_incorrect_answers_at_a_cost(results: list[Any]) -> None:
    # validity/README.md: with the gold answer's figure as a required fact, incorrect answers
    # flagged 41.0% -> 89.7% (35 of 39), correct ones 12.3% -> 21.8% (62 of 284; 22.5% before
    # a percentage among the answer's own operands was read as a fraction, 7 December: a
    # retention ratio's '0.54 or 54.00%'; 22.9% before a result was derived from operands its
    # sentence states after it)
    text = fb.gold_rates(fb.load_answers(fb.DATA), results)
    rows = {tuple(line.split()[:3]): line.split()[-1] for line in text.splitlines()[3:]}
    assert rows[("all", "Incorrect", "Answer")] == "89.7%"
    assert rows[("all", "Correct", "Answer")] == "21.8%"


@needs_data
def test_correct_answers_flagged_and_incorrect_ones_caught(results: list[Any]) -> None:
    # measured on this commit (validity/README.md); on main at 3695426: 148 of 284 correct
    # answers flagged (52.1%), 29 of 39 incorrect (74.4%): most of those were flagged for a
    # right figure whose scale the page states once at its top
    rows = {r.label: r for r in fb.rates(results, "all")}
    correct, incorrect = rows["Correct Answer"], rows["Incorrect Answer"]
    assert (correct.n, incorrect.n) == (284, 39)
    # issue 33's target, <= 15%: 35 of 284 (12.3%); 37 (13.0%) before a percentage among the
    # answer's own operands was read as a fraction (7 December), 38 (13.4%) before a result
    # was derived from operands stated after it; 40 (14.1%) before the trace rule
    # enumerated (a count of the answer's own list: 'two separate agreements:' over a list of
    # two, 'these two customer groups'), 15.5% before values rounded twice, 18.3% before the
    # trace rules of 4 December, 28.5% before dates were read
    assert round(correct.hybridjudge * correct.n) <= 35
    # 16 of 39 (41.0%; 20, then 17 before): incorrect answers whose every figure is rightly
    # derived are no longer flagged ('0.573' = $2,564 million / $4,476 million, stated again
    # in the conclusion; '$5,308 million' = $5,727m - $419m): wrong in their reasoning; on 5
    # December a two-year CAGR shown as '(65,984 / 65,398) ^ (1 / 2) - 1 = 0.0045' (held out:
    # labelled incorrect, its figures right; the rule was written before it was seen)
    assert round(incorrect.hybridjudge * incorrect.n) >= 16


@needs_data
def test_held_out_companies_meet_the_target(results: list[Any]) -> None:
    # 12.2% (14 of 115); 13.9% before the trace rule enumerated (both of its answers are held
    # out), 19.1% before dates and the trace rules 'repeated' and 'truncated'
    correct = {r.label: r for r in fb.rates(results, "held-out")}["Correct Answer"]
    assert round(correct.hybridjudge * correct.n) <= 14


@needs_data
def test_no_correct_answer_is_flagged_for_a_date(results: list[Any]) -> None:
    # 15 were before: 'December31,' (the extractor's spaces lost), 'June 30,' over a row of
    # years, 'FY2023' named by the question only
    assert fb.causes(results, "all")["date"] == 0


@needs_data
def test_no_correct_answer_is_flagged_for_a_figure_as_written_on_held_out_companies(
    results: list[Any],
) -> None:
    assert fb.causes(results, "held-out")["as written"] == 0
