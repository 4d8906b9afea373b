"""Shared pytest fixtures.

- ``openai_server``: a started :class:`tests.support.openai_server.FakeOpenAIServer` (a real
  OpenAI-compatible HTTP server on 127.0.0.1), stopped after the test.
- ``fake_model_config``: a :class:`hybridjudge.model.ModelConfig` pointing at ``openai_server``
  with a per-test cache directory, known prices (1 and 2 USD per million tokens), a 2 s timeout,
  2 retries and millisecond backoff, so fault tests stay fast.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.support.openai_server import FakeOpenAIServer

if TYPE_CHECKING:  # imported in the fixture, so test runs that never use a model stay fast
    from hybridjudge.model import ModelConfig

FAKE_PRICE_IN = 1.0
"""USD per million prompt tokens in ``fake_model_config``."""
FAKE_PRICE_OUT = 2.0
"""USD per million completion tokens in ``fake_model_config``."""


def pytest_configure(config: pytest.Config) -> None:
    """Compiled expressions the checks store between processes
    (``hybridjudge.grounding._stored``) go to a folder of this test run, removed at its end,
    not to the user's cache; a folder named in ``HYBRIDJUDGE_EXPRESSION_CACHE`` is kept."""
    if "HYBRIDJUDGE_EXPRESSION_CACHE" not in os.environ:
        folder = tempfile.mkdtemp(prefix="hybridjudge-expressions-")
        os.environ["HYBRIDJUDGE_EXPRESSION_CACHE"] = folder
        atexit.register(shutil.rmtree, folder, True)


@pytest.fixture
def openai_server() -> Iterator[FakeOpenAIServer]:
    """A scripted OpenAI-compatible server on an ephemeral 127.0.0.1 port."""
    with FakeOpenAIServer() as server:
        yield server


@pytest.fixture
def fake_model_config(openai_server: FakeOpenAIServer, tmp_path: Path) -> ModelConfig:
    """A model configuration for ``openai_server`` with tiny backoff and its own cache."""
    from hybridjudge.model import ModelConfig

    return ModelConfig(
        backend="openai",
        base_url=openai_server.base_url,
        model="fake-model",
        api_key_env="HYBRIDJUDGE_TEST_API_KEY",
        timeout=2.0,
        max_concurrency=4,
        max_retries=2,
        retry_initial_wait=0.001,
        retry_max_wait=0.005,
        retry_jitter=0.0,
        price_input_per_mtok=FAKE_PRICE_IN,
        price_output_per_mtok=FAKE_PRICE_OUT,
        cache_dir=tmp_path / "model-cache",
    )
