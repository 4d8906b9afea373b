"""What the viewer shows of a study: every output with its text, its case, the checks' findings
with their spans, and each scorer's verdicts (issue 35, item 3).

``study.json`` keeps the observations, not the texts: :func:`view_data` reads the corpora and
mutation files the study names (the same files: their sha256 is checked), and runs the
deterministic checks again for the spans of their findings (deterministic: the same findings the
study recorded, now with where they are). Nothing here calls a model.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from hybridjudge._errors import InputError
from hybridjudge.study._models import JudgedClaim, Observation, StudyResult

__all__ = [
    "VIEW_FORMAT_VERSION",
    "ViewClaim",
    "ViewData",
    "ViewFinding",
    "ViewOutput",
    "ViewScore",
    "view_data",
]

VIEW_FORMAT_VERSION = 2
"""Version of :class:`ViewData` (embedded in the viewer page as JSON). Version 2 added each
judge's verdict per claim with its quote (:class:`ViewClaim`: ``faithful``, ``label``,
``quote``, ``quote_found``, ``passage``, ``quote_start``)."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ViewFinding(_Frozen):
    """One finding of the deterministic checks on an output."""

    kind: str
    """The finding's kind (``missing_anchor``, ``untraceable_number``, ...)."""
    message: str
    """What is wrong, in words."""
    start: int | None = None
    """Where it is in the answer (character offset), when it has a place."""
    end: int | None = None
    """End of that span (exclusive)."""
    evidence: str | None = None
    """The context text it was compared with, when there is one."""
    passage: int | None = None
    """Index of the context passage holding :attr:`evidence` (``None``: not found as written)."""
    evidence_start: int | None = None
    """Offset of :attr:`evidence` in that passage."""


class ViewClaim(_Frozen):
    """A judge's verdict on one claim, where the claim stands in the answer (when it is one of
    its sentences) and where the quote the judge gave stands in the context."""

    scorer: str
    """The judge."""
    repetition: int
    """Repetition index."""
    claim: str
    """The claim as the judge recorded it."""
    start: int | None = None
    """Where it is in the answer (``None``: the judge rephrased it)."""
    end: int | None = None
    """End of that span (exclusive)."""
    faithful: bool = False
    """Whether the judge accepted the claim (a study before format 6 records only the claims it
    did not accept)."""
    label: str | None = None
    """The verdict (``supported``, ``not_supported``, ``contradicted``, ...; ``None``: a study
    before format 6, which kept only the unaccepted claims)."""
    quote: str | None = None
    """The context span the judge quoted for it, when it gave one."""
    quote_found: bool | None = None
    """Whether the judge's quote is in the context, as the judge checked it (``None``: no quote)."""
    passage: int | None = None
    """Index of the context passage holding :attr:`quote` as written (``None``: not found as
    written, or no quote)."""
    quote_start: int | None = None
    """Offset of :attr:`quote` in that passage."""


class ViewScore(_Frozen):
    """One scorer's verdict on an output, in one repetition."""

    scorer: str
    """The scorer's name."""
    repetition: int
    """Repetition index."""
    status: Literal["scored", "unscored"]
    """Scored, or why not in :attr:`unscored_reason`."""
    score: float | None
    """The score (1 faithful ... 0), when scored."""
    flagged: bool | None
    """Whether the scorer flagged the output (below its threshold, or a finding)."""
    issues: tuple[str, ...]
    """What it found."""
    unscored_reason: str | None
    """Why it is unscored."""


class ViewOutput(_Frozen):
    """One output of the study, as the viewer shows it."""

    id: str
    """The output's id."""
    corpus: str
    """Its corpus."""
    case_id: str
    """Its case."""
    origin: str
    """``base``, ``mutator``, ``paper`` or ``natural``."""
    defect: str | None
    """The defect injected (a mutant), ``natural`` for a natural hallucination, else ``None``."""
    defect_detail: str | None
    """What the mutator changed, in words."""
    base_id: str | None
    """The base a mutant was made from."""
    base_text: str | None
    """That base's answer."""
    clean: bool | None
    """The base's label (true: right, false: wrong, ``None``: unlabelled)."""
    question: str | None
    """The case's question."""
    answer: str
    """The output's text."""
    context: tuple[str, ...]
    """The context passages it was scored against (a context mutant's own, else its case's)."""
    findings: tuple[ViewFinding, ...]
    """The deterministic checks' findings (empty: grounded)."""
    claims: tuple[ViewClaim, ...] = ()
    """Each judge's verdict per claim, located in the answer, its quote located in the context
    (a study before format 6: only the claims a judge did not accept)."""
    blame: str | None = None
    """Whose failure it is (``retrieval``, ``generation``, ``both``, ``unknown``; ``None``: no
    scorer failed it), from the study's blame."""
    blame_evidence: str | None = None
    """The evidence for that call."""
    scores: tuple[ViewScore, ...]
    """Every scorer's verdicts on it, by scorer then repetition."""
    disagreement: Literal["checks_only", "judges_only"] | None
    """``checks_only``: the checks flag it and no judge does; ``judges_only``: a judge flags it
    and the checks do not (in any repetition); ``None``: they agree, or one side did not score."""


class ViewData(_Frozen):
    """Everything the viewer page shows of one study."""

    format: Literal["hybridjudge.view"] = "hybridjudge.view"
    """Format name."""
    format_version: int = VIEW_FORMAT_VERSION
    """Format version."""
    title: str
    """What the study is (its corpora and scorers)."""
    scorers: tuple[str, ...]
    """The study's scorers, in order."""
    corpora: tuple[str, ...]
    """The study's corpora."""
    defects: tuple[str, ...]
    """The defect classes present (``base`` for outputs without one)."""
    outputs: tuple[ViewOutput, ...]
    """Every output, in the study's order."""


def _resolve(recorded: str, roots: tuple[Path, ...]) -> Path:
    path = Path(recorded)
    for candidate in (path, *(root / path for root in roots)):
        if candidate.exists():
            return candidate
    raise InputError(
        f"the study names {recorded!r}, which is not found here (looked in "
        f"{', '.join(str(r) for r in roots) or 'the current folder'}); run `hybridjudge view` "
        "from the folder the study ran in, or pass --root FOLDER",
        code="view_input_missing",
    )


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _locate(evidence: str | None, context: tuple[str, ...]) -> tuple[int | None, int | None]:
    if not evidence:
        return None, None
    for index, passage in enumerate(context):
        at = passage.find(evidence)
        folded = passage.casefold()
        if at < 0 and len(folded) == len(passage) and len(evidence.casefold()) == len(evidence):
            at = folded.find(evidence.casefold())  # the offsets stay the passage's
        if at >= 0:
            return index, at
    return None, None


def _claims(
    observed: list[Observation], answer: str, context: tuple[str, ...], checks: str
) -> tuple[ViewClaim, ...]:
    claims = []
    for obs in observed:
        if obs.scorer == checks or obs.status != "scored":
            continue
        # a study of format 6 keeps every verdict with its quote; an older one, the unaccepted
        # claims only
        judged = obs.verdicts or tuple(
            JudgedClaim(claim=c, label="", faithful=False) for c in obs.issues
        )
        for verdict in judged:
            at = answer.find(verdict.claim)
            passage, quote_at = _locate(verdict.quote, context)
            claims.append(
                ViewClaim(
                    scorer=obs.scorer,
                    repetition=obs.repetition,
                    claim=verdict.claim,
                    start=at if at >= 0 else None,
                    end=at + len(verdict.claim) if at >= 0 else None,
                    faithful=verdict.faithful,
                    label=verdict.label or None,
                    quote=verdict.quote,
                    quote_found=verdict.quote_found,
                    passage=passage,
                    quote_start=quote_at,
                )
            )
    return tuple(claims)


def _disagreement(
    scores: list[Observation], checks: str
) -> Literal["checks_only", "judges_only"] | None:
    checked = [o.flagged for o in scores if o.scorer == checks and o.status == "scored"]
    judged = [o.flagged for o in scores if o.scorer != checks and o.status == "scored"]
    if not checked or not judged:
        return None
    if any(checked) and not any(judged):
        return "checks_only"
    if any(judged) and not any(checked):
        return "judges_only"
    return None


def view_data(study: StudyResult, *, roots: tuple[Path, ...] = ()) -> ViewData:
    """The viewer's data for ``study``: its outputs with texts, findings and verdicts.

    Args:
        study: a loaded ``study.json``.
        roots: folders to look in for the corpora and mutation files the study names, when they
            are not found as recorded (relative to the current folder).

    Raises:
        InputError: a corpus or mutation file is missing (``view_input_missing``) or is not the
            one the study read (``view_input_changed``: its sha256 differs).
    """
    from hybridjudge.grounding import CheckRecord, check_many
    from hybridjudge.study._run import DETERMINISTIC, load_plan

    corpus_paths = [_resolve(c.path, roots) for c in study.corpora]
    mutation_paths = [_resolve(m.path, roots) for m in study.mutation_sets]
    for mset, path in zip(study.mutation_sets, mutation_paths, strict=True):
        if _sha256(path) != mset.sha256:
            raise InputError(
                f"{path} is not the mutation file the study read (its sha256 differs); rerun "
                "the study, or view it where its inputs are as they were",
                code="view_input_changed",
            )
    plan = load_plan(corpus_paths=corpus_paths, mutation_paths=mutation_paths)
    for source, corpus in zip(study.corpora, plan.corpora, strict=True):
        if dict(corpus.files_sha256) != dict(source.files_sha256):
            raise InputError(
                f"corpus {source.name!r} at {source.path} is not the one the study read (its "
                "files' sha256 differ); rerun the study, or view it where it was",
                code="view_input_changed",
            )
    blamed = {b.output_id: b for b in study.blame}
    by_output: dict[str, list[Observation]] = defaultdict(list)
    for obs in study.observations:
        by_output[obs.output_id].append(obs)
    outputs = {o.id: o for o in plan.outputs}
    wanted = [r for r in study.outputs if r.id in outputs]
    batch = check_many(
        CheckRecord.model_construct(
            id=r.id,
            answer=outputs[r.id].text,
            context=plan.context_of(outputs[r.id]),  # a context mutant's own
            question=plan.case_of(outputs[r.id]).question,
            anchors=plan.case_of(outputs[r.id]).anchors,
            answerable=plan.case_of(outputs[r.id]).answerable,
            allowed_numbers=plan.case_of(outputs[r.id]).allowed_numbers,
            metadata={},
        )
        for r in wanted
    )
    views = []
    for record, outcome in zip(wanted, batch.outcomes, strict=True):
        out = outputs[record.id]
        case = plan.case_of(out)
        context = plan.context_of(out)
        findings = []
        for f in outcome.report.findings if outcome.report is not None else ():
            passage, at = _locate(f.evidence, context)
            findings.append(
                ViewFinding(
                    kind=str(f.kind),
                    message=f.message,
                    start=f.span[0] if f.span else None,
                    end=f.span[1] if f.span else None,
                    evidence=f.evidence,
                    passage=passage,
                    evidence_start=at,
                )
            )
        observed = sorted(
            by_output[record.id],
            key=lambda o: (
                study.config.scorers.index(o.scorer) if o.scorer in study.config.scorers else 99,
                o.repetition,
            ),
        )
        base = outputs.get(record.base_id) if record.base_id else None
        views.append(
            ViewOutput(
                id=record.id,
                corpus=record.corpus,
                case_id=record.case_id,
                origin=record.origin,
                defect=record.defect,
                defect_detail=out.defect_detail,
                base_id=record.base_id,
                base_text=base.text if base is not None else None,
                clean=record.clean,
                question=case.question,
                answer=out.text,
                context=tuple(context),
                findings=tuple(findings),
                claims=_claims(observed, out.text, tuple(context), DETERMINISTIC),
                blame=blamed[record.id].call if record.id in blamed else None,
                blame_evidence=blamed[record.id].evidence if record.id in blamed else None,
                scores=tuple(
                    ViewScore(
                        scorer=o.scorer,
                        repetition=o.repetition,
                        status=o.status,
                        score=o.score,
                        flagged=o.flagged,
                        issues=o.issues,
                        unscored_reason=o.unscored_reason,
                    )
                    for o in observed
                ),
                disagreement=_disagreement(observed, DETERMINISTIC),
            )
        )
    names = ", ".join(c.name for c in study.corpora)
    return ViewData(
        title=f"{names}: {', '.join(study.config.scorers)}",
        scorers=tuple(study.config.scorers),
        corpora=tuple(c.name for c in study.corpora),
        defects=tuple(sorted({v.defect or "base" for v in views})),
        outputs=tuple(views),
    )
