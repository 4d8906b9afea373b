"""Options are range-checked before any work (issue 10): exit 2, the flag named, no traceback.

``--resamples 10**12`` used to try to allocate terabytes, ``--bootstrap 10**9`` failed after
55 s, ``--seed -1`` ended in a numpy traceback, ``--repetitions 10**12`` ran forever.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hybridjudge.cli import main
from hybridjudge.cli._exit import EXIT_USAGE

REPO = Path(__file__).resolve().parents[2]
TRIAGE = ["triage", "report", "p.csv", "--reference-column", "ref", "--prediction-column", "pred",
          "--scale", "KTAS", "--label-source", "expert"]  # fmt: skip
RETRIEVAL = ["retrieval", "eval", "--qrels", "q.txt", "--run", "r.txt"]
STUDY = ["study", "run", "--corpus", str(REPO / "corpus" / "opengate"), "--scorers",
         "deterministic", "--quiet"]  # fmt: skip

CASES = [
    ([*TRIAGE, "--resamples", str(10**12)], "--resamples"),
    ([*TRIAGE, "--resamples", "10"], "--resamples"),
    ([*TRIAGE, "--bootstrap-seed", "-1"], "--bootstrap-seed"),
    ([*RETRIEVAL, "--resamples", str(10**12)], "--resamples"),
    ([*RETRIEVAL, "--bootstrap", str(10**9)], "--resamples"),
    ([*RETRIEVAL, "--bootstrap-seed", "-1"], "--bootstrap-seed"),
    (
        ["mutate", str(REPO / "corpus" / "opengate"), "--mutation-seed", "-1", "--out", "m.jsonl"],
        "--mutation-seed",
    ),
    ([*STUDY, "--sample-seed", "-1", "--out", "out"], "--sample-seed"),
    ([*STUDY, "--repetitions", str(10**12), "--out", "out"], "--repetitions"),
]


@pytest.mark.parametrize(
    ("argv", "flag"), CASES, ids=lambda v: " ".join(v[-2:]) if isinstance(v, list) else v
)
def test_out_of_range_options_exit_2_naming_the_flag(
    argv: list[str],
    flag: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    rows = "\n".join(f"{r},{r}" for r in (1, 2, 3, 4, 5))
    (tmp_path / "p.csv").write_text(f"ref,pred\n{rows}\n", encoding="utf-8")
    (tmp_path / "q.txt").write_text("q1 0 d1 1\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text("q1 Q0 d1 1 1.0 r\n", encoding="utf-8")
    assert main(argv) == EXIT_USAGE
    err = capsys.readouterr().err
    assert flag in err
    assert "Traceback" not in err
    assert not (tmp_path / "m.jsonl").exists()
    assert not (tmp_path / "out" / "study.json").exists()
