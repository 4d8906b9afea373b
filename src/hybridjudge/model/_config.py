"""Configuration of the model-call layer: one pydantic model, fed by code or the environment.

Precedence: explicit keyword arguments, then ``HYBRIDJUDGE_*`` environment variables, then the
defaults below. Every field but ``cache`` has one variable (:data:`CONFIG_ENV_VARS`):

==========================  ==============================================
environment variable        field
==========================  ==============================================
``HYBRIDJUDGE_BACKEND``     ``backend`` (``local`` default, ``openai``)
``HYBRIDJUDGE_BASE_URL``    ``base_url`` (implies ``backend="openai"``)
``HYBRIDJUDGE_MODEL``       ``model``
``HYBRIDJUDGE_API_KEY_ENV`` ``api_key_env`` (the key variable's *name*)
``HYBRIDJUDGE_TEMPERATURE`` ``temperature``
``HYBRIDJUDGE_SEED``        ``seed``
``HYBRIDJUDGE_MAX_TOKENS``  ``max_tokens``
``HYBRIDJUDGE_TIMEOUT``     ``timeout``
``HYBRIDJUDGE_CONCURRENCY`` ``max_concurrency``
``HYBRIDJUDGE_RPM``         ``requests_per_minute``
``HYBRIDJUDGE_TPM``         ``tokens_per_minute``
``HYBRIDJUDGE_MAX_RETRIES`` ``max_retries``
``HYBRIDJUDGE_PRICE_IN``    ``price_input_per_mtok``
``HYBRIDJUDGE_PRICE_OUT``   ``price_output_per_mtok``
``HYBRIDJUDGE_CACHE_DIR``   ``cache_dir``
``HYBRIDJUDGE_CACHE_URL``   ``cache_url`` (a shared cache, ``redis://host:port/db``)
``HYBRIDJUDGE_NO_CACHE=1``  ``cache`` (False)
==========================  ==============================================

Below every ``HYBRIDJUDGE_*`` variable come the OpenAI SDK's own: when no backend and no endpoint
is chosen by an argument or a ``HYBRIDJUDGE_*`` variable, ``OPENAI_BASE_URL`` sets the endpoint
(the OpenAI-compatible backend), else a non-empty ``OPENAI_API_KEY`` selects the
OpenAI-compatible backend at ``https://api.openai.com/v1``; both still need a model name.
``backend="local"`` (``HYBRIDJUDGE_BACKEND=local``) always means the embedded model.

The command-line flags for these fields are defined in :mod:`hybridjudge.cli` (the model layer
knows no CLI); its errors name parameters, and a caller may pass its own names for them.
The API key itself is never a setting: only the name of the variable that holds it, so the key
cannot end up in a config dump, a cache key, a log line or a report.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from hybridjudge._errors import ConfigError
from hybridjudge._params import check_seed
from hybridjudge._redact import redact_url
from hybridjudge.model._prices import PRICES_AS_OF, ModelPrice, lookup_price

__all__ = [
    "CONFIG_ENV_VARS",
    "DEFAULT_CACHE_DIR",
    "LOCAL_MODEL_NAME",
    "LOCAL_MODEL_SHA256",
    "NO_CACHE_ENV",
    "OPENAI_API_KEY_ENV",
    "OPENAI_BASE_URL",
    "OPENAI_BASE_URL_ENV",
    "Backend",
    "ModelConfig",
    "default_cache_dir",
]

LOCAL_MODEL_NAME = "qwen2.5-coder-1.5b-instruct-q4_k_m"
"""Model name of the embedded offline model (Qwen2.5-Coder-1.5B-Instruct, GGUF Q4_K_M)."""

LOCAL_MODEL_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
"""sha256 of the official GGUF file; part of the local backend's cache identity."""

OPENAI_BASE_URL = "https://api.openai.com/v1"
"""Base URL used by ``backend="openai"`` when none is given."""

OPENAI_BASE_URL_ENV = "OPENAI_BASE_URL"
"""The OpenAI SDK's endpoint variable: used when no backend or endpoint is set otherwise."""
OPENAI_API_KEY_ENV = "OPENAI_API_KEY"
"""The OpenAI SDK's key variable: when set (and nothing else chose), the OpenAI-compatible
backend is used instead of the embedded model."""

DEFAULT_CACHE_DIR = ".hybridjudge-cache"
"""Cache directory (relative to the working directory) when ``HYBRIDJUDGE_CACHE_DIR`` is unset."""

Backend = Literal["openai", "local"]
"""``openai``: any OpenAI-compatible endpoint; ``local``: the embedded model, started on demand."""


def default_cache_dir() -> Path:
    """``$HYBRIDJUDGE_CACHE_DIR`` if set, else ``.hybridjudge-cache`` in the working directory."""
    return Path(os.environ.get("HYBRIDJUDGE_CACHE_DIR") or DEFAULT_CACHE_DIR)


CONFIG_ENV_VARS: Mapping[str, str] = MappingProxyType(
    {
        "backend": "HYBRIDJUDGE_BACKEND",
        "base_url": "HYBRIDJUDGE_BASE_URL",
        "model": "HYBRIDJUDGE_MODEL",
        "api_key_env": "HYBRIDJUDGE_API_KEY_ENV",
        "temperature": "HYBRIDJUDGE_TEMPERATURE",
        "seed": "HYBRIDJUDGE_SEED",
        "max_tokens": "HYBRIDJUDGE_MAX_TOKENS",
        "timeout": "HYBRIDJUDGE_TIMEOUT",
        "max_concurrency": "HYBRIDJUDGE_CONCURRENCY",
        "requests_per_minute": "HYBRIDJUDGE_RPM",
        "tokens_per_minute": "HYBRIDJUDGE_TPM",
        "max_retries": "HYBRIDJUDGE_MAX_RETRIES",
        "price_input_per_mtok": "HYBRIDJUDGE_PRICE_IN",
        "price_output_per_mtok": "HYBRIDJUDGE_PRICE_OUT",
        "cache_dir": "HYBRIDJUDGE_CACHE_DIR",
        "cache_url": "HYBRIDJUDGE_CACHE_URL",
    }
)
"""The environment variable of each :class:`ModelConfig` field (``cache`` has ``HYBRIDJUDGE_NO_CACHE``)."""

NO_CACHE_ENV = "HYBRIDJUDGE_NO_CACHE"
"""Set to ``1`` to turn the reply cache off (``cache=False``)."""


class _ParamError(ValueError):
    """A validation message that names parameters as ``{field}`` placeholders.

    :func:`_build` fills each placeholder with the caller's name for that field (the parameter
    name by default; the command line passes its flag names), so the model layer never hard-codes
    how a caller spells a setting.
    """

    def __init__(self, template: str) -> None:
        super().__init__(template)
        self.template = template


def _normalize_base_url(value: str | None) -> str | None:
    """The one place a base URL is normalised: surrounding blanks and trailing slashes dropped."""
    if value is None:
        return None
    return value.strip().rstrip("/")


def _check_base_url(value: str) -> str:
    """Return ``value`` if it is an ``http://`` or ``https://`` URL with a host name.

    Anything else (``notaurl``, ``ftp://x/v1``, ``http:///v1``, a bad port) would only fail on the
    first request, once per case, so it is refused when the configuration is built.

    Raises:
        ValueError: not such a URL; the message shows it without credentials and names the fix.
    """
    try:
        parts = urlsplit(value)
        _ = parts.port  # parsing the port is part of the check: "http://h:x" raises here
    except ValueError:
        parts = None
    if parts is None or parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise ValueError(
            f"{redact_url(value)!r} is not an http:// or https:// URL with a host name: give "
            f"the endpoint's base URL, e.g. {OPENAI_BASE_URL} or http://127.0.0.1:8000/v1"
        )
    return value


class ModelConfig(BaseModel):
    """Everything the model-call layer needs to reach a model and account for it.

    Build it with :meth:`from_env` or :meth:`local`; direct construction works too (validation errors are pydantic ``ValidationError``, a ``ValueError``).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    backend: Backend = "local"
    """``local`` (the embedded model, the default) or ``openai`` (any compatible endpoint)."""
    base_url: str | None = None
    """Endpoint base URL, e.g. ``https://api.openai.com/v1``; ``None`` for the local backend."""
    model: str = LOCAL_MODEL_NAME
    """Model name sent to the endpoint (required for ``openai``)."""
    api_key_env: str = "OPENAI_API_KEY"
    """Name of the environment variable holding the API key (the key itself is never stored)."""
    temperature: float = Field(default=0.0, ge=0.0, le=2.0, allow_inf_nan=False)
    """Sampling temperature."""
    seed: int | None = 0
    """Sampling seed sent to the endpoint, 0 to 2**63 - 1 (``None`` to omit it)."""
    max_tokens: int = Field(default=1024, gt=0)
    """Default completion-token budget per call (a call may pass its own)."""
    timeout: float = Field(default=60.0, gt=0.0, allow_inf_nan=False)
    """Seconds before one request times out (then it is retried); 300 for the local backend."""
    max_concurrency: int = Field(default=8, ge=1)
    """Most requests in flight, and most HTTP connections, at once; 1 for the local backend
    (its server gets as many parallel slots): one request at a time makes a cold run
    reproducible (parallel slots batch requests together in an order that varies from run to
    run, which changes the model's arithmetic) and, on 2 cores, costs no time."""
    requests_per_minute: float | None = Field(default=None, gt=0.0, allow_inf_nan=False)
    """Optional requests-per-minute limit (token bucket)."""
    tokens_per_minute: float | None = Field(default=None, gt=0.0, allow_inf_nan=False)
    """Optional tokens-per-minute limit (estimated prompt tokens plus the completion budget)."""
    max_retries: int = Field(default=4, ge=0)
    """Retries after a retryable failure; a request is sent at most ``max_retries + 1`` times."""
    retry_initial_wait: float = Field(default=1.0, ge=0.0, allow_inf_nan=False)
    """First backoff in seconds (doubles each retry) when the server sends no ``Retry-After``."""
    retry_max_wait: float = Field(default=30.0, ge=0.0, allow_inf_nan=False)
    """Longest exponential backoff in seconds."""
    retry_jitter: float = Field(default=1.0, ge=0.0, allow_inf_nan=False)
    """Up to this many random seconds added to each exponential backoff."""
    max_retry_after: float = Field(default=120.0, ge=0.0, allow_inf_nan=False)
    """Longest ``Retry-After`` waited for, in seconds: a server asking for longer (a 429 or 5xx
    with ``Retry-After: 99999``) fails that call at once as ``model_error`` naming the wait."""
    price_input_per_mtok: float | None = Field(default=None, ge=0.0, allow_inf_nan=False)
    """USD per million prompt tokens; ``None``: from the price table."""
    price_output_per_mtok: float | None = Field(default=None, ge=0.0, allow_inf_nan=False)
    """USD per million completion tokens; ``None``: from the price table."""
    cache_dir: Path = Field(default_factory=default_cache_dir)
    """Directory of the reply cache."""
    cache_url: str | None = None
    """A shared reply cache instead of ``cache_dir``: ``redis://host:port/db`` (one Redis server
    for every process on every machine, e.g. a Ray cluster's workers; the ``redis`` client comes
    with the ``[ray]`` extra). Not part of any cache key."""
    cache: bool = True
    """Read and write the reply cache (``False`` turns both off)."""

    @model_validator(mode="before")
    @classmethod
    def _fill_backend_defaults(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        data = dict(data)
        if data.get("backend") is None:
            data.pop("backend", None)
            if data.get("base_url"):
                data["backend"] = "openai"
        backend = data.get("backend", "local")
        if backend == "openai":
            if data.get("model") is None:
                raise _ParamError(
                    "backend 'openai' needs a model name: set {model} "
                    "(or the environment variable HYBRIDJUDGE_MODEL)"
                )
            if data.get("base_url") is None:
                data["base_url"] = OPENAI_BASE_URL
        elif backend == "local":
            if data.get("base_url") is not None:
                raise _ParamError(
                    "backend 'local' starts its own server, so a base URL makes no sense: "
                    "drop {base_url} (HYBRIDJUDGE_BASE_URL) or set {backend} to 'openai'"
                )
            if data.get("model") not in (None, LOCAL_MODEL_NAME):
                raise _ParamError(
                    f"backend 'local' serves only {LOCAL_MODEL_NAME!r}, not {data['model']!r}: "
                    "drop {model} or set {backend} to 'openai' and {base_url} to the endpoint"
                )
            data.pop("model", None)
            data.setdefault("max_concurrency", 1)
            data.setdefault("timeout", 300.0)
            for price in ("price_input_per_mtok", "price_output_per_mtok"):
                if data.get(price) is None:
                    data[price] = 0.0
        return data

    @field_validator("base_url")
    @classmethod
    def _normalize(cls, value: str | None) -> str | None:
        normalized = _normalize_base_url(value)
        return None if normalized is None else _check_base_url(normalized)

    @field_validator("seed")
    @classmethod
    def _check_seed(cls, value: int | None) -> int | None:
        # the same rule as every other seed of the project (0 to 2**63 - 1)
        return None if value is None else check_seed(value)

    # -- derived values --------------------------------------------------------------------
    @property
    def endpoint_identity(self) -> str:
        """What identifies the endpoint in a cache key.

        The base URL without a trailing slash; for the local backend ``local://<model>@<sha256>``
        (its port changes each run, the weights do not).
        """
        if self.backend == "local":
            return f"local://{self.model}@{LOCAL_MODEL_SHA256}"
        return self.base_url or OPENAI_BASE_URL

    def price(self) -> ModelPrice:
        """Prices to charge: the given ones, else the table's.

        Raises:
            ConfigError: the model is not in the table and no price was given (a paid model
                must never be reported as free by accident).
        """
        table = lookup_price(self.model)
        price_in = self.price_input_per_mtok
        price_out = self.price_output_per_mtok
        if price_in is None:
            price_in = table.input_per_mtok if table is not None else None
        if price_out is None:
            price_out = table.output_per_mtok if table is not None else None
        if price_in is None or price_out is None:
            raise ConfigError(
                f"no price known for model {self.model!r}: set price_input_per_mtok and "
                "price_output_per_mtok (USD per million tokens; HYBRIDJUDGE_PRICE_IN and "
                "HYBRIDJUDGE_PRICE_OUT), or 0 and 0 for a free or self-hosted endpoint",
                code="unknown_price",
            )
        return ModelPrice(price_in, price_out)

    def describe(self) -> dict[str, str | float | int | None]:
        """What a report records about the model: identity, sampling and prices, never the key.

        Prices are the ones charged (given, else the table's; ``None`` if unknown).
        """
        try:
            price: ModelPrice | None = self.price()
        except ConfigError:
            price = None
        return {
            "backend": self.backend,
            "endpoint": redact_url(self.endpoint_identity),  # never credentials in a report
            "model": self.model,
            "temperature": self.temperature,
            "seed": self.seed,
            "max_tokens": self.max_tokens,
            "price_input_per_mtok": price.input_per_mtok if price else None,
            "price_output_per_mtok": price.output_per_mtok if price else None,
            "price_table_as_of": PRICES_AS_OF,
        }

    # -- constructors ----------------------------------------------------------------------
    @classmethod
    def from_env(
        cls,
        environ: Mapping[str, str] | None = None,
        *,
        names: Mapping[str, str] | None = None,
        **overrides: Any,
    ) -> ModelConfig:
        """Build from ``HYBRIDJUDGE_*`` variables (:data:`CONFIG_ENV_VARS`); ``overrides`` win.

        An override of ``None`` means "not given" (the variable, else the default, applies).

        Args:
            environ: the variables to read (default ``os.environ``).
            names: how the caller's user spells each field, for error messages (the command
                line passes its flags, e.g. ``{"model": "--model"}``); default the parameter name.
            overrides: field values given explicitly.

        Raises:
            ConfigError: a value is invalid; the message names the variable or parameter.
        """
        given = {k: v for k, v in overrides.items() if v is not None}
        return _resolve(environ, given, names or {})

    @classmethod
    def local(cls, **overrides: Any) -> ModelConfig:
        """The embedded-model defaults (backend ``local``, price 0, one request at a time,
        300 s timeout); ``overrides`` change single fields. Environment variables are ignored.

        Raises:
            ConfigError: an override is invalid.
        """
        values: dict[str, Any] = {"backend": "local"}
        values.update({k: v for k, v in overrides.items() if v is not None})
        return _build(values, {}, {})


def _resolve(
    environ: Mapping[str, str] | None, given: Mapping[str, Any], names: Mapping[str, str]
) -> ModelConfig:
    """Merge environment variables under explicitly given values and validate."""
    env = os.environ if environ is None else environ
    values: dict[str, Any] = {}
    from_env: dict[str, str] = {}
    for field, variable in CONFIG_ENV_VARS.items():
        raw = env.get(variable)
        if raw is not None and raw.strip() != "":
            values[field] = raw.strip()
            from_env[field] = variable
    raw_no_cache = env.get(NO_CACHE_ENV, "").strip().lower()
    if raw_no_cache in ("1", "true", "yes", "on"):
        values["cache"] = False
    elif raw_no_cache not in ("", "0", "false", "no", "off"):
        raise ConfigError(f"{NO_CACHE_ENV}={raw_no_cache!r} is not a boolean: use 1 or 0")
    _openai_conventions(env, values, from_env, given, names)
    # An explicit local backend wins over an endpoint and model taken from the environment.
    if given.get("backend") == "local":
        for name in ("base_url", "model"):
            if name not in given and name in values:
                del values[name]
                del from_env[name]
    values.update(given)
    for name in given:
        from_env.pop(name, None)
    # an empty environment (a judge spec is resolved in one) has no variable worth naming
    return _build(values, from_env, names, CONFIG_ENV_VARS if env else {})


def _openai_conventions(
    env: Mapping[str, str],
    values: dict[str, Any],
    from_env: dict[str, str],
    given: Mapping[str, Any],
    names: Mapping[str, str],
) -> None:
    """The OpenAI SDK's variables, below explicit values and every ``HYBRIDJUDGE_*`` variable.

    When neither a backend nor an endpoint was chosen, ``OPENAI_BASE_URL`` names the endpoint
    (so the OpenAI-compatible backend), and otherwise a non-empty ``OPENAI_API_KEY`` selects the
    OpenAI-compatible backend at the official endpoint.

    Raises:
        ConfigError: ``OPENAI_API_KEY`` chose the backend but no model name is set.
    """
    chosen = {**values, **given}
    if chosen.get("backend") is not None or chosen.get("base_url") is not None:
        return
    url = (env.get(OPENAI_BASE_URL_ENV) or "").strip()
    if url:
        values["base_url"] = url
        from_env["base_url"] = OPENAI_BASE_URL_ENV
    elif (env.get(OPENAI_API_KEY_ENV) or "").strip():
        values["backend"] = "openai"
        from_env["backend"] = OPENAI_API_KEY_ENV
    else:
        return
    if chosen.get("model") is None:
        via = OPENAI_BASE_URL_ENV if url else OPENAI_API_KEY_ENV
        model = names.get("model", "model")
        backend = names.get("backend", "backend")
        raise ConfigError(
            f"{via} is set, so the OpenAI-compatible backend is used, and it needs a model "
            f"name: set {model} (or HYBRIDJUDGE_MODEL), or choose the embedded model with "
            f"{backend} local (HYBRIDJUDGE_BACKEND=local)",
            code="missing_model",
        )


def _build(
    values: dict[str, Any],
    from_env: Mapping[str, str],
    names: Mapping[str, str],
    variables: Mapping[str, str] | None = None,
) -> ModelConfig:
    """Validate; a failure names each bad value's source and its other spelling.

    A value read from a variable is reported as ``VARIABLE (name)``, a given one as
    ``name (VARIABLE)`` (``name`` is the caller's, e.g. a flag), so the user finds it wherever it
    was set; ``variables`` are the field's variables worth naming (none where no environment is
    read).

    Raises:
        ConfigError: (code ``invalid_model_config``) a value is invalid, or (code
            ``invalid_cache_url``) ``cache_url`` is not a Redis URL.
    """
    variables = variables or {}

    def name_of(field: str) -> str:
        return names.get(field, field)

    def where(field: str) -> str:
        name = name_of(field)
        if field in from_env:
            return f"{from_env[field]} ({name})"
        variable = variables.get(field)
        return f"{name} ({variable})" if variable and variable != name else name

    _check_cache_url(values.get("cache_url"), where("cache_url"), where("cache_dir"))
    try:
        return ModelConfig(**values)
    except ValidationError as exc:
        problems = []
        for error in exc.errors():
            cause = (error.get("ctx") or {}).get("error")
            if isinstance(cause, _ParamError):
                fields = ModelConfig.model_fields
                message = cause.template.format_map({f: name_of(f) for f in fields})
            else:
                message = str(error["msg"]).removeprefix("Value error, ")
            field = str(error["loc"][0]) if error["loc"] else ""
            if not field:
                problems.append(message)
                continue
            problems.append(f"{where(field)}: {message}")
        raise ConfigError(
            "invalid model configuration: " + "; ".join(problems), code="invalid_model_config"
        ) from None


def _check_cache_url(url: object, where: str, cache_dir: str) -> None:
    """Refuse a ``cache_url`` that is no Redis URL, by the rule ``hybridjudge cache`` applies
    (:func:`hybridjudge.model.is_cache_url`), so a dry run refuses what the run would.

    Raises:
        ConfigError: (code ``invalid_cache_url``) ``url`` is a string but not a Redis URL.
    """
    if not isinstance(url, str):
        return  # None (no shared cache), or a wrong type pydantic reports
    from hybridjudge.model._cache import is_cache_url  # imports sqlite3: only when needed

    if not is_cache_url(url):
        raise ConfigError(
            f"invalid model configuration: {where}: {redact_url(url)!r} is not a Redis URL: "
            "the shared cache takes redis://host:port/db, rediss:// or unix://; for a cache "
            f"folder use {cache_dir} instead",
            code="invalid_cache_url",
        )
