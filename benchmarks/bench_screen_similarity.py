"""Cost of AndroidLab's pixel test (ROR from screenshots) on two real 1080x2340 screens.

Run: python benchmarks/bench_screen_similarity.py  -> median and spread in ms.
"""

from __future__ import annotations

import statistics
import time

from pytest_mobileagent.screen_similarity import similarity
from pytest_mobileagent.virtual_phone import VirtualPhone


def main(rounds: int = 30) -> None:
    phone = VirtualPhone(seed=1)
    phone.run_shell("am start -n com.simplemobiletools.calculator/.activities.MainActivity")
    before = phone.system.screenshot_png()
    phone.run_shell("input tap 135 1700")  # a key: the display shows a digit
    after = phone.system.screenshot_png()
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        value = similarity(before, after)
        times.append((time.perf_counter() - started) * 1000)
    quartiles = statistics.quantiles(times, n=4)
    print(f"similarity {value:.5f}: median {statistics.median(times):.1f} ms, "
          f"p25 {quartiles[0]:.1f} ms, p75 {quartiles[2]:.1f} ms over {rounds} rounds")


if __name__ == "__main__":
    main()
