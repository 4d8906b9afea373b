"""The passes after tracing read each quantity's own trace: an identifier of the answer traced
as a figure (``3Q23``'s ``23``, put among the traces in answer order) is no quantity's trace
(``_check._per_quantity``)."""

from __future__ import annotations

from hybridjudge.grounding import check_grounding


def test_a_rate_over_another_period_after_an_identifier_names_the_context_s_rate() -> None:
    context = "In Q3 2023 the plan cost $9.99 per month."
    report = check_grounding("In 3Q23 the plan cost $9.99 per year.", context)
    (finding,) = report.findings
    assert finding.subject == "$9.99"
    assert 'the context states "$9.99 per month"' in finding.message  # not "2023 per month"


def test_a_figure_after_an_identifier_is_read_in_its_own_row() -> None:
    table = (
        "Quarter | Q1 2023 | Q2 2023 | Q3 2023\nRevenue | 100 | 110 | 120\nRevenue in H1 2023 | 210"
    )
    # the identifier's trace (2023, in the header) was read as 120's: a row "Quarter"
    assert check_grounding("3Q23 revenue was 120.", table).grounded
