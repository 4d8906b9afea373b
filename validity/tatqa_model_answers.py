"""Validity on real model answers: the embedded judge model answers TAT-QA questions in its own
words; the gold answers say which are right; the checks should flag the wrong ones only.

``validity/tatqa.py`` writes its answers the way a model would; here a model wrote them. The
embedded model (Qwen2.5-Coder-1.5B-Instruct, temperature 0, the prompt in :data:`PROMPT`)
answered questions of TAT-QA's dev split (numeric gold answers, contexts under 3,500 characters,
a seeded sample); its answers are kept in ``data/tatqa_model_answers.jsonl`` (regenerate with
``--generate N``: the embedded model, about 10 s an answer on 2 cores).

Each answer is labelled **right** or **wrong** from TAT-QA's gold answer alone, by a rule that
does not use hybridjudge's parser (:func:`label`): right when every gold figure is written in
the answer at the answer's precision (``28.5%`` for 28.46, not ``7.4%`` for 7.47), with the
gold's scale or without it (``$1,079,520,000`` or ``1,079,520`` for 1,079,520 thousand), or by
its magnitude after a word of decrease (``decreased by 5`` for -5); wrong when no figure of
the answer is. Then both checkers run on the same answer, context and question (numbers only:
no anchors): a flagged right answer is a false alarm, a flagged wrong answer a catch.

Run from the repository root::

    .venv/bin/python validity/tatqa_model_answers.py            # the stored answers
    .venv/bin/python validity/tatqa_model_answers.py --show     # plus every flagged answer
    .venv/bin/python validity/tatqa_model_answers.py --generate 450   # 150 more (slow)
    .venv/bin/python validity/tatqa_model_answers.py --working        # asked to show working
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import random
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from pathlib import Path
from types import ModuleType
from typing import Any, Literal

HERE = Path(__file__).resolve().parent
ANSWERS = HERE / "data" / "tatqa_model_answers.jsonl"
SEED = 5
MAX_CONTEXT = 3500
PROMPT = (
    "You answer questions about financial reports using only the context. Answer in one or two "
    "sentences, with the figures and their units, like a financial analyst. Reply as JSON "
    '{"answer": "..."}.'
)
"""The system message of every answer (the user message is the context, then the question)."""
WORKING_ANSWERS = HERE / "data" / "tatqa_model_answers_working.jsonl"
WORKING_SEED = 11
WORKING_PROMPT = (
    "You answer questions about financial reports using only the context. Show the calculation "
    "with the figures you use, then give the result with its unit, in one or two sentences. "
    'Reply as JSON {"answer": "..."}.'
)
"""The system message of the answers asked to show their calculation (``--working``: arithmetic
questions only, a sample seeded with :data:`WORKING_SEED`, kept in :data:`WORKING_ANSWERS`)."""

Label = Literal["right", "wrong", "unlabelled"]


def _tatqa() -> ModuleType:
    """``tatqa.py`` beside this file, loaded once per process under the name the benchmark and
    the tests give it (a second load would replace the module their objects were built from)."""
    module = sys.modules.get("hj_validity_tatqa")
    if module is not None:
        return module
    spec = importlib.util.spec_from_file_location("hj_validity_tatqa", HERE / "tatqa.py")
    if spec is None or spec.loader is None:  # pragma: no cover - the file is in the repo
        raise SystemExit("validity/tatqa.py is missing")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


# --------------------------------------------------------------------------------------------
# Labels from the gold answer (independent of hybridjudge's parser)

_FIGURE = re.compile(
    r"(?<![\w.])(?P<neg>-|−)?\s?(?:US)?\$?\s?(?P<par>\()?(?P<num>\d[\d,]*(?:\.\d+)?)\)?"
    r"\s*(?P<scale>thousand|million|billion|%|percent|percentage points?)?",
    re.IGNORECASE,
)
_DECREASE = re.compile(
    r"\b(?:decrease|decreased|decline|declined|fell|lower|drop|dropped|loss)\b", re.I
)
_FACTORS = {"thousand": Decimal(1000), "million": Decimal(10**6), "billion": Decimal(10**9)}


@dataclass(frozen=True, slots=True)
class Figure:
    """A figure of an answer: its value (its own scale word applied) and its last digit's unit
    (``0.1`` for ``7.4%``, ``1,000,000`` for ``$5 million``)."""

    value: Decimal
    unit: Decimal

    def writes(self, target: Decimal) -> bool:
        """Whether ``target`` rounded to this figure's last digit (half away from zero, as
        ``34.5`` is written ``35``) is this figure: ``28.5`` writes 28.46, ``14,373`` does not
        write 14,373.5."""
        steps = (target / self.unit).quantize(Decimal(1), rounding=ROUND_HALF_UP)
        return steps * self.unit == self.value


def figures(text: str) -> list[Figure]:
    """Every figure written in ``text`` (a bracketed figure is negative)."""
    out = []
    for m in _FIGURE.finditer(text):
        digits = m["num"].replace(",", "")
        try:
            value = Decimal(digits)
        except InvalidOperation:  # pragma: no cover - the expression only matches numerals
            continue
        decimals = len(digits.split(".", 1)[1]) if "." in digits else 0
        factor = _FACTORS.get((m["scale"] or "").lower(), Decimal(1))
        if m["neg"] or m["par"]:
            value = -value
        out.append(Figure(value * factor, factor / Decimal(10) ** decimals))
    return out


def gold_figures(question: dict[str, Any]) -> list[Decimal]:
    """The gold answer's figures (empty when it is text)."""
    answer = question["answer"]
    items = answer if isinstance(answer, list) else [answer]
    values = []
    for item in items:
        if isinstance(item, int | float):
            values.append(Decimal(str(item)))
            continue
        found = figures(str(item))
        if len(found) != 1 or not re.fullmatch(r"[\s$(),.\d%-]+", str(item)):
            return []  # a text answer, or one with other words: no figure to compare
        values.append(found[0].value)
    return values


def label(answer: str, question: dict[str, Any], passages: Sequence[str] = ()) -> Label:
    """``right`` when every gold figure is in ``answer`` and its other figures are written in
    the context or the question (a year, an operand: an extra figure of its own, such as a
    percentage it computed, cannot be judged from the gold answer); ``wrong`` when no gold
    figure is; else ``unlabelled`` (also for text answers)."""
    gold = gold_figures(question)
    if not gold:
        return "unlabelled"
    factor = _FACTORS.get(str(question.get("scale") or ""), Decimal(1))
    written = figures(answer)
    decrease = _DECREASE.search(answer) is not None

    def matches(f: Figure, target: Decimal) -> bool:
        return f.writes(target) or (decrease and target < 0 and f.writes(-target))

    hits = [any(matches(f, t) for f in written for t in {g, g * factor}) for g in gold]
    if not any(hits):
        return "wrong"
    if not all(hits):
        return "unlabelled"
    known = [c.value for text in (*passages, question["question"]) for c in figures(text)]
    for f in written:
        targets = {*gold, *(g * factor for g in gold)}
        if any(matches(f, t) for t in targets):
            continue
        if not any(f.writes(c) or f.writes(-c) for c in known):
            return "unlabelled"
    return "right"


# --------------------------------------------------------------------------------------------
# The evaluation


@dataclass(frozen=True, slots=True)
class Verdict:
    """One stored answer, its label and both checkers' verdicts."""

    uid: str
    answer: str
    label: Label
    hybridjudge_flagged: bool
    hybridjudge_findings: tuple[str, ...]
    opengate_flagged: bool


def load_answers(path: Path = ANSWERS) -> list[dict[str, Any]]:
    """The stored model answers (one JSON object per line: ``uid``, ``answer``)."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def evaluate(answers: Sequence[dict[str, Any]]) -> list[Verdict]:
    """Label every stored answer and run both checkers on it (numbers only)."""
    import opengate_grounding as og

    from hybridjudge.grounding import check_grounding

    tq = _tatqa()
    by_uid = {
        q["uid"]: (q, tq.context_passages(doc))
        for doc in tq.load_documents()
        for q in doc["questions"]
    }
    out = []
    for row in answers:
        question, passages = by_uid[row["uid"]]
        report = check_grounding(row["answer"], passages, question=question["question"])
        theirs = og.check_grounding(row["answer"], list(passages), question=question["question"])
        out.append(
            Verdict(
                row["uid"],
                row["answer"],
                label(row["answer"], question, passages),
                bool(report.findings),
                tuple(f"{f.kind}: {f.subject}" for f in report.findings),
                not theirs.grounded,
            )
        )
    return out


def summary(verdicts: Sequence[Verdict]) -> dict[str, dict[str, int]]:
    """Per label: how many answers, and how many each checker flagged."""
    table: dict[str, dict[str, int]] = {}
    for lab in ("right", "wrong", "unlabelled"):
        rows = [v for v in verdicts if v.label == lab]
        table[lab] = {
            "n": len(rows),
            "hybridjudge": sum(v.hybridjudge_flagged for v in rows),
            "opengate": sum(v.opengate_flagged for v in rows),
        }
    return table


# --------------------------------------------------------------------------------------------
# Generation (the embedded model)


def _sample(n: int, working: bool = False) -> list[tuple[dict[str, Any], tuple[str, ...]]]:
    tq = _tatqa()
    types = ("arithmetic",) if working else ("span", "arithmetic")
    items = []
    for doc in tq.load_documents():
        passages = tq.context_passages(doc)
        for q in doc["questions"]:
            if q["answer_type"] in types and len("\n".join(passages)) < MAX_CONTEXT:
                items.append((q, passages))
    random.Random(WORKING_SEED if working else SEED).shuffle(items)
    return items[:n]


async def _generate(n: int, path: Path, working: bool = False) -> None:
    from pydantic import BaseModel

    from hybridjudge.model import ModelClient, ModelConfig

    class Answer(BaseModel):
        answer: str

    done = {row["uid"] for row in load_answers(path)} if path.exists() else set()
    prompt, name = (WORKING_PROMPT, "tatqa-working") if working else (PROMPT, "tatqa-answer")
    async with ModelClient(ModelConfig.local(max_tokens=200 if working else 160)) as client:
        with path.open("a", encoding="utf-8") as out:
            for k, (q, passages) in enumerate(_sample(n, working)):
                if q["uid"] in done:
                    continue
                context = "\n\n".join(passages)
                messages = [
                    {"role": "system", "content": prompt},
                    {
                        "role": "user",
                        "content": f"Context:\n{context}\n\nQuestion: {q['question']}",
                    },
                ]
                result = await client.complete_structured(
                    messages, Answer, prompt_name=name, prompt_version="1"
                )
                if result.status == "ok" and result.value is not None:
                    out.write(json.dumps({"uid": q["uid"], "answer": result.value.answer}) + "\n")
                    out.flush()
                print(f"{k + 1}/{n} {result.status}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--answers", type=Path, default=ANSWERS, help="the stored answers")
    parser.add_argument("--show", action="store_true", help="print every flagged answer")
    parser.add_argument(
        "--generate",
        type=int,
        metavar="N",
        help="first ask the embedded model for the first N sampled questions not yet answered",
    )
    parser.add_argument(
        "--working",
        action="store_true",
        help="the answers asked to show their calculation (data/tatqa_model_answers_working.jsonl)",
    )
    args = parser.parse_args(argv)
    if args.working and args.answers == ANSWERS:
        args.answers = WORKING_ANSWERS
    if args.generate:
        asyncio.run(_generate(args.generate, args.answers, args.working))
    verdicts = evaluate(load_answers(args.answers))
    table = summary(verdicts)
    print(f"TAT-QA dev, {len(verdicts)} answers by the embedded model ({args.answers.name})")
    print(f"  {'label':<12} {'n':>5} {'hybridjudge flagged':>20} {'opengate flagged':>17}")
    for lab, row in table.items():
        print(f"  {lab:<12} {row['n']:>5} {row['hybridjudge']:>20} {row['opengate']:>17}")
    right, wrong = table["right"], table["wrong"]
    if right["n"] and wrong["n"]:
        print(
            f"  false alarms (right answers flagged): hybridjudge {right['hybridjudge'] / right['n']:.1%}, "
            f"opengate {right['opengate'] / right['n']:.1%}; wrong answers flagged: hybridjudge "
            f"{wrong['hybridjudge'] / wrong['n']:.1%}, opengate {wrong['opengate'] / wrong['n']:.1%}"
        )
    if args.show:
        for v in verdicts:
            if v.hybridjudge_flagged or v.opengate_flagged:
                print(
                    f"  [{v.label}] hj={v.hybridjudge_flagged} og={v.opengate_flagged} {v.answer!r}"
                )
                print(f"      {', '.join(v.hybridjudge_findings)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
