"""``observations.csv``: the study's raw observations as one tidy table.

One row per output x scorer x repetition, with the output's corpus, case, defect class (key and
label), origin and clean label, the scorer's score or unscored reason, its findings, the model
usage of that evaluation, the output's blame (:data:`BLAME_COLUMNS`, after the columns there were
before it: retrieval, generation, both or unknown, with its evidence; empty for an output that did
not fail), and last the output's metadata (one ``meta.<key>`` column per key). Plain
RFC 4180 CSV in UTF-8 with a header row: ``pandas.read_csv(path)`` reads it as is (empty cells are
missing values; booleans are ``True``/``False``).

A text cell that a spreadsheet would run as a formula (it begins with ``=``, ``+``, ``-``, ``@``,
a tab or a carriage return: ``=HYPERLINK(...)`` in an answer's finding, ``@SUM(...)`` in an id) is
written with a leading ``'`` (:func:`hybridjudge._sinks.csv_cell`); a plain number such as
``-3.5`` is left a number. ``raw_formulas=True`` (``--csv-raw-formulas``) writes every cell as it
came.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from hybridjudge._sinks import FORMULA_START, csv_cell
from hybridjudge.reports._tables import class_label
from hybridjudge.study import StudyResult

__all__ = [
    "BLAME_COLUMNS",
    "CASCADE_COLUMNS",
    "OBSERVATION_COLUMNS",
    "observations_csv",
    "write_observations_csv",
]

OBSERVATION_COLUMNS = (
    "corpus",
    "output_id",
    "case_id",
    "base_id",
    "defect_class",
    "defect_label",
    "origin",
    "clean",
    "judged",
    "scorer",
    "repetition",
    "status",
    "score",
    "flagged",
    "unscored_reason",
    "detail",
    "n_findings",
    "findings",
    "latency_ms",
    "cached",
    "calls",
    "cache_hits",
    "retries",
    "repairs",
    "prompt_tokens",
    "completion_tokens",
    "cost_usd",
    "saved_cost_usd",
    "saved_latency_s",
)
"""The fixed columns, in order; :data:`BLAME_COLUMNS` follow, then the ``meta.<key>`` columns,
sorted by key."""

BLAME_COLUMNS = ("blame", "blame_missing_from_context", "blame_generation", "blame_evidence")
"""The last columns: the output's blame call, the required facts its context lacks, the problems
of the answer the context does not explain (each joined by `` | ``), and the call's evidence;
empty for an output that did not fail."""

CASCADE_COLUMNS = ("stage", "claim_stages")
"""After :data:`BLAME_COLUMNS`, in a study that ran the hybrid scorer: its stage that decided the output (``checks``,
``as_written``, ``judge``) and each claim's stage (joined by `` | ``); empty for other scorers."""

FINDINGS_SEPARATOR = " | "
"""Joins the findings of one evaluation in the ``findings`` column."""


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, dict | list | tuple):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    return str(value)


def observations_csv(study: StudyResult, *, raw_formulas: bool = False) -> str:
    """The CSV text (see the module docstring for its columns and formula cells)."""
    outputs = {o.id: o for o in study.outputs}
    metadata: dict[str, dict[str, Any]] = {o.id: dict(o.metadata) for o in study.outputs}
    meta_keys = sorted({key for meta in metadata.values() for key in meta})
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    blames = {b.output_id: b for b in study.blame}
    # the cascade's columns only in a study that ran it: other studies' tables keep their form
    cascade = any(obs.stage is not None for obs in study.observations)
    header = [
        *OBSERVATION_COLUMNS,
        *BLAME_COLUMNS,
        *(CASCADE_COLUMNS if cascade else ()),
        *(f"meta.{key}" for key in meta_keys),
    ]
    writer.writerow([csv_cell(name, raw=raw_formulas) for name in header])
    for obs in study.observations:
        out = outputs.get(obs.output_id)
        usage = obs.usage
        row: list[Any] = [
            out.corpus if out else None,
            obs.output_id,
            out.case_id if out else None,
            out.base_id if out else None,
            out.defect if out else None,
            class_label(out.defect) if out and out.defect else None,
            out.origin if out else None,
            out.clean if out else None,
            out.judged if out else None,
            obs.scorer,
            obs.repetition,
            obs.status,
            obs.score,
            obs.flagged,
            obs.unscored_reason,
            obs.detail,
            len(obs.issues),
            FINDINGS_SEPARATOR.join(obs.issues),
            obs.latency_ms,
            obs.cached,
            usage.calls,
            usage.cache_hits,
            usage.retries,
            usage.repairs,
            usage.prompt_tokens,
            usage.completion_tokens,
            usage.cost_usd,
            usage.saved_cost_usd,
            usage.saved_latency_s,
        ]
        blame = blames.get(obs.output_id)
        row += (
            [None] * len(BLAME_COLUMNS)
            if blame is None
            else [
                blame.call,
                FINDINGS_SEPARATOR.join(blame.missing_from_context),
                FINDINGS_SEPARATOR.join(blame.generation),
                blame.evidence,
            ]
        )
        if cascade:
            row += [obs.stage, FINDINGS_SEPARATOR.join(obs.claim_stages) or None]
        meta = metadata.get(obs.output_id, {})
        row += [meta.get(key) for key in meta_keys]
        cells = [_cell(v) for v in row]
        if not raw_formulas:  # the first-character test inline: most cells pass it
            cells = [csv_cell(c) if c[:1] in FORMULA_START else c for c in cells]
        writer.writerow(cells)
    return buffer.getvalue()


def write_observations_csv(
    study: StudyResult, path: str | Path, *, raw_formulas: bool = False
) -> Path:
    """Write :func:`observations_csv` to ``path`` atomically; returns the path."""
    from hybridjudge._atomic import atomic_write_text

    return atomic_write_text(Path(path), observations_csv(study, raw_formulas=raw_formulas))
