"""Costs of the listener path on the virtual phone. Prints figures; asserts nothing.

    python benchmarks/bench_listener.py [--runs 30] [--phones 5]

Through a private adb server (the adbutils wheel's adb 36):
  setup      -- prepare_device on a just-booted phone (listener install, enable,
                animations off), and a second run that finds nothing to change
  readiness  -- the session-start check (apps installed + listener probe round trip)
  step       -- one step's observation after a tap, settled the harness's way:
                two hierarchies that agree, read from the listener vs `uiautomator dump`

On a real phone `uiautomator dump` waits for the UI to idle (about a second or
more per call); the listener walks the node tree without that wait. This
script cannot measure a real phone: the saving there is an expectation, not a figure.
"""

from __future__ import annotations

import argparse
import functools
import os
import socket
import statistics
import subprocess
import time


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def row(name: str, samples: list[float]) -> str:
    ms = sorted(s * 1000 for s in samples)
    p10, p90 = ms[len(ms) // 10], ms[min(len(ms) - 1, (len(ms) * 9) // 10)]
    return (f"{name:<48} median {statistics.median(ms):8.2f} ms   p10 {p10:8.2f}   p90 {p90:8.2f}"
            f"   (n={len(ms)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--phones", type=int, default=5)
    args = parser.parse_args()

    import adbutils

    from pytest_mobileagent.device import connect
    from pytest_mobileagent.events.server import EventServer
    from pytest_mobileagent.listener import SOCKET_NAME
    from pytest_mobileagent.setup import prepare_device
    from pytest_mobileagent.setup.readiness import check_ready
    from pytest_mobileagent.virtual_phone import start_phones
    from pytest_mobileagent.virtual_phone.server import bundled_adb_path

    adb, port = bundled_adb_path(), free_port()
    subprocess.run([adb, "-P", str(port), "start-server"], check=True, capture_output=True)
    os.environ["ANDROID_ADB_SERVER_PORT"] = str(port)
    client = adbutils.AdbClient(port=port)
    try:
        first, again = [], []
        for _ in range(args.phones):
            with start_phones(1, adb_server_port=port, prepare=False) as phones:
                device = client.device(phones[0].serial)
                started = time.perf_counter()
                prepare_device(device)
                first.append(time.perf_counter() - started)
                started = time.perf_counter()
                report = prepare_device(device)
                again.append(time.perf_counter() - started)
                assert not report.changed
        print(row("setup of a new phone", first))
        print(row("setup again (nothing to change)", again))

        with start_phones(1, adb_server_port=port) as phones:
            serial = phones[0].serial
            device = connect(serial)
            dial = functools.partial(device.open_stream, f"localabstract:{SOCKET_NAME}")
            ready = []
            for _ in range(args.runs):
                with EventServer(dial=dial) as server:
                    seconds, _installed = check_ready(device, server, ["com.simplemobiletools.calculator"])
                    ready.append(seconds)
            print(row("readiness check (per device, per session)", ready))

            with EventServer(dial=dial) as server:
                assert server.wait_for_listener(5)
                device.launch("com.simplemobiletools.calculator")
                via_listener, via_dump = [], []
                for i in range(args.runs):
                    # Alternate the two paths on the same screens, so both see the same phone.
                    device.tap(540, 1800)
                    started = time.perf_counter()
                    a, b = server.request_hierarchy(5), server.request_hierarchy(5)
                    via_listener.append(time.perf_counter() - started)
                    assert a == b
                    device.tap(540, 1800)
                    started = time.perf_counter()
                    a, b = device.dump_hierarchy(), device.dump_hierarchy()
                    via_dump.append(time.perf_counter() - started)
                    assert a == b
            print(row("step observation via the listener (2 reads)", via_listener))
            print(row("step observation via uiautomator dump (2 reads)", via_dump))
            device.close()
    finally:
        subprocess.run([adb, "-P", str(port), "kill-server"], capture_output=True)


if __name__ == "__main__":
    main()
