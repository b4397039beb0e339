"""Harness overhead per step through a second adb server against the local one, in the same run.

Starts the run's own adb server with one virtual phone and a second adb
server (``adb -P PORT nodaemon server``, on loopback: what another machine
would run) with another, then runs the Calculator tasks with ``replay`` at
``-n 2 --adb-server 127.0.0.1:PORT``: one worker's device is local, the
other's is the second server's. From the results file it prints the harness
overhead per step (settle + dump + events + judge) of each, median and
spread, and the difference of the medians. Both servers are on this machine,
so the figure is the cost of the extra server hop and the client code, not
of a network.

It also times the per-step device calls directly, interleaved, in one
process: ``dump_hierarchy`` through each server.

Usage: python benchmarks/bench_remote.py [--rounds 3]
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

from _phones import free_port

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))]


def describe(values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return (f"median {statistics.median(ms):.2f} ms  p10 {percentile(ms, 10):.2f}  p90 {percentile(ms, 90):.2f}"
            f"  (n={len(ms)})")


@contextlib.contextmanager
def adb_server(port: int):
    from pytest_mobileagent.virtual_phone.server import bundled_adb_path

    # ADB_EMU=0: no scan of 5555-5585, so other sessions' phones there do not join this
    # server (ADB_LOCAL_TRANSPORT_MAX_PORT is read only after the scan has begun);
    # phones announced with host:emulator still do.
    env = dict(os.environ, ADB_EMU="0")
    proc = subprocess.Popen([bundled_adb_path(), "-P", str(port), "nodaemon", "server"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        from pytest_mobileagent.device.fast_adb import host_request
        from pytest_mobileagent.errors import InfrastructureError

        deadline = time.monotonic() + 30
        while True:
            try:
                host_request("host:version", addr=("127.0.0.1", port), timeout=2)
                break
            except InfrastructureError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        yield port
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def odd_free_port() -> int:
    while True:
        port = free_port()
        if port % 2:
            return port


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="pytest runs (each: the 10 Calculator tasks)")
    args = parser.parse_args()

    from pytest_mobileagent.device import Device
    from pytest_mobileagent.virtual_phone import start_phones

    local_port, remote_port = free_port(), free_port()
    env = dict(os.environ, ANDROID_ADB_SERVER_PORT=str(local_port), PYTHONPATH=str(ROOT))
    with contextlib.ExitStack() as stack:
        stack.enter_context(adb_server(local_port))
        stack.enter_context(adb_server(remote_port))
        local = stack.enter_context(start_phones(1, ports=[odd_free_port()], adb_server_port=local_port))[0]
        remote = stack.enter_context(start_phones(1, ports=[odd_free_port()], seed=1,
                                                  adb_server_port=remote_port))[0]
        local_label, remote_label = local.serial, f"{remote.serial}@127.0.0.1:{remote_port}"
        harness: dict[str, list[float]] = {local_label: [], remote_label: []}
        with tempfile.TemporaryDirectory() as tmp:
            for round_ in range(args.rounds):
                out = Path(tmp) / f"results-{round_}.json"
                proc = subprocess.run(
                    [sys.executable, "-m", "pytest", str(ROOT / "task_tests" / "test_calculator.py"),
                     "--agent", "replay", "-n", "2", "--adb-server", f"127.0.0.1:{remote_port}",
                     "-q", "-p", "no:cacheprovider", "--results-json", str(out)],
                    cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
                if proc.returncode != 0:
                    print(proc.stdout[-3000:], proc.stderr[-2000:])
                    raise SystemExit(f"pytest exited with {proc.returncode}")
                for task in json.loads(out.read_text())["tasks"]:
                    harness[task["device"]].extend(step["harness_seconds"] for step in task["steps"])
        print(f"harness overhead per step, {args.rounds} run(s) of the 10 Calculator tasks at -n 2:")
        print(f"  local adb server   ({local_label}): {describe(harness[local_label])}")
        print(f"  second adb server  ({remote_label}): {describe(harness[remote_label])}")
        diff = statistics.median(harness[remote_label]) - statistics.median(harness[local_label])
        print(f"  difference of the medians: {diff * 1000:+.2f} ms")

        # The same device call through each server, interleaved so both see the same machine load.
        devices = {"local": Device(local.serial, addr=("127.0.0.1", local_port)),
                   "second": Device(remote.serial, addr=("127.0.0.1", remote_port))}
        calls: dict[str, list[float]] = {name: [] for name in devices}
        for _ in range(200):
            for name, device in devices.items():
                started = time.perf_counter()
                device.dump_hierarchy()
                calls[name].append(time.perf_counter() - started)
        print("dump_hierarchy, 200 interleaved calls each:")
        for name, values in calls.items():
            print(f"  {name:<7} {describe(values)}")


if __name__ == "__main__":
    main()
