"""Every HTML report in a real browser: Debian's headless chromium at 1280 px, driven by selenium
through Debian's chromedriver (never a browser download). For the study, triage and retrieval
reports: no console error, no horizontal overflow, the first screen says what the study is and
shows the heatmap's column labels and legend; a full-page screenshot is taken (and kept in
``$HJ_SCREENSHOT_DIR`` when set).

``.ci/run`` installs chromium and chromium-driver where they are missing; the tests are skipped,
with the reason, only when no browser can be found."""

from __future__ import annotations

import base64
import os
import shutil
import struct
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hybridjudge.cli import main
from hybridjudge.reports import render_html
from hybridjudge.study import load_study

REPO = Path(__file__).resolve().parents[2]
WIDTH, HEIGHT = 1280, 900
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    f"--window-size={WIDTH},{HEIGHT}",
)


def _find(*names: str) -> str | None:
    for name in names:
        found = shutil.which(name) or (
            f"/usr/bin/{name}" if Path(f"/usr/bin/{name}").exists() else None
        )
        if found:
            return found
    return None


def chromium_driver(width: int, height: int) -> Iterator[Any]:
    """Debian's headless chromium through selenium at ``width`` x ``height``, quit afterwards;
    the test is skipped, with how to install it, when there is none."""
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
    chromium = _find("chromium", "chromium-browser")
    driver_path = _find("chromedriver")
    if chromium is None or driver_path is None:
        pytest.skip(
            "no browser: install Debian's chromium and chromium-driver "
            "(apt-get install -y chromium chromium-driver; .ci/run does it)"
        )
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="hj-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in FLAGS:
        if not flag.startswith("--window-size"):
            options.add_argument(flag)
    options.add_argument(f"--window-size={width},{height}")
    options.add_argument(f"--user-data-dir={profile}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium_driver(WIDTH, HEIGHT)


def _open(driver: Any, page: Path) -> dict[str, Any]:
    driver.get(page.as_uri())
    metrics: dict[str, Any] = driver.execute_script(
        "const d = document.documentElement;"
        "return {scroll: d.scrollWidth, client: d.clientWidth, inner: window.innerWidth,"
        " height: d.scrollHeight};"
    )
    metrics["console"] = [
        entry for entry in driver.get_log("browser") if entry.get("level") in ("SEVERE", "ERROR")
    ]
    return metrics


def _screenshot(driver: Any, name: str, tmp_path: Path) -> tuple[int, int]:
    shot = driver.execute_cdp_cmd(
        "Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True}
    )
    data = base64.b64decode(shot["data"])
    path = tmp_path / f"{name}.png"
    path.write_bytes(data)
    keep = os.environ.get("HJ_SCREENSHOT_DIR")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(keep) / path.name)
        driver.save_screenshot(str(Path(keep) / f"{name}-first-screen.png"))
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def _check_page(driver: Any, page: Path, name: str, tmp_path: Path) -> dict[str, Any]:
    metrics = _open(driver, page)
    assert metrics["console"] == [], metrics["console"]
    assert metrics["inner"] == WIDTH
    # no horizontal overflow: the page is no wider than the window
    assert metrics["scroll"] <= metrics["client"], metrics
    width, height = _screenshot(driver, name, tmp_path)
    assert metrics["client"] <= width <= WIDTH  # the page at 1280 px (less a scrollbar)
    assert height >= min(metrics["height"], HEIGHT)
    return metrics


def _bottom(driver: Any, selector: str) -> float:
    value: float = driver.execute_script(
        "return document.querySelector(arguments[0]).getBoundingClientRect().bottom;", selector
    )
    return value


def test_study_report(browser: Any, tmp_path: Path) -> None:
    study = load_study(REPO / "tests" / "data" / "studies" / "main-2026-12-01")
    page = tmp_path / "study.html"
    page.write_text(render_html(study), encoding="utf-8")
    _check_page(browser, page, "study", tmp_path)
    browser.execute_script("window.scrollTo(0, 0);")
    # at a glance: what was judged, by which model, and the heatmap's labels and legend are on
    # the first screen (1280 x 900)
    assert _bottom(browser, "dl.facts") < HEIGHT
    assert _bottom(browser, ".legend") < HEIGHT
    assert _bottom(browser, "table.heat thead") < HEIGHT
    first_screen = browser.execute_script("return document.querySelector('dl.facts').innerText;")
    for needle in ("judge model", "endpoint", "repetitions", "sample"):
        assert needle in first_screen
    # scrolled to the middle of the heatmap, its column labels are still on screen
    browser.execute_script(
        "const rows = document.querySelectorAll('table.heat tbody tr');"
        "rows[Math.floor(rows.length / 2)].scrollIntoView();"
    )
    head_top = browser.execute_script(
        "return document.querySelector('table.heat thead th').getBoundingClientRect().top;"
    )
    assert browser.execute_script("return window.scrollY;") > 0
    assert 0 <= head_top < 5
    # the Markdown copy wraps instead of running off the edge
    browser.execute_script("document.querySelector('details').open = true;")
    assert browser.execute_script(
        "const d = document.documentElement; return d.scrollWidth <= d.clientWidth;"
    )


def test_study_report_with_three_judges(browser: Any, tmp_path: Path) -> None:
    """Seven scorer columns (three judges, each a column group) still fit 1280 px, and the
    two-row header stays on screen while the heatmap scrolls."""
    from tests.study._fixtures import make_judges_study

    page = tmp_path / "judges.html"
    page.write_text(render_html(make_judges_study()), encoding="utf-8")
    _check_page(browser, page, "study-judges", tmp_path)
    browser.execute_script("window.scrollTo(0, 0);")
    assert _bottom(browser, "table.heat thead") < HEIGHT
    groups = browser.execute_script(
        "return [...document.querySelectorAll('table.heat th.colgroup')].map(t => t.innerText);"
    )
    assert groups == ["small", "mid", "large"]
    browser.execute_script(
        "const rows = document.querySelectorAll('table.heat tbody tr');"
        "rows[rows.length - 1].scrollIntoView();"
    )
    head = browser.execute_script(
        "const h = document.querySelector('table.heat thead').getBoundingClientRect();"
        "return [h.top, h.bottom];"
    )
    assert browser.execute_script("return window.scrollY;") > 0
    assert 0 <= head[0] < 5
    assert head[1] > head[0]


def test_triage_report(browser: Any, tmp_path: Path) -> None:
    page = tmp_path / "triage.html"
    argv = [
        "triage",
        "report",
        str(REPO / "examples" / "triage" / "worked_example.csv"),
        "--reference-column",
        "reference_level",
        "--prediction-column",
        "predicted_level",
        "--scale",
        "KTAS",
        "--label-source",
        "expert",
        "--plan",
        str(REPO / "examples" / "triage" / "plan.toml"),
        "--resamples",
        "200",
        "--html",
        str(page),
    ]
    assert main(argv) == 0
    _check_page(browser, page, "triage", tmp_path)


def test_retrieval_report(browser: Any, tmp_path: Path) -> None:
    data = REPO / "tests" / "data" / "trec_eval"
    page = tmp_path / "retrieval.html"
    argv = [
        "retrieval",
        "eval",
        "--qrels",
        str(data / "qrels.test"),
        "--run",
        str(data / "results.test"),
        "--resamples",
        "200",
        "--html",
        str(page),
    ]
    assert main(argv) == 0
    _check_page(browser, page, "retrieval", tmp_path)
