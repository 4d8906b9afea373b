"""Reports of a study: ``report.md``, a self-contained ``report.html`` with plots, and the CI gate."""

from hybridjudge.reports._gate import GateFailure, GateResult, gate
from hybridjudge.reports._html import render_html
from hybridjudge.reports._markdown import render_markdown
from hybridjudge.reports._write import write_reports

__all__ = ["GateFailure", "GateResult", "gate", "render_html", "render_markdown", "write_reports"]
