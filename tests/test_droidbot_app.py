"""DroidBot's helper app on a virtual phone, driven as DroidBot drives it.

DroidBot itself cannot be installed here: PyPI's ``droidbot`` is 1.0.0a2 (2015,
Python 2, without the helper app or the dfs_greedy policy), and its current code
is only in its repository. So this test plays DroidBot's part with DroidBot's own
steps and protocol (github:honeynet/droidbot, droidbot/adapter/droidbot_app.py,
droidbot_ime.py, device.py), through the real adb server:

- install the app with `adb install` (a code-less stand-in APK with the app's
  manifest: package io.github.ylimit.droidbotapp, its accessibility service and IME;
  built here with the SDK tools as tests/listener builds its test APKs);
- ``settings put secure enabled_accessibility_services`` and ``accessibility_enabled 1``
  (adb.enable_accessibility_service), then wait for the service in
  ``dumpsys activity services`` with Device.get_service_names' regex;
- ``adb forward tcp:P tcp:7336``, read ``>BBI`` packets of ``AccEvent >>> {json}``
  and flatten ``root_node`` as DroidBotAppConn.__view_tree_to_list does;
- type through its IME broadcast (``am broadcast -a DROIDBOT_INPUT_TEXT``).
"""

from __future__ import annotations

import json
import re
import socket
import struct
import subprocess
from pathlib import Path

import pytest

from listener.listener_apks import ANDROID_JAR, SOURCE_DIR, require_tool

PACKAGE = "io.github.ylimit.droidbotapp"
ACCESSIBILITY_SERVICE = PACKAGE + "/io.github.privacystreams.accessibility.PSAccessibilityService"
IME_SERVICE = PACKAGE + "/.DroidBotIME"
NOTES = "com.simplemobiletools.notes.pro"
#: Device.get_service_names' pattern for `dumpsys activity services` lines
SERVICE_RE = re.compile(r"^.+ServiceRecord{.+ ([A-Za-z0-9_.]+)/([A-Za-z0-9_.]+)")

MANIFEST = f"""<?xml version="1.0" encoding="utf-8"?>
<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="{PACKAGE}">
  <uses-sdk android:minSdkVersion="16" android:targetSdkVersion="25" />
  <uses-permission android:name="android.permission.INTERNET" />
  <application android:hasCode="false" android:label="DroidBot">
    <activity android:name=".SettingsActivity">
      <intent-filter>
        <action android:name="android.intent.action.MAIN" />
        <category android:name="android.intent.category.LAUNCHER" />
      </intent-filter>
    </activity>
    <service android:name=".DroidBotIME" android:permission="android.permission.BIND_INPUT_METHOD">
      <intent-filter><action android:name="android.view.InputMethod" /></intent-filter>
    </service>
    <service android:name="io.github.privacystreams.accessibility.PSAccessibilityService"
             android:exported="false" android:permission="android.permission.BIND_ACCESSIBILITY_SERVICE">
      <intent-filter><action android:name="android.accessibilityservice.AccessibilityService" /></intent-filter>
    </service>
  </application>
</manifest>
"""


@pytest.fixture(scope="module")
def droidbot_apk(tmp_path_factory) -> Path:
    aapt, zipalign, apksigner = (require_tool(t) for t in ("aapt", "zipalign", "apksigner"))
    work = tmp_path_factory.mktemp("droidbot-apk")
    (work / "AndroidManifest.xml").write_text(MANIFEST)
    subprocess.run([aapt, "package", "-f", "-M", str(work / "AndroidManifest.xml"), "-I", ANDROID_JAR,
                    "--version-code", "1", "--version-name", "1.0", "-F", str(work / "unaligned.apk")],
                   check=True, capture_output=True, timeout=120)
    subprocess.run([zipalign, "-f", "4", str(work / "unaligned.apk"), str(work / "aligned.apk")],
                   check=True, capture_output=True, timeout=120)
    out = work / "droidbotApp.apk"
    subprocess.run([apksigner, "sign", "--v4-signing-enabled", "false", "--ks", str(SOURCE_DIR / "debug.keystore"),
                    "--ks-pass", "pass:android", "--key-pass", "pass:android", "--ks-key-alias", "listener",
                    "--out", str(out), str(work / "aligned.apk")], check=True, capture_output=True, timeout=120)
    return out


@pytest.fixture(scope="module")
def droidbot_phone(adb_server_port, droidbot_apk):
    """A phone of its own with DroidBot's app installed and its accessibility service on."""
    import adbutils

    from pytest_mobileagent.virtual_phone import start_phones
    from pytest_mobileagent.virtual_phone.server import bundled_adb_path

    with start_phones(1, adb_server_port=adb_server_port) as phones:
        running = phones[0]
        adb = [str(bundled_adb_path()), "-P", str(adb_server_port), "-s", running.serial]
        installed = subprocess.run(adb + ["install", str(droidbot_apk)], capture_output=True, text=True, timeout=120)
        assert "Success" in installed.stdout, installed.stdout + installed.stderr
        device = adbutils.AdbClient(port=adb_server_port).device(running.serial)
        yield running, device, adb


def _service_names(device) -> list[str]:
    """Device.get_service_names: package/service of every ServiceRecord line."""
    names = []
    for line in device.shell("dumpsys activity services").splitlines():
        match = SERVICE_RE.search(line)
        if match:
            names.append(f"{match.group(1)}/{match.group(2)}")
    return names


def _enable_accessibility(device) -> None:
    """adb.enable_accessibility_service, as DroidBot runs it."""
    enabled = device.shell("settings get secure enabled_accessibility_services").strip()
    names = [] if enabled in ("", "null") else enabled.split(":")
    if ACCESSIBILITY_SERVICE not in names:
        names.append(ACCESSIBILITY_SERVICE)
        device.shell("settings put secure enabled_accessibility_services %s" % ":".join(names))
    device.shell("settings put secure accessibility_enabled 1")


def _read_exactly(sock: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        if not chunk:
            raise EOFError(f"stream closed after {len(data)} of {size} bytes")
        data += chunk
    return data


def _read_message(sock: socket.socket) -> str:
    """DroidBotAppConn.read_head + sock_read."""
    _, _, length = struct.unpack(">BBI", _read_exactly(sock, 6))
    return _read_exactly(sock, length).decode()


def _view_list(view_tree: dict) -> list[dict]:
    """DroidBotAppConn.__view_tree_to_list: the tree flattened, bounds as [[l, t], [r, b]]."""
    views: list[dict] = []

    def visit(view: dict, parent: int) -> int:
        view_id = len(views)
        left, top, right, bottom = view["bounds"]
        flat = dict(view, temp_id=view_id, parent=parent, bounds=[[left, top], [right, bottom]],
                    size=f"{right - left}*{bottom - top}")
        views.append(flat)
        flat["children"] = [visit(child, view_id) for child in view["children"]]
        return view_id

    visit(view_tree, -1)
    return views


def test_service_shows_once_enabled_and_streams_the_view_tree(droidbot_phone, free_port):
    running, device, adb = droidbot_phone
    assert ACCESSIBILITY_SERVICE not in _service_names(device)
    # nothing listens on 7336 before the service runs: adbd refuses, as for any closed port
    import adbutils

    with pytest.raises(adbutils.AdbError, match="closed"):
        device.create_connection(adbutils.Network.TCP, 7336)
    _enable_accessibility(device)
    assert ACCESSIBILITY_SERVICE in _service_names(device)

    port = free_port()
    subprocess.run(adb + ["forward", f"tcp:{port}", "tcp:7336"], check=True, timeout=60)
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        device.shell(f"am start -n {NOTES}/.activities.SplashActivity.Orange")
        root = None
        for _ in range(50):  # events of the start, newest last; bounded
            message = _read_message(sock)
            assert message.startswith("AccEvent >>> ")
            event = json.loads(message[len("AccEvent >>> "):])
            assert {"time_created", "event", "event_time", "event_type", "package_name"} <= set(event)
            if event["package_name"] == NOTES and event.get("root_node", {}).get("package") == NOTES:
                root = event["root_node"]
                break
        assert root is not None, "no AccEvent with the Notes window"
        views = _view_list(root)
        by_id = {v.get("resource_id"): v for v in views}
        fab = by_id[f"{NOTES}:id/new_note"]
        assert fab["clickable"] and fab["visible"] and fab["enabled"]
        assert views[fab["parent"]]["temp_id"] == fab["parent"]
        assert all(v["child_count"] == len(v["children"]) for v in views)
        # a click on the FAB is a TYPE_VIEW_CLICKED event, then the new-note dialog's window
        (left, top), (right, bottom) = fab["bounds"]
        device.shell(f"input tap {(left + right) // 2} {(top + bottom) // 2}")
        seen = []
        for _ in range(50):
            event = json.loads(_read_message(sock)[len("AccEvent >>> "):])
            seen.append(event["event"]["event_type"])
            if any(v.get("resource_id") == f"{NOTES}:id/locked_note_title"
                   for v in _view_list(event["root_node"])):
                break
        assert "TYPE_VIEW_CLICKED" in seen
    subprocess.run(adb + ["forward", "--remove", f"tcp:{port}"], check=True, timeout=60)


def test_ime_broadcast_types_into_the_focused_field(droidbot_phone):
    running, device, adb = droidbot_phone
    device.shell(f"am start -n {NOTES}/.activities.SplashActivity.Orange")
    assert IME_SERVICE in device.shell("ime list -a -s").splitlines()
    # DroidBotIme.connect
    r_enable = device.shell("ime enable %s" % IME_SERVICE)
    assert "now enabled" in r_enable or "already enabled" in r_enable
    assert f"{IME_SERVICE} selected" in device.shell("ime set %s" % IME_SERVICE)
    try:
        assert IME_SERVICE in _service_names(device)  # the current input method is bound
        xml = device.dump_hierarchy()
        if f'{NOTES}:id/locked_note_title' not in xml:
            node = re.search(rf'resource-id="{NOTES}:id/new_note"[^>]*bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"', xml)
            device.shell(f"input tap {(int(node[1]) + int(node[3])) // 2} {(int(node[2]) + int(node[4])) // 2}")
        # DroidBotIme.input_text: spaces become "--"; mode 0 sets, mode 1 appends
        device.shell("am broadcast -a DROIDBOT_INPUT_TEXT --es text hello--world --ei mode 0")
        device.shell("am broadcast -a DROIDBOT_INPUT_TEXT --es text ! --ei mode 1")
        assert 'text="hello--world!"' in device.dump_hierarchy()
        device.shell("am broadcast -a DROIDBOT_INPUT_TEXT --es text again --ei mode 0")
        assert 'text="again"' in device.dump_hierarchy()
    finally:
        # DroidBotIme.disconnect
        assert "now disabled" in device.shell("ime disable %s" % IME_SERVICE)
        assert IME_SERVICE not in _service_names(device)
    # not the current input method any more: its receiver is gone (the field is still focused)
    device.shell("am broadcast -a DROIDBOT_INPUT_TEXT --es text ignored --ei mode 0")
    assert 'text="again"' in device.dump_hierarchy()
    device.shell("input keyevent BACK")


def test_disabling_the_service_stops_its_socket(droidbot_phone):
    import adbutils

    running, device, adb = droidbot_phone
    _enable_accessibility(device)
    with device.create_connection(adbutils.Network.TCP, 7336):
        pass
    device.shell("settings put secure enabled_accessibility_services ''")
    assert ACCESSIBILITY_SERVICE not in _service_names(device)
    with pytest.raises(adbutils.AdbError, match="closed"):
        device.create_connection(adbutils.Network.TCP, 7336)


@pytest.fixture
def free_port():
    def pick() -> int:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            return sock.getsockname()[1]
    return pick


# -- exploring an app from the stream, as DroidBot's dfs_greedy policy does ----------------------
def _signature(view: dict) -> str:
    """DeviceState.__get_view_signature."""
    text = view.get("text", "None")
    if text is None or len(text) > 50:
        text = "None"
    flags = ",".join(key if view.get(key) else "" for key in ("enabled", "checked", "selected"))
    return f"[class]{view.get('class', 'None')}[resource_id]{view.get('resource_id', 'None')}[text]{text}[{flags}]"


def _state_str(activity: str, views: list[dict]) -> str:
    """DeviceState.__get_state_str_raw (md5 left out: the raw string is the identity)."""
    return "%s{%s}" % (activity, ",".join(sorted({_signature(v) for v in views})))


def _screen_key(views: list[dict]) -> list:
    return sorted((v.get("resource_id", ""), v.get("text", ""), tuple(map(tuple, v["bounds"]))) for v in views)


def _dump_key(xml: str) -> list:
    """The same key from `uiautomator dump` (the test's own reading of the phone's screen)."""
    nodes = re.findall(r'<node [^>]*?text="([^"]*)" resource-id="([^"]*)"[^>]*bounds="\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]"',
                       xml)
    import html

    return sorted((rid, html.unescape(text), ((int(l), int(t)), (int(r), int(b))))
                  for text, rid, l, t, r, b in nodes)


def test_exploring_notes_from_the_stream_visits_distinct_states(droidbot_phone, free_port):
    """50 events chosen from the 7336 stream (untried clickable views first, else BACK), as
    UtgGreedySearchPolicy does, reach at least 10 distinct DroidBot states of Simple Notes.

    Each step waits for the AccEvent showing the screen the action led to: it reads packets until
    one's view tree is the screen `uiautomator dump` shows after the action (bounded by the socket
    timeout), so the tree a step acts on is never stale.
    """
    running, device, adb = droidbot_phone
    _enable_accessibility(device)
    port = free_port()
    subprocess.run(adb + ["forward", f"tcp:{port}", "tcp:7336"], check=True, timeout=60)
    import random

    rng = random.Random(0)
    states: set[str] = set()
    tried: dict[str, set[str]] = {}
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        views: list[dict] = []

        def settle() -> list[dict]:
            nonlocal views
            wanted = _dump_key(device.dump_hierarchy())
            while _screen_key(views) != wanted:
                event = json.loads(_read_message(sock)[len("AccEvent >>> "):])
                if "root_node" in event:
                    views = _view_list(event["root_node"])
            return views

        # the policy's first events: kill the app, then start it (a new window: an event)
        device.shell(f"am force-stop {NOTES}")
        device.shell(f"am start -n {NOTES}/.activities.SplashActivity.Orange")
        for _ in range(50):
            views = settle()
            package, activity = device.app_current().package, device.app_current().activity
            if package != NOTES:  # DroidBot restarts the app it explores
                device.shell(f"am start -n {NOTES}/.activities.SplashActivity.Orange")
                continue
            state = _state_str(activity, views)
            states.add(state)
            done = tried.setdefault(state, set())
            # DeviceState.get_possible_input: touch the clickable, long touch the long-clickable,
            # type into the editable; then KeyEvent BACK; untried ones first, in a seeded order
            events = []
            for view in views:
                if not (view.get("enabled") and view.get("visible")):
                    continue
                (left, top), (right, bottom) = view["bounds"]
                centre = f"{(left + right) // 2} {(top + bottom) // 2}"
                if view.get("clickable"):
                    events.append((f"touch {_signature(view)}{view['bounds']}", [f"input tap {centre}"]))
                if view.get("long_clickable"):
                    events.append((f"long {_signature(view)}{view['bounds']}",
                                   [f"input swipe {centre} {centre} 1000"]))
                if view.get("editable"):
                    events.append((f"text {_signature(view)}{view['bounds']}",
                                   [f"input tap {centre}", "input text HelloWorld"]))
            rng.shuffle(events)
            events.append(("back", ["input keyevent BACK"]))
            name, commands = next(((n, c) for n, c in events if n not in done), events[-1])
            done.add(name)
            for command in commands:
                device.shell(command)
    subprocess.run(adb + ["forward", "--remove", f"tcp:{port}"], check=True, timeout=60)
    assert len(states) >= 10, f"{len(states)} states"
