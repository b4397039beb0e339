"""Devices on other machines: other adb servers (``--adb-server``) and ``adb connect``.

A device of another adb server is named by a *device reference*
``SERIAL@HOST:PORT``; a plain serial means the local adb server. The broker
hands references to workers, and :func:`connect_ref` gives each worker a
:class:`~pytest_mobileagent.device.Device` that talks to the server owning
the device -- for every call, the stream to the device's listener included.

Nothing here is a protocol of our own: the other servers are ordinary adb
servers (``adb -a -P 5037 nodaemon server`` on the machine with the devices)
spoken to as adbutils' ``AdbClient(host, port)`` does.
"""

from __future__ import annotations

import logging
from typing import Any

from pytest_mobileagent.errors import InfrastructureError

from .claims import DeviceBusyError, DeviceClaim, allocation_lock, claim_holder, device_key
from .device import Device, connect
from .fast_adb import host_request, list_devices, server_address, wait_for_device
from .pool import DeviceAllocationError, DevicePool

__all__ = ["NetworkDevicePool", "RemotePool", "check_server", "connect_ref", "format_ref", "parse_ref"]

log = logging.getLogger("pytest_mobileagent.device")

CHECK_TIMEOUT = 5.0      # reaching another adb server before the run starts
CONNECT_TIMEOUT = 20.0   # `adb connect` to a networked device coming online


def format_ref(serial: str, addr: tuple[str, int] | None) -> str:
    """``SERIAL@HOST:PORT`` for a device of another server, the bare serial for a local one."""
    if addr is None or tuple(addr) == server_address():
        return serial
    return f"{serial}@{addr[0]}:{addr[1]}"


def parse_ref(ref: str) -> tuple[str, tuple[str, int]]:
    """(serial, server address) of a device reference."""
    serial, at, server = ref.rpartition("@")
    if not at:
        return ref, server_address()
    host, _, port = server.rpartition(":")
    return serial, (host, int(port))


def connect_ref(ref: str) -> Device:
    """The Device a reference names, through the adb server that owns it."""
    serial, addr = parse_ref(ref)
    return connect(serial, addr=addr)


def check_server(addr: tuple[str, int]) -> str:
    """The server's version; a usage error naming the server when it cannot be reached."""
    host, port = addr
    try:
        return host_request("host:version", addr=addr, timeout=CHECK_TIMEOUT)
    except (InfrastructureError, OSError) as exc:
        raise DeviceAllocationError(
            f"--adb-server {host}:{port}: no adb server answers there ({exc}); on that machine run "
            f"`adb -a -P {port} nodaemon server` and let this machine reach TCP port {port}") from None


class RemotePool:
    """The local server's online devices plus those of every ``--adb-server``, first come first used.

    Every device it hands out is claimed for the run (device/claims.py), keyed
    by what the device is, so that two runs through one server, or through two
    servers that see the same phone, never share it.
    """

    #: Taking devices boots nothing (a listing and a claim): a run takes them before its
    #: first task, and one that finds too few free stops with one usage error (issue 37).
    allocates_up_front = True

    def __init__(self, servers: tuple[tuple[str, int], ...], requested: list[str] | None = None,
                 device_wait: float = 0.0):
        self.servers = servers
        self.requested = list(requested or [])
        self.device_wait = device_wait
        self._claims: dict[str, Any] = {}

    def _listing(self) -> list[tuple[tuple[str, int], list[tuple[str, str]]]]:
        local = server_address()
        listings = []
        try:
            listings.append((local, list_devices(addr=local)))
        except InfrastructureError:
            listings.append((local, []))  # no local server: the remote devices may be enough
        for addr in self.servers:
            check_server(addr)
            listings.append((addr, list_devices(addr=addr)))
        return listings

    def claim_requested(self) -> list[str]:
        """Check that every requested device reference is online and claim it (a usage error otherwise)."""
        return self.allocate(len(self.requested)) if self.requested else []

    def allocate(self, count: int) -> list[str]:
        with allocation_lock():
            listings = self._listing()
            online = [format_ref(serial, addr) for addr, devices in listings
                      for serial, state in devices if state == "device"]
            if self.requested:
                missing = [r for r in self.requested if r not in online]
                if missing:
                    raise DeviceAllocationError(f"requested device(s) {', '.join(missing)} not online; "
                                                f"online: {', '.join(online) or 'none'}")
                chosen = list(dict.fromkeys(self.requested))
                for ref in chosen:
                    if ref not in self._claims:
                        try:
                            self._claims[ref] = DeviceClaim.claim(ref, wait=self.device_wait)
                        except DeviceBusyError as exc:
                            raise DeviceAllocationError(str(exc)) from None
                free, busy = chosen, []
            else:
                free, busy, keys = [], [], set()
                for ref in online:
                    if len(free) == count:
                        break
                    key = device_key(ref)
                    if key in keys:
                        continue  # the same phone through another server: one device
                    keys.add(key)
                    claim = self._claims.get(ref) or DeviceClaim.try_claim(ref)
                    if claim is None:
                        busy.append(f"{ref} by {claim_holder(ref)}")
                        continue
                    self._claims[ref] = claim
                    free.append(ref)
            if len(free) < count:
                for ref in free:
                    if ref not in self.requested:
                        self._claims.pop(ref).release()  # a failed allocation holds nothing
                described = "; ".join(f"{addr[0]}:{addr[1]}: " + (", ".join(f"{s} ({st})" for s, st in devices)
                                                                    or "none")
                                      for addr, devices in listings)
                raise DeviceAllocationError(
                    f"{count} devices needed (one per worker) but the adb servers have {len(free)} free online "
                    f"({described})" + (f"; claimed by other runs: {'; '.join(busy)}" if busy else "")
                    + "; attach more or run fewer workers")
        log.info("devices of %d adb server(s): %s", len(listings), ", ".join(free[:count]))
        return free[:count]

    def close(self) -> None:
        """Give up the run's claims; the other servers' devices themselves are theirs."""
        claims, self._claims = self._claims, {}
        for claim in claims.values():
            claim.release()


class NetworkDevicePool(DevicePool):
    """A :class:`DevicePool` that first ``adb connect``s every ``--device HOST:PORT``
    (a phone or emulator reached over TCP) and disconnects them at the end."""

    def __init__(self, requested: list[str], network: list[str], **kwargs):
        super().__init__(requested=requested, **kwargs)
        self.network = network
        self._connected: list[str] = []

    def claim_requested(self) -> list[str]:
        self._connect_network()
        return super().claim_requested()

    def allocate(self, count: int) -> list[str]:
        self._connect_network()
        return super().allocate(count)

    def _connect_network(self) -> None:
        addr = server_address()
        for target in self.network:
            try:
                listed = dict(list_devices(addr=addr))
            except InfrastructureError:
                listed = {}
            if listed.get(target) == "device":
                continue
            try:
                reply = host_request(f"host:connect:{target}", addr=addr, timeout=CONNECT_TIMEOUT)
            except InfrastructureError:
                self._devices()  # starts the local adb server, as `adb connect` would
                reply = host_request(f"host:connect:{target}", addr=addr, timeout=CONNECT_TIMEOUT)
            if "connected to" not in reply:
                raise DeviceAllocationError(f"--device {target}: adb connect failed: {reply.strip()}")
            self._connected.append(target)
            try:
                wait_for_device(target, timeout=CONNECT_TIMEOUT, addr=addr)
            except (InfrastructureError, TimeoutError) as exc:
                raise DeviceAllocationError(f"--device {target}: connected but not online within "
                                            f"{CONNECT_TIMEOUT:g} s ({exc})") from None

    def close(self) -> None:
        connected, self._connected = self._connected, []
        for target in connected:
            try:
                host_request(f"host:disconnect:{target}", timeout=5)
            except InfrastructureError:
                pass
        super().close()
