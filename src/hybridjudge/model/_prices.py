"""List prices of common chat models, in US dollars per million tokens.

The table is a default, not the truth: prices change, gateways add margins, batch and cached
prompts are cheaper. Override with ``--price-in/--price-out`` (``HYBRIDJUDGE_PRICE_IN`` /
``HYBRIDJUDGE_PRICE_OUT``). A model that is not in the table and has no price given still runs:
:class:`hybridjudge.model.ModelClient` counts its tokens and reports its cost as unknown
(``None``, shown as "unknown price"), never as a silent $0 (:func:`price_or_unknown`); pass
``--price-in 0 --price-out 0`` for a free or self-hosted endpoint. The embedded local model
costs 0.

Lookup (:func:`lookup_price`) accepts a gateway prefix (``openai/gpt-4o``,
``anthropic/claude-sonnet-4``) and a dated or ``-latest`` snapshot suffix
(``gpt-4o-2024-08-06``, ``claude-3-5-haiku-20241022``), nothing looser: ``gpt-4o-audio-preview``
is priced differently and is not matched by ``gpt-4o``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from hybridjudge.model._config import ModelConfig

__all__ = ["PRICES", "PRICES_AS_OF", "ModelPrice", "lookup_price", "price_or_unknown"]


class ModelPrice(NamedTuple):
    """Price of one model in US dollars per million tokens."""

    input_per_mtok: float
    """Prompt (input) tokens."""
    output_per_mtok: float
    """Completion (output) tokens."""


PRICES_AS_OF = "2025-08"
"""When the table below was last checked against the providers' public price pages."""

PRICES: dict[str, ModelPrice] = {
    # OpenAI (platform.openai.com/docs/pricing, standard tier)
    "gpt-4o": ModelPrice(2.50, 10.00),
    "gpt-4o-mini": ModelPrice(0.15, 0.60),
    "gpt-4.1": ModelPrice(2.00, 8.00),
    "gpt-4.1-mini": ModelPrice(0.40, 1.60),
    "gpt-4.1-nano": ModelPrice(0.10, 0.40),
    "gpt-5": ModelPrice(1.25, 10.00),
    "gpt-5-mini": ModelPrice(0.25, 2.00),
    "gpt-5-nano": ModelPrice(0.05, 0.40),
    "o3": ModelPrice(2.00, 8.00),
    "o3-mini": ModelPrice(1.10, 4.40),
    "o4-mini": ModelPrice(1.10, 4.40),
    # Anthropic models behind OpenAI-compatible gateways (anthropic.com/pricing)
    "claude-opus-4": ModelPrice(15.00, 75.00),
    "claude-opus-4-1": ModelPrice(15.00, 75.00),
    "claude-sonnet-4": ModelPrice(3.00, 15.00),
    "claude-3-7-sonnet": ModelPrice(3.00, 15.00),
    "claude-3-5-sonnet": ModelPrice(3.00, 15.00),
    "claude-3-5-haiku": ModelPrice(0.80, 4.00),
}
"""Default prices by model name (without gateway prefix or snapshot suffix)."""

_SNAPSHOT = re.compile(r"-(?:\d{4}-\d{2}-\d{2}|\d{8}|latest)$")


def lookup_price(model: str) -> ModelPrice | None:
    """The table price of ``model``, or ``None`` when the table does not know it.

    >>> lookup_price("gpt-4o-mini-2024-07-18")
    ModelPrice(input_per_mtok=0.15, output_per_mtok=0.6)
    >>> lookup_price("openai/gpt-4o") == PRICES["gpt-4o"]
    True
    >>> lookup_price("my-finetune") is None
    True
    """
    name = model.strip().lower()
    if "/" in name:
        name = name.rsplit("/", 1)[1]
    if name in PRICES:
        return PRICES[name]
    return PRICES.get(_SNAPSHOT.sub("", name))


def price_or_unknown(config: ModelConfig) -> ModelPrice | None:
    """The price *config* charges (given, else the table's), or ``None`` when it is unknown.

    ``None`` means "cost unknown": the model is called and its tokens are counted, and every
    cost is reported as unknown rather than $0.

    Raises:
        ConfigError: any configuration problem other than an unknown price.
    """
    from hybridjudge._errors import ConfigError

    try:
        return config.price()
    except ConfigError as exc:
        if exc.code == "unknown_price":
            return None
        raise
