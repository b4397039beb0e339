"""Fixtures for installing and setting up: bare phones on each adb server, test-built APKs."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

DEBIAN_ADB = "/usr/bin/adb"
SOURCE_DIR = Path(__file__).resolve().parents[2] / "listener_apk"
ANDROID_JAR = "/usr/lib/android-sdk/platforms/android-23/android.jar"


def require_tool(name: str) -> str:
    """The tool's path; a skip without it, or a failure under MOBILEAGENT_REQUIRE_SDK=1 (CI)."""
    path = name if os.path.isabs(name) and os.access(name, os.X_OK) else shutil.which(name)
    if path is None:
        reason = f"{name} not installed (listener_apk/install-sdk.sh installs it)"
        if os.environ.get("MOBILEAGENT_REQUIRE_SDK") == "1":
            pytest.fail(f"MOBILEAGENT_REQUIRE_SDK=1 but {reason}")
        pytest.skip(reason)
    return path


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


def build_apk(out: Path, package: str, version_code: int, version_name: str, *, target_sdk: int = 28) -> Path:
    """A signed, code-less APK with the given manifest, built with the SDK tools."""
    aapt, zipalign, apksigner = (require_tool(t) for t in ("aapt", "zipalign", "apksigner"))
    if not os.path.isfile(ANDROID_JAR):
        require_tool(ANDROID_JAR)
    work = out.parent / f".{out.stem}"
    work.mkdir(parents=True, exist_ok=True)
    (work / "AndroidManifest.xml").write_text(
        '<?xml version="1.0" encoding="utf-8"?>\n'
        f'<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="{package}">\n'
        f'  <uses-sdk android:minSdkVersion="21" android:targetSdkVersion="{target_sdk}" />\n'
        '  <application android:hasCode="false" android:label="test" />\n'
        '</manifest>\n')
    subprocess.run([aapt, "package", "-f", "-M", str(work / "AndroidManifest.xml"), "-I", ANDROID_JAR,
                    "--version-code", str(version_code), "--version-name", version_name,
                    "-F", str(work / "unaligned.apk")], check=True, capture_output=True, timeout=120)
    subprocess.run([zipalign, "-f", "4", str(work / "unaligned.apk"), str(work / "aligned.apk")],
                   check=True, capture_output=True, timeout=120)
    subprocess.run([apksigner, "sign", "--v4-signing-enabled", "false", "--ks", str(SOURCE_DIR / "debug.keystore"),
                    "--ks-pass", "pass:android", "--key-pass", "pass:android", "--ks-key-alias", "listener",
                    "--out", str(out), str(work / "aligned.apk")], check=True, capture_output=True, timeout=120)
    shutil.rmtree(work)
    return out


@pytest.fixture(scope="session")
def test_apks(tmp_path_factory) -> TestApks:
    """APKs built once per session: a Notes build (v2 and v3), a non-benchmark app, an old-target app."""
    folder = tmp_path_factory.mktemp("apks")
    build_apk(folder / "notes-v2.apk", "com.simplemobiletools.notes.pro", 2, "6.16.0")
    build_apk(folder / "notes-v3.apk", "com.simplemobiletools.notes.pro", 3, "6.17.0")
    build_apk(folder / "other.apk", "org.example.other", 1, "1.0")
    build_apk(folder / "old-target.apk", "org.example.old", 1, "1.0", target_sdk=22)
    (folder / "corrupt.apk").write_bytes(b"PK\x03\x04 this is not a zip archive")
    return TestApks(folder)
