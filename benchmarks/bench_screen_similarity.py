"""Cost of AndroidLab's pixel test (ROR from screenshots) on two real 1080x2340 screens.

Three cases, as an episode meets them:

- new screen: the "before" screen was decoded by the previous comparison (the
  screen after one action is the one before the next), the "after" one is new
  (of its bands, those it shares with the screen before are not inflated again);
- cold: neither screen nor any of their bands was seen (the first comparison);
- same bytes: the action left the screen as it was (no decoding at all);

and the question ROR asks, ``screen_changed``, on a small change (a key press:
the whole pixel test) and on an action that opens another screen (decided
after the first rows that differ, inflating no further).

Run: python benchmarks/bench_screen_similarity.py  -> median and spread in ms.
"""

from __future__ import annotations

import statistics
import time

from pytest_mobileagent import screen_similarity
from pytest_mobileagent.screen_similarity import screen_changed, similarity
from pytest_mobileagent.virtual_phone import VirtualPhone


def timed(rounds: int, prepare, before: bytes, after: bytes) -> tuple[float, list[float]]:
    times = []
    value = 0.0
    for _ in range(rounds):
        prepare()
        started = time.perf_counter()
        value = similarity(before, after)
        times.append((time.perf_counter() - started) * 1000)
    return value, times


def main(rounds: int = 30) -> None:
    phone = VirtualPhone(seed=1)
    phone.run_shell("am start -n com.simplemobiletools.calculator/.activities.SplashActivity.Orange")
    before = phone.system.screenshot_png()
    phone.run_shell("input tap 135 1700")  # a key: the display shows a digit
    after = phone.system.screenshot_png()
    forget = screen_similarity.clear_caches

    def before_seen() -> None:
        forget()
        screen_similarity._pixels(before).white  # inflated whole, as a full comparison leaves it

    cases = {"new screen": before_seen, "cold": forget}
    for name, prepare in cases.items():
        value, times = timed(rounds, prepare, before, after)
        quartiles = statistics.quantiles(times, n=4)
        print(f"{name:10s} similarity {value:.5f}: median {statistics.median(times):.1f} ms, "
              f"p25 {quartiles[0]:.1f} ms, p75 {quartiles[2]:.1f} ms over {rounds} rounds")
    value, times = timed(rounds, forget, after, bytes(bytearray(after)))  # equal bytes, another object
    print(f"same bytes similarity {value:.5f}: median {statistics.median(times) * 1000:.1f} us over {rounds} rounds")

    # What ROR asks in a run: did the action change the screen?  Most actions open
    # another screen, which differs from the first rows below the status bar on.
    phone.run_shell("am start -n com.simplemobiletools.notes.pro/.activities.MainActivity")
    other = phone.system.screenshot_png()
    for name, first, second in (("key press", before, after), ("new screen", after, other)):
        times = []
        for _ in range(rounds):
            forget()
            screen_similarity._pixels(first).rows(0, 1)  # the screen before: seen, partly read
            started = time.perf_counter()
            changed = screen_changed(first, second)
            times.append((time.perf_counter() - started) * 1000)
        quartiles = statistics.quantiles(times, n=4)
        print(f"screen_changed, {name:10s} {changed}: median {statistics.median(times):.1f} ms, "
              f"p25 {quartiles[0]:.1f} ms, p75 {quartiles[2]:.1f} ms over {rounds} rounds")


if __name__ == "__main__":
    main()
