"""Which device each process uses.

Without xdist the process allocates its own device on first use. Under xdist
the controller owns the :class:`~pytest_mobileagent.device.DevicePool`: a
small :class:`DeviceBroker` on a loopback port hands each worker its serial
when the worker first needs a device. The pool is asked once, for one device
per worker, so virtual phones boot in parallel and only when some task runs
(the plugin's own tests boot nothing), and the controller stops them at the
end of the session.

Only the run's own workers get a device: the controller makes a secret per
run and hands it to its workers in ``workerinput``; a request without it is
refused. A connection that sends nothing is closed after
:data:`IDLE_TIMEOUT`, and at most :data:`MAX_CONNECTIONS` are served at once,
so idle or hostile local clients cannot pile up threads in the controller.
"""

from __future__ import annotations

import hmac
import secrets
import socket
import threading
from typing import Any, Callable

from .connlimit import ConnectionLimit
from .device.pool import DevicePool
from .errors import InfrastructureError

__all__ = ["BROKER_KEY", "BROKER_SECRET_KEY", "DeviceBroker", "request_device"]

BROKER_KEY = "mobileagent_broker"  # workerinput key: "host:port" of the controller's broker
BROKER_SECRET_KEY = "mobileagent_broker_secret"  # workerinput key: the run's secret for the broker
REQUEST_TIMEOUT = 180.0  # booting phones for every worker may take a while; never hang forever
IDLE_TIMEOUT = 10.0  # seconds a connection may take to send its request line
MAX_CONNECTIONS = 32  # requests served at once (a run has one per worker at most)
_MAX_REQUEST = 512  # bytes of a request line


class DeviceBroker:
    """Controller side: answers ``<worker id>\\n`` with ``OK <serial>`` or ``ERR <message>``."""

    def __init__(self, requested: tuple[str, ...] = (), workers: int = 1,
                 pool_factory: Callable[[], Any] | None = None,
                 up_front_pool: Callable[[], Any] | None = None):
        """``pool_factory``: returns the DevicePool to allocate from, called on the first
        request (default: a new pool for ``requested``). ``up_front_pool``: returns the
        pool to allocate from at :meth:`start` if it boots nothing, else None (opening no
        pool for a run whose pool boots its devices: its workers may never ask)."""
        self.requested = requested
        self.workers = workers
        self._lock = threading.Lock()
        self._serials: list[str] | None = None
        self._error: str | None = None
        self._assigned: dict[str, str] = {}
        self._pool: Any = None
        self._pool_factory = pool_factory
        self._up_front_pool = up_front_pool
        self.secret = secrets.token_hex(16)
        self._slots = ConnectionLimit(MAX_CONNECTIONS)
        self.refused = 0  # requests without the run's secret
        self._listener: socket.socket | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> str:
        """Serve requests on a loopback port; returns ``host:port``.

        A pool that boots nothing (``allocates_up_front``: another adb server's
        devices) allocates here, before any worker starts: too few free devices
        is then one usage error (a :class:`~pytest_mobileagent.device.DeviceAllocationError`
        naming who holds them) instead of an error in every task.
        """
        self._allocate_up_front()
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        self._listener = listener
        self._thread = threading.Thread(target=self._serve, name="mobileagent-device-broker", daemon=True)
        self._thread.start()
        host, port = listener.getsockname()
        return f"{host}:{port}"

    def _allocate_up_front(self) -> None:
        pool = self._up_front_pool() if self._up_front_pool is not None else None
        if pool is None:
            return
        with self._lock:
            self._pool = pool
            self._serials = pool.allocate(max(self.workers, 1))

    def _serve(self) -> None:
        assert self._listener is not None
        while True:
            try:
                conn, _ = self._listener.accept()
            except OSError:
                return  # closed
            if not self._slots.admit(conn):
                continue  # more clients than a run has workers: not ours
            threading.Thread(target=self._handle, args=(conn,), daemon=True).start()

    def _handle(self, conn: socket.socket) -> None:
        try:
            with conn:
                conn.settimeout(IDLE_TIMEOUT)
                line = conn.makefile("rb").readline(_MAX_REQUEST).decode("utf-8", "replace").strip()
                given, _, worker = line.partition(" ")
                if not worker or not hmac.compare_digest(given.encode(), self.secret.encode()):
                    self.refused += 1
                    conn.sendall(b"ERR not a worker of this run\n")
                    return
                conn.settimeout(None)  # allocating may boot phones: the worker's own timeout bounds it
                try:
                    reply = f"OK {self.allocate(worker)}\n"
                except Exception as exc:
                    reply = "ERR " + f"{exc}".replace("\n", " ") + "\n"
                conn.sendall(reply.encode("utf-8"))
        except OSError:
            pass  # the client went away or stayed silent past IDLE_TIMEOUT
        finally:
            self._slots.release()

    def allocate(self, worker: str) -> str:
        """The serial of ``worker``'s device; the first call allocates for every worker."""
        with self._lock:
            if worker in self._assigned:
                return self._assigned[worker]
            if self._serials is None and self._error is None:
                if self._pool_factory is not None:
                    self._pool = self._pool_factory()
                else:
                    self._pool = DevicePool(requested=list(self.requested) or None, boot_virtual=True)
                try:
                    self._serials = self._pool.allocate(max(self.workers, 1))
                except Exception as exc:
                    self._error = f"{type(exc).__name__}: {exc}"
            if self._error is not None:
                raise InfrastructureError(f"device allocation failed: {self._error}")
            assert self._serials is not None
            free = [s for s in self._serials if s not in self._assigned.values()]
            if not free:
                raise InfrastructureError(
                    f"no device left for worker {worker}: {', '.join(self._serials)} are in use"
                )
            self._assigned[worker] = free[0]
            return free[0]

    def release(self, worker: str) -> None:
        """Give ``worker``'s device back (its process is gone), for its replacement."""
        with self._lock:
            self._assigned.pop(worker, None)

    def close(self) -> None:
        if self._listener is not None:
            self._listener.close()
            self._listener = None
        if self._pool is not None:
            self._pool.close()
            self._pool = None


def request_device(address: str, worker: str, secret: str = "", timeout: float = REQUEST_TIMEOUT) -> str:
    """Worker side: ask the controller's broker for this worker's serial."""
    host, _, port = address.rpartition(":")
    try:
        with socket.create_connection((host, int(port)), timeout=timeout) as conn:
            conn.sendall(f"{secret} {worker}\n".encode("utf-8"))
            reply = conn.makefile("r", encoding="utf-8").readline().strip()
    except (OSError, ValueError) as exc:
        raise InfrastructureError(f"cannot reach the controller's device broker at {address}: {exc}") from None
    status, _, rest = reply.partition(" ")
    if status == "OK" and rest:
        return rest
    raise InfrastructureError(rest or f"the device broker gave no answer for worker {worker}")
