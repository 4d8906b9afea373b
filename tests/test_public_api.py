"""The public surface: every package's ``__all__`` is complete, importable and documented."""

from __future__ import annotations

import importlib
import inspect

import pytest

import hybridjudge

PACKAGES = [
    "hybridjudge",
    "hybridjudge.corpus",
    "hybridjudge.grounding",
    "hybridjudge.model",
    "hybridjudge.judges",
    "hybridjudge.mutations",
    "hybridjudge.study",
    "hybridjudge.reports",
    "hybridjudge.metrics.retrieval",
    "hybridjudge.metrics.ordinal",
]


@pytest.mark.parametrize("name", PACKAGES)
def test_all_names_exist_and_are_documented(name: str) -> None:
    module = importlib.import_module(name)
    assert module.__doc__, f"{name} has no module docstring"
    exported = module.__all__
    assert len(exported) == len(set(exported)), f"{name}.__all__ has duplicates"
    for attr in exported:
        value = getattr(module, attr)  # AttributeError: listed but missing
        if inspect.isclass(value) or inspect.isfunction(value):
            assert inspect.getdoc(value), f"{name}.{attr} has no docstring"


@pytest.mark.parametrize("name", PACKAGES)
def test_all_lists_every_public_class_and_function(name: str) -> None:
    # like httpx's tests/test_exported_members.py: nothing public is left out of __all__
    module = importlib.import_module(name)
    public = {
        attr
        for attr, value in vars(module).items()
        if not attr.startswith("_")
        and (inspect.isclass(value) or inspect.isfunction(value))
        and getattr(value, "__module__", "").startswith("hybridjudge")
    }
    assert public <= set(module.__all__), sorted(public - set(module.__all__))


def test_error_tree_has_one_root_and_mixes_in_builtins() -> None:
    for attr in hybridjudge.__all__:
        value = getattr(hybridjudge, attr)
        if inspect.isclass(value) and issubclass(value, Exception):
            assert issubclass(value, hybridjudge.HybridJudgeError)
    assert issubclass(hybridjudge.InputError, ValueError)
    assert issubclass(hybridjudge.ModelError, RuntimeError)
