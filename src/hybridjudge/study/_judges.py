"""Several judge models in one study: ``NAME=SPEC`` judge specifications.

A study may run its LLM scorers on several models at once (``hybridjudge study run --judge
NAME=SPEC`` repeated, or ``run_study(judges=...)``). Each judge's scorers are named
``NAME:SCORER`` (``mini:support``, ``mini:contradiction``, ``mini:ragas``), so every table of
the study gets one column group per judge and the gate compares judge by judge.

Spec syntax (one judge)::

    NAME=local
        the embedded model (offline, free)
    NAME=model=MODEL[,base_url=URL][,price_in=USD,price_out=USD][,api_key_env=VAR][,KEY=VALUE...]
        any OpenAI-compatible endpoint

``NAME``: letters, digits, ``_``, ``-`` and ``.`` (at most 40). Keys of an endpoint spec:

=================  ===========================================================================
key                meaning
=================  ===========================================================================
``model``          model name sent to the endpoint (required)
``base_url``       endpoint base URL (default: the one of the model flags / ``model_config``
                   when that is an endpoint, else ``https://api.openai.com/v1``)
``price_in``       USD per million prompt tokens (default: the price table)
``price_out``      USD per million completion tokens (default: the price table)
``api_key_env``    name of the variable holding the key (default ``OPENAI_API_KEY``, or the one
                   of the model flags when the endpoint is theirs)
``temperature``    sampling temperature
``seed``           sampling seed
``max_tokens``     default completion-token budget per call
``timeout``        seconds before one request times out
``concurrency``    most requests at once
``rpm`` / ``tpm``  requests / tokens per minute
``max_retries``    retries after a retryable failure
=================  ===========================================================================

Settings not in the spec come from the shared ones (the model flags, or ``model_config``):
temperature, seed, completion budget, retries and the reply cache, so the judges are compared
under the same sampling settings. A judge's endpoint and prices are never inherited from another
model.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

from hybridjudge._errors import ConfigError

if TYPE_CHECKING:
    from hybridjudge.model import ModelConfig

__all__ = [
    "JUDGE_SPEC_EXAMPLE",
    "JUDGE_SPEC_KEYS",
    "JudgeSpec",
    "parse_judge_spec",
    "resolve_judges",
    "scorer_judge",
    "split_scorer",
]

JUDGE_SPEC_EXAMPLE = (
    "mini=base_url=https://api.openai.com/v1,model=gpt-4o-mini,price_in=0.15,price_out=0.6,"
    "api_key_env=OPENAI_API_KEY"
)
"""An example endpoint spec, as error messages and ``--help`` show it."""

JUDGE_SPEC_KEYS: Mapping[str, str] = {
    "model": "model",
    "base_url": "base_url",
    "price_in": "price_input_per_mtok",
    "price_out": "price_output_per_mtok",
    "api_key_env": "api_key_env",
    "temperature": "temperature",
    "seed": "seed",
    "max_tokens": "max_tokens",
    "timeout": "timeout",
    "concurrency": "max_concurrency",
    "rpm": "requests_per_minute",
    "tpm": "tokens_per_minute",
    "max_retries": "max_retries",
}
"""Spec key -> :class:`~hybridjudge.model.ModelConfig` field."""

_NAME = re.compile(r"[A-Za-z0-9_.-]{1,40}")
SEPARATOR = ":"
"""Between a judge's name and its scorer in a scorer name (``mini:support``)."""

_SHARED_FIELDS = (
    "temperature",
    "seed",
    "max_tokens",
    "max_retries",
    "retry_initial_wait",
    "retry_max_wait",
    "retry_jitter",
    "max_retry_after",
    "cache_dir",
    "cache_url",
    "cache",
)
"""Settings every judge takes from the shared configuration unless its spec sets them."""


def split_scorer(scorer: str) -> tuple[str | None, str]:
    """``"mini:support"`` -> ``("mini", "support")``; ``"support"`` -> ``(None, "support")``."""
    judge, sep, base = scorer.rpartition(SEPARATOR)
    return (judge, base) if sep else (None, scorer)


def scorer_judge(scorer: str) -> str | None:
    """The judge a scorer name belongs to (``None`` for an unqualified name)."""
    return split_scorer(scorer)[0]


class JudgeSpec(BaseModel):
    """One parsed ``NAME=SPEC``: a judge's name and the model settings its spec gives."""

    model_config = ConfigDict(frozen=True)

    name: str
    """The judge's name (a column group in the reports; the prefix of its scorers' names)."""
    local: bool = False
    """True for the embedded model."""
    settings: dict[str, Any] = {}
    """ModelConfig field -> value given in the spec (strings, validated when resolved)."""
    source: str = "--judge"
    """How the user gave it (the flag or parameter), for error messages."""

    def config(
        self, shared: ModelConfig | None = None, endpoint: tuple[str, str] | None = None
    ) -> ModelConfig:
        """The judge's :class:`~hybridjudge.model.ModelConfig`.

        Args:
            shared: where the settings the spec leaves out come from (sampling, retries, cache;
                its endpoint too when the spec gives a model but no ``base_url`` and ``shared``
                is an endpoint).
            endpoint: ``(base_url, api_key_env)`` for a spec without ``base_url`` (before
                ``shared``'s endpoint), e.g. the command line's ``--base-url``.

        Raises:
            ConfigError: an invalid value; the message names the judge and the key.
        """
        from hybridjudge.model import ModelConfig

        values: dict[str, Any] = {}
        if shared is not None:
            values = {f: getattr(shared, f) for f in _SHARED_FIELDS}
        names = {
            field: f"{self.source} {self.name}: {key}" for key, field in JUDGE_SPEC_KEYS.items()
        }
        if self.local:
            values["backend"] = "local"
            try:
                return ModelConfig.local(**values)
            except ConfigError as exc:
                raise ConfigError(f"{self.source} {self.name}=local: {exc}") from None
        values["backend"] = "openai"
        if "base_url" not in self.settings:
            if endpoint is not None:
                values["base_url"], values["api_key_env"] = endpoint
            elif shared is not None and shared.backend == "openai":
                values["base_url"] = shared.base_url
                values["api_key_env"] = shared.api_key_env
        values.update(self.settings)
        # an empty environment: a judge is what its spec and the shared settings say
        return ModelConfig.from_env({}, names=names, **values)


def _fail(source: str, text: str, problem: str) -> ConfigError:
    return ConfigError(
        f"{source} {text!r}: {problem}. Write NAME=local for the embedded model or "
        f"NAME=model=MODEL[,base_url=URL,price_in=USD,price_out=USD,api_key_env=VAR] for an "
        f"OpenAI-compatible endpoint, e.g. {source} {JUDGE_SPEC_EXAMPLE}",
        code="invalid_judge_spec",
    )


def parse_judge_spec(text: str, *, source: str = "--judge") -> JudgeSpec:
    """Parse one ``NAME=SPEC`` (see the module docstring for the syntax).

    Args:
        text: the spec as typed.
        source: the flag or parameter it came from, named in errors.

    Raises:
        ConfigError: (``code="invalid_judge_spec"``) a missing or invalid name, an unknown or
            repeated key, a key without a value, no model, or a number that is not one.

    Examples:
        >>> parse_judge_spec("small=local").local
        True
        >>> parse_judge_spec("mini=model=gpt-4o-mini,price_in=0.15,price_out=0.6").settings
        {'model': 'gpt-4o-mini', 'price_input_per_mtok': 0.15, 'price_output_per_mtok': 0.6}
    """
    if not isinstance(text, str):
        raise _fail(source, str(text), "a judge spec is a string NAME=SPEC")
    name, sep, spec = text.strip().partition("=")
    name, spec = name.strip(), spec.strip()
    if not sep or not name:
        raise _fail(source, text, "it does not start with a judge name and '='")
    if not _NAME.fullmatch(name):
        raise _fail(
            source,
            text,
            f"the judge name {name!r} may hold only letters, digits, '_', '-' and '.' (at most 40)",
        )
    if not spec:
        raise _fail(source, text, f"judge {name!r} has no spec after '='")
    if spec == "local":
        return JudgeSpec(name=name, local=True, source=source)
    settings: dict[str, Any] = {}
    for part in spec.split(","):
        key, eq, value = part.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or not key:
            raise _fail(source, text, f"{part.strip()!r} is not KEY=VALUE")
        if key not in JUDGE_SPEC_KEYS:
            raise _fail(
                source,
                text,
                f"unknown key {key!r} (known: {', '.join(JUDGE_SPEC_KEYS)})",
            )
        field = JUDGE_SPEC_KEYS[key]
        if field in settings:
            raise _fail(source, text, f"key {key!r} is given twice")
        if not value:
            raise _fail(source, text, f"key {key!r} has no value")
        if key in ("price_in", "price_out", "temperature", "timeout", "rpm", "tpm"):
            try:
                settings[field] = float(value)
            except ValueError:
                raise _fail(source, text, f"{key}={value!r} is not a number") from None
        elif key in ("seed", "max_tokens", "concurrency", "max_retries"):
            try:
                settings[field] = int(value)
            except ValueError:
                raise _fail(source, text, f"{key}={value!r} is not a whole number") from None
        else:
            settings[field] = value
    if "model" not in settings:
        raise _fail(source, text, f"judge {name!r} names no model (add model=MODEL)")
    return JudgeSpec(name=name, settings=settings, source=source)


def resolve_judges(
    judges: Sequence[str | JudgeSpec] | Mapping[str, str | ModelConfig] | None,
    shared: ModelConfig | None,
    *,
    source: str = "judges",
    endpoint: tuple[str, str] | None = None,
) -> dict[str, ModelConfig]:
    """Judge name -> model configuration, in the order given.

    Args:
        judges: ``["NAME=SPEC", ...]`` (or parsed :class:`JudgeSpec` s), or ``{name: spec}``
            where spec is ``"local"``, an endpoint spec without the ``NAME=`` prefix, or a
            :class:`~hybridjudge.model.ModelConfig`.
        shared: the shared settings (see :meth:`JudgeSpec.config`).
        source: the parameter or flag named in errors.
        endpoint: ``(base_url, api_key_env)`` of the specs without ``base_url``.

    Raises:
        ConfigError: an invalid spec, a judge named twice, or no judge at all.
    """
    from hybridjudge.model import ModelConfig

    if judges is None:
        return {}
    resolved: dict[str, ModelConfig] = {}
    items: list[tuple[str, JudgeSpec | ModelConfig]] = []
    if isinstance(judges, Mapping):
        for name, value in judges.items():
            if isinstance(value, ModelConfig):
                if not isinstance(name, str) or not _NAME.fullmatch(name):
                    raise _fail(source, str(name), "invalid judge name")
                items.append((name, value))
            else:
                spec = parse_judge_spec(f"{name}={value}", source=source)
                items.append((spec.name, spec))
    elif isinstance(judges, str):
        raise ConfigError(
            f"{source} must be a list of NAME=SPEC strings (or a mapping name -> spec), "
            f"not one string: write [{judges!r}]",
            code="invalid_judge_spec",
        )
    else:
        for entry in judges:
            spec = entry if isinstance(entry, JudgeSpec) else parse_judge_spec(entry, source=source)
            items.append((spec.name, spec))
    if not items:
        raise ConfigError(
            f"{source} is empty: name at least one judge, e.g. {source} {JUDGE_SPEC_EXAMPLE}",
            code="invalid_judge_spec",
        )
    for name, item in items:
        if name in resolved:
            raise ConfigError(
                f"{source}: judge {name!r} is named twice; give each judge its own name",
                code="invalid_judge_spec",
            )
        resolved[name] = item if isinstance(item, ModelConfig) else item.config(shared, endpoint)
    return resolved
