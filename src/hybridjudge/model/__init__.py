"""The model-call layer: the only code in hybridjudge that talks to a model.

Any OpenAI-compatible chat-completions endpoint (openai SDK 2.x on httpx), or the embedded
offline model. :class:`ModelClient` owns the disk cache, retries, rate limits, usage accounting
and structured output; :class:`ModelConfig` holds every setting (code, ``HYBRIDJUDGE_*``
variables or the shared CLI flags of :func:`add_model_arguments`).

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

from hybridjudge.model._cache import (
    CACHE_FORMAT_VERSION,
    CachedReply,
    CacheStats,
    ReplyCache,
    cache_key,
    cache_stats,
    clear_cache,
)
from hybridjudge.model._client import ChatMessage, ModelClient
from hybridjudge.model._config import (
    DEFAULT_CACHE_DIR,
    LOCAL_MODEL_NAME,
    LOCAL_MODEL_SHA256,
    OPENAI_BASE_URL,
    Backend,
    ModelConfig,
    add_model_arguments,
    config_from_args,
    default_cache_dir,
)
from hybridjudge.model._prices import PRICES, PRICES_AS_OF, ModelPrice, lookup_price
from hybridjudge.model._structured import FormatMode, extract_json
from hybridjudge.model._types import CallResult, CallStatus, Usage

__all__ = [
    "CACHE_FORMAT_VERSION",
    "DEFAULT_CACHE_DIR",
    "LOCAL_MODEL_NAME",
    "LOCAL_MODEL_SHA256",
    "OPENAI_BASE_URL",
    "PRICES",
    "PRICES_AS_OF",
    "Backend",
    "CacheStats",
    "CachedReply",
    "CallResult",
    "CallStatus",
    "ChatMessage",
    "FormatMode",
    "ModelClient",
    "ModelConfig",
    "ModelPrice",
    "ReplyCache",
    "Usage",
    "add_model_arguments",
    "cache_key",
    "cache_stats",
    "clear_cache",
    "config_from_args",
    "default_cache_dir",
    "extract_json",
    "lookup_price",
]
