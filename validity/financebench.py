"""Validity benchmark: number traceability on FinanceBench's oracle answers, beside opengate-grounding.

FinanceBench (Islam et al., 2023; patronus-ai/financebench) asks questions about companies' annual
reports. Its ``oracle`` runs showed gpt-4 and gpt-4-1106-preview the evidence pages and people
labelled each answer ``Correct Answer``, ``Incorrect Answer`` or ``Refusal``. The pages are text
as a PDF extractor returns it (a cell per line, ``$`` on its own line before the figure, the scale
stated once at the top of a statement, headers and footers of the page mixed in): what a retriever
over PDFs hands a model.

For each answer this script runs **number traceability only** (no anchors; abstention not
judged: only ``ungrounded_number`` findings count) against the answer's evidence pages
(``evidence_text_full_page``, each page once, in order) with the question, by hybridjudge's
``check_grounding`` and by opengate-grounding's (flagged = it reports an ungrounded number) in the
same run. A good check flags few correct answers and many incorrect ones (a wrong answer need not
hold a figure the pages lack, so no check flags all of them).

The data is read where it lies (``shared/data/financebench`` in a folder above the repository, or
``--data``) and never copied into the repository (the data set states no licence: see
``validity/README.md``). Absent data: a message and exit status 0.

**Tuning and held-out companies.** Companies are sorted by name and every third one (the 3rd,
6th, ...: index 2, 5, 8, ... counting from 0) is held out: its answers are measured but not
looked at while changing the checks (``--show`` prints tuning examples only unless
``--show-held-out`` is given).

**Causes.** Every correct answer still flagged is listed with the cause of each flagged figure,
read independently of hybridjudge's parser: ``date`` (a date or year read as a quantity),
``as written`` (the figure's digits stand in the pages, possibly in another scale: the scale or
the form was not found), ``computed`` (a figure the pages do not hold: a ratio, a growth rate, a
sum), ``other`` (no digits).

Run from the repository root::

    .venv/bin/python validity/financebench.py                 # summary and causes
    .venv/bin/python validity/financebench.py --show 5        # plus 5 flagged correct answers
    .venv/bin/python validity/financebench.py --json out.json # every verdict
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _default_data() -> Path:
    """``shared/data/financebench`` beside the repository (or beside a folder holding it, as for
    a git worktree under ``wt/``)."""
    for folder in ROOT.parents:
        candidate = folder / "shared" / "data" / "financebench"
        if candidate.is_dir():
            return candidate
    return ROOT.parent / "shared" / "data" / "financebench"


DATA = _default_data()
"""Where the data set lies: ``shared/data/financebench`` in the first folder above the
repository that holds it."""

LABELS = ("Correct Answer", "Incorrect Answer", "Refusal")
HELD_OUT_EVERY = 3
"""Every third company (sorted by name, from index 2) is held out."""
CAUSES = ("as written", "computed", "date", "other")

_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
_MONTH = re.compile(
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?\s+\d{4}\b"
    r"|\b\d{1,2}\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{4}\b"
    r"|^(?:fy|q[1-4]\s*)?'?(?:19|20)?\d\d$|^\d{1,2}/\d{1,2}/\d{2,4}$",
    re.IGNORECASE,
)


# --------------------------------------------------------------------------------------------
# Data


@dataclass(slots=True)
class Answer:
    """One oracle answer with its evidence pages."""

    financebench_id: str
    company: str
    model: str
    label: str
    question: str
    answer: str
    pages: tuple[str, ...]
    held_out: bool = False
    gold: str = ""
    """FinanceBench's gold answer (``--gold``)."""


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def load_answers(data: Path) -> list[Answer]:
    """The oracle answers joined with their questions' evidence pages (each page once, in order)."""
    questions = {q["financebench_id"]: q for q in _read_jsonl(data / "questions_dev.jsonl")}
    companies = sorted({str(q["company"]) for q in questions.values()})
    held = {c for i, c in enumerate(companies) if i % HELD_OUT_EVERY == HELD_OUT_EVERY - 1}
    out = []
    for row in _read_jsonl(data / "oracle_answers_dev.jsonl"):
        q = questions[row["financebench_id"]]
        pages: list[str] = []
        for ev in q["evidence"]:
            page = str(ev.get("evidence_text_full_page") or ev.get("evidence_text") or "")
            if page and page not in pages:
                pages.append(page)
        out.append(
            Answer(
                str(row["financebench_id"]),
                str(q["company"]),
                str(row["model_name"]),
                str(row["label"]),
                str(row["question"]),
                str(row["model_answer"] or ""),
                tuple(pages),
                str(q["company"]) in held,
                str(row.get("gold_answer") or ""),
            )
        )
    return out


# --------------------------------------------------------------------------------------------
# Checking


@dataclass(slots=True)
class Flagged:
    """One figure of an answer that a checker could not trace."""

    text: str
    cause: str
    evidence: str = ""


@dataclass(slots=True)
class Result:
    """Both checkers' verdicts on one answer."""

    financebench_id: str
    company: str
    model: str
    label: str
    held_out: bool
    hybridjudge_flagged: bool
    opengate_flagged: bool
    figures: list[Flagged] = field(default_factory=list)
    """hybridjudge's flagged figures with their cause."""
    seconds: tuple[float, float] = (0.0, 0.0)
    rules: dict[str, int] = field(default_factory=dict)
    """How many of the answer's figures each trace rule explained (hybridjudge)."""


def _values(texts: Iterable[str]) -> set[Decimal]:
    out: set[Decimal] = set()
    for text in texts:
        for m in _NUMBER.finditer(text):
            try:
                out.add(Decimal(m.group().replace(",", "")))
            except InvalidOperation:
                continue
    return out


def cause(figure: str, page_values: set[Decimal]) -> str:
    """Why a figure of a correct answer could not be traced, read without hybridjudge's parser:
    ``date``, ``as written`` (its digits, or them times or divided by 1,000 to 1,000,000,000,
    stand in the pages), ``computed`` or ``other`` (no digits)."""
    if _MONTH.search(figure.strip()):
        return "date"
    digits = _NUMBER.findall(figure)
    if not digits:
        return "other"
    try:
        value = Decimal(digits[0].replace(",", ""))
    except InvalidOperation:
        return "other"
    for power in (0, 3, 6, 9, -3, -6, -9):
        if value.scaleb(power) in page_values:
            return "as written"
    return "computed"


def check_all(answers: Sequence[Answer]) -> list[Result]:
    """Number traceability by both checkers on every answer."""
    import opengate_grounding as og

    from hybridjudge.grounding import check_grounding

    results = []
    for a in answers:
        t0 = time.perf_counter()
        report = check_grounding(a.answer, a.pages, question=a.question, answerable=None)
        t1 = time.perf_counter()
        peer = og.check_grounding(a.answer, list(a.pages), question=a.question)
        t2 = time.perf_counter()
        page_values = _values(a.pages)
        figures = [
            Flagged(f.subject, cause(f.subject, page_values), f.evidence or "")
            for f in report.findings
            if f.kind == "ungrounded_number"
        ]
        results.append(
            Result(
                a.financebench_id,
                a.company,
                a.model,
                a.label,
                a.held_out,
                bool(figures),
                bool(peer.ungrounded_numbers),
                figures,
                (t1 - t0, t2 - t1),
                dict(_trace_rules().rules_of(report.quantities)),
            )
        )
    return results


def _trace_rules() -> Any:
    """``validity/trace_rules.py``, the rule tables shared with the other validity scripts."""
    folder = str(Path(__file__).resolve().parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    import trace_rules

    return trace_rules


def rule_table(results: Sequence[Result]) -> str:
    """Figures per trace rule: of the correct answers, of the incorrect ones, and of the
    incorrect ones no figure of which is flagged (a wrong answer let through: the rules that
    traced its figures are where to look for one too loose)."""
    columns: dict[str, Counter[str]] = {"correct": Counter(), "incorrect": Counter()}
    columns["incorrect, passed"] = Counter()
    for r in results:
        if r.label == "Correct Answer":
            columns["correct"].update(r.rules)
        elif r.label == "Incorrect Answer":
            columns["incorrect"].update(r.rules)
            if not r.hybridjudge_flagged:
                columns["incorrect, passed"].update(r.rules)
    table: str = _trace_rules().format_rule_table(
        "figures per trace rule (hybridjudge), by the answer's label", columns
    )
    return table


# --------------------------------------------------------------------------------------------
# Summaries


@dataclass(slots=True)
class Rates:
    """Share of one label's answers flagged, by each checker."""

    label: str
    n: int
    hybridjudge: float
    opengate: float


def rates(results: Sequence[Result], companies: str = "all") -> list[Rates]:
    """The share of each label's answers flagged (``companies``: all, tuning, held-out)."""
    chosen = [r for r in results if companies == "all" or (r.held_out == (companies == "held-out"))]
    out = []
    for label in LABELS:
        rs = [r for r in chosen if r.label == label]
        n = len(rs)
        out.append(
            Rates(
                label,
                n,
                sum(r.hybridjudge_flagged for r in rs) / n if n else 0.0,
                sum(r.opengate_flagged for r in rs) / n if n else 0.0,
            )
        )
    return out


def causes(results: Sequence[Result], companies: str = "all") -> Counter[str]:
    """Correct answers still flagged, by cause (an answer counts under each cause it has)."""
    counts: Counter[str] = Counter()
    for r in results:
        if r.label != "Correct Answer" or not r.hybridjudge_flagged:
            continue
        if companies != "all" and r.held_out != (companies == "held-out"):
            continue
        for c in sorted({f.cause for f in r.figures}):
            counts[c] += 1
    return counts


def format_summary(results: Sequence[Result]) -> str:
    """The tables as text."""
    held = sorted({r.company for r in results if r.held_out})
    lines = [
        f"FinanceBench oracle answers: {len(results)} ({len({r.company for r in results})} "
        f"companies); held out (every third by name): {', '.join(held)}",
        "number traceability only; share flagged (hj: hybridjudge, og: opengate-grounding)",
        f"  {'companies':<10} {'label':<18} {'n':>5} {'hj':>7} {'og':>7}",
    ]
    for companies in ("all", "tuning", "held-out"):
        for row in rates(results, companies):
            lines.append(
                f"  {companies:<10} {row.label:<18} {row.n:>5} "
                f"{row.hybridjudge:>7.1%} {row.opengate:>7.1%}"
            )
    lines.append("")
    lines.append("correct answers still flagged by hybridjudge, by cause of a flagged figure")
    for companies in ("all", "tuning", "held-out"):
        c = causes(results, companies)
        n = sum(
            1
            for r in results
            if r.label == "Correct Answer"
            and r.hybridjudge_flagged
            and (companies == "all" or r.held_out == (companies == "held-out"))
        )
        parts = ", ".join(f"{k} {c[k]}" for k in CAUSES)
        lines.append(f"  {companies:<10} {n:>4} answers: {parts}")
    ours = sorted(r.seconds[0] for r in results)
    theirs = sorted(r.seconds[1] for r in results)
    if ours:
        lines.append("")
        lines.append(
            f"median time per answer: hybridjudge {ours[len(ours) // 2] * 1e3:.2f} ms, "
            f"opengate-grounding {theirs[len(theirs) // 2] * 1e3:.2f} ms (first calls)"
        )
    return "\n".join(lines)


def format_flagged(results: Sequence[Result], held_out: bool) -> str:
    """Every correct answer still flagged (tuning companies, or held-out ones), one line each."""
    lines = [f"correct answers still flagged ({'held-out' if held_out else 'tuning'} companies):"]
    for r in results:
        if r.label == "Correct Answer" and r.hybridjudge_flagged and r.held_out == held_out:
            figs = "; ".join(f"{f.text!r} [{f.cause}]" for f in r.figures)
            lines.append(f"  {r.financebench_id} {r.model} ({r.company}): {figs}")
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# The gold answer's figure as a required fact (--gold)

_YEAR = re.compile(r"^(?:19|20)\d\d$")
_GOLD_POWERS = (0, 2, -2, 3, -3, 6, -6, 9, -9)
"""The readings of an answer's figure compared with the gold's: as written, as a percentage or a
share (x 100), in another scale (thousands, millions, billions)."""


def gold_figure(gold: str) -> Decimal | None:
    """The first figure of a gold answer that is no year (``0.66``, ``$411 million``: 411), or
    ``None`` when it has none (a text answer)."""
    for m in _NUMBER.finditer(gold):
        if _YEAR.match(m.group()):  # "2023", not "2,018"
            continue
        text = m.group().replace(",", "")
        try:
            return Decimal(text)
        except InvalidOperation:
            continue
    return None


def states_gold(answer: str, gold: Decimal) -> bool:
    """Whether some figure of ``answer``, in one of :data:`_GOLD_POWERS`, rounds to ``gold`` at
    the gold's own precision, half away from zero: ``1,615.9`` (million) for ``1616``, ``0.389``
    (billion) for ``389``, ``66.37%`` for ``0.66`` (0.6637). Read without hybridjudge's parser,
    signs aside."""
    exponent = gold.as_tuple().exponent
    if not isinstance(exponent, int):
        return False
    unit = Decimal(1).scaleb(min(exponent, 0))
    target = abs(gold)
    for m in _NUMBER.finditer(answer):
        try:
            value = abs(Decimal(m.group().replace(",", "")))
        except InvalidOperation:
            continue
        for power in _GOLD_POWERS:
            if value.scaleb(power).quantize(unit, rounding=ROUND_HALF_UP) == target:
                return True
    return False


def gold_rates(answers: Sequence[Answer], results: Sequence[Result]) -> str:
    """``--gold``: the share of each label's answers flagged when the gold answer's figure is
    also a required fact, matched at the gold's own precision in any scale (:func:`states_gold`):
    an answer is flagged by number traceability (hybridjudge) or for not stating it."""
    lines = [
        "number traceability, or the gold answer's figure not stated (at the gold's precision, any",
        "scale; answers whose gold has no figure: number traceability alone); share flagged",
        f"  {'companies':<10} {'label':<18} {'n':>5} {'numbers':>8} {'+ gold':>8}",
    ]
    for companies in ("all", "tuning", "held-out"):
        for label in LABELS[:2]:
            pairs = [
                (a, r)
                for a, r in zip(answers, results, strict=True)
                if r.label == label
                and (companies == "all" or r.held_out == (companies == "held-out"))
            ]
            if not pairs:
                continue
            numbers = sum(r.hybridjudge_flagged for _, r in pairs)
            both = sum(
                r.hybridjudge_flagged
                or ((g := gold_figure(a.gold)) is not None and not states_gold(a.answer, g))
                for a, r in pairs
            )
            n = len(pairs)
            lines.append(
                f"  {companies:<10} {label:<18} {n:>5} {numbers / n:>8.1%} {both / n:>8.1%}"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--data", type=Path, default=DATA, help=f"data folder (default {DATA})")
    parser.add_argument(
        "--show", type=int, default=0, help="print N flagged correct answers in full (tuning set)"
    )
    parser.add_argument(
        "--show-held-out",
        action="store_true",
        help="--show and the list of flagged answers take the held-out companies instead",
    )
    parser.add_argument("--list", action="store_true", help="list every flagged correct answer")
    parser.add_argument("--json", type=Path, help="write every verdict to this file")
    parser.add_argument(
        "--gold",
        action="store_true",
        help="also flag an answer that does not state the gold answer's figure (what labels add)",
    )
    args = parser.parse_args(argv)
    if not (args.data / "questions_dev.jsonl").is_file():
        print(f"FinanceBench not found at {args.data}: nothing measured (pass --data FOLDER)")
        return 0
    answers = load_answers(args.data)
    t0 = time.perf_counter()
    results = check_all(answers)
    print(format_summary(results))
    print("")
    print(rule_table(results))
    if args.gold:
        print("")
        print(gold_rates(answers, results))
    if args.list:
        print("")
        print(format_flagged(results, args.show_held_out))
    if args.show:
        shown = 0
        for a, r in zip(answers, results, strict=True):
            if shown >= args.show:
                break
            if r.label != "Correct Answer" or not r.hybridjudge_flagged:
                continue
            if r.held_out != args.show_held_out:
                continue
            shown += 1
            print("")
            print(f"=== {r.financebench_id} {r.model} ({r.company})")
            print(f"answer: {a.answer}")
            for f in r.figures:
                print(f"  flagged {f.text!r} [{f.cause}]: {f.evidence}")
    print(f"\n{time.perf_counter() - t0:.1f} s")
    if args.json:
        payload: dict[str, Any] = {
            "results": [asdict(r) for r in results],
            "rates": {
                c: [asdict(x) for x in rates(results, c)] for c in ("all", "tuning", "held-out")
            },
        }
        args.json.write_text(json.dumps(payload, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
