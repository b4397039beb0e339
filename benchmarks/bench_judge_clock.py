"""What bounding the judge (--judge-timeout) costs per judge call.

    python benchmarks/bench_judge_clock.py [--calls 20000]

A judge call hands the task body to the judge thread and waits for it
(judge_clock.py), telling the warden process when it starts and ends (the
harness's default);
``--judge-timeout 0`` calls it on the main thread. Prints the median and
spread per call, in microseconds, of a body that only returns (the
harness's own cost) for each, over 5 rounds.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from pytest_mobileagent.judge_clock import JudgeClock


def per_call_us(clock: JudgeClock, calls: int) -> float:
    body = lambda: None  # noqa: E731
    started = time.perf_counter()
    for step in range(calls):
        clock.call(body, step=step)
    return (time.perf_counter() - started) / calls * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20000)
    args = parser.parse_args()
    watchdog = os.dup(2)  # the warden's stderr: the harness passes pytest's copy of it
    for name, limit, fd in (("bounded + warden (default)", 5.0, watchdog), ("bounded, no warden", 5.0, None),
                            ("--judge-timeout 0 (inline)", None, None)):
        clock = JudgeClock(limit, "bench", watchdog=fd)
        rounds = sorted(per_call_us(clock, args.calls) for _ in range(5))
        print(f"{name:<28} median {statistics.median(rounds):7.1f} us/call   "
              f"min {rounds[0]:7.1f}   max {rounds[-1]:7.1f}   ({args.calls} calls x 5)")


if __name__ == "__main__":
    main()
