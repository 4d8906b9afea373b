"""``hybridjudge judge --scorers hybrid``: the cascade on every case of a case file.

The checks first (an answer they fail is decided without a call), then the claims the context
states as written (no call), then ``--hybrid-judges`` on the remaining claims
(:func:`hybridjudge.judges.aevaluate_many`; ``docs/hybrid.md``). ``--json`` prints one object per
case and repetition, as for the judges, whose ``results.hybrid`` is a
:class:`~hybridjudge.judges.CascadeResult` (the stage of the output and of each claim, the checks'
report, each judge's result on the remaining claims). Exit codes as ``judge``: 1 when an output
scores below the threshold (a failed check scores 0.0), 3 when more results are unscored than
``--max-unscored`` allows.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hybridjudge.corpus import CaseLine
    from hybridjudge.grounding import CheckRecord
    from hybridjudge.judges import CascadeBatch
    from hybridjudge.model import CostBudget, ModelConfig, Usage

__all__ = ["add_hybrid_judges_argument", "check_records", "run_hybrid"]


def add_hybrid_judges_argument(parser: argparse.ArgumentParser) -> None:
    """``--hybrid-judges`` and ``--hybrid-grade-failed``, one definition for ``study run`` and
    ``judge``."""
    parser.add_argument(
        "--hybrid-judges",
        default=None,
        metavar="JUDGES",
        help="the judges the hybrid scorer asks about the claims the checks leave: support, "
        "contradiction or support,contradiction (default contradiction, measured best; "
        "docs/hybrid.md); needs hybrid in --scorers",
    )
    parser.add_argument(
        "--hybrid-grade-failed",
        action="store_true",
        help="the hybrid scorer grades an output the checks fail claim by claim (still flagged; "
        "the judges asked about the claims no finding is in) instead of scoring it 0.0 without "
        "a call: a defect added to a wrong answer then lowers its score; needs hybrid in "
        "--scorers",
    )


def check_records(cases: list[tuple[int, CaseLine]]) -> list[CheckRecord]:
    """The case lines as the cascade reads them."""
    from hybridjudge.grounding import CheckRecord

    return [
        CheckRecord(
            id=c.id,
            answer=c.answer,
            context=c.context,
            question=c.question,
            anchors=c.anchors,
            answerable=c.answerable,
            allowed_numbers=c.allowed_numbers,
            metadata=dict(c.metadata),
        )
        for _, c in cases
    ]


def run_hybrid(
    args: argparse.Namespace,
    config: ModelConfig,
    cases: list[tuple[int, CaseLine]],
    limits: dict[str, float],
    fail_under: dict[str, float],
    budget: CostBudget | None,
    bad: int,
    lines: int,
) -> int:
    """Run the cascade on ``cases`` and print its results; the command's exit code."""
    import asyncio

    from hybridjudge.cli._exit import EXIT_INCOMPLETE, judged_incomplete
    from hybridjudge.cli._judge import JSON_FORMAT_VERSION, judged_outputs_fail

    batch, usage = asyncio.run(_evaluate(args, config, cases, limits["hybrid"], budget))
    line_of = [line for line, _ in cases]
    if args.json:
        for o in batch.outcomes:
            record = {
                "format_version": JSON_FORMAT_VERSION,
                "line": line_of[o.index],
                "id": o.id,
                "repetition": o.repetition,
                "mode": args.mode,
                "results": {"hybrid": o.result.model_dump(mode="json")},
                "usage": o.result.usage.model_dump(mode="json"),
                "metadata": o.metadata,
            }
            sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")
    else:
        for o in batch.outcomes:
            r = o.result
            shown = f"{r.score:.2f}" if r.score is not None else f"unscored: {r.unscored_reason}"
            stages = ",".join(r.claim_stages) or "-"
            print(f"{o.id}\trep {o.repetition}\t{shown}\tstage {r.stage}\tclaims {stages}")
        counts = batch.stage_counts()
        print(
            f"{len(batch.outcomes)} evaluation(s) of the hybrid scorer (judges: "
            f"{','.join(batch.judges)}): decided by the checks {counts['checks']}, as written "
            f"{counts['as_written']}, by the judges {counts['judge']}, unscored "
            f"{counts['unscored']}; {usage.calls} model call(s), {usage.cache_hits} cache hit(s), "
            f"{usage.prompt_tokens}/{usage.completion_tokens} tokens"
        )
    if bad:
        print(
            f"hybridjudge judge: {bad} of {lines} line(s) unusable (see above); fix them and "
            "rerun (judged lines are cached)",
            file=sys.stderr,
        )
        return 2
    unscored = sum(o.result.status == "unscored" for o in batch.outcomes)
    counts_by = {"hybrid": (unscored, len(batch.outcomes))}
    if judged_incomplete("hybridjudge judge", counts_by, args.max_unscored, "see the results"):
        return EXIT_INCOMPLETE
    scores = {
        "hybrid": [(o.id, o.result.score) for o in batch.outcomes if o.result.score is not None]
    }
    return judged_outputs_fail(scores, limits, fail_under)


async def _evaluate(
    args: argparse.Namespace,
    config: ModelConfig,
    cases: list[tuple[int, CaseLine]],
    threshold: float,
    budget: CostBudget | None,
) -> tuple[CascadeBatch, Usage]:
    from hybridjudge.judges import aevaluate_many
    from hybridjudge.model import ModelClient

    records = check_records(cases)
    async with ModelClient(config, budget=budget) as client:
        batch = await aevaluate_many(
            records,
            judges=args.hybrid_judges,
            mode=args.mode,
            repetitions=args.repetitions,
            client=client,
            max_claims=args.max_claims,
            threshold=threshold,
            grade_failed=args.hybrid_grade_failed,
        )
        return batch, client.usage
