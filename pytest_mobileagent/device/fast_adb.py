"""A small raw client for the adb server, for the per-step hot path.

adbutils spends ~20 ms per call (ADB_NOTES.md): its ``AdbConnection.close()``
sleeps 10 ms and opening a transport by serial first asks the server for its
version on a separate connection. Here one call is one TCP connection to the
server: ``host:transport:SERIAL``, the service, read to EOF, close. That costs
well under a millisecond of client time.

Failures become the project's exceptions: a missing/offline device or a dead
server is :class:`DeviceLostError`, a refused service :class:`AdbCommandError`,
an expired deadline :class:`InfrastructureTimeout`.
"""

from __future__ import annotations

import os
import socket
import struct
import time

from pytest_mobileagent.errors import AdbCommandError, DeviceLostError, InfrastructureTimeout

__all__ = ["FastAdb", "SplitReply", "host_request", "list_devices", "server_address", "wait_for_device"]

_SYNC_CHUNK = 64 * 1024
# FAIL messages from the server that mean the device is gone, not that the command was bad.
_LOST_MARKERS = ("not found", "offline", "unauthorized", "no devices", "no emulators", "device still")


def server_address() -> tuple[str, int]:
    """The adb server address, from the same variables adbutils and adb read."""
    host = os.environ.get("ANDROID_ADB_SERVER_HOST", "127.0.0.1")
    port = int(os.environ.get("ANDROID_ADB_SERVER_PORT", "5037"))
    return host, port


class _Deadline:
    def __init__(self, timeout: float, what: str):
        self.end = time.monotonic() + timeout
        self.timeout = timeout
        self.what = what

    def remaining(self) -> float:
        left = self.end - time.monotonic()
        if left <= 0:
            raise InfrastructureTimeout(f"{self.what}: no answer within {self.timeout:g} s")
        return left


#: Bytes asked for per recv(). socket.recv(n) allocates n bytes before it
#: knows how many arrive; glibc serves an allocation of 128 KiB or more with a
#: fresh mmap, so a larger n costs a map, page faults on every page the kernel
#: writes, and an unmap, on each call (a shrunk recv buffer is never freed in a
#: way that raises glibc's dynamic threshold). 64 KiB stays in the heap.
_RECV_BYTES = 1 << 16


class _Conn:
    """One connection to the adb server, with deadline-bounded reads."""

    def __init__(self, addr: tuple[str, int], deadline: _Deadline):
        self.deadline = deadline
        self.addr = addr
        try:
            self.sock = socket.create_connection(addr, timeout=min(deadline.remaining(), 5.0))
        except socket.timeout:
            raise InfrastructureTimeout(f"{deadline.what}: connecting to the adb server at "
                                        f"{addr[0]}:{addr[1]} timed out") from None
        except OSError as exc:
            raise DeviceLostError(f"{deadline.what}: adb server at {addr[0]}:{addr[1]} is not "
                                  f"reachable ({exc.strerror or exc}); is it running?") from None
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def close(self) -> None:
        self.sock.close()

    def __enter__(self) -> "_Conn":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def send(self, data: bytes) -> None:
        try:
            self.sock.settimeout(self.deadline.remaining())
            self.sock.sendall(data)
        except socket.timeout:
            raise InfrastructureTimeout(f"{self.deadline.what}: send timed out") from None
        except OSError as exc:
            raise DeviceLostError(f"{self.deadline.what}: connection to the adb server broke ({exc})") from None

    def send_request(self, request: str) -> None:
        body = request.encode("utf-8")
        self.send(b"%04x" % len(body) + body)

    def recv(self, n: int) -> bytes:
        try:
            self.sock.settimeout(self.deadline.remaining())
            return self.sock.recv(n)
        except socket.timeout:
            raise InfrastructureTimeout(f"{self.deadline.what}: no answer within "
                                        f"{self.deadline.timeout:g} s") from None
        except OSError as exc:
            raise DeviceLostError(f"{self.deadline.what}: connection to the adb server broke ({exc})") from None

    def read_exact(self, n: int) -> bytes:
        buf = bytearray()
        while len(buf) < n:
            chunk = self.recv(n - len(buf))
            if not chunk:
                raise DeviceLostError(f"{self.deadline.what}: connection closed after "
                                      f"{len(buf)} of {n} bytes (device gone?)")
            buf += chunk
        return bytes(buf)

    def read_to_eof(self) -> bytes:
        chunks = []
        while True:
            chunk = self.recv(_RECV_BYTES)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)

    def read_block(self) -> bytes:
        """A 4-hex-digit length followed by that many bytes."""
        size = self.read_exact(4)
        try:
            n = int(size, 16)
        except ValueError:
            raise AdbCommandError(f"{self.deadline.what}: bad length prefix {size!r} from adb") from None
        return self.read_exact(n)

    def check_okay(self, *, transport: bool = False) -> None:
        """Read OKAY or raise; ``transport``: this answers a transport selection, so a
        FAIL saying the device is missing means the device is lost."""
        status = self.read_exact(4)
        if status == b"OKAY":
            return
        if status == b"FAIL":
            try:
                message = self.read_block().decode("utf-8", "replace")
            except DeviceLostError:
                message = "(no message)"
            if (transport or "no devices" in message) and any(m in message for m in _LOST_MARKERS):
                raise DeviceLostError(f"{self.deadline.what}: {message}")
            raise AdbCommandError(f"{self.deadline.what}: adb refused: {message}")
        raise AdbCommandError(f"{self.deadline.what}: unexpected adb reply {status!r}")


def host_request(request: str, *, timeout: float = 10.0, addr: tuple[str, int] | None = None) -> str:
    """Run a ``host:`` request that answers OKAY + a length-prefixed string."""
    with _Conn(addr or server_address(), _Deadline(timeout, request)) as c:
        c.send_request(request)
        c.check_okay(transport=request.startswith("host-serial:"))
        return c.read_block().decode("utf-8", "replace")


def wait_for_device(serial: str, *, timeout: float, addr: tuple[str, int] | None = None) -> None:
    """Block in the adb server until ``serial`` is online (``adb -s SERIAL wait-for-device``)."""
    request = f"host-serial:{serial}:wait-for-any-device"
    with _Conn(addr or server_address(), _Deadline(timeout, request)) as c:
        c.send_request(request)
        c.check_okay()  # request accepted
        c.check_okay()  # device reached the state


def list_devices(*, timeout: float = 10.0, addr: tuple[str, int] | None = None) -> list[tuple[str, str]]:
    """``adb devices``: (serial, state) pairs; state is ``device`` when online."""
    out = host_request("host:devices", timeout=timeout, addr=addr)
    pairs = []
    for line in out.splitlines():
        serial, _, state = line.partition("\t")
        if serial:
            pairs.append((serial, state.strip()))
    return pairs


class SplitReply:
    """A command's output read up to a marker (``head``); the rest still on its way.

    Call :meth:`rest` (from any one thread) to read the remainder to its
    end, or :meth:`drop` to close the connection without reading it.
    """

    def __init__(self, head: bytes, extra: bytes, conn: _Conn | None):
        self.head = head
        self._extra = extra
        self._conn = conn

    def rest(self) -> bytes:
        """Everything after ``head``, to the end of the output (within the command's deadline)."""
        conn, self._conn = self._conn, None
        if conn is None:
            return self._extra
        with conn:
            return self._extra + conn.read_to_eof()

    def drop(self) -> None:
        """Close without reading the rest (the device's command sees its output closed)."""
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.close()


class FastAdb:
    """Raw adb services for one device serial; one server connection per call."""

    def __init__(self, serial: str, addr: tuple[str, int] | None = None):
        self.serial = serial
        self.addr = addr or server_address()

    def _open(self, service: str, deadline: _Deadline) -> _Conn:
        c = _Conn(self.addr, deadline)
        try:
            c.send_request(f"host:transport:{self.serial}")
            c.check_okay(transport=True)
            c.send_request(service)
            c.check_okay()
        except BaseException:
            c.close()
            raise
        return c

    def _what(self, service: str) -> str:
        return f"{self.serial}: {service[:120]}"

    def host_serial(self, request: str, *, timeout: float = 10.0) -> str:
        """A ``host-serial:SERIAL:REQUEST`` query such as ``features`` or ``get-state``."""
        return host_request(f"host-serial:{self.serial}:{request}", timeout=timeout, addr=self.addr)

    def exec_out(self, cmd: str, *, timeout: float = 30.0) -> bytes:
        """``exec:CMD``: raw stdout bytes, no pty, no newline translation."""
        with self._open("exec:" + cmd, _Deadline(timeout, self._what("exec:" + cmd))) as c:
            return c.read_to_eof()

    def exec_out_until(self, cmd: str, marker: bytes, *, timeout: float = 30.0) -> "SplitReply":
        """``exec:CMD``, read only up to the first ``marker``; the rest is left on the wire.

        For a command line whose first part's output the caller needs now
        and whose last part's output can follow (a dump, then a screenshot).
        """
        c = self._open("exec:" + cmd, _Deadline(timeout, self._what("exec:" + cmd)))
        try:
            buf = bytearray()
            while True:
                chunk = c.recv(_RECV_BYTES)
                if not chunk:  # the output ended without the marker
                    c.close()
                    return SplitReply(bytes(buf), b"", None)
                searched = max(0, len(buf) - len(marker) + 1)
                buf += chunk
                end = buf.find(marker, searched)
                if end >= 0:
                    end += len(marker)
                    return SplitReply(bytes(buf[:end]), bytes(buf[end:]), c)
        except BaseException:
            c.close()
            raise

    def shell_v1(self, cmd: str, *, timeout: float = 30.0) -> bytes:
        """``shell:CMD``: output bytes (stdout and stderr merged by the device)."""
        with self._open("shell:" + cmd, _Deadline(timeout, self._what("shell:" + cmd))) as c:
            return c.read_to_eof()

    def shell_v2(self, cmd: str, *, timeout: float = 30.0) -> tuple[bytes, bytes, int]:
        """``shell,v2,raw:CMD``: (output in arrival order, stderr alone, exit code)."""
        service = "shell,v2,raw:" + cmd
        with self._open(service, _Deadline(timeout, self._what(service))) as c:
            output, stderr = bytearray(), bytearray()
            while True:
                header = c.recv(5)
                if not header:
                    raise DeviceLostError(f"{self._what(service)}: stream ended without an exit code")
                if len(header) < 5:
                    header += c.read_exact(5 - len(header))
                kind, length = header[0], struct.unpack("<I", header[1:])[0]
                data = c.read_exact(length) if length else b""
                if kind == 1:
                    output += data
                elif kind == 2:
                    output += data
                    stderr += data
                elif kind == 3:
                    return bytes(output), bytes(stderr), data[0] if data else 255

    def open_stream(self, service: str, *, timeout: float = 5.0) -> socket.socket:
        """A socket carrying ``service`` (``localabstract:NAME``, ``tcp:PORT``...) on the device.

        The direction uiautomator2 and Appium use: the host opens, through the
        device's own adb server (local or remote), with no port of this host
        exposed. The socket is blocking, without a timeout, past adb's OKAY.
        """
        c = self._open(service, _Deadline(timeout, self._what(service)))
        c.sock.settimeout(None)
        return c.sock

    def reverse(self, remote: str, local: str, *, timeout: float = 10.0) -> None:
        """``adb reverse REMOTE LOCAL``: the device's REMOTE reaches the host's LOCAL."""
        service = f"reverse:forward:{remote};{local}"
        with self._open(service, _Deadline(timeout, self._what(service))) as c:
            c.check_okay()  # the second OKAY is the device's own answer

    def remove_reverse(self, remote: str, *, timeout: float = 10.0) -> None:
        service = f"reverse:killforward:{remote}"
        with self._open(service, _Deadline(timeout, self._what(service))) as c:
            c.check_okay()

    def reverse_list(self, *, timeout: float = 10.0) -> list[tuple[str, str]]:
        """(remote, local) pairs currently reversed on the device."""
        service = "reverse:list-forward"
        with self._open(service, _Deadline(timeout, self._what(service))) as c:
            body = c.read_block().decode("utf-8", "replace")
        pairs = []
        for line in body.splitlines():
            parts = line.split()
            if len(parts) == 3:
                pairs.append((parts[1], parts[2]))
        return pairs

    # -- sync: files ------------------------------------------------------------
    def _sync(self, what: str, timeout: float) -> _Conn:
        return self._open("sync:", _Deadline(timeout, self._what(what)))

    @staticmethod
    def _sync_request(c: _Conn, ident: bytes, arg: bytes) -> None:
        c.send(ident + struct.pack("<I", len(arg)) + arg)

    @staticmethod
    def _quit(c: _Conn) -> None:
        try:
            c.send(b"QUIT" + struct.pack("<I", 0))
        except DeviceLostError:
            pass

    def stat(self, path: str, *, timeout: float = 10.0) -> tuple[int, int, int]:
        """(mode, size, mtime) of ``path``; mode 0 means it does not exist."""
        with self._sync(f"stat {path}", timeout) as c:
            self._sync_request(c, b"STAT", path.encode("utf-8"))
            reply = c.read_exact(16)
            if reply[:4] != b"STAT":
                raise AdbCommandError(f"{self._what('stat ' + path)}: unexpected sync reply {reply[:4]!r}")
            self._quit(c)
            return struct.unpack("<III", reply[4:])

    def pull(self, path: str, *, timeout: float = 60.0) -> bytes:
        """The contents of ``path``. A missing file raises :class:`FileNotFoundError`."""
        with self._sync(f"pull {path}", timeout) as c:
            self._sync_request(c, b"RECV", path.encode("utf-8"))
            data = bytearray()
            while True:
                header = c.read_exact(8)
                ident, length = header[:4], struct.unpack("<I", header[4:])[0]
                if ident == b"DATA":
                    data += c.read_exact(length)
                elif ident == b"DONE":
                    self._quit(c)
                    return bytes(data)
                elif ident == b"FAIL":
                    message = c.read_exact(length).decode("utf-8", "replace")
                    if "No such file" in message:
                        raise FileNotFoundError(f"{self.serial}: {path}: {message}")
                    raise AdbCommandError(f"{self._what('pull ' + path)}: {message}")
                else:
                    raise AdbCommandError(f"{self._what('pull ' + path)}: unexpected sync reply {ident!r}")

    def push(self, path: str, data: bytes, *, mode: int = 0o644, timeout: float = 60.0) -> None:
        """Write ``data`` to ``path`` on the device (created or replaced)."""
        with self._sync(f"push {path}", timeout) as c:
            self._sync_request(c, b"SEND", f"{path},{mode | 0o100000}".encode("utf-8"))
            view = memoryview(data)
            for i in range(0, len(view), _SYNC_CHUNK):
                chunk = view[i:i + _SYNC_CHUNK]
                c.send(b"DATA" + struct.pack("<I", len(chunk)) + chunk.tobytes())
            c.send(b"DONE" + struct.pack("<I", int(time.time())))
            header = c.read_exact(8)
            if header[:4] == b"FAIL":
                length = struct.unpack("<I", header[4:])[0]
                message = c.read_exact(length).decode("utf-8", "replace")
                raise AdbCommandError(f"{self._what('push ' + path)}: {message}")
            if header[:4] != b"OKAY":
                raise AdbCommandError(f"{self._what('push ' + path)}: unexpected sync reply {header[:4]!r}")
            self._quit(c)
