"""Differential fuzzing of the grounding checks: three paths, one verdict, never a crash.

A check reaches its verdict by one of three paths: the fast path (a figure found as written, read
from the lines around its digits: ``grounding._fast``), the full index of the whole context
(``HYBRIDJUDGE_GROUNDING_FULL=1`` forces it) and a prepared checker
(``GroundingChecker(prepare_context(...))``, built beforehand). They must agree, and no text may
crash any of them. This script mutates real answers, contexts and questions (TAT-QA's dev tables
in one layout, ``validity/tatqa.py``; FinanceBench's oracle answers and pages where
``shared/data/financebench`` beside the repository is present: ``validity/README.md``), runs
each case through the three paths and reports every case where their verdicts (grounded,
abstained, the findings' kinds and subjects) differ, and every exception (a crash: the typed
input errors are outcomes, not crashes).

A mutation changes a digit, inserts a piece (a figure, a sign, a scale, a unit, a date, a table
separator, a refusal, a non-Latin digit, an invisible character: ``PIECES``, and every word of
the lexicons, alone and after a currency sign or in brackets), deletes a character, copies a
run of the text elsewhere, or inserts a line break, a tab, a cell separator or a scale word.
Everything is drawn from one seeded generator, so a case reproduces from its seed and number;
``--out`` writes each failing case in full (answer, passages, question) as JSON.

It found: ``$'million`` in a context crashed every check (KeyError, fixed in 1b0b97a).

Run from the repository root::

    PYTHONPATH=src .venv/bin/python validity/fuzz_paths.py                       # 2,000 cases
    PYTHONPATH=src .venv/bin/python validity/fuzz_paths.py --cases 50000 --layout pdf
    PYTHONPATH=src .venv/bin/python validity/fuzz_paths.py --seconds 600 --out /tmp/fuzz.json

It exits 1 when a case crashed or the paths disagreed.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
LEXICONS = ROOT / "src" / "hybridjudge" / "grounding" / "data" / "lexicon"
SEED = 20261207

PIECES: tuple[str, ...] = (
    *("0", "1", "9", "12", "1,234", "5,409", "3.5", "0.0", "-", "+", "(", ")", "$", "€", "£"),
    *("¥", "₹", "%", "‰", "|", "\n", "\t", " ", ".", ",", ":", ";", "/", "=", "×", "*", "÷"),
    *("~", "≈", "million", "billion", "thousand", "in millions", "(in thousands)", "Mio."),
    *("Mrd.", "crore", "lakh", "万", "億", "亿", "円", "元", "원", "%p", "bps", "x", "times"),
    *("per cent", "FY2022", "Q3", "2019", "2018", "December 31, 2016", "31/12/2016"),
    *("2016-12-31", "third", "half", "a quarter", "twice", "dozen", "twenty-five", "zwei"),
    *("I don't know", "cannot answer", "不知道", "no", "not", "less than", "more than"),
    *("about", "from", "to", "between", "and", "increase", "decrease", "fell", "rose", "minus"),
    *("1e9", "10^6", "²", "½", "٣", "३", "Ⅻ", "XII", "'", "’", "<td>", "</td>", "<tr>"),
    *("|---|", "\u200b", "\u00a0", "\u202f", "\ufeff", "\u2212", "–", "—", "＄", "１２３"),
    *("mg", "kg", "°C", "hours", "days", "years", "USD", "US$", "HK$", "R$", "Rs.", "\r\n"),
)
"""Pieces a mutation inserts (beside the lexicons' words: :func:`pieces`)."""
_DIGITS = "0123456789"
_BREAKS = ("\n", "\t", " | ", "$", "(", ")", "%", " million", ",", ".")


def pieces() -> tuple[tuple[str, ...], ...]:
    """What a mutation inserts, in four groups a piece is drawn from alike (so that the few
    pieces of a small group come up often): :data:`PIECES`, every word of the lexicons (24
    characters at most), scale words after a currency sign or an apostrophe (``$'million``,
    ``RMB000``), and lexicon words in brackets (``(in thousands)``)."""
    words: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, str):
            if 0 < len(value) <= 24:
                words.add(value)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, dict):
            for key, item in value.items():
                if isinstance(item, int | float) and 0 < len(key) <= 24:
                    words.add(key)
                walk(item)

    for path in sorted(LEXICONS.glob("*.json")):
        walk(json.loads(path.read_text(encoding="utf-8")))
    lexicon = sorted(words)
    glued = (
        f"{sign}{scale}"
        for sign in ("$", "€", "£", "(", "'", "’", "$'", "RMB")
        for scale in ("000", "million", "m", "bn", "billion", "thousands")
    )
    return PIECES, tuple(lexicon), tuple(glued), tuple(f"({w})" for w in lexicon)


Job = tuple[str, tuple[str, ...], str | None]
"""(answer, passages, question)"""


def _module(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:  # pragma: no cover - the files are in the repo
        raise SystemExit(f"{path} is missing")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def jobs(layout: str, every: int = 3, financebench: bool = True) -> list[Job]:
    """The answers mutated: every ``every``-th TAT-QA answer (its table in ``layout``) and,
    where present, FinanceBench's oracle answers on their pages."""
    tatqa = _module("hj_fuzz_tatqa", HERE / "tatqa.py")
    out: list[Job] = [
        (it.answer, tuple(d.passages), it.question)
        for d in tatqa.build_documents(tatqa.load_documents(), layout=layout)
        for it in d.items
    ][::every]
    if financebench:
        fb = _module("hj_fuzz_financebench", HERE / "financebench.py")
        if (fb.DATA / "questions_dev.jsonl").is_file():
            out += [(a.answer, tuple(a.pages), a.question) for a in fb.load_answers(fb.DATA)]
    return out


def mutate(rng: random.Random, text: str, edits: int, bag: Sequence[Sequence[str]]) -> str:
    """``text`` with ``edits`` random edits (see the module's docstring); ``bag``: the groups
    of pieces to insert (:func:`pieces`)."""
    chars = list(text)
    for _ in range(edits):
        if not chars:
            chars = list(rng.choice(rng.choice(bag)))
            continue
        r = rng.random()
        i = rng.randrange(len(chars))
        if r < 0.3:
            digits = [j for j, c in enumerate(chars) if c.isdigit()]
            if digits:
                chars[rng.choice(digits)] = rng.choice(_DIGITS)
        elif r < 0.5:
            chars.insert(i, rng.choice(rng.choice(bag)) + rng.choice(("", " ")))
        elif r < 0.65:
            del chars[i]
        elif r < 0.8:
            j = rng.randrange(len(chars))
            chars[i:i] = chars[j : j + rng.randint(1, 30)]
        else:
            chars.insert(i, rng.choice(_BREAKS))
    return "".join(chars)


@dataclass
class Failure:
    """A case whose paths disagreed (``kind`` ``differ``) or that raised (``crash``)."""

    number: int
    kind: str
    detail: str
    answer: str
    passages: list[str]
    question: str | None


def _signature(report: Any) -> tuple[Any, ...]:
    return (
        report.grounded,
        report.abstained,
        tuple((f.kind, f.subject) for f in report.findings),
    )


def check_case(answer: str, passages: list[str], question: str | None, number: int) -> str | None:
    """The three paths on one case: ``None`` when they agree, else what differed (an exception
    propagates). Each path sees a context no memo holds (a distinct passage ``ref ...``)."""
    from hybridjudge.grounding import (
        GroundingChecker,
        GroundingInputError,
        _fast,
        check_grounding,
        prepare_context,
    )

    try:
        _fast.ENABLED = True
        fast = _signature(
            check_grounding(answer, [*passages, f"ref fa{number}"], question=question)
        )
        _fast.ENABLED = False
        full = _signature(
            check_grounding(answer, [*passages, f"ref fu{number}"], question=question)
        )
        _fast.ENABLED = True
        context = prepare_context([*passages, f"ref pr{number}"])
        prepared = _signature(GroundingChecker(context, question=question).check(answer))
    except GroundingInputError:
        return None  # an input refused by name is an outcome
    finally:
        _fast.ENABLED = True
    if fast == full == prepared:
        return None
    return f"fast path {fast}; full index {full}; prepared {prepared}"


def run(
    cases: int | None,
    seconds: float | None,
    seed: int,
    layout: str,
    financebench: bool = True,
    progress: bool = False,
) -> tuple[int, list[Failure]]:
    """Mutated cases through :func:`check_case` until ``cases`` ran or ``seconds`` passed (the
    first of them given): how many ran and the failures."""
    rng = random.Random(seed)
    pool = jobs(layout, financebench=financebench)
    bag = pieces()
    failures: list[Failure] = []
    end = time.monotonic() + seconds if seconds is not None else None
    number = 0
    while (cases is None or number < cases) and (end is None or time.monotonic() < end):
        number += 1
        answer, passages, question = rng.choice(pool)
        answer = mutate(rng, answer, rng.randint(1, 4), bag)
        texts = list(passages)
        if rng.random() < 0.3:
            k = rng.randrange(len(texts))
            texts[k] = mutate(rng, texts[k], rng.randint(1, 6), bag)
        if question and rng.random() < 0.2:
            question = mutate(rng, question, 1, bag)
        try:
            detail = check_case(answer, texts, question, number)
        except Exception as exc:  # every exception is the finding here
            last = traceback.format_exc().strip().splitlines()[-3:]
            detail = f"{type(exc).__name__}: {exc} | " + " / ".join(x.strip() for x in last)
            failures.append(Failure(number, "crash", detail, answer, texts, question))
        else:
            if detail is not None:
                failures.append(Failure(number, "differ", detail, answer, texts, question))
        if progress and number % 1000 == 0:
            print(f"  {number:,} cases, {len(failures)} failing", file=sys.stderr)
    return number, failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, help="cases to run (default 2,000; none: --seconds)")
    parser.add_argument("--seconds", type=float, help="stop after this long")
    parser.add_argument("--seed", type=int, default=SEED, help=f"seed (default {SEED})")
    parser.add_argument(
        "--layout",
        default="pipe",
        help="TAT-QA's tables as validity/tatqa.py renders them (pipe, markdown, bordered, html, "
        "csv, tsv, pdf, glued)",
    )
    parser.add_argument("--no-financebench", action="store_true", help="TAT-QA only")
    parser.add_argument("--out", type=Path, help="write every failing case to this JSON file")
    args = parser.parse_args(argv)
    cases = args.cases if args.cases is not None or args.seconds is not None else 2_000
    start = time.monotonic()
    ran, failures = run(
        cases, args.seconds, args.seed, args.layout, not args.no_financebench, progress=True
    )
    crashes = sum(f.kind == "crash" for f in failures)
    print(
        f"{ran:,} mutated cases (seed {args.seed}, TAT-QA {args.layout}), "
        f"{time.monotonic() - start:.0f} s: {crashes} crashed, "
        f"{len(failures) - crashes} with paths that disagree"
    )
    for f in failures[:20]:
        print(f"  case {f.number} {f.kind}: {f.detail[:300]}")
    if args.out is not None:
        args.out.write_text(
            json.dumps([f.__dict__ for f in failures], ensure_ascii=False, indent=1),
            encoding="utf-8",
        )
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
