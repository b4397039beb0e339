"""Harness overhead per step and wall time of the built-in tasks with ``replay``.

Boots virtual phones (one process each) on a private adb server, runs
``pytest task_tests --agent replay`` at -n 1 and -n 2 against them, and prints:

* harness overhead per step (settle + dump + screenshot + events + judge),
  median and p90, from the results file;
* the parts of one observation measured directly on the device (dump,
  screenshot), to show where the time goes;
* the wall time of the whole run (pytest start-up included) and of the
  tasks alone (sum of per-task wall times / workers);
* the overhead per step of each app, from the same runs, to compare apps.

Usage: python benchmarks/bench_episode.py [--rounds 3] [--tasks task_tests]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _phones import served_phones

ROOT = Path(__file__).resolve().parent.parent



def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))]



def run_tasks(tasks: str, serials: list[str], workers: int, out: Path) -> float:
    cmd = [sys.executable, "-m", "pytest", tasks, "--agent", "replay", "-q", "-p", "no:cacheprovider",
           "--results-json", str(out)]
    for serial in serials[:workers]:
        cmd += ["--device", serial]
    if workers > 1:
        cmd += ["-n", str(workers)]
    started = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - started
    if proc.returncode not in (0, 1):
        print(proc.stdout[-3000:], proc.stderr[-2000:])
        raise SystemExit(f"pytest exited with {proc.returncode}")
    return wall


def device_parts(serial: str, rounds: int = 50) -> dict[str, list[float]]:
    from pytest_mobileagent.device import connect

    device = connect(serial)
    parts: dict[str, list[float]] = {"dump_hierarchy": [], "screenshot_png": [], "current_app": []}
    try:
        for _ in range(rounds):
            for name in parts:
                started = time.perf_counter()
                getattr(device, name)()
                parts[name].append(time.perf_counter() - started)
    finally:
        device.close()
    return parts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tasks", default="task_tests")
    args = parser.parse_args()

    with served_phones(2) as (serials, adb_port):
        print(f"phones: {', '.join(serials)} on adb server port {adb_port}")
        parts = device_parts(serials[0])
        for name, values in parts.items():
            print(f"  device.{name:<15} median {statistics.median(values) * 1000:6.1f} ms   "
                  f"p90 {percentile(values, 90) * 1000:6.1f} ms")
        with tempfile.TemporaryDirectory() as tmp:
            for workers in (1, 2):
                walls, overheads, task_walls, outcomes = [], [], [], []
                by_app: dict[str, list[float]] = {}
                for i in range(args.rounds):
                    out = Path(tmp) / f"results-{workers}-{i}.json"
                    walls.append(run_tasks(args.tasks, serials, workers, out))
                    data = json.loads(out.read_text())
                    overheads += [s["harness_seconds"] for t in data["tasks"] for s in t["steps"]]
                    for t in data["tasks"]:
                        by_app.setdefault(t.get("app", "?"), []).extend(s["harness_seconds"] for s in t["steps"])
                    task_walls.append(sum(t["wall_seconds"] for t in data["tasks"]) / workers)
                    outcomes.append((sum(t["success"] for t in data["tasks"]), len(data["tasks"])))
                print(f"-n {workers}: {outcomes[-1][0]}/{outcomes[-1][1]} tasks passed; "
                      f"wall {statistics.median(walls):.2f} s (median of {args.rounds}, pytest start-up included; "
                      f"tasks alone {statistics.median(task_walls):.2f} s)")
                print(f"      harness overhead per step: median {statistics.median(overheads) * 1000:.1f} ms, "
                      f"p90 {percentile(overheads, 90) * 1000:.1f} ms over {len(overheads)} steps")
                for app, values in sorted(by_app.items()):  # each app against the others, same run
                    print(f"        {app:<12} median {statistics.median(values) * 1000:5.1f} ms, "
                          f"p90 {percentile(values, 90) * 1000:5.1f} ms over {len(values)} steps")


if __name__ == "__main__":
    main()
