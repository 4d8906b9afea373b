"""Configuration of the model-call layer: one pydantic model, fed by code, environment or CLI flags.

Precedence: explicit keyword arguments / CLI flags, then ``HYBRIDJUDGE_*`` environment variables,
then the defaults below. Every setting has one flag and one variable:

=====================  ==========================  ==============================================
flag                   environment variable        field
=====================  ==========================  ==============================================
``--backend``          ``HYBRIDJUDGE_BACKEND``     ``backend`` (``local`` default, ``openai``)
``--base-url``         ``HYBRIDJUDGE_BASE_URL``    ``base_url`` (implies ``--backend openai``)
``--model``            ``HYBRIDJUDGE_MODEL``       ``model``
``--api-key-env``      ``HYBRIDJUDGE_API_KEY_ENV`` ``api_key_env`` (the key variable's *name*)
``--temperature``      ``HYBRIDJUDGE_TEMPERATURE`` ``temperature``
``--seed``             ``HYBRIDJUDGE_SEED``        ``seed`` (also ``--model-seed``)
``--max-tokens``       ``HYBRIDJUDGE_MAX_TOKENS``  ``max_tokens``
``--timeout``          ``HYBRIDJUDGE_TIMEOUT``     ``timeout``
``--concurrency``      ``HYBRIDJUDGE_CONCURRENCY`` ``max_concurrency``
``--rpm``              ``HYBRIDJUDGE_RPM``         ``requests_per_minute``
``--tpm``              ``HYBRIDJUDGE_TPM``         ``tokens_per_minute``
``--max-retries``      ``HYBRIDJUDGE_MAX_RETRIES`` ``max_retries``
``--price-in``         ``HYBRIDJUDGE_PRICE_IN``    ``price_input_per_mtok``
``--price-out``        ``HYBRIDJUDGE_PRICE_OUT``   ``price_output_per_mtok``
``--cache-dir``        ``HYBRIDJUDGE_CACHE_DIR``   ``cache_dir``
``--no-cache``         ``HYBRIDJUDGE_NO_CACHE=1``  ``cache`` (False)
=====================  ==========================  ==============================================

The API key itself is never a setting: only the name of the variable that holds it, so the key
cannot end up in a config dump, a cache key, a log line or a report.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from hybridjudge._errors import ConfigError
from hybridjudge.model._prices import PRICES_AS_OF, ModelPrice, lookup_price

__all__ = [
    "DEFAULT_CACHE_DIR",
    "LOCAL_MODEL_NAME",
    "LOCAL_MODEL_SHA256",
    "OPENAI_BASE_URL",
    "Backend",
    "ModelConfig",
    "add_model_arguments",
    "config_from_args",
    "default_cache_dir",
]

LOCAL_MODEL_NAME = "qwen2.5-coder-1.5b-instruct-q4_k_m"
"""Model name of the embedded offline model (Qwen2.5-Coder-1.5B-Instruct, GGUF Q4_K_M)."""

LOCAL_MODEL_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
"""sha256 of the official GGUF file; part of the local backend's cache identity."""

OPENAI_BASE_URL = "https://api.openai.com/v1"
"""Base URL used by ``backend="openai"`` when none is given."""

DEFAULT_CACHE_DIR = ".hybridjudge-cache"
"""Cache directory (relative to the working directory) when ``HYBRIDJUDGE_CACHE_DIR`` is unset."""

Backend = Literal["openai", "local"]
"""``openai``: any OpenAI-compatible endpoint; ``local``: the embedded model, started on demand."""


def default_cache_dir() -> Path:
    """``$HYBRIDJUDGE_CACHE_DIR`` if set, else ``.hybridjudge-cache`` in the working directory."""
    return Path(os.environ.get("HYBRIDJUDGE_CACHE_DIR") or DEFAULT_CACHE_DIR)


class _Setting(NamedTuple):
    field: str
    flag: str
    env: str
    help: str
    aliases: tuple[str, ...] = ()


_SETTINGS: tuple[_Setting, ...] = (
    _Setting(
        "backend",
        "--backend",
        "HYBRIDJUDGE_BACKEND",
        "model backend: 'local' (embedded offline model, default) or 'openai' (any "
        "OpenAI-compatible endpoint)",
    ),
    _Setting(
        "base_url",
        "--base-url",
        "HYBRIDJUDGE_BASE_URL",
        "base URL of an OpenAI-compatible endpoint, e.g. https://api.openai.com/v1 "
        "(implies --backend openai)",
    ),
    _Setting("model", "--model", "HYBRIDJUDGE_MODEL", "model name sent to the endpoint"),
    _Setting(
        "api_key_env",
        "--api-key-env",
        "HYBRIDJUDGE_API_KEY_ENV",
        "name of the environment variable holding the API key (default OPENAI_API_KEY)",
    ),
    _Setting(
        "temperature",
        "--temperature",
        "HYBRIDJUDGE_TEMPERATURE",
        "sampling temperature (default 0)",
    ),
    _Setting(
        "seed", "--seed", "HYBRIDJUDGE_SEED", "model sampling seed (default 0)", ("--model-seed",)
    ),
    _Setting(
        "max_tokens",
        "--max-tokens",
        "HYBRIDJUDGE_MAX_TOKENS",
        "default completion-token budget per call",
    ),
    _Setting("timeout", "--timeout", "HYBRIDJUDGE_TIMEOUT", "seconds before one request times out"),
    _Setting(
        "max_concurrency",
        "--concurrency",
        "HYBRIDJUDGE_CONCURRENCY",
        "most requests (and connections) open at once",
    ),
    _Setting("requests_per_minute", "--rpm", "HYBRIDJUDGE_RPM", "requests-per-minute limit"),
    _Setting(
        "tokens_per_minute",
        "--tpm",
        "HYBRIDJUDGE_TPM",
        "tokens-per-minute limit (estimated prompt tokens plus the completion budget)",
    ),
    _Setting(
        "max_retries",
        "--max-retries",
        "HYBRIDJUDGE_MAX_RETRIES",
        "retries after a 429, 5xx, connection error or timeout",
    ),
    _Setting(
        "price_input_per_mtok",
        "--price-in",
        "HYBRIDJUDGE_PRICE_IN",
        "USD per million prompt tokens (default: the price table)",
    ),
    _Setting(
        "price_output_per_mtok",
        "--price-out",
        "HYBRIDJUDGE_PRICE_OUT",
        "USD per million completion tokens (default: the price table)",
    ),
    _Setting(
        "cache_dir",
        "--cache-dir",
        "HYBRIDJUDGE_CACHE_DIR",
        "directory of the reply cache (default .hybridjudge-cache)",
    ),
)
_BY_FIELD = {s.field: s for s in _SETTINGS}
_METAVARS = {
    "base_url": "URL",
    "model": "NAME",
    "api_key_env": "VAR",
    "temperature": "T",
    "seed": "N",
    "max_tokens": "N",
    "timeout": "SECONDS",
    "max_concurrency": "N",
    "requests_per_minute": "N",
    "tokens_per_minute": "N",
    "max_retries": "N",
    "price_input_per_mtok": "USD",
    "price_output_per_mtok": "USD",
    "cache_dir": "DIR",
}
_NO_CACHE_ENV = "HYBRIDJUDGE_NO_CACHE"


class ModelConfig(BaseModel):
    """Everything the model-call layer needs to reach a model and account for it.

    Build it with :meth:`from_env`, :meth:`local` or :func:`config_from_args`; direct construction
    works too (validation errors are pydantic ``ValidationError``, a ``ValueError``).
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
    temperature: float = Field(default=0.0, ge=0.0, le=2.0)
    """Sampling temperature."""
    seed: int | None = 0
    """Sampling seed sent to the endpoint (``None`` to omit it)."""
    max_tokens: int = Field(default=1024, gt=0)
    """Default completion-token budget per call (a call may pass its own)."""
    timeout: float = Field(default=60.0, gt=0.0)
    """Seconds before one request times out (then it is retried); 300 for the local backend."""
    max_concurrency: int = Field(default=8, ge=1)
    """Most requests in flight, and most HTTP connections, at once; 2 for the local backend
    (its server gets as many parallel slots)."""
    requests_per_minute: float | None = Field(default=None, gt=0.0)
    """Optional requests-per-minute limit (token bucket)."""
    tokens_per_minute: float | None = Field(default=None, gt=0.0)
    """Optional tokens-per-minute limit (estimated prompt tokens plus the completion budget)."""
    max_retries: int = Field(default=4, ge=0)
    """Retries after a retryable failure; a request is sent at most ``max_retries + 1`` times."""
    retry_initial_wait: float = Field(default=1.0, ge=0.0)
    """First backoff in seconds (doubles each retry) when the server sends no ``Retry-After``."""
    retry_max_wait: float = Field(default=30.0, ge=0.0)
    """Longest exponential backoff in seconds."""
    retry_jitter: float = Field(default=1.0, ge=0.0)
    """Up to this many random seconds added to each exponential backoff."""
    max_retry_after: float = Field(default=120.0, ge=0.0)
    """Longest ``Retry-After`` honoured, in seconds (a longer one is capped)."""
    price_input_per_mtok: float | None = Field(default=None, ge=0.0)
    """USD per million prompt tokens; ``None``: from the price table."""
    price_output_per_mtok: float | None = Field(default=None, ge=0.0)
    """USD per million completion tokens; ``None``: from the price table."""
    cache_dir: Path = Field(default_factory=default_cache_dir)
    """Directory of the reply cache."""
    cache: bool = True
    """Read and write the reply cache (``--no-cache`` turns both off)."""

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
                raise ValueError(
                    "backend 'openai' needs a model name: pass --model NAME "
                    "(or set HYBRIDJUDGE_MODEL)"
                )
            if data.get("base_url") is None:
                data["base_url"] = OPENAI_BASE_URL
        elif backend == "local":
            if data.get("base_url") is not None:
                raise ValueError(
                    "backend 'local' starts its own server, so a base URL makes no sense: "
                    "drop --base-url/HYBRIDJUDGE_BASE_URL or use --backend openai"
                )
            if data.get("model") not in (None, LOCAL_MODEL_NAME):
                raise ValueError(
                    f"backend 'local' serves only {LOCAL_MODEL_NAME!r}, not {data['model']!r}: "
                    "drop --model or use --backend openai --base-url URL"
                )
            data.pop("model", None)
            data.setdefault("max_concurrency", 2)
            data.setdefault("timeout", 300.0)
            for price in ("price_input_per_mtok", "price_output_per_mtok"):
                if data.get(price) is None:
                    data[price] = 0.0
        return data

    # -- derived values --------------------------------------------------------------------
    @property
    def endpoint_identity(self) -> str:
        """What identifies the endpoint in a cache key.

        The base URL without a trailing slash; for the local backend ``local://<model>@<sha256>``
        (its port changes each run, the weights do not).
        """
        if self.backend == "local":
            return f"local://{self.model}@{LOCAL_MODEL_SHA256}"
        return (self.base_url or OPENAI_BASE_URL).rstrip("/")

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
                f"no price known for model {self.model!r}: pass --price-in and --price-out "
                "(USD per million tokens; HYBRIDJUDGE_PRICE_IN/HYBRIDJUDGE_PRICE_OUT), "
                "or 0 and 0 for a free or self-hosted endpoint",
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
            "endpoint": self.endpoint_identity,
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
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> ModelConfig:
        """Build from ``HYBRIDJUDGE_*`` variables; keyword ``overrides`` (not ``None``) win.

        Raises:
            ConfigError: a value is invalid; the message names the variable or argument.
        """
        given = {k: v for k, v in overrides.items() if v is not None}
        return _resolve(environ, given, {k: f"argument {k}" for k in given})

    @classmethod
    def local(cls, **overrides: Any) -> ModelConfig:
        """The embedded-model defaults (backend ``local``, price 0, two requests at a time,
        300 s timeout); ``overrides`` change single fields. Environment variables are ignored.

        Raises:
            ConfigError: an override is invalid.
        """
        values: dict[str, Any] = {"backend": "local"}
        values.update({k: v for k, v in overrides.items() if v is not None})
        return _build(values, {k: f"argument {k}" for k in overrides})


def _resolve(
    environ: Mapping[str, str] | None, given: Mapping[str, Any], given_source: Mapping[str, str]
) -> ModelConfig:
    """Merge environment variables under explicitly given values and validate."""
    env = os.environ if environ is None else environ
    values: dict[str, Any] = {}
    source: dict[str, str] = {}
    for setting in _SETTINGS:
        raw = env.get(setting.env)
        if raw is not None and raw.strip() != "":
            values[setting.field] = raw.strip()
            source[setting.field] = setting.env
    raw_no_cache = env.get(_NO_CACHE_ENV, "").strip().lower()
    if raw_no_cache in ("1", "true", "yes", "on"):
        values["cache"] = False
    elif raw_no_cache not in ("", "0", "false", "no", "off"):
        raise ConfigError(f"{_NO_CACHE_ENV}={raw_no_cache!r} is not a boolean: use 1 or 0")
    # An explicit local backend wins over an endpoint and model taken from the environment.
    if given.get("backend") == "local":
        for name in ("base_url", "model"):
            if name not in given and name in values:
                del values[name]
    values.update(given)
    source.update(given_source)
    return _build(values, source)


def _build(values: dict[str, Any], source: Mapping[str, str]) -> ModelConfig:
    try:
        return ModelConfig(**values)
    except ValidationError as exc:
        problems = []
        for error in exc.errors():
            field = str(error["loc"][0]) if error["loc"] else ""
            where = source.get(field)
            if where is None and field in _BY_FIELD:
                setting = _BY_FIELD[field]
                where = f"{setting.flag}/{setting.env}"
            message = str(error["msg"]).removeprefix("Value error, ")
            problems.append(f"{where or field}: {message}" if field else message)
        raise ConfigError("invalid model configuration: " + "; ".join(problems)) from None


def add_model_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the shared model flags (``--backend``, ``--base-url``, ``--model``, ...) to ``parser``.

    A flag the parser already defines for its own purpose is left to it: the study's ``--seed``
    (its sampling seed) keeps its meaning and the model seed is then ``--model-seed`` only.
    Every flag defaults to ``None`` so :func:`config_from_args` can tell "not given" (fall back to
    the environment variable) from a value.
    """
    group = parser.add_argument_group(
        "model", "which model judges, and how it is called (each flag also reads HYBRIDJUDGE_*)"
    )
    types: dict[str, Any] = {
        "temperature": float,
        "seed": int,
        "max_tokens": int,
        "timeout": float,
        "max_concurrency": int,
        "requests_per_minute": float,
        "tokens_per_minute": float,
        "max_retries": int,
        "price_input_per_mtok": float,
        "price_output_per_mtok": float,
    }
    taken = set(parser._option_string_actions)
    for setting in _SETTINGS:
        flags = [flag for flag in (setting.flag, *setting.aliases) if flag not in taken]
        if not flags:
            continue
        kwargs: dict[str, Any] = {
            "dest": f"model_{setting.field}",
            "default": None,
            "help": f"{setting.help} [{setting.env}]",
        }
        if setting.field == "backend":
            kwargs["choices"] = ("local", "openai")
        else:
            kwargs["metavar"] = _METAVARS[setting.field]
        if setting.field in types:
            kwargs["type"] = types[setting.field]
        group.add_argument(*flags, **kwargs)
    group.add_argument(
        "--no-cache",
        dest="model_no_cache",
        action="store_true",
        default=None,
        help=f"neither read nor write the reply cache [{_NO_CACHE_ENV}=1]",
    )


def config_from_args(
    args: argparse.Namespace, environ: Mapping[str, str] | None = None
) -> ModelConfig:
    """The :class:`ModelConfig` for flags parsed by :func:`add_model_arguments`.

    Flags win over ``HYBRIDJUDGE_*`` variables, which win over defaults.

    Raises:
        ConfigError: a flag or variable is invalid; the message names it.
    """
    given: dict[str, Any] = {}
    given_source: dict[str, str] = {}
    for setting in _SETTINGS:
        value = getattr(args, f"model_{setting.field}", None)
        if value is not None:
            given[setting.field] = value
            given_source[setting.field] = setting.flag
    if getattr(args, "model_no_cache", None):
        given["cache"] = False
        given_source["cache"] = "--no-cache"
    return _resolve(environ, given, given_source)
