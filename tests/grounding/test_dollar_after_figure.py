"""A dollar sign after its figure, as French in Canada writes an amount: ``2,41 $``, ``22,6 M$``.

Found writing TAT-QA's gold answers so (``validity/tatqa.py --answer-form french-dollar``:
``22 626 k$``, ``-1 496,5 M$``, ``168 $``): at 72633da 78% of the span answers and 73% of the
answers computed kept their required facts, and ``22,6 M$`` read as 22.6 metres. ``$`` after a
figure is now its currency (``usd`` among ``und.json``'s units, and among its
``ambiguous_units``: never a figure's when a figure or a bracket follows it, which is the next
figure's sign, ``1,234 $5,678``, ``1,234 $ (5,678)``), and a scale letter before it is a scale
(``figure_forms.before_sign``, ``before_euro`` before: ``M$``, ``k$``, ``Md$`` as ``M€``; and
``G$``, Québec's billion, a scale ``g`` of ``fr.json`` read only there). The cases of the first
test, the first six of the second and the last test failed before; the others guard the next
figure's sign and the gram.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from hybridjudge.grounding import check_grounding, parse_quantities

TABLE = "(in thousands) | 2019 | 2018\nRevenue | $22,626 | $19,373\nFee | $2.41 | $2.70"


@pytest.mark.parametrize(
    ("answer", "required"),
    [
        ("Les revenus s'élèvent à 22\u202f626 k$.", "$22,626 thousand"),
        ("Les revenus s'élèvent à 22,6 M$.", "$22.6 million"),
        ("Les frais sont de 2,41 $.", "$2.41"),
    ],
)
def test_a_dollar_amount_written_the_canadian_french_way_is_grounded(
    answer: str, required: str
) -> None:
    report = check_grounding(answer, TABLE, anchors=[required])
    assert report.findings == ()


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("Les frais sont de 2,41 $.", [(Fraction(241, 100), "usd")]),
        ("22,6 M$", [(Fraction(22_600_000), "usd")]),
        ("1,5 Md$", [(Fraction(1_500_000_000), "usd")]),
        ("12 k$", [(Fraction(12_000), "usd")]),
        ("3,5 G$", [(Fraction(3_500_000_000), "usd")]),  # Québec's billion
        ("3,5 Mrd. $", [(Fraction(3_500_000_000), "usd")]),
        # the next figure's sign, not this one's unit
        ("Net sales 1,234 $5,678", [(Fraction(1234), None), (Fraction(5678), "usd")]),
        ("Net sales 1,234 $ 5,678", [(Fraction(1234), None), (Fraction(5678), "usd")]),
        ("Net loss 1,234 $ (5,678)", [(Fraction(1234), None), (Fraction(-5678), "usd")]),
        ("$ 1,234 $ 5,678", [(Fraction(1234), "usd"), (Fraction(5678), "usd")]),
        ("1,234\n$\n5,678", [(Fraction(1234), None), (Fraction(5678), "usd")]),
        ("5 m $5", [(Fraction(5), "m"), (Fraction(5), "usd")]),  # five metres, five dollars
        ("Il pèse 250 g.", [(Fraction(250), "g")]),  # a gram, with no sign after it
    ],
)
def test_the_dollar_after_a_figure_is_read(
    text: str, read: list[tuple[Fraction, str | None]]
) -> None:
    assert [(q.value, q.unit) for q in parse_quantities(text)] == read


def test_a_changed_figure_with_its_dollar_after_it_is_flagged() -> None:
    report = check_grounding("Les frais sont de 2,47 $.", TABLE)
    assert [f.subject for f in report.findings] == ["2,47 $"]
