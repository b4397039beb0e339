"""A task author's edit-run loop: the wall time of one task, and of collecting the 100 (issue 38, item 5).

Runs, from the project directory, what the README's quick start runs for one task:

- one task: ``python -m pytest task_tests -k test_calculator_add`` (no device attached: the
  run boots its own virtual phone, as an author's run does)
- collect: ``python -m pytest task_tests --collect-only -q``

interleaved round by round, so that drift on the machine hits both alike. Prints each
one's median wall time with its spread (min-max), the CPU time of pytest and the
processes it waited for (its phone), and the load average. Asserts nothing.

Hypothesis comes with the test extra, not with the plugin: its pytest plugin imports
all of hypothesis at the end of every run (about 0.6 s of CPU here, where
PYTHONDONTWRITEBYTECODE leaves every plugin module to be rewritten again by pytest in
each run), so it is left out as in bench_allure.py; ``--all-plugins`` keeps it.

``--before DIR`` also runs both from another checkout of the project (e.g. a worktree
of main), interleaved with this one's: each checkout runs its own code (pytest starts
in its directory, which comes first on ``sys.path``, and its phone processes too).

Usage: python benchmarks/bench_startup.py [--rounds 9] [--task test_calculator_add] [--before DIR] [--all-plugins]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(cwd: Path, what: str, args: argparse.Namespace) -> tuple[float, float]:
    """One pytest run in ``cwd``; (wall seconds, CPU seconds of the child processes)."""
    cmd = [sys.executable, "-m", "pytest", "task_tests", "-p", "no:cacheprovider", "-q"]
    if not args.all_plugins:
        cmd += ["-p", "no:hypothesispytest"]
    cmd += ["--collect-only"] if what == "collect" else ["-k", args.task]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        print(proc.stdout[-3000:], proc.stderr[-3000:])
        raise SystemExit(f"pytest exited with {proc.returncode} in {cwd}: {' '.join(cmd)}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--task", default="test_calculator_add", help="the -k expression of the one task")
    parser.add_argument("--before", metavar="DIR", help="another checkout whose runs are interleaved with these")
    parser.add_argument("--all-plugins", action="store_true",
                        help="keep hypothesis's pytest plugin (installed with the test extra)")
    args = parser.parse_args()
    checkouts = {"": ROOT}
    if args.before:
        checkouts["-before"] = Path(args.before).resolve()
    configs = [(what + suffix, what, cwd) for suffix, cwd in checkouts.items() for what in ("one task", "collect")]
    print(f"-k {args.task} and --collect-only of task_tests, {args.rounds} rounds"
          f"{'' if args.all_plugins else ', -p no:hypothesispytest'}; "
          f"PYTHONDONTWRITEBYTECODE={os.environ.get('PYTHONDONTWRITEBYTECODE', '(unset)')}")
    for _, what, cwd in configs:
        run(cwd, what, args)  # warm-up: file caches, the adb server
    wall: dict[str, list[float]] = {name: [] for name, _, _ in configs}
    cpu: dict[str, list[float]] = {name: [] for name, _, _ in configs}
    loads = []
    for i in range(args.rounds):
        order = configs[i % len(configs):] + configs[:i % len(configs)]  # rotate who goes first
        for name, what, cwd in order:
            w, c = run(cwd, what, args)
            wall[name].append(w)
            cpu[name].append(c)
        loads.append(os.getloadavg()[0])
        print(f"round {i + 1}: " + ", ".join(f"{name} {wall[name][-1]:.2f} s" for name, _, _ in configs)
              + f" (load average {loads[-1]:.1f})", flush=True)
    for name, _, _ in configs:
        w, c = wall[name], cpu[name]
        print(f"{name:16s} wall median {statistics.median(w):.2f} s (min {min(w):.2f}, max {max(w):.2f})"
              f"   CPU median {statistics.median(c):.2f} s")
    if args.before:
        for what in ("one task", "collect"):
            paired = [a / b for a, b in zip(wall[what], wall[what + "-before"])]
            print(f"{what}: this checkout / before, per round: median {statistics.median(paired):.2f}x "
                  f"(min {min(paired):.2f}x, max {max(paired):.2f}x)")
    print(f"load average during the rounds: median {statistics.median(loads):.1f} "
          f"(min {min(loads):.1f}, max {max(loads):.1f}) on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
