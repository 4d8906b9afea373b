"""The typed refusal a mutator raises instead of emitting a mutant it cannot vouch for."""

from __future__ import annotations

from hybridjudge._errors import HybridJudgeError

__all__ = ["MutationRefused"]


class MutationRefused(HybridJudgeError, ValueError):  # noqa: N818 (a refusal, not an error)
    """A mutator declined to emit a mutant: it would not carry its defect, or would carry two.

    Attributes:
        defect: the defect class that was asked for.
        reason: why no mutant was emitted, in one line.
    """

    code = "mutation_refused"

    def __init__(self, defect: str, reason: str) -> None:
        super().__init__(f"{defect}: {reason}")
        self.defect = defect
        self.reason = reason
