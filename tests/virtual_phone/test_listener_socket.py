"""The listener app's socket (protocol 2, issue 40): the host dials ``localabstract:mobileagent-listener``.

Every test reaches the phone's listener model (programs/listener_app.py) through the real
adb server and adbutils, as the pytest worker does. Each starts from a freshly started
service (switched off and on again): an empty buffer and ``dropped`` 0.
"""

from __future__ import annotations

import json
import select
import socket

import adbutils
import pytest
from uihelpers import CALC, NOTES, center, find, launch

from pytest_mobileagent.apkinfo import read_apk
from pytest_mobileagent.listener import APK_PATH, PACKAGE, PROTOCOL, SERVICE, SOCKET_NAME

HELLO = {"req": "hello", "protocol": PROTOCOL}
#: listener_buffer.CAPACITY, as the protocol fixes it
CAPACITY = 4096


class ListenerClient:
    """One connection to the listener, read line by line.

    The adb server writes to this socket with Nagle's algorithm on (it turns it off only on
    the sockets it connects itself, socket_spec.cpp's disable_tcp_nagle: `adb reverse`'s
    did): a small event line waits for the ACK of the line before it, which Linux delays
    by up to 40 ms. Re-arming TCP_QUICKACK after each read makes every line leave at once,
    as a host that reads its events once a command returned needs.
    """

    def __init__(self, sock: socket.socket):
        self.sock = sock
        self.sock.settimeout(10)
        self.buffer = b""
        self._quick_ack()

    def _quick_ack(self) -> None:
        if hasattr(socket, "TCP_QUICKACK"):
            self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_QUICKACK, 1)

    def _recv(self) -> bytes:
        data = self.sock.recv(65536)
        self._quick_ack()
        return data

    @classmethod
    def connect(cls, device: adbutils.AdbDevice) -> "ListenerClient":
        return cls(device.create_connection(adbutils.Network.LOCAL_ABSTRACT, SOCKET_NAME))

    def send(self, obj) -> None:
        self.sock.sendall((obj if isinstance(obj, bytes) else json.dumps(obj).encode()) + b"\n")

    def line(self) -> dict:
        while b"\n" not in self.buffer:
            chunk = self._recv()
            if not chunk:
                raise ConnectionError(f"the listener closed the connection (left: {self.buffer!r})")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def hello(self) -> dict:
        self.send(HELLO)
        reply = self.line()
        assert reply["type"] == "hello", reply
        return reply

    def arrived(self) -> list[dict]:
        """The whole lines that have arrived already, read without waiting for more."""
        while select.select([self.sock], [], [], 0)[0]:
            chunk = self._recv()
            if not chunk:
                break
            self.buffer += chunk
        *lines, self.buffer = self.buffer.split(b"\n")
        return [json.loads(line) for line in lines]

    def rest_until_closed(self) -> list[dict]:
        """The lines left, read until the listener closes the connection."""
        while chunk := self._recv():
            self.buffer += chunk
        lines, self.buffer = self.buffer.split(b"\n"), b""
        assert lines[-1] == b"", f"an unfinished line at the close: {lines[-1]!r}"
        return [json.loads(line) for line in lines[:-1]]

    def events_until(self, **wanted) -> list[dict]:
        """Lines up to and including the first with the wanted fields."""
        seen = []
        while True:
            event = self.line()
            seen.append(event)
            if all(event.get(k) == v for k, v in wanted.items()):
                return seen

    def close(self) -> None:
        self.sock.close()


def _set_service(device, on: bool, enabled: str) -> None:
    value = enabled if on else ""
    device.shell(f"settings put secure enabled_accessibility_services '{value}'")


@pytest.fixture
def listener(adb_device):
    """The listener restarted (fresh buffer); restored to how it was when the test ends."""
    enabled = adb_device.shell("settings get secure enabled_accessibility_services")
    assert SERVICE in enabled.split(":") or f"{PACKAGE}/.ListenerService" in enabled.split(":"), enabled
    clients: list[ListenerClient] = []

    class Listener:
        def connect(self) -> ListenerClient:
            client = ListenerClient.connect(adb_device)
            clients.append(client)
            return client

        def off(self) -> None:
            _set_service(adb_device, False, enabled)

        def on(self) -> None:
            _set_service(adb_device, True, enabled)

    handle = Listener()
    handle.off()
    handle.on()
    try:
        yield handle
    finally:
        for client in clients:
            client.close()
        handle.on()


def _key(event: dict) -> tuple:
    """An event without its time (two runs of the same steps differ only in time)."""
    texts = [t if len(t) < 40 else f"({len(t)} characters)" for t in event.get("text", [])]
    return tuple(sorted((k, json.dumps(texts if k == "text" else v)) for k, v in event.items() if k != "time_ms"))


def test_hello_names_the_listener_and_its_drops(adb_device, listener):
    client = listener.connect()
    client.send(HELLO)
    raw = client._recv()
    line, _, client.buffer = raw.partition(b"\n")
    assert json.loads(line) == {"v": 1, "type": "hello", "protocol": 2, "package": PACKAGE,
                                "version_code": read_apk(APK_PATH.read_bytes()).version_code, "dropped": 0}
    assert list(json.loads(line)) == ["v", "type", "protocol", "package", "version_code", "dropped"]


@pytest.fixture
def no_writer_of_its_own(monkeypatch):
    """The listener's writer idles: events reach a client only when adbd sends them ahead of a reply.

    On the phone's loop the writer runs microseconds after a reply left, too soon for a
    host to notice that the reply went first; without it, the order is adbd's alone.
    """
    import asyncio

    from pytest_mobileagent.virtual_phone.programs import listener_app

    async def idle(self, client):
        await asyncio.Event().wait()

    monkeypatch.setattr(listener_app.ListenerService, "_pump", idle)


def test_a_taps_click_is_on_the_stream_before_the_tap_command_returns(adb_device, listener, no_writer_of_its_own):
    from pytest_mobileagent.device import Device

    launch(adb_device.shell, CALC)
    keys = [center(find(adb_device.dump_hierarchy(), resource_id=f"{CALC}:id/btn_{d}")) for d in "1234"]
    client = listener.connect()
    client.hello()
    fast = Device(adb_device.serial)  # adbutils' own calls take ~20 ms: long enough to hide a late event
    try:
        for digit, (x, y) in zip("1234", keys):
            fast.tap(x, y)
            clicks = [e["id"] for e in client.arrived() if e["type"] == "click"]
            assert clicks == [f"{CALC}:id/btn_{digit}"], f"the click on {digit} was not there when the tap returned"
    finally:
        fast.close()


def test_a_taps_click_goes_ahead_of_output_that_leaves_before_its_line_ends(adb_device, listener, phone,
                                                                            no_writer_of_its_own, monkeypatch):
    # A command line's output leaves as each command finishes (a dump before the screencap
    # after it), and must not overtake the events of the commands before it. The phone holds
    # the screencap until this test has looked, so what the test reads left before the line ended.
    import threading

    from pytest_mobileagent.device.fast_adb import FastAdb

    launch(adb_device.shell, CALC)
    keys = [center(find(adb_device.dump_hierarchy(), resource_id=f"{CALC}:id/btn_{d}")) for d in "123"]
    client = listener.connect()
    client.hello()
    released, holds = threading.Event(), []
    capture = phone.phone.system.screenshot_png

    def held_capture():
        holds.append(released.wait(timeout=10))
        return capture()

    monkeypatch.setattr(phone.phone.system, "screenshot_png", held_capture)
    fast = FastAdb(adb_device.serial)
    try:
        for digit, (x, y) in zip("123", keys):
            reply = fast.exec_out_until(f"input tap {x} {y} && echo tapped && screencap -p", b"tapped")
            arrived = client.arrived()
            released.set()
            assert reply.rest().startswith(b"\n\x89PNG")  # the line ran to its end
            released.clear()
            clicks = [e["id"] for e in arrived if e["type"] == "click"]
            assert clicks == [f"{CALC}:id/btn_{digit}"], f"the click on {digit} was not there when the output came"
        assert holds == [True] * 3  # every screencap waited for this test, not for the bound
    finally:
        released.set()


def test_events_while_no_client_is_connected_arrive_after_the_hello(adb_device, listener):
    launch(adb_device.shell, CALC)
    seven = center(find(adb_device.dump_hierarchy(), resource_id=f"{CALC}:id/btn_7"))
    adb_device.click(*seven)
    client = listener.connect()
    assert client.hello()["dropped"] == 0
    seen = client.events_until(type="click")
    assert seen[-1]["id"] == f"{CALC}:id/btn_7" and seen[-1]["package"] == CALC
    assert [e["package"] for e in seen if e["type"] == "window_state"][-1] == CALC
    # the same connection goes on with new events, and a client that goes leaves them to the next
    adb_device.click(*seven)
    assert client.line()["type"] == "click"
    client.close()
    adb_device.click(*seven)
    again = listener.connect()
    assert again.hello()["dropped"] == 0
    assert again.events_until(type="click")[-1]["id"] == f"{CALC}:id/btn_7"


def _flood(adb_device) -> None:
    """More events than the buffer holds: Notes, then Calculator, then Notes (the app) again.

    Every DEL in the note is one text_changed event whose text is one shorter, so each
    event is told from the others.
    """
    launch(adb_device.shell, CALC)
    launch(adb_device.shell, NOTES)
    adb_device.shell("input text " + "a" * 4400)
    adb_device.shell("input keyevent " + " ".join(["DEL"] * 300))  # old events of the app
    adb_device.shell(f"monkey -p {CALC} -c android.intent.category.LAUNCHER 1")
    one = center(find(adb_device.dump_hierarchy(), resource_id=f"{CALC}:id/btn_1"))
    adb_device.shell("; ".join([f"input tap {one[0]} {one[1]}"] * 40))  # another package's
    adb_device.shell(f"monkey -p {NOTES} -c android.intent.category.LAUNCHER 1")
    for _ in range(4):
        adb_device.shell("input keyevent " + " ".join(["DEL"] * 1000))  # the app's, newest


def _kept(events: list[dict], capacity: int) -> tuple[list[dict], int]:
    """The protocol's rule, applied naively: what a buffer of ``capacity`` keeps, and its drops."""
    kept: list[dict] = []
    app, dropped = "", 0
    for event in events:
        if event["type"] == "window_state":
            app = event["package"]
        if len(kept) >= capacity:
            others = [i for i, e in enumerate(kept) if e["package"] != app]
            del kept[others[0] if others else 0]
            dropped += 1
        kept.append(event)
    return kept, dropped


@pytest.mark.slow  # 8,700 events through the phone and adb: about half a minute
def test_the_buffer_keeps_4096_lines_dropping_other_packages_oldest_first(adb_device, listener):
    # The same steps twice: first with a client reading every event as it comes (so none
    # is dropped), then with none connected until the end.
    import threading

    def restart_at_home() -> None:
        """The same start for both runs: the home screen, left from the Calculator, an empty buffer."""
        adb_device.shell(f"monkey -p {CALC} -c android.intent.category.LAUNCHER 1")
        adb_device.shell("input keyevent HOME")
        listener.off()
        listener.on()

    restart_at_home()
    client = listener.connect()
    client.hello()
    everything: list[dict] = []
    failed: list[BaseException] = []

    def read_all() -> None:
        try:
            everything.extend(client.events_until(type="hierarchy"))
        except BaseException as exc:  # reported below, not lost in the thread
            failed.append(exc)

    # the host drains as the phone goes (a client that stops reading holds the commands' replies);
    # the steps between two events may take long on a busy machine: no read bound but the join's
    client.sock.settimeout(None)
    reader = threading.Thread(target=read_all, daemon=True)
    reader.start()
    try:
        _flood(adb_device)
    finally:
        client.send({"req": "hierarchy", "req_id": 1})  # its reply comes after every event before it
        reader.join(120)
    assert not failed and not reader.is_alive(), failed
    assert everything[-1]["type"] == "hierarchy"
    del everything[-1]
    client.close()
    assert len(everything) > CAPACITY

    restart_at_home()
    _flood(adb_device)
    late = listener.connect()
    hello = late.hello()
    late.send({"req": "hierarchy", "req_id": 2})
    received = late.events_until(type="hierarchy")[:-1]

    expected, dropped = _kept(everything, CAPACITY)
    assert len(received) == CAPACITY
    assert hello["dropped"] == dropped == len(everything) - CAPACITY
    assert [_key(e) for e in received] == [_key(e) for e in expected]
    # what the rule decides here: the Calculator's events all went, the app's oldest only partly
    assert not [e for e in received if e["package"] == CALC]
    assert any(e["package"] == CALC for e in everything)
    assert received[0]["package"] == NOTES and received[0]["type"] == "text_changed"
    assert _key(received[0]) != _key(everything[0]) and _key(everything[-1]) == _key(received[-1])


def test_a_second_client_is_refused_and_the_first_keeps_working(adb_device, listener):
    launch(adb_device.shell, CALC)
    seven = center(find(adb_device.dump_hierarchy(), resource_id=f"{CALC}:id/btn_7"))
    first = listener.connect()
    first.hello()
    first.events_until(type="window_state", package=CALC)
    second = listener.connect()
    assert second.rest_until_closed() == [{"v": 1, "type": "refused", "reason": "another client is connected"}]
    adb_device.click(*seven)
    assert first.events_until(type="click")[-1]["id"] == f"{CALC}:id/btn_7"
    first.close()
    # once the first went, the next connection is served
    third = listener.connect()
    third.hello()
    adb_device.click(*seven)
    assert third.events_until(type="click")[-1]["id"] == f"{CALC}:id/btn_7"


@pytest.mark.parametrize("first_line, reason", [
    (b'{"req":"hello","protocol":1}', "the client speaks protocol 1; this listener speaks protocol 2"),
    (b'{"req":"hello","protocol":"2"}', 'the client speaks protocol "2"; this listener speaks protocol 2'),
    (b'{"req":"hello"}', "the client speaks protocol null; this listener speaks protocol 2"),
    (b'{"req":"hierarchy","req_id":1}', 'the first line must be a hello: {"req":"hello","protocol":2}'),
    (b"GET / HTTP/1.1", 'the first line must be a hello: {"req":"hello","protocol":2}'),
    (b"x" * 5000, 'the first line must be a hello: {"req":"hello","protocol":2}'),
])
def test_a_bad_hello_is_refused_and_the_next_client_served(adb_device, listener, first_line, reason):
    bad = listener.connect()
    bad.send(first_line)
    assert bad.rest_until_closed() == [{"v": 1, "type": "refused", "reason": reason}]
    good = listener.connect()
    assert good.hello()["protocol"] == 2


def test_a_client_that_sends_no_hello_is_refused(adb_device, listener, monkeypatch):
    from pytest_mobileagent.virtual_phone.programs import listener_app

    monkeypatch.setattr(listener_app, "HELLO_TIMEOUT", 0.2)  # 5 s on the phone; the rule, not the wait
    silent = listener.connect()
    assert silent.rest_until_closed() == [{"v": 1, "type": "refused", "reason": "no hello within 0.2 s"}]
    assert listener.connect().hello()["dropped"] == 0


def test_hierarchy_requests_are_answered_on_the_connection(adb_device, listener):
    launch(adb_device.shell, CALC)
    client = listener.connect()
    client.hello()
    client.send({"req": "hierarchy", "req_id": 7})
    client.send(b'{"req":"nothing"}')  # ignored, as by the app
    client.send({"req": "hierarchy", "req_id": 8})
    replies = [e for e in client.events_until(type="hierarchy", req_id=8) if e["type"] == "hierarchy"]
    assert [r["req_id"] for r in replies] == [7, 8]
    assert replies[0]["v"] == 1 and replies[0]["xml"] == adb_device.dump_hierarchy()


def test_the_socket_closes_with_the_service_and_opens_with_it(adb_device, listener):
    client = listener.connect()
    client.hello()
    listener.off()
    assert client.rest_until_closed() == []
    with pytest.raises(adbutils.AdbError, match="closed"):
        ListenerClient.connect(adb_device)
    listener.on()
    assert listener.connect().hello()["dropped"] == 0


def _enabled_services(adb_device) -> list[str]:
    return adb_device.shell("settings get secure enabled_accessibility_services").split(":")


def test_the_socket_goes_with_the_package_and_stays_off_when_it_is_back(adb_device, listener):
    # AccessibilityManagerService switches a removed package's services off: a reinstalled
    # listener listens only once mobileagent-setup (here: the setting) switches it on again.
    client = listener.connect()
    client.hello()
    try:
        assert adb_device.shell(f"pm uninstall {PACKAGE}") == "Success"
        assert client.rest_until_closed() == []
        with pytest.raises(adbutils.AdbError, match="closed"):
            ListenerClient.connect(adb_device)
        assert not [s for s in _enabled_services(adb_device) if s.startswith(PACKAGE + "/")]
    finally:
        adb_device.install(str(APK_PATH), nolaunch=True, silent=True)
    with pytest.raises(adbutils.AdbError, match="closed"):
        ListenerClient.connect(adb_device)
    listener.on()
    assert listener.connect().hello()["package"] == PACKAGE


def test_force_stopping_the_listener_switches_its_service_off(adb_device, listener):
    client = listener.connect()
    client.hello()
    adb_device.shell(f"am force-stop {PACKAGE}")
    assert client.rest_until_closed() == []
    assert not [s for s in _enabled_services(adb_device) if s.startswith(PACKAGE + "/")]
    with pytest.raises(adbutils.AdbError, match="closed"):
        ListenerClient.connect(adb_device)
    listener.on()
    assert listener.connect().hello()["dropped"] == 0


def test_adb_forward_reaches_the_listener(adb_device, listener):
    launch(adb_device.shell, CALC)
    port = adb_device.forward_port(f"localabstract:{SOCKET_NAME}")
    try:
        client = ListenerClient(socket.create_connection(("127.0.0.1", port), timeout=10))
        try:
            client.hello()
            assert client.events_until(type="window_state", package=CALC)
        finally:
            client.close()
    finally:
        adb_device.forward_remove(f"tcp:{port}")


def test_only_shell_and_root_are_served():
    # Every connection to the phone's sockets comes through adbd, which runs as shell, or as
    # root after `adb root` (transport.Stream.peer_uid): the phone has no in-phone client (no app or `nc` connects to a
    # local socket), so an app uid's refusal is checked on the rule the listener applies.
    from pytest_mobileagent.virtual_phone.programs.listener_app import refused_line, uid_refusal

    assert uid_refusal(2000) is None and uid_refusal(0) is None
    assert refused_line(uid_refusal(10057)) == (
        b'{"v":1,"type":"refused","reason":"uid 10057 may not read the listener: only shell (2000) and root (0)"}\n')
