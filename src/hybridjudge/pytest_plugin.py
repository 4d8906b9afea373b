"""The hybridjudge pytest plugin, registered by the ``pytest11`` entry point.

Fixtures (session-scoped, so the model client and its reply cache are set up once):

- ``hybridjudge_config``: the :class:`~hybridjudge.model.ModelConfig` the judges use, read from
  the environment (``HYBRIDJUDGE_*``, else ``OPENAI_BASE_URL``/``OPENAI_API_KEY``, else the
  embedded model). Override it in your ``conftest.py`` to pick a model in code.
- ``hybridjudge_judge``: a :class:`~hybridjudge.testing.FaithfulnessJudge` on that config, for
  :func:`~hybridjudge.testing.assert_faithful` (``judge=hybridjudge_judge``).

Nothing is started until a test asks for ``hybridjudge_judge`` and judges something.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from hybridjudge.model import ModelConfig
    from hybridjudge.testing import FaithfulnessJudge

__all__ = ["hybridjudge_config", "hybridjudge_judge"]


@pytest.fixture(scope="session")
def hybridjudge_config() -> ModelConfig:
    """The model configuration from the environment (override this fixture to choose one)."""
    from hybridjudge.model import ModelConfig

    return ModelConfig.from_env()


@pytest.fixture(scope="session")
def hybridjudge_judge(hybridjudge_config: ModelConfig) -> Iterator[FaithfulnessJudge]:
    """One judge, with one open model client and the disk reply cache, for the whole session."""
    from hybridjudge.testing import FaithfulnessJudge

    with FaithfulnessJudge(hybridjudge_config) as judge:
        yield judge
