"""uiautomator2 (the PyPI client, unmodified) on the virtual phone, through the real adb server.

`u2.connect` pushes u2.jar, starts its server with `app_process` in an adb
shell it keeps open, and talks HTTP JSON-RPC to device port 9008 through
adb's tcp: service; the phone runs the server as its own program
(programs/uiautomator2.py). The tests solve a Calculator and a Notes task
with the client's usual calls, then check the phone's state with plain adb
(`uiautomator dump`), not through uiautomator2.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import adbutils
import pytest
import uiautomator2 as u2  # pinned in the test extra: CI installs it, so these tests never skip

from pytest_mobileagent.virtual_phone.kernel.clock import PROGRAM_MS

CALC = "com.simplemobiletools.calculator"
NOTES = "com.simplemobiletools.notes.pro"
JAR = "/data/local/tmp/u2.jar"


def _rpc(device, method: str, *params, port: int = 9008) -> dict:
    """One raw JSON-RPC call over the phone's tcp:9008 (the reply object, error or result)."""
    body = json.dumps({"jsonrpc": "2.0", "id": 7, "method": method, "params": list(params)}).encode()
    with device.create_connection(adbutils.Network.TCP, port) as conn:
        conn.sendall(b"POST /jsonrpc/0 HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                     + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        reply = b""
        while b"\r\n\r\n" not in reply or len(reply.partition(b"\r\n\r\n")[2]) < int(
                re.search(rb"Content-Length: (\d+)", reply).group(1)):
            chunk = conn.recv(65536)
            assert chunk, reply
            reply += chunk
    return json.loads(reply.partition(b"\r\n\r\n")[2])


def _texts(device, resource_id: str) -> list[str]:
    """Texts of the nodes with that id in the phone's own `uiautomator dump` (via adbutils)."""
    xml = device.dump_hierarchy()
    return re.findall(rf'text="([^"]*)" resource-id="{re.escape(resource_id)}"', xml)


@pytest.fixture(scope="module")
def phone(adb_server_port):
    """A phone of this module's own, on a port outside adb's emulator range (5555-5585).

    Other adb servers on the machine scan that range and may drive what they
    find; a phone only this module's adb server knows keeps the tasks' screens
    to themselves, and the servers these tests start stay off the session phone.
    """
    import socket

    from pytest_mobileagent.virtual_phone import start_phones

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with start_phones(1, ports=[port], adb_server_port=adb_server_port) as phones:
        yield phones[0]


@pytest.fixture(scope="module")
def u2_device(phone, adb_server_port):
    """uiautomator2 connected to the module's phone (its server stopped at the end)."""
    device = adbutils.AdbClient(port=adb_server_port).device(phone.serial)
    # Nothing listens on 9008 until u2 starts its server with app_process.
    with pytest.raises(adbutils.AdbError, match="closed"):
        device.create_connection(adbutils.Network.TCP, 9008)
    d = u2.connect(device)
    yield d
    d.stop_uiautomator()


@pytest.fixture
def adb_device_u2(phone, adb_server_port):
    return adbutils.AdbClient(port=adb_server_port).device(phone.serial)


def test_connect_starts_the_server_from_the_pushed_jar(u2_device, adb_device_u2):
    assert u2_device.info["sdkInt"] == 34
    assert u2_device.info["displayWidth"] == 1080
    assert adb_device_u2.sync.stat(JAR).size > 1_000_000  # the wheel's u2.jar was pushed
    # the server answers /ping over the phone's tcp:9008, as u2's health check reads it
    with adb_device_u2.create_connection(adbutils.Network.TCP, 9008) as conn:
        conn.sendall(b"GET /ping HTTP/1.1\r\nHost: localhost\r\n\r\n")
        reply = b""
        while not reply.endswith(b"pong"):
            chunk = conn.recv(4096)
            assert chunk, reply
            reply += chunk
    assert reply.startswith(b"HTTP/1.1 200 OK \r\n")
    assert b"Content-Length: 4\r\n" in reply


def test_notes_task_checklist_with_an_item(u2_device, adb_device_u2):
    """Notes: "create a checklist named 'Shopping list' and add an item named 'Milk'"."""
    d = u2_device
    d.app_clear(NOTES)
    d.app_start(NOTES)
    d(resourceId=f"{NOTES}:id/new_note").click()
    d(resourceId=f"{NOTES}:id/locked_note_title").set_text("Shopping list")
    assert d(resourceId=f"{NOTES}:id/locked_note_title").get_text() == "Shopping list"
    d(text="Checklist").click()
    d(text="OK").click()
    d(resourceId=f"{NOTES}:id/checklist_fab").click()
    d(resourceId=f"{NOTES}:id/title_edit_text").set_text("Milk")
    d(resourceId="android:id/button1").click()
    assert d(text="Milk").exists
    assert 'text="Milk"' in d.dump_hierarchy()
    assert d.screenshot().size == (1080, 2340)
    # the phone itself shows the checklist and its item
    shown = re.findall(r'text="([^"]*)"', adb_device_u2.dump_hierarchy())
    assert "Shopping list" in shown and "Milk" in shown
    d.press("back")
    assert d.app_current()["package"] != NOTES


def test_calculator_task_from_a_user_script(phone, adb_server_port, adb_device_u2):
    """Calculator: "Calculate the result of '12 ÷ 3'" by a script that only knows the serial."""
    script = f"""
import json, uiautomator2 as u2
d = u2.connect({phone.serial!r})
d.app_start({CALC!r})
d(resourceId="{CALC}:id/btn_clear").long_click()
for key in ("btn_1", "btn_2", "btn_divide"):
    d(resourceId="{CALC}:id/" + key).click()
d(text="3").click()
d(text="=").click()
shot = d.screenshot()
print(json.dumps({{"result": d(resourceId="{CALC}:id/result").get_text(),
                  "formula": d(resourceId="{CALC}:id/formula").get_text(),
                  "screenshot": list(shot.size),
                  "xml_has_result": 'resource-id="{CALC}:id/result"' in d.dump_hierarchy()}}))
"""
    env = dict(os.environ, ANDROID_ADB_SERVER_PORT=str(adb_server_port))
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    assert answer == {"result": "4", "formula": "12÷3", "screenshot": [1080, 2340], "xml_has_result": True}
    assert _texts(adb_device_u2, f"{CALC}:id/result") == ["4"]  # the phone shows it too
    adb_device_u2.shell(["am", "force-stop", CALC])


def test_selector_errors_are_the_servers(u2_device, adb_device_u2):
    d = u2_device
    d.press("home")
    missing = u2._selector.Selector(text="No such view")
    with pytest.raises(u2.UiObjectNotFoundError, match="UiObjectNotFoundException"):
        d(text="No such view").info
    assert _rpc(adb_device_u2, "objInfo", missing)["error"] == {
        "code": -32001, "message": "androidx.test.uiautomator.UiObjectNotFoundException",
        "data": "UiSelector[TEXT=No such view]"}
    assert not d(text="No such view").exists
    # UiObject.waitForExists: a wait that runs out took its timeout on the phone's clock, the
    # look it began with included (kernel/clock.py: LOOK_MS after `date` ran, 1.2 s in all)
    before = adb_device_u2.shell("date +%s%3N")
    assert d(text="No such view").wait(timeout=1.2) is False
    after = adb_device_u2.shell("date +%s%3N")
    assert int(after) - int(before) == 1200 + PROGRAM_MS


def test_an_unmodelled_method_is_an_unknown_method(u2_device, adb_device_u2):
    with pytest.raises(u2.RPCUnknownError, match="-32601 method not found"):
        u2_device.toast.show("hello")  # makeToast is not in the jar's AutomatorService
    assert _rpc(adb_device_u2, "noSuchMethod") == {
        "jsonrpc": "2.0", "id": 7, "error": {"code": -32601, "message": "method not found"}}


def test_app_process_without_the_class_aborts_as_art_does(adb_device_u2, u2_device):
    missing_jar = adb_device_u2.shell2("CLASSPATH=/data/local/tmp/none.jar app_process / com.wetest.uia2.Main",
                                       v2=True)
    assert (missing_jar.returncode, missing_jar.output) == (134, "Aborted \n")
    wrong_class = adb_device_u2.shell2(f"CLASSPATH={JAR} app_process / com.example.Nope", v2=True)
    assert (wrong_class.returncode, wrong_class.output) == (134, "Aborted \n")


def test_a_second_server_on_the_same_port_cannot_bind(adb_device_u2, u2_device):
    assert u2_device.info  # the first server is up on 9008
    second = adb_device_u2.shell2(f"CLASSPATH={JAR} app_process / com.wetest.uia2.Main -p 9008", v2=True,
                                  timeout=20)
    assert second.returncode == 1
    assert "java.net.BindException: bind failed: EADDRINUSE (Address already in use)" in second.output
    assert second.output.startswith("[server] INFO: [UiAutomator2Server] Starting Server\n")


def test_stopping_the_client_stops_the_server(phone, adb_server_port, adb_device_u2):
    d = u2.connect(adbutils.AdbClient(port=adb_server_port).device(phone.serial), port=9010)
    assert d.jsonrpc.ping() == "pong"
    assert "tcp:9010" in phone.phone.sockets.listening()
    d.stop_uiautomator()  # closes the shell stream: app_process gets SIGHUP
    with pytest.raises(adbutils.AdbError, match="closed"):
        adb_device_u2.create_connection(adbutils.Network.TCP, 9010)


def test_the_jar_is_not_pushed_again_when_toybox_md5sum_matches(adb_device_u2, u2_device):
    import hashlib
    from importlib.resources import files

    local = hashlib.md5(files("uiautomator2").joinpath("assets/u2.jar").read_bytes()).hexdigest()
    assert adb_device_u2.shell(["toybox", "md5sum", JAR]) == f"{local}  {JAR}"


def test_text_entry_keys_and_waits(u2_device):
    d = u2_device
    d.app_clear(NOTES)
    d.app_start(NOTES)
    d(resourceId=f"{NOTES}:id/new_note").click()
    title = d(resourceId=f"{NOTES}:id/locked_note_title")
    title.click()
    d.send_keys("hello there")  # setClipboard + pasteClipboard (Ctrl+V) into the focused field
    assert title.get_text() == "hello there"
    d.clear_text()  # Ctrl+A, DEL
    assert title.get_text() == "Label"  # an empty field reports its hint
    title.set_text("x")
    title.clear_text()  # clearTextField: ACTION_SET_TEXT ""
    assert title.get_text() == "Label"
    radios = d(className="android.widget.RadioButton")
    assert radios.count == 2
    assert d(className="android.widget.RadioButton", instance=1).get_text() == "Checklist"
    assert d(resourceId=f"{NOTES}:id/new_note_type").child(text="Checklist").exists
    assert d(text="Text note").sibling(text="Checklist").exists
    assert d.xpath('//*[@text="Checklist"]').exists  # u2's xpath plugin reads dumpWindowHierarchy
    d.xpath('//*[@text="Checklist"]').click()
    assert d(resourceId=f"{NOTES}:id/type_checklist").info["checked"] is True
    d.press("back")  # the dialog's field has the keyboard up: the first BACK only hides it
    assert d(text="Cancel").exists
    d.press("back")
    assert d(text="Cancel").wait_gone(timeout=2)
    d.press("back")


def test_scrolling_swiping_and_long_click(u2_device):
    d = u2_device
    d.app_start(NOTES)
    d(description="More options").click()
    d(text="Settings").click()
    scroller = d(scrollable=True)
    assert scroller.info["className"] == "android.widget.ScrollView"
    assert d(text="Customize colors").exists
    assert scroller.scroll.toEnd()
    assert not d(text="Customize colors").exists
    scroller.scroll.toBeginning()
    assert d(text="Customize colors").exists
    d.swipe(540, 1800, 540, 600)
    assert not d(text="Customize colors").exists
    d.press("back")


def test_last_toast(u2_device):
    d = u2_device
    d.app_clear(CALC)
    d.app_start(CALC)
    d.toast.reset()
    assert d.last_toast is None
    d(resourceId=f"{CALC}:id/history").click()  # an empty history says so in a toast
    assert d.toast.get_message(wait_timeout=0) == "History is empty"
    assert CALC in d.app_list_running()  # pm list packages against ps
    d.app_stop(CALC)  # am force-stop
    assert CALC not in d.app_list_running()


def test_raw_shell_keeps_stderr_in_order_for_shell2(adb_device_u2):
    # adbutils' shell2 appends "; echo X4EXIT:$?" and parses the tail: adbd's raw shell
    # writes stderr to the same socket as stdout, in order (u2 runs `ime list` this way).
    result = adb_device_u2.shell2("no_such_command_here")
    assert result.returncode == 127
    assert result.output == "/system/bin/sh: no_such_command_here: inaccessible or not found\n"


def test_the_running_server_shows_in_ps(adb_device_u2, u2_device):
    assert u2_device.jsonrpc.ping() == "pong"
    rows = [line.split() for line in adb_device_u2.shell("ps -A").splitlines()]
    servers = [row for row in rows if row[-1] == "app_process"]
    assert len(servers) == 1 and servers[0][0] == "shell"


def test_dump_options_compressed_and_max_depth(u2_device):
    d = u2_device
    d.app_start(CALC)
    full = d.dump_hierarchy()
    compressed = d.dump_hierarchy(compressed=True)
    shallow = d.dump_hierarchy(max_depth=1)
    assert compressed.count("<node") < full.count("<node")
    assert 'resource-id="com.simplemobiletools.calculator:id/btn_7"' in compressed
    assert shallow.count("<node") == 1 + len(re.findall(r"^    <node", full, re.M))
    d.dump_hierarchy()  # back to the full tree for later finds (the flag persists in the server)
    d.press("back")


def test_open_notification_and_quick_settings_pull_the_shade_down(u2_device, adb_device_u2):
    """uiautomator2's open_notification / open_quick_settings: the server's UiDevice.openNotification
    and openQuickSettings (UiAutomation.performGlobalAction GLOBAL_ACTION_NOTIFICATIONS / _QUICK_SETTINGS)
    show SystemUI's shade with the notifications `cmd notification post` posted; BACK closes it."""
    d = u2_device
    adb_device_u2.shell("am force-stop com.android.shell")
    adb_device_u2.shell("cmd notification post -t 'Backup done' backup '3 files saved'")
    try:
        d.open_notification()
        assert d(resourceId="com.android.systemui:id/notification_stack_scroller").exists
        assert d(resourceId="android:id/title").get_text() == "Backup done"
        assert d(resourceId="android:id/text").get_text() == "3 files saved"
        # the phone's own dump (adb) shows the same shade
        assert 'text="Backup done"' in adb_device_u2.dump_hierarchy()
        d.press("back")
        assert not d(resourceId="com.android.systemui:id/notification_stack_scroller").exists
        d.open_quick_settings()
        assert d(resourceId="com.android.systemui:id/quick_settings_panel").exists
        assert d(resourceId="com.android.systemui:id/tile_label", text="Airplane mode").exists
        assert not d(resourceId="android:id/title").exists  # the panel covers the notifications
        d.press("home")
        assert d.app_current()["package"] == "com.android.launcher3"
    finally:
        adb_device_u2.shell("cmd statusbar collapse; am force-stop com.android.shell")


def test_every_dump_reports_the_accessibility_class_name(u2_device, adb_device_u2):
    """One rule for every output (framework/ui/accessibility_class.py): `uiautomator dump`, uiautomator2's
    AccessibilityNodeInfo and the listener's events give a view its getAccessibilityClassName().

    The Music Player's pager is Commons' MyViewPager, whose ViewPager delegate sets
    ViewPager.class.getName(): R8 renamed it in the release APK (the DroidTask recordings show
    "androidx.viewpager.widget.b"). Its playlist rows are ConstraintLayouts, which do not override
    getAccessibilityClassName (ConstraintLayout 2.1.4): ViewGroup.
    """
    from listener_stream import ListenerSink

    music = "com.simplemobiletools.musicplayer"
    pager, row = f"{music}:id/view_pager", f"{music}:id/playlist_frame"
    u2_device.app_clear(music)
    u2_device.app_start(music)
    expected = {pager: "androidx.viewpager.widget.b", row: "android.view.ViewGroup"}

    def classes(xml: str) -> dict[str, str]:
        return {rid: cls for rid, cls in re.findall(r'resource-id="([^"]*)" class="([^"]*)"', xml) if rid in expected}

    assert classes(adb_device_u2.dump_hierarchy()) == expected
    assert classes(u2_device.dump_hierarchy()) == expected
    assert u2_device(resourceId=pager).info["className"] == expected[pager]
    assert u2_device(className="android.view.ViewGroup", resourceId=row).exists
    sink = ListenerSink(adb_device_u2)
    try:
        u2_device(resourceId=row).click()
        click = sink.wait_for(lambda e: e.get("type") == "click")
        assert (click["id"], click["class"]) == (row, expected[row])
    finally:
        sink.close()
