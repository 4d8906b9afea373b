"""The model-call layer: the only code in hybridjudge that talks to a model.

Any OpenAI-compatible chat-completions endpoint (openai SDK 2.x on httpx), or the embedded
offline model. :class:`ModelClient` owns the disk cache, retries, rate limits, usage accounting
and structured output; :class:`ModelConfig` holds every setting (code or ``HYBRIDJUDGE_*``
variables; the command line's flags live in :mod:`hybridjudge.cli`).

Example::

    async with ModelClient(ModelConfig.from_env()) as client:
        result = await client.complete_structured(
            [{"role": "user", "content": "Reply with JSON {\\"answer\\": 4} for 2+2."}],
            Answer, prompt_name="demo", prompt_version="1",
        )
        if result.status == "ok":
            print(result.value, result.usage.cost_usd)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hybridjudge._lazy import lazy_attribute as _lazy_attribute
from hybridjudge._lazy import lazy_dir as _lazy_dir

if TYPE_CHECKING:
    from hybridjudge.model._budget import (
        BudgetExhaustedError,
        CostBudget,
        budget_price,
        worst_case_cost,
    )
    from hybridjudge.model._cache import (
        CACHE_FORMAT_VERSION,
        CACHE_LAYOUT_VERSION,
        MAX_ENTRY_BYTES,
        REDIS_KEY_PREFIX,
        CachedReply,
        CacheStats,
        CorruptCacheError,
        RedisReplyCache,
        ReplyCache,
        ReplyStore,
        cache_key,
        cache_stats,
        clear_cache,
        is_cache_url,
        open_reply_cache,
    )
    from hybridjudge.model._client import ChatMessage, ModelClient, RateLimiter
    from hybridjudge.model._config import (
        CONFIG_ENV_VARS,
        DEFAULT_CACHE_DIR,
        LOCAL_MODEL_NAME,
        LOCAL_MODEL_SHA256,
        NO_CACHE_ENV,
        OPENAI_API_KEY_ENV,
        OPENAI_BASE_URL,
        OPENAI_BASE_URL_ENV,
        Backend,
        ModelConfig,
        default_cache_dir,
    )
    from hybridjudge.model._local import LocalModelServer
    from hybridjudge.model._prices import (
        PRICES,
        PRICES_AS_OF,
        ModelPrice,
        lookup_price,
        price_or_unknown,
    )
    from hybridjudge.model._server import serve_local_model
    from hybridjudge.model._structured import FormatMode, extract_json
    from hybridjudge.model._types import CallResult, CallStatus, Usage, add_costs
    from hybridjudge.model._weights import (
        LOCAL_MODEL_HINT,
        LOCAL_MODEL_LICENSE,
        LOCAL_MODEL_SOURCE,
        ModelFileInfo,
        local_model_problem,
        model_file,
        verify_model_file,
    )

# Each name loads its private module on first use (PEP 562): ``from hybridjudge.model import Usage``
# (what study results need) does not import openai, httpx or sqlite3; ``ModelClient`` does.
# Adding a public name: import it under TYPE_CHECKING above, map it here, list it in __all__.
_LAZY: dict[str, str] = {
    "BudgetExhaustedError": "_budget",
    "CostBudget": "_budget",
    "budget_price": "_budget",
    "worst_case_cost": "_budget",
    "CACHE_FORMAT_VERSION": "_cache",
    "CACHE_LAYOUT_VERSION": "_cache",
    "MAX_ENTRY_BYTES": "_cache",
    "CacheStats": "_cache",
    "CachedReply": "_cache",
    "CorruptCacheError": "_cache",
    "REDIS_KEY_PREFIX": "_cache",
    "RedisReplyCache": "_cache",
    "ReplyCache": "_cache",
    "ReplyStore": "_cache",
    "cache_key": "_cache",
    "cache_stats": "_cache",
    "clear_cache": "_cache",
    "is_cache_url": "_cache",
    "open_reply_cache": "_cache",
    "ChatMessage": "_client",
    "ModelClient": "_client",
    "RateLimiter": "_client",
    "Backend": "_config",
    "CONFIG_ENV_VARS": "_config",
    "DEFAULT_CACHE_DIR": "_config",
    "LOCAL_MODEL_NAME": "_config",
    "LOCAL_MODEL_SHA256": "_config",
    "ModelConfig": "_config",
    "NO_CACHE_ENV": "_config",
    "OPENAI_API_KEY_ENV": "_config",
    "OPENAI_BASE_URL": "_config",
    "OPENAI_BASE_URL_ENV": "_config",
    "default_cache_dir": "_config",
    "LocalModelServer": "_local",
    "ModelPrice": "_prices",
    "PRICES": "_prices",
    "PRICES_AS_OF": "_prices",
    "lookup_price": "_prices",
    "price_or_unknown": "_prices",
    "serve_local_model": "_server",
    "FormatMode": "_structured",
    "extract_json": "_structured",
    "CallResult": "_types",
    "CallStatus": "_types",
    "Usage": "_types",
    "add_costs": "_types",
    "LOCAL_MODEL_HINT": "_weights",
    "LOCAL_MODEL_LICENSE": "_weights",
    "LOCAL_MODEL_SOURCE": "_weights",
    "ModelFileInfo": "_weights",
    "local_model_problem": "_weights",
    "model_file": "_weights",
    "verify_model_file": "_weights",
}


def __getattr__(name: str) -> Any:
    """Import a lazy name's private module on first access (PEP 562) and keep the name here."""
    return _lazy_attribute(globals(), _LAZY, name)


def __dir__() -> list[str]:
    return _lazy_dir(globals(), _LAZY)


__all__ = [
    "CACHE_FORMAT_VERSION",
    "CACHE_LAYOUT_VERSION",
    "CONFIG_ENV_VARS",
    "DEFAULT_CACHE_DIR",
    "LOCAL_MODEL_HINT",
    "LOCAL_MODEL_LICENSE",
    "LOCAL_MODEL_NAME",
    "LOCAL_MODEL_SHA256",
    "LOCAL_MODEL_SOURCE",
    "MAX_ENTRY_BYTES",
    "NO_CACHE_ENV",
    "OPENAI_API_KEY_ENV",
    "OPENAI_BASE_URL",
    "OPENAI_BASE_URL_ENV",
    "PRICES",
    "PRICES_AS_OF",
    "REDIS_KEY_PREFIX",
    "Backend",
    "BudgetExhaustedError",
    "CacheStats",
    "CachedReply",
    "CallResult",
    "CallStatus",
    "ChatMessage",
    "CorruptCacheError",
    "CostBudget",
    "FormatMode",
    "LocalModelServer",
    "ModelClient",
    "ModelConfig",
    "ModelFileInfo",
    "ModelPrice",
    "RateLimiter",
    "RedisReplyCache",
    "ReplyCache",
    "ReplyStore",
    "Usage",
    "add_costs",
    "budget_price",
    "cache_key",
    "cache_stats",
    "clear_cache",
    "default_cache_dir",
    "extract_json",
    "is_cache_url",
    "local_model_problem",
    "lookup_price",
    "model_file",
    "open_reply_cache",
    "price_or_unknown",
    "serve_local_model",
    "verify_model_file",
    "worst_case_cost",
]
