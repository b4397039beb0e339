"""What ``--agent-timeout`` costs per agent call: starting and stopping its timer.

Calls a do-nothing ``step()`` many times directly (``--agent-timeout 0``) and
through an :class:`~pytest_mobileagent.agent_clock.AgentClock` with a limit
(the default: a SIGALRM timer armed around the call, the handler swapped in
and out), in interleaved batches. Prints microseconds per call for each,
median with the spread over batches, and the difference, which every
action's agent time carries. Asserts nothing.

Usage: python benchmarks/bench_agent_clock.py [--batches 15] [--calls 2000]
"""

from __future__ import annotations

import argparse
import statistics
import time

from pytest_mobileagent.agent_clock import AgentClock


def step(observation: object) -> object:
    return observation


def per_call_us(clock: AgentClock, calls: int) -> float:
    started = time.perf_counter()
    for index in range(calls):
        clock.call("step", step, index)
    return (time.perf_counter() - started) / calls * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batches", type=int, default=15)
    parser.add_argument("--calls", type=int, default=2000)
    args = parser.parse_args()

    direct, timed = AgentClock(None), AgentClock(300.0)
    per_call_us(direct, args.calls)  # warm-up
    per_call_us(timed, args.calls)
    results: dict[str, list[float]] = {"direct": [], "with the clock": []}
    for _ in range(args.batches):
        results["direct"].append(per_call_us(direct, args.calls))
        results["with the clock"].append(per_call_us(timed, args.calls))

    for name, values in results.items():
        print(f"{name:15s} {statistics.median(values):7.2f} us per call "
              f"(min {min(values):.2f}, max {max(values):.2f}; {args.batches} batches of {args.calls})")
    added = [t - d for d, t in zip(results["direct"], results["with the clock"])]
    print(f"the clock adds {statistics.median(added):.2f} us per call "
          f"(per batch: min {min(added):.2f}, max {max(added):.2f})")


if __name__ == "__main__":
    main()
