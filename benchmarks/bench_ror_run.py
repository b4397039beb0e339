"""The ROR pixel test on a whole run's screenshots, as a pytest worker meets them.

``bench_screen_similarity.py`` times one pair of screens over and over; a run
is different: hundreds of pairs, most of them new screens, the band cache
filling up and evicting, and ``memory.return_freed_memory`` handing the free
heap back after every task. How the C library serves the inflated bands then
matters as much as the inflating (see ``screen_similarity._take_segment``).

The script runs the 100-task replay once at ``-n 2`` with a screenshot after
every action (into a temporary directory), then replays every task's pairs
through ``screen_changed`` the way a worker does: caches cold at the start,
the pairs of a task in order, the free heap returned after each task. Each
variant runs in a fresh process, alternately, so that one does not inherit
the other's heap:

- slack 1: the output buffer one byte larger than a band's rows (the code)
- slack 0: exactly the band's rows (as before), which python-isal doubles

Prints per variant the median over rounds of milliseconds per pair (with the
rounds' spread) and page faults per pair; asserts nothing.

Usage: python benchmarks/bench_ror_run.py [--rounds 5] [--shots DIR]
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = {"slack 1": 1, "slack 0": 0}


def record_run(directory: Path) -> None:
    """The 100-task replay with a screenshot after every action, artifacts under ``directory``."""
    cmd = [sys.executable, "-m", "pytest", "task_tests", "--agent", "replay", "-n", "2", "-q",
           "-p", "no:cacheprovider", "-p", "no:hypothesispytest",
           "--mobileagent-screenshots", "all", "--basetemp", str(directory)]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"the recording run failed ({proc.returncode}):\n{proc.stdout[-2000:]}")


def tasks_of(directory: Path) -> list[list[Path]]:
    """Each task's screenshots in step order (step_000 is the screen the agent started from)."""
    folders = sorted({path.parent for path in directory.rglob("step_*.png")})
    return [sorted(folder.glob("step_*.png")) for folder in folders]


def replay(directory: Path, slack: int) -> dict:
    """One round in this process: every task's pairs through screen_changed, as a worker does."""
    from pytest_mobileagent import screen_similarity
    from pytest_mobileagent.memory import return_freed_memory

    screen_similarity._BUFFER_SLACK = slack
    tasks = [[path.read_bytes() for path in task] for task in tasks_of(directory)]
    screen_similarity.clear_caches()
    pairs, seconds = 0, 0.0
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for shots in tasks:
        started = time.process_time()
        for before, after in zip(shots, shots[1:]):
            screen_similarity.screen_changed(before, after)
        seconds += time.process_time() - started
        pairs += len(shots) - 1
        return_freed_memory()  # the worker's step after every task (plugin.py)
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults
    return {"pairs": pairs, "ms_per_pair": seconds * 1000 / max(pairs, 1), "faults_per_pair": faults / max(pairs, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--shots", type=Path, help="screenshots of an earlier run (its --basetemp); "
                                                   "default: record a run now")
    parser.add_argument("--replay", type=Path, help=argparse.SUPPRESS)  # a child process's round
    parser.add_argument("--slack", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.replay:
        print(json.dumps(replay(args.replay, args.slack)))
        return
    with tempfile.TemporaryDirectory(prefix="bench-ror-") as tmp:
        shots = args.shots
        if shots is None:
            shots = Path(tmp) / "run"
            record_run(shots)
        results: dict[str, list[dict]] = {name: [] for name in VARIANTS}
        for _ in range(args.rounds):
            for name, slack in VARIANTS.items():
                out = subprocess.run([sys.executable, __file__, "--replay", str(shots), "--slack", str(slack)],
                                     capture_output=True, text=True, check=True).stdout
                results[name].append(json.loads(out))
    pairs = results["slack 1"][0]["pairs"]
    print(f"{pairs} pairs of a 100-task replay run, {args.rounds} rounds, each variant in a fresh process")
    medians = {}
    for name, rounds in results.items():
        times = [r["ms_per_pair"] for r in rounds]
        medians[name] = statistics.median(times)
        print(f"{name}: {medians[name]:.2f} ms a pair (rounds {min(times):.2f}-{max(times):.2f}), "
              f"{statistics.median(r['faults_per_pair'] for r in rounds):.0f} page faults a pair")
    print(f"slack 0 / slack 1: {medians['slack 0'] / medians['slack 1']:.2f}x the time")


if __name__ == "__main__":
    main()
