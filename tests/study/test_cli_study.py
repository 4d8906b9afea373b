"""``hybridjudge study run`` with the judges on the scripted server: exit codes and the lock."""

from __future__ import annotations

from pathlib import Path

import pytest

from hybridjudge.cli import main
from hybridjudge.study import load_study
from tests.judges.helpers import prompt_of
from tests.study.golden.scripted_judge import respond
from tests.support.openai_server import FakeOpenAIServer, RecordedRequest, Step, reply

TOY = Path(__file__).resolve().parent / "golden" / "toy"


# 0.1 was enough when the share was pooled over the scorers (4 of 42 evaluations = 9.5%); each
# scorer is now held to the threshold on its own (support: 4 of 14 = 28.6%), as `gate` does
@pytest.mark.parametrize(
    ("max_unscored", "code"), [("0", 3), ("0.1", 3), ("0.28", 3), ("0.29", 0), ("30%", 0)]
)
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
    # 14 outputs per scorer, 4 of support's unscored = 28.6%
    unscored = {row.scorer: sum(row.by_reason.values()) for row in study.analysis.unscored}
    assert unscored == {"deterministic": 0, "support": 4, "contradiction": 0}
    assert (out / "report.md").is_file()
    assert not (out / ".hybridjudge.lock").exists()  # released after the run


def test_each_scorer_is_held_to_max_unscored_on_its_own(
    openai_server: FakeOpenAIServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    def broken_support(request: RecordedRequest) -> Step:
        if prompt_of(request) == "support":
            return reply('{"quote": "", "verdict": ')  # cut off: a parse failure, every time
        return respond(request)

    openai_server.respond_with(broken_support)
    out = tmp_path / "res"
    args = ["study", "run", "--corpus", str(TOY), "--out", str(out), "-q"]
    args += ["--scorers", "deterministic,support", "--max-unscored", "0.7", "--backend", "openai"]
    args += ["--base-url", openai_server.base_url, "--model", "fake-model"]
    args += ["--price-in", "1", "--price-out", "2", "--cache-dir", str(tmp_path / "c")]
    # by hand: support asks about 10 of the 14 outputs, and each of its 10 replies is unreadable
    # (the other 4 are answered without a request: their claims share no word with the context);
    # 10/14 = 71% > 70%, while the pooled share (10 of 28 evaluations, 36%) would have passed
    assert main(args) == 3
    err = capsys.readouterr().err
    assert "support: 10 of 14 result(s) unscored (above --max-unscored 0.7); the run is" in err
    assert "deterministic:" not in err  # the scorer that scored is not named
    study = load_study(out)  # the reports are written all the same
    unscored = {row.scorer: sum(row.by_reason.values()) for row in study.analysis.unscored}
    assert unscored == {"deterministic": 0, "support": 10}
    # the gate applies the same rule to the saved study
    baseline = str(out / "study.json")
    assert main(["gate", str(out), "--baseline", baseline, "--max-unscored", "0.7"]) == 3
    assert main(["gate", str(out), "--baseline", baseline, "--max-unscored", "0.72"]) == 0
