"""Device and DevicePool against virtual phones through the real adb server."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
import xml.etree.ElementTree as ET

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_mobileagent.device import Device, DeviceAllocationError, DevicePool, ShellResult, connect
from pytest_mobileagent.errors import AdbCommandError, DeviceLostError, MobileAgentError
from pytest_mobileagent.device.fast_adb import list_devices
from pytest_mobileagent.events import EventServer
from listener_stream import listener_dial

CALC = "com.simplemobiletools.calculator"
NOTES = "com.simplemobiletools.notes.pro"
WAIT = 10.0


@pytest.fixture
def device(phone, adb_server_port) -> Device:
    dev = connect(phone.serial)
    yield dev
    dev.close()


def nodes(xml: str) -> list[dict[str, str]]:
    return [dict(n.attrib) for n in ET.fromstring(xml.encode("utf-8")).iter("node")]


def node_by_id(xml: str, short_id: str) -> dict[str, str]:
    found = [n for n in nodes(xml) if n.get("resource-id", "").endswith(":id/" + short_id)]
    assert found, f"no view {short_id!r} on screen"
    return found[0]


def center(node: dict[str, str]) -> tuple[int, int]:
    x1, y1, x2, y2 = (int(v) for v in node["bounds"].replace("][", ",").strip("[]").split(","))
    return (x1 + x2) // 2, (y1 + y2) // 2


def fresh(device: Device, package: str) -> None:
    device.force_stop(package)
    device.clear_app(package)
    device.launch(package)


def wait_state(serial: str, online: bool, port: int, timeout: float = WAIT) -> None:
    """Block on the adb server's `host:track-devices` until serial is (not) online."""
    deadline = time.monotonic() + timeout
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(b"%04x" % len(b"host:track-devices") + b"host:track-devices")
        assert sock.recv(4) == b"OKAY"
        buf = b""
        while True:
            while len(buf) < 4 or len(buf) < 4 + int(buf[:4], 16):
                sock.settimeout(max(0.01, deadline - time.monotonic()))
                chunk = sock.recv(65536)
                assert chunk, "adb server closed track-devices"
                buf += chunk
            n = int(buf[:4], 16)
            listing, buf = buf[4:4 + n].decode(), buf[4 + n:]
            states = dict(line.split("\t") for line in listing.splitlines() if "\t" in line)
            if (states.get(serial) == "device") == online:
                return
            assert time.monotonic() < deadline, f"{serial} still {'offline' if online else 'online'}"


# --- shell ---------------------------------------------------------------------------------

def test_shell_and_exit_codes(device):
    assert device.shell("echo hello") == "hello"
    assert device.shell("echo a; echo b") == "a\nb"
    assert device.shell_result("echo a; echo b") == ShellResult("a\nb\n", 0)
    assert device.shell_result("true").exit_code == 0
    assert device.shell_result("false").exit_code == 1
    assert device.shell_result("exit 3").exit_code == 3
    missing = device.shell_result("no_such_command_xyz")
    assert missing.exit_code == 127 and "not found" in missing.output
    assert (device.width, device.height) == (1080, 2340)


def test_shell_result_without_shell_v2_uses_an_exit_marker(phone, adb_server_port):
    dev = connect(phone.serial)
    dev._v2 = False  # as on a device that does not advertise shell_v2 (before Android 7)
    assert dev.shell_result("echo a; false") == ShellResult("a\n", 1)
    assert dev.shell_result("no_such_command_xyz").exit_code == 127
    assert dev.shell_result("echo X4EXIT:1") == ShellResult("X4EXIT:1\n", 0)


def test_shell_passes_shell_syntax_through(device):
    assert device.shell("echo 'a b' && false || echo \"c\"") == "a b\nc"


def test_connect_unknown_serial_names_what_is_attached(phone, adb_server_port):
    with pytest.raises(DeviceLostError) as info:
        connect("emulator-9999")
    assert "emulator-9999" in str(info.value) and phone.serial in str(info.value)


# --- input ---------------------------------------------------------------------------------

def test_tap_reaches_the_app(device):
    fresh(device, CALC)
    xml = device.dump_hierarchy()
    for key in ("btn_7", "btn_plus", "btn_8", "btn_equals"):
        device.tap(*center(node_by_id(xml, key)))
    assert node_by_id(device.dump_hierarchy(), "result")["text"] == "15"


def test_key_back_and_home(device):
    fresh(device, CALC)
    assert device.current_app()[0] == CALC
    device.key("HOME")
    assert device.current_app()[0] != CALC
    device.launch(CALC)
    device.key("KEYCODE_BACK")
    assert device.current_app()[0] != CALC
    with pytest.raises(ValueError):
        device.key("BACK; reboot")


def test_long_press_and_swipe_are_accepted(device):
    fresh(device, CALC)
    xml = device.dump_hierarchy()
    device.tap(*center(node_by_id(xml, "btn_7")))
    # A long press on C resets the calculator (the app's on_long_click).
    device.long_press(*center(node_by_id(xml, "btn_clear")), duration_ms=800)
    assert node_by_id(device.dump_hierarchy(), "result")["text"] in ("", "0")
    device.swipe(540, 1500, 540, 800, 200)


def focus_note(device: Device) -> None:
    fresh(device, NOTES)
    field = node_by_id(device.dump_hierarchy(), "text_note_view")
    device.tap(*center(field))


def typed(device: Device) -> str:
    return node_by_id(device.dump_hierarchy(), "text_note_view")["text"]


@pytest.mark.parametrize("text", [
    "hello world", "it's \"quoted\"", "a;touch /sdcard/pwned", "$(touch /sdcard/pwned)", "`id`",
    "100%sure", "%s%%s", "50% off ", "back\\slash", "tilde~caret^",
])
def test_type_text_lands_exactly_and_never_runs(device, text):
    focus_note(device)
    device.type_text(text)
    assert typed(device) == text
    assert not device.exists("/sdcard/pwned")


@pytest.mark.parametrize("text", ["日本語 😀", "café", "abc\u00a0def"])
def test_type_text_refuses_what_input_text_cannot_type_and_types_nothing(device, text):
    focus_note(device)
    device.type_text("kept")
    with pytest.raises(ValueError, match="cannot type .*printable ASCII"):
        device.type_text(text)
    assert typed(device) == "kept"


def test_type_text_empty_is_a_no_op(device):
    focus_note(device)
    device.type_text("ab")
    device.type_text("")
    assert typed(device) == "ab"


_PRINTABLE = st.characters(min_codepoint=0x20, max_codepoint=0x7E)  # what `input text` can type


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.lists(st.one_of(st.sampled_from(["%s", "%", "s", " ", "'", '"', "\\", "$", "`", ";", "$(x)"]),
                               st.text(_PRINTABLE, max_size=6)), max_size=8).map("".join).filter(bool))
def test_type_text_property(device, text):
    focus_note(device)
    device.type_text(text)
    assert typed(device) == text


# --- apps -----------------------------------------------------------------------------------

def test_launch_current_app_force_stop_clear(device):
    device.launch(CALC, ".activities.SplashActivity.Orange")  # the launcher alias, exported
    assert device.current_app() == (CALC, CALC + ".activities.MainActivity")
    device.force_stop(CALC)
    assert device.current_app()[0] != CALC
    device.clear_app(CALC)
    device.grant(NOTES, "android.permission.POST_NOTIFICATIONS")
    with pytest.raises(AdbCommandError):
        device.clear_app("com.example.absent")
    with pytest.raises(AdbCommandError):
        device.launch("com.example.absent")
    with pytest.raises(AdbCommandError):
        device.launch(CALC, ".NoSuchActivity")
    with pytest.raises(AdbCommandError, match="not exported from uid"):
        device.launch(CALC, ".activities.MainActivity")  # not exported: the shell may not start it
    with pytest.raises(ValueError):
        device.launch("com.x; reboot")


# --- observation -----------------------------------------------------------------------------

def test_dump_hierarchy_is_the_uiautomator_xml(device, adb_device):
    fresh(device, CALC)
    xml = device.dump_hierarchy()
    root = ET.fromstring(xml.encode("utf-8"))
    assert root.tag == "hierarchy"
    assert any(n.get("package") == CALC for n in nodes(xml))
    # The same document adbutils reads (up to its end tag; the file ends with a newline), faster.
    assert xml == adb_device.dump_hierarchy().rstrip("\n")


def test_close_removes_the_dump_file(phone, adb_server_port):
    dev = connect(phone.serial)
    dev.dump_hierarchy()
    assert dev.exists(dev._dump_path)
    dev.close()
    assert not dev.exists(dev._dump_path)


def test_screenshot_png(device):
    from PIL import Image
    import io

    png = device.screenshot_png()
    image = Image.open(io.BytesIO(png))
    image.load()
    assert image.size == (device.width, device.height)


def test_dump_then_screenshot_is_a_dump_and_a_screenshot_in_one_round_trip(device):
    fresh(device, NOTES)
    xml, pending = device.dump_hierarchy_then_screenshot()
    assert xml == device.dump_hierarchy()
    assert pending.png() == device.screenshot_png()


def test_the_dump_arrives_before_the_screen_is_captured(device, phone, monkeypatch):
    # The phone holds its screencap until this test has the XML in hand. Were
    # the XML sent only with the screenshot, the call would return after the
    # hold's bound, and the hold would report that nobody released it.
    released = threading.Event()
    holds = []
    capture = phone.phone.system.screenshot_png

    def held_capture():
        holds.append(released.wait(timeout=WAIT))
        return capture()

    monkeypatch.setattr(phone.phone.system, "screenshot_png", held_capture)
    xml, pending = device.dump_hierarchy_then_screenshot()
    released.set()
    png = pending.png()
    assert holds == [True]
    assert ET.fromstring(xml.encode("utf-8")).tag == "hierarchy"
    assert png == capture()


def test_a_dropped_screenshot_leaves_the_device_serving(device):
    fresh(device, CALC)
    xml, pending = device.dump_hierarchy_then_screenshot()
    pending.drop()
    pending.drop()  # twice is harmless
    assert device.dump_hierarchy() == xml
    assert device.screenshot_png().startswith(b"\x89PNG\r\n\x1a\n")


def test_a_screenshot_failing_after_the_dump_is_a_clear_error(device, phone, monkeypatch):
    def broken_capture():
        raise OSError("surface flinger is gone")

    monkeypatch.setattr(phone.phone.system, "screenshot_png", broken_capture)
    xml, pending = device.dump_hierarchy_then_screenshot()
    assert "</hierarchy>" in xml
    with pytest.raises(AdbCommandError, match="no complete PNG"):
        pending.png()


# --- files -----------------------------------------------------------------------------------

def test_push_pull_exists(device):
    data = bytes(range(256)) * 700  # > 64 KiB: several sync DATA chunks
    path = "/data/local/tmp/test_device_blob.bin"
    device.push(path, data)
    assert device.exists(path)
    assert device.pull(path) == data
    device.push("/sdcard/ünï code.txt", "héllo\n")
    assert device.pull("/sdcard/ünï code.txt") == "héllo\n".encode()
    assert device.exists("/sdcard")
    assert not device.exists("/data/local/tmp/absent.bin")
    with pytest.raises(FileNotFoundError):
        device.pull("/data/local/tmp/absent.bin")
    device.shell(f"rm -f {path}")
    assert not device.exists(path)


# --- events from the listener's socket ------------------------------------------------------

def test_the_listener_stream_delivers_click_events(device):
    with EventServer(dial=listener_dial(device)) as server:
        assert server.wait_for_listener(WAIT)
        fresh(device, CALC)
        server.drain()
        device.tap(*center(node_by_id(device.dump_hierarchy(), "btn_7")))
        clicks = []
        while not clicks:
            assert server.wait(WAIT), "no click event arrived"
            clicks = [e for e in server.drain() if e.type == "click"]
        assert (clicks[0].package, clicks[0].short_id) == (CALC, "btn_7")
        assert server.malformed == 0


def test_open_stream_to_nothing_is_adbs_refusal(device):
    with pytest.raises(AdbCommandError, match="closed"):
        device.open_stream("localabstract:nobody-listens-here")


def test_reverse_and_its_removal(device):
    device.reverse("tcp:8888", "tcp:45678")
    device.remove_reverse("tcp:8888")
    with pytest.raises(AdbCommandError):
        device.remove_reverse("tcp:8888")  # already gone


# --- lost devices ------------------------------------------------------------------------------

def test_device_lost_when_the_phone_stops(adb_server_port):
    from pytest_mobileagent.virtual_phone import start_phones

    with start_phones(1, adb_server_port=adb_server_port) as phones:
        dev = connect(phones[0].serial)
        assert dev.shell("echo up") == "up"
    wait_state(dev.serial, online=False, port=adb_server_port)
    for call in (lambda: dev.shell("echo"), lambda: dev.shell_result("echo"), dev.dump_hierarchy,
                 dev.screenshot_png, lambda: dev.tap(1, 1), lambda: dev.pull("/sdcard/x")):
        with pytest.raises(DeviceLostError):
            call()
    with pytest.raises(DeviceLostError):
        connect(dev.serial)
    dev.close()  # closing a lost device is quiet


def test_unreachable_adb_server_is_device_lost(phone, adb_server_port):
    dev = connect(phone.serial)
    with socket.socket() as s:  # a port where nothing listens
        s.bind(("127.0.0.1", 0))
        dead = s.getsockname()[1]
    dev._fast.addr = ("127.0.0.1", dead)
    with pytest.raises(DeviceLostError, match="not reachable"):
        dev.shell("echo")


# --- DevicePool ----------------------------------------------------------------------------------

def test_pool_requested_serials(phone, adb_server_port):
    with DevicePool([phone.serial]) as pool:
        assert pool.allocate(1) == [phone.serial]
        with pytest.raises(DeviceAllocationError, match="only 1 requested"):
            pool.allocate(2)


def test_pool_unknown_serial_lists_what_is_attached(phone, adb_server_port):
    with pytest.raises(DeviceAllocationError) as info:
        DevicePool([phone.serial, "emulator-9999"]).allocate(1)
    message = str(info.value)
    assert "emulator-9999" in message and phone.serial in message
    assert isinstance(info.value, pytest.UsageError) and isinstance(info.value, MobileAgentError)


def test_pool_too_few_attached_is_a_clear_error(phone, adb_server_port):
    with pytest.raises(DeviceAllocationError, match="1000 devices needed") as info:
        DevicePool().allocate(1000)
    assert phone.serial in str(info.value)


def test_pool_boots_phones_in_subprocesses_and_stops_them(adb_server_port):
    pool = DevicePool()  # several phones: one subprocess each
    try:
        serials = pool.boot(2)
        assert len(set(serials)) == 2
        for serial in serials:
            assert connect(serial).shell("echo booted") == "booted"
        procs = [p.proc for p in pool._phones]
        assert all(p.poll() is None and p.pid != os.getpid() for p in procs)
        # Outside adb's emulator scan, connected to this session's server only: another
        # adb server with default settings lists none of them (as emulator-N neither).
        ports = [int(s.rpartition(":")[2]) for s in serials]
        assert serials == [f"127.0.0.1:{port}" for port in ports] and not any(5555 <= p <= 5585 for p in ports)
        other = _foreign_adb_server_listing()
        assert not set(other) & {*serials, *(f"emulator-{port - 1}" for port in ports)}, other
    finally:
        pool.close()
    assert all(p.poll() is not None for p in procs)
    for serial in serials:
        wait_state(serial, online=False, port=adb_server_port)


def _foreign_adb_server_listing() -> list[str]:
    """What `adb devices` of a freshly started adb server with default settings lists."""
    from pytest_mobileagent.virtual_phone.server import bundled_adb_path

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ADB_", "ANDROID_ADB"))}
    subprocess.run([bundled_adb_path(), "-P", str(port), "start-server"], check=True, timeout=60, env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        return [serial for serial, _state in list_devices(addr=("127.0.0.1", port))]
    finally:
        subprocess.run([bundled_adb_path(), "-P", str(port), "kill-server"], timeout=30, env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def test_pool_boots_one_phone_in_process(adb_server_port):
    with DevicePool() as pool:
        (serial,) = pool.boot(1)
        assert pool._phones == []  # no subprocess for a single phone
        assert connect(serial).shell("echo here") == "here"
        assert serial not in _foreign_adb_server_listing()
    wait_state(serial, online=False, port=adb_server_port)


def test_phones_outlive_the_thread_that_booted_them(adb_server_port):
    """Allocation may run in a short-lived thread (a broker's connection handler)."""
    import threading

    pool = DevicePool(virtual_in_process=False)
    result = {}
    thread = threading.Thread(target=lambda: result.update(serials=pool.boot(1)))
    thread.start()
    thread.join()
    try:
        assert pool._phones[0].proc.poll() is None
        assert connect(result["serials"][0]).shell("echo alive") == "alive"
    finally:
        pool.close()


def test_booted_phone_dies_with_its_owner(adb_server_port):
    """PR_SET_PDEATHSIG: a SIGKILLed run leaves no phone process behind."""
    owner = subprocess.Popen([sys.executable, "-c", textwrap.dedent("""
        import sys
        from pytest_mobileagent.device import DevicePool
        pool = DevicePool(virtual_in_process=False)
        pool.boot(1)
        print(pool._phones[0].proc.pid, flush=True)
        sys.stdin.read()
    """)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        phone_pid = int(owner.stdout.readline())
        os.kill(owner.pid, signal.SIGKILL)
        owner.wait(timeout=WAIT)
        # The phone is not our child: wait on /proc with a bound (it is reparented and reaped).
        deadline = time.monotonic() + WAIT
        while os.path.exists(f"/proc/{phone_pid}") and _state(phone_pid) != "Z":
            assert time.monotonic() < deadline, "phone process outlived its owner"
            time.sleep(0.02)
    finally:
        if owner.poll() is None:
            owner.kill()


def _state(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "gone"


_NETNS_SCRIPT = textwrap.dedent("""
    import os, subprocess, adbutils
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    subprocess.run([adbutils.adb_path(), "-P", "5037", "start-server"], check=True, capture_output=True)
    os.environ["ANDROID_ADB_SERVER_PORT"] = "5037"
    from pytest_mobileagent.device import DevicePool, DeviceAllocationError, connect
    try:
        DevicePool(boot_virtual=False).allocate(1)
    except DeviceAllocationError as exc:
        print("NOBOOT", exc)
    with DevicePool() as pool:
        serials = pool.allocate(2)
        print("SERIALS", *serials)
        print("ECHO", *[connect(s).shell("echo ok") for s in serials])
        # Another adb server with default settings (it scans 5555-5585 as it starts).
        subprocess.run([adbutils.adb_path(), "-P", "5038", "start-server"], check=True, capture_output=True)
        print("OTHER", *[d.serial for d in adbutils.AdbClient(port=5038).device_list()], "-")
        subprocess.run([adbutils.adb_path(), "-P", "5038", "kill-server"], capture_output=True)
        try:
            DevicePool(boot_virtual=False).allocate(2)
        except DeviceAllocationError as exc:
            print("BUSY", exc)
    subprocess.run([adbutils.adb_path(), "-P", "5037", "kill-server"], capture_output=True)
""")


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("unshare") or not shutil.which("ip"),
                    reason="needs root, unshare and ip for a private network namespace")
def test_pool_boots_virtual_phones_when_none_is_attached():
    """In a fresh network namespace no other phone can be listed: allocate() must boot."""
    result = subprocess.run(["unshare", "--net", sys.executable, "-c", _NETNS_SCRIPT],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    lines = dict(line.split(" ", 1) for line in result.stdout.splitlines())
    assert "no device online" in lines["NOBOOT"] and "none" in lines["NOBOOT"]
    serials = lines["SERIALS"].split()
    # Outside adb's emulator scan (odd ports 5555-5585), connected to this run's server only:
    # another server on the machine lists none of them.
    assert len(serials) == 2 and all(s.startswith("127.0.0.1:") for s in serials)
    assert not any(5555 <= int(s.rpartition(":")[2]) <= 5585 for s in serials)
    assert lines["OTHER"] == "-"
    assert lines["ECHO"] == "ok ok"
    # Attached now, but claimed by the first pool: another pool must not share them.
    assert "in use by other runs" in lines["BUSY"] and all(s in lines["BUSY"] for s in serials)
