"""Suite wall time with and without ``--alluredir`` (what Allure output costs).

Runs ``pytest task_tests --agent replay`` in three configurations, interleaved
round by round so that drift on the machine hits all of them alike:

- plain: no Allure, no screenshots unless the agent asks (the replay agent never does)
- shots: ``--mobileagent-screenshots all`` (a screenshot after every action, no Allure)
- allure: ``--alluredir`` (implies the screenshots, plus writing the Allure results)

By default pytest boots its own virtual phones in every run, exactly as the
README's benchmark command does, so nothing a phone cached in one run helps
the next. ``--served`` instead boots phones once (one process each) and passes
them with ``--device``: then every run after the first finds its screens'
PNG pieces already cached on the phone, as a long-lived device would.

The Allure results go where the README's command puts them, into the
project directory (a temporary directory there, removed at the end); give
``--dir`` to put them elsewhere. On this VM the place matters: creating a
file under /tmp, where every pytest session also deletes its oldest
basetemp, costs 0.2-0.6 ms of CPU against 0.02 ms under the project or
home directory (3,000 empty files; the time is spent inside the kernel's
open() of a new file, the same file system either way).

Every run starts after ``os.sync()``, outside the timed part, so that it
finds the disk as a single run of the suite would. Without it, each run
would also pay for the files of the runs before it: on this VM's ext4,
creating a file costs 0.02 ms of CPU with nothing waiting for writeback
and 0.3 ms or more while the last rounds' Allure files still are
(``--no-sync`` shows the difference). A run's own files still count.

Prints each configuration's median wall time with its spread (min-max) and
CPU time (this process's children: pytest and any phone processes it starts),
then what Allure adds in percent (target: at most +15%, issue 26). Asserts nothing.
One run of the suite varies by 10-20% on a shared 2-core machine, about the
size of the effect measured, hence 15 rounds by default and the per-round
paired figure beside the ratio of medians.

``--ablate`` also runs the screenshot configuration with parts of it
switched off (``benchmarks/_ablation/``: ``sitecustomize.py`` in the phone
processes, ``ablation_plugin.py`` in pytest's), to show where the cost is:
``shots-no-ror`` (the ROR pixel test only compares PNG bytes) and
``shots-no-drawing`` (each phone answers every screenshot with the first PNG
it drew; adb, saving and the ROR test on equal bytes stay).

``--before DIR`` also runs plain and Allure from another checkout of the
project (e.g. a worktree of main), interleaved with this one's, to measure a
change: each checkout runs its own code (pytest starts in its directory).

Usage: python benchmarks/bench_allure.py [--rounds 15] [--workers 1] [--served] [--tasks task_tests] [--dir DIR]
       [--no-sync] [--before DIR] [--per-step] [--ablate]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _phones import served_phones

ROOT = Path(__file__).resolve().parent.parent
CONFIGS = ("plain", "shots", "allure")
ABLATIONS = {"shots-no-ror": "no-ror", "shots-no-drawing": "no-drawing"}


def run(args, serials: list[str], config: str, tmp: Path, index: int) -> tuple[float, float, list[float]]:
    """One pytest run; returns (wall seconds, CPU seconds of the child processes,
    harness seconds of every step with --per-step, else [])."""
    # Hypothesis is installed with the test extra, not with the plugin; its pytest
    # plugin would import all of hypothesis at the end of every run (~0.7 s here).
    cmd = [sys.executable, "-m", "pytest", args.tasks, "--agent", "replay", "-q", "-p", "no:cacheprovider",
           "-p", "no:hypothesispytest"]
    for serial in serials:
        cmd += ["--device", serial]
    if args.workers > 1:
        cmd += ["-n", str(args.workers)]
    env = None
    if config.startswith("shots"):
        cmd += ["--mobileagent-screenshots", "all"]
    switch_log = tmp / f"{config}-{index}.switch"
    if config in ABLATIONS:
        cmd += ["-p", "ablation_plugin"]
        env = dict(os.environ, MOBILEAGENT_BENCH_ABLATE=ABLATIONS[config],
                   MOBILEAGENT_BENCH_ABLATE_LOG=str(switch_log),
                   PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT / "benchmarks" / "_ablation"),
                                                            os.environ.get("PYTHONPATH")])))
    elif config.startswith("allure"):
        cmd += ["--alluredir", str(tmp / f"{config}-{index}")]
    if not args.no_sync:
        os.sync()  # earlier runs' files out of the page cache's dirty lists (see above)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    results = tmp / f"{config}-{index}.json"
    if args.per_step:
        cmd += ["--results-json", str(results)]
    cwd = Path(args.before) if config.endswith("-before") else ROOT
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        print(proc.stdout[-3000:], proc.stderr[-3000:])
        raise SystemExit(f"pytest exited with {proc.returncode}: {' '.join(cmd)}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if config == "shots-no-ror" and not sum(map(int, switch_log.read_text().split() if switch_log.exists() else [])):
        raise SystemExit(f"{config}: no ROR pixel test went through the switch; the ablation measured nothing")
    steps = []
    if args.per_step:
        tasks = json.loads(results.read_text())["tasks"]
        steps = [step["harness_seconds"] for task in tasks for step in task["steps"]]
    return wall, cpu, steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--served", action="store_true",
                        help="boot phones once and pass them with --device (phone caches persist across runs)")
    parser.add_argument("--tasks", default="task_tests")
    parser.add_argument("--dir", default=str(ROOT),
                        help="where the Allure results go (default: the project directory, as in the README); "
                             "e.g. /dev/shm to see how much of the cost is creating files on disk")
    parser.add_argument("--no-sync", action="store_true",
                        help="do not flush earlier runs' files to disk before each run")
    parser.add_argument("--per-step", action="store_true",
                        help="also write a results file per run and print the median harness seconds per step "
                             "(settle, screenshot wait, events, judge): less noisy than wall time on a busy machine")
    parser.add_argument("--ablate", action="store_true",
                        help="also run the screenshots with the ROR pixel test, or the phone's drawing, switched off")
    parser.add_argument("--before", metavar="DIR",
                        help="another checkout whose plain and Allure runs are interleaved with these")
    args = parser.parse_args()
    if args.ablate and args.served:
        # no-drawing patches the phone processes when they start: served phones started before.
        parser.error("--ablate needs phones booted by each run; leave out --served")
    configs = (CONFIGS + (tuple(ABLATIONS) if args.ablate else ())
               + (("plain-before", "allure-before") if args.before else ()))

    phones = served_phones(args.workers) if args.served else contextlib.nullcontext(([], None))
    with phones as (serials, _adb_port), tempfile.TemporaryDirectory(prefix=".bench-allure-", dir=args.dir) as tmp:
        where = f"served phones {', '.join(serials)}" if serials else "phones booted by each pytest run"
        print(f"{args.tasks} with the replay agent at -n {args.workers}, {where}, {args.rounds} rounds; "
              f"Allure results under {tmp}; "
              f"{'no sync' if args.no_sync else 'os.sync() before each run'}")
        wall: dict[str, list[float]] = {c: [] for c in configs}
        cpu: dict[str, list[float]] = {c: [] for c in configs}
        steps: dict[str, list[float]] = {c: [] for c in configs}
        run(args, serials, "plain", Path(tmp), -1)  # warm-up: file caches, imports
        for i in range(args.rounds):
            order = configs[i % len(configs):] + configs[:i % len(configs)]  # rotate who goes first
            for config in order:
                w, c, s = run(args, serials, config, Path(tmp), i)
                wall[config].append(w)
                cpu[config].append(c)
                steps[config] += s
            print(f"round {i + 1}: " + ", ".join(f"{c} {wall[c][-1]:.2f} s" for c in configs)
                  + f" (load average {os.getloadavg()[0]:.1f})", flush=True)
        files = list((Path(tmp) / "allure-0").iterdir())
        if args.per_step:
            print("harness seconds per step, median (p90) over every step of every round: " + ", ".join(
                f"{c} {statistics.median(steps[c]) * 1000:.2f} ms "
                f"({sorted(steps[c])[int(0.9 * len(steps[c]))] * 1000:.2f})"
                for c in configs))
        size = sum(f.stat().st_size for f in files)
        print(f"Allure results of one run: {len(files)} files, {size / 1e6:.1f} MB")
        for config in configs:
            w, c = wall[config], cpu[config]
            print(f"{config:16s} wall median {statistics.median(w):.2f} s (min {min(w):.2f}, max {max(w):.2f})"
                  f"   CPU median {statistics.median(c):.2f} s")
        plain, shots, allure = (statistics.median(wall[c]) for c in CONFIGS)
        print(f"Allure adds {(allure - plain) / plain * 100:+.1f}% wall in all (target <= +15%): "
              f"screenshots after every action {(shots - plain) / plain * 100:+.1f}%, "
              f"writing the Allure results {(allure - shots) / plain * 100:+.1f}%")
        paired = [(a - p) / p * 100 for a, p in zip(wall["allure"], wall["plain"])]
        print(f"per round, allure vs plain: median {statistics.median(paired):+.1f}% "
              f"(min {min(paired):+.1f}%, max {max(paired):+.1f}%)")
        if args.ablate:
            for config in ABLATIONS:
                added = (statistics.median(wall[config]) - plain) / plain * 100
                print(f"{config}: the screenshots add {added:+.1f}% wall "
                      f"(all of it: {(shots - plain) / plain * 100:+.1f}%)")
        if args.before:
            plain, allure = (statistics.median(wall[c]) for c in ("plain-before", "allure-before"))
            paired = [(a - p) / p * 100 for a, p in zip(wall["allure-before"], wall["plain-before"])]
            print(f"before ({args.before}): Allure adds {(allure - plain) / plain * 100:+.1f}% wall; per round "
                  f"median {statistics.median(paired):+.1f}% (min {min(paired):+.1f}%, max {max(paired):+.1f}%)")


if __name__ == "__main__":
    main()
