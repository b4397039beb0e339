"""Sockets that programs on the phone listen on, reached through adb.

On Android a host reaches a program on the phone with adb's socket services:
``adb forward tcp:H tcp:9008`` (or adbutils' ``create_connection``) makes the
host's adb server OPEN ``tcp:9008`` on the device, and adbd connects to the
phone's port 9008 (``socket_spec_connect`` in adb's ``socket_spec.cpp``). The
same goes for ``localabstract:NAME``, ``localreserved:NAME`` (``local:NAME``
on the device) and ``localfilesystem:PATH``.

This module is the phone's table of listening sockets. A program on the
phone (uiautomator2's server, Appium's server, a helper app) listens with::

    listener = phone.sockets.listen("tcp:9008", serve)   # or "localabstract:NAME"
    ...
    listener.close()        # or close the Program that owns it (programs.py)

where ``serve`` is ``async def serve(conn)`` run on the phone's event loop
for each connection; ``conn`` has ``await conn.read() -> bytes`` (b"" at
end of stream), ``await conn.write(data)``, ``conn.write_now(data)`` (what the
socket takes without waiting), ``await conn.close()``, ``conn.closed`` and
``conn.peer_uid``, the uid of the process that connected (``SO_PEERCRED``, which
Android's ``LocalSocket.getPeerCredentials`` reads). When the handler returns,
the connection is closed.

When nothing listens, adbd cannot connect, so ``create_local_service_socket``
gives nothing and adbd answers the OPEN with CLSE (``adb.cpp``, A_OPEN); the
adb server then tells its client ``FAIL closed`` (adbutils raises
``AdbError('closed')``), and a connection through ``adb forward`` is closed
without data. A ``tcp:`` address naming another host is refused the same way
("adbd does not support arbitrary tcp connections").
"""

from __future__ import annotations

import asyncio
import errno
import threading
from typing import Awaitable, Callable, Protocol

__all__ = ["Listener", "SocketConnection", "SocketTable", "parse_address", "is_socket_spec"]

#: The socket namespaces adbd knows on a device (socket_spec.cpp kLocalSocketTypes);
#: ``local:`` means the reserved namespace there (/dev/socket/NAME).
_LOCAL_KINDS = {"local": "localreserved", "localreserved": "localreserved",
                "localabstract": "localabstract", "localfilesystem": "localfilesystem"}
_LOOPBACK_NAMES = ("", "localhost")


class SocketConnection(Protocol):
    """One accepted connection, as a listener's handler sees it (an adb stream)."""

    closed: bool
    #: the connecting process's uid (SO_PEERCRED)
    peer_uid: int

    async def read(self) -> bytes: ...

    async def write(self, data: bytes) -> None: ...

    def write_now(self, data: bytes) -> int: ...

    async def close(self) -> None: ...


Handler = Callable[[SocketConnection], Awaitable[None]]


def is_socket_spec(spec: str) -> bool:
    """Whether an adb service name is a socket address (``is_socket_spec`` in adb)."""
    kind = spec.partition(":")[0]
    return bool(spec.partition(":")[1]) and (kind in _LOCAL_KINDS or kind in ("tcp", "vsock", "acceptfd"))


def parse_address(spec: str) -> tuple[str, str | int] | None:
    """``(namespace, name)`` for a socket address on this phone, or None when adbd refuses it.

    ``tcp:9008`` and ``tcp:localhost:9008`` give ``("tcp", 9008)``; other
    hosts, bad ports, ``vsock:`` and ``acceptfd:`` are not reachable here.
    """
    kind, sep, rest = spec.partition(":")
    if not sep:
        return None
    if kind in _LOCAL_KINDS:
        return (_LOCAL_KINDS[kind], rest) if rest else None
    if kind != "tcp" or not rest:
        return None
    host, _, port = rest.rpartition(":")
    if host not in _LOOPBACK_NAMES or not port.isdigit():
        return None  # adbd connects only to its own loopback
    number = int(port)
    return ("tcp", number) if 0 < number <= 65535 else None


class Listener:
    """A listening socket; closing it refuses new connections and ends open ones."""

    def __init__(self, table: "SocketTable", key: tuple[str, str | int], handler: Handler):
        self.table = table
        self.key = key
        self.handler = handler
        self.closed = False
        self._connections: set[SocketConnection] = set()
        self._loop: asyncio.AbstractEventLoop | None = None  # where the connections are served

    @property
    def address(self) -> str:
        namespace, name = self.key
        return f"{namespace}:{name}"

    async def serve(self, conn: SocketConnection) -> None:
        """Run the handler for one connection (called by adb's service dispatch)."""
        if self.closed:
            await conn.close()
            return
        self._loop = asyncio.get_running_loop()
        self._connections.add(conn)
        try:
            await self.handler(conn)
        finally:
            self._connections.discard(conn)

    def close(self) -> None:
        """Stop listening and hang up the open connections (as a dying process's sockets do).

        Safe from any thread: the hang-ups happen on the loop serving them.
        """
        if self.closed:
            return
        self.closed = True
        self.table._remove(self)
        if self._loop is None or not self._connections:
            return
        try:
            on_loop = asyncio.get_running_loop() is self._loop
        except RuntimeError:
            on_loop = False
        if on_loop:
            self._hang_up()
        elif not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._hang_up)

    def _hang_up(self) -> None:
        for conn in list(self._connections):
            close_now = getattr(conn, "close_now", None)  # an adb Stream: CLSE at once
            if close_now is not None:
                close_now()


class SocketTable:
    """Every socket a program on the phone listens on, by namespace and name."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._listeners: dict[tuple[str, str | int], Listener] = {}

    def listen(self, address: str, handler: Handler) -> Listener:
        """Listen on ``address`` (``tcp:PORT``, ``localabstract:NAME``, ...).

        Raises OSError(EADDRINUSE) when another program holds it, as bind() does,
        and ValueError for an address that is not one.
        """
        key = parse_address(address)
        if key is None:
            raise ValueError(f"not a socket address on the phone: {address!r}")
        with self._lock:
            if key in self._listeners:
                raise OSError(errno.EADDRINUSE, "Address already in use", address)
            listener = self._listeners[key] = Listener(self, key, handler)
        return listener

    def find(self, address: str) -> Listener | None:
        """The listener a connection to ``address`` reaches, or None (connection refused)."""
        key = parse_address(address)
        if key is None:
            return None
        with self._lock:
            return self._listeners.get(key)

    def listening(self) -> list[str]:
        """Addresses listened on, sorted (for diagnostics and ``ss``-like listings)."""
        with self._lock:
            return sorted(listener.address for listener in self._listeners.values())

    def _remove(self, listener: Listener) -> None:
        with self._lock:
            if self._listeners.get(listener.key) is listener:
                del self._listeners[listener.key]
