"""``hybridjudge study run`` with the judges on the scripted server: exit codes and the lock."""

from __future__ import annotations

from pathlib import Path

import pytest

from hybridjudge.cli import main
from hybridjudge.study import load_study
from tests.study.golden.scripted_judge import respond
from tests.support.openai_server import FakeOpenAIServer

TOY = Path(__file__).resolve().parent / "golden" / "toy"


@pytest.mark.parametrize(("max_unscored", "code"), [("0", 3), ("0.1", 0)])
def test_unscored_share_above_max_unscored_exits_3_after_writing_the_reports(
    openai_server: FakeOpenAIServer, tmp_path: Path, max_unscored: str, code: int
) -> None:
    openai_server.respond_with(respond)
    out = tmp_path / "res"
    args = ["study", "run", "--corpus", str(TOY), "--out", str(out), "-q"]
    args += ["--max-unscored", max_unscored, "--backend", "openai"]
    args += ["--base-url", openai_server.base_url, "--model", "fake-model"]
    args += ["--price-in", "1", "--price-out", "2", "--cache-dir", str(tmp_path / "c")]
    assert main(args) == code
    study = load_study(out)
    # by hand: the scripted support verdict fails on the 4 refund outputs ("5 business days");
    # 14 outputs x 3 scorers = 42 evaluations, 4 unscored = 9.5%
    unscored = {row.scorer: sum(row.by_reason.values()) for row in study.analysis.unscored}
    assert unscored == {"deterministic": 0, "support": 4, "contradiction": 0}
    assert (out / "report.md").is_file()
    assert not (out / ".hybridjudge.lock").exists()  # released after the run
