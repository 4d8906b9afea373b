"""Another row's figure (``_rows``, ``GroundingChecker._other_rows``): a figure found as written in
a table's row, where the answer's words around it name another row of that table and nothing of
its own, is a finding; every layout whose cells the context marks (pipes, Markdown, HTML, tabs),
read from the lines of the one table, with the fast path and without it."""

from __future__ import annotations

import pytest

from hybridjudge.grounding import GroundingContext, check_grounding
from hybridjudge.grounding import _fast as fast

ROWS = [("Licence de psychologie", "388"), ("Informatique", "415"), ("Droit", "502")]
HEAD = ("Filière", "Inscrits")


def _layout(layout: str, rows: list[tuple[str, str]], head: tuple[str, str] = HEAD) -> str:
    if layout == "pipe":
        return "\n".join(f"{a} | {b}" for a, b in [head, *rows])
    if layout == "markdown":
        lines = [f"| {a} | {b} |" for a, b in [head, *rows]]
        return "\n".join([lines[0], "|---|---|", *lines[1:]])
    if layout == "html":
        cells = "".join(f"<tr><td>{a}</td><td>{b}</td></tr>" for a, b in rows)
        return f"<table><tr><th>{head[0]}</th><th>{head[1]}</th></tr>{cells}</table>"
    if layout == "tsv":
        return "\n".join(f"{a}\t{b}" for a, b in [head, *rows])
    assert layout == "pdf"  # a cell per line, as an extractor returns a statement
    return "\n".join(x for pair in [head, *rows] for x in pair)


LAYOUTS = ("pipe", "markdown", "html", "tsv")
# long enough for the fast path (grounding._fast.MIN_CHARS) as well as short
PADDING = "Les inscriptions de la rentrée 2024, par filière, arrêtées au 15 octobre. " * 8


@pytest.fixture(params=[True, False], ids=["fast", "full"])
def fast_path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> bool:
    monkeypatch.setattr(fast, "ENABLED", request.param)
    return bool(request.param)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("padding", ["", PADDING], ids=["short", "long"])
def test_a_figure_the_answer_gives_another_row_is_a_finding(
    layout: str, padding: str, fast_path: bool
) -> None:
    context = [padding + "\n\n" + _layout(layout, ROWS)]
    report = check_grounding("415 étudiants se sont inscrits en licence de psychologie.", context)
    assert not report.grounded
    (finding,) = report.findings
    assert finding.kind == "ungrounded_number"
    assert finding.subject == "415"
    assert '"Informatique"' in finding.message
    assert '"Licence de psychologie"' in finding.message


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize(
    "answer",
    [
        "388 étudiants se sont inscrits en licence de psychologie.",  # its own row
        "L'informatique compte 415 inscrits, contre 388 en psychologie.",  # both, each its own
        "415 inscrits en informatique, soit plus qu'en psychologie.",  # the other as comparison
        "Il y a 415 inscrits.",  # no row named
    ],
)
def test_a_figure_the_answer_gives_its_own_row_stays_grounded(layout: str, answer: str) -> None:
    assert check_grounding(answer, [_layout(layout, ROWS)]).grounded


def test_a_row_of_quarters_named_by_an_identifier_and_a_year() -> None:
    rows = [("Q1 2024", "1,280"), ("Q2 2024", "1,351"), ("Q3 2024", "1,402")]
    context = [_layout("markdown", rows, ("Quarter", "Revenue ($ million)"))]
    wrong = check_grounding("Q1 2024 revenue was $1,351 million.", context)
    assert [f.subject for f in wrong.findings] == ["$1,351 million"]
    assert '"Q2 2024"' in wrong.findings[0].message
    assert check_grounding("Q2 2024 revenue was $1,351 million.", context).grounded


def test_a_label_the_figure_s_row_extends_is_no_other_row() -> None:
    # "Revenue" names the total row's words but one: the answer names no word the two do not
    # share beyond a total word, so the total's figure stays grounded
    rows = [("Product revenue", "310"), ("Service revenue", "105"), ("Total revenue", "415")]
    context = [_layout("pipe", rows, ("Line", "2024"))]
    assert check_grounding("Revenue was 415 in 2024.", context).grounded
    assert check_grounding("Total revenue was 415 in 2024.", context).grounded
    wrong = check_grounding("Service revenue was 415 in 2024.", context)
    assert not wrong.grounded


def test_a_figure_written_twice_in_the_context_is_left_alone() -> None:
    rows = [("Licence de psychologie", "388"), ("Informatique", "415"), ("Droit", "415")]
    context = [_layout("markdown", rows)]
    assert check_grounding("415 étudiants en licence de psychologie.", context).grounded


def test_a_statement_an_extractor_laid_out_is_not_read_for_rows() -> None:
    # PDF text: a cell per line, rows made by the layout reader, not by the context: its labels
    # may be split from their figures, so the rule does not read them
    context = [_layout("pdf", ROWS)]
    assert check_grounding("415 étudiants en licence de psychologie.", context).grounded


def test_a_prepared_context_is_not_parsed_whole_for_it() -> None:
    ctx = GroundingContext([PADDING + "\n\n" + _layout("markdown", ROWS)])
    report = check_grounding("415 étudiants se sont inscrits en licence de psychologie.", ctx)
    assert not report.grounded
    assert ctx._index is None  # read from the table's lines: the full index never built


def test_a_word_of_a_script_without_spaces_names_its_row() -> None:
    rows = [("강남3구", "24억 3,500만 원"), ("노도강", "6억 1,900만 원")]
    context = [_layout("markdown", rows, ("권역", "평균가격"))]
    right = "강남3구 평균가격(24억 3,500만 원)은 노도강(6억 1,900만 원)의 약 3.9배입니다."
    assert all(
        "stands in the row" not in f.message for f in check_grounding(right, context).findings
    )
    wrong = check_grounding("노도강 권역의 평균가격은 24억 3,500만 원입니다.", context)
    assert any("stands in the row" in f.message for f in wrong.findings)


# --- another column's year ---------------------------------------------------------------------

STATEMENT = (
    "| (in millions of USD) | FY2024 | FY2023 | FY2022 |\n"
    "|---|---:|---:|---:|\n"
    "| Net revenue | $12,318 | $11,046 | $9,872 |\n"
    "| Operating income | 1,874 | 1,402 | 1,115 |\n"
)


@pytest.mark.parametrize(
    "answer",
    [
        "Operating income was $1,402 million in FY2024.",
        "In FY2024, operating income was $1,402 million.",
        "FY2024 operating income: $1,402 million.",
    ],
)
def test_a_figure_the_answer_gives_another_column_s_year_is_a_finding(
    answer: str, fast_path: bool
) -> None:
    report = check_grounding(answer, [PADDING + "\n\n" + STATEMENT])
    (finding,) = report.findings
    assert finding.subject == "$1,402 million"
    assert "column of 2023, not of 2024" in finding.message


@pytest.mark.parametrize(
    "answer",
    [
        "Operating income was $1,402 million in FY2023.",  # its own column's year
        "Operating income rose to $1,874 million in FY2024 from $1,402 million.",  # the other's
        "Operating income was $1,874 million in FY2024, up from $1,402 million in FY2023.",
        "Operating income was $1,402 million.",  # no year
        # the year named for another figure of the sentence, nearer to it
        "In FY2024 revenue was $12,318 million; operating income was $1,402 million a year before.",
    ],
)
def test_a_figure_the_answer_gives_its_own_column_stays_grounded(answer: str) -> None:
    report = check_grounding(answer, [STATEMENT])
    assert all("column of" not in f.message for f in report.findings), report.findings


def test_another_column_s_year_in_an_html_table_and_in_german() -> None:
    html = (
        "<table><tr><th>in Mio. €</th><th>2023</th><th>2022</th></tr>"
        "<tr><td>Umsatzerlöse</td><td>1.204,0</td><td>1.118,3</td></tr>"
        "<tr><td>Jahresüberschuss</td><td>171,9</td><td>162,5</td></tr></table>"
    )
    wrong = check_grounding("Der Jahresüberschuss 2023 betrug 162,5 Mio. €.", [html])
    assert [f.subject for f in wrong.findings] == ["162,5 Mio. €"]
    assert check_grounding("Der Jahresüberschuss 2022 betrug 162,5 Mio. €.", [html]).grounded


def test_another_column_s_year_in_pipe_rows_whose_header_has_an_empty_label() -> None:
    # TAT-QA's pipe rows: the header's empty first cell is written " | 2019 | 2018"
    table = (
        " | As of December 31, | \n | 2019 | 2018\n"
        "Non-current deferred tax assets | $19,795 | $22,201\n"
        "Total net deferred tax assets | $14,158 | $18,211"
    )
    wrong = check_grounding("Total net deferred tax assets were $14,158 in 2018.", table)
    assert [f.subject for f in wrong.findings] == ["$14,158"]
    assert "column of 2019, not of 2018" in wrong.findings[0].message
    assert check_grounding("Total net deferred tax assets were $14,158 in 2019.", table).grounded


@pytest.mark.parametrize(
    ("table", "answer"),
    [
        # the words after a percentage name its whole, not its row: a share the answer states
        # beside its figure, equal by chance to another row's cell
        (
            " | 2019 | 2018\nSenior notes due 2024 | 421.9 | 421.3\n"
            "Other foreign borrowings | 12.1 | 10.4\nTotal debt | 3,480.2 | 3,478.6",
            "It was 421.3 in 2018, 12.1% of total debt.",
        ),
        # a year before a comma is the figure's before it: "in 2018," is 9.5's, and 0.7%
        # (equal by chance to a 2019 cell) is named with none
        (
            " | 2019 | 2018\nCalled-up share capital | 9.3 | 9.5\n"
            "Capital redemption reserve | 0.7 | 0.5\nTotal equity | 1,220.5 | 1,365.4",
            "It was 9.5 in 2018, 0.7% of total equity.",
        ),
    ],
    ids=["a share's whole", "a year before a comma"],
)
def test_a_share_equal_to_another_cell_by_chance_is_left_alone(table: str, answer: str) -> None:
    assert all("stands in the" not in f.message for f in check_grounding(answer, table).findings)


def test_a_fiscal_year_ending_early_in_a_year_is_the_year_before_too() -> None:
    # VMware's "January 31, 2020" column is the year TAT-QA's question calls 2019
    table = (
        " |  | For the Year Ended | \n"
        "Plan | January 31, 2020 | February 1, 2019 | February 2, 2018\n"
        "Expected term (in years) | 0.6 | 0.8 | 0.9"
    )
    assert check_grounding("In 2019, it was 0.6.", table).grounded
    wrong = check_grounding("In 2017, the expected term was 0.6 years.", table)
    assert any("column of" in f.message for f in wrong.findings)


def test_a_year_the_question_asks_for_may_be_the_figure_s() -> None:
    # "respective values in 2018 and 2019" answered with both figures after one year
    question = "What are the respective values of raw materials in 2018 and 2019?"
    table = " | 2019 | 2018\nRaw material | $222 | $191\nFinished goods | 668 | 716"
    answer = "In 2019, it was $191 thousand and $222 thousand."
    report = check_grounding(answer, table, question=question)
    assert all("column of" not in f.message for f in report.findings)
    assert any(
        "column of" in f.message for f in check_grounding(answer, table).findings
    )  # without the question, 2019 is named beside 191 alone


@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_change_the_answer_states_is_its_row_s_change_from_another_row(layout: str) -> None:
    """``base rent rises 3%``: the change of the base rent, which the table states in a row of
    its own (``Annual escalation``); the same 3% given as the base rent itself is a finding."""
    rows = [("Base rent (Year 1)", "$4,900 per month"), ("Annual escalation", "3%")]
    context = [_layout(layout, rows, ("Term", "Detail"))]
    for answer in (
        "In the second year, base rent rises 3%.",
        "Base rent goes up by 3% each year.",
        "Base rent increases 3% a year.",
    ):
        assert check_grounding(answer, context).grounded, (layout, answer)
    report = check_grounding("The base rent is 3% of the lease.", context)
    assert [f.subject for f in report.findings] == ["3%"]
    assert '"Annual escalation"' in report.findings[0].message
