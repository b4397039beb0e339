"""Timing helpers shared by the client benchmarks: time a call N times, print median and spread."""

from __future__ import annotations

import statistics
import time


def spread(samples: list[float]) -> tuple[float, float, float]:
    """Median, 10th and 90th percentile (nearest rank)."""
    ordered = sorted(samples)
    pick = lambda q: ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]  # noqa: E731
    return statistics.median(ordered), pick(0.1), pick(0.9)


def time_ms(fn, runs: int) -> list[float]:
    """Milliseconds of `fn(i)` for i in range(runs)."""
    out = []
    for i in range(runs):
        start = time.perf_counter()
        fn(i)
        out.append((time.perf_counter() - start) * 1000)
    return out


def row(label: str, samples: list[float], width: int = 46) -> float:
    """Print one figure's median and spread; return the median."""
    median, p10, p90 = spread(samples)
    print(f"  {label:<{width}} median {median:7.2f} ms   p10 {p10:7.2f}   p90 {p90:7.2f}")
    return median
