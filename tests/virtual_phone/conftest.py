"""Fixtures for the virtual phone's own tests."""

from __future__ import annotations

import os
import socket
import subprocess
from dataclasses import dataclass

import pytest

DEBIAN_ADB = "/usr/bin/adb"


def wheel_adb() -> str:
    from pytest_mobileagent.virtual_phone.server import bundled_adb_path

    return bundled_adb_path()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class AdbServer:
    """An adb server the session phone is registered with."""

    name: str
    binary: str
    port: int

    def run(self, *args: str, serial: str | None = None, timeout: float = 30) -> subprocess.CompletedProcess:
        cmd = [self.binary, "-P", str(self.port)] + (["-s", serial] if serial else []) + list(args)
        return subprocess.run(cmd, capture_output=True, timeout=timeout)


@pytest.fixture(scope="session")
def debian_adb_server(phone):
    """A server started with Debian's adb (29.x), with the session phone registered."""
    if not (os.path.isfile(DEBIAN_ADB) and os.access(DEBIAN_ADB, os.X_OK)):
        pytest.skip(f"Debian's adb is not installed at {DEBIAN_ADB} (apt-get install -y adb)")
    from pytest_mobileagent.virtual_phone.server import register_with_adb

    port = _free_port()
    subprocess.run([DEBIAN_ADB, "-P", str(port), "start-server"], check=True, timeout=60,
                   capture_output=True)
    try:
        register_with_adb(phone.port, phone.serial, port)
        yield AdbServer("debian", DEBIAN_ADB, port)
    finally:
        subprocess.run([DEBIAN_ADB, "-P", str(port), "kill-server"], timeout=30, capture_output=True)


@pytest.fixture(params=["wheel", "debian"])
def adb_server(request, phone, adb_server_port):
    """Each adb server implementation in turn, as an `AdbServer`."""
    if request.param == "wheel":
        return AdbServer("wheel", wheel_adb(), adb_server_port)
    return request.getfixturevalue("debian_adb_server")


@pytest.fixture
def adb_client(adb_server):
    import adbutils

    return adbutils.AdbClient(port=adb_server.port)


@pytest.fixture
def fresh_phone():
    """An in-process VirtualPhone, not served (for shell and state tests)."""
    from pytest_mobileagent.virtual_phone import VirtualPhone

    return VirtualPhone(seed=7)


@pytest.fixture
def unregistered_phone():
    """A phone served on a port but not announced to any adb server (raw socket tests)."""
    from pytest_mobileagent.virtual_phone import start_phones

    with start_phones(1, register=False) as phones:
        yield phones[0]
