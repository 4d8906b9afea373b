"""Writing every report of a study into its results directory.

Every file is written atomically (:mod:`hybridjudge._atomic`): a writer killed mid-write, or a
disk that fills up, leaves the previous file intact, never an empty or cut-short report.
"""

from __future__ import annotations

from pathlib import Path

from hybridjudge._atomic import atomic_write_text
from hybridjudge.reports._export import observations_csv
from hybridjudge.reports._html import render_html
from hybridjudge.reports._markdown import render_markdown
from hybridjudge.study import StudyResult, save_study

__all__ = ["write_reports"]


def write_reports(
    study: StudyResult,
    out_dir: str | Path,
    *,
    write_json: bool = True,
    csv_raw_formulas: bool = False,
) -> dict[str, Path]:
    """Write ``study.json`` (unless ``write_json`` is false), ``report.md``, ``report.html`` and
    ``observations.csv`` (one tidy row per output x scorer x repetition; a cell a spreadsheet
    would run as a formula gets a leading ``'`` unless ``csv_raw_formulas``), each atomically. The reports are rendered before anything is written, so a rendering error
    leaves every previous file as it was."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    markdown = render_markdown(study)
    html = render_html(study)
    observations = observations_csv(study, raw_formulas=csv_raw_formulas)
    paths: dict[str, Path] = {}
    if write_json:
        paths["json"] = save_study(study, out / "study.json")
    paths["markdown"] = atomic_write_text(out / "report.md", markdown)
    paths["html"] = atomic_write_text(out / "report.html", html)
    paths["csv"] = atomic_write_text(out / "observations.csv", observations)
    return paths
