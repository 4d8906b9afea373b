"""The triage report: every metric of an ordinal evaluation, its provenance and its invariants."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, Final, Literal

import numpy as np
import numpy.typing as npt
from pydantic import BaseModel, ConfigDict, Field, model_validator

from hybridjudge._errors import ConfigError, IncompatibleReportsError, InputError, InvariantError
from hybridjudge._stats import STRATIFIED_BOOTSTRAP_METHOD, percentile_interval
from hybridjudge._versions import check_format_version
from hybridjudge.metrics.ordinal._metrics import (
    _balanced_accuracy_kernel,
    _distance,
    _kappa_kernel,
    _mae_kernel,
    _matrix,
    _population,
    _rate,
    _under_mask,
)
from hybridjudge.metrics.ordinal._models import Interval, Rate, Statistic
from hybridjudge.metrics.ordinal._plan import (
    AnalysisPlan,
    load_plan,
    metric_names,
    plan_from_mapping,
)
from hybridjudge.metrics.ordinal._validation import (
    MostUrgent,
    check_most_urgent,
    encode,
    level_list,
)

__all__ = [
    "KNOWN_SCALES",
    "REPORT_FORMAT",
    "REPORT_FORMAT_VERSION",
    "BootstrapSettings",
    "ComparisonRow",
    "LabelSource",
    "MetricValue",
    "TriageComparison",
    "TriageReport",
    "check_invariants",
    "compare",
    "scale_levels",
    "triage_report",
]

REPORT_FORMAT: Final = "hybridjudge.triage_report"
"""Value of :attr:`TriageReport.format`."""

REPORT_FORMAT_VERSION: Final = 1
"""Version of the JSON layout of :class:`TriageReport`."""

READABLE_REPORT_FORMAT_VERSIONS: Final[tuple[int, ...]] = (1,)
"""The ``format_version`` values this hybridjudge reads back."""

KNOWN_SCALES: dict[str, str] = {
    "TTAS": "Taiwan Triage and Acuity Scale",
    "KTAS": "Korean Triage and Acuity Scale",
    "ESI": "Emergency Severity Index",
    "CTAS": "Canadian Triage and Acuity Scale",
    "MTS": "Manchester Triage System",
}
"""The named 5-level triage scales; each has levels 1..5 with level 1 the most urgent. Any other
scale is given as ``"custom:<name>"`` together with its ``labels``."""

_FIVE_LEVELS = (1, 2, 3, 4, 5)


class LabelSource(StrEnum):
    """Where the reference labels come from; results from different sources are never pooled."""

    BEDSIDE = "bedside"
    """Recorded at the bedside by the triage nurse or physician."""
    EXPERT = "expert"
    """Expert re-adjudication after the fact."""
    DATASET = "dataset"
    """A label shipped with a dataset, origin as documented by the dataset."""

    @property
    def description(self) -> str:
        """Human description of the source."""
        return {
            "bedside": "bedside label (recorded at triage)",
            "expert": "expert re-adjudication",
            "dataset": "dataset label",
        }[self.value]


MetricValue = Annotated[Rate | Statistic, Field(discriminator="kind")]
"""One metric of a report: a :class:`Rate` or a :class:`Statistic`."""


class BootstrapSettings(BaseModel):
    """How the bootstrap intervals of a report were drawn."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    n_resamples: int
    """Number of resamples."""
    seed: int
    """Seed of numpy's ``default_rng``; the same data and seed reproduce every interval."""
    strata: str = "reference level"
    """What resampling is stratified by (class sizes are kept in every resample)."""
    interval: str = "percentile"
    """Which bootstrap interval: the 2.5% and 97.5% percentiles of the resampled statistic."""


class TriageReport(BaseModel):
    """An ordinal (triage) evaluation: matrix, metrics with intervals, provenance and plan.

    Built by :func:`triage_report`; its invariants are checked whenever one is created or loaded
    (``TriageReport.model_validate_json(...)``), and a violation raises :class:`InvariantError`.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    format: Literal["hybridjudge.triage_report"] = REPORT_FORMAT
    """Identifies the file type."""
    format_version: Literal[1] = REPORT_FORMAT_VERSION
    """Version of this JSON layout."""
    hybridjudge_version: str
    """Version of hybridjudge that computed the report."""
    scale: str
    """The triage scale: one of TTAS, KTAS, ESI, CTAS, MTS or ``custom:<name>``."""
    label_source: LabelSource
    """Where the reference labels come from (bedside, expert re-adjudication, dataset label)."""
    labels: tuple[int | str, ...]
    """Levels of the scale in order; rows and columns of the matrix follow this order."""
    most_urgent: Literal["first", "last"]
    """Which end of ``labels`` is the most urgent level."""
    high_acuity: tuple[int | str, ...]
    """Levels forming the high-acuity subset for ``under_triage_high_acuity``."""
    n: int = Field(ge=1)
    """Number of cases."""
    class_sizes: tuple[int, ...]
    """Reference cases per level (row sums of the matrix)."""
    prediction_counts: tuple[int, ...]
    """Predicted cases per level (column sums of the matrix)."""
    confusion_matrix: tuple[tuple[int, ...], ...]
    """``confusion_matrix[i][j]``: cases with reference ``labels[i]`` predicted ``labels[j]``."""
    orientation: Literal["rows = reference level, columns = predicted level"] = (
        "rows = reference level, columns = predicted level"
    )
    """How to read the matrix, stated explicitly."""
    correct: int
    """Cases predicted at their reference level (the diagonal)."""
    under_triaged: int
    """Cases predicted less urgent than their reference level."""
    over_triaged: int
    """Cases predicted more urgent than their reference level."""
    bootstrap: BootstrapSettings
    """Settings of the bootstrap intervals (balanced accuracy, MAE, kappa)."""
    plan: AnalysisPlan | None
    """The analysis plan fixed before results, or ``None`` (then every metric is exploratory)."""
    metrics: tuple[MetricValue, ...]
    """Every metric: the plan's first (primary, secondary, safety), then the exploratory ones."""
    invariants: tuple[str, ...] = ()
    """The invariants checked on this report, as statements with their numbers."""

    @model_validator(mode="before")
    @classmethod
    def _supported_version(cls, data: Any) -> Any:
        return check_format_version(data, READABLE_REPORT_FORMAT_VERSIONS, "triage report")

    @model_validator(mode="after")
    def _check(self) -> TriageReport:
        check_invariants(self)
        return self

    def metric(self, name: str) -> Rate | Statistic:
        """The metric called ``name``; :class:`InputError` listing the names if there is none."""
        for item in self.metrics:
            if item.name == name:
                return item
        raise InputError(
            f"no metric {name!r} in this report; available: {[m.name for m in self.metrics]}"
        )

    @property
    def planned(self) -> tuple[Rate | Statistic, ...]:
        """The metrics named by the plan, in plan order."""
        return tuple(m for m in self.metrics if m.role != "exploratory")

    @property
    def exploratory(self) -> tuple[Rate | Statistic, ...]:
        """The metrics the plan does not name (all of them when there is no plan)."""
        return tuple(m for m in self.metrics if m.role == "exploratory")


def _fail(statement: str) -> InvariantError:
    return InvariantError(
        f"triage report invariant violated: {statement}; the report is inconsistent (a bug or "
        "an edited file) and must not be used"
    )


def check_invariants(report: TriageReport) -> tuple[str, ...]:
    """Check a report's invariants and return them as statements; raise on any violation.

    Checked: the matrix is K x K for K labels; its cells sum to N; its rows sum to the class
    sizes and its columns to the prediction counts; correct + under + over = N and each equals
    its region of the matrix; every rate equals numerator / denominator; the report holds each
    metric once; accuracy counts the diagonal; MAE equals the matrix's total distance / N, and
    MAE is 0 exactly when accuracy is 100%.

    Raises
    ------
    InvariantError
        Naming the invariant and the numbers that break it.
    """
    k = len(report.labels)
    matrix = np.array(report.confusion_matrix, dtype=np.int64)
    if matrix.shape != (k, k) or len(report.class_sizes) != k or len(report.prediction_counts) != k:
        raise _fail(f"the matrix is {matrix.shape} for {k} labels")
    if (matrix < 0).any():
        raise _fail("a cell of the confusion matrix is negative")
    total = int(matrix.sum())
    if total != report.n:
        raise _fail(f"cells sum to {total}, N = {report.n}")
    rows = tuple(int(x) for x in matrix.sum(axis=1))
    if rows != tuple(report.class_sizes):
        raise _fail(f"rows sum to {list(rows)}, class sizes are {list(report.class_sizes)}")
    columns = tuple(int(x) for x in matrix.sum(axis=0))
    if columns != tuple(report.prediction_counts):
        raise _fail(f"columns sum to {list(columns)}, predictions {list(report.prediction_counts)}")
    if report.correct + report.under_triaged + report.over_triaged != report.n:
        raise _fail(
            f"correct {report.correct} + under {report.under_triaged} + over "
            f"{report.over_triaged} != N = {report.n}"
        )
    under_mask = _under_mask(k, report.most_urgent)
    regions = (
        int(np.trace(matrix)),
        int(matrix[under_mask].sum()),
        int(matrix[under_mask.T].sum()),
    )
    if regions != (report.correct, report.under_triaged, report.over_triaged):
        raise _fail(
            f"diagonal/under/over regions of the matrix hold {regions}, the report says "
            f"{(report.correct, report.under_triaged, report.over_triaged)}"
        )
    statements = [
        f"cells sum to N: {total} = {report.n}",
        f"rows sum to the class sizes: {', '.join(str(r) for r in rows)}",
        f"correct + under + over = N: {report.correct} + {report.under_triaged} + "
        f"{report.over_triaged} = {report.n}",
    ]
    for item in report.metrics:
        if isinstance(item, Rate) and item.denominator > 0:
            expected = item.numerator / item.denominator
            if item.value is None or abs(item.value - expected) > 1e-12:
                raise _fail(f"{item.name} = {item.value} but {item.numerator}/{item.denominator}")
    names = {item.name: item for item in report.metrics}
    expected_names = set(metric_names(report.labels))
    if set(names) != expected_names or len(names) != len(report.metrics):
        raise _fail(
            f"the metrics are {sorted(names)}; a report holds each of {sorted(expected_names)} once"
        )
    accuracy, mae = names["accuracy"], names["mae"]
    if not isinstance(accuracy, Rate) or accuracy.numerator != report.correct:
        raise _fail(f"accuracy does not count the {report.correct} cases on the diagonal")
    if accuracy.value is None or mae.value is None:
        raise _fail("accuracy or MAE has no value")
    if (accuracy.value == 1.0) != (mae.value == 0.0):
        raise _fail(f"MAE = {mae.value} while accuracy = {accuracy.value}")
    total_distance = int((matrix * _distance(k)).sum())
    if abs(mae.value - total_distance / report.n) > 1e-12:
        raise _fail(f"MAE = {mae.value}, the matrix gives {total_distance}/{report.n}")
    statements.append(
        f"MAE is 0 exactly when accuracy is 100%: MAE = {mae.value:g}, accuracy = "
        f"{accuracy.value:.1%}"
    )
    return tuple(statements)


def scale_levels(
    scale: str, labels: Sequence[Any] | None = None, most_urgent: str = "first"
) -> tuple[str, tuple[Any, ...]]:
    """The canonical name and the levels of a triage scale, as :func:`triage_report` resolves
    them: a known five-level scale (``KTAS`` ...) with its levels 1-5, or ``custom:<name>`` with
    ``labels`` in order. Lets a caller validate the scale before reading any data.

    Raises:
        ConfigError: an unknown scale, a custom scale without labels, labels that are not a
            known scale's, or ``most_urgent`` other than ``"first"`` for a known scale.
    """
    return _resolve_scale(scale, labels, check_most_urgent(most_urgent))


def _resolve_scale(
    scale: str, labels: Sequence[Any] | None, most_urgent: MostUrgent
) -> tuple[str, tuple[Any, ...]]:
    if not isinstance(scale, str) or not scale.strip():
        raise ConfigError("scale is required: one of TTAS, KTAS, ESI, CTAS, MTS or custom:<name>")
    name = scale.strip()
    if name.upper() in KNOWN_SCALES:
        canonical = name.upper()
        if labels is not None and tuple(labels) != _FIVE_LEVELS:
            raise ConfigError(
                f"scale {canonical} has levels {list(_FIVE_LEVELS)}, not {list(labels)}; omit "
                "the labels (--labels) or name another scale custom:<name>"
            )
        if most_urgent != "first":
            raise ConfigError(
                f"scale {canonical} has level 1 as the most urgent; most_urgent must be 'first'"
            )
        return canonical, _FIVE_LEVELS
    if name.lower().startswith("custom:") and name[len("custom:") :].strip():
        if labels is None:
            raise ConfigError(
                f"scale {name!r} is a custom scale: pass its levels in order (labels=[...], or "
                "--labels 1,2,3 on the command line)"
            )
        return "custom:" + name[len("custom:") :].strip(), tuple(labels)
    raise ConfigError(
        f"unknown scale {scale!r}; use one of {', '.join(KNOWN_SCALES)} or 'custom:<name>' "
        "together with the scale's labels"
    )


def _label_source(value: str | LabelSource) -> LabelSource:
    try:
        return LabelSource(value)
    except ValueError:
        raise ConfigError(
            f"unknown label source {value!r}; use one of "
            f"{', '.join(source.value for source in LabelSource)}"
        ) from None


def _matrix_resamples(
    matrix: npt.NDArray[np.int64], settings: BootstrapSettings
) -> npt.NDArray[np.int64]:
    """Confusion matrices of ``n_resamples`` case resamples stratified by reference level.

    Resampling the ``n_i`` cases of reference level ``i`` with replacement gives a row whose
    counts are Multinomial(n_i, row_i / n_i): drawing that row directly is the same stratified
    case bootstrap (same distribution), in O(K^2) per resample instead of O(N).
    """
    rng = np.random.default_rng(settings.seed)
    k = matrix.shape[0]
    stack = np.zeros((settings.n_resamples, k, k), dtype=np.int64)
    for i in range(k):
        size = int(matrix[i].sum())
        if size:
            stack[:, i, :] = rng.multinomial(size, matrix[i] / size, size=settings.n_resamples)
    return stack


def _bootstrapped(
    name: str,
    title: str,
    unit: str,
    population: str,
    kernel: Callable[[npt.NDArray[np.int64]], npt.NDArray[np.float64]],
    matrix: npt.NDArray[np.int64],
    resamples: npt.NDArray[np.int64],
    settings: BootstrapSettings,
    *,
    numerator: float | None = None,
    denominator: int | None = None,
) -> Statistic:
    point = float(kernel(matrix))
    value: float | None = None if np.isnan(point) else point
    interval: Interval | None = None
    if value is not None:
        try:
            lower, upper = percentile_interval(kernel(resamples))
        except InputError:
            interval = None  # undefined on too many resamples: reported as "no interval"
        else:
            interval = Interval(
                lower=lower,
                upper=upper,
                confidence=0.95,
                method=(
                    f"{STRATIFIED_BOOTSTRAP_METHOD} ({settings.n_resamples} resamples within "
                    f"{settings.strata}, seed {settings.seed})"
                ),
            )
    return Statistic(
        name=name,
        title=title,
        value=value,
        unit=unit,
        population=population,
        numerator=numerator,
        denominator=denominator,
        interval=interval,
    )


def triage_report(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Sequence[Any] | None,
    scale: str,
    label_source: str | LabelSource,
    plan: AnalysisPlan | Mapping[str, Any] | str | Path | None = None,
    most_urgent: str = "first",
    high_acuity: Sequence[Any] = (1, 2),
    seed: int = 0,
    n_resamples: int = 2000,
) -> TriageReport:
    """Compute the full ordinal report for one set of predictions.

    Parameters
    ----------
    y_true, y_pred : sequence of labels
        Reference and predicted level of each case.
    labels : sequence or None
        The scale's levels in order. For a named scale (TTAS, KTAS, ESI, CTAS, MTS) pass
        ``None`` or ``[1, 2, 3, 4, 5]``; a custom scale needs its levels.
    scale : str
        ``"TTAS"``, ``"KTAS"``, ``"ESI"``, ``"CTAS"``, ``"MTS"`` or ``"custom:<name>"``.
    label_source : {"bedside", "expert", "dataset"}
        Where the reference labels come from.
    plan : AnalysisPlan, path, mapping or None
        The analysis plan, the path of its TOML file, or a mapping with the file's keys
        (``{"format_version": 1, "primary": [...], ...}``, checked as the file is). Without a
        plan every metric is marked exploratory.
    most_urgent : {"first", "last"}, default "first"
        Which end of ``labels`` is most urgent; named scales require "first".
    high_acuity : sequence, default (1, 2)
        Reference levels of the high-acuity subset for ``under_triage_high_acuity``.
    seed : int, default 0
        Seed of the bootstrap.
    n_resamples : int, default 2000
        Bootstrap resamples for balanced accuracy, MAE and kappa.

    Returns
    -------
    TriageReport

    Raises
    ------
    ConfigError
        Unknown scale, label source, direction, high-acuity level or plan metric; a plan that
        is not a valid plan (or of another type).
    InputError
        A label outside the scale, lengths that differ, no cases.
    InvariantError
        The computed report is inconsistent (never expected; it would be a bug).
    """
    from hybridjudge._version import __version__

    direction = check_most_urgent(most_urgent)
    canonical, scale_labels = _resolve_scale(scale, labels, direction)
    source = _label_source(label_source)
    if isinstance(plan, str | Path):
        plan = load_plan(plan)
    elif isinstance(plan, Mapping):
        plan = plan_from_mapping(plan, source="plan (a mapping)")
    elif plan is not None and not isinstance(plan, AnalysisPlan):
        raise ConfigError(
            f"plan is a {type(plan).__name__}; pass an AnalysisPlan (parse_plan(text) or "
            "load_plan(path)), the path of the plan's TOML file, a mapping with the plan's keys, "
            "or None"
        )
    if plan is not None:
        plan.check_names(scale_labels)
    encoded = encode(y_true, y_pred, scale_labels)
    acuity = tuple(level_list(high_acuity, "high_acuity"))
    missing = [level for level in acuity if level not in scale_labels]
    if not acuity or missing:
        raise ConfigError(
            f"high_acuity={list(acuity)!r}: {missing!r} not levels of {canonical} "
            f"{list(scale_labels)}; name the most urgent levels, e.g. high_acuity=(1, 2)"
        )
    from hybridjudge._params import check_resamples, check_seed

    check_resamples(n_resamples)
    check_seed(seed)
    settings = BootstrapSettings(n_resamples=n_resamples, seed=seed)

    k = encoded.n_labels
    matrix = _matrix(encoded)
    n = int(matrix.sum())
    rows = matrix.sum(axis=1)
    under_mask = _under_mask(k, direction)
    far = _distance(k) >= 2
    correct = int(np.trace(matrix))
    under = int(matrix[under_mask].sum())
    over = int(matrix[under_mask.T].sum())
    acuity_rows = np.array([label in acuity for label in scale_labels], dtype=bool)
    majority = int(np.argmax(rows))

    computed: dict[str, Rate | Statistic] = {
        "accuracy": _rate("accuracy", "accuracy (exact level)", correct, n, "all cases"),
        "majority_baseline": _rate(
            "majority_baseline",
            f"majority-class baseline (always predict level {scale_labels[majority]})",
            int(rows[majority]),
            n,
            "all cases",
        ),
    }
    for index, label in enumerate(scale_labels):
        computed[f"recall_level_{label}"] = _rate(
            f"recall_level_{label}",
            f"recall, level {label}",
            int(matrix[index, index]),
            int(rows[index]),
            f"cases with reference level {label}",
        )
    # Stratified case bootstrap, drawn as multinomial rows: depends on the matrix and seed only.
    resamples = _matrix_resamples(matrix, settings)
    present = int((rows > 0).sum())
    computed["balanced_accuracy"] = _bootstrapped(
        "balanced_accuracy",
        "balanced accuracy (mean per-level recall)",
        "proportion",
        f"mean over the {present} levels with reference cases",
        _balanced_accuracy_kernel,
        matrix,
        resamples,
        settings,
    )
    computed["under_triage"] = _rate(
        "under_triage",
        "under-triage (prediction less urgent than reference)",
        under,
        n,
        "all cases",
    )
    computed["over_triage"] = _rate(
        "over_triage", "over-triage (prediction more urgent than reference)", over, n, "all cases"
    )
    computed["under_triage_high_acuity"] = _rate(
        "under_triage_high_acuity",
        "under-triage, high-acuity levels",
        int(matrix[acuity_rows][under_mask[acuity_rows]].sum()),
        int(rows[acuity_rows].sum()),
        _population(acuity, scale_labels),
    )
    computed["far_under_triage"] = _rate(
        "far_under_triage",
        "far under-triage (2+ levels less urgent than reference)",
        int(matrix[under_mask & far].sum()),
        n,
        "all cases",
    )
    computed["far_errors"] = _rate(
        "far_errors",
        "errors 2+ levels away (either direction)",
        int(matrix[far].sum()),
        n,
        "all cases",
    )
    total_distance = int((matrix * _distance(k)).sum())
    computed["mae"] = _bootstrapped(
        "mae",
        "mean absolute error (levels)",
        "levels",
        "all cases",
        _mae_kernel,
        matrix,
        resamples,
        settings,
        numerator=float(total_distance),
        denominator=n,
    )
    kappa_kernels: dict[str, Callable[[npt.NDArray[np.int64]], npt.NDArray[np.float64]]] = {
        "linear": lambda stack: _kappa_kernel(stack, "linear"),
        "quadratic": lambda stack: _kappa_kernel(stack, "quadratic"),
    }
    for weights, kernel in kappa_kernels.items():
        computed[f"kappa_{weights}"] = _bootstrapped(
            f"kappa_{weights}",
            f"Cohen's kappa, {weights} weights",
            "kappa",
            "all cases",
            kernel,
            matrix,
            resamples,
            settings,
        )

    order = list(plan.ordered()) if plan is not None else []
    order += [name for name in metric_names(scale_labels) if name not in order]
    metrics = tuple(
        computed[name].model_copy(
            update={"role": plan.role_of(name) if plan is not None else "exploratory"}
        )
        for name in order
    )
    fields: dict[str, Any] = {
        "hybridjudge_version": __version__,
        "scale": canonical,
        "label_source": source,
        "labels": scale_labels,
        "most_urgent": direction,
        "high_acuity": acuity,
        "n": n,
        "class_sizes": tuple(int(x) for x in rows),
        "prediction_counts": tuple(int(x) for x in matrix.sum(axis=0)),
        "confusion_matrix": tuple(tuple(int(x) for x in row) for row in matrix),
        "correct": correct,
        "under_triaged": under,
        "over_triaged": over,
        "bootstrap": settings,
        "plan": plan,
        "metrics": metrics,
    }
    draft = TriageReport.model_construct(**fields)
    fields["invariants"] = check_invariants(draft)
    return TriageReport(**fields)


class ComparisonRow(BaseModel):
    """One metric of two compatible reports side by side."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    """Metric name."""
    title: str
    """Human name."""
    role: str
    """Role in the first report's plan."""
    a: float | None
    """Value in the first report."""
    b: float | None
    """Value in the second report."""
    difference: float | None
    """``b - a`` (a point difference; see each report's intervals for uncertainty)."""


class TriageComparison(BaseModel):
    """Two reports on the same scale and label source, metric by metric."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    scale: str
    """The shared scale."""
    label_source: LabelSource
    """The shared label source."""
    n_a: int
    """Cases in the first report."""
    n_b: int
    """Cases in the second report."""
    rows: tuple[ComparisonRow, ...]
    """One row per metric, in the first report's order."""


def compare(a: TriageReport, b: TriageReport) -> TriageComparison:
    """Put two reports side by side, refusing any pair that must not be compared.

    Raises
    ------
    IncompatibleReportsError
        Different scales, label sources, levels, direction or high-acuity subsets: the numbers
        would measure different things.
    """
    checks = (
        ("scale", a.scale, b.scale),
        ("label source", a.label_source.value, b.label_source.value),
        ("levels", list(a.labels), list(b.labels)),
        ("most urgent end", a.most_urgent, b.most_urgent),
        ("high-acuity levels", list(a.high_acuity), list(b.high_acuity)),
    )
    for what, left, right in checks:
        if left != right:
            raise IncompatibleReportsError(
                f"cannot compare triage reports with different {what}: {left!r} vs {right!r}; "
                "results on different scales or label sources are never compared as one"
            )
    rows = []
    for item in a.metrics:
        other = b.metric(item.name)
        difference = None
        if item.value is not None and other.value is not None:
            difference = other.value - item.value
        rows.append(
            ComparisonRow(
                name=item.name,
                title=item.title,
                role=item.role,
                a=item.value,
                b=other.value,
                difference=difference,
            )
        )
    return TriageComparison(
        scale=a.scale, label_source=a.label_source, n_a=a.n, n_b=b.n, rows=tuple(rows)
    )
