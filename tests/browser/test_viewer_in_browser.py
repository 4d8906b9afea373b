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
from hybridjudge.study import ViewData, ViewOutput, load_study, view_data
from tests.browser.test_reports_in_browser import chromium_driver

REPO = Path(__file__).resolve().parents[2]
WIDTH, HEIGHT = 1280, 800


@pytest.fixture(scope="module")
def viewer_browser() -> Iterator[Any]:
    for driver in chromium_driver(WIDTH, HEIGHT):
        driver.set_window_size(WIDTH, HEIGHT)
        yield driver


def _written(data: ViewData, tmp_path_factory: pytest.TempPathFactory, name: str) -> Path:
    path = tmp_path_factory.mktemp("viewer") / name
    path.write_text(render_viewer(data), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def data() -> ViewData:
    return view_data(
        load_study(REPO / "tests" / "data" / "studies" / "main-2026-12-01"), roots=(REPO,)
    )


@pytest.fixture(scope="module")
def page(data: ViewData, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _written(data, tmp_path_factory, "viewer.html")


def _select(driver: Any, output_id: str) -> None:
    driver.execute_script(
        "for (const li of document.querySelectorAll('#list li'))"
        " if (li.dataset.id === arguments[0]) { li.click(); return; }"
        "throw new Error('no such output ' + arguments[0]);",
        output_id,
    )


def _errors(driver: Any) -> list[Any]:
    return [e for e in driver.get_log("browser") if e.get("level") in ("SEVERE", "ERROR")]


def _marked(driver: Any, selector: str) -> dict[str, str]:
    """Each ref marked under ``selector`` -> its text (the marks naming it, joined)."""
    marks = driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map(m =>"
        " ({refs: m.dataset.refs, text: m.textContent, cls: m.className}));",
        selector,
    )
    text: dict[str, str] = {}
    for mark in marks:
        for ref in mark["refs"].split():
            text[ref] = text.get(ref, "") + mark["text"]
    return text


def _classes(driver: Any, selector: str) -> dict[str, set[str]]:
    """Each ref marked under ``selector`` -> the classes of its marks."""
    marks = driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map(m =>"
        " ({refs: m.dataset.refs, cls: m.className}));",
        selector,
    )
    classes: dict[str, set[str]] = {}
    for mark in marks:
        for ref in mark["refs"].split():
            classes.setdefault(ref, set()).update(mark["cls"].split())
    return classes


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
            " items: document.querySelectorAll('#findings li').length};"
        )
        assert got["id"] == output.id
        assert got["items"] == len(output.findings)
        # each finding with a place: exactly its span marked in the answer, nothing else
        assert _marked(driver, "#answer mark") == {
            f"f{i}": output.answer[f.start : f.end]
            for i, f in enumerate(output.findings)
            if f.start is not None and f.end is not None and f.end > f.start
        }
        # each finding's evidence found in the context: exactly that text marked
        evidence = {
            ref: text
            for ref, text in _marked(driver, ".passage mark.evidence").items()
            if ref.startswith("e")
        }
        assert evidence == {
            f"e{i}": output.context[f.passage][
                f.evidence_start : f.evidence_start + len(f.evidence)
            ]
            for i, f in enumerate(output.findings)
            if f.passage is not None and f.evidence_start is not None and f.evidence
        }
    assert _errors(driver) == []


def _check_claims(driver: Any, output: ViewOutput) -> None:
    """The page shows ``output``'s claims of repetition 0 as the data says: each judge's box
    marks exactly its claims found in the answer (accepted ones as accepted), and the context
    marks exactly their quotes found in it."""
    first = [(k, c) for k, c in enumerate(output.claims) if c.repetition == 0]
    for scorer in {c.scorer for _, c in first}:
        selector = f".box.claims[data-scorer='{scorer}'] mark"
        assert _marked(driver, selector) == {
            f"c{k}": output.answer[c.start : c.end]
            for k, c in first
            if c.scorer == scorer and c.start is not None and c.end is not None
        }, (output.id, scorer)
        classes = _classes(driver, selector)
        for k, c in first:
            if c.scorer == scorer and c.start is not None:
                assert ("accepted" in classes[f"c{k}"]) == c.faithful, (output.id, c.claim)
    quoted = _marked(driver, ".passage mark.quote")
    assert {ref: text for ref, text in quoted.items() if ref.startswith("q")} == {
        f"q{k}": output.context[c.passage][c.quote_start : c.quote_start + len(c.quote)]
        for k, c in first
        if c.passage is not None and c.quote_start is not None and c.quote
    }, output.id


def test_the_claims_a_judge_found_unfaithful_are_marked_in_the_answer(
    viewer_browser: Any, data: ViewData, page: Path
) -> None:
    # the kept main job (tests/data/studies) is an older study: it kept only the claims a judge did not accept
    driver = viewer_browser
    driver.get(page.as_uri())
    judged = [o for o in data.outputs if any(c.start is not None for c in o.claims)]
    assert len(judged) > 10  # the mutants the judges flag, claim by claim
    for output in judged[:15]:
        assert not any(c.faithful for c in output.claims)
        _select(driver, output.id)
        _check_claims(driver, output)
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
    shutil.copytree(REPO / "tests" / "data" / "studies" / "main-2026-12-01", results)
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


@pytest.fixture(scope="module")
def retrieval() -> ViewData:
    return view_data(load_study(REPO / "results" / "retrieval"), roots=(REPO,))


@pytest.fixture(scope="module")
def retrieval_page(retrieval: ViewData, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """results/retrieval: a study of format 6, every judge verdict per claim with its quote."""
    return _written(retrieval, tmp_path_factory, "retrieval.html")


def test_a_retriever_mutant_shows_its_own_context_and_the_blame_call(
    viewer_browser: Any, retrieval: ViewData, retrieval_page: Path
) -> None:
    dropped = [o for o in retrieval.outputs if o.defect == "evidence_dropped" and o.blame]
    assert dropped  # the retriever study blames its dropped-evidence mutants
    viewer_browser.get(retrieval_page.as_uri())
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


def test_every_verdict_per_claim_is_marked_accepted_or_not_with_its_quote_in_the_context(
    viewer_browser: Any, retrieval: ViewData, retrieval_page: Path
) -> None:
    # results/retrieval is a study of format 6: every verdict of both judges with its quote
    judged = [o for o in retrieval.outputs if o.claims]
    scored = {
        o.id
        for o in retrieval.outputs
        if any(s.scorer != "deterministic" and s.status == "scored" for s in o.scores)
    }
    assert {o.id for o in judged} <= scored
    assert len(judged) >= 11  # the judges' sample: its bases with all their mutants
    accepted_quotes = [
        c for o in judged for c in o.claims if c.faithful and c.quote_start is not None
    ]
    assert accepted_quotes  # the supported claims' quotes, not only the failing verdicts'
    viewer_browser.get(retrieval_page.as_uri())
    for output in judged:
        _select(viewer_browser, output.id)
        _check_claims(viewer_browser, output)
        rows = viewer_browser.execute_script(
            "const out = {};"
            "for (const t of document.querySelectorAll('table.verdicts'))"
            "  out[t.dataset.scorer] = [...t.querySelectorAll('tr')].slice(1)"
            "    .map(r => [r.cells[0].textContent, r.cells[1].textContent]);"
            "return out;"
        )
        for scorer in {c.scorer for c in output.claims}:
            assert rows[scorer] == [
                [c.label, c.claim]
                for c in output.claims
                if c.scorer == scorer and c.repetition == 0
            ], (output.id, scorer)
    assert _errors(viewer_browser) == []


def _shot(driver: Any, name: str, tmp_path: Path) -> bytes:
    """A screenshot of the window, checked to be a rendered 1280-wide page, kept as ``name`` in
    ``$HJ_SCREENSHOT_DIR`` when set (``HJ_SCREENSHOT_DIR=docs/img`` re-takes the docs' ones)."""
    shot = base64.b64decode(driver.get_screenshot_as_base64())
    assert shot.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = struct.unpack(">II", shot[16:24])
    assert (width, height) == (WIDTH, driver.execute_script("return window.innerHeight;"))
    assert len(shot) > 30_000  # a rendered page, not a blank one
    (tmp_path / name).write_bytes(shot)
    keep = os.environ.get("HJ_SCREENSHOT_DIR")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        (Path(keep) / name).write_bytes(shot)
    return shot


def _in_view(driver: Any, selector: str) -> list[str]:
    """The texts of the elements matching ``selector`` wholly inside the window."""
    found: list[str] = driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].filter(e => {"
        " const r = e.getBoundingClientRect();"
        " return r.top >= 0 && r.bottom <= window.innerHeight && r.width > 0; })"
        ".map(e => e.textContent);",
        selector,
    )
    return found


def test_the_docs_screenshots_show_what_their_captions_say(
    viewer_browser: Any, page: Path, retrieval_page: Path, tmp_path: Path
) -> None:
    driver = viewer_browser
    # docs/img/viewer.png: a fabricated number marked in a mutant's answer, its base beside it
    driver.get(page.as_uri())
    driver.execute_script(
        "const s = document.getElementById('f-defect'); s.value = 'fabricated_number';"
        "s.dispatchEvent(new Event('change'));"
    )
    _select(driver, "simplify-lab-results::fabricate-number")
    assert _in_view(driver, "#answer mark.finding") == ["12 g/dL"]
    assert any(t.startswith("Its base") for t in _in_view(driver, "#detail h3"))
    _shot(driver, "viewer.png", tmp_path)
    # docs/img/viewer-retrieval.png: a dropped evidence passage, blamed on the retriever
    dropped = "simplify-discharge-brief::base::evidence_dropped"
    driver.get(retrieval_page.as_uri())
    _select(driver, dropped)
    (blame,) = _in_view(driver, "#blame")
    assert blame.startswith("whose failure: retrieval")
    assert "amoxicillin" in blame
    _shot(driver, "viewer-retrieval.png", tmp_path)
    # docs/img/viewer-judge.png: the support judge's verdict per claim on it, the claim it did
    # not accept, those it accepted, and their quotes marked in the context
    driver.execute_script(
        "const t = document.querySelector('table.verdicts');"
        "document.getElementById('detail').scrollTop = t.offsetTop - 60;"
    )
    verdicts = _in_view(driver, "table.verdicts[data-scorer='support'] td:first-child")
    assert "not_supported" in verdicts
    assert "supported" in verdicts
    assert "Please see your GP in 2 weeks for review." in _in_view(driver, ".passage mark.quote")
    _shot(driver, "viewer-judge.png", tmp_path)
    assert _errors(driver) == []
