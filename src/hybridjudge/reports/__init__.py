"""Reports: the study's ``report.md`` / ``report.html`` / ``observations.csv``, the triage and
retrieval reports, and the CI gate. Every report is built from one table model rendered to
Markdown, HTML and the terminal, with one page style."""

from hybridjudge.reports._export import write_observations_csv
from hybridjudge.reports._gate import GateFailure, GateResult, gate
from hybridjudge.reports._html import render_html
from hybridjudge.reports._markdown import render_markdown
from hybridjudge.reports._retrieval import (
    RetrievalCard,
    render_retrieval_html,
    render_retrieval_markdown,
)
from hybridjudge.reports._terminal import (
    log_study_warnings,
    print_study_summary,
    study_console,
)
from hybridjudge.reports._triage import render_triage_html, render_triage_markdown
from hybridjudge.reports._viewer import render_viewer
from hybridjudge.reports._write import write_reports

__all__ = [
    "GateFailure",
    "GateResult",
    "RetrievalCard",
    "gate",
    "log_study_warnings",
    "print_study_summary",
    "render_html",
    "render_markdown",
    "render_retrieval_html",
    "render_retrieval_markdown",
    "render_triage_html",
    "render_triage_markdown",
    "render_viewer",
    "study_console",
    "write_observations_csv",
    "write_reports",
]
