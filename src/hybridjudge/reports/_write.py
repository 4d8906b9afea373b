"""Writing every report of a study into its results directory."""

from __future__ import annotations

from pathlib import Path

from hybridjudge.reports._html import render_html
from hybridjudge.reports._markdown import render_markdown
from hybridjudge.study._io import save_study
from hybridjudge.study._models import StudyResult

__all__ = ["write_reports"]


def write_reports(
    study: StudyResult, out_dir: str | Path, *, write_json: bool = True
) -> dict[str, Path]:
    """Write ``study.json`` (unless ``write_json`` is false), ``report.md`` and ``report.html``."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths: dict[str, Path] = {}
    if write_json:
        paths["json"] = save_study(study, out / "study.json")
    md = out / "report.md"
    md.write_text(render_markdown(study), encoding="utf-8")
    paths["markdown"] = md
    page = out / "report.html"
    page.write_text(render_html(study), encoding="utf-8")
    paths["html"] = page
    return paths
