"""Dump the observations of the golden study (``golden/toy`` with the scripted judge) as JSON.

A tool for comparing two versions of the code by hand, e.g. before and after a refactor::

    git -C /work/main archive <commit> | tar -x -C /tmp/base
    PYTHONPATH=/tmp/base/src:. python tests/study/golden/make_golden.py   # writes golden.json

The test suite no longer compares against a stored dump: ``test_golden_study.py`` checks that
the study's observations equal the scorers' own results on each output (a stored dump went stale
whenever the judges changed on purpose).
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "toy"
RUNS = (("separate", 2), ("shared", 1))
KEYS = (
    "output_id",
    "scorer",
    "repetition",
    "status",
    "score",
    "flagged",
    "issues",
    "unscored_reason",
    "detail",
)


def observations(result: Any) -> list[dict[str, Any]]:
    """The compared fields of every observation, sorted (timings and usage left out)."""
    rows = [
        {key: list(v) if isinstance(v := getattr(o, key), tuple) else v for key in KEYS}
        for o in result.observations
    ]
    return sorted(rows, key=lambda r: (r["output_id"], r["scorer"], r["repetition"]))


def main() -> None:
    import importlib

    from hybridjudge.model import ModelConfig
    from tests.study.golden.scripted_judge import respond
    from tests.support.openai_server import FakeOpenAIServer

    # typed loosely: this script also runs on the pre-refactor code (no load_plan there)
    study: Any = importlib.import_module("hybridjudge.study")
    golden_plan = (
        study.load_plan(corpus_paths=[CORPUS])
        if hasattr(study, "load_plan")
        else study.StudyPlan(corpus_paths=[CORPUS])
    )
    golden: dict[str, Any] = {}
    with FakeOpenAIServer() as server, tempfile.TemporaryDirectory() as tmp:
        server.respond_with(respond)
        for mode, repetitions in RUNS:
            config = ModelConfig(
                backend="openai",
                base_url=server.base_url,
                model="fake-model",
                cache_dir=Path(tmp) / mode,
                price_input_per_mtok=1.0,
                price_output_per_mtok=2.0,
                timeout=10.0,
            )
            result = study.run_study(
                golden_plan,
                scorers=["deterministic", "support", "contradiction"],
                repetitions=repetitions,
                judge_mode=mode,
                model_config=config,
            )
            golden[mode] = observations(result)
    text = json.dumps(golden, indent=1, ensure_ascii=False, sort_keys=True) + "\n"
    (HERE / "golden.json").write_text(text, encoding="utf-8")
    print(f"wrote {HERE / 'golden.json'}", file=sys.stderr)


if __name__ == "__main__":
    main()
