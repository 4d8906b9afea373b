"""Constructed blame cases from the shipped OpenGATE corpus, each with the call it must get.

Run ``python -m tests.study._blame_cases [CORPUS_DIR]`` for the rates and every miss on OpenGATE
(the default) or another shipped corpus, e.g. ``corpus/halueval`` (docs/study.md quotes both).

- **retrieval**: a right answer (a base output not labelled faulty) scored against its context
  with the evidence lost: dropped, replaced by a distractor, made stale or truncated away (the
  context mutators, seeds 0-39, each distinct context once);
- **generation**: an answer mutated (the answer mutators, seeds 0-9, and the paper's own
  mutants) scored against the full context;
- **both**: an answer mutated scored against a context with the evidence lost, where the
  mutation is not the loss of the same fact (an omission of an anchor the context also lost is
  not a second defect) and a made-up figure is not the one a stale passage states (the answer
  then follows its context: 8 such pairs on OpenGATE, left out).

Each case failed as the study would see it: the deterministic findings are computed by
:func:`blame_answer`, and the failing verdict of the support judge is given as that judge
returns it, its unaccepted claims: the sentences of the answer that name a fact the context
lost, and for the classes only a judge sees (contradiction, inversion) the sentences that differ
from the right answer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from hybridjudge._text import sentence_spans
from hybridjudge.corpus import Case, Corpus, load_corpus
from hybridjudge.mutations import CONTEXT_MUTATORS, MUTATORS, MutationRefused
from hybridjudge.mutations._text import anchor_spans, digit_tokens
from hybridjudge.study import Blame, blame_answer

OPENGATE = Path(__file__).resolve().parents[2] / "corpus" / "opengate"
ANSWER_CLASSES = ("omission", "fabricated_number", "non_abstention", "contradiction", "inversion")
JUDGE_ONLY = ("contradiction", "inversion")
LOSSES = ("evidence_dropped", "distractor", "stale_passage", "truncated")


@dataclass(frozen=True)
class Constructed:
    """One constructed case and the call it must get."""

    expected: str
    label: str
    answer: str
    context: tuple[str, ...]
    case: Case
    reference: str
    judge_issues: tuple[str, ...]


def _changed_sentences(base: str, mutant: str) -> tuple[str, ...]:
    before = Counter(base[s:e] for s, e in sentence_spans(base, "whole"))
    return tuple(
        mutant[s:e] for s, e in sentence_spans(mutant, "whole") if before[mutant[s:e]] == 0
    )


def _lost_contexts(
    base: str, case: Case, pool: tuple[Case, ...]
) -> list[tuple[tuple[str, ...], str]]:
    seen: dict[tuple[str, ...], str] = {}
    for defect in LOSSES:
        for seed in range(40):
            try:
                found = CONTEXT_MUTATORS[defect](base, case, seed=seed, pool=pool)
            except MutationRefused:
                break
            seen.setdefault(found.context, f"{defect}: {found.detail}")
    return list(seen.items())


def _naming_lost(answer: str, case: Case, context: tuple[str, ...]) -> tuple[str, ...]:
    """The sentences of *answer* naming an anchor the context lost (a support judge's
    unaccepted claims on them)."""
    whole, now = "\n".join(case.context), "\n".join(context)
    lost = [a for a in case.anchors if anchor_spans(whole, a) and not anchor_spans(now, a)]
    return tuple(
        answer[s:e]
        for s, e in sentence_spans(answer, "whole")
        if any(anchor_spans(answer[s:e], a) for a in lost)
    )


def _answer_mutants(corpus: Corpus, base_id: str, base: str, case: Case) -> list[tuple[str, str]]:
    found: dict[str, str] = {}
    for defect in ANSWER_CLASSES:
        for seed in range(10):
            try:
                found.setdefault(MUTATORS[defect](base, case, seed=seed).text, defect)
            except MutationRefused:
                break
    for out in corpus.outputs:
        if out.base_id == base_id and out.defect is not None:
            found.setdefault(out.text, out.defect)
    return [(text, defect) for text, defect in found.items() if text != base]


def constructed_cases(path: Path = OPENGATE) -> Iterator[Constructed]:
    """Every constructed case of the corpus at *path*."""
    corpus = load_corpus(path)
    pool = tuple(corpus.cases.values())
    for base in corpus.bases():
        if base.clean is False:
            continue  # its own defects would make every call "both"
        case = corpus.case_for(base)
        lost_contexts = _lost_contexts(base.text, case, pool)
        mutants = _answer_mutants(corpus, base.id, base.text, case)
        for context, detail in lost_contexts:
            issues = _naming_lost(base.text, case, context)
            yield Constructed("retrieval", detail, base.text, context, case, base.text, issues)
        for text, defect in mutants:
            issues = _changed_sentences(base.text, text) if defect in JUDGE_ONLY else ()
            yield Constructed("generation", defect, text, case.context, case, base.text, issues)
        for context, detail in lost_contexts:
            whole, now = "\n".join(case.context), "\n".join(context)
            lost = [a for a in case.anchors if anchor_spans(whole, a) and not anchor_spans(now, a)]
            for text, defect in mutants:
                if defect == "omission" and any(
                    anchor_spans(base.text, a) and not anchor_spans(text, a) for a in lost
                ):
                    continue  # the answer lost only what the context lost: not two defects
                new = set(digit_tokens(text)) - set(digit_tokens(base.text))
                if new & set(digit_tokens(now)):
                    continue  # the figure it made up is the stale passage's: it follows its context
                issues = _changed_sentences(base.text, text) if defect in JUDGE_ONLY else ()
                issues = tuple(dict.fromkeys((*issues, *_naming_lost(text, case, context))))
                yield Constructed(
                    "both", f"{defect} + {detail}", text, context, case, base.text, issues
                )


def blame_of(item: Constructed) -> Blame:
    """The blame call of one constructed case."""
    case = item.case
    return blame_answer(
        item.answer,
        item.context,
        anchors=case.anchors,
        reference=item.reference,
        question=case.question,
        answerable=case.answerable,
        allowed_numbers=case.allowed_numbers,
        judge_issues=item.judge_issues,
        judge_failed=bool(item.judge_issues),
        source_context=case.context,
    )


def rates(path: Path = OPENGATE) -> dict[str, tuple[int, int, list[tuple[Constructed, Blame]]]]:
    """Per expected call: (right, total, the misses with their blame)."""
    out: dict[str, tuple[int, int, list[tuple[Constructed, Blame]]]] = {}
    for item in constructed_cases(path):
        blame = blame_of(item)
        right, total, misses = out.get(item.expected, (0, 0, []))
        if blame.call == item.expected:
            right += 1
        else:
            misses.append((item, blame))
        out[item.expected] = (right, total + 1, misses)
    return out


if __name__ == "__main__":
    import sys

    for expected, (right, total, misses) in rates(Path(*sys.argv[1:2] or [OPENGATE])).items():
        print(f"{expected}: {right}/{total} right ({100 * right / total:.1f}%)")
        for item, blame in misses:
            print(f"  miss [{item.case.id}] {item.label}: got {blame.call}: {blame.evidence}")
