"""Names a package exports but imports on first use (PEP 562).

A package lists its lazy names with the private module that defines each, and its module-level
``__getattr__`` and ``__dir__`` call these: ``import hybridjudge.model`` does not import the
openai SDK, nor ``hybridjudge.corpus`` its corpus builders, until a name needs them.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

__all__ = ["lazy_attribute", "lazy_dir"]


def lazy_attribute(namespace: dict[str, Any], lazy: Mapping[str, str], name: str) -> Any:
    """``name`` from the private module ``lazy`` names for it (``"_load"``: the package's
    ``_load``), imported now and kept in ``namespace`` (the package's globals), so the next
    access does not come here.

    Raises:
        AttributeError: ``name`` is not one of ``lazy``'s (as for any missing attribute).
    """
    package = namespace["__name__"]
    module = lazy.get(name)
    if module is None:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{package}.{module}"), name)
    namespace[name] = value
    return value


def lazy_dir(namespace: Mapping[str, Any], lazy: Mapping[str, str]) -> list[str]:
    """The package's names for ``dir()``: those imported so far and the lazy ones."""
    return sorted(set(namespace) | set(lazy))
