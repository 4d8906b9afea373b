"""Errors of the grounding checks: bad arguments, named precisely."""

from __future__ import annotations

from hybridjudge._errors import InputError

__all__ = ["GroundingInputError", "GroundingTypeError"]


class GroundingInputError(InputError):
    """An argument of :func:`~hybridjudge.grounding.check_grounding` cannot be used.

    Attributes:
        argument: the offending argument, e.g. ``"anchors[2]"`` or ``"allowed_numbers[0]"``.
    """

    code = "invalid_grounding_input"

    def __init__(self, message: str, *, argument: str) -> None:
        super().__init__(message)
        self.argument = argument


class GroundingTypeError(GroundingInputError, TypeError):
    """An argument of the wrong type (also a :class:`TypeError`)."""

    code = "invalid_grounding_type"
