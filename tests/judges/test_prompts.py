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
def test_verdict_prompts_define_every_label_and_ask_reason_first(name: str) -> None:
    labels = {
        "support": ["supported", "not_supported"],
        "contradiction": ["contradicted", "not_contradicted", "unknown"],
        "shared": ["supported", "contradicted", "not_in_context"],
    }[name]
    system = load_prompt(name).system
    for label in labels:
        assert f'- "{label}":' in system
    assert system.index('"reason"') < system.index('"verdict"')


def test_messages_fill_the_user_template_and_keep_the_system_verbatim() -> None:
    prompt = load_prompt("support")
    messages = prompt.messages(context="The fee is $15.", claims="1. The fee is $15.")
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
