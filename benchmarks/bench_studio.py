"""The studio's live screen: how long from a change on the phone to the page showing it.

Starts a private adb server, one virtual phone (its own process, as the pool
boots them) and ``mobileagent-studio --device`` on it (its own process), opens
the page in headless Chromium and measures, per change, the wall-clock time
from the moment the change is made to the moment the page has decoded and
shown the new screenshot (``window.studioShown.shownAt``, taken in the page's
``onload``):

* ``external``: another adb client taps a calculator key (the studio learns of
  it from the app's click event, or from its next dump);
* ``page``: a click on the page's screen image (measured from the pointer
  event in the page: the action's round trip through the studio and adb,
  then the screenshot's).

Also the studio's CPU use while the screen stands still (its hierarchy
polling), and what ``--mobileagent-watch`` adds to the harness overhead per
step (a screenshot per step, posted from a thread): the Calculator tasks with
``replay``, alternately with and without it.

    python benchmarks/bench_studio.py [--rounds 40] [--watch-rounds 3]
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import re
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))

from _phones import served_phones  # noqa: E402
from studio_support import CHROMIUM, CHROMIUM_ARGS, LineReader  # noqa: E402

from pytest_mobileagent.device.device import connect  # noqa: E402
from pytest_mobileagent.judge import parse_hierarchy  # noqa: E402

KEYS = ("btn_7", "btn_clear")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def step_overheads(serial: str, watch: bool) -> list[float]:
    """Harness seconds per step (ms) of one run of the Calculator tasks."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        cmd = [sys.executable, "-m", "pytest", "task_tests/test_calculator.py", "--agent", "replay", "-q",
               "-p", "no:cacheprovider", "--device", serial, "--results-json", out]
        run = subprocess.run(cmd + (["--mobileagent-watch"] if watch else []), cwd=ROOT, capture_output=True,
                             text=True)
        if run.returncode != 0:
            raise SystemExit(run.stdout[-3000:] + run.stderr[-2000:])
        with open(out) as f:
            tasks = json.load(f)["tasks"]
    return [step["harness_seconds"] * 1000 for task in tasks for step in task["steps"]]  # alternate: every tap changes the result line


def summary(name: str, values: list[float]) -> str:
    values = sorted(values)
    p90 = values[int(0.9 * (len(values) - 1))]
    return (f"{name:<20} median {statistics.median(values):6.1f} ms  p90 {p90:6.1f} ms  "
            f"min {values[0]:6.1f}  max {values[-1]:6.1f}  (n={len(values)})")


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--watch-rounds", type=int, default=3)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with served_phones(1) as (serials, _adb_port):
        serial = serials[0]
        device = connect(serial)
        device.launch("com.simplemobiletools.calculator")
        centres = {n.short_id: n.center for n in parse_hierarchy(device.dump_hierarchy()) if n.short_id in KEYS}
        studio = subprocess.Popen([sys.executable, "-m", "pytest_mobileagent.studio", "--no-browser",
                                   "--device", serial], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                  text=True)
        try:
            url = re.search(r"http://\S+/", LineReader(studio.stdout).wait_for(re.compile("http://"))).group(0)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
                page = browser.new_page(viewport={"width": 1400, "height": 900})
                page.goto(url)
                page.wait_for_function("() => window.studioShown && window.studioShown.version > 0")

                def shown_after(version: int) -> dict:
                    page.wait_for_function("(v) => window.studioShown.version > v", arg=version, timeout=30_000)
                    return page.evaluate("() => window.studioShown")

                external, captured = [], []
                for i in range(args.rounds):
                    version = page.evaluate("() => window.studioShown.version")
                    started = time.time() * 1000
                    device.tap(*centres[KEYS[i % 2]])
                    shown = shown_after(version)
                    external.append(shown["shownAt"] - started)
                    captured.append(shown["takenAt"] * 1000 - started)

                page_clicks = []
                page.evaluate("""() => document.getElementById('screen').addEventListener('pointerdown',
                                 () => { window.clickedAt = performance.timeOrigin + performance.now(); })""")
                box = page.locator("#screen").bounding_box()
                for i in range(args.rounds):
                    version = page.evaluate("() => window.studioShown.version")
                    x, y = centres[KEYS[i % 2]]
                    page.mouse.click(box["x"] + x * box["width"] / device.width,
                                     box["y"] + y * box["height"] / device.height)
                    shown = shown_after(version)
                    page_clicks.append(shown["shownAt"] - page.evaluate("() => window.clickedAt"))

                before, started = cpu_seconds(studio.pid), time.monotonic()
                time.sleep(5.0)  # measuring idle CPU: nothing to wait for
                idle_cpu = (cpu_seconds(studio.pid) - before) / (time.monotonic() - started)
                browser.close()
        finally:
            studio.terminate()
            studio.wait(timeout=30)
        without, with_watch = [], []
        for _ in range(args.watch_rounds):  # interleaved: the machine's load drifts
            without += step_overheads(serial, watch=False)
            with_watch += step_overheads(serial, watch=True)
    print("phone change -> page shows it (wall clock, Chromium headless, virtual phone):")
    print(summary("external", external))
    print(summary("  to its screenshot", captured))
    print(summary("page", page_clicks))
    print(f"studio CPU while the screen stands still: {idle_cpu * 100:.1f}% of one core")
    print("harness overhead per step, Calculator tasks with replay:")
    print(summary("without", without))
    print(summary("--mobileagent-watch", with_watch))


if __name__ == "__main__":
    main()
