"""Reports: every detection figure is one (class, scorer) cell; nothing aggregates across classes."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from hybridjudge import InputError
from hybridjudge._stats import wilson_interval
from hybridjudge.cli import main
from hybridjudge.reports import render_html, render_markdown, write_reports
from hybridjudge.reports._charts import cost_chart
from hybridjudge.reports._format import fmt_duration_ms, fmt_duration_s, fmt_usd
from hybridjudge.reports._tables import support_colour
from hybridjudge.reports._terminal import print_study_summary
from hybridjudge.study import DetectionRow, StudyResult, analyse, load_study, save_study
from tests.study._fixtures import make_study

FORBIDDEN_KEYS = re.compile(
    r"overall|aggregate|pooled|total_detect|mean_detect|accuracy|macro|micro", re.I
)


def _json_keys(value: object) -> list[str]:
    if isinstance(value, dict):
        return list(value) + [k for v in value.values() for k in _json_keys(v)]
    if isinstance(value, list):
        return [k for v in value for k in _json_keys(v)]
    return []


def test_cells_are_hand_counted() -> None:
    study = make_study()
    cells = {(r.defect_class, r.scorer): (r.detected, r.n) for r in study.analysis.detection}
    assert cells[("omission", "deterministic")] == (3, 3)
    assert cells[("fabricated_number", "deterministic")] == (2, 3)
    assert cells[("inversion", "deterministic")] == (0, 4)
    assert cells[("omission", "support")] == (0, 3)
    assert cells[("fabricated_number", "support")] == (3, 3)
    assert cells[("inversion", "support")] == (2, 4)


def test_no_number_aggregates_across_defect_classes(tmp_path: Path) -> None:
    study = make_study()
    paths = write_reports(study, tmp_path)
    data = json.loads(paths["json"].read_text())
    assert not [k for k in _json_keys(data) if FORBIDDEN_KEYS.search(k)]
    # The pooled figures (deterministic 5/10, support 5/10) must appear nowhere; each cell must.
    texts = {
        "markdown": paths["markdown"].read_text(),
        "html": paths["html"].read_text(),
    }
    console = Console(record=True, width=200, file=io.StringIO())
    print_study_summary(study, console)
    texts["terminal"] = console.export_text()
    for name, text in texts.items():
        assert "5/10" not in text, name
    for cell in ("3/3 (100%)", "2/3 (67%)", "0/4 (0%)", "2/4 (50%)"):
        for name, text in texts.items():
            assert cell in text, (name, cell)


def test_markdown_marks_out_of_scope_and_false_alarms() -> None:
    md = render_markdown(make_study(clean_flagged=True))
    omission_line = next(line for line in md.splitlines() if line.startswith("| omission"))
    # the judge cannot see omissions by construction: marked with a dagger
    assert omission_line.rstrip(" |").endswith("†")
    fa_line = next(
        line for line in md.splitlines() if "false alarms" in line and line.startswith("|")
    )
    assert "1/3 (33%)" in fa_line  # support flags b0 in both repetitions


def test_html_is_self_contained_with_plots() -> None:
    page = render_html(make_study())
    assert page.count("<svg") == 1  # the cost/latency chart; the heatmap is an HTML table
    assert '<table class="heat">' in page
    assert not re.search(r"""(src|href)=["']https?://""", page)
    assert "<script" not in page


def test_study_file_round_trips_and_refuses_other_versions(tmp_path: Path) -> None:
    study = make_study()
    path = save_study(study, tmp_path / "study.json")
    assert load_study(tmp_path) == study
    data = json.loads(path.read_text())
    data["format_version"] = 99
    path.write_text(json.dumps(data))
    with pytest.raises(InputError, match="version 99"):
        load_study(path)
    path.write_text("{not json")
    with pytest.raises(InputError, match="not valid JSON"):
        load_study(path)


# --- reading at a glance (issue 12) ------------------------------------------------------------

REPO = Path(__file__).resolve().parents[2]
MAIN = REPO / "tests" / "data" / "studies" / "main-2026-12-01"


def _with_cells(study: StudyResult, rows: list[DetectionRow]) -> StudyResult:
    analysis = study.analysis.model_copy(update={"detection": tuple(rows)})
    return study.model_copy(update={"analysis": analysis})


def _row(defect: str, scorer: str, detected: int, n: int, in_scope: bool = True) -> DetectionRow:
    low, high = wilson_interval(detected, n)
    return DetectionRow(
        corpus="toy",
        defect_class=defect,
        origin="mutator",
        scorer=scorer,
        n=n,
        detected=detected,
        reacted_sometimes=0,
        raw_flags=detected,
        unscored=0,
        rate=detected / n,
        ci_low=low,
        ci_high=high,
        in_scope=in_scope,
    )


def test_colour_follows_what_the_interval_supports_not_the_rate() -> None:
    # Wilson 95% upper end for 0/n is z²/(n+z²) (hand computation, z = 1.96):
    # 0/1 -> 3.8415/4.8415 = 0.7935; 0/80 -> 3.8415/83.8415 = 0.0458
    assert wilson_interval(0, 1)[1] == pytest.approx(0.7935, abs=1e-4)
    assert wilson_interval(0, 80)[1] == pytest.approx(0.0458, abs=1e-4)
    one = support_colour(*wilson_interval(0, 1))
    eighty = support_colour(*wilson_interval(0, 80))
    assert one[0] != eighty[0]  # 0/1 is not drawn like 0/80
    assert one[2] == pytest.approx(-0.21, abs=0.01)  # pale: the data barely says anything
    assert eighty[2] <= -0.95  # deep red: the data guarantees misses
    assert support_colour(*wilson_interval(100, 100))[2] >= 0.96  # deep blue
    assert 0 < support_colour(*wilson_interval(1, 1))[2] < 0.25  # 1/1: pale blue
    assert abs(support_colour(*wilson_interval(1, 2))[2]) < 0.01  # 1/2: neutral

    study = _with_cells(
        make_study(),
        [
            _row("fabricated_number", "deterministic", 0, 1),
            _row("fabricated_number", "support", 0, 80),
            _row("inversion", "deterministic", 0, 40, in_scope=False),
            _row("inversion", "support", 3, 3),
        ],
    )
    page = render_html(study)
    cells = re.findall(
        r'<td class="center([^"]*)"(?: style="([^"]*)")? title="([^"]*)">([^<]*)<', page
    )
    fills = {text: (cls, style) for cls, style, _, text in cells}
    assert fills["0/1 (0%)"][1] == f"background-color:{one[0]};color:{one[1]}"
    assert fills["0/80 (0%)"][1] == f"background-color:{eighty[0]};color:{eighty[1]}"
    # out of scope: hatched grey, never alarm-red
    cls, style = fills["0/40 (0%)"]
    assert "hatch" in cls
    assert not style
    # a legend says what the colours and the hatching mean
    assert "colour legend" in page
    assert "out of scope" in page


def test_two_renders_of_one_study_json_are_byte_identical(tmp_path: Path) -> None:
    source = tmp_path / "a"
    source.mkdir()
    shutil.copy(MAIN / "study.json", source / "study.json")
    second = tmp_path / "b"
    second.mkdir()
    shutil.copy(MAIN / "study.json", second / "study.json")
    assert main(["report", str(source)]) == 0
    # the second render in a fresh interpreter with another hash seed
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    subprocess.run(
        [sys.executable, "-m", "hybridjudge", "report", str(second)],
        check=True,
        env=env,
        capture_output=True,
    )
    for name in ("report.html", "report.md", "observations.csv"):
        assert (source / name).read_bytes() == (second / name).read_bytes(), name
    page = (source / "report.html").read_text(encoding="utf-8")
    assert "<dc:date>" not in page  # no creation date in the SVG metadata


def test_markdown_uses_the_html_labels_and_explains_the_clean_bases() -> None:
    study = load_study(MAIN)
    md = render_markdown(study)
    page = render_html(study)
    body = md.split("## Inputs")[0]
    for key in ("fabricated_number", "non_abstention", "| natural ["):
        assert key not in body, key
    for label in ("fabricated number [mutator]", "failure to abstain [paper]",
                  "natural hallucination [natural]"):  # fmt: skip
        assert label in md
        assert label in page
    # why only 4 of OpenGATE's 6 bases count as clean, naming the two left out
    assert "opengate: 6 base outputs, 4 labelled correct count as clean" in md
    assert "simplify-lab-results::base" in md
    assert "grounding-legal-clause::base" in md
    assert "opengate: 6 base outputs, 4 labelled correct count as clean" in page


def test_numbers_are_formatted_for_people() -> None:
    study = load_study(MAIN)
    judge = next(c for c in study.analysis.cost if c.scorer == "support")
    assert judge.median_ms > 1_000  # a judge takes seconds on the embedded model
    md = render_markdown(study)
    page = render_html(study)
    seconds = fmt_duration_ms(judge.median_ms)  # its rule is pinned by the asserts below
    assert seconds.endswith(" s")  # seconds, not milliseconds
    for text in (md, page):
        assert seconds in text
        assert f"{judge.median_ms:.3f}" not in text
        assert not re.search(r"\d\.\d+e[+-]\d\d", text.split("<svg")[0])
    assert fmt_duration_ms(18887.485) == "18.9 s"
    assert fmt_duration_ms(6010.2) == "6.01 s"  # three significant digits, by hand
    assert fmt_duration_ms(0.138) == "0.14 ms"
    assert fmt_duration_s(237.4) == "4.0 min"
    assert fmt_usd(0) == "$0"
    assert fmt_usd(None) == "unknown cost"


def test_a_zero_bar_is_drawn_as_nothing() -> None:
    from matplotlib.figure import Figure

    from hybridjudge.reports._charts import _bars

    ax = Figure().subplots()
    _bars(ax, [0.0, None, 5.0, 0.0], "#000000")
    assert [round(p.get_width(), 3) for p in ax.patches] == [5.0]  # type: ignore[attr-defined]


def test_charts_have_a_text_alternative_and_never_parse_mathtext() -> None:
    study = make_study()
    cost = study.analysis.cost
    odd = [c.model_copy(update={"scorer": r"judge $\nosuchcommand$ $5"}) for c in cost]
    chart = cost_chart(odd)  # mathtext would raise on the unknown command
    assert chart is not None
    _, alt = chart
    assert alt.startswith("Cost and latency per scorer: judge $\\nosuchcommand$ $5:")
    page = render_html(study)
    assert '<div role="img" aria-label="Cost and latency per scorer: deterministic:' in page
    assert "<figcaption>Cost and latency per scorer" in page


def test_first_screen_names_model_endpoint_repetitions_and_sample() -> None:
    study = load_study(MAIN)
    page = render_html(study)
    first = page[: page.index('<table class="heat">')]
    model = study.config.model
    assert f"<dd>{model['model']}</dd>" in first
    assert str(model["endpoint"]) in first
    assert f"<dt>repetitions</dt><dd>{study.config.repetitions}</dd>" in first
    assert study.sampling is not None
    assert f"judges scored {study.sampling.judged_outputs} of 430 outputs" in first
    # the column labels come before the first row of the heatmap
    heat = page[page.index('<table class="heat">') :]
    assert heat.index("<thead>") < heat.index("<tbody>")
    # the Markdown copy wraps
    assert "pre{white-space:pre-wrap" in page


def test_observations_csv_round_trips_through_pandas(tmp_path: Path) -> None:
    pd = pytest.importorskip("pandas")
    base = make_study(clean_flagged=True)
    # one unscored judge evaluation, so the reasons are exercised
    observations = [
        o.model_copy(
            update={
                "status": "unscored",
                "score": None,
                "flagged": None,
                "unscored_reason": "parse_failure",
            }
        )
        if (o.output_id, o.scorer, o.repetition) == ("inversion3", "support", 1)
        else o
        for o in base.observations
    ]
    analysis = analyse(base.outputs, observations, scorers=list(base.config.scorers),
                       repetitions=base.config.repetitions)  # fmt: skip
    study = base.model_copy(update={"observations": tuple(observations), "analysis": analysis})
    paths = write_reports(study, tmp_path)
    frame = pd.read_csv(paths["csv"])
    assert len(frame) == len(study.observations)
    assert list(frame.columns[:4]) == ["corpus", "output_id", "case_id", "base_id"]
    # evaluations and unscored reasons per scorer: the same counts as study.json's analysis
    for row in study.analysis.unscored:
        mine = frame[frame.scorer == row.scorer]
        assert len(mine) == row.evaluations
        counts = mine.unscored_reason.dropna().value_counts().to_dict()
        assert counts == row.by_reason
    # raw flags per (class, scorer): mutants flagged in every repetition
    mutants = frame[frame.base_id.notna()]
    flagged_every = mutants.groupby(["defect_class", "scorer", "output_id"]).flagged.apply(
        lambda s: bool(s.eq(True).all())
    )
    per_cell = flagged_every.groupby(level=[0, 1]).agg(["sum", "size"])
    for r in study.analysis.detection:
        raw, size = per_cell.loc[(r.defect_class, r.scorer)]
        assert (raw, size) == (r.raw_flags, r.n + r.unscored), (r.defect_class, r.scorer)
    # findings and labels come through as text
    det = frame[(frame.scorer == "deterministic") & (frame.defect_class == "omission")]
    assert set(det.findings) == {"missing_anchor: x"}
    assert set(det.defect_label) == {"omission (dropped anchor)"}
    assert frame.score.dtype.kind == "f"
    assert frame.repetition.dtype.kind == "i"


def test_terminal_table_keeps_row_tags_and_is_not_cut_in_a_log(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from hybridjudge.reports import print_study_summary, study_console

    study = load_study(MAIN)
    console = study_console()  # stderr is captured here: not a terminal, like a log file
    assert not console.is_terminal
    print_study_summary(study, console)
    err = capsys.readouterr().err
    lines = err.splitlines()
    for label in ("omission (dropped anchor) [mutator]", "omission (dropped anchor) [paper]",
                  "natural hallucination [natural]"):  # fmt: skip
        assert any(label in line for line in lines), label
    # every detection cell whole on its row: nothing folded, wrapped or cut with an ellipsis
    assert "…" not in err
    row = next(line for line in lines if "fabricated number [mutator]" in line)
    assert "6/6 (100%) [61–100%]" in row
    assert "\x1b[" not in err  # no colour codes in a log


def test_one_table_model_renders_the_same_cells_everywhere() -> None:
    from hybridjudge.reports._table import Cell, Column, Row, Table

    table = Table(
        (Column("name"), Column("n", "right")),
        (
            Row((Cell("group a"),), group=True),
            Row((Cell("a|b <x>", header=True), Cell("12", emphasis="strong"))),
            Row((Cell("c"), Cell("3", lines=("[1–9%]",), fill="#ffffff", hatch=True))),
        ),
    )
    md = table.to_markdown().splitlines()
    assert md[:2] == ["| name | n |", "|---|---:|"]
    # pipes escaped, no raw HTML (issue 37: a name with <script> is shown, not run), emphasis kept
    assert md[3] == "| a\\|b &lt;x&gt; | **12** |"
    assert md[4] == "| c | 3 [1–9%] |"
    page = table.to_html()
    assert '<th scope="col" class="right">n</th>' in page
    assert '<th scope="row">a|b &lt;x&gt;</th>' in page  # escaped, a row header
    assert (
        '<td class="right hatch" style="background-color:#ffffff">3<br><span class="sub">' in page
    )
    text = table.to_text(width=60)
    assert "a|b <x>" in text
    assert "3 [1–9%]" in text
    assert "group a" in text


def test_triage_charts_never_parse_mathtext_and_render_the_same_bytes() -> None:
    from hybridjudge.metrics.ordinal import triage_report
    from hybridjudge.reports import render_triage_html

    levels = ["$a", r"$\nosuchcommand$", "c"]
    truth = ["$a", "$a", r"$\nosuchcommand$", "c", "c", r"$\nosuchcommand$"]
    pred = ["$a", r"$\nosuchcommand$", r"$\nosuchcommand$", "c", "$a", "c"]
    report = triage_report(truth, pred, labels=levels, scale="custom:$cost$",
                           label_source="dataset", high_acuity=("$a",),
                           n_resamples=100)  # fmt: skip
    page = render_triage_html(report)  # mathtext would raise on the unknown command
    assert page == render_triage_html(report)
    assert "<title>Triage report: custom:$cost$, dataset label</title>" in page


def test_mutants_not_made_are_named_in_both_reports() -> None:
    from hybridjudge.study import MutationSetRecord

    mutations = MutationSetRecord(
        path="mutations/toy.jsonl",
        sha256="0" * 64,
        corpus="toy",
        seed=0,
        mutator_versions={"omission": "1"},
        outputs=10,
        refused={"omission": {"the case has no anchors": 3}},
    )
    study = make_study().model_copy(update={"mutation_sets": (mutations,)})
    note = "toy / omission (dropped anchor): 3 base(s) refused: the case has no anchors"
    assert note in render_markdown(study)
    page = render_html(study)
    assert note in page
    assert "<code>corpus import --derive-anchors</code>" in page


def test_terminal_tables_never_read_names_as_markup() -> None:
    from hybridjudge.reports._table import Cell, Column, Row, Table

    table = Table(
        (Column("[bold]scorer[/bold]"),),
        (Row((Cell("[red]case[/red]"),)),),
        caption="[link=x]corpus[/link]",
    )
    text = table.to_text()
    for raw in ("[bold]scorer[/bold]", "[red]case[/red]", "[link=x]corpus[/link]"):
        assert raw in text


def test_observations_csv_carries_each_outputs_metadata(tmp_path: Path) -> None:
    pd = pytest.importorskip("pandas")
    study = make_study()
    outputs = tuple(
        o.model_copy(update={"metadata": {"tenant": "acme", "tags": ["a", "b"]}})
        if o.id == "b0"
        else o
        for o in study.outputs
    )
    path = write_reports(study.model_copy(update={"outputs": outputs}), tmp_path)["csv"]
    frame = pd.read_csv(path)
    assert list(frame.columns[-2:]) == ["meta.tags", "meta.tenant"]
    b0 = frame[frame.output_id == "b0"]
    assert set(b0["meta.tenant"]) == {"acme"}
    assert set(b0["meta.tags"]) == {'["a", "b"]'}  # lists and objects as JSON text
    assert frame[frame.output_id != "b0"]["meta.tenant"].isna().all()


def test_a_study_written_before_labels_says_its_unlabelled_bases_were_presumed_clean() -> None:
    from tests.study._fixtures import make_study

    study = make_study()
    old = study.model_copy(
        update={
            "outputs": tuple(
                o.model_copy(update={"clean": None}) if o.base_id is None else o
                for o in study.outputs
            )
        }
    )
    # the stored false alarms counted the 3 unlabelled bases, as a version 2 study did
    assert {r.n for r in old.analysis.false_alarms} == {3}
    md = render_markdown(old)
    assert "unlabelled: 3, presumed clean in this study's false alarms" in md
    assert "not in any false-alarm rate" not in md.split("## Raw flags")[0].split("**Clean")[1]
