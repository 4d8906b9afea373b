"""The separation of right and hallucinated answers (AUROC per scorer), and reading old files.

Golden values come from scikit-learn's ``roc_auc_score`` on the same labels and per-output mean
scores (computed here independently of the study's code).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from sklearn.metrics import roc_auc_score

from hybridjudge._errors import InputError
from hybridjudge.study import (
    STUDY_FORMAT_VERSION,
    Observation,
    OutputRecord,
    analyse,
    load_study,
    save_study,
    separation_rows,
)

REPO = Path(__file__).resolve().parents[2]


def _outputs(questions: int) -> list[OutputRecord]:
    outputs = []
    for q in range(questions):
        outputs.append(
            OutputRecord(
                id=f"q{q}::base",
                corpus="halu",
                case_id=f"q{q}",
                base_id=None,
                defect="",
                origin="base",
                clean=True,
                judged=True,
            ).model_copy(update={"defect": None})
        )
        outputs.append(
            OutputRecord(
                id=f"q{q}::hallucinated",
                corpus="halu",
                case_id=f"q{q}",
                base_id=f"q{q}::base",
                defect="natural",
                origin="natural",
                clean=None,
                judged=True,
            )
        )
    return outputs


@pytest.mark.parametrize("seed", range(5))
def test_auroc_per_scorer_matches_scikit_learn_with_ties_repetitions_and_unscored(
    seed: int,
) -> None:
    rng = random.Random(seed)
    outputs = _outputs(40)
    observations: list[Observation] = []
    for out in outputs:
        right = out.base_id is None
        for rep in range(2):
            # scores on a coarse grid (many ties), right answers higher on average
            score = min(1.0, max(0.0, round(rng.gauss(0.7 if right else 0.4, 0.3) * 4) / 4))
            unscored = rng.random() < 0.1
            observations.append(
                Observation(
                    output_id=out.id,
                    scorer="j:support",
                    repetition=rep,
                    status="unscored" if unscored else "scored",
                    score=None if unscored else score,
                    flagged=None if unscored else score < 1.0,
                    unscored_reason="parse_failure" if unscored else None,
                )
            )
    (row,) = separation_rows(outputs, observations, scorers=["j:support"], repetitions=2, seed=seed)
    # independently: per output, the mean of its two scores, or left out if either is missing
    labels, scores, left_out = [], [], {True: 0, False: 0}
    for out in outputs:
        mine = [o for o in observations if o.output_id == out.id]
        if any(o.score is None for o in mine):
            left_out[out.base_id is None] += 1
            continue
        labels.append(out.base_id is None)
        scores.append(sum(o.score or 0.0 for o in mine) / 2)
    assert row.auroc == pytest.approx(roc_auc_score(labels, scores), abs=1e-12)
    assert (row.positives, row.negatives) == (sum(labels), len(labels) - sum(labels))
    assert (row.unscored_positives, row.unscored_negatives) == (left_out[True], left_out[False])
    assert row.unscored_positives + row.unscored_negatives > 0  # the case is exercised
    assert row.ci_low is not None
    assert row.ci_high is not None
    assert row.auroc is not None
    assert row.ci_low <= row.auroc <= row.ci_high
    assert row.ci_high - row.ci_low > 0.05  # a real interval on 80 answers, not a point
    # the same observations and seed give the same interval
    (again,) = separation_rows(
        outputs, observations, scorers=["j:support"], repetitions=2, seed=seed
    )
    assert again == row


def test_one_group_without_a_scored_answer_has_no_auroc() -> None:
    outputs = _outputs(3)
    observations = [
        Observation(
            output_id=o.id,
            scorer="support",
            repetition=0,
            status="scored" if o.base_id is None else "unscored",
            score=1.0 if o.base_id is None else None,
            flagged=False if o.base_id is None else None,
            unscored_reason=None if o.base_id is None else "model_error",
        )
        for o in outputs
    ]
    (row,) = separation_rows(outputs, observations, scorers=["support"], repetitions=1)
    assert row.auroc is None
    assert row.ci_low is None
    assert (row.positives, row.negatives, row.unscored_negatives) == (3, 0, 3)


def test_corpora_without_natural_hallucinations_have_no_separation_rows() -> None:
    outputs = [o for o in _outputs(3) if o.base_id is None]
    observations = [
        Observation(
            output_id=o.id,
            scorer="support",
            repetition=0,
            status="scored",
            score=1.0,
            flagged=False,
        )
        for o in outputs
    ]
    analysis = analyse(outputs, observations, scorers=["support"], repetitions=1)
    assert analysis.separation == ()


def test_a_version_1_study_still_reads(tmp_path: Path) -> None:
    """``tests/data/studies/main-2026-12-01/study.json`` (the main job of 2026-12-01) was written as format version 1 (one judge, no separation
    rows); it reads as the current version and saves as one."""
    old = json.loads(
        (REPO / "tests" / "data" / "studies" / "main-2026-12-01" / "study.json").read_text(
            encoding="utf-8"
        )
    )
    old["format_version"] = 1
    for key in ("judge_usage_by_judge",):
        old.pop(key, None)
    old["config"].pop("judges", None)
    for key in ("separation", "cheapest"):
        old["analysis"].pop(key, None)
    path = tmp_path / "study.json"
    path.write_text(json.dumps(old), encoding="utf-8")
    study = load_study(path)
    assert study.format_version == STUDY_FORMAT_VERSION
    assert study.config.judges == ()
    assert study.analysis.separation == ()
    assert study.analysis.detection  # the old tables are all there
    saved = json.loads(save_study(study, tmp_path / "again.json").read_text(encoding="utf-8"))
    assert saved["format_version"] == STUDY_FORMAT_VERSION
    load_study(tmp_path / "again.json")


def test_an_unknown_version_is_refused_with_the_fix(tmp_path: Path) -> None:
    data = json.loads(
        (REPO / "tests" / "data" / "studies" / "main-2026-12-01" / "study.json").read_text(
            encoding="utf-8"
        )
    )
    data["format_version"] = 99
    path = tmp_path / "study.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InputError, match=r"version 99 is not supported .*reads versions 1, 2"):
        load_study(path)
