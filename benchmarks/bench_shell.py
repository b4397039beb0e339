"""Print what the phone's shell costs per command line, in-process (no adb).

    python benchmarks/bench_shell.py [--runs 200]

Medians and p90 (ms) of `VirtualPhone.run_shell` for the lines the harness and
clients send every step (a dump into a file, `dumpsys window windows`, a tap,
typed text) and for the expansions mksh does (a glob over a folder, braces),
so a change to the parser or the expansions shows here first.
"""

from __future__ import annotations

import argparse
import statistics
import time

LINES = [
    ("harness dump", "rm -f /data/local/tmp/uidump.xml; uiautomator dump /data/local/tmp/uidump.xml "
                     "&& echo success"),
    ("dumpsys window", "dumpsys window windows"),
    ("tap", "input tap 540 1200"),
    ("typed text", "input text 'hello%sworld%sthis%sis%sa%sfairly%slong%spiece%sof%stext'"),
    ("echo", "echo hi"),
    ("glob 50 files", "ls /sdcard/Download/*.txt"),
    ("braces + glob", "echo /sdcard/Download/f{1,2,3}*.txt"),
    ("ps -A", "ps -A"),
    ("logcat -d", "logcat -d"),
]


def main() -> None:
    from pytest_mobileagent.virtual_phone import VirtualPhone

    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    phone = VirtualPhone()
    phone.run_shell("mkdir -p /sdcard/Download && cd /sdcard/Download && touch "
                    + " ".join(f"f{i}.txt" for i in range(50)))
    for name, line in LINES:
        phone.run_shell(line)  # warm caches (the dump, regexes)
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            phone.run_shell(line)
            times.append((time.perf_counter() - start) * 1000)
        times.sort()
        p90 = times[int(len(times) * 0.9) - 1]
        print(f"{name:16} median {statistics.median(times):7.3f} ms   p90 {p90:7.3f} ms")


if __name__ == "__main__":
    main()
