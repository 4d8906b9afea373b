"""ModelConfig: environment variables, CLI flags, precedence, backend defaults and prices.

The model layer names parameters in its errors; the CLI's flags (hybridjudge.cli._model_args)
pass their own names, so the same mistake reads ``--model`` on the command line.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from hybridjudge import ConfigError
from hybridjudge.cli._model_args import MODEL_FLAGS, add_model_arguments, config_from_args
from hybridjudge.model import (
    CONFIG_ENV_VARS,
    LOCAL_MODEL_NAME,
    LOCAL_MODEL_SHA256,
    PRICES,
    ModelClient,
    ModelConfig,
    ModelPrice,
    lookup_price,
)


def parse(argv: list[str], parser: argparse.ArgumentParser | None = None) -> argparse.Namespace:
    parser = parser or argparse.ArgumentParser()
    add_model_arguments(parser)
    return parser.parse_args(argv)


def test_defaults_are_the_embedded_model_for_free() -> None:
    config = ModelConfig.from_env({})
    assert config.backend == "local"
    assert config.model == LOCAL_MODEL_NAME
    assert config.base_url is None
    assert config.price() == ModelPrice(0.0, 0.0)
    assert (config.temperature, config.seed) == (0.0, 0)
    assert config.cache_dir == Path(".hybridjudge-cache")
    assert config.cache


def test_environment_variables_are_read_and_typed() -> None:
    config = ModelConfig.from_env(
        {
            "HYBRIDJUDGE_BASE_URL": "http://127.0.0.1:8000/v1",
            "HYBRIDJUDGE_MODEL": "gpt-4o-mini",
            "HYBRIDJUDGE_TEMPERATURE": "0.5",
            "HYBRIDJUDGE_SEED": "7",
            "HYBRIDJUDGE_CONCURRENCY": "3",
            "HYBRIDJUDGE_RPM": "60",
            "HYBRIDJUDGE_CACHE_DIR": "/tmp/somewhere",
            "HYBRIDJUDGE_NO_CACHE": "1",
            "HYBRIDJUDGE_API_KEY_ENV": "MY_GATEWAY_KEY",
        }
    )
    assert config.backend == "openai"  # a base URL implies the openai backend
    assert config.temperature == 0.5
    assert config.seed == 7
    assert config.max_concurrency == 3
    assert config.requests_per_minute == 60.0
    assert config.cache_dir == Path("/tmp/somewhere")
    assert not config.cache
    assert config.api_key_env == "MY_GATEWAY_KEY"


def test_overrides_win_over_the_environment() -> None:
    env = {"HYBRIDJUDGE_BASE_URL": "http://a/v1", "HYBRIDJUDGE_MODEL": "gpt-4o"}
    config = ModelConfig.from_env(env, model="gpt-4.1", temperature=None)
    assert config.model == "gpt-4.1"
    assert config.temperature == 0.0  # None means "not given"


def test_invalid_environment_value_names_the_variable() -> None:
    with pytest.raises(ConfigError, match="HYBRIDJUDGE_TEMPERATURE"):
        ModelConfig.from_env({"HYBRIDJUDGE_TEMPERATURE": "hot"})
    with pytest.raises(ConfigError, match="HYBRIDJUDGE_NO_CACHE"):
        ModelConfig.from_env({"HYBRIDJUDGE_NO_CACHE": "maybe"})


# (keyword arguments, the same mistake as flags, the field the message must name)
BAD_COMBINATIONS = [
    ({"backend": "openai"}, ["--backend", "openai"], "model"),
    (
        {"backend": "local", "base_url": "http://x/v1"},
        ["--backend", "local", "--base-url", "http://x/v1"],
        "base_url",
    ),
    ({"backend": "local", "model": "gpt-4o"}, ["--backend", "local", "--model", "gpt-4o"], "model"),
    ({"temperature": 5.0}, ["--temperature", "5"], "temperature"),
    ({"max_concurrency": 0}, ["--concurrency", "0"], "max_concurrency"),
]


@pytest.mark.parametrize(("kwargs", "argv", "field"), BAD_COMBINATIONS)
def test_library_errors_name_parameters_never_flags(
    kwargs: dict[str, object], argv: list[str], field: str
) -> None:
    with pytest.raises(ConfigError) as info:
        ModelConfig.from_env({}, **kwargs)
    assert "--" not in str(info.value), info.value
    assert field in str(info.value), info.value
    # the command line passes its flag names: the same mistake names the flag the user typed
    with pytest.raises(ConfigError) as cli_info:
        config_from_args(parse(argv), {})
    assert MODEL_FLAGS[field] in str(cli_info.value), cli_info.value


def test_openai_backend_needs_a_model_and_local_refuses_a_base_url() -> None:
    with pytest.raises(ConfigError, match="set model"):
        ModelConfig.from_env({}, backend="openai")
    with pytest.raises(ConfigError, match="drop base_url"):
        ModelConfig.from_env({}, backend="local", base_url="http://x/v1")
    with pytest.raises(ConfigError, match="serves only"):
        ModelConfig.from_env({}, backend="local", model="gpt-4o")
    with pytest.raises(ConfigError, match="set --model"):
        config_from_args(parse(["--backend", "openai"]), {})


def test_every_flag_reads_the_variable_the_model_layer_reads() -> None:
    parser = argparse.ArgumentParser()
    add_model_arguments(parser)
    helps = {a.dest: a.help or "" for a in parser._actions}
    for field, variable in CONFIG_ENV_VARS.items():
        assert f"[{variable}]" in helps[f"model_{field}"], field
    assert set(MODEL_FLAGS) == {*CONFIG_ENV_VARS, "cache"}


def test_the_base_url_is_normalised_once_at_construction() -> None:
    config = ModelConfig(backend="openai", base_url=" http://h:1/v1// ", model="m")
    assert config.base_url == "http://h:1/v1"
    assert config.endpoint_identity == "http://h:1/v1"
    from_env = ModelConfig.from_env({"HYBRIDJUDGE_BASE_URL": "http://h:1/v1/"}, model="m")
    assert from_env.base_url == "http://h:1/v1"


def test_openai_backend_defaults_to_the_official_endpoint() -> None:
    config = ModelConfig.from_env({}, backend="openai", model="gpt-4o")
    assert config.base_url == "https://api.openai.com/v1"


def test_flags_win_over_environment_variables() -> None:
    args = parse(
        ["--base-url", "http://flag/v1", "--model", "gpt-4o", "--temperature", "0.2", "--no-cache"]
    )
    config = config_from_args(
        args, {"HYBRIDJUDGE_BASE_URL": "http://env/v1", "HYBRIDJUDGE_TEMPERATURE": "1.0"}
    )
    assert config.base_url == "http://flag/v1"
    assert config.temperature == 0.2
    assert not config.cache


def test_explicit_local_flag_beats_an_endpoint_from_the_environment() -> None:
    env = {"HYBRIDJUDGE_BASE_URL": "http://env/v1", "HYBRIDJUDGE_MODEL": "gpt-4o"}
    config = config_from_args(parse(["--backend", "local"]), env)
    assert config.backend == "local"
    assert config.model == LOCAL_MODEL_NAME


def test_bad_flag_value_names_the_flag() -> None:
    with pytest.raises(ConfigError, match="--concurrency"):
        config_from_args(parse(["--concurrency", "0"]), {})


def test_a_parser_with_its_own_seed_keeps_it_and_gets_model_seed() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0)
    args = parse(["--seed", "5", "--model-seed", "9"], parser)
    assert args.seed == 5
    assert config_from_args(args, {}).seed == 9


def test_local_defaults_and_cache_identity_do_not_depend_on_a_port() -> None:
    config = ModelConfig.local()
    assert config.max_concurrency == 1  # one request at a time: a cold run is reproducible
    assert config.timeout == 300.0
    assert config.endpoint_identity == f"local://{LOCAL_MODEL_NAME}@{LOCAL_MODEL_SHA256}"
    remote = ModelConfig(backend="openai", base_url="http://h:1/v1/", model="m")
    assert remote.endpoint_identity == "http://h:1/v1"


# -- prices ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("model", "expected"),
    [
        ("gpt-4o", "gpt-4o"),
        ("gpt-4o-2024-08-06", "gpt-4o"),
        ("gpt-4o-mini-2024-07-18", "gpt-4o-mini"),
        ("openai/gpt-4.1-mini", "gpt-4.1-mini"),
        ("anthropic/claude-3-5-haiku-20241022", "claude-3-5-haiku"),
        ("o3-mini", "o3-mini"),
    ],
)
def test_price_table_lookup(model: str, expected: str) -> None:
    assert lookup_price(model) == PRICES[expected]


@pytest.mark.parametrize("model", ["gpt-4o-audio-preview", "my-finetune", "o3x"])
def test_price_table_does_not_guess(model: str) -> None:
    assert lookup_price(model) is None


def test_given_prices_override_the_table() -> None:
    config = ModelConfig(backend="openai", model="gpt-4o", price_input_per_mtok=1.0)
    assert config.price() == ModelPrice(1.0, PRICES["gpt-4o"].output_per_mtok)


def test_unknown_model_without_a_price_has_no_price_never_free() -> None:
    # ModelConfig.price() still refuses to invent one; the client then reports the cost as
    # unknown (tests/model/test_prices_unknown.py runs it against the scripted server)
    config = ModelConfig(backend="openai", base_url="http://127.0.0.1:9/v1", model="my-finetune")
    with pytest.raises(ConfigError, match="price_input_per_mtok") as info:
        config.price()
    assert info.value.code == "unknown_price"
    ModelClient(config, environ={})  # runs: the cost is unknown, not refused
    free = config.model_copy(update={"price_input_per_mtok": 0, "price_output_per_mtok": 0})
    assert free.price() == (0, 0)  # an explicit 0 is accepted


def test_official_endpoint_without_a_key_is_refused_up_front() -> None:
    config = ModelConfig(backend="openai", model="gpt-4o", api_key_env="NO_SUCH_KEY_VAR")
    with pytest.raises(ConfigError, match="NO_SUCH_KEY_VAR"):
        ModelClient(config, environ={})


def test_describe_is_what_a_report_may_show() -> None:
    config = ModelConfig(
        backend="openai", base_url="http://h/v1/", model="gpt-4o-mini", api_key_env="MY_KEY"
    )
    described = config.describe()
    assert described["endpoint"] == "http://h/v1"
    assert described["model"] == "gpt-4o-mini"
    assert described["price_input_per_mtok"] == PRICES["gpt-4o-mini"].input_per_mtok
    assert "MY_KEY" not in str(described)  # not even the variable's name
    unknown = config.model_copy(update={"model": "my-finetune"}).describe()
    assert unknown["price_input_per_mtok"] is None
