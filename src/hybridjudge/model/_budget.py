"""A spending limit for one run: ``--max-cost USD`` / ``CostBudget(limit_usd)``.

Every request that would go to the endpoint (a cache miss; a cached reply costs nothing and is
always served) first *reserves* its worst-case cost; when the money spent plus the reservations
of the requests in flight plus this worst case would exceed the limit, the request is not sent
and :class:`BudgetExhaustedError` is raised. From then on the budget is *exhausted*: every later
cache miss is refused too, so the run stops making calls (it does not go on with the smaller
calls that still fit) and each output left is recorded as unscored ``budget_exhausted``. When a
reply comes back, its reservation is replaced by its real cost.

The worst case of one request is an upper bound, so the limit is never crossed:

- prompt tokens: every UTF-8 byte of the messages a token (a byte-level BPE token, as in the
  GPT, Llama and Qwen tokenizers, covers at least one byte) plus :data:`MESSAGE_OVERHEAD_TOKENS`
  per message for the chat template;
- completion tokens: the request's whole ``max_tokens`` budget;

priced at the configured or table price (:func:`~hybridjudge.model.price_or_unknown`). A reply
whose token counts are unknown (no ``usage`` in the body) is counted at its worst case. A model
without a known price cannot be budgeted in dollars: :class:`~hybridjudge.model.ModelClient`
refuses a budget for it (``ConfigError`` code ``budget_needs_price``) rather than counting its
calls as free; give ``price_input_per_mtok``/``price_output_per_mtok`` (``--price-in``/
``--price-out``). One budget may be shared by several clients of one run (the study's judges and
peers): it is guarded by a lock, not tied to an event loop.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from hybridjudge._errors import ConfigError, HybridJudgeError
from hybridjudge._params import check_max_cost
from hybridjudge.model._prices import ModelPrice, price_or_unknown

if TYPE_CHECKING:
    from hybridjudge.model._config import ModelConfig

__all__ = [
    "MESSAGE_OVERHEAD_TOKENS",
    "BudgetExhaustedError",
    "CostBudget",
    "budget_price",
    "worst_case_cost",
]

MESSAGE_OVERHEAD_TOKENS = 16
"""Tokens a chat template may add per message (role markers, separators): generous."""


class BudgetExhaustedError(HybridJudgeError, RuntimeError):
    """A request was not sent: its worst-case cost would have crossed the run's ``--max-cost``
    (or the budget was already exhausted by an earlier refusal). The judges record the output
    as unscored ``budget_exhausted`` and go on (every later request is refused too)."""

    code = "budget_exhausted"


def budget_price(config: ModelConfig) -> ModelPrice:
    """The price a budget counts ``config``'s calls at.

    Raises:
        ConfigError: code ``budget_needs_price``: no price is known for the model (none given,
            none in the table); its calls cannot be counted against a limit in dollars.
    """
    price = price_or_unknown(config)
    if price is None:
        raise ConfigError(
            f"--max-cost: no price is known for model {config.model!r}, so its calls cannot "
            "be counted against a limit in dollars; give its prices with --price-in and "
            "--price-out (USD per million tokens; price_input_per_mtok / "
            "price_output_per_mtok), or drop --max-cost",
            code="budget_needs_price",
        )
    return price


def worst_case_cost(
    messages: Sequence[Mapping[str, object]], max_tokens: int, price: ModelPrice
) -> float:
    """The most one request can cost: every prompt byte a token plus
    :data:`MESSAGE_OVERHEAD_TOKENS` per message, and the whole completion budget."""
    prompt = sum(
        len(str(m.get("content", "")).encode("utf-8", "surrogatepass")) + MESSAGE_OVERHEAD_TOKENS
        for m in messages
    )
    return (prompt * price.input_per_mtok + max_tokens * price.output_per_mtok) / 1_000_000


class CostBudget:
    """A run's spending limit in US dollars, shared by every client of the run.

    ``ModelClient(config, budget=CostBudget(2.0))`` (or ``max_cost_usd=2.0`` where the API
    takes it) stops the run before the request whose worst-case cost would cross $2.00; see the
    module docstring for the rules.
    """

    def __init__(self, limit_usd: float) -> None:
        self.limit_usd = check_max_cost(limit_usd, "limit_usd")
        """The limit."""
        self._lock = threading.Lock()
        self._spent = 0.0
        self._reserved = 0.0
        self._refused = 0
        self._exhausted: str | None = None

    def __repr__(self) -> str:
        return f"CostBudget(limit_usd={self.limit_usd!r}, spent_usd={self.spent_usd!r})"

    @property
    def spent_usd(self) -> float:
        """Dollars spent so far (replies received; one without token counts at its worst case)."""
        with self._lock:
            return self._spent

    @property
    def refused(self) -> int:
        """Requests not sent because of the limit."""
        with self._lock:
            return self._refused

    @property
    def exhausted(self) -> bool:
        """Whether a request has been refused (then every later one is refused too)."""
        with self._lock:
            return self._exhausted is not None

    def reserve(self, worst_usd: float, what: str = "the next request") -> float:
        """Reserve ``worst_usd`` for one request about to be sent; returns the amount reserved,
        to :meth:`settle` once the reply is in.

        Raises:
            BudgetExhaustedError: spent + in flight + ``worst_usd`` would exceed the limit, or
                an earlier request was refused already.
        """
        with self._lock:
            if self._exhausted is None:
                if self._spent + self._reserved + worst_usd <= self.limit_usd:
                    self._reserved += worst_usd
                    return worst_usd
                self._exhausted = (
                    f"--max-cost ${self.limit_usd:.4f} reached: {what} could cost up to "
                    f"${worst_usd:.6f} with ${self._spent:.6f} spent and "
                    f"${self._reserved:.6f} in flight"
                )
            self._refused += 1
            raise BudgetExhaustedError(
                f"{self._exhausted}; not sent (no further request is sent in this run; "
                "raise --max-cost and rerun: the replies received are cached)"
            )

    def settle(self, reserved: float, cost_usd: float | None) -> None:
        """Replace a reservation by the request's real cost (``None``, unknown: the
        reservation is kept as spent; ``0`` when nothing was billed, e.g. a refused request)."""
        with self._lock:
            self._reserved = max(0.0, self._reserved - reserved)
            self._spent += reserved if cost_usd is None else cost_usd
