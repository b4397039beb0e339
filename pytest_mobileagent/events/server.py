"""The per-worker event server: the listener app's stream, and MobileAgentBench POSTs.

The listener app serves its events on the device (listener protocol 2,
``listener_apk/README.md``): the server *dials* it through the device's own
adb server (``localabstract:mobileagent-listener``), so a device behind
another machine's adb server needs no reverse and no tunnel. It says hello,
checks the listener's protocol, and dials again every
:data:`REDIAL_SECONDS` while the listener is away; the listener buffers
events meanwhile.

It can also listen (a Unix socket or a loopback port) for senders that push:
the original MobileAgentBench listener's HTTP POSTs, which reach it through
``adb reverse``, and tools that write JSON lines. A connection's first bytes
decide its protocol: ``POST `` means HTTP, anything else means JSON lines.

One background thread runs a ``selectors`` loop over every socket, so there
is no polling and no thread per client. Bad input is counted, logged and
dropped; it never stops the server and, where the framing allows, never ends
the connection.

Memory stays bounded whatever a sender does: lines are capped in length,
undrained events in number (:data:`MAX_PENDING`, the rest counted in
``dropped``), and malformed input is logged once per connection, with its
count when the connection ends, so that a flood of it does not become a flood
of retained log records.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import selectors
import socket
import threading
import time
import weakref
from typing import Callable

from pytest_mobileagent.errors import MalformedEventError
from pytest_mobileagent.listener import HELLO as _HELLO, read_hello
from pytest_mobileagent.tempdirs import make_run_tempdir

from .model import MAX_LINE_BYTES, Event, parse_event_line, parse_mab_post

__all__ = ["REDIAL_SECONDS", "EventServer", "private_socket_path"]

log = logging.getLogger("pytest_mobileagent.events")

_RECV = 64 * 1024
#: Most events kept between two drains; an episode drains after every action.
MAX_PENDING = 20_000
_MAX_HEAD = 16 * 1024
#: Longest line buffered: a hierarchy reply carries a whole window's XML. Event
#: lines are still held to MAX_LINE_BYTES by their parser.
_MAX_FRAME = 16 * 1024 * 1024
# A listener's reply to a hierarchy request, told apart from events before parsing.
_HIERARCHY_REPLY = re.compile(rb'"type"\s*:\s*"hierarchy"')
_POST = b"POST "
#: Linux's TCP_QUICKACK (None elsewhere): see _service.
_QUICKACK = getattr(socket, "TCP_QUICKACK", None)
#: How soon a lost (or not yet started) listener is dialled again.
REDIAL_SECONDS = 0.2
_UNDECIDED, _LINES, _HTTP = "undecided", "lines", "http"


def _http_response(status: str, body: bytes, close: bool) -> bytes:
    head = (
        f"HTTP/1.1 {status}\r\nContent-Type: text/plain\r\n"
        f"Content-Length: {len(body)}\r\nConnection: {'close' if close else 'keep-alive'}\r\n\r\n"
    )
    return head.encode("ascii") + body


class _Conn:
    """Framing state of one client connection."""

    def __init__(self, sock: socket.socket, peer: str):
        self.sock = sock
        self.peer = peer
        self.mode = _UNDECIDED
        self.buf = bytearray()
        self.out = bytearray()
        self.skipping = False  # inside an oversized line, dropping until its newline
        self.malformed = 0  # inputs dropped on this connection (logged once, counted at close)
        self.close_after_write = False
        self.closed = False
        self.answered = False  # it sent a hierarchy reply: it is the listener, not just any sender
        self.dialed = False  # the connection this server opened to the listener's socket
        self.greeted = False  # the listener's hello came in on it
        self.quickack = False  # a TCP stream from an adb server: ACK every read at once (see _service)


#: Servers whose listener stream a forked child must not keep (see _forget_streams_in_child).
_DIALLING: "weakref.WeakSet[EventServer]" = weakref.WeakSet()


def _forget_streams_in_child() -> None:
    """In a child forked from a worker (a judge's or an agent's own fork), close its copies of
    the listener streams: the listener serves one client, and it would go on seeing this one
    connected as long as any process holds the socket, keeping the next run from its events."""
    for server in list(_DIALLING):
        conn = server._dialed
        if conn is not None:
            with contextlib.suppress(OSError):
                conn.sock.close()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_streams_in_child)


def private_socket_path(name: str = "events.sock") -> str:
    """A socket path in a fresh directory only this user can enter (mode 0700)."""
    return os.path.join(make_run_tempdir("events"), name)


class EventServer:
    """Receives app events: from the listener it dials, and from senders that connect; one per worker.

    Use as a context manager or call :meth:`start` / :meth:`stop`. Events are
    kept until :meth:`drain` hands them out; :meth:`wait` blocks until one is
    available. ``malformed`` counts dropped inputs.
    """

    def __init__(self, host: str = "127.0.0.1", port: int = 0, *, unix_path: str | None = None,
                 dial: "Callable[[], socket.socket] | None" = None, listen: bool | None = None):
        """``dial``: opens a stream to the listener's socket on the device
        (``Device.open_stream("localabstract:mobileagent-listener")``); called
        by the receiving thread, again whenever the stream is lost.
        ``listen``: also accept connections (default: only when there is
        nothing to dial), on ``host``:``port`` or on ``unix_path``.

        ``unix_path``: listen on this Unix socket instead of a TCP port (``port`` stays 0).

        Any local process can connect to a loopback TCP port; a Unix socket in
        a directory only its owner can enter (see :func:`private_socket_path`)
        keeps other users out, and the adb server (``adb reverse tcp:8888
        localfilesystem:PATH``, adb 29 and 36 alike) is the way in for the device.
        """
        self.host = host
        self._requested_port = port
        self.unix_path = unix_path
        self._dial = dial
        self._listen = dial is None if listen is None else listen
        self._dialed: _Conn | None = None
        self._redial_at: float | None = None
        #: Why the listener could not be reached the last time (None once it said hello).
        self.dial_error: str | None = None
        self._listener_dropped = 0  # the listener's own running count, as of its last hello
        self._paused = False  # pause_listener(): the listener's one client slot is lent to someone else
        self.port = 0
        self.malformed = 0
        self.dropped = 0  # well-formed events dropped because MAX_PENDING were waiting
        self._seq = 0
        self._pending: list[Event] = []
        self._cond = threading.Condition()
        self._io = threading.Lock()  # the receiving thread and drain's poll take turns on the sockets
        self._sel: selectors.BaseSelector | None = None
        self._listener: socket.socket | None = None
        self._wake_r: socket.socket | None = None
        self._wake_w: socket.socket | None = None
        self._thread: threading.Thread | None = None
        self._stopping = False
        # Listener connections (JSON lines or not yet decided), newest last, and
        # the hierarchy replies they sent, by request id.
        self._line_conns: list[_Conn] = []
        self._replies: dict[int, str] = {}
        self._next_request = 0

    # -- lifecycle ---------------------------------------------------------
    def start(self) -> "EventServer":
        """Bind, listen and start the receiving thread; returns self."""
        if self._thread is not None:
            return self
        listener = self._open_listening_socket() if self._listen else None
        # A socketpair wakes the selector (stop(), a redial to schedule), so nothing polls.
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._sel = selectors.DefaultSelector()
        if listener is not None:
            self._sel.register(listener, selectors.EVENT_READ, "accept")
        self._sel.register(self._wake_r, selectors.EVENT_READ, "wake")
        self._stopping = False
        if self._dial is not None:
            self._redial_at = 0.0  # at once, from the receiving thread
            _DIALLING.add(self)
        name = f"mobileagent-events:{self.port}" if listener is not None else "mobileagent-events:listener"
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()
        return self

    def _open_listening_socket(self) -> socket.socket:
        if self.unix_path is not None:
            listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                listener.bind(self.unix_path)
                os.chmod(self.unix_path, 0o600)
            except OSError:
                listener.close()
                raise
        else:
            listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                listener.bind((self.host, self._requested_port))
            except OSError:
                listener.close()
                raise
        listener.listen(64)
        listener.setblocking(False)
        if self.unix_path is None:
            self.port = listener.getsockname()[1]
        self._listener = listener
        return listener

    def stop(self) -> None:
        """Stop the thread and close every socket. Idempotent."""
        if self._thread is None:
            return
        self._stopping = True
        try:
            self._wake_w.send(b"x")
        except OSError:
            pass
        self._thread.join(timeout=5)
        self._thread = None
        for key in list(self._sel.get_map().values()):
            if isinstance(key.data, _Conn):
                self._close(key.data)  # logs its count of malformed input
            else:
                key.fileobj.close()
        self._sel.close()
        self._wake_w.close()
        if self._listen and self.unix_path is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.unix_path)
        with self._cond:
            self._cond.notify_all()

    def __enter__(self) -> "EventServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    # -- consumer side -----------------------------------------------------
    def drain(self) -> list[Event]:
        """Events received since the last drain, in arrival order.

        First reads whatever has already reached this host's sockets, in the
        calling thread: the device sends an action's events ahead of the
        action's reply, so once the reply is in, its events are here, even if
        the receiving thread has not had its turn yet on a busy machine.
        """
        self._poll()
        with self._cond:
            events, self._pending = self._pending, []
        return events

    def wait(self, timeout: float) -> bool:
        """Block until an undrained event exists or ``timeout`` seconds pass."""
        with self._cond:
            return self._cond.wait_for(lambda: bool(self._pending), timeout=timeout)

    # -- receiving thread (and drain's poll) --------------------------------
    def _run(self) -> None:
        while not self._stopping:
            redial_at = self._redial_at
            ready = self._sel.select(None if redial_at is None else max(0.0, redial_at - time.monotonic()))
            with self._io:
                for key, mask in ready:
                    if key.data == "wake":
                        with contextlib.suppress(OSError):
                            self._wake_r.recv(64)
                        continue
                    self._handle(key, mask)
            if self._redial_at is not None and time.monotonic() >= self._redial_at and not self._stopping:
                self._dial_listener()

    def pause_listener(self) -> None:
        """Hang up on the listener and stop dialling it, until :meth:`resume_listener`.

        The listener serves one client at a time: a studio that lets a test run
        use its device steps aside this way.
        """
        with self._io:
            self._paused = True
            self._redial_at = None
            if self._dialed is not None:
                self._close(self._dialed)

    def resume_listener(self) -> None:
        """Dial the listener again (after :meth:`pause_listener`)."""
        self._paused = False
        if self._dial is not None and self._thread is not None:
            self._redial_at = 0.0
            self._wake()

    def _wake(self) -> None:
        with contextlib.suppress(OSError):
            self._wake_w.send(b"x")

    # -- the listener's stream (protocol 2) ---------------------------------
    def _dial_listener(self) -> None:
        """Open the stream to the listener and say hello; on failure, try again later.

        Runs in the receiving thread, outside the I/O lock: opening goes
        through the adb server and may take a round trip, and a drain must
        not wait for it.
        """
        self._redial_at = None
        if self._paused:
            return
        try:
            sock = self._dial()
        except Exception as exc:  # the adb server's answer ("closed": nobody listens yet), or its absence
            self.dial_error = f"cannot open the listener's socket: {exc}"
            self._redial_at = time.monotonic() + REDIAL_SECONDS
            return
        sock.setblocking(False)
        conn = _Conn(sock, "listener")
        if sock.family in (socket.AF_INET, socket.AF_INET6):
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # hierarchy requests go at once
            conn.quickack = _QUICKACK is not None
        conn.mode = _LINES
        conn.dialed = True
        with self._io:
            if self._stopping or self._paused:
                sock.close()
                return
            self._sel.register(sock, selectors.EVENT_READ, conn)
            self._dialed = conn
            self._send(conn, _HELLO, False)

    def _greeting(self, conn: _Conn, line: bytes) -> None:
        """The listener's first line: its hello (then it is the listener) or its refusal."""
        previous = self.dial_error
        try:
            hello = read_hello(line)
        except ValueError as exc:  # its refusal, another protocol, no hello
            self.dial_error = str(exc)
            if self.dial_error != previous:  # once per reason, not once per redial
                log.warning("event server: %s", self.dial_error)
            self._close(conn)
            return
        dropped = hello.get("dropped")
        with self._cond:
            if isinstance(dropped, int) and dropped >= 0:
                # A running count since the listener started; a smaller one means it restarted.
                self.dropped += dropped - self._listener_dropped if dropped >= self._listener_dropped else dropped
                self._listener_dropped = dropped
            conn.greeted = conn.answered = True
            self.dial_error = None
            self._line_conns.append(conn)
            self._cond.notify_all()

    def _poll(self) -> None:
        """Handle what is readable now, without waiting (new connections included)."""
        if self._thread is None:
            return
        with self._io:
            for _ in range(8):  # accepting a connection makes it readable in the next round
                try:
                    ready = [(k, m) for k, m in self._sel.select(0) if k.data != "wake"]
                except (OSError, ValueError):
                    return  # stopped meanwhile
                if not ready:
                    return
                for key, mask in ready:
                    self._handle(key, mask)

    def _handle(self, key, mask: int) -> None:
        try:
            if key.data == "accept":
                self._accept()
            else:
                self._service(key.data, mask)
        except Exception:  # a bug must not silently kill event capture
            log.exception("event server: unexpected error")
            if isinstance(key.data, _Conn):
                self._close(key.data)

    def _accept(self) -> None:
        try:
            sock, addr = self._listener.accept()
        except (BlockingIOError, InterruptedError):
            return
        sock.setblocking(False)
        peer = f"{addr[0]}:{addr[1]}" if isinstance(addr, tuple) else f"unix:{self.unix_path}"
        conn = _Conn(sock, peer)
        self._sel.register(sock, selectors.EVENT_READ, conn)
        with self._cond:
            self._line_conns.append(conn)
            self._cond.notify_all()

    def _service(self, conn: _Conn, mask: int) -> None:
        if conn.closed:
            return  # closed by the other of the thread and the poll since select() listed it
        if mask & selectors.EVENT_WRITE:
            self._flush(conn)
        if conn.closed or not mask & selectors.EVENT_READ:
            return
        try:
            data = conn.sock.recv(_RECV)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if conn.quickack and data:
            # The adb server writes to our socket with Nagle on (it turns Nagle off only on
            # sockets it connects itself: adb socket_spec.cpp disable_tcp_nagle), so its next
            # small event line waits for our ACK of this one: ACK at once, not in up to 40 ms.
            # Linux clears the flag after use; it is set again after every read.
            with contextlib.suppress(OSError):
                conn.sock.setsockopt(socket.IPPROTO_TCP, _QUICKACK, 1)
        if not data:
            self._finish(conn)
            return
        if conn.close_after_write:
            return  # answered and closing: ignore what the peer still sends
        conn.buf += data
        self._process(conn)

    def _process(self, conn: _Conn) -> None:
        if conn.mode == _UNDECIDED:
            if len(conn.buf) < len(_POST) and _POST.startswith(bytes(conn.buf)):
                return  # could still become "POST "
            conn.mode = _HTTP if conn.buf.startswith(_POST) else _LINES
            if conn.mode == _HTTP:
                with self._cond:
                    self._line_conns.remove(conn)  # a POST client takes no requests
        if conn.mode == _LINES:
            self._process_lines(conn)
        else:
            self._process_http(conn)

    def _finish(self, conn: _Conn) -> None:
        """The peer closed its side: use what is left, then close."""
        if conn.buf:
            if conn.mode == _HTTP:
                self._malformed(conn, f"connection closed inside an HTTP request ({len(conn.buf)} bytes)")
            elif not conn.skipping:
                # A last line without its newline is still a line.
                self._line(conn, bytes(conn.buf))
        conn.buf.clear()
        self._close(conn)

    def _close(self, conn: _Conn) -> None:
        if conn.closed:
            return
        conn.closed = True
        with self._cond:
            if conn in self._line_conns:
                self._line_conns.remove(conn)
            if conn is self._dialed:
                self._dialed = None
                if not self._stopping and not self._paused:
                    # Lost (the listener stopped, the device went, a refusal): dial again
                    # soon; the listener keeps what happens meanwhile.
                    self._redial_at = time.monotonic() + REDIAL_SECONDS
                    if threading.current_thread() is not self._thread:
                        self._wake()
        if conn.malformed > 1:
            log.warning("event server: %d malformed inputs from %s dropped in all", conn.malformed, conn.peer)
        try:
            self._sel.unregister(conn.sock)
        except (KeyError, ValueError):
            pass
        conn.sock.close()

    # -- JSON lines --------------------------------------------------------
    def _process_lines(self, conn: _Conn) -> None:
        buf = conn.buf
        start = 0
        while True:
            nl = buf.find(b"\n", start)
            if nl < 0:
                break
            line = bytes(buf[start:nl])
            start = nl + 1
            if conn.skipping:
                conn.skipping = False
                continue
            self._line(conn, line)
        del buf[:start]
        if not conn.skipping and len(buf) > _MAX_FRAME:
            self._malformed(conn, f"line longer than {_MAX_FRAME} bytes")
            conn.skipping = True
        if conn.skipping:
            buf.clear()  # keep memory bounded while dropping the oversized line

    def _line(self, conn: _Conn, line: bytes) -> None:
        line = line.rstrip(b"\r")
        if not line.strip():
            return  # blank lines are keep-alives, not errors
        if conn.dialed and not conn.greeted:
            self._greeting(conn, line)
            return
        if _HIERARCHY_REPLY.search(line, 0, 80):
            self._hierarchy_reply(conn, line)
            return
        self._accept_event(conn, line, parse_event_line)

    def _hierarchy_reply(self, conn: _Conn, line: bytes) -> None:
        try:
            obj = json.loads(line)
            req_id, xml = obj["req_id"], obj["xml"]
            if not isinstance(req_id, int) or not isinstance(xml, str):
                raise ValueError("req_id must be an integer and xml a string")
        except (ValueError, KeyError, TypeError) as exc:
            self._malformed(conn, f"bad hierarchy reply ({exc}): {line[:80]!r}")
            return
        with self._cond:
            conn.answered = True
            self._replies[req_id] = xml
            self._cond.notify_all()

    @property
    def received(self) -> int:
        """How many events have been received so far (drained or not)."""
        with self._cond:
            return self._seq

    # -- requests to the listener --------------------------------------------
    @property
    def listener_connected(self) -> bool:
        """Whether a listener (not a POST client) holds a connection now."""
        self._poll()
        with self._cond:
            return bool(self._line_conns)

    def wait_for_listener(self, timeout: float) -> bool:
        """Block until a listener connects, or ``timeout`` seconds pass."""
        self._poll()
        with self._cond:
            return self._cond.wait_for(lambda: bool(self._line_conns), timeout=timeout)

    def request_hierarchy(self, timeout: float = 5.0) -> str | None:
        """The active window's hierarchy XML from the listener, or None.

        None when no listener is connected or it does not answer within
        ``timeout`` (an older listener ignores the request). The reply comes
        on the event stream after every event sent before it.
        """
        return self.hierarchy_reply(self.send_hierarchy_request(), timeout)

    def send_hierarchy_request(self) -> "tuple[_Conn, int] | None":
        """Ask the listener for the active window's hierarchy; the ticket for :meth:`hierarchy_reply`.

        Split from the wait so that the harness can work while the listener
        answers (the episode parses the hierarchy before). None: no listener.
        """
        with self._cond:
            if not self._line_conns:
                return None
            # The newest connection that has answered before: another sender that connected
            # later (a flood of events) answers no request (issue 37). Else the newest: a
            # listener that just (re)connected.
            answered = [c for c in self._line_conns if c.answered]
            conn = (answered or self._line_conns)[-1]
            self._next_request += 1
            req_id = self._next_request
        request = b'{"req": "hierarchy", "req_id": %d}\n' % req_id
        with self._io:
            if conn.closed:
                return None
            self._send(conn, request, False)
        return conn, req_id

    def hierarchy_reply(self, ticket: "tuple[_Conn, int] | None", timeout: float = 5.0) -> str | None:
        """The listener's reply to the request of ``ticket``, or None (no ticket, no reply within ``timeout``)."""
        if ticket is None:
            return None
        conn, req_id = ticket
        deadline = time.monotonic() + timeout
        while True:
            self._poll()  # the reply may already be on this host's socket
            with self._cond:
                if req_id in self._replies:
                    return self._replies.pop(req_id)
                left = deadline - time.monotonic()
                if left <= 0 or conn.closed:
                    return None
                self._cond.wait(left)  # the receiving thread notifies when the reply is in

    def _accept_event(self, conn: _Conn, payload: bytes, parser) -> bool:
        received = time.monotonic()
        with self._cond:
            try:
                event = parser(payload, seq=self._seq + 1, received_at=received)
            except MalformedEventError as exc:
                ok = False
                reason = str(exc)
            else:
                ok = True
                if len(self._pending) >= MAX_PENDING:
                    self.dropped += 1
                else:
                    self._seq += 1
                    self._pending.append(event)
                    self._cond.notify_all()
        if not ok:
            self._malformed(conn, f"{reason}: {payload[:80]!r}")
        return ok

    def _malformed(self, conn: _Conn, reason: str) -> None:
        self.malformed += 1
        conn.malformed += 1
        if conn.malformed == 1:
            log.warning("event server: dropped malformed input from %s: %s (more from this connection "
                        "are counted, and the count logged when it closes)", conn.peer, reason)

    # -- HTTP POST (original MobileAgentBench listener) ---------------------
    def _process_http(self, conn: _Conn) -> None:
        while conn.mode == _HTTP and conn.buf and not conn.close_after_write:
            end = conn.buf.find(b"\r\n\r\n")
            if end < 0:
                if len(conn.buf) > _MAX_HEAD:
                    self._http_error(conn, "request head too large")
                return
            head = bytes(conn.buf[:end]).decode("latin-1")
            lines = head.split("\r\n")
            parts = lines[0].split(" ")
            if len(parts) != 3 or parts[0] != "POST" or not parts[2].startswith("HTTP/1."):
                self._http_error(conn, f"bad request line {lines[0][:80]!r}")
                return
            headers = {}
            for h in lines[1:]:
                name, sep, value = h.partition(":")
                if not sep:
                    self._http_error(conn, f"bad header line {h[:80]!r}")
                    return
                headers[name.strip().lower()] = value.strip()
            if "chunked" in headers.get("transfer-encoding", "").lower():
                self._http_error(conn, "chunked bodies are not supported", status="411 Length Required")
                return
            try:
                length = int(headers.get("content-length", "0"))
            except ValueError:
                length = -1
            if length < 0 or length > MAX_LINE_BYTES:
                self._http_error(conn, f"bad Content-Length {headers.get('content-length')!r}")
                return
            if len(conn.buf) < end + 4 + length:
                return  # body not complete yet
            body = bytes(conn.buf[end + 4 : end + 4 + length])
            del conn.buf[: end + 4 + length]
            close = (
                headers.get("connection", "").lower() == "close"
                or parts[2] == "HTTP/1.0" and headers.get("connection", "").lower() != "keep-alive"
            )
            if self._accept_event(conn, body, parse_mab_post):
                self._send(conn, _http_response("200 OK", b"ok", close), close)
            else:
                self._send(conn, _http_response("400 Bad Request", b"malformed event", close), close)

    def _http_error(self, conn: _Conn, reason: str, status: str = "400 Bad Request") -> None:
        # The framing is lost, so this connection cannot carry on: answer and close.
        self._malformed(conn, reason)
        conn.buf.clear()
        self._send(conn, _http_response(status, reason.encode("ascii", "replace"), True), True)

    def _send(self, conn: _Conn, data: bytes, close: bool) -> None:
        conn.out += data
        conn.close_after_write = conn.close_after_write or close
        self._flush(conn)

    def _flush(self, conn: _Conn) -> None:
        try:
            while conn.out:
                n = conn.sock.send(conn.out)
                del conn.out[:n]
        except (BlockingIOError, InterruptedError):
            pass
        except OSError:
            self._close(conn)
            return
        if conn.out:
            self._sel.modify(conn.sock, selectors.EVENT_READ | selectors.EVENT_WRITE, conn)
        elif conn.close_after_write:
            self._close(conn)
        else:
            try:
                self._sel.modify(conn.sock, selectors.EVENT_READ, conn)
            except (KeyError, ValueError):
                pass
