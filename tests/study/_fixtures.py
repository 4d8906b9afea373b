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


JUDGES = ("small", "mid", "large")


def make_judges_study() -> StudyResult:
    """:func:`make_study` with three named judges (support and contradiction each, priced 1, 10
    and 100 dollars per call) and a second corpus of natural hallucinations (8 questions, a right
    and a hallucinated answer each), for the multi-judge reports."""
    import random

    from hybridjudge.model import Usage
    from hybridjudge.study import JudgeRecord

    base = make_study()
    outputs = list(base.outputs)
    for q in range(8):
        outputs.append(
            OutputRecord(
                id=f"h{q}",
                corpus="halu",
                case_id=f"h{q}",
                base_id=None,
                defect=None,
                origin="base",
                clean=True,
                judged=True,
            )
        )
        outputs.append(
            OutputRecord(
                id=f"h{q}::hallucinated",
                corpus="halu",
                case_id=f"h{q}",
                base_id=f"h{q}",
                defect="natural",
                origin="natural",
                clean=None,
                judged=True,
            )
        )
    rng = random.Random(7)
    obs = [o for o in base.observations if o.scorer == "deterministic"]
    for o in outputs[len(base.outputs) :]:
        for rep in range(2):
            obs.append(
                Observation(
                    output_id=o.id,
                    scorer="deterministic",
                    repetition=rep,
                    status="scored",
                    score=1.0,
                    flagged=False,
                )
            )
    scorers = ["deterministic"]
    for level, judge in enumerate(JUDGES):
        for kind in ("support", "contradiction"):
            name = f"{judge}:{kind}"
            scorers.append(name)
            for seen in base.observations:
                if seen.scorer != "support":
                    continue
                # a larger judge sees more: `level` more inversions than the small one
                score = seen.score
                if seen.output_id.startswith("inversion") and int(seen.output_id[-1]) < 1 + level:
                    score = 0.5
                obs.append(_priced(seen, name, score, 10.0**level, kind))
            for o in outputs[len(base.outputs) :]:
                bad = o.base_id is not None
                for rep in range(2):
                    score = round(
                        min(1.0, max(0.0, rng.gauss(0.35 + 0.15 * level if bad else 0.8, 0.25))), 2
                    )
                    unscored = judge == "small" and kind == "contradiction" and o.id == "h0"
                    obs.append(
                        Observation(
                            output_id=o.id,
                            scorer=name,
                            repetition=rep,
                            status="unscored" if unscored else "scored",
                            score=None if unscored else score,
                            flagged=None if unscored else score < 1.0,
                            unscored_reason="parse_failure" if unscored else None,
                            usage=Usage(
                                calls=2,
                                prompt_tokens=400,
                                completion_tokens=20,
                                cost_usd=2 * 10.0**level / 1000,
                                latency_s=0.5 + level,
                            ),
                            latency_ms=500.0 + 1000 * level,
                        )
                    )
    wall = {"deterministic": 0.001} | {f"judges:{j}": 2.0 + i for i, j in enumerate(JUDGES)}
    analysis = analyse(outputs, obs, scorers=scorers, repetitions=2, wall_s=wall)
    config = base.config.model_copy(
        update={
            "scorers": tuple(scorers),
            "thresholds": dict.fromkeys(scorers[1:], 1.0),
            "model": {},
            "judges": tuple(
                JudgeRecord(
                    name=j,
                    model={
                        "backend": "openai",
                        "endpoint": f"https://{j}.example/v1",
                        "model": f"{j}-model",
                        "temperature": 0.0,
                        "seed": 0,
                        "max_tokens": 1024,
                        "price_input_per_mtok": 10.0**i,
                        "price_output_per_mtok": 2 * 10.0**i,
                    },
                )
                for i, j in enumerate(JUDGES)
            ),
        }
    )
    corpora = (*base.corpora, CorpusRecord(name="halu", path="corpus/halu", files_sha256={}))
    return base.model_copy(
        update={
            "config": config,
            "outputs": tuple(outputs),
            "observations": tuple(obs),
            "analysis": analysis,
            "wall_s": wall,
            "corpora": corpora,
        }
    )


def _priced(
    o: Observation, scorer: str, score: float | None, price: float, kind: str
) -> Observation:
    from hybridjudge.model import Usage

    return o.model_copy(
        update={
            "scorer": scorer,
            "score": score,
            "flagged": None if score is None else score < 1.0,
            "usage": Usage(
                calls=2,
                prompt_tokens=400,
                completion_tokens=20 if kind == "support" else 30,
                cost_usd=(2 if kind == "support" else 3) * price / 1000,
                latency_s=0.5,
            ),
            "latency_ms": 500.0,
        }
    )
