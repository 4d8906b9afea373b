"""``check_dataset``: the deterministic grounding checks over a Ray Dataset, batch by batch.

Each worker is a long-lived Ray actor; a batch goes through
:func:`hybridjudge.grounding.check_many` (the batch API of one process), which prepares one
:class:`~hybridjudge.grounding.GroundingChecker` per distinct case of the batch, so every distinct
context is parsed once and shared by the records that retrieved it, and the findings are exactly
those of :func:`~hybridjudge.grounding.check_grounding`.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from hybridjudge._errors import ConfigError

if TYPE_CHECKING:
    import pyarrow as pa
    import ray.data

    from hybridjudge.grounding import GroundingReport

__all__ = ["CHECK_COLUMNS", "check_dataset", "cluster_cpus", "findings_type"]

logger = logging.getLogger(__name__)

CHECK_COLUMNS = ("id", "grounded", "abstained", "findings", "error")
"""Columns :func:`check_dataset` adds (replacing input columns of the same name)."""


def cluster_cpus() -> float:
    """CPUs of the Ray cluster this process is connected to."""
    import ray

    resources: dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
    return float(resources.get("CPU", 1.0))


def resolve_workers(workers: int | None, worker_cpus: float) -> int:
    """``workers`` (default: one per cluster CPU) after checking it and ``worker_cpus``.

    Raises:
        ConfigError: ``workers`` below 1 or ``worker_cpus`` not positive.
    """
    if workers is None:
        workers = max(1, int(cluster_cpus()))
    if workers < 1:
        raise ConfigError(f"workers must be at least 1, got {workers}")
    if worker_cpus <= 0:
        raise ConfigError(f"worker_cpus must be positive, got {worker_cpus}")
    return workers


def findings_type() -> pa.DataType:
    """The Arrow type of the ``findings`` column: a list of structs, one per finding."""
    import pyarrow as pa

    return pa.list_(
        pa.struct(
            [
                ("kind", pa.string()),
                ("message", pa.string()),
                ("subject", pa.string()),
                ("span_start", pa.int64()),
                ("span_end", pa.int64()),
                ("evidence", pa.string()),
            ]
        )
    )


def finding_rows(report: GroundingReport) -> list[dict[str, Any]]:
    """The ``findings`` cell of one report (structured, not text)."""
    return [
        {
            "kind": f.kind,
            "message": f.message,
            "subject": f.subject,
            "span_start": f.span[0] if f.span is not None else None,
            "span_end": f.span[1] if f.span is not None else None,
            "evidence": f.evidence,
        }
        for f in report.findings
    ]


def replace_columns(
    table: pa.Table, columns: dict[str, pa.Array], *, keep_input: bool, drop: str | None
) -> pa.Table:
    """``table`` with ``columns`` appended (input columns of the same names replaced)."""
    import pyarrow as pa

    if not keep_input:
        return pa.table(columns)
    kept = [n for n in table.column_names if n not in columns and n != drop]
    out = table.select(kept)
    for name, values in columns.items():
        out = out.append_column(name, values)
    return out


class _CheckBatch:
    """The per-worker checker: called by Ray Data with one ``pyarrow.Table`` batch at a time."""

    def __init__(self, *, record_column: str | None, strict: bool, keep_input: bool) -> None:
        self._record_column = record_column
        self._strict = strict
        self._keep_input = keep_input

    def __call__(self, table: pa.Table) -> pa.Table:
        import pyarrow as pa

        from hybridjudge.dist._records import cases_of
        from hybridjudge.grounding import check_many

        cases = cases_of(table, record_column=self._record_column, strict=self._strict)
        usable = [i for i, item in enumerate(cases) if item.case is not None]
        # check_many: one prepared checker per distinct case of the batch (context parsed once)
        batch = check_many([cases[i].case for i in usable])
        outcomes = {usable[o.index]: o for o in batch.outcomes}
        ids: list[str | None] = []
        grounded: list[bool | None] = []
        abstained: list[bool | None] = []
        findings: list[list[dict[str, Any]] | None] = []
        errors: list[str | None] = []
        for row, item in enumerate(cases):
            ids.append(item.id)
            outcome = outcomes.get(row)
            report = outcome.report if outcome is not None else None
            if report is None:
                grounded.append(None)
                abstained.append(None)
                findings.append(None)
                error = outcome.error if outcome is not None else item.error
                errors.append(error or "unusable record")
            else:
                grounded.append(report.grounded)
                abstained.append(report.abstained)
                findings.append(finding_rows(report))
                errors.append(None)
        columns = {
            "id": pa.array(ids, pa.string()),
            "grounded": pa.array(grounded, pa.bool_()),
            "abstained": pa.array(abstained, pa.bool_()),
            "findings": pa.array(findings, findings_type()),
            "error": pa.array(errors, pa.string()),
        }
        return replace_columns(
            table, columns, keep_input=self._keep_input, drop=self._record_column
        )


def check_dataset(
    ds: ray.data.Dataset,
    *,
    workers: int | None = None,
    worker_cpus: float = 0.5,
    batch_size: int = 1024,
    record_column: str | None = None,
    strict: bool = False,
    keep_input: bool = True,
) -> ray.data.Dataset:
    """The deterministic grounding checks on every record of ``ds`` (lazy, like any Dataset op).

    Args:
        ds: records in any accepted field-name family (``answer``/``response``/
            ``actual_output``, ``context``/``retrieved_contexts``/``retrieval_context`` ...;
            see :data:`hybridjudge.corpus.FIELD_ALIASES`).
        workers: checker actors (default: one per CPU of the cluster).
        worker_cpus: CPUs Ray reserves per checker (default 0.5: the checkers use every core
            anyway, and half the cluster stays free for the tasks that read the input; with a
            whole CPU each, the readers could never be scheduled and the run would stall).
        batch_size: records per batch (each batch parses each distinct context once).
        record_column: a column holding each record as JSON text instead (e.g.
            ``ray.data.read_text`` of JSONL files); a line that is not a JSON object becomes an
            error row. The column is dropped from the output.
        strict: accept only hybridjudge's own field names (as ``--strict``).
        keep_input: keep the input columns next to the results (default).

    Returns:
        A Dataset with the input columns and :data:`CHECK_COLUMNS`: ``id`` (``None`` when the
        record has none), ``grounded`` and ``abstained`` (``None`` for an unusable record),
        ``findings`` (a list of ``{kind, message, subject, span_start, span_end, evidence}``)
        and ``error`` (why the record could not be checked, else ``None``). Row order is not
        guaranteed across batches (Ray Data's default); match rows by ``id``.

    Raises:
        ConfigError: ``workers`` or ``batch_size`` below 1, ``worker_cpus`` not positive.
    """
    import ray.data

    if batch_size < 1:
        raise ConfigError(f"batch_size must be at least 1, got {batch_size}")
    workers = resolve_workers(workers, worker_cpus)
    return ds.map_batches(
        _CheckBatch,
        batch_format="pyarrow",
        batch_size=batch_size,
        fn_constructor_kwargs={
            "record_column": record_column,
            "strict": strict,
            "keep_input": keep_input,
        },
        compute=ray.data.ActorPoolStrategy(min_size=1, max_size=workers, initial_size=workers),
        num_cpus=worker_cpus,
        zero_copy_batch=True,
    )
