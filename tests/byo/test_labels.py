"""Labels on the user's answers: read under the common names, kept through ``corpus import``,
``mutate`` and ``study run``; false alarms count only the answers labelled correct, the answers
labelled incorrect are a row of their own with their AUROC, and the unlabelled are counted apart.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from hybridjudge.cli import main
from hybridjudge.corpus import IMPORT_FILE, import_corpus, load_corpus, read_cases
from hybridjudge.mutations import load_mutations
from hybridjudge.study import (
    LABELLED_INCORRECT,
    Observation,
    OutputRecord,
    analyse,
    load_plan,
    run_study,
)

CONTEXT = "Express shipping costs $12 and arrives in 2 days."


def _record(rid: str, answer: str = "Express shipping costs $12.", **fields: Any) -> dict[str, Any]:
    base = {"id": rid, "question": "What does express cost?", "context": CONTEXT, "answer": answer}
    return base | fields


def _jsonl(path: Path, rows: Sequence[object]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


# --- reading ---------------------------------------------------------------------------------


def test_every_common_label_name_is_read() -> None:
    records = [
        _record("a", label="correct"),
        _record("b", label=" INCORRECT "),
        _record("c", label="unknown"),
        _record("d"),
        _record("e", clean=True),
        _record("f", clean="false"),  # a CSV cell
        _record("g", is_hallucination="yes"),  # HaluEval writes yes / no
        _record("h", hallucination=False),
        _record("i", is_correct=0),
        _record("j", additional_metadata={"label": "incorrect", "team": "x"}),  # DeepEval
        _record("k", label=None),
    ]
    read = read_cases(records)
    assert [r.label for r in read] == [
        "correct",
        "incorrect",
        "unknown",
        "unknown",
        "correct",
        "incorrect",
        "incorrect",
        "correct",
        "incorrect",
        "incorrect",
        "unknown",
    ]
    assert [r.label_field for r in read][:3] == ["label", "label", "label"]
    assert read[3].label_field is None
    assert all(not r.label_problems and r.case is not None for r in read)


def test_a_label_from_a_csv_column_is_read(tmp_path: Path) -> None:
    path = tmp_path / "rag.csv"
    path.write_text(
        "id,question,context,answer,clean\n"
        f'r1,Cost?,"{CONTEXT}",It costs $12.,true\n'
        f'r2,Cost?,"{CONTEXT}",It costs $19.,false\n'
        f'r3,Cost?,"{CONTEXT}",It costs $12.,\n',
        encoding="utf-8",
    )
    assert [r.label for r in read_cases(path)] == ["correct", "incorrect", "unknown"]


def test_a_label_from_a_dataframe_is_read() -> None:
    pd = pytest.importorskip("pandas")
    np = pytest.importorskip("numpy")
    frame = pd.DataFrame(
        {
            "id": ["a", "b", "c"],
            "question": ["Cost?"] * 3,
            "context": [CONTEXT] * 3,
            "answer": ["It costs $12.", "It costs $19.", "It costs $12."],
            "clean": [True, False, np.nan],  # NaN: a missing label
        }
    )
    assert [r.label for r in read_cases(frame)] == ["correct", "incorrect", "unknown"]
    numpy_scalars = [_record("d", is_hallucination=np.bool_(True)), _record("e", clean=np.int64(1))]
    assert [r.label for r in read_cases(numpy_scalars)] == ["incorrect", "correct"]


def test_an_unreadable_label_names_the_record_and_the_accepted_values() -> None:
    bad, both, not_bool = read_cases(
        [
            _record("a", label="maybe"),
            _record("b", label="correct", is_hallucination=True),
            _record("c", clean="sometimes"),
        ]
    )
    (problem,) = bad.label_problems
    assert problem.startswith(
        "label: 'maybe' is not a label; use one of correct, incorrect, unknown"
    )
    assert both.label_problems == (
        "label: both 'label' and 'is_hallucination' give the answer's label; keep one",
    )
    assert not_bool.label_problems[0].startswith("clean: 'sometimes' is not a boolean")


def test_check_keeps_a_label_field_in_metadata_as_before() -> None:
    # check and judge echo the user's fields; only corpus import reads the label
    (record,) = read_cases([_record("a", clean=True, team="x")])
    assert record.case is not None
    assert record.case.metadata == {"clean": True, "team": "x"}


# --- import ----------------------------------------------------------------------------------


def test_import_keeps_the_label_as_the_base_output_clean(tmp_path: Path) -> None:
    records = [
        _record("right", label="correct", team="x"),
        _record("wrong", "Express shipping costs $19.", is_hallucination=True),
        _record("unsure"),
    ]
    report = import_corpus(records, tmp_path / "mine")
    assert (report.labelled_correct, report.labelled_incorrect, report.unlabelled) == (1, 1, 1)
    corpus = load_corpus(tmp_path / "mine")
    clean = {o.id: o.clean for o in corpus.outputs}
    assert clean == {"right::base": True, "wrong::base": False, "unsure::base": None}
    # the label is the output's, not a leftover of metadata
    assert corpus.cases["right"].metadata == {"team": "x"}
    assert corpus.cases["wrong"].metadata == {}
    manifest = json.loads((tmp_path / "mine" / IMPORT_FILE).read_text(encoding="utf-8"))
    assert (manifest["format_version"], manifest["labelled_incorrect"]) == (2, 1)
    readme = (tmp_path / "mine" / "README.md").read_text(encoding="utf-8")
    assert "labels: 1 correct" in readme


def test_strict_import_accepts_our_label_field(tmp_path: Path) -> None:
    report = import_corpus([_record("a", label="incorrect")], tmp_path / "mine", strict=True)
    assert (report.skipped, report.labelled_incorrect) == ((), 1)


def test_cli_import_skips_a_record_with_a_bad_label_and_says_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = _jsonl(
        tmp_path / "rag.jsonl",
        [_record("a", label="correct"), _record("b", label="wrong"), _record("c", clean=False)],
    )
    code = main(["corpus", "import", str(source), "--out", str(tmp_path / "mine")])
    out, err = capsys.readouterr()
    assert code == 2  # a skipped record is a usage problem, as for any bad record
    assert "line 2: skipped: label: 'wrong' is not a label; use one of correct, incorrect" in err
    assert "labels: 1 correct, 1 incorrect, 0 unlabelled" in out


# --- mutation and study ----------------------------------------------------------------------


def test_labels_survive_mutation_and_the_study_counts_them_apart(tmp_path: Path) -> None:
    records = [
        _record("r1", "Express shipping costs $12 and arrives in 2 days.", label="correct"),
        _record("r2", "Express shipping costs $12.", label="correct"),
        _record("w1", "Express shipping costs $19.", label="incorrect"),
        _record("w2", "Express shipping arrives in 5 days.", label="incorrect"),
        _record("u1", "Express shipping costs $7.", label="unknown"),
    ]
    corpus = tmp_path / "mine"
    import_corpus(records, corpus)
    mutations = tmp_path / "mine.jsonl"
    assert main(["mutate", str(corpus), "--mutation-seed", "0", "--out", str(mutations)]) == 0
    mutants = load_mutations(mutations).outputs
    # a mutant of a right answer is a mutant (no label of its own); the base keeps its label
    assert any(m.base_id == "r1::base" for m in mutants)
    assert all(m.clean is None and m.defect is not None for m in mutants)
    assert {o.id: o.clean for o in load_corpus(corpus).outputs}["r1::base"] is True

    study = run_study(
        load_plan(corpus_paths=[corpus], mutation_paths=[mutations]), scorers=["deterministic"]
    )
    by_id = {o.id: o for o in study.outputs}
    assert (by_id["r1::base"].clean, by_id["w1::base"].clean, by_id["u1::base"].clean) == (
        True,
        False,
        None,
    )
    (fa,) = study.analysis.false_alarms
    # by hand: the 2 right answers restate the context (not flagged); the unlabelled $7 answer is
    # flagged (a fabricated figure) and is in no rate, only counted
    assert (fa.n, fa.flagged_every, fa.unlabelled) == (2, 0, 1)
    (wrong,) = [r for r in study.analysis.detection if r.origin == "labelled"]
    # $19 and 5 days are not in the context: both flagged
    assert (wrong.defect_class, wrong.n, wrong.detected) == (LABELLED_INCORRECT, 2, 2)
    mutated = [r for r in study.analysis.detection if r.origin == "mutator"]
    assert mutated
    assert sum(r.n for r in mutated) == len(mutants)
    (sep,) = study.analysis.separation
    assert (sep.origin, sep.positives, sep.negatives, sep.auroc) == ("labelled", 2, 2, 1.0)


def _obs(output_id: str, scorer: str, score: float, flagged: bool) -> Observation:
    return Observation(
        output_id=output_id,
        scorer=scorer,
        repetition=0,
        status="scored",
        score=score,
        flagged=flagged,
        latency_ms=1.0,
    )


def _out(oid: str, clean: bool | None, base_id: str | None = None) -> OutputRecord:
    return OutputRecord(
        id=oid,
        corpus="c",
        case_id=oid.split("::")[0],
        base_id=base_id,
        defect="fabricated_number" if base_id else None,
        origin="mutator" if base_id else "base",
        clean=clean,
        judged=True,
    )


def test_analysis_counts_false_alarms_on_right_answers_only() -> None:
    outputs = [
        _out("a::base", True),
        _out("b::base", True),
        _out("c::base", False),
        _out("d::base", False),
        _out("e::base", None),
        _out("a::base::fabricated_number", None, base_id="a::base"),
    ]
    scores = {  # (score, flagged below 0.5)
        "a::base": (0.9, False),
        "b::base": (0.4, True),
        "c::base": (0.3, True),
        "d::base": (0.7, False),
        "e::base": (0.1, True),
        "a::base::fabricated_number": (0.2, True),
    }
    obs = [_obs(oid, "support", s, f) for oid, (s, f) in scores.items()]
    analysis = analyse(outputs, obs, scorers=["support"], repetitions=1)
    (fa,) = analysis.false_alarms
    # right answers a (not flagged) and b (flagged): 1 of 2; e is unlabelled, flagged, not counted
    assert (fa.n, fa.flagged_every, fa.unlabelled, fa.rate) == (2, 1, 1, 0.5)
    rows = {(r.defect_class, r.origin): r for r in analysis.detection}
    wrong = rows[(LABELLED_INCORRECT, "labelled")]
    assert (wrong.n, wrong.detected, wrong.raw_flags, wrong.in_scope) == (2, 1, 1, None)
    # the mutant of right answer a is in its class row, in no label row
    mutant = rows[("fabricated_number", "mutator")]
    assert (mutant.n, mutant.detected) == (1, 1)
    (sep,) = analysis.separation
    # by hand: right {0.9, 0.4} vs wrong {0.3, 0.7}: 0.9>0.3, 0.9>0.7, 0.4>0.3, 0.4<0.7 -> 3/4
    assert (sep.origin, sep.positives, sep.negatives, sep.auroc) == ("labelled", 2, 2, 0.75)
    assert sep.ci_low is not None
    assert sep.ci_high is not None
    assert sep.ci_low <= 0.75 <= sep.ci_high
