"""No behaviour change: a small study gives the observations the pre-refactor code gave.

``golden/golden.json`` was written by ``golden/make_golden.py`` running the code of commit
d8938e9 (before the one judging loop ``judge_many``, ``check_many`` and ``load_plan``) on the
hand-written corpus ``golden/toy`` with the scripted judge ``golden/scripted_judge.py`` on the
real OpenAI-compatible test server: deterministic checks and both judges, separate mode with two
repetitions and shared mode with one. Every judge observation's score, flag, findings, unscored
reason and detail must be the same today (timings and usage depend on scheduling and are left
out). The deterministic observations are compared with :func:`check_grounding` called on each
output directly instead, so that deliberate changes to the grounding rules do not show up here,
while any change made by the study's batch loop (one prepared checker per case) does.

The corpus covers the judges' abstention handling: two correct abstentions (English, Chinese)
recognised without a model call, a hedged abstention that still asserts a price, and an answer
whose abstaining sentence is dropped as a claim while its other claim is judged.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import pytest

from hybridjudge.corpus import Corpus, load_corpus
from hybridjudge.grounding import check_grounding
from hybridjudge.study import load_plan, run_study
from tests.study.golden.make_golden import HERE, main


@pytest.fixture(scope="module")
def golden() -> dict[str, list[dict[str, Any]]]:
    data: dict[str, list[dict[str, Any]]] = json.loads(
        (HERE / "golden.json").read_text(encoding="utf-8")
    )
    return data


def test_study_observations_are_those_of_the_pre_refactor_code(
    golden: dict[str, list[dict[str, Any]]],
    tmp_path: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    written = tmp_path / "golden.json"
    monkeypatch.setattr("tests.study.golden.make_golden.HERE", tmp_path)
    (tmp_path / "toy").symlink_to(HERE / "toy")
    main()
    today = json.loads(written.read_text(encoding="utf-8"))
    assert set(today) == set(golden)
    for mode, rows in golden.items():
        judged = [r for r in rows if r["scorer"] != "deterministic"]
        now = [r for r in today[mode] if r["scorer"] != "deterministic"]
        assert len(now) == len(judged), mode
        for before, after in zip(judged, now, strict=True):
            assert after == before, (mode, before["output_id"], before["scorer"])
        deterministic = [r for r in today[mode] if r["scorer"] == "deterministic"]
        assert len(deterministic) == len(rows) - len(judged)
        for row in deterministic:
            assert _direct(CORPUS_DIR, row["output_id"]) == (row["flagged"], row["issues"])


CORPUS_DIR = HERE / "toy"


def _direct(corpus_dir: Path, output_id: str) -> tuple[bool, list[str]]:
    """The deterministic verdict of one output from :func:`check_grounding` on its own."""
    corpus = _corpus(corpus_dir)
    out = next(o for o in corpus.outputs if o.id == output_id)
    case = corpus.cases[out.case_id]
    report = check_grounding(
        out.text,
        list(case.context),
        question=case.question,
        anchors=case.anchors,
        answerable=case.answerable,
        allowed_numbers=case.allowed_numbers,
    )
    return not report.grounded, sorted({f"{f.kind}: {f.subject}" for f in report.findings})


@functools.cache
def _corpus(corpus_dir: Path) -> Corpus:
    return load_corpus(corpus_dir)


def test_deterministic_loop_matches_check_grounding_on_every_shipped_output() -> None:
    """Both shipped corpora with their mutants: the study's batch loop (one checker per case,
    reused across outputs and repetitions) reports what ``check_grounding`` reports alone."""
    root = HERE.parents[2]
    plan = load_plan(
        corpus_paths=[root / "corpus" / "opengate", root / "corpus" / "halueval"],
        mutation_paths=[
            root / "mutations" / "opengate.jsonl",
            root / "mutations" / "halueval.jsonl",
        ],
    )
    result = run_study(plan, scorers=["deterministic"], repetitions=2)
    assert len(result.observations) == 2 * len(plan.outputs)
    expected: dict[str, tuple[bool, list[str]]] = {}
    for out in plan.outputs:
        case = plan.case_of(out)
        report = check_grounding(
            out.text,
            list(case.context),
            question=case.question,
            anchors=case.anchors,
            answerable=case.answerable,
            allowed_numbers=case.allowed_numbers,
        )
        expected[out.id] = (
            not report.grounded,
            sorted({f"{f.kind}: {f.subject}" for f in report.findings}),
        )
    for obs in result.observations:
        assert (obs.flagged, list(obs.issues)) == expected[obs.output_id], obs.output_id


def test_golden_study_exercises_what_it_claims(golden: dict[str, list[dict[str, Any]]]) -> None:
    rows = golden["separate"]
    abstained = {r["output_id"] for r in rows if (r["detail"] or "").startswith("every sentence")}
    assert abstained == {"price::base", "price-zh::base"}
    reasons = {r["unscored_reason"] for r in rows if r["status"] == "unscored"}
    assert reasons == {"parse_failure"}
    hedged = [
        r for r in rows if r["output_id"] == "price::hedged" and r["scorer"] != "deterministic"
    ]
    assert hedged
    assert all(r["detail"] is None for r in hedged)  # judged, not an abstention
