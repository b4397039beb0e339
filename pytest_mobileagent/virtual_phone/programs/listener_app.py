"""The plugin's listener app (``io.github.mobileagent.listener``): its accessibility service, serving.

mobileagent-setup installs the listener APK (listener_apk/) with `adb install` and switches
its accessibility service on (``enabled_accessibility_services``, ``accessibility_enabled 1``).
While the service is bound, the app speaks listener protocol 2 (issue 40):

- it listens on the abstract socket ``mobileagent-listener`` (``new LocalServerSocket(NAME)``),
  which the host reaches through any adb server with ``localabstract:mobileagent-listener``;
  when the service is switched off or the package removed, the socket closes with it;
- it buffers every event line from the moment it starts (listener_buffer.py: 4096 lines, other
  packages' events dropped before the foreground app's, a running ``dropped`` count);
- at accept it checks the peer's uid (``LocalSocket.getPeerCredentials``): only root (0) and
  shell (2000, which adbd runs as) are served; it serves one client at a time; each connection
  must open with ``{"req":"hello","protocol":2}`` within 5 s. A refused connection gets one
  ``{"v":1,"type":"refused","reason":...}`` line and is closed;
- after the hello it writes the hello reply, every buffered line oldest first, then each
  event as it happens, and answers ``{"req":"hierarchy","req_id":N}`` on the same connection
  with the active window's `uiautomator dump` XML, between lines.

On a phone the listener has the second a host's next `uiautomator dump` takes to send a tap's
click; here a command answers in a millisecond, so adbd sends the served client what is
buffered before each command's reply (`flush` and `send_now`, called by adbd/endpoint.py):
the host's event socket holds a tap's click when `input tap` returns.
"""

from __future__ import annotations

import asyncio
import json
import logging
import weakref

from ...listener import PACKAGE, PROTOCOL, SERVICE, SOCKET_NAME
from ..framework.active_services import SYNCERS
from ..kernel.context import PhoneContext
from ..kernel.sockets import SocketConnection
from .listener_buffer import EventBuffer

__all__ = ["ADDRESS", "EVENT_TYPES", "HELLO_TIMEOUT", "ListenerService", "flush", "running", "send_now", "sync"]

log = logging.getLogger(__name__)

#: Where the service listens, as adb names it.
ADDRESS = f"localabstract:{SOCKET_NAME}"
#: The event types the service subscribes to (listener_apk/res/xml/listener_service.xml,
#: accessibilityEventTypes); it does not ask for interactive windows, so it gets no "windows_changed".
EVENT_TYPES = frozenset({"click", "long_click", "text_changed", "focus", "scroll", "window_state",
                         "window_content"})
#: Seconds a new connection has to send its hello.
HELLO_TIMEOUT = 5.0
#: The uids served: root and shell (android_filesystem_config.h AID_ROOT, AID_SHELL).
SERVED_UIDS = (0, 2000)
#: Longest first line read as a hello, and longest request line; longer ones are not requests.
MAX_HELLO_LINE = 4096
MAX_REQUEST_LINE = 64 * 1024

_RUNNING: "weakref.WeakKeyDictionary[PhoneContext, ListenerService]" = weakref.WeakKeyDictionary()


def _line(obj: dict) -> bytes:
    return (json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


def refused_line(reason: str) -> bytes:
    """The one line a refused connection gets before it is closed."""
    return _line({"v": 1, "type": "refused", "reason": reason})


def uid_refusal(uid: int) -> str | None:
    """Why a peer of ``uid`` is refused, or None when it is served."""
    if uid in SERVED_UIDS:
        return None
    return f"uid {uid} may not read the listener: only shell (2000) and root (0)"


def hello_refusal(line: bytes) -> str | None:
    """Why a connection whose first line is ``line`` is refused, or None for a protocol-2 hello."""
    try:
        obj = json.loads(line)
    except ValueError:
        obj = None
    if not isinstance(obj, dict) or obj.get("req") != "hello":
        return f'the first line must be a hello: {{"req":"hello","protocol":{PROTOCOL}}}'
    protocol = obj.get("protocol")
    if type(protocol) is not int or protocol != PROTOCOL:
        return (f"the client speaks protocol {json.dumps(protocol)}; "
                f"this listener speaks protocol {PROTOCOL}")
    return None


class _LineTooLong(Exception):
    pass


class _Lines:
    """The lines a client writes, read from its connection's chunks."""

    def __init__(self, conn: SocketConnection):
        self.conn = conn
        self.pending = b""
        self.skipping = False  # inside a line that was too long: dropped up to its end

    async def next(self, limit: int) -> bytes | None:
        """The next line without its newline; None at end of stream; _LineTooLong past ``limit``."""
        while True:
            end = self.pending.find(b"\n")
            if end >= 0:
                line, self.pending = self.pending[:end], self.pending[end + 1:]
                if self.skipping:
                    self.skipping = False
                    continue
                return line
            if len(self.pending) > limit:
                self.pending, self.skipping = b"", True
                raise _LineTooLong()
            data = await self.conn.read()
            if not data:
                return None
            self.pending += data


class _Client:
    """The connection being served, and what is written to it."""

    def __init__(self, conn: SocketConnection):
        self.conn = conn
        self.loop = asyncio.get_running_loop()
        #: the hello reply was written: events flow
        self.served = False
        #: lines handed to the socket and not yet written (its send buffer; lost with it)
        self.unsent: list[bytes] = []
        self.wake = asyncio.Event()
        #: the pump, flush and replies take turns writing
        self.writing = asyncio.Lock()


class ListenerService:
    """The bound accessibility service: its buffer and its server socket."""

    def __init__(self, phone: PhoneContext):
        self.phone = phone
        self.buffer = EventBuffer()
        self._client: _Client | None = None
        self.listener = phone.sockets.listen(ADDRESS, self._accept)
        phone.add_event_sink(self._on_event)

    def stop(self) -> None:
        """onDestroy: the service stops, its socket and connection close, its buffer goes."""
        self.phone.remove_event_sink(self._on_event)
        self.listener.close()

    # -- events ------------------------------------------------------------------------
    def _on_event(self, event: dict) -> None:
        """onAccessibilityEvent: one line into the buffer, and the client woken."""
        kind = event.get("type")
        if kind not in EVENT_TYPES:
            return  # the framework does not send it to the service
        self.buffer.add(event.get("package") or "", _line(event), kind == "window_state")
        client = self._client
        if client is None or not client.served:
            return
        try:
            on_loop = asyncio.get_running_loop() is client.loop
        except RuntimeError:
            on_loop = False
        if on_loop:
            client.wake.set()
        elif not client.loop.is_closed():
            client.loop.call_soon_threadsafe(client.wake.set)

    def has_unsent(self) -> bool:
        """Whether lines wait for the served client (none served: nothing waits)."""
        client = self._client
        return (client is not None and client.served
                and bool(client.unsent or len(self.buffer) or client.writing.locked()))

    def send_now(self) -> bool:
        """Hand the served client what waits, without waiting; True when nothing is left.

        For output that leaves while its command line still runs (adbd's early output),
        which must not overtake the events of the commands before it: at most one packet
        goes at once, and only when no write is under way.
        """
        client = self._client
        if client is None or not client.served:
            return True  # no client: events wait in the buffer for the next one
        if client.writing.locked():
            return False  # a write waits for the host: what follows waits behind it
        data = self._take(client)
        if not data:
            return True
        sent = client.conn.write_now(data)
        if sent < len(data):
            client.unsent.append(data[sent:])  # the rest goes first next time: order is kept
        return sent == len(data)

    async def flush(self) -> None:
        """Write what waits to the served client now: before a command's reply leaves."""
        client = self._client
        if client is None or not client.served:
            return
        try:
            await self._send(client)
        except Exception:  # the client went away: its reader ends the connection
            log.debug("listener client lost while flushing", exc_info=True)

    def _take(self, client: _Client) -> bytes:
        lines = client.unsent
        lines.extend(self.buffer.take())
        client.unsent = []
        return b"".join(lines)

    async def _send(self, client: _Client) -> None:
        async with client.writing:
            while data := self._take(client):
                await client.conn.write(data)

    async def _pump(self, client: _Client) -> None:
        """The writer thread: sends each event as it comes, until the client goes."""
        try:
            while True:
                client.wake.clear()
                await self._send(client)
                await client.wake.wait()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.debug("listener client lost", exc_info=True)

    # -- connections -----------------------------------------------------------------------
    async def _accept(self, conn: SocketConnection) -> None:
        """One accepted connection: checked, then served until it goes, or refused."""
        reason = uid_refusal(conn.peer_uid)
        if reason is None and self._client is not None:
            reason = "another client is connected"
        if reason is not None:
            await conn.write(refused_line(reason))
            return  # the socket closes when the handler returns
        client = self._client = _Client(conn)
        try:
            await self._serve(client)
        finally:
            if self._client is client:
                self._client = None

    async def _serve(self, client: _Client) -> None:
        conn = client.conn
        lines = _Lines(conn)
        try:
            first = await asyncio.wait_for(lines.next(MAX_HELLO_LINE), HELLO_TIMEOUT)
        except asyncio.TimeoutError:
            await conn.write(refused_line(f"no hello within {HELLO_TIMEOUT:g} s"))
            return
        except _LineTooLong:
            first = b""
        if first is None:
            return  # gone before its hello
        reason = hello_refusal(first)
        if reason is not None:
            await conn.write(refused_line(reason))
            return
        client.unsent.append(_line({"v": 1, "type": "hello", "protocol": PROTOCOL, "package": PACKAGE,
                                    "version_code": self.phone.packages.version_code(PACKAGE),
                                    "dropped": self.buffer.dropped}))
        client.served = True
        try:
            await self._send(client)  # the hello's answer, then every buffered line
        except Exception:
            return  # gone already
        pump = asyncio.get_running_loop().create_task(self._pump(client))
        try:
            while True:
                try:
                    line = await lines.next(MAX_REQUEST_LINE)
                except _LineTooLong:
                    continue  # not a request: ignored, as any other line
                if line is None:
                    return  # the client went: the next connection is served
                req_id = _hierarchy_request_id(line)
                if req_id is None:
                    continue  # anything else is ignored, as by the app
                reply = _line({"v": 1, "type": "hierarchy", "req_id": req_id, "xml": self.phone.system.dump_xml()})
                client.unsent.extend(self.buffer.take())  # the reply goes behind the events before it
                client.unsent.append(reply)
                try:
                    await self._send(client)  # at once: the host is waiting
                except Exception:
                    return
        finally:
            pump.cancel()


def _hierarchy_request_id(line: bytes) -> int | None:
    try:
        obj = json.loads(line)
    except ValueError:
        return None
    if not isinstance(obj, dict) or obj.get("req") != "hierarchy":
        return None
    req_id = obj.get("req_id")
    return req_id if isinstance(req_id, int) and not isinstance(req_id, bool) else None


def running(phone: PhoneContext) -> ListenerService | None:
    """The phone's bound listener service, if any."""
    return _RUNNING.get(phone)


def send_now(phone: PhoneContext) -> bool:
    """`ListenerService.send_now` of the phone's listener; True when none runs."""
    service = _RUNNING.get(phone)
    return service is None or service.send_now()


async def flush(phone: PhoneContext) -> None:
    """`ListenerService.flush` of the phone's listener, when one runs and has lines waiting."""
    service = _RUNNING.get(phone)
    if service is not None and service.has_unsent():
        await service.flush()


def sync(phone: PhoneContext) -> None:
    """Bind or unbind the service after its package or the accessibility settings changed."""
    service = _RUNNING.get(phone)
    enabled = phone.packages.accessibility_service_enabled(SERVICE)
    if enabled and service is None:
        _RUNNING[phone] = ListenerService(phone)
    elif not enabled and service is not None:
        del _RUNNING[phone]
        service.stop()


SYNCERS.append(sync)
