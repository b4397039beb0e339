"""Latency of the virtual phone through real clients. Prints figures; asserts nothing.

    python benchmarks/bench_phone.py [--runs 50]

Starts a private adb server (the adbutils wheel's binary) on a free port,
boots a phone, then times each operation `--runs` times and prints the median
and p90 in milliseconds for four paths:
  phone      -- VirtualPhone.run_shell in-process: the phone's own handling time
  raw        -- a raw socket to the adb server: host:transport:SERIAL, then exec:/shell:
  adbutils   -- adbutils 2.12 AdbDevice calls (by serial)
and the boot time of a phone (construct + bind + serve, and until adb lists it).
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import time


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class RawAdb:
    """The fastest client path: one socket per request, straight to the adb server."""

    def __init__(self, port: int, serial: str):
        self.port, self.serial = port, serial

    def _open(self, service: str) -> socket.socket:
        sock = socket.create_connection(("127.0.0.1", self.port))
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        for request in (f"host:transport:{self.serial}", service):
            sock.sendall(f"{len(request):04x}".encode() + request.encode())
            status = sock.recv(4)
            if status != b"OKAY":
                raise RuntimeError(f"{request}: {status!r}")
        return sock

    def run(self, service: str) -> bytes:
        sock = self._open(service)
        chunks = []
        while True:
            chunk = sock.recv(1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
        sock.close()
        return b"".join(chunks)

    def pull(self, path: str) -> bytes:
        import struct

        sock = self._open("sync:")
        raw = path.encode()
        sock.sendall(b"RECV" + struct.pack("<I", len(raw)) + raw)
        data = bytearray()

        def exactly(n: int) -> bytes:
            buf = b""
            while len(buf) < n:
                chunk = sock.recv(n - len(buf))
                if not chunk:
                    raise ConnectionError("sync closed")
                buf += chunk
            return buf

        while True:
            kind, length = struct.unpack("<4sI", exactly(8))
            if kind == b"DATA":
                data += exactly(length)
            elif kind == b"DONE":
                break
            else:
                raise RuntimeError(exactly(length).decode())
        sock.sendall(b"QUIT\0\0\0\0")
        sock.close()
        return bytes(data)


def measure(fn, runs: int) -> tuple[float, float]:
    fn()  # warm-up (caches, first connection)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.9))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    args = parser.parse_args()
    runs = max(args.runs, 1)

    from pytest_mobileagent.virtual_phone.server import bundled_adb_path

    adb = bundled_adb_path()
    adb_port = free_port()
    subprocess.run([adb, "-P", str(adb_port), "start-server"], check=True, capture_output=True)
    os.environ["ANDROID_ADB_SERVER_PORT"] = str(adb_port)
    from pytest_mobileagent.judge import Screen
    from pytest_mobileagent.virtual_phone import VirtualPhone, start_phones

    rows: list[tuple[str, str, float, float]] = []
    try:
        VirtualPhone()  # import and first-construction costs are not boot time
        rows.append(("boot", "VirtualPhone()", *measure(VirtualPhone, runs)))
        boot_runs = max(10, runs // 5)

        def boot_unregistered():
            with start_phones(1, register=False):
                pass

        def boot_registered():
            with start_phones(1, adb_server_port=adb_port):
                pass

        rows.append(("boot", "start_phones(1), served", *measure(boot_unregistered, boot_runs)))
        rows.append(("boot", "start_phones(1), adb lists it", *measure(boot_registered, boot_runs)))

        with start_phones(1, adb_server_port=adb_port) as phones:
            running = phones[0]
            phone = running.phone
            import adbutils

            device = adbutils.AdbClient(port=adb_port).device(running.serial)
            raw = RawAdb(adb_port, running.serial)
            tap = "input tap 1 1"  # the status bar area: no app state changes between runs
            dump_cmd = "uiautomator dump /data/local/tmp/bench.xml >/dev/null && cat /data/local/tmp/bench.xml"
            device.shell("monkey -p com.simplemobiletools.calculator -c android.intent.category.LAUNCHER 1")

            for name, command in [("shell echo", "echo hi"), ("uiautomator dump + read", dump_cmd),
                                  ("screencap -p", "screencap -p"), ("input tap", tap)]:
                rows.append(("phone", name, *measure(lambda c=command: phone.run_shell(c), runs)))
            xml = phone.system.dump_xml()
            screen = Screen()
            screen.update(xml)
            seven = screen.get(id="com.simplemobiletools.calculator:id/btn_7")
            if seven:  # time a screenshot that must be rendered afresh (the UI changed)
                x, y = seven.center
                fresh: dict[str, list[float]] = {dump_cmd: [], "screencap -p": []}
                for _ in range(runs):
                    phone.run_shell(f"input tap {x} {y}")
                    for command, times in fresh.items():
                        start = time.perf_counter()
                        phone.run_shell(command)
                        times.append((time.perf_counter() - start) * 1000)
                for label, times in zip(("uiautomator dump + read", "screencap -p"), fresh.values()):
                    times.sort()
                    rows.append(("phone", f"{label}, UI changed (no cache)",
                                 statistics.median(times), times[int(len(times) * 0.9)]))
            rows.append(("raw", "shell echo", *measure(lambda: raw.run("shell:echo hi"), runs)))
            rows.append(("raw", "uiautomator dump + read (one shell)", *measure(lambda: raw.run("shell:" + dump_cmd), runs)))
            rows.append(("raw", "uiautomator dump /dev/tty (exec)", *measure(
                lambda: raw.run("exec:uiautomator dump /dev/tty"), runs)))
            rows.append(("raw", "uiautomator dump + sync RECV", *measure(
                lambda: (raw.run("shell:uiautomator dump /data/local/tmp/bench.xml"),
                         raw.pull("/data/local/tmp/bench.xml")), runs)))
            rows.append(("raw", "screencap -p (exec)", *measure(lambda: raw.run("exec:screencap -p"), runs)))
            rows.append(("raw", "input tap", *measure(lambda: raw.run("shell:" + tap), runs)))
            rows.append(("adbutils", "shell echo", *measure(lambda: device.shell("echo hi"), runs)))
            rows.append(("adbutils", "dump_hierarchy()", *measure(device.dump_hierarchy, runs)))
            rows.append(("adbutils", "shell screencap -p (bytes)", *measure(
                lambda: device.shell("screencap -p", encoding=None), runs)))
            rows.append(("adbutils", "screenshot() (PIL)", *measure(device.screenshot, runs)))
            rows.append(("adbutils", "click()", *measure(lambda: device.click(1, 1), runs)))
            png = phone.run_shell("screencap -p").stdout
    finally:
        subprocess.run([adb, "-P", str(adb_port), "kill-server"], capture_output=True)

    print(f"virtual phone latency, {runs} runs each (boot: {boot_runs}); PNG is {len(png) // 1024} KiB")
    print(f"{'path':9} {'operation':40} {'median ms':>10} {'p90 ms':>9}")
    for path, name, median, p90 in rows:
        print(f"{path:9} {name:40} {median:10.2f} {p90:9.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
