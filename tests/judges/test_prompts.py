"""Prompts are package data whose version is the sha256 of the file (so edits change cache keys)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

import hybridjudge.judges
from hybridjudge.judges import PROMPT_NAMES, PromptError, load_prompt

PROMPT_DIR = Path(hybridjudge.judges.__file__).parent / "prompts"


@pytest.mark.parametrize("name", PROMPT_NAMES)
def test_version_is_sha256_prefix_of_the_file_bytes(name: str) -> None:
    # Independent source: hashlib over the bytes on disk.
    expected = hashlib.sha256((PROMPT_DIR / f"{name}.md").read_bytes()).hexdigest()[:12]
    assert load_prompt(name).version == expected


def test_versions_differ_between_prompts() -> None:
    versions = {load_prompt(name).version for name in PROMPT_NAMES}
    assert len(versions) == len(PROMPT_NAMES)


@pytest.mark.parametrize("name", ["support", "contradiction", "shared"])
def test_verdict_prompts_put_the_context_first_and_ask_for_codes_only(name: str) -> None:
    prompt = load_prompt(name)
    template = prompt.user.template
    # the context first, then the claim, then the question: the prefix is shared by every
    # question about the same claim, and the system message by every verdict prompt
    assert template.startswith("Text:\n${context}\n\nStatement: ${claims}\n\n")
    assert prompt.system == load_prompt("support").system
    assert '"YES"' in template
    assert '"NO"' in template
    assert "reason" not in template  # no free-text reasoning in the reply
    if name != "contradiction":
        # the quote is asked for before the code, and capped
        assert template.index('"quote"') < template.index('"YES"')
        assert "at most 20 words" in template


def test_contradiction_prompt_asks_the_probe_question() -> None:
    # issue 13's probe: "Can both sentences be true at the same time?" judged 7 of 8 pairs right
    template = load_prompt("contradiction").user.template
    assert "both be true at the same time?" in template


def test_messages_fill_the_user_template_and_keep_the_system_verbatim() -> None:
    prompt = load_prompt("support")
    messages = prompt.messages(context="The fee is $15.", claims="The fee is $15.")
    assert messages[0] == {"role": "system", "content": prompt.system}
    assert "The fee is $15." in messages[1]["content"]
    assert "${" not in messages[1]["content"]


def test_missing_placeholder_is_a_prompt_error() -> None:
    with pytest.raises(PromptError, match=r"\$\{claims\}"):
        load_prompt("support").messages(context="c")


def test_unknown_prompt_is_a_prompt_error() -> None:
    with pytest.raises(PromptError, match="unknown prompt 'nope'"):
        load_prompt("nope")


def test_public_names_are_exactly_all() -> None:
    # As httpx's tests/test_exported_members.py: __all__ lists every public name, no more.
    # names starting with "@" are pytest's assertion-rewrite helpers, not the package's
    public = {n for n in vars(hybridjudge.judges) if not n.startswith(("_", "@"))}
    assert public == set(hybridjudge.judges.__all__)
