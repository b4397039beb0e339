"""The adb face of one phone: its banner, its services, its reverse forwards.

An `Endpoint` is shared by every host connection to the phone. It routes each
OPEN to a service coroutine and relays the phone's accessibility events to the
host port that `adb reverse tcp:8888 tcp:PORT` maps (listener protocol 1; the
listener app's own socket, protocol 2, is programs/listener_app.py). Before a
command's reply leaves, both get the events the command caused (flush_events).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import logging
from collections import deque
from typing import Awaitable, Callable

from ...listener import SERVICE as LISTENER_SERVICE
from ..programs import listener_app
from . import services
from ..kernel.context import PhoneContext
from .transport import Connection, Stream, StreamClosed

__all__ = ["EVENT_PORT", "Endpoint", "FEATURES"]

log = logging.getLogger(__name__)

#: Features we implement; adb clients change behaviour per feature, so
#: advertising one we lack breaks them (see ADB_NOTES.md).
FEATURES = ("shell_v2", "cmd", "stat_v2", "ls_v2", "fixed_push_mkdir")
#: The device port the listener app (and the virtual phone) sends events to.
EVENT_PORT = "tcp:8888"
#: The event types the listener app subscribes to.
LISTENER_EVENT_TYPES = listener_app.EVENT_TYPES
#: Events kept while the host stream is being (re)opened.
MAX_QUEUED_EVENTS = 10_000

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
        self._events: deque[bytes] = deque(maxlen=MAX_QUEUED_EVENTS)
        self._events_ready = asyncio.Event()
        self._event_stream: Stream | None = None
        self._event_target: tuple[Connection, str] | None = None
        self._delivering = asyncio.Lock()
        self._relay_task = loop.create_task(self._relay_events())
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
        self._relay_task.cancel()
        for conn in list(self.connections):
            conn.shutdown()

    def find_service(self, name: str) -> Service | None:
        return services.find(self, name)

    # -- reverse forwards -------------------------------------------------------
    def add_reverse(self, conn: Connection, device_spec: str, host_spec: str, norebind: bool) -> str | None:
        """Register a reverse forward; returns an error message or None."""
        existing = self.reverses.get(device_spec)
        if existing is not None and norebind:
            return "cannot rebind existing socket"
        self.reverses[device_spec] = (conn, host_spec)
        if device_spec == EVENT_PORT:
            self._events_ready.set()  # a new target: reopen the event stream
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

    # -- events -------------------------------------------------------------------
    def _event_from_any_thread(self, event: dict) -> None:
        if event.get("type") not in LISTENER_EVENT_TYPES:
            return  # the framework does not send it to the listener
        line = (json.dumps(event, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is self.loop:
            self._queue_event(line)
        else:
            self.loop.call_soon_threadsafe(self._queue_event, line)

    def _queue_event(self, line: bytes) -> None:
        if EVENT_PORT not in self.reverses:
            return  # nobody listens: dropped, as on a phone with no listener
        if not self.phone.packages.accessibility_service_enabled(LISTENER_SERVICE):
            return  # the listener app is not installed or not switched on: nobody sends them
        self._events.append(line)
        self._events_ready.set()

    async def _relay_events(self) -> None:
        """Deliver queued event lines over one persistent stream per target."""
        while True:
            await self._events_ready.wait()
            self._events_ready.clear()
            target = self.reverses.get(EVENT_PORT)
            if target != self._event_target and self._event_stream is not None:
                self._event_stream.close_now()
                self._event_stream = None
            self._event_target = target
            if target is None:
                self._events.clear()
                continue
            if (self._event_stream is None or self._event_stream.closed) and self.listener_running():
                # The listener app dials the host as soon as it can, events or not.
                await self._connect(target)
            await self._deliver_queued(target)

    def send_events_now(self) -> bool:
        """Send the queued events without waiting, if the event streams take them now.

        For output that leaves while its command line still runs
        (``services._EarlyOutput``), which must not overtake the events of
        the commands before it. True when no event is left queued, on the
        listener's served connection (protocol 2) and on the reverse stream
        (protocol 1).
        """
        served_sent = listener_app.send_now(self.phone)
        return self._send_reverse_events_now() and served_sent

    def _send_reverse_events_now(self) -> bool:
        if not self._events:
            return True
        stream = self._event_stream
        if (stream is None or stream.closed or self._delivering.locked()
                or self.reverses.get(EVENT_PORT) != self._event_target):
            return False  # opening or switching the stream needs the host's answer
        batch = b"".join(self._events)
        self._events.clear()
        sent = stream.write_now(batch)
        if sent < len(batch):
            self._events.append(batch[sent:])  # the rest of a line is still a line's rest: order is kept
        return sent == len(batch)

    async def flush_events(self) -> None:
        """Send the queued events now: called before a command's reply goes out.

        A tap's click event then travels ahead of the tap's reply through the
        same adb server, so a host that reads its events once the command
        returned finds them (EventServer.drain). On a real phone the listener
        app has the second a uiautomator dump takes; here a dump takes a
        millisecond.
        """
        await listener_app.flush(self.phone)
        target = self.reverses.get(EVENT_PORT)
        if target is not None and target == self._event_target:  # else the relay is switching targets
            await self._deliver_queued(target)

    async def _deliver_queued(self, target: tuple[Connection, str]) -> None:
        """Deliver what is queued, if anything; a failure is logged, never raised."""
        if not self._events:
            return
        try:
            async with self._delivering:  # the relay and flush_events take turns
                if self._events:
                    await self._deliver(target)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("event delivery failed")

    def listener_running(self) -> bool:
        """Whether the listener app is installed and its accessibility service on."""
        return self.phone.packages.accessibility_service_enabled(LISTENER_SERVICE)

    async def _connect(self, target: tuple[Connection, str]) -> bool:
        """Open the listener's stream to the host; False when the host refuses."""
        try:
            async with self._delivering:
                if self._event_stream is None or self._event_stream.closed:
                    conn, host_spec = target
                    stream = await conn.open_stream(host_spec)
                    if stream is None:
                        return False
                    self._event_stream = stream
                    conn.spawn(self._serve_requests(stream))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("opening the event stream failed")
            return False
        return True

    async def _deliver(self, target: tuple[Connection, str]) -> None:
        conn, host_spec = target
        for _attempt in range(2):
            if self._event_stream is None or self._event_stream.closed:
                self._event_stream = await conn.open_stream(host_spec)
                if self._event_stream is None:
                    # The host refused (nothing listening there): drop, as the
                    # listener app would fail to connect and lose them.
                    self._events.clear()
                    return
                conn.spawn(self._serve_requests(self._event_stream))
            batch = b"".join(self._events)
            self._events.clear()
            try:
                await self._event_stream.write(batch)
                return
            except StreamClosed:
                self._event_stream = None
                self._events.extendleft(reversed(batch.splitlines(keepends=True)))

    async def _serve_requests(self, stream: Stream) -> None:
        """Answer the host's requests on the event stream, as the listener app does.

        ``{"req":"hierarchy","req_id":N}`` gets one line with the active
        window's hierarchy in `uiautomator dump` XML, queued behind the events
        already waiting; anything else is ignored, as by the app.
        """
        pending = b""
        while True:
            data = await stream.read()
            if not data:
                return
            pending += data
            *lines, pending = pending.split(b"\n")
            for line in lines:
                req_id = _hierarchy_request_id(line)
                if req_id is None or not self.listener_running():
                    continue
                xml = self.phone.system.dump_xml()
                reply = {"v": 1, "type": "hierarchy", "req_id": req_id, "xml": xml}
                self._events.append((json.dumps(reply, ensure_ascii=False, separators=(",", ":")) + "\n").encode())
                if not self.send_events_now():  # at once when the stream is free: the host is waiting
                    self._events_ready.set()


def _hierarchy_request_id(line: bytes) -> int | None:
    try:
        obj = json.loads(line)
    except ValueError:
        return None
    if not isinstance(obj, dict) or obj.get("req") != "hierarchy":
        return None
    req_id = obj.get("req_id")
    return req_id if isinstance(req_id, int) and not isinstance(req_id, bool) else None
