"""The repository's scripts, benchmarks and validity runs (files, not packages) as modules for
the tests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def load_script(relative: str, name: str) -> ModuleType:
    """The file ``relative`` (to the repository's root, e.g. ``scripts/build_corpus.py``) as a
    module registered as ``name`` and loaded once per process (a module's dataclasses look it
    up in :data:`sys.modules` while being built)."""
    module = sys.modules.get(name)
    if module is not None:
        return module
    spec = importlib.util.spec_from_file_location(name, ROOT / relative)
    assert spec is not None, relative
    assert spec.loader is not None, relative
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module
