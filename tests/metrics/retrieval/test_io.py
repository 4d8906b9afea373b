"""Readers: TREC, JSON and JSONL qrels and runs, case files, and the retriever hook."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from hybridjudge._errors import CaseFileError, InputError
from hybridjudge.metrics.retrieval import (
    cases_to_qrels,
    evaluate,
    load_retriever,
    ranking_to_scores,
    read_cases,
    read_qrels,
    read_run,
    run_retriever,
)

DATA = Path(__file__).resolve().parents[2] / "data" / "trec_eval"


def test_trec_files_read_like_trec_eval() -> None:
    qrels = read_qrels(DATA / "qrels.test")
    run = read_run(DATA / "results.trunc")  # extra junk after the 6th field is ignored
    # counts from the files themselves: wc -l per query (see `cut -f1 results.trunc | uniq -c`)
    assert {q: len(d) for q, d in run.items()} == {"301": 500, "303": 84}
    assert sum(len(d) for d in qrels.values()) == 3681
    assert qrels["301"]["CR93E-1282"] == 1


def test_trec_run_keeps_rank_column_order(tmp_path: Path) -> None:
    path = tmp_path / "run.txt"
    path.write_text("q Q0 b 2 9.0 t\nq Q0 a 1 1.0 t\n# comment\n\nq Q0 c 3 5.0 t\n")
    run = read_run(path)
    assert list(run["q"]) == ["a", "b", "c"]
    qrels = {"q": {"a": 1}}
    assert evaluate(qrels, run, ["mrr"], tie_break="rank").means["mrr"] == 1.0
    assert evaluate(qrels, run, ["mrr"]).means["mrr"] == pytest.approx(1 / 3)


def test_json_and_jsonl_formats_agree(tmp_path: Path) -> None:
    qrels_json = tmp_path / "qrels.json"
    qrels_json.write_text(json.dumps({"q1": {"a": 1, "b": 0}, "q2": {"c": 2}}))
    qrels_jsonl = tmp_path / "qrels.jsonl"
    qrels_jsonl.write_text(
        "\n".join(
            json.dumps({"qid": q, "docid": d, "relevance": g})
            for q, d, g in [("q1", "a", 1), ("q1", "b", 0), ("q2", "c", 2)]
        )
    )
    assert (
        read_qrels(qrels_json)
        == read_qrels(qrels_jsonl)
        == {
            "q1": {"a": 1, "b": 0},
            "q2": {"c": 2},
        }
    )
    run_json = tmp_path / "run.json"
    run_json.write_text(json.dumps({"q1": {"b": 2.0, "a": 1.0}, "q2": ["x", "c"]}))
    run_jsonl = tmp_path / "run.jsonl"
    run_jsonl.write_text(
        json.dumps({"qid": "q1", "docs": [{"docid": "b", "score": 2}, {"id": "a", "score": 1}]})
        + "\n"
        + json.dumps({"qid": "q2", "docs": [{"path": "x"}, {"path": "c"}]})
        + "\n"
    )
    expected = {"q1": {"b": 2.0, "a": 1.0}, "q2": {"x": 2.0, "c": 1.0}}
    assert read_run(run_json) == read_run(run_jsonl) == expected


def test_ranking_shapes() -> None:
    assert ranking_to_scores(["a", "b", "c"], where="q") == {"a": 3.0, "b": 2.0, "c": 1.0}
    assert ranking_to_scores([("a", 0.5), ("b", 0.7)], where="q") == {"a": 0.5, "b": 0.7}
    with pytest.raises(InputError, match="appears twice"):
        ranking_to_scores(["a", "a"], where="q")
    with pytest.raises(InputError, match="1 of 2 ranked items have a score"):
        ranking_to_scores([{"id": "a", "score": 1}, {"id": "b"}], where="q")
    with pytest.raises(InputError, match="has no document id"):
        ranking_to_scores([{"title": "a"}], where="case 'c1'")
    with pytest.raises(InputError, match="expected a ranked list"):
        ranking_to_scores("a", where="q")


def _write_cases(tmp_path: Path) -> Path:
    cases = [
        {"id": "c1", "question": "Where is the index built?",
         "expected_paths": ["src/build_index.py"]},
        {"id": "c2", "question": "Which module chats?", "expected_ids": ["src/rag_chat.py"]},
        {"question": "Graded?", "relevance": {"src/a.py": 2, "src/b.py": 1}, "note": "ignored"},
    ]  # fmt: skip
    path = tmp_path / "eval_cases.json"
    path.write_text(json.dumps({"cases": cases}))
    return path


def test_case_file_to_qrels(tmp_path: Path) -> None:
    cases = read_cases(_write_cases(tmp_path))
    assert [c.id for c in cases] == ["c1", "c2", "case-3"]
    assert cases_to_qrels(cases) == {
        "c1": {"src/build_index.py": 1},
        "c2": {"src/rag_chat.py": 1},
        "case-3": {"src/a.py": 2, "src/b.py": 1},
    }


@pytest.mark.parametrize(
    ("cases", "message"),
    [
        ([{"id": "c1", "expected_ids": ["a"]}], r"case 'c1', field 'question'"),
        ([{"id": "c1", "question": "q"}], "exactly one of"),
        ([{"id": "c1", "question": "q", "expected_ids": ["a"], "relevance": {"a": 1}}],
         "exactly one of"),
        ([{"id": "c1", "question": "q", "expected_ids": "a"}], "must be a list"),
        ([{"id": "c1", "question": "q", "relevance": {"a": 0.5}}], "not an integer"),
        ([{"id": "c1", "question": "q", "expected_ids": ["a"]}] * 2, "share this id"),
        ([], "no case"),
        ({"questions": []}, "expected a JSON array"),
    ],
)  # fmt: skip
def test_bad_case_files(tmp_path: Path, cases: object, message: str) -> None:
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(cases))
    with pytest.raises(CaseFileError, match=message):
        read_cases(path)


def test_case_file_jsonl_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "cases.jsonl"
    path.write_text('{"id": "c1", "question": "q", "expected_ids": ["a"]}\n{"id": "c2"}\n')
    with pytest.raises(CaseFileError, match=r"line 2, case 'c2'"):
        read_cases(path)


def test_retriever_hook(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    module = tmp_path / "toy_retriever_io.py"
    module.write_text(
        "def search(question):\n"
        "    if 'index' in question:\n"
        "        return [{'path': 'src/other.py'}, {'path': 'src/build_index.py'}]\n"
        "    return []\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.delitem(sys.modules, "toy_retriever_io", raising=False)
    retriever = load_retriever("toy_retriever_io:search")
    cases = read_cases(_write_cases(tmp_path))
    run = run_retriever(retriever, cases)
    assert run["c1"] == {"src/other.py": 2.0, "src/build_index.py": 1.0}
    assert run["c2"] == {}
    # c2 retrieved nothing: it is evaluated and scores 0 (not skipped)
    result = evaluate(cases_to_qrels(cases), run, ["mrr", "hit@1"])
    assert result.query("c1") == {"mrr": 0.5, "hit@1": 0.0}
    assert result.query("c2") == {"mrr": 0.0, "hit@1": 0.0}


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("no_colon", "expected 'module:function'"),
        ("surely_missing_module_xyz:f", "cannot import"),
        ("json:no_such_function", "has no 'no_such_function'"),
        ("json:__doc__", "not callable"),
    ],
)
def test_bad_retriever_specs(spec: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        load_retriever(spec)


def test_retriever_that_raises_names_the_case(tmp_path: Path) -> None:
    cases = read_cases(_write_cases(tmp_path))

    def broken(question: str) -> list[str]:
        raise RuntimeError("index not loaded")

    with pytest.raises(InputError, match=r"raised RuntimeError on case 'c1'.*index not loaded"):
        run_retriever(broken, cases)
