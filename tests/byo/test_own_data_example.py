"""examples/own-data: 25 labelled answers of an invented bike shop's help desk, run as its README
says. The report shows the row of the answers labelled incorrect, the false alarms counted on the
answers labelled correct only, the unlabelled counted apart, and per scorer how well it separated
the right answers from the wrong ones. Every figure is worked out by hand below.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from hybridjudge.cli import main
from hybridjudge.study import LABELLED_INCORRECT, StudyResult, load_study
from tests.byo._judge import TextJudge
from tests.support.openai_server import FakeOpenAIServer

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "own-data"
RECORDS = [
    json.loads(line)
    for line in (EXAMPLE / "support.jsonl").read_text(encoding="utf-8").splitlines()
]
RIGHT = [r for r in RECORDS if r.get("label") == "correct"]
WRONG = [r for r in RECORDS if r.get("label") == "incorrect"]


def test_the_example_is_what_its_readme_says() -> None:
    assert (len(RECORDS), len(RIGHT), len(WRONG)) == (25, 13, 10)
    assert all(r.get("why") for r in WRONG)  # each wrong answer says what is wrong with it
    assert "CC0" in (EXAMPLE / "LICENSE").read_text(encoding="utf-8")


def _import(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    corpus = tmp_path / "corpus" / "support"
    code = main(["corpus", "import", str(EXAMPLE / "support.jsonl"), "--out", str(corpus)])
    assert code == 0
    assert "labels: 13 correct, 10 incorrect, 2 unlabelled" in capsys.readouterr().out
    return corpus


def _flagged(study: StudyResult, scorer: str) -> set[str]:
    return {o.output_id for o in study.observations if o.scorer == scorer and o.flagged}


def test_deterministic_report_on_the_labelled_example(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    corpus = _import(tmp_path, capsys)
    mutations = tmp_path / "support.mutations.jsonl"
    assert main(["mutate", str(corpus), "--mutation-seed", "0", "--out", str(mutations)]) == 0
    out = tmp_path / "results"
    code = main(
        [
            "study",
            "run",
            "--corpus",
            str(corpus),
            "--mutations",
            str(mutations),
            "--scorers",
            "deterministic",
            "--out",
            str(out),
        ]
    )
    assert code == 0
    terminal = capsys.readouterr().err
    study = load_study(out)

    # by hand: the checks flag every wrong answer whose figure or required fact is off (8) and
    # miss the contradiction and the inversion, which keep every figure of the context
    (wrong,) = [r for r in study.analysis.detection if r.origin == "labelled"]
    assert (wrong.defect_class, wrong.detected, wrong.n) == (LABELLED_INCORRECT, 8, 10)
    missed = {f"{r['id']}::base" for r in WRONG} - _flagged(study, "deterministic")
    assert missed == {"sunday-open::base", "trade-in-age::base"}
    # false alarms on the 13 right answers only (none flagged); the 2 unlabelled counted apart
    (fa,) = study.analysis.false_alarms
    assert (fa.n, fa.flagged_every, fa.unlabelled) == (13, 0, 2)
    # AUROC: right answers score 1; wrong ones 0 (8) or 1 (2): (13 x 8 + 13 x 2 / 2) / 130
    (sep,) = study.analysis.separation
    assert sep.origin == "labelled"
    assert sep.auroc == pytest.approx((13 * 8 + 13 * 2 / 2) / 130)
    # the mutants of these answers are measured per class as usual, whatever the base's label
    mutated = [r for r in study.analysis.detection if r.origin == "mutator"]
    assert {r.defect_class for r in mutated} >= {"omission", "fabricated_number"}

    md = (out / "report.md").read_text(encoding="utf-8")
    assert "| labelled incorrect | 8/10 (80%) [49–94%] |" in md  # Wilson 95%, by hand
    assert "## Your labelled answers: which scorer can you trust?" in md
    assert (
        "| right answers flagged (labelled correct: false alarms) | *0/13 (0%) [0–23%] "
        "(unlabelled: 2, not in the rate)* |"
    ) in md
    assert "| AUROC right vs wrong [95% bootstrap] | 0.90 [" in md
    assert "support: 13 answers labelled correct, 10 labelled incorrect; unlabelled: 2" in md
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "Your labelled answers: which scorer can you trust?" in page
    assert "0/13 (0%)" in page
    assert "which scorer can you trust on your labelled answers?" in terminal
    # the example's README shows these rows as the report writes them
    readme = (EXAMPLE / "README.md").read_text(encoding="utf-8")
    for row in re.findall(r"^\| (?:wrong|right|AUROC).*\|$", readme, flags=re.M):
        label, value = (cell.strip() for cell in row.strip("|").split("|"))
        assert f"| {label} |" in md
        assert f"| {label} | {value} |" in md.replace("*", "")


def test_judges_on_the_labelled_example(
    tmp_path: Path, openai_server: FakeOpenAIServer, capsys: pytest.CaptureFixture[str]
) -> None:
    # A scripted judge faithful exactly to the sentences of the right answers (it is told the
    # labels: this test checks what the report says per scorer, not a model's quality)
    openai_server.respond_with(TextJudge(r["answer"] for r in RIGHT))
    corpus = _import(tmp_path, capsys)
    out = tmp_path / "results"
    code = main(
        [
            "study",
            "run",
            "--corpus",
            str(corpus),
            "--scorers",
            "deterministic,support,contradiction",
            "--out",
            str(out),
            "--backend",
            "openai",
            "--base-url",
            openai_server.base_url,
            "--model",
            "fake-model",
            "--cache-dir",
            str(tmp_path / "cache"),
        ]
    )
    assert code == 0
    study = load_study(out)
    rows = {r.scorer: r for r in study.analysis.detection if r.origin == "labelled"}
    alarms = {r.scorer: r for r in study.analysis.false_alarms}
    auroc = {r.scorer: r.auroc for r in study.analysis.separation}
    # every wrong answer states something no right answer does (score 0, flagged), except the
    # refusal, which both judges score as an abstention (1.0, unflagged): 9 of 10
    for judge in ("support", "contradiction"):
        assert (rows[judge].detected, rows[judge].n) == (9, 10), judge
        assert f"{next(r['id'] for r in WRONG if 'refusal' in r['why'])}::base" not in (
            _flagged(study, judge)
        )
    # contradiction finds every right answer faithful: 0/13; AUROC (13 x 9 + 13 x 1 / 2) / 130
    assert (alarms["contradiction"].flagged_every, alarms["contradiction"].n) == (0, 13)
    assert auroc["contradiction"] == pytest.approx((13 * 9 + 13 / 2) / 130)
    # support also asks for a quote holding the claim's figures: the closest context sentence
    # to "Charging the Volt 500 ..." lacks "500", the two-clause shipping answer spans two
    # sentences, and helmet-crash's "No." is a claim the context does not state (score 0.5)
    right_flagged = {f"{r['id']}::base" for r in RIGHT} & _flagged(study, "support")
    assert right_flagged == {"charging-time::base", "free-shipping::base", "helmet-crash::base"}
    assert (alarms["support"].flagged_every, alarms["support"].n) == (3, 13)
    # right scores: 10 x 1.0, 2 x 0, 1 x 0.5; wrong: 9 x 0, 1 x 1.0. Pairs won (ties half):
    # 10 x 9 + 10 x 1 / 2 + 2 x 9 / 2 + 9 = 113 of 130
    assert auroc["support"] == pytest.approx(113 / 130)
    md = (out / "report.md").read_text(encoding="utf-8")
    header = "| support: your labelled answers | deterministic | support | contradiction |"
    assert header in md
    assert (
        "| wrong answers flagged (labelled incorrect: detection) | 8/10 (80%) [49–94%] | "
        "9/10 (90%) [60–98%] | 9/10 (90%) [60–98%] |"
    ) in md
    assert "The row *labelled incorrect* holds the answers labelled incorrect" in md
    assert (
        "support / labelled incorrect: no LLM scorer detects every answer labelled incorrect in "
        "every repetition (best: support, 9/10)."
    ) in md
