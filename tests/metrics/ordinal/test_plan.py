"""Analysis plan files: format, checks, and the error messages that name the fix."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from hybridjudge._errors import ConfigError
from hybridjudge.metrics.ordinal import load_plan, metric_names, parse_plan

EXAMPLE_PLAN = Path(__file__).resolve().parents[3] / "examples" / "triage" / "plan.toml"


def test_example_plan_loads_with_its_hash() -> None:
    plan = load_plan(EXAMPLE_PLAN)
    assert plan.primary == ("balanced_accuracy",)
    assert plan.safety == ("under_triage_high_acuity", "far_under_triage", "recall_level_1")
    assert plan.sha256 == hashlib.sha256(EXAMPLE_PLAN.read_bytes()).hexdigest()
    assert plan.role_of("kappa_quadratic") == "exploratory"
    assert plan.role_of("mae") == "secondary"


def test_unknown_metric_names_are_listed_with_the_valid_names() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_plan('primary = ["balanced_acc"]\nsafety = ["undertriage", "mae"]', source="p.toml")
    message = str(caught.value)
    assert "p.toml: unknown metric name(s) ['balanced_acc', 'undertriage']" in message
    for name in ("balanced_accuracy", "under_triage_high_acuity", "recall_level_<level>", "mae"):
        assert name in message


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("primary = [", "not valid TOML"),
        ('primary = ["mae"]\nprimray = ["x"]', "unknown key(s) ['primray']"),
        ('secondary = ["mae"]', "name at least one primary metric"),
        ('primary = ["mae"]\nsafety = ["mae"]', "metric(s) ['mae'] named more than once"),
        ("primary = [1, 2]", "primary must be a list of metric names"),
        ('format_version = 2\nprimary = ["mae"]', "format_version=2"),
        ('primary = ["mae"]\ndescription = 3', "description must be a string"),
    ],
)
def test_invalid_plans(text: str, needle: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(needle)):
        parse_plan(text)


def test_unreadable_plan_files(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read the analysis plan"):
        load_plan(tmp_path / "missing.toml")
    latin = tmp_path / "latin.toml"
    latin.write_bytes('description = "r\xe9sum\xe9"\nprimary = ["mae"]\n'.encode("latin-1"))
    with pytest.raises(ConfigError, match="not UTF-8"):
        load_plan(latin)


def test_metric_names_cover_each_level() -> None:
    names = metric_names(["red", "blue"])
    assert "recall_level_red" in names
    assert "recall_level_blue" in names
    assert names.index("accuracy") == 0
