"""The anchor record: a fact a correct answer must contain.

A utility module below every stage: the corpus stores anchors in its cases and the grounding
checks match them, so the record lives here and both import it (the grounding layer imports
nothing of hybridjudge but utility modules). The public name is :class:`hybridjudge.corpus.Anchor`
(also :class:`hybridjudge.Anchor`).
"""

from __future__ import annotations

import unicodedata

from pydantic import BaseModel, ConfigDict, Field, field_validator

__all__ = ["Anchor"]


class Anchor(BaseModel):
    """A fact a correct answer must contain."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    value: str = Field(min_length=1)
    """The canonical wording of the fact, e.g. ``"500 mg"``."""
    aliases: tuple[str, ...] = ()
    """Accepted paraphrases; any one of them satisfies the anchor."""

    @field_validator("value")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not any(_visible(ch) for ch in value):
            raise ValueError(
                "an anchor must not be blank (nothing but spaces or invisible characters)"
            )
        return value

    @field_validator("aliases")
    @classmethod
    def _no_blank_alias(cls, aliases: tuple[str, ...]) -> tuple[str, ...]:
        for i, alias in enumerate(aliases):
            if not any(_visible(ch) for ch in alias):
                raise ValueError(
                    f"aliases[{i}] is blank (nothing but spaces or invisible characters): a "
                    "blank paraphrase matches nothing; drop it or give its wording"
                )
        return aliases


def _visible(ch: str) -> bool:
    """Whether ``ch`` shows: not a space, a control or a format character (``\u200b``,
    ``\ufeff``, ``\u2060``), which the grounding checks' normalisation drops or blanks."""
    return not ch.isspace() and unicodedata.category(ch) not in ("Cc", "Cf")
