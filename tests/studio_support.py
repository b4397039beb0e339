"""Helpers of the studio tests: the studio as a subprocess, headless Chromium through Playwright.

Chromium is Debian's (``/usr/bin/chromium``), driven by the Playwright Python
package without its own browser download. A missing piece skips the browser
tests with the command that installs it; with ``MOBILEAGENT_REQUIRE_HTML=1``
(set by .ci/run) it fails them instead, so CI cannot go green by skipping.
"""

from __future__ import annotations

import contextlib
import os
import re
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Iterator

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
URL_RE = re.compile(r"http://127\.0\.0\.1:(\d+)/[A-Za-z0-9_-]+/")
START_TIMEOUT = 60.0


def require_browser() -> None:
    def missing(why: str) -> None:
        if os.environ.get("MOBILEAGENT_REQUIRE_HTML"):
            pytest.fail(f"{why} (MOBILEAGENT_REQUIRE_HTML is set)")
        pytest.skip(why)

    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing("playwright not installed (pip install playwright; never `playwright install`)")
    if not CHROMIUM.is_file():
        missing(f"{CHROMIUM} not found (apt-get install -y chromium)")


@contextlib.contextmanager
def chromium_page() -> Iterator["object"]:
    """A Playwright page in headless Debian Chromium."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.set_default_timeout(90_000)  # a loaded CI machine; waits end as soon as they hold
            yield page
        finally:
            browser.close()


class LineReader:
    """Reads a process's output lines on a thread, so a test can wait for one with a timeout."""

    def __init__(self, stream):
        self.lines: "queue.Queue[str | None]" = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream) -> None:
        for line in stream:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def wait_for(self, pattern: re.Pattern, timeout: float = START_TIMEOUT) -> str:
        """The next line matching ``pattern``; AssertionError on timeout or end of output."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                line = None
            if line is None:
                raise AssertionError(f"no line matching {pattern.pattern}; output: {self.seen[-30:]}")
            self.seen.append(line)
            if pattern.search(line):
                return line


@contextlib.contextmanager
def studio_process(*args: str, cwd: Path, env: dict | None = None) -> Iterator[tuple[subprocess.Popen, str, str]]:
    """``python -m pytest_mobileagent.studio ARGS``: (process, URL, first line), stopped at the end."""
    proc = subprocess.Popen([sys.executable, "-m", "pytest_mobileagent.studio", *args], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
    try:
        first = LineReader(proc.stdout).wait_for(re.compile(r"."))
        match = URL_RE.search(first)
        assert match, f"the first line has no studio URL: {first!r}; stderr: {_stderr(proc)}"
        yield proc, match.group(0), first
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        for stream in (proc.stdout, proc.stderr):
            stream.close()


def _stderr(proc: subprocess.Popen) -> str:
    if proc.poll() is None:
        return "(still running)"
    return proc.stderr.read()[-2000:]


def wait_version_above(page, selector: str, version: int) -> int:
    """Wait until the image's ``data-version`` exceeds ``version``; the new version."""
    page.wait_for_function(
        "([sel, v]) => Number(document.querySelector(sel)?.dataset.version || 0) > v", arg=[selector, version])
    return int(page.get_attribute(selector, "data-version"))
