"""The phone's model of Appium's UiAutomator2 server: routes, lookups, errors, and how it is started.

Response shapes and errors are the server's (github:appium/appium-uiautomator2-server):
``{"value": ..., "sessionId": ...}``, errors as ``{"error", "message", "stacktrace"}``
with the exception's HTTP status. The end-to-end run with the real Appium server
is tests/test_appium_client.py; here each behaviour is checked on its own,
in-process for the routes and through the real adb server for the start.
"""

from __future__ import annotations

import json
import re
import subprocess

import pytest
from hypothesis import given, settings, strategies as st

from pytest_mobileagent.virtual_phone.phone import VirtualPhone
from pytest_mobileagent.virtual_phone.programs.appium_uia2 import UiAutomator2Server

CALC = "com.simplemobiletools.calculator"


@pytest.fixture
def server():
    phone = VirtualPhone()
    phone.run_shell(f"am start -n {CALC}/.activities.SplashActivity.Orange")
    return UiAutomator2Server(phone, "10.6.6", 278)


def call(server, method, path, body=None):
    status, content_type, data = server.handle(method, path, b"" if body is None else json.dumps(body).encode())
    assert content_type == "application/json"
    return status, json.loads(data)


@pytest.fixture
def session(server):
    status, reply = call(server, "POST", "/session", {"capabilities": {"firstMatch": [{"platformName": "Android"}]}})
    assert status == 200
    return reply["value"]["sessionId"]


def find(server, session, strategy, selector):
    return call(server, "POST", f"/session/{session}/element", {"strategy": strategy, "selector": selector})


def test_status_names_the_installed_server_build(server):
    status, reply = call(server, "GET", "/status")
    assert status == 200
    assert reply == {"value": {"ready": True, "message": "UiAutomator2 Server is ready to accept commands",
                               "build": {"version": "10.6.6", "versionCode": 278}}, "sessionId": None}
    assert call(server, "GET", "/wd/hub/status")[1] == reply  # the legacy prefix is stripped


def test_unknown_routes_and_sessions(server, session):
    status, reply = call(server, "GET", "/session/x/nothing/here")
    assert (status, reply["value"]["error"]) == (404, "unknown command")
    status, reply = call(server, "GET", "/session/not-it/source")
    assert status == 404
    assert reply["value"]["error"] == "invalid session id"
    assert reply["value"]["message"] == "The session identified by not-it is not known"
    assert call(server, "GET", "/sessions")[1]["value"][0]["id"] == session
    assert call(server, "DELETE", f"/session/{session}")[0] == 200
    assert call(server, "GET", "/sessions")[1]["value"] == []
    assert call(server, "GET", f"/session/{session}/source")[1]["value"]["error"] == "invalid session id"


def test_new_session_needs_capabilities(server):
    status, reply = call(server, "POST", "/session", {"desiredCapabilities": {}})
    assert (status, reply["value"]["error"]) == (500, "session not created")
    status, reply = server.handle("POST", "/session", b"{not json")[:2], None
    assert status[0] == 400


def test_find_strategies_and_their_errors(server, session):
    assert find(server, session, "id", "btn_1")[0] == 200
    assert find(server, session, "id", f"{CALC}:id/btn_1")[0] == 200
    assert find(server, session, "xpath", "//android.widget.Button[@text='7']")[0] == 200
    assert find(server, session, "class name", "android.widget.Button")[0] == 200
    assert find(server, session, "-android uiautomator", 'new UiSelector().resourceId("%s:id/btn_2")' % CALC)[0] == 200
    status, reply = find(server, session, "id", "btn_none")
    assert (status, reply["value"]["error"]) == (404, "no such element")
    status, reply = find(server, session, "css selector", "#x")
    assert (status, reply["value"]["error"]) == (400, "invalid selector")
    assert "Only the following selector strategies are supported" in reply["value"]["message"]
    status, reply = find(server, session, "xpath", "//*[")
    assert (status, reply["value"]["error"]) == (400, "invalid selector")
    status, reply = find(server, session, "-android uiautomator", "new UiSelector().bogus(1)")
    assert (status, reply["value"]["error"]) == (400, "invalid selector")
    status, reply = call(server, "POST", f"/session/{session}/elements", {"strategy": "id", "selector": "nope"})
    assert (status, reply["value"]) == (200, [])


def test_elements_act_on_the_phone_and_go_stale(server, session):
    seven = find(server, session, "id", "btn_7")[1]["value"]["ELEMENT"]
    for key in ("btn_7", "btn_plus", "btn_8", "btn_equals"):
        element = find(server, session, "id", key)[1]["value"]["element-6066-11e4-a52e-4f735466cecf"]
        assert call(server, "POST", f"/session/{session}/element/{element}/click", {})[0] == 200
    result = find(server, session, "id", "result")[1]["value"]["ELEMENT"]
    assert call(server, "GET", f"/session/{session}/element/{result}/text")[1]["value"] == "15"
    assert call(server, "GET", f"/session/{session}/element/{seven}/attribute/clickable")[1]["value"] == "true"
    assert call(server, "GET", f"/session/{session}/element/{seven}/name")[1]["value"] == "android.widget.Button"
    rect = call(server, "GET", f"/session/{session}/element/{seven}/rect")[1]["value"]
    assert set(rect) == {"x", "y", "width", "height"} and rect["width"] > 0
    status, reply = call(server, "GET", f"/session/{session}/element/{seven}/attribute/bogus")
    assert status == 500 and "'bogus' attribute is unknown for the element" in reply["value"]["message"]
    status, reply = call(server, "GET", f"/session/{session}/element/no-such-id/text")
    assert (status, reply["value"]["error"]) == (404, "no such element")
    # the app goes away: its button is gone from the screen
    assert call(server, "POST", f"/session/{session}/appium/device/press_keycode", {"keycode": 3})[0] == 200
    status, reply = call(server, "GET", f"/session/{session}/element/{seven}/text")
    assert (status, reply["value"]["error"]) == (404, "stale element reference")
    assert reply["value"]["message"] == "The element 'By.id: btn_7' does not exist in DOM anymore"


def test_page_source_is_appiums_xml(server, session):
    from lxml import etree

    source = call(server, "GET", f"/session/{session}/source")[1]["value"]
    assert source.startswith("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n")
    root = etree.fromstring(source.encode())
    assert (root.tag, root.get("class"), root.get("width"), root.get("height")) == (
        "hierarchy", "hierarchy", "1080", "2340")
    button = root.xpath(f"//*[@resource-id='{CALC}:id/btn_7']")[0]
    assert button.tag == button.get("class") == "android.widget.Button"
    assert list(button.attrib)[:3] == ["index", "package", "class"]  # UiElementSnapshot's order
    assert button.get("displayed") == "true"


def test_press_keycode_rejects_unknown_codes(server, session):
    status, reply = call(server, "POST", f"/session/{session}/appium/device/press_keycode", {"keycode": 99999})
    assert (status, reply["value"]["error"]) == (400, "invalid element state")
    status, reply = call(server, "POST", f"/session/{session}/appium/device/press_keycode", {"keycode": "x"})
    assert (status, reply["value"]["error"]) == (400, "invalid argument")


@settings(max_examples=40, deadline=None)
@given(st.text(max_size=40))
def test_any_selector_text_gets_an_answer_never_a_crash(selector):
    phone = VirtualPhone()
    server = UiAutomator2Server(phone, "1", 1)
    sid = call(server, "POST", "/session", {"capabilities": {}})[1]["value"]["sessionId"]
    for strategy in ("id", "xpath", "accessibility id", "class name", "-android uiautomator"):
        status, reply = find(server, sid, strategy, selector)
        assert status in (200, 400, 404), reply
        assert status == 200 or reply["value"]["error"] in ("no such element", "invalid selector")


# -- started as the driver starts it, through the real adb server -------------------------------
def _server_apks():
    """The two server APKs of the npm package, when it is installed (clients/appium)."""
    from pathlib import Path

    base = Path(__file__).resolve().parents[2] / "clients" / "appium" / "node_modules" / \
        "appium-uiautomator2-driver" / "node_modules" / "appium-uiautomator2-server" / "apks"
    apks = sorted(base.glob("*.apk"))
    if len(apks) != 2:
        import os

        reason = f"appium-uiautomator2-server's APKs are not in {base} (npm ci --prefix clients/appium)"
        if os.environ.get("MOBILEAGENT_REQUIRE_CLIENTS"):
            pytest.fail(reason)
        pytest.skip(reason)
    return apks


def test_am_instrument_starts_the_server_and_force_stop_ends_it(phone_factory, adb_server_port):
    import adbutils

    from pytest_mobileagent.virtual_phone.server import bundled_adb_path

    apks = _server_apks()
    running = phone_factory(1)[0]
    device = adbutils.AdbClient(port=adb_server_port).device(running.serial)
    adb = [str(bundled_adb_path()), "-P", str(adb_server_port), "-s", running.serial]
    target = "io.appium.uiautomator2.server.test/androidx.test.runner.AndroidJUnitRunner"
    missing = subprocess.run(adb + ["shell", "am", "instrument", "-w", target], capture_output=True, text=True,
                             timeout=60)
    assert missing.returncode == 255
    assert f"Unable to find instrumentation info for: ComponentInfo{{{target}}}" in missing.stdout
    assert missing.stderr.endswith(f"INSTRUMENTATION_FAILED: {target}\n")
    for apk in apks:
        assert "Success" in subprocess.run(adb + ["install", str(apk)], capture_output=True, text=True,
                                           timeout=120).stdout
    assert device.shell("pm list instrumentation") == \
        f"instrumentation:{target} (target=io.appium.uiautomator2.server)"
    instrument = subprocess.Popen(adb + ["shell", "am", "instrument", "-w", target], stdout=subprocess.PIPE)
    try:
        # the runner's first status: "\nCLASS:" (no newline until the test ends)
        header = b""
        while not header.endswith(b":"):
            chunk = instrument.stdout.read1(4096)
            assert chunk, f"am instrument ended early: {header!r}"
            header += chunk
        assert header == b"\nio.appium.uiautomator2.server.test.AppiumUiAutomator2Server:"
        with device.create_connection(adbutils.Network.TCP, 6790) as conn:
            conn.settimeout(30)
            conn.sendall(b"GET /status HTTP/1.1\r\nHost: x\r\n\r\n")
            reply = b""
            while b"}}" not in reply and (chunk := conn.recv(4096)):
                reply += chunk
        assert reply.startswith(b"HTTP/1.1 200 ")
        assert b'"versionCode": 278' in reply or b'"versionCode":278' in reply
        assert re.search(r"\bio\.appium\.uiautomator2\.server$", device.shell("ps -A"), re.M)
        device.shell("am force-stop io.appium.uiautomator2.server")
        rest = instrument.communicate(timeout=60)[0]
        assert rest.endswith(b"INSTRUMENTATION_RESULT: shortMsg=Process crashed.\nINSTRUMENTATION_CODE: 0\n")
    finally:
        if instrument.poll() is None:
            instrument.kill()
            instrument.wait(timeout=30)
    with pytest.raises(adbutils.AdbError, match="closed"):
        device.create_connection(adbutils.Network.TCP, 6790)
    assert "io.appium.uiautomator2.server" not in device.shell("ps -A")


def test_http_keep_alive_and_bad_requests(phone_factory, adb_server_port):
    import adbutils

    apks = _server_apks()
    from pytest_mobileagent.virtual_phone.server import bundled_adb_path

    running = phone_factory(1)[0]
    adb = [str(bundled_adb_path()), "-P", str(adb_server_port), "-s", running.serial]
    for apk in apks:
        installed = subprocess.run(adb + ["install", str(apk)], capture_output=True, text=True, timeout=120)
        assert "Success" in installed.stdout, installed.stdout + installed.stderr
    device = adbutils.AdbClient(port=adb_server_port).device(running.serial)
    started = device.shell2("am instrument io.appium.uiautomator2.server.test/androidx.test.runner.AndroidJUnitRunner")
    assert (started.returncode, started.output) == (0, ""), started  # without -w, am returns at once
    with device.create_connection(adbutils.Network.TCP, 6790) as conn:
        conn.settimeout(30)
        for _ in range(3):  # one connection, several requests (the driver keeps it alive)
            conn.sendall(b"GET /sessions HTTP/1.1\r\nHost: x\r\n\r\n")
            reply = b""
            while not reply.endswith(b"}") and (chunk := conn.recv(4096)):
                reply += chunk
            assert reply.startswith(b"HTTP/1.1 200 ") and reply.endswith(b'{"value": [], "sessionId": null}'), reply
    with device.create_connection(adbutils.Network.TCP, 6790) as conn:
        conn.sendall(b"NOT HTTP AT ALL\r\n\r\n")
        conn.settimeout(30)
        reply = b""
        while chunk := conn.recv(4096):
            reply += chunk
        assert reply.startswith(b"HTTP/1.1 400 "), reply
    device.shell("am force-stop io.appium.uiautomator2.server.test")
    with pytest.raises(adbutils.AdbError, match="closed"):
        device.create_connection(adbutils.Network.TCP, 6790)


@pytest.mark.parametrize("expression, tags", [
    ('new UiSelector().text("x;y"); new UiSelector().text("z")', ["a", "b"]),
    ('text("z")', ["b"]),
    ('.textContains(";")', ["a"]),
    ('new UiSelector().clickable(true)', ["b"]),
    ('new UiSelector().textMatches("x.*").instance(0)', ["a"]),
    ('new UiSelector().className("b").index(1)', ["b"]),
])
def test_uiselector_chains(expression, tags):
    from lxml import etree

    from pytest_mobileagent.virtual_phone.programs.uiselector import select

    root = etree.fromstring('<h><a index="0" class="a" text="x;y" clickable="false"/>'
                            '<b index="1" class="b" text="z" clickable="true"/></h>')
    assert [n.tag for n in select(expression, list(root.iter()), True)] == tags


def test_w3c_actions_tap_type_and_reject_bad_input(server, session):
    element = find(server, session, "id", "btn_4")[1]["value"]["ELEMENT"]
    tap = {"type": "pointer", "id": "finger", "parameters": {"pointerType": "touch"}, "actions": [
        {"type": "pointerMove", "duration": 0, "origin": {"element-6066-11e4-a52e-4f735466cecf": element},
         "x": 0, "y": 0},
        {"type": "pointerDown", "button": 0}, {"type": "pause", "duration": 50}, {"type": "pointerUp", "button": 0}]}
    assert call(server, "POST", f"/session/{session}/actions", {"actions": [tap, tap]})[0] == 200
    result = find(server, session, "id", "result")[1]["value"]["ELEMENT"]
    assert call(server, "GET", f"/session/{session}/element/{result}/text")[1]["value"] == "44"
    status, reply = call(server, "POST", f"/session/{session}/actions", {"actions": "tap"})
    assert (status, reply["value"]["error"]) == (400, "invalid argument")
    status, reply = call(server, "POST", f"/session/{session}/actions",
                         {"actions": [{"type": "pointer", "actions": [{"type": "wiggle"}]}]})
    assert (status, reply["value"]["error"]) == (400, "invalid argument")


def test_geometry_orientation_and_clipboard(server, session):
    import base64

    element = find(server, session, "id", "btn_5")[1]["value"]["ELEMENT"]
    rect = call(server, "GET", f"/session/{session}/element/{element}/rect")[1]["value"]
    assert call(server, "GET", f"/session/{session}/element/{element}/location")[1]["value"] == {
        "x": rect["x"], "y": rect["y"]}
    assert call(server, "GET", f"/session/{session}/element/{element}/size")[1]["value"] == {
        "width": rect["width"], "height": rect["height"]}
    assert call(server, "GET", f"/session/{session}/orientation")[1]["value"] == "PORTRAIT"
    content = base64.b64encode("copied text".encode()).decode()
    assert call(server, "POST", f"/session/{session}/appium/device/set_clipboard", {"content": content})[0] == 200
    assert call(server, "POST", f"/session/{session}/appium/device/get_clipboard", {})[1]["value"] == content
    assert server.phone.system.clipboard == "copied text"
    status, reply = call(server, "POST", f"/session/{session}/appium/device/get_clipboard", {"contentType": "image"})
    assert (status, reply["value"]["error"]) == (400, "invalid argument")
    status, reply = call(server, "GET", f"/session/{session}/element/active")
    assert (status, reply["value"]["error"]) == (404, "no such element")  # the calculator focuses no field


def test_mobile_gestures_click_and_long_click(server, session):
    element = find(server, session, "id", "btn_6")[1]["value"]["ELEMENT"]
    assert call(server, "POST", f"/session/{session}/appium/gestures/click", {"origin": {"ELEMENT": element}})[0] == 200
    assert call(server, "POST", f"/session/{session}/appium/gestures/double_click",
                {"locator": {"strategy": "id", "selector": "btn_6"}})[0] == 200
    result = find(server, session, "id", "result")[1]["value"]["ELEMENT"]
    assert call(server, "GET", f"/session/{session}/element/{result}/text")[1]["value"] == "666"
    status, reply = call(server, "POST", f"/session/{session}/appium/gestures/click", {})
    assert (status, reply["value"]["error"]) == (400, "invalid argument")
    status, reply = call(server, "POST", f"/session/{session}/appium/gestures/swipe",
                         {"area": {"left": 0, "top": 0, "width": 100, "height": 100}, "direction": "sideways",
                          "percent": 0.5})
    assert (status, reply["value"]["error"]) == (400, "invalid argument")


def test_alerts_as_alert_helpers_find_them():
    phone = VirtualPhone()
    server = UiAutomator2Server(phone, "1", 1)
    sid = call(server, "POST", "/session", {"capabilities": {}})[1]["value"]["sessionId"]
    phone.run_shell("am start -n com.simplemobiletools.notes.pro/.activities.SplashActivity.Orange")
    status, reply = call(server, "GET", f"/session/{sid}/alert/text")
    assert (status, reply["value"]["error"], reply["value"]["message"]) == (
        404, "no such alert", "No alert is present on the screen")
    fab = find(server, sid, "id", "new_note")[1]["value"]["ELEMENT"]
    call(server, "POST", f"/session/{sid}/element/{fab}/click", {})
    text = call(server, "GET", f"/session/{sid}/alert/text")[1]["value"]
    assert text.splitlines()[0] == "Add a new note" and "OK" not in text.splitlines()
    assert call(server, "POST", f"/session/{sid}/alert/dismiss", {})[0] == 200  # button2: Cancel
    assert call(server, "GET", f"/session/{sid}/alert/text")[1]["value"]["error"] == "no such alert"
    call(server, "POST", f"/session/{sid}/element/{find(server, sid, 'id', 'new_note')[1]['value']['ELEMENT']}/click", {})
    status, reply = call(server, "POST", f"/session/{sid}/alert/accept", {"buttonLabel": "Nope"})
    assert (status, reply["value"]["error"]) == (400, "invalid element state")


def test_instrumenting_a_missing_target_fails_as_activity_manager_says():
    from pathlib import Path

    apk = next(p for p in _server_apks() if "androidTest" in p.name)
    phone = VirtualPhone()
    phone.packages.install(Path(apk).read_bytes())  # the test APK alone
    result = phone.run_shell("am instrument -w io.appium.uiautomator2.server.test/androidx.test.runner.AndroidJUnitRunner")
    assert result.exit_code == 255 and result.program is None
    assert b"Error=Unable to find instrumentation target package: io.appium.uiautomator2.server\n" in result.stdout
    assert phone.sockets.listening() == []


def test_battery_info_is_what_dumpsys_battery_holds(server, session):
    server.phone.run_shell("dumpsys battery set level 42; dumpsys battery unplug")
    info = call(server, "GET", f"/session/{session}/appium/device/battery_info")[1]["value"]
    assert info["level"] == 0.42
    assert info["status"] == int(re.search(r"status: (\d+)", server.phone.run_shell("dumpsys battery").stdout.decode())[1])
