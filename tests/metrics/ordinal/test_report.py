"""triage_report: invariants, provenance refusal, plan ordering, configuration errors."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from hybridjudge._errors import ConfigError, IncompatibleReportsError, InputError, InvariantError
from hybridjudge._stats import bootstrap_interval
from hybridjudge.metrics.ordinal import (
    AnalysisPlan,
    LabelSource,
    TriageReport,
    compare,
    metric_names,
    parse_plan,
    triage_report,
)
from hybridjudge.reports import render_triage_markdown as render_markdown
from tests.metrics.ordinal.worked_example import LEVELS, WORKED_MATRIX, expand

PLAN = parse_plan(
    "format_version = 1\n"
    'primary = ["balanced_accuracy"]\n'
    'secondary = ["accuracy", "mae"]\n'
    'safety = ["under_triage_high_acuity", "recall_level_1"]\n',
    source="plan.toml",
)


def _report(**overrides: Any) -> TriageReport:
    y_true, y_pred = expand()
    options: dict[str, Any] = {
        "labels": LEVELS,
        "scale": "KTAS",
        "label_source": "expert",
        "n_resamples": 200,
    }
    options.update(overrides)
    return triage_report(y_true, y_pred, **options)


# --- invariants -------------------------------------------------------------------------------


def _tampered(report: TriageReport, **changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(report.model_dump_json())
    data.update(changes)
    return data


def test_report_round_trips_through_json() -> None:
    report = _report(plan=PLAN)
    again = TriageReport.model_validate_json(report.model_dump_json())
    assert again == report
    assert json.loads(report.model_dump_json())["format_version"] == 1


@pytest.mark.parametrize(
    ("changes", "needle"),
    [
        # cell (1,1) 2 -> 3: cells no longer sum to N
        ({"confusion_matrix": [[3, 2, 1, 0, 0], *WORKED_MATRIX[1:]]}, "cells sum to 101"),
        ({"class_sizes": [5, 10, 69, 11, 5]}, "rows sum to"),
        ({"prediction_counts": [3, 9, 74, 8, 6]}, "columns sum to"),
        ({"under_triaged": 12}, "correct 82 + under 12 + over 7 != N = 100"),
        ({"under_triaged": 12, "over_triaged": 6}, "regions of the matrix hold (82, 11, 7)"),
    ],
)
def test_tampered_counts_break_invariants(changes: dict[str, Any], needle: str) -> None:
    data = _tampered(_report(), **changes)
    with pytest.raises(InvariantError, match=re.escape(needle)):
        TriageReport.model_validate(data)


def test_tampered_metric_values_break_invariants() -> None:
    report = _report()
    data = _tampered(report)
    for item in data["metrics"]:
        if item["name"] == "mae":
            item["value"] = 0.0
    # the statistic itself no longer adds up: 0.0 is not its numerator 20 / denominator 100
    with pytest.raises(InvariantError, match=re.escape("mae = 0.0 but 20/100")):
        TriageReport.model_validate(data)
    for item in data["metrics"]:
        if item["name"] == "mae":
            item["value"], item["numerator"] = 0.0, 0.0  # consistent alone, not with the matrix
    with pytest.raises(InvariantError, match=re.escape("MAE = 0.0 while accuracy = 0.82")):
        TriageReport.model_validate(data)
    for item in data["metrics"]:
        if item["name"] == "mae":
            item["value"], item["numerator"] = 0.3, 30.0
    with pytest.raises(InvariantError, match=re.escape("MAE = 0.3, the matrix gives 20/100")):
        TriageReport.model_validate(data)
    data = _tampered(report)
    for item in data["metrics"]:
        if item["name"] == "under_triage":
            item["value"] = 0.05
    with pytest.raises(InvariantError, match=re.escape("under_triage = 0.05 but 11/100")):
        TriageReport.model_validate(data)
    data = _tampered(report)
    data["metrics"] = [m for m in data["metrics"] if m["name"] != "mae"]
    with pytest.raises(InvariantError, match="each of"):
        TriageReport.model_validate(data)


@settings(max_examples=25, deadline=None)
@given(
    pairs=st.lists(st.tuples(st.integers(1, 5), st.integers(1, 5)), min_size=1, max_size=40),
)
def test_invariants_hold_and_mae_is_zero_exactly_when_perfect(pairs: list[tuple[int, int]]) -> None:
    y_true = [t for t, _ in pairs]
    y_pred = [p for _, p in pairs]
    report = triage_report(
        y_true, y_pred, labels=None, scale="ESI", label_source="bedside", n_resamples=100
    )
    assert report.correct + report.under_triaged + report.over_triaged == report.n == len(pairs)
    perfect = y_true == y_pred
    assert (report.metric("mae").value == 0.0) == perfect
    assert (report.metric("accuracy").value == 1.0) == perfect
    assert len(report.invariants) == 4
    # perfect agreement: under-triage of levels 1-2 is 0 of however many such cases there are
    acute = report.metric("under_triage_high_acuity")
    assert acute.denominator == sum(t in (1, 2) for t in y_true)
    assert acute.value is None if acute.denominator == 0 else acute.value is not None


# --- provenance -------------------------------------------------------------------------------


def test_provenance_is_recorded() -> None:
    report = _report(scale="ktas")
    assert report.scale == "KTAS"
    assert report.label_source is LabelSource.EXPERT
    assert "KTAS (Korean Triage and Acuity Scale)" in render_markdown(report)
    assert "expert re-adjudication" in render_markdown(report)


def test_compare_refuses_different_scales_and_label_sources() -> None:
    ktas = _report()
    with pytest.raises(IncompatibleReportsError, match="scale: 'KTAS' vs 'TTAS'"):
        compare(ktas, _report(scale="TTAS"))
    with pytest.raises(IncompatibleReportsError, match="label source: 'expert' vs 'bedside'"):
        compare(ktas, _report(label_source="bedside"))
    with pytest.raises(IncompatibleReportsError, match="high-acuity levels"):
        compare(ktas, _report(high_acuity=(1,)))
    # IncompatibleReportsError is an InputError, so a plain ValueError handler catches it too
    with pytest.raises(ValueError, match="never compared as one"):
        compare(ktas, _report(scale="custom:KTAS-like", labels=LEVELS))


def test_compare_accepts_compatible_reports() -> None:
    y_true, _ = expand()
    a = _report()
    b = triage_report(
        y_true, y_true, labels=LEVELS, scale="KTAS", label_source="expert", n_resamples=200
    )
    result = compare(a, b)
    rows = {row.name: row for row in result.rows}
    # b is perfect: accuracy 0.82 -> 1.0 (hand computation: difference 0.18)
    assert rows["accuracy"].difference == pytest.approx(0.18)
    assert rows["mae"].difference == pytest.approx(-0.20)
    assert (result.scale, result.n_a, result.n_b) == ("KTAS", 100, 100)


# --- plan -------------------------------------------------------------------------------------


def test_plan_metrics_come_first_and_the_rest_are_exploratory() -> None:
    report = _report(plan=PLAN)
    names = [m.name for m in report.metrics]
    assert names[:5] == [
        "balanced_accuracy",
        "accuracy",
        "mae",
        "under_triage_high_acuity",
        "recall_level_1",
    ]
    assert [m.role for m in report.metrics[:5]] == [
        "primary",
        "secondary",
        "secondary",
        "safety",
        "safety",
    ]
    assert all(m.role == "exploratory" for m in report.metrics[5:])
    assert sorted(names) == sorted(metric_names(LEVELS))
    text = render_markdown(report)
    planned = text.index("## Planned metrics")
    exploratory = text.index("## Exploratory metrics")
    assert planned < text.index("`balanced_accuracy`") < exploratory
    assert text.index("`kappa_quadratic`") > exploratory
    assert "| exploratory | Cohen's kappa, quadratic weights" in text


def test_without_plan_everything_is_exploratory() -> None:
    report = _report()
    assert {m.role for m in report.metrics} == {"exploratory"}
    assert "no analysis plan: all exploratory" in render_markdown(report)


def test_plan_naming_a_level_outside_the_scale_is_refused() -> None:
    plan = parse_plan('format_version = 1\nprimary = ["recall_level_7"]')
    with pytest.raises(ConfigError, match=r"unknown metric name\(s\) \['recall_level_7'\]"):
        _report(plan=plan)


def test_plan_from_a_path(tmp_path: Path) -> None:
    path = tmp_path / "plan.toml"
    path.write_text(
        'format_version = 1\nprimary = "mae"\nsafety = ["far_under_triage"]\n', encoding="utf-8"
    )
    report = _report(plan=path)
    assert report.plan is not None
    assert report.plan.source == str(path)
    assert [m.name for m in report.planned] == ["mae", "far_under_triage"]
    assert isinstance(report.plan, AnalysisPlan)


# --- configuration and input errors -----------------------------------------------------------


@pytest.mark.parametrize(
    ("overrides", "error", "needle"),
    [
        ({"scale": "KATS"}, ConfigError, "unknown scale 'KATS'"),
        ({"scale": "custom:pain", "labels": None}, ConfigError, "custom scale"),
        ({"labels": (0, 1, 2, 3, 4)}, ConfigError, "has levels"),
        ({"most_urgent": "last"}, ConfigError, "level 1 as the most urgent"),
        ({"most_urgent": "top"}, ConfigError, "most_urgent='top'"),
        ({"label_source": "nurse"}, ConfigError, "unknown label source 'nurse'"),
        ({"high_acuity": (1, 9)}, ConfigError, r"\[9\] not levels of KTAS"),
        # fuzz: tuple(None) raised a raw TypeError
        ({"high_acuity": None}, ConfigError, r"high_acuity=None: pass a sequence of levels"),
        ({"high_acuity": 1}, ConfigError, r"high_acuity=1: pass a sequence of levels"),
    ],
)
def test_bad_configuration(overrides: dict[str, Any], error: type[Exception], needle: str) -> None:
    with pytest.raises(error, match=needle):
        _report(**overrides)


def test_label_outside_the_scale_names_its_position() -> None:
    with pytest.raises(InputError, match=r"y_pred\[2\] = 6 is not a level"):
        triage_report([1, 2, 3], [1, 2, 6], labels=None, scale="KTAS", label_source="bedside")


def test_custom_scale_with_last_level_most_urgent() -> None:
    # Severity grades where 4 is the most severe: predicting 2 for a reference 4 is under-triage.
    report = triage_report(
        [4, 4, 1, 3],
        [2, 4, 2, 3],
        labels=(1, 2, 3, 4),
        scale="custom:severity",
        label_source="dataset",
        most_urgent="last",
        high_acuity=(4,),
        n_resamples=100,
    )
    assert (report.under_triaged, report.over_triaged) == (1, 1)
    acute = report.metric("under_triage_high_acuity")
    assert (acute.numerator, acute.denominator) == (1, 2)
    assert "Left of the diagonal = under-triage: 1" in render_markdown(report)


def test_bootstrap_is_seeded_and_independent_of_row_order() -> None:
    y_true, y_pred = expand()
    first = triage_report(y_true, y_pred, labels=LEVELS, scale="KTAS", label_source="expert")
    shuffled = list(zip(y_true, y_pred, strict=True))[::-1]
    second = triage_report(
        [t for t, _ in shuffled],
        [p for _, p in shuffled],
        labels=LEVELS,
        scale="KTAS",
        label_source="expert",
    )
    assert first.metric("kappa_linear").interval == second.metric("kappa_linear").interval
    other = triage_report(
        y_true, y_pred, labels=LEVELS, scale="KTAS", label_source="expert", seed=1
    )
    assert other.metric("mae").interval != first.metric("mae").interval


def test_matrix_bootstrap_matches_case_resampling() -> None:
    # The report draws each matrix row as Multinomial(n_i, row_i / n_i), which is the
    # distribution of resampling the cases of reference level i with replacement. Independent
    # check: hybridjudge._stats.bootstrap_interval resampling the cases themselves (stratified
    # by reference level), with 4000 resamples each; the intervals agree within Monte Carlo error.
    y_true, y_pred = expand()
    report = triage_report(
        y_true, y_pred, labels=LEVELS, scale="KTAS", label_source="expert", n_resamples=4000
    )
    true, pred = np.array(y_true), np.array(y_pred)

    def mae(t: np.ndarray, p: np.ndarray) -> float:
        return float(np.mean(np.abs(t - p)))

    def balanced(t: np.ndarray, p: np.ndarray) -> float:
        return float(np.mean([np.mean(p[t == level] == level) for level in LEVELS]))

    for name, statistic in (("mae", mae), ("balanced_accuracy", balanced)):
        expected = bootstrap_interval(statistic, true, pred, strata=true, n_resamples=4000, seed=9)
        interval = report.metric(name).interval
        assert interval is not None
        assert interval.lower == pytest.approx(expected[0], abs=0.02)
        assert interval.upper == pytest.approx(expected[1], abs=0.02)


def test_kappa_undefined_when_everything_is_one_level() -> None:
    report = triage_report(
        [3, 3, 3], [3, 3, 3], labels=None, scale="CTAS", label_source="expert", n_resamples=100
    )
    kappa = report.metric("kappa_linear")
    assert kappa.value is None
    assert kappa.interval is None
    assert report.metric("recall_level_1").value is None
    assert "undefined" in render_markdown(report)


# --- plan given as a mapping, or of an unusable type ------------------------------------------


def test_plan_as_a_mapping_orders_the_metrics_as_the_parsed_plan() -> None:
    mapping = {
        "format_version": 1,
        "primary": ["balanced_accuracy"],
        "secondary": ["accuracy", "mae"],
        "safety": ["under_triage_high_acuity", "recall_level_1"],
    }
    from_mapping = _report(plan=mapping)
    from_text = _report(plan=PLAN)
    assert [m.name for m in from_mapping.metrics] == [m.name for m in from_text.metrics]
    assert [m.role for m in from_mapping.metrics] == [m.role for m in from_text.metrics]
    assert isinstance(from_mapping.plan, AnalysisPlan)
    assert from_mapping.plan.source == "plan (a mapping)"


@pytest.mark.parametrize(
    ("plan", "error", "needle"),
    [
        ({"primary": ["accuracy"]}, ConfigError, "plan (a mapping): format_version is missing"),
        ({"format_version": 1, "primary": ["acc"]}, ConfigError, "unknown metric name(s)"),
        (["accuracy"], ConfigError, "plan is a list; pass an AnalysisPlan (parse_plan(text)"),
        (42, ConfigError, "plan is a int"),
    ],
)
def test_unusable_plans_raise_a_typed_error(plan: Any, error: type[Exception], needle: str) -> None:
    with pytest.raises(error, match=re.escape(needle)):
        _report(plan=plan)


# --- a report of another format version --------------------------------------------------------


@pytest.mark.parametrize("version", [2, 0, "1", None])
def test_another_format_version_is_refused_saying_so(version: object) -> None:
    data = _tampered(_report(), format_version=version)
    with pytest.raises(ValidationError, match="format_version") as caught:
        TriageReport.model_validate_json(json.dumps(data))
    message = str(caught.value)
    assert caught.value.error_count() == 1
    assert f"triage report version {version!r} is not supported by this hybridjudge" in message
    assert "(it reads version 1)" in message
    assert "Input should be 1" not in message


def test_a_report_round_trips_through_its_own_json() -> None:
    report = _report(plan=PLAN)
    loaded = TriageReport.model_validate_json(report.model_dump_json())
    assert loaded == report
    assert loaded.model_dump_json() == report.model_dump_json()
