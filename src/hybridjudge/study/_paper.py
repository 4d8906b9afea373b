"""The OpenGATE paper's own per-repetition scores, analysed with our rules.

``corpus/opengate/paper-results/`` holds the paper's files unchanged (MIT, nickjlamb/opengate):
``deterministic.json``, ``ragas.json`` and ``deepeval.json`` (gpt-4o, temperature 0, 5
repetitions) and ``summary.json``. We turn each score into an :class:`Observation` and run the
same :func:`analyse` as on our own scorers, so the README's comparison uses one set of rules.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hybridjudge._errors import InputError
from hybridjudge.study._analysis import analyse, reacted
from hybridjudge.study._models import (
    Observation,
    OutputRecord,
    ReferenceDifference,
    StudyAnalysis,
)

if TYPE_CHECKING:
    from hybridjudge.corpus import Corpus

__all__ = ["PAPER_ARMS", "paper_observations", "paper_reference"]

PAPER_ARMS = {
    "deterministic.json": "paper: OpenGATE deterministic",
    "ragas.json": "paper: RAGAS (gpt-4o)",
    "deepeval.json": "paper: DeepEval (gpt-4o)",
}
PAPER_THRESHOLD = 1.0


def _load(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise InputError(
            f"{path}: cannot read the paper's results ({exc}); rebuild the corpus with scripts/build_corpus.py"
        ) from None
    if not isinstance(data, dict) or "runs" not in data:
        raise InputError(f"{path}: not an OpenGATE exp-2 results file (no 'runs')")
    return data


def paper_observations(results_dir: Path) -> list[Observation]:
    """Every per-repetition score of the paper's three arms as observations."""
    observations: list[Observation] = []
    for filename, scorer in PAPER_ARMS.items():
        data = _load(results_dir / filename)
        deterministic = "deterministic" in filename
        for run in data["runs"]:
            rep = int(run["repeat"]) - 1
            for row in run["scores"]:
                score = row.get("score")
                if score is None:
                    observations.append(
                        Observation(
                            output_id=row["outputId"],
                            scorer=scorer,
                            repetition=rep,
                            status="unscored",
                            unscored_reason="no_score_in_paper",
                        )
                    )
                    continue
                flagged = (
                    (not row.get("pass", True)) if deterministic else float(score) < PAPER_THRESHOLD
                )
                observations.append(
                    Observation(
                        output_id=row["outputId"],
                        scorer=scorer,
                        repetition=rep,
                        status="scored",
                        score=float(score),
                        flagged=flagged,
                        issues=tuple(row.get("issues", ())),
                    )
                )
    return observations


def paper_reference(
    corpus_dir: Path,
    corpus: Corpus,
    ours: Sequence[OutputRecord] = (),
    our_observations: Sequence[Observation] = (),
) -> tuple[StudyAnalysis, str, tuple[ReferenceDifference, ...]] | None:
    """The paper's arms analysed like ours, or ``None`` when ``corpus_dir`` has no paper results.

    Returns the analysis, a note on its source, and the paper mutants on which our deterministic
    scorer (``our_observations`` of the outputs ``ours``) reacts differently from the paper's.
    """
    results_dir = corpus_dir / "paper-results"
    if not (results_dir / "ragas.json").is_file():
        return None
    observations = paper_observations(results_dir)
    scored_ids = {o.output_id for o in observations}
    records = [
        OutputRecord(
            id=o.id,
            corpus=corpus.name,
            case_id=o.case_id,
            base_id=o.base_id,
            defect=o.defect,
            origin=o.origin,
            clean=o.clean,
            judged=True,
        )
        for o in corpus.outputs
        if o.id in scored_ids
    ]
    missing = scored_ids - {r.id for r in records}
    if missing:
        raise InputError(
            f"{results_dir}: the paper scored outputs the corpus does not contain: "
            f"{', '.join(sorted(missing)[:5])}; rebuild the corpus with scripts/build_corpus.py"
        )
    repetitions = 1 + max(o.repetition for o in observations)
    analysis = analyse(
        records, observations, scorers=list(PAPER_ARMS.values()), repetitions=repetitions
    )
    analysis = analysis.model_copy(update={"cost": ()})
    summary_path = results_dir / "summary.json"
    cost_note = ""
    if summary_path.is_file():
        summary = json.loads(summary_path.read_text(encoding="utf-8"))
        per_1000 = summary.get("costPer1000", {})
        parts = [
            f"{arm} ${vals['usd']:.2f}"
            for arm, vals in per_1000.items()
            if isinstance(vals, dict) and isinstance(vals.get("usd"), int | float)
        ]
        if parts:
            cost_note = " Cost per 1,000 evaluations in the paper: " + ", ".join(parts) + "."
    note = (
        "OpenGATE paper, experiment 2 (nickjlamb/opengate, MIT): per-repetition scores of its "
        f"deterministic arm, RAGAS and DeepEval with gpt-4o at temperature 0, {repetitions} "
        f"repetitions, threshold {PAPER_THRESHOLD:g}, analysed with hybridjudge's rules."
        + cost_note
    )
    return analysis, note, _differences(ours, our_observations, observations)


def _differences(
    outputs: Sequence[OutputRecord],
    observations: Sequence[Observation],
    paper: Sequence[Observation],
) -> tuple[ReferenceDifference, ...]:
    """Paper mutants on which our deterministic scorer reacts differently from the paper's."""
    arm = PAPER_ARMS["deterministic.json"]
    theirs = {o.output_id: o for o in paper if o.scorer == arm and o.repetition == 0}
    ours = {
        o.output_id: o for o in observations if o.scorer == "deterministic" and o.repetition == 0
    }
    diffs = []
    for rec in outputs:
        if rec.origin != "paper" or rec.base_id is None:
            continue
        mine, base = ours.get(rec.id), ours.get(rec.base_id)
        their, their_base = theirs.get(rec.id), theirs.get(rec.base_id)
        if mine is None or base is None or their is None or their_base is None:
            continue
        a, b = reacted(mine, base), reacted(their, their_base)
        if a is None or b is None or a == b:
            continue
        diffs.append(
            ReferenceDifference(
                output_id=rec.id,
                defect_class=rec.defect or "",
                ours_reacted=a,
                paper_reacted=b,
                ours_new_issues=tuple(sorted(set(mine.issues) - set(base.issues))),
                paper_new_issues=tuple(sorted(set(their.issues) - set(their_base.issues))),
            )
        )
    return tuple(diffs)
