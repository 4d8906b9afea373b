"""The public surface of hybridjudge.model: ``__all__`` is complete and documented."""

from __future__ import annotations

import inspect

import hybridjudge.model as model
from hybridjudge.model import _cache, _client, _config, _prices, _structured, _types


def test_all_lists_every_public_name_of_the_private_modules_it_re_exports() -> None:
    exported = set(model.__all__)
    for module in (_cache, _client, _config, _prices, _types):
        missing = set(module.__all__) - exported
        assert not missing, f"{module.__name__}: {sorted(missing)} not re-exported"
    assert {"FormatMode", "extract_json"} <= exported
    assert set(_structured.__all__) - exported  # internals stay private


def test_every_exported_class_and_function_has_a_docstring() -> None:
    for name in model.__all__:
        value = getattr(model, name)
        if inspect.isclass(value) or inspect.isfunction(value):
            assert inspect.getdoc(value), name
