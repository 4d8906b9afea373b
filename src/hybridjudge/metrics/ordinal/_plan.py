"""An analysis plan fixed before results: which metrics are primary, secondary and safety.

The plan is a small TOML file (read with the standard library's :mod:`tomllib`)::

    # triage analysis plan, written before any prediction was scored
    format_version = 1
    description = "LLM triage on the KTAS re-adjudicated set"
    primary = ["balanced_accuracy"]
    secondary = ["accuracy", "mae", "kappa_linear"]
    safety = ["under_triage_high_acuity", "far_under_triage", "recall_level_1"]

``format_version`` is required (a plan without it is refused, naming the line to add); the other
keys but ``primary`` are optional. A report lists the plan's metrics first (primary, then secondary, then safety) and marks every
other metric as exploratory. An unknown metric name is a :class:`ConfigError` that lists the
valid names; the report also records the plan file's SHA-256 so it can be matched to the copy
registered before the results were seen.
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from hybridjudge._errors import ConfigError

__all__ = [
    "PLAN_FORMAT_VERSION",
    "AnalysisPlan",
    "load_plan",
    "metric_names",
    "parse_plan",
    "plan_from_mapping",
]

PLAN_FORMAT_VERSION = 1
"""The plan file format this version of hybridjudge reads."""

_BEFORE_RECALL = ("accuracy", "majority_baseline")
_AFTER_RECALL = (
    "balanced_accuracy",
    "under_triage",
    "over_triage",
    "under_triage_high_acuity",
    "far_under_triage",
    "far_errors",
    "mae",
    "kappa_linear",
    "kappa_quadratic",
)
_RECALL = re.compile(r"^recall_level_(.+)$")
_ROLES = ("primary", "secondary", "safety")
_KEYS = {"format_version", "description", *_ROLES}


def metric_names(labels: Sequence[Any]) -> tuple[str, ...]:
    """Every metric name a triage report computes for ``labels``, in the report's default order.

    >>> metric_names([1, 2, 3])[:5]
    ('accuracy', 'majority_baseline', 'recall_level_1', 'recall_level_2', 'recall_level_3')
    """
    recalls = tuple(f"recall_level_{label}" for label in labels)
    return _BEFORE_RECALL + recalls + _AFTER_RECALL


def _valid_names_text() -> str:
    return ", ".join((*_BEFORE_RECALL, "recall_level_<level>", *_AFTER_RECALL))


class AnalysisPlan(BaseModel):
    """Metrics named before the results were seen, by role."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    format_version: int = PLAN_FORMAT_VERSION
    """Version of the plan format."""
    description: str | None = None
    """Free text: what is evaluated and when the plan was fixed."""
    primary: tuple[str, ...]
    """The primary metric(s): the question the evaluation answers. At least one."""
    secondary: tuple[str, ...] = ()
    """Secondary metrics, reported next to the primary ones."""
    safety: tuple[str, ...] = ()
    """Safety metrics (e.g. under-triage of the high-acuity levels), reported whatever the rest."""
    source: str | None = None
    """The file the plan was read from, when it came from a file."""
    sha256: str | None = None
    """SHA-256 of the plan file's bytes, to match it to the registered copy."""

    def role_of(self, name: str) -> str:
        """The role of metric ``name``: "primary", "secondary", "safety" or "exploratory"."""
        for role in _ROLES:
            if name in getattr(self, role):
                return role
        return "exploratory"

    def ordered(self) -> tuple[str, ...]:
        """The plan's metric names in report order: primary, secondary, safety."""
        return self.primary + self.secondary + self.safety

    def check_names(self, labels: Sequence[Any]) -> None:
        """Raise :class:`ConfigError` if a named metric is not computed for ``labels``."""
        valid = metric_names(labels)
        unknown = [name for name in self.ordered() if name not in valid]
        if unknown:
            raise ConfigError(
                f"{self.source or 'analysis plan'}: unknown metric name(s) {unknown}; "
                f"valid names for levels {list(labels)} are: {', '.join(valid)}"
            )


def parse_plan(text: str, *, source: str | None = None) -> AnalysisPlan:
    """Parse and check the TOML text of a plan (see the module docstring for the format).

    Raises
    ------
    ConfigError
        Invalid TOML, an unknown key, a wrong type, a missing primary metric, a metric named
        twice, an unknown metric name (listing the valid ones), a missing ``format_version``
        (the line ``format_version = 1`` is required: a plan says which format it was written
        for) or another format version.
    """
    where = source or "analysis plan"
    if not isinstance(text, str):
        raise ConfigError(
            f"{where}: parse_plan takes the plan's TOML text, got {type(text).__name__}; use "
            "load_plan(path) for a file"
        )
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(
            f"{where}: not valid TOML ({exc}); see the plan format in the docs"
        ) from exc
    return plan_from_mapping(
        data, source=source, sha256=hashlib.sha256(text.encode("utf-8")).hexdigest()
    )


def plan_from_mapping(
    data: Mapping[str, Any], *, source: str | None = None, sha256: str | None = None
) -> AnalysisPlan:
    """Check a plan given as a mapping with the keys of the TOML file (``format_version``,
    ``description``, ``primary``, ``secondary``, ``safety``) and build the :class:`AnalysisPlan`.

    :func:`parse_plan` and :func:`load_plan` end here; a mapping passed as ``plan=`` to
    :func:`~hybridjudge.metrics.ordinal.triage_report` too (it has no file, so no ``sha256``).

    Raises
    ------
    ConfigError
        As :func:`parse_plan`.
    """
    where = source or "analysis plan"
    if not isinstance(data, Mapping):
        raise ConfigError(
            f"{where}: a plan is a mapping of format_version, description, primary, secondary "
            f"and safety, got {type(data).__name__}"
        )
    bad_keys = [key for key in data if not isinstance(key, str)]
    extra = sorted(str(key) for key in data if key not in _KEYS)
    if bad_keys or extra:
        raise ConfigError(f"{where}: unknown key(s) {extra}; a plan has only {sorted(_KEYS)}")
    if "format_version" not in data:
        raise ConfigError(
            f"{where}: format_version is missing; add the line "
            f"`format_version = {PLAN_FORMAT_VERSION}` at the top of the plan (the plan format "
            "this hybridjudge reads), so that a later format is never misread as this one"
        )
    version = data["format_version"]
    if type(version) is not int or version != PLAN_FORMAT_VERSION:
        raise ConfigError(
            f"{where}: format_version={version!r}; this hybridjudge reads format_version = "
            f"{PLAN_FORMAT_VERSION}"
        )
    description = data.get("description")
    if description is not None and not isinstance(description, str):
        raise ConfigError(f"{where}: description must be a string")
    roles: dict[str, tuple[str, ...]] = {}
    for role in _ROLES:
        value = data.get(role, [])
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list | tuple) or not all(isinstance(item, str) for item in value):
            raise ConfigError(
                f'{where}: {role} must be a list of metric names, e.g. {role} = ["mae"]'
            )
        roles[role] = tuple(value)
    if not roles["primary"]:
        raise ConfigError(
            f'{where}: name at least one primary metric, e.g. primary = ["balanced_accuracy"]'
        )
    unknown = [
        name
        for role in _ROLES
        for name in roles[role]
        if name not in _BEFORE_RECALL + _AFTER_RECALL and not _RECALL.match(name)
    ]
    if unknown:
        raise ConfigError(
            f"{where}: unknown metric name(s) {unknown}; valid names are: {_valid_names_text()}"
        )
    named = [name for role in _ROLES for name in roles[role]]
    repeated = sorted({name for name in named if named.count(name) > 1})
    if repeated:
        raise ConfigError(f"{where}: metric(s) {repeated} named more than once; give each one role")
    return AnalysisPlan(
        format_version=PLAN_FORMAT_VERSION,
        description=description,
        primary=roles["primary"],
        secondary=roles["secondary"],
        safety=roles["safety"],
        source=source,
        sha256=sha256,
    )


def load_plan(path: str | Path) -> AnalysisPlan:
    """Read a plan file (TOML, UTF-8). See :func:`parse_plan` for the checks.

    Raises
    ------
    ConfigError
        The file cannot be read or is not a valid plan.
    """
    file = Path(path)
    try:
        raw = file.read_bytes()
    except OSError as exc:
        raise ConfigError(f"{file}: cannot read the analysis plan ({exc.strerror})") from exc
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{file}: the analysis plan is not UTF-8 text; save it as UTF-8") from exc
    plan = parse_plan(text, source=str(file))
    return plan.model_copy(update={"sha256": hashlib.sha256(raw).hexdigest()})
