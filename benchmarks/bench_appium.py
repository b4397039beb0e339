"""Appium (UiAutomator2 driver) on the virtual phone against the phone's raw adb round trip.

Run: python benchmarks/bench_appium.py [--runs 30]   (needs `npm ci --prefix clients/appium`)

One phone in its own process on a private adb server, the real Appium server
(clients/appium) on 127.0.0.1, Appium-Python-Client, Simple Calculator in
front. Prints median and spread (p10-p90) in ms, asserts nothing:

- session creation once (installs, `am instrument`, forward, the server's session);
- raw: adbutils' ``dump_hierarchy()`` + ``click(x, y)``, what a client without an
  on-device server pays to find a view and tap it;
- Appium: ``find_element(ID, ...).click()`` (two proxied requests), ``page_source``,
  ``find_element(XPATH, ...)``; each command goes client -> Appium -> adb forward
  -> the phone's server;
- the phone's own share: ``GET /source`` sent straight to the forwarded port.

The taps alternate between "1" and "C" so that every click changes the screen.
"""

from __future__ import annotations

import argparse
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _phones import served_phones  # noqa: E402
from _timing import row, time_ms  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
APPIUM_DIR = ROOT / "clients" / "appium"
CALC = "com.simplemobiletools.calculator"
KEYS = ("btn_1", "btn_clear")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    runs = parser.parse_args().runs

    import adbutils
    from appium import webdriver
    from appium.options.android import UiAutomator2Options
    from appium.webdriver.common.appiumby import AppiumBy

    from pytest_mobileagent.virtual_phone.server import bundled_adb_path

    appium_entry = APPIUM_DIR / "node_modules" / "appium" / "index.js"
    if not appium_entry.is_file():
        raise SystemExit(f"bench_appium: Appium is not installed ({appium_entry} is missing): "
                         "run `npm ci --prefix clients/appium` first")

    with served_phones(1) as (serials, adb_port), tempfile.TemporaryDirectory() as home:
        (Path(home) / "platform-tools").mkdir()
        (Path(home) / "platform-tools" / "adb").symlink_to(bundled_adb_path())
        port = _free_port()
        env = dict(os.environ, APPIUM_HOME=str(APPIUM_DIR), ANDROID_HOME=home)
        appium = subprocess.Popen(["node", str(appium_entry), "server",
                                   "--address", "127.0.0.1", "--port", str(port), "--log-level", "error"],
                                  env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 120
            while True:
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/status", timeout=5).read()
                    break
                except OSError:
                    if time.monotonic() > deadline or appium.poll() is not None:
                        exited = appium.poll()
                        raise SystemExit("bench_appium: the Appium server " + (
                            f"exited with {exited}" if exited is not None else "did not answer /status in 120 s"))
                    time.sleep(0.2)  # polling Appium's readiness, bounded by the deadline
            device = adbutils.AdbClient(port=adb_port).device(serials[0])
            device.shell(f"monkey -p {CALC} -c android.intent.category.LAUNCHER 1")
            xml = device.dump_hierarchy()
            centres = {}
            for key in KEYS:
                left, top, right, bottom = map(int, re.search(
                    rf'resource-id="{CALC}:id/{key}"[^>]*bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"', xml).groups())
                centres[key] = ((left + right) // 2, (top + bottom) // 2)

            options = UiAutomator2Options()
            options.udid = serials[0]
            options.set_capability("appium:adbPort", adb_port)
            start = time.perf_counter()
            driver = webdriver.Remote(f"http://127.0.0.1:{port}", options=options)
            session_ms = (time.perf_counter() - start) * 1000
            try:
                print(f"Appium with its UiAutomator2 driver on a virtual phone, {runs} runs each")
                print(f"  {'new session (installs, am instrument, forward)':<46} {session_ms:7.0f} ms (once)")

                def raw_find_and_tap(i: int) -> None:
                    device.dump_hierarchy()
                    device.click(*centres[KEYS[i % 2]])

                raw = row("raw: uiautomator dump + input tap", time_ms(raw_find_and_tap, runs))
                click = row("Appium: find_element(ID).click()",
                             time_ms(lambda i: driver.find_element(AppiumBy.ID, KEYS[i % 2]).click(), runs))
                row("Appium: page_source", time_ms(lambda i: driver.page_source, runs))
                row("Appium: find_element(XPATH)", time_ms(
                    lambda i: driver.find_element(AppiumBy.XPATH, f'//*[@resource-id="{CALC}:id/result"]'), runs))
                print(f"  ratio Appium find+click / raw dump+tap   {click / raw:5.2f}x")
                forwarded = _free_port()
                device.forward(f"tcp:{forwarded}", "tcp:6790")
                # the phone's server's own session id, as the driver holds it
                server_sid = __import__("json").loads(urllib.request.urlopen(
                    f"http://127.0.0.1:{forwarded}/sessions", timeout=30).read())["value"][0]["id"]
                row("phone: GET /source on the forwarded port", time_ms(lambda i: urllib.request.urlopen(
                    f"http://127.0.0.1:{forwarded}/session/{server_sid}/source", timeout=30).read(), runs))
            finally:
                driver.quit()
        finally:
            appium.terminate()
            appium.wait(timeout=30)


if __name__ == "__main__":
    main()
