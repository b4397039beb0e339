"""What bounding the judge (--judge-timeout) costs per judge call.

    python benchmarks/bench_judge_clock.py [--calls 20000]

The harness's default (judge_clock.py): on pytest's main thread the judge
runs right there, the warden process told over a pipe when each call starts
and ends (it signals the judge at the bound); off the main thread the call is
handed to the judge thread, the warden watching too. ``--judge-timeout 0``
calls it inline, unbounded. Prints the median and spread per call, in
microseconds, of a body that only returns (the harness's own cost) for
each, over 5 rounds in which the modes take turns.
"""

from __future__ import annotations

import argparse
import os
import statistics
import threading
import time

from pytest_mobileagent.judge_clock import JudgeClock


def per_call_us(clock: JudgeClock, calls: int) -> float:
    body = lambda: None  # noqa: E731
    started = time.perf_counter()
    for step in range(calls):
        clock.call(body, step=step)
    return (time.perf_counter() - started) / calls * 1e6


def off_main_thread(clock: JudgeClock, calls: int) -> float:
    box: list[float] = []
    caller = threading.Thread(target=lambda: box.append(per_call_us(clock, calls)))
    caller.start()
    caller.join()
    return box[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20000)
    args = parser.parse_args()
    watchdog = os.dup(2)  # the warden's stderr: the harness passes pytest's copy of it
    modes = (("main thread + warden (default)", JudgeClock(5.0, "bench", watchdog=watchdog), per_call_us),
             ("judge thread + warden (off main)", JudgeClock(5.0, "bench", watchdog=watchdog), off_main_thread),
             ("judge thread, no warden", JudgeClock(5.0, "bench"), per_call_us),
             ("--judge-timeout 0 (inline)", JudgeClock(None, "bench"), per_call_us))
    rounds: dict[str, list[float]] = {name: [] for name, _, _ in modes}
    for _ in range(5):  # the modes take turns, so a busy moment of the machine falls on each alike
        for name, clock, measure in modes:
            rounds[name].append(measure(clock, args.calls))
    for name, figures in rounds.items():
        figures.sort()
        print(f"{name:<33} median {statistics.median(figures):7.1f} us/call   "
              f"min {figures[0]:7.1f}   max {figures[-1]:7.1f}   ({args.calls} calls x 5)")

if __name__ == "__main__":
    main()
