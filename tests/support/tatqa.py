"""The TAT-QA validity benchmark's module (``validity/tatqa.py``), loaded once for the tests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from tests.support.scripts import load_script

ROOT = Path(__file__).resolve().parents[2]
NAME = "hj_validity_tatqa"
"""The name :func:`load_tatqa` registers ``validity/tatqa.py`` under."""


def load_validity(stem: str) -> ModuleType:
    """``validity/<stem>.py`` as a module, registered as ``hj_validity_<stem>`` (its dataclasses
    look their module up while being built; the benchmarks load ``tatqa.py`` under the same
    name) and loaded once per process."""
    return load_script(f"validity/{stem}.py", f"hj_validity_{stem}")


def load_tatqa() -> ModuleType:
    """``validity/tatqa.py`` as a module (registered under :data:`NAME`)."""
    return load_validity("tatqa")


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
