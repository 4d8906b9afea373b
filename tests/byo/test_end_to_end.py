"""Bring your own data, end to end: RAG records -> corpus import -> mutate -> study run.

A RAGAS-style JSONL file and a DeepEval-style list of test cases (the same 14 records, written in
tests/byo/_records.py, with fields of the user's own) become corpora; the mutants are frozen;
the study runs the deterministic checks and both judges on the scripted OpenAI-compatible
server (tests/byo/_judge.py: a judge faithful exactly to the base answers). Expected figures are
reasoned by hand from how the mutants are made and what each scorer can see.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hybridjudge.cli import main
from hybridjudge.corpus import import_corpus, load_corpus
from hybridjudge.study import StudyResult, load_study
from tests.byo._judge import TextJudge
from tests.byo._records import deepeval_cases, ragas_records
from tests.support.openai_server import FakeOpenAIServer

SCORERS = ("deterministic", "support", "contradiction")


def _model_flags(server: FakeOpenAIServer, cache: Path) -> list[str]:
    return [
        "--backend",
        "openai",
        "--base-url",
        server.base_url,
        "--model",
        "fake-model",
        "--price-in",
        "1",
        "--price-out",
        "2",
        "--cache-dir",
        str(cache),
    ]


def _study(corpus: Path, root: Path, server: FakeOpenAIServer) -> StudyResult:
    name = corpus.name
    mutations = root / f"{name}.mutations.jsonl"
    assert main(["mutate", str(corpus), "--mutation-seed", "0", "--out", str(mutations)]) == 0
    header = json.loads(mutations.read_text(encoding="utf-8").splitlines()[0])
    refused = {(r["base_id"], r["defect"]): r["reason"] for r in header["refused"]}
    # the two unanswerable records have no anchors: the header says omission was refused
    assert refused[("ceo-name::base", "omission")] == "the case has no anchors"
    out = root / f"results-{name}"
    code = main(
        [
            "study",
            "run",
            "--corpus",
            str(corpus),
            "--mutations",
            str(mutations),
            "--scorers",
            ",".join(SCORERS),
            "--repetitions",
            "1",
            "--out",
            str(out),
            *_model_flags(server, root / f"cache-{name}"),
        ]
    )
    assert code == 0
    return load_study(out / "study.json")


def _table(study: StudyResult) -> dict[tuple[str, str], tuple[int, int]]:
    return {
        (row.defect_class, row.scorer): (row.detected, row.n) for row in study.analysis.detection
    }


@pytest.fixture
def judge(openai_server: FakeOpenAIServer) -> TextJudge:
    responder = TextJudge(r["response"] for r in ragas_records())
    openai_server.respond_with(responder)
    return responder


def _ragas_jsonl(path: Path) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in ragas_records()), encoding="utf-8")
    return path


def test_ragas_jsonl_and_deepeval_cases_through_import_mutate_and_study(
    tmp_path: Path,
    openai_server: FakeOpenAIServer,
    judge: TextJudge,
    capsys: pytest.CaptureFixture[str],
) -> None:
    source = _ragas_jsonl(tmp_path / "rag.jsonl")
    ragas_dir = tmp_path / "corpus" / "shop-ragas"
    assert main(["corpus", "import", str(source), "--out", str(ragas_dir)]) == 0
    assert "14 case(s) from 14 record(s), 0 skipped" in capsys.readouterr().out
    deepeval_dir = tmp_path / "corpus" / "shop-deepeval"
    report = import_corpus(deepeval_cases(), deepeval_dir)
    assert (report.cases, report.skipped) == (14, ())

    ragas_study = _study(ragas_dir, tmp_path, openai_server)
    table = _table(ragas_study)
    made = {cls: n for (cls, scorer), (_, n) in table.items() if scorer == "deterministic"}
    # per class, never pooled: every class the mutators could make on these answers is a row
    assert set(made) == {
        "omission",
        "fabricated_number",
        "non_abstention",
        "contradiction",
        "inversion",
    }
    assert made["omission"] == 6  # only the 6 records that carry anchors can lose one
    assert made["non_abstention"] == 2  # only the 2 unanswerable records abstain
    assert made["fabricated_number"] == 14  # every answer can take an invented number
    # by construction: each mutator verifies its mutant raises exactly its own finding, so the
    # checks catch every omission, fabricated number and failure to abstain, and no inversion
    for cls in ("omission", "fabricated_number", "non_abstention"):
        assert table[(cls, "deterministic")] == (made[cls], made[cls])
    assert table[("inversion", "deterministic")] == (0, made["inversion"])
    # the scripted judge is faithful exactly to the base answers. Support: a sentence the
    # context does not state is unsupported, so every mutant is detected
    for cls, n in made.items():
        assert table[(cls, "support")] == (n, n), cls
    # Contradiction follows DeepEval (a claim the context is silent on is faithful) and the
    # judges do not even ask about a sentence sharing no content word with the context. So a
    # mutant whose only changed sentence is such is missed. By hand, from the seed-0 mutants:
    # 9 of the 14 fabricated numbers append an unrelated sentence ("It was first described in
    # 1956.", "Records show 609 instances of this last year.", "The distance involved is
    # roughly 425 miles." ...; the other 5 change a number inside the base's sentence), and
    # against "Acme Store ships to 12 countries in Europe." the non-abstention "Yes, this is
    # covered in full under the standard terms." and the inversion "I don't know: the context
    # does say who founded the company." share no word with it
    missed = {"fabricated_number": 9, "non_abstention": 1, "inversion": 1}
    for cls, n in made.items():
        assert table[(cls, "contradiction")] == (n - missed.get(cls, 0), n), cls
    # the records carry no label: their answers are in no false-alarm rate, counted apart
    alarms = {
        row.scorer: (row.flagged_every, row.n, row.unlabelled)
        for row in ragas_study.analysis.false_alarms
    }
    assert alarms == dict.fromkeys(SCORERS, (0, 0, 14))
    assert ragas_study.judge_usage is not None
    assert ragas_study.judge_usage.calls == judge.requests > 0

    # the user's own fields reach the results, per output
    by_id = {o.id: o for o in ragas_study.outputs}
    assert by_id["refund-window::base"].metadata == {
        "team": "logistics",
        "trace_id": "tr-000",
        "reference": "Within 30 days of purchase.",
    }
    assert by_id["refund-speed::base::fabricated_number"].metadata["trace_id"] == "tr-001"

    # DeepEval-style test cases: the same records give the same per-class table
    deepeval_study = _study(deepeval_dir, tmp_path, openai_server)
    assert _table(deepeval_study) == table
    meta = {o.id: o.metadata for o in deepeval_study.outputs}["refund-window::base"]
    assert (meta["team"], meta["trace_id"], meta["name"]) == (
        "logistics",
        "tr-000",
        "refund-window",
    )

    # the corpus README and the study report say what omission can and cannot measure
    readme = (ragas_dir / "README.md").read_text(encoding="utf-8")
    assert "omission class needs required facts" in readme
    (mset,) = ragas_study.mutation_sets
    assert mset.refused["omission"] == {"the case has no anchors": 8}  # 14 records, 6 anchored
    markdown = (tmp_path / "results-shop-ragas" / "report.md").read_text(encoding="utf-8")
    assert (
        "- shop-ragas / omission (dropped anchor): 8 base(s) refused: the case has no anchors. Omission "
        "detection is measured only on the cases with required facts"
    ) in markdown
    page = (tmp_path / "results-shop-ragas" / "report.html").read_text(encoding="utf-8")
    assert "8 base(s) refused: the case has no anchors" in page


def test_the_same_records_as_a_dataframe_give_the_same_results(
    tmp_path: Path, openai_server: FakeOpenAIServer, judge: TextJudge
) -> None:
    pd = pytest.importorskip("pandas")
    from_file = tmp_path / "corpus" / "from-file"
    from_frame = tmp_path / "corpus" / "from-frame"
    import_corpus(_ragas_jsonl(tmp_path / "rag.jsonl"), from_file)
    import_corpus(pd.DataFrame(ragas_records()), from_frame)
    a, b = load_corpus(from_file), load_corpus(from_frame)
    # the same cases and outputs; only the provenance in label_source names the source
    assert "user import from rag.jsonl (sha256 " in a.cases["warranty"].label_source
    assert "user import from a DataFrame in memory" in b.cases["warranty"].label_source
    unlabel: Callable[[Any], Any] = lambda c: c.model_copy(update={"label_source": ""})  # noqa: E731
    assert [unlabel(c) for c in a.cases.values()] == [unlabel(c) for c in b.cases.values()]
    assert a.outputs == b.outputs
    study_a = _study(from_file, tmp_path, openai_server)
    study_b = _study(from_frame, tmp_path, openai_server)
    assert _table(study_a) == _table(study_b)
    strip: Callable[[Any], Any] = lambda o: o.model_copy(update={"corpus": ""})  # noqa: E731
    assert [strip(o) for o in study_a.outputs] == [strip(o) for o in study_b.outputs]
