"""`mobileagent-phone serve` as a user runs it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest


def _serve(*args: str, env=None) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "pytest_mobileagent.virtual_phone.cli", "serve", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def _read_until_ready(proc: subprocess.Popen) -> list[tuple[str, int]]:
    phones = []
    for line in proc.stdout:  # bounded: the process exits (EOF) if it fails
        line = line.strip()
        if line == "ready":
            return phones
        serial, port = line.split()
        phones.append((serial, int(port)))
    raise AssertionError(f"no 'ready' line; stderr: {proc.stderr.read()}")


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_serve_prints_phones_then_ready_and_stops_cleanly(sig):
    proc = _serve("--count", "2", "--no-adb", "--seed", "5")
    try:
        phones = _read_until_ready(proc)
        assert len(phones) == 2
        for serial, port in phones:
            assert serial == f"emulator-{port - 1}"
        import sys as _sys
        _sys.path.insert(0, os.path.dirname(__file__))
        from rawadb import RawHost

        host = RawHost(phones[1][1])
        host.connect()
        assert host.run("shell:echo served") == b"served\n"
        host.close()
        proc.send_signal(sig)
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_serve_registers_with_the_adb_server(adb_server_port):
    import adbutils

    env = dict(os.environ, ANDROID_ADB_SERVER_PORT=str(adb_server_port))
    proc = _serve(env=env)
    try:
        [(serial, _port)] = _read_until_ready(proc)
        device = adbutils.AdbClient(port=adb_server_port).device(serial)
        assert device.shell("getprop ro.build.version.release") == "14"
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_serve_reports_a_busy_port():
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        proc = _serve("--port", str(port), "--no-adb")
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 1
    assert f"port {port} is not free" in err
