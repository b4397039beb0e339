"""Fixtures for installing and setting up: bare phones on each adb server, test-built APKs."""

from __future__ import annotations

import os
import socket
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from listener_apks import build_apk

DEBIAN_ADB = "/usr/bin/adb"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Adb:
    """One adb server and the client binary of the same version."""

    name: str
    binary: str
    port: int

    def run(self, *args: str, serial: str, timeout: float = 60) -> subprocess.CompletedProcess:
        return subprocess.run([self.binary, "-P", str(self.port), "-s", serial, *args],
                              capture_output=True, text=True, timeout=timeout)

    def client(self):
        import adbutils

        return adbutils.AdbClient(port=self.port)


@pytest.fixture(scope="session")
def debian_adb_port():
    """A server of Debian's adb 29 (its own port: a client of another version would restart it)."""
    if not os.access(DEBIAN_ADB, os.X_OK):
        pytest.skip(f"Debian's adb is not installed at {DEBIAN_ADB} (apt-get install -y adb)")
    port = _free_port()
    subprocess.run([DEBIAN_ADB, "-P", str(port), "start-server"], check=True, timeout=60, capture_output=True)
    try:
        yield port
    finally:
        subprocess.run([DEBIAN_ADB, "-P", str(port), "kill-server"], timeout=30, capture_output=True)


@pytest.fixture(params=["adb36", "adb29"])
def adb(request, adb_server_port) -> Adb:
    """Each adb version in turn: the wheel's 36 (the session server) and Debian's 29."""
    from pytest_mobileagent.virtual_phone.server import bundled_adb_path

    if request.param == "adb36":
        return Adb("adb36", bundled_adb_path(), adb_server_port)
    return Adb("adb29", DEBIAN_ADB, request.getfixturevalue("debian_adb_port"))


@pytest.fixture
def bare_phone(adb, phone_factory):
    """A phone just booted on ``adb``'s server, not set up: no listener, so no events."""
    return phone_factory(1, adb_server_port=adb.port, prepare=False)[0]


@dataclass(frozen=True)
class TestApks:
    folder: Path

    def path(self, name: str) -> Path:
        return self.folder / name


@pytest.fixture(scope="session")
def test_apks(tmp_path_factory) -> TestApks:
    """APKs built once per session: a Notes build (v2 and v3), a non-benchmark app, an old-target app."""
    folder = tmp_path_factory.mktemp("apks")
    # 6.17.0 is the modelled release (versionCode 114 at its tag); 6.16.0 an older build
    build_apk(folder / "notes-v2.apk", "com.simplemobiletools.notes.pro", 113, "6.16.0")
    build_apk(folder / "notes-v3.apk", "com.simplemobiletools.notes.pro", 114, "6.17.0")
    build_apk(folder / "other.apk", "org.example.other", 1, "1.0")
    build_apk(folder / "old-target.apk", "org.example.old", 1, "1.0", target_sdk=22)
    (folder / "corrupt.apk").write_bytes(b"PK\x03\x04 this is not a zip archive")
    return TestApks(folder)
