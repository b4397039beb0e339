"""Per-call cost of Device (raw adb fast path) against adbutils, and where to run phones.

Run: python benchmarks/bench_device.py [--runs 100]

Uses a private adb server on a free port and virtual phones; prints figures,
asserts nothing. Part 1: median/p90 of Device.shell('echo'), dump_hierarchy,
screenshot_png and tap against the same operation through adbutils, with the
phone in its own process as DevicePool boots it; and a dump plus a screenshot
as two calls against dump_hierarchy_then_screenshot's one round trip. Part 2: the DevicePool
decision: phones in the client's process (start_phones) against one subprocess
per phone, for one client and for two clients working at once (as two xdist
workers would), plus boot times.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stats(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p90 = ordered[min(len(ordered) - 1, int(round(0.9 * (len(ordered) - 1))))]
    return statistics.median(ordered) * 1000, p90 * 1000


def timeit(fn, runs: int, warmup: int = 3) -> list[float]:
    for _ in range(warmup):
        fn()
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def ops(device, adb):
    """(name, Device call, adbutils call) triples for the same device operation."""
    return [
        ("shell echo", lambda: device.shell("echo hi"), lambda: adb.shell("echo hi")),
        ("dump_hierarchy", device.dump_hierarchy, adb.dump_hierarchy),
        ("screenshot png", device.screenshot_png, lambda: adb.shell("screencap -p", encoding=None)),
        # A tap on the home screen's empty status-bar strip changes nothing.
        ("tap", lambda: device.tap(540, 20), lambda: adb.click(540, 20)),
    ]


def part1(runs: int) -> None:
    from pytest_mobileagent.device import DevicePool, connect

    print(f"\n== Device fast path vs adbutils ({runs} runs each; phone in its own process) ==")
    with DevicePool(virtual_in_process=False) as pool:
        t = time.perf_counter()
        serial = pool.boot(1)[0]
        print(f"DevicePool.boot(1) booted {serial} in {(time.perf_counter() - t) * 1000:.0f} ms")
        device = connect(serial)
        adb = device.adb
        print(f"{'operation':<16}{'Device med':>12}{'p90':>9}{'adbutils med':>15}{'p90':>9}{'ratio':>8}")
        for name, fast, slow in ops(device, adb):
            f_med, f_p90 = stats(timeit(fast, runs))
            s_med, s_p90 = stats(timeit(slow, runs))
            print(f"{name:<16}{f_med:>10.2f}ms{f_p90:>7.2f}ms{s_med:>13.2f}ms{s_p90:>7.2f}ms{s_med / f_med:>7.1f}x")
        # What the episode does after each action in 'all' mode: the settled screen's dump and PNG.
        two = stats(timeit(lambda: (device.dump_hierarchy(), device.screenshot_png()), runs))
        one = stats(timeit(lambda: device.dump_hierarchy_then_screenshot()[1].png(), runs))
        print(f"dump + screenshot: two round trips median {two[0]:.2f} ms (p90 {two[1]:.2f}), "
              f"dump_hierarchy_then_screenshot {one[0]:.2f} ms (p90 {one[1]:.2f}): {two[0] / one[0]:.2f}x")


# -- part 2: where the phones run -----------------------------------------------------------
def agent_step(device):
    """A step that changes the screen each time, so the phone re-renders its dump and PNG:
    tap a calculator key (digits, then C), dump, screenshot."""
    from pytest_mobileagent.judge import Screen

    device.force_stop("com.simplemobiletools.calculator")
    device.launch("com.simplemobiletools.calculator")
    xml = device.dump_hierarchy()
    screen = Screen("com.simplemobiletools.calculator")
    screen.update(xml)
    points = [screen.get(id=key).center for key in ("btn_1", "btn_2", "btn_3", "btn_clear")]
    counter = iter(range(10**9))

    def step():
        device.tap(*points[next(counter) % len(points)])
        device.dump_hierarchy()
        device.screenshot_png()

    return step


def _client(serial: str, runs: int, queue) -> None:
    from pytest_mobileagent.device import connect

    queue.put(timeit(agent_step(connect(serial)), runs))


def _drive(serials: list[str], runs: int) -> tuple[float, float, float]:
    """Each serial driven by its own client process at once; (median, p90, wall) of one step."""
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    procs = [ctx.Process(target=_client, args=(s, runs, queue)) for s in serials]
    t = time.perf_counter()
    for p in procs:
        p.start()
    samples = [x for _ in procs for x in queue.get(timeout=600)]
    for p in procs:
        p.join()
    wall = time.perf_counter() - t
    med, p90 = stats(samples)
    return med, p90, wall


def _inprocess_host(count: int, conn) -> None:
    """One process hosting `count` phones, like a controller that runs start_phones."""
    from pytest_mobileagent.virtual_phone import start_phones

    t = time.perf_counter()
    with start_phones(count) as phones:
        conn.send(([p.serial for p in phones], time.perf_counter() - t))
        conn.recv()  # until told to stop


def part2(runs: int) -> None:
    from pytest_mobileagent.device import DevicePool, connect
    from pytest_mobileagent.virtual_phone import start_phones

    print(f"\n== Phone placement: one step = tap a calculator key + dump + screenshot ({runs} steps per client) ==")
    # (a) one client, phone in the same process as the client
    with start_phones(1) as phones:
        med, p90 = stats(timeit(agent_step(connect(phones[0].serial)), runs))
        print(f"1 client, phone in the client's process      : median {med:6.2f} ms  p90 {p90:6.2f} ms")
    with DevicePool(virtual_in_process=False) as pool:
        med, p90 = stats(timeit(agent_step(connect(pool.boot(1)[0])), runs))
        print(f"1 client, phone in its own subprocess         : median {med:6.2f} ms  p90 {p90:6.2f} ms")

    # (b) two clients at once, as two xdist workers: phones together in one host process
    # (the controller running start_phones) or one subprocess each (DevicePool).
    ctx = mp.get_context("spawn")
    parent, child = ctx.Pipe()
    host = ctx.Process(target=_inprocess_host, args=(2, child))
    host.start()
    serials, boot = parent.recv()
    med, p90, wall = _drive(serials, runs)
    parent.send("stop")
    host.join()
    print(f"2 clients, both phones in one host process    : median {med:6.2f} ms  p90 {p90:6.2f} ms  "
          f"wall {wall:5.2f} s  (boot of 2: {boot * 1000:.0f} ms)")
    with DevicePool(virtual_in_process=False) as pool:
        t = time.perf_counter()
        serials = pool.boot(2)
        boot = time.perf_counter() - t
        med, p90, wall = _drive(serials, runs)
    print(f"2 clients, one subprocess per phone (pool)    : median {med:6.2f} ms  p90 {p90:6.2f} ms  "
          f"wall {wall:5.2f} s  (boot of 2: {boot * 1000:.0f} ms)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--part", choices=["1", "2", "all"], default="all")
    args = parser.parse_args()
    import adbutils

    port = free_port()
    adb = adbutils.adb_path()
    subprocess.run([adb, "-P", str(port), "start-server"], check=True, capture_output=True, timeout=60)
    os.environ["ANDROID_ADB_SERVER_PORT"] = str(port)
    print(f"private adb server on port {port}; {os.cpu_count()} CPUs")
    try:
        if args.part in ("1", "all"):
            part1(args.runs)
        if args.part in ("2", "all"):
            part2(args.runs)
    finally:
        subprocess.run([adb, "-P", str(port), "kill-server"], capture_output=True, timeout=30)


if __name__ == "__main__":
    main()
