"""``validity/probe_cases.py``: the 389 invented cases of the 7 December probe, their tally, and
no fewer of them agreeing with the verdicts worked out by hand than when the fixes made on them
landed (166 of 186 right answers passing, 142 of 177 wrong answers flagged, the debatable ones
apart; 136 and 130 before). And the second probe (``--heldout``, 276 cases), by half: no fewer
agreeing than when it was added (tuning 68 of 82 and 45 of 57; held out 51 of 70 and 40 of 47;
52, 44, 40 and 40 before the fixes made on its tuning half)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.tatqa import load_validity

probe = load_validity("probe_cases")


@pytest.fixture(scope="module")
def outcomes() -> list[Any]:
    return list(probe.run(probe.load_cases()))


def test_every_case_names_what_it_expects() -> None:
    cases = probe.load_cases()
    assert len(cases) == 389
    assert len({c["id"] for c in cases}) == len(cases)
    for c in cases:
        assert {"id", "language", "layout", "context", "question", "answer", "grounded"} <= set(c)
        assert isinstance(c["grounded"], bool)
        assert isinstance(c["debatable"], bool)
        assert all(isinstance(p, str) for p in c["context"])
    languages = {c["language"] for c in cases}
    assert languages == {"en", "de", "fr", "es", "it", "pt", "nl", "ja", "zh", "ko"}


def test_the_tally_counts_right_and_wrong_answers_apart(outcomes: list[Any]) -> None:
    rows = probe.tally(outcomes, "language")
    right_ok, right, wrong_ok, wrong = rows["all"]
    strict = [o for o in outcomes if not o.case["debatable"]]
    assert right == sum(o.case["grounded"] for o in strict)
    assert wrong == sum(not o.case["grounded"] for o in strict)
    assert right_ok == sum(o.agrees for o in strict if o.case["grounded"])
    assert wrong_ok == sum(o.agrees for o in strict if not o.case["grounded"])
    assert sum(r[1] + r[3] for k, r in rows.items() if k != "all") == right + wrong


def test_no_fewer_cases_agree_than_when_the_fixes_landed(outcomes: list[Any]) -> None:
    right_ok, _right, wrong_ok, _wrong = probe.tally(outcomes, "language")["all"]
    assert right_ok >= 169  # 166 when the fixes made on them landed
    assert wrong_ok >= 142


def test_a_refusal_is_judged_on_abstaining(outcomes: list[Any]) -> None:
    refusals = [o for o in outcomes if o.case.get("abstains")]
    assert len(refusals) == 20
    assert all(o.report.abstained for o in refusals)


@pytest.fixture(scope="module")
def heldout() -> list[Any]:
    return list(probe.run(probe.load_cases(probe.HELDOUT)))


def test_the_second_probe_is_split_by_page_before_any_fix() -> None:
    cases = probe.load_cases(probe.HELDOUT)
    assert len(cases) == 276
    assert len({c["id"] for c in cases}) == len(cases)
    assert {c["half"] for c in cases} == {"tuning", "heldout"}
    # a page (its context) lies in one half only: no answer of a tuned page is held out
    halves: dict[str, set[str]] = {}
    for c in cases:
        halves.setdefault("\x00".join(c["context"]), set()).add(c["half"])
    assert all(len(h) == 1 for h in halves.values())
    assert sum(c["half"] == "heldout" for c in cases) == 126


@pytest.mark.parametrize(
    ("half", "right_floor", "wrong_floor"), [("tuning", 68, 45), ("heldout", 51, 40)]
)
def test_no_fewer_cases_of_the_second_probe_agree(
    heldout: list[Any], half: str, right_floor: int, wrong_floor: int
) -> None:
    right_ok, _right, wrong_ok, _wrong = probe.tally(heldout, "half")[half]
    assert right_ok >= right_floor
    assert wrong_ok >= wrong_floor
