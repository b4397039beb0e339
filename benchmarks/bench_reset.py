"""What the device-wide reset (device/baseline.py) costs before each task.

    python benchmarks/bench_reset.py [--repeat 50]

On one virtual phone behind a private adb server, with the built-in
benchmark's apps and storage folders: the reset when nothing changed since
the baseline (the usual case: one round trip), and after a seed left files in
two folders and changed a setting (two round trips and a MediaStore rescan).
Prints median and spread in milliseconds.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from _phones import served_phones

from pytest_mobileagent.device import connect
from pytest_mobileagent.device.baseline import DeviceBaseline
from pytest_mobileagent.tasks import APPS

ROOT = Path(__file__).resolve().parent.parent
STORAGE = ["/sdcard/Download", "/sdcard/Music", "/sdcard/Music/Recordings"]


def figures(name: str, seconds: list[float]) -> None:
    ms = sorted(s * 1000 for s in seconds)
    print(f"{name:<28} median {statistics.median(ms):7.2f} ms   min {ms[0]:7.2f}   max {ms[-1]:7.2f}   n={len(ms)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()
    song = next((ROOT / "fixtures" / "audio" / "music").glob("*.mp3")).read_bytes()
    with served_phones(1) as (serials, _port):
        device = connect(serials[0])
        baseline = DeviceBaseline(device, storage=STORAGE, packages=APPS.values())
        baseline.restore()
        clean, dirty = [], []
        for _ in range(args.repeat):
            started = time.perf_counter()
            assert not baseline.restore()
            clean.append(time.perf_counter() - started)
            device.push("/sdcard/Download/left.mp3", song)
            device.push("/sdcard/DCIM/x.txt", "x")
            device.shell("settings put system screen_off_timeout 12345")
            started = time.perf_counter()
            assert baseline.restore()
            dirty.append(time.perf_counter() - started)
        figures("reset, nothing changed", clean)
        figures("reset after a seed", dirty)


if __name__ == "__main__":
    main()
