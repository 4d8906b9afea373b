"""Ordinal classification metrics and reports (5-level triage and any ordered scale).

Metric functions follow scikit-learn's conventions (``f(y_true, y_pred, *, labels=...)``, rows of
the confusion matrix are the reference); :func:`triage_report` computes everything at once with
95% intervals (Wilson for proportions, a seeded stratified bootstrap for balanced accuracy, MAE
and kappa), records the scale and label source, orders metrics by an analysis plan fixed before
results, and checks its invariants. Rendering lives in :mod:`hybridjudge.reports`
(``render_triage_markdown``, ``render_triage_html``): metrics compute, reports render.
"""

from __future__ import annotations

from hybridjudge.metrics.ordinal._metrics import (
    accuracy_score,
    balanced_accuracy_score,
    confusion_matrix,
    far_error_rate,
    far_under_triage_rate,
    majority_baseline_score,
    mean_absolute_error,
    over_triage_rate,
    recall_per_level,
    under_triage_rate,
    weighted_kappa_score,
)
from hybridjudge.metrics.ordinal._models import Interval, MetricRole, Rate, Statistic
from hybridjudge.metrics.ordinal._plan import (
    PLAN_FORMAT_VERSION,
    AnalysisPlan,
    load_plan,
    metric_names,
    parse_plan,
    plan_from_mapping,
)
from hybridjudge.metrics.ordinal._report import (
    KNOWN_SCALES,
    REPORT_FORMAT,
    REPORT_FORMAT_VERSION,
    BootstrapSettings,
    ComparisonRow,
    LabelSource,
    MetricValue,
    TriageComparison,
    TriageReport,
    check_invariants,
    compare,
    scale_levels,
    triage_report,
)

__all__ = [
    "KNOWN_SCALES",
    "PLAN_FORMAT_VERSION",
    "REPORT_FORMAT",
    "REPORT_FORMAT_VERSION",
    "AnalysisPlan",
    "BootstrapSettings",
    "ComparisonRow",
    "Interval",
    "LabelSource",
    "MetricRole",
    "MetricValue",
    "Rate",
    "Statistic",
    "TriageComparison",
    "TriageReport",
    "accuracy_score",
    "balanced_accuracy_score",
    "check_invariants",
    "compare",
    "confusion_matrix",
    "far_error_rate",
    "far_under_triage_rate",
    "load_plan",
    "majority_baseline_score",
    "mean_absolute_error",
    "metric_names",
    "over_triage_rate",
    "parse_plan",
    "plan_from_mapping",
    "recall_per_level",
    "scale_levels",
    "triage_report",
    "under_triage_rate",
    "weighted_kappa_score",
]
