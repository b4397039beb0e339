"""The adb face of one phone: its banner, its services, its reverse forwards.

An `Endpoint` is shared by every host connection to the phone. It routes each
OPEN to a service coroutine. The listener app's events reach the host on the
connection the host opened to the app's socket (listener protocol 2,
programs/listener_app.py); before a command's reply leaves, that connection
gets the events the command caused (flush_events).
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from typing import Awaitable, Callable

from ..programs import listener_app
from . import services
from ..kernel.clock import PROGRAM_MS
from ..kernel.context import PhoneContext
from .transport import Connection, Stream

__all__ = ["Endpoint", "FEATURES"]

#: Features we implement; adb clients change behaviour per feature, so
#: advertising one we lack breaks them (see ADB_NOTES.md).
FEATURES = ("shell_v2", "cmd", "stat_v2", "ls_v2", "fixed_push_mkdir")

Service = Callable[[Stream], Awaitable[None]]


class Endpoint:
    """Everything adb-facing about one phone, shared by its host connections."""

    def __init__(self, phone: "PhoneContext", loop: asyncio.AbstractEventLoop):
        self.phone = phone
        self.loop = loop
        self.connections: list[Connection] = []
        # device spec -> (connection that registered it, host spec); last wins,
        # like adbd's single listener per device port.
        self.reverses: dict[str, tuple[Connection, str]] = {}
        #: set (and replaced) whenever the phone's state may have changed: for track-jdwp
        self._state_changed = asyncio.Event()
        phone.add_event_sink(self._event_from_any_thread)

    def banner(self) -> str:
        props = self.phone.props
        return ("device::"
                f"ro.product.name={props.get('ro.product.name', '')};"
                f"ro.product.model={props.get('ro.product.model', '')};"
                f"ro.product.device={props.get('ro.product.device', '')};"
                f"features={','.join(FEATURES)}")

    # -- connections ----------------------------------------------------------
    async def handle_client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        sock = writer.get_extra_info("socket")
        if sock is not None:
            # Small packets (OKAY, WRTE, CLSE) must not wait for delayed ACKs:
            # with Nagle on, every command costs ~40 ms.
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        conn = Connection(self, reader, writer)
        self.connections.append(conn)
        await conn.serve()

    def connection_lost(self, conn: Connection) -> None:
        if conn in self.connections:
            self.connections.remove(conn)
        for spec, (owner, _) in list(self.reverses.items()):
            if owner is conn:
                del self.reverses[spec]

    def close(self) -> None:
        self.phone.remove_event_sink(self._event_from_any_thread)
        for conn in list(self.connections):
            conn.shutdown()

    def find_service(self, name: str) -> Service | None:
        return services.find(self, name)

    def restart_adbd(self) -> None:
        """adbd exits and init starts it again (`adb root`/`adb unroot`): every host connection
        drops, and the server's next connection meets the new adbd on the same port. The new
        adbd is a program init starts: it takes the phone's PROGRAM_MS (kernel/clock.py)."""
        self.phone.advance_clock(PROGRAM_MS)
        for conn in list(self.connections):
            conn.shutdown()

    # -- reverse forwards -------------------------------------------------------
    def add_reverse(self, conn: Connection, device_spec: str, host_spec: str, norebind: bool) -> str | None:
        """Register a reverse forward; returns an error message or None."""
        existing = self.reverses.get(device_spec)
        if existing is not None and norebind:
            return "cannot rebind existing socket"
        self.reverses[device_spec] = (conn, host_spec)
        return None

    def remove_reverse(self, conn: Connection, device_spec: str) -> bool:
        existing = self.reverses.get(device_spec)
        if existing is None or existing[0] is not conn:
            return False
        del self.reverses[device_spec]
        return True

    def remove_all_reverses(self, conn: Connection) -> None:
        for spec, (owner, _) in list(self.reverses.items()):
            if owner is conn:
                del self.reverses[spec]

    def list_reverses(self, conn: Connection) -> str:
        return "".join(f"host-{conn.id} {spec} {host}\n"
                       for spec, (owner, host) in self.reverses.items() if owner is conn)

    # -- state changes (track-jdwp) -------------------------------------------------
    def _event_from_any_thread(self, event: dict) -> None:
        """A UI event: the phone's state may have changed (the event itself is the listener's)."""
        try:
            on_loop = asyncio.get_running_loop() is self.loop
        except RuntimeError:
            on_loop = False
        if on_loop:
            self._note_state_changed()
        else:
            self.loop.call_soon_threadsafe(self._note_state_changed)

    def _note_state_changed(self) -> None:
        self._state_changed.set()
        self._state_changed = asyncio.Event()

    async def wait_state_changed(self) -> None:
        """Return after the phone's state next may have changed: a command ran, or a UI event."""
        await self._state_changed.wait()

    # -- events -------------------------------------------------------------------
    def send_events_now(self) -> bool:
        """Send the listener's pending events to its client without waiting, if it takes them now.

        For output that leaves while its command line still runs
        (``services._EarlyOutput``), which must not overtake the events of
        the commands before it. True when no event is left pending.
        """
        return listener_app.send_now(self.phone)

    async def flush_events(self) -> None:
        """Send the listener's pending events now: called before a command's reply goes out.

        A tap's click event then travels ahead of the tap's reply through the
        same adb server, so a host that reads its events once the command
        returned finds them (EventServer.drain). On a real phone the listener
        app has the second a uiautomator dump takes; here a dump takes a
        millisecond.
        """
        self._note_state_changed()  # a command ran: a process may have started or ended
        await listener_app.flush(self.phone)
