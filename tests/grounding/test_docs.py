"""The examples in the grounding docstrings are run, so the documentation cannot drift."""

from __future__ import annotations

import doctest
from types import ModuleType

import pytest

from hybridjudge.grounding import _abstention, _check, _quantities


@pytest.mark.parametrize("module", [_abstention, _check, _quantities], ids=lambda m: m.__name__)
def test_docstring_examples(module: ModuleType) -> None:
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0
