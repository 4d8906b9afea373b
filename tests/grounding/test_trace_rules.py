"""Named trace rules (issue 33, point 3): every way a figure of an answer is explained is a rule
of one vocabulary (:data:`hybridjudge.grounding.TRACE_RULES`), recorded in its trace
(:attr:`QuantityTrace.rule`): among them a figure cut rather than rounded after an approximation
sign (``≈ 0.6638`` for 0.66387: ``truncated``) and a derived figure the answer states again
(``repeated``), also named at the end of their derivation; and the counting words of the years a
table lists (``over the past three years``) and the ``* 100%`` of a percentage formula.

The golden cases are data (``data/trace_rule_cases.json``), each with its verdict and rule worked
out by hand; every rule of the vocabulary has one.
"""

from __future__ import annotations

import json
import re
import typing
from pathlib import Path
from typing import Any

import pytest

from hybridjudge.grounding import (
    TRACE_RULES,
    GroundingReport,
    QuantityTrace,
    TraceRule,
    check_grounding,
)

CASES: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "data" / "trace_rule_cases.json").read_text(encoding="utf-8")
)["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden_case(case: dict[str, Any]) -> None:
    # the context's lines as one passage, or (``passages``) each line a passage of its own
    context = case["context"] if case.get("passages") else "\n".join(case["context"])
    report = check_grounding(
        case["answer"], context, question=case.get("question"), answerable=None
    )
    flagged = [f.subject for f in report.findings if f.kind == "ungrounded_number"]
    assert (not flagged) == case["grounded"], (case["why"], flagged)
    if "rule" in case:
        rule = case["rule"]
        traces = [
            t for t in report.quantities if case.get("figure", t.quantity.text) == t.quantity.text
        ]
        assert any(t.rule == rule for t in traces), [(t.quantity.text, t.rule) for t in traces]
        if rule in ("truncated", "repeated", "restated"):  # also named in the derivation
            derivations = [t.derivation for t in traces if t.rule == rule]
            assert all(d is not None and d.endswith(f"({rule})") for d in derivations)
    _every_traced_figure_has_a_rule(report.quantities)


def _every_traced_figure_has_a_rule(traces: tuple[QuantityTrace, ...]) -> None:
    for t in traces:
        assert (t.rule is None) == (t.source is None), (t.quantity.text, t.source, t.rule)
        assert t.rule is None or t.rule in TRACE_RULES
        # a derived figure has a rule of a derivation, a figure found so a rule of a lookup
        assert (t.source == "derived") == (t.derivation is not None)


def test_every_rule_of_the_vocabulary_has_a_golden_case() -> None:
    assert list(typing.get_args(TraceRule)) == list(TRACE_RULES)
    covered = {c["rule"] for c in CASES if "rule" in c and c["grounded"]}
    assert covered == set(TRACE_RULES), set(TRACE_RULES) - covered


def test_an_untraced_figure_has_no_rule() -> None:
    report = check_grounding("Revenue was $999,999.", "Revenue was $177,866 in 2019.")
    (trace,) = report.quantities
    assert trace.source is None
    assert trace.rule is None


def test_the_rule_survives_the_json_round_trip() -> None:
    report = check_grounding("Revenue grew 30.8% to 177,866.", "| Revenue | 177,866 | 135,987 |")
    assert [t.rule for t in report.quantities] == ["percent_change", "as_written"]
    data = json.loads(report.model_dump_json())
    assert data["version"] == 2
    assert [q["rule"] for q in data["quantities"]] == ["percent_change", "as_written"]
    assert GroundingReport.model_validate_json(report.model_dump_json()) == report


def test_a_version_1_report_still_reads_without_rules() -> None:
    report = check_grounding("Revenue grew 30.8% to 177,866.", "| Revenue | 177,866 | 135,987 |")
    data = json.loads(report.model_dump_json())
    data["version"] = 1
    for q in data["quantities"]:
        del q["rule"]
    old = GroundingReport.model_validate(data)
    assert old.version == 1
    assert [t.rule for t in old.quantities] == [None, None]
    assert [t.derivation for t in old.quantities] == [t.derivation for t in report.quantities]


def test_an_unknown_rule_is_refused() -> None:
    from pydantic import ValidationError

    report = check_grounding("Revenue was 177,866.", "| Revenue | 177,866 | 135,987 |")
    data = json.loads(report.model_dump_json())
    data["quantities"][0]["rule"] = "guessed"
    with pytest.raises(ValidationError, match="rule"):
        GroundingReport.model_validate(data)


DOCS = Path(__file__).resolve().parents[2] / "docs" / "grounding.md"
_ROW = re.compile(r"^\| `([a-z_]+)` \| (.+) \|$")


def test_the_docs_rule_table_is_the_vocabulary() -> None:
    # docs/grounding.md, "Trace rules": one row per rule, in order, with its meaning as written
    # in TRACE_RULES (so the page cannot drift from the code)
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("### Trace rules", 1)[1].split("\n#", 1)[0]
    rows = [m.groups() for line in section.splitlines() if (m := _ROW.match(line))]
    assert rows == list(TRACE_RULES.items())


def test_an_approximation_sign_makes_a_figure_approximate() -> None:
    # "≈ 1,200" is "approximately 1,200": rounded at its last non-zero digit (1,180 is near)
    report = check_grounding("Revenue was ≈ 1,200 million.", "Revenue was 1,180 million.")
    assert report.grounded, report.findings
