"""The labels leave the main study's figures as they were: re-analysing the observations of
tests/data/studies/main-2026-12-01/study.json (the main job of 2026-12-01, written before labels) with today's rules gives every stored row back,
and adds only OpenGATE's two bases labelled faulty (``clean`` false) as a row of their own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hybridjudge.study import LABELLED_INCORRECT, analyse, load_study

MAIN = (
    Path(__file__).resolve().parents[2]
    / "tests"
    / "data"
    / "studies"
    / "main-2026-12-01"
    / "study.json"
)


def _rows(rows: Any, *key: str) -> dict[tuple[Any, ...], dict[str, Any]]:
    """Rows by key, without the fields the labels added (absent from the stored file)."""
    out = {}
    for row in rows:
        key_of = tuple(getattr(row, k) for k in key)
        out[key_of] = row.model_dump(exclude={"unlabelled", "origin"})
    return out


def test_reanalysing_the_main_study_keeps_every_row_and_adds_the_labelled_ones() -> None:
    study = load_study(MAIN)
    again = analyse(
        list(study.outputs),
        study.observations,
        scorers=list(study.config.scorers),
        repetitions=study.config.repetitions,
        wall_s=study.wall_s,
    )
    stored = study.analysis
    for name, key in (
        ("detection", ("corpus", "defect_class", "origin", "scorer")),
        ("false_alarms", ("corpus", "scorer")),
        ("separation", ("corpus", "scorer")),
        ("stability", ("scorer",)),
        ("unscored", ("scorer",)),
        ("cost", ("scorer",)),
    ):
        before = _rows(getattr(stored, name), *key)
        after = _rows(
            [r for r in getattr(again, name) if getattr(r, "origin", None) != "labelled"], *key
        )
        assert after == before, name
    assert [r.unlabelled for r in again.false_alarms] == [0] * len(again.false_alarms)
    added = [r for r in again.detection if r.origin == "labelled"]
    assert {(r.corpus, r.defect_class) for r in added} == {("opengate", LABELLED_INCORRECT)}
    (checks,) = [r for r in added if r.scorer == "deterministic"]
    # simplify-lab-results and grounding-legal-clause: the paper's failingBases, both flagged
    assert (checks.detected, checks.n) == (2, 2)
    labelled = [r for r in again.separation if r.origin == "labelled"]
    assert {(r.corpus, r.positives, r.negatives) for r in labelled} == {("opengate", 4, 2)}
