"""The TAT-QA validity benchmark's module (``validity/tatqa.py``), loaded once for the tests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
NAME = "hj_validity_tatqa"


def load_tatqa() -> ModuleType:
    """``validity/tatqa.py`` as a module (registered under :data:`NAME`: its dataclasses look
    their module up while being built; loaded once per process)."""
    module = sys.modules.get(NAME)
    if module is not None:
        return module
    spec = importlib.util.spec_from_file_location(NAME, ROOT / "validity" / "tatqa.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[NAME] = module
    spec.loader.exec_module(module)
    return module
