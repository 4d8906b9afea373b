"""The judges' prompts: versioned package data under ``hybridjudge/judges/prompts/``.

Each prompt is a Markdown file with two sections, introduced by the lines ``## system`` and
``## user``. The system section is sent verbatim; the user section is a :class:`string.Template`
whose ``${name}`` placeholders are filled per call (``$$`` writes a literal ``$``).

A prompt's **version** is the first 12 hex digits of the sha256 of the file's bytes. The version
is part of every cache key of the model layer, so editing a prompt invalidates exactly the cached
replies that used it: no stale verdicts after a prompt change.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from string import Template
from typing import TYPE_CHECKING

from hybridjudge._errors import ConfigError

if TYPE_CHECKING:
    from hybridjudge.model import ChatMessage

__all__ = ["PROMPT_NAMES", "Prompt", "PromptError", "load_prompt"]

PROMPT_NAMES: tuple[str, ...] = ("claims", "support", "point", "contradiction", "shared")
"""Every prompt the judges use, by file stem."""

_SECTION = re.compile(r"^## (system|user)[ \t]*$", re.MULTILINE)


class PromptError(ConfigError):
    """A prompt file of the package is missing or malformed (a broken installation or edit)."""

    code = "invalid_prompt"


@dataclass(frozen=True, slots=True)
class Prompt:
    """One loaded prompt: its name, version and the two message templates."""

    name: str
    """File stem, e.g. ``"support"``; also the ``prompt_name`` of the cache key."""
    version: str
    """sha256 of the file's bytes, first 12 hex digits."""
    system: str
    """The system message, sent verbatim."""
    user: Template
    """The user message template (``${placeholder}`` syntax)."""

    def messages(self, **values: str) -> list[ChatMessage]:
        """The chat messages with the user template filled from ``values``.

        Raises :class:`PromptError` when a placeholder has no value.
        """
        try:
            user = self.user.substitute(values)
        except KeyError as exc:
            raise PromptError(
                f"prompt {self.name!r} needs a value for ${{{exc.args[0]}}}; pass it to messages()"
            ) from None
        return [{"role": "system", "content": self.system}, {"role": "user", "content": user}]


@cache
def load_prompt(name: str) -> Prompt:
    """Load the packaged prompt ``name`` (one of :data:`PROMPT_NAMES`), cached per process."""
    if name not in PROMPT_NAMES:
        raise PromptError(f"unknown prompt {name!r}; choose one of {', '.join(PROMPT_NAMES)}")
    resource = resources.files("hybridjudge.judges").joinpath("prompts", f"{name}.md")
    try:
        data = resource.read_bytes()
    except OSError as exc:
        raise PromptError(
            f"prompt file prompts/{name}.md is missing from the installed package ({exc}); "
            "reinstall hybridjudge"
        ) from None
    text = data.decode("utf-8")
    parts = _SECTION.split(text)
    # parts = [preamble, "system", body, "user", body]
    if len(parts) != 5 or parts[1] != "system" or parts[3] != "user" or parts[0].strip():
        raise PromptError(
            f"prompt file prompts/{name}.md must consist of a '## system' section followed by "
            "a '## user' section; fix the file"
        )
    system, user = parts[2].strip(), parts[4].strip()
    if not system or not user:
        raise PromptError(f"prompt file prompts/{name}.md has an empty section; fix the file")
    return Prompt(
        name=name,
        version=hashlib.sha256(data).hexdigest()[:12],
        system=system,
        user=Template(user),
    )
