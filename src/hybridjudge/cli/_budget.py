"""``--max-claims`` and ``--max-cost``: the judges' budget, one wording for ``judge`` and
``study run``.

``--max-claims N`` (default :data:`hybridjudge._params.DEFAULT_MAX_CLAIMS`): an answer with more
claims is unscored ``too_many_claims`` and costs no verdict call. ``--max-cost USD``: the run
stops before the request whose worst-case cost could cross the limit
(:mod:`hybridjudge.model._budget`); the outputs left are unscored ``budget_exhausted``, and the
run ends incomplete (exit 3) under the usual ``--max-unscored`` rule. A model without a known
price needs ``--price-in``/``--price-out`` for ``--max-cost`` (exit 2 otherwise). Cache hits
cost nothing, so a rerun with a higher limit resumes where the run stopped.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from hybridjudge._params import DEFAULT_MAX_CLAIMS

if TYPE_CHECKING:
    from hybridjudge.model import CostBudget

__all__ = ["add_budget_arguments", "budget_from_args", "report_budget"]


def _claims(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(
            f"--max-claims expects a whole number of at least 1, got {text!r}"
        )
    return value


def _dollars(text: str) -> float:
    import math

    try:
        value = float(text.strip().removeprefix("$"))
    except ValueError:
        value = float("nan")
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(
            f"--max-cost expects a number of US dollars >= 0 (e.g. 2.50), got {text!r}"
        )
    return value


def add_budget_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--max-claims N`` and ``--max-cost USD``."""
    group = parser.add_argument_group("budget")
    group.add_argument(
        "--max-claims",
        type=_claims,
        default=DEFAULT_MAX_CLAIMS,
        metavar="N",
        help="an answer with more claims (sentences) than N is not judged: unscored "
        "too_many_claims, no model call (a score of its first N claims would not be the "
        f"answer's) (default: {DEFAULT_MAX_CLAIMS})",
    )
    group.add_argument(
        "--max-cost",
        type=_dollars,
        default=None,
        metavar="USD",
        help="stop before the model request whose worst-case cost (every prompt byte a token, "
        "the whole completion budget) could take the run's spending above USD; the outputs "
        "left are unscored budget_exhausted (exit 3 under --max-unscored). Cache hits cost "
        "nothing. A model with no known price needs --price-in/--price-out (default: no limit)",
    )


def budget_from_args(args: argparse.Namespace) -> CostBudget | None:
    """The run's :class:`~hybridjudge.model.CostBudget` for ``--max-cost``, or ``None``."""
    if args.max_cost is None:
        return None
    from hybridjudge.model import CostBudget

    return CostBudget(args.max_cost)


def report_budget(command: str, budget: CostBudget | None, left: int) -> None:
    """When ``--max-cost`` stopped the run, say so on stderr: the limit, what was spent, how
    many outputs were left unscored (``left``: the ``budget_exhausted`` results)."""
    if budget is None or not budget.exhausted:
        return
    print(
        f"{command}: stopped by --max-cost ${budget.limit_usd:.4f}: ${budget.spent_usd:.4f} "
        f"spent; {budget.refused} request(s) not sent, {left} result(s) left unscored "
        "(budget_exhausted); raise --max-cost and rerun (the replies received are cached and "
        "cost nothing again)",
        file=sys.stderr,
    )
