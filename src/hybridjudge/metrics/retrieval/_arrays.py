"""Join a run with its qrels into flat numpy arrays, ranked by a tie-breaking policy.

The run and qrels are plain mappings (``{qid: {docid: score}}`` and ``{qid: {docid: grade}}``).
Scores are flattened with C-level iteration (``np.fromiter`` over ``itertools.chain``); each
query's documents are ranked by sorting the rows of a matrix (queries of unequal length are
bucketed by length rounded up to a power of two, so padding at most doubles the work). Grades
are placed by looking up the judged documents in the run, which are far fewer than the retrieved
ones, and finding their ranks by binary search; document ids are compared only where scores tie.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import chain, repeat
from typing import Final, Literal

import numpy as np
import numpy.typing as npt

from hybridjudge._errors import InputError, InvariantError
from hybridjudge.metrics.retrieval._measures import RankedArrays

__all__ = ["MAX_GRADE", "TIE_BREAKS", "JoinInfo", "TieBreak", "join"]

TieBreak = Literal["trec_eval", "stable", "rank"]
"""How documents are ordered within a query.

- ``"trec_eval"``: score descending, ties by document id descending (byte order), ignoring the
  order the documents were given in (trec_eval's ``comp_sim_docno``; the default).
- ``"stable"``: score descending, ties kept in the order given.
- ``"rank"``: the order given (mapping insertion order; for TREC run files the rank column),
  scores ignored.
"""

TIE_BREAKS: Final[tuple[TieBreak, ...]] = ("trec_eval", "stable", "rank")

_SURROGATE: Final = re.compile("[\ud800-\udfff]")

NONPOOL: Final = -1
"""Grade of a retrieved document missing from the qrels (trec_eval's ``RELVALUE_NONPOOL``)."""

_CHUNK_CELLS: Final = 1 << 22
"""Padded cells sorted at once (bounds the temporary memory of the ranking)."""

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class JoinInfo:
    """Which queries were evaluated, skipped, or zero-filled (internal)."""

    qids: tuple[str, ...]
    """Evaluated queries, in qrels order."""
    run_only: tuple[str, ...]
    """Queries in the run without qrels: skipped (trec_eval ignores them)."""
    qrels_only: tuple[str, ...]
    """Queries in the qrels missing from the run: skipped, or scored 0 when ``complete``."""


def _check_qid(qid: object, where: str) -> None:
    if not isinstance(qid, str):
        raise InputError(
            f"{where}: query id {qid!r} is a {type(qid).__name__}; query ids must be strings "
            "(a run keyed by 1 and qrels keyed by '1' would never match): convert them with str()"
        )
    if not qid.isascii() and _SURROGATE.search(qid):  # evaluated ids are written to JSON
        raise InputError(
            f"{where}: query id {qid!r} holds a lone UTF-16 surrogate (\\ud800-\\udfff), which no "
            "UTF-8 file can hold: fix the escape or the decoding that produced it"
        )


def _check_mapping(value: object, where: str) -> Mapping[str, object]:
    if type(value) is not dict and not isinstance(value, Mapping):  # dict: skip the ABC check
        raise InputError(
            f"{where} must be a mapping {{qid: {{docid: value}}}}, got {type(value).__name__}"
        )
    return value


MAX_GRADE: Final = 1_000_000
"""Largest absolute relevance grade accepted, by :func:`join` and the file readers alike (TREC
grades are small; a larger one is a typo, and ``2**grade`` must stay computable for
``ndcg_exp``)."""


def _is_number_type(kind: type) -> bool:
    """int, float and the numpy integer/float types; never bool (a flag is not a score)."""
    if kind is float or kind is int:
        return True
    return issubclass(kind, int | float | np.integer | np.floating) and not issubclass(
        kind, bool | np.bool_
    )


def _value_types(groups: Iterable[Mapping[str, object]]) -> set[type]:
    """The types of every value of every mapping (C-level iteration)."""
    return set(map(type, chain.from_iterable(d.values() for d in groups)))


def _not_a_number(value: object, what: str) -> str | None:
    """Why ``value`` is not a usable number, or ``None`` when it is one."""
    if isinstance(value, bool | np.bool_):
        return f"{what} {value!r} is not a number but a boolean; give the number itself"
    if isinstance(value, str):
        return (
            f"{what} {value!r} is not a number but a string; give the number itself (strings "
            "are not converted)"
        )
    if not _is_number_type(type(value)):
        return f"{what} {value!r} is not a number (a {type(value).__name__})"
    return None


def _key_types(groups: Iterable[Mapping[str, object]]) -> set[type]:
    """The types of every key of every mapping (C-level iteration)."""
    return set(map(type, chain.from_iterable(groups)))


def _locate_bad_docid(groups: Mapping[str, Mapping[str, object]], kind: str) -> InputError:
    """The error for the first document id that is not a string."""
    for qid, docs in groups.items():
        for docid in docs:
            if not isinstance(docid, str):
                return InputError(
                    f"{kind}: query {qid!r}: document id {docid!r} is a {type(docid).__name__}; "
                    "document ids must be strings (convert with str())"
                )
    return InputError(f"{kind}: a document id is not a string")  # pragma: no cover


def _locate_bad_value(
    groups: Iterable[tuple[str, Mapping[str, object]]], kind: str, what: str
) -> InputError:
    """Find the first value that is not a number, does not fit a float or is NaN."""
    for qid, docs in groups:
        for docid, value in docs.items():
            where = f"{kind}: query {qid!r}, document {docid!r}"
            reason = _not_a_number(value, what)
            if reason is not None:
                return InputError(f"{where}: {reason}")
            try:
                number = float(value)  # type: ignore[arg-type]
            except OverflowError:
                return InputError(
                    f"{where}: {what} {_short(value)} does not fit a float; give a smaller number"
                )
            if number != number:
                return InputError(
                    f"{where}: {what} is NaN; a NaN {what} has no meaning (a NaN score no "
                    "rank): drop the document or give it a number"
                )
    return InputError(f"{kind}: a {what} is not a finite number")  # pragma: no cover


def _as_float(value: object) -> float:
    """``float(value)``, or an infinity of its sign for an integer beyond the float range."""
    try:
        return float(value)  # type: ignore[arg-type]
    except OverflowError:
        return math.inf if value > 0 else -math.inf  # type: ignore[operator]


def _short(value: object) -> str:
    """``repr(value)`` cut to 40 characters (a huge int has no repr beyond 4,300 digits)."""
    try:
        text = repr(value)
    except ValueError:
        return "<an integer of more than 4,300 digits>"
    return text if len(text) <= 40 else text[:37] + "..."


def _qrels_arrays(
    qrels: Mapping[str, Mapping[str, object]], qids: list[str], relevance_level: int
) -> tuple[IntArray, IntArray, IntArray, IntArray, IntArray, IntArray]:
    """num_rel per query, the ideal ranking of positive grades (qidx, pos, grade), and every
    judgment flattened in qrels order (qidx, grade)."""
    judged = [qrels[q] for q in qids]
    lengths = np.fromiter((len(d) for d in judged), dtype=np.int64, count=len(judged))
    total = int(lengths.sum())
    if not all(map(_is_number_type, _value_types(judged))):
        raise _locate_bad_value(zip(qids, judged, strict=True), "qrels", "grade")
    try:
        raw = np.fromiter(
            chain.from_iterable(d.values() for d in judged), dtype=np.float64, count=total
        )
    except OverflowError:  # a Python int beyond the float range: out of range below
        raw = np.fromiter(
            map(_as_float, chain.from_iterable(d.values() for d in judged)),
            dtype=np.float64,
            count=total,
        )
    finite = np.isfinite(raw)
    safe = np.where(finite, raw, 0.0)
    bad_mask = ~finite | (safe != np.floor(safe)) | (np.abs(safe) > MAX_GRADE)
    if bad_mask.any():
        bad = int(np.flatnonzero(bad_mask)[0])
        row = int(np.searchsorted(np.cumsum(lengths), bad, side="right"))
        docid, value = list(judged[row].items())[bad - int(lengths[:row].sum())]
        where = f"qrels: query {qids[row]!r}, document {docid!r}: grade {_short(value)}"
        number = float(raw[bad])
        if isinstance(value, float | np.floating) and (
            not math.isfinite(number) or number != math.floor(number)
        ):
            raise InputError(
                f"{where} is not a whole number; relevance grades are integers (0 = not "
                "relevant, -1 = unjudged)"
            )
        raise InputError(
            f"{where} is out of range; grades must be integers between -{MAX_GRADE:,} and "
            f"{MAX_GRADE:,} (0 = not relevant, 1 or more = relevant)"
        )
    grades = raw.astype(np.int64)
    qidx = np.repeat(np.arange(len(qids), dtype=np.int64), lengths)
    num_rel = np.bincount(qidx[grades >= relevance_level], minlength=len(qids)).astype(np.int64)
    positive = grades > 0
    p_q, p_g = qidx[positive], grades[positive]
    top = int(p_g.max()) if p_g.size else 0
    if (top + 1) * max(len(qids), 1) < (1 << 62):
        order = np.argsort(p_q * (top + 1) + (top - p_g), kind="stable")
    else:  # pragma: no cover - grades beyond 2**40 are not relevance grades
        order = np.lexsort((-p_g, p_q))
    p_q, p_g = p_q[order], p_g[order]
    counts = np.bincount(p_q, minlength=len(qids))
    starts = np.cumsum(counts) - counts
    pos = np.arange(p_q.size, dtype=np.int64) - starts[p_q]
    return num_rel, p_q, pos, p_g, qidx, grades


def _segment_order(keys: FloatArray, starts: IntArray, lengths: IntArray) -> IntArray:
    """Permutation sorting ``keys`` ascending (stable) within each segment."""
    if keys.size and int(lengths.min()) == int(lengths.max()):  # one depth: no padding needed
        width = int(lengths[0])
        order = np.argsort(keys.reshape(-1, width), axis=1, kind="stable")
        order += starts[:, None]
        return order.reshape(-1)
    perm = np.arange(keys.size, dtype=np.int64)
    multi = np.flatnonzero(lengths > 1)
    if multi.size == 0:
        return perm
    widths = 1 << np.ceil(np.log2(lengths[multi])).astype(np.int64)
    for width in np.unique(widths):
        rows_all = multi[widths == width]
        step = max(1, _CHUNK_CELLS // int(width))
        cols = np.arange(int(width), dtype=np.int64)
        for begin in range(0, rows_all.size, step):
            rows = rows_all[begin : begin + step]
            valid = cols[None, :] < lengths[rows][:, None]
            idx = np.where(valid, starts[rows][:, None] + cols[None, :], 0)
            block = np.where(valid, keys[idx], np.inf)
            order = np.argsort(block, axis=1, kind="stable")
            ranked = np.take_along_axis(idx, order, axis=1)
            perm[idx[valid]] = ranked[valid]
    return perm


def _break_ties_by_docid(
    perm: IntArray,
    sorted_scores: FloatArray,
    qidx: IntArray,
    starts: IntArray,
    docs_of: list[Mapping[str, object]],
    qids: list[str],
) -> None:
    """Within runs of equal scores, order documents by id descending (in place on ``perm``)."""
    same = (sorted_scores[1:] == sorted_scores[:-1]) & (qidx[1:] == qidx[:-1])
    if not same.any():
        return
    tied = np.zeros(perm.size, dtype=bool)
    tied[:-1] |= same
    tied[1:] |= same
    positions = np.flatnonzero(tied)
    # a new group starts where an element is not tied to its predecessor
    group = np.cumsum(np.r_[True, ~same[positions[1:] - 1]])
    rows = qidx[positions]
    offsets = perm[positions] - starts[rows]
    keys_cache: dict[int, list[object]] = {}
    docids: list[object] = []
    for row, offset in zip(rows.tolist(), offsets.tolist(), strict=True):
        keys = keys_cache.get(row)
        if keys is None:
            keys = keys_cache[row] = list(docs_of[row])
        docids.append(keys[offset])
    for row, keys in keys_cache.items():
        for docid in keys:
            if not isinstance(docid, str):
                raise InputError(
                    f"run: query {qids[row]!r}: document id {docid!r} is a "
                    f"{type(docid).__name__}; document ids must be strings (convert with str())"
                )
    _, codes = np.unique(np.array(docids, dtype=str), return_inverse=True)
    order = np.lexsort((-codes.astype(np.int64), group))
    perm[positions] = perm[positions][order]


def _place_judged(
    qrels: Mapping[str, Mapping[str, object]],
    qids: list[str],
    docs_of: list[Mapping[str, object]],
    judged_q: IntArray,
    judged_grade: IntArray,
    perm: IntArray,
    sorted_scores: FloatArray,
    qidx: IntArray,
    starts: IntArray,
) -> IntArray:
    """Grades in ranked order, by finding each positively judged document in the ranking.

    Looking up the (few) judged documents in the run instead of every retrieved document in the
    qrels: a judged document's score is found in the run mapping, and its rank by binary search
    over (query, -score), which is sorted after ranking (complex numbers sort lexicographically).
    Only when several documents of the query share that score are their ids compared. Grades of
    0 or below earn nothing in any measure, so they stay at ``NONPOOL``.
    """
    ranked = np.full(sorted_scores.size, NONPOOL, dtype=np.int64)
    judged = [qrels[q] for q in qids]
    found = np.fromiter(
        chain.from_iterable(
            map(d.get, j, repeat(math.nan)) for d, j in zip(docs_of, judged, strict=True)
        ),
        dtype=np.float64,
        count=judged_grade.size,
    )
    chosen = np.flatnonzero((judged_grade > 0) & ~np.isnan(found))
    if chosen.size == 0:
        return ranked
    haystack = np.empty(sorted_scores.size, dtype=np.complex128)
    haystack.real = qidx
    haystack.imag = -sorted_scores
    needles = np.empty(chosen.size, dtype=np.complex128)
    needles.real = judged_q[chosen]
    needles.imag = -found[chosen]
    left = np.searchsorted(haystack, needles, side="left")
    right = np.searchsorted(haystack, needles, side="right")
    single = right - left == 1
    ranked[left[single]] = judged_grade[chosen[single]]
    tied = np.flatnonzero(~single)
    if tied.size:
        judged_starts = np.cumsum([len(j) for j in judged]) - [len(j) for j in judged]
        run_keys: dict[int, list[object]] = {}
        qrels_keys: dict[int, list[object]] = {}
        for t in tied.tolist():
            entry = int(chosen[t])
            row = int(judged_q[entry])
            if row not in run_keys:
                run_keys[row] = list(docs_of[row])
                qrels_keys[row] = list(judged[row])
            docid = qrels_keys[row][entry - int(judged_starts[row])]
            group = range(int(left[t]), int(right[t]))
            spots = [p for p in group if run_keys[row][perm[p] - starts[row]] == docid]
            if len(spots) != 1:
                raise InvariantError(
                    f"query {qids[row]!r}: document {docid!r} found {len(spots)} times among "
                    "its tied scores; please report this with the run"
                )
            ranked[spots[0]] = judged_grade[entry]
    return ranked


def join(
    qrels: Mapping[str, Mapping[str, object]],
    run: Mapping[str, Mapping[str, object]],
    *,
    relevance_level: int,
    tie_break: TieBreak,
    complete: bool,
    max_docs: int | None,
) -> tuple[RankedArrays, JoinInfo]:
    """Rank every evaluated query's documents and look up their grades.

    Raises
    ------
    InputError
        For non-mapping inputs, non-string query ids or qrels document ids (of a run's
        document ids, the first of each query is checked: every one would cost a third of the
        evaluation, their objects read one by one from all over memory; a run mixing id types
        within a query is not detected), query ids holding a lone UTF-16 surrogate, scores that are not numbers (strings and booleans included: nothing
        is converted) or are NaN, grades that are not whole numbers or lie beyond
        +-:data:`MAX_GRADE`, or when no query is in both the run and the qrels.
    """
    _check_mapping(qrels, "qrels")
    _check_mapping(run, "run")
    if tie_break not in TIE_BREAKS:
        raise InputError(f"tie_break={tie_break!r}; choose one of {', '.join(TIE_BREAKS)}")
    if not qrels:
        raise InputError("qrels are empty: no query has relevance judgments")
    if not run:
        raise InputError("the run is empty: it ranks no document for any query")
    for qid, docs in qrels.items():
        _check_qid(qid, "qrels")
        _check_mapping(docs, f"qrels[{qid!r}]")
    for qid, docs in run.items():
        _check_qid(qid, "run")
        _check_mapping(docs, f"run[{qid!r}]")
        if docs:  # a run's first document id of each query: see the Raises section
            first = next(iter(docs))
            if not isinstance(first, str):
                raise _locate_bad_docid({qid: docs}, "run")
    # every document id of the qrels, as the query ids: an id 1 never matches an id '1'
    # (C-level check; the run's ten times as many ids would cost a third of the evaluation)
    if not all(issubclass(kind_, str) for kind_ in _key_types(qrels.values())):
        raise _locate_bad_docid(qrels, "qrels")

    run_only = tuple(q for q in run if q not in qrels)
    qrels_only = tuple(q for q in qrels if q not in run)
    qids = [q for q in qrels if q in run or complete]
    if not qids:
        raise InputError(
            "no query is in both the run and the qrels (run has "
            f"{', '.join(map(repr, list(run)[:3]))}...; qrels have "
            f"{', '.join(map(repr, list(qrels)[:3]))}...): check that both use the same query ids"
        )

    empty: Mapping[str, object] = {}
    docs_of = [run.get(q, empty) for q in qids]
    lengths = np.fromiter((len(d) for d in docs_of), dtype=np.int64, count=len(docs_of))
    total = int(lengths.sum())
    if not all(map(_is_number_type, _value_types(docs_of))):
        raise _locate_bad_value(zip(qids, docs_of, strict=True), "run", "score")
    try:
        scores = np.fromiter(
            chain.from_iterable(d.values() for d in docs_of), dtype=np.float64, count=total
        )
    except OverflowError:  # a Python int beyond the float range
        raise _locate_bad_value(zip(qids, docs_of, strict=True), "run", "score") from None
    if np.isnan(scores).any():
        raise _locate_bad_value(zip(qids, docs_of, strict=True), "run", "score")
    num_rel, ideal_q, ideal_pos, ideal_grade, judged_q, judged_grade = _qrels_arrays(
        qrels, qids, relevance_level
    )

    starts = np.cumsum(lengths) - lengths
    qidx = np.repeat(np.arange(len(qids), dtype=np.int64), lengths)
    if tie_break == "rank":
        grades = np.fromiter(
            chain.from_iterable(
                map(qrels[q].get, d, repeat(NONPOOL)) for q, d in zip(qids, docs_of, strict=True)
            ),
            dtype=np.int64,  # the grades were checked to be whole numbers above
            count=total,
        )
        ranked_grades = grades
    else:
        perm = _segment_order(-scores, starts, lengths)
        sorted_scores = scores[perm]  # unchanged by tie-breaking, which only swaps equal scores
        if tie_break == "trec_eval":
            _break_ties_by_docid(perm, sorted_scores, qidx, starts, docs_of, qids)
        ranked_grades = _place_judged(
            qrels, qids, docs_of, judged_q, judged_grade, perm, sorted_scores, qidx, starts
        )
    pos = np.arange(total, dtype=np.int64) - starts[qidx]
    if max_docs is not None and int(lengths.max(initial=0)) > max_docs:
        keep = pos < max_docs
        qidx, pos, ranked_grades = qidx[keep], pos[keep], ranked_grades[keep]

    arrays = RankedArrays(
        n_queries=len(qids),
        qidx=qidx,
        pos=pos,
        grade=ranked_grades,
        num_rel=num_rel,
        ideal_qidx=ideal_q,
        ideal_pos=ideal_pos,
        ideal_grade=ideal_grade,
    )
    return arrays, JoinInfo(tuple(qids), run_only, qrels_only)
