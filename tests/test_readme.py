"""The README's Python examples run and say what the code does."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
BLOCKS: list[str] = re.findall(r"```python\n(.*?)```", README, flags=re.S)


def _block(marker: str) -> str:
    (found,) = [b for b in BLOCKS if marker in b]
    return found


def test_grounding_example_prints_what_the_readme_says(capsys: object) -> None:
    namespace: dict[str, object] = {}
    exec(_block("check_grounding("), namespace)
    report = namespace["report"]
    kinds = [f.kind for f in report.findings]  # type: ignore[attr-defined]
    # the comment lines under the example, in order
    documented = re.findall(r"^# (\w+_\w+)\s", _block("check_grounding("), flags=re.M)
    assert kinds == documented == ["missing_anchor", "negated_anchor", "ungrounded_number"]
    assert report.grounded is False  # type: ignore[attr-defined]


def test_metrics_example_runs() -> None:
    namespace: dict[str, object] = {}
    exec(_block("evaluate_retrieval("), namespace)
    res = namespace["res"]
    # by hand: relevant d1 (grade 2) at rank 1, d7 (grade 1) at rank 3; ideal order d1, d7:
    # DCG = 2/log2(2) + 1/log2(4) = 2.5, IDCG = 2 + 1/log2(3) = 2.6309
    assert abs(res.means["ndcg@10"] - 2.5 / (2 + 1 / 1.5849625007211562)) < 1e-9  # type: ignore[attr-defined]
    report = namespace["report"]
    # by hand: under-triage = prediction less urgent (larger level): 1->2 and 3->4, 2 of 8
    rate = report.metric("under_triage")  # type: ignore[attr-defined]
    assert (rate.numerator, rate.denominator) == (2, 8)


def test_batch_example_runs_inside_a_running_event_loop_and_shows_its_table(
    openai_server: Any, fake_model_config: Any
) -> None:
    import asyncio

    from tests.batch.test_judge_many import perfect

    openai_server.respond_with(perfect)
    block = _block("check_many(")
    # the README's model is the embedded one; here the scripted server stands in for it
    code = block.replace("ModelConfig.local()", "FAKE_CONFIG")
    namespace: dict[str, Any] = {"FAKE_CONFIG": fake_model_config}

    async def notebook_cell() -> None:
        asyncio.get_running_loop()  # as in Jupyter: the example runs with a loop running
        exec(code, namespace)

    asyncio.run(notebook_cell())
    shown = namespace["checks"].to_pandas()[["id", "grounded", "finding_kinds", "metadata.team"]]
    lines = block.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("checks.to_pandas()"))
    documented = [line[2:] for line in lines[start + 1 : start + 4]]
    assert shown.to_string().splitlines() == documented
    means = namespace["judged"].to_pandas().groupby("id")["score"].mean()
    # the scripted judge supports a claim iff it says "30 days": q1 1.0, q2 0.0 (2 repetitions)
    assert means.to_dict() == {"q1": 1.0, "q2": 0.0}
