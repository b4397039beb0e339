"""One adb host connection: the device side of CNXN/OPEN/OKAY/WRTE/CLSE.

Each adb server that finds the phone opens its own TCP connection, so a phone
may have several `Connection`s at once. A connection multiplexes `Stream`s;
every service runs as an asyncio task reading and writing one stream.

Flow control follows protocol version 0x01000001 without `delayed_ack`: after
each WRTE the sender waits for the peer's OKAY. We chunk our writes to the
negotiated payload size, and OKAY the host's WRTE only once a service has
consumed it, which bounds what one stream can buffer to one packet.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from typing import Awaitable, Callable, Protocol

from ..kernel.context import PhoneContext
from ..kernel.processes import adbd_uid
from . import protocol as p

__all__ = ["Connection", "DeviceEndpoint", "Stream", "StreamClosed"]

log = logging.getLogger(__name__)

#: Bound on waiting for the host to acknowledge a write; a host that stalls
#: longer is treated as gone for that stream.
WRITE_ACK_TIMEOUT = 30.0
#: Streams one host connection may hold open at once.
MAX_STREAMS = 256


class StreamClosed(Exception):
    """The stream was closed by the peer (or the connection went away)."""


class Stream:
    """A bidirectional byte stream between one service and the host."""

    @property
    def peer_uid(self) -> int:
        """What a phone socket adbd connects for this stream sees of its peer (SO_PEERCRED,
        kernel/sockets.py): the uid adbd runs as, shell or root after `adb root`."""
        return adbd_uid(self.conn.endpoint.phone)

    def __init__(self, conn: "Connection", local_id: int, remote_id: int):
        self.conn = conn
        self.local_id = local_id
        self.remote_id = remote_id
        self.closed = False
        self._can_send = asyncio.Event()
        self._inbox: deque[bytes] = deque()
        self._inbox_event = asyncio.Event()
        self._pending_okay = 0   # host WRTEs received but not yet acknowledged

    # -- called by the connection --------------------------------------
    def _on_okay(self, remote_id: int) -> None:
        if not self.remote_id:
            self.remote_id = remote_id
        self._can_send.set()

    def _on_data(self, data: bytes) -> None:
        self._inbox.append(data)
        self._pending_okay += 1
        self._inbox_event.set()

    def _on_close(self) -> None:
        self.closed = True
        self._can_send.set()
        self._inbox_event.set()

    # -- service API ------------------------------------------------------
    async def read(self) -> bytes:
        """Next chunk of host data; b"" once the stream is closed."""
        while not self._inbox:
            if self.closed:
                return b""
            self._inbox_event.clear()
            await self._inbox_event.wait()
        data = self._inbox.popleft()
        if self._pending_okay and not self.closed:
            self._pending_okay -= 1
            self.conn.send(p.A_OKAY, self.local_id, self.remote_id)
        return data

    async def write(self, data: bytes) -> None:
        """Send data, chunked to the host's payload size, honouring OKAYs."""
        view = memoryview(data)
        while view:
            await self._wait_can_send()
            view = view[self.write_now(view):]

    def write_now(self, data: bytes) -> int:
        """Send as much of ``data`` as the host takes without waiting; returns how much.

        At most one packet, and only if the host acknowledged the last one:
        for output that synchronous code produces on the serving thread,
        which cannot wait for an OKAY. The rest must go through :meth:`write`.
        """
        if self.closed or not self._can_send.is_set():
            return 0
        chunk = bytes(memoryview(data)[:self.conn.max_payload])
        self._can_send.clear()
        self.conn.send(p.A_WRTE, self.local_id, self.remote_id, chunk)
        return len(chunk)

    async def _wait_can_send(self) -> None:
        if self.closed:
            raise StreamClosed()
        if self._can_send.is_set():
            return  # acknowledged already: wait_for would cost a task and loop turns for nothing
        try:
            await asyncio.wait_for(self._can_send.wait(), WRITE_ACK_TIMEOUT)
        except asyncio.TimeoutError:
            self.close_now()
            raise StreamClosed("host did not acknowledge a write") from None
        if self.closed:
            raise StreamClosed()

    async def close(self) -> None:
        """Close after the host acknowledged everything written."""
        if self.closed:
            return
        try:
            await asyncio.wait_for(self._can_send.wait(), WRITE_ACK_TIMEOUT)
        except asyncio.TimeoutError:
            pass
        self.close_now()

    def close_now(self) -> None:
        if self.closed:
            return
        self._on_close()
        self.conn.forget(self)
        self.conn.send(p.A_CLSE, self.local_id, self.remote_id)


class Connection:
    """The device side of one host connection (one adb server)."""

    _ids = 0

    def __init__(self, endpoint: "DeviceEndpoint", reader: asyncio.StreamReader,
                 writer: asyncio.StreamWriter):
        Connection._ids += 1
        self.id = Connection._ids
        self.endpoint = endpoint
        self.reader = reader
        self.writer = writer
        self.max_payload = 4096  # until CNXN says otherwise
        self.checksums = True  # until CNXN names a version that skips them
        self.online = False
        self.streams: dict[int, Stream] = {}
        self.features: set[str] = set()
        self._next_id = 0
        self._tasks: set[asyncio.Task] = set()
        self.closed = False

    # -- sending ------------------------------------------------------------
    def send(self, command: int, arg0: int, arg1: int, data: bytes = b"") -> None:
        if self.closed:
            return
        self.writer.write(p.encode(command, arg0, arg1, data, checksum=self.checksums))

    def _new_id(self) -> int:
        self._next_id = (self._next_id % 0x7FFFFFFF) + 1
        while self._next_id in self.streams:
            self._next_id = (self._next_id % 0x7FFFFFFF) + 1
        return self._next_id

    def forget(self, stream: Stream) -> None:
        self.streams.pop(stream.local_id, None)

    def spawn(self, coro) -> asyncio.Task:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            exc = task.exception()
            if not isinstance(exc, (StreamClosed, ConnectionError)):
                log.error("service task failed", exc_info=exc)

    # -- receiving ----------------------------------------------------------
    async def serve(self) -> None:
        """Read messages until the host goes away or sends garbage."""
        try:
            while True:
                header = await self.reader.readexactly(p.HEADER_SIZE)
                command, arg0, arg1, length = p.decode_header(header, p.MAX_PAYLOAD)
                data = await self.reader.readexactly(length) if length else b""
                self._dispatch(p.Message(command, arg0, arg1, data))
                if self.writer.transport.get_write_buffer_size() > 4 * p.MAX_PAYLOAD:
                    await self.writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        except p.ProtocolError as exc:
            log.info("closing adb connection %d: %s", self.id, exc)
        except asyncio.CancelledError:
            raise
        except Exception:  # never let one host take the phone down
            log.exception("adb connection %d failed", self.id)
        finally:
            self.shutdown()

    def shutdown(self) -> None:
        if self.closed:
            return
        for stream in list(self.streams.values()):
            stream._on_close()
        self.streams.clear()
        self.closed = True
        for task in list(self._tasks):
            task.cancel()
        self.endpoint.connection_lost(self)
        try:
            self.writer.close()
        except Exception:  # already torn down
            pass

    def _dispatch(self, msg: p.Message) -> None:
        if msg.command == p.A_CNXN:
            self._on_cnxn(msg)
        elif not self.online:
            return  # adbd ignores everything before the handshake
        elif msg.command == p.A_OPEN:
            self._on_open(msg)
        elif msg.command == p.A_OKAY:
            stream = self.streams.get(msg.arg1)
            if stream is not None:
                stream._on_okay(msg.arg0)
        elif msg.command == p.A_WRTE:
            stream = self.streams.get(msg.arg1)
            if stream is None:
                return
            if len(stream._inbox) >= 64:  # a host that ignores flow control
                stream.close_now()
                return
            stream._on_data(msg.data)
        elif msg.command == p.A_CLSE:
            # The host sometimes closes twice; unknown ids are ignored.
            stream = self.streams.pop(msg.arg1, None)
            if stream is not None:
                already = stream.closed
                stream._on_close()
                if not already:
                    self.send(p.A_CLSE, stream.local_id, stream.remote_id)
        # AUTH/STLS/SYNC are not used by hosts talking to a no-auth device.

    def _on_cnxn(self, msg: p.Message) -> None:
        banner = msg.data.rstrip(b"\0").decode("utf-8", "replace")
        if "features=" in banner:
            self.features = set(banner.split("features=", 1)[1].split(";")[0].split(","))
        self.max_payload = max(4096, min(msg.arg1 or 4096, p.MAX_PAYLOAD))
        # The session speaks the lower of the two versions (ours is VERSION).
        self.checksums = min(msg.arg0, p.VERSION) < p.VERSION_SKIP_CHECKSUM
        # A second CNXN means the host restarted the session: drop old streams.
        for stream in list(self.streams.values()):
            stream._on_close()
        self.streams.clear()
        self.online = True
        self.send(p.A_CNXN, p.VERSION, p.MAX_PAYLOAD, self.endpoint.banner().encode())

    def _on_open(self, msg: p.Message) -> None:
        remote_id = msg.arg0
        service = msg.data.rstrip(b"\0").decode("utf-8", "surrogateescape")
        if not remote_id or len(self.streams) >= MAX_STREAMS:
            self.send(p.A_CLSE, 0, remote_id)
            return
        handler = self.endpoint.find_service(service)
        if handler is None:
            # adbd answers an unknown service with CLSE; the adb server then
            # reports "closed" to its client.
            log.info("unknown service %r", service[:80])
            self.send(p.A_CLSE, 0, remote_id)
            return
        stream = Stream(self, self._new_id(), remote_id)
        self.streams[stream.local_id] = stream
        stream._can_send.set()
        self.send(p.A_OKAY, stream.local_id, remote_id)
        self.spawn(self._run_service(handler, stream))

    async def _run_service(self, handler, stream: Stream) -> None:
        try:
            await handler(stream)
        except StreamClosed:
            pass
        except Exception:
            log.exception("service failed")
        finally:
            if not stream.closed:
                await stream.close()


class DeviceEndpoint(Protocol):
    """What adb's connections and services ask of the device they serve (endpoint.Endpoint is one).

    Declared here, below the endpoint that builds connections and finds services, so that
    neither of them imports the endpoint back, even for an annotation.
    """

    phone: PhoneContext

    def banner(self) -> str: ...
    def connection_lost(self, conn: Connection) -> None: ...
    def find_service(self, name: str) -> Callable[[Stream], Awaitable[None]] | None: ...
    def add_reverse(self, conn: Connection, device_spec: str, host_spec: str, norebind: bool) -> str | None: ...
    def remove_reverse(self, conn: Connection, device_spec: str) -> bool: ...
    def remove_all_reverses(self, conn: Connection) -> None: ...
    def list_reverses(self, conn: Connection) -> str: ...
    def send_events_now(self) -> bool: ...
    async def flush_events(self) -> None: ...
    def restart_adbd(self) -> None: ...
    async def wait_state_changed(self) -> None: ...
