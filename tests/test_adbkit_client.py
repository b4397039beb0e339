"""@devicefarmer/adbkit (npm) drives a virtual phone through the real adb server.

tests/clients/adbkit_phone.js uses adbkit as its README does (client.listDevices, trackDevices,
device.shell, push/pull, screencap, install, getProperties, openLogcat, waitBootComplete) and
prints one JSON line per check; the package is pinned in clients/appium/package-lock.json
(installed by `.ci/run` with `npm ci`). Nothing is patched: adbkit's own code is the test.
What each check needs of the phone, and the source followed:
- openLogcat runs `logcat -B *:I` and parses struct logger_entry records with adbkit-logcat
  (system/logging/liblog/include/log/log_read.h; logcat.cpp writes log_msg as read);
- push sends sync DATA chunks of at most 64 KiB (daemon/file_sync_service.cpp, SYNC_DATA_MAX);
- install pushes to /data/local/tmp, runs `pm install -r` and removes the file;
- waitBootComplete runs `while getprop sys.boot_completed 2>/dev/null; do sleep 1; done` and
  hangs up once it read a line "1": a loop that never ends on a phone (getprop succeeds). The
  virtual phone streams each pass's output as it goes and ends the line after MAX_COMMANDS
  commands (shell/interpreter.py), where a phone would run it until the host hangs up.

Skipped only when node or the npm package is missing and MOBILEAGENT_REQUIRE_CLIENTS is unset.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from clients_support import APPIUM_DIR, require_client

#: one worker runs the module: its fixture runs the client once for all of the module's checks
pytestmark = pytest.mark.xdist_group("adbkit_client")

CLIENTS_DIR = APPIUM_DIR  # one npm prefix (clients/appium) holds Appium and adbkit
SCRIPT = Path(__file__).parent / "clients" / "adbkit_phone.js"
CHECKS = ("list", "shell", "pushPull", "screencap", "install", "properties", "openLogcat", "trackDevices",
          "waitBootComplete", "root")
#: bound on the whole script (each check has its own 60 s bound inside it)
SCRIPT_TIMEOUT_S = 900


def _require_adbkit() -> None:
    reason = None
    if shutil.which("node") is None:
        reason = "node is not installed"
    elif not (CLIENTS_DIR / "node_modules" / "@devicefarmer" / "adbkit").is_dir():
        reason = f"@devicefarmer/adbkit is not installed in {CLIENTS_DIR} (npm ci --prefix {CLIENTS_DIR})"
    require_client(reason)


@pytest.fixture(scope="module")
def adbkit(adb_server_port):
    """Run every check once against a phone of its own; check name -> its JSON result."""
    _require_adbkit()
    from pytest_mobileagent.listener import APK_PATH, PACKAGE
    from pytest_mobileagent.virtual_phone import start_phones

    with start_phones(1, adb_server_port=adb_server_port, prepare=False) as phones:
        run = subprocess.run(["node", str(SCRIPT), str(CLIENTS_DIR), str(adb_server_port), phones[0].serial,
                              str(APK_PATH), PACKAGE, *CHECKS],
                             capture_output=True, text=True, timeout=SCRIPT_TIMEOUT_S)
        results = {r["check"]: r for r in map(json.loads, run.stdout.splitlines()) if "check" in r}
        yield results, phones[0], run


def _ok(adbkit, name: str) -> dict:
    results, _phone, run = adbkit
    result = results.get(name)
    assert result is not None, f"no result for {name}; node printed:\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"
    assert result["ok"], result.get("error")
    return result


def test_list_devices(adbkit):
    _results, phone, _run = adbkit
    assert {"id": phone.serial, "type": "device"} in _ok(adbkit, "list")["devices"]


def test_shell(adbkit):
    assert _ok(adbkit, "shell")["output"] == "hello\nuserdebug\n"


def test_push_and_pull(adbkit):
    result = _ok(adbkit, "pushPull")
    assert result["same"] and result["size"] == result["pushed"] == 200_000


def test_screencap_is_a_png_of_the_screen(adbkit):
    result = _ok(adbkit, "screencap")
    assert (result["signature"], result["width"], result["height"]) == ("89504e470d0a1a0a", 1080, 2340)


def test_install(adbkit):
    result = _ok(adbkit, "install")
    assert (result["before"], result["installed"], result["after"], result["leftInTmp"]) == (False, True, True, False)


def test_properties(adbkit):
    result = _ok(adbkit, "properties")
    assert (result["buildType"], result["debuggable"], result["modelMatches"]) == ("userdebug", "1", True)


def test_open_logcat_parses_binary_records(adbkit):
    result = _ok(adbkit, "openLogcat")
    # priority 5 is ANDROID_LOG_WARN (`log -p w`); the pid is the shell's `log` process
    assert (result["priority"], result["message"], result["hasDate"]) == (5, "hello from adbkit", True)


def test_track_devices_sees_the_phone_leave_and_come_back(adbkit):
    events = _ok(adbkit, "trackDevices")["events"]
    # The tracker's first report lists the phone that is already there: ["add", "device"] is
    # seen or not, depending on whether it arrives before the script's listener is attached.
    if events[:1] == [["add", "device"]]:
        events = events[1:]
    # the adb server reports a disconnected TCP device offline, then gone; a connected one
    # offline, then device (adb's transport states)
    assert events == [["change", "offline"], ["remove", "offline"], ["add", "offline"], ["change", "device"]]


def test_root(adbkit):
    assert _ok(adbkit, "root")["rooted"] is True  # adbkit matches "restarting adbd as root"


def test_wait_boot_complete(adbkit):
    assert _ok(adbkit, "waitBootComplete")["booted"] is True
