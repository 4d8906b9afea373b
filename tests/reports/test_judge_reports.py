"""Reports of a study with several judges: a column group per judge in every format, the
separation and cheapest-judge sections, byte-identical renders, no pooled figure."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

from rich.console import Console

from hybridjudge.reports import render_html, render_markdown, write_reports
from hybridjudge.reports._terminal import LOG_WIDTH, print_study_summary
from hybridjudge.study import load_study, save_study
from tests.reports.test_reports import FORBIDDEN_KEYS, _json_keys
from tests.study._fixtures import JUDGES, make_judges_study


def test_every_table_has_a_column_group_per_judge() -> None:
    study = make_judges_study()
    md = render_markdown(study)
    groups = " | ".join(f"{j} · support | {j} · contradiction" for j in JUDGES)
    # detection, separation, cost, stability and unscored tables
    assert md.count(f"| deterministic | {groups} |") == 5
    html = render_html(study)
    for judge in JUDGES:
        assert html.count(f'<th scope="colgroup" colspan="2" class="colgroup">{judge}</th>') == 5
    assert len(re.findall(r'<th scope="col"[^>]* rowspan="2">deterministic</th>', html)) == 5


def test_terminal_summary_groups_columns_and_names_the_cheapest() -> None:
    buffer = io.StringIO()
    console = Console(file=buffer, width=LOG_WIDTH, color_system=None, soft_wrap=False)
    print_study_summary(make_judges_study(), console)
    text = buffer.getvalue()
    lines = text.splitlines()
    # the judge's name above its two scorers in the header of every table
    header = next(i for i, line in enumerate(lines) if "small" in line and "┃" in line)
    assert [w for w in lines[header].split() if w in JUDGES] == [
        "small",
        "small",
        "mid",
        "mid",
        "large",
        "large",
    ]
    below = [w.strip() for w in lines[header + 1].split("┃")[3:9]]
    assert below == ["support", "contradiction"] * 3
    assert "right vs hallucinated answers: AUROC" in text
    # by hand (fixture): every judge detects all 3 fabricated numbers; small is the cheapest at
    # 2 calls x $1 per 1,000 calls = $2.00 per 1,000 evaluations
    assert (
        "toy / fabricated number [mutator]: cheapest: judge small (support), $2.00 per 1,000 "
        "evaluations, 3/3 detected" in text
    )


def test_no_pooled_figure_in_the_multi_judge_study() -> None:
    data = json.loads(make_judges_study().model_dump_json())
    assert not [k for k in _json_keys(data) if FORBIDDEN_KEYS.search(k)]


def test_two_renders_in_two_interpreters_are_byte_identical(tmp_path: Path) -> None:
    study = make_judges_study()
    first = write_reports(study, tmp_path / "a")
    second = tmp_path / "b"
    second.mkdir()
    save_study(load_study(first["json"]), second / "study.json")
    env = {**os.environ, "PYTHONHASHSEED": "4242"}
    subprocess.run(
        [sys.executable, "-m", "hybridjudge", "report", str(second)],
        check=True,
        env=env,
        capture_output=True,
    )
    for name in ("report.html", "report.md", "observations.csv"):
        assert first["json"].with_name(name).read_bytes() == (second / name).read_bytes(), name
