"""The entry point :func:`evaluate` and its typed result :class:`RetrievalResult`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Annotated, Any, Final, Literal

import numpy as np
import numpy.typing as npt
from pydantic import (
    BaseModel,
    ConfigDict,
    PlainSerializer,
    PlainValidator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from hybridjudge._errors import InputError
from hybridjudge._versions import check_format_version
from hybridjudge.metrics.retrieval._arrays import TIE_BREAKS, TieBreak, join
from hybridjudge.metrics.retrieval._measures import (
    METRIC_FAMILIES,
    MetricNameError,
    compute_metrics,
    parse_metrics,
)

__all__ = ["RESULT_FORMAT_VERSION", "RetrievalResult", "evaluate"]

RESULT_FORMAT_VERSION: Literal[1] = 1
"""Version of the JSON layout of :class:`RetrievalResult` (bumped on any incompatible change)."""

READABLE_RESULT_FORMAT_VERSIONS: Final[tuple[int, ...]] = (1,)
"""The ``format_version`` values this hybridjudge reads back."""


def _to_list(values: npt.NDArray[np.float64]) -> list[float]:
    result: list[float] = values.tolist()
    return result


def _to_vector(value: Any) -> npt.NDArray[np.float64]:
    """A read-only float64 vector from an array (Python) or a list of numbers (JSON)."""
    if isinstance(value, np.ndarray):
        if value.ndim != 1 or value.dtype.kind not in "iuf":
            raise PydanticCustomError(
                "float_vector",
                "expected a 1-D array of numbers, got shape {shape} of {dtype}",
                {"shape": str(value.shape), "dtype": str(value.dtype)},
            )
        array = value.astype(np.float64, copy=False)
    elif isinstance(value, list | tuple):
        kinds = set(map(type, value))
        if not kinds <= {int, float}:  # bool, str, None: a metric value is a number
            index, item = next((i, x) for i, x in enumerate(value) if type(x) not in {int, float})
            raise PydanticCustomError(
                "float_vector",
                "item {index} is {item}; a metric value is a number",
                {"index": index, "item": repr(item)},
            )
        try:
            array = np.array(value, dtype=np.float64)
        except OverflowError:  # an integer beyond float range: not a metric value
            raise PydanticCustomError(
                "float_vector",
                "an item is an integer too large for a float; a metric value is a finite number",
            ) from None
    else:
        raise PydanticCustomError(
            "float_vector",
            "expected a list of numbers (one per query), got {type}",
            {"type": type(value).__name__},
        )
    finite = np.isfinite(array)
    if not finite.all():
        index = int(np.flatnonzero(~finite)[0])
        raise PydanticCustomError(
            "float_vector",
            "item {index} is {item}; a metric value is a finite number",
            {"index": index, "item": repr(float(array[index]))},
        )
    if array.flags.writeable:
        array = array.copy() if array is value else array
        array.flags.writeable = False
    return array


FloatVector = Annotated[
    npt.NDArray[np.float64],
    PlainValidator(_to_vector, json_schema_input_type=list[float]),
    PlainSerializer(_to_list, return_type=list[float]),
]
"""A read-only float64 array, written to JSON as a list and read back from one."""


class RetrievalResult(BaseModel):
    """Per-query values and means of retrieval metrics, with how they were computed.

    ``per_query[name][i]`` is the value of metric ``name`` for query ``query_ids[i]``; the
    arrays are read-only float64. ``model_dump(mode="json")`` gives plain lists.
    """

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    format_version: Literal[1] = RESULT_FORMAT_VERSION
    """Version of this layout when written as JSON."""
    metrics: tuple[str, ...]
    """Canonical metric names, in the order requested (e.g. ``("ndcg@10", "mrr")``)."""
    query_ids: tuple[str, ...]
    """The evaluated queries, in qrels order."""
    per_query: dict[str, FloatVector]
    """Metric name -> one value per evaluated query (aligned with ``query_ids``)."""
    means: dict[str, float]
    """Metric name -> mean over the evaluated queries (trec_eval's ``all`` line)."""
    relevance_level: int
    """Minimum grade counted as relevant (trec_eval ``-l``)."""
    tie_break: TieBreak
    """How tied scores were ordered (see :data:`TieBreak`)."""
    complete: bool
    """Whether qrels queries missing from the run were scored 0 (trec_eval ``-c``)."""
    max_docs: int | None
    """Documents per query kept after ranking (trec_eval ``-M``), ``None`` for all."""
    run_only_queries: tuple[str, ...]
    """Queries in the run without any qrels: not evaluated (trec_eval ignores them)."""
    missing_queries: tuple[str, ...]
    """Queries in the qrels absent from the run: skipped, or scored 0 when ``complete``."""
    queries_without_relevant: tuple[str, ...]
    """Evaluated queries with no judged document at the relevance level: every metric but
    nDCG (which uses grades below the level as gains) is 0 for them, as in trec_eval."""

    @model_validator(mode="before")
    @classmethod
    def _supported_version(cls, data: Any) -> Any:
        return check_format_version(data, READABLE_RESULT_FORMAT_VERSIONS, "retrieval result")

    @model_validator(mode="after")
    def _consistent(self) -> RetrievalResult:
        if set(self.per_query) != set(self.metrics) or set(self.means) != set(self.metrics):
            raise ValueError(
                f"per_query has {sorted(self.per_query)} and means {sorted(self.means)}, but the "
                f"metrics are {list(self.metrics)}: the result is incomplete or edited"
            )
        for name, values in self.per_query.items():
            if values.shape[0] != len(self.query_ids):
                raise ValueError(
                    f"per_query[{name!r}] has {values.shape[0]} values for "
                    f"{len(self.query_ids)} queries: the result is incomplete or edited"
                )
        return self

    @property
    def num_queries(self) -> int:
        """Number of evaluated queries (the denominator of every mean)."""
        return len(self.query_ids)

    def query(self, qid: str) -> dict[str, float]:
        """All metric values of one query.

        Raises
        ------
        InputError
            When ``qid`` was not evaluated.
        """
        try:
            index = self.query_ids.index(qid)
        except ValueError:
            raise InputError(f"query {qid!r} was not evaluated") from None
        return {name: float(self.per_query[name][index]) for name in self.metrics}

    def worst(self, metric: str, n: int = 5) -> list[tuple[str, float]]:
        """The ``n`` queries with the lowest value of ``metric`` (ties by query order).

        Raises
        ------
        InputError
            When ``metric`` was not computed.
        """
        if metric not in self.per_query:
            raise InputError(
                f"metric {metric!r} was not computed; computed: {', '.join(self.metrics)}"
            )
        values = self.per_query[metric]
        order = np.argsort(values, kind="stable")[: max(n, 0)]
        return [(self.query_ids[i], float(values[i])) for i in order.tolist()]


def _check_int(name: str, value: Any, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < minimum:
        raise InputError(f"{name}={value!r}; use an integer >= {minimum}")
    return int(value)


def evaluate(
    qrels: Mapping[str, Mapping[str, int]],
    run: Mapping[str, Mapping[str, float]],
    metrics: Sequence[str] | str,
    *,
    relevance_level: int = 1,
    tie_break: TieBreak = "trec_eval",
    complete: bool = False,
    max_docs: int | None = None,
) -> RetrievalResult:
    """Evaluate a ranked run against relevance judgments, as trec_eval does.

    Parameters
    ----------
    qrels : mapping
        ``{qid: {docid: grade}}``; integer grades, 0 for judged non-relevant, negative for
        judged-but-unjudged pool documents (never relevant, no gain).
    run : mapping
        ``{qid: {docid: score}}``; higher scores rank first. A query mapped to ``{}`` retrieved
        nothing and scores 0 on every metric (it is evaluated, not skipped).
    metrics : list of str, or a comma-separated string
        Required: there is no default set of metrics.
        E.g. ``["ndcg@10", "mrr", "hit@5", "p@10", "recall@100", "map"]``; trec_eval names such
        as ``"ndcg_cut_10"``, ``"P_10"``, ``"success_5"``, ``"recip_rank"`` are accepted. See
        :data:`METRIC_FAMILIES` for every name.
    relevance_level : int, default 1
        Minimum grade that counts as relevant (trec_eval ``-l``).
    tie_break : {"trec_eval", "stable", "rank"}, default "trec_eval"
        ``"trec_eval"``: score descending, then document id descending. ``"stable"``: score
        descending, ties in the order given. ``"rank"``: the order given, scores ignored.
    complete : bool, default False
        Score qrels queries missing from the run as 0 and include them in the means (trec_eval
        ``-c``). By default they are skipped, as trec_eval does.
    max_docs : int, optional
        Keep only the first ``max_docs`` ranked documents of each query (trec_eval ``-M``).

    Returns
    -------
    RetrievalResult
        Per-query values (one float64 array per metric), means, and which queries were
        evaluated, skipped or had no relevant document.

    Notes
    -----
    Queries follow trec_eval (``trec_eval.c``): a query in the run without qrels is ignored
    (listed in ``run_only_queries``); a qrels query absent from the run is ignored unless
    ``complete``; a qrels query without a relevant document is evaluated and scores 0 on
    every metric except possibly nDCG (see ``queries_without_relevant``). Duplicate documents
    cannot occur in a mapping; the file readers reject them.

    Raises
    ------
    InputError
        Unknown metric (the message lists the valid names), ``metrics=None`` or no metric (there
        is no default set), a cutoff below 1, an empty run or qrels, no query in common, NaN,
        non-numeric or boolean scores (a string such as ``"0.5"`` is refused, not converted),
        grades that are not integers (``int``, a numpy integer, or a whole float such as
        ``1.0``; strings and booleans are refused) or lie outside +-1,000,000 (the file readers'
        bound), non-string ids, query ids holding a lone UTF-16 surrogate (they could not be
        written as JSON), or invalid options.

    Examples
    --------
    >>> qrels = {"q1": {"d1": 1, "d2": 0, "d3": 1}}
    >>> run = {"q1": {"d2": 0.9, "d1": 0.8, "d4": 0.1}}
    >>> result = evaluate(qrels, run, ["mrr", "p@2", "recall@2"])
    >>> result.means
    {'mrr': 0.5, 'p@2': 0.5, 'recall@2': 0.5}
    """
    if isinstance(metrics, Mapping) or not isinstance(metrics, str | Iterable):
        raise MetricNameError(
            f"metrics={metrics!r}: name the metrics to compute, as a list such as "
            "['ndcg@10', 'mrr'] or a comma-separated string 'ndcg@10,mrr' (there is no default "
            "set); valid metrics: " + ", ".join(METRIC_FAMILIES)
        )
    specs = parse_metrics(metrics if isinstance(metrics, str) else list(metrics))
    level = _check_int("relevance_level", relevance_level, 1)
    depth = None if max_docs is None else _check_int("max_docs", max_docs, 1)
    if tie_break not in TIE_BREAKS:
        raise InputError(f"tie_break={tie_break!r}; choose one of {', '.join(TIE_BREAKS)}")
    if not isinstance(complete, bool):
        raise InputError(f"complete={complete!r}; use True or False")
    arrays, info = join(
        qrels, run, relevance_level=level, tie_break=tie_break, complete=complete, max_docs=depth
    )
    values = compute_metrics(arrays, specs, relevance_level=level)
    for array in values.values():
        array.flags.writeable = False
    no_relevant = np.flatnonzero(arrays.num_rel == 0)
    return RetrievalResult(
        metrics=tuple(spec.name for spec in specs),
        query_ids=info.qids,
        per_query=values,
        means={name: float(array.mean()) for name, array in values.items()},
        relevance_level=level,
        tie_break=tie_break,
        complete=complete,
        max_docs=depth,
        run_only_queries=info.run_only,
        missing_queries=info.qrels_only,
        queries_without_relevant=tuple(info.qids[i] for i in no_relevant.tolist()),
    )
