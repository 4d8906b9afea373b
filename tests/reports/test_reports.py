"""Reports: every detection figure is one (class, scorer) cell; nothing aggregates across classes."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from rich.console import Console

from hybridjudge import InputError
from hybridjudge.cli._study import _print_summary
from hybridjudge.reports import render_html, render_markdown, write_reports
from hybridjudge.study import load_study, save_study
from tests.study._fixtures import make_study

FORBIDDEN_KEYS = re.compile(
    r"overall|aggregate|pooled|total_detect|mean_detect|accuracy|macro|micro", re.I
)


def _json_keys(value: object) -> list[str]:
    if isinstance(value, dict):
        return list(value) + [k for v in value.values() for k in _json_keys(v)]
    if isinstance(value, list):
        return [k for v in value for k in _json_keys(v)]
    return []


def test_cells_are_hand_counted() -> None:
    study = make_study()
    cells = {(r.defect_class, r.scorer): (r.detected, r.n) for r in study.analysis.detection}
    assert cells[("omission", "deterministic")] == (3, 3)
    assert cells[("fabricated_number", "deterministic")] == (2, 3)
    assert cells[("inversion", "deterministic")] == (0, 4)
    assert cells[("omission", "support")] == (0, 3)
    assert cells[("fabricated_number", "support")] == (3, 3)
    assert cells[("inversion", "support")] == (2, 4)


def test_no_number_aggregates_across_defect_classes(tmp_path: Path) -> None:
    study = make_study()
    paths = write_reports(study, tmp_path)
    data = json.loads(paths["json"].read_text())
    assert not [k for k in _json_keys(data) if FORBIDDEN_KEYS.search(k)]
    # The pooled figures (deterministic 5/10, support 5/10) must appear nowhere; each cell must.
    texts = {
        "markdown": paths["markdown"].read_text(),
        "html": paths["html"].read_text(),
    }
    console = Console(record=True, width=200, file=io.StringIO())
    _print_summary(study, console)
    texts["terminal"] = console.export_text()
    for name, text in texts.items():
        assert "5/10" not in text, name
    for cell in ("3/3 (100%)", "2/3 (67%)", "0/4 (0%)", "2/4 (50%)"):
        for name, text in texts.items():
            assert cell in text, (name, cell)


def test_markdown_marks_out_of_scope_and_false_alarms() -> None:
    md = render_markdown(make_study(clean_flagged=True))
    omission_line = next(line for line in md.splitlines() if line.startswith("| omission"))
    # the judge cannot see omissions by construction: marked with a dagger
    assert omission_line.rstrip(" |").endswith("†")
    fa_line = next(
        line for line in md.splitlines() if "false alarms" in line and line.startswith("|")
    )
    assert "1/3 (33%)" in fa_line  # support flags b0 in both repetitions


def test_html_is_self_contained_with_plots() -> None:
    page = render_html(make_study())
    assert page.count("<svg") >= 2  # heatmap and cost/latency plot
    assert not re.search(r"""(src|href)=["']https?://""", page)
    assert "<script src" not in page


def test_study_file_round_trips_and_refuses_other_versions(tmp_path: Path) -> None:
    study = make_study()
    path = save_study(study, tmp_path / "study.json")
    assert load_study(tmp_path) == study
    data = json.loads(path.read_text())
    data["format_version"] = 99
    path.write_text(json.dumps(data))
    with pytest.raises(InputError, match="version 99"):
        load_study(path)
    path.write_text("{not json")
    with pytest.raises(InputError, match="not valid JSON"):
        load_study(path)
