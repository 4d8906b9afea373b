"""The hybrid scorer's saving with a strong, scripted judge: the main job's study in seconds.

Starts the tests' scripted OpenAI-compatible server (``tests/support/openai_server.py``) on
127.0.0.1 as an oracle judge that knows the study's outputs: a sentence of a base labelled correct
is faithful, any other sentence (a mutant's changed sentence, a natural hallucination) is not.
It answers every verdict question accordingly and bills prompt tokens as a quarter of the prompt's
characters (completion: 5). Then it runs the study with the checks, both judges and the cascade,
and prints detection per class, false alarms and the cost of the cascade beside its parts.

Run from the repository root::

    PYTHONPATH=$PWD/src:$PWD .venv/bin/python bench/bench_cascade.py             # main sample
    PYTHONPATH=$PWD/src:$PWD .venv/bin/python bench/bench_cascade.py --sample all
    PYTHONPATH=$PWD/src:$PWD .venv/bin/python bench/bench_cascade.py --hybrid-judges support
    PYTHONPATH=$PWD/src:$PWD .venv/bin/python bench/bench_cascade.py --grade-failed
    PYTHONPATH=$PWD/src:$PWD .venv/bin/python bench/bench_cascade.py --from-study tests/data/studies/main-2026-12-01

A measurement (the ratio of the cascade's calls and tokens to its parts'), not a test: the oracle
judge is as good as a judge can be, so detection here says what the cascade keeps of a strong
judge, and the ratios what it saves.
"""

from __future__ import annotations

import argparse
import re
import tempfile
import time
from pathlib import Path

from tests.judges.helpers import (
    contradiction_reply,
    evidence_of,
    point_reply,
    prompt_of,
    shared_reply,
    statement_of,
    support_reply,
)
from tests.support.openai_server import FakeOpenAIServer, RecordedRequest, Step

from hybridjudge.judges._evidence import claim_sentences
from hybridjudge.model import ModelConfig
from hybridjudge.reports import write_reports
from hybridjudge.study import load_plan, run_study

_FRAGMENT = re.compile(r'^The answer to ".*" is: (.*)$')


def _key(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.casefold()))


def _oracle(good: set[str]) -> object:
    def respond(request: RecordedRequest) -> Step:
        name = prompt_of(request)
        statement = statement_of(request)
        found = _FRAGMENT.match(statement)
        claim = found.group(1) if found else statement
        ok = _key(claim) in good
        tokens = {
            "prompt_tokens": sum(len(str(m.get("content", ""))) for m in request.messages) // 4,
            "completion_tokens": 5,
        }
        evidence = [s for s in re.split(r"\n|(?<=[.!?])\s+", evidence_of(request)) if s.strip()]
        quote = " ".join(evidence[0].split()[:20]) if evidence else ""
        if name == "support":
            best = max(evidence, key=lambda s: len(set(_key(s).split()) & set(_key(claim).split())))
            return support_reply("YES" if ok else "NO", best if ok else "", **tokens)
        if name == "point":
            return point_reply("YES", 1, **tokens) if ok else point_reply("NO", **tokens)
        if name == "contradiction":
            return contradiction_reply("YES" if ok else "NO", **tokens)
        code = "YES" if ok else "NO"
        return shared_reply(code, code, quote if ok else "", **tokens)

    return respond


def _sample(text: str) -> dict[str, int | None] | None:
    if text == "all":
        return None
    out: dict[str, int | None] = {}
    for part in text.split(","):
        name, _, value = part.partition("=")
        out[name] = None if value == "all" else int(value)
    return out


def from_study(path: str) -> None:
    """What the cascade would flag, from a finished study's own judge observations: the checks
    first, then each judge choice's flag on the outputs the checks pass (the cascade asks those
    judges exactly these questions); raw flags per (corpus, class), and the judges' billed calls
    and requests on the outputs the checks pass."""
    from hybridjudge.study import load_study

    study = load_study(path)
    obs: dict[str, dict[str, object]] = {}
    for o in study.observations:
        obs.setdefault(o.output_id, {})[o.scorer] = o
    judged = [o for o in study.outputs if o.judged]

    def flagged(oid: str, scorer: str) -> bool:
        found = obs[oid].get(scorer)
        return bool(getattr(found, "flagged", False))

    for judges in (("support",), ("contradiction",), ("support", "contradiction")):
        counts: dict[tuple[str, str], list[int]] = {}
        calls = requests = 0
        for out in judged:
            key = (
                out.corpus,
                out.defect or ("clean" if out.clean else "base, not labelled correct"),
            )
            cell = counts.setdefault(key, [0, 0])
            cell[1] += 1
            passed = not flagged(out.id, "deterministic")
            cell[0] += not passed or any(flagged(out.id, j) for j in judges)
            if passed:
                for j in judges:
                    usage = getattr(obs[out.id][j], "usage")  # noqa: B009
                    calls += usage.calls
                    requests += usage.calls + usage.cache_hits
        print(f"checks + {' + '.join(judges)}: {calls} billed calls, {requests} requests")
        for (corpus, cls), (k, n) in sorted(counts.items()):
            print(f"  {corpus:9} {cls:28} flagged {k}/{n}")
    cost = {c.scorer: c for c in study.analysis.cost}
    both = [cost[s] for s in ("support", "contradiction") if s in cost]
    print(
        f"support + contradiction on every judged output: {sum(c.calls for c in both)} billed "
        f"calls, {sum(c.calls + c.cache_hits for c in both)} requests"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", default="opengate=6,halueval=20")
    parser.add_argument("--hybrid-judges", default=None)
    parser.add_argument("--out", default=None, help="write the reports here")
    parser.add_argument(
        "--grade-failed",
        action="store_true",
        help="the cascade grades the outputs the checks fail claim by claim (grade_failed)",
    )
    parser.add_argument(
        "--from-study",
        default=None,
        metavar="RESULTS_DIR",
        help="no server: what the cascade would flag, from a study's own judge observations",
    )
    args = parser.parse_args()
    if args.from_study:
        from_study(args.from_study)
        return
    plan = load_plan(
        corpus_paths=["corpus/opengate", "corpus/halueval"],
        mutation_paths=["mutations/opengate.jsonl", "mutations/halueval.jsonl"],
        judge_sample=_sample(args.sample),
    )
    good = {
        _key(s)
        for o in plan.outputs
        if o.base_id is None and o.clean
        for s in claim_sentences(o.text)
    }
    with FakeOpenAIServer() as server, tempfile.TemporaryDirectory() as cache:
        server.respond_with(_oracle(good))  # type: ignore[arg-type]
        config = ModelConfig(
            backend="openai",
            base_url=server.base_url,
            model="scripted-oracle",
            cache_dir=Path(cache),
            price_input_per_mtok=0.15,
            price_output_per_mtok=0.6,
            max_concurrency=8,
        )
        start = time.perf_counter()
        result = run_study(
            plan,
            scorers=["deterministic", "support", "contradiction", "hybrid"],
            model_config=config,
            hybrid_judges=args.hybrid_judges,
            hybrid_grade_failed=args.grade_failed,
        )
        wall = time.perf_counter() - start
    a = result.analysis
    print(f"judged {len(plan.judged)} of {len(plan.outputs)} outputs in {wall:.1f} s")
    print("corpus    class                      det   sup   con   hyb   (detected/n)")
    cells: dict[tuple[str, str, str], dict[str, str]] = {}
    for r in a.detection:
        cells.setdefault((r.corpus, r.defect_class, r.origin), {})[r.scorer] = f"{r.detected}/{r.n}"
    for (corpus, cls, origin), row in cells.items():
        shown = [row.get(s, "-") for s in ("deterministic", "support", "contradiction", "hybrid")]
        print(f"{corpus:9} {cls + ' [' + origin + ']':26} " + " ".join(f"{c:>7}" for c in shown))
    for fa in a.false_alarms:
        print(f"{fa.corpus:9} {'clean bases flagged':26} {fa.scorer}: {fa.flagged_every}/{fa.n}")
    for c in a.cost:
        print(
            f"cost {c.scorer:14} calls {c.calls:5}  cache hits {c.cache_hits:5}  "
            f"tokens {c.prompt_tokens + c.completion_tokens:8}"
        )
    for cr in a.cascade:
        print(
            f"cascade {cr.corpus} {cr.defect_class} [{cr.origin}]: n {cr.n} cascade "
            f"{cr.cascade_count} parts {cr.parts_count} lost {cr.lost} gained {cr.gained} "
            f"unscored {cr.unscored}"
        )
    stages: dict[str, int] = {}
    for o in result.observations:
        if o.scorer == "hybrid":
            key = o.stage if o.status == "scored" else f"unscored ({o.stage})"
            stages[key or "?"] = stages.get(key or "?", 0) + 1
    claims: dict[str, int] = {}
    for o in result.observations:
        for stage in o.claim_stages:
            claims[stage] = claims.get(stage, 0) + 1
    print("cascade stages (outputs):", stages, "(claims):", claims)
    if args.out:
        write_reports(result, args.out)


if __name__ == "__main__":
    main()
