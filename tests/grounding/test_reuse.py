"""Reuse without hidden memos (issues 9 and 14): the caller keeps the prepared objects.

A process-wide memo thrashes when a file has more distinct contexts than it holds, and pins
memory; the checks keep none. ``prepare_context`` and ``compile_anchors`` return immutable
objects the caller can keep and pass back.
"""

from __future__ import annotations

import contextlib
import dataclasses
import inspect
from collections.abc import Iterator

import pytest

import hybridjudge.grounding._anchors as anchors_module
import hybridjudge.grounding._check as check_module
import hybridjudge.grounding._derive as derive_module
import hybridjudge.grounding._fast as grounding_fast
import hybridjudge.grounding._languages as languages_module
import hybridjudge.grounding._normalize as normalize_module
import hybridjudge.grounding._quantities as quantities_module
from hybridjudge.grounding import (
    CompiledAnchors,
    GroundingChecker,
    check_grounding,
    compile_anchors,
    prepare_context,
)
from tests.support.tatqa import load_tatqa

MODULES = [
    anchors_module,
    check_module,
    derive_module,
    languages_module,
    normalize_module,
    quantities_module,
]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_no_process_wide_memo(module: object) -> None:
    source = inspect.getsource(module)  # type: ignore[arg-type]
    assert "lru_cache" not in source
    assert "_PARSE_CACHE" not in source


def test_compiled_anchors_are_immutable_and_reusable() -> None:
    compiled = compile_anchors(["30 days", {"value": "restocking fee", "aliases": ["fee"]}])
    assert isinstance(compiled, CompiledAnchors)
    assert [a.value for a in compiled.anchors] == ["30 days", "restocking fee"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        compiled.items = ()  # type: ignore[misc]
    context = prepare_context("Refunds within thirty days. A restocking fee applies.")
    first = GroundingChecker(context, anchors=compiled)
    second = GroundingChecker(context, anchors=compiled)
    assert first.context is second.context is context
    assert first.check("You have 30 days; a fee applies.").grounded
    assert check_grounding("You have 15 days.", context, anchors=compiled).kinds == {
        "missing_anchor",
        "ungrounded_number",
    }


def test_bad_anchors_are_named_once_compiled() -> None:
    from hybridjudge.grounding import GroundingInputError, GroundingTypeError

    with pytest.raises(GroundingInputError, match=r"anchors\[1\] is blank"):
        compile_anchors(["ok", "  "])
    with pytest.raises(GroundingTypeError, match="wrap a single anchor in a list"):
        compile_anchors("30 days")


def test_one_table_of_scale_words() -> None:
    # issue 14: _MULTIPLIERS and _SCALES (same content) are one table
    assert not hasattr(quantities_module, "_MULTIPLIERS")
    scales = quantities_module._SCALES
    assert scales["million"] == scales["m"] == scales["mn"] == 10**6
    assert scales["billion"] == scales["bn"] == 10**9
    assert scales["万"] == 10**4


@contextlib.contextmanager
def _counting_scans() -> Iterator[tuple[pytest.MonkeyPatch, list[str]]]:
    """The grounding checks' ``scan`` patched to record each text it reads (a passage is
    scanned after its layout is read: a NormalizedText, recorded by its original text)."""
    scanned: list[str] = []
    original = quantities_module.scan

    def counting_scan(t: str | normalize_module.NormalizedText) -> quantities_module.Scan:
        scanned.append(t if isinstance(t, str) else t.original)
        return original(t)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(check_module, "scan", counting_scan)
        yield mp, scanned


def test_a_context_is_parsed_once_and_only_when_needed() -> None:
    """``prepare_context`` parses at once; a context built directly (as ``check_grounding``
    does) is parsed on the first answer with a number, and the figures derivations use only on
    the first number not found as written; the same reports either way. A number found as
    written parses only the lines around it (``grounding/_fast.py``), not the passage."""
    text = "Revenue | 2019 | 2018\nProducts | 125 | 100\nServices | 30 | 20\nOther | 7 | 5"
    with _counting_scans() as (mp, scanned):
        mp.setattr(grounding_fast, "MIN_CHARS", 0)  # a short context takes the fast path too
        lazy = check_module.GroundingContext(text)
        assert not scanned  # nothing parsed yet
        assert check_grounding("Services grew.", lazy).grounded
        assert text not in scanned  # no number in the answer: the context was never parsed
        assert lazy._figures is None
        assert check_grounding("Products were 125 in 2019.", lazy).grounded
        assert text not in scanned  # found as written: the lines around "125" and "2019" only
        assert lazy._index is None
        assert lazy._figures is None  # no derivation operands needed
        derived = check_grounding("Products grew by 25.", lazy)
        assert derived.grounded
        assert derived.quantities[0].source == "derived"
        assert lazy._figures is not None
        assert scanned.count(text) == 1  # parsed once for all three checks
        eager = prepare_context(text)
        assert scanned.count(text) == 2  # parsed at once
        assert eager._figures is not None
    assert check_grounding("Products grew by 25.", eager) == derived


def test_a_prepared_case_reads_its_question_once_before_any_answer() -> None:
    """On a prepared context, the checker reads the question's figures in its constructor (as
    it reads the question's hint there): a check scans the answer only, and a figure found in
    the question alone is traced to it. On a context built directly (``check_grounding``), the
    question is read only once a figure is not in the context."""
    text = "Revenue | 2019 | 2018\nProducts | 125 | 100\nServices | 30 | 20"
    question = "Did products reach 140 units in 2019?"
    with _counting_scans() as (_mp, scanned):
        checker = GroundingChecker(prepare_context(text), question=question)
        assert scanned.count(question) == 1  # read with the case, before any answer
        scanned.clear()
        report = checker.check("No: 125 units, short of the 140 units asked about.")
        assert scanned == ["No: 125 units, short of the 140 units asked about."]
        assert [t.source for t in report.quantities] == ["context", "question"]
        scanned.clear()
        lazy = GroundingChecker(check_module.GroundingContext(text), question=question)
        assert question not in scanned
        assert lazy.check("Products were 125.").grounded
        assert question not in scanned  # every figure in the context: the question not read
        assert lazy.check("Not 140 units.").grounded
        assert scanned.count(question) == 1


def test_a_checker_reused_over_many_answers_reports_as_fresh_calls(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A prepared checker remembers the lookups and the derivations of the quantities it has
    seen; over TAT-QA's answers (gold and perturbed, with their question, every 10th context),
    checked in order and again in reverse, every report equals a fresh ``check_grounding``."""
    tq = load_tatqa()
    docs = tq.build_documents(tq.load_documents())[::10]
    compared = 0
    # the full path on both sides: a fresh call may find a figure as written from the lines
    # around it (grounding/_fast.py), whose trace may name another occurrence of the same value
    # than the full index (tests/grounding/test_fastpath.py compares the two paths)
    monkeypatch.setattr(grounding_fast, "ENABLED", False)
    for doc in docs:
        by_question: dict[str, list[str]] = {}
        for item in doc.items:
            by_question.setdefault(item.question, []).append(item.answer)
        for question, answers in by_question.items():
            checker = GroundingChecker(doc.passages, question=question)
            fresh = {a: check_grounding(a, doc.passages, question=question) for a in answers}
            for answer in [*answers, *reversed(answers)]:
                assert checker.check(answer) == fresh[answer], (question, answer)
                compared += 1
    assert compared > 500  # 28 contexts, each question with its gold and perturbed answers
