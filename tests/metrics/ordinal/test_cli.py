"""``hybridjudge triage report`` through ``hybridjudge.cli.main``.

Only the triage subcommand is registered here (``_COMMAND_MODULES`` patched), so these tests
exercise the real top-level parser and its error handling without depending on other commands.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import hybridjudge.cli as cli
from hybridjudge.metrics.ordinal import TriageReport
from tests.metrics.ordinal.worked_example import WORKED_MATRIX, expand

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "triage"
BASE = [
    "triage",
    "report",
    str(EXAMPLES / "worked_example.csv"),
    "--reference-column",
    "reference_level",
    "--prediction-column",
    "predicted_level",
    "--scale",
    "KTAS",
    "--label-source",
    "expert",
    "--resamples",
    "200",
]


@pytest.fixture(autouse=True)
def _triage_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "_COMMAND_MODULES", ("hybridjudge.cli._triage",))


def _write(path: Path, header: str, rows: list[str], *, encoding: str = "utf-8") -> Path:
    path.write_text("\n".join([header, *rows]) + "\n", encoding=encoding)
    return path


def test_markdown_report_of_the_worked_example(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([*BASE, "--plan", str(EXAMPLES / "plan.toml")]) == 0
    out = capsys.readouterr().out
    assert "## Confusion matrix (rows = reference level, columns = predicted level)" in out
    assert "| **1** | **2** | 2 | 1 | 0 | 0 | 5 |" in out
    assert "| **3** | 0 | 1 | **68** | 1 | 0 | 70 |" in out
    assert (
        "| safety | under-triage, high-acuity levels `under_triage_high_acuity` | 40.0% | 6/15"
        in out
    )
    assert out.index("## Planned metrics") < out.index("## Exploratory metrics")
    assert "Wilson score" in out
    assert "stratified percentile bootstrap" in out


def test_json_report(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([*BASE, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["format"] == "hybridjudge.triage_report"
    assert data["format_version"] == 1
    report = TriageReport.model_validate(data)
    assert report.confusion_matrix == WORKED_MATRIX
    assert (report.scale, report.label_source.value) == ("KTAS", "expert")
    assert report.metric("far_errors").numerator == 2


def test_html_report_is_self_contained(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "report.html"
    assert cli.main([*BASE, "--html", str(out)]) == 0
    assert f"wrote {out}" in capsys.readouterr().err
    page = out.read_text(encoding="utf-8")
    assert page.lower().startswith("<!doctype html>")
    # no external assets: every src/href is inline data or an in-page #id (SVG glyphs)
    assert re.findall(r'(?:src|href)\s*=\s*"(?!data:|#)', page) == []
    assert "<script" not in page
    assert "<link" not in page
    # two inline SVG charts, each with a text alternative
    assert page.count("<svg") == 2
    assert 'aria-label="confusion matrix heatmap.' in page
    assert 'aria-label="Per-level recall with 95% Wilson intervals: level 1:' in page
    # the matrix cells say which way and how far each error goes
    assert 'title="under-triage by 2 levels">1</td>' in page  # 1 -> 3, two levels less urgent
    assert 'title="over-triage by 2 levels">1</td>' in page  # 5 -> 3
    # same look as every report: the shared page style
    from hybridjudge.reports._page import CSS

    assert CSS in page


def test_html_report_is_byte_identical_across_renders(tmp_path: Path) -> None:
    first, second = tmp_path / "a.html", tmp_path / "b.html"
    assert cli.main([*BASE, "--html", str(first)]) == 0
    assert cli.main([*BASE, "--html", str(second)]) == 0
    assert first.read_bytes() == second.read_bytes()


def test_label_outside_the_scale_names_the_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path / "p.csv", "ref,pred", ["1,1", "2,3", "3,7"])
    code = cli.main(
        [
            "triage",
            "report",
            str(path),
            "--reference-column",
            "ref",
            "--prediction-column",
            "pred",
            "--scale",
            "ESI",
            "--label-source",
            "bedside",
        ]
    )
    assert code == 2
    err = capsys.readouterr().err
    assert f"{path}, line 4, field 'pred': value '7' is not a level of ESI (1, 2, 3, 4, 5)" in err


def test_empty_value_names_the_row(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path / "p.csv", "ref,pred", ["1,1", ",3"])
    code = cli.main(
        [
            "triage",
            "report",
            str(path),
            "--reference-column",
            "ref",
            "--prediction-column",
            "pred",
            "--scale",
            "ESI",
            "--label-source",
            "bedside",
        ]
    )
    assert code == 2
    assert "line 3, field 'ref': an empty value is not a level" in capsys.readouterr().err


def test_missing_column_lists_the_available_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path / "p.csv", "case,ref,model", ["a,1,1"])
    code = cli.main(
        [
            "triage",
            "report",
            str(path),
            "--reference-column",
            "ref",
            "--prediction-column",
            "pred",
            "--scale",
            "KTAS",
            "--label-source",
            "expert",
        ]
    )
    assert code == 2
    err = capsys.readouterr().err
    assert "column 'pred' (--prediction-column) is missing" in err
    assert "available columns: ['case', 'ref', 'model']" in err


def test_other_delimiter_and_encoding(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    y_true, y_pred = expand()
    rows = [f"{t};{p}" for t, p in zip(y_true, y_pred, strict=True)]
    path = _write(tmp_path / "p.csv", "référence;prédiction", rows, encoding="cp1252")
    args = [
        "triage",
        "report",
        str(path),
        "--reference-column",
        "référence",
        "--prediction-column",
        "prédiction",
        "--scale",
        "TTAS",
        "--label-source",
        "dataset",
        "--resamples",
        "200",
        "--json",
    ]
    # without the options: the file is not UTF-8 -> a clear error suggesting --encoding
    assert cli.main(args) == 2
    assert "pass the file's encoding, e.g. --encoding cp1252" in capsys.readouterr().err
    assert cli.main([*args, "--encoding", "cp1252"]) == 2
    assert "use --delimiter" in capsys.readouterr().err
    assert cli.main([*args, "--encoding", "cp1252", "--delimiter", ";"]) == 0
    report = TriageReport.model_validate_json(capsys.readouterr().out)
    assert report.confusion_matrix == WORKED_MATRIX


def test_custom_scale_with_named_levels(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path / "p.csv", "ref\tpred", ["red\tred", "orange\tyellow", "blue\tgreen"])
    code = cli.main(
        [
            "triage",
            "report",
            str(path),
            "--reference-column",
            "ref",
            "--prediction-column",
            "pred",
            "--scale",
            "custom:MTS-colours",
            "--labels",
            "red,orange,yellow,green,blue",
            "--high-acuity",
            "red,orange",
            "--label-source",
            "dataset",
            "--delimiter",
            "\\t",
            "--resamples",
            "100",
        ]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert "# Triage report: custom:MTS-colours, dataset label" in out
    assert "| **orange** | 0 | **0** | 1 | 0 | 0 | 1 |" in out
    assert "1/2 | cases with reference level red or orange" in out


@pytest.mark.parametrize(
    ("extra", "needle"),
    [
        (["--scale", "Manchester"], "--scale 'Manchester': unknown scale 'Manchester'; use one of"),
        (["--high-acuity", "1,9"], "--high-acuity 1,9: ['9'] not levels"),
        (["--delimiter", ";;"], "--delimiter ';;': use a single character"),
        (["--encoding", "klingon"], "--encoding 'klingon' is not a known text encoding"),
        (["--plan", "nowhere.toml"], "cannot read the analysis plan"),
    ],
)
def test_bad_options_exit_2(
    extra: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main([*BASE, *extra]) == 2
    assert needle in capsys.readouterr().err


def test_missing_file_and_no_action(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = [*BASE]
    args[2] = str(tmp_path / "absent.csv")
    assert cli.main(args) == 2
    assert "cannot open the predictions file" in capsys.readouterr().err
    assert cli.main(["triage"]) == 2
    assert "report" in capsys.readouterr().err


def _with(flag: str, value: str) -> list[str]:
    args = list(BASE)
    args[args.index(flag) + 1] = value
    return args


@pytest.mark.parametrize(
    ("args", "said"),
    [
        # a custom scale without its levels: the message asked to "name it custom:<name>",
        # which it already was; the missing piece is --labels
        (_with("--scale", "custom:foo"), "is a custom scale: pass its levels in order"),
        # a known scale with other levels was accepted, then failed on a data row
        ([*BASE, "--labels", "1,2,3"], "scale KTAS has levels [1, 2, 3, 4, 5], not [1, 2, 3]"),
        (_with("--scale", "XYZ"), "unknown scale 'XYZ'"),
    ],
)
def test_the_scale_is_checked_before_any_row_is_read(
    args: list[str], said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = list(args)
    args[2] = str(tmp_path / "missing.csv")  # never opened: the scale is refused first
    assert cli.main(args) == 2
    err = capsys.readouterr().err
    assert said in err
    assert "missing.csv" not in err


def test_an_unwritable_html_path_is_refused_before_the_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "adir"
    folder.mkdir()
    assert cli.main([*BASE, "--html", str(folder)]) == 2
    captured = capsys.readouterr()
    assert f"--html {folder}: is a folder; give the HTML file's path" in captured.err
    assert captured.out == ""  # was: the whole report printed, then exit 2
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert cli.main([*BASE, "--html", str(blocker / "r.html")]) == 2
    captured = capsys.readouterr()
    assert "--html" in captured.err
    assert "cannot be created" in captured.err
    assert captured.out == ""
