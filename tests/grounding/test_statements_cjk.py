"""Scale statements of Japanese, Chinese and Korean reports, written as a label and a colon
(the lexicons' ``scale_statement.markers``): ``(単位：百万円)``, ``单位：人民币百万元``,
``(단위: 백만원)`` scale the table under them, their scale composed of the language's scale
characters as a numeral's is; ``△1,234`` and ``▲567`` are their accounting negatives (the
lexicons' ``negative_signs``). And the figures such answers write: ``千`` after a figure is a
thousand (``1,234千円``), a minus before a figure with scale characters is its sign
(``-1,234百万円``), dollars and euros in each script are currencies (``500달러`` is no count
of months). By hand: a cell 13,456 in millions is 13,456,000,000 = 134.56 x 10^8
(``亿``, ``억``) = 13,456 x 10^6; 1,345,600 million yen is 1.3456 x 10^12 = 1兆3,456億円."""

from __future__ import annotations

from fractions import Fraction

import pytest

from hybridjudge.grounding import check_grounding, parse_quantities

_JA = "（単位：百万円）\n区分 | 2022年度 | 2023年度\n売上高 | 1,234,500 | 1,345,600"
_ZH = "单位：人民币百万元\n项目 | 2022年 | 2023年\n营业收入 | 12,345 | 13,456"
_ZH_TW = "單位：新台幣千元\n項目 | 2022年 | 2023年\n營業收入 | 12,345 | 13,456"
_JA_CUT = "（百万円未満切捨て）\n区分 | 2022年度 | 2023年度\n売上高 | 1,234,500 | 1,345,600"
_KO = "(단위: 백만원)\n구분 | 2022년 | 2023년\n매출액 | 12,345 | 13,456"
_KO_SPACED = "[단위 : 백만 원]\n구분 | 2022년 | 2023년\n매출액 | 12,345 | 13,456"
_JA_ROW = "項目 | 2023年 | 2022年\n売上高（百万円） | 5,428 | 4,756"
_ZH_HEADS = "项目 | 营业收入（万元） | 净利润（万元）\n2023年 | 13,456 | 1,234"
_KO_HEADS = "구분 | 매출액(백만원) | 영업이익(백만원)\n2023년 | 13,456 | 1,234"


@pytest.mark.parametrize(
    ("context", "answer", "grounded"),
    [
        (_JA, "2023年度の売上高は1,345,600百万円でした。", True),
        (_JA, "2023年度の売上高は1兆3,456億円でした。", True),
        (_JA, "2023年度の売上高は1,345,600千円でした。", False),  # a thousandth of it
        (_JA, "2023年度の売上高は13億4,560万円でした。", False),  # the same
        # amounts under a million yen cut (scale_statement.below_markers): in millions of yen
        (_JA_CUT, "2023年度の売上高は1兆3,456億円でした。", True),
        (_JA_CUT, "2023年度の売上高は13億4,560万円でした。", False),
        (_ZH, "2023年营业收入为134.56亿元。", True),
        (_ZH, "2023年营业收入为13,456千元。", False),
        (_ZH, "2023年营业收入为1.3456亿元。", False),  # a hundredth
        (_ZH_TW, "2023年營業收入為1,345.6萬元。", True),  # 13,456 thousand = 1,345.6 x 10^4
        (_ZH_TW, "2023年營業收入為134.56億元。", False),  # a thousand times it
        (_KO, "2023년 매출액은 134억 5,600만원입니다.", True),
        (_KO, "2023년 매출액은 1조 3,456억원입니다.", False),  # a hundred times it
        (_KO, "2023년 매출액은 13,456천원입니다.", False),
        (_KO_SPACED, "2023년 매출액은 134억 5,600만원입니다.", True),
        # a scale and a currency alone in brackets: a row's label, a column's heading
        (_JA_ROW, "2023年の売上高は54億2,800万円でした。", True),
        (_JA_ROW, "売上高は5,428千円でした。", False),
        (_ZH_HEADS, "营业收入为1.3456亿元。", True),
        (_ZH_HEADS, "营业收入为13,456千元。", False),
        (_KO_HEADS, "매출액은 134억 5,600만원입니다.", True),
        (_KO_HEADS, "매출액은 13,456천원입니다.", False),
        # an English answer about a table under a statement of another script: its scale and
        # currency are the statement's (1,345,600 x 10^6 yen = 1.35 trillion, rounded)
        (_JA, "Revenue in FY2023 was ¥1.35 trillion.", True),
        (_JA, "Revenue in FY2023 was ¥1,345,600 million.", True),
        (_JA, "Revenue in FY2023 was ¥1.35 billion.", False),
        (_ZH, "Revenue in 2023 was RMB 13.5 billion.", True),
        (_ZH, "Revenue in 2023 was RMB 13.5 million.", False),
        (_ZH, "Revenue in 2023 was $13.5 billion.", False),  # another currency
        (_KO, "Revenue in 2023 was KRW 13.5 billion.", True),
        (_KO, "Revenue in 2023 was KRW 13.5 million.", False),
    ],
)
def test_a_label_statement_scales_its_table(context: str, answer: str, grounded: bool) -> None:
    assert check_grounding(answer, context).grounded is grounded


@pytest.mark.parametrize(
    "context",
    [
        # a label naming no scale: the table is read as written
        "单位：元 币种：人民币\n项目 | 2022年 | 2023年\n营业收入 | 12,345 | 13,456",
        # the marker word in running text, no colon: no statement
        "単位当たりの売上高は次のとおり。\n区分 | 2022年度 | 2023年度\n売上高 | 12,345 | 13,456",
    ],
)
def test_no_scale_is_stated_without_scale_characters(context: str) -> None:
    # a table of no stated scale may be in thousands: 13,456千元 is read in it (under
    # 单位：人民币百万元 it is a finding, above)
    assert check_grounding("2023年营业收入为13,456千元。", context).grounded
    assert not check_grounding("2023年营业收入为13,456千元。", _ZH).grounded


@pytest.mark.parametrize(
    ("text", "value", "dimension"),
    [
        ("1,234千円", Fraction(1_234_000), "currency-jpy"),
        ("1,234千元", Fraction(1_234_000), "currency-cny"),
        ("3千人", Fraction(3000), None),
        ("13,456百万米ドル", Fraction(13_456_000_000), "currency-usd"),
        ("2,345美元", Fraction(2345), "currency-usd"),
        ("500달러", Fraction(500), "currency-usd"),
        ("3억 달러", Fraction(300_000_000), "currency-usd"),
        ("50欧元", Fraction(50), "currency-eur"),
        ("1,000유로", Fraction(1000), "currency-eur"),
        ("50億人民元", Fraction(5_000_000_000), "currency-cny"),
        ("1,000ウォン", Fraction(1000), "currency-krw"),
        ("300万ポンド", Fraction(3_000_000), "currency-gbp"),
        ("500亿韩元", Fraction(50_000_000_000), "currency-krw"),
        ("20英镑", Fraction(20), "currency-gbp"),
        ("1,000엔", Fraction(1000), "currency-jpy"),
        ("3억 위안", Fraction(300_000_000), "currency-cny"),
        ("120亿日元", Fraction(12_000_000_000), "currency-jpy"),
        ("6달", Fraction(6), "calendar"),  # six months: 달 alone is still a month
    ],
)
def test_figures_of_cjk_answers(text: str, value: Fraction, dimension: str | None) -> None:
    (q,) = parse_quantities(text)
    assert q.value == value
    assert q.dimension == dimension


_JA_NEGATIVE = "（単位：百万円）\n区分 | 2022年度 | 2023年度\n営業利益 | 2,345 | △1,234\n当期純利益 | ▲ 567 | 890"


@pytest.mark.parametrize(
    ("answer", "grounded"),
    [
        ("2023年度の営業利益は-1,234百万円でした。", True),
        ("2023年度の営業利益は△1,234百万円でした。", True),
        ("2023年度の営業利益は-12億3,400万円でした。", True),
        # an operating loss of 1,234: the magnitude names an accounting negative, as (1,234)
        ("2023年度の営業損失は1,234百万円でした。", True),
        ("2022年度の当期純利益は-567百万円でした。", True),
        # a minus the table does not write
        ("2022年度の営業利益は-2,345百万円でした。", False),
        ("2023年度の当期純利益は-890百万円でした。", False),
    ],
)
def test_a_triangle_is_an_accounting_negative(answer: str, grounded: bool) -> None:
    assert check_grounding(answer, _JA_NEGATIVE).grounded is grounded


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("営業利益は-1,234百万円", [Fraction(-1_234_000_000)]),
        ("영업이익은 -1,234백만원", [Fraction(-1_234_000_000)]),
        ("△1,234百万円", [Fraction(-1_234_000_000)]),
        ("営業利益 | 2,345 | △1,234 | ▲ 567", [Fraction(2345), Fraction(-1234), Fraction(-567)]),
        # a range's dash is no sign
        ("10-20億円", [Fraction(1_000_000_000), Fraction(2_000_000_000)]),
        # in English, a triangle is more often a rise: no sign read
        ("Sales ▲ 5% to 1,234", [Fraction(5), Fraction(1234)]),
    ],
)
def test_signs_of_cjk_figures(text: str, values: list[Fraction]) -> None:
    assert [q.value for q in parse_quantities(text)] == values


_JA_PDF = (
    "連結損益計算書\n（単位：百万円）\n前連結会計年度\n当連結会計年度\n"
    "売上高\n1,234,500\n1,345,600\n営業利益\n2,345\n△1,234\n当期純利益\n△567\n890\n"
)


@pytest.mark.parametrize(
    ("answer", "question", "grounded"),
    [
        ("売上高は1兆3,456億円でした。", None, True),
        ("当連結会計年度の営業利益は-1,234百万円でした。", None, True),
        # 2,345 - (-1,234) = 3,579: the row's two cells, the triangle's line one of them
        ("営業利益は3,579百万円減少しました。", "営業利益の変化は？", True),
    ],
)
def test_a_statement_laid_out_a_cell_per_line(
    answer: str, question: str | None, grounded: bool
) -> None:
    assert check_grounding(answer, _JA_PDF, question=question).grounded is grounded


_JA_LAYOUTS = {
    "html": "<p>（単位：百万円）</p><table><tr><th>区分</th><th>2022年度</th><th>2023年度</th></tr>"
    "<tr><td>売上高</td><td>1,234,500</td><td>1,345,600</td></tr></table>",
    "html caption": "<table><caption>（単位：百万円）</caption><tr><th>区分</th><th>2022年度</th>"
    "<th>2023年度</th></tr><tr><td>売上高</td><td>1,234,500</td><td>1,345,600</td></tr></table>",
    "markdown": "（単位：百万円）\n\n| 区分 | 2022年度 | 2023年度 |\n|---|---|---|\n"
    "| 売上高 | 1,234,500 | 1,345,600 |",
    "csv": '（単位：百万円）\n区分,2022年度,2023年度\n売上高,"1,234,500","1,345,600"',
}


@pytest.mark.parametrize("layout", sorted(_JA_LAYOUTS))
def test_a_label_statement_in_each_layout(layout: str) -> None:
    context = _JA_LAYOUTS[layout]
    assert check_grounding("2023年度の売上高は1兆3,456億円でした。", context).grounded
    assert not check_grounding("2023年度の売上高は13億4,560万円でした。", context).grounded


@pytest.mark.parametrize(
    ("text", "values", "unit"),
    [
        # percentage points (percent_words)
        ("提高了1.5个百分点", [Fraction(3, 2)], "%"),
        ("영업이익률이 1.5%p 상승", [Fraction(3, 2)], "%"),
        ("1.2パーセントポイント上昇", [Fraction(6, 5)], "%"),
        # "per share", "per person" (per_one): the 1 is no figure
        ("1株当たり配当金は50円", [Fraction(50)], "jpy"),
        ("1주당 배당금은 500원", [Fraction(500)], "krw"),
        ("従業員1人当たりの売上高は1,200万円", [Fraction(12_000_000)], "jpy"),
    ],
)
def test_points_and_per_one(text: str, values: list[Fraction], unit: str) -> None:
    quantities = parse_quantities(text)
    assert [q.value for q in quantities] == values
    assert {q.unit for q in quantities} == {unit}


@pytest.mark.parametrize(
    "answer",
    [
        "영업이익률은 1.5%p 상승했습니다.",
        "营业利润率提高了1.5个百分点。",
        # Japanese writes a change of a rate in points (ポイント) as often as in %ポイント
        "営業利益率は1.5ポイント上昇しました。",
    ],
)
def test_a_change_in_percentage_points(answer: str) -> None:
    context = "구분 | 2022년 | 2023년\n영업이익률 | 10.8% | 12.3%"
    assert check_grounding(answer, context).grounded
    assert not check_grounding(answer.replace("1.5", "2.5"), context).grounded


_JA_UNITS_ROW = (
    "| | 売上高 | | 営業利益 | |\n| | 百万円 | % | 百万円 | % |\n"
    "| 2024年3月期 | 1,234,567 | 5.2 | 98,765 | 3.1 |\n"
    "| 2023年3月期 | 1,173,456 | 4.0 | 95,790 | 2.2 |"
)


@pytest.mark.parametrize(
    ("answer", "grounded"),
    [
        # a header row of units under the headings (a summary of Japanese results): 百万円
        # scales its column, % is a column of percentages; 1,234,567 x 10^6 yen is 1兆2,346億
        ("2024年3月期の売上高は1兆2,346億円でした。", True),
        ("2024年3月期の営業利益は987億6,500万円でした。", True),
        ("2024年3月期の売上高は12億3,457万円でした。", False),
        ("2024年3月期の営業利益は9,876万5,000円でした。", False),
        ("売上高は前期比5.2%増加しました。", True),
    ],
)
def test_a_header_row_of_units(answer: str, grounded: bool) -> None:
    assert check_grounding(answer, _JA_UNITS_ROW).grounded is grounded
