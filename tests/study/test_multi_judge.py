"""Several judges in one study (``--judge NAME=SPEC`` / ``run_study(judges=...)``), against the
real OpenAI-compatible test server: two models on one scripted endpoint at different prices.

The scripted judges (:mod:`tests.study._scripted`), answer by the request's ``model``:

- ``cheap-model`` ($0.1 / $0.2 per million tokens): its support verdict rejects the fabricated
  numbers (not their bases), and every answer, base or not, of the inversion cases and the
  HaluEval-like questions, so it detects fabricated numbers only; its contradiction verdict
  accepts everything.
- ``dear-model`` ($10 / $20): rejects every mutant and every hallucinated answer, except that its
  contradiction reply about the third hallucinated answer is not JSON (unscored); its
  contradiction verdicts bill 10 completion tokens (every other reply 10 prompt + 5).

Every expected count below is worked out by hand from that script.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from sklearn.metrics import roc_auc_score

from hybridjudge.cli import main
from hybridjudge.corpus import Case, Output, Producer, write_jsonl_models
from hybridjudge.model import ModelConfig
from hybridjudge.reports import render_html, render_markdown, write_reports
from hybridjudge.reports._format import fmt_usd
from hybridjudge.study import (
    STUDY_FORMAT_VERSION,
    StudyResult,
    load_plan,
    load_study,
    run_study,
)
from tests.study._scripted import answer_in, garbage_step, judge_step, prompt_name
from tests.support.openai_server import FakeOpenAIServer, RecordedRequest, Step

CONTEXT = (
    "Customers may request a full refund within 30 days of purchase. "
    "Refunds are processed within 5 business days."
)
# fabricated numbers (cases c1, c2) and inversions (c3, c4) of their own bases; no answer is a
# sentence of the context
BASE = "Customers may request a refund within 30 days."
FAB = "Customers may request a refund within 45 days."
BASE2 = "Refunds take 5 business days to process."
FAB2 = "Refunds take 9 business days to process."
BASE3 = "A full refund may be requested within 30 days."
INV = "A full refund may not be requested within 30 days."
BASE4 = "Refunds are processed in 5 business days."
INV2 = "Refunds are never processed in 5 business days."
MUTANTS = {"c1": (BASE, FAB, "fabricated_number"), "c2": (BASE2, FAB2, "fabricated_number")}
MUTANTS |= {"c3": (BASE3, INV, "inversion"), "c4": (BASE4, INV2, "inversion")}
HALU = {  # question -> (context, right answer, hallucinated answer); answers > 5 words, so
    # the judges ask both questions (a bare answer of <= 5 words skips the contradiction one)
    "h1": (
        "Paris is the capital of France.",
        "We know that Paris is the capital.",
        "We know that Lyon is the capital.",
    ),
    "h2": (
        "The Nile flows into the Mediterranean.",
        "We know that it flows into the Mediterranean.",
        "We know that it flows into the Red Sea.",
    ),
    "h3": (
        "Ada Lovelace wrote the first program.",
        "We know that Ada Lovelace wrote it.",
        "We know that Charles Babbage wrote it.",
    ),
}
ANSWERS = [t for b, m, _ in MUTANTS.values() for t in (b, m)]
ANSWERS += [t for _, r, h in HALU.values() for t in (r, h)]
HALLUCINATED = {h for _, _, h in HALU.values()}
UNPARSEABLE = HALU["h3"][2]  # dear-model's contradiction reply about it is not JSON

PRICES = {"cheap-model": (0.1, 0.2), "dear-model": (10.0, 20.0)}


def _respond(request: RecordedRequest) -> Step:
    model = request.body["model"]
    if model == "cheap-model":
        # support: rejects the changed numbers, and every answer of the inversion cases and of
        # the HaluEval-like questions, bases included (so it detects none of those: a mutant
        # must score strictly below its base); contradiction: accepts everything
        rejected = {
            FAB,
            FAB2,
            BASE3,
            INV,
            BASE4,
            INV2,
            *(t for _, r, h in HALU.values() for t in (r, h)),
        }
        return judge_step(request, ANSWERS, bad=rejected, blind={"contradiction"})
    assert model == "dear-model", model
    if prompt_name(request) == "contradiction" and answer_in(request, ANSWERS) == UNPARSEABLE:
        return garbage_step()
    bad = {INV, INV2, FAB, FAB2, *HALLUCINATED}
    # its contradiction verdicts bill 10 completion tokens instead of 5: dearer than its support
    return judge_step(request, ANSWERS, bad=bad, completion_tokens={"contradiction": 10})


def _write(root: Path) -> tuple[Path, Path]:
    producer = Producer(system="toy", kind="synthetic")
    toy, halu = root / "toy", root / "halu"
    cases = [
        Case(id=case, question="Refunds?", context=CONTEXT, anchors=(), label_source="hand")
        for case in MUTANTS
    ]
    outputs = []
    for case, (base, text, defect) in MUTANTS.items():
        outputs.append(
            Output(id=f"{case}::base", case_id=case, text=base, producer=producer, clean=True)
        )
        outputs.append(
            Output(
                id=f"{case}::{defect}",
                case_id=case,
                text=text,
                base_id=f"{case}::base",
                defect=defect,
                origin="mutator",
                producer=producer,
            )
        )
    write_jsonl_models(toy / "cases.jsonl", cases)
    write_jsonl_models(toy / "outputs.jsonl", outputs)
    hcases, houts = [], []
    for qid, (context, right, wrong) in HALU.items():
        hcases.append(Case(id=qid, question="Who?", context=context, anchors=(), label_source="h"))
        houts.append(
            Output(id=f"{qid}::base", case_id=qid, text=right, producer=producer, clean=True)
        )
        houts.append(
            Output(
                id=f"{qid}::hallucinated",
                case_id=qid,
                text=wrong,
                base_id=f"{qid}::base",
                origin="natural",
                producer=producer,
            )
        )
    write_jsonl_models(halu / "cases.jsonl", hcases)
    write_jsonl_models(halu / "outputs.jsonl", houts)
    return toy, halu


def _spec(name: str, server: FakeOpenAIServer) -> str:
    price_in, price_out = PRICES[f"{name}-model"]
    return (
        f"{name}=base_url={server.base_url},model={name}-model,price_in={price_in},"
        f"price_out={price_out},api_key_env=HYBRIDJUDGE_TEST_API_KEY,max_retries=0,timeout=5"
    )


@pytest.fixture
def study(openai_server: FakeOpenAIServer, tmp_path: Path) -> StudyResult:
    openai_server.respond_with(_respond)
    toy, halu = _write(tmp_path)
    plan = load_plan(corpus_paths=[toy, halu])
    shared = ModelConfig.local(cache_dir=tmp_path / "cache")
    return run_study(
        plan,
        repetitions=2,
        model_config=shared,
        judges=[_spec("cheap", openai_server), _spec("dear", openai_server)],
    )


def _detection(study: StudyResult) -> dict[tuple[str, str, str], tuple[int, int, int]]:
    return {
        (r.corpus, r.defect_class, r.scorer): (r.detected, r.n, r.unscored)
        for r in study.analysis.detection
    }


def test_each_judge_scores_every_output_under_its_own_name(study: StudyResult) -> None:
    assert study.format_version == STUDY_FORMAT_VERSION == 8
    assert study.config.scorers == (
        "deterministic",
        "cheap:support",
        "cheap:contradiction",
        "dear:support",
        "dear:contradiction",
    )
    assert [j.name for j in study.config.judges] == ["cheap", "dear"]
    assert study.config.judges[1].model["model"] == "dear-model"
    assert study.config.judges[1].model["price_input_per_mtok"] == 10.0
    assert study.config.model == {}
    d = _detection(study)
    # by hand from the script (2 repetitions)
    assert d[("toy", "fabricated_number", "cheap:support")] == (2, 2, 0)
    assert d[("toy", "fabricated_number", "cheap:contradiction")] == (0, 2, 0)
    assert d[("toy", "inversion", "cheap:support")] == (0, 2, 0)
    assert d[("toy", "inversion", "dear:support")] == (2, 2, 0)
    assert d[("toy", "inversion", "dear:contradiction")] == (2, 2, 0)
    assert d[("halu", "natural", "cheap:support")] == (0, 3, 0)
    assert d[("halu", "natural", "dear:support")] == (3, 3, 0)
    assert d[("halu", "natural", "dear:contradiction")] == (2, 2, 1)
    alarms = {(f.corpus, f.scorer): (f.flagged_every, f.n) for f in study.analysis.false_alarms}
    assert alarms[("toy", "cheap:support")] == (2, 4)  # the bases of the inversion cases
    assert alarms[("toy", "dear:support")] == (0, 4)
    assert alarms[("halu", "cheap:support")] == (3, 3)
    unscored = {u.scorer: u.by_reason for u in study.analysis.unscored}
    assert unscored["dear:contradiction"] == {"parse_failure": 2}  # one answer, 2 repetitions
    assert unscored["cheap:contradiction"] == {}


def test_costs_follow_each_judges_price(
    study: StudyResult, openai_server: FakeOpenAIServer
) -> None:
    # by hand: a scripted reply bills 10 prompt + 5 completion tokens (dear's contradiction
    # verdicts 10 + 10), so a judge's dollars are the sum over its requests of
    # (10 x price_in + completion x price_out) / 1e6
    for name in ("cheap", "dear"):
        price_in, price_out = PRICES[f"{name}-model"]
        sent = [r for r in openai_server.requests if r.body.get("model") == f"{name}-model"]
        completion = [
            10
            if name == "dear"
            and prompt_name(r) == "contradiction"
            and answer_in(r, ANSWERS) != UNPARSEABLE  # the not-JSON replies bill 5
            else 5
            for r in sent
        ]
        usage = study.judge_usage_by_judge[name]
        assert usage.calls == len(sent)
        assert usage.completion_tokens == sum(completion)
        expected = sum(10 * price_in + c * price_out for c in completion) / 1e6
        assert usage.cost_usd == pytest.approx(expected)
    cost = {c.scorer: c for c in study.analysis.cost}
    # the same calls and tokens at 100x the price: dear's support costs 100x cheap's
    cheap, dear = cost["cheap:support"].usd_per_1000, cost["dear:support"].usd_per_1000
    assert cheap is not None
    assert dear is not None
    assert dear == pytest.approx(100 * cheap)
    assert cost["deterministic"].usd_per_1000 == 0.0
    # each judge's scorers share the wall time of that judge's phase, and only that
    assert set(study.wall_s) == {"deterministic", "judges:cheap", "judges:dear"}
    for scorer in ("cheap:support", "cheap:contradiction", "dear:support"):
        phase = f"judges:{scorer.split(':')[0]}"
        assert cost[scorer].wall_s_per_repetition == study.wall_s[phase] > 0


def test_cheapest_judge_per_defect_class(study: StudyResult) -> None:
    rows = {(r.corpus, r.defect_class): r for r in study.analysis.cheapest}
    # by hand: fabricated numbers are detected by cheap:support, dear:support and
    # dear:contradiction; cheap:support is 100x cheaper than dear's
    fab = rows[("toy", "fabricated_number")]
    assert (fab.scorer, fab.judge, fab.n) == ("cheap:support", "cheap", 2)
    assert fab.detecting == ("cheap:support", "dear:support", "dear:contradiction")
    # inversions: only dear detects them, and its support verdicts bill fewer tokens
    inv = rows[("toy", "inversion")]
    assert (inv.scorer, inv.judge) == ("dear:support", "dear")
    assert inv.detecting == ("dear:support", "dear:contradiction")
    # natural hallucinations: dear:contradiction left one unscored, so only dear:support
    nat = rows[("halu", "natural")]
    assert nat.detecting == ("dear:support",)
    md = render_markdown(study)
    assert "## Cheapest judge per defect class" in md
    assert fab.usd_per_1000 is not None
    assert (
        "- toy / fabricated number [mutator]: cheapest: judge cheap (support), "
        f"{fmt_usd(fab.usd_per_1000)} per 1,000 evaluations, 2/2 detected; also detected by "
        "dear:support, dear:contradiction."
    ) in md


def test_no_judge_detecting_a_class_names_the_best() -> None:
    from hybridjudge.study import CostRow, DetectionRow, cheapest_rows

    def det(scorer: str, detected: int, n: int) -> DetectionRow:
        return DetectionRow(
            corpus="c",
            defect_class="inversion",
            origin="mutator",
            scorer=scorer,
            n=n,
            detected=detected,
            reacted_sometimes=0,
            raw_flags=0,
            unscored=0,
            rate=detected / n,
            ci_low=0.0,
            ci_high=1.0,
            in_scope=True,
        )

    def cost(scorer: str, usd: float | None) -> CostRow:
        return CostRow(
            scorer=scorer,
            evaluations=4,
            calls=8,
            prompt_tokens=1,
            completion_tokens=1,
            cost_usd=usd,
            usd_per_1000=usd,
            wall_s_per_repetition=0.0,
            shared_wall=True,
            median_ms=0.0,
            p95_ms=0.0,
            cache_hits=0,
            saved_usd=0.0,
            saved_s=0.0,
            includes_shared_claims=True,
        )

    rows = cheapest_rows(
        [det("a:support", 1, 4), det("b:support", 3, 4)],
        [cost("a:support", 1.0), cost("b:support", 2.0)],
    )
    assert rows[0].scorer is None
    assert (rows[0].best, rows[0].best_detected, rows[0].best_n) == ("b:support", 3, 4)
    # an unknown price ranks after every priced scorer, however cheap the priced one is not
    rows = cheapest_rows(
        [det("a:support", 4, 4), det("b:support", 4, 4)],
        [cost("a:support", None), cost("b:support", 9.0)],
    )
    assert rows[0].scorer == "b:support"
    assert rows[0].detecting == ("b:support", "a:support")


def test_separation_of_right_and_hallucinated_answers(study: StudyResult) -> None:
    rows = {r.scorer: r for r in study.analysis.separation}
    assert {r.corpus for r in study.analysis.separation} == {"halu"}  # toy has no natural
    for scorer, row in rows.items():
        labels, scores = [], []
        for out in study.outputs:
            if out.corpus != "halu":
                continue
            obs = [o for o in study.observations if o.output_id == out.id and o.scorer == scorer]
            if any(o.status != "scored" for o in obs):
                continue
            labels.append(out.base_id is None)
            scores.append(sum(o.score or 0.0 for o in obs) / len(obs))
        assert row.positives + row.negatives == len(labels)
        assert row.auroc == pytest.approx(roc_auc_score(labels, scores)), scorer
        assert row.ci_low is not None
        assert row.ci_high is not None
        assert row.auroc is not None
        assert row.ci_low <= row.auroc <= row.ci_high
    # by hand: cheap accepts every answer (all ties: 0.5); dear rejects every hallucination
    assert rows["cheap:support"].auroc == 0.5
    assert rows["dear:support"].auroc == 1.0
    d = rows["dear:contradiction"]
    assert (d.positives, d.negatives, d.unscored_positives, d.unscored_negatives) == (3, 2, 0, 1)
    md = render_markdown(study)
    assert "## Separation of right and hallucinated answers (AUROC)" in md
    assert "1 unscored left out" in md


def test_reports_have_one_column_group_per_judge(study: StudyResult, tmp_path: Path) -> None:
    md = render_markdown(study)
    header = next(line for line in md.splitlines() if line.startswith("| defect class"))
    assert header == (
        "| defect class | deterministic | cheap · support | cheap · contradiction | "
        "dear · support | dear · contradiction |"
    )
    # stability, unscored and cost: one column per scorer, grouped by judge
    assert md.count("| measure | deterministic | cheap · support | cheap · contradiction |") == 3
    html = render_html(study)
    assert html.count('<th scope="colgroup" colspan="2" class="colgroup">cheap</th>') >= 5
    assert '<thead class="grouped">' in html
    paths = write_reports(study, tmp_path / "out")
    again = write_reports(load_study(paths["json"]), tmp_path / "again")
    for kind in ("markdown", "html"):
        assert paths[kind].read_bytes() == again[kind].read_bytes(), kind


def test_cli_runs_two_judges_and_prints_the_cheapest(
    openai_server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    openai_server.respond_with(_respond)
    toy, halu = _write(tmp_path)
    out = tmp_path / "res"
    args = ["study", "run", "--corpus", str(toy), "--corpus", str(halu), "--out", str(out)]
    args += ["--judge", _spec("cheap", openai_server), "--judge", _spec("dear", openai_server)]
    args += ["--cache-dir", str(tmp_path / "c"), "--max-unscored", "0.2"]
    assert main(args) == 0
    err = capsys.readouterr().err
    assert "cheapest judge detecting each class in every repetition:" in err
    assert "toy / fabricated number [mutator]: cheapest: judge cheap (support)" in err
    assert "right vs hallucinated answers: AUROC" in err
    saved = json.loads((out / "study.json").read_text(encoding="utf-8"))
    assert saved["format_version"] == STUDY_FORMAT_VERSION
    assert [j["name"] for j in saved["config"]["judges"]] == ["cheap", "dear"]
    assert "HYBRIDJUDGE_TEST_API_KEY" not in (out / "report.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("spec", "fix"),
    [
        ("cheap", "does not start with a judge name and '='"),
        ("=local", "does not start with a judge name"),
        ("a b=local", "may hold only letters"),
        ("x=", "has no spec after '='"),
        ("x=model=m,prce_in=1", "unknown key 'prce_in'"),
        ("x=model=m,price_in=cheap", "price_in='cheap' is not a number"),
        ("x=model=m,seed=1.5", "seed='1.5' is not a whole number"),
        ("x=price_in=1", "names no model (add model=MODEL)"),
        ("x=model=m,model=n", "key 'model' is given twice"),
        ("x=model", "'model' is not KEY=VALUE"),
        ("x=model=m,temperature=9", "--judge x: temperature"),
    ],
)
def test_bad_judge_specs_name_the_flag_and_the_fix(
    spec: str, fix: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    toy, _ = _write(tmp_path)
    args = ["study", "run", "--corpus", str(toy), "--out", str(tmp_path / "o"), "--judge", spec]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert fix in err
    assert "Traceback" not in err
    if "temperature" not in spec:
        assert "error [invalid_judge_spec]" in err
        assert "--judge mini=base_url=https://api.openai.com/v1,model=gpt-4o-mini" in err
    assert not (tmp_path / "o").exists()  # rejected before any work


def test_bad_judges_in_the_api_are_typed_errors(tmp_path: Path) -> None:
    from hybridjudge._errors import ConfigError

    toy, _ = _write(tmp_path)
    plan = load_plan(corpus_paths=[toy])
    for judges, fix in (
        (["a=local", "a=local"], "judge 'a' is named twice"),
        ("a=local", "not one string"),
        ([], "is empty"),
        (["a=model=m,pricein=1"], "unknown key 'pricein'"),
    ):
        with pytest.raises(ConfigError, match=fix) as info:
            run_study(plan, judges=judges)
        assert info.value.code == "invalid_judge_spec"
    with pytest.raises(ConfigError, match="'z:support', which is not a judge"):
        run_study(plan, judges=["a=local"], thresholds={"z:support": 0.5})


def test_a_threshold_for_one_judge(openai_server: FakeOpenAIServer, tmp_path: Path) -> None:
    openai_server.respond_with(_respond)
    toy, _ = _write(tmp_path)
    result = run_study(
        load_plan(corpus_paths=[toy]),
        scorers=["support"],
        model_config=ModelConfig.local(cache_dir=tmp_path / "cache"),
        judges={"cheap": _spec("cheap", openai_server).split("=", 1)[1]},
        thresholds={"support": 0.5, "cheap:support": 0.25},
    )
    assert result.config.thresholds == {"cheap:support": 0.25}


def test_help_documents_the_judge_spec_with_an_example(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as info:
        main(["study", "run", "--help"])
    assert info.value.code == 0
    text = capsys.readouterr().out
    assert "--judge NAME=SPEC" in text
    assert "--judge small=local" in text
    assert "model=gpt-4o-mini,price_in=0.15," in text


def test_dry_run_estimates_each_judge_without_a_request(
    openai_server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    toy, _ = _write(tmp_path)
    args = ["study", "run", "--corpus", str(toy), "--out", str(tmp_path / "o"), "--dry-run"]
    args += ["--judge", _spec("cheap", openai_server), "--judge", _spec("dear", openai_server)]
    assert main(args) == 0
    printed = capsys.readouterr().out.splitlines()
    # each estimate, then the backend it priced (an endpoint: named, not contacted)
    lines = [line for line in printed if "priced backend:" not in line]
    priced = [line for line in printed if "priced backend: openai-compatible endpoint" in line]
    assert (len(lines), len(priced)) == (2, 2)
    assert lines[0].startswith("hybridjudge study run (judge cheap) --dry-run: ")
    assert "on cheap-model (openai)" in lines[0]
    assert lines[1].startswith("hybridjudge study run (judge dear) --dry-run: ")
    # the same calls and tokens for both judges, each priced at its own rates (by hand:
    # prompt x price_in + completion x price_out, per million tokens, printed to 4 decimals)
    pattern = re.compile(
        r"at most (\d+) model call\(s\), about ([\d,]+) prompt token\(s\) and at most "
        r"([\d,]+) completion token\(s\); cost at most \$([\d.]+)"
    )
    found = [pattern.search(line) for line in lines]
    assert found[0] is not None
    assert found[1] is not None
    counts = [tuple(int(g.replace(",", "")) for g in m.groups()[:3]) for m in found if m]
    assert counts[0] == counts[1]
    _, prompt, completion = counts[0]
    for m, (price_in, price_out) in zip(found, PRICES.values(), strict=True):
        assert m is not None
        expected = (prompt * price_in + completion * price_out) / 1e6
        assert m.group(4) == f"{expected:.4f}"
    assert openai_server.request_count == 0


def test_two_models_on_the_endpoint_of_the_model_flags(
    openai_server: FakeOpenAIServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A spec without base_url takes the endpoint (and key variable) of --base-url; its price
    is its own, and the shared settings (here --max-retries) apply to every judge."""
    monkeypatch.setenv("MJ_TEST_KEY", "sk-test-mj")
    openai_server.respond_with(_respond)
    toy, _ = _write(tmp_path)
    out = tmp_path / "res"
    args = ["study", "run", "--corpus", str(toy), "--out", str(out), "-q"]
    args += ["--base-url", openai_server.base_url, "--api-key-env", "MJ_TEST_KEY"]
    args += ["--max-retries", "0", "--cache-dir", str(tmp_path / "c")]
    args += ["--judge", "cheap=model=cheap-model,price_in=0.1,price_out=0.2"]
    args += ["--judge", "dear=model=dear-model,price_in=10,price_out=20"]
    assert main(args) == 0
    study = load_study(out)
    judges = {j.name: j.model for j in study.config.judges}
    assert judges["cheap"]["endpoint"] == judges["dear"]["endpoint"] == openai_server.base_url
    assert (judges["dear"]["price_input_per_mtok"], judges["dear"]["price_output_per_mtok"]) == (
        10.0,
        20.0,
    )
    models = {r.body["model"] for r in openai_server.requests}
    assert models == {"cheap-model", "dear-model"}
    assert {r.headers["authorization"] for r in openai_server.requests} == {"Bearer sk-test-mj"}
    rows = {(r.defect_class, r.scorer): r.detected for r in study.analysis.detection}
    assert rows[("inversion", "dear:support")] == 2
    assert rows[("inversion", "cheap:support")] == 0


@pytest.mark.parametrize(
    ("flags", "fix"),
    [
        (["--model", "gpt-4o-mini"], "--model sets one judge model, but --judge names several: "
         "put model=MODEL in each --judge spec"),
        (["--price-in", "1"], "put price_in=USD in each --judge spec"),
        (["--backend", "openai"], "write NAME=local for the embedded model"),
    ],
)  # fmt: skip
def test_one_model_flags_beside_several_judges_are_refused(
    flags: list[str], fix: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    toy, _ = _write(tmp_path)
    args = ["study", "run", "--corpus", str(toy), "--out", str(tmp_path / "o"), *flags]
    assert main([*args, "--judge", "a=local"]) == 2
    assert fix in capsys.readouterr().err


def test_judges_given_as_model_configs(openai_server: FakeOpenAIServer, tmp_path: Path) -> None:
    openai_server.respond_with(_respond)
    toy, _ = _write(tmp_path)
    config = ModelConfig(
        backend="openai",
        base_url=openai_server.base_url,
        model="dear-model",
        api_key_env="HYBRIDJUDGE_TEST_API_KEY",
        price_input_per_mtok=10.0,
        price_output_per_mtok=20.0,
        cache_dir=tmp_path / "cache",
    )
    result = run_study(
        load_plan(corpus_paths=[toy]), scorers=["contradiction"], judges={"big": config}
    )
    assert result.config.scorers == ("big:contradiction",)
    assert result.config.judges[0].model["model"] == "dear-model"
    # by hand: dear-model finds both inversions and both changed numbers contradicted
    assert {(r.defect_class, r.detected, r.n) for r in result.analysis.detection} == {
        ("inversion", 2, 2),
        ("fabricated_number", 2, 2),
    }
