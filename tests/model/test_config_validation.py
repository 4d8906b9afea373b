"""ModelConfig refuses unusable values when it is built, not on the first request.

A malformed base URL, a non-finite number, a seed outside 0 to 2**63 - 1 and a cache URL that is
not Redis are each a :class:`~hybridjudge.ConfigError` naming the flag and its variable, so
``judge --dry-run`` exits 2 on them just as the run would.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from pydantic import ValidationError

from hybridjudge import ConfigError, InputError
from hybridjudge._params import check_seed
from hybridjudge.cli import main
from hybridjudge.model import ModelConfig, is_cache_url

ENDPOINT = ["--base-url", "http://127.0.0.1:9/v1", "--model", "m"]
FREE = ["--price-in", "0", "--price-out", "0"]
SEED_MAX = 2**63 - 1


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No model setting leaks in from the machine running the tests; the cache is per test."""
    for name in ("OPENAI_BASE_URL", "OPENAI_API_KEY", "HYBRIDJUDGE_NO_CACHE"):
        monkeypatch.delenv(name, raising=False)
    for variable in (
        "HYBRIDJUDGE_BACKEND",
        "HYBRIDJUDGE_BASE_URL",
        "HYBRIDJUDGE_MODEL",
        "HYBRIDJUDGE_API_KEY_ENV",
        "HYBRIDJUDGE_TEMPERATURE",
        "HYBRIDJUDGE_SEED",
        "HYBRIDJUDGE_MAX_TOKENS",
        "HYBRIDJUDGE_TIMEOUT",
        "HYBRIDJUDGE_CONCURRENCY",
        "HYBRIDJUDGE_RPM",
        "HYBRIDJUDGE_TPM",
        "HYBRIDJUDGE_MAX_RETRIES",
        "HYBRIDJUDGE_PRICE_IN",
        "HYBRIDJUDGE_PRICE_OUT",
        "HYBRIDJUDGE_CACHE_URL",
    ):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("HYBRIDJUDGE_CACHE_DIR", str(tmp_path / "cache"))


def _cases(tmp_path: Path) -> str:
    path = tmp_path / "cases.jsonl"
    path.write_text('{"id": "a", "answer": "Refunds within 30 days.", "context": "30 days."}\n')
    return str(path)


def _dry_run(tmp_path: Path, *flags: str) -> int:
    return main(["judge", _cases(tmp_path), *flags, "--dry-run"])


def test_a_valid_configuration_still_dry_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the control for every refusal below: the same command with usable values exits 0
    flags = [*ENDPOINT, *FREE, "--timeout", "1e6", "--rpm", "0.5", "--tpm", "1e9"]
    flags += ["--model-seed", str(SEED_MAX), "--cache-url", "redis://127.0.0.1:1/0"]
    assert _dry_run(tmp_path, *flags) == 0
    assert "No request was made" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("flags", "flag", "variable"),
    [
        (["--base-url", "notaurl", "--model", "m", *FREE], "--base-url", "HYBRIDJUDGE_BASE_URL"),
        (["--base-url", "ftp://x/v1", "--model", "m", *FREE], "--base-url", "HYBRIDJUDGE_BASE_URL"),
        (["--base-url", "http:///v1", "--model", "m", *FREE], "--base-url", "HYBRIDJUDGE_BASE_URL"),
        (["--base-url", "http://h:port/v1", "--model", "m", *FREE], "--base-url", "HYBRIDJUDGE_BASE_URL"),
        ([*ENDPOINT, "--price-in", "inf", "--price-out", "0"], "--price-in", "HYBRIDJUDGE_PRICE_IN"),
        ([*ENDPOINT, "--price-in", "0", "--price-out", "nan"], "--price-out", "HYBRIDJUDGE_PRICE_OUT"),
        ([*ENDPOINT, *FREE, "--timeout", "inf"], "--timeout", "HYBRIDJUDGE_TIMEOUT"),
        ([*ENDPOINT, *FREE, "--rpm", "inf"], "--rpm", "HYBRIDJUDGE_RPM"),
        ([*ENDPOINT, *FREE, "--tpm", "1e999"], "--tpm", "HYBRIDJUDGE_TPM"),
        ([*ENDPOINT, *FREE, "--temperature", "nan"], "--temperature", "HYBRIDJUDGE_TEMPERATURE"),
        ([*ENDPOINT, *FREE, "--model-seed", "-1"], "--model-seed", "HYBRIDJUDGE_SEED"),
        ([*ENDPOINT, *FREE, "--model-seed", str(SEED_MAX + 1)], "--model-seed", "HYBRIDJUDGE_SEED"),
        ([*ENDPOINT, *FREE, "--cache-url", "bogus://x"], "--cache-url", "HYBRIDJUDGE_CACHE_URL"),
    ],
)  # fmt: skip
def test_a_bad_flag_fails_the_dry_run_naming_flag_and_variable(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    flags: list[str],
    flag: str,
    variable: str,
) -> None:
    assert _dry_run(tmp_path, *flags) == 2
    captured = capsys.readouterr()
    assert f"{flag} ({variable}):" in captured.err
    assert "No request was made" not in captured.out


@pytest.mark.parametrize(
    ("variable", "value", "flag", "flags"),
    [
        ("HYBRIDJUDGE_RPM", "1e999", "--rpm", ENDPOINT),
        ("HYBRIDJUDGE_TPM", "nan", "--tpm", ENDPOINT),
        ("HYBRIDJUDGE_TIMEOUT", "inf", "--timeout", ENDPOINT),
        ("HYBRIDJUDGE_PRICE_IN", "inf", "--price-in", ENDPOINT),
        ("HYBRIDJUDGE_SEED", "-1", "--model-seed", ENDPOINT),
        ("HYBRIDJUDGE_CACHE_URL", "bogus://x", "--cache-url", ENDPOINT),
        ("HYBRIDJUDGE_BASE_URL", "ftp://x/v1", "--base-url", ["--model", "m"]),
        ("OPENAI_BASE_URL", "notaurl", "--base-url", ["--model", "m"]),
    ],
)
def test_a_bad_variable_fails_the_dry_run_naming_it(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    variable: str,
    value: str,
    flag: str,
    flags: list[str],
) -> None:
    monkeypatch.setenv(variable, value)
    assert _dry_run(tmp_path, *flags, "--price-out", "0") == 2
    assert f"{variable} ({flag}):" in capsys.readouterr().err


def test_a_cache_url_is_refused_by_judge_as_by_cache_stats(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["cache", "stats", "--cache-url", "bogus://x"]) == 2
    capsys.readouterr()
    assert _dry_run(tmp_path, *ENDPOINT, *FREE, "--cache-url", "bogus://x") == 2
    err = capsys.readouterr().err
    assert "[invalid_cache_url]" in err
    assert "--cache-dir" in err  # the fix for a folder


@pytest.mark.parametrize(
    "url",
    ["redis://h:6379/0", "rediss://h/0", "unix:///run/redis.sock", "bogus://x", "s3://b/c", "x"],
)
def test_the_config_accepts_exactly_the_cache_urls_cache_stats_accepts(url: str) -> None:
    if is_cache_url(url):
        assert ModelConfig.from_env({}, cache_url=url).cache_url == url
        return
    with pytest.raises(ConfigError) as info:
        ModelConfig.from_env({}, cache_url=url)
    assert info.value.code == "invalid_cache_url"


@pytest.mark.parametrize(
    "url", ["notaurl", "ftp://x/v1", "http:///v1", "https://:443/v1", "http://h:port/v1", "//h/v1"]
)
def test_a_base_url_without_http_scheme_and_host_is_refused(url: str) -> None:
    with pytest.raises(ConfigError, match="not an http:// or https:// URL") as info:
        ModelConfig.from_env({}, base_url=url, model="m")
    assert info.value.code == "invalid_model_config"
    with pytest.raises(ValidationError):
        ModelConfig(base_url=url, model="m")


@pytest.mark.parametrize(
    ("url", "normalized"),
    [
        ("http://127.0.0.1:8000/v1/", "http://127.0.0.1:8000/v1"),
        (" https://api.openai.com/v1 ", "https://api.openai.com/v1"),
        ("HTTPS://Gateway.example/openai", "HTTPS://Gateway.example/openai"),
        ("http://[::1]:8080/v1", "http://[::1]:8080/v1"),
    ],
)
def test_a_usable_base_url_is_kept(url: str, normalized: str) -> None:
    assert ModelConfig.from_env({}, base_url=url, model="m").base_url == normalized


def test_credentials_in_a_refused_base_url_are_not_echoed() -> None:
    with pytest.raises(ConfigError) as info:
        ModelConfig.from_env({}, base_url="ftp://user:hunter2@host/v1", model="m")
    assert "hunter2" not in str(info.value)


@pytest.mark.parametrize(
    "field",
    [
        "temperature",
        "timeout",
        "requests_per_minute",
        "tokens_per_minute",
        "price_input_per_mtok",
        "price_output_per_mtok",
        "retry_initial_wait",
        "retry_max_wait",
        "retry_jitter",
        "max_retry_after",
    ],
)
@pytest.mark.parametrize("value", [math.inf, -math.inf, math.nan, "inf", "nan", "1e999"])
def test_no_number_field_takes_a_non_finite_value(field: str, value: object) -> None:
    with pytest.raises(ConfigError, match=field) as info:
        ModelConfig.local(**{field: value})
    assert info.value.code == "invalid_model_config"


@pytest.mark.parametrize("seed", [-1, SEED_MAX + 1, -(2**70)])
def test_a_model_seed_outside_the_project_range_is_refused(seed: int) -> None:
    with pytest.raises(InputError):  # the project's one seed rule refuses it too
        check_seed(seed)
    with pytest.raises(ConfigError, match="0 to 2\\*\\*63 - 1"):
        ModelConfig.from_env({}, seed=seed)
    with pytest.raises(ConfigError, match="HYBRIDJUDGE_SEED"):
        ModelConfig.from_env({"HYBRIDJUDGE_SEED": str(seed)})


@pytest.mark.parametrize("seed", [0, 1, SEED_MAX])
def test_a_model_seed_in_range_is_kept(seed: int) -> None:
    assert ModelConfig.from_env({}, seed=seed).seed == seed
    assert ModelConfig.from_env({"HYBRIDJUDGE_SEED": str(seed)}).seed == seed


def test_a_library_caller_reads_the_parameter_and_its_variable() -> None:
    # parameter names by default; the variable is named where the environment is read
    with pytest.raises(ConfigError, match=r"requests_per_minute \(HYBRIDJUDGE_RPM\)"):
        ModelConfig.from_env({"PATH": "/bin"}, requests_per_minute=math.inf)
