"""The study's summary in a terminal or a log: the same detection table as report.md and
report.html (row tags ``[mutator]`` / ``[paper]`` kept), never wrapped mid-label nor cut."""

from __future__ import annotations

import logging
from typing import Any

from hybridjudge.reports._format import fmt_count, fmt_duration_ms, fmt_duration_s
from hybridjudge.reports._tables import (
    cheapest_lines,
    detection_table,
    has_natural_separation,
    label_counts,
    label_table,
    labelled_corpora,
    separation_table,
)
from hybridjudge.study import StudyResult

__all__ = ["log_study_warnings", "print_study_summary", "study_console"]

_LOG = logging.getLogger(__name__)

LOG_WIDTH = 240
"""Width used when stderr is not a terminal (a log file): wide enough that no table wraps."""


def study_console(*, stderr: bool = True) -> Any:
    """A rich console for the study's progress and summary: the terminal's width in a terminal,
    :data:`LOG_WIDTH` columns without colour codes in a log."""
    from rich.console import Console

    console = Console(stderr=stderr)
    if not console.is_terminal:
        console = Console(stderr=stderr, width=LOG_WIDTH, color_system=None, soft_wrap=False)
    return console


def print_study_summary(study: StudyResult, console: Any) -> None:
    """Print one detection table per corpus (with several judges, a column group each), how each
    scorer separated the answers labelled correct and incorrect, the separation of right and
    hallucinated answers (AUROC), the cheapest judge per defect class, then one cost line per
    scorer."""
    scorers = list(study.config.scorers)
    corpora = list(dict.fromkeys(r.corpus for r in study.analysis.detection))
    for corpus in corpora:
        table = detection_table(study.analysis, scorers, corpus=corpus)
        console.print(
            table.to_rich(
                title=f"{corpus}: detected in every repetition / mutants [Wilson 95%]; "
                "† out of scope"
            )
        )
    for corpus in labelled_corpora(study.analysis):
        console.print(
            label_table(study.analysis, scorers, corpus).to_rich(
                title="which scorer can you trust on your labelled answers? flagged every "
                "repetition [Wilson 95%]; AUROC [95% bootstrap]"
            )
        )
        console.print(label_counts(study, corpus), markup=False, highlight=False)
    if has_natural_separation(study.analysis):
        console.print(
            separation_table(study.analysis, scorers).to_rich(
                title="right vs hallucinated answers: AUROC [95% bootstrap]; unscored left out"
            )
        )
    lines = cheapest_lines(study.analysis)
    if lines:
        console.print("cheapest judge detecting each class in every repetition:", markup=False)
        for line in lines:
            console.print(f"  {line}", markup=False, highlight=False)
    for c in study.analysis.cost:
        console.print(
            f"{c.scorer}: {fmt_count(c.evaluations)} evaluations, {fmt_count(c.calls)} model "
            f"calls, {fmt_count(c.prompt_tokens)}+{fmt_count(c.completion_tokens)} tokens, "
            f"median {fmt_duration_ms(c.median_ms)}, {c.cache_hits} cache hits (saved "
            f"{fmt_duration_s(c.saved_s)})",
            markup=False,
            highlight=False,
        )


def log_study_warnings(study: StudyResult, *, sampling: bool = True) -> int:
    """Log a WARNING when the judges ran on a sample (unless ``sampling`` is false), and one per
    scorer with unscored outputs (count, share and reasons). Returns the number logged."""
    from hybridjudge.study import unscored_count, unscored_share

    warned = 0
    if sampling and study.sampling is not None:
        _LOG.warning("sampled run: %s", study.sampling.note)
        warned += 1
    for row in study.analysis.unscored:
        count = unscored_count(row)
        if count:
            reasons = ", ".join(f"{reason} {n}" for reason, n in row.by_reason.items())
            _LOG.warning(
                "%s: %d of %d evaluations unscored (%.1f%%; %s); see the report's "
                "'Unscored evaluations'",
                row.scorer,
                count,
                row.evaluations,
                100 * unscored_share(row),
                reasons,
            )
            warned += 1
    return warned
