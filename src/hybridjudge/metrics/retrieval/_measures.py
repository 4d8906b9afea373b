"""Retrieval measures: their names, and vectorised per-query kernels over a ranked run.

Every measure is computed for all queries at once from flat numpy arrays (one entry per retrieved
document, grouped by query and sorted by rank), with the same conventions as trec_eval
(usnistgov/trec_eval, ``m_*.c``):

===============  ==================  =========================================================
our name         trec_eval name      per query
===============  ==================  =========================================================
``hit@k``        ``success_k``       1 if a relevant document is in the top k, else 0
``mrr@k``        (none)              1 / rank of the first relevant document in the top k, else 0
``mrr``          ``recip_rank``      1 / rank of the first relevant document retrieved, else 0
``p@k``          ``P_k``             relevant in the top k / k (always divided by k, even when
                                     fewer than k documents were retrieved: trec_eval's
                                     convention, the missing ranks count as non-relevant)
``recall@k``     ``recall_k``        relevant in the top k / relevant judged for the query
                                     (0 when the query has no relevant document)
``map``          ``map``             average precision: sum of precision at each relevant
                                     retrieved document / relevant judged (0 when none)
``map@k``        ``map_cut_k``       the same sum restricted to the top k / relevant judged
``ndcg@k``       ``ndcg_cut_k``      DCG@k / ideal DCG@k, gain = the judged grade, discount
                                     1 / log2(rank + 1); the ideal ranking is built from **all**
                                     judged documents of the query, retrieved or not
``ndcg``         ``ndcg``            the same without a cutoff (all retrieved documents)
``ndcg_exp@k``   (none)              as ``ndcg@k`` with exponential gains ``2**grade - 1``
                                     (Burges et al. 2005), on both DCG and ideal DCG
``ndcg_exp``     (none)              the same without a cutoff
===============  ==================  =========================================================

A document is *relevant* when its judged grade is at least ``relevance_level`` (trec_eval
``-l``, default 1). nDCG uses the grades themselves as gains, so the threshold does not apply to
it (as in trec_eval: a grade-1 document still earns gain 1 under ``-l2``); documents with a grade
of 0 or below, or missing from the qrels, earn no gain.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal

import numpy as np
import numpy.typing as npt

from hybridjudge._errors import InputError

__all__ = [
    "METRIC_FAMILIES",
    "MetricNameError",
    "MetricSpec",
    "compute_metrics",
    "parse_metric",
    "parse_metrics",
]

Family = Literal["hit", "mrr", "p", "recall", "map", "ndcg", "ndcg_exp"]

METRIC_FAMILIES: Final[dict[str, str]] = {
    "hit@k": "1 if a relevant document is in the top k (trec_eval success_k)",
    "mrr": "reciprocal rank of the first relevant document (trec_eval recip_rank)",
    "mrr@k": "reciprocal rank, 0 when the first relevant document is below rank k",
    "p@k": "precision at k, always divided by k (trec_eval P_k)",
    "recall@k": "relevant in the top k / all relevant judged (trec_eval recall_k)",
    "map": "average precision over all retrieved (trec_eval map)",
    "map@k": "average precision cut at k (trec_eval map_cut_k)",
    "ndcg": "nDCG over all retrieved, linear gains (trec_eval ndcg)",
    "ndcg@k": "nDCG at k, linear gains = grades (trec_eval ndcg_cut_k)",
    "ndcg_exp": "nDCG over all retrieved, exponential gains 2**grade - 1",
    "ndcg_exp@k": "nDCG at k, exponential gains 2**grade - 1",
}
"""Every metric name :func:`parse_metric` accepts (canonical form), with a one-line meaning."""

# Accepted spellings (lower-cased) -> canonical family. trec_eval names use "_k" for the cutoff.
_ALIASES: Final[dict[str, Family]] = {
    "hit": "hit",
    "hits": "hit",
    "success": "hit",
    "mrr": "mrr",
    "rr": "mrr",
    "recip_rank": "mrr",
    "p": "p",
    "precision": "p",
    "recall": "recall",
    "r": "recall",
    "map": "map",
    "ap": "map",
    "map_cut": "map",
    "ndcg": "ndcg",
    "ndcg_cut": "ndcg",
    "ndcg_exp": "ndcg_exp",
}
# Families that need a cutoff, and those that may go without one.
_NEEDS_K: Final[frozenset[Family]] = frozenset({"hit", "p", "recall"})

_NAME_RE: Final = re.compile(r"^(?P<base>[a-z_]+?)(?:(?:@|_)(?P<k>[+-]?\d+))?$")


class MetricNameError(InputError):
    """A metric name that cannot be parsed: unknown, missing its cutoff, or a cutoff below 1."""

    code = "invalid_metric"


@dataclass(frozen=True, slots=True)
class MetricSpec:
    """One parsed metric: its family and cutoff (``None`` for uncut measures)."""

    family: Family
    """The measure family, e.g. ``"ndcg"``."""
    k: int | None
    """The rank cutoff, or ``None`` for a measure over the whole ranking."""

    @property
    def name(self) -> str:
        """The canonical name, e.g. ``"ndcg@10"`` or ``"mrr"``."""
        return self.family if self.k is None else f"{self.family}@{self.k}"


def _short(name: str) -> str:
    """``repr(name)`` cut to 40 characters (a metric name may be any length)."""
    text = repr(name)
    return text if len(text) <= 40 else text[:37] + "..."


def _valid_names() -> str:
    return ", ".join(METRIC_FAMILIES)


def parse_metric(name: str) -> MetricSpec:
    """Parse one metric name into a :class:`MetricSpec`.

    Case-insensitive; the cutoff follows ``@`` or, in trec_eval's spelling, ``_`` (``P_10``,
    ``ndcg_cut_10``, ``success_5``, ``recall_100``, ``map_cut_20``). Aliases: ``success`` and
    ``hits`` for ``hit``; ``recip_rank`` and ``rr`` for ``mrr``; ``precision`` for ``p``;
    ``r`` for ``recall``; ``ap`` for ``map``.

    Raises
    ------
    MetricNameError
        For an unknown name (the message lists the valid ones), a missing cutoff on ``hit``,
        ``p`` or ``recall``, a cutoff below 1, or one of more digits than :func:`int` converts.

    Examples
    --------
    >>> parse_metric("NDCG_cut_10").name
    'ndcg@10'
    >>> parse_metric("recip_rank").name
    'mrr'
    """
    if not isinstance(name, str):
        raise MetricNameError(
            f"metric name {name!r} is a {type(name).__name__}; metric names are strings such as "
            f"'ndcg@10'; valid metrics: {_valid_names()}"
        )
    if not name.strip():
        raise MetricNameError(f"metric name {name!r} is empty; valid metrics: {_valid_names()}")
    text = name.strip().lower()
    match = _NAME_RE.match(text)
    family = _ALIASES.get(match.group("base")) if match else None
    if match is None or family is None:
        raise MetricNameError(
            f"unknown metric {name!r}; valid metrics (k a positive integer): {_valid_names()}"
        )
    k_text = match.group("k")
    if match.group("base") in {"map_cut", "ndcg_cut"} and k_text is None:
        raise MetricNameError(f"metric {name!r} needs a cutoff, e.g. {text}_10")
    if k_text is None:
        if family in _NEEDS_K:
            raise MetricNameError(
                f"metric {name!r} needs a cutoff k, e.g. {family}@10; valid metrics: "
                f"{_valid_names()}"
            )
        return MetricSpec(family, None)
    try:
        k = int(k_text)
    except ValueError:  # more digits than int() converts (sys.get_int_max_str_digits)
        raise MetricNameError(
            f"metric {_short(name)} has a cutoff of {len(k_text)} digits; a cutoff must be a "
            "positive integer such as 10"
        ) from None
    if k <= 0:
        raise MetricNameError(
            f"metric {name!r} has cutoff k={k}; a cutoff must be a positive integer (k >= 1)"
        )
    return MetricSpec(family, k)


def parse_metrics(names: str | list[str] | tuple[str, ...]) -> tuple[MetricSpec, ...]:
    """Parse metric names (a list, or one comma-separated string), dropping exact repeats.

    Raises
    ------
    MetricNameError
        When the list is empty or any name is invalid (see :func:`parse_metric`).
    """
    items = names.split(",") if isinstance(names, str) else list(names)
    specs: list[MetricSpec] = []
    for item in items:
        if isinstance(item, str) and not item.strip() and isinstance(names, str):
            continue
        spec = parse_metric(item)
        if spec not in specs:
            specs.append(spec)
    if not specs:
        raise MetricNameError(f"no metric requested; valid metrics: {_valid_names()}")
    return tuple(specs)


FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True, slots=True)
class RankedArrays:
    """A ranked run joined with its qrels, flat and grouped by query (internal)."""

    n_queries: int
    """Number of evaluated queries."""
    qidx: IntArray
    """Query index of each retrieved document, non-decreasing."""
    pos: IntArray
    """0-based rank of each retrieved document within its query."""
    grade: IntArray
    """Judged grade of each retrieved document; -1 when not in the qrels (trec_eval's
    ``RELVALUE_NONPOOL``), -2 when judged -1 in the qrels (``RELVALUE_UNJUDGED``)."""
    num_rel: IntArray
    """Per query: judged documents with grade >= the relevance level."""
    ideal_qidx: IntArray
    """Query index of each positive judged grade, sorted by query then grade descending."""
    ideal_pos: IntArray
    """0-based position of that grade in the query's ideal ranking."""
    ideal_grade: IntArray
    """The positive judged grades in ideal order."""


def _per_query_sum(qidx: IntArray, weights: FloatArray | None, n_queries: int) -> FloatArray:
    return np.bincount(qidx, weights=weights, minlength=n_queries).astype(np.float64, copy=False)


def _divide(numerator: FloatArray, denominator: FloatArray) -> FloatArray:
    """numerator / denominator, 0 where the denominator is 0 (trec_eval's convention)."""
    out = np.zeros_like(numerator)
    np.divide(numerator, denominator, out=out, where=denominator > 0)
    return out


def compute_metrics(
    arrays: RankedArrays, specs: tuple[MetricSpec, ...], *, relevance_level: int
) -> dict[str, FloatArray]:
    """Per-query values of every metric in ``specs`` (one float64 array per canonical name)."""
    nq = arrays.n_queries
    relevant = np.flatnonzero(arrays.grade >= relevance_level)
    rel_q = arrays.qidx[relevant]
    rel_pos = arrays.pos[relevant]
    num_rel = arrays.num_rel.astype(np.float64)
    families = {spec.family for spec in specs}

    first = np.full(nq, np.iinfo(np.int64).max, dtype=np.int64)
    if relevant.size:
        starts = np.flatnonzero(np.r_[True, rel_q[1:] != rel_q[:-1]])
        first[rel_q[starts]] = rel_pos[starts]
    else:
        starts = np.zeros(0, dtype=np.int64)

    precision_at_rel = np.zeros(0, dtype=np.float64)
    if "map" in families:
        # rank among the relevant documents of the query (0-based), then precision at it
        counts = np.diff(np.r_[starts, rel_q.size])
        rank_in_rel = np.arange(rel_q.size) - np.repeat(starts, counts)
        precision_at_rel = (rank_in_rel + 1.0) / (rel_pos + 1.0)

    gains: dict[str, tuple[IntArray, IntArray, FloatArray, IntArray, IntArray, FloatArray]] = {}
    for family in families & {"ndcg", "ndcg_exp"}:
        gained = np.flatnonzero(arrays.grade > 0)
        grades = arrays.grade[gained].astype(np.float64)
        ideal = arrays.ideal_grade.astype(np.float64)
        if family == "ndcg_exp":
            grades, ideal = _exp_gains(arrays, gained, grades, ideal)
        g_pos = arrays.pos[gained]
        gains[family] = (
            arrays.qidx[gained],
            g_pos,
            grades / np.log2(g_pos + 2.0),
            arrays.ideal_qidx,
            arrays.ideal_pos,
            ideal / np.log2(arrays.ideal_pos + 2.0),
        )

    out: dict[str, FloatArray] = {}
    for spec in specs:
        k = spec.k
        if spec.family == "hit":
            out[spec.name] = (first < _k(k)).astype(np.float64)
        elif spec.family == "mrr":
            limit = np.iinfo(np.int64).max if k is None else k
            found = first < limit
            values = np.zeros(nq, dtype=np.float64)
            values[found] = 1.0 / (first[found] + 1.0)
            out[spec.name] = values
        elif spec.family in {"p", "recall"}:
            inside = rel_q[rel_pos < _k(k)]
            count = _per_query_sum(inside, None, nq)
            out[spec.name] = count / _k(k) if spec.family == "p" else _divide(count, num_rel)
        elif spec.family == "map":
            keep = slice(None) if k is None else rel_pos < k
            total = _per_query_sum(rel_q[keep], precision_at_rel[keep], nq)
            out[spec.name] = _divide(total, num_rel)
        else:  # ndcg, ndcg_exp
            g_q, g_pos, g_w, i_q, i_pos, i_w = gains[spec.family]
            if k is None:
                dcg = _per_query_sum(g_q, g_w, nq)
                idcg = _per_query_sum(i_q, i_w, nq)
            else:
                g_keep = g_pos < k
                i_keep = i_pos < k
                dcg = _per_query_sum(g_q[g_keep], g_w[g_keep], nq)
                idcg = _per_query_sum(i_q[i_keep], i_w[i_keep], nq)
            out[spec.name] = _divide(dcg, idcg)
    return out


def _exp_gains(
    arrays: RankedArrays, gained: IntArray, grades: FloatArray, ideal: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """Exponential gains ``2**g - 1`` of the retrieved and the ideal documents, each query's
    scaled by ``2**-m`` (``m`` its highest judged grade) so that no gain overflows.

    nDCG is a ratio of two sums over the same query, so a common factor per query cancels:
    ``(2**g - 1) * 2**-m = 2**(g - m) - 2**-m`` is at most 1 for every grade up to the bound
    the inputs are checked against (1,000,000), where ``2**g`` alone overflows a float past
    ``g = 1023``. Scaling by a power of two is exact, so for small grades the values are those
    of the unscaled formula, bit for bit (until the scaled terms become subnormal).
    """
    top = np.zeros(arrays.n_queries, dtype=np.float64)
    heads = arrays.ideal_pos == 0  # the ideal ranking is sorted by grade, highest first
    top[arrays.ideal_qidx[heads]] = arrays.ideal_grade[heads]
    g_top = top[arrays.qidx[gained]]
    i_top = top[arrays.ideal_qidx]
    return np.exp2(grades - g_top) - np.exp2(-g_top), np.exp2(ideal - i_top) - np.exp2(-i_top)


def _k(k: int | None) -> int:
    if k is None:  # guarded by parse_metric; kept as an exception, never an assert
        raise MetricNameError("internal: a cutoff measure was requested without k")
    return k
