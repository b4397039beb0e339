"""Start-up of N ``--avd`` instances, their stop, and one snapshot reset, with the stand-in emulator.

Makes a stand-in SDK and AVD in a temporary directory (no Android SDK exists
here), then times what ``--avd`` does: :class:`EmulatorFleet` starting N
instances until every one reports ``sys.boot_completed`` and has been
prepared by the device setup command, and stopping them (console ``kill``).
It also times ``--reset snapshot``'s load (``adb emu avd snapshot load``).

These are the stand-in's figures: a virtual phone process starts in well
under a second, a real emulator cold boot takes tens of seconds and a
snapshot load a second or more. Real emulator boot times cannot be measured
on this machine (no SDK, no KVM).

Usage: python benchmarks/bench_emulators.py [--counts 1 2 4] [--rounds 3]
"""

from __future__ import annotations

import argparse
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


def spread(values: list[float]) -> str:
    return (f"median {statistics.median(values):.2f} s  min {min(values):.2f}  max {max(values):.2f}"
            f"  (n={len(values)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--counts", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    import adbutils

    from pytest_mobileagent.device.emulator import EmulatorFleet, console
    from pytest_mobileagent.device.provision import run_device_setup
    from pytest_mobileagent.virtual_phone.emulator_standin import create_avd, install_sdk

    with tempfile.TemporaryDirectory() as tmp:
        emulator = install_sdk(Path(tmp) / "sdk")
        create_avd(Path(tmp) / "avd", "bench_avd")
        os.environ["ANDROID_AVD_HOME"] = str(Path(tmp) / "avd")
        os.environ["HOME"] = tmp  # the console's auth token
        os.environ["PYTHONPATH"] = str(ROOT)
        adb_port = free_port()
        os.environ["ANDROID_ADB_SERVER_PORT"] = str(adb_port)
        subprocess.run([adbutils.adb_path(), "-P", str(adb_port), "start-server"], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for count in args.counts:
                starts, stops = [], []
                for _ in range(args.rounds):
                    fleet = EmulatorFleet("bench_avd", emulator, boot_timeout=120, setup=run_device_setup)
                    started = time.perf_counter()
                    try:
                        fleet.allocate(count)
                        starts.append(time.perf_counter() - started)
                    finally:
                        stopping = time.perf_counter()
                        fleet.close()
                        stops.append(time.perf_counter() - stopping)
                print(f"{count} instance(s): start to booted and set up {spread(starts)}; stop {spread(stops)}")

            fleet = EmulatorFleet("bench_avd", emulator, boot_timeout=120, setup=run_device_setup)
            try:
                serial = fleet.allocate(1)[0]
                console(serial, "avd snapshot save bench")
                loads = []
                for _ in range(20):
                    started = time.perf_counter()
                    console(serial, "avd snapshot load bench")
                    loads.append(time.perf_counter() - started)
            finally:
                fleet.close()
            ms = [v * 1000 for v in loads]
            print(f"snapshot load through `adb emu` (the reset before each task): median {statistics.median(ms):.1f} ms"
                  f"  min {min(ms):.1f}  max {max(ms):.1f}  (n={len(ms)})")
        finally:
            subprocess.run([adbutils.adb_path(), "-P", str(adb_port), "kill-server"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


if __name__ == "__main__":
    main()
