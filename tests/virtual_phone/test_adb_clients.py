"""Real clients (adb CLI, adbutils, AndroidViewClient) through real adb servers.

`adb_server` runs each test against the adb server from the adbutils wheel
(adb 36) and against Debian's adb 29 when installed (skipped otherwise).
"""

from __future__ import annotations

import io
import socket
import subprocess

import pytest

from uihelpers import CALC, center, find, focus_editor, focused_text, launch


@pytest.fixture
def device(adb_client, phone):
    return adb_client.device(phone.serial)


def test_adb_devices_lists_the_phone(adb_server, phone):
    version = adb_server.run("version").stdout.decode()
    assert ("Version 36." if adb_server.name == "wheel" else "Version 29.") in version
    result = adb_server.run("devices")
    assert result.returncode == 0
    assert f"{phone.serial}\tdevice" in result.stdout.decode()


def test_adb_cli_shell_exit_code_and_exec_out_png(adb_server, phone):
    result = adb_server.run("shell", "echo hi; exit 5", serial=phone.serial)
    assert (result.returncode, result.stdout) == (5, b"hi\n")
    result = adb_server.run("exec-out", "screencap", "-p", serial=phone.serial)
    assert result.returncode == 0
    from PIL import Image

    image = Image.open(io.BytesIO(result.stdout))
    image.load()  # a complete, valid PNG
    assert image.size == (1080, 2340)


def test_adb_cli_push_pull_and_missing_file(adb_server, phone, tmp_path):
    src = tmp_path / "in.txt"
    src.write_bytes(b"payload\n" * 1000)
    assert adb_server.run("push", str(src), "/sdcard/Download/in.txt", serial=phone.serial).returncode == 0
    dst = tmp_path / "out.txt"
    assert adb_server.run("pull", "/sdcard/Download/in.txt", str(dst), serial=phone.serial).returncode == 0
    assert dst.read_bytes() == src.read_bytes()
    missing = adb_server.run("pull", "/sdcard/none.txt", str(tmp_path / "x"), serial=phone.serial)
    assert missing.returncode == 1 and b"No such file or directory" in missing.stdout + missing.stderr


def test_adbutils_shell_and_exit_codes(device):
    assert device.shell("echo hi") == "hi"
    assert device.shell2("echo out; echo err >&2; exit 7", v2=True).returncode == 7
    result = device.shell2("nope", v2=True)
    assert result.returncode == 127 and "nope: inaccessible or not found" in result.stderr
    assert device.shell2("true", v2=True).returncode == 0
    assert device.shell2("false").returncode == 1  # adbutils' `; echo X4EXIT:$?` path
    assert device.getprop("ro.build.version.sdk") == "34"


def test_adbutils_display_and_current_app(device, phone):
    assert tuple(device.window_size()) == (1080, 2340)
    assert device.rotation() == 0
    launch(device.shell, CALC)
    current = device.app_current()
    assert (current.package, current.activity) == phone.phone.system.focused_window()
    device.keyevent("HOME")
    assert device.app_current().package != CALC


def test_adbutils_dump_click_swipe_calculator(device):
    launch(device.shell, CALC)
    xml = device.dump_hierarchy()
    assert xml.startswith("<?xml")
    buttons = {name: find(xml, resource_id=f"{CALC}:id/{name}") for name in ("btn_7", "btn_plus", "btn_8", "btn_equals")}
    assert all(buttons.values()), buttons
    device.click(*center(buttons["btn_7"]))
    device.click(*center(buttons["btn_plus"]))
    x, y = center(buttons["btn_8"])
    device.swipe(x, y, x, y, 0.05)  # a short same-point swipe is a tap
    device.click(*center(buttons["btn_equals"]))
    result = find(device.dump_hierarchy(), resource_id=f"{CALC}:id/result")
    assert result is not None and result["text"] == "15"


def test_adbutils_screenshot(device):
    image = device.screenshot()
    assert image.size == (1080, 2340)


def test_adbutils_send_keys_and_keyevent(device):
    field = focus_editor(device.shell, device.dump_hierarchy)
    device.send_keys("hello world")
    assert focused_text(device.dump_hierarchy()) == "hello world"
    device.keyevent("DEL")
    node = find(device.dump_hierarchy(), resource_id=field)
    assert node is not None and node["text"] == "hello worl"


def test_adbutils_sync(device):
    device.sync.push(b"\x00\x01binary" * 5000, "/sdcard/Download/blob.bin")
    assert device.sync.read_bytes("/sdcard/Download/blob.bin") == b"\x00\x01binary" * 5000
    info = device.sync.stat("/sdcard/Download/blob.bin")
    assert info.size == 40000
    names = [entry.path for entry in device.sync.list("/sdcard/Download")]
    assert "blob.bin" in names
    assert not device.sync.exists("/sdcard/Download/none")
    device.sync.push(b"text", "/data/local/tmp/t.txt")
    assert device.shell("cat /data/local/tmp/t.txt") == "text"


def test_adbutils_reverse(device):
    device.reverse_remove_all()
    device.reverse("tcp:8888", "tcp:45678")
    device.reverse("tcp:9000", "tcp:45679")
    items = {(item.remote, item.local) for item in device.reverse_list()}
    assert items == {("tcp:8888", "tcp:45678"), ("tcp:9000", "tcp:45679")}
    device.reverse_remove("tcp:9000")
    assert [(i.remote, i.local) for i in device.reverse_list()] == [("tcp:8888", "tcp:45678")]
    device.reverse_remove_all()
    assert device.reverse_list() == []


def test_android_view_client(adb_server, phone, monkeypatch):
    from com.dtmilano.android.viewclient import ViewClient

    monkeypatch.setenv("ANDROID_ADB_SERVER_PORT", str(adb_server.port))
    device, serial = ViewClient.connectToDeviceOrExit(serialno=phone.serial)
    launch(device.shell, CALC)
    # The server's own adb binary: AndroidViewClient would otherwise look for one on PATH.
    vc = ViewClient(device, serial, adb=adb_server.binary, autodump=False)
    vc.dump(sleep=0)
    seven = vc.findViewById(f"{CALC}:id/btn_7")
    assert seven is not None
    seven.touch()
    vc.dump(sleep=0)
    assert vc.findViewById(f"{CALC}:id/result").getText() == "7"

    focus_editor(device.shell, lambda: device.shell("uiautomator dump /dev/tty").rsplit("UI hier", 1)[0])
    device.type("typed by avc")
    vc.dump(sleep=0)
    texts = [v.getText() for v in vc.views if v.getClass() == "android.widget.EditText"]
    assert "typed by avc" in texts
    image = device.takeSnapshot(reconnect=True)
    assert image.size == (1080, 2340)


def test_android_view_client_starts_an_app_by_package(adb_server, phone, monkeypatch):
    """`startActivity(package=...)`, as every original MobileAgentBench task launches its app:
    `cmd package resolve-activity --brief PKG`, then `am start -n` with its second line."""
    from com.dtmilano.android.viewclient import ViewClient

    notes = "com.simplemobiletools.notes.pro"
    monkeypatch.setenv("ANDROID_ADB_SERVER_PORT", str(adb_server.port))
    device, serial = ViewClient.connectToDeviceOrExit(serialno=phone.serial)
    vc = ViewClient(device, serial, adb=adb_server.binary, autodump=False)
    vc.device.shell("input keyevent HOME")
    assert phone.phone.system.focused_window()[0] == "com.android.launcher3"
    vc.device.startActivity(package=notes)
    assert phone.phone.system.focused_window() == (notes, f"{notes}.activities.MainActivity")
    with pytest.raises(RuntimeError, match="cannot resolve activity"):
        vc.device.startActivity(package="no.such.package")


def test_two_phones_from_one_server(phone_factory, adb_server_port):
    import adbutils

    phones = phone_factory(2)
    assert len({p.port for p in phones}) == 2
    client = adbutils.AdbClient(port=adb_server_port)
    serials = {d.serial for d in client.device_list()}
    assert {p.serial for p in phones} <= serials
    for index, running in enumerate(phones):
        device = client.device(running.serial)
        device.shell(f"echo {index} > /sdcard/which")
    for index, running in enumerate(phones):
        assert client.device(running.serial).shell("cat /sdcard/which") == str(index)
        assert running.phone.fs.read_file("/sdcard/which") == f"{index}\n".encode()


def test_adb_cli_interactive_shell_reads_stdin(adb_server, phone):
    result = subprocess.run([adb_server.binary, "-P", str(adb_server.port), "-s", phone.serial, "shell"],
                            input=b"echo one\ncd /sdcard; pwd\nexit 4\n", capture_output=True, timeout=30)
    assert result.returncode == 4
    assert b"one\n" in result.stdout and b"/sdcard\n" in result.stdout


def test_an_overlong_interactive_line_is_an_error_and_the_session_goes_on(adb_server, phone):
    long_line = b"echo " + b"x" * (70 * 1024) + b"\n"
    result = subprocess.run([adb_server.binary, "-P", str(adb_server.port), "-s", phone.serial, "shell"],
                            input=b"echo before\n" + long_line + b"echo after\nexit 3\n", capture_output=True,
                            timeout=30)
    assert result.returncode == 3
    output = result.stdout + result.stderr
    assert b"before\n" in output and b"after\n" in output and b"x" * 100 not in output
    assert b"/system/bin/sh: line too long: over 65536 bytes, not run" in output


def test_300_nested_subshells_run_as_on_a_phone(adb_server, phone):
    line = "(" * 300 + "echo deep" + ")" * 300
    result = adb_server.run("shell", line, serial=phone.serial)
    assert (result.returncode, result.stdout) == (0, b"deep\n")
    assert adb_server.run("shell", "echo alive", serial=phone.serial).stdout == b"alive\n"


def test_adb_forward_to_a_closed_phone_port_is_harmless(adb_server, phone):
    forwarded = adb_server.run("forward", "tcp:0", "tcp:7000", serial=phone.serial)
    assert forwarded.returncode == 0
    host_port = int(forwarded.stdout.strip())
    try:
        with socket.create_connection(("127.0.0.1", host_port), timeout=10) as sock:
            assert sock.recv(10) == b""  # nothing listens on the phone's 7000
    finally:
        adb_server.run("forward", "--remove-all", serial=phone.serial)
    assert adb_server.run("shell", "echo alive", serial=phone.serial).stdout == b"alive\n"


def test_adbutils_framebuffer(device):
    image = device.framebuffer()
    assert image.size == (1080, 2340)
    assert image.getpixel((540, 1170)) == device.screenshot().convert("RGBA").getpixel((540, 1170))
