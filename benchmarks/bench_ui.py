"""Print the UI layer's own costs: dump, screenshot (paint + PNG), one tap.

Measured in-process on AndroidSystem (no adb), medians and p90 over N runs:

    python benchmarks/bench_ui.py [--runs 60]

- dump: `dump_xml()` after a change (the cache is dropped before each run)
- paint / encode: the two halves of a fresh screenshot
- screenshot: `screenshot_png()` right after a tap (what an agent step costs)
- pillow png: Pillow's own encoder at compress_level=1, for comparison
- tap: one tap including the rebuild and change detection
"""

from __future__ import annotations

import argparse
import io
import statistics
import time

from pytest_mobileagent.virtual_phone.system import AndroidSystem
from pytest_mobileagent.virtual_phone.ui import render

CALC = "com.simplemobiletools.calculator"


def _stats(samples: list[float]) -> str:
    samples = sorted(samples)
    p90 = samples[min(len(samples) - 1, int(round(0.9 * (len(samples) - 1))))]
    return f"median {statistics.median(samples):6.2f} ms   p90 {p90:6.2f} ms"


def _time(fn, runs: int, before=None) -> list[float]:
    out = []
    for _ in range(runs):
        if before is not None:
            before()
        start = time.perf_counter()
        fn()
        out.append((time.perf_counter() - start) * 1000)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=60)
    runs = parser.parse_args().runs

    start = time.perf_counter()
    system = AndroidSystem(clock_ms=lambda: 1_700_000_000_000)
    boot = (time.perf_counter() - start) * 1000
    system.start_activity(CALC)
    system.screenshot_png()  # fonts loaded once, as on a warm phone
    seven = (135, 1251)

    def drop_dump_cache():
        system._xml.clear()

    def drop_image_cache():
        system._image = None
        system._png = None

    image = render.paint(system._ops, system.width, system.height)

    def pillow_png():
        image.save(io.BytesIO(), "PNG", compress_level=1)

    def tap_and_screenshot():
        system.tap(*seven)
        system.screenshot_png()

    print(f"UI layer, calculator screen, {runs} runs")
    print(f"  boot (AndroidSystem())    {boot:6.2f} ms")
    print(f"  dump_xml                  {_stats(_time(system.dump_xml, runs, drop_dump_cache))}")
    print(f"  dump_xml --compressed     {_stats(_time(lambda: system.dump_xml(True), runs, drop_dump_cache))}")
    print(f"  paint                     {_stats(_time(lambda: render.paint(system._ops, 1080, 2340), runs))}")
    print(f"  encode_png                {_stats(_time(lambda: render.encode_png(image), runs))}")
    print(f"  pillow png level 1        {_stats(_time(pillow_png, max(5, runs // 4)))}")
    print(f"  screenshot_png (fresh)    {_stats(_time(system.screenshot_png, runs, drop_image_cache))}")
    print(f"  screenshot_png (cached)   {_stats(_time(system.screenshot_png, runs))}")
    print(f"  tap                       {_stats(_time(lambda: system.tap(*seven), runs))}")
    print(f"  tap + screenshot_png      {_stats(_time(tap_and_screenshot, runs))}")


if __name__ == "__main__":
    main()
