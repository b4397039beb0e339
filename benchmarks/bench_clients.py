"""Automation clients on the virtual phone against the phone's raw adb round trip.

Run: python benchmarks/bench_clients.py [--runs 40]

One phone in its own process on a private adb server (as the device pool
boots them), Simple Calculator in front. Prints median and spread (p10-p90)
in ms, asserts nothing:

- raw: adbutils' ``dump_hierarchy()`` (``uiautomator dump`` + a sync pull),
  ``click(x, y)`` (``input tap``), and the two together -- what a client
  without an on-device server pays to find a view and tap it;
- uiautomator2 3.7.1 (``u2.connect``): ``dump_hierarchy()`` (JSON-RPC
  ``dumpWindowHierarchy`` over device port 9008) and a selector click
  ``d(resourceId=...).click()`` (waitForExists + objInfo + click(x, y));
- the ratios the issue bounds at 2x: uiautomator2's dump against the raw
  dump, its selector click against the raw dump + tap;
- where uiautomator2's time goes: one ``jsonrpc.ping()`` (the client's floor
  per call: a new adb stream to tcp:9008, then http.client sends the headers
  and the body in two send() calls, so Nagle holds the body until the adb
  server's delayed ACK -- host-side TCP, the same with a real phone), and
  the phone's own share, the same JSON-RPC requests sent whole on one open
  keep-alive stream.

The taps alternate between "1" and "C" so that every click changes the screen.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _phones import served_phones  # noqa: E402
from _timing import row, time_ms  # noqa: E402

CALC = "com.simplemobiletools.calculator"
KEYS = (f"{CALC}:id/btn_1", f"{CALC}:id/btn_clear")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40)
    runs = parser.parse_args().runs

    import adbutils
    import uiautomator2 as u2

    with served_phones(1) as (serials, adb_port):
        device = adbutils.AdbClient(port=adb_port).device(serials[0])
        device.shell(f"monkey -p {CALC} -c android.intent.category.LAUNCHER 1")
        xml = device.dump_hierarchy()
        centres = {}
        for key in KEYS:
            left, top, right, bottom = map(int, re.search(
                rf'resource-id="{re.escape(key)}"[^>]*bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"', xml).groups())
            centres[key] = ((left + right) // 2, (top + bottom) // 2)

        start = time.perf_counter()
        d = u2.connect(device)
        connect_ms = (time.perf_counter() - start) * 1000
        d.dump_hierarchy()  # warm both paths once
        device.dump_hierarchy()

        print(f"uiautomator2 {importlib.metadata.version('uiautomator2')} on a virtual phone, {runs} runs each")
        print(f"  {'u2.connect (push jar, start server, ping)':<44} {connect_ms:7.0f} ms (once)")
        raw_dump = row("raw: uiautomator dump + pull (adbutils)", time_ms(lambda i: device.dump_hierarchy(), runs))
        row("raw: input tap (adbutils click)", time_ms(lambda i: device.click(*centres[KEYS[i % 2]]), runs))

        def raw_find_and_tap(i: int) -> None:
            device.dump_hierarchy()
            device.click(*centres[KEYS[i % 2]])

        raw_both = row("raw: dump + tap", time_ms(raw_find_and_tap, runs))
        u2_dump = row("uiautomator2: dump_hierarchy()", time_ms(lambda i: d.dump_hierarchy(), runs))
        u2_click = row("uiautomator2: d(resourceId=...).click()",
                        time_ms(lambda i: d(resourceId=KEYS[i % 2]).click(), runs))
        print(f"  ratio u2 dump / raw dump              {u2_dump / raw_dump:5.2f}x")
        print(f"  ratio u2 selector click / raw dump+tap {u2_click / raw_both:5.2f}x")
        print("where uiautomator2's time goes")
        row("uiautomator2: jsonrpc.ping() (per-call floor)", time_ms(lambda i: d.jsonrpc.ping(), runs))
        for label, split, nodelay in (("new stream, request in one send()", False, False),
                                      ("new stream, headers + body in two send()s", True, False),
                                      ("two send()s, TCP_NODELAY on the client socket", True, True)):
            row(f"raw ping: {label}", time_ms(lambda i: _fresh_ping(device, split, nodelay), runs))
        with device.create_connection(adbutils.Network.TCP, 9008) as stream:
            selector = {"mask": 0x200000, "childOrSibling": [], "childOrSiblingSelector": [],
                        "resourceId": KEYS[1]}
            for method, params in (("ping", []), ("objInfo", [selector]), ("dumpWindowHierarchy", [False, 50])):
                row(f"phone: {method} on an open stream", time_ms(lambda i: _rpc(stream, method, params), runs))
        d.stop_uiautomator()


def _fresh_ping(device, split: bool, nodelay: bool = False) -> None:
    """JSON-RPC ping on a new tcp:9008 stream; ``split`` sends it as http.client does.

    ``nodelay`` sets TCP_NODELAY on the host socket, as http.client's own connect() does
    and uiautomator2's AdbHTTPConnection (which takes adbutils' socket instead) does not:
    without it Nagle holds the body until the adb server's delayed ACK of the headers.
    """
    import socket

    import adbutils

    with device.create_connection(adbutils.Network.TCP, 9008) as stream:
        if nodelay:
            stream.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        _rpc(stream, "ping", [], split=split)


def _rpc(stream, method: str, params: list, split: bool = False) -> bytes:
    """One JSON-RPC request written in one piece on a keep-alive stream; the reply body."""
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).encode()
    head = (b"POST /jsonrpc/0 HTTP/1.1\r\nContent-Type: application/json\r\n"
            + f"Content-Length: {len(body)}\r\n\r\n".encode())
    if split:
        stream.sendall(head)
        stream.sendall(body)
    else:
        stream.sendall(head + body)
    reply = b""
    while b"\r\n\r\n" not in reply:
        reply += stream.recv(65536)
    head, _, rest = reply.partition(b"\r\n\r\n")
    size = int(re.search(rb"Content-Length: (\d+)", head).group(1))
    while len(rest) < size:
        rest += stream.recv(65536)
    return rest


if __name__ == "__main__":
    main()
