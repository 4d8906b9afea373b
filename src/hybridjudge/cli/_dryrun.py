"""``--dry-run``: how many model calls and tokens a judge run would take, before spending any.

The estimate renders the real prompts for every answer and repetition. Calls: one claim
extraction per answer, then one verdict call per scorer (``separate`` mode) or one in all
(``shared``); answers the judges skip without a model (none here: the estimate is an upper
bound) and replies already in the cache are not subtracted. Prompt tokens: the rendered
messages' characters / 4 (the usual rule of thumb for English with OpenAI tokenizers), with
the claims as long as the answer. Completion tokens: the judges' own ``max_tokens`` budgets
(an upper bound), the number of claims taken as the answer's sentence count. Cost: the
configured or table price, or "unknown price". The estimate names the backend it priced and, for
the embedded model, whether it is installed here. An answer against an empty context makes no
call (the judges score it 0.0 as ``no_context``, or 1.0 when it abstains). A record that a run
would refuse (a field of the wrong type: ``record_error``; more claims than ``--max-claims``:
``too_many_claims``, no call) is not estimated: it is listed with the reason, as the run would
record it, and counts as unscored for ``--max-unscored``. With ``--max-cost`` the estimate is
compared with the limit: a worst case above it means the run may stop before its end
(``budget_exhausted``).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from hybridjudge._params import DEFAULT_MAX_CLAIMS

if TYPE_CHECKING:
    from hybridjudge.grounding import CheckRecord
    from hybridjudge.judges import PlannedCall
    from hybridjudge.model import ModelConfig

__all__ = [
    "DryRunEstimate",
    "RefusedRecord",
    "add_dry_run_argument",
    "estimate_hybrid",
    "estimate_judging",
    "estimate_planned",
    "print_estimate",
    "refused_incomplete",
]


def add_dry_run_argument(parser: argparse.ArgumentParser) -> None:
    """Add ``--dry-run`` (one wording for ``judge`` and ``study run``)."""
    parser.add_argument(
        "--dry-run",
        action="store_true",
        help="estimate the judges' model calls, tokens and cost, then stop without any request",
    )


@dataclass(frozen=True, slots=True)
class RefusedRecord:
    """A record that a run would not judge (``record_error``), found by the dry run."""

    index: int
    """Its position among the answers estimated (0-based)."""
    error: str
    """Why, as the run would record it."""
    reason: str = "record_error"
    """The unscored reason a run would record: ``record_error`` or ``too_many_claims``."""


@dataclass(frozen=True, slots=True)
class DryRunEstimate:
    """Upper bounds of a judge run, computed without any request."""

    evaluations: int
    """Answers x repetitions."""
    calls: int
    """Model calls (one per claim and question at most), before cache hits."""
    prompt_tokens: int
    """Estimated prompt tokens (characters / 4)."""
    completion_tokens: int
    """Completion tokens at most (the judges' ``max_tokens`` budgets)."""
    cost_usd: float | None
    """Cost at the configured or table price; ``None`` when the price is unknown."""
    worst_case_usd: float | None = None
    """The most the calls can cost as ``--max-cost`` counts them (every prompt byte a token,
    the whole completion budgets: :func:`hybridjudge.model.worst_case_cost`); ``None`` when
    the price is unknown. A limit at or above it never stops the run."""
    refused: tuple[RefusedRecord, ...] = ()
    """Records a run would refuse (not in the figures above); each is ``record_error``
    (unscored) in every repetition of a real run."""


def _tokens(text: str) -> int:
    return (len(text) + 3) // 4


def estimate_judging(
    answers: Sequence[tuple[str, Sequence[str], str | None]],
    *,
    scorers: Sequence[str],
    mode: str,
    repetitions: int,
    config: ModelConfig,
    max_claims: int | None = DEFAULT_MAX_CLAIMS,
) -> DryRunEstimate:
    """Estimate judging every ``(answer, context, question)`` *repetitions* times (an answer
    with more claims than ``max_claims`` is refused, as a run refuses it)."""
    from hybridjudge.judges import planned_calls

    def plan(answer: str, context: Sequence[str], question: str | None) -> Planner:
        return lambda: planned_calls(
            answer, context, question, scorers=scorers, mode=mode, max_claims=max_claims
        )

    return estimate_planned([plan(*a) for a in answers], repetitions=repetitions, config=config)


def estimate_hybrid(
    records: Sequence[CheckRecord],
    *,
    judges: Sequence[str] | str | None,
    mode: str,
    repetitions: int,
    config: ModelConfig,
    max_claims: int | None = DEFAULT_MAX_CLAIMS,
    grade_failed: bool = False,
) -> DryRunEstimate:
    """Estimate the hybrid scorer on every record *repetitions* times: its free stages (the
    checks, the claims stated as written) run here, and only the calls its judges can make on
    the claims they leave are counted (:func:`hybridjudge.judges.cascade_planned_calls`)."""
    from hybridjudge.judges import cascade_planned_calls

    def plan(record: CheckRecord) -> Planner:
        return lambda: cascade_planned_calls(
            record,
            judges=judges,
            mode=mode,  # type: ignore[arg-type]
            max_claims=max_claims,
            grade_failed=grade_failed,
        )

    return estimate_planned([plan(r) for r in records], repetitions=repetitions, config=config)


Planner = Callable[[], "list[PlannedCall]"]
"""Plans one answer's calls, or raises the :class:`~hybridjudge.InputError` a run records."""


def estimate_planned(
    planners: Sequence[Planner], *, repetitions: int, config: ModelConfig
) -> DryRunEstimate:
    """Sum the calls each planner plans, *repetitions* times; a planner's ``InputError`` is a
    refused record (``too_many_claims`` or ``record_error``)."""
    from hybridjudge._errors import InputError
    from hybridjudge.model import price_or_unknown, worst_case_cost

    price = price_or_unknown(config)
    worst = 0.0
    calls = prompt = completion = 0
    refused: list[RefusedRecord] = []
    for index, planner in enumerate(planners):
        # every verdict call the judges can make (one per claim and question, claims being the
        # answer's sentences): an upper bound
        try:
            planned = planner()
        except InputError as error:  # the run records it (no call) and goes on
            reason = "too_many_claims" if error.code == "too_many_claims" else "record_error"
            refused.append(RefusedRecord(index, str(error), reason))
            continue
        for call in planned:
            prompt += sum(_tokens(m["content"]) for m in call.messages)
            completion += call.max_tokens
            calls += 1
            if price is not None:
                worst += worst_case_cost(call.messages, call.max_tokens, price)
    calls *= repetitions
    prompt *= repetitions
    completion *= repetitions
    cost = (
        None
        if price is None
        else (prompt * price.input_per_mtok + completion * price.output_per_mtok) / 1_000_000
    )
    return DryRunEstimate(
        evaluations=len(planners) * repetitions,
        calls=calls,
        prompt_tokens=prompt,
        completion_tokens=completion,
        cost_usd=cost,
        worst_case_usd=None if price is None else worst * repetitions,
        refused=tuple(refused),
    )


def _versus_limit(estimate: DryRunEstimate, max_cost: float) -> str:
    """The estimate against ``--max-cost``, in words."""
    limit = f"--max-cost ${max_cost:.4f}"
    worst = estimate.worst_case_usd
    if worst is None:  # not reached: a run refuses a limit without a price
        return f"{limit}: the price is unknown; a run needs --price-in/--price-out"
    shown = f"the worst case it counts (every prompt byte a token) is ${worst:.4f}"
    if worst <= max_cost:
        return f"{limit}: {shown}, within it: the run will not be stopped"
    return (
        f"{limit}: {shown}, above it: the run may stop before its end (before cache hits), "
        "leaving the outputs not judged unscored (budget_exhausted)"
    )


def print_estimate(
    command: str,
    estimate: DryRunEstimate,
    config: ModelConfig,
    *,
    as_json: bool = False,
    max_cost: float | None = None,
) -> None:
    """Print the estimate (stdout) and say that no request was made; ``as_json``: as one JSON
    object (``dry_run``, ``model``, ``backend``, ``backend_installed``, ``max_cost_usd``
    (``null``: no limit), the :class:`DryRunEstimate` fields; a cost of ``null`` is an unknown
    price; ``refused``: ``{"index", "error", "reason"}`` objects), for ``--json``. ``max_cost``:
    ``--max-cost``, compared with the estimate. Refused records are listed by
    :func:`refused_incomplete`, not here."""
    problem = _backend_problem(config)
    if as_json:
        record = {
            "dry_run": True,
            "model": config.model,
            "backend": config.backend,
            "max_cost_usd": max_cost,
        }
        record["backend_installed"] = problem is None
        print(json.dumps(record | dataclasses.asdict(estimate)))
        sys.stdout.flush()
        return
    cost = "unknown price" if estimate.cost_usd is None else f"${estimate.cost_usd:.4f}"
    capped = sum(r.reason == "too_many_claims" for r in estimate.refused)
    print(
        f"{command} --dry-run: {estimate.evaluations} evaluation(s) on {config.model} "
        f"({config.backend}): at most {estimate.calls} model call(s), about "
        f"{estimate.prompt_tokens:,} prompt token(s) and at most "
        f"{estimate.completion_tokens:,} completion token(s); cost at most {cost} "
        "(before cache hits). No request was made."
    )
    print(f"{command} --dry-run: priced backend: {_backend_note(config, problem)}")
    if capped:
        print(
            f"{command} --dry-run: {capped} answer(s) over --max-claims would not be judged "
            "(too_many_claims, no model call; listed on stderr)"
        )
    if max_cost is not None:
        print(f"{command} --dry-run: {_versus_limit(estimate, max_cost)}")
    sys.stdout.flush()


def _backend_problem(config: ModelConfig) -> str | None:
    """Why the priced backend cannot run here (the embedded model not installed), or ``None``
    (an endpoint is not contacted by a dry run: it is only named)."""
    if config.backend != "local":
        return None
    from hybridjudge.model import local_model_problem

    return local_model_problem()


def _backend_note(config: ModelConfig, problem: str | None) -> str:
    """``local (the embedded model), installed`` or what is missing and how to get it."""
    if config.backend != "local":
        return f"openai-compatible endpoint {config.base_url} (not contacted by a dry run)"
    if problem is None:
        return "local (the embedded model), installed"
    from hybridjudge.model import LOCAL_MODEL_HINT

    return f"local, NOT installed: {problem}; a run would stop; {LOCAL_MODEL_HINT}"


def refused_incomplete(
    command: str,
    estimate: DryRunEstimate,
    names: Sequence[str],
    scorers: Sequence[str],
    repetitions: int,
    max_share: float,
) -> bool:
    """Name on stderr each record a run would refuse (``names``: how to call the record at each
    index, e.g. its line), and say whether the run would end incomplete (exit 3) on their
    account: every scorer gets one ``record_error`` per refused record and repetition, out of
    ``estimate.evaluations`` results (the rule of :func:`hybridjudge.cli._exit.judged_incomplete`,
    which prints the verdict)."""
    from hybridjudge.cli._exit import judged_incomplete

    for record in estimate.refused:
        print(
            f"{command} --dry-run: {names[record.index]}: would not be judged "
            f"({record.reason}): {record.error}",
            file=sys.stderr,
        )
    if not estimate.refused:
        return False
    unscored = len(estimate.refused) * repetitions
    counts = dict.fromkeys(scorers, (unscored, estimate.evaluations))
    see = "a run would record the refused records above as unscored"
    return judged_incomplete(f"{command} --dry-run", counts, max_share, see)
