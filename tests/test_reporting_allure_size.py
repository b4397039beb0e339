"""Allure's screenshots are thumbnails, with the full PNG only where a reader needs it (issue 38, item 10).

Real runs on a virtual phone (real adb server): the same tasks once with
``--alluredir`` and once writing every step's PNG as an artifact, so each
thumbnail is compared with the screen it was made from.
"""

from __future__ import annotations

import json
from pathlib import Path

from PIL import Image, ImageChops, ImageStat

from pytest_mobileagent.reporting.thumbnails import THUMBNAIL_WIDTH
# The virtual phone's status bar height: the rows its clock is drawn in (tests, not tasks, may know it).
from pytest_mobileagent.virtual_phone.framework.ui.window import STATUS_BAR_H
from reporting_support import allure_results, load_json

TASKS = '''
from pytest_mobileagent import task, golden as g

SUM = [g.tap(id="btn_3"), g.tap(id="btn_plus"), g.tap(id="btn_5"), g.tap(id="btn_equals")]

@task(app="calculator", prompt="Calculate 3 + 5, then clear the display", golden=[*SUM, g.tap(id="btn_clear")])
def test_keeps_going(screen):
    assert screen.text(id="result") == "8"   # passes at step 4; step 5 goes on after it

@task(app="calculator", prompt="Calculate 3 - 5 and get 9",
      golden=[g.tap(id="btn_3"), g.tap(id="btn_minus"), g.tap(id="btn_5"), g.tap(id="btn_equals")])
def test_never_passes(screen):
    assert screen.text(id="result") == "9"
'''

#: Steps whose screenshot the report keeps whole: where the judge's verdict changed
#: (from failing to passing), and the last screen of a task that did not pass.
FULL_SIZE = {"test_keeps_going": [4], "test_never_passes": [4]}


def image(path: Path) -> Image.Image:
    with Image.open(path) as opened:
        opened.load()
        return opened


def test_screenshots_are_thumbnails_and_full_size_only_where_the_verdict_changed_or_the_task_failed(
        pytester, phone):
    pytester.makepyfile(test_calc=TASKS)
    common = ["--device", phone.serial, "--agent", "replay", "-p", "no:cacheprovider"]
    plain = pytester.runpytest_subprocess(*common, "--mobileagent-screenshots", "all",
                                          "--mobileagent-artifacts", "pngs", "--results-json", "pngs.json")
    plain.assert_outcomes(passed=1, failed=1)
    result = pytester.runpytest_subprocess(*common, "--alluredir", "allure", "--results-json", "allure.json")
    result.assert_outcomes(passed=1, failed=1)

    directory = pytester.path / "allure"
    pngs = {t["task"]: t for t in load_json(pytester.path / "pngs.json")["tasks"]}
    thumbnail_bytes = png_bytes = 0
    full_size: dict[str, list[int]] = {}
    for item in allure_results(directory):
        task = item["fullName"].split("#")[-1]
        steps = pngs[task]["steps"]
        assert len(item["steps"]) == len(steps) + 1  # and the replay agent's finish
        shown = [(a, step["index"])
                 for step, step_item in zip(steps, item["steps"]) for a in step_item.get("attachments", [])]
        shown += [(a, 0) for a in item["attachments"]]  # 0: the initial screen
        for attachment, index in shown:
            if not attachment["name"].startswith(("screenshot", "initial screen")):
                continue
            path = directory / attachment["source"]
            png_path = Path(steps[index - 1]["screenshot"] if index else pngs[task]["initial_screenshot"])
            original = image(png_path)
            if attachment["name"].endswith("(full size)"):
                # The full PNG, the screen the other run saved: pixel for pixel below the status bar,
                # whose clock may show a later minute in this run (the phone's clock runs: kernel/clock.py).
                assert attachment["type"] == "image/png" and image(path).format == "PNG"
                changed = ImageChops.difference(image(path).convert("RGB"), original.convert("RGB")).getbbox()
                assert changed is None or changed[3] <= STATUS_BAR_H, changed
                full_size.setdefault(task, []).append(index)
                continue
            thumb = image(path)
            assert attachment["type"] == "image/jpeg" and thumb.format == "JPEG"
            assert thumb.width == THUMBNAIL_WIDTH < original.width
            assert thumb.height == original.height * THUMBNAIL_WIDTH // original.width
            # The same screen, a third the size: the PNG reduced differs from it by JPEG's loss alone.
            reduced = original.convert("RGB").reduce(original.width // THUMBNAIL_WIDTH)
            assert max(ImageStat.Stat(ImageChops.difference(thumb.convert("RGB"), reduced)).mean) < 4
            assert path.stat().st_size < png_path.stat().st_size
            thumbnail_bytes += path.stat().st_size
            png_bytes += png_path.stat().st_size
    assert full_size == FULL_SIZE
    # The only PNGs in the results are those full-size screens and the run summary's charts.
    full = {a["source"] for r in allure_results(directory) for s in r["steps"] for a in s.get("attachments", [])
            if a["name"] == "screenshot (full size)"}
    charts = {a["source"] for path in directory.glob("*-container.json")
              for before in json.loads(path.read_text())["befores"] for a in before.get("attachments", [])
              if a["type"] == "image/png"}
    assert len(full) == 2 and len(charts) == 2
    assert {p.name for p in directory.glob("*-attachment.png")} == full | charts
    assert 0 < thumbnail_bytes < png_bytes
    # The results file points at the thumbnails, one per step as before.
    allure_steps = [s for t in load_json(pytester.path / "allure.json")["tasks"] for s in t["steps"]]
    assert all(Path(s["screenshot"]).parent == directory and s["screenshot"].endswith(".jpg") for s in allure_steps)
    assert not list(directory.glob("*.tmp"))
