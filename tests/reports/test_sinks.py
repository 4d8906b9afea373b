"""Clean text in the files a study writes (issue 37, item 4): no raw HTML in report.md or a
corpus README.md, no spreadsheet formula in observations.csv (with a flag to keep them raw),
and files created with the user's umask."""

from __future__ import annotations

import csv
import io
import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from hybridjudge.cli import main
from hybridjudge.reports import render_markdown, write_reports
from hybridjudge.study import CorpusRecord, StudyResult
from tests.study._fixtures import make_study

SCRIPT = "fake<script>alert(9)</script>"


def _crafted() -> StudyResult:
    """The fixture study with a model name, a corpus name and path, and the findings of one
    output crafted as an attacker would write them."""
    study = make_study()
    config = study.config.model_copy(
        update={"model": {**study.config.model, "model": SCRIPT, "endpoint": "http://x/<b>"}}
    )
    corpus = CorpusRecord(
        name="toy<img src=x onerror=alert(1)>",
        path="corpus/`<script>x</script>`",
        files_sha256={"cases.jsonl": "0" * 64},
    )
    observations = tuple(
        o.model_copy(update={"issues": ('=HYPERLINK("http://evil.example","click")',)})
        if o.scorer == "deterministic" and o.issues
        else o
        for o in study.observations
    )
    outputs = tuple(
        o.model_copy(update={"metadata": {"note": "@SUM(1+1)*cmd|' /C calc'!A0", "delta": -3.5}})
        for o in study.outputs
    )
    return study.model_copy(
        update={
            "config": config,
            "corpora": (corpus,),
            "observations": observations,
            "outputs": outputs,
        }
    )


def test_report_md_writes_no_raw_html_from_names() -> None:
    md = render_markdown(_crafted())
    assert "<script>" not in md
    assert "<img" not in md
    assert "<b>" not in md
    assert "- **judge model**: fake&lt;script&gt;alert(9)&lt;/script&gt;" in md
    assert "- **endpoint**: http://x/&lt;b&gt;" in md
    # a path with a backtick is not put in a code span it could end early
    assert "from corpus/\\`&lt;script&gt;x&lt;/script&gt;\\`" in md


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_observations_csv_neutralises_formulas_but_keeps_negative_numbers(
    tmp_path: Path,
) -> None:
    paths = write_reports(_crafted(), tmp_path)
    rows = _rows(paths["csv"].read_text(encoding="utf-8"))
    findings = {r["findings"] for r in rows if r["scorer"] == "deterministic" and r["findings"]}
    assert findings == {'\'=HYPERLINK("http://evil.example","click")'}
    assert {r["meta.note"] for r in rows} == {"'@SUM(1+1)*cmd|' /C calc'!A0"}
    assert {r["meta.delta"] for r in rows} == {"-3.5"}  # a number stays a number
    # --csv-raw-formulas keeps them as they came
    raw = write_reports(_crafted(), tmp_path / "raw", csv_raw_formulas=True)["csv"]
    raw_rows = _rows(raw.read_text(encoding="utf-8"))
    assert {r["meta.note"] for r in raw_rows} == {"@SUM(1+1)*cmd|' /C calc'!A0"}


def test_report_command_takes_the_raw_formulas_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_reports(_crafted(), tmp_path)
    link = '=HYPERLINK("http://evil.example","click")'

    def findings() -> set[str]:
        rows = _rows((tmp_path / "observations.csv").read_text(encoding="utf-8"))
        return {r["findings"] for r in rows if r["scorer"] == "deterministic" and r["findings"]}

    assert main(["report", str(tmp_path), "--csv-raw-formulas"]) == 0
    assert findings() == {link}
    assert main(["report", str(tmp_path)]) == 0
    assert findings() == {"'" + link}


def test_corpus_readme_writes_no_raw_html(tmp_path: Path) -> None:
    source = tmp_path / "rag.jsonl"
    row = {"id": "q1", "question": "Price?", "answer": "It costs 12 EUR.", "context": ["12 EUR."]}
    source.write_text(json.dumps(row) + "\n", encoding="utf-8")
    out = tmp_path / "evil<script>alert(1)"
    argv = ["corpus", "import", str(source), "--out", str(out), "--system", "x`<b>y</b>`"]
    assert main(argv) == 0
    readme = (out / "README.md").read_text(encoding="utf-8")
    assert "<script>" not in readme
    assert "<b>" not in readme
    assert "# corpus/evil&lt;script&gt;alert(1): imported from" in readme
    assert "produced by x\\`&lt;b&gt;y&lt;/b&gt;\\` (kind" in readme


@pytest.fixture
def umask_077() -> Iterator[None]:
    old = os.umask(0o077)
    try:
        yield
    finally:
        os.umask(old)


@pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")
def test_files_are_created_with_the_users_umask(tmp_path: Path, umask_077: None) -> None:
    paths = write_reports(make_study(), tmp_path / "private")
    for path in paths.values():
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    os.umask(0o022)
    shared = write_reports(make_study(), tmp_path / "shared")
    for path in shared.values():
        assert stat.S_IMODE(path.stat().st_mode) == 0o644, path
    # a file replaced keeps its own mode
    os.chmod(shared["json"], 0o640)
    write_reports(make_study(), tmp_path / "shared")
    assert stat.S_IMODE(shared["json"].stat().st_mode) == 0o640
