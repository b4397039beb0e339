"""Memory of a long run: worker and controller RSS after 100 and after N episodes.

    python benchmarks/bench_memory.py [--repeat-tasks 20] [--workers 2] [--runs 1] [--code DIR]

Runs the 100 built-in tasks ``--repeat-tasks`` times with ``replay`` under
``-n WORKERS`` on virtual phones behind a private adb server. A probe plugin
in the run reads VmRSS: each worker attaches its own to every task's report,
and the controller prints its own and the workers' latest when the 100th and
the last episode's report arrive. Prints the growth between the two, which
the plugin keeps within 20 MB (issue 25). With ``--runs K`` the whole run is
repeated K times and the growth of the controller and of the workers is given
as median and spread (min-max) over the runs. ``--code DIR`` puts another copy
of ``pytest_mobileagent`` first on the run's ``PYTHONPATH`` (an older commit
exported with ``git archive``), for the figures before a change.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from _phones import served_phones

ROOT = Path(__file__).resolve().parent.parent

PROBE = '''
import os

import pytest

def _rss_kb():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0

_seen = set()
_workers = {}
_marks = {int(m) for m in os.environ["MEM_PROBE_AT"].split(",")}

@pytest.hookimpl(tryfirst=True)  # on a worker: before xdist sends the report to the controller
def pytest_runtest_logreport(report):
    worker = getattr(report, "node", None)
    if os.environ.get("PYTEST_XDIST_WORKER"):
        if report.when == "teardown":
            report.user_properties.append(("rss_kb", _rss_kb()))
        return
    if report.when != "teardown":
        return
    for key, value in report.user_properties:
        if key == "rss_kb" and worker is not None:
            _workers[worker.gateway.id] = value
    _seen.add(report.nodeid)
    if len(_seen) in _marks:
        workers = ", ".join(f"{w} {kb / 1024:.1f} MB" for w, kb in sorted(_workers.items()))
        print(f"\\nMEMPROBE episodes={len(_seen)} controller={_rss_kb() / 1024:.1f} MB workers: {workers}", flush=True)
'''


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat-tasks", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--code", type=Path, default=None)
    args = parser.parse_args()
    growth: dict[str, list[float]] = {"controller": [], "workers": []}
    for run in range(args.runs):
        if args.runs > 1:
            print(f"run {run + 1} of {args.runs}")
        for name, value in one_run(args).items():
            growth["controller" if name == "controller" else "workers"].append(value)
    if args.runs > 1:
        for role, values in growth.items():
            if values:
                print(f"{role} growth: median {statistics.median(values):+.1f} MB, "
                      f"spread {min(values):+.1f} .. {max(values):+.1f} MB over {len(values)} processes")


def one_run(args: argparse.Namespace) -> dict[str, float]:
    """One benchmark run; prints its figures and returns each process's growth in MB."""
    total = 100 * args.repeat_tasks
    with tempfile.TemporaryDirectory(prefix="bench-memory-") as tmp, served_phones(args.workers) as (serials, _):
        Path(tmp, "mem_probe.py").write_text(PROBE)
        env = dict(os.environ, MEM_PROBE_AT=f"100,{total}",
                   PYTHONPATH=os.pathsep.join(str(p) for p in (args.code, tmp) if p))
        device_args = [a for serial in serials for a in ("--device", serial)]
        # The project's ini puts the checkout first on sys.path (pythonpath = .): --code must come before it.
        code_args = ["-o", f"pythonpath={args.code}"] if args.code else []
        proc = subprocess.run(
            [sys.executable, "-m", "pytest", str(ROOT / "task_tests"), "-p", "mem_probe", "--agent", "replay",
             "--repeat-tasks", str(args.repeat_tasks), "-n", str(args.workers), *device_args, "-q", "-s",
             "-p", "no:cacheprovider", "--rootdir", str(ROOT), "--results-json", str(Path(tmp, "r.json")), *code_args],
            cwd=tmp, env=env, capture_output=True, text=True)
        lines = [line for line in proc.stdout.splitlines() if line.startswith("MEMPROBE")]
        for line in lines:
            print(line.removeprefix("MEMPROBE "))
        tail = [line for line in proc.stdout.splitlines() if " passed" in line or " failed" in line]
        print(tail[-1] if tail else proc.stdout[-2000:] + proc.stderr[-2000:])
        if len(lines) != 2:
            return {}
        first, last = (_figures(line) for line in lines)
        growth = {name: last[name] - first[name] for name in first if name in last}
        print("growth: " + ", ".join(f"{name} {value:+.1f} MB" for name, value in growth.items()))
        return growth


def _figures(line: str) -> dict[str, float]:
    head, _, workers = line.partition(" workers: ")
    figures = {"controller": float(head.split("controller=")[1].split()[0])}
    for part in workers.split(", "):
        name, value, _unit = part.split()
        figures[name] = float(value)
    return figures


if __name__ == "__main__":
    main()
