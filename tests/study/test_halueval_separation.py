"""The separation of HaluEval's right and hallucinated answers, on the shipped corpus.

The judges run on the scripted OpenAI-compatible server as a *lexical* judge: it accepts a
statement when every word of three letters or more of the answer appears in the evidence it is
shown, else rejects it (support: "NO"; contradiction: "NO", the two cannot both be true). The
AUROC of every scorer is checked against scikit-learn's ``roc_auc_score`` on the labels and
per-answer scores read back from the observations (independently of the study's code).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from sklearn.metrics import roc_auc_score

from hybridjudge.reports import render_html, render_markdown
from hybridjudge.study import StudyResult, load_plan, run_study
from tests.judges.helpers import (
    claims_reply,
    contradiction_reply,
    evidence_of,
    prompt_of,
    statement_of,
    support_reply,
)
from tests.support.openai_server import FakeOpenAIServer, RecordedRequest, Step

REPO = Path(__file__).resolve().parents[2]
HALUEVAL = REPO / "corpus" / "halueval"
SAMPLE = 8


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if len(w) >= 3}


def _lexical(request: RecordedRequest) -> Step:
    name = prompt_of(request)
    if name == "claims":  # not asked when claims are the answer's sentences
        return claims_reply(request.messages[-1]["content"][-200:])
    statement = statement_of(request)
    answer = statement.split(" is: ", 1)[1] if " is: " in statement else statement
    evidence = evidence_of(request)
    accept = _words(answer) <= _words(evidence)
    if name == "support":
        quote = " ".join(evidence.split()[:6])
        return support_reply("YES", quote) if accept else support_reply("NO")
    return contradiction_reply("YES" if accept else "NO")


@pytest.fixture
def study(openai_server: FakeOpenAIServer, tmp_path: Path) -> StudyResult:
    openai_server.respond_with(_lexical)
    plan = load_plan(corpus_paths=[HALUEVAL], judge_sample=SAMPLE)
    spec = (
        f"lex=base_url={openai_server.base_url},model=lexical,price_in=0,price_out=0,"
        "api_key_env=HYBRIDJUDGE_TEST_API_KEY"
    )
    from hybridjudge.model import ModelConfig

    return run_study(
        plan,
        repetitions=1,
        model_config=ModelConfig.local(cache_dir=tmp_path / "cache"),
        judges=[spec],
    )


def test_every_scorer_separates_right_from_hallucinated_as_scikit_learn_computes(
    study: StudyResult,
) -> None:
    rows = {r.scorer: r for r in study.analysis.separation}
    assert set(rows) == {"deterministic", "lex:support", "lex:contradiction"}
    labels_of = {o.id: o.base_id is None for o in study.outputs}
    for scorer, row in rows.items():
        labels, scores, left_out = [], [], 0
        for obs in study.observations:
            if obs.scorer != scorer:
                continue
            if obs.status != "scored" or obs.score is None:
                left_out += 1
                continue
            labels.append(labels_of[obs.output_id])
            scores.append(obs.score)
        assert row.auroc == pytest.approx(roc_auc_score(labels, scores), abs=1e-12), scorer
        assert row.unscored_positives + row.unscored_negatives == left_out
        assert row.ci_low is not None
        assert row.ci_high is not None
        assert row.auroc is not None
        assert row.ci_low <= row.auroc <= row.ci_high
    # the deterministic checks score all 100 questions; the judges the sample of 8, each
    # with its hallucinated answer
    assert (rows["deterministic"].positives, rows["deterministic"].negatives) == (100, 100)
    assert rows["lex:support"].positives + rows["lex:support"].unscored_positives == SAMPLE
    assert rows["lex:support"].negatives + rows["lex:support"].unscored_negatives == SAMPLE
    # a right answer's words are in its context far more often than a hallucinated one's
    assert rows["lex:support"].auroc is not None
    assert rows["lex:support"].auroc > 0.5


def test_the_reports_show_the_separation_beside_the_detection(study: StudyResult) -> None:
    md = render_markdown(study)
    detection = md.index("## Detection per defect class")
    separation = md.index("## Separation of right and hallucinated answers (AUROC)")
    assert detection < separation < md.index("## Cheapest judge per defect class")
    row = next(r for r in study.analysis.separation if r.scorer == "lex:support")
    assert row.auroc is not None
    assert row.ci_low is not None
    assert row.ci_high is not None
    cell = f"{row.auroc:.2f} [{row.ci_low:.2f}–{row.ci_high:.2f}]"
    assert "| halueval: right vs hallucinated answers |" in md
    assert cell in md
    assert cell.split(" ")[0] in render_html(study)
