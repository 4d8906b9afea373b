"""``make study``, the README's first command, as the CLI receives it (``make -n``)."""

from __future__ import annotations

import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from hybridjudge.cli import main

ROOT = Path(__file__).resolve().parents[2]


def _study_args(*make_vars: str) -> list[str]:
    """The arguments ``make study`` gives ``hybridjudge study run`` (printed, not run)."""
    done = subprocess.run(
        ["make", "-n", "-s", "study", *make_vars],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    lines = done.stdout.replace("\\\n", " ").splitlines()
    (line,) = [x for x in lines if " study run " in x]
    words = shlex.split(line)
    return words[words.index("study") :]


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
@pytest.mark.parametrize(
    ("make_vars", "backend"),
    [
        ((), "local"),
        (("STUDY_ARGS=--base-url http://127.0.0.1:9/v1 --model hosted-m",), "openai"),
        (("STUDY_BACKEND=openai", "STUDY_ARGS=--model hosted-m"), "openai"),
    ],
)
def test_make_study_runs_on_the_embedded_model_or_on_the_endpoint_its_args_name(
    make_vars: tuple[str, ...],
    backend: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # the README: "minutes on a hosted model: add STUDY_ARGS="--base-url URL --model NAME""; the
    # Makefile passed --backend local whatever STUDY_ARGS said, which the CLI refuses with a URL
    args = _study_args(f"STUDY_OUT={tmp_path / 'out'}", *make_vars)
    assert args[args.index("--backend") + 1] == backend
    assert main([*args, "--dry-run"]) == 0, capsys.readouterr().err
    printed = capsys.readouterr().out
    assert f"({backend})" in printed
    assert "No request was made." in printed
    assert not (tmp_path / "out").exists()
