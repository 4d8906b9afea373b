"""Analysis plan files: format, checks, and the error messages that name the fix."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

import pytest

from hybridjudge._errors import ConfigError
from hybridjudge.metrics.ordinal import load_plan, metric_names, parse_plan, plan_from_mapping

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
        parse_plan(
            'format_version = 1\nprimary = ["balanced_acc"]\nsafety = ["undertriage", "mae"]',
            source="p.toml",
        )
    message = str(caught.value)
    assert "p.toml: unknown metric name(s) ['balanced_acc', 'undertriage']" in message
    for name in ("balanced_accuracy", "under_triage_high_acuity", "recall_level_<level>", "mae"):
        assert name in message


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("primary = [", "not valid TOML"),
        ('format_version = 1\nprimary = ["mae"]\nprimray = ["x"]', "unknown key(s) ['primray']"),
        ('format_version = 1\nsecondary = ["mae"]', "name at least one primary metric"),
        (
            'format_version = 1\nprimary = ["mae"]\nsafety = ["mae"]',
            "metric(s) ['mae'] named more than once",
        ),
        ("format_version = 1\nprimary = [1, 2]", "primary must be a list of metric names"),
        ('format_version = 2\nprimary = ["mae"]', "format_version=2"),
        ('format_version = 1\nprimary = ["mae"]\ndescription = 3', "description must be a string"),
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


# --- format_version is required (docs/formats.md: "a triage analysis plan (TOML) | format_version
# = 1"); a plan without it was read as version 1 -----------------------------------------------


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ('primary = ["accuracy"]', "format_version is missing; add the line `format_version = 1`"),
        ('description = "x"\nprimary = ["mae"]', "format_version is missing"),
        ('format_version = true\nprimary = ["mae"]', "format_version=True"),
        ('format_version = 1.0\nprimary = ["mae"]', "format_version=1.0"),
        ('format_version = "1"\nprimary = ["mae"]', "format_version='1'"),
    ],
)
def test_a_plan_states_its_format_version(text: str, needle: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(needle)) as caught:
        parse_plan(text, source="plan.toml")
    assert str(caught.value).startswith("plan.toml: ")


def test_a_plan_file_without_format_version_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "plan.toml"
    path.write_text('primary = ["mae"]\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=re.escape(f"{path}: format_version is missing")):
        load_plan(path)
    path.write_text('format_version = 1\nprimary = ["mae"]\n', encoding="utf-8")
    assert load_plan(path).primary == ("mae",)


# --- a plan given as a mapping is checked as the file is ----------------------------------------


def test_a_mapping_builds_the_same_plan_as_the_file() -> None:
    text = 'format_version = 1\nprimary = ["accuracy"]\nsafety = ["far_under_triage"]'
    from_text = parse_plan(text)
    from_mapping = plan_from_mapping(
        {"format_version": 1, "primary": ["accuracy"], "safety": ["far_under_triage"]}
    )
    assert from_mapping.ordered() == from_text.ordered()
    assert from_mapping.sha256 is None  # no file, no hash to match to a registered copy


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        ({"primary": ["accuracy"]}, "format_version is missing"),
        ({"format_version": 2, "primary": ["accuracy"]}, "format_version=2"),
        ({"format_version": 1, "primary": ["acc"]}, "unknown metric name(s) ['acc']"),
        ({"format_version": 1, "primary": ["mae"], "extra": 1}, "unknown key(s) ['extra']"),
        ({"format_version": 1, 3: "x", "primary": ["mae"]}, "unknown key(s) ['3']"),
        ({"format_version": 1, "primary": "mae", "safety": ["mae"]}, "named more than once"),
        (["primary"], "a plan is a mapping"),
    ],
)
def test_bad_plan_mappings(data: Any, needle: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(needle)):
        plan_from_mapping(data)


def test_parse_plan_takes_text_only() -> None:
    with pytest.raises(ConfigError, match="parse_plan takes the plan's TOML text, got dict"):
        parse_plan({"format_version": 1, "primary": ["mae"]})  # type: ignore[arg-type]
