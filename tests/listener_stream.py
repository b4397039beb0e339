"""The way tests reach a device's listener: dial its socket through the adb server.

``EventServer(dial=listener_dial(device))`` is what a run's worker builds
(runtime.py), for an adbutils device or the plugin's own Device.
"""

from __future__ import annotations

import functools

from pytest_mobileagent.listener import SOCKET_NAME

__all__ = ["listener_dial"]


def listener_dial(device):
    """A callable opening a fresh stream to ``device``'s listener socket."""
    if hasattr(device, "open_stream"):  # pytest_mobileagent.device.Device
        return functools.partial(device.open_stream, f"localabstract:{SOCKET_NAME}")
    import adbutils

    return functools.partial(device.create_connection, adbutils.Network.LOCAL_ABSTRACT, SOCKET_NAME)


class ListenerSink:
    """A device's events as JSON objects, read straight off the listener's socket.

    What the listener buffered before this connection is skipped: after the
    hello, a hierarchy request is sent and everything up to its reply (which
    the listener queues behind the events it holds) is dropped.
    """

    def __init__(self, device, timeout: float = 15.0) -> None:
        from pytest_mobileagent.listener import HELLO

        self.sock = listener_dial(device)()
        self.sock.settimeout(timeout)
        self.buffer = b""
        self.sock.sendall(HELLO)
        hello = self._next()
        assert hello.get("type") == "hello", f"the listener did not say hello: {hello}"
        self.sock.sendall(b'{"req":"hierarchy","req_id":0}\n')
        while not (self._next().get("type") == "hierarchy"):
            pass

    def _next(self) -> dict:
        import json

        while b"\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise AssertionError("the listener's stream closed")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def next_event(self) -> dict:
        while True:
            obj = self._next()
            if obj.get("type") != "hierarchy":
                return obj

    def events_until(self, predicate, limit: int = 300) -> list[dict]:
        """Every event read up to and with the first that satisfies ``predicate``."""
        seen: list[dict] = []
        for _ in range(limit):
            seen.append(self.next_event())
            if predicate(seen[-1]):
                return seen
        raise AssertionError(f"no matching event in {limit}; saw {seen}")

    def wait_for(self, predicate, limit: int = 300) -> dict:
        """The first event that satisfies ``predicate``."""
        return self.events_until(predicate, limit)[-1]

    def close(self) -> None:
        self.sock.close()
