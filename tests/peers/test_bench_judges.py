"""bench/bench_judges.py measures our judges and the peers in one run (issue 13).

Against the scripted server: every reply carries fixed token counts (ours 10 + 2, the peers'
100 + 20), so the figures the benchmark prints can be recomputed by hand from the requests the
server recorded: RAGAS makes 2 calls per output (statements, verdicts) and DeepEval 3 (truths,
claims, verdicts), and the ratio ours / (RAGAS + DeepEval) in tokens is 12 x (our requests) /
(120 x 5). Without the peers' packages the benchmark says so and exits 2 (no traceback).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import ModuleType

import pytest

from hybridjudge.peers import peer_version
from tests.support.openai_server import FakeOpenAIServer, RecordedRequest, Step, json_reply
from tests.support.scripts import load_script

REPO = Path(__file__).resolve().parents[2]
_INSTALLED = peer_version("ragas") is not None and peer_version("deepeval") is not None
# ragas 0.4.3 reads its user id file with a bare open() and never closes it
pytestmark = pytest.mark.filterwarnings(
    "ignore:Exception ignored in.*uuid.json:pytest.PytestUnraisableExceptionWarning"
)


def _bench() -> ModuleType:
    return load_script("bench/bench_judges.py", "hj_bench_judges")


PEER_MARKERS = (
    "Structured output for statement generation",  # RAGAS statements
    "StatementFaithfulnessAnswer",  # RAGAS verdicts
    "Based on the given claims",  # DeepEval verdicts
    "provided actual AI output",  # DeepEval claims
    "truths",  # DeepEval truths
)


def _is_peer(request: RecordedRequest) -> bool:
    text = json.dumps(request.messages)
    return any(marker in text for marker in PEER_MARKERS)


def _script(request: RecordedRequest) -> Step:
    """The peers' prompts get valid replies (100 + 20 tokens); ours an empty object (10 + 2)."""
    text = json.dumps(request.messages)
    big = {"prompt_tokens": 100, "completion_tokens": 20}
    if "Structured output for statement generation" in text:
        return json_reply({"statements": ["A refund is possible."]}, **big)
    if "StatementFaithfulnessAnswer" in text:
        verdict = {"statement": "A refund is possible.", "reason": "r", "verdict": 1}
        return json_reply({"statements": [verdict]}, **big)
    if "Based on the given claims" in text:
        return json_reply({"verdicts": [{"verdict": "yes", "reason": "r"}]}, **big)
    if "provided actual AI output" in text:
        return json_reply({"claims": ["A refund is possible."]}, **big)
    if "truths" in text:
        return json_reply({"truths": ["A refund is possible."]}, **big)
    return json_reply({}, prompt_tokens=10, completion_tokens=2)


def _row(out: str, name: str) -> list[str]:
    line = next(x for x in out.splitlines() if x.startswith(name + " "))
    return line[len(name) :].split()


@pytest.mark.skipif(not _INSTALLED, reason="needs the [peers] extra (make test-peers)")
def test_the_benchmark_measures_ours_and_both_peers_in_one_run(
    openai_server: FakeOpenAIServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))  # ragas writes its user id there
    monkeypatch.setenv("HYBRIDJUDGE_TEST_API_KEY", "test-key")
    openai_server.respond_with(_script)
    bench = _bench()
    code = bench.main(
        [
            "--match",
            "grounding-saas-refund::base",
            "--base-url",
            openai_server.base_url,
            "--model",
            "fake-model",
            "--api-key-env",
            "HYBRIDJUDGE_TEST_API_KEY",
            "--concurrency",
            "1",
            "--timeout",
            "5",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0, out
    requests = openai_server.requests
    peer_requests = [r for r in requests if _is_peer(r)]
    assert len(peer_requests) == 5  # RAGAS 2 + DeepEval 3, by hand from their algorithms
    # columns: evals, calls, prompt, compl, tokens (per evaluation, 1 evaluation)
    assert _row(out, "ragas")[:5] == ["1", "2.00", "200", "40", "240"]
    assert _row(out, "deepeval")[:5] == ["1", "3.00", "300", "60", "360"]
    mine = _row(out, "ours separate (sup+con)")
    ours = round(float(mine[1]))
    assert ours >= 1
    assert mine[:5] == ["1", f"{ours:.2f}", str(10 * ours), str(2 * ours), str(12 * ours)]
    ratios = re.search(r"separate\s+calls (\S+)x, .* tokens (\S+)x, wall time", out)
    assert ratios is not None, out
    assert ratios.group(1) == f"{ours / 5:.2f}"
    assert ratios.group(2) == f"{12 * ours / 600:.2f}"
    # The rerun: the peers' valid replies come from the cache (not one request); our judges got
    # "{}" for every call, which never validates and so is never cached: asked again, as many
    # requests as in the measured run (the server saw them twice).
    assert len(requests) - len(peer_requests) == 2 * ours
    assert f"rerun of every scorer from the cache: {ours} HTTP requests, 5 cache hits" in out


@pytest.mark.skipif(_INSTALLED, reason="the peer packages are installed here")
def test_without_the_peers_the_benchmark_says_so_and_exits_2(
    openai_server: FakeOpenAIServer, capsys: pytest.CaptureFixture[str]
) -> None:
    code = _bench().main(["--base-url", openai_server.base_url, "--model", "fake-model"])
    err = capsys.readouterr().err
    assert code == 2
    assert "pip install -e '.[peers,local]'" in err
    assert "make bench-judges" in err
    assert "Traceback" not in err
    assert openai_server.request_count == 0  # nothing measured without the peers
