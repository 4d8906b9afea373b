"""The model flags of the command line, shared by ``study run`` and ``judge``.

The model layer (:mod:`hybridjudge.model`) knows no CLI: it reads code and ``HYBRIDJUDGE_*``
variables and its errors name parameters. This module defines one flag per
:class:`~hybridjudge.model.ModelConfig` field and passes the flag names to the model layer, so a
bad value is reported under the flag the user typed:

=====================  ==========================  ==============================================
flag                   environment variable        field
=====================  ==========================  ==============================================
``--backend``          ``HYBRIDJUDGE_BACKEND``     ``backend`` (``local`` default, ``openai``)
``--base-url``         ``HYBRIDJUDGE_BASE_URL``    ``base_url`` (implies ``--backend openai``)
``--model``            ``HYBRIDJUDGE_MODEL``       ``model``
``--api-key-env``      ``HYBRIDJUDGE_API_KEY_ENV`` ``api_key_env`` (the key variable's *name*)
``--temperature``      ``HYBRIDJUDGE_TEMPERATURE`` ``temperature``
``--model-seed``       ``HYBRIDJUDGE_SEED``        ``seed``
``--max-tokens``       ``HYBRIDJUDGE_MAX_TOKENS``  ``max_tokens``
``--timeout``          ``HYBRIDJUDGE_TIMEOUT``     ``timeout``
``--concurrency``      ``HYBRIDJUDGE_CONCURRENCY`` ``max_concurrency``
``--rpm``              ``HYBRIDJUDGE_RPM``         ``requests_per_minute``
``--tpm``              ``HYBRIDJUDGE_TPM``         ``tokens_per_minute``
``--max-retries``      ``HYBRIDJUDGE_MAX_RETRIES`` ``max_retries``
``--price-in``         ``HYBRIDJUDGE_PRICE_IN``    ``price_input_per_mtok``
``--price-out``        ``HYBRIDJUDGE_PRICE_OUT``   ``price_output_per_mtok``
``--cache-dir``        ``HYBRIDJUDGE_CACHE_DIR``   ``cache_dir``
``--cache-url``        ``HYBRIDJUDGE_CACHE_URL``   ``cache_url`` (a shared cache)
``--no-cache``         ``HYBRIDJUDGE_NO_CACHE=1``  ``cache`` (False)
=====================  ==========================  ==============================================

Registering these flags imports nothing of the model layer (``hybridjudge --help`` and
``hybridjudge check`` stay free of openai); :func:`config_from_args` imports it when a command
runs.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from hybridjudge.model import ModelConfig

__all__ = [
    "FLAG_HINTS",
    "MODEL_FLAGS",
    "add_model_arguments",
    "config_from_args",
    "require_judge_model",
]


class _Flag(NamedTuple):
    field: str
    flag: str
    env: str
    help: str
    metavar: str | None = None
    type: Any = None
    aliases: tuple[str, ...] = ()


_FLAGS: tuple[_Flag, ...] = (
    _Flag(
        "backend",
        "--backend",
        "HYBRIDJUDGE_BACKEND",
        "model backend: 'local' (embedded offline model, default) or 'openai' (any "
        "OpenAI-compatible endpoint)",
    ),
    _Flag(
        "base_url",
        "--base-url",
        "HYBRIDJUDGE_BASE_URL",
        "base URL (http:// or https://) of an OpenAI-compatible endpoint, e.g. "
        "https://api.openai.com/v1 (implies --backend openai)",
        "URL",
    ),
    _Flag("model", "--model", "HYBRIDJUDGE_MODEL", "model name sent to the endpoint", "NAME"),
    _Flag(
        "api_key_env",
        "--api-key-env",
        "HYBRIDJUDGE_API_KEY_ENV",
        "name of the environment variable holding the API key (default OPENAI_API_KEY)",
        "VAR",
    ),
    _Flag(
        "temperature",
        "--temperature",
        "HYBRIDJUDGE_TEMPERATURE",
        "sampling temperature (default 0)",
        "T",
        float,
    ),
    _Flag(
        "seed",
        "--model-seed",
        "HYBRIDJUDGE_SEED",
        "model sampling seed sent to the endpoint (default 0)",
        "N",
        int,
    ),
    _Flag(
        "max_tokens",
        "--max-tokens",
        "HYBRIDJUDGE_MAX_TOKENS",
        "default completion-token budget per call (default 1024)",
        "N",
        int,
    ),
    _Flag(
        "timeout",
        "--timeout",
        "HYBRIDJUDGE_TIMEOUT",
        "seconds before one request times out (default 300 local, 60 openai)",
        "SECONDS",
        float,
    ),
    _Flag(
        "max_concurrency",
        "--concurrency",
        "HYBRIDJUDGE_CONCURRENCY",
        "most requests (and connections) open at once (default 1 local, 8 openai)",
        "N",
        int,
    ),
    _Flag(
        "requests_per_minute",
        "--rpm",
        "HYBRIDJUDGE_RPM",
        "requests-per-minute limit",
        "N",
        float,
    ),
    _Flag(
        "tokens_per_minute",
        "--tpm",
        "HYBRIDJUDGE_TPM",
        "tokens-per-minute limit (estimated prompt tokens plus the completion budget)",
        "N",
        float,
    ),
    _Flag(
        "max_retries",
        "--max-retries",
        "HYBRIDJUDGE_MAX_RETRIES",
        "retries after a 429, 5xx, connection error or timeout (default 4)",
        "N",
        int,
    ),
    _Flag(
        "price_input_per_mtok",
        "--price-in",
        "HYBRIDJUDGE_PRICE_IN",
        "USD per million prompt tokens (default: the price table)",
        "USD",
        float,
    ),
    _Flag(
        "price_output_per_mtok",
        "--price-out",
        "HYBRIDJUDGE_PRICE_OUT",
        "USD per million completion tokens (default: the price table)",
        "USD",
        float,
    ),
    _Flag(
        "cache_dir",
        "--cache-dir",
        "HYBRIDJUDGE_CACHE_DIR",
        "directory of the reply cache (default .hybridjudge-cache)",
        "DIR",
    ),
    _Flag(
        "cache_url",
        "--cache-url",
        "HYBRIDJUDGE_CACHE_URL",
        "a shared reply cache, e.g. redis://host:6379/0 (default: the cache directory)",
        "URL",
    ),
)
_NO_CACHE_ENV = "HYBRIDJUDGE_NO_CACHE"

MODEL_FLAGS: Mapping[str, str] = {f.field: f.flag for f in _FLAGS} | {"cache": "--no-cache"}
"""The flag of each :class:`~hybridjudge.model.ModelConfig` field."""

FLAG_HINTS: Mapping[str, str] = {
    "unknown_price": "on the command line: --price-in USD --price-out USD",
    "invalid_resamples": "on the command line: --resamples N (triage report, retrieval eval) "
    "takes 100 to 1,000,000",
    "model_auth": "on the command line: --api-key-env NAME names the variable holding the key",
    "model_http": "on the command line: check --model and --base-url",
    "invalid_repetitions": "on the command line: --repetitions R takes 1 to 1,000",
    "invalid_seed": "on the command line: --bootstrap-seed / --sample-seed / --mutation-seed "
    "take a whole number from 0 to 2**63 - 1",
    "missing_api_key": "on the command line: --api-key-env NAME names the variable that holds "
    "the key (its NAME, never the key itself)",
}
"""For an error ``code`` whose library message names parameters: the flags that set them."""


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
    taken = set(parser._option_string_actions)
    names: dict[str, str] = {"cache": "--no-cache"}
    for flag in _FLAGS:
        flags = [name for name in (flag.flag, *flag.aliases) if name not in taken]
        if not flags:
            continue
        names[flag.field] = flags[0]
        kwargs: dict[str, Any] = {
            "dest": f"model_{flag.field}",
            "default": None,
            "help": f"{flag.help} [{flag.env}]",
        }
        if flag.field == "backend":
            kwargs["choices"] = ("local", "openai")
        else:
            kwargs["metavar"] = flag.metavar
        if flag.type is not None:
            kwargs["type"] = flag.type
        group.add_argument(*flags, **kwargs)
    group.add_argument(
        "--no-cache",
        dest="model_no_cache",
        action="store_true",
        default=None,
        help=f"neither read nor write the reply cache [{_NO_CACHE_ENV}=1]",
    )
    parser.set_defaults(model_flag_names=names)


def config_from_args(
    args: argparse.Namespace, environ: Mapping[str, str] | None = None
) -> ModelConfig:
    """The :class:`~hybridjudge.model.ModelConfig` for flags parsed by :func:`add_model_arguments`.

    Flags win over ``HYBRIDJUDGE_*`` variables, which win over defaults. Every value is checked
    here, before any case is read or request made (so ``--dry-run`` refuses what a run would):
    an ``http(s)://`` base URL with a host, finite numbers in range, a seed from 0 to 2**63 - 1,
    a Redis cache URL.

    Raises:
        ConfigError: a flag or variable is invalid; the message names the flag and its variable.
    """
    from hybridjudge.model import ModelConfig

    given: dict[str, Any] = {}
    for flag in _FLAGS:
        value = getattr(args, f"model_{flag.field}", None)
        if value is not None:
            given[flag.field] = value
    if getattr(args, "model_no_cache", None):
        given["cache"] = False
    names = getattr(args, "model_flag_names", None) or MODEL_FLAGS
    return ModelConfig.from_env(environ, names=names, **given)


def require_judge_model(configs: Iterable[ModelConfig]) -> None:
    """Before any work of a run that calls a model: when a config names the embedded model and
    it is not installed, stop with one line saying how to get either it or an endpoint (a
    plain ``pip install hybridjudge`` has no embedded model, and no endpoint is the default).

    Raises:
        LocalModelError: ``local_model_missing``, with :data:`~hybridjudge.model.LOCAL_MODEL_HINT`.
    """
    from hybridjudge._errors import LocalModelError
    from hybridjudge.model import LOCAL_MODEL_HINT, local_model_problem

    if any(config.backend == "local" for config in configs):
        problem = local_model_problem()
        if problem is not None:
            raise LocalModelError(
                f"no judge model: {problem} and no endpoint is given; {LOCAL_MODEL_HINT}",
                code="local_model_missing",
            )
