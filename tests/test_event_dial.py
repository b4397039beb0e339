"""The event server's side of listener protocol 2: it dials the listener, says hello, redials.

A scripted listener on a real Unix socket plays the device's side (the
virtual phone's and the APK's own sides have their tests in
tests/virtual_phone/ and listener_apk/test/); these tests pin what the
server does with each answer it can get.
"""

from __future__ import annotations

import json
import os
import queue
import socket
import tempfile
import threading

import pytest

from pytest_mobileagent.events import EventServer

WAIT = 5.0  # upper bound for anything to arrive; tests never sleep


class ScriptedListener:
    """A listening Unix socket; each accepted connection is handed to the test, which
    reads the client's hello and answers as the test wants."""

    def __init__(self) -> None:
        self.dir = tempfile.mkdtemp(prefix="mobileagent-dial-")
        self.path = os.path.join(self.dir, "listener.sock")
        self.sock: socket.socket | None = None
        self.accepted: "queue.Queue[socket.socket]" = queue.Queue()
        self._thread: threading.Thread | None = None

    def start(self) -> "ScriptedListener":
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.bind(self.path)
        self.sock.listen(8)
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()
        return self

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            conn.settimeout(WAIT)
            self.accepted.put(conn)

    def stop(self) -> None:
        if self.sock is not None:
            self.sock.close()
            self.sock = None
            os.unlink(self.path)

    def dial(self) -> socket.socket:
        """What the worker's dial does: a connected stream, or an error when nobody listens."""
        sock = socket.socket(socket.AF_UNIX)
        try:
            sock.connect(self.path)
        except OSError:
            sock.close()
            raise
        return sock

    def next_client(self) -> "Client":
        return Client(self.accepted.get(timeout=WAIT))


class Client:
    """The listener's end of one connection the server opened."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.reader = sock.makefile("rb")

    def read_json(self) -> dict:
        return json.loads(self.reader.readline())

    def send(self, **obj) -> None:
        self.sock.sendall(json.dumps(obj).encode() + b"\n")

    def hello(self, protocol: int = 2, dropped: int = 0) -> None:
        assert self.read_json() == {"req": "hello", "protocol": 2}
        self.send(v=1, type="hello", protocol=protocol, package="io.github.mobileagent.listener",
                  version_code=1, dropped=dropped)

    def close(self) -> None:
        self.reader.close()
        self.sock.close()


@pytest.fixture
def listener():
    scripted = ScriptedListener().start()
    yield scripted
    scripted.stop()
    os.rmdir(scripted.dir)


def _events(server: EventServer, n: int) -> list:
    got: list = []
    while len(got) < n:
        assert server.wait(WAIT), f"only {len(got)} of {n} events arrived"
        got += server.drain()
    return got


def test_the_server_dials_says_hello_and_takes_events_and_hierarchy_replies(listener):
    with EventServer(dial=listener.dial) as server:
        assert server.port == 0 and server.unix_path is None  # it listens on nothing
        client = listener.next_client()
        assert not server.listener_connected  # not before the hello
        client.hello()
        assert server.wait_for_listener(WAIT)
        client.send(v=1, type="click", package="p", id="p:id/save", text=["Save"], time_ms=1)
        (event,) = _events(server, 1)
        assert (event.type, event.id) == ("click", "p:id/save")
        ticket = server.send_hierarchy_request()
        request = client.read_json()
        assert request["req"] == "hierarchy"
        client.send(v=1, type="hierarchy", req_id=request["req_id"], xml="<hierarchy/>")
        assert server.hierarchy_reply(ticket, WAIT) == "<hierarchy/>"
        client.close()


def test_a_refusal_is_kept_as_the_reason_and_the_server_dials_again(listener):
    with EventServer(dial=listener.dial) as server:
        first = listener.next_client()
        assert first.read_json()["req"] == "hello"
        first.send(v=1, type="refused", reason="another client is connected")
        first.close()
        second = listener.next_client()  # it came back on its own
        assert server.dial_error == "the listener refused the connection: another client is connected"
        assert not server.listener_connected
        second.hello()
        assert server.wait_for_listener(WAIT)
        assert server.dial_error is None
        second.close()


def test_a_listener_of_another_protocol_is_named_with_the_fix(listener):
    with EventServer(dial=listener.dial) as server:
        client = listener.next_client()
        client.hello(protocol=1)
        listener.next_client().close()  # the server hung up and dialled again
        assert "speaks protocol 1, this plugin needs 2" in server.dial_error
        assert "mobileagent-setup" in server.dial_error
        assert not server.listener_connected
        client.close()


def test_a_first_line_that_is_not_a_hello_is_not_taken_for_events(listener):
    with EventServer(dial=listener.dial) as server:
        client = listener.next_client()
        client.read_json()
        client.send(v=1, type="click", package="p", id="p:id/a", time_ms=1)
        listener.next_client().close()
        assert "did not answer with a hello" in server.dial_error
        assert server.drain() == []
        client.close()


def test_nobody_listening_is_the_reason_until_the_listener_starts(listener):
    listener.stop()  # the accessibility service is off: adb answers "closed" on a phone
    with EventServer(dial=listener.dial) as server:
        assert not server.wait_for_listener(0.5)
        assert server.dial_error.startswith("cannot open the listener's socket: ")
        listener.start()
        listener.next_client().hello()
        assert server.wait_for_listener(WAIT)


def test_a_lost_stream_is_dialled_again_and_the_events_kept_meanwhile_arrive(listener):
    with EventServer(dial=listener.dial) as server:
        first = listener.next_client()
        first.hello()
        assert server.wait_for_listener(WAIT)
        first.close()  # the listener restarted, say
        second = listener.next_client()
        # The listener kept what happened while nobody was connected, and sends it after its hello.
        second.hello(dropped=3)
        second.send(v=1, type="click", package="p", id="p:id/while_away", time_ms=2)
        (event,) = _events(server, 1)
        assert event.id == "p:id/while_away"
        assert server.dropped == 3  # the listener's own drops count as the run's
        second.close()


def test_pause_hangs_up_and_resume_dials_again(listener):
    with EventServer(dial=listener.dial) as server:
        first = listener.next_client()
        first.hello()
        assert server.wait_for_listener(WAIT)
        server.pause_listener()
        assert first.reader.readline() == b""  # hung up on
        assert not server.listener_connected
        assert listener.accepted.empty()  # and not dialled again while paused
        server.resume_listener()
        listener.next_client().hello()
        assert server.wait_for_listener(WAIT)
        first.close()
