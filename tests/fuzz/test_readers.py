"""Hypothesis fuzzing of every file reader (issue 10): hostile files give typed errors that name
the file (and the line where there is one), never a traceback; one bad line never hides the
others.

Readers: case JSONL (``check``), corpus directories, mutation files, qrels and runs (TREC, JSON,
JSONL), the triage CSV (``triage report``), and study.json (``report`` and ``gate``). Inputs mix
valid lines with the hostile fragments of issue 10: a byte-order mark, 5,000-deep nesting,
5,000-digit integers, lone surrogates (escaped and raw), NaN/Infinity, NUL, invalid UTF-8.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hybridjudge import CaseFileError, HybridJudgeError
from hybridjudge.cli import main
from hybridjudge.corpus import load_corpus, read_case_lines
from hybridjudge.metrics.retrieval import read_qrels, read_run
from hybridjudge.mutations import load_mutations

REPO = Path(__file__).resolve().parents[2]

FUZZ = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

HOSTILE: tuple[bytes, ...] = (
    b"[" * 5000 + b"]" * 5000,
    b'{"id": "deep", "answer": ' + b"[" * 5000 + b"]" * 5000 + b"}",
    b"1" * 5000,
    b'{"id": "big", "answer": "a", "context": "b", "n": ' + b"9" * 5000 + b"}",
    b'{"id": "sur\\ud800", "answer": "x \\udfff y", "context": "c"}',
    b'{"id": "raw", "answer": "\xed\xa0\x80", "context": "c"}',
    b'{"id": "nan", "answer": NaN, "context": Infinity}',
    b"\x00\x00\x00",
    b"\xff\xfe\xfa not utf-8",
    b'{"id": "[/x]case[b]7[/b]", "answer": "The fee is 30 days.", "context": "30 days"}',
    b"{",
    b"null",
    b'"just a string"',
    b"",
    b"   ",
    b"q1 0 d1 " + b"1" * 30,
    b"q1 0 d1 100000000000000000000",
    b"q1 Q0 d1 1 inf run",
    b"q1 Q0 d1 notarank 1.0 run",
)

_json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(["id", "answer", "context", "x", "case_id"]), children, max_size=4
        )
    ),
    max_leaves=10,
)

_lines = st.one_of(
    st.sampled_from(HOSTILE),
    _json_values.map(lambda v: json.dumps(v).encode()),
    st.binary(max_size=40).filter(lambda b: b"\n" not in b and b"\r" not in b),
    st.text(max_size=40).map(lambda t: t.replace("\n", " ").replace("\r", " ").encode()),
)


def _file(lines: list[bytes], bom: bool) -> bytes:
    return (b"\xef\xbb\xbf" if bom else b"") + b"\n".join(lines) + b"\n"


GOOD_CASE = (
    b'{"id": "good", "answer": "Refunds within 30 days.", "context": "Refunds within 30 days."}'
)


def _error_of(call: Callable[[], object]) -> HybridJudgeError | None:
    """The typed error ``call`` raises, or ``None``; any other exception fails the test."""
    try:
        call()
    except HybridJudgeError as exc:
        return exc
    return None


def _no_traceback(err: str) -> None:
    assert "Traceback" not in err


@FUZZ
@given(lines=st.lists(_lines, max_size=6), bom=st.booleans(), position=st.integers(0, 6))
def test_case_jsonl_reader_reports_each_bad_line_and_keeps_the_rest(
    tmp_path_factory: pytest.TempPathFactory, lines: list[bytes], bom: bool, position: int
) -> None:
    path = tmp_path_factory.mktemp("cases") / "cases.jsonl"
    lines = [*lines]
    lines.insert(min(position, len(lines)), GOOD_CASE)
    path.write_bytes(_file(lines, bom))
    results = list(read_case_lines(path))
    good = [r for r in results if r.case is not None and r.case.id == "good"]
    assert len(good) == 1  # one bad line never ends the file
    for r in results:
        assert (r.case is None) != (r.error is None)
        if r.error is not None:
            assert isinstance(r.error, CaseFileError)
            assert r.error.path == str(path)
            assert r.error.line == r.line
            assert f"line {r.line}" in str(r.error)


@FUZZ
@given(lines=st.lists(_lines, max_size=5), bom=st.booleans())
def test_check_cli_never_tracebacks(
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
    lines: list[bytes],
    bom: bool,
) -> None:
    path = tmp_path_factory.mktemp("check") / "cases.jsonl"
    path.write_bytes(_file([*lines, GOOD_CASE], bom))
    code = main(["check", str(path), "--json"])
    out, err = capsys.readouterr()
    assert code in (0, 1, 2)
    _no_traceback(err)
    ids = [json.loads(line).get("id") for line in out.splitlines() if line.startswith("{")]
    assert "good" in ids


@pytest.mark.parametrize("content", [b"", b"\n\n  \n", b"\xef\xbb\xbf"])
def test_check_on_an_empty_file_is_exit_2_no_cases(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes
) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_bytes(content)
    assert main(["check", str(path)]) == 2
    assert "no case in the file" in capsys.readouterr().err


def test_check_json_with_lone_surrogates_in_ids_does_not_crash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cases.jsonl"
    path.write_bytes(
        b'{"id": "a\\ud800b", "answer": "x \\udfff", "context": "x"}\n' + GOOD_CASE + b"\n"
    )
    code = main(["check", str(path), "--json"])
    out, err = capsys.readouterr()
    assert code in (0, 1, 2)
    _no_traceback(err)
    assert '"good"' in out


@FUZZ
@given(
    which=st.sampled_from(["cases.jsonl", "outputs.jsonl"]),
    lines=st.lists(_lines, min_size=1, max_size=4),
    bom=st.booleans(),
)
def test_corpus_reader_gives_typed_errors_naming_file_and_line(
    tmp_path_factory: pytest.TempPathFactory, which: str, lines: list[bytes], bom: bool
) -> None:
    root = tmp_path_factory.mktemp("corpus")
    shutil.copy(REPO / "corpus/opengate/cases.jsonl", root / "cases.jsonl")
    shutil.copy(REPO / "corpus/opengate/outputs.jsonl", root / "outputs.jsonl")
    target = root / which
    original = target.read_bytes().splitlines()
    target.write_bytes(_file([*original[:3], *lines, *original[3:]], bom))
    exc = _error_of(lambda: load_corpus(root))
    if exc is not None:
        assert isinstance(exc, CaseFileError)
        assert exc.path is not None
        assert Path(exc.path).name in ("cases.jsonl", "outputs.jsonl")
        assert exc.line is not None


@FUZZ
@given(lines=st.lists(_lines, min_size=1, max_size=4), keep_header=st.booleans(), bom=st.booleans())
def test_mutation_reader_gives_typed_errors_naming_file_and_line(
    tmp_path_factory: pytest.TempPathFactory, lines: list[bytes], keep_header: bool, bom: bool
) -> None:
    path = tmp_path_factory.mktemp("mut") / "m.jsonl"
    original = (REPO / "mutations/opengate.jsonl").read_bytes().splitlines()
    head = original[:3] if keep_header else []
    path.write_bytes(_file([*head, *lines], bom))
    exc = _error_of(lambda: load_mutations(path))
    if exc is not None:
        assert isinstance(exc, CaseFileError)
        assert exc.path == str(path)
        assert exc.line is not None


_trec_qrels = st.lists(
    st.tuples(
        st.sampled_from(["q1", "q2", "q\ud7ff"]),
        st.sampled_from(["0", "Q0", "x"]),
        st.sampled_from(["d1", "d2"]),
        st.sampled_from(
            ["0", "1", "2", "-1", "1.5", "1e20", "100000000000000000000", "nan", "x", "9" * 400]
        ),
    ).map(lambda t: " ".join(t).encode()),
    max_size=5,
)


@FUZZ
@given(
    lines=st.lists(st.one_of(_lines, _trec_qrels.map(lambda ls: b"\n".join(ls))), max_size=5),
    suffix=st.sampled_from([".txt", ".json", ".jsonl"]),
    bom=st.booleans(),
    kind=st.sampled_from(["qrels", "run"]),
)
def test_qrels_and_run_readers_give_typed_errors_naming_the_file(
    tmp_path_factory: pytest.TempPathFactory,
    lines: list[bytes],
    suffix: str,
    bom: bool,
    kind: str,
) -> None:
    path = tmp_path_factory.mktemp("ret") / f"{kind}{suffix}"
    path.write_bytes(_file(lines, bom))
    reader = read_qrels if kind == "qrels" else read_run
    data: dict[str, Any] = {}
    exc = _error_of(lambda: data.update(reader(path)))
    if exc is not None:
        assert str(path) in str(exc)
    else:
        for docs in data.values():  # (the BOM itself: test_bom_and_huge_grades_in_qrels)
            for value in docs.values():
                assert abs(value) <= 10**6 if kind == "qrels" else value == value


def test_bom_and_huge_grades_in_qrels(tmp_path: Path) -> None:
    qrels = tmp_path / "qrels.txt"
    qrels.write_bytes(b"\xef\xbb\xbfq1 0 d1 2\nq1 0 d2 0\n")
    assert read_qrels(qrels) == {"q1": {"d1": 2, "d2": 0}}
    run = tmp_path / "run.txt"
    run.write_bytes(b"\xef\xbb\xbfq1 Q0 d1 1 2.0 r\n")
    assert read_run(run) == {"q1": {"d1": 2.0}}
    qrels.write_text("q1 0 d1 100000000000000000000\n", encoding="utf-8")
    with pytest.raises(CaseFileError, match="out of range") as info:
        read_qrels(qrels)
    assert info.value.line == 1
    as_json = tmp_path / "qrels.json"
    as_json.write_text(json.dumps({"q1": {"d1": 10**20}}), encoding="utf-8")
    with pytest.raises(CaseFileError, match="out of range"):
        read_qrels(as_json)


TRIAGE = ["--reference-column", "reference", "--prediction-column", "prediction", "--scale",
          "KTAS", "--label-source", "expert", "--resamples", "100"]  # fmt: skip

_csv_cells = st.sampled_from(
    [
        "1",
        "2",
        "3",
        "4",
        "5",
        "0",
        "6",
        "",
        "x",
        "1.0",
        "١",
        "\ufeff1",
        '"',
        "1,2",
        "\x00",
        "9" * 50,
    ]
)


@FUZZ
@given(
    header=st.sampled_from(
        [
            b"reference,prediction",
            b"\xef\xbb\xbfreference,prediction",
            b"ref,pred",
            b"",
            b"reference",
        ]
    ),
    rows=st.lists(st.tuples(_csv_cells, _csv_cells), max_size=8),
    extra=st.lists(st.sampled_from(HOSTILE), max_size=2),
)
def test_triage_csv_never_tracebacks(
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
    header: bytes,
    rows: list[tuple[str, str]],
    extra: list[bytes],
) -> None:
    path = tmp_path_factory.mktemp("triage") / "pred.csv"
    body = [f"{a},{b}".encode("utf-8", "surrogatepass") for a, b in rows]
    path.write_bytes(b"\n".join([header, *body, *extra]) + b"\n")
    code = main(["triage", "report", str(path), *TRIAGE])
    _out, err = capsys.readouterr()
    assert code in (0, 1, 2)
    _no_traceback(err)
    if code == 2:
        assert str(path) in err or "pred.csv" in err


def test_triage_csv_with_a_bom_reads_the_first_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "pred.csv"
    rows = "\n".join(f"{r},{r}" for r in (1, 2, 3, 4, 5, 1, 2, 3))
    path.write_bytes(b"\xef\xbb\xbfreference,prediction\n" + rows.encode() + b"\n")
    for encoding in ("utf-8-sig", "utf-8"):
        assert main(["triage", "report", str(path), "--encoding", encoding, *TRIAGE]) == 0
    capsys.readouterr()


def _study_text() -> str:
    from tests.study._fixtures import make_study

    return make_study().model_dump_json(indent=1)


_STUDY = _study_text()


@FUZZ
@given(
    cut=st.integers(0, len(_STUDY)),
    insert=st.sampled_from(HOSTILE),
    bom=st.booleans(),
    command=st.sampled_from(["report", "gate"]),
)
def test_study_json_readers_give_typed_errors(
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
    cut: int,
    insert: bytes,
    bom: bool,
    command: str,
) -> None:
    root = tmp_path_factory.mktemp("study")
    path = root / "study.json"
    data = _STUDY.encode()
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + data[:cut] + insert + data[cut:])
    good = root / "good.json"
    good.write_text(_STUDY, encoding="utf-8")
    if command == "report":
        argv = ["report", str(path)]
    else:
        argv = ["gate", str(path), "--baseline", str(good)]
    assert main(argv) in (0, 1, 2, 3)
    _out, err = capsys.readouterr()
    _no_traceback(err)
    if "error [" in err:  # a file that cannot be read is named
        assert str(path) in err


def test_a_study_json_with_a_bom_loads(tmp_path: Path) -> None:
    from hybridjudge.study import load_study

    path = tmp_path / "study.json"
    path.write_bytes(b"\xef\xbb\xbf" + _STUDY.encode())
    assert load_study(path).config.scorers == ("deterministic", "support")
