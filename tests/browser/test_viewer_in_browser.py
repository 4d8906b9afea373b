"""The study viewer (``hybridjudge view``) in Debian's headless chromium at 1280 x 800: each
output's marks are its findings, the context marks are their evidence, a filter hides what it
should, the keys move through the list, hostile text is text, no console error, and the page
loads nothing (no request leaves it). A screenshot is taken (kept in ``$HJ_SCREENSHOT_DIR``)."""

from __future__ import annotations

import base64
import json
import os
import shutil
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hybridjudge.cli import main
from hybridjudge.reports import render_viewer
from hybridjudge.study import ViewData, load_study, view_data
from tests.browser.test_reports_in_browser import chromium_driver

REPO = Path(__file__).resolve().parents[2]
WIDTH, HEIGHT = 1280, 800


@pytest.fixture(scope="module")
def viewer_browser() -> Iterator[Any]:
    for driver in chromium_driver(WIDTH, HEIGHT):
        driver.set_window_size(WIDTH, HEIGHT)
        yield driver


@pytest.fixture(scope="module")
def data() -> ViewData:
    return view_data(load_study(REPO / "results" / "main"), roots=(REPO,))


@pytest.fixture(scope="module")
def page(data: ViewData, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("viewer") / "viewer.html"
    path.write_text(render_viewer(data), encoding="utf-8")
    return path


def _select(driver: Any, output_id: str) -> None:
    driver.execute_script(
        "for (const li of document.querySelectorAll('#list li'))"
        " if (li.dataset.id === arguments[0]) { li.click(); return; }"
        "throw new Error('no such output ' + arguments[0]);",
        output_id,
    )


def _errors(driver: Any) -> list[Any]:
    return [e for e in driver.get_log("browser") if e.get("level") in ("SEVERE", "ERROR")]


def test_every_output_shows_its_findings_as_marks_and_their_evidence_in_the_context(
    viewer_browser: Any, data: ViewData, page: Path
) -> None:
    driver = viewer_browser
    driver.get(page.as_uri())
    assert _errors(driver) == []
    count = driver.execute_script("return document.querySelectorAll('#list li').length;")
    assert count == len(data.outputs) == 430
    with_spans = [o for o in data.outputs if any(f.start is not None for f in o.findings)]
    assert len(with_spans) > 20  # the fabricated numbers and more
    for output in [*with_spans[:25], data.outputs[0]]:
        _select(driver, output.id)
        got = driver.execute_script(
            "return {id: document.querySelector('#detail h2').textContent,"
            " marks: [...document.querySelectorAll('#answer mark.finding')].map(m => m.textContent),"
            " items: document.querySelectorAll('#findings li').length,"
            " evidence: [...document.querySelectorAll('mark.evidence')].map(m => m.textContent)};"
        )
        assert got["id"] == output.id
        assert got["items"] == len(output.findings)
        spans = sorted({(f.start, f.end) for f in output.findings if f.start is not None})
        expected = [output.answer[s:e] for s, e in spans if e is not None and e > s]
        assert got["marks"] == expected
        located = sorted(
            (f.passage, f.evidence_start)
            for f in output.findings
            if f.passage is not None and f.evidence
        )
        assert len(got["evidence"]) == len(set(located))
    assert _errors(driver) == []


def test_the_claims_a_judge_found_unfaithful_are_marked_in_the_answer(
    viewer_browser: Any, data: ViewData, page: Path
) -> None:
    driver = viewer_browser
    driver.get(page.as_uri())
    judged = [o for o in data.outputs if any(c.start is not None for c in o.claims)]
    assert len(judged) > 10  # the mutants the judges flag, claim by claim
    for output in judged[:15]:
        _select(driver, output.id)
        shown = driver.execute_script(
            "const out = {};"
            "for (const box of document.querySelectorAll('.box.claims'))"
            "  out[box.dataset.scorer] = [...box.querySelectorAll('mark.claim')]"
            "    .map(m => m.textContent);"
            "return out;"
        )
        for scorer in {c.scorer for c in output.claims}:
            spans = sorted(
                {
                    (c.start, c.end)
                    for c in output.claims
                    if c.scorer == scorer and c.repetition == 0
                }
                - {(None, None)}
            )
            kept, last = [], -1
            for start, end in spans:  # overlapping claims: the first one is marked
                if start is not None and end is not None and start >= last:
                    kept.append(output.answer[start:end])
                    last = end
            assert shown.get(scorer, []) == kept, (output.id, scorer)
    assert _errors(driver) == []


def test_filters_hide_what_they_should_and_the_keys_move(
    viewer_browser: Any, data: ViewData, page: Path
) -> None:
    driver = viewer_browser
    driver.get(page.as_uri())
    driver.execute_script(
        "const s = document.getElementById('f-defect'); s.value = 'fabricated_number';"
        "s.dispatchEvent(new Event('change'));"
    )
    ids = driver.execute_script(
        "return [...document.querySelectorAll('#list li')].map(li => li.dataset.id);"
    )
    assert ids == [o.id for o in data.outputs if o.defect == "fabricated_number"]
    driver.execute_script(
        "const s = document.getElementById('f-defect'); s.value = '';"
        "s.dispatchEvent(new Event('change'));"
        "const d = document.getElementById('f-disagree'); d.value = 'checks_only';"
        "d.dispatchEvent(new Event('change'));"
    )
    ids = driver.execute_script(
        "return [...document.querySelectorAll('#list li')].map(li => li.dataset.id);"
    )
    expected = [o.id for o in data.outputs if o.disagreement == "checks_only"]
    assert expected  # the checks see what the judges miss (omissions)
    assert ids == expected
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    body = driver.find_element(By.TAG_NAME, "body")
    body.send_keys("j")
    body.send_keys(Keys.ARROW_DOWN)
    title = driver.execute_script("return document.querySelector('#detail h2').textContent;")
    assert title == expected[2]
    body.send_keys("k")
    title = driver.execute_script("return document.querySelector('#detail h2').textContent;")
    assert title == expected[1]


def test_the_page_loads_nothing_and_a_screenshot_at_1280_by_800_has_content(
    viewer_browser: Any, page: Path, tmp_path: Path
) -> None:
    driver = viewer_browser
    driver.get(page.as_uri())
    resources = driver.execute_script("return performance.getEntriesByType('resource').length;")
    assert resources == 0  # no request left the page: no script, style, font or image loaded
    size = driver.execute_script("return [window.innerWidth, window.innerHeight];")
    assert size[0] == WIDTH
    overflow = driver.execute_script(
        "const d = document.documentElement; return d.scrollWidth - d.clientWidth;"
    )
    assert overflow <= 0
    shot = base64.b64decode(driver.get_screenshot_as_base64())
    assert shot.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = struct.unpack(">II", shot[16:24])
    assert (width, height) == (WIDTH, size[1])
    (tmp_path / "viewer.png").write_bytes(shot)
    keep = os.environ.get("HJ_SCREENSHOT_DIR")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        (Path(keep) / "viewer.png").write_bytes(shot)
    text = driver.execute_script("return document.body.innerText;")
    assert "430 of 430 outputs" in text
    assert "Verdicts".upper() in text.upper()
    assert len(shot) > 30_000  # a rendered page, not a blank one


def test_hostile_text_is_text(viewer_browser: Any, data: ViewData, tmp_path: Path) -> None:
    hostile = "</script><script>window.pwned=1</script><img src=x onerror=window.pwned=2>"
    first = data.outputs[0].model_copy(
        update={"id": hostile, "answer": hostile + " " + data.outputs[0].answer}
    )
    evil = data.model_copy(update={"outputs": (first,), "title": "<b>x</b>"})
    path = tmp_path / "evil.html"
    path.write_text(render_viewer(evil), encoding="utf-8")
    viewer_browser.get(path.as_uri())
    assert viewer_browser.execute_script("return window.pwned === undefined;")
    shown = viewer_browser.execute_script(
        "return document.querySelector('#detail h2').textContent;"
    )
    assert shown == hostile
    assert _errors(viewer_browser) == []


def test_the_cli_writes_the_page_next_to_the_study(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    results = tmp_path / "results"
    shutil.copytree(REPO / "results" / "main", results)
    monkeypatch.chdir(REPO)
    assert main(["view", str(results)]) == 0
    assert f"viewer: {results / 'viewer.html'}" in capsys.readouterr().out
    html = (results / "viewer.html").read_text(encoding="utf-8")
    start = html.index('<script id="data" type="application/json">') + len(
        '<script id="data" type="application/json">'
    )
    payload = json.loads(html[start : html.index("</script>", start)])
    assert payload["format"] == "hybridjudge.view"
    assert len(payload["outputs"]) == 430
    monkeypatch.chdir(tmp_path)  # the corpora are not here: a clear error naming the fix
    assert main(["view", str(results)]) == 2
    err = capsys.readouterr().err
    assert "view_input_missing" in err
    assert "--root" in err


def test_a_retriever_mutant_shows_its_own_context_and_the_blame_call(
    viewer_browser: Any, tmp_path: Path
) -> None:
    data = view_data(load_study(REPO / "results" / "retrieval"), roots=(REPO,))
    dropped = [o for o in data.outputs if o.defect == "evidence_dropped" and o.blame]
    assert dropped  # the retriever study blames its dropped-evidence mutants
    page = tmp_path / "retrieval.html"
    page.write_text(render_viewer(data), encoding="utf-8")
    viewer_browser.get(page.as_uri())
    output = dropped[0]
    _select(viewer_browser, output.id)
    shown = viewer_browser.execute_script(
        "return {blame: document.getElementById('blame').textContent,"
        " context: [...document.querySelectorAll('.passage')].map(p => p.textContent)};"
    )
    assert shown["blame"].startswith(f"whose failure: {output.blame}")
    assert output.blame == "retrieval"
    # the context it was scored against: its own, without the dropped passage
    assert [p.split("] ", 1)[1] for p in shown["context"]] == list(output.context)
    assert _errors(viewer_browser) == []
