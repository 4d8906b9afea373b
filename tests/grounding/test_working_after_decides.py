"""Working an answer writes in brackets after a figure decides it (``_check._trace_working_after``):
a percentage of a figure (``(41% of 186)``: 0.41 × 186 = 76.26, by hand) is working too, and a
figure the working does not give is a finding even where other figures of the context give it
by chance (a mean of three cells of a row gave 67: (97 + 30.9 + 74.2) / 3 = 67.37)."""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding

EXAMS = (
    "Subject\tEntries\tGrade 7+ (%)\tGrade 4+ (%)\tGrade 4+ national (%)\n"
    "English Language\t186\t24.7\t78.5\t75.1\nHistory\t97\t30.9\t74.2\t70.0\n"
    "Students entering the EBacc: 41% of the cohort of 186."
)


@pytest.mark.parametrize(
    ("answer", "grounded", "rule"),
    [
        ("Around 76 students (41% of 186) entered the EBacc.", True, "shown_working"),
        ("76 students (41% of 186) entered the EBacc.", True, "shown_working"),
        # the working gives 76.26: 67 is a finding, though a row's three cells give it by chance
        ("Around 67 students (41% of 186) entered the EBacc.", False, None),
    ],
)
def test_a_percentage_of_a_figure_in_brackets_is_working_that_decides(
    answer: str, grounded: bool, rule: str | None
) -> None:
    report = check_grounding(answer, [EXAMS])
    assert report.grounded is grounded
    assert report.quantities[0].rule == rule


@pytest.mark.parametrize(
    ("answer", "grounded"),
    [
        ("The deductible is $3,850 (1.0% of $385,000).", True),
        ("The deductible is $3,580 (1.0% of $385,000).", False),
        ("La franchise est de 3 850 $ (1,0 % de 385 000 $).", True),
    ],
)
def test_share_working_in_languages(answer: str, grounded: bool) -> None:
    context = "Coverage A (Dwelling): $385,000. Deductible: 1.0% of Coverage A."
    assert check_grounding(answer, [context]).grounded is grounded


SCHOOL = [
    "Subject\tEntries\tGrade 9-7 (%)\tGrade 9-4 (%)\tGrade 9-4 2023 (%)\n"
    "English Language\t186\t24.7\t78.5\t75.1\nMathematics\t186\t21.0\t72.0\t74.6\n"
    "History\t97\t30.9\t74.2\t70.0",
    "Attainment 8 average score: 49.3 (national average 46.1). Progress 8: +0.21.",
]


@pytest.mark.parametrize(
    ("answer", "grounded"),
    [
        # 49.3 - 46.1 = 3.2, by hand: a gap from the figure the sentence states
        ("Oakfield's score of 49.3 was 3.2 points above the national average.", True),
        # 4.2 is no gap from 49.3 (74.2 - 70.0 of another row gives it by chance)
        ("Oakfield's score of 49.3 was 4.2 points above the national average.", False),
        # a small whole number before it names, it states no figure to compare: no gap from it
        ("Oakfield's Attainment 8 score was 3.2 points above the national average.", True),
    ],
)
def test_a_gap_from_a_stated_figure_decides(answer: str, grounded: bool) -> None:
    report = check_grounding(answer, SCHOOL)
    assert report.grounded is grounded, report.findings
    if grounded:
        assert report.quantities[-1].rule == "difference"


STATS = (
    "<table><tr><th>Season</th><th>Games</th><th>Points</th><th>FT made</th>"
    "<th>FT attempted</th></tr><tr><td>2021–22</td><td>20</td><td>296</td><td>48</td>"
    "<td>59</td></tr><tr><td>2022–23</td><td>21</td><td>372</td><td>63</td><td>74</td></tr>"
    "<tr><td>2023–24</td><td>18</td><td>351</td><td>61</td><td>72</td></tr></table>"
)


@pytest.mark.parametrize(
    ("answer", "grounded"),
    [
        # 48 / 59 = 81.4%, by hand
        ("She made 48 of 59 free throws in 2021–22, about 81%.", True),
        ("She made 48 of 59 free throws (81.4%).", True),
        # the share she states is 48 of 59: 85% is a finding (61 / 72 gives 84.7% by chance)
        ("She made 48 of 59 free throws in 2021–22, about 85%.", False),
        ("She made 48 of 59 free throws (84.7%).", False),
    ],
)
def test_a_percentage_restating_a_share_the_answer_states_is_that_share(
    answer: str, grounded: bool
) -> None:
    report = check_grounding(answer, [STATS])
    assert report.grounded is grounded, report.findings
    if grounded:
        assert report.quantities[-1].rule == "ratio"


@pytest.mark.parametrize(
    ("text", "compared"),
    [
        ("8.1 µg/l below the 80 µg/l limit", True),
        ("3.2 points above the national average", True),
        ("0.47 kg heavier than", True),  # within its next three words
        ("$28,446.12 paid goes to interest", False),
        ("49.3 (national average 46.1)", False),
    ],
)
def test_a_comparison_word_after_a_figure(text: str, compared: bool) -> None:
    from hybridjudge.grounding._derive import compared_after

    end = text.index(" ")
    assert compared_after(text, end) is compared


FARES = "Single trip: $3.20. Day pass: $11.50. 7-day pass: $42.00. 30-day pass: $145.00. Airport trip: $5.75."


@pytest.mark.parametrize(
    ("answer", "grounded"),
    [
        # 4 × 3.20 = 12.80 and 4 × 42.00 = 168.00, by hand; 168.00 - 145.00 = 23.00
        ("Four single trips would cost $12.80, more than the $11.50 day pass.", True),
        ("Four 7-day passes cost $168.00, so the $145.00 30-day pass saves $23.00.", True),
        ("Four single trips would cost $12.60.", False),
        # the count pins the product: $23.00 is no 4 × $5.75 where other figures stand between
        ("Four 7-day passes cost $168.00, so the $145.00 30-day pass saves $24.00.", False),
    ],
)
def test_a_count_the_answer_states_times_a_context_figure(answer: str, grounded: bool) -> None:
    assert check_grounding(answer, [FARES]).grounded is grounded
