"""Suite wall time with and without ``--alluredir`` (what Allure output costs).

Boots virtual phones (one process each) on a private adb server, then runs
``pytest task_tests --agent replay`` alternately without and with
``--alluredir`` (fresh directory each time) for a few rounds, and prints the
median wall time of each, the difference in percent (target: Allure adds at
most 10%), and the size of the Allure results. Prints figures; asserts nothing.

Usage: python benchmarks/bench_allure.py [--rounds 3] [--workers 1] [--tasks task_tests]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _phones import served_phones

ROOT = Path(__file__).resolve().parent.parent




def run(tasks: str, serials: list[str], workers: int, alluredir: Path | None, *extra: str) -> tuple[float, str]:
    cmd = [sys.executable, "-m", "pytest", tasks, "--agent", "replay", "-q", "-p", "no:cacheprovider", *extra]
    for serial in serials:
        cmd += ["--device", serial]
    if workers > 1:
        cmd += ["-n", str(workers)]
    if alluredir is not None:
        cmd += ["--alluredir", str(alluredir)]
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        print(proc.stdout[-3000:], proc.stderr[-3000:])
        raise SystemExit(f"pytest exited with {proc.returncode}")
    return wall, proc.stdout.strip().splitlines()[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--tasks", default="task_tests")
    args = parser.parse_args()

    with served_phones(args.workers) as (serials, _adb_port):
        print(f"phones: {', '.join(serials)}; {args.tasks} with replay at -n {args.workers}, {args.rounds} rounds")
        plain, shots, allure = [], [], []
        with tempfile.TemporaryDirectory() as tmp:
            run(args.tasks, serials, args.workers, None)  # warm-up: imports, caches
            for i in range(args.rounds):
                wall, summary = run(args.tasks, serials, args.workers, None)
                plain.append(wall)
                # --alluredir implies a screenshot after every action: this run
                # separates that cost from the cost of writing the Allure results.
                shots.append(run(args.tasks, serials, args.workers, None, "--mobileagent-screenshots", "all")[0])
                directory = Path(tmp) / f"allure-{i}"
                wall, _ = run(args.tasks, serials, args.workers, directory)
                allure.append(wall)
                files = list(directory.iterdir())
                size = sum(f.stat().st_size for f in files)
                print(f"round {i + 1}: plain {plain[-1]:.2f} s, screenshots all {shots[-1]:.2f} s, "
                      f"--alluredir {allure[-1]:.2f} s ({len(files)} files, {size / 1e6:.1f} MB)  [{summary}]")
        a, s, b = statistics.median(plain), statistics.median(shots), statistics.median(allure)
        print(f"median wall: plain {a:.2f} s, screenshots all {s:.2f} s, --alluredir {b:.2f} s")
        print(f"Allure adds {(b - a) / a * 100:+.1f}% in all (target <= +10%): screenshots after every action "
              f"{(s - a) / a * 100:+.1f}%, writing the Allure results {(b - s) / a * 100:+.1f}%")


if __name__ == "__main__":
    main()
