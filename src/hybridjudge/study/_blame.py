"""Blame per answer: did the retriever fail, the generator, both, or can we not tell?

Deterministic and free. For an output that failed (a deterministic finding, or a judge that
flagged it), :func:`blame_answer` compares three things:

1. **What was required**: the case's anchors (required facts), and the figures and named
   entities of a *reference answer* when one is known (in a study: the clean base output of
   the case, for its mutants).
2. **What the retriever returned**: the context the output was scored against. A required fact
   is *missing from the context* when grounding's own anchor matcher does not find the anchor
   in it, a reference figure when grounding cannot trace it to the context, an entity when its
   words do not occur in it. When the user gives the relevant passages (``qrels`` with the
   retrieved passage ids, or RAGAS ``reference_contexts``), the per-case retrieval metrics
   (hit@k, recall@k, reciprocal rank; :func:`hybridjudge.metrics.retrieval.evaluate`) are
   part of the call, and a relevant passage not retrieved is missing too.
3. **What the answer did wrong** beyond that: each deterministic finding and each claim a
   judge did not accept. A finding the missing context explains (the answer's figure is a
   required figure the context lacks; the answer lacks an anchor the context lacks too; a
   judge's claim names a missing fact) is the retriever's; every other one is the generator's.

The call: ``retrieval`` when something required is missing and every problem of the answer is
explained by it; ``generation`` when nothing required is missing and the answer has a problem;
``both`` when something is missing and the answer has a problem it does not explain;
``unknown`` when nothing is known to be required (no anchors, no reference, no relevant
passages) or no problem is found to explain. No LLM is asked.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from hybridjudge._text import split_sentences, word_list
from hybridjudge.corpus import Anchor

__all__ = [
    "BLAME_CALLS",
    "Blame",
    "BlameCall",
    "BlameRow",
    "RetrievalScores",
    "blame_answer",
    "blame_rows",
    "retrieval_scores",
]

BlameCall = Literal["retrieval", "generation", "both", "unknown"]
"""Whose failure an answer's is."""
BLAME_CALLS: tuple[BlameCall, ...] = ("retrieval", "generation", "both", "unknown")


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class RetrievalScores(_Frozen):
    """Retrieval metrics of one case, from the relevant passages the user gave."""

    k: int
    """Passages retrieved (the cutoff of hit@k and recall@k)."""
    relevant: int
    """Relevant passages given."""
    retrieved_relevant: int
    """Relevant passages among the retrieved."""
    hit: float
    """hit@k: 1.0 when a relevant passage was retrieved."""
    recall: float
    """recall@k: the share of relevant passages retrieved."""
    reciprocal_rank: float
    """1 / rank of the first relevant passage retrieved (0.0: none)."""
    source: Literal["qrels", "reference_contexts"]
    """Where the relevant passages came from."""


class Blame(_Frozen):
    """The blame call for one failed output, with its evidence."""

    output_id: str
    """The output."""
    call: BlameCall
    """``retrieval``, ``generation``, ``both`` or ``unknown``."""
    missing_from_context: tuple[str, ...] = ()
    """Required facts the context lacks: ``anchor: 500 mg``, ``figure: 38``, ``entity: Delhi``,
    ``passage: p3`` (a relevant passage not retrieved)."""
    explained: tuple[str, ...] = ()
    """Problems of the answer the missing context explains (the retriever's)."""
    generation: tuple[str, ...] = ()
    """Problems of the answer the context does not explain (the generator's): findings
    (``kind: subject``) and judges' claims (``scorer: claim``)."""
    evidence: str
    """One sentence saying why, for the reports."""
    retrieval: RetrievalScores | None = None
    """Per-case retrieval metrics, when the relevant passages are known."""
    corpus: str = ""
    """The corpus (in a study)."""
    system: str = ""
    """The producing system (in a study: the base output's producer for a mutant)."""
    defect: str | None = None
    """The output's defect class in a study (``None`` for a base)."""


class BlameRow(_Frozen):
    """Per system and corpus: the failed outputs and whose failures they are."""

    corpus: str
    """Corpus name."""
    system: str
    """The producing system."""
    failures: int
    """Outputs that failed (a finding or a judge's flag) and were blamed."""
    retrieval: int
    """The retriever's alone."""
    generation: int
    """The generator's alone."""
    both: int
    """Both."""
    unknown: int
    """Not decidable (nothing known to be required)."""
    retrieval_share: float | None = Field(default=None)
    """(retrieval + both) / failures: the share the retriever had a part in."""
    generation_share: float | None = Field(default=None)
    """(generation + both) / failures: the share the generator had a part in."""


_ENTITY = re.compile(
    r"(?<![.!?:]\s)(?<!^)(?<!\n)(?<!- )\b[A-Z][a-zA-Z-]{2,}(?:\s+[A-Z][a-zA-Z-]+)*"
)
_NOT_ENTITIES = word_list("blame_not_entities")


def _entities(text: str) -> list[str]:
    """Capitalised names inside sentences (not a sentence's or a line's first word)."""
    found: dict[str, None] = {}
    for m in _ENTITY.finditer(text):
        name = m.group()
        if name.split()[0] in _NOT_ENTITIES or any(ch.isdigit() for ch in name):
            continue
        found.setdefault(name, None)
    return list(found)


def _norm(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))


def retrieval_scores(
    retrieved: Sequence[str],
    *,
    qrels: Mapping[str, int] | Sequence[str] | None = None,
    reference_contexts: Sequence[str] | None = None,
) -> RetrievalScores | None:
    """hit@k, recall@k and reciprocal rank of one case, through
    :func:`hybridjudge.metrics.retrieval.evaluate` (trec_eval's conventions).

    Args:
        retrieved: the retrieved passages' ids (with ``qrels``) or texts (with
            ``reference_contexts``), best first.
        qrels: the relevant passage ids (``{id: grade}``, or a list of ids, grade 1).
        reference_contexts: the relevant passages' texts (RAGAS); a retrieved passage is
            relevant when its words equal one's or contain one's.

    Returns ``None`` when neither is given or no passage is relevant.
    """
    from hybridjudge.metrics.retrieval import evaluate

    if qrels is not None:
        grades = dict(qrels) if isinstance(qrels, Mapping) else dict.fromkeys(qrels, 1)
        ids = [str(r) for r in retrieved]
        source: Literal["qrels", "reference_contexts"] = "qrels"
    elif reference_contexts is not None:
        wanted = [_norm(c) for c in reference_contexts if _norm(c)]
        grades = {f"ref{i}": 1 for i in range(len(wanted))}
        ids = []
        for i, passage in enumerate(retrieved):
            text = _norm(passage)
            match = next((j for j, w in enumerate(wanted) if w == text or w in text), None)
            ids.append(f"ref{match}" if match is not None else f"ctx{i}")
        source = "reference_contexts"
    else:
        return None
    relevant = {d for d, g in grades.items() if g >= 1}
    if not relevant:
        return None
    k = len(ids)
    run: dict[str, float] = {}
    for i, d in enumerate(ids):
        run.setdefault(d, float(k - i))  # ranked in the order given; a repeat keeps its first
    if k == 0:
        hit = recall = rr = 0.0
    else:
        result = evaluate(
            {"q": grades}, {"q": run}, [f"hit@{k}", f"recall@{k}", "mrr"], tie_break="rank"
        )
        hit = float(result.per_query[f"hit@{k}"][0])
        recall = float(result.per_query[f"recall@{k}"][0])
        rr = float(result.per_query["mrr"][0])
    return RetrievalScores(
        k=k,
        relevant=len(relevant),
        retrieved_relevant=len(relevant & set(ids)),
        hit=hit,
        recall=recall,
        reciprocal_rank=rr,
        source=source,
    )


_POLARITY = word_list("blame_polarity_words")
"""Words that flip or bound a statement: a claim holding one its reference sentence lacks says
something else than the reference."""


def _agrees(claim: str, reference: str, names: Sequence[str]) -> bool:
    """Whether a judge's unaccepted *claim*, which names a fact the context lacks, says what the
    reference answer says about it: the reference's sentences the claim restates (most of
    their words in it; else those naming the fact) hold at least as many of each flipping word
    (``not``, ``less``, ``before``...), and they hold at least half the claim's words. A claim
    that states the lost fact as the right answer does is the retriever's to explain; one that
    flips it is the generator's."""
    sentences = split_sentences(reference, "stops")
    words = _norm(claim.replace("n't", " not")).split()
    claimed = set(words)

    def split(sentence: str) -> list[str]:
        return _norm(sentence.replace("n't", " not")).split()

    window = [
        s for s in sentences if split(s) and sum(w in claimed for w in split(s)) * 2 > len(split(s))
    ]
    if not window:
        window = [s for s in sentences if any(f" {n} " in f" {_norm(s)} " for n in names)]
    known = [w for s in (window or sentences) for w in split(s)]
    flips = Counter(w for w in words if w in _POLARITY)
    if flips - Counter(w for w in known if w in _POLARITY):
        return False
    vocabulary = set(known)
    return sum(w in vocabulary for w in words) * 2 >= len(words)


def _digits(text: str) -> set[str]:
    return set(re.findall(r"\d+(?:[.,]\d+)*", text))


def blame_answer(
    answer: str,
    context: Sequence[str],
    *,
    output_id: str = "",
    anchors: Sequence[Anchor | str] = (),
    reference: str | None = None,
    question: str | None = None,
    answerable: bool | None = True,
    allowed_numbers: Sequence[str] = (),
    findings: Sequence[str] | None = None,
    judge_issues: Sequence[str] = (),
    judge_failed: bool = False,
    retrieval: RetrievalScores | None = None,
    source_context: Sequence[str] | None = None,
) -> Blame:
    """Whose failure an answer is: ``retrieval``, ``generation``, ``both`` or ``unknown``.

    Args:
        answer: the answer.
        context: the retrieved context it was given (passages).
        output_id: echoed in the result.
        anchors: the case's required facts.
        reference: a reference answer known to be right (its figures and entities are
            required too); ``None`` when there is none.
        question: the case's question (its numbers are traceable).
        answerable: whether the context can answer (``False``: an answer must abstain).
        allowed_numbers: numbers the answer may introduce.
        findings: the deterministic findings on the answer as ``kind: subject``; ``None``:
            computed here with :func:`hybridjudge.grounding.check_grounding`.
        judge_issues: the claims the judges did not accept (``scorer: claim`` or the claim).
        judge_failed: a judge flagged the answer (even when it named no claim).
        retrieval: the case's retrieval metrics (:func:`retrieval_scores`), when known.
        source_context: everything the retriever could have returned, when known (in a
            study: the case's whole context). An anchor, reference figure or entity absent
            from it too is not the retriever's to miss (a yes/no answer, a figure derived from
            the context, a paraphrase, a name from the question) and is left out.

    Example:
        >>> blame_answer(
        ...     "Take 500 mg for 5 days.", ["Take it for 5 days."], anchors=["500 mg"]
        ... ).call
        'retrieval'
    """
    from hybridjudge.grounding import check_grounding

    passages = [p for p in context if p.strip()]
    joined = "\n".join(passages)
    missing: list[str] = []
    missing_anchor_values: list[str] = []
    # 1. what was required and is not in the context
    if anchors:
        if joined.strip():
            in_context = check_grounding(joined, passages, anchors=list(anchors))
            missing_anchor_values = [
                f.subject for f in in_context.findings if f.kind == "missing_anchor"
            ]
        else:
            missing_anchor_values = [a.value if isinstance(a, Anchor) else a for a in anchors]
        if source_context is not None and missing_anchor_values:
            # an anchor the whole context lacks too (a yes/no answer, a figure derived from
            # the context) was never the retriever's to return
            available = [p for p in source_context if p.strip()]
            never_there = (
                {
                    f.subject
                    for f in check_grounding(
                        "\n".join(available), available, anchors=list(anchors)
                    ).findings
                    if f.kind == "missing_anchor"
                }
                if available
                else set(missing_anchor_values)
            )
            missing_anchor_values = [v for v in missing_anchor_values if v not in never_there]
        missing += [f"anchor: {v}" for v in missing_anchor_values]
    known = bool(anchors)
    missing_figures: list[str] = []
    if reference is not None and reference.strip():
        known = True
        traced = check_grounding(
            reference,
            passages or [""],
            question=question,
            allowed_numbers=list(allowed_numbers),
        )
        missing_figures = [f.subject for f in traced.findings if f.kind == "ungrounded_number"]
        entities = [e for e in _entities(reference) if _norm(e) not in _norm(joined)]
        if source_context is not None:
            available = [p for p in source_context if p.strip()] or [""]
            untraced = check_grounding(
                reference, available, question=question, allowed_numbers=list(allowed_numbers)
            )
            never = {f.subject for f in untraced.findings if f.kind == "ungrounded_number"}
            missing_figures = [v for v in missing_figures if v not in never]
            whole = _norm("\n".join(available))
            entities = [e for e in entities if _norm(e) in whole]
        asked = _norm(question or "")
        entities = [e for e in entities if _norm(e) not in asked]
        anchor_digits = set().union(*(_digits(v) for v in missing_anchor_values))
        # a figure an anchor already names missing is not listed twice
        listed: set[frozenset[str]] = set()
        for v in missing_figures:
            digits = frozenset(_digits(v))
            if digits and (digits <= anchor_digits or digits in listed):
                continue
            listed.add(digits)
            missing.append(f"figure: {v}")
        missing += [f"entity: {e}" for e in entities]
    if retrieval is not None:
        known = True
        lost = retrieval.relevant - retrieval.retrieved_relevant
        if lost:
            missing.append(
                f"passage: {lost} of {retrieval.relevant} relevant not retrieved "
                f"(recall@{retrieval.k} {retrieval.recall:.2f})"
            )
    # 2. what the answer did wrong, and whether the missing context explains it
    if findings is None:
        report = check_grounding(
            answer,
            passages or [""],
            question=question,
            anchors=list(anchors),
            answerable=answerable,
            allowed_numbers=list(allowed_numbers),
        )
        findings = sorted({f"{f.kind}: {f.subject}".rstrip(": ") for f in report.findings})
    missing_digits = set().union(*(_digits(v) for v in (*missing_anchor_values, *missing_figures)))
    missing_words = [_norm(m.split(": ", 1)[1]) for m in missing if not m.startswith("passage:")]
    explained: list[str] = []
    generation: list[str] = []
    for finding in findings:
        kind, _, subject = finding.partition(": ")
        if kind == "missing_anchor" and subject in missing_anchor_values:
            explained.append(finding)  # the answer cannot state what it was not given
        elif (
            kind == "ungrounded_number" and _digits(subject) and _digits(subject) <= missing_digits
        ):
            explained.append(finding)  # a required figure the context lacks
        else:
            generation.append(finding.rstrip(": "))
    for claim in judge_issues:
        text = f" {_norm(claim)} "
        names = [w for w in missing_words if w and f" {w} " in text]
        if not names and not (_digits(claim) & missing_digits):
            generation.append(claim)  # names nothing the context lacks
        elif reference is not None and not _agrees(claim, reference, names):
            generation.append(claim)  # names a lost fact, but not as the reference states it
        else:
            explained.append(claim)
    failed = bool(findings) or judge_failed or bool(judge_issues)
    if judge_failed and not judge_issues and not missing:
        generation.append("a judge flagged the answer")
    elif judge_failed and not judge_issues:
        explained.append("a judge flagged the answer")
    # 3. the call
    call: BlameCall
    if missing and generation:
        call = "both"
        why = (
            f"the context lacks {', '.join(missing)}, and the answer also has "
            f"{', '.join(generation)}, which that does not explain"
        )
    elif missing:
        call = "retrieval"
        why = f"the context lacks {', '.join(missing)}"
        if explained:
            why += f", which explains {', '.join(explained)}"
    elif generation and known:
        call = "generation"
        why = f"every required fact is in the context, yet the answer has {', '.join(generation)}"
    else:
        call = "unknown"
        if not failed:
            why = "no finding and no failing judge verdict to explain"
        else:
            why = (
                "nothing is known to be required (no anchors, no reference answer, no relevant "
                f"passages), so {', '.join(generation) or 'the failure'} may be either's"
            )
    return Blame(
        output_id=output_id,
        call=call,
        missing_from_context=tuple(missing),
        explained=tuple(explained),
        generation=tuple(generation),
        evidence=why,
        retrieval=retrieval,
    )


def blame_rows(blames: Sequence[Blame]) -> list[BlameRow]:
    """Per (corpus, system), in first-seen order: the failures and whose they are."""
    groups: dict[tuple[str, str], list[Blame]] = {}
    for blame in blames:
        groups.setdefault((blame.corpus, blame.system), []).append(blame)
    rows = []
    for (corpus, system), items in groups.items():
        counts = {c: sum(1 for b in items if b.call == c) for c in BLAME_CALLS}
        n = len(items)
        rows.append(
            BlameRow(
                corpus=corpus,
                system=system,
                failures=n,
                retrieval=counts["retrieval"],
                generation=counts["generation"],
                both=counts["both"],
                unknown=counts["unknown"],
                retrieval_share=(counts["retrieval"] + counts["both"]) / n if n else None,
                generation_share=(counts["generation"] + counts["both"]) / n if n else None,
            )
        )
    return rows
