"""The hybrid scorer in a study, against a real OpenAI-compatible server on 127.0.0.1 (scripted).

A toy corpus of two cases (context: "Customers may request a full refund within 30 days of
purchase. Refunds are processed within 5 business days."), each with a clean base, an inversion
and a fabricated number. The scripted judge finds the two inversions unfaithful, and also (a
judge's false alarm) the second base, which is a context sentence word for word. Hand
computation, per output (det: deterministic, con: contradiction judge, hyb: the cascade with its
default judge, contradiction):

========  ===============================  ===========  ============  ========================
output    text                             det          con           hyb (stage, calls)
========  ===============================  ===========  ============  ========================
c1 base   may request a refund ... 30 d.   pass         1.0           judge 1.0 (1 call)
c1 inv    may not request ...              no reaction  0.0: reacts   judge 0.0: reacts (1)
c1 fab    ... within 45 days.              reacts (45)  1.0           checks 0.0: reacts (0)
c2 base   processed within 5 bus. days.    pass         0.0: flagged  as_written 1.0 (0)
c2 inv    never processed within 5 ...     no reaction  0.0 = base    judge 0.0 < 1.0: reacts
c2 fab    processed within 9 bus. days.    reacts (9)   1.0           checks 0.0: reacts (0)
========  ===============================  ===========  ============  ========================

So against the checks and the contradiction judge together: inversions 2 vs 1 (gained 1),
fabricated numbers 2 vs 2, clean bases flagged 0 vs 1 (the cascade avoided the false alarm);
the judge makes 6 calls, the cascade 3 (its own reply cache: not served by the judge's).
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from hybridjudge.corpus import Case, Output, Producer, write_jsonl_models
from hybridjudge.model import ModelConfig
from hybridjudge.reports import render_html, render_markdown
from hybridjudge.reports._export import observations_csv
from hybridjudge.reports._markdown import study_facts
from hybridjudge.study import STUDY_FORMAT_VERSION, StudyResult, load_plan, run_study
from tests.study._scripted import garbage_step, judge_step
from tests.support.openai_server import FakeOpenAIServer, RecordedRequest, Step

CONTEXT = (
    "Customers may request a full refund within 30 days of purchase. "
    "Refunds are processed within 5 business days."
)
TEXTS = {
    "c1::base": "Customers may request a refund within 30 days.",
    "c1::inv": "Customers may not request a refund within 30 days.",
    "c1::fab": "Customers may request a refund within 45 days.",
    "c2::base": "Refunds are processed within 5 business days.",
    "c2::inv": "Refunds are never processed within 5 business days.",
    "c2::fab": "Refunds are processed within 9 business days.",
}
BAD = {TEXTS["c1::inv"], TEXTS["c2::inv"], TEXTS["c2::base"]}


def _corpus(root: Path) -> Path:
    producer = Producer(system="toy", kind="synthetic")
    cases = [
        Case(id=c, question="Refunds?", context=CONTEXT, anchors=(), label_source="hand-written")
        for c in ("c1", "c2")
    ]
    outputs = []
    for oid, text in TEXTS.items():
        case, kind = oid.split("::")
        if kind == "base":
            outputs.append(Output(id=oid, case_id=case, text=text, producer=producer, clean=True))
        else:
            outputs.append(
                Output(
                    id=oid,
                    case_id=case,
                    text=text,
                    base_id=f"{case}::base",
                    defect="inversion" if kind == "inv" else "fabricated_number",
                    origin="mutator",
                    producer=producer,
                )
            )
    write_jsonl_models(root / "cases.jsonl", cases)
    write_jsonl_models(root / "outputs.jsonl", outputs)
    return root


def _judge(request: RecordedRequest) -> Step:
    return judge_step(request, tuple(TEXTS.values()), bad=BAD)


@pytest.fixture
def config(openai_server: FakeOpenAIServer, tmp_path: Path) -> ModelConfig:
    openai_server.respond_with(_judge)
    return ModelConfig(
        backend="openai",
        base_url=openai_server.base_url,
        model="fake-model",
        cache_dir=tmp_path / "cache",
        max_concurrency=1,
        price_input_per_mtok=1.0,
        price_output_per_mtok=2.0,
        timeout=5.0,
    )


def _study(config: ModelConfig, tmp_path: Path) -> StudyResult:
    plan = load_plan(corpus_paths=[_corpus(tmp_path / "toy")])
    return run_study(
        plan, scorers=["deterministic", "contradiction", "hybrid"], model_config=config
    )


def test_lost_gained_and_saved_by_hand(
    openai_server: FakeOpenAIServer, config: ModelConfig, tmp_path: Path
) -> None:
    result = _study(config, tmp_path)
    assert result.format_version == STUDY_FORMAT_VERSION == 8
    assert result.config.hybrid_judges == ("contradiction",)
    rows = {(r.defect_class, r.origin): r for r in result.analysis.cascade}
    assert set(rows) == {
        ("inversion", "mutator"),
        ("fabricated_number", "mutator"),
        ("clean", "base"),
    }
    got = {
        k: (r.n, r.cascade_count, r.parts_count, r.lost, r.gained, r.unscored)
        for k, r in rows.items()
    }
    assert got == {
        ("inversion", "mutator"): (2, 2, 1, 0, 1, 0),
        ("fabricated_number", "mutator"): (2, 2, 2, 0, 0, 0),
        ("clean", "base"): (2, 0, 1, 1, 0, 0),
    }
    assert rows["clean", "base"].parts == ("deterministic", "contradiction")
    # the cascade's own column in the detection and false-alarm tables
    detection = {(r.scorer, r.defect_class): r.detected for r in result.analysis.detection}
    assert detection["hybrid", "inversion"] == 2
    assert detection["contradiction", "inversion"] == 1
    alarms = {r.scorer: r.flagged_every for r in result.analysis.false_alarms}
    assert alarms == {"deterministic": 0, "contradiction": 1, "hybrid": 0}
    # calls: the judge asks about all 6 outputs; the cascade about 3 (its own cache)
    cost = {c.scorer: c for c in result.analysis.cost}
    assert cost["contradiction"].calls == 6
    assert cost["hybrid"].calls == 3
    assert cost["hybrid"].cache_hits == 0
    assert openai_server.request_count == 9
    stages = {o.output_id: o.stage for o in result.observations if o.scorer == "hybrid"}
    assert stages == {
        "c1::base": "judge",
        "c1::inv": "judge",
        "c1::fab": "checks",
        "c2::base": "as_written",
        "c2::inv": "judge",
        "c2::fab": "checks",
    }
    report = render_markdown(result)
    assert "## The hybrid scorer against its parts run together" in report
    assert "hybrid: 3 model calls" in report
    assert "against 6 calls" in report
    assert "The hybrid scorer against its parts run together" in render_html(result)
    table = list(csv.DictReader(io.StringIO(observations_csv(result))))
    hybrid = {r["output_id"]: r for r in table if r["scorer"] == "hybrid"}
    assert hybrid["c2::base"]["stage"] == "as_written"
    assert hybrid["c2::base"]["claim_stages"] == "as_written"
    assert {r["stage"] for r in table if r["scorer"] != "hybrid"} == {""}


def test_the_saved_study_reads_back_and_old_fields_stay_out(
    config: ModelConfig, tmp_path: Path
) -> None:
    from hybridjudge.study import load_study, save_study

    result = _study(config, tmp_path)
    path = save_study(result, tmp_path / "out" / "study.json")
    again = load_study(path)
    assert again.analysis.cascade == result.analysis.cascade
    text = Path(path).read_text()
    # the other scorers' observations keep their form: no stage key
    assert text.count('"stage"') == 6


def test_an_unscored_judge_reply_stays_unscored(
    openai_server: FakeOpenAIServer, config: ModelConfig, tmp_path: Path
) -> None:
    openai_server.respond_with(lambda request: garbage_step())
    plan = load_plan(corpus_paths=[_corpus(tmp_path / "toy")])
    result = run_study(plan, scorers=["deterministic", "hybrid"], model_config=config)
    hybrid = {o.output_id: o for o in result.observations if o.scorer == "hybrid"}
    # the checks still decide the fabricated numbers and the sentence as written; every output
    # that needed the judge is unscored, never a pass
    assert {k: (o.status, o.stage) for k, o in hybrid.items()} == {
        "c1::base": ("unscored", "judge"),
        "c1::inv": ("unscored", "judge"),
        "c1::fab": ("scored", "checks"),
        "c2::base": ("scored", "as_written"),
        "c2::inv": ("unscored", "judge"),
        "c2::fab": ("scored", "checks"),
    }
    assert all(
        o.unscored_reason == "parse_failure" for o in hybrid.values() if o.status == "unscored"
    )
    unscored = {u.scorer: u.by_reason for u in result.analysis.unscored}
    assert unscored["hybrid"] == {"parse_failure": 3}


def test_study_run_command_with_the_cascade(
    openai_server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from hybridjudge.cli import main
    from hybridjudge.study import load_study

    openai_server.respond_with(_judge)
    corpus = _corpus(tmp_path / "toy")
    out = tmp_path / "res"
    args = ["study", "run", "--corpus", str(corpus), "--out", str(out), "-q"]
    args += ["--backend", "openai", "--base-url", openai_server.base_url, "--model", "m"]
    args += ["--cache-dir", str(tmp_path / "c"), "--scorers", "deterministic,hybrid"]
    args += ["--hybrid-judges", "contradiction"]
    assert main(args) == 0
    study = load_study(out)
    assert study.config.hybrid_judges == ("contradiction",)
    # its judge did not run on every output, so there is no lost/gained table (nothing to
    # compare with), but the cascade has its own column; alone, it shares the cache
    assert study.analysis.cascade == ()
    cost = {c.scorer: c for c in study.analysis.cost}
    assert cost["hybrid"].calls == 3
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "hybrid" in html
    assert "The hybrid scorer against its parts" not in html
    # --hybrid-judges without the hybrid scorer is refused before any work (exit 2)
    capsys.readouterr()
    refused = ["study", "run", "--corpus", str(corpus), "--out", str(tmp_path / "r2")]
    refused += ["--scorers", "deterministic", "--hybrid-judges", "support"]
    assert main(refused) == 2
    assert "--hybrid-judges" in capsys.readouterr().err


def test_the_cascade_on_every_output_is_compared_on_the_judges_sample(
    openai_server: FakeOpenAIServer, config: ModelConfig, tmp_path: Path
) -> None:
    plan = load_plan(corpus_paths=[_corpus(tmp_path / "toy")], judge_sample=1)
    assert len(plan.judged) == 3  # one base with its two mutants
    result = run_study(
        plan,
        scorers=["deterministic", "contradiction", "hybrid"],
        model_config=config,
        hybrid_all_outputs=True,
    )
    assert result.config.hybrid_all_outputs is True
    ran = {o.scorer: 0 for o in result.observations}
    for o in result.observations:
        ran[o.scorer] += 1
    assert ran == {"deterministic": 6, "contradiction": 3, "hybrid": 6}
    # lost/gained only where the cascade and its parts all ran: the sampled base and mutants
    assert sorted((r.defect_class, r.n) for r in result.analysis.cascade) == [
        ("clean", 1),
        ("fabricated_number", 1),
        ("inversion", 1),
    ]
    detection = {(r.scorer, r.defect_class): r.n for r in result.analysis.detection}
    assert detection["hybrid", "inversion"] == 2
    # the report's first lines say who scored what
    facts = dict(study_facts(result))
    assert facts["sample"].startswith("judges scored 3 of 6 outputs")
    assert facts["sample"].endswith("and so did the hybrid scorer (--hybrid-all-outputs)")
    # its cost beside its parts' counts the outputs they scored too, not all six
    from hybridjudge.reports._cascade import cascade_savings

    (line,) = cascade_savings(result.analysis, result)
    on_sample = sum(
        o.usage.calls
        for o in result.observations
        if o.scorer == "hybrid" and o.output_id in plan.judged
    )
    everywhere = sum(o.usage.calls for o in result.observations if o.scorer == "hybrid")
    assert on_sample < everywhere  # by hand: the other case needs the judge too
    assert line.startswith(
        f"hybrid on the 3 outputs its parts scored too (on all 6 it made {everywhere} calls"
    )
    assert f": {on_sample} model calls" in line
    assert detection["contradiction", "inversion"] == 1


def test_grading_the_failed_outputs_lets_a_mutant_of_a_wrong_base_score_below_it(
    openai_server: FakeOpenAIServer, config: ModelConfig, tmp_path: Path
) -> None:
    from hybridjudge.study import load_study, save_study

    # a base labelled incorrect that the checks fail (9 is in no context figure), and the same
    # answer with an inversion appended: by hand, without grading the cascade scores both 0.0
    # (the mutant cannot react); graded, the base is 1/2 (its second claim accepted) and the
    # mutant 1/3 (the appended claim contradicted): it reacts, as the contradiction judge does
    wrong = f"{TEXTS['c2::fab']} {TEXTS['c1::base']}"
    producer = Producer(system="toy", kind="synthetic")
    root = tmp_path / "wrong"
    case = Case(id="w", question="Refunds?", context=CONTEXT, anchors=(), label_source="hand")
    outputs = [
        Output(id="w::base", case_id="w", text=wrong, producer=producer, clean=False),
        Output(
            id="w::app",
            case_id="w",
            text=f"{wrong} {TEXTS['c1::inv']}",
            base_id="w::base",
            defect="contradiction",
            origin="mutator",
            producer=producer,
        ),
    ]
    write_jsonl_models(root / "cases.jsonl", [case])
    write_jsonl_models(root / "outputs.jsonl", outputs)
    plan = load_plan(corpus_paths=[root])
    scorers = ["deterministic", "contradiction", "hybrid"]

    def detected(result: StudyResult) -> dict[str, int]:
        return {
            r.scorer: r.detected
            for r in result.analysis.detection
            if r.defect_class == "contradiction"
        }

    plain = run_study(plan, scorers=scorers, model_config=config)
    assert detected(plain) == {"deterministic": 0, "contradiction": 1, "hybrid": 0}
    graded = run_study(plan, scorers=scorers, model_config=config, hybrid_grade_failed=True)
    assert detected(graded) == {"deterministic": 0, "contradiction": 1, "hybrid": 1}
    scores = {o.output_id: o.score for o in graded.observations if o.scorer == "hybrid"}
    assert scores == {"w::base": 0.5, "w::app": pytest.approx(1 / 3)}
    assert graded.config.hybrid_grade_failed is True
    assert plain.config.hybrid_grade_failed is False
    # written only when set (format 8), and read back
    path = save_study(graded, tmp_path / "out" / "study.json")
    assert '"hybrid_grade_failed": true' in Path(path).read_text()
    assert load_study(path).config.hybrid_grade_failed is True
    assert (
        "hybrid_grade_failed" not in save_study(plain, tmp_path / "o2" / "study.json").read_text()
    )


def test_the_cascade_is_among_the_cheapest_llm_scorers(config: ModelConfig, tmp_path: Path) -> None:
    result = _study(config, tmp_path)
    cheapest = {r.defect_class: r for r in result.analysis.cheapest}
    # by hand (the table above): the contradiction judge detects 1 of 2 inversions and 0 of 2
    # fabricated numbers; the cascade detects every one of both, so it is the one that detects
    # each class, whatever its price
    assert cheapest["inversion"].scorer == "hybrid"
    assert cheapest["inversion"].detecting == ("hybrid",)
    assert cheapest["fabricated_number"].scorer == "hybrid"


def test_dry_run_counts_only_the_calls_the_cascade_can_make(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import re

    from hybridjudge.cli import main
    from hybridjudge.judges import planned_calls

    corpus = _corpus(tmp_path / "toy")
    args = ["study", "run", "--corpus", str(corpus), "--out", str(tmp_path / "o"), "--dry-run"]
    args += ["--backend", "openai", "--base-url", "http://127.0.0.1:9/v1", "--model", "m"]
    args += ["--scorers", "deterministic,hybrid"]
    # by hand: the checks fail the two fabricated numbers and c2's base is a context sentence
    # as written: only c1's base and both inversions reach the contradiction judge
    expected = sum(
        len(planned_calls(TEXTS[k], [CONTEXT], "Refunds?", scorers=["contradiction"]))
        for k in ("c1::base", "c1::inv", "c2::inv")
    )
    assert expected > 0
    for extra in ([], ["--hybrid-grade-failed"]):  # each fabricated answer is its finding alone
        assert main(args + extra) == 0
        out = capsys.readouterr().out
        found = re.search(
            r"\(hybrid scorer\) --dry-run: 6 evaluation\(s\).*at most (\d+) model", out
        )
        assert found is not None, out
        assert int(found.group(1)) == expected
    assert "not estimated" not in out
