"""The offline HTML report: Allure CLI --single-file, opened in headless Chromium.

Needs Java, Node with the ``allure-commandline`` npm package, Playwright (the
Python package only) and Debian's ``chromium``. Each missing piece skips the
test with the command that installs it; with ``MOBILEAGENT_REQUIRE_HTML=1``
(set by .ci/run) a missing piece is a failure instead, so CI cannot go green
by skipping.

The CLI is found at ``$MOBILEAGENT_ALLURE``, else ``node_modules/.bin/allure``
in the repository (``npm install allure-commandline`` at its root), else
``allure`` on PATH.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from reporting_support import load_json

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]

TASKS = """
from pytest_mobileagent import task, golden as g

@task(app="calculator", prompt="Calculate the result of '3 + 5'",
      golden=[g.tap(id="btn_3"), g.tap(id="btn_plus"), g.tap(id="btn_5"), g.tap(id="btn_equals")])
def test_add(screen, events):
    assert screen.text(id="result") == "8"

@task(app="calculator", prompt="Calculate the result of '9 - 4'",
      golden=[g.tap(id="btn_9"), g.tap(id="btn_minus"), g.tap(id="btn_4"), g.tap(id="btn_equals")])
def test_sub(screen, events):
    assert screen.text(id="result") == "5"

@task(app="calculator", prompt="Calculate the result of '7 × 6'",
      golden=[g.tap(id="btn_7"), g.tap(id="btn_multiply"), g.tap(id="btn_6"), g.tap(id="btn_equals")])
def test_mul(screen, events):
    assert screen.text(id="result") == "42"
"""


def _missing(reason: str):
    if os.environ.get("MOBILEAGENT_REQUIRE_HTML") == "1":
        pytest.fail(f"MOBILEAGENT_REQUIRE_HTML=1 but {reason}")
    pytest.skip(reason)


def allure_cli() -> str:
    for candidate in (os.environ.get("MOBILEAGENT_ALLURE"), ROOT / "node_modules" / ".bin" / "allure",
                      shutil.which("allure")):
        if candidate and Path(candidate).is_file():
            return str(candidate)
    _missing("Allure CLI not found: run `npm install allure-commandline` at the repository root "
             "(or set MOBILEAGENT_ALLURE to an allure executable)")


@pytest.fixture
def tools():
    if shutil.which("java") is None:
        _missing("java not found (apt-get install -y default-jre-headless)")
    if shutil.which("node") is None:
        _missing("node not found (apt-get install -y nodejs npm)")
    cli = allure_cli()
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        _missing("playwright not installed (pip install playwright; never `playwright install`)")
    if not CHROMIUM.is_file():
        _missing(f"{CHROMIUM} not found (apt-get install -y chromium)")
    return cli


def test_html_report_shows_every_task_and_its_metrics(pytester, phone, tools):
    pytester.makepyfile(test_calc=TASKS)
    result = pytester.runpytest_subprocess(
        "--device", phone.serial, "--agent", "replay", "--results-json", "r.json", "--alluredir", "allure"
    )
    result.assert_outcomes(passed=3)
    data = load_json(pytester.path / "r.json")
    report = pytester.path / "report"
    generated = subprocess.run(
        [tools, "generate", "--single-file", str(pytester.path / "allure"), "-o", str(report), "--clean"],
        env={**os.environ, "ALLURE_NO_ANALYTICS": "true"}, capture_output=True, text=True, timeout=300,
    )
    assert generated.returncode == 0, generated.stdout + generated.stderr
    index = report / "index.html"
    assert index.is_file()

    from playwright.sync_api import sync_playwright

    record = next(t for t in data["tasks"] if t["task"] == "test_mul")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.set_default_timeout(30_000)
            page.goto(index.as_uri())
            count = page.locator(".summary-widget__stats .splash__title")
            count.wait_for()
            assert count.inner_text().strip() == "3"
            page.goto(index.as_uri() + "#suites")
            page.get_by_text("test_calc", exact=True).first.click()
            page.get_by_text(record["prompt"], exact=True).first.click()
            attachment = page.get_by_text("metrics.json", exact=True).first
            attachment.click()
            # The attachment's content, as Allure renders it, carries the task's figures.
            page.get_by_text('"steps_taken": 4').first.wait_for()
            page.get_by_text(f'"task": "{record["task"]}"').first.wait_for()
            assert page.get_by_text("4. tap id=btn_equals").count() >= 1
        finally:
            browser.close()


def test_the_overview_shows_the_benchmark_figures_and_leads_to_the_plots(pytester, phone, tools):
    """SR (with SE, FFR, OER, latency, tokens) and SR per app and per difficulty are on the overview
    page (the Environment widget); the plots by app and by difficulty are two clicks away."""
    pytester.makepyfile(test_calc=TASKS)
    result = pytester.runpytest_subprocess("--device", phone.serial, "--agent", "replay", "--alluredir", "allure",
                                           "-k", "not test_sub")
    result.assert_outcomes(passed=2)
    report = pytester.path / "report"
    generated = subprocess.run(
        [tools, "generate", "--single-file", str(pytester.path / "allure"), "-o", str(report), "--clean"],
        env={**os.environ, "ALLURE_NO_ANALYTICS": "true"}, capture_output=True, text=True, timeout=300,
    )
    assert generated.returncode == 0, generated.stdout + generated.stderr

    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.set_default_timeout(30_000)
            page.goto((report / "index.html").as_uri())  # the overview
            widget = page.locator(".environment-widget, .widget:has(h2:text('Environment'))").first
            widget.wait_for()
            text = " ".join(widget.inner_text().split())
            assert "SR 100.0% (95% CI 34.2-100.0%) of 2 judged tasks" in text, text
            for figure in ("SE 1.00", "FFR -", "OER 0.0%", "Latency ", "Tokens 0 per task"):
                assert figure in text, (figure, text)
            assert "SR by app calculator 100.0% of 2" in text, text
            assert "SR by difficulty medium 100.0% of 2" in text, text
            # The report's name (the Summary widget's title) is the headline; the Executors widget
            # repeats the figures.
            title = page.locator(".summary-widget, .widget:has(.summary-widget__stats)").first
            assert "mobileagent replay: SR 100.0% of 2 judged tasks" in " ".join(title.inner_text().split())
            executors = page.locator(".widget:has(h2:text('Executors'))").first
            executors_text = " ".join(executors.inner_text().split())
            assert "pytest-mobileagent" in executors_text and "SR 100.0% (95% CI" in executors_text, executors_text
            # From the overview's Suites widget to a task, whose set-up holds the run's plots.
            page.locator(".widget:has(h2:text('Suites'))").get_by_text("test_calc").first.click()
            page.wait_for_url("**#suites**")
            prompt = page.get_by_text("Calculate the result of '3 + 5'", exact=True).first
            if not prompt.is_visible():  # the suite's tree starts folded
                page.get_by_text("test_calc", exact=True).first.click()
            prompt.click()
            page.get_by_text("Set up", exact=True).first.click()  # folded, as is its step
            page.get_by_text("benchmark summary", exact=True).first.click()
            page.get_by_text("SR by app.png", exact=True).first.wait_for()
            assert page.get_by_text("SR by difficulty.png", exact=True).count() >= 1
        finally:
            browser.close()
