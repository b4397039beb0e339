"""Where the CPU of a screenshot after every action goes: phone, adb server, plugin.

One virtual phone in its own process (as the device pool boots it) on a
private adb server. A step is what the harness does after an action with
``--mobileagent-hierarchy dump``: tap a calculator key ("1", then the delete
key: the display changes every step, between two screens the phone has
cached), dump the hierarchy, then dump again with or without the screenshot
in the same round trip (``dump_hierarchy_then_screenshot``), as ``_settle``
does. Each pair is a small change, the case where the pixel test reads the
whole screen (``benchmarks/bench_screen_similarity.py``). Modes,
interleaved block by block so that drift on the machine hits all alike:

- dumps: no screenshot (the plain run)
- shot: the screenshot read in full (``PendingScreenshot.png``)
- shot+ror: and AndroidLab's pixel test against the step before (``screen_changed``)

For each mode, CPU per step in this process (the plugin's side), in the
phone's process and in the adb server (read from /proc, so Linux only), as
medians over the blocks with their spread; CPU is what a loaded 2-core
machine runs short of. Asserts nothing.

Usage: python benchmarks/bench_screenshot_cost.py [--steps 40] [--blocks 9]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _phones import served_phones  # noqa: E402

MODES = ("dumps", "shot", "shot+ror")


def cpu_of(pid: int) -> float:
    """User + system CPU seconds of a process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pid_of(*words: str) -> int:
    """The process whose command line holds all ``words`` (the phone, the adb server)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if all(word in cmdline for word in words) and int(entry.name) != os.getpid():
            return int(entry.name)
    raise SystemExit(f"no process with {words} in its command line")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=40, help="steps per block")
    parser.add_argument("--blocks", type=int, default=9, help="blocks per mode")
    args = parser.parse_args()

    from pytest_mobileagent.device import connect
    from pytest_mobileagent.judge import Screen
    from pytest_mobileagent.screen_similarity import screen_changed

    with served_phones(1) as (serials, adb_port):
        device = connect(serials[0])
        phone = pid_of("virtual_phone.cli", "serve", f"--adb-port {adb_port}")
        server = pid_of("adb", f"tcp:{adb_port}", "server")
        device.force_stop("com.simplemobiletools.calculator")
        device.launch("com.simplemobiletools.calculator")
        screen = Screen("com.simplemobiletools.calculator")
        screen.update(device.dump_hierarchy())
        points = [screen.get(id=key).center for key in ("btn_1", "btn_clear")]
        counter = iter(range(10**9))
        previous: list[bytes] = []

        def step(mode: str) -> None:
            device.tap(*points[next(counter) % len(points)])
            device.dump_hierarchy()
            if mode == "dumps":
                device.dump_hierarchy()
                return
            _, pending = device.dump_hierarchy_then_screenshot()
            png = pending.png()
            if mode == "shot+ror" and previous:
                screen_changed(previous[-1], png)
            previous[:] = [png]

        per_step: dict[str, dict[str, list[float]]] = {m: {"plugin": [], "phone": [], "adb": [], "wall": []}
                                                       for m in MODES}
        for mode in MODES:  # warm-up: fonts, caches
            for _ in range(args.steps):
                step(mode)
        for block in range(args.blocks):
            for mode in MODES[block % 3:] + MODES[:block % 3]:
                previous.clear()
                before = (time.process_time(), cpu_of(phone), cpu_of(server), time.perf_counter())
                for _ in range(args.steps):
                    step(mode)
                after = (time.process_time(), cpu_of(phone), cpu_of(server), time.perf_counter())
                for key, b, a in zip(("plugin", "phone", "adb", "wall"), before, after):
                    per_step[mode][key].append((a - b) / args.steps * 1000)
        print(f"{args.blocks} blocks of {args.steps} steps per mode, one phone; ms per step, median (min-max); "
              f"load average {os.getloadavg()[0]:.1f}")
        for mode in MODES:
            cells = []
            for key in ("plugin", "phone", "adb", "wall"):
                values = per_step[mode][key]
                cells.append(f"{key} {statistics.median(values):5.2f} ({min(values):.2f}-{max(values):.2f})")
            print(f"{mode:9s} " + "  ".join(cells))
        base = {key: statistics.median(per_step["dumps"][key]) for key in ("plugin", "phone", "adb")}
        for mode in MODES[1:]:
            extra = {key: statistics.median(per_step[mode][key]) - base[key] for key in base}
            print(f"{mode} adds CPU per step: " + ", ".join(f"{k} {v:+.2f} ms" for k, v in extra.items())
                  + f", in all {sum(extra.values()):+.2f} ms")


if __name__ == "__main__":
    main()
