"""Readers for qrels, runs and case files, and the ``module:function`` retriever hook.

Formats (chosen by file suffix: ``.json``, ``.jsonl``, anything else is TREC text):

qrels
    TREC: ``qid iter docid grade`` per line (whitespace separated; blank lines and lines
    starting with ``#`` skipped). JSON: ``{qid: {docid: grade}}``. JSONL: one judgment per
    line, ``{"qid": ..., "docid": ..., "relevance": grade}``.
run
    TREC: ``qid Q0 docid rank score tag`` per line (trec_eval ignores fields after the sixth,
    so do we). Within a query the documents are kept in rank-column order, which is the order
    ``tie_break="rank"`` uses; trec_eval's default ranking ignores the rank column. JSON:
    ``{qid: {docid: score}}`` or ``{qid: [docid, ...]}`` (a ranked list, best first). JSONL:
    ``{"qid": ..., "docs": ...}`` per line, where ``docs`` is a mapping ``{docid: score}``, a
    ranked list of ids, or a ranked list of objects with an id (``"docid"``, ``"id"`` or
    ``"path"``) and optionally a ``"score"``.
cases (``eval_cases.json``, the seed articles' case file)
    A JSON array of cases, ``{"cases": [...]}``, or JSONL with one case per line. A case has an
    ``id`` (optional: ``case-<n>``, 1-based, when absent), a ``question``, and its expected
    documents as exactly one of ``expected_ids``, ``expected_paths`` or ``expected_docs`` (ids
    or paths, grade 1 each) or ``relevance`` (``{docid: grade}``). Other fields are ignored.

A ranked list without scores becomes scores ``n, n-1, ..., 1`` (strictly decreasing), so every
tie-breaking policy keeps the given order. Duplicate documents within one query are an error,
as in trec_eval (``form_res_rels.c``: "duplicate docs"), in every format: a JSON or JSONL object
that lists a key twice (``{"d1": 0.9, "d1": 0.1}``, which :func:`json.loads` would silently read
as its last value) is refused, naming the file, the line (JSONL), the query and the document.
Grades are integers within +-:data:`MAX_GRADE`, as :func:`evaluate` requires.
"""

from __future__ import annotations

import importlib
import json
import math
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from hybridjudge._errors import CaseFileError, InputError
from hybridjudge._jsonl import check_value, iter_json_lines
from hybridjudge.metrics.retrieval._arrays import MAX_GRADE

__all__ = [
    "RetrievalCase",
    "cases_to_qrels",
    "load_retriever",
    "ranking_to_scores",
    "read_cases",
    "read_qrels",
    "read_run",
    "run_retriever",
]

_ID_KEYS = ("docid", "id", "path")
_EXPECTED_KEYS = ("expected_ids", "expected_paths", "expected_docs", "relevance")


class RetrievalCase(BaseModel):
    """One question of a case file and the documents a good retriever returns for it."""

    model_config = ConfigDict(frozen=True)

    id: str = Field(min_length=1)
    """The case id (the query id in results)."""
    question: str = Field(min_length=1)
    """The question passed to the retriever."""
    relevance: dict[str, int]
    """Expected document id or path -> grade (1 for plain expected lists)."""


def _suffix(path: Path) -> str:
    return path.suffix.lower()


def _read_text(path: str | Path) -> tuple[Path, str]:
    file = Path(path)
    try:
        # utf-8-sig: a byte-order mark would otherwise stick to the first query id
        return file, file.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise InputError(f"{file}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{file}: cannot be read as UTF-8 text ({exc})") from None


class _RepeatedKeys:
    """``object_pairs_hook`` that builds dicts as :func:`json.loads` does and remembers every
    object that lists a key twice (Python keeps the last value silently)."""

    def __init__(self) -> None:
        self.found: list[tuple[dict[str, Any], str]] = []

    def __call__(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        obj = dict(pairs)
        if len(obj) != len(pairs):
            seen: set[str] = set()
            for key, _ in pairs:
                if key in seen:
                    self.found.append((obj, key))
                    break
                seen.add(key)
        return obj


def _path_to(root: Any, target: object) -> list[str | int]:
    """The keys and indices leading from ``root`` to the object ``target`` (by identity)."""
    stack: list[tuple[Any, list[str | int]]] = [(root, [])]
    while stack:
        node, trail = stack.pop()
        if node is target:
            return trail
        if isinstance(node, dict):
            stack.extend((child, [*trail, key]) for key, child in node.items())
        elif isinstance(node, list):
            stack.extend((child, [*trail, index]) for index, child in enumerate(node))
    return []  # pragma: no cover - the target was built while parsing root


Describe = Callable[[Any, list[str | int], str], str]
"""Turns (the parsed value, where in it the repeating object is, the repeated key) into an
error message."""


def _generic_repeat(root: Any, trail: list[str | int], key: str) -> str:
    at = " at " + "".join(f"[{part!r}]" for part in trail) if trail else ""
    return (
        f"a JSON object{at} lists the key {key!r} twice (a JSON reader would keep the last value "
        "silently); keep one"
    )


def _repeat_in_mapping(kind: str) -> Describe:
    """Messages for ``{qid: {docid: value}}`` files: a query or a document listed twice."""

    def describe(root: Any, trail: list[str | int], key: str) -> str:
        if not trail:
            return f"query {key!r} is listed twice; give each query one object"
        if len(trail) == 1:
            return (
                f"query {trail[0]!r}: document {key!r} is listed twice; a document listed "
                f"twice for one query is an error, as in trec_eval: keep one {kind}"
            )
        return _generic_repeat(root, trail, key)

    return describe


def _parse_json(text: str) -> tuple[Any, _RepeatedKeys]:
    hook = _RepeatedKeys()
    return json.loads(text, object_pairs_hook=hook), hook


def _check_repeats(
    data: Any,
    hook: _RepeatedKeys,
    describe: Describe,
    *,
    path: Path,
    line: int | None,
) -> None:
    if hook.found:
        obj, key = hook.found[0]
        raise CaseFileError(describe(data, _path_to(data, obj), key), path=str(path), line=line)


def _load_json(path: Path, text: str, describe: Describe = _generic_repeat) -> Any:
    """Parse a whole JSON file; a key listed twice in one object, a string holding a lone UTF-16
    surrogate or nesting past the JSONL reader's depth is a :class:`CaseFileError`
    (``describe`` words a repeated key for the file's layout)."""
    try:
        data, hook = _parse_json(text)
    except json.JSONDecodeError as exc:
        raise CaseFileError(f"invalid JSON: {exc.msg}", path=str(path), line=exc.lineno) from None
    except RecursionError:
        raise CaseFileError("invalid JSON: nested too deeply to read", path=str(path)) from None
    except ValueError as exc:  # e.g. an integer longer than Python reads (4,300 digits)
        raise CaseFileError(f"invalid JSON: {exc}", path=str(path)) from None
    found = check_value(data)  # a lone surrogate escape, as the JSONL reader refuses one
    if found is not None:
        raise CaseFileError(f"invalid JSON: {found[0]}", path=str(path))
    _check_repeats(data, hook, describe, path=path, line=None)
    return data


def _jsonl(
    path: Path, text: str, describe: Describe = _generic_repeat
) -> Iterator[tuple[int, dict[str, Any]]]:
    # the one JSONL reader (hybridjudge._jsonl): line numbers, hostile lines as typed errors;
    # NaN/Infinity stay accepted here, as scores (they rank as the extremes, like TREC's inf).
    # Objects are built by a hook that sees a key listed twice (json.loads would keep the
    # last value silently; a document listed twice is an error).
    hook = _RepeatedKeys()
    lines = text.split("\n")
    for item in iter_json_lines(lines, path=str(path), allow_nan=True, object_pairs_hook=hook):
        if item.error is not None:
            raise item.error
        if not isinstance(item.value, dict):
            raise CaseFileError("each line must be a JSON object", path=str(path), line=item.line)
        _check_repeats(item.value, hook, describe, path=path, line=item.line)
        yield item.line, item.value


def _repeat_in_run_line(root: Any, trail: list[str | int], key: str) -> str:
    """Messages for a JSONL run line: a document listed twice in its ``docs`` mapping."""
    if trail == ["docs"]:
        qid = root.get("qid", root.get("id"))
        return (
            f"query {qid!r}: document {key!r} is listed twice in docs; a document listed twice "
            "for one query is an error, as in trec_eval: keep one score"
        )
    return _generic_repeat(root, trail, key)


def _trec_lines(text: str) -> Iterator[tuple[int, list[str]]]:
    for number, line in enumerate(text.splitlines(), start=1):
        fields = line.split()
        if fields and not fields[0].startswith("#"):
            yield number, fields


def _short(value: Any) -> str:
    """``repr(value)`` cut to 40 characters (a huge int has no repr beyond 4,300 digits)."""
    try:
        text = repr(value)
    except ValueError:
        return f"<an integer of about {value.bit_length() * 0.30103:.0f} digits>"
    return text if len(text) <= 40 else text[:37] + "..."


def _grade(value: Any, *, path: Path, line: int | None, qid: str, docid: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise CaseFileError(
            f"query {qid!r}, document {docid!r}: grade {value!r} is not an integer",
            path=str(path),
            line=line,
        )
    shown = _short(value)
    try:
        number = float(value)
    except (ValueError, OverflowError):
        number = math.inf if isinstance(value, int) else math.nan
    if isinstance(value, int) and not isinstance(value, bool):
        too_big = abs(value) > MAX_GRADE
    else:
        too_big = math.isinf(number) or (math.isfinite(number) and abs(number) > MAX_GRADE)
    if too_big:
        raise CaseFileError(
            f"query {qid!r}, document {docid!r}: grade {shown} is out of range "
            f"(grades must be integers between -{MAX_GRADE:,} and {MAX_GRADE:,}; "
            "0 = not relevant, 1 or more = relevant)",
            path=str(path),
            line=line,
        )
    if not math.isfinite(number) or number != int(number):
        raise CaseFileError(
            f"query {qid!r}, document {docid!r}: grade {shown} is not an integer "
            "(0 = not relevant, 1 or more = relevant)",
            path=str(path),
            line=line,
        )
    return int(value) if isinstance(value, int) else int(number)


def _score(value: Any, *, path: Path | None, line: int | None, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise CaseFileError(f"{where}: score {value!r} is not a number", path=_p(path), line=line)
    try:
        number = float(value)
    except (ValueError, OverflowError):
        shown = _short(value)
        raise CaseFileError(
            f"{where}: score {shown} is not a number that fits a float",
            path=_p(path),
            line=line,
        ) from None
    if math.isnan(number):
        raise CaseFileError(
            f"{where}: score is NaN; a NaN has no rank, give the document a number or drop it",
            path=_p(path),
            line=line,
        )
    return number


def _p(path: Path | None) -> str | None:
    return None if path is None else str(path)


def read_qrels(path: str | Path) -> dict[str, dict[str, int]]:
    """Read qrels from a TREC, JSON or JSONL file (see the module docstring).

    Raises
    ------
    CaseFileError
        Malformed lines (named by file and line), non-integer grades or grades beyond
        +-1,000,000, a document judged twice for one query (also within one JSON object), or a
        query listed twice in a JSON file.
    """
    file, text = _read_text(path)
    qrels: dict[str, dict[str, int]] = {}
    suffix = _suffix(file)
    if suffix == ".json":
        data = _load_json(file, text, _repeat_in_mapping("judgment"))
        if not isinstance(data, dict):
            raise CaseFileError("expected an object {qid: {docid: grade}}", path=str(file))
        for qid, docs in data.items():
            if not isinstance(docs, dict):
                raise CaseFileError(
                    f"query {qid!r}: expected an object {{docid: grade}}", path=str(file)
                )
            qrels[qid] = {
                str(d): _grade(g, path=file, line=None, qid=qid, docid=str(d))
                for d, g in docs.items()
            }
        return qrels
    if suffix == ".jsonl":
        for number, record in _jsonl(file, text):
            qid, docid = record.get("qid"), record.get("docid")
            if not isinstance(qid, str) or not isinstance(docid, str) or "relevance" not in record:
                raise CaseFileError(
                    'each line needs "qid" (string), "docid" (string) and "relevance" (integer)',
                    path=str(file),
                    line=number,
                )
            _add_judgment(qrels, qid, docid, record["relevance"], file, number)
        return qrels
    for number, fields in _trec_lines(text):
        if len(fields) != 4:
            raise CaseFileError(
                f"expected 4 fields 'qid iter docid grade', found {len(fields)}",
                path=str(file),
                line=number,
            )
        _add_judgment(qrels, fields[0], fields[2], fields[3], file, number)
    return qrels


def _add_judgment(
    qrels: dict[str, dict[str, int]], qid: str, docid: str, grade: Any, file: Path, number: int
) -> None:
    docs = qrels.setdefault(qid, {})
    if docid in docs:
        raise CaseFileError(
            f"query {qid!r}: document {docid!r} is judged twice; keep one judgment",
            path=str(file),
            line=number,
        )
    docs[docid] = _grade(grade, path=file, line=number, qid=qid, docid=docid)


def read_run(path: str | Path) -> dict[str, dict[str, float]]:
    """Read a run from a TREC, JSON or JSONL file (see the module docstring).

    Raises
    ------
    CaseFileError
        Malformed lines, non-numeric or NaN scores, a non-integer rank column, a document
        retrieved twice for one query (also within one JSON object), or a query listed twice.
    """
    file, text = _read_text(path)
    suffix = _suffix(file)
    run: dict[str, dict[str, float]] = {}
    if suffix == ".json":
        data = _load_json(file, text, _repeat_in_mapping("score"))
        if not isinstance(data, dict):
            raise CaseFileError(
                "expected an object {qid: {docid: score}} or {qid: [docid, ...]}", path=str(file)
            )
        for qid, docs in data.items():
            run[qid] = ranking_to_scores(docs, where=f"query {qid!r}", path=file, line=None)
        return run
    if suffix == ".jsonl":
        for number, record in _jsonl(file, text, _repeat_in_run_line):
            qid = record.get("qid", record.get("id"))
            if not isinstance(qid, str) or "docs" not in record:
                raise CaseFileError(
                    'each line needs "qid" (a string) and "docs"', path=str(file), line=number
                )
            if qid in run:
                raise CaseFileError(
                    f"query {qid!r} appears on two lines; give each query one line",
                    path=str(file),
                    line=number,
                )
            run[qid] = ranking_to_scores(
                record["docs"], where=f"query {qid!r}", path=file, line=number
            )
        return run
    ranked: dict[str, list[tuple[int, str, float]]] = {}
    seen: dict[tuple[str, str], int] = {}
    for number, fields in _trec_lines(text):
        if len(fields) < 6:
            raise CaseFileError(
                f"expected 6 fields 'qid Q0 docid rank score tag', found {len(fields)}",
                path=str(file),
                line=number,
            )
        qid, docid = fields[0], fields[2]
        where = f"query {qid!r}, document {docid!r}"
        if (qid, docid) in seen:
            raise CaseFileError(
                f"{where} is retrieved twice (first on line {seen[qid, docid]}); trec_eval "
                "rejects duplicate documents: keep one",
                path=str(file),
                line=number,
            )
        seen[qid, docid] = number
        try:
            rank = int(fields[3])
        except ValueError:
            raise CaseFileError(
                f"{where}: rank {fields[3]!r} is not an integer", path=str(file), line=number
            ) from None
        score = _score(fields[4], path=file, line=number, where=where)
        ranked.setdefault(qid, []).append((rank, docid, score))
    for qid, entries in ranked.items():
        entries.sort(key=lambda entry: entry[0])  # stable: equal ranks keep file order
        run[qid] = {docid: score for _, docid, score in entries}
    return run


def ranking_to_scores(
    docs: Any, *, where: str, path: Path | None = None, line: int | None = None
) -> dict[str, float]:
    """Normalise one query's ranking to ``{docid: score}`` (insertion order = given order).

    Accepts a mapping ``{docid: score}``; a ranked list of ids; a ranked list of
    ``(docid, score)`` pairs; or a ranked list of objects with an id under ``"docid"``, ``"id"``
    or ``"path"`` and optionally ``"score"`` (all or none). Lists without scores get ``n .. 1``.

    Raises
    ------
    CaseFileError
        (an :class:`InputError`, naming ``path`` and ``line`` when given) for any other shape, a missing id,
        scores on some items only, non-numeric or NaN scores, or a duplicate document.
    """
    if isinstance(docs, Mapping):
        scores: dict[str, float] = {}
        for key, raw in docs.items():
            if not isinstance(key, str):
                raise CaseFileError(
                    f"{where}: document id {key!r} is not a string", path=_p(path), line=line
                )
            scores[key] = _score(raw, path=path, line=line, where=f"{where}, document {key!r}")
        return scores
    if not isinstance(docs, list | tuple):
        raise CaseFileError(
            f"{where}: expected a ranked list of document ids or a mapping {{docid: score}}, "
            f"got {type(docs).__name__}",
            path=_p(path),
            line=line,
        )
    pairs: list[tuple[str, float | None]] = []
    for item in docs:
        docid: Any
        value: Any = None
        if isinstance(item, str):
            docid = item
        elif isinstance(item, list | tuple) and len(item) == 2:
            docid, value = item
        elif isinstance(item, Mapping):
            docid = next((item[key] for key in _ID_KEYS if key in item), None)
            value = item.get("score")
        else:
            docid = None
        if not isinstance(docid, str) or not docid:
            raise CaseFileError(
                f"{where}: ranked item {item!r} has no document id; give a string, a "
                '(docid, score) pair, or an object with "docid", "id" or "path"',
                path=_p(path),
                line=line,
            )
        pairs.append((docid, value))
    with_score = sum(value is not None for _, value in pairs)
    if 0 < with_score < len(pairs):
        raise CaseFileError(
            f"{where}: {with_score} of {len(pairs)} ranked items have a score; give a score to "
            "every item or to none (the list order is then the ranking)",
            path=_p(path),
            line=line,
        )
    result: dict[str, float] = {}
    for position, (docid, value) in enumerate(pairs):
        if docid in result:
            raise CaseFileError(
                f"{where}: document {docid!r} appears twice in the ranking; keep one",
                path=_p(path),
                line=line,
            )
        result[docid] = (
            float(len(pairs) - position)
            if value is None
            else _score(value, path=path, line=line, where=f"{where}, document {docid!r}")
        )
    return result


def read_cases(path: str | Path) -> list[RetrievalCase]:
    """Read a case file (``eval_cases.json`` style; see the module docstring).

    Raises
    ------
    CaseFileError
        Invalid JSON, a case without a question, without exactly one expected-documents
        field, with non-integer grades, or two cases with the same id.
    """
    file, text = _read_text(path)
    records: list[tuple[int | None, Any]]
    if _suffix(file) == ".jsonl":
        records = [(number, record) for number, record in _jsonl(file, text)]
    else:
        data = _load_json(file, text)
        if isinstance(data, dict) and isinstance(data.get("cases"), list):
            data = data["cases"]
        if not isinstance(data, list):
            raise CaseFileError(
                'expected a JSON array of cases or an object {"cases": [...]}', path=str(file)
            )
        records = [(None, record) for record in data]
    if not records:
        raise CaseFileError("the case file has no case", path=str(file))
    cases: list[RetrievalCase] = []
    seen: set[str] = set()
    for index, (line, record) in enumerate(records, start=1):
        cases.append(_case(record, index=index, file=file, line=line))
        if cases[-1].id in seen:
            raise CaseFileError(
                "two cases share this id; ids must be unique",
                path=str(file),
                line=line,
                case_id=cases[-1].id,
            )
        seen.add(cases[-1].id)
    return cases


def _case(record: Any, *, index: int, file: Path, line: int | None) -> RetrievalCase:
    where: dict[str, Any] = {"path": str(file), "line": line}
    if not isinstance(record, dict):
        raise CaseFileError(f"case {index} is not a JSON object", **where)
    case_id = record.get("id", f"case-{index}")
    if not isinstance(case_id, str | int) or isinstance(case_id, bool) or not str(case_id):
        raise CaseFileError(f"case {index}: id must be a non-empty string", **where, field="id")
    case_id = str(case_id)
    question = record.get("question")
    if not isinstance(question, str) or not question.strip():
        raise CaseFileError(
            "needs a non-empty string 'question'", **where, case_id=case_id, field="question"
        )
    present = [key for key in _EXPECTED_KEYS if key in record]
    if len(present) != 1:
        raise CaseFileError(
            f"needs exactly one of {', '.join(_EXPECTED_KEYS)}; found "
            f"{', '.join(present) if present else 'none'}",
            **where,
            case_id=case_id,
        )
    key = present[0]
    expected = record[key]
    relevance: dict[str, int] = {}
    if key == "relevance":
        if not isinstance(expected, dict):
            raise CaseFileError(
                "must map document ids to integer grades", **where, case_id=case_id, field=key
            )
        for docid, grade in expected.items():
            relevance[docid] = _grade(grade, path=file, line=line, qid=case_id, docid=docid)
    else:
        if not isinstance(expected, list) or not all(isinstance(d, str) and d for d in expected):
            raise CaseFileError(
                "must be a list of document ids or paths (strings)",
                **where,
                case_id=case_id,
                field=key,
            )
        relevance = dict.fromkeys(expected, 1)
    return RetrievalCase(id=case_id, question=question, relevance=relevance)


def cases_to_qrels(cases: list[RetrievalCase]) -> dict[str, dict[str, int]]:
    """The qrels ``{case id: {docid: grade}}`` of a list of cases."""
    return {case.id: dict(case.relevance) for case in cases}


def load_retriever(spec: str) -> Callable[[str], Any]:
    """Import ``module:function`` (the current directory is searched first).

    Raises
    ------
    InputError
        When ``spec`` is not ``module:function``, the module cannot be imported, or the
        attribute is missing or not callable.
    """
    module_name, sep, attribute = spec.partition(":")
    if not sep or not module_name or not attribute:
        raise InputError(
            f"retriever {spec!r}: expected 'module:function', e.g. 'myapp.search:retrieve'"
        )
    cwd = str(Path.cwd())
    added = cwd not in sys.path
    if added:
        sys.path.insert(0, cwd)
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise InputError(f"retriever {spec!r}: cannot import {module_name!r} ({exc})") from None
    finally:
        if added:
            sys.path.remove(cwd)
    function = module
    for part in attribute.split("."):
        function = getattr(function, part, None)  # type: ignore[assignment]
        if function is None:
            raise InputError(f"retriever {spec!r}: {module_name!r} has no {attribute!r}")
    if not callable(function):
        raise InputError(f"retriever {spec!r}: {attribute!r} is not callable")
    return function


def run_retriever(
    retriever: Callable[[str], Any], cases: list[RetrievalCase]
) -> dict[str, dict[str, float]]:
    """Call ``retriever(question)`` for every case and collect the run ``{case id: scores}``.

    The retriever returns a ranked list (ids, ``(docid, score)`` pairs, or objects with an id)
    or a mapping ``{docid: score}``; see :func:`ranking_to_scores`.

    Raises
    ------
    InputError
        When the retriever raises, or a returned ranking has an unusable shape (the message
        names the case).
    """
    run: dict[str, dict[str, float]] = {}
    for case in cases:
        try:
            ranking = retriever(case.question)
        except Exception as exc:  # the user's code: report which case broke it
            raise InputError(
                f"the retriever raised {type(exc).__name__} on case {case.id!r} "
                f"({case.question!r}): {exc}"
            ) from exc
        run[case.id] = ranking_to_scores(ranking, where=f"case {case.id!r}")
    return run
