"""A small hand-built study used by the report and gate tests."""

from __future__ import annotations

from hybridjudge.study import (
    CorpusRecord,
    Observation,
    OutputRecord,
    StudyConfig,
    StudyResult,
    analyse,
)

SCORERS = ("deterministic", "support")


def make_study(
    *, detected_inversions: int = 2, clean_flagged: bool = False, repetitions: int = 2
) -> StudyResult:
    """Three bases; 3 omission, 3 fabricated-number and 4 inversion mutants (distinct counts so a
    pooled figure can never coincide with a cell)."""
    outputs = [
        OutputRecord(
            id=f"b{i}",
            corpus="toy",
            case_id=f"c{i}",
            base_id=None,
            defect=None,
            origin="base",
            clean=True,
            judged=True,
        )
        for i in range(3)
    ]
    plan = [("omission", 3), ("fabricated_number", 3), ("inversion", 4)]
    for defect, n in plan:
        for k in range(n):
            outputs.append(
                OutputRecord(
                    id=f"{defect}{k}",
                    corpus="toy",
                    case_id=f"c{k % 3}",
                    base_id=f"b{k % 3}",
                    defect=defect,
                    origin="mutator",
                    clean=None,
                    judged=True,
                )
            )
    obs: list[Observation] = []
    for rep in range(repetitions):
        for o in outputs:
            det_issue: tuple[str, ...] = ()
            score = 1.0
            if o.defect == "omission":
                det_issue = ("missing_anchor: x",)  # deterministic sees all 3
            elif o.defect == "fabricated_number":
                det_issue = ("ungrounded_number: 9",) if o.id != "fabricated_number2" else ()
                score = 0.5  # judge sees all 3
            elif o.defect == "inversion":
                idx = int(o.id[-1])
                score = 0.5 if idx < detected_inversions else 1.0
            if o.id == "b0" and clean_flagged:
                score = 0.5
            obs.append(
                Observation(
                    output_id=o.id,
                    scorer="deterministic",
                    repetition=rep,
                    status="scored",
                    score=0.0 if det_issue else 1.0,
                    flagged=bool(det_issue),
                    issues=det_issue,
                )
            )
            obs.append(
                Observation(
                    output_id=o.id,
                    scorer="support",
                    repetition=rep,
                    status="scored",
                    score=score,
                    flagged=score < 1.0,
                )
            )
    analysis = analyse(
        outputs,
        obs,
        scorers=list(SCORERS),
        repetitions=repetitions,
        wall_s={"deterministic": 0.001, "judges": 2.0},
    )
    return StudyResult(
        hybridjudge_version="test",
        created_at="2026-01-01T00:00:00+00:00",
        config=StudyConfig(
            scorers=SCORERS,
            repetitions=repetitions,
            thresholds={"support": 1.0},
            judge_mode="separate",
            model={"backend": "openai", "model": "toy"},
        ),
        corpora=(
            CorpusRecord(name="toy", path="corpus/toy", files_sha256={"cases.jsonl": "0" * 64}),
        ),
        mutation_sets=(),
        sampling=None,
        outputs=tuple(outputs),
        observations=tuple(obs),
        wall_s={"deterministic": 0.001, "judges": 2.0},
        analysis=analysis,
    )
