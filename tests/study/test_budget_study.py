"""``--max-cost`` and ``--max-claims`` in the study (issue 37, item 3): one budget for every
judge of the run, the outputs left unscored ``budget_exhausted``, the CLI saying where it
stopped."""

from __future__ import annotations

from pathlib import Path

import pytest

from hybridjudge.cli import main
from hybridjudge.model import CostBudget, ModelConfig
from hybridjudge.study import load_plan, load_study, run_study
from tests.study.test_multi_judge import _respond, _spec, _write
from tests.support.openai_server import FakeOpenAIServer

# By hand: a request of the cheap judge (0.1 / 0.2 USD per million tokens) costs at most about
# 1,000 prompt bytes x 0.1 + 112 completion tokens x 0.2 = $0.0001 per request; one of the dear
# judge (10 / 20) at least its ~500 prompt bytes x 10 / 1e6 = $0.005. With $0.004, the cheap
# judge (first) finishes, and the dear judge's first request no longer fits.
LIMIT = 0.004


def test_one_budget_covers_every_judge_and_stops_before_the_dear_one(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    openai_server.respond_with(_respond)
    toy, _ = _write(tmp_path)
    plan = load_plan(corpus_paths=[toy])
    budget = CostBudget(LIMIT)
    study = run_study(
        plan,
        model_config=ModelConfig.local(cache_dir=tmp_path / "cache"),
        judges=[_spec("cheap", openai_server), _spec("dear", openai_server)],
        max_cost_usd=budget,
    )
    models = {r.body["model"] for r in openai_server.requests}
    assert models == {"cheap-model"}  # not one request of the dear judge was sent
    cheap = [o for o in study.observations if o.scorer.startswith("cheap:")]
    dear = [o for o in study.observations if o.scorer.startswith("dear:")]
    assert cheap
    assert all(o.unscored_reason != "budget_exhausted" for o in cheap)
    assert dear
    assert {o.unscored_reason for o in dear} == {"budget_exhausted"}
    assert 0 < budget.spent_usd <= LIMIT
    assert budget.exhausted


def test_the_study_cli_says_where_the_budget_stopped_it(
    openai_server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    openai_server.respond_with(_respond)
    toy, _ = _write(tmp_path)
    out = tmp_path / "out"
    args = ["study", "run", "--corpus", str(toy), "--out", str(out), "--cache-dir", str(tmp_path)]
    args += ["--judge", _spec("cheap", openai_server), "--judge", _spec("dear", openai_server)]
    assert main([*args, "--max-cost", str(LIMIT)]) == 3  # incomplete: results left unscored
    err = capsys.readouterr().err
    assert f"stopped by --max-cost ${LIMIT:.4f}" in err
    assert "result(s) left unscored (budget_exhausted)" in err
    saved = load_study(out)
    assert "budget_exhausted" in {o.unscored_reason for o in saved.observations}
    # the dry run compares the worst case with the limit for each judge
    assert main([*args, "--dry-run", "--max-cost", str(LIMIT)]) == 0
    printed = capsys.readouterr().out
    assert "(judge cheap) --dry-run: --max-cost $0.0040: the worst case it counts" in printed
    assert "above it: the run may stop before its end" in printed
