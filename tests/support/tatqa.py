"""The TAT-QA validity benchmark's module (``validity/tatqa.py``), loaded once for the tests."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

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


def compare_gold(
    rewrite: Callable[[Any, dict[str, Any]], tuple[str, ...]], every: int = 14
) -> tuple[int, int, list[tuple[int, str]]]:
    """Check TAT-QA's gold answers (numbers only, with their question) against the contexts as
    given and as ``rewrite(document, raw document)`` writes them (every ``every``-th context):
    ``(answers compared, flagged with the contexts as given, answers whose outcome differs)``."""
    from hybridjudge.grounding import check_grounding

    tq = load_tatqa()
    raw = tq.load_documents()
    compared = flagged = 0
    differ: list[tuple[int, str]] = []
    for doc in tq.build_documents(raw, every=every):
        other = rewrite(doc, raw[doc.index])
        for it in doc.items:
            if not it.variant.startswith("gold"):
                continue
            a, b = (
                check_grounding(it.answer, list(ps), question=it.question, answerable=True)
                for ps in (doc.passages, other)
            )
            compared += 1
            flagged += not a.grounded
            if (a.grounded, a.kinds) != (b.grounded, b.kinds):
                differ.append((doc.index, it.answer))
    return compared, flagged, differ
