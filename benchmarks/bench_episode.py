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

With ``--baseline DIR`` (another checkout, e.g. ``git worktree add ../base
main``) every round runs that code too, on phones of its own running its own
phone code, in alternating order: on a shared machine, the two figures of one
session compare where figures of two sessions do not. The load average is
printed with them.

Usage: python benchmarks/bench_episode.py [--rounds 3] [--tasks task_tests] [--workers 1,2] [--baseline DIR]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
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



def run_tasks(tasks: str, serials: list[str], workers: int, out: Path, root: Path = ROOT,
              adb_port: int | None = None) -> float:
    cmd = [sys.executable, "-m", "pytest", tasks, "--agent", "replay", "-q", "-p", "no:cacheprovider",
           "--results-json", str(out)]
    for serial in serials[:workers]:
        cmd += ["--device", serial]
    if workers > 1:
        cmd += ["-n", str(workers)]
    env = dict(os.environ)
    if adb_port is not None:
        env["ANDROID_ADB_SERVER_PORT"] = str(adb_port)
    if root != ROOT:
        env["PYTHONPATH"] = str(root)  # the baseline's package, not this checkout's
    started = time.perf_counter()
    proc = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - started
    if proc.returncode not in (0, 1):
        print(proc.stdout[-3000:], proc.stderr[-2000:])
        raise SystemExit(f"pytest exited with {proc.returncode}")
    return wall


def device_parts(serial: str, adb_port: int, rounds: int = 50) -> dict[str, list[float]]:
    from pytest_mobileagent.device import connect

    device = connect(serial, ("127.0.0.1", adb_port))
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


def _load() -> str:
    return "load average " + " ".join(f"{v:.2f}" for v in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tasks", default="task_tests")
    parser.add_argument("--workers", default="1,2", help="the -n values to run, comma-separated (default 1,2)")
    parser.add_argument("--baseline", metavar="DIR",
                        help="another checkout of the project, run in the same rounds, in alternating order")
    args = parser.parse_args()
    variants = [("", ROOT)]
    if args.baseline:
        baseline = Path(args.baseline).resolve()
        if not (baseline / "pytest_mobileagent").is_dir() or not (baseline / args.tasks).exists():
            raise SystemExit(f"--baseline {args.baseline}: not a checkout of the project with {args.tasks}/")
        variants = [("this checkout: ", ROOT), ("baseline:      ", baseline)]

    with contextlib.ExitStack() as stack:
        phones = {root: stack.enter_context(served_phones(2, root=None if root == ROOT else str(root)))
                  for _, root in variants}
        serials, adb_port = phones[ROOT]
        print(f"phones: {', '.join(serials)} on adb server port {adb_port}; {_load()}")
        parts = device_parts(serials[0], adb_port)
        for name, values in parts.items():
            print(f"  device.{name:<15} median {statistics.median(values) * 1000:6.1f} ms   "
                  f"p90 {percentile(values, 90) * 1000:6.1f} ms")
        with tempfile.TemporaryDirectory() as tmp:
            for workers in (int(w) for w in args.workers.split(",")):
                runs = {root: {"walls": [], "overheads": [], "task_walls": [], "outcomes": [], "by_app": {},
                               "round_medians": []} for _, root in variants}
                for i in range(args.rounds):
                    for _, root in (variants if i % 2 == 0 else variants[::-1]):
                        run = runs[root]
                        out = Path(tmp) / f"results-{workers}-{i}.json"
                        run["walls"].append(run_tasks(args.tasks, phones[root][0], workers, out, root, phones[root][1]))
                        data = json.loads(out.read_text())
                        steps = [s["harness_seconds"] for t in data["tasks"] for s in t["steps"]]
                        run["overheads"] += steps
                        run["round_medians"].append(statistics.median(steps))
                        for t in data["tasks"]:
                            run["by_app"].setdefault(t.get("app", "?"), []).extend(
                                s["harness_seconds"] for s in t["steps"])
                        run["task_walls"].append(sum(t["wall_seconds"] for t in data["tasks"]) / workers)
                        run["outcomes"].append((sum(t["success"] for t in data["tasks"]), len(data["tasks"])))
                for label, root in variants:
                    run = runs[root]
                    overheads, outcomes = run["overheads"], run["outcomes"]
                    print(f"{label}-n {workers}: {outcomes[-1][0]}/{outcomes[-1][1]} tasks passed; "
                          f"wall {statistics.median(run['walls']):.2f} s (median of {args.rounds}, pytest start-up "
                          f"included; tasks alone {statistics.median(run['task_walls']):.2f} s)")
                    print(f"      harness overhead per step: median {statistics.median(overheads) * 1000:.1f} ms, "
                          f"p90 {percentile(overheads, 90) * 1000:.1f} ms over {len(overheads)} steps; rounds' medians "
                          + ", ".join(f"{m * 1000:.1f}" for m in run["round_medians"]) + " ms")
                    for app, values in sorted(run["by_app"].items()):  # each app against the others, same run
                        print(f"        {app:<12} median {statistics.median(values) * 1000:5.1f} ms, "
                              f"p90 {percentile(values, 90) * 1000:5.1f} ms over {len(values)} steps")
                print(f"      ({_load()})")


if __name__ == "__main__":
    main()
