"""Serve virtual phones over TCP and register them with one adb server.

`start_phones()` binds each phone to 127.0.0.1 and serves all of them from one
asyncio event loop in a background thread. By default a phone listens on a
free port outside 5555-5585 and is connected to the given adb server only, as
`adb connect 127.0.0.1:PORT` does (serial ``127.0.0.1:PORT``): every adb
server scans the odd ports 5555-5585 for emulators when it starts, so a phone
there would be listed by every server on the machine, i.e. seen by every
other run. ``emulator_ports=True`` takes a free odd port in that range instead
and announces it the way the Android emulator does at boot
(``host:emulator:<port>``, serial ``emulator-<port - 1>``). Either way the
call returns once the server lists the phone as `device`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import subprocess
import threading
import time
from dataclasses import dataclass
from typing import Iterator, Sequence

from ..setup import prepare_device
from .adbd.endpoint import Endpoint
from .phone import VirtualPhone

__all__ = ["PhoneServer", "RunningPhone", "bundled_adb_path", "ensure_adb_server", "register_with_adb",
           "start_phones", "unregister_from_adb"]

log = logging.getLogger(__name__)

EMULATOR_PORTS = range(5555, 5586, 2)
DEFAULT_ADB_PORT = 5037


@dataclass(frozen=True)
class RunningPhone:
    """A phone being served: adb reaches it on `port` as `serial`."""

    port: int
    serial: str
    phone: VirtualPhone


def _bind(port: int) -> socket.socket | None:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    # A phone that closed its connections leaves them in TIME_WAIT; without this a
    # restarted phone could not take its port (and serial) back for a minute.
    # Linux still refuses a port that another socket listens on -- at bind, or at
    # listen when two processes bound it at the same moment.
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(("127.0.0.1", port))
        sock.listen(16)
    except OSError:
        sock.close()
        return None
    sock.setblocking(False)
    return sock


def _in_emulator_range(port: int) -> bool:
    return EMULATOR_PORTS.start <= port < EMULATOR_PORTS.stop


def _bind_free_private_port() -> socket.socket:
    """Bind a free port the kernel picks outside 5555-5585 (no adb server's scan reaches it)."""
    for _ in range(64):  # the ephemeral range rarely overlaps 5555-5585 at all
        sock = _bind(0)
        assert sock is not None
        if not _in_emulator_range(sock.getsockname()[1]):
            return sock
        sock.close()
    raise OSError("no free port outside adb's emulator scan range 5555-5585")


def _bind_free_emulator_port() -> socket.socket:
    """Bind the first free odd port in 5555-5585, else any free port."""
    for port in EMULATOR_PORTS:
        sock = _bind(port)
        if sock is not None:
            return sock
    sock = _bind(0)
    assert sock is not None
    return sock


class PhoneServer:
    """An asyncio loop in a daemon thread serving any number of phones."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, name="virtual-phones", daemon=True)
        self._servers: list[asyncio.AbstractServer] = []
        self._endpoints: list[Endpoint] = []
        self._thread.start()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()

    def _call(self, coro, timeout: float = 10.0):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def serve(self, phone: VirtualPhone, sock: socket.socket, *, emulator: bool = False) -> RunningPhone:
        """Serve ``phone`` on ``sock``; its serial is ``emulator-<port - 1>`` if
        ``emulator`` (announced as an emulator), else ``127.0.0.1:<port>`` (connected)."""
        port = sock.getsockname()[1]
        phone.serial = f"emulator-{port - 1}" if emulator else f"127.0.0.1:{port}"

        async def start() -> None:
            endpoint = Endpoint(phone, self.loop)
            server = await asyncio.start_server(endpoint.handle_client, sock=sock)
            self._endpoints.append(endpoint)
            self._servers.append(server)

        self._call(start())
        return RunningPhone(port=port, serial=phone.serial, phone=phone)

    def close(self) -> None:
        async def stop() -> None:
            for server in self._servers:
                server.close()
            for endpoint in self._endpoints:
                endpoint.close()
            for server in self._servers:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(server.wait_closed(), 2)

        if self.loop.is_running():
            with contextlib.suppress(Exception):
                self._call(stop())
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join(5)
        if not self.loop.is_running():
            self.loop.close()


# -- the adb server -------------------------------------------------------------------
def _adb_request(adb_port: int, request: str, timeout: float = 5.0) -> str | None:
    """Send one host request; the reply body for OKAY, None when refused."""
    with socket.create_connection(("127.0.0.1", adb_port), timeout=timeout) as sock:
        payload = request.encode()
        sock.sendall(f"{len(payload):04x}".encode() + payload)
        status = _recv_exactly(sock, 4)
        if status != b"OKAY":
            return None
        length = _recv_exactly(sock, 4)
        if len(length) < 4:
            return ""
        return _recv_exactly(sock, int(length, 16)).decode("utf-8", "replace")


def _recv_exactly(sock: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            break
        data += chunk
    return data


def bundled_adb_path() -> str:
    """The adb binary inside the adbutils wheel (adbutils.adb_path() prefers $PATH)."""
    import adbutils

    bundled = os.path.join(os.path.dirname(adbutils.__file__), "binaries", "adb")
    return bundled if os.path.isfile(bundled) else adbutils.adb_path()


def ensure_adb_server(adb_port: int) -> None:
    """Start an adb server on adb_port if none answers there.

    Uses adbutils.adb_path() -- the `adb` on $PATH if any, else the wheel's --
    so the user's own `adb` client matches the server's version and does not
    restart it (which would drop every phone).
    """
    try:
        with socket.create_connection(("127.0.0.1", adb_port), timeout=1):
            return
    except OSError:
        pass
    import adbutils

    subprocess.run([adbutils.adb_path(), "-P", str(adb_port), "start-server"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30)


def register_with_adb(port: int, serial: str, adb_port: int, timeout: float = 10.0) -> None:
    """Register a phone with the adb server and wait until it is `device`.

    An ``emulator-N`` serial is announced as an emulator (``host:emulator``);
    any other is connected (``host:connect:127.0.0.1:PORT``, i.e. ``adb connect``).
    """
    if serial.startswith("emulator-"):
        with socket.create_connection(("127.0.0.1", adb_port), timeout=5) as sock:
            payload = f"host:emulator:{port}".encode()
            sock.sendall(f"{len(payload):04x}".encode() + payload)
            # The server sends no reply to host:emulator; closing is the handshake.
    else:
        reply = _adb_request(adb_port, f"host:connect:127.0.0.1:{port}")
        if reply is None or "connected" not in reply:
            raise OSError(f"adb server on port {adb_port} refused to connect 127.0.0.1:{port}: {reply}")
    deadline = time.monotonic() + timeout
    state = "absent"
    while time.monotonic() < deadline:
        listing = _adb_request(adb_port, "host:devices") or ""
        for line in listing.splitlines():
            name, _, state_here = line.partition("\t")
            if name == serial:
                state = state_here
                if state == "device":
                    return
        time.sleep(0.005)  # polling the server's view; bounded by the deadline
    raise TimeoutError(f"adb server on port {adb_port} did not list {serial} as device "
                       f"within {timeout} s (state: {state})")


def unregister_from_adb(port: int, adb_port: int) -> None:
    """``adb disconnect 127.0.0.1:PORT``: a connected phone that stops is otherwise
    kept (offline) and retried by the server, which could reach whatever listens
    on that port next."""
    with contextlib.suppress(OSError):
        _adb_request(adb_port, f"host:disconnect:127.0.0.1:{port}", timeout=2)


def _prepare(running: list[RunningPhone], adb_port: int) -> None:
    """Set phones up through adb with the code real devices go through."""
    import adbutils  # heavy; loaded only when phones are set up through adb

    client = adbutils.AdbClient(port=adb_port)
    for item in running:
        prepare_device(client.device(item.serial))


@contextlib.contextmanager
def start_phones(count: int = 1, *, ports: Sequence[int] | None = None, seed: int = 0,
                 adb_server_port: int | None = None, register: bool = True,
                 timeout: float = 10.0, prepare: bool = True,
                 emulator_ports: bool = False) -> Iterator[list[RunningPhone]]:
    """Boot `count` phones (seeds seed, seed+1, ...) and serve them until exit.

    ports: explicit ports (one per phone); default: free ports the kernel
    picks outside 5555-5585, connected to the adb server (serials
    ``127.0.0.1:PORT``): no other adb server lists them.
    emulator_ports: default ports are free odd ports 5555-5585 instead, and
    phones are announced as emulators (serials ``emulator-<port - 1>``), which
    every adb server on the machine then lists too.
    adb_server_port: the adb server to register with; default
    $ANDROID_ADB_SERVER_PORT or 5037. It is started if not running.
    register=False skips adb entirely (for tests of raw sockets).
    prepare: once registered, each phone goes through `mobileagent-setup`'s
    code over adb (listener installed and enabled, animations off), exactly
    as a real device is prepared; prepare=False leaves it as booted, with no
    listener, so it sends no events.
    """
    if ports is not None and len(ports) != count:
        raise ValueError(f"{count} phones need {count} ports, got {len(ports)}")
    if adb_server_port is None:
        adb_server_port = int(os.environ.get("ANDROID_ADB_SERVER_PORT", DEFAULT_ADB_PORT))
    server = PhoneServer()
    running: list[RunningPhone] = []
    connected: list[int] = []  # ports connected to the adb server, disconnected at exit
    try:
        for index in range(count):
            if ports is not None:
                sock = _bind(ports[index])
                if sock is None:
                    raise OSError(f"port {ports[index]} is not free")
            else:
                sock = _bind_free_emulator_port() if emulator_ports else _bind_free_private_port()
            phone = VirtualPhone(seed=seed + index)
            running.append(server.serve(phone, sock, emulator=emulator_ports))
        if register:
            ensure_adb_server(adb_server_port)
            for item in running:
                if not emulator_ports:
                    connected.append(item.port)
                register_with_adb(item.port, item.serial, adb_server_port, timeout)
            if prepare:
                _prepare(running, adb_server_port)
        yield running
    finally:
        for port in connected:
            unregister_from_adb(port, adb_server_port)
        server.close()
