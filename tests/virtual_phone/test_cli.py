"""`mobileagent-phone serve` as a user runs it."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys

import pytest
from rawadb import RawHost


def _serve(*args: str, env=None) -> subprocess.Popen:
    # faulthandler: a server that does not stop is sent SIGABRT and prints its threads.
    env = dict(env or os.environ, PYTHONFAULTHANDLER="1")
    return subprocess.Popen([sys.executable, "-m", "pytest_mobileagent.virtual_phone.cli", "serve", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


HANG = 300  # seconds: only a server that hangs takes that long to stop, however loaded the machine


def _stop(proc: subprocess.Popen, sig: int) -> int:
    """Send sig; the exit status, or (a hang) a failure showing where every thread was stuck."""
    proc.send_signal(sig)
    try:
        return proc.wait(timeout=HANG)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGABRT)
        _out, err = proc.communicate(timeout=60)
        pytest.fail(f"the server did not stop within {HANG} s of signal {sig}; its threads:\n{err}")


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
            # Outside adb's emulator scan (odd ports 5555-5585): no other adb server finds it.
            assert serial == f"127.0.0.1:{port}" and not 5555 <= port <= 5585
        host = RawHost(phones[1][1])
        host.connect()
        assert host.run("shell:echo served") == b"served\n"
        host.close()
        assert _stop(proc, sig) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_serve_registers_with_the_adb_server_only(adb_server_port):
    """The phone is connected to the given adb server; a second server started with
    default settings (scanning 5555-5585) does not list it. Stopped, it is disconnected."""
    import adbutils

    from pytest_mobileagent.device.fast_adb import list_devices

    env = dict(os.environ, ANDROID_ADB_SERVER_PORT=str(adb_server_port))
    proc = _serve(env=env)
    try:
        [(serial, port)] = _read_until_ready(proc)
        device = adbutils.AdbClient(port=adb_server_port).device(serial)
        assert device.shell("getprop ro.build.version.release") == "14"
        with _other_adb_server() as other:
            listed = [s for s, _state in list_devices(addr=("127.0.0.1", other))]
            assert serial not in listed and f"emulator-{port - 1}" not in listed
        assert _stop(proc, signal.SIGTERM) == 0
        assert serial not in dict(list_devices(addr=("127.0.0.1", adb_server_port)))
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_serve_with_emulator_ports_announces_emulators(adb_server_port):
    """--emulator-ports: as the Android emulator, an odd port 5555-5585 (while one is
    free) announced with host:emulator, so the serial is emulator-<port - 1>."""
    import adbutils

    env = dict(os.environ, ANDROID_ADB_SERVER_PORT=str(adb_server_port))
    proc = _serve("--emulator-ports", env=env)
    try:
        [(serial, port)] = _read_until_ready(proc)
        assert serial == f"emulator-{port - 1}"
        assert adbutils.AdbClient(port=adb_server_port).device(serial).shell("echo up") == "up"
        assert _stop(proc, signal.SIGTERM) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@contextlib.contextmanager
def _other_adb_server():
    """Another adb server with default settings (it scans 5555-5585 at start), on a free port."""
    import socket

    from pytest_mobileagent.virtual_phone.server import bundled_adb_path

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ADB_", "ANDROID_ADB"))}
    subprocess.run([bundled_adb_path(), "-P", str(port), "start-server"], check=True, timeout=60, env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        yield port
    finally:
        subprocess.run([bundled_adb_path(), "-P", str(port), "kill-server"], timeout=30, env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def test_serve_takes_its_port_back_right_after_stopping():
    """Connections the phone closed linger in TIME_WAIT; a restart must not care."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    for _ in range(2):
        proc = _serve("--port", str(port), "--no-adb")
        try:
            assert _read_until_ready(proc) == [(f"127.0.0.1:{port}", port)]
            host = RawHost(port)
            host.connect()
            assert host.run("shell:echo served") == b"served\n"
            # Stopped with the connection open: the phone closes it first.
            assert _stop(proc, signal.SIGTERM) == 0
            host.close()
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
