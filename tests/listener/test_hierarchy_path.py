"""The hierarchy path: the host asks the listener for the active window's XML
over the event connection, instead of running `uiautomator dump`."""

from __future__ import annotations

import json
import socket
import threading
import xml.etree.ElementTree as ET

import pytest

from listener_stream import listener_dial
from pytest_mobileagent.events.server import EventServer

CALC = "com.simplemobiletools.calculator"


def _nodes(xml: str) -> list[dict[str, str]]:
    """Every node's attributes, in document order (attribute order kept)."""
    return [dict(node.attrib) | {"_depth": str(depth)} for node, depth in _walk(ET.fromstring(xml), 0)]


def _walk(element, depth):
    for child in element:
        yield child, depth
        yield from _walk(child, depth + 1)


@pytest.fixture
def listening(adb_device):
    with EventServer(dial=listener_dial(adb_device)) as server:
        assert server.wait_for_listener(10), f"the set-up phone's listener did not answer: {server.dial_error}"
        yield server


def test_listener_hierarchy_matches_uiautomator_dump_node_for_node(adb_device, listening):
    adb_device.shell(f"am force-stop {CALC}; monkey -p {CALC} -c android.intent.category.LAUNCHER 1")
    for taps in ([], ["btn_7", "btn_plus", "btn_8"]):
        for tap in taps:
            node = next(n for n in _nodes(adb_device.dump_hierarchy()) if n["resource-id"] == f"{CALC}:id/{tap}")
            left, top, right, bottom = map(int, node["bounds"].replace("][", ",").strip("[]").split(","))
            adb_device.click((left + right) // 2, (top + bottom) // 2)
        from_listener = listening.request_hierarchy(timeout=10)
        from_dump = adb_device.dump_hierarchy()
        assert from_listener is not None
        assert _nodes(from_listener) == _nodes(from_dump)
        assert list(_nodes(from_listener)[0]) == list(_nodes(from_dump)[0])  # attribute order too
        assert from_listener == from_dump


def test_replies_are_not_events(adb_device, listening):
    listening.drain()
    assert listening.request_hierarchy(timeout=10).startswith("<?xml")
    assert [e for e in listening.drain() if e.type == "hierarchy"] == []


def test_a_phone_without_the_listener_never_connects(adb_server_port, phone_factory):
    import adbutils

    bare = phone_factory(1, prepare=False)[0]
    device = adbutils.AdbClient(port=adb_server_port).device(bare.serial)
    with EventServer(dial=listener_dial(device)) as server:
        assert not server.wait_for_listener(1.0)
        assert server.request_hierarchy(timeout=1.0) is None
        assert "closed" in server.dial_error  # adbd: nobody listens on the socket


class FakeListener:
    """A socket client acting as the listener app: answers requests with canned XML."""

    def __init__(self, port: int, reply):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.reply = reply
        self.requests: list[dict] = []
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        buf = b""
        while True:
            try:
                data = self.sock.recv(65536)
            except OSError:
                return
            if not data:
                return
            buf += data
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                request = json.loads(line)
                self.requests.append(request)
                self.sock.sendall(self.reply(request))

    def close(self):
        self.sock.close()


def test_request_reply_against_a_fake_listener():
    big = "<hierarchy>" + "x" * 200_000 + "</hierarchy>"  # bigger than an event line may be
    with EventServer() as server:
        listener = FakeListener(server.port, lambda r: (json.dumps(
            {"v": 1, "type": "click", "package": "p"}) + "\n" + json.dumps(
            {"v": 1, "type": "hierarchy", "req_id": r["req_id"], "xml": big}) + "\n").encode())
        try:
            assert server.wait_for_listener(10)
            assert server.request_hierarchy(timeout=10) == big
            assert server.request_hierarchy(timeout=10) == big
            assert [r["req_id"] for r in listener.requests] == [1, 2]
            assert [e.type for e in server.drain()] == ["click", "click"]
        finally:
            listener.close()


def test_a_listener_that_does_not_answer_gives_none():
    with EventServer() as server:
        listener = FakeListener(server.port, lambda r: b"")
        try:
            assert server.wait_for_listener(10)
            assert server.request_hierarchy(timeout=0.3) is None
        finally:
            listener.close()


def test_a_malformed_reply_is_counted_and_dropped():
    with EventServer() as server:
        listener = FakeListener(server.port, lambda r: b'{"v":1,"type":"hierarchy","req_id":"x"}\n')
        try:
            assert server.wait_for_listener(10)
            assert server.request_hierarchy(timeout=0.3) is None
            assert server.malformed == 1
        finally:
            listener.close()


def test_no_listener_means_no_hierarchy():
    with EventServer() as server:
        assert not server.listener_connected
        assert server.request_hierarchy(timeout=5) is None
